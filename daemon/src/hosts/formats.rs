//! A host comparison as a pull-request comment (markdown), a SARIF 2.1.0
//! log and GitHub Actions annotations (issue 42, item 4), as the
//! application rows are. Every repository-derived value passes the
//! one-line filter first (`render::text::one_line`): a rule or server
//! name cannot forge a line, a table cell or a workflow command.

use super::compare::HostComparison;
use super::diff::HostRow;
use super::document::{question, Sides};
use super::label;
use crate::render::github::{escape_data, escape_property};
use crate::render::sarif::SCHEMA_URI;
use crate::render::text::one_line;
use serde_json::{json, Value};
use std::fmt::Write;

/// GitHub's limit on a comment's characters, less room for the notice.
const MAX_COMMENT_CHARS: usize = 65_000;

/// The rows as a markdown comment: a table, then what was read.
pub fn markdown(comparison: &HostComparison, sides: &Sides) -> String {
    let mut out = String::from("### shipgate: coding-agent host grants\n\n");
    let _ = writeln!(
        out,
        "Base `{}` ({}) → {}.\n",
        cell(&sides.base_ref),
        short(&sides.base_commit),
        if sides.head_is_snapshot {
            cell(&sides.head_label)
        } else {
            format!(
                "`{}` ({})",
                cell(&sides.head_label),
                short(&sides.head_commit)
            )
        }
    );
    if !comparison.incomparable.is_empty() {
        let _ = writeln!(
            out,
            "> **Not comparable:** {}. A source that does not read on a side is never compared.\n",
            comparison.incomparable.join(", ")
        );
    }
    if comparison.rows.is_empty() {
        out.push_str("No static host-grant changes detected. No verdict is implied.\n");
    } else {
        let widenings = comparison.rows.iter().filter(|r| r.expands).count();
        let _ = writeln!(
            out,
            "**{} change(s)**, {widenings} widening what the agent may do (⚠).\n",
            comparison.rows.len()
        );
        out.push_str("| | Severity | Change | Source | Before | After | Why |\n|---|---|---|---|---|---|---|\n");
        let mut omitted = 0;
        for row in &comparison.rows {
            let line = table_row(row);
            if out.len() + line.len() > MAX_COMMENT_CHARS {
                omitted += 1;
                continue;
            }
            out.push_str(&line);
        }
        if omitted > 0 {
            let _ = writeln!(
                out,
                "\n{omitted} more row(s) are not shown here (the comment's size limit); the JSON has every row."
            );
        }
        if let Some(question) = question(
            super::review::change_count(comparison.rows.len(), &comparison.moves),
            comparison.rows.len(),
        ) {
            let _ = writeln!(out, "\n{question}");
        }
    }
    let limits: Vec<String> = comparison
        .coverage
        .iter()
        .filter(|item| item.status != "compared")
        .map(|item| {
            format!(
                "- `{}` ({}): {} — {}",
                cell(&item.source),
                item.host.name(),
                item.limit.as_deref().unwrap_or(item.status.as_str()),
                cell(item.detail.as_deref().unwrap_or(""))
            )
        })
        .collect();
    if !limits.is_empty() {
        let _ = writeln!(
            out,
            "\n**What was not established:**\n\n{}",
            limits.join("\n")
        );
    }
    out.push_str("\n_Static configuration only: what the files permit, not what an agent did._\n");
    out
}

fn table_row(row: &HostRow) -> String {
    let side = |s: &Option<label::Shown>| match s {
        Some(shown) => format!("`{}`", cell(&shown.long)),
        None => "—".to_string(),
    };
    format!(
        "| {} | {} | {} | `{}` | {} | {} | {} |\n",
        if row.expands { "⚠" } else { "" },
        row.severity.name(),
        row.direction.name(),
        cell(&row.subject()),
        side(&row.before),
        side(&row.after),
        cell(row.change.as_deref().unwrap_or(&row.why))
    )
}

/// A value fit for one table cell inside backticks or plain.
fn cell(text: &str) -> String {
    one_line(text).replace('|', "\\|").replace('`', "'")
}

fn short(commit: &str) -> String {
    commit.chars().take(8).collect()
}

/// The SARIF level of a row: what widens authority warns (an error at
/// critical), the rest is a note.
fn level(row: &HostRow) -> &'static str {
    match (row.expands, row.severity) {
        (true, super::assess::Severity::Critical) => "error",
        (true, _) => "warning",
        _ => "note",
    }
}

/// The rows as a SARIF 2.1.0 log: one rule per kind of grant and
/// direction, one result per row at its source file.
pub fn sarif(comparison: &HostComparison) -> String {
    let mut rule_ids: Vec<String> = Vec::new();
    let mut rules = Vec::new();
    let mut results = Vec::new();
    for row in &comparison.rows {
        let id = format!("host-grant/{}/{}", row.kind, row.direction.name());
        let index = match rule_ids.iter().position(|r| *r == id) {
            Some(index) => index,
            None => {
                rule_ids.push(id.clone());
                rules.push(json!({
                    "id": id,
                    "shortDescription": {"text": format!("A {} {}", row.kind.replace('_', " "), row.direction.name())},
                }));
                rule_ids.len() - 1
            }
        };
        let what = match (&row.before, &row.after) {
            (Some(b), Some(a)) => format!("{} → {}", b.long, a.long),
            (Some(b), None) => format!("{} → gone", b.long),
            (None, Some(a)) => a.long.clone(),
            (None, None) => String::new(),
        };
        results.push(json!({
            "ruleId": id,
            "ruleIndex": index,
            "level": level(row),
            "message": {"text": one_line(&format!("{} {} ({}): {what}. {}", row.host.name(), row.direction.name(), row.severity.name(), row.why))},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": row.source}}}],
            "properties": {"severity": row.severity.name(), "expands": row.expands},
        }));
    }
    let notifications: Vec<Value> = comparison
        .coverage
        .iter()
        .filter(|item| item.status != "compared")
        .map(|item| {
            json!({
                "level": "note",
                "message": {"text": one_line(&format!("{} ({}): {}: {}", item.source, item.host.name(), item.limit.as_deref().unwrap_or(item.status.as_str()), item.detail.as_deref().unwrap_or("")))},
            })
        })
        .collect();
    let log = json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "shipgate",
                "version": crate::VERSION,
                "semanticVersion": crate::VERSION,
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
            "properties": {"comparison_status": super::document::status(comparison)},
        }]
    });
    crate::render::pyjson::to_pretty(&log)
}

/// The rows as GitHub Actions workflow commands: `::warning` for what
/// widens authority, `::notice` for the rest, each at its source file.
pub fn github(comparison: &HostComparison) -> String {
    let mut out = String::new();
    for row in &comparison.rows {
        let command = if row.expands { "warning" } else { "notice" };
        let what = match (&row.before, &row.after) {
            (Some(b), Some(a)) => format!("{} → {}", b.long, a.long),
            (Some(b), None) => format!("{} → gone", b.long),
            (None, Some(a)) => a.long.clone(),
            (None, None) => String::new(),
        };
        let _ = writeln!(
            out,
            "::{command} file={},title={}::{}",
            escape_property(&one_line(&row.source)),
            escape_property(&one_line(&format!(
                "{} {} {}",
                row.severity.name(),
                row.direction.name(),
                row.subject()
            ))),
            escape_data(&one_line(&format!("{what}: {}", row.why)))
        );
    }
    let widenings = comparison.rows.iter().filter(|r| r.expands).count();
    let _ = writeln!(
        out,
        "::notice title=shipgate host grants::{}",
        escape_data(&format!(
            "{} change(s), {widenings} widening what the agent may do; comparison {}.",
            comparison.rows.len(),
            super::document::status(comparison)
        ))
    );
    out
}
