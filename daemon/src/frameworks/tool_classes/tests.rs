//! Which classes are repository tool classes, their names and digests.

use super::*;
use crate::python::extract_facts;

const HEADER: &str = "from google.adk.tools import BaseTool\nfrom google.adk.tools.base_toolset import BaseToolset\n\n";

fn read(source: &str, name: &str) -> Option<Result<ToolClass, String>> {
    let facts = extract_facts(format!("{HEADER}{source}").as_bytes());
    let class = facts.classes.iter().find(|c| c.name == name)?.clone();
    tool_class(&facts, &class)
}

const LOOKUP: &str = "class LookupTool(BaseTool):\n    def __init__(self):\n        super().__init__(name='lookup_records', description='Finds records.')\n\n    async def run_async(self, *, args, tool_context):\n        return {'rows': []}\n";

#[test]
fn a_tool_class_is_named_by_the_literal_it_passes_its_base() {
    let read = read(LOOKUP, "LookupTool").and_then(Result::ok);
    assert_eq!(
        read.as_ref().map(|r| r.name.as_str()),
        Some("lookup_records")
    );
    assert_eq!(read.as_ref().map(|r| r.base), Some("BaseTool"));
    let toolset = "class MathToolset(BaseToolset):\n    def __init__(self, prefix='math'):\n        super().__init__(tool_name_prefix=prefix)\n";
    let read = self::read(toolset, "MathToolset").and_then(Result::ok);
    assert_eq!(
        read.map(|r| (r.name, r.base)),
        Some(("MathToolset".into(), "BaseToolset"))
    );
    // Not a tool class: no digest, no limit.
    assert_eq!(self::read("class Plain:\n    pass\n", "Plain"), None);
}

/// The digest moves with any method or class attribute, and with nothing
/// that is not the class (a comment, a blank line, where it is written).
#[test]
fn the_digest_is_the_class_as_written() {
    let digest = |source: &str| {
        read(source, "LookupTool")
            .and_then(Result::ok)
            .map(|r| r.implementation_sha256)
    };
    let original = digest(LOOKUP);
    assert!(original.is_some());
    let moved = format!("# tools\n\n\n{LOOKUP}");
    assert_eq!(digest(&moved), original);
    let method = LOOKUP.replace("{'rows': []}", "{'rows': [1]}");
    assert_ne!(digest(&method), original);
    let attribute = LOOKUP.replace(
        "    def __init__",
        "    is_long_running = True\n\n    def __init__",
    );
    assert_ne!(digest(&attribute), original);
}

#[test]
fn a_tool_class_the_rule_cannot_read_says_why() {
    let computed = "class Named(BaseTool):\n    def __init__(self, name):\n        super().__init__(name=name, description='d')\n";
    assert_eq!(
        read(computed, "Named"),
        Some(Err(
            "the name its __init__ passes to BaseTool is not a literal".to_string()
        ))
    );
    let decorated = "@register\nclass Decorated(BaseTool):\n    pass\n";
    assert_eq!(
        read(decorated, "Decorated"),
        Some(Err("it is decorated".to_string()))
    );
}
