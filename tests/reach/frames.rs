//! Namespace changes, URL templates, closures, recursion, module clients and parameters rebound from themselves.

use super::*;

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

/// A helper's parameters bind as Python binds them (`python::call_binding`,
/// shared with the value reader): what a `**` spread could give is not the
/// default, and what follows a `*` spread is not the next parameter.
/// Before, `send("/refund", **opts)` read `base` as its default, a host the
/// call never uses.
#[test]
fn a_spread_argument_leaves_the_parameters_it_could_fill_unnamed() {
    let head = r#"import requests
from agents import Agent, function_tool


def send(path, base="https://api.example.com"):
    return requests.post(base + path)


@function_tool
def refund(order: str) -> str:
    opts = {"base": "https://other.example.com"}
    return send("/refund", **opts).text


@function_tool
def status(order: str) -> str:
    parts = ["/status"]
    return send(*parts, "https://other.example.com").text


@function_tool
def lookup(order: str) -> str:
    return send("/lookup").text


support = Agent(name="support", tools=[refund, status, lookup])
"#;
    let (doc, _) = added(head);
    assert_eq!(
        side(&doc, "refund")["reach"]["calls"][0]["url"],
        "{…}/refund"
    );
    assert_eq!(side(&doc, "status")["reach"]["calls"][0]["url"], "{…}{…}");
    assert_eq!(
        side(&doc, "lookup")["reach"]["calls"][0]["url"],
        "https://api.example.com/lookup"
    );
}
