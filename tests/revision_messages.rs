//! Issue 46, item 8: messages that said the wrong thing. A revision that
//! names a tree or a blob is not "unavailable locally"; a head whose parent
//! is missing has no merge base because of the missing commit, which is
//! named; `//app` is refused as the absolute path it is, not for `..`.

mod support;

use support::{Place, Repo};

#[test]
fn revisions_that_name_no_commit_say_what_they_name() {
    let repo = Repo::new();
    repo.commit(&[("a.py", Some("x = 1\n"))], "one");
    repo.git(&["tag", "-a", "treetag", "-m", "a tree", "HEAD^{tree}"]);
    let tree = repo.git(&["rev-parse", "HEAD^{tree}"]);
    let commit = format!(
        "tree {}\nparent 1111111111111111111111111111111111111111\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n\norphan\n",
        tree.trim()
    );
    std::fs::write(repo.path().join("commit.txt"), commit).expect("write");
    let orphan = repo.git(&[
        "hash-object",
        "-t",
        "commit",
        "-w",
        "--literally",
        "commit.txt",
    ]);
    repo.git(&["branch", "orphan", orphan.trim()]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let refused = |args: &[&str], message: &str| {
        let (code, stdout, stderr) = place.diff(&repo, args);
        assert_ne!(code, 0, "{args:?}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    };
    refused(
        &["--base", "main", "--head", "treetag"],
        "Head ref 'treetag' names a tree, not a commit: pass a branch, a tag of a commit or a commit id.",
    );
    refused(
        &["--base", "main", "--head", "HEAD^{tree}"],
        "Head ref 'HEAD^{tree}' names a tree, not a commit",
    );
    refused(
        &["--base", "HEAD:a.py", "--head", "main"],
        "Base ref 'HEAD:a.py' names a blob (a file's content), not a commit",
    );
    refused(
        &["--base", "main", "--head", "orphan"],
        &format!(
            "Commit 111111111111, a parent of {}, is not in this repository (objects_missing)",
            &orphan.trim()[..12]
        ),
    );
    refused(
        &["--base", "main", "--scope", "//app"],
        "Scope '//app' is an absolute path: pass a directory relative to the repository root (app, not /app).",
    );
}
