//! The scope's modules by scope-relative path, with the directories that
//! hold them, the linked entries never read, the modules only imports
//! reach (test-like files), and what the repository holds around the
//! scope.

use super::layout::{Kept, KeptMap, LayoutId, PerLayout, Reads};
use super::ScopeContext;
use crate::python::ModuleFacts;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// What each import spelling found, by importing directory, level and
/// spelling (`Resolver::locate_from`).
pub(super) type Found = Mutex<HashMap<String, Result<super::ModuleLoc, super::locate::Unlocated>>>;

/// Locations found, kept per layout across sides (`layout.rs`).
static FOUND: PerLayout<Found> = PerLayout::new();

/// Modules the interpreter loads before any application code: a
/// repository file of the same name never shadows them.
const PRELOADED: &[&str] = &[
    "abc",
    "builtins",
    "codecs",
    "encodings",
    "genericpath",
    "io",
    "os",
    "posixpath",
    "site",
    "stat",
    "sys",
];

/// The scope's modules, by scope-relative path.
pub struct ModuleSet<'a> {
    pub(super) modules: BTreeMap<&'a str, &'a ModuleFacts>,
    /// Every directory holding a module, at any depth: a namespace
    /// package is found without scanning every path.
    pub(super) dirs: BTreeSet<&'a str>,
    /// Linked `.py` entries: present, never read.
    pub(super) linked: BTreeSet<&'a str>,
    /// Modules the resolver follows an import into but no scan of the
    /// scope reads (test-like files: spec, "the import resolver still
    /// follows a tool the application imports from such a file").
    imported_only: BTreeSet<&'a str>,
    /// Imported-only modules listed but not read (yet): present to every
    /// question about paths, their facts not held. Asking for the facts
    /// of one (`facts`, `key`) records it in `wanted`, and the build that
    /// asked is built again with it read (`graph::try_build_side`).
    unread: BTreeSet<&'a str>,
    wanted: std::sync::Mutex<BTreeSet<String>>,
    pub(super) context: &'a ScopeContext,
    /// The digest of what locating a module depends on (`layout.rs`),
    /// computed on first use.
    layout: OnceLock<LayoutId>,
    /// What each import spelling found (`Resolver::locate_from`): a
    /// function of the layout alone, asked again for every import of
    /// every module by each caller search (issue 23), so read once, and
    /// shared with every set of the same layout (a history walk's next
    /// commit).
    found: OnceLock<Arc<Found>>,
    /// Every import of the application by the files it names, read on
    /// first use (`import_edges`).
    edges: OnceLock<super::ImportEdges>,
    /// The paths each open recorded read has asked for (`recorded`),
    /// innermost last; `recording` counts them, so an unrecorded read
    /// asks no lock.
    recording: AtomicUsize,
    frames: Mutex<Vec<Vec<String>>>,
}

impl<'a> ModuleSet<'a> {
    pub fn new(
        modules: impl IntoIterator<Item = (&'a str, &'a ModuleFacts)>,
        linked: impl IntoIterator<Item = &'a str>,
        context: &'a ScopeContext,
    ) -> Self {
        let modules: BTreeMap<&'a str, &'a ModuleFacts> = modules.into_iter().collect();
        let mut dirs = BTreeSet::new();
        for path in modules.keys() {
            let mut rest = *path;
            while let Some((dir, _)) = rest.rsplit_once('/') {
                if !dirs.insert(dir) {
                    break;
                }
                rest = dir;
            }
        }
        ModuleSet {
            modules,
            dirs,
            linked: linked.into_iter().collect(),
            imported_only: BTreeSet::new(),
            unread: BTreeSet::new(),
            wanted: Default::default(),
            context,
            layout: OnceLock::new(),
            found: OnceLock::new(),
            edges: OnceLock::new(),
            recording: AtomicUsize::new(0),
            frames: Mutex::new(Vec::new()),
        }
    }

    /// Whether an absolute module name is the repository's own code held
    /// outside the scope.
    pub fn is_outside_repository_module(&self, dotted: &str) -> bool {
        let first = dotted.split('.').next().unwrap_or(dotted);
        self.context.outside_modules.contains(first) && !PRELOADED.contains(&first)
    }

    /// The packages above the scope, which run first.
    pub fn ancestor_inits(&self) -> &'a [(String, std::sync::Arc<ModuleFacts>)] {
        &self.context.ancestor_inits
    }

    /// Adds modules that imports reach but that are not the application:
    /// `facts`, `key` and the resolver see them, `paths` (every scan of
    /// the scope: callers, uses, namespace changes) does not. A module of
    /// the application with the same path wins.
    pub fn with_imported_only(
        mut self,
        modules: impl IntoIterator<Item = (&'a str, &'a ModuleFacts)>,
    ) -> Self {
        self.forget_lookups();
        for (path, facts) in modules {
            if self.modules.contains_key(path) {
                continue;
            }
            self.modules.insert(path, facts);
            self.imported_only.insert(path);
            self.unread.remove(path);
            self.add_dirs_of(path);
        }
        self
    }

    /// Adds imported-only modules by path alone, their facts not read:
    /// see `unread`. A module with facts in the set wins.
    pub fn with_unread(mut self, paths: impl IntoIterator<Item = &'a str>) -> Self {
        self.forget_lookups();
        for path in paths {
            if self.modules.contains_key(path) {
                continue;
            }
            self.unread.insert(path);
            self.add_dirs_of(path);
        }
        self
    }

    /// More modules: another layout, where an import may find another
    /// module.
    fn forget_lookups(&mut self) {
        self.layout = OnceLock::new();
        self.found = OnceLock::new();
        self.edges = OnceLock::new();
    }

    /// The set's layout: its paths (read, imported-only or unread), its
    /// links and its scope's spellings (`layout.rs`).
    pub fn layout(&self) -> LayoutId {
        *self.layout.get_or_init(|| {
            let mut paths: Vec<&str> = self
                .modules
                .keys()
                .chain(self.unread.iter())
                .copied()
                .collect();
            paths.sort_unstable();
            paths.dedup();
            LayoutId::of(
                paths.into_iter(),
                self.linked.iter().copied(),
                &self.context.spellings,
                self.context.outside_modules.iter().map(String::as_str),
            )
        })
    }

    /// What import spellings found in this set's layout, shared with every
    /// set of the same layout.
    pub(super) fn found(&self) -> &Found {
        self.found.get_or_init(|| FOUND.of(self.layout()))
    }

    /// Runs `read`, noting every path whose facts it asks for; with its
    /// answer, those paths and their content identities (`layout.rs`),
    /// or `None` for the reads when it asked for facts the graph layer
    /// rewrote (no identity: the answer is not to be kept).
    pub fn recorded<T>(&self, read: impl FnOnce() -> T) -> (T, Option<Reads>) {
        self.lock_frames().push(Vec::new());
        self.recording.fetch_add(1, Ordering::SeqCst);
        let value = read();
        self.recording.fetch_sub(1, Ordering::SeqCst);
        let mut asked = {
            let mut frames = self.lock_frames();
            let asked = frames.pop().unwrap_or_default();
            // An enclosing recorded read asked for them too.
            if let Some(outer) = frames.last_mut() {
                outer.extend(asked.iter().cloned());
            }
            asked
        };
        asked.sort_unstable();
        asked.dedup();
        let mut reads = Reads::default();
        for path in asked {
            let identity = match self.modules.get(path.as_str()) {
                Some(facts) => match facts.content_identity() {
                    Some(identity) => Some(identity.to_string()),
                    None => return (value, None),
                },
                None => None,
            };
            reads.paths.push((path, identity));
        }
        (value, Some(reads))
    }

    /// `read`'s answer: one `kept` holds for `key` whose reads are the same
    /// in this set, else read here (recorded) and kept.
    pub fn kept_or_read<T: Clone>(
        &self,
        kept: &KeptMap<T>,
        key: &str,
        read: impl FnOnce() -> T,
    ) -> T {
        if let Some(held) = kept
            .kept(key)
            .into_iter()
            .find(|held| self.same_reads(&held.reads))
        {
            return held.value.clone();
        }
        let (value, reads) = self.recorded(read);
        if let Some(reads) = reads {
            kept.keep(
                key,
                Arc::new(Kept {
                    value: value.clone(),
                    reads,
                }),
            );
        }
        value
    }

    /// Whether every path `reads` noted has the same content identity in
    /// this set, each asked for again as the read asked it (an unread
    /// module's asking is recorded as before).
    pub fn same_reads(&self, reads: &Reads) -> bool {
        reads
            .paths
            .iter()
            .all(|(path, identity)| match (self.facts(path), identity) {
                (Some(facts), Some(identity)) => {
                    facts.content_identity() == Some(identity.as_str())
                }
                (None, None) => true,
                _ => false,
            })
    }

    fn lock_frames(&self) -> std::sync::MutexGuard<'_, Vec<Vec<String>>> {
        self.frames
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Notes that a recorded read asked for `path`.
    fn note(&self, path: &str) {
        if self.recording.load(Ordering::SeqCst) > 0 {
            if let Some(frame) = self.lock_frames().last_mut() {
                frame.push(path.to_string());
            }
        }
    }

    fn add_dirs_of(&mut self, path: &'a str) {
        let mut rest = path;
        while let Some((dir, _)) = rest.rsplit_once('/') {
            if !self.dirs.insert(dir) {
                break;
            }
            rest = dir;
        }
    }

    /// Whether the set holds a module at `path`, read or not: every
    /// question about paths (is there a file, an `__init__.py`, a
    /// package) asks this, never the facts.
    pub(super) fn holds(&self, path: &str) -> bool {
        self.modules.contains_key(path) || self.unread.contains(path)
    }

    /// The unread modules whose facts were asked for, in path order.
    pub fn wanted(&self) -> Vec<String> {
        match self.wanted.lock() {
            Ok(wanted) => wanted.iter().cloned().collect(),
            Err(poisoned) => poisoned.into_inner().iter().cloned().collect(),
        }
    }

    /// Records that the facts of `path` were asked for, if it is unread.
    fn want(&self, path: &str) {
        if self.unread.contains(path) {
            let mut wanted = self
                .wanted
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            wanted.insert(path.to_string());
        }
    }

    /// Every import of the application with the files it names.
    pub fn import_edges(&self) -> &super::ImportEdges {
        self.edges.get_or_init(|| super::ImportEdges::of(self))
    }

    /// The facts of the module at `path` (`None` for an unread one, whose
    /// asking is recorded: see `unread`).
    pub fn facts(&self, path: &str) -> Option<&'a ModuleFacts> {
        self.note(path);
        let facts = self.modules.get(path).copied();
        if facts.is_none() {
            self.want(path);
        }
        facts
    }

    /// Every module path of the application (imported-only modules left
    /// out).
    pub fn paths(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.modules
            .keys()
            .copied()
            .filter(|path| !self.imported_only.contains(path))
    }

    /// The set's own spelling of a path (borrowed for the set's lifetime).
    pub fn key(&self, path: &str) -> Option<&'a str> {
        self.note(path);
        if let Some((key, _)) = self.modules.get_key_value(path) {
            return Some(*key);
        }
        // A path is asked for its spelling to be read next.
        self.want(path);
        self.unread.get(path).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;

    #[test]
    fn a_recorded_read_is_the_same_where_the_modules_it_asked_are() {
        let context = ScopeContext::default();
        let agent = extract_facts(b"from .tools import lookup\n");
        let tools = extract_facts(b"def lookup():\n    pass\n");
        let edited = extract_facts(b"def lookup():\n    return 1\n");
        let other = extract_facts(b"x = 1\n");
        let base = ModuleSet::new(
            [
                ("app/agent.py", &agent),
                ("app/tools.py", &tools),
                ("app/other.py", &other),
            ],
            std::iter::empty(),
            &context,
        )
        .with_unread(["app/tests/helpers.py"]);
        let (asked, reads) = base.recorded(|| {
            base.facts("app/tools.py").is_some() && base.facts("app/tests/helpers.py").is_none()
        });
        assert!(asked);
        let reads = reads.expect("no rewritten facts were asked");
        assert_eq!(
            reads.paths,
            vec![
                ("app/tests/helpers.py".to_string(), None),
                (
                    "app/tools.py".to_string(),
                    Some(tools.source_sha256.clone())
                ),
            ]
        );
        // Another set: `other.py` changed, which the read did not ask.
        let other_edited = extract_facts(b"x = 2\n");
        let same = ModuleSet::new(
            [
                ("app/agent.py", &agent),
                ("app/tools.py", &tools),
                ("app/other.py", &other_edited),
            ],
            std::iter::empty(),
            &context,
        )
        .with_unread(["app/tests/helpers.py"]);
        assert!(same.same_reads(&reads));
        assert_eq!(same.layout(), base.layout(), "the same paths");
        assert!(
            std::sync::Arc::ptr_eq(
                same.found.get_or_init(|| FOUND.of(same.layout())),
                base.found.get_or_init(|| FOUND.of(base.layout()))
            ),
            "one layout, one memo of locations"
        );
        assert_eq!(
            same.wanted(),
            vec!["app/tests/helpers.py".to_string()],
            "asked again"
        );
        // `tools.py` changed: not the same read.
        let changed = ModuleSet::new(
            [("app/agent.py", &agent), ("app/tools.py", &edited)],
            std::iter::empty(),
            &context,
        );
        assert!(!changed.same_reads(&reads));
        assert_ne!(changed.layout(), base.layout());
        // Facts the graph layer rewrote have no identity: not kept.
        let rewritten = ModuleFacts {
            rewritten: true,
            ..tools.clone()
        };
        let forwarded =
            ModuleSet::new([("app/tools.py", &rewritten)], std::iter::empty(), &context);
        let (_, reads) = forwarded.recorded(|| forwarded.facts("app/tools.py").is_some());
        assert!(reads.is_none());
        // A nested read's paths are the enclosing read's too.
        let (_, outer) = base.recorded(|| {
            let (_, inner) = base.recorded(|| base.facts("app/agent.py"));
            assert_eq!(inner.map(|r| r.paths.len()), Some(1));
        });
        assert_eq!(outer.map(|r| r.paths.len()), Some(1));
    }

    #[test]
    fn an_unread_module_is_held_by_path_and_asking_for_its_facts_is_recorded() {
        let app = extract_facts(b"from app.tests.helpers import probe\n");
        let helper = extract_facts(b"def probe():\n    pass\n");
        let context = ScopeContext::default();
        let set = ModuleSet::new([("app/agent.py", &app)], std::iter::empty(), &context)
            .with_imported_only([("app/fixtures/canned.py", &helper)])
            .with_unread(["app/tests/helpers.py", "app/agent.py", "app/tests/other.py"]);
        assert!(set.holds("app/tests/helpers.py"));
        assert!(set.dirs.contains("app/tests"));
        assert!(!set.holds("app/tests/missing.py"));
        assert_eq!(
            set.wanted(),
            Vec::<String>::new(),
            "paths alone ask nothing"
        );
        // A module with facts wins over the same path listed unread.
        assert!(set.facts("app/agent.py").is_some());
        assert!(set.facts("app/fixtures/canned.py").is_some());
        assert!(set.facts("app/tests/missing.py").is_none());
        assert_eq!(set.wanted(), Vec::<String>::new());
        assert!(set.facts("app/tests/helpers.py").is_none());
        assert_eq!(set.key("app/tests/other.py"), Some("app/tests/other.py"));
        assert_eq!(
            set.wanted(),
            vec![
                "app/tests/helpers.py".to_string(),
                "app/tests/other.py".to_string()
            ]
        );
        let paths: Vec<&str> = set.paths().collect();
        assert_eq!(
            paths,
            vec!["app/agent.py"],
            "imported-only modules are not scanned"
        );
    }
}
