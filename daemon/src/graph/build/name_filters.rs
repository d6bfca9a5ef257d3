//! Filters over tool names written as literals, `[t for t in ALL if t.name
//! in {"a", "b"}]`: read as the set of names they keep, so spelling the same
//! set another way (`("b", "a")`, a reordered set) is no change, and
//! evaluated where the binding's name is the name the filter tests.
//!
//! The rule that makes the evaluation sound: an OpenAI Agents SDK function
//! tool's `name` attribute is the tool's name as the reader binds it (the
//! function's, or its `name_override`), so the filter keeps exactly the
//! bindings whose name it holds. Anything else (a hosted tool, whose `name`
//! is not its class; a Google ADK function, which has no `name`) keeps the
//! filter as a condition, read and never evaluated.

use crate::python::{Operator, Value};

const ONE_OF: &str = "its name is one of ";
const NONE_OF: &str = "its name is none of ";

/// The condition a literal name filter on `target` stands for, in its
/// canonical spelling (the names sorted and unique), or `None` when
/// `condition` is not one.
pub(super) fn literal_name_filter(condition: &Value, target: &Value) -> Option<String> {
    let Value::Compare { left, op, right } = condition else {
        return None;
    };
    let Value::Name(target) = target else {
        return None;
    };
    let Value::Attribute(parts) = left.as_ref() else {
        return None;
    };
    if !matches!(parts.as_slice(), [base, attr] if base == target && attr == "name") {
        return None;
    }
    let names: Vec<&str> = match (op, right.as_ref()) {
        (
            Operator::In | Operator::NotIn,
            Value::Set(items) | Value::Tuple(items) | Value::List(items),
        ) => items
            .iter()
            .map(|item| match item {
                Value::Str(text) => Some(text.as_str()),
                _ => None,
            })
            .collect::<Option<_>>()?,
        (Operator::Eq | Operator::NotEq, Value::Str(text)) => vec![text.as_str()],
        _ => return None,
    };
    let mut names: Vec<&str> = names;
    names.sort_unstable();
    names.dedup();
    let keeps = matches!(op, Operator::In | Operator::Eq);
    let listed = serde_json::to_string(&names).ok()?;
    Some(format!("{}{listed}", if keeps { ONE_OF } else { NONE_OF }))
}

/// Whether a condition in `literal_name_filter`'s spelling keeps a tool
/// named `name`; `None` for any other condition.
pub(super) fn keeps(condition: &str, name: &str) -> Option<bool> {
    let (keeps_listed, listed) = match condition.strip_prefix(ONE_OF) {
        Some(listed) => (true, listed),
        None => (false, condition.strip_prefix(NONE_OF)?),
    };
    let names: Vec<String> = serde_json::from_str(listed).ok()?;
    Some(names.iter().any(|n| n == name) == keeps_listed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(op: Operator, right: Value) -> Value {
        Value::Compare {
            left: Box::new(Value::Attribute(vec!["t".into(), "name".into()])),
            op,
            right: Box::new(right),
        }
    }

    fn strs(names: &[&str]) -> Vec<Value> {
        names.iter().map(|n| Value::Str((*n).into())).collect()
    }

    #[test]
    fn one_set_of_names_has_one_spelling() {
        let target = Value::Name("t".into());
        let set = literal_name_filter(
            &filter(Operator::In, Value::Set(strs(&["a", "b"]))),
            &target,
        );
        let tuple = literal_name_filter(
            &filter(Operator::In, Value::Tuple(strs(&["b", "a", "b"]))),
            &target,
        );
        assert_eq!(set, tuple);
        assert_eq!(set.as_deref(), Some(r#"its name is one of ["a","b"]"#));
        let one = literal_name_filter(&filter(Operator::Eq, Value::Str("a".into())), &target);
        assert_eq!(one.as_deref(), Some(r#"its name is one of ["a"]"#));
    }

    #[test]
    fn a_filter_is_evaluated_on_the_name() {
        let target = Value::Name("t".into());
        let keep =
            literal_name_filter(&filter(Operator::In, Value::List(strs(&["a"]))), &target).unwrap();
        assert_eq!(keeps(&keep, "a"), Some(true));
        assert_eq!(keeps(&keep, "b"), Some(false));
        let drop = literal_name_filter(&filter(Operator::NotIn, Value::Set(strs(&["a"]))), &target)
            .unwrap();
        assert_eq!(keeps(&drop, "a"), Some(false));
        assert_eq!(keeps(&drop, "b"), Some(true));
        assert_eq!(keeps("the filter `ok(t)` keeps it", "a"), None);
    }

    #[test]
    fn anything_but_literal_names_on_the_target_is_not_one() {
        let target = Value::Name("t".into());
        // Another variable's name, a non-literal member, another attribute.
        let other = Value::Compare {
            left: Box::new(Value::Attribute(vec!["u".into(), "name".into()])),
            op: Operator::In,
            right: Box::new(Value::Set(strs(&["a"]))),
        };
        assert_eq!(literal_name_filter(&other, &target), None);
        let computed = filter(Operator::In, Value::Set(vec![Value::Name("A".into())]));
        assert_eq!(literal_name_filter(&computed, &target), None);
        let description = Value::Compare {
            left: Box::new(Value::Attribute(vec!["t".into(), "description".into()])),
            op: Operator::Eq,
            right: Box::new(Value::Str("a".into())),
        };
        assert_eq!(literal_name_filter(&description, &target), None);
        assert_eq!(
            literal_name_filter(&filter(Operator::Lt, Value::Str("a".into())), &target),
            None
        );
    }
}
