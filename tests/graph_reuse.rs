//! End to end (issue 23): a side's graph is keyed by what it is built
//! from, not by the commit's root tree, so a commit that changes nothing
//! the scope reads (documentation, another directory) has its parent's
//! graph, built once, and a history walk builds a graph only for commits
//! that changed the scope's Python.

mod support;

use support::{Place, Repo};

fn agent_module(tools: &[&str]) -> String {
    let mut source = String::from("from agents import Agent, function_tool\n\n");
    for tool in ["lookup", "refund"] {
        source.push_str(&format!(
            "\n@function_tool\ndef {tool}(q: str) -> str:\n    return q\n\n"
        ));
    }
    source.push_str(&format!(
        "\nsupport = Agent(name=\"support\", tools=[{}])\n",
        tools.join(", ")
    ));
    source
}

#[test]
fn a_commit_that_changes_no_python_of_the_scope_reuses_its_parents_graph() {
    let repo = Repo::new();
    repo.commit(
        &[("app/agent.py", Some(&agent_module(&["lookup"])))],
        "start with lookup",
    );
    repo.commit(&[("README.md", Some("docs\n"))], "docs only");
    repo.commit(&[("notes/a.txt", Some("x\n"))], "notes only");
    repo.commit(
        &[("app/agent.py", Some(&agent_module(&["lookup", "refund"])))],
        "add refund",
    );
    let place = Place::new();
    let daemon = place.start_daemon();
    let workspace = repo.path().to_string_lossy().into_owned();
    let output = place.client(&["history", "--workspace", &workspace, "--json", "--quiet"]);
    assert!(
        output.status.success(),
        "history failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).expect("history JSON");
    let listed: Vec<&str> = doc["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .filter_map(|c| c["subject"].as_str())
        .collect();
    assert_eq!(listed, vec!["add refund", "start with lookup"]);
    // Four commits, the first three of one scope content. The walk asks
    // each commit's graph once (a step's base is held for the next step's
    // head, never read back): "add refund" and "notes only" are built (two
    // misses); "docs only" and the root commit find that content built
    // (two hits). Keyed by root tree, as before issue 23, the same walk
    // built four graphs.
    assert_eq!(place.counters("graphs"), (2, 2));
    daemon.stop();
}

#[test]
fn a_diff_of_two_commits_with_the_same_scope_content_builds_one_graph() {
    let repo = Repo::new();
    let base = repo.commit(
        &[("app/agent.py", Some(&agent_module(&["lookup"])))],
        "start with lookup",
    );
    let head = repo.commit(&[("README.md", Some("docs\n"))], "docs only");
    let place = Place::new();
    let daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--base", &base, "--head", &head, "--scope", "app"]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(support::rows(&doc), Vec::new());
    // Both sides looked up by content and missed; one graph was built
    // and stored under both trees: the same pair asked again by another
    // spelling reads both sides from the store.
    assert_eq!(place.counters("graphs"), (0, 2));
    let again = place.diff_json(
        &repo,
        &[
            "--base",
            &format!("{head}~1"),
            "--head",
            &head,
            "--scope",
            "app",
        ],
    );
    assert_eq!(support::rows(&again), Vec::new());
    assert_eq!(place.counters("graphs"), (2, 2));
    daemon.stop();
}
