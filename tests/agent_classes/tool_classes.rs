//! Repository tool classes: an instance an ADK agent lists is an object
//! tool, named as ADK names it, identified by the class as written.

use super::support::assert_compared;
use super::support::{compare_branches, limits, row, rows};
use serde_json::Value;

const LOOKUP: &str = r#"from google.adk.tools import BaseTool


class LookupTool(BaseTool):
    def __init__(self):
        super().__init__(name="lookup_records", description="Finds records.")

    async def run_async(self, *, args, tool_context):
        return {"rows": []}


class MathToolset(BaseToolset):
    def __init__(self, prefix="math"):
        super().__init__(tool_name_prefix=prefix)

    async def get_tools(self, readonly_context=None):
        return []
"#;

fn tools_module(body: &str) -> String {
    format!("from google.adk.tools.base_toolset import BaseToolset\n{body}")
}

const AGENT: &str = r#"from google.adk.agents import Agent
from .tools import LookupTool, MathToolset

math = MathToolset(prefix="calculator")

root_agent = Agent(
    name="support",
    model="gemini-2.0-flash",
    instruction="Help.",
    tools=[LookupTool()],
)
"#;

fn compare(base: (&str, &str), head: &[(&str, &str)]) -> Value {
    compare_text(base, head).0
}

fn compare_text(base: (&str, &str), head: &[(&str, &str)]) -> (Value, String) {
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", base.0),
            ("app/agent.py", base.1),
        ],
        head,
        "app",
    )
}

/// A change to a method of the class is a change of the tool.
#[test]
fn a_changed_method_is_a_changed_tool_class_row() {
    let tools = tools_module(LOOKUP);
    let head = tools.replace("{\"rows\": []}", "{\"rows\": [1]}");
    let (doc, text) = compare_text((&tools, AGENT), &[("app/tools.py", &head)]);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("support", "lookup_records", "changed")]
    );
    assert!(
        text.contains("CHANGED  support → lookup_records\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "repository tool class (LookupTool, tool name lookup_records; implementation digest "
        ),
        "{text}"
    );
    assert!(text.contains("implementation_sha256"), "{text}");
    let object = &doc["rows"][0]["after"]["object"];
    assert_eq!(object["kind"], "tool_class");
    assert_eq!(object["class"], "LookupTool");
    assert_eq!(object["tool_name"], "lookup_records");
    assert_ne!(
        doc["rows"][0]["before"]["object"]["implementation_sha256"],
        object["implementation_sha256"]
    );
}

/// A toolset instance bound to a name and added to the list is an added
/// row under its class name; its constructor's arguments are part of it.
#[test]
fn an_added_toolset_instance_is_an_added_row() {
    let tools = tools_module(LOOKUP);
    let head = AGENT.replace("tools=[LookupTool()]", "tools=[LookupTool(), math]");
    let doc = compare((&tools, AGENT), &[("app/agent.py", &head)]);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "MathToolset", "added")]);
    let object = &doc["rows"][0]["after"]["object"];
    assert_eq!(object["arguments"], serde_json::json!(["prefix"]));
    assert_eq!(
        doc["rows"][0]["after"]["object_evidence"]["built_at"],
        "app/agent.py:4"
    );
}

/// Moving the class to another module changes where it is written, not
/// what it is: no row.
#[test]
fn moving_a_tool_class_is_not_a_change() {
    let tools = tools_module(LOOKUP);
    let moved = "from .lookup import LookupTool, MathToolset\n";
    let doc = compare(
        (&tools, AGENT),
        &[("app/tools.py", moved), ("app/lookup.py", &tools)],
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
}

/// A class whose name is computed is named on the agent, never guessed.
#[test]
fn a_tool_class_with_a_computed_name_is_a_named_limit() {
    let tools = tools_module(LOOKUP);
    let head = tools.replace(
        "super().__init__(name=\"lookup_records\"",
        "super().__init__(name=NAME",
    );
    let doc = compare((&tools, AGENT), &[("app/tools.py", &head)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent 'support' binds an instance of the repository tool class 'LookupTool', which is not read: the name its __init__ passes to BaseTool is not a literal."]
    );
}

/// A toolset hands the model the functions it wraps: a change to one is a
/// change to the toolset.
#[test]
fn a_changed_function_a_toolset_wraps_changes_the_toolset() {
    let body = LOOKUP.replace(
        "        super().__init__(tool_name_prefix=prefix)\n",
        "        super().__init__(tool_name_prefix=prefix)\n        self._add = FunctionTool(func=add_numbers)\n",
    );
    let tools = format!(
        "from google.adk.tools import FunctionTool\n{}\n\ndef add_numbers(a: int, b: int) -> int:\n    return a + b\n",
        tools_module(&body)
    );
    let agent = AGENT.replace("tools=[LookupTool()]", "tools=[math]");
    let head = tools.replace("return a + b", "return a - b");
    let doc = compare((&tools, &agent), &[("app/tools.py", &head)]);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "MathToolset", "changed")]);
}

/// The SDK's `FunctionTool` subclassed by the repository: the same rule.
#[test]
fn an_sdk_function_tool_class_is_read_whole() {
    let tools = r#"from agents import FunctionTool


class LookupTool(FunctionTool):
    def __init__(self):
        super().__init__(
            name="lookup_records",
            description="Finds records.",
            params_json_schema={},
            on_invoke_tool=self._run,
        )

    async def _run(self, ctx, args):
        return "rows"
"#;
    let agent = "from agents import Agent\nfrom .tools import LookupTool\n\nsupport = Agent(name=\"support\", tools=[LookupTool()])\n";
    let head = tools.replace("return \"rows\"", "return \"all rows\"");
    let doc = compare((tools, agent), &[("app/tools.py", &head)]);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("support", "lookup_records", "changed")]
    );
    assert_eq!(doc["rows"][0]["after"]["object"]["kind"], "tool_class");
}

/// An instance changed after it is built is not what its constructor
/// says: the unread part is named, and a change to it is not established.
#[test]
fn a_tool_class_instance_changed_after_it_is_built_names_the_change() {
    let tools = tools_module(LOOKUP);
    let agent = AGENT
        .replace("tools=[LookupTool()]", "tools=[math]")
        .replace(
            "math = MathToolset(prefix=\"calculator\")\n",
            "math = MathToolset(prefix=\"calculator\")\nmath.prefix = \"other\"\n",
        );
    let head = tools.replace("return []", "return [1]");
    let doc = compare((&tools, &agent), &[("app/tools.py", &head)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![row("support", "MathToolset", "not_established")]
    );
}

/// Issue 41, item 3: a tool class on top of another repository tool
/// class, in another module. The name is what the chain hands `BaseTool`
/// (`name=` forwarded by the base class's parameter), and the identity
/// covers every class of the chain: a change to the base class's method
/// is a change of the tool.
const RECORDS: &str = r#"from google.adk.tools import BaseTool


class RecordsTool(BaseTool):
    def __init__(self, name="records", description="Records."):
        super().__init__(name=name, description=description)

    def limit(self):
        return 10
"#;

const LOOKUP_ON_RECORDS: &str = r#"from .records import RecordsTool


class LookupTool(RecordsTool):
    def __init__(self, **kwargs):
        super().__init__(name="lookup_records", **kwargs)

    async def run_async(self, *, args, tool_context):
        return {"rows": []}
"#;

const AGENT_OF_LOOKUP: &str = "from google.adk.agents import Agent\nfrom .tools import LookupTool\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"Help.\", tools=[])\n";

fn compare_chain(base: &[(&str, &str)], head: &[(&str, &str)]) -> Value {
    let mut files = vec![("app/__init__.py", "")];
    files.extend_from_slice(base);
    compare_branches(&files, head, "app").0
}

#[test]
fn a_tool_class_on_another_repository_tool_class_is_read_through_the_chain() {
    let listed = AGENT_OF_LOOKUP.replace("tools=[]", "tools=[LookupTool()]");
    let base = [
        ("app/records.py", RECORDS),
        ("app/tools.py", LOOKUP_ON_RECORDS),
        ("app/agent.py", AGENT_OF_LOOKUP),
    ];
    let doc = compare_chain(&base, &[("app/agent.py", &listed)]);
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("support", "lookup_records", "added")]);
    let object = &doc["rows"][0]["after"]["object"];
    assert_eq!(object["kind"], "tool_class");
    assert_eq!(object["class"], "LookupTool");
    // A change to the base class's code is a change of the tool.
    let base = [
        ("app/records.py", RECORDS),
        ("app/tools.py", LOOKUP_ON_RECORDS),
        ("app/agent.py", listed.as_str()),
    ];
    let changed = RECORDS.replace("return 10", "return 1000");
    let doc = compare_chain(&base, &[("app/records.py", &changed)]);
    assert_compared(&doc);
    assert_eq!(
        rows(&doc),
        vec![row("support", "lookup_records", "changed")]
    );
}

/// Edges: a base class that computes the name it hands `BaseTool` makes
/// the name unread (a named limit); a chain through a class of no tool
/// base is no tool class, and the listed call stays the reader's limit.
#[test]
fn a_chain_that_does_not_hand_a_literal_name_is_a_named_limit() {
    let listed = AGENT_OF_LOOKUP.replace("tools=[]", "tools=[LookupTool()]");
    let computed = RECORDS.replace(
        "super().__init__(name=name,",
        "super().__init__(name=name.upper(),",
    );
    let doc = compare_chain(
        &[
            ("app/records.py", &computed),
            ("app/tools.py", LOOKUP_ON_RECORDS),
            ("app/agent.py", AGENT_OF_LOOKUP),
        ],
        &[("app/agent.py", &listed)],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        limits(&doc, "head"),
        vec!["Google ADK agent 'support' binds an instance of the repository tool class 'LookupTool', which is not read: the name its chain passes to BaseTool is not a literal."]
    );
    let plain =
        "class RecordsTool:\n    def __init__(self, name=\"records\"):\n        self.name = name\n";
    let doc = compare_chain(
        &[
            ("app/records.py", plain),
            ("app/tools.py", LOOKUP_ON_RECORDS),
            ("app/agent.py", AGENT_OF_LOOKUP),
        ],
        &[("app/agent.py", &listed)],
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![row("support", "LookupTool()", "not_established")]
    );
}
