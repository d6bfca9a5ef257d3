//! An argument's value as the site's names give it: a name followed to the
//! one constant its scope (or an imported module) binds it to, a string
//! read as literal text and environment variables, a literal's canonical
//! text for a digest.

use super::pieces::{canonical_pieces, Piece, Pieces};
use super::ObjectSite;
use crate::frameworks::imports::imported_name;
use crate::graph::schema::unparse;
use crate::python::{BindingKind, ModuleFacts, Value};
use crate::resolve::{Resolver, Target};

/// How many names a value is followed through (`URL = BASE`, imports).
const MAX_VALUE_HOPS: usize = 8;

impl ObjectSite<'_, '_> {
    /// A string value as literal pieces and environment variables.
    pub(super) fn text(&self, value: &Value, hops: usize) -> Option<Pieces> {
        if let Some(env) = self.env_read(value) {
            return Some(vec![env]);
        }
        match self.follow(value, hops)? {
            Value::Str(text) => Some(vec![Piece::Literal(text.clone())]),
            Value::FString(parts) => {
                let mut pieces = Vec::new();
                for part in parts {
                    match part {
                        Value::Str(text) => pieces.push(Piece::Literal(text.clone())),
                        other => pieces.extend(self.text(other, hops + 1)?),
                    }
                }
                Some(pieces)
            }
            other if std::ptr::eq(other, value) => None,
            other => self.text(other, hops + 1),
        }
    }

    /// `os.getenv("X", default)`, `os.environ.get("X")`, `os.environ["X"]`.
    pub(super) fn env_read(&self, value: &Value) -> Option<Piece> {
        match value {
            Value::Call { callee, args, .. } => {
                let name = imported_name(self.facts, callee, &self.scope)?;
                if name != "os.getenv" && name != "os.environ.get" {
                    return None;
                }
                let Some(Value::Str(var)) = args.first() else {
                    return None;
                };
                let default = match args.get(1) {
                    None => None,
                    Some(Value::Str(text)) => Some(text.clone()),
                    Some(_) => return None,
                };
                Some(Piece::Env {
                    name: var.clone(),
                    default,
                })
            }
            Value::Subscript { base, index } => {
                if imported_name(self.facts, base, &self.scope).as_deref() != Some("os.environ") {
                    return None;
                }
                let [Value::Str(var)] = index.as_slice() else {
                    return None;
                };
                Some(Piece::Env {
                    name: var.clone(),
                    default: None,
                })
            }
            _ => None,
        }
    }

    /// A literal value's canonical text (for a digest), following names to
    /// their one constant binding; `None` when any part is not a literal.
    pub fn canonical(&self, value: &Value, hops: usize) -> Option<String> {
        if hops > MAX_VALUE_HOPS {
            return None;
        }
        if let Some(env) = self.env_read(value) {
            return Some(canonical_pieces(&[env]));
        }
        // `__file__` is the module's own file, where the module is (a path
        // made from it names the same place when the module moves).
        if matches!(value, Value::Name(name) if name == "__file__")
            && !binds_anywhere(self.facts, "__file__")
        {
            return Some("__file__".to_string());
        }
        let value = self.follow(value, hops)?;
        let join = |items: &[Value]| -> Option<String> {
            Some(
                items
                    .iter()
                    .map(|item| self.canonical(item, hops + 1))
                    .collect::<Option<Vec<_>>>()?
                    .join(","),
            )
        };
        Some(match value {
            Value::Str(_) | Value::Number(_) | Value::Bool(_) | Value::None => unparse(value),
            Value::FString(_) => canonical_pieces(&self.text(value, hops)?),
            Value::List(items) => format!("[{}]", join(items)?),
            Value::Tuple(items) => format!("({})", join(items)?),
            // A set's order is not its value: its members sorted, once each.
            Value::Set(items) => {
                let mut texts = items
                    .iter()
                    .map(|item| self.canonical(item, hops + 1))
                    .collect::<Option<Vec<_>>>()?;
                texts.sort_unstable();
                texts.dedup();
                format!("{{{}}}", texts.join(","))
            }
            Value::Dict(items) => {
                let mut parts = Vec::new();
                for (key, value) in items {
                    let key = self.canonical(key.as_ref()?, hops + 1)?;
                    parts.push(format!("{key}:{}", self.canonical(value, hops + 1)?));
                }
                format!("{{{}}}", parts.join(","))
            }
            // A nested constructor (`UserLocation(city="x")`) by its spelling
            // and its literal arguments: only a library's, or a builtin's.
            // A repository function or class is what its code makes of the
            // arguments, which the spelling does not carry (a changed body
            // would be silence).
            Value::Call {
                callee,
                args,
                keywords,
            } if self.is_library_callable(callee) => {
                let mut parts = vec![join(args)?];
                for (key, value) in keywords {
                    parts.push(format!(
                        "{}={}",
                        key.as_deref()?,
                        self.canonical(value, hops + 1)?
                    ));
                }
                format!("{}({})", callee.dotted()?, parts.join(","))
            }
            _ => return None,
        })
    }

    /// Follows a plain name to the one value its scope binds it to: a
    /// local assignment, a module constant, or an imported one. Any other
    /// value is returned as is; `None` when a name cannot be followed.
    pub(super) fn follow<'v>(&'v self, value: &'v Value, hops: usize) -> Option<&'v Value> {
        let Value::Name(name) = value else {
            return Some(value);
        };
        if hops > MAX_VALUE_HOPS {
            return None;
        }
        // A parameter of the called function the site is in holds what
        // the call passed (only parameters it never rebinds are here).
        if let Some(passed) = self.params.get(name) {
            return Some(passed);
        }
        // The innermost function that binds the name decides, as Python
        // looks it up; a closure some function rebinds (`nonlocal`) is not
        // a constant.
        if self
            .facts
            .functions
            .iter()
            .any(|f| f.nonlocals.iter().any(|n| n == name))
        {
            return None;
        }
        let mut scope = self.scope.as_str();
        while !scope.is_empty() {
            if let Some(function) = self.facts.functions.iter().find(|f| f.qualname == scope) {
                let locals: Vec<_> = function.locals.iter().filter(|b| b.name == *name).collect();
                match locals.as_slice() {
                    [] => {}
                    [binding]
                        if binding.kind == BindingKind::Assignment && !binding.conditional =>
                    {
                        return binding.value.as_ref();
                    }
                    _ => return None,
                }
            }
            scope = scope.rsplit_once('.').map_or("", |(parent, _)| parent);
        }
        // A module name another function rebinds (`global NAME`) is not a
        // constant.
        if self
            .facts
            .functions
            .iter()
            .any(|f| f.globals.iter().any(|g| g == name))
        {
            return None;
        }
        let mut resolver = Resolver::new(self.modules);
        let found = resolver.resolve(self.path, "", value).ok()?;
        let Target::Value { path, name, line } = found.target else {
            return None;
        };
        let facts = self.modules.facts(path)?;
        facts
            .module_bindings
            .iter()
            .find(|b| b.name == name && b.line == line && b.kind == BindingKind::Assignment)?
            .value
            .as_ref()
            .filter(|_| std::ptr::eq(facts, self.facts) || is_constant_shaped(facts, &name))
    }
}

impl ObjectSite<'_, '_> {
    /// `value` as a literal, a name followed to the one literal it is
    /// bound to: what a call passes that reads the same in any frame.
    pub fn literal(&self, value: &Value) -> Option<Value> {
        let value = self.follow(value, 0)?;
        is_literal(value).then(|| value.clone())
    }
}

/// Literals, and displays and f-strings of literals only.
fn is_literal(value: &Value) -> bool {
    match value {
        Value::Str(_) | Value::Number(_) | Value::Bool(_) | Value::None => true,
        Value::List(items) | Value::Tuple(items) | Value::Set(items) | Value::FString(items) => {
            items.iter().all(is_literal)
        }
        Value::Dict(entries) => entries
            .iter()
            .all(|(key, value)| key.as_ref().is_some_and(is_literal) && is_literal(value)),
        _ => false,
    }
}

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

impl ObjectSite<'_, '_> {
    /// Whether `callee` is a library's callable (named by an absolute
    /// import of a module the repository does not hold) or a value builtin
    /// the module never rebinds.
    fn is_library_callable(&self, callee: &Value) -> bool {
        if let Value::Name(name) = callee {
            if VALUE_BUILTINS.contains(&name.as_str()) {
                return !binds_anywhere(self.facts, name);
            }
        }
        let Some(dotted) = imported_name(self.facts, callee, &self.scope) else {
            return false;
        };
        let top = dotted.split('.').next().unwrap_or(&dotted);
        let mut resolver = Resolver::new(self.modules);
        resolver.locate(self.path, 0, top).is_err()
            && !self.modules.is_outside_repository_module(&dotted)
    }
}

/// Whether the module binds `name` anywhere (at module level, in a
/// function, or by an import).
fn binds_anywhere(facts: &ModuleFacts, name: &str) -> bool {
    facts.module_bindings.iter().any(|b| b.name == name)
        || facts
            .functions
            .iter()
            .any(|f| f.locals.iter().any(|b| b.name == name))
        || facts.imports.iter().any(|i| i.bound_name() == name)
}

/// A value followed into another module is read only when that module
/// rebinds it nowhere (`global`).
fn is_constant_shaped(facts: &ModuleFacts, name: &str) -> bool {
    !facts
        .functions
        .iter()
        .any(|f| f.globals.iter().any(|g| g == name))
}
