//! The repository's import graph on one side: which module files each
//! module's imports reach, read from cached facts. An import reaches a file
//! the way Python's path would find it: relative imports from the package,
//! absolute ones from the importer's directory and each parent up to the
//! root, or from the one directory that holds a package of that name
//! (`libs/shared`). Importing `a.b.c` runs `a/__init__.py` and
//! `a/b/__init__.py` first, so those count too.

use crate::python::ModuleFacts;
use std::collections::{BTreeMap, BTreeSet};

/// Forward and reverse import edges between the side's module files.
#[derive(Debug, Default)]
pub struct ImportGraph {
    pub imports: BTreeMap<String, BTreeSet<String>>,
    pub imported_by: BTreeMap<String, BTreeSet<String>>,
    /// Directories a module's absolute imports are found from through a
    /// namespace package (`backend` for `backend.app.x` when `backend` has
    /// no `__init__.py`): a scope that reads that import must hold them.
    pub namespace_roots: BTreeMap<String, BTreeSet<String>>,
}

impl ImportGraph {
    /// Builds the graph over every `(path, facts)` of one side.
    pub fn build<'a>(modules: impl IntoIterator<Item = (&'a str, &'a ModuleFacts)>) -> Self {
        Self::build_with_targets(modules, std::iter::empty())
    }

    /// The graph of `modules`, where an import may also reach one of
    /// `targets`: files that are imported but never read for their own
    /// imports (test-like modules the application imports from).
    pub fn build_with_targets<'a>(
        modules: impl IntoIterator<Item = (&'a str, &'a ModuleFacts)>,
        targets: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let modules: Vec<(&str, &ModuleFacts)> = modules.into_iter().collect();
        let files: BTreeSet<&str> = modules.iter().map(|(p, _)| *p).chain(targets).collect();
        let package_homes = package_homes(&files);
        let mut graph = ImportGraph::default();
        for (path, facts) in &modules {
            let (reached, roots) = reached_files(path, facts, &files, &package_homes);
            if !roots.is_empty() {
                graph.namespace_roots.insert(path.to_string(), roots);
            }
            for target in &reached {
                graph
                    .imported_by
                    .entry(target.clone())
                    .or_default()
                    .insert(path.to_string());
            }
            graph.imports.insert(path.to_string(), reached);
        }
        graph
    }

    pub fn imports_of(&self, path: &str) -> impl Iterator<Item = &String> {
        self.imports.get(path).into_iter().flatten()
    }

    pub fn importers_of(&self, path: &str) -> impl Iterator<Item = &String> {
        self.imported_by.get(path).into_iter().flatten()
    }

    pub fn namespace_roots_of(&self, path: &str) -> impl Iterator<Item = &String> {
        self.namespace_roots.get(path).into_iter().flatten()
    }
}

use crate::paths::{parent_dir as dir_of, rooted as join};

/// For each top-level package name, the directories that hold it as a
/// regular package (`libs` for `libs/shared/__init__.py`).
fn package_homes<'a>(files: &BTreeSet<&'a str>) -> BTreeMap<&'a str, BTreeSet<&'a str>> {
    let mut homes: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for path in files {
        if let Some(package_dir) = path.strip_suffix("/__init__.py") {
            let (home, name) = package_dir.rsplit_once('/').unwrap_or(("", package_dir));
            homes.entry(name).or_default().insert(home);
        }
    }
    homes
}

/// The module files (and package `__init__.py` files) one module's imports
/// reach, and the directories its absolute imports go through a namespace
/// package from. Imports under `if TYPE_CHECKING:` never run and are
/// skipped.
fn reached_files(
    importer: &str,
    facts: &ModuleFacts,
    files: &BTreeSet<&str>,
    homes: &BTreeMap<&str, BTreeSet<&str>>,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut reached = BTreeSet::new();
    let mut roots = BTreeSet::new();
    let exists = |p: &str| files.contains(p);
    // The module file of a dotted path under a directory, with the
    // packages it runs first.
    let module_at = |dir: &str, dotted: &str, reached: &mut BTreeSet<String>| -> bool {
        let parts: Vec<&str> = dotted.split('.').filter(|p| !p.is_empty()).collect();
        let base = join(dir, &parts.join("/"));
        let found = if parts.is_empty() {
            let init = join(dir, "__init__.py");
            exists(&init).then_some(init)
        } else if exists(&format!("{base}.py")) {
            Some(format!("{base}.py"))
        } else if exists(&format!("{base}/__init__.py")) {
            Some(format!("{base}/__init__.py"))
        } else {
            None
        };
        let Some(found) = found else {
            return false;
        };
        for depth in 1..parts.len() {
            let init = join(dir, &format!("{}/__init__.py", parts[..depth].join("/")));
            if exists(&init) {
                reached.insert(init);
            }
        }
        reached.insert(found);
        true
    };
    // `importlib.import_module("a.b")` imports `a.b` as `import a.b` would.
    let dynamic: Vec<crate::python::ImportFact> = facts
        .dynamic_imports
        .iter()
        .map(|module| crate::python::ImportFact {
            module: module.clone(),
            level: 0,
            name: None,
            asname: None,
            line: 0,
            scope: String::new().into(),
            conditional: false,
            type_checking: false,
        })
        .collect();
    for import in facts
        .imports
        .iter()
        .filter(|i| !i.type_checking)
        .chain(dynamic.iter())
    {
        if import.level > 0 {
            let mut dir = dir_of(importer).to_string();
            let mut ok = true;
            for _ in 1..import.level {
                if dir.is_empty() {
                    ok = false;
                    break;
                }
                dir = dir_of(&dir).to_string();
            }
            if !ok {
                continue;
            }
            // The packages a relative import climbs through have run first,
            // as `import app.tools` runs `app/__init__.py`: each regular
            // package from the one it names up to the outermost.
            let mut package = dir.clone();
            while !package.is_empty() {
                let init = join(&package, "__init__.py");
                if !exists(&init) {
                    break;
                }
                reached.insert(init);
                package = dir_of(&package).to_string();
            }
            module_at(&dir, &import.module, &mut reached);
            // `from . import x` / `from .m import x`: x may be a submodule.
            if let Some(name) = import.name.as_deref().filter(|n| *n != "*") {
                let dotted = if import.module.is_empty() {
                    name.to_string()
                } else {
                    format!("{}.{name}", import.module)
                };
                module_at(&dir, &dotted, &mut reached);
            }
            continue;
        }
        let first = import.module.split('.').next().unwrap_or_default();
        // The importer's directory and each parent up to the root.
        let mut dirs = Vec::new();
        let mut dir = dir_of(importer);
        loop {
            dirs.push(dir.to_string());
            if dir.is_empty() {
                break;
            }
            dir = dir_of(dir);
        }
        // Or the one directory holding a regular package of that name.
        if let Some(homes) = homes.get(first) {
            if homes.len() == 1 {
                dirs.extend(homes.iter().map(|h| h.to_string()));
            }
        }
        for dir in dirs {
            if module_at(&dir, &import.module, &mut reached) {
                if let Some(name) = import.name.as_deref().filter(|n| *n != "*") {
                    module_at(&dir, &format!("{}.{name}", import.module), &mut reached);
                }
                let parts: Vec<&str> = import.module.split('.').collect();
                let through_namespace = (1..parts.len()).any(|depth| {
                    !exists(&join(
                        &dir,
                        &format!("{}/__init__.py", parts[..depth].join("/")),
                    ))
                });
                if through_namespace {
                    roots.insert(dir.clone());
                }
                break;
            }
        }
    }
    (reached, roots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;

    #[test]
    fn imports_reach_files_as_python_would_find_them() {
        let sources = [
            ("app/__init__.py", ""),
            ("app/agent.py", "from .tools import lookup\nfrom . import helpers\nimport app.deep.mod\nfrom shared import util\nimport requests\n"),
            ("app/tools.py", "from ..common import x\n"),
            ("app/helpers.py", "import importlib\nplugins = importlib.import_module(\"app.plugins\")\n"),
            ("app/plugins.py", ""),
            ("app/deep/__init__.py", ""),
            ("app/deep/mod.py", ""),
            ("common.py", ""),
            ("libs/shared/__init__.py", ""),
            ("libs/shared/util.py", ""),
        ];
        let facts: Vec<(&str, ModuleFacts)> = sources
            .iter()
            .map(|(p, s)| (*p, extract_facts(s.as_bytes())))
            .collect();
        let graph = ImportGraph::build(facts.iter().map(|(p, f)| (*p, f)));
        let agent: Vec<&String> = graph.imports_of("app/agent.py").collect();
        assert_eq!(
            agent,
            vec![
                "app/__init__.py",
                "app/deep/__init__.py",
                "app/deep/mod.py",
                "app/helpers.py",
                "app/tools.py",
                "libs/shared/__init__.py",
                "libs/shared/util.py",
            ]
        );
        assert_eq!(
            graph.imports_of("app/tools.py").collect::<Vec<_>>(),
            vec!["common.py"]
        );
        assert_eq!(
            graph.imports_of("app/helpers.py").collect::<Vec<_>>(),
            vec!["app/__init__.py", "app/plugins.py"]
        );
        assert_eq!(
            graph.importers_of("app/tools.py").collect::<Vec<_>>(),
            vec!["app/agent.py"]
        );
    }
}
