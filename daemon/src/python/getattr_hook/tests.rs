//! The hook read name by name, from source.

use super::super::extract::extract_facts;

/// For each name, whether the module's hook gives its submodule.
fn gives(src: &str, names: &[&str]) -> Vec<bool> {
    let hook = extract_facts(src.as_bytes()).getattr_hook.expect("a hook");
    names.iter().map(|n| hook.gives_submodule(n)).collect()
}

const IMPORT: &str = "import importlib\n";

#[test]
fn the_idiom_gives_every_name_in_each_spelling() {
    for ret in [
        "importlib.import_module(f'.{name}', __name__)",
        "importlib.import_module('.' + name, __name__)",
        "importlib.import_module('.' + name, __package__)",
        "importlib.import_module(f'{__name__}.{name}')",
    ] {
        let src = format!("{IMPORT}def __getattr__(name):\n    return {ret}\n");
        assert_eq!(gives(&src, &["agent", "store"]), [true, true], "{ret}");
    }
    let src = "from importlib import import_module\ndef __getattr__(name):\n    return import_module(f'.{name}', __name__)\n";
    assert_eq!(gives(src, &["agent"]), [true]);
}

#[test]
fn a_local_result_and_the_idioms_own_cache_are_the_idiom() {
    let src = format!(
            "{IMPORT}def __getattr__(name):\n    module = importlib.import_module(f'.{{name}}', __name__)\n    globals()[name] = module\n    return module\n"
        );
    assert_eq!(gives(&src, &["agent"]), [true]);
    // importlib imported inside the hook.
    let src = "def __getattr__(name):\n    import importlib\n    module = importlib.import_module(f'.{name}', __name__)\n    return module\n";
    assert_eq!(gives(src, &["agent"]), [true]);
}

#[test]
fn per_name_branches_give_only_the_names_they_reach() {
    let src = "def __getattr__(name):\n    if name == 'agent':\n        from . import agent\n        return agent\n    if name == 'store':\n        from . import store\n        return store\n    raise AttributeError(name)\n";
    // `other` is refused (`raise AttributeError`): `from package import
    // other` falls back to its submodule (issue 40, item 8).
    assert_eq!(gives(src, &["agent", "store", "other"]), [true, true, true]);
    // A branch that returns another submodule for the name; `store`
    // itself is refused, so it is its submodule.
    let src = "def __getattr__(name):\n    if name == 'agent':\n        from . import store\n        return store\n    raise AttributeError(name)\n";
    assert_eq!(gives(src, &["agent", "store"]), [false, true]);
    // One under `if name == "other":` cannot be reached for `agent`.
    let src = format!(
            "{IMPORT}def __getattr__(name):\n    if name == 'other':\n        return 42\n    return importlib.import_module(f'.{{name}}', __name__)\n"
        );
    assert_eq!(gives(&src, &["agent", "other"]), [true, false]);
    // Falling off the end returns None.
    let src = "def __getattr__(name):\n    if name == 'agent':\n        from . import agent\n        return agent\n";
    assert_eq!(gives(src, &["agent", "other"]), [true, false]);
    // A test the reader cannot decide reaches both branches.
    let src = format!(
            "{IMPORT}def __getattr__(name):\n    if name.startswith('_'):\n        return None\n    return importlib.import_module(f'.{{name}}', __name__)\n"
        );
    assert_eq!(gives(&src, &["agent"]), [false]);
}

#[test]
fn membership_guards_read_literals_only_ever_read() {
    // Names outside the guard get something else: only a guard the
    // reader can decide keeps that return from the names inside it.
    let guarded = |lazy: &str, extra: &str| {
        format!(
                "{IMPORT}_LAZY = {lazy}\n{extra}def __getattr__(name):\n    if name in _LAZY:\n        return importlib.import_module(f'.{{name}}', __name__)\n    return _moved(name)\n"
            )
    };
    assert_eq!(
        gives(&guarded("{'agent', 'store'}", ""), &["agent", "store", "x"]),
        [true, true, false]
    );
    assert_eq!(
        gives(&guarded("frozenset({'agent'})", ""), &["agent", "x"]),
        [true, false]
    );
    assert_eq!(
        gives(&guarded("{'agent'}", "register(_LAZY)\n"), &["agent"]),
        [false],
        "handed to code that may change it"
    );
    assert_eq!(
        gives(
            &guarded("['agent']", "_LAZY.append('x')\n"),
            &["agent", "x"]
        ),
        [false, false]
    );
    // A name the hook refuses with `AttributeError` is its submodule
    // (issue 40, item 8); any other raise is no return.
    let src = format!(
            "{IMPORT}def __getattr__(name):\n    if name not in ('agent',):\n        raise AttributeError(name)\n    return importlib.import_module(f'.{{name}}', __name__)\n"
        );
    assert_eq!(gives(&src, &["agent", "x"]), [true, true]);
    let src = format!(
            "{IMPORT}def __getattr__(name):\n    if name not in ('agent',):\n        raise KeyError(name)\n    return importlib.import_module(f'.{{name}}', __name__)\n"
        );
    assert_eq!(gives(&src, &["agent", "x"]), [true, false]);
}

#[test]
fn a_package_that_can_change_the_import_trusts_no_hook() {
    let idiom = format!("{IMPORT}def __getattr__(name):\n    return importlib.import_module(f'.{{name}}', __name__)\n");
    for extra in [
        "__name__ = 'elsewhere'\n",
        "__path__ = ['/tmp']\n",
        "importlib.import_module = print\n",
        "import sys\nsys.modules['app.agent'] = object()\n",
        "globals()['agent'] = 1\n",
        "globals().update(agent=1)\n",
    ] {
        let src = format!("{idiom}{extra}");
        assert_eq!(gives(&src, &["agent"]), [false], "{extra}");
    }
    // `importlib` bound other than by importing it.
    let src = "importlib = object()\ndef __getattr__(name):\n    return importlib.import_module(f'.{name}', __name__)\n";
    assert_eq!(gives(src, &["agent"]), [false]);
    // Decorated, a rebound parameter, a second parameter.
    for hook in [
            "@cache\ndef __getattr__(name):\n    return importlib.import_module(f'.{name}', __name__)\n",
            "def __getattr__(name):\n    name = 'x'\n    return importlib.import_module(f'.{name}', __name__)\n",
            "def __getattr__(name, other=1):\n    return importlib.import_module(f'.{name}', __name__)\n",
        ] {
            assert_eq!(gives(&format!("{IMPORT}{hook}"), &["x", "agent"]), [false, false], "{hook}");
        }
}

/// The lazy re-export registry: each name the hook answers from it, as
/// the module and attribute its entry names.
#[test]
fn a_registry_hook_reexports_each_entry() {
    let src = "import importlib\n_LAZY = {'lookup': ('.search.tools', 'lookup'), 'fetch': ('app.net', 'get')}\ndef __getattr__(name):\n    if name in _LAZY:\n        module_path, attr_name = _LAZY[name]\n        module = importlib.import_module(module_path, __package__)\n        return getattr(module, attr_name)\n    raise AttributeError(name)\n__all__ = sorted(_LAZY.keys())\n";
    let hook = extract_facts(src.as_bytes()).getattr_hook.expect("a hook");
    let found: Vec<(&str, &str, &str)> = hook
        .reexports
        .iter()
        .map(|r| (r.name.as_str(), r.module.as_str(), r.attribute.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("fetch", "app.net", "get"),
            ("lookup", ".search.tools", "lookup")
        ]
    );
    assert!(!hook.gives_submodule("lookup"));
    // A registry the module changes is not one.
    let changed = format!("{src}_LAZY.update({{}})\n");
    let hook = extract_facts(changed.as_bytes())
        .getattr_hook
        .expect("a hook");
    assert!(hook.reexports.is_empty());
    // A relative entry needs the package argument.
    let absolute = src.replace(
        "import_module(module_path, __package__)",
        "import_module(module_path)",
    );
    let hook = extract_facts(absolute.as_bytes())
        .getattr_hook
        .expect("a hook");
    let names: Vec<&str> = hook.reexports.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["fetch"]);
}

/// Issue 40, item 8: a hook that answers the names of a module dict and
/// raises `AttributeError` for the rest refuses those: `from . import
/// scorer` falls back to the submodule. The dict's own names stay the
/// hook's; the edges keep every name unknown.
#[test]
fn a_hook_that_refuses_other_names_gives_their_submodules() {
    let hook = |dict: &str, lookup: &str, test: &str, raise: &str, extra: &str| {
        format!(
            "from .registry import get_registry\n\n_EXPORTS = {dict}\n{extra}\n\ndef __getattr__(name):\n    target = {lookup}\n    if {test}:\n        return get_registry().get(target)\n    {raise}\n"
        )
    };
    let plain = hook(
        "{'root_agent': 'root'}",
        "_EXPORTS.get(name)",
        "target is not None",
        "raise AttributeError(f'module {__name__!r} has no attribute {name!r}')",
        "",
    );
    assert_eq!(gives(&plain, &["scorer", "root_agent"]), [true, false]);
    // The truth test of the lookup, and a bare `raise AttributeError`.
    let truthy = hook(
        "{'root_agent': 'root'}",
        "_EXPORTS.get(name)",
        "target",
        "raise AttributeError",
        "",
    );
    assert_eq!(gives(&truthy, &["scorer", "root_agent"]), [true, false]);
    for (why, src) in [
        (
            "another exception",
            hook(
                "{'root_agent': 'root'}",
                "_EXPORTS.get(name)",
                "target is not None",
                "raise KeyError(name)",
                "",
            ),
        ),
        (
            "a value that is None",
            hook(
                "{'root_agent': None}",
                "_EXPORTS.get(name)",
                "target is not None",
                "raise AttributeError(name)",
                "",
            ),
        ),
        (
            "a default that is not None",
            hook(
                "{'root_agent': 'root'}",
                "_EXPORTS.get(name, 'x')",
                "target is not None",
                "raise AttributeError(name)",
                "",
            ),
        ),
        (
            "a dict the module changes",
            hook(
                "{'root_agent': 'root'}",
                "_EXPORTS.get(name)",
                "target is not None",
                "raise AttributeError(name)",
                "_EXPORTS['scorer'] = 'x'",
            ),
        ),
        (
            "AttributeError rebound",
            hook(
                "{'root_agent': 'root'}",
                "_EXPORTS.get(name)",
                "target is not None",
                "raise AttributeError(name)",
                "AttributeError = KeyError",
            ),
        ),
    ] {
        assert_eq!(gives(&src, &["scorer"]), [false], "{why}");
    }
}
