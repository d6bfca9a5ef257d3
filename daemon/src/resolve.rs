//! Following a name an agent lists to its one definition, across the
//! scope's modules, or naming why it cannot be followed (spec: "Tools
//! imported from other modules"). Reads cached facts only.
//!
//! The rule throughout is "bound once": a name is followed only when every
//! module on the way binds it exactly once, unconditionally, at the level
//! the reference reads it. Anything else is a stop with its reason, never a
//! guess.
//!
//! Here: what a reference reaches (`Target`, with its `ImportStep`s) and
//! the `Resolver`'s entry; `names.rs` follows a name through its bindings
//! and imports, `locate.rs` finds the module an import spelling names,
//! `modules.rs` is the scope's set of modules, `layout.rs` what sets of
//! the same paths share across sides.

use crate::python::{FunctionFact, ModuleFacts, Text, Value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

mod importers;
pub mod layout;
mod locate;
mod modules;
mod names;
pub use importers::{ImportEdge, ImportEdges};
pub use modules::ModuleSet;
pub use names::runs_once_per_call;

/// One module read on the way to a definition (`import_path[].steps[]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportStep {
    /// Scope-relative path of the module read.
    pub path: String,
    /// `None` for a submodule reached through its package.
    pub line: Option<u32>,
    pub name: String,
    /// SHA-256 of the module's bytes.
    pub sha256: String,
    /// `import`, `local_import`, `alias`, `submodule`, `lazy_reexport`
    /// (a package hook's registry entry) or `definition`.
    pub binding: String,
    /// A submodule reached past the package's lazy-loading `__getattr__`.
    pub lazy_submodule: bool,
}

/// What the repository holds around the scope, read from the compared
/// commit's tree: how absolute imports can spell the scope itself, and
/// which top-level modules are the repository's own code outside it.
#[derive(Debug, Clone, Default)]
pub struct ScopeContext {
    /// Dotted spellings of the scope from an import root (`svc.app`, and
    /// `app` when the scope is itself a regular package).
    pub spellings: Vec<String>,
    /// Top-level module and regular-package names at the repository root,
    /// under `src/` and in directories between the root and the scope.
    pub outside_modules: BTreeSet<String>,
    /// `(rooted path, facts)` of the `__init__.py` of every package between
    /// the repository root and the scope: they run before any scope module.
    pub ancestor_inits: Vec<(String, std::sync::Arc<ModuleFacts>)>,
}

/// Where a module name leads inside the scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleLoc {
    /// The module's file (`a/b.py` or `a/b/__init__.py`), if any.
    pub file: Option<String>,
    /// The package directory, for a package (`a/b`).
    pub dir: Option<String>,
    pub dotted: String,
}

/// What a reference reached.
#[derive(Debug, Clone)]
pub enum Target<'a> {
    Function {
        path: &'a str,
        function: &'a FunctionFact,
    },
    /// A module or package (reached by `import m` or a submodule).
    Module(ModuleLoc),
    /// A name a module binds once to some other value (`support = Agent(...)`).
    Value {
        path: &'a str,
        name: String,
        line: u32,
    },
    /// What an absolute import names from a package no file inside the
    /// read scope provides, nor the repository's own code outside it
    /// (`from helpers import find_hotels`, a library, a sibling
    /// checkout): only with [`Resolver::with_external`]. `dotted` is the
    /// absolute name (`helpers.find_hotels`); its definition is not read.
    External { dotted: String },
}

#[derive(Debug, Clone)]
pub struct Resolved<'a> {
    pub target: Target<'a>,
    pub steps: Vec<ImportStep>,
}

/// Follows references through one side's modules.
pub struct Resolver<'s, 'a> {
    modules: &'s ModuleSet<'a>,
    read: BTreeSet<String>,
    following: BTreeSet<(String, String)>,
    /// Whether a class definition is a `Target::Value` (`with_classes`)
    /// rather than a stop: a tool is never a class, an agent class is.
    classes: bool,
    /// Whether a name imported from a package nothing in the repository
    /// provides is a `Target::External` rather than a stop.
    external: bool,
    /// Where the reference is read, when that is module-level code of its
    /// own module: its path and line (`Resolver::reading_at`).
    read_at: Option<(String, u32)>,
}

type Found<'a> = Result<Resolved<'a>, String>;

impl<'s, 'a> Resolver<'s, 'a> {
    pub fn new(modules: &'s ModuleSet<'a>) -> Self {
        Resolver {
            modules,
            read: BTreeSet::new(),
            following: BTreeSet::new(),
            classes: false,
            external: false,
            read_at: None,
        }
    }

    /// A resolver for a reference read by module-level code of `path` at
    /// `line` (a module-level construction's list): a binding of the name
    /// in that module after that line is not made yet when it is read
    /// (`names::before_the_read`).
    pub fn reading_at(mut self, path: &str, line: u32) -> Self {
        self.read_at = Some((path.to_string(), line));
        self
    }

    /// A resolver that follows a name to a class definition as a value
    /// (its module, name and line): what a class's constructions need.
    pub fn with_classes(mut self) -> Self {
        self.classes = true;
        self
    }

    /// A resolver that reaches a name imported from a package nothing in
    /// the repository provides as `Target::External`: what keeps a tool's
    /// presence where its definition is not in the tree.
    pub fn with_external(mut self) -> Self {
        self.external = true;
        self
    }

    /// Resolves a reference (`name` or `a.b.name`) used in `path` inside the
    /// function `scope` (empty = module level).
    pub fn resolve(&mut self, path: &'a str, scope: &str, reference: &Value) -> Found<'a> {
        let (head, rest): (&str, &[Text]) = match reference {
            Value::Name(name) => (name.as_str(), &[]),
            Value::Attribute(parts) => match parts.split_first() {
                Some((head, rest)) => (head.as_str(), rest),
                None => return Err("the reference is empty".into()),
            },
            _ => return Err("it is not a name".into()),
        };
        if !rest.is_empty() {
            if let Some(found) = self.dotted_import(path, scope, head, rest)? {
                return Ok(found);
            }
        }
        let mut found = self.name_in_scope(path, scope, head, Vec::new())?;
        for attribute in rest {
            found = self.attribute(found, attribute)?;
        }
        Ok(found)
    }

    /// Every module read so far (the agent's file included).
    pub fn modules_read(&self) -> &BTreeSet<String> {
        &self.read
    }
}
