//! End to end: agents built by repository classes (issue 20).
//!
//! A pass-through subclass of the SDK's `Agent` or ADK's `LlmAgent` (one
//! that only adds parameters of its own and hands the capability keywords
//! to the base class unchanged) is read like its base class at its
//! constructions. The spec and the reference (1.2.0) name every agent
//! subclass as a limit ("agents built from it are not read"); reading this
//! shape is beyond both, sound by the rule in
//! `frameworks/agent_classes.rs`: nothing in the class can read, store or
//! change a capability field, so the base class receives exactly what the
//! call passes. Any other subclass stays the spec's named limit, now with
//! the condition that failed.

#[path = "../support/mod.rs"]
mod support;

/// Two SDK function tools, `app/tools.py` of the SDK fixtures.
const SDK_TOOLS: &str = r#"from agents import function_tool


@function_tool
def lookup(q: str) -> str:
    return q


@function_tool
def refund(order: str) -> str:
    return order
"#;

/// Two plain functions, `app/tools.py` of the ADK fixtures.
const ADK_TOOLS: &str = "def lookup(q: str) -> str:\n    return q\n\n\ndef refund(order: str) -> str:\n    return order\n";

/// `app/` holding `tools` and `agent.py` (`base` on main, `head` on the
/// branch), compared with `--scope app`: the document and the text.
fn compare_agent_text(tools: &str, base: &str, head: &str) -> (serde_json::Value, String) {
    support::compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", tools),
            ("app/agent.py", base),
        ],
        &[("app/agent.py", head)],
        "app",
    )
}

/// `compare_agent_text`'s document.
fn compare_agent(tools: &str, base: &str, head: &str) -> serde_json::Value {
    compare_agent_text(tools, base, head).0
}

mod chains;
mod custom_agents;
mod instance_agents;
mod pass_through;
mod renames;
mod tool_classes;
mod wrappers;
