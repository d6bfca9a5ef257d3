//! Codex's `config.toml`: the approval policy, the sandbox, and MCP
//! servers.

use super::grant::{Grant, Setting};
use super::mcp;
use super::read::{Malformed, SourceReading};
use serde_json::Value;

/// The config document (TOML, as JSON values) read as grants.
pub fn read(doc: &Value) -> Result<SourceReading, Malformed> {
    let Some(config) = doc.as_object() else {
        return Err(Malformed::shape("the configuration is not a table"));
    };
    let mut reading = SourceReading::default();
    for key in ["approval_policy", "sandbox_mode"] {
        if let Some(value) = config.get(key) {
            reading.grants.push(setting(key, printed(value), false));
        }
    }
    if let Some(table) = config
        .get("sandbox_workspace_write")
        .and_then(Value::as_object)
    {
        if let Some(value) = table.get("network_access") {
            reading.grants.push(setting(
                "sandbox_workspace_write.network_access",
                printed(value),
                false,
            ));
        }
        if let Some(roots) = table.get("writable_roots").and_then(Value::as_array) {
            for root in roots {
                reading.grants.push(setting(
                    "sandbox_workspace_write.writable_roots",
                    printed(root),
                    true,
                ));
            }
        }
    }
    if let Some(servers) = config.get("mcp_servers") {
        let Some(servers) = servers.as_object() else {
            return Err(Malformed::shape("mcp_servers is not a table"));
        };
        for (name, entry) in servers {
            reading.grants.push(Grant::Mcp(mcp::server(name, entry)));
        }
    }
    Ok(reading)
}

fn setting(name: &str, value: String, member: bool) -> Grant {
    Grant::Setting(Setting {
        setting: name.to_string(),
        value,
        member,
    })
}

fn printed(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
