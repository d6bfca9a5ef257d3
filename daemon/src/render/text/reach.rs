//! What a side's tool reaches: HTTP calls grouped by endpoint, their
//! fields, model-supplied parameters and credentials, effects beyond
//! HTTP, and the effect evidence line.

use serde_json::Value;

use super::*;

pub(super) fn reach_lines(out: &mut Out, binding: &Value, reach: &Value) {
    let calls = items(reach, "calls");
    for group in group_calls(calls) {
        call_group_lines(out, &group);
    }
    let effects = items(reach, "effects");
    for effect in effects {
        effect_lines(out, effect);
    }
    let limits = items(reach, "limits");
    // An effect claim is only worth a line when something was reached.
    let evidence = get(binding, "effect_evidence").filter(|e| e.is_object());
    if let Some(evidence) =
        evidence.filter(|_| !calls.is_empty() || !effects.is_empty() || !limits.is_empty())
    {
        out.line(4, &one_line(&effect_line(evidence)));
    }
    for limit in limits.iter().take(REACH_LIMITS_SHOWN) {
        let line = format!(
            "reach limit: {} {}",
            field(limit, "at"),
            field(limit, "why")
        );
        // A reach line of §4.3 (`<at> <why>`), never wrapped.
        out.line(4, &one_line(&line));
    }
    let more_listed = limits.len().saturating_sub(REACH_LIMITS_SHOWN) as u64;
    let more_dropped = get(reach, "more_limits")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let more = more_listed + more_dropped;
    if more > 0 {
        out.line(4, &format!("reach limit: and {more} more"));
    }
}

/// One effect beyond HTTP (schema 0.4, `reach.effects`):
/// `reaches: database read SELECT (postgresql, psycopg2 cursor.execute) at … via …`,
/// then its host, credentials and model-supplied parameters.
pub(super) fn effect_lines(out: &mut Out, effect: &Value) {
    let mut what = format!("{} {}", field(effect, "family"), field(effect, "operation"));
    for key in ["statement", "target"] {
        if let Some(value) = non_null(effect, key) {
            what.push(' ');
            what.push_str(&py_str(Some(value)));
        }
    }
    let detail: Vec<String> = ["service", "library"]
        .iter()
        .filter_map(|k| non_null(effect, k).map(|v| py_str(Some(v))))
        .collect();
    let via = strings(effect, "via");
    let via = if via.is_empty() {
        String::new()
    } else {
        format!(" via {}", via.join(" → "))
    };
    out.line(
        4,
        &one_line(&format!(
            "reaches: {what} ({} {}) at {}{via}",
            detail.join(", "),
            field(effect, "call"),
            field(effect, "at")
        )),
    );
    if let Some(host) = non_null(effect, "host") {
        out.line(6, &one_line(&format!("host: {}", py_str(Some(host)))));
    }
    for credential in items(effect, "credential_sources") {
        out.line(
            6,
            &one_line(&format!("credential: {}", credential_text(credential))),
        );
    }
    let model: Vec<String> = items(effect, "model_supplied")
        .iter()
        .map(|m| format!("{} → {}", field(m, "param"), field(m, "into")))
        .collect();
    if !model.is_empty() {
        out.line(
            6,
            &one_line(&format!("model-supplied: {}", model.join("; "))),
        );
    }
}

/// Calls grouped by (method, url, graphql), groups in first-seen order.
pub(super) fn group_calls(calls: &[Value]) -> Vec<Vec<&Value>> {
    let key = |call: &Value| {
        let part = |k: &str| get(call, k).cloned().unwrap_or(Value::Null);
        (part("method"), part("url"), part("graphql"))
    };
    let mut keys = Vec::new();
    let mut groups: Vec<Vec<&Value>> = Vec::new();
    for call in calls {
        let k = key(call);
        match keys.iter().position(|seen| *seen == k) {
            Some(i) => groups[i].push(call),
            None => {
                keys.push(k);
                groups.push(vec![call]);
            }
        }
    }
    groups
}

/// The `reaches:` line of one group and its field, model-supplied and
/// credential lines.
pub(super) fn call_group_lines(out: &mut Out, group: &[&Value]) {
    let Some(first) = group.first() else {
        return;
    };
    out.line(4, &one_line(&reaches_line(first, group.len())));
    let mut details = Vec::new();
    for call in group {
        for f in items(call, "fields") {
            if let Some(line) = field_line(f) {
                push_unique(&mut details, line);
            }
        }
    }
    if let Some(line) = model_supplied_line(group) {
        details.push(line);
    }
    details.extend(credential_lines(group));
    for line in details {
        out.line(6, &one_line(&line));
    }
}

/// `reaches: <METHOD> <url>[ (GraphQL <op>)] at <at>[ via …][, and N more call site(s)]`.
pub(super) fn reaches_line(first: &Value, group_len: usize) -> String {
    let method = match non_null(first, "method") {
        Some(m) => py_str(Some(m)),
        None => "an unread method".to_string(),
    };
    let graphql = match non_null(first, "graphql") {
        Some(op) => format!(" (GraphQL {})", py_str(Some(op))),
        None => String::new(),
    };
    let via = strings(first, "via");
    let via = if via.is_empty() {
        String::new()
    } else {
        format!(" via {}", via.join(" → "))
    };
    let more = match group_len.saturating_sub(1) {
        0 => String::new(),
        1 => ", and 1 more call site".to_string(),
        n => format!(", and {n} more call sites"),
    };
    format!(
        "reaches: {method} {}{graphql} at {}{via}{more}",
        field(first, "url"),
        field(first, "at")
    )
}

/// `field <name> ∈ {a, b}[, decided by p]` or `field <name> = <JSON>`;
/// fields without a name or without a printable value print nothing.
pub(super) fn field_line(f: &Value) -> Option<String> {
    let name = non_null(f, "field").map(|n| py_str(Some(n)))?;
    if let Some(values) = get(f, "values").and_then(Value::as_array) {
        let values: Vec<String> = values.iter().map(|v| py_str(Some(v))).collect();
        let decided = strings(f, "decided_by");
        let decided = if decided.is_empty() {
            String::new()
        } else {
            format!(", decided by {}", decided.join(", "))
        };
        return Some(format!("field {name} ∈ {{{}}}{decided}", values.join(", ")));
    }
    get(f, "value").map(|value| format!("field {name} = {}", pyjson::to_python_default(value)))
}

/// `model-supplied: p → into; …`, de-duplicated over the group.
pub(super) fn model_supplied_line(group: &[&Value]) -> Option<String> {
    let mut pairs = Vec::new();
    for call in group {
        for m in items(call, "model_supplied") {
            push_unique(
                &mut pairs,
                format!("{} → {}", field(m, "param"), field(m, "into")),
            );
        }
    }
    (!pairs.is_empty()).then(|| format!("model-supplied: {}", pairs.join("; ")))
}

/// One `credential:` line per distinct credential, marked when not every
/// call of the group sends it.
pub(super) fn credential_lines(group: &[&Value]) -> Vec<String> {
    let mut lines: Vec<(String, usize)> = Vec::new();
    for call in group {
        for credential in items(call, "credential_sources") {
            let text = credential_text(credential);
            match lines.iter_mut().find(|(seen, _)| *seen == text) {
                Some((_, count)) => *count += 1,
                None => lines.push((text, 1)),
            }
        }
    }
    lines
        .into_iter()
        .map(|(text, count)| {
            let some = if count < group.len() {
                " (at some call sites)"
            } else {
                ""
            };
            format!("credential: {text}{some}")
        })
        .collect()
}

/// `<sources> → <target>` for one credential source.
pub(super) fn credential_text(credential: &Value) -> String {
    let mut sources: Vec<String> = strings(credential, "env")
        .into_iter()
        .map(|var| format!("env {var}"))
        .collect();
    let params = strings(credential, "from");
    if !params.is_empty() {
        sources.push(format!(
            "a value made from model-supplied {}",
            params.join(", ")
        ));
    }
    if get(credential, "literal").and_then(Value::as_bool) == Some(true) {
        sources.push("a literal (not printed)".to_string());
    }
    if sources.is_empty() {
        sources.push("a computed value".to_string());
    }
    format!("{} → {}", sources.join(", "), credential_target(credential))
}

/// The first target key present, as `<kind> <name>` or `<kind>`.
pub(super) fn credential_target(credential: &Value) -> String {
    let Some(map) = credential.as_object() else {
        return "an unnamed target".to_string();
    };
    [
        "header",
        "auth",
        "query",
        "field",
        "userinfo",
        "keyword",
        "env_entry",
    ]
    .iter()
    .find_map(|kind| {
        let label = kind.replace('_', " ");
        map.get(*kind).map(|name| match name {
            Value::Null => label,
            other => format!("{label} {}", py_str(Some(other))),
        })
    })
    .unwrap_or_else(|| "an unnamed target".to_string())
}

/// `effect: <conservative> (<status label>[<basis>])`.
pub(super) fn effect_line(evidence: &Value) -> String {
    let effect = field(evidence, "conservative_effect");
    let status = field(evidence, "status");
    format!(
        "effect: {effect} ({}{})",
        crate::render::findings::status_label(&status),
        effect_basis(evidence, &effect, &status)
    )
}

/// The basis suffix, only for structural evidence from an HTTP call: the
/// claim matching the conservative effect (else the first claim) says
/// either that every call reads or where the outbound call is.
pub(super) fn effect_basis(evidence: &Value, effect: &str, status: &str) -> String {
    if status != "structural" {
        return String::new();
    }
    let claims = items(evidence, "claims");
    let chosen = claims
        .iter()
        .find(|c| field(c, "value") == effect)
        .or_else(|| claims.first());
    let Some(claim) = chosen else {
        return String::new();
    };
    if field(claim, "source") != "source_http_call" {
        return String::new();
    }
    if field(claim, "value") == "read" {
        ": every call was followed, and every outbound call reads".to_string()
    } else {
        format!(": outbound call at {}", field(claim, "at"))
    }
}
