//! What reading trees and blob headers found, kept by object id for the
//! life of a repository handle (a request, or a watched repository's
//! indexing pass): a history walk lists every commit's tree, and
//! consecutive commits share most subtrees and blobs. An object id is a
//! digest of the object's content, so what a read of it finds is the
//! same every time: a tree's listing is a function of its id and the path
//! it is listed at (`listing.rs`), a blob's size of its id. Bounded: a
//! path keeps the listings of its last `TREES_PER_PATH` trees (a walk's
//! next commit asks the newest; one built beside it, the one before), so
//! what is kept is at most that many times one tree's listings; past
//! `ENTRIES_KEPT` paths or sizes a map starts over.

use super::Listing;
use crate::recent::{insert_bounded, Recent};
use gix::ObjectId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

const ENTRIES_KEPT: usize = 1 << 16;

const TREES_PER_PATH: usize = 2;

pub(crate) struct Kept {
    /// By the path a tree was listed at: its id and listing.
    listings: Recent<String, (ObjectId, Arc<Listing>)>,
    sizes: Mutex<HashMap<ObjectId, u64>>,
}

impl Default for Kept {
    fn default() -> Self {
        Kept {
            listings: Recent::new(TREES_PER_PATH, ENTRIES_KEPT),
            sizes: Mutex::default(),
        }
    }
}

impl Kept {
    pub(super) fn listing(&self, tree: ObjectId, path: &str) -> Option<Arc<Listing>> {
        self.listings
            .values(path)
            .into_iter()
            .find(|(id, _)| *id == tree)
            .map(|(_, listing)| listing)
    }

    pub(super) fn keep_listing(
        &self,
        tree: ObjectId,
        path: &str,
        listing: Listing,
    ) -> Arc<Listing> {
        let listing = Arc::new(listing);
        self.listings
            .keep(path.to_string(), (tree, Arc::clone(&listing)), |(id, _)| {
                *id == tree
            });
        listing
    }

    fn sizes(&self) -> std::sync::MutexGuard<'_, HashMap<ObjectId, u64>> {
        // Plain data: a panic elsewhere cannot leave it half written.
        self.sizes
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(super) fn size(&self, blob: ObjectId) -> Option<u64> {
        self.sizes().get(&blob).copied()
    }

    pub(super) fn keep_size(&self, blob: ObjectId, size: u64) {
        insert_bounded(&mut self.sizes(), blob, size, ENTRIES_KEPT);
    }
}
