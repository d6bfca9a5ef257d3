//! Expressions as CPython 3.12 prints them, constants and comprehensions
//! included, and the names of binary and comparison operators.

use super::reprs::{push_bytes_repr, push_number_repr, push_str_repr};
use super::Writer;
use ruff_python_ast::{self as ast, Expr};
use std::borrow::Cow;

impl Writer {
    pub(super) fn expr(&mut self, expr: &Expr) {
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
    pub(super) fn constant(&mut self, value: impl FnOnce(&mut String), unicode: bool) {
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

pub(super) fn operator_name(op: ast::Operator) -> &'static str {
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
