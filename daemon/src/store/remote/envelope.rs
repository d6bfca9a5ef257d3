//! How a cache value travels: the object's name, and the value bound to
//! its name. The local value is already sealed (its checksum in front:
//! `store/mod.rs`); in the remote it is wrapped once more with a digest of
//! its namespace, key and bytes, so a value damaged in transit, written
//! under another key or by another format is refused (a miss), never
//! decoded as an answer. With a fleet key (`SHIPGATE_REMOTE_CACHE_KEY`)
//! the digest is keyed: a value written by anyone without the key (a
//! store whose write permissions are wider than meant) is refused too, so
//! no one but the fleet can put a row in its answers.

use crate::store::Namespace;

/// The first bytes of every remote value: the format of this envelope.
const MAGIC: &[u8; 8] = b"shipgR01";
/// Bytes of the binding digest after the magic.
const BINDING_BYTES: usize = 16;

/// The object name of `key` in `namespace`: one directory per release
/// and engine version (keys already carry the engine version; the
/// directory keeps releases apart should one forget to bump it, and lets
/// an operator expire an old version's objects at once), one per
/// namespace, the key in hex.
pub(super) fn object_path(namespace: Namespace, key: &[u8]) -> String {
    let mut path = format!(
        "shipgate-{}-e{}/{}/",
        crate::VERSION,
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

/// The fleet's secret, when it has one: what keys the binding digest.
#[derive(Clone, Default)]
pub struct FleetKey(Option<[u8; 32]>);

impl std::fmt::Debug for FleetKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "FleetKey(set)"
        } else {
            "FleetKey(none)"
        })
    }
}

impl FleetKey {
    /// The key of a secret of any length (blake3's key derivation).
    pub fn from_secret(secret: &str) -> FleetKey {
        FleetKey(Some(blake3::derive_key(
            "shipgate remote cache fleet key v1",
            secret.as_bytes(),
        )))
    }

    pub fn is_set(&self) -> bool {
        self.0.is_some()
    }

    /// The remote value of a local (sealed) value.
    pub(super) fn wrap(&self, namespace: Namespace, key: &[u8], sealed: &[u8]) -> Vec<u8> {
        let mut wrapped = Vec::with_capacity(MAGIC.len() + BINDING_BYTES + sealed.len());
        wrapped.extend_from_slice(MAGIC);
        wrapped.extend_from_slice(&self.binding(namespace, key, sealed));
        wrapped.extend_from_slice(sealed);
        wrapped
    }

    /// The local value a remote value holds, when it is bound to this
    /// namespace and key (and written with this fleet's key); `None` for
    /// anything else.
    pub(super) fn unwrap(
        &self,
        namespace: Namespace,
        key: &[u8],
        wrapped: &[u8],
    ) -> Option<Vec<u8>> {
        let rest = wrapped.strip_prefix(MAGIC)?;
        let (digest, sealed) = rest.split_at_checked(BINDING_BYTES)?;
        let expected = self.binding(namespace, key, sealed);
        // Compared in constant time: with a fleet key the digest is a MAC.
        let same: bool = subtle::ConstantTimeEq::ct_eq(&expected[..], digest).into();
        same.then(|| sealed.to_vec())
    }

    fn binding(&self, namespace: Namespace, key: &[u8], sealed: &[u8]) -> [u8; BINDING_BYTES] {
        let mut hasher = match &self.0 {
            Some(secret) => blake3::Hasher::new_keyed(secret),
            None => blake3::Hasher::new_derive_key("shipgate remote cache value v1"),
        };
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_names_the_release_the_engine_version_the_namespace_and_the_key_in_hex() {
        assert_eq!(
            object_path(Namespace::Graphs, &[0x00, 0xab, 0x7f]),
            format!(
                "shipgate-{}-e{}/graphs/00ab7f",
                crate::VERSION,
                crate::ENGINE_FACTS_VERSION
            )
        );
    }

    #[test]
    fn a_value_opens_only_under_its_own_namespace_and_key_and_undamaged() {
        let none = FleetKey::default();
        let wrapped = none.wrap(Namespace::Facts, b"blob", b"sealed value");
        assert_eq!(
            none.unwrap(Namespace::Facts, b"blob", &wrapped).as_deref(),
            Some(&b"sealed value"[..])
        );
        assert_eq!(none.unwrap(Namespace::Graphs, b"blob", &wrapped), None);
        assert_eq!(none.unwrap(Namespace::Facts, b"blob2", &wrapped), None);
        for at in 0..wrapped.len() {
            let mut damaged = wrapped.clone();
            damaged[at] ^= 0x01;
            assert_eq!(
                none.unwrap(Namespace::Facts, b"blob", &damaged),
                None,
                "byte {at}"
            );
        }
        assert_eq!(none.unwrap(Namespace::Facts, b"blob", &wrapped[..20]), None);
        assert_eq!(none.unwrap(Namespace::Facts, b"blob", b""), None);
    }

    #[test]
    fn with_a_fleet_key_only_values_written_with_that_key_open() {
        let fleet = FleetKey::from_secret("the fleet's secret");
        let other = FleetKey::from_secret("another secret");
        let none = FleetKey::default();
        let signed = fleet.wrap(Namespace::Graphs, b"k", b"graph");
        assert_eq!(
            fleet.unwrap(Namespace::Graphs, b"k", &signed).as_deref(),
            Some(&b"graph"[..])
        );
        assert_eq!(other.unwrap(Namespace::Graphs, b"k", &signed), None);
        assert_eq!(none.unwrap(Namespace::Graphs, b"k", &signed), None);
        let unsigned = none.wrap(Namespace::Graphs, b"k", b"graph");
        assert_eq!(fleet.unwrap(Namespace::Graphs, b"k", &unsigned), None);
        assert_eq!(format!("{fleet:?}"), "FleetKey(set)");
    }
}
