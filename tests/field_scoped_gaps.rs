//! End to end: a limit on one capability field of an agent hides only what
//! that field can list (issue 18, item 1). A function tool can only be in
//! `tools=`, an SDK handoff only in `handoffs=`, an ADK sub-agent only in
//! `sub_agents=`; so a gap on `handoffs` leaves the agent's tool rows
//! established and a gap on `tools` its handoff and sub-agent rows. The
//! gap stays agent-wide wherever two fields can share one list object.
//! The agent is still incomplete (`partial`) either way.
//!
//! The reference (1.2.0) makes every such limit agent-wide, so it answers
//! these rows `not_established`; the spec allows more where it is sound,
//! and the rule is written in ARCHITECTURE.md ("Field-scoped gaps").

mod support;

use serde_json::{json, Value};
use support::{compare_branches, row, rows};

fn compare(base: &str, head: &str) -> Value {
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", base)],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

fn gap_fields(doc: &Value, side: &str) -> Vec<Value> {
    doc[side]["coverage_gaps"]
        .as_array()
        .expect("gaps")
        .iter()
        .map(|g| g.get("field").cloned().unwrap_or(Value::Null))
        .collect()
}

const SDK_BASE: &str = r#"from agents import Agent, function_tool


@function_tool
def lookup(q: str) -> str:
    return q


@function_tool
def refund(order: str) -> str:
    return order


billing = Agent(name="billing")
triage = Agent(name="triage", tools=[lookup], handoffs=[billing])


def wire():
    triage.handoffs.append(billing)
"#;

/// A `handoffs` list changed after construction on both sides (in a
/// function, so not a rewire read as a binding): the added tool is still
/// an established `added` row, with the gap confined to `handoffs`.
#[test]
fn a_handoffs_change_leaves_the_tool_rows_established() {
    let head = SDK_BASE.replace("tools=[lookup]", "tools=[lookup, refund]");
    let doc = compare(SDK_BASE, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![row("triage", "refund", "added")]);
    assert_eq!(doc["rows"][0]["uncertainty"], json!({}));
    assert_eq!(gap_fields(&doc, "base"), vec![json!("handoffs")]);
    assert_eq!(gap_fields(&doc, "head"), vec![json!("handoffs")]);
    // A handoff removed beside that change is not established.
    let head = SDK_BASE.replace("handoffs=[billing]", "handoffs=[]");
    let doc = compare(SDK_BASE, &head);
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:billing", "not_established")]
    );
}

/// A `tools` list the reader cannot read leaves the handoff rows
/// established; the tool rows it could hide are not.
#[test]
fn an_unread_tools_list_leaves_the_handoff_rows_established() {
    let base = r#"from agents import Agent

from .registry import load_tools

billing = Agent(name="billing")
refunds = Agent(name="refunds")
triage = Agent(name="triage", tools=load_tools(), handoffs=[billing])
"#;
    let head = base.replace("handoffs=[billing]", "handoffs=[billing, refunds]");
    let doc = compare(base, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:refunds", "added")]
    );
    assert_eq!(gap_fields(&doc, "head"), vec![json!("tools")]);
}

/// Where two fields can share one list object the gap stays agent-wide:
/// the same name given to two fields, `**` spread into the construction,
/// and a field rebound after construction (`a.handoffs = a.tools` makes
/// the two one list).
#[test]
fn fields_that_can_share_a_list_keep_the_gap_agent_wide() {
    let shared_base = r#"from agents import Agent, function_tool


@function_tool
def lookup(q: str) -> str:
    return q


@function_tool
def refund(order: str) -> str:
    return order


CAPS = [lookup]
triage = Agent(name="triage", tools=CAPS, handoffs=CAPS)
triage.handoffs.append(lookup)
"#;
    let shared_head = shared_base.replace("CAPS = [lookup]", "CAPS = [lookup, refund]");
    let doc = compare(shared_base, &shared_head);
    assert!(
        rows(&doc).iter().all(|r| r.2 == "not_established"),
        "{:?}",
        rows(&doc)
    );
    assert!(gap_fields(&doc, "head").iter().all(Value::is_null));

    let spread = SDK_BASE.replace(
        "handoffs=[billing])",
        "handoffs=[billing], **OPTIONS)\nOPTIONS = {}",
    );
    let doc = compare(
        &spread,
        &spread.replace("tools=[lookup]", "tools=[lookup, refund]"),
    );
    assert_eq!(rows(&doc), vec![row("triage", "refund", "not_established")]);

    let rebound = SDK_BASE.replace(
        "def wire():\n    triage.handoffs.append(billing)",
        "triage.handoffs = triage.tools",
    );
    let doc = compare(
        &rebound,
        &rebound.replace("tools=[lookup]", "tools=[lookup, refund]"),
    );
    assert_eq!(rows(&doc), vec![row("triage", "refund", "not_established")]);
    assert!(gap_fields(&doc, "head").iter().all(Value::is_null));
}

/// ADK: an unreadable `sub_agents` member leaves a tool change
/// established, and an unresolved tool leaves a sub-agent change
/// established.
#[test]
fn adk_sub_agents_and_tools_gaps_stay_in_their_field() {
    let base = r#"from google.adk.agents import Agent

from .crew import make_crew


def lookup(q: str) -> str:
    return q


def refund(order: str) -> str:
    return order


billing = Agent(name="billing", model="gemini-2.0-flash")
root_agent = Agent(
    name="root",
    model="gemini-2.0-flash",
    tools=[lookup],
    sub_agents=[billing, make_crew()],
)
"#;
    let head = base.replace("tools=[lookup]", "tools=[lookup, refund]");
    let doc = compare(base, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![row("root", "refund", "added")]);
    assert_eq!(gap_fields(&doc, "head"), vec![json!("sub_agents")]);

    let base = r#"from google.adk.agents import Agent

from .vendor import TOOLS


billing = Agent(name="billing", model="gemini-2.0-flash")
support = Agent(name="support", model="gemini-2.0-flash")
root_agent = Agent(
    name="root",
    model="gemini-2.0-flash",
    tools=[TOOLS.pick()],
    sub_agents=[billing],
)
"#;
    let head = base.replace("sub_agents=[billing]", "sub_agents=[billing, support]");
    let doc = compare(base, &head);
    assert_eq!(
        rows(&doc),
        vec![row("root", "handoff:agent.py:support", "added")]
    );
}

/// An unresolved handoff leaves a tool removal established.
#[test]
fn an_unresolved_handoff_leaves_a_tool_removal_established() {
    let base = r#"from agents import Agent, function_tool

from .desk import helpdesk


@function_tool
def lookup(q: str) -> str:
    return q


@function_tool
def refund(order: str) -> str:
    return order


triage = Agent(name="triage", tools=[lookup, refund], handoffs=[helpdesk()])
"#;
    let head = base.replace("tools=[lookup, refund]", "tools=[lookup]");
    let doc = compare(base, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![row("triage", "refund", "removed")]);
    assert_eq!(gap_fields(&doc, "head"), vec![json!("handoffs")]);
}
