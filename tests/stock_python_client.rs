//! A stock Python gRPC client (grpcio, grpcio-reflection,
//! grpcio-health-checking, grpcio-status; no code generated from our
//! proto) against a real daemon, over the Unix socket and over TCP:
//! reflection, health without the token, a real call, and an error's
//! `google.rpc.Status` with its `ErrorInfo`. The checks themselves are
//! `tests/python/stock_client.py`.
//!
//! Needs a Python with those packages: `SHIPGATE_TEST_PYTHON` names it
//! (`.ci/run` makes a venv and sets it). Unset, the test says why it is
//! skipped and passes, so `cargo test` runs anywhere.

mod support;

use support::{Place, Repo, TcpDaemon};

/// The variable naming the Python to run the stock client with.
const PYTHON_ENV: &str = "SHIPGATE_TEST_PYTHON";

#[test]
fn a_stock_python_client_reflects_checks_health_and_reads_rich_errors() {
    let Some(python) = std::env::var_os(PYTHON_ENV).filter(|v| !v.is_empty()) else {
        eprintln!(
            "skipped: {PYTHON_ENV} is not set (a Python with grpcio, grpcio-reflection, \
             grpcio-health-checking and grpcio-status; .ci/run sets it)"
        );
        return;
    };
    let repo = Repo::new();
    repo.commit(&[("app/agent.py", Some("x = 1\n"))], "base");
    let place = Place::new();
    let _unix = place.start_daemon();
    let tcp = TcpDaemon::start(place.dir.path());
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/stock_client.py");
    let output = std::process::Command::new(&python)
        .arg(&script)
        .arg("--unix")
        .arg(place.socket())
        .args(["--tcp", &tcp.addr])
        .arg("--token-file")
        .arg(&tcp.token_file)
        .arg("--workspace")
        .arg(repo.path())
        .output()
        .expect("the Python client runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the stock client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}\n{stderr}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
}
