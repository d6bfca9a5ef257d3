//! Where a value in a tool's code comes from: the parameters the model
//! supplies, environment variables by name, literals, or something the
//! read does not name. Nothing is evaluated; a value is followed through
//! the function's own single assignments and the module's constants.

use super::Frame;
use crate::python::{BindingFact, BindingKind, Value, STRING_METHOD};

/// What one value is made from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    /// Model-supplied parameters of the tool, first seen first.
    pub params: Vec<String>,
    pub env: Vec<String>,
    /// Exactly this literal (when the whole value is one).
    pub exact: Option<Literal>,
    /// Some part is a literal (a default, a constant).
    pub literal: bool,
    /// Some part the read does not name.
    pub computed: bool,
    /// Chosen from literals by a condition on these parameters.
    pub choices: Option<(Vec<String>, Vec<String>)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Literal {
    Str(String),
    Number(String),
    Bool(bool),
    None,
}

impl Sources {
    pub fn computed() -> Self {
        Sources {
            computed: true,
            ..Sources::default()
        }
    }

    fn literal(value: Literal) -> Self {
        Sources {
            exact: Some(value),
            literal: true,
            ..Sources::default()
        }
    }

    /// Joins another part in (the whole is no longer one exact literal).
    pub fn join(&mut self, other: Sources) {
        for p in other.params {
            if !self.params.contains(&p) {
                self.params.push(p);
            }
        }
        for e in other.env {
            if !self.env.contains(&e) {
                self.env.push(e);
            }
        }
        self.literal |= other.literal;
        self.computed |= other.computed || other.choices.is_some();
        self.exact = None;
        self.choices = None;
    }
}

/// Nesting followed through names and expressions, at most.
const MAX_DEPTH: usize = 8;

impl<'a> Frame<'a> {
    /// What `value`, written in this frame's function, is made from.
    pub fn sources(&self, value: &Value) -> Sources {
        self.sources_at(value, 0)
    }

    fn sources_at(&self, value: &Value, depth: usize) -> Sources {
        if depth > MAX_DEPTH {
            return Sources::computed();
        }
        let next = depth + 1;
        match value {
            Value::Str(s) => Sources::literal(Literal::Str(s.to_string())),
            Value::Number(n) => Sources::literal(Literal::Number(n.to_string())),
            Value::Bool(b) => Sources::literal(Literal::Bool(*b)),
            Value::None => Sources::literal(Literal::None),
            Value::Other(kind) if kind == "bytes literal" => Sources {
                literal: true,
                ..Sources::default()
            },
            Value::Name(name) => self.name_sources(name, next),
            Value::FString(parts) | Value::List(parts) | Value::Tuple(parts) => {
                let mut out = Sources::default();
                for part in parts {
                    // The literal text around replacement fields is the
                    // format, not a literal value.
                    if matches!(value, Value::FString(_)) && matches!(part, Value::Str(_)) {
                        continue;
                    }
                    out.join(self.sources_at(part, next));
                }
                out
            }
            Value::Dict(entries) => {
                let mut out = Sources::default();
                for (_, v) in entries {
                    out.join(self.sources_at(v, next));
                }
                out
            }
            // `"Token " + secret`: the literal text around a value is its
            // format, as in an f-string; two literals are one literal.
            Value::Add { left, right } => {
                let (a, b) = (self.sources_at(left, next), self.sources_at(right, next));
                if a.exact.is_some() && b.exact.is_some() {
                    let mut out = a;
                    out.join(b);
                    return out;
                }
                let mut out = Sources::default();
                for part in [a, b] {
                    if matches!(part.exact, Some(Literal::Str(_))) {
                        continue;
                    }
                    out.join(part);
                }
                out
            }
            Value::IfElse { test, body, orelse } => {
                let (a, b) = (self.sources_at(body, next), self.sources_at(orelse, next));
                match (&a.exact, &b.exact) {
                    (Some(Literal::Str(x)), Some(Literal::Str(y))) => {
                        let mut values = vec![x.clone(), y.clone()];
                        values.sort();
                        values.dedup();
                        let decided_by = self.sources_at(test, next).params;
                        Sources {
                            choices: Some((values, decided_by)),
                            literal: true,
                            ..Sources::default()
                        }
                    }
                    _ => {
                        let mut out = a;
                        out.join(b);
                        out.join(self.sources_at(test, next));
                        out
                    }
                }
            }
            // A test is made from what it compares; arithmetic from its
            // operands.
            Value::Compare { left, right, .. } | Value::BinOp { left, right, .. } => {
                let mut out = self.sources_at(left, next);
                out.join(self.sources_at(right, next));
                out
            }
            // `[t.lower() for t in tags]`: made from its items and what
            // it iterates.
            Value::ListComprehension(comprehension) => {
                let mut out = self.sources_at(&comprehension.iter, next);
                out.join(self.sources_at(&comprehension.element, next));
                out
            }
            Value::Or(parts) => {
                let mut out = Sources::default();
                for part in parts {
                    out.join(self.sources_at(part, next));
                }
                out
            }
            Value::Subscript { base, .. } => match self.env_name(value) {
                Some(name) => Sources {
                    env: vec![name],
                    ..Sources::default()
                },
                None => {
                    // Part of a parameter is still made from it.
                    let mut out = self.sources_at(base, next);
                    out.exact = None;
                    out.computed = out.computed || out.params.is_empty();
                    out
                }
            },
            Value::Call {
                callee,
                args,
                keywords,
            } => {
                if let Some(name) = self.env_name(value) {
                    let mut out = Sources {
                        env: vec![name],
                        ..Sources::default()
                    };
                    // `os.getenv("KEY", "default")`: the default is a literal.
                    if let Some(default) = args.get(1) {
                        let d = self.sources_at(default, next);
                        // An empty default (`os.environ.get("TOKEN", "")`)
                        // hard-codes nothing.
                        let empty = matches!(&d.exact, Some(Literal::Str(s)) if s.is_empty());
                        if d.exact.as_ref().is_some_and(|l| *l != Literal::None) && !empty {
                            out.literal = true;
                        }
                    }
                    return out;
                }
                // A conversion, a read-only method or a pure library
                // function keeps what it is given (`body.encode()`,
                // `json.dumps(payload)`, `str(n)`).
                let conversion = matches!(callee.as_ref(), Value::Name(n) if matches!(n.as_str(), "str" | "int" | "float" | "bool" | "min" | "max" | "abs" | "round") && self.pure_builtin(n));
                let pure = self
                    .library_name(callee)
                    .is_some_and(|n| self.pure_function(&n));
                // `",".join(ids)`: a string's read-only method.
                let string_method = matches!(callee.as_ref(), Value::Other(kind) if kind.strip_prefix(STRING_METHOD).is_some_and(super::libraries::is_plain_data_method));
                let method_of = match callee.as_ref() {
                    // A read-only method keeps what its object is made
                    // from; any method of a model-supplied argument
                    // (`contact.model_dump()`) is still made from it (the
                    // walker names the call itself as a limit).
                    Value::Attribute(parts)
                        if parts.len() >= 2
                            && (parts
                                .last()
                                .is_some_and(|m| super::libraries::is_plain_data_method(m))
                                || (parts.len() == 2
                                    && self
                                        .params
                                        .get((parts[0]).as_str())
                                        .is_some_and(|s| !s.computed && !s.params.is_empty())))
                            && self.library_name(callee).is_none() =>
                    {
                        let receiver = if parts.len() == 2 {
                            Value::Name(parts[0].clone())
                        } else {
                            Value::Attribute(parts[..parts.len() - 1].to_vec())
                        };
                        Some(receiver)
                    }
                    _ => None,
                };
                if conversion || pure || string_method || method_of.is_some() {
                    let mut out = Sources::default();
                    if let Some(receiver) = &method_of {
                        out.join(self.sources_at(receiver, next));
                    }
                    for a in args {
                        out.join(self.sources_at(a, next));
                    }
                    for (_, v) in keywords {
                        out.join(self.sources_at(v, next));
                    }
                    return out;
                }
                // A repository helper's one return, read as it is called.
                if let Some((returned, frame)) = self.returned(callee, args, keywords) {
                    return frame.sources_at(&returned, next);
                }
                Sources::computed()
            }
            _ => Sources::computed(),
        }
    }

    /// What `name` is where this frame reads it, looked up in one order
    /// for every reader: a parameter rebound from itself, a helper's
    /// argument, a parameter, the function's own bindings, an enclosing
    /// function's, a comprehension's own name, then the module's.
    fn named<'n>(&'n self, name: &str) -> Named<'n, 'a> {
        if let Some((rebinding, inner)) = self.self_rebinding(name) {
            return Named::Rebound(rebinding, inner);
        }
        if let Some((passed, caller)) = self.args.get(name) {
            return Named::Passed(passed, caller);
        }
        if let Some(bound) = self.params.get(name) {
            return Named::Param(bound);
        }
        let locals = self.bindings_of(name);
        if !locals.is_empty() {
            return match locals.as_slice() {
                [one] if one.kind == BindingKind::Assignment && !one.conditional => {
                    match &one.value {
                        Some(value) => Named::Assigned(value),
                        None => Named::Unknown,
                    }
                }
                _ => Named::Bound(locals),
            };
        }
        // A name an enclosing function binds is its, never the module's.
        if let Some(closure) = self.closure_value(name) {
            return match closure {
                Some((value, outer)) => Named::Enclosing(value, outer),
                None => Named::Unknown,
            };
        }
        if self.module_binding(name).is_none()
            && self.function.is_some_and(|f| {
                f.body()
                    .loops
                    .iter()
                    .any(|l| l.name == name && l.comprehension)
            })
        {
            return Named::Comprehension;
        }
        match self.module_constant(name) {
            Some((value, module)) => Named::Module(value, module),
            None => Named::Unknown,
        }
    }

    /// A name: what it holds where that is written, by [`Frame::named`].
    fn name_sources(&self, name: &str, depth: usize) -> Sources {
        match self.named(name) {
            Named::Rebound(value, inner) => inner.sources_at(value, depth),
            Named::Passed(value, caller) => caller.sources_at(value, depth),
            Named::Param(bound) => bound.clone(),
            Named::Assigned(value) => {
                let mut out = self.sources_at(value, depth);
                // What the function adds to its own list.
                for added in self.additions(name) {
                    out.join(self.sources_at(added, depth));
                }
                out
            }
            Named::Bound(locals) => match self.loop_item(name, depth) {
                Some(item) => item,
                None => self.chosen(name, &locals, depth),
            },
            Named::Enclosing(value, outer) => outer.sources_at(&value, depth),
            Named::Comprehension => self
                .loop_item(name, depth)
                .unwrap_or_else(Sources::computed),
            Named::Module(value, module) => self.at_module(module).sources_at(&value, depth),
            Named::Unknown => Sources::computed(),
        }
    }

    /// What the function adds to a list `name` holds (`out.append(x)`,
    /// `out.extend(xs)`, `out.insert(i, x)`).
    fn additions(&self, name: &str) -> impl Iterator<Item = &Value> {
        let scope = self.scope().to_string();
        let in_function = self.function.is_some();
        let name = name.to_string();
        self.facts
            .list_additions
            .iter()
            .filter(move |a| in_function && a.scope == scope && a.target == name)
            .map(|a| &a.value)
    }

    /// What a name bound only by loops iterates: the statement loops that
    /// are its every binding in the function, or, for a name neither the
    /// function nor the module binds, the comprehensions that name it.
    pub(super) fn loop_iterables(&self, name: &str) -> Option<Vec<&'a Value>> {
        let function = self.function?;
        if self.params.contains_key(name) || self.args.contains_key(name) {
            return None;
        }
        let bindings = function.locals_named(name).count();
        let comprehension = bindings == 0;
        if comprehension && self.module_binding(name).is_some() {
            return None;
        }
        let iterables: Vec<&Value> = function
            .body()
            .loops
            .iter()
            .filter(|l| l.name == name && l.comprehension == comprehension)
            .map(|l| &l.iterable)
            .collect();
        // Each statement loop is one binding of the name.
        let all_loops = if comprehension {
            !iterables.is_empty()
        } else {
            iterables.len() == bindings
        };
        all_loops.then_some(iterables)
    }

    /// A name bound only by loops: an item of each iterable, made from
    /// what that is made from.
    fn loop_item(&self, name: &str, depth: usize) -> Option<Sources> {
        let mut out = Sources::default();
        for iterable in self.loop_iterables(name)? {
            let mut item = self.sources_at(iterable, depth + 1);
            item.exact = None;
            item.computed |= item.params.is_empty() && !item.literal;
            out.join(item);
        }
        Some(out)
    }

    /// A local the function binds more than once, each time to a string
    /// literal under `if`/`elif`/`else` tests (or unconditionally, as a
    /// default): one of those literals, decided by the parameters the
    /// tests read. Anything else it could hold (a parameter of that name,
    /// another kind of binding, a binding in a loop or handler, a nested
    /// function that rebinds it) leaves it unnamed.
    fn chosen(&self, name: &str, bindings: &[&BindingFact], depth: usize) -> Sources {
        let rebound_inside = self.function.is_some_and(|f| {
            let nested = format!("{}.", f.qualname);
            f.globals.iter().any(|g| g == name)
                || self.facts.functions.iter().any(|g| {
                    g.qualname.starts_with(&nested) && g.nonlocals.iter().any(|n| n == name)
                })
        });
        if rebound_inside || bindings.len() < 2 {
            return Sources::computed();
        }
        let mut values = Vec::new();
        let mut decided_by: Vec<String> = Vec::new();
        for binding in bindings {
            let (BindingKind::Assignment, Some(Value::Str(literal)), Some(guard)) =
                (&binding.kind, &binding.value, &binding.guard)
            else {
                return self.any_of(bindings, depth);
            };
            for condition in guard {
                for param in self.sources_at(&condition.test, depth + 1).params {
                    if !decided_by.contains(&param) {
                        decided_by.push(param);
                    }
                }
            }
            values.push(literal.to_string());
        }
        values.sort();
        values.dedup();
        Sources {
            choices: Some((values, decided_by)),
            literal: true,
            ..Sources::default()
        }
    }

    /// A local assigned more than once, not all to literals: made from
    /// whatever any of its assignments is made from (`body = summary`,
    /// then `body = summary + notes` under an `if`). Any other kind of
    /// binding leaves it unnamed.
    fn any_of(&self, bindings: &[&BindingFact], depth: usize) -> Sources {
        let mut out = Sources::default();
        for binding in bindings {
            match (&binding.kind, &binding.value) {
                (BindingKind::Assignment, Some(value)) => {
                    out.join(self.sources_at(value, depth + 1))
                }
                _ => return Sources::computed(),
            }
        }
        out
    }

    /// `os.environ["X"]`, `os.environ.get("X")`, `os.getenv("X")`: `X`.
    pub fn env_name(&self, value: &Value) -> Option<String> {
        match value {
            Value::Subscript { base, index } => {
                let base = self.library_name(base)?;
                match (base.as_str(), index.as_slice()) {
                    ("os.environ", [Value::Str(name)]) => Some(name.to_string()),
                    _ => None,
                }
            }
            Value::Call { callee, args, .. } => {
                let callee = self.library_name(callee)?;
                match (callee.as_str(), args.first()) {
                    ("os.getenv" | "os.environ.get", Some(Value::Str(name))) => {
                        Some(name.to_string())
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The URL template of a value: literal text, `{param}`, `{env NAME}`,
    /// `{…}` for a part the read cannot name.
    pub fn template(&self, value: &Value) -> String {
        self.template_at(value, 0)
    }

    fn template_at(&self, value: &Value, depth: usize) -> String {
        if depth > MAX_DEPTH {
            return "{…}".into();
        }
        let next = depth + 1;
        match value {
            Value::Str(s) => s.to_string(),
            Value::FString(parts) => parts.iter().map(|p| self.template_at(p, next)).collect(),
            Value::Add { left, right } => {
                format!(
                    "{}{}",
                    self.template_at(left, next),
                    self.template_at(right, next)
                )
            }
            Value::Name(name) => match self.named(name) {
                Named::Rebound(value, inner) => inner.template_at(value, next),
                Named::Passed(value, caller) => caller.template_at(value, next),
                Named::Param(bound) => piece(bound),
                Named::Assigned(value) => self.template_at(value, next),
                Named::Enclosing(value, outer) => outer.template_at(&value, next),
                Named::Module(value, module) => self.at_module(module).template_at(&value, next),
                Named::Bound(_) | Named::Comprehension | Named::Unknown => "{…}".into(),
            },
            Value::Call {
                callee,
                args,
                keywords,
            } => {
                if let Some(name) = self.env_name(value) {
                    // `os.getenv("X", default)`: the variable, or a default.
                    return if args.len() > 1 {
                        format!("{{env {name}|…}}")
                    } else {
                        format!("{{env {name}}}")
                    };
                }
                let conversion =
                    matches!(callee.as_ref(), Value::Name(n) if n == "str" && !self.shadows(n));
                match (conversion, args.as_slice()) {
                    (true, [one]) => self.template_at(one, next),
                    _ => match self.returned(callee, args, keywords) {
                        Some((returned, frame)) => frame.template_at(&returned, next),
                        None => "{…}".into(),
                    },
                }
            }
            Value::Subscript { .. } => match self.env_name(value) {
                Some(name) => format!("{{env {name}}}"),
                None => "{…}".into(),
            },
            Value::Attribute(_) => match self.module_attribute_constant(value) {
                Some((value, module)) => self.at_module(module).template_at(&value, next),
                None => "{…}".into(),
            },
            _ => "{…}".into(),
        }
    }
}

/// What a name is where a frame reads it (see [`Frame::named`]).
enum Named<'n, 'a> {
    /// A parameter rebound from itself: the rebinding, read where the
    /// parameter is as passed.
    Rebound(&'a Value, Frame<'a>),
    /// A helper's argument, as its caller wrote it.
    Passed(&'n Value, &'n Frame<'a>),
    /// A parameter's sources.
    Param(&'n Sources),
    /// The function's one unconditional assignment.
    Assigned(&'a Value),
    /// The function binds it several times or otherwise (loops, branches).
    Bound(Vec<&'a BindingFact>),
    /// An enclosing function's constant.
    Enclosing(Value, Frame<'a>),
    /// A comprehension's own name.
    Comprehension,
    /// A module constant, and the module binding it.
    Module(Value, &'a str),
    /// Nothing the read takes as written.
    Unknown,
}

/// Whether `value` reads the name `name` anywhere.
pub fn mentions(value: &Value, name: &str) -> bool {
    let any = |values: &[Value]| values.iter().any(|v| mentions(v, name));
    match value {
        Value::Name(n) => n == name,
        Value::Attribute(parts) => parts.first().is_some_and(|p| p == name),
        Value::List(items)
        | Value::Tuple(items)
        | Value::Set(items)
        | Value::Union(items)
        | Value::FString(items)
        | Value::Or(items) => any(items),
        Value::Starred(inner) => mentions(inner, name),
        Value::Call {
            callee,
            args,
            keywords,
        } => mentions(callee, name) || any(args) || keywords.iter().any(|(_, v)| mentions(v, name)),
        Value::Subscript { base, index } => mentions(base, name) || any(index),
        Value::Dict(entries) => entries
            .iter()
            .any(|(k, v)| k.as_ref().is_some_and(|k| mentions(k, name)) || mentions(v, name)),
        Value::ListComprehension(comprehension) => {
            mentions(&comprehension.element, name)
                || mentions(&comprehension.iter, name)
                || any(&comprehension.conditions)
        }
        Value::IfElse { test, body, orelse } => {
            mentions(test, name) || mentions(body, name) || mentions(orelse, name)
        }
        Value::Add { left, right }
        | Value::Compare { left, right, .. }
        | Value::BinOp { left, right, .. } => mentions(left, name) || mentions(right, name),
        Value::Str(_) | Value::Number(_) | Value::Bool(_) | Value::None | Value::Other(_) => false,
    }
}

/// One piece of a template from what a parameter holds.
fn piece(sources: &Sources) -> String {
    match (
        &sources.exact,
        sources.params.as_slice(),
        sources.env.as_slice(),
    ) {
        (Some(Literal::Str(s)), [], []) => s.clone(),
        (Some(Literal::Number(n)), [], []) => n.clone(),
        (None, [param], []) if !sources.computed && !sources.literal => format!("{{{param}}}"),
        (None, [], [env]) if !sources.computed && !sources.literal => format!("{{env {env}}}"),
        _ => "{…}".into(),
    }
}
