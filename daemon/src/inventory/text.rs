//! The inventory as text: a header, then one block per agent with each of
//! its bindings as a diff's text shows a binding side
//! (`render::text::binding_block`), what was not read, and its limits.

use super::read::{array, counted, text, BINDING_KINDS};
use crate::render::text::{binding_block, one_line};
use serde_json::Value;

pub fn render(document: &Value) -> String {
    let mut out = String::new();
    let commit = document.get("commit").unwrap_or(&Value::Null);
    let short: String = text(commit, "commit").chars().take(12).collect();
    out.push_str(&format!(
        "Agent inventory: {} ({short}, {})\n",
        text(document, "status"),
        one_line(text(commit, "requested_ref"))
    ));
    let applications: Vec<&str> = array(document, "applications")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if !applications.is_empty() {
        out.push_str(&format!(
            "applications: {}\n",
            one_line(&applications.join(", "))
        ));
    }
    out.push_str(&format!("{}\n", counts_line(document)));
    for agent in array(document, "agents") {
        out.push('\n');
        let framework = match text(agent, "framework") {
            "" => String::new(),
            framework => format!(", {framework}"),
        };
        out.push_str(&format!(
            "{} ({}{framework})\n",
            one_line(text(agent, "agent")),
            one_line(text(agent, "location"))
        ));
        let mut empty = true;
        for (kind, label, _) in BINDING_KINDS {
            for binding in array(agent, kind) {
                out.push_str(&binding_block(label, binding, 2));
                empty = false;
            }
        }
        for member in array(agent, "not_read") {
            let why: Vec<&str> = array(member, "why")
                .iter()
                .filter_map(Value::as_str)
                .collect();
            out.push_str(&format!(
                "  not read: {}: {}\n",
                one_line(text(member, "member")),
                one_line(&why.join(" "))
            ));
            empty = false;
        }
        for limit in array(agent, "limits").iter().filter_map(Value::as_str) {
            out.push_str(&format!("  limit: {}\n", one_line(limit)));
        }
        if empty {
            out.push_str("  binds nothing\n");
        }
    }
    let limits: Vec<&str> = array(document, "limits")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if !limits.is_empty() {
        out.push_str("\nNot read, and not tied to one agent:\n");
        for limit in limits {
            out.push_str(&format!("  - {}\n", one_line(limit)));
        }
    }
    out
}

/// `3 agents: 5 tools, 1 handoff, 2 MCP servers; 1 member not read`.
pub(super) fn counts_line(document: &Value) -> String {
    let counts = document.get("counts").unwrap_or(&Value::Null);
    let count = |key: &str| counts.get(key).and_then(Value::as_u64).unwrap_or(0);
    let bound: Vec<String> = BINDING_KINDS
        .iter()
        .filter(|(kind, _, _)| count(kind) > 0)
        .map(|(kind, one, several)| counted(count(kind), one, several))
        .collect();
    let mut line = counted(count("agents"), "agent", "agents");
    if !bound.is_empty() {
        line.push_str(&format!(": {}", bound.join(", ")));
    }
    let not_read = count("not_read");
    if not_read > 0 {
        line.push_str(&format!(
            "; {} not read",
            counted(not_read, "member", "members")
        ));
    }
    line
}
