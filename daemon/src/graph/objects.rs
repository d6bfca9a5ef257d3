//! What an object an agent binds *is* (spec: "Tools bound as objects"): an
//! MCP server, an agent exposed as a tool, a hosted tool. The identity is
//! read from the constructor's arguments as the cached facts give them and
//! is what the comparison compares; where the object is built is evidence.
//!
//! Nothing is guessed. A part of the identity this reader cannot name (a
//! host from a builder's parameter, headers built elsewhere, a computed
//! filter) is kept as an [`UnreadPart`] with its spelling: the object's
//! presence stays established, a change to it does not. Nothing
//! credential-shaped is kept as a value: a secret-named header, query key or
//! environment entry keeps only the environment variable names its value is
//! made from, and a path, query, header value or command argument changes
//! only `endpoint_sha256`.
//!
//! Here: what is compared (`ObjectIdentity`, its `UnreadPart`s) and where an
//! object is built (`ObjectSite`); `constructors.rs` reads each kind of
//! object from its constructor call, `values.rs` the values its arguments
//! name, `callables.rs` the definitions they name or call, `pieces.rs` the
//! text of a URL or command.

use crate::python::ModuleFacts;
use crate::resolve::ModuleSet;
use serde::{Deserialize, Serialize};

mod callables;
mod constructors;
mod gate_values;
mod pieces;
mod reaches;
mod values;
pub use pieces::is_secret_name;
pub use reaches::{ReachTarget, ShippedReach};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjectKind {
    McpServer,
    AgentTool,
    HostedTool,
    /// An instance of a repository tool class (`tool_classes.rs`).
    ToolClass,
    /// A name imported from a package no file of the repository provides
    /// (`graph/build/imported_tools.rs`): its definition is not read.
    Imported,
}

impl ObjectKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ObjectKind::McpServer => "mcp_server",
            ObjectKind::AgentTool => "agent_tool",
            ObjectKind::HostedTool => "hosted_tool",
            ObjectKind::ToolClass => "tool_class",
            ObjectKind::Imported => "imported",
        }
    }
}

/// The compared meaning of an object: two sides bind the same object when
/// these are equal.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ObjectIdentity {
    pub kind: Option<ObjectKind>,
    /// The framework's class (`MCPServerStdio`, `WebSearchTool`, `as_tool`).
    pub class: String,
    pub transport: Option<String>,
    /// A URL's host (never its path or query), `env NAME`, or
    /// `env NAME or host` for an environment variable with a default.
    pub host: Option<String>,
    /// A stdio server's command file name.
    pub command: Option<String>,
    pub tool_filter: Option<ToolFilter>,
    pub credentials: Vec<Credential>,
    /// SHA-256 over the URL, command arguments and non-secret header and
    /// environment values: they change the digest and nothing else.
    pub endpoint_sha256: Option<String>,
    /// The wrapped agent of an agent tool, and its module.
    pub agent: Option<String>,
    pub agent_source: Option<String>,
    pub tool_name: Option<String>,
    /// A hosted tool's argument names, and a digest of their values.
    pub arguments: Vec<String>,
    pub arguments_sha256: Option<String>,
    /// A repository tool class's digest over the class as written.
    #[serde(default)]
    pub implementation_sha256: Option<String>,
}

/// A server's `tool_filter` is a gate (what it lets through), defined
/// with the gates.
pub use super::gates::ToolFilter;

/// A secret-named header, query key or environment entry: where it goes
/// and what its value is made from, never the value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credential {
    /// `header`, `query` or `env_entry`.
    pub target: String,
    pub name: String,
    /// Environment variables the value is made from.
    pub env: Vec<String>,
    /// The value is a literal (not printed).
    pub literal: bool,
}

/// A part of the identity the read could not name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnreadPart {
    /// `host`, `headers`, `tool filter`, `argument x`…
    pub part: String,
    /// The source spelling: an unread part spelled differently on the two
    /// sides may be a change.
    pub spelled: String,
}

/// One object an agent binds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectTool {
    pub identity: ObjectIdentity,
    pub unread: Vec<UnreadPart>,
    /// `(file, line)` where it is built: evidence, never compared.
    pub built_at: (String, u32),
    /// What the model is told about it: evidence, never compared.
    pub description: Option<String>,
    /// What a shipped tool reaches, by its import and literal arguments
    /// (`reaches.rs`): evidence, never compared.
    #[serde(default)]
    pub reaches: Option<ShippedReach>,
    /// The gates read with the object (a hosted MCP tool's
    /// `require_approval`): moved onto its binding when it is bound.
    #[serde(skip)]
    pub gates: Vec<crate::graph::gates::Gate>,
}

impl ObjectTool {
    /// Whether two sides bind the same object, as far as both were read.
    pub fn same_object(&self, other: &ObjectTool) -> bool {
        self.identity == other.identity && self.unread == other.unread
    }
}

/// The identity keys that differ between two reads, in display order.
pub fn changed_keys(before: &ObjectIdentity, after: &ObjectIdentity) -> Vec<&'static str> {
    let mut keys = Vec::new();
    let mut check = |key: &'static str, differs: bool| {
        if differs {
            keys.push(key);
        }
    };
    check("kind", before.kind != after.kind);
    check("class", before.class != after.class);
    check("transport", before.transport != after.transport);
    check("host", before.host != after.host);
    check("command", before.command != after.command);
    check("tool_filter", before.tool_filter != after.tool_filter);
    check(
        "credential_sources",
        before.credentials != after.credentials,
    );
    check(
        "endpoint_sha256",
        before.endpoint_sha256 != after.endpoint_sha256,
    );
    check(
        "agent",
        before.agent != after.agent || before.agent_source != after.agent_source,
    );
    check("tool_name", before.tool_name != after.tool_name);
    check("arguments", before.arguments != after.arguments);
    check(
        "arguments_sha256",
        before.arguments_sha256 != after.arguments_sha256,
    );
    check(
        "implementation_sha256",
        before.implementation_sha256 != after.implementation_sha256,
    );
    keys
}

/// Whether two reads of an object differ in a part both read whole (issue
/// 40, item 10): a changed identity key that no unread part of either side
/// feeds. Then the object changed, whatever the unread parts hold; they
/// stay limits on it. A key an unread part may feed can differ only
/// because one side read the part and the other did not.
pub fn established_change(before: &ObjectTool, after: &ObjectTool) -> bool {
    changed_keys(&before.identity, &after.identity)
        .into_iter()
        .any(|key| {
            !before
                .unread
                .iter()
                .chain(&after.unread)
                .any(|part| feeds(&part.part, key))
        })
}

/// Whether an unread part (`host`, `header X-Token`, `argument editor`…)
/// may feed the identity key `key`: what the reader would have put there
/// had it read the part. A part it does not know feeds every key.
fn feeds(part: &str, key: &str) -> bool {
    let keys: &[&str] = match part {
        "host" => &["host", "endpoint_sha256", "credential_sources"],
        "command" => &["command", "endpoint_sha256"],
        "tool filter" => &["tool_filter"],
        "headers" | "env" => &["credential_sources", "endpoint_sha256"],
        other if other.starts_with("header ") || other.starts_with("env_entry ") => {
            &["credential_sources", "endpoint_sha256"]
        }
        other if other.starts_with("command ") => &["endpoint_sha256"],
        other if other.starts_with("argument ") => &["arguments_sha256"],
        _ => return true,
    };
    keys.contains(&key)
}

/// Where an object's constructor call is written: names in it are read
/// through this module and scope.
pub struct ObjectSite<'a, 'm> {
    pub modules: &'m ModuleSet<'a>,
    pub path: &'a str,
    pub facts: &'a ModuleFacts,
    /// The enclosing function's qualified name; empty at module level.
    pub scope: String,
    /// When `scope` is a called function's body: the literal values the
    /// call passes its parameters (the value reader's frame), which a name
    /// of the site reads as Python binds them.
    pub params: std::collections::BTreeMap<String, crate::python::Value>,
    /// The line a module-level read is made at (a module-level
    /// construction's): a name bound on branches before it is read as the
    /// branches' values under their tests (`values.rs`, `branch_bound`).
    /// `None` when not known: such a name is not read.
    pub line: Option<u32>,
}

impl ObjectSite<'_, '_> {
    /// The same site, its module-level reads made at `line`.
    pub fn at_line(self, line: u32) -> Self {
        ObjectSite {
            line: Some(line),
            ..self
        }
    }
}

#[cfg(test)]
mod tests;
