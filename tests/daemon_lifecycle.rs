//! End to end: the daemon's cache, its start on demand, restarts over an
//! existing store, one daemon per store, and background indexing.

mod support;

use std::time::{Duration, Instant};
use support::{rows, Daemon, Place, Repo};

const AGENT: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef ping() -> str:\n    return 'pong'\n\n\nbot = Agent(name='Bot', tools=[ping])\n";

fn two_commit_repo() -> Repo {
    let repo = Repo::new();
    repo.commit(
        &[
            ("bot/agent.py", Some(AGENT)),
            ("bot/util.py", Some("X = 1\n")),
        ],
        "base",
    );
    repo.tag("v1");
    let head = AGENT.replace("return 'pong'", "return 'PONG'");
    repo.commit(&[("bot/agent.py", Some(&head))], "head");
    repo
}

const ARGS: [&str; 6] = ["--base", "v1", "--head", "HEAD", "--scope", "bot"];

#[test]
fn a_second_identical_diff_is_served_from_cache() {
    let repo = two_commit_repo();
    let place = Place::new();
    let _daemon = place.start_daemon();
    let first = place.diff_json(&repo, &ARGS);
    assert_eq!(place.counters("graphs"), (0, 2));
    assert_eq!(
        place.counters("facts"),
        (1, 3),
        "four files, three distinct blobs: each parsed once"
    );
    let second = place.diff_json(&repo, &ARGS);
    assert_eq!(first, second);
    assert_eq!(
        place.counters("graphs"),
        (2, 2),
        "both sides' graphs came from the cache"
    );
    assert_eq!(place.counters("facts"), (1, 3), "nothing was parsed again");
}

#[test]
fn the_client_starts_a_daemon_on_demand() {
    let repo = two_commit_repo();
    let place = Place::new();
    assert!(!place.socket().exists());
    let doc = place.diff_json(&repo, &ARGS);
    assert_eq!(
        rows(&doc),
        vec![("bot".into(), "ping".into(), "changed".into())]
    );
    assert!(
        place.socket().exists(),
        "the started daemon listens on the socket"
    );
    let output = place.client(&["status"]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("shipgate-daemon 0.1.0"));
    let output = place.client(&["shutdown"]);
    assert!(output.status.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    while place.socket().exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !place.socket().exists(),
        "the daemon removed its socket on shutdown"
    );
}

#[test]
fn a_restarted_daemon_reuses_the_store() {
    let repo = two_commit_repo();
    let place = Place::new();
    let daemon = place.start_daemon();
    let before = place.diff_json(&repo, &ARGS);
    daemon.stop();
    let _daemon = place.start_daemon();
    let after = place.diff_json(&repo, &ARGS);
    assert_eq!(before, after);
    assert_eq!(
        place.counters("graphs"),
        (2, 0),
        "graphs survived the restart"
    );
    assert_eq!(place.counters("facts"), (0, 0));
}

#[test]
fn a_second_daemon_on_the_same_store_refuses() {
    let place = Place::new();
    let _daemon = place.start_daemon();
    let (binary, _) = support::binaries();
    let other_socket = place.dir.path().join("other.sock");
    let output = std::process::Command::new(binary)
        .args(["serve", "--socket"])
        .arg(&other_socket)
        .arg("--data-dir")
        .arg(place.data_dir())
        .output()
        .expect("daemon runs");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("already serves the data directory"),
        "{stderr}"
    );
    assert!(!other_socket.exists());
}

/// Polls `status --json` until `check` accepts it (or fails after a bound).
fn wait_for_status(place: &Place, check: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let output = place.client(&["status", "--json"]);
        let status: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
        if check(&status) {
            return status;
        }
        assert!(Instant::now() < deadline, "status never matched: {status}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn watched_repositories_index_new_branch_heads() {
    let repo = two_commit_repo();
    let head = repo.git(&["rev-parse", "HEAD"]);
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let output = place.client(&["watch", &repo.path().to_string_lossy()]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let indexed = |status: &serde_json::Value, commit: &str| {
        status["repositories"][0]["indexed"]
            .as_array()
            .is_some_and(|heads| {
                heads
                    .iter()
                    .any(|h| h["reference"] == "main" && h["commit"] == commit)
            })
    };
    wait_for_status(&place, |s| indexed(s, &head));

    let next = repo.commit(
        &[("bot/agent.py", Some(&AGENT.replace("pong", "pang")))],
        "next",
    );
    wait_for_status(&place, |s| indexed(s, &next));
    // The indexed head is warm: the diff's head graph comes from the cache.
    let (hits_before, _) = place.counters("graphs");
    let _ = place.diff_json(&repo, &["--base", "v1", "--head", "HEAD", "--scope", "."]);
    let (hits_after, _) = place.counters("graphs");
    assert!(
        hits_after > hits_before,
        "the head graph was pre-built by the watcher"
    );
}
