//! Diff latency on a real repository (issue 23), beside the synthetic
//! benches: `SHIPGATE_BENCH_REPO` names a git checkout; the pair compared
//! is `SHIPGATE_BENCH_BASE` (default `HEAD~1`) against `SHIPGATE_BENCH_HEAD`
//! (default `HEAD`), with the scope derived as a CI run would. Skipped, with
//! a line saying so, when the variable is unset.
//!
//! - `cold`: a fresh, empty store every iteration (a CI runner's first
//!   request): every blob parsed, both side graphs built.
//! - `warm`: one primed engine (a repeated request to a running daemon:
//!   the answer kept in memory).
//! - `warm_store`: the same with the answer forgotten each time (graphs
//!   decoded, compared and rendered again).
//! - `inventory/real_repo`: the inventory of the head, `cold` (a fresh
//!   store) and `warm` (its rendering kept).
//!
//! Run: `SHIPGATE_BENCH_REPO=/path/to/openai-agents-python
//! SHIPGATE_BENCH_HEAD=82e3571fc55a SHIPGATE_BENCH_BASE=82e3571fc55a~1
//! cargo bench --bench real_repo`.

mod support;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode};
use shipgate_daemon::engine::InventoryRequest;
use shipgate_daemon::inventory::InventoryFormat;
use std::time::Duration;
use support::Store;

fn real_repo_benches(c: &mut Criterion) {
    let Some(pair) = support::RealPair::from_env("real_repo") else {
        return;
    };
    let request = pair.request(shipgate_daemon::render::OutputFormat::Text);
    let (repo, base, head) = (pair.repo.clone(), pair.base.clone(), pair.head.clone());
    // Outside the timing: the pair must answer, or this measures an error.
    let first = Store::fresh()
        .engine
        .diff(&request)
        .unwrap_or_else(|err| panic!("diff {base}..{head} in {}: {err:?}", repo.display()));
    eprintln!(
        "real_repo: {} {base}..{head}: {} rows, status {}",
        repo.display(),
        first.document["rows"].as_array().map_or(0, Vec::len),
        first.document["comparison_status"]
    );
    let mut group = c.benchmark_group("diff/real_repo");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("cold", |b| {
        b.iter_batched_ref(
            Store::fresh,
            |store| store.engine.diff(&request).expect("cold diff"),
            BatchSize::PerIteration,
        )
    });
    let store = Store::fresh();
    store.engine.diff(&request).expect("priming diff");
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("warm", |b| {
        b.iter(|| store.engine.diff(&request).expect("warm diff"))
    });
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
    group.finish();

    // The inventory of the head (issue 43): cold (a fresh store: every
    // blob parsed, every application derived and read) and warm (the
    // rendering kept).
    let inventory = InventoryRequest {
        workspace: repo.clone(),
        at: Some(head.clone()),
        max_python_files: Some(5000),
        format: InventoryFormat::Text,
        ..Default::default()
    };
    let listed = Store::fresh()
        .engine
        .inventory(&inventory)
        .unwrap_or_else(|err| panic!("inventory at {head} in {}: {err:?}", repo.display()));
    eprintln!(
        "real_repo: inventory at {head}: {} agents, {}",
        listed.agents, listed.status
    );
    let mut group = c.benchmark_group("inventory/real_repo");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("cold", |b| {
        b.iter_batched_ref(
            Store::fresh,
            |store| store.engine.inventory(&inventory).expect("cold inventory"),
            BatchSize::PerIteration,
        )
    });
    store
        .engine
        .inventory(&inventory)
        .expect("priming inventory");
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("warm", |b| {
        b.iter(|| store.engine.inventory(&inventory).expect("warm inventory"))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1));
    targets = real_repo_benches
}
criterion_main!(benches);
