//! Directories and packages: the outermost package holding a chain, the
//! common directory of paths.

use super::*;

/// Every directory that is a regular package on either side.
pub(super) fn packages(base: &SideFiles, head: &SideFiles) -> BTreeSet<String> {
    base.modules
        .iter()
        .chain(head.modules.iter())
        .filter_map(|(path, _, _)| path.strip_suffix("/__init__.py").map(str::to_string))
        .collect()
}

use crate::paths::parent_dir as dir_of;

/// The deepest directory holding every path.
pub(super) fn common_dir<'p>(paths: impl IntoIterator<Item = &'p str>) -> String {
    let mut common: Option<Vec<&str>> = None;
    for path in paths {
        let dir: Vec<&str> = dir_of(path).split('/').filter(|p| !p.is_empty()).collect();
        common = Some(match common {
            None => dir,
            Some(prefix) => prefix
                .iter()
                .zip(dir.iter())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| *a)
                .collect(),
        });
    }
    common.unwrap_or_default().join("/")
}

/// The deepest directory holding every directory (`.` is the root).
pub(super) fn common_of_dirs<'d>(dirs: impl IntoIterator<Item = &'d str>) -> String {
    let as_files: Vec<String> = dirs
        .into_iter()
        .map(|d| {
            if d == "." {
                "x".to_string()
            } else {
                format!("{d}/x")
            }
        })
        .collect();
    common_dir(as_files.iter().map(String::as_str))
}

/// A directory climbed to the outermost regular package enclosing it (each
/// parent must be one too); `.` for the root.
pub(super) fn outermost_package(dir: &str, packages: &BTreeSet<String>) -> String {
    let mut current = dir.to_string();
    if packages.contains(&current) {
        loop {
            let parent = dir_of(&current).to_string();
            if parent.is_empty() || !packages.contains(&parent) {
                break;
            }
            current = parent;
        }
    }
    if current.is_empty() {
        ".".to_string()
    } else {
        current
    }
}

pub(super) fn within(path: &str, scope: &str) -> bool {
    scope == "." || path == scope || path.starts_with(&format!("{scope}/"))
}
