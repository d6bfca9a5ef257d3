//! The local store in front of a remote tier: a local miss asks the
//! remote (and keeps what it found), a write goes to both (the remote's
//! queued, off the request's path).

use super::remote::{RemoteStatus, RemoteTier};
use super::{Entry, KvStore, Namespace, SledStore};
use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct TieredStore {
    local: SledStore,
    remote: RemoteTier,
    absent: Mutex<Absent>,
}

/// Keys the remote said it does not hold, lately: a batch's misses are
/// looked up again one by one right after it (then computed here), and
/// asking the remote again would cost a round trip each. Forgotten after a
/// while (another daemon may have written them since) or when too many.
struct Absent {
    keys: HashSet<(u8, Vec<u8>)>,
    since: Instant,
}

const ABSENT_FOR: Duration = Duration::from_secs(600);
const ABSENT_KEYS: usize = 200_000;

impl Absent {
    fn fresh(&mut self) -> &mut HashSet<(u8, Vec<u8>)> {
        if self.since.elapsed() > ABSENT_FOR || self.keys.len() >= ABSENT_KEYS {
            self.keys.clear();
            self.since = Instant::now();
        }
        &mut self.keys
    }
}

impl TieredStore {
    pub fn new(local: SledStore, remote: RemoteTier) -> TieredStore {
        TieredStore {
            local,
            remote,
            absent: Mutex::new(Absent {
                keys: HashSet::new(),
                since: Instant::now(),
            }),
        }
    }

    fn absent(&self) -> std::sync::MutexGuard<'_, Absent> {
        // Plain data; a panic elsewhere cannot corrupt it.
        self.absent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn known_absent(&self, namespace: Namespace, key: &[u8]) -> bool {
        self.absent()
            .fresh()
            .contains(&(namespace as u8, key.to_vec()))
    }

    fn note_absent<'k>(&self, namespace: Namespace, keys: impl Iterator<Item = &'k [u8]>) {
        let mut absent = self.absent();
        let absent = absent.fresh();
        for key in keys {
            absent.insert((namespace as u8, key.to_vec()));
        }
    }
}

/// Whether a namespace's values travel: all content-addressed ones; the
/// registry of watched repositories is this machine's own.
fn travels(namespace: Namespace) -> bool {
    !matches!(namespace, Namespace::Repositories)
}

impl KvStore for TieredStore {
    fn get(&self, namespace: Namespace, key: &[u8]) -> Result<Option<Vec<u8>>, String> {
        if let Some(value) = self.local.get(namespace, key)? {
            return Ok(Some(value));
        }
        if !travels(namespace) || self.known_absent(namespace, key) {
            return Ok(None);
        }
        let found = self.remote.get(namespace, key);
        match &found {
            // Kept locally; a failed local write loses only that.
            Some(value) => {
                let _ = self.local.put(namespace, key, value);
            }
            None => self.note_absent(namespace, std::iter::once(key)),
        }
        Ok(found)
    }

    fn put(&self, namespace: Namespace, key: &[u8], value: &[u8]) -> Result<(), String> {
        if travels(namespace) {
            self.remote.put(namespace, key, value);
        }
        self.local.put(namespace, key, value)
    }

    fn remove(&self, namespace: Namespace, key: &[u8]) -> Result<(), String> {
        self.local.remove(namespace, key)
    }

    fn entries(&self, namespace: Namespace) -> Result<Vec<Entry>, String> {
        self.local.entries(namespace)
    }

    fn flush(&self) -> Result<(), String> {
        self.local.flush()
    }

    fn drain_remote(&self, within: Duration) {
        self.remote.drain(within);
    }

    fn size_on_disk(&self) -> u64 {
        self.local.size_on_disk()
    }

    fn path(&self) -> &std::path::Path {
        self.local.path()
    }

    fn health(&self) -> String {
        self.local.health()
    }

    fn prefetch(&self, namespace: Namespace, keys: &[Vec<u8>]) {
        if !travels(namespace) {
            return;
        }
        let asked: Vec<Vec<u8>> = keys
            .iter()
            .filter(|key| !matches!(self.local.contains(namespace, key), Ok(true)))
            .filter(|key| !self.known_absent(namespace, key))
            .cloned()
            .collect();
        if asked.is_empty() {
            return;
        }
        let mut missed = Vec::new();
        for (key, value) in asked.iter().zip(self.remote.get_many(namespace, &asked)) {
            match value {
                Some(value) => {
                    let _ = self.local.put(namespace, key, &value);
                }
                None => missed.push(key.as_slice()),
            }
        }
        self.note_absent(namespace, missed.into_iter());
    }

    fn remote_status(&self) -> Option<RemoteStatus> {
        Some(self.remote.status())
    }
}
