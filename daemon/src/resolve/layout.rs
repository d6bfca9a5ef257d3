//! What a side's reads share with the sides read before it: two sides
//! with the same module paths (a history walk's commits mostly are) find
//! every import spelling in the same place, and a read that looked only at
//! modules whose content is unchanged answers the same. This module holds
//! those answers across sides, by layout, with the reads each depended on.
//!
//! Rule (why a kept answer is exact): locating a module reads only the
//! set's paths, its links and its scope's spellings (`locate.rs` asks
//! `holds`, `dirs`, `linked` and `context.spellings`, nothing else), which
//! the layout's digest covers (with the repository's modules outside the
//! scope, which the resolver asks besides); so a location kept under a layout is the
//! location for any set of that layout. A read of facts reaches them only
//! through `ModuleSet::facts` and `ModuleSet::key` (the rule
//! `graph::try_build_side` already rests on), which, while a read is
//! recorded (`ModuleSet::recorded`), note each path asked; its answer is
//! kept with each path's content identity then (`Reads`), and is the
//! answer for another set of the same layout exactly when each of those
//! paths has the same identity there (facts the graph layer rewrote have
//! none: a read that asked one is not kept). Asking a kept answer asks its
//! paths again, so the unread modules it wanted are wanted again.

use crate::recent::Recent;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// A digest of what locating a module depends on: the set's module paths
/// (read, imported-only or unread alike), its linked entries and the
/// scope's spellings; and of the repository's own top-level modules
/// outside the scope, which the resolver also asks
/// (`ModuleSet::is_outside_repository_module`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LayoutId([u8; 32]);

impl LayoutId {
    pub(super) fn of<'p>(
        paths: impl Iterator<Item = &'p str>,
        linked: impl Iterator<Item = &'p str>,
        spellings: &[String],
        outside: impl Iterator<Item = &'p str>,
    ) -> Self {
        let mut hasher = blake3::Hasher::new();
        hasher.update(b"module-layout\0");
        for path in paths {
            hasher.update(path.as_bytes());
            hasher.update(&[0]);
        }
        hasher.update(&[1]);
        for path in linked {
            hasher.update(path.as_bytes());
            hasher.update(&[0]);
        }
        hasher.update(&[1]);
        for spelling in spellings {
            hasher.update(spelling.as_bytes());
            hasher.update(&[0]);
        }
        hasher.update(&[1]);
        for module in outside {
            hasher.update(module.as_bytes());
            hasher.update(&[0]);
        }
        LayoutId(*hasher.finalize().as_bytes())
    }
}

/// Layouts whose answers are kept: a walk's consecutive commits share
/// one, and the two sides a walk builds at once at most two more.
const LAYOUTS_KEPT: usize = 4;

/// Values kept per layout, for the last `LAYOUTS_KEPT` layouts asked (a
/// `static` per kind of answer: the graph layer is pure and has no engine
/// to hold them).
pub struct PerLayout<T> {
    slots: Mutex<VecDeque<(LayoutId, Arc<T>)>>,
}

impl<T: Default> Default for PerLayout<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Default> PerLayout<T> {
    pub const fn new() -> Self {
        PerLayout {
            slots: Mutex::new(VecDeque::new()),
        }
    }

    /// The values kept for `layout`, made empty if it has none.
    pub fn of(&self, layout: LayoutId) -> Arc<T> {
        let mut slots = self
            .slots
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(at) = slots.iter().position(|(id, _)| *id == layout) {
            if let Some(slot) = slots.remove(at) {
                let values = Arc::clone(&slot.1);
                slots.push_front(slot);
                return values;
            }
        }
        let values = Arc::new(T::default());
        slots.push_front((layout, Arc::clone(&values)));
        slots.truncate(LAYOUTS_KEPT);
        values
    }
}

/// The paths a recorded read asked for, each with its content identity
/// then (`None`: no facts, an unread module).
#[derive(Debug, Clone, Default)]
pub struct Reads {
    pub(super) paths: Vec<(String, Option<String>)>,
}

/// An answer kept with the reads it depended on.
#[derive(Debug, Clone)]
pub struct Kept<T> {
    pub value: T,
    pub reads: Reads,
}

/// Keys a kept map holds before it starts over: bounds the memory a
/// long walk keeps (each key is one module's answer).
const KEYS_KEPT: usize = 1 << 16;

/// Answers kept per key (a module's path) under one layout: the last
/// `ANSWERS_PER_KEY`, since a walk builds two commits at once and each
/// may read the module's older or newer content.
pub struct KeptMap<T> {
    answers: Recent<String, Arc<Kept<T>>>,
}

const ANSWERS_PER_KEY: usize = 2;

impl<T> Default for KeptMap<T> {
    fn default() -> Self {
        KeptMap {
            answers: Recent::new(ANSWERS_PER_KEY, KEYS_KEPT),
        }
    }
}

impl<T> KeptMap<T> {
    /// The answers kept for `key`, newest first.
    pub(super) fn kept(&self, key: &str) -> Vec<Arc<Kept<T>>> {
        self.answers.values(key)
    }

    /// Keeps an answer for `key`, in front of the older ones.
    pub(super) fn keep(&self, key: &str, answer: Arc<Kept<T>>) {
        self.answers.keep(key.to_string(), answer, |_| false);
    }
}

/// Locations a layout's map holds before it starts over: the maps outlive
/// the request (a daemon keeps the last `LAYOUTS_KEPT` layouts'), so this
/// bounds what an idle daemon holds too.
pub(super) const LOCATIONS_KEPT: usize = 1 << 16;
