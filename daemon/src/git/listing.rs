//! Listing the Python sources of one scope of one commit's tree.

use super::Repository;
use crate::error::{DiffError, Reason};
use gix::objs::tree::EntryKind;
use gix::ObjectId;

/// Directories never read as application source (environments, builds,
/// vendored packages): reading them would compare code the repository does
/// not own.
pub(super) const SKIPPED_DIRECTORIES: &[&str] = &[
    ".git",
    "__pycache__",
    "node_modules",
    "venv",
    "env",
    "site-packages",
    ".tox",
    ".nox",
    ".mypy_cache",
    ".pytest_cache",
];

/// Directories discovery skips as the application but whose modules the
/// application may still import (spec: "A module under a directory
/// discovery skips (build/, fixtures/) is related like any other, never an
/// agent file"): listed as imported-only, like test-like files. The
/// environments above are not listed at all (thousands of third-party
/// modules).
const IMPORTED_ONLY_DIRECTORIES: &[&str] = &[
    "build",
    "dist",
    "fixtures",
    "target",
    "test_data",
    "testdata",
];

/// How deep a tree is walked; deeper directories are not Python packages
/// anyone imports, and the bound keeps a hostile tree from exhausting us.
pub const MAX_TREE_DEPTH: usize = 64;

/// One `.py` blob under the scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PythonFile {
    /// Scope-relative POSIX path.
    pub path: String,
    pub blob: ObjectId,
}

/// A submodule entry under the scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitLink {
    pub path: String,
    pub commit: ObjectId,
}

/// Everything under a scope that matters to the Python readers.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Application sources, sorted by path.
    pub python: Vec<PythonFile>,
    /// Test-like files, never read as the application.
    pub tests: Vec<String>,
    /// Modules never read as the application but followed when it imports
    /// one (a change to one is still a change): the test-like files, with
    /// their blobs, and the modules under `IMPORTED_ONLY_DIRECTORIES`.
    pub imported_only: Vec<PythonFile>,
    /// Symbolic links named `*.py` (scope-relative): not followed.
    pub linked_python: Vec<String>,
    /// Every symbolic link under the scope, any name, with the blob that
    /// holds its target: what each can hide is decided from its target.
    pub links: Vec<PythonFile>,
    pub gitlinks: Vec<GitLink>,
    /// Entries the walk does not list, with why: named wherever a change
    /// could be inside one (an object's id changes with anything in it).
    pub unlisted: Vec<Unlisted>,
}

impl Listing {
    /// Adds what `other` lists (a subtree's listing).
    fn extend_with(&mut self, other: &Listing) {
        self.python.extend(other.python.iter().cloned());
        self.tests.extend(other.tests.iter().cloned());
        self.imported_only
            .extend(other.imported_only.iter().cloned());
        self.linked_python
            .extend(other.linked_python.iter().cloned());
        self.links.extend(other.links.iter().cloned());
        self.gitlinks.extend(other.gitlinks.iter().cloned());
        self.unlisted.extend(other.unlisted.iter().cloned());
    }
}

/// A tree or Python file the walk does not list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unlisted {
    /// Scope-relative POSIX path, its names escaped (`escaped_name`).
    pub path: String,
    pub id: ObjectId,
    pub why: UnlistedWhy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnlistedWhy {
    /// A tree at or past the walk's depth bound.
    TooDeep,
    /// A tree or `.py` file whose name is not UTF-8: read under a lossy
    /// name, two such files could be one path (issue 46, item 4).
    NameNotUtf8,
}

impl UnlistedWhy {
    /// The clause a limit says it with, after the path.
    pub fn clause(self) -> &'static str {
        match self {
            UnlistedWhy::TooDeep => "is nested too deep to list",
            UnlistedWhy::NameNotUtf8 => "has a name that is not UTF-8, which is not read",
        }
    }
}

/// What a path names in a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathEntry {
    Blob(ObjectId),
    Tree(ObjectId),
    Link,
    Submodule,
}

/// What a scope path names in a commit's tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScopeLookup {
    Directory(ObjectId),
    Absent,
    /// A file, a symbolic link or a submodule: not a directory to read.
    NotADirectory,
}

impl Repository {
    /// Finds the scope directory (`.` = the root) in a root tree.
    pub fn lookup_scope(&self, root_tree: ObjectId, scope: &str) -> Result<ScopeLookup, DiffError> {
        if scope == "." || scope.is_empty() {
            return Ok(ScopeLookup::Directory(root_tree));
        }
        let repo = self.local();
        let tree = repo.find_tree(root_tree).map_err(|err| {
            DiffError::objects_missing(format!(
                "Tree {} could not be read (objects_missing): {err}.",
                root_tree.to_hex_with_len(12)
            ))
        })?;
        let entry = tree.lookup_entry_by_path(raw_path(scope)).map_err(|err| {
            DiffError::config(
                Reason::TreeUnreadable,
                format!("The tree of the scope {scope} could not be read: {err}"),
            )
        })?;
        Ok(match entry {
            None => ScopeLookup::Absent,
            Some(entry) if entry.mode().is_tree() => ScopeLookup::Directory(entry.object_id()),
            Some(_) => ScopeLookup::NotADirectory,
        })
    }

    /// Lists the Python files under a tree, recursively, sorted by path.
    pub fn list_python(&self, scope_tree: ObjectId) -> Result<Listing, DiffError> {
        let repo = self.local();
        let mut listing = Listing::clone(&*self.list_under(&repo, scope_tree, "", 0, false)?);
        listing.python.sort_by(|a, b| a.path.cmp(&b.path));
        listing.tests.sort();
        listing.imported_only.sort_by(|a, b| a.path.cmp(&b.path));
        listing.linked_python.sort();
        listing.links.sort_by(|a, b| a.path.cmp(&b.path));
        listing.gitlinks.sort_by(|a, b| a.path.cmp(&b.path));
        listing.unlisted.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(listing)
    }

    /// What the tree `tree_id` at `prefix` holds (`depth` levels under the
    /// scope, `imported_only` when under an imported-only directory), in
    /// no order: kept by tree and path (`kept.rs`; what it lists is a
    /// function of the tree's content and its path, which decides the
    /// depth, test-like names and imported-only directories), so a
    /// history walk's next commit reads only the trees that changed. The
    /// recursion is bounded by `MAX_TREE_DEPTH`.
    fn list_under(
        &self,
        repo: &gix::Repository,
        tree_id: ObjectId,
        prefix: &str,
        depth: usize,
        imported_only: bool,
    ) -> Result<std::sync::Arc<Listing>, DiffError> {
        if let Some(kept) = self.kept.listing(tree_id, prefix) {
            return Ok(kept);
        }
        let mut listing = Listing::default();
        for entry in tree_entries(repo, tree_id)? {
            let name = entry.name;
            let path = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            let listed_kind = matches!(entry.kind, EntryKind::Tree)
                || name.ends_with(".py") && !matches!(entry.kind, EntryKind::Commit);
            if !entry.utf8 && listed_kind {
                listing.unlisted.push(Unlisted {
                    path,
                    id: entry.id,
                    why: UnlistedWhy::NameNotUtf8,
                });
                continue;
            }
            match entry.kind {
                EntryKind::Tree => {
                    if SKIPPED_DIRECTORIES.contains(&name.as_str()) || name.starts_with(".venv") {
                        continue;
                    }
                    let under_skipped =
                        imported_only || IMPORTED_ONLY_DIRECTORIES.contains(&name.as_str());
                    if depth + 1 >= MAX_TREE_DEPTH {
                        listing.unlisted.push(Unlisted {
                            path,
                            id: entry.id,
                            why: UnlistedWhy::TooDeep,
                        });
                    } else {
                        let under =
                            self.list_under(repo, entry.id, &path, depth + 1, under_skipped)?;
                        listing.extend_with(&under);
                    }
                }
                EntryKind::Blob | EntryKind::BlobExecutable if name.ends_with(".py") => {
                    if crate::paths::is_test_path(&path) {
                        listing.tests.push(path.clone());
                        listing.imported_only.push(PythonFile {
                            path,
                            blob: entry.id,
                        });
                    } else if imported_only {
                        listing.imported_only.push(PythonFile {
                            path,
                            blob: entry.id,
                        });
                    } else {
                        listing.python.push(PythonFile {
                            path,
                            blob: entry.id,
                        });
                    }
                }
                EntryKind::Link => {
                    if name.ends_with(".py") {
                        listing.linked_python.push(path.clone());
                    }
                    listing.links.push(PythonFile {
                        path,
                        blob: entry.id,
                    });
                }
                EntryKind::Commit => listing.gitlinks.push(GitLink {
                    path,
                    commit: entry.id,
                }),
                _ => {}
            }
        }
        Ok(self.kept.keep_listing(tree_id, prefix, listing))
    }

    /// What a repository path names in a commit's tree, if anything.
    pub fn entry_at(
        &self,
        root_tree: ObjectId,
        path: &str,
    ) -> Result<Option<PathEntry>, DiffError> {
        let repo = self.local();
        let tree = repo.find_tree(root_tree).map_err(|err| {
            DiffError::objects_missing(format!(
                "Tree {} could not be read (objects_missing): {err}.",
                root_tree.to_hex_with_len(12)
            ))
        })?;
        let entry = tree.lookup_entry_by_path(raw_path(path)).map_err(|err| {
            DiffError::config(
                Reason::TreeUnreadable,
                format!("The tree at {path} could not be read: {err}"),
            )
        })?;
        Ok(entry.map(|entry| {
            let mode = entry.mode();
            let id = entry.object_id();
            if mode.is_tree() {
                PathEntry::Tree(id)
            } else if mode.is_link() {
                PathEntry::Link
            } else if mode.is_commit() {
                PathEntry::Submodule
            } else {
                PathEntry::Blob(id)
            }
        }))
    }

    /// The size of a blob without inflating it (kept by id: `kept.rs`).
    pub fn blob_size(&self, blob: ObjectId) -> Result<u64, DiffError> {
        if let Some(size) = self.kept.size(blob) {
            return Ok(size);
        }
        let repo = self.local();
        let header = repo.find_header(blob).map_err(|err| {
            DiffError::objects_missing(format!(
                "Blob {} could not be read (objects_missing): {err}. Hydrate the repository's objects, then rerun.",
                blob.to_hex_with_len(12)
            ))
        })?;
        self.kept.keep_size(blob, header.size());
        Ok(header.size())
    }
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    pub is_tree: bool,
    pub is_blob: bool,
    pub id: ObjectId,
}

impl Repository {
    /// The entries directly under `dir` (`""` = the root) of a root tree;
    /// empty when `dir` is not a directory there.
    pub fn list_dir(&self, root_tree: ObjectId, dir: &str) -> Result<Vec<DirEntry>, DiffError> {
        let tree_id = match self.lookup_scope(root_tree, if dir.is_empty() { "." } else { dir })? {
            ScopeLookup::Directory(id) => id,
            _ => return Ok(Vec::new()),
        };
        Ok(tree_entries(&self.local(), tree_id)?
            .into_iter()
            .map(|entry| DirEntry {
                is_tree: entry.kind == EntryKind::Tree,
                is_blob: matches!(entry.kind, EntryKind::Blob | EntryKind::BlobExecutable),
                name: entry.name,
                id: entry.id,
            })
            .collect())
    }
}

/// One decoded tree entry, owned.
pub(super) struct TreeEntry {
    /// The name as `escaped_name` spells it.
    pub(super) name: String,
    /// Whether the name's bytes are UTF-8 (then `name` is them).
    pub(super) utf8: bool,
    pub(super) kind: EntryKind,
    pub(super) id: ObjectId,
}

/// A tree entry's name as a string, and whether its bytes are UTF-8: a
/// UTF-8 name is itself, each backslash doubled; in any other name each
/// byte that is not part of valid UTF-8 is `\xHH` too. No two names spell
/// the same (a lossy U+FFFD made bytes `ff` and `fe` before `.py` one
/// path; without the doubling, a UTF-8 name spelled `\xff.py` would be
/// the escape of the byte `ff`).
pub fn escaped_name(bytes: &[u8]) -> (String, bool) {
    if let Ok(name) = std::str::from_utf8(bytes) {
        return (name.replace('\\', "\\\\"), true);
    }
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(&chunk.valid().replace('\\', "\\\\"));
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    (out, false)
}

/// A path as the listing spells it (`escaped_name`) back to its bytes, for
/// a lookup in a tree: `\\` is a backslash, `\xHH` the byte; anything
/// else is itself.
fn raw_path(spelled: &str) -> std::path::PathBuf {
    use std::os::unix::ffi::OsStrExt;
    let bytes = spelled.as_bytes();
    let mut raw = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        let escape = (byte == b'\\').then(|| bytes.get(index + 1)).flatten();
        match escape {
            Some(b'\\') => {
                raw.push(b'\\');
                index += 2;
            }
            Some(b'x') => {
                let hex = bytes
                    .get(index + 2..index + 4)
                    .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
                match hex {
                    Some(value) => {
                        raw.push(value);
                        index += 4;
                    }
                    None => {
                        raw.push(byte);
                        index += 1;
                    }
                }
            }
            _ => {
                raw.push(byte);
                index += 1;
            }
        }
    }
    std::path::PathBuf::from(std::ffi::OsStr::from_bytes(&raw))
}

/// Reads and decodes one tree; a missing tree is `objects_missing`, a
/// malformed one a clear error, never a panic.
pub(super) fn tree_entries(
    repo: &gix::Repository,
    tree_id: ObjectId,
) -> Result<Vec<TreeEntry>, DiffError> {
    let tree = repo.find_tree(tree_id).map_err(|err| {
        DiffError::objects_missing(format!(
            "Tree {} could not be read (objects_missing): {err}. Hydrate the repository's objects, then rerun.",
            tree_id.to_hex_with_len(12)
        ))
    })?;
    let decoded = tree.decode().map_err(|err| {
        DiffError::config(
            Reason::TreeUnreadable,
            format!("Tree {} is malformed: {err}", tree_id.to_hex_with_len(12)),
        )
    })?;
    Ok(decoded
        .entries
        .iter()
        .map(|entry| {
            let (name, utf8) = escaped_name(entry.filename.as_ref());
            TreeEntry {
                name,
                utf8,
                kind: entry.mode.kind(),
                id: entry.oid.to_owned(),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::escaped_name;

    #[test]
    fn names_are_escaped_only_when_not_utf8_and_then_losslessly() {
        assert_eq!(escaped_name(b"agent.py"), ("agent.py".to_string(), true));
        // A UTF-8 name's backslash is doubled: `\xff.py` spelled in
        // UTF-8 is not the escape of the byte `ff`.
        assert_eq!(escaped_name(b"\\xff.py"), ("\\\\xff.py".to_string(), true));
        assert_eq!(escaped_name(b"\xff.py"), ("\\xff.py".to_string(), false));
        // The backslash of a name that is not UTF-8 is doubled, so no
        // two such names spell the same.
        assert_eq!(
            escaped_name(b"\\xff\xfe.py"),
            ("\\\\xff\\xfe.py".to_string(), false)
        );
        assert_ne!(escaped_name(b"\xff.py").0, escaped_name(b"\xfe.py").0);
        // A lookup reads the spelling back to the bytes.
        for name in [&b"\\xff.py"[..], b"\xff.py", b"a\\b\xfe", b"plain"] {
            use std::os::unix::ffi::OsStrExt;
            let spelled = escaped_name(name).0;
            assert_eq!(super::raw_path(&spelled).as_os_str().as_bytes(), name);
        }
    }
}
