//! The `shipgate.v1` gRPC API shared by the daemon and the client.

#![allow(clippy::all, missing_docs)]

pub mod v1 {
    tonic::include_proto!("shipgate.v1");
}

/// The encoded `FileDescriptorSet` of `shipgate/v1/shipgate.proto`, made by
/// `build.rs` from the same compilation as the code: what the daemon's
/// reflection service describes.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/shipgate_descriptor.bin"));

pub mod cli;
pub mod errors;
pub mod policy;

/// The longest string a request field may hold (refs, paths, names, in
/// bytes). Real ones are far shorter; a longer one is refused as bad input
/// on both sides, since echoing it back in an error overflows the HTTP/2
/// header limit and surfaces as a bare protocol error.
pub const MAX_FIELD_BYTES: usize = 4096;

pub mod locations;

/// The rate of a walk (`done` items in `elapsed`) and the whole seconds
/// left at that rate, rounded up: `(0.0, 0)` until an item is done. The
/// daemon sends both with each history progress event; a client facing a
/// daemon that sends neither computes them here.
pub fn rate_and_time_left(done: u64, total: u64, elapsed: std::time::Duration) -> (f64, u64) {
    let seconds = elapsed.as_secs_f64();
    let rate = if seconds > 0.0 {
        done as f64 / seconds
    } else {
        0.0
    };
    let left = total.saturating_sub(done);
    let seconds_left = if rate > 0.0 {
        // A saturating cast: an absurd estimate is u64::MAX.
        (left as f64 / rate).ceil() as u64
    } else {
        0
    };
    (rate, seconds_left)
}

/// The `--timings` line both binaries print on stderr after the answer:
/// `shipgate: timings: resolve 1.2 ms, …, total 1051.0 ms`, with
/// ` (answer kept)` when the daemon answered from its kept answers (the
/// phases after resolving did not run, so they are absent).
pub fn timings_line(timings: &[v1::PhaseTiming], answer_kept: bool) -> String {
    let phases: Vec<String> = timings
        .iter()
        .map(|timing| format!("{} {:.1} ms", timing.phase, timing.millis))
        .collect();
    let kept = if answer_kept { " (answer kept)" } else { "" };
    format!("shipgate: timings: {}{kept}", phases.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timings_line_names_each_phase_in_order() {
        let timing = |phase: &str, millis: f64| v1::PhaseTiming {
            phase: phase.to_string(),
            millis,
            count: 1,
        };
        assert_eq!(
            timings_line(&[timing("resolve", 1.24), timing("total", 3.0)], false),
            "shipgate: timings: resolve 1.2 ms, total 3.0 ms"
        );
        assert_eq!(
            timings_line(&[timing("resolve", 0.5), timing("total", 0.76)], true),
            "shipgate: timings: resolve 0.5 ms, total 0.8 ms (answer kept)"
        );
    }
}
