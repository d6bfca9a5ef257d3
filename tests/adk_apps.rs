//! Regression fixtures shaped like real Google ADK applications (issue 5):
//! a root agent with sub-agents across packages, an agent tool, a toolset,
//! factory-made tools, built-ins and a workflow. Each asserts exactly the
//! rows a careful reviewer would write by hand, and the whole answer is a
//! golden (`tests/goldens/adk_*`).

mod support;

use support::{compare_branches, compare_branches_golden, row as t, rows};

const TRAVEL_TOOLS: &str = r#""""Travel tools."""


def search_flights(origin: str, destination: str, date: str) -> list:
    """Find flights."""
    return []


def book_flight(flight_id: str, passenger: str) -> dict:
    """Book a flight."""
    return {"flight": flight_id, "passenger": passenger}


def search_hotels(city: str, nights: int) -> list:
    """Find hotels."""
    return []
"#;

const TRAVEL_FLIGHTS: &str = r#"from google.adk.agents import LlmAgent

from ..tools import book_flight, search_flights

flights = LlmAgent(
    name="flights",
    model="gemini-2.0-flash",
    instruction="Find and book flights.",
    tools=[search_flights, book_flight],
)
"#;

const TRAVEL_HOTELS: &str = r#"from google.adk.agents import LlmAgent

from ..tools import search_hotels

hotels = LlmAgent(name="hotels", model="gemini-2.0-flash", instruction="Find hotels.", tools=[search_hotels])
"#;

const TRAVEL_ROOT: &str = r#"from google.adk.agents import Agent
from google.adk.tools import google_search
from google.adk.tools.agent_tool import AgentTool

from .crew.flights import flights
from .crew.hotels import hotels

researcher = Agent(name="researcher", model="gemini-2.0-flash", instruction="Research.", tools=[google_search])

root_agent = Agent(
    name="concierge",
    model="gemini-2.0-flash",
    instruction="Plan the trip.",
    tools=[AgentTool(agent=researcher)],
    sub_agents=[flights, hotels],
)
"#;

/// A travel concierge: sub-agents in a `crew` package with tools from a
/// shared module, a researcher exposed as an agent tool. The head drops the
/// hotels sub-agent, lets flights cancel, and changes a search body. The
/// reference (1.2.0) cannot match the cross-module sub-agents and reads no
/// agent tool, so it answers `partial` without the handoff rows.
#[test]
fn a_travel_concierge_with_sub_agents_across_packages() {
    let base = [
        ("travel/__init__.py", ""),
        ("travel/tools.py", TRAVEL_TOOLS),
        ("travel/crew/__init__.py", ""),
        ("travel/crew/flights.py", TRAVEL_FLIGHTS),
        ("travel/crew/hotels.py", TRAVEL_HOTELS),
        ("travel/agent.py", TRAVEL_ROOT),
    ];
    let tools = format!(
        "{}\n\ndef cancel_flight(booking_id: str) -> bool:\n    \"\"\"Cancel a booking.\"\"\"\n    return True\n",
        TRAVEL_TOOLS.replace("return []\n\n\ndef book", "return [origin]\n\n\ndef book")
    );
    let flights = TRAVEL_FLIGHTS
        .replace(
            "book_flight, search_flights",
            "book_flight, cancel_flight, search_flights",
        )
        .replace(
            "tools=[search_flights, book_flight]",
            "tools=[search_flights, book_flight, cancel_flight]",
        );
    let root = TRAVEL_ROOT.replace("sub_agents=[flights, hotels]", "sub_agents=[flights]");
    let head = [
        ("travel/tools.py", tools.as_str()),
        ("travel/crew/flights.py", flights.as_str()),
        ("travel/agent.py", root.as_str()),
    ];
    let (doc, _) = compare_branches_golden("adk_travel_concierge", &base, &head, "travel");
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            t("concierge", "handoff:crew/hotels.py:hotels", "removed"),
            t("flights", "cancel_flight", "added"),
            t("flights", "search_flights", "changed"),
        ]
    );
    let agents: Vec<&str> = doc["head"]["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter_map(|a| a["name"].as_str())
        .collect();
    assert_eq!(agents, vec!["concierge", "researcher", "flights", "hotels"]);
    assert_eq!(doc["head"]["binding_count"], 7);
}

const ANALYST_FACTORIES: &str = r#"from google.adk.tools import FunctionTool

DEFAULT_LIMIT = 100


def make_sql_tool(readonly: bool = True, limit: int = DEFAULT_LIMIT):
    def run_sql(query: str) -> list:
        """Run a SQL query."""
        if readonly and not query.lstrip().lower().startswith("select"):
            raise ValueError("read only")
        return [query, limit]

    return FunctionTool(func=run_sql)


def make_chart_tool():
    def draw_chart(spec: dict) -> str:
        """Draw a chart."""
        return "chart"

    return draw_chart
"#;

const ANALYST_AGENT: &str = r#"from google.adk.agents import LlmAgent
from google.adk.tools.mcp_tool import MCPToolset
from google.adk.tools.mcp_tool.mcp_session_manager import StdioConnectionParams
from mcp import StdioServerParameters

from .factories import make_chart_tool, make_sql_tool

files = MCPToolset(
    connection_params=StdioConnectionParams(
        server_params=StdioServerParameters(command="npx", args=["-y", "@modelcontextprotocol/server-filesystem", "/data"]),
    ),
    tool_filter=["read_file", "list_directory"],
)

sql = make_sql_tool(readonly=True)

root_agent = LlmAgent(
    name="analyst",
    model="gemini-2.0-flash",
    instruction="Answer questions about the data.",
    tools=[sql, make_chart_tool(), files],
)
"#;

/// A data analyst whose tools come from factories, with a filesystem MCP
/// toolset. The head lets the SQL tool write and lets the toolset write
/// files. The reference reads the factories the same way but names the
/// toolset as not enumerable (so it answers `partial`).
#[test]
fn a_data_analyst_with_factory_tools_and_a_toolset() {
    let base = [
        ("analyst/__init__.py", ""),
        ("analyst/factories.py", ANALYST_FACTORIES),
        ("analyst/agent.py", ANALYST_AGENT),
    ];
    let agent = ANALYST_AGENT
        .replace(
            "make_sql_tool(readonly=True)",
            "make_sql_tool(readonly=False)",
        )
        .replace(
            "[\"read_file\", \"list_directory\"]",
            "[\"read_file\", \"list_directory\", \"write_file\"]",
        );
    let (doc, text) = compare_branches_golden(
        "adk_data_analyst",
        &base,
        &[("analyst/agent.py", &agent)],
        "analyst",
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            t("analyst", "files", "changed"),
            t("analyst", "run_sql", "changed")
        ]
    );
    assert!(
        text.contains("    MCP server (MCPToolset, stdio); command npx; tool filter [\"list_directory\", \"read_file\", \"write_file\"]; endpoint digest "),
        "{text}"
    );
    // Re-spelling the SQL call with its defaults written out is no change.
    let spelled = ANALYST_AGENT.replace(
        "make_sql_tool(readonly=True)",
        "make_sql_tool(True, limit=DEFAULT_LIMIT)",
    );
    let spelled = spelled.replace(
        "from .factories import make_chart_tool, make_sql_tool",
        "from .factories import DEFAULT_LIMIT, make_chart_tool, make_sql_tool",
    );
    let (doc, _) = compare_branches(&base, &[("analyst/agent.py", &spelled)], "analyst");
    assert_eq!(rows(&doc), vec![]);
}

const DESK_AGENT: &str = r#"from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.tools import FunctionTool, LongRunningFunctionTool, load_memory


def lookup_ticket(ticket_id: str) -> dict:
    """Find a ticket."""
    return {"id": ticket_id}


def close_ticket(ticket_id: str, note: str) -> bool:
    """Close a ticket."""
    return True


def ask_manager(ticket_id: str, reason: str) -> dict:
    """Ask a manager to approve a refund."""
    return {"status": "pending"}


triage = LlmAgent(
    name="triage",
    model="gemini-2.0-flash",
    instruction="Read the ticket.",
    tools=[FunctionTool(func=lookup_ticket), load_memory],
)

resolver = LlmAgent(
    name="resolver",
    model="gemini-2.0-flash",
    instruction="Resolve the ticket.",
    tools=[FunctionTool(func=close_ticket)],
)

root_agent = SequentialAgent(name="desk", sub_agents=[triage, resolver])
"#;

/// A support desk: a workflow over two LLM agents, wrappers, a built-in and
/// an approval step. The head adds a long-running approval tool to the
/// resolver, drops the memory built-in from triage and changes how tickets
/// close. The reference reads no built-in and no workflow agent: it answers
/// `partial` with the resolver's two rows only.
#[test]
fn a_support_desk_workflow_with_wrappers_and_a_built_in() {
    let base = [("desk/__init__.py", ""), ("desk/agent.py", DESK_AGENT)];
    let head = DESK_AGENT
        .replace(
            "tools=[FunctionTool(func=lookup_ticket), load_memory]",
            "tools=[FunctionTool(func=lookup_ticket)]",
        )
        .replace(
            "tools=[FunctionTool(func=close_ticket)]",
            "tools=[FunctionTool(func=close_ticket), LongRunningFunctionTool(func=ask_manager)]",
        )
        .replace("    return True\n", "    return bool(note)\n");
    let (doc, _) = compare_branches_golden(
        "adk_support_desk",
        &base,
        &[("desk/agent.py", &head)],
        "desk",
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            t("resolver", "ask_manager", "added"),
            t("resolver", "close_ticket", "changed"),
            t("triage", "load_memory", "removed"),
        ]
    );
    // The workflow binds both steps on both sides: no rows for it.
    assert_eq!(doc["head"]["binding_count"], 5);
}
