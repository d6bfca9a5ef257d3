//! The facts of blobs, in order: from the memo of decoded facts, else the
//! store, else parsed on every core (and written once the request is
//! answered: `write_behind.rs`). The same blob is never parsed twice.

use super::keys::facts_key;
use super::Engine;
use crate::error::DiffError;
use crate::git::Repository;
use crate::python::{extract_facts, ModuleFacts};
use crate::store::Namespace;
use crate::timings::phase;
use gix::ObjectId;
use std::collections::HashMap;
use std::sync::Arc;

/// The memo of decoded facts, weighed by their encodings' length.
#[derive(Default)]
pub(super) struct DecodedFacts {
    modules: HashMap<ObjectId, Arc<ModuleFacts>>,
    encoded_bytes: usize,
}

/// One module a parse worker read: its facts, and the length of their
/// encoding.
struct Parsed {
    facts: ModuleFacts,
    encoded: usize,
}

/// How much encoded facts the memo holds before it starts over: decoded,
/// facts weigh about twice their encoding while their function bodies stay
/// encoded (the 909 modules of openai-agents-python: 31 MB encoded, about
/// 60 MB decoded) and up to eight times once every body has been read, so
/// this bounds the memo between ~130 and ~500 MB, and holds both sides of
/// a 1,000-module scope. A count of modules bounded nothing: a long
/// history walk kept every blob it read (issue 23).
const DECODED_FACTS_ENCODED_BYTES: usize = 64 << 20;

impl Engine {
    pub(super) fn decoded(&self) -> std::sync::MutexGuard<'_, DecodedFacts> {
        // The memo holds plain data; a panic elsewhere cannot corrupt it.
        self.decoded
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Keeps a module's decoded facts, `encoded` bytes long in the store.
    pub(super) fn remember(&self, blob: ObjectId, facts: &Arc<ModuleFacts>, encoded: usize) {
        let mut decoded = self.decoded();
        if decoded.encoded_bytes.saturating_add(encoded) > DECODED_FACTS_ENCODED_BYTES {
            *decoded = DecodedFacts::default();
        }
        if decoded.modules.insert(blob, Arc::clone(facts)).is_none() {
            decoded.encoded_bytes = decoded.encoded_bytes.saturating_add(encoded);
        }
    }

    /// Facts for each blob, in order: from the cache, else parsed (in
    /// parallel) and stored. The same blob is never parsed twice.
    pub fn facts_for(
        &self,
        repo: &Repository,
        blobs: &[ObjectId],
    ) -> Result<Vec<Arc<ModuleFacts>>, DiffError> {
        let _facts = phase!("facts").entered();
        // The memo first, under one lock (a walk builds two commits at
        // once, and each asks for every module of its side); then the
        // store for the rest.
        let mut found: Vec<Option<Arc<ModuleFacts>>> = {
            let decoded = self.decoded();
            blobs
                .iter()
                .map(|blob| decoded.modules.get(blob).map(Arc::clone))
                .collect()
        };
        let memo_hits = found.iter().filter(|f| f.is_some()).count();
        self.cache
            .facts
            .hits
            .fetch_add(memo_hits as u64, std::sync::atomic::Ordering::Relaxed);
        // A remote tier is asked for all of them in one batch first.
        let absent: Vec<Vec<u8>> = blobs
            .iter()
            .zip(&found)
            .filter(|(_, slot)| slot.is_none())
            .map(|(blob, _)| facts_key(blob))
            .collect();
        self.cache.prefetch(Namespace::Facts, &absent);
        // Read and decoded on every core (a side of 900 modules decodes
        // 30 MB of facts: most of a warm build's time when it was done here
        // one module after the other).
        let unread: Vec<usize> = (0..blobs.len()).filter(|i| found[*i].is_none()).collect();
        let stored = crate::work::share_out(&unread, |&i| {
            // Work no one waits for stops here too: what is left unread is
            // a miss, and the parse below stops at its first checkpoint.
            crate::work::checkpoint().ok()?;
            self.cache
                .get_sized::<ModuleFacts>(
                    Namespace::Facts,
                    &facts_key(&blobs[i]),
                    Some(&self.cache.facts),
                )
                // A body that would not decode when read is a damaged
                // entry: parsed again, as a miss.
                .filter(|(facts, _)| facts.bodies_decode())
        });
        for (&i, stored) in unread.iter().zip(stored) {
            if let Some((facts, encoded)) = stored.flatten() {
                let facts = Arc::new(facts);
                self.remember(blobs[i], &facts, encoded);
                found[i] = Some(facts);
            }
        }
        let missing: Vec<usize> = (0..blobs.len()).filter(|i| found[*i].is_none()).collect();
        if missing.is_empty() {
            return Ok(found.into_iter().flatten().collect());
        }
        crate::work::checkpoint()?;
        // Each worker takes the next missing blob as it finishes one; the
        // facts are stored once the request is answered (write_behind.rs).
        let parsed = crate::work::share_out_with(
            &missing,
            || repo.blob_reader(),
            |reader, &i| -> Result<Parsed, DiffError> {
                crate::work::checkpoint()?;
                let source = reader.read(blobs[i])?;
                Ok(Parsed {
                    facts: extract_facts(&source),
                    // What the memo weighs them by, without encoding them.
                    encoded: estimated_encoding(source.len()),
                })
            },
        );
        // Results come back in the order of `missing`. What was parsed is
        // kept even when the work stops half-way (a deadline, the lane's
        // budget): whole facts of a blob, for the next request to reuse.
        let mut stopped = None;
        for (&i, parsed) in missing.iter().zip(parsed) {
            let parsed = parsed.ok_or_else(|| DiffError::internal("a parser thread panicked"));
            match parsed.and_then(|parsed| parsed) {
                Ok(Parsed { facts, encoded }) => {
                    let facts = Arc::new(facts);
                    self.remember(blobs[i], &facts, encoded);
                    self.unwritten.defer(blobs[i], Arc::clone(&facts));
                    found[i] = Some(facts);
                }
                Err(err) => {
                    stopped.get_or_insert(err);
                }
            }
        }
        if let Some(err) = stopped {
            return Err(err);
        }
        Ok(found.into_iter().flatten().collect())
    }
}

/// The length of the encoding of the facts of a source `source_bytes`
/// long, for the memo's weight: about twice the source (the 909 modules of
/// openai-agents-python: 15 MB of source, 31 MB of facts encoded).
fn estimated_encoding(source_bytes: usize) -> usize {
    source_bytes.saturating_mul(2)
}
