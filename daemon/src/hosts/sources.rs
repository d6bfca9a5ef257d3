//! Which files of a tree are host configuration, and which host reads
//! each: the sources the reference's `audit --host` coverage lists for
//! the repository scope. A path is a source by its name alone, so the
//! same classification serves a commit's tree and the working tree's
//! pathspecs.

use serde::{Deserialize, Serialize};

/// A coding-agent host whose repository configuration is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Host {
    ClaudeCode,
    Codex,
    Cursor,
    VsCode,
    Github,
}

impl Host {
    /// The host's name as the reference prints it.
    pub fn name(self) -> &'static str {
        match self {
            Host::ClaudeCode => "claude-code",
            Host::Codex => "codex",
            Host::Cursor => "cursor",
            Host::VsCode => "vscode",
            Host::Github => "github",
        }
    }

    pub const ALL: [Host; 5] = [
        Host::Codex,
        Host::ClaudeCode,
        Host::Cursor,
        Host::VsCode,
        Host::Github,
    ];
}

/// What a source file holds, which decides its reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SourceKind {
    /// Claude Code's `settings.json` / `settings.local.json`: permission
    /// rules, the permission mode, hooks, MCP approvals.
    ClaudeSettings,
    /// A JSON file of MCP servers under `mcpServers` (Claude Code's
    /// `.mcp.json`, Cursor's `.cursor/mcp.json`).
    McpServers,
    /// VS Code's `.vscode/mcp.json`: the servers under `servers`.
    VsCodeServers,
    /// Codex's `config.toml`: approval policy, sandbox, MCP servers.
    CodexConfig,
    /// A GitHub Actions workflow: its triggers and token permissions.
    Workflow,
}

/// The file format of `path`, as a parse failure names it.
pub fn format_of(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("toml") => "toml",
        Some("yml") => "yml",
        Some("yaml") => "yaml",
        _ => "json",
    }
}

/// A path's host and reader, when it is a host source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceClass {
    pub host: Host,
    pub kind: SourceKind,
}

/// The host and reader of the repository path `path`, if it is a source.
pub fn classify(path: &str) -> Option<SourceClass> {
    let class = |host, kind| Some(SourceClass { host, kind });
    match path {
        ".claude/settings.json" | ".claude/settings.local.json" => {
            return class(Host::ClaudeCode, SourceKind::ClaudeSettings)
        }
        ".cursor/mcp.json" => return class(Host::Cursor, SourceKind::McpServers),
        ".vscode/mcp.json" => return class(Host::VsCode, SourceKind::VsCodeServers),
        _ => {}
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == ".mcp.json" {
        return class(Host::ClaudeCode, SourceKind::McpServers);
    }
    if path == ".codex/config.toml" || path.ends_with("/.codex/config.toml") {
        return class(Host::Codex, SourceKind::CodexConfig);
    }
    if let Some(file) = path.strip_prefix(".github/workflows/") {
        if !file.contains('/') && (file.ends_with(".yml") || file.ends_with(".yaml")) {
            return class(Host::Github, SourceKind::Workflow);
        }
    }
    None
}

/// The host of a file that is a host source only in another working
/// directory: a `.claude/settings.json` (or `settings.local.json`),
/// `.cursor/mcp.json` or `.vscode/mcp.json` below the root.
pub fn nested_host(path: &str) -> Option<Host> {
    if classify(path).is_some() {
        return None;
    }
    [
        ("/.claude/settings.json", Host::ClaudeCode),
        ("/.claude/settings.local.json", Host::ClaudeCode),
        ("/.cursor/mcp.json", Host::Cursor),
        ("/.vscode/mcp.json", Host::VsCode),
    ]
    .into_iter()
    .find(|(suffix, _)| path.ends_with(suffix))
    .map(|(_, host)| host)
}

/// What a working-tree snapshot takes (`git::worktree`): every path
/// `classify` or `nested_host` accepts, and no other — ignored files too, as the host
/// reads them (`.claude/settings.local.json` is ignored by design); the
/// tree walk still skips the directories no repository owns
/// (`node_modules`…).
pub const TAKEN: crate::git::Taken<'static> = crate::git::Taken {
    pathspecs: PATHSPECS,
    ignored_too: true,
};

pub const PATHSPECS: &[&str] = &[
    ":(glob)**/.claude/settings.json",
    ":(glob)**/.claude/settings.local.json",
    ":(glob)**/.mcp.json",
    ":(glob)**/.cursor/mcp.json",
    ":(glob)**/.vscode/mcp.json",
    ":(glob)**/.codex/config.toml",
    ":(glob).github/workflows/*.yml",
    ":(glob).github/workflows/*.yaml",
];

/// The patterns each host's coverage names as the sources it reads.
pub fn patterns(host: Host) -> &'static [&'static str] {
    match host {
        Host::ClaudeCode => &[
            "**/.mcp.json",
            ".claude/settings.json",
            ".claude/settings.local.json",
            ".mcp.json",
        ],
        Host::Codex => &["**/.codex/config.toml", ".codex/config.toml"],
        Host::Cursor => &[".cursor/mcp.json"],
        Host::VsCode => &[".vscode/mcp.json"],
        Host::Github => &[".github/workflows/*.yaml", ".github/workflows/*.yml"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_named_by_their_paths() {
        let of = |p: &str| classify(p).map(|c| (c.host, c.kind));
        assert_eq!(
            of(".claude/settings.json"),
            Some((Host::ClaudeCode, SourceKind::ClaudeSettings))
        );
        assert_eq!(
            of("svc/api/.mcp.json"),
            Some((Host::ClaudeCode, SourceKind::McpServers))
        );
        assert_eq!(of("svc/.cursor/mcp.json"), None);
        assert_eq!(
            of(".vscode/mcp.json"),
            Some((Host::VsCode, SourceKind::VsCodeServers))
        );
        assert_eq!(
            of("tools/.codex/config.toml"),
            Some((Host::Codex, SourceKind::CodexConfig))
        );
        assert_eq!(
            of(".github/workflows/ci.yaml"),
            Some((Host::Github, SourceKind::Workflow))
        );
        assert_eq!(of(".github/workflows/sub/ci.yml"), None);
        assert_eq!(of(".github/workflows/README.md"), None);
        assert_eq!(of("a.mcp.json"), None);
    }
}
