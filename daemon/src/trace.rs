//! The daemon's `tracing` subscriber: the phase timings layer always
//! (`timings.rs`: `--timings` and `status`), and, when `SHIPGATE_LOG` holds
//! a filter (`SHIPGATE_LOG=debug`, `SHIPGATE_LOG=shipgate::phase=info`),
//! every span it lets through printed on stderr as it closes, with its
//! busy and idle time. Unset, nothing more is printed: stderr is part of
//! what callers and tests read.

use tracing_subscriber::filter::{EnvFilter, LevelFilter, Targets};
use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::Layer;

/// The environment variable holding the log filter.
pub const LOG_ENV: &str = "SHIPGATE_LOG";

/// Installs the process's subscriber; call once, first thing in `main`. A
/// filter that does not parse is reported and logging stays off (the
/// daemon's work does not depend on it).
pub fn install() {
    let log = match std::env::var(LOG_ENV) {
        Ok(raw) if !raw.trim().is_empty() => match EnvFilter::try_new(raw.trim()) {
            Ok(filter) => Some(
                tracing_subscriber::fmt::layer()
                    .with_writer(std::io::stderr)
                    .with_span_events(FmtSpan::CLOSE)
                    .with_filter(filter),
            ),
            Err(err) => {
                eprintln!("shipgate-daemon: {LOG_ENV}={raw:?} is not a log filter ({err}); logging stays off");
                None
            }
        },
        _ => None,
    };
    // Only phase spans reach the timings layer: the libraries' spans and
    // events stay disabled unless the log asks for them.
    let timings = crate::timings::TimingsLayer
        .with_filter(Targets::new().with_target(crate::timings::TARGET, LevelFilter::INFO));
    let subscriber = tracing_subscriber::registry().with(timings).with(log);
    if let Err(err) = tracing::subscriber::set_global_default(subscriber) {
        eprintln!("shipgate-daemon: cannot install the tracing subscriber: {err}");
    }
}
