//! Which returns of a decorator (or a decorator factory) a call can reach,
//! read from its facts: each `return`'s `if` tests (`ReturnFact::guard`)
//! decided where the call fixes what they test, never evaluated otherwise.
//!
//! What a call fixes: applied bare (`@adk_tool`), the decorator's first
//! parameter is the function — not `None`, true, callable; called as a
//! factory (`@adk_tool(skip=True)`), each parameter the call does not pass
//! holds its default, which is read when it is `None`. A test on one of
//! those, alone (`func is not None`, `func is None`, `func`,
//! `callable(func)`), is decided; any other test is open, and both of its
//! branches are reachable.
//!
//! The returns a call can reach are those no decided test excludes, in
//! source order, up to the first whose every test holds and that no `try`
//! or `with` protects (an error there leaves the function, so nothing
//! after it runs; a protected one may be skipped by a handler, so the
//! next returns stay reachable). With no such cut, the function may also
//! fall off its end and return `None` — unless its last statement is a
//! return, or two reachable returns sit on the two branches of one open
//! test (`if t: return a` / `else: return b`).

use crate::python::{Condition, FunctionFact, ModuleFacts, Operator, ParamKind, ReturnFact, Value};
use std::collections::BTreeMap;

/// What a call fixes about one parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Known {
    /// The decorated function: not `None`, true, callable.
    Function,
    /// `None`.
    NoneValue,
}

/// A three-valued test result.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Decided {
    Holds,
    Fails,
    Open,
}

/// What a bare application fixes: the first positional parameter is the
/// function, every other parameter its default (`None` where that is
/// `None`). `None` when the function takes no positional parameter, or
/// one it cannot be called with alone.
pub(super) fn bare_application(
    function: &FunctionFact,
) -> Option<(String, BTreeMap<String, Known>)> {
    let mut positional = function
        .params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal));
    let first = positional.next()?;
    let mut known = BTreeMap::new();
    known.insert(first.name.to_string(), Known::Function);
    for param in function.params.iter().filter(|p| p.name != first.name) {
        let variadic = matches!(param.kind, ParamKind::VarPositional | ParamKind::VarKeyword);
        if !variadic && !param.has_default {
            return None;
        }
        if param.default.as_ref() == Some(&Value::None) {
            known.insert(param.name.to_string(), Known::NoneValue);
        }
    }
    Some((first.name.to_string(), known))
}

/// What a factory call (`args`, `keywords` as written) fixes: each
/// parameter it does not pass whose default is `None`.
pub(super) fn factory_application(
    function: &FunctionFact,
    args: usize,
    keywords: &[Option<&str>],
) -> Option<BTreeMap<String, Known>> {
    if keywords.iter().any(Option::is_none) {
        return None;
    }
    let mut known = BTreeMap::new();
    let mut position = 0;
    for param in &function.params {
        match param.kind {
            ParamKind::VarPositional | ParamKind::VarKeyword => return None,
            ParamKind::PositionalOnly | ParamKind::Normal if position < args => {
                position += 1;
                continue;
            }
            _ => {}
        }
        let passed = keywords.contains(&Some(param.name.as_str()));
        if !passed && param.default.as_ref() == Some(&Value::None) {
            known.insert(param.name.to_string(), Known::NoneValue);
        }
    }
    Some(known)
}

/// The returns of `function` a call that fixes `known` can reach, or why
/// it may return something else (fall off its end).
pub(super) fn reachable_returns<'f>(
    facts: &ModuleFacts,
    function: &'f FunctionFact,
    known: &BTreeMap<String, Known>,
) -> Result<Vec<&'f ReturnFact>, String> {
    let rebinds = |name: &str| {
        function
            .locals_named(name)
            .any(|b| b.kind != crate::python::BindingKind::Parameter)
    };
    if known.keys().any(|name| rebinds(name)) {
        return Err("rebinds a parameter its tests read".to_string());
    }
    let callable_is_builtin = !facts.module_bindings.iter().any(|b| b.name == "callable");
    let mut returns: Vec<&ReturnFact> = function.body().returns_found.iter().collect();
    returns.sort_by_key(|r| r.line);
    let mut reached = Vec::new();
    let mut cut = false;
    for ret in returns {
        let decided = match &ret.guard {
            None => Decided::Open,
            Some(conditions) => conditions.iter().fold(Decided::Holds, |all, condition| {
                match (all, decide(condition, known, callable_is_builtin)) {
                    (Decided::Fails, _) | (_, Decided::Fails) => Decided::Fails,
                    (Decided::Open, _) | (_, Decided::Open) => Decided::Open,
                    _ => Decided::Holds,
                }
            }),
        };
        match decided {
            Decided::Fails => continue,
            Decided::Holds if !ret.protected => {
                reached.push(ret);
                cut = true;
                break;
            }
            _ => reached.push(ret),
        }
    }
    if cut || function.ends_with_return || both_branches(&reached) {
        Ok(reached)
    } else {
        Err("may fall off its end and return None".to_string())
    }
}

/// Whether two returns sit on the two branches of one open test, and
/// nothing else guards them: the function returns on both.
fn both_branches(reached: &[&ReturnFact]) -> bool {
    let single = |r: &ReturnFact| match r.guard.as_deref() {
        Some([only]) if !r.protected => Some(only.clone()),
        _ => None,
    };
    let guards: Vec<Condition> = reached.iter().filter_map(|r| single(r)).collect();
    guards.iter().any(|g| {
        guards
            .iter()
            .any(|other| other.test == g.test && other.holds != g.holds)
    })
}

/// One test, under what the call fixes.
fn decide(condition: &Condition, known: &BTreeMap<String, Known>, callable: bool) -> Decided {
    let of = |name: &str| known.get(name).copied();
    // What the test evaluates to, when the call fixes it.
    let value = match &condition.test {
        Value::Compare { left, op, right } if **right == Value::None => match (left.as_ref(), op) {
            (Value::Name(n), Operator::IsNot) => of(n).map(|k| k == Known::Function),
            (Value::Name(n), Operator::Is) => of(n).map(|k| k == Known::NoneValue),
            _ => None,
        },
        Value::Name(n) => of(n).map(|k| k == Known::Function),
        Value::Call {
            callee,
            args,
            keywords,
        } if callable
            && keywords.is_empty()
            && matches!(callee.as_ref(), Value::Name(c) if c == "callable") =>
        {
            match args.as_slice() {
                [Value::Name(n)] => of(n).map(|k| k == Known::Function),
                _ => None,
            }
        }
        _ => None,
    };
    match value {
        None => Decided::Open,
        Some(value) if value == condition.holds => Decided::Holds,
        Some(_) => Decided::Fails,
    }
}
