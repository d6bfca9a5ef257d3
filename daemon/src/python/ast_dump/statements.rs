//! Statements as CPython 3.12 prints them: function and class definitions
//! (a function's leading docstring removed), every statement kind, `elif`
//! chains nested as CPython nests them, and a function's `arguments` with
//! defaults placed as CPython places them.

use super::expressions::operator_name;
use super::reprs::push_str_repr;
use super::Writer;
use ruff_python_ast::{self as ast, Expr, Stmt, TypeParam};

impl Writer {
    pub(super) fn function_def(&mut self, def: &ast::StmtFunctionDef, strip_docstring: bool) {
        self.open(if def.is_async {
            "AsyncFunctionDef"
        } else {
            "FunctionDef"
        });
        self.str_field("name", &def.name);
        self.key("args");
        self.arguments(Some(&def.parameters));
        let body: &[Stmt] = if strip_docstring {
            without_docstring(&def.body)
        } else {
            &def.body
        };
        self.body_field("body", body);
        self.exprs_field(
            "decorator_list",
            def.decorator_list.iter().map(|d| &d.expression),
        );
        self.opt_expr_field("returns", def.returns.as_deref());
        // `type_comment` is always None for parsed code and so never printed.
        self.type_params_field(def.type_params.as_deref());
        self.close();
    }

    fn class_def(&mut self, class: &ast::StmtClassDef) {
        self.open("ClassDef");
        self.str_field("name", &class.name);
        self.exprs_field("bases", class.bases());
        self.list("keywords", class.keywords(), Self::keyword);
        self.body_field("body", &class.body);
        self.exprs_field(
            "decorator_list",
            class.decorator_list.iter().map(|d| &d.expression),
        );
        self.type_params_field(class.type_params.as_deref());
        self.close();
    }

    /// CPython 3.12 always prints `type_params=[...]`, even when empty.
    fn type_params_field(&mut self, params: Option<&ast::TypeParams>) {
        let params: &[TypeParam] = params.map_or(&[], |p| &p.type_params);
        self.list("type_params", params, |w, param| match param {
            // 3.12's TypeVar has no `default_value` (PEP 696 is 3.13).
            TypeParam::TypeVar(var) => {
                w.open("TypeVar");
                w.str_field("name", &var.name);
                w.opt_expr_field("bound", var.bound.as_deref());
                w.close();
            }
            TypeParam::ParamSpec(spec) => {
                w.open("ParamSpec");
                w.str_field("name", &spec.name);
                w.close();
            }
            TypeParam::TypeVarTuple(tuple) => {
                w.open("TypeVarTuple");
                w.str_field("name", &tuple.name);
                w.close();
            }
        });
    }

    pub(super) fn stmt(&mut self, stmt: &Stmt) {
        if self.enter() {
            self.stmt_node(stmt);
            self.leave();
        }
        self.drain();
    }

    fn stmt_node(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::FunctionDef(def) => self.function_def(def, false),
            Stmt::ClassDef(class) => self.class_def(class),
            Stmt::Return(ret) => {
                self.open("Return");
                self.opt_expr_field("value", ret.value.as_deref());
                self.close();
            }
            Stmt::Delete(del) => {
                self.open("Delete");
                self.exprs_field("targets", &del.targets);
                self.close();
            }
            Stmt::TypeAlias(alias) => {
                self.open("TypeAlias");
                self.expr_field("name", &alias.name);
                self.type_params_field(alias.type_params.as_deref());
                self.expr_field("value", &alias.value);
                self.close();
            }
            Stmt::Assign(assign) => {
                self.open("Assign");
                self.exprs_field("targets", &assign.targets);
                self.expr_field("value", &assign.value);
                self.close();
            }
            Stmt::AugAssign(aug) => {
                self.open("AugAssign");
                self.expr_field("target", &aug.target);
                self.key("op");
                self.leaf(operator_name(aug.op));
                self.expr_field("value", &aug.value);
                self.close();
            }
            Stmt::AnnAssign(ann) => {
                self.open("AnnAssign");
                self.expr_field("target", &ann.target);
                self.expr_field("annotation", &ann.annotation);
                self.opt_expr_field("value", ann.value.as_deref());
                self.int_field("simple", i64::from(ann.simple));
                self.close();
            }
            Stmt::For(for_stmt) => {
                self.open(if for_stmt.is_async { "AsyncFor" } else { "For" });
                self.expr_field("target", &for_stmt.target);
                self.expr_field("iter", &for_stmt.iter);
                self.body_field("body", &for_stmt.body);
                self.body_field("orelse", &for_stmt.orelse);
                self.close();
            }
            Stmt::While(while_stmt) => {
                self.open("While");
                self.expr_field("test", &while_stmt.test);
                self.body_field("body", &while_stmt.body);
                self.body_field("orelse", &while_stmt.orelse);
                self.close();
            }
            Stmt::If(if_stmt) => {
                self.if_chain(&if_stmt.test, &if_stmt.body, &if_stmt.elif_else_clauses)
            }
            Stmt::With(with) => {
                self.open(if with.is_async { "AsyncWith" } else { "With" });
                self.list("items", &with.items, |w, item| {
                    w.open("withitem");
                    w.expr_field("context_expr", &item.context_expr);
                    w.opt_expr_field("optional_vars", item.optional_vars.as_deref());
                    w.close();
                });
                self.body_field("body", &with.body);
                self.close();
            }
            Stmt::Match(match_stmt) => {
                self.open("Match");
                self.expr_field("subject", &match_stmt.subject);
                self.list("cases", &match_stmt.cases, |w, case| {
                    w.open("match_case");
                    w.key("pattern");
                    w.pattern(&case.pattern);
                    w.opt_expr_field("guard", case.guard.as_deref());
                    w.body_field("body", &case.body);
                    w.close();
                });
                self.close();
            }
            Stmt::Raise(raise) => {
                self.open("Raise");
                self.opt_expr_field("exc", raise.exc.as_deref());
                self.opt_expr_field("cause", raise.cause.as_deref());
                self.close();
            }
            Stmt::Try(try_stmt) => {
                self.open(if try_stmt.is_star { "TryStar" } else { "Try" });
                self.body_field("body", &try_stmt.body);
                self.list("handlers", &try_stmt.handlers, |w, handler| {
                    let ast::ExceptHandler::ExceptHandler(handler) = handler;
                    w.open("ExceptHandler");
                    w.opt_expr_field("type", handler.type_.as_deref());
                    w.opt_str_field("name", handler.name.as_deref());
                    w.body_field("body", &handler.body);
                    w.close();
                });
                self.body_field("orelse", &try_stmt.orelse);
                self.body_field("finalbody", &try_stmt.finalbody);
                self.close();
            }
            Stmt::Assert(assert) => {
                self.open("Assert");
                self.expr_field("test", &assert.test);
                self.opt_expr_field("msg", assert.msg.as_deref());
                self.close();
            }
            Stmt::Import(import) => {
                self.open("Import");
                self.list("names", &import.names, Self::alias);
                self.close();
            }
            Stmt::ImportFrom(import) => {
                self.open("ImportFrom");
                self.opt_str_field("module", import.module.as_deref());
                self.list("names", &import.names, Self::alias);
                self.int_field("level", i64::from(import.level));
                self.close();
            }
            Stmt::Global(global) => {
                self.open("Global");
                self.list("names", &global.names, |w, name| {
                    push_str_repr(&mut w.out, name)
                });
                self.close();
            }
            Stmt::Nonlocal(nonlocal) => {
                self.open("Nonlocal");
                self.list("names", &nonlocal.names, |w, name| {
                    push_str_repr(&mut w.out, name)
                });
                self.close();
            }
            Stmt::Expr(expr) => {
                self.open("Expr");
                self.expr_field("value", &expr.value);
                self.close();
            }
            Stmt::Pass(_) => self.leaf("Pass"),
            Stmt::Break(_) => self.leaf("Break"),
            Stmt::Continue(_) => self.leaf("Continue"),
            // IPython escapes only exist in notebooks; CPython cannot parse them.
            Stmt::IpyEscapeCommand(command) => {
                self.open("IpyEscapeCommand");
                self.str_field("value", &command.value);
                self.close();
            }
        }
    }

    /// ruff keeps `elif`/`else` as a flat clause list; CPython nests each
    /// `elif` as a lone `If` inside the previous `orelse`, and an `else`
    /// clause's statements become that `orelse` directly.
    fn if_chain(&mut self, test: &Expr, body: &[Stmt], clauses: &[ast::ElifElseClause]) {
        self.open("If");
        self.expr_field("test", test);
        self.body_field("body", body);
        match clauses.split_first() {
            None => self.body_field("orelse", &[]),
            Some((clause, rest)) => match &clause.test {
                Some(elif_test) => {
                    self.key("orelse");
                    self.out.push('[');
                    if self.enter() {
                        self.if_chain(elif_test, &clause.body, rest);
                        self.leave();
                    }
                    self.out.push(']');
                }
                None => self.body_field("orelse", &clause.body),
            },
        }
        self.close();
    }

    fn alias(&mut self, alias: &ast::Alias) {
        self.open("alias");
        self.str_field("name", &alias.name);
        self.opt_str_field("asname", alias.asname.as_deref());
        self.close();
    }
}

/// The body without its docstring: a leading `Expr` statement holding a plain
/// (possibly implicitly concatenated) string constant. f-strings and bytes are
/// not docstrings.
fn without_docstring(body: &[Stmt]) -> &[Stmt] {
    match body.split_first() {
        Some((Stmt::Expr(first), rest)) if first.value.is_string_literal_expr() => rest,
        _ => body,
    }
}

// ---------------------------------------------------------------------------
// Function parameters
// ---------------------------------------------------------------------------
impl Writer {
    /// ruff stores each default next to its parameter; CPython's `arguments`
    /// keeps positional defaults right-aligned in `defaults` and one
    /// `kw_defaults` entry per keyword-only parameter (`None` when absent).
    pub(super) fn arguments(&mut self, params: Option<&ast::Parameters>) {
        let empty = ast::Parameters::default();
        let params = params.unwrap_or(&empty);
        self.open("arguments");
        self.list("posonlyargs", &params.posonlyargs, |w, p| {
            w.arg(&p.parameter)
        });
        self.list("args", &params.args, |w, p| w.arg(&p.parameter));
        if let Some(vararg) = &params.vararg {
            self.key("vararg");
            self.arg(vararg);
        }
        self.list("kwonlyargs", &params.kwonlyargs, |w, p| w.arg(&p.parameter));
        self.opt_exprs_field(
            "kw_defaults",
            params.kwonlyargs.iter().map(|p| p.default.as_deref()),
        );
        if let Some(kwarg) = &params.kwarg {
            self.key("kwarg");
            self.arg(kwarg);
        }
        self.exprs_field(
            "defaults",
            params
                .posonlyargs
                .iter()
                .chain(&params.args)
                .filter_map(|p| p.default.as_deref()),
        );
        self.close();
    }

    fn arg(&mut self, param: &ast::Parameter) {
        self.open("arg");
        self.str_field("arg", &param.name);
        self.opt_expr_field("annotation", param.annotation.as_deref());
        self.close();
    }

    pub(super) fn keyword(&mut self, keyword: &ast::Keyword) {
        self.open("keyword");
        self.opt_str_field("arg", keyword.arg.as_deref());
        self.expr_field("value", &keyword.value);
        self.close();
    }
}
