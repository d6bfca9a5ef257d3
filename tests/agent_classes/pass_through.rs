//! Pass-through subclasses of an agent class, read as their base class.

use super::support::assert_compared;
use super::support::{compare_branches, limits, row, rows};
use super::{compare_agent, ADK_TOOLS, SDK_TOOLS};
use serde_json::Value;

/// A tracing subclass that takes two parameters of its own and forwards
/// the rest (`**kwargs`).
const TRACED: &str = r#"from agents import Agent


class TracedAgent(Agent):
    def __init__(self, tracer, level=1, **kwargs):
        super().__init__(**kwargs)
        self.tracer = tracer
        self.level = level
"#;

/// `app/` with the tools, the `tracing.py` class module and `agent.py`,
/// `agent` on main against `head` on the branch.
fn compare_sdk(class: &str, agent: &str, head: &str) -> Value {
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/tracing.py", class),
            ("app/agent.py", agent),
        ],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

/// The instantiating module imports nothing from the SDK: it is read for
/// the subclass it builds, and the agent is the variable it is bound to.
#[test]
fn a_kwargs_forwarding_subclass_from_another_module_is_read_as_an_agent() {
    let agent = "from .tracing import TracedAgent\nfrom .tools import lookup, refund\n\nhelper = TracedAgent(None, level=2, name=\"helper\", tools=[lookup])\n";
    let head = agent.replace("tools=[lookup]", "tools=[lookup, refund]");
    let doc = compare_sdk(TRACED, agent, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("helper", "refund", "added")]);
    assert_eq!(doc["rows"][0]["after"]["agent_source"], "app/agent.py");
}

/// Named parameters passed through by keyword map the call onto the base
/// class's keywords; a handoff to the subclass's agent is that agent.
#[test]
fn named_parameters_passed_through_are_the_base_class_keywords() {
    let class = "from agents import Agent\n\n\nclass Specialist(Agent):\n    def __init__(self, name, tools, model=\"gpt-4o\", **rest):\n        super().__init__(name=name, tools=tools, model=model, **rest)\n";
    let agent = "from agents import Agent\nfrom .tracing import Specialist\nfrom .tools import lookup, refund\n\nbilling = Specialist(\"billing\", [lookup])\ntriage = Agent(name=\"triage\", handoffs=[billing])\n";
    let head = agent.replace("[lookup])", "[lookup, refund])");
    let doc = compare_sdk(class, agent, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("billing", "refund", "added")]);
}

/// A subclass whose `__init__` adds to `self.tools` is no pass-through:
/// the spec's limit, naming the condition that failed.
#[test]
fn a_subclass_that_touches_its_tools_stays_a_named_limit() {
    let class = TRACED.replace(
        "        self.level = level\n",
        "        self.level = level\n        self.tools.append(audit)\n",
    );
    let agent = "from .tracing import TracedAgent\nfrom .tools import lookup, refund\n\nhelper = TracedAgent(None, name=\"helper\", tools=[lookup])\n";
    let head = agent.replace("tools=[lookup]", "tools=[lookup, refund]");
    let doc = compare_sdk(&class, agent, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(
        limits(&doc, "head"),
        vec!["agent.py uses TracedAgent, an OpenAI Agents SDK agent subclass defined at tracing.py:4; agents built from it are not read. It is not read as its base class: 'TracedAgent' (tracing.py:4): its code spells 'tools'."]
    );
}

/// A construction the subclass's `__init__` cannot bind exactly (`**`
/// unpacking) is not read, and says so.
#[test]
fn a_construction_that_unpacks_its_arguments_stays_a_named_limit() {
    let agent = "from .tracing import TracedAgent\nfrom .tools import lookup, refund\n\nOPTIONS = {\"level\": 2}\nhelper = TracedAgent(None, name=\"helper\", tools=[lookup], **OPTIONS)\n";
    let head = agent.replace("tools=[lookup]", "tools=[lookup, refund]");
    let doc = compare_sdk(TRACED, agent, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["agent.py uses TracedAgent, an OpenAI Agents SDK agent subclass defined at tracing.py:4; agents built from it are not read. It is not read as its base class: 'TracedAgent' (tracing.py:4): at this call, the call unpacks its arguments."]
    );
}

/// An ADK `LlmAgent` subclass with no constructor of its own is read as
/// `LlmAgent`: the agent is its literal `name=`.
#[test]
fn an_adk_subclass_without_a_constructor_is_read_as_llm_agent() {
    let agent = "from google.adk.agents import LlmAgent\nfrom .tools import lookup, refund\n\n\nclass Helper(LlmAgent):\n    def describe(self):\n        return self.name\n\n\nroot_agent = Helper(name=\"helper\", model=\"m\", instruction=\"i\", tools=[lookup])\n";
    let head = agent.replace("tools=[lookup]", "tools=[lookup, refund]");
    let doc = compare_agent(ADK_TOOLS, agent, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("helper", "refund", "added")]);
}
