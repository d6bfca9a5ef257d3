//! The working tree as a commit: what `diff --worktree` compares.
//!
//! The engine reads git objects only, so the working tree is first made
//! into objects the way git itself does for `git stash create`: a private
//! copy of the index takes every `.py` file as it is on disk (staged,
//! unstaged and untracked, `.gitignore` respected: `git add -A`), git
//! writes its tree, and a commit of that tree on `HEAD` with a fixed
//! author and date is made. The user's index, branches and files are never
//! touched; the new objects are ordinary loose objects that `git gc`
//! prunes. The same working tree on the same `HEAD` is always the same
//! commit, so a repeated request is a cached answer.

use super::Repository;
use crate::error::{field, DiffError, Reason};
use gix::ObjectId;
use std::path::Path;
use std::process::{Command, Stdio};

/// What the working tree's files are taken by: Python files only, at any
/// depth (the engine lists nothing else), so a large untracked binary is
/// never written into the object database.
const PATHSPEC: &str = ":(glob)**/*.py";

/// The identity of every snapshot commit: fixed, so a snapshot is a
/// function of the tree and its parent.
const SNAPSHOT_IDENTITY: [(&str, &str); 6] = [
    ("GIT_AUTHOR_NAME", "shipgate"),
    ("GIT_AUTHOR_EMAIL", "shipgate@localhost"),
    ("GIT_AUTHOR_DATE", "@0 +0000"),
    ("GIT_COMMITTER_NAME", "shipgate"),
    ("GIT_COMMITTER_EMAIL", "shipgate@localhost"),
    ("GIT_COMMITTER_DATE", "@0 +0000"),
];

impl Repository {
    /// The working tree as a commit whose parent is `HEAD`.
    pub fn worktree_snapshot(&self) -> Result<ObjectId, DiffError> {
        let local = self.local();
        let Some(workdir) = local.workdir().map(Path::to_path_buf) else {
            return Err(unreadable(
                "The repository has no working tree (it is bare): there is nothing uncommitted to compare.",
            ));
        };
        let head = local
            .head_id()
            .map_err(|_| unreadable("HEAD names no commit yet: commit once, then compare the working tree against it."))?
            .detach();
        let scratch = tempfile::Builder::new()
            .prefix("shipgate-worktree-")
            .tempdir()
            .map_err(|err| unreadable(&format!("A private index could not be made: {err}.")))?;
        let index = scratch.path().join("index");
        // Starting from the user's index keeps what is staged and git's
        // stat cache (so unchanged files are not read again); a
        // repository without an index starts empty.
        let own_index = local.index_path();
        if own_index.is_file() {
            std::fs::copy(&own_index, &index)
                .map_err(|err| unreadable(&format!("The index could not be copied: {err}.")))?;
        }
        git(&workdir, &index, &["add", "--all", "--", PATHSPEC])?;
        let tree = git(&workdir, &index, &["write-tree"])?;
        let head_hex = head.to_string();
        let commit = git(
            &workdir,
            &index,
            &[
                "commit-tree",
                &tree,
                "-p",
                &head_hex,
                "-m",
                "shipgate: the working tree",
            ],
        )?;
        ObjectId::from_hex(commit.as_bytes())
            .map_err(|_| unreadable(&format!("git printed {commit:?} for the snapshot commit.")))
    }
}

/// Runs git in `workdir` on the private `index`; its trimmed stdout.
fn git(workdir: &Path, index: &Path, args: &[&str]) -> Result<String, DiffError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(workdir)
        .args(args)
        .env("GIT_INDEX_FILE", index)
        .envs(SNAPSHOT_IDENTITY)
        // Never ask anyone anything, never page.
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .output()
        .map_err(|err| unreadable(&format!("git could not be run ({err}); the working tree is read through git, which must be on the PATH.")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(unreadable(&format!(
            "`git {}` failed: {}",
            args.first().copied().unwrap_or_default(),
            stderr.trim()
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

fn unreadable(message: &str) -> DiffError {
    DiffError::config(Reason::WorktreeUnreadable, message.to_string())
        .about(field::WORKTREE, "true")
}
