//! One side's modules as derivation reads them: which are agent files, what
//! each imports, and the import graph walked from a change.

use super::*;
use crate::frameworks::mcp_servers;
use rustc_hash::{FxHashMap, FxHashSet};

/// One side's modules, import graph and agent files.
pub(super) struct Side<'a> {
    pub(super) commit: &'a str,
    pub(super) graph: ImportGraph,
    /// Modules that build an agent: construct or subclass one, or build
    /// one through an agent file's factory; and modules whose own MCP
    /// server declares a tool's effects (`frameworks::mcp_servers`).
    pub(super) agent_files: BTreeSet<&'a str>,
    /// Modules that only rewire an agent an agent file builds
    /// (`support.tools.append(x)`): agent files, but a change only they
    /// reach is named.
    pub(super) rewirers: BTreeSet<&'a str>,
    /// Modules that build an agent on request: its capabilities come from
    /// a parameter, `self`, an expression or `**`, or it subclasses one.
    pub(super) on_request: BTreeSet<&'a str>,
    pub(super) facts: BTreeMap<&'a str, &'a ModuleFacts>,
    pub(super) files: BTreeSet<&'a str>,
}

impl<'a> Side<'a> {
    pub(super) fn new(files: &'a SideFiles) -> Self {
        // Test-like modules are import targets (the application may
        // import a tool from one), never read as the application.
        let graph = ImportGraph::build_with_targets(
            files
                .modules
                .iter()
                .map(|(p, _, f)| (p.as_str(), f.as_ref())),
            files.tests.iter().map(|(p, _)| p.as_str()),
        );
        let facts: BTreeMap<&str, &ModuleFacts> = files
            .modules
            .iter()
            .map(|(p, _, f)| (p.as_str(), f.as_ref()))
            .collect();
        let mut builders: BTreeSet<&str> = facts
            .iter()
            .filter(|(_, f)| builds_agent(f) || mcp_servers::declares_effects(f))
            .map(|(p, _)| *p)
            .collect();
        builders.extend(builds_through_reexports(&graph, &facts, &builders));
        let mut agent_files = builders.clone();
        let mut rewirers = BTreeSet::new();
        for (path, module) in &facts {
            if builders.contains(path) {
                continue;
            }
            let imported: Vec<&str> = graph
                .imports_of(path)
                .filter(|p| builders.contains(p.as_str()))
                .map(String::as_str)
                .collect();
            if imported.is_empty() {
                continue;
            }
            let factory_made = imported.iter().any(|builder| {
                facts
                    .get(builder)
                    .is_some_and(|b| calls_agent_factory(module, b))
            });
            let subclass_made = imported.iter().any(|builder| {
                facts
                    .get(builder)
                    .is_some_and(|b| constructs_agent_class(module, b))
            });
            if factory_made || subclass_made {
                agent_files.insert(*path);
            } else if rewires_capabilities(module) {
                agent_files.insert(*path);
                rewirers.insert(*path);
            }
        }
        let on_request = facts
            .iter()
            .filter(|(_, f)| builds_on_request(f))
            .map(|(p, _)| *p)
            .collect();
        Side {
            commit: &files.commit,
            graph,
            agent_files,
            rewirers,
            on_request,
            facts,
            files: files
                .modules
                .iter()
                .map(|(p, _, _)| p.as_str())
                .chain(files.tests.iter().map(|(p, _)| p.as_str()))
                .collect(),
        }
    }

    /// Agent files related to `changed`, each with the chain that relates
    /// them (agent first when the agent imports the change, the change
    /// first when the change imports the agent).
    pub(super) fn related(&self, changed: &str) -> (Vec<Related>, BTreeSet<String>, bool) {
        let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if self.agent_files.contains(changed) {
            found.insert(changed.to_string(), vec![changed.to_string()]);
        }
        let mut frontier = BTreeSet::new();
        let mut too_many = false;
        for importers in [true, false] {
            let walk = self.walk(changed, importers);
            too_many |= walk.reached.len() >= MAX_RELATE_FILES;
            for file in &walk.reached {
                if !self.agent_files.contains(file) || found.contains_key(*file) {
                    continue;
                }
                let mut chain = walk.chain(file);
                if importers {
                    chain.reverse();
                }
                found.insert(file.to_string(), chain);
            }
            frontier.extend(walk.beyond);
        }
        let mut related: Vec<Related> = found.into_iter().collect();
        related.sort_by_key(|(file, chain)| (chain.len(), file.clone()));
        (related, frontier, too_many)
    }

    /// Breadth-first from `start` along importers (or imports), up to the
    /// hop bound: each file reached, in the order reached, with the file
    /// it was reached from (its chain from `start` is read back through
    /// them, `Walk::chain`), and the files the walk would have gone on to
    /// past the bound. A chain is made only when asked: a walk over a
    /// large graph from every changed file reaches thousands of files and
    /// wants the chains of a few agent files.
    pub(super) fn walk<'w>(&'w self, start: &'w str, importers: bool) -> Walk<'w> {
        let mut walk = Walk {
            start,
            reached: Vec::new(),
            from: FxHashMap::default(),
            beyond: BTreeSet::new(),
        };
        let mut seen: FxHashSet<&str> = FxHashSet::default();
        seen.insert(start);
        // Each file with the length of its chain from `start`.
        let mut queue: VecDeque<(&str, usize)> = VecDeque::from([(start, 1)]);
        while let Some((last, length)) = queue.pop_front() {
            let next: Vec<&String> = if importers {
                self.graph.importers_of(last).collect()
            } else {
                self.graph.imports_of(last).collect()
            };
            if length > MAX_HOPS {
                walk.beyond.extend(
                    next.into_iter()
                        .filter(|n| !seen.contains(n.as_str()))
                        .cloned(),
                );
                continue;
            }
            for file in next {
                if walk.reached.len() >= MAX_RELATE_FILES {
                    break;
                }
                if seen.insert(file.as_str()) {
                    walk.from.insert(file.as_str(), last);
                    walk.reached.push(file.as_str());
                    queue.push_back((file.as_str(), length + 1));
                }
            }
        }
        walk
    }
}

/// What a walk of the import graph reached (`Side::walk`).
pub(super) struct Walk<'w> {
    start: &'w str,
    /// Every file reached, in the order the walk reached it.
    pub(super) reached: Vec<&'w str>,
    /// The file each was reached from.
    from: FxHashMap<&'w str, &'w str>,
    /// Files past the hop bound the walk would have gone on to.
    pub(super) beyond: BTreeSet<String>,
}

impl Walk<'_> {
    /// The chain from the walk's start to `file` (both included), as the
    /// walk reached it; just `file` when the walk did not reach it.
    pub(super) fn chain(&self, file: &str) -> Vec<String> {
        let mut chain = vec![file.to_string()];
        let mut at = file;
        // Bounded by the hop bound; `from` has no cycle (each file is
        // entered once, from a file entered before it).
        while at != self.start {
            match self.from.get(at) {
                Some(previous) => {
                    chain.push(previous.to_string());
                    at = previous;
                }
                None => break,
            }
        }
        chain.reverse();
        chain
    }
}

/// Modules that build an agent once their imports of framework names
/// another module re-exports (`from .lib import Agent`,
/// `frameworks::reexports`) are read as the framework imports they
/// forward; the graph layer reads them so (`graph/build/reexports.rs`).
/// A name is matched against every module the module imports, so this may
/// count a module the graph layer does not read as one: a wider scope,
/// never a narrower one.
fn builds_through_reexports<'a>(
    graph: &ImportGraph,
    facts: &BTreeMap<&'a str, &'a ModuleFacts>,
    builders: &BTreeSet<&str>,
) -> Vec<&'a str> {
    use crate::frameworks::reexports::{forwarded_names, forwarding};
    let forwarders: BTreeMap<&str, BTreeMap<&str, &crate::python::ImportFact>> = facts
        .iter()
        .map(|(path, module)| (*path, forwarded_names(module)))
        .filter(|(_, names)| !names.is_empty())
        .collect();
    if forwarders.is_empty() {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (path, module) in facts {
        if builders.contains(path) {
            continue;
        }
        let forwarded: BTreeMap<&str, &crate::python::ImportFact> = graph
            .imports_of(path)
            .filter_map(|imported| forwarders.get(imported.as_str()))
            .flat_map(|names| names.iter().map(|(name, import)| (*name, *import)))
            .collect();
        if forwarded.is_empty() {
            continue;
        }
        let mut read = (*module).clone();
        let mut changed = false;
        for import in &mut read.imports {
            let Some(framework) = import.name.as_deref().and_then(|n| forwarded.get(n)) else {
                continue;
            };
            *import = forwarding(import, framework);
            changed = true;
        }
        if changed && builds_agent(&read) {
            found.push(*path);
        }
    }
    found
}
