//! How a list holds each of its members: the conditions each way in runs
//! under (`bound_when`, complementary branches folded into none), the
//! builder calls it came through and the rewires that added it.

use super::{name_filters, Framework, ModuleReader};
use crate::graph::Edge;
use std::collections::{BTreeMap, BTreeSet};

/// How a list holds a member, once literal name filters are evaluated.
enum Held {
    /// Under these conditions (none: always).
    When(Vec<String>),
    /// Under none: every way in was rejected by a name filter.
    Never,
}

/// How a list holds each of its members, by tool key.
#[derive(Default)]
pub(super) struct Ways {
    /// The ways it gets in, each the conditions it is listed under (empty:
    /// always).
    conditions: BTreeMap<String, BTreeSet<Vec<String>>>,
    /// Where the builder that received it was called.
    callers: BTreeMap<String, BTreeSet<String>>,
    /// The rewires that added it after construction.
    rewired: BTreeMap<String, BTreeSet<String>>,
}

impl Ways {
    pub(super) fn new() -> Self {
        Self::default()
    }

    pub(super) fn add(
        &mut self,
        key: String,
        when: &[String],
        caller: Option<&str>,
        rewired_at: Option<&str>,
    ) {
        if let Some(caller) = caller {
            self.callers
                .entry(key.clone())
                .or_default()
                .insert(caller.to_string());
        }
        if let Some(at) = rewired_at {
            self.rewired
                .entry(key.clone())
                .or_default()
                .insert(at.to_string());
        }
        self.conditions
            .entry(key)
            .or_default()
            .insert(when.to_vec());
    }

    /// `bound_when` for one key: none when it is always held. With the
    /// binding's `name` where a literal name filter tests exactly it
    /// (`name_filters.rs`), each such filter is evaluated: a way it rejects
    /// is dropped, one it keeps loses it. `Some(Held::Never)` when no way
    /// is left.
    fn bound_when(&self, key: &str, name: Option<&str>) -> Option<Held> {
        let mut ways = BTreeSet::new();
        'ways: for way in self.conditions.get(key)? {
            let mut kept = Vec::new();
            for condition in way {
                match name.and_then(|name| name_filters::keeps(condition, name)) {
                    Some(true) => {}
                    Some(false) => continue 'ways,
                    None => kept.push(condition.clone()),
                }
            }
            ways.insert(kept);
        }
        if ways.is_empty() {
            return Some(Held::Never);
        }
        let ways = merge_complements(ways);
        if ways.contains(&Vec::new()) {
            return Some(Held::When(Vec::new()));
        }
        Some(Held::When(
            ways.iter().map(|way| way.join(" and ")).collect(),
        ))
    }
}

/// Folds two ways that differ only in one condition and its negation
/// (`c` … and `not c` …) into one without it, until none do: a member both
/// branches of an `if` hold is held either way. Source text only; nothing
/// is evaluated.
fn merge_complements(mut ways: BTreeSet<Vec<String>>) -> BTreeSet<Vec<String>> {
    loop {
        let mut merged = None;
        'search: for a in &ways {
            for b in &ways {
                if a.len() != b.len() {
                    continue;
                }
                let differing: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
                if let [i] = differing.as_slice() {
                    if b[*i] == format!("not {}", a[*i]) {
                        let mut kept = a.clone();
                        kept.remove(*i);
                        merged = Some((a.clone(), b.clone(), kept));
                        break 'search;
                    }
                }
            }
        }
        let Some((a, b, kept)) = merged else {
            return ways;
        };
        ways.remove(&a);
        ways.remove(&b);
        ways.insert(kept);
    }
}

impl ModuleReader<'_, '_> {
    /// Sets each binding's `bound_when` from the ways the list holds it
    /// (keyed by tool key): none when any way is unconditional.
    pub(super) fn apply_ways(&mut self, agent: &str, ways: &Ways) {
        let mut never = BTreeSet::new();
        // Only an SDK function tool's `name` is its binding's name.
        let evaluates = self.framework == Framework::OpenAi;
        for position in self.bindings_of(agent) {
            let Some(binding) = self.graph.bindings.get_mut(position) else {
                continue;
            };
            if let Some(callers) = ways.callers.get(&binding.tool_key) {
                binding.callers = callers.iter().cloned().collect();
            }
            if let Some(rewired) = ways.rewired.get(&binding.tool_key) {
                binding.rewired_at = rewired.iter().cloned().collect();
            }
            let name = (evaluates && matches!(binding.edge, Edge::Tool(_)))
                .then_some(binding.tool.as_str());
            match ways.bound_when(&binding.tool_key, name) {
                Some(Held::When(bound_when)) => binding.bound_when = bound_when,
                Some(Held::Never) => {
                    never.insert(binding.tool_key.clone());
                }
                None => {}
            }
        }
        // A member every filter rejects is not bound.
        if !never.is_empty() {
            let path = self.path;
            self.retain_bindings(|b| {
                b.agent_source != path || b.agent != agent || !never.contains(&b.tool_key)
            });
        }
    }
}
