//! Finding files by path anywhere in a commit's tree: the host sources
//! (issue 42), some of which may sit at any depth (`**/.mcp.json`). The
//! walk is iterative and bounded (depth, entries), skips the directories
//! no repository owns (`SKIPPED_DIRECTORIES`), and never follows a
//! symbolic link: a wanted path that is one is reported as such.

use super::listing::{tree_entries, MAX_TREE_DEPTH, SKIPPED_DIRECTORIES};
use super::Repository;
use crate::error::DiffError;
use gix::objs::tree::EntryKind;
use gix::ObjectId;

/// The most tree entries one walk visits; past it the walk stops and says
/// so (a tree of millions of entries is not a repository's configuration).
pub const MAX_WALK_ENTRIES: usize = 4_000_000;

/// What a walk found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FoundFiles {
    /// Wanted blobs, by repository path, sorted.
    pub files: Vec<(String, ObjectId)>,
    /// Wanted paths that are symbolic links (not followed).
    pub links: Vec<String>,
    /// The walk stopped at its bound (depth or entries) somewhere.
    pub cut_short: bool,
}

impl Repository {
    /// Every blob of `root_tree` whose repository path `wanted` accepts.
    pub fn find_files(
        &self,
        root_tree: ObjectId,
        wanted: &dyn Fn(&str) -> bool,
    ) -> Result<FoundFiles, DiffError> {
        let repo = self.local();
        let mut found = FoundFiles::default();
        let mut pending = vec![(root_tree, String::new(), 0usize)];
        let mut visited = 0usize;
        while let Some((tree, prefix, depth)) = pending.pop() {
            crate::work::checkpoint()?;
            for entry in tree_entries(&repo, tree)? {
                visited += 1;
                if visited > MAX_WALK_ENTRIES {
                    found.cut_short = true;
                    pending.clear();
                    break;
                }
                if !entry.utf8 {
                    continue;
                }
                let path = if prefix.is_empty() {
                    entry.name.clone()
                } else {
                    format!("{prefix}/{}", entry.name)
                };
                match entry.kind {
                    EntryKind::Tree => {
                        if SKIPPED_DIRECTORIES.contains(&entry.name.as_str()) {
                            continue;
                        }
                        if depth + 1 >= MAX_TREE_DEPTH {
                            found.cut_short = true;
                            continue;
                        }
                        pending.push((entry.id, path, depth + 1));
                    }
                    EntryKind::Blob | EntryKind::BlobExecutable if wanted(&path) => {
                        found.files.push((path, entry.id));
                    }
                    EntryKind::Link if wanted(&path) => found.links.push(path),
                    _ => {}
                }
            }
        }
        found.files.sort();
        found.links.sort();
        Ok(found)
    }
}
