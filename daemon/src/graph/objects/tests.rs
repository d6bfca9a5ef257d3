use super::pieces::{command_name, host_of, Piece};
use super::*;
use crate::frameworks::openai;
use crate::python::extract_facts;
use crate::python::Value;
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
        params: Default::default(),
        line: None,
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
