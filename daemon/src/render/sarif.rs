//! `--format sarif`: the rows as a SARIF 2.1.0 log, for code-scanning
//! uploads (`github/codeql-action/upload-sarif` and the like).
//!
//! One run; one `result` per row, at the row's binding location as the
//! document gives it; one rule per kind of binding and change
//! (`sarif/rules.rs`, which also says which level each change gets). Each
//! limit of the document is one tool-execution notification, stated once.
//! The log is checked against the official SARIF 2.1.0 schema by the
//! `sarif_output` tests.
//!
//! Locations: a line is given only where it is a line of the head commit.
//! A removed binding is only in the base, so its result names the file
//! and says the base line in its message and properties; a region there
//! would point at whatever the head has on that line.

use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use super::limits::document_limits;
use super::pyjson::to_pretty;
use super::row_facts::{rows, Commit, RowFacts};
use super::text::one_line;

mod rules;

/// The schema's own id (its `id` keyword), which a log names in `$schema`.
pub const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The `partialFingerprints` key of a row's identity.
pub const ROW_FINGERPRINT: &str = "shipgateRowIdentity/v1";

/// The whole log, pretty-printed, ending in a newline.
pub fn render_sarif(doc: &Value) -> String {
    let mut rule_ids: Vec<String> = Vec::new();
    let mut descriptors: Vec<Value> = Vec::new();
    let mut results: Vec<Value> = Vec::new();
    for row in rows(doc) {
        let id = rules::rule_id(row.kind, row.change);
        let index = match rule_ids.iter().position(|known| *known == id) {
            Some(index) => index,
            None => {
                rule_ids.push(id.clone());
                descriptors.push(rules::descriptor(row.kind, row.change, row.why()));
                rule_ids.len() - 1
            }
        };
        results.push(result(&row, &id, index));
    }
    let notifications: Vec<Value> = document_limits(doc)
        .into_iter()
        .map(|limit| {
            let holder = match &limit.scope {
                Some(scope) => format!("{scope} {}", limit.holder),
                None => limit.holder.to_string(),
            };
            json!({
                "level": "note",
                "message": {"text": one_line(&format!("{holder} limit: {}", limit.text))}
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
                "rules": descriptors
            }},
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications
            }],
            "results": results,
            "properties": run_properties(doc)
        }]
    });
    to_pretty(&log)
}

/// What the run compared, as the document says it.
fn run_properties(doc: &Value) -> Value {
    let pick = |path: &[&str]| -> Value {
        let mut at = doc;
        for key in path {
            match at.get(key) {
                Some(next) => at = next,
                None => return Value::Null,
            }
        }
        at.clone()
    };
    json!({
        "comparison_status": pick(&["comparison_status"]),
        "comparison_id": pick(&["comparison_id"]),
        "base_commit": pick(&["base", "compared_commit"]),
        "head_commit": pick(&["head", "compared_commit"]),
        "advisory": pick(&["limits"])
    })
}

/// One row's result.
fn result(row: &RowFacts<'_>, rule_id: &str, rule_index: usize) -> Value {
    let mut out = Map::new();
    out.insert("ruleId".into(), json!(rule_id));
    out.insert("ruleIndex".into(), json!(rule_index));
    out.insert("level".into(), json!(rules::level(row.change)));
    out.insert("message".into(), json!({"text": message(row)}));
    if let Some(location) = location(row) {
        out.insert("locations".into(), json!([location]));
    }
    out.insert(
        "partialFingerprints".into(),
        json!({ROW_FINGERPRINT: fingerprint(row)}),
    );
    let mut properties = Map::new();
    properties.insert("row".into(), json!(row.index));
    properties.insert("agent".into(), json!(row.agent));
    properties.insert("agent_source".into(), json!(row.agent_source));
    properties.insert("tool".into(), json!(row.tool));
    properties.insert("change".into(), json!(row.change));
    if let Some(candidate) = row.candidate_change {
        properties.insert("candidate_change".into(), json!(candidate));
    }
    if let Some(at) = &row.location {
        properties.insert("location_commit".into(), json!(at.commit.name()));
        if let (Commit::Base, Some(line)) = (at.commit, at.line) {
            properties.insert("base_line".into(), json!(line));
        }
    }
    out.insert("properties".into(), Value::Object(properties));
    Value::Object(out)
}

/// `support → refund_order: added. The source now binds … Review: …`, or
/// for an uncertain row its candidate change and first reason.
fn message(row: &RowFacts<'_>) -> String {
    let change = match (row.change, row.candidate_change) {
        ("not_established", Some(candidate)) => {
            format!("not established (candidate: {candidate})")
        }
        (change, _) => change.replace('_', " "),
    };
    let uncertainty = row.uncertainty();
    let reason = match uncertainty.first() {
        Some(first) if uncertainty.len() > 1 => {
            format!("{first} (and {} more)", uncertainty.len() - 1)
        }
        Some(first) => first.to_string(),
        None => row.why().to_string(),
    };
    let mut text = format!("{} → {}: {change}. {reason}", row.agent, row.tool);
    if let Some(at) = &row.location {
        if at.commit == Commit::Base {
            match at.line {
                Some(line) => text.push_str(&format!(
                    " It was bound at line {line} of this file in the base commit."
                )),
                None => text.push_str(" It was bound in this file in the base commit."),
            }
        }
    }
    let question = row.review_question();
    if !question.is_empty() {
        text.push_str(&format!(" Review: {question}"));
    }
    one_line(&text)
}

/// The physical location: the file as a relative URI reference, and the
/// line when it is one of the head commit.
fn location(row: &RowFacts<'_>) -> Option<Value> {
    let at = row.location.as_ref()?;
    let mut physical = Map::new();
    physical.insert("artifactLocation".into(), json!({"uri": uri(&at.path)}));
    if let (Commit::Head, Some(line)) = (at.commit, at.line) {
        physical.insert("region".into(), json!({"startLine": line}));
    }
    Some(json!({"physicalLocation": Value::Object(physical)}))
}

/// A rooted path as a relative URI reference: every byte but unreserved
/// characters and `/` percent-encoded, so a space, `%`, `#`, `?` or a
/// colon (which would read as a scheme) stays part of the path.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The row's identity across runs (the agent's file, the agent, the
/// tool: what rows pair by), hashed: stable while the binding is the
/// same binding, whatever its line.
fn fingerprint(row: &RowFacts<'_>) -> String {
    let identity = format!("{}\0{}\0{}", row.agent_source, row.agent, row.tool);
    let digest = Sha256::digest(identity.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("app/agent.py"), "app/agent.py");
        assert_eq!(uri("my app/a#b?.py"), "my%20app/a%23b%3F.py");
        assert_eq!(uri("c:/x%y.py"), "c%3A/x%25y.py");
        assert_eq!(uri("名.py"), "%E5%90%8D.py");
    }
}
