//! Cache keys: content hashes plus the engine version, and the JSON of a
//! derived scope selection.

use super::*;

/// Facts are keyed by the blob's object format, id and the facts version:
/// a cache check never inflates the blob.
pub(super) fn facts_key(blob: &ObjectId) -> Vec<u8> {
    let mut key = Vec::with_capacity(1 + blob.as_bytes().len() + 4);
    key.push(match blob.kind() {
        gix::hash::Kind::Sha1 => 1,
        _ => 2,
    });
    key.extend_from_slice(blob.as_bytes());
    key.extend_from_slice(&crate::ENGINE_FACTS_VERSION.to_be_bytes());
    key
}

/// A side's root-tree key: it holds the key of what the graph is built
/// from (`side_plan.rs`), where the graph itself is.
pub(super) fn graph_key(root_tree: ObjectId, scope: &str, max_files: u32) -> blake3::Hash {
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"side-graph-alias");
    hasher.update(&crate::ENGINE_FACTS_VERSION.to_be_bytes());
    hasher.update(root_tree.as_bytes());
    hasher.update(scope.as_bytes());
    hasher.update(&[0]);
    hasher.update(&max_files.to_be_bytes());
    hasher.finalize()
}

/// `scope_selection` of a derived run (contract §7.2).
pub(super) fn scope_selection(derivation: &crate::scope::Derivation) -> Value {
    let relations: Vec<Value> = derivation
        .comparisons
        .iter()
        .map(|r| {
            json!({
                "scope": r.scope,
                "base_scope": r.base_scope,
                "changed": r.changed,
                "agent_files": r.agent_files,
                "via": r.via,
                "outside": r.outside,
            })
        })
        .collect();
    let changed: Vec<&String> = derivation.changed_files.iter().take(50).collect();
    json!({
        "mode": "derived",
        "scopes": derivation.comparisons.iter().map(|r| r.scope.clone()).collect::<Vec<_>>(),
        "reason": derivation.reason,
        "changed_files": changed,
        "relations": relations,
        "limits": derivation.limits,
    })
}
