//! The working tree as a commit: what `diff --worktree` compares.
//!
//! The engine reads git objects only, so the working tree is first made
//! into objects the way git itself does for `git stash create`: a private
//! copy of the index takes every `.py` file as it is on disk (staged,
//! unstaged and untracked, `.gitignore` respected), git writes its tree,
//! and a commit of that tree on `HEAD` with a fixed author and date is
//! made. The same working tree on the same `HEAD` is always the same
//! commit, so a repeated request is a cached answer. `diff --staged` takes
//! the index alone the same way (no file of the working tree is read).
//!
//! Nothing is written into the repository (issue 46): every object git
//! makes goes to a private object directory of this request, whose
//! `info/alternates` names the repository's own, and which is removed when
//! the request's [`Repository`] handle goes; the user's index, refs,
//! objects and files are never touched. A file over the size bound the
//! engine reads (its `MAX_PYTHON_BYTES`) is never read or hashed: its path takes a
//! stand-in blob one byte past the bound, which the side plan names as the
//! committed oversized file is named ("Python input exceeds …"). Every
//! blob past the bound is read the same way whatever it holds, so the
//! stand-in answers exactly as the file would. A `git` child is killed as
//! soon as the request is cancelled.

use super::Repository;
use crate::error::{field, DiffError, Reason};
use gix::ObjectId;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

/// Which files of the working tree a snapshot takes.
#[derive(Debug, Clone, Copy)]
pub struct Taken<'a> {
    /// The pathspecs of the files taken.
    pub pathspecs: &'a [&'a str],
    /// Whether files `.gitignore` ignores are taken too: a host's local
    /// configuration (`.claude/settings.local.json`) is ignored by design
    /// and still configures the agent working in this tree.
    pub ignored_too: bool,
}

/// What an application comparison takes of the working tree: Python
/// files only, at any depth (the engine lists nothing else), so a large
/// untracked binary is never written into the object database; ignored
/// files are not the application. A host comparison takes its sources'
/// (`hosts::sources::TAKEN`).
pub const PYTHON_FILES: Taken<'static> = Taken {
    pathspecs: &[":(glob)**/*.py"],
    ignored_too: false,
};

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

/// Settings that keep git from writing or starting anything beside what it
/// is asked for: no file-system monitor daemon, no untracked cache, no
/// automatic housekeeping.
const QUIET_SETTINGS: [&str; 8] = [
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.untrackedCache=false",
    "-c",
    "gc.auto=0",
    "-c",
    "maintenance.auto=false",
];

/// The most a `git` child may print before it is stopped: a listing of
/// the working tree's changed Python files is far below it.
const MAX_GIT_OUTPUT: u64 = 256 * 1024 * 1024;

/// What a snapshot takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Snapshotted {
    /// Every `.py` file as it is on disk (staged, unstaged, untracked).
    WorkingTree,
    /// The index as it stands: what the next commit takes (`diff
    /// --staged`, a pre-commit hook's view). Its blobs are already in the
    /// repository's objects; only the tree and the commit are written.
    Index,
}

/// A working tree taken as a commit.
pub struct Snapshot {
    /// The repository with the snapshot's private objects in view.
    pub repository: Repository,
    /// The snapshot commit, whose parent is `HEAD`.
    pub commit: ObjectId,
}

impl Repository {
    /// The working tree as a commit whose parent is `HEAD`, and a handle
    /// that reads it (its objects live as long as that handle).
    /// Files over `max_file_bytes` are never read (`Git::take_changed_files`).
    pub fn worktree_snapshot(
        &self,
        taken: Snapshotted,
        files: Taken<'_>,
        max_file_bytes: u64,
    ) -> Result<Snapshot, DiffError> {
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
            .map_err(|err| {
                unreadable(&format!(
                    "A private object directory could not be made: {err}."
                ))
            })?;
        let own_objects = local.objects.store_ref().path().to_path_buf();
        let own_objects = own_objects.canonicalize().unwrap_or(own_objects);
        let private_git = private_git_dir(scratch.path(), &own_objects, head).map_err(|err| {
            unreadable(&format!(
                "A private object directory could not be made: {err}."
            ))
        })?;
        let git = Git {
            max_file_bytes,
            workdir,
            index: scratch.path().join("index"),
            objects: private_git.join("objects"),
        };
        // Starting from the user's index keeps what is staged and git's
        // stat cache (so unchanged files are not read again); a
        // repository without an index starts empty.
        let own_index = local.index_path();
        if own_index.is_file() {
            copy_keeping_mtime(&own_index, &git.index)
                .map_err(|err| unreadable(&format!("The index could not be copied: {err}.")))?;
        }
        if taken == Snapshotted::WorkingTree {
            git.take_changed_files(files)?;
        }
        let tree = git.text(&["write-tree"], None)?;
        let head_hex = head.to_string();
        let message = match taken {
            Snapshotted::WorkingTree => "shipgate: the working tree",
            Snapshotted::Index => "shipgate: the staged changes",
        };
        let commit = git.text(
            &["commit-tree", &tree, "-p", &head_hex, "-m", message],
            None,
        )?;
        let commit = ObjectId::from_hex(commit.as_bytes())
            .map_err(|_| unreadable(&format!("git printed {commit:?} for the snapshot commit.")))?;
        let shared =
            gix::ThreadSafeRepository::open_opts(&private_git, gix::open::Options::isolated())
                .map_err(|err| {
                    unreadable(&format!(
                        "The snapshot's private objects could not be opened: {err}."
                    ))
                })?;
        Ok(Snapshot {
            repository: Repository {
                shared,
                root: self.root.clone(),
                _snapshot_objects: Some(Arc::new(scratch)),
                kept: Default::default(),
            },
            commit,
        })
    }
}

/// Copies the index keeping its modification time: git trusts an entry's
/// cached stat only when the file is older than the index it is in
/// ("racy git"), so a copy made later would let a file edited in the
/// same second as the last `git add`, to the same size, pass for
/// unchanged — an edit the snapshot would silently miss.
fn copy_keeping_mtime(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::copy(from, to)?;
    let modified = std::fs::metadata(from)?.modified()?;
    std::fs::File::options()
        .write(true)
        .open(to)?
        .set_modified(modified)
}

/// A bare git directory under `scratch` whose objects are private and
/// whose alternate is the repository's object directory, so that it sees
/// every object of the repository and writes none there.
fn private_git_dir(scratch: &Path, own_objects: &Path, head: ObjectId) -> std::io::Result<PathBuf> {
    let git_dir = scratch.join("git");
    let info = git_dir.join("objects").join("info");
    std::fs::create_dir_all(&info)?;
    std::fs::create_dir_all(git_dir.join("refs").join("heads"))?;
    std::fs::create_dir_all(git_dir.join("objects").join("pack"))?;
    std::fs::write(git_dir.join("HEAD"), format!("{head}\n"))?;
    std::fs::write(
        git_dir.join("config"),
        "[core]\n\trepositoryformatversion = 0\n\tbare = true\n",
    )?;
    let mut alternates = path_bytes(own_objects);
    alternates.push(b'\n');
    std::fs::write(info.join("alternates"), alternates)?;
    Ok(git_dir)
}

/// `git` run in the working tree on the private index and objects.
struct Git {
    max_file_bytes: u64,
    workdir: PathBuf,
    index: PathBuf,
    objects: PathBuf,
}

impl Git {
    /// Takes every changed file `files` names of the working tree into the
    /// private index: those within the size bound as git reads them
    /// (deletions included), those past it as the stand-in blob, never
    /// read.
    fn take_changed_files(&self, files: Taken<'_>) -> Result<(), DiffError> {
        let mut args = vec![
            "ls-files",
            "-z",
            "--modified",
            "--others",
            "--exclude-standard",
            "--",
        ];
        args.extend_from_slice(files.pathspecs);
        let mut listed = self.run(&args, None)?;
        if files.ignored_too {
            let mut ignored = vec![
                "ls-files",
                "-z",
                "--others",
                "--ignored",
                "--exclude-standard",
                "--",
            ];
            ignored.extend_from_slice(files.pathspecs);
            listed.push(0);
            listed.extend(self.run(&ignored, None)?);
        }
        let mut paths: Vec<&[u8]> = listed
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .collect();
        paths.sort_unstable();
        paths.dedup();
        let mut within = Vec::new();
        let mut oversized = Vec::new();
        for path in paths {
            let size = std::fs::symlink_metadata(self.workdir.join(path_from_bytes(path)))
                .ok()
                .filter(std::fs::Metadata::is_file)
                .map(|meta| meta.len());
            match size {
                Some(size) if size > self.max_file_bytes => oversized.push(path),
                // Smaller files, symbolic links and deleted files alike:
                // git reads (or removes) them.
                _ => within.push(path),
            }
        }
        if !within.is_empty() {
            // An empty list would be `add --all` of the whole tree.
            let mut add = vec![
                "add",
                "--all",
                "--pathspec-from-file=-",
                "--pathspec-file-nul",
            ];
            if files.ignored_too {
                // The ignored files listed above are taken as listed.
                add.push("--force");
            }
            self.run(&add, Some(nul_joined(&within)))?;
        }
        if !oversized.is_empty() {
            let stand_in = self.text(
                &["hash-object", "-w", "--stdin"],
                Some(stand_in_blob(self.max_file_bytes)),
            )?;
            let mut entries = Vec::new();
            for path in oversized {
                entries.extend_from_slice(format!("100644 {stand_in}\t").as_bytes());
                entries.extend_from_slice(path);
                entries.push(0);
            }
            self.run(&["update-index", "-z", "--index-info"], Some(entries))?;
        }
        Ok(())
    }

    /// Runs git; its trimmed stdout as text.
    fn text(&self, args: &[&str], input: Option<Vec<u8>>) -> Result<String, DiffError> {
        let output = self.run(args, input)?;
        Ok(String::from_utf8_lossy(&output).trim().to_string())
    }

    /// Runs git, feeding it `input`; its stdout. Killed when the request
    /// is cancelled.
    fn run(&self, args: &[&str], input: Option<Vec<u8>>) -> Result<Vec<u8>, DiffError> {
        let command = args.first().copied().unwrap_or_default();
        let mut child = Command::new("git")
            .arg("-C")
            .arg(&self.workdir)
            .args(QUIET_SETTINGS)
            .args(args)
            .env("GIT_INDEX_FILE", &self.index)
            .env("GIT_OBJECT_DIRECTORY", &self.objects)
            // Paths given are paths, never patterns.
            .env("GIT_LITERAL_PATHSPECS", if command == "ls-files" { "0" } else { "1" })
            .env("GIT_OPTIONAL_LOCKS", "0")
            .envs(SNAPSHOT_IDENTITY)
            // Never ask anyone anything, never page.
            .env("GIT_TERMINAL_PROMPT", "0")
            .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|err| unreadable(&format!("git could not be run ({err}); the working tree is read through git, which must be on the PATH.")))?;
        let feeder = match (input, child.stdin.take()) {
            (Some(bytes), Some(mut stdin)) => Some(std::thread::spawn(move || {
                // A child that stops reading (it failed) ends the write;
                // its status says why.
                let _ = stdin.write_all(&bytes);
            })),
            _ => None,
        };
        let stdout = child.stdout.take().map(drain);
        let stderr = child.stderr.take().map(drain);
        let mut pause = Duration::from_millis(1);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if crate::work::cancelled() => {
                    let _ = child.kill();
                    let _ = child.wait();
                    crate::work::checkpoint()?;
                }
                Ok(None) => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                Err(err) => {
                    let _ = child.kill();
                    return Err(unreadable(&format!(
                        "`git {command}` could not be waited for: {err}."
                    )));
                }
            }
        };
        if let Some(feeder) = feeder {
            let _ = feeder.join();
        }
        let stdout = stdout.map(collected).unwrap_or_default();
        let stderr = stderr.map(collected).unwrap_or_default();
        if !status.success() {
            return Err(unreadable(&format!(
                "`git {command}` failed: {}",
                String::from_utf8_lossy(&stderr).trim()
            )));
        }
        Ok(stdout)
    }
}

/// Reads a pipe to its end (at most `MAX_GIT_OUTPUT`) on a thread, so
/// that neither pipe fills while the other is read.
fn drain(pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.take(MAX_GIT_OUTPUT).read_to_end(&mut bytes);
        bytes
    })
}

fn collected(handle: std::thread::JoinHandle<Vec<u8>>) -> Vec<u8> {
    handle.join().unwrap_or_default()
}

/// The blob every file past the size bound takes: one byte past the
/// bound, so it is named as such a file is, and the same every time, so
/// the snapshot stays a function of the working tree.
fn stand_in_blob(max_file_bytes: u64) -> Vec<u8> {
    let mut blob =
        b"# shipgate: a stand-in for a file past the size bound, which is not read\n".to_vec();
    let size = usize::try_from(max_file_bytes)
        .unwrap_or(usize::MAX)
        .saturating_add(1);
    blob.resize(size.max(blob.len()), b' ');
    blob
}

fn nul_joined(paths: &[&[u8]]) -> Vec<u8> {
    let mut joined = Vec::new();
    for path in paths {
        joined.extend_from_slice(path);
        joined.push(0);
    }
    joined
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Vec<u8> {
    path.to_string_lossy().as_bytes().to_vec()
}

fn unreadable(message: &str) -> DiffError {
    DiffError::config(Reason::WorktreeUnreadable, message.to_string())
        .about(field::WORKTREE, "true")
}
