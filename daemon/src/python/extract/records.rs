//! The facts the walk records beside bindings: stores into attributes and
//! named objects, loops, dynamic imports, list additions and other in-place
//! changes, a function body's calls, `setattr`, function definitions with
//! their parameters, and imports.

use super::values::value_of;
use super::Collector;
use crate::python::facts::*;
use crate::python::{FunctionBody, LazyBody};
use ruff_python_ast::{self as ast, Expr, Stmt};

impl Collector<'_> {
    /// Records a write into `a.b` (with a plain-name base), or into the
    /// object a plain name holds.
    pub(super) fn record_attribute_store(&mut self, target: &Expr, how: StoreKind) {
        let parts = match value_of(target, 0) {
            Value::Attribute(parts) => Some(parts),
            // `t[0] = x`, `t.append(x)`: a write into the object `t` names.
            Value::Name(name) if !matches!(how, StoreKind::Assignment | StoreKind::Setattr) => {
                Some(vec![name])
            }
            _ => None,
        };
        if let Some(parts) = parts {
            let line = self.line_of(target);
            let scope = self.scope_name();
            self.facts.attribute_stores.push(AttributeStore {
                target: parts,
                line,
                scope: scope.into(),
                how,
            });
        }
    }

    /// Records `object.name = value` and `object[key] = value` in a
    /// function's body, with the value, when the object is a name or a
    /// dotted path: what a request body or a client holds after it is built.
    pub(super) fn record_value_store(&mut self, target: &Expr, value: &Expr) {
        let (object, under) = match target {
            Expr::Attribute(attr) => (
                value_of(&attr.value, 0),
                StoredUnder::Attribute(attr.attr.id.as_str().into()),
            ),
            Expr::Subscript(subscript) => (
                value_of(&subscript.value, 0),
                StoredUnder::Key(value_of(&subscript.slice, 0)),
            ),
            _ => return,
        };
        let object = match object {
            Value::Name(name) => vec![name],
            Value::Attribute(parts) => parts,
            _ => return,
        };
        let line = self.line_of(target);
        let value = value_of(value, 0);
        let store = ValueStore {
            object,
            under,
            value,
            line,
            conditional: self.conditional(),
        };
        if self.at_module_level() {
            self.facts.module_stores.push(store);
        } else if let Some(function) = self.current_function() {
            function.lazy_body.get_mut().stores.push(store);
        }
    }

    /// Records `for name in iterable` (a statement's or a comprehension's)
    /// in a function's body, when the target is a plain name.
    pub(super) fn record_loop(&mut self, target: &Expr, iterable: &Expr, comprehension: bool) {
        let Expr::Name(name) = target else {
            return;
        };
        let target = LoopTarget {
            name: name.id.as_str().into(),
            iterable: value_of(iterable, 0),
            line: self.line_of(name),
            comprehension,
        };
        if let Some(function) = self.current_function() {
            function.lazy_body.get_mut().loops.push(target);
        }
    }

    /// Records `importlib.import_module("a.b")` (or `import_module(...)`)
    /// with a literal, absolute name.
    pub(super) fn record_dynamic_import(&mut self, call: &ast::ExprCall) {
        let named = match call.func.as_ref() {
            Expr::Attribute(attr) => {
                attr.attr.id.as_str() == "import_module"
                    && matches!(attr.value.as_ref(), Expr::Name(n) if n.id.as_str() == "importlib")
            }
            Expr::Name(name) => name.id.as_str() == "import_module",
            _ => false,
        };
        if !named || call.arguments.args.len() != 1 || !call.arguments.keywords.is_empty() {
            return;
        }
        if let Some(Expr::StringLiteral(module)) = call.arguments.args.first() {
            let module = module.value.to_str();
            if !module.starts_with('.') && !module.is_empty() {
                self.facts.dynamic_imports.push(module.to_string().into());
            }
        }
    }

    /// Records `a.b.append(x)` and the other in-place list changes.
    pub(super) fn record_mutating_call(&mut self, call: &ast::ExprCall) {
        const MUTATORS: &[&str] = &[
            "append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse",
        ];
        let Expr::Attribute(method) = call.func.as_ref() else {
            return;
        };
        if let (Some(target), "append" | "extend" | "insert") =
            (list_target(&method.value), method.attr.id.as_str())
        {
            let added = match (method.attr.id.as_str(), call.arguments.args.as_ref()) {
                ("insert", [_, value]) | ("append" | "extend", [value]) => Some(value),
                _ => None,
            };
            let extend = self.loop_extends.remove(&(call as *const ast::ExprCall));
            if let Some(extend) = extend {
                self.facts.list_additions.push(ListAddition {
                    target: target.into(),
                    how: "extend".into(),
                    value: extend.sequence,
                    line: self.line_of(call),
                    scope: self.scope_name().into(),
                    conditional: extend.conditional,
                    guard: extend.guard,
                    protected: extend.protected,
                });
            } else if let Some(value) = added.filter(|_| call.arguments.keywords.is_empty()) {
                let addition = ListAddition {
                    target: target.into(),
                    how: method.attr.id.as_str().into(),
                    value: value_of(value, 0),
                    line: self.line_of(call),
                    scope: self.scope_name().into(),
                    conditional: self.conditional(),
                    guard: self.guard(),
                    protected: self.protected(),
                };
                self.facts.list_additions.push(addition);
            }
        }
        if MUTATORS.contains(&method.attr.id.as_str())
            && matches!(method.value.as_ref(), Expr::Attribute(_) | Expr::Name(_))
        {
            self.record_attribute_store(
                &method.value,
                StoreKind::MethodCall(method.attr.id.as_str().into()),
            );
        }
    }

    /// A call in a function's own body, for what the function reaches.
    pub(super) fn record_body_call(&mut self, call: &ast::ExprCall) {
        let line = self.line_of(call);
        let at_module = self.at_module_level();
        if self.current_function().is_none() && !at_module {
            return;
        }
        let receiver = match call.func.as_ref() {
            Expr::Attribute(attr) => match value_of(&attr.value, 0) {
                Value::Name(_) | Value::Attribute(_) => None,
                other => Some(Box::new((other, Text::from(attr.attr.id.as_str())))),
            },
            _ => None,
        };
        let chain = match call.func.as_ref() {
            Expr::Attribute(attr) => method_chain(&attr.value).map(Box::new),
            _ => None,
        };
        let fact = BodyCall {
            callee: value_of(&call.func, 0),
            receiver,
            chain,
            args: call.arguments.args.iter().map(|a| value_of(a, 0)).collect(),
            keywords: call
                .arguments
                .keywords
                .iter()
                .map(|k| {
                    (
                        k.arg.as_ref().map(|a| Text::from(a.id.as_str())),
                        value_of(&k.value, 0),
                    )
                })
                .collect(),
            line,
        };
        match self.current_function() {
            Some(function) => function.lazy_body.get_mut().body_calls.push(fact),
            None => self.facts.module_calls.push(fact),
        }
    }

    /// Records an attribute name spelled inside class bodies: every class
    /// the code is in, methods and nested definitions included.
    pub(super) fn record_class_attribute(&mut self, attribute: &str) {
        let classes: Vec<usize> = self.scopes.iter().filter_map(|s| s.class).collect();
        for index in classes {
            if let Some(class) = self.facts.classes.get_mut(index) {
                class.attribute_names.add(attribute);
            }
        }
    }

    /// Records `setattr(obj, "name", value)` as a store into `obj`.
    pub(super) fn record_setattr(&mut self, call: &ast::ExprCall) {
        let is_setattr =
            matches!(call.func.as_ref(), Expr::Name(name) if name.id.as_str() == "setattr");
        let Some(object) = call.arguments.args.first().filter(|_| is_setattr) else {
            return;
        };
        let mut target = match value_of(object, 0) {
            Value::Name(name) => vec![name],
            Value::Attribute(parts) => parts,
            _ => return,
        };
        target.push(match call.arguments.args.get(1) {
            Some(Expr::StringLiteral(name)) => name.value.to_str().into(),
            _ => "*".into(),
        });
        let line = self.line_of(call);
        let scope = self.scope_name();
        self.facts.attribute_stores.push(AttributeStore {
            target,
            line,
            scope: scope.into(),
            how: StoreKind::Setattr,
        });
    }

    pub(super) fn record_function(&mut self, def: &ast::StmtFunctionDef) -> usize {
        let name = def.name.id.to_string();
        let line = self.line_of(&def.name);
        self.bind(&name, BindingKind::Function, line);
        let mut qualname: Vec<&str> = self.scopes.iter().map(|f| f.name.as_str()).collect();
        qualname.push(&name);
        let params = parameters(&def.parameters);
        let locals = params
            .iter()
            .map(|p| BindingFact {
                name: p.name.clone(),
                kind: BindingKind::Parameter,
                line,
                conditional: false,
                type_checking: false,
                value: None,
                guard: Some(Vec::new()),
            })
            .collect();
        let fact = FunctionFact {
            qualname: qualname.join(".").into(),
            name: name.into(),
            line,
            is_async: def.is_async,
            module_level: self.at_module_level(),
            decorators: def
                .decorator_list
                .iter()
                .map(|d| value_of(&d.expression, 0))
                .collect(),
            params,
            returns: def.returns.as_deref().map(|r| value_of(r, 0)),
            implementation_sha256: crate::python::ast_dump::implementation_sha256(def).into(),
            nonlocals: Vec::new(),
            globals: Vec::new(),
            ends_with_return: matches!(def.body.last(), Some(Stmt::Return(_))),
            is_generator: false,
            lazy_body: LazyBody::open(FunctionBody {
                locals,
                ..FunctionBody::default()
            }),
            assigns: Default::default(),
            aliases: Default::default(),
            calls: Default::default(),
        };
        self.facts.functions.push(fact);
        self.facts.functions.len() - 1
    }

    pub(super) fn record_import(
        &mut self,
        module: &str,
        level: u32,
        alias: &ast::Alias,
        from: bool,
    ) {
        let fact = ImportFact {
            module: module.to_string().into(),
            level,
            name: from.then(|| alias.name.id.as_str().into()),
            asname: alias.asname.as_ref().map(|a| a.id.as_str().into()),
            line: self.line_of(alias),
            scope: self.scope_name().into(),
            conditional: self.conditional(),
            type_checking: self.type_checking_depth > 0,
        };
        let bound = fact.bound_name().to_string();
        let line = fact.line;
        self.facts.imports.push(fact);
        self.bind(&bound, BindingKind::Import, line);
    }
}

/// The list a list addition changes: a plain name (`tools`) or one
/// attribute of one (`triage.handoffs`, a rewire).
pub(super) fn list_target(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Name(name) => Some(name.id.to_string()),
        Expr::Attribute(attr) => match attr.value.as_ref() {
            Expr::Name(object) => Some(format!("{}.{}", object.id, attr.attr.id)),
            _ => None,
        },
        _ => None,
    }
}

fn parameters(parameters: &ast::Parameters) -> Vec<ParamFact> {
    let mut params = Vec::new();
    let mut push = |p: &ast::Parameter, kind: ParamKind, default: Option<&Expr>| {
        params.push(ParamFact {
            name: p.name.id.as_str().into(),
            kind,
            annotation: p.annotation.as_deref().map(|a| value_of(a, 0)),
            has_default: default.is_some(),
            default: default.map(|d| value_of(d, 0)),
        });
    };
    for p in &parameters.posonlyargs {
        push(
            &p.parameter,
            ParamKind::PositionalOnly,
            p.default.as_deref(),
        );
    }
    for p in &parameters.args {
        push(&p.parameter, ParamKind::Normal, p.default.as_deref());
    }
    if let Some(p) = &parameters.vararg {
        push(p, ParamKind::VarPositional, None);
    }
    for p in &parameters.kwonlyargs {
        push(&p.parameter, ParamKind::KeywordOnly, p.default.as_deref());
    }
    if let Some(p) = &parameters.kwarg {
        push(p, ParamKind::VarKeyword, None);
    }
    params
}

/// `q.strip().lower()` as `(q, [strip, lower])`: a chain of method calls
/// and what it starts from; `None` when the expression is no such chain.
fn method_chain(expr: &Expr) -> Option<(Value, Vec<Text>)> {
    let mut methods = Vec::new();
    let mut current = expr;
    while let Expr::Call(call) = current {
        let Expr::Attribute(attr) = call.func.as_ref() else {
            break;
        };
        // `m.f(...)` on a plain name chain is where the chain starts.
        if !matches!(attr.value.as_ref(), Expr::Call(_)) {
            break;
        }
        methods.push(Text::from(attr.attr.id.as_str()));
        current = &attr.value;
        if methods.len() > 16 {
            return None;
        }
    }
    if !matches!(current, Expr::Call(_)) && methods.is_empty() {
        return None;
    }
    methods.reverse();
    Some((value_of(current, 0), methods))
}
