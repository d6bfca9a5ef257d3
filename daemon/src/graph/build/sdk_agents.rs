//! The OpenAI Agents SDK pass over one module: each `Agent(...)`
//! construction is an agent by its identity (one built at several sites is
//! read as one, `sites.rs`), with its `tools=`, `handoffs=` and
//! `mcp_servers=` read field by field and its settings (`tool_use_behavior`,
//! `tool_choice`) attached to its bindings. A clone of an agent is an agent
//! of its own that inherits what it does not pass.

use super::{sites, ModuleReader};
use crate::frameworks::openai::{self, AgentConstruction};
use crate::graph::{AgentEntry, AgentSettings, Binding, Edge, Field, Gap, Setting};
use crate::pyrepr::{str_repr, tuple_repr};
use std::collections::{BTreeMap, BTreeSet};

/// Two constructions' settings: what they agree on, the rest uncertain.
fn agree(a: &AgentSettings, b: &AgentSettings) -> AgentSettings {
    let one = |x: &Setting, y: &Setting| {
        if x == y {
            x.clone()
        } else {
            Setting::Uncertain(
                "the agent is constructed more than once with different settings".into(),
            )
        }
    };
    AgentSettings {
        tool_use_behavior: one(&a.tool_use_behavior, &b.tool_use_behavior),
        tool_choice: one(&a.tool_choice, &b.tool_choice),
    }
}

impl ModuleReader<'_, '_> {
    /// Reads the SDK agents of one module into the graph.
    pub(super) fn read(&mut self) {
        let context = self.context();
        let names = &context.names;
        let constructions = openai::agent_constructions(self.facts, self.path, context);
        let built = self.sdk_factory_agents(&constructions);
        self.name_unread_wrappers(constructions.iter().map(|c| (c.call, c.identity.clone())));
        let mut settings: BTreeMap<String, AgentSettings> = BTreeMap::new();
        let mut groups: BTreeMap<&str, Vec<&AgentConstruction<'_>>> = BTreeMap::new();
        for (construction, built) in constructions.iter().zip(built) {
            // One agent per call of the factory that returns it.
            if let Some(agents) = built {
                for agent in &agents {
                    self.read_factory_agent(agent, |r| r.read_site(&agent.name, construction));
                    settings.insert(
                        agent.name.clone(),
                        openai::agent_settings(
                            self.facts,
                            construction.call,
                            &AgentSettings::UNSET,
                        ),
                    );
                }
                continue;
            }
            groups
                .entry(construction.identity.as_str())
                .or_default()
                .push(construction);
        }
        for (identity, sites) in groups {
            // A cancelled read stops here; the engine drops what was built.
            if crate::work::cancelled() {
                return;
            }
            let Some(first) = sites.first() else { continue };
            self.graph.agents.push(AgentEntry {
                source: self.path.to_string(),
                name: identity.to_string(),
                location: format!("{}:{}", self.path, first.line),
                variable: None,
            });
            if !self.budget.pays_for(sites.iter().map(|site| site.call)) {
                let limit = self.budget.limit(&self.who(identity, first.line));
                self.agent_gap(identity, limit);
                continue;
            }
            if let [only] = sites.as_slice() {
                self.read_site(identity, only);
            } else {
                self.read_sites(identity, &sites);
            }
        }
        for construction in &constructions {
            let read = openai::agent_settings(self.facts, construction.call, &AgentSettings::UNSET);
            match settings.get_mut(&construction.identity) {
                // Conflicting constructions keep their settings uncertain.
                Some(known) => *known = agree(known, &read),
                None => {
                    settings.insert(construction.identity.clone(), read);
                }
            }
        }
        for (source, clone) in
            openai::clone_constructions(self.facts, self.path, &constructions, names)
        {
            self.read_clone(&source, &clone);
            let inherited = settings
                .get(&source)
                .cloned()
                .unwrap_or(AgentSettings::UNSET);
            settings.insert(
                clone.identity.clone(),
                openai::agent_settings(self.facts, clone.call, &inherited),
            );
        }
        for binding in &mut self.graph.bindings {
            if binding.agent_source != self.path {
                continue;
            }
            if let Some(read) = settings.get(&binding.agent) {
                binding.settings = read.clone();
            }
        }
    }

    /// A clone is an agent of its own: what it passes is read like a
    /// construction's, and what it omits it inherits from its source.
    fn read_clone(&mut self, source: &str, clone: &AgentConstruction<'_>) {
        let identity = clone.identity.as_str();
        if self
            .graph
            .agents
            .iter()
            .any(|a| a.source == self.path && a.name == identity)
        {
            return self.agent_gap(
                identity,
                format!(
                    "Ambiguous agent identity: {}",
                    tuple_repr(&[self.path, identity])
                ),
            );
        }
        self.graph.agents.push(AgentEntry {
            source: self.path.to_string(),
            name: identity.to_string(),
            location: format!("{}:{}", self.path, clone.line),
            variable: None,
        });
        if source == openai::UNKNOWN_ORIGINAL {
            // What it inherits is not read: a limit on each field it does
            // not pass, and the fields it passes read as a construction's.
            for (field, keyword) in [
                (Field::Tools, "tools"),
                (Field::Handoffs, "handoffs"),
                (Field::McpServers, "mcp_servers"),
            ] {
                if clone.call.keyword(keyword).is_none() {
                    self.gaps.insert(Gap {
                        field: Some(field),
                        ..Gap::agent(
                            self.path,
                            identity,
                            format!(
                                "{} is a copy of what a call returns; the {keyword} it inherits from that original are not read.",
                                self.who(identity, clone.line)
                            ),
                        )
                    });
                }
            }
        }
        let inherited: Vec<Binding> = self
            .graph
            .bindings
            .iter()
            .filter(|b| b.agent_source == self.path && b.agent == source)
            .filter(|b| {
                let field = match &b.edge {
                    Edge::Handoff { .. } => "handoffs",
                    Edge::Object(object)
                        if object.identity.kind
                            == Some(crate::graph::objects::ObjectKind::McpServer) =>
                    {
                        "mcp_servers"
                    }
                    _ => "tools",
                };
                clone.call.keyword(field).is_none()
            })
            .map(|b| Binding {
                agent: identity.to_string(),
                binding_location: (self.path.to_string(), clone.line),
                ..b.clone()
            })
            .collect();
        self.graph.bindings.extend(inherited);
        // The source's own limits travel with what the clone inherits.
        let inherited_gaps: Vec<Gap> = self
            .gaps
            .iter()
            .filter(|g| {
                g.source.as_deref() == Some(self.path) && g.agent.as_deref() == Some(source)
            })
            .map(|g| Gap {
                agent: Some(identity.to_string()),
                ..g.clone()
            })
            .collect();
        self.gaps.extend(inherited_gaps);
        if let Some(tools) = clone.call.keyword("tools") {
            self.read_field(Field::Tools, clone, |r| {
                match openai::clone_name_filter(clone.call, &tools.value) {
                    Some(name) => r.read_clone_filter(source, identity, clone, &name),
                    None => r.read_tools(identity, clone),
                }
            });
        }
        if clone.call.keyword("handoffs").is_some() {
            self.read_field(Field::Handoffs, clone, |r| r.read_handoffs(identity, clone));
        }
        self.read_field(Field::McpServers, clone, |r| {
            r.read_mcp_servers(identity, clone)
        });
        if clone.call.keywords.iter().any(|k| k.name.is_none()) {
            self.read_unpacking(identity, clone);
        }
    }

    /// `clone(tools=[t for t in source.tools if t.name == "read"])`: the
    /// source's function tool of that name, when the reader established
    /// one. An object tool's display name is not its runtime name, so a
    /// filter naming one (or naming nothing established) stays unread.
    fn read_clone_filter(
        &mut self,
        source: &str,
        identity: &str,
        clone: &AgentConstruction<'_>,
        name: &str,
    ) {
        let selected: Vec<Binding> = self
            .graph
            .bindings
            .iter()
            .filter(|b| b.agent_source == self.path && b.agent == source && b.tool == name)
            .cloned()
            .collect();
        match selected.as_slice() {
            [binding] if matches!(binding.edge, Edge::Tool(_)) => {
                self.graph.bindings.push(Binding {
                    agent: identity.to_string(),
                    binding_location: (self.path.to_string(), clone.line),
                    ..binding.clone()
                });
            }
            _ => {
                let reason = format!(
                    "{} keeps the tools of {} named {}, which is not a function tool this reader established; its binding graph is incomplete.",
                        self.who(identity, clone.line),
                    str_repr(source),
                    str_repr(name)
                );
                self.agent_gap(identity, reason);
            }
        }
    }

    /// Everything one construction binds, recorded into the graph.
    fn read_site(&mut self, identity: &str, construction: &AgentConstruction<'_>) {
        self.read_field(Field::Tools, construction, |r| {
            r.read_tools(identity, construction)
        });
        self.read_field(Field::Handoffs, construction, |r| {
            r.read_handoffs(identity, construction)
        });
        self.read_field(Field::McpServers, construction, |r| {
            r.read_mcp_servers(identity, construction)
        });
        self.read_unpacking(identity, construction);
    }

    /// One identity built at several sites (two `return Agent(name="Quote")`
    /// branches), read as one agent (`sites.rs`): every tool any site
    /// binds is a binding, and when the sites differ which one runs is a
    /// named limit beside the rows.
    fn read_sites(&mut self, identity: &str, sites: &[&AgentConstruction<'_>]) {
        let mut reads = Vec::new();
        for site in sites {
            let bindings_before = self.graph.bindings.len();
            let gaps_before = self.gaps.clone();
            self.read_site(identity, site);
            let bindings = self.graph.bindings.split_off(bindings_before);
            let gaps: BTreeSet<Gap> = self.gaps.difference(&gaps_before).cloned().collect();
            *self.gaps = gaps_before;
            reads.push(sites::SiteRead {
                line: site.line,
                bindings,
                gaps,
            });
        }
        let merged = sites::merge_sites(reads);
        self.gaps.extend(merged.gaps);
        self.graph.bindings.extend(merged.bindings);
        if !merged.identical {
            let lines: Vec<String> = sites.iter().map(|s| s.line.to_string()).collect();
            self.gaps.insert(Gap::agent(
                self.path,
                identity,
                format!(
                    "OpenAI Agents SDK agent {} is constructed more than once in {} (lines {}) with different tools or handoffs; which one runs is not established, and their tools are compared as one agent, each row naming the constructions that list its tool.",
                    str_repr(identity),
                    self.path,
                    lines.join(", ")
                ),
            ));
        }
    }

    /// `**` unpacking, or positional arguments after the name, can carry
    /// tools or handoffs the reader does not see.
    pub(super) fn read_unpacking(&mut self, agent: &str, construction: &AgentConstruction<'_>) {
        if let Some(what) = super::passes_unnamed(construction.call) {
            self.agent_gap(
                agent,
                format!(
                    "{} passes {what}, which can carry tools or handoffs; its binding graph is incomplete.",
                        self.who(agent, construction.line),
                ),
            );
        }
    }
}
