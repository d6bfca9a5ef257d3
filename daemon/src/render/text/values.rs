//! Reading values out of the document: absent and null both print as
//! Python's `str(None)`, and [`one_line`] keeps a value on its line.

use serde_json::Value;

use super::super::pyjson;

pub(super) fn get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.get(key)
}

/// Python's `str()` of a JSON value (containers, which never occur where
/// text is expected, print as compact JSON).
pub(super) fn py_str(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "None".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(true)) => "True".to_string(),
        Some(Value::Bool(false)) => "False".to_string(),
        Some(other) => pyjson::to_python_default(other),
    }
}

/// `str()` of `v[key]`.
pub(super) fn field(v: &Value, key: &str) -> String {
    py_str(get(v, key))
}

/// The elements of `v[key]` when it is an array, else nothing.
pub(super) fn items<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    get(v, key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The strings of `v[key]`, each as `str()` would print it.
pub(super) fn strings(v: &Value, key: &str) -> Vec<String> {
    items(v, key).iter().map(|x| py_str(Some(x))).collect()
}

pub(super) fn non_null<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    get(v, key).filter(|x| !x.is_null())
}

/// The first `n` characters (Python's `s[:n]`).
pub(super) fn prefix(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Pushes `s` unless an equal string is already there (first-seen order).
pub(super) fn push_unique(list: &mut Vec<String>, s: String) {
    if !list.contains(&s) {
        list.push(s);
    }
}

// ---------------------------------------------------------------------------
// The one-line filter (§4.2).

/// Makes control and bidi characters visible as `\xNN` / `\uNNNN`.
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let cp = c as u32;
        if !is_unsafe_in_line(cp) {
            out.push(c);
        } else if cp <= 0xff {
            out.push_str(&format!("\\x{cp:02x}"));
        } else {
            out.push_str(&format!("\\u{cp:04x}"));
        }
    }
    out
}

/// C0, DEL and C1 controls, and the bidi marks, embeddings, overrides,
/// isolates and the line/paragraph separators.
pub(super) fn is_unsafe_in_line(cp: u32) -> bool {
    matches!(
        cp,
        0x00..=0x1f
            | 0x7f..=0x9f
            | 0x061c
            | 0x200e
            | 0x200f
            | 0x2028
            | 0x2029
            | 0x202a..=0x202e
            | 0x2066..=0x2069
    )
}

// ---------------------------------------------------------------------------
// Document-level lines.
