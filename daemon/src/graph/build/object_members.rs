//! List members that are objects, not functions: hosted tools, agents as
//! tools (`tools=`) and MCP servers (`mcp_servers=`). Recognition is by
//! import identity (`frameworks::openai::object_class`); what each object
//! is comes from `graph::objects`. Here: where the object is built, what
//! its row is called, and what stays a named limit.

use super::ModuleReader;
use crate::frameworks::arguments;
use crate::frameworks::openai::{self, AgentConstruction, ObjectClass};
use crate::graph::objects::{ObjectKind, ObjectSite, ObjectTool, UnreadPart};
use crate::graph::{Affects, Binding, Edge, Gap};
use crate::pyrepr::str_repr;
use crate::python::{BindingKind, ModuleFacts, Text, Value};
use crate::resolve::{Resolver, Target};

/// Where a listed object's constructor call is written.
pub(super) struct Built<'v> {
    path: String,
    facts: &'v ModuleFacts,
    /// The function the call is written in; empty at module level.
    scope: String,
    call: &'v Value,
    line: u32,
    /// The name it is bound to, when listed through one.
    variable: Option<String>,
}

impl<'v> Built<'v> {
    /// A constructor call written in the list itself.
    pub(super) fn inline(
        path: &str,
        facts: &'v ModuleFacts,
        scope: &str,
        call: &'v Value,
        line: u32,
    ) -> Self {
        Built {
            path: path.to_string(),
            facts,
            scope: scope.to_string(),
            call,
            line,
            variable: None,
        }
    }
}

impl<'v> Built<'v> {
    pub(super) fn call(&self) -> &'v Value {
        self.call
    }
    pub(super) fn facts(&self) -> &'v ModuleFacts {
        self.facts
    }
    pub(super) fn scope(&self) -> &str {
        &self.scope
    }
    pub(super) fn path(&self) -> &str {
        &self.path
    }
    pub(super) fn line(&self) -> u32 {
        self.line
    }
    pub(super) fn variable(&self) -> Option<&str> {
        self.variable.as_deref()
    }
}

/// An object read for one agent, with the name its row goes by.
pub(super) struct ReadObject {
    pub name: String,
    pub object: ObjectTool,
}

/// Which list the member came from: only `mcp_servers=` holds MCP servers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ObjectList {
    Tools,
    McpServers,
}

impl<'r> ModuleReader<'r, '_> {
    /// The object a listed name holds, when it names one built by a call:
    /// a `with … as name` or single assignment in the construction's
    /// function, else a module-level binding reached through the resolver.
    /// `None` when the name does not hold a constructor call.
    pub(super) fn built_object(&self, scope: &str, reference: &Value) -> Option<Built<'r>> {
        if let Value::Name(name) = reference {
            let mut current = scope;
            while !current.is_empty() {
                let function = self.facts.functions.iter().find(|f| f.qualname == current);
                if let Some(function) = function {
                    let locals: Vec<_> = function.locals_named(name).collect();
                    if !locals.is_empty() {
                        let [binding] = locals.as_slice() else {
                            return None;
                        };
                        let once = !binding.conditional
                            || crate::resolve::runs_once_per_call(self.facts, current, binding);
                        if !once
                            || !matches!(binding.kind, BindingKind::With | BindingKind::Assignment)
                        {
                            return None;
                        }
                        let call = binding.value.as_ref()?;
                        return matches!(call, Value::Call { .. }).then(|| Built {
                            path: self.path.to_string(),
                            facts: self.facts,
                            scope: current.to_string(),
                            call,
                            line: binding.line,
                            variable: Some(name.to_string()),
                        });
                    }
                }
                current = current.rsplit_once('.').map_or("", |(parent, _)| parent);
            }
        }
        let mut resolver = Resolver::new(self.modules);
        let found = resolver.resolve(self.path, scope, reference).ok()?;
        let Target::Value { path, name, line } = found.target else {
            return None;
        };
        let facts = self.modules.facts(path)?;
        let call = facts
            .module_bindings_named(&name)
            .find(|b| b.name == name && b.line == line && b.kind == BindingKind::Assignment)?
            .value
            .as_ref()?;
        matches!(call, Value::Call { .. }).then(|| Built {
            path: path.to_string(),
            facts,
            scope: String::new(),
            call,
            line,
            variable: Some(name),
        })
    }

    /// Where an object is built, as the object reader reads it: in a
    /// called function's body (this reader's frame), a parameter the
    /// function never rebinds holds what the call passes, when that is a
    /// literal (or a name the call's site binds once to one).
    pub(super) fn object_site<'s>(
        &'s self,
        path: &str,
        facts: &'s ModuleFacts,
        scope: &str,
    ) -> ObjectSite<'s, 's> {
        let path = self.modules.key(path).unwrap_or(self.path);
        let mut params = std::collections::BTreeMap::new();
        if let Some(frame) = self.frame_of(scope).filter(|f| f.path == path) {
            for argument in &frame.args {
                if self.frame_argument(scope, &argument.param).is_none() {
                    continue;
                }
                let (Some(arg_path), Some(arg_facts)) = (
                    self.modules.key(&argument.path),
                    self.modules.facts(&argument.path),
                ) else {
                    continue;
                };
                let caller = ObjectSite {
                    modules: self.modules,
                    path: arg_path,
                    facts: arg_facts,
                    scope: argument.scope.clone(),
                    params: Default::default(),
                    line: None,
                };
                if let Some(value) = caller.literal(&argument.value) {
                    params.insert(argument.param.clone(), value);
                }
            }
        }
        ObjectSite {
            modules: self.modules,
            path,
            facts,
            scope: scope.to_string(),
            params,
            line: None,
        }
    }

    /// Reads one object member of `agent`'s list. `Ok(None)` when the call
    /// is not an object this reader knows (the caller names it); `Err`
    /// with a reason when it is one but cannot be bound.
    pub(super) fn read_object(
        &self,
        built: &Built<'_>,
        list: ObjectList,
        position: usize,
    ) -> Result<Option<ReadObject>, String> {
        let Value::Call {
            callee,
            args,
            keywords,
        } = built.call
        else {
            return Ok(None);
        };
        let site = self
            .object_site(&built.path, built.facts, &built.scope)
            .at_line(built.line);
        let (name, mut object) = match openai::object_class(built.facts, callee, &built.scope) {
            Some(ObjectClass::Hosted(class)) if list == ObjectList::Tools => {
                let mut object =
                    site.hosted_tool(&format!("agents.{class}"), class, args, keywords);
                object.reaches = site.shipped_reach(callee, keywords);
                object.gates = site.object_gates(class, args, keywords);
                (class.to_string(), object)
            }
            Some(ObjectClass::McpServer { class, transport }) if list == ObjectList::McpServers => {
                let object = site.mcp_server(class, transport, args, keywords);
                // `name` by the SDK's signature: `MCPServerStdio(params,
                // True, "fs")` names the server as `name="fs"` does.
                let placed = arguments::place(&format!("agents.{class}"), args, keywords);
                let name = match placed.get("name") {
                    Some(Value::Str(name)) => name.to_string(),
                    _ => built
                        .variable
                        .clone()
                        .unwrap_or_else(|| format!("{class}#{position}")),
                };
                (name, object)
            }
            Some(ObjectClass::Hosted(class) | ObjectClass::McpServer { class, .. }) => {
                let (what, field) = match list {
                    ObjectList::Tools => ("MCP server", "mcp_servers="),
                    ObjectList::McpServers => ("hosted tool", "tools="),
                };
                return Err(format!(
                    "lists the {what} {class} outside {field}, where the SDK does not read it"
                ));
            }
            None => match openai::as_tool_receiver(callee) {
                Some(receiver) if list == ObjectList::Tools => {
                    // `as_tool(needs_approval=…, is_enabled=…)` gates the
                    // call as a function tool's keywords do.
                    let (name, mut object) =
                        self.agent_tool(&site, built, &receiver, args, keywords)?;
                    object.gates = site.tool_gates(&openai::gate_keywords(keywords));
                    (name, object)
                }
                // An instance of a repository tool class
                // (`tool_classes.rs`), read whole there.
                None if list == ObjectList::Tools => {
                    return match self.repository_tool_class(built) {
                        Some(Ok(object)) => Ok(Some(object)),
                        Some(Err(why)) => Err(why),
                        None => Ok(None),
                    };
                }
                _ => return Ok(None),
            },
        };
        object.built_at = (built.path.clone(), built.line);
        if let Some(variable) = &built.variable {
            object.unread.extend(changed_after(built, variable));
        }
        Ok(Some(ReadObject { name, object }))
    }

    /// `receiver.as_tool(tool_name=…)`: the wrapped agent and the tool name.
    fn agent_tool(
        &self,
        site: &ObjectSite<'_, '_>,
        built: &Built<'_>,
        receiver: &Value,
        args: &[Value],
        keywords: &[(Option<Text>, Value)],
    ) -> Result<(String, ObjectTool), String> {
        let spelled = receiver.dotted().unwrap_or_default();
        // Arguments by the SDK's signature: `as_tool("search", "…")` names
        // the tool `search`; one no parameter takes may be any of them.
        let placed = arguments::place("agents.Agent.as_tool", args, keywords);
        if !placed.unplaced.is_empty() || placed.spread {
            return Err(format!(
                "binds {spelled}.as_tool(...), which passes arguments this reader cannot place on the SDK's parameters"
            ));
        }
        let not_identified = || {
            format!(
                "binds {spelled}.as_tool(...), whose receiver {} is not an agent this reader identifies",
                str_repr(&spelled)
            )
        };
        // A local agent of the function or a builder's call first
        // (`pricing = Agent(...)` in `main()`, `eval::built_agents`),
        // else the receiver as the resolver follows it.
        let (path, name) = match self.sdk_built_reference(site.path, &built.scope, receiver) {
            Some(built) => built.map_err(|why| format!("{}: {why}", not_identified()))?,
            None => {
                let mut resolver = Resolver::new(self.modules);
                let found = resolver
                    .resolve(site.path, &built.scope, receiver)
                    .map_err(|why| format!("{}: {why}", not_identified()))?;
                let Target::Value { path, name, .. } = found.target else {
                    return Err(not_identified());
                };
                if !self.is_single_agent(path, &name) {
                    return Err(not_identified());
                }
                (path.to_string(), name)
            }
        };
        let path = path.as_str();
        let literal = |key: &str| placed.get(key);
        let tool_name = match literal("tool_name") {
            Some(Value::Str(tool_name)) => tool_name.to_string(),
            None | Some(Value::None) => {
                // The SDK names the tool after the agent's own name.
                let agent_name = self
                    .contexts
                    .sdk_identity(path, &name)
                    .and_then(|identity| identity.literal_name.clone())
                    .ok_or_else(|| {
                        format!(
                            "binds {spelled}.as_tool() without tool_name=, and the agent's name is not a literal"
                        )
                    })?;
                openai::default_as_tool_name(&agent_name)
            }
            // A string constant (`tool_name=REFUND_TOOL`, `names.REFUND`)
            // read as `name=` is (`eval::name_constants`).
            Some(other) => super::eval::name_constants::constant_string_at(
                self.modules,
                self.contexts.census_cell(),
                site.path,
                &built.scope,
                other,
                built.line,
            )
            .ok_or_else(|| {
                format!("binds {spelled}.as_tool(...), whose tool_name is not a literal or a constant this reader names")
            })?,
        };
        let description = match literal("tool_description") {
            Some(Value::Str(text)) => Some(text.clone()),
            _ => None,
        };
        let object = ObjectTool {
            identity: crate::graph::objects::ObjectIdentity {
                kind: Some(ObjectKind::AgentTool),
                class: "as_tool".to_string(),
                agent: Some(name),
                agent_source: Some(path.to_string()),
                tool_name: Some(tool_name.clone()),
                ..Default::default()
            },
            unread: Vec::new(),
            built_at: (String::new(), 0),
            description: description.map(Into::into),
            reaches: None,
            gates: Vec::new(),
        };
        Ok((tool_name, object))
    }

    /// Records objects read for `agent`: a binding each, a limit for each
    /// part of its identity not read, and a limit for a name bound twice.
    pub(super) fn bind_objects(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        line: u32,
        mut objects: Vec<ReadObject>,
    ) {
        // One object listed through several calls (a builder every caller
        // hands the same server) is one binding.
        let mut distinct: Vec<ReadObject> = Vec::new();
        for read in objects.drain(..) {
            if !distinct
                .iter()
                .any(|d| d.name == read.name && d.object == read.object)
            {
                distinct.push(read);
            }
        }
        let objects = distinct;
        let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
        for read in &objects {
            *seen.entry(read.name.clone()).or_default() += 1;
        }
        for ReadObject { name, mut object } in objects {
            let taken = self
                .graph
                .bindings
                .iter()
                .any(|b| b.agent_source == self.path && b.agent == agent && b.tool_key == name);
            if seen.get(&name).copied().unwrap_or(0) > 1 || taken {
                let gap = Gap::agent(
                    self.path,
                    agent,
                    format!(
                        "{} binds more than one tool named {}; the model sees one tool name for them, so none is resolved.",
                        self.who(agent, construction.line),
                        str_repr(&name)
                    ),
                );
                self.gaps.insert(Gap {
                    tool: Some(name.clone()),
                    ..gap
                });
                let path = self.path;
                self.retain_bindings(|b| {
                    !(b.agent_source == path && b.agent == agent && b.tool_key == name)
                });
                continue;
            }
            for UnreadPart { part, spelled } in &object.unread {
                let what = describe(&object);
                self.gaps.insert(Gap {
                    tool: Some(name.clone()),
                    affects: Affects::Implementation,
                    ..Gap::agent(
                        self.path,
                        agent,
                        format!(
                            "{} binds {what} {}, whose {part} is not read ({spelled}); a change to it is not established.",
                        self.who(agent, construction.line),
                            str_repr(&name)
                        ),
                    )
                });
            }
            self.graph.bindings.push(Binding {
                agent: agent.to_string(),
                agent_source: self.path.to_string(),
                tool_key: name.clone(),
                tool: name,
                binding_location: (self.path.to_string(), line),
                gates: std::mem::take(&mut object.gates),
                edge: Edge::Object(object),
                settings: crate::graph::AgentSettings::UNSET,
                construction_sites: Vec::new(),
                bound_when: Vec::new(),
                callers: Vec::new(),
                rewired_at: Vec::new(),
            });
        }
    }
}

fn describe(object: &ObjectTool) -> &'static str {
    match object.identity.kind {
        Some(ObjectKind::McpServer) => "the MCP server",
        Some(ObjectKind::AgentTool) => "the agent tool",
        Some(ObjectKind::Imported) => "the imported tool",
        _ => "the hosted tool",
    }
}

/// Writes into the object after it is built (`server.tool_filter = …`,
/// `toolset.tool_filter.append(…)`): its identity is not what the
/// constructor says.
pub(super) fn changed_after(built: &Built<'_>, variable: &str) -> Vec<UnreadPart> {
    built
        .facts
        .attribute_stores
        .iter()
        .filter(|store| store.target.first().map(Text::as_str) == Some(variable))
        .filter(|store| {
            // A local object is changed only by its own function (or one
            // nested in it); a module-level one by any.
            built.scope.is_empty()
                || store.scope == built.scope
                || store.scope.starts_with(&format!("{}.", built.scope))
        })
        .map(|store| UnreadPart {
            part: "state after it is built".to_string(),
            spelled: format!(
                "{} {} at {}:{}",
                store.target.join("."),
                store.how.describe(),
                built.path,
                store.line
            ),
        })
        .collect()
}
