//! The inventory (issue 43): every agent of every application in one
//! commit's tree, what each binds (tools, handoffs, sub-agents, MCP
//! servers, hosted tools, agents as tools), what each tool reaches, its
//! gates, and what could not be read.
//!
//! It is not a second reader. The engine answers the comparison of the
//! empty tree with the commit (`engine/inventory.rs`): every binding of the
//! commit is then an `added` row whose `after` side is the binding as a
//! diff shows it (definition, interface, reach, gates, effect evidence),
//! every member not read a `not_established` row with its reasons, and the
//! scopes are the applications a diff would derive. This module regroups
//! that document by agent (`document`), and the renderings read only the
//! inventory document (`text.rs`, `markdown.rs`, `cyclonedx.rs`), so no
//! rendering states what the JSON does not.

mod cyclonedx;
mod document;
mod markdown;
mod text;

pub use document::{document, INVENTORY_SCHEMA_VERSION};

/// What an inventory is rendered as besides its document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InventoryFormat {
    #[default]
    Text,
    Json,
    CycloneDx,
    Markdown,
}

impl InventoryFormat {
    /// The format a request names (`UNSPECIFIED` is text).
    pub fn from_wire(format: shipgate_proto::v1::InventoryFormat) -> Self {
        use shipgate_proto::v1::InventoryFormat as Wire;
        match format {
            Wire::Unspecified | Wire::Text => InventoryFormat::Text,
            Wire::Json => InventoryFormat::Json,
            Wire::Cyclonedx => InventoryFormat::CycloneDx,
            Wire::Markdown => InventoryFormat::Markdown,
        }
    }

    /// A byte telling formats apart in a memo key.
    pub fn key_byte(self) -> u8 {
        match self {
            InventoryFormat::Text => 1,
            InventoryFormat::Json => 2,
            InventoryFormat::CycloneDx => 3,
            InventoryFormat::Markdown => 4,
        }
    }
}

/// The inventory document rendered as asked; none for JSON (the document
/// is the answer).
pub fn render(document: &serde_json::Value, format: InventoryFormat) -> Option<String> {
    match format {
        InventoryFormat::Json => None,
        InventoryFormat::Text => Some(text::render(document)),
        InventoryFormat::Markdown => Some(markdown::render(document)),
        InventoryFormat::CycloneDx => Some(cyclonedx::render(document)),
    }
}

/// Reads of the document shared by its renderings.
pub(crate) mod read {
    pub use crate::json_fields::{array, text};

    /// The kinds of binding an agent entry lists, in the order every
    /// rendering shows them, with their labels: one, several.
    pub const BINDING_KINDS: [(&str, &str, &str); 6] = [
        ("tools", "tool", "tools"),
        ("handoffs", "handoff", "handoffs"),
        ("sub_agents", "sub-agent", "sub-agents"),
        ("mcp_servers", "MCP server", "MCP servers"),
        ("hosted_tools", "hosted tool", "hosted tools"),
        ("agent_tools", "agent as tool", "agents as tools"),
    ];

    /// `1 tool`, `3 tools`.
    pub fn counted(n: u64, one: &str, several: &str) -> String {
        if n == 1 {
            format!("{n} {one}")
        } else {
            format!("{n} {several}")
        }
    }
}
