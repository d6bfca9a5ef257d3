//! Facts written to the store after the answer that parsed them.
//!
//! The store's memory holds what was written until it flushes (a quarter
//! of the facts' encoding, 11 MB for a 900-module scope). Written while
//! the graphs are built, that copy sat on top of a cold run's peak; written
//! once the answer is computed, it replaces memory the graphs gave back
//! (issue 23). A fact not yet written is still in memory (the list holds
//! it), so nothing is read twice; one never written (the process ended
//! first) is parsed again by the next run that needs it.

use crate::python::ModuleFacts;
use crate::store::{Cache, Namespace};
use gix::ObjectId;
use std::sync::{Arc, Mutex};

#[derive(Default)]
pub(super) struct WriteBehind {
    pending: Mutex<Vec<(ObjectId, Arc<ModuleFacts>)>>,
}

impl WriteBehind {
    fn pending(&self) -> std::sync::MutexGuard<'_, Vec<(ObjectId, Arc<ModuleFacts>)>> {
        // The list holds plain data; a panic elsewhere cannot corrupt it.
        self.pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Keeps a blob's freshly extracted facts to be written later.
    pub(super) fn defer(&self, blob: ObjectId, facts: Arc<ModuleFacts>) {
        self.pending().push((blob, facts));
    }

    /// Writes every fact kept so far, encoding and packing on every core
    /// (a failed write loses only a cache entry, and is said on stderr).
    pub(super) fn write(&self, cache: &Cache) {
        let pending = std::mem::take(&mut *self.pending());
        if pending.is_empty() {
            return;
        }
        let _store = crate::timings::phase!("store").entered();
        crate::work::share_out(&pending, |(blob, facts)| {
            let key = super::keys::facts_key(blob);
            if let Err(err) = cache.put(Namespace::Facts, &key, &**facts) {
                eprintln!("shipgate: could not cache facts: {err}");
            }
        });
    }
}
