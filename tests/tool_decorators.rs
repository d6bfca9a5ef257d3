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

/// `tool.py` holding `decorators`, then `lookup` decorated by `applied`
/// under `@function_tool`, listed on `support`.
fn decorated(decorators: &str, applied: &str) -> String {
    format!(
        "import functools\nfrom agents import Agent, function_tool\n\n\n{decorators}\n\n@function_tool\n{applied}\ndef lookup(q: str) -> str:\n    return q\n\n\nagent = Agent(name=\"support\", tools=[lookup])\n"
    )
}

fn compare_decorated(base: &str, head: &str) -> Value {
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", base)],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

const LOGGED: &str = "def logged(label):\n    def decorator(func):\n        @functools.wraps(func)\n        def wrapper(*args, **kwargs):\n            print(label)\n            return func(*args, **kwargs)\n\n        return wrapper\n\n    return decorator\n";

/// Issue 40, item 1: a decorator factory whose one return is a decorator
/// it defines, itself a `wraps` wrapper: the tool is the function, and
/// its digest covers the factory's code and the call's arguments.
#[test]
fn a_decorator_factory_is_read_through() {
    let base = decorated(LOGGED, "@logged(\"lookup\")");
    let doc = compare_decorated(
        &base,
        &base.replace("print(label)", "print(\"called\", label)"),
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("agent", "lookup", "changed")]);
    assert_eq!(doc["rows"][0]["after"]["signature"], "lookup(q) -> str");
    let doc = compare_decorated(&base, &decorated(LOGGED, "@logged(\"search\")"));
    assert_eq!(rows(&doc), vec![row("agent", "lookup", "changed")]);
    let doc = compare_decorated(&base, &format!("{base}\n# edited\n"));
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
    // Stacked with a plain wraps decorator.
    let stacked = decorated(&format!("{LOGGED}\n\n{SAFE}"), "@logged(\"lookup\")\n@safe");
    let doc = compare_decorated(
        &stacked,
        &stacked.replace("return str(e)", "return repr(e)"),
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("agent", "lookup", "changed")]);
}

const DUAL: &str = "def tool(func=None, *, quiet=False):\n    def _decorator(fn):\n        return _build(fn, quiet=quiet)\n\n    if func is not None:\n        return _build(func, quiet=False)\n    return _decorator\n\n\ndef _build(func, *, quiet=False):\n    @functools.wraps(func)\n    async def async_wrapper(*args, **kwargs):\n        return await func(*args, **kwargs)\n\n    @functools.wraps(func)\n    def sync_wrapper(*args, **kwargs):\n        return func(*args, **kwargs)\n\n    if inspect.iscoroutinefunction(func):\n        return async_wrapper\n    else:\n        return sync_wrapper\n";

/// The dual-form decorator (`@tool` and `@tool(quiet=True)`) whose
/// builder returns one of two `wraps` wrappers: the test on the decorated
/// function (`func is not None`) is decided, the other one is open and
/// both of its returns are wrappers.
#[test]
fn a_dual_form_decorator_is_read_through() {
    let dual = format!("import inspect\n{DUAL}");
    for applied in ["@tool", "@tool(quiet=True)"] {
        let base = decorated(&dual, applied);
        let doc = compare_decorated(
            &base,
            &base.replace(
                "return func(*args, **kwargs)\n\n    if",
                "return func(*args, **kwargs) or None\n\n    if",
            ),
        );
        assert_eq!(
            doc["comparison_status"],
            "compared",
            "{applied}: {:?}",
            limits(&doc, "head")
        );
        assert_eq!(
            rows(&doc),
            vec![row("agent", "lookup", "changed")],
            "{applied}"
        );
    }
}

/// Edges: a factory that may return something else, a dual form whose
/// test on the function it cannot decide, and a decorator that may fall
/// off its end stay named stops on the tool.
#[test]
fn a_decorator_that_may_return_something_else_is_a_named_stop() {
    let dual = format!("import inspect\n{DUAL}");
    for (decorators, applied, reason) in [
        (
            LOGGED.replace(
                "    return decorator\n",
                "    if label:\n        return decorator\n    return None\n",
            ),
            "@logged(\"lookup\")",
            "a decorator factory which does not return a decorator it defines",
        ),
        (
            dual.replace("if func is not None:", "if isinstance(func, str):"),
            "@tool",
            "which does not return a wrapper decorated `@functools.wraps(func)`",
        ),
        (
            SAFE.replace(
                "    return wrapper\n",
                "    if func.__name__.startswith(\"_\"):\n        return wrapper\n",
            ),
            "@safe",
            "which may fall off its end and return None",
        ),
    ] {
        let base = decorated(&decorators, applied);
        let doc = compare_decorated(&base, &format!("{base}\n# edited\n"));
        assert_eq!(doc["comparison_status"], "partial", "{decorators}");
        assert!(
            limits(&doc, "head").iter().any(|l| l.contains(reason)),
            "{reason}: {:?}",
            limits(&doc, "head")
        );
    }
}
