//! Shared causes of uncertainty (patterns of reasons) and the limits no
//! row states.

use super::*;

/// One shared uncertainty pattern.
pub(super) struct Cause {
    pub(super) pattern: String,
    pub(super) example: String,
    pub(super) reasons: BTreeSet<String>,
    pub(super) rows: Vec<usize>,
    pub(super) sides: BTreeSet<&'static str>,
    pub(super) agents: Vec<String>,
}

impl Cause {
    pub(super) fn to_json(&self) -> Value {
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
pub(super) fn causes(rows: &[Value]) -> Vec<Cause> {
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
pub(super) struct Limit {
    pub(super) index: usize,
    pub(super) text: String,
    pub(super) agent: Option<String>,
    /// The rooted file of the agent it names (`agent 'x' at a.py:3`).
    pub(super) source: Option<String>,
    pub(super) side: &'static str,
}

/// The sides' limits and the scope selection's that no row's uncertainty
/// states, in document order.
pub(super) fn unstated_limits(doc: &Value, stated: &BTreeSet<&str>) -> Vec<Limit> {
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
pub(super) fn agent_named(limit: &str) -> Option<(String, Option<String>)> {
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

pub(super) fn limit_group(limits: &[&Limit]) -> Value {
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
pub(super) fn not_read<'l>(limits: impl Iterator<Item = &'l Limit>) -> Vec<Value> {
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
