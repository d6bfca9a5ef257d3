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

use super::schema::unparse;
use crate::frameworks::imports::imported_name;
use crate::frameworks::openai;
use crate::python::{BindingKind, ModuleFacts, Value};
use crate::resolve::{ModuleSet, Resolver, Target};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How many names a value is followed through (`URL = BASE`, imports).
const MAX_VALUE_HOPS: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjectKind {
    McpServer,
    AgentTool,
    HostedTool,
}

impl ObjectKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ObjectKind::McpServer => "mcp_server",
            ObjectKind::AgentTool => "agent_tool",
            ObjectKind::HostedTool => "hosted_tool",
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
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolFilter {
    pub allowed: Option<Vec<String>>,
    pub blocked: Option<Vec<String>>,
}

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
    keys
}

/// Where an object's constructor call is written: names in it are read
/// through this module and scope.
pub struct ObjectSite<'a, 'm> {
    pub modules: &'m ModuleSet<'a>,
    pub path: &'a str,
    pub facts: &'a ModuleFacts,
    /// The enclosing function's qualified name; empty at module level.
    pub scope: String,
}

/// A string argument read piece by piece.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Literal(String),
    Env {
        name: String,
        default: Option<String>,
    },
}

type Pieces = Vec<Piece>;

impl ObjectSite<'_, '_> {
    /// Reads a hosted tool: its class, its argument names and a digest of
    /// their values.
    pub fn hosted_tool(
        &self,
        class: &str,
        args: &[Value],
        keywords: &[(Option<String>, Value)],
    ) -> ObjectTool {
        let mut unread = Vec::new();
        let mut arguments = Vec::new();
        let mut canonical = Vec::new();
        let named = args
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("#{i}"), v))
            .chain(
                keywords
                    .iter()
                    .map(|(k, v)| (k.clone().unwrap_or_else(|| "**".to_string()), v)),
            );
        for (name, value) in named {
            match self.canonical(value, 0) {
                Some(text) => canonical.push(format!("{name}={text}")),
                None => unread.push(UnreadPart {
                    part: format!("argument {name}"),
                    spelled: unparse(value),
                }),
            }
            arguments.push(name);
        }
        arguments.sort();
        canonical.sort();
        ObjectTool {
            identity: ObjectIdentity {
                kind: Some(ObjectKind::HostedTool),
                class: class.to_string(),
                arguments_sha256: (!arguments.is_empty()).then(|| digest(&canonical)),
                arguments,
                ..ObjectIdentity::default()
            },
            unread,
            built_at: (String::new(), 0),
            description: None,
        }
    }

    /// Reads an MCP server's transport, host or command, tool filter,
    /// credential names and endpoint digest.
    pub fn mcp_server(
        &self,
        class: &str,
        transport: &str,
        args: &[Value],
        keywords: &[(Option<String>, Value)],
    ) -> ObjectTool {
        let keyword = |name: &str| keyword(keywords, name);
        let mut identity = ObjectIdentity {
            kind: Some(ObjectKind::McpServer),
            class: class.to_string(),
            transport: Some(transport.to_string()),
            ..ObjectIdentity::default()
        };
        let mut unread = unpacked(keywords);
        let params = keyword("params").or(args.first());
        match params.and_then(|p| self.entries(p, 0)) {
            Some(entries) => self.endpoint(&entries, &mut identity, &mut unread),
            None => match params {
                Some(value) => unread.push(part("params", value)),
                None => unread.push(UnreadPart {
                    part: "params".into(),
                    spelled: String::new(),
                }),
            },
        }
        match keyword("tool_filter") {
            None | Some(Value::None) => {}
            Some(value) => match self.tool_filter(value) {
                Some(filter) => identity.tool_filter = Some(filter),
                None => unread.push(part("tool filter", value)),
            },
        }
        server(identity, unread)
    }

    /// Reads a server's connection entries (`url`, `headers`, `command`,
    /// `args`, `env`, `cwd`) into its host or command, credentials by name
    /// and endpoint digest.
    fn endpoint(
        &self,
        entries: &[(String, &Value)],
        identity: &mut ObjectIdentity,
        unread: &mut Vec<UnreadPart>,
    ) {
        let mut endpoint = Vec::new();
        for (key, value) in entries.iter() {
            match key.as_str() {
                "url" => match self.text(value, 0) {
                    Some(pieces) => {
                        identity.host = host_of(&pieces);
                        if identity.host.is_none() {
                            unread.push(part("host", value));
                        }
                        identity.credentials.extend(query_credentials(&pieces));
                        endpoint.push(format!("url={}", canonical_pieces(&pieces)));
                    }
                    None => unread.push(part("host", value)),
                },
                "command" => match self.text(value, 0) {
                    Some(pieces) => {
                        identity.command = Some(command_name(&pieces));
                        endpoint.push(format!("command={}", canonical_pieces(&pieces)));
                    }
                    None => unread.push(part("command", value)),
                },
                "args" | "cwd" => match self.canonical(value, 0) {
                    Some(text) => endpoint.push(format!("{key}={text}")),
                    None => unread.push(part(&format!("command {key}"), value)),
                },
                "headers" | "env" => {
                    let target = if key == "headers" {
                        "header"
                    } else {
                        "env_entry"
                    };
                    match self.entries(value, 0) {
                        Some(inner) => {
                            for (name, value) in &inner {
                                if is_secret_name(name) {
                                    match self.text(value, 0) {
                                        Some(pieces) => {
                                            let env = env_names(&pieces);
                                            endpoint.push(format!(
                                                "{target} {name}=env:{}",
                                                env.join(",")
                                            ));
                                            identity.credentials.push(Credential {
                                                target: target.to_string(),
                                                name: name.clone(),
                                                literal: env.is_empty(),
                                                env,
                                            });
                                        }
                                        None => {
                                            unread.push(part(&format!("{target} {name}"), value))
                                        }
                                    }
                                } else {
                                    match self.canonical(value, 0) {
                                        Some(text) => {
                                            endpoint.push(format!("{target} {name}={text}"))
                                        }
                                        None => {
                                            unread.push(part(&format!("{target} {name}"), value))
                                        }
                                    }
                                }
                            }
                        }
                        None => unread.push(part(key, value)),
                    }
                }
                // Timeouts, encodings: how it is called, not what.
                _ => {}
            }
        }
        endpoint.sort();
        identity.endpoint_sha256 = Some(digest(&endpoint));
    }

    /// Reads an ADK `McpToolset(connection_params=…, tool_filter=[…])`: the
    /// connection class gives the transport, its arguments the endpoint.
    pub fn adk_toolset(
        &self,
        class: &str,
        args: &[Value],
        keywords: &[(Option<String>, Value)],
    ) -> ObjectTool {
        let keyword = |name: &str| keyword(keywords, name);
        let mut identity = ObjectIdentity {
            kind: Some(ObjectKind::McpServer),
            class: class.to_string(),
            ..ObjectIdentity::default()
        };
        let mut unread = unpacked(keywords);
        let connection = keyword("connection_params").or(args.first());
        match connection.and_then(|c| self.connection(c)) {
            Some((transport, entries)) => {
                identity.transport = Some(transport.to_string());
                self.endpoint(&entries, &mut identity, &mut unread);
            }
            None => unread.push(match connection {
                Some(value) => part("connection", value),
                None => UnreadPart {
                    part: "connection".into(),
                    spelled: String::new(),
                },
            }),
        }
        match keyword("tool_filter") {
            None | Some(Value::None) => {}
            Some(value) => match self.string_list(value) {
                Some(names) => {
                    identity.tool_filter = Some(ToolFilter {
                        allowed: Some(names),
                        blocked: None,
                    })
                }
                None => unread.push(part("tool filter", value)),
            },
        }
        server(identity, unread)
    }

    /// An ADK connection: `SseConnectionParams(url=…, headers=…)`,
    /// `StreamableHTTPConnectionParams(…)`, `StdioConnectionParams(server_params=…)`
    /// or a bare `StdioServerParameters(command=…, args=…)`.
    fn connection<'v>(
        &'v self,
        value: &'v Value,
    ) -> Option<(&'static str, Vec<(String, &'v Value)>)> {
        let Value::Call {
            callee, keywords, ..
        } = self.follow(value, 0)?
        else {
            return None;
        };
        let named = |keywords: &'v [(Option<String>, Value)]| -> Option<Vec<(String, &'v Value)>> {
            keywords
                .iter()
                .map(|(k, v)| Some((k.clone()?, v)))
                .collect()
        };
        if crate::frameworks::adk::is_stdio_server_parameters(self.facts, callee, &self.scope) {
            return Some(("stdio", named(keywords)?));
        }
        match crate::frameworks::adk::adk_value(self.facts, callee, &self.scope)? {
            crate::frameworks::adk::AdkName::Connection {
                transport: "stdio", ..
            } => {
                let server = keywords
                    .iter()
                    .find(|(k, _)| k.as_deref() == Some("server_params"))
                    .map(|(_, v)| v)?;
                // An inline dict literal is read as written, with the keys
                // `StdioServerParameters(...)` takes; a dict bound to a
                // name (a module-level one any code may change) is not.
                if let Value::Dict(items) = server {
                    let entries = items
                        .iter()
                        .map(|(k, v)| match k {
                            Some(Value::Str(k)) => Some((k.clone(), v)),
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>()?;
                    return Some(("stdio", entries));
                }
                match self.connection(server)? {
                    ("stdio", entries) => Some(("stdio", entries)),
                    _ => None,
                }
            }
            crate::frameworks::adk::AdkName::Connection { transport, .. } => {
                Some((transport, named(keywords)?))
            }
            _ => None,
        }
    }

    /// `create_static_tool_filter(allowed_tool_names=[…], blocked_tool_names=[…])`
    /// or the same as a dict literal.
    fn tool_filter(&self, value: &Value) -> Option<ToolFilter> {
        let entries: Vec<(String, &Value)> = match value {
            Value::Call {
                callee,
                args,
                keywords,
            } if args.is_empty()
                && openai::is_static_tool_filter(self.facts, callee, &self.scope) =>
            {
                keywords
                    .iter()
                    .map(|(k, v)| Some((k.clone()?, v)))
                    .collect::<Option<Vec<_>>>()?
            }
            Value::Dict(items) => items
                .iter()
                .map(|(k, v)| match k {
                    Some(Value::Str(k)) => Some((k.clone(), v)),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?,
            _ => return None,
        };
        let mut filter = ToolFilter {
            allowed: None,
            blocked: None,
        };
        for (key, value) in entries {
            let names = match value {
                Value::None => None,
                other => Some(self.string_list(other)?),
            };
            match key.as_str() {
                "allowed_tool_names" => filter.allowed = names,
                "blocked_tool_names" => filter.blocked = names,
                _ => return None,
            }
        }
        Some(filter)
    }

    fn string_list(&self, value: &Value) -> Option<Vec<String>> {
        let (Value::List(items) | Value::Tuple(items)) = self.follow(value, 0)? else {
            return None;
        };
        let mut names = items
            .iter()
            .map(|item| match self.text(item, 0)?.as_slice() {
                [Piece::Literal(text)] => Some(text.clone()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        names.sort();
        names.dedup();
        Some(names)
    }

    /// A dict literal (or the SDK's `…Params(...)` TypedDict call) as
    /// `(key, value)` pairs with literal string keys.
    fn entries<'v>(&'v self, value: &'v Value, hops: usize) -> Option<Vec<(String, &'v Value)>> {
        match self.follow(value, hops)? {
            Value::Dict(items) => items
                .iter()
                .map(|(k, v)| match k {
                    Some(Value::Str(k)) => Some((k.clone(), v)),
                    _ => None,
                })
                .collect(),
            Value::Call {
                callee,
                args,
                keywords,
            } if args.is_empty() && self.is_params_class(callee) => keywords
                .iter()
                .map(|(k, v)| Some((k.clone()?, v)))
                .collect(),
            _ => None,
        }
    }

    fn is_params_class(&self, callee: &Value) -> bool {
        imported_name(self.facts, callee, &self.scope).is_some_and(|name| {
            let member = name.rsplit('.').next().unwrap_or("");
            (name.starts_with("agents.mcp.") || name.starts_with("openai_agents.mcp."))
                && member.starts_with("MCPServer")
                && member.ends_with("Params")
        })
    }

    /// A string value as literal pieces and environment variables.
    fn text(&self, value: &Value, hops: usize) -> Option<Pieces> {
        if let Some(env) = self.env_read(value) {
            return Some(vec![env]);
        }
        match self.follow(value, hops)? {
            Value::Str(text) => Some(vec![Piece::Literal(text.clone())]),
            Value::FString(parts) => {
                let mut pieces = Vec::new();
                for part in parts {
                    match part {
                        Value::Str(text) => pieces.push(Piece::Literal(text.clone())),
                        other => pieces.extend(self.text(other, hops + 1)?),
                    }
                }
                Some(pieces)
            }
            other if std::ptr::eq(other, value) => None,
            other => self.text(other, hops + 1),
        }
    }

    /// `os.getenv("X", default)`, `os.environ.get("X")`, `os.environ["X"]`.
    fn env_read(&self, value: &Value) -> Option<Piece> {
        match value {
            Value::Call { callee, args, .. } => {
                let name = imported_name(self.facts, callee, &self.scope)?;
                if name != "os.getenv" && name != "os.environ.get" {
                    return None;
                }
                let Some(Value::Str(var)) = args.first() else {
                    return None;
                };
                let default = match args.get(1) {
                    None => None,
                    Some(Value::Str(text)) => Some(text.clone()),
                    Some(_) => return None,
                };
                Some(Piece::Env {
                    name: var.clone(),
                    default,
                })
            }
            Value::Subscript { base, index } => {
                if imported_name(self.facts, base, &self.scope).as_deref() != Some("os.environ") {
                    return None;
                }
                let [Value::Str(var)] = index.as_slice() else {
                    return None;
                };
                Some(Piece::Env {
                    name: var.clone(),
                    default: None,
                })
            }
            _ => None,
        }
    }

    /// A literal value's canonical text (for a digest), following names to
    /// their one constant binding; `None` when any part is not a literal.
    pub fn canonical(&self, value: &Value, hops: usize) -> Option<String> {
        if hops > MAX_VALUE_HOPS {
            return None;
        }
        if let Some(env) = self.env_read(value) {
            return Some(canonical_pieces(&[env]));
        }
        let value = self.follow(value, hops)?;
        let join = |items: &[Value]| -> Option<String> {
            Some(
                items
                    .iter()
                    .map(|item| self.canonical(item, hops + 1))
                    .collect::<Option<Vec<_>>>()?
                    .join(","),
            )
        };
        Some(match value {
            Value::Str(_) | Value::Number(_) | Value::Bool(_) | Value::None => unparse(value),
            Value::FString(_) => canonical_pieces(&self.text(value, hops)?),
            Value::List(items) => format!("[{}]", join(items)?),
            Value::Tuple(items) => format!("({})", join(items)?),
            Value::Dict(items) => {
                let mut parts = Vec::new();
                for (key, value) in items {
                    let key = self.canonical(key.as_ref()?, hops + 1)?;
                    parts.push(format!("{key}:{}", self.canonical(value, hops + 1)?));
                }
                format!("{{{}}}", parts.join(","))
            }
            // A nested constructor (`UserLocation(city="x")`) by its spelling
            // and its literal arguments.
            Value::Call {
                callee,
                args,
                keywords,
            } => {
                let mut parts = vec![join(args)?];
                for (key, value) in keywords {
                    parts.push(format!(
                        "{}={}",
                        key.as_deref()?,
                        self.canonical(value, hops + 1)?
                    ));
                }
                format!("{}({})", callee.dotted()?, parts.join(","))
            }
            _ => return None,
        })
    }

    /// Follows a plain name to the one value its scope binds it to: a
    /// local assignment, a module constant, or an imported one. Any other
    /// value is returned as is; `None` when a name cannot be followed.
    fn follow<'v>(&'v self, value: &'v Value, hops: usize) -> Option<&'v Value> {
        let Value::Name(name) = value else {
            return Some(value);
        };
        if hops > MAX_VALUE_HOPS {
            return None;
        }
        // The innermost function that binds the name decides, as Python
        // looks it up; a closure some function rebinds (`nonlocal`) is not
        // a constant.
        if self
            .facts
            .functions
            .iter()
            .any(|f| f.nonlocals.iter().any(|n| n == name))
        {
            return None;
        }
        let mut scope = self.scope.as_str();
        while !scope.is_empty() {
            if let Some(function) = self.facts.functions.iter().find(|f| f.qualname == scope) {
                let locals: Vec<_> = function.locals.iter().filter(|b| b.name == *name).collect();
                match locals.as_slice() {
                    [] => {}
                    [binding]
                        if binding.kind == BindingKind::Assignment && !binding.conditional =>
                    {
                        return binding.value.as_ref();
                    }
                    _ => return None,
                }
            }
            scope = scope.rsplit_once('.').map_or("", |(parent, _)| parent);
        }
        // A module name another function rebinds (`global NAME`) is not a
        // constant.
        if self
            .facts
            .functions
            .iter()
            .any(|f| f.globals.iter().any(|g| g == name))
        {
            return None;
        }
        let mut resolver = Resolver::new(self.modules);
        let found = resolver.resolve(self.path, "", value).ok()?;
        let Target::Value { path, name, line } = found.target else {
            return None;
        };
        let facts = self.modules.facts(path)?;
        facts
            .module_bindings
            .iter()
            .find(|b| b.name == name && b.line == line && b.kind == BindingKind::Assignment)?
            .value
            .as_ref()
            .filter(|_| std::ptr::eq(facts, self.facts) || is_constant_shaped(facts, &name))
    }
}

/// A value followed into another module is read only when that module
/// rebinds it nowhere (`global`).
fn is_constant_shaped(facts: &ModuleFacts, name: &str) -> bool {
    !facts
        .functions
        .iter()
        .any(|f| f.globals.iter().any(|g| g == name))
}

/// A keyword argument's value.
fn keyword<'k>(keywords: &'k [(Option<String>, Value)], name: &str) -> Option<&'k Value> {
    keywords
        .iter()
        .find(|(k, _)| k.as_deref() == Some(name))
        .map(|(_, v)| v)
}

/// `**mapping` among the arguments: what it holds is not read.
fn unpacked(keywords: &[(Option<String>, Value)]) -> Vec<UnreadPart> {
    if keywords.iter().any(|(k, _)| k.is_none()) {
        vec![UnreadPart {
            part: "arguments".into(),
            spelled: "**".into(),
        }]
    } else {
        Vec::new()
    }
}

/// A server read: credentials in a stable order, where it is built filled
/// in by the caller.
fn server(mut identity: ObjectIdentity, unread: Vec<UnreadPart>) -> ObjectTool {
    identity
        .credentials
        .sort_by(|a, b| (&a.target, &a.name).cmp(&(&b.target, &b.name)));
    ObjectTool {
        identity,
        unread,
        built_at: (String::new(), 0),
        description: None,
    }
}

fn part(name: &str, value: &Value) -> UnreadPart {
    UnreadPart {
        part: name.to_string(),
        spelled: unparse(value),
    }
}

fn digest(parts: &[String]) -> String {
    format!("{:x}", Sha256::digest(parts.join("\n").as_bytes()))
}

fn canonical_pieces(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|piece| match piece {
            Piece::Literal(text) => text.clone(),
            Piece::Env {
                name,
                default: None,
            } => format!("{{env {name}}}"),
            Piece::Env {
                name,
                default: Some(default),
            } => format!("{{env {name} or {default}}}"),
        })
        .collect()
}

fn env_names(pieces: &[Piece]) -> Vec<String> {
    let mut names: Vec<String> = pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Env { name, .. } => Some(name.clone()),
            Piece::Literal(_) => None,
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The host a URL names: `api.example.com`, `env NAME` when the whole URL
/// comes from the environment, `env NAME or host` with a default; `None`
/// when the host is not literal text.
fn host_of(pieces: &[Piece]) -> Option<String> {
    if let [Piece::Env { name, default }] = pieces {
        return Some(match default.as_deref().and_then(literal_host) {
            Some(host) => format!("env {name} or {host}"),
            None => format!("env {name}"),
        });
    }
    // The host is what lies between `://` and the first `/`, `?` or `#`,
    // and must be literal text or one environment variable.
    let mut text = String::new();
    for piece in pieces {
        match piece {
            Piece::Literal(literal) => text.push_str(literal),
            Piece::Env { name, .. } => text.push_str(&format!("\u{0}{name}\u{0}")),
        }
    }
    let after_scheme = text
        .split_once("://")
        .map_or(text.as_str(), |(_, rest)| rest);
    let authority = after_scheme
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if let Some(env) = host.strip_prefix('\u{0}') {
        let (name, rest) = env.split_once('\u{0}')?;
        return (rest.is_empty() || rest.starts_with(':')).then(|| format!("env {name}"));
    }
    if host.contains('\u{0}') {
        return None;
    }
    literal_host(&text)
}

fn literal_host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => host,
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Secret-named query keys of a URL (`?api_key={env KEY}`).
fn query_credentials(pieces: &[Piece]) -> Vec<Credential> {
    let mut credentials = Vec::new();
    let mut text = String::new();
    let mut envs: Vec<String> = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Literal(literal) => text.push_str(literal),
            Piece::Env { name, .. } => {
                text.push_str(&format!("\u{0}{}\u{0}", envs.len()));
                envs.push(name.clone());
            }
        }
    }
    let Some((_, query)) = text.split_once('?') else {
        return credentials;
    };
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if !is_secret_name(key) {
            continue;
        }
        let env: Vec<String> = value
            .split('\u{0}')
            .skip(1)
            .step_by(2)
            .filter_map(|index| index.parse::<usize>().ok())
            .filter_map(|index| envs.get(index).cloned())
            .collect();
        credentials.push(Credential {
            target: "query".into(),
            name: key.to_string(),
            literal: env.is_empty(),
            env,
        });
    }
    credentials
}

/// A command's file name (`npx`, `server.py`); one shaped like a key is
/// withheld, as a URL's path piece would be.
fn command_name(pieces: &[Piece]) -> String {
    if let [Piece::Env { name, .. }] = pieces {
        return format!("env {name}");
    }
    let text = canonical_pieces(pieces);
    let name = text.rsplit(['/', '\\']).next().unwrap_or(&text).to_string();
    if is_key_shaped(&name) {
        "[withheld]".to_string()
    } else {
        name
    }
}

/// A long run of letters and digits mixing both: a token, not a name.
fn is_key_shaped(text: &str) -> bool {
    text.len() >= 24
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && text.chars().any(|c| c.is_ascii_digit())
        && text.chars().any(|c| c.is_ascii_alphabetic())
}

/// Whether a header, query key or environment entry names a secret.
pub fn is_secret_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "auth",
        "token",
        "key",
        "secret",
        "password",
        "passwd",
        "cookie",
        "credential",
        "session",
        "bearer",
    ]
    .iter()
    .any(|word| lower.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;
    use crate::resolve::ScopeContext;

    /// Reads the MCP server assigned to `server` in a one-module scope.
    fn read_server(source: &str) -> ObjectTool {
        let facts = extract_facts(source.as_bytes());
        let context = ScopeContext::default();
        let modules = ModuleSet::new([("agent.py", &facts)], std::iter::empty(), &context);
        let site = ObjectSite {
            modules: &modules,
            path: "agent.py",
            facts: &facts,
            scope: String::new(),
        };
        let call = facts
            .module_bindings
            .iter()
            .find(|b| b.name == "server")
            .and_then(|b| b.value.clone());
        let Some(Value::Call {
            callee,
            args,
            keywords,
        }) = call
        else {
            panic!("no server call in the fixture");
        };
        let Some(openai::ObjectClass::McpServer { class, transport }) =
            openai::object_class(&facts, &callee, "")
        else {
            panic!("not an MCP server class");
        };
        site.mcp_server(class, transport, &args, &keywords)
    }

    #[test]
    fn http_server_host_credentials_filter_and_digest() {
        let read = read_server(
            r#"import os
from agents.mcp import MCPServerStreamableHttp, create_static_tool_filter
URL = os.getenv("PARALLEL_MCP_URL", "https://search.parallel.ai/mcp?x=1")
server = MCPServerStreamableHttp(
    params={"url": URL, "headers": {"Authorization": f"Bearer {os.environ['PARALLEL_API_KEY']}", "X-Trace": "on"}},
    tool_filter=create_static_tool_filter(allowed_tool_names=["web_search", "web_fetch"]),
)
"#,
        );
        assert!(read.unread.is_empty(), "{:?}", read.unread);
        let id = &read.identity;
        assert_eq!(id.transport.as_deref(), Some("streamable_http"));
        assert_eq!(
            id.host.as_deref(),
            Some("env PARALLEL_MCP_URL or search.parallel.ai")
        );
        assert_eq!(
            id.tool_filter,
            Some(ToolFilter {
                allowed: Some(vec!["web_fetch".into(), "web_search".into()]),
                blocked: None
            })
        );
        assert_eq!(
            id.credentials,
            vec![Credential {
                target: "header".into(),
                name: "Authorization".into(),
                env: vec!["PARALLEL_API_KEY".into()],
                literal: false
            }]
        );
        assert!(id.endpoint_sha256.is_some());
    }

    #[test]
    fn a_path_change_moves_only_the_digest() {
        let base = read_server(
            "from agents.mcp import MCPServerSse\nserver = MCPServerSse(params={\"url\": \"https://mcp.example.com/v1/sse\"})\n",
        );
        let head = read_server(
            "from agents.mcp import MCPServerSse\nserver = MCPServerSse(params={\"url\": \"https://mcp.example.com/v2/sse\"})\n",
        );
        assert_eq!(base.identity.host.as_deref(), Some("mcp.example.com"));
        assert_eq!(head.identity.host, base.identity.host);
        assert_ne!(head.identity.endpoint_sha256, base.identity.endpoint_sha256);
    }

    #[test]
    fn stdio_command_env_and_literal_secrets() {
        let read = read_server(
            r#"from agents.mcp import MCPServerStdio
import os
server = MCPServerStdio(params={"command": "/usr/bin/npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_TOKEN": os.environ["GH_TOKEN"], "API_KEY": "abc", "LOG": "debug"}})
"#,
        );
        assert!(read.unread.is_empty(), "{:?}", read.unread);
        assert_eq!(read.identity.command.as_deref(), Some("npx"));
        let creds: Vec<(&str, Vec<String>, bool)> = read
            .identity
            .credentials
            .iter()
            .map(|c| (c.name.as_str(), c.env.clone(), c.literal))
            .collect();
        assert_eq!(
            creds,
            vec![
                ("API_KEY", vec![], true),
                ("GITHUB_TOKEN", vec!["GH_TOKEN".to_string()], false)
            ]
        );
    }

    #[test]
    fn parts_it_cannot_name_are_kept_unread_with_their_spelling() {
        let read = read_server(
            "from agents.mcp import MCPServerSse\nserver = MCPServerSse(params={\"url\": build_url(), \"headers\": make_headers()}, tool_filter=pick())\n",
        );
        let parts: Vec<(&str, &str)> = read
            .unread
            .iter()
            .map(|p| (p.part.as_str(), p.spelled.as_str()))
            .collect();
        assert_eq!(
            parts,
            vec![
                ("host", "build_url()"),
                ("headers", "make_headers()"),
                ("tool filter", "pick()")
            ]
        );
        assert_eq!(read.identity.host, None);
    }

    #[test]
    fn hosts_from_templates() {
        let env = |name: &str| Piece::Env {
            name: name.into(),
            default: None,
        };
        let lit = |text: &str| Piece::Literal(text.into());
        assert_eq!(
            host_of(&[lit("https://"), env("HOST"), lit("/mcp")]).as_deref(),
            Some("env HOST")
        );
        assert_eq!(
            host_of(&[lit("https://user@Api.Example.com:8443/x")]).as_deref(),
            Some("api.example.com")
        );
        assert_eq!(
            host_of(&[lit("https://api."), env("ZONE"), lit("/x")]),
            None
        );
        assert_eq!(
            command_name(&[lit("a1b2c3d4e5f6a7b8c9d0e1f2a3b4")]),
            "[withheld]"
        );
    }
}
