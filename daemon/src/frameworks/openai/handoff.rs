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

/// Reads a value as the SDK's `handoff(...)` called in `scope`: `None`
/// when it is not that call, or passes what the reader cannot attribute
/// (`**` options, more positional arguments, no target).
pub fn handoff_call<'v>(
    facts: &ModuleFacts,
    value: &'v Value,
    scope: &str,
) -> Option<HandoffCall<'v>> {
    let (args, keywords) = sdk_call(facts, value, scope, "handoff")?;
    let mut target = match args {
        [] => None,
        [one] => Some(one),
        _ => return None,
    };
    let mut options = Vec::new();
    for (name, value) in keywords {
        match name.as_deref() {
            None => return None,
            Some("agent") if target.is_none() => target = Some(value),
            Some("agent") => return None,
            Some(option) => options.push((option, value)),
        }
    }
    Some(HandoffCall {
        target: target?,
        options,
    })
}
