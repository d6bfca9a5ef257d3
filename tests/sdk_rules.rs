//! End to end: the OpenAI Agents SDK rules of the spec not covered by the
//! other suites, one test per rule (issue 4): identity by import, typed
//! `Agent[Context]`, positional arguments after the name, writes into an
//! agent's lists by slicing and `setattr`, `copy.replace`, subclasses
//! imported from the scope, `handoffs=NAME`, the clone name filter, the
//! clone hop bound, and test files that never establish the application.

mod support;

use serde_json::{json, Value};
use support::{compare_branches, limits, row, rows};

const BASE: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n@function_tool\ndef refund(q: str) -> str:\n    return q\n\n\nsupport = Agent(name=\"support\", tools=[lookup])\n";

/// `app/agent.py` = BASE (plus `base_extra`) against `head`, compared with
/// `--scope app`.
fn compare(base_extra: &[(&str, &str)], head: &[(&str, &str)]) -> Value {
    let mut base = vec![("app/__init__.py", ""), ("app/agent.py", BASE)];
    base.extend_from_slice(base_extra);
    compare_branches(&base, head, "app").0
}

#[test]
fn livekit_and_relative_agents_imports_are_not_the_sdk() {
    let head = format!(
        "{BASE}from livekit.agents import Agent as Voice\nfrom .agents import Agent as Local\n\nvoice = Voice(name=\"voice\", tools=[refund])\nlocal = Local(name=\"local\", tools=[refund])\n"
    );
    let doc = compare(
        &[("app/agents.py", "class Agent:\n    pass\n")],
        &[("app/agent.py", &head)],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
    let agents: Vec<&str> = doc["head"]["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter_map(|a| a["name"].as_str())
        .collect();
    assert_eq!(agents, vec!["support"]);
}

#[test]
fn a_typed_agent_is_an_agent() {
    let head = BASE.replace("Agent(name=\"support\"", "Agent[dict](name=\"support\"");
    let head = head.replace("tools=[lookup]", "tools=[lookup, refund]");
    let doc = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
}

#[test]
fn positional_arguments_after_the_name_are_a_named_limit() {
    let head = BASE.replace(
        "Agent(name=\"support\", tools=[lookup])",
        "Agent(\"support\", \"be brief\", tools=[lookup])",
    );
    let doc = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["OpenAI Agents SDK agent 'support' at agent.py:14 passes positional arguments after its name, which can carry tools or handoffs; its binding graph is incomplete."]
    );
}

#[test]
fn slicing_and_setattr_on_an_agents_lists_are_named_limits() {
    // (An unconditional module-level `support.handoffs += [support]` is a
    // rewire, read as a binding: `rewires.rs`. In a function it is not.)
    for (change, how, line) in [
        ("support.tools[0:] = [refund]", "item assignment", 15),
        ("setattr(support, \"tools\", [refund])", "setattr", 15),
        (
            "def wire():\n    support.handoffs += [support]",
            "augmented assignment",
            16,
        ),
    ] {
        let head = format!("{BASE}{change}\n");
        let doc = compare(&[], &[("app/agent.py", &head)]);
        assert_eq!(doc["comparison_status"], "partial", "{change}");
        let field = if change.contains("handoffs") {
            "handoffs"
        } else {
            "tools"
        };
        assert_eq!(
            limits(&doc, "head"),
            vec![format!("OpenAI Agents SDK agent 'support' at agent.py:14 has its {field} changed after construction at agent.py:{line} ({how}); its binding graph is incomplete.")],
            "{change}"
        );
    }
}

#[test]
fn copy_replace_with_capabilities_is_a_named_limit() {
    let head = format!("{BASE}import copy\n\nadmin = copy.replace(support, tools=[refund])\n");
    let doc = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["An agent copy at agent.py:17 ('support') is not read; the agent it makes and its tools, handoffs or MCP servers are not established."]
    );
}

#[test]
fn a_subclass_imported_from_the_scope_is_named() {
    // Beyond the spec (issue 20), a pass-through subclass is read as
    // `Agent`; one that overrides an accessor of its tools stays named.
    let kinds = "from agents import Agent\n\n\nclass Careful(Agent):\n    def get_all_tools(self, context):\n        return []\n";
    let head = format!(
        "{BASE}from .kinds import Careful\n\ncareful = Careful(name=\"careful\", tools=[refund])\n"
    );
    let doc = compare(&[], &[("app/agent.py", &head), ("app/kinds.py", kinds)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["agent.py uses Careful, an OpenAI Agents SDK agent subclass defined at kinds.py:4; agents built from it are not read. It is not read as its base class: 'Careful' (kinds.py:4): its code spells 'get_all_tools'."]
    );
}

#[test]
fn handoffs_named_by_a_list_bound_once_are_read() {
    let head = format!(
        "{BASE}billing = Agent(name=\"billing\")\nTEAM = [billing, support]\ntriage = Agent(name=\"triage\", handoffs=TEAM)\n"
    );
    let doc = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            row("triage", "handoff:agent.py:billing", "added"),
            row("triage", "handoff:agent.py:support", "added"),
        ]
    );
    // A second use that could change the list: not read. (An addition
    // at module level before the agent is built is read since issue 40;
    // one in a function could run at any time.)
    let changed = format!("{head}\n\ndef more():\n    TEAM.append(support)\n");
    let doc = compare(&[], &[("app/agent.py", &changed)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
}

/// Spec: a single literal name filter over the clone's own source keeps
/// the function tool the reader established under that name; a filter
/// naming anything else stays unread.
#[test]
fn a_clone_that_keeps_one_named_tool_binds_only_it() {
    let base = BASE.replace("tools=[lookup]", "tools=[lookup, refund]");
    let keep = |name: &str| {
        format!("{base}reader = support.clone(name=\"reader\", tools=[t for t in support.tools if t.name == \"{name}\"])\n")
    };
    let doc = compare(&[], &[("app/agent.py", &keep("lookup"))]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            row("reader", "lookup", "added"),
            row("support", "refund", "added")
        ]
    );
    let doc = compare(&[], &[("app/agent.py", &keep("missing"))]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["OpenAI Agents SDK agent 'reader' at agent.py:15 keeps the tools of 'support' named 'missing', which is not a function tool this reader established; its binding graph is incomplete."]
    );
}

#[test]
fn clones_are_followed_eight_hops_and_no_further() {
    let mut chain = String::new();
    let mut previous = "support".to_string();
    for hop in 1..=9 {
        chain.push_str(&format!("c{hop} = {previous}.clone(name=\"c{hop}\")\n"));
        previous = format!("c{hop}");
    }
    let head = format!("{BASE}{chain}");
    let doc = compare(&[], &[("app/agent.py", &head)]);
    let added: Vec<String> = rows(&doc).into_iter().map(|(agent, _, _)| agent).collect();
    assert_eq!(added, vec!["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["An agent copy at agent.py:23 ('c8') is not read; the agent it makes and its tools, handoffs or MCP servers are not established."]
    );
}

#[test]
fn test_files_never_establish_the_application() {
    let test = "from agents import Agent\nfrom .agent import refund\n\nfake = Agent(name=\"fake\", tools=[refund])\n";
    let doc = compare(
        &[],
        &[
            ("app/test_agent.py", test),
            ("app/tests/test_more.py", test),
        ],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
    // Spelled relative to the compared scope, as discovery matches them
    // (spec §"Test files"; the reference prints the same).
    assert_eq!(
        doc["head"]["excluded_tests"],
        json!(["test_agent.py", "tests/test_more.py"])
    );
}
