//! What makes a construction an OpenAI Agents SDK or Google ADK agent, a
//! tool or a handoff: identity by import, read from `ModuleFacts`, and the
//! spellings each framework package exports (`exports.rs`, generated from
//! the packages' releases by `scripts/gen-framework-exports.py`). No I/O.

pub mod adk;
pub mod agent_classes;
pub mod arguments;
pub mod class_rules;
pub mod custom_agents;
mod exports;
pub mod imports;
pub mod mcp_servers;
pub mod module_context;
pub mod names;
pub mod openai;
pub mod reexports;
mod signatures;
pub mod tool_classes;
pub mod wrapper_classes;

/// The keywords of a function tool's wrapper or decorator that gate its
/// call (`graph::gates`): the SDK's `needs_approval=`, `is_enabled=` and
/// `tool_input_guardrails=`, Google ADK's `require_confirmation=`.
pub const TOOL_GATE_KEYWORDS: &[&str] = &[
    "needs_approval",
    "is_enabled",
    "tool_input_guardrails",
    "require_confirmation",
];

/// The `sources[].type` value of an OpenAI Agents SDK module.
pub const OPENAI_AGENTS_SDK: &str = "openai_agents_sdk";

/// The `sources[].type` value of a Google ADK module.
pub const GOOGLE_ADK: &str = "google_adk";
