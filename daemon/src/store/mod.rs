//! The content-addressed cache: module facts by blob id, side graphs by a
//! blake3 key of their inputs, and the registry of watched repositories.
//! A cache only: a damaged or foreign store is moved aside and rebuilt.

mod lock;
mod sled_store;

pub use lock::DataDirLock;
pub use sled_store::SledStore;

use serde::{de::DeserializeOwned, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// The namespaces the cache keeps, one sled tree each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Namespace {
    /// `ModuleFacts` by blob id + engine facts version.
    Facts,
    /// `SideGraph` by blake3 of (engine version, tree, scope, bounds).
    Graphs,
    /// Watched repositories and what was indexed for them.
    Repositories,
    /// History steps (what one commit changed against its first parent)
    /// by blake3 of (engine version, both trees, scope, bounds).
    History,
}

impl Namespace {
    pub fn tree_name(self) -> &'static str {
        match self {
            Namespace::Facts => "facts",
            Namespace::Graphs => "graphs",
            Namespace::Repositories => "repositories",
            Namespace::History => "history",
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
}

impl Cache {
    pub fn new(kv: Box<dyn KvStore>) -> Self {
        Cache {
            kv,
            facts: Counters::default(),
            graphs: Counters::default(),
            history: Counters::default(),
        }
    }

    pub fn kv(&self) -> &dyn KvStore {
        self.kv.as_ref()
    }

    /// Reads a typed value; an undecodable one is treated as absent (and
    /// will be overwritten), never as an error of the request.
    pub fn get<T: DeserializeOwned>(
        &self,
        namespace: Namespace,
        key: &[u8],
        counters: Option<&Counters>,
    ) -> Option<T> {
        let found = self
            .kv
            .get(namespace, key)
            .ok()
            .flatten()
            .and_then(|bytes| postcard::from_bytes::<T>(&bytes).ok());
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
        let bytes =
            postcard::to_stdvec(value).map_err(|err| format!("encoding a cache value: {err}"))?;
        self.kv.put(namespace, key, &bytes)
    }

    pub fn flush(&self) -> Result<(), String> {
        self.kv.flush()
    }
}
