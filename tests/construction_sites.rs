//! End to end (issue 17, item 8): one OpenAI Agents SDK identity built at
//! several sites is one agent binding the union of what the sites bind,
//! with the limit beside the rows when they differ (as the ADK reader
//! does). Before, a tool only one site added disappeared.

mod support;

use support::{compare_branches, limits, row, rows};

const TOOLS: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n\n\n";

fn sites(fast: &str, full: &str) -> String {
    format!("{TOOLS}def fast():\n    return Agent(name=\"support\", tools=[{fast}])\n\n\ndef full():\n    return Agent(name=\"support\", tools=[{full}])\n")
}

#[test]
fn a_tool_one_site_adds_is_a_row_beside_the_limit() {
    // The reference answers the same row (partial, `refund` added).
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", &sites("lookup", "lookup")),
        ],
        &[("app/agent.py", &sites("lookup", "lookup, refund"))],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["OpenAI Agents SDK agent 'support' is constructed more than once in agent.py (lines 15, 19) with different tools or handoffs; which one runs is not established, and their tools are compared as one agent, each row naming the constructions that list its tool.".to_string()]
    );
    assert_eq!(limits(&doc, "base"), Vec::<String>::new());
}

#[test]
fn identical_sites_are_one_agent_and_each_row_names_them() {
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", &sites("lookup", "lookup")),
        ],
        &[("app/agent.py", &sites("lookup, refund", "lookup, refund"))],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        doc["rows"][0]["after"]["construction_sites"],
        serde_json::json!(["app/agent.py:15", "app/agent.py:19"])
    );
}
