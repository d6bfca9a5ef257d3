//! One side's graph: from the cache (by its root tree's alias, else by
//! its content: `side_plan.rs`), or built from its input, its test-like
//! modules read as the build asks for them, and cached.

use super::keys::graph_key;
use super::side_plan::GraphKeys;
use super::{Engine, DEFAULT_MAX_PYTHON_FILES};
use crate::error::DiffError;
use crate::git::{PythonFile, Repository};
use crate::graph::{build_side, try_build_side, SideGraph, SideInput, SourceFile};
use crate::store::Namespace;
use crate::timings::phase;
use gix::ObjectId;

/// A side's graph found by its tree's alias, or its plan and keys.
enum Planned {
    Cached(SideGraph),
    Plan(super::side_plan::SidePlan, GraphKeys),
}

/// One side's graph as found in the cache, or what to build it from.
pub(super) enum SideSource {
    Cached(SideGraph),
    Build {
        input: SideInput,
        /// The test-like modules the input lists unread.
        tests: Vec<PythonFile>,
        keys: GraphKeys,
    },
}

/// One side of a pair: a root tree and the scope read in it.
#[derive(Debug, Clone, Copy)]
pub struct SideAt<'s> {
    pub tree: ObjectId,
    pub scope: &'s str,
}

impl Engine {
    /// Two sides' graphs (a comparison's base and head, or two commits a
    /// history walk reads next), each from the cache when it can be: the
    /// facts first, one side after the other (the second side's unchanged
    /// modules are the first's, parsed once); then the graphs still to
    /// build side by side (`work::side_by_side`), one graph for both when
    /// their content is the same. The facts it parsed are written when the
    /// caller says (`unwritten`), after its answer.
    pub fn two_side_graphs(
        &self,
        repo: &Repository,
        first: SideAt<'_>,
        second: SideAt<'_>,
        max_files: u32,
    ) -> Result<(SideGraph, SideGraph), DiffError> {
        let _graph = phase!("graph").entered();
        let first = self.side_source(repo, first.tree, first.scope, max_files)?;
        let second = self.side_source(repo, second.tree, second.scope, max_files)?;
        let graphs = match (first, second) {
            (SideSource::Cached(first), SideSource::Cached(second)) => (first, second),
            (SideSource::Cached(first), SideSource::Build { input, tests, keys }) => {
                (first, self.built(repo, input, &tests, &keys)?)
            }
            (SideSource::Build { input, tests, keys }, SideSource::Cached(second)) => {
                (self.built(repo, input, &tests, &keys)?, second)
            }
            (
                SideSource::Build {
                    input: first,
                    tests: first_tests,
                    keys: first_keys,
                },
                SideSource::Build {
                    input: second,
                    tests: second_tests,
                    keys: second_keys,
                },
            ) => {
                if first_keys.content == second_keys.content {
                    // Built from the same content: one graph for both
                    // sides, stored once, the second's tree an alias of it.
                    drop(second);
                    let graph = self.built(repo, first, &first_tests, &first_keys)?;
                    self.alias(&second_keys);
                    (graph.clone(), graph)
                } else {
                    // The second's on a thread of its own (with the
                    // request's cancellation and the work stack) while the
                    // first's is built here: they share nothing but their
                    // facts.
                    let (second, first) = crate::work::side_by_side(
                        || self.read_and_build(repo, second, &second_tests),
                        || self.read_and_build(repo, first, &first_tests),
                    )?;
                    (
                        self.cached_after_build(first?, &first_keys)?,
                        self.cached_after_build(second?, &second_keys)?,
                    )
                }
            }
        };
        Ok(graphs)
    }

    /// One side's graph from the cache (by its root tree's alias, else by
    /// its content: `side_plan.rs`), or the input to build it from.
    pub(super) fn side_source(
        &self,
        repo: &Repository,
        root_tree: ObjectId,
        scope: &str,
        max_files: u32,
    ) -> Result<SideSource, DiffError> {
        match self.planned(repo, root_tree, scope, max_files)? {
            Planned::Cached(graph) => Ok(SideSource::Cached(graph)),
            Planned::Plan(plan, keys) => self.source_of(repo, plan, keys),
        }
    }

    /// The graph by its root tree's alias, else the side's plan and keys.
    fn planned(
        &self,
        repo: &Repository,
        root_tree: ObjectId,
        scope: &str,
        max_files: u32,
    ) -> Result<Planned, DiffError> {
        let tree = graph_key(root_tree, scope, max_files);
        let aliased = self
            .cache
            .get::<[u8; 32]>(Namespace::Graphs, tree.as_bytes(), None)
            .and_then(|content| {
                self.cache
                    .get::<SideGraph>(Namespace::Graphs, &content, Some(&self.cache.graphs))
            });
        if let Some(graph) = aliased {
            return Ok(Planned::Cached(graph));
        }
        let plan = self.side_plan(repo, root_tree, scope, max_files)?;
        let keys = GraphKeys {
            tree,
            content: plan.content_key(max_files),
        };
        Ok(Planned::Plan(plan, keys))
    }

    /// The graph by its content key (the tree's key then made its alias),
    /// else the input to build it from.
    fn source_of(
        &self,
        repo: &Repository,
        plan: super::side_plan::SidePlan,
        keys: GraphKeys,
    ) -> Result<SideSource, DiffError> {
        if let Some(graph) = self.cache.get::<SideGraph>(
            Namespace::Graphs,
            keys.content.as_bytes(),
            Some(&self.cache.graphs),
        ) {
            self.alias(&keys);
            return Ok(SideSource::Cached(graph));
        }
        let (input, tests) = self.side_input_of(repo, plan)?;
        Ok(SideSource::Build { input, tests, keys })
    }

    /// Points the root tree's key at the content key.
    pub(super) fn alias(&self, keys: &GraphKeys) {
        if let Err(err) = self.cache.put(
            Namespace::Graphs,
            keys.tree.as_bytes(),
            keys.content.as_bytes(),
        ) {
            eprintln!("shipgate: could not cache a graph's key: {err}");
        }
    }

    /// The side built from its input, and cached.
    pub(super) fn built(
        &self,
        repo: &Repository,
        input: SideInput,
        tests: &[PythonFile],
        keys: &GraphKeys,
    ) -> Result<SideGraph, DiffError> {
        let graph = self.read_and_build(repo, input, tests)?;
        self.cached_after_build(graph, keys)
    }

    /// The side's graph, its test-like modules read as the build asks for
    /// them (`graph::try_build_side`): most applications import none, and
    /// their tests were most of a cold read's parsing (8.5 of the 15 MB of
    /// openai-agents-python). Each round reads at least one more module,
    /// so the rounds end.
    pub(super) fn read_and_build(
        &self,
        repo: &Repository,
        mut input: SideInput,
        tests: &[PythonFile],
    ) -> Result<SideGraph, DiffError> {
        loop {
            if input.unread_tests.is_empty() {
                return Ok(build_side(input));
            }
            let wanted = match try_build_side(input.clone()) {
                Ok(graph) => return Ok(graph),
                Err(wanted) => wanted.paths,
            };
            crate::work::checkpoint()?;
            let reading: Vec<&PythonFile> = tests
                .iter()
                .filter(|file| {
                    wanted.contains(&file.path) && input.unread_tests.contains(&file.path)
                })
                .collect();
            if reading.is_empty() {
                // Asked for nothing this input can read: built as absent.
                return Ok(build_side(input));
            }
            let blobs: Vec<ObjectId> = reading.iter().map(|file| file.blob).collect();
            let facts = self.facts_for(repo, &blobs)?;
            input
                .unread_tests
                .retain(|path| !reading.iter().any(|file| file.path == *path));
            input
                .test_files
                .extend(reading.iter().zip(facts).map(|(file, facts)| SourceFile {
                    path: file.path.clone(),
                    facts,
                }));
        }
    }

    /// A built side, cached unless the build was cancelled half-way (then
    /// it is dropped here).
    pub(super) fn cached_after_build(
        &self,
        graph: SideGraph,
        keys: &GraphKeys,
    ) -> Result<SideGraph, DiffError> {
        crate::work::checkpoint()?;
        match self
            .cache
            .put(Namespace::Graphs, keys.content.as_bytes(), &graph)
        {
            Ok(()) => self.alias(keys),
            Err(err) => eprintln!("shipgate: could not cache a graph: {err}"),
        }
        Ok(graph)
    }

    /// Indexes a commit's root scope so that a later diff against it is warm.
    pub fn index_commit(&self, repo: &Repository, commit: ObjectId) -> Result<(), DiffError> {
        let tree = repo.commit_tree(commit)?;
        self.side_graph(repo, tree, ".", DEFAULT_MAX_PYTHON_FILES)
            .map(|_| ())
    }

    /// `side_graph` without the write of the facts it parsed: from the
    /// cache, else built here unless another thread is building the same
    /// content (`in_flight.rs`), whose graph is then read from the cache.
    fn one_side_graph(
        &self,
        repo: &Repository,
        root_tree: ObjectId,
        scope: &str,
        max_files: u32,
    ) -> Result<SideGraph, DiffError> {
        loop {
            let (plan, keys) = match self.planned(repo, root_tree, scope, max_files)? {
                Planned::Cached(graph) => return Ok(graph),
                Planned::Plan(plan, keys) => (plan, keys),
            };
            // Asked before the cache, so a graph another thread is
            // building is waited for, then found there.
            let _building = match self.in_flight.turn(*keys.content.as_bytes())? {
                super::in_flight::Turn::Build(building) => building,
                super::in_flight::Turn::Waited => continue,
            };
            return match self.source_of(repo, plan, keys)? {
                SideSource::Cached(graph) => Ok(graph),
                SideSource::Build { input, tests, keys } => self.built(repo, input, &tests, &keys),
            };
        }
    }

    /// One side's graph for a scope of a commit's tree, from the cache when
    /// it was built before.
    pub fn side_graph(
        &self,
        repo: &Repository,
        root_tree: ObjectId,
        scope: &str,
        max_files: u32,
    ) -> Result<SideGraph, DiffError> {
        let graph = {
            let _graph = phase!("graph").entered();
            self.one_side_graph(repo, root_tree, scope, max_files)
        };
        self.unwritten.write(&self.cache);
        graph
    }
}
