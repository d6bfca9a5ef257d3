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

/// An `LlmAgent` subclass whose `_run_async_impl` runs another agent runs
/// its own code in place of the model's loop: not read as `LlmAgent`
/// (before this rule it was, and the agent it runs was hidden), the
/// limit naming the call.
#[test]
fn an_adk_subclass_whose_run_method_runs_an_agent_stays_a_named_limit() {
    let agent = "from google.adk.agents import LlmAgent\nfrom .tools import lookup, refund\n\nother = LlmAgent(name=\"other\", model=\"m\", instruction=\"i\", tools=[refund])\n\n\nclass Helper(LlmAgent):\n    async def _run_async_impl(self, ctx):\n        async for event in other.run_async(ctx):\n            yield event\n\n\nroot_agent = Helper(name=\"helper\", model=\"m\", instruction=\"i\", tools=[lookup])\n";
    let head = agent.replace("tools=[lookup])", "tools=[lookup, refund])");
    let doc = compare_agent(ADK_TOOLS, agent, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent class 'Helper' at agent.py:7 derives from an agent class; agents built from it are not read. It is not read as its base class: 'Helper' (agent.py:7): its method '_run_async_impl' calls other.run_async at line 9, which may run an agent or a tool in place of the model's loop."]
    );
}

/// Issue 41, item 2: a subclass that adds behaviour but never touches a
/// capability field is read as its base class — a run method marked
/// `@override` that only logs and delegates to `super()`, a
/// `model_post_init` hook, a helper, and a constant handed to the base
/// class (`model="m"`).
#[test]
fn an_adk_subclass_that_adds_behaviour_is_read_as_llm_agent() {
    let agent = r#"import logging

from google.adk.agents import LlmAgent
from typing_extensions import override

from .tools import lookup, refund

logger = logging.getLogger(__name__)


class Audited(LlmAgent):
    def __init__(self, **kwargs):
        super().__init__(model="m", **kwargs)

    def model_post_init(self, context):
        super().model_post_init(context)
        logger.info("built %s", self.name)

    @override
    async def _run_async_impl(self, ctx):
        logger.info("running")
        async for event in super()._run_async_impl(ctx):
            yield event

    def describe(self):
        return f"{self.name}: {self.description}"


root_agent = Audited(name="helper", instruction="i", tools=[lookup])
"#;
    let head = agent.replace("tools=[lookup])", "tools=[lookup, refund])");
    let doc = compare_agent(ADK_TOOLS, agent, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("helper", "refund", "added")]);
}

/// A run method that delegates and then does more (here, calls a
/// helper) is not read: the limit names the call.
#[test]
fn a_run_method_that_does_more_than_delegate_stays_a_named_limit() {
    let agent = "from google.adk.agents import LlmAgent\nfrom .tools import lookup, refund\n\n\nclass Helper(LlmAgent):\n    async def _run_async_impl(self, ctx):\n        async for event in super()._run_async_impl(ctx):\n            yield event\n        refund(\"all\")\n\n\nroot_agent = Helper(name=\"helper\", model=\"m\", instruction=\"i\", tools=[lookup])\n";
    let head = agent.replace("tools=[lookup])", "tools=[lookup, refund])");
    let doc = compare_agent(ADK_TOOLS, agent, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent class 'Helper' at agent.py:5 derives from an agent class; agents built from it are not read. It is not read as its base class: 'Helper' (agent.py:5): its method '_run_async_impl' calls refund at line 9, which may run an agent or a tool in place of the model's loop."]
    );
}
