//! The Google ADK pass over one module: each `Agent(...)`/`LlmAgent(...)`
//! (and workflow agent) construction is an agent identified by its literal
//! `name=`, with its `tools=` (functions, `FunctionTool` wrappers, agent
//! tools, MCP toolsets, built-ins) and `sub_agents=` read member by member.
//! Anything else is a named limit on that agent.

use super::adk_factories::FactoryRead;
use super::object_members::{Built, ReadObject};
use super::{FollowedTool, Framework, ModuleReader, Wrap};
use crate::frameworks::adk::{self, AdkName};
use crate::frameworks::openai::{AgentConstruction, ListMember};
use crate::graph::objects::{ObjectIdentity, ObjectKind, ObjectTool};
use crate::graph::{AgentEntry, Edge, Field, Gap};
use crate::pyrepr::str_repr;
use crate::python::Value;
use crate::resolve::{Resolver, Target};
use std::collections::{BTreeMap, BTreeSet};

impl ModuleReader<'_, '_> {
    pub(super) fn read_adk(&mut self) {
        debug_assert_eq!(self.framework, Framework::Adk);
        let constructions = adk::agent_constructions(self.facts, self.context());
        let built = self.adk_factory_agents(&constructions);
        self.name_unread_wrappers(
            constructions
                .iter()
                .map(|c| (c.call, adk::identity(self.facts, c, self.path))),
        );
        let mut groups: BTreeMap<String, Vec<(AgentConstruction<'_>, AdkName)>> = BTreeMap::new();
        for (construction, built) in constructions.iter().zip(built) {
            // One agent per call of the factory that returns it.
            if let Some(agents) = built {
                for agent in &agents {
                    let site = AgentConstruction {
                        identity: agent.name.clone(),
                        line: construction.line,
                        call: construction.call,
                    };
                    self.read_factory_agent(agent, |r| {
                        r.read_adk_site(&agent.name, &site, construction.kind)
                    });
                }
                continue;
            }
            let identity = adk::identity(self.facts, construction, self.path);
            groups.entry(identity.clone()).or_default().push((
                AgentConstruction {
                    identity,
                    line: construction.line,
                    call: construction.call,
                },
                construction.kind,
            ));
        }
        for (identity, sites) in groups {
            // A cancelled read stops here; the engine drops what was built.
            if crate::work::cancelled() {
                return;
            }
            let Some((first, _)) = sites.first() else {
                continue;
            };
            // One site bound at module level to a plain variable, named
            // by its literal `name=`: the variable pairs it across a
            // rename.
            let variable = match sites.as_slice() {
                [(only, _)] if only.call.scope.is_empty() => only
                    .call
                    .assigned_to
                    .as_deref()
                    .filter(|v| !v.contains('.') && *v != only.identity)
                    .map(str::to_string),
                _ => None,
            };
            self.graph.agents.push(AgentEntry {
                source: self.path.to_string(),
                name: identity.clone(),
                location: format!("{}:{}", self.path, first.line),
                variable,
            });
            if !self
                .budget
                .pays_for(sites.iter().map(|(site, _)| site.call))
            {
                let limit = self.budget.limit(&self.who(&identity, first.line));
                self.agent_gap(&identity, limit);
                continue;
            }
            if let [(only, kind)] = sites.as_slice() {
                self.read_adk_site(&identity, only, *kind);
            } else {
                self.read_adk_sites(&identity, &sites);
            }
        }
    }

    fn read_adk_site(
        &mut self,
        identity: &str,
        construction: &AgentConstruction<'_>,
        kind: AdkName,
    ) {
        if kind == AdkName::LlmAgent {
            self.read_field(Field::Tools, construction, |r| {
                r.read_adk_tools(identity, construction)
            });
        }
        if matches!(kind, AdkName::LlmAgent | AdkName::WorkflowAgent(_)) {
            self.read_field(Field::SubAgents, construction, |r| {
                r.read_sub_agents(identity, construction)
            });
        }
        self.read_unpacking(identity, construction);
    }

    /// One agent name built at several sites: every binding any site lists,
    /// each naming the sites that list it; when the sites differ (or one
    /// did not read cleanly), which one runs is not established, a named
    /// limit on the agent.
    fn read_adk_sites(&mut self, identity: &str, sites: &[(AgentConstruction<'_>, AdkName)]) {
        let mut reads = Vec::new();
        for (site, kind) in sites {
            let bindings_before = self.graph.bindings.len();
            let gaps_before = self.gaps.clone();
            self.read_adk_site(identity, site, *kind);
            let bindings = self.graph.bindings.split_off(bindings_before);
            let gaps: BTreeSet<Gap> = self.gaps.difference(&gaps_before).cloned().collect();
            *self.gaps = gaps_before;
            reads.push(super::sites::SiteRead {
                line: site.line,
                bindings,
                gaps,
            });
        }
        let merged = super::sites::merge_sites(reads);
        let identical = merged.identical;
        self.gaps.extend(merged.gaps);
        self.graph.bindings.extend(merged.bindings);
        if !identical {
            let lines: Vec<String> = sites.iter().map(|(s, _)| s.line.to_string()).collect();
            self.gaps.insert(Gap::agent(
                self.path,
                identity,
                "A possibly reachable tool has an incomplete binding edge; provide a complete static graph or reviewed declaration.".to_string(),
            ));
            self.gaps.insert(Gap::agent(
                self.path,
                identity,
                format!(
                    "Google ADK agent {} is constructed more than once in {} (lines {}); which one runs is not established, and their tools are compared as one agent, each row naming the constructions that list its tool.",
                    str_repr(identity),
                    self.path,
                    lines.join(", ")
                ),
            ));
        }
    }

    fn read_adk_tools(&mut self, agent: &str, construction: &AgentConstruction<'_>) {
        let Some(members) = self.list_of(agent, construction, "tools") else {
            return;
        };
        let line = construction.line;
        let mut followed: BTreeMap<String, Vec<FollowedTool>> = BTreeMap::new();
        let mut objects: Vec<ReadObject> = Vec::new();
        let mut order: Vec<String> = Vec::new();
        let mut ways = super::Ways::new();
        let read_some = super::eval::list_exprs::any_read(&members);
        for (
            index,
            super::eval::list_exprs::Member {
                member,
                scope,
                when,
                from,
                caller,
                rewired_at,
                frame,
                namespace: _,
            },
        ) in members.into_iter().enumerate()
        {
            if let ListMember::Unread(why) = &member {
                let reason = self.list_limit(agent, construction, "tools", why, read_some);
                self.agent_gap(agent, reason);
                continue;
            }
            if let Some(from) = from {
                if let Some(mut tool) =
                    self.follow_foreign(agent, construction, &from, &scope, member)
                {
                    self.fold_frame(agent, &mut tool, frame.as_deref());
                    ways.add(
                        tool.tool.clone(),
                        &when,
                        caller.as_deref(),
                        rewired_at.as_deref(),
                    );
                    order.push(tool.tool.clone());
                    followed.entry(tool.tool.clone()).or_default().push(tool);
                }
                continue;
            }
            let position = index + 1;
            let objects_before = objects.len();
            let outcome = match &member {
                ListMember::Reference(reference) => {
                    match adk::adk_value(self.facts, reference, &scope) {
                        Some(AdkName::BuiltIn(name)) => {
                            Outcome::Object(built_in(name, self.path, line))
                        }
                        _ => match self.built_object(&scope, reference) {
                            Some(built) => self.read_built(
                                agent,
                                construction,
                                &built,
                                &super::messages::spelled_member(reference),
                                position,
                            ),
                            None => Outcome::FollowReference,
                        },
                    }
                }
                ListMember::Call(call) => {
                    let built = Built::inline(self.path, self.facts, &scope, call, line);
                    match self.read_built(
                        agent,
                        construction,
                        &built,
                        &super::messages::spelled_member(call),
                        position,
                    ) {
                        Outcome::FollowReference => Outcome::Gap(self.tool_expression(agent)),
                        other => other,
                    }
                }
                ListMember::Unread(_) => Outcome::FollowReference,
            };
            let tool = match (outcome, &member) {
                (Outcome::Function(tool), _) => tool,
                (Outcome::Object(object), _) => {
                    objects.push(object);
                    None
                }
                (
                    Outcome::Gap(reason),
                    ListMember::Reference(listed) | ListMember::Call(listed),
                ) => {
                    let listed = super::messages::spelled_member(listed);
                    self.unresolved_member(agent, crate::graph::Field::Tools, &listed, reason);
                    None
                }
                (Outcome::Gap(reason), ListMember::Unread(_)) => {
                    self.agent_gap(agent, reason);
                    None
                }
                (Outcome::FollowReference, ListMember::Reference(reference)) => {
                    match self.imported_tool(&scope, reference) {
                        Some(object) => {
                            objects.push(object);
                            None
                        }
                        None => self.follow_tool(agent, construction, &scope, reference),
                    }
                }
                (Outcome::FollowReference, _) => None,
            };
            if let Some(mut tool) = tool {
                self.fold_frame(agent, &mut tool, frame.as_deref());
                ways.add(
                    tool.tool.clone(),
                    &when,
                    caller.as_deref(),
                    rewired_at.as_deref(),
                );
                order.push(tool.tool.clone());
                followed.entry(tool.tool.clone()).or_default().push(tool);
            } else if objects.len() > objects_before {
                if let Some(object) = objects.last() {
                    ways.add(
                        object.name.clone(),
                        &when,
                        caller.as_deref(),
                        rewired_at.as_deref(),
                    );
                    order.push(object.name.clone());
                }
            }
        }
        self.record_order(agent, order);
        self.bind_functions(agent, construction, followed);
        self.bind_objects(agent, construction, line, objects);
        self.apply_ways(agent, &ways);
        self.finish_gates(agent, construction, true);
    }

    /// A listed constructor call (inline, or the one a listed name is bound
    /// to): a wrapped function, an object, a factory's tool or a helper's
    /// object, or a named limit.
    fn read_built(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        built: &Built<'_>,
        listed_as: &str,
        position: usize,
    ) -> Outcome {
        match self.adk_member(agent, construction, built, position) {
            AdkMember::Object(object) => Outcome::Object(*object),
            // A wrapper another module binds is followed from the listed
            // name, through that module (its import path recorded).
            AdkMember::Function(..) if built.path() != self.path => Outcome::FollowReference,
            AdkMember::Function(wrapped, wrap, scope) => Outcome::Function(self.follow_wrapped(
                agent,
                construction,
                &scope,
                &wrapped,
                Some(wrap),
            )),
            AdkMember::Limit(why) => Outcome::Gap(why),
            AdkMember::Other => {
                match self.read_factory(built.path(), built.scope(), built.call()) {
                    FactoryRead::Tool(tool, unnamed) => {
                        self.name_unnamed(agent, &tool, &unnamed);
                        Outcome::Function(Some(*tool))
                    }
                    FactoryRead::Object {
                        path,
                        scope,
                        call,
                        line,
                    } => match self.helper_object(
                        agent,
                        construction,
                        &path,
                        &scope,
                        &call,
                        line,
                        listed_as,
                        position,
                    ) {
                        AdkMember::Object(object) => Outcome::Object(*object),
                        AdkMember::Limit(why) => Outcome::Gap(why),
                        _ => Outcome::Gap(self.tool_expression(agent)),
                    },
                    FactoryRead::Limit(why) => {
                        Outcome::Gap(self.unresolved(agent, construction.line, listed_as, &why))
                    }
                    FactoryRead::NotAFactory => Outcome::FollowReference,
                }
            }
        }
    }

    /// A factory's arguments this read cannot name: the tool stays bound,
    /// and a change to it is not established.
    pub(super) fn name_unnamed(&mut self, agent: &str, tool: &FollowedTool, unnamed: &[String]) {
        if unnamed.is_empty() {
            return;
        }
        let reference = tool
            .definition
            .import_path
            .as_ref()
            .map_or(tool.tool.as_str(), |p| p.reference.as_str());
        self.gaps.insert(Gap {
            tool: Some(tool.tool.clone()),
            affects: crate::graph::Affects::Implementation,
            ..Gap::agent(
                self.path,
                agent,
                format!(
                    "{} binds {} from {reference}, whose arguments {} are not values this read names; a change to them is not established.",
                    self.who(agent, self.reading_line.get()),
                    str_repr(&tool.tool),
                    unnamed.join(", ")
                ),
            )
        });
    }

    /// An object a repository helper builds and returns, read where it is
    /// built; its row goes by the name it is listed under (a variable) or
    /// the helper call (`create_toolset()`).
    #[allow(clippy::too_many_arguments)]
    fn helper_object(
        &self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        path: &str,
        scope: &str,
        call: &Value,
        line: u32,
        listed_as: &str,
        position: usize,
    ) -> AdkMember {
        let Some(facts) = self.modules.facts(path) else {
            return AdkMember::Other;
        };
        let built = Built::inline(path, facts, scope, call, line);
        match self.adk_member(agent, construction, &built, position) {
            AdkMember::Object(mut object) => {
                if object.object.identity.kind == Some(ObjectKind::McpServer) {
                    object.name = listed_as.to_string();
                }
                AdkMember::Object(object)
            }
            other => other,
        }
    }

    fn tool_expression(&self, agent: &str) -> String {
        format!(
            "Google ADK agent {} has a tool expression that could not be statically resolved.",
            str_repr(agent)
        )
    }

    /// What a constructor call listed in `tools=` is: a wrapped function, an
    /// agent tool, a toolset, or something else.
    fn adk_member(
        &self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        built: &Built<'_>,
        position: usize,
    ) -> AdkMember {
        let Value::Call {
            callee,
            args,
            keywords,
        } = built.call()
        else {
            return AdkMember::Other;
        };
        let facts = built.facts();
        match adk::adk_value(facts, callee, built.scope()) {
            Some(AdkName::FunctionWrapper(_)) => {
                match adk::function_wrapper_call(facts, built.call(), built.scope()) {
                    Some(call) => AdkMember::Function(
                        call.wrapped.clone(),
                        Wrap {
                            name_override: None,
                            unread_override: None,
                            other_arguments: call.other_arguments,
                            gates: self
                                .object_site(built.path(), facts, built.scope())
                                .tool_gates(&call.gate_keywords),
                        },
                        built.scope().to_string(),
                    ),
                    None => AdkMember::Limit(self.tool_expression(agent)),
                }
            }
            Some(AdkName::AgentTool) => {
                let placed =
                    crate::frameworks::arguments::place("google.adk.AgentTool", args, keywords);
                if !placed.known("agent") {
                    return AdkMember::Limit(why_on(
                        agent,
                        construction,
                        "binds an AgentTool whose agent argument this reader cannot place",
                    ));
                }
                match placed.get("agent").map(|w| self.adk_agent_tool(built, w)) {
                    Some(Ok(object)) => AdkMember::Object(Box::new(object)),
                    Some(Err(why)) => AdkMember::Limit(why_on(agent, construction, &why)),
                    None => AdkMember::Limit(why_on(
                        agent,
                        construction,
                        "binds an AgentTool without an agent",
                    )),
                }
            }
            Some(AdkName::Toolset(class)) => {
                let site = self
                    .object_site(built.path(), facts, built.scope())
                    .at_line(built.line());
                let mut object = site.adk_toolset(class, args, keywords);
                object.built_at = (built.path().to_string(), built.line());
                object.gates = site.object_gates(class, args, keywords);
                let name = built
                    .variable()
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("{class}#{position}"));
                AdkMember::Object(Box::new(ReadObject { name, object }))
            }
            // A tool or toolset the package ships: its class and a digest
            // of its arguments, as a hosted tool's; a toolset's row is
            // named like an MCP toolset's.
            Some(kind @ (AdkName::ShippedTool(class) | AdkName::ShippedToolset(class))) => {
                let site = self
                    .object_site(built.path(), facts, built.scope())
                    .at_line(built.line());
                let mut object =
                    site.hosted_tool(&format!("google.adk.{class}"), class, args, keywords);
                object.built_at = (built.path().to_string(), built.line());
                object.reaches = site.shipped_reach(callee, keywords);
                object.gates = site.object_gates(class, args, keywords);
                if let Some(variable) = built.variable() {
                    object
                        .unread
                        .extend(super::object_members::changed_after(built, variable));
                }
                let toolset = matches!(kind, AdkName::ShippedToolset(_));
                let name = match (toolset, built.variable()) {
                    (false, _) => match wrapped_identity(class, args, keywords) {
                        Ok(name) => name,
                        Err(why) => return AdkMember::Limit(why_on(agent, construction, &why)),
                    },
                    (true, Some(variable)) => variable.to_string(),
                    (true, None) => format!("{class}#{position}"),
                };
                AdkMember::Object(Box::new(ReadObject { name, object }))
            }
            _ => match self.repository_tool_class(built) {
                Some(Ok(object)) => AdkMember::Object(Box::new(object)),
                Some(Err(why)) => AdkMember::Limit(why_on(agent, construction, &why)),
                None => AdkMember::Other,
            },
        }
    }

    /// `AgentTool(agent=x)`: the wrapped agent (identified by its literal
    /// name), the tool name (the agent's name, as ADK names it) and the
    /// agent's class when it is not an LLM agent.
    fn adk_agent_tool(&self, built: &Built<'_>, wrapped: &Value) -> Result<ReadObject, String> {
        let spelled = crate::graph::schema::unparse(wrapped);
        let (path, target) = self
            .adk_agent_at(built.path(), built.scope(), wrapped, None)
            .map_err(|why| format!("binds AgentTool({spelled}), whose agent is not one this reader identifies: {why}"))?;
        let Some(name) = target.0 else {
            return Err(format!(
                "binds AgentTool({spelled}), whose agent has no literal name"
            ));
        };
        let object = ObjectTool {
            identity: ObjectIdentity {
                kind: Some(ObjectKind::AgentTool),
                class: "AgentTool".to_string(),
                agent: Some(name.clone()),
                agent_source: Some(path.clone()),
                tool_name: Some(name.clone()),
                arguments: match target.1 {
                    AdkName::LlmAgent => Vec::new(),
                    AdkName::WorkflowAgent(class) => vec![format!("agent_class={class}")],
                    _ => vec!["agent_class=RemoteA2aAgent".to_string()],
                },
                ..Default::default()
            },
            unread: Vec::new(),
            built_at: (built.path().to_string(), built.line()),
            description: None,
            reaches: None,
            gates: Vec::new(),
        };
        Ok(ReadObject { name, object })
    }

    /// The ADK agent a reference names: a construction bound once to that
    /// name in the module the reference reaches, or one written inline.
    /// Returns the module and the agent's (literal name, kind).
    fn adk_agent_at(
        &self,
        path: &str,
        scope: &str,
        reference: &Value,
        read_line: Option<u32>,
    ) -> Result<(String, (Option<String>, AdkName)), String> {
        // An instance's agent (`instance_agents.rs`).
        if let Some(held) = self.instance_agent(path, scope, reference) {
            let held = held?;
            let facts = self
                .modules
                .facts(held.path)
                .ok_or("the module is not read")?;
            let kind =
                match adk::adk_value(facts, &held.construction.callee, &held.construction.scope) {
                    Some(kind @ (AdkName::LlmAgent | AdkName::WorkflowAgent(_))) => kind,
                    _ => return Err(format!("`{}` is not an ADK agent", held.name)),
                };
            return Ok((held.path.to_string(), (Some(held.name), kind)));
        }
        // A builder's call, or a function's local (`eval::built_agents`).
        if let Some(built) = self.built_agent(path, scope, reference)? {
            return Ok((built.path.to_string(), self.adk_built(&built)?));
        }
        if let Value::Call { .. } = reference {
            let facts = self.modules.facts(path).ok_or("the module is not read")?;
            return adk::agent_constructions(facts, self.contexts.of(path))
                .into_iter()
                .find(|c| {
                    let Value::Call { callee, .. } = reference else {
                        return false;
                    };
                    c.call.callee == **callee && same_call(c.call, reference)
                })
                .map(|c| (path.to_string(), (c.name, c.kind)))
                .ok_or_else(|| "it is not an agent construction".to_string());
        }
        let key = self.modules.key(path).ok_or("the module is not read")?;
        let mut resolver = match read_line {
            Some(line) => Resolver::new(self.modules).reading_at(key, line),
            None => Resolver::new(self.modules),
        };
        let found = resolver.resolve(key, scope, reference)?;
        let Target::Value { path, name, line } = found.target else {
            return Err(format!(
                "{} is not an agent",
                str_repr(&crate::graph::schema::unparse(reference))
            ));
        };
        let facts = self.modules.facts(path).ok_or("the module is not read")?;
        let sites: Vec<_> = adk::agent_constructions(facts, self.contexts.of(path))
            .into_iter()
            .filter(|c| {
                c.call.assigned_to.as_deref() == Some(name.as_str()) && c.call.scope.is_empty()
            })
            .collect();
        match sites.as_slice() {
            [only] if only.line >= line => Ok((path.to_string(), (only.name.clone(), only.kind))),
            [] => match self.factory_agent_bound(path, &name, line) {
                Some((factory_path, agent)) => {
                    Ok((factory_path.to_string(), (Some(agent), AdkName::LlmAgent)))
                }
                None => Err(format!(
                    "{} in {path}:{line} is not an agent this reader identifies",
                    str_repr(&name)
                )),
            },
            _ => Err(format!(
                "{} in {path}:{line} is not an agent this reader identifies",
                str_repr(&name)
            )),
        }
    }

    /// `sub_agents=`, member by member: a row per agent the reader
    /// identifies, in this module or another one.
    fn read_sub_agents(&mut self, agent: &str, construction: &AgentConstruction<'_>) {
        let Some(members) = self.list_of(agent, construction, "sub_agents") else {
            return;
        };
        let mut ways = super::Ways::new();
        let read_some = super::eval::list_exprs::any_read(&members);
        for super::eval::list_exprs::Member {
            member,
            scope,
            when,
            from,
            caller,
            rewired_at,
            frame: _,
            namespace: _,
        } in members
        {
            let value = match member {
                ListMember::Reference(value) | ListMember::Call(value) => value,
                ListMember::Unread(why) => {
                    let reason =
                        self.list_limit(agent, construction, "sub_agents", &why, read_some);
                    self.agent_gap(agent, reason);
                    continue;
                }
            };
            let start = from.as_deref().unwrap_or(self.path).to_string();
            // Listed in the construction itself, at module level: read at
            // its line (a rewire reads at its own, a builder's caller in
            // its call).
            let read_line = (from.is_none()
                && rewired_at.is_none()
                && caller.is_none()
                && scope.is_empty()
                && construction.call.scope.is_empty())
            .then_some(construction.line);
            match self.adk_agent_at(&start, &scope, &value, read_line) {
                Ok((path, (Some(name), _))) => {
                    let edge = Edge::SubAgent {
                        target_source: path.clone(),
                    };
                    let key = self.bind_agent_edge(agent, construction.line, &path, name, edge);
                    ways.add(key, &when, caller.as_deref(), rewired_at.as_deref());
                }
                Ok((_, (None, _))) => self.agent_gap(
                    agent,
                    format!(
                        "Google ADK agent {} has sub-agents that were not statically named.",
                        str_repr(agent)
                    ),
                ),
                Err(why) => {
                    let spelled = crate::graph::schema::unparse(&value);
                    let reason = format!(
                        "Google ADK agent {} hands off to {spelled}, which this scan could not match to an agent definition; that sub-agent's tools were not analyzed. Not resolved because {why}.",
                        str_repr(agent)
                    );
                    self.unresolved_member(agent, crate::graph::Field::SubAgents, &spelled, reason);
                }
            }
        }
        self.apply_ways(agent, &ways);
    }
}

/// What reading one `tools=` member gave.
enum Outcome {
    /// A function tool (`None` when following it recorded a limit).
    Function(Option<FollowedTool>),
    Object(ReadObject),
    Gap(String),
    /// Not a constructor this reader knows: follow the listed name.
    FollowReference,
}

/// What one `tools=` member of an ADK agent is.
enum AdkMember {
    Object(Box<ReadObject>),
    /// A wrapped function: the reference, the wrapper, the scope to read
    /// the reference in.
    Function(Value, Wrap, String),
    Limit(String),
    Other,
}

/// Shipped tool classes that wrap another library's tool, and the
/// parameter that takes it: the wrapped tool is what the model calls, so it
/// is part of the binding's identity.
const WRAPPER_TOOLS: &[(&str, &str)] = &[("CrewaiTool", "tool"), ("LangchainTool", "tool")];

/// A shipped tool's row name: its class, or for a wrapper the class and
/// what it wraps (`LangchainTool(WikipediaQueryRun)`), so two different
/// wrapped tools are a removal and an addition, never one `changed` row.
/// A wrapped argument the reader cannot name is a limit.
fn wrapped_identity(
    class: &str,
    args: &[Value],
    keywords: &[(Option<crate::python::Text>, Value)],
) -> Result<String, String> {
    let Some((_, parameter)) = WRAPPER_TOOLS.iter().find(|(c, _)| *c == class) else {
        return Ok(class.to_string());
    };
    let placed =
        crate::frameworks::arguments::place(&format!("google.adk.{class}"), args, keywords);
    let wrapped = match placed.get(parameter) {
        Some(Value::Call { callee, .. }) => callee.dotted(),
        Some(reference @ (Value::Name(_) | Value::Attribute(_))) => reference.dotted(),
        _ => None,
    };
    match wrapped {
        Some(dotted) if placed.known(parameter) => {
            let last = dotted.rsplit('.').next().unwrap_or(&dotted).to_string();
            Ok(format!("{class}({last})"))
        }
        _ => Err(format!(
            "binds {class}(...), whose wrapped tool ({parameter}=) this reader cannot name"
        )),
    }
}

fn why_on(agent: &str, construction: &AgentConstruction<'_>, why: &str) -> String {
    let _ = construction;
    format!("Google ADK agent {} {why}.", str_repr(agent))
}

/// A built-in tool by import identity: a row of its own name.
fn built_in(name: &str, path: &str, line: u32) -> ReadObject {
    ReadObject {
        name: name.to_string(),
        object: ObjectTool {
            identity: ObjectIdentity {
                kind: Some(ObjectKind::HostedTool),
                class: name.to_string(),
                ..Default::default()
            },
            unread: Vec::new(),
            built_at: (path.to_string(), line),
            description: None,
            reaches: None,
            gates: Vec::new(),
        },
    }
}

/// Whether a recorded construction is the call a list spells inline.
fn same_call(call: &crate::python::CallFact, value: &Value) -> bool {
    let Value::Call { args, keywords, .. } = value else {
        return false;
    };
    call.args[..] == args[..]
        && call.keywords.len() == keywords.len()
        && call
            .keywords
            .iter()
            .zip(keywords)
            .all(|(k, (name, value))| k.name == *name && k.value == *value)
}
