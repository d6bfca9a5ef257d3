//! `--format markdown`: the answer as a pull-request comment.
//!
//! Findings first (the document's `summary`, through the same lines the
//! text prints), then every limit once, then the rows in a collapsed
//! `<details>` table, then the advisory sentences. Nothing is computed
//! here that the document does not state.
//!
//! GitHub refuses a comment over 65,536 characters: the findings and the
//! limits each have a share of that, and rows are added to the table only
//! while the whole comment stays under it; how many rows were left out is
//! said in the table's summary line. Every repository-derived string is
//! escaped (`markdown/escape.rs`), so a hostile name or reason cannot add
//! markup, mention anyone or close the `<details>`.

use serde_json::Value;

use super::findings;
use super::limits::document_limits;
use super::row_facts::{rows, Commit, RowFacts};

pub(crate) mod escape;
#[cfg(test)]
mod tests;

use escape::{clip, code, text};

/// GitHub's limit on a comment's body, in characters (counted here as
/// UTF-16 code units, the larger count).
pub const COMMENT_LIMIT: usize = 65_536;
/// What the findings may take of it; lines past it are counted instead.
const FINDINGS_SHARE: usize = 16_000;
/// What the limits may take of it.
const LIMITS_SHARE: usize = 12_000;
/// Room kept for the `<details>` frame, its summary line and the note on
/// left-out rows, which are written after the rows are chosen.
const FRAME_RESERVE: usize = 600;
/// Longest name, path or reason printed from one value, before escaping.
const VALUE_CHARS: usize = 300;
/// Longest sentence (a limit, a reason, a finding line), before escaping.
const SENTENCE_CHARS: usize = 1_000;

/// The whole comment.
pub fn render_markdown(doc: &Value) -> String {
    let mut opening = heading(doc);
    opening.push_str(&findings_section(doc));
    let limits = limits_section(doc);
    let closing = advisory(doc);
    let used = chars(&opening) + chars(&limits) + chars(&closing) + FRAME_RESERVE;
    let rows_section = rows_section(doc, COMMENT_LIMIT.saturating_sub(used));
    format!("{opening}{rows_section}{limits}{closing}")
}

/// A length as GitHub's limit may count it: UTF-16 code units, never
/// fewer than characters, so the bound holds however it counts.
fn chars(s: &str) -> usize {
    s.encode_utf16().count()
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    let mut at = v;
    for key in path {
        match at.get(key) {
            Some(next) => at = next,
            None => return "",
        }
    }
    at.as_str().unwrap_or("")
}

/// `### Agent capability changes: partial`, the commits and the scope.
fn heading(doc: &Value) -> String {
    let commit = |side: &str| {
        let sha: String = str_at(doc, &[side, "compared_commit"])
            .chars()
            .take(12)
            .collect();
        text(&sha)
    };
    let mut out = format!(
        "### Agent capability changes: {}\n\n{} → {}",
        text(str_at(doc, &["comparison_status"])),
        commit("base"),
        commit("head"),
    );
    let selection = doc.get("scope_selection").unwrap_or(&Value::Null);
    let scopes: Vec<String> = selection
        .get("scopes")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(Value::as_str)
        .map(|s| text(&clip(s, VALUE_CHARS)))
        .collect();
    let scopes = if scopes.is_empty() {
        "none".to_string()
    } else {
        scopes.join(", ")
    };
    let reason = text(&clip(str_at(selection, &["reason"]), SENTENCE_CHARS));
    if str_at(selection, &["mode"]) == "derived" {
        out.push_str(&format!(" · scope {scopes} (derived: {reason})"));
    } else if selection.is_object() {
        out.push_str(&format!(" · scope {scopes} ({reason})"));
    }
    out.push_str("\n\n");
    out
}

/// The findings as the text opens with them: the headline in bold, each
/// finding a list item with its tool lines and questions nested.
fn findings_section(doc: &Value) -> String {
    let Some(summary) = doc.get("summary").filter(|s| s.is_object()) else {
        return String::new();
    };
    let lines = findings::lines(summary);
    let mut out = String::new();
    let mut left_out = 0;
    for (n, line) in lines.iter().enumerate() {
        // The cause lines carry their own `- `; here the list gives it.
        let raw = line.text.strip_prefix("- ").unwrap_or(&line.text);
        let spelled = text(&clip(raw, SENTENCE_CHARS));
        let item = match (n, line.indent) {
            (0, _) => format!("**{spelled}**\n\n"),
            (_, 0) => format!("- {spelled}\n"),
            _ => format!("  - {spelled}\n"),
        };
        if left_out > 0 || chars(&out) + chars(&item) > FINDINGS_SHARE {
            left_out += 1;
            continue;
        }
        out.push_str(&item);
    }
    if left_out > 0 {
        out.push_str(&format!(
            "- {left_out} more finding lines are in `--json` (`summary`).\n"
        ));
    }
    out.push('\n');
    out
}

/// Every limit once, with what holds it.
fn limits_section(doc: &Value) -> String {
    let limits = document_limits(doc);
    if limits.is_empty() {
        return String::new();
    }
    let mut out =
        String::from("**Limits** (each stated once; `--json` has every side's list):\n\n");
    let mut left_out = 0;
    for limit in &limits {
        let holder = match &limit.scope {
            Some(scope) => format!("{} {}", text(&clip(scope, VALUE_CHARS)), limit.holder),
            None => limit.holder.to_string(),
        };
        let item = format!("- {holder}: {}\n", text(&clip(&limit.text, SENTENCE_CHARS)));
        if left_out > 0 || chars(&out) + chars(&item) > LIMITS_SHARE {
            left_out += 1;
            continue;
        }
        out.push_str(&item);
    }
    if left_out > 0 {
        out.push_str(&format!("- and {left_out} more, in `--json`.\n"));
    }
    out.push('\n');
    out
}

/// The rows table in a `<details>` block, as many rows as `room` holds.
fn rows_section(doc: &Value, room: usize) -> String {
    let all = rows(doc);
    if all.is_empty() {
        return format!("{}\n\n", text(no_rows(doc)));
    }
    let header = "| # | agent | kind | binding | change | status / reason |\n| ---: | --- | --- | --- | --- | --- |\n";
    let mut table = String::from(header);
    let mut used = chars(header);
    let mut shown = 0;
    for row in &all {
        let line = row_line(row);
        let width = chars(&line);
        if used + width > room {
            break;
        }
        used += width;
        table.push_str(&line);
        shown += 1;
    }
    let left_out = all.len() - shown;
    let summary = if left_out == 0 {
        format!("Rows ({})", all.len())
    } else {
        format!("Rows ({shown} of {}; {left_out} left out)", all.len())
    };
    let note = if left_out == 0 {
        String::new()
    } else {
        format!(
            "\n{left_out} rows are left out to keep this comment under GitHub's {COMMENT_LIMIT} characters; `--json` carries every row.\n"
        )
    };
    // The blank lines make the table markdown inside the HTML block.
    format!("<details>\n<summary>{summary}</summary>\n\n{table}{note}\n</details>\n\n")
}

/// Zero rows: the sentence the text prints for them.
fn no_rows(doc: &Value) -> &'static str {
    let compared_nothing = doc
        .get("comparisons")
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty);
    if compared_nothing {
        "The change touches no supported application agent; nothing was compared."
    } else {
        super::text::no_rows_sentence(doc)
    }
}

/// One table row: index, agent (and its file), kind, binding and where,
/// change, and the why or the first uncertainty reason.
fn row_line(row: &RowFacts<'_>) -> String {
    let agent = format!(
        "{} ({})",
        text(&clip(row.agent, VALUE_CHARS)),
        code(&clip(row.agent_source, VALUE_CHARS))
    );
    let mut binding = code(&clip(row.tool, VALUE_CHARS));
    if let Some(at) = &row.location {
        let place = match at.line {
            Some(line) => format!("{}:{line}", clip(&at.path, VALUE_CHARS)),
            None => clip(&at.path, VALUE_CHARS),
        };
        binding.push_str(&format!(" at {}", code(&place)));
        if at.commit == Commit::Base {
            binding.push_str(" (base)");
        }
    }
    let change = match (row.change, row.candidate_change) {
        ("not_established", Some(candidate)) => {
            format!("not established (candidate: {})", text(candidate))
        }
        (change, _) => text(&change.replace('_', " ")),
    };
    let uncertainty = row.uncertainty();
    let reason = match uncertainty.first() {
        Some(first) => {
            let mut reason = text(&clip(first, SENTENCE_CHARS));
            if uncertainty.len() > 1 {
                reason.push_str(&format!(" (and {} more)", uncertainty.len() - 1));
            }
            reason
        }
        None => text(&clip(row.why(), SENTENCE_CHARS)),
    };
    format!(
        "| {} | {agent} | {} | {binding} | {change} | {reason} |\n",
        row.index,
        row.kind.replace('_', " "),
    )
}

/// The document's advisory sentences (`limits`), closing the comment.
fn advisory(doc: &Value) -> String {
    let sentences: Vec<String> = doc
        .get("limits")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(Value::as_str)
        .map(|s| text(&clip(s, SENTENCE_CHARS)))
        .collect();
    if sentences.is_empty() {
        return String::new();
    }
    format!("<sub>{}</sub>\n", sentences.join(" "))
}
