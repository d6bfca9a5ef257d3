//! What one host source grants, as read from its file: the model every
//! later step (assessment, pairing, rendering, the store) works on. A
//! grant holds no secret: environment and header values, arguments and
//! URL paths are kept as names or digests only.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One grant of one source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Grant {
    Rule(PermissionRule),
    Setting(Setting),
    Mcp(McpServer),
    Hook(Hook),
    Workflow(Workflow),
}

/// How a permission rule disposes of the calls it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Disposition {
    Allow,
    Ask,
    Deny,
}

impl Disposition {
    pub fn name(self) -> &'static str {
        match self {
            Disposition::Allow => "allow",
            Disposition::Ask => "ask",
            Disposition::Deny => "deny",
        }
    }
}

/// A Claude Code permission rule (`Bash(npm run test:*)`), as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermissionRule {
    pub disposition: Disposition,
    pub rule: String,
}

/// A setting: one value per setting (`defaultMode`, `approval_policy`),
/// or one grant per member of a list setting (`additionalDirectories`,
/// `enabledMcpjsonServers`), whose identity is then its value too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting {
    /// The setting as the file spells its path (`sandbox_workspace_write.network_access`).
    pub setting: String,
    /// The value as printed (`acceptEdits`, `true`).
    pub value: String,
    /// A member of a list setting: one grant per member.
    pub member: bool,
}

/// How an MCP server is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Transport {
    /// A local command the host starts.
    Stdio,
    /// A URL the host connects to.
    Url,
}

/// An MCP server a host is configured to start or connect to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpServer {
    pub server: String,
    pub transport: Transport,
    /// The executable's file name (`npx`), never its directory.
    pub command: Option<String>,
    /// The package a launcher runs (`slack-mcp@1.2.3`), when the
    /// arguments name one.
    pub package: Option<String>,
    /// Whether what runs can change without this file changing: a
    /// launcher whose package carries no exact version, or an unknown
    /// command's arguments.
    pub mutable_launch: bool,
    /// The URL with userinfo, path and query withheld.
    pub url: Option<String>,
    /// Digest of the URL without its userinfo (a credential, not where the
    /// server is): a changed path or query is a change, never printed.
    pub url_sha256: Option<String>,
    pub env_keys: Vec<String>,
    pub header_keys: Vec<String>,
    /// Digest of the arguments (they may hold secrets: never printed).
    pub args_sha256: Option<String>,
    /// Digest of the environment's and headers' values.
    pub values_sha256: Option<String>,
    /// Digest of every other field of the server's entry.
    pub rest_sha256: String,
}

/// The hooks a host runs on one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hook {
    pub event: String,
    pub handlers: Vec<HookHandler>,
}

/// One handler of a hook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookHandler {
    pub matcher: Option<String>,
    /// The handler's type (`command`).
    pub kind: String,
    /// The executable's file name, when the handler runs a command.
    pub executable: Option<String>,
    /// The repository path of the script the handler runs, when the
    /// command names it under the project directory
    /// (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`).
    pub script: Option<String>,
    /// That script's blob id at this side's commit (`missing` when the
    /// path holds no file): filled from the inventory when compared, so a
    /// change to the script is a change to the hook.
    pub script_blob: Option<String>,
    /// Digest of the whole handler entry.
    pub sha256: String,
}

/// A GitHub Actions workflow's authority: when it runs and what its jobs'
/// tokens may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Workflow {
    /// The events it runs on, sorted.
    pub triggers: Vec<String>,
    /// The workflow-level `permissions:`.
    pub permissions: Permissions,
    /// Each job's own `permissions:`, by job id (sorted).
    pub jobs: BTreeMap<String, Permissions>,
    /// What each step or reusable job runs that is not in this workflow:
    /// a remote action (`job/steps[i]` → `uses owner/repo@ref`), the code
    /// a checkout takes (`checkout of ref …`), a reusable workflow
    /// (`job` → `uses: …`). Local actions (`./…`) are the repository's.
    pub runs: BTreeMap<String, Vec<String>>,
}

/// A `permissions:` declaration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Permissions {
    /// Not declared: the repository's default token permissions.
    Unset,
    ReadAll,
    WriteAll,
    /// Scope by scope (`contents: read`); `{}` is no scope at all.
    Scopes(BTreeMap<String, String>),
    /// A value that is neither (an expression, a number).
    Unreadable,
}

impl Grant {
    /// The kind of grant, as the inventory names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Grant::Rule(_) => "permission_rule",
            Grant::Setting(s) if s.setting.starts_with("sandbox") => "sandbox",
            Grant::Setting(s) if s.setting == "additionalDirectories" => "additional_path",
            Grant::Setting(_) => "permission_mode",
            Grant::Mcp(_) => "mcp_server",
            Grant::Hook(_) => "hook",
            Grant::Workflow(_) => "workflow",
        }
    }

    /// The grant's identity within its source: a base and a head grant
    /// with one identity are one grant, before and after.
    pub fn identity(&self) -> String {
        match self {
            Grant::Rule(rule) => format!("rule {} {}", rule.disposition.name(), rule.rule),
            Grant::Setting(s) if s.member => format!("setting {} {}", s.setting, s.value),
            Grant::Setting(s) => format!("setting {}", s.setting),
            Grant::Mcp(server) => format!("mcp {}", server.server),
            Grant::Hook(hook) => format!("hook {}", hook.event),
            Grant::Workflow(_) => "workflow".to_string(),
        }
    }
}
