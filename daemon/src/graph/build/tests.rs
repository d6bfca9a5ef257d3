use super::*;
use crate::graph::Affects;
use crate::python::extract_facts;

fn side(files: &[(&str, &str)]) -> SideGraph {
    build_side(SideInput {
        scope: ".".into(),
        context: ScopeContext::default(),
        files: files
            .iter()
            .map(|(path, source)| SourceFile {
                path: path.to_string(),
                facts: Arc::new(extract_facts(source.as_bytes())),
            })
            .collect(),
        ..SideInput::default()
    })
}

const AGENT: &str = r#"from agents import Agent, function_tool

@function_tool
def lookup(order_id: str) -> dict:
    return {}

def plain():
    pass

support = Agent(name="Support", tools=[lookup, plain, missing])
triage = Agent(name="Triage", tools=[lookup], handoffs=[support])
other = Agent(name="Other", tools=make())
"#;

#[test]
fn tools_handoffs_and_gaps_are_read() {
    let graph = side(&[("agent.py", AGENT), ("broken.py", "def (:\n")]);
    assert_eq!(
        graph.sources,
        vec![("openai_agents_sdk".to_string(), "agent.py".to_string())]
    );
    let agents: Vec<_> = graph
        .agents
        .iter()
        .map(|a| (a.name.as_str(), a.location.as_str()))
        .collect();
    assert_eq!(
        agents,
        vec![
            ("other", "agent.py:12"),
            ("support", "agent.py:10"),
            ("triage", "agent.py:11")
        ]
    );
    let keys: Vec<_> = graph
        .bindings
        .iter()
        .map(|b| (b.agent.as_str(), b.tool_key.as_str()))
        .collect();
    assert_eq!(
        keys,
        vec![
            ("support", "lookup"),
            ("triage", "handoff:agent.py:support"),
            ("triage", "lookup")
        ]
    );
    let reasons: Vec<_> = graph.gaps.iter().map(|g| g.reason.as_str()).collect();
    assert_eq!(
            reasons,
            vec![
                "OpenAI Agents SDK agent 'other' at agent.py:12 has a tools list it does not read; its binding graph is incomplete. Not read: a call to `make`, whose result is not read (agent.py:12).",
                "OpenAI Agents SDK agent 'support' at agent.py:10 binds unresolved tool 'missing'. Not resolved because 'missing' is not bound at module level in agent.py.",
                "OpenAI Agents SDK agent 'support' at agent.py:10 binds unresolved tool 'plain'. Not resolved because it resolves to 'plain' at agent.py:7, which is not decorated with the SDK's @function_tool.",
                "Python input could not be parsed: broken.py",
            ]
        );
    assert!(graph
        .gaps
        .iter()
        .all(|g| g.affects == Affects::BindingPresence));
    match &graph.bindings[0].edge {
        Edge::Tool(def) => {
            assert_eq!(def.line, Some(4));
            assert_eq!(def.interface.signature, "lookup(order_id) -> dict");
        }
        other => panic!("expected a tool edge, got {other:?}"),
    }
}

#[test]
fn one_identity_built_at_two_sites_is_one_agent_only_when_both_bind_the_same() {
    const TOOLS: &str = "from agents import Agent, function_tool\n\n@function_tool\ndef a() -> str:\n    return 'a'\n\n@function_tool\ndef b() -> str:\n    return 'b'\n\n";
    let same = format!("{TOOLS}def quote(x):\n    if x:\n        return Agent(name='Quote', tools=[a])\n    return Agent(name='Quote', tools=[a])\n");
    let graph = side(&[("q.py", &same)]);
    assert!(graph.gaps.is_empty(), "{:?}", graph.gaps);
    assert_eq!(graph.bindings[0].construction_sites, vec![13, 14]);
    assert_eq!(graph.agents.len(), 1);
    let keys: Vec<_> = graph.bindings.iter().map(|b| b.tool_key.as_str()).collect();
    assert_eq!(keys, vec!["a"]);

    let different = format!("{TOOLS}def quote(x):\n    if x:\n        return Agent(name='Quote', tools=[a, b])\n    return Agent(name='Quote', tools=[a])\n");
    let graph = side(&[("q.py", &different)]);
    assert_eq!(
            graph.gaps[0].reason,
            "OpenAI Agents SDK agent 'Quote' is constructed more than once in q.py (lines 13, 14) with different tools or handoffs; which one runs is not established, and their tools are compared as one agent, each row naming the constructions that list its tool."
        );
    let keys: Vec<_> = graph.bindings.iter().map(|b| b.tool_key.as_str()).collect();
    assert_eq!(
        keys,
        vec!["a", "b"],
        "every tool any site binds is a binding, beside the limit"
    );
    let sites: Vec<_> = graph
        .bindings
        .iter()
        .map(|b| b.construction_sites.clone())
        .collect();
    assert_eq!(sites, vec![vec![13, 14], vec![]]);
}

/// Each module's names are held under its path once, in the order the
/// module gives them: assignments and imports, then literal `name=`s; a
/// module naming nothing is not listed.
#[test]
fn module_names_are_grouped_by_module() {
    let graph = side(&[
        ("agent.py", AGENT),
        ("empty.py", "def helper():\n    return 1\n"),
        (
            "wire.py",
            "import os\nfrom x import build\nbot = build(name=\"Bot\")\n",
        ),
    ]);
    let names: Vec<(&str, Vec<(&str, u32)>)> = graph
        .module_names
        .iter()
        .map(|module| {
            let names = module
                .names
                .iter()
                .map(|named| (named.name.as_str(), named.line))
                .collect();
            (module.path.as_str(), names)
        })
        .collect();
    assert_eq!(
        names,
        vec![
            (
                "agent.py",
                vec![
                    ("Agent", 1),
                    ("function_tool", 1),
                    ("support", 10),
                    ("triage", 11),
                    ("other", 12),
                    ("Support", 10),
                    ("Triage", 11),
                    ("Other", 12),
                ]
            ),
            (
                "wire.py",
                vec![("os", 1), ("build", 2), ("bot", 3), ("Bot", 3)]
            ),
        ]
    );
}

/// Issue 46, item 2: past the side's work budget, each agent not yet read
/// is a named limit (its rows `not_established`), never dropped.
#[test]
fn agents_past_the_work_budget_are_named_not_dropped() {
    let mut module = String::from(
        "from agents import Agent, function_tool\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n",
    );
    for i in 0..6 {
        module.push_str(&format!("a{i} = Agent(name=\"a{i}\", tools=[lookup])\n"));
    }
    let input = SideInput {
        scope: ".".into(),
        files: vec![SourceFile {
            path: "agents.py".into(),
            facts: Arc::new(extract_facts(module.as_bytes())),
        }],
        ..SideInput::default()
    };
    // Each agent costs 2 (itself and its one member): 7 pays for three.
    let (graph, _) = build(input, 7);
    let agents: Vec<&str> = graph.agents.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(agents, ["a0", "a1", "a2", "a3", "a4", "a5"]);
    let bound: Vec<&str> = graph.bindings.iter().map(|b| b.agent.as_str()).collect();
    assert_eq!(bound, ["a0", "a1", "a2"]);
    let stopped: Vec<(&str, &str)> = graph
        .gaps
        .iter()
        .filter_map(|gap| Some((gap.agent.as_deref()?, gap.reason.as_str())))
        .collect();
    assert_eq!(stopped.len(), 3, "{stopped:?}");
    for (i, (agent, reason)) in stopped.iter().enumerate() {
        assert_eq!(*agent, format!("a{}", i + 3));
        assert!(
            reason.ends_with("is not read: reading stopped when this side's graph work budget of 7 steps was spent (a bound against inputs built to exhaust the daemon); its tools, handoffs, MCP servers and sub-agents are not established."),
            "{reason}"
        );
    }
}
