//! Agents a factory builds, one per call (issue 19): `def
//! make_specialist(kind, tools): return Agent(name=f"shop-{kind}",
//! tools=tools)`, called as `make_specialist("sales", [refund])` and
//! `make_specialist("support", [lookup])`, is two agents, `shop-sales`
//! with `refund` and `shop-support` with `lookup` — beyond the spec, which
//! names the construction by its source label and reads its lists as the
//! union of the calls (`builder_callers.rs`).
//!
//! Sound because every call is known and each is read on its own:
//! - the factory is a module-level, undecorated, synchronous function its
//!   module binds once, and its one unconditional last statement returns
//!   the construction;
//! - the calls are its closed caller set (`builder_calls`: every use of
//!   its name in the scope is a call, no module imports its module whole
//!   or with `*`), and none runs under an `if`, in a loop or handler, or
//!   passes `*`/`**`; each binds every parameter;
//! - the name each call gives is the string its arguments spell: an
//!   f-string of literals and parameters, or a parameter, each parameter
//!   passed (or defaulting to) a string literal and never rebound;
//! - the names are distinct, and no other agent of the module has one.
//!
//! Each agent's lists are then read in the frame of its call, with the
//! factory's parameters bound to that call's arguments. A call whose name
//! the read cannot spell (`make_specialist(os.environ["KIND"], [...])`)
//! does not undo the others (issue 40, item 5): its agent is identified by
//! the spec's source label of the call (its enclosing functions, its
//! assignment target and its file, `billing@app/main.py`: no line, no
//! ordinal; the wrapper classes name an instantiation so), as the spec
//! identifies any construction whose name it does not evaluate, and its
//! lists are read in its own frame like the others'. Sound for the same
//! reasons: every call is known and read on its own; only the name the
//! runtime gives that agent is not read, and no identity depends on it. A label colliding
//! with another identity, or no readable call at all, leaves the
//! construction one agent, as before.

use super::call_frames::CallFrame;
use crate::frameworks::{adk, openai};
use crate::graph::build::{Framework, ModuleReader};
use crate::graph::AgentEntry;
use crate::python::{BindingKind, CallFact, Value};
use crate::resolve::{Resolver, Target};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// One call of a factory, read as the agent it builds.
pub(in crate::graph::build) struct FactoryAgent {
    /// The name the call gives the agent.
    pub name: String,
    /// Where the call is (`app/agent.py:7`), the agent's location.
    pub at: String,
    /// The module the call is written in, its line, and the module-level
    /// name its value is assigned to (`sales = make_specialist(...)`).
    pub call_path: String,
    pub call_line: u32,
    pub bound_to: Option<String>,
    /// The factory's parameters bound to the call's arguments.
    pub frame: Rc<CallFrame>,
}

impl<'m> ModuleReader<'_, 'm> {
    /// For each of a module's constructions (`calls`, with the agent
    /// identity each has as written), the agents its factory's calls
    /// build, or `None`. A name two constructions' calls would both give
    /// leaves both as they were; a name another construction's identity
    /// holds is taken (its own is not: a wrapper class's construction
    /// spelling `name="Writer"` is the agent its one instantiation names).
    fn factory_built(
        &self,
        calls: &[&CallFact],
        identities: &[String],
    ) -> Vec<Option<Vec<FactoryAgent>>> {
        let mut held: BTreeMap<&str, usize> = BTreeMap::new();
        for identity in identities {
            *held.entry(identity.as_str()).or_default() += 1;
        }
        let mut built: Vec<Option<Vec<FactoryAgent>>> = calls
            .iter()
            .zip(identities)
            .map(|(call, own)| {
                let taken = |name: &str| {
                    held.get(name).copied().unwrap_or(0) > usize::from(name == own.as_str())
                };
                self.factory_agents(call, &taken)
            })
            .collect();
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for agents in built.iter().flatten() {
            for agent in agents {
                *seen.entry(agent.name.as_str()).or_default() += 1;
            }
        }
        let shared: BTreeSet<String> = seen
            .into_iter()
            .filter(|(_, count)| *count > 1)
            .map(|(name, _)| name.to_string())
            .collect();
        for entry in &mut built {
            if entry
                .as_ref()
                .is_some_and(|agents| agents.iter().any(|a| shared.contains(&a.name)))
            {
                *entry = None;
            }
        }
        built
    }

    /// The agents each of this module's constructions stands for, by the
    /// module's framework (`None`: the construction is one agent).
    pub(in crate::graph::build) fn module_factory_agents(&self) -> Vec<Option<Vec<FactoryAgent>>> {
        let context = self.context();
        match self.framework {
            Framework::OpenAi => self
                .sdk_factory_agents(&openai::agent_constructions(self.facts, self.path, context)),
            Framework::Adk => {
                self.adk_factory_agents(&adk::agent_constructions(self.facts, context))
            }
        }
    }

    /// The agents each SDK construction stands for.
    pub(in crate::graph::build) fn sdk_factory_agents(
        &self,
        constructions: &[openai::AgentConstruction<'_>],
    ) -> Vec<Option<Vec<FactoryAgent>>> {
        let identities: Vec<String> = constructions.iter().map(|c| c.identity.clone()).collect();
        let calls: Vec<_> = constructions.iter().map(|c| c.call).collect();
        self.factory_built(&calls, &identities)
    }

    /// The agents each ADK construction stands for.
    pub(in crate::graph::build) fn adk_factory_agents(
        &self,
        constructions: &[adk::AdkConstruction<'_>],
    ) -> Vec<Option<Vec<FactoryAgent>>> {
        let identities: Vec<String> = constructions
            .iter()
            .map(|c| adk::identity(self.facts, c, self.path))
            .collect();
        let calls: Vec<_> = constructions.iter().map(|c| c.call).collect();
        self.factory_built(&calls, &identities)
    }

    /// The factory agent a module-level name holds (`sales =
    /// make_specialist("sales", ...)`, bound at `line` of `path`): the
    /// factory's module and the agent's name.
    pub(in crate::graph::build) fn factory_agent_bound(
        &self,
        path: &str,
        name: &str,
        line: u32,
    ) -> Option<(&'m str, String)> {
        let facts = self.modules.facts(path)?;
        let binding = facts
            .module_bindings_named(name)
            .find(|b| b.name == name && b.line == line && b.kind == BindingKind::Assignment)?;
        let Some(Value::Call { callee, .. }) = &binding.value else {
            return None;
        };
        let key = self.modules.key(path)?;
        let found = Resolver::new(self.modules).resolve(key, "", callee).ok()?;
        let Target::Function {
            path: factory_path, ..
        } = found.target
        else {
            return None;
        };
        let agents = self
            .in_module(factory_path, None, |reader| {
                Ok(reader.module_factory_agents())
            })
            .ok()?;
        agents
            .into_iter()
            .flatten()
            .flatten()
            .find(|agent| {
                agent.call_path == key
                    && agent.call_line == line
                    && agent.bound_to.as_deref() == Some(name)
            })
            .map(|agent| (factory_path, agent.name))
    }

    /// Records one factory agent of this module and runs `read` (what
    /// its construction binds) in the frame of its call.
    pub(in crate::graph::build) fn read_factory_agent(
        &mut self,
        agent: &FactoryAgent,
        read: impl FnOnce(&mut Self),
    ) {
        self.graph.agents.push(AgentEntry {
            source: self.path.to_string(),
            name: agent.name.clone(),
            location: agent.at.clone(),
            variable: None,
        });
        self.with_frame(Some(agent.frame.clone()), read);
    }

    /// The agents the construction `call` (in this module) stands for,
    /// one per call of the factory that returns it; `None` when the rules
    /// above do not all hold. `taken` holds the module's other agent
    /// identities.
    pub(in crate::graph::build) fn factory_agents(
        &self,
        call: &CallFact,
        taken: &dyn Fn(&str) -> bool,
    ) -> Option<Vec<FactoryAgent>> {
        if let Some(wrapper) = self.context().wrapper_of(call) {
            return self.wrapper_factory_agents(wrapper, taken);
        }
        let name = call
            .keyword("name")
            .map(|k| &k.value)
            .or(call.args.first())?;
        if matches!(name, Value::Str(_)) || call.assigned_to.is_some() || call.scope.is_empty() {
            return None;
        }
        let factory = self
            .facts
            .functions
            .iter()
            .find(|f| f.qualname == call.scope)?;
        if !factory.module_level || factory.is_async {
            return None;
        }
        super::call_frames::returns_once(self.facts, factory, "").ok()?;
        let construction = call.value();
        let [ret] = factory.body().returns_found.as_slice() else {
            return None;
        };
        if ret.value.as_ref() != Some(&construction) {
            return None;
        }
        // A parameter the name spells must hold what the call passed.
        let unchanged = |param: &str| {
            factory
                .locals_named(param)
                .all(|b| b.kind == BindingKind::Parameter)
                && !self
                    .facts
                    .functions
                    .iter()
                    .any(|f| f.nonlocals.iter().any(|n| n == param))
        };
        let calls = self.builder_calls(&factory.qualname).ok()?;
        if calls.is_empty() {
            return None;
        }
        let mut agents = Vec::new();
        let mut names = BTreeSet::new();
        let mut unread = 0;
        for site in calls {
            let unconditional = site.call.guard.as_ref().is_some_and(|g| g.is_empty());
            let unpacks = site
                .call
                .args
                .iter()
                .any(|a| matches!(a, Value::Starred(_)))
                || site.call.keywords.iter().any(|k| k.name.is_none());
            if !unconditional || unpacks {
                return None;
            }
            let frame = self.site_frame(site.path, site.call)?;
            if frame.path != self.path || frame.function != factory.qualname {
                return None;
            }
            let passed = |param: &str| {
                frame
                    .args
                    .iter()
                    .find(|a| a.param == param)
                    .map(|a| &a.value)
            };
            let (agent_name, labelled) = match spelled_name(name, &passed, &unchanged) {
                Some(spelled) => (spelled, false),
                None => {
                    let facts = self.modules.facts(site.path)?;
                    (openai::source_label(facts, site.call, site.path), true)
                }
            };
            unread += usize::from(labelled);
            if taken(&agent_name) || !names.insert(agent_name.clone()) {
                return None;
            }
            agents.push(FactoryAgent {
                name: agent_name,
                at: frame.at.clone(),
                call_path: site.path.to_string(),
                call_line: site.call.line,
                bound_to: (site
                    .call
                    .assigned_to
                    .clone()
                    .filter(|_| site.call.scope.is_empty()))
                .map(Into::into),
                frame,
            });
        }
        // With no name read, the spec's one agent by its label stands.
        (unread < agents.len()).then_some(agents)
    }

    /// The frame of one call of a repository function, written in `path`.
    fn site_frame(&self, path: &str, call: &CallFact) -> Option<Rc<CallFrame>> {
        let value = call.value();
        self.in_module(path, None, |reader| {
            match reader.call_return(&call.scope, &value) {
                Some(Ok(returned)) => Ok(returned.frame),
                Some(Err(why)) => Err(why),
                None => Err("not a call of a repository function".to_string()),
            }
        })
        .ok()
    }
}

/// The string `name` spells in a call: literal pieces, and parameters
/// the call passes a string literal (or that default to one), as
/// `passed` gives them.
pub(in crate::graph::build) fn spelled_name<'v>(
    name: &Value,
    passed: &dyn Fn(&str) -> Option<&'v Value>,
    unchanged: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let piece = |value: &Value| -> Option<String> {
        match value {
            Value::Str(text) => Some(text.to_string()),
            Value::Name(param) if unchanged(param) => match passed(param)? {
                Value::Str(text) => Some(text.to_string()),
                _ => None,
            },
            _ => None,
        }
    };
    match name {
        Value::FString(pieces) => pieces
            .iter()
            .map(piece)
            .collect::<Option<Vec<_>>>()
            .map(|p| p.concat()),
        Value::Name(_) | Value::Str(_) => piece(name),
        _ => None,
    }
}
