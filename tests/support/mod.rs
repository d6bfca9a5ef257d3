//! Test support: real git repositories built from per-commit file maps, the
//! real daemon on a temporary socket and store, and the real client binary.

#![allow(dead_code)]

pub mod golden;
pub mod schema;

/// An OpenAI Agents SDK agent `support` with one tool, `lookup`: the base
/// of the packaging tests (the Action, the pre-commit hook).
pub const SUPPORT_WITH_LOOKUP: &str = r#"from agents import Agent, function_tool


@function_tool
def lookup(order_id: str) -> str:
    """Look an order up."""
    return order_id


support = Agent(name="support", tools=[lookup])
"#;

/// The same agent given a second tool, `refund`.
pub const SUPPORT_WITH_REFUND: &str = r#"from agents import Agent, function_tool


@function_tool
def lookup(order_id: str) -> str:
    """Look an order up."""
    return order_id


@function_tool
def refund(order_id: str) -> str:
    """Refund an order."""
    return order_id


support = Agent(name="support", tools=[lookup, refund])
"#;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The workspace's binaries, built once per test process (cargo builds a
/// package's binaries only for that package's own integration tests).
pub fn binaries() -> &'static (PathBuf, PathBuf) {
    static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "-p",
                "shipgate-daemon",
                "-p",
                "shipgate-client",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building the binaries failed");
        let test_exe = std::env::current_exe().expect("test executable path");
        // target/<profile>/deps/<test> → target/<profile>
        let dir = test_exe
            .parent()
            .and_then(Path::parent)
            .expect("target dir")
            .to_path_buf();
        (dir.join("shipgate-daemon"), dir.join("shipgate-client"))
    })
}

/// Stops the daemon a client started on the store in this directory (a
/// test whose client starts its own daemon), however the test ends.
pub struct StopDaemon(pub PathBuf);

impl Drop for StopDaemon {
    fn drop(&mut self) {
        let (_, client) = binaries();
        let _ = Command::new(client)
            .arg("--data-dir")
            .arg(&self.0)
            .args(["--no-start", "shutdown"])
            .env_remove("SHIPGATE_SOCKET")
            .env_remove("SHIPGATE_ADDR")
            .output();
    }
}

/// A git repository in a temporary directory.
pub struct Repo {
    pub dir: tempfile::TempDir,
}

impl Repo {
    pub fn new() -> Self {
        let repo = Repo {
            dir: tempfile::tempdir().expect("temp dir"),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        repo.git(&["config", "user.email", "test@example.com"]);
        repo.git(&["config", "user.name", "Test"]);
        repo.git(&["config", "commit.gpgsign", "false"]);
        repo
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn git(&self, args: &[&str]) -> String {
        let output = Command::new("git")
            .args(args)
            .current_dir(self.path())
            .output()
            .expect("git runs");
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    /// Writes (`Some`) or deletes (`None`) files, commits, returns the commit id.
    pub fn commit(&self, files: &[(&str, Option<&str>)], message: &str) -> String {
        for (path, content) in files {
            let full = self.path().join(path);
            match content {
                Some(content) => {
                    std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
                    std::fs::write(&full, content).expect("write");
                }
                None => {
                    let _ = std::fs::remove_file(&full);
                }
            }
        }
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.git(&["rev-parse", "HEAD"])
    }

    pub fn tag(&self, name: &str) {
        self.git(&["tag", "-f", name]);
    }
}

/// A running daemon on its own socket and store; stopped when dropped.
pub struct Daemon {
    pub child: Child,
    pub socket: PathBuf,
    pub data_dir: PathBuf,
}

impl Daemon {
    pub fn start(data_dir: &Path, socket: &Path) -> Self {
        Self::start_with(data_dir, socket, &[])
    }

    /// Started with extra `serve` flags.
    pub fn start_with(data_dir: &Path, socket: &Path, flags: &[&str]) -> Self {
        Self::start_with_env(data_dir, socket, flags, &[])
    }

    /// Started with extra `serve` flags and environment variables.
    pub fn start_with_env(
        data_dir: &Path,
        socket: &Path,
        flags: &[&str],
        env: &[(&str, &str)],
    ) -> Self {
        let (daemon, _) = binaries();
        let child = Command::new(daemon)
            .args(["serve", "--socket"])
            .arg(socket)
            .arg("--data-dir")
            .arg(data_dir)
            .args(flags)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("daemon starts");
        let daemon = Daemon {
            child,
            socket: socket.to_path_buf(),
            data_dir: data_dir.to_path_buf(),
        };
        wait_for_socket(socket);
        daemon
    }

    /// Stops with SIGTERM and waits, as a service manager would.
    pub fn stop(mut self) {
        self.terminate();
    }

    fn terminate(&mut self) {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.terminate();
        }
    }
}

/// A daemon serving TCP on a free loopback port with a bearer token, on its
/// own store; killed when dropped.
pub struct TcpDaemon {
    pub child: Child,
    /// `127.0.0.1:PORT`
    pub addr: String,
    pub token_file: PathBuf,
}

impl TcpDaemon {
    /// Starts `serve --tcp` with a token written beside the store, and
    /// waits until the port accepts connections.
    pub fn start(dir: &Path) -> Self {
        let (daemon, _) = binaries();
        let token_file = dir.join("token");
        std::fs::write(&token_file, "0123456789abcdef0123\n").expect("write token");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(daemon)
            .args(["serve", "--tcp", &addr, "--token-file"])
            .arg(&token_file)
            .arg("--data-dir")
            .arg(dir.join("tcp-data"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("daemon starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < deadline, "the TCP daemon never listened");
            std::thread::sleep(Duration::from_millis(20));
        }
        TcpDaemon {
            child,
            addr,
            token_file,
        }
    }
}

impl Drop for TcpDaemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn wait_for_socket(socket: &Path) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if std::os::unix::net::UnixStream::connect(socket).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no daemon answered on {}", socket.display());
}

/// A test's private daemon location: a store and a socket in a temp dir.
pub struct Place {
    pub dir: tempfile::TempDir,
}

impl Place {
    pub fn new() -> Self {
        Place {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }
    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }
    pub fn socket(&self) -> PathBuf {
        self.dir.path().join("d.sock")
    }
    pub fn start_daemon(&self) -> Daemon {
        Daemon::start(&self.data_dir(), &self.socket())
    }

    /// A daemon started with extra `serve` flags.
    pub fn start_daemon_with(&self, flags: &[&str]) -> Daemon {
        Daemon::start_with(&self.data_dir(), &self.socket(), flags)
    }

    /// Runs the real client against this place's daemon.
    pub fn client(&self, args: &[&str]) -> Output {
        self.client_with_env(args, &[])
    }

    /// The same, with extra environment variables.
    pub fn client_with_env(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let (daemon, client) = binaries();
        Command::new(client)
            .args(args)
            .envs(env.iter().copied())
            .env("SHIPGATE_SOCKET", self.socket())
            .env("SHIPGATE_DATA_DIR", self.data_dir())
            .env("SHIPGATE_DAEMON", daemon)
            .env_remove("SHIPGATE_ADDR")
            .env_remove("AGENTS_SHIPGATE_AGENT_MODE")
            .env_remove("CLAUDECODE")
            .env_remove("CURSOR_TRACE_ID")
            .envs(env.iter().copied())
            .output()
            .expect("client runs")
    }

    /// The client as `client_with_env` runs it, not yet run: for a test that
    /// sets its own stdio, non-UTF-8 arguments, or removes `SHIPGATE_SOCKET`
    /// to reach the default socket.
    pub fn client_command(&self) -> Command {
        let (daemon, client) = binaries();
        let mut command = Command::new(client);
        command
            .env("SHIPGATE_SOCKET", self.socket())
            .env("SHIPGATE_DATA_DIR", self.data_dir())
            .env("SHIPGATE_DAEMON", daemon)
            .env_remove("SHIPGATE_ADDR")
            .env_remove("AGENTS_SHIPGATE_AGENT_MODE")
            .env_remove("CLAUDECODE")
            .env_remove("CURSOR_TRACE_ID");
        command
    }

    /// `diff --application` through the client; returns (exit, stdout, stderr).
    pub fn diff(&self, repo: &Repo, extra: &[&str]) -> (i32, String, String) {
        let workspace = repo.path().to_string_lossy().into_owned();
        let mut args = vec!["diff", "--application", "--workspace", workspace.as_str()];
        args.extend_from_slice(extra);
        let output = self.client(&args);
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }

    /// `diff --json`, parsed; panics with stderr when it failed.
    /// `history --json --quiet` of `repo` with `extra` flags, which must
    /// succeed.
    pub fn history_json(&self, repo: &Repo, extra: &[&str]) -> serde_json::Value {
        let workspace = repo.path().to_string_lossy().into_owned();
        let mut args = vec![
            "history",
            "--workspace",
            workspace.as_str(),
            "--json",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let output = self.client(&args);
        assert!(
            output.status.success(),
            "history failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).expect("history JSON")
    }

    pub fn diff_json(&self, repo: &Repo, extra: &[&str]) -> serde_json::Value {
        let mut args = extra.to_vec();
        args.push("--json");
        let (code, stdout, stderr) = self.diff(repo, &args);
        assert_eq!(code, 0, "diff failed: {stderr}");
        serde_json::from_str(&stdout).expect("the JSON document parses")
    }

    /// Cache counters from `status --json`: (hits, misses) of one cache.
    pub fn counters(&self, cache: &str) -> (u64, u64) {
        let output = self.client(&["status", "--json"]);
        assert!(
            output.status.success(),
            "status failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let status: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("status JSON");
        let c = &status["caches"][cache];
        (
            c["hits"].as_u64().expect("hits"),
            c["misses"].as_u64().expect("misses"),
        )
    }
}

/// `(agent, tool, change)` of every row, in document order.
pub fn rows(doc: &serde_json::Value) -> Vec<(String, String, String)> {
    doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["agent"].as_str().unwrap_or_default().to_string(),
                r["tool"].as_str().unwrap_or_default().to_string(),
                r["change"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// Commits `base` on `main` and `head` on a branch `head`, then compares
/// them with `--scope SCOPE` through a fresh daemon and the client: the
/// JSON document and the text, from two runs over one cache.
pub fn compare_branches(
    base: &[(&str, &str)],
    head: &[(&str, &str)],
    scope: &str,
) -> (serde_json::Value, String) {
    let (_, doc, text) = run_branches(base, head, scope);
    (doc, text)
}

/// The one-file application: `app/agent.py` holding `base` on main and
/// `head` on the branch, compared with `--scope app`.
pub fn compare_app(base: &str, head: &str) -> (serde_json::Value, String) {
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", base)],
        &[("app/agent.py", head)],
        "app",
    )
}

/// `compare_branches`, and both answers checked against the goldens
/// `tests/goldens/<name>.{txt,json}`.
pub fn compare_branches_golden(
    name: &str,
    base: &[(&str, &str)],
    head: &[(&str, &str)],
    scope: &str,
) -> (serde_json::Value, String) {
    let (repo, doc, text) = run_branches(base, head, scope);
    let base = repo.git(&["rev-parse", "main"]);
    let head = repo.git(&["rev-parse", "head"]);
    golden::check(name, &doc, &text, &base, &head);
    (doc, text)
}

fn run_branches(
    base: &[(&str, &str)],
    head: &[(&str, &str)],
    scope: &str,
) -> (Repo, serde_json::Value, String) {
    let repo = Repo::new();
    let files: Vec<(&str, Option<&str>)> = base.iter().map(|(p, c)| (*p, Some(*c))).collect();
    repo.commit(&files, "base");
    repo.git(&["checkout", "-q", "-b", "head"]);
    let files: Vec<(&str, Option<&str>)> = head.iter().map(|(p, c)| (*p, Some(*c))).collect();
    repo.commit(&files, "head");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let args = ["--base", "main", "--head", "head", "--scope", scope];
    let doc = place.diff_json(&repo, &args);
    let (code, text, stderr) = place.diff(&repo, &args);
    assert_eq!(code, 0, "{stderr}");
    (repo, doc, text)
}

/// One `(agent, tool, change)` row, as `rows` returns them.
pub fn row(agent: &str, tool: &str, change: &str) -> (String, String, String) {
    (agent.into(), tool.into(), change.into())
}

/// A side's `limits`, as strings.
pub fn limits(doc: &serde_json::Value, side: &str) -> Vec<String> {
    doc[side]["limits"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Asserts the comparison is `compared`, naming the head's limits when
/// it is not.
pub fn assert_compared(doc: &serde_json::Value) {
    assert_eq!(
        doc["comparison_status"],
        "compared",
        "{:?}",
        limits(doc, "head")
    );
}

// Host comparisons (`diff` without `--application`, issue 42).

/// `diff` of the hosts' configuration from `main` to the checkout; (exit, stdout, stderr).
pub fn host_diff(place: &Place, repo: &Repo, extra: &[&str]) -> (i32, String, String) {
    let workspace = repo.path().to_string_lossy().into_owned();
    let mut args = vec!["diff", "--workspace", workspace.as_str(), "--base", "main"];
    args.extend_from_slice(extra);
    let output = place.client(&args);
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

pub fn host_json(place: &Place, repo: &Repo, extra: &[&str]) -> serde_json::Value {
    let mut args = extra.to_vec();
    args.push("--json");
    let (code, stdout, stderr) = host_diff(place, repo, &args);
    assert_eq!(code, 0, "host diff failed: {stderr}");
    serde_json::from_str(&stdout).expect("the JSON document parses")
}

/// A repository whose `main` holds `base`, with a branch `feature`
/// checked out on which `head` is committed.
pub fn branch(base: &[(&str, Option<&str>)], head: &[(&str, Option<&str>)]) -> Repo {
    let repo = Repo::new();
    repo.commit(base, "base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.commit(head, "head");
    repo
}
