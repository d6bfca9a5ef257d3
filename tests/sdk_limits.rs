//! End to end: OpenAI Agents SDK constructions this reader does not follow
//! yet are named limits, never silence (issue 4, in part): capabilities
//! changed after construction (in the agent's module or another one),
//! subclasses of `Agent` and copies of an agent. Objects an agent binds
//! (MCP servers, hosted tools, agents as tools) are in `object_tools.rs`.

mod support;

use serde_json::Value;
use support::{compare_branches, rows};

const BASE: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\nsupport = Agent(name=\"support\", tools=[lookup])\n";

fn compare(head: &[(&str, &str)]) -> Value {
    compare_files(&[("app/__init__.py", ""), ("app/agent.py", BASE)], head)
}

/// `base` against `head`, compared with `--scope app`.
fn compare_files(base: &[(&str, &str)], head: &[(&str, &str)]) -> Value {
    compare_branches(base, head, "app").0
}

fn head_gaps(doc: &Value) -> Vec<(Value, Value, String)> {
    doc["head"]["coverage_gaps"]
        .as_array()
        .map(|gaps| {
            gaps.iter()
                .map(|g| {
                    (
                        g["source"].clone(),
                        g["agent"].clone(),
                        g["reason"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A change inside a function runs when (and if) it is called: a limit.
/// The same `append` at module level is a rewire, read as a binding
/// (`rewires.rs`).
#[test]
fn tools_changed_after_construction_are_a_limit_on_that_agent() {
    let head = format!("{BASE}\n\n@function_tool\ndef refund(q: str) -> str:\n    return q\n\n\ndef wire():\n    support.tools.append(refund)\n");
    let doc = compare(&[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![],
        "lookup is bound on both sides and unchanged"
    );
    assert_eq!(
        head_gaps(&doc),
        vec![(
            Value::from("agent.py"),
            Value::from("support"),
            "OpenAI Agents SDK agent 'support' at agent.py:9 has its tools changed after construction at agent.py:18 (.append()); its binding graph is incomplete.".to_string()
        )]
    );
}

#[test]
fn another_module_changing_an_agents_tools_is_a_limit_on_that_agent() {
    let hooks =
        "from .agent import support\nfrom .extra import refund\n\nsupport.tools = [refund]\n";
    let doc = compare(&[
        ("app/hooks.py", hooks),
        ("app/extra.py", "def refund():\n    pass\n"),
    ]);
    assert_eq!(
        head_gaps(&doc),
        vec![(
            Value::from("agent.py"),
            Value::from("support"),
            "OpenAI Agents SDK agent 'support' at agent.py:9 has its tools changed after construction at hooks.py:4 (assignment); its binding graph is incomplete.".to_string()
        )]
    );
    // The removal this could hide is not called removed.
    let head = BASE.replace("tools=[lookup]", "tools=[]");
    let doc = compare(&[
        ("app/agent.py", &head),
        ("app/hooks.py", hooks),
        ("app/extra.py", "def refund():\n    pass\n"),
    ]);
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "lookup".into(), "not_established".into())]
    );
}

/// An object another module holds (here a module's own list) is built
/// there, so the limit is on every agent of the scope, not on the changing
/// file alone (issue 39: its holder may be any agent that module builds).
#[test]
fn an_unidentified_imported_object_whose_tools_change_is_named_on_every_agent() {
    let hooks = "from . import registry\n\nregistry.tools.append(print)\n";
    let doc = compare(&[("app/hooks.py", hooks), ("app/registry.py", "tools = []\n")]);
    assert_eq!(
        head_gaps(&doc),
        vec![(Value::Null, Value::Null, "An object's tools, handoffs, MCP servers or sub-agents are changed at hooks.py:3, in a module the comparison does not read for that; agents it reaches are not established.".to_string())]
    );
}

#[test]
fn an_instances_own_tools_and_other_libraries_tools_are_nothing() {
    let holder = "class Holder:\n    def __init__(self):\n        self.tools = []\n\n    def add(self, tool):\n        self.tools.append(tool)\n";
    let report =
        "import reportlib\n\nartifacts = reportlib.Artifacts()\nartifacts.tools.append(1)\n";
    let doc = compare(&[("app/holder.py", holder), ("app/report.py", report)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(head_gaps(&doc), vec![]);
}

#[test]
fn agents_built_from_a_subclass_are_named() {
    // Beyond the spec (issue 20), a pass-through subclass is read as
    // `Agent`; one with tools of its own stays named.
    let head = format!("{BASE}\n\nclass Helpful(Agent):\n    tools = [lookup]\n\n\nhelper = Helpful(name=\"helper\", tools=[lookup])\n");
    let doc = compare(&[("app/agent.py", &head)]);
    assert_eq!(
        head_gaps(&doc),
        vec![(
            Value::from("agent.py"),
            Value::Null,
            "agent.py uses Helpful, an OpenAI Agents SDK agent subclass defined at agent.py:12; agents built from it are not read. It is not read as its base class: 'Helpful' (agent.py:12): its code spells 'tools'.".to_string()
        )]
    );
}

/// Spec: clones of uniquely bound local agents are agents of their own
/// (the reference, 1.2.0, does not read clones).
#[test]
fn clones_of_a_local_agent_are_agents_of_their_own() {
    // A clone without overrides inherits the source's tools.
    let head = format!("{BASE}\nadmin = support.clone(name=\"admin\")\n");
    let doc = compare(&[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![("admin".into(), "lookup".into(), "added".into())]
    );
    assert_eq!(
        doc["rows"][0]["after"]["binding_location"],
        "app/agent.py:11"
    );
    // An override is read like a construction's list; a clone of a clone
    // inherits through it.
    let head = format!("{BASE}\nquiet = support.clone(name=\"quiet\", tools=[])\nquieter = quiet.clone(name=\"quieter\")\n");
    let doc = compare(&[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
    let agents: Vec<&str> = doc["head"]["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter_map(|a| a["name"].as_str())
        .collect();
    assert_eq!(agents, vec!["quiet", "quieter", "support"]);
}

#[test]
fn other_copies_that_pass_capabilities_are_named() {
    let head =
        format!("{BASE}\nimport dataclasses\n\nadmin = dataclasses.replace(support, tools=[])\n");
    let doc = compare(&[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        head_gaps(&doc),
        vec![(
            Value::from("agent.py"),
            Value::Null,
            "An agent copy at agent.py:13 ('support') is not read; the agent it makes and its tools, handoffs or MCP servers are not established.".to_string()
        )]
    );
}

#[test]
fn an_agent_the_file_still_names_is_not_called_removed() {
    let head = "from .factory import make\n\nsupport = make(\"support\")\n";
    let doc = compare(&[
        ("app/agent.py", head),
        ("app/factory.py", "def make(name):\n    return None\n"),
    ]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "lookup".into(), "not_established".into())]
    );
    assert_eq!(doc["rows"][0]["candidate_change"], "removed");
    assert_eq!(
        doc["rows"][0]["uncertainty"]["head"][0],
        "agent.py:3 still names agent 'support', but no supported agent construction was observed for it (for example an Agent subclass, factory or clone); its bindings on this side are not established."
    );
    // A file that no longer names it: the removal is established.
    let doc = compare(&[("app/agent.py", "x = 1\n")]);
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "lookup".into(), "removed".into())]
    );
}

#[test]
fn a_handoff_to_an_agent_another_module_builds_is_a_row() {
    let billing = "from agents import Agent\n\nbilling = Agent(name=\"billing\")\n";
    let head = format!("{BASE}\nfrom .billing import billing\n\ntriage = Agent(name=\"triage\", handoffs=[billing, support])\n");
    let doc = compare(&[("app/billing.py", billing), ("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            (
                "triage".into(),
                "handoff:agent.py:support".into(),
                "added".into()
            ),
            (
                "triage".into(),
                "handoff:billing.py:billing".into(),
                "added".into()
            ),
        ]
    );
    let after = &doc["rows"][1]["after"];
    assert_eq!(after["edge_type"], "handoff");
    assert_eq!(after["tool"], "billing");
    assert_eq!(after["target_source"], "app/billing.py");
}

#[test]
fn keyword_unpacking_in_a_construction_is_a_named_limit() {
    let head = BASE
        .replace("tools=[lookup])", "tools=[lookup], **extra)")
        .replace("support = ", "extra = {}\nsupport = ");
    let doc = compare(&[("app/agent.py", &head)]);
    assert_eq!(
        head_gaps(&doc),
        vec![(
            Value::from("agent.py"),
            Value::from("support"),
            "OpenAI Agents SDK agent 'support' at agent.py:10 passes ** keyword unpacking, which can carry tools or handoffs; its binding graph is incomplete.".to_string()
        )]
    );
}

#[test]
fn unnamed_constructions_are_agents_by_source_label() {
    let builder = |tools: &str| {
        format!("from agents import Agent\nfrom .agent import lookup\n\n\ndef build():\n    return Agent(instructions=\"quote\", tools=[{tools}])\n")
    };
    let doc = compare_files(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", BASE),
            ("app/quote.py", &builder("")),
        ],
        &[("app/quote.py", &builder("lookup"))],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![("build@quote.py".into(), "lookup".into(), "added".into())]
    );
}

#[test]
fn a_label_that_disappears_while_another_appears_is_ambiguous() {
    let base_quote = "from agents import Agent\nfrom .agent import lookup\n\n\ndef build():\n    return Agent(instructions=\"quote\", tools=[lookup])\n";
    let head_quote = base_quote.replace("def build():", "def make():");
    let doc = compare_files(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", BASE),
            ("app/quote.py", base_quote),
        ],
        &[("app/quote.py", &head_quote)],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![
            (
                "build@quote.py".into(),
                "lookup".into(),
                "not_established".into()
            ),
            (
                "make@quote.py".into(),
                "lookup".into(),
                "not_established".into()
            ),
        ]
    );
}

#[test]
fn tools_named_by_a_list_bound_once_and_only_read_are_read_member_by_member() {
    let head = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n@function_tool\ndef refund(q: str) -> str:\n    return q\n\n\nTOOLS = [lookup, refund]\nsupport = Agent(name=\"support\", tools=TOOLS)\n";
    let doc = compare(&[("app/agent.py", head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "refund".into(), "added".into())]
    );

    // Anything else that uses the list could change it: a named limit, and
    // the removal it could hide is not called removed. (An addition at
    // module level before the agent is built is read since issue 40; one
    // in a function could run at any time.)
    let changed = head.replace("TOOLS = [lookup, refund]\n", "TOOLS = [refund]\n")
        + "\n\ndef more():\n    TOOLS.append(print)\n";
    let doc = compare(&[("app/agent.py", &changed)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "lookup".into(), "not_established".into())]
    );
    assert_eq!(
        head_gaps(&doc)[0].2,
        "OpenAI Agents SDK agent 'support' at agent.py:15 has a tools list it does not read; its binding graph is incomplete. Not read: `TOOLS`, which agent.py uses other than as an agent's list, so it could change (agent.py:15)."
    );
}

#[test]
fn a_builders_own_list_is_read_in_the_builder() {
    let head = "from agents import Agent\nfrom .agent import lookup\n\n\ndef build():\n    tools = [lookup]\n    return Agent(name=\"helper\", tools=tools)\n";
    let doc = compare(&[("app/helper.py", head)]);
    assert_eq!(
        rows(&doc),
        vec![("helper".into(), "lookup".into(), "added".into())]
    );
}

/// Spec: "SDK function_tool(f): the row is the function's, as for a
/// decorated one". The reference (1.2.0) reads `function_tool(f)` inline as
/// a dynamic tools expression and `x = function_tool(f)` as a value.
#[test]
fn function_tool_used_as_a_value_is_the_functions_row() {
    let tools = "from agents import function_tool\n\n\ndef _lookup(q: str) -> str:\n    return q\n\n\nlookup = function_tool(_lookup, name_override=\"lookup\")\n";
    let agent = |list: &str| {
        format!("from agents import Agent, function_tool\nfrom .tools import lookup, _lookup\n\nsupport = Agent(name=\"support\", tools=[{list}])\n")
    };
    let doc = compare_files(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", tools),
            ("app/agent.py", &agent("")),
        ],
        &[(
            "app/agent.py",
            &agent("lookup, function_tool(_lookup, name_override=\"again\")"),
        )],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            ("support".into(), "again".into(), "added".into()),
            ("support".into(), "lookup".into(), "added".into())
        ]
    );
    let steps: Vec<String> = doc["rows"][1]["after"]["import_path"][0]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| {
            format!(
                "{}:{} {}",
                s["path"].as_str().unwrap_or_default(),
                s["line"],
                s["binding"].as_str().unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        steps,
        vec![
            "app/agent.py:2 import",
            "app/tools.py:8 value",
            "app/tools.py:4 definition"
        ]
    );
}

#[test]
fn a_function_tool_wrappers_other_arguments_are_part_of_the_tool() {
    let head_with = |extra: &str| {
        format!("from agents import Agent, function_tool\n\n\ndef lookup(q: str) -> str:\n    return q\n\n\nsupport = Agent(name=\"support\", tools=[function_tool(lookup{extra})])\n")
    };
    let doc = compare_files(
        &[("app/__init__.py", ""), ("app/agent.py", &head_with(""))],
        &[("app/agent.py", &head_with(", needs_approval=True"))],
    );
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "lookup".into(), "changed".into())]
    );
}

#[test]
fn a_handle_on_an_agents_tools_changed_later_is_a_limit_and_a_read_is_nothing() {
    let changed = format!("{BASE}\nhandle = support.tools\nhandle.append(print)\n");
    let doc = compare(&[("app/agent.py", &changed)]);
    assert_eq!(
        head_gaps(&doc),
        vec![(
            Value::from("agent.py"),
            Value::from("support"),
            "OpenAI Agents SDK agent 'support' at agent.py:9 has its tools changed after construction at agent.py:12 (.append()); its binding graph is incomplete.".to_string()
        )]
    );
    // The same handle taken inside a function: the function's body is read
    // for it (the bodies that bind no capability field are not).
    let in_function =
        format!("{BASE}\n\ndef rewire():\n    handle = support.tools\n    handle.append(print)\n");
    let doc = compare(&[("app/agent.py", &in_function)]);
    assert_eq!(
        head_gaps(&doc),
        vec![(
            Value::from("agent.py"),
            Value::from("support"),
            "OpenAI Agents SDK agent 'support' at agent.py:9 has its tools changed after construction at agent.py:14 (.append()); its binding graph is incomplete.".to_string()
        )]
    );
    let read =
        format!("{BASE}\ncount = len(support.tools)\nhandle = support.tools\nprint(handle[0])\n");
    let doc = compare(&[("app/agent.py", &read)]);
    assert_eq!(doc["comparison_status"], "compared");
}
