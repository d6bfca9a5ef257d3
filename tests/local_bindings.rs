//! End to end: what a function binds once per call is read wherever it
//! sits (issue 19: agents built inside functions). A name a function binds
//! exactly once, outside any loop, handler or case, holds that value for
//! every read of it in the same call: under an `if`, a `with` or a `try`,
//! a read where the binding did not run raises, and never finds another
//! value. So `main()`'s `with trace(...):` block, with its hosted tool and
//! its tools list, is read like straight-line code. A binding in a loop,
//! or one a nested function rebinds through `nonlocal`, stays the named
//! limit it was.
//!
//! The reference (1.2.0) names such bindings "bound only inside a compound
//! statement", and the spec lists a builder's other local assignments as a
//! named stop; this reads further where the rule above makes it sound
//! (ARCHITECTURE.md, "Bound once per call").

mod support;

use serde_json::Value;
use support::{compare_branches, limits, row, rows};

fn module(body: &str) -> String {
    format!(
        r#"from agents import Agent, WebSearchTool, function_tool, trace


@function_tool
def lookup(q: str) -> str:
    return q


@function_tool
def refund(order: str) -> str:
    return order


{body}"#
    )
}

fn compare(base: &str, head: &str) -> Value {
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &module(base))],
        &[("app/agent.py", &module(head))],
        "app",
    )
    .0
}

const MAIN: &str = r#"async def main(fast: bool):
    with trace("demo"):
        search = WebSearchTool()
        if fast:
            tools = [lookup]
        agent = Agent(name="assistant", tools=[*tools, search])
        return agent
"#;

#[test]
fn a_with_block_and_an_if_in_main_are_read_like_straight_code() {
    let doc = compare(MAIN, &MAIN.replace("[lookup]", "[lookup, refund]"));
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("agent", "refund", "added")]);
    // The hosted tool bound in the block is an object row of its own.
    let doc = compare(&MAIN.replace(", search]", "]"), MAIN);
    assert_eq!(rows(&doc), vec![row("agent", "WebSearchTool", "added")]);
}

#[test]
fn a_binding_in_a_loop_or_rebound_by_a_nested_function_stays_a_limit() {
    let in_loop = r#"async def main():
    for _ in range(2):
        tools = [lookup]
    agent = Agent(name="assistant", tools=tools)
    return agent
"#;
    let doc = compare(in_loop, &in_loop.replace("[lookup]", "[lookup, refund]"));
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("does not bind once, unconditionally, to a list literal")),
        "{:#?}",
        limits(&doc, "head")
    );

    let nested = r#"async def main():
    with trace("demo"):
        search = WebSearchTool()

    def swap():
        nonlocal search
        search = lookup

    swap()
    agent = Agent(name="assistant", tools=[search])
    return agent
"#;
    let doc = compare(
        nested,
        &nested.replace(
            "WebSearchTool()",
            "WebSearchTool(search_context_size=\"high\")",
        ),
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
}

/// Agents built in the same function are agents of their own, and a local
/// name bound once per call to one of them is that agent: a handoff to it
/// and `as_tool` on it are read (the SDK's examples build their whole
/// crew in `main()`).
#[test]
fn local_agents_are_handoff_targets_and_as_tool_receivers() {
    let crew = r#"async def main():
    pricing = Agent(name="pricing", tools=[lookup])
    reviewer = Agent(name="reviewer")
    with trace("crew"):
        orchestrator = Agent(
            name="orchestrator",
            tools=[pricing.as_tool(tool_name="price", tool_description="Prices an order.")],
            handoffs=[],
        )
        return orchestrator
"#;
    let doc = compare(crew, &crew.replace("handoffs=[]", "handoffs=[reviewer]"));
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![row("orchestrator", "handoff:agent.py:reviewer", "added")]
    );
    let doc = compare(
        &crew.replace(
            "tools=[pricing.as_tool(tool_name=\"price\", tool_description=\"Prices an order.\")]",
            "tools=[]",
        ),
        crew,
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("orchestrator", "price", "added")]);
    // Bound in a loop, the name is not one agent: the handoff stays a limit.
    let looped = crew.replace(
        "    reviewer = Agent(name=\"reviewer\")\n",
        "    for _ in range(2):\n        reviewer = Agent(name=\"reviewer\")\n",
    );
    let doc = compare(
        &looped,
        &looped.replace("handoffs=[]", "handoffs=[reviewer]"),
    );
    assert_eq!(doc["comparison_status"], "partial");
    // The handoff is a member all the same (issue 39, item 8).
    assert_eq!(
        rows(&doc),
        vec![row("orchestrator", "handoff:?:reviewer", "not_established")]
    );
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("hands off to unresolved agent 'reviewer'")),
        "{:#?}",
        limits(&doc, "head")
    );
}
