//! End to end (issue 17, item 2): function-local imports are imports. A
//! builder that imports its list inside its body reads it by the importing
//! module's rule; a caller that imports a builder inside a function calls
//! it as a builder.

mod support;

use support::{compare_branches, limits, row, rows};

const BILLING: &str = "from agents import function_tool\n\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n\n\n@function_tool\ndef invoice(order: str) -> str:\n    return order\n\n\n";

const AGENT: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\ndef build():\n    from app.tools.billing import BILLING_TOOLS\n    return Agent(name=\"support\", tools=[*BILLING_TOOLS, lookup])\n\n\nsupport = build()\n";

#[test]
fn a_list_a_builder_imports_itself_is_read_like_a_module_import() {
    // Before: "`BILLING_TOOLS`, which agent.py:10 does not bind once,
    // unconditionally, to a list literal", no row.
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools/__init__.py", ""),
            (
                "app/tools/billing.py",
                &format!("{BILLING}BILLING_TOOLS = [refund]\n"),
            ),
            ("app/agent.py", AGENT),
        ],
        &[(
            "app/tools/billing.py",
            &format!("{BILLING}BILLING_TOOLS = [refund, invoice]\n"),
        )],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("support", "invoice", "added")]);
    assert_eq!(doc["comparison_status"], "compared");
}

#[test]
fn a_list_imported_locally_and_changed_there_stays_a_limit() {
    let changed = format!("{BILLING}BILLING_TOOLS = [refund]\nBILLING_TOOLS.append(invoice)\n");
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools/__init__.py", ""),
            (
                "app/tools/billing.py",
                &format!("{BILLING}BILLING_TOOLS = [refund]\n"),
            ),
            ("app/agent.py", AGENT),
        ],
        &[("app/tools/billing.py", &changed)],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("'support'") && l.contains("BILLING_TOOLS")),
        "{:?}",
        limits(&doc, "head")
    );
}

#[test]
fn a_builder_a_function_imports_is_called_as_a_builder() {
    let factory = "from agents import Agent\n\n\ndef build(tools):\n    return Agent(name=\"support\", tools=tools)\n";
    let run = |tools: &str| {
        format!("{BILLING}\ndef main():\n    from app.factory import build\n    return build([{tools}])\n")
    };
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/factory.py", factory),
            ("app/run.py", &run("refund")),
        ],
        &[("app/run.py", &run("refund, invoice"))],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("support", "invoice", "added")]);
    assert_eq!(doc["comparison_status"], "compared");
}
