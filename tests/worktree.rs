//! End to end: `diff --worktree` compares the working tree, taken as it is
//! on disk (a staged edit, an unstaged edit and an untracked `.py` file
//! alike, `.gitignore` respected), against `HEAD`, names the head as the
//! working tree, and leaves the user's index and files as they were.

mod support;

use support::{row, rows, Daemon, Place, Repo};

const TOOLS: &str =
    "from agents import function_tool\n\n\n@function_tool\ndef ping() -> str:\n    return 'pong'\n";

fn agent(imports: &str, tools: &str) -> String {
    format!("from agents import Agent\n{imports}\n\nbot = Agent(name='Bot', tools=[{tools}])\n")
}

/// A repository whose `HEAD` binds `ping`.
fn committed() -> Repo {
    let repo = Repo::new();
    repo.commit(
        &[
            ("bot/__init__.py", Some("")),
            ("bot/tools.py", Some(TOOLS)),
            (
                "bot/agent.py",
                Some(&agent("from bot.tools import ping", "ping")),
            ),
            (".gitignore", Some("scratch/\n")),
        ],
        "base",
    );
    repo
}

fn write(repo: &Repo, path: &str, text: &str) {
    let path = repo.path().join(path);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("dir");
    }
    std::fs::write(path, text).expect("write");
}

#[test]
fn the_working_tree_is_compared_against_head_staged_unstaged_and_untracked() {
    let repo = committed();
    // Staged: ping's implementation changes.
    write(&repo, "bot/tools.py", &TOOLS.replace("'pong'", "'pang'"));
    repo.git(&["add", "bot/tools.py"]);
    // Untracked: a new module with a tool; unstaged: the agent binds it.
    write(
        &repo,
        "bot/refunds.py",
        "from agents import function_tool\n\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n",
    );
    write(
        &repo,
        "bot/agent.py",
        &agent(
            "from bot.tools import ping\nfrom bot.refunds import refund",
            "ping, refund",
        ),
    );
    // Ignored: never read, even though it would bind a tool.
    write(&repo, "scratch/agent.py", &agent("", "ping"));
    let index_before = repo.git(&["diff", "--cached", "--name-status"]);
    let status_before = repo.git(&["status", "--porcelain", "--untracked-files=all"]);

    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--worktree", "--scope", "."]);
    assert_eq!(
        rows(&doc),
        vec![row("bot", "ping", "changed"), row("bot", "refund", "added")],
        "{doc:#}"
    );
    assert_eq!(doc["head"]["requested_ref"], "working tree");
    assert_eq!(doc["base"]["requested_ref"], "HEAD");
    let head_commit = repo.git(&["rev-parse", "HEAD"]);
    assert_eq!(doc["base"]["compared_commit"], head_commit.as_str());
    let (code, text, stderr) = place.diff(&repo, &["--worktree", "--scope", "."]);
    assert_eq!(code, 0, "{stderr}");
    let header = text.lines().next().unwrap_or_default();
    assert!(header.ends_with("→ working tree)"), "{header}");

    // Nothing of the user's moved: the index, the files, HEAD.
    assert_eq!(
        repo.git(&["diff", "--cached", "--name-status"]),
        index_before
    );
    assert_eq!(
        repo.git(&["status", "--porcelain", "--untracked-files=all"]),
        status_before
    );
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), head_commit);

    // A further edit is a new answer, never the one kept for the last.
    write(
        &repo,
        "bot/agent.py",
        &agent("from bot.tools import ping", "ping"),
    );
    let doc = place.diff_json(&repo, &["--worktree", "--scope", "."]);
    assert_eq!(rows(&doc), vec![row("bot", "ping", "changed")], "{doc:#}");
}

#[test]
fn a_clean_working_tree_says_nothing_can_differ() {
    let repo = committed();
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let (code, text, stderr) = place.diff(&repo, &["--worktree", "--scope", "."]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.get(1).copied(),
        Some("the working tree holds no change to a .py file against the base, so nothing can differ."),
        "{text}"
    );
}

#[test]
fn the_working_tree_is_the_head_and_a_bare_repository_has_none() {
    let repo = committed();
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let (code, _, stderr) = place.diff(&repo, &["--worktree", "--head", "main"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--worktree"), "{stderr}");

    let bare = tempfile::tempdir().expect("temp dir");
    let cloned = std::process::Command::new("git")
        .args(["clone", "--quiet", "--bare"])
        .arg(repo.path())
        .arg(bare.path())
        .status()
        .expect("git clone");
    assert!(cloned.success());
    let workspace = bare.path().to_string_lossy().into_owned();
    let output = place.client(&[
        "diff",
        "--application",
        "--worktree",
        "--workspace",
        &workspace,
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no working tree (it is bare)"), "{stderr}");
}
