//! How a module uses a name bound to a capability list: the count the
//! list reader compares, so a list is read only while every use of it is
//! a read (`list_exprs.rs`). Counted for the whole module, or within one
//! function and what is nested in it (a local list can be named nowhere
//! else).

use crate::python::Value;

/// Keywords that bind capabilities, for the use count.
pub(in crate::graph::build) use crate::python::CAPABILITY_KEYWORDS as LIST_KEYWORDS;

/// How many uses of `name` in a module do anything but only read it: a
/// list is known when each of those is a read as an agent's list. A use
/// through a builtin counts as a read only while the module binds no name
/// of that builtin's spelling anywhere.
pub(in crate::graph::build) fn other_uses(facts: &crate::python::ModuleFacts, name: &str) -> u32 {
    other_uses_within(facts, name, "")
}

/// Whether the function `qualname` is `scope` or nested in it (every
/// function is within the module, `""`).
pub(in crate::graph::build) fn within(qualname: &str, scope: &str) -> bool {
    scope.is_empty()
        || qualname
            .strip_prefix(scope)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// `other_uses` counted within one function and what is nested in it
/// (`""`: the whole module).
pub(in crate::graph::build) fn other_uses_within(
    facts: &crate::python::ModuleFacts,
    name: &str,
    scope: &str,
) -> u32 {
    let uses = if scope.is_empty() {
        facts.name_uses.get(name).copied().unwrap_or(0)
    } else {
        facts
            .functions
            .iter()
            .filter(|f| within(&f.qualname, scope))
            .filter_map(|f| f.body().name_uses.get(name))
            .sum()
    };
    let binds = |builtin: &str| {
        let locals = facts.functions.iter().flat_map(|f| f.body().locals.iter());
        facts
            .module_bindings
            .iter()
            .chain(locals)
            .any(|b| b.name == builtin)
            || facts
                .functions
                .iter()
                .any(|f| f.name == builtin || f.params.iter().any(|p| p.name == builtin))
    };
    let read_only = facts
        .read_only_uses
        .iter()
        .filter(|u| u.name == name && u.via.as_deref().is_none_or(|b| !binds(b)))
        .filter(|u| within(&u.scope, scope))
        .count();
    uses.saturating_sub(u32::try_from(read_only).unwrap_or(u32::MAX))
}

/// How many uses of `name` in a module read it as a list.
pub(in crate::graph::build) fn list_reads_in(
    facts: &crate::python::ModuleFacts,
    name: &str,
) -> u32 {
    list_reads_within(facts, name, "")
}

/// `list_reads_in` within one function and what is nested in it (`""`:
/// the whole module).
pub(in crate::graph::build) fn list_reads_within(
    facts: &crate::python::ModuleFacts,
    name: &str,
    scope: &str,
) -> u32 {
    {
        let in_calls: u32 = facts
            .calls
            .iter()
            .filter(|call| within(&call.scope, scope))
            .map(|call| keyword_reads(call, name))
            .sum();
        let locals = facts
            .functions
            .iter()
            .filter(|f| within(&f.qualname, scope))
            .flat_map(|f| f.body().locals.iter());
        let module = facts.module_bindings.iter().filter(|_| scope.is_empty());
        let in_bindings: u32 = module
            .chain(locals)
            .filter(|b| b.name != name)
            .filter_map(|b| b.value.as_ref())
            .filter(|v| is_list_expression(v))
            .map(|v| mentions(v, name, false))
            .sum();
        // `tools.extend(X)`, `tools += X`: the list added to only
        // iterates `X`.
        let in_additions: u32 = facts
            .list_additions
            .iter()
            .filter(|a| within(&a.scope, scope) && matches!(a.how.as_str(), "extend" | "+="))
            .map(|a| mentions(&a.value, name, true))
            .sum();
        // `agent.handoffs = X` at module level: the field holds `X`
        // itself, which the rewire reader reads as the agent's list.
        let in_replacements: u32 = facts
            .module_stores
            .iter()
            .filter(|_| scope.is_empty())
            .filter(|s| {
                matches!(&s.under, crate::python::StoredUnder::Attribute(field) if LIST_KEYWORDS.contains(&field.as_str()))
            })
            .map(|s| mentions(&s.value, name, true))
            .sum();
        in_calls + in_bindings + in_additions + in_replacements
    }
}

/// How many times a call's capability keywords read `name` as a list.
pub(in crate::graph::build) fn keyword_reads(call: &crate::python::CallFact, name: &str) -> u32 {
    call.keywords
        .iter()
        .filter(|k| {
            k.name
                .as_deref()
                .is_some_and(|n| LIST_KEYWORDS.contains(&n))
        })
        .map(|k| mentions(&k.value, name, true))
        .sum()
}

/// A value the list reader can read at the top.
pub(in crate::graph::build) fn is_list_expression(value: &Value) -> bool {
    match value {
        Value::List(_)
        | Value::Tuple(_)
        | Value::Add { .. }
        | Value::IfElse { .. }
        | Value::Or(_) => true,
        Value::Subscript { .. } => super::dict_entries::entry_read(value).is_some(),
        Value::Call { callee, args, .. } => {
            args.len() == 1
                && matches!(callee.as_ref(), Value::Name(n) if ["list", "tuple", "sorted"].contains(&n.as_str()))
        }
        _ => false,
    }
}

/// Occurrences of `name` where a list expression reads it as a list: the
/// whole value (`top`, a keyword's own value), a spread, an operand of `+`,
/// the argument of `list()`/`tuple()`/`sorted()`.
fn mentions(value: &Value, name: &str, top: bool) -> u32 {
    // `d["k"]` and `d.get("k", …)` read one entry of the dict `d`.
    if let Some(read) = super::dict_entries::entry_read(value) {
        let default = match read.default {
            Some(Some(default)) => mentions(default, name, true),
            _ => 0,
        };
        return u32::from(top && read.dict == name) + default;
    }
    match value {
        Value::Name(n) => u32::from(top && n == name),
        Value::List(items) | Value::Tuple(items) => items
            .iter()
            .map(|item| match item {
                Value::Starred(inner) => mentions(inner, name, true),
                _ => 0,
            })
            .sum(),
        Value::Add { left, right } => mentions(left, name, true) + mentions(right, name, true),
        // A branch of `if`/`else` or `or` is the list itself, not a copy:
        // bound to another name it is an alias (`OTHER = TOOLS or []`, then
        // `OTHER.append(x)` changes TOOLS), so only an agent's own keyword
        // reads it.
        Value::IfElse { body, orelse, .. } => {
            mentions(body, name, top) + mentions(orelse, name, top)
        }
        Value::Or(parts) => parts.iter().map(|p| mentions(p, name, top)).sum(),
        // A comprehension only iterates its iterable: a read-only use in
        // the facts (`other_uses`), not counted again here.
        Value::ListComprehension { .. } => 0,
        Value::Call { callee, args, .. }
            if args.len() == 2 && matches!(callee.as_ref(), Value::Name(n) if n == "filter") =>
        {
            mentions(&args[1], name, true)
        }
        Value::Call { callee, args, .. }
            if args.len() == 1
                && matches!(callee.as_ref(), Value::Name(n) if ["list", "tuple", "sorted"].contains(&n.as_str())) =>
        {
            mentions(&args[0], name, true)
        }
        _ => 0,
    }
}
