//! What a commit's tree says about a scope before any module is read: how
//! absolute imports spell it, which top-level modules are the repository's
//! own, the packages above it; links resolved inside the tree.

use super::*;

/// What the repository holds around a scope (spec: whether an absolute
/// import is the repository's own code is read from the compared commit's
/// tree: the root, `src/`, and every directory between the root and the
/// scope), and how those roots spell the scope through regular packages.
pub(super) fn scope_context_of(
    repo: &Repository,
    root_tree: ObjectId,
    scope: &str,
) -> Result<(ScopeContext, Vec<(String, ObjectId)>), DiffError> {
    let mut context = ScopeContext::default();
    let mut ancestor_inits = Vec::new();
    if scope == "." {
        return Ok((context, ancestor_inits));
    }
    let components: Vec<&str> = scope.split('/').collect();
    let mut roots: Vec<String> = (0..components.len())
        .map(|i| components[..i].join("/"))
        .collect();
    let root_entries = repo.list_dir(root_tree, "")?;
    if root_entries.iter().any(|e| e.is_tree && e.name == "src")
        && !roots.iter().any(|r| r == "src")
    {
        roots.push("src".to_string());
    }
    let is_package = |dir: &str| -> Result<bool, DiffError> {
        Ok(repo
            .list_dir(root_tree, dir)?
            .iter()
            .any(|e| e.is_blob && e.name == "__init__.py"))
    };
    for root in &roots {
        // In a directory that is itself a regular package, a standard-library
        // name is the standard library's, not the repository's.
        let root_is_package = !root.is_empty() && is_package(root)?;
        if root != "src" {
            let entries = repo.list_dir(root_tree, root)?;
            if let Some(init) = entries
                .iter()
                .find(|e| e.is_blob && e.name == "__init__.py")
            {
                ancestor_inits.push((rooted_dir(root, "__init__.py"), init.id));
            }
        }
        for entry in repo.list_dir(root_tree, root)? {
            let module = if entry.is_blob {
                entry.name.strip_suffix(".py").map(str::to_string)
            } else if entry.is_tree && is_package(&rooted_dir(root, &entry.name))? {
                Some(entry.name.clone())
            } else {
                None
            };
            if let Some(module) = module.filter(|m| !(root_is_package && is_stdlib_module(m))) {
                context.outside_modules.insert(module);
            }
        }
        // The scope spelled from this root, when every directory on the way
        // (the scope included) is a regular package.
        let below: Vec<&str> =
            components[root.split('/').filter(|p| !p.is_empty()).count()..].to_vec();
        if root == "src" && !scope.starts_with("src/") {
            continue;
        }
        let mut all_packages = !below.is_empty();
        for depth in 1..=below.len() {
            let dir = rooted_dir(root, &below[..depth].join("/"));
            if !is_package(&dir)? {
                all_packages = false;
                break;
            }
        }
        if all_packages {
            context.spellings.push(below.join("."));
        }
    }
    Ok((context, ancestor_inits))
}

/// A link's target as a repository path: relative to the link's
/// directory, normalised; `None` when it is absolute or leaves the tree.
pub(super) fn resolve_link(link: &str, target: &str) -> Option<String> {
    if target.starts_with('/') || target.is_empty() {
        return None;
    }
    let mut parts: Vec<&str> = link.split('/').collect();
    parts.pop();
    for piece in target.split('/') {
        match piece {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

pub(super) fn rooted_dir(root: &str, rest: &str) -> String {
    if root.is_empty() {
        rest.to_string()
    } else {
        format!("{root}/{rest}")
    }
}
