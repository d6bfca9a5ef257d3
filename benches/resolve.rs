//! Cross-module resolution: building one side's graph for a scope of 1,000
//! modules whose 50 agents bind tools from other modules (through package
//! re-exports, module-qualified references and aliases). Facts are
//! extracted once, outside the timed loop: this measures `graph/` only, as
//! a warm daemon runs it.
//!
//! Run: `cargo bench --bench resolve` (criterion prints the time per side;
//! divide by 1,000 for the time per module).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shipgate_daemon::graph::{build_side, SideInput, SourceFile};
use shipgate_daemon::python::extract_facts;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

const PACKAGES: usize = 19;
const TOOL_MODULES_PER_PACKAGE: usize = 50;
const AGENTS: usize = 50;

/// `svc/pkgNN/toolsMM.py` with three tools each, `svc/pkgNN/__init__.py`
/// re-exporting the first module's tools, and agent modules binding tools
/// from several packages in the three spellings the resolver follows.
fn sources() -> Vec<(String, String)> {
    let mut files = vec![
        ("__init__.py".to_string(), String::new()),
        ("svc/__init__.py".to_string(), String::new()),
    ];
    for p in 0..PACKAGES {
        files.push((
            format!("svc/pkg{p:02}/__init__.py"),
            format!("from .tools00 import t{p:02}_00_0, t{p:02}_00_1\n"),
        ));
        for m in 0..TOOL_MODULES_PER_PACKAGE {
            let mut module = String::from("import os\n\nfrom agents import function_tool\n\n");
            for t in 0..3 {
                module.push_str(&format!(
                    "\n@function_tool\ndef t{p:02}_{m:02}_{t}(order_id: str, amount: float = 0.0) -> dict:\n    \"\"\"Tool {t}.\"\"\"\n    total = amount * {t} + len(order_id)\n    return {{\"id\": order_id, \"total\": total, \"env\": os.environ.get(\"X\")}}\n"
                ));
            }
            files.push((format!("svc/pkg{p:02}/tools{m:02}.py"), module));
        }
    }
    for a in 0..AGENTS {
        let (p1, p2, m) = (
            a % PACKAGES,
            (a + 7) % PACKAGES,
            1 + a % (TOOL_MODULES_PER_PACKAGE - 1),
        );
        files.push((
            format!("agents_{a:02}.py"),
            format!(
                "from agents import Agent\nfrom svc.pkg{p1:02} import t{p1:02}_00_0\nfrom svc.pkg{p2:02} import tools{m:02}\nfrom .svc.pkg{p1:02}.tools{m:02} import t{p1:02}_{m:02}_2 as renamed\n\nalias = tools{m:02}.t{p2:02}_{m:02}_1\n\nagent_{a:02} = Agent(name=\"a{a}\", tools=[t{p1:02}_00_0, tools{m:02}.t{p2:02}_{m:02}_0, alias, renamed])\n"
            ),
        ));
    }
    files
}

fn resolve_benches(c: &mut Criterion) {
    let files: Vec<SourceFile> = sources()
        .into_iter()
        .map(|(path, source)| SourceFile {
            path,
            facts: Arc::new(extract_facts(source.as_bytes())),
        })
        .collect();
    let input = SideInput {
        scope: "app".into(),
        files,
        ..SideInput::default()
    };
    let modules = input.files.len();
    let graph = build_side(input.clone());
    assert_eq!(graph.agents.len(), AGENTS);
    assert_eq!(
        graph.bindings.len(),
        AGENTS * 4,
        "every listed tool resolves: {:?}",
        graph.gaps.first()
    );
    assert!(graph.gaps.is_empty(), "{:?}", graph.gaps.first());

    let mut group = c.benchmark_group("resolve");
    group.throughput(Throughput::Elements(modules as u64));
    group.measurement_time(Duration::from_secs(5));
    group.bench_function(
        format!("build_side/{modules}_modules_{AGENTS}_agents"),
        |b| b.iter(|| black_box(build_side(black_box(input.clone())))),
    );
    group.finish();
}

criterion_group!(benches, resolve_benches);
criterion_main!(benches);
