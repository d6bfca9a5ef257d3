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
//! A replacement (`triage.handoffs = [billing]`, ADK's
//! `root.sub_agents = [a, b]` too, [`replacement_of`]) is read as the
//! field's whole value where it runs before any request, every time the
//! agent exists, and nothing else writes the field:
//! - the agent is bound as above (the list it was built with need not be
//!   a display: the replacement discards it);
//! - the assignment is at module level and unconditional, either in the
//!   agent's own module below the construction, or in the `__init__.py`
//!   of a package the agent's module is in, spelling the agent by a
//!   from-import of it bound once. Python runs every package above a
//!   module before the module can be imported, and a package that
//!   imports the agent finishes, replacement included, before the import
//!   of anything in it returns: so no request sees the agent before it;
//! - it is the only replacement of that field of that agent in the scope,
//!   and no rewire adds to the field (their order would matter). Any
//!   other write stays the limit `capability_limits` names.
//!
//! `capability_limits` asks [`is_read_rewire`] before naming a change
//! after construction, and the list reader asks [`rewires_of`] for the
//! members: one predicate, so a rewire is either a binding or a limit.

use super::ModuleSet;
use crate::python::{
    BindingKind, CallFact, ListAddition, ModuleFacts, StoreKind, StoredUnder, Value, ValueStore,
};
use crate::resolve::Resolver;

/// The fields a rewire is read for. ADK's `sub_agents` is not: a
/// sub-agent appended after construction is not given its parent.
const REWIRED_FIELDS: &[&str] = &["tools", "handoffs", "mcp_servers"];

/// The fields a replacement is read for: ADK's `sub_agents` too. Its new
/// members are not given their parent either (only construction does
/// that), but what the agent reaches is its `sub_agents`: an LLM agent's
/// transfer targets and a workflow agent's run read the field as it is
/// when the request comes, and the root finds agents by walking it. What
/// a member no longer reaches (its parent) is the member's, not a row.
const REPLACED_FIELDS: &[&str] = &["tools", "handoffs", "mcp_servers", "sub_agents"];

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
    let variable = bound_once(facts, call)?;
    owns_list(call, field).then_some(variable)
}

/// Whether the construction gives `field` a list of its own: a display,
/// or nothing (both frameworks give an absent field a new list,
/// `default_factory=list`), with no `**` spread or other positional
/// argument that could pass a shared one, and not a copy
/// (`base.clone(...)` shares the fields it does not pass). Only such a
/// list is this agent's alone.
pub(super) fn owns_list(call: &CallFact, field: &str) -> bool {
    let spread = super::passes_unnamed(call).is_some();
    let copy = matches!(&call.callee, Value::Attribute(parts) if parts.last().is_some_and(|m| m == "clone"));
    match call.keyword(field) {
        Some(keyword) => matches!(keyword.value, Value::List(_) | Value::Tuple(_)),
        None => !spread && !copy,
    }
}

/// The variable a module-level construction is bound to, once and
/// unconditionally, that no function rebinds (`global`).
fn bound_once<'c>(facts: &ModuleFacts, call: &'c CallFact) -> Option<&'c str> {
    if !call.scope.is_empty() {
        return None;
    }
    let variable = call.assigned_to.as_deref().filter(|v| !v.contains('.'))?;
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
    (once && !global).then_some(variable)
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
    /// `x.field = value` at module level, unconditional, for a field a
    /// replacement is read for.
    replacements: Vec<(&'m str, &'m ModuleFacts, &'m ValueStore)>,
}

impl<'m> RewireIndex<'m> {
    pub(super) fn of(modules: &ModuleSet<'m>) -> Self {
        let mut additions = Vec::new();
        let mut replacements = Vec::new();
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
            replacements.extend(
                facts
                    .module_stores
                    .iter()
                    .filter(|s| {
                        s.object.len() == 1
                            && !s.conditional
                            && matches!(&s.under, StoredUnder::Attribute(field) if REPLACED_FIELDS.contains(&field.as_str()))
                    })
                    .map(|s| (path, facts, s)),
            );
        }
        RewireIndex {
            additions,
            replacements,
        }
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
            let agent = AgentVariable {
                path: agent_path,
                variable,
            };
            if names_agent(&mut resolver, path, facts, object, &agent) {
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

/// An agent bound to a module-level variable, as a rewire spells it.
pub(super) struct AgentVariable<'a> {
    /// The agent's module.
    pub path: &'a str,
    pub variable: &'a str,
}

/// Whether `object`, spelled at module level of `path`, is the agent: its
/// own variable in its own module, or a from-import of it bound once.
fn names_agent(
    resolver: &mut Resolver<'_, '_>,
    path: &str,
    facts: &ModuleFacts,
    object: &str,
    agent: &AgentVariable<'_>,
) -> bool {
    if path == agent.path {
        return object == agent.variable;
    }
    imported_once(facts, object)
        && resolver
            .import_origin(path, "", object)
            .is_some_and(|(file, member)| file == agent.path && member == agent.variable)
}

/// The one replacement of an agent's field read as its whole value (the
/// module doc's rule): where it is, and the value, read in that module.
pub(super) struct Replacement<'m> {
    pub path: &'m str,
    pub store: &'m ValueStore,
    pub own_module: bool,
}

/// The replacement of `field` of the agent `call` builds in `agent_path`,
/// when the module doc's rule reads it; `None` when there is none, or it
/// is not read (then `capability_limits` names it).
pub(super) fn replacement_of<'m>(
    index: &RewireIndex<'m>,
    modules: &ModuleSet<'m>,
    agent_path: &str,
    facts: &ModuleFacts,
    call: &CallFact,
    field: &str,
) -> Option<Replacement<'m>> {
    if !REPLACED_FIELDS.contains(&field) {
        return None;
    }
    let variable = bound_once(facts, call)?;
    let agent = AgentVariable {
        path: agent_path,
        variable,
    };
    let mut resolver = Resolver::new(modules);
    let mut found = index.replacements.iter().filter(|(path, facts, store)| {
        matches!(&store.under, StoredUnder::Attribute(f) if f == field)
            && store
                .object
                .first()
                .is_some_and(|object| names_agent(&mut resolver, path, facts, object, &agent))
    });
    let (Some(&(path, init_facts, store)), None) = (found.next(), found.next()) else {
        return None;
    };
    let own_module = path == agent_path;
    let runs_first = match own_module {
        true => store.line > call.line,
        false => {
            let relative = store.object.first().is_some_and(|object| {
                init_facts
                    .imports
                    .iter()
                    .any(|i| i.scope.is_empty() && i.bound_name() == object && i.level > 0)
            });
            package_above(path, agent_path, relative)
        }
    };
    let added = !rewires_of(index, modules, agent_path, variable, field).is_empty();
    let fresh = is_new_list(init_facts, &store.value);
    (runs_first && !added && fresh).then_some(Replacement {
        path,
        store,
        own_module,
    })
}

/// Whether `value` builds a list no other field holds: a display, a
/// comprehension, a sum, `list(…)`/`sorted(…)`, or a module-level name
/// bound once, unconditionally, to one of those. Anything else (another
/// agent's field, `a.handoffs = a.tools`) may make two fields one list,
/// which a change through either changes both: not read.
fn is_new_list(facts: &ModuleFacts, value: &Value) -> bool {
    match value {
        Value::Name(name) => {
            let mut bindings = facts.module_bindings_named(name).filter(|b| b.name == name);
            match (bindings.next(), bindings.next()) {
                (Some(b), None) => {
                    b.kind == BindingKind::Assignment
                        && !b.conditional
                        && b.value.as_ref().is_some_and(builds_new_list)
                }
                _ => false,
            }
        }
        other => builds_new_list(other),
    }
}

fn builds_new_list(value: &Value) -> bool {
    match value {
        Value::List(_) | Value::Tuple(_) | Value::ListComprehension(_) | Value::Add { .. } => true,
        Value::Call { callee, args, .. } => {
            args.len() == 1
                && matches!(callee.as_ref(), Value::Name(n) if n == "list" || n == "sorted")
        }
        _ => false,
    }
}

/// Whether `init` is the `__init__.py` of a package `module` is in (at
/// any depth): Python runs it before `module` can be imported. Paths are
/// the scope's, so the scope's own `__init__.py` is that package only
/// when it imports the agent relatively (`from .agents import triage`),
/// which runs only in a package.
fn package_above(init: &str, module: &str, relative: bool) -> bool {
    let Some(package) = init.strip_suffix("__init__.py") else {
        return false;
    };
    let is_package = package.ends_with('/') || (package.is_empty() && relative);
    is_package && module != init && module.starts_with(package)
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
    if store.how == StoreKind::Assignment && store.scope.is_empty() {
        return replacement_of(
            index,
            modules,
            agent.path,
            agent.facts,
            agent.call,
            change.field,
        )
        .is_some_and(|r| r.path == change.path && r.store.line == store.line);
    }
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
