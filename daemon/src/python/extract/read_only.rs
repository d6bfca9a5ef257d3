//! Uses of a name that only read what it holds (`ReadOnlyUse`): a
//! read-only builtin's argument, a membership test's container, an
//! f-string field, a comprehension's iterable, a truth test's operand.

use super::Collector;
use crate::python::facts::*;
use ruff_python_ast::{self as ast, Expr};

impl Collector<'_> {
    /// Uses of names inside `expr` that only read what the name holds,
    /// as `ReadOnlyUse` describes. Each is one `Expr::Name` load that
    /// `name_uses` also counts, recorded once, where its parent is seen.
    pub(super) fn record_read_only_uses(&mut self, expr: &Expr) {
        let mut found: Vec<ReadOnlyUse> = Vec::new();
        let mut truth_tests: Vec<&Expr> = Vec::new();
        let scope = self.function_scope();
        let mut read = |name: &ast::ExprName, via: Option<&str>| {
            found.push(ReadOnlyUse {
                name: name.id.as_str().into(),
                via: via.map(str::to_string).map(Into::into),
                scope: scope.clone().into(),
            });
        };
        match expr {
            Expr::Call(call) => {
                if let Expr::Name(callee) = call.func.as_ref() {
                    if READ_ONLY_BUILTINS.contains(&callee.id.as_str()) {
                        for arg in &call.arguments.args {
                            if let Expr::Name(name) = arg {
                                read(name, Some(callee.id.as_str()));
                            }
                        }
                    }
                }
                // A copy passed on (`describe(list(TOOLS))`): the callee
                // gets a new list, so `TOOLS` is only read. A capability
                // keyword's copy is the list reader's to count.
                let passed = call.arguments.args.iter().chain(
                    call.arguments
                        .keywords
                        .iter()
                        .filter(|k| {
                            k.arg
                                .as_ref()
                                .is_none_or(|a| !CAPABILITY_KEYWORDS.contains(&a.as_str()))
                        })
                        .map(|k| &k.value),
                );
                for argument in passed {
                    if let Some((copier, name)) = copied_name(argument) {
                        read(name, Some(copier));
                    }
                }
            }
            Expr::Compare(compare) => {
                for (op, comparator) in compare.ops.iter().zip(compare.comparators.iter()) {
                    if let (ast::CmpOp::In | ast::CmpOp::NotIn, Expr::Name(name)) = (op, comparator)
                    {
                        read(name, None);
                    }
                }
            }
            Expr::UnaryOp(unary) if unary.op == ast::UnaryOp::Not => {
                if let Expr::Name(name) = unary.operand.as_ref() {
                    read(name, None);
                }
            }
            Expr::FString(fstring) => {
                for element in fstring.value.elements() {
                    if let ast::InterpolatedStringElement::Interpolation(field) = element {
                        if let Expr::Name(name) = field.expression.as_ref() {
                            read(name, None);
                        }
                    }
                }
            }
            Expr::If(if_exp) => truth_tests.push(&if_exp.test),
            // Every comprehension only iterates what it reads (a list
            // comprehension's iterable in an agent's list is counted here
            // too, never by the list reader: one use, counted once).
            Expr::ListComp(ast::ExprListComp { generators, .. })
            | Expr::SetComp(ast::ExprSetComp { generators, .. })
            | Expr::DictComp(ast::ExprDictComp { generators, .. })
            | Expr::Generator(ast::ExprGenerator { generators, .. }) => {
                for generator in generators {
                    if let Expr::Name(name) = &generator.iter {
                        read(name, None);
                    }
                    truth_tests.extend(generator.ifs.iter());
                }
            }
            _ => {}
        }
        self.facts.read_only_uses.extend(found);
        for test in truth_tests {
            self.record_truth_tests(test);
        }
    }

    /// A test whose value is only truth-tested (`if x:`, `while x and y:`):
    /// a name there, or an operand of `and`/`or` there, only reads.
    pub(super) fn record_truth_tests(&mut self, test: &Expr) {
        match test {
            Expr::Name(name) if name.ctx.is_load() => {
                let scope = self.function_scope();
                self.facts.read_only_uses.push(ReadOnlyUse {
                    name: name.id.as_str().into(),
                    via: None,
                    scope: scope.into(),
                })
            }
            Expr::BoolOp(bool_op) => {
                for value in &bool_op.values {
                    self.record_truth_tests(value);
                }
            }
            _ => {}
        }
    }
}

/// `list(X)`, `tuple(X)`, `sorted(X)`: the builtin and the name it copies.
fn copied_name(expr: &Expr) -> Option<(&str, &ast::ExprName)> {
    let Expr::Call(call) = expr else {
        return None;
    };
    let Expr::Name(callee) = call.func.as_ref() else {
        return None;
    };
    let [Expr::Name(name)] = &call.arguments.args[..] else {
        return None;
    };
    (COPYING_BUILTINS.contains(&callee.id.as_str()) && call.arguments.keywords.is_empty())
        .then_some((callee.id.as_str(), name))
}
