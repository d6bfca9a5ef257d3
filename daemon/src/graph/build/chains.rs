//! Checks on an import chain a reference was followed through: code that
//! runs before the agent uses the reference (every chain module, the
//! packages above them) and rebinds a step of it is a stop; code there
//! that the read cannot see (outside the scope) is a named caveat.

use crate::pyrepr::str_repr;
use crate::python::Value;
use crate::resolve::{ImportStep, ModuleSet, Resolver, Target};
use std::collections::{BTreeMap, BTreeSet};

/// Modules whose top-level code runs before the agent uses a reference:
/// every module on the chain and the `__init__.py` of every package above
/// one, inside the scope.
fn runs_first(steps: &[ImportStep]) -> BTreeSet<String> {
    let mut checked: BTreeSet<String> = steps.iter().map(|s| s.path.clone()).collect();
    for step in steps {
        let mut dir = step.path.rsplit_once('/').map(|(d, _)| d.to_string());
        while let Some(current) = dir {
            checked.insert(format!("{current}/__init__.py"));
            dir = current.rsplit_once('/').map(|(d, _)| d.to_string());
        }
    }
    checked.insert("__init__.py".to_string());
    checked
}

/// Code that runs first but is not read: an absolute import of a module the
/// repository holds outside the scope, or a relative import above it. Each
/// could rebind what the chain reads (spec: "keeps the tool named").
pub(super) fn outside_code(modules: &ModuleSet<'_>, steps: &[ImportStep]) -> Vec<String> {
    let mut caveats = Vec::new();
    for path in runs_first(steps) {
        let (Some(facts), Some(key)) = (modules.facts(&path), modules.key(&path)) else {
            continue;
        };
        for import in facts
            .imports
            .iter()
            .filter(|i| i.scope.is_empty() && !i.type_checking && !i.conditional)
        {
            let mut resolver = Resolver::new(modules);
            if resolver.locate(key, import.level, &import.module).is_ok() {
                continue;
            }
            if import.level > 0 {
                let spelled = format!("{}{}", ".".repeat(import.level as usize), import.module);
                if resolver.above_scope(key, import.level) {
                    caveats.push(format!(
                        "{path}:{} imports {}, a relative import above the read scope, which is not read and could reassign it",
                        import.line,
                        str_repr(&spelled)
                    ));
                }
            } else if modules.is_outside_repository_module(&import.module)
                // The SDK's package is read as the SDK wherever it lives
                // (the SDK's own repository holds it), so, like an
                // installed framework, its code is the read's boundary.
                && !crate::frameworks::openai::is_sdk_module(&import.module)
            {
                caveats.push(format!(
                    "{path}:{} imports {}, which the repository holds outside the read scope, which is not read and could reassign it",
                    import.line,
                    str_repr(&import.module)
                ));
            }
        }
    }
    caveats
}

/// Code that runs before the agent uses a reference and rebinds a step of
/// its chain (`tools.lookup = other`, `setattr(tools, …)`), in every module
/// on the chain and every package `__init__.py` above one, makes the
/// reference a named stop.
pub(super) fn reassignment(modules: &ModuleSet<'_>, steps: &[ImportStep]) -> Option<String> {
    // The name each chain module is read for.
    let chain: BTreeMap<&str, BTreeSet<&str>> =
        steps.iter().fold(BTreeMap::new(), |mut chain, step| {
            chain
                .entry(step.path.as_str())
                .or_default()
                .insert(step.name.as_str());
            chain
        });
    let checked = runs_first(steps);
    // Packages above the scope run before it; their modules are outside the
    // read, so any store into an attribute named like a chain step counts.
    let agent_file = steps.first().map_or("", |s| s.path.as_str());
    let names: BTreeSet<&str> = chain.values().flatten().copied().collect();
    for (path, facts) in modules.ancestor_inits() {
        for store in facts
            .attribute_stores
            .iter()
            .filter(|s| s.scope.is_empty() && s.how.rebinds())
        {
            let [_, attribute, ..] = store.target.as_slice() else {
                continue;
            };
            if attribute == "*" || names.contains(attribute.as_str()) {
                return Some(format!(
                    "an attribute named {} is reassigned in {path}:{}, which {agent_file} runs before the name is used",
                    str_repr(attribute),
                    store.line
                ));
            }
        }
    }
    for path in &checked {
        let Some(facts) = modules.facts(path) else {
            continue;
        };
        for store in facts
            .attribute_stores
            .iter()
            .filter(|s| s.scope.is_empty() && s.how.rebinds())
        {
            let [object, attribute, ..] = store.target.as_slice() else {
                continue;
            };
            let mut resolver = Resolver::new(modules);
            let Some(static_path) = modules_key(modules, path) else {
                continue;
            };
            let Ok(found) = resolver.resolve(static_path, "", &Value::Name(object.clone())) else {
                continue;
            };
            let Target::Module(loc) = found.target else {
                continue;
            };
            let Some(file) = loc.file.as_deref() else {
                continue;
            };
            let names = chain.get(file);
            let hits = attribute == "*" || names.is_some_and(|n| n.contains(attribute.as_str()));
            if names.is_some() && hits {
                return Some(reassignment_reason(
                    steps, object, attribute, path, store.line,
                ));
            }
        }
    }
    None
}

/// The reference spelled through the reassigned attribute (`tools.lookup`)
/// is "reassigned by attribute"; a name imported from that module is
/// reached through an attribute "named like" the reassigned one.
fn reassignment_reason(
    steps: &[ImportStep],
    object: &str,
    attribute: &str,
    path: &str,
    line: u32,
) -> String {
    let spelled_through = steps.first().is_some_and(|s| s.name == object);
    let agent_file = steps.first().map_or(path, |s| s.path.as_str());
    if spelled_through {
        format!(
            "{} is reassigned by attribute in {path}:{line}",
            str_repr(&format!("{object}.{attribute}"))
        )
    } else {
        format!(
            "an attribute named {} is reassigned in {path}:{line}, which {agent_file} runs before the name is used",
            str_repr(attribute)
        )
    }
}

fn modules_key<'m>(modules: &ModuleSet<'m>, path: &str) -> Option<&'m str> {
    modules.key(path)
}
