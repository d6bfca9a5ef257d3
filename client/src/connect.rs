//! Finding the daemon, starting it when none answers, and making sure it is
//! of our version (a daemon of another version is restarted, not trusted).

use shipgate_proto::locations::{self, ADDR_ENV, DAEMON_ENV, SOCKET_ENV, TOKEN_FILE_ENV};
use shipgate_proto::v1::shipgate_client::ShipgateClient;
use shipgate_proto::v1::{ShutdownRequest, StatusRequest};
use std::path::{Path, PathBuf};
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
pub struct BearerToken(Option<tonic::metadata::MetadataValue<tonic::metadata::Ascii>>);

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

async fn try_connect(target: &Target) -> Result<Client, String> {
    let (endpoint, token) = match &target.addr {
        Some(addr) => {
            let uri = if addr.contains("://") {
                addr.clone()
            } else {
                format!("http://{addr}")
            };
            let token = match &target.token_file {
                Some(file) => {
                    let raw = std::fs::read_to_string(file).map_err(|err| {
                        format!("cannot read the token file {}: {err}", file.display())
                    })?;
                    let value = format!("Bearer {}", raw.trim()).parse().map_err(|_| {
                        format!("the token in {} is not valid header text", file.display())
                    })?;
                    Some(value)
                }
                None => None,
            };
            (uri, token)
        }
        None => (format!("unix://{}", target.socket.display()), None),
    };
    let channel = Endpoint::from_shared(endpoint.clone())
        .map_err(|err| format!("bad daemon address {endpoint}: {err}"))?
        .connect_timeout(Duration::from_secs(2))
        .connect()
        .await
        .map_err(|err| format!("no daemon answers on {}: {err}", target.describe()))?;
    Ok(
        ShipgateClient::with_interceptor(channel, BearerToken(token))
            .max_decoding_message_size(256 * 1024 * 1024),
    )
}

/// Connects to a daemon of our version, starting (or restarting) one when
/// allowed.
pub async fn connect(target: &Target) -> Result<Client, String> {
    match try_connect(target).await {
        Ok(mut client) => {
            let version = client
                .status(StatusRequest {})
                .await
                .map(|r| r.into_inner().version)
                .map_err(|status| {
                    format!(
                        "the daemon on {} failed: {}",
                        target.describe(),
                        status.message()
                    )
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
        Err(err) if !target.autostart => Err(err),
        Err(_) => start_and_connect(target).await,
    }
}

/// Connects without starting anything (status, shutdown).
pub async fn connect_existing(target: &Target) -> Result<Client, String> {
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

async fn start_and_connect(target: &Target) -> Result<Client, String> {
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
    let mut child = command
        .spawn()
        .map_err(|err| format!("cannot start {}: {err}", program.display()))?;
    let deadline = Instant::now() + START_TIMEOUT;
    loop {
        if let Ok(client) = try_connect(target).await {
            return Ok(client);
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!(
                "the daemon {} exited ({status}) before answering; its log is {}:\n{}",
                program.display(),
                log_path.display(),
                log_tail(&log_path)
            ));
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "the daemon started but did not answer on {} within {}s; see {}",
                target.describe(),
                START_TIMEOUT.as_secs(),
                log_path.display()
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn log_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(5)..].join("\n")
}
