//! A Google ADK agent renamed in place (issue 20): the same module-level
//! variable of the same file (`root_agent = Agent(name="support", …)` →
//! `root_agent = Agent(name="helpdesk", …)`) is one agent under a new
//! name, not a removal and an addition. The base side's agent, its
//! bindings, its gaps and the handoffs to it are renamed to the head's
//! name before rows are paired, so its rows compare as one agent's, and
//! the pair is reported (`agent_correspondence`).
//!
//! Sound because ADK identifies an agent by its literal `name=` and the
//! variable is the module's one binding of that agent: the reader records
//! the variable only for an agent built at one site, at module level, and
//! a pair is made only when each side's file has exactly one agent on
//! that variable, the base name is gone from the head file and the head
//! name is new to the base file. The OpenAI Agents SDK already
//! identifies such an agent by its variable, so it never needs this.

use crate::graph::SideGraph;
use crate::paths::rooted;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// One agent renamed in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentRename {
    /// The agent's file, scope-relative, as the head spells it.
    pub agent_source: String,
    pub from: String,
    pub to: String,
}

/// Pairs the renamed agents and renames them on the base side (its files
/// first mapped through the exact file renames, base path → head path).
pub fn apply_agent_renames(
    base: &mut SideGraph,
    head: &SideGraph,
    file_renames: &BTreeMap<String, String>,
) -> Vec<AgentRename> {
    let head_path = |path: &str| {
        file_renames
            .get(path)
            .cloned()
            .unwrap_or_else(|| path.to_string())
    };
    let on_variable = |side: &SideGraph, path: &str, variable: &str| {
        side.agents
            .iter()
            .filter(|a| a.variable.as_deref() == Some(variable))
            .filter(|a| a.source == path)
            .map(|a| a.name.clone())
            .collect::<Vec<_>>()
    };
    let mut renames: Vec<(String, AgentRename)> = Vec::new();
    for agent in &base.agents {
        let Some(variable) = agent.variable.as_deref() else {
            continue;
        };
        let path = head_path(&agent.source);
        let head_has = |name: &str| {
            head.agents
                .iter()
                .any(|a| a.source == path && a.name == name)
        };
        let base_has = |name: &str| {
            base.agents
                .iter()
                .any(|a| a.source == agent.source && a.name == name)
        };
        if head_has(&agent.name) {
            continue;
        }
        let (mine, theirs) = (
            on_variable(base, &agent.source, variable),
            on_variable(head, &path, variable),
        );
        let ([_], [to]) = (mine.as_slice(), theirs.as_slice()) else {
            continue;
        };
        if base_has(to) {
            continue;
        }
        renames.push((
            agent.source.clone(),
            AgentRename {
                agent_source: path,
                from: agent.name.clone(),
                to: to.clone(),
            },
        ));
    }
    for (base_path, rename) in &renames {
        rename_on(base, base_path, &rename.from, &rename.to);
    }
    renames.into_iter().map(|(_, rename)| rename).collect()
}

/// Renames agent `from` of `path` to `to` throughout one side.
fn rename_on(side: &mut SideGraph, path: &str, from: &str, to: &str) {
    for agent in side
        .agents
        .iter_mut()
        .filter(|a| a.source == path && a.name == from)
    {
        agent.name = to.to_string();
    }
    let handoff = format!("handoff:{path}:{from}");
    for binding in &mut side.bindings {
        if binding.agent_source == path && binding.agent == from {
            binding.agent = to.to_string();
        }
        if binding.tool_key == handoff {
            binding.tool_key = format!("handoff:{path}:{to}");
            binding.tool = to.to_string();
        }
    }
    for gap in &mut side.gaps {
        if gap.source.as_deref() == Some(path) && gap.agent.as_deref() == Some(from) {
            gap.agent = Some(to.to_string());
        }
    }
}

/// `agent_correspondence`: each agent renamed in place, rooted; present
/// only when there is one, so other documents are unchanged.
pub(super) fn correspondence(renames: &[AgentRename], scope: &str) -> Option<Value> {
    if renames.is_empty() {
        return None;
    }
    Some(Value::Array(
        renames
            .iter()
            .map(|r| {
                json!({
                    "agent_source": rooted(scope, &r.agent_source),
                    "base_agent": r.from,
                    "head_agent": r.to,
                    "basis": "same_variable_renamed",
                })
            })
            .collect(),
    ))
}
