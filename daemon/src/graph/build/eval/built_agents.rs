//! Agents named by what builds them (issue 40, item 4): a sub-agent,
//! handoff or agent tool written as a builder's call
//! (`sub_agents=[create_writer_agent()]`), or as a function's local bound
//! to one (`writer = create_writer_agent()`, then `sub_agents=[writer,
//! editor]`) or to a construction (`panel = LlmAgent(...)`, then
//! `ParallelAgent(sub_agents=[panel])`), is the agent that construction
//! is. Both frameworks map the construction found here to their own
//! identity (`adk_members`, `handoffs`).
//!
//! Sound because what the reference holds is exactly that construction's
//! result:
//! - a local is bound once in its function (one assignment, run at most
//!   once per call: `resolve::runs_once_per_call`), never declared
//!   `global`/`nonlocal`, so every read sees that value;
//! - a builder is a repository function the resolver reaches (not
//!   rebound elsewhere: `chains::reassignment`), undecorated, synchronous,
//!   not a generator, defined once, whose one unconditional last statement
//!   returns the construction (or a local bound once to it, or another
//!   builder's call), at most `MAX_CALL_DEPTH` builders deep;
//! - the construction is one the framework reader reads as an agent; a
//!   construction whose name depends on the call is the agent that call
//!   builds (`factory_agents`), or not identified.
//!
//! Anything else is not an agent reference this module names: the caller
//! keeps its limit, with the reason given here.

use super::call_frames::{returns_once, RepositoryCall, MAX_CALL_DEPTH};
use crate::frameworks::adk::{self, AdkName};
use crate::frameworks::openai;
use crate::graph::build::ModuleReader;
use crate::pyrepr::str_repr;
use crate::python::{BindingKind, CallFact, ModuleFacts, Value};

/// The construction a reference holds, and the call of a builder that
/// returns it, if one does (the site a per-call agent is named by).
pub(in crate::graph::build) struct BuiltAgent<'m> {
    /// The module the construction is written in.
    pub path: &'m str,
    pub construction: &'m CallFact,
    /// The outermost builder call: its module and line.
    pub site: Option<(String, u32)>,
}

impl<'a> ModuleReader<'a, '_> {
    /// The agent construction `reference`, written in `scope` of `path`,
    /// holds: `Ok(None)` when it is neither a builder's call nor a local
    /// of an enclosing function (the caller resolves it as before), an
    /// error when it is one but not one this rule reads.
    pub(in crate::graph::build) fn built_agent(
        &self,
        path: &str,
        scope: &str,
        reference: &Value,
    ) -> Result<Option<BuiltAgent<'a>>, String> {
        let Some(path) = self.modules.key(path) else {
            return Ok(None);
        };
        let found = match reference {
            Value::Name(name) => self.local_construction(path, scope, name, 0)?,
            Value::Call { .. } => self.builder_construction(path, scope, reference, 0)?,
            _ => None,
        };
        Ok(found)
    }

    /// A local `name` of a function enclosing `scope` (the innermost that
    /// binds it): the construction its one binding holds.
    fn local_construction(
        &self,
        path: &'a str,
        scope: &str,
        name: &str,
        depth: usize,
    ) -> Result<Option<BuiltAgent<'a>>, String> {
        let Some(facts) = self.modules.facts(path) else {
            return Ok(None);
        };
        let mut current = scope;
        while !current.is_empty() {
            if let Some(function) = facts.functions.iter().find(|f| f.qualname == current) {
                if function.globals.iter().any(|g| g == name)
                    || function.nonlocals.iter().any(|n| n == name)
                {
                    return Ok(None);
                }
                let locals: Vec<_> = function.locals_named(name).collect();
                if !locals.is_empty() {
                    let at = |line: u32| format!("{} at {path}:{line}", str_repr(name));
                    let [binding] = locals.as_slice() else {
                        return Err(format!(
                            "{} is bound more than once in `{current}`",
                            str_repr(name)
                        ));
                    };
                    if binding.kind != BindingKind::Assignment {
                        // A parameter or an import: the resolver says what it is.
                        return Ok(None);
                    }
                    if binding.conditional
                        && !crate::resolve::runs_once_per_call(facts, current, binding)
                    {
                        return Err(format!(
                            "{} is bound in a loop or handler",
                            at(binding.line)
                        ));
                    }
                    let Some(value @ Value::Call { .. }) = &binding.value else {
                        return Err(format!("{} is not bound to a call", at(binding.line)));
                    };
                    return self.call_construction(path, current, value, Some(name), depth);
                }
            }
            current = current.rsplit_once('.').map_or("", |(parent, _)| parent);
        }
        Ok(None)
    }

    /// `call` (written in `scope` of `path`, assigned to `target` when
    /// given): another builder's call, else the construction it is.
    fn call_construction(
        &self,
        path: &'a str,
        scope: &str,
        call: &Value,
        target: Option<&str>,
        depth: usize,
    ) -> Result<Option<BuiltAgent<'a>>, String> {
        if let Some(built) = self.builder_construction(path, scope, call, depth)? {
            return Ok(Some(built));
        }
        let Some(facts) = self.modules.facts(path) else {
            return Ok(None);
        };
        Ok(
            construction_at(facts, scope, call, target).map(|construction| BuiltAgent {
                path,
                construction,
                site: None,
            }),
        )
    }

    /// `call`, written in `scope` of `path`, when it calls a repository
    /// builder: the construction the builder returns.
    fn builder_construction(
        &self,
        path: &'a str,
        scope: &str,
        call: &Value,
        depth: usize,
    ) -> Result<Option<BuiltAgent<'a>>, String> {
        let Some(found) = self.repository_call(path, scope, call) else {
            return Ok(None);
        };
        let RepositoryCall {
            path: builder_path,
            function,
            callee,
            ..
        } = found.map_err(|n| format!("a call to `{}`, not followed: {}", n.spelled, n.why))?;
        let spelled = callee.dotted().unwrap_or_default();
        let not_read = |why: String| Err(format!("`{spelled}` {why}"));
        let Some(facts) = self.modules.facts(builder_path) else {
            return Ok(None);
        };
        if let Err(why) = returns_once(facts, function, "") {
            return not_read(why);
        }
        if function.is_async {
            return not_read("is asynchronous".to_string());
        }
        if depth >= MAX_CALL_DEPTH {
            return not_read(format!("is more than {MAX_CALL_DEPTH} builders deep"));
        }
        let [ret] = function.body().returns_found.as_slice() else {
            return not_read("returns from more than one place".to_string());
        };
        let site_line = self
            .modules
            .facts(path)
            .and_then(|f| {
                f.calls
                    .iter()
                    .find(|c| c.scope == scope && c.value() == *call)
            })
            .map(|c| c.line);
        let site = site_line.map(|line| (path.to_string(), line));
        let inner = match &ret.value {
            Some(value @ Value::Call { .. }) => {
                self.call_construction(builder_path, &function.qualname, value, None, depth + 1)?
            }
            Some(Value::Name(local)) => {
                self.local_construction(builder_path, &function.qualname, local, depth + 1)?
            }
            _ => None,
        };
        match inner {
            Some(built) => Ok(Some(BuiltAgent {
                site: built.site.or(site),
                ..built
            })),
            None => not_read("does not return an agent construction".to_string()),
        }
    }
}

/// The one call `value` written in `scope` (assigned to `target` when
/// given), as the facts record it.
fn construction_at<'f>(
    facts: &'f ModuleFacts,
    scope: &str,
    value: &Value,
    target: Option<&str>,
) -> Option<&'f CallFact> {
    let mut matching = facts.calls.iter().filter(|c| {
        c.scope == scope
            && c.value() == *value
            && target.is_none_or(|t| c.assigned_to.as_deref() == Some(t))
    });
    let first = matching.next()?;
    matching.next().is_none().then_some(first)
}

impl ModuleReader<'_, '_> {
    /// The Google ADK agent a built construction is: its literal name, or
    /// the name its builder's call gives it, and its kind.
    pub(in crate::graph::build) fn adk_built(
        &self,
        built: &BuiltAgent<'_>,
    ) -> Result<(Option<String>, AdkName), String> {
        let facts = self
            .modules
            .facts(built.path)
            .ok_or("the module is not read")?;
        let context = self.contexts.of(built.path);
        let constructions = adk::agent_constructions(facts, context);
        let made = context.construction_of(facts, built.construction);
        let index = constructions
            .iter()
            .position(|c| std::ptr::eq(c.call, made))
            .ok_or_else(|| not_an_agent(built))?;
        let construction = &constructions[index];
        match &construction.name {
            Some(name) => Ok((Some(name.clone()), construction.kind)),
            None => Ok((self.per_call_name(built, index), construction.kind)),
        }
    }

    /// The OpenAI Agents SDK agent a built construction is: its identity,
    /// when no other construction of its module shares it, or the name
    /// its builder's call gives it.
    pub(in crate::graph::build) fn sdk_built(
        &self,
        built: &BuiltAgent<'_>,
    ) -> Result<String, String> {
        let facts = self
            .modules
            .facts(built.path)
            .ok_or("the module is not read")?;
        if !openai::is_sdk_source(facts) {
            return Err(not_an_agent(built));
        }
        let context = self.contexts.of(built.path);
        let constructions = openai::agent_constructions(facts, built.path, context);
        let made = context.construction_of(facts, built.construction);
        let index = constructions
            .iter()
            .position(|c| std::ptr::eq(c.call, made))
            .ok_or_else(|| not_an_agent(built))?;
        if let Some(name) = self.per_call_name(built, index) {
            return Ok(name);
        }
        let identity = &constructions[index].identity;
        let sites = constructions
            .iter()
            .filter(|c| &c.identity == identity)
            .count();
        if sites != 1 {
            return Err(format!(
                "{} is built at more than one site of {}",
                str_repr(identity),
                built.path
            ));
        }
        Ok(identity.clone())
    }

    /// The agent the builder call `built.site` makes of the construction
    /// at `index` of its module, when a factory names each call's agent.
    fn per_call_name(&self, built: &BuiltAgent<'_>, index: usize) -> Option<String> {
        let (site_path, site_line) = built.site.as_ref()?;
        let per_construction = self
            .in_module(
                built.path,
                None,
                |reader| Ok(reader.module_factory_agents()),
            )
            .ok()?;
        let agents = per_construction.into_iter().nth(index).flatten()?;
        let mut made = agents
            .into_iter()
            .filter(|a| a.call_path == *site_path && a.call_line == *site_line);
        let only = made.next()?;
        made.next().is_none().then_some(only.name)
    }
}

fn not_an_agent(built: &BuiltAgent<'_>) -> String {
    format!(
        "the call at {}:{} is not an agent construction",
        built.path, built.construction.line
    )
}

impl ModuleReader<'_, '_> {
    /// The SDK agent `reference` names through what builds it, as
    /// `(module, identity)`: `None` when it is neither a builder's call, a
    /// function's local nor an instance's agent.
    pub(in crate::graph::build) fn sdk_built_reference(
        &self,
        path: &str,
        scope: &str,
        reference: &Value,
    ) -> Option<Result<(String, String), String>> {
        // An instance's agent (`instance_agents.rs`).
        if let Some(held) = self.instance_agent(path, scope, reference) {
            return Some(held.map(|h| (h.path.to_string(), h.name)));
        }
        match self.built_agent(path, scope, reference) {
            Ok(None) => None,
            Ok(Some(built)) => Some(
                self.sdk_built(&built)
                    .map(|id| (built.path.to_string(), id)),
            ),
            Err(why) => Some(Err(why)),
        }
    }
}
