//! A synthetic Python monorepo for the benches: service packages of ordinary
//! modules plus OpenAI Agents SDK agent modules, committed twice with the
//! `git` CLI (a base, and a head that edits about 2% of the files).
//!
//! Everything is deterministic: content comes from a fixed-seed LCG and the
//! commits carry fixed dates, so the same arguments give the same commit ids
//! and every run measures the same bytes.

// Each bench binary compiles this module and uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Service modules per `services/svc_NNN` package.
const MODULES_PER_SERVICE: usize = 40;

/// A generated repository and what its head commit changed.
#[derive(Debug, Clone)]
pub struct Repo {
    pub path: PathBuf,
    pub base: String,
    pub head: String,
    /// Service modules (not `__init__.py`), relative to `path`.
    pub service_files: Vec<PathBuf>,
    /// Agent modules, relative to `path`.
    pub agent_files: Vec<PathBuf>,
    /// Python files whose content differs between base and head.
    pub changed_files: Vec<PathBuf>,
    /// The rows a base..head comparison must report, sorted.
    pub expected_rows: Vec<ExpectedRow>,
}

/// One row as `(agent, tool, change)`, the way the document spells it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ExpectedRow {
    pub agent: String,
    pub tool: String,
    pub change: String,
}

impl Repo {
    /// The current (head) bytes of the given repository-relative files.
    pub fn read(&self, files: &[PathBuf]) -> Vec<Vec<u8>> {
        files
            .iter()
            .map(|file| std::fs::read(self.path.join(file)).expect("reading a generated file"))
            .collect()
    }
}

/// Writes and commits the repository under `dir` (which should be empty):
/// `modules` service modules and `agents` agent modules.
pub fn generate(dir: &Path, modules: usize, agents: usize) -> Repo {
    let plan = Plan::new(modules, agents);
    std::fs::create_dir_all(dir).expect("creating the repository directory");
    git(dir, &["init", "-q"]);
    git(dir, &["config", "user.name", "shipgate bench"]);
    git(dir, &["config", "user.email", "bench@shipgate.invalid"]);
    write_tree(dir, &plan, Side::Base);
    let base = commit(dir, "base", "2024-01-01T00:00:00Z");
    write_tree(dir, &plan, Side::Head);
    let head = commit(dir, "head: edit ~2% of files", "2024-01-01T01:00:00Z");
    Repo {
        path: dir.to_path_buf(),
        base,
        head,
        service_files: (0..modules).map(service_path).collect(),
        agent_files: (0..agents).map(agent_path).collect(),
        changed_files: plan.changed_files(),
        expected_rows: plan.expected_rows(),
    }
}

// ---------------------------------------------------------------------------
// What the head commit changes.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Base,
    Head,
}

/// A head edit of a service module: either kind forces a re-parse, neither
/// touches an agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ServiceEdit {
    None,
    /// A constant inside the first function's body.
    Body,
    /// The module docstring only.
    Docstring,
}

/// A head edit of an agent module. Each touches only the last tool (or what
/// follows it), so no other function moves: the rows stay exactly these
/// whatever the implementation digest includes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AgentEdit {
    None,
    /// The last tool's body changes: a `changed` row.
    ToolBody,
    /// A new tool is defined and listed: an `added` row.
    AddTool,
    /// The last tool is unlisted and deleted: a `removed` row.
    RemoveTool,
}

/// Which files the head edits: ~2% of service modules (alternating body and
/// docstring edits, spread evenly) and the first three agents.
struct Plan {
    modules: usize,
    agents: usize,
    edited_services: Vec<(usize, ServiceEdit)>,
}

const AGENT_EDITS: [AgentEdit; 3] = [
    AgentEdit::ToolBody,
    AgentEdit::AddTool,
    AgentEdit::RemoveTool,
];

impl Plan {
    fn new(modules: usize, agents: usize) -> Self {
        let count = (modules / 50).max(1).min(modules);
        let edited_services = (0..count)
            .map(|i| {
                let edit = if i % 2 == 0 {
                    ServiceEdit::Body
                } else {
                    ServiceEdit::Docstring
                };
                (i * modules / count, edit)
            })
            .collect();
        Plan {
            modules,
            agents,
            edited_services,
        }
    }

    fn service_edit(&self, index: usize, side: Side) -> ServiceEdit {
        match side {
            Side::Base => ServiceEdit::None,
            Side::Head => self
                .edited_services
                .iter()
                .find(|(i, _)| *i == index)
                .map_or(ServiceEdit::None, |(_, edit)| *edit),
        }
    }

    fn agent_edit(&self, index: usize, side: Side) -> AgentEdit {
        match side {
            Side::Base => AgentEdit::None,
            Side::Head => AGENT_EDITS.get(index).copied().unwrap_or(AgentEdit::None),
        }
    }

    fn changed_files(&self) -> Vec<PathBuf> {
        let services = self.edited_services.iter().map(|(i, _)| service_path(*i));
        let agents = (0..self.agents.min(AGENT_EDITS.len())).map(agent_path);
        services.chain(agents).collect()
    }

    fn expected_rows(&self) -> Vec<ExpectedRow> {
        let mut rows: Vec<ExpectedRow> = (0..self.agents.min(AGENT_EDITS.len()))
            .map(|index| {
                let agent = AgentSpec::new(index);
                let (tool, change) = match AGENT_EDITS[index] {
                    AgentEdit::ToolBody => (agent.last_tool().name, "changed"),
                    AgentEdit::AddTool => (ADDED_TOOL.name, "added"),
                    AgentEdit::RemoveTool => (agent.last_tool().name, "removed"),
                    AgentEdit::None => unreachable!("AGENT_EDITS holds edits only"),
                };
                ExpectedRow {
                    agent: agent.variable(),
                    tool: tool.to_string(),
                    change: change.to_string(),
                }
            })
            .collect();
        rows.sort();
        rows
    }
}

// ---------------------------------------------------------------------------
// Writing and committing.

fn service_path(index: usize) -> PathBuf {
    let service = index / MODULES_PER_SERVICE;
    let module = index % MODULES_PER_SERVICE;
    PathBuf::from(format!("services/svc_{service:03}/pkg/mod_{module:03}.py"))
}

fn agent_path(index: usize) -> PathBuf {
    let role = ROLES[index % ROLES.len()];
    PathBuf::from(format!("assistants/{role}_{index:03}.py"))
}

fn write_tree(dir: &Path, plan: &Plan, side: Side) {
    for index in 0..plan.modules {
        let source = service_module(index, plan.service_edit(index, side));
        write_module(dir, &service_path(index), &source);
    }
    for index in 0..plan.agents {
        let source = AgentSpec::new(index).render(plan.agent_edit(index, side));
        write_module(dir, &agent_path(index), &source);
    }
}

/// Writes one module and an `__init__.py` in each of its directories, so the
/// tree is a set of importable packages as in a real monorepo.
fn write_module(root: &Path, relative: &Path, source: &str) {
    let path = root.join(relative);
    let parent = path.parent().expect("a module path has a directory");
    std::fs::create_dir_all(parent).expect("creating a package directory");
    for package in relative.ancestors().skip(1) {
        if package.as_os_str().is_empty() {
            break;
        }
        let init = root.join(package).join("__init__.py");
        if !init.exists() {
            std::fs::write(&init, "").expect("writing __init__.py");
        }
    }
    std::fs::write(&path, source).expect("writing a module");
}

/// Stages everything and commits at a fixed date; returns the commit id.
fn commit(dir: &Path, message: &str, date: &str) -> String {
    git(dir, &["add", "-A"]);
    let status = git_command(dir)
        .args(["-c", "commit.gpgsign=false", "commit", "-q", "-m", message])
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .status()
        .expect("running git commit");
    assert!(status.success(), "git commit failed in {}", dir.display());
    let out = git_command(dir)
        .args(["rev-parse", "HEAD"])
        .output()
        .expect("running git rev-parse");
    assert!(out.status.success(), "git rev-parse failed");
    String::from_utf8(out.stdout)
        .expect("a commit id is ASCII")
        .trim()
        .to_string()
}

fn git(dir: &Path, args: &[&str]) {
    let out = git_command(dir).args(args).output().expect("running git");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `git` in `dir`, isolated from the user's and the system's configuration
/// (hooks, templates, signing) so the commits are the same everywhere.
fn git_command(dir: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args(["-c", "init.defaultBranch=main"]);
    command
}

// ---------------------------------------------------------------------------
// Content.

/// A 64-bit LCG (Knuth's MMIX constants): enough variety, fully repeatable.
struct Lcg(u64);

impl Lcg {
    fn new(seed: u64) -> Self {
        let mut rng = Lcg(seed ^ 0x5348_4950_4741_5445);
        rng.next();
        rng
    }

    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

const NOUNS: [&str; 10] = [
    "orders",
    "invoices",
    "refunds",
    "shipments",
    "tickets",
    "accounts",
    "payments",
    "subscriptions",
    "quotes",
    "returns",
];

const REGIONS: [&str; 4] = ["eu-west-1", "us-east-1", "ap-south-1", "eu-central-1"];

/// One service module: a header, then 3–5 functions or classes (about 50–120
/// lines in all).
fn service_module(index: usize, edit: ServiceEdit) -> String {
    let mut rng = Lcg::new(index as u64);
    let noun = rng.pick(&NOUNS);
    let mut out = service_header(index, noun, edit, &mut rng);
    let count = 3 + rng.below(3);
    for k in 0..count {
        // The body edit bumps a constant of the first function only.
        let bump = if k == 0 && edit == ServiceEdit::Body {
            7
        } else {
            0
        };
        let template = SERVICE_TEMPLATES[rng.below(SERVICE_TEMPLATES.len())];
        out.push_str("\n\n");
        out.push_str(&template(&Ctx {
            noun,
            service: index / MODULES_PER_SERVICE,
            k,
            knob: 5 + rng.below(90) + bump,
        }));
        out.push('\n');
    }
    out
}

fn service_header(index: usize, noun: &str, edit: ServiceEdit, rng: &mut Lcg) -> String {
    let service = index / MODULES_PER_SERVICE;
    let module = index % MODULES_PER_SERVICE;
    let note = match edit {
        ServiceEdit::Docstring => "Generated for the shipgate benchmarks (revised wording).",
        _ => "Generated for the shipgate benchmarks.",
    };
    let sibling = match module {
        0 => String::new(),
        m => format!("from .mod_{:03} import ROUTES as SIBLING_ROUTES\n\n", m - 1),
    };
    format!(
        r#""""Service {service}, module {module}: {noun} handling.

{note}
"""

from __future__ import annotations

import json
import logging
from typing import Any

import requests

{sibling}LOG = logging.getLogger(__name__)
BASE_URL = "https://svc-{service:03}.internal.example.com/api/v{version}"
DEFAULTS = {{"timeout": {timeout}, "retries": 3, "region": "{region}"}}
ROUTES = ["{noun}", "health", "metrics"]
"#,
        version = 1 + rng.below(3),
        timeout = 5 + rng.below(25),
        region = rng.pick(&REGIONS),
    )
}

/// What a function template varies on.
struct Ctx<'a> {
    noun: &'a str,
    service: usize,
    /// Position in the module, to keep names unique.
    k: usize,
    /// A numeric constant in the body (the body edit changes it).
    knob: usize,
}

type Template = fn(&Ctx<'_>) -> String;

const SERVICE_TEMPLATES: [Template; 5] =
    [fetch_fn, store_class, normalise_fn, notify_fn, report_fn];

fn fetch_fn(c: &Ctx<'_>) -> String {
    format!(
        r#"def fetch_{noun}_{k}(customer_id: str, limit: int = 50) -> list[dict]:
    """Fetch open {noun} for one customer from the service API."""
    url = f"{{BASE_URL}}/{noun}/{{customer_id}}?limit={{limit}}"
    response = requests.post(url, json={{"customer": customer_id, "page": 1}}, timeout=DEFAULTS["timeout"])
    response.raise_for_status()
    items = []
    for row in response.json().get("items", []):
        if row.get("status") in ("open", "pending") and row.get("amount", 0) > {knob}:
            items.append(row)
    LOG.info("fetched %d %s rows", len(items), "{noun}")
    return items"#,
        noun = c.noun,
        k = c.k,
        knob = c.knob,
    )
}

fn store_class(c: &Ctx<'_>) -> String {
    let class = capitalised(c.noun);
    format!(
        r#"class {class}Store{k}:
    """In-memory index of {noun}, keyed by id, with a bounded size."""

    def __init__(self, capacity: int = {knob}) -> None:
        self.capacity = capacity
        self._items: dict[str, dict] = {{}}

    def put(self, key: str, value: dict) -> None:
        if len(self._items) >= self.capacity:
            oldest = next(iter(self._items))
            del self._items[oldest]
        self._items[key] = dict(value, stored=True)

    def summary(self) -> dict[str, int]:
        counts: dict[str, int] = {{}}
        for value in self._items.values():
            status = value.get("status", "unknown")
            counts[status] = counts.get(status, 0) + 1
        return counts"#,
        noun = c.noun,
        k = c.k,
        knob = c.knob,
    )
}

fn normalise_fn(c: &Ctx<'_>) -> String {
    format!(
        r#"def normalise_{noun}_{k}(raw: str) -> dict[str, Any]:
    """Parse and normalise one {noun} payload."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        LOG.warning("bad payload: %s", err)
        return {{"ok": False, "error": str(err)}}
    fields = [name for name in ("id", "amount", "currency", "status") if name in data]
    total = sum(float(line.get("amount", 0)) * {knob} / 100 for line in data.get("lines", []))
    return {{"ok": True, "fields": fields, "total": round(total, 2), "source": f"svc-{service}:{{data.get('id')}}"}}"#,
        noun = c.noun,
        k = c.k,
        knob = c.knob,
        service = c.service,
    )
}

fn notify_fn(c: &Ctx<'_>) -> String {
    format!(
        r#"async def notify_{noun}_{k}(client, event: dict, attempts: int = 3) -> bool:
    """Deliver one {noun} event, retrying with capped backoff."""
    delay = 0.5
    attempt = 0
    while attempt < attempts:
        attempt += 1
        result = await client.post(f"{{BASE_URL}}/events", json={{"event": event, "attempt": attempt}})
        if result.status_code < 300:
            return True
        delay = min(delay * 2, {knob})
    return False"#,
        noun = c.noun,
        k = c.k,
        knob = c.knob,
    )
}

fn report_fn(c: &Ctx<'_>) -> String {
    format!(
        r#"def report_{noun}_{k}(rows: list[dict]) -> str:
    """Render a plain-text report of the largest {noun}."""
    header = ["id", "status", "amount"]
    lines = [", ".join(header)]
    for row in sorted(rows, key=lambda r: r.get("amount", 0), reverse=True)[:{knob}]:
        lines.append(f"{{row['id']}}, {{row.get('status', '-')}}, {{row.get('amount', 0):.2f}}")
    footer = {{"count": len(rows), "service": "svc-{service}", "routes": ROUTES}}
    lines.append(json.dumps(footer, sort_keys=True))
    return "\n".join(lines)"#,
        noun = c.noun,
        k = c.k,
        knob = c.knob,
        service = c.service,
    )
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// One `@function_tool` an agent may list.
#[derive(Debug, Clone, Copy)]
struct ToolSpec {
    name: &'static str,
    params: &'static str,
    returns: &'static str,
    doc: &'static str,
    endpoint: &'static str,
    payload: &'static str,
}

const TOOLS: [ToolSpec; 8] = [
    ToolSpec {
        name: "lookup_order",
        params: "order_id: str, include_items: bool = False",
        returns: "dict",
        doc: "Look up one order by id.",
        endpoint: "orders/lookup",
        payload: r#"{"order_id": order_id, "items": include_items}"#,
    },
    ToolSpec {
        name: "refund_payment",
        params: r#"payment_id: str, amount: float, reason: str = "customer_request""#,
        returns: "dict",
        doc: "Refund part or all of a payment.",
        endpoint: "payments/refund",
        payload: r#"{"payment_id": payment_id, "amount": round(amount, 2), "reason": reason}"#,
    },
    ToolSpec {
        name: "search_tickets",
        params: "query: str, limit: int = 20",
        returns: "list",
        doc: "Search support tickets by free text.",
        endpoint: "tickets/search",
        payload: r#"{"q": query.strip(), "limit": min(limit, 100)}"#,
    },
    ToolSpec {
        name: "create_ticket",
        params: "subject: str, body: str, priority: int = 3",
        returns: "dict",
        doc: "Open a support ticket.",
        endpoint: "tickets",
        payload: r#"{"subject": subject, "body": body, "priority": priority}"#,
    },
    ToolSpec {
        name: "update_address",
        params: "customer_id: str, street: str, city: str, postcode: str",
        returns: "dict",
        doc: "Change a customer's postal address.",
        endpoint: "customers/address",
        payload: r#"{"customer": customer_id, "address": {"street": street, "city": city, "postcode": postcode}}"#,
    },
    ToolSpec {
        name: "cancel_subscription",
        params: "subscription_id: str, at_period_end: bool = True",
        returns: "dict",
        doc: "Cancel a subscription now or at the end of its period.",
        endpoint: "subscriptions/cancel",
        payload: r#"{"id": subscription_id, "at_period_end": at_period_end}"#,
    },
    ToolSpec {
        name: "get_invoice",
        params: "invoice_id: str",
        returns: "dict",
        doc: "Fetch one invoice with its lines.",
        endpoint: "invoices/get",
        payload: r#"{"invoice_id": invoice_id}"#,
    },
    ToolSpec {
        name: "schedule_callback",
        params: "customer_id: str, when: str, note: str | None = None",
        returns: "dict",
        doc: "Book a phone callback for a customer.",
        endpoint: "callbacks",
        payload: r#"{"customer": customer_id, "when": when, "note": note or ""}"#,
    },
];

/// The tool the `AddTool` edit introduces (in no agent's base list).
const ADDED_TOOL: ToolSpec = ToolSpec {
    name: "escalate_case",
    params: "case_id: str, team: str",
    returns: "dict",
    doc: "Hand a case to a specialist team.",
    endpoint: "cases/escalate",
    payload: r#"{"case": case_id, "team": team}"#,
};

const ROLES: [&str; 5] = ["support", "billing", "logistics", "retention", "sales"];

/// One agent module: 3–6 distinct tools and one `Agent(...)` listing them.
struct AgentSpec {
    index: usize,
    role: &'static str,
    tools: Vec<ToolSpec>,
}

impl AgentSpec {
    fn new(index: usize) -> Self {
        let mut rng = Lcg::new(1_000_000 + index as u64);
        let mut pool = TOOLS.to_vec();
        let count = 3 + rng.below(4);
        let tools = (0..count)
            .map(|_| pool.remove(rng.below(pool.len())))
            .collect();
        AgentSpec {
            index,
            role: ROLES[index % ROLES.len()],
            tools,
        }
    }

    fn variable(&self) -> String {
        format!("{}_agent_{:03}", self.role, self.index)
    }

    fn last_tool(&self) -> ToolSpec {
        *self
            .tools
            .last()
            .expect("an agent has at least three tools")
    }

    fn render(&self, edit: AgentEdit) -> String {
        let mut tools = self.tools.clone();
        match edit {
            AgentEdit::AddTool => tools.push(ADDED_TOOL),
            AgentEdit::RemoveTool => {
                tools.pop();
            }
            AgentEdit::None | AgentEdit::ToolBody => {}
        }
        let last = tools.len() - 1;
        let mut out = self.header();
        for (i, tool) in tools.iter().enumerate() {
            let timeout = if i == last && edit == AgentEdit::ToolBody {
                30
            } else {
                10
            };
            out.push_str(&render_tool(tool, timeout));
        }
        out.push_str(&self.construction(&tools));
        out
    }

    fn header(&self) -> String {
        format!(
            r#""""{title} assistant {index}: answers customer questions with a few API tools."""

from agents import Agent, function_tool
import requests

API = "https://{role}-{index:03}.internal.example.com/v1"
"#,
            title = capitalised(self.role),
            role = self.role,
            index = self.index,
        )
    }

    fn construction(&self, tools: &[ToolSpec]) -> String {
        let listed: Vec<&str> = tools.iter().map(|t| t.name).collect();
        format!(
            r#"

{variable} = Agent(
    name="{role} agent {index}",
    instructions=(
        "You help customers of the {role} desk. "
        "Use the tools to look things up before answering."
    ),
    tools=[{listed}],
)
"#,
            variable = self.variable(),
            role = capitalised(self.role),
            index = self.index,
            listed = listed.join(", "),
        )
    }
}

fn render_tool(tool: &ToolSpec, timeout: u32) -> String {
    format!(
        r#"

@function_tool
def {name}({params}) -> {returns}:
    """{doc}"""
    payload = {payload}
    response = requests.post(f"{{API}}/{endpoint}", json=payload, timeout={timeout})
    response.raise_for_status()
    return response.json()
"#,
        name = tool.name,
        params = tool.params,
        returns = tool.returns,
        doc = tool.doc,
        payload = tool.payload,
        endpoint = tool.endpoint,
    )
}

/// The real repository and pull request a bench reads:
/// `SHIPGATE_BENCH_REPO`, `SHIPGATE_BENCH_BASE` (default `HEAD~1`) and
/// `SHIPGATE_BENCH_HEAD` (default `HEAD`).
pub struct RealPair {
    pub repo: PathBuf,
    pub base: String,
    pub head: String,
}

impl RealPair {
    /// The pair, or `None` (said, naming `bench`) when no repository is set.
    pub fn from_env(bench: &str) -> Option<RealPair> {
        let Some(repo) = std::env::var_os("SHIPGATE_BENCH_REPO").map(PathBuf::from) else {
            eprintln!("{bench}: SHIPGATE_BENCH_REPO is not set; skipped");
            return None;
        };
        let variable =
            |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.to_string());
        Some(RealPair {
            repo,
            base: variable("SHIPGATE_BENCH_BASE", "HEAD~1"),
            head: variable("SHIPGATE_BENCH_HEAD", "HEAD"),
        })
    }

    /// The comparison of the pair, its scope derived as a CI run's.
    pub fn request(
        &self,
        format: shipgate_daemon::render::OutputFormat,
    ) -> shipgate_daemon::engine::DiffRequest {
        shipgate_daemon::engine::DiffRequest {
            workspace: self.repo.clone(),
            base: Some(self.base.clone()),
            head: Some(self.head.clone()),
            format,
            ..Default::default()
        }
    }
}

/// An engine over a fresh store in its own temporary directory. Fields drop
/// in order: the engine and cache (closing sled) before the lock and
/// directory.
pub struct Store {
    pub engine: shipgate_daemon::engine::Engine,
    pub cache: std::sync::Arc<shipgate_daemon::store::Cache>,
    _lock: shipgate_daemon::store::DataDirLock,
    _dir: tempfile::TempDir,
}

impl Store {
    pub fn fresh() -> Self {
        Self::fresh_with(None)
    }

    /// A fresh local store in front of `remote` (issue 44).
    pub fn fresh_with(remote: Option<&shipgate_daemon::store::RemoteOptions>) -> Self {
        let dir = tempfile::tempdir().expect("creating a store directory");
        let (lock, cache) =
            shipgate_daemon::server::open_store(dir.path(), remote).expect("opening a fresh store");
        Store {
            engine: shipgate_daemon::engine::Engine::new(std::sync::Arc::clone(&cache)),
            cache,
            _lock: lock,
            _dir: dir,
        }
    }
}

// ---------------------------------------------------------------------------
// Shapes that once read in exponential or quadratic time (issue 16, item 5).

/// The endpoint every fan-out helper sends to.
pub const FANOUT_ENDPOINT: &str = "https://api.example.com/";

/// One module of `n` helpers `h_i(x)`, each calling every helper (with a
/// literal where `(i + j) % 4 == 0`, else passing its own parameter on)
/// and then sending a GET to the endpoint with its parameter; one
/// `@function_tool` `tool(q)` calls them all, and an SDK agent binds it.
/// Twenty helpers are about 6 KB.
pub fn fanout_module(n: usize) -> String {
    let mut source = String::from("import requests\nfrom agents import Agent, function_tool\n\n");
    for i in 0..n {
        source.push_str(&format!("\ndef h_{i}(x):\n"));
        for j in 0..n {
            if (i + j) % 4 == 0 {
                source.push_str(&format!("    h_{j}(\"v{j}\")\n"));
            } else {
                source.push_str(&format!("    h_{j}(x)\n"));
            }
        }
        source.push_str(&format!(
            "    return requests.get(f\"{FANOUT_ENDPOINT}{{x}}\")\n\n"
        ));
    }
    source.push_str("\n@function_tool\ndef tool(q: str) -> str:\n");
    for j in 0..n {
        source.push_str(&format!("    h_{j}(q)\n"));
    }
    source.push_str("    return \"ok\"\n\n\nagent = Agent(name=\"a\", tools=[tool])\n");
    source
}

/// One module of `n` one-line `@function_tool` definitions, all listed by
/// one SDK agent (50,000 are under 2 MB).
pub fn many_tools_module(n: usize) -> String {
    let mut source = String::from("from agents import Agent, function_tool\n\n");
    for i in 0..n {
        source.push_str(&format!("@function_tool\ndef t{i}(q):q\n"));
    }
    let names: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
    source.push_str(&format!(
        "\n\nagent = Agent(name=\"a\", tools=[{}])\n",
        names.join(",")
    ));
    source
}

/// One module of `n` SDK agents, each handing off to the one before it and
/// binding one tool (`h{i} = Agent(name="h{i}", handoffs=[h{i-1}],
/// tools=[lookup])`): 4,000 agents are about 240 KB.
pub fn handoff_chain_module(n: usize) -> String {
    let mut source = String::from(
        "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\nh0 = Agent(name=\"h0\", tools=[lookup])\n",
    );
    for i in 1..n {
        source.push_str(&format!(
            "h{i} = Agent(name=\"h{i}\", handoffs=[h{}], tools=[lookup])\n",
            i - 1
        ));
    }
    source
}

/// Feeds `script` to `git fast-import` in `repo`.
pub fn fast_import(repo: &Path, script: &[u8]) {
    use std::io::Write;
    let mut child = std::process::Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["fast-import", "--quiet"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("running git fast-import");
    child
        .stdin
        .take()
        .expect("fast-import stdin")
        .write_all(script)
        .expect("feeding fast-import");
    assert!(child.wait().expect("fast-import").success());
}
