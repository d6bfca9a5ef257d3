//! The sled implementation of `KvStore`. sled 0.34 has known reports of
//! corruption after crashes and of memory growth, and it panics on some
//! damaged files (`tried to serialize Uninitialized` inside `open`), so:
//! an explicit cache capacity, few trees, periodic flushes, every call into
//! sled contained (a panic is an error, never the daemon's end), and a
//! damaged store is moved aside and rebuilt instead of trusted. A store
//! another live process holds is busy, never damaged.

use super::{Entry, KvStore, Namespace};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Bumped when the layout of keys or values changes incompatibly (2: every
/// value carries its checksum, `Cache::seal`; 3: values are LZ4-packed under
/// it, `Cache::pack`).
const STORE_FORMAT: &[u8] = b"shipgate-store-3";
/// Left in the store directory when sled failed inside a call: the next
/// open moves the store aside instead of trusting it.
const DAMAGE_MARKER: &str = "shipgate-damaged";
const FORMAT_KEY: &[u8] = b"format";
const CACHE_CAPACITY: u64 = 64 * 1024 * 1024;

pub struct SledStore {
    /// Set when a call into sled panicked: from then on this process reads
    /// nothing from the store (misses) and writes nothing to it.
    damaged: AtomicBool,
    db: sled::Db,
    facts: sled::Tree,
    graphs: sled::Tree,
    repositories: sled::Tree,
    history: sled::Tree,
    path: PathBuf,
}

impl SledStore {
    /// Opens (or creates) the store under `data_dir/store`. A store that
    /// cannot be opened, panics sled, was marked damaged, or has another
    /// format is moved aside first; one that another process holds is
    /// refused as busy.
    pub fn open(data_dir: &Path) -> Result<Self, String> {
        let path = data_dir.join("store");
        let opened = if path.join(DAMAGE_MARKER).exists() {
            Err(OpenFailure::Damaged(
                "sled failed inside a call when it was last used".to_string(),
            ))
        } else {
            Self::open_contained(&path)
        };
        match opened {
            Ok(store) => Ok(store),
            Err(OpenFailure::Busy(why)) => Err(format!(
                "the store at {} is in use by another process ({why}); stop that process (`shipgate-client shutdown`) or pick another --data-dir",
                path.display()
            )),
            Err(OpenFailure::Damaged(first)) => {
                // Only the newest damaged store is kept, for diagnosis: a
                // store damaged again and again must not fill the disk.
                remove_damaged_copies(data_dir);
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
                Self::open_contained(&path).map_err(|failure| match failure {
                    OpenFailure::Busy(why) | OpenFailure::Damaged(why) => {
                        format!("a new store at {} cannot be opened: {why}", path.display())
                    }
                })
            }
        }
    }

    /// `open_at` with sled's panics contained and its lock refusal told
    /// apart from damage.
    fn open_contained(path: &Path) -> Result<Self, OpenFailure> {
        match catch_unwind(|| Self::open_at(path)) {
            Ok(Ok(store)) => Ok(store),
            Ok(Err(why)) if why.contains("could not acquire lock") => Err(OpenFailure::Busy(why)),
            Ok(Err(why)) => Err(OpenFailure::Damaged(why)),
            Err(panic) => Err(OpenFailure::Damaged(format!(
                "sled panicked while opening it: {}",
                panic_text(panic.as_ref())
            ))),
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
            damaged: AtomicBool::new(false),
            facts: tree(Namespace::Facts.tree_name())?,
            graphs: tree(Namespace::Graphs.tree_name())?,
            repositories: tree(Namespace::Repositories.tree_name())?,
            history: tree(Namespace::History.tree_name())?,
            db,
            path: path.to_path_buf(),
        })
    }

    /// Runs one call into sled. A panic marks the store damaged for the
    /// rest of this process (and for the next open); every call after it
    /// is refused.
    fn contained<T>(&self, call: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
        if self.damaged.load(Ordering::Relaxed) {
            return Err(
                "the store was found damaged earlier; it is rebuilt at the next start".into(),
            );
        }
        match catch_unwind(AssertUnwindSafe(call)) {
            Ok(result) => result,
            Err(panic) => {
                let why = panic_text(panic.as_ref());
                if !self.damaged.swap(true, Ordering::Relaxed) {
                    let _ = std::fs::write(self.path.join(DAMAGE_MARKER), why.as_bytes());
                    eprintln!(
                        "shipgate: the store at {} is damaged (sled panicked: {why}); this daemon goes on without it, and the next start rebuilds it",
                        self.path.display()
                    );
                }
                Err(format!("the store is damaged: {why}"))
            }
        }
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

/// A store that never finishes flushing, for the tests of a bounded stop
/// (`SHIPGATE_TEST_STALL_FLUSH=1`); compiled into debug builds only.
fn stall_for_tests() {
    #[cfg(debug_assertions)]
    if std::env::var_os("SHIPGATE_TEST_STALL_FLUSH").is_some() {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}

/// Removes earlier `store.damaged-*` copies of a data directory.
fn remove_damaged_copies(data_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(data_dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with("store.damaged-")
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Why a store did not open.
enum OpenFailure {
    /// Another process holds sled's own lock: not damage.
    Busy(String),
    Damaged(String),
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

impl KvStore for SledStore {
    fn get(&self, namespace: Namespace, key: &[u8]) -> Result<Option<Vec<u8>>, String> {
        self.contained(|| {
            self.tree(namespace)
                .get(key)
                .map(|v| v.map(|v| v.to_vec()))
                .map_err(|err| err.to_string())
        })
    }

    fn put(&self, namespace: Namespace, key: &[u8], value: &[u8]) -> Result<(), String> {
        self.contained(|| {
            self.tree(namespace)
                .insert(key, value)
                .map(|_| ())
                .map_err(|err| err.to_string())
        })
    }

    fn remove(&self, namespace: Namespace, key: &[u8]) -> Result<(), String> {
        self.contained(|| {
            self.tree(namespace)
                .remove(key)
                .map(|_| ())
                .map_err(|err| err.to_string())
        })
    }

    fn entries(&self, namespace: Namespace) -> Result<Vec<Entry>, String> {
        self.contained(|| {
            self.tree(namespace)
                .iter()
                .map(|entry| {
                    entry
                        .map(|(k, v)| (k.to_vec(), v.to_vec()))
                        .map_err(|err| err.to_string())
                })
                .collect()
        })
    }

    fn flush(&self) -> Result<(), String> {
        stall_for_tests();
        self.contained(|| self.db.flush().map(|_| ()).map_err(|err| err.to_string()))
    }

    fn size_on_disk(&self) -> u64 {
        self.contained(|| self.db.size_on_disk().map_err(|err| err.to_string()))
            .unwrap_or(0)
    }

    fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Opens the store again in this process: sled's flusher thread of the
    /// dropped handle can hold the lock for a moment (busy, never damage).
    fn reopen(dir: &std::path::Path) -> Result<SledStore, String> {
        let mut tries = 0;
        loop {
            match SledStore::open(dir) {
                Err(why) if why.contains("in use by another process") && tries < 100 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                other => return other,
            }
        }
    }

    #[test]
    fn values_survive_a_reopen_and_a_foreign_store_is_moved_aside(
    ) -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        {
            let store = SledStore::open(dir.path())?;
            store.put(Namespace::Facts, b"k", b"v")?;
            store.flush()?;
        }
        let store = reopen(dir.path())?;
        assert_eq!(store.get(Namespace::Facts, b"k")?, Some(b"v".to_vec()));
        store.db.insert(FORMAT_KEY, b"other".as_slice())?;
        store.flush()?;
        drop(store);
        let store = reopen(dir.path())?;
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
