//! Every import of the scope with the module files it names, read once per
//! side and looked up by file: "who imports this module, and how" was a
//! scan of every import of every module for each builder whose callers
//! were read (issue 23). What one module's imports name is a function of
//! its facts and the layout, so it is kept across sides (`layout.rs`): a
//! history walk's next commit reads only its changed modules' imports.

use super::layout::{KeptMap, PerLayout};
use super::{ModuleSet, Resolver};
use std::collections::HashMap;
use std::sync::Arc;

/// One import statement's name of the application (imported-only modules
/// are not scanned), with what it names.
#[derive(Debug, Clone, Copy)]
pub struct ImportEdge<'e> {
    /// The importing module's path.
    pub module: &'e str,
    /// The import's index in that module's `imports`.
    pub import: usize,
    /// The file the import names as a whole: `import a.b` names `a.b`,
    /// `from a import b` names `a.b` (a submodule `b`).
    pub whole: Option<&'e str>,
    /// For `from a import b`: the file `a` names.
    pub from: Option<&'e str>,
}

/// What one import names (`ImportEdge` without its module).
#[derive(Debug, Clone)]
struct Named {
    whole: Option<String>,
    from: Option<String>,
}

/// The scope's imports, in module then source order, by the files they
/// name. Owned, so the set that keeps it stays covariant in its lifetime.
#[derive(Debug, Default)]
pub struct ImportEdges {
    /// Each module with what each of its imports names.
    modules: Vec<(String, Arc<[Named]>)>,
    /// By named file: (module index, import index), in module then source
    /// order.
    by_file: HashMap<String, Vec<(usize, usize)>>,
}

/// Each module's `Named` imports, kept per layout by path with the reads
/// they depended on (the module's own facts).
type KeptNames = KeptMap<Option<Arc<[Named]>>>;

static KEPT: PerLayout<KeptNames> = PerLayout::new();

impl ImportEdges {
    pub(super) fn of(modules: &ModuleSet<'_>) -> Self {
        let kept = KEPT.of(modules.layout());
        let mut edges = ImportEdges::default();
        for module in modules.paths() {
            let Some(named) = modules.kept_or_read(&kept, module, || names_of(modules, module))
            else {
                continue;
            };
            let at = edges.modules.len();
            for (index, edge) in named.iter().enumerate() {
                let mut files: Vec<&String> = edge.whole.iter().chain(edge.from.iter()).collect();
                files.dedup();
                for file in files {
                    match edges.by_file.get_mut(file.as_str()) {
                        Some(naming) => naming.push((at, index)),
                        None => {
                            edges.by_file.insert(file.clone(), vec![(at, index)]);
                        }
                    }
                }
            }
            edges.modules.push((module.to_string(), named));
        }
        edges
    }

    /// The imports that name `file`, whole or as the module a `from`
    /// import takes a name from, in module then source order.
    pub fn naming(&self, file: &str) -> impl Iterator<Item = ImportEdge<'_>> {
        self.by_file
            .get(file)
            .into_iter()
            .flatten()
            .filter_map(|&(module, import)| {
                let (path, named) = self.modules.get(module)?;
                let named = named.get(import)?;
                Some(ImportEdge {
                    module: path,
                    import,
                    whole: named.whole.as_deref(),
                    from: named.from.as_deref(),
                })
            })
    }
}

/// What each of `module`'s imports names.
fn names_of(modules: &ModuleSet<'_>, module: &str) -> Option<Arc<[Named]>> {
    let facts = modules.facts(module)?;
    let mut resolver = Resolver::new(modules);
    let named = facts.imports.iter().map(|import| {
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
        Named { whole, from }
    });
    Some(named.collect())
}
