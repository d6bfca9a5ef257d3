//! The remote tier (issue 44) on a real repository: what a fresh daemon
//! of a CI fleet saves when another daemon has already read its work.
//! `SHIPGATE_BENCH_REPO` names a git repository (bare is fine) and
//! `SHIPGATE_BENCH_BASE`/`SHIPGATE_BENCH_HEAD` a pull request (default
//! `HEAD~1`/`HEAD`); a real `redis-server` is started on loopback (the
//! bench is skipped, saying so, without one or without the repository).
//!
//! - `cold`: a fresh store, no remote (a runner without the fleet).
//! - `same_pair`: a fresh store in front of a remote another daemon filled
//!   by comparing the same pair (a re-run job, another runner of a matrix).
//! - `base_read`: a fresh store in front of a remote another daemon filled
//!   by indexing the base (a `watch` of `main`), so only the head is built.
//! - With `SHIPGATE_BENCH_REMOTE_HISTORY=1`, `history`: the first-parent
//!   history of the head by a fresh store, after another daemon walked it.
//!
//! Run: `SHIPGATE_BENCH_REPO=/path/to/openai-agents-python
//! SHIPGATE_BENCH_HEAD=82e3571fc55a SHIPGATE_BENCH_BASE=82e3571fc55a~1
//! cargo bench --bench remote_cache`.

mod support;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode};
use shipgate_daemon::history::HistoryRequest;
use shipgate_daemon::store::remote::RemoteLocation;
use shipgate_daemon::store::RemoteOptions;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::Store;

/// `redis-server` on a free loopback port, killed when dropped.
struct Redis(Child, u16);

impl Redis {
    fn start() -> Option<Redis> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .ok()?
            .port();
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let redis = Redis(child, port);
        let until = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(redis)
    }

    /// A remote under its own prefix, so each scenario starts empty.
    fn remote(&self, prefix: &str) -> RemoteOptions {
        RemoteOptions {
            location: RemoteLocation::parse(&format!("redis://127.0.0.1:{}/0/{prefix}", self.1))
                .expect("a redis URL"),
            read_only: false,
            deadline: shipgate_daemon::store::remote::DEFAULT_DEADLINE,
            key: Default::default(),
        }
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn read_only(remote: RemoteOptions) -> RemoteOptions {
    RemoteOptions {
        read_only: true,
        ..remote
    }
}

/// A store that did `work` in front of `remote`, its writes drained.
fn filled(remote: &RemoteOptions, work: impl FnOnce(&Store)) {
    let store = Store::fresh_with(Some(remote));
    work(&store);
    store.cache.flush().expect("flush");
    store.cache.drain_remote(Duration::from_secs(60));
}

fn remote_benches(c: &mut Criterion) {
    let Some(pair) = support::RealPair::from_env("remote_cache") else {
        return;
    };
    let Some(redis) = Redis::start() else {
        eprintln!("remote_cache: redis-server could not start; skipped");
        return;
    };
    let request = pair.request(shipgate_daemon::render::OutputFormat::Json);
    let (repo, base, head) = (&pair.repo, &pair.base, &pair.head);
    let answer = |store: &Store| {
        let outcome = store.engine.diff(&request).expect("the pair answers");
        outcome.document["rows"].clone()
    };
    let cold_rows = answer(&Store::fresh());

    let same_pair = redis.remote("same-pair");
    filled(&same_pair, |store| {
        answer(store);
    });
    let base_read = redis.remote("base-read");
    filled(&base_read, |store| {
        let opened = shipgate_daemon::git::Repository::discover(repo).expect("the repository");
        let commit = opened.resolve_commit(base).expect("the base");
        store
            .engine
            .index_commit(&opened, commit)
            .expect("the base indexed");
    });
    // The measured daemons read the remote and never write it: each
    // iteration is a first diff, whatever the ones before it computed.
    let same_pair = read_only(same_pair);
    let base_read = read_only(base_read);
    // Outside the timing: the remote's answers are the cold one's.
    for remote in [&same_pair, &base_read] {
        assert_eq!(answer(&Store::fresh_with(Some(remote))), cold_rows);
    }

    let mut group = c.benchmark_group("remote_cache/real_repo");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("cold", |b| {
        b.iter_batched(
            Store::fresh,
            |store| answer(&store),
            BatchSize::PerIteration,
        )
    });
    for (name, remote) in [("same_pair", &same_pair), ("base_read", &base_read)] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || Store::fresh_with(Some(remote)),
                |store| answer(&store),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();

    if std::env::var_os("SHIPGATE_BENCH_REMOTE_HISTORY").is_none() {
        return;
    }
    let history = HistoryRequest {
        workspace: repo.clone(),
        until: Some(head.clone()),
        ..HistoryRequest::default()
    };
    let walked = redis.remote("history");
    let started = Instant::now();
    let mut walked_commits = serde_json::Value::Null;
    filled(&walked, |store| {
        walked_commits = store
            .engine
            .history(&history, &mut |_, _| {})
            .expect("a history")
            .document["commits"]
            .clone();
    });
    eprintln!(
        "remote_cache: the first daemon walked {}'s history in {:.1} s",
        repo.display(),
        started.elapsed().as_secs_f64()
    );
    let walked = read_only(walked);
    // Outside the timing: the history read from the remote is the walk's.
    let from_remote = Store::fresh_with(Some(&walked))
        .engine
        .history(&history, &mut |_, _| {})
        .expect("a history");
    assert_eq!(from_remote.document["commits"], walked_commits);
    let mut group = c.benchmark_group("remote_cache/real_repo_history");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.bench_function("walked_by_another", |b| {
        b.iter_batched(
            || Store::fresh_with(Some(&walked)),
            |store| {
                store
                    .engine
                    .history(&history, &mut |_, _| {})
                    .expect("a history")
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, remote_benches);
criterion_main!(benches);
