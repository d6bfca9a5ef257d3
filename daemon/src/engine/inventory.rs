//! An inventory (issue 43): the comparison of the empty tree with one
//! commit, answered as a diff is (the applications derived, each side
//! graph from the store, the answer kept in memory), then regrouped by
//! agent (`crate::inventory`). A warm inventory is the kept answer plus
//! its regrouping and rendering, both memoised here by the answer they
//! come from.

use super::*;
use crate::inventory::InventoryFormat;

/// An inventory as asked.
#[derive(Debug, Clone, Default)]
pub struct InventoryRequest {
    pub workspace: PathBuf,
    /// The commit to read; none = `HEAD`.
    pub at: Option<String>,
    /// One application; none = every application the tree holds.
    pub scope: Option<String>,
    pub max_python_files: Option<u32>,
    pub format: InventoryFormat,
}

/// An inventory as answered.
#[derive(Debug, Clone)]
pub struct InventoryOutcome {
    pub document: Value,
    /// The document as printed with `--format json`.
    pub json: String,
    /// The rendering asked for; none for JSON.
    pub rendered: Option<String>,
    pub status: String,
    pub agents: usize,
}

impl Engine {
    /// Every agent of a commit's tree, with what each binds and reaches.
    pub fn inventory(
        &self,
        request: &InventoryRequest,
    ) -> Result<Arc<InventoryOutcome>, DiffError> {
        let outcome = self.inventory_answer(request);
        self.unwritten.write(&self.cache);
        outcome
    }

    fn inventory_answer(
        &self,
        request: &InventoryRequest,
    ) -> Result<Arc<InventoryOutcome>, DiffError> {
        let scope = match &request.scope {
            Some(raw) => Some(normalize_scope(raw).ok_or_else(|| bad_scope(field::SCOPE, raw))?),
            None => None,
        };
        let max_files = request.max_python_files.unwrap_or(DEFAULT_MAX_PYTHON_FILES);
        if max_files < 1 {
            return Err(DiffError::usage(Reason::BadLimit, "must be at least 1.")
                .about(field::MAX_PYTHON_FILES, max_files.to_string()));
        }
        let resolving = phase!("resolve").entered();
        let repo = Repository::discover(&request.workspace)?;
        let at = request.at.as_deref().unwrap_or("HEAD");
        let commit = crate::history::resolve(&repo, at, field::AT)?;
        let tree = repo.commit_tree(commit)?;
        drop(resolving);
        // Nothing is bound before the first commit: the empty tree (which
        // git, and gix, hold without storing it) is the base.
        let revisions = crate::git::ResolvedRevisions {
            base_ref: String::new(),
            head_ref: at.to_string(),
            requested_base: commit,
            base: commit,
            head: commit,
        };
        let asked = Asked {
            scope: scope.clone(),
            base_scope: scope,
            max_files,
            format: OutputFormat::Json,
        };
        let empty = ObjectId::empty_tree(gix::hash::Kind::Sha1);
        // What the inventory is a function of: the answer it regroups (its
        // key: commit, trees, scope, bounds, engine version) and the format.
        let key = {
            let answer_key = answers::AnswerKey {
                revisions: &revisions,
                base_tree: empty,
                head_tree: tree,
                scope: asked.scope.as_deref(),
                base_scope: asked.base_scope.as_deref(),
                max_files,
                format: asked.format,
            };
            let mut hasher = blake3::Hasher::new();
            hasher.update(b"inventory");
            hasher.update(answer_key.digest().as_bytes());
            hasher.update(&[request.format.key_byte()]);
            hasher.finalize()
        };
        if let Some(kept) = self.inventories.get(&key) {
            crate::timings::answer_kept();
            return Ok(kept);
        }
        let answer = self.answer_resolved(&repo, &revisions, empty, tree, &asked)?;
        let _render = phase!("render").entered();
        let document = crate::inventory::document(&answer.document);
        let outcome = Arc::new(InventoryOutcome {
            json: to_pretty(&document),
            rendered: crate::inventory::render(&document, request.format),
            status: document["status"].as_str().unwrap_or("partial").to_string(),
            agents: document["agents"].as_array().map_or(0, Vec::len),
            document,
        });
        self.inventories.put(key, &outcome);
        Ok(outcome)
    }
}
