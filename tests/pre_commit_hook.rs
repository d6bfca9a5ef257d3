//! The pre-commit hooks (`.pre-commit-hooks.yaml`) run by pre-commit
//! itself: the manifest validates, and `pre-commit try-repo` runs the
//! `shipgate` hook (the real client, first on PATH, and its daemon
//! on a private store) over a fixture repository's staged changes: a
//! staged tool addition fails the commit and names the tool; a staged
//! edit of a comment passes, an untracked new agent beside it unread; a
//! staged change to no Python file skips the hook.
//!
//! The hook repository pre-commit clones is a temporary one holding this
//! working tree's `.pre-commit-hooks.yaml`, committed: `try-repo` on the
//! checkout itself would take only its committed and tracked files.
//!
//! Needs pre-commit beside the Python `SHIPGATE_TEST_PYTHON` names
//! (`scripts/test.sh` installs it in its venv). Unset, or without
//! pre-commit, the test says why it is skipped and passes.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::Repo;

/// The variable naming the test venv's Python; pre-commit sits beside it.
const PYTHON_ENV: &str = "SHIPGATE_TEST_PYTHON";

const HOOK: &str = "shipgate";

/// The base with only a comment edited.
const COMMENT_ONLY: &str = r#"from agents import Agent, function_tool


@function_tool
def lookup(order_id: str) -> str:
    """Look an order up."""
    # The order id is the shop's, not the payment provider's.
    return order_id


support = Agent(name="support", tools=[lookup])
"#;

/// A second agent, left untracked.
const UNTRACKED_AGENT: &str = r#"from agents import Agent, function_tool


@function_tool
def charge(card: str) -> str:
    """Charge a card."""
    return card


billing = Agent(name="billing", tools=[charge])
"#;

/// The `pre-commit` executable of the test venv, or why the test is skipped.
fn pre_commit() -> Result<PathBuf, String> {
    let python = std::env::var_os(PYTHON_ENV)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| {
            format!("{PYTHON_ENV} is not set (a venv with pre-commit; scripts/test.sh sets it)")
        })?;
    let pre_commit = Path::new(&python)
        .parent()
        .map(|bin| bin.join("pre-commit"))
        .filter(|p| p.is_file())
        .ok_or_else(|| {
            format!(
                "no pre-commit beside {} (scripts/test.sh installs it)",
                Path::new(&python).display()
            )
        })?;
    Ok(pre_commit)
}

/// A hook repository holding this working tree's manifest, committed.
fn hook_repository() -> Repo {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let text = std::fs::read_to_string(&manifest).expect("the hook manifest");
    let repo = Repo::new();
    repo.commit(&[(".pre-commit-hooks.yaml", Some(&text))], "hooks");
    repo
}

/// pre-commit, run in `repo`: the client's directory first on PATH, the
/// daemon's store and pre-commit's cache in `scratch`. (exit, output)
fn run(pre_commit: &Path, repo: &Path, scratch: &Path, args: &[&str]) -> (i32, String) {
    let (_, client) = support::binaries();
    let client_dir = client.parent().expect("the client's directory");
    let path = std::env::join_paths(std::iter::once(client_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH");
    let output = Command::new(pre_commit)
        .args(args)
        .current_dir(repo)
        .env("PATH", path)
        .env("SHIPGATE_DATA_DIR", scratch.join("data"))
        .env("PRE_COMMIT_HOME", scratch.join("pre-commit-home"))
        .env("PRE_COMMIT_COLOR", "never")
        .env_remove("SKIP")
        .env_remove("SHIPGATE_SOCKET")
        .env_remove("SHIPGATE_ADDR")
        .env_remove("SHIPGATE_DAEMON")
        .env_remove("AGENTS_SHIPGATE_AGENT_MODE")
        .env_remove("CLAUDECODE")
        .env_remove("CURSOR_TRACE_ID")
        .output()
        .expect("pre-commit runs");
    (
        output.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

/// Writes a file and stages it.
fn stage(repo: &Repo, path: &str, text: &str) {
    std::fs::write(repo.path().join(path), text).expect("write");
    repo.git(&["add", path]);
}

#[test]
fn the_hook_fails_a_staged_tool_addition_and_passes_a_comment_edit() {
    let pre_commit = match pre_commit() {
        Ok(pre_commit) => pre_commit,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let scratch = tempfile::tempdir().expect("temp dir");
    let _stop = support::StopDaemon(scratch.path().join("data"));
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");

    // Both hooks' declarations are valid for pre-commit.
    let manifest_arg = manifest.to_string_lossy().into_owned();
    let (code, output) = run(
        &pre_commit,
        scratch.path(),
        scratch.path(),
        &["validate-manifest", &manifest_arg],
    );
    assert_eq!(code, 0, "{output}");

    let hooks = hook_repository();
    let hooks_path = hooks.path().to_string_lossy().into_owned();
    let try_repo = [
        "try-repo",
        hooks_path.as_str(),
        HOOK,
        "--verbose",
        "--color=never",
    ];
    let repo = Repo::new();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/agent.py", Some(support::SUPPORT_WITH_LOOKUP)),
            ("README.md", Some("The shop.\n")),
        ],
        "a support agent with a lookup tool",
    );

    // A staged tool addition: the hook fails and names the tool.
    stage(&repo, "app/agent.py", support::SUPPORT_WITH_REFUND);
    let (code, output) = run(&pre_commit, repo.path(), scratch.path(), &try_repo);
    assert_ne!(code, 0, "the hook passed a new tool:\n{output}");
    assert!(output.contains("Failed"), "{output}");
    assert!(output.contains("shipgate: policy:"), "{output}");
    assert!(
        output
            .lines()
            .any(|l| l.contains("shipgate: policy:") && l.contains("refund")),
        "{output}"
    );
    // A staged comment edit: no capability changed; the hook passes. An
    // untracked agent beside it (pre-commit stashes unstaged changes, not
    // untracked files) is not part of the commit, and not compared.
    repo.git(&["reset", "-q", "--hard"]);
    stage(&repo, "app/agent.py", COMMENT_ONLY);
    std::fs::write(repo.path().join("app/billing.py"), UNTRACKED_AGENT).expect("write");
    let (code, output) = run(&pre_commit, repo.path(), scratch.path(), &try_repo);
    assert_eq!(code, 0, "the hook failed a comment edit:\n{output}");
    assert!(output.contains("Passed"), "{output}");
    assert!(!output.contains("shipgate: policy: failed"), "{output}");
    assert!(
        !output.contains("charge"),
        "the untracked agent was read:\n{output}"
    );

    // A staged change to no Python file: the hook does not run.
    repo.git(&["reset", "-q", "--hard"]);
    repo.git(&["clean", "-q", "-f"]);
    stage(&repo, "README.md", "The shop, now with refunds.\n");
    let (code, output) = run(&pre_commit, repo.path(), scratch.path(), &try_repo);
    assert_eq!(code, 0, "{output}");
    assert!(output.contains("Skipped"), "{output}");
}
