//! The Python wheel (issue 45): `scripts/build-wheel.sh` builds one wheel
//! carrying both programs; a fresh virtual environment with only that
//! wheel installed answers the README's example diff (the demo repository
//! of `scripts/diff.sh`), the client starting the daemon installed beside
//! it, and its policy flags work there too.
//!
//! Needs Python with `venv` and PyPI for maturin the first time:
//! `SHIPGATE_TEST_PYTHON` switches the test on (`scripts/test.sh` sets it,
//! as for the stock client's test); unset, it says why it is skipped.

use std::path::Path;
use std::process::{Command, Output};

const PYTHON_ENV: &str = "SHIPGATE_TEST_PYTHON";

fn run(command: &mut Command) -> Output {
    let output = command.output().expect("the command starts");
    assert!(
        output.status.success() || output.status.code() == Some(3),
        "{command:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn a_fresh_venv_with_only_the_wheel_answers_the_readme_example() {
    if std::env::var_os(PYTHON_ENV)
        .filter(|v| !v.is_empty())
        .is_none()
    {
        eprintln!(
            "skipped: {PYTHON_ENV} is not set (the wheel test needs python3 with venv and PyPI \
             for maturin; scripts/test.sh sets it)"
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let place = tempfile::tempdir().expect("temp dir");
    let wheels = place.path().join("wheels");
    let built = run(Command::new(root.join("scripts/build-wheel.sh"))
        .arg("--check")
        .arg("--out")
        .arg(&wheels));
    let wheel = String::from_utf8_lossy(&built.stdout).trim().to_string();
    let name = Path::new(&wheel)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    assert!(
        name.starts_with("shipgate_agents-") && name.ends_with(".whl"),
        "{wheel}"
    );
    // A platform wheel (no Python code in it), tagged for a libc family.
    assert!(name.contains("-py3-none-"), "{name}");
    assert!(
        ["manylinux", "musllinux", "macosx"]
            .iter()
            .any(|tag| name.contains(tag)),
        "{name}"
    );

    // A fresh venv (the machine's python3, not the test venv) with the
    // wheel alone: no index, so nothing else can come in.
    let venv = place.path().join("venv");
    run(Command::new("python3").arg("-m").arg("venv").arg(&venv));
    run(Command::new(venv.join("bin/pip"))
        .args([
            "install",
            "--quiet",
            "--no-index",
            "--disable-pip-version-check",
        ])
        .arg(&wheel));
    let bin = venv.join("bin");
    assert!(bin.join("shipgate-client").is_file());
    assert!(bin.join("shipgate-daemon").is_file());

    let demo = place.path().join("demo");
    run(Command::new(root.join("scripts/demo-repo.sh")).arg(&demo));
    let data = place.path().join("data");
    let client = |args: &[&str]| {
        let mut command = Command::new(bin.join("shipgate-client"));
        command
            .args(args)
            // Only the venv's programs: the daemon is found beside the client.
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("SHIPGATE_DATA_DIR", &data)
            .env_remove("SHIPGATE_SOCKET")
            .env_remove("SHIPGATE_ADDR")
            .env_remove("SHIPGATE_DAEMON");
        command
    };
    let workspace = demo.to_string_lossy().into_owned();
    let diff = [
        "diff",
        "--application",
        "--workspace",
        workspace.as_str(),
        "--base",
        "main",
        "--head",
        "add-refunds",
    ];
    let output = run(&mut client(&diff));
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        text.starts_with("Application comparison: compared ("),
        "{text}"
    );
    assert!(text.contains("ADDED  support → refund_order"), "{text}");

    let mut with_policy = diff.to_vec();
    with_policy.extend(["--fail-on", "added"]);
    let output = run(&mut client(&with_policy));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("shipgate: policy: added: support → refund_order"),
        "{stderr}"
    );
    run(&mut client(&["shutdown"]));
}
