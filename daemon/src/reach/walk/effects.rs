//! Reads a library effect other than HTTP: a process run, a file opened,
//! read or written, and a database statement with its direction.

use super::call_args::{argument, keyword_value, model_supplied, params_into};
use super::printed::printable_path;
use super::{place, Walker};
use crate::python::{BodyCall, Value};
use crate::reach::libraries as lib;
use crate::reach::model::LibraryEffect;
use crate::reach::Frame;
use sha2::{Digest, Sha256};

impl Walker<'_, '_> {
    pub(super) fn process(
        &mut self,
        frame: &Frame<'_>,
        library: &str,
        name: &str,
        call: &BodyCall,
    ) {
        let command = call.args.first();
        let target = command.and_then(|c| match c {
            Value::List(items) | Value::Tuple(items) => match items.first() {
                Some(Value::Str(program)) => Some(program_name(program)),
                _ => None,
            },
            Value::Str(line)
                if name.starts_with("os.") || name.ends_with("shell") || shell(call) =>
            {
                line.split_whitespace().next().map(program_name)
            }
            Value::Str(program) => Some(program_name(program)),
            _ => None,
        });
        let model = model_supplied(frame, call, "command");
        self.reach.effects.push(LibraryEffect {
            family: "process".into(),
            operation: "execute".into(),
            library: library.into(),
            call: name.into(),
            at: place(frame, call.line),
            via: frame.via.clone(),
            target,
            statement: None,
            value_sha256: Some(digest(&format!("{:?}", call.args))),
            service: None,
            host: None,
            credentials: Vec::new(),
            model_supplied: model,
        });
    }

    /// `open(path, mode)`: the mode decides.
    pub(super) fn open(&mut self, frame: &Frame<'_>, library: &str, name: &str, call: &BodyCall) {
        let path = argument(call, 0, "file").cloned();
        let mode = argument(call, 1, "mode");
        self.mode_effect(frame, library, name, path.as_ref(), mode, call)
    }

    pub(super) fn mode_effect(
        &mut self,
        frame: &Frame<'_>,
        library: &str,
        name: &str,
        path: Option<&Value>,
        mode: Option<&Value>,
        call: &BodyCall,
    ) {
        let operation = match mode {
            None => "read",
            Some(Value::Str(mode)) if mode.contains(['w', 'a', 'x', '+']) => "write",
            Some(Value::Str(_)) => "read",
            Some(_) => {
                self.limit(
                    frame,
                    call.line,
                    format!("calls {name} with a mode that is not a literal"),
                );
                "unknown"
            }
        };
        self.file_effect(frame, library, name, operation, path, call)
    }

    pub(super) fn file_effect(
        &mut self,
        frame: &Frame<'_>,
        library: &str,
        name: &str,
        operation: &str,
        path: Option<&Value>,
        call: &BodyCall,
    ) {
        let text = path.map(|p| frame.template(p));
        let (target, withheld) = match text {
            Some(t) if printable_path(&t) => (Some(t), None),
            Some(t) => (None, Some(digest(&t))),
            None => (None, None),
        };
        let model = path
            .map(|p| {
                frame
                    .sources(p)
                    .params
                    .into_iter()
                    .map(|p| (p, "path".to_string()))
                    .collect()
            })
            .unwrap_or_default();
        self.reach.effects.push(LibraryEffect {
            family: "filesystem".into(),
            operation: operation.into(),
            library: library.into(),
            call: name.into(),
            at: place(frame, call.line),
            via: frame.via.clone(),
            target,
            statement: None,
            value_sha256: withheld,
            service: None,
            host: None,
            credentials: Vec::new(),
            model_supplied: model,
        });
    }

    pub(super) fn database(
        &mut self,
        frame: &Frame<'_>,
        library: &str,
        service: &str,
        object: &str,
        method: &str,
        call: &BodyCall,
    ) {
        match method {
            "execute" | "executemany" | "executescript" | "fetch" | "fetchrow" | "fetchval"
            | "query" => {
                // A statement a helper is handed (`query_db(f"SELECT …")`)
                // reads as its caller wrote it; a name bound once,
                // unconditionally, as what it is bound to.
                let resolved = argument(call, 0, "query")
                    .or_else(|| argument(call, 0, "sql"))
                    .map(|st| frame.resolved(st, 0));
                let statement = resolved.as_ref().map(|(value, _)| value);
                let written_in = resolved.as_ref().map_or(frame, |(_, at)| at);
                // SQLAlchemy's `select(...)`/`insert(...)`/… decide as
                // their statement.
                let constructed = statement.and_then(|st| match st {
                    Value::Call { callee, .. } => written_in
                        .library_name(callee)
                        .filter(|n| n.starts_with("sqlalchemy"))
                        .and_then(|n| {
                            let last = n.rsplit('.').next().unwrap_or(&n).to_ascii_uppercase();
                            matches!(last.as_str(), "SELECT" | "INSERT" | "UPDATE" | "DELETE")
                                .then_some(last)
                        }),
                    _ => None,
                });
                let constructed_sql;
                let statement = match constructed {
                    Some(keyword) => {
                        constructed_sql = Value::Str(keyword.into());
                        Some(&constructed_sql)
                    }
                    None => statement,
                };
                // `text("SELECT …")` (SQLAlchemy) is its statement.
                let statement = match statement {
                    Some(Value::Call { callee, args, .. })
                        if callee
                            .dotted()
                            .is_some_and(|c| c == "text" || c.ends_with(".text"))
                            && args.len() == 1 =>
                    {
                        args.first()
                    }
                    other => other,
                };
                let (keyword, operation, digest_of, spliced) = match statement {
                    Some(Value::Str(sql)) => {
                        let (keyword, operation) = lib::sql_operation(sql);
                        (Some(keyword), operation, Some(digest(sql)), false)
                    }
                    Some(Value::FString(parts)) => {
                        let text: String = parts
                            .iter()
                            .map(|p| match p {
                                Value::Str(s) => s.clone(),
                                _ => "?".into(),
                            })
                            .collect();
                        let (keyword, operation) = lib::sql_operation(&text);
                        (Some(keyword), operation, Some(digest(&text)), true)
                    }
                    _ => (None, "unknown", None, false),
                };
                if keyword.is_none() {
                    self.limit(
                        frame,
                        call.line,
                        "the SQL statement is not a literal, so its direction is not read".into(),
                    );
                } else if spliced {
                    self.limit(
                        frame,
                        call.line,
                        format!(
                            "the {} statement splices in a value the read does not name; a further statement in it is not read",
                            keyword.clone().unwrap_or_default()
                        ),
                    );
                }
                let model = params_into(frame, call.args.iter(), "statement");
                self.reach.effects.push(LibraryEffect {
                    family: "database".into(),
                    operation: operation.into(),
                    library: library.into(),
                    call: format!("{object}.{method}"),
                    at: place(frame, call.line),
                    via: frame.via.clone(),
                    target: None,
                    statement: keyword,
                    value_sha256: digest_of,
                    service: (!service.is_empty()).then(|| service.into()),
                    host: None,
                    credentials: Vec::new(),
                    model_supplied: model,
                });
            }
            "cursor" | "fetchone" | "fetchall" | "fetchmany" | "commit" | "rollback" | "close"
            | "getconn" | "putconn" | "closeall" | "acquire" | "release" | "connection" => {}
            // The family is established, the direction is not.
            other => {
                self.limit(
                    frame,
                    call.line,
                    format!(
                        "calls {object}.{other}, a {library} method whose direction is not read"
                    ),
                );
                self.reach.effects.push(LibraryEffect {
                    family: "database".into(),
                    operation: "unknown".into(),
                    library: library.into(),
                    call: format!("{object}.{other}"),
                    at: place(frame, call.line),
                    via: frame.via.clone(),
                    target: None,
                    statement: None,
                    value_sha256: None,
                    service: (!service.is_empty()).then(|| service.into()),
                    host: None,
                    credentials: Vec::new(),
                    model_supplied: model_supplied(frame, call, "arguments"),
                });
            }
        }
    }
}

fn shell(call: &BodyCall) -> bool {
    matches!(keyword_value(call, "shell"), Some(Value::Bool(true)))
}

fn program_name(program: &str) -> String {
    program.rsplit('/').next().unwrap_or(program).to_string()
}

fn digest(text: &str) -> String {
    format!("{:x}", Sha256::digest(text.as_bytes()))
}
