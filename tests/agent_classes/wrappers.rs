//! Wrapper classes: a plain class whose methods build an agent from what
//! its `__init__` stores is one agent per instantiation.

use super::support::assert_compared;
use super::support::{compare_branches, limits, row, rows};
use super::{compare_agent, ADK_TOOLS, SDK_TOOLS};
use serde_json::Value;

const WRAPPER: &str = r#"from agents import Agent
from .tools import lookup, refund


class CustomAgent:
    def __init__(self, cfg, name, tools=None):
        self.cfg = cfg
        self.name = name
        self.tools = tools or []

    def build(self):
        return Agent(name=self.name, instructions="Help.", tools=self.tools)


search = CustomAgent(None, name="Search Agent", tools=[lookup])
billing = CustomAgent(None, name="Billing Agent", tools=[refund])
"#;

fn compare(base: &str, head: &str) -> Value {
    compare_agent(SDK_TOOLS, base, head)
}

/// `base` with `refund` added to the search agent on the head: partial,
/// and the head names `limit`. Returns the document.
fn assert_named(base: &str, limit: &str) -> Value {
    let head = base.replace("tools=[lookup])", "tools=[lookup, refund])");
    let doc = compare(base, &head);
    assert_eq!(doc["comparison_status"], "partial");
    let limits = limits(&doc, "head");
    assert!(limits.iter().any(|l| l == limit), "{limits:?}");
    doc
}

#[test]
fn each_instantiation_of_a_wrapper_class_is_the_agent_it_names() {
    let head = WRAPPER.replace("tools=[lookup])", "tools=[lookup, refund])");
    let doc = compare(WRAPPER, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("Search Agent", "refund", "added")]);
}

/// `self.tools = tools or []`: an instantiation that passes no tools
/// builds an agent with none.
#[test]
fn an_omitted_list_is_the_empty_default() {
    let base = WRAPPER.replace(
        "search = CustomAgent(None, name=\"Search Agent\", tools=[lookup])",
        "search = CustomAgent(None, name=\"Search Agent\")",
    );
    let doc = compare(&base, WRAPPER);
    assert_eq!(
        doc["comparison_status"],
        "compared",
        "{:?} {:?}",
        limits(&doc, "base"),
        limits(&doc, "head")
    );
    assert_eq!(rows(&doc), vec![row("Search Agent", "lookup", "added")]);
}

/// A module-level list handed to the constructor is read like any list.
#[test]
fn a_module_list_passed_to_the_constructor_is_read() {
    let base = WRAPPER
        .replace("tools=[lookup])", "tools=SEARCH_TOOLS)")
        .replace(
            "\n\nclass CustomAgent",
            "\nSEARCH_TOOLS = [lookup]\n\n\nclass CustomAgent",
        );
    let head = base.replace("SEARCH_TOOLS = [lookup]", "SEARCH_TOOLS = [lookup, refund]");
    let doc = compare(&base, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("Search Agent", "refund", "added")]);
}

/// An instantiation in a loop is not one known call: the construction is
/// read as written, and the agent names why the class is not read.
#[test]
fn an_instantiation_in_a_loop_stays_a_named_limit() {
    let base =
        format!("{WRAPPER}\nfor kind in [\"a\", \"b\"]:\n    CustomAgent(None, name=kind)\n");
    let doc = assert_named(
        &base,
        "OpenAI Agents SDK agent 'CustomAgent.build@agent.py' at agent.py:12 is built by the class 'CustomAgent': it is instantiated at agent.py:19 under a condition, in a loop or in a handler; it is not read as one agent per instance.",
    );
    assert_eq!(rows(&doc), vec![]);
}

/// A second store to `self.tools` (a method that adds to it) could change
/// what any instance binds.
#[test]
fn a_second_store_to_the_attribute_stays_a_named_limit() {
    let base = WRAPPER.replace(
        "    def build(self):",
        "    def add(self, tool):\n        self.tools.append(tool)\n\n    def build(self):",
    );
    assert_named(
        &base,
        "OpenAI Agents SDK agent 'CustomAgent.build@agent.py' at agent.py:15 is built by the class 'CustomAgent': the class's code uses .tools other than storing it once and reading what it holds; it is not read as one agent per instance.",
    );
}

/// A subclass that overrides the building method is a use of the class's
/// name other than an instantiation: no instantiation is known to build
/// the class's own agent.
#[test]
fn an_overriding_subclass_stays_a_named_limit() {
    let base = format!("{WRAPPER}\n\nclass Special(CustomAgent):\n    def build(self):\n        return Agent(name=\"special\", tools=[refund])\n");
    assert_named(
        &base,
        "OpenAI Agents SDK agent 'CustomAgent.build@agent.py' at agent.py:12 is built by the class 'CustomAgent': agent.py uses `CustomAgent` other than by calling it (as a value, or exported); it is not read as one agent per instance.",
    );
}

/// An ADK agent built in `__init__` from its parameters, one per
/// instantiation, by its literal name.
#[test]
fn an_adk_agent_built_in_init_is_one_agent_per_instantiation() {
    let base = r#"from google.adk.agents import LlmAgent
from .tools import lookup, refund


class Specialist:
    def __init__(self, name, tools):
        self.agent = LlmAgent(name=name, model="m", instruction="i", tools=tools)


sales = Specialist("sales", [lookup])
support = Specialist("support", [lookup])
"#;
    let head = base.replace(
        "Specialist(\"sales\", [lookup])",
        "Specialist(\"sales\", [lookup, refund])",
    );
    let doc = compare_agent(ADK_TOOLS, base, &head);
    assert_eq!(
        rows(&doc),
        vec![row("sales", "refund", "added")],
        "{:?}",
        limits(&doc, "head")
    );
}

/// The class in one module, its instantiations in another's `main()`:
/// the agents are the class module's, their lists read where each
/// instantiation is written.
#[test]
fn instantiations_in_another_modules_main_are_read() {
    let class = WRAPPER
        .split("\n\nsearch = ")
        .next()
        .unwrap_or_default()
        .to_string();
    let main = "from .agent import CustomAgent\nfrom .tools import lookup, refund\n\n\ndef main():\n    search = CustomAgent(None, name=\"Search Agent\", tools=[lookup])\n    return search.build()\n";
    let head = main.replace("tools=[lookup])", "tools=[lookup, refund])");
    let doc = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/agent.py", &class),
            ("app/main.py", main),
        ],
        &[("app/main.py", &head)],
        "app",
    )
    .0;
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("Search Agent", "refund", "added")]);
    assert_eq!(doc["rows"][0]["after"]["agent_source"], "app/agent.py");
}

/// A name the call does not spell as a literal: the agent is the
/// instantiation's source label, as the spec labels an unnamed agent.
#[test]
fn an_unspelled_name_is_the_instantiations_label() {
    let base = WRAPPER
        .replace(
            "search = CustomAgent(None, name=\"Search Agent\", tools=[lookup])",
            "search = CustomAgent(None, name=SEARCH_NAME, tools=[lookup])",
        )
        .replace(
            "\n\nclass CustomAgent",
            "\nSEARCH_NAME = \"Search \" + \"Agent\"\n\n\nclass CustomAgent",
        );
    let head = base.replace("tools=[lookup])", "tools=[lookup, refund])");
    let doc = compare(&base, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("search@agent.py", "refund", "added")]);
}

/// An instance's `__dict__` written elsewhere could hold any attribute.
#[test]
fn a_write_through_dict_stays_a_named_limit() {
    let base = format!("{WRAPPER}\nsearch.__dict__[\"tools\"] = [refund]\n");
    assert_named(
        &base,
        "OpenAI Agents SDK agent 'CustomAgent.build@agent.py' at agent.py:12 is built by the class 'CustomAgent': agent.py:18 writes an object's __dict__; it is not read as one agent per instance.",
    );
}

/// Issue 41, item 1: uses that only read the attribute — logged by the
/// module's logger, formatted, measured, tested for membership, iterated,
/// truth-tested — leave the class read as one agent per instance.
#[test]
fn uses_that_only_read_an_attribute_keep_the_class_read() {
    let base = WRAPPER
        .replace(
            "from agents import Agent\n",
            "import logging\n\nfrom agents import Agent\n",
        )
        .replace(
            "\n\nclass CustomAgent",
            "\nlogger = logging.getLogger(__name__)\n\n\nclass CustomAgent",
        )
        .replace(
            "        self.tools = tools or []\n",
            "        self.tools = tools or []\n        logger.info(\"%s has %d tools\", self.name, len(self.tools))\n\n    def describe(self):\n        if not self.tools:\n            return f\"{self.name}: no tools\"\n        names = \", \".join(str(t) for t in self.tools)\n        return \"%s: %s\" % (self.name, names)\n\n    def offers(self, tool):\n        return tool in self.tools or self.name == tool\n",
        );
    let head = base.replace("tools=[lookup])", "tools=[lookup, refund])");
    let doc = compare(&base, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("Search Agent", "refund", "added")]);
}

/// Edges: a method that hands the list out, and one that passes it to a
/// function of the module (which could keep or change it), are uses the
/// rule does not count: the limit stays.
#[test]
fn an_attribute_handed_out_stays_a_named_limit() {
    let limit = "OpenAI Agents SDK agent 'CustomAgent.build@agent.py' at agent.py:15 is built by the class 'CustomAgent': the class's code uses .tools other than storing it once and reading what it holds; it is not read as one agent per instance.";
    let handed_out = WRAPPER.replace(
        "    def build(self):",
        "    def listed(self):\n        return self.tools\n\n    def build(self):",
    );
    assert_named(&handed_out, limit);
    let passed = WRAPPER
        .replace(
            "\n\nclass CustomAgent",
            "\n\ndef register(tools):\n    tools.append(refund)\n\n\nclass CustomAgent",
        )
        .replace(
            "    def build(self):",
            "    def setup(self):\n        register(self.tools)\n\n    def build(self):",
        );
    assert_named(&passed, &limit.replace("agent.py:15", "agent.py:19"));
    // `print` a method's parameter: whatever the caller passes, not the
    // builtin that only reads.
    let shadowed = WRAPPER.replace(
        "    def build(self):",
        "    def show(self, print):\n        print(self.tools)\n\n    def build(self):",
    );
    assert_named(&shadowed, limit);
}
