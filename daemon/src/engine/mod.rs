//! One comparison from request to rendered document: resolve revisions, list
//! each side's scope, load or compute facts and graphs through the cache,
//! compare, build the document. Synchronous and CPU-bound: the service runs
//! it on the blocking pool.

use crate::compare::document::{
    combined_document, single_document, Comparison, SideMeta, MAX_PYTHON_BYTES,
};
use crate::compare::{
    apply_absent_agents, apply_label_correspondence, apply_submodules, compare_renamed,
    file_renames,
};
use crate::error::{field, DiffError, Reason};
use crate::git::{Repository, ScopeLookup};
use crate::graph::{Gap, ScopeContext, SideGraph, SideInput, SourceFile};
use crate::paths::{normalize_scope, rooted};
use crate::pyrepr::str_repr;
use crate::python::stdlib::is_stdlib_module;
use crate::render::{pyjson::to_pretty, render, OutputFormat};
use crate::store::{Cache, Namespace};
use crate::timings::phase;
use gix::ObjectId;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

mod answers;
mod context;
mod facts;
mod host_diff;
mod in_flight;
mod inventory;
mod keys;
mod side_graphs;
mod side_plan;
mod write_behind;

use context::*;
use facts::DecodedFacts;
use keys::*;
pub use side_graphs::SideAt;

pub use host_diff::{HostAuditOutcome, HostAuditRequest, HostDiffOutcome, HostDiffRequest};
pub use inventory::{InventoryOutcome, InventoryRequest};

pub const DEFAULT_MAX_PYTHON_FILES: u32 = 1000;

/// Files and bytes read per side to find the agent files of a change.
const MAX_DERIVATION_FILES: usize = 5000;
const MAX_DERIVATION_BYTES: u64 = 64 * 1024 * 1024;

/// A comparison as asked (the client's flags).
#[derive(Debug, Clone, Default)]
pub struct DiffRequest {
    pub workspace: PathBuf,
    pub base: Option<String>,
    pub head: Option<String>,
    pub scope: Option<String>,
    pub base_scope: Option<String>,
    pub max_python_files: Option<u32>,
    /// The rendering asked for besides the JSON document.
    pub format: OutputFormat,
    /// The working tree is the head (`git::worktree`).
    pub worktree: bool,
    /// The index is the head (`git::worktree`, what is staged only).
    pub staged: bool,
    /// Also compare the hosts' configuration (`diff --all`, `host_diff.rs`).
    pub all: bool,
}

/// What an answer is asked for, once the revisions are resolved.
struct Asked {
    scope: Option<String>,
    base_scope: Option<String>,
    max_files: u32,
    format: OutputFormat,
}

/// A comparison as answered.
#[derive(Debug, Clone)]
pub struct DiffOutcome {
    pub document: Value,
    /// The document as printed with `--json`.
    pub json: String,
    /// The document rendered as the request's `format` asked (text,
    /// markdown, SARIF, annotations); none when it asked for JSON.
    pub rendered: Option<String>,
    pub status: String,
}

/// Both sides of one scope pair, ready for the document.
pub struct Pair {
    pub base: SideGraph,
    pub head: SideGraph,
    pub rows: Vec<crate::compare::Row>,
    /// File renames between the scopes (`source_correspondence`).
    pub renames: Vec<crate::compare::FileRename>,
    /// Agents renamed in place (`agent_correspondence`).
    pub agent_renames: Vec<crate::compare::AgentRename>,
    /// Inputs the change touched that are never read (a submodule, a
    /// directory past the depth bound), each as its limit says it.
    pub unread_changes: Vec<String>,
}

/// The Python files a change moved and edited, repository-wide, as git's
/// rename detection pairs them (`crate::renames`): a base path gone from
/// the head with a head path new to it, neither an identical blob of the
/// other side. For a scope derivation's relocations.
fn moved_files(
    repo: &Repository,
    base: &crate::scope::SideFiles,
    head: &crate::scope::SideFiles,
) -> Vec<(String, String)> {
    use std::collections::BTreeSet;
    let (base_files, head_files) = (base.python_files(), head.python_files());
    let paths = |files: &[(String, String)]| -> BTreeSet<String> {
        files.iter().map(|(p, _)| p.clone()).collect()
    };
    let blobs = |files: &[(String, String)]| -> BTreeSet<String> {
        files.iter().map(|(_, b)| b.clone()).collect()
    };
    let (base_paths, head_paths) = (paths(&base_files), paths(&head_files));
    let (base_blobs, head_blobs) = (blobs(&base_files), blobs(&head_files));
    let left = |files: &[(String, String)],
                other_paths: &BTreeSet<String>,
                other_blobs: &BTreeSet<String>| {
        files
            .iter()
            .filter(|(p, b)| !other_paths.contains(p) && !other_blobs.contains(b))
            .cloned()
            .collect::<Vec<_>>()
    };
    let base_left = left(&base_files, &head_paths, &head_blobs);
    let head_left = left(&head_files, &base_paths, &base_blobs);
    let reader = repo.blob_reader();
    let mut read = |blob: &str| {
        let id = ObjectId::from_hex(blob.as_bytes()).ok()?;
        reader.read(id).ok()
    };
    crate::renames::similar_moves(base_left, head_left, &mut read)
        .into_iter()
        .map(|pair| (pair.base, pair.head))
        .collect()
}

/// The analysis engine over one store.
pub struct Engine {
    cache: Arc<Cache>,
    /// Answers given recently (`answers.rs`).
    answers: answers::Answers,
    /// Decoded facts of recently used blobs: a warm daemon does not decode
    /// the same module from the store on every request.
    decoded: Mutex<DecodedFacts>,
    /// Facts parsed by a request, written to the store once it is answered
    /// (`write_behind.rs`).
    unwritten: write_behind::WriteBehind,
    /// Inventories rendered recently (`inventory.rs`).
    inventories: answers::Kept<InventoryOutcome>,
    /// Graphs being built, by content (`in_flight.rs`).
    in_flight: in_flight::InFlight,
}

impl Engine {
    pub fn new(cache: Arc<Cache>) -> Self {
        Engine {
            cache,
            answers: answers::Answers::default(),
            decoded: Mutex::new(DecodedFacts::default()),
            unwritten: write_behind::WriteBehind::default(),
            inventories: answers::Kept::default(),
            in_flight: in_flight::InFlight::default(),
        }
    }

    pub fn cache(&self) -> &Cache {
        &self.cache
    }

    /// Forgets the answers kept in memory (`answers.rs`), so the next
    /// request is computed again from the store and the facts memo: what
    /// a benchmark of that work needs between iterations.
    pub fn forget_answers(&self) {
        self.answers.clear();
        self.inventories.clear();
    }

    /// The answer to a comparison; shared with the answers kept, so a
    /// repeated request copies nothing.
    pub fn diff(&self, request: &DiffRequest) -> Result<Arc<DiffOutcome>, DiffError> {
        let outcome = self.answer(request);
        self.unwritten.write(&self.cache);
        match outcome {
            Ok(application) if request.all => self.with_hosts(request, &application).map(Arc::new),
            outcome => outcome,
        }
    }

    /// Writes the facts the work so far parsed to the store (a history
    /// walk, after each step it read).
    pub(crate) fn write_deferred(&self) {
        self.unwritten.write(&self.cache);
    }

    /// `diff`, with the facts it parsed not yet written to the store.
    fn answer(&self, request: &DiffRequest) -> Result<Arc<DiffOutcome>, DiffError> {
        let scope = match &request.scope {
            Some(raw) => Some(normalize_scope(raw).ok_or_else(|| bad_scope(field::SCOPE, raw))?),
            None => None,
        };
        let base_scope = match (&request.base_scope, &scope) {
            // The command line adds the flag to pass (`--scope`).
            (Some(raw), None) => {
                return Err(DiffError::usage(
                    Reason::BaseScopeWithoutScope,
                    "A base scope names the old path of an explicitly selected application; it needs a scope.",
                )
                .about(field::BASE_SCOPE, raw.as_str()))
            }
            (Some(raw), Some(_)) => Some(
                normalize_scope(raw).ok_or_else(|| bad_scope(field::BASE_SCOPE, raw))?,
            ),
            (None, scope) => scope.clone(),
        };
        let max_files = request.max_python_files.unwrap_or(DEFAULT_MAX_PYTHON_FILES);
        if max_files < 1 {
            return Err(DiffError::usage(Reason::BadLimit, "must be at least 1.")
                .about(field::MAX_PYTHON_FILES, max_files.to_string()));
        }
        let resolving = phase!("resolve").entered();
        let mut repo = Repository::discover(&request.workspace)?;
        let revisions = if request.worktree || request.staged {
            let (snapshot_repo, revisions) = worktree_revisions(&repo, request)?;
            repo = snapshot_repo;
            revisions
        } else {
            repo.resolve_revisions(request.base.as_deref(), request.head.as_deref())?
        };
        let base_tree = repo.commit_tree(revisions.base)?;
        let head_tree = repo.commit_tree(revisions.head)?;
        drop(resolving);
        let asked = Asked {
            scope,
            base_scope,
            max_files,
            format: request.format,
        };
        self.answer_resolved(&repo, &revisions, base_tree, head_tree, &asked)
    }

    /// The answer for revisions already resolved to their root trees: what
    /// a diff asks, and what an inventory asks with the empty tree as the
    /// base (`inventory.rs`).
    fn answer_resolved(
        &self,
        repo: &Repository,
        revisions: &crate::git::ResolvedRevisions,
        base_tree: ObjectId,
        head_tree: ObjectId,
        asked: &Asked,
    ) -> Result<Arc<DiffOutcome>, DiffError> {
        let (scope, base_scope, max_files) = (&asked.scope, &asked.base_scope, asked.max_files);
        let answer_key = answers::AnswerKey {
            revisions,
            base_tree,
            head_tree,
            scope: scope.as_deref(),
            base_scope: base_scope.as_deref(),
            max_files,
            format: asked.format,
        };
        let answers = &self.cache.answers;
        let answer_digest = answer_key.digest();
        if let Some(answer) = self.answers.get(&answer_digest) {
            answers
                .hits
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            crate::timings::answer_kept();
            return Ok(answer);
        }
        answers
            .misses
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);

        let base_meta = |scope: &str| SideMeta {
            requested_ref: revisions.base_ref.clone(),
            requested_commit: Some(revisions.requested_base.to_string()),
            compared_commit: revisions.base.to_string(),
            tree: base_tree.to_string(),
            scope: scope.to_string(),
        };
        let head_meta = |scope: &str| SideMeta {
            requested_ref: revisions.head_ref.clone(),
            requested_commit: None,
            compared_commit: revisions.head.to_string(),
            tree: head_tree.to_string(),
            scope: scope.to_string(),
        };
        let document = match (scope.clone(), base_scope.clone()) {
            (Some(head_scope), Some(base_scope)) => {
                let pair = self.compare_pair(
                    repo,
                    base_tree,
                    head_tree,
                    &base_scope,
                    &head_scope,
                    max_files,
                )?;
                if pair.base.absent && pair.head.absent {
                    // The command line adds the flags to check.
                    return Err(DiffError::config(
                        Reason::ScopeNotFound,
                        format!(
                            "Neither comparison tree contains the selected scopes: base={}, head={}.",
                            str_repr(&base_scope),
                            str_repr(&head_scope)
                        ),
                    )
                    .about(field::SCOPE, head_scope));
                }
                let _render = phase!("render").entered();
                single_document(&Comparison {
                    base_meta: &base_meta(&base_scope),
                    head_meta: &head_meta(&head_scope),
                    base: &pair.base,
                    head: &pair.head,
                    rows: &pair.rows,
                    max_python_files: max_files,
                    scope_selection: json!({"mode": "explicit", "scopes": [head_scope], "base_scope": base_scope, "reason": "Selected with --scope."}),
                    scope_limits: &[],
                    renames: &pair.renames,
                    agent_renames: &pair.agent_renames,
                })
            }
            _ => {
                let derivation = self.derivation(repo, revisions, base_tree, head_tree)?;
                let selection = scope_selection(&derivation);
                let mut compared = Vec::new();
                for relation in &derivation.comparisons {
                    let pair = self.compare_pair(
                        repo,
                        base_tree,
                        head_tree,
                        &relation.base_scope,
                        &relation.scope,
                        max_files,
                    )?;
                    compared.push((
                        base_meta(&relation.base_scope),
                        head_meta(&relation.scope),
                        pair,
                    ));
                }
                let _render = phase!("render").entered();
                let comparisons: Vec<Comparison<'_>> = compared
                    .iter()
                    .map(|(bm, hm, pair)| Comparison {
                        base_meta: bm,
                        head_meta: hm,
                        base: &pair.base,
                        head: &pair.head,
                        rows: &pair.rows,
                        max_python_files: max_files,
                        scope_selection: selection.clone(),
                        scope_limits: &derivation.limits,
                        renames: &pair.renames,
                        agent_renames: &pair.agent_renames,
                    })
                    .collect();
                match comparisons.as_slice() {
                    [only] => single_document(only),
                    _ => combined_document(
                        &base_meta("."),
                        &head_meta("."),
                        &comparisons,
                        max_files,
                        selection,
                        &derivation.limits,
                    ),
                }
            }
        };
        let _render = phase!("render").entered();
        let status = document
            .get("comparison_status")
            .and_then(Value::as_str)
            .unwrap_or("partial")
            .to_string();
        let outcome = Arc::new(DiffOutcome {
            json: to_pretty(&document),
            rendered: render(&document, asked.format),
            document,
            status,
        });
        self.answers.put(answer_digest, &outcome);
        Ok(outcome)
    }

    /// What a change between two commits asks to compare, from the cache
    /// when derived before (it depends on the two trees only).
    fn derivation(
        &self,
        repo: &Repository,
        revisions: &crate::git::ResolvedRevisions,
        base_tree: ObjectId,
        head_tree: ObjectId,
    ) -> Result<crate::scope::Derivation, DiffError> {
        let _derivation = phase!("derivation").entered();
        let mut hasher = blake3::Hasher::new();
        hasher.update(b"scope-derivation");
        hasher.update(&crate::ENGINE_FACTS_VERSION.to_be_bytes());
        hasher.update(&crate::scope::DERIVATION_VERSION.to_be_bytes());
        for id in [revisions.base, base_tree, revisions.head, head_tree] {
            hasher.update(id.as_bytes());
        }
        let key = hasher.finalize();
        if let Some(derivation) = self.cache.get::<crate::scope::Derivation>(
            Namespace::Graphs,
            key.as_bytes(),
            Some(&self.cache.graphs),
        ) {
            return Ok(derivation);
        }
        let base_files = self.side_files(repo, revisions.base, base_tree)?;
        let head_files = self.side_files(repo, revisions.head, head_tree)?;
        let moved = moved_files(repo, &base_files, &head_files);
        let derivation = crate::scope::derive_with_moves(&base_files, &head_files, &moved);
        if let Err(err) = self
            .cache
            .put(Namespace::Graphs, key.as_bytes(), &derivation)
        {
            eprintln!("shipgate: could not cache a scope derivation: {err}");
        }
        Ok(derivation)
    }

    /// Both sides' graphs for a scope pair, made comparable, and the rows.
    fn compare_pair(
        &self,
        repo: &Repository,
        base_tree: ObjectId,
        head_tree: ObjectId,
        base_scope: &str,
        head_scope: &str,
        max_files: u32,
    ) -> Result<Pair, DiffError> {
        let (base, head) = self.two_side_graphs(
            repo,
            SideAt {
                tree: base_tree,
                scope: base_scope,
            },
            SideAt {
                tree: head_tree,
                scope: head_scope,
            },
            max_files,
        )?;
        Ok(self.finish_pair(repo, base, head, base_scope, head_scope))
    }

    /// Two sides' graphs made comparable (submodules, absent agents,
    /// labels, renames), and the rows.
    pub fn finish_pair(
        &self,
        repo: &Repository,
        mut base: SideGraph,
        mut head: SideGraph,
        base_scope: &str,
        head_scope: &str,
    ) -> Pair {
        let _compare = phase!("compare").entered();
        let unread_changes = apply_submodules(&mut base, &mut head);
        let reader = repo.blob_reader();
        let mut read = |blob: &str| {
            let id = ObjectId::from_hex(blob.as_bytes()).ok()?;
            reader.read(id).ok()
        };
        let renames = file_renames(&base, &head, base_scope, head_scope, &mut read);
        let file_renames = renames
            .iter()
            .map(|r| (r.base.clone(), r.head.clone()))
            .collect();
        let agent_renames = crate::compare::apply_agent_renames(&mut base, &head, &file_renames);
        apply_absent_agents(&mut base, &mut head);
        apply_label_correspondence(&mut base, &mut head);
        let rows = compare_renamed(&base, &head, &file_renames);
        Pair {
            base,
            head,
            rows,
            renames,
            agent_renames,
            unread_changes,
        }
    }

    /// Every Python file of a commit with its facts, for scope derivation,
    /// within the bounds (5,000 files, 64 MB, 2 MB a file).
    fn side_files(
        &self,
        repo: &Repository,
        commit: ObjectId,
        root_tree: ObjectId,
    ) -> Result<crate::scope::SideFiles, DiffError> {
        let listing = repo.list_python(root_tree)?;
        let c12 = commit.to_hex_with_len(12).to_string();
        let mut files = crate::scope::SideFiles {
            commit: c12.clone(),
            tests: listing
                .imported_only
                .iter()
                .map(|f| (f.path.clone(), f.blob.to_string()))
                .collect(),
            ..Default::default()
        };
        for path in &listing.linked_python {
            files.unread.push((
                path.clone(),
                "link".to_string(),
                "it is a link, which is not read".to_string(),
            ));
        }
        for link in &listing.gitlinks {
            files.unread.push((
                link.path.clone(),
                link.commit.to_string(),
                "it is a submodule, whose content is not read".to_string(),
            ));
        }
        // What the walk does not list is an input never read: its object's
        // id changes with anything in it, so a change there is named, never
        // dropped (issue 46, items 3 and 4).
        for entry in &listing.unlisted {
            let why = match entry.why {
                crate::git::UnlistedWhy::TooDeep => format!("it is nested {} or more directories deep, past the depth the listing walks, and nothing under it is read", crate::git::MAX_TREE_DEPTH),
                crate::git::UnlistedWhy::NameNotUtf8 => "its name is not UTF-8, so it is not read".to_string(),
            };
            files
                .unread
                .push((entry.path.clone(), entry.id.to_string(), why));
        }
        let mut total: u64 = 0;
        let mut readable = Vec::new();
        for (index, file) in listing.python.iter().enumerate() {
            if index >= MAX_DERIVATION_FILES {
                files.limits.push(format!(
                    "{c12} holds more than {MAX_DERIVATION_FILES} Python files to read to find its agent files; files past the bound were not read."
                ));
                break;
            }
            let size = repo.blob_size(file.blob)?;
            if size > MAX_PYTHON_BYTES {
                files.unread.push((
                    file.path.clone(),
                    file.blob.to_string(),
                    format!("it exceeds {MAX_PYTHON_BYTES} bytes and is not read"),
                ));
                continue;
            }
            total += size;
            if total > MAX_DERIVATION_BYTES {
                files.limits.push(format!(
                    "{c12} holds more than 64 MB of Python to read to find its agent files; files past the bound were not read."
                ));
                break;
            }
            readable.push(file);
        }
        let blobs: Vec<ObjectId> = readable.iter().map(|f| f.blob).collect();
        let facts = self.facts_for(repo, &blobs)?;
        files.modules = readable
            .iter()
            .zip(facts)
            .map(|(file, facts)| (file.path.clone(), file.blob.to_string(), facts))
            .collect();
        Ok(files)
    }
}

/// A scope (`field`: `scope` or `base_scope`) that is not a repository
/// path.
fn bad_scope(field: &'static str, raw: &str) -> DiffError {
    DiffError::usage(Reason::BadScope, crate::paths::scope_refusal(raw)).about(field, raw)
}

/// The revisions of a `worktree` or `staged` request: the working tree (or
/// the index) taken as a commit on `HEAD` (`git::worktree`) is the head,
/// the base is `HEAD` unless asked otherwise, and the head is named as the
/// working tree (or the staged changes);
/// with the repository handle that sees the snapshot's private objects.
fn worktree_revisions(
    repo: &Repository,
    request: &DiffRequest,
) -> Result<(Repository, crate::git::ResolvedRevisions), DiffError> {
    if request.worktree && request.staged {
        return Err(DiffError::usage(
            Reason::StagedWithWorktree,
            "The staged change and the working tree are two heads; ask for one.",
        )
        .about_field(field::STAGED));
    }
    let (taken, named, is) = if request.staged {
        (
            crate::git::Snapshotted::Index,
            crate::render::STAGED_REF,
            "The staged changes are",
        )
    } else {
        (
            crate::git::Snapshotted::WorkingTree,
            crate::render::WORKTREE_REF,
            "The working tree is",
        )
    };
    if let Some(head) = request.head.as_deref().filter(|head| *head != "HEAD") {
        return Err(DiffError::usage(
            Reason::WorktreeWithHead,
            format!("{is} the head of this comparison; no other head can be asked for."),
        )
        .about(field::HEAD, head));
    }
    let base = request.base.as_deref().unwrap_or("HEAD");
    // The snapshot's one parent is `HEAD`, so its merge base with the
    // base is `HEAD`'s: resolved before anything is written.
    let mut revisions = repo.resolve_revisions(Some(base), Some("HEAD"))?;
    let snapshot = repo.worktree_snapshot(taken, crate::git::PYTHON_FILES, MAX_PYTHON_BYTES)?;
    revisions.head = snapshot.commit;
    revisions.head_ref = named.to_string();
    Ok((snapshot.repository, revisions))
}
