//! A list name a function binds on exclusive branches (issue 40, item 7,
//! in a function): `if phase == "a": agents = [x] elif …: agents = [y]
//! else: agents = [z]`, then `sub_agents=agents`. Each branch's list is
//! read, its members bound when that branch's tests hold (the tests'
//! source text, never evaluated).
//!
//! Sound because one call runs at most one of the bindings: every two of
//! them sit on opposite sides of one `if` test (one under it holding, the
//! other under it failing), none is in a loop or handler, none is declared
//! `global`/`nonlocal`, and the name is otherwise only read as a list
//! (no addition to it, no other use). So the list a read sees is exactly
//! the one its branch bound, and a read where none ran fails.

use super::list_exprs::{nearest_bindings, Member, Members, MAX_DEPTH};
use super::list_uses::is_list_expression;
use super::list_uses::{list_reads_within, other_uses_within};
use crate::graph::build::ModuleReader;
use crate::python::{BindingFact, BindingKind, Condition, Value};

impl ModuleReader<'_, '_> {
    /// The members of `name`, read in `scope`, when the function that
    /// binds it does so on exclusive branches: `None` when it does not
    /// (the caller keeps its reason).
    pub(in crate::graph::build) fn branch_lists(
        &self,
        scope: &str,
        name: &str,
        depth: usize,
        when: &[String],
    ) -> Option<Result<Members, String>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (bindings, binding_scope) = nearest_bindings(self.facts, scope, name);
        if binding_scope.is_empty() || bindings.len() < 2 {
            return None;
        }
        let function = self
            .facts
            .functions
            .iter()
            .find(|f| f.qualname == binding_scope)?;
        let declared = function
            .globals
            .iter()
            .chain(&function.nonlocals)
            .any(|n| n == name)
            || self
                .facts
                .functions
                .iter()
                .any(|f| f.nonlocals.iter().any(|n| n == name));
        let added = self
            .facts
            .list_additions
            .iter()
            .any(|a| a.target == name && a.scope == binding_scope);
        if declared || added || !exclusive(&bindings) {
            return None;
        }
        let values: Option<Vec<(&Value, &Vec<Condition>)>> = bindings
            .iter()
            .map(|b| match (&b.value, &b.guard) {
                (Some(value), Some(guard))
                    if b.kind == BindingKind::Assignment
                        && (is_list_expression(value) || matches!(value, Value::Call { .. })) =>
                {
                    Some((value, guard))
                }
                _ => None,
            })
            .collect();
        let values = values?;
        if other_uses_within(self.facts, name, &binding_scope)
            != list_reads_within(self.facts, name, &binding_scope)
        {
            return Some(Err(format!(
                "`{name}`, which {} uses other than as an agent's list, so it could change",
                self.path
            )));
        }
        let mut members = Members::new();
        for (value, guard) in values {
            let mut held = when.to_vec();
            held.extend(guard.iter().map(super::list_exprs::spelled_condition));
            match self.list_expression(value, &binding_scope, depth + 1, &held) {
                Ok(read) => members.extend(read),
                Err(why) => members.push(Member::unread(why, &binding_scope, &held)),
            }
        }
        Some(Ok(members))
    }
}

/// Whether every two bindings sit on opposite sides of one `if` test, so
/// that one call runs at most one of them.
fn exclusive(bindings: &[&BindingFact]) -> bool {
    let opposite = |a: &[Condition], b: &[Condition]| {
        a.iter()
            .any(|x| b.iter().any(|y| x.test == y.test && x.holds != y.holds))
    };
    bindings.iter().enumerate().all(|(i, a)| {
        bindings[i + 1..]
            .iter()
            .all(|b| match (&a.guard, &b.guard) {
                (Some(ga), Some(gb)) => opposite(ga, gb),
                _ => false,
            })
    })
}
