//! The text output against the reference's, fixture by fixture.

use super::*;
use serde_json::json;

/// Each fixture pair: the oracle's `--json` output and its text output.
const FIXTURES: &[(&str, &str, &str)] = &[
    (
        "sdk_tools",
        include_str!("../testdata/sdk_tools.json"),
        include_str!("../testdata/sdk_tools.txt"),
    ),
    (
        "partial_reach",
        include_str!("../testdata/partial_reach.json"),
        include_str!("../testdata/partial_reach.txt"),
    ),
    (
        "combined",
        include_str!("../testdata/combined.json"),
        include_str!("../testdata/combined.txt"),
    ),
    (
        "bidi_paths",
        include_str!("../testdata/bidi_paths.json"),
        include_str!("../testdata/bidi_paths.txt"),
    ),
    (
        "contract_2_10",
        include_str!("../testdata/contract_2_10.json"),
        include_str!("../testdata/contract_2_10.txt"),
    ),
];

#[test]
fn matches_oracle_text_byte_for_byte() {
    for (name, json_text, want) in FIXTURES {
        let doc: Value = serde_json::from_str(json_text).unwrap_or(Value::Null);
        assert_eq!(render_text(&doc), *want, "fixture {name}");
    }
}

#[test]
fn one_line_filter_escapes_controls_and_bidi() {
    assert_eq!(
        one_line("a\u{1b}b\u{202e}c\u{85}d\u{7f}e\u{2028}f\ng\u{61c}h\u{2066}i→é"),
        "a\\x1bb\\u202ec\\x85d\\x7fe\\u2028f\\x0ag\\u061ch\\u2066i→é"
    );
    assert_eq!(one_line("\u{a0}\u{200d}\u{2065}"), "\u{a0}\u{200d}\u{2065}");
}

#[test]
fn null_digest_and_line_print_as_none() {
    let definition = json!({"source": "app/a.py", "line": null, "implementation_sha256": null});
    assert_eq!(
        implementation_line(&definition),
        "implementation: app/a.py:None (None)"
    );
}

#[test]
fn empty_document_renders_without_panicking() {
    assert_eq!(
            render_text(&json!({})),
            "Application comparison: None (None → None)\n\
             No established binding/interface/implementation changes in the observed surface.\n\
             This comparison is advisory evidence and supplies no release verdict or merge permission.\n"
        );
    // Oddly typed values: still lines, never a panic.
    let odd = json!({"comparison_status": 3, "base": [], "rows": [{"before": 1, "uncertainty": []}],
                         "comparisons": "x", "scope_selection": {"mode": "derived", "scopes": "a"}});
    let text = render_text(&odd);
    assert!(
        text.starts_with("Application comparison: 3 (None → None)\nscope: none (derived: None)\n")
    );
}

#[test]
fn combined_with_no_comparisons() {
    let doc = json!({
        "comparison_status": "not_established",
        "base": {"compared_commit": "35a71d747c00aaaa"},
        "head": {"compared_commit": "4a975bfc9177bbbb"},
        "rows": [], "comparisons": [],
        "scope_selection": {"mode": "derived", "scopes": [], "reason": "The change touches no OpenAI Agents SDK or Google ADK agent: tools/lint.py is not an agent file, and is not imported by one or importing one within 6 hops.", "limits": []}
    });
    assert_eq!(
            render_text(&doc),
            "Application comparison: not_established (35a71d747c00 → 4a975bfc9177)\n\
             scope: none (derived: The change touches no OpenAI Agents SDK or Google ADK agent: tools/lint.py is not an agent file, and is not imported by one or importing one within 6 hops.)\n\
             The change touches no supported application agent; nothing was compared.\n\
             This comparison is advisory evidence and supplies no release verdict or merge permission.\n"
        );
}

#[test]
fn no_row_sentences_and_limits() {
    let doc = |status: &str| {
        json!({"comparison_status": status,
                   "base": {"compared_commit": "aaaaaaaaaaaaaaaa", "limits": ["Python discovery truncated at 1 files."],
                            "excluded_tests": ["t/test_a.py", "test_b.py", "c_test.py", "conftest.py", "tests.py", "test.py"]},
                   "head": {"compared_commit": "bbbbbbbbbbbbbbbb", "limits": ["x\ny"], "excluded_tests": ["test_b.py"]},
                   "rows": [], "scope_selection": {"mode": "explicit", "scopes": ["app"]}})
    };
    let tail = "  base limit: Python discovery truncated at 1 files.\n  head limit: x\\x0ay\n\
                    Test files not read as the application (6): c_test.py, conftest.py, t/test_a.py, test.py, test_b.py, and 1 more\n\
                    This comparison is advisory evidence and supplies no release verdict or merge permission.\n";
    let head = "Application comparison: ";
    assert_eq!(
            render_text(&doc("partial")),
            format!("{head}partial (aaaaaaaaaaaa → bbbbbbbbbbbb)\nIncomplete comparison; this is not a no-change result.\n{tail}")
        );
    assert_eq!(
            render_text(&doc("not_established")),
            format!("{head}not_established (aaaaaaaaaaaa → bbbbbbbbbbbb)\nNo supported application agents were established.\n{tail}")
        );
}

#[test]
fn handoff_and_uncertain_sides() {
    let row = json!({
        "agent": "triage", "tool": "handoff:agent.py:billing", "change": "not_established",
        "candidate_change": "removed",
        "uncertainty": {"head": ["OpenAI Agents SDK agent 'triage' at agent.py:23 uses a dynamic tools expression; its binding graph is incomplete."]},
        "before": {"agent": "triage", "agent_source": "bot/agent.py", "tool": "billing", "edge_type": "handoff",
                   "target_source": "bot/agent.py", "binding_location": "bot/agent.py:17", "evidence_basis": "ast_extraction"},
        "after": null,
        "why": "This candidate change cannot be established from the affected inputs; it is not a no-change result.",
        "review_question": "Resolve the named uncertainty before treating triage.handoff:agent.py:billing as removed."
    });
    let mut out = Out::default();
    row_block(&mut out, &row);
    assert_eq!(
            out.text,
            "NOT_ESTABLISHED  triage → handoff:agent.py:billing\n\
             \x20 before: billing at bot/agent.py:17\n\
             \x20 after: binding presence not established\n\
             \x20 This candidate change cannot be established from the affected inputs; it is not a no-change result.\n\
             \x20 head uncertainty: OpenAI Agents SDK agent 'triage' at agent.py:23 uses a dynamic tools expression; its binding graph is incomplete.\n\
             \x20 Review: Resolve the named uncertainty before treating triage.handoff:agent.py:billing as removed.\n"
        );
}

#[test]
fn also_listed_and_imported_lines() {
    let side = json!({
        "tool": "escalate", "signature": "escalate(ticket) -> str",
        "binding_location": "app/agent.py:17",
        "construction_sites": ["app/agent.py:17", "app/agent.py:19"],
        "definition": {"source": "svc/app/tools/weather.py", "line": 6, "implementation_sha256": "842e1fd437ca0000"},
        "import_path": [{"reference": "x", "steps": [
            {"path": "svc/app/agent.py", "line": 3, "binding": "import"},
            {"path": "svc/app/x.py", "line": null, "binding": "alias"},
            {"path": "svc/app/tools/weather.py", "line": 6, "binding": "definition"}]},
            {"reference": "y", "steps": [{"path": "svc/app/agent.py"}]}]
    });
    let mut out = Out::default();
    binding_lines(&mut out, "after", &side);
    assert_eq!(
        out.text,
        "  after: escalate(ticket) -> str at app/agent.py:17 (also listed at app/agent.py:19)\n\
             \x20   implementation: svc/app/tools/weather.py:6 (842e1fd437ca)\n\
             \x20   imported: svc/app/agent.py:3 → svc/app/tools/weather.py:6\n"
    );
}

#[test]
fn reach_group_credentials_and_limits() {
    let side = json!({
        "tool": "t", "binding_location": "a.py:1",
        "reach": {
            "calls": [
                {"method": null, "url": "{env HOOK_URL}", "at": "a.py:26", "via": [],
                 "fields": [{"field": "mode", "value": "fast"}, {"field": null, "computed": true},
                            {"field": "password", "from": ["password"]}],
                 "credential_sources": [{"auth": null, "env": ["PW", "USER"]},
                                        {"field": "password", "from": ["password"]},
                                        {"query": "key", "computed": true}],
                 "model_supplied": [{"param": "note", "into": "field note"}]},
                {"method": null, "url": "{env HOOK_URL}", "at": "a.py:30", "via": [],
                 "credential_sources": [{"auth": null, "env": ["PW", "USER"]}]},
                {"method": "POST", "url": "https://x/graphql", "graphql": "mutation", "at": "a.py:40",
                 "via": ["a.py:10 _post", "b.py:3 send"]}
            ],
            "limits": [{"at": "a.py:1", "why": "w1"}, {"at": "a.py:2", "why": "w2"},
                       {"at": "a.py:3", "why": "w3"}, {"at": "a.py:4", "why": "w4"}],
            "effect": "write", "effect_claims": [], "more_limits": 7
        },
        "effect_evidence": {"conservative_effect": "write", "status": "unknown", "claims": []}
    });
    let mut out = Out::default();
    binding_lines(&mut out, "after", &side);
    assert_eq!(
            out.text,
            "  after: t at a.py:1\n\
             \x20   reaches: an unread method {env HOOK_URL} at a.py:26, and 1 more call site\n\
             \x20     field mode = \"fast\"\n\
             \x20     model-supplied: note → field note\n\
             \x20     credential: env PW, env USER → auth\n\
             \x20     credential: a value made from model-supplied password → field password (at some call sites)\n\
             \x20     credential: a computed value → query key (at some call sites)\n\
             \x20   reaches: POST https://x/graphql (GraphQL mutation) at a.py:40 via a.py:10 _post → b.py:3 send\n\
             \x20   effect: write (provisional: unknown effect)\n\
             \x20   reach limit: a.py:1 w1\n\
             \x20   reach limit: a.py:2 w2\n\
             \x20   reach limit: a.py:3 w3\n\
             \x20   reach limit: and 8 more\n"
        );
}

#[test]
fn effect_line_is_omitted_without_calls_or_limits() {
    let side = json!({
        "tool": "t", "binding_location": "a.py:1",
        "reach": {"calls": [], "limits": [], "effect": null, "effect_claims": []},
        "effect_evidence": {"conservative_effect": "write", "status": "unknown", "claims": []}
    });
    let mut out = Out::default();
    binding_lines(&mut out, "before", &side);
    assert_eq!(out.text, "  before: t at a.py:1\n");
}

#[test]
fn effect_basis_variants() {
    let read = json!({"conservative_effect": "read", "status": "structural",
            "claims": [{"value": "read", "source": "source_http_call", "basis": "protocol_structure", "at": "a.py:5"}]});
    assert_eq!(
            effect_line(&read),
            "effect: read (structural evidence: every call was followed, and every outbound call reads)"
        );
    let destructive = json!({"conservative_effect": "destructive", "status": "structural",
            "claims": [{"value": "write", "source": "source_http_call", "at": "a.py:9"},
                       {"value": "destructive", "source": "source_http_call", "at": "a.py:23"}]});
    assert_eq!(
        effect_line(&destructive),
        "effect: destructive (structural evidence: outbound call at a.py:23)"
    );
    let declared = json!({"conservative_effect": "read", "status": "declared", "claims": []});
    assert_eq!(
        effect_line(&declared),
        "effect: read (reviewed declaration)"
    );
}

#[test]
fn field_values_print_like_python() {
    assert_eq!(
        field_line(
            &json!({"field": "mode", "values": ["active", "archive"], "decided_by": ["status"]})
        ),
        Some("field mode ∈ {active, archive}, decided by status".to_string())
    );
    assert_eq!(
        field_line(&json!({"field": "ratio", "value": 0.25})),
        Some("field ratio = 0.25".to_string())
    );
    assert_eq!(
        field_line(&json!({"field": "tiny", "value": 1e-7})),
        Some("field tiny = 1e-07".to_string())
    );
    assert_eq!(
        field_line(&json!({"field": "flag", "value": true})),
        Some("field flag = true".to_string())
    );
    assert_eq!(field_line(&json!({"field": "x", "literal": true})), None);
    assert_eq!(field_line(&json!({"field": null, "value": 1})), None);
}

/// A schema 0.4 document (it has `summary`): the findings-first layout.
fn findings_first_doc(base_limits: Value, head_limits: Value, scope_limits: Value) -> Value {
    json!({
        "comparison_status": "partial",
        "summary": {"counts": {"total": 0, "added": 0, "removed": 0, "changed": 0, "not_established": 0},
                    "findings": [], "effects": [], "causes": [], "not_read": []},
        "base": {"compared_commit": "aaaaaaaaaaaaaaaa", "limits": base_limits},
        "head": {"compared_commit": "bbbbbbbbbbbbbbbb", "limits": head_limits},
        "rows": [],
        "scope_selection": {"mode": "derived", "scopes": ["app"], "reason": "app: app/agent.py is an agent file", "limits": scope_limits}
    })
}

#[test]
fn each_limit_is_printed_once_in_the_findings_layout() {
    let doc = findings_first_doc(
        json!(["both sides", "base only", "said as a scope limit"]),
        json!(["head only", "both sides", "said as a scope limit"]),
        json!(["said as a scope limit"]),
    );
    let text = render_text(&doc);
    assert_eq!(
        text,
        "Application comparison: partial (aaaaaaaaaaaa → bbbbbbbbbbbb)\n\
         scope: app (derived: app: app/agent.py is an agent file)\n  \
         scope limit: said as a scope limit\n\
         Findings: 0 changed agents, 0 rows.\n\
         Detail:\n\
         Incomplete comparison; this is not a no-change result.\n  \
         base and head limit: both sides\n  \
         base limit: base only\n  \
         head limit: head only\n\
         This comparison is advisory evidence and supplies no release verdict or merge permission.\n"
    );
    // A 1.2.0 document (no summary) repeats them, as 1.2.0 did.
    let mut old = doc.clone();
    old.as_object_mut().map(|m| m.remove("summary"));
    let old_text = render_text(&old);
    assert_eq!(old_text.matches("both sides").count(), 2, "{old_text}");
    assert_eq!(
        old_text.matches("said as a scope limit").count(),
        3,
        "{old_text}"
    );
}

#[test]
fn limit_sentences_wrap_and_grammar_lines_do_not() {
    let long_limit = "OpenAI Agents SDK agent 'triage' at agent.py:43 uses a dynamic tools expression; its binding graph is incomplete, and what it binds is not read.";
    let mut doc = findings_first_doc(json!([]), json!([long_limit]), json!([]));
    let question = format!("Should support have this added binding to {}? Review the before/after signature and implementation locations.", "t".repeat(40));
    doc["rows"] = json!([{
        "agent": "support", "tool": "escalate", "change": "not_established", "candidate_change": "added",
        "uncertainty": {"head": [long_limit]}, "before": null, "after": null,
        "why": "This candidate change cannot be established from the affected inputs; it is not a no-change result.",
        "review_question": question
    }]);
    let text = render_text(&doc);
    for line in text.lines() {
        let grammar = line.starts_with("  Review: ") || line.starts_with("  This candidate");
        assert!(grammar || line.chars().count() <= 100, "{line:?}");
    }
    // The Review line stays whole, however long.
    assert!(text.contains(&format!("  Review: {question}\n")));
    assert!(text.contains(
        "  head uncertainty: OpenAI Agents SDK agent 'triage' at agent.py:43 uses a dynamic tools expression;\n      \
         its binding graph is incomplete, and what it binds is not read.\n"
    ), "{text}");
    assert!(text.contains(
        "  head limit: OpenAI Agents SDK agent 'triage' at agent.py:43 uses a dynamic tools expression; its\n      \
         binding graph is incomplete, and what it binds is not read.\n"
    ), "{text}");
    // The 1.2.0 layout keeps each on one line.
    doc.as_object_mut().map(|m| m.remove("summary"));
    assert!(render_text(&doc).contains(&format!("  head limit: {long_limit}\n")));
}
