//! Which branches of the hook a name reaches: its tests on the name,
//! and the flow of its body.

use super::{literal_strings, Flow, Given, HookReader, Tri};
use ruff_python_ast::{self as ast, Expr, Stmt};
use std::collections::BTreeSet;

impl HookReader<'_> {
    /// The literal names the body's tests single out.
    pub(super) fn mentions(&self, body: &[Stmt], out: &mut BTreeSet<String>) {
        for stmt in body {
            match stmt {
                Stmt::If(s) => {
                    self.test_mentions(&s.test, out);
                    self.mentions(&s.body, out);
                    for clause in &s.elif_else_clauses {
                        if let Some(test) = &clause.test {
                            self.test_mentions(test, out);
                        }
                        self.mentions(&clause.body, out);
                    }
                }
                Stmt::Try(s) => {
                    self.mentions(&s.body, out);
                    self.mentions(&s.orelse, out);
                    self.mentions(&s.finalbody, out);
                    for ast::ExceptHandler::ExceptHandler(h) in &s.handlers {
                        self.mentions(&h.body, out);
                    }
                }
                Stmt::ImportFrom(s) if s.level == 1 && s.module.is_none() => {
                    // `from . import agent`: a name its returns may give.
                    for alias in &s.names {
                        out.insert(alias.name.id.to_string());
                    }
                }
                Stmt::Assign(assign) => {
                    if let Given::Submodule(name) = self.module_given(&assign.value, &self.locals) {
                        out.insert(name);
                    }
                }
                Stmt::Return(ret) => {
                    if let Some(Given::Submodule(name)) = ret
                        .value
                        .as_deref()
                        .map(|v| self.module_given(v, &self.locals))
                    {
                        out.insert(name);
                    }
                }
                _ => {}
            }
        }
    }

    pub(super) fn test_mentions(&self, test: &Expr, out: &mut BTreeSet<String>) {
        match test {
            Expr::Name(n) => {
                if let Some(keys) = self.lookup_keys(n.id.as_str()) {
                    out.extend(keys.iter().cloned());
                }
            }
            Expr::BoolOp(b) => b.values.iter().for_each(|v| self.test_mentions(v, out)),
            Expr::UnaryOp(u) => self.test_mentions(&u.operand, out),
            Expr::Compare(_) => {
                if let Some((_, names)) = self.comparison(test) {
                    out.extend(names);
                }
            }
            _ => {}
        }
    }

    /// `name == "x"`, `name != "x"`, `name in <literal or read-only
    /// module literal>`, `name not in …`: whether the test holds when the
    /// names are asked for (`true` for `==`/`in`), and the names.
    pub(super) fn comparison(&self, test: &Expr) -> Option<(bool, BTreeSet<String>)> {
        let Expr::Compare(cmp) = test else {
            return None;
        };
        let ([op], [right]) = (cmp.ops.as_ref(), cmp.comparators.as_ref()) else {
            return None;
        };
        let left = cmp.left.as_ref();
        let is_param = |e: &Expr| matches!(e, Expr::Name(n) if n.id.as_str() == self.param);
        let literal = |e: &Expr| match e {
            Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
            _ => None,
        };
        // `target is not None` of `target = D.get(name)` (`lookups.rs`).
        if let (ast::CmpOp::Is | ast::CmpOp::IsNot, Expr::Name(local), Expr::NoneLiteral(_)) =
            (op, left, right)
        {
            let keys = self.lookup_keys(local.id.as_str())?;
            return Some((*op == ast::CmpOp::IsNot, keys.clone()));
        }
        match op {
            ast::CmpOp::Eq | ast::CmpOp::NotEq => {
                let name = if is_param(left) {
                    literal(right)?
                } else if is_param(right) {
                    literal(left)?
                } else {
                    return None;
                };
                Some((*op == ast::CmpOp::Eq, BTreeSet::from([name])))
            }
            ast::CmpOp::In | ast::CmpOp::NotIn if is_param(left) => {
                let names = match right {
                    Expr::Name(n) => self
                        .containers
                        .iter()
                        .find(|(c, _)| c == n.id.as_str())
                        .filter(|_| !self.locals.iter().any(|(l, _)| l == n.id.as_str()))
                        .map(|(_, names)| names.clone())?,
                    other => literal_strings(other)?,
                };
                Some((*op == ast::CmpOp::In, names))
            }
            _ => None,
        }
    }

    pub(super) fn test(&self, test: &Expr, asked: Option<&str>) -> Tri {
        match test {
            Expr::BoolOp(b) => {
                let values = b.values.iter().map(|v| self.test(v, asked));
                match b.op {
                    ast::BoolOp::And => values.fold(Tri::True, |acc, v| match (acc, v) {
                        (Tri::False, _) | (_, Tri::False) => Tri::False,
                        (Tri::True, Tri::True) => Tri::True,
                        _ => Tri::Unknown,
                    }),
                    ast::BoolOp::Or => values.fold(Tri::False, |acc, v| match (acc, v) {
                        (Tri::True, _) | (_, Tri::True) => Tri::True,
                        (Tri::False, Tri::False) => Tri::False,
                        _ => Tri::Unknown,
                    }),
                }
            }
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::Not => self.test(&u.operand, asked).not(),
            // `if target:` of `target = D.get(name)` (`lookups.rs`).
            Expr::Name(n) if self.lookup_keys(n.id.as_str()).is_some() => {
                let keys = self.lookup_keys(n.id.as_str());
                Tri::of(asked.is_some_and(|a| keys.is_some_and(|k| k.contains(a))))
            }
            _ => match self.comparison(test) {
                Some((holds_when_in, names)) => {
                    let is_in = asked.is_some_and(|a| names.contains(a));
                    Tri::of(is_in == holds_when_in)
                }
                None => Tri::Unknown,
            },
        }
    }

    /// How `body` ends for `asked` (`None`: a name no test singles out).
    pub(super) fn walk(&self, body: &[Stmt], asked: Option<&str>) -> Flow {
        let mut flow = Flow {
            falls: true,
            ..Flow::default()
        };
        for stmt in body {
            match stmt {
                Stmt::Return(ret) => {
                    let given = ret.value.as_deref().map_or(Given::Unknown, |value| {
                        self.module_given(value, &self.locals)
                    });
                    flow.returns.push(given);
                    flow.falls = false;
                    return flow;
                }
                Stmt::Raise(raise) => {
                    if super::lookups::refuses(raise, self.binds_attribute_error) {
                        flow.returns.push(Given::Refused);
                    }
                    flow.falls = false;
                    return flow;
                }
                Stmt::If(s) => {
                    let clauses = std::iter::once((Some(s.test.as_ref()), &s.body)).chain(
                        s.elif_else_clauses
                            .iter()
                            .map(|c| (c.test.as_ref(), &c.body)),
                    );
                    let mut falls = false;
                    let mut decided = false;
                    for (test, clause_body) in clauses {
                        let result = test.map_or(Tri::True, |t| self.test(t, asked));
                        if result == Tri::False {
                            continue;
                        }
                        let inner = self.walk(clause_body, asked);
                        flow.returns.extend(inner.returns);
                        flow.opaque |= inner.opaque;
                        falls |= inner.falls;
                        if result == Tri::True {
                            decided = true;
                            break;
                        }
                    }
                    flow.falls = falls || !decided;
                }
                Stmt::Try(s) => {
                    let body = self.walk(&s.body, asked);
                    let orelse = if body.falls {
                        self.walk(&s.orelse, asked)
                    } else {
                        Flow::default()
                    };
                    let mut falls = orelse.falls;
                    flow.opaque |= body.opaque || orelse.opaque;
                    flow.returns.extend(body.returns);
                    flow.returns.extend(orelse.returns);
                    for ast::ExceptHandler::ExceptHandler(h) in &s.handlers {
                        let handler = self.walk(&h.body, asked);
                        flow.opaque |= handler.opaque;
                        falls |= handler.falls;
                        flow.returns.extend(handler.returns);
                    }
                    if !s.finalbody.is_empty() {
                        let finally = self.walk(&s.finalbody, asked);
                        flow.opaque |= finally.opaque;
                        flow.returns.extend(finally.returns);
                        falls &= finally.falls;
                    }
                    flow.falls = falls;
                }
                Stmt::Expr(_)
                | Stmt::Pass(_)
                | Stmt::Assign(_)
                | Stmt::AnnAssign(_)
                | Stmt::AugAssign(_)
                | Stmt::Global(_)
                | Stmt::Nonlocal(_)
                | Stmt::Import(_)
                | Stmt::ImportFrom(_)
                | Stmt::Assert(_) => {}
                _ => flow.opaque = true,
            }
            if !flow.falls {
                break;
            }
        }
        flow
    }
}
