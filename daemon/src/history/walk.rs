//! The walk over a first-parent chain, newest commit first: each step
//! compares a commit's graph with its first parent's, so the parent's
//! graph, the base of one step, is the head of the next. The walk looks
//! a few steps ahead (`AHEAD`) and asks a pool for the graphs the steps
//! not yet indexed will need; the pool builds them in order on this
//! thread and one more (`work::with_helper`; this thread alone for
//! background work, which has one core), and hands each out as many
//! times as it was asked, then lets it go. What a step reads is exactly
//! what it read before: the same graphs, through the same
//! `Engine::side_graph` and its cache; only where they are held and when
//! they are built changes.

use super::step::StepAt;
use super::Step;
use crate::engine::Engine;
use crate::error::DiffError;
use crate::git::{CommitInfo, Repository};
use crate::graph::SideGraph;
use gix::ObjectId;
use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Steps looked at before the one being read: what the pool may build
/// ahead, so at most about twice as many graphs are held at once.
const AHEAD: usize = 2;

/// The graphs the walk asked for, by root tree.
#[derive(Default)]
struct Pool {
    state: Mutex<PoolState>,
    changed: Condvar,
}

#[derive(Default)]
struct PoolState {
    /// Trees asked for and not yet being built, in the order asked.
    queue: VecDeque<ObjectId>,
    /// How many more times each asked tree's graph will be taken.
    uses: HashMap<ObjectId, usize>,
    built: HashMap<ObjectId, Result<SideGraph, DiffError>>,
    /// Set when the walk ends: the helper stops.
    finished: bool,
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        // A panic is caught where a graph is built, never with the lock.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Asks for the graph of `tree` once more.
    fn want(&self, tree: ObjectId) {
        let mut state = self.lock();
        let uses = state.uses.entry(tree).or_insert(0);
        *uses += 1;
        if *uses == 1 {
            state.queue.push_back(tree);
            self.changed.notify_all();
        }
    }

    /// The graph of `tree` (asked for before), built here when no thread
    /// has started it; kept while it is asked for again.
    fn take(
        &self,
        engine: &Engine,
        work: &Work<'_>,
        tree: ObjectId,
    ) -> Result<SideGraph, DiffError> {
        let mut state = self.lock();
        loop {
            if state.built.contains_key(&tree) {
                let uses = state.uses.get(&tree).copied().unwrap_or(1);
                if uses > 1 {
                    state.uses.insert(tree, uses - 1);
                    if let Some(built) = state.built.get(&tree) {
                        return built.clone();
                    }
                }
                state.uses.remove(&tree);
                return state
                    .built
                    .remove(&tree)
                    .unwrap_or_else(|| Err(DiffError::internal("a walk's graph went missing")));
            }
            // The next graph asked for, maybe this one, is built here;
            // with none left to start, the helper is building it.
            state = self.build_next_or_wait(state, engine, work);
        }
    }

    /// The helper: builds the next graph asked for until the walk ends.
    fn help(&self, engine: &Engine, work: &Work<'_>) {
        let mut state = self.lock();
        loop {
            if state.finished {
                return;
            }
            state = self.build_next_or_wait(state, engine, work);
        }
    }

    /// Builds the next graph asked for (the lock let go meanwhile), or
    /// waits for a change when none is left to start.
    fn build_next_or_wait<'s>(
        &'s self,
        mut state: MutexGuard<'s, PoolState>,
        engine: &Engine,
        work: &Work<'_>,
    ) -> MutexGuard<'s, PoolState> {
        match state.queue.pop_front() {
            Some(next) => {
                drop(state);
                let graph = build(engine, work, next);
                state = self.lock();
                state.built.insert(next, graph);
                self.changed.notify_all();
                state
            }
            None => self
                .changed
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        }
    }

    fn finish(&self) {
        self.lock().finished = true;
        self.changed.notify_all();
    }
}

/// Ends the walk when dropped, however the walk ends.
struct Finish<'p>(&'p Pool);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// What every graph of the walk is read in.
struct Work<'r> {
    repo: &'r Repository,
    scope: &'r str,
    max_files: u32,
}

/// One side's graph; a panic is the walk's error, not a lost graph (the
/// walk would wait for it forever).
fn build(engine: &Engine, work: &Work<'_>, tree: ObjectId) -> Result<SideGraph, DiffError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        engine.side_graph(work.repo, tree, work.scope, work.max_files)
    }))
    .unwrap_or_else(|_| Err(DiffError::internal("building a commit's graph panicked")))
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
        let work = Work {
            repo,
            scope,
            max_files,
        };
        let pool = Pool::default();
        crate::work::with_helper(
            || pool.help(self, &work),
            || {
                let _finish = Finish(&pool);
                self.read_steps(&work, &pool, chain, each)
            },
        )
    }

    /// The walk on this thread: each step from the index, else from the
    /// graphs asked of `pool` `AHEAD` steps before.
    fn read_steps(
        &self,
        work: &Work<'_>,
        pool: &Pool,
        chain: &[CommitInfo],
        each: &mut dyn FnMut(usize, &CommitInfo, &Step),
    ) -> Result<(), DiffError> {
        // A remote tier is asked for every step of the chain in batches
        // (a parent off the chain is read as the walk comes to it).
        let ats: Vec<StepAt<'_>> = chain
            .iter()
            .enumerate()
            .filter_map(|(index, commit)| {
                let parent_tree = match (commit.parents.first(), chain.get(index + 1)) {
                    (None, _) => None,
                    (Some(parent), Some(next)) if next.id == *parent => Some(next.tree),
                    _ => return None,
                };
                Some(StepAt {
                    parent_tree,
                    tree: commit.tree,
                    scope: work.scope,
                    max_files: work.max_files,
                })
            })
            .collect();
        self.prefetch_steps(&ats);
        // Steps looked at and not yet read, with what the index holds.
        let mut looked: VecDeque<(StepAt<'_>, Option<Step>)> = VecDeque::new();
        for (index, commit) in chain.iter().enumerate() {
            crate::work::checkpoint()?;
            while looked.len() <= AHEAD {
                let Some(ahead) = chain.get(index + looked.len()) else {
                    break;
                };
                let next = chain.get(index + looked.len() + 1);
                let at = StepAt {
                    parent_tree: parent_tree(work.repo, ahead, next)?,
                    tree: ahead.tree,
                    scope: work.scope,
                    max_files: work.max_files,
                };
                let indexed = self.indexed_step(&at);
                if indexed.is_none() {
                    pool.want(at.tree);
                    if let Some(parent) = at.parent_tree {
                        pool.want(parent);
                    }
                }
                looked.push_back((at, indexed));
            }
            let Some((at, indexed)) = looked.pop_front() else {
                return Err(DiffError::internal("a walk's step went missing"));
            };
            let step = crate::timings::phase!("history_step").in_scope(|| match indexed {
                Some(step) => Ok(step),
                None => {
                    let head = pool.take(self, work, at.tree)?;
                    // A root commit: nothing was bound before it.
                    let base = match at.parent_tree {
                        Some(parent) => pool.take(self, work, parent)?,
                        None => SideGraph::default(),
                    };
                    let step = self.step_of(work.repo, &at, base, head);
                    self.write_deferred();
                    Ok::<Step, DiffError>(step)
                }
            })?;
            each(index, commit, &step);
        }
        Ok(())
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
