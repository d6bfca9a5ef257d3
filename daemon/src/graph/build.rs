//! Building one side's graph from the facts of the scope's modules.

use super::schema::interface;
use super::{AgentEntry, Binding, Edge, Gap, SideGraph, ToolDefinition};
use crate::frameworks::openai::{self, AgentConstruction, ListArgument, ListMember};
use crate::frameworks::OPENAI_AGENTS_SDK;
use crate::pyrepr::{str_repr, tuple_repr};
use crate::python::{BindingKind, ModuleFacts};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// One module of the scope with its (cached) facts.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Scope-relative path.
    pub path: String,
    pub facts: Arc<ModuleFacts>,
}

/// Everything one side's graph is built from.
#[derive(Debug, Clone, Default)]
pub struct SideInput {
    pub absent: bool,
    pub files: Vec<SourceFile>,
    /// Gaps found before reading (bounds, links, submodules).
    pub gaps: Vec<Gap>,
    pub limits: Vec<String>,
    pub excluded_tests: Vec<String>,
    /// `(path, blob id)` of every Python file listed.
    pub files_listed: Vec<(String, String)>,
    pub gitlinks: Vec<(String, String)>,
}

/// Builds the side's agent graph.
pub fn build_side(input: SideInput) -> SideGraph {
    let mut graph = SideGraph {
        absent: input.absent,
        limits: input.limits,
        excluded_tests: input.excluded_tests,
        files: input.files_listed,
        gitlinks: input.gitlinks,
        ..SideGraph::default()
    };
    let mut gaps: BTreeSet<Gap> = input.gaps.into_iter().collect();
    for file in &input.files {
        if file.facts.syntax_error.is_some() {
            gaps.insert(Gap::file(
                &file.path,
                format!("Python input could not be parsed: {}", file.path),
            ));
            continue;
        }
        if openai::is_sdk_source(&file.facts) {
            graph
                .sources
                .push((OPENAI_AGENTS_SDK.to_string(), file.path.clone()));
            ModuleReader {
                path: &file.path,
                facts: &file.facts,
                graph: &mut graph,
                gaps: &mut gaps,
            }
            .read();
        }
    }
    graph.sources.sort();
    graph.agents.sort();
    graph.bindings.sort_by(|a, b| {
        (&a.agent_source, &a.agent, &a.tool_key).cmp(&(&b.agent_source, &b.agent, &b.tool_key))
    });
    graph.gaps = gaps.into_iter().collect();
    graph
}

/// Reads the SDK agents of one module into the graph.
struct ModuleReader<'a> {
    path: &'a str,
    facts: &'a ModuleFacts,
    graph: &'a mut SideGraph,
    gaps: &'a mut BTreeSet<Gap>,
}

impl ModuleReader<'_> {
    fn read(&mut self) {
        let constructions = openai::agent_constructions(self.facts);
        let mut sites: BTreeMap<&str, usize> = BTreeMap::new();
        for construction in &constructions {
            if let Some(identity) = &construction.identity {
                *sites.entry(identity.as_str()).or_default() += 1;
            }
        }
        for construction in &constructions {
            let Some(identity) = construction.identity.as_deref() else {
                self.gaps.insert(Gap::file(
                    self.path,
                    format!(
                        "OpenAI Agents SDK agent at {}:{} has no literal name, so it cannot be identified; its tools are not read.",
                        self.path, construction.line
                    ),
                ));
                continue;
            };
            self.graph.agents.push(AgentEntry {
                source: self.path.to_string(),
                name: identity.to_string(),
                location: format!("{}:{}", self.path, construction.line),
            });
            if sites.get(identity).copied().unwrap_or(0) > 1 {
                self.gaps.insert(Gap::agent(
                    self.path,
                    identity,
                    format!(
                        "Ambiguous agent identity: {}",
                        tuple_repr(&[self.path, identity])
                    ),
                ));
                continue;
            }
            self.read_tools(identity, construction);
            self.read_handoffs(identity, construction, &sites);
        }
    }

    fn agent_gap(&mut self, agent: &str, reason: String) {
        self.gaps.insert(Gap::agent(self.path, agent, reason));
    }

    fn read_tools(&mut self, agent: &str, construction: &AgentConstruction<'_>) {
        let members = match openai::list_argument(construction.call, "tools") {
            ListArgument::Absent => return,
            ListArgument::Members(members) => members,
            ListArgument::Dynamic => {
                return self.agent_gap(agent, self.dynamic(agent, construction.line, "tools"));
            }
        };
        for member in members {
            match member {
                ListMember::Name(name) => self.bind_tool(agent, construction.line, &name),
                ListMember::Unread(_) => {
                    self.agent_gap(agent, self.dynamic(agent, construction.line, "tools"));
                }
            }
        }
    }

    fn dynamic(&self, agent: &str, line: u32, list: &str) -> String {
        format!(
            "OpenAI Agents SDK agent {} at {}:{line} uses a dynamic {list} expression; its binding graph is incomplete.",
            str_repr(agent),
            self.path
        )
    }

    /// Follows a listed name to its module-level `@function_tool` definition.
    fn bind_tool(&mut self, agent: &str, line: u32, name: &str) {
        let unresolved = |why: String| {
            format!(
                "OpenAI Agents SDK agent {} at {}:{line} binds unresolved tool {}: {why}",
                str_repr(agent),
                self.path,
                str_repr(name)
            )
        };
        let bindings: Vec<_> = self
            .facts
            .module_bindings
            .iter()
            .filter(|b| b.name == name)
            .collect();
        let Some(first) = bindings.first() else {
            let why = format!(
                "{} is not bound at module level in {}.",
                str_repr(name),
                self.path
            );
            return self.agent_gap(agent, unresolved(why));
        };
        if bindings.iter().all(|b| b.kind == BindingKind::Function) && bindings.len() > 1 {
            self.gaps.insert(Gap {
                tool: Some(name.to_string()),
                ..Gap::file(
                    self.path,
                    format!(
                        "{} defines the tool {} more than once; which definition an agent binds is not established.",
                        self.path,
                        str_repr(name)
                    ),
                )
            });
            return;
        }
        if bindings.len() > 1 || first.conditional {
            let why = format!(
                "{} is bound more than once or only conditionally at module level in {}, so which value the agent binds is not established.",
                str_repr(name),
                self.path
            );
            return self.agent_gap(agent, unresolved(why));
        }
        if first.kind == BindingKind::Import {
            let why = format!(
                "it is imported at {}:{}, and tools imported from other modules are not followed by this reader.",
                self.path, first.line
            );
            return self.agent_gap(agent, unresolved(why));
        }
        let function = self
            .facts
            .functions
            .iter()
            .find(|f| f.module_level && f.name == name);
        let Some(function) = function.filter(|_| first.kind == BindingKind::Function) else {
            let why = format!(
                "{} at {}:{} is not a function definition this reader follows.",
                str_repr(name),
                self.path,
                first.line
            );
            return self.agent_gap(agent, unresolved(why));
        };
        let Some(tool) = openai::function_tool_name(self.facts, function) else {
            let why = format!(
                "it resolves to {} at {}:{}, which is not decorated with the SDK's @function_tool.",
                str_repr(name),
                self.path,
                function.line
            );
            return self.agent_gap(agent, unresolved(why));
        };
        self.graph.bindings.push(Binding {
            agent: agent.to_string(),
            agent_source: self.path.to_string(),
            tool_key: tool.clone(),
            binding_location: (self.path.to_string(), line),
            edge: Edge::Tool(ToolDefinition {
                source: self.path.to_string(),
                line: Some(function.line),
                implementation_sha256: Some(function.implementation_sha256.clone()),
                interface: interface(&tool, function),
            }),
            tool,
        });
    }

    /// Handoffs to agents constructed in the same module, by their identity.
    fn read_handoffs(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        sites: &BTreeMap<&str, usize>,
    ) {
        let members = match openai::list_argument(construction.call, "handoffs") {
            ListArgument::Absent => return,
            ListArgument::Members(members) => members,
            ListArgument::Dynamic => {
                return self.agent_gap(agent, self.dynamic(agent, construction.line, "handoffs"));
            }
        };
        for member in members {
            match member {
                ListMember::Name(target) if sites.get(target.as_str()) == Some(&1) => {
                    self.graph.bindings.push(Binding {
                        agent: agent.to_string(),
                        agent_source: self.path.to_string(),
                        tool_key: format!("handoff:{}:{target}", self.path),
                        tool: target.clone(),
                        binding_location: (self.path.to_string(), construction.line),
                        edge: Edge::Handoff {
                            target_source: self.path.to_string(),
                        },
                    });
                }
                _ => self.agent_gap(agent, self.dynamic(agent, construction.line, "handoffs")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Affects;
    use crate::python::extract_facts;

    fn side(files: &[(&str, &str)]) -> SideGraph {
        build_side(SideInput {
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
                "OpenAI Agents SDK agent 'other' at agent.py:12 uses a dynamic tools expression; its binding graph is incomplete.",
                "OpenAI Agents SDK agent 'support' at agent.py:10 binds unresolved tool 'missing': 'missing' is not bound at module level in agent.py.",
                "OpenAI Agents SDK agent 'support' at agent.py:10 binds unresolved tool 'plain': it resolves to 'plain' at agent.py:7, which is not decorated with the SDK's @function_tool.",
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
    fn one_identity_built_twice_is_ambiguous() {
        let graph = side(&[(
            "a.py",
            "from agents import Agent\nx = Agent(name='a', tools=[])\nx = Agent(name='b', tools=[])\n",
        )]);
        assert!(graph.bindings.is_empty());
        assert_eq!(
            graph.gaps[0].reason,
            "Ambiguous agent identity: ('a.py', 'x')"
        );
    }
}
