//! What a history stream tells of its walk while it runs: an event as soon
//! as the commits to walk are known (`done = 0`), one on each percent of
//! the walk, and one at least every second from a ticker, even while one
//! step takes long (a cold step on a large repository is seconds). Each
//! carries the rate and the time left, so a gRPC consumer does not compute
//! them.

use shipgate_proto::v1 as pb;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the ticker reports a walk that is still running.
pub const TICK: Duration = Duration::from_secs(1);

/// `total` before the chain is known.
const UNKNOWN: u64 = u64::MAX;

/// A walk's progress, shared by the walk (which sets it) and the ticker
/// (which reads it).
#[derive(Debug)]
pub struct WalkProgress {
    started: Instant,
    done: AtomicU64,
    total: AtomicU64,
    /// The percent last sent on a step: a client is not flooded on a
    /// long history.
    last_percent: Mutex<Option<u64>>,
}

impl WalkProgress {
    pub fn new() -> Self {
        WalkProgress {
            started: Instant::now(),
            done: AtomicU64::new(0),
            total: AtomicU64::new(UNKNOWN),
            last_percent: Mutex::new(None),
        }
    }

    /// Records a step of the walk (`done = 0` once the chain is known);
    /// the event to send when it starts a new percent of the walk.
    pub fn step(&self, done: usize, total: usize) -> Option<pb::HistoryProgress> {
        let done = u64::try_from(done).unwrap_or(u64::MAX);
        let total = u64::try_from(total).unwrap_or(u64::MAX - 1);
        self.done.store(done, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
        let percent = done.saturating_mul(100) / total.max(1);
        let mut last = self
            .last_percent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if *last == Some(percent) {
            return None;
        }
        *last = Some(percent);
        Some(progress_event(done, total, self.started.elapsed()))
    }

    /// The ticker's event: where the walk is now, once its length is known.
    pub fn tick(&self) -> Option<pb::HistoryProgress> {
        let total = self.total.load(Ordering::Relaxed);
        (total != UNKNOWN).then(|| {
            progress_event(
                self.done.load(Ordering::Relaxed),
                total,
                self.started.elapsed(),
            )
        })
    }
}

impl Default for WalkProgress {
    fn default() -> Self {
        Self::new()
    }
}

/// The event for `done` of `total` commits read in `elapsed`: the rate
/// since the start, and the time left at that rate, rounded up (0 while no
/// commit is read, as no rate is known).
pub fn progress_event(done: u64, total: u64, elapsed: Duration) -> pb::HistoryProgress {
    let (rate, seconds_left) = shipgate_proto::rate_and_time_left(done, total, elapsed);
    pb::HistoryProgress {
        done: u32::try_from(done).unwrap_or(u32::MAX),
        total: u32::try_from(total).unwrap_or(u32::MAX),
        commits_per_second: rate,
        seconds_left: u32::try_from(seconds_left).unwrap_or(u32::MAX),
        elapsed_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_and_time_left_are_computed_from_the_start() {
        let event = progress_event(120, 2000, Duration::from_secs(2));
        assert_eq!(event.done, 120);
        assert_eq!(event.total, 2000);
        assert_eq!(event.commits_per_second, 60.0);
        // 1,880 left at 60/s: 31.33 s, rounded up.
        assert_eq!(event.seconds_left, 32);
        assert_eq!(event.elapsed_ms, 2000);
        // Nothing read yet: no rate, so no time left to tell.
        let first = progress_event(0, 2000, Duration::from_millis(300));
        assert_eq!(first.commits_per_second, 0.0);
        assert_eq!(first.seconds_left, 0);
        assert_eq!(first.elapsed_ms, 300);
    }

    #[test]
    fn the_first_event_is_sent_at_done_zero_then_on_each_percent() {
        let progress = WalkProgress::new();
        // The ticker has nothing to say before the chain is known.
        assert_eq!(progress.tick(), None);
        let first = progress.step(0, 2000);
        assert_eq!(first.as_ref().map(|e| (e.done, e.total)), Some((0, 2000)));
        // Within the same percent: no event from the steps...
        assert_eq!(progress.step(1, 2000), None);
        assert_eq!(progress.step(19, 2000), None);
        // ...but the ticker reports where the walk is.
        let ticked = progress.tick().map(|e| (e.done, e.total));
        assert_eq!(ticked, Some((19, 2000)));
        // A new percent is sent.
        let next = progress.step(20, 2000).map(|e| (e.done, e.total));
        assert_eq!(next, Some((20, 2000)));
    }

    #[test]
    fn a_chain_of_no_commits_is_told_once() {
        let progress = WalkProgress::new();
        assert!(progress.step(0, 0).is_some());
        assert_eq!(progress.tick().map(|e| (e.done, e.total)), Some((0, 0)));
    }
}
