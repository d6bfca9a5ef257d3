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
//!
//! A construction inside a function reads a constant later, so it takes
//! one (its module's own, or one imported as above) only when the side's
//! census finds nothing that could rebind it by then: no store of an
//! attribute of that name anywhere (`names.BILLING = …`), no namespace
//! change of either module the read cannot see (issue 40, item 2; the
//! function-scope half of the rule is `frameworks::names`).

use crate::frameworks::names::{self, NameConstants};
use crate::python::{BindingKind, Value};
use crate::reach::Census;
use crate::resolve::{ModuleSet, Resolver, Target};
use std::collections::BTreeMap;

/// What the names `path`'s agents use as `name=` hold: imported ones for
/// module-level constructions, and the module's own or imported ones
/// nothing can rebind for constructions inside functions (`census`, read
/// once a side and only when a module asks).
pub(in crate::graph::build) fn name_constants(
    modules: &ModuleSet<'_>,
    path: &str,
    census: &std::cell::OnceCell<Census>,
) -> NameConstants {
    let (Some(key), Some(facts)) = (modules.key(path), modules.facts(path)) else {
        return NameConstants::default();
    };
    let mut strings = BTreeMap::new();
    for name in names::imported_name_candidates(facts) {
        if let Some(constant) = imported_constant(modules, key, name) {
            strings.insert(name.to_string(), constant.value);
        }
    }
    let mut in_functions = BTreeMap::new();
    for name in names::function_name_candidates(facts) {
        let Some(binding) = names::once_before(facts, name, u32::MAX) else {
            continue;
        };
        let (value, source, bound) = match binding.kind {
            BindingKind::Assignment => {
                let Some(value) = binding.value.as_ref().and_then(names::string_constant) else {
                    continue;
                };
                (value, key, name.to_string())
            }
            BindingKind::Import => {
                let Some(constant) = imported_constant(modules, key, name) else {
                    continue;
                };
                (constant.value, constant.source, constant.bound)
            }
            _ => continue,
        };
        let census = census.get_or_init(|| Census::of(modules));
        let stable = !census.may_rebind_attribute(name)
            && !census.may_rebind_attribute(&bound)
            && !census.withholds_module(key)
            && !census.withholds_module(source);
        if stable {
            in_functions.insert(name.to_string(), value);
        }
    }
    NameConstants::new(strings).with_function_constants(in_functions)
}

/// A string constant an import of `name` in module `key` reaches.
struct ImportedConstant<'m> {
    value: String,
    /// The module that binds it, and the name it binds it under.
    source: &'m str,
    bound: String,
}

fn imported_constant<'m>(
    modules: &ModuleSet<'m>,
    key: &'m str,
    name: &str,
) -> Option<ImportedConstant<'m>> {
    let mut resolver = Resolver::new(modules);
    let found = resolver
        .resolve(key, "", &Value::Name(name.to_string().into()))
        .ok()?;
    if crate::graph::build::chains::reassignment(modules, &found.steps).is_some() {
        return None;
    }
    let Target::Value {
        path: source,
        name: bound,
        line,
    } = found.target
    else {
        return None;
    };
    let source_facts = modules.facts(source)?;
    let rebound = source_facts
        .functions
        .iter()
        .any(|f| f.globals.iter().any(|global| *global == bound));
    let value = source_facts
        .module_bindings_named(&bound)
        .find(|b| b.name == bound && b.line == line && b.kind == BindingKind::Assignment)
        .and_then(|b| b.value.as_ref())
        .and_then(names::string_constant)?;
    (!rebound).then(|| ImportedConstant {
        value,
        source,
        bound: bound.to_string(),
    })
}
