//! The summary built from documents, fact by fact.

use super::*;

#[test]
fn places_are_found_and_blanked() {
    assert_eq!(
        place("OpenAI Agents SDK agent 'support' at agent.py:20 has a tools list"),
        Some("agent.py:20".to_string())
    );
    assert_eq!(
        place("Not read: a call (app/agent.py:4)."),
        Some("app/agent.py:4".to_string())
    );
    assert_eq!(
        place("Python input could not be parsed: broken.py"),
        Some("broken.py".into())
    );
    assert_eq!(place("no place here"), None);
    assert_eq!(
        pattern("agent 'a' at x.py:3 binds unresolved tool 'b'. Not resolved because it's `c`."),
        "agent '…' at <place> binds unresolved tool '…'. Not resolved because it's `…`."
    );
}

/// A limit is the finding's whose agent and file it names; in a
/// combined document its scope prefix roots the file.
#[test]
fn limits_are_keyed_by_agent_and_file() {
    let limit = |scope: &str, line: u32| {
        format!("{scope}: OpenAI Agents SDK agent 'agent' at a.py:{line} has a tools list it does not read; its binding graph is incomplete.")
    };
    let row = |source: &str| json!({"agent": "agent", "agent_source": source, "tool": "t", "change": "added", "candidate_change": null, "uncertainty": {}, "before": null, "after": {"agent_source": source}});
    let doc = json!({
        "rows": [row("app/a.py"), row("svc/a.py")],
        "base": {"scope": null, "scopes": ["app", "svc"], "limits": []},
        "head": {"scope": null, "scopes": ["app", "svc"], "limits": [limit("svc", 4), limit("lib", 9)]},
        "scope_selection": {"limits": []},
    });
    let summary = summary(&doc);
    assert_eq!(summary["findings"][0].get("agent_limits"), None);
    assert_eq!(summary["findings"][0]["first_unresolved"], Value::Null);
    assert_eq!(
        summary["findings"][1]["agent_limits"],
        json!({"count": 1, "sides": ["head"], "first": limit("svc", 4)})
    );
    // A scope the document does not list roots nothing: the file is
    // read as written, which no finding has.
    assert_eq!(
        summary["not_read"],
        json!([{"agent": "agent", "agent_source": "a.py", "count": 1, "sides": ["head"], "first": limit("lib", 9)}])
    );
    assert_eq!(
        agent_named("Google ADK agent 'x' has sub-agents that were not statically named."),
        Some(("x".to_string(), None))
    );
}

/// The summary of rows states what the rows state, by index.
#[test]
fn findings_name_their_rows() {
    let doc = json!({
        "rows": [
            {"agent": "support", "agent_source": "agent.py", "tool": "refund", "change": "added", "candidate_change": null, "uncertainty": {}, "before": null,
             "after": {"agent_source": "app/agent.py", "effect_evidence": {"conservative_effect": "write", "status": "unknown"}}},
            {"agent": "support", "agent_source": "agent.py", "tool": "lookup", "change": "not_established", "candidate_change": "removed",
             "uncertainty": {"head": ["OpenAI Agents SDK agent 'support' at agent.py:20 has a tools list it does not read."]},
             "before": {"agent_source": "app/agent.py"}, "after": null},
        ],
        "base": {"limits": []},
        "head": {"limits": ["OpenAI Agents SDK agent 'support' at agent.py:20 has a tools list it does not read.", "Python input could not be parsed: broken.py"]},
        "scope_selection": {"limits": []},
    });
    let summary = summary(&doc);
    assert_eq!(
        summary["counts"],
        json!({"total": 2, "added": 1, "removed": 0, "changed": 0, "not_established": 1})
    );
    let finding = &summary["findings"][0];
    assert_eq!(finding["agent_source"], "app/agent.py");
    assert_eq!(finding["rows"], json!([0, 1]));
    assert_eq!(finding["status"], "partial");
    assert_eq!(finding["first_unresolved"]["row"], 1);
    assert_eq!(finding["first_unresolved"]["at"], "agent.py:20");
    assert_eq!(finding["causes"], json!([0]));
    assert_eq!(
        summary["effects"],
        json!([{"effect": "write", "status": "unknown", "count": 1}])
    );
    assert_eq!(
        summary["not_read"],
        json!([{"agent": null, "count": 1, "sides": ["head"], "first": "Python input could not be parsed: broken.py"}])
    );
    assert_eq!(summary["causes"][0]["rows"], json!([1]));
    assert_eq!(
        summary["question"],
        "Resolve the named causes before treating the 1 candidate change as a change."
    );
    assert_eq!(finding["questions"][0]["rows"], json!([0]));
}
