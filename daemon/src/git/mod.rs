//! Reading repositories through gix: revisions, merge bases, trees under a
//! path, blobs. Knows nothing about Python beyond the `.py` suffix. Every
//! object may be missing or malformed; nothing here panics on repository data.

mod history;
mod host_files;
mod kept;
mod listing;
mod worktree;

pub use history::CommitInfo;
pub use host_files::{FoundFiles, MAX_WALK_ENTRIES};
pub use listing::{
    DirEntry, GitLink, Listing, PathEntry, PythonFile, ScopeLookup, Unlisted, UnlistedWhy,
    MAX_TREE_DEPTH,
};
pub use worktree::{Snapshot, Snapshotted, Taken, PYTHON_FILES};

use crate::error::{field, DiffError, Reason};
use gix::ObjectId;
use std::path::{Path, PathBuf};

/// An opened repository. Cheap to clone: it shares object caches across threads.
#[derive(Clone)]
pub struct Repository {
    shared: gix::ThreadSafeRepository,
    /// The work tree root (or the git dir of a bare repository), canonical.
    root: PathBuf,
    /// The private object directory a working-tree snapshot was written
    /// to (`worktree.rs`), removed when the last clone of this handle goes.
    _snapshot_objects: Option<std::sync::Arc<tempfile::TempDir>>,
    /// What reads of its trees and blob headers found (`kept.rs`).
    kept: std::sync::Arc<kept::Kept>,
}

/// What the user asked to compare, resolved to commits.
#[derive(Debug, Clone)]
pub struct ResolvedRevisions {
    pub base_ref: String,
    pub head_ref: String,
    /// The requested base ref's commit.
    pub requested_base: ObjectId,
    /// The merge base of the requested base and the head: the compared base.
    pub base: ObjectId,
    pub head: ObjectId,
}

impl Repository {
    /// Finds the repository holding `workspace`, refusing with the contract's
    /// `config_error` messages when the path is unusable.
    pub fn discover(workspace: &Path) -> Result<Self, DiffError> {
        let shown = workspace.display();
        let refused = |reason: Reason, message: String| {
            DiffError::config(reason, message).about(field::WORKSPACE, shown.to_string())
        };
        match std::fs::metadata(workspace) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Err(refused(Reason::WorkspaceNotFound, format!(
                    "The workspace does not exist: {shown}. Point it at an existing checkout — clone or create the directory first. Nothing was written."
                )))
            }
            Err(_) => {
                return Err(refused(Reason::WorkspaceUnreadable, format!(
                    "The workspace could not be read: {shown}. Check the permissions on the path and every directory above it."
                )))
            }
            Ok(meta) if !meta.is_dir() => {
                return Err(refused(Reason::WorkspaceNotADirectory, format!(
                    "The workspace is not a directory: {shown}. Point it at the checkout root rather than at a file inside it."
                )))
            }
            Ok(_) => {}
        }
        let shared = gix::ThreadSafeRepository::discover(workspace)
            .map_err(|err| open_failure(workspace, &err))?;
        let local = shared.to_thread_local();
        let root = local
            .workdir()
            .unwrap_or_else(|| local.git_dir())
            .to_path_buf();
        let root = root.canonicalize().unwrap_or(root);
        Ok(Repository {
            shared,
            root,
            _snapshot_objects: None,
            kept: Default::default(),
        })
    }

    /// The repository's root directory: the identity of a watched repository.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The git directory, which the watcher observes.
    pub fn git_dir(&self) -> PathBuf {
        self.local().git_dir().to_path_buf()
    }

    pub(crate) fn local(&self) -> gix::Repository {
        let mut repo = self.shared.to_thread_local();
        repo.object_cache_size_if_unset(8 * 1024 * 1024);
        repo
    }

    /// Resolves anything a user may type (`main`, a tag, a short SHA,
    /// `HEAD~1`, `origin/main`) to a commit, or `None` if it names none.
    pub fn resolve_commit(&self, rev: &str) -> Option<ObjectId> {
        let repo = self.local();
        let spec = format!("{rev}^{{commit}}");
        let id = repo.rev_parse_single(spec.as_str()).ok()?;
        Some(id.detach())
    }

    /// Why `rev`, which names no commit, is refused, when it names another
    /// object the store holds: `names a tree, not a commit: …`. `None` when
    /// it names nothing here (then it is to be fetched).
    fn not_a_commit(&self, rev: &str) -> Option<String> {
        let repo = self.local();
        let id = repo.rev_parse_single(rev).ok()?;
        let object = id.object().ok()?.peel_tags_to_end().ok()?;
        let kind = match object.kind {
            gix::object::Kind::Tree => "a tree",
            gix::object::Kind::Blob => "a blob (a file's content)",
            gix::object::Kind::Tag => "a tag",
            gix::object::Kind::Commit => return None,
        };
        Some(format!(
            "names {kind}, not a commit: pass a branch, a tag of a commit or a commit id."
        ))
    }

    /// The first ancestor of `start` (breadth first, at most
    /// `MAX_ANCESTORS_CHECKED` commits) whose parent the store does not
    /// hold, as `(child, missing parent)`.
    fn missing_ancestor(&self, start: ObjectId) -> Option<(ObjectId, ObjectId)> {
        const MAX_ANCESTORS_CHECKED: usize = 100_000;
        let repo = self.local();
        let mut seen = std::collections::HashSet::new();
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(id) = queue.pop_front() {
            if seen.len() >= MAX_ANCESTORS_CHECKED || !seen.insert(id) {
                continue;
            }
            let Ok(commit) = repo.find_commit(id) else {
                continue;
            };
            for parent in commit.parent_ids() {
                let parent = parent.detach();
                if !repo.has_object(parent) {
                    return Some((id, parent));
                }
                queue.push_back(parent);
            }
        }
        None
    }

    /// The base ref used when none is given (contract §1.2): `origin/HEAD`'s
    /// branch, `origin/main`, `origin/master`, and only in a repository with
    /// no remote at all, `main` then `master`.
    pub fn default_base(&self) -> Option<String> {
        let repo = self.local();
        if let Ok(Some(reference)) = repo.try_find_reference("refs/remotes/origin/HEAD") {
            if let gix::refs::TargetRef::Symbolic(target) = reference.target() {
                let name = target.as_bstr().to_string();
                if let Some(short) = name.strip_prefix("refs/remotes/") {
                    if self.resolve_commit(short).is_some() {
                        return Some(short.to_string());
                    }
                }
            }
        }
        for candidate in ["origin/main", "origin/master"] {
            if self.resolve_commit(candidate).is_some() {
                return Some(candidate.to_string());
            }
        }
        if repo.remote_names().is_empty() {
            for candidate in ["main", "master"] {
                if self.resolve_commit(candidate).is_some() {
                    return Some(candidate.to_string());
                }
            }
        }
        None
    }

    /// Resolves base and head as the contract's §1.2 describes, ending in the
    /// merge base the comparison starts from.
    pub fn resolve_revisions(
        &self,
        base: Option<&str>,
        head: Option<&str>,
    ) -> Result<ResolvedRevisions, DiffError> {
        let head_ref = head.unwrap_or("HEAD").to_string();
        if head_ref.is_empty() || head_ref.starts_with('-') {
            return Err(DiffError::usage(
                Reason::BadRevision,
                "Head ref must be non-empty and cannot start with a dash.",
            )
            .about(field::HEAD, head_ref));
        }
        let head_commit = self.resolve_commit(&head_ref).ok_or_else(|| {
            let why = self
                .not_a_commit(&head_ref)
                .unwrap_or_else(|| "is unavailable locally. Fetch it first.".into());
            DiffError::usage(Reason::BadRevision, format!("Head ref '{head_ref}' {why}"))
                .about(field::HEAD, head_ref.as_str())
        })?;
        let base_ref = match base {
            Some(base) => base.to_string(),
            // The command line adds which flag to pass (`--base`).
            None => self.default_base().ok_or_else(|| {
                DiffError::usage(Reason::NoDefaultBase, "No base ref could be detected.")
                    .about_field(field::BASE)
            })?,
        };
        if base_ref.is_empty() || base_ref.starts_with('-') {
            return Err(DiffError::usage(
                Reason::BadRevision,
                "Base ref must be non-empty and cannot start with a dash.",
            )
            .about(field::BASE, base_ref));
        }
        let requested_base = self.resolve_commit(&base_ref).ok_or_else(|| {
            let why = self.not_a_commit(&base_ref).unwrap_or_else(|| {
                "is not available locally. Fetch it first; this command never fetches.".into()
            });
            DiffError::usage(Reason::BadRevision, format!("Base ref '{base_ref}' {why}"))
                .about(field::BASE, base_ref.as_str())
        })?;
        let repo = self.local();
        let merge_base = repo.merge_base(requested_base, head_commit);
        let base_commit = match merge_base {
            Ok(Some(id)) => id.detach(),
            Err(err) if !repo.is_shallow().unwrap_or(false) => {
                // The walk met an object the store does not hold: say so,
                // not that the two commits share no history.
                return Err(DiffError::objects_missing(format!(
                    "The history between {} and {} could not be read (objects_missing): {err}. Hydrate the repository's objects (for example `git -C {} fetch --refetch --no-filter <remote>`), then rerun.",
                    requested_base.to_hex_with_len(12),
                    head_commit.to_hex_with_len(12),
                    self.root.display()
                )));
            }
            Ok(None) | Err(_) => {
                if repo.is_shallow().unwrap_or(false) {
                    return Err(self.shallow_refusal());
                }
                // A history cut short by a missing commit has no merge base
                // either: name the missing commit, not "no common point".
                if let Some((child, missing)) = [head_commit, requested_base]
                    .into_iter()
                    .find_map(|start| self.missing_ancestor(start))
                {
                    return Err(DiffError::objects_missing(format!(
                        "Commit {}, a parent of {}, is not in this repository (objects_missing), so the history between {} and {} cannot be read. Hydrate the repository's objects (for example `git -C {} fetch --refetch --no-filter <remote>`), then rerun.",
                        missing.to_hex_with_len(12),
                        child.to_hex_with_len(12),
                        requested_base.to_hex_with_len(12),
                        head_commit.to_hex_with_len(12),
                        self.root.display()
                    )));
                }
                return Err(DiffError::usage(
                    Reason::NoMergeBase,
                    format!(
                        "No merge base between '{requested_base}' and {head_commit}, so there is no common point to compare from."
                    ),
                )
                .about(field::BASE, base_ref));
            }
        };
        Ok(ResolvedRevisions {
            base_ref,
            head_ref,
            requested_base,
            base: base_commit,
            head: head_commit,
        })
    }

    /// A commit a shallow clone never fetched (a parent of its boundary):
    /// the fix is to unshallow, not to hydrate a partial clone.
    pub(crate) fn beyond_shallow(&self, commit: ObjectId) -> DiffError {
        DiffError::config(Reason::ShallowCheckout, format!(
            "This checkout is shallow: commit {} is older than the history it fetched. Run git -C {} fetch --unshallow (or use fetch-depth: 0 in CI), then rerun.",
            commit.to_hex_with_len(8),
            self.root.display()
        ))
    }

    /// In a shallow clone, why its history cannot be read past the commits
    /// it fetched; `None` in a full one.
    pub fn shallow_history(&self) -> Option<DiffError> {
        self.is_shallow().then(|| {
            DiffError::config(Reason::ShallowCheckout, format!(
                "This checkout is shallow, so its history before the commits it fetched is not read. Run git -C {} fetch --unshallow (or use fetch-depth: 0 in CI) to read it.",
                self.root.display()
            ))
        })
    }

    fn shallow_refusal(&self) -> DiffError {
        DiffError::config(Reason::ShallowCheckout, format!(
            "This checkout is shallow; run git -C {} fetch --unshallow (or use fetch-depth: 0 in CI), then rerun diff.",
            self.root.display()
        ))
    }

    /// The root tree of a commit.
    pub fn commit_tree(&self, commit: ObjectId) -> Result<ObjectId, DiffError> {
        let repo = self.local();
        let found = repo
            .find_commit(commit)
            .map_err(|_| self.objects_missing_for(commit))?;
        let tree = found
            .tree_id()
            .map_err(|_| self.objects_missing_for(commit))?;
        Ok(tree.detach())
    }

    /// Whether the object store holds an object (no lazy fetching, ever).
    pub fn has_object(&self, id: ObjectId) -> bool {
        self.local().has_object(id)
    }

    fn objects_missing_for(&self, commit: ObjectId) -> DiffError {
        if self.is_shallow() && !self.has_object(commit) {
            return self.beyond_shallow(commit);
        }
        let short = commit.to_hex_with_len(8).to_string();
        DiffError::objects_missing(format!(
            "The objects of commit {short} could not be read (objects_missing). This checkout may be a partial clone whose objects were never fetched; shipgate never fetches. Hydrate them (for example `git -C {} fetch --refetch --no-filter <remote>`, or clone without `--filter`), then rerun.",
            self.root.display()
        ))
    }

    /// Reads a blob's bytes.
    pub fn read_blob(&self, id: ObjectId) -> Result<Vec<u8>, DiffError> {
        self.blob_reader().read(id)
    }

    /// A reader for many blobs on one thread: the thread's handle on the
    /// object store is made once, not per blob (a tenth of a cold read's
    /// blob time went to making handles). It keeps no object cache: each
    /// blob is read once, and a cache per worker would only hold memory.
    pub fn blob_reader(&self) -> BlobReader {
        BlobReader(self.shared.to_thread_local())
    }

    /// Every local branch and every remote-tracking branch (`origin/main`:
    /// what `diff` compares against by default) with its head commit, for
    /// background indexing. A symbolic one (`origin/HEAD`) is skipped: the
    /// branch it names is listed itself.
    pub fn branch_heads(&self) -> Vec<(String, ObjectId)> {
        let repo = self.local();
        let mut heads = Vec::new();
        let Ok(platform) = repo.references() else {
            return heads;
        };
        let locals = platform.local_branches().into_iter().flatten();
        let remotes = platform.remote_branches().into_iter().flatten();
        for reference in locals.chain(remotes).flatten() {
            if matches!(reference.target(), gix::refs::TargetRef::Symbolic(_)) {
                continue;
            }
            let name = reference.name().shorten().to_string();
            let mut reference = reference;
            if let Ok(id) = reference.peel_to_id() {
                heads.push((name, id.detach()));
            }
        }
        heads.sort();
        heads.dedup();
        heads
    }

    /// Whether the repository is a shallow clone.
    pub fn is_shallow(&self) -> bool {
        self.local().is_shallow().unwrap_or(false)
    }
}

/// Why `gix` could not open the repository holding `workspace`, as what to
/// do: no repository at all, one whose object format we do not read, or a
/// git configuration (an included file too) that could not be read.
fn open_failure(workspace: &Path, err: &gix::Error) -> DiffError {
    use gix::error::MetadataValue;
    let shown = workspace.display();
    let object_format = err.metadata().find_map(|values| {
        let key = matches!(values.get("key"), Some(MetadataValue::String(k)) if k.eq_ignore_ascii_case("extensions.objectFormat"));
        match values.get("input") {
            Some(MetadataValue::Bytes(input)) if key => {
                Some(String::from_utf8_lossy(input).into_owned())
            }
            Some(MetadataValue::String(input)) if key => Some(input.clone()),
            _ => None,
        }
    });
    if let Some(format) = object_format {
        return DiffError::config(
            Reason::UnsupportedObjectFormat,
            if format.eq_ignore_ascii_case("sha256") {
                format!(
                "The repository at {shown} uses SHA-256 object ids (extensions.objectFormat = sha256), which shipgate does not read yet; it compares SHA-1 repositories only."
            )
            } else {
                format!(
                "The repository at {shown} uses the object format {} (extensions.objectFormat), which shipgate does not read; it reads SHA-1 repositories.",
                one_line(&format)
            )
            },
        );
    }
    // No git directory anywhere above the workspace: not a checkout.
    let found = gix::discover::upwards(workspace).ok();
    let Some((found, _)) = found else {
        return DiffError::config(
            Reason::NotARepository,
            format!("Workspace is not inside a git checkout: {shown}"),
        )
        .about(field::WORKSPACE, shown.to_string());
    };
    let mut causes: Vec<String> = Vec::new();
    for cause in err.iter_errors() {
        let text = one_line(cause.to_string().trim());
        if !text.is_empty() && causes.last() != Some(&text) {
            causes.push(text);
        }
    }
    let git_dir = AsRef::<Path>::as_ref(&found).display().to_string();
    match causes.split_first() {
        Some((first, rest)) if first.contains("configuration") && !rest.is_empty() => {
            DiffError::config(Reason::BadGitConfig, format!(
                "The git configuration could not be read: {}. Fix the repository's configuration or the file it includes (git config --list --show-origin names each), then rerun.",
                rest.join(": ")
            ))
        }
        _ => DiffError::config(Reason::RepositoryUnreadable, format!(
            "The repository at {git_dir} could not be opened: {}.",
            causes.join(": ")
        )),
    }
}

/// Text from git or a repository on one line (control characters escaped):
/// also how the policy's report prints repository names on a terminal.
pub(crate) fn one_line(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

/// Reads blobs on the thread that made it (`Repository::blob_reader`).
pub struct BlobReader(gix::Repository);

impl BlobReader {
    /// A blob's bytes.
    pub fn read(&self, id: ObjectId) -> Result<Vec<u8>, DiffError> {
        let blob = self.0.find_blob(id).map_err(|err| {
            DiffError::objects_missing(format!(
                "Blob {} could not be read (objects_missing): {err}. Hydrate the repository's objects, then rerun.",
                id.to_hex_with_len(12)
            ))
        })?;
        Ok(blob.detach().data)
    }
}
