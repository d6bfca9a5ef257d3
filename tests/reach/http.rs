//! HTTP reach: requests through helpers and clients, effects beyond HTTP by library, the reference's rules.

use super::*;

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
