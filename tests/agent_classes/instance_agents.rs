//! Agents held on an instance (issue 41, item 4;
//! `graph/build/instance_agents.rs`): `billing.agent`, where `billing` is
//! an instantiation of a class whose `__init__` stores the agent it builds
//! on `self.agent`, is that instantiation's agent. The spec and the
//! reference (1.2.0) do not read an attribute of a value ("read from a
//! value, not a module"); reading it is beyond both, sound by the rule in
//! the module's doc. Every edge keeps the limit.

use super::support::{assert_compared, limits, row, rows};
use super::{compare_agent, ADK_TOOLS, SDK_TOOLS};

const ADK_HELD: &str = r#"from google.adk.agents import LlmAgent
from .tools import lookup, refund


class Specialist:
    def __init__(self, name, tools):
        self.agent = LlmAgent(name=name, model="m", instruction="i", tools=tools)

    def describe(self):
        return f"{self.agent.name}"


billing = Specialist("billing", [lookup])
root_agent = LlmAgent(name="root", model="m", instruction="i", sub_agents=[billing.agent])
"#;

#[test]
fn an_instances_agent_is_the_agent_its_instantiation_names() {
    // A tool the instantiation adds is that agent's row, and the root's
    // sub-agent is read: nothing else is open.
    let head = ADK_HELD.replace("[lookup])", "[lookup, refund])");
    let doc = compare_agent(ADK_TOOLS, ADK_HELD, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("billing", "refund", "added")]);
    // The sub-agent itself, added.
    let base = ADK_HELD.replace("sub_agents=[billing.agent]", "sub_agents=[]");
    let doc = compare_agent(ADK_TOOLS, &base, ADK_HELD);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("root", "handoff:agent.py:billing", "added")]
    );
}

#[test]
fn an_sdk_handoff_to_an_instances_agent() {
    let base = r#"from agents import Agent
from .tools import lookup, refund


class Desk:
    def __init__(self, name, tools):
        self.agent = Agent(name=name, instructions="Help.", tools=tools)


sales = Desk("Sales", [lookup])
triage = Agent(name="Triage", instructions="Route.", handoffs=[])
"#;
    let head = base.replace("handoffs=[]", "handoffs=[sales.agent]");
    let doc = compare_agent(SDK_TOOLS, base, &head);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:Sales", "added")]
    );
}

/// `base` with the head adding `refund` to billing: partial, the head
/// names a limit containing `says`.
fn assert_limit(base: &str, says: &str) {
    let head = base.replace("[lookup])", "[lookup, refund])");
    let doc = compare_agent(ADK_TOOLS, base, &head);
    assert_eq!(doc["comparison_status"], "partial", "{base}");
    assert!(
        limits(&doc, "head").iter().any(|l| l.contains(says)),
        "{says}: {:?}",
        limits(&doc, "head")
    );
}

#[test]
fn an_agent_attribute_written_or_changed_elsewhere_keeps_the_limit() {
    // Rebound after construction, by the class or through the instance.
    assert_limit(
        &ADK_HELD.replace(
            "    def describe(self):\n",
            "    def swap(self, other):\n        self.agent = other\n\n    def describe(self):\n",
        ),
        "stores more than once",
    );
    assert_limit(
        &format!(
            "{ADK_HELD}billing.agent = LlmAgent(name=\"other\", model=\"m\", instruction=\"i\")\n"
        ),
        "writes, or writes through",
    );
    // A capability field changed through it.
    assert_limit(
        &format!("{ADK_HELD}billing.agent.tools.append(refund)\n"),
        "writes, or writes through",
    );
    // The instance bound twice.
    assert_limit(
        &ADK_HELD.replace(
            "root_agent =",
            "billing = Specialist(\"billing2\", [refund])\nroot_agent =",
        ),
        "billing.agent",
    );
}

/// Issue 41, item 1: `sub_agents=[gatherer.create_agent(),
/// crafter.create_agent()]`, where the method returns the wrapper
/// construction, names the agents those instantiations are.
const ADK_METHOD: &str = r#"from google.adk.agents import LlmAgent, SequentialAgent
from .tools import lookup, refund


class Specialist:
    def __init__(self, name, tools):
        self.name = name
        self.tools = tools

    def create_agent(self):
        return LlmAgent(name=self.name, model="m", instruction="i", tools=self.tools)


gatherer = Specialist("gatherer", [lookup])
crafter = Specialist("crafter", [refund])
root_agent = SequentialAgent(name="root", sub_agents=[gatherer.create_agent(), crafter.create_agent()])
"#;

#[test]
fn a_method_that_returns_the_construction_names_the_instances_agent() {
    let head = ADK_METHOD.replace("(\"crafter\", [refund])", "(\"crafter\", [refund, lookup])");
    let doc = compare_agent(ADK_TOOLS, ADK_METHOD, &head);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("crafter", "lookup", "added")]);
    // The sub-agent itself, added.
    let base = ADK_METHOD.replace(", crafter.create_agent()]", "]");
    let doc = compare_agent(ADK_TOOLS, &base, ADK_METHOD);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("root", "handoff:agent.py:crafter", "added")]
    );
}

/// Edges: a method taking an argument (it could build another agent from
/// it), and one the scope replaces on the instance, keep the limit.
#[test]
fn a_method_call_the_rule_does_not_cover_keeps_the_limit() {
    let taking = ADK_METHOD
        .replace(
            "def create_agent(self):",
            "def create_agent(self, model=\"m\"):",
        )
        .replace("model=\"m\", instruction", "model=model, instruction");
    let head = taking.replace("(\"crafter\", [refund])", "(\"crafter\", [refund, lookup])");
    let doc = compare_agent(ADK_TOOLS, &taking, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head").iter().any(|l| l.contains(
            "hands off to crafter.create_agent(), which this scan could not match to an agent definition"
        )),
        "{:?}",
        limits(&doc, "head")
    );
    let replaced = ADK_METHOD.replace(
        "root_agent = ",
        "crafter.create_agent = gatherer.create_agent\nroot_agent = ",
    );
    let head = replaced.replace("(\"crafter\", [refund])", "(\"crafter\", [refund, lookup])");
    let doc = compare_agent(ADK_TOOLS, &replaced, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l
                .contains("`crafter.create_agent()`, which agent.py:16 writes, or writes through")),
        "{:?}",
        limits(&doc, "head")
    );
}
