//! How often each name occurs in a scope, as a sorted list: the facts of a
//! large repository hold a count table per function (150,000 entries for
//! the 909 modules of `openai-agents-python`), and a tree map spends a
//! whole node on a function that uses three names (issue 23).

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Counts by name, sorted by name once settled. Extraction `add`s each
/// occurrence and `settle`s every table before its facts leave it; a
/// table read from the store is settled as it is decoded. Lookups read
/// settled tables only.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NameCounts {
    entries: Vec<(super::Text, u32)>,
    /// What was `add`ed since the last `settle`, by name: an occurrence
    /// costs one lookup, and the sort is over distinct names (a module of
    /// 10,000 name uses names a few hundred).
    counting: rustc_hash::FxHashMap<super::Text, u32>,
}

impl NameCounts {
    /// Counts one more occurrence of `name` (settled later).
    pub fn add(&mut self, name: &str) {
        match self.counting.get_mut(name) {
            Some(count) => *count = count.saturating_add(1),
            None => {
                self.counting.insert(name.into(), 1);
            }
        }
    }

    /// Sorts the entries by name and merges repeated names.
    pub fn settle(&mut self) {
        self.entries.extend(std::mem::take(&mut self.counting));
        self.entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut merged: Vec<(super::Text, u32)> = Vec::with_capacity(self.entries.len());
        for (name, count) in self.entries.drain(..) {
            match merged.last_mut() {
                Some((last, total)) if *last == name => *total = total.saturating_add(count),
                _ => merged.push((name, count)),
            }
        }
        merged.shrink_to_fit();
        self.entries = merged;
    }

    /// How often `name` occurs.
    pub fn get(&self, name: &str) -> Option<&u32> {
        self.entries
            .binary_search_by(|(entry, _)| (**entry).cmp(name))
            .ok()
            .and_then(|at| self.entries.get(at))
            .map(|(_, count)| count)
    }

    /// The names, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(name, _)| &**name)
    }

    /// `(name, count)` pairs, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        self.entries.iter().map(|(name, count)| (&**name, *count))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Encoded as the map it was (the store's bytes are unchanged by the
/// representation).
impl Serialize for NameCounts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (name, count) in &self.entries {
            map.serialize_entry(&**name, count)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for NameCounts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CountsVisitor;
        impl<'de> Visitor<'de> for CountsVisitor {
            type Value = NameCounts;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of names to counts")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NameCounts, A::Error> {
                // Never trust a length prefix for an allocation.
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
                while let Some((name, count)) = map.next_entry::<super::Text, u32>()? {
                    entries.push((name, count));
                }
                let mut counts = NameCounts {
                    entries,
                    counting: Default::default(),
                };
                counts.settle();
                Ok(counts)
            }
        }
        deserializer.deserialize_map(CountsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::NameCounts;

    #[test]
    fn settled_counts_are_sorted_merged_and_found() {
        let mut counts = NameCounts::default();
        for name in ["tools", "b", "tools", "tools", "a", "b"] {
            counts.add(name);
        }
        counts.settle();
        assert_eq!(
            counts.iter().collect::<Vec<_>>(),
            vec![("a", 1), ("b", 2), ("tools", 3)]
        );
        assert_eq!(counts.get("tools"), Some(&3));
        assert_eq!(counts.get("c"), None);
        assert_eq!(counts.len(), 3);
    }

    #[test]
    fn encoded_as_a_map_and_settled_when_decoded() {
        let mut map = std::collections::BTreeMap::new();
        map.insert("x".to_string(), 2u32);
        map.insert("a".to_string(), 5u32);
        let bytes = postcard::to_stdvec(&map).unwrap_or_default();
        let counts: Option<NameCounts> = postcard::from_bytes(&bytes).ok();
        assert_eq!(
            counts.as_ref().map(|c| c.iter().collect::<Vec<_>>()),
            Some(vec![("a", 5), ("x", 2)])
        );
        assert_eq!(
            counts.and_then(|c| postcard::to_stdvec(&c).ok()),
            Some(bytes)
        );
    }
}
