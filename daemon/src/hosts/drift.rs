//! `audit --host --save-baseline` and `--drift` (issue 42): the baseline
//! file a team commits, and what the current grants change against it.
//! The file holds the reference's inventory document and, beside it, the
//! inventory as this reader keeps it, so drift is the same comparison a
//! `diff` makes (`compare`): its rows, and the reference's `changes` by
//! grant id and `expansion_signals` made from them.

use super::compare::compare;
use super::diff::HostRow;
use super::digest::sha256;
use super::inventory::HostInventory;
use super::HOST_READER_VERSION;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::fmt::Write;

pub const BASELINE_SCHEMA_VERSION: &str = "0.7";

/// The baseline file's text for `inventory` and its document.
pub fn baseline(inventory: &HostInventory, doc: &Value) -> String {
    let file = json!({
        "host_grants_schema_version": BASELINE_SCHEMA_VERSION,
        "inventory": without_workspace(doc),
        "shipgate": {
            "host_reader_version": HOST_READER_VERSION,
            "inventory": inventory,
        },
    });
    crate::render::pyjson::to_pretty(&file)
}

/// What the baseline's grants are: a digest of the document's artifacts
/// and grants, the same for the same grants wherever they were read.
pub fn grants_sha256(doc: &Value) -> String {
    sha256(&json!({"artifacts": doc["artifacts"], "grants": doc["grants"]}))
}

fn without_workspace(doc: &Value) -> Value {
    let mut doc = doc.clone();
    if let Some(map) = doc.as_object_mut() {
        map.remove("workspace");
    }
    doc
}

/// A baseline file read back.
pub struct Baseline {
    pub doc: Value,
    pub inventory: HostInventory,
}

/// The baseline file's text read; else why it cannot be used.
pub fn read_baseline(text: &str) -> Result<Baseline, String> {
    let file: Value =
        serde_json::from_str(text).map_err(|err| format!("it is not JSON ({err})"))?;
    let Some(ours) = file.get("shipgate") else {
        return Err("it was not recorded by shipgate (no `shipgate` section); record it again with --save-baseline".into());
    };
    if ours["host_reader_version"] != json!(HOST_READER_VERSION) {
        return Err("it was recorded by another version of shipgate's host reader; record it again with --save-baseline".into());
    }
    let inventory: HostInventory =
        serde_json::from_value(ours["inventory"].clone()).map_err(|err| {
            format!("its inventory does not read ({err}); record it again with --save-baseline")
        })?;
    Ok(Baseline {
        doc: file["inventory"].clone(),
        inventory,
    })
}

/// The drift document of the current inventory against the baseline.
pub fn drift(
    baseline: &Baseline,
    current: &HostInventory,
    current_doc: &Value,
    baseline_file: &str,
) -> Value {
    let comparison = compare(&baseline.inventory, current);
    let by_id = |doc: &Value, key: &str| -> BTreeMap<String, Value> {
        doc[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|g| {
                Some((
                    g[format!("{}_id", key.trim_end_matches('s'))]
                        .as_str()?
                        .to_string(),
                    g.clone(),
                ))
            })
            .collect()
    };
    let changed = |key: &str, digest: &str| -> Vec<Value> {
        let (old, new) = (by_id(&baseline.doc, key), by_id(current_doc, key));
        let mut ids: Vec<&String> = old.keys().chain(new.keys()).collect();
        ids.sort();
        ids.dedup();
        ids.into_iter()
            .filter(|id| old.get(*id).map(|g| &g[digest]) != new.get(*id).map(|g| &g[digest]))
            .map(|id| {
                let mut change = Map::new();
                change.insert(format!("{}_id", key.trim_end_matches('s')), json!(id));
                change.insert(
                    "baseline".into(),
                    old.get(id).cloned().unwrap_or(Value::Null),
                );
                change.insert(
                    "current".into(),
                    new.get(id).cloned().unwrap_or(Value::Null),
                );
                let mut entries: Vec<(String, Value)> = change.into_iter().collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                Value::Object(entries.into_iter().collect())
            })
            .collect()
    };
    let changes = changed("grants", "config_sha256");
    let artifact_changes = changed("artifacts", "redacted_sha256");
    let mut signals: Vec<String> = comparison
        .rows
        .iter()
        .filter(|r| r.expands)
        .map(signal)
        .collect();
    signals.sort();
    let has_drift = !changes.is_empty() || !artifact_changes.is_empty();
    json!({
        "artifact_changes": artifact_changes,
        "baseline_file": baseline_file,
        "baseline_sha256": grants_sha256(&baseline.doc),
        "changes": changes,
        "comparison_status": super::document::status(&comparison),
        "coverage_changes": [],
        "current_sha256": grants_sha256(current_doc),
        "expansion_signals": signals,
        "has_drift": has_drift,
        "host_grants_schema_version": BASELINE_SCHEMA_VERSION,
        "incomparable_reasons": comparison.incomparable,
        "issues": current_doc["issues"],
        "next_action": if has_drift { json!("After human review, re-record with `shipgate-client audit --host --save-baseline`.") } else { Value::Null },
        "rows": super::document::rows(&comparison),
        "scope": "repository",
    })
}

/// An expansion signal: what kind of grant moved which way, and which.
fn signal(row: &HostRow) -> String {
    let kind = match (row.kind, row.disposition) {
        ("permission_rule", Some(d)) => format!("{}_rule", d.name()),
        ("workflow", _) => "workflow_write".to_string(),
        (kind, _) => kind.to_string(),
    };
    let direction = row.direction.name();
    let what = match row.kind {
        "permission_rule" | "mcp_server" | "hook" => {
            let shown = row.after.as_ref().or(row.before.as_ref());
            format!(
                "{}:{}",
                row.host.name(),
                shown.map_or("", |s| s.short.as_str())
            )
        }
        "workflow" => row.source.clone(),
        _ => format!("{}:{}", row.host.name(), row.source),
    };
    format!("{kind}_{direction}: {what}")
}

/// The drift document as the reference's markdown.
pub fn markdown(doc: &Value) -> String {
    let mut out = String::from("# Host Grant Drift\n\n");
    if doc["has_drift"] != json!(true) {
        out.push_str("No drift — current host grants match the acknowledged baseline.\n");
        return out;
    }
    let changes = doc["changes"].as_array().map_or(0, Vec::len);
    let _ = writeln!(
        out,
        "**Drift detected** — {changes} typed grant change(s).\n"
    );
    let signals = doc["expansion_signals"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    if !signals.is_empty() {
        out.push_str("## Expansion signals\n\n");
        for signal in signals {
            let _ = writeln!(out, "- ⚠ `{}`", signal.as_str().unwrap_or(""));
        }
        out.push('\n');
    }
    out.push_str(
        "After human review, re-record with `shipgate-client audit --host --save-baseline`.\n",
    );
    out
}
