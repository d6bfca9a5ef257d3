//! End to end: tools Google ADK ships (issue 21, in part), recognised by
//! import from the table `scripts/gen-framework-exports.py` reads out of
//! the package wheels (`SHIPPED_TOOLS`): a toolset or tool class is an
//! object row identified by its class and a digest of its arguments, a
//! built-in instance a row of its own name. Before, each was "assigned a
//! value, not a function definition", a named limit.

mod support;

use serde_json::Value;
use support::{assert_compared, compare_branches, row, rows};

const TOOLS: &str = "def lookup(q: str) -> str:\n    return q\n";

fn agent(imports: &str, before: &str, tools: &str) -> String {
    format!(
        "from google.adk.agents import Agent\n{imports}from .tools import lookup\n\n{before}root_agent = Agent(name=\"support\", model=\"m\", instruction=\"Help.\", tools=[{tools}])\n"
    )
}

fn compare(base: &str, head: &str) -> Value {
    compare_in(TOOLS, base, head)
}

/// `app/` holding `tools` and `agent.py` (`base` on main, `head` on the
/// branch), compared with `--scope app`.
fn compare_in(tools: &str, base: &str, head: &str) -> Value {
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", tools),
            ("app/agent.py", base),
        ],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

const BIGQUERY: &str = "from google.adk.tools.bigquery import BigQueryToolset\n";

#[test]
fn an_added_toolset_is_an_added_object_row() {
    let base = agent(BIGQUERY, "", "lookup");
    let head = agent(
        BIGQUERY,
        "bigquery_toolset = BigQueryToolset(tool_filter=[\"execute_sql\"])\n\n",
        "lookup, bigquery_toolset",
    );
    let doc = compare(&base, &head);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("support", "bigquery_toolset", "added")]
    );
    let object = &doc["rows"][0]["after"]["object"];
    assert_eq!(object["class"], "BigQueryToolset");
    assert_eq!(object["arguments"], serde_json::json!(["tool_filter"]));
}

#[test]
fn a_changed_toolset_filter_is_a_changed_row() {
    let base = agent(
        BIGQUERY,
        "bigquery_toolset = BigQueryToolset(tool_filter=[\"execute_sql\"])\n\n",
        "lookup, bigquery_toolset",
    );
    let head = base.replace("[\"execute_sql\"]", "[\"execute_sql\", \"list_tables\"]");
    let doc = compare(&base, &head);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("support", "bigquery_toolset", "changed")]
    );
}

/// A wrapper's identity is what it wraps: another library's tool class.
/// Two different wrapped tools are a removal and an addition (issue 39,
/// item 3), never one `changed` row that names neither.
#[test]
fn a_wrappers_changed_target_is_a_removal_and_an_addition() {
    let imports = "from google.adk.tools.langchain_tool import LangchainTool\nfrom langchain_community.tools import TavilySearchResults, DuckDuckGoSearchRun\n";
    let base = agent(
        imports,
        "",
        "lookup, LangchainTool(tool=TavilySearchResults())",
    );
    let head = base.replace("TavilySearchResults())", "DuckDuckGoSearchRun())");
    let doc = compare(&base, &head);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "LangchainTool(DuckDuckGoSearchRun)", "added"),
            row("support", "LangchainTool(TavilySearchResults)", "removed")
        ]
    );
}

#[test]
fn a_removed_built_in_is_a_removed_row() {
    let imports = "from google.adk.tools import load_artifacts, url_context\n";
    let base = agent(imports, "", "lookup, load_artifacts, url_context");
    let head = agent(imports, "", "lookup, url_context");
    let doc = compare(&base, &head);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("support", "load_artifacts_tool", "removed")]
    );
}

const SDK_TOOLS: &str = "from agents import function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n";

fn compare_sdk(base: &str, head: &str) -> Value {
    compare_in(SDK_TOOLS, base, head)
}

/// Every member of the SDK's `Tool` type but the function tool is a
/// hosted tool (`ShellTool`, `ApplyPatchTool`, `ToolSearchTool`…), and an
/// extension's tool factory (`codex_tool(...)`) is read the same way.
#[test]
fn sdk_tools_beyond_the_first_four_are_hosted_rows() {
    let base = "from agents import Agent, ToolSearchTool\nfrom agents.extensions.experimental.codex import codex_tool\nfrom .tools import lookup\n\nsupport = Agent(name=\"support\", tools=[lookup, codex_tool(name=\"codex\")])\n";
    let head = base.replace(
        "codex_tool(name=\"codex\")",
        "codex_tool(name=\"codex_review\"), ToolSearchTool()",
    );
    let doc = compare_sdk(base, &head);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "ToolSearchTool", "added"),
            row("support", "codex_tool", "changed"),
        ]
    );
}

/// What a shipped tool reaches is named in its object evidence where its
/// arguments are literals: the module its class is imported from, each
/// resource an argument spells (a constant followed), a URL or an OpenAPI
/// spec's server by its host only. Evidence, never compared.
#[test]
fn a_shipped_tools_literal_resources_are_its_evidence() {
    let imports = "from google.adk.tools import VertexAiSearchTool\nfrom google.adk.tools.openapi_tool.openapi_spec_parser.openapi_toolset import OpenAPIToolset\n";
    let before = "DATASTORE_ID = \"projects/acme/locations/global/collections/default_collection/dataStores/faq\"\nSPEC = \"\"\"\nopenapi: 3.0.0\nservers:\n  - url: https://petstore.example.com/v1?key=abc\npaths: {}\n\"\"\"\npetstore = OpenAPIToolset(spec_str=SPEC, spec_str_type=\"yaml\")\n\n";
    let base = agent(imports, "", "lookup");
    let head = agent(
        imports,
        before,
        "lookup, VertexAiSearchTool(data_store_id=DATASTORE_ID), petstore",
    );
    let (doc, text) = support::compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/agent.py", &base),
        ],
        &[("app/agent.py", &head)],
        "app",
    );
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "VertexAiSearchTool", "added"),
            row("support", "petstore", "added"),
        ]
    );
    assert_eq!(
        doc["rows"][0]["after"]["object_evidence"]["reaches"],
        serde_json::json!({
            "module": "google.adk.tools",
            "targets": [{"argument": "data_store_id", "value": "projects/acme/locations/global/collections/default_collection/dataStores/faq"}],
        })
    );
    assert_eq!(
        doc["rows"][1]["after"]["object_evidence"]["reaches"],
        serde_json::json!({
            "module": "google.adk.tools.openapi_tool.openapi_spec_parser.openapi_toolset",
            "targets": [{"argument": "spec_str", "value": "petstore.example.com"}],
        })
    );
    assert!(
        text.contains("reaches: google.adk.tools (data_store_id 'projects/acme/locations/global/collections/default_collection/dataStores/faq')"),
        "{text}"
    );
}
