//! The graph's work budget (issue 46, item 2): reading a side's agents is
//! near-linear in what they list (`agent_bindings.rs`,
//! `ModuleFacts::module_bindings_named`), and this bounds the rest. Each
//! agent read costs one step and one more for each member its
//! construction lists; once a side has spent `GRAPH_WORK_BUDGET` steps,
//! each agent not yet read is named with the bound instead (an agent
//! limit: its rows are `not_established`), never dropped.
//!
//! The budget is far above any application (a module at the 2 MB bound
//! holds some 30,000 agents, about 100,000 steps); it is reached only by
//! inputs built to exhaust the daemon, which then answer in bounded time.

use crate::python::{CallFact, Value};
use std::cell::Cell;

/// Steps a side's agents may cost.
pub(super) const GRAPH_WORK_BUDGET: u64 = 2_000_000;

/// What is left of a side's budget.
#[derive(Debug)]
pub(super) struct WorkBudget {
    total: u64,
    left: Cell<u64>,
}

impl WorkBudget {
    pub(super) fn new(total: u64) -> Self {
        WorkBudget {
            total,
            left: Cell::new(total),
        }
    }

    /// Takes what reading the agent built by `calls` costs; `false` when
    /// the budget cannot pay it, which spends it: every agent after is
    /// refused too, so reading stops at one place.
    pub(super) fn pays_for<'c>(&self, calls: impl IntoIterator<Item = &'c CallFact>) -> bool {
        let cost: u64 = calls.into_iter().map(construction_cost).sum::<u64>().max(1);
        match self.left.get().checked_sub(cost) {
            Some(left) => {
                self.left.set(left);
                true
            }
            None => {
                self.left.set(0);
                false
            }
        }
    }

    /// The limit on an agent the budget did not reach.
    pub(super) fn limit(&self, who: &str) -> String {
        format!(
            "{who} is not read: reading stopped when this side's graph work budget of {} steps was spent (a bound against inputs built to exhaust the daemon); its tools, handoffs, MCP servers and sub-agents are not established.",
            self.total
        )
    }
}

/// One step for the construction, one for each member of a list or tuple
/// it passes.
fn construction_cost(call: &CallFact) -> u64 {
    let members = |value: &Value| match value {
        Value::List(items) | Value::Tuple(items) => items.len() as u64,
        _ => 0,
    };
    1 + call.keywords.iter().map(|k| members(&k.value)).sum::<u64>()
        + call.args.iter().map(members).sum::<u64>()
}
