//! Following a name an agent lists to its one definition, across the
//! scope's modules, or naming why it cannot be followed (spec: "Tools
//! imported from other modules"). Reads cached facts only.
//!
//! The rule throughout is "bound once": a name is followed only when every
//! module on the way binds it exactly once, unconditionally, at the level
//! the reference reads it. Anything else is a stop with its reason, never a
//! guess.

use crate::pyrepr::str_repr;
use crate::python::stdlib::is_stdlib_module;
use crate::python::{BindingFact, BindingKind, FunctionFact, ImportFact, ModuleFacts, Value};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// More modules than this read for one reference is a stop.
const MAX_MODULES_READ: usize = 64;

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
    /// `import`, `local_import`, `alias`, `submodule` or `definition`.
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
    modules: BTreeMap<&'a str, &'a ModuleFacts>,
    /// Every directory holding a module, at any depth: a namespace
    /// package is found without scanning every path.
    dirs: BTreeSet<&'a str>,
    /// Linked `.py` entries: present, never read.
    linked: BTreeSet<&'a str>,
    /// Modules the resolver follows an import into but no scan of the
    /// scope reads (test-like files: spec, "the import resolver still
    /// follows a tool the application imports from such a file").
    imported_only: BTreeSet<&'a str>,
    context: &'a ScopeContext,
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
}

type Found<'a> = Result<Resolved<'a>, String>;

use crate::paths::{parent_dir as dir_of, rooted as join};

impl<'s, 'a> Resolver<'s, 'a> {
    pub fn new(modules: &'s ModuleSet<'a>) -> Self {
        Resolver {
            modules,
            read: BTreeSet::new(),
            following: BTreeSet::new(),
        }
    }

    /// Resolves a reference (`name` or `a.b.name`) used in `path` inside the
    /// function `scope` (empty = module level).
    pub fn resolve(&mut self, path: &'a str, scope: &str, reference: &Value) -> Found<'a> {
        let (head, rest): (&str, &[String]) = match reference {
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

    /// `import a.b` then `a.b.f` reads the submodule `a/b.py` directly, as
    /// the import system guarantees, even when the package binds a `b` of
    /// its own; several `import a.x` statements bind one package.
    fn dotted_import(
        &mut self,
        path: &'a str,
        scope: &str,
        head: &str,
        rest: &[String],
    ) -> Result<Option<Resolved<'a>>, String> {
        let facts = self.read_module(path)?;
        let visible = |import: &&ImportFact| {
            import.name.is_none()
                && import.asname.is_none()
                && import.level == 0
                && !import.type_checking
                && (import.scope.is_empty() || import.scope == scope)
                && import.module.split('.').next() == Some(head)
        };
        let best = facts
            .imports
            .iter()
            .filter(visible)
            .filter(|import| {
                let parts: Vec<&str> = import.module.split('.').skip(1).collect();
                parts.len() <= rest.len() && parts.iter().zip(rest).all(|(a, b)| a == b)
            })
            .max_by_key(|import| import.module.split('.').count());
        let Some(import) = best else { return Ok(None) };
        if import.conditional {
            return Ok(None);
        }
        let depth = import.module.split('.').count() - 1;
        let loc = self.find_module(path, 0, &import.module)?;
        let steps = vec![self.step(path, Some(import.line), head, "import")];
        let mut found = Resolved {
            target: Target::Module(loc),
            steps,
        };
        for attribute in &rest[depth..] {
            found = self.attribute(found, attribute)?;
        }
        Ok(Some(found))
    }

    fn read_module(&mut self, path: &str) -> Result<&'a ModuleFacts, String> {
        if self.modules.linked.contains(path) {
            return Err(format!(
                "module path {} for {} is a symbolic link, which is not followed",
                path.strip_suffix(".py").unwrap_or(path),
                str_repr(path)
            ));
        }
        let facts = self
            .modules
            .facts(path)
            .ok_or_else(|| format!("{path} is not in the read scope"))?;
        if facts.syntax_error.is_some() {
            return Err(format!("{path} could not be read or parsed"));
        }
        self.read.insert(path.to_string());
        if self.read.len() > MAX_MODULES_READ {
            return Err(format!(
                "more than {MAX_MODULES_READ} modules were read to follow it"
            ));
        }
        Ok(facts)
    }

    fn step(&self, path: &str, line: Option<u32>, name: &str, binding: &str) -> ImportStep {
        ImportStep {
            path: path.to_string(),
            line,
            name: name.to_string(),
            sha256: self
                .modules
                .facts(path)
                .map(|f| f.source_sha256.clone())
                .unwrap_or_default(),
            binding: binding.to_string(),
            lazy_submodule: false,
        }
    }

    /// A name as Python looks it up from inside `scope`: the function's own
    /// bindings (and those of enclosing functions), then the module's.
    fn name_in_scope(
        &mut self,
        path: &'a str,
        scope: &str,
        name: &str,
        steps: Vec<ImportStep>,
    ) -> Found<'a> {
        let facts = self.read_module(path)?;
        let mut current = scope.to_string();
        while !current.is_empty() {
            let function = facts.functions.iter().find(|f| f.qualname == current);
            let Some(function) = function else {
                // A class body: its names are not visible to nested functions.
                current = parent_scope(&current);
                continue;
            };
            if function.globals.iter().any(|g| g == name) {
                break;
            }
            if function.nonlocals.iter().any(|n| n == name) {
                current = parent_scope(&current);
                continue;
            }
            let bindings: Vec<&BindingFact> = function
                .locals
                .iter()
                .filter(|b| b.name == name && !b.type_checking)
                .collect();
            if !bindings.is_empty() {
                return self.bound_once(path, &current, name, &bindings, steps, true);
            }
            current = parent_scope(&current);
        }
        self.module_name(path, name, steps)
    }

    /// A name bound at module level in `path`.
    fn module_name(&mut self, path: &'a str, name: &str, steps: Vec<ImportStep>) -> Found<'a> {
        let key = (path.to_string(), name.to_string());
        if !self.following.insert(key.clone()) {
            return Err(format!(
                "the import chain for {} returns to {path}",
                str_repr(name)
            ));
        }
        let result = self.module_name_inner(path, name, steps);
        self.following.remove(&key);
        result
    }

    fn module_name_inner(
        &mut self,
        path: &'a str,
        name: &str,
        steps: Vec<ImportStep>,
    ) -> Found<'a> {
        let facts = self.read_module(path)?;
        let bindings: Vec<&BindingFact> = facts
            .module_bindings
            .iter()
            .filter(|b| b.name == name && !b.type_checking)
            .collect();
        let bindings = package_imports_as_one(facts, name, bindings);
        let bindings = wrapper_over_own_def(facts, name, bindings);
        // A wildcard import after the last explicit binding may rebind it.
        let last_binding = bindings.iter().map(|b| b.line).max().unwrap_or(0);
        let wildcard = facts.imports.iter().find(|i| {
            i.scope.is_empty()
                && !i.type_checking
                && i.name.as_deref() == Some("*")
                && i.line > last_binding
        });
        if wildcard.is_some() {
            return Err(format!(
                "{path} has a wildcard import that may rebind {}",
                str_repr(name)
            ));
        }
        if bindings.is_empty() {
            if steps.is_empty() {
                return Err(format!(
                    "{} is not bound at module level in {path}",
                    str_repr(name)
                ));
            }
            return Err(format!("{path} does not define {}", str_repr(name)));
        }
        self.bound_once(path, "", name, &bindings, steps, false)
    }

    /// Follows the one binding of `name` in a scope of `path`.
    fn bound_once(
        &mut self,
        path: &'a str,
        scope: &str,
        name: &str,
        bindings: &[&BindingFact],
        mut steps: Vec<ImportStep>,
        local: bool,
    ) -> Found<'a> {
        let facts = self.read_module(path)?;
        let place = if scope.is_empty() {
            format!("in {path}")
        } else {
            format!("in {scope} in {path}")
        };
        let [binding] = bindings else {
            let lines: Vec<String> = bindings.iter().map(|b| b.line.to_string()).collect();
            return Err(format!(
                "{} is bound more than once {place} (lines {})",
                str_repr(name),
                lines.join(", ")
            ));
        };
        if binding.conditional {
            return Err(format!(
                "{} is bound only inside a compound statement or from a function in {path}:{}",
                str_repr(name),
                binding.line
            ));
        }
        match binding.kind {
            BindingKind::Function => {
                let qualname = if scope.is_empty() {
                    name.to_string()
                } else {
                    format!("{scope}.{name}")
                };
                let function = facts
                    .functions
                    .iter()
                    .find(|f| f.qualname == qualname)
                    .ok_or_else(|| {
                        format!(
                            "the definition of {} in {path} was not read",
                            str_repr(name)
                        )
                    })?;
                steps.push(self.step(path, Some(function.line), name, "definition"));
                Ok(Resolved {
                    target: Target::Function { path, function },
                    steps,
                })
            }
            BindingKind::Import => {
                let import = facts
                    .imports
                    .iter()
                    .find(|i| {
                        i.scope == scope
                            && i.line == binding.line
                            && i.bound_name() == name
                            && !i.type_checking
                    })
                    .ok_or_else(|| {
                        format!("the import of {} in {path} was not read", str_repr(name))
                    })?;
                let kind = if local { "local_import" } else { "import" };
                steps.push(self.step(path, Some(import.line), name, kind));
                self.follow_import(path, import, steps)
            }
            BindingKind::Assignment if !local => {
                let alias = match &binding.value {
                    Some(Value::Name(other)) => vec![other.clone()],
                    Some(Value::Attribute(parts)) => parts.clone(),
                                        _ => {
                        return Ok(Resolved {
                            target: Target::Value { path, name: name.to_string(), line: binding.line },
                            steps,
                        })
                    }
                };
                let Some((head, rest)) = alias.split_first() else {
                    return Err(format!(
                        "{} has an empty alias at {path}:{}",
                        str_repr(name),
                        binding.line
                    ));
                };
                if head == name && rest.is_empty() {
                    return Err(format!(
                        "{} is assigned to itself at {path}:{}",
                        str_repr(name),
                        binding.line
                    ));
                }
                steps.push(self.step(path, Some(binding.line), name, "alias"));
                let mut found = self.module_name(path, head, steps)?;
                for attribute in rest {
                    found = self.attribute(found, attribute)?;
                }
                Ok(found)
            }
            BindingKind::Class => Err(format!(
                "{} in {path}:{} is a class, not a function definition",
                str_repr(name),
                binding.line
            )),
                        BindingKind::Parameter => Err(format!(
                "{} is bound by a parameter in the enclosing scope at {path}:{}, which is not followed",
                str_repr(name),
                binding.line
            )),
                        BindingKind::Assignment | BindingKind::Other | BindingKind::With => Err(format!(
                "{} is bound by a local assignment in the enclosing scope at {path}:{}, which is not followed",
                str_repr(name),
                binding.line
            )),
        }
    }

    /// Follows `import m [as x]` or `from m import n [as x]`.
    fn follow_import(
        &mut self,
        path: &'a str,
        import: &ImportFact,
        steps: Vec<ImportStep>,
    ) -> Found<'a> {
        match &import.name {
            None => {
                // `import a.b` binds `a`; `import a.b as c` binds `a.b`.
                let dotted = if import.asname.is_some() {
                    import.module.clone()
                } else {
                    import
                        .module
                        .split('.')
                        .next()
                        .unwrap_or(&import.module)
                        .to_string()
                };
                let loc = self.find_module(path, import.level, &dotted)?;
                Ok(Resolved {
                    target: Target::Module(loc),
                    steps,
                })
            }
            Some(member) if member == "*" => {
                Err(format!("{path}:{} is a wildcard import", import.line))
            }
            Some(member) => {
                let loc = self.find_module(path, import.level, &import.module)?;
                self.member(loc, member, steps, true)
            }
        }
    }

    /// `name` of a module: its own binding first, then a submodule. A
    /// package whose `__init__.py` binds the name only by importing that
    /// very submodule (`from . import tools`) names the submodule.
    fn member(
        &mut self,
        loc: ModuleLoc,
        name: &str,
        mut steps: Vec<ImportStep>,
        from_import: bool,
    ) -> Found<'a> {
        let submodule = loc
            .dir
            .as_deref()
            .and_then(|dir| self.module_at(dir, &[name]));
        let mut hook = None;
        if let Some(file) = &loc.file {
            let facts = self.read_module(file)?;
            let binds_other = facts
                .module_bindings
                .iter()
                .any(|b| b.name == name && !b.type_checking)
                && !(submodule.is_some() && imports_own_submodule(facts, name));
            if binds_other {
                let file = self.static_path(file)?;
                return self.module_name(file, name, steps);
            }
            hook = facts.getattr_hook.clone();
        }
        if let Some(sub) = submodule {
            let init = loc.file.clone().unwrap_or_default();
            match &hook {
                // A hook answers first for a name the package does not bind;
                // only the lazy-loading idiom is known to give the submodule.
                Some(hook) if !hook.gives_submodule(name) => {
                    return Err(format!(
                        "{} is reached past the module-level __getattr__ at {init}:{}, which is not evaluated",
                        str_repr(name),
                        hook.line
                    ))
                }
                Some(_) => {
                    let mut step = self.step(&init, None, name, "submodule");
                    step.lazy_submodule = true;
                    steps.push(step);
                }
                // An attribute of a package is its submodule only once
                // something imports it; a from-import does.
                None if !from_import => {
                    return Err(format!(
                        "{} is not bound in {}, and a submodule is only an attribute of its package once imported",
                        str_repr(name),
                        if init.is_empty() { loc.dir.clone().unwrap_or_default() } else { init.clone() }
                    ))
                }
                None if !init.is_empty() => steps.push(self.step(&init, None, name, "submodule")),
                None => {}
            }
            return self.not_linked(sub, name).map(|sub| Resolved {
                target: Target::Module(sub),
                steps,
            });
        }
        match &loc.file {
            Some(file) => {
                let file = self.static_path(file)?;
                self.module_name(file, name, steps)
            }
            None => Err(format!(
                "no file inside the read scope provides {}.{name}",
                loc.dotted
            )),
        }
    }

    /// The `&'a str` key of a module path.
    fn static_path(&self, path: &str) -> Result<&'a str, String> {
        self.modules
            .key(path)
            .ok_or_else(|| format!("{path} is not in the read scope"))
    }

    /// An attribute of what a reference reached so far.
    fn attribute(&mut self, found: Resolved<'a>, attribute: &str) -> Found<'a> {
        match found.target {
            Target::Module(loc) => self.member(loc, attribute, found.steps, false),
            Target::Function { .. } | Target::Value { .. } => {
                Err(format!("{attribute} is read from a value, not a module"))
            }
        }
    }

    /// Finds a module by import spelling from `path` (contract: absolute
    /// names from the importing file's directory and each parent up to the
    /// scope, and from the scope's parent for the scope's own package).
    fn find_module(&mut self, path: &str, level: u32, dotted: &str) -> Result<ModuleLoc, String> {
        let parts: Vec<&str> = dotted.split('.').filter(|p| !p.is_empty()).collect();
        if level > 0 {
            let mut dir = dir_of(path).to_string();
            for _ in 1..level {
                if dir.is_empty() {
                    return Err(format!(
                        "the relative import {} in {path} climbs above the read scope",
                        str_repr(&format!("{}{dotted}", ".".repeat(level as usize)))
                    ));
                }
                dir = dir_of(&dir).to_string();
            }
            let spelled = format!("{}{dotted}", ".".repeat(level as usize));
            let loc = self.module_at(&dir, &parts).ok_or_else(|| {
                format!(
                    "no file inside the read scope provides {} imported by {path}",
                    str_repr(&spelled)
                )
            })?;
            return self.not_linked(loc, &spelled);
        }
        let mut found: Vec<ModuleLoc> = Vec::new();
        let mut dir = dir_of(path).to_string();
        let stdlib = parts.first().is_some_and(|first| is_stdlib_module(first));
        loop {
            // A standard-library name in a directory that is itself a
            // regular package is the standard library (spec).
            let shadowing = !(stdlib
                && self
                    .modules
                    .modules
                    .contains_key(join(&dir, "__init__.py").as_str()));
            if let Some(loc) = self.module_at(&dir, &parts).filter(|_| shadowing) {
                if !found.contains(&loc) {
                    found.push(loc);
                }
            }
            if dir.is_empty() {
                break;
            }
            dir = dir_of(&dir).to_string();
        }
        for spelling in &self.modules.context.spellings {
            let prefix: Vec<&str> = spelling.split('.').collect();
            if parts.len() < prefix.len() || parts[..prefix.len()] != prefix[..] {
                continue;
            }
            if let Some(loc) = self.module_at("", &parts[prefix.len()..]) {
                if !found.contains(&loc) {
                    found.push(loc);
                }
            }
        }
        match found.len() {
            0 => Err(format!(
                "no file inside the read scope provides module {} imported by {path}",
                str_repr(dotted)
            )),
            1 => self.not_linked(found.remove(0), dotted),
            _ => {
                let mut places: Vec<String> = found
                    .iter()
                    .filter_map(|l| l.file.clone().or(l.dir.clone()))
                    .collect();
                places.sort();
                Err(format!(
                    "module {} imported by {path} matches more than one location in the read scope: {}",
                    str_repr(dotted),
                    places.join(", ")
                ))
            }
        }
    }

    /// A module location whose file is a symbolic link is never read.
    fn not_linked(&self, loc: ModuleLoc, spelled: &str) -> Result<ModuleLoc, String> {
        match &loc.file {
            Some(file) if self.modules.linked.contains(file.as_str()) => Err(format!(
                "module path {} for {} is a symbolic link, which is not followed",
                file.strip_suffix(".py").unwrap_or(file),
                str_repr(spelled)
            )),
            _ => Ok(loc),
        }
    }

    /// The module `parts` under `dir`, preferring a module file over a
    /// namespace directory as the import system does.
    fn module_at(&self, dir: &str, parts: &[&str]) -> Option<ModuleLoc> {
        if parts.is_empty() {
            let init = join(dir, "__init__.py");
            let has_init = self.modules.modules.contains_key(init.as_str());
            return Some(ModuleLoc {
                file: has_init.then_some(init),
                dir: Some(dir.to_string()),
                dotted: String::new(),
            });
        }
        let relative = parts.join("/");
        let base = join(dir, &relative);
        let file = format!("{base}.py");
        let dotted = parts.join(".");
        if self.modules.modules.contains_key(file.as_str())
            || self.modules.linked.contains(file.as_str())
        {
            return Some(ModuleLoc {
                file: Some(file),
                dir: None,
                dotted,
            });
        }
        let init = format!("{base}/__init__.py");
        if self.modules.modules.contains_key(init.as_str())
            || self.modules.linked.contains(init.as_str())
        {
            return Some(ModuleLoc {
                file: Some(init),
                dir: Some(base),
                dotted,
            });
        }
        if self.modules.dirs.contains(base.as_str()) {
            return Some(ModuleLoc {
                file: None,
                dir: Some(base),
                dotted,
            });
        }
        None
    }

    /// The module file and member an imported name comes from (`from .agent
    /// import support` gives `("agent.py", "support")`), seen from `scope`.
    pub fn import_origin(
        &mut self,
        path: &str,
        scope: &str,
        name: &str,
    ) -> Option<(String, String)> {
        let facts = self.modules.facts(path)?;
        let mut current = Some(scope.to_string());
        while let Some(level) = current {
            let import = facts.imports.iter().rev().find(|i| {
                i.scope == level && i.bound_name() == name && !i.type_checking && i.name.is_some()
            });
            if let Some(import) = import {
                let member = import.name.clone()?;
                let loc = self.find_module(path, import.level, &import.module).ok()?;
                return Some((loc.file?, member));
            }
            current = (!level.is_empty()).then(|| parent_scope(&level));
        }
        None
    }

    /// The file a module spelling from `path` names inside the scope.
    pub fn module_file(&mut self, path: &str, level: u32, dotted: &str) -> Option<String> {
        self.find_module(path, level, dotted)
            .ok()
            .and_then(|loc| loc.file)
    }

    /// Whether a module spelling from `path` names a module inside the scope.
    pub fn locate(&mut self, path: &str, level: u32, dotted: &str) -> Result<(), String> {
        self.find_module(path, level, dotted).map(|_| ())
    }

    /// Whether a relative import of `level` from `path` climbs above the scope.
    pub fn above_scope(&self, path: &str, level: u32) -> bool {
        let depth = dir_of(path).split('/').filter(|p| !p.is_empty()).count();
        level as usize > depth + 1
    }

    /// Every module read so far (the agent's file included).
    pub fn modules_read(&self) -> &BTreeSet<String> {
        &self.read
    }
}

/// Whether a package module binds `name` only by `from . import name`.
fn imports_own_submodule(facts: &ModuleFacts, name: &str) -> bool {
    let own = |b: &BindingFact| {
        b.kind == BindingKind::Import
            && facts.imports.iter().any(|i| {
                i.line == b.line
                    && i.scope.is_empty()
                    && i.level == 1
                    && i.module.is_empty()
                    && i.name.as_deref() == Some(name)
            })
    };
    facts
        .module_bindings
        .iter()
        .filter(|b| b.name == name && !b.type_checking)
        .all(own)
}

/// Several `import a.x` statements bind the one package `a`: they count as
/// one binding (the first).
fn package_imports_as_one<'f>(
    facts: &ModuleFacts,
    name: &str,
    bindings: Vec<&'f BindingFact>,
) -> Vec<&'f BindingFact> {
    let plain_package_import = |b: &&BindingFact| {
        b.kind == BindingKind::Import
            && facts.imports.iter().any(|i| {
                i.line == b.line
                    && i.scope.is_empty()
                    && i.name.is_none()
                    && i.asname.is_none()
                    && i.module.split('.').next() == Some(name)
                    && i.module.contains('.')
            })
    };
    if bindings.len() > 1 && bindings.iter().all(plain_package_import) {
        bindings.into_iter().take(1).collect()
    } else {
        bindings
    }
}

/// `def x(...)` followed by `x = FunctionTool(func=x)` (ADK) at module
/// level: the assignment wraps that def, so the name is followed to the def
/// (spec: "it is not a guess"). Any other pair of bindings stays two.
fn wrapper_over_own_def<'f>(
    facts: &ModuleFacts,
    name: &str,
    bindings: Vec<&'f BindingFact>,
) -> Vec<&'f BindingFact> {
    let [def, wrap] = bindings.as_slice() else {
        return bindings;
    };
    let wraps_itself = def.kind == BindingKind::Function
        && wrap.kind == BindingKind::Assignment
        && wrap.line > def.line
        && !def.conditional
        && !wrap.conditional
        && wrap.value.as_ref().is_some_and(|value| {
            crate::frameworks::adk::function_wrapper_call(facts, value, "")
                .is_some_and(|call| *call.wrapped == Value::Name(name.to_string()))
        });
    if wraps_itself {
        vec![*def]
    } else {
        bindings
    }
}

fn parent_scope(scope: &str) -> String {
    scope
        .rsplit_once('.')
        .map_or(String::new(), |(parent, _)| parent.to_string())
}
