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
    let mut ends_early = EndsEarly(false);
    for stmt in &for_stmt.body {
        ends_early.visit_stmt(stmt);
    }
    if ends_early.0 || crate::python::rebinding::binds_in(&for_stmt.body, item.id.as_str()) {
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

/// Whether a loop's body holds a statement that leaves the loop or the
/// function (`break`, `continue`, `return`), so an iteration could end
/// before its append. Nested definitions and loops are scanned too: a
/// nested loop's `break` is harmless, but a conservative scan costs
/// nothing here.
struct EndsEarly(bool);

impl<'a> Visitor<'a> for EndsEarly {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if matches!(stmt, Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(_)) {
            self.0 = true;
        }
        visitor::walk_stmt(self, stmt);
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
        assert_eq!(
            appends("for t in (b, c):\n    tools.append(t)\n    break\n"),
            0
        );
        // The item is rebound before the append.
        assert_eq!(
            appends("for t in (b, c):\n    t = wrap(t)\n    tools.append(t)\n"),
            0
        );
        assert_eq!(
            appends(
                "for t in (b, c):\n    if (t := wrap(t)):\n        pass\n    tools.append(t)\n"
            ),
            0
        );
        // The append is under a condition, or appends something else.
        assert_eq!(
            appends("for t in (b, c):\n    if t:\n        tools.append(t)\n"),
            0
        );
        assert_eq!(appends("for t in (b, c):\n    tools.append(wrap(t))\n"), 0);
        // A tuple target.
        assert_eq!(appends("for t, u in ((b, c),):\n    tools.append(t)\n"), 0);
    }
}
