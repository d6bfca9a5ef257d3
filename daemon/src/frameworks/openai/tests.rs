//! The SDK reader's recognition, fact by fact.

use super::*;
use crate::python::extract_facts;

#[test]
fn agents_are_recognised_by_import_identity() {
    let facts = extract_facts(
        br#"from agents import Agent, function_tool
import agents as sdk
from livekit.agents import Agent as LkAgent

@function_tool
def lookup(q: str) -> str:
    return q

@function_tool(name_override="renamed")
def other():
    pass

def plain():
    pass

support = Agent(name="Support", tools=[lookup, other])
helper = sdk.Agent(name="Helper", tools=make())
voice = LkAgent(name="voice", tools=[lookup])
"#,
    );
    let context = ModuleContext::default();
    let agents = agent_constructions(&facts, "agent.py", &context);
    assert_eq!(agents.len(), 2, "LiveKit's Agent is not the SDK's");
    assert_eq!(agents[0].identity, "support");
    assert_eq!(agents[0].line, 16);
    assert_eq!(
        list_argument(agents[0].call, "tools"),
        ListArgument::Members(vec![
            ListMember::Reference(Value::Name("lookup".into())),
            ListMember::Reference(Value::Name("other".into()))
        ])
    );
    assert_eq!(agents[1].identity, "helper");
    assert_eq!(
        list_argument(agents[1].call, "tools"),
        ListArgument::Dynamic
    );
    assert_eq!(
        list_argument(agents[1].call, "handoffs"),
        ListArgument::Absent
    );

    let names: Vec<_> = facts
        .functions
        .iter()
        .map(|f| function_tool_name(&facts, f))
        .collect();
    assert_eq!(
        names,
        vec![
            Some("lookup".to_string()),
            Some("renamed".to_string()),
            None
        ]
    );
    assert!(is_sdk_source(&facts));
}

#[test]
fn constructions_without_a_literal_name_get_source_labels() {
    let facts = extract_facts(
            b"from agents import Agent\n\ndef build():\n    return Agent(instructions='x')\n\ndef first():\n    agent = Agent(instructions='a')\n    return agent\n\ndef second():\n    agent = Agent(instructions='b')\n    return agent\n\nclass Helper:\n    def __init__(self):\n        self.agent = Agent(instructions='h')\n\nAgent(instructions='m')\n",
        );
    let labels: Vec<String> = agent_constructions(&facts, "agent.py", &ModuleContext::default())
        .into_iter()
        .map(|c| c.identity)
        .collect();
    assert_eq!(
        labels,
        vec![
            "build@agent.py",
            "first.agent@agent.py",
            "second.agent@agent.py",
            "Helper.self.agent@agent.py",
            "Agent@agent.py"
        ]
    );
}

#[test]
fn unassigned_constructions_use_their_literal_name() {
    let facts = extract_facts(b"from agents import Agent\ndef build():\n    return Agent(name='Quote')\nx = [Agent('Positional')]\n");
    let context = ModuleContext::default();
    let agents = agent_constructions(&facts, "agent.py", &context);
    assert_eq!(agents[0].identity, "Quote");
    assert_eq!(agents[1].identity, "Positional");
}

#[test]
fn only_the_absolute_sdk_package_is_the_sdk() {
    let facts = extract_facts(
            b"from .agents import Agent as Local\nfrom agents import Agent\nfrom openai_agents import Agent as Other\n\nctx = Agent[dict](name='typed')\nlocal = Local(name='local')\nother = Other(name='other')\n",
        );
    let identities: Vec<String> =
        agent_constructions(&facts, "agent.py", &ModuleContext::default())
            .into_iter()
            .map(|c| c.identity)
            .collect();
    assert_eq!(identities, vec!["ctx", "other"]);
}

#[test]
fn a_clone_may_keep_one_named_tool_of_its_own_receiver() {
    let facts = extract_facts(
            b"a = base.clone(tools=[t for t in base.tools if t.name == 'read'])\nb = base.clone(tools=[t for t in other.tools if t.name == 'read'])\nc = base.clone(tools=[t for t in base.tools if t.name != 'read'])\nd = base.clone(tools=[t for t in base.tools if 'read' == t.name])\n",
        );
    let kept: Vec<Option<String>> = facts
        .calls
        .iter()
        .filter_map(|call| Some(clone_name_filter(call, &call.keyword("tools")?.value)))
        .collect();
    assert_eq!(
        kept,
        vec![
            Some("read".to_string()),
            None,
            None,
            Some("read".to_string())
        ]
    );
}

#[test]
fn settings_are_read_only_from_recognised_literals() {
    let facts = extract_facts(
            b"from agents import Agent, ModelSettings, StopAtTools\na = Agent(name='a', tool_use_behavior=StopAtTools(stop_at_tool_names=['x', 'y']), model_settings=ModelSettings(tool_choice='required'))\nb = Agent(name='b', tool_use_behavior=decide, model_settings=settings)\nc = a.clone(model='gpt-5')\n",
        );
    let read: Vec<AgentSettings> = facts
        .calls
        .iter()
        .filter(|c| c.keyword("name").is_some() || c.keyword("model").is_some())
        .map(|c| agent_settings(&facts, c, &AgentSettings::UNSET))
        .collect();
    assert_eq!(
        read[0],
        AgentSettings {
            tool_use_behavior: Setting::Value("stop_at_tools [x, y]".into()),
            tool_choice: Setting::Value("required".into()),
        }
    );
    assert!(matches!(read[1].tool_use_behavior, Setting::Uncertain(_)));
    assert!(matches!(read[1].tool_choice, Setting::Uncertain(_)));
    // A model override drops an inherited tool_choice to uncertain.
    let clone = agent_settings(&facts, &facts.calls[facts.calls.len() - 1], &read[0]);
    assert_eq!(clone.tool_use_behavior, read[0].tool_use_behavior);
    assert!(matches!(clone.tool_choice, Setting::Uncertain(_)));
}
