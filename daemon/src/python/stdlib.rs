//! The standard library's top-level module names: an absolute import of
//! one of these found in a directory that is itself a regular package is
//! the standard library, not that directory's file.
//!
//! The table is ruff's (`ruff_python_stdlib`, the same release as the
//! parser: CPython's `sys.stdlib_module_names` per minor version), read for
//! CPython 3.12, the version whose `ast.dump` the digests follow. Private
//! names (`_thread`, `_abc`) are left out, as this module always left them
//! out: a repository's own `_helpers.py` is never taken for the standard
//! library.

/// The minor version of Python 3 the table is read for.
const PYTHON_MINOR: u8 = 12;

/// Whether a top-level module name is the standard library's.
pub fn is_stdlib_module(name: &str) -> bool {
    !name.starts_with('_') && ruff_python_stdlib::sys::is_known_standard_library(PYTHON_MINOR, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_library_is_found_and_the_rest_is_not() {
        assert!(is_stdlib_module("calendar"));
        assert!(is_stdlib_module("json"));
        assert!(is_stdlib_module("tomllib"));
        // Removed in 3.12: no longer the standard library's.
        assert!(!is_stdlib_module("distutils"));
        assert!(!is_stdlib_module("asynchat"));
        assert!(!is_stdlib_module("_thread"));
        assert!(!is_stdlib_module("agents"));
        assert!(!is_stdlib_module("requests"));
    }
}
