//! Where a database or service client connects, read off its
//! construction: its host as the text prints it, and its credentials by
//! name only (a literal password is never printed).

use super::printed::credential;
use crate::python::Text;
use crate::python::Value;
use crate::reach::libraries as lib;
use crate::reach::model::Credential;
use crate::reach::values::Literal;
use crate::reach::Frame;

/// Where a database connection goes, read off its construction: the host,
/// and the credentials by name (a connection string's password is a
/// literal, never printed).
#[derive(Debug, Clone, Default)]
pub(super) struct Connection {
    pub(super) host: Option<String>,
    pub(super) credentials: Vec<Credential>,
}

impl Connection {
    pub(super) fn of(
        frame: &Frame<'_>,
        args: &[Value],
        keywords: &[(Option<Text>, Value)],
    ) -> Self {
        let mut connection = Connection::default();
        for (key, value) in keywords {
            match key.as_deref() {
                Some("host") => connection.host = Some(host_text(frame, value)),
                Some(name) if lib::is_credential_name(name) => connection.credentials.push(
                    credential("keyword", Some(name.to_string()), &frame.sources(value)),
                ),
                _ => {}
            }
        }
        let dsn = args.first().or_else(|| {
            keywords
                .iter()
                .find(|(k, _)| matches!(k.as_deref(), Some("dsn" | "database")))
                .map(|(_, v)| v)
        });
        if let Some(Value::Str(dsn)) = dsn {
            // `postgresql://user:pw@host:5432/db` or `host=db password=x`.
            if let Some((_, rest)) = dsn.split_once("://") {
                let authority = rest.split('/').next().unwrap_or(rest);
                if let Some((userinfo, host)) = authority.rsplit_once('@') {
                    connection.host = connection
                        .host
                        .or_else(|| Some(host.split(':').next().unwrap_or(host).to_string()));
                    if userinfo.contains(':') {
                        connection.credentials.push(literal_credential("dsn"));
                    }
                }
            } else {
                for pair in dsn.split_whitespace() {
                    match pair.split_once('=') {
                        Some(("host", host)) => {
                            connection.host = connection.host.or_else(|| Some(host.to_string()))
                        }
                        Some(("password", _)) => {
                            connection.credentials.push(literal_credential("dsn"))
                        }
                        _ => {}
                    }
                }
            }
        }
        connection
    }
}

/// Where a client connects, as the text prints it: a literal host, `env
/// NAME` for an environment variable, `default, env NAME` for one read
/// with a literal default, or the template of anything else.
pub(super) fn host_text(frame: &Frame<'_>, value: &Value) -> String {
    let (value, at) = frame.resolved(value, 0);
    match (at.env_name(&value), &value) {
        (Some(name), Value::Call { args, .. }) => match args.get(1).map(|d| at.sources(d).exact) {
            Some(Some(Literal::Str(default)))
                if !default.is_empty()
                    && default
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')) =>
            {
                format!("{default}, env {name}")
            }
            _ => format!("env {name}"),
        },
        (Some(name), _) => format!("env {name}"),
        (None, _) => at.template(&value),
    }
}

fn literal_credential(name: &str) -> Credential {
    Credential {
        kind: "keyword".into(),
        name: Some(name.into()),
        env: Vec::new(),
        from: Vec::new(),
        literal: true,
    }
}
