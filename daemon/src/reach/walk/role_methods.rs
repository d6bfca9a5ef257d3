//! Reads a method called on something the function built (a client, a
//! connection, a service handle, a path, a module's file, plain data) or
//! on another call's result: the request, statement or effect it amounts
//! to, or a named limit.

use super::call_args::{argument, keyword_value, model_supplied};
use super::client_settings::with_defaults;
use super::http::Method;
use super::printed::{printable_name, printable_path, token_shaped};
use super::roles::{module_role, service_library, Role};
use super::{place, Walker};
use crate::python::{BodyCall, Value};
use crate::reach::libraries as lib;
use crate::reach::model::LibraryEffect;
use crate::reach::Frame;
use std::collections::BTreeMap;

impl Walker<'_, '_> {
    /// `x.method(...)` where the function built `x`.
    pub(super) fn role_method(
        &mut self,
        frame: &Frame<'_>,
        role: &Role,
        base: &str,
        method: &str,
        call: &BodyCall,
    ) {
        match role {
            Role::Elsewhere(inner, ..) => self.role_method(frame, inner, base, method, call),
            Role::HttpClient(library, base_url, settings) => match lib::http_verb(method) {
                Some(verb) => {
                    self.hooks(frame, &settings.hooks, settings.line);
                    let sent = with_defaults(call, settings);
                    let url = argument(&sent, 0, "url");
                    self.http(
                        frame,
                        library,
                        Method::Fixed(verb),
                        url,
                        base_url.as_ref(),
                        &sent,
                    );
                    self.request_hooks(frame, call);
                    self.later_hooks(frame, settings);
                }
                None if method == "request" => {
                    self.hooks(frame, &settings.hooks, settings.line);
                    let sent = with_defaults(call, settings);
                    let verb = Method::Spelled(argument(&sent, 0, "method"));
                    let url = argument(&sent, 1, "url");
                    self.http(frame, library, verb, url, base_url.as_ref(), &sent);
                    self.request_hooks(frame, call);
                    self.later_hooks(frame, settings);
                }
                None if matches!(method, "close" | "aclose" | "mount") => {}
                None => self.limit(
                    frame,
                    call.line,
                    format!("calls {base}.{method}, which is not read"),
                ),
            },
            Role::Database(library, service, object, connection) => {
                self.database(frame, library, service, object, method, call);
                // Where the statement goes, read off the connection.
                if let Some(effect) = self.reach.effects.last_mut() {
                    if effect.at.line == call.line && effect.family == "database" {
                        effect.host = connection.host.clone();
                        effect.credentials = connection.credentials.clone();
                    }
                }
            }
            Role::Service(_, "sqlalchemy", service, ..)
                if matches!(method, "execute" | "exec_driver_sql") =>
            {
                self.database(frame, "sqlalchemy", service, "connection", "execute", call)
            }
            Role::Service(family, "pymongo", service, host, credentials)
                if method == "aggregate" =>
            {
                // An aggregation that ends in `$out` or `$merge` writes.
                let stages = match call.args.first() {
                    Some(Value::List(stages)) => Some(stages),
                    _ => None,
                };
                let writes = stages.is_some_and(|stages| {
                    stages.iter().any(|stage| {
                        matches!(stage, Value::Dict(entries) if entries.iter().any(|(k, _)| {
                            matches!(k, Some(Value::Str(k)) if k == "$out" || k == "$merge")
                        }))
                    })
                });
                let operation = match (stages.is_some(), writes) {
                    (true, true) => "write",
                    (true, false) => "read",
                    _ => "unknown",
                };
                if stages.is_none() {
                    self.limit(
                        frame,
                        call.line,
                        format!(
                            "calls {base}.aggregate with a pipeline that is not a literal list"
                        ),
                    );
                }
                self.reach.effects.push(LibraryEffect {
                    family: family.to_string(),
                    operation: operation.into(),
                    library: "pymongo".into(),
                    call: "collection.aggregate".into(),
                    at: place(frame, call.line),
                    via: frame.via.clone(),
                    target: None,
                    statement: None,
                    value_sha256: None,
                    service: Some(service.clone()),
                    host: host.clone(),
                    credentials: credentials.clone(),
                    model_supplied: model_supplied(frame, call, "arguments"),
                });
            }
            Role::Service(_, "google.cloud.bigquery", ..) if method == "query" => self.database(
                frame,
                "google.cloud.bigquery",
                "bigquery",
                "client",
                "query",
                call,
            ),
            Role::Service(_, _, _, _, _) if lib::service_handle(service_library(role), method) => {}
            Role::Service(family, library, service, host, credentials) => {
                let operation = lib::service_method(library, method);
                let effect = LibraryEffect {
                    family: family.to_string(),
                    operation: operation.unwrap_or("unknown").to_string(),
                    library: library.to_string(),
                    // `messages.create` through `client.messages`, else the
                    // object's role.
                    call: match base.rsplit_once('.') {
                        Some((_, last)) => format!("{last}.{method}"),
                        None => format!("{}.{method}", role_name(library)),
                    },
                    at: place(frame, call.line),
                    via: frame.via.clone(),
                    target: service_target(frame, library, call),
                    statement: None,
                    value_sha256: None,
                    service: (!service.is_empty()).then(|| service.clone()),
                    host: host.clone(),
                    credentials: credentials.clone(),
                    model_supplied: model_supplied(frame, call, "arguments"),
                };
                if operation.is_none() {
                    self.limit(
                        frame,
                        call.line,
                        format!(
                            "calls {base}.{method}, a {library} method whose direction is not read"
                        ),
                    );
                }
                self.reach.effects.push(effect);
            }
            Role::File(path) => {
                let operation = match method {
                    "write" | "writelines" | "truncate" => "write",
                    "read" | "readline" | "readlines" => "read",
                    "flush" | "close" | "seek" | "tell" | "fileno" | "isatty" => return,
                    _ => {
                        return self.limit(
                            frame,
                            call.line,
                            format!("calls {base}.{method}, which is not read"),
                        )
                    }
                };
                let module = frame.at_module(frame.path);
                let name = format!("file.{method}");
                self.file_effect(&module, "builtins", &name, operation, Some(path), call);
                self.arguments_supplied(frame, call);
            }
            Role::Path(path) => match lib::path_method(method) {
                Some(Some(writes)) => {
                    let operation = if writes { "write" } else { "read" };
                    let path = path.clone();
                    self.file_effect(
                        frame,
                        "pathlib",
                        &format!("Path.{method}"),
                        operation,
                        Some(&path),
                        call,
                    );
                    // What a write writes (`path.write_text(text)`).
                    if writes {
                        self.arguments_supplied(frame, call);
                    }
                }
                Some(None) => {
                    let mode = argument(call, 0, "mode");
                    let path = path.clone();
                    self.mode_effect(frame, "pathlib", "Path.open", Some(&path), mode, call)
                }
                None if lib::is_plain_data_method(method)
                    || matches!(
                        method,
                        "resolve" | "absolute" | "joinpath" | "with_suffix" | "with_name"
                    ) => {}
                None => self.limit(
                    frame,
                    call.line,
                    format!("calls {base}.{method}, which is not read"),
                ),
            },
            Role::Plain => {
                if !lib::is_plain_data_method(method)
                    && !matches!(
                        method,
                        "write"
                            | "writelines"
                            | "readline"
                            | "readlines"
                            | "close"
                            | "flush"
                            | "seek"
                    )
                {
                    self.limit(
                        frame,
                        call.line,
                        format!("calls {base}.{method}, which is not read"),
                    );
                }
            }
        }
    }

    /// A method called on another call's result (`requests.get(u).json()`).
    pub(super) fn method_on_result(
        &mut self,
        frame: &Frame<'_>,
        roles: &BTreeMap<String, Role>,
        receiver: &Value,
        method: &str,
        call: &BodyCall,
    ) {
        if let Value::Call { callee, .. } = receiver {
            // A response from a client's request is plain data, and so
            // are the rows a database call returns.
            if let Value::Attribute(parts) = callee.as_ref() {
                if let [base, verb] = parts.as_slice() {
                    let is_database = |role: &Role| {
                        matches!(
                            role,
                            Role::Database(..) | Role::Service(_, "sqlalchemy", ..)
                        )
                    };
                    let database = match roles.get(base.as_str()) {
                        Some(Role::Elsewhere(inner, ..)) => is_database(inner),
                        Some(role) => is_database(role),
                        None => false,
                    };
                    // The rows a statement returns.
                    if database
                        && matches!(verb.as_str(), "execute" | "executemany")
                        && matches!(
                            method,
                            "fetchone"
                                | "fetchall"
                                | "fetchmany"
                                | "scalar"
                                | "scalars"
                                | "scalar_one"
                                | "scalar_one_or_none"
                                | "first"
                                | "one"
                                | "one_or_none"
                                | "all"
                                | "mappings"
                        )
                    {
                        return;
                    }
                    let client = match roles.get(base.as_str()) {
                        Some(role) => Some(role.clone()),
                        None => module_role(frame, base),
                    };
                    if matches!(client, Some(Role::HttpClient(..)))
                        && (lib::http_verb(verb).is_some() || verb == "request")
                        && lib::is_plain_data_method(method)
                    {
                        return;
                    }
                }
            }
            if let Some(name) = frame.library_name(callee) {
                let plain_result = lib::http_function(&name).is_some()
                    || frame.pure_function(&name)
                    || name == "urllib.request.urlopen";
                if name == "pathlib.Path" {
                    if let Value::Call { args, .. } = receiver {
                        let path = args.first().cloned().unwrap_or(Value::Other("path".into()));
                        return self.role_method(frame, &Role::Path(path), "Path(…)", method, call);
                    }
                }
                if plain_result && lib::is_plain_data_method(method) {
                    return;
                }
            }
            if let Value::Name(n) = callee.as_ref() {
                if frame.pure_builtin(n) && lib::is_plain_data_method(method) {
                    return;
                }
            }
        }
        if matches!(
            receiver,
            Value::Str(_) | Value::FString(_) | Value::Dict(_) | Value::List(_)
        ) && lib::is_plain_data_method(method)
        {
            return;
        }
        self.limit(
            frame,
            call.line,
            format!("calls ….{method}, which is not read"),
        );
    }
}

fn role_name(library: &str) -> &'static str {
    match library {
        "boto3" => "client",
        "smtplib" => "smtp",
        "slack_sdk" => "client",
        "redis" => "redis",
        "pymongo" => "collection",
        "sqlalchemy" => "connection",
        "google.cloud.storage" => "storage",
        "google.cloud.firestore" => "firestore",
        "google.cloud.bigquery" => "bigquery",
        "twilio" => "client",
        "memory_bank" => "memories",
        _ => "client",
    }
}

/// A bucket or key a cloud or key-value call names by a literal.
fn service_target(frame: &Frame<'_>, library: &str, call: &BodyCall) -> Option<String> {
    let literal = |key: &str| match keyword_value(call, key) {
        Some(Value::Str(s)) if printable_name(s) => Some(s.clone()),
        _ => None,
    };
    match library {
        "boto3" => (literal("Bucket")
            .or_else(|| literal("TableName"))
            .or_else(|| literal("QueueUrl")))
        .map(Into::into),
        // A key, as its template (`notes:{key}`) when its literal parts
        // are plainly a name.
        "redis" => {
            let key = frame.template(call.args.first()?);
            let literal: String = key.split(['{', '}']).step_by(2).collect();
            let plain = literal
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-' | '.'));
            (plain && !literal.is_empty() && !token_shaped(&literal)).then_some(key)
        }
        // A Memory Bank resource named by a literal `parent`/`name`, or an
        // update's inline `memory={"name": …}`.
        "memory_bank" => {
            let resource = |key: &str| match keyword_value(call, key) {
                Some(Value::Str(s)) if printable_path(s) => Some(s.clone()),
                _ => None,
            };
            (resource("parent").or_else(|| resource("name")).or_else(|| {
                match keyword_value(call, "memory") {
                    Some(Value::Dict(entries)) => {
                        entries.iter().rev().find_map(|(k, v)| match (k, v) {
                            (Some(Value::Str(k)), Value::Str(name))
                                if k == "name" && printable_path(name) =>
                            {
                                Some(name.clone())
                            }
                            _ => None,
                        })
                    }
                    _ => None,
                }
            }))
            .map(Into::into)
        }
        _ => None,
    }
}
