//! Reading an object's identity from its constructor call: a hosted tool
//! (its argument names and a digest of their values), an SDK MCP server
//! and an ADK `McpToolset` with its connection (transport, host or
//! command, credentials by name, endpoint digest, tool filter).

use super::pieces::{canonical_pieces, command_name, env_names, host_of, query_credentials, Piece};
use super::{
    is_secret_name, Credential, ObjectIdentity, ObjectKind, ObjectSite, ObjectTool, ToolFilter,
    UnreadPart,
};
use crate::frameworks::imports::imported_name;
use crate::frameworks::openai;
use crate::graph::schema::unparse;
use crate::python::keyword_value as keyword;
use crate::python::Text;
use crate::python::Value;
use sha2::{Digest, Sha256};

impl ObjectSite<'_, '_> {
    /// Reads a hosted tool: its class, its argument names and a digest of
    /// their values.
    /// `callable` is the class by the readers' name
    /// (`google.adk.LangchainTool`): its positional arguments are named
    /// by the parameters they bind (`frameworks::arguments`), so spelling
    /// one positionally or by keyword is the same tool.
    pub fn hosted_tool(
        &self,
        callable: &str,
        class: &str,
        args: &[Value],
        keywords: &[(Option<Text>, Value)],
    ) -> ObjectTool {
        let (arguments, arguments_sha256, unread) = self.arguments(callable, args, keywords);
        ObjectTool {
            identity: ObjectIdentity {
                kind: Some(ObjectKind::HostedTool),
                class: class.to_string(),
                arguments_sha256,
                arguments,
                ..ObjectIdentity::default()
            },
            unread,
            built_at: (String::new(), 0),
            description: None,
            reaches: None,
            gates: Vec::new(),
        }
    }

    /// Reads an instance of a repository tool class: the class, the tool's
    /// name, the class's digest, and its constructor's argument names and
    /// a digest of their values (as a hosted tool's).
    pub fn tool_class(
        &self,
        class: &str,
        read: &crate::frameworks::tool_classes::ToolClass,
        args: &[Value],
        keywords: &[(Option<Text>, Value)],
    ) -> ObjectTool {
        let (arguments, arguments_sha256, unread) = self.arguments("", args, keywords);
        ObjectTool {
            identity: ObjectIdentity {
                kind: Some(ObjectKind::ToolClass),
                class: class.to_string(),
                tool_name: Some(read.name.clone()),
                arguments_sha256,
                arguments,
                implementation_sha256: Some(read.implementation_sha256.clone()),
                ..ObjectIdentity::default()
            },
            unread,
            built_at: (String::new(), 0),
            description: None,
            reaches: None,
            gates: Vec::new(),
        }
    }

    /// A constructor call's argument names (`#0` for a position), sorted,
    /// a digest of their canonical values, and the ones not read.
    fn arguments(
        &self,
        callable: &str,
        args: &[Value],
        keywords: &[(Option<Text>, Value)],
    ) -> (Vec<String>, Option<String>, Vec<UnreadPart>) {
        let mut unread = Vec::new();
        let mut arguments = Vec::new();
        let mut canonical = Vec::new();
        // After a `*spread` no position is known.
        let parameters = match args.iter().any(|a| matches!(a, Value::Starred(_))) {
            true => &[][..],
            false => crate::frameworks::arguments::positional(callable),
        };
        let named = args
            .iter()
            .enumerate()
            .map(|(i, v)| match parameters.get(i) {
                Some(param) => (param.to_string(), v),
                None => (format!("#{i}"), v),
            })
            .chain(
                keywords
                    .iter()
                    .map(|(k, v)| (k.as_deref().unwrap_or("**").to_string(), v)),
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
        let digest = (!arguments.is_empty()).then(|| digest(&canonical));
        (arguments, digest, unread)
    }

    /// Reads an MCP server's transport, host or command, tool filter,
    /// credential names and endpoint digest.
    pub fn mcp_server(
        &self,
        class: &str,
        transport: &str,
        args: &[Value],
        keywords: &[(Option<Text>, Value)],
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
        entries: &[(Text, &Value)],
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
                                                name: name.to_string(),
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
        keywords: &[(Option<Text>, Value)],
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
    ) -> Option<(&'static str, Vec<(Text, &'v Value)>)> {
        let Value::Call {
            callee, keywords, ..
        } = self.follow(value, 0)?
        else {
            return None;
        };
        let named = |keywords: &'v [(Option<Text>, Value)]| -> Option<Vec<(Text, &'v Value)>> {
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
        let entries: Vec<(Text, &Value)> = match value {
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
    fn entries<'v>(&'v self, value: &'v Value, hops: usize) -> Option<Vec<(Text, &'v Value)>> {
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
}

/// `**mapping` among the arguments: what it holds is not read.
fn unpacked(keywords: &[(Option<Text>, Value)]) -> Vec<UnreadPart> {
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
        reaches: None,
        gates: Vec::new(),
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
