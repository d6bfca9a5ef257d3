//! Redaction of secret-shaped text (output contract §3.3).
//!
//! Every string of the document — values and keys — passes a set of
//! pattern matchers, applied one kind after the other; values under a
//! sensitive key are replaced wholesale. The matchers are hand-rolled
//! equivalents of the reference tool's regular expressions, including its
//! regex semantics: `\b` is a *Unicode* word boundary, classes are ASCII,
//! and a match found at a position is the one Python's backtracking engine
//! would pick there. Those details were pinned down by running the
//! reference binary on crafted agent names (see the tests).
//!
//! Here: the walk over the document, sensitive keys and markers. The
//! matchers and the literals each starts with are `rules.rs`.

use serde_json::Value;

mod rules;
use rules::*;

/// Replacement for any non-empty string under a sensitive key.
const SENSITIVE_MARKER: &str = "[REDACTED:sensitive_field]";

/// Normalised key names whose values are replaced wholesale.
const SENSITIVE_KEYS: &[&str] = &[
    "apikey",
    "api_key",
    "authorization",
    "bearer",
    "clientsecret",
    "client_secret",
    "credential",
    "credentials",
    "password",
    "passwd",
    "privatekey",
    "private_key",
    "pwd",
    "secret",
    "token",
];

/// Every marker kind the sanitiser writes; a string that is exactly one
/// such marker is already redacted and left alone.
const MARKER_KINDS: &[&str] = &[
    "sensitive_field",
    "openai_api_key",
    "aws_access_key",
    "github_token",
    "stripe_key",
    "stripe_webhook_secret",
    "slack_token",
    "jwt",
    "database_url",
    "bearer_token",
    "labeled_secret_value",
];

/// Sanitises a whole document in place.
pub fn sanitize(v: &mut Value) {
    sanitize_value(v, false);
}

/// Applies only the substring rules to one string (no sensitive-key rule).
pub fn redact_text(s: &str) -> String {
    redacted(s).unwrap_or_else(|| s.to_string())
}

/// The string with the substring rules applied, or `None` when they leave
/// it as it is: most strings of a document (paths, names, digests) hold no
/// rule's anchor, and are neither scanned position by position nor copied.
fn redacted(s: &str) -> Option<String> {
    // The shortest match of any rule (a JWT, `eyJa.b.c`) is 8 chars, so 8
    // bytes at least.
    if s.len() < 8 || !any_rule_may_match(s) {
        return None;
    }
    let mut text: Option<String> = None;
    for rule in RULES {
        let current = text.as_deref().unwrap_or(s);
        if rule.may_match(current) {
            let chars: Vec<char> = current.chars().collect();
            text = Some(
                substitute(&chars, rule.kind, rule.matcher)
                    .into_iter()
                    .collect(),
            );
        }
    }
    text.filter(|text| text != s)
}

fn sanitize_value(v: &mut Value, under_sensitive_key: bool) {
    match v {
        Value::String(s) => {
            if let Some(sanitized) = sanitized_string(s, under_sensitive_key) {
                *s = sanitized;
            }
        }
        Value::Array(items) => {
            for item in items {
                sanitize_value(item, under_sensitive_key);
            }
        }
        Value::Object(map) if !map.keys().any(|key| redacted(key).is_some()) => {
            // No key changes (the usual case): the values in place.
            for (key, item) in map.iter_mut() {
                sanitize_value(item, under_sensitive_key || is_sensitive_key(key));
            }
        }
        Value::Object(map) => {
            // Keys change, so rebuild the map; insertion keeps the
            // original order (a collision keeps the first position, as a
            // Python dict would).
            let old = std::mem::take(map);
            for (key, mut item) in old {
                let sensitive = under_sensitive_key || is_sensitive_key(&key);
                sanitize_value(&mut item, sensitive);
                map.insert(redact_text(&key), item);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// The string as sanitised, or `None` when it stays as it is.
fn sanitized_string(s: &str, under_sensitive_key: bool) -> Option<String> {
    if is_marker(s) {
        return None;
    }
    match redacted(s) {
        // A pattern's partial redaction is kept; otherwise a value under
        // a sensitive key is hidden entirely.
        Some(redacted) => Some(redacted),
        None if under_sensitive_key && !s.is_empty() => Some(SENSITIVE_MARKER.to_string()),
        None => None,
    }
}

/// The key lower-cased with everything but `[a-z0-9_]` removed, compared to
/// the list (so `Client-Secret` and `API_KEY` count, `max_tokens` does not).
/// Lowered char by char (`str::to_lowercase` differs only in a final
/// sigma, which the filter drops anyway) into a buffer as long as the
/// longest sensitive key: a key that normalises to more is none of them.
fn is_sensitive_key(key: &str) -> bool {
    let mut normalised = [0u8; LONGEST_SENSITIVE_KEY];
    let mut len = 0;
    let kept = key
        .chars()
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_');
    for c in kept {
        let Some(slot) = normalised.get_mut(len) else {
            return false;
        };
        // ASCII by the filter.
        *slot = c as u8;
        len += 1;
    }
    SENSITIVE_KEYS
        .iter()
        .any(|sensitive| sensitive.as_bytes() == &normalised[..len])
}

/// `client_secret`'s length, the longest of `SENSITIVE_KEYS` (a test
/// checks).
const LONGEST_SENSITIVE_KEY: usize = 13;

fn is_marker(s: &str) -> bool {
    s.strip_prefix("[REDACTED:")
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|kind| MARKER_KINDS.contains(&kind))
}

/// Leftmost, non-overlapping replacement, like `re.sub`.
fn substitute(chars: &[char], kind: &str, matcher: Matcher) -> Vec<char> {
    let marker: Vec<char> = format!("[REDACTED:{kind}]").chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        match matcher(chars, i) {
            Some(hit) if hit.end > i => {
                out.extend_from_slice(&chars[i..hit.replace_start]);
                out.extend_from_slice(&marker);
                out.extend_from_slice(&chars[hit.replace_end..hit.end]);
                i = hit.end;
            }
            _ => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
