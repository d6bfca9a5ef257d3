//! `audit --host` (issue 42): one tree's host grants as the reference's
//! inventory document (`host_grants_inventory_schema_version` 0.7) and
//! its markdown. Each grant carries a stable id (its host, source and
//! identity), a digest of what it grants (`config_sha256`), its risk (the
//! severity of adding it) and its access.

use super::assess;
use super::digest::sha256;
use super::grant::{Disposition, Grant, Permissions, Transport};
use super::inventory::{HostInventory, InventorySource};
use super::rules::Rule;
use super::sources::{patterns, Host};
use super::workflow_authority::Authority;
use serde_json::{json, Value};
use std::fmt::Write;

pub const INVENTORY_SCHEMA_VERSION: &str = "0.7";

/// What a static repository inventory does not see.
pub const EXCLUDED_SCOPES: [&str; 6] = [
    "UI and session state",
    "dynamically registered extension MCP servers",
    "invocation flags and transient approvals",
    "remote server-managed policy",
    "runtime sandbox enforcement and actual tool behavior",
    "user and operating-system managed configuration",
];

/// The inventory document of `inventory`, read at `workspace`.
pub fn document(inventory: &HostInventory, workspace: &str) -> Value {
    let mut grants: Vec<Value> = inventory
        .sources
        .iter()
        .flat_map(|source| {
            source
                .reading
                .as_ref()
                .map(|r| r.grants.iter().map(|g| grant_json(source, g)).collect())
                .unwrap_or_else(|_| Vec::new())
        })
        .collect();
    grants.sort_by(|a, b| a["grant_id"].as_str().cmp(&b["grant_id"].as_str()));
    let mut artifacts: Vec<Value> = inventory.sources.iter().map(artifact).collect();
    artifacts.sort_by(|a, b| a["artifact_id"].as_str().cmp(&b["artifact_id"].as_str()));
    let issues: Vec<Value> = inventory
        .sources
        .iter()
        .filter_map(|s| s.reading.as_ref().err().map(|m| (s, m)))
        .map(|(source, malformed)| {
            json!({
                "detail": malformed.detail,
                "host": source.host.name(),
                "issue_id": format!("host_issue_{}", &sha256(&json!([source.host.name(), source.path]))[..24]),
                "kind": "parse_failed",
                "path": source.path,
            })
        })
        .collect();
    json!({
        "artifacts": artifacts,
        "excluded_scopes": EXCLUDED_SCOPES,
        "grants": grants,
        "host_coverage": Host::ALL.iter().map(|h| coverage(inventory, *h, &issues)).collect::<Vec<_>>(),
        "host_grants_inventory_schema_version": INVENTORY_SCHEMA_VERSION,
        "issues": issues,
        "runtime_session_verified": false,
        "scope": "repository",
        "static_analysis_only": true,
        "workspace": workspace,
    })
}

fn coverage(inventory: &HostInventory, host: Host, issues: &[Value]) -> Value {
    let observed: Vec<&str> = inventory
        .sources
        .iter()
        .filter(|s| s.host == host)
        .map(|s| s.path.as_str())
        .collect();
    let issue_ids: Vec<&Value> = issues
        .iter()
        .filter(|i| i["host"] == host.name())
        .map(|i| &i["issue_id"])
        .collect();
    let status = if issue_ids.is_empty() && !inventory.cut_short {
        "complete"
    } else {
        "partial"
    };
    json!({
        "host": host.name(),
        "issue_ids": issue_ids,
        "scope": "repository",
        "sources_expected": patterns(host),
        "sources_observed": observed,
        "status": status,
    })
}

fn artifact(source: &InventorySource) -> Value {
    let kind = match source.kind {
        super::sources::SourceKind::ClaudeSettings | super::sources::SourceKind::CodexConfig => {
            "config"
        }
        super::sources::SourceKind::Workflow => "workflow",
        _ => "mcp",
    };
    let redacted = match &source.reading {
        Ok(reading) => sha256(&Value::Array(reading.grants.iter().map(content).collect())),
        Err(malformed) => sha256(&json!(malformed.detail)),
    };
    json!({
        "artifact_id": format!("host_artifact_{}", &sha256(&json!([source.host.name(), source.path]))[..24]),
        "host": source.host.name(),
        "kind": kind,
        "parse_status": if source.reading.is_ok() { "parsed" } else { "parse_failed" },
        "path": source.path,
        "redacted_sha256": redacted,
        "scope": "repository",
    })
}

/// A grant's id: its host, source and identity (what it is, not what it
/// grants), so a grant changed in place keeps its id.
pub fn grant_id(source: &InventorySource, grant: &Grant) -> String {
    format!(
        "host_grant_{}",
        &sha256(&json!([source.host.name(), source.path, grant.identity()]))[..24]
    )
}

fn grant_json(source: &InventorySource, grant: &Grant) -> Value {
    let mut fields = content(grant);
    let config = sha256(&fields);
    if let Some(map) = fields.as_object_mut() {
        map.insert("config_sha256".into(), json!(config));
        map.insert("grant_id".into(), json!(grant_id(source, grant)));
        map.insert("risk".into(), json!(assess::added(grant).severity.name()));
        map.insert("scope".into(), json!("repository"));
        map.insert("source".into(), json!(source.path));
        map.insert("host".into(), json!(source.host.name()));
        sort_keys(map);
    }
    fields
}

fn sort_keys(map: &mut serde_json::Map<String, Value>) {
    let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    map.extend(entries);
}

/// What a grant grants, every value a name or a digest.
fn content(grant: &Grant) -> Value {
    match grant {
        Grant::Rule(rule) => {
            let parsed = Rule::parse(&rule.rule);
            json!({
                "access": rule_access(rule.disposition, parsed.tool),
                "disposition": rule.disposition.name(),
                "kind": "permission_rule",
                "rule": rule.rule,
                "wildcard": parsed.matches_every_target(),
            })
        }
        Grant::Setting(setting) => {
            let kind = grant.kind();
            let access = match (setting.setting.as_str(), setting.value.as_str()) {
                ("defaultMode", "acceptEdits") | ("additionalDirectories", _) => "write",
                ("defaultMode", "bypassPermissions") => "execute",
                ("enabledMcpjsonServers", _) => "external",
                ("defaultMode", _) | ("disabledMcpjsonServers", _) => "none",
                _ => "unknown",
            };
            json!({
                "access": access,
                "kind": kind,
                "setting": setting.setting,
                "value": setting.value,
            })
        }
        Grant::Mcp(server) => {
            let launch = server
                .command
                .as_ref()
                .filter(|_| server.transport == Transport::Stdio)
                .map(|_| {
                    json!({
                        "package": server.package,
                        "pin": if server.mutable_launch { "mutable" } else { "pinned" },
                    })
                });
            json!({
                "access": "external",
                "args_sha256": server.args_sha256,
                "endpoint": server.url.clone().or_else(|| server.command.clone()),
                "env_keys": server.env_keys,
                "header_keys": server.header_keys,
                "kind": "mcp_server",
                "launch_source": launch,
                "package": server.package,
                "server": server.server,
                "transport": match server.transport { Transport::Stdio => "stdio", Transport::Url => "url" },
                "values_sha256": server.values_sha256,
            })
        }
        Grant::Hook(hook) => json!({
            "access": "execute",
            "event": hook.event,
            "handlers": hook.handlers.iter().map(|h| json!({
                "executable": h.executable,
                "kind": h.kind,
                "matcher": h.matcher,
                "sha256": h.sha256,
            })).collect::<Vec<_>>(),
            "kind": "hook",
        }),
        Grant::Workflow(workflow) => {
            let authority = Authority::of(workflow);
            let writes: Vec<String> = authority.write_scopes().into_iter().collect();
            json!({
                "access": authority.access_name(),
                "effective_write_scopes": writes,
                "kind": "workflow",
                "permission_contexts": workflow.jobs.iter().map(|(job, p)| json!({
                    "job": job,
                    "state": if matches!(p, Permissions::Unset) { "inherited" } else { "explicit" },
                })).collect::<Vec<_>>(),
                "pull_request_target": workflow.triggers.iter().any(|t| t == "pull_request_target"),
                "step_actions": workflow.runs.iter().map(|(step, runs)| json!({"step": step, "runs": runs})).collect::<Vec<_>>(),
                "triggers": workflow.triggers,
                "write_all": authority.write_all(),
            })
        }
    }
}

fn rule_access(disposition: Disposition, tool: &str) -> &'static str {
    if disposition != Disposition::Allow {
        return "none";
    }
    match tool {
        "Read" | "Glob" | "Grep" | "LS" | "WebSearch" => "read",
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" => "write",
        "Bash" | "WebFetch" => "execute",
        tool if tool.starts_with("mcp__") => "external",
        _ => "unknown",
    }
}

/// The inventory as the reference's markdown.
pub fn markdown(doc: &Value, workspace: &str) -> String {
    let mut out = String::from("# Host Capability Audit\n\nStatic `repository` inventory. Runtime session behavior was not verified.\n\n## Coverage\n\n| Host | Status | Observed sources |\n|---|---|---:|\n");
    for host in doc["host_coverage"].as_array().into_iter().flatten() {
        let observed = host["sources_observed"].as_array().map_or(0, Vec::len);
        let _ = writeln!(
            out,
            "| {} | {} | {observed} |",
            host["host"].as_str().unwrap_or(""),
            host["status"].as_str().unwrap_or("")
        );
    }
    let grants = doc["grants"].as_array().map_or(&[][..], Vec::as_slice);
    let _ = write!(out, "\n## Grants ({})\n\n", grants.len());
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    for grant in grants {
        *kinds
            .entry(grant["kind"].as_str().unwrap_or(""))
            .or_default() += 1;
    }
    for (kind, count) in kinds {
        let _ = writeln!(out, "- `{kind}`: {count}");
    }
    let issues = doc["issues"].as_array().map_or(&[][..], Vec::as_slice);
    if !issues.is_empty() {
        let _ = write!(out, "\n## Issues ({})\n\n", issues.len());
        for issue in issues {
            let _ = writeln!(
                out,
                "- `{}` ({}): {}",
                issue["path"].as_str().unwrap_or(""),
                issue["kind"].as_str().unwrap_or(""),
                issue["detail"].as_str().unwrap_or("")
            );
        }
    }
    out.push_str("\n## Excluded scopes\n\n");
    for scope in EXCLUDED_SCOPES {
        let _ = writeln!(out, "- {scope}");
    }
    let _ = write!(
        out,
        "\n---\nNext: review this inventory. To see what a change alters, a human must review and record a baseline on the base ref. After switching to that ref, use `shipgate-client audit --host --workspace {workspace} --save-baseline`; return to the changed checkout and run `shipgate-client audit --host --workspace {workspace} --drift`. Never record the changed checkout as the baseline for its own review.\n"
    );
    out
}
