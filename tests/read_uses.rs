//! End to end (issue 17, items 3 and 5): a capability list a module also
//! only reads (`len`, iteration, a truth test, a membership test,
//! formatting) is still read; a use that could change it or hand it away
//! keeps the limit. A copy of an agent that passes its own tools is a
//! limit wherever its original came from, unless the original is proven
//! not to be an agent.

mod support;

use serde_json::Value;
use support::{compare_branches, limits, row, rows};

const TOOLS: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n\n\n";

fn compare(base: &str, head: &str) -> Value {
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", base)],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

/// A module that binds `TOOLS = list` and, besides the agent, `reads`.
fn with_reads(list: &str, reads: &str) -> String {
    format!("{TOOLS}TOOLS = {list}\n{reads}\nsupport = Agent(name=\"support\", tools=TOOLS)\n")
}

const READS: &str = "import logging\n\nlog = logging.getLogger(__name__)\nlog.info(\"%d tools\", len(TOOLS))\nNAMES = [t.__name__ for t in TOOLS]\nfor t in TOOLS:\n    log.debug(t)\nif TOOLS and not DEBUG:\n    log.info(f\"tools: {TOOLS}\")\nHAS_REFUND = refund in TOOLS\nDEBUG = False\n";

#[test]
fn a_list_the_module_also_only_reads_is_read() {
    // Before: "`TOOLS`, which agent.py uses other than as an agent's list,
    // so it could change", and no row.
    let doc = compare(
        &with_reads("[lookup]", READS),
        &with_reads("[lookup, refund]", READS),
    );
    assert_eq!(limits(&doc, "head"), Vec::<String>::new());
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(limits(&doc, "head"), Vec::<String>::new());
}

#[test]
fn a_use_that_could_change_or_hand_away_the_list_keeps_the_limit() {
    for (name, reads) in [
        // A method that changes it at module level before the agent is
        // built is read since issue 40 (`tests/built_agents.rs`); from a
        // function it could run at any time.
        (
            "a method that changes it",
            "def more():\n    TOOLS.append(lookup)\n",
        ),
        (
            "an alias that changes it",
            "OTHER = TOOLS or []\nOTHER.append(refund)\n",
        ),
        (
            "a call of the module's own",
            "def register(x):\n    return x\n\n\nregister(TOOLS)\n",
        ),
        (
            "a builtin the module rebinds",
            "def len(x):\n    x.append(refund)\n    return 0\n\n\nlen(TOOLS)\n",
        ),
    ] {
        let doc = compare(
            &with_reads("[lookup]", reads),
            &with_reads("[lookup, refund]", reads),
        );
        assert_eq!(doc["comparison_status"], "partial", "{name}");
        let head = limits(&doc, "head");
        assert!(
            head.iter()
                .any(|l| l.contains("support") && l.contains("`TOOLS`")),
            "{name}: {head:?}"
        );
    }
}

#[test]
fn a_copy_of_an_agent_a_call_returns_is_a_limit() {
    // Before: `compared`, no row, no limit.
    let base = format!("{TOOLS}from .loader import load_agent\n\nbase = load_agent()\nsupport = base.clone(tools=[lookup])\n");
    let head = format!("{TOOLS}from .loader import load_agent\n\nOK = True\nbase = load_agent()\nsupport = base.clone(tools=[lookup, refund] if OK else [])\n");
    let loader = "def load_agent():\n    return None\n";
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/loader.py", loader),
            ("app/agent.py", &base),
        ],
        &[("app/agent.py", &head)],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["An agent copy at agent.py:18 ('base') is not read; the agent it makes and its tools, handoffs or MCP servers are not established.".to_string()]
    );
}

#[test]
fn a_copy_whose_original_is_a_parameter_is_a_limit_and_a_literal_is_not() {
    let base = format!("{TOOLS}support = Agent(name=\"support\", tools=[lookup])\n");
    let head = format!("{TOOLS}support = Agent(name=\"support\", tools=[lookup])\n\n\ndef specialise(agent):\n    return agent.clone(tools=[refund])\n\n\nSETTINGS = {{\"name\": \"x\"}}\nCOPY = SETTINGS.clone(tools=[])\n");
    let doc = compare(&base, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["An agent copy at agent.py:18 ('agent') is not read; the agent it makes and its tools, handoffs or MCP servers are not established.".to_string()],
        "the dict's copy is proven not an agent's"
    );
}

/// Issue 40, item 6: a list handed to a function of the repository that
/// only reads it (its length, iteration, formatting, a standard logger) is
/// still read, at module level and in a builder. The edges keep the limit:
/// the function changes it, keeps it in a closure, is decorated, takes it
/// through `*args`, or hands it to a logger that is not the standard one.
#[test]
fn a_list_handed_to_a_function_that_only_reads_it_is_read() {
    let describe = "import logging\n\nlogger = logging.getLogger(__name__)\n\n\ndef describe(ts):\n    logger.info(\"tools: %d\", len(ts))\n    for t in ts:\n        logger.info(\"tool %s\", t)\n    names = \", \".join(str(t) for t in ts)\n    logger.debug(\"all: %s\", ts)\n    print(f\"loaded {names} from {ts}\")\n\n\n";
    let module_level = |list: &str, body: &str| {
        format!("{TOOLS}{body}TOOLS = {list}\ndescribe(TOOLS)\nsupport = Agent(name=\"support\", tools=TOOLS)\n")
    };
    let in_builder = |list: &str, body: &str| {
        format!("{TOOLS}{body}def build():\n    tools = {list}\n    describe(tools)\n    return Agent(name=\"support\", tools=tools)\n\n\nsupport = build()\n")
    };
    for shape in [module_level, in_builder] {
        let doc = compare(
            &shape("[lookup]", describe),
            &shape("[lookup, refund]", describe),
        );
        assert_eq!(limits(&doc, "head"), Vec::<String>::new());
        assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    }
    for (name, body) in [
        ("it changes it", "def describe(ts):\n    ts.append(refund)\n\n\n"),
        (
            "a closure keeps it",
            "def describe(ts):\n    def later():\n        return len(ts)\n    return later\n\n\n",
        ),
        (
            "it is decorated",
            "def traced(f):\n    return f\n\n\n@traced\ndef describe(ts):\n    return len(ts)\n\n\n",
        ),
        ("it takes it through *args", "def describe(*ts):\n    return len(ts)\n\n\n"),
        (
            "its logger is not the standard one",
            "from .log import make_logger\n\nlogger = make_logger()\n\n\ndef describe(ts):\n    logger.info(ts)\n\n\n",
        ),
    ] {
        for shape in [module_level, in_builder] {
            let doc = compare(&shape("[lookup]", body), &shape("[lookup, refund]", body));
            assert_eq!(doc["comparison_status"], "partial", "{name}");
            assert!(
                rows(&doc).iter().all(|r| r.2 == "not_established"),
                "{name}: {:?}",
                rows(&doc)
            );
        }
    }
}
