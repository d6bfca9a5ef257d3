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
    /// Imported-only modules listed but not read (yet): present to every
    /// question about paths, their facts not held. Asking for the facts
    /// of one (`facts`, `key`) records it in `wanted`, and the build that
    /// asked is built again with it read (`graph::try_build_side`).
    unread: BTreeSet<&'a str>,
    wanted: std::sync::Mutex<BTreeSet<String>>,
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
            unread: BTreeSet::new(),
            wanted: Default::default(),
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
        self.forget_lookups();
        for (path, facts) in modules {
            if self.modules.contains_key(path) {
                continue;
            }
            self.modules.insert(path, facts);
            self.imported_only.insert(path);
            self.unread.remove(path);
            self.add_dirs_of(path);
        }
        self
    }

    /// Adds imported-only modules by path alone, their facts not read:
    /// see `unread`. A module with facts in the set wins.
    pub fn with_unread(mut self, paths: impl IntoIterator<Item = &'a str>) -> Self {
        self.forget_lookups();
        for path in paths {
            if self.modules.contains_key(path) {
                continue;
            }
            self.unread.insert(path);
            self.add_dirs_of(path);
        }
        self
    }

    /// More modules: what an import found before may be found anew.
    fn forget_lookups(&mut self) {
        if let Ok(found) = self.found.get_mut() {
            found.clear();
        }
        self.edges = std::sync::OnceLock::new();
    }

    fn add_dirs_of(&mut self, path: &'a str) {
        let mut rest = path;
        while let Some((dir, _)) = rest.rsplit_once('/') {
            if !self.dirs.insert(dir) {
                break;
            }
            rest = dir;
        }
    }

    /// Whether the set holds a module at `path`, read or not: every
    /// question about paths (is there a file, an `__init__.py`, a
    /// package) asks this, never the facts.
    pub(super) fn holds(&self, path: &str) -> bool {
        self.modules.contains_key(path) || self.unread.contains(path)
    }

    /// The unread modules whose facts were asked for, in path order.
    pub fn wanted(&self) -> Vec<String> {
        match self.wanted.lock() {
            Ok(wanted) => wanted.iter().cloned().collect(),
            Err(poisoned) => poisoned.into_inner().iter().cloned().collect(),
        }
    }

    /// Records that the facts of `path` were asked for, if it is unread.
    fn want(&self, path: &str) {
        if self.unread.contains(path) {
            let mut wanted = self
                .wanted
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            wanted.insert(path.to_string());
        }
    }

    /// Every import of the application with the files it names.
    pub fn import_edges(&self) -> &super::ImportEdges {
        self.edges.get_or_init(|| super::ImportEdges::of(self))
    }

    /// The facts of the module at `path` (`None` for an unread one, whose
    /// asking is recorded: see `unread`).
    pub fn facts(&self, path: &str) -> Option<&'a ModuleFacts> {
        let facts = self.modules.get(path).copied();
        if facts.is_none() {
            self.want(path);
        }
        facts
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
        if let Some((key, _)) = self.modules.get_key_value(path) {
            return Some(*key);
        }
        // A path is asked for its spelling to be read next.
        self.want(path);
        self.unread.get(path).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;

    #[test]
    fn an_unread_module_is_held_by_path_and_asking_for_its_facts_is_recorded() {
        let app = extract_facts(b"from app.tests.helpers import probe\n");
        let helper = extract_facts(b"def probe():\n    pass\n");
        let context = ScopeContext::default();
        let set = ModuleSet::new([("app/agent.py", &app)], std::iter::empty(), &context)
            .with_imported_only([("app/fixtures/canned.py", &helper)])
            .with_unread(["app/tests/helpers.py", "app/agent.py", "app/tests/other.py"]);
        assert!(set.holds("app/tests/helpers.py"));
        assert!(set.dirs.contains("app/tests"));
        assert!(!set.holds("app/tests/missing.py"));
        assert_eq!(
            set.wanted(),
            Vec::<String>::new(),
            "paths alone ask nothing"
        );
        // A module with facts wins over the same path listed unread.
        assert!(set.facts("app/agent.py").is_some());
        assert!(set.facts("app/fixtures/canned.py").is_some());
        assert!(set.facts("app/tests/missing.py").is_none());
        assert_eq!(set.wanted(), Vec::<String>::new());
        assert!(set.facts("app/tests/helpers.py").is_none());
        assert_eq!(set.key("app/tests/other.py"), Some("app/tests/other.py"));
        assert_eq!(
            set.wanted(),
            vec![
                "app/tests/helpers.py".to_string(),
                "app/tests/other.py".to_string()
            ]
        );
        let paths: Vec<&str> = set.paths().collect();
        assert_eq!(
            paths,
            vec!["app/agent.py"],
            "imported-only modules are not scanned"
        );
    }
}
