//! Finding the daemon, starting it when none answers, and making sure it is
//! of our version (a daemon of another version is restarted, not trusted)
//! and of our user (another user's daemon is refused before anything is
//! sent to it).

use hyper_util::rt::TokioIo;
use shipgate_proto::locations::{self, ADDR_ENV, DAEMON_ENV, SOCKET_ENV, TOKEN_FILE_ENV};
use shipgate_proto::v1::shipgate_client::ShipgateClient;
use shipgate_proto::v1::{ShutdownRequest, StatusRequest};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Channel, Endpoint};

/// How long a started daemon may take to answer.
const START_TIMEOUT: Duration = Duration::from_secs(20);
/// How long an idle auto-started daemon stays up.
const AUTO_IDLE_TIMEOUT: &str = "15m";

pub type Client = ShipgateClient<InterceptedService<Channel, BearerToken>>;

/// Adds `authorization: Bearer <token>` to every request (TCP daemons).
#[derive(Clone)]
pub struct BearerToken(Option<Token>);

impl tonic::service::Interceptor for BearerToken {
    fn call(
        &mut self,
        mut request: tonic::Request<()>,
    ) -> Result<tonic::Request<()>, tonic::Status> {
        if let Some(token) = &self.0 {
            request
                .metadata_mut()
                .insert("authorization", token.clone());
        }
        Ok(request)
    }
}

/// Where to reach the daemon, from flags then environment then defaults.
#[derive(Debug, Clone)]
pub struct Target {
    pub data_dir: PathBuf,
    pub socket: PathBuf,
    /// A TCP daemon: never started by the client.
    pub addr: Option<String>,
    pub token_file: Option<PathBuf>,
    /// Start a daemon when none answers.
    pub autostart: bool,
}

impl Target {
    pub fn resolve(
        socket: Option<PathBuf>,
        addr: Option<String>,
        data_dir: Option<PathBuf>,
        no_start: bool,
    ) -> Self {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let data_dir = data_dir.unwrap_or_else(locations::default_data_dir);
        let data_dir = std::path::absolute(&data_dir).unwrap_or(data_dir);
        let socket = socket
            .or_else(|| env(SOCKET_ENV).map(PathBuf::from))
            .unwrap_or_else(|| locations::default_socket(&data_dir));
        let addr = addr.or_else(|| env(ADDR_ENV));
        Target {
            autostart: !no_start && addr.is_none(),
            token_file: env(TOKEN_FILE_ENV).map(PathBuf::from),
            data_dir,
            socket,
            addr,
        }
    }

    fn describe(&self) -> String {
        match &self.addr {
            Some(addr) => addr.clone(),
            None => self.socket.display().to_string(),
        }
    }
}

/// Why no usable daemon was reached.
#[derive(Debug)]
pub enum ConnectError {
    /// Nothing answers: a daemon may be started there.
    Unreachable(String),
    /// Something there must not be trusted (another user's daemon, a
    /// socket directory others control): nothing is sent to it and no
    /// daemon is started into it.
    Refused(String),
}

impl std::fmt::Display for ConnectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConnectError::Unreachable(message) | ConnectError::Refused(message) => {
                f.write_str(message)
            }
        }
    }
}

async fn try_connect(target: &Target) -> Result<Client, ConnectError> {
    let (channel, token) = match &target.addr {
        Some(addr) => connect_tcp(addr, target.token_file.as_deref()).await?,
        None => (connect_socket(&target.socket).await?, None),
    };
    Ok(
        ShipgateClient::with_interceptor(channel, BearerToken(token))
            .max_decoding_message_size(256 * 1024 * 1024),
    )
}

type Token = tonic::metadata::MetadataValue<tonic::metadata::Ascii>;

async fn connect_tcp(
    addr: &str,
    token_file: Option<&Path>,
) -> Result<(Channel, Option<Token>), ConnectError> {
    let uri = if addr.contains("://") {
        addr.to_string()
    } else {
        format!("http://{addr}")
    };
    let token = match token_file {
        Some(file) => Some(read_token(file).map_err(ConnectError::Unreachable)?),
        None => None,
    };
    let channel = Endpoint::from_shared(uri.clone())
        .map_err(|err| ConnectError::Unreachable(format!("bad daemon address {uri}: {err}")))?
        .connect_timeout(Duration::from_secs(2))
        .connect()
        .await
        .map_err(|err| ConnectError::Unreachable(format!("no daemon answers on {addr}: {err}")))?;
    Ok((channel, token))
}

fn read_token(file: &Path) -> Result<Token, String> {
    let raw = std::fs::read_to_string(file)
        .map_err(|err| format!("cannot read the token file {}: {err}", file.display()))?;
    format!("Bearer {}", raw.trim())
        .parse()
        .map_err(|_| format!("the token in {} is not valid header text", file.display()))
}

/// Connects over the Unix socket, talking only to a daemon of our own user:
/// the default directory must be private, and each connection's peer is
/// checked before a byte is sent (tonic's own connector hides the stream).
async fn connect_socket(socket: &Path) -> Result<Channel, ConnectError> {
    if locations::in_default_socket_dir(socket) {
        if let Some(dir) = socket.parent() {
            locations::check_socket_dir(dir)
                .map_err(|err| ConnectError::Refused(err.to_string()))?;
        }
    }
    // The connector's error reaches us wrapped by tonic; the refusal itself
    // is kept here so that it is not mistaken for "nothing answers".
    let refusal = Arc::new(OnceLock::new());
    let connector = {
        let socket = socket.to_path_buf();
        let refusal = Arc::clone(&refusal);
        tower::service_fn(move |_: tonic::transport::Uri| {
            open_checked(socket.clone(), Arc::clone(&refusal))
        })
    };
    // The connector picks the socket; the URI only names the authority.
    let connected = Endpoint::from_static("http://localhost")
        .connect_timeout(Duration::from_secs(2))
        .connect_with_connector(connector)
        .await;
    match (connected, refusal.get()) {
        (_, Some(refused)) => Err(ConnectError::Refused(refused.clone())),
        (Ok(channel), None) => Ok(channel),
        (Err(err), None) => Err(ConnectError::Unreachable(format!(
            "no daemon answers on {}: {err}",
            socket.display()
        ))),
    }
}

/// Opens one connection and checks whose daemon answers on it.
async fn open_checked(
    socket: PathBuf,
    refusal: Arc<OnceLock<String>>,
) -> std::io::Result<TokioIo<tokio::net::UnixStream>> {
    let stream = tokio::net::UnixStream::connect(&socket).await?;
    let peer = stream.peer_cred().map(|cred| cred.uid()).map_err(|err| {
        format!(
            "cannot tell who runs the daemon on {} ({err}): refusing to talk to it",
            socket.display()
        )
    });
    match peer.and_then(|uid| check_peer(&socket, uid, effective_user_id())) {
        Ok(()) => Ok(TokioIo::new(stream)),
        Err(message) => {
            let _ = refusal.set(message.clone());
            Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                message,
            ))
        }
    }
}

/// The peer rule: a daemon of our own user only. Another user's daemon
/// could answer anything, and would learn our repositories' paths.
fn check_peer(socket: &Path, peer: u32, me: u32) -> Result<(), String> {
    if peer == me {
        Ok(())
    } else {
        Err(format!(
            "the daemon on {} runs as uid {peer}, not as you (uid {me}): refusing to talk to it",
            socket.display()
        ))
    }
}

fn effective_user_id() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Connects to a daemon of our version, starting (or restarting) one when
/// allowed. A refusal never starts one: the place is not ours to use.
pub async fn connect(target: &Target) -> Result<Client, ConnectError> {
    match try_connect(target).await {
        Ok(mut client) => {
            let version = client
                .status(StatusRequest {})
                .await
                .map(|r| r.into_inner().version)
                .map_err(|status| {
                    ConnectError::Unreachable(format!(
                        "the daemon on {} failed: {}",
                        target.describe(),
                        status.message()
                    ))
                })?;
            if version == env!("CARGO_PKG_VERSION") || !target.autostart {
                return Ok(client);
            }
            eprintln!(
                "shipgate-client: restarting the daemon (version {version}, client {})",
                env!("CARGO_PKG_VERSION")
            );
            let _ = client.shutdown(ShutdownRequest {}).await;
            wait_until_gone(&target.socket).await;
            start_and_connect(target).await
        }
        Err(ConnectError::Unreachable(_)) if target.autostart => start_and_connect(target).await,
        Err(err) => Err(err),
    }
}

/// Connects without starting anything (status, shutdown).
pub async fn connect_existing(target: &Target) -> Result<Client, ConnectError> {
    try_connect(target).await
}

async fn wait_until_gone(socket: &Path) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while socket.exists() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The daemon executable: `$SHIPGATE_DAEMON`, else next to this client.
fn daemon_program() -> Result<PathBuf, String> {
    if let Some(program) = std::env::var_os(DAEMON_ENV).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(program));
    }
    let me =
        std::env::current_exe().map_err(|err| format!("cannot locate this executable: {err}"))?;
    let beside = me.with_file_name("shipgate-daemon");
    if beside.is_file() {
        Ok(beside)
    } else {
        Err(format!(
            "no shipgate-daemon next to {} and {DAEMON_ENV} is not set; install both binaries together or set {DAEMON_ENV}",
            me.display()
        ))
    }
}

async fn start_and_connect(target: &Target) -> Result<Client, ConnectError> {
    let (mut child, program, log_path) = start_daemon(target).map_err(ConnectError::Unreachable)?;
    let deadline = Instant::now() + START_TIMEOUT;
    loop {
        match try_connect(target).await {
            Ok(client) => return Ok(client),
            Err(refused @ ConnectError::Refused(_)) => return Err(refused),
            Err(ConnectError::Unreachable(_)) => {}
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(ConnectError::Unreachable(format!(
                "the daemon {} exited ({status}) before answering; its log is {}:\n{}",
                program.display(),
                log_path.display(),
                log_tail(&log_path)
            )));
        }
        if Instant::now() >= deadline {
            return Err(ConnectError::Unreachable(format!(
                "the daemon started but did not answer on {} within {}s; see {}",
                target.describe(),
                START_TIMEOUT.as_secs(),
                log_path.display()
            )));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Spawns `serve` for the target, logging into its data directory:
/// the child, the program and the log's path.
fn start_daemon(target: &Target) -> Result<(std::process::Child, PathBuf, PathBuf), String> {
    let program = daemon_program()?;
    std::fs::create_dir_all(&target.data_dir).map_err(|err| {
        format!(
            "cannot create the data directory {}: {err}",
            target.data_dir.display()
        )
    })?;
    let log_path = target.data_dir.join("daemon.log");
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|err| format!("cannot open {}: {err}", log_path.display()))?;
    let mut command = std::process::Command::new(&program);
    command
        .arg("serve")
        .arg("--socket")
        .arg(&target.socket)
        .arg("--data-dir")
        .arg(&target.data_dir)
        .arg("--idle-timeout")
        .arg(AUTO_IDLE_TIMEOUT)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log);
    // Its own process group: a Ctrl-C meant for the client does not stop it.
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let child = command
        .spawn()
        .map_err(|err| format!("cannot start {}: {err}", program.display()))?;
    Ok((child, program, log_path))
}

fn log_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(5)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_daemon_of_our_user_is_talked_to() {
        let socket = Path::new("/run/s.sock");
        assert_eq!(check_peer(socket, 1000, 1000), Ok(()));
        assert_eq!(
            check_peer(socket, 0, 1000),
            Err("the daemon on /run/s.sock runs as uid 0, not as you (uid 1000): refusing to talk to it".to_string())
        );
    }
}
