//! What a module's framework readers need from the rest of the scope,
//! established by the graph layer through the resolver: the strings the
//! module's imported `name=` constants hold (`names.rs`), and which of its
//! calls construct a pass-through subclass of an agent class
//! (`agent_classes.rs`), with the base-class construction each makes.
//! Empty where nothing beyond the module itself is known.

use super::names::NameConstants;
use crate::python::CallFact;
use std::collections::BTreeMap;

/// The framework whose agent class a subclass construction builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentBase {
    /// The OpenAI Agents SDK's `Agent`.
    Sdk,
    /// Google ADK's `LlmAgent` (`Agent`).
    Adk,
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

    /// Whether the module constructs a read subclass of `base`'s agent
    /// class: its reader must run even if it imports no framework.
    pub fn builds(&self, base: AgentBase) -> bool {
        self.subclass_calls.values().any(|c| c.base == base)
    }
}
