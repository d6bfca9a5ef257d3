//! `[handoff(agent=a, …) for a in (billing, shipping)]`: a comprehension
//! that builds each member from one item of a display written in place,
//! read as the list `[handoff(agent=billing, …), handoff(agent=shipping,
//! …)]` it evaluates to.
//!
//! Sound because Python evaluates the element once per item, in order,
//! with the target bound to that item and every other name meaning what it
//! means where the comprehension is written: the element with the target
//! replaced by the item's own expression is that member. Refused (the
//! list reader's named limit) unless:
//! - there is one `for`, its target one name, its iterable a list or tuple
//!   display with no `*` spread (so the items are the expressions written);
//! - the element holds only values the model spells: a lambda or any
//!   expression kept as `Other` could read the target late (a closure sees
//!   the last item), and a nested comprehension could bind it again.
//!
//! A filter (`if keep(a)`) keeps each member under the filter's source
//! text, as the list reader's own filters do; it is never evaluated.

use crate::python::{Comprehension, Value};

/// How deep an element is rewritten (the facts bound values as well).
const MAX_DEPTH: usize = 64;

/// The members `comprehension` evaluates to, one per item, in order;
/// `None` when the module doc's rule does not hold.
pub(super) fn mapped_members(comprehension: &Comprehension) -> Option<Vec<Value>> {
    let Value::Name(target) = &comprehension.target else {
        return None;
    };
    let (Value::List(items) | Value::Tuple(items)) = &comprehension.iter else {
        return None;
    };
    if items.iter().any(|i| matches!(i, Value::Starred(_))) {
        return None;
    }
    items
        .iter()
        .map(|item| substitute(&comprehension.element, target, item, 0))
        .collect()
}

/// `value` with every read of the name `target` replaced by `item`.
fn substitute(value: &Value, target: &str, item: &Value, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    let each = |values: &[Value]| -> Option<Vec<Value>> {
        values
            .iter()
            .map(|v| substitute(v, target, item, depth + 1))
            .collect()
    };
    let boxed = |v: &Value| substitute(v, target, item, depth + 1).map(Box::new);
    Some(match value {
        Value::Name(name) if name == target => item.clone(),
        // `a.as_tool(...)`: the item's own dotted name, then the rest.
        Value::Attribute(parts) if parts.first().is_some_and(|p| p == target) => {
            let mut dotted = match item {
                Value::Name(name) => vec![name.clone()],
                Value::Attribute(head) => head.clone(),
                _ => return None,
            };
            dotted.extend(parts.iter().skip(1).cloned());
            Value::Attribute(dotted)
        }
        Value::Name(_)
        | Value::Attribute(_)
        | Value::Str(_)
        | Value::Number(_)
        | Value::Bool(_)
        | Value::None => value.clone(),
        Value::List(items) => Value::List(each(items)?),
        Value::Tuple(items) => Value::Tuple(each(items)?),
        Value::Set(items) => Value::Set(each(items)?),
        Value::Union(items) => Value::Union(each(items)?),
        Value::FString(items) => Value::FString(each(items)?),
        Value::Or(items) => Value::Or(each(items)?),
        Value::Starred(inner) => Value::Starred(boxed(inner)?),
        Value::Call {
            callee,
            args,
            keywords,
        } => Value::Call {
            callee: boxed(callee)?,
            args: each(args)?.into_iter().collect(),
            keywords: keywords
                .iter()
                .map(|(key, v)| Some((key.clone(), substitute(v, target, item, depth + 1)?)))
                .collect::<Option<_>>()?,
        },
        Value::Subscript { base, index } => Value::Subscript {
            base: boxed(base)?,
            index: each(index)?.into_iter().collect(),
        },
        Value::Dict(entries) => Value::Dict(
            entries
                .iter()
                .map(|(key, v)| {
                    let key = match key {
                        Some(key) => Some(substitute(key, target, item, depth + 1)?),
                        None => None,
                    };
                    Some((key, substitute(v, target, item, depth + 1)?))
                })
                .collect::<Option<_>>()?,
        ),
        Value::IfElse { test, body, orelse } => Value::IfElse {
            test: boxed(test)?,
            body: boxed(body)?,
            orelse: boxed(orelse)?,
        },
        Value::Add { left, right } => Value::Add {
            left: boxed(left)?,
            right: boxed(right)?,
        },
        Value::BinOp { left, op, right } => Value::BinOp {
            left: boxed(left)?,
            op: *op,
            right: boxed(right)?,
        },
        Value::Compare { left, op, right } => Value::Compare {
            left: boxed(left)?,
            op: *op,
            right: boxed(right)?,
        },
        Value::ListComprehension(_) | Value::Other(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(n: &str) -> Value {
        Value::Name(n.into())
    }

    fn call(callee: &str, keywords: Vec<(&str, Value)>) -> Value {
        Value::Call {
            callee: Box::new(name(callee)),
            args: Default::default(),
            keywords: keywords
                .into_iter()
                .map(|(k, v)| (Some(k.into()), v))
                .collect(),
        }
    }

    fn comprehension(element: Value, iter: Value) -> Comprehension {
        Comprehension {
            element,
            target: name("a"),
            iter,
            conditions: Vec::new(),
        }
    }

    #[test]
    fn each_item_is_the_element_with_the_target_replaced() {
        let element = call(
            "handoff",
            vec![("agent", name("a")), ("on_handoff", name("log"))],
        );
        let iter = Value::Tuple(vec![name("billing"), name("shipping")]);
        let members = mapped_members(&comprehension(element, iter)).unwrap();
        assert_eq!(
            members,
            vec![
                call(
                    "handoff",
                    vec![("agent", name("billing")), ("on_handoff", name("log"))]
                ),
                call(
                    "handoff",
                    vec![("agent", name("shipping")), ("on_handoff", name("log"))]
                ),
            ]
        );
    }

    #[test]
    fn a_method_of_the_target_is_the_items_method() {
        let element = Value::Call {
            callee: Box::new(Value::Attribute(vec!["a".into(), "as_tool".into()])),
            args: Default::default(),
            keywords: Default::default(),
        };
        let iter = Value::List(vec![Value::Attribute(vec![
            "crew".into(),
            "billing".into(),
        ])]);
        let members = mapped_members(&comprehension(element, iter)).unwrap();
        assert_eq!(
            members,
            vec![Value::Call {
                callee: Box::new(Value::Attribute(vec![
                    "crew".into(),
                    "billing".into(),
                    "as_tool".into()
                ])),
                args: Default::default(),
                keywords: Default::default(),
            }]
        );
    }

    #[test]
    fn what_the_model_does_not_spell_or_an_iterable_not_written_is_refused() {
        // A lambda (kept as `Other`) could read the target late.
        let lambda = call(
            "handoff",
            vec![
                ("agent", name("a")),
                ("is_enabled", Value::Other("lambda".into())),
            ],
        );
        let iter = Value::Tuple(vec![name("billing")]);
        assert_eq!(mapped_members(&comprehension(lambda, iter.clone())), None);
        // An iterable that is a name, or a display with a spread.
        let element = call("handoff", vec![("agent", name("a"))]);
        assert_eq!(
            mapped_members(&comprehension(element.clone(), name("crew"))),
            None
        );
        let spread = Value::Tuple(vec![Value::Starred(Box::new(name("more")))]);
        assert_eq!(mapped_members(&comprehension(element, spread)), None);
    }
}
