//! Tool-list stability (issue 10; `../shared/seeds/tool-stability-issue.md`):
//! a reordered or rebuilt tool list breaks a model provider's prompt cache
//! and can confuse a model mid-task even when no tool is added or removed.
//! Information beside the rows, never a binding change.

use crate::graph::SideGraph;
use serde::{Deserialize, Serialize};

/// An agent whose tool list is ordered differently on the two sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderChange {
    pub agent_source: String,
    pub agent: String,
    pub before: Vec<String>,
    pub after: Vec<String>,
}

/// An agent whose tool list is built or changed at run time in a way the
/// reader names as a limit: the list may differ between calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caveat {
    pub agent_source: String,
    pub agent: String,
    pub why: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stability {
    pub order_changed: Vec<OrderChange>,
    pub caveats: Vec<Caveat>,
}

impl Stability {
    pub fn is_empty(&self) -> bool {
        self.order_changed.is_empty() && self.caveats.is_empty()
    }
}

/// Limits that say an agent's list is built or changed at run time.
const RUNTIME_LIST: &[&str] = &[
    "changed after construction",
    "uses a dynamic",
    "list it does not read",
    "passes ** keyword unpacking",
];

/// Stability between two sides: tools both sides list, in a different
/// relative order; and the head's agents whose list may change at run time.
pub fn stability(base: &SideGraph, head: &SideGraph) -> Stability {
    let mut order_changed = Vec::new();
    for after in &head.tool_orders {
        let Some(before) = base
            .tool_orders
            .iter()
            .find(|b| b.agent_source == after.agent_source && b.agent == after.agent)
        else {
            continue;
        };
        let common_before: Vec<&String> = before
            .tools
            .iter()
            .filter(|t| after.tools.contains(t))
            .collect();
        let common_after: Vec<&String> = after
            .tools
            .iter()
            .filter(|t| before.tools.contains(t))
            .collect();
        if common_before != common_after {
            order_changed.push(OrderChange {
                agent_source: after.agent_source.clone(),
                agent: after.agent.clone(),
                before: before.tools.clone(),
                after: after.tools.clone(),
            });
        }
    }
    let mut caveats: Vec<Caveat> = head
        .gaps
        .iter()
        .filter(|gap| {
            RUNTIME_LIST
                .iter()
                .any(|needle| gap.reason.contains(needle))
        })
        .filter_map(|gap| {
            Some(Caveat {
                agent_source: gap.source.clone()?,
                agent: gap.agent.clone()?,
                why: gap.reason.clone(),
            })
        })
        .collect();
    caveats.sort_by(|a, b| {
        (&a.agent_source, &a.agent, &a.why).cmp(&(&b.agent_source, &b.agent, &b.why))
    });
    caveats.dedup();
    Stability {
        order_changed,
        caveats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Gap, ToolOrder};

    fn order(tools: &[&str]) -> ToolOrder {
        ToolOrder {
            agent_source: "agent.py".into(),
            agent: "support".into(),
            tools: tools.iter().map(|t| t.to_string()).collect(),
        }
    }

    #[test]
    fn a_reorder_of_shared_tools_is_named_and_an_addition_is_not() {
        let base = SideGraph {
            tool_orders: vec![order(&["lookup", "refund"])],
            ..SideGraph::default()
        };
        let appended = SideGraph {
            tool_orders: vec![order(&["lookup", "refund", "cancel"])],
            ..SideGraph::default()
        };
        assert!(stability(&base, &appended).is_empty());
        let reordered = SideGraph {
            tool_orders: vec![order(&["refund", "lookup"])],
            gaps: vec![Gap::agent(
                "agent.py",
                "support",
                "OpenAI Agents SDK agent 'support' at agent.py:3 has its tools changed after construction at agent.py:9 (.append()); its binding graph is incomplete.".into(),
            )],
            ..SideGraph::default()
        };
        let found = stability(&base, &reordered);
        assert_eq!(found.order_changed.len(), 1);
        assert_eq!(found.order_changed[0].after, vec!["refund", "lookup"]);
        assert_eq!(found.caveats.len(), 1);
        assert_eq!(found.caveats[0].agent, "support");
    }
}
