//! Whether the package can change what its hook's import gives.

use super::super::facts::{BindingKind, ModuleFacts};
use super::{literal_strings, sole_parameter};
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};
use std::collections::BTreeSet;

/// Whether nothing in the package can change what the hook's import
/// gives: no rebinding of the names it rests on, no patch of `importlib`,
/// no store into the module namespace but the hook's own cache.
pub(super) fn package_trusts_hooks(
    suite: &[Stmt],
    facts: &ModuleFacts,
    hook: &ast::StmtFunctionDef,
) -> bool {
    let rebinds = facts.module_bindings.iter().any(|b| {
        matches!(b.name.as_str(), "__name__" | "__package__" | "__path__")
            || (b.name == "__getattr__" && b.kind != BindingKind::Function)
    });
    let importlib_names: BTreeSet<&str> = facts
        .imports
        .iter()
        .filter(|i| i.module == "importlib" || i.module.starts_with("importlib."))
        .map(|i| i.bound_name())
        .collect();
    let patches_importlib = facts.attribute_stores.iter().any(|store| {
        store
            .target
            .first()
            .is_some_and(|root| importlib_names.contains(root.as_str()))
    });
    let sys_names: BTreeSet<String> = facts
        .imports
        .iter()
        .filter(|i| i.module == "sys" && i.name.is_none())
        .map(|i| i.bound_name().to_string())
        .collect();
    let from_sys_modules: BTreeSet<String> = facts
        .imports
        .iter()
        .filter(|i| i.module == "sys" && i.name.as_deref() == Some("modules"))
        .map(|i| i.bound_name().to_string())
        .collect();
    let mut scan = NamespaceStores {
        sys_names,
        from_sys_modules,
        cache: own_cache(hook),
        found: false,
    };
    for stmt in suite {
        scan.visit_stmt(stmt);
    }
    !rebinds && !patches_importlib && !scan.found
}

/// The statements of the hook that store its result under its own name
/// (`globals()[name] = module`): the idiom's cache.
fn own_cache(hook: &ast::StmtFunctionDef) -> Vec<TextRange> {
    let Some(param) = sole_parameter(hook) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    collect_cache(&hook.body, param, &mut out);
    out
}

fn collect_cache(body: &[Stmt], param: &str, out: &mut Vec<TextRange>) {
    for stmt in body {
        match stmt {
            Stmt::Assign(assign) => {
                let caches = assign.targets.iter().all(|target| match target {
                    Expr::Subscript(sub) => {
                        is_globals_call(&sub.value)
                            && matches!(sub.slice.as_ref(), Expr::Name(n) if n.id.as_str() == param)
                    }
                    _ => false,
                });
                if caches && !assign.targets.is_empty() {
                    out.push(assign.range());
                }
            }
            Stmt::If(s) => {
                collect_cache(&s.body, param, out);
                for clause in &s.elif_else_clauses {
                    collect_cache(&clause.body, param, out);
                }
            }
            Stmt::Try(s) => {
                collect_cache(&s.body, param, out);
                collect_cache(&s.orelse, param, out);
                collect_cache(&s.finalbody, param, out);
            }
            _ => {}
        }
    }
}

fn is_globals_call(expr: &Expr) -> bool {
    matches!(expr, Expr::Call(call)
        if matches!(call.func.as_ref(), Expr::Name(n) if matches!(n.id.as_str(), "globals" | "vars"))
            && call.arguments.args.is_empty())
}

/// Finds a store into the module namespace: `globals()[k] = v`,
/// `sys.modules[k] = m`, an attribute of `sys.modules[k]`, a changing
/// method of either (`update`, `setdefault`, `pop`, …), or `del` of an
/// item.
struct NamespaceStores {
    sys_names: BTreeSet<String>,
    from_sys_modules: BTreeSet<String>,
    cache: Vec<TextRange>,
    found: bool,
}

impl NamespaceStores {
    fn is_namespace(&self, expr: &Expr) -> bool {
        match expr {
            Expr::Attribute(attr) => {
                attr.attr.id.as_str() == "modules"
                    && matches!(attr.value.as_ref(), Expr::Name(n) if self.sys_names.contains(n.id.as_str()))
            }
            Expr::Name(n) => self.from_sys_modules.contains(n.id.as_str()),
            other => is_globals_call(other),
        }
    }

    /// A store target that writes into the namespace or one of its
    /// modules (`sys.modules["m"].x = v`).
    fn stores_into(&self, target: &Expr) -> bool {
        match target {
            Expr::Subscript(sub) => self.is_namespace(&sub.value) || self.stores_into(&sub.value),
            Expr::Attribute(attr) => match attr.value.as_ref() {
                Expr::Subscript(sub) => self.is_namespace(&sub.value),
                _ => false,
            },
            Expr::Tuple(t) => t.elts.iter().any(|e| self.stores_into(e)),
            Expr::List(l) => l.elts.iter().any(|e| self.stores_into(e)),
            Expr::Starred(s) => self.stores_into(&s.value),
            _ => false,
        }
    }
}

impl<'a> Visitor<'a> for NamespaceStores {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if self.found || self.cache.contains(&stmt.range()) {
            return;
        }
        let stores = match stmt {
            Stmt::Assign(s) => s.targets.iter().any(|t| self.stores_into(t)),
            Stmt::AugAssign(s) => self.stores_into(&s.target),
            Stmt::AnnAssign(s) => self.stores_into(&s.target),
            Stmt::Delete(s) => s.targets.iter().any(|t| self.stores_into(t)),
            _ => false,
        };
        if stores {
            self.found = true;
            return;
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if self.found {
            return;
        }
        if let Expr::Call(call) = expr {
            let changes = match call.func.as_ref() {
                Expr::Attribute(attr) => {
                    self.is_namespace(&attr.value)
                        && !matches!(
                            attr.attr.id.as_str(),
                            "get" | "keys" | "values" | "items" | "copy" | "__contains__"
                        )
                }
                // `setattr(sys.modules[__name__], …)`.
                Expr::Name(n) => {
                    n.id.as_str() == "setattr"
                        && call
                            .arguments
                            .args
                            .first()
                            .is_some_and(|first| match first {
                                Expr::Subscript(sub) => self.is_namespace(&sub.value),
                                _ => false,
                            })
                }
                _ => false,
            };
            if changes {
                self.found = true;
                return;
            }
        }
        visitor::walk_expr(self, expr);
    }
}

/// Module-level names bound once, unconditionally, to a literal container
/// of strings, whose every use in the module only reads it.
pub(super) fn read_only_containers(
    suite: &[Stmt],
    facts: &ModuleFacts,
) -> Vec<(String, BTreeSet<String>)> {
    let mut out = Vec::new();
    for (name, value) in module_assignments(suite) {
        let once = bound_once(facts, name);
        let uses = facts.name_uses.get(name).copied().unwrap_or(0);
        let reads = facts
            .read_only_uses
            .iter()
            .filter(|u| u.name == name)
            .count();
        let only_read = u32::try_from(reads).is_ok_and(|reads| reads == uses);
        if once && only_read && !stored_into(facts, name) {
            if let Some(names) = literal_strings(value) {
                out.push((name.to_string(), names));
            }
        }
    }
    out
}

/// Module-level `name = value` (or `name: T = value`) statements with one
/// plain name as the target.
pub(super) fn module_assignments(suite: &[Stmt]) -> impl Iterator<Item = (&str, &Expr)> {
    suite.iter().filter_map(|stmt| {
        let (target, value) = match stmt {
            Stmt::Assign(a) if a.targets.len() == 1 => (&a.targets[0], a.value.as_ref()),
            Stmt::AnnAssign(a) => (a.target.as_ref(), a.value.as_deref()?),
            _ => return None,
        };
        match target {
            Expr::Name(name) => Some((name.id.as_str(), value)),
            _ => None,
        }
    })
}

/// Whether the module binds `name` once and no function declares it
/// `global`.
pub(super) fn bound_once(facts: &ModuleFacts, name: &str) -> bool {
    facts
        .module_bindings_named(name)
        .filter(|b| b.name == name)
        .count()
        == 1
        && facts
            .functions
            .iter()
            .all(|f| !f.globals.iter().any(|g| g == name))
}

/// Whether an attribute of `name` is stored into (`name.x = …`).
pub(super) fn stored_into(facts: &ModuleFacts, name: &str) -> bool {
    facts
        .attribute_stores
        .iter()
        .any(|s| s.target.first().is_some_and(|r| r == name))
}
