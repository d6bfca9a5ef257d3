//! What one commit changed against its first parent, as the store
//! indexes it: by both trees, the scope and the bound.

use crate::compare::document::{row_json, stability_object};
use crate::compare::stability::stability;
use crate::compare::{Change, Row};
use crate::engine::Engine;
use crate::git::Repository;
use crate::graph::SideGraph;
use crate::paths::rooted;
use crate::store::Namespace;
use gix::ObjectId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What one commit changed against its first parent, as stored.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Step {
    /// Each binding-changing row as its JSON text (the diff's row shape).
    pub rows: Vec<String>,
    /// `tool_list_stability` as JSON text, when there is any.
    pub stability: Option<String>,
    /// Limits over the whole scope of the commit (a bound reached): its
    /// rows may be incomplete, and the answer says so.
    pub limits: Vec<String>,
    /// Every agent either side of the step builds, sorted: whether an
    /// `--agent` filter names an agent the history ever had.
    pub agents: Vec<String>,
    /// Agents the commit renamed in place, `(file, base name, head name)`:
    /// an `--agent` filter follows its agent through them.
    #[serde(default)]
    pub renames: Vec<(String, String, String)>,
    /// Each `declared_effects` entry of the step as its JSON text (the
    /// diff's shape): a declaration its tool's reach came to contradict,
    /// or no longer does (`compare::declared`).
    #[serde(default)]
    pub declared: Vec<String>,
    /// Inputs the commit changed that are never read (a submodule, a
    /// directory past the depth bound), as their limits say them: the
    /// commit is listed with them, since what they hold is not known.
    #[serde(default)]
    pub unread: Vec<String>,
}

/// The version of a stored step's shape and content, part of its key.
const STEP_VERSION: u32 = 6;

/// Where a step is indexed: its commit's tree, its parent's and what was
/// read of them.
#[derive(Debug, Clone, Copy)]
pub(super) struct StepAt<'s> {
    /// The first parent's tree; `None` for a root commit.
    pub parent_tree: Option<ObjectId>,
    pub tree: ObjectId,
    pub scope: &'s str,
    pub max_files: u32,
}

impl StepAt<'_> {
    fn key(&self) -> blake3::Hash {
        step_key(self.parent_tree, self.tree, self.scope, self.max_files)
    }
}

impl Engine {
    /// The step indexed at `at`, if it was read before.
    pub(super) fn indexed_step(&self, at: &StepAt<'_>) -> Option<Step> {
        let cache = self.cache();
        cache.get::<Step>(
            Namespace::History,
            at.key().as_bytes(),
            Some(&cache.history),
        )
    }

    /// Brings the steps indexed at `ats` from a remote tier in batches
    /// (nothing without one): a walk then reads each from the local store.
    pub(super) fn prefetch_steps(&self, ats: &[StepAt<'_>]) {
        /// Steps asked in one batch (each batch has its own deadline).
        const STEPS_PER_BATCH: usize = 1024;
        for batch in ats.chunks(STEPS_PER_BATCH) {
            let keys: Vec<Vec<u8>> = batch
                .iter()
                .map(|at| at.key().as_bytes().to_vec())
                .collect();
            self.cache().prefetch(Namespace::History, &keys);
        }
    }

    /// What a commit changed against its first parent, from the two sides'
    /// graphs (`base` empty for a root commit: nothing was bound before
    /// it), indexed at `at`.
    pub(super) fn step_of(
        &self,
        repo: &Repository,
        at: &StepAt<'_>,
        base: SideGraph,
        head: SideGraph,
    ) -> Step {
        let scope = at.scope;
        let pair = self.finish_pair(repo, base, head, scope, scope);
        let rows = pair
            .rows
            .iter()
            .filter(|row| changes_binding(row))
            .map(|row| row_json(row, scope, scope).to_string())
            .collect();
        let stability =
            stability_object(&stability(&pair.base, &pair.head), scope).map(|v| v.to_string());
        let limits = pair
            .head
            .gaps
            .iter()
            .filter(|gap| gap.source.is_none())
            .map(|gap| gap.reason.clone())
            .collect();
        let mut agents: Vec<String> = pair
            .base
            .agents
            .iter()
            .chain(pair.head.agents.iter())
            .map(|agent| agent.name.clone())
            .collect();
        agents.sort();
        agents.dedup();
        let renames = pair
            .agent_renames
            .iter()
            .map(|r| (rooted(scope, &r.agent_source), r.from.clone(), r.to.clone()))
            .collect();
        let declared = match crate::compare::declared::declared_effects_json(
            &crate::compare::declared::declared_changes(&pair.base, &pair.head),
            scope,
            scope,
        ) {
            Value::Array(entries) => entries.iter().map(Value::to_string).collect(),
            _ => Vec::new(),
        };
        let step = Step {
            rows,
            stability,
            limits,
            agents,
            renames,
            declared,
            unread: pair.unread_changes.clone(),
        };
        if let Err(err) = self
            .cache()
            .put(Namespace::History, at.key().as_bytes(), &step)
        {
            eprintln!("shipgate: could not index a history step: {err}");
        }
        step
    }
}

/// A step is indexed by both trees, the scope and the bound.
fn step_key(
    parent_tree: Option<ObjectId>,
    tree: ObjectId,
    scope: &str,
    max_files: u32,
) -> blake3::Hash {
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"history-step");
    hasher.update(&crate::ENGINE_FACTS_VERSION.to_be_bytes());
    hasher.update(&STEP_VERSION.to_be_bytes());
    if let Some(tree) = &parent_tree {
        hasher.update(tree.as_bytes());
    }
    hasher.update(&[0]);
    hasher.update(tree.as_bytes());
    hasher.update(scope.as_bytes());
    hasher.update(&[0]);
    hasher.update(&max_files.to_be_bytes());
    hasher.finalize()
}

/// A row that says a binding changed: added, removed, changed, or not
/// established where the two sides differ (an uncertainty that only
/// persists is not a change of this commit).
fn changes_binding(row: &Row) -> bool {
    match row.change {
        Change::Added | Change::Removed | Change::Changed => true,
        Change::NotEstablished => {
            row.before.as_ref().map(|b| (&b.edge, &b.settings))
                != row.after.as_ref().map(|b| (&b.edge, &b.settings))
        }
    }
}
