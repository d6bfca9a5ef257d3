//! The remote tier's writes, off every request's path: a queue bounded by
//! its bytes (a full queue drops the write: the value is still in the
//! local store, and another daemon computes it again at worst), emptied
//! by a task of the tier's runtime a few writes at a time, each with a
//! deadline.

use super::{bump, Shared};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One object to write.
pub(super) struct Object {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// Bytes queued at most; past it a write is dropped.
const QUEUED_BYTES: usize = 256 << 20;
/// Writes in flight at once.
const WRITES_AT_ONCE: usize = 8;
/// A write's deadline, in reads' deadlines: a write carries up to a whole
/// side graph and nobody waits for it.
const WRITE_DEADLINES: u32 = 10;

pub(super) struct Writer {
    queue: tokio::sync::mpsc::UnboundedSender<Object>,
    progress: Arc<Progress>,
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Progress {
    bytes: AtomicUsize,
    objects: AtomicU64,
}

impl Progress {
    fn done(&self, object_bytes: usize) {
        self.bytes.fetch_sub(object_bytes, Ordering::Relaxed);
        self.objects.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Writer {
    pub(super) fn start(runtime: &tokio::runtime::Handle, shared: Arc<Shared>) -> Writer {
        let (queue, mut queued) = tokio::sync::mpsc::unbounded_channel::<Object>();
        let progress = Arc::new(Progress::default());
        let writing = Arc::clone(&shared);
        let written = Arc::clone(&progress);
        runtime.spawn(async move {
            let permits = Arc::new(tokio::sync::Semaphore::new(WRITES_AT_ONCE));
            while let Some(object) = queued.recv().await {
                let Ok(permit) = Arc::clone(&permits).acquire_owned().await else {
                    return;
                };
                let shared = Arc::clone(&writing);
                let progress = Arc::clone(&written);
                tokio::spawn(async move {
                    let _permit = permit;
                    let length = object.bytes.len();
                    write(&shared, object).await;
                    progress.done(length);
                });
            }
        });
        Writer {
            queue,
            progress,
            shared,
        }
    }

    /// Queues a write, or drops it when the queue is full.
    pub(super) fn enqueue(&self, object: Object) {
        let length = object.bytes.len();
        let queued = self.progress.bytes.fetch_add(length, Ordering::Relaxed);
        self.progress.objects.fetch_add(1, Ordering::Relaxed);
        if queued.saturating_add(length) > QUEUED_BYTES || self.queue.send(object).is_err() {
            self.progress.done(length);
            bump(&self.shared.counters.writes_dropped, 1);
        }
    }

    /// Writes queued and not yet made.
    pub(super) fn pending(&self) -> u64 {
        self.progress.objects.load(Ordering::Relaxed)
    }

    /// Waits until the queue is empty, at most `within`; not at all while
    /// the remote is not asked (what is queued will not be written).
    pub(super) fn drain(&self, within: Duration) {
        let until = Instant::now() + within;
        while self.pending() > 0 && Instant::now() < until && self.shared.allowed() {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

async fn write(shared: &Shared, object: Object) {
    if !shared.allowed() {
        bump(&shared.counters.writes_dropped, 1);
        return;
    }
    let length = object.bytes.len() as u64;
    let deadline = shared.deadline * WRITE_DEADLINES;
    let written = shared.operator.write(&object.path, object.bytes);
    match tokio::time::timeout(deadline, written).await {
        Ok(Ok(_)) => {
            shared.succeeded();
            bump(&shared.counters.writes, 1);
            bump(&shared.counters.bytes_written, length);
        }
        Ok(Err(err)) => shared.failed("writing", &err.to_string()),
        Err(_) => shared.failed(
            "writing",
            &format!("no answer within {} ms", deadline.as_millis()),
        ),
    }
}
