//! The daemon and client never harm or trust what is not theirs: a shared
//! socket directory keeps its mode, a socket directory others control is
//! refused, another user's daemon is never talked to, a closed stdout is no
//! crash, and unsendable arguments are usage errors.

mod support;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use support::{binaries, Daemon, Place, Repo};

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .expect("stat")
        .permissions()
        .mode()
        & 0o7777
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn one_commit_repo() -> Repo {
    let repo = Repo::new();
    repo.commit(
        &[(
            "app/agent.py",
            Some("from agents import Agent\n\nbot = Agent(name=\"bot\")\n"),
        )],
        "base",
    );
    repo
}

fn is_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).expect("list").next().is_none()
}

#[test]
fn an_explicit_socket_leaves_its_shared_directory_alone() {
    let place = Place::new();
    let shared = place.dir.path().join("shared");
    std::fs::create_dir(&shared).expect("mkdir");
    chmod(&shared, 0o1777);
    let socket = shared.join("d.sock");
    let daemon = Daemon::start(&place.data_dir(), &socket);
    assert_eq!(mode(&shared), 0o1777, "the shared directory was chmodded");
    assert_eq!(mode(&socket), 0o600);
    daemon.stop();
    assert_eq!(mode(&shared), 0o1777);

    // A directory that does not exist yet is the daemon's own: private.
    let fresh = place.dir.path().join("fresh").join("run");
    let daemon = Daemon::start(&place.dir.path().join("data2"), &fresh.join("d.sock"));
    assert_eq!(mode(&fresh), 0o700);
    daemon.stop();
}

/// `serve` on the default socket under `runtime` (as `XDG_RUNTIME_DIR`);
/// the idle timeout ends a daemon that wrongly started.
fn serve_default(place: &Place, runtime: &Path) -> Output {
    let (daemon, _) = binaries();
    Command::new(daemon)
        .args(["serve", "--idle-timeout", "3s", "--data-dir"])
        .arg(place.data_dir())
        .env("XDG_RUNTIME_DIR", runtime)
        .env_remove("SHIPGATE_SOCKET")
        .stdin(Stdio::null())
        .output()
        .expect("daemon runs")
}

/// The client on the default socket under `runtime`.
fn client_default(place: &Place, runtime: &Path, args: &[&OsStr]) -> Output {
    place
        .client_command()
        .env_remove("SHIPGATE_SOCKET")
        .env("XDG_RUNTIME_DIR", runtime)
        .args(args)
        .output()
        .expect("client runs")
}

#[test]
fn a_default_socket_directory_others_control_is_refused() {
    let place = Place::new();
    let repo = one_commit_repo();
    let runtime = place.dir.path().join("run");
    let dir = runtime.join("shipgate");
    std::fs::create_dir_all(&dir).expect("mkdir");
    chmod(&dir, 0o777);
    let diff: Vec<&OsStr> = ["diff", "--application", "--base", "main", "--workspace"]
        .iter()
        .map(OsStr::new)
        .chain([repo.path().as_os_str()])
        .collect();

    let served = serve_default(&place, &runtime);
    assert_eq!(served.status.code(), Some(1), "{}", stderr(&served));
    let said = stderr(&served);
    assert!(said.contains(&dir.display().to_string()), "{said}");
    assert!(said.contains("mode 0777"), "{said}");
    assert!(said.contains("writable by other users"), "{said}");
    assert!(said.contains("chmod 700"), "{said}");
    assert_eq!(mode(&dir), 0o777, "a directory not ours was chmodded");
    assert!(is_empty_dir(&dir));

    let client = client_default(&place, &runtime, &diff);
    assert_eq!(client.status.code(), Some(1), "{}", stderr(&client));
    assert!(stderr(&client).contains("writable by other users"));
    assert!(stderr(&client).contains(&dir.display().to_string()));
    assert!(is_empty_dir(&dir), "something was started into it");
    assert!(
        !place.data_dir().join("daemon.log").exists(),
        "the client started a daemon"
    );

    // Private, but another user's: refused as well.
    chmod(&dir, 0o700);
    std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).expect("chown");
    let served = serve_default(&place, &runtime);
    assert_eq!(served.status.code(), Some(1), "{}", stderr(&served));
    assert!(
        stderr(&served).contains("belongs to uid 65534"),
        "{}",
        stderr(&served)
    );
    let client = client_default(&place, &runtime, &[OsStr::new("status")]);
    assert_eq!(client.status.code(), Some(1));
    assert!(stderr(&client).contains("belongs to uid 65534"));
    assert!(is_empty_dir(&dir));
}

#[test]
fn a_missing_default_socket_directory_is_created_private() {
    let place = Place::new();
    let repo = one_commit_repo();
    let runtime = place.dir.path().join("run");
    std::fs::create_dir(&runtime).expect("mkdir");
    let workspace = repo.path().as_os_str();
    let diff = ["diff", "--application", "--base", "main", "--workspace"]
        .map(OsStr::new)
        .into_iter()
        .chain([workspace])
        .collect::<Vec<_>>();
    let client = client_default(&place, &runtime, &diff);
    assert_eq!(client.status.code(), Some(0), "{}", stderr(&client));
    let dir = runtime.join("shipgate");
    assert_eq!(mode(&dir), 0o700);
    let socket = std::fs::read_dir(&dir)
        .expect("list")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| path.extension() == Some(OsStr::new("sock")))
        .expect("the daemon's socket");
    assert_eq!(mode(&socket), 0o600);
    let stopped = client_default(&place, &runtime, &[OsStr::new("shutdown")]);
    assert_eq!(stopped.status.code(), Some(0), "{}", stderr(&stopped));
}

/// A stand-in daemon run as another user: it records how many bytes its
/// clients sent, and writes the count once a connection sends exactly
/// `END` (connections are served in order, so every earlier one is done).
const FAKE_DAEMON: &str = r#"
import socket, sys
path, record = sys.argv[1], sys.argv[2]
server = socket.socket(socket.AF_UNIX)
server.bind(path)
server.listen(16)
total = 0
while True:
    conn, _ = server.accept()
    conn.settimeout(2)
    data = b""
    try:
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    conn.close()
    if data == b"END":
        with open(record, "w") as f:
            f.write(str(total))
        break
    total += len(data)
"#;

/// Ends the stand-in daemon however the test ends.
struct Fake(std::process::Child);

impl Drop for Fake {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Our uid: the owner of a directory we just made.
fn my_uid(place: &Place) -> u32 {
    std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(place.dir.path()).expect("stat"))
}

fn can_switch_users(place: &Place) -> bool {
    my_uid(place) == 0
        && Path::new("/usr/bin/setpriv").exists()
        && Path::new("/usr/bin/python3").exists()
}

#[test]
fn a_daemon_of_another_user_is_refused_before_anything_is_sent() {
    let place = Place::new();
    if !can_switch_users(&place) {
        eprintln!("skipped: needs root, /usr/bin/setpriv and /usr/bin/python3 to run a daemon as another user");
        return;
    }
    // Our own temporary directory, opened so that uid 65534 may listen in it.
    chmod(place.dir.path(), 0o777);
    let socket = place.socket();
    let record = place.dir.path().join("received");
    let mut fake = Fake(
        Command::new("/usr/bin/setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .args(["/usr/bin/python3", "-I", "-c", FAKE_DAEMON])
            .arg(&socket)
            .arg(&record)
            .current_dir(place.dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the fake daemon starts"),
    );
    support::wait_for_socket(&socket);

    let refusal = format!(
        "the daemon on {} runs as uid 65534, not as you (uid 0): refusing to talk to it",
        socket.display()
    );
    let repo = one_commit_repo();
    let workspace = repo.path().to_string_lossy().into_owned();
    for args in [
        vec!["diff", "--application", "--workspace", &workspace],
        vec!["status"],
        vec!["shutdown"],
    ] {
        let output = place.client(&args);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(&refusal),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    assert!(
        !place.data_dir().join("daemon.log").exists(),
        "a daemon was started in its place"
    );

    let mut end = std::os::unix::net::UnixStream::connect(&socket).expect("connect");
    std::io::Write::write_all(&mut end, b"END").expect("write");
    drop(end);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !matches!(fake.0.try_wait(), Ok(Some(_))) {
        assert!(Instant::now() < deadline, "the fake daemon never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    let received = std::fs::read_to_string(&record).expect("the fake daemon's record");
    assert_eq!(received, "0", "bytes were sent to another user's daemon");
}

/// Runs the client with its stdout a pipe whose reading end is already
/// closed, as under `| head -1` once head has exited.
fn with_closed_stdout(place: &Place, args: &[&str]) -> Output {
    let mut child = place
        .client_command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("client runs");
    drop(child.stdout.take());
    child.wait_with_output().expect("client exits")
}

#[test]
fn a_closed_stdout_ends_the_client_quietly() {
    let place = Place::new();
    let _daemon = place.start_daemon();
    let repo = one_commit_repo();
    let workspace = repo.path().to_string_lossy().into_owned();
    let diff = [
        "diff",
        "--application",
        "--base",
        "main",
        "--workspace",
        &workspace,
    ];
    let diff_json = [&diff[..], &["--json"]].concat();
    let history = ["history", "--workspace", &workspace];
    for args in [
        &["status"][..],
        &["status", "--json"],
        &diff,
        &diff_json,
        &history,
        &["watch", &workspace],
    ] {
        let output = with_closed_stdout(&place, args);
        assert!(
            !stderr(&output).contains("panicked"),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
    }

    // Other lost output is reported, not hidden.
    if Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("open /dev/full");
        let output = place
            .client_command()
            .arg("status")
            .stdout(full)
            .output()
            .expect("client runs");
        assert_eq!(output.status.code(), Some(1));
        assert!(stderr(&output).contains("cannot write the output"));
        assert!(!stderr(&output).contains("panicked"));
    }
}

#[test]
fn arguments_the_daemon_cannot_take_are_usage_errors() {
    // No daemon answers here and none may start: each refusal comes first.
    let place = Place::new();
    let bad = OsStr::from_bytes(b"/tmp/shipgate-\xff-repo");
    let lossy = "/tmp/shipgate-\u{fffd}-repo";
    let runs: [&[&OsStr]; 3] = [
        &[
            OsStr::new("diff"),
            OsStr::new("--application"),
            OsStr::new("--workspace"),
            bad,
        ],
        &[OsStr::new("history"), OsStr::new("--workspace"), bad],
        &[OsStr::new("watch"), bad],
    ];
    for args in runs {
        let output = place
            .client_command()
            .arg("--no-start")
            .args(args)
            .output()
            .expect("client runs");
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(&format!(
                "the workspace path is not valid UTF-8: {lossy}; the daemon takes UTF-8 paths"
            )),
            "{args:?}: {}",
            stderr(&output)
        );
    }

    let long = "a".repeat(10 * 1024);
    for (args, flag) in [
        (vec!["diff", "--application", "--base", &long], "--base"),
        (vec!["diff", "--application", "--scope", &long], "--scope"),
        (vec!["history", "--tool", &long], "--tool"),
        (vec!["history", "--since", &long], "--since"),
    ] {
        let output = place
            .client_command()
            .arg("--no-start")
            .args(&args)
            .output()
            .expect("client runs");
        assert_eq!(output.status.code(), Some(2), "{flag}: {}", stderr(&output));
        assert!(
            stderr(&output).contains(&format!("{flag} is longer than 4096 bytes")),
            "{}",
            stderr(&output)
        );
        assert!(!stderr(&output).contains(&long), "the value was echoed");
    }
}
