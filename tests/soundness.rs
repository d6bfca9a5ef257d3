//! End to end: "No false row, no silent hide" (issue 39). Each test is one
//! shape that printed a false row or hid a change, and the edges where its
//! rule does not hold; rows and statuses are asserted exactly.
//!
//! Where the reference (1.2.0) differs, the spec decides and the test says
//! so: the reference compares a `handoff()`'s description and a filter's
//! text, ignores `as_tool`'s positional name, and prints no row for an
//! unresolved member.

mod support;

use serde_json::Value;
use support::{assert_compared, compare_app, compare_branches, limits, row, rows, Place, Repo};

const SDK_TOOLS: &str = r#"from agents import function_tool


@function_tool
def a(x: str) -> str:
    return x


@function_tool
def b(x: str) -> str:
    return x


@function_tool
def c(x: str) -> str:
    return x
"#;

/// `app/tools.py` holding `SDK_TOOLS`, `app/agent.py` holding `base` on
/// main and `head` on the branch, compared with `--scope app`.
fn with_tools(base: &str, head: &str) -> Value {
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/agent.py", base),
        ],
        &[("app/agent.py", head)],
        "app",
    )
    .0
}

fn change_of(doc: &Value, index: usize) -> (&str, &str) {
    let row = &doc["rows"][index];
    (
        row["change"].as_str().unwrap_or_default(),
        row["candidate_change"].as_str().unwrap_or_default(),
    )
}

/// Item 4: a `handoff()`'s description tells the model about it and is
/// not part of it; its name is.
#[test]
fn a_handoffs_description_is_not_part_of_it() {
    let agents = |options: &str| {
        format!(
            "from agents import Agent, handoff\n\nbilling = Agent(name=\"billing\")\ntriage = Agent(name=\"triage\", handoffs=[handoff(billing{options})])\n"
        )
    };
    let base = agents(", tool_description_override=\"Send billing questions\"");
    let (doc, _) = compare_app(&base, &agents(", tool_description_override=\"Invoices\""));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    // Adding or removing only a description is no change either.
    let (doc, _) = compare_app(&base, &agents(""));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    // The name the model sees is part of it.
    let (doc, _) = compare_app(&base, &agents(", tool_name_override=\"to_billing\""));
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:billing", "changed")]
    );
}

/// Item 5: `as_tool(tool_name, tool_description, …)` read by the SDK's
/// signature, positional or keyword; an argument the signature cannot
/// place is a limit, never a row under a name the model does not see.
#[test]
fn as_tool_arguments_are_read_by_the_sdks_signature() {
    let manager = |tools: &str| {
        format!(
            "from agents import Agent\n\nresearcher = Agent(name=\"researcher\")\nmanager = Agent(name=\"manager\", tools=[{tools}])\n"
        )
    };
    let (doc, _) = compare_app(
        &manager(""),
        &manager("researcher.as_tool(\"search_for_information\", \"Searches the topics\")"),
    );
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("manager", "search_for_information", "added")]
    );
    // Positional and keyword spellings are one tool.
    let (doc, _) = compare_app(
        &manager("researcher.as_tool(\"search\", \"Searches\")"),
        &manager("researcher.as_tool(tool_name=\"search\", tool_description=\"Searches\")"),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    // `*args` could carry the name: the member is named, not established.
    let (doc, _) = compare_app(&manager(""), &manager("researcher.as_tool(*ARGS)"));
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![row("manager", "researcher.as_tool()", "not_established")]
    );
    assert_eq!(change_of(&doc, 0), ("not_established", "added"));
}

/// Item 5, `handoff(agent, tool_name_override, …)`: a positional option is
/// the option it binds.
#[test]
fn handoff_arguments_are_read_by_the_sdks_signature() {
    let agents = |member: &str| {
        format!(
            "from agents import Agent, handoff\n\nbilling = Agent(name=\"billing\")\ntriage = Agent(name=\"triage\", handoffs=[{member}])\n"
        )
    };
    let (doc, _) = compare_app(
        &agents("handoff(billing, \"to_billing\")"),
        &agents("handoff(agent=billing, tool_name_override=\"to_billing\")"),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    let (doc, _) = compare_app(
        &agents("handoff(billing, \"to_billing\")"),
        &agents("handoff(billing, \"billing_desk\")"),
    );
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:billing", "changed")]
    );
}

/// Item 8: a listed member the reader cannot resolve keeps its row: its
/// addition or removal is `not_established`, never silence.
#[test]
fn an_unresolved_member_still_has_a_row() {
    let base = r#"from agents import Agent, function_tool


def make_tool(name):
    return globals()[name]


@function_tool
def a(x: str) -> str:
    return x


b = make_tool("a")
bot = Agent(name="bot", tools=[a, b])
"#;
    let head = base.replace("tools=[a, b]", "tools=[a]");
    let (doc, _) = compare_app(base, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![row("bot", "b", "not_established")]);
    assert_eq!(change_of(&doc, 0), ("not_established", "removed"));
    assert!(doc["rows"][0]["uncertainty"]["base"][0]
        .as_str()
        .is_some_and(|r| r.contains("binds unresolved tool 'b'")));
    // Added: the mirror image.
    let (doc, _) = compare_app(&head, base);
    assert_eq!(change_of(&doc, 0), ("not_established", "added"));
    // Unresolved on both sides and still listed: no row (the limit stays).
    let (doc, _) = compare_app(base, &format!("{base}\n# edited\n"));
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(doc["comparison_status"], "partial");
}

/// Item 8 for handoffs: a handoff to an agent the reader cannot identify.
#[test]
fn an_unresolved_handoff_still_has_a_row() {
    let base = "from agents import Agent\nfrom elsewhere import billing\n\ntriage = Agent(name=\"triage\", handoffs=[])\n";
    let head = base.replace("handoffs=[]", "handoffs=[billing]");
    let (doc, _) = compare_app(base, &head);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:?:billing", "not_established")]
    );
    assert_eq!(change_of(&doc, 0), ("not_established", "added"));
}

/// Item 6: a change made through a parameter can reach any agent a caller
/// passes: a limit on every agent of the scope, so removing `b` from the
/// literal list is not established (`attach` still adds it).
#[test]
fn a_change_through_a_parameter_is_a_limit_on_every_agent() {
    let attach = "from app.tools import b\n\n\ndef attach(agent):\n    agent.tools.append(b)\n";
    let agent = "from agents import Agent\nfrom app.tools import a, b\nfrom app.attach import attach\n\nbot = Agent(name=\"bot\", tools=[a, b])\nattach(bot)\n";
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/attach.py", attach),
            ("app/agent.py", agent),
        ],
        &[("app/agent.py", &agent.replace("tools=[a, b]", "tools=[a]"))],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![row("bot", "b", "not_established")]);
    assert_eq!(change_of(&doc, 0), ("not_established", "removed"));
    // Edge: a change to a module-level object that is not a parameter
    // stays a limit on its own file only; the agent file's rows stand.
    let other = "class Box:\n    tools = []\n\n\nbox = Box()\nbox.tools.append(1)\n";
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/other.py", other),
            (
                "app/agent.py",
                "from agents import Agent\nfrom app.tools import a, b\n\nbot = Agent(name=\"bot\", tools=[a, b])\n",
            ),
        ],
        &[(
            "app/agent.py",
            "from agents import Agent\nfrom app.tools import a, b\n\nbot = Agent(name=\"bot\", tools=[a])\n",
        )],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("bot", "b", "removed")]);
}

/// Item 7: `load_agent().clone(tools=[…])` in one chain binds exactly the
/// tools it passes, whatever the original holds; what it inherits (its
/// handoffs and MCP servers) is a limit on those fields. Since an MCP
/// server's row shares a tool's key, a tool's addition is a
/// `not_established` row naming it, never a silent `compared`.
#[test]
fn a_copy_of_a_calls_result_reads_what_it_passes() {
    let loader =
        "from agents import Agent\n\n\ndef load_agent():\n    return Agent(name=\"base\")\n";
    let agent = "from agents import function_tool\nfrom app.loader import load_agent\nfrom app.tools import a, b\n\nsupport = load_agent().clone(name=\"support\", tools=[a])\n";
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/loader.py", loader),
            ("app/agent.py", agent),
        ],
        &[("app/agent.py", &agent.replace("tools=[a]", "tools=[a, b]"))],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![row("support", "b", "not_established")]);
    assert_eq!(change_of(&doc, 0), ("not_established", "added"));
    assert_eq!(
        limits(&doc, "head"),
        vec![
            "OpenAI Agents SDK agent 'support' at agent.py:5 is a copy of what a call returns; the handoffs it inherits from that original are not read.",
            "OpenAI Agents SDK agent 'support' at agent.py:5 is a copy of what a call returns; the mcp_servers it inherits from that original are not read.",
        ]
    );
    // In a module that does not import the SDK the copy is not read as an
    // agent, and is named.
    let unread = agent.replace("from agents import function_tool\n", "");
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/loader.py", loader),
            ("app/agent.py", &unread),
        ],
        &[("app/agent.py", &unread.replace("tools=[a]", "tools=[a, b]"))],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    let head = limits(&doc, "head");
    assert!(
        head.iter()
            .any(|l| l == "An agent copy at agent.py:4 (of what a call returns) is not read; the agent it makes and its tools, handoffs or MCP servers are not established."),
        "{head:?}"
    );
    // Edge: a clone of a call's result passing no capabilities copies only
    // what the original holds, which the original's reader reads.
    let plain = agent.replace(", tools=[a]", "");
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/loader.py", loader),
            ("app/agent.py", &plain),
        ],
        &[("app/agent.py", &format!("{plain}# edited\n"))],
        "app",
    );
    assert_eq!(limits(&doc, "head"), Vec::<String>::new());
}

/// Item 3: a wrapper object is identified by what it wraps: two different
/// wrapped tools are a removal and an addition; one the reader cannot name
/// is a limit, never `compared`.
#[test]
fn a_wrapper_is_identified_by_what_it_wraps() {
    let agent = |wrapped: &str| {
        format!(
            "from google.adk.agents import Agent\nfrom google.adk.tools.langchain_tool import LangchainTool\nfrom langchain_community.tools import WikipediaQueryRun, ShellTool\n\nTOOLS = [ShellTool()]\nroot_agent = Agent(name=\"root\", model=\"gemini-2.0-flash\", tools=[LangchainTool({wrapped})])\n"
        )
    };
    let (doc, _) = compare_app(
        &agent("tool=WikipediaQueryRun()"),
        &agent("tool=ShellTool()"),
    );
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![
            row("root", "LangchainTool(ShellTool)", "added"),
            row("root", "LangchainTool(WikipediaQueryRun)", "removed"),
        ]
    );
    // The same wrapped tool spelled positionally is no change.
    let (doc, _) = compare_app(&agent("tool=ShellTool()"), &agent("ShellTool()"));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    // A wrapped value the reader cannot name: partial, with the member's
    // row not established.
    let (doc, _) = compare_app(&agent("tool=WikipediaQueryRun()"), &agent("tool=TOOLS[0]"));
    assert_eq!(doc["comparison_status"], "partial");
    assert!(rows(&doc).contains(&row(
        "root",
        "LangchainTool(WikipediaQueryRun)",
        "not_established"
    )));
}

/// Item 2: a filter over literal names is evaluated: the same names spelled
/// another way are no change, and a changed set changes exactly the
/// members whose membership changed.
#[test]
fn a_literal_name_filter_is_evaluated() {
    let agent = |names: &str| {
        format!(
            "from agents import Agent\nfrom app.tools import a, b, c\n\nALL = [a, b, c]\nbot = Agent(name=\"bot\", tools=[t for t in ALL if t.name in {names}])\n"
        )
    };
    for same in ["(\"b\", \"a\")", "[\"a\", \"b\", \"a\"]", "{\"b\", \"a\"}"] {
        let doc = with_tools(&agent("{\"a\", \"b\"}"), &agent(same));
        assert_compared(&doc);
        assert_eq!(rows(&doc), vec![], "{same}");
    }
    let doc = with_tools(&agent("{\"a\", \"b\"}"), &agent("{\"a\", \"c\"}"));
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("bot", "b", "removed"), row("bot", "c", "added")]
    );
    // `not in` and `==` are literal filters too.
    let negated = agent("{\"c\"}").replace(" in {", " not in {");
    let doc = with_tools(&agent("{\"a\", \"b\"}"), &negated);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
}

/// Item 2, the edge: a filter that cannot be evaluated keeps "held only
/// when the filter keeps it", and a change in its text is not established,
/// never `changed`.
#[test]
fn a_filter_that_cannot_be_evaluated_is_not_established_when_edited() {
    let agent = |test: &str| {
        format!(
            "from agents import Agent\nfrom app.tools import a, b\n\n\ndef allowed(t):\n    return True\n\n\nALL = [a, b]\nbot = Agent(name=\"bot\", tools=[t for t in ALL if {test}])\n"
        )
    };
    let doc = with_tools(&agent("allowed(t)"), &agent("allowed(t) and t"));
    assert_eq!(
        rows(&doc),
        vec![
            row("bot", "a", "not_established"),
            row("bot", "b", "not_established")
        ]
    );
    assert_eq!(change_of(&doc, 0), ("not_established", "changed"));
}

/// Item 9: `from .tools import lookup` runs `app/__init__.py` first, as
/// `import app.tools` does: a change to the package's `__init__.py` is
/// related to the agent, never "touches no agent".
#[test]
fn a_relative_import_relates_the_packages_init() {
    let tools = "from agents import function_tool\n\n\n@function_tool\ndef lookup(x: str) -> str:\n    return x\n";
    let agent = "from agents import Agent\nfrom .tools import lookup\n\nbot = Agent(name=\"bot\", tools=[lookup])\n";
    let init = "from agents import function_tool\nfrom . import tools\n\n\n@function_tool\ndef other(x: str) -> str:\n    return x + \"!\"\n\n\ntools.lookup = other\n";
    let repo = Repo::new();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/tools.py", Some(tools)),
            ("app/agent.py", Some(agent)),
        ],
        "base",
    );
    repo.git(&["checkout", "-q", "-b", "head"]);
    repo.commit(&[("app/__init__.py", Some(init))], "head");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--base", "main", "--head", "head"]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(doc["scope_selection"]["scopes"], serde_json::json!(["app"]));
    assert_eq!(rows(&doc), vec![row("bot", "lookup", "not_established")]);
}

/// Item 5 for MCP servers: `MCPServerStdio(params, cache_tools_list, name)`
/// names the server positionally as by keyword, so one server spelled both
/// ways is no change (before, the positional name was ignored and the row
/// took the variable's name: a removal and an addition).
#[test]
fn an_mcp_servers_positional_name_is_its_name() {
    let agent = |server: &str| {
        format!(
            "from agents import Agent\nfrom agents.mcp import MCPServerStdio\n\nfiles = {server}\nbot = Agent(name=\"bot\", mcp_servers=[files])\n"
        )
    };
    let (doc, _) = compare_app(
        &agent("MCPServerStdio({\"command\": \"npx\", \"args\": [\"fs\"]}, True, \"fs\")"),
        &agent("MCPServerStdio(params={\"command\": \"npx\", \"args\": [\"fs\"]}, cache_tools_list=True, name=\"fs\")"),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    let (doc, _) = compare_app(
        &agent("MCPServerStdio({\"command\": \"npx\", \"args\": [\"fs\"]}, True, \"fs\")"),
        &agent("MCPServerStdio({\"command\": \"npx\", \"args\": [\"fs\"]}, True, \"files\")"),
    );
    assert_eq!(
        rows(&doc),
        vec![row("bot", "files", "added"), row("bot", "fs", "removed")]
    );
}

/// Item 2 through a call: a filter on a parameter is evaluated only when
/// the call passes literal names and the function never rebinds the
/// parameter; a rebound one stays a condition, its change not established.
#[test]
fn a_filter_on_a_parameter_is_evaluated_only_as_the_call_passes_it() {
    let agent = |body: &str, names: &str| {
        format!(
            "from agents import Agent\nfrom app.tools import a, b, c\n\n\ndef pick(tools, names):\n{body}    return [t for t in tools if t.name in names]\n\n\nbot = Agent(name=\"bot\", tools=pick([a, b, c], {names}))\n"
        )
    };
    let doc = with_tools(&agent("", "[\"a\"]"), &agent("", "(\"b\", \"a\")"));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("bot", "b", "added")]);
    let rebinds = "    names = list(names) + [\"c\"]\n";
    let doc = with_tools(
        &agent(rebinds, "[\"a\"]"),
        &agent(rebinds, "(\"b\", \"a\")"),
    );
    assert_eq!(
        rows(&doc),
        vec![
            row("bot", "a", "not_established"),
            row("bot", "b", "not_established"),
            row("bot", "c", "not_established")
        ]
    );
}

/// Found by the known-truth generator: the SDK's default
/// `tool_use_behavior="run_llm_again"` spelled out is the default, never a
/// settings change on every binding of the agent.
#[test]
fn the_sdks_default_spelled_out_is_no_change() {
    let agent = |setting: &str| {
        format!(
            "from agents import Agent\nfrom app.tools import a\n\nbot = Agent(name=\"bot\", tools=[a]{setting})\n"
        )
    };
    let doc = with_tools(&agent(""), &agent(", tool_use_behavior=\"run_llm_again\""));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    let doc = with_tools(
        &agent(""),
        &agent(", tool_use_behavior=\"stop_on_first_tool\""),
    );
    assert_eq!(rows(&doc), vec![row("bot", "a", "changed")]);
}

/// Found by the known-truth generator: an ADK module's own change after
/// construction (`root.sub_agents.append(other)`) is named, never silence.
#[test]
fn an_adk_agents_sub_agents_changed_after_construction_are_named() {
    let agent = "from google.adk.agents import Agent\n\nhelper = Agent(name=\"helper\", model=\"m\", instruction=\"i\")\nother = Agent(name=\"other\", model=\"m\", instruction=\"i\")\nroot_agent = Agent(name=\"root\", model=\"m\", instruction=\"i\", sub_agents=[helper])\nroot_agent.sub_agents.append(other)\n";
    let (doc, _) = compare_app(
        agent,
        &agent.replace("root_agent.sub_agents.append(other)\n", ""),
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "base"),
        vec!["Google ADK agent 'root' at agent.py:5 has its sub_agents changed after construction at agent.py:6 (.append()); its binding graph is incomplete."]
    );
}

/// Found by the known-truth generator: another module's change to an
/// agent a builder returns (`x = build_x()` there, `x.tools.append(b)`
/// here) is a limit on every agent, not on the changing module alone, so
/// moving `b` into the builder is no false `added`.
#[test]
fn a_change_to_an_imported_object_is_a_limit_on_every_agent() {
    let agents = |tools: &str| {
        format!(
            "from agents import Agent\nfrom app.tools import a, b\n\n\ndef build_bot():\n    return Agent(name=\"bot\", tools=[{tools}])\n\n\nbot = build_bot()\n"
        )
    };
    let wiring = "from app.agent import bot\nfrom app.tools import b\n\nbot.tools.append(b)\n";
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", SDK_TOOLS),
            ("app/agent.py", &agents("a")),
            ("app/wiring.py", wiring),
        ],
        &[("app/agent.py", &agents("a, b")), ("app/wiring.py", "")],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![row("bot", "b", "not_established")]);
}

/// Item 1: a side not read never yields `removed` or `added`. At the base
/// the wrapper class is read as one agent per instance; at the head its
/// `__init__` stores `self.tools` only under a test, so the class is not
/// read per instance and the agent is unread there: every base tool is
/// `not_established` (candidate `removed`), never `removed`. (The issue's
/// own example, a method that also passes `model=self.cfg.model_name`, is
/// read per instance since issue 41: a keyword that carries no binding
/// never blocks the class.)
#[test]
fn a_side_not_read_never_yields_removed() {
    let wrapper = |store: &str, tools: &str| {
        format!(
            "from agents import Agent\nfrom app.tools import a, b\n\n\nclass CustomAgent:\n    def __init__(self, cfg, name, tools=None):\n        self.cfg = cfg\n        self.name = name\n{store}\n\n    def build(self):\n        return Agent(name=self.name, instructions=\"Help.\", model=self.cfg.model_name, tools=self.tools)\n\n\nsearch = CustomAgent(None, name=\"Search Agent\", tools={tools})\n"
        )
    };
    let plain_store = "        self.tools = tools or []";
    let tested_store = "        if cfg is None:\n            self.tools = tools or []";
    let base = wrapper(plain_store, "[a, b]");
    // The model keyword alone: read per instance, nothing changed.
    let doc = with_tools(&base, &format!("{base}\n# edited\n"));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    let doc = with_tools(&base, &wrapper(tested_store, "[a, b]"));
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![
            row("Search Agent", "a", "not_established"),
            row("Search Agent", "b", "not_established"),
        ]
    );
    assert_eq!(change_of(&doc, 0), ("not_established", "removed"));
    assert_eq!(change_of(&doc, 1), ("not_established", "removed"));
    // A plain agent at the base, moved into an unread class method at the
    // head: the same.
    let plain = "from agents import Agent\nfrom app.tools import a, b\n\nsupport = Agent(name=\"Support\", instructions=\"Help.\", tools=[a, b])\n";
    let class = "from agents import Agent\nfrom app.tools import a, b\n\n\nclass Assistant:\n    def __init__(self, config, name, tools):\n        self.config = config\n        self.name = name\n        if config is None:\n            self.tools = tools\n\n    def build(self):\n        return Agent(name=self.name, instructions=\"Help.\", model=self.config.model_name, tools=self.tools)\n\n\nassistant = Assistant(None, \"Support\", [a, b])\n";
    let doc = with_tools(plain, class);
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "a", "not_established"),
            row("support", "b", "not_established"),
        ]
    );
    assert_eq!(change_of(&doc, 0), ("not_established", "removed"));
    // Unread in the field concerned only: the tools come from a call the
    // reader does not follow.
    let unread_field = "from agents import Agent\nfrom elsewhere import load_tools\n\nsupport = Agent(name=\"Support\", instructions=\"Help.\", tools=load_tools())\n";
    let doc = with_tools(plain, unread_field);
    assert_eq!(
        rows(&doc),
        vec![
            row("support", "a", "not_established"),
            row("support", "b", "not_established"),
        ]
    );
    assert_eq!(change_of(&doc, 1), ("not_established", "removed"));
    // Edge: read per instance on both sides, a true removal is `removed`.
    let doc = with_tools(&base, &wrapper(plain_store, "[a]"));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("Search Agent", "b", "removed")]);
}

/// A module-level name bound to a call is not a same-named agent held in
/// another function's local (found by hand with the generator's shapes):
/// `editor = make_other()` at module level hands off to `Other`, not to
/// `setup()`'s local `editor`, so removing it is never an established row
/// of the wrong agent.
#[test]
fn a_module_name_is_not_a_functions_same_named_local_agent() {
    let base = "from agents import Agent\n\n\ndef setup():\n    editor = Agent(name=\"Editor\", instructions=\"x\")\n    print(editor)\n\n\ndef make_other():\n    return Agent(name=\"Other\", instructions=\"x\")\n\n\neditor = make_other()\ntriage = Agent(name=\"Triage\", instructions=\"y\", handoffs=[editor])\n";
    let head = base.replace("handoffs=[editor]", "handoffs=[]");
    let (doc, _) = compare_app(base, &head);
    assert!(
        rows(&doc)
            .iter()
            .all(|(_, tool, change)| change != "removed" || tool != "handoff:agent.py:editor"),
        "{:?}",
        rows(&doc)
    );
    assert_ne!(doc["comparison_status"], "compared");
}

/// Found by the known-truth generator: a repository class deriving from
/// ADK's `BaseAgent` runs code of its own (`_run_async_impl`), so what a
/// construction of it binds is not read; it is named, never silence. The
/// writer it delegates to changes here, and the answer is not `compared`.
/// (A class whose code runs nothing is read since issue 41:
/// `tests/agent_classes/custom_agents.rs`; this one runs its sub-agents.)
#[test]
fn an_adk_base_agent_subclass_is_named() {
    let agent = |tools: &str| {
        format!("from google.adk.agents import Agent, BaseAgent\nfrom google.adk.tools import google_search\n\n\nclass FlowAgent(BaseAgent):\n    async def _run_async_impl(self, ctx):\n        for agent in self.sub_agents:\n            async for event in agent.run_async(ctx):\n                yield event\n\n\nwriter = Agent(name=\"writer\", model=\"m\", instruction=\"i\", tools=[{tools}])\nroot_agent = FlowAgent(name=\"Flow\", sub_agents=[writer])\n")
    };
    let (doc, _) = compare_app(&agent(""), &agent("google_search"));
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent class 'FlowAgent' at agent.py:5 derives from an agent class; agents built from it are not read. It is not read as its base class: 'FlowAgent' (agent.py:5): its code spells 'sub_agents'."]
    );
}
