//! The scope's modules by scope-relative path, with the directories that
//! hold them, the linked entries never read, the modules only imports
//! reach (test-like files), and what the repository holds around the
//! scope.

use super::ScopeContext;
use crate::python::ModuleFacts;
use std::collections::{BTreeMap, BTreeSet};

/// Modules the interpreter loads before any application code: a
/// repository file of the same name never shadows them.
const PRELOADED: &[&str] = &[
    "abc",
    "builtins",
    "codecs",
    "encodings",
    "genericpath",
    "io",
    "os",
    "posixpath",
    "site",
    "stat",
    "sys",
];

/// The scope's modules, by scope-relative path.
pub struct ModuleSet<'a> {
    pub(super) modules: BTreeMap<&'a str, &'a ModuleFacts>,
    /// Every directory holding a module, at any depth: a namespace
    /// package is found without scanning every path.
    pub(super) dirs: BTreeSet<&'a str>,
    /// Linked `.py` entries: present, never read.
    pub(super) linked: BTreeSet<&'a str>,
    /// Modules the resolver follows an import into but no scan of the
    /// scope reads (test-like files: spec, "the import resolver still
    /// follows a tool the application imports from such a file").
    imported_only: BTreeSet<&'a str>,
    pub(super) context: &'a ScopeContext,
    /// What each import spelling found, by importing directory, level
    /// and spelling (`Resolver::locate_from`): a function of the set
    /// alone, asked again for every import of every module by each caller
    /// search (issue 23), so read once.
    pub(super) found: std::sync::Mutex<
        std::collections::HashMap<String, Result<super::ModuleLoc, super::locate::Unlocated>>,
    >,
    /// Every import of the application by the files it names, read on
    /// first use (`import_edges`).
    edges: std::sync::OnceLock<super::ImportEdges>,
}

impl<'a> ModuleSet<'a> {
    pub fn new(
        modules: impl IntoIterator<Item = (&'a str, &'a ModuleFacts)>,
        linked: impl IntoIterator<Item = &'a str>,
        context: &'a ScopeContext,
    ) -> Self {
        let modules: BTreeMap<&'a str, &'a ModuleFacts> = modules.into_iter().collect();
        let mut dirs = BTreeSet::new();
        for path in modules.keys() {
            let mut rest = *path;
            while let Some((dir, _)) = rest.rsplit_once('/') {
                if !dirs.insert(dir) {
                    break;
                }
                rest = dir;
            }
        }
        ModuleSet {
            modules,
            dirs,
            linked: linked.into_iter().collect(),
            imported_only: BTreeSet::new(),
            context,
            found: Default::default(),
            edges: std::sync::OnceLock::new(),
        }
    }

    /// Whether an absolute module name is the repository's own code held
    /// outside the scope.
    pub fn is_outside_repository_module(&self, dotted: &str) -> bool {
        let first = dotted.split('.').next().unwrap_or(dotted);
        self.context.outside_modules.contains(first) && !PRELOADED.contains(&first)
    }

    /// The packages above the scope, which run first.
    pub fn ancestor_inits(&self) -> &'a [(String, std::sync::Arc<ModuleFacts>)] {
        &self.context.ancestor_inits
    }

    /// Adds modules that imports reach but that are not the application:
    /// `facts`, `key` and the resolver see them, `paths` (every scan of
    /// the scope: callers, uses, namespace changes) does not. A module of
    /// the application with the same path wins.
    pub fn with_imported_only(
        mut self,
        modules: impl IntoIterator<Item = (&'a str, &'a ModuleFacts)>,
    ) -> Self {
        // More modules: what an import found before may be found anew.
        if let Ok(found) = self.found.get_mut() {
            found.clear();
        }
        self.edges = std::sync::OnceLock::new();
        for (path, facts) in modules {
            if self.modules.contains_key(path) {
                continue;
            }
            self.modules.insert(path, facts);
            self.imported_only.insert(path);
            let mut rest = path;
            while let Some((dir, _)) = rest.rsplit_once('/') {
                if !self.dirs.insert(dir) {
                    break;
                }
                rest = dir;
            }
        }
        self
    }

    /// Every import of the application with the files it names.
    pub fn import_edges(&self) -> &super::ImportEdges {
        self.edges.get_or_init(|| super::ImportEdges::of(self))
    }

    pub fn facts(&self, path: &str) -> Option<&'a ModuleFacts> {
        self.modules.get(path).copied()
    }

    /// Every module path of the application (imported-only modules left
    /// out).
    pub fn paths(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.modules
            .keys()
            .copied()
            .filter(|path| !self.imported_only.contains(path))
    }

    /// The set's own spelling of a path (borrowed for the set's lifetime).
    pub fn key(&self, path: &str) -> Option<&'a str> {
        self.modules.get_key_value(path).map(|(k, _)| *k)
    }
}
