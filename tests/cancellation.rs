//! End to end: work no one waits for stops (issue 16). A history query
//! whose client is interrupted, and indexing of a repository that is
//! unwatched mid-pass, leave the daemon idle within about a second instead
//! of computing to the end.

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{binaries, Place, Repo};

const AGENT: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\nsupport = Agent(name=\"support\", tools=[lookup])\n";

/// 30 commits, each rewriting 300 modules: a cold history over them takes
/// the debug daemon many seconds.
fn long_history() -> Repo {
    let repo = Repo::new();
    repo.commit(&[("app/agent.py", Some(AGENT))], "agent");
    for commit in 0..30 {
        let modules: Vec<(String, String)> = (0..300)
            .map(|i| {
                let body: String = (0..30)
                    .map(|j| {
                        format!("def f{j}(x):\n    y = os.environ.get(\"K{j}\")\n    return [x, y, {j}, \"{i}-{commit}\"]\n\n")
                    })
                    .collect();
                (format!("app/m{i}.py"), format!("import os\n{body}"))
            })
            .collect();
        let files: Vec<(&str, Option<&str>)> = modules
            .iter()
            .map(|(p, c)| (p.as_str(), Some(c.as_str())))
            .collect();
        repo.commit(&files, &format!("commit {commit}"));
    }
    repo
}

/// These tests measure a daemon's CPU use: they run one at a time, so one
/// test's load is never another's signal.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Waits (up to 20 s) until the daemon has used `seconds` of CPU: its work
/// has started.
fn started(pid: u32, seconds: f64) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if cpu_seconds(pid) > seconds {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// CPU seconds the process has used (user + system), from /proc.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name's closing parenthesis; utime and stime
    // are the 12th and 13th of them.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields
        .get(11..13)
        .map(|f| f.iter().filter_map(|t| t.parse::<f64>().ok()).sum())
        .unwrap_or(0.0);
    // /proc reports in USER_HZ, which Linux fixes at 100.
    ticks / 100.0
}

/// Waits until the daemon uses (almost) no CPU over a half-second window,
/// and returns how long that took; panics past `within`.
fn settles(pid: u32, within: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let before = cpu_seconds(pid);
        std::thread::sleep(Duration::from_millis(500));
        let used = cpu_seconds(pid) - before;
        if used < 0.1 {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < within,
            "the daemon kept computing ({used:.2} CPU seconds in the last half second)"
        );
    }
}

/// The daemon's work stops (it is quiet) within `bound`, a client having
/// gone, a deadline passed or a repository been unwatched.
fn stops_within(pid: u32, bound: Duration) {
    let settled = settles(pid, bound + Duration::from_secs(5));
    assert!(settled < bound, "{settled:?}");
}

#[test]
fn an_interrupted_history_query_stops_its_walk() {
    let _serial = one_at_a_time();
    let repo = long_history();
    let place = Place::new();
    let daemon = place.start_daemon();
    let pid = daemon.child.id();
    let mut history = running_client(&place, &["history", "--quiet"], repo.path(), Stdio::null());
    assert!(
        started(pid, 0.5),
        "the walk had started before the interrupt"
    );
    // Ctrl-C, as a person at a terminal would.
    let _ = Command::new("kill")
        .arg("-INT")
        .arg(history.id().to_string())
        .status();
    let _ = history.wait();
    // Within about a second of the client going, the daemon is idle (the
    // whole walk takes well over ten seconds).
    stops_within(pid, Duration::from_secs(3));
    // And it still answers.
    assert!(place.client(&["status"]).status.success());
    daemon.stop();
}

#[test]
fn unwatching_during_a_pass_stops_the_pass() {
    let _serial = one_at_a_time();
    let repo = long_history();
    let place = Place::new();
    let daemon = place.start_daemon();
    let pid = daemon.child.id();
    let workspace = repo.path().to_string_lossy().into_owned();
    assert!(place.client(&["watch", &workspace]).status.success());
    assert!(started(pid, 0.5), "the pass had started");
    assert!(place.client(&["unwatch", &workspace]).status.success());
    stops_within(pid, Duration::from_secs(3));
    daemon.stop();
}

#[test]
fn a_repository_whose_passes_end_the_daemon_is_skipped_after_two() {
    let _serial = one_at_a_time();
    // A pass that ends the process (here: SIGKILL mid-pass, as a stack
    // overflow or the OOM killer would) twice in a row: the third daemon
    // does not index it again, says why in `status`, and stays idle.
    let repo = long_history();
    let place = Place::new();
    let workspace = repo.path().to_string_lossy().into_owned();
    for round in 0..2 {
        let mut daemon = place.start_daemon();
        if round == 0 {
            assert!(place.client(&["watch", &workspace]).status.success());
        }
        assert!(
            started(daemon.child.id(), 0.5),
            "round {round}: the pass had started"
        );
        let _ = daemon.child.kill();
        let _ = daemon.child.wait();
    }
    let daemon = place.start_daemon();
    let output = place.client(&["status", "--json"]);
    assert!(output.status.success());
    let status: serde_json::Value = serde_json::from_slice(&output.stdout).expect("status JSON");
    let error = status["repositories"][0]["last_error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        error.starts_with("background indexing stopped: 2 passes in a row over this repository failed or ended the daemon"),
        "{status}"
    );
    stops_within(daemon.child.id(), Duration::from_secs(2));
    // Diffs still answer on request.
    let doc = place.diff_json(
        &repo,
        &["--base", "HEAD~1", "--head", "HEAD", "--scope", "app"],
    );
    assert_eq!(doc["comparison_status"], "compared");
    daemon.stop();
}

#[test]
fn a_diff_whose_client_went_away_stops() {
    let _serial = one_at_a_time();
    // One commit adds 5,000 modules: a cold comparison the debug daemon
    // takes over five seconds for.
    let repo = Repo::new();
    repo.commit(&[("app/agent.py", Some(AGENT))], "agent");
    let modules: Vec<(String, String)> = (0..5_000)
        .map(|i| {
            let body: String = (0..60)
                .map(|j| format!("def f{j}(x):\n    return [x, {j}, \"{i}\"]\n\n"))
                .collect();
            (format!("app/m{i}.py"), body)
        })
        .collect();
    let files: Vec<(&str, Option<&str>)> = modules
        .iter()
        .map(|(p, c)| (p.as_str(), Some(c.as_str())))
        .collect();
    repo.commit(&files, "modules");
    let place = Place::new();
    let daemon = place.start_daemon();
    let pid = daemon.child.id();
    let mut diff = slow_diff(&place, &repo, &["--max-python-files", "10000"]);
    assert!(started(pid, 0.5), "the comparison had started");
    let _ = diff.kill();
    let _ = diff.wait();
    stops_within(pid, Duration::from_secs(2));
    assert!(place.client(&["status"]).status.success());
    daemon.stop();
}

/// One module of 16,000 agents, each handing off to the one before, and
/// a one-line edit: parsed in about a second, then many seconds of the
/// debug daemon's graph phase.
fn handoff_chain() -> Repo {
    handoff_chains(1)
}

/// `modules` such modules, each edited.
fn handoff_chains(modules: usize) -> Repo {
    let chain = |edit: &str| {
        let mut module = String::from(
            "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\nh0 = Agent(name=\"h0\", tools=[lookup])\n",
        );
        for i in 1..16_000 {
            module.push_str(&format!(
                "h{i} = Agent(name=\"h{i}\", handoffs=[h{}], tools=[lookup])\n",
                i - 1
            ));
        }
        module.push_str(edit);
        module
    };
    let (base, head) = (chain(""), chain("# edited\n"));
    let paths: Vec<String> = (0..modules).map(|m| format!("app/agents{m}.py")).collect();
    let repo = Repo::new();
    let files = |text: &str| -> Vec<(String, String)> {
        paths
            .iter()
            .map(|p| (p.clone(), text.to_string()))
            .collect()
    };
    for (files, message) in [(files(&base), "agents"), (files(&head), "edit")] {
        let listed: Vec<(&str, Option<&str>)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), Some(t.as_str())))
            .collect();
        repo.commit(&listed, message);
    }
    repo
}

/// The client run with `args` and `--workspace`, against this place's
/// daemon, running.
fn running_client(
    place: &Place,
    args: &[&str],
    workspace: &std::path::Path,
    stderr: Stdio,
) -> std::process::Child {
    let (_, client) = binaries();
    Command::new(client)
        .args(args)
        .arg("--workspace")
        .arg(workspace)
        .env("SHIPGATE_SOCKET", place.socket())
        .env("SHIPGATE_DATA_DIR", place.data_dir())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("client runs")
}

/// A client of this place comparing `repo`'s last commit, running.
fn slow_diff(place: &Place, repo: &Repo, extra: &[&str]) -> std::process::Child {
    let mut args = vec![
        "diff",
        "--application",
        "--base",
        "HEAD~1",
        "--head",
        "HEAD",
    ];
    args.extend_from_slice(&["--scope", "app"]);
    args.extend_from_slice(extra);
    running_client(place, &args, repo.path(), Stdio::null())
}

/// Issue 46, item 1: every comparison has a deadline. A client's
/// `--timeout` (sent as `grpc-timeout`) is answered DEADLINE_EXCEEDED
/// with a message naming it, and the work stops; without one, the
/// daemon's `--request-timeout` holds.
#[test]
fn a_comparison_past_its_deadline_is_stopped_and_says_so() {
    let _serial = one_at_a_time();
    let repo = handoff_chain();
    let place = Place::new();
    let daemon = place.start_daemon_with(&["--request-timeout", "3s"]);
    let pid = daemon.child.id();
    let workspace = repo.path().to_string_lossy().into_owned();
    let diff = |extra: &[&str]| {
        let mut args = vec![
            "diff",
            "--application",
            "--base",
            "HEAD~1",
            "--head",
            "HEAD",
        ];
        args.extend_from_slice(&["--scope", "app", "--workspace", workspace.as_str()]);
        args.extend_from_slice(extra);
        place.client(&args)
    };
    let output = diff(&["--timeout", "2s"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("did not finish within its deadline of 1.9 s"),
        "{stderr}"
    );
    stops_within(pid, Duration::from_secs(2));
    // No client deadline: the daemon's own.
    let output = diff(&[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("did not finish within its deadline of 3.0 s"),
        "{stderr}"
    );
    daemon.stop();
}

/// Issue 46, item 1: two slow comparisons hold every core slot; a cheap
/// one of another repository is answered in the lane while they still
/// run, and once their clients go, their work stops.
#[test]
fn a_cheap_comparison_is_answered_while_slow_ones_hold_the_cores() {
    let _serial = one_at_a_time();
    let (first, second) = (handoff_chains(2), handoff_chains(2));
    let small = Repo::new();
    small.commit(&[("app/agent.py", Some(AGENT))], "agent");
    small.commit(
        &[(
            "app/agent.py",
            Some(&AGENT.replace("return q", "return q.strip()")),
        )],
        "edit",
    );
    let place = Place::new();
    let daemon = place.start_daemon();
    let pid = daemon.child.id();
    let mut slow = [
        slow_diff(&place, &first, &[]),
        slow_diff(&place, &second, &[]),
    ];
    assert!(started(pid, 3.0), "the slow comparisons had started");
    let before = cpu_seconds(pid);
    let doc = place.diff_json(
        &small,
        &["--base", "HEAD~1", "--head", "HEAD", "--scope", "app"],
    );
    assert_eq!(
        support::rows(&doc),
        vec![support::row("support", "lookup", "changed")]
    );
    // Answered in the lane: the slow comparisons went on meanwhile for
    // a few CPU seconds at most, where waiting for a core slot costs the
    // rest of one of them (over 40 CPU seconds of this debug daemon).
    let meanwhile = cpu_seconds(pid) - before;
    assert!(meanwhile < 10.0, "{meanwhile:.1} CPU seconds went by first");
    for client in &mut slow {
        assert!(
            matches!(client.try_wait(), Ok(None)),
            "answered while both slow comparisons still ran"
        );
        let _ = client.kill();
        let _ = client.wait();
    }
    // Two requests' work, each past its next checkpoint (a parse, or
    // the rendering if it had got that far): a little longer than one.
    stops_within(pid, Duration::from_secs(3));
    daemon.stop();
}

/// Issue 46, item 1: the graph phase stops too (`handoff_chain`): a
/// client gone mid-way stops it at its next agent.
#[test]
fn a_diff_whose_client_went_away_stops_in_the_graph_phase() {
    let _serial = one_at_a_time();
    let repo = handoff_chain();
    let place = Place::new();
    let daemon = place.start_daemon();
    let pid = daemon.child.id();
    let mut diff = slow_diff(&place, &repo, &[]);
    // Past the parse (about a CPU second), inside the graph phase.
    assert!(started(pid, 3.0), "the comparison had started");
    let _ = diff.kill();
    let _ = diff.wait();
    stops_within(pid, Duration::from_secs(2));
    assert!(place.client(&["status"]).status.success());
    daemon.stop();
}

/// Issue 46, item 6: SIGTERM during a long `history` stops the walk at
/// once: the client is told UNAVAILABLE "the daemon is stopping" (not an
/// HTTP/2 protocol error when the stop's ten-second grace ran out), and the
/// daemon exits well within that grace.
#[test]
fn a_sigterm_during_history_stops_the_walk_and_says_so() {
    let _serial = one_at_a_time();
    let repo = long_history();
    let place = Place::new();
    let mut daemon = place.start_daemon();
    let pid = daemon.child.id();
    let history = running_client(
        &place,
        &["history", "--quiet", "--no-start"],
        repo.path(),
        Stdio::piped(),
    );
    assert!(started(pid, 0.5), "the walk had started before the signal");
    let signalled = Instant::now();
    let _ = Command::new("kill")
        .arg("-TERM")
        .arg(pid.to_string())
        .status();
    let output = history.wait_with_output().expect("client ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("the daemon is stopping"),
        "the client says why: {stderr}"
    );
    let exited = loop {
        if let Ok(Some(_)) = daemon.child.try_wait() {
            break signalled.elapsed();
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(15),
            "the daemon did not exit"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(exited < Duration::from_secs(5), "{exited:?}");
}
