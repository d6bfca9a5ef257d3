//! Reach extraction: what each bound tool reaches, read from cached facts.
//! A generated scope of 100 modules holds 1,000 tools; each calls a
//! module helper that posts to an endpoint built from a constant, a
//! parameter and an environment variable, and every fifth one also runs
//! a SQL statement and writes a file. Facts are extracted outside the
//! timed loop, as a warm daemon holds them.
//!
//! Run: `cargo bench --bench reach` (criterion prints the time for all
//! 1,000 tools; divide by 1,000 for the time per tool).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shipgate_daemon::graph::resolve::ModuleSet;
use shipgate_daemon::graph::ScopeContext;
use shipgate_daemon::python::{extract_facts, ModuleFacts};
use shipgate_daemon::reach::{tool_reach, Census};
use std::hint::black_box;
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

criterion_group!(benches, reach_benches);
criterion_main!(benches);
