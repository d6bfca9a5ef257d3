//! What the reach prints of a value: a field's or a credential's facts
//! from what it is made from, and which names, paths and URL pieces are
//! printed as written and which are withheld as token-shaped or
//! sensitive.

use crate::reach::libraries as lib;
use crate::reach::model::{Credential, Field, FieldFact, Printable};
use crate::reach::values::{Literal, Sources};

pub(super) const REDACTED: &str = "[REDACTED:sensitive_field]";

/// One field fact from what its value is made from.
pub(super) fn field(name: Option<String>, sources: &Sources) -> Field {
    let secret = name.as_deref().is_some_and(lib::is_credential_name);
    let fact = if let Some((values, decided_by)) = &sources.choices {
        FieldFact::Values {
            values: values.clone(),
            decided_by: decided_by.clone(),
        }
    } else if let (Some(exact), false) = (&sources.exact, secret) {
        match exact {
            Literal::Str(s) if printable_word(s) => FieldFact::Value(Printable::Str(s.clone())),
            Literal::Number(n) => FieldFact::Value(Printable::Number(n.clone())),
            Literal::Bool(b) => FieldFact::Value(Printable::Bool(*b)),
            _ => FieldFact::Literal,
        }
    } else if sources.exact.is_some() {
        FieldFact::Literal
    } else if !sources.params.is_empty() || !sources.env.is_empty() {
        FieldFact::Made {
            from: sources.params.clone(),
            env: sources.env.clone(),
        }
    } else if sources.literal && !sources.computed {
        FieldFact::Literal
    } else {
        FieldFact::Computed
    };
    Field { name, fact }
}

pub(super) fn credential(kind: &str, name: Option<String>, sources: &Sources) -> Credential {
    let mut env = sources.env.clone();
    env.sort();
    Credential {
        kind: kind.into(),
        name,
        env,
        from: sources.params.clone(),
        literal: sources.literal || sources.exact.is_some(),
    }
}

/// A word without digits: printed as a field's value.
fn printable_word(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.chars()
            .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
}

/// A plain name (a table, bucket or key) is printed.
pub(super) fn printable_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
        && !token_shaped(s)
}

/// A relative path that does not climb out, with no key-shaped piece.
pub(super) fn printable_path(path: &str) -> bool {
    !path.starts_with('/')
        && !path.starts_with('~')
        && !path
            .split('/')
            .any(|piece| piece == ".." || token_shaped(piece))
}

/// A run of 20 characters, or of 7 with letters and at least two digits.
pub(super) fn token_shaped(piece: &str) -> bool {
    let run = piece
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map(str::len)
        .max()
        .unwrap_or(0);
    let digits = piece.chars().filter(char::is_ascii_digit).count();
    let letters = piece.chars().any(|c| c.is_ascii_alphabetic());
    !piece.starts_with('{') && (run >= 20 || (run >= 7 && letters && digits >= 2))
}

/// Withholds token-shaped path pieces after the host, and a webhook's
/// whole path but its method name.
pub(super) fn withhold_tokens(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (path_part, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    let mut pieces: Vec<String> = path_part.split('/').map(str::to_string).collect();
    // Credentials spliced into the userinfo are withheld.
    if let Some(host) = pieces.first_mut() {
        if let Some((_, after)) = host.rsplit_once('@') {
            *host = format!("{REDACTED}@{after}");
        }
    }
    let webhook = pieces
        .first()
        .is_some_and(|host| host.starts_with("hooks.") || host.contains("webhook"));
    // A bot URL's whole path but its method name (`/bot<token>/sendMessage`).
    let bot = pieces.len() > 2
        && pieces
            .get(1)
            .and_then(|piece| piece.strip_prefix("bot"))
            .is_some_and(|rest| {
                rest.starts_with('{')
                    || token_shaped(rest)
                    || rest.starts_with(|c: char| c.is_ascii_digit())
            });
    if bot {
        let last = pieces.len() - 1;
        pieces.splice(1..last, [REDACTED.to_string()]);
    }
    for (index, piece) in pieces.iter_mut().enumerate().skip(1) {
        if token_shaped(piece) || (webhook && index > 1) {
            *piece = REDACTED.to_string();
        }
    }
    let mut out = format!("{scheme}://{}", pieces.join("/"));
    if let Some(query) = query {
        out.push('?');
        let shown: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, value)) if !plain_query_value(value) => format!("{key}={REDACTED}"),
                _ => pair.to_string(),
            })
            .collect();
        out.push_str(&shown.join("&"));
    }
    out
}

/// A query value printed as written: a template piece, a short lowercase
/// word, a number, a date, or a list of words.
fn plain_query_value(value: &str) -> bool {
    let word = |w: &str| {
        !w.is_empty()
            && w.len() <= 24
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c == '-')
    };
    let number = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.');
    let date = |w: &str| {
        w.len() == 10
            && w.chars().enumerate().all(|(i, c)| {
                if i == 4 || i == 7 {
                    c == '-'
                } else {
                    c.is_ascii_digit()
                }
            })
    };
    value.is_empty()
        || (value.starts_with('{') && value.ends_with('}'))
        || word(value)
        || number(value)
        || date(value)
        || value.split(',').all(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_shaped_pieces_are_withheld_and_regions_are_not() {
        assert_eq!(
            withhold_tokens("https://api.x.com/v1/abcdefghij1234567890xyz/items"),
            "https://api.x.com/v1/[REDACTED:sensitive_field]/items"
        );
        assert_eq!(
            withhold_tokens("https://us-central1-aiplatform.googleapis.com/v1/{project}"),
            "https://us-central1-aiplatform.googleapis.com/v1/{project}"
        );
        assert!(printable_path("data/out.csv"));
        assert!(!printable_path("/etc/passwd"));
        assert!(!printable_path("../secrets"));
    }
}
