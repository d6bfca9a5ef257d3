//! Running the daemon: one per data directory (a lock), a Unix socket by
//! default (any `:authority` accepted: `authority.rs`) or TCP with a bearer
//! token when asked (`token.rs`, for `shipgate.v1` only), the health and
//! reflection services beside ours, and a graceful stop (SIGTERM, Ctrl-C,
//! `Shutdown`, or idleness) that flushes the store.

mod authority;
mod malformed;
mod token;

use crate::engine::Engine;
use crate::index::Indexer;
use crate::service::{Activity, ShipgateService};
use crate::store::{Cache, DataDirLock, KvStore, RemoteOptions, SledStore, TieredStore};
use shipgate_proto::locations;
use shipgate_proto::v1::shipgate_server::ShipgateServer;
use std::net::SocketAddr;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use token::BearerToken;
use tokio::sync::watch;
use tokio_stream::StreamExt;

#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub data_dir: PathBuf,
    /// Unix socket path; the default is derived from the data directory.
    pub socket: Option<PathBuf>,
    /// Listen on TCP instead; requires `token_file`.
    pub tcp: Option<SocketAddr>,
    pub token_file: Option<PathBuf>,
    /// Exit after this long without a request.
    pub idle_timeout: Option<Duration>,
    /// A comparison's deadline when its client sets none.
    pub request_timeout: Duration,
    /// A remote cache shared with other daemons (issue 44).
    pub remote: Option<RemoteOptions>,
}

/// Opens the store of a data directory for one process: lock first, so a
/// second daemon refuses before touching anything; behind it the remote
/// tier when one is given (an unusable remote URL is refused here, before
/// any work).
pub fn open_store(
    data_dir: &Path,
    remote: Option<&RemoteOptions>,
) -> Result<(DataDirLock, Arc<Cache>), String> {
    let remote = remote
        .map(|options| {
            crate::store::remote::RemoteTier::open(options)
                .map_err(|err| format!("--remote-cache: {err}"))
        })
        .transpose()?;
    let lock = DataDirLock::acquire(data_dir)?;
    let store = SledStore::open(data_dir)?;
    let kv: Box<dyn KvStore> = match remote {
        Some(remote) => Box::new(TieredStore::new(store, remote)),
        None => Box::new(store),
    };
    Ok((lock, Arc::new(Cache::new(kv))))
}

pub async fn serve(options: ServeOptions) -> Result<(), String> {
    let (_lock, cache) = open_store(&options.data_dir, options.remote.as_ref())?;
    // Derived once the store exists, so the name comes from its canonical
    // path; an unsafe directory is refused before any work starts.
    let socket = match &options.tcp {
        Some(_) => None,
        None => Some(
            options
                .socket
                .clone()
                .unwrap_or_else(|| locations::default_socket(&options.data_dir)),
        ),
    };
    if let Some(socket) = &socket {
        prepare_socket_dir(socket)?;
    }
    let engine = Arc::new(Engine::new(Arc::clone(&cache)));
    let indexer = Indexer::start(Arc::clone(&engine));
    let activity = Arc::new(Activity::new());
    let (shutdown_tx, shutdown_rx) = watch::channel(false);

    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    health_reporter
        .set_serving::<ShipgateServer<ShipgateService>>()
        .await;

    let token = match (&options.tcp, &options.token_file) {
        (Some(_), Some(file)) => Some(BearerToken::read(file)?),
        (Some(_), None) => return Err("--tcp requires --token-file: a TCP daemon only answers clients that send its bearer token".into()),
        (None, _) => None,
    };
    let listen = match (&options.tcp, &socket) {
        (Some(addr), _) => addr.to_string(),
        (None, Some(socket)) => socket.display().to_string(),
        (None, None) => String::new(),
    };
    let service = ShipgateService {
        engine,
        indexer,
        activity: Arc::clone(&activity),
        listen: listen.clone(),
        shutdown: shutdown_tx,
        cpu_slots: crate::service::admission::cpu_slots(),
        request_timeout: options.request_timeout,
    };
    let (reflection_v1, reflection_v1alpha) = reflection_services()?;
    // Health and reflection answer without the token (they name no
    // repository; a probe or a generic client asks them first); only the
    // shipgate.v1 service is behind it.
    let router = tonic::transport::Server::builder()
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(malformed::MalformedAsInvalid(
            ShipgateServer::with_interceptor(service, move |request| {
                token::check(token.as_ref(), request)
            }),
        ));
    let stop = async move {
        stop_signal(shutdown_rx, Arc::clone(&activity), options.idle_timeout).await;
        // Requests in flight stop at their next checkpoint and answer
        // UNAVAILABLE "the daemon is stopping", within the stop's grace.
        crate::work::stop_all();
        bound_the_stop();
    };

    let result = if let Some(addr) = options.tcp {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|err| format!("cannot listen on {addr}: {err}"))?;
        let bound = listener
            .local_addr()
            .map_or_else(|_| addr.to_string(), |a| a.to_string());
        eprintln!(
            "shipgate-daemon {} listening on {bound} (pid {})",
            crate::VERSION,
            std::process::id()
        );
        router
            .serve_with_incoming_shutdown(
                tokio_stream::wrappers::TcpListenerStream::new(listener),
                stop,
            )
            .await
    } else {
        let socket = PathBuf::from(&listen);
        let listener = bind_socket(&socket).await?;
        eprintln!(
            "shipgate-daemon {} listening on {} (pid {})",
            crate::VERSION,
            socket.display(),
            std::process::id()
        );
        // Each connection's request headers have an `:authority` h2 accepts.
        let connections = tokio_stream::wrappers::UnixListenerStream::new(listener)
            .map(|connection| connection.map(authority::AuthorityTolerant::new));
        let served = router.serve_with_incoming_shutdown(connections, stop).await;
        let _ = std::fs::remove_file(&socket);
        served
    };
    let flushed = flush_within(&cache, FLUSH_GRACE);
    result.map_err(|err| format!("the server failed: {err}"))?;
    flushed.map_err(|err| format!("flushing the store failed: {err}"))
}

/// Binds the socket, replacing a stale file left by a dead daemon but never
/// one a live daemon answers on.
async fn bind_socket(socket: &Path) -> Result<tokio::net::UnixListener, String> {
    if socket.exists() {
        if tokio::net::UnixStream::connect(socket).await.is_ok() {
            return Err(format!(
                "another daemon already listens on {}",
                socket.display()
            ));
        }
        std::fs::remove_file(socket)
            .map_err(|err| format!("cannot remove the stale socket {}: {err}", socket.display()))?;
    }
    let listener = bind_private(socket)
        .and_then(tokio::net::UnixListener::from_std)
        .map_err(|err| format!("cannot listen on {}: {err}", socket.display()))?;
    Ok(listener)
}

/// Readies the socket's directory without touching anyone else's: the
/// default directory (a name anyone can predict) must be ours and private,
/// or is created so; a missing directory of an explicit `--socket` is
/// created private; an existing one keeps its mode (it may be `/tmp`).
fn prepare_socket_dir(socket: &Path) -> Result<(), String> {
    let Some(dir) = socket.parent().filter(|dir| !dir.as_os_str().is_empty()) else {
        return Ok(());
    };
    if locations::in_default_socket_dir(socket) {
        return locations::ensure_socket_dir(dir).map_err(|err| err.to_string());
    }
    if dir.exists() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|err| format!("cannot create {}: {err}", dir.display()))
}

/// A listening socket whose file is 0600 from the start: the mode is set on
/// the socket before `bind` (Linux gives the file the socket's mode), so no
/// other user can connect in between, as they could before a later chmod.
/// The chmod after `bind` covers systems that ignore the first.
fn bind_private(socket: &Path) -> std::io::Result<std::os::unix::net::UnixListener> {
    use socket2::{Domain, SockAddr, Socket, Type};
    use std::os::fd::OwnedFd;
    let unbound = Socket::new(Domain::UNIX, Type::STREAM, None)?;
    // fchmod through a File: the same descriptor, without unsafe code.
    let as_file = std::fs::File::from(OwnedFd::from(unbound));
    let _ = as_file.set_permissions(std::fs::Permissions::from_mode(0o600));
    let unbound = Socket::from(OwnedFd::from(as_file));
    unbound.bind(&SockAddr::unix(socket)?)?;
    std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o600))?;
    unbound.listen(1024)?;
    unbound.set_nonblocking(true)?;
    Ok(std::os::unix::net::UnixListener::from(OwnedFd::from(
        unbound,
    )))
}

/// The reflection services (`grpc.reflection.v1` and `v1alpha`, for older
/// clients), each describing every service served — `shipgate.v1`,
/// `grpc.health.v1` and both reflection versions — from the descriptor sets
/// compiled with their code.
fn reflection_services() -> Result<
    (
        tonic_reflection::server::v1::ServerReflectionServer<
            impl tonic_reflection::server::v1::ServerReflection,
        >,
        tonic_reflection::server::v1alpha::ServerReflectionServer<
            impl tonic_reflection::server::v1alpha::ServerReflection,
        >,
    ),
    String,
> {
    let described = || {
        // Both reflection versions are registered here (the builder would
        // add only its own), so either lists the other too.
        tonic_reflection::server::Builder::configure()
            .include_reflection_service(false)
            .register_encoded_file_descriptor_set(shipgate_proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(
                tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
            )
    };
    let failed = |err: tonic_reflection::server::Error| {
        format!("cannot describe the API for reflection: {err}")
    };
    Ok((
        described().build_v1().map_err(failed)?,
        described().build_v1alpha().map_err(failed)?,
    ))
}

/// How long a stopping daemon waits for requests in flight and the store's
/// flush before it exits anyway: a stop always finishes.
pub const STOP_GRACE: Duration = Duration::from_secs(10);
/// How long the final flush may take within that.
const FLUSH_GRACE: Duration = Duration::from_secs(5);

/// From the moment a stop begins: the process exits within `STOP_GRACE`
/// whatever the store or a request in flight does, and a second SIGTERM
/// or Ctrl-C exits at once. The data-directory lock is released by the
/// process's exit, so the next daemon finds it free, never "damaged".
fn bound_the_stop() {
    let watchdog = std::thread::Builder::new()
        .name("shipgate-stop".into())
        .spawn(|| {
            std::thread::sleep(STOP_GRACE);
            eprintln!(
                "shipgate-daemon: did not stop within {}s (a request or the store did not finish); exiting now",
                STOP_GRACE.as_secs()
            );
            std::process::exit(1);
        });
    if let Err(err) = watchdog {
        eprintln!("shipgate-daemon: cannot bound the stop ({err}); exiting now");
        std::process::exit(1);
    }
    tokio::spawn(async {
        let terminate = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut signal) => {
                    signal.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate => {}
        }
        eprintln!("shipgate-daemon: stopped again while stopping; exiting now");
        std::process::exit(1);
    });
}

/// Flushes the store, then a remote tier's queued writes, on a thread of
/// its own, waiting at most `grace`: a store that cannot finish (a full
/// disk, a stuck file system, a slow remote) delays the exit by that much,
/// never forever.
fn flush_within(cache: &Arc<Cache>, grace: Duration) -> Result<(), String> {
    let (sender, receiver) = std::sync::mpsc::channel();
    let cache = Arc::clone(cache);
    std::thread::Builder::new()
        .name("shipgate-flush".into())
        .spawn(move || {
            let flushed = cache.flush();
            // What a remote tier still has queued, inside the same grace.
            cache.drain_remote(grace / 2);
            let _ = sender.send(flushed);
        })
        .map_err(|err| format!("cannot start the flush: {err}"))?;
    receiver.recv_timeout(grace).unwrap_or_else(|_| {
        Err(format!(
            "the store did not finish flushing within {}s; what it had not written is only a cache",
            grace.as_secs()
        ))
    })
}

/// Resolves when the daemon should stop: a signal, a `Shutdown` request, or
/// the idle timeout elapsing with no request in flight.
async fn stop_signal(
    mut shutdown: watch::Receiver<bool>,
    activity: Arc<Activity>,
    idle: Option<Duration>,
) {
    let idle_timer = async {
        match idle {
            None => std::future::pending::<()>().await,
            Some(limit) => loop {
                tokio::time::sleep(Duration::from_millis(500)).await;
                if activity.idle_for() >= limit {
                    eprintln!("shipgate-daemon: idle for {}s, exiting", limit.as_secs());
                    return;
                }
            },
        }
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate => {}
        _ = shutdown.wait_for(|stop| *stop) => {}
        _ = idle_timer => {}
    }
}
