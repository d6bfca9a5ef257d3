//! End to end: a host comparison (issue 42, item 4) as a markdown
//! comment, a SARIF log (valid against the official SARIF 2.1.0 schema),
//! GitHub annotations, and `diff --application --all`: both halves of a
//! change in one answer, each with its own status.

mod support;

use serde_json::Value;
use support::schema::{sarif_schema, validate};
use support::{Place, Repo};

/// `main` with one allow rule and an MCP server; `feature` widening the
/// rule, adding a server named to forge a line, and one agent tool.
fn repository() -> Repo {
    let repo = Repo::new();
    repo.commit(
        &[
            (".claude/settings.json", Some(r#"{"permissions": {"allow": ["Bash(git diff:*)"]}}"#)),
            ("app/agent.py", Some("from agents import Agent, function_tool\n\n\n@function_tool\ndef ping() -> str:\n    return 'pong'\n\n\nbot = Agent(name='Bot', tools=[])\n")),
        ],
        "base",
    );
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.commit(
        &[
            (".claude/settings.json", Some(r#"{"permissions": {"allow": ["Bash(git:*)"]}}"#)),
            (".mcp.json", Some(r#"{"mcpServers": {"evil\n::error::forged|cell": {"url": "https://mcp.example.com/x"}}}"#)),
            ("app/agent.py", Some("from agents import Agent, function_tool\n\n\n@function_tool\ndef ping() -> str:\n    return 'pong'\n\n\nbot = Agent(name='Bot', tools=[ping])\n")),
        ],
        "head",
    );
    repo
}

fn run(place: &Place, repo: &Repo, extra: &[&str]) -> String {
    let workspace = repo.path().to_string_lossy().into_owned();
    let mut args = vec![
        "diff",
        "--workspace",
        workspace.as_str(),
        "--base",
        "main",
        "--head",
        "HEAD",
    ];
    args.extend_from_slice(extra);
    let output = place.client(&args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn markdown_is_a_table_no_value_can_break() {
    let place = Place::new();
    let repo = repository();
    let markdown = run(&place, &repo, &["--format", "markdown"]);
    assert!(
        markdown.starts_with("### shipgate: coding-agent host grants\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| ⚠ | medium | widened | `claude-code .claude/settings.json` | `allow: Bash(git diff:*)` | `allow: Bash(git:*)` |"),
        "{markdown}"
    );
    // The server's name keeps to its cell and its line.
    assert!(
        markdown.contains("evil\\x0a::error::forged\\|cell"),
        "{markdown}"
    );
    assert!(!markdown.contains("\n::error::"), "{markdown}");
}

#[test]
fn sarif_is_a_valid_log_with_a_result_per_row() {
    let place = Place::new();
    let repo = repository();
    let log: Value =
        serde_json::from_str(&run(&place, &repo, &["--format", "sarif"])).expect("SARIF parses");
    assert_eq!(validate(&sarif_schema(), &log), Vec::<String>::new());
    let results = log["runs"][0]["results"].as_array().expect("results");
    let rules: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        rules,
        vec![
            "host-grant/mcp_server/added",
            "host-grant/permission_rule/widened"
        ]
    );
    assert_eq!(results[1]["level"], "warning");
    assert_eq!(
        results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        ".claude/settings.json"
    );
}

#[test]
fn github_annotations_cannot_be_forged() {
    let place = Place::new();
    let repo = repository();
    let annotations = run(&place, &repo, &["--format", "github"]);
    let lines: Vec<&str> = annotations.lines().collect();
    assert_eq!(lines.len(), 3, "{annotations}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("::warning ") || l.starts_with("::notice ")),
        "{annotations}"
    );
    assert!(
        lines[2].starts_with("::notice title=shipgate host grants::2 change(s), 2 widening"),
        "{annotations}"
    );
}

#[test]
fn all_gives_both_halves_of_a_change() {
    let place = Place::new();
    let repo = repository();
    let doc: Value =
        serde_json::from_str(&run(&place, &repo, &["--application", "--all", "--json"]))
            .expect("JSON");
    assert_eq!(doc["diff_all_schema_version"], "0.1");
    assert_eq!(doc["hosts"]["capability_diff_schema_version"], "0.4");
    assert_eq!(doc["hosts"]["comparison_status"], "comparable");
    assert_eq!(doc["hosts"]["rows"].as_array().map(Vec::len), Some(2));
    let app_rows: Vec<(String, String, String)> = support::rows(&doc["application"]);
    assert_eq!(app_rows, vec![support::row("bot", "ping", "added")]);
    let text = run(&place, &repo, &["--application", "--all"]);
    assert!(text.contains("Agent capability diff  main ("), "{text}");
    let sarif: Value = serde_json::from_str(&run(
        &place,
        &repo,
        &["--application", "--all", "--format", "sarif"],
    ))
    .expect("SARIF");
    assert_eq!(sarif["runs"].as_array().map(Vec::len), Some(2));
    assert_eq!(validate(&sarif_schema(), &sarif), Vec::<String>::new());
    // `--all` is a flag of the application comparison.
    let workspace = repo.path().to_string_lossy().into_owned();
    let output = place.client(&["diff", "--workspace", &workspace, "--all"]);
    assert_eq!(output.status.code(), Some(2));
}
