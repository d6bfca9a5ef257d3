//! MCP servers the repository defines itself, and what it declares about
//! their tools (issue 22, "declared effects"): `FastMCP(...)` of the `mcp`
//! SDK 1.x or of `fastmcp`, and the `mcp` SDK 2.x's `MCPServer(...)`, with
//! the functions registered on them by `@server.tool(...)` (or `@server.tool`)
//! and, on the `mcp` SDK's servers, `server.add_tool(f, ...)`; each tool's
//! `annotations=` as `ToolAnnotations(readOnlyHint=True, …)` or a dict
//! display, directly or through a module constant bound once.
//!
//! Only the application's own words are read: a declaration a remote
//! server sends at run time is never seen here, so nothing that arrives
//! from outside the repository can relax a check. Identity is by import
//! (`imports::exported_name`), never by a name alone.

use super::imports::{exported_name, imported_name};
use crate::python::keyword_value as keyword;
use crate::python::{BindingKind, FunctionFact, ModuleFacts, Text, Value};
use serde::{Deserialize, Serialize};

/// The annotation hints of the MCP specification, in its order.
pub const HINTS: &[&str] = &[
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// One tool a repository-defined MCP server registers, with what the
/// application declares about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerTool {
    /// The module-level name the server is bound to (`mcp`).
    pub server_variable: String,
    /// The server's literal name (`FastMCP("files")`), if it has one.
    pub server_name: Option<String>,
    /// The tool's name as clients see it: the decorator's literal name, or
    /// the function's.
    pub tool: String,
    /// The line of the function `def`: where its reach is read.
    pub function_line: u32,
    /// The line of the declaration (the decorator's function, or the
    /// `add_tool` call).
    pub declared_line: u32,
    /// Whether the declaration passes `annotations=` (not `None`): what
    /// makes it a declaration about the tool's effects.
    pub annotated: bool,
    /// The hints the declaration sets, in [`HINTS`] order.
    pub hints: Vec<DeclaredHint>,
    /// What the declaration spells that is not read, each as a sentence.
    pub unread: Vec<String>,
}

/// One annotation hint as the source states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclaredHint {
    /// `readOnlyHint`, `destructiveHint`, `idempotentHint` or `openWorldHint`.
    pub hint: String,
    /// The literal it is set to.
    pub value: bool,
}

impl ServerTool {
    /// The literal a hint is set to, if it is.
    pub fn hint(&self, hint: &str) -> Option<bool> {
        self.hints.iter().find(|h| h.hint == hint).map(|h| h.value)
    }
}

/// Which package a server class comes from: only the `mcp` SDK's servers
/// take a function in `add_tool` (`fastmcp`'s take a `Tool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ServerPackage {
    McpSdk,
    FastMcp,
}

struct Server<'f> {
    variable: &'f str,
    name: Option<String>,
    package: ServerPackage,
}

/// The top-level packages a server may come from: a repository that holds
/// a module of one of these names shadows it (`ScopeContext`).
pub const SERVER_PACKAGES: &[&str] = &["mcp", "mcp_types", "fastmcp"];

/// Whether the module defines an MCP server that registers a tool with
/// `annotations=`: a declaration about its effects, which a change of the
/// module may alter (scope derivation counts it as an agent file).
pub fn declares_effects(facts: &ModuleFacts) -> bool {
    server_tools(facts).iter().any(|tool| tool.annotated)
}

/// Every tool the module's MCP servers register, in source order.
pub fn server_tools(facts: &ModuleFacts) -> Vec<ServerTool> {
    if facts.syntax_error.is_some() {
        return Vec::new();
    }
    let servers = servers(facts);
    if servers.is_empty() {
        return Vec::new();
    }
    let mut tools = Vec::new();
    for function in facts.functions.iter().filter(|f| f.module_level) {
        for (at, decorator) in function.decorators.iter().enumerate() {
            if let Some(mut tool) = decorated(facts, &servers, function, decorator) {
                // Decorators below the registering one wrap the function
                // before it is registered: their code runs on each call.
                for inner in function.decorators.iter().skip(at + 1) {
                    let spelled = match inner {
                        Value::Call { callee, .. } => callee.dotted(),
                        other => other.dotted(),
                    };
                    tool.unread.push(format!(
                        "the function is wrapped by {} before it is registered; what the wrapper does is not read",
                        spelled.unwrap_or_else(|| "a decorator".to_string())
                    ));
                }
                tools.push(tool);
            }
        }
    }
    for call in &facts.module_calls {
        if let Some(tool) = added(facts, &servers, call) {
            tools.push(tool);
        }
    }
    tools.sort_by_key(|t| (t.declared_line, t.function_line));
    tools
}

/// The module's servers: a module-level name bound once, unconditionally,
/// to a server class's construction.
fn servers(facts: &ModuleFacts) -> Vec<Server<'_>> {
    let mut found = Vec::new();
    for binding in &facts.module_bindings {
        let Some(Value::Call {
            callee,
            args,
            keywords,
        }) = &binding.value
        else {
            continue;
        };
        if binding.conditional || binding.kind != BindingKind::Assignment {
            continue;
        }
        let Some(package) = server_package(facts, callee) else {
            continue;
        };
        let bound_once = facts
            .module_bindings_named(&binding.name)
            .filter(|b| b.name == binding.name)
            .count()
            == 1;
        if !bound_once {
            continue;
        }
        let name = match args.first() {
            Some(Value::Str(name)) => Some(name.clone()),
            _ => keyword(keywords, "name").and_then(|v| match v {
                Value::Str(name) => Some(name.clone()),
                _ => None,
            }),
        };
        found.push(Server {
            variable: &binding.name,
            name: name.map(Into::into),
            package,
        });
    }
    found
}

fn server_package(facts: &ModuleFacts, callee: &Value) -> Option<ServerPackage> {
    let absolute = imported_name(facts, callee, "")?;
    let package = if absolute.starts_with("mcp.") {
        ServerPackage::McpSdk
    } else if absolute.starts_with("fastmcp.") {
        ServerPackage::FastMcp
    } else {
        return None;
    };
    matches!(exported_name(&absolute), Some("FastMCP" | "MCPServer")).then_some(package)
}

/// `@server.tool`, `@server.tool()`, `@server.tool("name", annotations=…)`.
fn decorated(
    facts: &ModuleFacts,
    servers: &[Server<'_>],
    function: &FunctionFact,
    decorator: &Value,
) -> Option<ServerTool> {
    let (callee, args, keywords) = match decorator {
        Value::Call {
            callee,
            args,
            keywords,
        } => (callee.as_ref(), args.as_slice(), keywords.as_slice()),
        other => (other, &[][..], &[][..]),
    };
    let server = method_of(servers, callee, "tool")?;
    Some(declaration(
        facts,
        server,
        function,
        function.line,
        args.first(),
        keywords,
    ))
}

/// `server.add_tool(f, name=…, annotations=…)` at module level, `f` a
/// function the module defines once.
fn added(
    facts: &ModuleFacts,
    servers: &[Server<'_>],
    call: &crate::python::BodyCall,
) -> Option<ServerTool> {
    let server = method_of(servers, &call.callee, "add_tool")?;
    if server.package != ServerPackage::McpSdk {
        return None;
    }
    let Some(Value::Name(function)) = call.args.first() else {
        return None;
    };
    let mut defined = facts
        .functions
        .iter()
        .filter(|f| f.module_level && f.name == *function);
    let function = defined.next().filter(|_| defined.next().is_none())?;
    // `add_tool(f, "name")`: the name is the second positional argument.
    Some(declaration(
        facts,
        server,
        function,
        call.line,
        call.args.get(1),
        &call.keywords,
    ))
}

/// The server whose method `callee` is (`mcp.tool`), if any.
fn method_of<'s, 'f>(
    servers: &'s [Server<'f>],
    callee: &Value,
    method: &str,
) -> Option<&'s Server<'f>> {
    let Value::Attribute(parts) = callee else {
        return None;
    };
    let [variable, called] = parts.as_slice() else {
        return None;
    };
    if called != method {
        return None;
    }
    servers.iter().find(|s| s.variable == variable)
}

fn declaration(
    facts: &ModuleFacts,
    server: &Server<'_>,
    function: &FunctionFact,
    declared_line: u32,
    positional_name: Option<&Value>,
    keywords: &[(Option<Text>, Value)],
) -> ServerTool {
    let mut unread = Vec::new();
    let spelled_name = positional_name.or_else(|| keyword(keywords, "name"));
    let tool = match spelled_name {
        None | Some(Value::None) => function.name.clone(),
        Some(Value::Str(name)) => name.clone(),
        Some(_) => {
            unread.push(format!(
                "the tool's name is not a literal; it is named by its function, {}",
                function.name
            ));
            function.name.clone()
        }
    };
    if keywords.iter().any(|(k, _)| k.is_none()) {
        unread.push("the declaration passes ** keyword unpacking".to_string());
    }
    let annotation = keyword(keywords, "annotations").filter(|v| **v != Value::None);
    let hints = match annotation {
        None => Vec::new(),
        Some(value) => annotations(facts, value, &mut unread),
    };
    ServerTool {
        server_variable: server.variable.to_string(),
        server_name: server.name.clone(),
        tool: tool.into(),
        function_line: function.line,
        declared_line,
        annotated: annotation.is_some(),
        hints,
        unread,
    }
}

/// The hints `annotations=` sets: a `ToolAnnotations(...)` construction, a
/// dict display with literal keys, or a module constant bound once to
/// either.
fn annotations(facts: &ModuleFacts, value: &Value, unread: &mut Vec<String>) -> Vec<DeclaredHint> {
    let value = match value {
        Value::Name(name) => {
            let mut bound = facts
                .module_bindings_named(name)
                .filter(|b| b.name == *name);
            match (bound.next(), bound.next()) {
                (Some(binding), None) if !binding.conditional => {
                    match (&binding.kind, &binding.value) {
                        (BindingKind::Assignment, Some(value)) => value,
                        _ => {
                            unread.push(format!(
                                "annotations={name} is not a value the reader reads"
                            ));
                            return Vec::new();
                        }
                    }
                }
                _ => {
                    unread.push(format!(
                        "annotations={name} is not bound once at module level"
                    ));
                    return Vec::new();
                }
            }
        }
        other => other,
    };
    let pairs: Vec<(Option<Text>, &Value)> = match value {
        Value::Call {
            callee,
            args,
            keywords,
        } if imported_name(facts, callee, "")
            .is_some_and(|n| exported_name(&n) == Some("ToolAnnotations")) =>
        {
            if !args.is_empty() {
                unread.push("ToolAnnotations(...) is given positional arguments".to_string());
            }
            keywords.iter().map(|(k, v)| (k.clone(), v)).collect()
        }
        Value::Dict(entries) => entries
            .iter()
            .map(|(k, v)| match k {
                Some(Value::Str(key)) => (Some(key.clone()), v),
                _ => (None, v),
            })
            .collect(),
        _ => {
            unread.push("annotations= is not a ToolAnnotations(...) or a dict display".to_string());
            return Vec::new();
        }
    };
    let mut hints = Vec::new();
    for hint in HINTS {
        let Some((_, value)) = pairs.iter().find(|(k, _)| k.as_deref() == Some(*hint)) else {
            continue;
        };
        match value {
            Value::Bool(set) => hints.push(DeclaredHint {
                hint: hint.to_string(),
                value: *set,
            }),
            Value::None => {}
            _ => unread.push(format!("{hint} is not a literal True or False")),
        }
    }
    if pairs.iter().any(|(k, _)| k.is_none()) {
        unread.push("annotations= holds an entry whose key is not a literal".to_string());
    }
    hints
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;

    fn tools(source: &str) -> Vec<ServerTool> {
        server_tools(&extract_facts(source.as_bytes()))
    }

    #[test]
    fn a_fastmcp_tool_with_tool_annotations_declares_its_hints() {
        let found = tools(
            "from mcp.server.fastmcp import FastMCP\n\
             from mcp.types import ToolAnnotations\n\
             mcp = FastMCP(\"files\")\n\
             @mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))\n\
             def read_file(path: str) -> str:\n    return path\n",
        );
        assert_eq!(found.len(), 1);
        let tool = &found[0];
        assert_eq!(tool.server_variable, "mcp");
        assert_eq!(tool.server_name.as_deref(), Some("files"));
        assert_eq!(tool.tool, "read_file");
        assert_eq!(tool.function_line, 5);
        assert_eq!(tool.hint("readOnlyHint"), Some(true));
        assert_eq!(tool.hint("openWorldHint"), Some(false));
        assert_eq!(tool.hint("destructiveHint"), None);
        assert!(tool.unread.is_empty());
    }

    #[test]
    fn fastmcp_names_dicts_constants_and_add_tool_are_read() {
        let found = tools(
            "from fastmcp import FastMCP\n\
             RO = {\"readOnlyHint\": True}\n\
             server = FastMCP(name=\"notes\")\n\
             @server.tool(\"lookup\", annotations=RO)\n\
             def find(q):\n    return q\n\
             @server.tool\n\
             def plain():\n    return 1\n",
        );
        let names: Vec<(&str, Option<bool>)> = found
            .iter()
            .map(|t| (t.tool.as_str(), t.hint("readOnlyHint")))
            .collect();
        assert_eq!(names, vec![("lookup", Some(true)), ("plain", None)]);
        let added = tools(
            "from mcp.server.fastmcp import FastMCP\n\
             from mcp.types import ToolAnnotations\n\
             app = FastMCP()\n\
             def purge():\n    pass\n\
             app.add_tool(purge, name=\"purge\", annotations=ToolAnnotations(destructiveHint=False))\n",
        );
        assert_eq!(added.len(), 1);
        assert_eq!(added[0].tool, "purge");
        assert_eq!(added[0].declared_line, 6);
        assert_eq!(added[0].hint("destructiveHint"), Some(false));
    }

    #[test]
    fn what_is_not_a_literal_is_named_and_not_a_server_is_nothing() {
        let found = tools(
            "from mcp.server.fastmcp import FastMCP\n\
             import config\n\
             mcp = FastMCP(\"x\")\n\
             @mcp.tool(annotations={\"readOnlyHint\": config.RO})\n\
             def f():\n    pass\n",
        );
        assert_eq!(found[0].hints, Vec::new());
        assert_eq!(
            found[0].unread,
            vec!["readOnlyHint is not a literal True or False"]
        );
        // A class named FastMCP the module defines is not the package's.
        assert!(tools(
            "class FastMCP:\n    pass\nmcp = FastMCP()\n@mcp.tool()\ndef f():\n    pass\n"
        )
        .is_empty());
        // A server bound twice is not read as one server.
        assert!(tools(
            "from fastmcp import FastMCP\nmcp = FastMCP()\nmcp = FastMCP()\n@mcp.tool()\ndef f():\n    pass\n"
        )
        .is_empty());
    }
}
