//! What one side's graph is built from, read from the tree before any
//! module is parsed, and the key the graph is cached under.
//!
//! A graph is a function of its `SideInput` alone (`graph::build_side`),
//! and the input is a function of the scope's listing (paths and blob
//! ids), the scope's surroundings in the tree, the links' targets and the
//! bounds. So a graph is keyed by a digest of exactly those, never by the
//! commit's root tree: a commit that leaves the scope's Python, links and
//! surroundings as they were (a change to documentation, CI, another
//! application of a monorepo) has its parent's graph, without listing a
//! module's facts (issue 23: history over thousands of commits). The root
//! tree's key names the content key (an alias), so a warm request reads
//! two small entries and lists nothing.

use super::*;
use crate::git::PythonFile;
use serde::Serialize;

/// One side as its tree lists it: everything its graph is built from but
/// the modules' facts, which are named by blob.
pub(super) struct SidePlan {
    /// The input with every field set but `files`, `test_files` and the
    /// context's `ancestor_inits`.
    input: SideInput,
    files: Vec<PythonFile>,
    tests: Vec<PythonFile>,
    /// `(rooted path, blob)` of the packages' `__init__.py` above the scope.
    inits: Vec<(String, ObjectId)>,
}

/// The keys a built graph is stored under.
pub(super) struct GraphKeys {
    /// By root tree, scope and bound: holds the content key.
    pub tree: blake3::Hash,
    /// By what the graph is built from: holds the graph.
    pub content: blake3::Hash,
}

/// What the content key is a digest of, in one encoding.
#[derive(Serialize)]
struct ContentView<'a> {
    facts_version: u32,
    max_files: u32,
    scope: &'a str,
    absent: bool,
    spellings: &'a [String],
    outside_modules: &'a std::collections::BTreeSet<String>,
    inits: Vec<(&'a str, &'a [u8])>,
    files: Vec<(&'a str, &'a [u8])>,
    tests: Vec<(&'a str, &'a [u8])>,
    linked: &'a [String],
    gaps: &'a [Gap],
    limits: &'a [String],
    excluded_tests: &'a [String],
    files_listed: &'a [(String, String)],
    gitlinks: &'a [(String, String)],
    unlisted: &'a [crate::graph::UnlistedInput],
    dangling_links: &'a [String],
}

/// Each file as `(path, blob id)`.
fn named(files: &[PythonFile]) -> Vec<(&str, &[u8])> {
    files
        .iter()
        .map(|f| (f.path.as_str(), f.blob.as_bytes()))
        .collect()
}

impl SidePlan {
    /// The digest of everything the graph is built from.
    pub(super) fn content_key(&self, max_files: u32) -> blake3::Hash {
        let input = &self.input;
        let view = ContentView {
            facts_version: crate::ENGINE_FACTS_VERSION,
            max_files,
            scope: &input.scope,
            absent: input.absent,
            spellings: &input.context.spellings,
            outside_modules: &input.context.outside_modules,
            inits: self
                .inits
                .iter()
                .map(|(path, blob)| (path.as_str(), blob.as_bytes()))
                .collect(),
            files: named(&self.files),
            tests: named(&self.tests),
            linked: &input.linked,
            gaps: &input.gaps,
            limits: &input.limits,
            excluded_tests: &input.excluded_tests,
            files_listed: &input.files_listed,
            gitlinks: &input.gitlinks,
            unlisted: &input.unlisted,
            dangling_links: &input.dangling_links,
        };
        let mut hasher = blake3::Hasher::new();
        hasher.update(b"side-graph-content");
        // Encoding plain strings, bytes and lists into a vector cannot
        // fail; were it to, the key would still be a function of the view.
        match postcard::to_stdvec(&view) {
            Ok(bytes) => hasher.update(&bytes),
            Err(err) => hasher.update(format!("{err}").as_bytes()),
        };
        hasher.finalize()
    }
}

impl Engine {
    /// One side of a scope as its tree lists it, nothing parsed.
    pub(super) fn side_plan(
        &self,
        repo: &Repository,
        root_tree: ObjectId,
        scope: &str,
        max_files: u32,
    ) -> Result<SidePlan, DiffError> {
        let _list = crate::timings::phase!("list").entered();
        let unread = |input: SideInput| SidePlan {
            input,
            files: Vec::new(),
            tests: Vec::new(),
            inits: Vec::new(),
        };
        let scope_tree = match repo.lookup_scope(root_tree, scope)? {
            ScopeLookup::Directory(tree) => tree,
            ScopeLookup::Absent => {
                return Ok(unread(SideInput {
                    scope: scope.to_string(),
                    absent: true,
                    limits: vec![format!(
                        "Scope {} is absent in this tree. If the application moved, select its old path with --base-scope and new path with --scope.",
                        str_repr(scope)
                    )],
                    ..SideInput::default()
                }))
            }
            ScopeLookup::NotADirectory => {
                return Err(DiffError::config(
                    Reason::ScopeNotADirectory,
                    format!("Application scope is not a regular directory: {scope}"),
                )
                .about(field::SCOPE, scope))
            }
        };
        let listing = repo.list_python(scope_tree)?;
        let (context, inits) = scope_context_of(repo, root_tree, scope)?;
        let mut input = SideInput {
            scope: scope.to_string(),
            context,
            linked: listing.linked_python.clone(),
            // Spelled relative to the compared scope, as discovery matches
            // them (the reference does the same).
            excluded_tests: listing.tests.clone(),
            files_listed: listing
                .python
                .iter()
                .map(|f| (f.path.clone(), f.blob.to_string()))
                .collect(),
            gitlinks: listing
                .gitlinks
                .iter()
                .map(|g| (g.path.clone(), g.commit.to_string()))
                .collect(),
            ..SideInput::default()
        };
        self.census_links(repo, root_tree, scope, &listing, &mut input)?;
        // Named when the two sides are compared (`apply_submodules`): a
        // limit, and a gap where the other side's tree differs.
        input.unlisted = listing
            .unlisted
            .iter()
            .map(|entry| crate::graph::UnlistedInput {
                path: entry.path.clone(),
                id: entry.id.to_string(),
                why: entry.why.clause().to_string(),
            })
            .collect();
        let limit = usize::try_from(max_files).unwrap_or(usize::MAX);
        if listing.python.len() > limit {
            input.gaps.push(Gap::scope_wide(format!(
                "Python discovery truncated at {max_files} files."
            )));
            input.gaps.push(Gap::scope_wide(format!(
                "Python input census exceeds {max_files} files."
            )));
            return Ok(SidePlan {
                inits,
                ..unread(input)
            });
        }
        for file in &listing.python {
            if repo.blob_size(file.blob)? > MAX_PYTHON_BYTES {
                input.gaps.push(Gap::scope_wide(format!(
                    "Python input exceeds {MAX_PYTHON_BYTES} bytes: {}",
                    file.path
                )));
                return Ok(SidePlan {
                    inits,
                    ..unread(input)
                });
            }
        }
        // Test-like modules are read for the import resolver only, and
        // only while the whole census stays within the bound (past it an
        // import of one stays the named limit it is without them).
        let read_tests = listing.python.len() + listing.imported_only.len() <= limit
            && listing
                .imported_only
                .iter()
                .map(|f| repo.blob_size(f.blob))
                .collect::<Result<Vec<u64>, DiffError>>()?
                .iter()
                .all(|size| *size <= MAX_PYTHON_BYTES);
        let tests = if read_tests {
            listing.imported_only
        } else {
            Vec::new()
        };
        Ok(SidePlan {
            input,
            files: listing.python,
            tests,
            inits,
        })
    }

    /// The plan's input with every module's facts (from the cache, else
    /// parsed) but the test-like modules', which are listed unread (read
    /// when a build asks for one: `Engine::read_and_build`), with those
    /// modules' files.
    pub(super) fn side_input_of(
        &self,
        repo: &Repository,
        plan: SidePlan,
    ) -> Result<(SideInput, Vec<PythonFile>), DiffError> {
        let SidePlan {
            mut input,
            files,
            tests,
            inits,
        } = plan;
        let init_blobs: Vec<ObjectId> = inits.iter().map(|(_, blob)| *blob).collect();
        let init_facts = self.facts_for(repo, &init_blobs)?;
        input.context.ancestor_inits = inits
            .into_iter()
            .map(|(path, _)| path)
            .zip(init_facts)
            .collect();
        let blobs: Vec<ObjectId> = files.iter().map(|f| f.blob).collect();
        let facts = self.facts_for(repo, &blobs)?;
        input.files = files
            .into_iter()
            .zip(facts)
            .map(|(file, facts)| SourceFile {
                path: file.path,
                facts,
            })
            .collect();
        input.unread_tests = tests.iter().map(|f| f.path.clone()).collect();
        Ok((input, tests))
    }

    /// What each link under the scope can hide (spec: "Links and
    /// submodules"): a `.py` link to a file the scope reads is compared at
    /// that file; any other `.py` link is a gap; a link to a directory
    /// outside the scope holding Python is a gap; a link resolving to
    /// nothing in the tree is recorded, a gap only where the other side
    /// reads source beneath it; anything else changes nothing.
    fn census_links(
        &self,
        repo: &Repository,
        root_tree: ObjectId,
        scope: &str,
        listing: &crate::git::Listing,
        input: &mut SideInput,
    ) -> Result<(), DiffError> {
        use crate::git::PathEntry;
        let read: std::collections::BTreeSet<String> = listing
            .python
            .iter()
            .map(|f| rooted(scope, &f.path))
            .collect();
        for link in &listing.links {
            let target_text = String::from_utf8_lossy(&repo.read_blob(link.blob)?).into_owned();
            let rooted_link = rooted(scope, &link.path);
            let target = resolve_link(&rooted_link, &target_text);
            let entry = match &target {
                Some(target) => repo.entry_at(root_tree, target)?,
                None => None,
            };
            let is_python = link.path.ends_with(".py");
            match (entry, target) {
                (Some(PathEntry::Blob(_)), Some(target)) if is_python => {
                    if !read.contains(&target) {
                        input.gaps.push(Gap::file(
                            &link.path,
                            format!("Linked Python input: {}", link.path),
                        ));
                    }
                }
                (Some(PathEntry::Blob(_)), _) => {}
                (Some(PathEntry::Tree(tree)), Some(target)) => {
                    let inside = scope == "." || crate::paths::is_at_or_under(&target, scope);
                    if !inside && !repo.list_python(tree)?.python.is_empty() {
                        input.gaps.push(Gap::file(
                            &link.path,
                            format!(
                                "Linked directory holds Python outside the scope: {}",
                                link.path
                            ),
                        ));
                    }
                }
                _ if is_python => input.gaps.push(Gap::file(
                    &link.path,
                    format!("Linked Python input: {}", link.path),
                )),
                _ => input.dangling_links.push(link.path.clone()),
            }
        }
        Ok(())
    }
}
