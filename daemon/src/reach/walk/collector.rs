//! What reading one frame has found, in the order found: every call and
//! effect once, however many ways reach it (the first way is kept), and
//! every limit once; and what a helper frame reaches, kept relative to the
//! helper so the side's memo can hand it to every caller.

use crate::reach::model::{Credential, Field, Hop, HttpCall, LibraryEffect, Place, ReachLimit};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// What reading one frame found, in the order found: every call and
/// effect once (two found by different ways, the `via`, are one; the first
/// way is kept), every limit once.
#[derive(Debug, Default)]
pub(super) struct Collector {
    pub(super) calls: Found<HttpCall>,
    pub(super) effects: Found<LibraryEffect>,
    pub(super) limits: Vec<ReachLimit>,
    /// The limits already in `limits`.
    seen_limits: Seen<ReachLimit>,
    /// Helpers' remembered reaches already taken in (by address: the
    /// side's memo holds each while the side is read).
    taken: Seen<usize>,
    /// How many of those brought calls or effects, found again or not (so
    /// a reader can tell that a read reached something).
    reached: usize,
}

impl Collector {
    pub(super) fn limit(&mut self, limit: ReachLimit) {
        if self.seen_limits.insert(&limit) {
            self.limits.push(limit);
        }
    }

    pub(super) fn has_taken(&self, recorded: &Rc<Recorded>) -> bool {
        self.taken.contains(&(Rc::as_ptr(recorded) as usize))
    }

    /// How much has been found: grows with every call or effect a read
    /// reaches, found before or not.
    pub(super) fn found(&self) -> (usize, usize, usize) {
        (self.calls.len(), self.effects.len(), self.reached)
    }

    /// What a helper's read found, with each `via` relative to the helper
    /// (its first `depth` hops, the way to the helper, dropped: everything
    /// recorded while a frame is read is recorded by the way to it, or to
    /// a helper below it).
    pub(super) fn relative(self, depth: usize) -> Recorded {
        let mut calls = self.calls.into_once();
        for call in &mut calls {
            call.via.drain(..depth.min(call.via.len()));
        }
        let mut effects = self.effects.into_once();
        for effect in &mut effects {
            effect.via.drain(..depth.min(effect.via.len()));
        }
        Recorded {
            calls,
            effects,
            limits: self.limits,
        }
    }

    /// Takes in what a helper reached, by the way `via` to it; what was
    /// found before stays as it was found first.
    pub(super) fn merge(&mut self, recorded: &Rc<Recorded>, via: &[Hop]) {
        if !recorded.calls.is_empty() || !recorded.effects.is_empty() {
            self.reached += 1;
        }
        // Taken in once already: all of it is here.
        if !self.taken.insert(&(Rc::as_ptr(recorded) as usize)) {
            return;
        }
        self.calls.take_in(&recorded.calls, via);
        self.effects.take_in(&recorded.effects, via);
        for limit in &recorded.limits {
            self.limit(limit.clone());
        }
    }
}

/// A set that is a list while it is small (most frames find a few things).
#[derive(Debug)]
struct Seen<T> {
    few: Vec<T>,
    many: HashSet<T>,
}

impl<T> Default for Seen<T> {
    fn default() -> Self {
        Seen {
            few: Vec::new(),
            many: HashSet::new(),
        }
    }
}

impl<T: Clone + Eq + std::hash::Hash> Seen<T> {
    const FEW: usize = 16;

    fn contains(&self, item: &T) -> bool {
        if self.many.is_empty() {
            self.few.contains(item)
        } else {
            self.many.contains(item)
        }
    }

    /// `false` when it is here already.
    fn insert(&mut self, item: &T) -> bool {
        if self.contains(item) {
            return false;
        }
        if self.many.is_empty() && self.few.len() < Self::FEW {
            self.few.push(item.clone());
            return true;
        }
        if self.many.is_empty() {
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(item.clone());
        true
    }
}

/// A call or an effect, compared without the way it was reached.
pub(super) trait Reached: Clone {
    fn via_mut(&mut self) -> &mut Vec<Hop>;
    fn fingerprint(&self) -> u64;
    fn same(&self, other: &Self) -> bool;
}

/// Calls or effects in the order found, with an index of those found by
/// more than one way. A reader may still change the one it just recorded
/// (`last_mut`), so what a frame records itself is indexed only when a
/// helper's reach is taken in, and made unique when the frame is read.
#[derive(Debug)]
pub(super) struct Found<T> {
    items: Vec<T>,
    /// Fingerprint to the indices of `items[..indexed]` with it.
    index: HashMap<u64, Vec<usize>>,
    indexed: usize,
}

impl<T> Default for Found<T> {
    fn default() -> Self {
        Found {
            items: Vec::new(),
            index: HashMap::new(),
            indexed: 0,
        }
    }
}

impl<T: Reached> Found<T> {
    pub(super) fn push(&mut self, item: T) {
        self.items.push(item);
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    pub(super) fn last_mut(&mut self) -> Option<&mut T> {
        self.items.last_mut()
    }

    fn catch_up(&mut self) {
        while self.indexed < self.items.len() {
            let i = self.indexed;
            let print = self.items[i].fingerprint();
            self.index.entry(print).or_default().push(i);
            self.indexed += 1;
        }
    }

    /// Adds `items` (each once already), reached by `via` and then each
    /// its own `via`, but those here already.
    fn take_in(&mut self, items: &[T], via: &[Hop]) {
        let rooted = |item: &T| {
            let mut rooted = item.clone();
            let rest = std::mem::take(rooted.via_mut());
            let hops = rooted.via_mut();
            hops.reserve(via.len() + rest.len());
            hops.extend_from_slice(via);
            hops.extend(rest);
            rooted
        };
        // Nothing here yet: nothing to find again.
        if self.items.is_empty() {
            self.items.extend(items.iter().map(rooted));
            return;
        }
        self.catch_up();
        for item in items {
            let print = item.fingerprint();
            let found = &self.items;
            if self
                .index
                .get(&print)
                .is_some_and(|at| at.iter().any(|&i| found[i].same(item)))
            {
                continue;
            }
            self.items.push(rooted(item));
            self.catch_up();
        }
    }

    /// The items, each once (the first found).
    pub(super) fn into_once(self) -> Vec<T> {
        // A few are compared with each other.
        if self.items.len() <= 8 {
            let mut out: Vec<T> = Vec::with_capacity(self.items.len());
            for item in self.items {
                if !out.iter().any(|o| o.same(&item)) {
                    out.push(item);
                }
            }
            return out;
        }
        let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut out: Vec<T> = Vec::with_capacity(self.items.len());
        for item in self.items {
            let print = item.fingerprint();
            let found = seen.entry(print).or_default();
            if found.iter().any(|&i| out[i].same(&item)) {
                continue;
            }
            found.push(out.len());
            out.push(item);
        }
        out
    }
}

fn fingerprint(parts: impl std::hash::Hash) -> u64 {
    use std::hash::Hasher as _;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut hasher);
    hasher.finish()
}

/// A call's parts but the way it was reached; spelled out, so a new field
/// cannot be left out of the comparison.
#[allow(clippy::type_complexity)]
fn call_parts(
    call: &HttpCall,
) -> (
    (&str, &Option<String>, &str, &Option<String>, &Place),
    (&[Field], &[Credential], &[(String, String)]),
) {
    let HttpCall {
        library,
        method,
        url,
        graphql,
        at,
        via: _,
        fields,
        credentials,
        model_supplied,
    } = call;
    (
        (library, method, url, graphql, at),
        (fields, credentials, model_supplied),
    )
}

impl Reached for HttpCall {
    fn via_mut(&mut self) -> &mut Vec<Hop> {
        &mut self.via
    }

    fn fingerprint(&self) -> u64 {
        fingerprint(call_parts(self))
    }

    fn same(&self, other: &Self) -> bool {
        call_parts(self) == call_parts(other)
    }
}

/// An effect's parts but the way it was reached; spelled out, so a new
/// field cannot be left out of the comparison.
#[allow(clippy::type_complexity)]
fn effect_parts(
    effect: &LibraryEffect,
) -> (
    (&str, &str, &str, &str, &Place),
    (
        &Option<String>,
        &Option<String>,
        &Option<String>,
        &Option<String>,
        &Option<String>,
    ),
    (&[Credential], &[(String, String)]),
) {
    let LibraryEffect {
        family,
        operation,
        library,
        call,
        at,
        via: _,
        target,
        statement,
        value_sha256,
        service,
        host,
        credentials,
        model_supplied,
    } = effect;
    (
        (family, operation, library, call, at),
        (target, statement, value_sha256, service, host),
        (credentials, model_supplied),
    )
}

impl Reached for LibraryEffect {
    fn via_mut(&mut self) -> &mut Vec<Hop> {
        &mut self.via
    }

    fn fingerprint(&self) -> u64 {
        fingerprint(effect_parts(self))
    }

    fn same(&self, other: &Self) -> bool {
        effect_parts(self) == effect_parts(other)
    }
}

/// What one helper frame reaches, its `via`s relative to it.
#[derive(Debug)]
pub(super) struct Recorded {
    calls: Vec<HttpCall>,
    effects: Vec<LibraryEffect>,
    limits: Vec<ReachLimit>,
}

impl Recorded {
    pub(super) fn size(&self) -> usize {
        self.calls.len() + self.effects.len() + self.limits.len()
    }
}
