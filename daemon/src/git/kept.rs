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
use gix::ObjectId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

const ENTRIES_KEPT: usize = 1 << 16;

const TREES_PER_PATH: usize = 2;

/// The listings of the trees last listed at one path, newest first.
type TreesAtPath = Vec<(ObjectId, Arc<Listing>)>;

#[derive(Default)]
pub(crate) struct Kept {
    /// By the path a tree was listed at, then its id, newest first.
    listings: Mutex<HashMap<String, TreesAtPath>>,
    sizes: Mutex<HashMap<ObjectId, u64>>,
}

/// Plain maps: a panic elsewhere cannot leave one half written.
fn lock<T>(map: &Mutex<T>) -> MutexGuard<'_, T> {
    map.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn insert_bounded<K: std::hash::Hash + Eq, V>(map: &mut HashMap<K, V>, key: K, value: V) {
    if map.len() >= ENTRIES_KEPT {
        map.clear();
    }
    map.insert(key, value);
}

impl Kept {
    pub(super) fn listing(&self, tree: ObjectId, path: &str) -> Option<Arc<Listing>> {
        lock(&self.listings)
            .get(path)?
            .iter()
            .find(|(id, _)| *id == tree)
            .map(|(_, listing)| Arc::clone(listing))
    }

    pub(super) fn keep_listing(
        &self,
        tree: ObjectId,
        path: &str,
        listing: Listing,
    ) -> Arc<Listing> {
        let listing = Arc::new(listing);
        let mut listings = lock(&self.listings);
        if listings.len() >= ENTRIES_KEPT && !listings.contains_key(path) {
            listings.clear();
        }
        let trees = listings.entry(path.to_string()).or_default();
        trees.retain(|(id, _)| *id != tree);
        trees.insert(0, (tree, Arc::clone(&listing)));
        trees.truncate(TREES_PER_PATH);
        listing
    }

    pub(super) fn size(&self, blob: ObjectId) -> Option<u64> {
        lock(&self.sizes).get(&blob).copied()
    }

    pub(super) fn keep_size(&self, blob: ObjectId, size: u64) {
        insert_bounded(&mut lock(&self.sizes), blob, size);
    }
}
