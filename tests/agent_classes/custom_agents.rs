//! ADK agents of a repository `BaseAgent` subclass whose code runs nothing
//! (issue 41, item 2, `frameworks/custom_agents.rs`): read as a workflow
//! agent binding the `sub_agents=` it is given. The spec and the reference
//! (1.2.0) name every such class a limit ("agents built from it are not
//! read"); this shape is read because no call of its code can run an agent
//! or a tool. Any other class stays the limit, with the call named.

use super::support::{assert_compared, compare_app, limits, row, rows};

/// A no-op agent (it yields one empty event) and a root that runs two of
/// them in sequence; `extra` is spliced into the class's run.
fn spike(extra: &str, nested: &str) -> String {
    format!(
        r#"import logging

from google.adk.agents import BaseAgent, SequentialAgent
from google.adk.events import Event
from google.genai import types

logger = logging.getLogger(__name__)


class SpikeAgent(BaseAgent):
    """Yields one event and exits."""

    async def _run_async_impl(self, ctx):
        logger.info("running %s", self.name){extra}
        yield Event(author=self.name, content=types.Content(parts=[types.Part(text="ok")]))


first = SpikeAgent(name="first", description="a no-op agent")
second = SpikeAgent(name="second"{nested})
root_agent = SequentialAgent(name="root", sub_agents=[first, second])
"#
    )
}

#[test]
fn a_base_agent_subclass_whose_code_runs_nothing_is_read_as_an_agent() {
    // The root gains a sub-agent under `second`: a row of `second`, and
    // nothing is a limit.
    let base = spike("", "");
    let head = spike("", ", sub_agents=[SpikeAgent(name=\"third\")]");
    let (doc, _) = compare_app(&base, &head);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("second", "handoff:agent.py:third", "added")],
        "{doc:#}"
    );
    // Unchanged, the whole application is read.
    let (doc, _) = compare_app(&base, &base);
    assert_compared(&doc);
}

#[test]
fn a_base_agent_subclass_that_can_run_something_stays_a_named_limit() {
    // Edges: the run calls a helper, reaches the context, or runs another
    // agent; a construction passes `tools=` (which BaseAgent refuses).
    for (extra, nested, why) in [
        (
            "\n        audit(self.name)",
            "",
            "its method '_run_async_impl' calls audit at line 19, which may run an agent or a tool",
        ),
        (
            "\n        ctx.session.state.clear()",
            "",
            "its method '_run_async_impl' calls ctx.session.state.clear at line 19, which may run an agent or a tool",
        ),
        (
            "\n        async for event in first.run_async(ctx):\n            yield event",
            "",
            "its method '_run_async_impl' calls first.run_async at line 19, which may run an agent or a tool",
        ),
    ] {
        let base = spike(extra, nested).replace("logger = ", "def audit(name):\n    return name\n\n\nlogger = ");
        let head = base.replace("sub_agents=[first, second]", "sub_agents=[second, first]");
        let (doc, _) = compare_app(&base, &head);
        assert_eq!(doc["comparison_status"], "partial", "{why}");
        let found = limits(&doc, "head");
        assert!(
            found.iter().any(|l| l.contains(why)),
            "{why}: {found:?}"
        );
    }
    let base = spike("", ", tools=[len]");
    let (doc, _) = compare_app(&base, &base);
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("at this call, it passes tools=, which BaseAgent does not take")),
        "{:?}",
        limits(&doc, "head")
    );
}

#[test]
fn a_custom_agent_built_as_a_functions_local_is_the_sub_agent_it_names() {
    // The spike's shape: each experiment builds its agents in a function,
    // the root naming the custom agent through the local that holds it.
    let experiment = |nested: &str| {
        spike("", "").replace(
            "first = SpikeAgent(name=\"first\", description=\"a no-op agent\")\nsecond = SpikeAgent(name=\"second\")\nroot_agent = SequentialAgent(name=\"root\", sub_agents=[first, second])\n",
            &format!("async def experiment():\n    nested = SpikeAgent(name=\"nested\"{nested})\n    root = SequentialAgent(name=\"root\", sub_agents=[nested])\n    return root\n"),
        )
    };
    let (doc, _) = compare_app(
        &experiment(""),
        &experiment(", sub_agents=[SpikeAgent(name=\"leaf\")]"),
    );
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("nested", "handoff:agent.py:leaf", "added")],
        "{doc:#}"
    );
}
