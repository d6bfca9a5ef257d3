//! What an HTTP client is built with and given after it is built
//! (headers, auth, query, hooks): sent with every request it sends, so
//! each request is read with them.

use crate::python::{BodyCall, StoredUnder, Text, Value};

/// What a client is built with that applies to every request it sends.
#[derive(Debug, Clone)]
pub(super) struct ClientSettings {
    /// Where it is built.
    pub(super) line: u32,
    /// Functions set as its hooks or auth.
    pub(super) hooks: Vec<Value>,
    /// `headers=`, `auth=`, `params=`: sent with every request.
    pub(super) defaults: Vec<(Option<Text>, Value)>,
    /// A function set as its auth after it is built, and where.
    pub(super) later_hooks: Vec<(Value, u32)>,
}

impl ClientSettings {
    /// Transport settings the function gives the client `name` after it
    /// is built: `s.headers.update({...})`, `s.headers["K"] = v`,
    /// `s.headers = {...}`, `s.params[...]`, and `s.auth = …`, a
    /// credential pair or a function run on every request.
    pub(super) fn read_changes(
        &mut self,
        stores: &[crate::python::ValueStore],
        calls: &[BodyCall],
        name: &str,
    ) {
        // In statement order, so credentials list as the code sets them.
        let mut changes: Vec<(u32, (Option<Text>, Value))> = Vec::new();
        for store in stores {
            match (store.object.as_slice(), &store.under) {
                ([o], StoredUnder::Attribute(setting)) if o == name => match setting.as_str() {
                    "headers" | "params" => {
                        changes.push((
                            store.line,
                            (Some(setting.to_string().into()), store.value.clone()),
                        ));
                    }
                    "auth" => {
                        changes.push((store.line, (Some("auth".into()), store.value.clone())));
                        self.later_hooks.push((store.value.clone(), store.line));
                    }
                    _ => {}
                },
                ([o, setting], StoredUnder::Key(key))
                    if o == name && matches!(setting.as_str(), "headers" | "params") =>
                {
                    let one = Value::Dict(vec![(Some(key.clone()), store.value.clone())]);
                    changes.push((store.line, (Some(setting.to_string().into()), one)));
                }
                _ => {}
            }
        }
        for call in calls {
            let Value::Attribute(parts) = &call.callee else {
                continue;
            };
            let [o, setting, method] = parts.as_slice() else {
                continue;
            };
            if o != name || !matches!(setting.as_str(), "headers" | "params") {
                continue;
            }
            match (method.as_str(), call.args.as_slice()) {
                ("update", args) => {
                    for arg in args {
                        changes.push((call.line, (Some(setting.to_string().into()), arg.clone())));
                    }
                    let named: Vec<_> = call
                        .keywords
                        .iter()
                        .map(|(k, v)| (k.clone().map(Value::Str), v.clone()))
                        .collect();
                    if !named.is_empty() {
                        changes.push((
                            call.line,
                            (Some(setting.to_string().into()), Value::Dict(named)),
                        ));
                    }
                }
                ("setdefault", [key, value]) => {
                    let one = Value::Dict(vec![(Some(key.clone()), value.clone())]);
                    changes.push((call.line, (Some(setting.to_string().into()), one)));
                }
                _ => {}
            }
        }
        changes.sort_by_key(|(line, _)| *line);
        self.defaults
            .extend(changes.into_iter().map(|(_, change)| change));
    }
}

/// A call with the client's defaults added where the call gives none.
pub(super) fn with_defaults(call: &BodyCall, settings: &ClientSettings) -> BodyCall {
    let mut call = call.clone();
    for (key, value) in &settings.defaults {
        // A client's headers and query are merged with the call's own.
        let merged = matches!(key.as_deref(), Some("headers" | "params"));
        if merged || !call.keywords.iter().any(|(k, _)| k == key) {
            call.keywords.push((key.clone(), value.clone()));
        }
    }
    call
}
