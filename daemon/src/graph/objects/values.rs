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

/// How many bindings of one name a branch read takes.
const MAX_BRANCHES: usize = 16;

/// How deep a value's structure is walked (the facts bound it as well).
pub(super) const MAX_VALUE_DEPTH: usize = 64;

impl<'a, 'm> ObjectSite<'a, 'm> {
    /// A string value as literal pieces and environment variables.
    pub(super) fn text(&self, value: &Value, hops: usize) -> Option<Pieces> {
        if let Some(env) = self.env_read(value) {
            return Some(vec![env]);
        }
        let followed = self.follow_binding(value, hops)?;
        if followed.item.is_some() {
            return None;
        }
        if let Some((path, facts)) = followed.module {
            return self
                .at_module_level(path, facts)
                .text(followed.value, hops + 1);
        }
        match followed.value {
            Value::Str(text) => Some(vec![Piece::Literal(text.to_string())]),
            Value::FString(parts) => {
                let mut pieces = Vec::new();
                for part in parts {
                    match part {
                        Value::Str(text) => pieces.push(Piece::Literal(text.to_string())),
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
                    name: var.to_string(),
                    default: default.map(Into::into),
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
                    name: var.to_string(),
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
        let Some(followed) = self.follow_binding(value, hops) else {
            // A name bound on branches before a module-level read is the
            // branches' values under their tests; any other may name a
            // definition.
            if let Some(text) = self.branch_bound(value, hops) {
                return Some(text);
            }
            return self.callable_identity(value, hops);
        };
        if followed.module.is_some() || followed.item.is_some() {
            let elsewhere = followed
                .module
                .map(|(path, facts)| self.at_module_level(path, facts));
            let text = elsewhere
                .as_ref()
                .unwrap_or(self)
                .canonical(followed.value, hops + 1)?;
            return Some(match followed.item {
                Some((index, of)) => format!("{text}[{index}/{of}]"),
                None => text,
            });
        }
        let value = followed.value;
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
            // A call by what its callee is (`callables.rs`) and its
            // arguments' values.
            Value::Call {
                callee,
                args,
                keywords,
            } => {
                let mut parts = vec![join(args)?];
                for (key, value) in keywords {
                    parts.push(format!(
                        "{}={}",
                        key.as_deref()?,
                        self.canonical(value, hops + 1)?
                    ));
                }
                let callee = self
                    .callable_identity(callee, hops)
                    .or_else(|| self.method_of_single_use(callee, hops))?;
                format!("{callee}({})", parts.join(","))
            }
            // A test on branches (`CREDENTIALS_TYPE == Types.OAUTH2`).
            Value::Compare { left, op, right } => format!(
                "({} {op:?} {})",
                self.canonical(left, hops + 1)?,
                self.canonical(right, hops + 1)?
            ),
            Value::Attribute(_) => self.callable_identity(value, hops)?,
            _ => return None,
        })
    }

    /// A module-level name bound, before the read's line, on branches of
    /// `if`/`elif`/`else` (issue 40: a credential chosen by a setting):
    /// every binding before the line with its tests, in order, read at its
    /// own line. Sound as a digest because module-level code runs once, top
    /// to bottom: the value the read sees is one of those bindings', chosen
    /// by those tests, and a change to any of them changes the text. Not
    /// read when the line is not known, the read is in a function, a
    /// binding is in a loop or handler (no test decides how often it runs)
    /// or is not an assignment, or a function rebinds the name (`global`).
    fn branch_bound(&self, value: &Value, hops: usize) -> Option<String> {
        let Value::Name(name) = value else {
            return None;
        };
        let line = self.line?;
        if hops > MAX_VALUE_HOPS
            || !self.scope.is_empty()
            || self.params.contains_key(name.as_str())
            || self
                .facts
                .functions
                .iter()
                .any(|f| f.globals.iter().any(|g| g == name))
        {
            return None;
        }
        let mut bindings: Vec<_> = self
            .facts
            .module_bindings_named(name)
            .filter(|b| b.name == *name && b.line < line)
            .collect();
        if bindings.is_empty() || bindings.len() > MAX_BRANCHES {
            return None;
        }
        bindings.sort_by_key(|b| b.line);
        let mut parts = Vec::new();
        for binding in bindings {
            if binding.type_checking {
                return None;
            }
            let guard = binding.guard.as_ref()?;
            let item = bound_item(binding.kind)?;
            let here = ObjectSite {
                modules: self.modules,
                path: self.path,
                facts: self.facts,
                scope: String::new(),
                params: Default::default(),
                line: Some(binding.line),
            };
            let mut tests = Vec::new();
            for condition in guard {
                let test = here.canonical(&condition.test, hops + 1)?;
                tests.push(if condition.holds {
                    test
                } else {
                    format!("not {test}")
                });
            }
            let mut text = here.canonical(binding.value.as_ref()?, hops + 1)?;
            if let Some((index, of)) = item {
                text = format!("{text}[{index}/{of}]");
            }
            parts.push(format!("when [{}] {text}", tests.join(" and ")));
        }
        Some(format!("one of [{}]", parts.join("; ")))
    }

    /// `client.get_secret(…)` where `client` is bound to a value the read
    /// names and used nowhere else in its module: no other code can change
    /// the object before the call, so the call is its value's method.
    fn method_of_single_use(&self, callee: &Value, hops: usize) -> Option<String> {
        let Value::Attribute(parts) = callee else {
            return None;
        };
        let [base, method] = parts.as_slice() else {
            return None;
        };
        let used_once = self.facts.name_uses.get(base).copied() == Some(1)
            && self
                .facts
                .functions
                .iter()
                .all(|f| f.body().name_uses.get(base).is_none())
            && !self
                .facts
                .attribute_stores
                .iter()
                .any(|s| s.target.first().is_some_and(|root| root == base));
        if !used_once || self.params.contains_key(base.as_str()) {
            return None;
        }
        let object = self.canonical(&Value::Name(base.clone()), hops + 1)?;
        Some(format!("{object}.{method}"))
    }

    /// Follows a plain name to the one value its scope binds it to, as
    /// [`Self::follow_binding`] does, where that value reads the same in
    /// the site's module: an item of a tuple target is not followed, and
    /// a value written in another module only when every name it spells
    /// means there what it means here.
    pub(super) fn follow<'v>(&'v self, value: &'v Value, hops: usize) -> Option<&'v Value> {
        let followed = self.follow_binding(value, hops)?;
        if followed.item.is_some() {
            return None;
        }
        if let Some((_, facts)) = followed.module {
            if !names_agree(followed.value, facts, self.facts, 0) {
                return None;
            }
        }
        Some(followed.value)
    }

    /// Follows a plain name to the one value its scope binds it to: a
    /// local assignment or tuple target, a module constant, or an imported
    /// one. Any other value is returned as is; `None` when a name cannot
    /// be followed.
    pub(super) fn follow_binding<'v>(
        &'v self,
        value: &'v Value,
        hops: usize,
    ) -> Option<Followed<'v, 'a>> {
        let here = |value: &'v Value, item: Option<(u32, u32)>| Followed {
            value,
            item,
            module: None,
        };
        let Value::Name(name) = value else {
            return Some(here(value, None));
        };
        if hops > MAX_VALUE_HOPS {
            return None;
        }
        // A parameter of the called function the site is in holds what
        // the call passed (only parameters it never rebinds are here).
        if let Some(passed) = self.params.get(name.as_str()) {
            return Some(here(passed, None));
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
                let locals: Vec<_> = function.locals_named(name).collect();
                match locals.as_slice() {
                    [] => {}
                    [binding] if !binding.conditional => {
                        return Some(here(binding.value.as_ref()?, bound_item(binding.kind)?))
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
        // A module-level tuple target (`credentials, _ = google.auth.default()`),
        // bound once: the resolver follows single names only.
        let bindings: Vec<_> = self
            .facts
            .module_bindings_named(name)
            .filter(|b| b.name == *name)
            .collect();
        if let [binding] = bindings.as_slice() {
            if let (BindingKind::Unpacked { .. }, false, false) =
                (binding.kind, binding.conditional, binding.type_checking)
            {
                return Some(here(binding.value.as_ref()?, bound_item(binding.kind)?));
            }
        }
        let mut resolver = Resolver::new(self.modules);
        let found = resolver.resolve(self.path, "", value).ok()?;
        let Target::Value { path, name, line } = found.target else {
            return None;
        };
        let facts = self.modules.facts(path)?;
        let same = std::ptr::eq(facts, self.facts);
        let value = facts
            .module_bindings_named(&name)
            .find(|b| b.name == name && b.line == line && b.kind == BindingKind::Assignment)?
            .value
            .as_ref()
            .filter(|_| same || is_constant_shaped(facts, &name))?;
        Some(Followed {
            value,
            item: None,
            module: (!same).then_some((path, facts)),
        })
    }

    /// The same site read at another module's top level: where a value
    /// written there is read in that module's names.
    pub(super) fn at_module_level(&self, path: &'a str, facts: &'a ModuleFacts) -> Self {
        ObjectSite {
            modules: self.modules,
            path,
            facts,
            scope: String::new(),
            params: std::collections::BTreeMap::new(),
            line: None,
        }
    }
}

/// A followed name's value, and where it is read.
pub(super) struct Followed<'v, 'a> {
    pub value: &'v Value,
    /// `a, b = value`: the name holds item `index` of `of`.
    pub item: Option<(u32, u32)>,
    /// The module the value is written in, when it is not the site's: its
    /// names are that module's.
    pub module: Option<(&'a str, &'a ModuleFacts)>,
}

/// `None` for a binding no value follows from; else the tuple item it
/// takes, if any.
fn bound_item(kind: BindingKind) -> Option<Option<(u32, u32)>> {
    match kind {
        BindingKind::Assignment => Some(None),
        BindingKind::Unpacked { index, of } => Some(Some((index, of))),
        _ => None,
    }
}

/// Whether every name `value` spells means in `to` what it means in
/// `from`: imported alike from the same absolute module, or bound by
/// neither (a builtin). What a value copied from another module needs to
/// read the same where it is used.
fn names_agree(value: &Value, from: &ModuleFacts, to: &ModuleFacts, depth: usize) -> bool {
    if depth > MAX_VALUE_DEPTH {
        return false;
    }
    let agree = |items: &[Value]| items.iter().all(|v| names_agree(v, from, to, depth + 1));
    match value {
        Value::Name(_) | Value::Attribute(_) => {
            let Some(head) = value.dotted() else {
                return false;
            };
            let head = head.split('.').next().unwrap_or_default().to_string();
            let head = Value::Name(head.into());
            match (imported_name(from, &head, ""), imported_name(to, &head, "")) {
                (Some(a), Some(b)) => a == b,
                (None, None) => {
                    let Value::Name(name) = &head else {
                        return false;
                    };
                    !binds_anywhere(from, name) && !binds_anywhere(to, name)
                }
                _ => false,
            }
        }
        Value::Str(_) | Value::Number(_) | Value::Bool(_) | Value::None | Value::Other(_) => true,
        Value::List(items)
        | Value::Tuple(items)
        | Value::Set(items)
        | Value::FString(items)
        | Value::Union(items)
        | Value::Or(items) => agree(items),
        Value::Starred(inner) => names_agree(inner, from, to, depth + 1),
        Value::Call {
            callee,
            args,
            keywords,
        } => {
            names_agree(callee, from, to, depth + 1)
                && agree(args)
                && keywords
                    .iter()
                    .all(|(_, v)| names_agree(v, from, to, depth + 1))
        }
        Value::Subscript { base, index } => names_agree(base, from, to, depth + 1) && agree(index),
        Value::Dict(entries) => entries.iter().all(|(k, v)| {
            k.as_ref()
                .is_none_or(|k| names_agree(k, from, to, depth + 1))
                && names_agree(v, from, to, depth + 1)
        }),
        Value::IfElse { test, body, orelse } => {
            names_agree(test, from, to, depth + 1)
                && names_agree(body, from, to, depth + 1)
                && names_agree(orelse, from, to, depth + 1)
        }
        Value::Add { left, right }
        | Value::BinOp { left, right, .. }
        | Value::Compare { left, right, .. } => {
            names_agree(left, from, to, depth + 1) && names_agree(right, from, to, depth + 1)
        }
        // Its target is bound inside it: not worth a scope model here.
        Value::ListComprehension { .. } => false,
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

/// Whether the module binds `name` anywhere (at module level, in a
/// function, or by an import).
pub(super) fn binds_anywhere(facts: &ModuleFacts, name: &str) -> bool {
    facts.module_bindings_named(name).any(|b| b.name == name)
        || facts.functions.iter().any(|f| f.binds_local(name))
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
