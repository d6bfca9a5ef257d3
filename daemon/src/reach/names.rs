//! What a name holds where a frame reads it: the function's own bindings,
//! a parameter rebound from itself, an enclosing function's constant, a
//! module's constant (followed through an import), and the library an
//! import names.

use super::values::Sources;
use super::{injected, libraries, rebinds_from_itself, Frame};
use crate::python::{BindingFact, BindingKind, Value};
use crate::resolve::Resolver;
use std::rc::Rc;

impl<'a> Frame<'a> {
    /// What a name the function does not bind holds in an enclosing
    /// function: `None` when no enclosing function binds it (it is the
    /// module's); `Some(None)` when one does but the read cannot take it
    /// as written (a parameter of the factory, a dict or list the closures
    /// share, a name bound more than once, or one a nested function
    /// rebinds with `nonlocal`); `Some(Some(..))` a constant it binds once.
    pub(super) fn closure_value(&self, name: &str) -> Option<Option<(Value, Frame<'a>)>> {
        let function = self.function?;
        let (outer, _) = function.qualname.rsplit_once('.')?;
        let parent = self.facts.functions.iter().find(|f| f.qualname == outer)?;
        let frame = Frame {
            modules: self.modules,
            census: self.census,
            path: self.path,
            facts: self.facts,
            function: Some(parent),
            params: parent
                .params
                .iter()
                .map(|p| (p.name.to_string(), Sources::computed()))
                .collect(),
            args: Rc::default(),
            via: self.via.clone(),
            depth: self.depth,
            recursion: 0,
            prior: Vec::new(),
        };
        let bindings: Vec<_> = parent.locals_named(name).collect();
        if bindings.is_empty() {
            return frame.closure_value(name);
        }
        let nested = format!("{outer}.");
        let rebound = self
            .facts
            .functions
            .iter()
            .any(|f| f.qualname.starts_with(&nested) && f.nonlocals.iter().any(|n| n == name));
        let readable = match bindings.as_slice() {
            [one] if !rebound && one.kind == BindingKind::Assignment && !one.conditional => {
                one.value.clone().filter(|v| {
                    matches!(
                        v,
                        Value::Str(_)
                            | Value::Number(_)
                            | Value::Bool(_)
                            | Value::FString(_)
                            | Value::Add { .. }
                    )
                })
            }
            _ => None,
        };
        Some(readable.map(|value| (value, frame)))
    }

    /// Follows a name to the value it holds where that is written: a
    /// helper's argument (in its caller's frame) or the function's own
    /// single assignment; anything else stays as it is.
    pub(super) fn resolved(&self, value: &Value, depth: usize) -> (Value, Frame<'a>) {
        if depth < 8 {
            if let Value::Name(name) = value {
                if let Some((rebinding, inner)) = self.self_rebinding(name) {
                    return inner.resolved(rebinding, depth + 1);
                }
                if let Some((passed, caller)) = self.args.get(name.as_str()) {
                    return caller.resolved(passed, depth + 1);
                }
                if !self.params.contains_key(name.as_str()) {
                    let locals: Vec<_> = self.locals().iter().filter(|b| b.name == *name).collect();
                    if let [one] = locals.as_slice() {
                        if one.kind == BindingKind::Assignment && !one.conditional {
                            if let Some(bound) = &one.value {
                                return self.resolved(bound, depth + 1);
                            }
                        }
                    }
                }
            }
        }
        (value.clone(), self.clone())
    }

    /// The one unconditional assignment that rebinds parameter `name`
    /// from its own value (`headers = headers or {}`), with the frame
    /// that reads it (where `name` is the parameter as passed); `None`
    /// inside it already, or when there is none.
    pub(super) fn self_rebinding(&self, name: &str) -> Option<(&'a Value, Frame<'a>)> {
        if self.prior.iter().any(|p| p == name) {
            return None;
        }
        let function = self.function?;
        if !rebinds_from_itself(function, name) {
            return None;
        }
        let value = function
            .body()
            .locals
            .iter()
            .find(|b| b.name == name && b.kind != BindingKind::Parameter)?
            .value
            .as_ref()?;
        let mut inner = self.clone();
        inner.prior.push(name.to_string());
        Some((value, inner))
    }

    /// Whether `name` is a parameter the framework injects (a run or tool
    /// context), not one the model supplies.
    pub(super) fn is_injected(&self, name: &str) -> bool {
        self.function
            .is_some_and(|f| f.params.iter().any(|p| p.name == name && injected(p)))
    }

    pub(super) fn scope(&self) -> &str {
        self.function.map_or("", |f| f.qualname.as_str())
    }

    pub(super) fn locals(&self) -> &'a [BindingFact] {
        match self.function {
            Some(function) => &function.body().locals,
            None => &[],
        }
    }

    /// Whether the module or the function binds `name` (so a builtin of
    /// that name is not the builtin).
    pub(super) fn shadows(&self, name: &str) -> bool {
        self.locals().iter().any(|b| b.name == name)
            || self
                .facts
                .module_bindings_named(name)
                .any(|b| b.name == name)
    }

    /// The module's one top-level binding of `name`, if it binds it once.
    pub(super) fn module_binding(&self, name: &str) -> Option<&'a BindingFact> {
        let mut bindings = self
            .facts
            .module_bindings_named(name)
            .filter(|b| b.name == name);
        let first = bindings.next()?;
        bindings.next().is_none().then_some(first)
    }

    /// The function's own bindings of `name`: a parameter the function
    /// overwrites (once, unconditionally) is that assignment.
    pub(super) fn bindings_of(&self, name: &str) -> Vec<&'a BindingFact> {
        let all: Vec<&'a BindingFact> = self.locals().iter().filter(|b| b.name == name).collect();
        let assigned: Vec<&'a BindingFact> = all
            .iter()
            .copied()
            .filter(|b| b.kind != BindingKind::Parameter)
            .collect();
        match assigned.as_slice() {
            [one] if one.kind == BindingKind::Assignment && !one.conditional => vec![one],
            _ => all,
        }
    }

    /// `config.API_BASE`: a constant another module of the scope binds.
    pub(super) fn module_attribute_constant(&self, value: &Value) -> Option<(Value, &'a str)> {
        if let Value::Attribute(parts) = value {
            if parts
                .last()
                .is_some_and(|a| self.census.rebound.contains(a.as_str()))
            {
                return None;
            }
        }
        let mut resolver = Resolver::new(self.modules);
        let found = resolver.resolve(self.path, self.scope(), value).ok()?;
        let crate::resolve::Target::Value { path, name, line } = found.target else {
            return None;
        };
        let facts = self.modules.facts(path)?;
        let bound = facts.module_bindings.iter().find(|b| {
            b.name == name && b.line == line && b.kind == BindingKind::Assignment && !b.conditional
        })?;
        let value = bound.value.clone()?;
        self.is_constant(&value, path).then_some((value, path))
    }

    /// Whether a module-level value bound once is read as a constant: a
    /// string, number or string expression, or an environment variable
    /// read there (`os.environ.get("API_URL", "https://…")`).
    fn is_constant(&self, value: &Value, path: &'a str) -> bool {
        // A namespace changed under names the read cannot see.
        if self.census.namespaces.withholds(path) || self.census.namespaces.withholds(self.path) {
            return false;
        }
        match value {
            Value::Str(_)
            | Value::Number(_)
            | Value::Bool(_)
            | Value::FString(_)
            | Value::Add { .. } => true,
            Value::Call { .. } | Value::Subscript { .. } => {
                self.at_module(path).env_name(value).is_some()
            }
            _ => false,
        }
    }

    /// A library function the read takes as pure, not replaced anywhere in
    /// the scope.
    pub(super) fn pure_function(&self, name: &str) -> bool {
        libraries::is_pure_function(name) && !self.census.replaced.contains(name)
    }

    /// A builtin with no effect outside the process, that neither this
    /// module nor the scope (through `builtins`) rebinds.
    pub(super) fn pure_builtin(&self, name: &str) -> bool {
        libraries::is_pure_builtin(name)
            && !self.shadows(name)
            && self
                .census
                .rebuilt
                .as_ref()
                .is_some_and(|set| !set.contains(name))
    }

    /// The absolute library name a callee or value spells, when an import
    /// of a library (not the repository's own code) binds it.
    pub(super) fn library_name(&self, value: &Value) -> Option<String> {
        let name = crate::frameworks::imports::imported_name(self.facts, value, self.scope())?;
        let first = name.split('.').next().unwrap_or(&name);
        let mut resolver = Resolver::new(self.modules);
        if resolver.module_file(self.path, 0, first).is_some()
            || self.modules.is_outside_repository_module(first)
        {
            return None;
        }
        Some(name)
    }

    /// A module-level constant `name` holds, followed through an import to
    /// the module that binds it: only a string, number or string
    /// expression bound once, unconditionally (a module-level dict's
    /// values are never taken as written).
    pub(super) fn module_constant(&self, name: &str) -> Option<(Value, &'a str)> {
        if self.census.rebound.contains(name) {
            return None;
        }
        let binding = self.module_binding(name)?;
        if binding.conditional {
            return None;
        }
        let (value, path) = match binding.kind {
            BindingKind::Assignment => (binding.value.clone()?, self.path),
            BindingKind::Import => {
                let mut resolver = Resolver::new(self.modules);
                let found = resolver
                    .resolve(self.path, "", &Value::Name(name.to_string().into()))
                    .ok()?;
                let crate::resolve::Target::Value { path, name, line } = found.target else {
                    return None;
                };
                let facts = self.modules.facts(path)?;
                let bound = facts.module_bindings.iter().find(|b| {
                    b.name == name
                        && b.line == line
                        && b.kind == BindingKind::Assignment
                        && !b.conditional
                })?;
                (bound.value.clone()?, path)
            }
            _ => return None,
        };
        self.is_constant(&value, path).then_some((value, path))
    }
}
