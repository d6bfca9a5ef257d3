//! A map that keeps the last few values under each key, and at most so
//! many keys (past them it starts over): what a history walk carries from
//! one commit to the next (tree listings by path, a module's kept answers
//! by path) without holding every commit's. A walk builds two commits at
//! once, so a key keeps a value for each.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, MutexGuard};

pub struct Recent<K, V> {
    values: Mutex<HashMap<K, Vec<V>>>,
    per_key: usize,
    keys: usize,
}

impl<K: Hash + Eq, V: Clone> Recent<K, V> {
    /// At most `per_key` values a key, `keys` keys.
    pub fn new(per_key: usize, keys: usize) -> Self {
        Recent {
            values: Mutex::new(HashMap::new()),
            per_key,
            keys,
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<K, Vec<V>>> {
        // Plain data: a panic elsewhere cannot leave it half written.
        self.values
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The values kept under `key`, newest first.
    pub fn values<Q>(&self, key: &Q) -> Vec<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.lock().get(key).cloned().unwrap_or_default()
    }

    /// Keeps `value` under `key` in front of the older ones, dropping any
    /// older one `replaces` says it stands for.
    pub fn keep(&self, key: K, value: V, replaces: impl Fn(&V) -> bool) {
        let mut values = self.lock();
        if values.len() >= self.keys && !values.contains_key(&key) {
            values.clear();
        }
        let kept = values.entry(key).or_default();
        kept.retain(|old| !replaces(old));
        kept.insert(0, value);
        kept.truncate(self.per_key);
    }
}

/// Inserts into a map that starts over past `bound` entries.
pub fn insert_bounded<K: Hash + Eq, V>(map: &mut HashMap<K, V>, key: K, value: V, bound: usize) {
    if map.len() >= bound {
        map.clear();
    }
    map.insert(key, value);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_keeps_its_newest_values_and_the_map_starts_over_past_its_keys() {
        let recent: Recent<String, u32> = Recent::new(2, 2);
        recent.keep("a".into(), 1, |_| false);
        recent.keep("a".into(), 2, |_| false);
        recent.keep("a".into(), 3, |_| false);
        assert_eq!(recent.values("a"), vec![3, 2]);
        recent.keep("a".into(), 2, |old| *old == 2);
        assert_eq!(recent.values("a"), vec![2, 3], "no value twice");
        recent.keep("b".into(), 9, |_| false);
        recent.keep("c".into(), 7, |_| false);
        assert_eq!(recent.values("a"), Vec::<u32>::new(), "started over");
        assert_eq!(recent.values("c"), vec![7]);
    }
}
