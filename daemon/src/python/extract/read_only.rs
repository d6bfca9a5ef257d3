//! Uses of a name that only read what it holds (`ReadOnlyUse`): a
//! read-only builtin's argument, a membership test's container, an
//! f-string field, a comprehension's iterable, a truth test's operand.
//! And, inside a class, each `self.X` in such a place (`SelfRead`), with
//! the callee it is passed to when it is an argument.

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
        // Operands that may be `self.X`, with the callee they are passed to.
        let mut operands: Vec<(&Expr, Option<Text>)> = Vec::new();
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
                if let Some(callee) = spelled_callee(call.func.as_ref()) {
                    let passed = call.arguments.args.iter();
                    let passed = passed.chain(
                        call.arguments
                            .keywords
                            .iter()
                            .filter(|k| k.arg.is_some())
                            .map(|k| &k.value),
                    );
                    operands.extend(passed.map(|argument| (argument, Some(callee.clone()))));
                }
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
                operands.push((compare.left.as_ref(), None));
                operands.extend(compare.comparators.iter().map(|c| (c, None)));
                for (op, comparator) in compare.ops.iter().zip(compare.comparators.iter()) {
                    if let (ast::CmpOp::In | ast::CmpOp::NotIn, Expr::Name(name)) = (op, comparator)
                    {
                        read(name, None);
                    }
                }
            }
            Expr::UnaryOp(unary) if unary.op == ast::UnaryOp::Not => {
                operands.push((unary.operand.as_ref(), None));
                if let Expr::Name(name) = unary.operand.as_ref() {
                    read(name, None);
                }
            }
            Expr::FString(fstring) => {
                for element in fstring.value.elements() {
                    if let ast::InterpolatedStringElement::Interpolation(field) = element {
                        operands.push((field.expression.as_ref(), None));
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
                    operands.push((&generator.iter, None));
                    if let Expr::Name(name) = &generator.iter {
                        read(name, None);
                    }
                    truth_tests.extend(generator.ifs.iter());
                }
            }
            // `"…%s…" % self.x`, `"…" % (self.x, …)`.
            Expr::BinOp(bin_op)
                if bin_op.op == ast::Operator::Mod
                    && matches!(bin_op.left.as_ref(), Expr::StringLiteral(_)) =>
            {
                match bin_op.right.as_ref() {
                    Expr::Tuple(tuple) => operands.extend(tuple.elts.iter().map(|e| (e, None))),
                    other => operands.push((other, None)),
                }
            }
            _ => {}
        }
        self.record_self_reads(&operands);
        self.facts.read_only_uses.extend(found);
        for test in truth_tests {
            self.record_truth_tests(test);
        }
    }

    /// A test whose value is only truth-tested (`if x:`, `while x and y:`):
    /// a name there, or an operand of `and`/`or` there, only reads.
    pub(super) fn record_truth_tests(&mut self, test: &Expr) {
        self.record_self_reads(&[(test, None)]);
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

impl Collector<'_> {
    /// Records each operand that is `self.X` as a read of `X` on every
    /// class the code is in (as `record_class_attribute` counts them).
    pub(super) fn record_self_reads(&mut self, operands: &[(&Expr, Option<Text>)]) {
        if self.recorded_call_depth > 0 || !self.scopes.iter().any(|s| s.class.is_some()) {
            return;
        }
        let reads: Vec<SelfRead> = operands
            .iter()
            .filter_map(|(operand, via)| {
                let Expr::Attribute(attribute) = operand else {
                    return None;
                };
                let on_self =
                    matches!(attribute.value.as_ref(), Expr::Name(n) if n.id.as_str() == "self");
                on_self.then(|| SelfRead {
                    attribute: attribute.attr.id.as_str().into(),
                    via: via.clone(),
                })
            })
            .collect();
        if reads.is_empty() {
            return;
        }
        let classes: Vec<usize> = self.scopes.iter().filter_map(|s| s.class).collect();
        for index in classes {
            if let Some(class) = self.facts.classes.get_mut(index) {
                class.self_reads.extend(reads.iter().cloned());
            }
        }
    }
}

/// A callee as spelled, when it is a plain name (`len`), a method of one
/// (`logger.info`) or a string literal's `format`: `str.format`.
fn spelled_callee(callee: &Expr) -> Option<Text> {
    match callee {
        Expr::Name(name) => Some(name.id.as_str().into()),
        Expr::Attribute(attribute) => match attribute.value.as_ref() {
            Expr::Name(object) => Some(format!("{}.{}", object.id, attribute.attr.id).into()),
            Expr::StringLiteral(_) if attribute.attr.id.as_str() == "format" => {
                Some("str.format".into())
            }
            _ => None,
        },
        _ => None,
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
