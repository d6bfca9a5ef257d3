//! What a change in another module is: moves, body changes, decorators, several agents.

use super::*;

#[test]
fn moving_a_definition_or_an_import_is_not_a_change() {
    let base_agent = agent("from .tools import lookup", "lookup");
    let head_agent = agent("from .other import lookup", "lookup");
    let doc = compare(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/agent.py", &base_agent),
        ],
        &[
            ("app/other.py", &format!("# moved here\n\n{TOOLS}")),
            ("app/tools.py", "\n"),
            ("app/agent.py", &head_agent),
        ],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
}

#[test]
fn a_body_change_in_the_imported_module_is_changed() {
    let tools_v2 = TOOLS.replace("return q", "return q.upper()");
    let with_tool = agent("from .tools import lookup", "lookup");
    let doc = compare(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/agent.py", &with_tool),
        ],
        &[("app/tools.py", &tools_v2)],
    );
    assert_eq!(rows(&doc), vec![t("support", "lookup", "changed")]);
}

#[test]
fn an_imported_function_without_the_sdk_decorator_is_not_a_tool() {
    let plain = "def lookup(q: str) -> str:\n    return q\n";
    let doc = added_through(
        "from .tools import lookup",
        "lookup",
        &[("app/tools.py", plain)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because it resolves to 'lookup' at tools.py:1, which is not decorated with the SDK's @function_tool.",
    );
}

/// Spec: "more than 64 modules read" is a stop. The reference (1.2.0)
/// stops at 32 import steps instead ("the import chain is longer than 32
/// steps"); a 40-step chain resolves here.
#[test]
fn more_than_64_modules_on_the_way_is_a_named_stop() {
    let mut files: Vec<(String, String)> = (0..70)
        .map(|i| {
            (
                format!("app/m{i}.py"),
                format!("from .m{} import lookup\n", i + 1),
            )
        })
        .collect();
    files.push(("app/m70.py".into(), TOOLS.into()));
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let doc = added_through("from .m0 import lookup", "lookup", &borrowed);
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because more than 64 modules were read to follow it.",
    );
}

#[test]
fn a_local_assignment_in_the_builder_is_a_named_stop() {
    let builder = "from agents import Agent\nfrom .tools import lookup as imported\n\n\ndef build():\n    lookup = imported\n    return Agent(name=\"support\", tools=[lookup])\n";
    let doc = compare(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/agent.py", "x = 1\n"),
        ],
        &[("app/agent.py", builder)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:7 binds unresolved tool 'lookup'. Not resolved because 'lookup' is bound by a local assignment in the enclosing scope at agent.py:6, which is not followed.",
    );
}

#[test]
fn nonlocal_follows_the_outer_functions_binding() {
    let builder = |tools: &str| {
        format!(
            "from agents import Agent\n\n\ndef outer():\n    from .tools import lookup\n\n    def build():\n        nonlocal lookup\n        return Agent(name=\"support\", tools=[{tools}])\n\n    return build()\n"
        )
    };
    let (base, head) = (builder(""), builder("lookup"));
    let doc = compare(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/agent.py", &base),
        ],
        &[("app/agent.py", &head)],
    );
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
    assert_eq!(
        steps(&doc["rows"][0]["after"]),
        vec![
            step("app/agent.py", Some(5), "lookup", "local_import"),
            step("app/tools.py", Some(4), "lookup", "definition")
        ]
    );
}

#[test]
fn missing_modules_names_and_ambiguous_locations_are_named() {
    let doc = added_through("from .nothere import lookup", "lookup", &[]);
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because no file inside the read scope provides '.nothere' imported by agent.py.",
    );
    let doc = added_through(
        "from .tools import lookup_missing",
        "lookup_missing",
        &[("app/tools.py", TOOLS)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup_missing'. Not resolved because tools.py does not define 'lookup_missing'.",
    );
    // `from tools import lookup` in app/sub/agent.py: app/sub/tools.py and
    // app/tools.py both match.
    let base_agent = agent("from tools import lookup", "");
    let head_agent = agent("from tools import lookup", "lookup");
    let doc = compare(
        &[
            ("app/__init__.py", ""),
            ("app/sub/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/sub/tools.py", TOOLS),
            ("app/sub/agent.py", &base_agent),
        ],
        &[("app/sub/agent.py", &head_agent)],
    );
    assert_eq!(
        head_reasons(&doc),
        vec!["OpenAI Agents SDK agent 'support' at sub/agent.py:4 binds unresolved tool 'lookup'. Not resolved because module 'tools' imported by sub/agent.py matches more than one location in the read scope: sub/tools.py, tools.py.".to_string()]
    );
}

#[test]
fn a_symbolic_link_is_never_followed() {
    let repo = Repo::new();
    let base_agent = agent("from .tools import lookup", "");
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/impl.py", Some(TOOLS)),
            ("app/agent.py", Some(&base_agent)),
        ],
        "base",
    );
    std::os::unix::fs::symlink("impl.py", repo.path().join("app/tools.py")).expect("symlink");
    repo.commit(&[], "link");
    repo.git(&["checkout", "-q", "-b", "head"]);
    repo.commit(
        &[(
            "app/agent.py",
            Some(&agent("from .tools import lookup", "lookup")),
        )],
        "head",
    );
    let doc = compare_repo(&repo, "app");
    // The listed name is a member all the same (issue 39, item 8).
    assert_eq!(
        rows(&doc),
        vec![row("support", "lookup", "not_established")]
    );
    // The link's target is a file the scope reads, so the link itself hides
    // nothing (spec "Links and submodules", as the reference); the import
    // through it is still not followed.
    assert_eq!(
        head_reasons(&doc),
        vec![
            "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because module path tools for '.tools' is a symbolic link, which is not followed.".to_string(),
        ]
    );
}

#[test]
fn an_import_of_the_repositorys_code_outside_the_scope_keeps_the_tool_named() {
    let base_agent = agent("import common.helpers\nfrom .tools import lookup", "");
    let head_agent = agent("import common.helpers\nfrom .tools import lookup", "lookup");
    let doc = compare(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("common/__init__.py", ""),
            ("common/helpers.py", "X = 1\n"),
            ("app/agent.py", &base_agent),
        ],
        &[("app/agent.py", &head_agent)],
    );
    let reason = "OpenAI Agents SDK agent 'support' at agent.py:5 binds 'lookup' (tools.py:4), but agent.py:2 imports 'common.helpers', which the repository holds outside the read scope, which is not read and could reassign it; the definition read for it is not established as the one bound.";
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![t("support", "lookup", "not_established")]);
    assert_eq!(doc["rows"][0]["candidate_change"], "added");
    assert_eq!(doc["rows"][0]["uncertainty"], json!({"head": [reason]}));
    assert_eq!(
        doc["head"]["coverage_gaps"],
        json!([{"source": "agent.py", "agent": "support", "tool": "lookup", "affects": "binding_presence", "reason": reason}])
    );
    assert_eq!(
        doc["rows"][0]["after"]["import_path"][0]["caveats"],
        json!(["agent.py:2 imports 'common.helpers', which the repository holds outside the read scope, which is not read and could reassign it"])
    );
    // A third-party import is the read's boundary, not a caveat.
    let base_agent = agent("import requests\nfrom .tools import lookup", "");
    let head_agent = agent("import requests\nfrom .tools import lookup", "lookup");
    let doc = compare(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/agent.py", &base_agent),
        ],
        &[("app/agent.py", &head_agent)],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
    // So is the SDK's own package where the repository holds it (the
    // SDK's repository, `src/agents`): it is read as the SDK, so, like an
    // installed one, its code is the boundary, not code that could
    // reassign the tool.
    let base_agent = agent("from .tools import lookup", "");
    let head_agent = agent("from .tools import lookup", "lookup");
    let doc = compare(
        &[
            ("src/agents/__init__.py", "from .agent import Agent\n"),
            ("src/agents/agent.py", "class Agent:\n    pass\n"),
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/agent.py", &base_agent),
        ],
        &[("app/agent.py", &head_agent)],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
}

#[test]
fn the_scope_spelled_from_the_repository_root_is_read_inside_the_scope() {
    // scope svc/app with svc a regular package: `svc.app.tools` is in scope.
    let base_agent = agent("from svc.app.tools import lookup", "");
    let head_agent = agent("from svc.app.tools import lookup", "lookup");
    let doc = compare_in(
        "svc/app",
        &[
            ("svc/__init__.py", ""),
            ("svc/app/__init__.py", ""),
            ("svc/app/tools.py", TOOLS),
            ("svc/app/agent.py", &base_agent),
        ],
        &[("svc/app/agent.py", &head_agent)],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
    assert_eq!(
        doc["rows"][0]["after"]["definition"]["source"],
        "svc/app/tools.py"
    );
}

#[test]
fn a_submodule_past_the_lazy_getattr_idiom_is_followed_and_other_hooks_are_not() {
    let lazy = "import importlib\n\n\ndef __getattr__(name):\n    return importlib.import_module(f\".{name}\", __name__)\n";
    let doc = added_through(
        "from .toolpkg import impl",
        "impl.lookup",
        &[
            ("app/toolpkg/__init__.py", lazy),
            ("app/toolpkg/impl.py", TOOLS),
        ],
    );
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
    let submodule_step = &doc["rows"][0]["after"]["import_path"][0]["steps"][1];
    assert_eq!(submodule_step["path"], "app/toolpkg/__init__.py");
    assert_eq!(submodule_step["line"], Value::Null);
    assert_eq!(submodule_step["binding"], "submodule");
    assert_eq!(submodule_step["module_getattr"], true);
    assert_eq!(submodule_step["lazy_submodule"], true);

    let other = "def __getattr__(name):\n    return globals()[name.upper()]\n";
    let doc = added_through(
        "from .toolpkg import impl",
        "impl.lookup",
        &[
            ("app/toolpkg/__init__.py", other),
            ("app/toolpkg/impl.py", TOOLS),
        ],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'impl.lookup'. Not resolved because 'impl' is reached past the module-level __getattr__ at toolpkg/__init__.py:1, which is not evaluated.",
    );
}

/// Every shape of the lazy-loading idiom the spec allows, read name by
/// name: the result bound to a local and cached with `globals()[name] =`,
/// a per-name branch that imports the package's own submodule, and a
/// membership guard on a module-level literal the package only reads. A
/// name whose reachable returns give something else (or none) is not
/// taken, and nor is any name once the package can change what the
/// import gives (here, a store into `sys.modules`).
#[test]
fn every_lazy_getattr_shape_gives_the_names_it_reaches() {
    let followed = [
        "import importlib\n\n\ndef __getattr__(name):\n    module = importlib.import_module(f\".{name}\", __name__)\n    globals()[name] = module\n    return module\n",
        "def __getattr__(name):\n    if name == \"impl\":\n        from . import impl\n\n        return impl\n    raise AttributeError(name)\n",
        "import importlib\n\n_LAZY = {\"impl\", \"models\"}\n\n\ndef __getattr__(name):\n    if name in _LAZY:\n        return importlib.import_module(\".\" + name, __name__)\n    return _legacy(name)\n",
        // Issue 40, item 8: the branch that imports `impl` is for another
        // name, and `impl` is refused with `AttributeError`, so `from
        // .toolpkg import impl` falls back to the submodule.
        "def __getattr__(name):\n    if name == \"models\":\n        from . import impl\n\n        return impl\n    raise AttributeError(name)\n",
    ];
    for hook in followed {
        let doc = added_through(
            "from .toolpkg import impl",
            "impl.lookup",
            &[
                ("app/toolpkg/__init__.py", hook),
                ("app/toolpkg/impl.py", TOOLS),
            ],
        );
        assert_eq!(rows(&doc), vec![t("support", "lookup", "added")], "{hook}");
        let step = &doc["rows"][0]["after"]["import_path"][0]["steps"][1];
        assert_eq!(step["binding"], "submodule", "{hook}");
        assert_eq!(step["lazy_submodule"], true, "{hook}");
    }
    let not_reached = [
        // The branch that imports `impl` is for another name, and any
        // other name is refused with an error other than `AttributeError`.
        "def __getattr__(name):\n    if name == \"models\":\n        from . import impl\n\n        return impl\n    raise KeyError(name)\n",
        // `impl` is outside the guard, where another value is returned.
        "import importlib\n\n_LAZY = (\"models\",)\n\n\ndef __getattr__(name):\n    if name in _LAZY:\n        return importlib.import_module(f\".{name}\", __name__)\n    return _legacy(name)\n",
        // The package stores into `sys.modules`.
        "import importlib\nimport sys\n\n\ndef __getattr__(name):\n    return importlib.import_module(f\".{name}\", __name__)\n\n\nsys.modules[__name__ + \".impl\"] = object()\n",
    ];
    for hook in not_reached {
        let doc = added_through(
            "from .toolpkg import impl",
            "impl.lookup",
            &[
                ("app/toolpkg/__init__.py", hook),
                ("app/toolpkg/impl.py", TOOLS),
            ],
        );
        let line = hook
            .lines()
            .position(|l| l.starts_with("def __getattr__"))
            .map_or(0, |i| i + 1);
        assert_unresolved(
            &doc,
            &format!("OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'impl.lookup'. Not resolved because 'impl' is reached past the module-level __getattr__ at toolpkg/__init__.py:{line}, which is not evaluated."),
        );
    }
}

#[test]
fn a_submodule_nothing_imports_is_not_an_attribute_of_its_package() {
    let doc = added_through(
        "from . import toolpkg",
        "toolpkg.impl.lookup",
        &[
            ("app/toolpkg/__init__.py", ""),
            ("app/toolpkg/impl.py", TOOLS),
        ],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'toolpkg.impl.lookup'. Not resolved because 'impl' is not bound in toolpkg/__init__.py, and a submodule is only an attribute of its package once imported.",
    );
}

#[test]
fn a_package_above_the_scope_that_reassigns_a_step_is_a_named_stop() {
    let tools = format!("{TOOLS}\n\n@function_tool\ndef dangerous(q: str) -> str:\n    return q\n");
    let base_agent = agent("from .tools import lookup", "");
    let head_agent = agent("from .tools import lookup", "lookup");
    let doc = compare_in(
        "svc/app",
        &[
            (
                "svc/__init__.py",
                "from .app import tools\ntools.lookup = tools.dangerous\n",
            ),
            ("svc/app/__init__.py", ""),
            ("svc/app/tools.py", &tools),
            ("svc/app/agent.py", &base_agent),
        ],
        &[("svc/app/agent.py", &head_agent)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because an attribute named 'lookup' is reassigned in svc/__init__.py:2, which agent.py runs before the name is used.",
    );
}

#[test]
fn a_standard_library_name_inside_a_regular_package_is_the_standard_library() {
    // app/ is a regular package: `from calendar import lookup` is the
    // standard library's calendar, not app/calendar.py. A package no file
    // of the repository provides keeps the binding's presence (issue 21):
    // the name is added, its definition not read.
    let doc = added_through(
        "from calendar import lookup",
        "lookup",
        &[("app/calendar.py", TOOLS)],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
    assert_eq!(doc["rows"][0]["after"]["object"]["kind"], "imported");
    assert_eq!(
        doc["rows"][0]["after"]["object"]["class"],
        "calendar.lookup"
    );
    assert_eq!(
        head_reasons(&doc),
        vec!["OpenAI Agents SDK agent 'support' at agent.py:4 binds the imported tool 'lookup', whose definition is not read (calendar.lookup: no file inside the read scope provides module 'calendar'); a change to it is not established.".to_string()]
    );
    // A plain directory on the path does shadow it.
    let base_agent = agent("from calendar import lookup", "");
    let head_agent = agent("from calendar import lookup", "lookup");
    let doc = compare(
        &[("app/calendar.py", TOOLS), ("app/agent.py", &base_agent)],
        &[("app/agent.py", &head_agent)],
    );
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
}
