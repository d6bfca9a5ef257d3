//! How the reader words a limit on an agent, in the spec's (and for the
//! ADK, the reference's) words, and records it: confined to the field being
//! read when the construction keeps its fields apart.

use super::{list_args::list_line, Framework, ModuleReader};
use crate::frameworks::openai::AgentConstruction;
use crate::graph::{Field, Gap};
use crate::pyrepr::str_repr;

impl ModuleReader<'_, '_> {
    /// How a message names an agent: the SDK reader's form carries the
    /// construction's place; the ADK reader's is the reference's.
    pub(super) fn who(&self, agent: &str, line: u32) -> String {
        match self.framework {
            Framework::OpenAi => format!(
                "OpenAI Agents SDK agent {} at {}:{line}",
                str_repr(agent),
                self.path
            ),
            Framework::Adk => format!("Google ADK agent {}", str_repr(agent)),
        }
    }

    pub(super) fn agent_gap(&mut self, agent: &str, reason: String) {
        self.gaps.insert(Gap {
            field: self.field.get(),
            ..Gap::agent(self.path, agent, reason)
        });
    }

    /// An object member that is recognised but cannot be bound.
    pub(super) fn object_limit(&self, agent: &str, line: u32, why: &str) -> String {
        format!(
            "{} {why}; its binding graph is incomplete.",
            self.who(agent, line)
        )
    }

    pub(super) fn dynamic(&self, agent: &str, line: u32, list: &str) -> String {
        match self.framework {
            Framework::OpenAi => format!(
                "{} uses a dynamic {list} expression; its binding graph is incomplete.",
                self.who(agent, line)
            ),
            Framework::Adk => format!(
                "{} uses a dynamic {list} expression.",
                self.who(agent, line)
            ),
        }
    }

    /// A listed member the reader could not resolve (`reference`, as
    /// spelled): a limit on the agent, since what the member binds is not
    /// known, that also stands for the member, so adding or removing it is
    /// a `not_established` row (`Gap::member`), never silence.
    pub(super) fn unresolved_member(
        &mut self,
        agent: &str,
        field: Field,
        reference: &str,
        reason: String,
    ) {
        self.gaps.insert(Gap {
            field: self.field.get(),
            member: Some(member_key(field, reference)),
            ..Gap::agent(self.path, agent, reason)
        });
    }

    /// An unresolved tool reference: its limit, standing for the member.
    pub(super) fn unresolved_tool(&mut self, agent: &str, line: u32, reference: &str, why: &str) {
        let reason = self.unresolved(agent, line, reference, why);
        self.unresolved_member(agent, Field::Tools, reference, reason);
    }

    /// The spec's form: the reader's warning, then "Not resolved because …"
    /// (the reference, 1.2.0, joins them with a colon instead).
    pub(super) fn unresolved(&self, agent: &str, line: u32, reference: &str, why: &str) -> String {
        let verb = match self.framework {
            Framework::OpenAi => "binds",
            Framework::Adk => "references",
        };
        format!(
            "{} {verb} unresolved tool {}. Not resolved because {why}.",
            self.who(agent, line),
            str_repr(reference)
        )
    }

    /// A capability list read only in part, or not at all, in the spec's
    /// words: the first place reading stopped, why, and where the list is.
    pub(super) fn list_limit(
        &self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        field: &str,
        why: &str,
        read_some: bool,
    ) -> String {
        let how = if read_some {
            "reads only in part"
        } else {
            "does not read"
        };
        let at = format!("{}:{}", self.path, list_line(construction, field));
        let incomplete = match self.framework {
            Framework::OpenAi => "; its binding graph is incomplete",
            Framework::Adk => "",
        };
        format!(
            "{} has a {field} list it {how}{incomplete}. Not read: {why} ({at}).",
            self.who(agent, construction.line)
        )
    }
}

/// The row key of a listed member that was not resolved: a dotted
/// reference by its last name (`tools.lookup` is most likely `lookup`, and
/// a row under either name is `not_established`), anything else as
/// spelled; a handoff or sub-agent under an unknown target file.
/// A listed member as a reason and its row key spell it: a reference
/// as written (`tools.lookup`), a call by its callee (`make_tool()`,
/// `make_billing().as_tool()`).
pub(super) fn spelled_member(value: &crate::python::Value) -> String {
    match value {
        crate::python::Value::Call { callee, .. } => {
            format!("{}()", crate::graph::schema::unparse(callee))
        }
        other => crate::graph::schema::unparse(other),
    }
}

pub(super) fn member_key(field: Field, reference: &str) -> String {
    let dotted = !reference.is_empty()
        && reference
            .split('.')
            .all(|part| !part.is_empty() && part.chars().all(|c| c == '_' || c.is_alphanumeric()));
    let name = match dotted {
        true => reference.rsplit('.').next().unwrap_or(reference),
        false => reference,
    };
    match field {
        Field::Handoffs | Field::SubAgents => format!("handoff:?:{name}"),
        Field::Tools | Field::McpServers => name.to_string(),
    }
}
