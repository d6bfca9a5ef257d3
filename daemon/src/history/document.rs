//! A history answer's JSON document and its text.

use super::{HistoryRequest, HISTORY_SCHEMA_VERSION};
use crate::render::{sanitize::sanitize, text::one_line};
use gix::ObjectId;
use serde_json::{json, Value};

#[allow(clippy::too_many_arguments)]
pub(super) fn history_document(
    request: &HistoryRequest,
    until_ref: &str,
    until: ObjectId,
    since: Option<ObjectId>,
    scope: &str,
    read: usize,
    truncated: bool,
    commits: Vec<Value>,
) -> Value {
    let mut limits: Vec<String> = Vec::new();
    if truncated {
        limits.push(format!(
            "History was read for the newest {read} commits only; older commits are not compared."
        ));
    }
    let mut doc = json!({
        "history_schema_version": HISTORY_SCHEMA_VERSION,
        "until": {"requested_ref": until_ref, "commit": until.to_string()},
        "since": since.map(|s| json!({"requested_ref": request.since, "commit": s.to_string()})),
        "scope": scope,
        "filters": {"agent": request.agent, "tool": request.tool},
        "commits_read": read,
        "commits": commits,
        "limits": limits,
        "advisory": crate::compare::document::ADVISORY_LIMITS[2],
    });
    sanitize(&mut doc);
    doc
}

/// How a commit's text names the agent of a row (or a reordered list):
/// by name, and with its file when another agent of the commit shares the
/// name (`agent (examples/b.py)`).
fn agent_names(commit: &Value) -> impl Fn(&Value) -> String {
    let entries: Vec<(String, String)> = commit["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(
            commit["tool_list_stability"]["order_changed"]
                .as_array()
                .into_iter()
                .flatten(),
        )
        .map(|entry| {
            (
                entry_agent(entry).to_string(),
                entry_source(entry).to_string(),
            )
        })
        .collect();
    move |entry: &Value| {
        let agent = entry_agent(entry);
        let source = entry_source(entry);
        let shared = entries.iter().any(|(a, s)| a == agent && s != source);
        if shared && !source.is_empty() {
            format!("{agent} ({source})")
        } else {
            agent.to_string()
        }
    }
}

fn entry_agent(entry: &Value) -> &str {
    entry["agent"].as_str().unwrap_or_default()
}

/// A row's agent source (its after side's, else its before side's, else
/// its own), or a reordered list's.
fn entry_source(entry: &Value) -> &str {
    ["after", "before"]
        .iter()
        .filter_map(|side| entry[*side]["agent_source"].as_str())
        .chain(entry["agent_source"].as_str())
        .find(|s| !s.is_empty())
        .unwrap_or_default()
}

/// The text of a history answer: a line per commit that changed a
/// binding, its rows under it.
pub(super) fn history_text(doc: &Value) -> String {
    let commits = doc["commits"].as_array().map_or(&[][..], Vec::as_slice);
    let mut out = format!(
        "Agent history: {} commit{} changed agent bindings ({} read, scope {})\n",
        commits.len(),
        if commits.len() == 1 { "" } else { "s" },
        doc["commits_read"],
        one_line(doc["scope"].as_str().unwrap_or("."))
    );
    for commit in commits {
        let id: String = commit["commit"]
            .as_str()
            .unwrap_or_default()
            .chars()
            .take(12)
            .collect();
        out.push_str(&one_line(&format!(
            "{id} {} {}: {}",
            commit["date"].as_str().unwrap_or_default(),
            commit["author"].as_str().unwrap_or_default(),
            commit["subject"].as_str().unwrap_or_default()
        )));
        out.push('\n');
        let named = agent_names(commit);
        for row in commit["rows"].as_array().into_iter().flatten() {
            out.push_str(&one_line(&format!(
                "  {}  {} → {}",
                row["change"].as_str().unwrap_or_default().to_uppercase(),
                named(row),
                row["tool"].as_str().unwrap_or_default()
            )));
            out.push('\n');
            // A gate that moved is what the step did to the tool.
            for gate in row["gate_changes"].as_array().into_iter().flatten() {
                out.push_str(&one_line(&format!(
                    "    gate {}",
                    gate["text"].as_str().unwrap_or_default()
                )));
                out.push('\n');
            }
        }
        for declared in commit["declared_effects"].as_array().into_iter().flatten() {
            let server = match declared["server"].as_str() {
                Some(name) => format!("MCP server '{name}'"),
                None => "MCP server".to_string(),
            };
            out.push_str(&one_line(&format!(
                "  DECLARED  {} ({server}, {}): {} [{}]",
                declared["tool"].as_str().unwrap_or_default(),
                declared["source"].as_str().unwrap_or_default(),
                declared["text"].as_str().unwrap_or_default(),
                declared["change"]
                    .as_str()
                    .unwrap_or_default()
                    .replace('_', " ")
            )));
            out.push('\n');
        }
        for reason in commit["not_read"].as_array().into_iter().flatten() {
            out.push_str(&one_line(&format!(
                "  NOT READ  {}",
                reason.as_str().unwrap_or_default()
            )));
            out.push('\n');
        }
        for renamed in commit["renamed"].as_array().into_iter().flatten() {
            out.push_str(&one_line(&format!(
                "  RENAMED  {} → {} ({})",
                renamed["from"].as_str().unwrap_or_default(),
                renamed["to"].as_str().unwrap_or_default(),
                renamed["agent_source"].as_str().unwrap_or_default()
            )));
            out.push('\n');
        }
        if let Some(changes) = commit["tool_list_stability"]["order_changed"].as_array() {
            for change in changes {
                let list = |key: &str| {
                    change[key]
                        .as_array()
                        .map(|l| {
                            l.iter()
                                .filter_map(Value::as_str)
                                .collect::<Vec<_>>()
                                .join(", ")
                        })
                        .unwrap_or_default()
                };
                out.push_str(&one_line(&format!(
                    "  order changed (not a binding change): {}: {} → {}",
                    named(change),
                    list("before"),
                    list("after")
                )));
                out.push('\n');
            }
        }
    }
    for caveat in doc["tool_list_stability"]["caveats"]
        .as_array()
        .into_iter()
        .flatten()
    {
        out.push_str(&one_line(&format!(
            "tool list may differ between calls: {} ({}): {}",
            caveat["agent"].as_str().unwrap_or_default(),
            caveat["agent_source"].as_str().unwrap_or_default(),
            caveat["why"].as_str().unwrap_or_default()
        )));
        out.push('\n');
    }
    for limit in doc["limits"].as_array().into_iter().flatten() {
        out.push_str(&one_line(&format!(
            "limit: {}",
            limit.as_str().unwrap_or_default()
        )));
        out.push('\n');
    }
    out.push_str(doc["advisory"].as_str().unwrap_or_default());
    out.push('\n');
    out
}
