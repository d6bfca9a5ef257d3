//! The SARIF rules: one per kind of binding and change a row can have
//! (`tool/added`, `handoff/removed`, `mcp_server/not_established`, …), and
//! the level each change is reported at.

use serde_json::{json, Value};

/// The SARIF `level` of a row's change, and why:
/// - `added` → `warning`: the agent gains a capability; this is what a
///   reviewer must decide on.
/// - `changed` → `warning`: what an agent already holds now does something
///   else (interface, implementation, identity); as much a decision.
/// - `removed` → `note`: authority shrinks; worth knowing, rarely a risk.
/// - `not_established` → `note`: the reading stopped, so no change was
///   observed; the result says where reading stopped rather than claiming
///   a finding (its candidate change is in the message and properties).
/// - anything else → `note`.
///
/// `error` is never used: shipgate is advisory evidence and gives no
/// verdict (the document's own advisory limit), and `error` fails many
/// code-scanning gates by default.
pub fn level(change: &str) -> &'static str {
    match change {
        "added" | "changed" => "warning",
        _ => "note",
    }
}

/// `<kind>/<change>`: stable, readable, and what a SARIF consumer filters on.
pub fn rule_id(kind: &str, change: &str) -> String {
    format!("{kind}/{change}")
}

/// What the rule's kind names, for its descriptions.
fn noun(kind: &str) -> &'static str {
    match kind {
        "tool" => "a tool",
        "handoff" => "a handoff",
        "subagent" => "a sub-agent",
        "mcp_server" => "an MCP server",
        "hosted_tool" => "a hosted tool",
        "agent_tool" => "an agent as a tool",
        "tool_class" => "a repository tool class",
        "imported_tool" => "an imported tool",
        "object" => "a tool object",
        _ => "a binding",
    }
}

/// `ToolAdded`, `McpServerNotEstablished`: the rule's `name`.
fn pascal(id: &str) -> String {
    id.split(['/', '_'])
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// The `reportingDescriptor` of one rule. `why` is the document's own
/// sentence for the change (a row's `why`), its full description.
pub fn descriptor(kind: &str, change: &str, why: &str) -> Value {
    let id = rule_id(kind, change);
    let noun = noun(kind);
    let short = match change {
        "added" => format!("An agent gains {noun}"),
        "removed" => format!("An agent no longer holds {noun}"),
        "changed" => format!("What {noun} bound to an agent is or does changed"),
        "not_established" => {
            format!("Whether an agent's binding of {noun} changed is not established")
        }
        other => format!("An agent's binding of {noun}: {other}"),
    };
    let full = if why.is_empty() {
        format!("{short}.")
    } else {
        why.to_string()
    };
    json!({
        "id": id,
        "name": pascal(&id),
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "defaultConfiguration": {"level": level(change)},
        "help": {
            "text": "Review the binding at this location: should the agent hold it, as it now is? `shipgate-client diff --format text` or `--json` shows both sides: signature, implementation, what the tool reaches, and what could not be read."
        },
        "properties": {"tags": ["agent-capability", kind]}
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_levels() {
        assert_eq!(
            rule_id("mcp_server", "not_established"),
            "mcp_server/not_established"
        );
        assert_eq!(
            pascal("mcp_server/not_established"),
            "McpServerNotEstablished"
        );
        assert_eq!(pascal("tool/added"), "ToolAdded");
        assert_eq!(level("added"), "warning");
        assert_eq!(level("changed"), "warning");
        assert_eq!(level("removed"), "note");
        assert_eq!(level("not_established"), "note");
        let rule = descriptor("handoff", "removed", "");
        assert_eq!(
            rule["shortDescription"]["text"],
            "An agent no longer holds a handoff"
        );
        assert_eq!(
            rule["fullDescription"]["text"],
            "An agent no longer holds a handoff."
        );
        assert_eq!(rule["defaultConfiguration"]["level"], "note");
    }
}
