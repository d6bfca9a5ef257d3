//! The walk over a first-parent chain, newest commit first: each step
//! compares a commit's graph with its first parent's, so the parent's
//! graph, the base of this step, is the head of the next one. The walk
//! keeps it in memory (`Held`) instead of reading it back from the store,
//! and builds two graphs at once: when a step must build its base, the
//! next step's base (the parent's parent) is built beside it, on the
//! second core (`Engine::two_side_graphs`; one after the other for
//! background work, which has one core). What a step reads is exactly
//! what it read before: the same graphs, from the same cache keys; only
//! where they are held and when they are built changes.

use super::step::StepAt;
use super::Step;
use crate::engine::{Engine, SideAt};
use crate::error::DiffError;
use crate::git::{CommitInfo, Repository};
use crate::graph::SideGraph;
use gix::ObjectId;

/// The graphs the walk will ask for again, by root tree: at most the next
/// step's head and base.
#[derive(Default)]
struct Held {
    graphs: Vec<(ObjectId, SideGraph)>,
}

impl Held {
    /// The graph of `tree`, no longer held.
    fn take(&mut self, tree: ObjectId) -> Option<SideGraph> {
        let at = self.graphs.iter().position(|(held, _)| *held == tree)?;
        Some(self.graphs.swap_remove(at).1)
    }

    /// A copy of the graph of `tree`, still held.
    fn copy(&self, tree: ObjectId) -> Option<SideGraph> {
        self.graphs
            .iter()
            .find(|(held, _)| *held == tree)
            .map(|(_, graph)| graph.clone())
    }

    /// Keeps only the graph of `tree` (what the next step may ask).
    fn keep_only(&mut self, tree: ObjectId) {
        self.graphs.retain(|(held, _)| *held == tree);
    }

    fn hold(&mut self, tree: ObjectId, graph: SideGraph) {
        if !self.graphs.iter().any(|(held, _)| *held == tree) {
            self.graphs.push((tree, graph));
        }
    }
}

impl Engine {
    /// Reads the step of each commit of `chain` (newest first, each
    /// commit's first parent right after it) and hands it to `each` with
    /// its index and commit, in order.
    pub(super) fn walk_steps(
        &self,
        repo: &Repository,
        chain: &[CommitInfo],
        scope: &str,
        max_files: u32,
        each: &mut dyn FnMut(usize, &CommitInfo, &Step),
    ) -> Result<(), DiffError> {
        let mut held = Held::default();
        for (index, commit) in chain.iter().enumerate() {
            crate::work::checkpoint()?;
            let step = crate::timings::phase!("history_step").in_scope(|| {
                let at = StepAt {
                    parent_tree: parent_tree(repo, commit, chain.get(index + 1))?,
                    tree: commit.tree,
                    scope,
                    max_files,
                };
                if let Some(step) = self.indexed_step(&at) {
                    return Ok(step);
                }
                // The next step's base, when that step is still to read.
                let ahead = match chain.get(index + 1) {
                    Some(next) if at.parent_tree == Some(next.tree) => {
                        let next_at = StepAt {
                            parent_tree: parent_tree(repo, next, chain.get(index + 2))?,
                            tree: next.tree,
                            ..at
                        };
                        match next_at.parent_tree {
                            Some(tree) if self.indexed_step(&next_at).is_none() => Some(tree),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let (base, head) = self.step_graphs(repo, &at, ahead, &mut held)?;
                let step = self.step_of(repo, &at, base, head);
                self.write_deferred();
                Ok::<Step, DiffError>(step)
            })?;
            each(index, commit, &step);
        }
        Ok(())
    }

    /// The base and head graphs of the step at `at`: held from the step
    /// before, else built (the base with `ahead`, the graph the next step
    /// will build, beside it). Afterwards `held` holds what the next step
    /// asks: this step's base, and `ahead`'s graph when it was built.
    fn step_graphs(
        &self,
        repo: &Repository,
        at: &StepAt<'_>,
        ahead: Option<ObjectId>,
        held: &mut Held,
    ) -> Result<(SideGraph, SideGraph), DiffError> {
        let side = |tree| SideAt {
            tree,
            scope: at.scope,
        };
        let head = held.take(at.tree);
        let Some(parent) = at.parent_tree else {
            held.keep_only(at.tree);
            let head = match head {
                Some(head) => head,
                None => self.side_graph(repo, at.tree, at.scope, at.max_files)?,
            };
            return Ok((SideGraph::default(), head));
        };
        let base = held.copy(parent);
        held.keep_only(parent);
        Ok(match (base, head) {
            (Some(base), Some(head)) => (base, head),
            (Some(base), None) => (
                base,
                self.side_graph(repo, at.tree, at.scope, at.max_files)?,
            ),
            (None, Some(head)) => match ahead.filter(|tree| *tree != parent) {
                Some(ahead) => {
                    let (base, next) =
                        self.two_side_graphs(repo, side(parent), side(ahead), at.max_files)?;
                    held.hold(parent, base.clone());
                    held.hold(ahead, next);
                    (base, head)
                }
                None => {
                    let base = self.side_graph(repo, parent, at.scope, at.max_files)?;
                    held.hold(parent, base.clone());
                    (base, head)
                }
            },
            (None, None) => {
                let (base, head) =
                    self.two_side_graphs(repo, side(parent), side(at.tree), at.max_files)?;
                held.hold(parent, base.clone());
                (base, head)
            }
        })
    }
}

/// The tree of `commit`'s first parent; `None` for a root commit. A
/// first-parent chain lists each commit's first parent right after it
/// (`next`), its tree already read: only the chain's last commit has its
/// parent read again.
fn parent_tree(
    repo: &Repository,
    commit: &CommitInfo,
    next: Option<&CommitInfo>,
) -> Result<Option<ObjectId>, DiffError> {
    let Some(parent) = commit.parents.first() else {
        return Ok(None);
    };
    match next {
        Some(next) if next.id == *parent => Ok(Some(next.tree)),
        _ => Ok(Some(repo.commit_tree(*parent)?)),
    }
}
