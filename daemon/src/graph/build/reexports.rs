//! Framework names the repository re-exports (issue 40, item 9): `from
//! .lib import Agent, function_tool`, where `lib/__init__.py` binds them by
//! `from agents import Agent, function_tool`, is the framework's `Agent`:
//! the importing module's import is read as the framework import it
//! forwards, so every reader sees the framework's names there.
//!
//! Sound because the name the module imports is, at run time, the object
//! the re-exporting module bound: when that module binds it exactly once,
//! by an unconditional, absolute module-level import of the framework's
//! package (not under `TYPE_CHECKING`), no function of it declares the
//! name `global`, no wildcard import after it may rebind it (the
//! resolver's rule), and no code of the scope stores an attribute of that
//! name (`lib.Agent = …`). The import is followed one step, to the module
//! it names (`Resolver::import_origin`); a longer chain, a class or
//! function defined there, or anything else keeps today's reading: the
//! name is not the framework's, and a construction of it is no agent.

use super::SourceFile;
use crate::frameworks::reexports::{forwarded_names, forwarding};
use crate::python::{ImportFact, ModuleFacts};
use crate::resolve::{ModuleSet, Resolver};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// One import of a module that forwards a framework name: which file,
/// which of its imports, and the framework import it stands for.
struct Forwarded {
    file: usize,
    import: usize,
    framework: ImportFact,
}

/// Rewrites, in `files`, every import of a framework name a module of the
/// scope re-exports into the framework import it forwards (the module
/// doc's rule). `modules` is the side's module set over the same files.
pub(super) fn read_through(modules: &ModuleSet<'_>, files: &[SourceFile]) -> Vec<SourceFile> {
    let forwarders = forwarders(files);
    if forwarders.is_empty() {
        return Vec::new();
    }
    let names: BTreeSet<&str> = forwarders
        .values()
        .flat_map(|m| m.keys().copied())
        .collect();
    let stored: BTreeSet<&str> = files
        .iter()
        .flat_map(|f| f.facts.attribute_stores.iter())
        .filter_map(|s| s.target.last().map(|t| t.as_str()))
        .collect();
    let mut found = Vec::new();
    let mut resolver = Resolver::new(modules);
    for (index, file) in files.iter().enumerate() {
        for (position, import) in file.facts.imports.iter().enumerate() {
            let Some(name) = import.name.as_deref() else {
                continue;
            };
            if !names.contains(name) || import.type_checking || stored.contains(name) {
                continue;
            }
            let Some((origin, member)) =
                resolver.import_origin(&file.path, &import.scope, import.bound_name())
            else {
                continue;
            };
            let Some(framework) = forwarders
                .get(origin.as_str())
                .and_then(|by_name| by_name.get(member.as_str()))
            else {
                continue;
            };
            found.push(Forwarded {
                file: index,
                import: position,
                framework: forwarding(import, framework),
            });
        }
    }
    let mut rewritten: BTreeMap<usize, ModuleFacts> = BTreeMap::new();
    for Forwarded {
        file,
        import,
        framework,
    } in found
    {
        let facts = rewritten.entry(file).or_insert_with(|| ModuleFacts {
            rewritten: true,
            ..files[file].facts.as_ref().clone()
        });
        if let Some(slot) = facts.imports.get_mut(import) {
            *slot = framework;
        }
    }
    rewritten
        .into_iter()
        .map(|(file, facts)| SourceFile {
            path: files[file].path.clone(),
            facts: Arc::new(facts),
        })
        .collect()
}

/// Each module that forwards framework names: path → name → the framework
/// import (`frameworks::reexports::forwarded_names`).
fn forwarders(files: &[SourceFile]) -> BTreeMap<&str, BTreeMap<&str, &ImportFact>> {
    files
        .iter()
        .map(|file| (file.path.as_str(), forwarded_names(&file.facts)))
        .filter(|(_, names)| !names.is_empty())
        .collect()
}
