//! The spec's own examples (the pull-request review, the finance agent), printed as the spec prints them, and lazily built pools.

use super::*;

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

/// Issue 40, item 13: the finance chain in the shape the real application
/// writes it. The tool runs `get_services` on a worker thread; `_fetch`
/// splices a table name in; `query_db` takes a connection from the pool
/// `init_db_pool()` returns and executes on a cursor opened in `with`
/// (`cursor_factory=RealDictCursor`). `init_db_pool` builds the module's
/// pool once under double-checked locking: it returns the global early
/// when it is set and again at its end, and both returns are the pool.
#[test]
fn the_specs_finance_example_in_its_real_form_reads_the_same() {
    let doc = |repository: &str| {
        compare_branches(
            &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
            &[
                ("app/agent.py", FINANCE_AGENT),
                ("app/tools.py", REAL_FINANCE_TOOLS),
                ("app/finance_data.py", REAL_FINANCE_DATA),
                ("app/repository.py", repository),
            ],
            "app",
        )
        .1
    };
    let text = doc(REAL_FINANCE_REPOSITORY);
    let expected = "    reaches: database read SELECT (postgresql, psycopg2 cursor.execute) at app/repository.py:32 via app/tools.py:7 get_services → app/finance_data.py:11 _fetch → app/finance_data.py:7 query_db
      host: aws-0-ap-southeast-1.pooler.supabase.com, env SUPABASE_DB_HOST
      credential: env SUPABASE_DB_PASSWORD → keyword password
    effect: write (provisional: unknown effect)
    reach limit: app/tools.py:7 calls asyncio.to_thread, which is not read
    reach limit: app/repository.py:28 calls init_db_pool, more than 3 helper calls from the tool; not read
    reach limit: app/repository.py:32 the SELECT statement splices in a value the read does not name; a further statement in it is not read
";
    assert!(text.contains(expected), "{text}");

    // Edges: an early return of another name, or a last return under a
    // condition (the function may end without returning the pool): what
    // it returns is not read, and the connection stays a limit.
    for edge in [
        REAL_FINANCE_REPOSITORY.replace(
            "    if _db_pool is not None:\n        return _db_pool",
            "    if _spare is not None:\n        return _spare",
        ),
        REAL_FINANCE_REPOSITORY.replace(
            "    return _db_pool\n\n\ndef query_db",
            "    if _db_pool:\n        return _db_pool\n\n\ndef query_db",
        ),
    ] {
        let text = doc(&edge);
        assert!(!text.contains("reaches: database read"), "{edge}\n{text}");
        assert!(
            text.contains("calls db_pool.getconn, which is not read"),
            "{edge}\n{text}"
        );
    }
}

const REAL_FINANCE_TOOLS: &str = r#"import asyncio

from .finance_data import get_services


async def load_service_catalog() -> dict:
    rows = await asyncio.to_thread(get_services)
    return {"services": rows}
"#;

const REAL_FINANCE_DATA: &str = r#"from .repository import query_db

TABLES = {"services": "service_catalog", "prices": "price_list"}


def _fetch(key):
    return query_db(f"SELECT * FROM {TABLES[key]}")


def get_services():
    return _fetch("services")
"#;

const REAL_FINANCE_REPOSITORY: &str = r#"import os
import threading

from psycopg2 import pool
from psycopg2.extras import RealDictCursor

_db_pool = None
_spare = None
_lock = threading.Lock()


def init_db_pool():
    global _db_pool
    if _db_pool is not None:
        return _db_pool
    with _lock:
        if _db_pool is None:
            _db_pool = pool.ThreadedConnectionPool(
                1,
                10,
                host=os.getenv("SUPABASE_DB_HOST", "aws-0-ap-southeast-1.pooler.supabase.com"),
                password=os.getenv("SUPABASE_DB_PASSWORD"),
            )
    return _db_pool


def query_db(query, params=None):
    db_pool = init_db_pool()
    connection = db_pool.getconn()
    try:
        with connection.cursor(cursor_factory=RealDictCursor) as cursor:
            cursor.execute(query, params)
            return cursor.fetchall()
    finally:
        db_pool.putconn(connection)
"#;
