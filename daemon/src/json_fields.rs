//! Reads of a JSON document's fields that never fail: what the renderings,
//! the summary, the policy and the inventory read the answer's document
//! with. A missing key, or one of another type, is the empty value.

use serde_json::Value;

/// `value[key]` as a string; `""` when absent or not a string.
pub fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `value[key]` as an array; empty when absent or not an array.
pub fn array<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value
        .get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}
