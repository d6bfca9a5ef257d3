//! What a name an argument spells, or a call's callee, *is*, as the text
//! an object's argument digest is made of:
//! - a library's callable or constant by its absolute import
//!   (`google.adk.tools.spanner.settings.Capabilities.DATA_READ`) where no
//!   module of the repository provides its package, and a value builtin
//!   (`dict`, `str`…) the module never rebinds by its name;
//! - a repository function by its own code (its implementation digest),
//!   and a nested one also by the values of the enclosing function's names
//!   it reads (its closure);
//! - a repository class by its own code (`class_rules::class_digest`) and
//!   each of its bases, read the same way.
//!
//! Never by where it is: moving a definition, or importing it through
//! another module, is not a change.
//!
//! The rule that makes this sound is the spec's for a tool's
//! implementation digest (contract §3.1): a definition is known by its own
//! code, so any edit to it changes the digest, and what the helpers it
//! calls do is reach's to read, as for any function tool. A module
//! constant its body reads is not part of it, as for any function. A name
//! not bound once, a class built by a metaclass or a decorator the read
//! cannot name, a closure over a value the read cannot name or over a
//! mutable display, is `None`: the argument stays a named unread part.

use super::values::binds_anywhere;
use super::ObjectSite;
use crate::frameworks::class_rules::class_digest;
use crate::frameworks::imports::imported_name;
use crate::python::{
    parent_scope as parent, BindingKind, ClassFact, FunctionFact, ModuleFacts, Value,
};
use crate::resolve::{Resolver, Target};
use std::collections::BTreeSet;

/// Builtins whose result is what their literal arguments spell.
const VALUE_BUILTINS: &[&str] = &[
    "dict",
    "list",
    "tuple",
    "set",
    "frozenset",
    "str",
    "int",
    "float",
    "bool",
];

/// How many definitions one identity reads through (a closure's values,
/// a class's bases).
const MAX_DEFINITION_HOPS: usize = 8;

impl<'a> ObjectSite<'a, '_> {
    /// The identity text of a callee or a named definition (module doc);
    /// `None` when the read cannot name what it is.
    pub(super) fn callable_identity(&self, value: &Value, hops: usize) -> Option<String> {
        if let Some(name) = self.library_name(value) {
            return Some(name);
        }
        if hops > MAX_DEFINITION_HOPS {
            return None;
        }
        let mut resolver = Resolver::new(self.modules).with_classes();
        let found = resolver.resolve(self.path, &self.scope, value).ok()?;
        match found.target {
            Target::Function { path, function } => self.function_identity(path, function, hops),
            Target::Value { path, name, line } => {
                let facts = self.modules.facts(path)?;
                let is_class = facts
                    .module_bindings_named(&name)
                    .any(|b| b.name == name && b.line == line && b.kind == BindingKind::Class);
                let class = facts.classes.iter().find(|c| c.qualname == name)?;
                is_class.then_some(())?;
                self.class_identity(path, facts, class, hops)
            }
            Target::Module(_) | Target::External { .. } => None,
        }
    }

    /// A library's name by its absolute import, or a value builtin's.
    pub(super) fn library_name(&self, value: &Value) -> Option<String> {
        if let Value::Name(name) = value {
            if VALUE_BUILTINS.contains(&name.as_str()) {
                return ((!binds_anywhere(self.facts, name)).then(|| name.clone())).map(Into::into);
            }
        }
        if !matches!(value, Value::Name(_) | Value::Attribute(_)) {
            return None;
        }
        let dotted = imported_name(self.facts, value, &self.scope)?;
        let top = dotted.split('.').next().unwrap_or(&dotted);
        let mut resolver = Resolver::new(self.modules);
        let library = resolver.locate(self.path, 0, top).is_err()
            && !self.modules.is_outside_repository_module(&dotted);
        library.then_some(dotted)
    }

    /// A function by its implementation digest; a nested one with its
    /// closure's values.
    fn function_identity(
        &self,
        path: &'a str,
        function: &FunctionFact,
        hops: usize,
    ) -> Option<String> {
        let mut text = format!("def {}", function.implementation_sha256);
        if function.module_level {
            return Some(text);
        }
        let facts = self.modules.facts(path)?;
        let enclosing = parent(&function.qualname);
        let frame = if path == self.path && enclosing == self.scope {
            self.params.clone()
        } else {
            Default::default()
        };
        let site = ObjectSite {
            modules: self.modules,
            path,
            facts,
            scope: enclosing.to_string(),
            params: frame,
            line: None,
        };
        for name in free_names(facts, function) {
            if !enclosing_binds(facts, enclosing, &name) {
                continue;
            }
            let value = Value::Name(name.clone().into());
            if let Some(followed) = site.follow_binding(&value, hops + 1) {
                if holds_mutable_display(followed.value, 0) {
                    return None;
                }
            }
            text.push_str(&format!(" {name}={}", site.canonical(&value, hops + 1)?));
        }
        Some(text)
    }

    /// A module-level class with no metaclass, by its digest, its
    /// decorators named as libraries' and its bases read as callables.
    fn class_identity(
        &self,
        path: &'a str,
        facts: &'a ModuleFacts,
        class: &ClassFact,
        hops: usize,
    ) -> Option<String> {
        if class.qualname != class.name || !class.keywords.is_empty() {
            return None;
        }
        let site = self.at_module_level(path, facts);
        for decorator in &class.decorators {
            let named = match decorator {
                Value::Call { callee, .. } => callee,
                other => other,
            };
            site.library_name(named)?;
        }
        let mut text = format!("class {}", class_digest(facts, class));
        for base in &class.bases {
            let base = match base {
                Value::Subscript { base, .. } => base,
                other => other,
            };
            text.push_str(&format!(
                " base {}",
                site.callable_identity(base, hops + 1)?
            ));
        }
        Some(text)
    }
}

/// The names `function`'s code (nested definitions included) reads that
/// no definition between the read and `function` binds, in name order.
fn free_names(facts: &ModuleFacts, function: &FunctionFact) -> BTreeSet<String> {
    let prefix = format!("{}.", function.qualname);
    let inner: Vec<&FunctionFact> = facts
        .functions
        .iter()
        .filter(|f| f.qualname == function.qualname || f.qualname.starts_with(&prefix))
        .collect();
    let mut free = BTreeSet::new();
    for reader in &inner {
        for name in reader.body().name_uses.keys() {
            let mut scope = reader.qualname.as_str();
            let bound_inside = loop {
                if inner
                    .iter()
                    .any(|f| f.qualname == scope && function_binds(f, name))
                {
                    break true;
                }
                if scope == function.qualname || scope.is_empty() {
                    break false;
                }
                scope = parent(scope);
            };
            if !bound_inside {
                free.insert(name.to_string());
            }
        }
    }
    free
}

/// Whether a function enclosing `scope` (or `scope` itself) binds `name`:
/// then a nested function reading it closes over that binding.
fn enclosing_binds(facts: &ModuleFacts, scope: &str, name: &str) -> bool {
    let mut scope = scope;
    while !scope.is_empty() {
        if facts
            .functions
            .iter()
            .any(|f| f.qualname == scope && function_binds(f, name))
        {
            return true;
        }
        scope = parent(scope);
    }
    false
}

fn function_binds(function: &FunctionFact, name: &str) -> bool {
    function.binds_local(name)
        || function.params.iter().any(|p| p.name == name)
        || function.nonlocals.iter().any(|n| n == name)
}

/// A list, dict or set display at any depth: what code may change after
/// it is built, so never a closure's known value.
fn holds_mutable_display(value: &Value, depth: usize) -> bool {
    if depth > super::values::MAX_VALUE_DEPTH {
        return true;
    }
    match value {
        Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::ListComprehension { .. } => true,
        Value::Tuple(items) | Value::FString(items) => {
            items.iter().any(|v| holds_mutable_display(v, depth + 1))
        }
        Value::Call { args, keywords, .. } => {
            args.iter().any(|v| holds_mutable_display(v, depth + 1))
                || keywords
                    .iter()
                    .any(|(_, v)| holds_mutable_display(v, depth + 1))
        }
        _ => false,
    }
}
