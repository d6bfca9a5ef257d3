//! An expression modelled as a bounded `Value`: names, attributes,
//! literals, calls, subscripts, operators, f-strings (and the
//! `"…".format(…)` and `"…" % …` templates that spell one), one-generator
//! list comprehensions; past the depth or member bound, an unread part.

use crate::python::facts::*;
use ruff_python_ast::{self as ast, Expr};

/// How deep an expression is modelled; deeper parts become `Value::Other`.
const MAX_VALUE_DEPTH: usize = 16;
/// How many members of one literal list are modelled.
const MAX_LIST_MEMBERS: usize = 1000;

/// Models an expression as a bounded `Value`.
pub(super) fn value_of(expr: &Expr, depth: usize) -> Value {
    if depth > MAX_VALUE_DEPTH {
        return Value::Other("nested too deep".into());
    }
    let next = depth + 1;
    // Past the bound the rest is one unread member, never dropped
    // silently: every reader names an unread member as a limit.
    let members = |elts: &[Expr]| -> Vec<Value> {
        let mut members: Vec<Value> = elts
            .iter()
            .take(MAX_LIST_MEMBERS)
            .map(|e| value_of(e, next))
            .collect();
        if elts.len() > MAX_LIST_MEMBERS {
            members.push(Value::Other(MEMBERS_PAST_BOUND.into()));
        }
        members
    };
    match expr {
        Expr::Name(name) => Value::Name(name.id.as_str().into()),
        Expr::Attribute(attr) => match value_of(&attr.value, next) {
            Value::Name(base) => Value::Attribute(vec![base, attr.attr.id.as_str().into()]),
            Value::Attribute(mut parts) => {
                parts.push(attr.attr.id.as_str().into());
                Value::Attribute(parts)
            }
            // `",".join(ids)`: a string's own method, by name.
            _ if matches!(attr.value.as_ref(), Expr::StringLiteral(_)) => {
                Value::Other(format!("{STRING_METHOD}{}", attr.attr.id).into())
            }
            _ if attr.attr.id.as_str() == "clone" => Value::Other(EXPRESSION_CLONE.into()),
            _ => Value::Other("attribute of an expression".into()),
        },
        Expr::StringLiteral(s) => Value::Str(s.value.to_str().into()),
        Expr::NumberLiteral(n) => Value::Number(match &n.value {
            ast::Number::Int(i) => i.to_string().into(),
            ast::Number::Float(f) => f.to_string().into(),
            ast::Number::Complex { real, imag } => format!("{real}+{imag}j").into(),
        }),
        Expr::BooleanLiteral(b) => Value::Bool(b.value),
        Expr::NoneLiteral(_) => Value::None,
        Expr::List(list) => Value::List(members(&list.elts)),
        Expr::Tuple(tuple) => Value::Tuple(members(&tuple.elts)),
        Expr::Set(set) => Value::Set(members(&set.elts)),
        Expr::Starred(starred) => Value::Starred(Box::new(value_of(&starred.value, next))),
        // `"…/{}".format(x)` reads as the f-string it spells.
        Expr::Call(call) => format_call(call, next).unwrap_or_else(|| Value::Call {
            callee: Box::new(value_of(&call.func, next)),
            args: members(&call.arguments.args).into(),
            keywords: {
                let keywords = &call.arguments.keywords;
                let mut read: Vec<(Option<Text>, Value)> = keywords
                    .iter()
                    .take(MAX_LIST_MEMBERS)
                    .map(|k| {
                        (
                            k.arg.as_ref().map(|a| Text::from(a.id.as_str())),
                            value_of(&k.value, next),
                        )
                    })
                    .collect();
                // The rest reads as an unread `**` spread: it may hold any
                // keyword.
                if keywords.len() > MAX_LIST_MEMBERS {
                    read.push((None, Value::Other(MEMBERS_PAST_BOUND.into())));
                }
                read.into()
            },
        }),
        Expr::Subscript(sub) => Value::Subscript {
            base: Box::new(value_of(&sub.value, next)),
            index: match sub.slice.as_ref() {
                Expr::Tuple(tuple) => members(&tuple.elts).into(),
                other => thin_vec![value_of(other, next)],
            },
        },
        Expr::If(if_exp) => Value::IfElse {
            test: Box::new(value_of(&if_exp.test, next)),
            body: Box::new(value_of(&if_exp.body, next)),
            orelse: Box::new(value_of(&if_exp.orelse, next)),
        },
        Expr::BoolOp(bool_op) if bool_op.op == ast::BoolOp::Or => {
            Value::Or(members(&bool_op.values))
        }
        // `"…/%s" % x` reads as the f-string it spells.
        Expr::BinOp(binop) if binop.op == ast::Operator::Mod => {
            percent_format(binop, next).unwrap_or_else(|| binary(binop, next))
        }
        Expr::BinOp(binop) if binop.op == ast::Operator::Add => Value::Add {
            left: Box::new(value_of(&binop.left, next)),
            right: Box::new(value_of(&binop.right, next)),
        },
        Expr::BinOp(binop) if binop.op == ast::Operator::BitOr => {
            let mut parts = Vec::new();
            for side in [&binop.left, &binop.right] {
                match value_of(side, next) {
                    Value::Union(inner) => parts.extend(inner),
                    other => parts.push(other),
                }
            }
            Value::Union(parts)
        }
        Expr::BinOp(binop) => binary(binop, next),
        // `await client.get(u)`: what the awaited call gives.
        Expr::Await(awaited) => value_of(&awaited.value, depth),
        Expr::Dict(dict) => {
            let mut items: Vec<(Option<Value>, Value)> = dict
                .items
                .iter()
                .take(MAX_LIST_MEMBERS)
                .map(|item| {
                    (
                        item.key.as_ref().map(|k| value_of(k, next)),
                        value_of(&item.value, next),
                    )
                })
                .collect();
            // The rest reads as an unread `**` spread.
            if dict.items.len() > MAX_LIST_MEMBERS {
                items.push((None, Value::Other(MEMBERS_PAST_BOUND.into())));
            }
            Value::Dict(items)
        }
        Expr::FString(fstring) => Value::FString(fstring_parts(fstring, next)),
        Expr::ListComp(comp) if comp.generators.len() == 1 && !comp.generators[0].is_async => {
            let generator = &comp.generators[0];
            Value::ListComprehension(Box::new(Comprehension {
                element: value_of(&comp.elt, next),
                target: value_of(&generator.target, next),
                iter: value_of(&generator.iter, next),
                conditions: generator.ifs.iter().map(|c| value_of(c, next)).collect(),
            }))
        }
        Expr::Compare(compare) if compare.ops.len() == 1 && compare.comparators.len() == 1 => {
            match Operator::parse(compare.ops[0].as_str()) {
                Some(op) => Value::Compare {
                    left: Box::new(value_of(&compare.left, next)),
                    op,
                    right: Box::new(value_of(&compare.comparators[0], next)),
                },
                None => Value::Other(kind_name(expr).into()),
            }
        }
        other => Value::Other(kind_name(other).into()),
    }
}

/// `left op right` for arithmetic other than `+` (and a `|` union).
fn binary(binop: &ast::ExprBinOp, depth: usize) -> Value {
    match Operator::parse(binop.op.as_str()) {
        Some(op) => Value::BinOp {
            left: Box::new(value_of(&binop.left, depth)),
            op,
            right: Box::new(value_of(&binop.right, depth)),
        },
        None => Value::Other("binary operation".into()),
    }
}

/// `"a/{}/{name}".format(x, name=y)` as the f-string `a/{x}/{y}`: `None`
/// when the template is not a literal or a field is not plainly named
/// (a spread, an index, an attribute, a missing argument).
fn format_call(call: &ast::ExprCall, depth: usize) -> Option<Value> {
    let Expr::Attribute(attr) = call.func.as_ref() else {
        return None;
    };
    let Expr::StringLiteral(template) = attr.value.as_ref() else {
        return None;
    };
    if attr.attr.id.as_str() != "format" {
        return None;
    }
    if call
        .arguments
        .args
        .iter()
        .any(|a| matches!(a, Expr::Starred(_)))
        || call.arguments.keywords.iter().any(|k| k.arg.is_none())
    {
        return None;
    }
    let template = template.value.to_str();
    let mut parts = Vec::new();
    let mut literal = Text::default();
    let mut next_positional = 0usize;
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                literal.push('}');
            }
            '{' => {
                let mut field = String::new();
                for f in chars.by_ref() {
                    if f == '}' {
                        break;
                    }
                    field.push(f);
                }
                let name = field.split([':', '!']).next().unwrap_or("");
                let value = if name.is_empty() {
                    let value = call.arguments.args.get(next_positional)?;
                    next_positional += 1;
                    value
                } else if let Ok(index) = name.parse::<usize>() {
                    call.arguments.args.get(index)?
                } else if name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    &call
                        .arguments
                        .keywords
                        .iter()
                        .find(|k| k.arg.as_ref().is_some_and(|a| a.id.as_str() == name))?
                        .value
                } else {
                    return None;
                };
                if !literal.is_empty() {
                    parts.push(Value::Str(std::mem::take(&mut literal)));
                }
                parts.push(value_of(value, depth));
            }
            other => literal.push(other),
        }
    }
    if !literal.is_empty() {
        parts.push(Value::Str(literal));
    }
    Some(Value::FString(parts))
}

/// `"a/%s/%d" % (x, y)` as the f-string `a/{x}/{y}`: only `%s`/`%d`/`%i`/
/// `%r` and `%%`, with as many values as fields.
fn percent_format(binop: &ast::ExprBinOp, depth: usize) -> Option<Value> {
    if binop.op != ast::Operator::Mod {
        return None;
    }
    let Expr::StringLiteral(template) = binop.left.as_ref() else {
        return None;
    };
    let values: Vec<&Expr> = match binop.right.as_ref() {
        Expr::Tuple(tuple) => tuple.elts.iter().collect(),
        Expr::Dict(_) => return None,
        one => vec![one],
    };
    let template = template.value.to_str();
    let mut parts = Vec::new();
    let mut literal = Text::default();
    let mut values = values.into_iter();
    let mut chars = template.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            literal.push(c);
            continue;
        }
        match chars.next()? {
            '%' => literal.push('%'),
            's' | 'd' | 'i' | 'r' => {
                if !literal.is_empty() {
                    parts.push(Value::Str(std::mem::take(&mut literal)));
                }
                parts.push(value_of(values.next()?, depth));
            }
            _ => return None,
        }
    }
    if values.next().is_some() {
        return None;
    }
    if !literal.is_empty() {
        parts.push(Value::Str(literal));
    }
    Some(Value::FString(parts))
}

/// The pieces of an f-string, literal text and replacement fields in order.
fn fstring_parts(fstring: &ast::ExprFString, depth: usize) -> Vec<Value> {
    let mut parts = Vec::new();
    for part in fstring.value.iter() {
        match part {
            ast::FStringPart::Literal(literal) => {
                parts.push(Value::Str(literal.value.to_string().into()))
            }
            ast::FStringPart::FString(inner) => {
                for element in inner.elements.iter() {
                    match element {
                        ast::InterpolatedStringElement::Literal(literal) => {
                            parts.push(Value::Str(literal.value.to_string().into()))
                        }
                        // `{x!r}`, `{x=}` and `{x:>8}` print other text than
                        // `x` holds: a piece no reader may take as `x`.
                        ast::InterpolatedStringElement::Interpolation(field)
                            if field.debug_text.is_some()
                                || field.format_spec.is_some()
                                || !matches!(
                                    field.conversion,
                                    ast::ConversionFlag::None | ast::ConversionFlag::Str
                                ) =>
                        {
                            parts.push(Value::Other("formatted value".into()))
                        }
                        ast::InterpolatedStringElement::Interpolation(field) => {
                            parts.push(value_of(&field.expression, depth))
                        }
                    }
                }
            }
        }
    }
    parts
}

fn kind_name(expr: &Expr) -> &'static str {
    match expr {
        Expr::BinOp(_) => "binary operation",
        Expr::BoolOp(_) => "boolean operation",
        Expr::If(_) => "conditional expression",
        Expr::ListComp(_) | Expr::SetComp(_) | Expr::DictComp(_) | Expr::Generator(_) => {
            "comprehension"
        }
        Expr::Lambda(_) => "lambda",
        Expr::Dict(_) => "dict",
        Expr::Set(_) => "set",
        Expr::FString(_) => "f-string",
        Expr::UnaryOp(_) => "unary operation",
        Expr::Compare(_) => "comparison",
        Expr::Await(_) => "await",
        Expr::BytesLiteral(_) => "bytes literal",
        _ => "expression",
    }
}
