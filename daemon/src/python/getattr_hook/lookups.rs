//! A hook that looks the name up in a module dict and refuses the rest
//! (issue 40, item 8): `target = _EXPORTS.get(name)`, `if target is not
//! None: return …`, then `raise AttributeError(...)`.
//!
//! - `local = D.get(name)` (no default, or `None`), bound once at the
//!   hook's top level, where `D` is a module dict the module binds once,
//!   never stores into, and only reads (read-only uses, `D.get(…)`,
//!   `.keys()`, `.items()`, `.values()`), whose values are all non-empty
//!   string literals (or displays of them): `local is not None`, `local` as a truth test, hold
//!   exactly when the name is one of `D`'s keys, and `local is None` when
//!   it is not.
//! - `raise AttributeError(...)` (the builtin, which the module does not
//!   rebind) refuses the name: `hasattr` is false, so `from package import
//!   name` imports the package's submodule `name` (the import system falls
//!   back to it), and an attribute read of it finds the submodule once it
//!   is imported, or fails. Either way the name, where it is anything, is
//!   its submodule (`Given::Refused`).

use super::trust::{bound_once, module_assignments, stored_into};
use super::{literal_strings, HookReader};
use crate::python::facts::ModuleFacts;
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use std::collections::BTreeSet;

/// Each hook local bound to `D.get(name)` of a dict whose values are all
/// truthy literals, with `D`'s keys.
pub(super) fn lookups(
    def: &ast::StmtFunctionDef,
    param: &str,
    suite: &[Stmt],
    facts: &ModuleFacts,
) -> Vec<(String, BTreeSet<String>)> {
    let mut out = Vec::new();
    for stmt in &def.body {
        let Stmt::Assign(assign) = stmt else {
            continue;
        };
        let ([Expr::Name(local)], Expr::Call(call)) =
            (assign.targets.as_slice(), assign.value.as_ref())
        else {
            continue;
        };
        let Expr::Attribute(attribute) = call.func.as_ref() else {
            continue;
        };
        let Expr::Name(dict) = attribute.value.as_ref() else {
            continue;
        };
        let default_none = match call.arguments.args.as_ref() {
            [Expr::Name(n)] => n.id.as_str() == param,
            [Expr::Name(n), Expr::NoneLiteral(_)] => n.id.as_str() == param,
            _ => false,
        };
        if attribute.attr.as_str() != "get"
            || !default_none
            || !call.arguments.keywords.is_empty()
            || binds_elsewhere(&def.body, local.id.as_str())
        {
            continue;
        }
        if let Some(keys) = only_looked_up(suite, facts, dict.id.as_str()) {
            out.push((local.id.to_string(), keys));
        }
    }
    out
}

/// The keys of the module dict `dict` when the module binds it once to a
/// display whose values are all truthy literals, stores into it nowhere,
/// and every use of it only reads it: a read-only use, or a call of its
/// `get`, `keys`, `items` or `values`.
fn only_looked_up(suite: &[Stmt], facts: &ModuleFacts, dict: &str) -> Option<BTreeSet<String>> {
    if !bound_once(facts, dict) || stored_into(facts, dict) {
        return None;
    }
    let (_, value) = module_assignments(suite).find(|(name, _)| *name == dict)?;
    let Expr::Dict(display) = value else {
        return None;
    };
    if !display.items.iter().all(|item| truthy_literal(&item.value)) {
        return None;
    }
    let keys = literal_strings(value)?;
    let uses = facts.name_uses.get(dict).copied().unwrap_or(0);
    let reads = facts
        .read_only_uses
        .iter()
        .filter(|u| u.name == dict)
        .count();
    let mut lookups = LookupCalls { dict, count: 0 };
    for stmt in suite {
        lookups.visit_stmt(stmt);
    }
    let reads = u32::try_from(reads + lookups.count).ok()?;
    (reads == uses).then_some(keys)
}

/// Counts `dict.get(…)`, `.keys()`, `.items()`, `.values()` calls.
struct LookupCalls<'d> {
    dict: &'d str,
    count: usize,
}

impl<'a> Visitor<'a> for LookupCalls<'_> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(call) = expr {
            if let Expr::Attribute(attribute) = call.func.as_ref() {
                if matches!(attribute.value.as_ref(), Expr::Name(n) if n.id.as_str() == self.dict)
                    && matches!(attribute.attr.as_str(), "get" | "keys" | "items" | "values")
                {
                    self.count += 1;
                }
            }
        }
        visitor::walk_expr(self, expr);
    }
}

/// Whether the hook binds `local` more than once (at any depth: an
/// assignment, a loop target, a `with`; a statement not followed counts
/// as one more).
fn binds_elsewhere(body: &[Stmt], local: &str) -> bool {
    let mut count = 0usize;
    count_bindings(body, local, &mut count, 0);
    count != 1
}

fn count_bindings(body: &[Stmt], local: &str, count: &mut usize, depth: usize) {
    if depth > 64 {
        *count += 2;
        return;
    }
    let named = |e: &Expr| matches!(e, Expr::Name(n) if n.id.as_str() == local);
    for stmt in body {
        match stmt {
            Stmt::Assign(a) => {
                *count += a
                    .targets
                    .iter()
                    .filter(|t| !matches!(t, Expr::Name(_)) || named(t))
                    .count()
            }
            Stmt::AnnAssign(a) if named(&a.target) => *count += 1,
            Stmt::AugAssign(a) if named(&a.target) => *count += 1,
            Stmt::For(f) => {
                if !matches!(f.target.as_ref(), Expr::Name(n) if n.id.as_str() != local) {
                    *count += 1;
                }
                count_bindings(&f.body, local, count, depth + 1);
                count_bindings(&f.orelse, local, count, depth + 1);
            }
            Stmt::If(s) => {
                count_bindings(&s.body, local, count, depth + 1);
                for clause in &s.elif_else_clauses {
                    count_bindings(&clause.body, local, count, depth + 1);
                }
            }
            Stmt::Try(s) => {
                count_bindings(&s.body, local, count, depth + 1);
                count_bindings(&s.orelse, local, count, depth + 1);
                count_bindings(&s.finalbody, local, count, depth + 1);
                for ast::ExceptHandler::ExceptHandler(h) in &s.handlers {
                    if h.name.as_ref().is_some_and(|n| n.as_str() == local) {
                        *count += 1;
                    }
                    count_bindings(&h.body, local, count, depth + 1);
                }
            }
            Stmt::With(w) => {
                if w.items.iter().any(|i| {
                    i.optional_vars
                        .as_deref()
                        .is_some_and(|v| !matches!(v, Expr::Name(n) if n.id.as_str() != local))
                }) {
                    *count += 1;
                }
                count_bindings(&w.body, local, count, depth + 1);
            }
            Stmt::While(w) => count_bindings(&w.body, local, count, depth + 1),
            Stmt::Import(_)
            | Stmt::ImportFrom(_)
            | Stmt::FunctionDef(_)
            | Stmt::ClassDef(_)
            | Stmt::Match(_)
            | Stmt::Global(_)
            | Stmt::Nonlocal(_)
            | Stmt::Delete(_) => {
                // Not followed: taken as a possible binding.
                *count += 2;
            }
            _ => {}
        }
    }
}

/// A non-empty string literal, or a non-empty display of them: never
/// `None`, never falsy.
fn truthy_literal(value: &Expr) -> bool {
    match value {
        Expr::StringLiteral(s) => !s.value.to_str().is_empty(),
        Expr::Tuple(t) => !t.elts.is_empty() && t.elts.iter().all(truthy_literal),
        Expr::List(l) => !l.elts.is_empty() && l.elts.iter().all(truthy_literal),
        _ => false,
    }
}

/// Whether `raise` raises the builtin `AttributeError` (bare or called),
/// which the module does not rebind.
pub(super) fn refuses(raise: &ast::StmtRaise, facts_binds_attribute_error: bool) -> bool {
    if facts_binds_attribute_error {
        return false;
    }
    let is_name = |e: &Expr| matches!(e, Expr::Name(n) if n.id.as_str() == "AttributeError");
    match raise.exc.as_deref() {
        Some(Expr::Call(call)) => is_name(&call.func),
        Some(other) => is_name(other),
        None => false,
    }
}

impl HookReader<'_> {
    /// The keys a lookup local's truth says the name is among.
    pub(super) fn lookup_keys(&self, local: &str) -> Option<&BTreeSet<String>> {
        self.lookups
            .iter()
            .find(|(name, _)| name == local)
            .map(|(_, keys)| keys)
    }
}

/// Whether the module binds the name `AttributeError` itself.
pub(super) fn binds_attribute_error(facts: &ModuleFacts) -> bool {
    facts
        .module_bindings
        .iter()
        .any(|b| b.name == "AttributeError")
        || facts
            .functions
            .iter()
            .any(|f| f.binds_local("AttributeError"))
}
