//! Host comparisons on a large tree (issue 42): a generated repository of
//! 400,000 tree entries (2,000 directories of 200 files, written with `git
//! fast-import`) with host configuration in a few of them — Claude Code
//! settings, a root and a nested `.mcp.json`, a workflow — and a branch
//! that edits two of them. Two states:
//!
//! - `cold`: a fresh store: both trees are walked for sources at any depth
//!   (`**/.mcp.json`) and every source read.
//! - `warm`: the same comparison again: both inventories come from the
//!   store by tree id.
//!
//! Run: `cargo bench --bench hosts`. `SHIPGATE_BENCH_HOST_ENTRIES` sets
//! another tree size.

mod support;

use support::Store;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode};
use shipgate_daemon::engine::HostDiffRequest;
use shipgate_daemon::render::OutputFormat;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Tree entries when `SHIPGATE_BENCH_HOST_ENTRIES` says none.
const ENTRIES: usize = 400_000;

/// Files per generated directory.
const PER_DIRECTORY: usize = 200;

fn entries() -> usize {
    std::env::var("SHIPGATE_BENCH_HOST_ENTRIES")
        .ok()
        .and_then(|count| count.parse().ok())
        .filter(|count| *count > 0)
        .unwrap_or(ENTRIES)
}

const SETTINGS_BASE: &str = r#"{"permissions": {"allow": ["Bash(npm run test:*)", "Read(./src/**)"], "deny": ["Bash(rm -rf:*)"], "defaultMode": "default"}}"#;
const SETTINGS_HEAD: &str = r#"{"permissions": {"allow": ["Bash(npm run:*)", "Read(./src/**)"], "deny": [], "defaultMode": "acceptEdits"}}"#;
const MCP: &str = r#"{"mcpServers": {"docs": {"command": "npx", "args": ["docs-mcp@1.2.0"], "env": {"DOCS_TOKEN": "x"}}}}"#;
const WORKFLOW_BASE: &str = "on: [pull_request]\npermissions:\n  contents: read\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n";
const WORKFLOW_HEAD: &str = "on: [pull_request_target]\npermissions:\n  contents: write\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n";

/// A repository at `dir` whose `main` holds `entries` plain files and the
/// base configuration, and whose `feature` edits the settings and the
/// workflow.
fn generate(dir: &Path, entries: usize) {
    let git = |args: &[&str]| {
        let status = Command::new("git").arg("-C").arg(dir).args(args).status();
        assert!(status.expect("running git").success(), "git {args:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    let mut script = Vec::new();
    let inline = |script: &mut Vec<u8>, path: &str, text: &str| {
        writeln!(
            script,
            "M 100644 inline {path}\ndata {}\n{text}",
            text.len()
        )
        .expect("script");
    };
    writeln!(script, "blob\nmark :1\ndata 12\nprint('x')\n\n").expect("script");
    writeln!(
        script,
        "commit refs/heads/main\nmark :2\ncommitter Bench <bench@shipgate.invalid> 1704067200 +0000\ndata 4\nbase"
    )
    .expect("script");
    for n in 0..entries {
        writeln!(
            script,
            "M 100644 :1 pkg{:04}/file{:03}.py",
            n / PER_DIRECTORY,
            n % PER_DIRECTORY
        )
        .expect("script");
    }
    inline(&mut script, ".claude/settings.json", SETTINGS_BASE);
    inline(&mut script, ".mcp.json", MCP);
    inline(&mut script, "pkg0999/deep/service/.mcp.json", MCP);
    inline(&mut script, ".github/workflows/ci.yml", WORKFLOW_BASE);
    writeln!(
        script,
        "commit refs/heads/feature\ncommitter Bench <bench@shipgate.invalid> 1704067260 +0000\ndata 4\nhead\nfrom :2"
    )
    .expect("script");
    inline(&mut script, ".claude/settings.json", SETTINGS_HEAD);
    inline(&mut script, ".github/workflows/ci.yml", WORKFLOW_HEAD);
    support::fast_import(dir, &script);
}

fn host_benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("creating a temporary directory");
    let entries = entries();
    generate(dir.path(), entries);
    let request = HostDiffRequest {
        workspace: dir.path().to_path_buf(),
        base: Some("main".into()),
        head: Some("feature".into()),
        staged: false,
        format: OutputFormat::Json,
    };
    let store = Store::fresh();
    let outcome = store.engine.host_diff(&request).expect("a host diff");
    assert_eq!(outcome.rows, 4, "{}", outcome.json);

    let mut group = c.benchmark_group(format!("hosts/{entries}_entries"));
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("cold", |b| {
        b.iter_batched_ref(
            Store::fresh,
            |store| store.engine.host_diff(&request).expect("cold host diff"),
            BatchSize::PerIteration,
        )
    });
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("warm", |b| {
        b.iter(|| store.engine.host_diff(&request).expect("warm host diff"))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1));
    targets = host_benches
}
criterion_main!(benches);
