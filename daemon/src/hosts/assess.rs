//! How much a grant matters and why, in the reference's words where it
//! has them: the severity, the `why` sentence, and whether a change to it
//! expands what the agent may do. One table per grant kind; a value the
//! table does not know is `medium` and its direction unknown.

use super::grant::{Disposition, Grant, McpServer, PermissionRule, Setting, Workflow};
use super::rules::{Rule, READ_ONLY_TOOLS};
use serde::Serialize;

/// A row's severity, most severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Critical,
    High,
    Medium,
    Low,
    Unknown,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
            Severity::Unknown => "unknown",
        }
    }
}

/// What a grant weighs on one side of a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weight {
    pub severity: Severity,
    pub why: String,
    pub expands: bool,
}

fn weight(severity: Severity, why: impl Into<String>, expands: bool) -> Weight {
    Weight {
        severity,
        why: why.into(),
        expands,
    }
}

/// Said of a value whose authority is not ordered against the others.
pub const UNKNOWN_DIRECTION: &str = "; authority direction is unknown";

/// A grant the head adds.
pub fn added(grant: &Grant) -> Weight {
    match grant {
        Grant::Rule(rule) => rule_added(rule),
        Grant::Setting(setting) => setting_weight(setting),
        Grant::Mcp(server) => weight(
            Severity::High,
            mutable_suffix("an MCP tool surface the agent may call has changed", server),
            true,
        ),
        Grant::Hook(_) => weight(Severity::High, HOOK_WHY, true),
        Grant::Workflow(workflow) => workflow_weight(workflow),
    }
}

/// What a hook is said to change, added, widened or removed.
pub const HOOK_WHY: &str = "changes what runs around the agent's actions";

/// A grant the head no longer has.
pub fn removed(grant: &Grant) -> Weight {
    match grant {
        Grant::Rule(rule) => {
            let added = rule_added(rule);
            match rule.disposition {
                Disposition::Allow => weight(
                    added.severity,
                    "removes a permission the agent previously had here",
                    false,
                ),
                Disposition::Deny => weight(
                    Severity::Low,
                    "removes a denial the agent was subject to",
                    true,
                ),
                Disposition::Ask => weight(
                    Severity::Low,
                    "removes a confirmation requirement the agent was subject to",
                    true,
                ),
            }
        }
        Grant::Setting(setting) => {
            let held = setting_weight(setting);
            let why = held
                .why
                .strip_suffix(UNKNOWN_DIRECTION)
                .unwrap_or(&held.why);
            weight(
                held.severity,
                format!("removes a setting that {why}"),
                false,
            )
        }
        Grant::Mcp(_) => weight(
            Severity::High,
            "an MCP tool surface is no longer offered to the agent",
            false,
        ),
        Grant::Hook(_) => weight(Severity::High, HOOK_WHY, false),
        Grant::Workflow(workflow) => {
            let held = workflow_weight(workflow);
            weight(held.severity, held.why, false)
        }
    }
}

fn rule_added(rule: &PermissionRule) -> Weight {
    match rule.disposition {
        Disposition::Deny => weight(Severity::Low, "a denial the agent is subject to", false),
        Disposition::Ask => weight(
            Severity::Low,
            "a confirmation requirement the agent is subject to",
            false,
        ),
        Disposition::Allow => {
            let parsed = Rule::parse(&rule.rule);
            let read_only = READ_ONLY_TOOLS.contains(&parsed.tool);
            let every = parsed.matches_every_target();
            if parsed.tool == "Bash" && every {
                return weight(
                    Severity::Critical,
                    "matches any command of this kind, without a prompt",
                    true,
                );
            }
            if parsed.is_launcher() {
                return weight(
                    Severity::Critical,
                    "reaches arbitrary code through a launcher, without a prompt",
                    true,
                );
            }
            let severity = match (read_only, every) {
                (true, _) => Severity::Low,
                (false, true) => Severity::High,
                (false, false) => Severity::Medium,
            };
            let why = if every {
                "matches every target of this kind, without a prompt"
            } else {
                "runs without a prompt"
            };
            weight(severity, why, true)
        }
    }
}

/// What a setting's value grants.
fn setting_weight(setting: &Setting) -> Weight {
    use Severity::*;
    let value = setting.value.as_str();
    let unknown =
        |severity, what: &str| weight(severity, format!("{what}{UNKNOWN_DIRECTION}"), false);
    match (setting.setting.as_str(), value) {
        ("defaultMode", "bypassPermissions") => weight(
            Critical,
            "skips every permission prompt, so any tool call runs without one",
            true,
        ),
        ("defaultMode", "acceptEdits") => weight(High, "accepts file edits without a prompt", true),
        ("defaultMode", "plan") => weight(
            Medium,
            "limits the agent to reading and planning, without editing files or running commands",
            false,
        ),
        ("defaultMode", "dontAsk") => weight(
            Medium,
            "denies every tool call no allow rule already permits, instead of prompting",
            false,
        ),
        ("defaultMode", "default") => {
            weight(Medium, "prompts on the first use of each tool", false)
        }
        ("defaultMode", _) => unknown(
            High,
            "sets a permission mode Claude Code does not document, so what it permits is not established",
        ),
        ("disableBypassPermissionsMode", "disable") => weight(
            Medium,
            "prevents bypassPermissions mode from being used",
            false,
        ),
        ("disableAllHooks", "true") => unknown(
            Medium,
            "turns off every hook, including any that guard the agent's actions",
        ),
        ("disableAllHooks", "false") => unknown(Medium, "leaves hooks on"),
        ("additionalDirectories", _) => weight(
            High,
            "lets the agent read and edit files in a directory outside the project",
            true,
        ),
        ("enableAllProjectMcpServers", "true") => weight(
            Critical,
            "approves every MCP server the project's .mcp.json declares, without a prompt",
            true,
        ),
        ("enableAllProjectMcpServers", "false") => weight(
            Medium,
            "leaves each MCP server the project's .mcp.json declares to be approved on its own",
            false,
        ),
        ("enabledMcpjsonServers", _) => weight(
            High,
            "approves this MCP server from the project's .mcp.json, without a prompt",
            true,
        ),
        ("disabledMcpjsonServers", _) => weight(
            Low,
            "turns this MCP server of the project's .mcp.json off",
            false,
        ),
        ("approval_policy", "never") => weight(
            High,
            "runs every command without asking for approval",
            true,
        ),
        ("approval_policy", "on-failure") => weight(
            Medium,
            "asks for approval only when a sandboxed command fails",
            false,
        ),
        ("approval_policy", "on-request") => {
            weight(Medium, "lets the model decide when to ask for approval", false)
        }
        ("approval_policy", "untrusted") => weight(
            Medium,
            "asks for approval before any command not known to be safe",
            false,
        ),
        ("sandbox_mode", "danger-full-access") => weight(
            Critical,
            "runs commands without a sandbox, with full access to the machine and network",
            true,
        ),
        ("sandbox_mode", "workspace-write") => weight(
            Medium,
            "lets sandboxed commands write inside the workspace",
            false,
        ),
        ("sandbox_mode", "read-only") => {
            weight(Medium, "keeps sandboxed commands read-only", false)
        }
        ("sandbox_workspace_write.network_access", "true") => {
            weight(High, "lets sandboxed commands reach the network", true)
        }
        ("sandbox_workspace_write.network_access", "false") => {
            weight(Medium, "keeps sandboxed commands off the network", false)
        }
        ("sandbox_workspace_write.writable_roots", _) => weight(
            Medium,
            "lets sandboxed commands write in a directory outside the workspace",
            true,
        ),
        ("sandbox_workspace_write.exclude_tmpdir_env_var", _) => weight(
            Medium,
            "changes whether sandboxed commands may write in the temporary directory",
            false,
        ),
        ("sandbox.enabled", "false") => weight(High, "turns the command sandbox off", true),
        ("sandbox.enabled", "true") => weight(High, "runs commands in the sandbox", false),
        ("sandbox.autoAllowBashIfSandboxed", "true") => weight(
            High,
            "runs sandboxed commands without a prompt",
            true,
        ),
        ("sandbox.excludedCommands", _) => weight(
            High,
            "runs this command outside the sandbox",
            true,
        ),
        ("sandbox.allowUnsandboxedCommands", "true") => weight(
            High,
            "lets a command ask to run outside the sandbox",
            true,
        ),
        (name, _) if name.starts_with("sandbox.") => unknown(High, "changes a sandbox grant"),
        ("enableAllProjectMcpServers", _) => unknown(Critical, "changes a permission_mode grant"),
        _ => unknown(Medium, "changes a permission_mode grant"),
    }
}

/// Where a one-value setting's value stands among its values, least
/// authority first; `None` where values are not ordered.
pub fn setting_rank(setting: &str, value: &str) -> Option<u8> {
    let ranks: &[(&str, u8)] = match setting {
        "sandbox.enabled" | "disableAllHooks" => &[("true", 0), ("false", 1)],
        "sandbox.autoAllowBashIfSandboxed" | "sandbox.allowUnsandboxedCommands" => {
            &[("false", 0), ("true", 1)]
        }
        "defaultMode" => &[
            ("plan", 0),
            ("dontAsk", 0),
            ("default", 1),
            ("acceptEdits", 2),
            ("bypassPermissions", 3),
        ],
        "enableAllProjectMcpServers" | "sandbox_workspace_write.network_access" => {
            &[("false", 0), ("true", 1)]
        }
        "approval_policy" => &[
            ("untrusted", 0),
            ("on-request", 1),
            ("on-failure", 1),
            ("never", 2),
        ],
        "sandbox_mode" => &[
            ("read-only", 0),
            ("workspace-write", 1),
            ("danger-full-access", 2),
        ],
        _ => &[],
    };
    ranks
        .iter()
        .find(|(v, _)| *v == value)
        .map(|(_, rank)| *rank)
}

pub(super) fn mutable_suffix(why: &str, server: &McpServer) -> String {
    match (server.mutable_launch, latest(server)) {
        (true, Some(package)) => format!("{why}; launch source is mutable ({package})"),
        (true, None) => format!("{why}; launch source is mutable"),
        (false, _) => why.to_string(),
    }
}

/// The package a mutable launch names in the why: one tagged `latest`,
/// or a container image by tag (what the tag points at can move).
fn latest(server: &McpServer) -> Option<&str> {
    let container = matches!(server.command.as_deref(), Some("docker" | "podman"));
    server
        .package
        .as_deref()
        .filter(|p| container || p.ends_with("@latest") || p.ends_with(":latest"))
}

/// Why an MCP server's entry changed in place matters: the launch source
/// moving from a pinned release to one that can change is said.
pub(super) fn mcp_edit(old: &McpServer, new: &McpServer) -> String {
    let why = "MCP edit; authority direction is unknown";
    // Another launcher is another launch source altogether: the edit is
    // said, not what either launches.
    if old.command != new.command {
        return why.to_string();
    }
    match (old.mutable_launch, new.mutable_launch, &old.package) {
        (false, true, Some(pinned)) => {
            let to = latest(new).map_or(String::new(), |p| format!(" ({p})"));
            format!("{why}; launch source moved from pinned ({pinned}) to mutable{to}")
        }
        _ => mutable_suffix(why, new),
    }
}

/// Said of a workflow whose jobs' tokens may read at most.
pub const WORKFLOW_OWN_AUTHORITY: &str = "changes the workflow's own authority";

/// What a workflow's authority weighs: the privileged trigger, write
/// tokens, tokens whose permissions are the repository's unknown default.
pub fn workflow_weight(workflow: &Workflow) -> Weight {
    let authority = super::workflow_authority::Authority::of(workflow);
    let mut reasons = Vec::new();
    let mut severity = Severity::Low;
    if workflow.triggers.iter().any(|t| t == "pull_request_target") {
        reasons.push("uses the privileged pull_request_target event context");
        severity = Severity::Critical;
    }
    if authority.writes() {
        reasons.push("grants write permissions to workflow jobs");
        let write = if authority.write_all() {
            Severity::Critical
        } else {
            Severity::High
        };
        severity = severity.min(write);
    }
    if authority.unknown() {
        reasons.push(
            "some effective token permissions are unknown; repository defaults or unresolved declarations require review",
        );
        if reasons.len() == 1 {
            severity = Severity::Unknown;
        }
    }
    if reasons.is_empty() {
        reasons.push(WORKFLOW_OWN_AUTHORITY);
    }
    weight(severity, reasons.join("; "), authority.writes())
}
