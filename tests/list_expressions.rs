//! End to end: capability lists built by expressions (issue 6, in part):
//! `*` spreads, `a + b`, `list()`/`tuple()`, and names bound once to one of
//! those in the builder or the module, read member by member. The
//! reference (1.2.0) calls any of these "a dynamic tools expression" and
//! answers `partial` with every affected row `not_established`; we follow
//! the spec ("Tools lists built by an expression").

mod support;

use serde_json::Value;
use support::{compare_branches, limits, row, rows};

const TOOLS: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n@function_tool\ndef refund(q: str) -> str:\n    return q\n\n\n@function_tool\ndef cancel(q: str) -> str:\n    return q\n\n\n";

fn compare(base_body: &str, head_body: &str) -> Value {
    let base = format!("{TOOLS}{base_body}");
    let head = format!("{TOOLS}{head_body}");
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &base)],
        &[("app/agent.py", &head)],
        "app",
    )
    .0
}

const BASE: &str = "support = Agent(name=\"support\", tools=[lookup])\n";

#[test]
fn spreads_and_sums_of_lists_bound_once_are_read_member_by_member() {
    for head in [
        "BASE = [lookup]\nsupport = Agent(name=\"support\", tools=[*BASE, refund])\n",
        "BASE = [lookup]\nsupport = Agent(name=\"support\", tools=BASE + [refund])\n",
        "BASE = (lookup,)\nEXTRA = [refund]\nALL = [*BASE, *EXTRA]\nsupport = Agent(name=\"support\", tools=list(ALL))\n",
        "def build():\n    base = [lookup]\n    return Agent(name=\"support\", tools=[*base, refund])\n\n\nsupport = build()\n",
    ] {
        let doc = compare(BASE, head);
        assert_eq!(
            rows(&doc),
            vec![row("support", "refund", "added")],
            "{head}"
        );
        if !head.contains("build()") {
            assert_eq!(doc["comparison_status"], "compared", "{head}");
        }
    }
}

#[test]
fn a_list_something_could_change_stays_a_named_limit() {
    // A module's list that a list method changes is not read: whatever it
    // holds when the agent is used is not established.
    let head = "BASE = [lookup]\n\n\ndef more():\n    BASE.append(cancel)\n\n\nsupport = Agent(name=\"support\", tools=[*BASE, refund])\n";
    let doc = compare(BASE, head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["OpenAI Agents SDK agent 'support' at agent.py:26 has a tools list it reads only in part; its binding graph is incomplete. Not read: `BASE`, which agent.py uses other than as an agent's list, so it could change (agent.py:26)."]
    );
    // refund is read and added; lookup, which the unread part may hold, is
    // not called removed.
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "lookup", "not_established"),
            row("support", "refund", "added")
        ]
    );
}

#[test]
fn handoffs_built_by_a_sum_are_read() {
    let base =
        "billing = Agent(name=\"billing\")\ntriage = Agent(name=\"triage\", handoffs=[billing])\n";
    let head = "billing = Agent(name=\"billing\")\nrefunds = Agent(name=\"refunds\")\nTEAM = [billing]\ntriage = Agent(name=\"triage\", handoffs=TEAM + [refunds])\n";
    let doc = compare(base, head);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:refunds", "added")]
    );
}

/// Spec: a member held only under a condition carries it as `bound_when`
/// (its source text, never evaluated); a condition change alone is a
/// `changed` row naming both conditions.
#[test]
fn conditional_members_carry_bound_when() {
    let build = |condition: &str| {
        format!(
            "FINANCE = [lookup]\n\n\ndef build(want_handoff, strict):\n    return Agent(name=\"finance\", tools=[*FINANCE, *([refund] if {condition} else [])])\n\n\nfinance = build(True, False)\n"
        )
    };
    let base = "def build(want_handoff, strict):\n    return Agent(name=\"finance\", tools=[lookup])\n\n\nfinance = build(True, False)\n";
    let doc = compare(base, &build("want_handoff"));
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("finance", "refund", "added")]);
    assert_eq!(
        doc["rows"][0]["after"]["bound_when"],
        serde_json::json!(["`want_handoff`"])
    );
    let (_, text) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", &format!("{TOOLS}{base}")),
        ],
        &[("app/agent.py", &format!("{TOOLS}{}", build("want_handoff")))],
        "app",
    );
    assert!(
        text.contains("    bound only when `want_handoff`\n"),
        "{text}"
    );
    // Only the condition changed.
    // Issue 39, item 2: read as written, never evaluated, so whether the
    // agent now holds it is not established (never `changed`).
    let doc = compare(&build("want_handoff"), &build("strict"));
    assert_eq!(
        rows(&doc),
        vec![row("finance", "refund", "not_established")]
    );
    assert_eq!(doc["rows"][0]["candidate_change"], "changed");
    assert_eq!(
        doc["rows"][0]["uncertainty"]["head"],
        serde_json::json!(["only when `want_handoff` → only when `strict`: the condition under which 'finance' binds 'refund' is read as written, not evaluated; whether it now holds it more or less often is not established."])
    );
    // `a or b` of lists whose members are known is read, not guessed.
    let or =
        "EXTRA = []\nfinance = Agent(name=\"finance\", tools=[lookup] + (EXTRA or [refund]))\n";
    let doc = compare("finance = Agent(name=\"finance\", tools=[lookup])\n", or);
    assert_eq!(rows(&doc), vec![row("finance", "refund", "added")]);
    assert!(doc["rows"][0]["after"].get("bound_when").is_none());
}

/// Spec: a list built in the builder by `append`/`extend`/`insert`/`+=`
/// before the construction is read member by member. The spec names an
/// addition under a condition on the agent, never read as bound; issue 40
/// (item 11) reads one under `if` tests alone as bound when they hold,
/// exactly as the spec reads `[*([refund] if strict else [])]` (sound:
/// the member is in the list exactly when the tests held), so it is an
/// `added` row with `bound_when`. One in a loop stays named
/// (`tests/built_agents.rs` holds the other edges).
#[test]
fn additions_before_the_construction_are_read() {
    let head = "def build(strict):\n    tools = [lookup]\n    tools.append(refund)\n    tools += [cancel]\n    return Agent(name=\"support\", tools=tools)\n\n\nsupport = build(True)\n";
    let base = "def build(strict):\n    return Agent(name=\"support\", tools=[lookup])\n\n\nsupport = build(True)\n";
    let doc = compare(base, head);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "cancel", "added"),
            row("support", "refund", "added")
        ]
    );
    let conditional = "def build(strict):\n    tools = [lookup]\n    if strict:\n        tools.append(refund)\n    return Agent(name=\"support\", tools=tools)\n\n\nsupport = build(True)\n";
    let doc = compare(base, conditional);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(
        doc["rows"][0]["after"]["bound_when"],
        serde_json::json!(["`strict`"])
    );
    let looped = conditional.replace("    if strict:\n", "    for _ in range(2):\n");
    let doc = compare(base, &looped);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["OpenAI Agents SDK agent 'support' at agent.py:23 has a tools list it reads only in part; its binding graph is incomplete. Not read: `tools` is added to under a condition or in a loop at line 22 (agent.py:23)."]
    );
    assert_eq!(rows(&doc), vec![]);
}

/// Spec: a comprehension or `filter` over a list keeps its members, each
/// held only when the filter keeps it (never evaluated).
#[test]
fn filtered_lists_keep_their_members_under_the_filter() {
    let head = "TOOLS = [lookup, refund]\nsupport = Agent(name=\"support\", tools=[t for t in TOOLS if allowed(t)])\n";
    let doc = compare(BASE, head);
    assert_eq!(doc["comparison_status"], "compared");
    // lookup was always bound; now only when the filter keeps it, which
    // is not evaluated: not established (issue 39, item 2).
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "lookup", "not_established"),
            row("support", "refund", "added")
        ]
    );
    assert_eq!(
        doc["rows"][1]["after"]["bound_when"],
        serde_json::json!(["the filter `allowed(t)` keeps it"])
    );
    let head = "TOOLS = [lookup, refund]\nsupport = Agent(name=\"support\", tools=list(filter(allowed, TOOLS)))\n";
    let doc = compare(BASE, head);
    assert_eq!(
        doc["rows"][1]["after"]["bound_when"],
        serde_json::json!(["the filter `allowed` keeps it"])
    );
}

/// Spec: a list imported from another module is read by that module's
/// names, only while every use of it, there and in every module that
/// imports it, reads it.
#[test]
fn a_list_imported_from_another_module_is_read_by_its_names() {
    let catalog = "from agents import function_tool\n\n\n@function_tool\ndef audit(q: str) -> str:\n    return q\n\n\nFINANCE = [audit]\n";
    let base = format!("{TOOLS}support = Agent(name=\"support\", tools=[lookup])\n");
    let head = format!(
        "{TOOLS}from .catalog import FINANCE\n\nsupport = Agent(name=\"support\", tools=[lookup, *FINANCE])\n"
    );
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &base)],
        &[("app/agent.py", &head), ("app/catalog.py", catalog)],
        "app",
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "audit", "added")]);
    assert_eq!(
        doc["rows"][0]["after"]["definition"]["source"],
        "app/catalog.py"
    );
    // Another module appends to it: not read.
    let hooks =
        "from .catalog import FINANCE\nfrom .agent import lookup\n\nFINANCE.append(lookup)\n";
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &base)],
        &[
            ("app/agent.py", &head),
            ("app/catalog.py", catalog),
            ("app/hooks.py", hooks),
        ],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
}

/// Issue 6: an SDK tool made by a repository factory whose one
/// unconditional return is `function_tool(inner)` (or a decorated tool) is
/// that function, with the factory's code and arguments in its digest.
#[test]
fn an_sdk_tool_factory_is_read_to_the_function_it_returns() {
    let factory = |readonly: &str| {
        format!(
            "{TOOLS}\ndef make_sql_tool(readonly=True):\n    def run_sql(query: str) -> str:\n        return query if readonly else \"w\"\n    return function_tool(run_sql)\n\n\nsupport = Agent(name=\"support\", tools=[lookup, make_sql_tool(readonly={readonly})])\n"
        )
    };
    let doc = compare(BASE, &factory("True").replacen(TOOLS, "", 1));
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "run_sql", "added")]);
    let base = factory("True").replacen(TOOLS, "", 1);
    let doc = compare(&base, &factory("False").replacen(TOOLS, "", 1));
    assert_eq!(rows(&doc), vec![row("support", "run_sql", "changed")]);
    // A returned function without the SDK's decorator is no tool.
    let plain = "def make():\n    def helper(q: str) -> str:\n        return q\n    return helper\n\n\nsupport = Agent(name=\"support\", tools=[lookup, make()])\n";
    let doc = compare(BASE, plain);
    assert_eq!(doc["comparison_status"], "partial");
    // The listed call is a member all the same (issue 39, item 8).
    assert_eq!(
        rows(&doc),
        vec![row("support", "make()", "not_established")]
    );
}
