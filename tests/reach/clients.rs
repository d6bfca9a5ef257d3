//! Cloud, database and messaging clients, connections, names the scope rebinds, and values a request is built from.

use super::*;

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

/// An installer called inside a function is found too, also under a name
/// of the module's own (`from ddtrace import patch as trace_all`): the
/// bodies whose calls are spelled with no installer's word are the only
/// ones not read.
#[test]
fn installing_an_http_stack_inside_a_function_is_named_under_any_name() {
    let setup = "import logfire\nfrom ddtrace import patch as trace_all\n\n\ndef boot():\n    trace_all(requests=True)\n\n\ndef observe():\n    logfire.instrument_httpx()\n\n\ndef quiet():\n    print(\"ready\")\n";
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[("app/agent.py", HTTP), ("app/setup.py", setup)],
        "app",
    );
    let limits = side(&doc, "status")["reach"]["limits"].clone();
    let found: Vec<(String, String)> = limits
        .as_array()
        .expect("limits")
        .iter()
        .filter(|l| {
            l["at"]
                .as_str()
                .is_some_and(|at| at.starts_with("app/setup.py"))
        })
        .map(|l| {
            (
                l["at"].as_str().unwrap_or("").to_string(),
                l["why"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let why = |name: &str| {
        format!("calls {name}, which installs or instruments the HTTP stack, so what a request sends is not established")
    };
    assert_eq!(
        found,
        vec![
            ("app/setup.py:6".to_string(), why("ddtrace.patch")),
            (
                "app/setup.py:10".to_string(),
                why("logfire.instrument_httpx")
            ),
        ],
        "{limits}"
    );
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
