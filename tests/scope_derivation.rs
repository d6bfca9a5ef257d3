//! End to end: without `--scope`, what to compare is derived from the
//! change (issue 7): each changed Python file related to the agent files
//! that import it (or that it imports) within six hops, compared in the
//! outermost package holding them; independent applications as separate
//! comparisons; what no agent reaches named, never silently dropped. Each
//! `scope_selection` here was checked against the reference (1.2.0) on the
//! same fixture.

mod support;

use serde_json::{json, Value};
use support::{row, rows, Place, Repo};

/// Commits `base` on main and `head` on a branch; diffs without `--scope`.
fn derive(base: &[(&str, &str)], head: &[(&str, Option<&str>)]) -> (Value, String) {
    let repo = Repo::new();
    let files: Vec<(&str, Option<&str>)> = base.iter().map(|(p, c)| (*p, Some(*c))).collect();
    repo.commit(&files, "base");
    repo.git(&["checkout", "-q", "-b", "head"]);
    repo.commit(head, "head");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let args = ["--base", "main", "--head", "head"];
    let doc = place.diff_json(&repo, &args);
    let (code, text, stderr) = place.diff(&repo, &args);
    assert_eq!(code, 0, "{stderr}");
    (doc, text)
}

const AGENT: &str = "from agents import Agent\n\nfrom ..services.tools import fetch_profile\n\nsupport = Agent(name=\"support\", tools=[fetch_profile])\n";
const TOOLS: &str = "from agents import function_tool\n\n\n@function_tool\ndef fetch_profile(user_id: str) -> dict:\n    return {\"id\": user_id}\n";

fn app(prefix: &str) -> Vec<(String, String)> {
    vec![
        (format!("{prefix}/__init__.py"), String::new()),
        (format!("{prefix}/agents/__init__.py"), String::new()),
        (format!("{prefix}/agents/support.py"), AGENT.to_string()),
        (format!("{prefix}/services/__init__.py"), String::new()),
        (format!("{prefix}/services/tools.py"), TOOLS.to_string()),
    ]
}

/// A repository with `app(prefix)` plus `extra` committed on main, checked
/// out on a new branch `head` for the change under test.
fn repo_with_app(prefix: &str, extra: &[(&str, &str)]) -> Repo {
    let repo = Repo::new();
    let base = app(prefix);
    let files: Vec<(&str, Option<&str>)> = borrowed(&base)
        .into_iter()
        .chain(extra.iter().copied())
        .map(|(p, c)| (p, Some(c)))
        .collect();
    repo.commit(&files, "base");
    repo.git(&["checkout", "-q", "-b", "head"]);
    repo
}

fn borrowed(files: &[(String, String)]) -> Vec<(&str, &str)> {
    files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect()
}

/// Contract §7.3: a changed tool module an agent imports is compared in
/// the outermost package holding both.
#[test]
fn a_changed_module_is_compared_with_the_agent_that_imports_it() {
    let base = app("backend/app");
    let changed = TOOLS.replace("{\"id\": user_id}", "{\"id\": user_id, \"v\": 2}");
    let (doc, text) = derive(
        &borrowed(&base),
        &[("backend/app/services/tools.py", Some(&changed))],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "fetch_profile", "changed")]);
    assert_eq!(
        doc["scope_selection"],
        json!({
            "mode": "derived",
            "scopes": ["backend/app"],
            "reason": "backend/app: backend/app/services/tools.py is related to agent file backend/app/agents/support.py through backend/app/agents/support.py → backend/app/services/tools.py",
            "changed_files": ["backend/app/services/tools.py"],
            "relations": [{
                "scope": "backend/app", "base_scope": "backend/app",
                "changed": ["backend/app/services/tools.py"],
                "agent_files": ["backend/app/agents/support.py"],
                "via": ["backend/app/agents/support.py", "backend/app/services/tools.py"],
                "outside": []
            }],
            "limits": []
        })
    );
    assert!(
        text.starts_with("Application comparison: compared ("),
        "{text}"
    );
    assert!(
        text.contains("\nscope: backend/app (derived: backend/app: backend/app/services/tools.py is related to agent file backend/app/agents/support.py through backend/app/agents/support.py → backend/app/services/tools.py)\n"),
        "{text}"
    );
}

/// Contract §7.3: an absolute import through a namespace directory needs
/// the root that spells it, so the scope is the repository root.
#[test]
fn an_import_through_a_namespace_directory_widens_to_its_root() {
    let mut base = app("backend/app");
    base[2].1 = AGENT.replace(
        "from ..services.tools import",
        "from backend.app.services.tools import",
    );
    let changed = TOOLS.replace("{\"id\": user_id}", "{\"id\": user_id, \"v\": 2}");
    let (doc, _) = derive(
        &borrowed(&base),
        &[("backend/app/services/tools.py", Some(&changed))],
    );
    assert_eq!(doc["scope_selection"]["scopes"], json!(["."]));
    assert_eq!(rows(&doc), vec![row("support", "fetch_profile", "changed")]);
}

/// Contract §7.4: independent applications are separate comparisons in one
/// combined document, every path spelled from the repository root.
#[test]
fn independent_applications_are_separate_comparisons() {
    let mut base = app("services/alpha/alpha");
    base.extend(app("services/beta/beta"));
    let changed = TOOLS.replace("{\"id\": user_id}", "{\"id\": user_id, \"v\": 2}");
    let (doc, text) = derive(
        &borrowed(&base),
        &[
            ("services/alpha/alpha/services/tools.py", Some(&changed)),
            ("services/beta/beta/services/tools.py", Some(&changed)),
        ],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        doc["scope_selection"]["scopes"],
        json!(["services/alpha/alpha", "services/beta/beta"])
    );
    assert_eq!(doc["comparisons"].as_array().map(Vec::len), Some(2));
    let top: Vec<(&str, &str)> = doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["agent_source"].as_str().unwrap_or_default(),
                r["change"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        top,
        vec![
            ("services/alpha/alpha/agents/support.py", "changed"),
            ("services/beta/beta/agents/support.py", "changed")
        ]
    );
    assert_eq!(doc["head"]["scope"], Value::Null);
    assert_eq!(
        doc["head"]["scopes"],
        json!(["services/alpha/alpha", "services/beta/beta"])
    );
    assert_eq!(doc["head"]["binding_count"], 2);
    assert_eq!(
        doc["comparisons"][0]["rows"][0]["agent_source"],
        "agents/support.py"
    );
    assert!(
        text.contains("\nScope services/alpha/alpha: compared\n"),
        "{text}"
    );
    assert!(
        text.contains("\nScope services/beta/beta: compared\n"),
        "{text}"
    );
}

/// Contract §7.3: a shared module another agent elsewhere also imports is
/// compared with its nearest agents; the other is named, and the answer
/// is partial.
#[test]
fn a_shared_module_is_compared_where_its_nearest_agents_are() {
    let agent = "from agents import Agent\n\nfrom .tools import fetch_profile\n\nsupport = Agent(name=\"support\", tools=[fetch_profile])\n";
    let demo = "from agents import Agent\n\nfrom shared.tools import fetch_profile\n\ndemo = Agent(name=\"demo\", tools=[fetch_profile])\n";
    let base = [
        ("shared/__init__.py", ""),
        ("shared/tools.py", TOOLS),
        ("shared/agent.py", agent),
        ("examples/demo.py", demo),
    ];
    let changed = TOOLS.replace("{\"id\": user_id}", "{\"id\": user_id, \"v\": 2}");
    let (doc, text) = derive(&base, &[("shared/tools.py", Some(&changed))]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(doc["scope_selection"]["scopes"], json!(["shared"]));
    assert_eq!(
        doc["scope_selection"]["relations"][0]["outside"],
        json!(["examples/demo.py"])
    );
    assert_eq!(
        doc["scope_selection"]["limits"],
        json!(["Agent files outside shared also import the change and are not compared: examples/demo.py."])
    );
    assert!(
        // The sentence wraps at 100 columns, continued four spaces deeper.
        text.contains("\n  scope limit: Agent files outside shared also import the change and are not compared:\n      examples/demo.py.\n"),
        "{text}"
    );
}

#[test]
fn a_change_touching_no_agent_is_an_answer_not_a_failure() {
    let base = app("app");
    let base = borrowed(&base);
    let (doc, text) = derive(&base, &[("README.md", Some("# readme\n"))]);
    assert_eq!(doc["comparison_status"], "not_established");
    assert_eq!(
        doc["scope_selection"]["reason"],
        "The change touches no Python source."
    );
    assert_eq!(doc["comparisons"], json!([]));
    assert!(
        text.contains("The change touches no supported application agent; nothing was compared.\n"),
        "{text}"
    );
    let (doc, _) = derive(
        &base,
        &[(
            "app/tests/test_support.py",
            Some("def test_x():\n    pass\n"),
        )],
    );
    assert_eq!(
        doc["scope_selection"]["reason"],
        "The change touches no Python source outside tests."
    );
    let (doc, _) = derive(&base, &[("scripts/report.py", Some("print(1)\n"))]);
    assert_eq!(doc["comparison_status"], "not_established");
    assert_eq!(
        doc["scope_selection"]["reason"],
        "The change touches no OpenAI Agents SDK or Google ADK agent: scripts/report.py is not an agent file, and is not imported by one or importing one within 6 hops."
    );
}

/// A changed file no agent reaches is named beside a compared change, and
/// the answer is partial: its consumer may be elsewhere.
#[test]
fn a_changed_file_no_agent_reaches_is_named() {
    let base = app("app");
    let changed = TOOLS.replace("{\"id\": user_id}", "{\"id\": user_id, \"v\": 2}");
    let (doc, _) = derive(
        &borrowed(&base),
        &[
            ("app/services/tools.py", Some(&changed)),
            ("scripts/report.py", Some("print(1)\n")),
        ],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(doc["scope_selection"]["scopes"], json!(["app"]));
    assert_eq!(
        doc["scope_selection"]["limits"],
        json!(["Changed files are not related to a compared agent, so their effect is not compared: scripts/report.py (no agent file imports it, and it imports no agent file within 6 hops)."])
    );
    assert_eq!(rows(&doc), vec![row("support", "fetch_profile", "changed")]);
}

/// Explicit `--scope` always wins over derivation.
#[test]
fn an_explicit_scope_wins() {
    let repo = repo_with_app("app", &[]);
    repo.commit(&[("scripts/report.py", Some("print(1)\n"))], "head");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "app"],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        doc["scope_selection"],
        json!({"mode": "explicit", "scopes": ["app"], "base_scope": "app", "reason": "Selected with --scope."})
    );
}

/// Contract §7.3: an application directory moved whole is one relocation,
/// compared old path to new path, with exact renames as file
/// correspondence (checked against the reference: the same
/// `scope_selection`, limits and `source_correspondence`).
#[test]
fn an_application_moved_whole_is_one_relocation() {
    let repo = repo_with_app("app", &[]);
    repo.git(&["mv", "app", "newapp"]);
    repo.git(&["commit", "-qm", "move"]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--base", "main", "--head", "head"]);
    assert_eq!(doc["scope_selection"]["scopes"], json!(["newapp"]));
    assert_eq!(doc["scope_selection"]["relations"][0]["base_scope"], "app");
    assert_eq!(doc["base"]["scope"], "app");
    assert_eq!(doc["head"]["scope"], "newapp");
    assert_eq!(rows(&doc), vec![]);
    let pairs: Vec<(&str, &str)> = doc["source_correspondence"]
        .as_array()
        .expect("correspondence")
        .iter()
        .map(|p| {
            (
                p["base_source"].as_str().unwrap_or_default(),
                p["head_source"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(pairs.len(), 5);
    assert!(pairs.contains(&("agents/support.py", "agents/support.py")));
}

/// An agent file renamed inside its package is the same agent's file: its
/// unchanged tools are no rows.
#[test]
fn a_renamed_agent_file_keeps_its_agent() {
    let repo = repo_with_app("app", &[]);
    repo.git(&["mv", "app/agents/support.py", "app/agents/helpdesk.py"]);
    repo.git(&["commit", "-qm", "rename"]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "app"],
    );
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(
        doc["source_correspondence"],
        json!([{"base_source": "agents/support.py", "head_source": "agents/helpdesk.py", "basis": "git_rename_identical_blob"}])
    );
}

#[test]
fn a_changed_file_too_large_to_read_is_named() {
    let base = app("app");
    let big = format!("DATA = '{}'\n", "x".repeat(2_100_000));
    let changed = TOOLS.replace("{\"id\": user_id}", "{\"id\": user_id, \"v\": 2}");
    let (doc, _) = derive(
        &borrowed(&base),
        &[
            ("app/services/tools.py", Some(&changed)),
            ("data/blob.py", Some(&big)),
        ],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        doc["scope_selection"]["limits"],
        json!(["Changed files are not related to a compared agent, so their effect is not compared: data/blob.py (it exceeds 2000000 bytes and is not read)."])
    );
}

const LOOKUP: &str = "from agents import function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n";

/// Spec: a module that builds its agent through an agent file's factory is
/// an agent file too.
#[test]
fn a_module_building_through_a_factory_is_an_agent_file() {
    let base = [
        ("app/__init__.py", ""),
        ("app/factory.py", "from agents import Agent\n\n\ndef make(name, tools):\n    return Agent(name=name, tools=tools)\n"),
        ("app/bot.py", "from .factory import make\nfrom .tools import lookup\n\nroot_agent = make(\"bot\", [lookup])\n"),
        ("app/tools.py", LOOKUP),
    ];
    let changed = LOOKUP.replace("return q", "return q.upper()");
    let (doc, _) = derive(&base, &[("app/tools.py", Some(&changed))]);
    assert_eq!(
        doc["scope_selection"]["reason"],
        "app: app/tools.py is related to agent file app/bot.py through app/bot.py → app/tools.py"
    );
}

/// Spec: a change only a rewiring module reaches is compared where it is,
/// and named: its consumer may be elsewhere.
#[test]
fn a_change_only_a_rewiring_module_reaches_is_named() {
    let base = [
        ("app/__init__.py", ""),
        ("app/agent.py", "from agents import Agent\n\nsupport = Agent(name=\"support\")\n"),
        ("app/hooks.py", "from .agent import support\nfrom .extra import refund\n\nsupport.tools.append(refund)\n"),
        ("app/extra.py", "def refund():\n    pass\n"),
    ];
    let (doc, _) = derive(
        &base,
        &[("app/extra.py", Some("def refund():\n    return 1\n"))],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(doc["scope_selection"]["scopes"], json!(["app"]));
    assert_eq!(
        doc["scope_selection"]["limits"],
        json!(["Changed files are not related to a compared agent, so their effect is not compared: app/extra.py (only a module that rewires an agent relates to it)."])
    );
}

/// Spec "Links and submodules": each link is read for what it can hide. A
/// `.py` link to a file the scope reads changes nothing; a dangling `.py`
/// link and a link to a directory of Python outside the scope are gaps; a
/// link resolving outside the tree is a gap only where the other side reads
/// source beneath it; `CLAUDE.md -> AGENTS.md` changes nothing. (The
/// reference names the first two the same way and does not name the third.)
#[test]
fn links_are_read_for_what_they_can_hide() {
    let repo = repo_with_app(
        "app",
        &[
            ("app/plugins/extra.py", "x = 1\n"),
            ("lib/core.py", "y = 1\n"),
            ("AGENTS.md", "# agents\n"),
        ],
    );
    repo.git(&["rm", "-rq", "app/plugins"]);
    let app_dir = repo.path().join("app");
    for (target, link) in [
        ("agents/support.py", "support_link.py"),
        ("missing.py", "dangling.py"),
        ("../lib", "lib"),
        ("/opt/plugins", "plugins"),
        ("../AGENTS.md", "CLAUDE.md"),
    ] {
        std::os::unix::fs::symlink(target, app_dir.join(link)).expect("creating a link");
    }
    repo.commit(&[], "links");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "app"],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        doc["head"]["limits"],
        json!([
            "Linked Python input: dangling.py",
            "Linked directory holds Python outside the scope: lib",
            "Linked input resolves outside the tree: plugins"
        ])
    );
    assert_eq!(rows(&doc), vec![]);
}

/// Spec: a module that imports the change and sets the state of an agent
/// builder that builds on request (`factory.TOOLS = [...]`) is named when
/// no compared scope holds it, the change and the builder (the same limit
/// as the reference).
#[test]
fn a_module_wiring_the_change_into_a_builder_elsewhere_is_named() {
    let base = [
        ("pkg/__init__.py", ""),
        ("pkg/tools.py", LOOKUP),
        ("pkg/agent.py", "from agents import Agent\nfrom .tools import lookup\nsupport = Agent(name='support', tools=[lookup])\n"),
        ("pkg/factory.py", "from agents import Agent\nTOOLS = []\n\n\ndef make(tools):\n    return Agent(name='made', tools=tools)\n"),
        ("other/__init__.py", ""),
        ("other/wire.py", "from pkg import factory, tools\n\nfactory.TOOLS = [tools.lookup]\n"),
    ];
    let changed = LOOKUP.replace("return q", "return q.upper()");
    let (doc, _) = derive(&base, &[("pkg/tools.py", Some(&changed))]);
    assert_eq!(doc["scope_selection"]["scopes"], json!(["pkg"]));
    assert_eq!(
        doc["scope_selection"]["limits"],
        json!(["Modules import the change and an agent builder that no compared scope holds together, so the agents they build are not compared: other/wire.py."])
    );
}

/// The hop bound is named only where the walk stopped outside what is
/// compared: an agent within the compared root scope is read anyway.
#[test]
fn the_hop_bound_is_named_only_outside_the_compared_scopes() {
    let mut files: Vec<(String, String)> = vec![
        ("app/__init__.py".into(), String::new()),
        (
            "app/agent.py".into(),
            "from agents import Agent\nfrom .m1 import x\nsupport = Agent(name='s')\n".into(),
        ),
    ];
    for i in 1..10 {
        let next = if i < 9 {
            format!("from .m{} import x\n", i + 1)
        } else {
            String::new()
        };
        files.push((format!("app/m{i}.py"), format!("{next}x = 1\n")));
    }
    let (doc, _) = derive(
        &borrowed(&files),
        &[("app/m8.py", Some("from .m9 import x\nx = 2\n"))],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        doc["scope_selection"]["limits"],
        json!(["Imports were followed 6 hops from each changed and agent file; a longer path from the change to an agent is not established."])
    );
    assert_eq!(
        doc["scope_selection"]["reason"],
        "The change touches no OpenAI Agents SDK or Google ADK agent within the bounds read: app/m8.py is not an agent file, and is not imported by one or importing one within 6 hops."
    );
}
