//! End to end: a tool's own decorators besides `@function_tool` (issue 19,
//! `graph/build/decorators.rs`). A repository decorator whose one return
//! is a `@functools.wraps(func)` wrapper is read through: the tool is the
//! function (its name and signature, which `wraps` carries), and its digest
//! covers the decorator's code, so a change to the wrapper is a changed
//! row. Before this, such a tool was read as the bare function and a
//! change to its wrapper was silence. Any other repository decorator is a
//! named stop on the tool. The reference (1.2.0) reads the decorated
//! function as is.

mod support;

use serde_json::Value;
use support::{compare_branches, limits, row, rows};

fn module(decorator: &str) -> String {
    format!(
        r#"import functools
from agents import Agent, function_tool


{decorator}

@function_tool
@safe
def lookup(q: str) -> str:
    return q


@function_tool
def refund(order: str) -> str:
    return order


agent = Agent(name="support", tools=[lookup, refund])
"#
    )
}

const SAFE: &str = r#"def safe(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except Exception as e:
            return str(e)

    return wrapper
"#;

fn compare(base: &str, head: &str) -> Value {
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &module(base))],
        &[("app/agent.py", &module(head))],
        "app",
    )
    .0
}

#[test]
fn a_change_to_a_wraps_wrapper_is_a_change_to_the_tool() {
    let doc = compare(
        SAFE,
        &SAFE.replace("return str(e)", "return \"error: \" + str(e)"),
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("agent", "lookup", "changed")]);
    // The tool keeps the function's name and interface.
    assert_eq!(doc["rows"][0]["after"]["signature"], "lookup(q) -> str");
    // Unchanged, it is no row.
    let doc = compare(SAFE, SAFE);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
}

#[test]
fn a_decorator_without_wraps_is_a_named_stop_on_the_tool() {
    // Without `wraps`, the SDK sees `wrapper`'s name and signature.
    let bare = SAFE.replace("    @functools.wraps(func)\n", "");
    let doc = compare(&bare, &bare.replace("return str(e)", "return repr(e)"));
    // Unread on both sides, it is no row, and the comparison is partial.
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    assert!(
        limits(&doc, "head").iter().any(|l| l.contains(
            "'lookup' is decorated with `safe` (agent.py:5), which does not return a wrapper decorated `@functools.wraps(func)`"
        )),
        "{:?}",
        limits(&doc, "head")
    );
}

/// `function_tool(safe(refund))`, inline or bound to a name: the
/// decorator applied by hand is read through the same way.
#[test]
fn a_decorator_applied_by_hand_is_read_through() {
    let listed = |decorator: &str, tools: &str| {
        format!(
            "import functools\nfrom agents import Agent, function_tool\n\n\n{decorator}\n\ndef refund(order: str) -> str:\n    return order\n\n\n{tools}"
        )
    };
    for tools in [
        "agent = Agent(name=\"support\", tools=[function_tool(safe(refund))])\n",
        "safe_refund = function_tool(safe(refund))\nagent = Agent(name=\"support\", tools=[safe_refund])\n",
    ] {
        let changed = SAFE.replace("return str(e)", "return repr(e)");
        let doc = compare_branches(
            &[("app/__init__.py", ""), ("app/agent.py", &listed(SAFE, tools))],
            &[("app/agent.py", &listed(&changed, tools))],
            "app",
        )
        .0;
        assert_eq!(doc["comparison_status"], "compared", "{tools}");
        assert_eq!(rows(&doc), vec![row("agent", "refund", "changed")], "{tools}");
    }
    // A call that is not such a decorator is named.
    let opaque = "def safe(func):\n    return lambda *args: func(*args)\n";
    let tools = "agent = Agent(name=\"support\", tools=[function_tool(safe(refund))])\n";
    let doc = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", &listed(opaque, tools)),
        ],
        &[(
            "app/agent.py",
            &listed(opaque, &tools.replace("support", "helpdesk")),
        )],
        "app",
    )
    .0;
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("`safe` (agent.py:5), which does not return a wrapper it defines")),
        "{:?}",
        limits(&doc, "head")
    );
}
