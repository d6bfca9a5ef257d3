//! Rewires read as bindings: `triage.handoffs.append(billing)`,
//! `.extend([a, b])`, `.insert(i, t)` or `triage.tools += [t]` after the
//! agent is built.
//!
//! Sound where the list the statement changes is the one the agent was
//! built with and the statement runs exactly once, before any request:
//! - the agent is bound once, at module level and unconditionally, to its
//!   construction, and the field was given as a list display or not at
//!   all (a new list no other name holds; no `**` spread);
//! - the statement is at module level, unconditional, and spells the
//!   agent by a name its module binds once: the agent's own variable in
//!   its own module, or a from-import of it in a module of the scope;
//! - only an addition (never `remove`, `pop`, a slice, an alias handed
//!   away, or a rebinding, which stay the named limit they are).
//!
//! A rewire in the agent's own module runs whenever the agent exists; one
//! in another module only once that module runs, so its members carry
//! `bound_when` "when `<module>` is imported".
//!
//! `capability_limits` asks [`is_read_rewire`] before naming a change
//! after construction, and the list reader asks [`rewires_of`] for the
//! members: one predicate, so a rewire is either a binding or a limit.

use super::ModuleSet;
use crate::python::{BindingKind, CallFact, ListAddition, ModuleFacts, StoreKind, Value};
use crate::resolve::Resolver;

/// The fields a rewire is read for. ADK's `sub_agents` is not: a
/// sub-agent appended after construction is not given its parent.
const REWIRED_FIELDS: &[&str] = &["tools", "handoffs", "mcp_servers"];

/// One rewire of an agent's field, in the module that makes it.
pub(super) struct Rewire<'m> {
    /// The module the statement is in (its names are read there).
    pub path: &'m str,
    pub addition: &'m ListAddition,
    /// Whether it is in the agent's own module.
    pub own_module: bool,
}

/// The variable the construction is bound to, when its `field` can be
/// rewired: bound once, at module level and unconditionally, with the
/// field given as a list display.
pub(super) fn rewirable<'c>(
    facts: &ModuleFacts,
    call: &'c CallFact,
    field: &str,
) -> Option<&'c str> {
    if !REWIRED_FIELDS.contains(&field) || !call.scope.is_empty() {
        return None;
    }
    let variable = call.assigned_to.as_deref().filter(|v| !v.contains('.'))?;
    // A display, or nothing: both frameworks give an absent field a new
    // list of its own (`default_factory=list`). A `**` spread or another
    // positional argument could pass a shared one.
    // A copy (`base.clone(...)`) shares the fields it does not pass.
    let spread = super::passes_unnamed(call).is_some();
    let copy = matches!(&call.callee, Value::Attribute(parts) if parts.last().is_some_and(|m| m == "clone"));
    let displayed = match call.keyword(field) {
        Some(keyword) => matches!(keyword.value, Value::List(_) | Value::Tuple(_)),
        None => !spread && !copy,
    };
    let mut bindings = facts
        .module_bindings_named(variable)
        .filter(|b| b.name == variable);
    let once = match (bindings.next(), bindings.next()) {
        (Some(b), None) => b.kind == BindingKind::Assignment && !b.conditional,
        _ => false,
    };
    let global = facts
        .functions
        .iter()
        .any(|f| f.globals.iter().any(|g| g == variable));
    (displayed && once && !global).then_some(variable)
}

/// Whether an addition is of the kind read as a rewire: module level,
/// unconditional, an addition.
fn adds_once(addition: &ListAddition) -> bool {
    addition.scope.is_empty()
        && !addition.conditional
        && matches!(addition.how.as_str(), "append" | "extend" | "insert" | "+=")
}

/// Whether `name` is bound once in the module, by one unconditional
/// import (so the rewire's object is what the import gives).
fn imported_once(facts: &ModuleFacts, name: &str) -> bool {
    let mut bindings = facts.module_bindings_named(name).filter(|b| b.name == name);
    match (bindings.next(), bindings.next()) {
        (Some(b), None) => b.kind == BindingKind::Import && !b.conditional && !b.type_checking,
        _ => false,
    }
}

/// Every addition of the side that could be a rewire (module level,
/// unconditional, into an object's attribute), found once per side so
/// that each agent's field looks only at these.
pub(super) struct RewireIndex<'m> {
    additions: Vec<(&'m str, &'m ModuleFacts, &'m ListAddition)>,
}

impl<'m> RewireIndex<'m> {
    pub(super) fn of(modules: &ModuleSet<'m>) -> Self {
        let mut additions = Vec::new();
        for path in modules.paths() {
            let Some(facts) = modules.facts(path) else {
                continue;
            };
            additions.extend(
                facts
                    .list_additions
                    .iter()
                    .filter(|a| adds_once(a) && a.target.contains('.'))
                    .map(|a| (path, facts, a)),
            );
        }
        RewireIndex { additions }
    }
}

/// Every rewire of `variable`'s `field` (the agent built in `agent_path`)
/// in the modules of the scope, in path and line order.
pub(super) fn rewires_of<'m>(
    index: &RewireIndex<'m>,
    modules: &ModuleSet<'m>,
    agent_path: &str,
    variable: &str,
    field: &str,
) -> Vec<Rewire<'m>> {
    let mut out = Vec::new();
    let mut resolver = Resolver::new(modules);
    for &(path, facts, addition) in &index.additions {
        let own_module = path == agent_path;
        {
            let Some((object, changed)) = addition.target.split_once('.') else {
                continue;
            };
            if changed != field {
                continue;
            }
            let names_agent = if own_module {
                object == variable
            } else {
                imported_once(facts, object)
                    && resolver
                        .import_origin(path, "", object)
                        .is_some_and(|(file, member)| file == agent_path && member == variable)
            };
            if names_agent {
                out.push(Rewire {
                    path,
                    addition,
                    own_module,
                });
            }
        }
    }
    out.sort_by_key(|r| (r.path, r.addition.line));
    out
}

/// An agent's construction, where a store into its fields is judged.
pub(super) struct AgentSite<'f> {
    pub facts: &'f ModuleFacts,
    pub call: &'f CallFact,
    pub path: &'f str,
}

/// A store into an agent's field: the module it is in, the store, the
/// field.
pub(super) struct FieldStore<'f> {
    pub path: &'f str,
    pub store: &'f crate::python::AttributeStore,
    pub field: &'f str,
}

/// Whether a store into an agent's field is a rewire the list reader
/// reads (then it is no limit): the same predicate as [`rewires_of`],
/// asked from the store's side.
pub(super) fn is_read_rewire<'m>(
    index: &RewireIndex<'m>,
    modules: &ModuleSet<'m>,
    agent: AgentSite<'_>,
    change: FieldStore<'_>,
) -> bool {
    let store = change.store;
    let additive = matches!(&store.how, StoreKind::AugmentedAssignment)
        || matches!(&store.how, StoreKind::MethodCall(m) if matches!(m.as_str(), "append" | "extend" | "insert"));
    if !additive || !store.scope.is_empty() {
        return false;
    }
    let Some(variable) = rewirable(agent.facts, agent.call, change.field) else {
        return false;
    };
    rewires_of(index, modules, agent.path, variable, change.field)
        .iter()
        .any(|r| r.path == change.path && r.addition.line == store.line)
}
