//! The "Findings first" opening of the text (contract §5.3), rendered from
//! the document's `summary` alone: nothing is recomputed here, so the text
//! never states what the JSON does not.

use crate::json_fields::{array, text};
use serde_json::Value;

/// Findings printed in full; the rest are counted.
const FINDINGS_SHOWN: usize = 3;
/// Tools named in a finding's header.
const HEADER_TOOLS: usize = 6;
/// Tool lines under one finding.
const TOOL_LINES: usize = 4;
/// `Review:` questions under one finding.
const QUESTIONS_SHOWN: usize = 2;
/// Cause lines under `Not established:`.
const CAUSES_SHOWN: usize = 4;
/// Rows printed under `Detail:`; above it none are.
pub const DETAIL_ROWS: usize = 10;

/// One line of the opening.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingLine {
    pub indent: usize,
    pub text: String,
    /// The line states a sentence (a limit, an uncertainty cause), which a
    /// renderer may wrap; the other lines are the summary's grammar.
    pub sentence: bool,
}

impl FindingLine {
    fn new(indent: usize, text: String) -> Self {
        FindingLine {
            indent,
            text,
            sentence: false,
        }
    }

    fn sentence(indent: usize, text: String) -> Self {
        FindingLine {
            indent,
            text,
            sentence: true,
        }
    }
}

/// The lines in order; the caller applies the one-line filter (and, for
/// markdown, its escaping).
pub fn lines(summary: &Value) -> Vec<FindingLine> {
    let mut out = Vec::new();
    let findings = array(summary, "findings");
    out.push(FindingLine::new(0, headline(summary, findings.len())));
    declared_lines(&mut out, summary);
    for finding in findings.iter().take(FINDINGS_SHOWN) {
        finding_lines(&mut out, finding, summary);
    }
    if findings.len() > FINDINGS_SHOWN {
        let more = findings.len() - FINDINGS_SHOWN;
        out.push(FindingLine::new(
            0,
            format!(
                "{more} more {}: tool lines and questions are in --json summary.findings.",
                plural(more, "agent", "agents")
            ),
        ));
    }
    for renamed in array(summary, "renamed") {
        out.push(FindingLine::new(
            0,
            format!(
                "Renamed: {} → {} ({}); its bindings are unchanged.",
                text(renamed, "renamed_from"),
                text(renamed, "agent"),
                text(renamed, "agent_source")
            ),
        ));
    }
    cause_lines(&mut out, summary);
    not_read_line(&mut out, summary);
    out
}

/// `Declared: list_notes (MCP server 'notes', app/server.py): declared
/// read-only, but writes: POST … at app/server.py:10 [new]`: the app's own
/// declarations its tools' reach contradicts, before any agent.
fn declared_lines(out: &mut Vec<FindingLine>, summary: &Value) {
    let declared = array(summary, "declared_effects");
    for entry in declared.iter().take(FINDINGS_SHOWN) {
        let server = match entry.get("server").and_then(Value::as_str) {
            Some(name) => format!("MCP server '{name}', "),
            None => "MCP server, ".to_string(),
        };
        out.push(FindingLine::new(
            0,
            format!(
                "Declared: {} ({server}{}): {} [{}]",
                text(entry, "tool"),
                text(entry, "source"),
                text(entry, "text"),
                text(entry, "change").replace('_', " ")
            ),
        ));
    }
    if declared.len() > FINDINGS_SHOWN {
        let more = declared.len() - FINDINGS_SHOWN;
        out.push(FindingLine::new(
            0,
            format!(
                "{more} more declared-effect {}: they are in --json declared_effects.",
                plural(more, "change", "changes")
            ),
        ));
    }
}

fn number(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn plural<'s>(n: usize, one: &'s str, many: &'s str) -> &'s str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// `Findings: 1 changed agent, 2 rows (2 added); effect evidence 2 write (provisional: unknown effect).`
fn headline(summary: &Value, agents: usize) -> String {
    let counts = summary.get("counts").cloned().unwrap_or(Value::Null);
    let total = number(&counts, "total") as usize;
    let parts: Vec<String> = [
        ("added", "added"),
        ("removed", "removed"),
        ("changed", "changed"),
        ("not_established", "not established"),
    ]
    .iter()
    .filter(|(key, _)| number(&counts, key) > 0)
    .map(|(key, label)| format!("{} {label}", number(&counts, key)))
    .collect();
    let mut line = format!(
        "Findings: {agents} changed {}, {total} {}",
        plural(agents, "agent", "agents"),
        plural(total, "row", "rows")
    );
    if !parts.is_empty() {
        line.push_str(&format!(" ({})", parts.join(", ")));
    }
    let effects: Vec<String> = array(summary, "effects")
        .iter()
        .map(|e| {
            let label = status_label(text(e, "status"));
            format!("{} {} ({label})", number(e, "count"), text(e, "effect"))
        })
        .collect();
    if !effects.is_empty() {
        line.push_str(&format!("; effect evidence {}", effects.join(", ")));
    }
    line.push('.');
    line
}

/// `+tool`, `-tool`, `~tool`; `?+tool` for a candidate not established.
fn mark(tool: &Value) -> String {
    let sign = |change: &str| match change {
        "added" => "+",
        "removed" => "-",
        "changed" => "~",
        _ => "",
    };
    match text(tool, "change") {
        "not_established" => format!("?{}", sign(text(tool, "candidate_change"))),
        change => sign(change).to_string(),
    }
}

/// Whether another agent of the summary (a finding, or limits tied to no
/// row) has this agent's name but another file: then the text names files.
fn shared_name(summary: &Value, agent: &str, source: &str) -> bool {
    array(summary, "findings")
        .iter()
        .chain(array(summary, "not_read"))
        .filter(|f| f.get("agent").and_then(Value::as_str) == Some(agent))
        .any(|f| text(f, "agent_source") != source)
}

fn finding_lines(out: &mut Vec<FindingLine>, finding: &Value, summary: &Value) {
    let agent = text(finding, "agent");
    let tools = array(finding, "tools");
    let mut header = agent.to_string();
    if shared_name(summary, agent, text(finding, "agent_source")) {
        header.push_str(&format!(" ({})", text(finding, "agent_source")));
    }
    header.push_str(&format!(" [{}]: ", text(finding, "status")));
    let named: Vec<String> = tools
        .iter()
        .take(HEADER_TOOLS)
        .map(|t| format!("{}{}", mark(t), text(t, "tool")))
        .collect();
    header.push_str(&named.join(", "));
    if tools.len() > HEADER_TOOLS {
        header.push_str(&format!(", and {} more", tools.len() - HEADER_TOOLS));
    }
    let notes = notes(finding, tools);
    if !notes.is_empty() {
        header.push_str(&format!(" ({})", notes.join("; ")));
    }
    out.push(FindingLine::new(0, header));
    if let Some(from) = finding.get("renamed_from").and_then(Value::as_str) {
        out.push(FindingLine::new(2, format!("renamed: {from} → {agent}")));
    }
    let detailed: Vec<&Value> = tools
        .iter()
        .filter(|t| !array(t, "facts").is_empty() || t.get("unresolved").is_some())
        .collect();
    for tool in detailed.iter().take(TOOL_LINES) {
        out.push(FindingLine::new(2, tool_line(tool)));
    }
    if detailed.len() > TOOL_LINES {
        let rest: Vec<String> = detailed[TOOL_LINES..]
            .iter()
            .map(|t| format!("{}{}", mark(t), text(t, "tool")))
            .collect();
        out.push(FindingLine::new(
            2,
            format!("and {} more: {}", rest.len(), rest.join(", ")),
        ));
    }
    if let Some(limits) = finding.get("agent_limits").filter(|l| l.is_object()) {
        let mut line = format!(
            "this agent's binding graph is also incomplete: {}",
            text(limits, "first")
        );
        let count = number(limits, "count");
        if count > 1 {
            line.push_str(&format!(" (and {} more)", count - 1));
        }
        out.push(FindingLine::sentence(2, line));
    }
    let questions = array(finding, "questions");
    for (index, question) in questions.iter().take(QUESTIONS_SHOWN).enumerate() {
        let mut line = format!("Review: {}", text(question, "question"));
        if index + 1 == QUESTIONS_SHOWN && questions.len() > QUESTIONS_SHOWN {
            line.push_str(&format!(
                " (and {} more in --json)",
                questions.len() - QUESTIONS_SHOWN
            ));
        }
        out.push(FindingLine::new(2, line));
    }
}

/// The header's notes: what the change gives the agent to reach, and where
/// reading stopped.
fn notes(finding: &Value, tools: &[Value]) -> Vec<String> {
    let mut notes = Vec::new();
    let capabilities: Vec<&str> = array(finding, "capabilities")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let established = |change: &str| tools.iter().any(|t| text(t, "change") == change);
    let same: Vec<&str> = array(finding, "unchanged_capabilities")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let changed: Vec<&str> = array(finding, "changed_capabilities")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if !capabilities.is_empty() {
        notes.push(format!("new reach: {}", capabilities.join(", ")));
    } else if established("added") {
        notes.push("reach: none established".to_string());
    } else if established("changed") {
        let mut note = "no new reach established".to_string();
        if !same.is_empty() {
            note.push_str(&format!("; still reaches {}", same.join(", ")));
        }
        notes.push(note);
    }
    if !changed.is_empty() {
        notes.push(format!("changed reach: {}", changed.join(", ")));
    }
    if let Some(first) = finding.get("first_unresolved").filter(|f| f.is_object()) {
        match first.get("at").and_then(Value::as_str) {
            Some(at) => notes.push(format!("not read beyond {at}")),
            None => notes.push("not read in full".to_string()),
        }
    }
    notes
}

/// `  +tool: facts; first unread: <at> <why> (and N more)`.
fn tool_line(tool: &Value) -> String {
    let mut line = format!("{}{}", mark(tool), text(tool, "tool"));
    if text(tool, "change") == "not_established" {
        line.push_str(" (candidate, not established)");
    }
    let mut parts: Vec<String> = array(tool, "facts")
        .iter()
        .map(|f| text(f, "text").to_string())
        .collect();
    if let Some(unresolved) = tool.get("unresolved").filter(|u| u.is_object()) {
        let at = unresolved
            .get("at")
            .and_then(Value::as_str)
            .map(|at| format!("{at} "))
            .unwrap_or_default();
        let mut first = format!("first unread: {at}{}", text(unresolved, "why"));
        let count = number(unresolved, "count");
        if count > 1 {
            first.push_str(&format!(" (and {} more)", count - 1));
        }
        parts.push(first);
    }
    format!("{line}: {}", parts.join("; "))
}

/// `Not established: <n> rows share <k> causes.`, a line per cause and the
/// question.
fn cause_lines(out: &mut Vec<FindingLine>, summary: &Value) {
    let causes = array(summary, "causes");
    if causes.is_empty() {
        return;
    }
    let candidates = summary
        .get("counts")
        .map_or(0, |c| number(c, "not_established")) as usize;
    out.push(FindingLine::new(
        0,
        format!(
            "Not established: {candidates} {} {} {}.",
            plural(candidates, "row shares", "rows share"),
            causes.len(),
            plural(causes.len(), "cause", "causes")
        ),
    ));
    for cause in causes.iter().take(CAUSES_SHOWN) {
        let rows = array(cause, "rows").len();
        let sides: Vec<&str> = array(cause, "sides")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let similar = match number(cause, "reasons").saturating_sub(1) {
            0 => String::new(),
            n => format!("{n} similar; "),
        };
        out.push(FindingLine::sentence(
            2,
            format!(
                "- {} [{similar}{rows} {}, {}]",
                text(cause, "example"),
                plural(rows, "row", "rows"),
                sides.join("/")
            ),
        ));
    }
    if causes.len() > CAUSES_SHOWN {
        out.push(FindingLine::new(
            2,
            format!("- and {} more in --json", causes.len() - CAUSES_SHOWN),
        ));
    }
    if let Some(question) = summary.get("question").and_then(Value::as_str) {
        out.push(FindingLine::new(2, format!("Review: {question}")));
    }
}

/// `Also not read, and not tied to a row above: <n> limits on <agents>; first: <reason>`.
fn not_read_line(out: &mut Vec<FindingLine>, summary: &Value) {
    let groups = array(summary, "not_read");
    let Some(first) = groups.first() else {
        return;
    };
    let count: u64 = groups.iter().map(|g| number(g, "count")).sum();
    let agents: Vec<String> = groups
        .iter()
        .map(|g| match g.get("agent").and_then(Value::as_str) {
            Some(agent) => match g.get("agent_source").and_then(Value::as_str) {
                Some(source) if shared_name(summary, agent, source) => {
                    format!("{agent} ({source})")
                }
                _ => agent.to_string(),
            },
            None => "the scope".to_string(),
        })
        .collect();
    out.push(FindingLine::sentence(
        0,
        format!(
            "Also not read, and not tied to a row above: {count} {} on {}; first: {}",
            plural(count as usize, "limit", "limits"),
            agents.join(", "),
            text(first, "first")
        ),
    ));
}

/// Text labels of `effect_evidence.status` (§2.9).
pub(super) fn status_label(status: &str) -> String {
    match status {
        "declared" => "reviewed declaration",
        "structural" => "structural evidence",
        "inferred" => "provisional: inference",
        "protocol_default" => "provisional: protocol default",
        "unknown" => "provisional: unknown effect",
        "conflicting" => "conflicting effect evidence",
        "unavailable" => "provisional: evidence unavailable",
        other => return other.to_string(),
    }
    .to_string()
}
