//! End to end: framework identity follows the package (issue 17, item 4).
//! A name is the OpenAI Agents SDK's or Google ADK's at every module path
//! the package's releases define or re-export it at, and by the aliases the
//! package itself exports (`agents.decorators.tool` is `function_tool`):
//! the table `daemon/src/frameworks/exports.rs`, read from the wheels by
//! `scripts/gen-framework-exports.py`. A spelling no release exports, and a
//! package the repository holds itself, stay what they were.

mod support;

use serde_json::Value;
use support::{compare_branches, limits, row, rows};

/// An SDK module importing `imports`, decorating `lookup` and `refund` with
/// `decorator`, and binding `tools` to the agent `support` built by `agent`.
fn sdk_module(imports: &str, decorator: &str, agent: &str, tools: &str) -> String {
    format!(
        "{imports}\n\n{decorator}\ndef lookup(q: str) -> str:\n    return q\n\n\n{decorator}\ndef refund(q: str) -> str:\n    return q\n\n\nsupport = {agent}(name=\"support\", tools=[{tools}])\n"
    )
}

/// `app/agent.py` binding `lookup` on main and `lookup, refund` on head,
/// with `extra` files on both sides, compared with `--scope app`.
fn compare_sdk(imports: &str, decorator: &str, agent: &str, extra: &[(&str, &str)]) -> Value {
    let base_agent = sdk_module(imports, decorator, agent, "lookup");
    let head_agent = sdk_module(imports, decorator, agent, "lookup, refund");
    let mut base = vec![
        ("app/__init__.py", ""),
        ("app/agent.py", base_agent.as_str()),
    ];
    base.extend_from_slice(extra);
    compare_branches(&base, &[("app/agent.py", head_agent.as_str())], "app").0
}

/// The one row the head's change gives: `refund` added to `support`, with
/// nothing left unread.
fn assert_refund_added(doc: &Value) {
    assert_eq!(doc["comparison_status"], "compared", "{doc:#}");
    assert_eq!(
        rows(doc),
        vec![row("support", "refund", "added")],
        "{doc:#}"
    );
    assert_eq!(limits(doc, "head"), Vec::<String>::new());
}

#[test]
fn sdk_submodule_spellings_are_the_sdk() {
    let doc = compare_sdk(
        "from agents.agent import Agent\nfrom agents.tool import function_tool",
        "@function_tool",
        "Agent",
        &[],
    );
    assert_refund_added(&doc);
    assert_eq!(doc["head"]["agents"][0]["name"], "support");
}

/// `agents/decorators.py` of openai-agents 0.24.0: `tool = function_tool`
/// (not exported from `agents` itself). The SDK's own examples use it.
#[test]
fn the_sdk_tool_alias_is_function_tool() {
    let doc = compare_sdk(
        "from agents import Agent\nfrom agents.decorators import tool",
        "@tool",
        "Agent",
        &[],
    );
    assert_refund_added(&doc);
    let doc = compare_sdk(
        "from agents import Agent\nfrom agents.decorators import tool",
        "@tool()",
        "Agent",
        &[],
    );
    assert_refund_added(&doc);
}

#[test]
fn attribute_chains_through_submodules_are_the_sdk() {
    let doc = compare_sdk(
        "import agents.agent\nimport agents.decorators",
        "@agents.decorators.tool",
        "agents.agent.Agent",
        &[],
    );
    assert_refund_added(&doc);
}

/// `agents.tool` defines `function_tool` but no `tool`: a spelling no
/// release exports is not the SDK's, whatever its name.
#[test]
fn a_spelling_the_sdk_does_not_export_is_not_the_sdk() {
    let doc = compare_sdk(
        "from agents.agent import Agent\nfrom agents.tool import tool",
        "@tool",
        "Agent",
        &[],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec![
            "OpenAI Agents SDK agent 'support' at agent.py:14 binds unresolved tool 'lookup'. Not resolved because it resolves to 'lookup' at agent.py:5, which is not decorated with the SDK's @function_tool.",
            "OpenAI Agents SDK agent 'support' at agent.py:14 binds unresolved tool 'refund'. Not resolved because it resolves to 'refund' at agent.py:10, which is not decorated with the SDK's @function_tool.",
        ]
    );
}

const ADK_HEAD: &str = "from google.adk.agents.llm_agent import Agent as Root, LlmAgent\nfrom google.adk.tools.function_tool import FunctionTool\n\n\ndef lookup(order_id: str) -> dict:\n    \"\"\"Look up an order.\"\"\"\n    return {\"id\": order_id}\n\n\ndef refund(order_id: str) -> str:\n    \"\"\"Refund an order.\"\"\"\n    return \"ok\"\n\n\nhelper = Root(name=\"helper\", model=\"gemini-2.0-flash\", tools=[lookup])\n";

fn adk_module(tools: &str) -> String {
    format!("{ADK_HEAD}root_agent = LlmAgent(name=\"support\", model=\"gemini-2.0-flash\", instruction=\"Help.\", tools=[{tools}])\n")
}

/// `LlmAgent` and its alias `Agent` from `google.adk.agents.llm_agent`, and
/// `FunctionTool` from its defining module, are ADK's.
#[test]
fn adk_submodule_spellings_are_adk() {
    let base = adk_module("lookup");
    let head = adk_module("lookup, FunctionTool(func=refund)");
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &base)],
        &[("app/agent.py", &head)],
        "app",
    );
    assert_refund_added(&doc);
    let agents: Vec<&str> = doc["head"]["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter_map(|a| a["name"].as_str())
        .collect();
    assert_eq!(agents, vec!["helper", "support"]);
}

/// A vendored `google/adk` package is the repository's own code, however
/// deep the module path spelled.
#[test]
fn a_vendored_google_package_is_not_adk_at_any_depth() {
    let head = adk_module("lookup, FunctionTool(func=refund)");
    let (doc, _) = compare_branches(
        &[],
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", &head),
            ("google/__init__.py", ""),
            ("google/adk/__init__.py", ""),
            ("google/adk/agents/__init__.py", ""),
            (
                "google/adk/agents/llm_agent.py",
                "class LlmAgent:\n    pass\n\n\nAgent = LlmAgent\n",
            ),
            ("google/adk/tools/__init__.py", ""),
            (
                "google/adk/tools/function_tool.py",
                "class FunctionTool:\n    pass\n",
            ),
        ],
        "app",
    );
    assert_eq!(doc["head"]["agents"], serde_json::json!([]), "{doc:#}");
    assert!(
        limits(&doc, "head").iter().any(|l| l
            == "The repository holds its own google package, so google.adk imports there are not read as Google ADK."),
        "{doc:#}"
    );
}

/// Issue 40, item 9: framework names the repository re-exports. `from
/// .lib import Agent, function_tool`, where `app/lib/__init__.py` binds
/// them once by `from agents import …` and never rebinds them, are the
/// SDK's (the same for ADK's `from google.adk.agents import Agent`). The
/// edges keep them the repository's: a rebinding, a conditional import, a
/// store of the attribute, a class of its own.
#[test]
fn framework_names_the_repository_re_exports_are_the_frameworks() {
    let imports = "from .lib import Agent, function_tool";
    for lib in [
        "from agents import Agent, function_tool\n",
        "from agents import function_tool\nfrom agents.agent import Agent\n\n__all__ = [\"Agent\", \"function_tool\"]\n",
    ] {
        let doc = compare_sdk(imports, "@function_tool", "Agent", &[("app/lib/__init__.py", lib)]);
        assert_refund_added(&doc);
    }
    // Without `--scope`: the importing module is an agent file, so the
    // derived scope holds it.
    let repo = support::Repo::new();
    let lib = "from agents import Agent, function_tool\n";
    let base_agent = sdk_module(imports, "@function_tool", "Agent", "lookup");
    let head_agent = sdk_module(imports, "@function_tool", "Agent", "lookup, refund");
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/lib/__init__.py", Some(lib)),
            ("app/agent.py", Some(&base_agent)),
        ],
        "base",
    );
    repo.git(&["checkout", "-q", "-b", "head"]);
    repo.commit(&[("app/agent.py", Some(&head_agent))], "head");
    let place = support::Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--base", "main", "--head", "head"]);
    assert_refund_added(&doc);

    let adk = "from google.adk.agents import Agent\n";
    let adk_agent = |tools: &str| {
        format!("from .lib import Agent\n\n\ndef lookup(q: str) -> str:\n    return q\n\n\ndef refund(q: str) -> str:\n    return q\n\n\nsupport = Agent(name=\"support\", model=\"gemini-2.0-flash\", tools=[{tools}])\n")
    };
    let doc = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/lib/__init__.py", adk),
            ("app/agent.py", &adk_agent("lookup")),
        ],
        &[("app/agent.py", &adk_agent("lookup, refund"))],
        "app",
    )
    .0;
    assert_refund_added(&doc);

    for (why, lib, extra) in [
        (
            "rebound",
            "from agents import Agent, function_tool\n\nAgent = dict\n",
            None,
        ),
        (
            "conditional",
            "try:\n    from agents import Agent, function_tool\nexcept ImportError:\n    Agent = function_tool = None\n",
            None,
        ),
        (
            "stored",
            "from agents import Agent, function_tool\n",
            Some(("app/patch.py", "from . import lib\n\nlib.Agent = dict\n")),
        ),
        (
            "its own class",
            "from agents import function_tool\n\n\nclass Agent:\n    def __init__(self, **kwargs):\n        self.kwargs = kwargs\n",
            None,
        ),
    ] {
        let mut extra_files = vec![("app/lib/__init__.py", lib)];
        extra_files.extend(extra);
        let doc = compare_sdk(imports, "@function_tool", "Agent", &extra_files);
        assert_ne!(doc["comparison_status"], "compared", "{why}: {doc:#}");
        assert!(
            !rows(&doc).iter().any(|r| r.2 == "added"),
            "{why}: {:?}",
            rows(&doc)
        );
    }
}
