//! One side's agent graph for one scope: which agents exist, which tools and
//! handoffs each binds, and what could not be read (coverage gaps). Built
//! from cached `ModuleFacts` only; never parses.

mod build;
pub mod gates;
pub mod objects;
pub mod schema;

pub use crate::resolve::ScopeContext;
pub use build::{build_side, try_build_side, SideInput, SourceFile, UnreadWanted};

pub use crate::frameworks::openai::{AgentSettings, Setting};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The graph of one side (base or head) of a comparison. Paths are
/// scope-relative; the document roots them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SideGraph {
    /// The scope directory does not exist in this commit.
    pub absent: bool,
    /// `(framework type, path)`, sorted.
    pub sources: Vec<(String, String)>,
    pub agents: Vec<AgentEntry>,
    pub bindings: Vec<Binding>,
    pub gaps: Vec<Gap>,
    /// Limits that are not gaps (an absent scope, an unchanged submodule).
    pub limits: Vec<String>,
    pub excluded_tests: Vec<String>,
    /// `(path, blob id)` of every Python file listed, sorted: what changed
    /// between two sides is read from here.
    pub files: Vec<(String, String)>,
    /// `(path, commit id)` of submodules under the scope, not read.
    pub gitlinks: Vec<(String, String)>,
    /// Trees and Python files the listing does not list (past its depth
    /// bound, a name that is not UTF-8), not read: a limit, and a gap where
    /// the other side's object differs (`compare::apply_submodules`).
    #[serde(default)]
    pub unlisted: Vec<UnlistedInput>,
    /// Links resolving to nothing in the tree: a gap where the other side
    /// reads source at or beneath them.
    pub dangling_links: Vec<String>,
    /// Each agent's tool names in the order its list gives them (the first
    /// construction's): tool-list stability, never a binding change.
    pub tool_orders: Vec<ToolOrder>,
    /// Every name a module binds at top level by an assignment or an
    /// import, and every literal `name=` a call passes, module by module in
    /// listing order: whether a file still names an agent the other side
    /// builds. A module's path is held once, not per name, and names are
    /// inline when short: a side of 2,000 modules holds tens of thousands
    /// of names, and a string apiece was most of decoding a stored graph.
    pub module_names: Vec<ModuleNames>,
    /// The tools the scope's own MCP servers register with a declaration
    /// about their effects (`readOnlyHint`…), and what each reaches:
    /// held against each other by `compare::declared`.
    #[serde(default)]
    pub declared_tools: Vec<DeclaredTool>,
}

/// The names one module binds (`SideGraph::module_names`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleNames {
    /// Scope-relative.
    pub path: String,
    pub names: Vec<NameAt>,
}

/// A name and the line that binds or passes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameAt {
    pub name: crate::python::Text,
    pub line: u32,
}

/// A tool a repository-defined MCP server registers, what the application
/// declares about it, and what its function reaches (issue 22).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclaredTool {
    /// The module (scope-relative) that defines the server and the tool.
    pub source: String,
    pub declaration: crate::frameworks::mcp_servers::ServerTool,
    /// `None` when the function could not be located for reading.
    pub reach: Option<crate::reach::Reach>,
}

/// One agent's tools in list order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ToolOrder {
    pub agent_source: String,
    pub agent: String,
    pub tools: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AgentEntry {
    pub source: String,
    pub name: String,
    /// `file:line` of the construction.
    pub location: String,
    /// The module-level variable a Google ADK agent built at one site is
    /// bound to (`root_agent`): what pairs it across a change of its
    /// literal name (`compare::agent_renames`). `None` elsewhere.
    #[serde(default)]
    pub variable: Option<String>,
}

/// What a coverage gap can hide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Affects {
    /// An addition or removal may be hidden.
    BindingPresence,
    /// Only the body's digest is unknown.
    Implementation,
}

impl Affects {
    pub fn as_str(self) -> &'static str {
        match self {
            Affects::BindingPresence => "binding_presence",
            Affects::Implementation => "implementation",
        }
    }
}

/// An agent's capability field: where a binding can be listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Field {
    Tools,
    Handoffs,
    McpServers,
    SubAgents,
}

impl Field {
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Tools => "tools",
            Field::Handoffs => "handoffs",
            Field::McpServers => "mcp_servers",
            Field::SubAgents => "sub_agents",
        }
    }

    pub fn from_keyword(keyword: &str) -> Option<Field> {
        match keyword {
            "tools" => Some(Field::Tools),
            "handoffs" => Some(Field::Handoffs),
            "mcp_servers" => Some(Field::McpServers),
            "sub_agents" => Some(Field::SubAgents),
            _ => None,
        }
    }

    /// Whether what this field lists can be the binding keyed `tool_key`.
    /// Agents (SDK handoffs, ADK sub-agents) are keyed `handoff:…`;
    /// everything `tools=` or `mcp_servers=` lists is keyed by the name
    /// the model sees, and the two share those keys (a name bound as a
    /// function on one side may be an MCP server on the other), so a gap
    /// on either may hide any of them.
    pub fn may_hold(self, tool_key: &str) -> bool {
        let agent_key = tool_key.starts_with("handoff:");
        match self {
            Field::Handoffs | Field::SubAgents => agent_key,
            Field::Tools | Field::McpServers => !agent_key,
        }
    }
}

/// An input the listing does not list, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnlistedInput {
    /// Scope-relative, names escaped (`git::listing::escaped_name`).
    pub path: String,
    /// The tree's or blob's id: it changes with anything in it.
    pub id: String,
    /// Why, as a limit says it after the path (`is nested too deep to
    /// list`).
    pub why: String,
}

/// A named part of the side that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Gap {
    /// File or directory it covers; `None` = the whole scope.
    pub source: Option<String>,
    /// Agent it is confined to; `None` = any.
    pub agent: Option<String>,
    /// Tool it is confined to; `None` = any.
    pub tool: Option<String>,
    /// The capability field it is confined to; `None` = any (a gap is
    /// scoped to a field only where no other field can share its list:
    /// ARCHITECTURE.md, "Field-scoped gaps").
    pub field: Option<Field>,
    pub affects: Affects,
    pub reason: String,
    /// The listed member this gap stands for, keyed as its row would be
    /// (`b`, `handoff:?:billing`): a reference in the agent's list that the
    /// reader could not resolve. Its presence in the list is known even
    /// though its definition is not, so adding or removing it is a
    /// `not_established` row on that agent (`compare::rows`), never silence.
    #[serde(default)]
    pub member: Option<String>,
    /// The members read of the agent's list may not all be held: a change
    /// after construction that can take one away (`a.tools = …`, `del`,
    /// `.remove(…)`, `.clear()`) is not read. A binding read on this side
    /// is then not established either (`compare::rows`), where a gap that
    /// only can hide more members leaves it established. Internal: not a
    /// key of the contract's gap object.
    #[serde(default)]
    pub withdraws: bool,
}

impl Gap {
    pub fn scope_wide(reason: String) -> Self {
        Gap {
            source: None,
            agent: None,
            tool: None,
            field: None,
            affects: Affects::BindingPresence,
            reason,
            member: None,
            withdraws: false,
        }
    }

    pub fn file(source: &str, reason: String) -> Self {
        Gap {
            source: Some(source.to_string()),
            agent: None,
            tool: None,
            field: None,
            affects: Affects::BindingPresence,
            reason,
            member: None,
            withdraws: false,
        }
    }

    pub fn agent(source: &str, agent: &str, reason: String) -> Self {
        Gap {
            source: Some(source.to_string()),
            agent: Some(agent.to_string()),
            tool: None,
            field: None,
            affects: Affects::BindingPresence,
            reason,
            member: None,
            withdraws: false,
        }
    }

    /// Whether the gap can hide the binding keyed `tool_key`, by field.
    pub fn may_hold(&self, tool_key: &str) -> bool {
        self.field.is_none_or(|field| field.may_hold(tool_key))
    }
}

/// One edge from an agent to a tool or a handoff target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    pub agent: String,
    pub agent_source: String,
    /// The row key's tool part: the tool name, or `handoff:<file>:<agent>`.
    pub tool_key: String,
    /// The tool name, or the handoff target agent's name.
    pub tool: String,
    /// `(file, line)` where the agent lists it.
    pub binding_location: (String, u32),
    pub edge: Edge,
    /// How the agent may use what it binds (`tool_use_behavior`,
    /// `tool_choice`): part of every binding's meaning.
    pub settings: AgentSettings,
    /// Lines (in `agent_source`) of every construction of a name built at
    /// several sites that lists this binding; empty for a single site.
    pub construction_sites: Vec<u32>,
    /// When the list holds it only under conditions: one entry per way in,
    /// the conditions' source text joined by "and". Empty = always.
    pub bound_when: Vec<String>,
    /// When the list came through a builder's parameter: where each call
    /// that passed it is (`agent.py:14`). Evidence only, never compared.
    pub callers: Vec<String>,
    /// Where a rewire after construction added it (`router.py:9`).
    /// Evidence only, never compared.
    pub rewired_at: Vec<String>,
    /// What guards the call (`gates.rs`), sorted by kind: part of the
    /// binding's meaning.
    #[serde(default)]
    pub gates: Vec<gates::Gate>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edge {
    Tool(ToolDefinition),
    Handoff {
        target_source: String,
        /// The options of an SDK `handoff(...)` that are part of what the
        /// handoff is, each `(option, value as compared)`: the name and
        /// description the model sees, `is_enabled`, and the functions
        /// run on the handoff (by their code's digest). Empty for a plain
        /// agent reference.
        options: Vec<(String, String)>,
    },
    /// A Google ADK `sub_agents=` member.
    SubAgent {
        target_source: String,
    },
    /// A capability bound as an object: an MCP server, an agent as a tool,
    /// a hosted tool.
    Object(objects::ObjectTool),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolDefinition {
    pub source: String,
    pub line: Option<u32>,
    pub implementation_sha256: Option<String>,
    pub interface: schema::Interface,
    /// How the agent's module reached a definition in another module;
    /// evidence only, never compared.
    pub import_path: Option<ImportPath>,
    /// What the function's code reaches (`reach/`); evidence only, never
    /// compared. `None` when the function could not be located for reading.
    pub reach: Option<crate::reach::Reach>,
}

/// One resolution chain from the agent's module to the definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportPath {
    /// The reference as the agent spells it (`lookup`, `tools.lookup`).
    pub reference: String,
    pub steps: Vec<crate::resolve::ImportStep>,
    /// Code that runs first and is not read (an import of the repository's
    /// code outside the scope).
    pub caveats: Vec<String>,
}

impl SideGraph {
    /// Every gap reason and non-gap limit, de-duplicated and sorted.
    pub fn all_limits(&self) -> Vec<String> {
        let mut all: BTreeSet<String> = self.limits.iter().cloned().collect();
        all.extend(self.gaps.iter().map(|gap| gap.reason.clone()));
        all.into_iter().collect()
    }

    pub fn is_partial(&self) -> bool {
        !self.gaps.is_empty()
    }
}
