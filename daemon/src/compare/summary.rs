//! The `summary` block (spec "Findings first", contract §5.2): what a
//! reviewer reads first, derived from the sanitised rows and limits alone.
//!
//! Invariant: the summary states nothing a row (or a limit) does not. Every
//! finding, tool, cause and question names the rows it summarises by index
//! into `rows`; nothing here looks at a graph, a file or a fact the
//! document does not already carry. It changes no row, status or exit code.

use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

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
        findings.push(finding(rows, agent, source, indexes, &causes, &own));
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

fn array<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
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

/// An added object tool's description: the capability it is.
fn added_objects(rows: &[Value], indexes: &[usize]) -> Vec<String> {
    indexes
        .iter()
        .filter_map(|&i| rows.get(i))
        .filter(|r| change(r) == "added")
        .filter_map(|r| r.get("after")?.get("object"))
        .map(object_text)
        .collect()
}

/// `{"row", "tool", "change", "candidate_change", "facts", …}`.
fn tool(row: &Value, index: usize) -> Value {
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
fn facts(row: &Value) -> Vec<Value> {
    let mut facts = Vec::new();
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
fn reach_limits(row: &Value) -> Vec<&Value> {
    side(row)
        .and_then(|s| s.get("reach"))
        .map(|r| array(r, "limits").iter().collect())
        .unwrap_or_default()
}

/// What a side's reach names: HTTP calls and library effects, each with
/// a key that says when two sides name the same one, and what it sends.
fn reached(side: &Value) -> Vec<(String, Value)> {
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
fn credential_text(credential: &Value) -> String {
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
fn reach_facts(row: &Value) -> Vec<Value> {
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

fn change_fact(text: String) -> Value {
    json!({"kind": "change", "text": text})
}

/// An object tool in a few words: its kind and what names it.
fn object_text(object: &Value) -> String {
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

/// The questions the change asks of one agent, each naming its rows.
fn questions(rows: &[Value], agent: &str, indexes: &[usize]) -> Vec<Value> {
    let of = |wanted: &str| -> Vec<usize> {
        indexes
            .iter()
            .copied()
            .filter(|&i| change(&rows[i]) == wanted)
            .collect()
    };
    let names = |picked: &[usize]| -> String {
        picked
            .iter()
            .map(|&i| text(&rows[i], "tool"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out: Vec<Value> = Vec::new();
    let added = of("added");
    if !added.is_empty() {
        // A new write, process, network or database reach asks its own
        // question, with what it sends and what the model controls.
        for &index in &added {
            for fact in reach_facts(&rows[index]) {
                let mut question = format!("Should {agent} reach {}", text(&fact, "target"));
                let credentials: Vec<&str> = array(&fact, "credentials")
                    .iter()
                    .filter_map(Value::as_str)
                    .collect();
                if !credentials.is_empty() {
                    question.push_str(&format!(", sending {}", credentials.join("; ")));
                }
                let model: Vec<&str> = array(&fact, "model_supplied")
                    .iter()
                    .filter_map(Value::as_str)
                    .collect();
                if !model.is_empty() {
                    question.push_str(&format!(
                        ", with the model controlling {}",
                        model.join(", ")
                    ));
                }
                question.push('?');
                if !out
                    .iter()
                    .any(|q: &Value| q["question"] == question.as_str())
                {
                    out.push(json!({"question": question, "rows": [index]}));
                }
            }
        }
        // Tools with no reach of their own get the general question.
        let general: Vec<usize> = added
            .iter()
            .copied()
            .filter(|&i| reach_facts(&rows[i]).is_empty())
            .collect();
        if !general.is_empty() {
            let unread = general.iter().any(|&i| {
                let reach = rows[i].get("after").and_then(|a| a.get("reach"));
                reach.is_none() || reach.is_some_and(|r| !array(r, "limits").is_empty())
            });
            let tail = match (unread, general.len()) {
                (false, _) => "",
                (true, 1) => " What it reaches was not read in full.",
                (true, _) => " What they reach was not read in full.",
            };
            out.push(json!({"question": format!("Should {agent} be able to call {}?{tail}", names(&general)), "rows": general}));
        }
    }
    let removed = of("removed");
    if !removed.is_empty() {
        out.push(json!({"question": format!("Is it intended that {agent} no longer holds {}?", names(&removed)), "rows": removed}));
    }
    for index in of("changed") {
        let what: Vec<String> = facts(&rows[index])
            .iter()
            .filter(|f| f["kind"] == "change")
            .filter_map(|f| f["text"].as_str().map(str::to_string))
            .collect();
        out.push(json!({
            "question": format!("Do the changes to {} ({}) still match what {agent} should do?", text(&rows[index], "tool"), what.join("; ")),
            "rows": [index],
        }));
    }
    out
}

/// `effects[]`: each effect claim counted once over the established rows.
fn effects(rows: &[Value]) -> Value {
    let mut counted: Vec<(Value, Value, u64)> = Vec::new();
    for row in rows.iter().filter(|r| change(r) != "not_established") {
        let Some(effect) = side(row).and_then(|s| s.get("effect_evidence")) else {
            continue;
        };
        let key = (
            effect
                .get("conservative_effect")
                .cloned()
                .unwrap_or(Value::Null),
            effect.get("status").cloned().unwrap_or(Value::Null),
        );
        match counted
            .iter_mut()
            .find(|(e, s, _)| *e == key.0 && *s == key.1)
        {
            Some(entry) => entry.2 += 1,
            None => counted.push((key.0, key.1, 1)),
        }
    }
    Value::Array(
        counted
            .into_iter()
            .map(|(effect, status, count)| json!({"effect": effect, "status": status, "count": count}))
            .collect(),
    )
}

/// One shared uncertainty pattern.
struct Cause {
    pattern: String,
    example: String,
    reasons: BTreeSet<String>,
    rows: Vec<usize>,
    sides: BTreeSet<&'static str>,
    agents: Vec<String>,
}

impl Cause {
    fn to_json(&self) -> Value {
        json!({
            "pattern": self.pattern,
            "example": self.example,
            "reasons": self.reasons.len(),
            "rows": self.rows,
            "sides": self.sides.iter().collect::<Vec<_>>(),
            "agents": self.agents,
        })
    }
}

/// `not_established` rows grouped by the pattern of their reasons.
fn causes(rows: &[Value]) -> Vec<Cause> {
    let mut causes: Vec<Cause> = Vec::new();
    for (index, row) in rows.iter().enumerate() {
        if change(row) != "not_established" {
            continue;
        }
        for side in ["base", "head"] {
            let reasons = row
                .get("uncertainty")
                .and_then(|u| u.get(side))
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice);
            for reason in reasons.iter().filter_map(Value::as_str) {
                let pattern = pattern(reason);
                let at = match causes.iter().position(|c| c.pattern == pattern) {
                    Some(at) => at,
                    None => {
                        causes.push(Cause {
                            pattern,
                            example: reason.to_string(),
                            reasons: BTreeSet::new(),
                            rows: Vec::new(),
                            sides: BTreeSet::new(),
                            agents: Vec::new(),
                        });
                        causes.len() - 1
                    }
                };
                let cause = &mut causes[at];
                cause.reasons.insert(reason.to_string());
                if !cause.rows.contains(&index) {
                    cause.rows.push(index);
                }
                cause.sides.insert(side);
                let agent = text(row, "agent").to_string();
                if !cause.agents.contains(&agent) {
                    cause.agents.push(agent);
                }
            }
        }
    }
    causes
}

/// A reason with its quoted names and `file.py[:line]` places blanked, so
/// two reasons that differ only there are one pattern.
pub fn pattern(reason: &str) -> String {
    let mut out = String::new();
    let mut chars = reason.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '\'' | '`' | '"') {
            // A quote opens a name only where it starts a word.
            let starts_word = out.chars().last().is_none_or(|p| !p.is_alphanumeric());
            if starts_word {
                let rest: String = chars.clone().collect();
                if let Some(end) = rest.find(c) {
                    out.push(c);
                    out.push('…');
                    out.push(c);
                    for _ in 0..=end {
                        chars.next();
                    }
                    continue;
                }
            }
        }
        out.push(c);
    }
    out.split(' ')
        .map(|word| {
            if place(word).is_some() {
                "<place>"
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first `path.py[:line]` a text names.
pub fn place(text: &str) -> Option<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ',' | ';' | '\'' | '`' | '"'))
        .find_map(|word| {
            let word = word.trim_end_matches('.');
            let at = word.find(".py")?;
            let (path, rest) = word.split_at(at + 3);
            if path.len() <= 3 {
                return None;
            }
            let line: String = rest
                .strip_prefix(':')
                .map(|r| r.chars().take_while(char::is_ascii_digit).collect())
                .unwrap_or_default();
            let tail = &rest[if line.is_empty() { 0 } else { line.len() + 1 }..];
            if !tail.is_empty() {
                return None;
            }
            Some(if line.is_empty() {
                path.to_string()
            } else {
                format!("{path}:{line}")
            })
        })
}

/// A limit no row states.
struct Limit {
    index: usize,
    text: String,
    agent: Option<String>,
    /// The rooted file of the agent it names (`agent 'x' at a.py:3`).
    source: Option<String>,
    side: &'static str,
}

/// The sides' limits and the scope selection's that no row's uncertainty
/// states, in document order.
fn unstated_limits(doc: &Value, stated: &BTreeSet<&str>) -> Vec<Limit> {
    let mut out = Vec::new();
    let sources = [
        ("base", doc.get("base")),
        ("head", doc.get("head")),
        ("scope_selection", doc.get("scope_selection")),
    ];
    for (side, holder) in sources {
        let Some(holder) = holder else { continue };
        // A side's limits are spelled from its scope; a combined
        // document's carry their scope in front (`app: …`); the scope
        // selection's are spelled from the root.
        let scope = holder.get("scope").and_then(Value::as_str);
        let scopes: Vec<&str> = array(holder, "scopes")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for limit in array(holder, "limits").iter().filter_map(Value::as_str) {
            if stated.contains(limit) {
                continue;
            }
            let (root, body) = match scope {
                Some(scope) => (scope, limit),
                None => scopes
                    .iter()
                    .find_map(|s| Some((*s, limit.strip_prefix(s)?.strip_prefix(": ")?)))
                    .unwrap_or(("", limit)),
            };
            let named = agent_named(body);
            out.push(Limit {
                index: out.len(),
                text: limit.to_string(),
                agent: named.as_ref().map(|(agent, _)| agent.clone()),
                source: named
                    .and_then(|(_, file)| file)
                    .map(|file| crate::paths::rooted(root, &file)),
                side,
            });
        }
    }
    out
}

/// The agent a limit names and, when it says where (`… agent 'support'
/// at app/agent.py:20 …`), that agent's file.
fn agent_named(limit: &str) -> Option<(String, Option<String>)> {
    let start = limit.find("agent '")? + "agent '".len();
    let end = limit[start..].find('\'')?;
    let agent = limit[start..start + end].to_string();
    let file = limit[start + end + 1..]
        .strip_prefix(" at ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|word| place(word.trim_end_matches([',', ';', '.'])))
        .map(|at| match at.rsplit_once(':') {
            Some((file, line)) if line.chars().all(|c| c.is_ascii_digit()) => file.to_string(),
            _ => at,
        });
    Some((agent, file))
}

fn limit_group(limits: &[&Limit]) -> Value {
    let distinct: BTreeSet<&str> = limits.iter().map(|l| l.text.as_str()).collect();
    let sides: BTreeSet<&str> = limits.iter().map(|l| l.side).collect();
    json!({
        "count": distinct.len(),
        "sides": sides.into_iter().collect::<Vec<_>>(),
        "first": limits.first().map(|l| l.text.clone()),
    })
}

/// `not_read[]`: the remaining limits, by agent (null: none named) and the
/// agent's file when the limit names it (`agent_source`).
fn not_read<'l>(limits: impl Iterator<Item = &'l Limit>) -> Vec<Value> {
    type Key = (Option<String>, Option<String>);
    let mut groups: Vec<(Key, Vec<&Limit>)> = Vec::new();
    for limit in limits {
        let key = (
            limit.agent.clone(),
            limit.source.clone().filter(|_| limit.agent.is_some()),
        );
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, group)) => group.push(limit),
            None => groups.push((key, vec![limit])),
        }
    }
    groups
        .into_iter()
        .map(|((agent, source), group)| {
            let mut value = limit_group(&group);
            if let Value::Object(map) = &mut value {
                map.shift_insert(0, "agent".into(), json!(agent));
                if let Some(source) = source {
                    map.shift_insert(1, "agent_source".into(), json!(source));
                }
            }
            value
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_found_and_blanked() {
        assert_eq!(
            place("OpenAI Agents SDK agent 'support' at agent.py:20 has a tools list"),
            Some("agent.py:20".to_string())
        );
        assert_eq!(
            place("Not read: a call (app/agent.py:4)."),
            Some("app/agent.py:4".to_string())
        );
        assert_eq!(
            place("Python input could not be parsed: broken.py"),
            Some("broken.py".into())
        );
        assert_eq!(place("no place here"), None);
        assert_eq!(
            pattern(
                "agent 'a' at x.py:3 binds unresolved tool 'b'. Not resolved because it's `c`."
            ),
            "agent '…' at <place> binds unresolved tool '…'. Not resolved because it's `…`."
        );
    }

    /// A limit is the finding's whose agent and file it names; in a
    /// combined document its scope prefix roots the file.
    #[test]
    fn limits_are_keyed_by_agent_and_file() {
        let limit = |scope: &str, line: u32| {
            format!("{scope}: OpenAI Agents SDK agent 'agent' at a.py:{line} has a tools list it does not read; its binding graph is incomplete.")
        };
        let row = |source: &str| json!({"agent": "agent", "agent_source": source, "tool": "t", "change": "added", "candidate_change": null, "uncertainty": {}, "before": null, "after": {"agent_source": source}});
        let doc = json!({
            "rows": [row("app/a.py"), row("svc/a.py")],
            "base": {"scope": null, "scopes": ["app", "svc"], "limits": []},
            "head": {"scope": null, "scopes": ["app", "svc"], "limits": [limit("svc", 4), limit("lib", 9)]},
            "scope_selection": {"limits": []},
        });
        let summary = summary(&doc);
        assert_eq!(summary["findings"][0].get("agent_limits"), None);
        assert_eq!(summary["findings"][0]["first_unresolved"], Value::Null);
        assert_eq!(
            summary["findings"][1]["agent_limits"],
            json!({"count": 1, "sides": ["head"], "first": limit("svc", 4)})
        );
        // A scope the document does not list roots nothing: the file is
        // read as written, which no finding has.
        assert_eq!(
            summary["not_read"],
            json!([{"agent": "agent", "agent_source": "a.py", "count": 1, "sides": ["head"], "first": limit("lib", 9)}])
        );
        assert_eq!(
            agent_named("Google ADK agent 'x' has sub-agents that were not statically named."),
            Some(("x".to_string(), None))
        );
    }

    /// The summary of rows states what the rows state, by index.
    #[test]
    fn findings_name_their_rows() {
        let doc = json!({
            "rows": [
                {"agent": "support", "agent_source": "agent.py", "tool": "refund", "change": "added", "candidate_change": null, "uncertainty": {}, "before": null,
                 "after": {"agent_source": "app/agent.py", "effect_evidence": {"conservative_effect": "write", "status": "unknown"}}},
                {"agent": "support", "agent_source": "agent.py", "tool": "lookup", "change": "not_established", "candidate_change": "removed",
                 "uncertainty": {"head": ["OpenAI Agents SDK agent 'support' at agent.py:20 has a tools list it does not read."]},
                 "before": {"agent_source": "app/agent.py"}, "after": null},
            ],
            "base": {"limits": []},
            "head": {"limits": ["OpenAI Agents SDK agent 'support' at agent.py:20 has a tools list it does not read.", "Python input could not be parsed: broken.py"]},
            "scope_selection": {"limits": []},
        });
        let summary = summary(&doc);
        assert_eq!(
            summary["counts"],
            json!({"total": 2, "added": 1, "removed": 0, "changed": 0, "not_established": 1})
        );
        let finding = &summary["findings"][0];
        assert_eq!(finding["agent_source"], "app/agent.py");
        assert_eq!(finding["rows"], json!([0, 1]));
        assert_eq!(finding["status"], "partial");
        assert_eq!(finding["first_unresolved"]["row"], 1);
        assert_eq!(finding["first_unresolved"]["at"], "agent.py:20");
        assert_eq!(finding["causes"], json!([0]));
        assert_eq!(
            summary["effects"],
            json!([{"effect": "write", "status": "unknown", "count": 1}])
        );
        assert_eq!(
            summary["not_read"],
            json!([{"agent": null, "count": 1, "sides": ["head"], "first": "Python input could not be parsed: broken.py"}])
        );
        assert_eq!(summary["causes"][0]["rows"], json!([1]));
        assert_eq!(
            summary["question"],
            "Resolve the named causes before treating the 1 candidate change as a change."
        );
        assert_eq!(finding["questions"][0]["rows"], json!([0]));
    }
}
