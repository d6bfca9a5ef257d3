//! Background indexing of watched repositories: the daemon watches each
//! repository's git directory (HEAD, packed-refs, refs/) with notify,
//! debounces, re-reads the branch heads (never trusting event contents) and
//! indexes every head it has not indexed, so the next diff is warm. It only
//! pre-warms: requests always resolve revisions themselves.

use crate::engine::Engine;
use crate::git::Repository;
use crate::store::Namespace;
use notify::{RecursiveMode, Watcher as _};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long ref events settle before the heads are re-read.
const DEBOUNCE: Duration = Duration::from_millis(300);

/// What the store remembers of a watched repository.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct WatchedRecord {
    /// Branch name → last indexed head commit.
    indexed: BTreeMap<String, String>,
    /// Commits whose history step has been read, over all branches.
    history_commits: u64,
    /// Set (and flushed) while a pass indexes this repository: found set
    /// when the daemon starts, the last pass ended the process.
    in_pass: bool,
    /// Passes in a row that ended the process or panicked.
    failed_passes: u32,
}

/// Passes in a row that may fail before a repository is no longer indexed
/// in the background: a repository that kills the daemon must not do so on
/// every restart.
const MAX_FAILED_PASSES: u32 = 2;

impl WatchedRecord {
    fn skipped(&self) -> bool {
        self.failed_passes >= MAX_FAILED_PASSES
    }
}

fn skipped_reason(failed: u32) -> String {
    format!(
        "background indexing stopped: {failed} passes in a row over this repository failed or ended the daemon; diffs and history still answer on request (run `shipgate-client unwatch` then `watch` to try again)"
    )
}

/// A watched repository's state, as `Status` reports it.
#[derive(Debug, Clone, Default)]
pub struct RepositoryStatus {
    pub path: PathBuf,
    pub indexed: Vec<(String, String)>,
    pub last_error: Option<String>,
    pub pending: u32,
    pub history_commits: u64,
    /// The pass under way, if any.
    pub progress: Option<PassProgress>,
}

/// How far the pass under way over a repository has come: which branch it
/// reads, how many of the pass's branches are done, how many commits of
/// that branch's history, and for how long it has run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassProgress {
    pub branch: String,
    pub branches_done: u32,
    pub branches_total: u32,
    pub commits_done: u64,
    pub commits_total: u64,
    pub elapsed_ms: u64,
    /// Seconds left for this branch's history at its rate so far (0 until
    /// a commit is read).
    pub seconds_left: u64,
    /// A request is served: the pass waits at its next checkpoint.
    pub paused: bool,
}

/// A pass under way, as the indexer keeps it.
struct Pass {
    progress: PassProgress,
    started: Instant,
    /// When the branch read now began: its history's rate is its own.
    branch_started: Instant,
}

/// Commits of a moved branch whose history steps are indexed per pass.
const HISTORY_PER_PASS: usize = 1000;

struct Watched {
    repo: Repository,
    record: WatchedRecord,
    last_error: Option<String>,
    pending: u32,
    /// The pass under way, if any.
    pass: Option<Pass>,
    /// Cancelled when the repository is unwatched: a pass over it stops.
    cancel: crate::work::Cancel,
    /// Kept alive for as long as the repository is watched.
    _watcher: Option<notify::RecommendedWatcher>,
}

/// Owns the watched repositories and the indexing thread.
pub struct Indexer {
    engine: Arc<Engine>,
    watched: Mutex<HashMap<PathBuf, Watched>>,
    wake: Mutex<Sender<PathBuf>>,
}

impl Indexer {
    /// Starts the indexing thread and re-watches the repositories the store
    /// remembers.
    pub fn start(engine: Arc<Engine>) -> Arc<Self> {
        let (sender, receiver) = mpsc::channel();
        let indexer = Arc::new(Indexer {
            engine,
            watched: Mutex::new(HashMap::new()),
            wake: Mutex::new(sender),
        });
        let worker = Arc::clone(&indexer);
        let spawned = std::thread::Builder::new()
            .name("shipgate-indexer".into())
            .spawn(move || worker.run(receiver));
        if let Err(err) = spawned {
            eprintln!("shipgate: background indexing is off: could not start its thread: {err}");
        }
        let remembered = indexer
            .engine
            .cache()
            .kv()
            .entries(Namespace::Repositories)
            .unwrap_or_default();
        for (key, value) in remembered {
            let path = PathBuf::from(String::from_utf8_lossy(&key).into_owned());
            let mut record: WatchedRecord = postcard::from_bytes(&value).unwrap_or_default();
            if record.in_pass {
                // The daemon ended during this repository's last pass.
                record.in_pass = false;
                record.failed_passes += 1;
            }
            if let Err(err) = indexer.watch_with(&path, record) {
                eprintln!("shipgate: no longer watching {}: {err}", path.display());
                let _ = indexer
                    .engine
                    .cache()
                    .kv()
                    .remove(Namespace::Repositories, &key);
            }
        }
        indexer
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<PathBuf, Watched>> {
        // A panic while holding the lock leaves plain data behind; keep going.
        self.watched
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Registers a repository (any path inside it) and indexes its heads.
    pub fn watch(&self, workspace: &Path) -> Result<PathBuf, String> {
        let repo = Repository::discover(workspace).map_err(|err| err.message().to_string())?;
        let root = repo.root().to_path_buf();
        let known = self.lock().get(&root).map(|w| w.record.clone());
        match known {
            None => self.watch_with(&root, WatchedRecord::default())?,
            // Watching a skipped repository again is the way to retry it.
            Some(record) if record.skipped() => self.watch_with(
                &root,
                WatchedRecord {
                    failed_passes: 0,
                    ..record
                },
            )?,
            Some(_) => {}
        }
        Ok(root)
    }

    fn watch_with(&self, path: &Path, record: WatchedRecord) -> Result<(), String> {
        let repo = Repository::discover(path).map_err(|err| err.message().to_string())?;
        let root = repo.root().to_path_buf();
        let watcher = self.fs_watcher(&repo, &root);
        let last_error = if record.skipped() {
            Some(skipped_reason(record.failed_passes))
        } else {
            watcher.as_ref().err().cloned()
        };
        self.lock().insert(
            root.clone(),
            Watched {
                repo,
                record,
                last_error,
                pending: 1,
                pass: None,
                cancel: crate::work::Cancel::new(),
                _watcher: watcher.ok(),
            },
        );
        self.persist(&root);
        self.notify(root);
        Ok(())
    }

    /// Watches the git directory itself (HEAD, packed-refs) and `refs/`
    /// recursively; never `objects/`, which changes on every fetch.
    fn fs_watcher(
        &self,
        repo: &Repository,
        root: &Path,
    ) -> Result<notify::RecommendedWatcher, String> {
        let wake = self
            .wake
            .lock()
            .map_err(|_| "indexer channel poisoned".to_string())?
            .clone();
        let root = root.to_path_buf();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                if event.is_ok() {
                    let _ = wake.send(root.clone());
                }
            })
            .map_err(|err| format!("cannot watch: {err}"))?;
        let git_dir = repo.git_dir();
        watcher
            .watch(&git_dir, RecursiveMode::NonRecursive)
            .map_err(|err| format!("cannot watch {}: {err}", git_dir.display()))?;
        let refs = git_dir.join("refs");
        if refs.is_dir() {
            watcher
                .watch(&refs, RecursiveMode::Recursive)
                .map_err(|err| format!("cannot watch {}: {err}", refs.display()))?;
        }
        Ok(watcher)
    }

    /// Stops watching; returns the repository root and whether it was watched.
    pub fn unwatch(&self, workspace: &Path) -> Result<(PathBuf, bool), String> {
        let root = match Repository::discover(workspace) {
            Ok(repo) => repo.root().to_path_buf(),
            Err(_) => workspace
                .canonicalize()
                .unwrap_or_else(|_| workspace.to_path_buf()),
        };
        let removed = self.lock().remove(&root);
        if let Some(watched) = &removed {
            // A pass over it in progress stops at its next step.
            watched.cancel.cancel();
        }
        let was = removed.is_some();
        let _ = self
            .engine
            .cache()
            .kv()
            .remove(Namespace::Repositories, root.to_string_lossy().as_bytes());
        Ok((root, was))
    }

    pub fn status(&self) -> Vec<RepositoryStatus> {
        let mut out: Vec<RepositoryStatus> = self
            .lock()
            .iter()
            .map(|(path, watched)| RepositoryStatus {
                path: path.clone(),
                indexed: watched
                    .record
                    .indexed
                    .iter()
                    .map(|(b, c)| (b.clone(), c.clone()))
                    .collect(),
                last_error: watched.last_error.clone(),
                pending: watched.pending,
                history_commits: watched.record.history_commits,
                progress: watched.pass.as_ref().map(|pass| {
                    let (_, seconds_left) = shipgate_proto::rate_and_time_left(
                        pass.progress.commits_done,
                        pass.progress.commits_total,
                        pass.branch_started.elapsed(),
                    );
                    PassProgress {
                        elapsed_ms: u64::try_from(pass.started.elapsed().as_millis())
                            .unwrap_or(u64::MAX),
                        seconds_left,
                        paused: crate::work::foreground_busy(),
                        ..pass.progress.clone()
                    }
                }),
            })
            .collect();
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }

    fn notify(&self, root: PathBuf) {
        if let Ok(wake) = self.wake.lock() {
            let _ = wake.send(root);
        }
    }

    fn persist(&self, root: &Path) {
        let record = self.lock().get(root).map(|w| w.record.clone());
        if let Some(record) = record {
            if let Ok(bytes) = postcard::to_stdvec(&record) {
                let _ = self.engine.cache().kv().put(
                    Namespace::Repositories,
                    root.to_string_lossy().as_bytes(),
                    &bytes,
                );
            }
        }
    }

    /// The indexing loop: wait for a wake-up, let events settle, index.
    /// The thread runs at the lowest scheduling priority, so what it
    /// computes between a request's arrival and its next checkpoint takes
    /// no time a request could use.
    fn run(&self, receiver: Receiver<PathBuf>) {
        lower_this_threads_priority();
        while let Ok(first) = receiver.recv() {
            std::thread::sleep(DEBOUNCE);
            let mut roots = vec![first];
            roots.extend(receiver.try_iter());
            roots.sort();
            roots.dedup();
            for root in roots {
                self.index_repository(&root);
            }
        }
    }

    /// One pass over a repository, marked in the store while it runs and
    /// isolated: a panic is this repository's failure, never the daemon's.
    fn index_repository(&self, root: &Path) {
        let skipped = self.lock().get(root).map(|w| w.record.skipped());
        if skipped != Some(false) {
            if let Some(watched) = self.lock().get_mut(root) {
                watched.pending = 0;
            }
            return;
        }
        let cancel = self
            .lock()
            .get(root)
            .map(|w| w.cancel.clone())
            .unwrap_or_default();
        self.mark_pass(root, true);
        // Background work: one core, paused while a request is served.
        let cancel = cancel.in_background();
        let pass = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::work::with_cancel(&cancel, || self.index_pass(root))
        }));
        if let Some(watched) = self.lock().get_mut(root) {
            watched.record.in_pass = false;
            match pass {
                Ok(()) => watched.record.failed_passes = 0,
                Err(_) => {
                    watched.record.failed_passes += 1;
                    watched.pending = 0;
                    watched.pass = None;
                    watched.last_error = Some(if watched.record.skipped() {
                        skipped_reason(watched.record.failed_passes)
                    } else {
                        "indexing failed inside shipgate (a bug; please report it); it will be tried again on the next change".to_string()
                    });
                }
            }
        }
        self.persist(root);
        let _ = self.engine.cache().flush();
    }

    /// Records (and flushes) that a pass over `root` runs, so a pass that
    /// ends the process is known at the next start.
    fn mark_pass(&self, root: &Path, running: bool) {
        if let Some(watched) = self.lock().get_mut(root) {
            watched.record.in_pass = running;
        }
        self.persist(root);
        let _ = self.engine.cache().flush();
    }

    fn index_pass(&self, root: &Path) {
        let Some((repo, indexed)) = self
            .lock()
            .get(root)
            .map(|w| (w.repo.clone(), w.record.indexed.clone()))
        else {
            return;
        };
        let heads = repo.branch_heads();
        if let Some(watched) = self.lock().get_mut(root) {
            // Deleted branches are no longer reported as indexed.
            watched
                .record
                .indexed
                .retain(|branch, _| heads.iter().any(|(b, _)| b == branch));
        }
        let todo: Vec<_> = heads
            .into_iter()
            .filter(|(b, c)| indexed.get(b) != Some(&c.to_string()))
            .collect();
        let branches_total = u32::try_from(todo.len()).unwrap_or(u32::MAX);
        if let Some(watched) = self.lock().get_mut(root) {
            watched.pending = branches_total;
            watched.pass = Some(Pass {
                progress: PassProgress {
                    branches_total,
                    ..PassProgress::default()
                },
                started: Instant::now(),
                branch_started: Instant::now(),
            });
        }
        let mut error = None;
        for (branch, commit) in todo {
            // The branch's new commits since it was last indexed, for
            // history; then its head, for diffs.
            let since = indexed
                .get(&branch)
                .and_then(|c| gix::ObjectId::from_hex(c.as_bytes()).ok());
            self.update_pass(root, |progress| {
                progress.branch.clone_from(&branch);
                progress.commits_done = 0;
                progress.commits_total = 0;
            });
            if let Some(pass) = self.lock().get_mut(root).and_then(|w| w.pass.as_mut()) {
                pass.branch_started = Instant::now();
            }
            let history =
                self.engine
                    .index_history(&repo, commit, since, HISTORY_PER_PASS, &mut |read| {
                        self.update_pass(root, |progress| {
                            progress.commits_done = read.done as u64;
                            progress.commits_total = read.total as u64;
                        })
                    });
            let result = self.engine.index_commit(&repo, commit);
            self.update_pass(root, |progress| progress.branches_done += 1);
            if let (Ok(count), Some(watched)) = (&history, self.lock().get_mut(root)) {
                watched.record.history_commits += *count as u64;
            }
            let mut guard = self.lock();
            let Some(watched) = guard.get_mut(root) else {
                return;
            };
            watched.pending = watched.pending.saturating_sub(1);
            match result {
                Ok(()) => {
                    watched.record.indexed.insert(branch, commit.to_string());
                }
                Err(err) => error = Some(format!("{branch}: {err}")),
            }
        }
        // A shallow clone's history stops where it was cut: named on every
        // pass until it is unshallowed.
        let error = error.or_else(|| repo.shallow_history().map(|err| err.to_string()));
        if let Some(watched) = self.lock().get_mut(root) {
            watched.last_error = error;
            watched.pending = 0;
            watched.pass = None;
        }
    }

    /// Changes the progress of the pass under way over `root`.
    fn update_pass(&self, root: &Path, change: impl FnOnce(&mut PassProgress)) {
        if let Some(pass) = self
            .lock()
            .get_mut(root)
            .and_then(|watched| watched.pass.as_mut())
        {
            change(&mut pass.progress);
        }
    }
}

/// The calling thread at the lowest scheduling priority (nice 19). On
/// Linux a thread's nice value is its own, and threads it starts inherit
/// it; elsewhere nothing changes (the indexing is still one core, paused
/// while a request is served).
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid takes no arguments; setpriority only sets the nice
    // value of the thread it names, this one.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid);
        if let Ok(tid) = libc::id_t::try_from(tid) {
            libc::setpriority(libc::PRIO_PROCESS, tid, 19);
        }
    }
}
