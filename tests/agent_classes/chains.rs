//! A class deriving from another repository agent class (issue 41, item
//! 3): `class Special(TracedAgent)` where `TracedAgent(Agent)` is the
//! scope's own. Such a class is an agent class, so its constructions are
//! read or named, never passed over: before this rule a construction of
//! `Special` was no agent at all and the comparison said `compared` with
//! the agent's tools unread (the reference names the use of `TracedAgent`
//! as a limit). A construction is read through the chain when every class
//! on it is a pass-through subclass; else the limit names the class that
//! failed.

use super::support::assert_compared;
use super::support::{compare_branches, limits, row, rows};
use super::{ADK_TOOLS, SDK_TOOLS};
use serde_json::Value;

/// `TracedAgent(Agent)`: a pass-through subclass.
const TRACED: &str = "from agents import Agent\n\n\nclass TracedAgent(Agent):\n    def __init__(self, tracer, **kwargs):\n        super().__init__(**kwargs)\n        self.tracer = tracer\n";

/// `Special(TracedAgent)`, handing its base a constant `tracer=`.
const SPECIAL: &str = "from .tracing import TracedAgent\n\n\nclass Special(TracedAgent):\n    def __init__(self, **kwargs):\n        super().__init__(tracer=None, **kwargs)\n";

const AGENT: &str = "from .special import Special\nfrom .tools import lookup, refund\n\nhelper = Special(name=\"helper\", tools=[lookup])\n";

/// `app/` with the SDK tools, `tracing.py`, `special.py` and `agent.py`
/// (`AGENT` on main, `lookup` joined by `refund` on the branch).
fn compare_chain(tracing: &str, special: &str) -> Value {
    let head = AGENT.replace("tools=[lookup]", "tools=[lookup, refund]");
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/tracing.py", tracing),
            ("app/special.py", special),
            ("app/agent.py", AGENT),
        ],
        &[("app/agent.py", &head)],
        "app",
    )
    .0
}

/// Both classes pass through: the construction is the `Agent` it makes.
#[test]
fn a_chain_of_pass_through_classes_is_read_as_the_framework_class() {
    let doc = compare_chain(TRACED, SPECIAL);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("helper", "refund", "added")]);
    assert_eq!(doc["rows"][0]["after"]["agent_source"], "app/agent.py");
}

/// The base class touches its tools: the construction of the derived
/// class is the spec's limit, naming the base class and why.
#[test]
fn a_chain_through_a_class_that_touches_its_tools_names_that_class() {
    let tracing = TRACED.replace(
        "        self.tracer = tracer\n",
        "        self.tracer = tracer\n        self.tools.append(None)\n",
    );
    let doc = compare_chain(&tracing, SPECIAL);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(
        limits(&doc, "head"),
        vec!["agent.py uses Special, an OpenAI Agents SDK agent subclass defined at special.py:4; agents built from it are not read. It is not read as its base class: 'Special' (special.py:4): its base class 'TracedAgent' (tracing.py:4): its code spells 'tools'."]
    );
}

/// The derived class is no pass-through (it hands its base a positional
/// argument): still an agent class, so its construction is a named limit
/// and the comparison is `partial`, never a `compared` that hides the
/// agent (what it was before this rule).
#[test]
fn a_derived_class_that_is_not_read_is_never_silent() {
    let special = SPECIAL.replace("tracer=None, **kwargs", "None, **kwargs");
    let doc = compare_chain(TRACED, &special);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(
        limits(&doc, "head"),
        vec!["agent.py uses Special, an OpenAI Agents SDK agent subclass defined at special.py:4; agents built from it are not read. It is not read as its base class: 'Special' (special.py:4): its __init__ passes positional arguments to the base class."]
    );
}

/// Google ADK: `Child(Base)` over `Base(LlmAgent)` in one module, the
/// agent named by its literal `name=`.
#[test]
fn an_adk_chain_is_read_as_llm_agent() {
    let agent = "from google.adk.agents import LlmAgent\nfrom .tools import lookup, refund\n\n\nclass Base(LlmAgent):\n    def describe(self):\n        return self.name\n\n\nclass Child(Base):\n    def __init__(self, **kwargs):\n        super().__init__(model=\"m\", **kwargs)\n\n\nroot_agent = Child(name=\"helper\", instruction=\"i\", tools=[lookup])\n";
    let head = agent.replace("tools=[lookup]", "tools=[lookup, refund]");
    let doc = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", ADK_TOOLS),
            ("app/agent.py", agent),
        ],
        &[("app/agent.py", &head)],
        "app",
    )
    .0;
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("helper", "refund", "added")]);
}

/// Classes deriving from each other in a cycle (hostile input: Python
/// would refuse it) are no agent classes, and the read ends: the changed
/// `agent.py` builds no agent the comparison knows, which it says
/// (`not_established`), not `compared`.
#[test]
fn a_cycle_of_classes_ends() {
    let special = "from . import tracing\n\n\nclass Special(Loop):\n    pass\n\n\nclass Loop(Special):\n    pass\n";
    let doc = compare_chain(TRACED, special);
    assert_eq!(doc["comparison_status"], "not_established");
    assert_eq!(rows(&doc), vec![]);
}

/// A base the resolver cannot follow (a later wildcard import whose
/// module binds that name too) is never a reason to pass the derived
/// class over: it is an agent class whose base is not established, a
/// named limit on its constructions.
#[test]
fn a_base_the_resolver_cannot_follow_is_named() {
    let special = SPECIAL.replace(
        "from .tracing import TracedAgent\n",
        "from .tracing import TracedAgent\nfrom .legacy import *\n",
    );
    let head = AGENT.replace("tools=[lookup]", "tools=[lookup, refund]");
    let doc = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/tracing.py", TRACED),
            ("app/legacy.py", "class TracedAgent:\n    pass\n"),
            ("app/special.py", &special),
            ("app/agent.py", AGENT),
        ],
        &[("app/agent.py", &head)],
        "app",
    )
    .0;
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(
        limits(&doc, "head"),
        vec!["agent.py uses Special, an OpenAI Agents SDK agent subclass defined at special.py:5; agents built from it are not read. It is not read as its base class: 'Special' (special.py:5): the one definition of its base class 'TracedAgent' is not established."]
    );
}
