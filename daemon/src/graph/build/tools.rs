//! SDK `tools=`, member by member: a function reference or
//! `function_tool(f)` followed to its definition (`follow.rs`), an object
//! (`object_members.rs`), or a tool a repository factory makes
//! (`adk_factories.rs`). Functions bind one row per tool name, in list
//! order; two different functions under one name bind neither.

use super::list_args::list_line;
use super::object_members::{Built, ObjectList, ReadObject};
use super::{adk_factories, eval::list_exprs, FollowedTool, ModuleReader, Ways, Wrap};
use crate::frameworks::openai::{self, AgentConstruction, ListMember};
use crate::graph::{AgentSettings, Binding, Edge, Field, Gap};
use crate::pyrepr::str_repr;
use crate::python::Value;
use std::collections::{BTreeMap, BTreeSet};

impl ModuleReader<'_, '_> {
    pub(super) fn read_tools(&mut self, agent: &str, construction: &AgentConstruction<'_>) {
        let Some(members) = self.list_of(agent, construction, "tools") else {
            return;
        };
        let line = list_line(construction, "tools");
        let mut followed: BTreeMap<String, Vec<FollowedTool>> = BTreeMap::new();
        let mut objects: Vec<ReadObject> = Vec::new();
        let mut order: Vec<String> = Vec::new();
        let mut ways = Ways::new();
        let read_some = list_exprs::any_read(&members);
        for (
            index,
            list_exprs::Member {
                member,
                scope,
                when,
                from,
                caller,
                rewired_at,
                frame,
                namespace,
            },
        ) in members.into_iter().enumerate()
        {
            if let ListMember::Unread(why) = &member {
                let reason = self.list_limit(agent, construction, "tools", why, read_some);
                self.agent_gap(agent, reason);
                continue;
            }
            let read = match from {
                Some(from) => self
                    .follow_foreign(agent, construction, &from, &scope, member)
                    .map(|tool| {
                        let name = tool.tool.clone();
                        followed.entry(name.clone()).or_default().push(tool);
                        name
                    }),
                // An object a called function builds is read in that
                // call's frame.
                None => self.with_frame(frame.clone(), |r| {
                    r.read_tool_member(
                        agent,
                        construction,
                        &scope,
                        line,
                        index,
                        member,
                        &mut followed,
                        &mut objects,
                    )
                }),
            };
            if let Some(name) = &read {
                if let Some(tool) = followed.get_mut(name).and_then(|tools| tools.last_mut()) {
                    self.fold_frame(agent, tool, frame.as_deref());
                    fold_namespace(tool, namespace.as_deref());
                }
                ways.add(
                    name.clone(),
                    &when,
                    caller.as_deref(),
                    rewired_at.as_deref(),
                );
            }
            order.extend(read);
        }
        self.record_order(agent, order);
        self.bind_functions(agent, construction, followed);
        self.bind_objects(agent, construction, line, objects);
        self.apply_ways(agent, &ways);
        self.finish_gates(agent, construction, false);
    }

    /// A tool made by a repository factory (`make_tool(...)`, inline or
    /// bound once): `None` when the call is no factory (the caller decides
    /// what it is), else the tool's name when it was bound.
    #[allow(clippy::too_many_arguments)]
    fn factory_tool(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        path: &str,
        scope: &str,
        call: &Value,
        spelled: &str,
        followed: &mut BTreeMap<String, Vec<FollowedTool>>,
    ) -> Option<Option<String>> {
        match self.read_factory(path, scope, call) {
            adk_factories::FactoryRead::Tool(tool, unnamed) => {
                self.name_unnamed(agent, &tool, &unnamed);
                let name = tool.tool.clone();
                followed.entry(name.clone()).or_default().push(*tool);
                Some(Some(name))
            }
            adk_factories::FactoryRead::Limit(why) => {
                self.unresolved_tool(agent, construction.line, spelled, &why);
                Some(None)
            }
            adk_factories::FactoryRead::Object { .. } => {
                let reason = self.dynamic(agent, construction.line, "tools");
                self.agent_gap(agent, reason);
                Some(None)
            }
            adk_factories::FactoryRead::NotAFactory => None,
        }
    }

    /// A member of a list another module binds, read by that module's
    /// names: a function reference, followed from there; anything else is
    /// not read (the agent is incomplete).
    pub(super) fn follow_foreign(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        from: &str,
        scope: &str,
        member: ListMember,
    ) -> Option<FollowedTool> {
        let (ListMember::Reference(reference), Some(key)) = (member, self.modules.key(from)) else {
            let reason = self.dynamic(agent, construction.line, "tools");
            self.agent_gap(agent, reason);
            return None;
        };
        self.resolve_from.set(Some(key));
        let tool = self.follow_tool(agent, construction, scope, &reference);
        self.resolve_from.set(None);
        tool
    }

    /// Reads one `tools=` member into the followed functions or the
    /// objects; the name it is bound under, if it was read.
    #[allow(clippy::too_many_arguments)]
    fn read_tool_member(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        scope: &str,
        line: u32,
        index: usize,
        member: ListMember,
        followed: &mut BTreeMap<String, Vec<FollowedTool>>,
        objects: &mut Vec<ReadObject>,
    ) -> Option<String> {
        match member {
            ListMember::Reference(reference) => {
                if let Some(built) = self.built_object(scope, &reference) {
                    match self.read_object(&built, ObjectList::Tools, index + 1) {
                        Ok(Some(object)) => {
                            let name = object.name.clone();
                            objects.push(object);
                            return Some(name);
                        }
                        Ok(None) => {
                            let spelled = reference.dotted().unwrap_or_default();
                            let path = built.path().to_string();
                            let factory_scope = built.scope().to_string();
                            let call = built.call().clone();
                            if let Some(read) = self.factory_tool(
                                agent,
                                construction,
                                &path,
                                &factory_scope,
                                &call,
                                &spelled,
                                followed,
                            ) {
                                return read;
                            }
                        }
                        Err(why) => {
                            let reason = self.object_limit(agent, construction.line, &why);
                            let spelled = crate::graph::schema::unparse(&reference);
                            self.unresolved_member(agent, Field::Tools, &spelled, reason);
                            return None;
                        }
                    }
                }
                if let Some(object) = self.imported_tool(scope, &reference) {
                    let name = object.name.clone();
                    objects.push(object);
                    return Some(name);
                }
                let tool = self.follow_tool(agent, construction, scope, &reference)?;
                let name = tool.tool.clone();
                followed.entry(name.clone()).or_default().push(tool);
                Some(name)
            }
            ListMember::Call(call) => match openai::function_tool_call(self.facts, &call, scope) {
                Some(wrapper) => {
                    let wrapped = wrapper.wrapped.clone();
                    let gates = self
                        .object_site(self.path, self.facts, scope)
                        .tool_gates(&wrapper.gate_keywords);
                    let wrap = Wrap {
                        name_override: wrapper.name_override,
                        unread_override: wrapper.unread_override.map(crate::graph::schema::unparse),
                        other_arguments: wrapper.other_arguments,
                        gates,
                    };
                    let tool =
                        self.follow_wrapped(agent, construction, scope, &wrapped, Some(wrap))?;
                    let name = tool.tool.clone();
                    followed.entry(name.clone()).or_default().push(tool);
                    Some(name)
                }
                None => {
                    let built = Built::inline(self.path, self.facts, scope, &call, line);
                    match self.read_object(&built, ObjectList::Tools, index + 1) {
                        Ok(Some(object)) => {
                            let name = object.name.clone();
                            objects.push(object);
                            Some(name)
                        }
                        Ok(None) => {
                            let spelled = super::messages::spelled_member(&call);
                            let path = self.path.to_string();
                            match self.factory_tool(
                                agent,
                                construction,
                                &path,
                                scope,
                                &call,
                                &spelled,
                                followed,
                            ) {
                                Some(read) => read,
                                None => {
                                    let reason = self.dynamic(agent, construction.line, "tools");
                                    self.unresolved_member(agent, Field::Tools, &spelled, reason);
                                    None
                                }
                            }
                        }
                        Err(why) => {
                            let reason = self.object_limit(agent, construction.line, &why);
                            let spelled = super::messages::spelled_member(&call);
                            self.unresolved_member(agent, Field::Tools, &spelled, reason);
                            None
                        }
                    }
                }
            },
            ListMember::Unread(_) => {
                let reason = self.dynamic(agent, construction.line, "tools");
                self.agent_gap(agent, reason);
                None
            }
        }
    }

    /// Keeps an agent's tool names in list order (its first construction).
    pub(super) fn record_order(&mut self, agent: &str, mut tools: Vec<String>) {
        // A union over a builder's callers lists a shared tool once per
        // call (and a list may repeat one): its place is where it first
        // appears.
        let mut seen = BTreeSet::new();
        tools.retain(|tool| seen.insert(tool.clone()));
        let known = self
            .agent_bindings
            .has_order(self.path, agent, &self.graph.tool_orders);
        if !known && !tools.is_empty() {
            self.graph.tool_orders.push(crate::graph::ToolOrder {
                agent_source: self.path.to_string(),
                agent: agent.to_string(),
                tools,
            });
        }
    }

    /// The functions an agent lists, one binding per tool name; two
    /// different functions under one name bind neither.
    pub(super) fn bind_functions(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        followed: BTreeMap<String, Vec<FollowedTool>>,
    ) {
        for (tool, mut definitions) in followed {
            let distinct: BTreeSet<(&str, Option<u32>)> = definitions
                .iter()
                .map(|d| (d.definition.source.as_str(), d.definition.line))
                .collect();
            if distinct.len() > 1 {
                // One agent, two functions under one name: it binds neither.
                let places: Vec<String> = distinct
                    .iter()
                    .map(|(source, line)| {
                        format!(
                            "{source}:{}",
                            line.map_or("?".to_string(), |l| l.to_string())
                        )
                    })
                    .collect();
                // Confined to that name: the agent's other tools stay compared
                // (the reference, 1.2.0, confines it to the agent only).
                let gap = Gap::agent(
                    self.path,
                    agent,
                    format!(
                        "{} binds two different functions named {} ({}); the model sees one tool name for both, so neither is resolved.",
                        self.who(agent, construction.line),
                        str_repr(&tool),
                                                places.join(" and ")
                    ),
                );
                // Which function is bound is not known; that a tool of
                // this name is, is (`Gap::member`).
                self.gaps.insert(Gap {
                    tool: Some(tool.clone()),
                    member: Some(tool.clone()),
                    ..gap
                });
                continue;
            }
            let Some(first) = definitions.drain(..).next() else {
                continue;
            };
            self.graph.bindings.push(Binding {
                agent: agent.to_string(),
                agent_source: self.path.to_string(),
                tool_key: tool.clone(),
                tool,
                binding_location: (self.path.to_string(), construction.line),
                edge: Edge::Tool(first.definition),
                settings: AgentSettings::UNSET,
                construction_sites: Vec::new(),
                bound_when: Vec::new(),
                callers: Vec::new(),
                rewired_at: Vec::new(),
                gates: first.gates,
            });
        }
    }
}

/// A tool listed through the SDK's `tool_namespace(...)` is a copy that
/// carries the namespace: its name and description join the digest, so
/// moving the tool to another namespace is a changed row.
fn fold_namespace(tool: &mut FollowedTool, namespace: Option<&str>) {
    let Some(namespace) = namespace else {
        return;
    };
    let own = tool
        .definition
        .implementation_sha256
        .clone()
        .unwrap_or_default();
    tool.definition.implementation_sha256 = Some(crate::python::ast_dump::sha256_of_json_string(
        &format!("{own}|tool_namespace:{namespace}"),
    ));
}
