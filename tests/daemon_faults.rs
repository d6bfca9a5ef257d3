//! End to end: faults of the machine and the store never stop the daemon
//! for good (issue 16): a damaged store is moved aside and rebuilt, a
//! store another process holds is busy (never "damaged"), and a stop
//! finishes within its grace period whatever the store does.

mod support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::{binaries, rows, wait_for_socket, Place, Repo};

const AGENT: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\nsupport = Agent(name=\"support\", tools=[lookup])\n";
const HEAD: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n\n\nsupport = Agent(name=\"support\", tools=[lookup, refund])\n";
const RANGE: [&str; 6] = ["--base", "HEAD~1", "--head", "HEAD", "--scope", "app"];

/// A repository whose head adds `refund`, with enough modules that the
/// store holds sizeable values (blobs as well as the log).
fn repo() -> Repo {
    let repo = Repo::new();
    let helpers: Vec<(String, String)> = (0..40)
        .map(|i| {
            let body: String = (0..40)
                .map(|j| format!("def f{j}(x):\n    return x + {j} * \"{i}\"\n\n\n"))
                .collect();
            (format!("app/m{i}.py"), body)
        })
        .collect();
    let mut base: Vec<(&str, Option<&str>)> = helpers
        .iter()
        .map(|(p, c)| (p.as_str(), Some(c.as_str())))
        .collect();
    base.push(("app/__init__.py", Some("")));
    base.push(("app/agent.py", Some(AGENT)));
    repo.commit(&base, "base");
    repo.commit(&[("app/agent.py", Some(HEAD))], "head");
    repo
}

fn expected_rows() -> Vec<(String, String, String)> {
    vec![support::row("support", "refund", "added")]
}

/// Warms a store at `place` with one diff, then stops its daemon.
fn warm_store(place: &Place, repo: &Repo) {
    let daemon = place.start_daemon();
    let doc = place.diff_json(repo, &RANGE);
    assert_eq!(rows(&doc), expected_rows());
    daemon.stop();
}

fn damaged_copies(data_dir: &Path) -> usize {
    std::fs::read_dir(data_dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .starts_with("store.damaged-")
                })
                .count()
        })
        .unwrap_or(0)
}

/// Flips `count` bytes spread evenly over a file (a deterministic damage).
fn flip_bytes(path: &Path, count: usize, seed: usize) {
    let mut bytes = std::fs::read(path).expect("read store file");
    if bytes.is_empty() {
        return;
    }
    let step = (bytes.len() / count.max(1)).max(1);
    for i in 0..count {
        let at = (seed * 7919 + i * step) % bytes.len();
        bytes[at] ^= 0xA5;
    }
    std::fs::write(path, bytes).expect("write store file");
}

fn store_files(data_dir: &Path) -> Vec<std::path::PathBuf> {
    let store = data_dir.join("store");
    let mut files = vec![store.join("db"), store.join("conf")];
    if let Ok(blobs) = std::fs::read_dir(store.join("blobs")) {
        files.extend(blobs.filter_map(Result::ok).map(|e| e.path()));
    }
    files.retain(|f| f.is_file());
    files
}

#[test]
fn a_store_with_flipped_bytes_is_rebuilt_and_answers_the_same() {
    let repo = repo();
    for seed in 0..4 {
        let place = Place::new();
        warm_store(&place, &repo);
        for file in store_files(&place.data_dir()) {
            flip_bytes(&file, 8, seed);
        }
        let daemon = place.start_daemon();
        let doc = place.diff_json(&repo, &RANGE);
        assert_eq!(rows(&doc), expected_rows(), "seed {seed}");
        let status = place.client(&["status", "--json"]);
        assert!(status.status.success(), "seed {seed}");
        daemon.stop();
        assert!(damaged_copies(&place.data_dir()) <= 1, "seed {seed}");
    }
}

#[test]
fn a_store_whose_blobs_were_deleted_answers_the_same() {
    let repo = repo();
    let place = Place::new();
    warm_store(&place, &repo);
    let blobs = place.data_dir().join("store").join("blobs");
    for entry in std::fs::read_dir(&blobs).expect("blobs dir").flatten() {
        std::fs::remove_file(entry.path()).expect("remove blob");
    }
    let daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &RANGE);
    assert_eq!(rows(&doc), expected_rows());
    daemon.stop();
}

#[test]
fn a_store_marked_damaged_is_moved_aside_once_and_only_the_newest_copy_is_kept() {
    let repo = repo();
    let place = Place::new();
    warm_store(&place, &repo);
    for round in 0..3 {
        std::fs::write(
            place.data_dir().join("store").join("shipgate-damaged"),
            "sled panicked",
        )
        .expect("marker");
        let daemon = place.start_daemon();
        let doc = place.diff_json(&repo, &RANGE);
        assert_eq!(rows(&doc), expected_rows(), "round {round}");
        daemon.stop();
        assert_eq!(damaged_copies(&place.data_dir()), 1, "round {round}");
        // Sleep past the one-second resolution of the copies' names.
        std::thread::sleep(Duration::from_millis(1100));
    }
}

#[test]
fn a_store_another_process_holds_is_busy_never_damaged() {
    let repo = repo();
    let place = Place::new();
    warm_store(&place, &repo);
    // Another process holds sled's own lock on the store, as a daemon that
    // has not exited yet would.
    let db = place.data_dir().join("store").join("db");
    let mut holder = Command::new("flock")
        .args(["--exclusive", "--no-fork"])
        .arg(&db)
        .args(["sleep", "30"])
        .spawn()
        .expect("flock runs");
    std::thread::sleep(Duration::from_millis(300));
    let (daemon, _) = binaries();
    let output = Command::new(daemon)
        .args(["serve", "--socket"])
        .arg(place.socket())
        .arg("--data-dir")
        .arg(place.data_dir())
        .output()
        .expect("daemon runs");
    let _ = holder.kill();
    let _ = holder.wait();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("is in use by another process"), "{stderr}");
    assert_eq!(damaged_copies(&place.data_dir()), 0, "{stderr}");
    // Once the holder is gone, the warm store serves again.
    let daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &RANGE);
    assert_eq!(rows(&doc), expected_rows());
    let (hits, _) = place.counters("graphs");
    assert!(hits > 0, "the warm store was kept");
    daemon.stop();
}

/// A daemon whose store never finishes flushing (a debug-build fault).
fn stalled_daemon(place: &Place) -> Child {
    let (daemon, _) = binaries();
    let child = Command::new(daemon)
        .args(["serve", "--socket"])
        .arg(place.socket())
        .arg("--data-dir")
        .arg(place.data_dir())
        .env("SHIPGATE_TEST_STALL_FLUSH", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("daemon starts");
    wait_for_socket(&place.socket());
    child
}

fn wait_exit(child: &mut Child, within: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn a_stop_finishes_within_its_grace_period_whatever_the_store_does() {
    let repo = repo();
    let place = Place::new();
    let mut daemon = stalled_daemon(&place);
    let _ = place.diff_json(&repo, &RANGE);
    let shutdown = place.client(&["shutdown"]);
    assert!(shutdown.status.success());
    // The flush never ends; the daemon exits after the flush's grace
    // (5 s), well within the stop's (10 s).
    let exited = wait_exit(&mut daemon, Duration::from_secs(20));
    assert!(exited.is_some(), "the daemon hung after shutdown");
    // The lock went with the process: the next daemon opens the same
    // store as it is (no copy moved aside).
    let next = place.start_daemon();
    let doc = place.diff_json(&repo, &RANGE);
    assert_eq!(rows(&doc), expected_rows());
    next.stop();
    assert_eq!(damaged_copies(&place.data_dir()), 0);
}

#[test]
fn sigterm_while_stopping_exits_at_once() {
    let repo = repo();
    let place = Place::new();
    let mut daemon = stalled_daemon(&place);
    let _ = place.diff_json(&repo, &RANGE);
    let shutdown = place.client(&["shutdown"]);
    assert!(shutdown.status.success());
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let _ = Command::new("kill")
        .arg("-TERM")
        .arg(daemon.id().to_string())
        .status();
    let exited = wait_exit(&mut daemon, Duration::from_secs(20));
    assert!(exited.is_some(), "SIGTERM was ignored while stopping");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "SIGTERM waited for the flush's grace: {:?}",
        started.elapsed()
    );
}

#[test]
fn a_full_disk_never_hangs_the_stop() {
    // A private mount namespace with a 300 KB tmpfs as the data directory;
    // skipped (and said) where the machine cannot make one.
    let probe = Command::new("unshare")
        .args([
            "-m",
            "sh",
            "-c",
            "mount -t tmpfs -o size=64k tmpfs /mnt && true",
        ])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: this machine cannot mount a tmpfs in a private namespace");
        return;
    }
    let repo = repo();
    let place = Place::new();
    let mount = place.dir.path().join("mnt");
    std::fs::create_dir_all(&mount).expect("mount point");
    let (daemon, _) = binaries();
    let script = format!(
        "mount -t tmpfs -o size=300k tmpfs '{}' && exec '{}' serve --socket '{}' --data-dir '{}'",
        mount.display(),
        daemon.display(),
        place.socket().display(),
        mount.join("data").display()
    );
    let mut child = Command::new("unshare")
        .args(["-m", "sh", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("unshare runs");
    wait_for_socket(&place.socket());
    // Every write past the first few hundred KB fails; answers do not.
    for _ in 0..2 {
        let doc = place.diff_json(&repo, &RANGE);
        assert_eq!(rows(&doc), expected_rows());
    }
    let shutdown = place.client(&["shutdown"]);
    assert!(shutdown.status.success());
    assert!(
        wait_exit(&mut child, Duration::from_secs(20)).is_some(),
        "the daemon hung after shutdown on a full disk"
    );
}

/// Issue 46, item 9: a store that opens but whose calls keep failing
/// (`SHIPGATE_TEST_STORE_FAILURES`, debug builds) no
/// longer serves on with caching silently off: after 16 failures in a
/// row (here its first 16 calls) it is moved aside and a new store opened while the daemon serves,
/// `status` says so, the answer is the same, and the new store caches
/// (a restarted daemon reads the graphs from it).
#[test]
fn a_store_failing_while_open_is_rebuilt_while_the_daemon_serves() {
    let repo = repo();
    let place = Place::new();
    let daemon = support::Daemon::start_with_env(
        &place.data_dir(),
        &place.socket(),
        &[],
        &[("SHIPGATE_TEST_STORE_FAILURES", "16")],
    );
    let doc = place.diff_json(&repo, &RANGE);
    assert_eq!(rows(&doc), expected_rows());
    let status = place.client(&["status"]);
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(
        text.contains("store health: rebuilt: the store was damaged (16 calls in a row failed"),
        "{text}"
    );
    let json = place.client(&["status", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("status JSON");
    assert!(
        json["store_health"]
            .as_str()
            .is_some_and(|h| h.starts_with("rebuilt:")),
        "{json:#}"
    );
    assert_eq!(damaged_copies(&place.data_dir()), 1);
    // The rebuilt store holds what the rest of the work cached.
    daemon.stop();
    let daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &RANGE);
    assert_eq!(rows(&doc), expected_rows());
    let json = place.client(&["status", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("status JSON");
    assert_eq!(json["store_health"], "ok", "{json:#}");
    assert!(
        json["caches"]["graphs"]["hits"].as_u64().unwrap_or(0) > 0,
        "{json:#}"
    );
    daemon.stop();
}
