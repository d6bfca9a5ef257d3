//! Regression fixtures shaped like real applications: several agents across
//! packages, handoffs, imported and re-exported tools. Each asserts exactly
//! the rows a careful reviewer would write by hand, and the whole answer is
//! a golden (`tests/goldens/sdk_*`).

mod support;

use support::{row as t, rows, Place, Repo};

const ORDERS: &str = r#""""Order tools."""
import os

import requests
from agents import function_tool

API = os.environ.get("SHOP_API", "https://api.shop.example")


@function_tool
def lookup_order(order_id: str) -> dict:
    """Look up an order."""
    return requests.get(f"{API}/orders/{order_id}", timeout=10).json()


@function_tool
def cancel_order(order_id: str, reason: str = "customer request") -> bool:
    """Cancel an order."""
    return requests.post(f"{API}/orders/{order_id}/cancel", json={"reason": reason}, timeout=10).ok
"#;

const BILLING_V1: &str = r#"from agents import function_tool

from ..settings import LIMIT


@function_tool
def refund(order_id: str, amount: float) -> str:
    """Refund part of an order."""
    if amount > LIMIT:
        return "needs approval"
    return f"refunded {amount} on {order_id}"
"#;

const BILLING_V2: &str = r#"from agents import function_tool

from ..settings import LIMIT


@function_tool
def refund(order_id: str, amount: float) -> str:
    """Refund part of an order (now audited)."""
    if amount > LIMIT * 2:
        return "needs approval"
    return f"refunded {amount} on {order_id}"


@function_tool
def charge(order_id: str, amount: float) -> str:
    """Charge the customer's card."""
    return f"charged {amount} on {order_id}"
"#;

const TRIAGE: &str = r#"from agents import Agent

from ..tools import lookup_order
from .billing_agent import billing

triage = Agent(
    name="Triage",
    instructions="Route the customer to the right specialist.",
    tools=[lookup_order],
    handoffs=[billing],
)
"#;

fn billing_agent(tools: &str) -> String {
    format!(
        "from agents import Agent\n\nfrom ..tools.billing import {tools}\nfrom ..tools.orders import cancel_order\n\nbilling = Agent(\n    name=\"Billing\",\n    instructions=\"Handle refunds and charges.\",\n    tools=[{tools}, cancel_order],\n)\n"
    )
}

#[test]
fn a_support_desk_with_packages_handoffs_and_re_exports() {
    let repo = Repo::new();
    let base_billing_agent = billing_agent("refund");
    repo.commit(
        &[
            ("README.md", Some("# support desk\n")),
            ("desk/__init__.py", Some("")),
            ("desk/settings.py", Some("LIMIT = 100\n")),
            ("desk/tools/__init__.py", Some("from .orders import cancel_order, lookup_order\nfrom .billing import refund\n")),
            ("desk/tools/orders.py", Some(ORDERS)),
            ("desk/tools/billing.py", Some(BILLING_V1)),
            ("desk/agents/__init__.py", Some("")),
            ("desk/agents/billing_agent.py", Some(&base_billing_agent)),
            ("desk/agents/triage.py", Some(TRIAGE)),
            ("desk/main.py", Some("from agents import Runner\n\nfrom .agents.triage import triage\n\n\ndef main(question):\n    return Runner.run_sync(triage, question)\n")),
            ("desk/tests/test_triage.py", Some("from desk.agents.triage import triage\n\n\ndef test_name():\n    assert triage.name == 'Triage'\n")),
        ],
        "support desk",
    );
    repo.git(&["checkout", "-q", "-b", "head"]);
    let head_billing_agent = billing_agent("refund, charge");
    repo.commit(
        &[
            ("desk/tools/billing.py", Some(BILLING_V2)),
            ("desk/agents/billing_agent.py", Some(&head_billing_agent)),
        ],
        "billing can charge; refunds audited",
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "desk"],
    );
    support::golden::check_run(
        "sdk_support_desk",
        &place,
        &repo,
        &["--base", "main", "--head", "head", "--scope", "desk"],
    );
    assert_eq!(
        doc["comparison_status"], "compared",
        "{}",
        doc["head"]["limits"]
    );
    assert_eq!(
        rows(&doc),
        vec![
            t("billing", "charge", "added"),
            t("billing", "refund", "changed")
        ]
    );
    assert_eq!(doc["rows"][0]["agent_source"], "agents/billing_agent.py");
    assert_eq!(
        doc["rows"][0]["after"]["definition"]["source"],
        "desk/tools/billing.py"
    );
    // Spelled relative to the compared scope, as discovery matches them
    // (spec §"Test files"; the reference prints the same).
    assert_eq!(
        doc["head"]["excluded_tests"],
        serde_json::json!(["tests/test_triage.py"])
    );
    let agents: Vec<&str> = doc["head"]["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter_map(|a| a["name"].as_str())
        .collect();
    assert_eq!(agents, vec!["billing", "triage"]);
    // triage → billing handoff and its lookup_order tool are unchanged.
    assert_eq!(doc["head"]["binding_count"], 5);

    // The whole repository as the scope gives the same rows.
    let doc = place.diff_json(&repo, &["--base", "main", "--head", "head", "--scope", "."]);
    assert_eq!(
        rows(&doc),
        vec![
            t("billing", "charge", "added"),
            t("billing", "refund", "changed")
        ]
    );
}

const SEARCH_V1: &str = r#"from agents import function_tool


@function_tool
def web_search(query: str, limit: int = 5) -> list[str]:
    """Search the web."""
    return [query] * limit


@function_tool
def summarize(text: str) -> str:
    """Summarize a text."""
    return text[:200]
"#;

const WRITER_V1: &str = r#"from agents import Agent

import search


def build_writer(style):
    return Agent(instructions=f"Write in a {style} style.", tools=[search.summarize])
"#;

const RESEARCH_V1: &str = r#"from agents import Agent

import search
from writer import build_writer

find = search.web_search

TOOLS = [find, search.summarize]

writer = build_writer("plain")
researcher = Agent(name="Researcher", tools=TOOLS, handoffs=[writer])
"#;

/// A flat application (no packages): a module-level `TOOLS` list, an alias,
/// module-qualified tools, a builder without a literal name (a source
/// label), and a handoff to a builder's result, which is not an agent this
/// reader identifies.
#[test]
fn a_flat_research_assistant_with_lists_aliases_and_labels() {
    let repo = Repo::new();
    repo.commit(
        &[
            ("research/search.py", Some(SEARCH_V1)),
            ("research/writer.py", Some(WRITER_V1)),
            ("research/assistant.py", Some(RESEARCH_V1)),
            ("research/test_assistant.py", Some("import assistant\n")),
        ],
        "research assistant",
    );
    repo.git(&["checkout", "-q", "-b", "head"]);
    // Head: web_search's default changes; summarize moves to its own module
    // with the same text (not a change); the researcher also gets summarize
    // twice through two spellings of one function (one tool).
    let search_v2 = SEARCH_V1
        .replace("limit: int = 5", "limit: int = 10")
        .replace(
            "\n\n@function_tool\ndef summarize(text: str) -> str:\n    \"\"\"Summarize a text.\"\"\"\n    return text[:200]\n",
            "\nfrom summaries import summarize  # noqa: F401\n",
        );
    let summaries = "from agents import function_tool\n\n\n@function_tool\ndef summarize(text: str) -> str:\n    \"\"\"Summarize a text.\"\"\"\n    return text[:200]\n";
    repo.commit(
        &[
            ("research/search.py", Some(&search_v2)),
            ("research/summaries.py", Some(summaries)),
        ],
        "longer searches",
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "research"],
    );
    support::golden::check_run(
        "sdk_research_assistant",
        &place,
        &repo,
        &["--base", "main", "--head", "head", "--scope", "research"],
    );
    assert_eq!(rows(&doc), vec![t("researcher", "web_search", "changed")]);
    let agents: Vec<&str> = doc["head"]["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter_map(|a| a["name"].as_str())
        .collect();
    assert_eq!(agents, vec!["researcher", "build_writer@writer.py"]);
    // Spelled relative to the compared scope, as discovery matches them
    // (spec §"Test files"; the reference prints the same).
    assert_eq!(
        doc["head"]["excluded_tests"],
        serde_json::json!(["test_assistant.py"])
    );
    // The handoff to `writer` (a builder's result) is named, so the answer
    // is partial and no handoff row is invented.
    assert_eq!(doc["comparison_status"], "partial");
    let limits = doc["head"]["limits"].as_array().expect("limits");
    assert_eq!(limits.len(), 1);
    assert!(
        limits[0].as_str().unwrap_or_default().starts_with(
            "OpenAI Agents SDK agent 'researcher' at assistant.py:11 hands off to unresolved agent 'writer'. Not resolved because 'writer' in assistant.py:10 is not an agent this reader identifies"
        ),
        "{limits:?}"
    );
}

const BOT: &str = r#"from agents import Agent, function_tool
from agents.mcp import MCPServerStdio

from common.audit import record  # repository code outside the scope


@function_tool
def greet(name: str) -> str:
    record("greet")
    return f"hello {name}"


files = MCPServerStdio(params={"command": "npx", "args": ["files-server"]})

greeter = Agent(name="Greeter", tools=[greet])
filer = Agent(name="Filer", tools=[greet], mcp_servers=[files])
"#;

/// A service inside a monorepo: an import of the repository's code outside
/// the scope keeps same-module tools established (only cross-module chains
/// pass through it), and an agent's MCP server is read as an object (spec
/// "Tools bound as objects"; the reference, 1.2.0, leaves that agent
/// incomplete and its removed tool `not_established`).
#[test]
fn a_monorepo_service_with_outside_imports_and_mcp_servers() {
    let repo = Repo::new();
    repo.commit(
        &[
            ("common/__init__.py", Some("")),
            (
                "common/audit.py",
                Some("def record(event):\n    print(event)\n"),
            ),
            ("services/bot/__init__.py", Some("")),
            ("services/bot/agent.py", Some(BOT)),
        ],
        "bot",
    );
    repo.git(&["checkout", "-q", "-b", "head"]);
    let head = BOT
        .replace("tools=[greet])\nfiler", "tools=[greet, shout])\nfiler")
        .replace(
            "\n\nfiles = ",
            "\n\n@function_tool\ndef shout(name: str) -> str:\n    return f\"HELLO {name}\"\n\n\nfiles = ",
        )
        .replace("tools=[greet], mcp_servers", "tools=[], mcp_servers");
    repo.commit(
        &[("services/bot/agent.py", Some(&head))],
        "greeter shouts; filer loses greet",
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let args = [
        "--base",
        "main",
        "--head",
        "head",
        "--scope",
        "services/bot",
    ];
    let doc = place.diff_json(&repo, &args);
    support::golden::check_run("sdk_monorepo_service", &place, &repo, &args);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            t("filer", "greet", "removed"),
            t("greeter", "shout", "added")
        ]
    );
    // The unchanged server is no row; the filer binds it on both sides.
    assert_eq!(doc["head"]["binding_count"], 3);
}

const DESK_TOOLS: &str = r#"from agents import function_tool


@function_tool
def lookup_order(order_id: str) -> dict:
    """Look up an order."""
    return {"id": order_id}


@function_tool
def refund_order(order_id: str, amount: float) -> str:
    """Refund part of an order."""
    return f"refunded {amount} on {order_id}"
"#;

const DESK_SERVERS: &str = r#"import os

from agents.mcp import MCPServerSse

DOCS_URL = "https://docs.example.com/sse"

docs = MCPServerSse(
    name="docs",
    params={"url": DOCS_URL, "headers": {"X-API-Key": os.environ["DOCS_KEY"]}},
)
"#;

const DESK_BILLING: &str = r#"from agents import Agent

from ..tools import refund_order

billing = Agent(name="billing", instructions="Refunds only.", tools=[refund_order])
"#;

const DESK_TRIAGE: &str = r#"from agents import Agent, WebSearchTool

from ..servers import docs
from ..tools import lookup_order
from .billing import billing

triage = Agent(
    name="triage",
    instructions="Route the customer.",
    tools=[
        lookup_order,
        WebSearchTool(),
        billing.as_tool(tool_name="ask_billing", tool_description="Ask billing a question."),
    ],
    handoffs=[billing],
    mcp_servers=[docs],
)
"#;

const DESK_MAIN: &str = r#"import asyncio

from agents import Agent, Runner
from agents.mcp import MCPServerStdio

from .crew.triage import triage


async def main() -> None:
    async with MCPServerStdio(params={"command": "uvx", "args": ["mcp-server-fs", "--root", "/srv/desk"]}) as files:
        ops = Agent(name="ops", instructions="Operate.", mcp_servers=[files], handoffs=[triage])
        await Runner.run(ops, "start")


if __name__ == "__main__":
    asyncio.run(main())
"#;

/// A help desk with objects bound beside functions: a hosted tool, an agent
/// as a tool, an MCP server built in another module and one opened with
/// `async with` in `main()` (spec "Tools bound as objects"). The reference,
/// 1.2.0, answers `partial` here with the `billing` row alone: `triage`'s
/// tools list holds objects, so it is "a dynamic tools expression", and it
/// reads no MCP server.
#[test]
fn a_help_desk_with_servers_hosted_tools_and_agents_as_tools() {
    let base = [
        ("desk/__init__.py", ""),
        ("desk/tools.py", DESK_TOOLS),
        ("desk/servers.py", DESK_SERVERS),
        ("desk/crew/__init__.py", ""),
        ("desk/crew/billing.py", DESK_BILLING),
        ("desk/crew/triage.py", DESK_TRIAGE),
        ("desk/main.py", DESK_MAIN),
    ];
    let tools = DESK_TOOLS.replace("f\"refunded {amount}", "f\"refunded {amount:.2f}");
    let servers = DESK_SERVERS.replace(
        "    params=",
        "    tool_filter={\"allowed_tool_names\": [\"search_docs\"]},\n    params=",
    );
    let triage = DESK_TRIAGE.replace("tool_name=\"ask_billing\"", "tool_name=\"billing_help\"");
    let main = DESK_MAIN.replace("/srv/desk", "/srv/desk/v2");
    let head = [
        ("desk/tools.py", tools.as_str()),
        ("desk/servers.py", servers.as_str()),
        ("desk/crew/triage.py", triage.as_str()),
        ("desk/main.py", main.as_str()),
    ];
    let (doc, text) = support::compare_branches_golden("sdk_help_desk", &base, &head, "desk");
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            t("billing", "refund_order", "changed"),
            t("triage", "ask_billing", "removed"),
            t("triage", "billing_help", "added"),
            t("triage", "docs", "changed"),
            t("ops", "files", "changed"),
        ]
    );
    let why: Vec<&str> = doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["why"].as_str())
        .collect();
    // A filter added is a gate added (issue 22), named first.
    assert_eq!(
        why[3],
        "What guards the call changed (tool_filter added (allowed [\"search_docs\"])); the bound object's identity changed (tool_filter); authority direction is not established."
    );
    assert_eq!(
        why[4],
        "The bound object's identity changed (endpoint_sha256); authority direction is not established."
    );
    assert!(
        text.contains("    MCP server (MCPServerSse, sse); host docs.example.com; tool filter [\"search_docs\"]; endpoint digest "),
        "{text}"
    );
    assert!(
        text.contains("      credential: env DOCS_KEY → header X-API-Key\n"),
        "{text}"
    );
    // The desk's agents: ops in main(), by its literal name.
    let agents: Vec<&str> = doc["head"]["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter_map(|a| a["name"].as_str())
        .collect();
    assert_eq!(agents, vec!["billing", "triage", "ops"]);
}
