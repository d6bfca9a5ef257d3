//! Registries filled at import (issue 40, item 12): `tools=list(_TOOLS.values())`
//! (or `[*_TOOLS.values()]`, or through a function returning it), or one
//! entry `_TOOLS["search"]` listed as a member, where
//! `_TOOLS` is a module-level dict only registration functions fill
//! (`python/registries.rs`), read as the definitions the repository
//! registers.
//!
//! Why it is sound — each condition closes one way the registry could hold
//! something else at the read:
//! - every use of a registration function in every module of the side
//!   (the scope's modules, as for every cross-module rule of the reader,
//!   and whatever the registry's module imports, test-like files too) is
//!   the outermost decorator of a module-level, unconditional definition
//!   (`@register`, `@register("key")`): no registration runs anywhere else
//!   (a function, a condition, a call), so the definitions found are all
//!   there are, and each is stored unchanged, as its module binds it;
//! - every module holding one is the registry's own module or one that
//!   module imports at module level, unconditionally: the registry's
//!   module finishing its import means every registration ran;
//! - no module that the registry's module imports (transitively, any
//!   import in any scope, no dynamic import) reaches the registry's
//!   readers, the registry, or the registry's module whole, and the read is
//!   not in the registry's module body: nothing can read the registry while
//!   it is still being filled;
//! - the keys are known and distinct (a definition's own name, or literal
//!   keys): no registration replaces another.
//!
//! Any of these not holding keeps the limit, named.

use super::list_exprs::{Member, Members};
use crate::graph::build::ModuleReader;
use crate::python::{BindingKind, ModuleFacts, RegistryFact, RegistryKey, Value};
use crate::resolve::{Resolver, Target};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Modules followed from a registry's module, at most, when checking that
/// none of them reads it while it fills.
const MAX_IMPORT_CLOSURE: usize = 2000;

/// `NAME.values()`: the registry's name, when `value` is that call.
pub(in crate::graph::build) fn values_read(value: &Value) -> Option<&str> {
    let Value::Call {
        callee,
        args,
        keywords,
    } = value
    else {
        return None;
    };
    let Value::Attribute(parts) = callee.as_ref() else {
        return None;
    };
    match parts.as_slice() {
        [name, method] if method == "values" && args.is_empty() && keywords.is_empty() => {
            Some(name)
        }
        _ => None,
    }
}

/// A registry found where a read names it: its module and facts.
#[derive(Clone, Copy)]
struct Registry<'f> {
    path: &'f str,
    facts: &'f ModuleFacts,
    fact: &'f RegistryFact,
}

/// One registration: a definition a registration function decorates.
struct Site<'a> {
    module: &'a str,
    definition: String,
    line: u32,
    key: String,
}

impl ModuleReader<'_, '_> {
    /// The members of `name.values()` (or, with a key, of `name["key"]`)
    /// read in `scope`, when `name` is a registry (`None`: it is not one,
    /// and the caller names its own limit).
    pub(in crate::graph::build) fn registry_values(
        &self,
        name: &str,
        key: Option<&str>,
        scope: &str,
        depth: usize,
        when: &[String],
    ) -> Option<Result<Members, String>> {
        let mut resolver = Resolver::new(self.modules);
        let found = resolver
            .resolve(self.path, scope, &Value::Name(name.into()))
            .ok()?;
        let Target::Value {
            path: registry_path,
            name: bound,
            line,
        } = found.target
        else {
            return None;
        };
        let facts = self.modules.facts(registry_path)?;
        let registry = facts
            .registries
            .iter()
            .find(|r| r.name == bound && r.line == line)?;
        let found = Registry {
            path: registry_path,
            facts,
            fact: registry,
        };
        Some(self.registered(&found, key, scope, depth, when))
    }

    fn registered(
        &self,
        found: &Registry<'_>,
        key: Option<&str>,
        scope: &str,
        depth: usize,
        when: &[String],
    ) -> Result<Members, String> {
        let Registry {
            path: registry_path,
            facts,
            fact: registry,
        } = *found;
        let spelled = format!("`{}` ({registry_path}:{})", registry.name, registry.line);
        if self.path == registry_path && scope.is_empty() {
            return Err(format!(
                "{spelled}, read while its own module runs, before every registration is known"
            ));
        }
        let imported = self.imported_by(registry_path, facts);
        let sites = self.registration_sites(registry_path, registry, &imported, &spelled)?;
        for site in &sites {
            if site.module != registry_path && !imported.contains(site.module) {
                return Err(format!(
                    "{spelled}, filled at {}:{}, a module {registry_path} does not import at module level, unconditionally, so whether it registers is not known",
                    site.module, site.line
                ));
            }
        }
        self.not_read_while_filling(registry_path, registry, &spelled)?;
        let mut keys: BTreeMap<&str, &Site> = BTreeMap::new();
        for site in &sites {
            if let Some(other) = keys.insert(&site.key, site) {
                return Err(format!(
                    "{spelled}, where {}:{} and {}:{} register under the same key '{}', so one replaces the other",
                    other.module, other.line, site.module, site.line, site.key
                ));
            }
        }
        if let Some(key) = key {
            if !keys.contains_key(key) {
                return Err(format!(
                    "{spelled}, which no registration fills under the key '{key}'"
                ));
            }
        }
        let mut by_module: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
        for site in sites.iter().filter(|s| key.is_none_or(|k| s.key == k)) {
            by_module
                .entry(site.module)
                .or_default()
                .push(Value::Name(site.definition.as_str().into()));
        }
        let mut members = Members::new();
        for (module, names) in by_module {
            let display = Value::List(names);
            let read = self.in_module(module, None, |reader| {
                reader.list_expression(&display, "", depth + 1, when)
            })?;
            members.extend(read.into_iter().map(|m| Member {
                from: m.from.clone().or_else(|| Some(module.to_string())),
                ..m
            }));
        }
        Ok(members)
    }

    /// Every registration in the side's modules, or why one is not a
    /// module-level decoration the reader can count.
    fn registration_sites<'s>(
        &'s self,
        registry_path: &str,
        registry: &RegistryFact,
        imported: &'s BTreeSet<String>,
        spelled: &str,
    ) -> Result<Vec<Site<'s>>, String> {
        let registrars: BTreeMap<&str, &crate::python::Registrar> = registry
            .registrars
            .iter()
            .map(|r| (r.function.as_str(), r))
            .collect();
        let mut resolver = Resolver::new(self.modules);
        let mut sites = Vec::new();
        // The scope's modules, and what the registry's module imports
        // that no scan reads (a test-like file): every one that could
        // register.
        let modules: BTreeSet<&str> = self
            .modules
            .paths()
            .chain(imported.iter().map(String::as_str))
            .collect();
        for module in modules {
            let Some(facts) = self.modules.facts(module) else {
                continue;
            };
            // The local names this module calls each registrar by.
            let mut locals: BTreeMap<String, &crate::python::Registrar> = BTreeMap::new();
            if module == registry_path {
                for (name, registrar) in &registrars {
                    locals.insert(name.to_string(), registrar);
                }
            }
            for import in &facts.imports {
                let from_registry = resolver
                    .module_file(module, import.level, &import.module)
                    .as_deref()
                    == Some(registry_path);
                let whole = match &import.name {
                    None => from_registry,
                    Some(name) => {
                        let dotted = submodule(&import.module, name);
                        resolver
                            .module_file(module, import.level, &dotted)
                            .as_deref()
                            == Some(registry_path)
                    }
                };
                if whole && module != registry_path {
                    // `import app.registry` reaches the registrars by
                    // attribute, which the reader does not count.
                    let spelled_import = import.name.as_deref().unwrap_or(&import.module);
                    return Err(format!(
                        "{spelled}, whose module {module}:{} imports whole (`{spelled_import}`), so its registrations are not counted",
                        import.line
                    ));
                }
                let Some(name) = import.name.as_deref().filter(|_| from_registry) else {
                    continue;
                };
                if name == "*" {
                    return Err(format!(
                        "{spelled}, whose registration functions {module}:{} imports with *",
                        import.line
                    ));
                }
                if let Some(registrar) = registrars.get(name) {
                    if !import.scope.is_empty() || import.conditional || import.type_checking {
                        return Err(format!(
                            "{spelled}, whose registration function `{name}` {module}:{} imports in a function or under a condition",
                            import.line
                        ));
                    }
                    locals.insert(import.bound_name().to_string(), registrar);
                }
            }
            for (local, registrar) in &locals {
                let found = module_sites(module, facts, local, registrar).map_err(|why| {
                    format!("{spelled}, filled by `{local}`, which {module} {why}")
                })?;
                sites.extend(found);
            }
        }
        Ok(sites)
    }

    /// The files the registry's module imports at module level,
    /// unconditionally: each has run when that module's import is done.
    fn imported_by(&self, registry_path: &str, registry_facts: &ModuleFacts) -> BTreeSet<String> {
        let mut resolver = Resolver::new(self.modules);
        let mut imported = BTreeSet::new();
        for import in &registry_facts.imports {
            if import.scope.is_empty() && !import.conditional && !import.type_checking {
                imported.extend(imported_files(&mut resolver, registry_path, import));
            }
        }
        imported
    }

    /// Whether no module the registry's module imports (transitively, in
    /// any scope) can read the registry while it is still being filled.
    fn not_read_while_filling(
        &self,
        registry_path: &str,
        registry: &RegistryFact,
        spelled: &str,
    ) -> Result<(), String> {
        let readers: BTreeSet<&str> = registry
            .readers
            .iter()
            .map(|r| r.split('.').next().unwrap_or(r))
            .chain(std::iter::once(registry.name.as_str()))
            .collect();
        let mut resolver = Resolver::new(self.modules);
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut queue: VecDeque<String> = VecDeque::from([registry_path.to_string()]);
        while let Some(module) = queue.pop_front() {
            if seen.len() > MAX_IMPORT_CLOSURE {
                return Err(format!(
                    "{spelled}, whose module imports more than {MAX_IMPORT_CLOSURE} modules"
                ));
            }
            let Some(facts) = self.modules.facts(&module) else {
                continue;
            };
            if module != registry_path {
                if module == self.path {
                    return Err(format!(
                        "{spelled}, read in {module}, which its module imports while it is filled"
                    ));
                }
                if let Some(dynamic) = facts.dynamic_imports.first() {
                    return Err(format!(
                        "{spelled}, whose module imports {module}, which imports `{dynamic}` at run time"
                    ));
                }
                for import in &facts.imports {
                    let reaches = resolver
                        .module_file(&module, import.level, &import.module)
                        .as_deref()
                        == Some(registry_path)
                        && import.name.as_deref().is_none_or(|n| readers.contains(n));
                    if reaches {
                        return Err(format!(
                            "{spelled}, whose module imports {module}, which reaches the registry at line {} while it is filled",
                            import.line
                        ));
                    }
                }
            }
            for import in &facts.imports {
                // `import a.b.c` runs `a` and `a.b` first.
                let mut files = imported_files(&mut resolver, &module, import);
                if import.level == 0 {
                    let mut prefix = String::new();
                    for part in import.module.split('.') {
                        if !prefix.is_empty() {
                            files.extend(resolver.module_file(&module, 0, &prefix));
                            prefix.push('.');
                        }
                        prefix.push_str(part);
                    }
                }
                for file in files {
                    if file != registry_path && seen.insert(file.clone()) {
                        queue.push_back(file);
                    }
                }
            }
        }
        Ok(())
    }
}

/// The registrations `local` makes in one module: each use of it must be
/// the outermost decorator of a module-level, unconditional definition,
/// spelled as its registrar is applied (`@register` or `@register("k")`).
fn module_sites<'a>(
    module: &'a str,
    facts: &ModuleFacts,
    local: &str,
    registrar: &crate::python::Registrar,
) -> Result<Vec<Site<'a>>, String> {
    let mut sites = Vec::new();
    for function in &facts.functions {
        for (position, decorator) in function.decorators.iter().enumerate() {
            let (callee, args, called) = match decorator {
                Value::Call {
                    callee,
                    args,
                    keywords,
                } if keywords.is_empty() => (callee.as_ref(), args.as_slice(), true),
                Value::Call { callee, .. } => (callee.as_ref(), &[][..], true),
                other => (other, &[][..], false),
            };
            if !matches!(callee, Value::Name(n) if n == local) {
                continue;
            }
            let line = function.line;
            let unconditional = function.module_level
                && facts
                    .module_bindings_named(&function.name)
                    .any(|b| b.line == line && b.kind == BindingKind::Function && !b.conditional);
            if position != 0 || !unconditional || called != registrar.factory {
                return Err(format!(
                    "applies it at line {line} other than as the outermost decorator of a module-level definition"
                ));
            }
            let key = match &registrar.key {
                RegistryKey::DefName => function.name.to_string(),
                RegistryKey::Literal(key) => key.to_string(),
                RegistryKey::FactoryArgument(index) => match args.get(*index as usize) {
                    Some(Value::Str(key)) => key.to_string(),
                    _ => {
                        return Err(format!(
                            "registers at line {line} under a key that is not a literal"
                        ))
                    }
                },
            };
            sites.push(Site {
                module,
                definition: function.name.to_string(),
                line,
                key,
            });
        }
    }
    // Each decoration is one use of the name; any other use could register
    // something else, or hand the function to code that does.
    let uses = facts.name_uses.get(local).copied().unwrap_or(0);
    if uses as usize != sites.len() {
        return Err(
            "uses other than as the outermost decorator of a module-level definition".to_string(),
        );
    }
    Ok(sites)
}

/// `module.name`, or `name` for `from . import name`.
fn submodule(module: &str, name: &str) -> String {
    if module.is_empty() {
        name.to_string()
    } else {
        format!("{module}.{name}")
    }
}

/// The files of the side one import statement loads: the module it names,
/// and the submodule a `from … import name` may name.
fn imported_files(
    resolver: &mut Resolver<'_, '_>,
    path: &str,
    import: &crate::python::ImportFact,
) -> Vec<String> {
    let mut files = Vec::new();
    files.extend(resolver.module_file(path, import.level, &import.module));
    if let Some(name) = import.name.as_deref().filter(|n| *n != "*") {
        files.extend(resolver.module_file(path, import.level, &submodule(&import.module, name)));
    }
    files
}
