//! End to end: capabilities bound as objects (spec "Tools bound as
//! objects", schema 0.4 `object`): MCP servers, hosted tools and agents as
//! tools are rows identified by what they are, and an agent's
//! `tool_use_behavior`/`tool_choice` are facts on its rows.
//!
//! The reference (agents-shipgate 1.2.0) reads none of this: any object in
//! `tools=` makes the whole list "a dynamic tools expression", so on the
//! first fixture below it answers `partial` with `support → lookup`
//! `not_established` and no row for the server or the hosted tool. We
//! follow the spec.

mod support;

use serde_json::{json, Value};
use support::{compare_branches, rows};

const BASE: &str = "import os\nfrom agents import Agent, ModelSettings, WebSearchTool, function_tool\nfrom agents.mcp import MCPServerStdio, MCPServerStreamableHttp, create_static_tool_filter\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n";

const SEARCH: &str = "search = MCPServerStreamableHttp(\n    name=\"search\",\n    params={\"url\": os.getenv(\"SEARCH_URL\", \"https://search.example.com/mcp?v=1\"), \"headers\": {\"Authorization\": f\"Bearer {os.environ['SEARCH_KEY']}\", \"X-Client\": \"bot\"}},\n    tool_filter=create_static_tool_filter(allowed_tool_names=[\"web_search\"]),\n)\n";

/// `base` and `head` (files besides `app/__init__.py`) compared with
/// `--scope app`: the JSON and the text.
fn compare(base: &[(&str, &str)], head: &[(&str, &str)]) -> (Value, String) {
    let mut base = base.to_vec();
    base.push(("app/__init__.py", ""));
    compare_branches(&base, head, "app")
}

fn agent(body: &str) -> String {
    format!("{BASE}{body}")
}

fn row<'d>(doc: &'d Value, tool: &str) -> &'d Value {
    doc["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["tool"] == tool))
        .unwrap_or_else(|| panic!("no row for {tool}: {doc:#}"))
}

#[test]
fn an_mcp_server_is_a_row_with_its_identity_and_credentials_by_name() {
    let base = agent("support = Agent(name=\"support\", tools=[lookup])\n");
    let head = agent(&format!(
        "{SEARCH}support = Agent(name=\"support\", tools=[lookup], mcp_servers=[search])\n"
    ));
    let (doc, text) = compare(&[("app/agent.py", &base)], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "search".into(), "added".into())]
    );
    let after = &row(&doc, "search")["after"];
    assert_eq!(after["edge_type"], "toolset");
    assert_eq!(after["binding_location"], "app/agent.py:16");
    let object = &after["object"];
    assert_eq!(object["kind"], "mcp_server");
    assert_eq!(object["class"], "MCPServerStreamableHttp");
    assert_eq!(object["transport"], "streamable_http");
    assert_eq!(object["host"], "env SEARCH_URL or search.example.com");
    assert_eq!(
        object["tool_filter"],
        json!({"allowed": ["web_search"], "blocked": null})
    );
    assert_eq!(
        object["credential_sources"],
        json!([{"header": "Authorization", "env": ["SEARCH_KEY"]}])
    );
    assert_eq!(object["endpoint_sha256"].as_str().map(str::len), Some(64));
    assert_eq!(after["object_evidence"]["built_at"], "app/agent.py:11");
    // A URL's path and query are never printed, only digested.
    assert!(!text.contains("/mcp?v=1"), "{text}");
    assert!(
        text.contains("    MCP server (MCPServerStreamableHttp, streamable_http); host env SEARCH_URL or search.example.com; tool filter [\"web_search\"]; endpoint digest "),
        "{text}"
    );
    assert!(
        text.contains("      credential: env SEARCH_KEY → header Authorization\n"),
        "{text}"
    );
}

#[test]
fn a_changed_filter_is_a_changed_row_and_a_path_only_moves_the_digest() {
    let bind = "support = Agent(name=\"support\", tools=[lookup], mcp_servers=[search])\n";
    let base = agent(&format!("{SEARCH}{bind}"));
    let filtered = agent(&format!(
        "{}{bind}",
        SEARCH.replace("[\"web_search\"]", "[\"web_search\", \"web_fetch\"]")
    ));
    let (doc, text) = compare(&[("app/agent.py", &base)], &[("app/agent.py", &filtered)]);
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "search".into(), "changed".into())]
    );
    assert_eq!(
        row(&doc, "search")["why"],
        // The widened filter is a loosened gate, named first (issue 22).
        "What guards the call changed (tool_filter allowed [\"web_search\"] → allowed [\"web_fetch\", \"web_search\"] (loosened)); the bound object's identity changed (tool_filter); authority direction is not established."
    );
    assert!(
        text.contains("tool filter [\"web_fetch\", \"web_search\"]"),
        "{text}"
    );
    let path = agent(&format!("{}{bind}", SEARCH.replace("/mcp?v=1", "/mcp?v=2")));
    let (doc, _) = compare(&[("app/agent.py", &base)], &[("app/agent.py", &path)]);
    assert_eq!(
        row(&doc, "search")["why"],
        "The bound object's identity changed (endpoint_sha256); authority direction is not established."
    );
    assert_eq!(
        row(&doc, "search")["after"]["object"]["host"],
        "env SEARCH_URL or search.example.com"
    );
}

#[test]
fn moving_where_a_server_is_built_is_not_a_change() {
    let base = agent(&format!(
        "{SEARCH}support = Agent(name=\"support\", tools=[lookup], mcp_servers=[search])\n"
    ));
    let servers = format!(
        "import os\nfrom agents.mcp import MCPServerStreamableHttp, create_static_tool_filter\n\n{SEARCH}"
    );
    let head = agent(
        "from .servers import search\n\nsupport = Agent(name=\"support\", tools=[lookup], mcp_servers=[search])\n",
    );
    let (doc, _) = compare(
        &[("app/agent.py", &base)],
        &[("app/agent.py", &head), ("app/servers.py", &servers)],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
}

#[test]
fn a_server_bound_by_async_with_in_a_function_is_read() {
    let base = agent("");
    let head = agent(
        "async def main():\n    async with MCPServerStdio(params={\"command\": \"/usr/local/bin/npx\", \"args\": [\"-y\", \"gh-server\"], \"env\": {\"GITHUB_TOKEN\": os.environ[\"GH_TOKEN\"], \"LOG\": \"debug\"}}) as github:\n        dev = Agent(name=\"dev\", mcp_servers=[github])\n",
    );
    let (doc, text) = compare(&[("app/agent.py", &base)], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![("dev".into(), "github".into(), "added".into())]
    );
    let object = &row(&doc, "github")["after"]["object"];
    assert_eq!(object["transport"], "stdio");
    assert_eq!(object["command"], "npx");
    assert_eq!(
        object["credential_sources"],
        json!([{"env_entry": "GITHUB_TOKEN", "env": ["GH_TOKEN"]}])
    );
    assert!(
        text.contains("      credential: env GH_TOKEN → env entry GITHUB_TOKEN\n"),
        "{text}"
    );
}

#[test]
fn a_part_not_read_keeps_presence_but_a_change_is_not_established() {
    let server = |filter: &str| {
        agent(&format!(
            "from .config import build_url\n\nsearch = MCPServerStreamableHttp(name=\"search\", params={{\"url\": build_url()}}, tool_filter={filter})\nsupport = Agent(name=\"support\", tools=[lookup], mcp_servers=[search])\n"
        ))
    };
    let config = "def build_url():\n    return 'https://x.example.com'\n";
    // Added: the binding is established even though its host is not read.
    let (doc, text) = compare(
        &[(
            "app/agent.py",
            &agent("support = Agent(name=\"support\", tools=[lookup])\n"),
        )],
        &[("app/agent.py", &server("None")), ("app/config.py", config)],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "search".into(), "added".into())]
    );
    assert_eq!(
        doc["head"]["limits"],
        json!(["OpenAI Agents SDK agent 'support' at agent.py:14 binds the MCP server 'search', whose host is not read (build_url()); a change to it is not established."])
    );
    assert!(
        text.contains("      not read: host (build_url())\n"),
        "{text}"
    );
    // Unchanged, spelled the same: no row.
    let base = [
        ("app/agent.py", server("None")),
        ("app/config.py", config.to_string()),
    ];
    let base: Vec<(&str, &str)> = base.iter().map(|(p, c)| (*p, c.as_str())).collect();
    let (doc, _) = compare(&base, &[("app/agent.py", &server("None"))]);
    assert_eq!(rows(&doc), vec![]);
    // Changed where an unread part may explain it (the filter itself is
    // not read on the head): never `changed`.
    let (doc, _) = compare(&base, &[("app/agent.py", &server("pick()"))]);
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "search".into(), "not_established".into())]
    );
    assert_eq!(row(&doc, "search")["candidate_change"], "changed");
    // Changed in a part read whole on both sides (issue 40, item 10): the
    // filter is a literal and no unread part feeds it, so the server
    // changed, whatever its host holds; the host stays a limit.
    let filtered = server("create_static_tool_filter(allowed_tool_names=[\"web_search\"])");
    let (doc, _) = compare(&base, &[("app/agent.py", &filtered)]);
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "search".into(), "changed".into())]
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        support::limits(&doc, "head")
            .iter()
            .any(|l| l.contains("whose host is not read (build_url())")),
        "{:#?}",
        support::limits(&doc, "head")
    );
    // The same for a hosted tool given a new argument beside one not read.
    let hosted = |extra: &str| {
        agent(&format!(
            "from agents import FileSearchTool\nfrom .config import STORE_IDS\n\nsupport = Agent(name=\"support\", tools=[FileSearchTool(vector_store_ids=[STORE_IDS[0]]{extra})])\n"
        ))
    };
    let config_store = "STORE_IDS = ['vs_1']\n";
    let base_hosted = hosted("");
    let (doc, _) = compare(
        &[
            ("app/agent.py", &base_hosted),
            ("app/config.py", config_store),
        ],
        &[("app/agent.py", &hosted(", max_num_results=3"))],
    );
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "FileSearchTool".into(), "changed".into())]
    );
    // A change to an argument beside the unread one stays a candidate:
    // one digest covers the arguments, and the unread one feeds it.
    let (doc, _) = compare(
        &[
            ("app/agent.py", &hosted(", max_num_results=3")),
            ("app/config.py", config_store),
        ],
        &[("app/agent.py", &hosted(", max_num_results=5"))],
    );
    assert_eq!(
        rows(&doc),
        vec![(
            "support".into(),
            "FileSearchTool".into(),
            "not_established".into()
        )]
    );
}

#[test]
fn a_server_changed_after_it_is_built_is_named() {
    let head = agent(&format!(
        "{SEARCH}search.tool_filter = None\nsupport = Agent(name=\"support\", tools=[lookup], mcp_servers=[search])\n"
    ));
    let (doc, _) = compare(
        &[(
            "app/agent.py",
            &agent("support = Agent(name=\"support\", tools=[lookup])\n"),
        )],
        &[("app/agent.py", &head)],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        row(&doc, "search")["after"]["object_evidence"]["not_read"],
        json!([{"part": "state after it is built", "spelled": "search.tool_filter assignment at agent.py:16"}])
    );
}

#[test]
fn an_mcp_servers_member_that_is_not_a_server_is_named_on_the_agent() {
    let head = agent(
        "from .servers import make_server\n\nsupport = Agent(name=\"support\", tools=[lookup], mcp_servers=[make_server()])\n",
    );
    let (doc, _) = compare(
        &[(
            "app/agent.py",
            &agent("support = Agent(name=\"support\", tools=[lookup])\n"),
        )],
        &[
            ("app/agent.py", &head),
            ("app/servers.py", "def make_server():\n    return None\n"),
        ],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        doc["head"]["limits"],
        json!(["OpenAI Agents SDK agent 'support' at agent.py:13 lists 'make_server()' in mcp_servers=, which is not an MCP server this reader identifies; its binding graph is incomplete."])
    );
    // lookup is bound on both sides; the unread member is a member all the
    // same, added and not established (issue 39, item 8).
    assert_eq!(
        rows(&doc),
        vec![support::row("support", "make_server()", "not_established")]
    );
    assert_eq!(doc["rows"][0]["candidate_change"], "added");
}

#[test]
fn hosted_tools_and_agents_as_tools_are_rows() {
    let base = agent(
        "billing = Agent(name=\"Billing agent\")\nsupport = Agent(name=\"support\", tools=[lookup, billing.as_tool(tool_name=\"ask_billing\", tool_description=\"Ask billing\")])\n",
    );
    let head = agent(
        "billing = Agent(name=\"Billing agent\")\nsupport = Agent(name=\"support\", tools=[lookup, WebSearchTool(search_context_size=\"high\"), billing.as_tool(tool_name=\"ask_billing\", tool_description=\"Ask the billing team\"), billing.as_tool()])\n",
    );
    let (doc, text) = compare(&[("app/agent.py", &base)], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    // A description is what the model is told, not what the tool is: the
    // re-described `ask_billing` is no row. Without tool_name= the SDK
    // names the tool after the agent's name.
    assert_eq!(
        rows(&doc),
        vec![
            ("support".into(), "WebSearchTool".into(), "added".into()),
            ("support".into(), "billing_agent".into(), "added".into()),
        ]
    );
    assert_eq!(
        row(&doc, "billing_agent")["after"]["object"],
        json!({"kind": "agent_tool", "class": "as_tool", "agent": "billing", "agent_source": "app/agent.py", "tool_name": "billing_agent"})
    );
    let hosted = &row(&doc, "WebSearchTool")["after"]["object"];
    assert_eq!(hosted["kind"], "hosted_tool");
    assert_eq!(hosted["arguments"], json!(["search_context_size"]));
    assert!(
        text.contains("    agent as a tool (billing at app/agent.py, tool name billing_agent) at app/agent.py:12\n"),
        "{text}"
    );
    assert!(
        text.contains("    hosted tool (WebSearchTool; arguments search_context_size; digest "),
        "{text}"
    );
}

#[test]
fn a_hosted_tools_arguments_are_part_of_it() {
    let bind = |size: &str| {
        agent(&format!(
            "support = Agent(name=\"support\", tools=[lookup, WebSearchTool(search_context_size={size})])\n"
        ))
    };
    let (doc, _) = compare(
        &[("app/agent.py", &bind("\"low\""))],
        &[("app/agent.py", &bind("\"high\""))],
    );
    assert_eq!(
        row(&doc, "WebSearchTool")["why"],
        "The bound object's identity changed (arguments_sha256); authority direction is not established."
    );
    // A constant is followed to its value: re-spelling is not a change.
    let constant = agent(
        "SIZE = \"low\"\nsupport = Agent(name=\"support\", tools=[lookup, WebSearchTool(search_context_size=SIZE)])\n",
    );
    let (doc, _) = compare(
        &[("app/agent.py", &bind("\"low\""))],
        &[("app/agent.py", &constant)],
    );
    assert_eq!(rows(&doc), vec![]);
}

/// A library's nested constructor is its spelling and literal arguments
/// (`datetime.timedelta(days=1)`); a repository function's call is what
/// its code makes of them, so its spelling is not its value: the argument
/// is named unread, and a change to the function's body is never silence.
#[test]
fn a_hosted_tools_argument_a_repository_function_makes_is_read_by_its_code() {
    // A repository function is known by its own code, as a function
    // tool's implementation digest is (contract §3.1; issue 21): a changed
    // body is a changed argument.
    let bind = |host: &str| {
        agent(&format!(
            "def make_location(city):\n    return {{\"type\": \"approximate\", \"city\": city, \"host\": \"{host}\"}}\n\n\nsupport = Agent(name=\"support\", tools=[lookup, WebSearchTool(user_location=make_location(\"Paris\"))])\n"
        ))
    };
    let (doc, _) = compare(
        &[("app/agent.py", &bind("a.example.com"))],
        &[("app/agent.py", &bind("b.example.com"))],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        row(&doc, "WebSearchTool")["why"],
        "The bound object's identity changed (arguments_sha256); authority direction is not established."
    );
    // A value a parameter passes in is not: the function's closure is
    // what each call gives it.
    let passed = |city: &str| {
        agent(&format!(
            "def build(city):\n    def make_location():\n        return {{\"city\": city}}\n    return Agent(name=\"support\", tools=[lookup, WebSearchTool(user_location=make_location())])\n\n\nsupport = build(\"{city}\")\n"
        ))
    };
    let (doc, _) = compare(
        &[("app/agent.py", &passed("Paris"))],
        &[("app/agent.py", &passed("Lyon"))],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        doc["head"]["limits"],
        json!(["OpenAI Agents SDK agent 'support' at agent.py:14 binds the hosted tool 'WebSearchTool', whose argument user_location is not read (make_location()); a change to it is not established."])
    );
    // A library's constructor is read by its spelling.
    let library = |days: &str| {
        agent(&format!(
            "import datetime\n\nsupport = Agent(name=\"support\", tools=[lookup, WebSearchTool(user_location=dict(city=\"Paris\", ttl=datetime.timedelta(days={days})))])\n"
        ))
    };
    let (doc, _) = compare(
        &[("app/agent.py", &library("1"))],
        &[("app/agent.py", &library("2"))],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        row(&doc, "WebSearchTool")["why"],
        "The bound object's identity changed (arguments_sha256); authority direction is not established."
    );
}

#[test]
fn an_agent_tool_whose_receiver_is_not_an_identified_agent_is_named() {
    let head = agent(
        "from .factory import make\n\nhelper = make()\nsupport = Agent(name=\"support\", tools=[lookup, helper.as_tool(tool_name=\"ask\")])\n",
    );
    let (doc, _) = compare(
        &[(
            "app/agent.py",
            &agent("support = Agent(name=\"support\", tools=[lookup])\n"),
        )],
        &[
            ("app/agent.py", &head),
            ("app/factory.py", "def make():\n    return None\n"),
        ],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        doc["head"]["limits"],
        json!(["OpenAI Agents SDK agent 'support' at agent.py:14 binds helper.as_tool(...), whose receiver 'helper' is not an agent this reader identifies; its binding graph is incomplete."])
    );
}

/// Spec: `agent_settings` (`tool_use_behavior`, `tool_choice`) are facts
/// on the agent's rows; a setting change alone is a changed row, and a
/// setting the reader does not recognise claims nothing.
#[test]
fn agent_settings_changes_are_changed_rows() {
    let base = agent("support = Agent(name=\"support\", tools=[lookup])\n");
    let head = agent(
        "support = Agent(name=\"support\", tools=[lookup], model_settings=ModelSettings(tool_choice=\"none\"), tool_use_behavior=\"stop_on_first_tool\")\n",
    );
    let (doc, text) = compare(&[("app/agent.py", &base)], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![("support".into(), "lookup".into(), "changed".into())]
    );
    let lookup = row(&doc, "lookup");
    assert_eq!(
        lookup["why"],
        "The agent's settings changed (tool_use_behavior unset → stop_on_first_tool; tool_choice unset → none); what it binds did not; authority direction is not established."
    );
    assert_eq!(
        lookup["after"]["agent_settings"],
        json!({"tool_use_behavior": "stop_on_first_tool", "tool_choice": "none", "tools_disallowed": true})
    );
    assert!(text.contains("    settings: tool_choice none (tools stay declared; this setting disallows their use); tool_use_behavior stop_on_first_tool\n"), "{text}");
    // An unrecognised setting is shown as such and is no change.
    let unknown = agent(
        "CHOICE = pick()\nsupport = Agent(name=\"support\", tools=[lookup], model_settings=ModelSettings(tool_choice=CHOICE))\n",
    );
    let (doc, _) = compare(&[("app/agent.py", &base)], &[("app/agent.py", &unknown)]);
    assert_eq!(rows(&doc), vec![]);
}

#[test]
fn a_clone_inherits_settings_but_not_through_a_model_override() {
    let base = agent(
        "support = Agent(name=\"support\", tools=[lookup], model_settings=ModelSettings(tool_choice=\"required\"))\n",
    );
    let head = format!(
        "{base}same = support.clone(name=\"same\")\nother = support.clone(name=\"other\", model=\"gpt-5\")\n"
    );
    let (doc, _) = compare(&[("app/agent.py", &base)], &[("app/agent.py", &head)]);
    let rows_json = doc["rows"].as_array().expect("rows");
    let settings: Vec<(&str, &Value)> = rows_json
        .iter()
        .map(|r| {
            (
                r["agent"].as_str().unwrap_or_default(),
                &r["after"]["agent_settings"],
            )
        })
        .collect();
    assert_eq!(
        settings,
        vec![
            (
                "other",
                &json!({"uncertain": [{"setting": "tool_choice", "why": "the model is overridden without model_settings"}]})
            ),
            ("same", &json!({"tool_choice": "required"})),
        ]
    );
}

#[test]
fn literal_secrets_are_never_printed() {
    let secret = "tok_live_abcdef0123456789";
    let head = agent(&format!(
        "server = MCPServerStdio(params={{\"command\": \"npx\", \"args\": [\"--key\", \"{secret}\"], \"env\": {{\"ADMIN_TOKEN\": \"{secret}\"}}}})\nops = Agent(name=\"ops\", mcp_servers=[server])\n"
    ));
    let (doc, text) = compare(&[("app/agent.py", &agent(""))], &[("app/agent.py", &head)]);
    assert_eq!(
        rows(&doc),
        vec![("ops".into(), "server".into(), "added".into())]
    );
    assert_eq!(
        row(&doc, "server")["after"]["object"]["credential_sources"],
        json!([{"env_entry": "ADMIN_TOKEN", "literal": true}])
    );
    assert!(!doc.to_string().contains(secret));
    assert!(!text.contains(secret), "{text}");
    assert!(
        text.contains("      credential: a literal (not printed) → env entry ADMIN_TOKEN\n"),
        "{text}"
    );
}

/// A path made from the module's own file, the SDK examples' shape
/// (`os.path.join(os.path.dirname(os.path.abspath(__file__)), "files")`
/// through locals of `main()`), is read: `__file__` is the module's file
/// and the `os.path` functions are a library's, so their spelling is their
/// value. Another directory is a changed server.
#[test]
fn a_server_path_made_from_the_modules_file_is_read() {
    let server = |dir: &str| {
        agent(&format!(
            "async def main():\n    here = os.path.dirname(os.path.abspath(__file__))\n    files = os.path.join(here, \"{dir}\")\n    async with MCPServerStdio(name=\"fs\", params={{\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", files], \"cwd\": files}}) as server:\n        support = Agent(name=\"support\", tools=[lookup], mcp_servers=[server])\n"
        ))
    };
    let (doc, _) = compare(
        &[("app/agent.py", &server("sample_files"))],
        &[("app/agent.py", &server("sample_files"))],
    );
    assert_eq!(
        doc["comparison_status"], "compared",
        "{:?}",
        doc["head"]["limits"]
    );
    assert_eq!(rows(&doc), vec![]);
    let (doc, _) = compare(
        &[("app/agent.py", &server("sample_files"))],
        &[("app/agent.py", &server("other_files"))],
    );
    assert_eq!(
        doc["comparison_status"], "compared",
        "{:?}",
        doc["head"]["limits"]
    );
    assert_eq!(
        rows(&doc),
        vec![(
            "support".to_string(),
            "fs".to_string(),
            "changed".to_string()
        )]
    );
}

/// Issue 40: a hosted tool's argument chosen on module-level branches
/// (adk-python's BigQuery sample, an insurance sample's API key from the
/// environment or a secret manager): each binding before the toolset is
/// built, under its tests, is the argument's value, so a change to one
/// branch is a `changed` row and nothing is left unread. A method called
/// on a client used nowhere else is that client's. The edges stay unread:
/// a binding in a loop, a client changed before the call. A rebinding
/// after the toolset is built is not its value.
#[test]
fn an_argument_chosen_on_module_level_branches_is_read() {
    let module = |branch: &str, extra: &str| {
        format!(
            "import os\n\nimport google.auth\nfrom google.adk.agents import Agent\nfrom google.adk.tools.bigquery import BigQueryCredentialsConfig, BigQueryToolset\nfrom google.adk.tools.apihub_tool.clients.secret_client import SecretManagerClient\n\nMODE = \"oauth\"\nkey = os.getenv(\"KEY\")\nif key:\n    secret = key\nelse:\n    client = SecretManagerClient()\n    secret = client.get_secret(\"projects/p/secrets/k\")\nif MODE == \"oauth\":\n    credentials_config = BigQueryCredentialsConfig(client_id=os.getenv(\"CID\"), client_secret=secret)\nelse:\n{branch}\n{extra}toolset = BigQueryToolset(credentials_config=credentials_config)\nroot = Agent(name=\"root\", model=\"gemini-2.0-flash\", tools=[toolset])\ncredentials_config = None\n"
        )
    };
    let adc = "    creds, _ = google.auth.default()\n    credentials_config = BigQueryCredentialsConfig(credentials=creds)\n";
    let from_file = "    creds, _ = google.auth.load_credentials_from_file(\"key.json\")\n    credentials_config = BigQueryCredentialsConfig(credentials=creds)\n";
    let (doc, _) = compare(
        &[("app/agent.py", &module(adc, ""))],
        &[("app/agent.py", &module(from_file, ""))],
    );
    assert_eq!(
        doc["comparison_status"],
        "compared",
        "{:#?}",
        support::limits(&doc, "head")
    );
    assert_eq!(
        rows(&doc),
        vec![("root".into(), "toolset".into(), "changed".into())]
    );
    // Unchanged: no row, nothing unread.
    let (doc, _) = compare(
        &[("app/agent.py", &module(adc, ""))],
        &[("app/agent.py", &module(adc, "MODE2 = 1\n"))],
    );
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(doc["comparison_status"], "compared");
    for (why, branch, extra) in [
        (
            "a binding in a loop",
            "    for _ in range(1):\n        credentials_config = BigQueryCredentialsConfig()\n",
            "",
        ),
        (
            "a client changed before the call",
            adc,
            "client.region = \"eu\"\n",
        ),
    ] {
        let (doc, _) = compare(
            &[("app/agent.py", &module(adc, ""))],
            &[("app/agent.py", &module(branch, extra))],
        );
        assert_eq!(doc["comparison_status"], "partial", "{why}");
        assert!(
            support::limits(&doc, "head")
                .iter()
                .any(|l| l.contains("whose argument credentials_config is not read")),
            "{why}: {:#?}",
            support::limits(&doc, "head")
        );
    }
}
