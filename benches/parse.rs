//! Parse-to-facts throughput: `extract_facts` over the bytes of generated
//! service modules and, separately, of agent modules (which exercise the
//! decorator, call and binding extraction the frameworks layer reads).
//!
//! Run: `cargo bench --bench parse` (add `-- --quick` for a fast pass).

mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shipgate_daemon::frameworks::openai;
use shipgate_daemon::python::extract_facts;
use std::hint::black_box;
use std::time::Duration;

/// Enough modules that one iteration parses about a megabyte.
const MODULES: usize = 400;
const AGENTS: usize = 50;

fn parse_benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("creating a temporary directory");
    let repo = support::generate(dir.path(), MODULES, AGENTS);
    let modules = repo.read(&repo.service_files);
    let agents = repo.read(&repo.agent_files);
    check_corpus(&modules, false);
    check_corpus(&agents, true);
    bench_corpus(c, "parse/service_modules", &modules);
    bench_corpus(c, "parse/agent_modules", &agents);
}

/// Fails fast if the generator drifts into code that does not parse (that
/// would measure the error path) or, for agents, that has no agent.
fn check_corpus(sources: &[Vec<u8>], agents: bool) {
    for source in sources {
        let facts = extract_facts(source);
        assert!(
            facts.syntax_error.is_none(),
            "a generated module does not parse: {:?}\n{}",
            facts.syntax_error,
            String::from_utf8_lossy(source)
        );
        assert!(!facts.functions.is_empty(), "a module without functions");
        if agents {
            assert_eq!(
                openai::agent_constructions(&facts, "agent.py", &Default::default()).len(),
                1,
                "an agent module should construct exactly one SDK agent"
            );
        }
    }
}

/// One benchmark parsing every source once per iteration, reported in
/// bytes so criterion prints MB/s.
fn bench_corpus(c: &mut Criterion, name: &str, sources: &[Vec<u8>]) {
    let bytes: usize = sources.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(format!("extract_facts/{}_files", sources.len()), |b| {
        b.iter(|| {
            for source in sources {
                black_box(extract_facts(black_box(source)));
            }
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    // Short windows: the machine is shared, and parsing is steady enough
    // that a few seconds give a tight interval.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = parse_benches
}
criterion_main!(benches);
