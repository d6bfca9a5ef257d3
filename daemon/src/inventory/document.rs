//! The inventory document, regrouped by agent from the comparison of the
//! empty tree with the commit (see `mod.rs`).
//!
//! ```json
//! {"inventory_schema_version": "0.1", "engine": {…},
//!  "commit": {"requested_ref", "commit", "tree"}, "status": "complete"|"partial",
//!  "applications": ["app", "svc/adk"],
//!  "agents": [{"agent", "agent_source", "location", "framework",
//!              "tools": [binding…], "handoffs": […], "sub_agents": […],
//!              "mcp_servers": […], "hosted_tools": […], "agent_tools": […],
//!              "not_read": [{"member", "field"?, "why": […]}], "limits": […]}],
//!  "counts": {"agents", "tools", …}, "limits": […]}
//! ```
//!
//! Every path is rooted (repository-relative). A binding is the diff's
//! `after` side unchanged. An agent's `limits` are the reasons confined to
//! it; the top-level `limits` are the rest (the whole application's, and
//! what deriving the applications could not read).

use super::read::{array, text, BINDING_KINDS};
use crate::paths::rooted;
use crate::scope::UNRELATED_FILES;
use serde_json::{json, Map, Value};

pub const INVENTORY_SCHEMA_VERSION: &str = "0.1";

/// The inventory document of `diff`, the comparison of the empty tree with
/// the commit.
pub fn document(diff: &Value) -> Value {
    let head = diff.get("head").unwrap_or(&Value::Null);
    // A single comparison's paths are relative to its scope; a combined
    // document's are rooted already.
    let scope = head.get("scope").and_then(Value::as_str);
    let root = |path: &str| match scope {
        Some(scope) => rooted(scope, path),
        None => path.to_string(),
    };
    let frameworks: Vec<(String, String)> = array(head, "sources")
        .iter()
        .map(|s| (root(text(s, "path")), text(s, "type").to_string()))
        .collect();
    let mut agents: Vec<Map<String, Value>> = array(head, "agents")
        .iter()
        .map(|agent| {
            let source = root(text(agent, "source"));
            let framework = frameworks
                .iter()
                .find(|(path, _)| *path == source)
                .map(|(_, kind)| kind.clone());
            new_entry(
                text(agent, "name"),
                &source,
                &root(text(agent, "location")),
                framework,
            )
        })
        .collect();
    let find = |agents: &mut Vec<Map<String, Value>>, name: &str, source: &str| -> usize {
        match agents
            .iter()
            .position(|a| a["agent"] == name && a["agent_source"] == source)
        {
            Some(at) => at,
            None => {
                // A row's agent the side's list does not hold: listed
                // with what is known of it, never dropped.
                agents.push(new_entry(name, source, source, None));
                agents.len() - 1
            }
        }
    };
    for row in array(diff, "rows") {
        match row.get("after").filter(|after| after.is_object()) {
            Some(binding) => {
                let at = find(
                    &mut agents,
                    text(binding, "agent"),
                    text(binding, "agent_source"),
                );
                push(&mut agents[at], kind_of(binding), binding.clone());
            }
            None => {
                let at = find(
                    &mut agents,
                    text(row, "agent"),
                    &root(text(row, "agent_source")),
                );
                let why: Vec<Value> = row
                    .get("uncertainty")
                    .map(|u| array(u, "head").to_vec())
                    .unwrap_or_default();
                push(
                    &mut agents[at],
                    "not_read",
                    json!({"member": text(row, "tool"), "why": why}),
                );
            }
        }
    }
    let mut placed = Vec::new();
    for gap in array(head, "coverage_gaps") {
        let (Some(name), None) = (
            gap.get("agent").and_then(Value::as_str),
            gap.get("tool").and_then(Value::as_str),
        ) else {
            continue;
        };
        let source = gap.get("source").and_then(Value::as_str).map(&root);
        let reason = text(gap, "reason");
        for agent in agents.iter_mut().filter(|a| {
            a["agent"] == name && source.as_deref().is_none_or(|s| a["agent_source"] == s)
        }) {
            // Said already as why a member was not read: not twice.
            let said = array_of(agent, "not_read")
                .iter()
                .any(|member| array(member, "why").iter().any(|why| why == reason));
            if !said {
                push_unique(agent, "limits", json!(reason));
            }
            placed.push(reason.to_string());
        }
    }
    // A combined document's side limits hold the scope selection's too,
    // each prefixed with its scope: both lists are read, once each.
    let selection = diff.get("scope_selection").unwrap_or(&Value::Null);
    let mut limits: Vec<String> = array(head, "limits")
        .iter()
        .chain(array(selection, "limits"))
        .filter_map(Value::as_str)
        .filter(|limit| !limit.contains(UNRELATED_FILES))
        .filter(|limit| !placed.iter().any(|p| limit.ends_with(p.as_str())))
        .map(str::to_string)
        .collect();
    limits.sort();
    limits.dedup();
    agents.sort_by(|a, b| {
        (text_of(a, "agent_source"), text_of(a, "agent"))
            .cmp(&(text_of(b, "agent_source"), text_of(b, "agent")))
    });
    let partial = !limits.is_empty()
        || agents
            .iter()
            .any(|a| !array_of(a, "not_read").is_empty() || !array_of(a, "limits").is_empty());
    let applications: Vec<Value> = match scope {
        Some(scope) => vec![json!(scope)],
        None => head
            .get("scopes")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
    };
    let mut counts = Map::new();
    counts.insert("agents".into(), json!(agents.len()));
    let kinds = BINDING_KINDS.iter().map(|(kind, _, _)| *kind);
    for kind in kinds.chain(["not_read"]) {
        let total: usize = agents.iter().map(|a| array_of(a, kind).len()).sum();
        counts.insert(kind.into(), json!(total));
    }
    let mut out = Map::new();
    out.insert(
        "inventory_schema_version".into(),
        json!(INVENTORY_SCHEMA_VERSION),
    );
    out.insert(
        "engine".into(),
        diff.get("engine").cloned().unwrap_or(Value::Null),
    );
    out.insert(
        "commit".into(),
        json!({
            "requested_ref": text(head, "requested_ref"),
            "commit": text(head, "compared_commit"),
            "tree": text(head, "tree"),
        }),
    );
    out.insert(
        "status".into(),
        json!(if partial { "partial" } else { "complete" }),
    );
    out.insert("applications".into(), Value::Array(applications));
    out.insert("counts".into(), Value::Object(counts));
    out.insert(
        "agents".into(),
        Value::Array(agents.into_iter().map(Value::Object).collect()),
    );
    out.insert("limits".into(), json!(limits));
    Value::Object(out)
}

/// An agent's entry with nothing bound yet.
fn new_entry(
    name: &str,
    source: &str,
    location: &str,
    framework: Option<String>,
) -> Map<String, Value> {
    let mut entry = Map::new();
    entry.insert("agent".into(), json!(name));
    entry.insert("agent_source".into(), json!(source));
    entry.insert("location".into(), json!(location));
    entry.insert("framework".into(), json!(framework));
    for (kind, _, _) in BINDING_KINDS {
        entry.insert(kind.into(), json!([]));
    }
    entry.insert("not_read".into(), json!([]));
    entry.insert("limits".into(), json!([]));
    entry
}

/// Which list of an agent entry a binding belongs to.
fn kind_of(binding: &Value) -> &'static str {
    match text(binding, "edge_type") {
        "handoff" => return "handoffs",
        "subagent" => return "sub_agents",
        _ => {}
    }
    match binding.get("object").map(|o| text(o, "kind")) {
        Some("mcp_server") => "mcp_servers",
        Some("hosted_tool") => "hosted_tools",
        Some("agent_tool") => "agent_tools",
        _ => "tools",
    }
}

fn push(agent: &mut Map<String, Value>, list: &str, value: Value) {
    if let Some(Value::Array(items)) = agent.get_mut(list) {
        items.push(value);
    }
}

fn push_unique(agent: &mut Map<String, Value>, list: &str, value: Value) {
    if let Some(Value::Array(items)) = agent.get_mut(list) {
        if !items.contains(&value) {
            items.push(value);
        }
    }
}

fn text_of<'a>(entry: &'a Map<String, Value>, key: &str) -> &'a str {
    entry.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn array_of<'a>(entry: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    entry
        .get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}
