//! End to end (issue 17, item 7): scope derivation in the shapes real
//! repositories write. A module that builds its agent through an agent
//! file's factory inside one of its own functions (`main()`) is an agent
//! file, so a change it imports is related to it.

mod support;

use support::{Place, Repo};

const FACTORY: &str = "from agents import Agent\n\n\ndef make_agent(name, tools):\n    return Agent(name=name, tools=tools)\n";
const TOOLS: &str = "from agents import function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n";
const RUN: &str = "from app.factory import make_agent\nfrom app.tools import lookup\n\n\ndef main():\n    agent = make_agent(\"support\", [lookup])\n    return agent\n";

#[test]
fn a_module_that_calls_a_factory_in_main_is_an_agent_file() {
    let repo = Repo::new();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/factory.py", Some(FACTORY)),
            ("app/tools.py", Some(TOOLS)),
            ("app/run.py", Some(RUN)),
        ],
        "base",
    );
    repo.commit(
        &[(
            "app/tools.py",
            Some(&TOOLS.replace("return q", "return q.strip()")),
        )],
        "head",
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--base", "HEAD~1", "--head", "HEAD"]);
    // Before: "app/tools.py is not an agent file, and is not imported by
    // one …": nothing related.
    assert_eq!(
        doc["scope_selection"]["scopes"],
        serde_json::json!(["app"]),
        "{}",
        doc["scope_selection"]
    );
    let limits = doc["scope_selection"]["limits"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        !limits
            .iter()
            .any(|l| l.as_str().is_some_and(|l| l.contains("app/tools.py"))),
        "{limits:?}"
    );
}

#[test]
fn an_agent_file_replaced_by_a_link_is_judged_on_each_side() {
    // Before: "The change could not be related …: app/agent.py (it is a
    // link, which is not read)", nothing compared. The reference compares
    // `app` from the base's agent file, as here.
    let agent = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\nsupport = Agent(name=\"support\", tools=[lookup])\n";
    let repo = Repo::new();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/agent.py", Some(agent)),
            ("shared/agent_impl.py", Some(agent)),
        ],
        "base",
    );
    let link = repo.path().join("app/agent.py");
    std::fs::remove_file(&link).expect("remove");
    std::os::unix::fs::symlink("../shared/agent_impl.py", &link).expect("symlink");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "link"]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--base", "HEAD~1", "--head", "HEAD"]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(doc["scope_selection"]["scopes"], serde_json::json!(["app"]));
    assert_eq!(
        doc["scope_selection"]["limits"],
        serde_json::json!(["Changed files are not related to a compared agent, so their effect is not compared: app/agent.py (it is a link, which is not read)."])
    );
    let rows: Vec<(String, String, String)> = support::rows(&doc);
    assert_eq!(
        rows,
        vec![support::row("support", "lookup", "not_established")]
    );
}
