//! Regression fixtures shaped like real applications: several agents across
//! packages, handoffs, imported and re-exported tools. Each asserts exactly
//! the rows a careful reviewer would write by hand.

mod support;

use support::{rows, Place, Repo};

fn t(agent: &str, tool: &str, change: &str) -> (String, String, String) {
    (agent.into(), tool.into(), change.into())
}

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
    assert_eq!(
        doc["head"]["excluded_tests"],
        serde_json::json!(["desk/tests/test_triage.py"])
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
