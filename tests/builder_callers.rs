//! End to end: a builder whose capability list is a parameter, read as the
//! union of what every call of it in the compared scope passes (issue 6,
//! "beyond the reference"). The reference (1.2.0) names any such list "a
//! dynamic tools expression" and answers `partial` with no row (checked
//! against `agents-shipgate diff --application` on the first fixture);
//! we read it where every call is found, and each member says it was read
//! this way (`builder_callers`, and a text line). Where a call could be
//! missed, the limit names the first place reading stopped.

mod support;

use serde_json::{json, Value};
use support::{compare_branches, limits, row, rows};

/// 18 lines: the module body of each fixture starts at line 19.
const TOOLS: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n@function_tool\ndef refund(q: str) -> str:\n    return q\n\n\n@function_tool\ndef cancel(q: str) -> str:\n    return q\n\n\n";

/// Lines 19–22; `support = build(...)` goes on line 23.
const BUILDER: &str = "def build(tools):\n    return Agent(name=\"support\", tools=tools)\n\n\n";

fn compare(base_body: &str, head_body: &str) -> (Value, String) {
    compare_files(
        &[("app/agent.py", base_body)],
        &[("app/agent.py", head_body)],
    )
}

/// Each file's body is prefixed with the tools when it is `agent.py`.
fn compare_files(base: &[(&str, &str)], head: &[(&str, &str)]) -> (Value, String) {
    let with_tools = |files: &[(&str, &str)]| -> Vec<(String, String)> {
        files
            .iter()
            .map(|(path, body)| {
                let body = if *path == "app/agent.py" {
                    format!("{TOOLS}{BUILDER}{body}")
                } else {
                    body.to_string()
                };
                (path.to_string(), body)
            })
            .collect()
    };
    let mut base = with_tools(base);
    base.push(("app/__init__.py".into(), String::new()));
    let head = with_tools(head);
    let base: Vec<(&str, &str)> = base.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    let head: Vec<(&str, &str)> = head.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    compare_branches(&base, &head, "app")
}

#[test]
fn a_builder_parameter_is_read_through_its_one_caller() {
    let (doc, text) = compare(
        "support = build([lookup])\n",
        "support = build([lookup, refund])\n",
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(
        doc["rows"][0]["after"]["builder_callers"],
        json!(["app/agent.py:23"])
    );
    // The binding is where the agent lists it: the builder's construction.
    assert_eq!(
        doc["rows"][0]["after"]["binding_location"],
        "app/agent.py:20"
    );
    assert!(
        text.contains("    read through the calls at: app/agent.py:23\n"),
        "{text}"
    );
}

/// Every call's list joins the union; a member only some calls pass
/// carries the `if` they run under, and one both branches pass is held
/// either way (no condition, so no row).
#[test]
fn every_caller_joins_the_union_under_its_condition() {
    let head =
        "if STRICT:\n    support = build([lookup])\nelse:\n    support = build([lookup, refund])\n";
    let (doc, text) = compare("support = build([lookup])\n", head);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(
        doc["rows"][0]["after"]["bound_when"],
        json!(["not `STRICT`"])
    );
    assert_eq!(
        doc["rows"][0]["after"]["builder_callers"],
        json!(["app/agent.py:26"])
    );
    assert!(
        text.contains("    bound only when not `STRICT`\n"),
        "{text}"
    );
    // Moving the second call into a branch of its own is a condition
    // change on the member only that call passes.
    let elif = "if STRICT:\n    support = build([lookup])\nelif LOOSE:\n    support = build([lookup, refund])\n";
    // `lookup`, held either way before, is now held only when one of the
    // two branches runs: a condition change too.
    let (doc, _) = compare(head, elif);
    // Issue 39, item 2: a condition change alone is not established.
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "lookup", "not_established"),
            row("support", "refund", "not_established")
        ]
    );
    assert_eq!(
        doc["rows"][0]["after"]["bound_when"],
        json!(["`STRICT`", "not `STRICT` and `LOOSE`"])
    );
    assert_eq!(
        doc["rows"][1]["after"]["bound_when"],
        json!(["not `STRICT` and `LOOSE`"])
    );
}

/// A call in another module of the scope, which imports the builder by
/// name, passes names read in that module.
#[test]
fn a_caller_in_another_module_is_read_by_its_own_names() {
    let caller = |tools: &str| {
        format!("from .agent import build, lookup, refund\n\nsupport = build([{tools}])\n")
    };
    let (doc, _) = compare_files(
        &[("app/agent.py", ""), ("app/main.py", &caller("lookup"))],
        &[("app/main.py", &caller("lookup, refund"))],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(
        doc["rows"][0]["after"]["builder_callers"],
        json!(["app/main.py:3"])
    );
    assert_eq!(
        doc["rows"][0]["after"]["definition"]["source"],
        "app/agent.py"
    );
}

/// A construction inside an `if` of the builder: each member carries the
/// caller's condition and the construction's, the builder's parameter
/// qualified with what this call passes for it.
#[test]
fn the_construction_condition_joins_the_callers() {
    let head = "def build_gated(tools, gated):\n    if gated:\n        return Agent(name=\"gated\", tools=tools)\n    return None\n\n\nif PROD:\n    gated = build_gated([refund], True)\n";
    let (doc, _) = compare(
        "support = build([lookup])\n",
        &format!("support = build([lookup])\n{head}"),
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("gated", "refund", "added")]);
    assert_eq!(
        doc["rows"][0]["after"]["bound_when"],
        json!(["`PROD` and `gated`, with gated=True"])
    );
}

/// Where a call could be missed or its list is not read, the list stays a
/// named limit: the first place reading stopped, why, and where the list
/// is. The base's `lookup` is then not established, never removed.
#[test]
fn a_builder_whose_calls_are_not_all_known_stays_a_named_limit() {
    let base = "support = build([lookup])\n";
    let stopped = |why: &str| {
        format!("OpenAI Agents SDK agent 'support' at agent.py:20 has a tools list it does not read; its binding graph is incomplete. Not read: {why} (agent.py:20).")
    };
    let cases = [
        (
            "support = build([lookup, refund])\nREGISTRY = {\"support\": build}\n",
            "`tools`, a parameter of `build`, whose closed caller set is not established: agent.py uses `build` other than by calling it (as a value, or exported)",
        ),
        (
            "def get_tools():\n    if PROD:\n        return [lookup, refund]\n    return [lookup]\n\n\nsupport = build(get_tools())\n",
            "a call to `get_tools`, which does not return once, unconditionally, as its last statement, passed to `build` at agent.py:29",
        ),
        (
            "for _ in range(2):\n    support = build([lookup, refund])\n",
            "`tools`, a parameter of `build`, which the call at agent.py:24 passes in a loop or an except handler",
        ),
        (
            "support = build(*[[lookup, refund]])\n",
            "`tools`, a parameter of `build`, which the call at agent.py:23 may pass through `*`/`**` unpacking",
        ),
    ];
    for (head, why) in cases {
        let (doc, _) = compare(base, head);
        assert_eq!(doc["comparison_status"], "partial", "{head}");
        assert_eq!(limits(&doc, "head"), vec![stopped(why)], "{head}");
        assert_eq!(
            rows(&doc),
            vec![row("support", "lookup", "not_established")],
            "{head}"
        );
    }
    // A module that imports the builder's module whole could call it
    // through an attribute: not read.
    let (doc, _) = compare_files(
        &[("app/agent.py", base)],
        &[
            ("app/agent.py", "support = build([lookup, refund])\n"),
            ("app/main.py", "from . import agent\n\nagent.build([])\n"),
        ],
    );
    assert_eq!(
        limits(&doc, "head"),
        vec![stopped("`tools`, a parameter of `build`, whose closed caller set is not established: main.py:1 imports agent.py whole, and calls through it are not read")]
    );
}

/// Calls read one by one: one call that passes something unreadable is
/// named as the unread part of the union, and what the other calls pass
/// is still compared. The unread call could pass any tool on either side,
/// so an addition stays `not_established`; a change to a tool both sides
/// bind is established.
#[test]
fn one_unreadable_call_leaves_the_other_calls_compared() {
    let body = |ship: &str| {
        format!("@function_tool\ndef ship(q: str) -> str:\n    return {ship}\n\n\nsupport = build([lookup, ship])\nfor _ in range(2):\n    extra = build([cancel])\n")
    };
    let (doc, _) = compare(&body("q"), &body("q.upper()"));
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![row("support", "ship", "changed")]);
    assert_eq!(
        limits(&doc, "head"),
        vec!["OpenAI Agents SDK agent 'support' at agent.py:20 has a tools list it reads only in part; its binding graph is incomplete. Not read: `tools`, a parameter of `build`, which the call at agent.py:30 passes in a loop or an except handler (agent.py:20).".to_string()]
    );
}

/// A builder's caller that is itself a builder passes its own parameter
/// to another function: nothing proves that function only reads it, so
/// the outer parameter is named, not followed.
#[test]
fn a_parameter_handed_to_another_call_stays_a_named_limit() {
    let outer = |tools: &str| {
        format!(
            "def make(extra):\n    return build([lookup, *extra])\n\n\nsupport = make([{tools}])\n"
        )
    };
    let (doc, _) = compare(&outer(""), &outer("refund"));
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["OpenAI Agents SDK agent 'support' at agent.py:20 has a tools list it reads only in part; its binding graph is incomplete. Not read: `extra`, a parameter of `make`, which agent.py uses other than as an agent's list, so it could change (agent.py:20)."]
    );
    // `lookup`, which both sides read, is no row.
    assert_eq!(rows(&doc), Vec::<(String, String, String)>::new());
}

/// Google ADK: the same read for `tools=` and `sub_agents=`.
#[test]
fn an_adk_builder_parameter_is_read_through_its_callers() {
    let agent = |tools: &str| {
        format!("from google.adk.agents import Agent\n\n\ndef lookup(q: str) -> str:\n    return q\n\n\ndef refund(q: str) -> str:\n    return q\n\n\ndef make(tools):\n    return Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=tools)\n\n\nroot_agent = make([{tools}])\n")
    };
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &agent("lookup"))],
        &[("app/agent.py", &agent("lookup, refund"))],
        "app",
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(
        doc["rows"][0]["after"]["builder_callers"],
        json!(["app/agent.py:16"])
    );
}
