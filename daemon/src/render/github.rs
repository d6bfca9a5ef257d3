//! `--format github`: GitHub Actions workflow commands, so a job's log
//! annotates the pull request's files.
//!
//! Asked for by name only, never switched on by `GITHUB_ACTIONS=true`: a
//! CI job that prints the text or parses the JSON keeps that output when
//! it moves to GitHub Actions, and the annotations come from a step that
//! asks for them (`--format github`).
//!
//! One command per row with a location: `::warning` for what SARIF calls
//! a warning (added, changed), `::notice` for the rest (removed, not
//! established; `sarif/rules.rs` says why). A line is given only where it
//! is a line of the head commit (a removed binding's file is named, its
//! base line said in the message). Then one `::notice` with the findings'
//! headline, which also counts the rows that had no location.
//!
//! Escaping, as the runner reads commands (the toolkit's `escapeData` and
//! `escapeProperty`): in the message `%`, `\r`, `\n`; in a property value
//! also `:` and `,`. Repository-derived values first pass the one-line
//! filter, so the only line breaks in a message are the ones put there.

use serde_json::Value;

use super::findings;
use super::row_facts::{rows, Commit, RowFacts};
use super::text::one_line;

/// Every annotation, one command a line.
pub fn render_annotations(doc: &Value) -> String {
    let mut out = String::new();
    let mut unlocated = 0;
    for row in rows(doc) {
        match annotation(&row) {
            Some(command) => {
                out.push_str(&command);
                out.push('\n');
            }
            None => unlocated += 1,
        }
    }
    out.push_str(&closing_notice(doc, unlocated));
    out.push('\n');
    out
}

/// `::warning file=…,line=…,title=…::message` for one row, when it has a
/// location.
fn annotation(row: &RowFacts<'_>) -> Option<String> {
    let at = row.location.as_ref()?;
    let command = match row.change {
        "added" | "changed" => "warning",
        _ => "notice",
    };
    let mut properties = vec![format!("file={}", escape_property(&one_line(&at.path)))];
    let mut base_line = None;
    match (at.commit, at.line) {
        (Commit::Head, Some(line)) => properties.push(format!("line={line}")),
        (Commit::Base, Some(line)) => base_line = Some(line),
        _ => {}
    }
    let change = match (row.change, row.candidate_change) {
        ("not_established", Some(candidate)) => {
            format!("not established, candidate {candidate}")
        }
        (change, _) => change.replace('_', " "),
    };
    let title = format!(
        "shipgate: {} → {} ({change})",
        one_line(row.agent),
        one_line(row.tool)
    );
    properties.push(format!("title={}", escape_property(&title)));
    let uncertainty = row.uncertainty();
    let mut message = match uncertainty.first() {
        Some(first) => one_line(first),
        None => one_line(row.why()),
    };
    if uncertainty.len() > 1 {
        message.push_str(&format!(" (and {} more)", uncertainty.len() - 1));
    }
    if let Some(line) = base_line {
        message.push_str(&format!(
            " It was bound at line {line} of this file in the base commit."
        ));
    }
    let question = row.review_question();
    if !question.is_empty() {
        message.push_str(&format!("\nReview: {}", one_line(question)));
    }
    Some(format!(
        "::{command} {}::{}",
        properties.join(","),
        escape_data(&message)
    ))
}

/// `::notice title=shipgate <status>::Findings: …`, from the summary's
/// headline, and the rows that could not be annotated.
fn closing_notice(doc: &Value, unlocated: usize) -> String {
    let status = doc
        .get("comparison_status")
        .and_then(Value::as_str)
        .unwrap_or("None");
    let mut message = doc
        .get("summary")
        .filter(|s| s.is_object())
        .and_then(|summary| findings::lines(summary).into_iter().next())
        .map(|line| one_line(&line.text))
        .unwrap_or_else(|| format!("Application comparison: {}", one_line(status)));
    if unlocated > 0 {
        message.push_str(&format!(
            " {unlocated} {} no source location and {} not annotated.",
            if unlocated == 1 {
                "row has"
            } else {
                "rows have"
            },
            if unlocated == 1 { "is" } else { "are" }
        ));
    }
    message.push_str("\n`--format text` or `--json` has every row, limit and reason.");
    let title = format!("shipgate {}", one_line(status));
    format!(
        "::notice title={}::{}",
        escape_property(&title),
        escape_data(&message)
    )
}

/// A command's message: `%`, `\r` and `\n` percent-encoded.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A command's property value: as the message, and `:` and `,` too (they
/// end the value and the property list).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests;
