//! Reach extraction: what each bound tool reaches, read from cached facts.
//! A generated scope of 100 modules holds 1,000 tools; each calls a
//! module helper that posts to an endpoint built from a constant, a
//! parameter and an environment variable, and every fifth one also runs
//! a SQL statement and writes a file. Facts are extracted outside the
//! timed loop, as a warm daemon holds them.
//!
//! Two shapes that once read in exponential or quadratic time (issue 16,
//! item 5): `fanout/N_helpers`, one tool calling N helpers that each call
//! all N (read once per helper and binding of its parameters, within the
//! side's work budget), and `many_tools/N_definitions`, one side's graph
//! for a file of N `@function_tool` definitions listed by one agent; and
//! `graph/handoff_chain/N_agents` (issue 46, item 2), one side's graph for
//! a module of N agents each handing off to the one before it.
//!
//! Run: `cargo bench --bench reach` (criterion prints the time for all
//! 1,000 tools; divide by 1,000 for the time per tool). A quick run:
//! `cargo bench --bench reach -- --sample-size 10 --measurement-time 5`.

mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shipgate_daemon::graph::{build_side, ScopeContext, SideInput, SourceFile};
use shipgate_daemon::python::{extract_facts, ModuleFacts};
use shipgate_daemon::reach::{tool_reach, Census};
use shipgate_daemon::resolve::ModuleSet;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

const MODULES: usize = 100;
const TOOLS_PER_MODULE: usize = 10;

fn module(m: usize) -> String {
    let mut source = String::from(
        "import os\nimport sqlite3\n\nimport requests\nfrom agents import function_tool\n\nAPI = \"https://api.shop.example\"\n\n\ndef _post(path, payload):\n    return requests.post(f\"{API}{path}\", json=payload, headers={\"Authorization\": f\"Bearer {os.environ['SHOP_TOKEN']}\"})\n",
    );
    for t in 0..TOOLS_PER_MODULE {
        source.push_str(&format!(
            "\n\n@function_tool\ndef tool_{m}_{t}(order_id: str, amount: float) -> str:\n    \"\"\"Tool {t}.\"\"\"\n    result = _post(f\"/orders/{{order_id}}/t{t}\", {{\"amount\": amount, \"reason\": \"agent\"}})\n"
        ));
        if t % 5 == 0 {
            source.push_str("    conn = sqlite3.connect(\"shop.db\")\n    conn.execute(\"UPDATE orders SET state = 'x' WHERE id = ?\", (order_id,))\n    with open(\"audit/log.txt\", \"a\") as f:\n        f.write(order_id)\n");
        }
        source.push_str("    return result.text\n");
    }
    source
}

fn reach_benches(c: &mut Criterion) {
    let files: Vec<(String, ModuleFacts)> = (0..MODULES)
        .map(|m| {
            (
                format!("app/tools{m:03}.py"),
                extract_facts(module(m).as_bytes()),
            )
        })
        .collect();
    let context = ScopeContext::default();
    let modules = ModuleSet::new(
        files.iter().map(|(p, f)| (p.as_str(), f)),
        std::iter::empty(),
        &context,
    );
    let tools: Vec<(&str, u32)> = files
        .iter()
        .flat_map(|(path, facts)| {
            facts
                .functions
                .iter()
                .filter(|f| f.name.starts_with("tool_"))
                .map(move |f| (path.as_str(), f.line))
        })
        .collect();
    assert_eq!(tools.len(), MODULES * TOOLS_PER_MODULE);
    // Every tool reaches its endpoint; every fifth also a database and a file.
    let census = Census::of(&modules);
    let sample = tool_reach(&modules, &census, tools[0].0, tools[0].1).expect("reach");
    assert_eq!(sample.calls.len(), 1);
    assert_eq!(sample.effects.len(), 2);
    assert!(sample.limits.is_empty(), "{:?}", sample.limits);

    let mut group = c.benchmark_group("reach");
    group.throughput(Throughput::Elements(tools.len() as u64));
    group.measurement_time(Duration::from_secs(5));
    group.bench_function(format!("tool_reach/{}_tools", tools.len()), |b| {
        b.iter(|| {
            for (path, line) in &tools {
                black_box(tool_reach(&modules, &census, path, *line));
            }
        })
    });
    group.finish();
}

/// The fan-out tool's reach: it names the endpoint, and the helper bound,
/// without spending the budget.
fn fanout_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("reach");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for helpers in [10, 20] {
        let facts = extract_facts(support::fanout_module(helpers).as_bytes());
        let context = ScopeContext::default();
        let modules = ModuleSet::new(
            std::iter::once(("app/agent.py", &facts)),
            std::iter::empty(),
            &context,
        );
        let census = Census::of(&modules);
        let line = facts
            .functions
            .iter()
            .find(|f| f.name == "tool")
            .map(|f| f.line)
            .expect("the tool");
        let reach = tool_reach(&modules, &census, "app/agent.py", line).expect("reach");
        assert!(!reach.calls.is_empty());
        assert!(reach
            .calls
            .iter()
            .all(|c| c.url.starts_with(support::FANOUT_ENDPOINT)));
        assert!(
            !reach.limits.iter().any(|l| l.why.contains("work budget")),
            "{:?}",
            reach.limits.first()
        );
        group.bench_function(format!("fanout/{helpers}_helpers"), |b| {
            b.iter(|| black_box(tool_reach(&modules, &census, "app/agent.py", line)))
        });
    }
    group.finish();
}

/// One side's graph for a file of many tool definitions (a check once
/// scanned every binding per tool).
fn many_tools_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("reach");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for tools in [5_000, 50_000] {
        let source = support::many_tools_module(tools);
        assert!(source.len() < 2_000_000);
        let input = one_module(&source);
        let graph = build_side(input.clone());
        assert_eq!(graph.agents.len(), 1);
        assert!(!graph.bindings.is_empty());
        group.bench_function(format!("many_tools/{tools}_definitions"), |b| {
            b.iter(|| black_box(build_side(black_box(input.clone()))))
        });
    }
    group.finish();
}

/// A side of one module, `agent.py`, holding `source`.
fn one_module(source: &str) -> SideInput {
    SideInput {
        scope: "app".into(),
        files: vec![SourceFile {
            path: "agent.py".into(),
            facts: Arc::new(extract_facts(source.as_bytes())),
        }],
        ..SideInput::default()
    }
}

/// One side's graph for a module of agents handing off in a chain (issue
/// 46, item 2: each handoff read the module's constructions again, so the
/// graph grew with the square of the agents).
fn handoff_chain_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("graph");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for agents in [1_000, 4_000, 16_000] {
        let input = one_module(&support::handoff_chain_module(agents));
        let graph = build_side(input.clone());
        assert_eq!(graph.agents.len(), agents);
        group.bench_function(format!("handoff_chain/{agents}_agents"), |b| {
            b.iter(|| black_box(build_side(black_box(input.clone()))))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    reach_benches,
    fanout_benches,
    many_tools_benches,
    handoff_chain_benches
);
criterion_main!(benches);
