//! The remote tier of the cache (issue 44): an object store or Redis that
//! a fleet of daemons shares, so that what one CI runner computed another
//! reads instead of computing it again. Keys are content addresses, so any
//! daemon may read what another wrote.
//!
//! Invariants:
//! - The remote is only ever a cache. A value that is missing, damaged,
//!   foreign or from another engine is a miss (`envelope.rs`); a remote
//!   that is slow, full, unreachable or refuses is a miss with its reason
//!   in `status`, never a failed answer: every call has a deadline, and
//!   after failures in a row the remote is not asked for a while
//!   (`breaker.rs`).
//! - Nothing is written to the remote on a request's path: writes go to a
//!   bounded queue that a task of the tier's own runtime empties
//!   (`writer.rs`); a read-only tier writes nothing.
//! - No secret is printed (`location.rs`).

mod breaker;
mod envelope;
mod location;
mod writer;

pub use envelope::FleetKey;
pub use location::RemoteLocation;

use crate::store::Namespace;
use breaker::{Breaker, BreakerState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How a daemon uses a remote cache.
#[derive(Debug, Clone)]
pub struct RemoteOptions {
    pub location: RemoteLocation,
    /// Read, never write: for runners whose work must not reach others
    /// (a fork's pull request).
    pub read_only: bool,
    /// How long one read may take before it is a miss.
    pub deadline: Duration,
    /// The fleet's secret that signs what it writes and is checked on
    /// what it reads (none: values are checked, not signed).
    pub key: FleetKey,
}

/// The default deadline of one remote read.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(2);

/// Reads in flight at once when many keys are asked together.
const READS_AT_ONCE: usize = 32;

/// The largest value read: a bigger object is not ours (a side graph of
/// the largest scope is tens of MB).
const LARGEST_VALUE: u64 = 256 << 20;

/// What `status` shows of the remote tier.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RemoteStatus {
    /// The location with its secrets masked.
    pub location: String,
    pub read_only: bool,
    /// Whether values are signed and checked with a fleet key.
    pub signed: bool,
    /// `ok`, or why the remote is not asked now.
    pub state: String,
    pub hits: u64,
    pub misses: u64,
    /// Values found but refused: damaged, foreign or too large.
    pub refused: u64,
    pub errors: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    pub writes: u64,
    /// Writes not made: the queue was full or the remote not asked.
    pub writes_dropped: u64,
    pub writes_pending: u64,
    /// The last failure, masked; empty when none.
    pub last_error: String,
}

#[derive(Default)]
struct Counters {
    hits: AtomicU64,
    misses: AtomicU64,
    refused: AtomicU64,
    errors: AtomicU64,
    bytes_read: AtomicU64,
    bytes_written: AtomicU64,
    writes: AtomicU64,
    writes_dropped: AtomicU64,
}

fn bump(counter: &AtomicU64, by: u64) {
    counter.fetch_add(by, Ordering::Relaxed);
}

/// What the tier's tasks share.
struct Shared {
    operator: opendal::Operator,
    location: RemoteLocation,
    deadline: Duration,
    key: FleetKey,
    breaker: Mutex<Breaker>,
    counters: Counters,
}

impl Shared {
    fn breaker(&self) -> std::sync::MutexGuard<'_, Breaker> {
        // Plain data; a panic elsewhere cannot corrupt it.
        self.breaker
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn allowed(&self) -> bool {
        self.breaker().allows(Instant::now())
    }

    fn succeeded(&self) {
        self.breaker().succeeded();
    }

    fn failed(&self, what: &str, error: &str) {
        bump(&self.counters.errors, 1);
        let said = self.location.masked(&format!("{what}: {error}"));
        self.breaker().failed(Instant::now(), said);
    }

    /// One value, or `None` (a miss, for whatever reason).
    async fn read(&self, namespace: Namespace, key: &[u8]) -> Option<Vec<u8>> {
        if !self.allowed() {
            bump(&self.counters.misses, 1);
            return None;
        }
        let path = envelope::object_path(namespace, key);
        let found = match tokio::time::timeout(self.deadline, self.bounded_read(&path)).await {
            Ok(Ok(Some(bytes))) => {
                self.succeeded();
                bytes
            }
            Ok(Ok(None)) => {
                // Larger than any value of ours: refused unread.
                self.succeeded();
                bump(&self.counters.refused, 1);
                bump(&self.counters.misses, 1);
                return None;
            }
            Ok(Err(err)) if err.kind() == opendal::ErrorKind::NotFound => {
                self.succeeded();
                bump(&self.counters.misses, 1);
                return None;
            }
            Ok(Err(err)) => {
                self.failed("reading", &err.to_string());
                bump(&self.counters.misses, 1);
                return None;
            }
            Err(_) => {
                self.failed(
                    "reading",
                    &format!("no answer within {} ms", self.deadline.as_millis()),
                );
                bump(&self.counters.misses, 1);
                return None;
            }
        };
        bump(&self.counters.bytes_read, found.len() as u64);
        match self.key.unwrap(namespace, key, &found) {
            Some(value) => {
                bump(&self.counters.hits, 1);
                Some(value)
            }
            None => {
                bump(&self.counters.refused, 1);
                bump(&self.counters.misses, 1);
                None
            }
        }
    }
}

impl Shared {
    /// An object's bytes as they arrive, `None` once past
    /// `LARGEST_VALUE` (what a hostile remote sends is never held whole).
    async fn bounded_read(&self, path: &str) -> opendal::Result<Option<Vec<u8>>> {
        use tokio_stream::StreamExt;
        let mut stream = self
            .operator
            .reader(path)
            .await?
            .into_bytes_stream(..)
            .await?;
        let mut bytes = Vec::new();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|err| {
                // A missing object can surface only when its bytes are
                // asked for: still a miss, not a failure.
                let kind = match err.kind() {
                    std::io::ErrorKind::NotFound => opendal::ErrorKind::NotFound,
                    _ => opendal::ErrorKind::Unexpected,
                };
                opendal::Error::new(kind, err.to_string())
            })?;
            if (bytes.len() + chunk.len()) as u64 > LARGEST_VALUE {
                return Ok(None);
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(Some(bytes))
    }
}

/// The remote tier: its own small runtime (the engine's work is
/// synchronous and runs on threads of its own), the operator, the writer.
pub struct RemoteTier {
    shared: Arc<Shared>,
    read_only: bool,
    writer: writer::Writer,
    runtime: Option<tokio::runtime::Runtime>,
}

impl RemoteTier {
    /// The tier of `options`; nothing is contacted yet. An unusable URL is
    /// an error here, said with its secrets masked.
    pub fn open(options: &RemoteOptions) -> Result<RemoteTier, String> {
        let operator = options.location.operator()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("shipgate-remote")
            .enable_all()
            .build()
            .map_err(|err| format!("cannot start the remote cache's runtime: {err}"))?;
        let shared = Arc::new(Shared {
            operator,
            location: options.location.clone(),
            deadline: options.deadline,
            key: options.key.clone(),
            breaker: Mutex::new(Breaker::default()),
            counters: Counters::default(),
        });
        let writer = writer::Writer::start(runtime.handle(), Arc::clone(&shared));
        Ok(RemoteTier {
            shared,
            read_only: options.read_only,
            writer,
            runtime: Some(runtime),
        })
    }

    fn handle(&self) -> Option<&tokio::runtime::Handle> {
        self.runtime.as_ref().map(tokio::runtime::Runtime::handle)
    }

    /// One value from the remote, within the deadline; `None` otherwise.
    pub fn get(&self, namespace: Namespace, key: &[u8]) -> Option<Vec<u8>> {
        self.get_many(namespace, &[key.to_vec()]).pop().flatten()
    }

    /// Values of many keys, asked `READS_AT_ONCE` at a time, in order; the
    /// batch as a whole gets twice one read's deadline (then what has not
    /// come is a miss).
    pub fn get_many(&self, namespace: Namespace, keys: &[Vec<u8>]) -> Vec<Option<Vec<u8>>> {
        let mut found = vec![None; keys.len()];
        let Some(handle) = self.handle() else {
            return found;
        };
        if keys.is_empty() || !self.shared.allowed() {
            bump(&self.shared.counters.misses, keys.len() as u64);
            return found;
        }
        let budget = self.shared.deadline * 2;
        let (sender, receiver) = std::sync::mpsc::channel();
        let shared = Arc::clone(&self.shared);
        let keys = keys.to_vec();
        handle.spawn(async move {
            let permits = Arc::new(tokio::sync::Semaphore::new(READS_AT_ONCE));
            let mut reads = tokio::task::JoinSet::new();
            for (at, key) in keys.into_iter().enumerate() {
                let shared = Arc::clone(&shared);
                let permits = Arc::clone(&permits);
                reads.spawn(async move {
                    let _permit = permits.acquire_owned().await.ok()?;
                    shared.read(namespace, &key).await.map(|value| (at, value))
                });
            }
            let _ = tokio::time::timeout(budget, async {
                while let Some(read) = reads.join_next().await {
                    if let Ok(Some(value)) = read {
                        if sender.send(value).is_err() {
                            return;
                        }
                    }
                }
            })
            .await;
            reads.abort_all();
        });
        // The task ends within its budget; the wait is bounded again here
        // in case the runtime itself is stuck.
        let until = Instant::now() + budget + Duration::from_millis(250);
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match receiver.recv_timeout(left) {
                Ok((at, value)) => {
                    if let Some(slot) = found.get_mut(at) {
                        *slot = Some(value);
                    }
                }
                Err(_) => break,
            }
        }
        found
    }

    /// Queues a (locally sealed) value to be written; never waits.
    pub fn put(&self, namespace: Namespace, key: &[u8], sealed: &[u8]) {
        if self.read_only {
            return;
        }
        let object = writer::Object {
            path: envelope::object_path(namespace, key),
            bytes: self.shared.key.wrap(namespace, key, sealed),
        };
        self.writer.enqueue(object);
    }

    /// Waits, at most `within`, until the queued writes are made.
    pub fn drain(&self, within: Duration) {
        self.writer.drain(within);
    }

    pub fn status(&self) -> RemoteStatus {
        let counters = &self.shared.counters;
        let read = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        let (state, last_error) = {
            let breaker = self.shared.breaker();
            let state = match breaker.state(Instant::now()) {
                BreakerState::Closed => "ok".to_string(),
                BreakerState::Open { seconds_left } => format!(
                    "not asked for {seconds_left} s more, after {} failures in a row",
                    breaker::FAILURES_TO_OPEN
                ),
            };
            (state, breaker.last_error().to_string())
        };
        RemoteStatus {
            location: self.shared.location.shown().to_string(),
            read_only: self.read_only,
            signed: self.shared.key.is_set(),
            state,
            hits: read(&counters.hits),
            misses: read(&counters.misses),
            refused: read(&counters.refused),
            errors: read(&counters.errors),
            bytes_read: read(&counters.bytes_read),
            bytes_written: read(&counters.bytes_written),
            writes: read(&counters.writes),
            writes_dropped: read(&counters.writes_dropped),
            writes_pending: self.writer.pending(),
            last_error,
        }
    }
}

impl Drop for RemoteTier {
    fn drop(&mut self) {
        // Dropped anywhere, an async context included: nothing waits.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}
