//! One commit's host sources and what each grants: what the store keeps
//! per commit, and what a comparison pairs. Built from the tree's
//! listing of sources (`git::host_files`) and each blob's reading, which
//! is kept by blob id (`engine/host_diff.rs`).

use super::read::{Malformed, SourceReading};
use super::sources::{Host, SourceKind};
use serde::{Deserialize, Serialize};

/// Every host source of one tree, sorted by path.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostInventory {
    pub sources: Vec<InventorySource>,
    /// The walk stopped at its bound (`git::MAX_WALK_ENTRIES`, the depth
    /// bound): a source past it would be missing.
    pub cut_short: bool,
}

/// One source file of a tree, read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InventorySource {
    pub path: String,
    pub host: Host,
    pub kind: SourceKind,
    /// The blob's id (hex): the same blob reads the same.
    pub blob: String,
    pub reading: Result<SourceReading, Malformed>,
}

impl HostInventory {
    pub fn source(&self, path: &str) -> Option<&InventorySource> {
        self.sources
            .binary_search_by(|s| s.path.as_str().cmp(path))
            .ok()
            .and_then(|i| self.sources.get(i))
    }
}
