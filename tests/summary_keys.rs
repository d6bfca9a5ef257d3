//! The summary speaks of the right agent (issue 17, item 10): findings,
//! `agent_limits` and `first_unresolved` are keyed by agent source and
//! name, so a limit on `examples/a.py`'s `agent` is never shown on
//! `examples/b.py`'s `agent`; the text names the file when two agents
//! share a name, in a diff and in history.

mod support;

use serde_json::{json, Value};
use support::schema::validate;
use support::{compare_branches, limits, row, rows, Place, Repo};

const SCHEMA: &str = include_str!("../docs/application-comparison-0.4.schema.json");

/// The document is valid against the published schema (`agent_source` on
/// a `not_read` group included).
fn assert_valid(doc: &Value) {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap_or(Value::Null);
    assert!(schema.is_object(), "the schema file is JSON");
    let errors = validate(&schema, doc);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// `examples/a.py`: `agent`, whose tools list is read only in part (the
/// result of `extra()` is not read).
const A: &str = "from agents import Agent, function_tool\nfrom helpers import extra\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\nagent = Agent(name=\"agent\", tools=[lookup, *extra()])\n";

const B_BASE: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef search(q: str) -> str:\n    return q\n\n\nagent = Agent(name=\"agent\", tools=[search])\n";

const B_HEAD: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef search(q: str) -> str:\n    return q\n\n\n@function_tool\ndef fetch(url: str) -> str:\n    return url\n\n\nagent = Agent(name=\"agent\", tools=[search, fetch])\n";

const HELPERS: &str = "def extra():\n    if FLAG:\n        return []\n    return []\n";

const A_LIMIT: &str = "OpenAI Agents SDK agent 'agent' at a.py:10 has a tools list it reads only in part; its binding graph is incomplete. Not read: a call to `extra`, which does not return once, unconditionally, as its last statement (a.py:10).";

fn finding<'d>(doc: &'d Value, source: &str) -> &'d Value {
    doc["summary"]["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["agent_source"] == source))
        .unwrap_or_else(|| panic!("no finding for {source}: {:#}", doc["summary"]))
}

#[test]
fn a_limit_of_one_file_is_not_shown_on_another_files_agent() {
    let (doc, text) = compare_branches(
        &[
            ("examples/a.py", A),
            ("examples/b.py", B_BASE),
            ("examples/helpers.py", HELPERS),
        ],
        &[("examples/b.py", B_HEAD)],
        "examples",
    );
    assert_valid(&doc);
    assert_eq!(rows(&doc), vec![row("agent", "fetch", "added")]);
    assert_eq!(limits(&doc, "head"), vec![A_LIMIT.to_string()]);
    let summary = &doc["summary"];
    assert_eq!(summary["findings"].as_array().map(Vec::len), Some(1));
    let b = finding(&doc, "examples/b.py");
    assert_eq!(b["agent"], "agent");
    assert_eq!(b["status"], "compared");
    assert_eq!(b["first_unresolved"], Value::Null);
    assert_eq!(b.get("agent_limits"), None);
    // a.py's limit is its own agent's, tied to no row.
    assert_eq!(
        summary["not_read"],
        json!([{"agent": "agent", "agent_source": "examples/a.py", "count": 1, "sides": ["base", "head"], "first": A_LIMIT}])
    );
    let opening: Vec<String> = unwrapped(
        text.lines()
            .skip_while(|l| !l.starts_with("Findings:"))
            .take_while(|l| !l.starts_with("Detail:")),
    );
    assert_eq!(
        opening,
        vec![
            "Findings: 1 changed agent, 1 row (1 added); effect evidence 1 write (provisional: unknown effect).".to_string(),
            "agent (examples/b.py) [compared]: +fetch (reach: none established)".to_string(),
            "  Review: Should agent be able to call fetch?".to_string(),
            format!("Also not read, and not tied to a row above: 1 limit on agent (examples/a.py); first: {A_LIMIT}"),
        ]
    );
}

/// Text lines with wrapped sentences joined back: a line indented four or
/// more spaces deeper than the line before it continues that line (the
/// text wraps limit sentences at 100 columns).
fn unwrapped<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<String> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out: Vec<String> = Vec::new();
    for line in lines {
        match out.last_mut() {
            Some(last) if indent(line) >= indent(last) + 4 => {
                last.push(' ');
                last.push_str(line.trim_start());
            }
            _ => out.push(line.to_string()),
        }
    }
    out
}

/// `A` with `fetch` added to its list.
fn a_head() -> String {
    A.replace(
        "tools=[lookup, *extra()]",
        "tools=[lookup, fetch, *extra()]",
    )
    .replace(
        "\n\nagent = ",
        "\n\n@function_tool\ndef fetch(url: str) -> str:\n    return url\n\n\nagent = ",
    )
}

#[test]
fn each_of_two_same_named_agents_keeps_its_own_limit() {
    // Both files change: a.py's agent (limited) gains `fetch` as b.py's
    // does.
    let (doc, text) = compare_branches(
        &[
            ("examples/a.py", A),
            ("examples/b.py", B_BASE),
            ("examples/helpers.py", HELPERS),
        ],
        &[("examples/a.py", &a_head()), ("examples/b.py", B_HEAD)],
        "examples",
    );
    assert_valid(&doc);
    let a_head_limit = A_LIMIT.replace("a.py:10", "a.py:15");
    assert_eq!(
        rows(&doc),
        vec![
            row("agent", "fetch", "not_established"),
            row("agent", "fetch", "added")
        ]
    );
    let a = finding(&doc, "examples/a.py");
    assert_eq!(a["rows"], json!([0]));
    assert_eq!(a["status"], "partial");
    assert_eq!(
        a["first_unresolved"],
        json!({"kind": "binding", "text": A_LIMIT, "at": "a.py:10", "row": 0})
    );
    assert_eq!(
        a["agent_limits"],
        json!({"count": 1, "sides": ["head"], "first": a_head_limit})
    );
    let b = finding(&doc, "examples/b.py");
    assert_eq!(b["rows"], json!([1]));
    assert_eq!(b["status"], "compared");
    assert_eq!(b["first_unresolved"], Value::Null);
    assert_eq!(b.get("agent_limits"), None);
    assert_eq!(doc["summary"]["not_read"], json!([]));
    let opening: Vec<String> = unwrapped(
        text.lines()
            .skip_while(|l| !l.starts_with("Findings:"))
            .take_while(|l| !l.starts_with("Not established:")),
    );
    assert_eq!(
        opening,
        vec![
            "Findings: 2 changed agents, 2 rows (1 added, 1 not established); effect evidence 1 write (provisional: unknown effect).".to_string(),
            "agent (examples/a.py) [partial]: ?+fetch (not read beyond a.py:10)".to_string(),
            format!("  ?+fetch (candidate, not established): first unread: a.py:10 {A_LIMIT}"),
            format!("  this agent's binding graph is also incomplete: {a_head_limit}"),
            "agent (examples/b.py) [compared]: +fetch (reach: none established)".to_string(),
            "  Review: Should agent be able to call fetch?".to_string(),
        ]
    );
}

/// History names the file when two agents of one commit share a name, and
/// only then.
#[test]
fn history_names_the_file_of_agents_that_share_a_name() {
    let repo = Repo::new();
    repo.commit(
        &[
            ("examples/a.py", Some(B_BASE)),
            ("examples/b.py", Some(B_BASE)),
        ],
        "start",
    );
    repo.commit(
        &[
            ("examples/a.py", Some(B_HEAD)),
            ("examples/b.py", Some(B_HEAD)),
        ],
        "add fetch to both",
    );
    let renamed = B_HEAD
        .replace("def fetch(", "def fetch_page(")
        .replace(", fetch]", ", fetch_page]");
    repo.commit(&[("examples/b.py", Some(&renamed))], "rename b's tool");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let workspace = repo.path().to_string_lossy().into_owned();
    let output = place.client(&["history", "--workspace", &workspace, "--scope", "examples"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(
        lines,
        vec![
            "  REMOVED  agent → fetch",
            "  ADDED  agent → fetch_page",
            "  ADDED  agent (examples/a.py) → fetch",
            "  ADDED  agent (examples/b.py) → fetch",
            "  ADDED  agent (examples/a.py) → search",
            "  ADDED  agent (examples/b.py) → search",
        ],
        "{text}"
    );
}
