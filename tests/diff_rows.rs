//! End to end: real repositories, the real daemon, the real client; exact
//! rows, statuses and exit codes of `diff --application`.

mod support;

use support::{rows, Place, Repo};

const BASE: &str = r#"from agents import Agent, function_tool


@function_tool
def lookup_order(order_id: str) -> dict:
    """Look up an order."""
    return {"id": order_id}


@function_tool
def cancel_order(order_id: str) -> str:
    return "cancelled"


@function_tool
def track(order_id: str) -> str:
    return "somewhere"


support = Agent(name="Support", tools=[lookup_order, cancel_order, track])
"#;

/// A repository whose `main` holds BASE in `app/agent.py`, and a `head`
/// branch with `head_files` committed on top.
fn repo_with_head(head_files: &[(&str, Option<&str>)]) -> Repo {
    let repo = Repo::new();
    repo.commit(
        &[("app/agent.py", Some(BASE)), ("app/__init__.py", Some(""))],
        "base",
    );
    repo.git(&["checkout", "-q", "-b", "head"]);
    repo.commit(head_files, "head");
    repo
}

/// `--json` of main against a `head` branch holding `head_files`.
fn diff_head(head_files: &[(&str, Option<&str>)]) -> serde_json::Value {
    let repo = repo_with_head(head_files);
    let place = Place::new();
    let _daemon = place.start_daemon();
    place.diff_json(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "app"],
    )
}

fn row_tuples(doc: &serde_json::Value) -> Vec<(String, String, String)> {
    rows(doc)
}

fn t(agent: &str, tool: &str, change: &str) -> (String, String, String) {
    (agent.to_string(), tool.to_string(), change.to_string())
}

#[test]
fn an_added_tool_is_one_added_row_with_its_definition() {
    let head = BASE.replace(
        "tools=[lookup_order, cancel_order, track]",
        "tools=[lookup_order, cancel_order, track, refund]",
    )
        + "\n\n@function_tool\ndef refund(order_id: str, amount: float) -> str:\n    return 'ok'\n";
    let repo = repo_with_head(&[("app/agent.py", Some(&head))]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "app"],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(row_tuples(&doc), vec![t("support", "refund", "added")]);
    let row = &doc["rows"][0];
    assert_eq!(row["agent_source"], "agent.py", "scope-relative on the row");
    assert_eq!(row["before"], serde_json::Value::Null);
    assert_eq!(
        row["after"]["agent_source"], "app/agent.py",
        "rooted on the side"
    );
    assert_eq!(row["after"]["binding_location"], "app/agent.py:20");
    assert_eq!(row["after"]["definition"]["source"], "app/agent.py");
    assert_eq!(row["after"]["definition"]["line"], 24);
    assert_eq!(row["after"]["signature"], "refund(order_id, amount) -> str");
    assert_eq!(
        row["after"]["input_schema"],
        serde_json::json!({"type": "object", "properties": {"order_id": {"type": "string"}, "amount": {"type": "number"}}, "required": ["order_id", "amount"]})
    );
    assert_eq!(
        row["why"],
        "The source now binds this callable to this agent."
    );
    assert_eq!(doc["base"]["status"], "complete");
    assert_eq!(doc["head"]["binding_count"], 4);
    assert_eq!(doc["scope_selection"]["mode"], "explicit");

    let (code, text, _) = place.diff(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "app"],
    );
    assert_eq!(code, 0);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("Application comparison: compared ("),
        "{text}"
    );
    // Schema 0.4: the findings open the answer, the rows follow under
    // `Detail:` (the reference, 1.2.0, prints the rows first).
    assert_eq!(
        lines[1..5],
        [
            "Findings: 1 changed agent, 1 row (1 added); effect evidence 1 write (provisional: unknown effect).",
            "support [compared]: +refund (reach: none established)",
            "  Review: Should support be able to call refund?",
            "Detail:",
        ]
    );
    assert_eq!(lines[5], "ADDED  support → refund");
    assert_eq!(lines[6], "  before: no observed binding");
    assert_eq!(
        lines[7],
        "  after: refund(order_id, amount) -> str at app/agent.py:20"
    );
    assert_eq!(
        lines.last().copied(),
        Some("This comparison is advisory evidence and supplies no release verdict or merge permission.")
    );
}

#[test]
fn a_tool_dropped_from_the_list_is_removed() {
    let head = BASE.replace(
        "tools=[lookup_order, cancel_order, track]",
        "tools=[lookup_order, track]",
    );
    let doc = diff_head(&[("app/agent.py", Some(&head))]);
    assert_eq!(
        row_tuples(&doc),
        vec![t("support", "cancel_order", "removed")]
    );
    assert_eq!(doc["rows"][0]["after"], serde_json::Value::Null);
    assert_eq!(doc["rows"][0]["candidate_change"], serde_json::Value::Null);
}

#[test]
fn a_body_change_is_changed_but_docstrings_and_moves_are_not() {
    let head = BASE
        .replace("return \"somewhere\"", "return \"elsewhere\"")
        .replace(
            "\"\"\"Look up an order.\"\"\"",
            "\"\"\"Look up an order by its id.\"\"\"",
        );
    // Move cancel_order below the agent: its lines change, its meaning does not.
    let cancel =
        "@function_tool\ndef cancel_order(order_id: str) -> str:\n    return \"cancelled\"\n\n\n";
    let head = head.replace(cancel, "") + "\n\n" + cancel.trim_end() + "\n";
    let doc = diff_head(&[("app/agent.py", Some(&head))]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(row_tuples(&doc), vec![t("support", "track", "changed")]);
    let row = &doc["rows"][0];
    assert_ne!(
        row["before"]["definition"]["implementation_sha256"],
        row["after"]["definition"]["implementation_sha256"]
    );
    assert_eq!(row["before"]["signature"], row["after"]["signature"]);
}

#[test]
fn a_docstring_only_change_has_no_row() {
    let head = BASE.replace(
        "\"\"\"Look up an order.\"\"\"",
        "\"\"\"Find an order.\"\"\"",
    );
    let repo = repo_with_head(&[("app/agent.py", Some(&head))]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let (code, text, _) = place.diff(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "app"],
    );
    assert_eq!(code, 0);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("Application comparison: compared ("));
    assert_eq!(
        lines[1..3],
        ["Findings: 0 changed agents, 0 rows.", "Detail:"]
    );
    assert_eq!(
        lines[3],
        "No established binding/interface/implementation changes in the observed surface."
    );
    assert_eq!(lines.len(), 5, "{text}");
}

#[test]
fn a_file_that_does_not_parse_is_a_gap_and_other_agents_are_still_compared() {
    let head = BASE.replace(
        "tools=[lookup_order, cancel_order, track]",
        "tools=[lookup_order, cancel_order]",
    );
    let doc = diff_head(&[
        ("app/agent.py", Some(&head)),
        ("app/broken.py", Some("from agents import Agent\ndef (:\n")),
    ]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(doc["head"]["status"], "partial");
    assert_eq!(doc["base"]["status"], "complete");
    assert_eq!(
        doc["head"]["coverage_gaps"],
        serde_json::json!([{"source": "broken.py", "agent": null, "tool": null, "affects": "binding_presence", "reason": "Python input could not be parsed: broken.py"}])
    );
    assert_eq!(
        doc["head"]["limits"],
        serde_json::json!(["Python input could not be parsed: broken.py"])
    );
    // The gap covers broken.py only: agent.py's removal stays established.
    assert_eq!(row_tuples(&doc), vec![t("support", "track", "removed")]);
}

#[test]
fn a_dynamic_tool_list_makes_candidates_not_established() {
    let head = BASE.replace(
        "tools=[lookup_order, cancel_order, track]",
        "tools=build_tools()",
    );
    let doc = diff_head(&[("app/agent.py", Some(&head))]);
    assert_eq!(doc["comparison_status"], "partial");
    // The reference (1.2.0) says "uses a dynamic tools expression"; the spec
    // names where reading stopped and why.
    let reason = "OpenAI Agents SDK agent 'support' at agent.py:20 has a tools list it does not read; its binding graph is incomplete. Not read: a call to `build_tools`, whose result is not read (agent.py:20).";
    assert_eq!(
        row_tuples(&doc),
        vec![
            t("support", "cancel_order", "not_established"),
            t("support", "lookup_order", "not_established"),
            t("support", "track", "not_established"),
        ]
    );
    for row in doc["rows"].as_array().expect("rows") {
        assert_eq!(row["candidate_change"], "removed");
        assert_eq!(row["uncertainty"], serde_json::json!({"head": [reason]}));
    }
}

#[test]
fn unknown_refs_and_bad_scopes_exit_2_with_what_to_do() {
    let repo = repo_with_head(&[("app/extra.py", Some("x = 1\n"))]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let refused = |args: &[&str], message: &str| {
        let (code, stdout, stderr) = place.diff(&repo, args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    };
    refused(
        &["--base", "nope", "--head", "head"],
        "Invalid value for --base: Base ref 'nope' is not available locally. Fetch it first; this command never fetches.",
    );
    refused(
        &["--base", "main", "--head", "nothead"],
        "Head ref 'nothead' is unavailable locally. Fetch it first.",
    );
    refused(
        &["--base", "main", "--scope", "../x"],
        "Scope '../x' leaves the repository through '..': pass a directory inside it.",
    );
    refused(
        &["--base", "main", "--scope", "//app"],
        "Scope '//app' is an absolute path: pass a directory relative to the repository root (app, not /app).",
    );
    refused(
        &["--base", "main", "--scope", "nothere"],
        "Neither comparison tree contains the selected scopes: base='nothere', head='nothere'. Check --scope/--base-scope.",
    );
    refused(
        &["--base", "main", "--base-scope", "app"],
        "Error: Invalid value for --base-scope: A base scope names the old path of an explicitly selected application; it needs a scope. Pass --scope too.",
    );

    let not_a_repo = tempfile::tempdir().expect("temp dir");
    let output = place.client(&[
        "diff",
        "--application",
        "--workspace",
        &not_a_repo.path().to_string_lossy(),
        "--base",
        "main",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("Workspace is not inside a git checkout")
    );
}

#[test]
fn the_in_process_diff_prints_what_the_client_prints() {
    let head = BASE.replace(
        "tools=[lookup_order, cancel_order, track]",
        "tools=[lookup_order]",
    );
    let repo = repo_with_head(&[("app/agent.py", Some(&head))]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let args = ["--base", "main", "--head", "head", "--scope", "app"];
    let (_, via_client, _) = place.diff(&repo, &args);
    let (daemon, _) = support::binaries();
    let own_store = tempfile::tempdir().expect("temp dir");
    let output = std::process::Command::new(daemon)
        .args(["diff", "--application", "--workspace"])
        .arg(repo.path())
        .args(args)
        .arg("--data-dir")
        .arg(own_store.path())
        .output()
        .expect("daemon diff runs");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout), via_client);
}

#[test]
fn agent_mode_adds_one_json_line_to_a_refusal() {
    let repo = repo_with_head(&[("app/extra.py", Some("x = 1\n"))]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let workspace = repo.path().to_string_lossy().into_owned();
    let args = [
        "diff",
        "--application",
        "--workspace",
        &workspace,
        "--base",
        "HEAD~1",
        "--scope",
        "nothere",
    ];
    let output = place.client_with_env(&args, &[("AGENTS_SHIPGATE_AGENT_MODE", "1")]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[0],
        "Application comparison could not read its inputs: Neither comparison tree contains the selected scopes: base='nothere', head='nothere'. Check --scope/--base-scope."
    );
    let json: serde_json::Value = serde_json::from_str(lines[1]).expect("one JSON line");
    assert_eq!(json["error"], "config_error");
    assert_eq!(
        json["message"],
        "Neither comparison tree contains the selected scopes: base='nothere', head='nothere'. Check --scope/--base-scope."
    );
    assert_eq!(json["exit_code"], 2);
    assert_eq!(
        json["command"],
        format!("shipgate-client diff --application --workspace {workspace} --base 'HEAD~1' --scope nothere")
    );
    // Off by default: the human line only.
    let output = place.client(&args);
    assert_eq!(String::from_utf8_lossy(&output.stderr).lines().count(), 1);
}
