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

/// Untracked: a new module with a tool; unstaged: the agent binds it.
fn bind_an_untracked_refund(repo: &Repo) {
    write(
        repo,
        "bot/refunds.py",
        "from agents import function_tool\n\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n",
    );
    write(
        repo,
        "bot/agent.py",
        &agent(
            "from bot.tools import ping\nfrom bot.refunds import refund",
            "ping, refund",
        ),
    );
}

#[test]
fn the_working_tree_is_compared_against_head_staged_unstaged_and_untracked() {
    let repo = committed();
    // Staged: ping's implementation changes.
    write(&repo, "bot/tools.py", &TOOLS.replace("'pong'", "'pang'"));
    repo.git(&["add", "bot/tools.py"]);
    bind_an_untracked_refund(&repo);
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

/// Every file under `.git/` with its bytes, in path order.
fn git_dir_contents(repo: &Repo) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    fn walk(dir: &std::path::Path, into: &mut Vec<(std::path::PathBuf, Vec<u8>)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("read .git")
            .map(|entry| entry.expect("entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, into);
            } else {
                let bytes = std::fs::read(&path).expect("read a .git file");
                into.push((path, bytes));
            }
        }
    }
    let mut contents = Vec::new();
    walk(&repo.path().join(".git"), &mut contents);
    contents
}

#[test]
fn the_working_tree_writes_nothing_into_the_repository_and_reads_no_file_past_the_bound() {
    let repo = committed();
    // Within the bound: hashed, but into a private object directory.
    bind_an_untracked_refund(&repo);
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();

    let before = git_dir_contents(&repo);
    let doc = place.diff_json(&repo, &["--worktree", "--scope", "."]);
    assert_eq!(
        git_dir_contents(&repo),
        before,
        "nothing under .git/ changed"
    );
    assert_eq!(
        rows(&doc),
        vec![row("bot", "refund", "added")],
        "the private objects are read: {doc:#}"
    );

    // Past the bound: a 3 MB untracked module and a 10 GiB sparse one.
    // Neither is read or hashed (the sparse one would take minutes): each
    // is named as a committed file past the bound is, and .git/ stays as
    // it was.
    write(&repo, "bot/big.py", &"# padding\n".repeat(300_000));
    let huge = std::fs::File::create(repo.path().join("bot/huge.py")).expect("create");
    huge.set_len(10 << 30).expect("a sparse file");
    drop(huge);
    let before = git_dir_contents(&repo);
    let doc = place.diff_json(&repo, &["--worktree", "--scope", "."]);
    assert_eq!(
        git_dir_contents(&repo),
        before,
        "nothing under .git/ changed"
    );
    // The head is not read, so the base's tool cannot be established
    // as kept or gone.
    assert_eq!(doc["comparison_status"], "partial", "{doc:#}");
    assert_eq!(
        rows(&doc),
        vec![row("bot", "ping", "not_established")],
        "{doc:#}"
    );
    assert!(
        support::limits(&doc, "head")
            .contains(&"Python input exceeds 2000000 bytes: bot/big.py".to_string()),
        "{}",
        doc["head"]
    );
    // The same working tree is the same snapshot: a kept answer.
    let again = place.diff_json(&repo, &["--worktree", "--scope", "."]);
    assert_eq!(
        again["head"]["compared_commit"],
        doc["head"]["compared_commit"]
    );
}

/// Git trusts a file's cached stat only when the file is older than the
/// index ("racy git"). An edit made in the same second as the last `git
/// add`, keeping the file's size, must still be seen: the snapshot's copy
/// of the index keeps the index's time, so git reads the file's content.
#[test]
fn an_edit_in_the_same_second_as_the_index_with_the_same_size_is_seen() {
    let repo = committed();
    let when = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    let set_time = |path: &std::path::Path| {
        std::fs::File::options()
            .write(true)
            .open(path)
            .expect("open")
            .set_modified(when)
            .expect("set time");
    };
    let tools = repo.path().join("bot/tools.py");
    // The index records `tools.py` at `when`, and is itself from `when`.
    set_time(&tools);
    repo.git(&["add", "bot/tools.py"]);
    repo.git(&["commit", "-q", "--allow-empty", "-m", "restamp"]);
    set_time(&repo.path().join(".git/index"));
    // Same size, same time: only the content tells.
    let edited = TOOLS.replace("'pong'", "'pang'");
    assert_eq!(edited.len(), TOOLS.len());
    write(&repo, "bot/tools.py", &edited);
    set_time(&tools);

    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--worktree", "--scope", "."]);
    assert_eq!(rows(&doc), vec![row("bot", "ping", "changed")], "{doc:#}");
}
