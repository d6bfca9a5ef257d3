//! Following a listed reference to the function it names, across the
//! scope's modules (`resolve/`), and through a `name = function_tool(f)`
//! binding or an inline wrapper to the wrapped function. The definition's
//! row carries its import path; a chain that code outside the read could
//! rebind is a stop or a named caveat (`chains.rs`).

use super::chains::{outside_code, reassignment};
use super::{FollowedTool, Framework, ModuleReader, Wrap};
use crate::frameworks::openai::{self, AgentConstruction};
use crate::graph::schema::interface;
use crate::graph::{Gap, ToolDefinition};
use crate::pyrepr::str_repr;
use crate::python::Value;
use crate::resolve::{ImportStep, Resolver, Target};

impl ModuleReader<'_, '_> {
    /// Follows a listed reference to its `@function_tool` definition, or
    /// records why it cannot be followed.
    pub(super) fn follow_tool(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        scope: &str,
        reference: &Value,
    ) -> Option<FollowedTool> {
        self.follow_wrapped(agent, construction, scope, reference, None)
    }

    /// Follows a reference, and through a `name = function_tool(f)` binding
    /// (or an inline `function_tool(f)`) to the wrapped function: the row is
    /// the function's, as for a decorated one.
    pub(super) fn follow_wrapped(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        scope: &str,
        reference: &Value,
        mut wrap: Option<Wrap>,
    ) -> Option<FollowedTool> {
        let start = self.resolve_from.get().unwrap_or(self.path);
        let spelled = crate::graph::schema::unparse(reference);
        let (reference, applied) = match self.applied_decorators(start, scope, reference) {
            Ok(peeled) => peeled,
            Err(why) => {
                self.unresolved_tool(agent, construction.line, &spelled, &why);
                return None;
            }
        };
        let mut resolver = Resolver::new(self.modules);
        let resolved = resolver.resolve(start, scope, reference);
        let mut found = match resolved {
            Ok(found) => found,
            Err(why) => {
                self.unresolved_tool(agent, construction.line, &spelled, &why);
                return None;
            }
        };
        // Decorators a `name = function_tool(safe(f))` binding applies.
        let mut bound_applied = Vec::new();
        if let (Target::Value { path, name, line }, None) = (&found.target, &wrap) {
            let wrapper = self.modules.facts(path).and_then(|facts| {
                let value = facts
                    .module_bindings_named(name)
                    .find(|b| b.name == *name && b.line == *line)?
                    .value
                    .as_ref()?;
                self.wrapper_call(facts, value, "")
            });
            if let Some(wrapper) = wrapper {
                let (path, name, line) = (*path, name.clone(), *line);
                let mut inner = Resolver::new(self.modules);
                let wrapped = match self.applied_decorators(path, "", wrapper.wrapped) {
                    Ok((wrapped, parts)) => {
                        bound_applied = parts;
                        wrapped
                    }
                    Err(why) => {
                        self.unresolved_tool(agent, construction.line, &spelled, &why);
                        return None;
                    }
                };
                match inner.resolve(path, "", wrapped) {
                    Ok(next) => {
                        let mut steps = std::mem::take(&mut found.steps);
                        steps.push(ImportStep {
                            path: path.to_string(),
                            line: Some(line),
                            name,
                            sha256: self
                                .modules
                                .facts(path)
                                .map(|f| f.source_sha256.clone())
                                .unwrap_or_default()
                                .to_string(),
                            binding: "value".to_string(),
                            lazy_submodule: false,
                        });
                        steps.extend(next.steps);
                        found = crate::resolve::Resolved {
                            target: next.target,
                            steps,
                        };
                        let gates = match self.modules.facts(path) {
                            Some(facts) => self
                                .object_site(path, facts, "")
                                .tool_gates(&wrapper.gate_keywords),
                            None => Vec::new(),
                        };
                        wrap = Some(Wrap {
                            name_override: wrapper.name_override,
                            unread_override: wrapper
                                .unread_override
                                .map(crate::graph::schema::unparse),
                            other_arguments: wrapper.other_arguments,
                            gates,
                        });
                    }
                    Err(why) => {
                        self.unresolved_tool(agent, construction.line, &spelled, &why);
                        return None;
                    }
                }
            }
        }
        let (def_path, function) = match found.target {
            Target::Function { path, function } => (path, function),
            Target::Module(_) => {
                let why = format!("{} is a module, not a function", str_repr(&spelled));
                self.unresolved_tool(agent, construction.line, &spelled, &why);
                return None;
            }
            Target::External { dotted } => {
                let why = format!("{} is not defined in the tree", str_repr(&dotted));
                self.unresolved_tool(agent, construction.line, &spelled, &why);
                return None;
            }
            Target::Value { path, name, line } => {
                let why = format!(
                    "{} in {path}:{line} is assigned a value, not a function definition",
                    str_repr(&name)
                );
                self.unresolved_tool(agent, construction.line, &spelled, &why);
                return None;
            }
        };
        let def_facts = self.modules.facts(def_path)?;
        // An ADK tool is any function; the SDK's must carry @function_tool.
        let decorated = match self.framework {
            Framework::OpenAi => openai::function_tool_name(def_facts, function),
            Framework::Adk => Some(function.name.to_string()),
        };
        let tool = match &wrap {
            Some(wrap) => Some(
                wrap.name_override
                    .clone()
                    .or(decorated)
                    .unwrap_or_else(|| function.name.to_string()),
            ),
            None => decorated,
        };
        let Some(tool) = tool else {
            let why = format!(
                "it resolves to {} at {def_path}:{}, which is not decorated with the SDK's @function_tool",
                str_repr(&function.name),
                function.line
            );
            self.unresolved_tool(agent, construction.line, &spelled, &why);
            return None;
        };
        // A decorator of the repository's own is read through, or named.
        let decorators = match self.tool_decorators(def_path, def_facts, function) {
            Ok(parts) => [applied, bound_applied, parts].concat(),
            Err(why) => {
                self.unresolved_tool(agent, construction.line, &spelled, &why);
                return None;
            }
        };
        if let Some(why) = reassignment(self.modules, &found.steps) {
            self.unresolved_tool(agent, construction.line, &spelled, &why);
            return None;
        }
        // Only a chain through other modules can be rebound by code outside
        // the read (the reference reads a same-module definition as is).
        let through_modules = found.steps.iter().any(|step| step.path != self.path);
        let caveats = if through_modules {
            outside_code(self.modules, &found.steps)
        } else {
            Vec::new()
        };
        // What leaves the tool open though its definition is read: code
        // the read cannot see runs first and could rebind it, or a
        // `name_override=` not read leaves the name the model sees open.
        // Either is a limit on this tool of this agent.
        let unread_override = match &wrap {
            Some(wrap) => wrap.unread_override.clone(),
            None => None,
        }
        .or_else(|| match self.framework {
            Framework::OpenAi => {
                openai::unread_name_override(def_facts, function).map(crate::graph::schema::unparse)
            }
            Framework::Adk => None,
        });
        let open = [
            caveats.first().map(|first| {
                format!("but {first}; the definition read for it is not established as the one bound.")
            }),
            unread_override.map(|spelled| {
                format!("whose name_override is not read ({spelled}); the name the model sees is not established.")
            }),
        ];
        for why in open.into_iter().flatten() {
            self.gaps.insert(Gap {
                tool: Some(tool.clone()),
                ..Gap::agent(
                    self.path,
                    agent,
                    format!(
                        "{} binds {} ({def_path}:{}), {why}",
                        self.who(agent, construction.line),
                        str_repr(&tool),
                        function.line
                    ),
                )
            });
        }
        let crosses_modules = through_modules;
        let digest = match wrap.as_ref().filter(|w| !w.other_arguments.is_empty()) {
            // The wrapper's other arguments are part of the tool.
            Some(wrap) => crate::python::ast_dump::sha256_of_json_string(&format!(
                "{}|function_tool:{}",
                function.implementation_sha256,
                wrap.other_arguments.join(",")
            )),
            None => function.implementation_sha256.to_string(),
        };
        // So is the code of a decorator it is read through.
        let digest = if decorators.is_empty() {
            digest
        } else {
            crate::python::ast_dump::sha256_of_json_string(&format!(
                "{digest}|{}",
                decorators.join(",")
            ))
        };
        // The gates its wrapper and its `@function_tool(...)` set.
        let mut gates = wrap.map(|w| w.gates).unwrap_or_default();
        if let Some(keywords) = openai::function_tool_decorator(def_facts, function) {
            let scope = crate::python::parent_scope(&function.qualname);
            let decorated = self
                .object_site(def_path, def_facts, scope)
                .tool_gates(&openai::gate_keywords(keywords));
            for gate in decorated {
                if !gates.iter().any(|g| g.kind == gate.kind) {
                    gates.push(gate);
                }
            }
            gates.sort();
        }
        Some(FollowedTool {
            gates,
            definition: ToolDefinition {
                source: def_path.to_string(),
                line: Some(function.line),
                implementation_sha256: Some(digest),
                interface: interface(&tool, function),
                import_path: crosses_modules.then_some(crate::graph::ImportPath {
                    reference: spelled,
                    steps: found.steps,
                    caveats,
                }),
                reach: None,
            },
            tool,
        })
    }
}
