//! Calls with no effect outside the process: methods that only read plain
//! data (a model-supplied parameter, a literal, what a recognised library
//! returns, an item of a loop over those), and a module logger's calls.

use super::roles::Role;
use crate::python::{BindingKind, Text, Value};
use crate::reach::libraries as lib;
use crate::reach::Frame;
use std::collections::BTreeMap;

/// Whether a chain of method calls yields plain data: it starts from plain
/// data (a model-supplied parameter, a literal, a local the function fills
/// with plain data, what a recognised library returns) and every method on
/// the way only reads it.
pub(super) fn plain_chain(
    frame: &Frame<'_>,
    roles: &BTreeMap<String, Role>,
    chain: Option<&(Value, Vec<Text>)>,
) -> bool {
    let Some((root, methods)) = chain else {
        return false;
    };
    if !methods.iter().all(|m| lib::is_plain_data_method(m)) {
        return false;
    }
    plain_root(frame, roles, root, 0)
}

/// Whether a value is plain data: a literal or display, a plain name, what
/// a pure or HTTP library function (or a plain method) returns, an item of
/// plain data, or arithmetic on those (`(datetime.now() -
/// timedelta(days=d)).isoformat()`).
pub(super) fn plain_root(
    frame: &Frame<'_>,
    roles: &BTreeMap<String, Role>,
    root: &Value,
    depth: usize,
) -> bool {
    if depth > 8 {
        return false;
    }
    match root {
        Value::Name(name) => {
            is_plain(frame, name)
                || matches!(roles.get(name.as_str()), Some(Role::Plain))
                || frame.loop_iterables(name).is_some_and(|iterables| {
                    iterables
                        .iter()
                        .all(|it| plain_root(frame, roles, it, depth + 1))
                })
        }
        Value::Str(_) | Value::FString(_) | Value::Dict(_) | Value::List(_) | Value::Number(_) => {
            true
        }
        Value::Add { left, right } | Value::BinOp { left, right, .. } => {
            plain_root(frame, roles, left, depth + 1) && plain_root(frame, roles, right, depth + 1)
        }
        Value::Subscript { base, .. } => plain_root(frame, roles, base, depth + 1),
        Value::Call { callee, .. } => match frame.library_name(callee) {
            Some(name) => {
                lib::http_function(&name).is_some()
                    || frame.pure_function(&name)
                    || name == "urllib.request.urlopen"
            }
            None => match callee.as_ref() {
                Value::Name(n) => frame.pure_builtin(n),
                // `q.strip()`, `r.json()` on plain data or a response.
                Value::Attribute(parts) => match parts.as_slice() {
                    [base, method] => {
                        lib::is_plain_data_method(method)
                            && (plain_root(frame, roles, &Value::Name(base.clone()), depth + 1)
                                || matches!(roles.get(base.as_str()), Some(Role::Plain)))
                    }
                    _ => false,
                },
                _ => false,
            },
        },
        _ => false,
    }
}

/// Whether `name` holds plain data: a model-supplied parameter, or a
/// helper argument that is a literal, a display or such a parameter where
/// the caller wrote it. An object passed in is not (its methods may do
/// anything).
fn is_plain(frame: &Frame<'_>, name: &str) -> bool {
    if let Some(sources) = frame.params.get(name) {
        return !sources.computed && !sources.params.is_empty();
    }
    // An item of a loop over plain data (`for i in ids: i.strip()`, or a
    // comprehension's `[i.strip() for i in ids]`).
    if frame.loop_iterables(name).is_some() {
        return !frame
            .sources(&Value::Name(name.to_string().into()))
            .computed;
    }
    if frame.args.contains_key(name) {
        let (value, caller) = frame.resolved(&Value::Name(name.to_string().into()), 0);
        return match &value {
            Value::Str(_)
            | Value::FString(_)
            | Value::Dict(_)
            | Value::List(_)
            | Value::Number(_) => true,
            Value::Name(inner) => caller
                .params
                .get(inner.as_str())
                .is_some_and(|s| !s.computed && !s.params.is_empty()),
            _ => false,
        };
    }
    false
}

/// `log = logging.getLogger(...)` at module level.
pub(super) fn is_module_logger(frame: &Frame<'_>, name: &str) -> bool {
    match frame.module_binding(name) {
        Some(one) if one.kind == BindingKind::Assignment => match &one.value {
            Some(Value::Call { callee, .. }) => {
                frame.at_module(frame.path).library_name(callee).as_deref()
                    == Some("logging.getLogger")
            }
            _ => false,
        },
        _ => false,
    }
}

pub(super) fn is_log_method(method: &str) -> bool {
    matches!(
        method,
        "debug" | "info" | "warning" | "warn" | "error" | "exception" | "critical" | "log"
    )
}
