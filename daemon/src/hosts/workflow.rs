//! GitHub Actions workflows: the events a workflow runs on and what its
//! jobs' tokens may do. A job's token is its own `permissions:`, else the
//! workflow's, else the repository's default (not in the repository, so
//! unknown).

use super::grant::{Grant, Permissions, Workflow};
use super::read::{Malformed, SourceReading};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The workflow document (YAML, as JSON values) read as one grant.
pub fn read(doc: &Value) -> Result<SourceReading, Malformed> {
    let Some(workflow) = doc.as_object() else {
        return Err(Malformed::shape("the workflow is not a mapping"));
    };
    let triggers = triggers(workflow.get("on").or_else(|| workflow.get("true")))?;
    let declared_permissions = permissions(workflow.get("permissions"));
    let mut jobs = BTreeMap::new();
    let mut runs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some(declared) = workflow.get("jobs") {
        let Some(declared) = declared.as_object() else {
            return Err(Malformed::shape("jobs is not a mapping"));
        };
        for (job, body) in declared {
            jobs.insert(job.clone(), permissions(body.get("permissions")));
            if let Some(uses) = body.get("uses").and_then(Value::as_str) {
                runs.entry(job.clone())
                    .or_default()
                    .push(format!("uses: {uses}"));
            }
            let steps = body.get("steps").and_then(Value::as_array);
            for (index, step) in steps.into_iter().flatten().enumerate() {
                let Some(uses) = step.get("uses").and_then(Value::as_str) else {
                    continue;
                };
                if uses.starts_with("./") {
                    continue;
                }
                let key = format!("{job}/steps[{index}]");
                let shown = runs.entry(key).or_default();
                shown.push(format!("uses {uses}"));
                if uses.starts_with("actions/checkout@") || uses == "actions/checkout" {
                    let reference = step.get("with").and_then(|w| w.get("ref"));
                    shown.push(match reference {
                        Some(reference) => format!("checkout of ref {}", printed(reference)),
                        None => "checkout of the default ref".to_string(),
                    });
                }
            }
        }
    }
    Ok(SourceReading {
        grants: vec![Grant::Workflow(Workflow {
            triggers,
            permissions: declared_permissions,
            jobs,
            runs,
        })],
        limits: Vec::new(),
    })
}

/// The events of `on:` (a name, a list of names, or a mapping by name).
fn triggers(on: Option<&Value>) -> Result<Vec<String>, Malformed> {
    let mut events: Vec<String> = match on {
        None => Vec::new(),
        Some(Value::String(event)) => vec![event.clone()],
        Some(Value::Array(events)) => events
            .iter()
            .map(|e| e.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| Malformed::shape("on: lists a value that is not an event name"))?,
        Some(Value::Object(events)) => events.keys().cloned().collect(),
        Some(_) => return Err(Malformed::shape("on: is not an event, a list or a mapping")),
    };
    events.sort();
    events.dedup();
    Ok(events)
}

fn permissions(value: Option<&Value>) -> Permissions {
    match value {
        None | Some(Value::Null) => Permissions::Unset,
        Some(Value::String(all)) => match all.as_str() {
            "read-all" => Permissions::ReadAll,
            "write-all" => Permissions::WriteAll,
            _ => Permissions::Unreadable,
        },
        Some(Value::Object(scopes)) => scoped(scopes),
        Some(_) => Permissions::Unreadable,
    }
}

fn scoped(scopes: &Map<String, Value>) -> Permissions {
    let mut read = BTreeMap::new();
    for (scope, level) in scopes {
        // A level GitHub does not define leaves the token's permission
        // unresolved.
        match level.as_str() {
            Some(level @ ("read" | "write" | "none")) => {
                read.insert(scope.clone(), level.to_string());
            }
            _ => return Permissions::Unreadable,
        }
    }
    Permissions::Scopes(read)
}

fn printed(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
