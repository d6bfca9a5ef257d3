//! One commit's host sources and what each grants: what the store keeps
//! per commit, and what a comparison pairs. Built from the tree's
//! listing of sources (`git::host_files`) and each blob's reading, which
//! is kept by blob id (`engine/host_diff.rs`).

use super::read::{Malformed, SourceReading};
use super::sources::{Host, SourceKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Every host source of one tree, sorted by path.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostInventory {
    pub sources: Vec<InventorySource>,
    /// The walk stopped at its bound (`git::MAX_WALK_ENTRIES`, the depth
    /// bound): a source past it would be missing.
    pub cut_short: bool,
    /// Host files in a subdirectory that a host reads only when started
    /// there (`sources::nested_host`), by path: their blob ids.
    pub nested: BTreeMap<String, String>,
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
    /// The blob id of each script a hook runs under the project directory
    /// (`missing` when the path holds no file), by repository path.
    pub scripts: BTreeMap<String, String>,
}

impl InventorySource {
    /// The grants of this source with each hook's script blob filled in
    /// (none when it did not read).
    pub fn grants(&self) -> Vec<super::grant::Grant> {
        let mut grants = self
            .reading
            .as_ref()
            .map(|r| r.grants.clone())
            .unwrap_or_default();
        for grant in &mut grants {
            if let super::grant::Grant::Hook(hook) = grant {
                for handler in &mut hook.handlers {
                    // A missing script is a limit of its own (`compare`):
                    // the hook is then compared by its declaration alone.
                    if let Some(script) = &handler.script {
                        handler.script_blob = self
                            .scripts
                            .get(script)
                            .filter(|b| *b != "missing")
                            .cloned();
                    }
                }
            }
        }
        grants
    }

    /// The scripts the hooks of this source run under the project
    /// directory.
    pub fn hook_scripts(&self) -> Vec<String> {
        let Ok(reading) = &self.reading else {
            return Vec::new();
        };
        let mut scripts: Vec<String> = reading
            .grants
            .iter()
            .filter_map(|g| match g {
                super::grant::Grant::Hook(hook) => Some(hook),
                _ => None,
            })
            .flat_map(|hook| hook.handlers.iter().filter_map(|h| h.script.clone()))
            .collect();
        scripts.sort();
        scripts.dedup();
        scripts
    }
}

impl HostInventory {
    pub fn source(&self, path: &str) -> Option<&InventorySource> {
        self.sources
            .binary_search_by(|s| s.path.as_str().cmp(path))
            .ok()
            .and_then(|i| self.sources.get(i))
    }
}
