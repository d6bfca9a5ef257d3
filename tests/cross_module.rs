//! End to end: tools the agent imports from other modules (issue 3). Each
//! test builds a real repository, runs the real daemon and client, and
//! asserts exact rows, statuses, gap reasons and import evidence.
//!
//! The same fixtures were run through the reference (agents-shipgate 1.2.0,
//! 100 cases). Rows, statuses and `import_path` steps agree except where a
//! test says otherwise; where the reference and the spec differ we follow
//! the spec:
//! - reasons read "… binds unresolved tool 'x'. Not resolved because …"
//!   (spec); 1.2.0 writes "… binds unresolved tool 'x': …" and adds a second
//!   gap "Structural binding for 'x' matched 0 canonical tools.", which we
//!   do not repeat;
//! - `if TYPE_CHECKING:` imports never run (1.2.0 counts them as bindings);
//! - the bound is 64 modules read (1.2.0 stops at 32 import steps);
//! - one agent binding two functions under one name is a gap confined to
//!   that name (1.2.0 leaves `tool` null);
//! - every linked Python input is named (1.2.0 names only the stop).

mod support;

use serde_json::{json, Value};
use support::{rows, Place, Repo};

/// An agent module: `imports` lines, then `support = Agent(..., tools=[…])`
/// (the construction is on line `imports.lines().count() + 3`).
fn agent(imports: &str, tools: &str) -> String {
    format!("from agents import Agent\n{imports}\n\nsupport = Agent(name=\"support\", tools=[{tools}])\n")
}

/// Commits `base` on main, `head` (changes on top of base) on a branch,
/// and compares them with `--scope app`.
fn compare(base: &[(&str, &str)], head: &[(&str, &str)]) -> Value {
    compare_in("app", base, head)
}

/// The same with another `--scope`.
fn compare_in(scope: &str, base: &[(&str, &str)], head: &[(&str, &str)]) -> Value {
    let repo = Repo::new();
    let files: Vec<(&str, Option<&str>)> = base.iter().map(|(p, c)| (*p, Some(*c))).collect();
    repo.commit(&files, "base");
    repo.git(&["checkout", "-q", "-b", "head"]);
    let files: Vec<(&str, Option<&str>)> = head.iter().map(|(p, c)| (*p, Some(*c))).collect();
    repo.commit(&files, "head");
    compare_repo(&repo, scope)
}

/// Compares `main` with the `head` branch of a repository the test built.
fn compare_repo(repo: &Repo, scope: &str) -> Value {
    let place = Place::new();
    let _daemon = place.start_daemon();
    place.diff_json(
        repo,
        &["--base", "main", "--head", "head", "--scope", scope],
    )
}

fn t(agent: &str, tool: &str, change: &str) -> (String, String, String) {
    (agent.into(), tool.into(), change.into())
}

/// `(path, line, name, binding)` of each step of the row side's first chain.
fn steps(side: &Value) -> Vec<(String, Value, String, String)> {
    side["import_path"][0]["steps"]
        .as_array()
        .map(|steps| {
            steps
                .iter()
                .map(|s| {
                    (
                        s["path"].as_str().unwrap_or_default().to_string(),
                        s["line"].clone(),
                        s["name"].as_str().unwrap_or_default().to_string(),
                        s["binding"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn step(
    path: &str,
    line: Option<u32>,
    name: &str,
    binding: &str,
) -> (String, Value, String, String) {
    (path.into(), json!(line), name.into(), binding.into())
}

/// The head side's gap reasons.
fn head_reasons(doc: &Value) -> Vec<String> {
    doc["head"]["coverage_gaps"]
        .as_array()
        .map(|gaps| {
            gaps.iter()
                .filter_map(|g| g["reason"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The head gains `lookup` through `imports`; the tools live in `files`.
fn added_through(imports: &str, reference: &str, files: &[(&str, &str)]) -> Value {
    let mut base: Vec<(&str, &str)> = vec![("app/__init__.py", "")];
    base.extend_from_slice(files);
    let base_agent = agent(imports, "");
    let head_agent = agent(imports, reference);
    base.push(("app/agent.py", &base_agent));
    compare(&base, &[("app/agent.py", &head_agent)])
}

fn assert_unresolved(doc: &Value, reason: &str) {
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(doc),
        vec![],
        "an unresolved reference is no row when the other side does not bind it either"
    );
    assert_eq!(head_reasons(doc), vec![reason.to_string()]);
    assert_eq!(doc["head"]["coverage_gaps"][0]["agent"], "support");
    assert_eq!(doc["head"]["coverage_gaps"][0]["source"], "agent.py");
}

const TOOLS: &str = "from agents import function_tool\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n";

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
    assert_eq!(rows(&doc), vec![]);
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
    assert_eq!(rows(&doc), vec![]);
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
        // The branch that imports `impl` is for another name.
        "def __getattr__(name):\n    if name == \"models\":\n        from . import impl\n\n        return impl\n    raise AttributeError(name)\n",
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
    // standard library's calendar, not app/calendar.py.
    let doc = added_through(
        "from calendar import lookup",
        "lookup",
        &[("app/calendar.py", TOOLS)],
    );
    assert_unresolved(
        &doc,
        "OpenAI Agents SDK agent 'support' at agent.py:4 binds unresolved tool 'lookup'. Not resolved because no file inside the read scope provides module 'calendar' imported by agent.py.",
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
