//! A list handed to a function of the repository that only reads it
//! (issue 40, item 6): `tools = [lookup, refund]`, then `_log_tools(tools)`
//! where `def _log_tools(tools)` only takes its length, iterates it, or
//! formats it. That call is one more read of the list, as a call written
//! inside the list expression is, so the list stays read.
//!
//! Sound because the function cannot change the list through that
//! parameter: every use of the parameter in its body is one the facts
//! record as only reading (`ReadOnlyUse`: a read-only builtin's argument
//! that the module does not rebind, a membership test, an f-string field,
//! an iteration, a truth test); the body never rebinds it (no assignment,
//! `global` or `nonlocal`), or an argument of a standard-library logger's
//! method (`logger.info("%s", tools)`, a module-level `logging.getLogger`
//! result bound once, or `logging` itself: logging only formats what it
//! is given); no function nested in it names it (a closure
//! could keep the list and change it later); and it is a plain function
//! the resolver follows to its one definition, with no decorator (which
//! could make the call something else). The argument binds to that
//! parameter exactly as Python binds it (`call_binding`). Anything else
//! leaves the use counted as one that may change the list.

use crate::frameworks::imports::imported_name;
use crate::graph::build::ModuleReader;
use crate::python::call_binding::{passed, Passed};
use crate::python::{BindingKind, FunctionFact, ModuleFacts, ParamKind, Text, Value};
use crate::resolve::{Resolver, Target};

impl ModuleReader<'_, '_> {
    /// How many calls within `scope` (and what is nested in it) hand the
    /// name `name` to a parameter that only reads it.
    pub(in crate::graph::build) fn read_only_passes(&self, name: &str, scope: &str) -> u32 {
        let mut count = 0u32;
        for call in &self.facts.calls {
            if !super::list_uses::within(&call.scope, scope) {
                continue;
            }
            let hands_it = call
                .args
                .iter()
                .chain(call.keywords.iter().map(|k| &k.value))
                .any(|v| matches!(v, Value::Name(n) if n == name));
            if !hands_it {
                continue;
            }
            let mut resolver = Resolver::new(self.modules);
            let Ok(found) = resolver.resolve(self.path, &call.scope, &call.callee) else {
                continue;
            };
            let Target::Function { path, function } = found.target else {
                continue;
            };
            let Some(facts) = self.modules.facts(path) else {
                continue;
            };
            if !function.decorators.is_empty() {
                continue;
            }
            let keywords: Vec<(Option<Text>, Value)> = call
                .keywords
                .iter()
                .map(|k| (k.name.clone(), k.value.clone()))
                .collect();
            for (param, given) in passed(function, &call.args, &keywords) {
                let Passed::Value(Value::Name(passed_name)) = given else {
                    continue;
                };
                if passed_name == name && only_reads(facts, function, param) {
                    count += 1;
                }
            }
        }
        count
    }
}

/// Whether `function` only reads its parameter `param` (the module doc's
/// rule).
fn only_reads(facts: &ModuleFacts, function: &FunctionFact, param: &str) -> bool {
    let plain = function.params.iter().any(|p| {
        p.name == param && !matches!(p.kind, ParamKind::VarPositional | ParamKind::VarKeyword)
    });
    if !plain
        || function.globals.iter().any(|g| g == param)
        || function.nonlocals.iter().any(|n| n == param)
    {
        return false;
    }
    let body = function.body();
    let rebound = body
        .locals
        .iter()
        .any(|b| b.name == param && b.kind != BindingKind::Parameter);
    let nested = format!("{}.", function.qualname);
    let closed_over = facts
        .functions
        .iter()
        .filter(|f| f.qualname.starts_with(&nested))
        .any(|f| f.body().name_uses.get(param).is_some());
    if rebound || closed_over {
        return false;
    }
    let uses = body.name_uses.get(param).copied().unwrap_or(0);
    let rebinds_builtin = |builtin: &str| {
        facts.module_bindings.iter().any(|b| b.name == builtin)
            || facts
                .functions
                .iter()
                .any(|f| f.name == builtin || f.binds_local(builtin))
    };
    let reads = facts
        .read_only_uses
        .iter()
        .filter(|u| u.name == param && u.scope == function.qualname)
        .filter(|u| u.via.as_deref().is_none_or(|b| !rebinds_builtin(b)))
        .count();
    let logged: usize = body
        .body_calls
        .iter()
        .filter(|call| is_logging_call(facts, &function.qualname, &call.callee))
        .map(|call| {
            call.args
                .iter()
                .chain(call.keywords.iter().map(|(_, v)| v))
                .filter(|v| matches!(v, Value::Name(n) if n == param))
                .count()
        })
        .sum();
    u32::try_from(reads + logged).is_ok_and(|reads| reads == uses)
}

/// The methods of a `logging.Logger` (and the `logging` module's own
/// functions) that only format what they are given.
const LOG_METHODS: &[&str] = &[
    "debug",
    "info",
    "warning",
    "warn",
    "error",
    "exception",
    "critical",
    "log",
];

/// Whether `callee`, called in `scope`, is a standard-library logging
/// call: `logging.info(...)`, or a method of a name the module binds once,
/// unconditionally, to `logging.getLogger(...)` that nothing on the way
/// out rebinds.
fn is_logging_call(facts: &ModuleFacts, scope: &str, callee: &Value) -> bool {
    let Value::Attribute(parts) = callee else {
        return false;
    };
    let [receiver, method] = parts.as_slice() else {
        return false;
    };
    if !LOG_METHODS.contains(&method.as_str()) {
        return false;
    }
    let name = Value::Name(receiver.clone());
    if imported_name(facts, &name, scope).as_deref() == Some("logging") {
        return true;
    }
    if crate::frameworks::names::bound_on_the_way_out(facts, scope, receiver) {
        return false;
    }
    let Some(binding) = crate::frameworks::names::once_before(facts, receiver, u32::MAX) else {
        return false;
    };
    matches!(
        (&binding.kind, &binding.value),
        (BindingKind::Assignment, Some(Value::Call { callee, .. }))
            if imported_name(facts, callee, "").as_deref() == Some("logging.getLogger")
    )
}
