//! CPython-compatible `ast.dump()` of Python function definitions.
//!
//! The reference tool fingerprints a function's implementation by running
//! CPython 3.12's `ast.dump(node, include_attributes=False)` on the
//! `FunctionDef` (with its leading docstring removed) and hashing the JSON
//! string literal of the result. This module reproduces that text byte for
//! byte from ruff's AST, which differs from CPython's in shape (no `elif`
//! nesting, per-parameter defaults, unjoined implicit concatenation, …), so
//! every node family below maps ruff's representation back onto CPython's
//! `_fields` order and conventions.
//!
//! Everything here is total: hostile input may produce text that CPython
//! would refuse to produce (CPython raises), but never a panic.

use std::borrow::Cow;
use std::fmt::Write as _;

use ruff_python_ast::{
    self as ast, Expr, ExprContext, FStringPart, InterpolatedStringElement, Number, Pattern, Stmt,
    TypeParam,
};
use ruff_text_size::{Ranged, TextSize};
use sha2::{Digest, Sha256};

/// CPython 3.12 `ast.dump(node, include_attributes=False)` of a function definition, leading docstring removed.
pub fn dump_function(def: &ast::StmtFunctionDef) -> String {
    let mut writer = Writer::default();
    writer.function_def(def, true);
    writer.out
}

/// Lowercase hex SHA-256 of the JSON string literal of `dump_function(def)` (see below).
pub fn implementation_sha256(def: &ast::StmtFunctionDef) -> String {
    sha256_of_json_string(&dump_function(def))
}

/// Lowercase hex SHA-256 of the JSON string literal of an arbitrary text (helper used by the above; ASCII-only JSON escaping like Python's json.dumps(text) default).
pub fn sha256_of_json_string(text: &str) -> String {
    let digest = Sha256::digest(json_string_literal(text).as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest {
        // Writing to a `String` cannot fail.
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// CPython translates every `\r\n` and lone `\r` in source text to `\n` before
/// tokenizing, so raw newlines inside triple-quoted strings (and f-string debug
/// text) never contain `\r`. ruff keeps the source bytes as they are; callers
/// should run the source through this before parsing so that string constants
/// match CPython's.
pub fn normalize_newlines(source: &str) -> Cow<'_, str> {
    if source.contains('\r') {
        Cow::Owned(source.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(source)
    }
}

/// `json.dumps(text)` with the default `ensure_ascii=True`.
fn json_string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(ch),
            _ => {
                // Everything else (controls, DEL, non-ASCII) as UTF-16 code units,
                // which yields surrogate pairs for astral characters.
                let mut units = [0u16; 2];
                for unit in ch.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
    out
}

/// Nesting depth past which the writer stops descending. CPython's `ast.dump`
/// recurses once per node level and hits `RecursionError` near 1000 levels, so
/// no reference output exists beyond this; the limit only keeps our own stack
/// bounded on hostile input.
const MAX_DEPTH: usize = 1000;

/// Accumulates `ast.dump` text. Nodes are written as `Class(key=value, ...)`;
/// `fields` tracks, per open node, whether a field was written already so the
/// `, ` separators land correctly when optional fields are skipped.
#[derive(Default)]
struct Writer {
    out: String,
    fields: Vec<bool>,
    depth: usize,
}

/// One flattened piece of an implicitly concatenated f-string: literal text
/// (with whether it came from a `u`-prefixed string) or a replacement field.
enum Piece<'a> {
    Text(Cow<'a, str>, bool),
    Field(&'a ast::InterpolatedElement),
}

/// A `JoinedStr` value: a `Constant` string or a `FormattedValue`.
enum JoinedPart<'a> {
    Constant { value: Cow<'a, str>, unicode: bool },
    Field(&'a ast::InterpolatedElement),
}

// ---------------------------------------------------------------------------
// Output primitives
// ---------------------------------------------------------------------------
impl Writer {
    fn open(&mut self, class: &str) {
        self.out.push_str(class);
        self.out.push('(');
        self.fields.push(false);
    }

    fn key(&mut self, name: &str) {
        if let Some(written) = self.fields.last_mut() {
            if *written {
                self.out.push_str(", ");
            }
            *written = true;
        }
        self.out.push_str(name);
        self.out.push('=');
    }

    fn close(&mut self) {
        self.fields.pop();
        self.out.push(')');
    }

    /// A node without fields, such as `Load()` or `Pass()`.
    fn leaf(&mut self, class: &str) {
        self.out.push_str(class);
        self.out.push_str("()");
    }

    /// Enters one nesting level; `false` means the limit was hit and a
    /// placeholder was written instead of the node.
    fn enter(&mut self) -> bool {
        if self.depth >= MAX_DEPTH {
            self.out.push_str("...");
            return false;
        }
        self.depth += 1;
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn list<T>(
        &mut self,
        key: &str,
        items: impl IntoIterator<Item = T>,
        mut item: impl FnMut(&mut Self, T),
    ) {
        self.key(key);
        self.out.push('[');
        for (index, value) in items.into_iter().enumerate() {
            if index > 0 {
                self.out.push_str(", ");
            }
            item(self, value);
        }
        self.out.push(']');
    }

    fn expr_field(&mut self, key: &str, expr: &Expr) {
        self.key(key);
        self.expr(expr);
    }

    /// Optional fields whose value is `None` are left out entirely, as
    /// `ast.dump` does for fields whose class default is `None`.
    fn opt_expr_field(&mut self, key: &str, expr: Option<&Expr>) {
        if let Some(expr) = expr {
            self.expr_field(key, expr);
        }
    }

    fn exprs_field<'a>(&mut self, key: &str, exprs: impl IntoIterator<Item = &'a Expr>) {
        self.list(key, exprs, Self::expr);
    }

    /// A list of optional expressions (`Dict.keys`, `arguments.kw_defaults`):
    /// inside a list CPython prints missing entries as `None`.
    fn opt_exprs_field<'a>(
        &mut self,
        key: &str,
        exprs: impl IntoIterator<Item = Option<&'a Expr>>,
    ) {
        self.list(key, exprs, |w, expr| match expr {
            Some(expr) => w.expr(expr),
            None => w.out.push_str("None"),
        });
    }

    fn body_field(&mut self, key: &str, body: &[Stmt]) {
        self.list(key, body, Self::stmt);
    }

    fn str_field(&mut self, key: &str, value: &str) {
        self.key(key);
        push_str_repr(&mut self.out, value);
    }

    fn opt_str_field(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.str_field(key, value);
        }
    }

    fn int_field(&mut self, key: &str, value: i64) {
        self.key(key);
        let _ = write!(self.out, "{value}");
    }

    fn ctx_field(&mut self, ctx: ExprContext) {
        self.key("ctx");
        self.leaf(match ctx {
            ExprContext::Store => "Store",
            ExprContext::Del => "Del",
            // `Invalid` only appears in error-recovered trees.
            ExprContext::Load | ExprContext::Invalid => "Load",
        });
    }
}

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------
impl Writer {
    fn function_def(&mut self, def: &ast::StmtFunctionDef, strip_docstring: bool) {
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

    fn stmt(&mut self, stmt: &Stmt) {
        if self.enter() {
            self.stmt_node(stmt);
            self.leave();
        }
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
    fn arguments(&mut self, params: Option<&ast::Parameters>) {
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

    fn keyword(&mut self, keyword: &ast::Keyword) {
        self.open("keyword");
        self.opt_str_field("arg", keyword.arg.as_deref());
        self.expr_field("value", &keyword.value);
        self.close();
    }
}

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------
impl Writer {
    fn expr(&mut self, expr: &Expr) {
        if self.enter() {
            self.expr_node(expr);
            self.leave();
        }
    }

    fn expr_node(&mut self, expr: &Expr) {
        match expr {
            Expr::BoolOp(op) => {
                self.open("BoolOp");
                self.key("op");
                self.leaf(match op.op {
                    ast::BoolOp::And => "And",
                    ast::BoolOp::Or => "Or",
                });
                self.exprs_field("values", &op.values);
                self.close();
            }
            Expr::Named(named) => {
                self.open("NamedExpr");
                self.expr_field("target", &named.target);
                self.expr_field("value", &named.value);
                self.close();
            }
            Expr::BinOp(bin) => {
                self.open("BinOp");
                self.expr_field("left", &bin.left);
                self.key("op");
                self.leaf(operator_name(bin.op));
                self.expr_field("right", &bin.right);
                self.close();
            }
            Expr::UnaryOp(unary) => {
                self.open("UnaryOp");
                self.key("op");
                self.leaf(match unary.op {
                    ast::UnaryOp::Invert => "Invert",
                    ast::UnaryOp::Not => "Not",
                    ast::UnaryOp::UAdd => "UAdd",
                    ast::UnaryOp::USub => "USub",
                });
                self.expr_field("operand", &unary.operand);
                self.close();
            }
            Expr::Lambda(lambda) => {
                self.open("Lambda");
                self.key("args");
                self.arguments(lambda.parameters.as_deref());
                self.expr_field("body", &lambda.body);
                self.close();
            }
            Expr::If(if_exp) => {
                self.open("IfExp");
                self.expr_field("test", &if_exp.test);
                self.expr_field("body", &if_exp.body);
                self.expr_field("orelse", &if_exp.orelse);
                self.close();
            }
            Expr::Dict(dict) => {
                self.open("Dict");
                // A `**mapping` entry has key `None`.
                self.opt_exprs_field("keys", dict.iter_keys());
                self.exprs_field("values", dict.iter_values());
                self.close();
            }
            Expr::Set(set) => {
                self.open("Set");
                self.exprs_field("elts", &set.elts);
                self.close();
            }
            Expr::ListComp(comp) => {
                self.comprehension_expr("ListComp", &comp.elt, &comp.generators)
            }
            Expr::SetComp(comp) => self.comprehension_expr("SetComp", &comp.elt, &comp.generators),
            Expr::Generator(comp) => {
                self.comprehension_expr("GeneratorExp", &comp.elt, &comp.generators);
            }
            Expr::DictComp(comp) => {
                self.open("DictComp");
                self.opt_expr_field("key", comp.key.as_deref());
                self.expr_field("value", &comp.value);
                self.generators_field(&comp.generators);
                self.close();
            }
            Expr::Await(await_expr) => {
                self.open("Await");
                self.expr_field("value", &await_expr.value);
                self.close();
            }
            Expr::Yield(yield_expr) => {
                self.open("Yield");
                self.opt_expr_field("value", yield_expr.value.as_deref());
                self.close();
            }
            Expr::YieldFrom(yield_from) => {
                self.open("YieldFrom");
                self.expr_field("value", &yield_from.value);
                self.close();
            }
            Expr::Compare(compare) => {
                self.open("Compare");
                self.expr_field("left", &compare.left);
                self.list("ops", compare.ops.iter(), |w, op| w.leaf(cmp_op_name(*op)));
                self.exprs_field("comparators", compare.comparators.iter());
                self.close();
            }
            Expr::Call(call) => {
                self.open("Call");
                self.expr_field("func", &call.func);
                self.exprs_field("args", call.arguments.args.iter());
                self.list("keywords", &call.arguments.keywords, Self::keyword);
                self.close();
            }
            Expr::FString(fstring) => self.joined_str(&fstring.value),
            Expr::TString(tstring) => self.template_str(&tstring.value),
            Expr::StringLiteral(string) => {
                // Implicit concatenation is a single constant; its `kind` is
                // `'u'` when the first piece has a `u` prefix.
                self.constant(
                    |out| push_str_repr(out, string.value.to_str()),
                    string.value.is_unicode(),
                );
            }
            Expr::BytesLiteral(bytes) => {
                let value: Cow<'_, [u8]> = Cow::from(&bytes.value);
                self.constant(|out| push_bytes_repr(out, &value), false);
            }
            Expr::NumberLiteral(number) => {
                self.constant(|out| push_number_repr(out, &number.value), false);
            }
            Expr::BooleanLiteral(boolean) => {
                self.constant(
                    |out| out.push_str(if boolean.value { "True" } else { "False" }),
                    false,
                );
            }
            Expr::NoneLiteral(_) => self.constant(|out| out.push_str("None"), false),
            Expr::EllipsisLiteral(_) => self.constant(|out| out.push_str("Ellipsis"), false),
            Expr::Attribute(attribute) => {
                self.open("Attribute");
                self.expr_field("value", &attribute.value);
                self.str_field("attr", &attribute.attr);
                self.ctx_field(attribute.ctx);
                self.close();
            }
            Expr::Subscript(subscript) => {
                self.open("Subscript");
                self.expr_field("value", &subscript.value);
                self.expr_field("slice", &subscript.slice);
                self.ctx_field(subscript.ctx);
                self.close();
            }
            Expr::Starred(starred) => {
                self.open("Starred");
                self.expr_field("value", &starred.value);
                self.ctx_field(starred.ctx);
                self.close();
            }
            Expr::Name(name) => {
                self.open("Name");
                self.str_field("id", &name.id);
                self.ctx_field(name.ctx);
                self.close();
            }
            Expr::List(list) => {
                self.open("List");
                self.exprs_field("elts", &list.elts);
                self.ctx_field(list.ctx);
                self.close();
            }
            Expr::Tuple(tuple) => {
                self.open("Tuple");
                self.exprs_field("elts", &tuple.elts);
                self.ctx_field(tuple.ctx);
                self.close();
            }
            Expr::Slice(slice) => {
                self.open("Slice");
                self.opt_expr_field("lower", slice.lower.as_deref());
                self.opt_expr_field("upper", slice.upper.as_deref());
                self.opt_expr_field("step", slice.step.as_deref());
                self.close();
            }
            // IPython escapes only exist in notebooks; CPython cannot parse them.
            Expr::IpyEscapeCommand(command) => {
                self.open("IpyEscapeCommand");
                self.str_field("value", &command.value);
                self.close();
            }
        }
    }

    /// `Constant(value=..., kind='u'?)`: `kind` is None (and so omitted)
    /// except for `u`-prefixed strings.
    fn constant(&mut self, value: impl FnOnce(&mut String), unicode: bool) {
        self.open("Constant");
        self.key("value");
        value(&mut self.out);
        if unicode {
            self.str_field("kind", "u");
        }
        self.close();
    }

    fn comprehension_expr(&mut self, class: &str, elt: &Expr, generators: &[ast::Comprehension]) {
        self.open(class);
        self.expr_field("elt", elt);
        self.generators_field(generators);
        self.close();
    }

    fn generators_field(&mut self, generators: &[ast::Comprehension]) {
        self.list("generators", generators, |w, comp| {
            w.open("comprehension");
            w.expr_field("target", &comp.target);
            w.expr_field("iter", &comp.iter);
            w.exprs_field("ifs", &comp.ifs);
            w.int_field("is_async", i64::from(comp.is_async));
            w.close();
        });
    }
}

// ---------------------------------------------------------------------------
// f-strings
// ---------------------------------------------------------------------------
impl Writer {
    /// CPython 3.12 builds one `JoinedStr` for a whole implicit concatenation:
    /// every literal piece (plain string parts, f-string literal text, and the
    /// `expr=` text of debug fields) is flattened into one sequence, runs of
    /// adjacent literals are merged into one `Constant` (taking `kind` from
    /// the run's first piece), and merged runs that are empty are dropped.
    fn joined_str(&mut self, value: &ast::FStringValue) {
        let mut pieces: Vec<Piece<'_>> = Vec::new();
        for part in value {
            match part {
                FStringPart::Literal(literal) => {
                    let unicode = literal.flags.prefix().is_unicode();
                    pieces.push(Piece::Text(Cow::Borrowed(&literal.value), unicode));
                }
                FStringPart::FString(fstring) => {
                    for element in fstring.elements.iter() {
                        match element {
                            InterpolatedStringElement::Literal(literal) => {
                                pieces.push(Piece::Text(Cow::Borrowed(&literal.value), false));
                            }
                            InterpolatedStringElement::Interpolation(field) => {
                                if let Some(debug) = &field.debug_text {
                                    pieces.push(Piece::Text(debug_text(debug.as_str()), false));
                                }
                                pieces.push(Piece::Field(field));
                            }
                        }
                    }
                }
            }
        }

        let mut parts: Vec<JoinedPart<'_>> = Vec::new();
        let mut run: Option<(Cow<'_, str>, bool)> = None;
        for piece in pieces {
            match piece {
                Piece::Text(text, unicode) => match &mut run {
                    Some((merged, _)) => merged.to_mut().push_str(&text),
                    None => run = Some((text, unicode)),
                },
                Piece::Field(field) => {
                    flush_run(&mut run, &mut parts);
                    parts.push(JoinedPart::Field(field));
                }
            }
        }
        flush_run(&mut run, &mut parts);

        self.open("JoinedStr");
        self.list("values", &parts, Self::joined_part);
        self.close();
    }

    fn joined_part(&mut self, part: &JoinedPart<'_>) {
        match part {
            JoinedPart::Constant { value, unicode } => {
                self.constant(|out| push_str_repr(out, value), *unicode);
            }
            JoinedPart::Field(field) => self.formatted_value(field),
        }
    }

    fn formatted_value(&mut self, field: &ast::InterpolatedElement) {
        self.open("FormattedValue");
        self.expr_field("value", &field.expression);
        // A debug field (`{x=}`) without conversion or format spec implies `!r`.
        let conversion = match field.conversion {
            ast::ConversionFlag::None
                if field.debug_text.is_some() && field.format_spec.is_none() =>
            {
                i64::from(b'r')
            }
            flag => i64::from(flag as i8),
        };
        self.int_field("conversion", conversion);
        if let Some(spec) = &field.format_spec {
            self.key("format_spec");
            self.format_spec(spec);
        }
        self.close();
    }

    /// A format spec is its own `JoinedStr` whose parts are *not* merged.
    ///
    /// CPython 3.12's tokenizer scans a spec in steps that start after the
    /// `:` and after each nested field. A step that starts right at the
    /// spec's closing `}`, or at a nested field written `{{...}` (a dict or
    /// set display), emits an empty literal token, which becomes
    /// `Constant(value='')`. A spec that is nothing but one such constant
    /// (`f'{x:}'`) is collapsed to `JoinedStr(values=[])`. 3.13 prunes these
    /// constants; 3.12 keeps them, and this reproduces 3.12.
    fn format_spec(&mut self, spec: &ast::InterpolatedStringFormatSpec) {
        let mut parts: Vec<JoinedPart<'_>> = Vec::new();
        let mut step_start = true;
        for element in spec.elements.iter() {
            match element {
                InterpolatedStringElement::Literal(literal) => {
                    parts.push(JoinedPart::Constant {
                        value: Cow::Borrowed(&literal.value),
                        unicode: false,
                    });
                    step_start = false;
                }
                InterpolatedStringElement::Interpolation(field) => {
                    if step_start && opens_with_double_brace(field) {
                        parts.push(empty_constant());
                    }
                    parts.push(JoinedPart::Field(field));
                    step_start = true;
                }
            }
        }
        // For an empty spec this would be the lone, collapsed constant.
        if step_start && !parts.is_empty() {
            parts.push(empty_constant());
        }
        self.open("JoinedStr");
        self.list("values", &parts, Self::joined_part);
        self.close();
    }

    /// t-strings are Python 3.14 syntax that 3.12 rejects, so there is no
    /// reference output to match; they are dumped in 3.14's shape.
    fn template_str(&mut self, value: &ast::TStringValue) {
        self.open("TemplateStr");
        let elements = value.iter().flat_map(|tstring| tstring.elements.iter());
        self.list("values", elements, |w, element| match element {
            InterpolatedStringElement::Literal(literal) => {
                w.constant(|out| push_str_repr(out, &literal.value), false);
            }
            InterpolatedStringElement::Interpolation(field) => {
                w.open("Interpolation");
                w.expr_field("value", &field.expression);
                w.int_field("conversion", i64::from(field.conversion as i8));
                if let Some(spec) = &field.format_spec {
                    w.key("format_spec");
                    w.format_spec(spec);
                }
                w.close();
            }
        });
        self.close();
    }
}

/// The `expr=` text CPython 3.12 records for a debug field. Its tokenizer
/// drops everything from each `#` up to the end of the line so that comments
/// in multi-line fields vanish, without regard for string literals (so
/// `f"{'#'=}"` records just `'`).
fn debug_text(text: &str) -> Cow<'_, str> {
    if !text.contains('#') {
        return Cow::Borrowed(text);
    }
    let mut kept = String::with_capacity(text.len());
    let mut in_comment = false;
    for ch in text.chars() {
        match ch {
            '#' => in_comment = true,
            '\n' => {
                in_comment = false;
                kept.push(ch);
            }
            _ if !in_comment => kept.push(ch),
            _ => {}
        }
    }
    Cow::Owned(kept)
}

fn empty_constant() -> JoinedPart<'static> {
    JoinedPart::Constant {
        value: Cow::Borrowed(""),
        unicode: false,
    }
}

fn flush_run<'a>(run: &mut Option<(Cow<'a, str>, bool)>, parts: &mut Vec<JoinedPart<'a>>) {
    if let Some((value, unicode)) = run.take() {
        if !value.is_empty() {
            parts.push(JoinedPart::Constant { value, unicode });
        }
    }
}

/// Whether a nested format-spec field was written `{{...}`: its expression
/// starts immediately after the field's `{` with another `{` (a dict or set
/// display, possibly as the leftmost operand of a larger expression).
fn opens_with_double_brace(field: &ast::InterpolatedElement) -> bool {
    let mut expr: &Expr = &field.expression;
    if expr.start() != field.start() + TextSize::new(1) {
        return false;
    }
    loop {
        let leftmost = match expr {
            Expr::Dict(_) | Expr::Set(_) | Expr::DictComp(_) | Expr::SetComp(_) => return true,
            Expr::Attribute(e) => &*e.value,
            Expr::Subscript(e) => &*e.value,
            Expr::Call(e) => &*e.func,
            Expr::BinOp(e) => &*e.left,
            Expr::Compare(e) => &*e.left,
            Expr::If(e) => &*e.body,
            Expr::BoolOp(e) => match e.values.first() {
                Some(first) => first,
                None => return false,
            },
            Expr::Tuple(e) if !e.parenthesized => match e.elts.first() {
                Some(first) => first,
                None => return false,
            },
            _ => return false,
        };
        // A parenthesized operand starts after the parent's `(`.
        if leftmost.start() != expr.start() {
            return false;
        }
        expr = leftmost;
    }
}

// ---------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------
impl Writer {
    fn pattern(&mut self, pattern: &Pattern) {
        if self.enter() {
            self.pattern_node(pattern);
            self.leave();
        }
    }

    fn pattern_node(&mut self, pattern: &Pattern) {
        match pattern {
            Pattern::MatchValue(value) => {
                self.open("MatchValue");
                self.expr_field("value", &value.value);
                self.close();
            }
            Pattern::MatchSingleton(singleton) => {
                // `value` is a required field, so `None` is printed here.
                self.open("MatchSingleton");
                self.key("value");
                self.out.push_str(match singleton.value {
                    ast::Singleton::None => "None",
                    ast::Singleton::True => "True",
                    ast::Singleton::False => "False",
                });
                self.close();
            }
            Pattern::MatchSequence(sequence) => {
                self.open("MatchSequence");
                self.list("patterns", &sequence.patterns, Self::pattern);
                self.close();
            }
            Pattern::MatchMapping(mapping) => {
                self.open("MatchMapping");
                self.exprs_field("keys", &mapping.keys);
                self.list("patterns", &mapping.patterns, Self::pattern);
                self.opt_str_field("rest", mapping.rest.as_deref());
                self.close();
            }
            Pattern::MatchClass(class) => {
                let arguments = &class.arguments;
                self.open("MatchClass");
                self.expr_field("cls", &class.cls);
                self.list("patterns", &arguments.patterns, Self::pattern);
                self.list("kwd_attrs", &arguments.keywords, |w, keyword| {
                    push_str_repr(&mut w.out, &keyword.attr);
                });
                self.list("kwd_patterns", &arguments.keywords, |w, keyword| {
                    w.pattern(&keyword.pattern);
                });
                self.close();
            }
            Pattern::MatchStar(star) => {
                self.open("MatchStar");
                self.opt_str_field("name", star.name.as_deref());
                self.close();
            }
            Pattern::MatchAs(match_as) => {
                self.open("MatchAs");
                if let Some(inner) = &match_as.pattern {
                    self.key("pattern");
                    self.pattern(inner);
                }
                self.opt_str_field("name", match_as.name.as_deref());
                self.close();
            }
            Pattern::MatchOr(or) => {
                self.open("MatchOr");
                self.list("patterns", &or.patterns, Self::pattern);
                self.close();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Operator names
// ---------------------------------------------------------------------------
fn operator_name(op: ast::Operator) -> &'static str {
    match op {
        ast::Operator::Add => "Add",
        ast::Operator::Sub => "Sub",
        ast::Operator::Mult => "Mult",
        ast::Operator::MatMult => "MatMult",
        ast::Operator::Div => "Div",
        ast::Operator::Mod => "Mod",
        ast::Operator::Pow => "Pow",
        ast::Operator::LShift => "LShift",
        ast::Operator::RShift => "RShift",
        ast::Operator::BitOr => "BitOr",
        ast::Operator::BitXor => "BitXor",
        ast::Operator::BitAnd => "BitAnd",
        ast::Operator::FloorDiv => "FloorDiv",
    }
}

fn cmp_op_name(op: ast::CmpOp) -> &'static str {
    match op {
        ast::CmpOp::Eq => "Eq",
        ast::CmpOp::NotEq => "NotEq",
        ast::CmpOp::Lt => "Lt",
        ast::CmpOp::LtE => "LtE",
        ast::CmpOp::Gt => "Gt",
        ast::CmpOp::GtE => "GtE",
        ast::CmpOp::Is => "Is",
        ast::CmpOp::IsNot => "IsNot",
        ast::CmpOp::In => "In",
        ast::CmpOp::NotIn => "NotIn",
    }
}

// ---------------------------------------------------------------------------
// Python `repr()` of constants
// ---------------------------------------------------------------------------

/// `repr(str)`: single quotes unless the text has `'` but no `"`; printable
/// characters (per `str.isprintable`, non-ASCII included) stay as they are.
fn push_str_repr(out: &mut String, text: &str) {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c => {
                let code = u32::from(c);
                let _ = if code <= 0xff {
                    write!(out, "\\x{code:02x}")
                } else if code <= 0xffff {
                    write!(out, "\\u{code:04x}")
                } else {
                    write!(out, "\\U{code:08x}")
                };
            }
        }
    }
    out.push(quote);
}

/// `repr(bytes)`: printable ASCII as is, everything else as `\xNN`.
fn push_bytes_repr(out: &mut String, bytes: &[u8]) {
    let quote = if bytes.contains(&b'\'') && !bytes.contains(&b'"') {
        b'"'
    } else {
        b'\''
    };
    out.push('b');
    out.push(char::from(quote));
    for &byte in bytes {
        match byte {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b if b == quote => {
                out.push('\\');
                out.push(char::from(b));
            }
            b' '..=b'~' => out.push(char::from(byte)),
            _ => {
                let _ = write!(out, "\\x{byte:02x}");
            }
        }
    }
    out.push(char::from(quote));
}

fn push_number_repr(out: &mut String, number: &Number) {
    match number {
        Number::Int(int) => match int.as_u64() {
            Some(small) => {
                let _ = write!(out, "{small}");
            }
            None => push_big_int_repr(out, &int.to_string()),
        },
        Number::Float(value) => push_float_repr(out, *value, true),
        Number::Complex { real, imag } => {
            // Literals are always purely imaginary; the general form is kept
            // for completeness.
            if *real == 0.0 && real.is_sign_positive() {
                push_float_repr(out, *imag, false);
                out.push('j');
            } else {
                out.push('(');
                push_float_repr(out, *real, false);
                if !imag.is_sign_negative() {
                    out.push('+');
                }
                push_float_repr(out, *imag, false);
                out.push_str("j)");
            }
        }
    }
}

/// Above CPython's default `sys.get_int_max_str_digits()` (4300 decimal
/// digits) `repr(int)` raises, so there is nothing to match; beyond this many
/// bits the literal is echoed instead of converted, bounding the quadratic
/// base conversion.
const MAX_INT_BITS: usize = 14_300;

/// ruff keeps integers that overflow `u64` as their source token (with any
/// `0x`/`0o`/`0b` prefix and `_` separators); `repr()` prints them in decimal.
fn push_big_int_repr(out: &mut String, token: &str) {
    let digits: String = token
        .chars()
        .filter(|&c| c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let (radix, body) = match digits.get(..2) {
        Some("0x") => (16u32, &digits[2..]),
        Some("0o") => (8, &digits[2..]),
        Some("0b") => (2, &digits[2..]),
        _ => (10, digits.as_str()),
    };
    if radix == 10 {
        let trimmed = body.trim_start_matches('0');
        out.push_str(if trimmed.is_empty() { "0" } else { trimmed });
        return;
    }
    let bits_per_digit = radix.trailing_zeros() as usize;
    if body.len().saturating_mul(bits_per_digit) > MAX_INT_BITS {
        out.push_str(token);
        return;
    }
    // Little-endian limbs in base 10^9.
    const LIMB: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![0];
    for c in body.chars() {
        let Some(digit) = c.to_digit(radix) else {
            out.push_str(token);
            return;
        };
        let mut carry = u64::from(digit);
        for limb in &mut limbs {
            let value = *limb * u64::from(radix) + carry;
            *limb = value % LIMB;
            carry = value / LIMB;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut limbs = limbs.iter().rev();
    if let Some(most) = limbs.next() {
        let _ = write!(out, "{most}");
    }
    for limb in limbs {
        let _ = write!(out, "{limb:09}");
    }
}

/// `repr(float)` (with `add_dot_0`) or the real/imaginary part of
/// `repr(complex)` (without): shortest round-trip digits, positional notation
/// when the decimal point falls within 4 places before or 16 after the first
/// digit, otherwise `d.ddde±XX`.
fn push_float_repr(out: &mut String, value: f64, add_dot_0: bool) {
    if value.is_nan() {
        out.push_str("nan");
        return;
    }
    if value.is_sign_negative() {
        out.push('-');
    }
    if value.is_infinite() {
        out.push_str("inf");
        return;
    }
    let (digits, exponent) = shortest_digits(value.abs());
    // `value == 0.d1d2d3... * 10^point`
    let point = exponent.saturating_add(1);
    if !(-4 < point && point <= 16) {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let sign = if exponent < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exponent.unsigned_abs());
        return;
    }
    match usize::try_from(point) {
        Ok(point) if point >= digits.len() => {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', point - digits.len()));
            if add_dot_0 {
                out.push_str(".0");
            }
        }
        Ok(point) if point > 0 => {
            let (whole, fraction) = digits.split_at(point);
            out.push_str(whole);
            out.push('.');
            out.push_str(fraction);
        }
        _ => {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
            out.push_str(&digits);
        }
    }
}

/// The shortest digit string that round-trips a finite non-negative `value`,
/// and the decimal exponent of its first digit.
///
/// CPython picks, among the shortest round-tripping strings, the one nearest
/// the exact value, breaking exact ties to even. Rust's shortest `{:e}` has
/// the right length but may break such a tie upwards (99.998809814453125
/// gives `...313`, CPython `...312`), so the value is re-rounded to that
/// length with `{:.N$e}`, which rounds exactly and half to even.
fn shortest_digits(value: f64) -> (String, i32) {
    let shortest = format!("{value:e}");
    let length = shortest.split('e').next().map_or(1, |mantissa| {
        mantissa.chars().filter(char::is_ascii_digit).count()
    });
    let rounded = format!("{:.*e}", length.saturating_sub(1), value);
    let (mantissa, exponent) = rounded.split_once('e').unwrap_or((&rounded, "0"));
    let mut digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
    }
    (digits, exponent.parse().unwrap_or(0))
}

/// CPython's `str.isprintable()` for one character (Unicode 15.0, as in 3.12).
fn is_printable(ch: char) -> bool {
    let code = u32::from(ch);
    NONPRINTABLE_TOGGLES.partition_point(|&toggle| toggle <= code) % 2 == 0
}

/// Code points at which `str.isprintable()` flips, in ascending order, with
/// U+0000 starting a non-printable range: a character is printable iff an
/// even number of entries are `<=` it. Generated from CPython 3.12.1
/// (`unicodedata.unidata_version == '15.0.0'`):
///
/// ```python
/// toggles, printable = [], True
/// for c in range(0x110000):
///     if chr(c).isprintable() != printable:
///         toggles.append(c)
///         printable = not printable
/// ```
#[rustfmt::skip]
const NONPRINTABLE_TOGGLES: &[u32] = &[
    0x0000, 0x0020, 0x007F, 0x00A1, 0x00AD, 0x00AE, 0x0378, 0x037A, 0x0380, 0x0384,
    0x038B, 0x038C, 0x038D, 0x038E, 0x03A2, 0x03A3, 0x0530, 0x0531, 0x0557, 0x0559,
    0x058B, 0x058D, 0x0590, 0x0591, 0x05C8, 0x05D0, 0x05EB, 0x05EF, 0x05F5, 0x0606,
    0x061C, 0x061D, 0x06DD, 0x06DE, 0x070E, 0x0710, 0x074B, 0x074D, 0x07B2, 0x07C0,
    0x07FB, 0x07FD, 0x082E, 0x0830, 0x083F, 0x0840, 0x085C, 0x085E, 0x085F, 0x0860,
    0x086B, 0x0870, 0x088F, 0x0898, 0x08E2, 0x08E3, 0x0984, 0x0985, 0x098D, 0x098F,
    0x0991, 0x0993, 0x09A9, 0x09AA, 0x09B1, 0x09B2, 0x09B3, 0x09B6, 0x09BA, 0x09BC,
    0x09C5, 0x09C7, 0x09C9, 0x09CB, 0x09CF, 0x09D7, 0x09D8, 0x09DC, 0x09DE, 0x09DF,
    0x09E4, 0x09E6, 0x09FF, 0x0A01, 0x0A04, 0x0A05, 0x0A0B, 0x0A0F, 0x0A11, 0x0A13,
    0x0A29, 0x0A2A, 0x0A31, 0x0A32, 0x0A34, 0x0A35, 0x0A37, 0x0A38, 0x0A3A, 0x0A3C,
    0x0A3D, 0x0A3E, 0x0A43, 0x0A47, 0x0A49, 0x0A4B, 0x0A4E, 0x0A51, 0x0A52, 0x0A59,
    0x0A5D, 0x0A5E, 0x0A5F, 0x0A66, 0x0A77, 0x0A81, 0x0A84, 0x0A85, 0x0A8E, 0x0A8F,
    0x0A92, 0x0A93, 0x0AA9, 0x0AAA, 0x0AB1, 0x0AB2, 0x0AB4, 0x0AB5, 0x0ABA, 0x0ABC,
    0x0AC6, 0x0AC7, 0x0ACA, 0x0ACB, 0x0ACE, 0x0AD0, 0x0AD1, 0x0AE0, 0x0AE4, 0x0AE6,
    0x0AF2, 0x0AF9, 0x0B00, 0x0B01, 0x0B04, 0x0B05, 0x0B0D, 0x0B0F, 0x0B11, 0x0B13,
    0x0B29, 0x0B2A, 0x0B31, 0x0B32, 0x0B34, 0x0B35, 0x0B3A, 0x0B3C, 0x0B45, 0x0B47,
    0x0B49, 0x0B4B, 0x0B4E, 0x0B55, 0x0B58, 0x0B5C, 0x0B5E, 0x0B5F, 0x0B64, 0x0B66,
    0x0B78, 0x0B82, 0x0B84, 0x0B85, 0x0B8B, 0x0B8E, 0x0B91, 0x0B92, 0x0B96, 0x0B99,
    0x0B9B, 0x0B9C, 0x0B9D, 0x0B9E, 0x0BA0, 0x0BA3, 0x0BA5, 0x0BA8, 0x0BAB, 0x0BAE,
    0x0BBA, 0x0BBE, 0x0BC3, 0x0BC6, 0x0BC9, 0x0BCA, 0x0BCE, 0x0BD0, 0x0BD1, 0x0BD7,
    0x0BD8, 0x0BE6, 0x0BFB, 0x0C00, 0x0C0D, 0x0C0E, 0x0C11, 0x0C12, 0x0C29, 0x0C2A,
    0x0C3A, 0x0C3C, 0x0C45, 0x0C46, 0x0C49, 0x0C4A, 0x0C4E, 0x0C55, 0x0C57, 0x0C58,
    0x0C5B, 0x0C5D, 0x0C5E, 0x0C60, 0x0C64, 0x0C66, 0x0C70, 0x0C77, 0x0C8D, 0x0C8E,
    0x0C91, 0x0C92, 0x0CA9, 0x0CAA, 0x0CB4, 0x0CB5, 0x0CBA, 0x0CBC, 0x0CC5, 0x0CC6,
    0x0CC9, 0x0CCA, 0x0CCE, 0x0CD5, 0x0CD7, 0x0CDD, 0x0CDF, 0x0CE0, 0x0CE4, 0x0CE6,
    0x0CF0, 0x0CF1, 0x0CF4, 0x0D00, 0x0D0D, 0x0D0E, 0x0D11, 0x0D12, 0x0D45, 0x0D46,
    0x0D49, 0x0D4A, 0x0D50, 0x0D54, 0x0D64, 0x0D66, 0x0D80, 0x0D81, 0x0D84, 0x0D85,
    0x0D97, 0x0D9A, 0x0DB2, 0x0DB3, 0x0DBC, 0x0DBD, 0x0DBE, 0x0DC0, 0x0DC7, 0x0DCA,
    0x0DCB, 0x0DCF, 0x0DD5, 0x0DD6, 0x0DD7, 0x0DD8, 0x0DE0, 0x0DE6, 0x0DF0, 0x0DF2,
    0x0DF5, 0x0E01, 0x0E3B, 0x0E3F, 0x0E5C, 0x0E81, 0x0E83, 0x0E84, 0x0E85, 0x0E86,
    0x0E8B, 0x0E8C, 0x0EA4, 0x0EA5, 0x0EA6, 0x0EA7, 0x0EBE, 0x0EC0, 0x0EC5, 0x0EC6,
    0x0EC7, 0x0EC8, 0x0ECF, 0x0ED0, 0x0EDA, 0x0EDC, 0x0EE0, 0x0F00, 0x0F48, 0x0F49,
    0x0F6D, 0x0F71, 0x0F98, 0x0F99, 0x0FBD, 0x0FBE, 0x0FCD, 0x0FCE, 0x0FDB, 0x1000,
    0x10C6, 0x10C7, 0x10C8, 0x10CD, 0x10CE, 0x10D0, 0x1249, 0x124A, 0x124E, 0x1250,
    0x1257, 0x1258, 0x1259, 0x125A, 0x125E, 0x1260, 0x1289, 0x128A, 0x128E, 0x1290,
    0x12B1, 0x12B2, 0x12B6, 0x12B8, 0x12BF, 0x12C0, 0x12C1, 0x12C2, 0x12C6, 0x12C8,
    0x12D7, 0x12D8, 0x1311, 0x1312, 0x1316, 0x1318, 0x135B, 0x135D, 0x137D, 0x1380,
    0x139A, 0x13A0, 0x13F6, 0x13F8, 0x13FE, 0x1400, 0x1680, 0x1681, 0x169D, 0x16A0,
    0x16F9, 0x1700, 0x1716, 0x171F, 0x1737, 0x1740, 0x1754, 0x1760, 0x176D, 0x176E,
    0x1771, 0x1772, 0x1774, 0x1780, 0x17DE, 0x17E0, 0x17EA, 0x17F0, 0x17FA, 0x1800,
    0x180E, 0x180F, 0x181A, 0x1820, 0x1879, 0x1880, 0x18AB, 0x18B0, 0x18F6, 0x1900,
    0x191F, 0x1920, 0x192C, 0x1930, 0x193C, 0x1940, 0x1941, 0x1944, 0x196E, 0x1970,
    0x1975, 0x1980, 0x19AC, 0x19B0, 0x19CA, 0x19D0, 0x19DB, 0x19DE, 0x1A1C, 0x1A1E,
    0x1A5F, 0x1A60, 0x1A7D, 0x1A7F, 0x1A8A, 0x1A90, 0x1A9A, 0x1AA0, 0x1AAE, 0x1AB0,
    0x1ACF, 0x1B00, 0x1B4D, 0x1B50, 0x1B7F, 0x1B80, 0x1BF4, 0x1BFC, 0x1C38, 0x1C3B,
    0x1C4A, 0x1C4D, 0x1C89, 0x1C90, 0x1CBB, 0x1CBD, 0x1CC8, 0x1CD0, 0x1CFB, 0x1D00,
    0x1F16, 0x1F18, 0x1F1E, 0x1F20, 0x1F46, 0x1F48, 0x1F4E, 0x1F50, 0x1F58, 0x1F59,
    0x1F5A, 0x1F5B, 0x1F5C, 0x1F5D, 0x1F5E, 0x1F5F, 0x1F7E, 0x1F80, 0x1FB5, 0x1FB6,
    0x1FC5, 0x1FC6, 0x1FD4, 0x1FD6, 0x1FDC, 0x1FDD, 0x1FF0, 0x1FF2, 0x1FF5, 0x1FF6,
    0x1FFF, 0x2010, 0x2028, 0x2030, 0x205F, 0x2070, 0x2072, 0x2074, 0x208F, 0x2090,
    0x209D, 0x20A0, 0x20C1, 0x20D0, 0x20F1, 0x2100, 0x218C, 0x2190, 0x2427, 0x2440,
    0x244B, 0x2460, 0x2B74, 0x2B76, 0x2B96, 0x2B97, 0x2CF4, 0x2CF9, 0x2D26, 0x2D27,
    0x2D28, 0x2D2D, 0x2D2E, 0x2D30, 0x2D68, 0x2D6F, 0x2D71, 0x2D7F, 0x2D97, 0x2DA0,
    0x2DA7, 0x2DA8, 0x2DAF, 0x2DB0, 0x2DB7, 0x2DB8, 0x2DBF, 0x2DC0, 0x2DC7, 0x2DC8,
    0x2DCF, 0x2DD0, 0x2DD7, 0x2DD8, 0x2DDF, 0x2DE0, 0x2E5E, 0x2E80, 0x2E9A, 0x2E9B,
    0x2EF4, 0x2F00, 0x2FD6, 0x2FF0, 0x2FFC, 0x3001, 0x3040, 0x3041, 0x3097, 0x3099,
    0x3100, 0x3105, 0x3130, 0x3131, 0x318F, 0x3190, 0x31E4, 0x31F0, 0x321F, 0x3220,
    0xA48D, 0xA490, 0xA4C7, 0xA4D0, 0xA62C, 0xA640, 0xA6F8, 0xA700, 0xA7CB, 0xA7D0,
    0xA7D2, 0xA7D3, 0xA7D4, 0xA7D5, 0xA7DA, 0xA7F2, 0xA82D, 0xA830, 0xA83A, 0xA840,
    0xA878, 0xA880, 0xA8C6, 0xA8CE, 0xA8DA, 0xA8E0, 0xA954, 0xA95F, 0xA97D, 0xA980,
    0xA9CE, 0xA9CF, 0xA9DA, 0xA9DE, 0xA9FF, 0xAA00, 0xAA37, 0xAA40, 0xAA4E, 0xAA50,
    0xAA5A, 0xAA5C, 0xAAC3, 0xAADB, 0xAAF7, 0xAB01, 0xAB07, 0xAB09, 0xAB0F, 0xAB11,
    0xAB17, 0xAB20, 0xAB27, 0xAB28, 0xAB2F, 0xAB30, 0xAB6C, 0xAB70, 0xABEE, 0xABF0,
    0xABFA, 0xAC00, 0xD7A4, 0xD7B0, 0xD7C7, 0xD7CB, 0xD7FC, 0xF900, 0xFA6E, 0xFA70,
    0xFADA, 0xFB00, 0xFB07, 0xFB13, 0xFB18, 0xFB1D, 0xFB37, 0xFB38, 0xFB3D, 0xFB3E,
    0xFB3F, 0xFB40, 0xFB42, 0xFB43, 0xFB45, 0xFB46, 0xFBC3, 0xFBD3, 0xFD90, 0xFD92,
    0xFDC8, 0xFDCF, 0xFDD0, 0xFDF0, 0xFE1A, 0xFE20, 0xFE53, 0xFE54, 0xFE67, 0xFE68,
    0xFE6C, 0xFE70, 0xFE75, 0xFE76, 0xFEFD, 0xFF01, 0xFFBF, 0xFFC2, 0xFFC8, 0xFFCA,
    0xFFD0, 0xFFD2, 0xFFD8, 0xFFDA, 0xFFDD, 0xFFE0, 0xFFE7, 0xFFE8, 0xFFEF, 0xFFFC,
    0xFFFE, 0x10000, 0x1000C, 0x1000D, 0x10027, 0x10028, 0x1003B, 0x1003C, 0x1003E, 0x1003F,
    0x1004E, 0x10050, 0x1005E, 0x10080, 0x100FB, 0x10100, 0x10103, 0x10107, 0x10134, 0x10137,
    0x1018F, 0x10190, 0x1019D, 0x101A0, 0x101A1, 0x101D0, 0x101FE, 0x10280, 0x1029D, 0x102A0,
    0x102D1, 0x102E0, 0x102FC, 0x10300, 0x10324, 0x1032D, 0x1034B, 0x10350, 0x1037B, 0x10380,
    0x1039E, 0x1039F, 0x103C4, 0x103C8, 0x103D6, 0x10400, 0x1049E, 0x104A0, 0x104AA, 0x104B0,
    0x104D4, 0x104D8, 0x104FC, 0x10500, 0x10528, 0x10530, 0x10564, 0x1056F, 0x1057B, 0x1057C,
    0x1058B, 0x1058C, 0x10593, 0x10594, 0x10596, 0x10597, 0x105A2, 0x105A3, 0x105B2, 0x105B3,
    0x105BA, 0x105BB, 0x105BD, 0x10600, 0x10737, 0x10740, 0x10756, 0x10760, 0x10768, 0x10780,
    0x10786, 0x10787, 0x107B1, 0x107B2, 0x107BB, 0x10800, 0x10806, 0x10808, 0x10809, 0x1080A,
    0x10836, 0x10837, 0x10839, 0x1083C, 0x1083D, 0x1083F, 0x10856, 0x10857, 0x1089F, 0x108A7,
    0x108B0, 0x108E0, 0x108F3, 0x108F4, 0x108F6, 0x108FB, 0x1091C, 0x1091F, 0x1093A, 0x1093F,
    0x10940, 0x10980, 0x109B8, 0x109BC, 0x109D0, 0x109D2, 0x10A04, 0x10A05, 0x10A07, 0x10A0C,
    0x10A14, 0x10A15, 0x10A18, 0x10A19, 0x10A36, 0x10A38, 0x10A3B, 0x10A3F, 0x10A49, 0x10A50,
    0x10A59, 0x10A60, 0x10AA0, 0x10AC0, 0x10AE7, 0x10AEB, 0x10AF7, 0x10B00, 0x10B36, 0x10B39,
    0x10B56, 0x10B58, 0x10B73, 0x10B78, 0x10B92, 0x10B99, 0x10B9D, 0x10BA9, 0x10BB0, 0x10C00,
    0x10C49, 0x10C80, 0x10CB3, 0x10CC0, 0x10CF3, 0x10CFA, 0x10D28, 0x10D30, 0x10D3A, 0x10E60,
    0x10E7F, 0x10E80, 0x10EAA, 0x10EAB, 0x10EAE, 0x10EB0, 0x10EB2, 0x10EFD, 0x10F28, 0x10F30,
    0x10F5A, 0x10F70, 0x10F8A, 0x10FB0, 0x10FCC, 0x10FE0, 0x10FF7, 0x11000, 0x1104E, 0x11052,
    0x11076, 0x1107F, 0x110BD, 0x110BE, 0x110C3, 0x110D0, 0x110E9, 0x110F0, 0x110FA, 0x11100,
    0x11135, 0x11136, 0x11148, 0x11150, 0x11177, 0x11180, 0x111E0, 0x111E1, 0x111F5, 0x11200,
    0x11212, 0x11213, 0x11242, 0x11280, 0x11287, 0x11288, 0x11289, 0x1128A, 0x1128E, 0x1128F,
    0x1129E, 0x1129F, 0x112AA, 0x112B0, 0x112EB, 0x112F0, 0x112FA, 0x11300, 0x11304, 0x11305,
    0x1130D, 0x1130F, 0x11311, 0x11313, 0x11329, 0x1132A, 0x11331, 0x11332, 0x11334, 0x11335,
    0x1133A, 0x1133B, 0x11345, 0x11347, 0x11349, 0x1134B, 0x1134E, 0x11350, 0x11351, 0x11357,
    0x11358, 0x1135D, 0x11364, 0x11366, 0x1136D, 0x11370, 0x11375, 0x11400, 0x1145C, 0x1145D,
    0x11462, 0x11480, 0x114C8, 0x114D0, 0x114DA, 0x11580, 0x115B6, 0x115B8, 0x115DE, 0x11600,
    0x11645, 0x11650, 0x1165A, 0x11660, 0x1166D, 0x11680, 0x116BA, 0x116C0, 0x116CA, 0x11700,
    0x1171B, 0x1171D, 0x1172C, 0x11730, 0x11747, 0x11800, 0x1183C, 0x118A0, 0x118F3, 0x118FF,
    0x11907, 0x11909, 0x1190A, 0x1190C, 0x11914, 0x11915, 0x11917, 0x11918, 0x11936, 0x11937,
    0x11939, 0x1193B, 0x11947, 0x11950, 0x1195A, 0x119A0, 0x119A8, 0x119AA, 0x119D8, 0x119DA,
    0x119E5, 0x11A00, 0x11A48, 0x11A50, 0x11AA3, 0x11AB0, 0x11AF9, 0x11B00, 0x11B0A, 0x11C00,
    0x11C09, 0x11C0A, 0x11C37, 0x11C38, 0x11C46, 0x11C50, 0x11C6D, 0x11C70, 0x11C90, 0x11C92,
    0x11CA8, 0x11CA9, 0x11CB7, 0x11D00, 0x11D07, 0x11D08, 0x11D0A, 0x11D0B, 0x11D37, 0x11D3A,
    0x11D3B, 0x11D3C, 0x11D3E, 0x11D3F, 0x11D48, 0x11D50, 0x11D5A, 0x11D60, 0x11D66, 0x11D67,
    0x11D69, 0x11D6A, 0x11D8F, 0x11D90, 0x11D92, 0x11D93, 0x11D99, 0x11DA0, 0x11DAA, 0x11EE0,
    0x11EF9, 0x11F00, 0x11F11, 0x11F12, 0x11F3B, 0x11F3E, 0x11F5A, 0x11FB0, 0x11FB1, 0x11FC0,
    0x11FF2, 0x11FFF, 0x1239A, 0x12400, 0x1246F, 0x12470, 0x12475, 0x12480, 0x12544, 0x12F90,
    0x12FF3, 0x13000, 0x13430, 0x13440, 0x13456, 0x14400, 0x14647, 0x16800, 0x16A39, 0x16A40,
    0x16A5F, 0x16A60, 0x16A6A, 0x16A6E, 0x16ABF, 0x16AC0, 0x16ACA, 0x16AD0, 0x16AEE, 0x16AF0,
    0x16AF6, 0x16B00, 0x16B46, 0x16B50, 0x16B5A, 0x16B5B, 0x16B62, 0x16B63, 0x16B78, 0x16B7D,
    0x16B90, 0x16E40, 0x16E9B, 0x16F00, 0x16F4B, 0x16F4F, 0x16F88, 0x16F8F, 0x16FA0, 0x16FE0,
    0x16FE5, 0x16FF0, 0x16FF2, 0x17000, 0x187F8, 0x18800, 0x18CD6, 0x18D00, 0x18D09, 0x1AFF0,
    0x1AFF4, 0x1AFF5, 0x1AFFC, 0x1AFFD, 0x1AFFF, 0x1B000, 0x1B123, 0x1B132, 0x1B133, 0x1B150,
    0x1B153, 0x1B155, 0x1B156, 0x1B164, 0x1B168, 0x1B170, 0x1B2FC, 0x1BC00, 0x1BC6B, 0x1BC70,
    0x1BC7D, 0x1BC80, 0x1BC89, 0x1BC90, 0x1BC9A, 0x1BC9C, 0x1BCA0, 0x1CF00, 0x1CF2E, 0x1CF30,
    0x1CF47, 0x1CF50, 0x1CFC4, 0x1D000, 0x1D0F6, 0x1D100, 0x1D127, 0x1D129, 0x1D173, 0x1D17B,
    0x1D1EB, 0x1D200, 0x1D246, 0x1D2C0, 0x1D2D4, 0x1D2E0, 0x1D2F4, 0x1D300, 0x1D357, 0x1D360,
    0x1D379, 0x1D400, 0x1D455, 0x1D456, 0x1D49D, 0x1D49E, 0x1D4A0, 0x1D4A2, 0x1D4A3, 0x1D4A5,
    0x1D4A7, 0x1D4A9, 0x1D4AD, 0x1D4AE, 0x1D4BA, 0x1D4BB, 0x1D4BC, 0x1D4BD, 0x1D4C4, 0x1D4C5,
    0x1D506, 0x1D507, 0x1D50B, 0x1D50D, 0x1D515, 0x1D516, 0x1D51D, 0x1D51E, 0x1D53A, 0x1D53B,
    0x1D53F, 0x1D540, 0x1D545, 0x1D546, 0x1D547, 0x1D54A, 0x1D551, 0x1D552, 0x1D6A6, 0x1D6A8,
    0x1D7CC, 0x1D7CE, 0x1DA8C, 0x1DA9B, 0x1DAA0, 0x1DAA1, 0x1DAB0, 0x1DF00, 0x1DF1F, 0x1DF25,
    0x1DF2B, 0x1E000, 0x1E007, 0x1E008, 0x1E019, 0x1E01B, 0x1E022, 0x1E023, 0x1E025, 0x1E026,
    0x1E02B, 0x1E030, 0x1E06E, 0x1E08F, 0x1E090, 0x1E100, 0x1E12D, 0x1E130, 0x1E13E, 0x1E140,
    0x1E14A, 0x1E14E, 0x1E150, 0x1E290, 0x1E2AF, 0x1E2C0, 0x1E2FA, 0x1E2FF, 0x1E300, 0x1E4D0,
    0x1E4FA, 0x1E7E0, 0x1E7E7, 0x1E7E8, 0x1E7EC, 0x1E7ED, 0x1E7EF, 0x1E7F0, 0x1E7FF, 0x1E800,
    0x1E8C5, 0x1E8C7, 0x1E8D7, 0x1E900, 0x1E94C, 0x1E950, 0x1E95A, 0x1E95E, 0x1E960, 0x1EC71,
    0x1ECB5, 0x1ED01, 0x1ED3E, 0x1EE00, 0x1EE04, 0x1EE05, 0x1EE20, 0x1EE21, 0x1EE23, 0x1EE24,
    0x1EE25, 0x1EE27, 0x1EE28, 0x1EE29, 0x1EE33, 0x1EE34, 0x1EE38, 0x1EE39, 0x1EE3A, 0x1EE3B,
    0x1EE3C, 0x1EE42, 0x1EE43, 0x1EE47, 0x1EE48, 0x1EE49, 0x1EE4A, 0x1EE4B, 0x1EE4C, 0x1EE4D,
    0x1EE50, 0x1EE51, 0x1EE53, 0x1EE54, 0x1EE55, 0x1EE57, 0x1EE58, 0x1EE59, 0x1EE5A, 0x1EE5B,
    0x1EE5C, 0x1EE5D, 0x1EE5E, 0x1EE5F, 0x1EE60, 0x1EE61, 0x1EE63, 0x1EE64, 0x1EE65, 0x1EE67,
    0x1EE6B, 0x1EE6C, 0x1EE73, 0x1EE74, 0x1EE78, 0x1EE79, 0x1EE7D, 0x1EE7E, 0x1EE7F, 0x1EE80,
    0x1EE8A, 0x1EE8B, 0x1EE9C, 0x1EEA1, 0x1EEA4, 0x1EEA5, 0x1EEAA, 0x1EEAB, 0x1EEBC, 0x1EEF0,
    0x1EEF2, 0x1F000, 0x1F02C, 0x1F030, 0x1F094, 0x1F0A0, 0x1F0AF, 0x1F0B1, 0x1F0C0, 0x1F0C1,
    0x1F0D0, 0x1F0D1, 0x1F0F6, 0x1F100, 0x1F1AE, 0x1F1E6, 0x1F203, 0x1F210, 0x1F23C, 0x1F240,
    0x1F249, 0x1F250, 0x1F252, 0x1F260, 0x1F266, 0x1F300, 0x1F6D8, 0x1F6DC, 0x1F6ED, 0x1F6F0,
    0x1F6FD, 0x1F700, 0x1F777, 0x1F77B, 0x1F7DA, 0x1F7E0, 0x1F7EC, 0x1F7F0, 0x1F7F1, 0x1F800,
    0x1F80C, 0x1F810, 0x1F848, 0x1F850, 0x1F85A, 0x1F860, 0x1F888, 0x1F890, 0x1F8AE, 0x1F8B0,
    0x1F8B2, 0x1F900, 0x1FA54, 0x1FA60, 0x1FA6E, 0x1FA70, 0x1FA7D, 0x1FA80, 0x1FA89, 0x1FA90,
    0x1FABE, 0x1FABF, 0x1FAC6, 0x1FACE, 0x1FADC, 0x1FAE0, 0x1FAE9, 0x1FAF0, 0x1FAF9, 0x1FB00,
    0x1FB93, 0x1FB94, 0x1FBCB, 0x1FBF0, 0x1FBFA, 0x20000, 0x2A6E0, 0x2A700, 0x2B73A, 0x2B740,
    0x2B81E, 0x2B820, 0x2CEA2, 0x2CEB0, 0x2EBE1, 0x2F800, 0x2FA1E, 0x30000, 0x3134B, 0x31350,
    0x323B0, 0xE0100, 0xE01F0,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn first_function(source: &str) -> ast::StmtFunctionDef {
        let parsed = ruff_python_parser::parse_module(source).expect("test source parses");
        match parsed.into_syntax().body.into_iter().next() {
            Some(Stmt::FunctionDef(def)) => def,
            other => panic!("expected a function definition, got {other:?}"),
        }
    }

    fn dump(source: &str) -> String {
        dump_function(&first_function(source))
    }

    /// The dump of `def f():` with the given body statement dumps.
    fn plain(body: &str) -> String {
        format!(
            "FunctionDef(name='f', args=arguments(posonlyargs=[], args=[], kwonlyargs=[], \
             kw_defaults=[], defaults=[]), body=[{body}], decorator_list=[], type_params=[])"
        )
    }

    #[test]
    fn reference_vector() {
        let source = "@function_tool\ndef lookup_order(order_id: str) -> dict:\n    \"\"\"Look up.\"\"\"\n    return {\"id\": order_id}\n";
        let def = first_function(source);
        assert_eq!(
            dump_function(&def),
            "FunctionDef(name='lookup_order', args=arguments(posonlyargs=[], args=[arg(arg='order_id', \
             annotation=Name(id='str', ctx=Load()))], kwonlyargs=[], kw_defaults=[], defaults=[]), \
             body=[Return(value=Dict(keys=[Constant(value='id')], values=[Name(id='order_id', ctx=Load())]))], \
             decorator_list=[Name(id='function_tool', ctx=Load())], returns=Name(id='dict', ctx=Load()), \
             type_params=[])"
        );
        assert_eq!(
            implementation_sha256(&def),
            "35fb9c9abe9f29d6f701854e34728af1f57a9d036a84168c8f5f3548c8880147"
        );
    }

    #[test]
    fn only_a_leading_plain_string_is_a_docstring() {
        assert_eq!(dump("def f():\n    'doc' 'more'\n"), plain(""));
        assert_eq!(
            dump("def f():\n    f'doc'\n"),
            plain("Expr(value=JoinedStr(values=[Constant(value='doc')]))")
        );
        assert_eq!(
            dump("def f():\n    pass\n    'not a docstring'\n"),
            plain("Pass(), Expr(value=Constant(value='not a docstring'))")
        );
    }

    #[test]
    fn string_reprs_follow_python() {
        assert_eq!(
            dump("def f():\n    pass\n    return \"it's\", 'say \"hi\"\\n', u'\\x00\\u200b\\U0001F600é'\n"),
            plain(
                "Pass(), Return(value=Tuple(elts=[Constant(value=\"it's\"), \
                 Constant(value='say \"hi\"\\n'), Constant(value='\\x00\\u200b😀é', kind='u')], ctx=Load()))"
            )
        );
        assert_eq!(
            dump("def f():\n    return b'\\x00\\'' b'\"'\n"),
            plain("Return(value=Constant(value=b'\\x00\\'\"'))")
        );
    }

    #[test]
    fn numbers_follow_python_repr() {
        assert_eq!(
            dump("def f():\n    return (1e16, 1e-7, 0.1, 1.5e300, 1e999, 2.5j, 1j, -1, 0xFFFFFFFFFFFFFFFFFF, 1_000.0)\n"),
            plain(
                "Return(value=Tuple(elts=[Constant(value=1e+16), Constant(value=1e-07), \
                 Constant(value=0.1), Constant(value=1.5e+300), Constant(value=inf), \
                 Constant(value=2.5j), Constant(value=1j), UnaryOp(op=USub(), operand=Constant(value=1)), \
                 Constant(value=4722366482869645213695), Constant(value=1000.0)], ctx=Load()))"
            )
        );
    }

    #[test]
    fn fstrings_are_joined_like_cpython_312() {
        assert_eq!(
            dump("def f():\n    return 'a' f'b{x!r:>{w}}' f'{y=}' u'c'\n"),
            plain(
                "Return(value=JoinedStr(values=[Constant(value='ab'), FormattedValue(value=Name(id='x', \
                 ctx=Load()), conversion=114, format_spec=JoinedStr(values=[Constant(value='>'), \
                 FormattedValue(value=Name(id='w', ctx=Load()), conversion=-1), Constant(value='')])), \
                 Constant(value='y='), FormattedValue(value=Name(id='y', ctx=Load()), conversion=114), \
                 Constant(value='c', kind='u')]))"
            )
        );
    }

    #[test]
    fn async_def_with_all_parameter_kinds() {
        assert_eq!(
            dump("async def g(a, /, b=1, *c, d, e=2, **f):\n    await a\n"),
            "AsyncFunctionDef(name='g', args=arguments(posonlyargs=[arg(arg='a')], args=[arg(arg='b')], \
             vararg=arg(arg='c'), kwonlyargs=[arg(arg='d'), arg(arg='e')], kw_defaults=[None, \
             Constant(value=2)], kwarg=arg(arg='f'), defaults=[Constant(value=1)]), \
             body=[Expr(value=Await(value=Name(id='a', ctx=Load())))], decorator_list=[], type_params=[])"
        );
    }

    #[test]
    fn nesting_beyond_cpythons_recursion_limit_is_cut_off() {
        let source = format!("def f():\n    return x{}\n", ".a".repeat(MAX_DEPTH + 100));
        let text = dump(&source);
        assert!(text.starts_with("FunctionDef(name='f', "));
        assert!(text.contains("Attribute(value=..., attr='a', ctx=Load())"));
    }

    #[test]
    fn crlf_sources_need_normalizing_like_cpython() {
        let source = "def f():\r\n    return '''a\r\nb''', '\\r'\r\n";
        assert_eq!(
            dump(&normalize_newlines(source)),
            plain(
                "Return(value=Tuple(elts=[Constant(value='a\\nb'), Constant(value='\\r')], \
                 ctx=Load()))"
            )
        );
    }

    #[test]
    fn json_string_literal_is_ascii_only() {
        assert_eq!(
            json_string_literal("a\"\\\n\r\t\u{8}\u{c}\u{1}\u{7f}é😀"),
            "\"a\\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u007f\\u00e9\\ud83d\\ude00\""
        );
    }
}
