//! End to end: the SDK's `handoff()` (issue 18, item 3). `handoffs=[
//! handoff(billing, …)]` is a handoff to `billing` (keyword `agent=` too)
//! when `handoff` is the SDK's import; its options are part of what the
//! handoff is, so a change to one is a `changed` row whose why names it.
//! A target that is not an identified agent stays a limit.
//!
//! The reference (1.2.0) names any call in `handoffs=` as a dynamic
//! expression and reads none of it; the spec reads handoffs to identified
//! agents, and this reads the SDK's own handoff constructor as one.

mod support;

use serde_json::{json, Value};
use support::{compare_branches, row, rows};

fn agents(handoffs: &str) -> String {
    format!(
        r#"from agents import Agent, handoff
from agents.extensions import handoff_filters


def log_handoff(ctx):
    print("handing off")


def audit_handoff(ctx):
    print("audited", ctx)


billing = Agent(name="billing")
triage = Agent(name="triage", handoffs=[{handoffs}])
"#
    )
}

fn compare(base: &str, head: &str) -> Value {
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", base)],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

#[test]
fn a_handoff_call_is_a_handoff_to_its_agent() {
    for member in [
        "handoff(billing)",
        "handoff(agent=billing, tool_name_override=\"to_billing\")",
        "handoff(billing, on_handoff=log_handoff, input_filter=handoff_filters.remove_all_tools)",
    ] {
        let doc = compare(&agents(""), &agents(member));
        assert_eq!(doc["comparison_status"], "compared", "{member}");
        assert_eq!(
            rows(&doc),
            vec![row("triage", "handoff:agent.py:billing", "added")],
            "{member}"
        );
    }
    let doc = compare(
        &agents(""),
        &agents("handoff(billing, on_handoff=log_handoff, input_filter=handoff_filters.remove_all_tools, tool_name_override=\"to_billing\")"),
    );
    let options = &doc["rows"][0]["after"]["handoff_options"];
    assert_eq!(options["tool_name_override"], "'to_billing'");
    assert_eq!(
        options["input_filter"],
        "agents.extensions.handoff_filters.remove_all_tools"
    );
    assert!(
        options["on_handoff"]
            .as_str()
            .is_some_and(|v| v.starts_with("agent.py:log_handoff ")),
        "{options}"
    );
}

/// A change to an option is a `changed` row naming it; the same options
/// spelled the same are no row, and a plain reference that becomes a
/// `handoff()` of the same agent with no options is no change.
#[test]
fn a_changed_option_is_a_changed_row_naming_it() {
    let doc = compare(
        &agents("handoff(billing, tool_name_override=\"to_billing\")"),
        &agents("handoff(billing, tool_name_override=\"billing_desk\")"),
    );
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:billing", "changed")]
    );
    assert_eq!(
        doc["rows"][0]["why"],
        "The handoff's options changed (tool_name_override 'to_billing' → 'billing_desk'); authority direction is not established."
    );
    let doc = compare(
        &agents("handoff(billing, on_handoff=log_handoff)"),
        &agents("handoff(billing, on_handoff=audit_handoff)"),
    );
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:billing", "changed")]
    );
    let doc = compare(&agents("billing"), &agents("handoff(billing)"));
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(doc["comparison_status"], "compared");
}

/// A target that is not an identified agent stays a limit; an option not
/// read keeps the handoff's addition established and names the option;
/// a `handoff` that is not the SDK's is a dynamic member.
#[test]
fn unread_targets_and_options_are_named() {
    let base = agents("");
    let head = agents("handoff(make_agent())").replace(
        "billing = Agent",
        "def make_agent():\n    return Agent(name=\"x\")\n\n\nbilling = Agent",
    );
    let doc = compare(&base, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        support::limits(&doc, "head")
            .iter()
            .any(|l| l.contains("uses a dynamic handoffs expression")),
        "{:#?}",
        support::limits(&doc, "head")
    );

    // `input_type` is read (a builtin or a class by its code); one read
    // through a subscript is not.
    let doc = compare(&base, &agents("handoff(billing, input_type=dict)"));
    assert_eq!(doc["comparison_status"], "compared");
    let doc = compare(&base, &agents("handoff(billing, input_type=SCHEMAS[0])"));
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:billing", "added")]
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        support::limits(&doc, "head"),
        vec!["OpenAI Agents SDK agent 'triage' at agent.py:14 hands off to 'billing' through handoff(), whose input_type is not read (SCHEMAS[0]); a change to it is not established.".to_string()]
    );
    let gap = &doc["head"]["coverage_gaps"][0];
    assert_eq!(gap["affects"], "implementation");
    assert_eq!(gap["tool"], "handoff:agent.py:billing");

    let not_sdk = agents("handoff(billing)").replace(
        "from agents import Agent, handoff",
        "from agents import Agent\nfrom .routing import handoff",
    );
    let doc = compare(&base, &not_sdk);
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(json!(support::limits(&doc, "head").len()), json!(1));
}
