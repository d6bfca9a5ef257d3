//! A framework call's arguments by the parameter each binds, positional or
//! keyword, through the generated table of signatures (`signatures.rs`):
//! `researcher.as_tool("search", "Searches")` passes `tool_name` and
//! `tool_description`. An argument the table cannot place (a positional
//! past the parameters every release agrees on, `*args`, `**kwargs`) is
//! unplaced: a reader treats what it may carry as unread, never absent.

use super::signatures::POSITIONAL;
use crate::python::{Text, Value};

/// The arguments of one framework call, placed.
#[derive(Debug, Default)]
pub struct Placed<'v> {
    /// `(parameter, value)`, positional ones first, in call order.
    pub named: Vec<(&'v str, &'v Value)>,
    /// Arguments no parameter could be given to (spelled as written).
    pub unplaced: Vec<&'v Value>,
    /// A `**mapping` was passed: any parameter not named may be set.
    pub spread: bool,
}

impl<'v> Placed<'v> {
    /// The value passed for `parameter`, when the call names it.
    pub fn get(&self, parameter: &str) -> Option<&'v Value> {
        self.named
            .iter()
            .find(|(name, _)| *name == parameter)
            .map(|(_, value)| *value)
    }

    /// Whether what the call passes for `parameter` is known: named, or
    /// certainly not passed (no unplaced argument could be it).
    pub fn known(&self, parameter: &str) -> bool {
        self.get(parameter).is_some() || (self.unplaced.is_empty() && !self.spread)
    }
}

/// The positional parameters of `callable` (the readers' name, e.g.
/// `agents.Agent.as_tool`); empty for a callable the table does not hold.
pub fn positional(callable: &str) -> &'static [&'static str] {
    POSITIONAL
        .iter()
        .find(|(name, _)| *name == callable)
        .map_or(&[], |(_, params)| *params)
}

/// Places a call's arguments on `callable`'s parameters.
pub fn place<'v>(
    callable: &str,
    args: &'v [Value],
    keywords: &'v [(Option<Text>, Value)],
) -> Placed<'v> {
    let params = positional(callable);
    let mut placed = Placed::default();
    let mut starred = false;
    for (index, arg) in args.iter().enumerate() {
        starred |= matches!(arg, Value::Starred(_));
        match params.get(index) {
            Some(param) if !starred => placed.named.push((param, arg)),
            _ => placed.unplaced.push(arg),
        }
    }
    for (name, value) in keywords {
        match name {
            Some(name) => placed.named.push((name.as_str(), value)),
            None => placed.spread = true,
        }
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::Str(text.into())
    }

    #[test]
    fn positional_arguments_bind_the_parameters_every_release_agrees_on() {
        let args = [s("search"), s("Searches the topics")];
        let placed = place("agents.Agent.as_tool", &args, &[]);
        assert_eq!(placed.get("tool_name"), Some(&s("search")));
        assert_eq!(
            placed.get("tool_description"),
            Some(&s("Searches the topics"))
        );
        assert!(placed.unplaced.is_empty());
        assert!(placed.known("is_enabled"));
    }

    #[test]
    fn what_the_table_cannot_place_is_unplaced_not_absent() {
        // `clone` takes keywords only.
        let args = [s("x")];
        let placed = place("agents.Agent.clone", &args, &[]);
        assert_eq!(placed.unplaced, vec![&s("x")]);
        assert!(!placed.known("tools"));
        // After `*args` nothing is placed; `**kwargs` may set anything.
        let args = [Value::Starred(Box::new(Value::Name("rest".into()))), s("y")];
        let keywords = [(None, Value::Name("options".into()))];
        let placed = place("agents.Agent.as_tool", &args, &keywords);
        assert!(placed.named.is_empty());
        assert_eq!(placed.unplaced.len(), 2);
        assert!(placed.spread);
        assert!(!placed.known("tool_name"));
        // An unknown callable places nothing positionally.
        assert!(positional("agents.Nope").is_empty());
    }

    #[test]
    fn the_table_holds_every_callable_the_readers_place() {
        for callable in [
            "agents.Agent.as_tool",
            "agents.handoff",
            "google.adk.AgentTool",
            "google.adk.FunctionTool",
        ] {
            assert!(!positional(callable).is_empty(), "{callable}");
        }
        assert_eq!(positional("agents.handoff")[0], "agent");
        assert_eq!(positional("google.adk.AgentTool")[0], "agent");
    }
}
