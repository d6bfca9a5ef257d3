//! The `Collector`'s walk over a module: each statement (definitions,
//! returns, imports, assignments, `if` branches with their guards, loops,
//! `with`, `try`) and each expression (construction-like calls, walrus
//! targets, comprehension loops, name uses) visited in order.

use super::records::list_target;
use super::values::value_of;
use super::{Collector, LoopExtend};
use crate::python::facts::*;
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};

impl Collector<'_> {
    /// `if`: the body of `if TYPE_CHECKING:` never runs; every branch is
    /// conditional.
    fn visit_if(&mut self, stmt: &ast::StmtIf) {
        self.record_truth_tests(&stmt.test);
        for clause in &stmt.elif_else_clauses {
            if let Some(test) = &clause.test {
                self.record_truth_tests(test);
            }
        }
        self.visit_expr(&stmt.test);
        let type_checking = usize::from(is_type_checking(&stmt.test));
        self.conditional_depth += 1;
        self.type_checking_depth += type_checking;
        let holds = |test: &Expr, holds: bool| {
            Some(Condition {
                test: value_of(test, 0),
                holds,
            })
        };
        self.walk_guarded(vec![holds(&stmt.test, true)], &stmt.body);
        self.type_checking_depth -= type_checking;
        // A later branch runs when every earlier test fails.
        let mut failed = vec![holds(&stmt.test, false)];
        for clause in &stmt.elif_else_clauses {
            let mut guards = failed.clone();
            if let Some(test) = &clause.test {
                self.visit_expr(test);
                guards.push(holds(test, true));
                failed.push(holds(test, false));
            }
            self.walk_guarded(guards, &clause.body);
        }
        self.conditional_depth -= 1;
    }

    /// The appends of a loop over a literal sequence, each recorded as
    /// that sequence's `extend` where the loop stands (`literal_loops.rs`).
    /// Called with the loop's own depth already counted.
    fn note_loop_extends(&mut self, for_stmt: &ast::StmtFor) {
        let appends = super::literal_loops::appends_of_each_element(for_stmt);
        if appends.is_empty() {
            return;
        }
        self.conditional_depth -= 1;
        let (conditional, guard, protected) = (self.conditional(), self.guard(), self.protected());
        self.conditional_depth += 1;
        for call in appends {
            let extend = LoopExtend {
                sequence: value_of(&for_stmt.iter, 0),
                conditional,
                guard: guard.clone(),
                protected,
            };
            self.loop_extends
                .insert(call as *const ast::ExprCall, extend);
        }
    }

    fn visit_class(&mut self, class: &ast::StmtClassDef) {
        let name = class.name.id.to_string();
        let mut qualname: Vec<&str> = self.scopes.iter().map(|f| f.name.as_str()).collect();
        qualname.push(&name);
        let line = self.line_of(&class.name);
        let bases = class
            .arguments
            .as_ref()
            .map(|a| a.args.iter().map(|b| value_of(b, 0)).collect())
            .unwrap_or_default();
        let index = self.facts.classes.len();
        self.facts.classes.push(ClassFact {
            qualname: qualname.join(".").into(),
            name: name.clone().into(),
            line,
            bases,
            attributes: Vec::new(),
            decorators: class
                .decorator_list
                .iter()
                .map(|d| value_of(&d.expression, 0))
                .collect(),
            keywords: class
                .arguments
                .iter()
                .flat_map(|a| a.keywords.iter())
                .map(|k| Text::from(k.arg.as_ref().map_or("**", |a| a.id.as_str())))
                .collect(),
            attribute_names: Default::default(),
            self_reads: Vec::new(),
        });
        self.bind(&name, BindingKind::Class, line);
        for decorator in &class.decorator_list {
            self.visit_expr(&decorator.expression);
        }
        if let Some(arguments) = &class.arguments {
            for arg in arguments.args.iter() {
                self.visit_expr(arg);
            }
        }
        self.enter(name, None);
        if let Some(frame) = self.scopes.last_mut() {
            frame.class = Some(index);
        }
        self.walk_body(&class.body);
        self.leave();
    }

    fn visit_assign(&mut self, assign: &ast::StmtAssign) {
        if let [target] = assign.targets.as_slice() {
            if let Some(spelled) = target_spelling(target) {
                self.pending_target = Some((assign.value.as_ref() as *const Expr, spelled));
            }
            if let Expr::Name(name) = target {
                let line = self.line_of(name);
                self.bind_value(
                    name.id.as_str(),
                    BindingKind::Assignment,
                    line,
                    Some(value_of(&assign.value, 0)),
                );
            } else if let Some(names) = flat_names(target) {
                // `a, b = value`: each name is one item of the value.
                let of = u32::try_from(names.len()).unwrap_or(u32::MAX);
                let value = value_of(&assign.value, 0);
                for (index, name) in names.into_iter().enumerate() {
                    let line = self.line_of(name);
                    let index = u32::try_from(index).unwrap_or(u32::MAX);
                    self.bind_value(
                        name.id.as_str(),
                        BindingKind::Unpacked { index, of },
                        line,
                        Some(value.clone()),
                    );
                }
            } else {
                self.bind_target(target, BindingKind::Assignment);
            }
        } else {
            for target in &assign.targets {
                self.bind_target(target, BindingKind::Assignment);
            }
        }
        for target in &assign.targets {
            self.record_value_store(target, &assign.value);
        }
        self.visit_expr(&assign.value);
        // Reads inside targets (`TOOLS[0] = x` reads `TOOLS`) are uses too.
        for target in &assign.targets {
            if !matches!(target, Expr::Name(_)) {
                self.visit_expr(target);
            }
        }
        self.pending_target = None;
    }
}

/// The names of a flat tuple or list target (`a, b`), none starred.
fn flat_names(target: &Expr) -> Option<Vec<&ast::ExprName>> {
    let (Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. })) =
        target
    else {
        return None;
    };
    elts.iter()
        .map(|elt| match elt {
            Expr::Name(name) => Some(name),
            _ => None,
        })
        .collect()
}

/// `TYPE_CHECKING` or `typing.TYPE_CHECKING`.
fn is_type_checking(test: &Expr) -> bool {
    match test {
        Expr::Name(name) => name.id.as_str() == "TYPE_CHECKING",
        Expr::Attribute(attr) => attr.attr.id.as_str() == "TYPE_CHECKING",
        _ => false,
    }
}

/// Whether a call may construct an object worth keeping: a capitalised
/// callee (`Agent(...)`, `agents.Agent(...)`) or one that passes `tools=`.
fn is_construction_like(call: &ast::ExprCall) -> bool {
    let last = match call.func.as_ref() {
        Expr::Name(name) => Some(name.id.as_str()),
        Expr::Attribute(attr) => Some(attr.attr.id.as_str()),
        Expr::Subscript(sub) => match sub.value.as_ref() {
            Expr::Name(name) => Some(name.id.as_str()),
            Expr::Attribute(attr) => Some(attr.attr.id.as_str()),
            _ => None,
        },
        _ => None,
    };
    let capitalised = last
        .and_then(|name| name.chars().next())
        .is_some_and(|c| c.is_ascii_uppercase());
    // Copies can carry an object's capabilities into a new one.
    let copy_like =
        last.is_some_and(|name| matches!(name, "clone" | "replace" | "copy" | "deepcopy"));
    capitalised
        || copy_like
        || call
            .arguments
            .keywords
            .iter()
            .any(|k| k.arg.as_ref().is_some_and(|a| a.id.as_str() == "tools"))
}

impl<'a> Visitor<'a> for Collector<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(def) => {
                // Decorators, defaults and annotations run in the enclosing scope.
                for decorator in &def.decorator_list {
                    self.visit_expr(&decorator.expression);
                }
                let index = self.record_function(def);
                self.enter(def.name.id.to_string(), Some(index));
                self.walk_body(&def.body);
                self.leave();
            }
            Stmt::ClassDef(class) => self.visit_class(class),
            Stmt::Return(ret) => {
                let fact = ReturnFact {
                    line: self.line_of(ret),
                    value: ret.value.as_deref().map(|v| value_of(v, 0)),
                    conditional: self.conditional(),
                    guard: self.guard(),
                    protected: self.protected(),
                };
                if let Some(function) = self.current_function() {
                    function.lazy_body.get_mut().returns_found.push(fact);
                }
                visitor::walk_stmt(self, stmt);
            }
            Stmt::Import(import) => {
                for alias in &import.names {
                    self.record_import(alias.name.id.as_str(), 0, alias, false);
                }
            }
            Stmt::ImportFrom(import) => {
                let module = import.module.as_ref().map(|m| m.id.as_str()).unwrap_or("");
                for alias in &import.names {
                    self.record_import(module, import.level, alias, true);
                    // A function that imports a builder itself calls it as
                    // a builder: its calls are kept like the module's.
                    if !self.at_module_level() {
                        let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                        self.callables.insert(bound.id.to_string());
                    }
                }
            }
            Stmt::Assign(assign) => self.visit_assign(assign),
            Stmt::AnnAssign(assign) => {
                if let (Some(value), Some(spelled)) =
                    (&assign.value, target_spelling(&assign.target))
                {
                    self.pending_target = Some((value.as_ref() as *const Expr, spelled));
                }
                if let Some(value) = &assign.value {
                    match assign.target.as_ref() {
                        Expr::Name(name) => {
                            let line = self.line_of(name);
                            self.bind_value(
                                name.id.as_str(),
                                BindingKind::Assignment,
                                line,
                                Some(value_of(value, 0)),
                            );
                        }
                        other => self.bind_target(other, BindingKind::Assignment),
                    }
                }
                visitor::walk_stmt(self, stmt);
                self.pending_target = None;
            }
            Stmt::AugAssign(assign) => {
                if let (Some(target), ast::Operator::Add) = (list_target(&assign.target), assign.op)
                {
                    let addition = ListAddition {
                        target: target.into(),
                        how: "+=".into(),
                        value: value_of(&assign.value, 0),
                        line: self.line_of(assign),
                        scope: self.scope_name().into(),
                        conditional: self.conditional(),
                        guard: self.guard(),
                        protected: self.protected(),
                    };
                    self.facts.list_additions.push(addition);
                }
                match assign.target.as_ref() {
                    Expr::Attribute(_) => {
                        self.record_attribute_store(&assign.target, StoreKind::AugmentedAssignment)
                    }
                    other => self.bind_target(other, BindingKind::Other),
                }
                visitor::walk_stmt(self, stmt);
            }
            Stmt::Delete(delete) => {
                for target in &delete.targets {
                    match target {
                        Expr::Attribute(_) => {
                            self.record_attribute_store(target, StoreKind::Deletion)
                        }
                        Expr::Subscript(subscript) => {
                            self.record_attribute_store(&subscript.value, StoreKind::Deletion)
                        }
                        _ => {}
                    }
                }
                visitor::walk_stmt(self, stmt);
            }
            Stmt::If(if_stmt) => self.visit_if(if_stmt),
            Stmt::Nonlocal(nonlocal) => {
                let names: Vec<Text> = nonlocal
                    .names
                    .iter()
                    .map(|n| Text::from(n.id.as_str()))
                    .collect();
                if let Some(function) = self.current_function() {
                    function.nonlocals.extend(names);
                }
            }
            Stmt::Global(global) => {
                let names: Vec<Text> = global
                    .names
                    .iter()
                    .map(|n| Text::from(n.id.as_str()))
                    .collect();
                if let Some(function) = self.current_function() {
                    function.globals.extend(names);
                }
            }
            Stmt::For(_) | Stmt::While(_) | Stmt::With(_) | Stmt::Try(_) | Stmt::Match(_) => {
                self.conditional_depth += 1;
                if let Stmt::While(while_stmt) = stmt {
                    self.record_truth_tests(&while_stmt.test);
                }
                if let Stmt::For(for_stmt) = stmt {
                    self.note_loop_extends(for_stmt);
                    self.record_self_reads(&[(for_stmt.iter.as_ref(), None)]);
                    if let Expr::Name(name) = for_stmt.iter.as_ref() {
                        let scope = self.function_scope();
                        self.facts.read_only_uses.push(ReadOnlyUse {
                            name: name.id.as_str().into(),
                            via: None,
                            scope: scope.into(),
                        });
                    }
                    self.bind_target(&for_stmt.target, BindingKind::Other);
                    self.record_loop(&for_stmt.target, &for_stmt.iter, false);
                }
                if let Stmt::With(with) = stmt {
                    // The names a `with` binds exist before its body runs,
                    // at the statement's own depth.
                    self.conditional_depth -= 1;
                    for item in &with.items {
                        self.bind_with_item(item);
                    }
                    self.conditional_depth += 1;
                }
                if let Stmt::Try(try_stmt) = stmt {
                    for handler in &try_stmt.handlers {
                        let ast::ExceptHandler::ExceptHandler(handler) = handler;
                        if let Some(name) = &handler.name {
                            let line = self.line_of(name);
                            self.bind(name.id.as_str(), BindingKind::Other, line);
                        }
                    }
                }
                let protects = matches!(stmt, Stmt::With(_) | Stmt::Try(_));
                self.protected_depth += usize::from(protects);
                match stmt {
                    // A `with` body and a `try` body run as written; a
                    // handler runs only on an error.
                    Stmt::With(_) => visitor::walk_stmt(self, stmt),
                    Stmt::Try(try_stmt) => {
                        self.walk_body(&try_stmt.body);
                        for handler in &try_stmt.handlers {
                            let ast::ExceptHandler::ExceptHandler(handler) = handler;
                            if let Some(kind) = &handler.type_ {
                                self.visit_expr(kind);
                            }
                            self.walk_guarded(vec![None], &handler.body);
                        }
                        self.walk_body(&try_stmt.orelse);
                        self.walk_body(&try_stmt.finalbody);
                    }
                    _ => {
                        self.guards.push(None);
                        visitor::walk_stmt(self, stmt);
                        self.guards.pop();
                    }
                }
                self.protected_depth -= usize::from(protects);
                self.conditional_depth -= 1;
            }
            _ => visitor::walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        let recorded_call = matches!(expr, Expr::Call(call)
            if is_construction_like(call)
                || matches!(call.func.as_ref(), Expr::Name(name) if self.callables.contains(name.id.as_str())));
        self.recorded_call_depth += usize::from(recorded_call);
        if matches!(expr, Expr::Yield(_) | Expr::YieldFrom(_)) {
            if let Some(function) = self.current_function() {
                function.is_generator = true;
            }
        }
        self.record_read_only_uses(expr);
        if let Expr::Call(call) = expr {
            self.record_body_call(call);
            self.record_setattr(call);
            self.record_mutating_call(call);
            self.record_dynamic_import(call);
            let callable = matches!(call.func.as_ref(), Expr::Name(name) if self.callables.contains(name.id.as_str()));
            if callable || is_construction_like(call) {
                let assigned_to = match &self.pending_target {
                    Some((ptr, spelled)) if std::ptr::eq(*ptr, expr) => Some(spelled.clone()),
                    _ => None,
                };
                let fact = CallFact {
                    callee: value_of(&call.func, 0),
                    line: self.line_of(call),
                    args: call.arguments.args.iter().map(|a| value_of(a, 0)).collect(),
                    keywords: call
                        .arguments
                        .keywords
                        .iter()
                        .map(|k| KeywordFact {
                            name: k.arg.as_ref().map(|a| a.id.as_str().into()),
                            value: value_of(&k.value, 0),
                            line: self.line_of(k),
                        })
                        .collect(),
                    assigned_to: assigned_to.map(Into::into),
                    scope: self.scope_name().into(),
                    guard: self.guard(),
                };
                self.facts.calls.push(fact);
            }
        }
        if let Expr::Named(named) = expr {
            self.bind_target(&named.target, BindingKind::Other);
        }
        if let Expr::Attribute(attribute) = expr {
            self.record_class_attribute(attribute.attr.id.as_str());
        }
        let generators = match expr {
            Expr::ListComp(comp) => Some(&comp.generators),
            Expr::SetComp(comp) => Some(&comp.generators),
            Expr::DictComp(comp) => Some(&comp.generators),
            Expr::Generator(comp) => Some(&comp.generators),
            _ => None,
        };
        for generator in generators.into_iter().flatten() {
            self.record_loop(&generator.target, &generator.iter, true);
        }
        if let Expr::Name(name) = expr {
            if !name.ctx.is_store() {
                self.facts.name_uses.add(&name.id);
                if let Some(function) = self.enclosing_function() {
                    function.lazy_body.get_mut().name_uses.add(&name.id);
                }
            }
        }
        visitor::walk_expr(self, expr);
        self.recorded_call_depth -= usize::from(recorded_call);
    }
}

/// The spelling of a simple assignment target (`name`, `self.agent`).
fn target_spelling(target: &Expr) -> Option<String> {
    match value_of(target, 0) {
        Value::Name(name) => Some(name.to_string()),
        Value::Attribute(parts) => Some(parts.join(".")),
        _ => None,
    }
}
