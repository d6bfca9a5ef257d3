//! The circuit breaker in front of the remote tier: after a few failures
//! in a row the remote is not asked at all for a while, so a remote that
//! is down costs a request a few deadlines once, not one per lookup.

use std::time::{Duration, Instant};

/// Failures in a row that open the circuit.
pub(super) const FAILURES_TO_OPEN: u32 = 3;
/// How long the circuit stays open the first time; each failed probe after
/// it doubles this, up to `LONGEST_OPEN`.
const FIRST_OPEN: Duration = Duration::from_secs(30);
const LONGEST_OPEN: Duration = Duration::from_secs(300);

#[derive(Debug, Default)]
pub(super) struct Breaker {
    failures_in_a_row: u32,
    open_until: Option<Instant>,
    /// How long the circuit opened for last time (0 when it never did).
    last_open: Duration,
    /// The last failure, as `status` says it.
    last_error: String,
}

/// What `status` says of the breaker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum BreakerState {
    Closed,
    /// Not asked until this many seconds from now.
    Open {
        seconds_left: u64,
    },
}

impl Breaker {
    /// Whether the remote may be asked now. Once an open circuit's time is
    /// up the next calls probe it: one success closes it, one failure opens
    /// it again for longer.
    pub(super) fn allows(&self, now: Instant) -> bool {
        self.open_until.is_none_or(|until| now >= until)
    }

    pub(super) fn succeeded(&mut self) {
        self.failures_in_a_row = 0;
        self.open_until = None;
        self.last_open = Duration::ZERO;
    }

    pub(super) fn failed(&mut self, now: Instant, error: String) {
        self.failures_in_a_row = self.failures_in_a_row.saturating_add(1);
        self.last_error = error;
        let probing = self.open_until.is_some_and(|until| now >= until);
        if probing || self.failures_in_a_row >= FAILURES_TO_OPEN {
            let open_for = if self.last_open.is_zero() {
                FIRST_OPEN
            } else {
                (self.last_open * 2).min(LONGEST_OPEN)
            };
            self.last_open = open_for;
            self.open_until = Some(now + open_for);
        }
    }

    pub(super) fn state(&self, now: Instant) -> BreakerState {
        match self.open_until {
            Some(until) if now < until => BreakerState::Open {
                seconds_left: until.duration_since(now).as_secs().max(1),
            },
            _ => BreakerState::Closed,
        }
    }

    pub(super) fn last_error(&self) -> &str {
        &self.last_error
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_failures_in_a_row_open_it_and_a_success_between_resets_the_count() {
        let now = Instant::now();
        let mut breaker = Breaker::default();
        breaker.failed(now, "refused".into());
        breaker.failed(now, "refused".into());
        breaker.succeeded();
        breaker.failed(now, "refused".into());
        breaker.failed(now, "refused".into());
        assert!(breaker.allows(now));
        breaker.failed(now, "timed out".into());
        assert!(!breaker.allows(now));
        assert_eq!(breaker.state(now), BreakerState::Open { seconds_left: 30 });
        assert_eq!(breaker.last_error(), "timed out");
    }

    #[test]
    fn an_open_circuit_is_probed_when_its_time_is_up_and_a_failed_probe_doubles_it() {
        let now = Instant::now();
        let mut breaker = Breaker::default();
        for _ in 0..FAILURES_TO_OPEN {
            breaker.failed(now, "refused".into());
        }
        let later = now + FIRST_OPEN;
        assert!(breaker.allows(later));
        breaker.failed(later, "refused".into());
        assert!(!breaker.allows(later + FIRST_OPEN));
        assert_eq!(
            breaker.state(later),
            BreakerState::Open { seconds_left: 60 }
        );
        let probe = later + FIRST_OPEN * 2;
        assert!(breaker.allows(probe));
        breaker.succeeded();
        assert_eq!(breaker.state(probe), BreakerState::Closed);
        // Closed again: the next open is the first one's length.
        for _ in 0..FAILURES_TO_OPEN {
            breaker.failed(probe, "refused".into());
        }
        assert_eq!(
            breaker.state(probe),
            BreakerState::Open { seconds_left: 30 }
        );
    }

    #[test]
    fn the_open_time_stops_growing_at_its_bound() {
        let mut now = Instant::now();
        let mut breaker = Breaker::default();
        for _ in 0..FAILURES_TO_OPEN {
            breaker.failed(now, "refused".into());
        }
        for _ in 0..10 {
            now += LONGEST_OPEN;
            breaker.failed(now, "refused".into());
        }
        assert_eq!(
            breaker.state(now),
            BreakerState::Open {
                seconds_left: LONGEST_OPEN.as_secs()
            }
        );
    }
}
