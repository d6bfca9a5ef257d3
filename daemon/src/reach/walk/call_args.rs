//! What a call is given: an argument by position or keyword, the entries
//! of a dict it is handed (with what the function stores into it after),
//! and the model-supplied parameters its arguments carry.

use crate::python::{BindingKind, BodyCall, StoredUnder, Text, Value};
use crate::reach::Frame;

/// The argument at `index`, or the keyword `name`.
pub(super) fn argument<'c>(call: &'c BodyCall, index: usize, name: &str) -> Option<&'c Value> {
    call.args
        .get(index)
        .filter(|a| !matches!(a, Value::Starred(_)))
        .or_else(|| keyword_value(call, name))
}

/// Every value given under keyword `name` (a call's own, then its
/// client's defaults).
pub(super) fn keyword_values<'c>(
    call: &'c BodyCall,
    name: &'c str,
) -> impl Iterator<Item = &'c Value> {
    call.keywords
        .iter()
        .filter(move |(k, _)| k.as_deref() == Some(name))
        .map(|(_, v)| v)
}

/// One entry of a dict a call sends (a body, its headers, its query),
/// with the frame its value is read in.
pub(super) struct Entry<'f> {
    pub(super) key: Option<Value>,
    pub(super) value: Value,
    pub(super) frame: Frame<'f>,
}

/// The entries of a dict a call is given, when the read can list them: a
/// dict display or `dict(k=v, …)` that the function (or, for a helper's
/// parameter, its caller) builds, with what that function stores into it
/// afterwards (`payload["k"] = v`, `payload.update(…)`,
/// `payload.setdefault(k, v)`). A module-level dict is not one: its
/// values are never taken as written.
pub(super) fn dict_entries<'f>(
    frame: &Frame<'f>,
    value: &Value,
    depth: usize,
) -> Option<Vec<Entry<'f>>> {
    if depth > 8 {
        return None;
    }
    let entry = |key: Option<Value>, value: &Value| Entry {
        key,
        value: value.clone(),
        frame: frame.clone(),
    };
    match value {
        Value::Dict(entries) => Some(entries.iter().map(|(k, v)| entry(k.clone(), v)).collect()),
        // `json=None` sends no body.
        Value::None => Some(Vec::new()),
        // `headers=_headers()`: what a repository helper returns.
        Value::Call {
            callee,
            args,
            keywords,
        } if !matches!(callee.as_ref(), Value::Name(n) if n == "dict") => {
            let (returned, inner) = frame.returned(callee, args, keywords)?;
            dict_entries(&inner, &returned, depth + 1)
        }
        // `headers or {}`: what either side holds.
        Value::Or(parts) => {
            let mut all = Vec::new();
            for part in parts {
                all.extend(dict_entries(frame, part, depth + 1)?);
            }
            Some(all)
        }
        Value::Call {
            callee,
            args,
            keywords,
        } if args.is_empty()
            && matches!(callee.as_ref(), Value::Name(n) if n == "dict" && !frame.shadows(n)) =>
        {
            Some(
                keywords
                    .iter()
                    .map(|(k, v)| entry(k.clone().map(Value::Str), v))
                    .collect(),
            )
        }
        Value::Name(name) => {
            if let Some((rebinding, inner)) = frame.self_rebinding(name) {
                return dict_entries(&inner, rebinding, depth + 1);
            }
            if let Some((passed, caller)) = frame.args.get(name.as_str()) {
                return dict_entries(caller, passed, depth + 1);
            }
            if frame.params.contains_key(name.as_str()) {
                return None;
            }
            let locals: Vec<_> = frame.locals().iter().filter(|b| b.name == *name).collect();
            let [one] = locals.as_slice() else {
                return None;
            };
            if one.kind != BindingKind::Assignment || one.conditional {
                return None;
            }
            // Built some other way (`contact.model_dump()`): one unnamed
            // entry, and what the function stores into it.
            let initial = one.value.as_ref()?;
            let mut entries = dict_entries(frame, initial, depth + 1)
                .unwrap_or_else(|| vec![entry(None, initial)]);
            let function = frame.function?;
            let own = |object: &[Text]| matches!(object, [o] if o == name);
            for store in &function.body().stores {
                if let (true, StoredUnder::Key(key)) = (own(&store.object), &store.under) {
                    entries.push(entry(Some(key.clone()), &store.value));
                }
            }
            for call in &function.body().body_calls {
                let Value::Attribute(parts) = &call.callee else {
                    continue;
                };
                let [object @ .., method] = parts.as_slice() else {
                    continue;
                };
                if !own(object) {
                    continue;
                }
                match (method.as_str(), call.args.as_slice()) {
                    ("update", args) => {
                        for arg in args {
                            match dict_entries(frame, arg, depth + 1) {
                                Some(more) => entries.extend(more),
                                None => entries.push(entry(None, arg)),
                            }
                        }
                        for (k, v) in &call.keywords {
                            entries.push(entry(k.clone().map(Value::Str), v));
                        }
                    }
                    ("setdefault", [key, value]) => entries.push(entry(Some(key.clone()), value)),
                    _ => {}
                }
            }
            Some(entries)
        }
        _ => None,
    }
}

pub(super) fn keyword_value<'c>(call: &'c BodyCall, name: &str) -> Option<&'c Value> {
    call.keywords
        .iter()
        .find(|(k, _)| k.as_deref() == Some(name))
        .map(|(_, v)| v)
}

/// Which parameters flow into a call's arguments.
pub(super) fn model_supplied(
    frame: &Frame<'_>,
    call: &BodyCall,
    into: &str,
) -> Vec<(String, String)> {
    let values = call.args.iter().chain(call.keywords.iter().map(|(_, v)| v));
    params_into(frame, values, into)
}

/// Which parameters flow into `values`, each as `(param, into)`, sorted.
pub(super) fn params_into<'v>(
    frame: &Frame<'_>,
    values: impl Iterator<Item = &'v Value>,
    into: &str,
) -> Vec<(String, String)> {
    let mut model: Vec<(String, String)> = Vec::new();
    for value in values {
        for p in frame.sources(value).params {
            let entry = (p, into.to_string());
            if !model.contains(&entry) {
                model.push(entry);
            }
        }
    }
    model.sort();
    model
}
