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

impl Engine {
    /// One side's graph from the cache (by its root tree's alias, else by
    /// its content: `side_plan.rs`), or the input to build it from.
    pub(super) fn side_source(
        &self,
        repo: &Repository,
        root_tree: ObjectId,
        scope: &str,
        max_files: u32,
    ) -> Result<SideSource, DiffError> {
        let counters = Some(&self.cache.graphs);
        let tree = graph_key(root_tree, scope, max_files);
        let aliased = self
            .cache
            .get::<[u8; 32]>(Namespace::Graphs, tree.as_bytes(), None)
            .and_then(|content| {
                self.cache
                    .get::<SideGraph>(Namespace::Graphs, &content, counters)
            });
        if let Some(graph) = aliased {
            return Ok(SideSource::Cached(graph));
        }
        let plan = self.side_plan(repo, root_tree, scope, max_files)?;
        let keys = GraphKeys {
            tree,
            content: plan.content_key(max_files),
        };
        if let Some(graph) =
            self.cache
                .get::<SideGraph>(Namespace::Graphs, keys.content.as_bytes(), counters)
        {
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
            match self.side_source(repo, root_tree, scope, max_files) {
                Ok(SideSource::Cached(graph)) => Ok(graph),
                Ok(SideSource::Build { input, tests, keys }) => {
                    self.built(repo, input, &tests, &keys)
                }
                Err(err) => Err(err),
            }
        };
        self.unwritten.write(&self.cache);
        graph
    }
}
