//! The wall time of each phase of the daemon's work, read from the
//! engine's `tracing` spans (`phase!`): per request for `--timings`, and
//! summed since the daemon started for `status`.
//!
//! A phase's time is its own: a phase run inside another (facts read
//! while a side is listed, or while a change's scopes are derived) is
//! taken out of the outer one, so the phases of one comparison add up to
//! its total. Phases nest on the thread that runs the request; work a
//! phase hands to other threads (parse workers, the head's graph built
//! by `Engine::read_and_build`) is inside the wall time of the phase that
//! waits for it, never counted twice.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tracing::span;
use tracing::Subscriber;
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

/// The target of phase spans: what the timings layer listens to.
pub const TARGET: &str = "shipgate::phase";

/// The phases in the order a comparison runs them (the order they are
/// printed in), then the history walk's.
pub const PHASES: [&str; 10] = [
    "resolve",
    "list",
    "facts",
    "derivation",
    "graph",
    "compare",
    "render",
    // Facts a request parsed, written once it is answered
    // (`engine/write_behind.rs`).
    "store",
    "history_chain",
    "history_step",
];

/// A phase span: `let _phase = phase!("facts").entered();`.
macro_rules! phase {
    ($name:literal) => {
        ::tracing::info_span!(target: $crate::timings::TARGET, $name)
    };
}
pub(crate) use phase;

/// One phase's time.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseTime {
    pub phase: &'static str,
    /// How many times it ran.
    pub count: u64,
    pub wall: Duration,
}

/// One request's phases, as measured by `measured`.
#[derive(Debug, Clone, Default)]
pub struct Timings {
    /// Each phase that ran, in `PHASES` order.
    pub phases: Vec<PhaseTime>,
    /// The whole request.
    pub total: Duration,
    /// The answer was one the engine kept: nothing after resolving ran.
    pub answer_kept: bool,
}

/// A phase entered on this thread and not yet left.
struct Open {
    phase: &'static str,
    entered: Instant,
    /// Wall time of the phases run inside it, taken out of its own.
    nested: Duration,
}

/// What the current request on this thread has measured so far.
#[derive(Default)]
struct Collected {
    phases: BTreeMap<usize, (u64, Duration)>,
    answer_kept: bool,
}

thread_local! {
    static OPEN: RefCell<Vec<Open>> = const { RefCell::new(Vec::new()) };
    static REQUEST: RefCell<Option<Collected>> = const { RefCell::new(None) };
}

/// Every phase's count and own time since the process started, by its
/// index in `PHASES`.
static TOTALS: Mutex<BTreeMap<usize, (u64, Duration)>> = Mutex::new(BTreeMap::new());

fn add(into: &mut BTreeMap<usize, (u64, Duration)>, index: usize, own: Duration) {
    let entry = into.entry(index).or_default();
    entry.0 += 1;
    entry.1 += own;
}

fn listed(phases: &BTreeMap<usize, (u64, Duration)>) -> Vec<PhaseTime> {
    phases
        .iter()
        .filter_map(|(index, (count, wall))| {
            PHASES.get(*index).map(|phase| PhaseTime {
                phase,
                count: *count,
                wall: *wall,
            })
        })
        .collect()
}

/// Runs `work` (a request, on this thread) and measures its phases.
pub fn measured<T>(work: impl FnOnce() -> T) -> (T, Timings) {
    let started = Instant::now();
    let outer = REQUEST.with(|request| request.borrow_mut().replace(Collected::default()));
    let value = work();
    let collected = REQUEST
        .with(|request| std::mem::replace(&mut *request.borrow_mut(), outer))
        .unwrap_or_default();
    let timings = Timings {
        phases: listed(&collected.phases),
        total: started.elapsed(),
        answer_kept: collected.answer_kept,
    };
    (value, timings)
}

/// Marks the current request as answered from the kept answers.
pub fn answer_kept() {
    REQUEST.with(|request| {
        if let Some(collected) = request.borrow_mut().as_mut() {
            collected.answer_kept = true;
        }
    });
}

/// Each phase's count and own time since the process started, in
/// `PHASES` order (phases that never ran are absent).
pub fn totals() -> Vec<PhaseTime> {
    // Plain sums: a panic elsewhere cannot leave them half-written.
    let totals = TOTALS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    listed(&totals)
}

/// The `tracing` layer that times phase spans (install it filtered to
/// `TARGET`, as `crate::trace::install` does).
#[derive(Debug, Default)]
pub struct TimingsLayer;

impl<S> Layer<S> for TimingsLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_enter(&self, id: &span::Id, ctx: Context<'_, S>) {
        let Some(phase) = phase_of(id, &ctx) else {
            return;
        };
        OPEN.with(|open| {
            open.borrow_mut().push(Open {
                phase,
                entered: Instant::now(),
                nested: Duration::ZERO,
            })
        });
    }

    fn on_exit(&self, id: &span::Id, ctx: Context<'_, S>) {
        let Some(phase) = phase_of(id, &ctx) else {
            return;
        };
        let Some((index, own)) = OPEN.with(|open| left(&mut open.borrow_mut(), phase)) else {
            return;
        };
        REQUEST.with(|request| {
            if let Some(collected) = request.borrow_mut().as_mut() {
                add(&mut collected.phases, index, own);
            }
        });
        let mut totals = TOTALS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        add(&mut totals, index, own);
    }
}

/// The phase a span times, if it is one.
fn phase_of<S>(id: &span::Id, ctx: &Context<'_, S>) -> Option<&'static str>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    let metadata = ctx.metadata(id)?;
    (metadata.target() == TARGET).then_some(metadata.name())
}

/// Closes the innermost open phase (spans are left in the order they were
/// entered on a thread): its own time, and its wall time added to the
/// phase it ran inside. `None` for a phase not in `PHASES` or a stack out
/// of step (a span left on another thread than it was entered on).
fn left(open: &mut Vec<Open>, phase: &'static str) -> Option<(usize, Duration)> {
    if open.last().map(|top| top.phase) != Some(phase) {
        return None;
    }
    let closed = open.pop()?;
    let wall = closed.entered.elapsed();
    if let Some(outer) = open.last_mut() {
        outer.nested += wall;
    }
    let index = PHASES.iter().position(|known| *known == phase)?;
    Some((index, wall.saturating_sub(closed.nested)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::layer::SubscriberExt;

    #[test]
    fn phases_are_measured_per_request_with_nested_time_taken_out() {
        let subscriber = tracing_subscriber::registry().with(TimingsLayer);
        tracing::subscriber::with_default(subscriber, || {
            let ((), timings) = measured(|| {
                let list = phase!("list").entered();
                phase!("facts").in_scope(|| std::thread::sleep(Duration::from_millis(20)));
                drop(list);
                phase!("facts").in_scope(|| ());
                // Not a phase: a span of another target is not timed.
                tracing::info_span!("reach").in_scope(|| ());
            });
            let names: Vec<(&str, u64)> = timings
                .phases
                .iter()
                .map(|phase| (phase.phase, phase.count))
                .collect();
            assert_eq!(names, vec![("list", 1), ("facts", 2)]);
            let list = &timings.phases[0];
            let facts = &timings.phases[1];
            // The 20 ms slept inside `facts` are facts', not list's too:
            // own times are disjoint, so they fit in the total.
            assert!(facts.wall >= Duration::from_millis(20));
            assert!(timings.total >= facts.wall + list.wall);
            assert!(!timings.answer_kept);

            let ((), kept) = measured(|| {
                phase!("resolve").in_scope(answer_kept);
            });
            assert!(kept.answer_kept);
            assert_eq!(kept.phases.len(), 1);
            assert_eq!(kept.phases[0].phase, "resolve");
        });
        // Outside a request nothing is collected, but totals still are.
        let phases: Vec<&str> = totals().iter().map(|phase| phase.phase).collect();
        assert!(phases.contains(&"facts"));
    }
}
