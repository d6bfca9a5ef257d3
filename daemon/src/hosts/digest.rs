//! Digests of configuration values that may hold secrets: compared, never
//! printed. A value's digest does not depend on the order of its keys.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// SHA-256 of `value` in a canonical spelling (object keys sorted), hex.
pub fn sha256(value: &Value) -> String {
    let mut text = String::new();
    canonical(value, &mut text, 0);
    hex(&Sha256::digest(text.as_bytes()))
}

/// How deep a value is spelled; deeper parts are one marker (serde_json
/// already refuses documents nested past 128 levels).
const MAX_DEPTH: usize = 256;

fn canonical(value: &Value, out: &mut String, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("<deep>");
        return;
    }
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for key in keys {
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                if let Some(member) = map.get(key) {
                    canonical(member, out, depth + 1);
                }
                out.push(',');
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out, depth + 1);
                out.push(',');
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::sha256;
    use serde_json::json;

    #[test]
    fn key_order_does_not_change_a_digest() {
        assert_eq!(
            sha256(&json!({"a": 1, "b": [1, 2]})),
            sha256(&json!({"b": [1, 2], "a": 1}))
        );
        assert_ne!(sha256(&json!({"a": 1})), sha256(&json!({"a": 2})));
    }
}
