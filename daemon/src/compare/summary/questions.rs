//! The review questions a finding asks, and the effects the answer counts.

use super::*;

/// The questions the change asks of one agent, each naming its rows.
pub(super) fn questions(rows: &[Value], agent: &str, indexes: &[usize]) -> Vec<Value> {
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
    // A gate loosened or removed asks first, in the row's own words
    // ("Should support call delete_account without approval?").
    let ungated: Vec<usize> = of("changed")
        .into_iter()
        .filter(|&i| {
            array(&rows[i], "gate_changes")
                .iter()
                .any(|c| matches!(c["change"].as_str(), Some("removed" | "loosened")))
        })
        .collect();
    for &index in &ungated {
        out.push(json!({"question": text(&rows[index], "review_question"), "rows": [index]}));
    }
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
    for index in of("changed").into_iter().filter(|i| !ungated.contains(i)) {
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
pub(super) fn effects(rows: &[Value]) -> Value {
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
