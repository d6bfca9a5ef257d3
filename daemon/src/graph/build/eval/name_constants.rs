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
        if let Some(text) = named_constant(modules, census, key, name, u32::MAX, true) {
            in_functions.insert(name.to_string(), text);
        }
    }
    // `name=names.BILLING`: a module's constant read through the module.
    let mut attributes = BTreeMap::new();
    for (scope, value) in names::attribute_name_candidates(facts) {
        let Some(dotted) = value.dotted() else {
            continue;
        };
        if let Some(text) = constant_string(modules, census, key, scope, value) {
            attributes.insert(dotted, text);
        }
    }
    NameConstants::new(strings)
        .with_function_constants(in_functions)
        .with_attribute_constants(attributes)
}

/// The string `value`, written in `scope` of the module `path`, holds when
/// it is read: a literal; a name the module binds once, unconditionally,
/// to a string constant (or imports as one), that no scope on the way out
/// binds; or `module.NAME`, a constant of a module the module imports.
/// Inside a function, or through a module's attribute (read when the
/// statement runs, not copied at import), only when the side's census
/// finds nothing that could rebind it: no store of that attribute name,
/// no namespace change of either module the read cannot see. At module
/// level a name is taken only when bound before `line`. `None` for
/// anything else: the caller keeps its named limit.
pub(in crate::graph::build) fn constant_string(
    modules: &ModuleSet<'_>,
    census: &std::cell::OnceCell<Census>,
    path: &str,
    scope: &str,
    value: &Value,
) -> Option<String> {
    constant_string_at(modules, census, path, scope, value, u32::MAX)
}

/// [`constant_string`] for a value read on `line` (a module-level read
/// sees only the bindings before it).
pub(in crate::graph::build) fn constant_string_at(
    modules: &ModuleSet<'_>,
    census: &std::cell::OnceCell<Census>,
    path: &str,
    scope: &str,
    value: &Value,
    line: u32,
) -> Option<String> {
    let (key, facts) = (modules.key(path)?, modules.facts(path)?);
    match value {
        Value::Str(text) => Some(text.to_string()),
        Value::Name(name) => {
            if !scope.is_empty() && names::bound_on_the_way_out(facts, scope, name) {
                return None;
            }
            let before = if scope.is_empty() { line } else { u32::MAX };
            named_constant(modules, census, key, name, before, !scope.is_empty())
        }
        Value::Attribute(parts) => {
            let [head, attribute] = parts.as_slice() else {
                return None;
            };
            if !scope.is_empty() && names::bound_on_the_way_out(facts, scope, head) {
                return None;
            }
            let head_binding = names::once_before(facts, head, u32::MAX)?;
            if head_binding.kind != BindingKind::Import {
                return None;
            }
            let mut resolver = Resolver::new(modules);
            let found = resolver.resolve(key, "", value).ok()?;
            if crate::graph::build::chains::reassignment(modules, &found.steps).is_some() {
                return None;
            }
            let Target::Value {
                path: source,
                name: bound,
                line: bound_line,
            } = found.target
            else {
                return None;
            };
            let source_facts = modules.facts(source)?;
            let binding = names::once_before(source_facts, &bound, u32::MAX)?;
            if binding.line != bound_line || binding.kind != BindingKind::Assignment {
                return None;
            }
            let text = names::string_constant(binding.value.as_ref()?)?;
            stable(modules, census, &[attribute, &bound], &[key, source]).then_some(text)
        }
        _ => None,
    }
}

/// The string constant the name `name` holds in module `key`: its one
/// unconditional binding before `before` (an assignment of a string
/// constant, or an import of one); with `checked`, only when the census
/// finds nothing that could rebind it later (a read inside a function).
fn named_constant(
    modules: &ModuleSet<'_>,
    census: &std::cell::OnceCell<Census>,
    key: &str,
    name: &str,
    before: u32,
    checked: bool,
) -> Option<String> {
    let facts = modules.facts(key)?;
    let binding = names::once_before(facts, name, before)?;
    let (text, source, bound) = match binding.kind {
        BindingKind::Assignment => (
            names::string_constant(binding.value.as_ref()?)?,
            key,
            name.to_string(),
        ),
        BindingKind::Import => {
            let constant = imported_constant(modules, modules.key(key)?, name)?;
            (constant.value, constant.source, constant.bound)
        }
        _ => return None,
    };
    (!checked || stable(modules, census, &[name, &bound], &[key, source])).then_some(text)
}

/// Whether the side's census finds nothing that could rebind a constant:
/// no store of any of `attributes` anywhere, no namespace change of any of
/// `modules_read` the read cannot see.
fn stable(
    modules: &ModuleSet<'_>,
    census: &std::cell::OnceCell<Census>,
    attributes: &[&str],
    modules_read: &[&str],
) -> bool {
    let census = census.get_or_init(|| Census::of(modules));
    !attributes.iter().any(|a| census.may_rebind_attribute(a))
        && !modules_read.iter().any(|m| census.withholds_module(m))
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
