//! Every import of the scope with the module files it names, read once per
//! side and looked up by file: "who imports this module, and how" was a
//! scan of every import of every module for each builder whose callers
//! were read (issue 23).

use super::{ModuleSet, Resolver};
use std::collections::HashMap;

/// One import statement's name of the application (imported-only modules
/// are not scanned), with what it names. Owned, so the set that keeps it
/// stays covariant in its lifetime.
#[derive(Debug)]
pub struct ImportEdge {
    /// The importing module's path.
    pub module: String,
    /// The import's index in that module's `imports`.
    pub import: usize,
    /// The file the import names as a whole: `import a.b` names `a.b`,
    /// `from a import b` names `a.b` (a submodule `b`).
    pub whole: Option<String>,
    /// For `from a import b`: the file `a` names.
    pub from: Option<String>,
}

/// The scope's imports, in module then source order, by the files they
/// name.
#[derive(Debug, Default)]
pub struct ImportEdges {
    edges: Vec<ImportEdge>,
    by_file: HashMap<String, Vec<usize>>,
}

impl ImportEdges {
    pub(super) fn of(modules: &ModuleSet<'_>) -> Self {
        let mut resolver = Resolver::new(modules);
        let mut edges = Vec::new();
        for module in modules.paths() {
            let Some(facts) = modules.facts(module) else {
                continue;
            };
            for (index, import) in facts.imports.iter().enumerate() {
                let whole = match &import.name {
                    None => resolver.module_file(module, import.level, &import.module),
                    Some(member) => {
                        let dotted = if import.module.is_empty() {
                            member.to_string()
                        } else {
                            format!("{}.{member}", import.module)
                        };
                        resolver.module_file(module, import.level, &dotted)
                    }
                };
                let from = import
                    .name
                    .as_ref()
                    .and_then(|_| resolver.module_file(module, import.level, &import.module));
                edges.push(ImportEdge {
                    module: module.to_string(),
                    import: index,
                    whole,
                    from,
                });
            }
        }
        let mut by_file: HashMap<String, Vec<usize>> = HashMap::new();
        for (index, edge) in edges.iter().enumerate() {
            let mut named: Vec<&String> = edge.whole.iter().chain(edge.from.iter()).collect();
            named.dedup();
            for file in named {
                by_file.entry(file.clone()).or_default().push(index);
            }
        }
        ImportEdges { edges, by_file }
    }

    /// The imports that name `file`, whole or as the module a `from`
    /// import takes a name from, in module then source order.
    pub fn naming(&self, file: &str) -> impl Iterator<Item = &ImportEdge> {
        self.by_file
            .get(file)
            .into_iter()
            .flatten()
            .filter_map(|&index| self.edges.get(index))
    }
}
