//! The comment's layout, its size bound and its escaping.

use super::*;
use serde_json::json;

fn row(index: usize, agent: &str, tool: &str, change: &str) -> Value {
    json!({
        "agent": agent, "agent_source": "agent.py", "tool": tool, "change": change,
        "candidate_change": if change == "not_established" { json!("removed") } else { Value::Null },
        "uncertainty": if change == "not_established" { json!({"head": ["the list is not read", "another"]}) } else { json!({}) },
        "before": null,
        "after": {"agent_source": "app/agent.py", "binding_location": format!("app/agent.py:{}", index + 1), "edge_type": "direct_tool"},
        "why": "The source now binds this callable to this agent.",
        "review_question": "Should it?"
    })
}

fn doc_with(rows: Vec<Value>) -> Value {
    json!({
        "comparison_status": "compared",
        "base": {"compared_commit": "aaaaaaaaaaaaaaaa", "limits": ["shared limit", "base limit"]},
        "head": {"compared_commit": "bbbbbbbbbbbbbbbb", "limits": ["shared limit"]},
        "rows": rows,
        "limits": ["Covers x.", "Not y.", "Advisory."],
        "scope_selection": {"mode": "explicit", "scopes": ["app"], "reason": "Selected with --scope."}
    })
}

/// `|` that are cell separators: not escaped by a backslash.
fn bare_pipes(line: &str) -> usize {
    let mut count = 0;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '|' => count += 1,
            _ => {}
        }
    }
    count
}

#[test]
fn findings_first_then_rows_then_each_limit_once() {
    let out = render_markdown(&doc_with(vec![row(0, "support", "refund", "added")]));
    assert!(out.starts_with("### Agent capability changes: compared\n\naaaaaaaaaaaa → bbbbbbbbbbbb · scope app (Selected with \\-\\-scope\\.)\n\n"), "{out}");
    let details = out.find("<details>").unwrap_or(usize::MAX);
    let limits = out.find("**Limits**").unwrap_or(0);
    assert!(details < limits, "{out}");
    assert_eq!(out.matches("shared limit").count(), 1, "{out}");
    assert!(
        out.contains("- base and head: shared limit\n- base: base limit\n"),
        "{out}"
    );
    assert!(out.contains("<summary>Rows (1)</summary>"), "{out}");
    assert!(out.contains("| 0 | support (`app/agent.py`) | tool | `refund` at `app/agent.py:1` | added | The source now binds this callable to this agent\\. |"), "{out}");
    assert!(
        out.ends_with("<sub>Covers x\\. Not y\\. Advisory\\.</sub>\n"),
        "{out}"
    );
}

#[test]
fn an_uncertain_row_shows_its_candidate_and_first_reason() {
    let out = render_markdown(&doc_with(vec![row(
        0,
        "triage",
        "escalate",
        "not_established",
    )]));
    assert!(
        out.contains(
            "| not established (candidate: removed) | the list is not read (and 1 more) |"
        ),
        "{out}"
    );
}

#[test]
fn no_rows_say_why() {
    let mut doc = doc_with(vec![]);
    doc["comparison_status"] = json!("partial");
    let out = render_markdown(&doc);
    assert!(!out.contains("<details>"));
    assert!(
        out.contains("Incomplete comparison\\; this is not a no\\-change result\\.\n"),
        "{out}"
    );
}

#[test]
fn rows_stop_before_the_comment_limit_and_the_rest_are_counted() {
    let rows: Vec<Value> = (0..3000)
        .map(|i| {
            row(
                i,
                &format!("agent_{i}"),
                &format!("tool_with_a_long_name_{i}"),
                "added",
            )
        })
        .collect();
    let out = render_markdown(&doc_with(rows));
    assert!(out.encode_utf16().count() <= COMMENT_LIMIT);
    // Every table line but the header and its separator is a row.
    let shown = out.lines().filter(|l| l.starts_with("| ")).count() - 2;
    assert!(shown > 100, "{shown}");
    let left_out = 3000 - shown;
    assert!(
        out.contains(&format!(
            "<summary>Rows ({shown} of 3000; {left_out} left out)</summary>"
        )),
        "{shown}"
    );
    assert!(out.contains(&format!(
        "{left_out} rows are left out to keep this comment under GitHub's 65536 characters"
    )));
    // The limits and the advisory close still made it.
    assert!(out.contains("- base and head: shared limit"));
    assert!(out.ends_with("</sub>\n"));
    // Near the limit: one more row would not have fitted.
    assert!(
        out.chars().count() > COMMENT_LIMIT - 2 * FRAME_RESERVE - 200,
        "{}",
        out.chars().count()
    );
}

#[test]
fn the_limit_holds_for_characters_outside_the_basic_plane() {
    // Each emoji is one character but two UTF-16 units.
    let rows: Vec<Value> = (0..2000)
        .map(|i| row(i, &"🤖".repeat(100), &format!("tool_{i}"), "added"))
        .collect();
    let out = render_markdown(&doc_with(rows));
    assert!(out.encode_utf16().count() <= COMMENT_LIMIT);
    assert!(out.contains(" left out)</summary>"));
}

#[test]
fn long_findings_and_limits_are_bounded_too() {
    let limits: Vec<String> = (0..500)
        .map(|i| format!("limit {i} {}", "x".repeat(900)))
        .collect();
    let mut doc = doc_with(vec![row(0, "a", "b", "added")]);
    doc["head"]["limits"] = json!(limits);
    let out = render_markdown(&doc);
    assert!(out.encode_utf16().count() <= COMMENT_LIMIT);
    assert!(out.contains("more, in `--json`."), "{}", &out[..2000]);
    assert!(out.contains("<summary>Rows (1)</summary>"));
}

#[test]
fn a_hostile_repository_cannot_inject_markup() {
    let hostile_agent = "</details>\n\n# Owned <script>alert(1)</script> @octocat";
    let hostile_tool = "a|b`c``|";
    let mut bad = row(0, hostile_agent, hostile_tool, "not_established");
    bad["uncertainty"] = json!({"base": ["</summary></details><img src=x onerror=alert(1)> [link](https://evil.example) **bold** :smile:\r\n| x |"]});
    bad["after"]["binding_location"] = json!("evil`|</details>.py:3");
    let mut doc = doc_with(vec![bad]);
    doc["head"]["limits"] = json!(["</details> @everyone"]);
    doc["scope_selection"] =
        json!({"mode": "derived", "scopes": ["<b>app</b>"], "reason": "# x\n</details>"});
    doc["summary"] = json!({"counts": {"total": 1, "added": 0, "removed": 0, "changed": 0, "not_established": 1},
        "findings": [{"agent": hostile_agent, "agent_source": "agent.py", "status": "partial", "rows": [0],
                      "tools": [{"row": 0, "tool": hostile_tool, "change": "not_established", "candidate_change": "removed", "facts": []}],
                      "questions": [{"question": "</details> <!-- @octocat", "rows": [0]}]}],
        "effects": [], "causes": [], "not_read": []});
    let out = render_markdown(&doc);
    // Exactly the one `<details>` block we opened, closed once.
    assert_eq!(out.matches("<details>").count(), 1, "{out}");
    assert_eq!(out.matches("</details>").count(), 1, "{out}");
    assert_eq!(out.matches("<summary>").count(), 1, "{out}");
    assert_eq!(out.matches("</summary>").count(), 1, "{out}");
    for forbidden in [
        "<script",
        "<img",
        "<b>",
        "<!--",
        "@octocat",
        "@everyone",
        "](",
        "**bold",
        ":smile:",
    ] {
        assert!(!out.contains(forbidden), "{forbidden} in {out}");
    }
    // No repository text starts a line: every line is one we began.
    for line in out.lines() {
        let ours = line.is_empty()
            || [
                "### ",
                "aaaa",
                "**",
                "- ",
                "  - ",
                "<details>",
                "<summary>",
                "| ",
                "</details>",
                "<sub>",
            ]
            .iter()
            .any(|p| line.starts_with(p));
        assert!(ours, "a line we did not begin: {line:?}");
    }
    // The header, its separator and the row keep their six cells each.
    let table_rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(table_rows.len(), 3, "{out}");
    for line in table_rows {
        assert_eq!(bare_pipes(line), 7, "{line}");
    }
}
