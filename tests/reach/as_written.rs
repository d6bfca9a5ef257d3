//! Tools as usually written: the standard library, async clients, ADK tools, database objects another module builds, cycles.

use super::*;

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
