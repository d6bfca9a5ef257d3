//! A host comparison (issue 42): what a change does to the coding-agent
//! hosts' configuration, the reference's `diff` without `--application`.
//! The head is the working tree by default (as the reference's), taken
//! as a commit of the host sources only (`git::worktree` with the
//! sources' pathspecs); a committed head or the index can be asked for.
//! Each blob's reading is kept by blob id and each tree's inventory by
//! tree id (`Namespace::Hosts`), so a warm comparison costs its rows.

use super::*;
use crate::hosts::compare::compare;
use crate::hosts::document::{document, status, Sides};
use crate::hosts::inventory::{HostInventory, InventorySource};
use crate::hosts::read::{Malformed, SourceReading, MAX_SOURCE_BYTES};
use crate::hosts::sources::{classify, format_of, nested_host, SourceKind, PATHSPECS, TAKEN};
use crate::hosts::HOST_READER_VERSION;

/// The largest file a host snapshot takes as it is: larger host sources
/// are never parsed (`MAX_SOURCE_BYTES`), but a hook's script is compared
/// by its bytes, so it is hashed up to this bound.
const MAX_SNAPSHOT_BYTES: u64 = 64 << 20;

/// Hook scripts resolved per source, at most; past it the source names a
/// limit (a change to the rest would not show).
const MAX_HOOK_SCRIPTS: usize = 64;

/// A host comparison as asked.
#[derive(Debug, Clone, Default)]
pub struct HostDiffRequest {
    pub workspace: PathBuf,
    /// The base ref; none = the detected default branch.
    pub base: Option<String>,
    /// A committed head; none = the working tree (or the index).
    pub head: Option<String>,
    /// The index is the head, not the working tree.
    pub staged: bool,
    pub format: OutputFormat,
}

/// A host comparison as answered.
#[derive(Debug, Clone)]
pub struct HostDiffOutcome {
    pub document: Value,
    pub json: String,
    /// The rendering `format` asked for (the JSON for JSON).
    pub rendered: String,
    pub status: &'static str,
    pub rows: usize,
}

/// An `audit --host` as asked.
#[derive(Debug, Clone, Default)]
pub struct HostAuditRequest {
    pub workspace: PathBuf,
    /// A commit to inventory; none = the working tree.
    pub at: Option<String>,
    /// `--drift`: the baseline file's text, and its path as given.
    pub baseline: Option<(String, String)>,
    /// The JSON is asked for: no markdown is rendered.
    pub json: bool,
}

/// An `audit --host` as answered.
#[derive(Debug, Clone)]
pub struct HostAuditOutcome {
    /// The inventory document, or the drift document when a baseline was
    /// given.
    pub json: String,
    /// The markdown of the same; none when the JSON was asked for.
    pub markdown: Option<String>,
    /// The baseline file recording this inventory (`--save-baseline`).
    pub baseline: String,
    /// The digest of its grants.
    pub baseline_sha256: String,
    pub has_drift: bool,
    /// The repository's root, which a baseline path is relative to.
    pub root: String,
}

impl Engine {
    /// `diff --all`: the application comparison and the host comparison
    /// of the same revisions, in one answer. The document (which the
    /// policy reads) stays the application's; the JSON and the rendering
    /// hold both halves, each with its own status.
    pub(super) fn with_hosts(
        &self,
        request: &DiffRequest,
        application: &DiffOutcome,
    ) -> Result<DiffOutcome, DiffError> {
        let snapshot = request.worktree || request.staged;
        let hosts = self.host_diff(&HostDiffRequest {
            workspace: request.workspace.clone(),
            // The application's defaults: the working tree and the index
            // are compared with `HEAD` unless a base is asked for.
            base: request
                .base
                .clone()
                .or_else(|| snapshot.then(|| "HEAD".to_string())),
            head: (!snapshot).then(|| request.head.clone().unwrap_or_else(|| "HEAD".into())),
            staged: request.staged,
            format: request.format,
        })?;
        let both = json!({
            "application": application.document,
            "diff_all_schema_version": "0.1",
            "hosts": hosts.document,
        });
        let rendered = match request.format {
            OutputFormat::Json => None,
            OutputFormat::Sarif => Some(merged_sarif(
                application.rendered.as_deref().unwrap_or_default(),
                &hosts.rendered,
            )),
            _ => Some(format!(
                "{}\n{}",
                application.rendered.as_deref().unwrap_or_default(),
                hosts.rendered
            )),
        };
        Ok(DiffOutcome {
            document: application.document.clone(),
            json: to_pretty(&both),
            rendered,
            status: application.status.clone(),
        })
    }

    /// The host grants of the working tree (or a commit), and their drift
    /// from a baseline when one is given.
    pub fn host_audit(&self, request: &HostAuditRequest) -> Result<HostAuditOutcome, DiffError> {
        use crate::hosts::{audit, drift};
        let repo = Repository::discover(&request.workspace)?;
        let (repo, commit) = match &request.at {
            Some(at) => {
                let commit = crate::history::resolve(&repo, at, field::AT)?;
                (repo, commit)
            }
            None => {
                let snapshot = self.host_snapshot(&repo, crate::git::Snapshotted::WorkingTree)?;
                (snapshot.repository, snapshot.commit)
            }
        };
        let inventory = self.host_inventory(&repo, commit)?;
        let root = repo.root().display().to_string();
        let doc = audit::document(&inventory, &root);
        let baseline_text = drift::baseline(&inventory, &doc);
        let baseline_sha256 = drift::grants_sha256(&doc);
        let (shown, markdown, has_drift) = match &request.baseline {
            Some((text, file)) => {
                let baseline = drift::read_baseline(text).map_err(|why| {
                    DiffError::usage(
                        Reason::BadBaseline,
                        format!("The host-grants baseline {file} cannot be used: {why}."),
                    )
                })?;
                let drifted = drift::drift(&baseline, &inventory, &doc, file);
                let markdown = (!request.json).then(|| drift::markdown(&drifted));
                let has_drift = drifted["has_drift"] == Value::Bool(true);
                (drifted, markdown, has_drift)
            }
            None => {
                let markdown = (!request.json).then(|| audit::markdown(&doc, &root));
                (doc, markdown, false)
            }
        };
        Ok(HostAuditOutcome {
            json: to_pretty(&shown),
            markdown,
            baseline: baseline_text,
            baseline_sha256,
            has_drift,
            root,
        })
    }

    pub fn host_diff(&self, request: &HostDiffRequest) -> Result<HostDiffOutcome, DiffError> {
        let resolving = phase!("resolve").entered();
        let repo = Repository::discover(&request.workspace)?;
        let (repo, revisions, head_commit, head_label, snapshot) = match &request.head {
            Some(head) => {
                if request.staged {
                    return Err(DiffError::usage(
                        Reason::WorktreeWithHead,
                        "The staged changes are the head of this comparison; no other head can be asked for.",
                    )
                    .about(field::HEAD, head.as_str()));
                }
                let revisions = repo.resolve_revisions(request.base.as_deref(), Some(head))?;
                let head_commit = revisions.head;
                (repo, revisions, head_commit, head.clone(), false)
            }
            None => {
                let mut revisions =
                    repo.resolve_revisions(request.base.as_deref(), Some("HEAD"))?;
                let head_commit = revisions.head;
                let (taken, label) = if request.staged {
                    (crate::git::Snapshotted::Index, crate::render::STAGED_REF)
                } else {
                    (
                        crate::git::Snapshotted::WorkingTree,
                        crate::render::WORKTREE_REF,
                    )
                };
                let snapshot = self.host_snapshot(&repo, taken)?;
                revisions.head = snapshot.commit;
                (
                    snapshot.repository,
                    revisions,
                    head_commit,
                    label.to_string(),
                    true,
                )
            }
        };
        drop(resolving);
        let base = self.host_inventory(&repo, revisions.base)?;
        let head = self.host_inventory(&repo, revisions.head)?;
        let comparing = phase!("compare").entered();
        let comparison = compare(&base, &head);
        drop(comparing);
        let rendering = phase!("render").entered();
        let sides = Sides {
            workspace: repo.root().display().to_string(),
            base_ref: revisions.base_ref.clone(),
            base_commit: revisions.base.to_string(),
            head_label,
            head_commit: head_commit.to_string(),
            head_is_snapshot: snapshot,
        };
        let document = document(&comparison, &sides);
        let json = to_pretty(&document);
        let rendered = match request.format {
            OutputFormat::Json => json.clone(),
            OutputFormat::Text => crate::hosts::text::text(&comparison, &sides),
            OutputFormat::Markdown => crate::hosts::formats::markdown(&comparison, &sides),
            OutputFormat::Sarif => crate::hosts::formats::sarif(&comparison),
            OutputFormat::Github => crate::hosts::formats::github(&comparison),
        };
        let outcome = HostDiffOutcome {
            json,
            rendered,
            document,
            status: status(&comparison),
            rows: comparison.rows.len(),
        };
        drop(rendering);
        Ok(outcome)
    }

    /// The working tree (or the index) as a commit of its host sources
    /// and of the scripts their hooks run under the project directory: a
    /// script is named only inside a settings file, so the sources are
    /// taken first and, when their hooks name scripts, taken again with
    /// those scripts — an edited, uncommitted script is then the one
    /// compared, never the committed one.
    fn host_snapshot(
        &self,
        repo: &Repository,
        taken: crate::git::Snapshotted,
    ) -> Result<crate::git::Snapshot, DiffError> {
        let first = repo.worktree_snapshot(taken, TAKEN, MAX_SNAPSHOT_BYTES)?;
        if taken == crate::git::Snapshotted::Index {
            return Ok(first);
        }
        let inventory = self.host_inventory(&first.repository, first.commit)?;
        let mut scripts: Vec<String> = inventory
            .sources
            .iter()
            .flat_map(InventorySource::hook_scripts)
            .map(|script| format!(":(literal){script}"))
            .collect();
        if scripts.is_empty() {
            return Ok(first);
        }
        scripts.sort();
        scripts.dedup();
        let mut pathspecs: Vec<&str> = PATHSPECS.to_vec();
        pathspecs.extend(scripts.iter().map(String::as_str));
        let files = crate::git::Taken {
            pathspecs: &pathspecs,
            ignored_too: true,
        };
        repo.worktree_snapshot(taken, files, MAX_SNAPSHOT_BYTES)
    }

    /// Every host source of `commit`'s tree, read; kept by tree id.
    pub(crate) fn host_inventory(
        &self,
        repo: &Repository,
        commit: ObjectId,
    ) -> Result<HostInventory, DiffError> {
        let tree = repo.commit_tree(commit)?;
        let key = blake3::Hasher::new()
            .update(b"host-inventory")
            .update(&HOST_READER_VERSION.to_le_bytes())
            .update(tree.as_bytes())
            .finalize();
        if let Some(kept) = self.cache.get::<HostInventory>(
            Namespace::Hosts,
            key.as_bytes(),
            Some(&self.cache.hosts),
        ) {
            return Ok(kept);
        }
        let listing = phase!("list").entered();
        let found = repo.find_files(tree, &|path| {
            classify(path).is_some() || nested_host(path).is_some()
        })?;
        drop(listing);
        let mut sources = Vec::new();
        let mut nested = std::collections::BTreeMap::new();
        for (path, blob) in &found.files {
            crate::work::checkpoint()?;
            let Some(class) = classify(path) else {
                nested.insert(path.clone(), blob.to_string());
                continue;
            };
            let mut source = InventorySource {
                path: path.clone(),
                host: class.host,
                kind: class.kind,
                blob: blob.to_string(),
                reading: self.host_reading(repo, class.kind, format_of(path), *blob)?,
                scripts: Default::default(),
            };
            // The scripts hooks run under the project directory, each by
            // its blob (bounded: a settings file names a handful).
            let scripts = source.hook_scripts();
            if scripts.len() > MAX_HOOK_SCRIPTS {
                if let Ok(reading) = &mut source.reading {
                    reading.limits.push(crate::hosts::read::SourceLimit::script_not_resolved(format!(
                        "hooks run {} scripts; past the first {MAX_HOOK_SCRIPTS}, a change to a script is not shown",
                        scripts.len()
                    )));
                }
            }
            for script in scripts.into_iter().take(MAX_HOOK_SCRIPTS) {
                let blob = match repo.entry_at(tree, &script)? {
                    Some(crate::git::PathEntry::Blob(id)) => id.to_string(),
                    _ => "missing".to_string(),
                };
                source.scripts.insert(script, blob);
            }
            sources.push(source);
        }
        for path in &found.links {
            if let Some(class) = classify(path) {
                sources.push(InventorySource {
                    path: path.clone(),
                    host: class.host,
                    kind: class.kind,
                    blob: String::new(),
                    reading: Err(Malformed::unreadable(
                        "this source is a symbolic link, whose target is not read".into(),
                    )),
                    scripts: Default::default(),
                });
            }
        }
        sources.sort_by(|a, b| a.path.cmp(&b.path));
        let inventory = HostInventory {
            sources,
            cut_short: found.cut_short,
            nested,
        };
        let _ = self.cache.put(Namespace::Hosts, key.as_bytes(), &inventory);
        Ok(inventory)
    }

    /// One blob's reading; kept by blob id and source kind.
    fn host_reading(
        &self,
        repo: &Repository,
        kind: SourceKind,
        format: &str,
        blob: ObjectId,
    ) -> Result<Result<SourceReading, Malformed>, DiffError> {
        let key = blake3::Hasher::new()
            .update(b"host-reading")
            .update(&HOST_READER_VERSION.to_le_bytes())
            .update(&[kind as u8])
            .update(format.as_bytes())
            .update(blob.as_bytes())
            .finalize();
        if let Some(kept) = self.cache.get::<Result<SourceReading, Malformed>>(
            Namespace::Hosts,
            key.as_bytes(),
            Some(&self.cache.hosts),
        ) {
            return Ok(kept);
        }
        let _facts = phase!("facts").entered();
        // A blob past the bound is never inflated.
        let reading = if repo.blob_size(blob)? > MAX_SOURCE_BYTES as u64 {
            Err(Malformed::too_large())
        } else {
            crate::hosts::read::read(kind, format, &repo.read_blob(blob)?)
        };
        let _ = self.cache.put(Namespace::Hosts, key.as_bytes(), &reading);
        Ok(reading)
    }
}

/// Two SARIF logs as one, each tool's run kept.
fn merged_sarif(application: &str, hosts: &str) -> String {
    let parsed = |text: &str| serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
    let (mut log, other) = (parsed(application), parsed(hosts));
    if let (Some(runs), Some(more)) = (log["runs"].as_array_mut(), other["runs"].as_array()) {
        runs.extend(more.iter().cloned());
    }
    to_pretty(&log)
}
