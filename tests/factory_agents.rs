//! End to end: agents a factory builds, one per call
//! (`graph/build/factory_agents.rs`), and agent names read from a string
//! constant another module binds (`graph/build/name_constants.rs`).
//!
//! The spec names a construction in a factory by its source label
//! (`make_specialist@agent.py`) and "does not evaluate a computed name";
//! the reference (1.2.0) names its list a dynamic expression. Reading each
//! call as its own agent is beyond both, sound by the rules in the
//! module's doc: every call known, none conditional, each name a string
//! the call's literal arguments spell, the names distinct.

mod support;

use serde_json::Value;
use support::{assert_compared, compare_branches, limits, row, rows};

const SDK_TOOLS: &str = r#"from agents import function_tool


@function_tool
def lookup(q: str) -> str:
    return q


@function_tool
def refund(order: str) -> str:
    return order
"#;

const ADK_TOOLS: &str = r#"def lookup(q: str) -> str:
    return q


def refund(order: str) -> str:
    return order
"#;

fn compare(tools: &str, base: &str, head: &str) -> Value {
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", tools),
            ("app/agent.py", base),
        ],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

const SDK_FACTORY: &str = r#"from agents import Agent
from .tools import lookup, refund


def make_specialist(kind, tools):
    return Agent(name=f"shop-{kind}", instructions="Help.", tools=tools)


sales = make_specialist("sales", [lookup])
support = make_specialist("support", [lookup])
triage = Agent(name="triage", handoffs=[sales, support])
"#;

#[test]
fn each_call_of_an_sdk_factory_is_the_agent_its_name_spells() {
    let head = SDK_FACTORY.replace("\"sales\", [lookup]", "\"sales\", [lookup, refund]");
    let doc = compare(SDK_TOOLS, SDK_FACTORY, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("shop-sales", "refund", "added")]);
    let after = &doc["rows"][0]["after"];
    assert_eq!(after["agent_source"], "app/agent.py");
    // The handoffs to the factory's agents are the agents its calls build.
    assert!(
        limits(&doc, "head").is_empty(),
        "{:?}",
        limits(&doc, "head")
    );
    // Renaming one call's kind is another agent: the old one's tools go,
    // the new one's come.
    let renamed = SDK_FACTORY.replace("\"support\", [lookup]", "\"help\", [lookup]");
    let doc = compare(SDK_TOOLS, SDK_FACTORY, &renamed);
    assert_eq!(
        rows(&doc),
        vec![
            row("shop-help", "lookup", "added"),
            row("shop-support", "lookup", "removed"),
            row("triage", "handoff:agent.py:shop-help", "added"),
            row("triage", "handoff:agent.py:shop-support", "removed"),
        ],
        "{doc:#}"
    );
}

#[test]
fn a_factory_whose_calls_do_not_all_name_their_agent_stays_one_agent() {
    // A call under `if`, two calls giving one name, a name read through
    // `!r` (which prints quotes): the construction is one agent, by its
    // source label, and its tools the union of the calls.
    for (what, base) in [
        (
            "a conditional call",
            SDK_FACTORY.replace(
                "support = make_specialist(\"support\", [lookup])",
                "if True:\n    support = make_specialist(\"support\", [lookup])",
            ),
        ),
        (
            "one name twice",
            SDK_FACTORY.replace("\"support\", [lookup]", "\"sales\", [lookup]"),
        ),
        (
            "a converted name",
            SDK_FACTORY.replace("shop-{kind}", "shop-{kind!r}"),
        ),
    ] {
        let head = base.replace("\"sales\", [lookup]", "\"sales\", [lookup, refund]");
        let doc = compare(SDK_TOOLS, &base, &head);
        assert_eq!(
            rows(&doc),
            vec![row("make_specialist@agent.py", "refund", "added")],
            "{what}: {doc:#}"
        );
    }
}

const ADK_FACTORY: &str = r#"from google.adk.agents import Agent
from .tools import lookup, refund


def make_specialist(kind, tools, model="gemini-2.0-flash"):
    return Agent(model=model, name=f"shop_{kind}", instruction="Help.", tools=tools)


sales = make_specialist("sales", [lookup])
support = make_specialist(kind="support", tools=[lookup])
root_agent = Agent(model="gemini-2.0-flash", name="root", sub_agents=[sales, support])
"#;

#[test]
fn each_call_of_an_adk_factory_is_a_sub_agent_by_the_name_it_spells() {
    let head = ADK_FACTORY.replace("\"sales\", [lookup]", "\"sales\", [lookup, refund]");
    let doc = compare(ADK_TOOLS, ADK_FACTORY, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("shop_sales", "refund", "added")]);
    assert!(
        limits(&doc, "head").is_empty(),
        "{:?}",
        limits(&doc, "head")
    );
    // A sub-agent the root gains is a row of the root.
    let head = ADK_FACTORY.replace("sub_agents=[sales, support]", "sub_agents=[sales]");
    let doc = compare(ADK_TOOLS, ADK_FACTORY, &head);
    assert_eq!(
        rows(&doc),
        vec![row("root", "handoff:agent.py:shop_support", "removed")]
    );
}

const CONSTANTS: &str = r#"import os

AGENT_NAME = "brand_agent"
MODEL = os.getenv("MODEL", "gemini-2.0-flash")
"#;

const ADK_NAMED: &str = r#"from google.adk.agents import Agent
from .constants import AGENT_NAME, MODEL
from .tools import lookup, refund

root_agent = Agent(model=MODEL, name=AGENT_NAME, instruction="Help.", tools=[lookup])
"#;

fn compare_named(constants: &str, base: &str, head: &str) -> Value {
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", ADK_TOOLS),
            ("app/constants.py", constants),
            ("app/agent.py", base),
        ],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

#[test]
fn an_adk_agents_name_is_the_string_constant_it_imports() {
    let head = ADK_NAMED.replace("tools=[lookup]", "tools=[lookup, refund]");
    let doc = compare_named(CONSTANTS, ADK_NAMED, &head);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("brand_agent", "refund", "added")]);
    // A constant its module's code could rebind (`global`) is no name:
    // the agent is its variable, as before.
    let rebound = format!(
        "{CONSTANTS}\n\ndef rename():\n    global AGENT_NAME\n    AGENT_NAME = \"other\"\n"
    );
    let doc = compare_named(&rebound, ADK_NAMED, &head);
    assert_eq!(rows(&doc), vec![row("root_agent", "refund", "added")]);
    // Nor is one bound from the environment.
    let from_env = CONSTANTS.replace("\"brand_agent\"", "os.getenv(\"NAME\", \"brand_agent\")");
    let doc = compare_named(&from_env, ADK_NAMED, &head);
    assert_eq!(rows(&doc), vec![row("root_agent", "refund", "added")]);
}

const SERVERS: &str = r#"from agents import Agent, WebSearchTool
from agents.mcp import MCPServerSse


def hosted(size):
    return [WebSearchTool(search_context_size=size)]


def make_specialist(kind, url):
    server = MCPServerSse(name="desk", params={"url": url})
    return Agent(name=f"shop-{kind}", mcp_servers=[server], tools=hosted("low"))


sales = make_specialist("sales", "https://sales.example.com/sse")
support = make_specialist("support", "https://support.example.com/sse")
"#;

/// An object a called function builds reads the function's parameters as
/// the call passes them (the value reader's frame): each factory agent's
/// server has the host its call gives, and a hosted tool a helper returns
/// has the arguments its call gives. What a call passes that is not a
/// literal stays a named part.
#[test]
fn an_object_a_called_function_builds_reads_what_the_call_passes() {
    let head = SERVERS.replace("support.example.com", "evil.example.com");
    let doc = compare("", SERVERS, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("shop-support", "desk", "changed")]);
    assert_eq!(
        doc["rows"][0]["after"]["object"]["host"], "evil.example.com",
        "{doc:#}"
    );
    let head = SERVERS.replace("hosted(\"low\")", "hosted(\"high\")");
    let doc = compare("", SERVERS, &head);
    assert_eq!(
        rows(&doc),
        vec![
            row("shop-sales", "WebSearchTool", "changed"),
            row("shop-support", "WebSearchTool", "changed"),
        ]
    );
    let computed = SERVERS.replace("\"https://sales.example.com/sse\"", "BASE + \"/sse\"");
    let doc = compare("", &computed, &computed);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["OpenAI Agents SDK agent 'shop-sales' at agent.py:11 binds the MCP server 'desk', whose host is not read (url); a change to it is not established.".to_string()]
    );
}

#[test]
fn a_call_whose_name_is_not_read_leaves_the_other_calls_their_own_agents() {
    // Issue 40, item 5: `support`'s name comes from the environment. The
    // readable call stays the agent `shop-sales`; the other is the agent
    // the spec's source label names (`support@agent.py`), its list read
    // in its own call's frame. Before, one unreadable name made the whole
    // construction one agent, `make_specialist@agent.py`, with the union.
    let base = format!(
        "import os\n{}",
        SDK_FACTORY.replace(
            "make_specialist(\"support\", [lookup])",
            "make_specialist(os.environ[\"KIND\"], [lookup])"
        )
    );
    let head = base.replace("\"sales\", [lookup]", "\"sales\", [lookup, refund]");
    let doc = compare(SDK_TOOLS, &base, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("shop-sales", "refund", "added")]);
    let head = base.replace("KIND\"], [lookup]", "KIND\"], [lookup, refund]");
    let doc = compare(SDK_TOOLS, &base, &head);
    assert_eq!(
        rows(&doc),
        vec![row("support@agent.py", "refund", "added")],
        "{doc:#}"
    );
    // The same in the ADK, where the root's sub-agent is the labelled one.
    let base = format!(
        "import os\n{}",
        ADK_FACTORY.replace("kind=\"support\"", "kind=os.getenv(\"KIND\")")
    );
    let head = base.replace("tools=[lookup])\nroot", "tools=[lookup, refund])\nroot");
    let doc = compare(ADK_TOOLS, &base, &head);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("support@agent.py", "refund", "added")],
        "{doc:#}"
    );
}

#[test]
fn a_call_whose_name_becomes_unreadable_is_not_an_established_removal() {
    // Edge: the call's agent changes identity (`shop-support` to its label)
    // in the same file. The spec: a source identity that disappears while
    // another appears in that file is an ambiguous correspondence, its rows
    // not established — never `removed` plus `added`.
    let head = format!(
        "import os\n{}",
        SDK_FACTORY.replace(
            "make_specialist(\"support\", [lookup])",
            "make_specialist(os.environ[\"KIND\"], [lookup])"
        )
    );
    let doc = compare(SDK_TOOLS, SDK_FACTORY, &head);
    let established: Vec<_> = doc["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["status"] == "established")
        .collect();
    assert!(established.is_empty(), "{doc:#}");
    assert_ne!(doc["comparison_status"], "compared", "{doc:#}");
}
