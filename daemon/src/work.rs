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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Whether some work should stop: its flag was set (the asker went away),
/// its deadline passed, or a thread of it spent its CPU budget. Cloning
/// shares the flag.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
    /// CPU time each thread of the work may spend (`with_cpu_budget`),
    /// and whether one did.
    cpu_budget: Option<(Duration, Arc<AtomicBool>)>,
    /// Background work (`in_background`): on one core, and paused at its
    /// checkpoints while a request is served.
    background: bool,
}

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is set or the deadline passed (the CPU budget is
    /// a thread's, checked by [`cancelled`]).
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.deadline_passed()
    }

    /// The same token (one flag) stopping by `deadline` too, or by its
    /// own deadline when that comes first.
    pub fn with_deadline(&self, deadline: Instant) -> Cancel {
        Cancel {
            deadline: Some(self.deadline.map_or(deadline, |own| own.min(deadline))),
            ..self.clone()
        }
    }

    /// The same token (one flag, one deadline) stopping too once a thread
    /// running it has spent `budget` of CPU time in it: a budget of work
    /// done, whatever else the machine runs meanwhile.
    pub fn with_cpu_budget(&self, budget: Duration) -> Cancel {
        Cancel {
            cpu_budget: Some((budget, Arc::new(AtomicBool::new(false)))),
            ..self.clone()
        }
    }

    /// The same token for background work (watch's indexing): it runs on
    /// one core (`share_out` and `side_by_side` run on the calling thread
    /// alone) and waits at each checkpoint while a request is served
    /// ([`foreground`]), so indexing never competes with an answer.
    pub fn in_background(&self) -> Cancel {
        Cancel {
            background: true,
            ..self.clone()
        }
    }

    /// Whether a thread of this token spent its CPU budget.
    pub fn budget_spent(&self) -> bool {
        self.cpu_budget
            .as_ref()
            .is_some_and(|(_, spent)| spent.load(Ordering::Relaxed))
    }

    /// Whether its deadline has passed (its flag aside).
    pub fn deadline_passed(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
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

/// A thread's token, with the thread's CPU time when it took it.
struct Installed {
    cancel: Cancel,
    cpu_at_start: Duration,
}

thread_local! {
    static CURRENT: RefCell<Option<Installed>> = const { RefCell::new(None) };
}

/// The CPU time this thread has used (zero where the clock is not read).
fn thread_cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid, writable timespec for the call.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0 {
            let seconds = u64::try_from(now.tv_sec).unwrap_or(0);
            let nanos = u32::try_from(now.tv_nsec).unwrap_or(0);
            return Duration::new(seconds, nanos);
        }
    }
    Duration::ZERO
}

/// Runs `work` with `cancel` as this thread's token, restoring the previous
/// one afterwards.
pub fn with_cancel<T>(cancel: &Cancel, work: impl FnOnce() -> T) -> T {
    let installed = Installed {
        cancel: cancel.clone(),
        cpu_at_start: if cancel.cpu_budget.is_some() {
            thread_cpu_time()
        } else {
            Duration::ZERO
        },
    };
    let previous = CURRENT.with(|current| current.replace(Some(installed)));
    let result = work();
    CURRENT.with(|current| *current.borrow_mut() = previous);
    result
}

/// This thread's token (one that is never cancelled outside any request).
pub fn current() -> Cancel {
    CURRENT.with(|current| {
        current
            .borrow()
            .as_ref()
            .map(|installed| installed.cancel.clone())
            .unwrap_or_default()
    })
}

/// Requests being served now (diffs, histories, inventories): background
/// work waits at its checkpoints while there is one.
static FOREGROUND: AtomicUsize = AtomicUsize::new(0);

/// How often paused background work looks again.
const PAUSE_POLL: Duration = Duration::from_millis(20);

/// Marks a request served until dropped.
#[derive(Debug)]
pub struct Foreground(());

impl Drop for Foreground {
    fn drop(&mut self) {
        FOREGROUND.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A request is served until the guard goes: background work pauses.
pub fn foreground() -> Foreground {
    FOREGROUND.fetch_add(1, Ordering::Relaxed);
    Foreground(())
}

/// Whether a request is being served (background work is then paused).
pub fn foreground_busy() -> bool {
    FOREGROUND.load(Ordering::Relaxed) > 0
}

/// Whether this thread's work is background work (`Cancel::in_background`).
pub fn in_background() -> bool {
    CURRENT.with(|current| {
        current
            .borrow()
            .as_ref()
            .is_some_and(|installed| installed.cancel.background)
    })
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
        || CURRENT.with(|current| {
            current
                .borrow()
                .as_ref()
                .is_some_and(|installed| installed.cancel.is_cancelled() || spent_budget(installed))
        })
}

/// Whether this thread spent its token's CPU budget (then said on the
/// token, for whoever set the budget).
fn spent_budget(installed: &Installed) -> bool {
    let Some((budget, spent)) = &installed.cancel.cpu_budget else {
        return false;
    };
    if spent.load(Ordering::Relaxed) {
        return true;
    }
    let used = thread_cpu_time().saturating_sub(installed.cpu_at_start);
    if used >= *budget {
        spent.store(true, Ordering::Relaxed);
        return true;
    }
    false
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
    if cancel.background {
        // One core: one side after the other, on this thread.
        let here = here();
        return Ok((beside(), here));
    }
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

/// Runs `helper` on one more thread (carrying this thread's token and the
/// work stack) while `here` runs on this one, and waits for both. Background
/// work has one core, so there `helper` does not run at all, nor where no
/// thread can be started: `here` must not need it (the helper shares work
/// `here` also does, and `here` tells it to stop before returning).
pub fn with_helper<T>(helper: impl FnOnce() + Send, here: impl FnOnce() -> T) -> T {
    let cancel = current();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cancel.background || cores < 2 {
        return here();
    }
    std::thread::scope(|scope| {
        // Not started: `here` does the helper's share.
        let _helper = std::thread::Builder::new()
            .name("shipgate-helper".into())
            .stack_size(crate::WORK_STACK_BYTES)
            .spawn_scoped(scope, || with_cancel(&cancel, helper));
        here()
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
    let cancel = current();
    // Background work has one core: this thread's.
    let cores = if cancel.background {
        1
    } else {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    };
    let workers = cores.min(items.len()).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
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
    if in_background() {
        while foreground_busy() && !stopping() && !cancelled() {
            std::thread::sleep(PAUSE_POLL);
        }
    }
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

    /// Background work waits at its checkpoint while a request is served,
    /// and goes on once none is; other work never waits. (One test owns
    /// the process-wide count, so nothing else here takes a guard.)
    #[test]
    fn background_work_pauses_while_a_request_is_served_and_runs_on_one_core() {
        let served = foreground();
        let (sender, receiver) = std::sync::mpsc::channel();
        let background = Cancel::new().in_background();
        let worker = std::thread::spawn(move || {
            with_cancel(&background, || {
                let passed = checkpoint().is_ok();
                let _ = sender.send(passed);
            })
        });
        assert!(
            receiver.recv_timeout(Duration::from_millis(300)).is_err(),
            "the background checkpoint returned while a request was served"
        );
        with_cancel(&Cancel::new(), || {
            assert!(checkpoint().is_ok(), "a request's own work never waits")
        });
        drop(served);
        assert_eq!(receiver.recv_timeout(Duration::from_secs(10)), Ok(true));
        let _ = worker.join();

        // One core: every item on the calling thread, and the two sides
        // one after the other on it.
        let caller = std::thread::current().id();
        let threads = with_cancel(&Cancel::new().in_background(), || {
            share_out(&[1, 2, 3, 4, 5, 6, 7, 8], |_| std::thread::current().id())
        });
        assert!(threads.iter().all(|t| *t == Some(caller)));
        let sides = with_cancel(&Cancel::new().in_background(), || {
            side_by_side(
                || std::thread::current().id(),
                || std::thread::current().id(),
            )
        });
        assert_eq!(sides.ok(), Some((caller, caller)));
    }

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
    fn a_deadline_and_a_cpu_budget_stop_work_and_share_the_flag() {
        let cancel = Cancel::new();
        let late = cancel.with_deadline(Instant::now() + Duration::from_secs(600));
        let past = late.with_deadline(Instant::now() - Duration::from_millis(1));
        assert!(!late.is_cancelled());
        assert!(past.is_cancelled() && past.deadline_passed());
        assert_eq!(
            past.with_deadline(Instant::now() + Duration::from_secs(900))
                .deadline(),
            past.deadline(),
            "the earlier deadline holds"
        );
        cancel.cancel();
        assert!(late.is_cancelled(), "one flag");

        let budgeted = Cancel::new().with_cpu_budget(Duration::from_millis(20));
        with_cancel(&budgeted, || {
            assert!(checkpoint().is_ok());
            let mut x = 0u64;
            while checkpoint().is_ok() {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        });
        assert!(budgeted.budget_spent());
        assert!(
            !budgeted.is_cancelled(),
            "a thread's budget, not the token's flag"
        );
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
