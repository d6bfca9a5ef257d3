//! Which of the side's bindings are one agent's, without a scan of them
//! all: the passes that finish an agent (its gates, the ways its lists
//! hold each tool, whether it has a tool order) ask this once per agent, and a scan
//! per agent made a module of thousands of agents quadratic (issue 46,
//! item 2).
//!
//! Exact by construction: a module reader indexes the bindings pushed
//! since it started, by agent, catching up on each question; an agent of
//! its module that already had bindings when it started (another
//! framework's pass over the same module) is answered by a scan, as
//! before; a removal (`retain`) makes it index again from its start.

use super::ModuleReader;
use crate::graph::{Binding, ToolOrder};
use std::collections::{HashMap, HashSet};

#[derive(Debug, Default)]
pub(super) struct AgentBindings {
    /// The first binding pushed while this reader reads.
    start: usize,
    /// How many bindings are indexed (from `start`).
    indexed: usize,
    /// This module's agents with bindings before `start`, found on the
    /// first question (a reader that finishes no agent asks none).
    earlier: Option<HashSet<String>>,
    /// Positions of the bindings since `start`, by agent.
    by_agent: HashMap<String, Vec<usize>>,
    /// This module's agents with a tool order, from the first
    /// `orders_indexed` orders of the side (orders are never removed).
    ordered: HashSet<String>,
    orders_indexed: usize,
}

impl AgentBindings {
    /// The index for a reader starting on `bindings`.
    pub(super) fn starting(bindings: &[Binding]) -> Self {
        AgentBindings {
            start: bindings.len(),
            indexed: bindings.len(),
            ..AgentBindings::default()
        }
    }

    /// Whether `path`'s agent `agent` has a tool order among `orders`.
    pub(super) fn has_order(&mut self, path: &str, agent: &str, orders: &[ToolOrder]) -> bool {
        for order in orders.iter().skip(self.orders_indexed) {
            if order.agent_source == path {
                self.ordered.insert(order.agent.clone());
            }
        }
        self.orders_indexed = orders.len();
        self.ordered.contains(agent)
    }

    /// Positions (ascending) of the bindings of `path`'s agent `agent`.
    pub(super) fn of(&mut self, path: &str, agent: &str, bindings: &[Binding]) -> Vec<usize> {
        if bindings.len() < self.indexed {
            self.forget();
        }
        let start = self.start.min(bindings.len());
        let earlier = self.earlier.get_or_insert_with(|| {
            bindings[..start]
                .iter()
                .filter(|b| b.agent_source == path)
                .map(|b| b.agent.clone())
                .collect()
        });
        if earlier.contains(agent) {
            return (0..bindings.len())
                .filter(|&i| bindings[i].agent_source == path && bindings[i].agent == agent)
                .collect();
        }
        for (i, binding) in bindings.iter().enumerate().skip(self.indexed) {
            if binding.agent_source == path {
                self.by_agent
                    .entry(binding.agent.clone())
                    .or_default()
                    .push(i);
            }
        }
        self.indexed = bindings.len();
        self.by_agent.get(agent).cloned().unwrap_or_default()
    }

    /// Bindings were removed: positions moved, index again from the start.
    fn forget(&mut self) {
        self.by_agent.clear();
        self.indexed = self.start;
    }
}

impl ModuleReader<'_, '_> {
    /// Positions (ascending) of the bindings of this module's `agent`.
    pub(super) fn bindings_of(&mut self, agent: &str) -> Vec<usize> {
        self.agent_bindings
            .of(self.path, agent, &self.graph.bindings)
    }

    /// Keeps the side's bindings `keep` holds, keeping the index exact.
    pub(super) fn retain_bindings(&mut self, mut keep: impl FnMut(&Binding) -> bool) {
        let start = self.agent_bindings.start;
        let mut position = 0;
        let mut removed_before_start = 0;
        self.graph.bindings.retain(|binding| {
            let kept = keep(binding);
            if !kept && position < start {
                removed_before_start += 1;
            }
            position += 1;
            kept
        });
        self.agent_bindings.start = start.saturating_sub(removed_before_start);
        self.agent_bindings.forget();
    }
}
