//! How a cache value travels: the object's name, and the value bound to
//! its name. The local value is already sealed (its checksum in front:
//! `store/mod.rs`); in the remote it is wrapped once more with a digest of
//! its namespace, key and bytes, so a value damaged in transit, written
//! under another key or by another format is refused (a miss), never
//! decoded as an answer.

use crate::store::Namespace;

/// The first bytes of every remote value: the format of this envelope.
const MAGIC: &[u8; 8] = b"shipgR01";
/// Bytes of the binding digest after the magic.
const BINDING_BYTES: usize = 16;

/// The object name of `key` in `namespace`: one directory per engine
/// version (keys already carry it; the directory lets an operator expire
/// an old version's objects at once), one per namespace, the key in hex.
pub(super) fn object_path(namespace: Namespace, key: &[u8]) -> String {
    let mut path = format!(
        "shipgate-e{}/{}/",
        crate::ENGINE_FACTS_VERSION,
        namespace.tree_name()
    );
    for byte in key {
        path.push(char::from(HEX[usize::from(byte >> 4)]));
        path.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    path
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The remote value of a local (sealed) value.
pub(super) fn wrap(namespace: Namespace, key: &[u8], sealed: &[u8]) -> Vec<u8> {
    let mut wrapped = Vec::with_capacity(MAGIC.len() + BINDING_BYTES + sealed.len());
    wrapped.extend_from_slice(MAGIC);
    wrapped.extend_from_slice(&binding(namespace, key, sealed));
    wrapped.extend_from_slice(sealed);
    wrapped
}

/// The local value a remote value holds, when it is bound to this
/// namespace and key; `None` for anything else.
pub(super) fn unwrap(namespace: Namespace, key: &[u8], wrapped: &[u8]) -> Option<Vec<u8>> {
    let rest = wrapped.strip_prefix(MAGIC)?;
    let (digest, sealed) = rest.split_at_checked(BINDING_BYTES)?;
    (binding(namespace, key, sealed) == digest).then(|| sealed.to_vec())
}

fn binding(namespace: Namespace, key: &[u8], sealed: &[u8]) -> [u8; BINDING_BYTES] {
    let mut hasher = blake3::Hasher::new_derive_key("shipgate remote cache value v1");
    let name = namespace.tree_name().as_bytes();
    // Lengths first: no two (name, key) pairs hash the same bytes.
    hasher.update(&(name.len() as u64).to_le_bytes());
    hasher.update(name);
    hasher.update(&(key.len() as u64).to_le_bytes());
    hasher.update(key);
    hasher.update(sealed);
    let mut digest = [0; BINDING_BYTES];
    digest.copy_from_slice(&hasher.finalize().as_bytes()[..BINDING_BYTES]);
    digest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_names_the_engine_version_the_namespace_and_the_key_in_hex() {
        assert_eq!(
            object_path(Namespace::Graphs, &[0x00, 0xab, 0x7f]),
            format!("shipgate-e{}/graphs/00ab7f", crate::ENGINE_FACTS_VERSION)
        );
    }

    #[test]
    fn a_value_opens_only_under_its_own_namespace_and_key_and_undamaged() {
        let wrapped = wrap(Namespace::Facts, b"blob", b"sealed value");
        assert_eq!(
            unwrap(Namespace::Facts, b"blob", &wrapped).as_deref(),
            Some(&b"sealed value"[..])
        );
        assert_eq!(unwrap(Namespace::Graphs, b"blob", &wrapped), None);
        assert_eq!(unwrap(Namespace::Facts, b"blob2", &wrapped), None);
        for at in 0..wrapped.len() {
            let mut damaged = wrapped.clone();
            damaged[at] ^= 0x01;
            assert_eq!(
                unwrap(Namespace::Facts, b"blob", &damaged),
                None,
                "byte {at}"
            );
        }
        assert_eq!(unwrap(Namespace::Facts, b"blob", &wrapped[..20]), None);
        assert_eq!(unwrap(Namespace::Facts, b"blob", b""), None);
    }
}
