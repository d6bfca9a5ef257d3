//! One agent identity constructed at several sites (two `return
//! Agent(name="Quote", …)` branches, the same ADK name built twice), read
//! as one agent by both readers.
//!
//! Rule (spec: "A tool every such construction binds identically is still a
//! row of that agent, beside the limit"; "unknown implementation evidence
//! cannot hide an observed binding addition"): the agent binds every tool
//! any site binds, each binding naming the sites that list it
//! (`construction_sites`, when more than one). When the sites differ, or
//! one did not read cleanly, which one runs is not established: the reader
//! names a limit on the agent beside the rows, so a row the sites disagree
//! on is never shown as more certain than the limit allows.

use crate::graph::{Binding, Gap};
use std::collections::{BTreeMap, BTreeSet};

/// What one construction site bound, and the gaps reading it left.
pub(super) struct SiteRead {
    pub line: u32,
    pub bindings: Vec<Binding>,
    pub gaps: BTreeSet<Gap>,
}

/// The sites merged into one agent's bindings, every site's gaps, and
/// whether every site read cleanly and bound the same.
pub(super) struct MergedSites {
    pub bindings: Vec<Binding>,
    pub gaps: BTreeSet<Gap>,
    pub identical: bool,
}

pub(super) fn merge_sites(reads: Vec<SiteRead>) -> MergedSites {
    let meaning = |bindings: &[Binding]| -> BTreeSet<(String, String)> {
        bindings
            .iter()
            .map(|b| (b.tool_key.clone(), format!("{:?}", b.edge)))
            .collect()
    };
    let first_meaning = reads.first().map(|read| meaning(&read.bindings));
    let identical = reads
        .iter()
        .all(|read| read.gaps.is_empty() && Some(meaning(&read.bindings)) == first_meaning);
    let mut merged: BTreeMap<String, Binding> = BTreeMap::new();
    let mut gaps = BTreeSet::new();
    for read in reads {
        gaps.extend(read.gaps);
        for binding in read.bindings {
            merged
                .entry(binding.tool_key.clone())
                .and_modify(|kept| kept.construction_sites.push(read.line))
                .or_insert_with(|| Binding {
                    construction_sites: vec![read.line],
                    ..binding
                });
        }
    }
    let bindings = merged
        .into_values()
        .map(|mut binding| {
            if binding.construction_sites.len() < 2 {
                binding.construction_sites.clear();
            }
            binding
        })
        .collect();
    MergedSites {
        bindings,
        gaps,
        identical,
    }
}
