//! Issue 46, items 3 and 4: what the listing does not list — a Python file
//! 64 or more directories deep, past the depth it walks; a file or
//! directory whose name is not UTF-8 — is not read, so a change there is
//! named (by a derived diff, a `--scope .` diff, a `--worktree` diff and
//! `history`), never dropped as "no Python source", and two such names are
//! never one path. An unchanged one is a limit only: it cannot hide a
//! change.

mod support;

use serde_json::Value;
use support::{rows, Place, Repo};

const AGENT: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef wipe() -> str:\n    return \"x\"\n\n\nbot = Agent(name=\"bot\", instructions=\"x\", tools=[wipe])\n";

/// `d0/d1/…/d65`: 66 directories, past the bound of 64.
fn deep_dir() -> String {
    (0..66)
        .map(|i| format!("d{i}"))
        .collect::<Vec<_>>()
        .join("/")
}

/// The directory the listing stops at (the 64th).
fn stop_dir() -> String {
    (0..64)
        .map(|i| format!("d{i}"))
        .collect::<Vec<_>>()
        .join("/")
}

fn repo_adding_a_deep_agent() -> Repo {
    let repo = Repo::new();
    repo.commit(&[("readme.py", Some("x = 1\n"))], "base");
    repo.git(&["checkout", "-q", "-b", "head"]);
    let path = format!("{}/agent.py", deep_dir());
    repo.commit(&[(path.as_str(), Some(AGENT))], "a deep agent");
    repo
}

#[test]
fn a_change_past_the_depth_bound_is_named_by_every_diff() {
    let repo = repo_adding_a_deep_agent();
    let place = Place::new();
    let _daemon = place.start_daemon();
    let stop = stop_dir();
    let why = "it is nested 64 or more directories deep, past the depth the listing walks, and nothing under it is read";

    // Derived: nothing could be compared, and the reason names the path
    // (as for a bumped submodule), never "touches no Python source".
    let doc = place.diff_json(&repo, &["--base", "main", "--head", "head"]);
    assert_eq!(doc["comparison_status"], "not_established");
    assert_eq!(
        doc["scope_selection"]["reason"],
        format!("The change could not be related to an OpenAI Agents SDK or Google ADK agent: {stop} ({why}).")
    );

    // The whole repository: a gap on the path, so `partial`.
    let doc = place.diff_json(&repo, &["--base", "main", "--head", "head", "--scope", "."]);
    assert_eq!(doc["comparison_status"], "partial");
    assert!(rows(&doc).is_empty());
    assert_eq!(
        support::limits(&doc, "head"),
        vec![format!(
            "Omitted source surface: {stop} is nested too deep to list, and the change touches it"
        )]
    );

    // History lists the commit with what it could not read.
    let workspace = repo.path().to_string_lossy().into_owned();
    let output = place.client(&[
        "history",
        "--workspace",
        &workspace,
        "--until",
        "head",
        "--json",
        "--quiet",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let history: Value = serde_json::from_slice(&output.stdout).expect("history JSON");
    let commits = history["commits"].as_array().expect("commits");
    assert_eq!(commits.len(), 1, "{history:#}");
    assert_eq!(commits[0]["subject"], "a deep agent");
    assert_eq!(
        commits[0]["not_read"],
        serde_json::json!([format!(
            "Omitted source surface: {stop} is nested too deep to list, and the change touches it"
        )])
    );

    // The working tree: the same change, uncommitted.
    repo.git(&["checkout", "-q", "main"]);
    let path = repo.path().join(deep_dir());
    std::fs::create_dir_all(&path).expect("mkdir");
    std::fs::write(path.join("agent.py"), AGENT).expect("write");
    let doc = place.diff_json(&repo, &["--worktree", "--scope", "."]);
    assert_eq!(doc["comparison_status"], "partial", "{doc:#}");
}

/// A deep directory the change leaves alone is a limit only: an agent
/// compared beside it is `compared`.
#[test]
fn an_unchanged_deep_directory_is_a_limit_only() {
    let repo = Repo::new();
    let deep = format!("{}/agent.py", deep_dir());
    repo.commit(
        &[(deep.as_str(), Some(AGENT)), ("agent.py", Some(AGENT))],
        "base",
    );
    repo.git(&["checkout", "-q", "-b", "head"]);
    repo.commit(
        &[("agent.py", Some(&AGENT.replace("tools=[wipe]", "tools=[]")))],
        "head",
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--base", "main", "--head", "head", "--scope", "."]);
    assert_eq!(doc["comparison_status"], "compared", "{doc:#}");
    assert_eq!(
        rows(&doc),
        vec![("bot".to_string(), "wipe".to_string(), "removed".to_string())]
    );
}

/// Two agent files whose names differ only in a byte that is not UTF-8
/// (`\xff` and `\xfe` before `.py`) were one path, `app/\u{fffd}.py`: a new
/// agent in one was read with the other's body or hidden. Each is now its
/// own path, escaped losslessly, and named as not read.
#[test]
fn names_that_are_not_utf8_are_never_one_path() {
    use std::os::unix::ffi::OsStrExt;
    let repo = Repo::new();
    repo.commit(
        &[("app/__init__.py", Some("")), ("app/agent.py", Some(AGENT))],
        "base",
    );
    repo.git(&["checkout", "-q", "-b", "head"]);
    for byte in [0xff_u8, 0xfe] {
        let bytes = [byte, b'.', b'p', b'y'];
        let path = repo
            .path()
            .join("app")
            .join(std::ffi::OsStr::from_bytes(&bytes));
        if std::fs::write(&path, AGENT.replace("bot", "rogue")).is_err() {
            // A file system that refuses such names cannot hold this case.
            return;
        }
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "two agents with raw names"]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "app"],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert!(rows(&doc).is_empty(), "{:?}", rows(&doc));
    assert_eq!(
        support::limits(&doc, "head"),
        vec![
            "Omitted source surface: \\xfe.py has a name that is not UTF-8, which is not read, and the change touches it".to_string(),
            "Omitted source surface: \\xff.py has a name that is not UTF-8, which is not read, and the change touches it".to_string(),
        ]
    );
    // Derived: both named, as two inputs.
    let doc = place.diff_json(&repo, &["--base", "main", "--head", "head"]);
    assert_eq!(
        doc["scope_selection"]["reason"],
        "The change could not be related to an OpenAI Agents SDK or Google ADK agent: app/\\xfe.py (its name is not UTF-8, so it is not read); app/\\xff.py (its name is not UTF-8, so it is not read)."
    );
}
