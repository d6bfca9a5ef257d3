//! End to end: `shipgate-client history` (issue 10) on a repository of 30+
//! commits: the commits that changed an agent's bindings, filtered by
//! agent and by tool, a merge commit compared with its first parent, a
//! reordered tool list shown beside the rows, and a repeated query served
//! from the history index (a step indexed by a short walk included).

mod support;

use serde_json::Value;
use support::{Place, Repo};

fn agent_module(tools: &[&str], name: &str, body: &str) -> String {
    let mut source = String::from("from agents import Agent, function_tool\n\n");
    for tool in ["lookup", "refund", "cancel", "escalate"] {
        source.push_str(&format!(
            "\n@function_tool\ndef {tool}(q: str) -> str:\n    return {}\n\n",
            if tool == "lookup" { body } else { "q" }
        ));
    }
    source.push_str(&format!(
        "\n{name} = Agent(name=\"{name}\", tools=[{}])\n",
        tools.join(", ")
    ));
    source
}

/// The fixture: 31 commits, a side branch merged into main.
fn repository() -> Repo {
    let repo = Repo::new();
    let commit = |tools: &[&str], name: &str, body: &str, message: &str| {
        repo.commit(
            &[
                ("app/__init__.py", Some("")),
                ("app/agent.py", Some(&agent_module(tools, name, body))),
            ],
            message,
        );
    };
    commit(&["lookup"], "support", "q", "start with lookup");
    for i in 0..12 {
        repo.commit(
            &[("README.md", Some(&format!("docs {i}\n")))],
            &format!("docs {i}"),
        );
    }
    commit(&["lookup", "refund"], "support", "q", "add refund");
    for i in 10..20 {
        repo.commit(
            &[("README.md", Some(&format!("docs {i}\n")))],
            &format!("docs {i}"),
        );
    }
    commit(&["refund", "lookup"], "support", "q", "reorder tools");
    commit(
        &["refund", "lookup"],
        "support",
        "q.upper()",
        "change lookup",
    );
    // A side branch adds cancel; main merges it.
    repo.git(&["checkout", "-q", "-b", "feature"]);
    commit(
        &["refund", "lookup", "cancel"],
        "support",
        "q.upper()",
        "add cancel",
    );
    repo.git(&["checkout", "-q", "main"]);
    repo.commit(&[("CHANGELOG.md", Some("changes\n"))], "changelog");
    repo.git(&["merge", "-q", "--no-ff", "feature", "-m", "merge feature"]);
    commit(&["lookup", "cancel"], "support", "q.upper()", "drop refund");
    commit(
        &["lookup", "cancel"],
        "helpdesk",
        "q.upper()",
        "rename the agent",
    );
    repo
}

fn history(place: &Place, repo: &Repo, extra: &[&str]) -> Value {
    place.history_json(repo, extra)
}

/// `(agent, tool, change)` of a row.
type RowKey = (String, String, String);

/// `(subject, rows)` of each commit listed, newest first.
fn listed(doc: &Value) -> Vec<(String, Vec<RowKey>)> {
    doc["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .map(|c| {
            let rows = c["rows"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| {
                    (
                        r["agent"].as_str().unwrap_or_default().to_string(),
                        r["tool"].as_str().unwrap_or_default().to_string(),
                        r["change"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect();
            (c["subject"].as_str().unwrap_or_default().to_string(), rows)
        })
        .collect()
}

fn r(agent: &str, tool: &str, change: &str) -> RowKey {
    (agent.into(), tool.into(), change.into())
}

#[test]
fn history_lists_the_commits_that_changed_bindings() {
    let repo = repository();
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = history(&place, &repo, &[]);
    assert_eq!(doc["commits_read"], 30, "first-parent commits");
    assert_eq!(
        listed(&doc),
        vec![
            (
                "rename the agent".into(),
                vec![
                    r("helpdesk", "cancel", "added"),
                    r("helpdesk", "lookup", "added"),
                    r("support", "cancel", "removed"),
                    r("support", "lookup", "removed"),
                ]
            ),
            (
                "drop refund".into(),
                vec![r("support", "refund", "removed")]
            ),
            (
                "merge feature".into(),
                vec![r("support", "cancel", "added")]
            ),
            (
                "change lookup".into(),
                vec![r("support", "lookup", "changed")]
            ),
            ("reorder tools".into(), vec![]),
            ("add refund".into(), vec![r("support", "refund", "added")]),
            (
                "start with lookup".into(),
                vec![r("support", "lookup", "added")]
            ),
        ]
    );
    // The reorder is information beside the rows, never a binding change.
    let reorder = &doc["commits"][4]["tool_list_stability"]["order_changed"][0];
    assert_eq!(reorder["before"], serde_json::json!(["lookup", "refund"]));
    assert_eq!(reorder["after"], serde_json::json!(["refund", "lookup"]));
    // Each listed commit carries who and when.
    assert_eq!(doc["commits"][0]["author"], "Test");
    assert!(doc["commits"][0]["date"]
        .as_str()
        .is_some_and(|d| d.ends_with('Z')));
}

/// What `--agent helpdesk` lists: the commit that renamed `support`.
fn helpdesk_renamed() -> Vec<(String, Vec<RowKey>)> {
    vec![(
        "rename the agent".to_string(),
        vec![
            r("helpdesk", "cancel", "added"),
            r("helpdesk", "lookup", "added"),
        ],
    )]
}

#[test]
fn history_filters_by_agent_and_tool_and_reads_the_index_again() {
    let repo = repository();
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = history(&place, &repo, &["--tool", "refund"]);
    let subjects: Vec<String> = listed(&doc).into_iter().map(|(s, _)| s).collect();
    assert_eq!(subjects, vec!["drop refund", "add refund"]);
    let doc = history(&place, &repo, &["--agent", "helpdesk"]);
    assert_eq!(listed(&doc), helpdesk_renamed());
    // Every step is indexed now: a third query reads no commit again.
    let (hits_before, misses_before) = place.counters("history");
    let again = history(&place, &repo, &["--since", "HEAD~3"]);
    assert_eq!(again["commits_read"], 3);
    let (hits_after, misses_after) = place.counters("history");
    assert_eq!(misses_after, misses_before, "no step is computed again");
    assert_eq!(hits_after - hits_before, 3);
}

/// The oldest commit a walk reads is compared with its first parent read
/// from git, the others with the next commit of the walk: both ways give
/// a step the same index key, so a longer walk after a short one reads
/// the shared step from the index.
#[test]
fn the_oldest_commit_read_is_compared_with_a_parent_outside_the_walk() {
    let repo = repository();
    let place = Place::new();
    let _daemon = place.start_daemon();
    let newest = history(
        &place,
        &repo,
        &["--max-commits", "1", "--agent", "helpdesk"],
    );
    assert_eq!(newest["commits_read"], 1);
    assert_eq!(listed(&newest), helpdesk_renamed());
    let (hits_before, misses_before) = place.counters("history");
    let all = history(&place, &repo, &["--tool", "refund"]);
    assert_eq!(all["commits_read"], 30);
    let subjects: Vec<String> = listed(&all).into_iter().map(|(s, _)| s).collect();
    assert_eq!(subjects, vec!["drop refund", "add refund"]);
    let (hits_after, misses_after) = place.counters("history");
    assert_eq!(hits_after - hits_before, 1, "the newest step, indexed once");
    assert_eq!(misses_after - misses_before, 29);
}

#[test]
fn a_bound_reached_is_named_not_silent() {
    let repo = repository();
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = history(&place, &repo, &["--max-python-files", "1"]);
    assert_eq!(
        doc["limits"],
        serde_json::json!([
            "Some commits were not read in full (Python discovery truncated at 1 files.); raise --max-python-files to read them.",
            "Some commits were not read in full (Python input census exceeds 1 files.); raise --max-python-files to read them."
        ])
    );
}

#[test]
fn history_text_and_bad_input() {
    let repo = repository();
    let place = Place::new();
    let _daemon = place.start_daemon();
    let workspace = repo.path().to_string_lossy().into_owned();
    let output = place.client(&["history", "--workspace", &workspace, "--tool", "refund"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.starts_with("Agent history: 2 commits changed agent bindings (30 read, scope .)\n"),
        "{text}"
    );
    assert!(
        text.contains(": drop refund\n  REMOVED  support → refund\n"),
        "{text}"
    );
    let output = place.client(&[
        "history",
        "--workspace",
        &workspace,
        "--since",
        "no-such-ref",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("no-such-ref does not name a commit"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The diff shows a reordered tool list beside its rows too.
#[test]
fn a_diff_shows_a_reordered_tool_list_beside_the_rows() {
    let repo = Repo::new();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            (
                "app/agent.py",
                Some(&agent_module(&["lookup", "refund"], "support", "q")),
            ),
        ],
        "base",
    );
    repo.git(&["checkout", "-q", "-b", "head"]);
    repo.commit(
        &[(
            "app/agent.py",
            Some(&agent_module(&["refund", "lookup"], "support", "q")),
        )],
        "reorder",
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let args = ["--base", "main", "--head", "head", "--scope", "app"];
    let doc = place.diff_json(&repo, &args);
    assert_eq!(doc["rows"], serde_json::json!([]));
    assert_eq!(
        doc["tool_list_stability"],
        serde_json::json!({"order_changed": [{"agent": "support", "agent_source": "app/agent.py", "before": ["lookup", "refund"], "after": ["refund", "lookup"]}], "caveats": []})
    );
    let (_, text, _) = place.diff(&repo, &args);
    assert!(
        text.contains("Tool-list stability (not a binding change):\n  support (app/agent.py): order changed: lookup, refund → refund, lookup\n"),
        "{text}"
    );
}
