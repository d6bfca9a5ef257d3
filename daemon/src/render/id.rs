//! `comparison_id` (output contract §3.2).
//!
//! The id lets anyone check that a printed document is the one the engine
//! produced: drop the key, re-serialise canonically, hash.

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::pyjson::to_canonical_ascii;

/// Lowercase hex SHA-256 of the canonical ASCII JSON of `doc_without_id`.
///
/// The caller passes the sanitised document *without* `comparison_id`;
/// this function neither sanitises nor strips anything, so the id always
/// covers exactly the bytes the caller meant.
pub fn comparison_id(doc_without_id: &Value) -> String {
    let digest = Sha256::digest(to_canonical_ascii(doc_without_id).as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses a fixture (a full document as printed), removes its id and
    /// returns (recomputed id, printed id).
    fn recompute(text: &str) -> (String, String) {
        let mut doc: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let printed = doc
            .as_object_mut()
            .and_then(|m| m.shift_remove("comparison_id"))
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        (comparison_id(&doc), printed)
    }

    #[test]
    fn contract_example_2_10() {
        let (id, printed) = recompute(include_str!("testdata/contract_2_10.json"));
        assert_eq!(
            printed,
            "ad9a4383d34f0fd8d3010969e86bc9277b8e9b66b344403bf53895f18c88eac0"
        );
        assert_eq!(id, printed);
    }

    #[test]
    fn oracle_documents() {
        for text in [
            include_str!("testdata/sdk_tools.json"),
            include_str!("testdata/partial_reach.json"),
            include_str!("testdata/combined.json"),
            include_str!("testdata/bidi_paths.json"),
        ] {
            let (id, printed) = recompute(text);
            assert_eq!(printed.len(), 64);
            assert_eq!(id, printed);
        }
    }

    #[test]
    fn empty_object() {
        // sha256("{}")
        assert_eq!(
            comparison_id(&serde_json::json!({})),
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
    }
}
