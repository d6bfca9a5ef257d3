//! The `summary` block (spec "Findings first", contract §5.2): what a
//! reviewer reads first, derived from the sanitised rows and limits alone.
//!
//! Invariant: the summary states nothing a row (or a limit, or a
//! `declared_effects` entry) does not. Every finding, tool, cause and
//! question names the rows it summarises by index into `rows`, and every
//! declared-effects line its entry by index into `declared_effects`;
//! nothing here looks at a graph, a file or a fact the document does not
//! already carry. It changes no row, status or exit code.

use crate::json_fields::{array, text};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

mod causes;
mod questions;
#[cfg(test)]
mod tests;
mod tools;

use causes::*;
use questions::*;
use tools::*;

/// The changes a row can have, in the order counts list them.
const CHANGES: [&str; 4] = ["added", "removed", "changed", "not_established"];

/// The `summary` object of a (sanitised) document.
pub fn summary(doc: &Value) -> Value {
    let rows = array(doc, "rows");
    let stated: BTreeSet<&str> = rows.iter().flat_map(uncertainty_reasons).collect();
    let limits = unstated_limits(doc, &stated);
    let causes = causes(rows);
    let mut findings = Vec::new();
    let mut claimed: BTreeSet<usize> = BTreeSet::new();
    let found = agents(rows);
    for (agent, source, indexes) in &found {
        // A limit is this finding's when it names this agent and its file
        // (any side's: a moved application's base names the old path); one
        // that names no file only when no other finding has the name.
        let sources = sources_of(rows, agent, indexes);
        let namesakes = found.iter().filter(|(a, _, _)| a == agent).count();
        let own: Vec<&Limit> = limits
            .iter()
            .filter(|l| l.agent.as_deref() == Some(agent.as_str()))
            .filter(|l| match &l.source {
                Some(file) => sources.contains(file.as_str()),
                None => namesakes == 1,
            })
            .collect();
        for limit in &own {
            claimed.insert(limit.index);
        }
        let mut found = finding(rows, agent, source, indexes, &causes, &own);
        if let Some(from) = renamed_from(doc, agent, source) {
            found["renamed_from"] = json!(from);
        }
        findings.push(found);
    }
    let not_read = not_read(limits.iter().filter(|l| !claimed.contains(&l.index)));
    let mut out = Map::new();
    out.insert("counts".into(), counts(rows, 0..rows.len()));
    out.insert("findings".into(), Value::Array(findings));
    out.insert("effects".into(), effects(rows));
    out.insert(
        "causes".into(),
        Value::Array(causes.iter().map(Cause::to_json).collect()),
    );
    out.insert("not_read".into(), Value::Array(not_read));
    // Agents renamed in place whose bindings did not change: no finding
    // carries them, so the summary names them.
    let unchanged_renames: Vec<Value> = array(doc, "agent_correspondence")
        .iter()
        .filter(|r| {
            !found
                .iter()
                .any(|(a, s, _)| a == text(r, "head_agent") && s == text(r, "agent_source"))
        })
        .map(|r| json!({"agent": text(r, "head_agent"), "agent_source": text(r, "agent_source"), "renamed_from": text(r, "base_agent")}))
        .collect();
    if !unchanged_renames.is_empty() {
        out.insert("renamed".into(), Value::Array(unchanged_renames));
    }
    let declared = declared_effects(doc);
    if !declared.is_empty() {
        out.insert("declared_effects".into(), Value::Array(declared));
    }
    let candidates = rows
        .iter()
        .filter(|r| change(r) == "not_established")
        .count();
    if candidates > 0 {
        let noun = if candidates == 1 {
            "candidate change as a change"
        } else {
            "candidate changes as changes"
        };
        out.insert(
            "question".into(),
            json!(format!(
                "Resolve the named causes before treating the {candidates} {noun}."
            )),
        );
    }
    Value::Object(out)
}

/// What each `declared_effects[]` entry of the document says, naming it by
/// index: a declaration that a tool's reach now contradicts comes first.
fn declared_effects(doc: &Value) -> Vec<Value> {
    let rank = |change: &str| match change {
        "new" => 0,
        "changed" => 1,
        "not_established" => 2,
        _ => 3,
    };
    let mut entries: Vec<(usize, &Value)> =
        array(doc, "declared_effects").iter().enumerate().collect();
    entries.sort_by_key(|(index, entry)| (rank(text(entry, "change")), *index));
    entries
        .into_iter()
        .map(|(index, entry)| {
            json!({
                "index": index,
                "tool": text(entry, "tool"),
                "server": entry.get("server").cloned().unwrap_or(Value::Null),
                "source": text(entry, "source"),
                "change": text(entry, "change"),
                "text": text(entry, "text"),
            })
        })
        .collect()
}

fn change(row: &Value) -> &str {
    text(row, "change")
}

/// The side a row's facts are read from: after, else before.
fn side(row: &Value) -> Option<&Value> {
    ["after", "before"]
        .iter()
        .filter_map(|k| row.get(*k))
        .find(|v| v.is_object())
}

fn uncertainty_reasons(row: &Value) -> impl Iterator<Item = &str> {
    ["base", "head"].into_iter().flat_map(move |s| {
        row.get("uncertainty")
            .and_then(|u| u.get(s))
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter_map(Value::as_str)
    })
}

fn counts(rows: &[Value], indexes: impl IntoIterator<Item = usize>) -> Value {
    let mut counts = [0u64; 4];
    let mut total = 0u64;
    for index in indexes {
        total += 1;
        if let Some(at) = rows
            .get(index)
            .and_then(|r| CHANGES.iter().position(|c| *c == change(r)))
        {
            counts[at] += 1;
        }
    }
    json!({"total": total, "added": counts[0], "removed": counts[1], "changed": counts[2], "not_established": counts[3]})
}

/// The base name of an agent renamed in place (`agent_correspondence`),
/// by its head name and rooted file.
fn renamed_from<'d>(doc: &'d Value, agent: &str, source: &str) -> Option<&'d str> {
    array(doc, "agent_correspondence")
        .iter()
        .find(|r| text(r, "head_agent") == agent && text(r, "agent_source") == source)
        .map(|r| text(r, "base_agent"))
}

/// Agents with rows, in first-row order: `(agent, rooted source, rows)`.
fn agents(rows: &[Value]) -> Vec<(String, String, Vec<usize>)> {
    let mut out: Vec<(String, String, Vec<usize>)> = Vec::new();
    for (index, row) in rows.iter().enumerate() {
        let agent = text(row, "agent").to_string();
        // The side's `agent_source` is rooted; the row's is scope-relative
        // in a single document.
        let source = side(row)
            .map(|s| text(s, "agent_source"))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| text(row, "agent_source"))
            .to_string();
        match out.iter_mut().find(|(a, s, _)| *a == agent && *s == source) {
            Some((_, _, indexes)) => indexes.push(index),
            None => out.push((agent, source, vec![index])),
        }
    }
    out
}

/// Every rooted `agent_source` the sides of an agent's rows name.
fn sources_of<'r>(rows: &'r [Value], agent: &str, indexes: &[usize]) -> BTreeSet<&'r str> {
    indexes
        .iter()
        .filter_map(|&i| rows.get(i))
        .filter(|r| text(r, "agent") == agent)
        .flat_map(|r| ["before", "after"].into_iter().filter_map(|k| r.get(k)))
        .map(|s| text(s, "agent_source"))
        .filter(|s| !s.is_empty())
        .collect()
}

fn finding(
    rows: &[Value],
    agent: &str,
    source: &str,
    indexes: &[usize],
    causes: &[Cause],
    own_limits: &[&Limit],
) -> Value {
    let mut tools = Vec::new();
    let mut first_unresolved = Value::Null;
    // Prefer a reason that names a place.
    let mut first_anywhere = Value::Null;
    for &index in indexes {
        let row = &rows[index];
        tools.push(tool(row, index));
        for reason in uncertainty_reasons(row) {
            let entry =
                json!({"kind": "binding", "text": reason, "at": place(reason), "row": index});
            if first_unresolved.is_null() && place(reason).is_some() {
                first_unresolved = entry.clone();
            }
            if first_anywhere.is_null() {
                first_anywhere = entry;
            }
        }
    }
    if first_unresolved.is_null() {
        first_unresolved = first_anywhere;
    }
    if first_unresolved.is_null() {
        if let Some(limit) = own_limits.first() {
            first_unresolved = json!({"kind": "agent", "text": limit.text, "at": place(&limit.text), "row": Value::Null});
        }
    }
    if first_unresolved.is_null() {
        // A tool whose reach the reader stopped short of.
        for &index in indexes {
            if let Some(limit) = reach_limits(&rows[index]).first() {
                first_unresolved = json!({"kind": "reach", "text": text(limit, "why"), "at": limit.get("at").cloned().unwrap_or(Value::Null), "row": index});
                break;
            }
        }
    }
    let status = if first_unresolved.is_null() {
        "compared"
    } else {
        "partial"
    };
    let own_causes: Vec<usize> = causes
        .iter()
        .enumerate()
        .filter(|(_, c)| c.rows.iter().any(|r| indexes.contains(r)))
        .map(|(i, _)| i)
        .collect();
    let mut out = Map::new();
    out.insert("agent".into(), json!(agent));
    out.insert("agent_source".into(), json!(source));
    out.insert("status".into(), json!(status));
    out.insert("rows".into(), json!(indexes));
    out.insert("counts".into(), counts(rows, indexes.iter().copied()));
    out.insert("first_unresolved".into(), first_unresolved);
    let shorts = |kinds: &[&str]| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for &index in indexes {
            if change(&rows[index]) == "not_established" {
                continue;
            }
            for fact in reach_facts(&rows[index]) {
                if kinds.contains(&text(&fact, "kind")) {
                    let short = text(&fact, "short").to_string();
                    if !out.contains(&short) {
                        out.push(short);
                    }
                }
            }
        }
        out
    };
    let mut capabilities = shorts(&["reaches", "reaches_new"]);
    capabilities.extend(added_objects(rows, indexes));
    out.insert("capabilities".into(), json!(capabilities));
    out.insert(
        "changed_capabilities".into(),
        json!(shorts(&["reaches_changed"])),
    );
    out.insert(
        "unchanged_capabilities".into(),
        json!(shorts(&["reaches_same"])),
    );
    out.insert("tools".into(), Value::Array(tools));
    out.insert("causes".into(), json!(own_causes));
    out.insert(
        "questions".into(),
        Value::Array(questions(rows, agent, indexes)),
    );
    if !own_limits.is_empty() {
        out.insert("agent_limits".into(), limit_group(own_limits));
    }
    Value::Object(out)
}
