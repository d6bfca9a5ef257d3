//! A policy file: the `[policy]` table of a TOML document (other tables are
//! other tools' and left alone). Strict inside the table: an unknown key or
//! condition is an error, never ignored, since a misspelt key would
//! silently switch a gate off.
//!
//! ```toml
//! [policy]
//! fail-on = ["added", "gate-loosened", "new-reach"]
//!
//! [[policy.allow]]
//! agent = "support"
//! tool = "refund"
//! conditions = ["added", "new-reach"]
//! reason = "reviewed in #412"
//! ```

use super::{Allow, Condition};
use serde::Deserialize;
use shipgate_proto::policy::parse_conditions;

/// More allow entries than any team reviews by hand: a bound on the work a
/// hostile base file can ask for.
const MAX_ALLOW_ENTRIES: usize = 10_000;

/// The `[policy]` table, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PolicyTable {
    pub fail_on: Vec<Condition>,
    pub allow: Vec<Allow>,
}

#[derive(Deserialize)]
struct Document {
    policy: Option<RawTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    #[serde(default, rename = "fail-on", alias = "fail_on")]
    fail_on: Vec<String>,
    #[serde(default)]
    allow: Vec<RawAllow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAllow {
    agent: Option<String>,
    tool: Option<String>,
    #[serde(default)]
    conditions: Vec<String>,
    #[serde(default)]
    reason: String,
}

/// The file's `[policy]` table; none when it has none. The error says what
/// is wrong and where (TOML's own message names the line).
pub(super) fn parse(text: &str) -> Result<Option<PolicyTable>, String> {
    let document: Document = toml::from_str(text).map_err(|err| err.to_string())?;
    let Some(raw) = document.policy else {
        return Ok(None);
    };
    if raw.allow.len() > MAX_ALLOW_ENTRIES {
        return Err(format!(
            "it has {} allow entries, more than the {MAX_ALLOW_ENTRIES} read",
            raw.allow.len()
        ));
    }
    let fail_on = parse_conditions(&raw.fail_on).map_err(|why| format!("fail-on: {why}"))?;
    let mut allow = Vec::with_capacity(raw.allow.len());
    for (index, entry) in raw.allow.into_iter().enumerate() {
        let number = index + 1;
        let conditions = parse_conditions(&entry.conditions)
            .map_err(|why| format!("allow entry {number}: {why}"))?;
        if conditions.contains(&Condition::Partial) {
            return Err(format!(
                "allow entry {number}: `partial` is about the whole answer, not a row; \
                 leave it out of fail-on instead"
            ));
        }
        let named = |value: Option<String>| value.filter(|v| !v.trim().is_empty());
        let (agent, tool) = (named(entry.agent), named(entry.tool));
        if agent.is_none() && tool.is_none() {
            return Err(format!(
                "allow entry {number} names neither an agent nor a tool, so it would allow \
                 every change; name one"
            ));
        }
        allow.push(Allow {
            agent,
            tool,
            conditions,
            reason: entry.reason,
        });
    }
    Ok(Some(PolicyTable { fail_on, allow }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_read_with_its_allow_entries() {
        let table = parse(
            "[tool.other]\nx = 1\n\n[policy]\nfail-on = [\"new-reach\", \"added\"]\n\n\
             [[policy.allow]]\nagent = \"support\"\ntool = \"refund\"\nconditions = [\"added\"]\n\
             reason = \"reviewed in #412\"\n",
        );
        assert_eq!(
            table,
            Ok(Some(PolicyTable {
                fail_on: vec![Condition::Added, Condition::NewReach],
                allow: vec![Allow {
                    agent: Some("support".into()),
                    tool: Some("refund".into()),
                    conditions: vec![Condition::Added],
                    reason: "reviewed in #412".into(),
                }],
            }))
        );
        assert_eq!(parse("[tool.other]\nx = 1\n"), Ok(None));
        assert_eq!(
            parse("[policy]\nfail_on = [\"partial\"]\n").map(|t| t.map(|t| t.fail_on)),
            Ok(Some(vec![Condition::Partial]))
        );
    }

    #[test]
    fn what_would_switch_the_gate_off_silently_is_refused() {
        let refused = |text: &str| parse(text).err().unwrap_or_default();
        assert!(refused("[policy]\nfail-onn = [\"added\"]\n").contains("unknown field `fail-onn`"));
        assert!(refused("[policy]\nfail-on = [\"addded\"]\n")
            .starts_with("fail-on: \"addded\" is not a policy condition"));
        assert_eq!(
            refused("[policy]\nfail-on = [\"added\"]\n[[policy.allow]]\nreason = \"x\"\n"),
            "allow entry 1 names neither an agent nor a tool, so it would allow every change; name one"
        );
        assert!(
            refused("[policy]\n[[policy.allow]]\nagent = \"a\"\nconditions = [\"partial\"]\n")
                .starts_with("allow entry 1: `partial` is about the whole answer")
        );
        assert!(
            refused("[policy]\n[[policy.allow]]\nagent = \"a\"\ntools = \"b\"\n")
                .contains("unknown field `tools`")
        );
        assert!(refused("[policy\n").contains("TOML parse error"));
    }
}
