//! A finding's tools: each row's facts, what its tool reaches, and the
//! objects an agent gains.

use super::*;

/// An added object tool's description: the capability it is.
pub(super) fn added_objects(rows: &[Value], indexes: &[usize]) -> Vec<String> {
    indexes
        .iter()
        .filter_map(|&i| rows.get(i))
        .filter(|r| change(r) == "added")
        .filter_map(|r| r.get("after")?.get("object"))
        .map(object_text)
        .collect()
}

/// `{"row", "tool", "change", "candidate_change", "facts", …}`.
pub(super) fn tool(row: &Value, index: usize) -> Value {
    let mut out = Map::new();
    out.insert("row".into(), json!(index));
    out.insert("tool".into(), json!(text(row, "tool")));
    out.insert("change".into(), json!(change(row)));
    out.insert(
        "candidate_change".into(),
        row.get("candidate_change").cloned().unwrap_or(Value::Null),
    );
    out.insert("facts".into(), Value::Array(facts(row)));
    let reasons: Vec<&str> = uncertainty_reasons(row).collect();
    let limits = reach_limits(row);
    if let Some(first) = reasons.first() {
        let distinct: BTreeSet<&str> = reasons.iter().copied().collect();
        out.insert(
            "unresolved".into(),
            json!({"at": place(first), "why": first, "count": distinct.len()}),
        );
    } else if let Some(first) = limits.first() {
        let more = side(row)
            .and_then(|s| s.get("reach"))
            .and_then(|r| r.get("more_limits"))
            .and_then(Value::as_u64)
            .unwrap_or(0);
        out.insert(
            "unresolved".into(),
            json!({"at": first.get("at").cloned().unwrap_or(Value::Null), "why": text(first, "why"), "count": limits.len() as u64 + more}),
        );
    }
    if change(row) != "not_established" {
        if let Some(effect) = side(row).and_then(|s| s.get("effect_evidence")) {
            out.insert(
                "effect".into(),
                json!({"effect": effect.get("conservative_effect").cloned().unwrap_or(Value::Null), "status": effect.get("status").cloned().unwrap_or(Value::Null)}),
            );
        }
    }
    Value::Object(out)
}

/// What differs between a row's sides (`change` facts), and what an object
/// tool is (`object` facts).
pub(super) fn facts(row: &Value) -> Vec<Value> {
    // What guards the call first (`gate_changes`): the change a reviewer
    // must not miss.
    let mut facts: Vec<Value> = array(row, "gate_changes")
        .iter()
        .filter_map(|c| c["text"].as_str())
        .map(|text| change_fact(format!("gate {text}")))
        .collect();
    let (before, after) = (row.get("before"), row.get("after"));
    if let (Some(before), Some(after)) = (
        before.filter(|v| v.is_object()),
        after.filter(|v| v.is_object()),
    ) {
        let digest = |side: &Value| {
            side.get("definition")
                .and_then(|d| d.get("implementation_sha256"))
                .cloned()
        };
        let arguments = |side: &Value| -> BTreeSet<String> {
            side.get("input_schema")
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default()
        };
        let (was, now) = (arguments(before), arguments(after));
        let mut delta: Vec<String> = now.difference(&was).map(|a| format!("+{a}")).collect();
        delta.extend(was.difference(&now).map(|a| format!("-{a}")));
        if !delta.is_empty() {
            facts.push(change_fact(format!("arguments {}", delta.join(", "))));
        } else if before.get("signature") != after.get("signature")
            || before.get("input_schema") != after.get("input_schema")
            || before.get("output_schema") != after.get("output_schema")
        {
            facts.push(change_fact("signature changed".into()));
        }
        if digest(before) != digest(after) {
            facts.push(change_fact("implementation changed".into()));
        }
        let bound = |side: &Value| -> String {
            let when: Vec<&str> = array(side, "bound_when")
                .iter()
                .filter_map(Value::as_str)
                .collect();
            if when.is_empty() {
                "always".into()
            } else {
                format!("only when {}", when.join(" or "))
            }
        };
        if bound(before) != bound(after) {
            facts.push(change_fact(format!(
                "bound {} → {}",
                bound(before),
                bound(after)
            )));
        }
        if before.get("agent_settings") != after.get("agent_settings") {
            facts.push(change_fact("agent settings changed".into()));
        }
        if let (Some(was), Some(now)) = (
            before.get("object").and_then(Value::as_object),
            after.get("object").and_then(Value::as_object),
        ) {
            let keys: BTreeSet<&String> = was.keys().chain(now.keys()).collect();
            let changed: Vec<&str> = keys
                .into_iter()
                .filter(|k| was.get(*k) != now.get(*k))
                .map(String::as_str)
                .collect();
            if !changed.is_empty() {
                facts.push(change_fact(format!(
                    "tool object changed ({})",
                    changed.join(", ")
                )));
            }
        }
    }
    facts.extend(reach_facts(row));
    if let Some(object) = side(row).and_then(|s| s.get("object")) {
        let mut fact = Map::new();
        fact.insert("kind".into(), json!("object"));
        fact.insert("text".into(), json!(object_text(object)));
        let credentials: Vec<Value> = array(object, "credentials")
            .iter()
            .filter_map(|c| c.get("name").or(Some(c)).cloned())
            .filter(Value::is_string)
            .collect();
        if !credentials.is_empty() {
            fact.insert("credentials".into(), Value::Array(credentials));
        }
        facts.push(Value::Object(fact));
    }
    facts
}

/// The reach limits of a row's side.
pub(super) fn reach_limits(row: &Value) -> Vec<&Value> {
    side(row)
        .and_then(|s| s.get("reach"))
        .map(|r| array(r, "limits").iter().collect())
        .unwrap_or_default()
}

/// What a side's reach names: HTTP calls and library effects, each with
/// a key that says when two sides name the same one, and what it sends.
pub(super) fn reached(side: &Value) -> Vec<(String, Value)> {
    let Some(reach) = side.get("reach") else {
        return Vec::new();
    };
    let mut out: Vec<(String, Value)> = Vec::new();
    for call in array(reach, "calls") {
        let method = call
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("an unread method");
        let url = text(call, "url");
        let target = format!("{method} {url}");
        let host = url
            .split_once("://")
            .map(|(_, rest)| rest.split(['/', '?']).next().unwrap_or(rest).to_string())
            .unwrap_or_default();
        let short = if host.is_empty() {
            method.to_string()
        } else {
            format!("{method} {host}")
        };
        let credentials: Vec<String> = array(call, "credential_sources")
            .iter()
            .map(credential_text)
            .collect();
        let model: Vec<String> = array(call, "model_supplied")
            .iter()
            .map(|m| text(m, "param").to_string())
            .collect();
        let mut fact = json!({"text": target, "target": target, "short": short, "at": call.get("at").cloned().unwrap_or(Value::Null)});
        if !host.is_empty() {
            fact["host"] = json!(host);
        }
        if !credentials.is_empty() {
            fact["credentials"] = json!(credentials);
        }
        if !model.is_empty() {
            fact["model_supplied"] = json!(model);
        }
        out.push((target, fact));
    }
    for effect in array(reach, "effects") {
        let short = format!("{} {}", text(effect, "family"), text(effect, "operation"));
        let mut target = short.clone();
        for key in ["statement", "target"] {
            if let Some(v) = effect.get(key).and_then(Value::as_str) {
                target.push(' ');
                target.push_str(v);
            }
        }
        let detail = [
            effect.get("service").and_then(Value::as_str),
            Some(text(effect, "library")),
        ]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ");
        let text_line = format!("{target} ({detail} {})", text(effect, "call"));
        let model: Vec<String> = array(effect, "model_supplied")
            .iter()
            .map(|m| text(m, "param").to_string())
            .collect();
        let mut fact = json!({"text": text_line, "target": target, "short": short, "at": effect.get("at").cloned().unwrap_or(Value::Null)});
        if let Some(host) = effect.get("host") {
            fact["host"] = host.clone();
        }
        if !model.is_empty() {
            fact["model_supplied"] = json!(model);
        }
        out.push((target, fact));
    }
    out
}

/// `env SHOP_TOKEN → header Authorization`.
pub(super) fn credential_text(credential: &Value) -> String {
    let kinds = ["header", "auth", "query", "field", "userinfo", "keyword"];
    let target = kinds
        .iter()
        .find_map(|k| {
            credential.get(*k).map(|name| match name.as_str() {
                Some(name) => format!("{k} {name}"),
                None => k.to_string(),
            })
        })
        .unwrap_or_default();
    let mut sources: Vec<String> = array(credential, "env")
        .iter()
        .filter_map(Value::as_str)
        .map(|e| format!("env {e}"))
        .collect();
    let from: Vec<&str> = array(credential, "from")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if !from.is_empty() {
        sources.push(format!(
            "a value made from model-supplied {}",
            from.join(", ")
        ));
    }
    if credential.get("literal").is_some() {
        sources.push("a literal (not printed)".into());
    }
    if sources.is_empty() {
        sources.push("a computed value".into());
    }
    format!("{} → {target}", sources.join(", "))
}

/// Reach facts of a row: what an added tool reaches; for a changed one,
/// what is new, dropped, the same, or sent differently.
pub(super) fn reach_facts(row: &Value) -> Vec<Value> {
    let with_kind = |kind: &str, mut fact: Value| {
        fact["kind"] = json!(kind);
        let text = format!(
            "{} {}",
            kind.replace('_', " "),
            fact["text"].as_str().unwrap_or("")
        );
        fact["text"] = json!(text);
        fact
    };
    let before = row.get("before").filter(|v| v.is_object());
    let after = row.get("after").filter(|v| v.is_object());
    match (before, after, change(row)) {
        (None, Some(after), _) => reached(after)
            .into_iter()
            .map(|(_, fact)| with_kind("reaches", fact))
            .collect(),
        (Some(before), Some(after), "changed") => {
            let was = reached(before);
            let now = reached(after);
            let mut facts = Vec::new();
            for (key, fact) in &now {
                match was.iter().find(|(k, _)| k == key) {
                    None => facts.push(with_kind("reaches_new", fact.clone())),
                    Some((_, old)) => {
                        let sends = |f: &Value| {
                            (
                                f.get("credentials").cloned(),
                                f.get("model_supplied").cloned(),
                            )
                        };
                        if sends(old) == sends(fact) {
                            facts.push(with_kind("reaches_same", fact.clone()));
                        } else {
                            facts.push(with_kind("reaches_changed", fact.clone()));
                        }
                    }
                }
            }
            for (key, fact) in &was {
                if !now.iter().any(|(k, _)| k == key) {
                    facts.push(with_kind("reaches_dropped", fact.clone()));
                }
            }
            facts
        }
        _ => Vec::new(),
    }
}

pub(super) fn change_fact(text: String) -> Value {
    json!({"kind": "change", "text": text})
}

/// An object tool in a few words: its kind and what names it.
pub(super) fn object_text(object: &Value) -> String {
    let kind = text(object, "kind").replace('_', " ");
    let named: Vec<&str> = [
        "transport",
        "host",
        "command",
        "class",
        "agent",
        "tool_name",
    ]
    .iter()
    .map(|k| text(object, k))
    .filter(|v| !v.is_empty())
    .collect();
    if named.is_empty() {
        kind
    } else {
        format!("{kind} {}", named.join(" "))
    }
}
