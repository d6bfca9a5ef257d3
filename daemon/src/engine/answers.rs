//! Answers given recently, kept in memory: a repeated request (a CI job
//! re-run, a developer asking again) is answered from here without
//! decoding, comparing or rendering again (issue 23: a warm answer on a
//! large repository cost its whole document, not its rows).
//!
//! An answer is a function of what its key holds and nothing else: the
//! refs as the request spells them (they are printed), the commits and
//! trees they resolve to (content-addressed, so the same ids are the same
//! source), the scope and bounds asked for, the rendering asked for,
//! and the engine version. The key is taken after the revisions are
//! resolved, so a branch that moved is a new key.

use super::DiffOutcome;
use crate::git::ResolvedRevisions;
use gix::ObjectId;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Answers kept; the oldest goes first. A large repository's answer is a
/// few megabytes (document, JSON and text), shared with the requests it
/// answers, never copied: copying a document of ~150 agents was most of a
/// repeated request's work.
const ANSWERS_KEPT: usize = 8;

/// What an answer is a function of.
pub(super) struct AnswerKey<'r> {
    pub revisions: &'r ResolvedRevisions,
    pub base_tree: ObjectId,
    pub head_tree: ObjectId,
    pub scope: Option<&'r str>,
    pub base_scope: Option<&'r str>,
    pub max_files: u32,
    pub format: crate::render::OutputFormat,
}

impl AnswerKey<'_> {
    pub(super) fn digest(&self) -> blake3::Hash {
        let mut hasher = blake3::Hasher::new();
        hasher.update(b"answer");
        hasher.update(&crate::ENGINE_FACTS_VERSION.to_be_bytes());
        for spelled in [&self.revisions.base_ref, &self.revisions.head_ref] {
            hasher.update(&(spelled.len() as u64).to_be_bytes());
            hasher.update(spelled.as_bytes());
        }
        for id in [
            self.revisions.requested_base,
            self.revisions.base,
            self.revisions.head,
            self.base_tree,
            self.head_tree,
        ] {
            hasher.update(id.as_bytes());
        }
        for scope in [self.scope, self.base_scope] {
            match scope {
                Some(scope) => {
                    hasher.update(&[1]);
                    hasher.update(&(scope.len() as u64).to_be_bytes());
                    hasher.update(scope.as_bytes());
                }
                None => {
                    hasher.update(&[0]);
                }
            }
        }
        hasher.update(&self.max_files.to_be_bytes());
        hasher.update(&[self.format.key_byte()]);
        hasher.finalize()
    }
}

/// Outcomes kept, newest first, by the digest of what each is a function
/// of: the answers to diffs (`AnswerKey`), and the inventories regrouped
/// from them (`inventory.rs`).
pub(super) struct Kept<T> {
    kept: Mutex<VecDeque<(blake3::Hash, Arc<T>)>>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept {
            kept: Mutex::new(VecDeque::new()),
        }
    }
}

/// The answers to diffs kept.
pub(super) type Answers = Kept<DiffOutcome>;

impl<T> Kept<T> {
    fn kept(&self) -> std::sync::MutexGuard<'_, VecDeque<(blake3::Hash, Arc<T>)>> {
        // Plain data: a panic elsewhere cannot leave it half-written.
        self.kept
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(super) fn get(&self, digest: &blake3::Hash) -> Option<Arc<T>> {
        let kept = self.kept();
        kept.iter()
            .find(|(k, _)| k == digest)
            .map(|(_, outcome)| Arc::clone(outcome))
    }

    pub(super) fn clear(&self) {
        self.kept().clear();
    }

    pub(super) fn put(&self, digest: blake3::Hash, outcome: &Arc<T>) {
        let mut kept = self.kept();
        kept.retain(|(k, _)| *k != digest);
        kept.push_front((digest, Arc::clone(outcome)));
        kept.truncate(ANSWERS_KEPT);
    }
}
