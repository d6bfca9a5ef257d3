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
    let schema: Value = serde_json::from_str(include_str!(
        "../docs/application-comparison-0.4.schema.json"
    ))
    .expect("schema");
    assert_eq!(
        support::schema::validate(&schema, &doc),
        Vec::<String>::new()
    );
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

/// A helper's request is read through the call (its URL and body as the
/// tool passes them), a client the function builds can support `read`, and
/// a module-level client is read but named: anything may configure it.
#[test]
fn http_calls_are_read_through_helpers_and_clients() {
    let (doc, text) = added(HTTP);
    assert_eq!(
        side(&doc, "refund")["reach"],
        json!({"calls": [{"library": "requests", "method": "POST", "url": "https://api.shop.example/orders/{order_id}/refund", "effect": "write", "at": "app/agent.py:12", "via": ["app/agent.py:17 _post"], "fields": [{"field": "amount", "from": ["amount"]}], "credential_sources": [{"header": "X-Api-Key", "env": ["SHOP_KEY"]}], "model_supplied": [{"param": "amount", "into": "field amount"}, {"param": "order_id", "into": "url"}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:12", "method": "POST", "url": "https://api.shop.example/orders/{order_id}/refund"}]})
    );
    assert_eq!(
        side(&doc, "refund")["effect_evidence"],
        json!({"conservative_effect": "write", "status": "structural", "claims": [{"value": "write", "source": "source_http_call", "basis": "protocol_structure", "at": "app/agent.py:12"}]})
    );
    assert_eq!(
        side(&doc, "status")["reach"],
        json!({"calls": [{"library": "httpx", "method": "GET", "url": "https://status.shop.example/v1/health", "effect": "read", "at": "app/agent.py:23", "via": []}], "limits": [], "effect": "read", "effect_claims": [{"effect": "read", "at": "app/agent.py:21", "calls": 1}]})
    );
    assert_eq!(
        side(&doc, "lookup")["reach"],
        json!({"calls": [{"library": "requests", "method": "GET", "url": "https://api.shop.example/orders/{order_id}", "effect": "read", "at": "app/agent.py:28", "via": [], "model_supplied": [{"param": "order_id", "into": "url"}]}], "limits": [{"at": "app/agent.py:28", "why": "sends through SESSION, built outside this function; its configuration is not read"}], "effect": null, "effect_claims": []})
    );
    assert_eq!(
        side(&doc, "lookup")["effect_evidence"],
        json!({"conservative_effect": "write", "status": "unknown", "claims": []})
    );
    // The text lays them out as the contract's §4.3 does.
    for line in [
        "    reaches: POST https://api.shop.example/orders/{order_id}/refund at app/agent.py:12 via app/agent.py:17 _post\n      model-supplied: amount → field amount; order_id → url\n      credential: env SHOP_KEY → header X-Api-Key\n    effect: write (structural evidence: outbound call at app/agent.py:12)\n",
        "    reaches: GET https://status.shop.example/v1/health at app/agent.py:23\n    effect: read (structural evidence: every call was followed, and every outbound call reads)\n",
        "    effect: write (provisional: unknown effect)\n    reach limit: app/agent.py:28 sends through SESSION, built outside this function; its configuration is not read\n",
    ] {
        assert!(text.contains(line), "{line}\n---\n{text}");
    }
}

/// Reach is evidence, not compared meaning: a helper's endpoint that
/// changes leaves the tool's row alone (no row), while the sides' reach
/// still says what it calls now.
#[test]
fn a_changed_endpoint_in_a_helper_makes_no_row() {
    let base = HTTP.to_string();
    let head = HTTP.replace("f\"{API}{path}\"", "f\"{API}/v2{path}\"");
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &base)],
        &[("app/agent.py", &head)],
        "app",
    );
    assert_eq!(rows(&doc), Vec::<(String, String, String)>::new());
}

const EFFECTS: &str = r#"import os
import shutil
import smtplib
import sqlite3
import subprocess
from pathlib import Path

import boto3
import somelib
from agents import Agent, function_tool


class Api:
    def post(self, path):
        return path


def level4(x):
    return somelib.go(x)


def level3(x):
    return level4(x)


def level2(x):
    return level3(x)


def level1(x):
    return level2(x)


@function_tool
def orders_today() -> list:
    conn = sqlite3.connect("shop.db")
    cur = conn.cursor()
    cur.execute("SELECT id FROM orders WHERE day = date('now')")
    return cur.fetchall()


@function_tool
def purge(order_id: str) -> str:
    conn = sqlite3.connect("shop.db")
    conn.execute("DELETE FROM orders WHERE id = ?", (order_id,))
    conn.commit()
    return "ok"


@function_tool
def backup() -> str:
    conn = sqlite3.connect("shop.db")
    conn.execute("SELECT * INTO orders_copy FROM orders")
    return "ok"


@function_tool
def run_report(name: str) -> str:
    return subprocess.run(["/usr/bin/report", name], capture_output=True, text=True).stdout


@function_tool
def save_note(note: str) -> str:
    with open("notes/today.txt", "a") as f:
        f.write(note)
    return "saved"


@function_tool
def cleanup(folder: str) -> str:
    shutil.rmtree(folder)
    Path("state/last.txt").write_text(folder)
    return "done"


@function_tool
def archive(name: str) -> str:
    s3 = boto3.client("s3")
    s3.put_object(Bucket="reports", Key=name, Body=b"")
    return "ok"


@function_tool
def mail(to: str, body: str) -> str:
    smtp = smtplib.SMTP("smtp.shop.example")
    smtp.sendmail("bot@shop.example", [to], body)
    return "sent"


@function_tool
def wrapped(path: str) -> str:
    api = Api()
    return api.post(path)


@function_tool
def deep(x: str) -> str:
    return level1(x)


support = Agent(name="support", tools=[orders_today, purge, backup, run_report, save_note, cleanup, archive, mail, wrapped, deep])
"#;

/// Effects beyond HTTP, by import identity: the statement's keyword
/// decides a database read or write (a `SELECT … INTO` writes), a process
/// names its program, a file its mode; cloud and messaging methods by
/// their tables. Each writing effect is a `source_library_call` claim.
#[test]
fn effects_beyond_http_are_read_by_library() {
    let (doc, text) = added(EFFECTS);
    assert_eq!(rows(&doc).len(), 10);
    assert_eq!(rows(&doc)[0], row("support", "archive", "added"));
    let effect = |tool: &str| side(&doc, tool)["reach"]["effects"][0].clone();
    let pick = |v: Value, keys: &[&str]| -> Value {
        Value::Object(
            keys.iter()
                .filter_map(|k| v.get(*k).map(|x| (k.to_string(), x.clone())))
                .collect(),
        )
    };
    let keys = [
        "family",
        "operation",
        "library",
        "call",
        "at",
        "target",
        "statement",
        "service",
        "host",
    ];
    assert_eq!(
        pick(effect("orders_today"), &keys),
        json!({"family": "database", "operation": "read", "library": "sqlite3", "call": "cursor.execute", "at": "app/agent.py:38", "statement": "SELECT", "service": "sqlite"})
    );
    assert_eq!(side(&doc, "orders_today")["reach"]["effect"], "read");
    assert_eq!(
        pick(effect("purge"), &keys),
        json!({"family": "database", "operation": "write", "library": "sqlite3", "call": "connection.execute", "at": "app/agent.py:45", "statement": "DELETE", "service": "sqlite"})
    );
    assert_eq!(
        effect("purge")["model_supplied"],
        json!([{"param": "order_id", "into": "statement"}])
    );
    assert_eq!(effect("backup")["operation"], "write");
    assert_eq!(
        pick(effect("run_report"), &keys),
        json!({"family": "process", "operation": "execute", "library": "subprocess", "call": "subprocess.run", "at": "app/agent.py:59", "target": "report"})
    );
    assert_eq!(
        side(&doc, "run_report")["effect_evidence"]["claims"],
        json!([{"value": "code_execution", "source": "source_library_call", "basis": "library_identity", "at": "app/agent.py:59"}])
    );
    assert_eq!(
        pick(effect("save_note"), &keys),
        json!({"family": "filesystem", "operation": "write", "library": "builtins", "call": "open", "at": "app/agent.py:64", "target": "notes/today.txt"})
    );
    assert_eq!(
        side(&doc, "cleanup")["reach"]["effects"][1]["call"],
        "Path.write_text"
    );
    assert_eq!(
        pick(effect("archive"), &keys),
        json!({"family": "cloud", "operation": "write", "library": "boto3", "call": "client.put_object", "at": "app/agent.py:79", "target": "reports", "service": "s3"})
    );
    assert_eq!(
        pick(effect("mail"), &keys),
        json!({"family": "messaging", "operation": "write", "library": "smtplib", "call": "smtp.sendmail", "at": "app/agent.py:86", "service": "smtp", "host": "smtp.shop.example"})
    );
    assert_eq!(
        side(&doc, "mail")["effect_evidence"]["claims"][0]["value"],
        "external_communication"
    );
    // A repository class that wraps a library is not followed into (the
    // reference names only the construction; the spec names the method
    // called on its instance too), and a helper past three calls is named,
    // not read.
    assert_eq!(
        side(&doc, "wrapped")["reach"]["limits"],
        json!([{"at": "app/agent.py:92", "why": "calls Api ('Api' in agent.py:13 is a class, not a function definition), which is not read"}, {"at": "app/agent.py:93", "why": "calls api.post, which is not read"}])
    );
    assert_eq!(
        side(&doc, "deep")["reach"]["limits"],
        json!([{"at": "app/agent.py:23", "why": "calls level4, more than 3 helper calls from the tool; not read"}])
    );
    assert_eq!(
        side(&doc, "deep")["effect_evidence"]["status"],
        "unknown",
        "a limit keeps a tool from reading"
    );
    for line in [
        "    reaches: database read SELECT (sqlite, sqlite3 cursor.execute) at app/agent.py:38\n    effect: read (structural evidence)\n",
        "    reaches: process execute report (subprocess subprocess.run) at app/agent.py:59\n      model-supplied: name → command\n",
        "    reaches: messaging write (smtp, smtplib smtp.sendmail) at app/agent.py:86\n      host: smtp.shop.example\n",
        "    reach limit: app/agent.py:23 calls level4, more than 3 helper calls from the tool; not read\n",
    ] {
        assert!(text.contains(line), "{line}\n---\n{text}");
    }
    // The finding names the new reach first.
    assert!(
        text.contains("new reach: cloud write, database write, filesystem write, messaging write, database read, process execute; not read beyond app/agent.py:23"),
        "{text}"
    );
}

const RULES: &str = r#"import os
from urllib.request import Request, urlopen

import requests
from agents import Agent, function_tool


def _audit(response, *args, **kwargs):
    requests.post("https://audit.example.com/log", json={"status": response.status_code})


@function_tool
def put_doc(doc_id: str, body: str) -> str:
    req = Request(f"https://docs.example.com/v1/docs/{doc_id}", data=body.encode(), method="PUT")
    with urlopen(req) as resp:
        return resp.read().decode()


@function_tool
def audited(item_id: str) -> dict:
    return requests.get(f"https://api.example.com/items/{item_id}", hooks={"response": [_audit]}).json()


@function_tool
def remove(item_id: str, hard: bool) -> str:
    verb = "DELETE" if hard else "PATCH"
    return requests.request(verb, f"https://api.example.com/items/{item_id}").text


@function_tool
def ask(document: str) -> dict:
    return requests.post("https://api.example.com/graphql", json={"query": document}).json()


@function_tool
def search(q: str) -> dict:
    return requests.get("https://api.example.com/search?q=hello&token=abcDEF123456&since=2024-01-01").json()


@function_tool
def notify(chat_id: str, text: str) -> str:
    url = f"https://api.telegram.org/bot{os.environ['TG_TOKEN']}/sendMessage"
    return requests.post(url, json={"chat_id": chat_id, "text": text}).text


@function_tool
def me() -> dict:
    return requests.get(f"https://{os.environ['SVC_USER']}:{os.environ['SVC_PASS']}@api.example.com/v1/me").json()


support = Agent(name="support", tools=[put_doc, audited, remove, ask, search, notify, me])
"#;

/// The HTTP rules the reference reads, on the cases a looser reader gets
/// wrong: a request the function builds and opens (PUT, not a read), a
/// hook that runs on the response (its POST makes the tool write), a
/// method chosen by a condition, a GraphQL document that is not a literal
/// (no effect), and the shapes that are withheld (a token in the query, a
/// bot URL's path, credentials in the userinfo). Each `reach` object is the
/// one the reference printed for the same source.
#[test]
fn http_rules_match_the_reference() {
    let (doc, _) = added(RULES);
    let reach = |tool: &str| side(&doc, tool)["reach"].clone();
    assert_eq!(
        reach("put_doc"),
        json!({"calls": [{"library": "urllib", "method": "PUT", "url": "https://docs.example.com/v1/docs/{doc_id}", "effect": "write", "at": "app/agent.py:15", "via": [], "fields": [{"field": null, "from": ["body"]}], "model_supplied": [{"param": "body", "into": "body"}, {"param": "doc_id", "into": "url"}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:15", "method": "PUT", "url": "https://docs.example.com/v1/docs/{doc_id}"}]})
    );
    assert_eq!(
        reach("audited"),
        json!({"calls": [{"library": "requests", "method": "GET", "url": "https://api.example.com/items/{item_id}", "effect": "read", "at": "app/agent.py:21", "via": [], "model_supplied": [{"param": "item_id", "into": "url"}]}, {"library": "requests", "method": "POST", "url": "https://audit.example.com/log", "effect": "write", "at": "app/agent.py:9", "via": ["app/agent.py:21 _audit"], "fields": [{"field": "status", "computed": true}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:9", "method": "POST", "url": "https://audit.example.com/log"}]})
    );
    assert_eq!(
        reach("remove"),
        json!({"calls": [{"library": "requests", "method": "DELETE|PATCH", "url": "https://api.example.com/items/{item_id}", "effect": "destructive", "at": "app/agent.py:27", "via": [], "model_supplied": [{"param": "hard", "into": "method"}, {"param": "item_id", "into": "url"}]}], "limits": [], "effect": "destructive", "effect_claims": [{"effect": "destructive", "at": "app/agent.py:27", "method": "DELETE|PATCH", "url": "https://api.example.com/items/{item_id}"}]})
    );
    assert_eq!(
        reach("ask"),
        json!({"calls": [{"library": "requests", "method": "POST", "url": "https://api.example.com/graphql", "graphql": "unknown", "effect": null, "at": "app/agent.py:32", "via": [], "fields": [{"field": "query", "from": ["document"]}], "model_supplied": [{"param": "document", "into": "field query"}]}], "limits": [{"at": "app/agent.py:32", "why": "the GraphQL document is not a literal; its operation is not read"}], "effect": null, "effect_claims": []})
    );
    assert_eq!(side(&doc, "ask")["effect_evidence"]["status"], "unknown");
    assert_eq!(
        reach("search")["calls"][0]["url"],
        "https://api.example.com/search?q=hello&token=[REDACTED:sensitive_field]&since=2024-01-01"
    );
    assert_eq!(
        reach("notify")["calls"][0]["url"],
        "https://api.telegram.org/[REDACTED:sensitive_field]/sendMessage"
    );
    assert_eq!(
        reach("me")["calls"][0],
        json!({"library": "requests", "method": "GET", "url": "https://[REDACTED:sensitive_field]@api.example.com/v1/me", "effect": "read", "at": "app/agent.py:48", "via": [], "credential_sources": [{"userinfo": null, "env": ["SVC_PASS", "SVC_USER"]}]})
    );
}

const CONFIG: &str = r#"CRM = "https://crm.example.com/api"
ROUTES = {"tickets": "https://desk.example.com/tickets"}
"#;

const MORE: &str = r##"from typing import Any

import aiohttp
import psycopg2
import redis
import requests
from agents import Agent, RunContextWrapper, function_tool
from slack_sdk import WebClient

from .config import CRM, ROUTES


@function_tool
async def contact(ctx: RunContextWrapper[Any], email: str, tier: str) -> dict:
    async with aiohttp.ClientSession() as session:
        async with session.post(
            f"{CRM}/contacts",
            json={"email": email, "plan": "gold", "seats": 5, "password": "hunter22", "level": "high" if tier else "low"},
            headers={"Authorization": "Bearer sk-live-abc123"},
        ) as resp:
            return await resp.json()


@function_tool
def viewer() -> dict:
    return requests.post("https://api.example.com/graphql", json={"query": "query { viewer { id } }"}).json()


@function_tool
def rename(name: str) -> dict:
    return requests.post("https://api.example.com/graphql", json={"query": "mutation { rename(name: $name) { id } }", "variables": {"name": name}}).json()


@function_tool
def ticket(title: str) -> str:
    return requests.post(ROUTES["tickets"], json={"title": title}).text


@function_tool
def cache(key: str) -> str:
    r = redis.Redis(host="cache.internal")
    r.set(key, "1")
    return "ok"


@function_tool
def announce(text: str) -> str:
    client = WebClient(token="xoxb-literal")
    client.chat_postMessage(channel="#ops", text=text)
    return "ok"


@function_tool
def count_orders() -> int:
    conn = psycopg2.connect("dbname=shop")
    cur = conn.cursor()
    cur.execute("SELECT count(*) FROM orders")
    return cur.fetchone()[0]


support = Agent(name="support", tools=[contact, viewer, rename, ticket, cache, announce, count_orders])
"##;

/// More of the rules, each checked against what the reference printed for
/// the same source where it reads HTTP (`contact`, `viewer`, `rename`):
/// an aiohttp session, a constant imported from another module, field
/// facts (a printable word and number, a secret-named field, a choice and
/// the parameter deciding it), a literal credential never printed, a
/// framework-injected context left out of what the model supplies, and
/// GraphQL queries and mutations by their literal document. Beyond the
/// reference (spec): a URL read out of a module-level dict is named, and
/// effects through redis, Slack and psycopg2 are read, with the
/// credentials a client is built with, by name.
#[test]
fn more_rules_read_as_the_spec_says() {
    let (doc, text) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[("app/agent.py", MORE), ("app/config.py", CONFIG)],
        "app",
    );
    let reach = |tool: &str| side(&doc, tool)["reach"].clone();
    assert_eq!(
        reach("contact"),
        json!({"calls": [{"library": "aiohttp", "method": "POST", "url": "https://crm.example.com/api/contacts", "effect": "write", "at": "app/agent.py:16", "via": [], "fields": [{"field": "email", "from": ["email"]}, {"field": "plan", "value": "gold"}, {"field": "seats", "value": 5}, {"field": "password", "literal": true}, {"field": "level", "values": ["high", "low"], "decided_by": ["tier"]}], "credential_sources": [{"header": "Authorization", "literal": true}, {"field": "password", "literal": true}], "model_supplied": [{"param": "email", "into": "field email"}, {"param": "tier", "into": "field level"}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:16", "method": "POST", "url": "https://crm.example.com/api/contacts"}]})
    );
    // The literal secrets are never printed, in the JSON or the text.
    let printed = serde_json::to_string(&doc).expect("json");
    for secret in ["sk-live-abc123", "hunter22", "xoxb-literal"] {
        assert!(!printed.contains(secret), "{secret}");
        assert!(!text.contains(secret), "{secret}");
    }
    assert_eq!(reach("viewer")["calls"][0]["graphql"], "query");
    assert_eq!(reach("viewer")["effect"], "read");
    assert_eq!(reach("rename")["calls"][0]["graphql"], "mutation");
    assert_eq!(reach("rename")["effect"], "write");
    assert_eq!(
        reach("ticket")["limits"],
        json!([{"at": "app/agent.py:36", "why": "reads ROUTES[…] out of a module-level dict, which is not taken as written"}])
    );
    assert_eq!(
        reach("cache")["effects"][0],
        json!({"family": "database", "operation": "write", "library": "redis", "call": "redis.set", "at": "app/agent.py:42", "via": [], "service": "redis", "host": "cache.internal", "model_supplied": [{"param": "key", "into": "arguments"}]})
    );
    assert_eq!(
        reach("announce")["effects"][0]["credential_sources"],
        json!([{"keyword": "token", "literal": true}])
    );
    assert_eq!(
        side(&doc, "announce")["effect_evidence"]["claims"][0]["value"],
        "external_communication"
    );
    assert_eq!(reach("count_orders")["effects"][0]["service"], "postgresql");
    assert_eq!(reach("count_orders")["effect"], "read");
    assert!(
        text.contains("      credential: a literal (not printed) → keyword token\n"),
        "{text}"
    );
}

/// A store into an HTTP library anywhere in the scope is a limit on every
/// tool that sends: what a request carries is then not established.
#[test]
fn a_patched_http_library_is_named_on_every_tool_that_sends() {
    let patch = "import requests\n\n\ndef logged_get(*args, **kwargs):\n    return None\n\n\nrequests.get = logged_get\n";
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[("app/agent.py", HTTP), ("app/patches.py", patch)],
        "app",
    );
    let why = "patches requests.get, so what the HTTP library sends is not established";
    for tool in ["refund", "status", "lookup"] {
        let limits = side(&doc, tool)["reach"]["limits"].clone();
        assert!(
            limits
                .as_array()
                .expect("limits")
                .iter()
                .any(|l| l["why"] == why && l["at"] == "app/patches.py:8"),
            "{tool}: {limits}"
        );
    }
    // A limit keeps `status` from reading; `refund` still writes.
    assert_eq!(side(&doc, "status")["reach"]["effect"], Value::Null);
    assert_eq!(side(&doc, "refund")["reach"]["effect"], "write");
}

const SERVICES: &str = r##"import os

from agents import Agent, function_tool
from google.cloud import bigquery, firestore, storage
from pymongo import MongoClient
from sqlalchemy import create_engine, text
from twilio.rest import Client


@function_tool
def upload(name: str, body: str) -> str:
    client = storage.Client()
    bucket = client.bucket("reports")
    blob = bucket.blob(name)
    blob.upload_from_string(body)
    return "ok"


@function_tool
def fetch(name: str) -> str:
    client = storage.Client()
    return client.bucket("reports").blob(name).download_as_text()


@function_tool
def save_profile(user_id: str, data: dict) -> str:
    db = firestore.Client()
    db.collection("profiles").document(user_id).set(data)
    return "ok"


@function_tool
def top_sales() -> list:
    client = bigquery.Client()
    return list(client.query("SELECT sku FROM sales ORDER BY total DESC LIMIT 5"))


@function_tool
def orders(email: str) -> list:
    client = MongoClient(os.environ["MONGO_URL"])
    coll = client["shop"]["orders"]
    return list(coll.find({"email": email}))


@function_tool
def archive_old() -> int:
    engine = create_engine("postgresql+psycopg2://shop@db/shop")
    with engine.connect() as conn:
        conn.execute(text("DELETE FROM orders WHERE created < now() - interval '1 year'"))
    return 0


@function_tool
def text_customer(to: str, body: str) -> str:
    client = Client(os.environ["TWILIO_SID"], os.environ["TWILIO_TOKEN"])
    client.messages.create(to=to, from_="+15550000", body=body)
    return "sent"


support = Agent(name="support", tools=[upload, fetch, save_profile, top_sales, orders, archive_old, text_customer])
"##;

/// Cloud, database and messaging clients by their tables (spec "What a
/// bound tool reaches beyond HTTP"): handles a client hands back (a
/// bucket, a blob, a collection, a connection) keep the service, a SQL
/// statement decides through SQLAlchemy and BigQuery as through a
/// database driver. The reference (1.2.0) names each of these calls as a
/// limit.
#[test]
fn cloud_database_and_messaging_clients_are_read_by_their_tables() {
    let (doc, _) = added(SERVICES);
    let effect = |tool: &str| -> (String, String, String, String, String) {
        let e = &side(&doc, tool)["reach"]["effects"][0];
        let text = |k: &str| e[k].as_str().unwrap_or("-").to_string();
        (
            text("family"),
            text("operation"),
            text("call"),
            text("statement"),
            text("service"),
        )
    };
    let row = |a: &str, b: &str, c: &str, d: &str, e: &str| {
        (
            a.to_string(),
            b.to_string(),
            c.to_string(),
            d.to_string(),
            e.to_string(),
        )
    };
    assert_eq!(
        effect("upload"),
        row(
            "cloud",
            "write",
            "storage.upload_from_string",
            "-",
            "storage"
        )
    );
    assert_eq!(
        effect("fetch"),
        row("cloud", "read", "storage.download_as_text", "-", "storage")
    );
    assert_eq!(
        effect("save_profile"),
        row("cloud", "write", "firestore.set", "-", "firestore")
    );
    assert_eq!(
        effect("top_sales"),
        row("database", "read", "client.query", "SELECT", "bigquery")
    );
    assert_eq!(
        effect("orders"),
        row("database", "read", "collection.find", "-", "mongodb")
    );
    assert_eq!(
        effect("archive_old"),
        row(
            "database",
            "write",
            "connection.execute",
            "DELETE",
            "postgresql"
        )
    );
    assert_eq!(
        effect("text_customer"),
        row("messaging", "write", "messages.create", "-", "twilio")
    );
    for tool in [
        "upload",
        "fetch",
        "save_profile",
        "top_sales",
        "orders",
        "archive_old",
        "text_customer",
    ] {
        assert_eq!(side(&doc, tool)["reach"]["limits"], json!([]), "{tool}");
    }
    assert_eq!(side(&doc, "fetch")["reach"]["effect"], "read");
    assert_eq!(side(&doc, "archive_old")["reach"]["effect"], "write");
}

/// A module constant or function the scope rebinds as a module attribute
/// (`config.API = …`, `helpers.post = purge`) is not taken as written: the
/// URL part is `{…}` and the helper is a named limit.
#[test]
fn names_the_scope_rebinds_are_not_taken_as_written() {
    let config = "API = \"https://api.example.com\"\n";
    let helpers = "import requests\n\n\ndef post(path):\n    return requests.post(path)\n";
    let agent = "from agents import Agent, function_tool\nimport requests\n\nfrom . import config, helpers\n\n\n@function_tool\ndef ping() -> str:\n    return requests.get(config.API + \"/ping\").text\n\n\n@function_tool\ndef send(path: str) -> str:\n    return helpers.post(path).text\n\n\nsupport = Agent(name=\"support\", tools=[ping, send])\n";
    let patch = "from . import config, helpers\n\n\ndef purge(path):\n    return path\n\n\nconfig.API = \"https://evil.example.com\"\nhelpers.post = purge\n";
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[
            ("app/agent.py", agent),
            ("app/config.py", config),
            ("app/helpers.py", helpers),
            ("app/setup.py", patch),
        ],
        "app",
    );
    assert_eq!(side(&doc, "ping")["reach"]["calls"][0]["url"], "{…}/ping");
    assert_eq!(
        side(&doc, "send")["reach"]["limits"],
        json!([{"at": "app/agent.py:14", "why": "calls helpers.post, which the scope rebinds as a module attribute; not read"}])
    );
    // Without the rebinding module, both are read as written.
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[
            ("app/agent.py", agent),
            ("app/config.py", config),
            ("app/helpers.py", helpers),
        ],
        "app",
    );
    assert_eq!(
        side(&doc, "ping")["reach"]["calls"][0]["url"],
        "https://api.example.com/ping"
    );
    assert_eq!(
        side(&doc, "send")["reach"]["calls"][0]["via"],
        json!(["app/agent.py:14 post"])
    );
}

/// What a helper returns is read: a connection a repository helper builds
/// is still a database (named, since it is built outside the tool), and an
/// aggregation that ends in `$out` writes.
#[test]
fn a_connection_a_helper_returns_and_an_aggregation_that_writes() {
    let agent = "import sqlite3\n\nfrom agents import Agent, function_tool\nfrom pymongo import MongoClient\n\n\ndef get_conn():\n    return sqlite3.connect(\"shop.db\")\n\n\n@function_tool\ndef count() -> int:\n    conn = get_conn()\n    return conn.execute(\"SELECT count(*) FROM orders\").fetchone()[0]\n\n\n@function_tool\ndef snapshot() -> str:\n    client = MongoClient()\n    orders = client[\"shop\"][\"orders\"]\n    orders.aggregate([{\"$match\": {}}, {\"$out\": \"orders_copy\"}])\n    return \"ok\"\n\n\nsupport = Agent(name=\"support\", tools=[count, snapshot])\n";
    let (doc, _) = added(agent);
    let count = &side(&doc, "count")["reach"];
    assert_eq!(count["effects"][0]["operation"], "read");
    assert_eq!(count["effects"][0]["statement"], "SELECT");
    assert_eq!(
        count["limits"],
        json!([{"at": "app/agent.py:14", "why": "sends through conn, built by get_conn outside this function; its configuration is not read"}])
    );
    let snapshot = &side(&doc, "snapshot")["reach"];
    assert_eq!(snapshot["effects"][0]["call"], "collection.aggregate");
    assert_eq!(snapshot["effects"][0]["operation"], "write");
    assert_eq!(snapshot["effect"], "write");
}

/// Where a database statement goes is read off the connection: its host,
/// and its credentials by name (a connection string's password is a
/// literal, never printed).
#[test]
fn a_connection_names_its_host_and_credentials() {
    let agent = "import os\n\nimport psycopg2\nfrom agents import Agent, function_tool\n\n\n@function_tool\ndef count() -> int:\n    conn = psycopg2.connect(host=\"db.internal\", password=os.environ[\"DB_PASSWORD\"])\n    cur = conn.cursor()\n    cur.execute(\"SELECT count(*) FROM orders\")\n    return cur.fetchone()[0]\n\n\n@function_tool\ndef purge() -> int:\n    conn = psycopg2.connect(\"postgresql://shop:s3cret-pw@db.example.com:5432/shop\")\n    conn.cursor().execute(\"DELETE FROM carts\")\n    return 0\n\n\nsupport = Agent(name=\"support\", tools=[count, purge])\n";
    let (doc, text) = added(agent);
    let count = &side(&doc, "count")["reach"]["effects"][0];
    assert_eq!(count["host"], "db.internal");
    assert_eq!(
        count["credential_sources"],
        json!([{"keyword": "password", "env": ["DB_PASSWORD"]}])
    );
    let purge = &side(&doc, "purge")["reach"];
    assert!(
        !serde_json::to_string(&doc)
            .expect("json")
            .contains("s3cret-pw")
            && !text.contains("s3cret-pw")
    );
    // `conn.cursor().execute(...)` on a connection the tool builds.
    assert_eq!(purge["effects"][0]["statement"], "DELETE");
    assert_eq!(purge["effects"][0]["host"], "db.example.com");
    assert_eq!(
        purge["effects"][0]["credential_sources"],
        json!([{"keyword": "dsn", "literal": true}])
    );
}

/// A call that installs or instruments the HTTP stack anywhere in the
/// scope is a limit on every tool that sends.
#[test]
fn installing_an_http_stack_is_named_on_every_tool_that_sends() {
    let setup =
        "import urllib.request\n\nurllib.request.install_opener(urllib.request.build_opener())\n";
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[("app/agent.py", HTTP), ("app/setup.py", setup)],
        "app",
    );
    let why = "calls urllib.request.install_opener, which installs or instruments the HTTP stack, so what a request sends is not established";
    let limits = side(&doc, "status")["reach"]["limits"].clone();
    assert!(
        limits
            .as_array()
            .expect("limits")
            .iter()
            .any(|l| l["why"] == why && l["at"] == "app/setup.py:3"),
        "{limits}"
    );
    assert_eq!(side(&doc, "status")["reach"]["effect"], Value::Null);
}

/// What a tool sets on a client or request after building it is read:
/// headers (`s.headers.update(...)`, `s.headers[k] = v`) and auth pairs
/// as credentials, a function set as auth (`session.auth = sign`) as
/// called where it is set, data set on a request as its body. Anything
/// else set on a client (`session.request = send`) is a limit. Each
/// `reach` object is the one the reference printed for the same source.
#[test]
fn changes_to_a_client_or_request_after_it_is_built_are_read() {
    let (doc, _) = added(AFTER_BUILD);
    let reach = |tool: &str| side(&doc, tool)["reach"].clone();
    assert_eq!(
        reach("items"),
        json!({"calls": [{"library": "requests", "method": "GET", "url": "https://api.example.com/items", "effect": "read", "at": "app/agent.py:22", "via": [], "credential_sources": [{"auth": null, "computed": true}]}, {"library": "requests", "method": "POST", "url": "https://audit.example.com", "effect": "write", "at": "app/agent.py:9", "via": ["app/agent.py:20 sign"]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:9", "method": "POST", "url": "https://audit.example.com"}]})
    );
    assert_eq!(
        reach("users"),
        json!({"calls": [{"library": "requests", "method": "GET", "url": "https://api.example.com/users/{user_id}", "effect": "read", "at": "app/agent.py:31", "via": [], "credential_sources": [{"header": "Authorization", "env": ["USERS_TOKEN"]}, {"header": "X-Api-Key", "env": ["USERS_KEY"]}, {"auth": null, "env": ["SVC_PASS", "SVC_USER"]}], "model_supplied": [{"param": "user_id", "into": "url"}]}], "limits": [], "effect": "read", "effect_claims": [{"effect": "read", "at": "app/agent.py:26", "calls": 1}]})
    );
    assert_eq!(
        reach("relay"),
        json!({"calls": [{"library": "requests", "method": "GET", "url": "https://api.example.com/relay", "effect": "read", "at": "app/agent.py:38", "via": []}], "limits": [{"at": "app/agent.py:37", "why": "sets session.request on a client, which is not read"}], "effect": null, "effect_claims": []})
    );
    assert_eq!(
        reach("poke"),
        json!({"calls": [{"library": "urllib", "method": "POST", "url": "https://api.example.com/poke", "effect": "write", "at": "app/agent.py:45", "via": [], "fields": [{"field": null, "literal": true}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:45", "method": "POST", "url": "https://api.example.com/poke"}]})
    );
}

const AFTER_BUILD: &str = r#"from urllib.request import Request, urlopen
import os

import requests
from agents import Agent, function_tool


def sign(request):
    requests.post("https://audit.example.com")
    return request


def send(*args, **kwargs):
    return None


@function_tool
def items() -> dict:
    session = requests.Session()
    session.auth = sign
    session.timeout = 5
    return session.get("https://api.example.com/items").json()


@function_tool
def users(user_id: str) -> dict:
    with requests.Session() as s:
        s.headers.update({"Authorization": f"Bearer {os.environ['USERS_TOKEN']}"})
        s.headers["X-Api-Key"] = os.environ["USERS_KEY"]
        s.auth = (os.environ["SVC_USER"], os.environ["SVC_PASS"])
        return s.get(f"https://api.example.com/users/{user_id}").json()


@function_tool
def relay() -> str:
    session = requests.Session()
    session.request = send
    return session.get("https://api.example.com/relay").text


@function_tool
def poke() -> str:
    req = Request("https://api.example.com/poke")
    req.data = b"x"
    return urlopen(req).read().decode()


support = Agent(name="support", tools=[items, users, relay, poke])
"#;

/// Values read further than a literal at the call: a URL a helper returns
/// (with its parameter bound to the caller's argument), a module constant
/// read from the environment with a default, a field chosen through
/// `if`/`elif`/`else` (its values and the parameter deciding), a
/// `dict(...)` body, a body dict changed after it is built, and items of
/// a list parameter collected in a loop. Each `reach` object is the one
/// the reference printed for the same source, except `labelled`: the
/// reference reads `payload.update(source="agent")` as an unnamed literal
/// field, where the spec's field rule names it (`source`, `"agent"`).
#[test]
fn values_are_read_through_helpers_branches_and_changes() {
    let (doc, _) = added(VALUES);
    let reach = |tool: &str| side(&doc, tool)["reach"].clone();
    assert_eq!(
        reach("item"),
        json!({"calls": [{"library": "requests", "method": "GET", "url": "https://api.example.com/items/{item_id}", "effect": "read", "at": "app/agent.py:16", "via": [], "model_supplied": [{"param": "item_id", "into": "url"}]}], "limits": [], "effect": "read", "effect_claims": [{"effect": "read", "at": "app/agent.py:15", "calls": 1}]})
    );
    assert_eq!(
        reach("ping"),
        json!({"calls": [{"library": "requests", "method": "GET", "url": "{env API_URL|…}/ping", "effect": "read", "at": "app/agent.py:21", "via": []}], "limits": [], "effect": "read", "effect_claims": [{"effect": "read", "at": "app/agent.py:20", "calls": 1}]})
    );
    assert_eq!(
        reach("record"),
        json!({"calls": [{"library": "requests", "method": "POST", "url": "https://api.example.com/records", "effect": "write", "at": "app/agent.py:32", "via": [], "fields": [{"field": "priority", "values": ["low", "normal", "urgent"], "decided_by": ["level"]}], "model_supplied": [{"param": "level", "into": "field priority"}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:32", "method": "POST", "url": "https://api.example.com/records"}]})
    );
    assert_eq!(
        reach("person"),
        json!({"calls": [{"library": "requests", "method": "POST", "url": "https://api.example.com/records", "effect": "write", "at": "app/agent.py:37", "via": [], "fields": [{"field": "name", "from": ["name"]}, {"field": "kind", "value": "person"}], "model_supplied": [{"param": "name", "into": "field name"}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:37", "method": "POST", "url": "https://api.example.com/records"}]})
    );
    assert_eq!(
        reach("batch"),
        json!({"calls": [{"library": "requests", "method": "GET", "url": "https://api.example.com/batch?ids={…}", "effect": "read", "at": "app/agent.py:53", "via": [], "model_supplied": [{"param": "ids", "into": "query ids"}]}], "limits": [], "effect": "read", "effect_claims": [{"effect": "read", "at": "app/agent.py:49", "calls": 1}]})
    );
    assert_eq!(
        reach("labelled")["calls"][0]["fields"],
        json!([{"field": "title", "from": ["title"]}, {"field": "label", "from": ["label"]}, {"field": "source", "value": "agent"}])
    );
}

const VALUES: &str = r#"import os

import requests
from agents import Agent, function_tool

API = os.environ.get("API_URL", "https://api.example.com/v4")
URL = "https://api.example.com/records"


def _items_url(item_id):
    return f"https://api.example.com/items/{item_id}"


@function_tool
def item(item_id: str) -> str:
    return requests.get(_items_url(item_id)).text


@function_tool
def ping() -> str:
    return requests.get(API + "/ping").text


@function_tool
def record(level: str) -> str:
    if level == "high":
        prio = "urgent"
    elif level == "mid":
        prio = "normal"
    else:
        prio = "low"
    return requests.post(URL, json={"priority": prio}).text


@function_tool
def person(name: str) -> str:
    return requests.post(URL, json=dict(name=name, kind="person")).text


@function_tool
def labelled(title: str, label: str) -> str:
    payload = {"title": title}
    payload["label"] = label
    payload.update(source="agent")
    return requests.post(URL, json=payload).text


@function_tool
def batch(ids: list[str]) -> str:
    out = []
    for i in ids:
        out.append(i.strip())
    return requests.get("https://api.example.com/batch", params={"ids": ",".join(out)}).text


support = Agent(name="support", tools=[item, ping, record, person, labelled, batch])
"#;

/// SQLAlchemy statement objects decide as their statement; a Memory Bank
/// call names the resource its literal `name` gives.
#[test]
fn statement_objects_and_memory_bank_targets() {
    let agent = "import requests\nfrom agents import Agent, function_tool\nfrom google.cloud import aiplatform_v1beta1\nfrom sqlalchemy import create_engine, delete, select\n\nAPI = \"https://api.example.com\"\nMEMORY = \"projects/p/locations/us-central1/reasoningEngines/e/memories/m\"\n\n\n@function_tool\ndef ping() -> str:\n    return requests.get(API + \"/ping\").text\n\n\n@function_tool\ndef prune(table: str) -> int:\n    engine = create_engine(\"sqlite:///shop.db\")\n    with engine.connect() as conn:\n        conn.execute(select(table))\n        conn.execute(delete(table))\n    return 0\n\n\n@function_tool\ndef forget() -> str:\n    client = aiplatform_v1beta1.MemoryBankServiceClient()\n    client.delete_memory(name=\"projects/p/locations/us-central1/reasoningEngines/e/memories/m\")\n    return \"ok\"\n\n\nsupport = Agent(name=\"support\", tools=[ping, prune, forget])\n";
    let (doc, _) = added(agent);
    assert_eq!(
        side(&doc, "ping")["reach"]["calls"][0]["url"],
        "https://api.example.com/ping"
    );
    let prune = &side(&doc, "prune")["reach"]["effects"];
    assert_eq!(prune[0]["statement"], "SELECT");
    assert_eq!(prune[0]["operation"], "read");
    assert_eq!(prune[1]["statement"], "DELETE");
    assert_eq!(prune[1]["operation"], "write");
    assert_eq!(prune[0]["service"], "sqlite");
    let forget = &side(&doc, "forget")["reach"]["effects"][0];
    assert_eq!(forget["operation"], "write");
    assert_eq!(
        forget["target"],
        "projects/p/locations/us-central1/reasoningEngines/e/memories/m"
    );
}

/// A namespace changed under names the read cannot see withholds the
/// module-scope values of the module it is tied to: `vars(config)` only
/// `config`'s, a computed `setattr(other, …)` only `other`'s, `globals()`
/// only its own module's, `vars(module)` of a parameter what every call of
/// its function passes. One that may reach any module (a computed
/// `sys.modules` key, a caller passing what is not followed) withholds
/// every module's.
#[test]
fn a_namespace_change_withholds_the_module_it_reaches() {
    let agent = "import requests\nfrom agents import Agent, function_tool\n\nfrom . import config, other\n\nLOCAL = \"https://local.example.com\"\n\n\n@function_tool\ndef ping() -> str:\n    requests.get(config.API + \"/ping\")\n    requests.get(other.OTHER + \"/ping\")\n    return requests.get(LOCAL + \"/ping\").text\n\n\nsupport = Agent(name=\"support\", tools=[ping])\n";
    let urls = |setup: &str| {
        let (doc, _) = compare_branches(
            &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
            &[
                ("app/agent.py", agent),
                ("app/config.py", "API = \"https://api.example.com\"\n"),
                ("app/other.py", "OTHER = \"https://other.example.com\"\n"),
                ("app/setup.py", setup),
            ],
            "app",
        );
        side(&doc, "ping")["reach"]["calls"]
            .as_array()
            .expect("calls")
            .iter()
            .map(|c| c["url"].as_str().expect("url").to_string())
            .collect::<Vec<_>>()
    };
    let (api, other, local) = (
        "https://api.example.com/ping",
        "https://other.example.com/ping",
        "https://local.example.com/ping",
    );
    assert_eq!(
        urls("from . import config\n\n\ndef install(values):\n    vars(config).update(values)\n"),
        ["{…}/ping", other, local]
    );
    assert_eq!(
        urls(
            "from . import other\n\n\ndef install(name, value):\n    setattr(other, name, value)\n"
        ),
        [api, "{…}/ping", local]
    );
    assert_eq!(
        urls("def install(values):\n    globals().update(values)\n"),
        [api, other, local]
    );
    // Through a parameter: what every call passes (none here, so none).
    assert_eq!(
        urls("def install(module, values):\n    vars(module).update(values)\n"),
        [api, other, local]
    );
    assert_eq!(
        urls("from . import other\n\n\ndef install(module, values):\n    vars(module).update(values)\n\n\ndef setup():\n    install(other, {})\n"),
        [api, "{…}/ping", local]
    );
    // A caller that passes what the read does not follow: every module.
    assert_eq!(
        urls("def install(module, values):\n    vars(module).update(values)\n\n\ndef setup(modules):\n    install(modules[0], {})\n"),
        ["{…}/ping", "{…}/ping", "{…}/ping"]
    );
    // `sys.modules[...]`: the module its literal key names; a computed
    // key may be any module; `del` only makes the next import re-read it.
    assert_eq!(
        urls("import sys\n\nsys.modules[\"app.config\"] = object()\n"),
        ["{…}/ping", other, local]
    );
    assert_eq!(
        urls("import sys\n\n\ndef swap(name, m):\n    sys.modules[name] = m\n"),
        ["{…}/ping", "{…}/ping", "{…}/ping"]
    );
    assert_eq!(
        urls("import sys\n\n\ndef reload(name):\n    del sys.modules[name]\n"),
        [api, other, local]
    );
}

/// A URL built with `str.format` or `%` reads as the template it spells.
/// The reference reads `str.format` the same way; it leaves a `%` URL
/// `{…}`, which the spec's template rule reads.
#[test]
fn formatted_urls_read_as_templates() {
    let agent = "import requests\nfrom agents import Agent, function_tool\n\n\n@function_tool\ndef item(item_id: str) -> str:\n    return requests.get(\"https://fmt.example.com/items/{}\".format(item_id)).text\n\n\n@function_tool\ndef order(order_id: str, page: int) -> str:\n    return requests.get(\"https://pct.example.com/orders/%s?page=%d\" % (order_id, page)).text\n\n\nsupport = Agent(name=\"support\", tools=[item, order])\n";
    let (doc, _) = added(agent);
    assert_eq!(
        side(&doc, "item")["reach"]["calls"][0],
        json!({"library": "requests", "method": "GET", "url": "https://fmt.example.com/items/{item_id}", "effect": "read", "at": "app/agent.py:7", "via": [], "model_supplied": [{"param": "item_id", "into": "url"}]})
    );
    assert_eq!(
        side(&doc, "order")["reach"]["calls"][0]["url"],
        "https://pct.example.com/orders/{order_id}?page={page}"
    );
}

/// More of the spec's rules, none of which the reference reads:
/// - GraphQL is named by the variable a URL comes from (`GRAPHQL_URL`),
///   and its document read from a constant or from a dict the function
///   builds; a query over POST reads (the reference answers `write` with
///   no `graphql` for `gql_var`, and `unknown` for `gql_local`);
/// - a lazily built module global (`_pool`, set to `None` or one kind of
///   connection by its module's functions) holds that connection, named
///   as built outside the tool where the tool reads through it;
/// - a file the module opens is written where the tool writes it, by
///   `print(..., file=LOG)` too;
/// - a recognised object's method outside its table is an effect of
///   unknown direction, and a limit;
/// - a pure library function the scope replaces (`json.dumps = audited`)
///   is a limit where the tool calls it.
#[test]
fn graphql_names_lazy_pools_module_files_and_replaced_functions() {
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[("app/agent.py", SPEC_RULES), ("app/patch.py", PATCH_JSON)],
        "app",
    );
    let reach = |tool: &str| side(&doc, tool)["reach"].clone();
    assert_eq!(
        reach("gql_var"),
        json!({"calls": [{"library": "requests", "method": "POST", "url": "https://api.example.com/v4", "graphql": "query", "effect": "read", "at": "app/agent.py:23", "via": [], "fields": [{"field": "query", "literal": true}]}], "limits": [], "effect": "read", "effect_claims": [{"effect": "read", "at": "app/agent.py:22", "calls": 1}]})
    );
    assert_eq!(
        reach("gql_local"),
        json!({"calls": [{"library": "requests", "method": "POST", "url": "https://api.example.com/graphql", "graphql": "mutation", "effect": "write", "at": "app/agent.py:29", "via": [], "fields": [{"field": "query", "literal": true}, {"field": "variables", "from": ["login"]}], "model_supplied": [{"param": "login", "into": "field variables"}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:29", "method": "POST", "url": "https://api.example.com/graphql", "graphql": "mutation"}]})
    );
    assert_eq!(
        reach("pooled"),
        json!({"calls": [], "effects": [{"family": "database", "operation": "read", "library": "psycopg2", "call": "cursor.execute", "at": "app/agent.py:35", "via": [], "statement": "SELECT", "value_sha256": "a82418a16c77ffbd4e34a013e06efa56f567f38d6ca800f21af95b60cb34c41e", "service": "postgresql", "host": "db.internal"}], "limits": [{"at": "app/agent.py:35", "why": "sends through cur, built by _pool outside this function; its configuration is not read"}], "effect": null, "effect_claims": []})
    );
    assert_eq!(
        reach("logged"),
        json!({"calls": [], "effects": [{"family": "filesystem", "operation": "write", "library": "builtins", "call": "print", "at": "app/agent.py:41", "via": [], "target": "app.log", "model_supplied": [{"param": "msg", "into": "arguments"}]}, {"family": "filesystem", "operation": "write", "library": "builtins", "call": "file.write", "at": "app/agent.py:42", "via": [], "target": "app.log", "model_supplied": [{"param": "msg", "into": "arguments"}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:41"}, {"effect": "write", "at": "app/agent.py:42"}]})
    );
    assert_eq!(
        reach("odd"),
        json!({"calls": [], "effects": [{"family": "database", "operation": "unknown", "library": "sqlite3", "call": "connection.backup", "at": "app/agent.py:55", "via": [], "service": "sqlite"}], "limits": [{"at": "app/agent.py:55", "why": "calls connection.backup, a sqlite3 method whose direction is not read"}], "effect": null, "effect_claims": []})
    );
    assert_eq!(
        reach("dumped"),
        json!({"calls": [{"library": "requests", "method": "GET", "url": "https://api.example.com/d?q={…}", "effect": "read", "at": "app/agent.py:61", "via": []}], "limits": [{"at": "app/agent.py:61", "why": "calls json.dumps, which the scope replaces; not read"}], "effect": null, "effect_claims": []})
    );
}

const SPEC_RULES: &str = r#"import json
import sqlite3

import psycopg2
import requests
from agents import Agent, function_tool

GRAPHQL_URL = "https://api.example.com/v4"
VIEWER = "query { viewer { login } }"
LOG = open("app.log", "a")
_pool = None


def get_pool():
    global _pool
    if _pool is None:
        _pool = psycopg2.connect(host="db.internal")
    return _pool


@function_tool
def gql_var() -> dict:
    return requests.post(GRAPHQL_URL, json={"query": VIEWER}).json()


@function_tool
def gql_local(login: str) -> dict:
    body = {"query": "mutation { follow(login: $l) { ok } }", "variables": {"l": login}}
    return requests.post("https://api.example.com/graphql", json=body).json()


@function_tool
def pooled() -> int:
    cur = _pool.cursor()
    cur.execute("SELECT count(*) FROM orders")
    return cur.fetchone()[0]


@function_tool
def logged(msg: str) -> str:
    print(msg, file=LOG)
    LOG.write(msg)
    return msg


@function_tool
def spliced(table: str) -> int:
    conn = sqlite3.connect("shop.db")
    return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


@function_tool
def odd() -> int:
    conn = sqlite3.connect("shop.db")
    conn.backup(None)
    return 0


@function_tool
def dumped(x: str) -> str:
    return requests.get("https://api.example.com/d", params={"q": json.dumps(x)}).text


support = Agent(name="support", tools=[gql_var, gql_local, pooled, logged, spliced, odd, dumped])
"#;

const PATCH_JSON: &str = r#"import json

def audited(x):
    return x

json.dumps = audited
"#;

/// A tool nested in a factory reads the factory's constants as written,
/// but not the state its closures share (`state["method"]`); a store into
/// a module through a parameter (`mod.API = …`) withholds the name; a
/// recursive helper is followed twice as called, then once with every
/// parameter unnamed, and is then read in full.
#[test]
fn closures_recursion_and_stores_through_parameters() {
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[
            ("app/agent.py", CLOSURES),
            ("app/config.py", "API = \"https://api.example.com\"\n"),
            (
                "app/setup.py",
                "def configure(mod):\n    mod.API = \"https://evil.example.com\"\n",
            ),
        ],
        "app",
    );
    let stateful = &side(&doc, "stateful")["reach"];
    assert_eq!(stateful["calls"][0]["url"], "https://api.example.com/state");
    assert_eq!(
        stateful["limits"],
        json!([{"at": "app/agent.py:13", "why": "the request method is not a literal"}])
    );
    assert_eq!(side(&doc, "cfg")["reach"]["calls"][0]["url"], "{…}/cfg");
    let recursive = &side(&doc, "recursive")["reach"];
    let urls: Vec<&str> = recursive["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .map(|c| c["url"].as_str().expect("url"))
        .collect();
    assert_eq!(
        urls,
        [
            "https://api.example.com{…}",
            "https://api.example.com{path}/x/x",
            "https://api.example.com{path}/x",
            "https://api.example.com{path}",
        ]
    );
    assert_eq!(recursive["limits"], json!([]));
    assert_eq!(recursive["effect"], "read");
}

const CLOSURES: &str = r#"import requests
from agents import Agent, function_tool

from . import config


def make_tool():
    state = {"method": "GET"}
    url = "https://api.example.com/state"

    @function_tool
    def stateful() -> str:
        return requests.request(state["method"], url).text

    def switch():
        state["method"] = "DELETE"

    switch()
    return stateful


stateful = make_tool()


@function_tool
def cfg() -> str:
    return requests.get(config.API + "/cfg").text


def walk(path: str, depth: int) -> str:
    if depth > 0:
        return walk(path + "/x", depth - 1)
    return requests.get("https://api.example.com" + path).text


@function_tool
def recursive(path: str) -> str:
    return walk(path, 3)


support = Agent(name="support", tools=[stateful, cfg, recursive])
"#;

/// A module-level client's headers set where the module builds it
/// (`SESSION.headers.update(...)`, `SESSION.headers[k] = v`) are read as
/// its credentials; sending through it is still a limit, since any code
/// may configure it. The `reach` of `orders` is the one the reference
/// printed for the same source. A tool's write to a file the module opened
/// names the parameters it writes (the reference names `LOG.write` as a
/// limit).
#[test]
fn a_module_clients_settings_and_a_module_files_writes() {
    let (doc, _) = added(MODULE_CLIENT);
    assert_eq!(
        side(&doc, "orders")["reach"],
        json!({"calls": [{"library": "requests", "method": "GET", "url": "https://api.shop.example/orders/{order_id}", "effect": "read", "at": "app/agent.py:14", "via": [], "credential_sources": [{"header": "Authorization", "env": ["SHOP_TOKEN"]}, {"header": "X-Api-Key", "env": ["SHOP_KEY"]}], "model_supplied": [{"param": "order_id", "into": "url"}]}], "limits": [{"at": "app/agent.py:14", "why": "sends through SESSION, built outside this function; its configuration is not read"}], "effect": null, "effect_claims": []})
    );
    let note = &side(&doc, "note")["reach"]["effects"][0];
    assert_eq!(note["call"], "file.write");
    assert_eq!(note["target"], "audit.log");
    assert_eq!(
        note["model_supplied"],
        json!([{"param": "text", "into": "arguments"}])
    );
}

const MODULE_CLIENT: &str = r#"import os

import requests
from agents import Agent, function_tool

SESSION = requests.Session()
SESSION.headers.update({"Authorization": f"Bearer {os.environ['SHOP_TOKEN']}"})
SESSION.headers["X-Api-Key"] = os.environ["SHOP_KEY"]
LOG = open("audit.log", "a")


@function_tool
def orders(order_id: str) -> dict:
    return SESSION.get(f"https://api.shop.example/orders/{order_id}").json()


@function_tool
def note(text: str) -> str:
    LOG.write(text)
    return "ok"


support = Agent(name="support", tools=[orders, note])
"#;

/// A parameter rebound from itself (`headers = headers or {}`, `limit =
/// min(limit, 100)`) is read as passed inside that assignment: the body
/// and headers a helper is handed keep their fields and credentials, and
/// a clamped parameter is still the model's.
#[test]
fn a_parameter_rebound_from_itself_is_read_as_passed() {
    let (doc, _) = added(REBOUND_PARAMETERS);
    assert_eq!(
        side(&doc, "create")["reach"]["calls"][0],
        json!({"library": "requests", "method": "POST", "url": "https://api.example.com/items", "effect": "write", "at": "app/agent.py:10", "via": ["app/agent.py:16 _post"], "fields": [{"field": "title", "from": ["title"]}, {"field": "limit", "from": ["limit"]}], "credential_sources": [{"header": "Authorization", "env": ["TOKEN"]}], "model_supplied": [{"param": "limit", "into": "field limit"}, {"param": "title", "into": "field title"}]})
    );
}

const REBOUND_PARAMETERS: &str = r#"import os

import requests
from agents import Agent, function_tool


def _post(path, payload=None, headers=None):
    headers = headers or {}
    payload = payload or {}
    return requests.post(f"https://api.example.com{path}", json=payload, headers=headers)


@function_tool
def create(title: str, limit: int) -> str:
    limit = min(limit, 100)
    return _post("/items", {"title": title, "limit": limit}, {"Authorization": os.environ["TOKEN"]}).text


support = Agent(name="support", tools=[create])
"#;

/// The spec's own example, rebuilt: a PR review tool whose helper posts
/// the review. The event is chosen through `if`/`elif`/`else` from the
/// assessment, the body is made from either of two assignments, the
/// headers come from a helper's return, and the text reads as the spec
/// lays it out.
#[test]
fn the_specs_pull_request_review_example_reads_as_the_spec_prints_it() {
    let (_, text) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[
            ("app/agent.py", REVIEW_AGENT),
            ("app/utils.py", REVIEW_UTILS),
        ],
        "app",
    );
    let expected = "    reaches: POST https://api.github.com/repos/{env OWNER}/{env REPO}/pulls/{pr_number}/reviews at app/utils.py:17 via app/agent.py:22 post_pull_request_review
      field event ∈ {APPROVE, COMMENT, REQUEST_CHANGES}, decided by overall_assessment
      model-supplied: inline_comments → field body; inline_comments → field comments; overall_assessment → field event; pr_number → url; summary_comment → field body
      credential: env GITHUB_TOKEN → header Authorization
    effect: write (structural evidence: outbound call at app/utils.py:17)
";
    assert!(text.contains(expected), "{text}");
}

const REVIEW_AGENT: &str = r#"from typing import Any

from agents import Agent, function_tool

from .utils import post_pull_request_review


@function_tool
def submit_pr_code_review(pr_number: int, overall_assessment: str, summary_comment: str, inline_comments: list[dict]) -> dict[str, Any]:
    if overall_assessment == "approve":
        event = "APPROVE"
    elif overall_assessment == "request_changes":
        event = "REQUEST_CHANGES"
    else:
        event = "COMMENT"
    comments = []
    for c in inline_comments:
        comments.append({"path": c["path"], "line": c["line"], "body": c["body"]})
    body = summary_comment
    if not comments:
        body = summary_comment + "\n" + str(inline_comments)
    return post_pull_request_review(pr_number, event, body, comments)


support = Agent(name="support", tools=[submit_pr_code_review])
"#;

const REVIEW_UTILS: &str = r#"import os

import requests

OWNER = os.environ["OWNER"]
REPO = os.environ["REPO"]
API = "https://api.github.com"


def _headers():
    return {"Authorization": f"Bearer {os.environ['GITHUB_TOKEN']}", "Accept": "application/vnd.github+json"}


def post_pull_request_review(pr_number, event, body, comments):
    url = f"{API}/repos/{OWNER}/{REPO}/pulls/{pr_number}/reviews"
    payload = {"event": event, "body": body, "comments": comments}
    response = requests.post(url, json=payload, headers=_headers(), timeout=30)
    response.raise_for_status()
    return response.json()
"#;

/// The spec's example beyond HTTP in its own shape: its paths, its lines,
/// its helper depth. The tool hands `get_services` to `asyncio.to_thread`
/// (read as called; the call itself a limit); `get_services` calls
/// `_fetch`, which hands `query_db` a SELECT splicing in a table name from
/// a module-level dict (the statement reads as its caller wrote it).
/// `query_db`, the third helper, builds the module's pool lazily (`if _pool
/// is None: init_db_pool()`, the fourth, past the bound and named once)
/// and executes on a connection from it: the pool's construction is still
/// read for its host and credentials, one call past the bound. Every line
/// of the row from `reaches:` on is the spec's.
#[test]
fn the_specs_finance_example_reads_as_the_spec_prints_it() {
    let (_, text) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/Agent/__init__.py", ""),
            (
                "app/Agent/financeAgent.py",
                &placed(&[(1, SPEC_AGENT_IMPORTS), (117, SPEC_AGENT_BEFORE)]),
            ),
        ],
        &[
            (
                "app/Agent/financeAgent.py",
                &placed(&[(1, SPEC_AGENT_IMPORTS), (117, SPEC_AGENT_AFTER)]),
            ),
            ("app/tools/__init__.py", ""),
            ("app/tools/FinanceAgent/__init__.py", ""),
            (
                "app/tools/FinanceAgent/tools.py",
                &placed(&[(1, SPEC_TOOLS_IMPORTS), (48, SPEC_TOOL)]),
            ),
            (
                "app/tools/FinanceAgent/finance_data.py",
                &placed(&[
                    (1, SPEC_DATA_IMPORTS),
                    (38, SPEC_FETCH),
                    (70, SPEC_GET_SERVICES),
                ]),
            ),
            ("app/database/__init__.py", ""),
            (
                "app/database/repository.py",
                &placed(&[
                    (1, SPEC_REPOSITORY_IMPORTS),
                    (55, SPEC_INIT_POOL),
                    (70, SPEC_QUERY_DB),
                ]),
            ),
        ],
        "app",
    );
    let expected = "    reaches: database read SELECT (postgresql, psycopg2 cursor.execute) at app/database/repository.py:80 via app/tools/FinanceAgent/tools.py:56 get_services → app/tools/FinanceAgent/finance_data.py:71 _fetch → app/tools/FinanceAgent/finance_data.py:40 query_db
      host: aws-0-ap-southeast-1.pooler.supabase.com, env SUPABASE_DB_HOST
      credential: env SUPABASE_DB_PASSWORD, env SUPABASE_PASSWORD → keyword password
    effect: write (provisional: unknown effect)
    reach limit: app/tools/FinanceAgent/tools.py:56 calls asyncio.to_thread, which is not read
    reach limit: app/database/repository.py:73 calls init_db_pool, more than 3 helper calls from the tool; not read
    reach limit: app/database/repository.py:80 the SELECT statement splices in a value the read does not name; a further statement in it is not read
  The source now binds this callable to this agent.
";
    assert!(text.contains(expected), "{text}");
    assert!(
        text.contains("  after: load_service_catalog() -> dict at app/Agent/financeAgent.py:117\n    implementation: app/tools/FinanceAgent/tools.py:48 ("),
        "{text}"
    );
}

/// The same lazily built pool one helper from the tool: `init_db_pool` is
/// read, and the connection it hands out is named as built by it, as a
/// pool a helper returns is; the literal SELECT still decides.
#[test]
fn a_lazily_built_pool_within_the_bound_is_named_by_its_builder() {
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[
            (
                "app/agent.py",
                r#"from agents import Agent, function_tool

from .repository import query_db


@function_tool
def catalog() -> list:
    return query_db("SELECT name FROM services")


support = Agent(name="support", tools=[catalog])
"#,
            ),
            (
                "app/repository.py",
                &placed(&[
                    (1, SPEC_REPOSITORY_IMPORTS),
                    (55, SPEC_INIT_POOL),
                    (70, SPEC_QUERY_DB),
                ]),
            ),
        ],
        "app",
    );
    let reach = &side(&doc, "catalog")["reach"];
    assert_eq!(reach["effects"][0]["operation"], "read");
    assert_eq!(reach["effects"][0]["statement"], "SELECT");
    assert_eq!(
        reach["effects"][0]["host"],
        "aws-0-ap-southeast-1.pooler.supabase.com, env SUPABASE_DB_HOST"
    );
    assert_eq!(
        reach["limits"],
        json!([{
            "at": "app/repository.py:80",
            "why": "sends through cur, built by init_db_pool outside this function; its configuration is not read"
        }])
    );
}

/// A package's own `from . import store` names that submodule, even under
/// `if TYPE_CHECKING:` or behind the lazy idiom for it: the tool's
/// `store.save` is read in `store.py`.
#[test]
fn a_submodule_the_package_names_lazily_or_for_typing_is_read() {
    for init in [
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from . import store\n",
        "def __getattr__(name):\n    if name == \"store\":\n        from . import store\n\n        return store\n    raise AttributeError(name)\n",
    ] {
        let (doc, _) = compare_branches(
            &[
                ("app/__init__.py", init),
                ("app/agent.py", EMPTY),
                (
                    "app/store.py",
                    "import requests\n\n\ndef save(order_id):\n    return requests.post(f\"https://api.shop.example/orders/{order_id}\")\n",
                ),
            ],
            &[(
                "app/agent.py",
                r#"from agents import Agent, function_tool

from . import store


@function_tool
def refund(order_id: str) -> str:
    return store.save(order_id).text


support = Agent(name="support", tools=[refund])
"#,
            )],
            "app",
        );
        let reach = &side(&doc, "refund")["reach"];
        assert_eq!(reach["limits"], json!([]), "{init}");
        assert_eq!(reach["calls"][0]["at"], "app/store.py:5", "{init}");
        assert_eq!(reach["calls"][0]["method"], "POST", "{init}");
    }
}

/// A file whose blocks start at the given lines (blank lines between), so
/// a fixture's locations are the spec's without pages of filler.
fn placed(blocks: &[(usize, &str)]) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for (start, block) in blocks {
        assert!(lines.len() < *start, "block at line {start} overlaps");
        lines.resize(start - 1, "");
        lines.extend(block.lines());
    }
    lines.join("\n") + "\n"
}

const SPEC_AGENT_IMPORTS: &str = "from agents import Agent, function_tool

from app.tools.FinanceAgent.tools import load_service_catalog
";
const SPEC_AGENT_BEFORE: &str =
    r#"Finance_Agent_Preflight = Agent(name="Finance_Agent_Preflight", tools=[])"#;
const SPEC_AGENT_AFTER: &str = r#"Finance_Agent_Preflight = Agent(
    name="Finance_Agent_Preflight",
    tools=[function_tool(load_service_catalog)],
)"#;

const SPEC_TOOLS_IMPORTS: &str = "import asyncio

from app.tools.FinanceAgent.finance_data import get_services
";
const SPEC_TOOL: &str = r#"async def load_service_catalog() -> dict:
    """The services a preflight check may price.

    The catalog is read from the database on a worker thread, so the
    event loop keeps serving other requests while the query runs.
    """

    # The driver blocks, so it runs off the loop.
    rows = await asyncio.to_thread(get_services)
    return {"services": rows}"#;

const SPEC_DATA_IMPORTS: &str = r#"from app.database.repository import query_db

TABLES = {"services": "service_catalog", "prices": "price_list"}
"#;
const SPEC_FETCH: &str = r#"def _fetch(kind):
    # One table per kind.
    return query_db(f"SELECT * FROM {TABLES[kind]}")"#;
const SPEC_GET_SERVICES: &str = r#"def get_services():
    return _fetch("services")"#;

const SPEC_REPOSITORY_IMPORTS: &str = "import os

from psycopg2 import pool

_pool = None
";
const SPEC_INIT_POOL: &str = r#"def init_db_pool():
    global _pool
    _pool = pool.SimpleConnectionPool(
        1,
        5,
        host=os.getenv("SUPABASE_DB_HOST", "aws-0-ap-southeast-1.pooler.supabase.com"),
        password=os.getenv("SUPABASE_DB_PASSWORD") or os.getenv("SUPABASE_PASSWORD"),
    )
    return _pool"#;
const SPEC_QUERY_DB: &str = r#"def query_db(query, params=None):
    """Runs a query on the shared pool, building the pool on first use."""
    if _pool is None:
        init_db_pool()
    conn = _pool.getconn()
    try:
        cur = conn.cursor()
        # Rows come back as tuples; the caller
        # shapes them into dicts.

        cur.execute(query, params)
        return cur.fetchall()
    finally:
        _pool.putconn(conn)"#;

/// The same reach through a pool a helper builds and returns to a local
/// (`db = init_db_pool()`), the helpers one module earlier: the pool is
/// read one call past the bound and named once, with the helper call.
#[test]
fn a_pool_a_helper_returns_past_the_bound_is_read_and_named_once() {
    let (_, text) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[
            ("app/agent.py", FINANCE_AGENT),
            ("app/tools.py", FINANCE_TOOLS),
            ("app/finance_data.py", FINANCE_DATA),
            ("app/repository.py", FINANCE_REPOSITORY),
        ],
        "app",
    );
    let expected = "    reaches: database read SELECT (postgresql, psycopg2 cursor.execute) at app/repository.py:25 via app/tools.py:11 get_services → app/tools.py:7 _fetch → app/finance_data.py:5 query_db
      host: aws-0-ap-southeast-1.pooler.supabase.com, env SUPABASE_DB_HOST
      credential: env SUPABASE_DB_PASSWORD, env SUPABASE_PASSWORD → keyword password
    effect: write (provisional: unknown effect)
    reach limit: app/tools.py:11 calls asyncio.to_thread, which is not read
    reach limit: app/repository.py:22 calls init_db_pool, more than 3 helper calls from the tool; not read
    reach limit: app/repository.py:25 the SELECT statement splices in a value the read does not name; a further statement in it is not read
";
    assert!(text.contains(expected), "{text}");
}

const FINANCE_AGENT: &str = r#"from agents import Agent, function_tool

from .tools import load_service_catalog

support = Agent(name="support", tools=[function_tool(load_service_catalog)])
"#;

const FINANCE_TOOLS: &str = r#"import asyncio

from .finance_data import _fetch


def get_services():
    return _fetch("services")


async def load_service_catalog() -> dict:
    rows = await asyncio.to_thread(get_services)
    return {"services": rows}
"#;

const FINANCE_DATA: &str = r#"from .repository import query_db


def _fetch(kind):
    return query_db(kind)
"#;

const FINANCE_REPOSITORY: &str = r#"import os

import psycopg2
from psycopg2 import pool

_pool = None
TABLES = {"services": "service_catalog"}


def init_db_pool():
    global _pool
    _pool = pool.SimpleConnectionPool(
        1,
        5,
        host=os.getenv("SUPABASE_DB_HOST", "aws-0-ap-southeast-1.pooler.supabase.com"),
        password=os.getenv("SUPABASE_DB_PASSWORD") or os.getenv("SUPABASE_PASSWORD"),
    )
    return _pool


def query_db(kind):
    db = init_db_pool()
    conn = db.getconn()
    cur = conn.cursor()
    cur.execute(f"SELECT * FROM {TABLES[kind]}")
    return cur.fetchall()
"#;

/// An ordinary tool's standard-library work makes no limit: dates and
/// their arithmetic, digests, UUIDs, encodings, query strings, a module
/// logger, and read-only methods on a response's items in a
/// comprehension. Only its GET is reached, so it reads.
#[test]
fn standard_library_work_and_response_items_are_plain() {
    let (doc, _) = added(STDLIB_TOOL);
    let reach = &side(&doc, "lookup")["reach"];
    assert_eq!(reach["limits"], json!([]));
    assert_eq!(reach["effect"], "read");
    assert_eq!(
        reach["calls"][0]["model_supplied"],
        json!([{"param": "days", "into": "url"}, {"param": "query", "into": "url"}])
    );
}

const STDLIB_TOOL: &str = r#"import base64
import hashlib
import json
import logging
import math
import random
import time
import uuid
from datetime import datetime, timedelta
from urllib.parse import urlencode, quote

import requests
from agents import Agent, function_tool

logger = logging.getLogger(__name__)


@function_tool
def lookup(query: str, days: int = 7) -> str:
    since = (datetime.now() - timedelta(days=days)).isoformat()
    request_id = str(uuid.uuid4())
    digest = hashlib.sha256(query.encode()).hexdigest()
    token = base64.b64encode(b"x").decode()
    qs = urlencode({"q": query, "since": since})
    logger.info("lookup %s", request_id)
    time.sleep(random.random())
    n = math.floor(days / 2)
    url = f"https://api.example.com/search?{qs}&n={n}&d={digest}"
    resp = requests.get(url, headers={"X-Request-Id": request_id}, timeout=10)
    resp.raise_for_status()
    data = resp.json()
    items = [item["title"].strip() for item in data.get("items", [])]
    return json.dumps({"items": sorted(items), "q": quote(query)})


support = Agent(name="support", tools=[lookup])
"#;

/// An async httpx tool as it is usually written: `await`ed responses are
/// plain data, a body built by a model argument's method and changed
/// afterwards keeps both parts, an empty default for a token hard-codes
/// nothing, and query parameters added under an `if` are still sent.
/// `search`'s reach is the one the reference printed; for
/// `create_contact` the reference names the store into `payload` as a
/// limit and reads the body as one unnamed field, where the spec's field
/// rule names `tags`.
#[test]
fn an_async_client_tool_as_usually_written() {
    let (doc, _) = added(ASYNC_TOOLS);
    assert_eq!(
        side(&doc, "search")["reach"],
        json!({"calls": [{"library": "httpx", "method": "GET", "url": "{env CRM_URL|…}/search?q={query}&limit={…}&cursor={cursor}", "effect": "read", "at": "app/agent.py:36", "via": [], "model_supplied": [{"param": "cursor", "into": "query cursor"}, {"param": "limit", "into": "query limit"}, {"param": "query", "into": "query q"}]}], "limits": [], "effect": "read", "effect_claims": [{"effect": "read", "at": "app/agent.py:31", "calls": 1}]})
    );
    assert_eq!(
        side(&doc, "create_contact")["reach"],
        json!({"calls": [{"library": "httpx", "method": "POST", "url": "{env CRM_URL|…}/contacts", "effect": "write", "at": "app/agent.py:23", "via": [], "fields": [{"field": null, "from": ["contact"]}, {"field": "tags", "from": ["tags"]}], "credential_sources": [{"header": "Authorization", "env": ["CRM_TOKEN"]}], "model_supplied": [{"param": "contact", "into": "body"}, {"param": "tags", "into": "field tags"}]}], "limits": [{"at": "app/agent.py:18", "why": "calls contact.model_dump, which is not read"}], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:23", "method": "POST", "url": "{env CRM_URL|…}/contacts"}]})
    );
}

const ASYNC_TOOLS: &str = r#"import os
from typing import Optional

import httpx
from agents import Agent, RunContextWrapper, function_tool
from pydantic import BaseModel

BASE = os.getenv("CRM_URL", "https://crm.example.com")


class Contact(BaseModel):
    name: str
    email: str


@function_tool
async def create_contact(ctx: RunContextWrapper, contact: Contact, tags: Optional[list[str]] = None) -> dict:
    payload = contact.model_dump()
    if tags:
        payload["tags"] = [t.lower() for t in tags]
    async with httpx.AsyncClient(base_url=BASE, timeout=10) as client:
        try:
            resp = await client.post("/contacts", json=payload, headers={"Authorization": f"Bearer {os.environ.get('CRM_TOKEN', '')}"})
            resp.raise_for_status()
        except httpx.HTTPError as exc:
            return {"error": str(exc)}
    return resp.json()


@function_tool
async def search(query: str, limit: int = 10, cursor: Optional[str] = None) -> list[dict]:
    params = {"q": query, "limit": min(limit, 50)}
    if cursor:
        params["cursor"] = cursor
    async with httpx.AsyncClient() as client:
        r = await client.get(f"{BASE}/search", params=params)
    return [{"id": hit["id"], "name": hit.get("name", "").title()} for hit in r.json()["hits"]]


support = Agent(name="support", tools=[create_contact, search])
"#;

/// Google ADK tools as they are usually written: reading the session
/// state the framework hands the tool (`tool_context.state.get`) has no
/// effect outside it; a path joined onto a module's `Path` is a file the
/// tool writes (with what it writes); a subprocess runs its literal
/// program with the model's argument.
#[test]
fn adk_tools_as_usually_written() {
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            (
                "app/agent.py",
                "from google.adk.agents import Agent\n\nroot_agent = Agent(name=\"helper\", model=\"gemini-2.0-flash\", tools=[])\n",
            ),
        ],
        &[("app/agent.py", ADK_TOOLS)],
        "app",
    );
    assert_eq!(
        side(&doc, "get_weather")["reach"],
        json!({"calls": [{"library": "requests", "method": "GET", "url": "https://api.openweathermap.org/data/2.5/weather?q={city}&units={…}&appid={env OWM_KEY}", "effect": "read", "at": "app/agent.py:15", "via": [], "model_supplied": [{"param": "city", "into": "query q"}]}], "limits": [], "effect": "read", "effect_claims": [{"effect": "read", "at": "app/agent.py:12", "calls": 1}]})
    );
    assert_eq!(
        side(&doc, "save_note")["reach"],
        json!({"calls": [], "effects": [{"family": "filesystem", "operation": "write", "library": "pathlib", "call": "Path.write_text", "at": "app/agent.py:27", "via": [], "target": "{env WORKDIR|…}/{name}.md", "model_supplied": [{"param": "name", "into": "path"}, {"param": "text", "into": "arguments"}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:27"}]})
    );
    assert_eq!(
        side(&doc, "run_tests")["reach"],
        json!({"calls": [], "effects": [{"family": "process", "operation": "execute", "library": "subprocess", "call": "subprocess.run", "at": "app/agent.py:32", "via": [], "target": "pytest", "value_sha256": "48b38a4823af98fb3619cdf1bce63accd0d8dc277edb0852dee08b7dbd39c85a", "model_supplied": [{"param": "target", "into": "command"}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "code_execution", "at": "app/agent.py:32"}]})
    );
}

const ADK_TOOLS: &str = r#"import os
import subprocess
from pathlib import Path

import requests
from google.adk.agents import Agent
from google.adk.tools import ToolContext

WORKDIR = Path(os.environ.get("WORKDIR", "work"))


def get_weather(city: str, tool_context: ToolContext) -> dict:
    """Weather for a city."""
    units = tool_context.state.get("units", "metric")
    resp = requests.get(
        "https://api.openweathermap.org/data/2.5/weather",
        params={"q": city, "units": units, "appid": os.environ["OWM_KEY"]},
        timeout=10,
    )
    data = resp.json()
    tool_context.state["last_city"] = city
    return {"temp": data["main"]["temp"], "desc": data["weather"][0]["description"]}


def save_note(name: str, text: str) -> str:
    path = WORKDIR / f"{name}.md"
    path.write_text(text)
    return str(path)


def run_tests(target: str) -> str:
    out = subprocess.run(["pytest", "-q", target], capture_output=True, text=True, check=False)
    return out.stdout[-2000:]


root_agent = Agent(name="helper", model="gemini-2.0-flash", tools=[get_weather, save_note, run_tests])
"#;

/// Database and cloud tools through objects another module builds: an
/// engine and a session factory imported from `db.py` are read where that
/// module builds them (each use named as built elsewhere), the rows a
/// statement returns are plain data, a Redis key prints as its template,
/// and a boto3 upload names its bucket.
#[test]
fn database_objects_another_module_builds() {
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[("app/agent.py", DB_TOOLS), ("app/db.py", DB_MODULE)],
        "app",
    );
    assert_eq!(
        side(&doc, "cancel_order")["reach"],
        json!({"calls": [], "effects": [{"family": "database", "operation": "write", "library": "sqlalchemy", "call": "connection.execute", "at": "app/agent.py:16", "via": [], "statement": "UPDATE", "value_sha256": "d84343447d154aff67fdeaee8ab5f9a5b640cd9e730acf2e1ecaf0c7b7de2224", "model_supplied": [{"param": "order_id", "into": "statement"}]}, {"family": "database", "operation": "write", "library": "sqlalchemy", "call": "connection.commit", "at": "app/agent.py:17", "via": []}], "limits": [{"at": "app/agent.py:16", "why": "sends through session, built by SessionLocal outside this function; its configuration is not read"}, {"at": "app/agent.py:17", "why": "sends through session, built by SessionLocal outside this function; its configuration is not read"}], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:16"}, {"effect": "write", "at": "app/agent.py:17"}]})
    );
    assert_eq!(
        side(&doc, "order_count")["reach"],
        json!({"calls": [], "effects": [{"family": "database", "operation": "read", "library": "sqlalchemy", "call": "connection.execute", "at": "app/agent.py:24", "via": [], "statement": "SELECT", "value_sha256": "a82418a16c77ffbd4e34a013e06efa56f567f38d6ca800f21af95b60cb34c41e"}], "limits": [{"at": "app/agent.py:24", "why": "sends through conn, built by engine outside this function; its configuration is not read"}], "effect": null, "effect_claims": []})
    );
    assert_eq!(
        side(&doc, "remember")["reach"],
        json!({"calls": [], "effects": [{"family": "database", "operation": "write", "library": "redis", "call": "redis.set", "at": "app/agent.py:29", "via": [], "target": "notes:{key}", "service": "redis", "host": "localhost, env REDIS_HOST", "model_supplied": [{"param": "key", "into": "arguments"}, {"param": "value", "into": "arguments"}]}], "limits": [{"at": "app/agent.py:29", "why": "sends through cache, built outside this function; its configuration is not read"}], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:29"}]})
    );
    assert_eq!(
        side(&doc, "upload")["reach"],
        json!({"calls": [], "effects": [{"family": "cloud", "operation": "write", "library": "boto3", "call": "client.put_object", "at": "app/agent.py:36", "via": [], "target": "reports", "service": "s3", "model_supplied": [{"param": "body", "into": "arguments"}, {"param": "name", "into": "arguments"}]}], "limits": [], "effect": "write", "effect_claims": [{"effect": "write", "at": "app/agent.py:36"}]})
    );
}

const DB_TOOLS: &str = r#"import os

import boto3
import redis
from agents import Agent, function_tool
from sqlalchemy import text

from .db import SessionLocal, engine

cache = redis.Redis(host=os.environ.get("REDIS_HOST", "localhost"))


@function_tool
def cancel_order(order_id: int) -> str:
    with SessionLocal() as session:
        session.execute(text("UPDATE orders SET status = 'cancelled' WHERE id = :id"), {"id": order_id})
        session.commit()
    return "ok"


@function_tool
def order_count() -> int:
    with engine.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM orders")).scalar()


@function_tool
def remember(key: str, value: str) -> str:
    cache.set(f"notes:{key}", value)
    return "ok"


@function_tool
def upload(name: str, body: str) -> str:
    s3 = boto3.client("s3")
    s3.put_object(Bucket="reports", Key=f"{name}.txt", Body=body.encode())
    return "ok"


support = Agent(name="support", tools=[cancel_order, order_count, remember, upload])
"#;

const DB_MODULE: &str = r#"import os

from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

engine = create_engine(os.environ["DATABASE_URL"])
SessionLocal = sessionmaker(bind=engine)
"#;

/// Hostile cycles end in named limits, never in a crash: module objects
/// built from each other (`a = b.f()`, `b = a.g()`), paths bound to each
/// other, a name imported back and forth between two modules, and a
/// helper that only calls itself.
#[test]
fn cycles_between_module_names_end_in_limits() {
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[
            ("app/agent.py", CYCLES),
            ("app/other.py", "from .agent import c\n"),
        ],
        "app",
    );
    let reach = &side(&doc, "ping")["reach"];
    assert_eq!(
        reach["limits"],
        json!([
            {"at": "app/agent.py:21", "why": "calls a.get, which is not read"},
            {"at": "app/agent.py:23", "why": "calls p.write_text, which is not read"},
            {"at": "app/agent.py:24", "why": "calls c.cursor, which is not read"},
            {"at": "app/agent.py:25", "why": "calls q.execute, which is not read"}
        ])
    );
    assert_eq!(reach["calls"][0]["url"], "{…}");
}

const CYCLES: &str = r#"import requests
from pathlib import Path

from agents import Agent, function_tool

from .other import c

a = b.f()
b = a.g()
A = B
B = A
c = c


def rec(x):
    return rec(x)


@function_tool
def ping(name: str) -> str:
    x = a.get("https://api.example.com")
    p = A / name
    p.write_text(name)
    q = c.cursor()
    q.execute("SELECT 1")
    requests.get(rec(name))
    return x.text


support = Agent(name="support", tools=[ping])
"#;
