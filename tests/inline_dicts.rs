//! An inline dict is a literal (issue 17, item 9): an ADK toolset's
//! `StdioConnectionParams(server_params={"command": …, "args": […]})` is
//! read like `StdioServerParameters(command=…, args=[…])`, its values as a
//! tool's reach reads them; a dict bound to a module-level name stays the
//! existing limit (any code may change it).

mod support;

use serde_json::Value;
use support::{compare_branches, limits, row, rows};

const HEAD: &str = "from google.adk.agents import LlmAgent\nfrom google.adk.tools.mcp_tool import McpToolset\nfrom google.adk.tools.mcp_tool.mcp_session_manager import StdioConnectionParams\nfrom mcp import StdioServerParameters\n\n";

/// The ADK agent module with `files` built from `params` (the
/// `server_params=` argument's source), after `prelude`.
fn agent(prelude: &str, params: &str) -> String {
    format!(
        "{HEAD}{prelude}files = McpToolset(\n    connection_params=StdioConnectionParams(\n        server_params={params},\n    ),\n    tool_filter=[\"read_file\"],\n)\n\nroot_agent = LlmAgent(name=\"analyst\", model=\"gemini-2.0-flash\", tools=[files])\n"
    )
}

const INLINE: &str = "{\"command\": \"my-mcp\", \"args\": [\"--root\", \"/data\"], \"env\": {\"API_TOKEN\": os.environ[\"MY_TOKEN\"]}, \"cwd\": \"/srv\"}";

fn compare(base: &str, head: &str) -> (Value, String) {
    compare_branches(
        &[("analyst/__init__.py", ""), ("analyst/agent.py", base)],
        &[("analyst/agent.py", head)],
        "analyst",
    )
}

fn files_row(doc: &Value) -> &Value {
    doc["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["tool"] == "files"))
        .unwrap_or_else(|| panic!("no row for files: {doc:#}"))
}

#[test]
fn an_inline_dict_is_read_like_stdio_server_parameters() {
    let base = agent("import os\n\n", INLINE);
    let head = agent("import os\n\n", &INLINE.replace("my-mcp", "other-mcp"));
    let (doc, text) = compare(&base, &head);
    assert_eq!(doc["comparison_status"], "compared", "{doc:#}");
    assert_eq!(rows(&doc), vec![row("analyst", "files", "changed")]);
    let files = files_row(&doc);
    assert_eq!(
        files["why"],
        "The bound object's identity changed (command, endpoint_sha256); authority direction is not established."
    );
    assert_eq!(files["before"]["object"]["command"], "my-mcp");
    assert_eq!(files["after"]["object"]["command"], "other-mcp");
    assert_eq!(files["after"]["object"]["transport"], "stdio");
    assert_eq!(
        files["after"]["object"]["credential_sources"],
        serde_json::json!([{"env_entry": "API_TOKEN", "env": ["MY_TOKEN"]}])
    );
    assert_eq!(limits(&doc, "base"), Vec::<String>::new());
    assert_eq!(limits(&doc, "head"), Vec::<String>::new());
    assert!(
        text.contains("    MCP server (McpToolset, stdio); command other-mcp; tool filter [\"read_file\"]; endpoint digest "),
        "{text}"
    );
    // The same server spelled as `StdioServerParameters(...)` is the same
    // object: no row.
    let spelled = agent(
        "import os\n\n",
        "StdioServerParameters(command=\"my-mcp\", args=[\"--root\", \"/data\"], env={\"API_TOKEN\": os.environ[\"MY_TOKEN\"]}, cwd=\"/srv\")",
    );
    let (doc, _) = compare(&base, &spelled);
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(doc["comparison_status"], "compared");
}

#[test]
fn an_unchanged_inline_dict_is_no_row_and_an_argument_moves_the_digest() {
    let base = agent("import os\n\n", INLINE);
    let (doc, _) = compare(&base, &format!("{base}\n# a comment\n"));
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(doc["comparison_status"], "compared");
    let head = agent("import os\n\n", &INLINE.replace("/data", "/home"));
    let (doc, _) = compare(&base, &head);
    assert_eq!(rows(&doc), vec![row("analyst", "files", "changed")]);
    assert_eq!(
        files_row(&doc)["why"],
        "The bound object's identity changed (endpoint_sha256); authority direction is not established."
    );
}

#[test]
fn a_module_level_dict_stays_a_limit() {
    let prelude = format!("import os\n\nPARAMS = {INLINE}\n\n");
    let base = agent(&prelude, "PARAMS");
    let head = agent(&prelude.replace("my-mcp", "other-mcp"), "PARAMS");
    let (doc, _) = compare(&base, &head);
    let limit = "Google ADK agent 'analyst' binds the MCP server 'files', whose connection is not read (StdioConnectionParams(server_params=PARAMS)); a change to it is not established.";
    // Spelled the same on both sides, the unread connection is no row.
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(limits(&doc, "base"), vec![limit.to_string()]);
    assert_eq!(limits(&doc, "head"), vec![limit.to_string()]);
    // Against an inline dict, the change is not established.
    let (doc, _) = compare(&agent("import os\n\n", INLINE), &head);
    assert_eq!(rows(&doc), vec![row("analyst", "files", "not_established")]);
    assert_eq!(limits(&doc, "head"), vec![limit.to_string()]);
    assert_eq!(limits(&doc, "base"), Vec::<String>::new());
}
