//! The `--json` document against its published schema,
//! `docs/application-comparison-0.4.schema.json` (output contract §2, §5.2,
//! §6.3, §7): every shape the tool prints — single and combined, explicit
//! and derived scope, `compared`/`partial`/`not_established`, function,
//! object and handoff bindings — is validated as printed, never patched.
//! A mutated document must fail, so the check is known to bite.

mod support;

use serde_json::{json, Value};
use support::schema::{check_schema, validate};
use support::{compare_branches, Place, Repo};

const SCHEMA: &str = include_str!("../docs/application-comparison-0.4.schema.json");

/// One way to break a valid document.
type Mutation = Box<dyn Fn(&mut Value)>;

fn schema() -> Value {
    serde_json::from_str(SCHEMA).expect("the schema file is JSON")
}

/// Validates a document as the tool printed it.
fn assert_valid(what: &str, doc: &Value) {
    let errors = validate(&schema(), doc);
    assert!(
        errors.is_empty(),
        "{what}: {} schema error(s):\n{}\n\ndocument:\n{doc:#}",
        errors.len(),
        errors.join("\n")
    );
}

/// The `change` of every row, sorted and de-duplicated.
fn changes(doc: &Value) -> Vec<String> {
    let mut out: Vec<String> = doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["change"].as_str().map(str::to_string))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Every binding side of every row.
fn sides(doc: &Value) -> Vec<&Value> {
    doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|r| [&r["before"], &r["after"]])
        .filter(|s| s.is_object())
        .collect()
}

/// Commits `base` on main and `head` on a branch `head` (a `None` content
/// deletes), then prints the JSON document once per argument list, through
/// one daemon.
fn documents(base: &[(&str, &str)], head: &[(&str, Option<&str>)], runs: &[&[&str]]) -> Vec<Value> {
    let repo = Repo::new();
    let files: Vec<(&str, Option<&str>)> = base.iter().map(|(p, c)| (*p, Some(*c))).collect();
    repo.commit(&files, "base");
    repo.git(&["checkout", "-q", "-b", "head"]);
    repo.commit(head, "head");
    let place = Place::new();
    let _daemon = place.start_daemon();
    runs.iter()
        .map(|extra| {
            let mut args = vec!["--base", "main", "--head", "head"];
            args.extend_from_slice(extra);
            place.diff_json(&repo, &args)
        })
        .collect()
}

// (a) An SDK application: a removed tool, a changed one, an added one
// imported from another module and bound under a condition through a
// builder's parameter, and an added handoff.

const RICH_BASE: &str = r#"from agents import Agent, function_tool


@function_tool
def lookup_order(order_id: str) -> dict:
    return {"id": order_id}


@function_tool
def cancel_order(order_id: str) -> bool:
    return True


billing = Agent(name="billing")
support = Agent(name="support", tools=[lookup_order, cancel_order], handoffs=[billing])
"#;

const RICH_HEAD: &str = r#"import os

from agents import Agent, function_tool

from .tools import refund_order

STRICT = os.getenv("STRICT")


@function_tool
def lookup_order(order_id: str, include_items: bool = False) -> dict:
    return {"id": order_id, "items": include_items}


billing = Agent(name="billing")
refunds = Agent(name="refunds")


def build(tools):
    return Agent(name="support", tools=tools, handoffs=[billing, refunds])


if STRICT:
    support = build([lookup_order])
else:
    support = build([lookup_order, refund_order])
"#;

const RICH_TOOLS: &str = r#"import requests
from agents import function_tool


@function_tool
def refund_order(order_id: str, amount: float) -> str:
    requests.post(f"https://api.example.com/orders/{order_id}/refund", json={"amount": amount})
    return "ok"
"#;

/// Fixture (a), `--scope app`: the single document with an explicit scope.
fn rich_document() -> Value {
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", RICH_BASE)],
        &[("app/agent.py", RICH_HEAD), ("app/tools.py", RICH_TOOLS)],
        "app",
    )
    .0
}

#[test]
fn the_schema_uses_only_what_the_validator_applies() {
    let schema = schema();
    assert_eq!(check_schema(&schema), Vec::<String>::new());
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(
        schema["properties"]["application_comparison_schema_version"]["const"],
        "0.4"
    );
}

#[test]
fn a_single_comparison_with_added_removed_and_changed_rows() {
    let explicit = rich_document();
    assert_eq!(changes(&explicit), ["added", "changed", "removed"]);
    assert_eq!(explicit["scope_selection"]["mode"], "explicit");
    // The fixture reaches the optional binding keys the schema types.
    let sides = sides(&explicit);
    for key in [
        "import_path",
        "bound_when",
        "builder_callers",
        "target_source",
    ] {
        assert!(
            sides.iter().any(|s| s.get(key).is_some()),
            "no side has {key}: {explicit:#}"
        );
    }
    assert_valid("single, explicit scope", &explicit);

    // The same change with the scope derived: still one comparison.
    let derived = documents(
        &[("app/__init__.py", ""), ("app/agent.py", RICH_BASE)],
        &[
            ("app/agent.py", Some(RICH_HEAD)),
            ("app/tools.py", Some(RICH_TOOLS)),
        ],
        &[&[]],
    )
    .remove(0);
    assert_eq!(derived["scope_selection"]["mode"], "derived");
    assert!(derived.get("comparisons").is_none(), "{derived:#}");
    assert_valid("single, derived scope", &derived);
}

// (b) Partial and not established.

const PARTIAL_BASE: &str = r#"from agents import Agent, function_tool


@function_tool
def lookup(q: str) -> str:
    return q


@function_tool
def refund(q: str) -> str:
    return q


billing = Agent(name="billing")
support = Agent(name="support", tools=[lookup, refund], handoffs=[billing])
"#;

const PARTIAL_HEAD: &str = r#"from agents import Agent, function_tool

from .tools import build_tools


@function_tool
def lookup(q: str) -> str:
    return q


billing = Agent(name="billing")
support = Agent(name="support", tools=build_tools(), handoffs=[billing])
"#;

const BUILD_TOOLS: &str =
    "import random\n\n\ndef build_tools():\n    return random.choice([[], []])\n";

#[test]
fn a_partial_comparison_with_not_established_rows() {
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", PARTIAL_BASE)],
        &[
            ("app/agent.py", PARTIAL_HEAD),
            ("app/tools.py", BUILD_TOOLS),
        ],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(changes(&doc), ["not_established"]);
    assert_eq!(
        doc["head"]["coverage_gaps"][0]["affects"],
        "binding_presence"
    );
    assert_valid("partial, not established rows", &doc);
}

#[test]
fn a_scope_without_agents_is_not_established() {
    let base = [("app/__init__.py", ""), ("app/util.py", "X = 1\n")];
    let docs = documents(
        &base,
        &[("app/util.py", Some("X = 2\n"))],
        &[&["--scope", "app"], &[]],
    );
    for (what, doc) in ["explicit scope", "derived, nothing compared"]
        .iter()
        .zip(&docs)
    {
        assert_eq!(doc["comparison_status"], "not_established", "{what}");
        assert_eq!(doc["rows"], json!([]), "{what}");
        assert_valid(what, doc);
    }
    assert_eq!(docs[1]["comparisons"], json!([]));
    assert_eq!(docs[1]["head"]["status"], "not_selected");
}

// (c) Tools bound as objects: an MCP server, a hosted tool, agents as
// tools, and agent settings.

const OBJECTS: &str = "import os\nfrom agents import Agent, ModelSettings, WebSearchTool, function_tool\nfrom agents.mcp import MCPServerStreamableHttp, create_static_tool_filter\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n";

const SEARCH: &str = "search = MCPServerStreamableHttp(\n    name=\"search\",\n    params={\"url\": os.getenv(\"SEARCH_URL\", \"https://search.example.com/mcp?v=1\"), \"headers\": {\"Authorization\": f\"Bearer {os.environ['SEARCH_KEY']}\", \"X-Client\": \"bot\"}},\n    tool_filter=create_static_tool_filter(allowed_tool_names=[\"web_search\"]),\n)\n";

#[test]
fn object_tools_and_agent_settings() {
    let base = format!(
        "{OBJECTS}billing = Agent(name=\"Billing agent\")\nsupport = Agent(name=\"support\", tools=[lookup, billing.as_tool(tool_name=\"ask_billing\", tool_description=\"Ask billing\")], tool_use_behavior=\"stop_on_first_tool\")\n"
    );
    let head = format!(
        "{OBJECTS}{SEARCH}billing = Agent(name=\"Billing agent\")\nsupport = Agent(name=\"support\", tools=[lookup, WebSearchTool(search_context_size=\"high\"), billing.as_tool(tool_name=\"ask_billing\", tool_description=\"Ask the billing team\"), billing.as_tool()], mcp_servers=[search], model_settings=ModelSettings(tool_choice=\"required\"), tool_use_behavior=\"stop_on_first_tool\")\n"
    );
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &base)],
        &[("app/agent.py", &head)],
        "app",
    );
    let kinds: Vec<&str> = sides(&doc)
        .iter()
        .filter_map(|s| s["object"]["kind"].as_str())
        .collect();
    for kind in ["mcp_server", "hosted_tool", "agent_tool"] {
        assert!(kinds.contains(&kind), "no {kind} side: {doc:#}");
    }
    assert!(
        sides(&doc)
            .iter()
            .any(|s| s.get("agent_settings").is_some()),
        "{doc:#}"
    );
    assert_valid("object tools", &doc);
}

// (d) Combined documents: two applications in one repository.

const APP_AGENT: &str = "from agents import Agent\n\nfrom ..services.tools import fetch_profile\n\nsupport = Agent(name=\"support\", tools=[fetch_profile])\n";
const APP_TOOLS: &str = "from agents import function_tool\n\n\n@function_tool\ndef fetch_profile(user_id: str) -> dict:\n    return {\"id\": user_id}\n";

fn application(prefix: &str) -> Vec<(String, String)> {
    vec![
        (format!("{prefix}/__init__.py"), String::new()),
        (format!("{prefix}/agents/__init__.py"), String::new()),
        (format!("{prefix}/agents/support.py"), APP_AGENT.to_string()),
        (format!("{prefix}/services/__init__.py"), String::new()),
        (format!("{prefix}/services/tools.py"), APP_TOOLS.to_string()),
    ]
}

#[test]
fn a_monorepo_gives_a_combined_document() {
    let mut base = application("services/alpha/alpha");
    base.extend(application("services/beta/beta"));
    base.push(("scripts/util.py".into(), "X = 1\n".into()));
    let base: Vec<(&str, &str)> = base.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    let changed = APP_TOOLS.replace("{\"id\": user_id}", "{\"id\": user_id, \"v\": 2}");
    let doc = documents(
        &base,
        &[
            ("services/alpha/alpha/services/tools.py", Some(&changed)),
            ("services/beta/beta/services/tools.py", Some(&changed)),
            // Related to no agent: a scope limit, so the answer is partial.
            ("scripts/util.py", Some("X = 2\n")),
        ],
        &[&[]],
    )
    .remove(0);
    assert_eq!(doc["comparisons"].as_array().map(Vec::len), Some(2));
    assert_eq!(doc["head"]["scope"], Value::Null);
    assert_eq!(doc["comparison_status"], "partial");
    assert_valid("combined", &doc);
}

// The validator bites: each mutation of a valid document is reported at
// the mutated place, which the unmutated document has no error at.

#[test]
fn a_mutated_document_fails_where_it_was_mutated() {
    let doc = rich_document();
    let schema = schema();
    let before = validate(&schema, &doc);
    let at = |errors: &[String], pointer: &str| {
        errors.iter().any(|e| e.starts_with(&format!("{pointer}:")))
    };
    let mutations: Vec<(&str, Mutation)> = vec![
        (
            "/rows/0/change",
            Box::new(|d| d["rows"][0]["change"] = json!("bogus")),
        ),
        (
            "/comparison_id",
            Box::new(|d| {
                d.as_object_mut().expect("object").remove("comparison_id");
            }),
        ),
        (
            "/comparison_id",
            Box::new(|d| d["comparison_id"] = json!("ABC123")),
        ),
        ("/verdict", Box::new(|d| d["verdict"] = json!("ship it"))),
        (
            "/application_comparison_schema_version",
            Box::new(|d| d["application_comparison_schema_version"] = json!("0.1")),
        ),
        (
            "/rows/0/before",
            Box::new(|d| d["rows"][0]["before"] = json!(42)),
        ),
        (
            "/rows/0/before",
            Box::new(|d| {
                d["rows"][0]["before"]
                    .as_object_mut()
                    .expect("a removed row has a before side")
                    .remove("edge_type");
            }),
        ),
        (
            "/head/coverage_gaps/0/affects",
            Box::new(|d| {
                d["head"]["coverage_gaps"] = json!([{"source": null, "agent": null, "tool": null, "affects": "everything", "reason": "r"}]);
            }),
        ),
        (
            "/scope_selection",
            Box::new(|d| d["scope_selection"]["mode"] = json!("guessed")),
        ),
        (
            "/rows/0/uncertainty/base",
            Box::new(|d| d["rows"][0]["uncertainty"] = json!({"base": "not a list"})),
        ),
        (
            "/summary/counts/total",
            Box::new(
                |d| d["summary"] = json!({"counts": {"total": "4", "added": 0, "removed": 0, "changed": 0, "not_established": 0}, "findings": [], "effects": [], "causes": [], "not_read": []}),
            ),
        ),
    ];
    for (pointer, mutate) in &mutations {
        assert!(
            !at(&before, pointer),
            "{pointer} fails before mutating: {before:#?}"
        );
        let mut mutated = doc.clone();
        mutate(&mut mutated);
        let errors = validate(&schema, &mutated);
        assert!(
            at(&errors, pointer),
            "mutating {pointer} was not reported; errors: {errors:#?}"
        );
    }
    // A side matching no binding shape names what failed inside it.
    let mut mutated = doc.clone();
    mutated["rows"][0]["before"]["definition"]["line"] = json!("5");
    let errors = validate(&schema, &mutated);
    assert!(
        errors.iter().any(|e| e.starts_with("/rows/0/before:")
            && e.contains("/rows/0/before/definition/line: expected integer or null")),
        "{errors:#?}"
    );
}

/// The validator's own keywords on small cases.
#[test]
fn the_validator_applies_each_keyword() {
    let schema = json!({
        "$defs": {"hex": {"type": "string", "pattern": "^[0-9a-f]{4}$"}},
        "type": "object",
        "required": ["id", "kind"],
        "properties": {
            "id": {"$ref": "#/$defs/hex"},
            "kind": {"enum": ["a", "b", null]},
            "fixed": {"const": true},
            "n": {"type": ["integer", "null"]},
            "list": {"type": "array", "items": {"type": "string"}},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "any": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
            "open": {"type": "object", "additionalProperties": {"type": "integer"}}
        },
        "additionalProperties": false
    });
    let valid = json!({"id": "00af", "kind": null, "fixed": true, "n": 3, "list": ["x"], "either": 1, "any": false, "open": {"k": 2}});
    assert_eq!(validate(&schema, &valid), Vec::<String>::new());
    let cases = [
        (json!({"kind": "a"}), "/id: required property is missing"),
        (
            json!({"id": "00AF", "kind": "a"}),
            "/id: \"00AF\" does not match",
        ),
        (
            json!({"id": "00af0", "kind": "a"}),
            "/id: \"00af0\" does not match",
        ),
        (
            json!({"id": "00af", "kind": "c"}),
            "/kind: \"c\" is not one of",
        ),
        (
            json!({"id": "00af", "kind": "a", "fixed": false}),
            "/fixed: expected true",
        ),
        (
            json!({"id": "00af", "kind": "a", "n": 1.5}),
            "/n: expected integer or null",
        ),
        (
            json!({"id": "00af", "kind": "a", "list": ["x", 1]}),
            "/list/1: expected string",
        ),
        (
            json!({"id": "00af", "kind": "a", "either": true}),
            "/either: matches none",
        ),
        (
            json!({"id": "00af", "kind": "a", "any": 1}),
            "/any: matches none",
        ),
        (
            json!({"id": "00af", "kind": "a", "open": {"k": "v"}}),
            "/open/k: expected integer",
        ),
        (
            json!({"id": "00af", "kind": "a", "x/y": 1}),
            "/x~1y: property is not allowed",
        ),
        (json!([]), "(root): expected object"),
    ];
    for (instance, expected) in cases {
        let errors = validate(&schema, &instance);
        assert!(
            errors.iter().any(|e| e.starts_with(expected)),
            "{instance}: expected an error starting {expected:?}, got {errors:#?}"
        );
    }
    let both = json!({"oneOf": [{"type": "integer"}, {"type": "number"}]});
    assert!(validate(&both, &json!(1))[0].contains("more than one oneOf alternative"));
    // What the validator does not implement is an error, never a pass.
    for unsupported in [
        json!({"multipleOf": 2}),
        json!({"pattern": "^(a|b)$"}),
        json!({"$ref": "#/$defs/missing"}),
    ] {
        assert!(!check_schema(&unsupported).is_empty(), "{unsupported}");
        assert!(validate(&unsupported, &json!(1))[0].starts_with("schema #/"));
    }
}
