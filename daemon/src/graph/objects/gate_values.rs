//! A gate's value (`graph::gates`), read as the object readers read any
//! argument: a literal, a constant followed, a function by its own code.

use super::ObjectSite;
use crate::graph::gates::{Gate, GateKind};
use crate::graph::schema::unparse;
use crate::python::Text;
use crate::python::Value;

impl ObjectSite<'_, '_> {
    /// One gate as `value` sets it; its value `None` when not read.
    pub fn gate(&self, kind: GateKind, value: &Value) -> Gate {
        Gate {
            kind,
            value: self.canonical(value, 0),
            spelled: unparse(value),
        }
    }

    /// The gates a function tool's keywords set, one per kind (the last
    /// keyword wins, as Python's call does), sorted by kind.
    pub fn tool_gates(&self, keywords: &[(&str, &Value)]) -> Vec<Gate> {
        let mut gates: Vec<Gate> = Vec::new();
        for (name, value) in keywords {
            let Some(kind) = GateKind::of_tool_keyword(name) else {
                continue;
            };
            gates.retain(|g| g.kind != kind);
            gates.push(self.gate(kind, value));
        }
        gates.sort();
        gates
    }
}

impl ObjectSite<'_, '_> {
    /// The gates an object's constructor sets: a hosted MCP tool's
    /// `require_approval` in its `tool_config` (a dict, or the `Mcp(...)`
    /// typed dict: `'always'`, `'never'` or a per-tool dict), and any
    /// object's `require_confirmation=` (ADK toolsets and tools). A config
    /// not read sets none here: its argument is the object's unread part.
    pub fn object_gates(
        &self,
        class: &str,
        args: &[Value],
        keywords: &[(Option<Text>, Value)],
    ) -> Vec<Gate> {
        let mut gates = Vec::new();
        if let Some((_, value)) = keywords
            .iter()
            .rev()
            .find(|(k, _)| k.as_deref() == Some(GateKind::RequireConfirmation.as_str()))
        {
            gates.push(self.gate(GateKind::RequireConfirmation, value));
        }
        if class == "HostedMCPTool" {
            let config = keywords
                .iter()
                .find(|(k, _)| k.as_deref() == Some("tool_config"))
                .map(|(_, v)| v)
                .or(args.first());
            let wanted = GateKind::RequireApproval.as_str();
            let value = match config.and_then(|c| self.follow(c, 0)) {
                Some(Value::Dict(entries)) => entries
                    .iter()
                    .rev()
                    .find(|(k, _)| matches!(k, Some(Value::Str(k)) if k == wanted))
                    .map(|(_, v)| v),
                Some(Value::Call { keywords, .. }) => keywords
                    .iter()
                    .rev()
                    .find(|(k, _)| k.as_deref() == Some(wanted))
                    .map(|(_, v)| v),
                _ => None,
            };
            if let Some(value) = value {
                gates.push(self.gate(GateKind::RequireApproval, value));
            }
        }
        gates.sort();
        gates
    }
}
