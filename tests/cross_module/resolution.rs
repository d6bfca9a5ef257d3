//! How a listed name is followed to its definition across modules, and where it stops.

use super::*;

#[test]
fn a_tool_from_a_sibling_module_is_followed_to_its_definition() {
    for imports in ["from .tools import lookup", "from app.tools import lookup"] {
        let doc = added_through(imports, "lookup", &[("app/tools.py", TOOLS)]);
        assert_eq!(doc["comparison_status"], "compared", "{imports}");
        assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
        let after = &doc["rows"][0]["after"];
        assert_eq!(after["definition"]["source"], "app/tools.py");
        assert_eq!(after["definition"]["line"], 4);
        assert_eq!(after["signature"], "lookup(q) -> str");
        assert_eq!(
            steps(after),
            vec![
                step("app/agent.py", Some(2), "lookup", "import"),
                step("app/tools.py", Some(4), "lookup", "definition")
            ]
        );
        assert_eq!(after["import_path"][0]["reference"], "lookup");
        assert_eq!(after["import_path"][0]["definition"], "app/tools.py:4");
        let inputs = after["import_path"][0]["inputs"]
            .as_array()
            .expect("inputs");
        assert_eq!(inputs.len(), 2);
        assert_eq!(inputs[0]["path"], "app/agent.py");
        assert_eq!(inputs[0]["sha256"].as_str().map(str::len), Some(64));
    }
}

#[test]
fn a_flat_directory_resolves_absolute_imports_from_the_importing_directory() {
    // No app/__init__.py: `from tools import lookup` is app/tools.py.
    let base_agent = agent("from tools import lookup", "");
    let head_agent = agent("from tools import lookup", "lookup");
    let doc = compare(
        &[("app/tools.py", TOOLS), ("app/agent.py", &base_agent)],
        &[("app/agent.py", &head_agent)],
    );
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
}

#[test]
fn a_package_re_export_is_followed_through_its_init() {
    let doc = added_through(
        "from .toolpkg import lookup",
        "lookup",
        &[
            ("app/toolpkg/__init__.py", "from .impl import lookup\n"),
            ("app/toolpkg/impl.py", TOOLS),
        ],
    );
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
    assert_eq!(
        steps(&doc["rows"][0]["after"]),
        vec![
            step("app/agent.py", Some(2), "lookup", "import"),
            step("app/toolpkg/__init__.py", Some(1), "lookup", "import"),
            step("app/toolpkg/impl.py", Some(4), "lookup", "definition"),
        ]
    );
}

#[test]
fn module_qualified_references_are_followed() {
    let doc = added_through(
        "from . import tools",
        "tools.lookup",
        &[("app/tools.py", TOOLS)],
    );
    assert_eq!(
        rows(&doc),
        vec![t("support", "lookup", "added")],
        "the row names the tool, not the spelling"
    );
    assert_eq!(
        steps(&doc["rows"][0]["after"]),
        vec![
            step("app/agent.py", Some(2), "tools", "import"),
            step("app/__init__.py", None, "tools", "submodule"),
            step("app/tools.py", Some(4), "lookup", "definition"),
        ]
    );
    // `import app.tools` then `app.tools.lookup` reads the submodule itself.
    let doc = added_through(
        "import app.tools",
        "app.tools.lookup",
        &[("app/tools.py", TOOLS)],
    );
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
    assert_eq!(
        steps(&doc["rows"][0]["after"]),
        vec![
            step("app/agent.py", Some(2), "app", "import"),
            step("app/tools.py", Some(4), "lookup", "definition")
        ]
    );
    let doc = added_through(
        "import app.tools as t",
        "t.lookup",
        &[("app/tools.py", TOOLS)],
    );
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
}

#[test]
fn plain_aliases_are_followed_in_either_module() {
    let aliased = "from agents import function_tool\n\n@function_tool\ndef _lookup_impl(q: str) -> str:\n    return q\n\nlookup = _lookup_impl\n";
    let doc = added_through(
        "from .tools import lookup",
        "lookup",
        &[("app/tools.py", aliased)],
    );
    assert_eq!(rows(&doc), vec![t("support", "_lookup_impl", "added")]);
    assert_eq!(
        steps(&doc["rows"][0]["after"]),
        vec![
            step("app/agent.py", Some(2), "lookup", "import"),
            step("app/tools.py", Some(7), "lookup", "alias"),
            step("app/tools.py", Some(4), "_lookup_impl", "definition"),
        ]
    );
    let impl_only = "from agents import function_tool\n\n@function_tool\ndef _lookup_impl(q: str) -> str:\n    return q\n";
    let doc = added_through(
        "from . import tools\n\nlookup = tools._lookup_impl",
        "lookup",
        &[("app/tools.py", impl_only)],
    );
    assert_eq!(rows(&doc), vec![t("support", "_lookup_impl", "added")]);
}

#[test]
fn an_import_inside_the_builder_is_followed_and_nested_definitions_bind() {
    let builder = |tools: &str| {
        format!(
            "from agents import Agent, function_tool\n\n\ndef build():\n    from .tools import lookup\n\n    @function_tool\n    def local(q: str) -> str:\n        return q\n\n    return Agent(name=\"support\", tools=[{tools}])\n"
        )
    };
    let (base, head) = (builder(""), builder("lookup, local"));
    let doc = compare(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/agent.py", &base),
        ],
        &[("app/agent.py", &head)],
    );
    assert_eq!(
        rows(&doc),
        vec![
            t("support", "local", "added"),
            t("support", "lookup", "added")
        ]
    );
    assert_eq!(
        steps(&doc["rows"][1]["after"]),
        vec![
            step("app/agent.py", Some(5), "lookup", "local_import"),
            step("app/tools.py", Some(4), "lookup", "definition")
        ]
    );
    assert_eq!(
        doc["rows"][0]["after"]["definition"]["line"], 8,
        "the nested definition"
    );
}

#[test]
fn a_parameter_or_local_assignment_of_the_builder_is_a_named_stop() {
    let builder = "from agents import Agent\n\n\ndef build(lookup):\n    return Agent(name=\"support\", tools=[lookup])\n";
    let doc = compare(
        &[("app/__init__.py", ""), ("app/agent.py", "x = 1\n")],
        &[("app/agent.py", builder)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:5 binds unresolved tool 'lookup'. Not resolved because 'lookup' is bound by a parameter in the enclosing scope at agent.py:4, which is not followed.",
    );
}

#[test]
fn a_name_bound_twice_or_only_conditionally_is_not_followed() {
    let twice = format!("{TOOLS}\n\nlookup = print\n");
    let doc = added_through(
        "from .tools import lookup",
        "lookup",
        &[("app/tools.py", &twice)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because 'lookup' is bound more than once in tools.py (lines 4, 8).",
    );
    let conditional = "from agents import function_tool\n\nif True:\n    @function_tool\n    def lookup(q: str) -> str:\n        return q\n";
    let doc = added_through(
        "from .tools import lookup",
        "lookup",
        &[("app/tools.py", conditional)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because 'lookup' is bound only inside a compound statement or from a function in tools.py:5.",
    );
}

#[test]
fn a_file_defining_a_tool_twice_is_a_limit_on_that_name() {
    let twice = format!("{TOOLS}\n@function_tool\ndef lookup(q: str) -> str:\n    return q + q\n");
    let doc = added_through(
        "from .tools import lookup",
        "lookup",
        &[("app/tools.py", &twice)],
    );
    // Which definition is bound is not established; that `lookup` is
    // listed is (issue 39, item 8).
    assert_eq!(
        rows(&doc),
        vec![row("support", "lookup", "not_established")]
    );
    let gaps = doc["head"]["coverage_gaps"].as_array().expect("gaps");
    assert!(gaps.contains(&json!({"source": "tools.py", "agent": null, "tool": "lookup", "affects": "binding_presence",
        "reason": "tools.py defines the tool 'lookup' more than once; which definition an agent binds is not established."})));
}

#[test]
fn wildcard_imports_cycles_classes_and_values_are_named_stops() {
    let doc = added_through("from .tools import *", "lookup", &[("app/tools.py", TOOLS)]);
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because agent.py has a wildcard import that may rebind 'lookup'.",
    );
    let doc = added_through(
        "from .a import lookup",
        "lookup",
        &[
            ("app/a.py", "from .b import lookup\n"),
            ("app/b.py", "from .a import lookup\n"),
        ],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because the import chain for 'lookup' returns to a.py.",
    );
    let doc = added_through(
        "from .tools import lookup",
        "lookup",
        &[("app/tools.py", "class lookup:\n    pass\n")],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because 'lookup' in tools.py:1 is a class, not a function definition.",
    );
    let doc = added_through(
        "from .tools import lookup",
        "lookup",
        &[("app/tools.py", "lookup = make_tool()\n")],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because 'lookup' in tools.py:1 is assigned a value, not a function definition.",
    );
}

#[test]
fn imports_the_scope_does_not_hold_are_named_stops() {
    let doc = added_through("from ..shared import lookup", "lookup", &[]);
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because the relative import '..shared' in agent.py climbs above the read scope.",
    );
    let base_agent = agent("from common.tools import lookup", "");
    let head_agent = agent("from common.tools import lookup", "lookup");
    let doc = compare(
        &[
            ("app/__init__.py", ""),
            ("common/__init__.py", ""),
            ("common/tools.py", TOOLS),
            ("app/agent.py", &base_agent),
        ],
        &[("app/agent.py", &head_agent)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because no file inside the read scope provides module 'common.tools' imported by agent.py.",
    );
    let doc = added_through(
        "from .tools import lookup",
        "lookup",
        &[("app/tools.py", "def (:\n")],
    );
    assert_eq!(
        head_reasons(&doc),
        vec![
            "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because tools.py could not be read or parsed.".to_string(),
            "Python input could not be parsed: tools.py".to_string(),
        ]
    );
}

#[test]
fn reassignments_that_run_before_use_are_named_stops() {
    let tools = format!("{TOOLS}\n\n@function_tool\ndef dangerous(q: str) -> str:\n    return q\n");
    let doc = added_through(
        "from . import tools\n\ntools.lookup = tools.dangerous",
        "tools.lookup",
        &[("app/tools.py", &tools)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:6 binds unresolved tool 'tools.lookup'. Not resolved because 'tools.lookup' is reassigned by attribute in agent.py:4.",
    );
    let doc = added_through(
        "from . import tools\n\nsetattr(tools, \"lookup\", tools.dangerous)",
        "tools.lookup",
        &[("app/tools.py", &tools)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:6 binds unresolved tool 'tools.lookup'. Not resolved because 'tools.lookup' is reassigned by attribute in agent.py:4.",
    );
    // In the package's __init__.py, which runs before agent.py.
    let base_agent = agent("from .tools import lookup", "");
    let head_agent = agent("from .tools import lookup", "lookup");
    let init = "from . import tools\n\ntools.lookup = tools.dangerous\n";
    let doc = compare(
        &[
            ("app/__init__.py", init),
            ("app/tools.py", &tools),
            ("app/agent.py", &base_agent),
        ],
        &[("app/agent.py", &head_agent)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because an attribute named 'lookup' is reassigned in __init__.py:3, which agent.py runs before the name is used.",
    );
}

#[test]
fn type_checking_imports_never_run() {
    // Spec: "an import under typing's if TYPE_CHECKING: never runs and is
    // skipped". The reference (1.2.0) reads such an import as a conditional
    // binding instead ("bound only inside a compound statement"), and with a
    // real import beside it as bound twice; we follow the spec.
    let guarded =
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .tools import lookup";
    let doc = added_through(guarded, "lookup", &[("app/tools.py", TOOLS)]);
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:7 binds unresolved tool 'lookup'. Not resolved because 'lookup' is not bound at module level in agent.py.",
    );
    let both = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .tools import lookup\nfrom .tools import lookup";
    let doc = added_through(both, "lookup", &[("app/tools.py", TOOLS)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![t("support", "lookup", "added")]);
}

/// The gap names the tool (the reference leaves `tool` null, which would
/// also make the agent's other rows uncertain).
#[test]
fn one_agent_binding_two_functions_under_one_name_binds_neither() {
    let doc = added_through(
        "from .a import lookup as l1\nfrom .b import lookup as l2",
        "l1, l2",
        &[
            ("app/a.py", TOOLS),
            ("app/b.py", &TOOLS.replace("return q", "return q.upper()")),
        ],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:5 binds two different functions named 'lookup' (a.py:4 and b.py:4); the model sees one tool name for both, so neither is resolved.",
    );
    assert_eq!(doc["head"]["coverage_gaps"][0]["tool"], "lookup");
}

#[test]
fn two_agents_binding_same_named_functions_from_different_modules_keep_two_tools() {
    let two = |tools: bool| {
        let (a, b) = if tools {
            ("a.lookup", "b.lookup")
        } else {
            ("", "")
        };
        format!("from agents import Agent\nfrom . import a, b\n\nfirst = Agent(name=\"first\", tools=[{a}])\nsecond = Agent(name=\"second\", tools=[{b}])\n")
    };
    let (base, head) = (two(false), two(true));
    let b_tools = TOOLS.replace("return q", "return q.upper()");
    let doc = compare(
        &[
            ("app/__init__.py", ""),
            ("app/a.py", TOOLS),
            ("app/b.py", &b_tools),
            ("app/agent.py", &base),
        ],
        &[("app/agent.py", &head)],
    );
    assert_eq!(
        rows(&doc),
        vec![
            t("first", "lookup", "added"),
            t("second", "lookup", "added")
        ]
    );
    assert_eq!(doc["rows"][0]["after"]["definition"]["source"], "app/a.py");
    assert_eq!(doc["rows"][1]["after"]["definition"]["source"], "app/b.py");
}

/// A wildcard import after a name's binding rebinds it only when its
/// module can: a module of the scope with no `__all__` and no wildcard
/// of its own binds what its namespace holds. `from .helpers import *`
/// where `helpers` binds no `lookup` leaves `from .tools import lookup`
/// the binding (read); where it defines `lookup`, declares `__all__`, or
/// is a library, the name stays a named stop.
#[test]
fn a_wildcard_import_that_cannot_rebind_a_name_leaves_it_resolved() {
    let imports = "from .tools import lookup\nfrom .helpers import *";
    let doc = added_through(
        imports,
        "lookup",
        &[
            ("app/tools.py", TOOLS),
            (
                "app/helpers.py",
                "import os\n\n\ndef fmt(x):\n    return str(x)\n",
            ),
        ],
    );
    assert_eq!(
        doc["comparison_status"],
        "compared",
        "{:?}",
        head_reasons(&doc)
    );
    assert_eq!(rows(&doc), vec![row("support", "lookup", "added")]);
    let stop = "OpenAI Agents SDK agent 'support' at agent.py:5 binds unresolved tool 'lookup'. Not resolved because agent.py has a wildcard import that may rebind 'lookup'.";
    for helpers in [
        "def lookup(q):\n    return q\n",
        "__all__ = [\"fmt\"]\n\n\ndef fmt(x):\n    return str(x)\n",
        "from .tools import *\n",
    ] {
        let doc = added_through(
            imports,
            "lookup",
            &[("app/tools.py", TOOLS), ("app/helpers.py", helpers)],
        );
        assert_unresolved(&doc, stop);
    }
    let doc = added_through(
        "from .tools import lookup\nfrom os.path import *",
        "lookup",
        &[("app/tools.py", TOOLS)],
    );
    assert_unresolved(&doc, stop);
}
