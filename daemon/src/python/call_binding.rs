//! How a call's arguments bind to a function's parameters, as Python binds
//! them: the one rule the value reader (`graph/build/eval`, which reads a
//! call only when it binds exactly) and reach (`reach/`, which reads what
//! it can and names the rest) share.

use super::{FunctionFact, ParamFact, ParamKind, Value};
use crate::pyrepr::str_repr;
use crate::python::Text;

/// What one parameter holds at a call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Passed<'v> {
    /// The value the call passes.
    Value(&'v Value),
    /// The parameter's default: the call passes nothing that could bind it.
    Default(&'v Value),
    /// Not known from the call: a `*`/`**` spread may supply it, it
    /// collects `*`/`**` arguments, it is given twice, or nothing gives it.
    Unknown,
}

/// What the call passes `param` by position (`index` among the
/// positional parameters, before any `*` spread) and by keyword.
fn matched<'v>(
    param: &ParamFact,
    index: Option<usize>,
    spread_at: usize,
    args: &'v [Value],
    keywords: &'v [(Option<Text>, Value)],
) -> (Option<&'v Value>, Option<&'v Value>) {
    let by_position = index.filter(|i| *i < spread_at).and_then(|i| args.get(i));
    let by_keyword = keywords
        .iter()
        .find(|(k, _)| k.as_deref() == Some(param.name.as_str()))
        .filter(|_| param.kind != ParamKind::PositionalOnly)
        .map(|(_, v)| v);
    (by_position, by_keyword)
}

/// The index of each positional parameter among them (`None` for the
/// keyword-only and collecting ones), in parameter order.
fn positions(params: &[ParamFact]) -> Vec<Option<usize>> {
    let mut next = 0usize;
    params
        .iter()
        .map(|p| {
            matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal).then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// Each parameter of `function`, in order, with what the call gives it
/// (`*args`/`**kwargs` parameters included, always `Unknown`).
pub fn passed<'v>(
    function: &'v FunctionFact,
    args: &'v [Value],
    keywords: &'v [(Option<Text>, Value)],
) -> Vec<(&'v str, Passed<'v>)> {
    // Positions from the first `*` spread on are the spread's to fill.
    let spread_at = args.iter().position(|a| matches!(a, Value::Starred(_)));
    let keyword_spread = keywords.iter().any(|(k, _)| k.is_none());
    let mut out = Vec::new();
    for (param, index) in function.params.iter().zip(positions(&function.params)) {
        if matches!(param.kind, ParamKind::VarPositional | ParamKind::VarKeyword) {
            out.push((param.name.as_str(), Passed::Unknown));
            continue;
        }
        let by_spread = index.zip(spread_at).is_some_and(|(i, at)| i >= at);
        let before_spread = spread_at.unwrap_or(args.len());
        let held = match matched(param, index, before_spread, args, keywords) {
            (Some(_), Some(_)) => Passed::Unknown,
            // A keyword binds whatever a spread fills (a clash fails).
            (Some(value), None) | (None, Some(value)) => Passed::Value(value),
            (None, None) if !by_spread && !keyword_spread => match &param.default {
                Some(default) => Passed::Default(default),
                None => Passed::Unknown,
            },
            _ => Passed::Unknown,
        };
        out.push((param.name.as_str(), held));
    }
    out
}

/// One parameter bound exactly by a call.
pub struct BoundArgument {
    pub param: String,
    pub value: Value,
    /// The parameter's default, not passed by the call.
    pub from_default: bool,
}

/// Binds a call's arguments to a function's parameters exactly: `*`/`**`
/// in the call, an argument with no parameter, or a parameter neither
/// passed nor defaulted (or passed twice) is not bound, and says why.
pub fn bind_exactly(
    function: &FunctionFact,
    args: &[Value],
    keywords: &[(Option<Text>, Value)],
) -> Result<Vec<BoundArgument>, String> {
    let binding = bind_collecting(&function.params, args, keywords)?;
    match binding.collected_keywords.first() {
        Some((unknown, _)) => Err(format!(
            "{} is not one of its parameters",
            str_repr(unknown)
        )),
        None => Ok(binding.bound),
    }
}

/// A call bound exactly to parameters that may collect: what each named
/// parameter holds, and the keywords a `**` parameter collects.
pub struct CollectedBinding {
    pub bound: Vec<BoundArgument>,
    /// Keywords no named parameter takes, in call order, for the `**`
    /// parameter (empty when there is none: such a keyword is an error).
    pub collected_keywords: Vec<(String, Value)>,
}

/// Binds a call's arguments to `params` exactly as `bind_exactly` does,
/// except that a `**` parameter collects the keywords no other parameter
/// takes (returned apart) and a `*` parameter the surplus positions.
pub fn bind_collecting(
    params: &[ParamFact],
    args: &[Value],
    keywords: &[(Option<Text>, Value)],
) -> Result<CollectedBinding, String> {
    if args.iter().any(|a| matches!(a, Value::Starred(_)))
        || keywords.iter().any(|(k, _)| k.is_none())
    {
        return Err("the call unpacks its arguments".into());
    }
    let indices = positions(params);
    let collects_positions = params.iter().any(|p| p.kind == ParamKind::VarPositional);
    if args.len() > indices.iter().flatten().count() && !collects_positions {
        return Err("the call passes more positional arguments than it takes".into());
    }
    let mut bound = Vec::new();
    for (param, index) in params.iter().zip(indices) {
        if matches!(param.kind, ParamKind::VarPositional | ParamKind::VarKeyword) {
            continue;
        }
        let (value, from_default) = match (
            matched(param, index, args.len(), args, keywords),
            &param.default,
        ) {
            ((Some(_), Some(_)), _) => {
                return Err(format!("{} is given twice", str_repr(&param.name)))
            }
            ((Some(value), None), _) | ((None, Some(value)), _) => (value.clone(), false),
            ((None, None), Some(default)) => (default.clone(), true),
            ((None, None), None) => return Err(format!("{} is not given", str_repr(&param.name))),
        };
        bound.push(BoundArgument {
            param: param.name.to_string(),
            value,
            from_default,
        });
    }
    let named = |k: &str| {
        params.iter().any(|p| {
            p.name == k
                && !matches!(
                    p.kind,
                    ParamKind::PositionalOnly | ParamKind::VarPositional | ParamKind::VarKeyword
                )
        })
    };
    let collects_keywords = params.iter().any(|p| p.kind == ParamKind::VarKeyword);
    let mut collected_keywords = Vec::new();
    for (keyword, value) in keywords {
        let Some(keyword) = keyword else { continue };
        if named(keyword) {
            continue;
        }
        if !collects_keywords {
            return Err(format!(
                "{} is not one of its parameters",
                str_repr(keyword)
            ));
        }
        collected_keywords.push((keyword.to_string(), value.clone()));
    }
    Ok(CollectedBinding {
        bound,
        collected_keywords,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;

    fn binding(source: &str, call: &str) -> Vec<(String, String)> {
        let facts = extract_facts(format!("{source}\nx = {call}\n").as_bytes());
        let function = &facts.functions[0];
        let call = facts
            .module_bindings
            .iter()
            .find(|b| b.name == "x")
            .and_then(|b| b.value.clone());
        let Some(Value::Call { args, keywords, .. }) = call else {
            panic!("no call");
        };
        passed(function, &args, &keywords)
            .into_iter()
            .map(|(p, held)| {
                let held = match held {
                    Passed::Value(v) => format!("value {}", crate::graph::schema::unparse(v)),
                    Passed::Default(v) => format!("default {}", crate::graph::schema::unparse(v)),
                    Passed::Unknown => "unknown".to_string(),
                };
                (p.to_string(), held)
            })
            .collect()
    }

    fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
        expected
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn arguments_bind_by_position_keyword_and_default() {
        let f = "def f(a, b, c=3, *, d=4):\n    pass\n";
        assert_eq!(
            binding(f, "f(1, 2)"),
            pairs(&[
                ("a", "value 1"),
                ("b", "value 2"),
                ("c", "default 3"),
                ("d", "default 4")
            ])
        );
        assert_eq!(
            binding(f, "f(1, c=5, b=2)"),
            pairs(&[
                ("a", "value 1"),
                ("b", "value 2"),
                ("c", "value 5"),
                ("d", "default 4")
            ])
        );
    }

    #[test]
    fn a_spread_leaves_what_it_could_fill_unknown() {
        let f = "def f(a, b, c=3, d=4):\n    pass\n";
        // `*xs` fills b onwards (y's position depends on len(xs)); `**kw`
        // may give any parameter the call does not name.
        assert_eq!(
            binding(f, "f(1, *xs, d=9)"),
            pairs(&[
                ("a", "value 1"),
                ("b", "unknown"),
                ("c", "unknown"),
                ("d", "value 9")
            ])
        );
        assert_eq!(
            binding(f, "f(1, 2, **kw)"),
            pairs(&[
                ("a", "value 1"),
                ("b", "value 2"),
                ("c", "unknown"),
                ("d", "unknown")
            ])
        );
    }

    #[test]
    fn a_parameter_given_twice_or_collecting_is_unknown() {
        let f = "def f(a, /, b, *rest, **opts):\n    pass\n";
        assert_eq!(
            binding(f, "f(1, 2, b=3, a=4)"),
            pairs(&[
                ("a", "value 1"),
                ("b", "unknown"),
                ("rest", "unknown"),
                ("opts", "unknown")
            ])
        );
    }
}
