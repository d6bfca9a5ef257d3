//! The graphs of a window of a history walk built ahead, one worker per
//! core (issue 23). Each step compares a commit with its first parent
//! through the cached graphs, so a cold walk's time is its graphs'
//! builds, each on one core. The steps are still read one after the
//! other, in order, from those graphs: what changes is only when, and on
//! which thread, each graph is built. A build that fails here is left to
//! its step, which meets the same failure in order and names it.

use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Commits whose graphs are built ahead at once: progress still moves
/// every few commits, and a walk cancelled half-way builds few graphs
/// no one reads.
pub(super) const WINDOW: usize = 8;

impl Engine {
    /// Builds into the cache the graphs that the window's steps not yet
    /// indexed will read (each commit's tree and its first parent's),
    /// on one worker per core. Nothing is built ahead on one core, or for
    /// fewer than two trees.
    pub(super) fn prefetch_graphs(
        &self,
        repo: &Repository,
        window: &[CommitInfo],
        scope: &str,
        max_files: u32,
    ) -> Result<(), DiffError> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cores < 2 {
            return Ok(());
        }
        let mut trees: Vec<ObjectId> = Vec::new();
        for commit in window {
            let parent = parent_tree(repo, commit)?;
            let key = step_key(parent, commit.tree, scope, max_files);
            let indexed = self
                .cache()
                .get::<Step>(Namespace::History, key.as_bytes(), None)
                .is_some();
            if indexed {
                continue;
            }
            for tree in parent.into_iter().chain([commit.tree]) {
                if !trees.contains(&tree) {
                    trees.push(tree);
                }
            }
        }
        if trees.len() < 2 {
            return Ok(());
        }
        let next = AtomicUsize::new(0);
        let cancel = crate::work::current();
        std::thread::scope(|threads| {
            for _ in 0..cores.min(trees.len()) {
                let (repo, cancel, next, trees) = (repo.clone(), cancel.clone(), &next, &trees);
                let spawned = std::thread::Builder::new()
                    .name("shipgate-history".into())
                    .stack_size(crate::WORK_STACK_BYTES)
                    .spawn_scoped(threads, move || {
                        crate::work::with_cancel(&cancel, || {
                            while let Some(tree) = trees.get(next.fetch_add(1, Ordering::Relaxed)) {
                                if crate::work::checkpoint().is_err() {
                                    break;
                                }
                                // Its step builds it again, and says why.
                                let _ = self.side_graph(&repo, *tree, scope, max_files);
                            }
                        })
                    });
                // Fewer workers than cores: the steps build what is left.
                if spawned.is_err() {
                    break;
                }
            }
        });
        crate::work::checkpoint()
    }
}
