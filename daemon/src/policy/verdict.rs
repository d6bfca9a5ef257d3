//! A policy applied to an answer's document: which rows meet which
//! conditions, which of those an allow entry covers, and the report.
//!
//! Read from the document alone (its rows, each row's `gate_changes`, the
//! summary's reach facts, the status), so the verdict says nothing the
//! answer does not: a reviewer can find every finding in the answer.

use super::{Allow, Condition, Policy};
use crate::json_fields::{array, text};
use serde_json::Value;
use std::collections::BTreeMap;

/// One condition met: by a row, or (`partial`) by the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub condition: Condition,
    pub agent: String,
    pub tool: String,
    pub change: String,
    /// The row's binding location, or empty.
    pub at: String,
    /// What met the condition.
    pub detail: String,
    /// The row's index in `rows`; none for `partial`.
    pub row: Option<usize>,
    /// The reason of the allow entry that covers it, for an allowed one.
    pub allowed_because: Option<String>,
}

/// What a policy made of one answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub source: String,
    pub fail_on: Vec<Condition>,
    /// What fails the answer.
    pub failed: Vec<Finding>,
    /// What an allow entry covers.
    pub allowed: Vec<Finding>,
}

impl Verdict {
    /// Whether the answer failed the policy.
    pub fn failed(&self) -> bool {
        !self.failed.is_empty()
    }

    /// The exit code a command line ends with: 0, or the policy's own.
    pub fn exit_code(&self) -> u8 {
        if self.failed() {
            shipgate_proto::policy::FAILED_EXIT
        } else {
            0
        }
    }

    /// The lines a command line prints on stderr, each `shipgate: policy: …`:
    /// the policy and its outcome, each finding, each allowed one, and for
    /// a failure how to accept a reviewed change.
    pub fn report(&self) -> String {
        let conditions: Vec<&str> = self.fail_on.iter().map(|c| c.as_str()).collect();
        let mut out = format!(
            "shipgate: policy: {} (from {}; fail-on {})\n",
            if self.failed() {
                format!(
                    "failed, exit {}: {} finding{}",
                    shipgate_proto::policy::FAILED_EXIT,
                    self.failed.len(),
                    plural(self.failed.len())
                )
            } else {
                "passed".to_string()
            },
            printable(&self.source),
            conditions.join(", ")
        );
        for finding in &self.failed {
            out.push_str(&format!("shipgate: policy: {}\n", line(finding)));
        }
        for finding in &self.allowed {
            let because = finding
                .allowed_because
                .as_deref()
                .filter(|r| !r.is_empty())
                .map(|r| format!(" ({})", printable(r)))
                .unwrap_or_default();
            out.push_str(&format!(
                "shipgate: policy: allowed{because}: {}\n",
                line(finding)
            ));
        }
        if let Some(first) = self.failed.iter().find(|f| f.row.is_some()) {
            out.push_str(&format!(
                "shipgate: policy: to accept a reviewed change, add a [[policy.allow]] entry to \
                 the policy file on the base, e.g. agent = {:?}, tool = {:?}, conditions = [{:?}], \
                 reason = \"...\"\n",
                first.agent,
                first.tool,
                first.condition.as_str()
            ));
        }
        out
    }
}

/// `added: support → refund at app/agent.py:12 (detail)`.
fn line(finding: &Finding) -> String {
    let mut text = finding.condition.as_str().to_string();
    if finding.row.is_some() {
        text.push_str(&format!(
            ": {} → {}",
            printable(&finding.agent),
            printable(&finding.tool)
        ));
        if !finding.at.is_empty() {
            text.push_str(&format!(" at {}", printable(&finding.at)));
        }
    }
    if !finding.detail.is_empty() {
        text.push_str(&format!(": {}", printable(&finding.detail)));
    }
    text
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Repository text on a terminal: control characters (an escape sequence
/// in a tool's name) are shown escaped, never sent.
fn printable(text: &str) -> String {
    crate::git::one_line(text)
}

/// The verdict of `policy` on `document`.
pub fn evaluate(policy: &Policy, document: &Value) -> Verdict {
    let rows = document
        .get("rows")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let facts = facts_by_row(document);
    let mut met = Vec::new();
    for (index, row) in rows.iter().enumerate() {
        for condition in &policy.fail_on {
            for detail in row_details(*condition, row, facts.get(&index)) {
                met.push(Finding {
                    condition: *condition,
                    agent: text(row, "agent").to_string(),
                    tool: text(row, "tool").to_string(),
                    change: text(row, "change").to_string(),
                    at: location(row).to_string(),
                    detail,
                    row: Some(index),
                    allowed_because: None,
                });
            }
        }
    }
    if policy.fail_on.contains(&Condition::Partial) {
        let status = text(document, "comparison_status");
        if status != "compared" {
            met.push(Finding {
                condition: Condition::Partial,
                agent: String::new(),
                tool: String::new(),
                change: String::new(),
                at: String::new(),
                detail: format!(
                    "the answer is {status}: something it needed was not read (its limits say what)"
                ),
                row: None,
                allowed_because: None,
            });
        }
    }
    let (mut failed, mut allowed) = (Vec::new(), Vec::new());
    for mut finding in met {
        match policy.allow.iter().find(|entry| covers(entry, &finding)) {
            Some(entry) => {
                finding.allowed_because = Some(entry.reason.clone());
                allowed.push(finding);
            }
            None => failed.push(finding),
        }
    }
    Verdict {
        source: policy.source.clone(),
        fail_on: policy.fail_on.clone(),
        failed,
        allowed,
    }
}

/// What in a row meets a condition: one detail per instance (each gate
/// loosened, each new reach), none when it does not.
fn row_details(condition: Condition, row: &Value, facts: Option<&RowFacts>) -> Vec<String> {
    let change = text(row, "change");
    match condition {
        Condition::Added if change == "added" => vec![String::new()],
        Condition::Changed if change == "changed" => {
            let changes = facts.map(|f| f.changes.join("; ")).unwrap_or_default();
            vec![changes]
        }
        Condition::NotEstablished if change == "not_established" => {
            vec![first_uncertainty(row).unwrap_or_default().to_string()]
        }
        // A gate removed or loosened, or moved in a direction that cannot
        // be told (`changed`): not shown to hold as tight as before.
        Condition::GateLoosened => array(row, "gate_changes")
            .iter()
            .filter(|c| matches!(text(c, "change"), "removed" | "loosened" | "changed"))
            .map(|c| format!("gate {}", text(c, "text")))
            .collect(),
        Condition::NewReach => facts.map(|f| f.reaches.clone()).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// What the summary says of one row's tool.
#[derive(Default)]
struct RowFacts {
    /// What differs (`implementation changed`, `arguments +amount`).
    changes: Vec<String>,
    /// What it newly reaches: an added tool's `reaches`, a changed tool's
    /// `reaches_new`.
    reaches: Vec<String>,
}

/// Each row's facts, from the summary's tools.
fn facts_by_row(document: &Value) -> BTreeMap<usize, RowFacts> {
    let mut by_row: BTreeMap<usize, RowFacts> = BTreeMap::new();
    let findings = document
        .get("summary")
        .map(|summary| array(summary, "findings"))
        .unwrap_or_default();
    for tool in findings.iter().flat_map(|f| array(f, "tools")) {
        let Some(row) = tool
            .get("row")
            .and_then(Value::as_u64)
            .and_then(|r| usize::try_from(r).ok())
        else {
            continue;
        };
        let entry = by_row.entry(row).or_default();
        for fact in array(tool, "facts") {
            let said = text(fact, "text").to_string();
            match text(fact, "kind") {
                "reaches" | "reaches_new" => entry.reaches.push(said),
                "change" => entry.changes.push(said),
                _ => {}
            }
        }
    }
    by_row
}

/// Whether an allow entry covers a finding: every field it names matches.
fn covers(entry: &Allow, finding: &Finding) -> bool {
    if finding.row.is_none() {
        // `partial` is the answer's, never a row's to allow.
        return false;
    }
    let agent = entry.agent.as_ref().is_none_or(|a| *a == finding.agent);
    let tool = entry.tool.as_ref().is_none_or(|t| {
        *t == finding.tool
            || (finding.tool.starts_with("handoff:")
                && finding.tool.rsplit(':').next() == Some(t.as_str()))
    });
    let condition = entry.conditions.is_empty() || entry.conditions.contains(&finding.condition);
    agent && tool && condition
}

fn location(row: &Value) -> &str {
    ["after", "before"]
        .iter()
        .filter_map(|side| row.get(*side))
        .map(|side| text(side, "binding_location"))
        .find(|at| !at.is_empty())
        .unwrap_or_default()
}

fn first_uncertainty(row: &Value) -> Option<&str> {
    let uncertainty = row.get("uncertainty")?;
    ["head", "base"]
        .iter()
        .filter_map(|side| uncertainty.get(*side))
        .flat_map(|reasons| reasons.as_array().map(Vec::as_slice).unwrap_or_default())
        .find_map(Value::as_str)
}
