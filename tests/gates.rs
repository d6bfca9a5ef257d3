//! End to end: gates (issue 22), what the application puts between the
//! model's call and a tool's code, as facts on a row's side (`gates`) and
//! compared. A gate added, removed, loosened or tightened is a changed row
//! whose why and `gate_changes` name it; a loosened or removed one asks
//! its own question, first in the finding; a gate the read cannot name is
//! a limit on its row.

mod support;

use serde_json::{json, Value};
use support::{assert_compared, compare_branches, limits, row, rows};

fn compare(base: &str, head: &str) -> (Value, String) {
    support::compare_app(base, head)
}

fn sdk(decorator: &str) -> String {
    format!(
        "from agents import Agent, function_tool\n\n\n@function_tool{decorator}\ndef delete_account(user_id: str) -> str:\n    return user_id\n\n\nsupport = Agent(name=\"support\", tools=[delete_account])\n"
    )
}

#[test]
fn a_loosened_approval_is_a_changed_row_that_asks_first() {
    let (doc, text) = compare(
        &sdk("(needs_approval=True)"),
        &sdk("(needs_approval=False)"),
    );
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("support", "delete_account", "changed")]
    );
    let changed = &doc["rows"][0];
    assert_eq!(
        changed["gate_changes"],
        json!([{"gate": "needs_approval", "change": "loosened", "before": "True", "after": "False", "text": "needs_approval True → False (loosened)"}])
    );
    assert_eq!(
        changed["why"],
        "What guards the call changed (needs_approval True → False (loosened)); authority direction is not established."
    );
    assert_eq!(
        changed["review_question"],
        "Should support call delete_account without approval?"
    );
    assert_eq!(
        changed["before"]["gates"],
        json!([{"gate": "needs_approval", "spelled": "True", "value": "True"}])
    );
    let finding = &doc["summary"]["findings"][0];
    assert_eq!(
        finding["questions"][0]["question"],
        "Should support call delete_account without approval?"
    );
    assert_eq!(
        finding["tools"][0]["facts"][0],
        json!({"kind": "change", "text": "gate needs_approval True → False (loosened)"})
    );
    assert!(text.contains("    gates: needs_approval True\n"), "{text}");
    assert!(
        text.contains("Review: Should support call delete_account without approval?"),
        "{text}"
    );
}

#[test]
fn an_added_approval_is_added_and_a_removed_one_asks_first() {
    let (doc, _) = compare(&sdk(""), &sdk("(needs_approval=True)"));
    assert_compared(&doc);
    assert_eq!(doc["rows"][0]["gate_changes"][0]["change"], "added");
    assert_eq!(
        doc["rows"][0]["review_question"],
        "Should support have this changed binding to delete_account? Review the before/after signature and implementation locations."
    );
    let (doc, _) = compare(&sdk("(needs_approval=True)"), &sdk(""));
    assert_eq!(doc["rows"][0]["gate_changes"][0]["change"], "removed");
    assert_eq!(
        doc["rows"][0]["gate_changes"][0]["text"],
        "needs_approval removed (was True)"
    );
    assert_eq!(
        doc["rows"][0]["review_question"],
        "Should support call delete_account without approval?"
    );
}

/// A gate given by a function is its code: a changed policy is a changed
/// gate; one the read cannot name (a call's result) is a limit on the row.
#[test]
fn a_gate_function_is_read_by_its_code_and_one_not_named_is_a_limit() {
    let policy = |body: &str| {
        format!(
            "from agents import Agent, function_tool\n\n\nasync def risky(ctx, params, call_id):\n    return {body}\n\n\n@function_tool(needs_approval=risky)\ndef delete_account(user_id: str) -> str:\n    return user_id\n\n\nsupport = Agent(name=\"support\", tools=[delete_account])\n"
        )
    };
    let (doc, _) = compare(&policy("True"), &policy("False"));
    assert_compared(&doc);
    assert_eq!(doc["rows"][0]["gate_changes"][0]["change"], "changed");
    assert_eq!(doc["rows"][0]["gate_changes"][0]["before"], "risky");
    // A module attribute is not a value the read names: spelled otherwise,
    // the gate's change is not established.
    let computed = |flag: &str| {
        format!(
            "from agents import Agent, function_tool\n\nfrom . import policy\n\n\n@function_tool(needs_approval=policy.{flag})\ndef delete_account(user_id: str) -> str:\n    return user_id\n\n\nsupport = Agent(name=\"support\", tools=[delete_account])\n"
        )
    };
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/policy.py", "STRICT = True\nLAX = False\n"),
            ("app/agent.py", &computed("STRICT")),
        ],
        &[("app/agent.py", &computed("LAX"))],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![row("support", "delete_account", "not_established")]
    );
    assert!(
        limits(&doc, "head").contains(&"OpenAI Agents SDK agent 'support' at agent.py:11 binds 'delete_account', whose needs_approval gate is not read (policy.LAX); a change to it is not established.".to_string()),
        "{:?}",
        limits(&doc, "head")
    );
}

#[test]
fn a_hosted_mcp_tools_approval_set_to_never_is_loosened() {
    let agent = |approval: &str| {
        format!(
            "from agents import Agent, HostedMCPTool\n\nsupport = Agent(name=\"support\", tools=[HostedMCPTool(tool_config={{\"type\": \"mcp\", \"server_label\": \"git\", \"server_url\": \"https://gitmcp.io/x\", \"require_approval\": {approval}}})])\n"
        )
    };
    let (doc, _) = compare(&agent("\"always\""), &agent("\"never\""));
    assert_compared(&doc);
    assert_eq!(
        doc["rows"][0]["gate_changes"][0]["text"],
        "require_approval 'always' → 'never' (loosened)"
    );
    assert_eq!(
        doc["rows"][0]["review_question"],
        "Should support call HostedMCPTool without approval?"
    );
}

fn adk(wrapper: &str, callback: &str) -> String {
    format!(
        "from google.adk.agents import Agent\nfrom google.adk.tools import FunctionTool\n\n\ndef audit(tool, args, tool_context):\n    return None\n\n\ndef refund(order: str) -> str:\n    return order\n\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"Help.\", tools=[{wrapper}]{callback})\n"
    )
}

#[test]
fn an_adk_confirmation_dropped_is_removed() {
    let (doc, _) = compare(
        &adk("FunctionTool(refund, require_confirmation=True)", ""),
        &adk("FunctionTool(refund)", ""),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "refund", "changed")]);
    assert_eq!(
        doc["rows"][0]["gate_changes"][0]["text"],
        "require_confirmation removed (was True)"
    );
    assert_eq!(
        doc["rows"][0]["review_question"],
        "Should support call refund without confirmation?"
    );
}

/// An agent's `before_tool_callback=` guards every tool it binds.
#[test]
fn an_adk_before_tool_callback_removed_is_a_change_on_each_tool() {
    let (doc, _) = compare(
        &adk("refund", ", before_tool_callback=audit"),
        &adk("refund", ""),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "refund", "changed")]);
    assert_eq!(
        doc["rows"][0]["gate_changes"][0]["text"],
        "before_tool_callback removed (was audit)"
    );
    assert_eq!(
        doc["rows"][0]["review_question"],
        "Should support call refund without its before_tool_callback check?"
    );
    // Unchanged, it is on the side and no row.
    let same = adk("refund", ", before_tool_callback=audit");
    let (doc, _) = compare(&same, &same.replace("Help.", "Help!"));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
}

/// `history --tool` shows the commit that loosened a gate, and how.
#[test]
fn history_shows_when_a_gate_changed() {
    let repo = support::Repo::new();
    let agent = |decorator: &str| sdk(decorator);
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/agent.py", Some(&agent("(needs_approval=True)"))),
        ],
        "add delete_account behind approval",
    );
    repo.commit(&[("README.md", Some("docs\n"))], "docs");
    repo.commit(
        &[("app/agent.py", Some(&agent("(needs_approval=False)")))],
        "skip approval",
    );
    let place = support::Place::new();
    let _daemon = place.start_daemon();
    let workspace = repo.path().to_string_lossy().into_owned();
    let output = place.client(&[
        "history",
        "--workspace",
        &workspace,
        "--tool",
        "delete_account",
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains(": skip approval\n  CHANGED  support → delete_account\n    gate needs_approval True → False (loosened)\n"),
        "{text}"
    );
}

/// `is_enabled=False` holds the tool back entirely; `True` lets it through.
#[test]
fn an_sdk_tool_enabled_again_is_loosened() {
    let (doc, _) = compare(&sdk("(is_enabled=False)"), &sdk("(is_enabled=True)"));
    assert_compared(&doc);
    assert_eq!(
        doc["rows"][0]["gate_changes"][0]["text"],
        "is_enabled False → True (loosened)"
    );
    assert_eq!(
        doc["rows"][0]["review_question"],
        "Should support call delete_account now that it is enabled more often?"
    );
}

/// An ADK toolset's `require_confirmation=` is a gate too: before, it was
/// not part of the toolset's identity, so dropping it was no row.
#[test]
fn an_adk_toolsets_confirmation_dropped_is_a_changed_row() {
    let agent = |confirm: &str| {
        format!(
            "from google.adk.agents import Agent\nfrom google.adk.tools.mcp_tool.mcp_toolset import McpToolset, StdioConnectionParams\nfrom mcp import StdioServerParameters\n\nfiles = McpToolset(connection_params=StdioConnectionParams(server_params=StdioServerParameters(command=\"npx\", args=[\"server-filesystem\"])){confirm})\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"Help.\", tools=[files])\n"
        )
    };
    let (doc, _) = compare(&agent(", require_confirmation=True"), &agent(""));
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "files", "changed")]);
    assert_eq!(
        doc["rows"][0]["gate_changes"][0]["text"],
        "require_confirmation removed (was True)"
    );
}

/// An agent exposed as a tool is gated by the same keywords: before, its
/// `needs_approval=` was no part of the agent tool, so dropping it was no
/// row.
#[test]
fn an_agent_tools_approval_dropped_is_a_changed_row() {
    let agent = |approval: &str| {
        format!(
            "from agents import Agent\n\nspanish = Agent(name=\"spanish\")\nsupport = Agent(name=\"support\", tools=[spanish.as_tool(tool_name=\"respond_spanish\", tool_description=\"Answer in Spanish\"{approval})])\n"
        )
    };
    let (doc, _) = compare(&agent(", needs_approval=True"), &agent(""));
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("support", "respond_spanish", "changed")]
    );
    assert_eq!(
        doc["rows"][0]["review_question"],
        "Should support call respond_spanish without approval?"
    );
}

/// The whole answer for a loosened approval and a hosted MCP tool set to
/// never ask, text and JSON (`tests/goldens/gates_loosened.*`).
#[test]
fn the_answer_for_loosened_gates_is_its_golden() {
    let agent = |approval: &str, mcp: &str| {
        format!(
            "from agents import Agent, HostedMCPTool, function_tool\n\n\n@function_tool(needs_approval={approval})\ndef delete_account(user_id: str) -> str:\n    return user_id\n\n\nsupport = Agent(name=\"support\", tools=[delete_account, HostedMCPTool(tool_config={{\"type\": \"mcp\", \"server_label\": \"git\", \"server_url\": \"https://gitmcp.io/x\", \"require_approval\": \"{mcp}\"}})])\n"
        )
    };
    let (doc, _) = support::compare_branches_golden(
        "gates_loosened",
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", &agent("True", "always")),
        ],
        &[("app/agent.py", &agent("False", "never"))],
        "app",
    );
    // The published schema knows `gates` and `gate_changes`.
    support::schema::assert_valid(&doc);
}

/// An MCP server's `tool_filter` is a gate: widened, it lets more of the
/// server's tools through (loosened, and asks first); narrowed, fewer.
#[test]
fn a_widened_tool_filter_is_a_loosened_gate() {
    let agent = |allowed: &str| {
        format!(
            "from agents import Agent\nfrom agents.mcp import MCPServerStdio, create_static_tool_filter\n\nfiles = MCPServerStdio(params={{\"command\": \"npx\", \"args\": [\"server-filesystem\"]}}, tool_filter=create_static_tool_filter(allowed_tool_names={allowed}))\n\nsupport = Agent(name=\"support\", mcp_servers=[files])\n"
        )
    };
    let (doc, _) = compare(
        &agent("[\"read_file\"]"),
        &agent("[\"read_file\", \"write_file\"]"),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "files", "changed")]);
    assert_eq!(
        doc["rows"][0]["gate_changes"],
        json!([{"gate": "tool_filter", "change": "loosened", "before": "allowed [\"read_file\"]", "after": "allowed [\"read_file\", \"write_file\"]", "text": "tool_filter allowed [\"read_file\"] → allowed [\"read_file\", \"write_file\"] (loosened)"}])
    );
    assert_eq!(
        doc["rows"][0]["review_question"],
        "Should support call files now that its tool filter lets more tools through?"
    );
    support::schema::assert_valid(&doc);
    let (doc, _) = compare(
        &agent("[\"read_file\", \"write_file\"]"),
        &agent("[\"read_file\"]"),
    );
    assert_eq!(doc["rows"][0]["gate_changes"][0]["change"], "tightened");
}
