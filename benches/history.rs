//! History over 1,000 commits (issue 10): a generated repository of 500
//! service modules and 20 agent modules, extended by 1,000 commits that
//! each edit one module (written with `git fast-import`). Two states:
//!
//! - `cold`: a fresh store: every step's graphs are built (each tree once,
//!   consecutive commits share one) and indexed.
//! - `warm`: the same query again: every step comes from the history index.
//!
//! Run: `cargo bench --bench history`. `SHIPGATE_BENCH_HISTORY_COMMITS`
//! sets another length (a profile under valgrind wants a short one: the
//! cold query runs once before any timing).

mod support;

use support::Store;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode};
use shipgate_daemon::history::HistoryRequest;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// Commits appended when `SHIPGATE_BENCH_HISTORY_COMMITS` says none.
const COMMITS: usize = 1000;

/// The commits to append: `SHIPGATE_BENCH_HISTORY_COMMITS`, else `COMMITS`.
fn commits() -> usize {
    std::env::var("SHIPGATE_BENCH_HISTORY_COMMITS")
        .ok()
        .and_then(|count| count.parse().ok())
        .filter(|count| *count > 0)
        .unwrap_or(COMMITS)
}

/// Appends `commits` commits to `base` on branch `history`, each editing
/// one of `files` (a comment line), and returns the branch name.
fn extend(repo: &Path, base: &str, files: &[std::path::PathBuf], commits: usize) -> String {
    let mut script = Vec::new();
    writeln!(script, "reset refs/heads/history\nfrom {base}").expect("script");
    for n in 0..commits {
        let file = &files[n % files.len()];
        let mut content = std::fs::read(repo.join(file)).expect("reading a module");
        content.extend_from_slice(format!("\n# revision {n}\n").as_bytes());
        let message = format!("edit {} ({n})", file.display());
        let when = 1_704_067_200 + n as i64 * 60;
        writeln!(script, "commit refs/heads/history").expect("script");
        writeln!(script, "author Bench <bench@shipgate.invalid> {when} +0000").expect("script");
        writeln!(
            script,
            "committer Bench <bench@shipgate.invalid> {when} +0000"
        )
        .expect("script");
        writeln!(script, "data {}\n{message}", message.len()).expect("script");
        writeln!(script, "M 100644 inline {}", file.display()).expect("script");
        writeln!(script, "data {}", content.len()).expect("script");
        script.extend_from_slice(&content);
        writeln!(script).expect("script");
    }
    support::fast_import(repo, &script);
    "history".to_string()
}

fn history_benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("creating a temporary directory");
    let repo = support::generate(dir.path(), 500, 20);
    let mut files = repo.service_files.clone();
    files.extend(repo.agent_files.iter().cloned());
    let commits = commits();
    let branch = extend(&repo.path, &repo.base, &files, commits);
    let request = HistoryRequest {
        workspace: repo.path.clone(),
        since: Some(repo.base.clone()),
        until: Some(branch),
        max_python_files: Some(5000),
        want_text: true,
        ..HistoryRequest::default()
    };
    let store = Store::fresh();
    let outcome = store
        .engine
        .history(&request, &mut |_, _| {})
        .expect("a history");
    assert_eq!(outcome.document["commits_read"], commits);

    let mut group = c.benchmark_group(format!("history/{commits}_commits_500_modules"));
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    group.bench_function("cold", |b| {
        b.iter_batched_ref(
            Store::fresh,
            |store| {
                store
                    .engine
                    .history(&request, &mut |_, _| {})
                    .expect("cold history")
            },
            BatchSize::PerIteration,
        )
    });
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("warm", |b| {
        b.iter(|| {
            store
                .engine
                .history(&request, &mut |_, _| {})
                .expect("warm history")
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1));
    targets = history_benches
}
criterion_main!(benches);
