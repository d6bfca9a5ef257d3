//! End to end: a shipped tool's arguments read by what they name (issue
//! 21, "arguments read through local variables and constants"), in the
//! shapes the dev corpus builds them with:
//! - a library's constant or a tuple item of a library call
//!   (`Capabilities.DATA_READ`, `credentials, _ = google.auth.default()`);
//! - a repository function by its own code (`GoogleTool(func=count_rows)`,
//!   `on_approval=` a callback nested in `main()`, with its closure);
//! - a repository class's instance by the class's code (`ShellTool(
//!   executor=ShellExecutor())`);
//! - a constant imported from another module, read in that module's names.
//!
//! Each was "whose argument … is not read", and a change to it not
//! established. A definition is known by its own code, as a function
//! tool's implementation digest is (contract §3.1): a change to it is a
//! changed row, moving it is none.

mod support;

use serde_json::Value;
use support::{assert_compared, compare_branches, limits, row, rows};

/// `app/` holding `files` on main and `changed` on the branch, compared
/// with `--scope app`.
fn compare(files: &[(&str, &str)], changed: &[(&str, &str)]) -> Value {
    let mut base = vec![("app/__init__.py", "")];
    base.extend_from_slice(files);
    compare_branches(&base, changed, "app").0
}

/// Spanner's and Bigtable's sample shape: settings from a library enum,
/// credentials from a tuple item of a library call, and a function
/// wrapped by `GoogleTool`.
const ADK_AGENT: &str = r#"import google.auth
from google.adk.agents import Agent
from google.adk.tools.google_tool import GoogleTool
from google.adk.tools.spanner.settings import Capabilities, SpannerToolSettings
from google.adk.tools.spanner.spanner_credentials import SpannerCredentialsConfig
from google.adk.tools.spanner.spanner_toolset import SpannerToolset

tool_settings = SpannerToolSettings(capabilities=[Capabilities.DATA_READ])
application_default_credentials, _ = google.auth.default()
credentials_config = SpannerCredentialsConfig(credentials=application_default_credentials)
spanner_toolset = SpannerToolset(credentials_config=credentials_config, spanner_tool_settings=tool_settings)


def count_rows_tool(table_name: str, credentials, settings, tool_context):
    """Counts the rows of a table."""
    return f"SELECT count(*) FROM {table_name}"


root_agent = Agent(
    name="spanner_agent",
    model="m",
    instruction="Help.",
    tools=[
        spanner_toolset,
        GoogleTool(func=count_rows_tool, credentials_config=credentials_config, tool_settings=tool_settings),
    ],
)
"#;

#[test]
fn library_constants_and_tuple_items_are_read_so_an_unchanged_agent_is_compared() {
    let head = ADK_AGENT.replace(
        "\"\"\"Counts the rows of a table.\"\"\"",
        "\"\"\"Counts.\"\"\"",
    );
    let doc = compare(&[("app/agent.py", ADK_AGENT)], &[("app/agent.py", &head)]);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
}

#[test]
fn a_changed_library_constant_is_a_changed_row() {
    let head = ADK_AGENT.replace("DATA_READ", "DATA_WRITE");
    let doc = compare(&[("app/agent.py", ADK_AGENT)], &[("app/agent.py", &head)]);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![
            row("spanner_agent", "GoogleTool", "changed"),
            row("spanner_agent", "spanner_toolset", "changed"),
        ]
    );
}

#[test]
fn a_wrapped_functions_changed_code_is_a_changed_row() {
    let head = ADK_AGENT.replace("SELECT count(*)", "DELETE");
    let doc = compare(&[("app/agent.py", ADK_AGENT)], &[("app/agent.py", &head)]);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("spanner_agent", "GoogleTool", "changed")]
    );
}

/// The SDK's shell sample shape: an executor class of the repository and
/// an approval callback nested in `main()`.
const SDK_AGENT: &str = r#"from agents import Agent, ShellTool

AUTO = False


class ShellExecutor:
    def __init__(self, cwd=None):
        self.cwd = cwd

    async def __call__(self, request):
        return "ran"


async def main(model: str) -> None:
    mode = "ask"

    async def on_shell_approval(_context, approval_item):
        return {"approve": AUTO, "mode": mode}

    agent = Agent(
        name="Shell Assistant",
        model=model,
        tools=[ShellTool(executor=ShellExecutor(), needs_approval=True, on_approval=on_shell_approval)],
    )
    print(agent)
"#;

#[test]
fn an_executor_class_and_a_nested_callback_are_read() {
    let head = SDK_AGENT.replace("print(agent)", "print(agent.name)");
    let doc = compare(&[("app/main.py", SDK_AGENT)], &[("app/main.py", &head)]);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
}

#[test]
fn a_changed_executor_class_is_a_changed_row() {
    let head = SDK_AGENT.replace("return \"ran\"", "return \"ran twice\"");
    let doc = compare(&[("app/main.py", SDK_AGENT)], &[("app/main.py", &head)]);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("agent", "ShellTool", "changed")]);
}

/// What the callback closes over is part of it: `mode` is `main()`'s.
#[test]
fn a_changed_closure_value_is_a_changed_row() {
    let head = SDK_AGENT.replace("mode = \"ask\"", "mode = \"auto\"");
    let doc = compare(&[("app/main.py", SDK_AGENT)], &[("app/main.py", &head)]);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("agent", "ShellTool", "changed")]);
}

/// A callback closing over a parameter holds what each call passes: not
/// a value the read names, so a change to it is not established.
#[test]
fn a_callback_closing_over_a_parameter_is_not_read() {
    let base = SDK_AGENT.replace("\"mode\": mode", "\"mode\": model");
    let head = base.replace("return \"ran\"", "return \"ran twice\"");
    let doc = compare(&[("app/main.py", &base)], &[("app/main.py", &head)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![row("agent", "ShellTool", "not_established")]
    );
    let head_limits = limits(&doc, "head");
    assert!(
        head_limits
            .iter()
            .any(|l| l.contains("whose argument on_approval is not read (on_shell_approval)")),
        "{head_limits:?}"
    );
}

/// `NAME` is `PREFIX` in `config.py`, whatever the agent's module binds
/// under that name: a value copied from another module is read there.
#[test]
fn an_imported_constant_is_read_in_its_own_module() {
    let config = "PREFIX = \"us\"\nCOUNTRY = PREFIX\n";
    let agent = "from agents import Agent, WebSearchTool\nfrom .config import COUNTRY\n\nPREFIX = \"fr\"\n\nsupport = Agent(name=\"support\", tools=[WebSearchTool(user_location={\"type\": \"approximate\", \"country\": COUNTRY})])\n";
    let doc = compare(
        &[("app/config.py", config), ("app/agent.py", agent)],
        &[("app/config.py", &config.replace("\"us\"", "\"ca\""))],
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "WebSearchTool", "changed")]);
}
