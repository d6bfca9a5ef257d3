//! What a builder adds to its list before the construction reads it
//! (`tools.append(c)`, `.extend([...])`, `.insert(i, c)`, `tools += [...]`,
//! and a loop appending each item of a display, recorded as its `extend`
//! by `python/extract/literal_loops.rs`): member by member, under the
//! `if` tests each addition runs under (item 11 of issue 40).

use super::list_exprs::{spelled_condition, Member, Members};
use crate::frameworks::openai::{self, ListMember};
use crate::graph::build::ModuleReader;

impl ModuleReader<'_, '_> {
    /// What a builder adds to its list before the construction reads it
    /// (`tools.append(c)`, `.extend([...])`, `.insert(i, c)`,
    /// `tools += [...]`), member by member; an addition under a condition
    /// or in a loop, or after the construction, is named, never read as
    /// bound.
    pub(in crate::graph::build) fn additions(
        &self,
        name: &str,
        scope: &str,
        depth: usize,
        when: &[String],
    ) -> Result<Members, String> {
        let until = self.reading_line.get();
        let mut additions: Vec<&crate::python::ListAddition> = self
            .facts
            .list_additions
            .iter()
            .filter(|a| a.target == name && a.scope == scope)
            .collect();
        additions.sort_by_key(|a| a.line);
        let mut members = Members::new();
        for addition in additions {
            // An addition under `if`/`elif` tests only (no loop, handler,
            // `try` or `with` around it) is bound when they hold, as a
            // conditional display's branch is (item 11 of issue 40).
            let tested = match &addition.guard {
                Some(conditions) if addition.conditional && !addition.protected => {
                    Some(conditions.iter().map(spelled_condition).collect::<Vec<_>>())
                }
                _ => None,
            };
            let when = &match &tested {
                Some(tests) => [when, tests.as_slice()].concat(),
                None => when.to_vec(),
            };
            if (addition.conditional && tested.is_none()) || addition.line > until {
                let why = if addition.conditional {
                    format!(
                        "`{name}` is added to under a condition or in a loop at line {}",
                        addition.line
                    )
                } else {
                    format!(
                        "`{name}` is added to after the agent is built, at line {}",
                        addition.line
                    )
                };
                members.push(Member::here(ListMember::Unread(why), scope, when));
                continue;
            }
            match addition.how.as_str() {
                "append" | "insert" => members.extend(
                    openai::list_members(std::slice::from_ref(&addition.value))
                        .into_iter()
                        .map(|m| Member::here(m, scope, when)),
                ),
                _ => match self.list_expression(&addition.value, scope, depth + 1, when) {
                    Ok(read) => members.extend(read),
                    Err(why) => members.push(Member::here(ListMember::Unread(why), scope, when)),
                },
            }
        }
        Ok(members)
    }
}
