//! Where an agent's gates land on its bindings (`graph::gates`): an ADK
//! agent's `before_tool_callback=` guards every tool it binds, and a gate
//! the read cannot name is a limit on its row.

use super::ModuleReader;
use crate::frameworks::openai::AgentConstruction;
use crate::graph::gates::GateKind;
use crate::graph::{Affects, Gap};
use crate::pyrepr::str_repr;
use crate::python::Value;

impl ModuleReader<'_, '_> {
    /// Puts the agent's own gates on each tool binding it has made so far
    /// (an ADK `before_tool_callback=`, when `agent_gates`), then names
    /// every gate of its bindings the read could not name.
    pub(super) fn finish_gates(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        agent_gates: bool,
    ) {
        let callback = construction
            .call
            .keywords
            .iter()
            .find(|k| k.name.as_deref() == Some(GateKind::BeforeToolCallback.as_str()))
            .filter(|k| agent_gates && k.value != Value::None)
            .map(|k| {
                self.object_site(self.path, self.facts, &construction.call.scope)
                    .gate(GateKind::BeforeToolCallback, &k.value)
            });
        let mut unread = Vec::new();
        for position in self.bindings_of(agent) {
            let Some(binding) = self.graph.bindings.get_mut(position) else {
                continue;
            };
            if binding.tool_key.starts_with("handoff:") {
                continue;
            }
            if let Some(gate) = &callback {
                binding.gates.retain(|g| g.kind != gate.kind);
                binding.gates.push(gate.clone());
                binding.gates.sort();
            }
            for gate in binding.gates.iter().filter(|g| g.value.is_none()) {
                unread.push((binding.tool_key.clone(), gate.kind, gate.spelled.clone()));
            }
        }
        for (tool, kind, spelled) in unread {
            let reason = format!(
                "{} binds {}, whose {} gate is not read ({spelled}); a change to it is not established.",
                self.who(agent, construction.line),
                str_repr(&tool),
                kind.as_str()
            );
            self.gaps.insert(Gap {
                tool: Some(tool),
                affects: Affects::Implementation,
                ..Gap::agent(self.path, agent, reason)
            });
        }
    }
}
