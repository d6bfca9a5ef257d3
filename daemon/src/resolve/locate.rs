//! Finding the module an import spelling names inside the scope: a
//! relative import from the importing file's package, an absolute one from
//! each directory up to the scope and from the scope's own spellings (the
//! standard library never shadowed by a regular package's file), a linked
//! file never read; and the queries other readers ask of it.

use super::names::parent_scope;
use super::{ModuleLoc, Resolver};
use crate::paths::{parent_dir as dir_of, rooted as join};
use crate::pyrepr::str_repr;
use crate::python::stdlib::is_stdlib_module;

impl<'s, 'a> Resolver<'s, 'a> {
    /// Finds a module by import spelling from `path` (contract: absolute
    /// names from the importing file's directory and each parent up to the
    /// scope, and from the scope's parent for the scope's own package).
    pub(super) fn find_module(
        &mut self,
        path: &str,
        level: u32,
        dotted: &str,
    ) -> Result<ModuleLoc, String> {
        self.locate_from(dir_of(path), level, dotted)
            .map_err(|unlocated| unlocated.describe(path))
    }

    /// `find_module` for any file of `dir`: what a spelling finds depends
    /// on the importing file's directory alone, so every module of a
    /// directory shares one answer, kept in the layout's memo (each import
    /// of each module is asked for by every caller search: issue 23; every
    /// set of the same layout finds the same: `layout.rs`).
    fn locate_from(&self, dir: &str, level: u32, dotted: &str) -> Result<ModuleLoc, Unlocated> {
        let key = format!("{dir}\0{level}\0{dotted}");
        let memo = self.modules.found();
        if let Some(found) = memo.lock().ok().and_then(|memo| memo.get(&key).cloned()) {
            return found;
        }
        let found = self.locate_uncached(dir, level, dotted);
        if let Ok(mut memo) = memo.lock() {
            crate::recent::insert_bounded(
                &mut memo,
                key,
                found.clone(),
                super::layout::LOCATIONS_KEPT,
            );
        }
        found
    }

    fn locate_uncached(&self, dir: &str, level: u32, dotted: &str) -> Result<ModuleLoc, Unlocated> {
        let parts: Vec<&str> = dotted.split('.').filter(|p| !p.is_empty()).collect();
        if level > 0 {
            let spelled = format!("{}{dotted}", ".".repeat(level as usize));
            let mut dir = dir;
            for _ in 1..level {
                if dir.is_empty() {
                    return Err(Unlocated::ClimbsAbove { spelled });
                }
                dir = dir_of(dir);
            }
            let loc = self
                .module_at(dir, &parts)
                .ok_or_else(|| Unlocated::NoRelative {
                    spelled: spelled.clone(),
                })?;
            return self.not_linked(loc, &spelled);
        }
        let mut found = self.absolute_candidates(dir, &parts);
        match found.len() {
            0 => Err(Unlocated::NoAbsolute {
                dotted: dotted.to_string(),
            }),
            1 => self.not_linked(found.remove(0), dotted),
            _ => {
                let mut places: Vec<String> = found
                    .iter()
                    .filter_map(|l| l.file.clone().or(l.dir.clone()))
                    .collect();
                places.sort();
                Err(Unlocated::Ambiguous {
                    dotted: dotted.to_string(),
                    places,
                })
            }
        }
    }

    /// Whether no file inside the read scope provides the top package of
    /// the absolute module `dotted`, and it is not the repository's own
    /// code outside the scope either: what `Target::External` names.
    pub(super) fn provided_nowhere(&self, path: &str, dotted: &str) -> bool {
        let Some(top) = dotted.split('.').find(|p| !p.is_empty()) else {
            return false;
        };
        self.absolute_candidates(dir_of(path), &[top]).is_empty()
            && !self.modules.is_outside_repository_module(dotted)
    }

    /// Every location an absolute module spelling can name from a file
    /// of `dir`.
    fn absolute_candidates(&self, dir: &str, parts: &[&str]) -> Vec<ModuleLoc> {
        let mut found: Vec<ModuleLoc> = Vec::new();
        let mut dir = dir;
        let stdlib = parts.first().is_some_and(|first| is_stdlib_module(first));
        loop {
            // A standard-library name in a directory that is itself a
            // regular package is the standard library (spec).
            let shadowing = !(stdlib && self.modules.holds(join(dir, "__init__.py").as_str()));
            if let Some(loc) = self.module_at(dir, parts).filter(|_| shadowing) {
                if !found.contains(&loc) {
                    found.push(loc);
                }
            }
            if dir.is_empty() {
                break;
            }
            dir = dir_of(dir);
        }
        for spelling in &self.modules.context.spellings {
            let prefix: Vec<&str> = spelling.split('.').collect();
            if parts.len() < prefix.len() || parts[..prefix.len()] != prefix[..] {
                continue;
            }
            if let Some(loc) = self.module_at("", &parts[prefix.len()..]) {
                if !found.contains(&loc) {
                    found.push(loc);
                }
            }
        }
        found
    }

    /// A module location whose file is a symbolic link is never read.
    pub(super) fn not_linked(&self, loc: ModuleLoc, spelled: &str) -> Result<ModuleLoc, Unlocated> {
        match &loc.file {
            Some(file) if self.modules.linked.contains(file.as_str()) => Err(Unlocated::Linked {
                module_path: file.strip_suffix(".py").unwrap_or(file).to_string(),
                spelled: spelled.to_string(),
            }),
            _ => Ok(loc),
        }
    }

    /// The module `parts` under `dir`, preferring a module file over a
    /// namespace directory as the import system does.
    pub(super) fn module_at(&self, dir: &str, parts: &[&str]) -> Option<ModuleLoc> {
        if parts.is_empty() {
            let init = join(dir, "__init__.py");
            let has_init = self.modules.holds(init.as_str());
            return Some(ModuleLoc {
                file: has_init.then_some(init),
                dir: Some(dir.to_string()),
                dotted: String::new(),
            });
        }
        let relative = parts.join("/");
        let base = join(dir, &relative);
        let file = format!("{base}.py");
        let dotted = parts.join(".");
        if self.modules.holds(file.as_str()) || self.modules.linked.contains(file.as_str()) {
            return Some(ModuleLoc {
                file: Some(file),
                dir: None,
                dotted,
            });
        }
        let init = format!("{base}/__init__.py");
        if self.modules.holds(init.as_str()) || self.modules.linked.contains(init.as_str()) {
            return Some(ModuleLoc {
                file: Some(init),
                dir: Some(base),
                dotted,
            });
        }
        if self.modules.dirs.contains(base.as_str()) {
            return Some(ModuleLoc {
                file: None,
                dir: Some(base),
                dotted,
            });
        }
        None
    }

    /// The module file and member an imported name comes from (`from .agent
    /// import support` gives `("agent.py", "support")`), seen from `scope`.
    pub fn import_origin(
        &mut self,
        path: &str,
        scope: &str,
        name: &str,
    ) -> Option<(String, String)> {
        let facts = self.modules.facts(path)?;
        let mut current = Some(scope.to_string());
        while let Some(level) = current {
            let wanted = |i: &&crate::python::ImportFact| !i.type_checking && i.name.is_some();
            // The last import binding the name here, by the index; only
            // when that one is not a runtime `from` import are the earlier
            // ones scanned (a history walk spent a fifth of its time in
            // this scan: issue 23).
            let import = match facts.import_binding(&level, name) {
                Some(last) if wanted(&last) => Some(last),
                None => None,
                Some(_) => facts
                    .imports
                    .iter()
                    .rev()
                    .find(|i| i.scope == level && i.bound_name() == name && wanted(i)),
            };
            if let Some(import) = import {
                let member = import.name.clone()?;
                let loc = self
                    .locate_from(dir_of(path), import.level, &import.module)
                    .ok()?;
                return Some((loc.file?, member.to_string()));
            }
            current = (!level.is_empty()).then(|| parent_scope(&level));
        }
        None
    }

    /// The file a module spelling from `path` names inside the scope.
    pub fn module_file(&mut self, path: &str, level: u32, dotted: &str) -> Option<String> {
        self.locate_from(dir_of(path), level, dotted)
            .ok()
            .and_then(|loc| loc.file)
    }

    /// Whether a module spelling from `path` names a module inside the scope.
    pub fn locate(&mut self, path: &str, level: u32, dotted: &str) -> Result<(), String> {
        self.find_module(path, level, dotted).map(|_| ())
    }

    /// Whether a relative import of `level` from `path` climbs above the scope.
    pub fn above_scope(&self, path: &str, level: u32) -> bool {
        let depth = dir_of(path).split('/').filter(|p| !p.is_empty()).count();
        level as usize > depth + 1
    }
}

/// Why an import spelling names no module the scope reads; said with the
/// importing file's path once asked (`describe`), so one answer serves
/// every file of a directory.
#[derive(Debug, Clone)]
pub(super) enum Unlocated {
    /// A relative import climbing past the scope's top.
    ClimbsAbove { spelled: String },
    /// A relative import naming no file or package.
    NoRelative { spelled: String },
    /// An absolute import naming nothing from any directory.
    NoAbsolute { dotted: String },
    /// An absolute import naming several locations.
    Ambiguous { dotted: String, places: Vec<String> },
    /// The module's file is a symbolic link.
    Linked {
        module_path: String,
        spelled: String,
    },
}

impl Unlocated {
    /// The reason, naming `path` as the importing file where it matters.
    pub(super) fn describe(&self, path: &str) -> String {
        match self {
            Unlocated::ClimbsAbove { spelled } => format!(
                "the relative import {} in {path} climbs above the read scope",
                str_repr(spelled)
            ),
            Unlocated::NoRelative { spelled } => format!(
                "no file inside the read scope provides {} imported by {path}",
                str_repr(spelled)
            ),
            Unlocated::NoAbsolute { dotted } => format!(
                "no file inside the read scope provides module {} imported by {path}",
                str_repr(dotted)
            ),
            Unlocated::Ambiguous { dotted, places } => format!(
                "module {} imported by {path} matches more than one location in the read scope: {}",
                str_repr(dotted),
                places.join(", ")
            ),
            Unlocated::Linked {
                module_path,
                spelled,
            } => format!(
                "module path {module_path} for {} is a symbolic link, which is not followed",
                str_repr(spelled)
            ),
        }
    }
}
