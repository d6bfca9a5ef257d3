//! The default text output (output contract §4, the 1.2.0 grammar).
//!
//! Everything printed here is read from the document as it stands; nothing
//! is recomputed, so the text can never disagree with `--json`. The caller
//! passes the already sanitised document. Missing or oddly typed keys print
//! the way Python's `str()` would print a missing value (`None`) or are
//! skipped, never panic.
//!
//! Values marked ⟦1⟧ in the contract pass [`one_line`], so a control or
//! bidi character in a name cannot break a line or reorder what CI reads.
//!
//! A schema 0.4 document (one with `summary`, the findings-first layout)
//! also states each limit once (`base and head limit:` for a sentence both
//! sides hold, and nothing already said as a `scope limit:`), and wraps
//! limit and reason sentences at [`wrap::WRAP_COLUMNS`] (`wrap.rs` says
//! which lines and why). A 1.2.0 document prints as 1.2.0 did, byte for
//! byte (`tests.rs` holds the reference's own output).

use serde_json::Value;

use super::pyjson;

mod document;
mod reach;
mod rows;
#[cfg(test)]
mod tests;
mod values;
mod wrap;

pub(crate) use document::no_rows_sentence;
use document::*;
use reach::*;
use rows::*;
pub use values::one_line;
use values::*;

/// The advisory sentence that always closes the output (`limits[2]`).
const ADVISORY: &str =
    "This comparison is advisory evidence and supplies no release verdict or merge permission.";

/// How many excluded test files are named before `, and K more`.
const TEST_FILES_SHOWN: usize = 5;

/// How many reach limits are printed before `reach limit: and K more`.
const REACH_LIMITS_SHOWN: usize = 3;

/// One binding side as the text shows it under a row (`<label>: <signature>
/// at <location>`, its implementation, gates, objects, reach), indented by
/// `indent` more: what the inventory prints for each binding, so a binding
/// reads the same in both.
pub fn binding_block(label: &str, binding: &Value, indent: usize) -> String {
    let mut out = Out {
        findings_first: true,
        ..Out::default()
    };
    binding_lines(&mut out, label, binding);
    let pad = " ".repeat(indent);
    out.text
        .lines()
        // `binding_lines` indents its headline by 2: the caller's indent
        // replaces it.
        .map(|line| format!("{pad}{}\n", line.strip_prefix("  ").unwrap_or(line)))
        .collect()
}

/// Renders the whole document as the text CI reads.
pub fn render_text(doc: &Value) -> String {
    let mut out = Out {
        text: String::new(),
        findings_first: get(doc, "summary").is_some_and(Value::is_object),
        scope_limits: Vec::new(),
    };
    out.line(0, &header(doc));
    if out.findings_first {
        if let Some(line) = same_commit_line(doc) {
            out.prose(0, &line);
        }
    }
    scope_lines(&mut out, doc);
    // Schema 0.4: the findings open the answer, the rows follow as detail
    // (a 1.2.0 document has no summary and prints as 1.2.0 did).
    let mut print_rows = true;
    if let Some(summary) = get(doc, "summary").filter(|s| s.is_object()) {
        for line in super::findings::lines(summary) {
            let content = one_line(&line.text);
            if line.sentence {
                out.prose(line.indent, &content);
            } else {
                out.line(line.indent, &content);
            }
        }
        let rows = items(doc, "rows").len();
        print_rows = rows <= super::findings::DETAIL_ROWS;
        if print_rows {
            out.line(0, "Detail:");
        } else {
            out.line(0, &format!("Detail: {rows} rows are not printed here. `--json` carries every row, gap and reach limit, and the findings above name the rows they summarize."));
            if let Some(line) = excluded_tests_line(doc) {
                out.line(0, &line);
            }
        }
    }
    if print_rows {
        match doc.get("comparisons").and_then(Value::as_array) {
            // Combined document: each comparison under its own `Scope` line.
            Some(comparisons) => {
                if comparisons.is_empty() {
                    out.line(
                        0,
                        "The change touches no supported application agent; nothing was compared.",
                    );
                }
                for comparison in comparisons {
                    out.line(0, &comparison_heading(comparison));
                    comparison_body(&mut out, comparison);
                }
            }
            None => comparison_body(&mut out, doc),
        }
    }
    if let Some(stability) = get(doc, "tool_list_stability").filter(|s| s.is_object()) {
        stability_lines(&mut out, stability);
    }
    declared_lines(&mut out, doc);
    out.line(0, advisory(doc));
    out.text
}

/// `Tool-list stability:` lines (issue 10): reordered lists and lists that
/// may change between calls. Information, never a row.
fn stability_lines(out: &mut Out, stability: &Value) {
    out.line(0, "Tool-list stability (not a binding change):");
    for change in items(stability, "order_changed") {
        out.line(
            2,
            &one_line(&format!(
                "{} ({}): order changed: {} → {}",
                field(change, "agent"),
                field(change, "agent_source"),
                strings(change, "before").join(", "),
                strings(change, "after").join(", ")
            )),
        );
    }
    for caveat in items(stability, "caveats") {
        out.prose(
            2,
            &one_line(&format!(
                "{} ({}): may differ between calls: {}",
                field(caveat, "agent"),
                field(caveat, "agent_source"),
                field(caveat, "why")
            )),
        );
    }
}

/// `Declared effects:` (issue 22): each tool of the repository's own MCP
/// servers whose declaration the change brings into or out of agreement
/// with its reach, with every contradiction and what was not read.
fn declared_lines(out: &mut Out, doc: &Value) {
    let entries = items(doc, "declared_effects");
    if entries.is_empty() {
        return;
    }
    out.line(
        0,
        "Declared effects (the application's own MCP tool annotations, held against reach):",
    );
    for entry in entries {
        let server = match get(entry, "server").and_then(Value::as_str) {
            Some(name) => format!("MCP server '{name}'"),
            None => format!("MCP server {}", field(entry, "server_variable")),
        };
        let declared: Vec<String> = get(entry, "declared")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| {
                        format!(
                            "{k}={}",
                            if v.as_bool() == Some(true) {
                                "True"
                            } else {
                                "False"
                            }
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.line(
            2,
            &one_line(&format!(
                "{} ({server}, declared at {}): {}",
                field(entry, "tool"),
                field(entry, "declared_at"),
                field(entry, "change").replace('_', " ")
            )),
        );
        if !declared.is_empty() {
            out.line(4, &one_line(&format!("declares: {}", declared.join(", "))));
        }
        for (key, label) in [("before", "base"), ("after", "head")] {
            let Some(side) = get(entry, key).filter(|s| s.is_object()) else {
                out.line(4, &format!("{label}: not declared"));
                continue;
            };
            out.line(
                4,
                &format!("{label}: {}", field(side, "verdict").replace('_', " ")),
            );
            for contradiction in items(side, "contradictions") {
                out.line(6, &one_line(&field(contradiction, "text")));
            }
            let not_read = strings(side, "not_read");
            for reason in not_read.iter().take(REACH_LIMITS_SHOWN) {
                out.line(6, &one_line(&format!("not read: {reason}")));
            }
            if not_read.len() > REACH_LIMITS_SHOWN {
                out.line(
                    6,
                    &format!("not read: and {} more", not_read.len() - REACH_LIMITS_SHOWN),
                );
            }
        }
    }
}

/// Accumulates lines; every line ends in `\n`, indentation is spaces.
/// The default is the 1.2.0 layout.
#[derive(Default)]
struct Out {
    text: String,
    /// The schema 0.4 layout: limits once, sentences wrapped.
    findings_first: bool,
    /// The `scope limit:` sentences printed, which the sides' limit lines
    /// then do not repeat.
    scope_limits: Vec<String>,
}

impl Out {
    fn line(&mut self, indent: usize, content: &str) {
        for _ in 0..indent {
            self.text.push(' ');
        }
        self.text.push_str(content);
        self.text.push('\n');
    }

    /// A line whose content is a sentence (a limit, a reason): wrapped in
    /// the findings-first layout, one line as 1.2.0 printed it otherwise.
    fn prose(&mut self, indent: usize, content: &str) {
        if !self.findings_first {
            self.line(indent, content);
            return;
        }
        for line in wrap::wrap(indent, content) {
            self.text.push_str(&line);
            self.text.push('\n');
        }
    }
}
