//! `shipgate-daemon`: serves comparisons over gRPC, or runs one in-process.

use clap::{Parser, Subcommand};
use shipgate_daemon::cli::{parse_duration, DiffArgs, RemoteCacheArgs};
use shipgate_daemon::engine::Engine;
use shipgate_daemon::server::{open_store, serve, ServeOptions};
use shipgate_proto::cli::InventoryArgs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Parser)]
#[command(
    name = "shipgate-daemon",
    version,
    about = "Indexes Python repositories and compares their AI agents' capabilities between commits",
    long_about = "Indexes Python repositories that build OpenAI Agents SDK or Google ADK agents and \
answers, for any two commits, how each agent's tools, handoffs and sub-agents changed. It reads git \
objects only and never runs the code under review.\n\nUsually started on demand by `shipgate-client`; \
run `serve` yourself to share one daemon between CI jobs, or `diff` for a one-shot comparison."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve gRPC (shipgate.v1 and grpc.health.v1) until stopped.
    #[command(
        after_help = "Examples:\n  shipgate-daemon serve\n  shipgate-daemon serve --idle-timeout 10m\n  \
shipgate-daemon serve --tcp 127.0.0.1:7733 --token-file /run/secrets/shipgate-token"
    )]
    Serve {
        /// Unix socket to listen on [default: derived from the data directory]
        #[arg(long)]
        socket: Option<PathBuf>,
        /// Listen on TCP instead (requires --token-file)
        #[arg(long)]
        tcp: Option<std::net::SocketAddr>,
        /// File holding the bearer token TCP clients must send
        #[arg(long)]
        token_file: Option<PathBuf>,
        /// Store directory [default: $SHIPGATE_DATA_DIR or ~/.cache/shipgate]
        #[arg(long)]
        data_dir: Option<PathBuf>,
        /// Exit after this long without requests (30s, 10m, 1h)
        #[arg(long, value_parser = parse_duration)]
        idle_timeout: Option<std::time::Duration>,
        /// A comparison's deadline when its client sets no grpc-timeout
        /// (30s, 10m, 1h); past it the work stops and the answer is
        /// DEADLINE_EXCEEDED [default: 10m]
        #[arg(long, value_parser = parse_duration)]
        request_timeout: Option<std::time::Duration>,
        #[command(flatten)]
        remote: RemoteCacheArgs,
    },
    /// Run one comparison in-process (same flags and output as the client's diff).
    #[command(
        after_help = "Examples:\n  shipgate-daemon diff --application --workspace . --base main --head HEAD --json\n  \
shipgate-daemon diff --application --base origin/main --format markdown > comment.md\n  \
shipgate-daemon diff --application --base origin/main --format sarif > shipgate.sarif\n  \
shipgate-daemon diff --application --base origin/main --format github   # annotations in a GitHub Actions step\n\n\
Annotations are printed only with --format github: GITHUB_ACTIONS=true changes no output."
    )]
    Diff {
        #[command(flatten)]
        args: DiffArgs,
        /// Store directory [default: $SHIPGATE_DATA_DIR or ~/.cache/shipgate]
        #[arg(long)]
        data_dir: Option<PathBuf>,
        #[command(flatten)]
        remote: RemoteCacheArgs,
    },
    /// List every agent of a commit in-process (same flags and output as the client's inventory).
    #[command(
        after_help = "Examples:\n  shipgate-daemon inventory --workspace .\n  \
shipgate-daemon inventory --at v1.2 --format cyclonedx > agents.cdx.json"
    )]
    Inventory {
        #[command(flatten)]
        args: InventoryArgs,
        /// Store directory [default: $SHIPGATE_DATA_DIR or ~/.cache/shipgate]
        #[arg(long)]
        data_dir: Option<PathBuf>,
        #[command(flatten)]
        remote: RemoteCacheArgs,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Phase timings, and spans on stderr when SHIPGATE_LOG asks.
    shipgate_daemon::trace::install();
    // The engine's identity digests its own executable (tens of MB):
    // begun now, beside the work, it is ready when the first answer is
    // rendered instead of adding its time to it.
    shipgate_daemon::compare::document::prepare_engine_identity();
    match cli.command {
        Command::Serve {
            socket,
            tcp,
            token_file,
            data_dir,
            idle_timeout,
            request_timeout,
            remote,
        } => {
            let remote = match remote.options() {
                Ok(remote) => remote,
                Err(err) => {
                    eprintln!("shipgate-daemon: {err}");
                    return ExitCode::from(2);
                }
            };
            let options = ServeOptions {
                data_dir: data_dir.unwrap_or_else(shipgate_proto::locations::default_data_dir),
                socket,
                tcp,
                token_file,
                idle_timeout,
                request_timeout: request_timeout
                    .unwrap_or(shipgate_daemon::service::admission::DEFAULT_REQUEST_TIMEOUT),
                remote,
            };
            limit_malloc_arenas();
            let runtime = match tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .thread_stack_size(shipgate_daemon::WORK_STACK_BYTES)
                // CPU work is bounded by the service's slots (one per
                // core); the pool only needs room for those and for short
                // blocking calls (watch, unwatch).
                .max_blocking_threads(16)
                .build()
            {
                Ok(runtime) => runtime,
                Err(err) => {
                    eprintln!("shipgate-daemon: cannot start the async runtime: {err}");
                    return ExitCode::from(1);
                }
            };
            let served = runtime.block_on(serve(options));
            // Blocking work still running (a request past its client) is
            // not waited for: the answer is no one's any more.
            runtime.shutdown_timeout(std::time::Duration::from_secs(1));
            match served {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) => {
                    eprintln!("shipgate-daemon: {err}");
                    ExitCode::from(1)
                }
            }
        }
        // The work runs on a thread with the engine's fixed stack, as it
        // does in a serving daemon.
        Command::Diff {
            args,
            data_dir,
            remote,
        } => {
            if args.application {
                on_work_thread("comparison", move || {
                    one_shot_diff(&args, data_dir, &remote)
                })
            } else {
                on_work_thread("host comparison", move || {
                    one_shot_host_diff(&args, data_dir, &remote)
                })
            }
        }
        Command::Inventory {
            args,
            data_dir,
            remote,
        } => on_work_thread("inventory", move || {
            one_shot_inventory(&args, data_dir, &remote)
        }),
    }
}

/// `work` on a thread with the engine's stack; 1 when it cannot start or
/// panics.
fn on_work_thread(what: &str, work: impl FnOnce() -> ExitCode + Send + 'static) -> ExitCode {
    std::thread::Builder::new()
        .name(format!("shipgate-{what}"))
        .stack_size(shipgate_daemon::WORK_STACK_BYTES)
        .spawn(work)
        .map_or_else(
            |err| {
                eprintln!("shipgate-daemon: cannot start the {what} thread: {err}");
                ExitCode::from(1)
            },
            |handle| {
                handle.join().unwrap_or_else(|_| {
                    eprintln!("shipgate-daemon: internal error: the {what} panicked");
                    ExitCode::from(1)
                })
            },
        )
}

/// What keeps a one-shot's store open: its lock, and the temporary
/// directory it is in when the data directory was busy.
struct OneShotStore {
    _lock: shipgate_daemon::store::DataDirLock,
    _temporary: Option<tempfile::TempDir>,
    cache: Arc<shipgate_daemon::store::Cache>,
}

/// How long a one-shot run waits, once its answer is printed, for a remote
/// cache's queued writes before it ends.
const ONE_SHOT_REMOTE_DRAIN: std::time::Duration = std::time::Duration::from_secs(10);

impl Drop for OneShotStore {
    /// The answer was printed before this: it is out before the wait.
    fn drop(&mut self) {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        self.cache.drain_remote(ONE_SHOT_REMOTE_DRAIN);
    }
}

/// The store of `data_dir` (default: the usual one); when a daemon holds
/// it, a temporary one instead (same answer, cold). A store that cannot be
/// opened is said, and is exit 1.
fn open_one_shot_store(
    data_dir: Option<PathBuf>,
    remote: &RemoteCacheArgs,
) -> Result<(OneShotStore, Arc<shipgate_daemon::store::Cache>), ExitCode> {
    let data_dir = data_dir.unwrap_or_else(shipgate_proto::locations::default_data_dir);
    let remote = remote.options().map_err(|err| {
        eprintln!("shipgate-daemon: {err}");
        ExitCode::from(2)
    })?;
    open_store_or_temporary(&data_dir, remote.as_ref()).map_err(|err| {
        eprintln!("shipgate-daemon: {err}");
        ExitCode::from(1)
    })
}

fn open_store_or_temporary(
    data_dir: &std::path::Path,
    remote: Option<&shipgate_daemon::store::RemoteOptions>,
) -> Result<(OneShotStore, Arc<shipgate_daemon::store::Cache>), String> {
    match open_store(data_dir, remote) {
        Ok((lock, cache)) => Ok((
            OneShotStore {
                _lock: lock,
                _temporary: None,
                cache: Arc::clone(&cache),
            },
            cache,
        )),
        Err(err) if err.starts_with("--remote-cache") => Err(err),
        Err(busy) => {
            eprintln!("shipgate-daemon: {busy}; using a temporary store for this run");
            // A fresh private directory (0700, an unpredictable name): a
            // path another user could have made first is never taken.
            let dir = tempfile::Builder::new()
                .prefix("shipgate-oneshot-")
                .tempdir()
                .map_err(|err| format!("cannot create a temporary store: {err}"))?;
            let (lock, cache) = open_store(dir.path(), remote)?;
            Ok((
                OneShotStore {
                    _lock: lock,
                    _temporary: Some(dir),
                    cache: Arc::clone(&cache),
                },
                cache,
            ))
        }
    }
}

/// One inventory against the store (a temporary one when a daemon holds
/// it), printed as asked.
fn one_shot_inventory(
    args: &InventoryArgs,
    data_dir: Option<PathBuf>,
    remote: &RemoteCacheArgs,
) -> ExitCode {
    if args.max_python_files == Some(0) {
        eprintln!("Error: Invalid value for --max-python-files: must be at least 1.");
        return ExitCode::from(2);
    }
    let format = shipgate_daemon::inventory::InventoryFormat::from_wire(args.wire_format());
    let request = shipgate_daemon::engine::InventoryRequest {
        workspace: std::path::absolute(&args.workspace).unwrap_or_else(|_| args.workspace.clone()),
        at: args.at.clone(),
        scope: args.scope.clone(),
        max_python_files: args.max_python_files,
        format,
    };
    let (_store, cache) = match open_one_shot_store(data_dir, remote) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let engine = Engine::new(Arc::clone(&cache));
    let outcome = engine.inventory(&request);
    let _ = cache.flush();
    std::mem::forget(engine);
    match outcome {
        Ok(outcome) => {
            print!("{}", outcome.rendered.as_deref().unwrap_or(&outcome.json));
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("{}", err.human_line());
            ExitCode::from(2)
        }
    }
}

/// The cancellation of a one-shot command's work: `--timeout` past now.
fn timeout_cancel(timeout: Option<std::time::Duration>) -> shipgate_daemon::work::Cancel {
    match timeout {
        Some(timeout) => {
            shipgate_daemon::work::Cancel::new().with_deadline(std::time::Instant::now() + timeout)
        }
        None => shipgate_daemon::work::Cancel::new(),
    }
}

/// Runs one host comparison (`diff` without `--application`) against
/// the store, as `one_shot_diff` does a comparison of applications.
fn one_shot_host_diff(
    args: &DiffArgs,
    data_dir: Option<PathBuf>,
    remote: &RemoteCacheArgs,
) -> ExitCode {
    let request = match shipgate_daemon::cli::host_diff_request(args) {
        Ok(request) => request,
        Err(err) => {
            eprintln!("{}", err.human_line());
            return ExitCode::from(2);
        }
    };
    let (_store, cache) = match open_one_shot_store(data_dir, remote) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let engine = Engine::new(Arc::clone(&cache));
    let cancel = timeout_cancel(args.timeout);
    let outcome = shipgate_daemon::work::with_cancel(&cancel, || engine.host_diff(&request));
    let _ = cache.flush();
    match outcome {
        Ok(outcome) => {
            print!("{}", outcome.rendered);
            ExitCode::SUCCESS
        }
        Err(_) if cancel.deadline_passed() => {
            eprintln!(
                "shipgate-daemon: the host comparison did not finish within --timeout {}; its work was stopped. Run again with a longer --timeout.",
                shipgate_daemon::service::admission::spelled(args.timeout.unwrap_or_default())
            );
            ExitCode::from(1)
        }
        Err(err) => {
            eprintln!("{}", err.human_line());
            ExitCode::from(2)
        }
    }
}

/// Runs one comparison against the store; when a daemon holds that store,
/// against a temporary one instead (same answer, cold).
fn one_shot_diff(args: &DiffArgs, data_dir: Option<PathBuf>, remote: &RemoteCacheArgs) -> ExitCode {
    let (request, policy) = match shipgate_daemon::cli::diff_request(args)
        .and_then(|request| Ok((request, shipgate_daemon::cli::policy_request(args)?)))
    {
        Ok(asked) => asked,
        Err(err) => {
            eprintln!("{}", err.human_line());
            return ExitCode::from(2);
        }
    };
    let (_store, cache) = match open_one_shot_store(data_dir, remote) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let engine = Engine::new(Arc::clone(&cache));
    // `--timeout`: the work stops at its next checkpoint past it.
    let cancel = timeout_cancel(args.timeout);
    let (outcome, timings) = shipgate_daemon::timings::measured(|| {
        shipgate_daemon::work::with_cancel(&cancel, || {
            let outcome = engine.diff(&request)?;
            let verdict =
                shipgate_daemon::policy::verdict(&policy, &request.workspace, &outcome.document)?;
            Ok::<_, shipgate_daemon::error::DiffError>((outcome, verdict))
        })
    });
    if outcome.is_err() && cancel.deadline_passed() {
        let allowed = args.timeout.unwrap_or_default();
        eprintln!(
            "shipgate-daemon: the comparison did not finish within --timeout {}; its work was stopped. Run again with a longer --timeout.",
            shipgate_daemon::service::admission::spelled(allowed)
        );
        return ExitCode::from(1);
    }
    let _ = cache.flush();
    // The process ends here: the engine's memo of decoded facts (hundreds
    // of megabytes on a large repository) is left to the OS rather than
    // freed piece by piece. The store was flushed above; its lock and its
    // other handle still go the ordinary way.
    std::mem::forget(engine);
    match outcome {
        Ok((outcome, verdict)) => {
            print!("{}", outcome.rendered.as_deref().unwrap_or(&outcome.json));
            if args.timings {
                use std::io::Write;
                // The answer first, then the timings after it.
                let _ = std::io::stdout().flush();
                eprintln!(
                    "{}",
                    shipgate_proto::timings_line(
                        &shipgate_daemon::service::phase_timings(&timings),
                        timings.answer_kept
                    )
                );
            }
            match verdict {
                Some(verdict) => {
                    use std::io::Write;
                    let _ = std::io::stdout().flush();
                    eprint!("{}", verdict.report());
                    ExitCode::from(verdict.exit_code())
                }
                None => ExitCode::SUCCESS,
            }
        }
        Err(err) => {
            eprintln!("{}", err.human_line());
            ExitCode::from(2)
        }
    }
}

/// glibc gives every thread that allocates its own arena, and keeps what
/// each arena grew to: under many concurrent requests a daemon's RSS grew
/// and stayed grown. A few arenas serve the daemon's bounded CPU slots.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; called before any
    // other thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 4);
    }
}
