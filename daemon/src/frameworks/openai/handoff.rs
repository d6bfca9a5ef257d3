//! The SDK's `handoff(agent, …)`: its target and its options as written.

use super::sdk_call;
use crate::python::{ModuleFacts, Value};

/// `handoff(agent, tool_name_override=…, on_handoff=…, …)`, the SDK's
/// handoff with options: the target agent and each keyword as written.
pub struct HandoffCall<'v> {
    pub target: &'v Value,
    /// `(keyword, value)` in source order, the target's own keyword left
    /// out.
    pub options: Vec<(&'v str, &'v Value)>,
}

/// Reads a value as the SDK's `handoff(...)` called in `scope`, its
/// arguments placed by the SDK's signature (`handoff(billing, "to_billing")`
/// passes `tool_name_override`): `None` when it is not that call, or passes
/// what the reader cannot attribute (`**` options, an argument no
/// parameter takes, no target).
pub fn handoff_call<'v>(
    facts: &ModuleFacts,
    value: &'v Value,
    scope: &str,
) -> Option<HandoffCall<'v>> {
    let (args, keywords) = sdk_call(facts, value, scope, "handoff")?;
    let placed = crate::frameworks::arguments::place("agents.handoff", args, keywords);
    if !placed.unplaced.is_empty() || placed.spread {
        return None;
    }
    let mut target = None;
    let mut options = Vec::new();
    for (name, value) in placed.named {
        match name {
            "agent" if target.is_none() => target = Some(value),
            "agent" => return None,
            option => options.push((option, value)),
        }
    }
    Some(HandoffCall {
        target: target?,
        options,
    })
}
