//! A loop over a literal sequence that only appends its item to a list
//! (`for t in (b, c): tools.append(t)`): the same addition as
//! `tools.extend((b, c))`, recorded as that (item 11 of issue 40).
//!
//! Why it is sound: the sequence is evaluated once, before the first
//! iteration, and is a display of known length; the body runs once per
//! element with the item bound to it when nothing in the body can end the
//! loop early (`break`, `continue`, `return`) or rebind the item before the
//! append, and the append is a statement of the body itself (not under an
//! `if`, a `try` or a nested loop). Then after the loop the list holds every
//! element, exactly as after the `extend`. Any other loop keeps its
//! additions conditional (a named limit).

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};

/// The `append` calls of a loop that add each element of its literal
/// sequence, with that sequence; empty when the loop is not of that shape.
pub(super) fn appends_of_each_element(for_stmt: &ast::StmtFor) -> Vec<&ast::ExprCall> {
    let Expr::Name(item) = for_stmt.target.as_ref() else {
        return Vec::new();
    };
    let elements = match for_stmt.iter.as_ref() {
        Expr::List(list) => &list.elts,
        Expr::Tuple(tuple) => &tuple.elts,
        _ => return Vec::new(),
    };
    if for_stmt.is_async || elements.iter().any(Expr::is_starred_expr) {
        return Vec::new();
    }
    let mut scan = BodyScan {
        item: item.id.as_str(),
        ends_early: false,
        rebinds_item: false,
    };
    for stmt in &for_stmt.body {
        scan.visit_stmt(stmt);
    }
    if scan.ends_early || scan.rebinds_item {
        return Vec::new();
    }
    for_stmt
        .body
        .iter()
        .filter_map(|stmt| match stmt {
            Stmt::Expr(ast::StmtExpr { value, .. }) => match value.as_ref() {
                Expr::Call(call) if appends_item(call, item.id.as_str()) => Some(call),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// `<list>.append(<item>)`, nothing else passed.
fn appends_item(call: &ast::ExprCall, item: &str) -> bool {
    let Expr::Attribute(method) = call.func.as_ref() else {
        return false;
    };
    method.attr.id.as_str() == "append"
        && super::records::list_target(&method.value).is_some()
        && call.arguments.keywords.is_empty()
        && matches!(call.arguments.args.as_ref(), [Expr::Name(name)] if name.id.as_str() == item)
}

/// What in a loop's body could make an iteration skip its append or append
/// something else: a statement that leaves the loop or the function, or a
/// binding of the item's name (an assignment, a nested loop's target, a
/// `with … as`, a walrus, a `del`, an import, a definition, a handler's
/// name). Nested functions and classes are scanned too: their statements do
/// not run here, but a `global`/`nonlocal` in them could rebind the item.
struct BodyScan<'n> {
    item: &'n str,
    ends_early: bool,
    rebinds_item: bool,
}

impl<'a> Visitor<'a> for BodyScan<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(_) => self.ends_early = true,
            Stmt::FunctionDef(def) => self.rebinds_item |= def.name.id.as_str() == self.item,
            Stmt::ClassDef(class) => self.rebinds_item |= class.name.id.as_str() == self.item,
            Stmt::Import(import) => {
                self.rebinds_item |= import.names.iter().any(|alias| {
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                    bound.id.as_str().split('.').next() == Some(self.item)
                })
            }
            Stmt::ImportFrom(import) => {
                self.rebinds_item |= import.names.iter().any(|alias| {
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                    bound.id.as_str() == self.item || bound.id.as_str() == "*"
                })
            }
            Stmt::Global(ast::StmtGlobal { names, .. })
            | Stmt::Nonlocal(ast::StmtNonlocal { names, .. }) => {
                self.rebinds_item |= names.iter().any(|n| n.id.as_str() == self.item)
            }
            Stmt::Try(try_stmt) => {
                for handler in &try_stmt.handlers {
                    let ast::ExceptHandler::ExceptHandler(handler) = handler;
                    self.rebinds_item |= handler
                        .name
                        .as_ref()
                        .is_some_and(|n| n.id.as_str() == self.item);
                }
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Name(name) = expr {
            if !name.ctx.is_load() && name.id.as_str() == self.item {
                self.rebinds_item = true;
            }
        }
        visitor::walk_expr(self, expr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn appends(source: &str) -> usize {
        let parsed = ruff_python_parser::parse_module(source).expect("fixture parses");
        match parsed.suite().as_slice() {
            [Stmt::For(for_stmt)] => appends_of_each_element(for_stmt).len(),
            _ => panic!("fixture is one loop"),
        }
    }

    #[test]
    fn a_loop_appending_each_element_of_a_display_is_an_extend() {
        assert_eq!(appends("for t in (b, c):\n    tools.append(t)\n"), 1);
        assert_eq!(
            appends("for t in [b, c]:\n    log(t)\n    self.tools.append(t)\n"),
            1
        );
    }

    #[test]
    fn a_loop_that_may_skip_or_change_its_item_is_not() {
        // The sequence is not a display.
        assert_eq!(appends("for t in TOOLS:\n    tools.append(t)\n"), 0);
        assert_eq!(appends("for t in (*a, c):\n    tools.append(t)\n"), 0);
        // An iteration can end before its append.
        assert_eq!(
            appends("for t in (b, c):\n    if t is b:\n        continue\n    tools.append(t)\n"),
            0
        );
        assert_eq!(appends("for t in (b, c):\n    tools.append(t)\n    break\n"), 0);
        // The item is rebound before the append.
        assert_eq!(appends("for t in (b, c):\n    t = wrap(t)\n    tools.append(t)\n"), 0);
        assert_eq!(
            appends("for t in (b, c):\n    if (t := wrap(t)):\n        pass\n    tools.append(t)\n"),
            0
        );
        // The append is under a condition, or appends something else.
        assert_eq!(appends("for t in (b, c):\n    if t:\n        tools.append(t)\n"), 0);
        assert_eq!(appends("for t in (b, c):\n    tools.append(wrap(t))\n"), 0);
        // A tuple target.
        assert_eq!(appends("for t, u in ((b, c),):\n    tools.append(t)\n"), 0);
    }
}
