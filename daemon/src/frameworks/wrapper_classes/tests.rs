//! The module's half of the wrapper-class rule: the construction as
//! `__init__` spells it, or why not.

use super::*;
use crate::python::extract_facts;

const WRAPPER: &str = "from agents import Agent\n\nclass CustomAgent:\n    def __init__(self, cfg, name, tools=None):\n        self.cfg = cfg\n        self.name = name\n        self.tools = tools or []\n\n    def build(self):\n        return Agent(name=self.name, tools=self.tools, tool_use_behavior=BEHAVIOR)\n";

/// The module's agent construction, read as a wrapper's.
fn read(source: &str) -> Option<Result<WrapperConstruction, String>> {
    let facts = extract_facts(source.as_bytes());
    let call = facts
        .calls
        .iter()
        .find(|c| c.callee == Value::Name("Agent".into()))?
        .clone();
    wrapper_construction(&facts, &call)
}

#[test]
fn self_attributes_become_what_init_stores() {
    let read = read(WRAPPER).and_then(Result::ok).expect("a wrapper");
    assert_eq!(read.class, "CustomAgent");
    assert_eq!(read.method, "CustomAgent.build");
    assert_eq!(read.call.scope, "CustomAgent.__init__");
    assert_eq!(
        read.attributes,
        vec!["name".to_string(), "tools".to_string()]
    );
    let spelled: Vec<String> = read
        .call
        .keywords
        .iter()
        .map(|k| {
            format!(
                "{}={}",
                k.name.as_deref().unwrap_or("**"),
                crate::graph::schema::unparse(&k.value)
            )
        })
        .collect();
    assert_eq!(
        spelled,
        vec![
            "name=name",
            "tools=tools or []",
            "tool_use_behavior=BEHAVIOR"
        ]
    );
    // `self` is gone from the function the instantiations bind.
    let params: Vec<&str> = read.init.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(params, vec!["cfg", "name", "tools"]);
}

#[test]
fn a_construction_that_reads_nothing_of_the_instance_is_not_a_wrappers() {
    let fixed = WRAPPER.replace(
        "Agent(name=self.name, tools=self.tools, tool_use_behavior=BEHAVIOR)",
        "Agent(name='fixed', tools=[lookup])",
    );
    assert_eq!(read(&fixed), None);
}

#[test]
fn each_condition_of_the_rule_names_itself() {
    let cases = [
        (
            WRAPPER.replace("class CustomAgent:", "class CustomAgent(Base):"),
            "the class has a base class or metaclass",
        ),
        (
            WRAPPER.replace(
                "        self.tools = tools or []\n",
                "        if tools:\n            self.tools = tools\n",
            ),
            "its __init__ stores self.tools conditionally",
        ),
        (
            WRAPPER.replace(
                "        self.tools = tools or []\n",
                "        self.tools = tools or []\n        self.tools = []\n",
            ),
            "its __init__ stores self.tools 2 times",
        ),
        (
            WRAPPER.replace(
                "        self.tools = tools or []\n",
                "        extra = [lookup]\n        self.tools = extra\n",
            ),
            "self.tools is stored from 'extra', a local name of __init__",
        ),
        (
            format!("{WRAPPER}\n    def tools_view(self):\n        return self.tools\n"),
            "the class's code uses .tools other than storing it once and reading what it holds",
        ),
        (
            WRAPPER
                .replace("tool_use_behavior=BEHAVIOR)", "tool_use_behavior=behavior)")
                .replace("    def build(self):\n", "    def build(self, behavior):\n"),
            "it reads 'behavior', a local name of its method",
        ),
        (
            format!("{WRAPPER}\n    def __getattr__(self, name):\n        return None\n"),
            "the class's code spells '__getattr__'",
        ),
    ];
    for (source, why) in cases {
        assert_eq!(read(&source), Some(Err(why.to_string())), "{source}");
    }
}

/// A keyword that carries no binding (the model, instructions,
/// descriptions) is not read: what it reads of `self` never blocks the
/// rule, and its value is rewritten as not read.
#[test]
fn descriptive_keywords_are_not_read() {
    let source = WRAPPER.replace(
        "tool_use_behavior=BEHAVIOR)",
        "model=self.cfg.model_name, instructions=f\"You are {self.name}\")",
    );
    let wrapper = read(&source).and_then(Result::ok).expect("a wrapper");
    assert_eq!(
        wrapper.attributes,
        vec!["name".to_string(), "tools".to_string()]
    );
    let model = wrapper.call.keyword("model").map(|k| k.value.clone());
    assert_eq!(
        model,
        Some(Value::Other("a descriptive keyword, not read".into()))
    );
    // A read of `self.name` elsewhere in the class still counts.
    let elsewhere = format!("{source}\n    def label(self):\n        return self.name\n");
    assert_eq!(
        read(&elsewhere),
        Some(Err(
            "the class's code uses .name other than storing it once and reading what it holds"
                .to_string()
        ))
    );
}
