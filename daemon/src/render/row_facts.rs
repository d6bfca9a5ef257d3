//! What the CI renderings (markdown, SARIF, GitHub annotations) read off
//! one row: who and what it is about, which kind of binding, where it is
//! bound. Read from the row as the document holds it, never recomputed.

use crate::json_fields::text;
use serde_json::Value;

/// Which commit a location's line is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commit {
    Base,
    Head,
}

impl Commit {
    pub fn name(self) -> &'static str {
        match self {
            Commit::Base => "base",
            Commit::Head => "head",
        }
    }
}

/// Where a row's binding is listed: a rooted path, and its line when the
/// document gives one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindingLocation {
    pub path: String,
    pub line: Option<u64>,
    /// The head's binding when the row has one, else the base's (a removed
    /// binding is only in the base commit).
    pub commit: Commit,
}

/// One row, as the CI renderings name it.
#[derive(Debug, Clone)]
pub struct RowFacts<'a> {
    /// Its index in `rows`, as the summary names it.
    pub index: usize,
    pub row: &'a Value,
    pub agent: &'a str,
    /// Rooted (the side's `agent_source`) when a side gives it, else the
    /// row's own (scope-relative in a single document).
    pub agent_source: &'a str,
    pub tool: &'a str,
    /// `added`, `removed`, `changed` or `not_established`.
    pub change: &'a str,
    /// What a `not_established` row would be without its uncertainty.
    pub candidate_change: Option<&'a str>,
    /// `tool`, `handoff`, `subagent`, or an object's kind (`mcp_server`,
    /// `hosted_tool`, `agent_tool`, `tool_class`, `imported_tool`, `object`).
    pub kind: &'static str,
    pub location: Option<BindingLocation>,
}

impl RowFacts<'_> {
    /// The uncertainty reasons, base side first.
    pub fn uncertainty(&self) -> Vec<&str> {
        ["base", "head"]
            .iter()
            .filter_map(|side| self.row.get("uncertainty")?.get(side)?.as_array())
            .flatten()
            .filter_map(Value::as_str)
            .collect()
    }

    /// The row's fixed `why` sentence.
    pub fn why(&self) -> &str {
        text(self.row, "why")
    }

    pub fn review_question(&self) -> &str {
        text(self.row, "review_question")
    }
}

/// The document's top-level rows (rooted paths in a combined document).
pub fn rows(doc: &Value) -> Vec<RowFacts<'_>> {
    doc.get("rows")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .enumerate()
        .map(|(index, row)| row_facts(index, row))
        .collect()
}

/// A side when it is a binding (not null).
fn side<'a>(row: &'a Value, key: &str) -> Option<&'a Value> {
    row.get(key).filter(|s| s.is_object())
}

fn row_facts(index: usize, row: &Value) -> RowFacts<'_> {
    let head = side(row, "after").map(|s| (s, Commit::Head));
    let base = side(row, "before").map(|s| (s, Commit::Base));
    let shown = head.or(base);
    let agent_source = shown
        .and_then(|(s, _)| s.get("agent_source").and_then(Value::as_str))
        .unwrap_or_else(|| text(row, "agent_source"));
    RowFacts {
        index,
        row,
        agent: text(row, "agent"),
        agent_source,
        tool: text(row, "tool"),
        change: text(row, "change"),
        candidate_change: row.get("candidate_change").and_then(Value::as_str),
        kind: shown.map_or("binding", |(s, _)| binding_kind(s)),
        location: shown.and_then(|(s, commit)| location(s, commit)),
    }
}

/// The kind of what a side binds: its edge type for handoffs and
/// sub-agents, its object's kind for an object tool, else a tool.
fn binding_kind(side: &Value) -> &'static str {
    match side.get("edge_type").and_then(Value::as_str) {
        Some("handoff") => return "handoff",
        Some("subagent") => return "subagent",
        _ => {}
    }
    match side.get("object").filter(|o| o.is_object()) {
        None => "tool",
        Some(object) => match object.get("kind").and_then(Value::as_str) {
            Some("mcp_server") => "mcp_server",
            Some("hosted_tool") => "hosted_tool",
            Some("agent_tool") => "agent_tool",
            Some("tool_class") => "tool_class",
            Some("imported") => "imported_tool",
            _ => "object",
        },
    }
}

/// `binding_location` (`file:line`, `file:None` or `file`) read apart; a
/// side without one is located at its agent's file.
fn location(side: &Value, commit: Commit) -> Option<BindingLocation> {
    let at = side
        .get("binding_location")
        .and_then(Value::as_str)
        .filter(|at| !at.is_empty());
    let Some(at) = at else {
        let source = side.get("agent_source").and_then(Value::as_str)?;
        return (!source.is_empty()).then(|| BindingLocation {
            path: source.to_string(),
            line: None,
            commit,
        });
    };
    let (path, line) = split_location(at);
    Some(BindingLocation {
        path: path.to_string(),
        line,
        commit,
    })
}

/// `app/agent.py:24` → (`app/agent.py`, 24); a missing or unreadable line
/// (`:None`, `:0`) is none, and the path keeps everything before it.
pub fn split_location(at: &str) -> (&str, Option<u64>) {
    match at.rsplit_once(':') {
        Some((path, line)) if !path.is_empty() => match line.parse::<u64>() {
            Ok(n) if n >= 1 => (path, Some(n)),
            Ok(_) => (path, None),
            Err(_) if line == "None" => (path, None),
            Err(_) => (at, None),
        },
        _ => (at, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn locations_split_at_the_last_colon_only_for_a_line() {
        assert_eq!(
            split_location("app/agent.py:24"),
            ("app/agent.py", Some(24))
        );
        assert_eq!(split_location("app/agent.py:None"), ("app/agent.py", None));
        assert_eq!(split_location("app/agent.py"), ("app/agent.py", None));
        assert_eq!(split_location("a:b/agent.py"), ("a:b/agent.py", None));
        assert_eq!(split_location("a:b/agent.py:3"), ("a:b/agent.py", Some(3)));
        assert_eq!(split_location(":7"), (":7", None));
    }

    #[test]
    fn a_removed_row_is_located_in_the_base_and_kinds_are_read_from_sides() {
        let doc = json!({"rows": [
            {"agent": "a", "agent_source": "agent.py", "tool": "t", "change": "removed",
             "candidate_change": null,
             "before": {"agent_source": "app/agent.py", "binding_location": "app/agent.py:9", "edge_type": "direct_tool"},
             "after": null},
            {"agent": "a", "agent_source": "agent.py", "tool": "handoff:agent.py:b", "change": "added",
             "after": {"agent_source": "app/agent.py", "binding_location": "app/agent.py:4", "edge_type": "handoff"}},
            {"agent": "a", "tool": "search", "change": "not_established", "candidate_change": "added",
             "uncertainty": {"head": ["r1"], "base": ["r0"]},
             "after": {"agent_source": "app/agent.py", "edge_type": "direct_tool", "object": {"kind": "mcp_server"}}},
            {"agent": "a", "tool": "x", "change": "not_established", "before": null, "after": null}
        ]});
        let rows = rows(&doc);
        let removed = &rows[0];
        assert_eq!(removed.kind, "tool");
        assert_eq!(removed.agent_source, "app/agent.py");
        let at = removed.location.clone();
        assert_eq!(at.as_ref().map(|l| l.commit), Some(Commit::Base));
        assert_eq!(at.and_then(|l| l.line), Some(9));
        assert_eq!(rows[1].kind, "handoff");
        assert_eq!(rows[2].kind, "mcp_server");
        assert_eq!(rows[2].uncertainty(), vec!["r0", "r1"]);
        assert_eq!(rows[2].candidate_change, Some("added"));
        let unlined = rows[2].location.clone();
        assert_eq!(
            unlined.map(|l| (l.path, l.line)),
            Some(("app/agent.py".into(), None))
        );
        assert_eq!(rows[3].kind, "binding");
        assert!(rows[3].location.is_none());
    }
}
