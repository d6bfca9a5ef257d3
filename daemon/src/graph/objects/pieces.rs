//! A string argument read piece by piece (literal text, environment
//! variables), and what those pieces say: a URL's host and secret-named
//! query keys, a command's file name, their canonical text; whether a name
//! is a secret's.

use super::Credential;

/// A string argument read piece by piece.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Piece {
    Literal(String),
    Env {
        name: String,
        default: Option<String>,
    },
}

pub(super) type Pieces = Vec<Piece>;

pub(super) fn canonical_pieces(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|piece| match piece {
            Piece::Literal(text) => text.clone(),
            Piece::Env {
                name,
                default: None,
            } => format!("{{env {name}}}"),
            Piece::Env {
                name,
                default: Some(default),
            } => format!("{{env {name} or {default}}}"),
        })
        .collect()
}

pub(super) fn env_names(pieces: &[Piece]) -> Vec<String> {
    let mut names: Vec<String> = pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Env { name, .. } => Some(name.clone()),
            Piece::Literal(_) => None,
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The host a URL names: `api.example.com`, `env NAME` when the whole URL
/// comes from the environment, `env NAME or host` with a default; `None`
/// when the host is not literal text.
pub(super) fn host_of(pieces: &[Piece]) -> Option<String> {
    if let [Piece::Env { name, default }] = pieces {
        return Some(match default.as_deref().and_then(literal_host) {
            Some(host) => format!("env {name} or {host}"),
            None => format!("env {name}"),
        });
    }
    // The host is what lies between `://` and the first `/`, `?` or `#`,
    // and must be literal text or one environment variable.
    let mut text = String::new();
    for piece in pieces {
        match piece {
            Piece::Literal(literal) => text.push_str(literal),
            Piece::Env { name, .. } => text.push_str(&format!("\u{0}{name}\u{0}")),
        }
    }
    let after_scheme = text
        .split_once("://")
        .map_or(text.as_str(), |(_, rest)| rest);
    let authority = after_scheme
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if let Some(env) = host.strip_prefix('\u{0}') {
        let (name, rest) = env.split_once('\u{0}')?;
        return (rest.is_empty() || rest.starts_with(':')).then(|| format!("env {name}"));
    }
    if host.contains('\u{0}') {
        return None;
    }
    literal_host(&text)
}

fn literal_host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => host,
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Secret-named query keys of a URL (`?api_key={env KEY}`).
pub(super) fn query_credentials(pieces: &[Piece]) -> Vec<Credential> {
    let mut credentials = Vec::new();
    let mut text = String::new();
    let mut envs: Vec<String> = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Literal(literal) => text.push_str(literal),
            Piece::Env { name, .. } => {
                text.push_str(&format!("\u{0}{}\u{0}", envs.len()));
                envs.push(name.clone());
            }
        }
    }
    let Some((_, query)) = text.split_once('?') else {
        return credentials;
    };
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if !is_secret_name(key) {
            continue;
        }
        let env: Vec<String> = value
            .split('\u{0}')
            .skip(1)
            .step_by(2)
            .filter_map(|index| index.parse::<usize>().ok())
            .filter_map(|index| envs.get(index).cloned())
            .collect();
        credentials.push(Credential {
            target: "query".into(),
            name: key.to_string(),
            literal: env.is_empty(),
            env,
        });
    }
    credentials
}

/// A command's file name (`npx`, `server.py`); one shaped like a key is
/// withheld, as a URL's path piece would be.
pub(super) fn command_name(pieces: &[Piece]) -> String {
    if let [Piece::Env { name, .. }] = pieces {
        return format!("env {name}");
    }
    let text = canonical_pieces(pieces);
    let name = text.rsplit(['/', '\\']).next().unwrap_or(&text).to_string();
    if is_key_shaped(&name) {
        "[withheld]".to_string()
    } else {
        name
    }
}

/// A long run of letters and digits mixing both: a token, not a name.
pub(super) fn is_key_shaped(text: &str) -> bool {
    text.len() >= 24
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && text.chars().any(|c| c.is_ascii_digit())
        && text.chars().any(|c| c.is_ascii_alphabetic())
}

/// Whether a header, query key or environment entry names a secret.
pub fn is_secret_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "auth",
        "token",
        "key",
        "secret",
        "password",
        "passwd",
        "cookie",
        "credential",
        "session",
        "bearer",
    ]
    .iter()
    .any(|word| lower.contains(word))
}
