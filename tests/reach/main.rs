//! End to end: what a bound tool reaches (issue 8). Each fixture adds tools
//! to an agent that had none, so every row is `added` and its `after` side
//! carries the reach read from the tool's code and its helpers.
//!
//! HTTP reach is checked against the reference (`agents-shipgate diff
//! --application`, 1.2.0) on the same fixture: the `reach` and
//! `effect_evidence` objects below are the ones it printed. Effects beyond
//! HTTP (`reach.effects`: database, process, filesystem, cloud, messaging)
//! are schema 0.4, which the reference does not read (it names each such
//! call as a limit); those assertions follow the spec.

#[path = "../support/mod.rs"]
mod support;

use serde_json::{json, Value};
use support::{compare_branches, row, rows};

const EMPTY: &str = "from agents import Agent\n\nsupport = Agent(name=\"support\", tools=[])\n";

/// Compares the empty agent with `head`; the document must validate
/// against the committed schema.
fn added(head: &str) -> (Value, String) {
    let (doc, text) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[("app/agent.py", head)],
        "app",
    );
    support::schema::assert_valid(&doc);
    (doc, text)
}

fn side<'d>(doc: &'d Value, tool: &str) -> &'d Value {
    doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["tool"] == tool)
        .map(|r| &r["after"])
        .expect("row")
}

const HTTP: &str = r#"import os

import httpx
import requests
from agents import Agent, function_tool

API = "https://api.shop.example"
SESSION = requests.Session()


def _post(path, payload):
    return requests.post(f"{API}{path}", json=payload, headers={"X-Api-Key": os.getenv("SHOP_KEY")})


@function_tool
def refund(order_id: str, amount: float) -> str:
    return _post(f"/orders/{order_id}/refund", {"amount": amount}).text


@function_tool
def status() -> dict:
    with httpx.Client(base_url="https://status.shop.example") as client:
        return client.get("/v1/health").json()


@function_tool
def lookup(order_id: str) -> dict:
    return SESSION.get(f"{API}/orders/{order_id}").json()


support = Agent(name="support", tools=[refund, status, lookup])
"#;

mod as_written;
mod clients;
mod frames;
mod http;
mod spec_examples;
