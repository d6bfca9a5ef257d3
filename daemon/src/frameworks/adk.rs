//! The Google ADK reader's recognition: which calls construct an ADK agent,
//! which calls wrap a function as a tool, which objects are toolsets, agent
//! tools or built-ins. Identity is by import: a name is ADK's only when the
//! module binds it by an absolute import from the `google.adk` package, at a
//! module path the package exports it at (a vendored `google/adk` package
//! in the repository is checked by the graph, which knows the tree).

use super::imports::{exported_name, imported_name};
use super::openai::FunctionToolCall;
use crate::python::{CallFact, ModuleFacts, Value};

const ADK_PACKAGE: &str = "google.adk";

/// An ADK class or value, by what the reader does with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdkName {
    /// `Agent` / `LlmAgent`: binds `tools=` and `sub_agents=`.
    LlmAgent,
    /// `SequentialAgent`, `ParallelAgent`, `LoopAgent`: binds `sub_agents=`.
    WorkflowAgent(&'static str),
    /// `RemoteA2aAgent`: an agent served elsewhere.
    RemoteAgent,
    /// `BaseAgent`: the class every ADK agent derives from. A repository
    /// class deriving from it runs code of its own (`_run_async_impl`),
    /// so its constructions are named, never read as an agent kind.
    AgentBase,
    /// `FunctionTool` / `LongRunningFunctionTool`: wraps a function.
    FunctionWrapper(&'static str),
    /// `AgentTool(agent=…)`.
    AgentTool,
    /// `McpToolset` / `MCPToolset`.
    Toolset(&'static str),
    /// A connection-parameters class and the transport it speaks.
    Connection {
        class: &'static str,
        transport: &'static str,
    },
    /// `google_search`, `built_in_code_execution`, `load_memory`.
    BuiltIn(&'static str),
    /// `BaseTool` / `BaseToolset`: what a repository tool class derives
    /// from (`tool_classes.rs`).
    ToolBase(&'static str),
    /// Another tool class the package ships (`VertexAiSearchTool`,
    /// `LangchainTool`), read from `exports::SHIPPED_TOOLS`.
    ShippedTool(&'static str),
    /// Another toolset class the package ships (`BigQueryToolset`).
    ShippedToolset(&'static str),
}

const NAMES: &[(&str, AdkName)] = &[
    ("Agent", AdkName::LlmAgent),
    ("LlmAgent", AdkName::LlmAgent),
    ("SequentialAgent", AdkName::WorkflowAgent("SequentialAgent")),
    ("ParallelAgent", AdkName::WorkflowAgent("ParallelAgent")),
    ("LoopAgent", AdkName::WorkflowAgent("LoopAgent")),
    ("RemoteA2aAgent", AdkName::RemoteAgent),
    ("BaseAgent", AdkName::AgentBase),
    ("FunctionTool", AdkName::FunctionWrapper("FunctionTool")),
    (
        "LongRunningFunctionTool",
        AdkName::FunctionWrapper("LongRunningFunctionTool"),
    ),
    ("AgentTool", AdkName::AgentTool),
    ("McpToolset", AdkName::Toolset("McpToolset")),
    ("MCPToolset", AdkName::Toolset("MCPToolset")),
    (
        "StdioConnectionParams",
        AdkName::Connection {
            class: "StdioConnectionParams",
            transport: "stdio",
        },
    ),
    (
        "SseConnectionParams",
        AdkName::Connection {
            class: "SseConnectionParams",
            transport: "sse",
        },
    ),
    (
        "SseServerParams",
        AdkName::Connection {
            class: "SseServerParams",
            transport: "sse",
        },
    ),
    (
        "StreamableHTTPConnectionParams",
        AdkName::Connection {
            class: "StreamableHTTPConnectionParams",
            transport: "streamable_http",
        },
    ),
    ("google_search", AdkName::BuiltIn("google_search")),
    (
        "built_in_code_execution",
        AdkName::BuiltIn("built_in_code_execution"),
    ),
    ("load_memory", AdkName::BuiltIn("load_memory")),
    ("BaseTool", AdkName::ToolBase("BaseTool")),
    ("BaseToolset", AdkName::ToolBase("BaseToolset")),
];

/// What an absolute dotted name is in ADK, if anything: a known name at a
/// module path of the `google.adk` package that a release exports it at
/// (`google.adk.agents.Agent`, `google.adk.agents.llm_agent.LlmAgent`).
pub fn adk_name(absolute: &str) -> Option<AdkName> {
    absolute.strip_prefix(ADK_PACKAGE)?.strip_prefix('.')?;
    let known = exported_name(absolute)?;
    NAMES
        .iter()
        .find(|(name, _)| *name == known)
        .map(|(_, kind)| *kind)
        .or_else(|| shipped(known))
}

/// What a tool the package ships is, by the name `EXPORTS` gives it: a
/// tool class, a toolset class, or a built-in instance.
fn shipped(known: &'static str) -> Option<AdkName> {
    match super::imports::shipped_kind(known)? {
        "tool" => Some(AdkName::ShippedTool(known)),
        "toolset" => Some(AdkName::ShippedToolset(known)),
        "built_in" => Some(AdkName::BuiltIn(known)),
        _ => None,
    }
}

/// What a name or callee spelled in `scope` is in ADK.
pub fn adk_value(facts: &ModuleFacts, value: &Value, scope: &str) -> Option<AdkName> {
    adk_name(&imported_name(facts, value, scope)?)
}

/// Whether the module imports ADK at all (a `sources[]` entry).
pub fn is_adk_source(facts: &ModuleFacts) -> bool {
    facts
        .imports
        .iter()
        .any(|import| import.level == 0 && is_adk_module(&import.module))
}

/// Whether a dotted module name is ADK's package or one of its submodules.
pub fn is_adk_module(dotted: &str) -> bool {
    dotted == ADK_PACKAGE || dotted.starts_with("google.adk.")
}

/// `mcp.StdioServerParameters(command=…, args=…)`, the MCP package's own
/// parameters class that ADK's stdio connection wraps.
pub fn is_stdio_server_parameters(facts: &ModuleFacts, callee: &Value, scope: &str) -> bool {
    imported_name(facts, callee, scope).is_some_and(|name| {
        name.rsplit('.').next() == Some("StdioServerParameters")
            && (name.starts_with("mcp.") || name.starts_with("google.adk."))
    })
}

/// `FunctionTool(func=f)`, `FunctionTool(f)`, `LongRunningFunctionTool(…)`
/// called in `scope`: the wrapped reference and the wrapper's other
/// arguments (part of what the tool is).
pub fn function_wrapper_call<'v>(
    facts: &ModuleFacts,
    value: &'v Value,
    scope: &str,
) -> Option<FunctionToolCall<'v>> {
    let Value::Call {
        callee,
        args,
        keywords,
    } = value
    else {
        return None;
    };
    let AdkName::FunctionWrapper(class) = adk_value(facts, callee, scope)? else {
        return None;
    };
    let keyword_func = keywords
        .iter()
        .find(|(k, _)| k.as_deref() == Some("func"))
        .map(|(_, v)| v);
    let (wrapped, rest) = match (keyword_func, args.split_first()) {
        (Some(func), _) => (func, args.as_slice()),
        (None, Some((first, rest))) => (first, rest),
        (None, None) => return None,
    };
    if !matches!(wrapped, Value::Name(_) | Value::Attribute(_)) {
        return None;
    }
    let mut other_arguments: Vec<String> = rest.iter().map(|a| format!("{a:?}")).collect();
    for (name, value) in keywords {
        if name.as_deref() != Some("func") {
            other_arguments.push(format!("{}={value:?}", name.as_deref().unwrap_or("**")));
        }
    }
    // The long-running wrapper changes how the tool runs: part of it.
    if class != "FunctionTool" {
        other_arguments.insert(0, class.to_string());
    }
    Some(FunctionToolCall {
        wrapped,
        name_override: None,
        unread_override: None,
        other_arguments,
        gate_keywords: super::openai::gate_keywords(keywords),
    })
}

/// One ADK agent construction as the module spells it.
#[derive(Debug, Clone, PartialEq)]
pub struct AdkConstruction<'f> {
    /// The literal `name=`: ADK requires one, and it is the agent's name.
    pub name: Option<String>,
    pub kind: AdkName,
    pub line: u32,
    pub call: &'f CallFact,
}

/// The ADK agent constructions of a module, in source order. A
/// construction of a pass-through subclass of `LlmAgent` (`context`) is
/// the `LlmAgent(...)` construction it makes.
pub fn agent_constructions<'f>(
    facts: &'f ModuleFacts,
    context: &'f super::module_context::ModuleContext,
) -> Vec<AdkConstruction<'f>> {
    use super::module_context::AgentBase;
    facts
        .calls
        .iter()
        .enumerate()
        .filter_map(|(index, call)| {
            let (kind, call) = match adk_value(facts, &call.callee, &call.scope) {
                Some(kind) => (kind, context.wrapper_call(index).unwrap_or(call)),
                None => match context.subclass_call(index, AgentBase::Adk) {
                    Some(base) => (AdkName::LlmAgent, base),
                    None => (
                        AdkName::WorkflowAgent("BaseAgent"),
                        context.subclass_call(index, AgentBase::AdkCustom)?,
                    ),
                },
            };
            matches!(
                kind,
                AdkName::LlmAgent | AdkName::WorkflowAgent(_) | AdkName::RemoteAgent
            )
            .then(|| AdkConstruction {
                name: call
                    .keyword("name")
                    .and_then(|_| super::names::agent_name(facts, call, &context.names)),
                kind,
                line: call.line,
                call,
            })
        })
        .collect()
}

/// An ADK agent's identity: its literal `name=` (ADK requires one), else
/// the plain variable it is assigned to, else its source label.
pub fn identity(facts: &ModuleFacts, construction: &AdkConstruction<'_>, path: &str) -> String {
    construction
        .name
        .clone()
        .or_else(|| {
            (construction
                .call
                .assigned_to
                .clone()
                .filter(|target| !target.contains('.')))
            .map(Into::into)
        })
        .unwrap_or_else(|| super::openai::source_label(facts, construction.call, path))
}

/// Classes the module derives from ADK's `LlmAgent` (`Agent`) directly:
/// the ones a pass-through subclass may be.
pub fn llm_agent_subclasses(facts: &ModuleFacts) -> Vec<&crate::python::ClassFact> {
    super::imports::classes_deriving(facts, |name| adk_name(name) == Some(AdkName::LlmAgent))
}

/// Classes the module derives from ADK's `BaseAgent` (directly).
pub fn base_agent_subclasses(facts: &ModuleFacts) -> Vec<&crate::python::ClassFact> {
    super::imports::classes_deriving(facts, |name| adk_name(name) == Some(AdkName::AgentBase))
}

/// Classes the module derives from an ADK agent class (directly).
pub fn agent_subclasses(facts: &ModuleFacts) -> Vec<&crate::python::ClassFact> {
    super::imports::classes_deriving(facts, |name| {
        matches!(
            adk_name(name),
            Some(
                AdkName::LlmAgent
                    | AdkName::WorkflowAgent(_)
                    | AdkName::RemoteAgent
                    | AdkName::AgentBase
            )
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;

    #[test]
    fn names_are_adk_only_by_absolute_import() {
        assert_eq!(adk_name("google.adk.agents.Agent"), Some(AdkName::LlmAgent));
        assert_eq!(
            adk_name("google.adk.agents.llm_agent.LlmAgent"),
            Some(AdkName::LlmAgent)
        );
        assert_eq!(
            adk_name("google.adk.tools.google_search"),
            Some(AdkName::BuiltIn("google_search"))
        );
        assert_eq!(
            adk_name("google.adk.agents.llm_agent.Agent"),
            Some(AdkName::LlmAgent)
        );
        assert_eq!(
            adk_name("google.adk.tools.mcp_tool.mcp_toolset.SseServerParams"),
            Some(AdkName::Connection {
                class: "SseServerParams",
                transport: "sse"
            })
        );
        assert_eq!(adk_name("google.adk.agents.nowhere.LlmAgent"), None);
        assert_eq!(adk_name("google.adkx.Agent"), None);
        assert_eq!(adk_name("agents.Agent"), None);
        let facts = extract_facts(
            b"from google.adk.agents import Agent, SequentialAgent\nfrom .adk import LlmAgent\n\nroot_agent = Agent(name='support', tools=[])\nflow = SequentialAgent(name='flow', sub_agents=[root_agent])\nlocal = LlmAgent(name='local')\n",
        );
        let found: Vec<(Option<String>, AdkName)> =
            agent_constructions(&facts, &Default::default())
                .into_iter()
                .map(|c| (c.name, c.kind))
                .collect();
        assert_eq!(
            found,
            vec![
                (Some("support".into()), AdkName::LlmAgent),
                (
                    Some("flow".into()),
                    AdkName::WorkflowAgent("SequentialAgent")
                ),
            ]
        );
        assert!(is_adk_source(&facts));
    }
}
