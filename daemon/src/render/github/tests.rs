//! Annotation commands: their escaping, and one command a row.

use super::*;
use serde_json::json;

#[test]
fn data_and_properties_are_escaped_as_the_runner_reads_them() {
    let raw = "100% done\r\nnext: a, b";
    assert_eq!(escape_data(raw), "100%25 done%0D%0Anext: a, b");
    assert_eq!(escape_property(raw), "100%25 done%0D%0Anext%3A a%2C b");
    // `%` first: an escape already spelled in the input stays literal.
    assert_eq!(escape_data("%0A"), "%250A");
    assert_eq!(escape_property("::,"), "%3A%3A%2C");
}

fn row(
    agent: &str,
    tool: &str,
    change: &str,
    after_at: Option<&str>,
    before_at: Option<&str>,
) -> Value {
    let side = |at: Option<&str>| match at {
        Some(at) => {
            json!({"agent_source": "app/agent.py", "binding_location": at, "edge_type": "direct_tool"})
        }
        None => Value::Null,
    };
    json!({
        "agent": agent, "agent_source": "agent.py", "tool": tool, "change": change,
        "candidate_change": if change == "not_established" { json!("added") } else { Value::Null },
        "uncertainty": if change == "not_established" { json!({"head": ["reading stopped: 50% of it, a, b"]}) } else { json!({}) },
        "before": side(before_at), "after": side(after_at),
        "why": "The source now binds this callable to this agent.",
        "review_question": "Should it?"
    })
}

#[test]
fn one_command_a_located_row_and_a_closing_notice() {
    let doc = json!({
        "comparison_status": "partial",
        "rows": [
            row("sup,port", "refund:all\nnow", "added", Some("app/agent.py:24"), None),
            row("support", "lookup", "removed", None, Some("app/agent.py:9")),
            row("triage", "escalate", "not_established", Some("app/agent.py:30"), None),
            {"agent": "x", "tool": "y", "change": "not_established", "before": null, "after": null, "why": "w"}
        ]
    });
    let out = render_annotations(&doc);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines.iter().all(|l| l.starts_with("::")), "{out}");
    assert_eq!(
        lines[0],
        "::warning file=app/agent.py,line=24,title=shipgate%3A sup%2Cport → refund%3Aall\\x0anow (added)::The source now binds this callable to this agent.%0AReview: Should it?"
    );
    // A removed binding's line is the base's: the file only, the line said.
    assert_eq!(
        lines[1],
        "::notice file=app/agent.py,title=shipgate%3A support → lookup (removed)::The source now binds this callable to this agent. It was bound at line 9 of this file in the base commit.%0AReview: Should it?"
    );
    assert!(lines[2].starts_with("::notice file=app/agent.py,line=30,title=shipgate%3A triage → escalate (not established%2C candidate added)::reading stopped: 50%25 of it, a, b%0A"), "{}", lines[2]);
    assert_eq!(
        lines[3],
        "::notice title=shipgate partial::Application comparison: partial 1 row has no source location and is not annotated.%0A`--format text` or `--json` has every row, limit and reason."
    );
}

#[test]
fn the_closing_notice_reads_the_findings_headline() {
    let doc = json!({
        "comparison_status": "compared",
        "summary": {"counts": {"total": 0, "added": 0, "removed": 0, "changed": 0, "not_established": 0},
                    "findings": [], "effects": [], "causes": [], "not_read": []},
        "rows": []
    });
    assert_eq!(
        render_annotations(&doc),
        "::notice title=shipgate compared::Findings: 0 changed agents, 0 rows.%0A`--format text` or `--json` has every row, limit and reason.\n"
    );
}
