//! End to end: the Google ADK reader (issue 5), a test per rule, each
//! compared with the reference (agents-shipgate 1.2.0) on the same fixture.
//! Where the spec reads more than the reference — agent tools, toolsets and
//! built-ins as rows, sub-agents in other modules, workflow agents — the
//! test says so.

mod support;

use serde_json::{json, Value};
use support::{compare_branches, limits, row, rows};

const HEAD: &str = "from google.adk.agents import Agent\n\n\ndef lookup(order_id: str) -> dict:\n    \"\"\"Look up an order.\"\"\"\n    return {\"id\": order_id}\n\n\ndef refund(order_id: str, amount: float) -> str:\n    \"\"\"Refund an order.\"\"\"\n    return \"ok\"\n\n\n";

const ROOT: &str = "root_agent = Agent(name=\"support\", model=\"gemini-2.0-flash\", instruction=\"Help.\", tools=[lookup])\n";

/// `app/agent.py` = HEAD + ROOT on main (plus `base_extra`) against `head`.
fn compare(base_extra: &[(&str, &str)], head: &[(&str, &str)]) -> (Value, String) {
    let base_agent = format!("{HEAD}{ROOT}");
    let mut base = vec![
        ("app/__init__.py", ""),
        ("app/agent.py", base_agent.as_str()),
    ];
    base.extend_from_slice(base_extra);
    compare_branches(&base, head, "app")
}

fn agent(body: &str) -> String {
    format!("{HEAD}{body}")
}

fn find<'d>(doc: &'d Value, tool: &str) -> &'d Value {
    doc["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["tool"] == tool))
        .unwrap_or_else(|| panic!("no row for {tool}: {doc:#}"))
}

/// Same as the reference: the agent is its literal `name=`, its plain
/// functions are tools, and the source is `google_adk`.
#[test]
fn an_added_function_is_a_row_of_the_named_agent() {
    let head = agent(&ROOT.replace("tools=[lookup]", "tools=[lookup, refund]"));
    let (doc, text) = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(
        doc["head"]["sources"],
        json!([{"type": "google_adk", "path": "agent.py"}])
    );
    let after = &find(&doc, "refund")["after"];
    assert_eq!(after["edge_type"], "direct_tool");
    assert_eq!(after["signature"], "refund(order_id, amount) -> str");
    // The reference's digest for this function, byte for byte.
    assert_eq!(
        after["definition"]["implementation_sha256"],
        "86d46cf44e7ed7b3bca3bfe97a136c03aea40b5daf7c1d0295b8ad70f8b84fca"
    );
    assert!(text.contains("ADDED  support → refund\n"), "{text}");
    // Renaming the variable is nothing. Renaming the agent was two rows
    // (the reference, 1.2.0, still says so); since issue 20 the agent on
    // the same variable is one agent renamed (`tests/agent_classes`), so
    // its unchanged binding is no row.
    let renamed = agent(&ROOT.replace("root_agent", "main_agent"));
    let (doc, _) = compare(&[], &[("app/agent.py", &renamed)]);
    assert_eq!(rows(&doc), vec![]);
    let renamed = agent(&ROOT.replace("name=\"support\"", "name=\"helpdesk\""));
    let (doc, _) = compare(&[], &[("app/agent.py", &renamed)]);
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(doc["agent_correspondence"][0]["base_agent"], "support");
}

#[test]
fn only_google_adk_by_absolute_import_is_the_framework() {
    for import in [
        "from google.adk.agents import LlmAgent as Agent",
        "from google.adk.agents.llm_agent import LlmAgent as Agent",
        "from google.adk import Agent",
    ] {
        let head = agent(&ROOT.replace("tools=[lookup]", "tools=[lookup, refund]"))
            .replace("from google.adk.agents import Agent", import);
        let (doc, _) = compare(&[], &[("app/agent.py", &head)]);
        assert_eq!(
            rows(&doc),
            vec![row("support", "refund", "added")],
            "{import}"
        );
    }
    // A vendored google/adk package is the repository's own code.
    let head = agent(&ROOT.replace("tools=[lookup]", "tools=[lookup, refund]"));
    let vendored = [
        ("app/agent.py", head.as_str()),
        ("google/__init__.py", ""),
        ("google/adk/__init__.py", ""),
        ("google/adk/agents.py", "class Agent:\n    pass\n"),
    ];
    let (doc, _) = compare(&[], &vendored);
    assert_eq!(doc["head"]["agents"], json!([]));
    assert_eq!(
        rows(&doc),
        vec![row("support", "lookup", "not_established")]
    );
    assert_eq!(
        limits(&doc, "head"),
        vec![
            "The repository holds its own google package, so google.adk imports there are not read as Google ADK.",
            "agent.py:14 still names agent 'support', but no supported agent construction was observed for it (for example an Agent subclass, factory or clone); its bindings on this side are not established."
        ]
    );
}

/// Same as the reference: `FunctionTool(func=f)`, `FunctionTool(f)` and a
/// module-level wrapper are the function's own row.
#[test]
fn function_wrappers_are_the_functions_row() {
    let wrapped = agent(
        "from google.adk.tools import FunctionTool, LongRunningFunctionTool\n\nlookup_tool = FunctionTool(func=lookup)\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup_tool, FunctionTool(refund)])\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &wrapped)]);
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    // The long-running wrapper changes how the tool runs: a changed row.
    let long = agent(
        "from google.adk.tools import LongRunningFunctionTool\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[LongRunningFunctionTool(func=lookup)])\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &long)]);
    assert_eq!(rows(&doc), vec![row("support", "lookup", "changed")]);
}

/// Spec: `x = FunctionTool(func=x)` right after `def x` wraps that def (the
/// reference calls the name bound twice).
#[test]
fn a_wrapper_rebinding_its_own_def_is_that_def() {
    let tools = "from google.adk.tools import FunctionTool\n\n\ndef refund(order_id: str) -> str:\n    return order_id\n\n\nrefund = FunctionTool(func=refund)\n";
    let head = agent(
        "from .tools import refund as refund_tool\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup, refund_tool])\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &head), ("app/tools.py", tools)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(
        find(&doc, "refund")["after"]["definition"]["source"],
        "app/tools.py"
    );
}

const FACTORY: &str = "from google.adk.tools import FunctionTool\n\n\ndef make_sql_tool(readonly: bool = True):\n    def run_sql(query: str) -> str:\n        \"\"\"Run SQL.\"\"\"\n        return query if readonly else \"w\"\n    return FunctionTool(func=run_sql)\n";

/// Same as the reference: a factory's tool is the function it wraps, and
/// the call's arguments are part of it.
#[test]
fn a_factory_is_read_to_the_function_it_returns() {
    let with = |call: &str| {
        agent(&format!(
            "from .factories import make_sql_tool\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup, {call}])\n"
        ))
    };
    let base_extra = [("app/factories.py", FACTORY)];
    let added = with("make_sql_tool()");
    let (doc, _) = compare(&base_extra, &[("app/agent.py", &added)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "run_sql", "added")]);
    let after = &find(&doc, "run_sql")["after"];
    assert_eq!(after["definition"]["line"], 5);
    let steps: Vec<&str> = after["import_path"][0]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["binding"].as_str())
        .collect();
    assert_eq!(steps, vec!["import", "factory", "definition"]);
    // The default written out is the same call; another value is a change.
    let base = [
        ("app/__init__.py", ""),
        ("app/factories.py", FACTORY),
        ("app/agent.py", added.as_str()),
    ];
    let spelled = with("make_sql_tool(readonly=True)");
    let (doc, _) = compare_branches(&base, &[("app/agent.py", &spelled)], "app");
    assert_eq!(rows(&doc), vec![]);
    let writes = with("make_sql_tool(readonly=False)");
    let (doc, _) = compare_branches(&base, &[("app/agent.py", &writes)], "app");
    assert_eq!(rows(&doc), vec![row("support", "run_sql", "changed")]);
    // So is a change to the factory's own code.
    let changed = FACTORY.replace("else \"w\"", "else \"write\"");
    let (doc, _) = compare_branches(&base, &[("app/factories.py", &changed)], "app");
    assert_eq!(rows(&doc), vec![row("support", "run_sql", "changed")]);
}

#[test]
fn a_factory_argument_the_read_cannot_name_is_a_limit_on_that_tool() {
    let head = agent(&format!(
        "{}\n\ndef build(flag):\n    return Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup, make_sql_tool(readonly=flag)])\n",
        FACTORY.replace("from google.adk.tools import FunctionTool\n", "from google.adk.tools import FunctionTool")
    ));
    let (doc, _) = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(rows(&doc), vec![row("support", "run_sql", "added")]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent 'support' binds 'run_sql' from make_sql_tool(), whose arguments readonly=flag are not values this read names; a change to them is not established."]
    );
}

#[test]
fn a_factory_returning_under_a_condition_is_named() {
    let factory = "from google.adk.tools import FunctionTool\n\n\ndef make_tool(fast):\n    def run(q: str) -> str:\n        return q\n    if fast:\n        return FunctionTool(func=run)\n    return None\n";
    let head = agent(
        "from .factories import make_tool\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup, make_tool(True)])\n",
    );
    let (doc, _) = compare(
        &[],
        &[("app/agent.py", &head), ("app/factories.py", factory)],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent 'support' references unresolved tool 'make_tool()'. Not resolved because 'make_tool()' is a tool factory this reader does not follow: it does not return once, unconditionally, as its last statement."]
    );
}

/// Spec: sub-agents are rows, also when another module builds them (the
/// reference resolves same-module sub-agents only).
#[test]
fn sub_agents_are_rows_in_any_module_of_the_scope() {
    let billing = "from google.adk.agents import Agent\n\n\ndef refund(order_id: str) -> str:\n    return order_id\n\n\nbilling = Agent(name=\"billing\", model=\"m\", instruction=\"b\", tools=[refund])\n";
    let head = agent(
        "from .billing import billing\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup], sub_agents=[billing])\n",
    );
    let (doc, text) = compare(&[], &[("app/agent.py", &head), ("app/billing.py", billing)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "handoff:billing.py:billing", "added"),
            row("billing", "refund", "added"),
        ]
    );
    let after = &find(&doc, "handoff:billing.py:billing")["after"];
    assert_eq!(after["edge_type"], "subagent");
    assert_eq!(after["target_source"], "app/billing.py");
    assert!(
        text.contains("  after: billing at app/agent.py:16\n"),
        "{text}"
    );
}

/// Spec: `AgentTool(agent=…)` is a row naming the wrapped agent (the
/// reference: "a tool expression that could not be statically resolved").
#[test]
fn an_agent_tool_is_a_row_with_its_agent() {
    let head = agent(
        "from google.adk.tools.agent_tool import AgentTool\n\nbilling = Agent(name=\"billing\", model=\"m\", instruction=\"b\", tools=[refund])\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup, AgentTool(agent=billing)])\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            row("billing", "refund", "added"),
            row("support", "billing", "added")
        ]
    );
    assert_eq!(
        find(&doc, "billing")["after"]["object"],
        json!({"kind": "agent_tool", "class": "AgentTool", "agent": "billing", "agent_source": "app/agent.py", "tool_name": "billing"})
    );
}

/// Spec: an MCP toolset is a row with its transport, host, filter and
/// credential names (the reference names it as not enumerable).
#[test]
fn an_mcp_toolset_is_a_row_with_its_identity() {
    let toolset = |filter: &str| {
        agent(&format!(
            "import os\nfrom google.adk.tools.mcp_tool import McpToolset\nfrom google.adk.tools.mcp_tool.mcp_session_manager import StreamableHTTPConnectionParams\n\ndocs = McpToolset(connection_params=StreamableHTTPConnectionParams(url=\"https://mcp.example.com/mcp\", headers={{\"Authorization\": os.environ[\"DOCS_TOKEN\"]}}), tool_filter={filter})\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup, docs])\n"
        ))
    };
    let (doc, _) = compare(&[], &[("app/agent.py", &toolset("[\"search\"]"))]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "docs", "added")]);
    let object = &find(&doc, "docs")["after"]["object"];
    assert_eq!(object["class"], "McpToolset");
    assert_eq!(object["transport"], "streamable_http");
    assert_eq!(object["host"], "mcp.example.com");
    assert_eq!(
        object["tool_filter"],
        json!({"allowed": ["search"], "blocked": null})
    );
    assert_eq!(
        object["credential_sources"],
        json!([{"header": "Authorization", "env": ["DOCS_TOKEN"]}])
    );
    let base = [
        ("app/__init__.py", ""),
        ("app/agent.py", &*toolset("[\"search\"]")),
    ];
    let (doc, _) = compare_branches(
        &base,
        &[("app/agent.py", &toolset("[\"search\", \"delete\"]"))],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("support", "docs", "changed")]);
}

/// Spec: built-ins are rows by import identity (the reference: an
/// unresolved tool); a same-named local function is just a function.
#[test]
fn built_in_tools_are_rows_by_import_identity() {
    let head = agent(
        "from google.adk.tools import google_search, load_memory as recall\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup, google_search, recall])\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "google_search", "added"),
            row("support", "load_memory", "added")
        ]
    );
    assert_eq!(
        find(&doc, "google_search")["after"]["object"]["kind"],
        "hosted_tool"
    );
    let local = agent(
        "def google_search(q: str) -> str:\n    return q\n\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup, google_search])\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &local)]);
    let after = &find(&doc, "google_search")["after"];
    assert_eq!(after["signature"], "google_search(q) -> str");
    assert!(after.get("object").is_none());
}

/// Same as the reference: one name built at several sites is one agent
/// when the sites bind the same, and a named limit with
/// `construction_sites` when they differ.
#[test]
fn an_agent_built_at_several_sites() {
    let twin = "\n\ndef build():\n    return Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup])\n";
    let head = format!("{}{twin}", agent(ROOT));
    let (doc, _) = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
    let different = format!(
        "{}{}",
        agent(ROOT),
        twin.replace("[lookup]", "[lookup, refund]")
    );
    let (doc, text) = compare(&[], &[("app/agent.py", &different)]);
    assert_eq!(doc["comparison_status"], "partial");
    // As in the reference, the sites' limit is on the agent, not the tool:
    // the head lists refund (at one site), so it is added.
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(
        limits(&doc, "head"),
        vec![
            "A possibly reachable tool has an incomplete binding edge; provide a complete static graph or reviewed declaration.",
            "Google ADK agent 'support' is constructed more than once in agent.py (lines 14, 18); which one runs is not established, and their tools are compared as one agent, each row naming the constructions that list its tool."
        ]
    );
    // lookup is listed by both sites: unchanged, so no row; refund by one.
    assert!(find(&doc, "refund")["after"]
        .get("construction_sites")
        .is_none());
    assert!(text.contains("ADDED  support → refund\n"), "{text}");
}

/// Same as the reference: a subclass of an ADK agent class is named where
/// it is used. Beyond both (issue 20), a pass-through subclass is read as
/// `LlmAgent` (`tests/agent_classes`); one that declares `tools` stays
/// named.
#[test]
fn an_adk_subclass_is_named_where_it_is_used() {
    let head = agent(&format!(
        "{ROOT}from google.adk.agents import LlmAgent\n\n\nclass Helper(LlmAgent):\n    tools: list = []\n\n\nhelper = Helper(name=\"helper\", model=\"m\", instruction=\"i\", tools=[refund])\n"
    ));
    let (doc, _) = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent class 'Helper' at agent.py:18 derives from an agent class; agents built from it are not read. It is not read as its base class: 'Helper' (agent.py:18): its code spells 'tools'."]
    );
}

/// Same as the reference: a tool name bound twice is not followed, so the
/// tool's row is not established.
#[test]
fn a_tool_name_bound_twice_is_not_established() {
    let head = agent(
        "tool = lookup\nif refund:\n    tool = refund\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[tool])\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &head)]);
    // `lookup` (another agent's) and the listed name itself (issue 39,
    // item 8): both not established.
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "lookup", "not_established"),
            row("support", "tool", "not_established")
        ]
    );
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent 'support' references unresolved tool 'tool'. Not resolved because 'tool' is bound more than once in agent.py (lines 14, 16)."]
    );
}

/// Spec: a workflow agent's sub-agents are its capabilities too (the
/// reference reads no workflow agent).
#[test]
fn a_workflow_agent_binds_its_sub_agents() {
    let head = agent(&format!(
        "{ROOT}from google.adk.agents import SequentialAgent\n\npipeline = SequentialAgent(name=\"pipeline\", sub_agents=[root_agent])\n"
    ));
    let (doc, _) = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![row("pipeline", "handoff:agent.py:support", "added")]
    );
}

/// The reference (1.2.0) says only "uses a dynamic tools expression"; the
/// spec names the first place reading stopped, why, and where.
#[test]
fn a_dynamic_tools_expression_is_named() {
    // A helper with one unconditional return is read (issue 19): the
    // base binds the same `lookup`, so nothing changed, and nothing is
    // left unread.
    let head = agent(
        "def get_tools():\n    return [lookup]\n\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=get_tools())\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(limits(&doc, "head"), Vec::<String>::new());
    // One with two returns is not: which runs is not known.
    let head = agent(
        "def get_tools():\n    if FAST:\n        return [lookup]\n    return []\n\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=get_tools())\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &head)]);
    assert_eq!(
        rows(&doc),
        vec![row("support", "lookup", "not_established")]
    );
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent 'support' has a tools list it does not read. Not read: a call to `get_tools`, which does not return once, unconditionally, as its last statement (agent.py:20)."]
    );
}

/// Spec: a repository helper that returns a toolset from its one
/// unconditional return is followed; the toolset's row goes by the helper
/// call, and a part made from the helper's parameter is named, not guessed.
#[test]
fn a_helper_returning_a_toolset_is_followed() {
    let helpers = "from google.adk.tools.mcp_tool import McpToolset\nfrom google.adk.tools.mcp_tool.mcp_session_manager import SseConnectionParams\n\n\ndef create_toolset():\n    return McpToolset(connection_params=SseConnectionParams(url=\"https://tools.example.com/sse\"))\n\n\ndef toolset_for(url):\n    return McpToolset(connection_params=SseConnectionParams(url=url))\n";
    let head = agent(
        "from .helpers import create_toolset, toolset_for\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup, create_toolset(), toolset_for(\"https://x.example.com\")])\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &head), ("app/helpers.py", helpers)]);
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "create_toolset()", "added"),
            row("support", "toolset_for()", "added")
        ]
    );
    let object = &find(&doc, "create_toolset()")["after"]["object"];
    assert_eq!(object["host"], "tools.example.com");
    assert_eq!(object["transport"], "sse");
    assert_eq!(
        find(&doc, "create_toolset()")["after"]["object_evidence"]["built_at"],
        "app/helpers.py:6"
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent 'support' binds the MCP server 'toolset_for()', whose host is not read (url); a change to it is not established."]
    );
}

/// Spec: a wrapper built in an imported module is the function it wraps.
#[test]
fn a_wrapper_built_in_an_imported_module_is_followed() {
    let tools = "from google.adk.tools import LongRunningFunctionTool\n\n\ndef approve(ticket: str) -> str:\n    return ticket\n\n\napproval = LongRunningFunctionTool(func=approve)\n";
    let head = agent(
        "from .tools import approval\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"i\", tools=[lookup, approval])\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &head), ("app/tools.py", tools)]);
    assert_eq!(limits(&doc, "head"), Vec::<String>::new());
    assert_eq!(rows(&doc), vec![row("support", "approve", "added")]);
    let steps: Vec<&str> = find(&doc, "approve")["after"]["import_path"][0]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["binding"].as_str())
        .collect();
    assert_eq!(steps, vec!["import", "value", "definition"]);
}

/// The tutorial's shape: `greeting = None`, then `try: greeting =
/// Agent(...)` with a handler that only reports. The name holds that
/// agent or `None`, and `None` lists nothing (ADK refuses it in
/// `sub_agents`), so the sub-agent is that agent (beyond the spec and the
/// reference, which name a name bound twice as a stop).
#[test]
fn a_sub_agent_built_in_a_try_beside_a_none_placeholder_is_read() {
    let team = |tools: &str| {
        agent(&format!(
            "greeting = None\ntry:\n    greeting = Agent(name=\"greeting\", model=\"m\", instruction=\"Greet.\", tools=[{tools}])\nexcept Exception as e:\n    print(f\"no greeting agent: {{e}}\")\n\nroot_agent = Agent(name=\"support\", model=\"gemini-2.0-flash\", instruction=\"Help.\", tools=[lookup], sub_agents=[greeting])\n"
        ))
    };
    let (doc, _) = compare(&[], &[("app/agent.py", &team("lookup"))]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            row("greeting", "lookup", "added"),
            row("support", "handoff:agent.py:greeting", "added")
        ]
    );
    // A second non-None binding is still two bindings: a named stop.
    let twice = team("lookup").replace(
        "except Exception as e:\n",
        "except Exception as e:\n    greeting = Agent(name=\"greeting\", model=\"m\", instruction=\"Greet.\")\n",
    );
    let (doc, _) = compare(&[], &[("app/agent.py", &twice)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("'greeting' is bound more than once in agent.py")),
        "{:?}",
        limits(&doc, "head")
    );
}

/// `name=AGENT_NAME`, a string constant the module binds once before the
/// construction, is the agent's name (the reference names such an agent
/// by its variable). A constant bound twice is not read: the variable
/// stands.
#[test]
fn a_name_from_a_module_constant_is_the_agents_name() {
    let named = |constant: &str, tools: &str| {
        agent(&format!(
            "{constant}root_agent = Agent(name=AGENT_NAME, model=\"m\", instruction=\"i\", tools=[{tools}])\n"
        ))
    };
    let once = "AGENT_NAME = \"bigquery_agent\"\n\n";
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", &named(once, "lookup")),
        ],
        &[("app/agent.py", &named(once, "lookup, refund"))],
        "app",
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("bigquery_agent", "refund", "added")]);
    let twice = "AGENT_NAME = \"bigquery_agent\"\nif FLAG:\n    AGENT_NAME = \"other\"\n\n";
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", &named(twice, "lookup")),
        ],
        &[("app/agent.py", &named(twice, "lookup, refund"))],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("root_agent", "refund", "added")]);
}
