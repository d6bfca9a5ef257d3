//! End to end (issue 17, items 2 and 6): function-local imports are
//! imports (a builder that imports its list inside its body reads it by the
//! importing module's rule; a caller that imports a builder inside a
//! function calls it as a builder), and a test-named module the
//! application imports from is followed, in explicit and derived scopes.

mod support;

use support::{compare_branches, limits, row, rows, Place, Repo};

const BILLING: &str = "from agents import function_tool\n\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n\n\n@function_tool\ndef invoice(order: str) -> str:\n    return order\n\n\n";

const AGENT: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\ndef build():\n    from app.tools.billing import BILLING_TOOLS\n    return Agent(name=\"support\", tools=[*BILLING_TOOLS, lookup])\n\n\nsupport = build()\n";

#[test]
fn a_list_a_builder_imports_itself_is_read_like_a_module_import() {
    // Before: "`BILLING_TOOLS`, which agent.py:10 does not bind once,
    // unconditionally, to a list literal", no row.
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools/__init__.py", ""),
            (
                "app/tools/billing.py",
                &format!("{BILLING}BILLING_TOOLS = [refund]\n"),
            ),
            ("app/agent.py", AGENT),
        ],
        &[(
            "app/tools/billing.py",
            &format!("{BILLING}BILLING_TOOLS = [refund, invoice]\n"),
        )],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("support", "invoice", "added")]);
    assert_eq!(doc["comparison_status"], "compared");
}

#[test]
fn a_list_imported_locally_and_changed_there_stays_a_limit() {
    let changed = format!("{BILLING}BILLING_TOOLS = [refund]\nBILLING_TOOLS.append(invoice)\n");
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools/__init__.py", ""),
            (
                "app/tools/billing.py",
                &format!("{BILLING}BILLING_TOOLS = [refund]\n"),
            ),
            ("app/agent.py", AGENT),
        ],
        &[("app/tools/billing.py", &changed)],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("'support'") && l.contains("BILLING_TOOLS")),
        "{:?}",
        limits(&doc, "head")
    );
}

#[test]
fn a_builder_a_function_imports_is_called_as_a_builder() {
    let factory = "from agents import Agent\n\n\ndef build(tools):\n    return Agent(name=\"support\", tools=tools)\n";
    let run = |tools: &str| {
        format!("{BILLING}\ndef main():\n    from app.factory import build\n    return build([{tools}])\n")
    };
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/factory.py", factory),
            ("app/run.py", &run("refund")),
        ],
        &[("app/run.py", &run("refund, invoice"))],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("support", "invoice", "added")]);
    assert_eq!(doc["comparison_status"], "compared");
}

#[test]
fn a_tool_imported_from_a_test_named_module_is_followed() {
    // Spec: test files are not read as the application, but "the import
    // resolver still follows a tool the application imports from such a
    // file". Before: "no file inside the read scope provides module
    // 'app.test_helpers'". The reference answers the same row.
    let helpers = "from agents import function_tool\n\n\n@function_tool\ndef probe(q: str) -> str:\n    return q\n";
    let agent = |tools: &str| {
        format!("from agents import Agent\n\nfrom app.test_helpers import probe\n\nsupport = Agent(name=\"support\", tools=[{tools}])\n")
    };
    // The test module also builds an agent of its own and changes the
    // application's: neither is read as the application.
    let test_double = "from agents import Agent\n\nfrom app.agent import support\n\nfake = Agent(name=\"fake\", tools=[])\nsupport.tools.append(None)\n";
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/test_helpers.py", helpers),
            ("app/tests/test_agent.py", test_double),
            ("app/agent.py", &agent("")),
        ],
        &[("app/agent.py", &agent("probe"))],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("support", "probe", "added")]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        doc["head"]["excluded_tests"],
        serde_json::json!(["test_helpers.py", "tests/test_agent.py"])
    );
}

#[test]
fn a_change_to_a_test_named_module_the_application_imports_is_compared() {
    // Before: "The change touches no Python source outside tests." and
    // nothing compared; the reference relates it to the agent file.
    let helpers = |body: &str| {
        format!("from agents import function_tool\n\n\n@function_tool\ndef probe(q: str) -> str:\n    return {body}\n")
    };
    let agent = "from agents import Agent\n\nfrom app.test_helpers import probe\n\nsupport = Agent(name=\"support\", tools=[probe])\n";
    let repo = Repo::new();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/test_helpers.py", Some(&helpers("q"))),
            ("app/agent.py", Some(agent)),
        ],
        "base",
    );
    repo.commit(
        &[("app/test_helpers.py", Some(&helpers("q.strip()")))],
        "head",
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--base", "HEAD~1", "--head", "HEAD"]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "probe", "changed")]);
    assert_eq!(doc["scope_selection"]["scopes"], serde_json::json!(["app"]));
    // A test that nothing imports is still not the application.
    repo.commit(
        &[(
            "app/tests/test_agent.py",
            Some("def test_agent():\n    assert True\n"),
        )],
        "a test",
    );
    let doc = place.diff_json(&repo, &["--base", "HEAD~1", "--head", "HEAD"]);
    assert_eq!(doc["comparison_status"], "not_established");
    assert_eq!(rows(&doc), vec![]);
}

#[test]
fn a_module_under_a_skipped_directory_is_never_an_agent_file_but_is_followed() {
    // Spec: "A module under a directory discovery skips (build/,
    // fixtures/) is related like any other, never an agent file." Before:
    // `fixtures/` modules were agent files and `build/` ones not listed.
    let fixture = |tools: &str| {
        format!("from agents import Agent, function_tool\n\n\n@function_tool\ndef canned(q: str) -> str:\n    return q\n\n\nfake = Agent(name=\"fake\", tools=[{tools}])\n")
    };
    let agent = |tools: &str| {
        format!("from agents import Agent\n\nfrom app.fixtures.canned import canned\n\nsupport = Agent(name=\"support\", tools=[{tools}])\n")
    };
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/fixtures/__init__.py", ""),
            ("app/fixtures/canned.py", &fixture("")),
            (
                "app/build/generated.py",
                "from agents import Agent\n\nghost = Agent(name=\"ghost\")\n",
            ),
            ("app/agent.py", &agent("")),
        ],
        &[
            ("app/fixtures/canned.py", &fixture("canned")),
            ("app/agent.py", &agent("canned")),
        ],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("support", "canned", "added")]);
    assert_eq!(doc["comparison_status"], "compared");
    let agents: Vec<&str> = doc["head"]["agents"]
        .as_array()
        .map(|a| a.iter().filter_map(|a| a["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(agents, vec!["support"]);
    assert_eq!(doc["head"]["excluded_tests"], serde_json::json!([]));
}

#[test]
fn a_change_under_a_skipped_directory_is_related_like_any_other() {
    let repo = Repo::new();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            (
                "app/fixtures/fake_agent.py",
                Some("from agents import Agent\n\nfake = Agent(name=\"fake\", tools=[])\n"),
            ),
            (
                "app/agent.py",
                Some("from agents import Agent\n\nsupport = Agent(name=\"support\", tools=[])\n"),
            ),
        ],
        "base",
    );
    repo.commit(
        &[(
            "app/fixtures/fake_agent.py",
            Some("from agents import Agent\n\nfake = Agent(name=\"fake\", tools=[None])\n"),
        )],
        "head",
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--base", "HEAD~1", "--head", "HEAD"]);
    // The reference's words, to the letter.
    assert_eq!(doc["comparison_status"], "not_established");
    assert_eq!(
        doc["scope_selection"]["reason"],
        "The change touches no OpenAI Agents SDK or Google ADK agent: app/fixtures/fake_agent.py is not an agent file, and is not imported by one or importing one within 6 hops."
    );
}

#[test]
fn a_tool_reached_through_two_test_like_modules_is_followed() {
    // Test-like modules are read when a build asks for one (issue 23:
    // they were 8.5 of the 15 MB a cold read of openai-agents-python
    // parsed). Here the application imports from a test-named module,
    // which re-exports from a fixture: each is asked for in its own round,
    // and the answer is the one every module read gives.
    let fixture = |body: &str| {
        format!("from agents import function_tool\n\n\n@function_tool\ndef probe(q: str) -> str:\n    return {body}\n")
    };
    let helpers = "from app.fixtures.canned import probe\n\n__all__ = [\"probe\"]\n";
    let agent = |tools: &str| {
        format!("from agents import Agent\n\nfrom app.test_helpers import probe\n\nsupport = Agent(name=\"support\", tools=[{tools}])\n")
    };
    // Unrelated tests nothing imports stay unread.
    let unrelated = "from agents import Agent\n\nghost = Agent(name=\"ghost\", tools=[])\n";
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/fixtures/__init__.py", ""),
            ("app/fixtures/canned.py", &fixture("q")),
            ("app/test_helpers.py", helpers),
            ("app/tests/test_ghost.py", unrelated),
            ("app/agent.py", &agent("")),
        ],
        &[
            ("app/fixtures/canned.py", &fixture("q.strip()")),
            ("app/agent.py", &agent("probe")),
        ],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("support", "probe", "added")]);
    assert_eq!(doc["comparison_status"], "compared");
    let row = doc["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["tool"] == "probe"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        row["after"]["definition"]["source"], "app/fixtures/canned.py",
        "{row}"
    );
    assert_eq!(row["after"]["definition"]["line"], 5, "{row}");
}

/// Issue 40, item 8: a package whose `__getattr__` answers the names of a
/// module dict and raises `AttributeError` for the rest (KEN-E's
/// `app/adk/agents/__init__.py`): `from .crew import scorer` falls back
/// to the submodule `scorer`, so its tools are read. A hook that may
/// answer the name otherwise stays the named stop.
#[test]
fn a_name_the_package_hook_refuses_is_its_submodule() {
    let init = |raise: &str| {
        format!("from .registry import get_registry\n\n_EXPORTS = {{\"root_agent\": \"root\"}}\n\n\ndef __getattr__(name: str):\n    target = _EXPORTS.get(name)\n    if target is not None:\n        return get_registry().get(target)\n    {raise}\n")
    };
    let scorer = |body: &str| {
        format!("from agents import function_tool\n\n\n@function_tool\ndef score(text: str) -> str:\n    return {body}\n")
    };
    let agent = "from agents import Agent\n\nfrom .crew import scorer\n\nsupport = Agent(name=\"support\", tools=[scorer.score])\n";
    let files = |raise: &str, body: &str| {
        vec![
            ("app/__init__.py", String::new()),
            ("app/crew/__init__.py", init(raise)),
            (
                "app/crew/registry.py",
                "def get_registry():\n    return {}\n".to_string(),
            ),
            ("app/crew/scorer.py", scorer(body)),
            ("app/agent.py", agent.to_string()),
        ]
    };
    let run = |raise: &str| {
        let base = files(raise, "text");
        let head = files(raise, "text.strip()");
        let base: Vec<(&str, &str)> = base.iter().map(|(p, c)| (*p, c.as_str())).collect();
        let head: Vec<(&str, &str)> = head.iter().map(|(p, c)| (*p, c.as_str())).collect();
        compare_branches(&base, &head, "app").0
    };
    let doc = run("raise AttributeError(f\"module {__name__!r} has no attribute {name!r}\")");
    assert_eq!(
        doc["comparison_status"],
        "compared",
        "{:#?}",
        limits(&doc, "head")
    );
    assert_eq!(rows(&doc), vec![row("support", "score", "changed")]);
    // Any other end of the hook may answer `scorer` with something else.
    let doc = run("return _fallback(name)");
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("past the module-level __getattr__")),
        "{:#?}",
        limits(&doc, "head")
    );
}
