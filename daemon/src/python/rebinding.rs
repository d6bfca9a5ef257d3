//! Whether a block of statements binds a name (syntax only): what the
//! readers of one statement's effect ask before trusting a name keeps its
//! value through the block (a loop's item, a registration's argument).

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};

/// Whether a body binds `name` anywhere: an assignment or other store
/// target (a loop's, a `with … as`, a walrus, a `del`), an import, a
/// `def` or `class`, an exception handler's name, or a `global` /
/// `nonlocal` naming it (nested definitions included).
pub(crate) fn binds_in(body: &[Stmt], name: &str) -> bool {
    struct Binds<'n> {
        name: &'n str,
        found: bool,
    }
    impl<'a> Visitor<'a> for Binds<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(def) => self.found |= def.name.id.as_str() == self.name,
                Stmt::ClassDef(class) => self.found |= class.name.id.as_str() == self.name,
                Stmt::Import(ast::StmtImport { names, .. })
                | Stmt::ImportFrom(ast::StmtImportFrom { names, .. }) => {
                    self.found |= names.iter().any(|alias| {
                        let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                        bound.id.as_str().split('.').next() == Some(self.name)
                            || bound.id.as_str() == "*"
                    })
                }
                Stmt::Global(ast::StmtGlobal { names, .. })
                | Stmt::Nonlocal(ast::StmtNonlocal { names, .. }) => {
                    self.found |= names.iter().any(|n| n.id.as_str() == self.name)
                }
                Stmt::Try(try_stmt) => {
                    for handler in &try_stmt.handlers {
                        let ast::ExceptHandler::ExceptHandler(handler) = handler;
                        self.found |= handler
                            .name
                            .as_ref()
                            .is_some_and(|n| n.id.as_str() == self.name);
                    }
                }
                _ => {}
            }
            visitor::walk_stmt(self, stmt);
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            if let Expr::Name(n) = expr {
                self.found |= !n.ctx.is_load() && n.id.as_str() == self.name;
            }
            visitor::walk_expr(self, expr);
        }
    }
    let mut binds = Binds { name, found: false };
    for stmt in body {
        binds.visit_stmt(stmt);
    }
    binds.found
}
