//! A Google ADK agent renamed in place: the same module-level variable,
//! a new literal `name=`, is one agent renamed, in a diff and in history.

use super::support::assert_compared;
use super::support::{row, rows, Place, Repo};
use super::ADK_TOOLS;
use serde_json::{json, Value};

fn agent(name: &str, tools: &str) -> String {
    format!(
        "from google.adk.agents import Agent\nfrom .tools import lookup, refund\n\nroot_agent = Agent(name=\"{name}\", model=\"m\", instruction=\"Help.\", tools=[{tools}])\n"
    )
}

fn compare(base: &str, head: &str) -> (Value, String) {
    super::compare_agent_text(ADK_TOOLS, base, head)
}

/// Before issue 20 this was `support` removed with every tool and
/// `helpdesk` added with every tool.
#[test]
fn a_renamed_agent_compares_as_one_agent() {
    let (doc, text) = compare(
        &agent("support", "lookup"),
        &agent("helpdesk", "lookup, refund"),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("helpdesk", "refund", "added")]);
    assert_eq!(
        doc["agent_correspondence"],
        json!([{"agent_source": "app/agent.py", "base_agent": "support", "head_agent": "helpdesk", "basis": "same_variable_renamed"}])
    );
    assert_eq!(doc["summary"]["findings"][0]["renamed_from"], "support");
    assert!(text.contains("  renamed: support → helpdesk\n"), "{text}");
    assert_valid(&doc);
}

/// The published schema knows the new keys.
fn assert_valid(doc: &Value) {
    super::support::schema::assert_valid(doc);
}

#[test]
fn a_rename_alone_is_named_and_changes_no_binding() {
    let (doc, text) = compare(&agent("support", "lookup"), &agent("helpdesk", "lookup"));
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
    assert!(
        text.contains("Renamed: support → helpdesk (app/agent.py); its bindings are unchanged.\n"),
        "{text}"
    );
    assert_valid(&doc);
}

/// The old name still built elsewhere in the file is no rename.
#[test]
fn a_name_still_built_is_not_a_rename() {
    let head = format!(
        "{}support = Agent(name=\"support\", model=\"m\", instruction=\"Help.\", tools=[lookup])\n",
        agent("helpdesk", "lookup")
    );
    let (doc, _) = compare(&agent("support", "lookup"), &head);
    assert_eq!(doc.get("agent_correspondence"), None);
    assert_eq!(rows(&doc), vec![row("helpdesk", "lookup", "added")]);
}

/// History follows the agent through the rename: asked for `helpdesk`,
/// it lists what `support` gained before it was renamed.
#[test]
fn history_follows_an_agent_through_its_rename() {
    let repo = Repo::new();
    let commit = |name: &str, tools: &str, message: &str| {
        repo.commit(
            &[
                ("app/__init__.py", Some("")),
                ("app/tools.py", Some(ADK_TOOLS)),
                ("app/agent.py", Some(&agent(name, tools))),
            ],
            message,
        );
    };
    commit("support", "lookup", "start");
    commit("support", "lookup, refund", "add refund");
    commit("helpdesk", "lookup, refund", "rename");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let workspace = repo.path().to_string_lossy().into_owned();
    let output = place.client(&[
        "history",
        "--workspace",
        &workspace,
        "--json",
        "--quiet",
        "--agent",
        "helpdesk",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let doc: Value = serde_json::from_slice(&output.stdout).expect("history JSON");
    let listed: Vec<(String, Vec<String>)> = doc["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .map(|c| {
            let rows = c["rows"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| {
                    format!(
                        "{} {} {}",
                        r["change"].as_str().unwrap_or_default(),
                        r["agent"].as_str().unwrap_or_default(),
                        r["tool"].as_str().unwrap_or_default()
                    )
                })
                .collect();
            (c["subject"].as_str().unwrap_or_default().to_string(), rows)
        })
        .collect();
    assert_eq!(
        listed,
        vec![
            ("rename".to_string(), vec![]),
            (
                "add refund".to_string(),
                vec!["added support refund".to_string()]
            ),
            (
                "start".to_string(),
                vec!["added support lookup".to_string()]
            ),
        ]
    );
    assert_eq!(
        doc["commits"][0]["renamed"],
        json!([{"agent_source": "app/agent.py", "from": "support", "to": "helpdesk"}])
    );
}
