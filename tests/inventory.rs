//! End to end: `shipgate-client inventory` (issue 43) lists every agent of
//! every application in a commit, what each binds (tools, handoffs,
//! sub-agents, MCP servers, hosted tools), what each tool reaches, its
//! gates and what could not be read, in text, JSON, markdown and
//! CycloneDX 1.6 (validated against the official schema by
//! cyclonedx-python-lib when `SHIPGATE_TEST_PYTHON` has it).

mod support;

use serde_json::Value;
use support::{Daemon, Place, Repo};

const SHOP: &str = "import os
import httpx
from agents import Agent, WebSearchTool, function_tool
from agents.mcp import MCPServerStreamableHttp


@function_tool(needs_approval=True)
def refund(order_id: str) -> str:
    headers = {\"Authorization\": f\"Bearer {os.environ['SHOP_TOKEN']}\"}
    return httpx.post(f\"https://api.shop.example/refunds/{order_id}\", headers=headers).text


docs = MCPServerStreamableHttp(params={\"url\": \"https://mcp.shop.example/mcp\"})

billing = Agent(name=\"billing\", tools=[refund], mcp_servers=[docs])
triage = Agent(name=\"triage\", tools=[WebSearchTool()], handoffs=[billing])
";

const DESK: &str = "from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool


def search(query: str) -> str:
    return query


def lookup(ticket: str) -> str:
    return ticket


helper = LlmAgent(name=\"helper\", model=\"gemini-2.0-flash\", tools=[FunctionTool(func=search)])
root_agent = LlmAgent(name=\"desk\", model=\"gemini-2.0-flash\", sub_agents=[helper], tools=[lookup])
";

/// Two applications, an SDK shop and an ADK desk.
fn repository() -> Repo {
    let repo = Repo::new();
    repo.commit(
        &[
            ("shop/__init__.py", Some("")),
            ("shop/agent.py", Some(SHOP)),
            ("desk/__init__.py", Some("")),
            ("desk/agent.py", Some(DESK)),
        ],
        "two applications",
    );
    repo
}

fn inventory(place: &Place, repo: &Repo, extra: &[&str]) -> (i32, String, String) {
    let workspace = repo.path().to_string_lossy().into_owned();
    let mut args = vec!["inventory", "--workspace", workspace.as_str()];
    args.extend_from_slice(extra);
    let output = place.client(&args);
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn json(place: &Place, repo: &Repo, extra: &[&str]) -> Value {
    let mut args = extra.to_vec();
    args.extend(["--format", "json"]);
    let (code, stdout, stderr) = inventory(place, repo, &args);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).expect("the inventory document parses")
}

/// `(agent, kind, names)` for every kind an agent binds something of.
fn bound(doc: &Value) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    for agent in doc["agents"].as_array().into_iter().flatten() {
        for kind in [
            "tools",
            "handoffs",
            "sub_agents",
            "mcp_servers",
            "hosted_tools",
            "agent_tools",
            "not_read",
        ] {
            let names: Vec<String> = agent[kind]
                .as_array()
                .into_iter()
                .flatten()
                .map(|b| {
                    b.get("tool")
                        .or_else(|| b.get("member"))
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string()
                })
                .collect();
            if !names.is_empty() {
                out.push((
                    agent["agent"].as_str().unwrap_or_default().to_string(),
                    kind.to_string(),
                    names,
                ));
            }
        }
    }
    out
}

fn entry(agent: &str, kind: &str, names: &[&str]) -> (String, String, Vec<String>) {
    (
        agent.to_string(),
        kind.to_string(),
        names.iter().map(|n| n.to_string()).collect(),
    )
}

#[test]
fn every_agent_of_every_application_is_listed_with_what_it_binds() {
    let repo = repository();
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let doc = json(&place, &repo, &[]);
    assert_eq!(doc["inventory_schema_version"], "0.1");
    assert_eq!(doc["status"], "complete", "{doc:#}");
    assert_eq!(doc["applications"], serde_json::json!(["desk", "shop"]));
    assert_eq!(doc["commit"]["requested_ref"], "HEAD");
    assert_eq!(
        doc["commit"]["commit"],
        repo.git(&["rev-parse", "HEAD"]).as_str()
    );
    assert_eq!(
        doc["counts"],
        serde_json::json!({"agents": 4, "tools": 3, "handoffs": 1, "sub_agents": 1, "mcp_servers": 1, "hosted_tools": 1, "agent_tools": 0, "not_read": 0})
    );
    assert_eq!(
        bound(&doc),
        vec![
            entry("desk", "tools", &["lookup"]),
            entry("desk", "sub_agents", &["helper"]),
            entry("helper", "tools", &["search"]),
            entry("billing", "tools", &["refund"]),
            entry("billing", "mcp_servers", &["docs"]),
            entry("triage", "handoffs", &["billing"]),
            entry("triage", "hosted_tools", &["WebSearchTool"]),
        ]
    );
    let identity: Vec<(&str, &str, &str, &str)> = doc["agents"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| {
            (
                a["agent"].as_str().unwrap_or_default(),
                a["agent_source"].as_str().unwrap_or_default(),
                a["location"].as_str().unwrap_or_default(),
                a["framework"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        identity,
        vec![
            ("desk", "desk/agent.py", "desk/agent.py:14", "google_adk"),
            ("helper", "desk/agent.py", "desk/agent.py:13", "google_adk"),
            (
                "billing",
                "shop/agent.py",
                "shop/agent.py:15",
                "openai_agents_sdk"
            ),
            (
                "triage",
                "shop/agent.py",
                "shop/agent.py:16",
                "openai_agents_sdk"
            ),
        ]
    );
    // A tool is the binding as a diff's side shows it: its gate, what it
    // reaches and with which credential.
    let refund = &doc["agents"][2]["tools"][0];
    assert_eq!(refund["signature"], "refund(order_id) -> str");
    assert_eq!(
        refund["gates"],
        serde_json::json!([{"gate": "needs_approval", "spelled": "True", "value": "True"}])
    );
    let call = &refund["reach"]["calls"][0];
    assert_eq!(
        (&call["method"], &call["url"], &call["effect"]),
        (
            &serde_json::json!("POST"),
            &serde_json::json!("https://api.shop.example/refunds/{order_id}"),
            &serde_json::json!("write")
        )
    );
    assert_eq!(
        call["credential_sources"][0]["env"],
        serde_json::json!(["SHOP_TOKEN"])
    );
    let docs = &doc["agents"][2]["mcp_servers"][0]["object"];
    assert_eq!(
        (&docs["kind"], &docs["host"]),
        (
            &serde_json::json!("mcp_server"),
            &serde_json::json!("mcp.shop.example")
        )
    );
    assert_eq!(doc["limits"], serde_json::json!([]));

    // One application, and an older commit.
    let shop = json(&place, &repo, &["--scope", "shop"]);
    assert_eq!(shop["applications"], serde_json::json!(["shop"]));
    let agents: Vec<&str> = shop["agents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["agent"].as_str())
        .collect();
    assert_eq!(agents, vec!["billing", "triage"]);
    repo.commit(
        &[(
            "desk/agent.py",
            Some(&DESK.replace("tools=[lookup]", "tools=[lookup, search]")),
        )],
        "desk searches too",
    );
    let now = json(&place, &repo, &["--scope", "desk"]);
    let before = json(&place, &repo, &["--scope", "desk", "--at", "HEAD~1"]);
    assert_eq!(
        bound(&now)[0],
        entry("desk", "tools", &["lookup", "search"])
    );
    assert_eq!(bound(&before)[0], entry("desk", "tools", &["lookup"]));
    assert_eq!(before["commit"]["requested_ref"], "HEAD~1");
}

#[test]
fn the_text_names_each_binding_as_a_diff_does() {
    let repo = repository();
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let (code, text, stderr) = inventory(&place, &repo, &[]);
    assert_eq!(code, 0, "{stderr}");
    let head = repo.git(&["rev-parse", "HEAD"]);
    let expected = format!(
        "Agent inventory: complete ({}, HEAD)
applications: desk, shop
4 agents: 3 tools, 1 handoff, 1 sub-agent, 1 MCP server, 1 hosted tool

desk (desk/agent.py:14, google_adk)
  tool: lookup(ticket) -> str at desk/agent.py:14
    implementation: desk/agent.py:9 (758ea411b81f)
  sub-agent: helper at desk/agent.py:14

helper (desk/agent.py:13, google_adk)
  tool: search(query) -> str at desk/agent.py:13
    implementation: desk/agent.py:5 (1438a284e253)

billing (shop/agent.py:15, openai_agents_sdk)
  tool: refund(order_id) -> str at shop/agent.py:15
    implementation: shop/agent.py:8 (908703860f3d)
    gates: needs_approval True
    reaches: POST https://api.shop.example/refunds/{{order_id}} at shop/agent.py:10
      model-supplied: order_id → url
      credential: env SHOP_TOKEN → header Authorization
    effect: write (structural evidence: outbound call at shop/agent.py:10)
  MCP server: docs at shop/agent.py:15
    MCP server (MCPServerStreamableHttp, streamable_http); host mcp.shop.example; endpoint digest cf388bd197e4 at shop/agent.py:13

triage (shop/agent.py:16, openai_agents_sdk)
  handoff: billing at shop/agent.py:16
  hosted tool: WebSearchTool at shop/agent.py:16
    hosted tool (WebSearchTool) at shop/agent.py:16
      reaches: agents
",
        &head[..12]
    );
    assert_eq!(text, expected);

    // What is not read is named on its agent, and the answer is partial.
    repo.commit(
        &[(
            "shop/agent.py",
            Some(&SHOP.replace("tools=[refund]", "tools=[refund, *plugins()]")),
        )],
        "plugins",
    );
    let (_, text, _) = inventory(&place, &repo, &["--scope", "shop"]);
    assert!(text.starts_with("Agent inventory: partial ("), "{text}");
    assert!(
        text.contains("  limit: OpenAI Agents SDK agent 'billing' at agent.py:15 has a tools list it reads only in part; its binding graph is incomplete. Not read: a call to `plugins`, whose result is not read (agent.py:15).\n"),
        "{text}"
    );
    let (code, _, stderr) = inventory(&place, &repo, &["--at", "no-such-ref"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("no-such-ref does not name a commit in this repository."),
        "{stderr}"
    );
}

#[test]
fn markdown_tabulates_the_agents_and_escapes_what_the_repository_names() {
    let repo = repository();
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let (code, markdown, stderr) = inventory(&place, &repo, &["--format", "markdown"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        markdown.starts_with("## Agent inventory: complete (`"),
        "{markdown}"
    );
    assert!(markdown.contains(
        "| agent | built at | framework | tools | handoffs | sub-agents | MCP servers | hosted tools | agents as tools | not read |\n"
    ));
    assert!(markdown.contains(
        "| `triage` | `shop/agent.py:16` | openai\\_agents\\_sdk |  | `billing` |  |  | `WebSearchTool` |  |  |\n"
    ), "{markdown}");
    assert!(markdown.contains("<details><summary>billing (shop/agent.py:15)</summary>\n\n```text\ntool: refund(order_id) -> str at shop/agent.py:15\n"), "{markdown}");
}

#[test]
fn cyclonedx_is_a_valid_1_6_bom_of_agents_tools_and_their_relations() {
    let repo = repository();
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let (code, bom_text, stderr) = inventory(&place, &repo, &["--format", "cyclonedx"]);
    assert_eq!(code, 0, "{stderr}");
    let (_, again, _) = inventory(&place, &repo, &["--format", "cyclonedx"]);
    assert_eq!(bom_text, again, "the same commit is the same BOM");
    let bom: Value = serde_json::from_str(&bom_text).expect("the BOM parses");
    assert_eq!(bom["bomFormat"], "CycloneDX");
    assert_eq!(bom["specVersion"], "1.6");
    let components: Vec<(&str, &str)> = bom["components"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["type"].as_str().unwrap_or_default(),
                c["name"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        components,
        vec![
            ("library", "lookup"),
            ("application", "desk"),
            ("library", "search"),
            ("application", "helper"),
            ("library", "refund"),
            ("application", "billing"),
            ("application", "triage"),
        ]
    );
    let services: Vec<(&str, &Value)> = bom["services"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| (s["name"].as_str().unwrap_or_default(), &s["endpoints"]))
        .collect();
    assert_eq!(
        services,
        vec![
            ("docs", &serde_json::json!(["mcp.shop.example"])),
            ("WebSearchTool", &Value::Null)
        ]
    );
    let depends = |reference: &str| -> Vec<String> {
        bom["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|d| d["ref"] == reference)
            .map(|d| {
                d["dependsOn"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        depends("agent:shop/agent.py:triage"),
        vec![
            "hosted_tools:agent:shop/agent.py:triage:WebSearchTool:shop/agent.py:16",
            "agent:shop/agent.py:billing",
        ]
    );
    assert_eq!(
        depends("agent:desk/agent.py:desk"),
        vec![
            "tool:agent:desk/agent.py:desk:lookup:desk/agent.py:14",
            "agent:desk/agent.py:helper",
        ]
    );
    let refund_properties = &bom["components"][4]["properties"];
    for expected in [
        serde_json::json!({"name": "shipgate:gate", "value": "needs_approval True"}),
        serde_json::json!({"name": "shipgate:reaches", "value": "POST https://api.shop.example/refunds/{order_id}"}),
        serde_json::json!({"name": "shipgate:credential_env", "value": "SHOP_TOKEN"}),
        serde_json::json!({"name": "shipgate:effect", "value": "write"}),
    ] {
        assert!(
            refund_properties
                .as_array()
                .is_some_and(|p| p.contains(&expected)),
            "{expected} not in {refund_properties:#}"
        );
    }

    // The official schema, through the CycloneDX project's own library.
    let Some(python) = std::env::var_os("SHIPGATE_TEST_PYTHON").filter(|v| !v.is_empty()) else {
        eprintln!(
            "skipped the schema check: SHIPGATE_TEST_PYTHON is not set (scripts/test.sh sets it)"
        );
        return;
    };
    let file = place.dir.path().join("bom.json");
    std::fs::write(&file, &bom_text).expect("write the BOM");
    let output = std::process::Command::new(python)
        .args([
            "-c",
            "import sys\nfrom cyclonedx.schema import SchemaVersion\nfrom cyclonedx.validation.json import JsonStrictValidator\nerror = JsonStrictValidator(SchemaVersion.V1_6).validate_str(open(sys.argv[1]).read())\nprint('valid' if error is None else error)\nsys.exit(error is not None)",
        ])
        .arg(&file)
        .output()
        .expect("python runs");
    let said = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if stderr.contains("ModuleNotFoundError") {
        panic!("cyclonedx-python-lib is missing from SHIPGATE_TEST_PYTHON: {stderr}");
    }
    assert!(output.status.success(), "{said}\n{stderr}");
    assert_eq!(said.trim(), "valid");
}

#[test]
fn the_daemons_own_inventory_prints_the_same_document() {
    let repo = repository();
    let place = Place::new();
    let (daemon, _) = support::binaries();
    let output = std::process::Command::new(daemon)
        .args(["inventory", "--format", "json", "--data-dir"])
        .arg(place.data_dir())
        .arg("--workspace")
        .arg(repo.path())
        .output()
        .expect("the daemon runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let one_shot: Value = serde_json::from_slice(&output.stdout).expect("the document parses");
    let _daemon: Daemon = place.start_daemon();
    let served = json(&place, &repo, &[]);
    assert_eq!(one_shot["agents"], served["agents"]);
    assert_eq!(one_shot["counts"], served["counts"]);
    assert_eq!(one_shot["status"], "complete");
}
