//! What a module's framework readers need from the rest of the scope,
//! established by the graph layer through the resolver: the strings the
//! module's imported `name=` constants hold (`names.rs`), and which of its
//! calls construct a pass-through subclass of an agent class
//! (`agent_classes.rs`), with the base-class construction each makes.
//! Empty where nothing beyond the module itself is known.

use super::names::NameConstants;
use super::wrapper_classes::WrapperConstruction;
use crate::python::{CallFact, ModuleFacts};
use std::collections::BTreeMap;

/// The framework whose agent class a subclass construction builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentBase {
    /// The OpenAI Agents SDK's `Agent`.
    Sdk,
    /// Google ADK's `LlmAgent` (`Agent`).
    Adk,
    /// Google ADK's `BaseAgent`, by a class whose code runs nothing
    /// (`custom_agents.rs`): read as a workflow agent binding `sub_agents=`.
    AdkCustom,
}

/// One call of a module that constructs a pass-through subclass.
#[derive(Debug, Clone, PartialEq)]
pub struct SubclassConstruction {
    pub base: AgentBase,
    /// The base-class construction the call makes: its arguments as the
    /// base class receives them.
    pub call: CallFact,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModuleContext {
    pub names: NameConstants,
    /// Read subclass constructions, by index into the module's `calls`.
    pub subclass_calls: BTreeMap<usize, SubclassConstruction>,
    /// Subclass constructions left unread, by index into `calls`: the
    /// class and why (`"TracedAgent: its code spells 'tools'"`).
    pub unread_subclass_calls: BTreeMap<usize, String>,
    /// Constructions a wrapper class makes, one agent per instantiation,
    /// by index into `calls` (`wrapper_classes.rs`).
    pub wrappers: BTreeMap<usize, WrapperAgents>,
    /// Wrapper-class constructions of capabilities left unread, by index
    /// into `calls`: the class and why.
    pub unread_wrappers: BTreeMap<usize, String>,
}

/// One construction of a wrapper class and the instantiations the scope
/// holds, each one agent.
#[derive(Debug, Clone, PartialEq)]
pub struct WrapperAgents {
    pub construction: WrapperConstruction,
    pub instances: Vec<WrapperInstance>,
}

/// One instantiation of a wrapper class: where it is written, the call,
/// and the name its arguments give the agent.
#[derive(Debug, Clone, PartialEq)]
pub struct WrapperInstance {
    pub path: String,
    pub call: CallFact,
    pub name: String,
}

impl ModuleContext {
    /// The base-class construction the module's call `index` makes, when it
    /// is a read construction of a subclass of `base`'s agent class.
    pub fn subclass_call(&self, index: usize, base: AgentBase) -> Option<&CallFact> {
        self.subclass_calls
            .get(&index)
            .filter(|c| c.base == base)
            .map(|c| &c.call)
    }

    /// The construction the module's `call` (one of `facts.calls`) stands
    /// for among a reader's constructions: the base-class construction a
    /// read subclass call makes, else the call itself.
    pub fn construction_of<'c>(&'c self, facts: &ModuleFacts, call: &'c CallFact) -> &'c CallFact {
        facts
            .calls
            .iter()
            .position(|c| std::ptr::eq(c, call))
            .and_then(|index| self.subclass_calls.get(&index))
            .map_or(call, |made| &made.call)
    }

    /// The construction the module's call `index` makes as its wrapper
    /// class's `__init__` spells it, when it is one.
    pub fn wrapper_call(&self, index: usize) -> Option<&CallFact> {
        self.wrappers.get(&index).map(|w| &w.construction.call)
    }

    /// The wrapper whose construction `call` is (the one `wrapper_call`
    /// handed out).
    pub fn wrapper_of(&self, call: &CallFact) -> Option<&WrapperAgents> {
        self.wrappers
            .values()
            .find(|w| std::ptr::eq(&w.construction.call, call))
    }

    /// Why the wrapper-class construction `call` (one of `facts.calls`)
    /// is not read as one agent per instance, when it is one.
    pub fn unread_wrapper(&self, facts: &ModuleFacts, call: &CallFact) -> Option<&String> {
        let index = facts.calls.iter().position(|c| std::ptr::eq(c, call))?;
        self.unread_wrappers.get(&index)
    }

    /// Whether the module constructs a read subclass of `base`'s agent
    /// class: its reader must run even if it imports no framework.
    pub fn builds(&self, base: AgentBase) -> bool {
        self.subclass_calls.values().any(|c| c.base == base)
    }
}
