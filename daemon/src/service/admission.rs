//! When a request's CPU work runs, and for how long (issue 46, item 1).
//!
//! - **Slots.** Comparison and history work waits for one of one slot per
//!   core, first come first served, so load queues instead of multiplying
//!   threads and memory.
//! - **The lane.** One more slot, for a comparison that finds every core
//!   slot taken: it runs there until one of its threads has spent
//!   [`LANE_BUDGET`] of CPU time. A cheap request (a warm answer, a small
//!   repository) is answered there at once however long the requests
//!   holding the cores take; one that needs more stops at its next
//!   checkpoint, gives the lane back and waits for a core slot, where it
//!   runs again (a cut run is never cached: `work.rs`; the facts it parsed
//!   are kept). So two slow comparisons cannot starve a third,
//!   and a slow request loses at most the budget. A request uses the
//!   lane once.
//! - **Deadlines.** Every comparison has one: the client's `grpc-timeout`
//!   (a little before it, so that the daemon's clear answer arrives
//!   before the client gives up), else the daemon's default
//!   (`--request-timeout`, [`DEFAULT_REQUEST_TIMEOUT`]). Waiting for a
//!   slot counts. At the deadline the answer is DEADLINE_EXCEEDED naming
//!   it, sent at once; the work stops at its next checkpoint, keeping its
//!   slot until then, so the slots never hold more work than they count.

use crate::work::Cancel;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How much CPU time each thread of a comparison may spend in the lane
/// before it waits for a core: counted in CPU time, not on the clock, so a
/// cheap request is not cut for sharing the machine with slow ones.
pub const LANE_BUDGET: Duration = Duration::from_secs(2);

/// A comparison's deadline when its client sets none.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(600);

/// The daemon's CPU slots: one per core, and the lane.
#[derive(Debug)]
pub struct CpuSlots {
    cores: Arc<Semaphore>,
    lane: Arc<Semaphore>,
    /// A thread's CPU time in the lane ([`LANE_BUDGET`]).
    lane_budget: Duration,
}

/// The slots of a daemon: one per core, and the lane.
pub fn cpu_slots() -> Arc<CpuSlots> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Arc::new(CpuSlots::new(cores, LANE_BUDGET))
}

/// Why admitted work gave no result.
#[derive(Debug)]
pub enum NotRun {
    /// The deadline passed, while waiting or while working.
    DeadlinePassed,
    /// The daemon is stopping: no more slots are given.
    Stopping,
    /// The blocking task did not return (it panicked).
    Failed(tokio::task::JoinError),
}

impl CpuSlots {
    pub fn new(cores: usize, lane_budget: Duration) -> Self {
        CpuSlots {
            cores: Arc::new(Semaphore::new(cores)),
            lane: Arc::new(Semaphore::new(1)),
            lane_budget,
        }
    }

    /// A core slot, waited for until `deadline`.
    pub async fn core(&self, deadline: Option<Instant>) -> Result<OwnedSemaphorePermit, NotRun> {
        let acquire = Arc::clone(&self.cores).acquire_owned();
        let permit = match deadline {
            Some(deadline) => tokio::time::timeout_at(deadline.into(), acquire)
                .await
                .map_err(|_| NotRun::DeadlinePassed)?,
            None => acquire.await,
        };
        permit.map_err(|_| NotRun::Stopping)
    }

    /// A core slot or, when every one is taken, the lane (`true`):
    /// whichever comes first, a core when both are free.
    async fn core_or_lane(
        &self,
        deadline: Instant,
    ) -> Result<(OwnedSemaphorePermit, bool), NotRun> {
        let cores = Arc::clone(&self.cores).acquire_owned();
        let lane = Arc::clone(&self.lane).acquire_owned();
        let either = async {
            tokio::select! {
                biased;
                permit = cores => permit.map(|p| (p, false)),
                permit = lane => permit.map(|p| (p, true)),
            }
        };
        tokio::time::timeout_at(deadline.into(), either)
            .await
            .map_err(|_| NotRun::DeadlinePassed)?
            .map_err(|_| NotRun::Stopping)
    }

    /// Runs `work` (blocking, under `cancel`; without a deadline there,
    /// `DEFAULT_REQUEST_TIMEOUT` bounds the wait) in a core slot or, when
    /// none is free, first in the lane until a thread of it has spent the
    /// lane's CPU budget; an error of a run the lane cut short is dropped
    /// and the work runs again in a core slot.
    pub async fn run<T, E>(
        &self,
        cancel: &Cancel,
        work: impl Fn() -> Result<T, E> + Send + Sync + 'static,
    ) -> Result<Result<T, E>, NotRun>
    where
        T: Send + 'static,
        E: Send + 'static,
    {
        let deadline = cancel
            .deadline()
            .unwrap_or_else(|| Instant::now() + DEFAULT_REQUEST_TIMEOUT);
        let work = Arc::new(work);
        let (permit, in_lane) = self.core_or_lane(deadline).await?;
        if in_lane {
            let lane_token = cancel.with_cpu_budget(self.lane_budget);
            let outcome = run_blocking(permit, &lane_token, Arc::clone(&work)).await?;
            let cut = outcome.is_err() && lane_token.budget_spent() && !cancel.is_cancelled();
            if !cut {
                return finished(cancel, outcome);
            }
            let permit = self.core(Some(deadline)).await?;
            return finished(cancel, run_blocking(permit, cancel, work).await?);
        }
        finished(cancel, run_blocking(permit, cancel, work).await?)
    }
}

/// An outcome, unless the deadline cut it short.
fn finished<T, E>(cancel: &Cancel, outcome: Result<T, E>) -> Result<Result<T, E>, NotRun> {
    if outcome.is_err() && cancel.deadline_passed() {
        return Err(NotRun::DeadlinePassed);
    }
    Ok(outcome)
}

/// `work` on a blocking thread holding `permit`, under `cancel`; given up
/// at the token's deadline, when the answer is sent at once and the work
/// stops at its next checkpoint, keeping its slot until then.
async fn run_blocking<R: Send + 'static>(
    permit: OwnedSemaphorePermit,
    cancel: &Cancel,
    work: Arc<impl Fn() -> R + Send + Sync + 'static>,
) -> Result<R, NotRun> {
    let deadline = cancel.deadline();
    let cancel = cancel.clone();
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        crate::work::with_cancel(&cancel, || work())
    });
    let joined = match deadline {
        Some(deadline) => tokio::time::timeout_at(deadline.into(), task)
            .await
            .map_err(|_| NotRun::DeadlinePassed)?,
        None => task.await,
    };
    joined.map_err(NotRun::Failed)
}

/// A comparison's deadline: its client's (`client_timeout`) bounded by
/// `default`, else `default`; with the time it allows.
pub fn request_deadline(
    metadata: &tonic::metadata::MetadataMap,
    default: Duration,
) -> (Instant, Duration) {
    let allowed = client_timeout(metadata).map_or(default, |client| client.min(default));
    (Instant::now() + allowed, allowed)
}

/// The client's `grpc-timeout` header, brought a little forward (a
/// twentieth, at most 200 ms) so that the daemon's answer arrives first.
pub fn client_timeout(metadata: &tonic::metadata::MetadataMap) -> Option<Duration> {
    let client = metadata
        .get("grpc-timeout")
        .and_then(|value| value.to_str().ok())
        .and_then(parse_grpc_timeout)?;
    let margin = (client / 20).min(Duration::from_millis(200));
    Some(client.saturating_sub(margin))
}

/// A `grpc-timeout` header value: up to eight digits and a unit (`H`,
/// `M`, `S`, `m`, `u`, `n`), as the gRPC over HTTP/2 protocol spells it.
pub fn parse_grpc_timeout(text: &str) -> Option<Duration> {
    let unit = text.chars().last()?;
    let digits = text.get(..text.len().checked_sub(unit.len_utf8())?)?;
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        'H' => Duration::from_secs(amount.checked_mul(3600)?),
        'M' => Duration::from_secs(amount.checked_mul(60)?),
        'S' => Duration::from_secs(amount),
        'm' => Duration::from_millis(amount),
        'u' => Duration::from_micros(amount),
        'n' => Duration::from_nanos(amount),
        _ => return None,
    })
}

/// A duration as a deadline's message prints it: `2.5 s`, `10 min`.
pub fn spelled(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds >= 60.0 && duration.as_secs().is_multiple_of(60) {
        format!("{} min", duration.as_secs() / 60)
    } else {
        format!("{seconds:.1} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_timeouts_are_read_as_the_protocol_spells_them() {
        assert_eq!(parse_grpc_timeout("3S"), Some(Duration::from_secs(3)));
        assert_eq!(parse_grpc_timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(parse_grpc_timeout("2M"), Some(Duration::from_secs(120)));
        assert_eq!(parse_grpc_timeout("1H"), Some(Duration::from_secs(3600)));
        assert_eq!(
            parse_grpc_timeout("99999999n"),
            Some(Duration::from_nanos(99_999_999))
        );
        for bad in ["", "S", "123456789S", "3s", "-1S", "1.5S", "3é"] {
            assert_eq!(parse_grpc_timeout(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_client_deadline_is_brought_forward_and_bounded_by_the_default() {
        let mut metadata = tonic::metadata::MetadataMap::new();
        let default = Duration::from_secs(600);
        let (_, allowed) = request_deadline(&metadata, default);
        assert_eq!(allowed, default);
        metadata.insert("grpc-timeout", "10S".parse().expect("ascii"));
        let (_, allowed) = request_deadline(&metadata, default);
        assert_eq!(allowed, Duration::from_millis(9_800));
        metadata.insert("grpc-timeout", "1000m".parse().expect("ascii"));
        let (_, allowed) = request_deadline(&metadata, default);
        assert_eq!(allowed, Duration::from_millis(950));
        metadata.insert("grpc-timeout", "2H".parse().expect("ascii"));
        let (_, allowed) = request_deadline(&metadata, default);
        assert_eq!(allowed, default);
    }

    /// Burns CPU until its work is cancelled: `Err` then.
    fn spin_until_cancelled() -> Result<(), &'static str> {
        let mut x = 0u64;
        while !crate::work::cancelled() {
            for i in 0..10_000u64 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
            }
        }
        Err("cancelled")
    }

    #[test]
    fn the_lane_answers_cheap_work_and_sends_costly_work_to_a_core() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let slots = Arc::new(CpuSlots::new(1, Duration::from_millis(50)));
            let held = slots.core(None).await.expect("the one core");
            let cancel = Cancel::new().with_deadline(Instant::now() + Duration::from_secs(60));
            // Cheap work is answered in the lane while the core is held.
            let cheap = slots.run(&cancel, || Ok::<_, ()>(7)).await.expect("run");
            assert_eq!(cheap, Ok(7));
            // Costly work is cut after its budget and runs again on the
            // core once it is free: the second run is not cut.
            let runs = Arc::new(std::sync::atomic::AtomicUsize::new(0));
            let counted = Arc::clone(&runs);
            let costly = {
                let slots = Arc::clone(&slots);
                let cancel = cancel.clone();
                tokio::spawn(async move {
                    slots
                        .run(&cancel, move || {
                            match counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst) {
                                0 => spin_until_cancelled().map(|()| "lane"),
                                _ => Ok("core"),
                            }
                        })
                        .await
                })
            };
            while runs.load(std::sync::atomic::Ordering::SeqCst) == 0 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
            assert_eq!(
                runs.load(std::sync::atomic::Ordering::SeqCst),
                1,
                "waits for the core"
            );
            drop(held);
            let outcome = costly.await.expect("joined").expect("run");
            assert_eq!(outcome, Ok("core"));
            assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 2);
        });
    }

    #[test]
    fn work_past_its_deadline_is_not_run_or_given_up() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let slots = CpuSlots::new(1, Duration::from_secs(60));
            let cancel = Cancel::new().with_deadline(Instant::now() + Duration::from_millis(100));
            let outcome = slots.run(&cancel, spin_until_cancelled).await;
            assert!(
                matches!(outcome, Err(NotRun::DeadlinePassed)),
                "{outcome:?}"
            );
            // Queued past the deadline: never run.
            let _held = slots.core(None).await.expect("the core");
            let _lane = Arc::clone(&slots.lane)
                .acquire_owned()
                .await
                .expect("the lane");
            let cancel = Cancel::new().with_deadline(Instant::now() + Duration::from_millis(50));
            let outcome = slots
                .run(&cancel, || -> Result<(), ()> { panic!("never run") })
                .await;
            assert!(
                matches!(outcome, Err(NotRun::DeadlinePassed)),
                "{outcome:?}"
            );
        });
    }

    #[test]
    fn durations_are_spelled_for_people() {
        assert_eq!(spelled(Duration::from_secs(600)), "10 min");
        assert_eq!(spelled(Duration::from_millis(2_500)), "2.5 s");
        assert_eq!(spelled(Duration::from_secs(90)), "90.0 s");
    }
}
