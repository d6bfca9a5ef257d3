//! End to end: `--timings` through the real daemon and client (and the
//! one-shot diff), per-phase totals in `status`, and `SHIPGATE_LOG`.
//! Only the presence and form of what is printed is asserted, never a
//! duration.

mod support;

use std::process::Command;
use support::{binaries, Place, Repo};

const AGENT: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef ping() -> str:\n    return 'pong'\n\n\nbot = Agent(name='Bot', tools=[ping])\n";

fn two_commit_repo() -> Repo {
    let repo = Repo::new();
    repo.commit(&[("bot/agent.py", Some(AGENT))], "base");
    repo.tag("v1");
    let head = AGENT.replace("return 'pong'", "return 'PONG'");
    repo.commit(&[("bot/agent.py", Some(&head))], "head");
    repo
}

/// The `shipgate: timings:` line of stderr, as (phase, millis text) pairs,
/// and whether it says `(answer kept)`.
fn timings_of(stderr: &str) -> (Vec<String>, bool) {
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("shipgate: timings: "))
        .collect();
    assert_eq!(lines.len(), 1, "one timings line: {stderr}");
    let line = lines[0].trim_start_matches("shipgate: timings: ");
    let (line, kept) = match line.strip_suffix(" (answer kept)") {
        Some(line) => (line, true),
        None => (line, false),
    };
    let phases = line
        .split(", ")
        .map(|entry| {
            // `facts 410.0 ms`: a name, a number with one decimal, `ms`.
            let parts: Vec<&str> = entry.split(' ').collect();
            assert_eq!(parts.len(), 3, "{entry:?} in {stderr}");
            assert_eq!(parts[2], "ms", "{entry:?}");
            let (whole, tenths) = parts[1].split_once('.').unwrap_or(("", ""));
            assert!(
                !whole.is_empty()
                    && whole.chars().all(|c| c.is_ascii_digit())
                    && tenths.len() == 1
                    && tenths.chars().all(|c| c.is_ascii_digit()),
                "{entry:?}"
            );
            parts[0].to_string()
        })
        .collect();
    (phases, kept)
}

#[test]
fn client_timings_name_every_phase_then_say_the_answer_was_kept() {
    let repo = two_commit_repo();
    let place = Place::new();
    let _daemon = place.start_daemon();
    // Scopes derived from the change: every phase runs.
    let (code, stdout, stderr) = place.diff(&repo, &["--base", "v1", "--timings"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("Application comparison: "), "{stdout}");
    let (phases, kept) = timings_of(&stderr);
    assert_eq!(
        phases,
        [
            "resolve",
            "list",
            "facts",
            "derivation",
            "graph",
            "compare",
            "render",
            "store",
            "total"
        ],
        "{stderr}"
    );
    assert!(!kept);
    // The same request: answered from the kept answers, only the
    // revisions were resolved.
    let (code, again, stderr) = place.diff(&repo, &["--base", "v1", "--timings"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(again, stdout);
    let (phases, kept) = timings_of(&stderr);
    assert_eq!(phases, ["resolve", "total"], "{stderr}");
    assert!(kept, "{stderr}");
    // Without the flag, nothing is added to stderr.
    let (code, _, stderr) = place.diff(&repo, &["--base", "v1"]);
    assert_eq!(code, 0);
    assert_eq!(stderr, "");
}

#[test]
fn status_lists_phase_totals_after_one_diff() {
    let repo = two_commit_repo();
    let place = Place::new();
    let _daemon = place.start_daemon();
    let (code, _, stderr) = place.diff(&repo, &["--base", "v1", "--scope", "bot"]);
    assert_eq!(code, 0, "{stderr}");
    let output = place.client(&["status", "--json"]);
    assert!(output.status.success());
    let status: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("status JSON parses");
    let phases = status["phases"].as_object().expect("phases is an object");
    let names: Vec<&str> = phases.keys().map(String::as_str).collect();
    // An explicit scope: no derivation.
    assert_eq!(
        names,
        ["resolve", "list", "facts", "graph", "compare", "render", "store"],
        "{status}"
    );
    assert_eq!(phases["resolve"]["count"], 1);
    assert_eq!(phases["compare"]["count"], 1);
    assert!(phases["facts"]["millis"].is_f64(), "{status}");
    let output = place.client(&["status"]);
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text
        .lines()
        .find(|line| line.starts_with("phases since start: "))
        .unwrap_or_else(|| panic!("no phases line: {text}"));
    assert!(line.contains("resolve "), "{line}");
    assert!(line.contains(" ms (1x)"), "{line}");
}

/// The one-shot diff: `--timings` on stderr after the answer, and spans as
/// they close when `SHIPGATE_LOG` asks; silent otherwise.
#[test]
fn one_shot_timings_and_the_log_filter() {
    let repo = two_commit_repo();
    let (daemon, _) = binaries();
    // Each run on a new store, so every phase runs each time.
    let run = |extra: &[&str], log: Option<&str>| {
        let place = Place::new();
        let mut command = Command::new(daemon);
        command
            .args(["diff", "--application", "--base", "v1", "--scope", "bot"])
            .args(extra)
            .arg("--workspace")
            .arg(repo.path())
            .arg("--data-dir")
            .arg(place.data_dir())
            .env_remove("SHIPGATE_LOG");
        if let Some(log) = log {
            command.env("SHIPGATE_LOG", log);
        }
        let output = command.output().expect("the daemon runs");
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let stderr = run(&["--timings"], None);
    let (phases, kept) = timings_of(&stderr);
    assert_eq!(
        phases,
        ["resolve", "list", "facts", "graph", "compare", "render", "store", "total"],
        "{stderr}"
    );
    assert!(!kept);
    // Unset: nothing but the answer.
    assert_eq!(run(&[], None), "");
    // A filter: each phase span printed as it closes, with its time.
    let logged = run(&[], Some("shipgate::phase=info"));
    let closed: Vec<&str> = logged
        .lines()
        .filter(|line| line.contains("close") && line.contains("time.busy"))
        .collect();
    for phase in [
        "resolve", "list", "facts", "graph", "compare", "render", "store",
    ] {
        assert!(
            closed.iter().any(|line| line.contains(phase)),
            "{phase} not logged: {logged}"
        );
    }
}
