//! The content-addressed cache: module facts by blob id, side graphs by a
//! blake3 key of their inputs, and the registry of watched repositories.
//! A cache only: a damaged or foreign store is moved aside and rebuilt.

mod lock;
pub mod remote;
mod sled_store;
mod tiered;

pub use lock::DataDirLock;
pub use remote::{RemoteOptions, RemoteStatus};
pub use sled_store::SledStore;
pub use tiered::TieredStore;

use crate::packing::{encode_with, pack_into, unpack};
use serde::{de::DeserializeOwned, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// The namespaces the cache keeps, one sled tree each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Namespace {
    /// `ModuleFacts` by blob id + engine facts version.
    Facts,
    /// `SideGraph` by blake3 of what it is built from (engine version,
    /// scope, bounds, the scope's listing and surroundings:
    /// `engine/side_plan.rs`), and under blake3 of (engine version, root
    /// tree, scope, bounds) the content key of that tree's graph.
    Graphs,
    /// Watched repositories and what was indexed for them.
    Repositories,
    /// History steps (what one commit changed against its first parent)
    /// by blake3 of (engine version, both trees, scope, bounds).
    History,
    /// Host sources (issue 42): each blob's reading by (reader version,
    /// source kind, blob id), each tree's inventory by (reader version,
    /// tree id).
    Hosts,
}

impl Namespace {
    pub fn tree_name(self) -> &'static str {
        match self {
            Namespace::Facts => "facts",
            Namespace::Graphs => "graphs",
            Namespace::Repositories => "repositories",
            Namespace::History => "history",
            Namespace::Hosts => "hosts",
        }
    }
}

/// One `(key, value)` pair of a namespace.
pub type Entry = (Vec<u8>, Vec<u8>);

/// The few operations the engine needs from an embedded key-value store.
pub trait KvStore: Send + Sync {
    fn get(&self, namespace: Namespace, key: &[u8]) -> Result<Option<Vec<u8>>, String>;
    fn put(&self, namespace: Namespace, key: &[u8], value: &[u8]) -> Result<(), String>;
    fn remove(&self, namespace: Namespace, key: &[u8]) -> Result<(), String>;
    /// Every `(key, value)` of a namespace (small namespaces only).
    fn entries(&self, namespace: Namespace) -> Result<Vec<Entry>, String>;
    fn flush(&self) -> Result<(), String>;
    fn size_on_disk(&self) -> u64;
    fn path(&self) -> &std::path::Path;
    /// How the store is doing, as `status` prints it: `ok`, or what went
    /// wrong and what was done about it.
    fn health(&self) -> String {
        "ok".to_string()
    }
    /// Brings what a remote tier holds of `keys` into the local store in
    /// one batch, so the lookups that follow are local: many keys asked
    /// one at a time would cost a round trip each. Nothing without a
    /// remote tier.
    fn prefetch(&self, _namespace: Namespace, _keys: &[Vec<u8>]) {}
    /// Waits, at most `within`, for a remote tier's queued writes: before
    /// a process that wrote them ends.
    fn drain_remote(&self, _within: std::time::Duration) {}
    /// The remote tier's counters and state, when there is one.
    fn remote_status(&self) -> Option<RemoteStatus> {
        None
    }
}

/// Hit and miss counters of one cache.
#[derive(Debug, Default)]
pub struct Counters {
    pub hits: AtomicU64,
    pub misses: AtomicU64,
}

impl Counters {
    pub fn snapshot(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }
}

/// Typed access to the store, with counters.
pub struct Cache {
    kv: Box<dyn KvStore>,
    pub facts: Counters,
    pub graphs: Counters,
    pub history: Counters,
    /// Host-source readings and inventories (issue 42).
    pub hosts: Counters,
    /// The engine's in-memory answers to repeated requests (never stored:
    /// counted here so `status` shows them beside the store's caches).
    pub answers: Counters,
}

impl Cache {
    pub fn new(kv: Box<dyn KvStore>) -> Self {
        Cache {
            kv,
            facts: Counters::default(),
            graphs: Counters::default(),
            history: Counters::default(),
            hosts: Counters::default(),
            answers: Counters::default(),
        }
    }

    pub fn kv(&self) -> &dyn KvStore {
        self.kv.as_ref()
    }

    /// Reads a typed value; one that fails its checksum or does not decode
    /// is treated as absent (and will be overwritten), never as an error of
    /// the request.
    pub fn get<T: DeserializeOwned>(
        &self,
        namespace: Namespace,
        key: &[u8],
        counters: Option<&Counters>,
    ) -> Option<T> {
        self.get_sized(namespace, key, counters)
            .map(|(value, _)| value)
    }

    /// `get`, with the length of the value's encoding: what a memo of
    /// decoded values weighs them by.
    pub fn get_sized<T: DeserializeOwned>(
        &self,
        namespace: Namespace,
        key: &[u8],
        counters: Option<&Counters>,
    ) -> Option<(T, usize)> {
        let found = self
            .kv
            .get(namespace, key)
            .ok()
            .flatten()
            .and_then(|bytes| {
                let encoded = unpack(unseal(&bytes)?)?;
                postcard::from_bytes::<T>(&encoded)
                    .ok()
                    .map(|decoded| (decoded, encoded.len()))
            });
        if let Some(counters) = counters {
            let counter = if found.is_some() {
                &counters.hits
            } else {
                &counters.misses
            };
            counter.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    /// Writes a typed value. A failed write loses only a cache entry.
    pub fn put<T: Serialize>(
        &self,
        namespace: Namespace,
        key: &[u8],
        value: &T,
    ) -> Result<(), String> {
        self.put_sized(namespace, key, value).1
    }

    /// `put`, returning the length of the value's encoding (see
    /// `get_sized`), also when the write failed.
    pub fn put_sized<T: Serialize>(
        &self,
        namespace: Namespace,
        key: &[u8],
        value: &T,
    ) -> (usize, Result<(), String>) {
        let written = encode_with(value, |encoded| {
            (
                encoded.len(),
                self.kv.put(namespace, key, &seal_packed(encoded)),
            )
        });
        match written {
            Ok(written) => written,
            Err(err) => (0, Err(format!("encoding a cache value: {err}"))),
        }
    }

    pub fn flush(&self) -> Result<(), String> {
        self.kv.flush()
    }

    /// Waits, at most `within`, for the remote tier's queued writes
    /// (`KvStore::drain_remote`).
    pub fn drain_remote(&self, within: std::time::Duration) {
        self.kv.drain_remote(within);
    }

    /// See `KvStore::prefetch`.
    pub fn prefetch(&self, namespace: Namespace, keys: &[Vec<u8>]) {
        self.kv.prefetch(namespace, keys);
    }
}

/// Bytes of the checksum in front of every value.
const CHECKSUM_BYTES: usize = 16;

/// An encoding packed, with the blake3 checksum of the packed bytes in
/// front, in one buffer. sled checks its own log, but a value damaged on
/// disk or by a bug must never be decoded: a flipped byte could decode
/// into another value, or a hostile nesting depth.
fn seal_packed(encoded: &[u8]) -> Vec<u8> {
    let mut sealed = vec![0; CHECKSUM_BYTES];
    pack_into(encoded, &mut sealed);
    checksum_in_front(&mut sealed);
    sealed
}

/// Writes the checksum of what follows the checksum's place.
fn checksum_in_front(sealed: &mut [u8]) {
    if let Some((checksum, value)) = sealed.split_at_mut_checked(CHECKSUM_BYTES) {
        checksum.copy_from_slice(&blake3::hash(value).as_bytes()[..CHECKSUM_BYTES]);
    }
}

/// The value a sealed entry holds, when its checksum matches.
fn unseal(sealed: &[u8]) -> Option<&[u8]> {
    let (checksum, value) = sealed.split_at_checked(CHECKSUM_BYTES)?;
    (blake3::hash(value).as_bytes()[..CHECKSUM_BYTES] == *checksum).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_value_round_trips_and_any_flipped_byte_is_refused() {
        let sealed = seal_packed(b"facts of a module");
        assert_eq!(
            unseal(&sealed).and_then(unpack).as_deref(),
            Some(&b"facts of a module"[..])
        );
        for at in 0..sealed.len() {
            let mut damaged = sealed.clone();
            damaged[at] ^= 0x01;
            assert_eq!(unseal(&damaged), None, "byte {at}");
        }
        assert_eq!(unseal(&sealed[..CHECKSUM_BYTES - 1]), None);
    }
}
