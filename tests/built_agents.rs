//! End to end: shapes real applications write (issue 40, items 4 and 6
//! and the lazy re-exports found in the dev corpus), each with the edges
//! where its rule does not hold; rows and statuses asserted exactly.
//!
//! - A sub-agent or handoff written as a builder's call, or as a
//!   function's local bound once to one (or to a construction), is the
//!   agent the builder's construction is (`eval::built_agents`).
//! - A copy of a list passed to another function (`describe(list(TOOLS))`)
//!   only reads the list.
//! - A list imported from another module is read by that module's
//!   reader: its spreads (`*SHARED_TOOLS`) are members.
//! - A package `__getattr__` answering names from a literal registry
//!   (`{"lookup": (".search", "lookup")}`) gives what `from .search import
//!   lookup` gives (`python::getattr_hook::registry`).
//!
//! The reference (1.2.0) reads none of these: it names each a limit.

mod support;

use support::{assert_compared, compare_branches, limits, row, rows};

const ADK_TOOLS: &str =
    "def lookup(x: str) -> str:\n    return x\n\n\ndef refund(x: str) -> str:\n    return x\n";

fn writer(tools: &str) -> String {
    format!("from google.adk.agents import Agent\nfrom app.tools import lookup, refund\n\n\ndef create_writer_agent() -> Agent:\n    return Agent(name=\"writer_agent\", model=\"m\", tools=[{tools}])\n")
}

const PIPELINE: &str = "from google.adk.agents import Agent, SequentialAgent\nfrom app.writer import create_writer_agent\nfrom app.tools import refund\n\n\ndef create_editor():\n    editor = Agent(name=\"editor\", model=\"m\", tools=[refund])\n    return editor\n\n\ndef build():\n    writer = create_writer_agent()\n    return SequentialAgent(name=\"pipeline\", sub_agents=[writer, create_editor()])\n\n\nroot_agent = build()\n";

fn pipeline_app(writer_tools: &str, pipeline: &str) -> Vec<(&'static str, String)> {
    vec![
        ("app/__init__.py", String::new()),
        ("app/tools.py", ADK_TOOLS.to_string()),
        ("app/writer.py", writer(writer_tools)),
        ("app/pipeline.py", pipeline.to_string()),
    ]
}

fn compare(base: &[(&str, String)], head: &[(&str, String)]) -> serde_json::Value {
    let base: Vec<(&str, &str)> = base.iter().map(|(p, s)| (*p, s.as_str())).collect();
    let head: Vec<(&str, &str)> = head.iter().map(|(p, s)| (*p, s.as_str())).collect();
    compare_branches(&base, &head, "app").0
}

/// A builder's call and a local bound once to one name the builder's
/// agent: its tools' change is an established row of that agent, and
/// dropping it from the list an established `removed` sub-agent row.
#[test]
fn a_builders_call_is_the_agent_it_builds() {
    let base = pipeline_app("lookup", PIPELINE);
    let doc = compare(&base, &pipeline_app("lookup, refund", PIPELINE));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("writer_agent", "refund", "added")]);
    let dropped = PIPELINE.replace(
        "sub_agents=[writer, create_editor()]",
        "sub_agents=[create_editor()]",
    );
    let doc = compare(&base, &pipeline_app("lookup", &dropped));
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("pipeline", "handoff:writer.py:writer_agent", "removed")]
    );
    // The call written in place is the same agent as the local: no row.
    let inline = PIPELINE.replace(
        "sub_agents=[writer, ",
        "sub_agents=[create_writer_agent(), ",
    );
    let doc = compare(&base, &pipeline_app("lookup", &inline));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
}

/// Edges: a local bound on two branches, and a builder with two returns,
/// are not read; the sub-agent is `not_established`, never `removed`.
#[test]
fn a_builder_or_local_not_read_keeps_its_limit() {
    let base = pipeline_app("lookup", PIPELINE);
    let branches = PIPELINE
        .replace("def build():\n    writer = create_writer_agent()\n", "def build(fast):\n    if fast:\n        writer = create_writer_agent()\n    else:\n        writer = create_editor()\n")
        .replace("root_agent = build()", "root_agent = build(True)");
    let doc = compare(&base, &pipeline_app("lookup", &branches));
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![
            row("pipeline", "handoff:?:writer", "not_established"),
            row(
                "pipeline",
                "handoff:writer.py:writer_agent",
                "not_established"
            ),
        ]
    );
    assert!(limits(&doc, "head")
        .iter()
        .any(|l| l.contains("'writer' is bound more than once in `build`")));
    let mut two_returns = pipeline_app("lookup", PIPELINE);
    two_returns[2].1 = "from google.adk.agents import Agent\nfrom app.tools import lookup\n\n\ndef create_writer_agent(short=False) -> Agent:\n    if short:\n        return Agent(name=\"writer_agent\", model=\"m\", tools=[])\n    return Agent(name=\"writer_agent\", model=\"m\", tools=[lookup])\n".to_string();
    let doc = compare(&base, &two_returns);
    assert_eq!(doc["comparison_status"], "partial");
    assert!(limits(&doc, "head").iter().any(|l| l.contains(
        "`create_writer_agent` does not return once, unconditionally, as its last statement"
    )));
    assert!(rows(&doc)
        .iter()
        .all(|(_, _, change)| change == "not_established"));
}

const SDK_BILLING: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef refund(x: str) -> str:\n    return x\n\n\ndef make_billing():\n    return Agent(name=\"billing\", tools=[refund])\n";

/// The SDK's handoffs the same way: a builder's call in place and a
/// local bound to it are one agent; removing it is an established row.
#[test]
fn an_sdk_handoff_to_a_builders_call() {
    let main = |handoffs: &str| {
        format!("from agents import Agent\nfrom app.billing import make_billing\n\n\ndef main():\n    billing = make_billing()\n    return Agent(name=\"triage\", handoffs={handoffs})\n\n\ntriage = main()\n")
    };
    let app = |handoffs: &str| {
        vec![
            ("app/__init__.py", String::new()),
            ("app/billing.py", SDK_BILLING.to_string()),
            ("app/main.py", main(handoffs)),
        ]
    };
    let doc = compare(&app("[billing]"), &app("[make_billing()]"));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    let doc = compare(&app("[make_billing()]"), &app("[]"));
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:billing.py:billing", "removed")]
    );
}

const REGISTRY: &str = "from app.tools import lookup, refund\n\nSHARED_TOOLS = [\n    lookup,\n]\n\nANALYST_TOOLS = [\n    *SHARED_TOOLS,\n]\n";

const ANALYST: &str = "from google.adk.agents import LlmAgent\nfrom app.registry import ANALYST_TOOLS\n\n\ndef describe(tools):\n    return \", \".join(str(t) for t in tools)\n\n\nanalyst = LlmAgent(\n    name=\"analyst\",\n    model=\"m\",\n    instruction=describe(list(ANALYST_TOOLS)),\n    tools=list(ANALYST_TOOLS),\n)\n";

fn registry_app(registry: &str, analyst: &str) -> Vec<(&'static str, String)> {
    vec![
        ("app/__init__.py", String::new()),
        ("app/tools.py", ADK_TOOLS.to_string()),
        ("app/registry.py", registry.to_string()),
        ("app/analyst.py", analyst.to_string()),
    ]
}

/// A list imported from a registry module, spread from another list
/// there, and passed on as a copy (`describe(list(ANALYST_TOOLS))`): every
/// member is read, so a tool added to the shared list is an established
/// row.
#[test]
fn an_imported_list_with_spreads_passed_on_as_a_copy() {
    let base = registry_app(REGISTRY, ANALYST);
    let head = registry_app(
        &REGISTRY.replace("    lookup,\n", "    lookup,\n    refund,\n"),
        ANALYST,
    );
    let doc = compare(&base, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("analyst", "refund", "added")]);
    // Edge: the list itself passed on (not a copy) may be changed there.
    let passed = ANALYST.replace("describe(list(ANALYST_TOOLS))", "describe(ANALYST_TOOLS)");
    let doc = compare(
        &registry_app(REGISTRY, &passed),
        &registry_app(
            &REGISTRY.replace("    lookup,\n", "    lookup,\n    refund,\n"),
            &passed,
        ),
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert!(limits(&doc, "head")
        .iter()
        .any(|l| l.contains("uses other than as an agent's list, so it could change")));
    // Edge: the shared list changed by another module that imports it.
    let changer = "from app.registry import SHARED_TOOLS\nfrom app.tools import refund\n\nSHARED_TOOLS.append(refund)\n";
    let mut with_changer = registry_app(REGISTRY, ANALYST);
    with_changer.push(("app/changer.py", changer.to_string()));
    let mut head = with_changer.clone();
    head[1].1 = format!("{ADK_TOOLS}\n# edited\n");
    let doc = compare(&with_changer, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert!(rows(&doc)
        .iter()
        .all(|(_, _, change)| change == "not_established"));
}

const LAZY_INIT: &str = "import importlib\nfrom typing import Any\n\n_LAZY_IMPORTS: dict[str, tuple[str, str]] = {\n    \"lookup\": (\".search\", \"lookup\"),\n}\n\n\ndef __getattr__(name: str) -> Any:\n    if name in _LAZY_IMPORTS:\n        module_path, attr_name = _LAZY_IMPORTS[name]\n        module = importlib.import_module(module_path, __package__)\n        value = getattr(module, attr_name)\n        globals()[name] = value\n        return value\n    raise AttributeError(f\"module {__name__!r} has no attribute {name!r}\")\n\n\n__all__ = sorted(_LAZY_IMPORTS.keys())\n";

fn lazy_app(init: &str, search: &str) -> Vec<(&'static str, String)> {
    vec![
        ("app/__init__.py", String::new()),
        ("app/tools/__init__.py", init.to_string()),
        ("app/tools/search.py", search.to_string()),
        (
            "app/agent.py",
            "from google.adk.agents import Agent\nfrom app.tools import lookup\n\nroot_agent = Agent(name=\"root\", model=\"m\", tools=[lookup])\n".to_string(),
        ),
    ]
}

/// A package hook answering names from a literal registry: `from
/// app.tools import lookup` is `app/tools/search.py`'s `lookup`, so a
/// change to it is an established `changed` row.
#[test]
fn a_lazy_reexport_registry_gives_the_entrys_attribute() {
    let plain = "def lookup(x: str) -> str:\n    return x\n";
    let fetching = "import requests\n\n\ndef lookup(x: str) -> str:\n    return requests.get(\"https://example.com/\" + x).text\n";
    let doc = compare(&lazy_app(LAZY_INIT, plain), &lazy_app(LAZY_INIT, fetching));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("root", "lookup", "changed")]);
    // Edges: a registry the module changes, and a hook that may return
    // something else for the name first (under a test it decides, or one
    // it cannot), are not read. (A test it cannot decide in front of the
    // registry's branch is read: where it fails, the hook raises and the
    // import fails, never giving another value.)
    for init in [
        format!("{LAZY_INIT}_LAZY_IMPORTS[\"lookup\"] = (\".other\", \"lookup\")\n"),
        LAZY_INIT.replace("    if name in _LAZY_IMPORTS:", "    if name == \"lookup\":\n        return None\n    if name in _LAZY_IMPORTS:"),
        LAZY_INIT.replace("    if name in _LAZY_IMPORTS:", "    if name.startswith(\"l\"):\n        return importlib.import_module(\".legacy\", __package__)\n    if name in _LAZY_IMPORTS:"),
    ] {
        let doc = compare(&lazy_app(&init, plain), &lazy_app(&init, fetching));
        assert_eq!(doc["comparison_status"], "partial", "{init}");
        assert!(
            limits(&doc, "head")
                .iter()
                .any(|l| l.contains("references unresolved tool 'lookup'")),
            "{init}: {:?}",
            limits(&doc, "head")
        );
    }
}

const GROUNDING: &str = "import os\nfrom google.adk.agents import Agent\nfrom google.adk.tools import google_search, google_maps_grounding\n\n\ndef is_vertexai_enabled() -> bool:\n    return os.getenv(\"GOOGLE_GENAI_USE_VERTEXAI\") == \"1\"\n\n\ndef get_tools():\n    tools = [google_search]\n    if is_vertexai_enabled():\n        tools.append(google_maps_grounding)\n    return tools\n\n\nroot_agent = Agent(name=\"root\", model=\"m\", tools=get_tools())\n";

fn grounding(head: &str) -> serde_json::Value {
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", GROUNDING)],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

/// Issue 40, item 11: `tools.append(x)` under `if` tests is bound when
/// they hold, as `[*([x] if c else [])]` is: removing it is an established
/// row, and a change to its test alone a `not_established` one.
#[test]
fn an_addition_under_a_test_is_bound_when_it_holds() {
    let doc = grounding(&GROUNDING.replace(
        "    if is_vertexai_enabled():\n        tools.append(google_maps_grounding)\n",
        "",
    ));
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("root", "google_maps_grounding", "removed")]
    );
    assert_eq!(
        doc["rows"][0]["before"]["bound_when"],
        serde_json::json!(["`is_vertexai_enabled()`"])
    );
    // The `else` branch: bound when the test fails.
    let doc = grounding(&GROUNDING.replace(
        "        tools.append(google_maps_grounding)\n",
        "        pass\n    else:\n        tools.append(google_maps_grounding)\n",
    ));
    assert_eq!(
        rows(&doc),
        vec![row("root", "google_maps_grounding", "not_established")]
    );
    // Edges: under a loop, a `try` or a `with`, it stays a limit.
    for wrapped in [
        "    for _ in range(1):\n        tools.append(google_maps_grounding)\n",
        "    try:\n        tools.append(google_maps_grounding)\n    except Exception:\n        pass\n",
    ] {
        let head = GROUNDING.replace(
            "    if is_vertexai_enabled():\n        tools.append(google_maps_grounding)\n",
            wrapped,
        );
        let doc = grounding(&head);
        assert_eq!(doc["comparison_status"], "partial", "{wrapped}");
        assert!(
            limits(&doc, "head")
                .iter()
                .any(|l| l.contains("is added to under a condition or in a loop")),
            "{wrapped}: {:?}",
            limits(&doc, "head")
        );
    }
}

/// Issue 40, item 11: a loop over a literal sequence that appends each
/// item is that sequence's `extend`, placed where the loop is (under its
/// tests); a loop that can skip or change its item, or over anything but a
/// display, stays a limit.
#[test]
fn a_loop_appending_each_item_of_a_literal_sequence_is_read() {
    const LOOPED: &str = "    for tool in (google_maps_grounding, load_memory):\n        logger.info(tool)\n        tools.append(tool)\n";
    let base = GROUNDING.replace(
        "    if is_vertexai_enabled():\n        tools.append(google_maps_grounding)\n",
        "",
    );
    let head = base
        .replace(
            "google_maps_grounding\n",
            "google_maps_grounding, load_memory\nimport logging\n\nlogger = logging.getLogger(__name__)\n",
        )
        .replace("    return tools\n", &format!("{LOOPED}    return tools\n"));
    let compare_head = |head: &str| {
        compare_branches(
            &[("app/__init__.py", ""), ("app/agent.py", base.as_str())],
            &[("app/agent.py", head)],
            "app",
        )
        .0
    };
    let doc = compare_head(&head);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![
            row("root", "google_maps_grounding", "added"),
            row("root", "load_memory", "added"),
        ]
    );
    // Under a test, each item is bound when it holds.
    let tested = head.replace(
        LOOPED,
        &format!(
            "    if is_vertexai_enabled():\n{}",
            LOOPED
                .replace("\n    ", "\n        ")
                .replacen("    for", "        for", 1)
        ),
    );
    let doc = compare_head(&tested);
    assert_compared(&doc);
    assert_eq!(
        doc["rows"][1]["after"]["bound_when"],
        serde_json::json!(["`is_vertexai_enabled()`"]),
        "{tested}"
    );
    // Edges: an iteration that can end early, an item rebound, a sequence
    // that is not a display.
    for edge in [
        LOOPED.replace(
            "        logger.info(tool)\n",
            "        if tool is load_memory:\n            continue\n",
        ),
        LOOPED.replace("        logger.info(tool)\n", "        tool = wrap(tool)\n"),
        LOOPED.replace("(google_maps_grounding, load_memory)", "EXTRA_TOOLS"),
    ] {
        let doc = compare_head(&head.replace(LOOPED, &edge));
        assert_eq!(doc["comparison_status"], "partial", "{edge}");
        assert!(
            limits(&doc, "head")
                .iter()
                .any(|l| l.contains("is added to under a condition or in a loop")),
            "{edge}: {:?}",
            limits(&doc, "head")
        );
    }
}

const MODULE_LIST: &str = "from google.adk.agents import Agent\nfrom app.tools import lookup, refund, extra_tools\n\ntools = [lookup]\n\nif extra_tools:\n    tools.extend(extra_tools)\n\nroot_agent = Agent(name=\"root\", model=\"m\", tools=tools)\n";

/// A module-level list the module adds to before a module-level agent
/// is built is read with its additions (under their tests); one added to
/// after the construction, or in a function, stays a limit.
#[test]
fn a_module_lists_additions_before_the_agent_are_read() {
    let tools = format!("{ADK_TOOLS}\nextra_tools = [refund]\n");
    let app = |agent: &str| {
        vec![
            ("app/__init__.py", String::new()),
            ("app/tools.py", tools.clone()),
            ("app/agent.py", agent.to_string()),
        ]
    };
    let doc = compare(
        &app(MODULE_LIST),
        &app(&format!("{MODULE_LIST}\n# edited\n")),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    let doc = compare(
        &app(MODULE_LIST),
        &app(&MODULE_LIST.replace("if extra_tools:\n    tools.extend(extra_tools)\n", "")),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("root", "refund", "removed")]);
    // Edges: after the construction, or from a function.
    for late in [
        format!("{MODULE_LIST}tools.append(refund)\n"),
        format!("{MODULE_LIST}\n\ndef more():\n    tools.append(refund)\n"),
    ] {
        let doc = compare(&app(MODULE_LIST), &app(&late));
        assert_eq!(doc["comparison_status"], "partial", "{late}");
        assert!(
            rows(&doc)
                .iter()
                .all(|(_, _, change)| change == "not_established"),
            "{late}"
        );
    }
}

const PHASES: &str = "from google.adk.agents import Agent, SequentialAgent\nfrom app.tools import lookup, refund\n\nresearch = Agent(name=\"research\", model=\"m\", tools=[lookup])\nwriter = Agent(name=\"writer\", model=\"m\", tools=[refund])\neditor = Agent(name=\"editor\", model=\"m\")\n\n\ndef build(phase):\n    if phase == \"research\":\n        agents = [research, writer]\n    elif phase == \"writing\":\n        agents = [writer]\n    else:\n        agents = [editor]\n    return SequentialAgent(name=\"phase_pipeline\", sub_agents=agents)\n\n\nroot_agent = build(\"research\")\n";

fn phases(head: &str) -> serde_json::Value {
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", ADK_TOOLS),
            ("app/agent.py", PHASES),
        ],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

/// Issue 40, item 7 in a function: a list bound on exclusive branches of
/// one `if` chain is each branch's list, its members bound when the
/// branch's tests hold.
#[test]
fn a_list_bound_on_exclusive_branches_is_read_branch_by_branch() {
    let doc = phases(&PHASES.replace("agents = [writer]\n", "agents = [writer, editor]\n"));
    assert_compared(&doc);
    // `editor` was bound under the `else`; now under `writing` too: a
    // change of condition only, not established.
    assert_eq!(
        rows(&doc),
        vec![row(
            "phase_pipeline",
            "handoff:agent.py:editor",
            "not_established"
        )]
    );
    let doc = phases(&PHASES.replace("        agents = [editor]\n", "        agents = []\n"));
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("phase_pipeline", "handoff:agent.py:editor", "removed")]
    );
    assert_eq!(
        doc["rows"][0]["before"]["bound_when"],
        serde_json::json!(["not `phase == 'research'` and not `phase == 'writing'`"])
    );
    // Edges: a binding every call runs before the branches, and one in a
    // loop, are not exclusive: the list stays a limit.
    for head in [
        PHASES.replace(
            "    if phase == \"research\":\n",
            "    agents = [editor]\n    if phase == \"research\":\n",
        ),
        PHASES.replace(
            "    else:\n        agents = [editor]\n",
            "    for _ in range(1):\n        agents = [editor]\n",
        ),
    ] {
        let doc = phases(&head);
        assert_eq!(doc["comparison_status"], "partial", "{head}");
        assert!(
            rows(&doc)
                .iter()
                .all(|(_, _, change)| change == "not_established"),
            "{head}"
        );
    }
}

/// A module-level name rebound only after the construction that lists it
/// (`helper = instrument(helper)` below the root agent) is, where the
/// construction reads it, what it was bound to before: Python runs the
/// module in order. Rebound before the construction, or by a function
/// declaring it `global`, it stays the named limit.
#[test]
fn a_name_rebound_after_the_construction_is_what_it_was_when_read() {
    const SUBS: &str = "from google.adk.agents import LlmAgent\nfrom app.tools import lookup, refund\n\nhelper = LlmAgent(name=\"helper\", model=\"m\", instruction=\"i\", tools=[lookup])\n";
    const ROOT: &str = "from google.adk.agents import LlmAgent\n\nfrom app.subs import helper\n\n\ndef instrument(agent):\n    agent.before_model_callback = None\n    return agent\n\n\nroot_agent = LlmAgent(name=\"root\", model=\"m\", instruction=\"i\", sub_agents=[])\n\nhelper = instrument(helper)\n";
    const TOOLS: &str = "def lookup(q: str) -> str:\n    return q\n\n\ndef refund(order: str) -> str:\n    return order\n";
    let base = [
        ("app/__init__.py", ""),
        ("app/tools.py", TOOLS),
        ("app/subs.py", SUBS),
        ("app/agent.py", ROOT),
    ];
    let compare_head = |root: &str| compare_branches(&base, &[("app/agent.py", root)], "app").0;
    let listed = ROOT.replace("sub_agents=[]", "sub_agents=[helper]");
    let doc = compare_head(&listed);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("root", "handoff:subs.py:helper", "added")]
    );
    // Edges: rebound before the read; a function that may rebind it.
    for edge in [
        listed.replace(
            "\n\nroot_agent = ",
            "\n\nhelper = instrument(helper)\nroot_agent = ",
        ),
        listed.replace(
            "    return agent\n",
            "    return agent\n\n\ndef swap():\n    global helper\n    helper = None\n",
        ),
    ] {
        let doc = compare_head(&edge);
        assert_eq!(doc["comparison_status"], "partial", "{edge}");
        assert!(
            limits(&doc, "head")
                .iter()
                .any(|l| l.contains("is bound more than once")),
            "{edge}: {:?}",
            limits(&doc, "head")
        );
    }
}
