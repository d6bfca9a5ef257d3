//! Lazy re-export registries (issue 40): a package that answers names
//! from other modules on first access,
//!
//! ```python
//! _LAZY_IMPORTS = {"lookup": (".search.tools", "lookup"), ...}
//!
//! def __getattr__(name):
//!     if name in _LAZY_IMPORTS:
//!         module_path, attr_name = _LAZY_IMPORTS[name]
//!         module = importlib.import_module(module_path, __package__)
//!         return getattr(module, attr_name)
//!     raise AttributeError(name)
//! ```
//!
//! gives `lookup` exactly as `from .search.tools import lookup` would.
//! Sound because the registry is a module-level dict display of string
//! keys and tuples of string literals, bound once, never declared
//! `global`, and every use of it in the module only reads it (a membership
//! test, an item read, `.keys()`/`.values()`/`.items()`/`.get()`, a
//! read-only or copying builtin's argument); the hook itself is read by
//! the same walk as the submodule idiom (`tests_on_names`), so a name is
//! taken only when every return it reaches gives that one entry's
//! attribute.

use super::super::facts::{ModuleFacts, COPYING_BUILTINS, READ_ONLY_BUILTINS};
use super::trust::{bound_once, module_assignments, stored_into};
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use std::collections::{BTreeMap, BTreeSet};

/// Entries a registry may hold before it is not read.
const MAX_ENTRIES: usize = 2000;

/// A module-level dict of `name: ("module", "attribute", ...)` the
/// module only reads.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Registry {
    pub name: String,
    pub entries: BTreeMap<String, Vec<String>>,
}

/// The module's registries.
pub(super) fn registries(suite: &[Stmt], facts: &ModuleFacts) -> Vec<Registry> {
    let mut out = Vec::new();
    // A builtin's name the module binds anywhere is not that builtin.
    let bound: BTreeSet<&str> = facts
        .module_bindings
        .iter()
        .chain(facts.functions.iter().flat_map(|f| f.body().locals.iter()))
        .map(|b| b.name.as_str())
        .chain(
            facts
                .functions
                .iter()
                .flat_map(|f| f.params.iter().map(|p| p.name.as_str())),
        )
        .collect();
    for (name, value) in module_assignments(suite) {
        let Some(entries) = entries_of(value) else {
            continue;
        };
        let mut uses = Uses {
            name,
            bound: &bound,
            other: false,
        };
        for stmt in suite {
            uses.visit_stmt(stmt);
        }
        if bound_once(facts, name) && !stored_into(facts, name) && !uses.other {
            out.push(Registry {
                name: name.to_string(),
                entries,
            });
        }
    }
    out
}

/// `{"k": ("a", "b"), ...}`: every key a string, every value a tuple of
/// strings.
fn entries_of(value: &Expr) -> Option<BTreeMap<String, Vec<String>>> {
    let Expr::Dict(dict) = value else {
        return None;
    };
    if dict.items.len() > MAX_ENTRIES {
        return None;
    }
    let mut entries = BTreeMap::new();
    for item in &dict.items {
        let Some(Expr::StringLiteral(key)) = &item.key else {
            return None;
        };
        let Expr::Tuple(tuple) = &item.value else {
            return None;
        };
        let parts = tuple
            .elts
            .iter()
            .map(|e| match e {
                Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        entries.insert(key.value.to_str().to_string(), parts);
    }
    Some(entries)
}

/// Finds a use of the registry's name that may do more than read it.
struct Uses<'n> {
    name: &'n str,
    bound: &'n BTreeSet<&'n str>,
    other: bool,
}

impl Uses<'_> {
    fn is_it(&self, expr: &Expr) -> bool {
        matches!(expr, Expr::Name(n) if n.id.as_str() == self.name)
    }
}

impl<'a> Visitor<'a> for Uses<'_> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            // `x in R`, `x not in R`.
            Expr::Compare(compare) => {
                self.visit_expr(&compare.left);
                for (op, comparator) in compare.ops.iter().zip(compare.comparators.iter()) {
                    let membership = matches!(op, ast::CmpOp::In | ast::CmpOp::NotIn);
                    if !(membership && self.is_it(comparator)) {
                        self.visit_expr(comparator);
                    }
                }
            }
            // `R[k]` read (a store or `del` is a change).
            Expr::Subscript(sub) if self.is_it(&sub.value) => {
                if !sub.ctx.is_load() {
                    self.other = true;
                }
                self.visit_expr(&sub.slice);
            }
            // `R.keys()`, `R.get(k)`, ...
            Expr::Call(call) => {
                let reads_it = match call.func.as_ref() {
                    Expr::Attribute(attr) => {
                        self.is_it(&attr.value)
                            && matches!(attr.attr.id.as_str(), "keys" | "values" | "items" | "get")
                    }
                    _ => false,
                };
                let builtin = matches!(call.func.as_ref(), Expr::Name(n)
                    if (READ_ONLY_BUILTINS.contains(&n.id.as_str())
                        || COPYING_BUILTINS.contains(&n.id.as_str()))
                        && !self.bound.contains(n.id.as_str()));
                if !reads_it {
                    self.visit_expr(&call.func);
                }
                for arg in call.arguments.args.iter() {
                    if !(builtin && self.is_it(arg)) {
                        self.visit_expr(arg);
                    }
                }
                for keyword in call.arguments.keywords.iter() {
                    self.visit_expr(&keyword.value);
                }
            }
            Expr::Name(n) if n.id.as_str() == self.name => self.other = true,
            _ => visitor::walk_expr(self, expr),
        }
    }

    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            // The registry's own binding.
            Stmt::Assign(a) if a.targets.len() == 1 && self.is_it(&a.targets[0]) => {
                self.visit_expr(&a.value)
            }
            Stmt::AnnAssign(a) if self.is_it(&a.target) => {
                if let Some(value) = &a.value {
                    self.visit_expr(value);
                }
            }
            _ => visitor::walk_stmt(self, stmt),
        }
    }
}
