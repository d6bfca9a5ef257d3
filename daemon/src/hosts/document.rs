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

/// The review's question: its changes, and the rows they come from when
/// a change groups several (`review.rs`).
pub fn question(changes: usize, rows: usize) -> Option<String> {
    let from = if rows == changes {
        String::new()
    } else {
        format!(" (from {rows} rows)")
    };
    match changes {
        0 => None,
        1 => Some(format!(
            "Review question: Does the team intend this declared capability change{from}?"
        )),
        n => Some(format!(
            "Review question: Does the team intend these {n} declared capability changes{from}?"
        )),
    }
}

/// The review's changes, in row order: one a row, a moved rule one over
/// its two rows, placed at the first.
fn changes(comparison: &HostComparison) -> Vec<Value> {
    let rows = &comparison.rows;
    let mut out = Vec::new();
    for (index, r) in rows.iter().enumerate() {
        let moved = comparison
            .moves
            .iter()
            .find(|m| m.indexes().contains(&index));
        match moved {
            None => out.push(change(index, r)),
            Some(moved) if moved.indexes()[0] == index => out.push(moved_change(comparison, moved)),
            Some(_) => {}
        }
    }
    out
}

fn moved_change(comparison: &HostComparison, moved: &super::review::Move) -> Value {
    let rows = &comparison.rows;
    let (Some(removed), Some(added)) = (rows.get(moved.removed), rows.get(moved.added)) else {
        return Value::Null;
    };
    let disposition = |row: &HostRow| row.disposition.map_or("", |d| d.name());
    json!({
        "after": label::long(&added.after),
        "before": label::long(&removed.before),
        "change": Value::Null,
        "direction": "moved",
        "expands": removed.expands || added.expands,
        "guidance": moved.guidance,
        "row_indexes": moved.indexes(),
        "severity": moved.severity(rows).name(),
        "subject": added.subject(),
        "why": format!(
            "the same rule moved from {} to {}; {}",
            disposition(removed),
            disposition(added),
            added.why
        ),
    })
}

/// The rows of a comparison as the document lists them.
pub fn rows(comparison: &HostComparison) -> Vec<Value> {
    comparison.rows.iter().map(row).collect()
}

pub fn document(comparison: &HostComparison, sides: &Sides) -> Value {
    let rows = rows(comparison);
    let changes = changes(comparison);
    let change_count = changes.len();
    // Counted by review change, as the reference does (a moved rule is one).
    let widenings = changes
        .iter()
        .filter(|c| c["expands"] == Value::Bool(true))
        .count();
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
            "question": question(change_count, comparison.rows.len()),
            "reproduce_command": reproduce_command(sides),
            "summary": {
                "changes": change_count,
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
