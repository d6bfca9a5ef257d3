//! Declared effects against observed reach (issue 22): what the application
//! says of a tool its own MCP server registers (`readOnlyHint=True`,
//! `destructiveHint=False`), held against what the tool's function reaches.
//!
//! Rules, each sound for the reason given:
//! - A hint is checked only where the reach can refute it: `readOnlyHint`
//!   set to `True` by any write, delete, process or message the reach
//!   shows; `destructiveHint` set to `False` by a delete. A contradiction
//!   is established by the one call that shows it, whatever else is unread.
//! - A checked hint the reach does not refute is confirmed only when the
//!   read is complete: any call not read, or a function not located, makes
//!   the check `not_established`, with the reasons. `idempotentHint` and
//!   `openWorldHint` are stated, never checked (no reach fact decides them).
//! - Only declarations in the repository are read, so nothing a remote
//!   server says can relax a check; and a declaration never changes a row.
//! - Between two sides a tool is named when its check differs, spelled
//!   without lines (a moved line is no change): `new` and `changed`
//!   contradictions, `resolved` ones, and checks that became
//!   `not_established`.

use crate::frameworks::mcp_servers::ServerTool;
use crate::graph::{DeclaredTool, SideGraph};
use crate::paths::rooted;
use crate::reach::model::{Place, Reach};
use serde_json::{json, Map, Value};

/// One call that refutes a hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contradiction {
    /// `readOnlyHint` or `destructiveHint`.
    pub hint: &'static str,
    /// `writes`, `deletes`, `runs a process` or `sends a message`.
    pub observed: &'static str,
    /// The call as the reach spells it: `POST https://…`, `sqlite3 cursor.execute`.
    pub call: String,
    pub at: Place,
}

impl Contradiction {
    /// `declared read-only, but writes: POST https://… at app/server.py:12`.
    pub fn text(&self, scope: &str) -> String {
        let declared = match self.hint {
            "readOnlyHint" => "declared read-only",
            _ => "declared not destructive",
        };
        format!(
            "{declared}, but {}: {} at {}:{}",
            self.observed,
            self.call,
            rooted(scope, &self.at.path),
            self.at.line
        )
    }

    /// What makes two sides' contradictions the same: not the line.
    fn key(&self) -> (&str, &str, &str, &str) {
        (self.hint, self.observed, &self.call, &self.at.path)
    }
}

/// A declaration held against the reach of one side.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Check {
    pub contradictions: Vec<Contradiction>,
    /// Why a checked hint is neither refuted nor confirmed.
    pub not_read: Vec<NotRead>,
}

/// One reason a check is not established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotRead {
    /// The call not read, if the reason is one.
    pub at: Option<Place>,
    pub why: String,
}

impl NotRead {
    /// `a call not read at app/server.py:11: …`, or the reason itself.
    pub fn text(&self, scope: &str) -> String {
        match &self.at {
            Some(at) => format!(
                "a call not read at {}:{}: {}",
                rooted(scope, &at.path),
                at.line,
                self.why
            ),
            None => self.why.clone(),
        }
    }

    /// What makes two sides' reasons the same: not the line.
    fn key(&self) -> (Option<&str>, &str) {
        (self.at.as_ref().map(|a| a.path.as_str()), &self.why)
    }
}

fn plain(why: String) -> NotRead {
    NotRead { at: None, why }
}

impl Check {
    pub fn verdict(&self) -> &'static str {
        if !self.contradictions.is_empty() {
            "contradicted"
        } else if !self.not_read.is_empty() {
            "not_established"
        } else {
            "consistent"
        }
    }

    fn same_as(&self, other: &Check) -> bool {
        self.contradictions
            .iter()
            .map(Contradiction::key)
            .eq(other.contradictions.iter().map(Contradiction::key))
            && self
                .not_read
                .iter()
                .map(NotRead::key)
                .eq(other.not_read.iter().map(NotRead::key))
    }
}

/// Holds one tool's declaration against its reach.
pub fn check(tool: &DeclaredTool) -> Check {
    let declaration = &tool.declaration;
    let read_only = declaration.hint("readOnlyHint") == Some(true);
    let not_destructive = declaration.hint("destructiveHint") == Some(false);
    let mut check = Check {
        not_read: declaration.unread.iter().cloned().map(plain).collect(),
        ..Check::default()
    };
    if !read_only && !not_destructive {
        return check;
    }
    let Some(reach) = &tool.reach else {
        check.not_read.push(plain(format!(
            "the function {} could not be located for reading",
            declaration.tool
        )));
        return check;
    };
    for (observed, call, at) in refuting_calls(reach) {
        let hint = if read_only {
            "readOnlyHint"
        } else if observed == "deletes" {
            "destructiveHint"
        } else {
            continue;
        };
        let contradiction = Contradiction {
            hint,
            observed,
            call,
            at,
        };
        if !check
            .contradictions
            .iter()
            .any(|c| c.key() == contradiction.key())
        {
            check.contradictions.push(contradiction);
        }
    }
    for limit in &reach.limits {
        check.not_read.push(NotRead {
            at: Some(limit.at.clone()),
            why: limit.why.clone(),
        });
    }
    if reach.more_limits > 0 {
        check.not_read.push(plain(format!(
            "and {} more calls not read",
            reach.more_limits
        )));
    }
    check
}

/// `(observed, call, at)` for every call of the reach that is not a read.
fn refuting_calls(reach: &Reach) -> Vec<(&'static str, String, Place)> {
    let mut found = Vec::new();
    for call in &reach.calls {
        let observed = match call.effect() {
            Some("write") => "writes",
            Some("destructive") => "deletes",
            _ => continue,
        };
        let method = match (&call.graphql, &call.method) {
            (Some(operation), _) => format!("GraphQL {operation}"),
            (None, Some(method)) => method.clone(),
            (None, None) => continue,
        };
        found.push((observed, format!("{method} {}", call.url), call.at.clone()));
    }
    for effect in &reach.effects {
        let observed = match effect.claim() {
            Some("write") => "writes",
            Some("code_execution") => "runs a process",
            Some("external_communication") => "sends a message",
            _ => continue,
        };
        let mut call = format!("{} {}", effect.library, effect.call);
        if let Some(statement) = &effect.statement {
            call.push_str(&format!(" ({statement})"));
        }
        found.push((observed, call, effect.at.clone()));
    }
    found
}

/// One tool whose check differs between the sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredChange {
    pub source: String,
    pub declaration: ServerTool,
    /// `new`, `changed`, `resolved` or `not_established`.
    pub change: &'static str,
    /// `None`: the side has no such declared tool.
    pub before: Option<Check>,
    pub after: Option<Check>,
}

/// The declared tools whose check differs between base and head, in the
/// head's order (then the base's).
pub fn declared_changes(base: &SideGraph, head: &SideGraph) -> Vec<DeclaredChange> {
    let key = |t: &DeclaredTool| {
        (
            t.source.clone(),
            t.declaration.server_variable.clone(),
            t.declaration.tool.clone(),
        )
    };
    fn find<'g>(
        side: &'g SideGraph,
        k: &(String, String, String),
        key: impl Fn(&DeclaredTool) -> (String, String, String),
    ) -> Option<&'g DeclaredTool> {
        side.declared_tools.iter().find(|t| key(t) == *k)
    }
    let mut changes = Vec::new();
    for tool in &head.declared_tools {
        let after = check(tool);
        let before_tool = find(base, &key(tool), key);
        let before = before_tool.map(check);
        if let Some(change) = change_of(before.as_ref(), &after) {
            changes.push(DeclaredChange {
                source: tool.source.clone(),
                declaration: tool.declaration.clone(),
                change,
                before,
                after: Some(after),
            });
        }
    }
    for tool in &base.declared_tools {
        if find(head, &key(tool), key).is_some() {
            continue;
        }
        let before = check(tool);
        if before.verdict() == "contradicted" {
            changes.push(DeclaredChange {
                source: tool.source.clone(),
                declaration: tool.declaration.clone(),
                change: "resolved",
                before: Some(before),
                after: None,
            });
        }
    }
    changes
}

fn change_of(before: Option<&Check>, after: &Check) -> Option<&'static str> {
    if before.is_some_and(|b| b.same_as(after)) {
        return None;
    }
    let was = before.map_or("absent", Check::verdict);
    match (was, after.verdict()) {
        ("contradicted", "contradicted") => Some("changed"),
        (_, "contradicted") => Some("new"),
        (_, "not_established") => Some("not_established"),
        ("contradicted", _) => Some("resolved"),
        _ => None,
    }
}

/// `declared_effects[]` of the document: each change with its paths rooted
/// by the scope of the side it is read from (the base's for a tool the
/// head no longer declares).
pub fn declared_effects_json(
    changes: &[DeclaredChange],
    base_scope: &str,
    head_scope: &str,
) -> Value {
    Value::Array(
        changes
            .iter()
            .map(|c| {
                let scope = if c.after.is_some() {
                    head_scope
                } else {
                    base_scope
                };
                change_object(c, scope)
            })
            .collect(),
    )
}

fn change_object(change: &DeclaredChange, scope: &str) -> Value {
    let declaration = &change.declaration;
    let mut declared = Map::new();
    for hint in &declaration.hints {
        declared.insert(hint.hint.clone(), json!(hint.value));
    }
    let side = |check: &Option<Check>| match check {
        None => Value::Null,
        Some(check) => json!({
            "verdict": check.verdict(),
            "contradictions": check.contradictions.iter().map(|c| json!({
                "hint": c.hint,
                "observed": c.observed,
                "call": c.call,
                "at": format!("{}:{}", rooted(scope, &c.at.path), c.at.line),
                "text": c.text(scope),
            })).collect::<Vec<_>>(),
            "not_read": check.not_read.iter().map(|n| n.text(scope)).collect::<Vec<_>>(),
        }),
    };
    json!({
        "source": rooted(scope, &change.source),
        "server": declaration.server_name,
        "server_variable": declaration.server_variable,
        "tool": declaration.tool,
        "declared_at": format!("{}:{}", rooted(scope, &change.source), declaration.declared_line),
        "declared": Value::Object(declared),
        "change": change.change,
        "before": side(&change.before),
        "after": side(&change.after),
        "text": change_text(change, scope),
    })
}

/// One line for a change: its first contradiction, or what became of it.
pub fn change_text(change: &DeclaredChange, scope: &str) -> String {
    let first = |check: &Option<Check>| {
        check
            .as_ref()
            .and_then(|c| c.contradictions.first())
            .map(|c| c.text(scope))
    };
    match change.change {
        "new" | "changed" => first(&change.after).unwrap_or_default(),
        "resolved" => match first(&change.before) {
            Some(before) => format!("no longer: {before}"),
            None => "no longer contradicted".to_string(),
        },
        _ => {
            let reason = change
                .after
                .as_ref()
                .and_then(|c| c.not_read.first())
                .map(|n| n.text(scope))
                .unwrap_or_default();
            format!("the declaration could not be checked: {reason}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frameworks::mcp_servers::DeclaredHint;
    use crate::reach::model::{HttpCall, ReachLimit};

    fn tool(hints: &[(&str, bool)], reach: Option<Reach>) -> DeclaredTool {
        DeclaredTool {
            source: "server.py".into(),
            declaration: ServerTool {
                server_variable: "mcp".into(),
                server_name: Some("notes".into()),
                tool: "save".into(),
                function_line: 5,
                declared_line: 5,
                annotated: true,
                hints: hints
                    .iter()
                    .map(|(h, v)| DeclaredHint {
                        hint: h.to_string(),
                        value: *v,
                    })
                    .collect(),
                unread: Vec::new(),
            },
            reach,
        }
    }

    fn post(method: &str) -> Reach {
        Reach {
            calls: vec![HttpCall {
                library: "httpx".into(),
                method: Some(method.into()),
                url: "https://api.example.com/notes".into(),
                graphql: None,
                at: Place {
                    path: "server.py".into(),
                    line: 9,
                },
                via: Vec::new(),
                fields: Vec::new(),
                credentials: Vec::new(),
                model_supplied: Vec::new(),
            }],
            ..Reach::default()
        }
    }

    #[test]
    fn a_read_only_tool_that_posts_is_contradicted_with_the_call() {
        let found = check(&tool(&[("readOnlyHint", true)], Some(post("POST"))));
        assert_eq!(found.verdict(), "contradicted");
        assert_eq!(
            found.contradictions[0].text("app"),
            "declared read-only, but writes: POST https://api.example.com/notes at app/server.py:9"
        );
        // A GET confirms it, when nothing is left unread.
        let read = check(&tool(&[("readOnlyHint", true)], Some(post("GET"))));
        assert_eq!(read.verdict(), "consistent");
    }

    #[test]
    fn not_destructive_is_refuted_by_a_delete_only() {
        let hints = [("readOnlyHint", false), ("destructiveHint", false)];
        assert_eq!(
            check(&tool(&hints, Some(post("POST")))).verdict(),
            "consistent"
        );
        let deleted = check(&tool(&hints, Some(post("DELETE"))));
        assert_eq!(deleted.contradictions[0].hint, "destructiveHint");
        assert_eq!(deleted.contradictions[0].observed, "deletes");
    }

    #[test]
    fn an_unread_call_leaves_a_read_only_claim_unestablished() {
        let mut reach = post("GET");
        reach.limits.push(ReachLimit {
            at: Place {
                path: "server.py".into(),
                line: 11,
            },
            why: "call of store.save is not read".into(),
        });
        let found = check(&tool(&[("readOnlyHint", true)], Some(reach)));
        assert_eq!(found.verdict(), "not_established");
        let reasons: Vec<String> = found.not_read.iter().map(|n| n.text(".")).collect();
        assert_eq!(
            reasons,
            vec!["a call not read at server.py:11: call of store.save is not read"]
        );
        // Nothing checkable: the limits do not matter.
        let open = check(&tool(&[("openWorldHint", false)], Some(post("POST"))));
        assert_eq!(open.verdict(), "consistent");
    }

    #[test]
    fn sides_differ_by_what_the_check_finds_not_by_lines() {
        let base = SideGraph {
            declared_tools: vec![tool(&[("readOnlyHint", true)], Some(post("GET")))],
            ..SideGraph::default()
        };
        let mut moved = post("POST");
        let head = SideGraph {
            declared_tools: vec![tool(&[("readOnlyHint", true)], Some(moved.clone()))],
            ..SideGraph::default()
        };
        let changes = declared_changes(&base, &head);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].change, "new");
        moved.calls[0].at.line = 30;
        let later = SideGraph {
            declared_tools: vec![tool(&[("readOnlyHint", true)], Some(moved))],
            ..SideGraph::default()
        };
        assert!(declared_changes(&head, &later).is_empty());
        let resolved = declared_changes(&head, &base);
        assert_eq!(resolved[0].change, "resolved");
        assert_eq!(
            change_text(&resolved[0], "."),
            "no longer: declared read-only, but writes: POST https://api.example.com/notes at server.py:9"
        );
    }
}
