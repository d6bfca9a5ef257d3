//! The sled implementation of `KvStore`. sled 0.34 has known reports of
//! corruption after crashes and of memory growth, so: an explicit cache
//! capacity, few trees, periodic flushes, and a damaged store is moved aside
//! and rebuilt instead of trusted.

use super::{Entry, KvStore, Namespace};
use std::path::{Path, PathBuf};

/// Bumped when the layout of keys or values changes incompatibly.
const STORE_FORMAT: &[u8] = b"shipgate-store-1";
const FORMAT_KEY: &[u8] = b"format";
const CACHE_CAPACITY: u64 = 64 * 1024 * 1024;

pub struct SledStore {
    db: sled::Db,
    facts: sled::Tree,
    graphs: sled::Tree,
    repositories: sled::Tree,
    history: sled::Tree,
    path: PathBuf,
}

impl SledStore {
    /// Opens (or creates) the store under `data_dir/store`. A store that
    /// cannot be opened or has another format is moved aside first.
    pub fn open(data_dir: &Path) -> Result<Self, String> {
        let path = data_dir.join("store");
        match Self::open_at(&path) {
            Ok(store) => Ok(store),
            Err(first) => {
                let aside = data_dir.join(format!(
                    "store.damaged-{}",
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_secs())
                        .unwrap_or(0)
                ));
                std::fs::rename(&path, &aside).map_err(|err| {
                    format!(
                        "the store at {} is unusable ({first}) and could not be moved aside: {err}",
                        path.display()
                    )
                })?;
                eprintln!(
                    "shipgate: the store at {} was unusable ({first}); moved it to {} and started a new one",
                    path.display(),
                    aside.display()
                );
                Self::open_at(&path)
            }
        }
    }

    fn open_at(path: &Path) -> Result<Self, String> {
        let db = sled::Config::new()
            .path(path)
            .cache_capacity(CACHE_CAPACITY)
            .flush_every_ms(Some(2000))
            .open()
            .map_err(|err| format!("opening sled: {err}"))?;
        match db.get(FORMAT_KEY).map_err(|err| err.to_string())? {
            Some(format) if format.as_ref() == STORE_FORMAT => {}
            Some(_) => return Err("the store has another format".to_string()),
            None => {
                db.insert(FORMAT_KEY, STORE_FORMAT)
                    .map_err(|err| err.to_string())?;
            }
        }
        let tree = |name: &str| {
            db.open_tree(name)
                .map_err(|err| format!("opening tree {name}: {err}"))
        };
        Ok(SledStore {
            facts: tree(Namespace::Facts.tree_name())?,
            graphs: tree(Namespace::Graphs.tree_name())?,
            repositories: tree(Namespace::Repositories.tree_name())?,
            history: tree(Namespace::History.tree_name())?,
            db,
            path: path.to_path_buf(),
        })
    }

    fn tree(&self, namespace: Namespace) -> &sled::Tree {
        match namespace {
            Namespace::Facts => &self.facts,
            Namespace::Graphs => &self.graphs,
            Namespace::Repositories => &self.repositories,
            Namespace::History => &self.history,
        }
    }
}

impl KvStore for SledStore {
    fn get(&self, namespace: Namespace, key: &[u8]) -> Result<Option<Vec<u8>>, String> {
        self.tree(namespace)
            .get(key)
            .map(|v| v.map(|v| v.to_vec()))
            .map_err(|err| err.to_string())
    }

    fn put(&self, namespace: Namespace, key: &[u8], value: &[u8]) -> Result<(), String> {
        self.tree(namespace)
            .insert(key, value)
            .map(|_| ())
            .map_err(|err| err.to_string())
    }

    fn remove(&self, namespace: Namespace, key: &[u8]) -> Result<(), String> {
        self.tree(namespace)
            .remove(key)
            .map(|_| ())
            .map_err(|err| err.to_string())
    }

    fn entries(&self, namespace: Namespace) -> Result<Vec<Entry>, String> {
        self.tree(namespace)
            .iter()
            .map(|entry| {
                entry
                    .map(|(k, v)| (k.to_vec(), v.to_vec()))
                    .map_err(|err| err.to_string())
            })
            .collect()
    }

    fn flush(&self) -> Result<(), String> {
        self.db.flush().map(|_| ()).map_err(|err| err.to_string())
    }

    fn size_on_disk(&self) -> u64 {
        self.db.size_on_disk().unwrap_or(0)
    }

    fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_survive_a_reopen_and_a_foreign_store_is_moved_aside(
    ) -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        {
            let store = SledStore::open(dir.path())?;
            store.put(Namespace::Facts, b"k", b"v")?;
            store.flush()?;
        }
        let store = SledStore::open(dir.path())?;
        assert_eq!(store.get(Namespace::Facts, b"k")?, Some(b"v".to_vec()));
        store.db.insert(FORMAT_KEY, b"other".as_slice())?;
        store.flush()?;
        drop(store);
        let store = SledStore::open(dir.path())?;
        assert_eq!(store.get(Namespace::Facts, b"k")?, None);
        let moved = std::fs::read_dir(dir.path())?
            .filter_map(Result::ok)
            .any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("store.damaged-")
            });
        assert!(moved);
        Ok(())
    }
}
