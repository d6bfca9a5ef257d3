//! SDK `mcp_servers=`, member by member: each an MCP server object
//! (`object_members.rs`, `graph::objects`), or a named limit on the agent.

use super::list_args::list_line;
use super::object_members::{Built, ObjectList, ReadObject};
use super::{eval::list_exprs, ModuleReader, Ways};
use crate::frameworks::openai::{AgentConstruction, ListMember};
use crate::pyrepr::str_repr;

impl ModuleReader<'_, '_> {
    /// `mcp_servers=`, member by member: each an MCP server object, or a
    /// named limit on the agent.
    pub(super) fn read_mcp_servers(&mut self, agent: &str, construction: &AgentConstruction<'_>) {
        let Some(members) = self.list_of(agent, construction, "mcp_servers") else {
            return;
        };
        let line = list_line(construction, "mcp_servers");
        let mut objects: Vec<ReadObject> = Vec::new();
        let mut ways = Ways::new();
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
                namespace: _,
            },
        ) in members.into_iter().enumerate()
        {
            if from.is_some() {
                // A server list from another module is not read here.
                let reason = self.dynamic(agent, construction.line, "mcp_servers");
                self.agent_gap(agent, reason);
                continue;
            }
            if let ListMember::Unread(kind) = &member {
                if kind == crate::python::MEMBERS_PAST_BOUND {
                    let reason = self.list_limit(agent, construction, "mcp_servers", kind, true);
                    self.agent_gap(agent, reason);
                    continue;
                }
            }
            // A server a called function builds is read in that call's
            // frame (its parameters bound to what the call passes).
            let read = self.with_frame(frame, |r| {
                let built = match &member {
                    ListMember::Reference(reference) => r.built_object(&scope, reference),
                    ListMember::Call(call) => {
                        Some(Built::inline(r.path, r.facts, &scope, call, line))
                    }
                    ListMember::Unread(_) => None,
                };
                match built {
                    Some(built) => r.read_object(&built, ObjectList::McpServers, index + 1),
                    None => Ok(None),
                }
            });
            // What the list spells for a member it cannot read: it stands
            // for the member (`Gap::member`).
            let listed = match &member {
                ListMember::Reference(value) | ListMember::Call(value) => {
                    Some(crate::graph::schema::unparse(value))
                }
                ListMember::Unread(_) => None,
            };
            match read {
                Ok(Some(object)) => {
                    ways.add(
                        object.name.clone(),
                        &when,
                        caller.as_deref(),
                        rewired_at.as_deref(),
                    );
                    objects.push(object)
                }
                Ok(None) => {
                    let spelled = match (&listed, &member) {
                        (Some(listed), _) => listed.clone(),
                        (None, ListMember::Unread(kind)) => format!("a {kind}"),
                        (None, _) => String::new(),
                    };
                    let why = format!(
                        "lists {} in mcp_servers=, which is not an MCP server this reader identifies",
                        str_repr(&spelled)
                    );
                    let reason = self.object_limit(agent, construction.line, &why);
                    self.mcp_member_gap(agent, listed.as_deref(), reason);
                }
                Err(why) => {
                    let reason = self.object_limit(agent, construction.line, &why);
                    self.mcp_member_gap(agent, listed.as_deref(), reason);
                }
            }
        }
        self.bind_objects(agent, construction, line, objects);
        self.apply_ways(agent, &ways);
    }
}

impl ModuleReader<'_, '_> {
    /// A server list member the reader cannot read: a limit on the agent
    /// that stands for the member when the list spells one.
    fn mcp_member_gap(&mut self, agent: &str, listed: Option<&str>, reason: String) {
        match listed {
            Some(listed) => {
                self.unresolved_member(agent, crate::graph::Field::McpServers, listed, reason)
            }
            None => self.agent_gap(agent, reason),
        }
    }
}
