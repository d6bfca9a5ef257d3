//! End-to-end diff latency (`Engine::diff`, JSON and text rendered) on a
//! generated repository of 2,000 service modules and 50 agent modules whose
//! head commit edits ~2% of the files. Three cache states:
//!
//! - `cold`: a fresh, empty store every iteration: every blob is parsed and
//!   both side graphs are built (a first request to a new daemon).
//! - `warm`: one engine, primed by the same diff: the answer it gave is
//!   kept in memory (a repeated request).
//! - `warm_store`: the same, with the answer forgotten each time: both side
//!   graphs are store hits, decoded, compared and rendered again.
//! - `head_only`: the base commit is fully indexed, the head is new: only the
//!   head's changed blobs are parsed and only its graph is built (a pushed
//!   branch compared against an indexed main). Before each iteration the
//!   entries the head added (its graph and the facts of its changed blobs)
//!   are evicted, so every iteration does that incremental work again.
//!
//! - `scaling/cold/N`: the cold diff of the same shape at 1,000 and 5,000
//!   service modules, so the exponent of the cold path's growth is read
//!   off two points: `log(t5000 / t1000) / log(5)` (1 is linear).
//!
//! Run: `cargo bench --bench diff` (add `-- --quick` for a fast pass;
//! `-- scaling` for the two scaling points alone).

mod support;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BatchSize, BenchmarkGroup, BenchmarkId, Criterion,
    SamplingMode,
};
use serde_json::Value;
use shipgate_daemon::engine::{DiffOutcome, DiffRequest};
use shipgate_daemon::store::{Cache, Namespace};
use std::collections::BTreeSet;
use std::time::Duration;
use support::{ExpectedRow, Repo, Store};

const MODULES: usize = 2000;
const AGENTS: usize = 50;
/// Above the ~2,150 Python files per side (modules, agents, `__init__.py`);
/// the default bound of 1,000 would truncate discovery and parse nothing.
const MAX_PYTHON_FILES: u32 = 5000;
/// Service modules of the scaling points (the bound is raised to read all).
const SCALING_MODULES: [usize; 2] = [1000, 5000];

fn diff_benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("creating a temporary directory");
    let repo = support::generate(dir.path(), MODULES, AGENTS);
    let mut group = c.benchmark_group("diff/2000_modules_50_agents");
    // Iterations take tens of milliseconds to seconds: flat sampling keeps
    // the iteration count (and so the run time) small.
    group.sampling_mode(SamplingMode::Flat);
    bench_cold(&mut group, &repo);
    bench_warm(&mut group, &repo);
    bench_head_only(&mut group, &repo);
    group.finish();
}

/// Cold diffs at two repository sizes: the same generator, agents and
/// share of changed files.
fn scaling_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    for modules in SCALING_MODULES {
        let dir = tempfile::tempdir().expect("creating a temporary directory");
        let repo = support::generate(dir.path(), modules, AGENTS);
        let request = DiffRequest {
            max_python_files: Some(u32::try_from(modules * 2).unwrap_or(u32::MAX)),
            ..request(&repo, &repo.base, &repo.head)
        };
        assert_rows(
            &Store::fresh().engine.diff(&request).expect("cold diff"),
            &repo.expected_rows,
        );
        group.measurement_time(Duration::from_secs(if modules > 2000 { 40 } else { 15 }));
        group.bench_function(BenchmarkId::new("cold", modules), |b| {
            b.iter_batched_ref(
                Store::fresh,
                |store| store.engine.diff(&request).expect("cold diff"),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

fn bench_cold(group: &mut BenchmarkGroup<'_, WallTime>, repo: &Repo) {
    let request = request(repo, &repo.base, &repo.head);
    assert_rows(
        &Store::fresh().engine.diff(&request).expect("cold diff"),
        &repo.expected_rows,
    );
    group.measurement_time(Duration::from_secs(15));
    // The store is opened in the untimed setup and dropped (flushed) after
    // the timing: only the diff itself is measured.
    group.bench_function("cold", |b| {
        b.iter_batched_ref(
            Store::fresh,
            |store| store.engine.diff(&request).expect("cold diff"),
            BatchSize::PerIteration,
        )
    });
}

fn bench_warm(group: &mut BenchmarkGroup<'_, WallTime>, repo: &Repo) {
    let request = request(repo, &repo.base, &repo.head);
    let store = Store::fresh();
    assert_rows(
        &store.engine.diff(&request).expect("priming diff"),
        &repo.expected_rows,
    );
    group.measurement_time(Duration::from_secs(5));
    // The same engine again: the answer it gave is kept in memory.
    group.bench_function("warm", |b| {
        b.iter(|| store.engine.diff(&request).expect("warm diff"))
    });
    // The answer forgotten each time (the same pair asked another way):
    // graphs decoded from the store, compared, rendered.
    group.bench_function("warm_store", |b| {
        b.iter_batched(
            || store.engine.forget_answers(),
            |()| {
                store
                    .engine
                    .diff(&request)
                    .expect("warm diff from the store")
            },
            BatchSize::PerIteration,
        )
    });
}

fn bench_head_only(group: &mut BenchmarkGroup<'_, WallTime>, repo: &Repo) {
    let store = Store::fresh();
    let unchanged = store
        .engine
        .diff(&request(repo, &repo.base, &repo.base))
        .expect("indexing the base");
    assert_rows(&unchanged, &[]);
    let indexed = Keys::of(&store.cache);
    let request = request(repo, &repo.base, &repo.head);
    assert_rows(
        &store.engine.diff(&request).expect("head diff"),
        &repo.expected_rows,
    );
    let added = Keys::of(&store.cache).without(&indexed);
    // The head must add exactly its graph (stored by content, with its
    // root tree's alias) and the facts of its changed blobs; anything else
    // would mean this measures another workload.
    assert_eq!(
        added.graphs.len(),
        2,
        "the head adds one side graph and its tree's alias"
    );
    assert_eq!(
        added.facts.len(),
        repo.changed_files.len(),
        "the head adds facts for its changed files only"
    );
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("head_only", |b| {
        // The answer kept in memory is forgotten each time: the head's
        // work is done again (its facts memo stays, as in a daemon).
        b.iter_batched(
            || {
                added.evict(&store.cache);
                store.engine.forget_answers();
            },
            |()| store.engine.diff(&request).expect("head-only diff"),
            BatchSize::PerIteration,
        )
    });
}

fn request(repo: &Repo, base: &str, head: &str) -> DiffRequest {
    DiffRequest {
        workspace: repo.path.clone(),
        base: Some(base.to_string()),
        head: Some(head.to_string()),
        scope: Some(".".into()),
        max_python_files: Some(MAX_PYTHON_FILES),
        format: shipgate_daemon::render::OutputFormat::Text,
        worktree: false,
        staged: false,
        all: false,
        ..Default::default()
    }
}

/// The keys of the two cache namespaces a diff writes.
struct Keys {
    facts: BTreeSet<Vec<u8>>,
    graphs: BTreeSet<Vec<u8>>,
}

impl Keys {
    /// Lists whole namespaces (a few thousand entries here): setup only,
    /// never inside the timing.
    fn of(cache: &Cache) -> Self {
        let keys = |namespace| {
            cache
                .kv()
                .entries(namespace)
                .expect("listing cache entries")
                .into_iter()
                .map(|(key, _)| key)
                .collect()
        };
        Keys {
            facts: keys(Namespace::Facts),
            graphs: keys(Namespace::Graphs),
        }
    }

    fn without(&self, other: &Keys) -> Keys {
        Keys {
            facts: self.facts.difference(&other.facts).cloned().collect(),
            graphs: self.graphs.difference(&other.graphs).cloned().collect(),
        }
    }

    fn evict(&self, cache: &Cache) {
        let kv = cache.kv();
        for key in &self.facts {
            kv.remove(Namespace::Facts, key).expect("evicting facts");
        }
        for key in &self.graphs {
            kv.remove(Namespace::Graphs, key).expect("evicting a graph");
        }
    }
}

/// Checks, outside the timing, that a diff did the real work: both sides
/// complete with every agent read, and exactly the expected rows.
fn assert_rows(outcome: &DiffOutcome, expected: &[ExpectedRow]) {
    let document = &outcome.document;
    assert_eq!(
        document["comparison_status"], "compared",
        "comparison not established:\n{}",
        outcome.json
    );
    for side in ["base", "head"] {
        let agents = document[side]["agents"].as_array().map_or(0, Vec::len);
        assert_eq!(agents, AGENTS, "{side} agents:\n{}", outcome.json);
    }
    assert!(
        outcome.rendered.is_some(),
        "the text rendering was asked for"
    );
    let mut rows: Vec<ExpectedRow> = document["rows"]
        .as_array()
        .expect("the document has rows")
        .iter()
        .map(|row| ExpectedRow {
            agent: field(row, "agent"),
            tool: field(row, "tool"),
            change: field(row, "change"),
        })
        .collect();
    rows.sort();
    assert_eq!(rows, expected, "rows of:\n{}", outcome.json);
}

fn field(row: &Value, name: &str) -> String {
    row[name]
        .as_str()
        .unwrap_or_else(|| panic!("row field {name} is not a string: {row}"))
        .to_string()
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1));
    targets = diff_benches, scaling_benches
}
criterion_main!(benches);
