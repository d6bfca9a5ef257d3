//! End to end: registries filled at import (issue 40, item 12;
//! `python/registries.rs`, `graph/build/eval/registries.rs`).
//!
//! `tools=all_tools()` where `all_tools` returns `list(_TOOLS.values())` and
//! `_TOOLS` is filled only by `@register` on module-level definitions of
//! modules the registry's module imports: the members are what those
//! modules register. The spec and the reference (1.2.0) name such a list a
//! dynamic expression; reading it is beyond both, sound by the rules in
//! the graph module's doc. Every edge below keeps a named limit.

mod support;

use support::{assert_compared, compare_branches, limits, row, rows};

const REGISTRY: &str = r#"_TOOLS = {}


def register(fn):
    _TOOLS[fn.__name__] = fn
    return fn


def all_tools():
    return list(_TOOLS.values())


from app.plugins import search  # noqa: E402  (each plugin registers on import)
"#;

const SEARCH: &str = r#"from agents import function_tool

from app.registry import register


@register
@function_tool
def search(query: str) -> str:
    """Search the catalogue."""
    return query
"#;

const BILLING: &str = r#"from agents import function_tool

from app.registry import register


@register
@function_tool
def refund(order_id: str) -> str:
    """Refund an order."""
    return order_id
"#;

const AGENT: &str = r#"from agents import Agent

from app.registry import all_tools

support = Agent(name="support", instructions="Help.", tools=all_tools())
"#;

fn base() -> Vec<(&'static str, String)> {
    vec![
        ("app/__init__.py", String::new()),
        ("app/plugins/__init__.py", String::new()),
        ("app/registry.py", REGISTRY.to_string()),
        ("app/plugins/search.py", SEARCH.to_string()),
        ("app/agent.py", AGENT.to_string()),
    ]
}

fn compare(head: &[(&str, String)]) -> serde_json::Value {
    let base = base();
    let base: Vec<(&str, &str)> = base.iter().map(|(p, s)| (*p, s.as_str())).collect();
    let head: Vec<(&str, &str)> = head.iter().map(|(p, s)| (*p, s.as_str())).collect();
    compare_branches(&base, &head, "app").0
}

/// The registry's module importing one more plugin adds what it registers.
fn with_billing(registry: &str, billing: &str) -> Vec<(&'static str, String)> {
    vec![
        ("app/registry.py", registry.to_string()),
        ("app/plugins/billing.py", billing.to_string()),
    ]
}

const IMPORTS_BILLING: &str = "from app.plugins import search, billing";

#[test]
fn a_registry_filled_by_plugins_its_module_imports_is_read() {
    let registry = REGISTRY.replace("from app.plugins import search", IMPORTS_BILLING);
    let doc = compare(&with_billing(&registry, BILLING));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    // A plugin's tool edited is that tool's change.
    let doc = compare(&[(
        "app/plugins/search.py",
        SEARCH.replace("return query", "return query.strip()"),
    )]);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "search", "changed")]);
}

#[test]
fn a_factory_registry_read_by_values_where_the_agent_is() {
    let registry = REGISTRY
        .replace(
            "def register(fn):\n    _TOOLS[fn.__name__] = fn\n    return fn\n",
            "def register(key):\n    def decorator(fn):\n        _TOOLS[key] = fn\n        return fn\n    return decorator\n",
        )
        .replace("from app.plugins import search", IMPORTS_BILLING);
    let search = SEARCH.replace("@register\n", "@register(\"search\")\n");
    let billing = BILLING.replace("@register\n", "@register(\"refund\")\n");
    let agent = AGENT
        .replace("import all_tools", "import _TOOLS")
        .replace("tools=all_tools()", "tools=[*_TOOLS.values()]");
    let base = base();
    let mut base: Vec<(&str, String)> = base;
    for (path, source) in [
        ("app/registry.py", &registry),
        ("app/plugins/search.py", &search),
        ("app/agent.py", &agent),
    ] {
        if let Some(file) = base.iter_mut().find(|(p, _)| *p == path) {
            file.1 = source.replace(IMPORTS_BILLING, "from app.plugins import search");
        }
    }
    let base: Vec<(&str, &str)> = base.iter().map(|(p, s)| (*p, s.as_str())).collect();
    let doc = compare_branches(
        &base,
        &[
            ("app/registry.py", registry.as_str()),
            ("app/plugins/billing.py", billing.as_str()),
        ],
        "app",
    )
    .0;
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    // Two registrations under one key: one replaces the other.
    let doc = compare_branches(
        &base,
        &[
            ("app/registry.py", registry.as_str()),
            (
                "app/plugins/billing.py",
                &billing.replace("@register(\"refund\")", "@register(\"search\")"),
            ),
        ],
        "app",
    )
    .0;
    assert_limit(&doc, "register under the same key 'search'");
    // One entry by its key is the definition registered under it; a key
    // nothing registers is named.
    for (listed, expected) in [
        (
            "_TOOLS[\"refund\"]",
            Some(vec![row("support", "refund", "added")]),
        ),
        ("_TOOLS[\"refunds\"]", None),
    ] {
        let agent = agent.replace(
            "[*_TOOLS.values()]",
            &format!("[*_TOOLS.values(), {listed}]"),
        );
        let doc = compare_branches(
            &base,
            &[
                ("app/registry.py", registry.as_str()),
                ("app/plugins/billing.py", billing.as_str()),
                ("app/agent.py", agent.as_str()),
            ],
            "app",
        )
        .0;
        match expected {
            Some(expected) => {
                assert_compared(&doc);
                assert_eq!(rows(&doc), expected);
            }
            None => assert_limit(&doc, "no registration fills under the key 'refunds'"),
        }
    }
}

fn assert_limit(doc: &serde_json::Value, says: &str) {
    assert_eq!(doc["comparison_status"], "partial", "{doc:#}");
    assert!(
        limits(doc, "head").iter().any(|l| l.contains(says)),
        "{says}: {:?}",
        limits(doc, "head")
    );
}

#[test]
fn a_registration_the_reader_cannot_prove_ran_keeps_the_limit() {
    let registry = REGISTRY.replace("from app.plugins import search", IMPORTS_BILLING);
    // A plugin the registry's module does not import (the agent's does).
    let doc = compare(&[
        ("app/plugins/billing.py", BILLING.to_string()),
        (
            "app/agent.py",
            AGENT.replace("from agents", "import app.plugins.billing\nfrom agents"),
        ),
    ]);
    assert_limit(&doc, "does not import at module level, unconditionally");
    // Registered in a function, or under a condition.
    let late = BILLING.replace("@register\n@function_tool", "@function_tool")
        + "\n\ndef install():\n    register(refund)\n";
    assert_limit(
        &compare(&with_billing(&registry, &late)),
        "uses other than as the outermost decorator",
    );
    let conditional = BILLING
        .replace("from app.registry", "import os\n\nfrom app.registry")
        .replace(
            "@register\n@function_tool\ndef refund",
            "if os.getenv(\"BILLING\"):\n    @register\n    @function_tool\n    def refund",
        )
        .replace(
            "    \"\"\"Refund an order.\"\"\"\n    return order_id",
            "        \"\"\"Refund an order.\"\"\"\n        return order_id",
        );
    assert_limit(
        &compare(&with_billing(&registry, &conditional)),
        "other than as the outermost decorator of a module-level definition",
    );
    // Read while it is being filled: a plugin reads the registry.
    let reading = BILLING.replace(
        "from app.registry import register",
        "from app.registry import all_tools, register",
    );
    assert_limit(
        &compare(&with_billing(&registry, &reading)),
        "reaches the registry at line",
    );
    // The registry changed other than by a registration.
    let cleared = registry.clone() + "\n_TOOLS.clear()\n";
    let doc = compare(&with_billing(&cleared, BILLING));
    assert_eq!(doc["comparison_status"], "partial", "{doc:#}");
}
