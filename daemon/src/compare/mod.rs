//! Rows and statuses from two side graphs (contract §6), and the document
//! that carries them. Touches neither git nor the store.

mod agent_renames;
pub mod declared;
pub mod document;
mod reach_json;
mod row_json;
mod rows;
pub mod stability;
pub mod summary;

pub use agent_renames::{apply_agent_renames, AgentRename};
pub use rows::{compare_renamed, compare_sides, Change, Row};

use crate::graph::SideGraph;

/// `comparison_status` of a single comparison (contract §6.2).
pub fn comparison_status(
    base: &SideGraph,
    head: &SideGraph,
    scope_limits: &[String],
) -> &'static str {
    let status = if base.is_partial() || head.is_partial() {
        "partial"
    } else if base.agents.is_empty() && head.agents.is_empty() {
        "not_established"
    } else {
        "compared"
    };
    if status == "compared" && !scope_limits.is_empty() {
        "partial"
    } else {
        status
    }
}

/// A side's `status`: `absent`, `partial` (a gap) or `complete`.
pub fn side_status(side: &SideGraph) -> &'static str {
    if side.absent {
        "absent"
    } else if side.is_partial() {
        "partial"
    } else {
        "complete"
    }
}

/// An agent one side builds is absent from the other only when that side's
/// file no longer names it: a file that still assigns or imports the name
/// (`support = build()`, `from .factory import support`) through something
/// the reader does not follow gets a gap, so its rows are `not_established`
/// rather than removed or added.
pub fn apply_absent_agents(base: &mut SideGraph, head: &mut SideGraph) {
    use crate::graph::Gap;
    let still_named = |side: &SideGraph, other: &SideGraph| -> Vec<Gap> {
        let present = agent_keys(side);
        other
            .agents
            .iter()
            .filter(|agent| !present.contains(&(agent.source.as_str(), agent.name.as_str())))
            .filter_map(|agent| {
                let path = &agent.source;
                let line = side
                    .module_names
                    .iter()
                    .filter(|module| module.path == *path)
                    .flat_map(|module| &module.names)
                    .find(|named| named.name == agent.name)?
                    .line;
                Some(Gap::agent(
                    path,
                    &agent.name,
                    format!(
                        "{path}:{line} still names agent {}, but no supported agent construction was observed for it (for example an Agent subclass, factory or clone); its bindings on this side are not established.",
                        crate::pyrepr::str_repr(&agent.name)
                    ),
                ))
            })
            .collect()
    };
    let base_gaps = still_named(base, head);
    let head_gaps = still_named(head, base);
    base.gaps.extend(base_gaps);
    head.gaps.extend(head_gaps);
}

/// Each agent of a side by `(source, name)`.
fn agent_keys(side: &SideGraph) -> std::collections::BTreeSet<(&str, &str)> {
    side.agents
        .iter()
        .map(|a| (a.source.as_str(), a.name.as_str()))
        .collect()
}

/// A source-labelled identity (`build@agent.py`) that disappears while
/// another identity appears in the same file may be the same agent under a
/// new label: their correspondence is ambiguous, so both sides' rows for
/// them are `not_established`, never established additions and removals.
pub fn apply_label_correspondence(base: &mut SideGraph, head: &mut SideGraph) {
    use crate::graph::Gap;
    let only = |side: &SideGraph, other: &SideGraph| -> Vec<(String, String)> {
        let present = agent_keys(other);
        side.agents
            .iter()
            .filter(|a| !present.contains(&(a.source.as_str(), a.name.as_str())))
            .map(|a| (a.source.clone(), a.name.clone()))
            .collect()
    };
    let (base_only, head_only) = (only(base, head), only(head, base));
    let ambiguous = |mine: &[(String, String)], theirs: &[(String, String)]| -> Vec<Gap> {
        // Per file of the other side: whether it has one, and a labelled one.
        let mut files: std::collections::BTreeMap<&str, bool> = std::collections::BTreeMap::new();
        for (file, name) in theirs {
            *files.entry(file.as_str()).or_default() |= name.contains('@');
        }
        mine.iter()
            .filter(|(file, name)| match files.get(file.as_str()) {
                Some(labelled_there) => name.contains('@') || *labelled_there,
                None => false,
            })
            .map(|(file, name)| {
                Gap::agent(
                    file,
                    name,
                    format!(
                        "Ambiguous agent identity: {}",
                        crate::pyrepr::tuple_repr(&[file, name])
                    ),
                )
            })
            .collect()
    };
    let base_gaps = ambiguous(&base_only, &head_only);
    let head_gaps = ambiguous(&head_only, &base_only);
    // Each side also names the other side's identity, whose rows it cannot
    // place.
    base.gaps.extend(head_gaps.iter().cloned());
    head.gaps.extend(base_gaps.iter().cloned());
    base.gaps.extend(base_gaps);
    head.gaps.extend(head_gaps);
}

/// Submodules are never read: one at the same commit on both sides is a
/// limit only; one that changed (or exists on one side) is a gap, since its
/// content could bind anything. Directories past the listing's depth bound
/// and files whose name is not UTF-8 likewise, by their object's id. Returns the reasons of the changed ones,
/// for a history step that would otherwise have no row to show.
pub fn apply_submodules(base: &mut SideGraph, head: &mut SideGraph) -> Vec<String> {
    use crate::graph::Gap;
    // A link that resolves to nothing hides what the other side reads at
    // or beneath its path.
    let hidden = |side: &SideGraph, other: &SideGraph| -> Vec<Gap> {
        side.dangling_links
            .iter()
            .filter(|link| {
                other
                    .files
                    .iter()
                    .any(|(file, _)| crate::paths::is_at_or_under(file, link))
            })
            .map(|link| {
                Gap::file(
                    link,
                    format!("Linked input resolves outside the tree: {link}"),
                )
            })
            .collect()
    };
    let base_hidden = hidden(base, head);
    let head_hidden = hidden(head, base);
    base.gaps.extend(base_hidden);
    head.gaps.extend(head_hidden);
    let mut changed = Vec::new();
    let base_links = base.gitlinks.clone();
    let head_links = head.gitlinks.clone();
    let base_unlisted = base.unlisted.clone();
    let head_unlisted = head.unlisted.clone();
    for (side, own, other, own_unlisted, other_unlisted) in [
        (
            &mut *base,
            &base_links,
            &head_links,
            &base_unlisted,
            &head_unlisted,
        ),
        (
            &mut *head,
            &head_links,
            &base_links,
            &head_unlisted,
            &base_unlisted,
        ),
    ] {
        for (path, commit) in own {
            let short: String = commit.chars().take(12).collect();
            if other.contains(&(path.clone(), commit.clone())) {
                side.limits.push(format!(
                    "Submodule content is not read (unchanged commit {short}): {path}"
                ));
            } else {
                let reason = format!("Submodule content is not read (commit {short}): {path}");
                side.gaps.push(Gap::file(path, reason.clone()));
                changed.push(reason);
            }
        }
        // What the listing does not list (past its depth bound, a name that
        // is not UTF-8) is not read, and its object's id changes with
        // anything in it: a change there is a gap, never dropped (issue 46,
        // items 3 and 4).
        for entry in own_unlisted {
            let (path, why) = (&entry.path, &entry.why);
            if other_unlisted.contains(entry) {
                side.limits
                    .push(format!("Omitted source surface: {path} {why} (unchanged)"));
            } else {
                let reason =
                    format!("Omitted source surface: {path} {why}, and the change touches it");
                side.gaps.push(Gap::file(path, reason.clone()));
                changed.push(reason);
            }
        }
    }
    changed.sort();
    changed.dedup();
    changed
}

/// A base file and the head file it became (`source_correspondence`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRename {
    /// Scope-relative on its side.
    pub base: String,
    pub head: String,
    /// `None` for an identical blob (`git diff -M100%`); else git's
    /// similarity in percent (`crate::renames`), 50 or more.
    pub similarity: Option<u8>,
}

/// The renames between two sides' files: identical blobs first (`git diff
/// -M100%`: a base path gone from the head whose blob is a head path new to
/// it, each blob pairing once), then the files left over paired as git's
/// rename detection pairs them (`crate::renames`), their bytes read through
/// `read` (a blob id to its bytes; `None` leaves the file unpaired). Paths
/// are compared as the repository spells them (a moved scope renames every
/// file in it) and given scope-relative, sorted by base path.
pub fn file_renames<'a>(
    base: &'a SideGraph,
    head: &'a SideGraph,
    base_scope: &str,
    head_scope: &str,
    read: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
) -> Vec<FileRename> {
    use crate::paths::rooted;
    use std::borrow::Cow;
    use std::collections::{BTreeMap, BTreeSet};
    // A path as the repository spells it. Rooting in one scope is
    // one-to-one, so two sides of the same scope compare their
    // scope-relative paths as they are, without a copy of each.
    let same_scope = base_scope == head_scope;
    let spelled = |scope: &str, path: &'a str| -> Cow<'a, str> {
        if same_scope {
            Cow::Borrowed(path)
        } else {
            Cow::Owned(rooted(scope, path))
        }
    };
    let base_paths: BTreeSet<Cow<str>> = base
        .files
        .iter()
        .map(|(p, _)| spelled(base_scope, p))
        .collect();
    let head_paths: BTreeSet<Cow<str>> = head
        .files
        .iter()
        .map(|(p, _)| spelled(head_scope, p))
        .collect();
    // Head files new to the base, by blob, in path order.
    let mut added: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (path, blob) in &head.files {
        if !base_paths.contains(spelled(head_scope, path).as_ref()) {
            added.entry(blob.as_str()).or_default().push(path.as_str());
        }
    }
    let mut renames = Vec::new();
    let mut base_left = Vec::new();
    for (path, blob) in &base.files {
        if head_paths.contains(spelled(base_scope, path).as_ref()) {
            continue;
        }
        match added.get_mut(blob.as_str()) {
            Some(targets) if !targets.is_empty() => renames.push(FileRename {
                base: path.clone(),
                head: targets.remove(0).to_string(),
                similarity: None,
            }),
            _ => base_left.push((path.clone(), blob.clone())),
        }
    }
    let mut head_left: Vec<(String, String)> = added
        .into_iter()
        .flat_map(|(blob, paths)| {
            paths
                .into_iter()
                .map(move |p| (p.to_string(), blob.to_string()))
        })
        .collect();
    head_left.sort();
    let similar = crate::renames::similar_moves(base_left, head_left, read);
    renames.extend(similar.into_iter().map(|pair| FileRename {
        base: pair.base,
        head: pair.head,
        similarity: Some(pair.similarity),
    }));
    renames.sort_by(|a, b| a.base.cmp(&b.base));
    renames
}
