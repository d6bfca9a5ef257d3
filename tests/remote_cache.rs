//! End to end (issue 44): a fleet of daemons shares one cache through a
//! remote tier. Real servers on loopback: Redis (the distribution's
//! `redis-server`) and an S3-compatible store (moto's server, from the
//! test venv that `scripts/test.sh` makes); each half skips, saying so,
//! where its server cannot start. A remote that is down, silent, damaged
//! or read-only is a miss, never a failed or wrong answer.

mod support;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::{row, rows, Daemon, Place, Repo};

/// A support agent's module with `tools` bound, each tool defined.
fn agent_module(tools: &[&str]) -> String {
    let mut source = String::from("from agents import Agent, function_tool\n\n");
    for tool in ["lookup", "refund", "escalate"] {
        source.push_str(&format!(
            "\n@function_tool\ndef {tool}(q: str) -> str:\n    return q\n\n"
        ));
    }
    source.push_str(&format!(
        "\nsupport = Agent(name=\"support\", tools=[{}])\n",
        tools.join(", ")
    ));
    source
}

/// Helpers the agent module does not import, so that a side has more
/// than one module to parse.
fn helper(n: usize) -> String {
    format!("def helper_{n}(x):\n    return x + {n}\n")
}

/// base → head (refund added) and base → other (escalate added), on
/// branches; returns the three commits.
fn fleet_repo() -> (Repo, String, String, String) {
    fleet_repo_of(6)
}

/// `fleet_repo` with `helpers` helper modules beside the agent.
fn fleet_repo_of(helpers: usize) -> (Repo, String, String, String) {
    let repo = Repo::new();
    let mut files: Vec<(String, String)> = (0..helpers)
        .map(|n| (format!("app/helpers_{n}.py"), helper(n)))
        .collect();
    files.push(("app/agent.py".into(), agent_module(&["lookup"])));
    let listed: Vec<(&str, Option<&str>)> = files
        .iter()
        .map(|(path, text)| (path.as_str(), Some(text.as_str())))
        .collect();
    let base = repo.commit(&listed, "base");
    let head = repo.commit(
        &[("app/agent.py", Some(&agent_module(&["lookup", "refund"])))],
        "add refund",
    );
    repo.git(&["checkout", "-q", "-b", "other", &base]);
    let other = repo.commit(
        &[("app/agent.py", Some(&agent_module(&["lookup", "escalate"])))],
        "add escalate",
    );
    (repo, base, head, other)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

fn wait_for_port(port: u16, child: &mut Child, what: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return true;
        }
        if let Ok(Some(status)) = child.try_wait() {
            eprintln!("{what} exited before it listened ({status})");
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!("{what} never listened on {port}");
    false
}

/// A server process on loopback, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `redis-server` on a free port, without persistence; `None` (said)
/// where it is not installed.
fn redis() -> Option<Server> {
    let port = free_port();
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("SKIPPED: redis-server is not installed (.ci/run installs it from the distribution's packages)");
        return None;
    };
    if !wait_for_port(port, &mut child, "redis-server") {
        let _ = child.kill();
        return None;
    }
    Some(Server { child, port })
}

/// moto's S3-compatible server from the test venv, with a bucket made;
/// `None` (said) where it is not there.
fn s3() -> Option<Server> {
    let python = std::env::var_os("SHIPGATE_TEST_PYTHON").map(PathBuf::from);
    let Some(server) = python
        .as_ref()
        .and_then(|python| python.parent().map(|bin| bin.join("moto_server")))
        .filter(|server| server.exists())
    else {
        eprintln!("SKIPPED: moto_server is not in SHIPGATE_TEST_PYTHON's venv (run the tests with scripts/test.sh)");
        return None;
    };
    let port = free_port();
    let mut child = Command::new(server)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    if !wait_for_port(port, &mut child, "moto_server") {
        let _ = child.kill();
        return None;
    }
    let server = Server { child, port };
    // The bucket, by a plain PUT (moto checks no signature).
    let response = http_request(port, "PUT", "/shipgate-fleet");
    assert!(
        response.starts_with("HTTP/1.1 200"),
        "bucket not made: {response}"
    );
    Some(server)
}

fn http_request(port: u16, method: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response
}

/// The S3 environment of a daemon: moto's credentials, nothing read from
/// this machine's AWS configuration or metadata service.
const S3_ENV: &[(&str, &str)] = &[
    ("AWS_ACCESS_KEY_ID", "testing"),
    ("AWS_SECRET_ACCESS_KEY", "testing"),
    ("AWS_REGION", "us-east-1"),
    ("AWS_EC2_METADATA_DISABLED", "true"),
    ("AWS_CONFIG_FILE", "/dev/null"),
    ("AWS_SHARED_CREDENTIALS_FILE", "/dev/null"),
];

fn s3_url(port: u16, prefix: &str) -> String {
    format!("s3://shipgate-fleet/{prefix}?region=us-east-1&endpoint=http://127.0.0.1:{port}")
}

fn redis_url(port: u16, prefix: &str) -> String {
    format!("redis://127.0.0.1:{port}/0/{prefix}")
}

/// A daemon of its own store using `remote` (with more `serve` flags).
fn daemon(place: &Place, remote: &str, flags: &[&str]) -> Daemon {
    daemon_with_key(place, remote, flags, None)
}

/// The same, with the fleet's secret in its environment.
fn daemon_with_key(place: &Place, remote: &str, flags: &[&str], key: Option<&str>) -> Daemon {
    let mut all = vec!["--remote-cache", remote];
    all.extend_from_slice(flags);
    let mut env = S3_ENV.to_vec();
    if let Some(key) = key {
        env.push(("SHIPGATE_REMOTE_CACHE_KEY", key));
    }
    Daemon::start_with_env(&place.data_dir(), &place.socket(), &all, &env)
}

fn status(place: &Place) -> serde_json::Value {
    let output = place.client(&["status", "--json"]);
    assert!(output.status.success(), "status failed");
    serde_json::from_slice(&output.stdout).expect("status JSON")
}

fn remote_counter(status: &serde_json::Value, name: &str) -> u64 {
    status["remote_cache"][name]
        .as_u64()
        .unwrap_or_else(|| panic!("remote_cache.{name} in {status}"))
}

fn diff_rows(place: &Place, repo: &Repo, base: &str, head: &str) -> Vec<(String, String, String)> {
    rows(&place.diff_json(repo, &["--base", base, "--head", head]))
}

/// Daemon A reads a pair and stops (its remote writes drained); daemon
/// B, on a fresh store, answers the same pair from the remote without
/// parsing a module, and a pair sharing its base with only the changed
/// module parsed.
fn a_fleet_shares_side_graphs_and_facts(remote: &str) {
    let (repo, base, head, other) = fleet_repo();
    let first = Place::new();
    let a = daemon(&first, remote, &[]);
    assert_eq!(
        diff_rows(&first, &repo, &base, &head),
        vec![row("support", "refund", "added")]
    );
    let written = status(&first);
    assert_eq!(remote_counter(&written, "errors"), 0, "{written}");
    a.stop();

    let second = Place::new();
    let _b = daemon(&second, remote, &[]);
    assert_eq!(
        diff_rows(&second, &repo, &base, &head),
        vec![row("support", "refund", "added")]
    );
    let answered = status(&second);
    assert!(remote_counter(&answered, "hits") >= 2, "{answered}");
    assert_eq!(remote_counter(&answered, "errors"), 0, "{answered}");
    // Both graphs came from the remote: no module was parsed here.
    assert_eq!(second.counters("facts"), (0, 0), "{answered}");

    assert_eq!(
        diff_rows(&second, &repo, &base, &other),
        vec![row("support", "escalate", "added")]
    );
    // The head's graph was built here from facts the remote held, all but
    // the changed module's.
    let (facts_hits, facts_misses) = second.counters("facts");
    assert_eq!(facts_misses, 1, "{}", status(&second));
    assert!(facts_hits >= 6, "{}", status(&second));
}

/// Daemon A walks a history; daemon B, on a fresh store, answers the
/// same history from the remote's steps, building no graph.
fn a_fleet_shares_history_steps(remote: &str) {
    let (repo, _, _, _) = fleet_repo();
    for tools in [&["lookup", "refund", "escalate"][..], &["refund"][..]] {
        repo.commit(&[("app/agent.py", Some(&agent_module(tools)))], "edit");
    }
    let first = Place::new();
    let a = daemon(&first, remote, &[]);
    let walked = first.history_json(&repo, &[]);
    a.stop();
    let second = Place::new();
    let _b = daemon(&second, remote, &[]);
    let answered = second.history_json(&repo, &[]);
    assert_eq!(answered["commits"], walked["commits"]);
    // The branch "other" is checked out: base, "add escalate", then the
    // two edits; every step came from the remote.
    assert_eq!(second.counters("history"), (4, 0), "{}", status(&second));
    assert_eq!(second.counters("graphs"), (0, 0), "{}", status(&second));
}

#[test]
fn a_fleet_shares_its_cache_through_redis() {
    let Some(server) = redis() else { return };
    a_fleet_shares_side_graphs_and_facts(&redis_url(server.port, "fleet"));
    a_fleet_shares_history_steps(&redis_url(server.port, "fleet-history"));
}

#[test]
fn a_fleet_shares_its_cache_through_an_s3_compatible_store() {
    let Some(server) = s3() else { return };
    a_fleet_shares_side_graphs_and_facts(&s3_url(server.port, "fleet"));
    a_fleet_shares_history_steps(&s3_url(server.port, "fleet-history"));
}

/// The remote killed between requests, and mid-way: answers still come,
/// from local work, and `status` says what went wrong.
#[test]
fn a_remote_killed_is_a_miss_and_the_diff_still_answers() {
    let Some(mut server) = redis() else { return };
    let (repo, base, head, other) = fleet_repo();
    let remote = redis_url(server.port, "killed");
    let place = Place::new();
    let _daemon = daemon(&place, &remote, &[]);
    assert_eq!(
        diff_rows(&place, &repo, &base, &head),
        vec![row("support", "refund", "added")]
    );
    server.kill();
    assert_eq!(
        diff_rows(&place, &repo, &base, &other),
        vec![row("support", "escalate", "added")]
    );
    let after = status(&place);
    assert!(remote_counter(&after, "errors") >= 1, "{after}");
    assert!(
        after["remote_cache"]["last_error"]
            .as_str()
            .is_some_and(|error| !error.is_empty()),
        "{after}"
    );
}

/// The remote killed while a request is using it (the request has asked
/// it something, and is still working): the request answers, from local
/// work, and so do the next ones.
#[test]
fn a_remote_killed_mid_request_leaves_the_request_its_answer() {
    let Some(mut server) = redis() else { return };
    let (repo, base, head, other) = fleet_repo_of(400);
    let remote = redis_url(server.port, "mid-request");
    let place = Place::new();
    let _daemon = daemon(&place, &remote, &[]);
    let asking = std::thread::scope(|scope| {
        let request = scope.spawn(|| diff_rows(&place, &repo, &base, &head));
        // Killed once the request has asked the remote something.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let now = status(&place);
            if remote_counter(&now, "misses") + remote_counter(&now, "hits") > 0 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the request never asked the remote"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        server.kill();
        request.join().expect("the request's thread")
    });
    assert_eq!(asking, vec![row("support", "refund", "added")]);
    assert_eq!(
        diff_rows(&place, &repo, &base, &other),
        vec![row("support", "escalate", "added")]
    );
}

/// A server that accepts connections and never answers: each read is a
/// miss at its deadline, the circuit opens after a few, and the answer
/// is the one a daemon without a remote gives.
#[test]
fn a_remote_that_never_answers_costs_a_few_deadlines_and_then_is_not_asked() {
    let silent = TcpListener::bind("127.0.0.1:0").expect("a listener");
    let port = silent.local_addr().expect("its address").port();
    let held = std::thread::spawn(move || {
        let mut open = Vec::new();
        for stream in silent.incoming().take(64) {
            open.push(stream);
        }
        std::thread::sleep(Duration::from_secs(120));
    });
    let (repo, base, head, _) = fleet_repo();
    for remote in [redis_url(port, "silent"), s3_url(port, "silent")] {
        let place = Place::new();
        let _daemon = daemon(&place, &remote, &["--remote-cache-timeout", "300ms"]);
        let started = Instant::now();
        assert_eq!(
            diff_rows(&place, &repo, &base, &head),
            vec![row("support", "refund", "added")]
        );
        let took = started.elapsed();
        let after = status(&place);
        assert!(remote_counter(&after, "errors") >= 3, "{after}");
        assert!(
            after["remote_cache"]["state"]
                .as_str()
                .is_some_and(|state| state.starts_with("not asked for")),
            "{after}"
        );
        assert!(
            after["remote_cache"]["last_error"]
                .as_str()
                .is_some_and(|error| error.contains("no answer within 300 ms")),
            "{after}"
        );
        // Generous: a handful of 300 ms deadlines, not one per lookup.
        assert!(took < Duration::from_secs(20), "{remote}: {took:?}");
    }
    drop(held);
}

/// A read-only daemon uses the remote and writes nothing to it.
#[test]
fn a_read_only_daemon_writes_nothing() {
    let Some(server) = redis() else { return };
    let (repo, base, head, _) = fleet_repo();
    let remote = redis_url(server.port, "readonly");
    let fork = Place::new();
    let reader = daemon(&fork, &remote, &["--remote-cache-read-only"]);
    assert_eq!(
        diff_rows(&fork, &repo, &base, &head),
        vec![row("support", "refund", "added")]
    );
    let after = status(&fork);
    assert_eq!(after["remote_cache"]["read_only"], true, "{after}");
    assert_eq!(remote_counter(&after, "writes"), 0, "{after}");
    reader.stop();
    assert_eq!(redis_keys(server.port), Vec::<Vec<u8>>::new());
}

/// Every value in the remote damaged (a byte appended): a fresh daemon
/// refuses each, computes the answer itself, and says so.
#[test]
fn damaged_remote_values_are_refused_and_the_answer_is_computed_here() {
    let Some(server) = redis() else { return };
    let (repo, base, head, _) = fleet_repo();
    let remote = redis_url(server.port, "damaged");
    let writer = Place::new();
    let a = daemon(&writer, &remote, &[]);
    diff_rows(&writer, &repo, &base, &head);
    a.stop();
    let keys = redis_keys(server.port);
    assert!(!keys.is_empty(), "daemon A wrote nothing");
    for key in &keys {
        redis_command(server.port, &[b"APPEND", key, b"x"]);
    }
    let reader = Place::new();
    let _b = daemon(&reader, &remote, &[]);
    assert_eq!(
        diff_rows(&reader, &repo, &base, &head),
        vec![row("support", "refund", "added")]
    );
    let after = status(&reader);
    assert_eq!(remote_counter(&after, "hits"), 0, "{after}");
    assert!(remote_counter(&after, "refused") >= 2, "{after}");
}

/// With a fleet key, a daemon reads only what was written with it: one
/// without the key (or with another) computes its answer itself, and what
/// it wrote unsigned is refused by the fleet.
#[test]
fn with_a_fleet_key_only_the_fleets_values_are_read() {
    let Some(server) = redis() else { return };
    let (repo, base, head, other) = fleet_repo();
    let remote = redis_url(server.port, "signed");
    let writer = Place::new();
    let a = daemon_with_key(&writer, &remote, &[], Some("fleet secret"));
    diff_rows(&writer, &repo, &base, &head);
    a.stop();

    let member = Place::new();
    let b = daemon_with_key(&member, &remote, &[], Some("fleet secret"));
    assert_eq!(
        diff_rows(&member, &repo, &base, &head),
        vec![row("support", "refund", "added")]
    );
    let read = status(&member);
    assert!(remote_counter(&read, "hits") >= 2, "{read}");
    assert_eq!(read["remote_cache"]["signed"], true, "{read}");
    drop(b);

    for key in [None, Some("another secret")] {
        let outsider = Place::new();
        let c = daemon_with_key(&outsider, &remote, &[], key);
        assert_eq!(
            diff_rows(&outsider, &repo, &base, &head),
            vec![row("support", "refund", "added")]
        );
        let refused = status(&outsider);
        assert_eq!(remote_counter(&refused, "hits"), 0, "{refused}");
        assert!(remote_counter(&refused, "refused") >= 2, "{refused}");
        // What it writes (unsigned, or signed with its own key) ...
        diff_rows(&outsider, &repo, &base, &other);
        c.stop();
    }
    // ... the fleet refuses.
    let member = Place::new();
    let _d = daemon_with_key(&member, &remote, &[], Some("fleet secret"));
    assert_eq!(
        diff_rows(&member, &repo, &base, &other),
        vec![row("support", "escalate", "added")]
    );
    let after = status(&member);
    assert!(remote_counter(&after, "refused") >= 1, "{after}");
}

/// A password in the URL is never printed: not by `status`, not in the
/// errors it keeps.
#[test]
fn a_password_in_the_remote_url_is_never_printed() {
    let Some(server) = redis() else { return };
    let (repo, base, head, _) = fleet_repo();
    let remote = format!("redis://:hunter2secret@127.0.0.1:{}/0/masked", server.port);
    let place = Place::new();
    let _daemon = daemon(&place, &remote, &[]);
    diff_rows(&place, &repo, &base, &head);
    for format in [&["status"][..], &["status", "--json"][..]] {
        let output = place.client(format);
        let printed = String::from_utf8_lossy(&output.stdout);
        assert!(printed.contains("redis://***@127.0.0.1"), "{printed}");
        assert!(!printed.contains("hunter2secret"), "{printed}");
    }
}

/// A daemon the client starts on demand inherits the remote cache from
/// the environment (a CI job sets one variable).
#[test]
fn a_daemon_the_client_starts_inherits_the_remote_cache() {
    let Some(server) = redis() else { return };
    let (repo, base, head, _) = fleet_repo();
    let remote = redis_url(server.port, "inherited");
    let place = Place::new();
    let workspace = repo.path().to_string_lossy().into_owned();
    let env = [("SHIPGATE_REMOTE_CACHE", remote.as_str())];
    let output = place.client_with_env(
        &[
            "diff",
            "--application",
            "--workspace",
            &workspace,
            "--base",
            &base,
            "--head",
            &head,
            "--json",
        ],
        &env,
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answered = status(&place);
    assert_eq!(
        answered["remote_cache"]["location"],
        remote.as_str(),
        "{answered}"
    );
    let stopped = place.client(&["shutdown"]);
    assert!(stopped.status.success());
    // The stop waited for the queued writes: the fleet has the work.
    let deadline = Instant::now() + Duration::from_secs(10);
    while redis_keys(server.port).is_empty() {
        assert!(Instant::now() < deadline, "nothing reached the remote");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_unusable_remote_url_is_refused_at_start_with_its_secret_masked() {
    let (daemon, _) = support::binaries();
    let place = Place::new();
    let output = Command::new(daemon)
        .args(["serve", "--socket"])
        .arg(place.socket())
        .arg("--data-dir")
        .arg(place.data_dir())
        .args(["--remote-cache", "ftp://user:pw12345@host/x"])
        .output()
        .expect("the daemon runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown remote cache scheme `ftp`"),
        "{stderr}"
    );
    assert!(!stderr.contains("pw12345"), "{stderr}");
}

/// `KEYS *` of a Redis server, by hand in its protocol.
fn redis_keys(port: u16) -> Vec<Vec<u8>> {
    let reply = redis_command(port, &[b"KEYS", b"*"]);
    let mut lines = reply
        .split(|b| *b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line));
    let count: usize = lines
        .next()
        .and_then(|line| {
            std::str::from_utf8(line.strip_prefix(b"*")?)
                .ok()?
                .parse()
                .ok()
        })
        .expect("an array reply");
    (0..count)
        .filter_map(|_| {
            let _length = lines.next()?;
            lines.next().map(<[u8]>::to_vec)
        })
        .collect()
}

/// One command, then QUIT so that the server closes and the reply ends.
fn redis_command(port: u16, parts: &[&[u8]]) -> Vec<u8> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("redis connects");
    let mut request = format!("*{}\r\n", parts.len()).into_bytes();
    for part in parts {
        request.extend_from_slice(format!("${}\r\n", part.len()).as_bytes());
        request.extend_from_slice(part);
        request.extend_from_slice(b"\r\n");
    }
    request.extend_from_slice(b"*1\r\n$4\r\nQUIT\r\n");
    stream.write_all(&request).expect("send");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    reply
}
