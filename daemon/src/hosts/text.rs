//! The host comparison as the reviewer's text, laid out as the
//! reference prints it: one block per row (marker, severity, direction,
//! subject; what was and is granted; why it matters), the count, what the
//! run established source by source, the review question and how to
//! reproduce the answer.

use super::compare::{CoverageItem, HostComparison};
use super::diff::{Direction, HostRow};
use super::document::{question, reproduce_command, Sides};
use super::label;
use crate::render::text::one_line;
use std::fmt::Write;

const STATIC_ONLY: &str =
    "Static configuration only: this is what the files permit, not what the agent did. No verdict is implied.";
const READ_ONLY_NOTE: &str = "  only sources this entry read or tried to read are listed, so this is not the whole change: a changed file it does not read is absent";

pub fn text(comparison: &HostComparison, sides: &Sides) -> String {
    let mut out = String::new();
    let short = |commit: &str| commit.chars().take(8).collect::<String>();
    let head = if sides.head_is_snapshot {
        sides.head_label.clone()
    } else {
        format!("{} ({})", sides.head_label, short(&sides.head_commit))
    };
    let _ = writeln!(
        out,
        "Agent capability diff  {} ({}) -> {}\n",
        one_line(&sides.base_ref),
        short(&sides.base_commit),
        one_line(&head)
    );
    if !comparison.incomparable.is_empty() {
        let _ = writeln!(
            out,
            "Cannot compare against {}: {}",
            one_line(&sides.base_ref),
            comparison.incomparable.join(", ")
        );
        out.push_str("This is an input limit, not a finding about the change. Nothing below is a claim that the change is safe.\n\n");
        if !comparison.rows.is_empty() {
            out.push_str("The sources that were read on both sides:\n\n");
        }
    }
    if comparison.rows.is_empty() {
        if comparison.incomparable.is_empty() {
            out.push_str("No static host-grant changes detected. No verdict is implied.\n");
        }
    } else {
        rows(&mut out, &comparison.rows);
        let widenings = comparison.rows.iter().filter(|r| r.expands).count();
        let _ = write!(out, "{} change(s)", comparison.rows.len());
        if widenings > 0 {
            let _ = write!(out, ", {widenings} widening what the agent may do (⚠)");
        }
        out.push_str(".\n");
        out.push_str(STATIC_ONLY);
        out.push('\n');
    }
    established(&mut out, &comparison.coverage, &comparison.unchanged_limits);
    if let Some(question) = question(
        super::review::change_count(comparison.rows.len(), &comparison.moves),
        comparison.rows.len(),
    ) {
        let _ = writeln!(out, "\n{question}");
    } else {
        out.push('\n');
    }
    let head_words = if sides.head_is_snapshot {
        format!("{} at HEAD {}", sides.head_label, short(&sides.head_commit))
    } else {
        format!("{} {}", sides.head_label, short(&sides.head_commit))
    };
    let lead = if comparison.incomparable.is_empty() {
        "Compared"
    } else {
        "Inputs"
    };
    let _ = writeln!(
        out,
        "{lead}: base {} → {head_words}, shipgate {}.",
        short(&sides.base_commit),
        env!("CARGO_PKG_VERSION")
    );
    let where_ = if sides.head_is_snapshot {
        "Reproduce in that working tree"
    } else {
        "Reproduce"
    };
    let _ = writeln!(out, "{where_}: {}", reproduce_command(sides));
    out
}

fn rows(out: &mut String, rows: &[HostRow]) {
    let severity_width = rows
        .iter()
        .map(|r| r.severity.name().len())
        .max()
        .unwrap_or(0)
        + 2;
    let direction_width = rows
        .iter()
        .map(|r| r.direction.name().len())
        .max()
        .unwrap_or(0)
        + 2;
    let indent = " ".repeat(2 + severity_width + direction_width - 1);
    for row in rows {
        let marker = if row.expands { "⚠ " } else { "  " };
        let _ = writeln!(
            out,
            "{marker}{:<severity_width$}{:<direction_width$}{}",
            row.severity.name(),
            row.direction.name(),
            one_line(&row.subject())
        );
        let what = match (row.direction, &row.change) {
            (_, Some(change)) => change.clone(),
            (Direction::Added, _) => label::long(&row.after),
            (Direction::Removed, _) => format!("{} → gone", label::long(&row.before)),
            _ => format!("{} → {}", label::long(&row.before), label::long(&row.after)),
        };
        let _ = writeln!(out, "{indent}{}", one_line(&what));
        let _ = writeln!(out, "{indent}{}\n", row.why);
    }
}

fn established(out: &mut String, coverage: &[CoverageItem], unchanged: &[CoverageItem]) {
    if coverage.is_empty() && unchanged.is_empty() {
        out.push_str("\nWhat this run established: no host configuration source was compared.\n");
        out.push_str(READ_ONLY_NOTE);
        out.push('\n');
        return;
    }
    out.push_str("\nWhat this run established:\n");
    out.push_str(READ_ONLY_NOTE);
    out.push('\n');
    let mut unchanged_sources = Vec::new();
    for item in coverage {
        let host = item.host.name();
        let item = &CoverageItem {
            source: one_line(&item.source),
            detail: item.detail.as_deref().map(one_line),
            ..item.clone()
        };
        match item.status.as_str() {
            "compared" if item.rows == 0 => unchanged_sources.push(item.source.clone()),
            "changed_without_grant_change" => {
                let _ = writeln!(
                    out,
                    "  {} ({host}): changed, with no change in what it grants",
                    item.source
                );
            }
            "compared" => {
                let plural = if item.rows == 1 { "row" } else { "rows" };
                let _ = writeln!(
                    out,
                    "  {} ({host}): compared; {} {plural}",
                    item.source, item.rows
                );
            }
            "blocking_limit" => {
                let (sides, inventory) = match item.side {
                    "both" => ("base and head", "both inventories are"),
                    "base" => ("base", "the base inventory is"),
                    _ => ("head", "the head inventory is"),
                };
                let _ = writeln!(
                    out,
                    "  {} ({host}): {} in {sides}, so {inventory} incomplete: {}",
                    item.source,
                    item.limit.as_deref().unwrap_or("not read"),
                    item.detail.as_deref().unwrap_or("")
                );
            }
            "changed_not_read" => {
                let _ = writeln!(
                    out,
                    "  {} ({host}): changed, not read: {}",
                    item.source,
                    item.detail.as_deref().unwrap_or("")
                );
            }
            "script_not_resolved" => {
                let _ = writeln!(
                    out,
                    "  {} ({host}): a hook it declares runs a script this entry does not resolve, so a change to that script is not shown: {}",
                    item.source,
                    item.detail.as_deref().unwrap_or("")
                );
            }
            other => {
                let _ = writeln!(
                    out,
                    "  {} ({host}): {other}: {}",
                    item.source,
                    item.detail.as_deref().unwrap_or("")
                );
            }
        }
    }
    if !unchanged_sources.is_empty() {
        let _ = writeln!(
            out,
            "  compared with no change in what this entry reads: {}",
            unchanged_sources.join(", ")
        );
    }
    for item in unchanged {
        let _ = writeln!(
            out,
            "  {} ({}): {} on both sides with the same bytes, so nothing in it changed: {}",
            one_line(&item.source),
            item.host.name(),
            item.limit.as_deref().unwrap_or("not read"),
            one_line(item.detail.as_deref().unwrap_or(""))
        );
    }
}
