//! Cancellation of a request's blocking work.
//!
//! A request's work runs on blocking threads, far from the gRPC future that
//! asked for it. When that future is dropped (the client went away, its
//! deadline passed) or a watched repository is unwatched, the work must stop
//! soon, not run to the end for no one. The owner holds a [`CancelOnDrop`];
//! the work runs inside [`with_cancel`] and calls [`checkpoint`] at its
//! natural steps (each blob parsed, each module read, each commit walked).
//!
//! Invariant: work stopped by cancellation is never cached. Every cache
//! write of a derived value (a graph, a history step) follows a checkpoint,
//! so a graph a cancelled read left half-built is dropped, never stored.
//! Facts are cached per blob and are whole when stored.
//!
//! The token travels by a thread-local so that the engine's signatures stay
//! about the comparison; threads the work spawns carry it over with
//! [`current`] and [`with_cancel`].

use crate::error::DiffError;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Whether some work should stop. Cloning shares the flag.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// A guard that cancels when dropped: held by whoever waits for the
    /// work, so that giving up waiting is cancelling.
    pub fn on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(self.clone())
    }
}

/// Cancels its token when dropped.
#[derive(Debug)]
pub struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Cancel>> = const { RefCell::new(None) };
}

/// Runs `work` with `cancel` as this thread's token, restoring the previous
/// one afterwards.
pub fn with_cancel<T>(cancel: &Cancel, work: impl FnOnce() -> T) -> T {
    let previous = CURRENT.with(|current| current.replace(Some(cancel.clone())));
    let result = work();
    CURRENT.with(|current| *current.borrow_mut() = previous);
    result
}

/// This thread's token (one that is never cancelled outside any request).
pub fn current() -> Cancel {
    CURRENT.with(|current| current.borrow().clone().unwrap_or_default())
}

/// Set once the daemon is stopping (SIGTERM, Ctrl-C, `Shutdown`, the idle
/// timer): every request's work stops at its next checkpoint, so a long
/// `history` walk ends within the stop's grace instead of being killed
/// mid-answer.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Stops all work at its next checkpoint: the daemon is stopping.
pub fn stop_all() {
    STOPPING.store(true, Ordering::Relaxed);
}

/// Whether the daemon is stopping (`stop_all`).
pub fn stopping() -> bool {
    STOPPING.load(Ordering::Relaxed)
}

/// Whether this thread's work was cancelled, or the daemon is stopping.
pub fn cancelled() -> bool {
    stopping()
        || CURRENT.with(|current| current.borrow().as_ref().is_some_and(Cancel::is_cancelled))
}

/// Runs `beside` on a thread of its own, carrying this thread's token and
/// the work stack (`WORK_STACK_BYTES`), while `here` runs on this thread;
/// both results once both are done. What the two sides of a comparison
/// compute independently (their graphs, their import graphs for a scope
/// derivation) runs this way on a machine of two cores or more.
pub fn side_by_side<A: Send, B>(
    beside: impl FnOnce() -> A + Send,
    here: impl FnOnce() -> B,
) -> Result<(A, B), DiffError> {
    let cancel = current();
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("shipgate-side".into())
            .stack_size(crate::WORK_STACK_BYTES)
            .spawn_scoped(scope, move || with_cancel(&cancel, beside));
        let here = here();
        let beside = match spawned {
            Ok(handle) => handle
                .join()
                .map_err(|_| DiffError::internal("a side's thread panicked"))?,
            Err(err) => {
                return Err(DiffError::internal(format!(
                    "cannot start a side's thread: {err}"
                )))
            }
        };
        Ok((beside, here))
    })
}

/// `each` of `items` on every core, this thread among them: each worker
/// takes the next item as it finishes one, so a large item never holds up
/// a fixed share (a write-behind split in halves left one core idle for
/// its last 90 ms). Workers carry this thread's token and the work stack;
/// where no thread can be started, this one does that share. The results
/// come back in the items' order, `None` for the items of a worker that
/// panicked.
pub fn share_out<T: Sync, R: Send>(items: &[T], each: impl Fn(&T) -> R + Sync) -> Vec<Option<R>> {
    share_out_with(items, || (), |(), item| each(item))
}

/// `share_out`, each worker with state of its own made on its thread
/// (`start`), such as a handle that may not cross threads.
pub fn share_out_with<T: Sync, S, R: Send>(
    items: &[T],
    start: impl Fn() -> S + Sync,
    each: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<Option<R>> {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(items.len())
        .max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let cancel = current();
    let work = || {
        let mut state = start();
        let mut done = Vec::new();
        loop {
            let taken = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(taken) else {
                break;
            };
            done.push((taken, each(&mut state, item)));
        }
        done
    };
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let spawned: Vec<_> = (1..workers)
            .filter_map(|_| {
                let (cancel, work) = (&cancel, &work);
                std::thread::Builder::new()
                    .name("shipgate-work".into())
                    .stack_size(crate::WORK_STACK_BYTES)
                    .spawn_scoped(scope, move || with_cancel(cancel, work))
                    .ok()
            })
            .collect();
        let mut results = work();
        for handle in spawned {
            if let Ok(done) = handle.join() {
                results.extend(done);
            }
        }
        results
    });
    let mut ordered: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (index, result) in results.drain(..) {
        if let Some(slot) = ordered.get_mut(index) {
            *slot = Some(result);
        }
    }
    ordered
}

/// Stops the work when it was cancelled: the error reaches no one (the
/// asker is gone) but unwinds the work through its ordinary error path.
pub fn checkpoint() -> Result<(), DiffError> {
    if stopping() {
        Err(DiffError::internal("the daemon is stopping".to_string()))
    } else if cancelled() {
        Err(DiffError::internal(
            "the request was cancelled: its client went away or its deadline passed".to_string(),
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_stops_only_cancelled_work_and_the_token_is_scoped() {
        assert!(checkpoint().is_ok(), "outside any request");
        let cancel = Cancel::new();
        with_cancel(&cancel, || {
            assert!(checkpoint().is_ok());
            let carried = current();
            let guard = cancel.on_drop();
            drop(guard);
            assert!(carried.is_cancelled(), "a clone shares the flag");
            assert!(checkpoint().is_err());
            with_cancel(&Cancel::new(), || assert!(checkpoint().is_ok()));
            assert!(checkpoint().is_err(), "the outer token is restored");
        });
        assert!(checkpoint().is_ok(), "the token ends with its scope");
    }

    #[test]
    fn shared_out_work_answers_every_item_in_order_with_the_token() {
        let items: Vec<u64> = (0..1_000).collect();
        let cancel = Cancel::new();
        cancel.cancel();
        let results = with_cancel(&cancel, || share_out(&items, |n| (n * n, cancelled())));
        let expected: Vec<Option<(u64, bool)>> =
            items.iter().map(|n| Some((n * n, true))).collect();
        assert_eq!(results, expected);
        assert!(share_out(&[] as &[u8], |_| ()).is_empty());
    }
}
