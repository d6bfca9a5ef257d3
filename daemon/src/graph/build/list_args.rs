//! A construction's capability list argument (`tools=`, `handoffs=`, …)
//! read into members: the expression as written (`list_exprs.rs`), then
//! what rewires after construction add to it (`rewires.rs`); or, when
//! one module-level assignment replaces the field, that assignment's value.

use super::{eval::list_exprs, rewires, ModuleReader};
use crate::frameworks::openai::{self, AgentConstruction, ListMember};
use crate::python::Value;

/// The line a list argument is written on (the construction's otherwise).
pub(super) fn list_line(construction: &AgentConstruction<'_>, field: &str) -> u32 {
    construction
        .call
        .keyword(field)
        .map_or(construction.line, |k| k.line)
}

impl ModuleReader<'_, '_> {
    /// The members of a list argument (`tools=`, `handoffs=`, …), each with
    /// the scope its names are read in; `None` (with the limit recorded)
    /// when the list is absent or cannot be read at all.
    pub(super) fn list_of(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        field: &str,
    ) -> Option<list_exprs::Members> {
        if let Some(replacement) = rewires::replacement_of(
            self.rewires,
            self.modules,
            self.path,
            self.facts,
            construction.call,
            field,
        ) {
            return self.replaced_members(agent, construction, field, &replacement);
        }
        let Some(keyword) = construction.call.keyword(field) else {
            // An absent field holds only what rewires add to it.
            let rewired = self.rewired_members(construction, field);
            return (!rewired.is_empty()).then_some(rewired);
        };
        self.reading_line.set(construction.line);
        match self.list_expression(&keyword.value, &construction.call.scope, 0, &[]) {
            Ok(mut members) => {
                members.extend(self.rewired_members(construction, field));
                Some(members)
            }
            Err(why) => {
                let reason = self.list_limit(agent, construction, field, &why, false);
                self.agent_gap(agent, reason);
                None
            }
        }
    }

    /// The field's whole value, as the one replacement after construction
    /// assigns it (`rewires::replacement_of`): read in the module that
    /// makes it, each member carrying where; the construction's own list
    /// is discarded, as at run time.
    fn replaced_members(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        field: &str,
        replacement: &rewires::Replacement<'_>,
    ) -> Option<list_exprs::Members> {
        let at = format!("{}:{}", replacement.path, replacement.store.line);
        let value = &replacement.store.value;
        self.reading_line.set(construction.line);
        let read = match replacement.own_module {
            true => self.list_expression(value, "", 0, &[]),
            false => self.in_module(replacement.path, None, |reader| {
                reader.list_expression(value, "", 0, &[])
            }),
        };
        match read {
            Ok(members) => {
                let from = (!replacement.own_module).then(|| replacement.path.to_string());
                Some(
                    members
                        .into_iter()
                        .map(|m| list_exprs::Member {
                            from: m.from.clone().or_else(|| from.clone()),
                            rewired_at: Some(at.clone()),
                            ..m
                        })
                        .collect(),
                )
            }
            Err(why) => {
                let why = format!("{why}, which {at} assigns to it after construction");
                let reason = self.list_limit(agent, construction, field, &why, false);
                self.agent_gap(agent, reason);
                None
            }
        }
    }

    /// What rewires after construction add to the field (`rewires.rs`):
    /// read in the module that makes them, each carrying where; one in
    /// another module holds only once that module is imported.
    fn rewired_members(
        &self,
        construction: &AgentConstruction<'_>,
        field: &str,
    ) -> list_exprs::Members {
        let Some(variable) = rewires::rewirable(self.facts, construction.call, field) else {
            return Vec::new();
        };
        let mut members = list_exprs::Members::new();
        for rewire in rewires::rewires_of(self.rewires, self.modules, self.path, variable, field) {
            let addition = rewire.addition;
            let when: Vec<String> = if rewire.own_module {
                Vec::new()
            } else {
                vec![format!("when `{}` is imported", rewire.path)]
            };
            let at = format!("{}:{}", rewire.path, addition.line);
            let read = match (addition.how.as_str(), &addition.value) {
                ("append" | "insert", value) => {
                    Ok(openai::list_members(std::slice::from_ref(value)))
                }
                // Another module's names are read there, so only a
                // display's members are taken from it.
                (_, Value::List(items) | Value::Tuple(items))
                    if !items.iter().any(|i| matches!(i, Value::Starred(_))) =>
                {
                    Ok(openai::list_members(items))
                }
                (_, value) if rewire.own_module => self
                    .list_expression(value, "", 0, &when)
                    .map(|read| read.into_iter().map(|m| m.member).collect()),
                _ => Err(format!("what {at} adds is not a list display")),
            };
            let from = (!rewire.own_module).then(|| rewire.path.to_string());
            let listed = match read {
                Ok(listed) => listed,
                Err(why) => vec![ListMember::Unread(why)],
            };
            members.extend(listed.into_iter().map(|member| list_exprs::Member {
                member,
                scope: String::new(),
                when: when.clone(),
                from: from.clone(),
                caller: None,
                rewired_at: Some(at.clone()),
                frame: None,
                namespace: None,
            }));
        }
        members
    }
}
