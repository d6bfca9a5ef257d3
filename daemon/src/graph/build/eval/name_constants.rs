//! The string constants a module imports for its agents' `name=`
//! (`from .config import AGENT_NAME` … `Agent(name=AGENT_NAME)`), which
//! `frameworks::names` takes as the agent's name at a module-level
//! construction.
//!
//! Sound because the import runs the constant's module to its end before
//! the name is bound here: the value is the one binding that module makes,
//! when the resolver reaches a name bound once, unconditionally, by an
//! assignment of a string literal (or an f-string of literal pieces), no
//! function of that module declares it `global`, and no code that runs
//! first rebinds a step of the import chain (`chains::reassignment`).

use crate::frameworks::names::{self, NameConstants};
use crate::python::{BindingKind, Value};
use crate::resolve::{ModuleSet, Resolver, Target};
use std::collections::BTreeMap;

/// What the names `path` imports for its agents' `name=` hold.
pub(in crate::graph::build) fn name_constants(
    modules: &ModuleSet<'_>,
    path: &str,
) -> NameConstants {
    let (Some(key), Some(facts)) = (modules.key(path), modules.facts(path)) else {
        return NameConstants::default();
    };
    let mut strings = BTreeMap::new();
    for name in names::imported_name_candidates(facts) {
        let mut resolver = Resolver::new(modules);
        let Ok(found) = resolver.resolve(key, "", &Value::Name(name.to_string().into())) else {
            continue;
        };
        if crate::graph::build::chains::reassignment(modules, &found.steps).is_some() {
            continue;
        }
        let Target::Value {
            path: source,
            name: bound,
            line,
        } = found.target
        else {
            continue;
        };
        let Some(source_facts) = modules.facts(source) else {
            continue;
        };
        let rebound = source_facts
            .functions
            .iter()
            .any(|f| f.globals.iter().any(|global| *global == bound));
        let value = source_facts
            .module_bindings_named(&bound)
            .find(|b| b.name == bound && b.line == line && b.kind == BindingKind::Assignment)
            .and_then(|b| b.value.as_ref())
            .and_then(names::string_constant);
        if let (Some(value), false) = (value, rebound) {
            strings.insert(name.to_string(), value);
        }
    }
    NameConstants::new(strings)
}
