//! Deriving what to compare from the change (spec: "A scope derived from
//! the change"): each changed Python file is related to the agent files
//! that import it, or that it imports, up to six import hops away on either
//! side of the change; each relation is compared in the outermost package
//! holding the change and its agents. Independent applications are separate
//! comparisons; a changed file related to no agent is named, never silently
//! dropped. Works on cached facts only.

pub mod imports;

use crate::frameworks::{adk, openai};
use crate::python::ModuleFacts;
use imports::ImportGraph;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

mod agent_files;
mod dirs;
mod side;
#[cfg(test)]
mod tests;

use agent_files::*;
use dirs::*;
use side::*;

/// The version of what `derive` answers for the same inputs (its reasons'
/// wording included), part of the cached derivation's key: a new wording
/// is never served from an older daemon's cache.
pub const DERIVATION_VERSION: u32 = 5;

/// Import hops followed from each changed file, each way.
pub const MAX_HOPS: usize = 6;

/// How the limit naming changed files no compared agent reaches begins:
/// an inventory, against the empty tree, drops it (every file is
/// "changed" there, so it says only that a module is no agent's).
pub const UNRELATED_FILES: &str = "Changed files are not related to a compared agent";

/// Modules one walk reads to relate a changed file, at most.
pub const MAX_RELATE_FILES: usize = 2000;

/// One side's Python files, as the derivation reads them.
#[derive(Debug, Clone, Default)]
pub struct SideFiles {
    /// `(path, blob id, facts)` of every non-test Python file.
    pub modules: Vec<(String, String, Arc<ModuleFacts>)>,
    /// `(path, blob id)` of Python files never read as the application:
    /// test-like files and modules under directories discovery skips
    /// (`build/`, `fixtures/`). Related when the application imports one;
    /// never agent files.
    pub tests: Vec<(String, String)>,
    /// Bounds reached while listing or reading (scope limits).
    pub limits: Vec<String>,
    /// `(path, id, why)` of Python inputs that are listed but never read:
    /// files over 2 MB, links, submodules. A change to one is named.
    pub unread: Vec<(String, String, String)>,
    /// The commit's 12-character prefix, as limits name it.
    pub commit: String,
}

impl SideFiles {
    /// `(path, blob id)` of every Python file read: modules and tests.
    pub fn python_files(&self) -> Vec<(String, String)> {
        self.modules
            .iter()
            .map(|(p, b, _)| (p.clone(), b.clone()))
            .chain(self.tests.iter().cloned())
            .collect()
    }
}

/// What the change asks to compare.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Derivation {
    pub comparisons: Vec<Relation>,
    /// Every changed `.py` path, sorted.
    pub changed_files: Vec<String>,
    pub reason: String,
    pub limits: Vec<String>,
}

/// One comparison and why (contract §7.2 `relations[]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relation {
    pub scope: String,
    pub base_scope: String,
    pub changed: Vec<String>,
    pub agent_files: Vec<String>,
    /// The import chain of the first relation, from where the search began.
    pub via: Vec<String>,
    pub outside: Vec<String>,
}

/// An agent file related to a change, with the import chain relating them.
type Related = (String, Vec<String>);

/// Derives the comparisons a change asks for.
pub fn derive(base: &SideFiles, head: &SideFiles) -> Derivation {
    derive_with_moves(base, head, &[])
}

/// Derives the comparisons a change asks for, knowing which files the
/// change moved and edited (`moved`: `(base path, head path)` pairs git's
/// rename detection makes, `crate::renames`): a directory whose files moved
/// that way is a relocation as much as one whose files moved unchanged.
pub fn derive_with_moves(
    base: &SideFiles,
    head: &SideFiles,
    moved: &[(String, String)],
) -> Derivation {
    let blobs = |side: &SideFiles| -> BTreeMap<String, String> {
        side.modules
            .iter()
            .map(|(p, b, _)| (p.clone(), b.clone()))
            .chain(side.tests.iter().cloned())
            .chain(side.unread.iter().map(|(p, b, _)| (p.clone(), b.clone())))
            .collect()
    };
    let unread_why: BTreeMap<&str, &str> = base
        .unread
        .iter()
        .chain(head.unread.iter())
        .map(|(p, _, why)| (p.as_str(), why.as_str()))
        .collect();
    let (base_blobs, head_blobs) = (blobs(base), blobs(head));
    let changed: BTreeSet<String> = base_blobs
        .keys()
        .chain(head_blobs.keys())
        .filter(|p| base_blobs.get(*p) != head_blobs.get(*p))
        .cloned()
        .collect();
    // Test-like files proper: a module under a skipped directory is a
    // source like any other (only never an agent file).
    let tests: BTreeSet<&str> = base
        .tests
        .iter()
        .chain(head.tests.iter())
        .map(|(p, _)| p.as_str())
        .filter(|p| crate::paths::is_test_path(p))
        .collect();
    let mut derivation = Derivation {
        changed_files: changed
            .iter()
            .filter(|p| p.ends_with(".py"))
            .cloned()
            .collect(),
        limits: base
            .limits
            .iter()
            .chain(head.limits.iter())
            .cloned()
            .collect(),
        ..Derivation::default()
    };
    if changed.is_empty() {
        derivation.reason = "The change touches no Python source.".into();
        return derivation;
    }
    // The sides' import graphs are independent: built side by side (a
    // tenth of a cold one-shot on a 900-file repository, issue 23). Where
    // the second thread cannot be had, both are built here: the same
    // answer either way.
    let sides = match crate::work::side_by_side(|| Side::new(head), || Side::new(base)) {
        Ok((head, base)) => [base, head],
        Err(_) => [Side::new(base), Side::new(head)],
    };
    // A test-like module counts when the application imports from it on
    // either side (its tools are the application's); other test changes
    // are not the application.
    let sources: Vec<&String> = changed
        .iter()
        .filter(|p| {
            !tests.contains(p.as_str())
                || sides
                    .iter()
                    .any(|side| side.graph.importers_of(p).next().is_some())
        })
        .collect();
    if sources.is_empty() {
        derivation.reason = "The change touches no Python source outside tests.".into();
        return derivation;
    }
    let packages = packages(base, head);
    // Each changed file's scope, relation and the agents left outside.
    let mut scopes: Vec<Relation> = Vec::new();
    let mut unrelated: Vec<(String, &str)> = Vec::new();
    let mut frontier: BTreeSet<String> = BTreeSet::new();
    for changed_file in &sources {
        // Unread on a side (a link, a file over 2 MB): named. It is still
        // related where a side reads it as a module: an agent file the
        // head replaced by a link still selects its scope from the base,
        // where its rows are then not established, never "no agent".
        let unread = unread_why.get(changed_file.as_str());
        if let Some(why) = unread {
            unrelated.push((changed_file.to_string(), why));
            if !sides
                .iter()
                .any(|side| side.files.contains(changed_file.as_str()))
            {
                continue;
            }
        }
        let mut related: Vec<Related> = Vec::new();
        let mut builds = false;
        let mut cut_short = false;
        for side in &sides {
            if !side.files.contains(changed_file.as_str()) {
                continue;
            }
            let (found, beyond, too_many) = side.related(changed_file);
            if too_many {
                let limit = format!(
                    "{} holds more than {MAX_RELATE_FILES} Python files to read to relate the change; files past the bound were not read.",
                    side.commit
                );
                if !derivation.limits.contains(&limit) {
                    derivation.limits.push(limit);
                }
            }
            cut_short |= !beyond.is_empty();
            frontier.extend(beyond);
            builds |= found
                .iter()
                .any(|(agent, _)| !side.rewirers.contains(agent.as_str()));
            for (agent, chain) in found {
                if !related.iter().any(|(a, _)| *a == agent) {
                    related.push((agent, chain));
                }
            }
        }
        related.sort_by_key(|(file, chain)| (chain.len(), file.clone()));
        // Compared where it is, but only a rewiring module reaches it: its
        // consumer may be elsewhere.
        if !related.is_empty() && !builds && unread.is_none() {
            unrelated.push((
                changed_file.to_string(),
                "only a module that rewires an agent relates to it",
            ));
        }
        if related.is_empty() {
            if unread.is_some() {
                continue;
            }
            unrelated.push((
                changed_file.to_string(),
                if cut_short {
                    "no agent file reaches it within 6 import hops, and longer paths were not followed"
                } else {
                    "no agent file imports it, and it imports no agent file within 6 hops"
                },
            ));
            continue;
        }
        // Each agent's own scope: its chain and what it imports.
        let scope_of = |agent: &str, chain: &[String]| -> String {
            let mut members: Vec<String> = chain.to_vec();
            members.push(agent.to_string());
            for side in &sides {
                members.extend(side.graph.imports_of(agent).cloned());
                // An import through a namespace package needs its root.
                for file in chain.iter().map(String::as_str).chain([agent]) {
                    members.extend(side.graph.namespace_roots_of(file).map(|root| {
                        if root.is_empty() {
                            "x".to_string()
                        } else {
                            format!("{root}/x")
                        }
                    }));
                }
            }
            outermost_package(&common_dir(members.iter().map(String::as_str)), &packages)
        };
        let agent_scopes: Vec<String> = related.iter().map(|(a, c)| scope_of(a, c)).collect();
        let joint = outermost_package(
            &common_of_dirs(agent_scopes.iter().map(String::as_str)),
            &packages,
        );
        // The nearest agents: the shortest chain, preferring an agent that
        // has a package of its own over one only the root holds.
        let nearest_scope = related
            .iter()
            .zip(&agent_scopes)
            .min_by_key(|((file, chain), scope)| (chain.len(), *scope == ".", file.clone()))
            .map(|(_, scope)| scope.clone())
            .unwrap_or_else(|| ".".to_string());
        // Only the root would hold them all: compare where the nearest
        // agents are, and name the others.
        let (scope, inside, outside): (String, Vec<&Related>, Vec<String>) =
            if joint == "." && nearest_scope != "." {
                let inside = related
                    .iter()
                    .filter(|(a, _)| within(a, &nearest_scope))
                    .collect();
                let outside = related
                    .iter()
                    .filter(|(a, _)| !within(a, &nearest_scope))
                    .map(|(a, _)| a.clone())
                    .collect();
                (nearest_scope, inside, outside)
            } else {
                (joint, related.iter().collect(), Vec::new())
            };
        scopes.push(Relation {
            scope: scope.clone(),
            base_scope: scope,
            changed: vec![changed_file.to_string()],
            agent_files: inside.iter().map(|(a, _)| a.clone()).collect(),
            via: inside.first().map(|(_, c)| c.clone()).unwrap_or_default(),
            outside,
        });
    }
    // Nested scopes collapse into the outermost; equal ones merge.
    scopes.sort_by(|a, b| (a.scope.len(), &a.scope).cmp(&(b.scope.len(), &b.scope)));
    let mut merged: Vec<Relation> = Vec::new();
    for relation in scopes {
        match merged
            .iter_mut()
            .find(|m| within(&relation.scope, &m.scope))
        {
            Some(into) => {
                into.changed.extend(relation.changed);
                into.agent_files.extend(relation.agent_files);
                into.outside.extend(relation.outside);
            }
            None => merged.push(relation),
        }
    }
    for relation in &mut merged {
        for list in [
            &mut relation.changed,
            &mut relation.agent_files,
            &mut relation.outside,
        ] {
            list.sort();
            list.dedup();
        }
        let inside = relation.agent_files.clone();
        relation.outside.retain(|o| !inside.contains(o));
    }
    let mut merged = relocations(merged, base, head, moved);
    let sort_key = |scope: &str| {
        if scope == "." {
            String::new()
        } else {
            scope.to_string()
        }
    };
    merged.sort_by_key(|r| (sort_key(&r.base_scope), sort_key(&r.scope)));
    // What is not compared, named.
    // With nothing compared, the reason names the files instead.
    if !unrelated.is_empty() && !merged.is_empty() {
        let named: Vec<String> = unrelated
            .iter()
            .map(|(path, why)| format!("{path} ({why})"))
            .collect();
        derivation.limits.push(format!(
            "{UNRELATED_FILES}, so their effect is not compared: {}.",
            list_of(&named, 5, "; ")
        ));
    }
    for relation in &merged {
        if !relation.outside.is_empty() {
            derivation.limits.push(format!(
                "Agent files outside {} also import the change and are not compared: {}.",
                relation.scope,
                list_of(&relation.outside, 5, ", ")
            ));
        }
    }
    // Modules that import the change and wire it into an agent built on
    // request elsewhere: named unless one compared scope holds all three.
    let mut wiring: BTreeSet<String> = BTreeSet::new();
    // Which modules wire, and the on-request builders each reaches, once
    // per side: a change of many files asks the same modules again and
    // again (every file of a tree, for an inventory).
    let wiring_modules: Vec<BTreeSet<&str>> = sides
        .iter()
        .map(|side| {
            side.facts
                .iter()
                .filter(|(_, facts)| wires(facts))
                .map(|(path, _)| *path)
                .collect()
        })
        .collect();
    let mut builders_of: Vec<BTreeMap<&str, Vec<&str>>> = vec![BTreeMap::new(); sides.len()];
    for changed_file in &sources {
        for (index, side) in sides.iter().enumerate() {
            if !side.files.contains(changed_file.as_str()) {
                continue;
            }
            let importers = side.walk(changed_file, true);
            for module in importers.reached {
                if !wiring_modules[index].contains(module) {
                    continue;
                }
                let builders = builders_of[index].entry(module).or_insert_with(|| {
                    side.walk(module, false)
                        .reached
                        .into_iter()
                        .filter(|b| side.on_request.contains(b))
                        .collect()
                });
                let held = builders.iter().any(|builder| {
                    merged.iter().any(|r| {
                        within(module, &r.scope)
                            && within(changed_file, &r.scope)
                            && within(builder, &r.scope)
                    })
                });
                if !builders.is_empty() && !held {
                    wiring.insert(module.to_string());
                }
            }
        }
    }
    if !wiring.is_empty() && !merged.is_empty() {
        let modules: Vec<String> = wiring.into_iter().collect();
        derivation.limits.push(format!(
            "Modules import the change and an agent builder that no compared scope holds together, so the agents they build are not compared: {}.",
            list_of(&modules, 5, ", ")
        ));
    }
    // The hop bound matters where the walk stopped outside what is compared.
    let bounded = !frontier.is_empty()
        && (merged.is_empty()
            || frontier
                .iter()
                .any(|f| !merged.iter().any(|r| within(f, &r.scope))));
    if bounded {
        derivation.limits.push(
            "Imports were followed 6 hops from each changed and agent file; a longer path from the change to an agent is not established.".to_string(),
        );
    }
    derivation.reason = if merged.is_empty() {
        nothing_compared(&sources, &unrelated, &unread_why, bounded)
    } else {
        merged.iter().map(reason_of).collect::<Vec<_>>().join("; ")
    };
    derivation.comparisons = merged;
    derivation
}

/// The reason when no comparison is derived. A changed input that is
/// never read (over the size limit, a link, a submodule) is named with
/// why, as `scope_selection.limits` names it; it is never called "not an
/// agent file", which nothing established.
fn nothing_compared(
    sources: &[&String],
    unrelated: &[(String, &str)],
    unread_why: &BTreeMap<&str, &str>,
    bounded: bool,
) -> String {
    let unread_changed = unrelated
        .iter()
        .any(|(path, _)| unread_why.contains_key(path.as_str()));
    if unread_changed {
        let named: Vec<String> = unrelated
            .iter()
            .map(|(path, why)| format!("{path} ({why})"))
            .collect();
        let within_bounds = if bounded {
            " within the bounds read"
        } else {
            ""
        };
        return format!(
            "The change could not be related to an OpenAI Agents SDK or Google ADK agent{within_bounds}: {}.",
            list_of(&named, 5, "; ")
        );
    }
    let files: Vec<String> = sources.iter().map(|s| s.to_string()).collect();
    let (listed, verb) = if files.len() == 1 {
        (files[0].clone(), "is not an agent file, and is not")
    } else {
        (list_of(&files, 5, ", "), "are not agent files, and are not")
    };
    let within_bounds = if bounded {
        " within the bounds read"
    } else {
        ""
    };
    format!(
        "The change touches no OpenAI Agents SDK or Google ADK agent{within_bounds}: {listed} {verb} imported by one or importing one within 6 hops."
    )
}

/// An application directory moved whole — its old path gone from the head,
/// its new one absent from the base, sharing identical files or files git
/// pairs as moved and edited (`moved`) — is one relocation: compared old
/// path to new path, as `--base-scope`/`--scope` would.
fn relocations(
    relations: Vec<Relation>,
    base: &SideFiles,
    head: &SideFiles,
    moved: &[(String, String)],
) -> Vec<Relation> {
    let (base_paths, head_paths) = (base.python_files(), head.python_files());
    let holds =
        |files: &[(String, String)], scope: &str| files.iter().any(|(p, _)| within(p, scope));
    let blobs_in = |files: &[(String, String)], scope: &str| -> BTreeSet<String> {
        files
            .iter()
            .filter(|(p, _)| within(p, scope))
            .map(|(_, b)| b.clone())
            .collect()
    };
    let (gone, rest): (Vec<Relation>, Vec<Relation>) = relations.into_iter().partition(|r| {
        r.scope != "." && !holds(&head_paths, &r.scope) && holds(&base_paths, &r.scope)
    });
    let mut out: Vec<Relation> = Vec::new();
    let mut unmatched: Vec<Relation> = gone;
    for mut relation in rest {
        let new_here = relation.scope != "."
            && holds(&head_paths, &relation.scope)
            && !holds(&base_paths, &relation.scope);
        let moved_from = if new_here {
            let mine = blobs_in(&head_paths, &relation.scope);
            unmatched.iter().position(|old| {
                !blobs_in(&base_paths, &old.scope).is_disjoint(&mine)
                    || moved
                        .iter()
                        .any(|(from, to)| within(from, &old.scope) && within(to, &relation.scope))
            })
        } else {
            None
        };
        if let Some(index) = moved_from {
            let old = unmatched.remove(index);
            relation.base_scope = old.scope;
            relation.via = old.via;
            relation.changed.extend(old.changed);
            relation.agent_files.extend(old.agent_files);
            relation.outside.extend(old.outside);
            for list in [
                &mut relation.changed,
                &mut relation.agent_files,
                &mut relation.outside,
            ] {
                list.sort();
                list.dedup();
            }
        }
        out.push(relation);
    }
    out.extend(unmatched);
    out
}

/// `<scope>: <changed> is related to agent file <agent> through <chain>`.
fn reason_of(relation: &Relation) -> String {
    let changed = relation.changed.first().cloned().unwrap_or_default();
    let how = match relation.via.as_slice() {
        [only] if *only == changed => format!("{changed} is an agent file"),
        via => {
            let agent = if via.first() == Some(&changed) {
                via.last()
            } else {
                via.first()
            };
            format!(
                "{changed} is related to agent file {} through {}",
                agent.cloned().unwrap_or_default(),
                via.join(" → ")
            )
        }
    };
    let mut reason = format!("{}: {how}", relation.scope);
    if relation.base_scope != relation.scope {
        reason.push_str(&format!(" (moved from {})", relation.base_scope));
    }
    if !relation.outside.is_empty() {
        reason.push_str(&format!(
            "; agent files elsewhere also import it and are not compared: {}",
            list_of(&relation.outside, 3, ", ")
        ));
    }
    reason
}

/// The first `shown` items joined, then `, and N more`.
fn list_of(items: &[String], shown: usize, separator: &str) -> String {
    let mut text = items
        .iter()
        .take(shown)
        .cloned()
        .collect::<Vec<_>>()
        .join(separator);
    if items.len() > shown {
        text.push_str(&format!(", and {} more", items.len() - shown));
    }
    text
}
