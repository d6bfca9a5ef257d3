//! Repository-relative POSIX paths: spelling scopes and joining them.

/// Re-spells a user-given scope in normal form (`./app/` → `app`, `.` stays
/// `.`), or refuses it as the contract does (empty, absolute, `..`, a
/// backslash or a colon).
pub fn normalize_scope(raw: &str) -> Option<String> {
    if raw.is_empty() || raw.starts_with('/') || raw.contains('\\') || raw.contains(':') {
        return None;
    }
    let mut parts = Vec::new();
    for part in raw.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        Some(".".to_string())
    } else {
        Some(parts.join("/"))
    }
}

/// Why `normalize_scope` refuses `raw`, as a user can act on it: an
/// absolute path, a backslash, a colon, or `..` (`//app` is absolute).
pub fn scope_refusal(raw: &str) -> String {
    if raw.is_empty() {
        "Scope must not be empty: pass '.' for the whole repository.".into()
    } else if raw.starts_with('/') {
        format!("Scope '{raw}' is an absolute path: pass a directory relative to the repository root (app, not /app).")
    } else if raw.contains('\\') {
        format!("Scope '{raw}' contains a backslash: separate directories with '/'.")
    } else if raw.contains(':') {
        format!("Scope '{raw}' contains ':': pass a plain repository path.")
    } else {
        format!("Scope '{raw}' leaves the repository through '..': pass a directory inside it.")
    }
}

/// Joins a scope and a scope-relative path into a rooted path.
pub fn rooted(scope: &str, relative: &str) -> String {
    if scope == "." || scope.is_empty() {
        relative.to_string()
    } else {
        format!("{scope}/{relative}")
    }
}

/// Whether `path` is `dir` or beneath it, component by component
/// (`app/x.py` is under `app`, `application.py` is not), without building
/// `dir/`.
pub fn is_at_or_under(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The directory holding a repository-relative path (`""` at the root).
pub fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Whether a repository-relative file path looks like a test file, which the
/// comparison never reads as the application.
pub fn is_test_path(relative: &str) -> bool {
    let mut components = relative.split('/').peekable();
    while let Some(part) = components.next() {
        let is_file = components.peek().is_none();
        if is_file {
            let stem = part.strip_suffix(".py").unwrap_or(part);
            return stem.starts_with("test_")
                || stem.ends_with("_test")
                || matches!(stem, "conftest" | "test" | "tests");
        }
        if part == "tests" || part == "test" {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_or_under_goes_by_components() {
        assert!(is_at_or_under("app", "app"));
        assert!(is_at_or_under("app/x.py", "app"));
        assert!(is_at_or_under("app/sub/x.py", "app/sub"));
        assert!(!is_at_or_under("application.py", "app"));
        assert!(!is_at_or_under("ap", "app"));
        assert!(!is_at_or_under("lib/app/x.py", "app"));
    }

    #[test]
    fn scopes_are_normalized_or_refused() {
        assert_eq!(normalize_scope("./app/").as_deref(), Some("app"));
        assert_eq!(normalize_scope(".").as_deref(), Some("."));
        assert_eq!(normalize_scope("a//b/./c").as_deref(), Some("a/b/c"));
        assert_eq!(normalize_scope(""), None);
        assert_eq!(normalize_scope("/abs"), None);
        assert_eq!(normalize_scope("a/../b"), None);
        assert_eq!(normalize_scope("a\\b"), None);
        assert_eq!(normalize_scope("c:x"), None);
    }

    #[test]
    fn test_files_are_recognised() {
        assert!(is_test_path("tests/test_agent.py"));
        assert!(is_test_path("app/test_agent.py"));
        assert!(is_test_path("app/agent_test.py"));
        assert!(is_test_path("conftest.py"));
        assert!(is_test_path("app/tests.py"));
        assert!(is_test_path("test.py"));
        assert!(!is_test_path("app/Tests.py"), "matched case-sensitively");
        assert!(!is_test_path("app/agent.py"));
        assert!(!is_test_path("app/testing.py"));
    }
}
