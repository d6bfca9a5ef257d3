//! The host comparison as the reference's JSON document (schema 0.4):
//! the same keys, in the same (sorted) order, so a script that parses the
//! reference's output parses this one.

use super::compare::{CoverageItem, HostComparison};
use super::diff::HostRow;
use super::label;
use serde_json::{json, Value};

/// The schema version of the document, the reference's.
pub const SCHEMA_VERSION: &str = "0.4";

/// What the document says about the two sides.
#[derive(Debug, Clone)]
pub struct Sides {
    pub workspace: String,
    pub base_ref: String,
    pub base_commit: String,
    /// How the head is named (`working tree`, `HEAD`).
    pub head_label: String,
    /// The commit the head is (or, for the working tree, stands on).
    pub head_commit: String,
    /// The head is the working tree or the index, not a commit.
    pub head_is_snapshot: bool,
}

pub fn status(comparison: &HostComparison) -> &'static str {
    match (comparison.incomparable.is_empty(), comparison.partial) {
        (true, _) => "comparable",
        (false, true) => "partial",
        (false, false) => "incomparable",
    }
}

pub fn reproduce_command(sides: &Sides) -> String {
    if sides.head_is_snapshot {
        format!("shipgate-client diff --base {}", sides.base_commit)
    } else {
        format!(
            "shipgate-client diff --base {} --head {}",
            sides.base_commit, sides.head_commit
        )
    }
}

pub fn question(changes: usize) -> Option<String> {
    match changes {
        0 => None,
        1 => Some("Review question: Does the team intend this declared capability change?".into()),
        n => Some(format!(
            "Review question: Does the team intend these {n} declared capability changes?"
        )),
    }
}

/// The rows of a comparison as the document lists them.
pub fn rows(comparison: &HostComparison) -> Vec<Value> {
    comparison.rows.iter().map(row).collect()
}

pub fn document(comparison: &HostComparison, sides: &Sides) -> Value {
    let rows = rows(comparison);
    let changes: Vec<Value> = comparison
        .rows
        .iter()
        .enumerate()
        .map(|(index, r)| change(index, r))
        .collect();
    let widenings = comparison.rows.iter().filter(|r| r.expands).count();
    json!({
        "base_commit": sides.base_commit,
        "base_ref": sides.base_ref,
        "capability_diff_schema_version": SCHEMA_VERSION,
        "comparison_status": status(comparison),
        "coverage": {
            "items": comparison.coverage.iter().map(coverage_item).collect::<Vec<_>>(),
            "omitted_items": 0,
            "read_sources_only": true,
            "unread_candidates": "examined",
            "unread_candidates_not_examined": 0,
        },
        "incomparable_reasons": comparison.incomparable,
        "review": {
            "changes": changes,
            "question": question(comparison.rows.len()),
            "reproduce_command": reproduce_command(sides),
            "summary": {
                "changes": comparison.rows.len(),
                "rows": comparison.rows.len(),
                "widenings": widenings,
            },
        },
        "rows": rows,
        "static_analysis_only": true,
        "unchanged_limits": comparison.unchanged_limits.iter().map(|item| json!({
            "detail": item.detail,
            "host": item.host.name(),
            "limit": item.limit,
            "source": item.source,
        })).collect::<Vec<_>>(),
        "workspace": sides.workspace,
    })
}

fn short(side: &Option<label::Shown>) -> String {
    side.as_ref()
        .map_or_else(|| "—".to_string(), |s| s.short.clone())
}

fn row(r: &HostRow) -> Value {
    json!({
        "after": short(&r.after),
        "before": short(&r.before),
        "direction": r.direction.name(),
        "disposition": r.disposition.map(|d| d.name()),
        "expands": r.expands,
        "severity": r.severity.name(),
        "subject": r.subject(),
        "why": r.why,
    })
}

fn change(index: usize, r: &HostRow) -> Value {
    json!({
        "after": label::long(&r.after),
        "before": label::long(&r.before),
        "change": r.change,
        "direction": r.direction.name(),
        "expands": r.expands,
        "guidance": r.guidance,
        "row_indexes": [index],
        "severity": r.severity.name(),
        "subject": r.subject(),
        "why": r.why,
    })
}

fn coverage_item(item: &CoverageItem) -> Value {
    json!({
        "candidate": item.candidate,
        "detail": item.detail,
        "hosts": [item.host.name()],
        "limit": item.limit,
        "rows": item.rows,
        "scope": Value::Null,
        "side": item.side,
        "source": item.source,
        "status": item.status,
    })
}
