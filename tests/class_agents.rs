//! End to end: agents a class builds in a method (issue 41, item 1, in
//! part). A keyword that carries no binding, setting or gate — the model,
//! its instructions, descriptions, output (`DESCRIPTIVE_KEYWORDS`) — is
//! not read, so `model=self.config.model_name` or
//! `instruction=self.prompt` never keeps the class from being read as one
//! agent per instance; what the binding keywords read still follows the
//! wrapper-class rule (`frameworks/wrapper_classes.rs`).

mod support;

use support::{assert_compared, compare_branches, limits, row, rows};

const TOOLS: &str =
    "def lookup(x: str) -> str:\n    return x\n\n\ndef refund(x: str) -> str:\n    return x\n";

fn helper(store: &str, tools: &str) -> String {
    format!(
        "from google.adk.agents import LlmAgent\nfrom app.tools import lookup, refund\n\n\nclass Helper:\n    def __init__(self, config, name, tools):\n        self.config = config\n        self.prompt = config.prompt\n        self.name = name\n{store}\n\n    def create_agent(self):\n        return LlmAgent(\n            name=self.name,\n            model=self.config.model_name,\n            instruction=self.prompt,\n            description=f\"{{self.name}} helper\",\n            tools=self.tools,\n        )\n\n\nbilling = Helper(None, \"billing\", {tools})\n"
    )
}

fn compare(base: &str, head: &str) -> serde_json::Value {
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/helper.py", base),
        ],
        &[("app/helper.py", head)],
        "app",
    )
    .0
}

const STORE: &str = "        self.tools = tools";

#[test]
fn descriptive_keywords_never_block_a_class_built_agent() {
    let doc = compare(
        &helper(STORE, "[lookup]"),
        &helper(STORE, "[lookup, refund]"),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![row("billing", "refund", "added")]);
    // A change to a descriptive keyword alone is no row.
    let base = helper(STORE, "[lookup]");
    let doc = compare(
        &base,
        &base.replace("model=self.config.model_name", "model=\"gemini-2.5-pro\""),
    );
    assert_compared(&doc);
    assert_eq!(rows(&doc), vec![]);
    // Edge: the binding attribute stored under a test stays a limit, and
    // the change it could hide is not established.
    let tested = "        if config is None:\n            self.tools = tools";
    let doc = compare(
        &helper(tested, "[lookup]"),
        &helper(tested, "[lookup, refund]"),
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head")
            .iter()
            .any(|l| l.contains("stores self.tools conditionally")),
        "{:?}",
        limits(&doc, "head")
    );
    assert!(rows(&doc)
        .iter()
        .all(|(_, _, change)| change == "not_established"));
}
