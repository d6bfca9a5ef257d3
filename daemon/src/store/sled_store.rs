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
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, RwLock};

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
    /// `data_dir/store`.
    path: PathBuf,
    /// The open store; `None` while none could be opened again after a
    /// quarantine (every call is then a miss).
    live: RwLock<Option<Trees>>,
    /// Failed calls in a row; a success resets it.
    failures: AtomicU32,
    /// What `status` says of the store (`StoreHealth`).
    health: Mutex<StoreHealth>,
    /// Calls still to fail on purpose (`SHIPGATE_TEST_STORE_FAILURES`,
    /// debug builds): the tests of a store that fails while open.
    injected_failures: AtomicU32,
}

/// The open sled database and its trees.
struct Trees {
    db: sled::Db,
    facts: sled::Tree,
    graphs: sled::Tree,
    repositories: sled::Tree,
    history: sled::Tree,
    hosts: sled::Tree,
}

/// Failed calls in a row after which an open store is quarantined and
/// rebuilt, as a store that fails to open is at start-up: enough that a
/// passing fault (a full disk freed again) is not taken for damage, few
/// enough that a damaged store does not serve misses for long.
const QUARANTINE_AFTER: u32 = 16;

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
            open_contained(&path)
        };
        let trees = match opened {
            Ok(trees) => trees,
            Err(OpenFailure::Busy(why)) => {
                return Err(format!(
                    "the store at {} is in use by another process ({why}); stop that process (`shipgate-client shutdown`) or pick another --data-dir",
                    path.display()
                ))
            }
            Err(OpenFailure::Damaged(first)) => {
                let aside = move_aside(&path, &first)?;
                eprintln!(
                    "shipgate: the store at {} was unusable ({first}); moved it to {} and started a new one",
                    path.display(),
                    aside.display()
                );
                open_contained(&path).map_err(|failure| match failure {
                    OpenFailure::Busy(why) | OpenFailure::Damaged(why) => {
                        format!("a new store at {} cannot be opened: {why}", path.display())
                    }
                })?
            }
        };
        Ok(SledStore {
            path,
            live: RwLock::new(Some(trees)),
            failures: AtomicU32::new(0),
            health: Mutex::new(StoreHealth::Healthy),
            injected_failures: AtomicU32::new(injected_failures()),
        })
    }

    /// Runs one call into sled. A panic, or `QUARANTINE_AFTER` failed
    /// calls in a row, quarantine the store: it is moved aside and a new
    /// one opened in its place while the daemon serves on (`quarantine`).
    fn contained<T>(&self, call: impl FnOnce(&Trees) -> Result<T, String>) -> Result<T, String> {
        let outcome = {
            let live = self
                .live
                .read()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let Some(trees) = live.as_ref() else {
                return Err(format!("the store is unusable: {}", self.health()));
            };
            if self.injected_failure() {
                Ok(Err(
                    "a failure injected by SHIPGATE_TEST_STORE_FAILURES".to_string()
                ))
            } else {
                catch_unwind(AssertUnwindSafe(|| call(trees)))
            }
        };
        match outcome {
            Ok(Ok(value)) => {
                self.failures.store(0, Ordering::Relaxed);
                Ok(value)
            }
            Ok(Err(err)) => {
                if self.failures.fetch_add(1, Ordering::Relaxed) + 1 == QUARANTINE_AFTER {
                    self.quarantine(&format!(
                        "{QUARANTINE_AFTER} calls in a row failed, the last with: {err}"
                    ));
                }
                Err(err)
            }
            Err(panic) => {
                let why = panic_text(panic.as_ref());
                self.quarantine(&format!("sled panicked: {why}"));
                Err(format!("the store is damaged: {why}"))
            }
        }
    }

    /// Moves the open store aside and opens a new one in its place, as an
    /// unusable store is at start-up; only the newest copy is kept. Until
    /// it is done, and for good if it fails, calls are misses and `status`
    /// says the store is degraded.
    fn quarantine(&self, why: &str) {
        let mut live = self
            .live
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(trees) = live.take() else {
            // Another call quarantined it already.
            return;
        };
        self.set_health(StoreHealth::Degraded(why.to_string()));
        // The next start moves it aside if this process cannot.
        let _ = std::fs::write(self.path.join(DAMAGE_MARKER), why.as_bytes());
        // sled's own teardown may fail on a damaged store: contained too.
        let _ = catch_unwind(AssertUnwindSafe(|| drop(trees)));
        eprintln!(
            "shipgate: the store at {} is damaged ({why}); caching is off while it is moved aside and a new one opened",
            self.path.display()
        );
        let aside = match move_aside(&self.path, why) {
            Ok(aside) => aside,
            Err(err) => {
                eprintln!("shipgate: {err}; caching stays off until the next start");
                self.set_health(StoreHealth::Degraded(err));
                return;
            }
        };
        match open_contained(&self.path) {
            Ok(trees) => {
                *live = Some(trees);
                self.failures.store(0, Ordering::Relaxed);
                eprintln!(
                    "shipgate: moved the damaged store to {} and opened a new one",
                    aside.display()
                );
                self.set_health(StoreHealth::Rebuilt {
                    why: why.to_string(),
                    aside,
                });
            }
            Err(OpenFailure::Busy(failure) | OpenFailure::Damaged(failure)) => {
                let why = format!(
                    "a new store at {} cannot be opened: {failure}",
                    self.path.display()
                );
                eprintln!("shipgate: {why}; caching stays off until the next start");
                self.set_health(StoreHealth::Degraded(why));
            }
        }
    }

    fn set_health(&self, health: StoreHealth) {
        *self
            .health
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = health;
    }

    /// Whether this call is one `SHIPGATE_TEST_STORE_FAILURES` fails.
    fn injected_failure(&self) -> bool {
        self.injected_failures
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(1)
            })
            .is_ok()
    }
}

/// What a store's calls have met since it was opened, for `status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreHealth {
    Healthy,
    /// Calls are misses: the store is being rebuilt, or could not be.
    Degraded(String),
    /// It was damaged while open, moved to `aside`, and a new one opened.
    Rebuilt {
        why: String,
        aside: PathBuf,
    },
}

impl std::fmt::Display for StoreHealth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreHealth::Healthy => write!(f, "ok"),
            StoreHealth::Degraded(why) => write!(f, "degraded, caching is off: {why}"),
            StoreHealth::Rebuilt { why, aside } => write!(
                f,
                "rebuilt: the store was damaged ({why}); the damaged copy is at {}",
                aside.display()
            ),
        }
    }
}

/// `open_at` with sled's panics contained and its lock refusal told
/// apart from damage.
fn open_contained(path: &Path) -> Result<Trees, OpenFailure> {
    match catch_unwind(|| open_at(path)) {
        Ok(Ok(trees)) => Ok(trees),
        Ok(Err(why)) if why.contains("could not acquire lock") => Err(OpenFailure::Busy(why)),
        Ok(Err(why)) => Err(OpenFailure::Damaged(why)),
        Err(panic) => Err(OpenFailure::Damaged(format!(
            "sled panicked while opening it: {}",
            panic_text(panic.as_ref())
        ))),
    }
}

fn open_at(path: &Path) -> Result<Trees, String> {
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
    Ok(Trees {
        facts: tree(Namespace::Facts.tree_name())?,
        graphs: tree(Namespace::Graphs.tree_name())?,
        repositories: tree(Namespace::Repositories.tree_name())?,
        history: tree(Namespace::History.tree_name())?,
        hosts: tree(Namespace::Hosts.tree_name())?,
        db,
    })
}

/// Moves the store at `path` aside as `store.damaged-<seconds>` beside
/// it, keeping only that newest copy (a store damaged again and again
/// must not fill the disk).
fn move_aside(path: &Path, why: &str) -> Result<PathBuf, String> {
    let data_dir = path.parent().unwrap_or(path);
    remove_damaged_copies(data_dir);
    let aside = data_dir.join(format!(
        "store.damaged-{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
    ));
    std::fs::rename(path, &aside).map_err(|err| {
        format!(
            "the store at {} is unusable ({why}) and could not be moved aside: {err}",
            path.display()
        )
    })?;
    Ok(aside)
}

impl Trees {
    fn tree(&self, namespace: Namespace) -> &sled::Tree {
        match namespace {
            Namespace::Facts => &self.facts,
            Namespace::Graphs => &self.graphs,
            Namespace::Repositories => &self.repositories,
            Namespace::History => &self.history,
            Namespace::Hosts => &self.hosts,
        }
    }
}

/// How many calls of the first store a debug build fails on purpose
/// (`SHIPGATE_TEST_STORE_FAILURES=N`): the tests of a store that fails
/// while open. Always none in a release build.
fn injected_failures() -> u32 {
    #[cfg(debug_assertions)]
    {
        static TAKEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if !TAKEN.swap(true, Ordering::Relaxed) {
            return std::env::var("SHIPGATE_TEST_STORE_FAILURES")
                .ok()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
        }
    }
    0
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

impl SledStore {
    /// Whether `key` is stored, without reading its value.
    pub fn contains(&self, namespace: Namespace, key: &[u8]) -> Result<bool, String> {
        self.contained(|trees| {
            trees
                .tree(namespace)
                .contains_key(key)
                .map_err(|err| err.to_string())
        })
    }
}

impl KvStore for SledStore {
    fn get(&self, namespace: Namespace, key: &[u8]) -> Result<Option<Vec<u8>>, String> {
        self.contained(|trees| {
            trees
                .tree(namespace)
                .get(key)
                .map(|v| v.map(|v| v.to_vec()))
                .map_err(|err| err.to_string())
        })
    }

    fn put(&self, namespace: Namespace, key: &[u8], value: &[u8]) -> Result<(), String> {
        self.contained(|trees| {
            trees
                .tree(namespace)
                .insert(key, value)
                .map(|_| ())
                .map_err(|err| err.to_string())
        })
    }

    fn remove(&self, namespace: Namespace, key: &[u8]) -> Result<(), String> {
        self.contained(|trees| {
            trees
                .tree(namespace)
                .remove(key)
                .map(|_| ())
                .map_err(|err| err.to_string())
        })
    }

    fn entries(&self, namespace: Namespace) -> Result<Vec<Entry>, String> {
        self.contained(|trees| {
            trees
                .tree(namespace)
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
        self.contained(|trees| trees.db.flush().map(|_| ()).map_err(|err| err.to_string()))
    }

    fn size_on_disk(&self) -> u64 {
        self.contained(|trees| trees.db.size_on_disk().map_err(|err| err.to_string()))
            .unwrap_or(0)
    }

    fn path(&self) -> &Path {
        &self.path
    }

    fn health(&self) -> String {
        self.health
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .to_string()
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

    /// Issue 46, item 9: a store whose calls keep failing while it is
    /// open is moved aside and a new one opened in its place, the daemon
    /// serving on; only the newest damaged copy is kept.
    #[test]
    fn a_store_failing_while_open_is_quarantined_and_rebuilt() -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let store = SledStore::open(dir.path())?;
        store.put(Namespace::Facts, b"k", b"v")?;
        assert_eq!(store.health(), "ok");
        for round in 1..=2 {
            store
                .injected_failures
                .store(QUARANTINE_AFTER, Ordering::Relaxed);
            for _ in 0..QUARANTINE_AFTER {
                assert!(store.get(Namespace::Facts, b"k").is_err());
            }
            let health = store.health();
            assert!(
                health.starts_with("rebuilt: the store was damaged (16 calls in a row failed"),
                "{health}"
            );
            // A new, empty store that works.
            assert_eq!(store.get(Namespace::Facts, b"k")?, None);
            store.put(Namespace::Facts, b"k", b"w")?;
            assert_eq!(store.get(Namespace::Facts, b"k")?, Some(b"w".to_vec()));
            let copies = std::fs::read_dir(dir.path())
                .map_err(|e| e.to_string())?
                .filter_map(Result::ok)
                .filter(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .starts_with("store.damaged-")
                })
                .count();
            assert_eq!(copies, 1, "round {round}: only the newest copy is kept");
            // Seconds-named copies: the next round's gets a new name.
            std::thread::sleep(std::time::Duration::from_millis(1_100));
        }
        // Failures that do not come in a row are no damage.
        store
            .injected_failures
            .store(QUARANTINE_AFTER - 1, Ordering::Relaxed);
        for _ in 0..QUARANTINE_AFTER - 1 {
            assert!(store.get(Namespace::Facts, b"k").is_err());
        }
        assert_eq!(store.get(Namespace::Facts, b"k")?, Some(b"w".to_vec()));
        Ok(())
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
        store.contained(|trees| {
            trees
                .db
                .insert(FORMAT_KEY, b"other".as_slice())
                .map_err(|e| e.to_string())
        })?;
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
