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
    // The same request again: the answer given is kept in memory.
    let second = place.diff_json(&repo, &ARGS);
    assert_eq!(first, second);
    assert_eq!(place.counters("answers"), (1, 1));
    assert_eq!(place.counters("graphs"), (0, 2), "nothing was read again");
    // The same pair asked for text is another answer, built from the
    // stored graphs.
    let (code, text, _) = place.diff(&repo, &ARGS);
    assert_eq!(code, 0);
    assert!(text.starts_with("Application comparison: "), "{text}");
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

/// A one-shot diff on a store a daemon holds answers from a temporary
/// store of its own: a fresh private directory, removed when it is done.
#[test]
fn a_one_shot_diff_beside_a_daemon_uses_a_private_temporary_store() {
    let repo = two_commit_repo();
    let place = Place::new();
    let _daemon = place.start_daemon();
    let (binary, _) = support::binaries();
    let temp = place.dir.path().join("tmp");
    std::fs::create_dir_all(&temp).expect("temp dir");
    let output = std::process::Command::new(binary)
        .args(["diff", "--application", "--json", "--workspace"])
        .arg(repo.path())
        .args(ARGS)
        .arg("--data-dir")
        .arg(place.data_dir())
        .env("TMPDIR", &temp)
        .output()
        .expect("one-shot diff runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("using a temporary store for this run"),
        "{stderr}"
    );
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    assert_eq!(doc["comparison_status"], "compared", "{doc}");
    let left: Vec<_> = std::fs::read_dir(&temp)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left behind: {left:?}");
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
    // The watcher indexed the branch's history too: two commits, then the
    // new one (Status reports the coverage).
    wait_for_status(&place, |s| s["repositories"][0]["history_commits"] == 3);
    // The indexed head is warm: the diff's head graph comes from the cache.
    let (hits_before, _) = place.counters("graphs");
    let _ = place.diff_json(&repo, &["--base", "v1", "--head", "HEAD", "--scope", "."]);
    let (hits_after, _) = place.counters("graphs");
    assert!(
        hits_after > hits_before,
        "the head graph was pre-built by the watcher"
    );
}

/// A diff of a commit against itself says why it is empty: an edit not
/// yet committed is what a developer usually meant to compare.
#[test]
fn base_and_head_at_one_commit_are_named_in_the_text() {
    let repo = two_commit_repo();
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let (code, text, stderr) = place.diff(&repo, &["--base", "HEAD", "--head", "HEAD"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("Application comparison: "), "{text}");
    assert_eq!(
        lines[1..3],
        [
            "base and head are the same commit, so nothing can differ: uncommitted edits are not read (commit",
            "    them, or compare another base).",
        ]
    );
    let (code, text, _) = place.diff(&repo, &["--base", "v1", "--head", "HEAD"]);
    assert_eq!(code, 0);
    assert!(!text.contains("the same commit"), "{text}");
}

/// `diff` compares against `origin/HEAD` by default, so the watcher warms
/// the remote-tracking branches too: each by its short name, the symbolic
/// `origin/HEAD` not twice, and a fetch that moves one is indexed again.
#[test]
fn watched_repositories_index_remote_tracking_branches() {
    let repo = two_commit_repo();
    let base = repo.git(&["rev-parse", "HEAD~1"]);
    let head = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["update-ref", "refs/remotes/origin/main", &base]);
    repo.git(&[
        "symbolic-ref",
        "refs/remotes/origin/HEAD",
        "refs/remotes/origin/main",
    ]);
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let output = place.client(&["watch", &repo.path().to_string_lossy()]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let heads = |status: &serde_json::Value| -> Vec<(String, String)> {
        status["repositories"][0]["indexed"]
            .as_array()
            .map(|heads| {
                heads
                    .iter()
                    .map(|h| {
                        (
                            h["reference"].as_str().unwrap_or_default().to_string(),
                            h["commit"].as_str().unwrap_or_default().to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let fetched = [
        ("main".to_string(), head.clone()),
        ("origin/main".to_string(), base.clone()),
    ];
    // Once indexed, no pass is under way.
    let status = wait_for_status(&place, |s| {
        heads(s) == fetched && s["repositories"][0]["progress"].is_null()
    });
    assert_eq!(status["repositories"][0]["pending"], 0);

    // A fetch moves `origin/main`: indexed again at its new head.
    repo.git(&["update-ref", "refs/remotes/origin/main", &head]);
    let moved = [
        ("main".to_string(), head.clone()),
        ("origin/main".to_string(), head.clone()),
    ];
    wait_for_status(&place, |s| heads(s) == moved);
}

#[test]
fn tcp_requires_a_token_and_answers_with_it() {
    let (binary, client) = support::binaries();
    let place = Place::new();
    let refused = std::process::Command::new(binary)
        .args(["serve", "--tcp", "127.0.0.1:0", "--data-dir"])
        .arg(place.data_dir())
        .output()
        .expect("daemon runs");
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--tcp requires --token-file"));

    let token_file = place.dir.path().join("token");
    std::fs::write(&token_file, "0123456789abcdef0123\n").expect("write token");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let addr = format!("127.0.0.1:{port}");
    let mut daemon = std::process::Command::new(binary)
        .args(["serve", "--tcp", &addr, "--token-file"])
        .arg(&token_file)
        .arg("--data-dir")
        .arg(place.data_dir())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("daemon starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(&addr).is_err() {
        assert!(Instant::now() < deadline, "the TCP daemon never listened");
        std::thread::sleep(Duration::from_millis(20));
    }
    let repo = two_commit_repo();
    let run = |token: Option<&std::path::Path>| {
        let mut command = std::process::Command::new(client);
        command
            .args(["diff", "--application", "--json", "--workspace"])
            .arg(repo.path())
            .args(ARGS)
            .env("SHIPGATE_ADDR", format!("http://{addr}"))
            .env_remove("SHIPGATE_SOCKET")
            .env_remove("SHIPGATE_TOKEN_FILE");
        if let Some(token) = token {
            command.env("SHIPGATE_TOKEN_FILE", token);
        }
        command.output().expect("client runs")
    };
    let without = run(None);
    assert_eq!(without.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&without.stderr).contains("bearer token"),
        "{}",
        String::from_utf8_lossy(&without.stderr)
    );
    let with = run(Some(&token_file));
    assert_eq!(
        with.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&with.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&with.stdout).expect("JSON");
    assert_eq!(
        rows(&doc),
        vec![("bot".into(), "ping".into(), "changed".into())]
    );
    let _ = daemon.kill();
    let _ = daemon.wait();
}

#[test]
fn an_idle_daemon_exits_by_itself() {
    let (binary, _) = support::binaries();
    let place = Place::new();
    let mut daemon = std::process::Command::new(binary)
        .args(["serve", "--idle-timeout", "1s", "--socket"])
        .arg(place.socket())
        .arg("--data-dir")
        .arg(place.data_dir())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("daemon starts");
    support::wait_for_socket(&place.socket());
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Ok(Some(status)) = daemon.try_wait() {
            break status;
        }
        assert!(Instant::now() < deadline, "the idle daemon did not exit");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success());
    assert!(!place.socket().exists(), "it removed its socket");
}

#[test]
fn missing_objects_exit_2_and_say_what_to_do() {
    let repo = two_commit_repo();
    // Remove the loose object of the base's agent.py blob.
    let blob = repo.git(&["rev-parse", "v1:bot/agent.py"]);
    let object = repo
        .path()
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    std::fs::remove_file(&object).expect("the blob is a loose object");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let (code, stdout, stderr) = place.diff(&repo, &ARGS);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(stderr.contains("(objects_missing)"), "{stderr}");
    assert!(stderr.contains("Hydrate"), "{stderr}");
}
