//! End to end: an agent built inside a function (a builder, a method) and
//! named by a string constant (issue 40, item 2): `name=AGENT_NAME` where
//! the module binds `AGENT_NAME = "support"` once, or imports it from a
//! module that does, is the agent `support`, as at module level — when
//! nothing can rebind the constant before the function runs. The edges
//! keep today's answer (the agent named by its builder, `build@app/
//! agent.py`): the function binds the name itself, a function declares it
//! `global`, the scope stores an attribute of that name, the binding is
//! conditional. The reference (1.2.0) names none of these agents.

mod support;

use support::{compare_app, compare_branches, row, rows};

const NAMES: &str = "BILLING = \"billing\"\n";

/// The application: a builder named by a module constant and a method
/// named by an imported one; `extra` is added to the module, `tools` is
/// what both agents list.
fn app(extra: &str, tools: &str) -> String {
    format!(
        "from agents import Agent, function_tool\nfrom app.names import BILLING\n\nAGENT_NAME = \"support\"\n{extra}\n\n@function_tool\ndef lookup(order: str) -> str:\n    return order\n\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n\n\ndef build():\n    return Agent(name=AGENT_NAME, tools=[{tools}])\n\n\nclass Billing:\n    def build(self):\n        return Agent(name=BILLING, tools=[{tools}])\n\n\nsupport = build()\nbilling = Billing().build()\n"
    )
}

fn compare(extra: &str) -> serde_json::Value {
    let base = app(extra, "lookup");
    let head = app(extra, "lookup, refund");
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/names.py", NAMES),
            ("app/agent.py", &base),
        ],
        &[("app/agent.py", &head)],
        "app",
    )
    .0
}

#[test]
fn a_constant_names_an_agent_built_in_a_function_or_a_method() {
    let doc = compare("");
    assert_eq!(
        rows(&doc),
        vec![
            row("billing", "refund", "added"),
            row("support", "refund", "added")
        ],
        "{doc:#}"
    );
    assert_eq!(doc["comparison_status"], "compared");
}

#[test]
fn a_constant_something_could_rebind_does_not_name_the_agent() {
    // Each edge keeps a constant from naming its agent; the other agent
    // is still named where the edge is not about its constant.
    for (extra, support_named, billing_named) in [
        // A function that rebinds it.
        (
            "\n\ndef rename():\n    global AGENT_NAME\n    AGENT_NAME = \"other\"\n",
            false,
            true,
        ),
        // An attribute store of that name anywhere (the module's own,
        // through an import of itself or any alias).
        (
            "\nimport app.names\napp.names.BILLING = \"x\"\n",
            true,
            false,
        ),
        // A conditional binding.
        ("\nif __debug__:\n    AGENT_NAME = \"debug\"\n", false, true),
        // The module namespace changed under names the read cannot see:
        // its imported BILLING too could be rebound.
        (
            "\nglobals()[\"AGENT_\" + \"NAME\"] = \"other\"\n",
            false,
            false,
        ),
    ] {
        let doc = compare(extra);
        let agents: Vec<String> = rows(&doc).into_iter().map(|(agent, _, _)| agent).collect();
        assert_eq!(
            agents.contains(&"support".to_string()),
            support_named,
            "{extra}: {agents:?}"
        );
        assert_eq!(
            agents.contains(&"billing".to_string()),
            billing_named,
            "{extra}: {agents:?}"
        );
        assert_eq!(agents.len(), 2, "{extra}: one row for each agent: {doc:#}");
    }
}

#[test]
fn a_name_the_function_binds_itself_is_not_the_constant() {
    let shadowing = |tools: &str| {
        format!("from agents import Agent, function_tool\n\nAGENT_NAME = \"support\"\n\n\n@function_tool\ndef lookup(order: str) -> str:\n    return order\n\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n\n\ndef build(AGENT_NAME):\n    return Agent(name=AGENT_NAME, tools=[{tools}])\n\n\ndef build_local():\n    AGENT_NAME = \"local\"\n    return Agent(name=AGENT_NAME, tools=[{tools}])\n\n\na = build(\"a\")\nb = build_local()\n")
    };
    let doc = compare_app(&shadowing("lookup"), &shadowing("lookup, refund")).0;
    let agents: Vec<String> = rows(&doc).into_iter().map(|(agent, _, _)| agent).collect();
    assert!(!agents.contains(&"support".to_string()), "{agents:?}");
}

/// A `@function_tool(name_override=…)` is the tool the model sees by that
/// name. A string constant its module binds once before the definition
/// is read as the name (a change of its value is a change of the tool the
/// model sees); an override the read cannot name leaves the row
/// `not_established`, never the function's own name as if established.
/// The reference (1.2.0) names the tool after the function in both (a
/// silent hide when the constant changes).
#[test]
fn a_tool_name_override_is_the_name_the_model_sees() {
    let tools = |name: &str, override_value: &str| {
        format!("from agents import Agent, function_tool\n\nTOOL_NAME = \"{name}\"\n\n\ndef tool_name():\n    return \"dynamic\"\n\n\n@function_tool(name_override={override_value})\ndef refund(order: str) -> str:\n    return order\n\n\nsupport = Agent(name=\"support\", tools=[refund])\n")
    };
    let run = |base: &str, head: &str| compare_app(base, head).0;
    // The constant's value changes: the tool the model sees is renamed.
    let doc = run(
        &tools("refund_order", "TOOL_NAME"),
        &tools("refund_everything", "TOOL_NAME"),
    );
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "refund_everything", "added"),
            row("support", "refund_order", "removed")
        ],
        "{doc:#}"
    );
    // An override the read cannot name: the body's change is a row, but
    // not an established one.
    let doc = run(
        &tools("x", "tool_name()"),
        &tools("x", "tool_name()").replace("return order", "return order.strip()"),
    );
    assert_eq!(
        rows(&doc),
        vec![row("support", "refund", "not_established")],
        "{doc:#}"
    );
    let reasons = doc["rows"][0]["uncertainty"].to_string();
    assert!(
        reasons.contains("whose name_override is not read (tool_name()); the name the model sees is not established."),
        "{reasons}"
    );
}

/// `name=names.BILLING` (a constant read through its module, here in a
/// builder) and `as_tool(tool_name=CONST)` (a module constant, or one
/// imported): read as the literal they hold, with the census's word that
/// nothing rebinds them. The edges: a store of that attribute anywhere,
/// and a tool name bound twice, keep the limits.
#[test]
fn a_constant_through_its_module_and_an_agent_tools_name_are_read() {
    let names = "BILLING = \"billing\"\nREFUND_TOOL = \"refund_tool\"\n";
    let agent = |tools: &str, extra: &str| {
        format!(
            "from agents import Agent\n\nfrom . import names\nfrom .names import REFUND_TOOL\n\nLOOKUP_TOOL = \"lookup_tool\"\n{extra}\n\ndef build_billing():\n    return Agent(name=names.BILLING, instructions=\"bill\")\n\n\nbilling = build_billing()\nrefunds = Agent(name=\"refunds\")\ntriage = Agent(\n    name=\"triage\",\n    tools=[{tools}],\n    handoffs=[billing],\n)\n"
        )
    };
    let both = "refunds.as_tool(tool_name=REFUND_TOOL, tool_description=\"r\"), billing.as_tool(tool_name=LOOKUP_TOOL, tool_description=\"b\")";
    let compare = |extra: &str| {
        compare_branches(
            &[
                ("app/__init__.py", ""),
                ("app/names.py", names),
                ("app/agent.py", &agent("", extra)),
            ],
            &[("app/agent.py", &agent(both, extra))],
            "app",
        )
        .0
    };
    let doc = compare("");
    assert_eq!(doc["comparison_status"], "compared", "{doc:#}");
    assert_eq!(
        rows(&doc),
        vec![
            row("triage", "lookup_tool", "added"),
            row("triage", "refund_tool", "added"),
        ]
    );
    assert_eq!(
        doc["rows"][0]["after"]["object"]["agent"], "billing",
        "{doc:#}"
    );

    // A store of BILLING anywhere: the builder's agent is not named
    // `billing`, so neither the handoff nor the agent tool is read as it.
    let doc = compare("\n\ndef _rename():\n    names.BILLING = \"other\"\n");
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        rows(&doc).contains(&row("triage", "refund_tool", "added")),
        "{:?}",
        rows(&doc)
    );
    assert!(
        !rows(&doc).iter().any(|r| r.1 == "lookup_tool"),
        "{:?}",
        rows(&doc)
    );
    // A tool name bound twice is no constant.
    let doc = compare("LOOKUP_TOOL = \"other\"\n");
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        support::limits(&doc, "head")
            .iter()
            .any(|l| l.contains("whose tool_name is not a literal or a constant this reader names")),
        "{:#?}",
        support::limits(&doc, "head")
    );
}
