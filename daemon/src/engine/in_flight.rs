//! Graphs being built, by content key: a second thread asking for a graph
//! of the same content (a history walk's pool building a commit and its
//! parent, which changed no Python of the scope; two requests at once)
//! waits for the first and reads what it stored, instead of building the
//! same graph again. A request never waits for background work (watch's
//! indexing), which pauses while a request is served (`work.rs`): it
//! builds the graph itself.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

#[derive(Default)]
pub(super) struct InFlight {
    building: Mutex<HashMap<[u8; 32], Builders>>,
    finished: Condvar,
}

/// The threads building one graph: background work's, and requests'.
#[derive(Debug, Default, Clone, Copy)]
struct Builders {
    background: u32,
    requests: u32,
}

/// Whether this thread builds the graph, or another did meanwhile.
pub(super) enum Turn<'f> {
    /// Build it; the guard says so to the waiting threads when dropped.
    Build(Building<'f>),
    /// Another thread built it (or stopped): look in the cache again.
    Waited,
}

pub(super) struct Building<'f> {
    flight: &'f InFlight,
    key: [u8; 32],
    background: bool,
}

impl Drop for Building<'_> {
    fn drop(&mut self) {
        let mut building = self.flight.lock();
        if let Some(builders) = building.get_mut(&self.key) {
            let count = if self.background {
                &mut builders.background
            } else {
                &mut builders.requests
            };
            *count = count.saturating_sub(1);
            if builders.background == 0 && builders.requests == 0 {
                building.remove(&self.key);
            }
        }
        drop(building);
        self.flight.finished.notify_all();
    }
}

impl InFlight {
    fn lock(&self) -> MutexGuard<'_, HashMap<[u8; 32], Builders>> {
        // A set of keys: a panic elsewhere cannot leave it half written.
        self.building
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// This thread's turn at the graph of content `key`: to build it, or
    /// to read it from the cache once the thread building it is done.
    /// Waiting stops at the request's checkpoints.
    pub(super) fn turn(&self, key: [u8; 32]) -> Result<Turn<'_>, crate::error::DiffError> {
        let background = crate::work::in_background();
        let mut building = self.lock();
        let mut waited = false;
        // A request waits for another request's build, never for
        // background work's, paused while the request is served.
        while building
            .get(&key)
            .is_some_and(|b| b.requests > 0 || (background && b.background > 0))
        {
            waited = true;
            building = self
                .finished
                .wait_timeout(building, Duration::from_millis(50))
                .map(|(guard, _)| guard)
                .unwrap_or_else(|poisoned| poisoned.into_inner().0);
            drop(building);
            crate::work::checkpoint()?;
            building = self.lock();
        }
        if waited {
            return Ok(Turn::Waited);
        }
        let builders = building.entry(key).or_default();
        if background {
            builders.background += 1;
        } else {
            builders.requests += 1;
        }
        Ok(Turn::Build(Building {
            flight: self,
            key,
            background,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::{with_cancel, Cancel};

    #[test]
    fn a_request_waits_for_a_request_building_the_same_graph_but_never_for_background_work() {
        let flight = InFlight::default();
        let key = [7; 32];
        // Background work builds: a request builds too, beside it.
        let background = Cancel::new().in_background();
        let first = with_cancel(&background, || flight.turn(key));
        assert!(matches!(first, Ok(Turn::Build(_))));
        let beside = flight.turn(key);
        assert!(matches!(beside, Ok(Turn::Build(_))));
        // A second request waits for the first, then reads the cache.
        std::thread::scope(|scope| {
            let waiter = scope.spawn(|| matches!(flight.turn(key), Ok(Turn::Waited)));
            std::thread::sleep(Duration::from_millis(100));
            assert!(!waiter.is_finished(), "it waits while the request builds");
            drop(beside);
            assert!(waiter.join().unwrap_or(false));
        });
        drop(first);
        // Nobody builds it now: the next asker builds.
        assert!(matches!(flight.turn(key), Ok(Turn::Build(_))));
        assert!(flight.lock().is_empty(), "the guard took the key back");
    }
}
