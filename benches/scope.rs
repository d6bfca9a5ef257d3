//! Scope derivation for a one-file change (no `--scope`) on the generated
//! repository of 2,000 service modules and 50 agent modules: the head
//! commit edits one agent module. Two cache states:
//!
//! - `cold`: a fresh store every iteration: every blob of both sides is
//!   parsed to find the agent files and relate the change.
//! - `warm`: one store primed by the same diff (a daemon that has seen
//!   both commits).
//!
//! Before timing, it prints how many modules derivation read (facts looked
//! up) and how many it had to parse cold. Run: `cargo bench --bench scope`.

mod support;

use support::Store;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode};
use shipgate_daemon::engine::DiffRequest;
use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::Duration;

fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("running git");
    assert!(output.status.success(), "git {args:?} failed");
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

fn scope_benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("creating a temporary directory");
    let repo = support::generate(dir.path(), 2000, 50);
    // One commit on top of the base that edits one agent module.
    git(&repo.path, &["checkout", "-q", &repo.base]);
    let agent = repo.path.join(&repo.agent_files[0]);
    let mut source = std::fs::read_to_string(&agent).expect("reading an agent module");
    source.push_str("\n# reviewed\n");
    std::fs::write(&agent, source).expect("editing an agent module");
    git(&repo.path, &["commit", "-qam", "one agent module"]);
    let head = git(&repo.path, &["rev-parse", "HEAD"]);
    let request = DiffRequest {
        workspace: repo.path.clone(),
        base: Some(repo.base.clone()),
        head: Some(head),
        scope: None,
        base_scope: None,
        max_python_files: Some(5000),
        format: shipgate_daemon::render::OutputFormat::Text,
        worktree: false,
        staged: false,
        all: false,
    };

    let store = Store::fresh();
    let outcome = store.engine.diff(&request).expect("a derived diff");
    let selection = &outcome.document["scope_selection"];
    assert_eq!(selection["mode"], "derived");
    assert_eq!(
        selection["scopes"].as_array().map(Vec::len),
        Some(1),
        "one scope: {selection}"
    );
    let looked_up = store.cache.facts.hits.load(Ordering::Relaxed)
        + store.cache.facts.misses.load(Ordering::Relaxed);
    let parsed = store.cache.facts.misses.load(Ordering::Relaxed);
    eprintln!(
        "scope derivation, one-file change: scope {} ({}); {looked_up} module facts looked up, {parsed} parsed cold",
        selection["scopes"][0], selection["reason"]
    );

    let mut group = c.benchmark_group("scope/2000_modules_one_file_change");
    group.sampling_mode(SamplingMode::Flat);
    group.measurement_time(Duration::from_secs(15));
    group.bench_function("cold", |b| {
        b.iter_batched_ref(
            Store::fresh,
            |store| store.engine.diff(&request).expect("cold derived diff"),
            BatchSize::PerIteration,
        )
    });
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("warm", |b| {
        // The answer forgotten each time: the derivation and graphs come
        // from the store, not an answer kept in memory.
        b.iter_batched(
            || store.engine.forget_answers(),
            |()| store.engine.diff(&request).expect("warm derived diff"),
            criterion::BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1));
    targets = scope_benches
}
criterion_main!(benches);
