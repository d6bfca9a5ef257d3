//! End to end: calls into the repository's own functions, read to their
//! one return with the function's parameters bound to the call's
//! arguments (issue 19, `graph/build/call_frames.rs`), and a builder's
//! parameter listed as one member, read through every call of the
//! builder. The shapes are the SDK's examples': `tools=build_tools(db)`,
//! `tools, results = make_tools(...)` with `@function_tool` definitions
//! nested in the function, and `async def run(server): Agent(mcp_servers=
//! [server])` called from `main()` inside `async with MCPServerStdio(...)
//! as server`.
//!
//! The reference (1.2.0) names each a dynamic expression; the spec names a
//! call's result and a parameter as stops. This reads further where the
//! rules in the module doc make it sound: one unconditional return, a
//! list the function builds anew per call, every caller known.

mod support;

use serde_json::Value;
use support::{compare_branches, limits, row, rows};

fn module(body: &str) -> String {
    format!(
        r#"import asyncio
from agents import Agent, Runner, function_tool
from agents.mcp import MCPServer, MCPServerStdio


@function_tool
def lookup(q: str) -> str:
    return q


@function_tool
def refund(order: str) -> str:
    return order


{body}"#
    )
}

fn compare(base: &str, head: &str) -> Value {
    compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &module(base))],
        &[("app/agent.py", &module(head))],
        "app",
    )
    .0
}

const BUILD_TOOLS: &str = r#"def build_tools(extra):
    tools = [lookup, extra]
    return tools


support = Agent(name="support", tools=build_tools(refund))
"#;

#[test]
fn a_list_a_repository_function_returns_is_read_with_its_arguments() {
    let doc = compare(
        &BUILD_TOOLS.replace("[lookup, extra]", "[extra]"),
        BUILD_TOOLS,
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "lookup", "added")]);
    // What the call passes is the member: a change there is a row too.
    let doc = compare(
        &BUILD_TOOLS.replace("build_tools(refund)", "build_tools(lookup)"),
        BUILD_TOOLS,
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    let base = module(&BUILD_TOOLS.replace("[lookup, extra]", "[extra]"));
    let (_, text) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", &base)],
        &[("app/agent.py", &module(BUILD_TOOLS))],
        "app",
    );
    assert!(
        text.contains("read through the calls at: app/agent.py:21\n"),
        "{text}"
    );
}

const PAIR: &str = r#"def make_tools(region):
    @function_tool
    def query(q: str) -> str:
        return q + region

    tools = [query, refund]
    return tools, {}


async def main():
    tools, results = make_tools("eu")
    agent = Agent(name="ops", tools=tools)
    await Runner.run(agent, "hi")
"#;

#[test]
fn an_unpacked_return_and_a_nested_tool_carry_what_the_call_passes() {
    // The nested tool closes over `region`: the call's argument is part of
    // what it is, so changing it changes the tool.
    let doc = compare(
        PAIR,
        &PAIR.replace("make_tools(\"eu\")", "make_tools(\"us\")"),
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("agent", "query", "changed")]);
    // Its own code too, and the module-level tool beside it is unchanged.
    let doc = compare(PAIR, &PAIR.replace("q + region", "region + q"));
    assert_eq!(rows(&doc), vec![row("agent", "query", "changed")]);
    let doc = compare(PAIR, &PAIR.replace("[query, refund]", "[query]"));
    assert_eq!(rows(&doc), vec![row("agent", "refund", "removed")]);
}

#[test]
fn a_nested_tool_whose_argument_is_not_named_is_a_limit_on_that_tool() {
    let unnamed = PAIR.replace(
        "async def main():\n    tools, results = make_tools(\"eu\")",
        "async def main(region):\n    tools, results = make_tools(region)",
    );
    let doc = compare(
        &unnamed,
        &unnamed.replace("[query, refund]", "[query, refund, lookup]"),
    );
    // What `main` is handed is not read: the limit names it, and, spelled
    // the same on both sides, it is no row (as for an object's unread
    // part); the other row is established.
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![row("agent", "lookup", "added")]);
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("binds 'query' from") && l.contains("region=")),
        "{:?}",
        limits(&doc, "head")
    );
}

#[test]
fn calls_that_are_not_sound_to_read_stay_named_limits() {
    // Two returns: which one runs is not known.
    let two = r#"def build_tools(full):
    if full:
        return [lookup, refund]
    return [lookup]


support = Agent(name="support", tools=build_tools(True))
"#;
    let doc = compare(two, &two.replace("[lookup]\n", "[refund]\n"));
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    assert!(
        limits(&doc, "head").iter().any(|l| l.contains(
            "a call to `build_tools`, which does not return once, unconditionally, as its last statement"
        )),
        "{:?}",
        limits(&doc, "head")
    );
    // A module-level list returned is shared by every caller, so it could
    // change: not read.
    let shared = r#"TOOLS = [lookup]


def build_tools():
    return TOOLS


build_tools().append(refund)
support = Agent(name="support", tools=build_tools())
"#;
    let doc = compare(shared, &shared.replace("[lookup]", "[lookup, refund]"));
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    // A function that calls itself.
    let recursive = r#"def build_tools(n):
    tools = build_tools(n)
    return tools


support = Agent(name="support", tools=build_tools(1))
"#;
    let doc = compare(recursive, &recursive.replace("(n)\n", "(n + 1)\n"));
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("a call to `build_tools`, which calls itself")),
        "{:?}",
        limits(&doc, "head")
    );
}

const SERVER: &str = r#"async def run(mcp_server: MCPServer):
    agent = Agent(name="assistant", mcp_servers=[mcp_server])
    await Runner.run(agent, "hi")


async def main():
    async with MCPServerStdio(
        name="Filesystem",
        params={"command": "npx", "args": ["-y", "fs-server"]},
    ) as server:
        await run(server)


if __name__ == "__main__":
    asyncio.run(main())
"#;

#[test]
fn a_server_a_builder_is_handed_is_read_where_every_caller_builds_it() {
    let doc = compare(SERVER, &SERVER.replace("\"fs-server\"", "\"fs-server@2\""));
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("agent", "Filesystem", "changed")]);
    // A second caller passing another server adds it.
    let two = SERVER.replace(
        "        await run(server)\n",
        "        await run(server)\n    async with MCPServerStdio(name=\"Git\", params={\"command\": \"git-mcp\"}) as git:\n        await run(git)\n",
    );
    let doc = compare(SERVER, &two);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("agent", "Git", "added")]);
}

#[test]
fn a_server_the_builder_changes_or_an_unknown_caller_passes_stays_a_limit() {
    // The builder writes into the server it is handed: the member stays
    // the parameter, which is no server this reader identifies.
    let changed = SERVER.replace(
        "    agent = Agent(",
        "    mcp_server.tool_filter = None\n    agent = Agent(",
    );
    let doc = compare(
        &changed,
        &changed.replace("\"fs-server\"", "\"fs-server@2\""),
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("lists 'mcp_server' in mcp_servers=, which is not an MCP server")),
        "{:?}",
        limits(&doc, "head")
    );
    // `run` is also used as a value: its callers are not all known.
    let escaped = SERVER.replace(
        "if __name__ == \"__main__\":",
        "HANDLERS = [run]\n\nif __name__ == \"__main__\":",
    );
    let doc = compare(
        &escaped,
        &escaped.replace("\"fs-server\"", "\"fs-server@2\""),
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
}

const GROUPS: &str = r#"def make_tool_groups(user):
    return {"mail": [lookup], "notes": [refund]}


def build(user):
    groups = make_tool_groups(user)
    return Agent(name="assistant", tools=groups["mail"] + groups.get("notes", []))
"#;

#[test]
fn a_dict_of_lists_a_function_returns_is_read_by_its_literal_keys() {
    let doc = compare(
        &GROUPS.replace("\"notes\": [refund]", "\"calendar\": [refund]"),
        GROUPS,
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("assistant", "refund", "added")]);
    // A dict display bound once at module level reads the same way.
    let module_dict = r#"GROUPS = {"mail": [lookup]}

assistant = Agent(name="assistant", tools=GROUPS["mail"])
"#;
    let doc = compare(
        module_dict,
        &module_dict.replace("[lookup]}", "[lookup, refund]}"),
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("assistant", "refund", "added")]);
    // A dict something else changes is not read.
    let changed = module_dict.replace(
        "\nassistant =",
        "GROUPS[\"mail\"].append(refund)\n\nassistant =",
    );
    let doc = compare(&changed, &changed.replace("[lookup]}", "[lookup, refund]}"));
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("`GROUPS`, which agent.py uses other than to read an entry")),
        "{:?}",
        limits(&doc, "head")
    );
}

/// A called function its package rebinds (`helpers.build_tools = ...` in
/// `app/__init__.py`, the spec's reassignment rule for a chain) is not
/// the one the call reaches: not read, and named.
#[test]
fn a_called_function_another_module_rebinds_is_not_read() {
    let helpers = "from agents import function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\ndef build_tools():\n    tools = [lookup]\n    return tools\n";
    let agent = "from agents import Agent\nfrom .helpers import build_tools\n\nsupport = Agent(name=\"support\", tools=build_tools())\n";
    let patch = "from . import helpers\n\nhelpers.build_tools = lambda: []\n";
    let doc = compare_branches(
        &[
            ("app/__init__.py", patch),
            ("app/helpers.py", helpers),
            ("app/agent.py", agent),
        ],
        &[(
            "app/helpers.py",
            &helpers.replace("[lookup]", "[lookup, lookup]"),
        )],
        "app",
    )
    .0;
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("a call to `build_tools`, not followed:")),
        "{:?}",
        limits(&doc, "head")
    );
}

/// A condition the called function states holds by what the call passes:
/// `_pick(tools, names)` keeps a member when `t.name in names`, with the
/// names the call passes. A display of literal names is evaluated on the
/// SDK's function tools (issue 39, item 2), so a caller passing another
/// set changes exactly the members whose membership changed (before
/// this, the condition's text alone was compared, and a change to the
/// names was silence, then every member a `changed` row). A value the
/// read cannot name leaves the member unread.
#[test]
fn a_condition_in_a_called_function_carries_what_the_call_passes() {
    let pick = r#"def _pick(tools, names):
    return [t for t in tools if t.name in names]


support = Agent(name="support", tools=_pick([lookup, refund], ["lookup"]))
"#;
    let doc = compare(
        pick,
        &pick.replace("[\"lookup\"]", "[\"lookup\", \"refund\"]"),
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    // Kept by the filter: held as any member, with no condition.
    assert!(doc["rows"][0]["after"].get("bound_when").is_none());
    // A set display is its members, sorted and once each: its order is
    // not its value, so re-spelling it is no change.
    let set = pick.replace("[\"lookup\"])", "{\"lookup\"})");
    let doc = compare(
        &set,
        &set.replace("{\"lookup\"}", "{\"refund\", \"lookup\"}"),
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    let both = set.replace("{\"lookup\"}", "{\"lookup\", \"refund\"}");
    let doc = compare(
        &both,
        &both.replace("\"lookup\", \"refund\"", "\"refund\", \"lookup\""),
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
    // A value the read cannot name leaves the member unread, and named.
    let unnamed = pick.replace("[\"lookup\"])", "set(NAMES))");
    let doc = compare(&unnamed, &unnamed.replace("set(NAMES)", "set(OTHER)"));
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    // The same holds for a builder's own condition on its parameter.
    let builder = r#"def build(tools, fast):
    return Agent(name="support", tools=tools if fast else [])


support = build([lookup], True)
"#;
    let doc = compare(builder, &builder.replace("True)", "False)"));
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![row("support", "lookup", "not_established")]
    );
    assert_eq!(doc["rows"][0]["candidate_change"], "changed");
}

/// The SDK's `tool_namespace(name=…, description=…, tools=[…])` returns
/// copies of the listed function tools carrying the namespace, their
/// names unchanged: its tools are the agent's, and the namespace is part
/// of what each is (moving a tool to another namespace is a changed row).
#[test]
fn the_sdks_tool_namespace_lists_its_tools() {
    let namespaced = r#"from agents import tool_namespace

crm_tools = tool_namespace(name="crm", description="CRM lookups.", tools=[lookup])

support = Agent(name="support", tools=[*crm_tools, refund])
"#;
    let doc = compare(
        namespaced,
        &namespaced.replace("CRM lookups.", "Customer lookups."),
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "lookup", "changed")]);
    let doc = compare(&namespaced.replace(", refund])", "])"), namespaced);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    // A namespace whose name is not a literal is not read.
    let computed = namespaced.replace("name=\"crm\"", "name=PREFIX + \"crm\"");
    let doc = compare(
        &computed,
        &computed.replace("CRM lookups.", "Customer lookups."),
    );
    assert_eq!(doc["comparison_status"], "partial");
}

/// A module's list handed to a function that only reads it (`_pick(ALL,
/// {...})`) is read there: that use is a read, like listing it. A function
/// that adds to what it is handed changes the module's list, which stays
/// unread.
#[test]
fn a_module_list_a_called_function_only_reads_is_read() {
    let pick = r#"ALL = [lookup]


def _pick(tools, names):
    return [t for t in tools if t.name in names]


support = Agent(name="support", tools=_pick(ALL, {"lookup", "refund"}))
"#;
    let doc = compare(
        pick,
        &pick.replace("ALL = [lookup]", "ALL = [lookup, refund]"),
    );
    assert_eq!(
        doc["comparison_status"],
        "compared",
        "{:?}",
        limits(&doc, "head")
    );
    assert_eq!(rows(&doc), vec![row("support", "refund", "added")]);
    // The filter, given literal names by the call, is evaluated (issue
    // 39, item 2): `refund` is kept, so it is held with no condition.
    assert!(doc["rows"][0]["after"].get("bound_when").is_none());
    let adding = pick.replace(
        "def _pick(tools, names):\n",
        "def _pick(tools, names):\n    tools.append(refund)\n",
    );
    let doc = compare(
        &adding,
        &adding.replace("ALL = [lookup]", "ALL = [lookup, refund]"),
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("`ALL`, which agent.py uses other than as an agent's list")),
        "{:?}",
        limits(&doc, "head")
    );
}

/// A call inside a called function passes on what its own call passed: the
/// inner frame spells a parameter by the outer call's value, so a nested
/// tool's closure is named through both calls (one frame mechanism for
/// tool factories and list readers alike).
#[test]
fn a_value_passed_through_two_calls_is_named_by_the_outer_call() {
    let nested = r#"def make_tools(greeting):
    @function_tool
    def greet(name: str) -> str:
        return greeting + name

    return [greet]


def build(g):
    return make_tools(g)


support = Agent(name="support", tools=build("hi"))
"#;
    let doc = compare(nested, &nested.replace("build(\"hi\")", "build(\"hello\")"));
    assert_eq!(
        doc["comparison_status"],
        "compared",
        "{:?}",
        limits(&doc, "head")
    );
    assert_eq!(rows(&doc), vec![row("support", "greet", "changed")]);
    let doc = compare(nested, nested);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(rows(&doc), vec![]);
}
