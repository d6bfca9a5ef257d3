//! The policy's conditions (issue 45), named once for both command lines
//! and the daemon: what `--fail-on` takes, what a policy file's `fail-on`
//! and an allow entry's `conditions` hold, and the exit code of a failed
//! answer.

/// The exit code of an answer a policy failed: distinct from 0 (any
/// comparison), 1 (the daemon failed or could not be reached) and 2 (bad
/// input), so a CI step tells "the gate closed" from "the tool broke".
pub const FAILED_EXIT: u8 = 3;

/// What a policy can fail an answer on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Condition {
    /// A row whose change is `added`: an agent binds something new.
    Added,
    /// A row whose change is `changed`: interface, implementation, gate,
    /// condition or identity of a binding moved.
    Changed,
    /// A row whose change is `not_established`.
    NotEstablished,
    /// A row one of whose gates was removed or loosened, or moved in a
    /// direction that cannot be told.
    GateLoosened,
    /// A tool that now reaches an endpoint, process, file or database it
    /// did not (an added tool's reach, a changed tool's new reach).
    NewReach,
    /// The answer is not `compared`: something was not read.
    Partial,
}

impl Condition {
    /// Every condition, in the canonical order reports use.
    pub const ALL: [Condition; 6] = [
        Condition::Added,
        Condition::Changed,
        Condition::NotEstablished,
        Condition::GateLoosened,
        Condition::NewReach,
        Condition::Partial,
    ];

    /// The name `--fail-on` spells it with.
    pub fn as_str(self) -> &'static str {
        match self {
            Condition::Added => "added",
            Condition::Changed => "changed",
            Condition::NotEstablished => "not_established",
            Condition::GateLoosened => "gate-loosened",
            Condition::NewReach => "new-reach",
            Condition::Partial => "partial",
        }
    }

    /// The condition a name spells; `not-established` and `gate_loosened`
    /// style variants are taken too, since both spellings are in use.
    pub fn parse(name: &str) -> Option<Condition> {
        let name = name.trim().replace('_', "-");
        Condition::ALL
            .into_iter()
            .find(|c| c.as_str().replace('_', "-") == name)
    }

    /// Every name, for help and error messages.
    pub fn names() -> Vec<&'static str> {
        Condition::ALL.into_iter().map(Condition::as_str).collect()
    }
}

/// A comma-separated list (or several, as repeated flags give them) read
/// as conditions, deduplicated in canonical order; an unknown name is
/// refused with the names that are known.
pub fn parse_conditions<S: AsRef<str>>(lists: &[S]) -> Result<Vec<Condition>, String> {
    let mut found = Vec::new();
    for name in lists
        .iter()
        .flat_map(|list| list.as_ref().split(','))
        .map(str::trim)
        .filter(|name| !name.is_empty())
    {
        match Condition::parse(name) {
            Some(condition) => found.push(condition),
            None => {
                return Err(format!(
                    "{name:?} is not a policy condition; the conditions are {}.",
                    Condition::names().join(", ")
                ))
            }
        }
    }
    found.sort();
    found.dedup();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_read_in_either_spelling_in_canonical_order() {
        assert_eq!(
            parse_conditions(&["new-reach,added", "not-established", "added"]),
            Ok(vec![
                Condition::Added,
                Condition::NotEstablished,
                Condition::NewReach
            ])
        );
        assert_eq!(
            parse_conditions(&["gate_loosened"]),
            Ok(vec![Condition::GateLoosened])
        );
        assert_eq!(parse_conditions::<&str>(&[]), Ok(vec![]));
        assert_eq!(
            parse_conditions(&["added,widened"]),
            Err("\"widened\" is not a policy condition; the conditions are added, changed, not_established, gate-loosened, new-reach, partial.".to_string())
        );
    }
}
