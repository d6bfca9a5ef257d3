//! Gates (issue 22): what the application puts between the model's call
//! and a tool's code, read where it is written and compared on the
//! binding. The OpenAI Agents SDK's `needs_approval=`, `is_enabled=` and
//! `tool_input_guardrails=` of a function tool, a hosted MCP tool's
//! `require_approval`, Google ADK's `require_confirmation=` of a
//! `FunctionTool` and an agent's `before_tool_callback=`.
//!
//! A gate's value is what the object readers make of a value
//! (`ObjectSite::canonical`): a literal, a constant followed, a function by
//! its own code (`def <digest>`). A gate the read cannot name keeps its
//! spelling and is a named limit on its row: a change to it is not
//! established. Gates are part of what a binding means; a gate added,
//! removed, loosened or tightened is a changed row whose why names it.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum GateKind {
    NeedsApproval,
    RequireApproval,
    RequireConfirmation,
    IsEnabled,
    ToolInputGuardrails,
    BeforeToolCallback,
    /// An MCP server's `tool_filter`: which of its tools the agent sees.
    /// Never on `Binding::gates` (it is part of the object's identity);
    /// compared by what it lets through ([`filter_change`]).
    ToolFilter,
}

impl GateKind {
    /// The keyword the framework spells it with.
    pub fn as_str(self) -> &'static str {
        match self {
            GateKind::NeedsApproval => "needs_approval",
            GateKind::RequireApproval => "require_approval",
            GateKind::RequireConfirmation => "require_confirmation",
            GateKind::IsEnabled => "is_enabled",
            GateKind::ToolInputGuardrails => "tool_input_guardrails",
            GateKind::BeforeToolCallback => "before_tool_callback",
            GateKind::ToolFilter => "tool_filter",
        }
    }

    /// The gate a function tool's wrapper or decorator keyword is.
    pub fn of_tool_keyword(keyword: &str) -> Option<GateKind> {
        match keyword {
            "needs_approval" => Some(GateKind::NeedsApproval),
            "is_enabled" => Some(GateKind::IsEnabled),
            "tool_input_guardrails" => Some(GateKind::ToolInputGuardrails),
            "require_confirmation" => Some(GateKind::RequireConfirmation),
            _ => None,
        }
    }

    /// How strongly a value guards the call: higher holds the model back
    /// more; `None` when the direction cannot be told (a hosted MCP
    /// tool's default is the provider's, not the repository's).
    fn strength(self, value: Option<&str>) -> Option<u8> {
        let Some(value) = value else {
            // Not given: the framework's default, which is no gate for
            // every kind here but a hosted MCP tool's.
            return (self != GateKind::RequireApproval).then_some(0);
        };
        Some(match self {
            GateKind::NeedsApproval | GateKind::RequireConfirmation => match value {
                "True" => 2,
                "False" | "None" => 0,
                _ => 1,
            },
            GateKind::IsEnabled => match value {
                "False" => 2,
                "True" | "None" => 0,
                _ => 1,
            },
            GateKind::RequireApproval => match value {
                "'always'" => 2,
                "'never'" => 0,
                _ => 1,
            },
            GateKind::ToolInputGuardrails | GateKind::BeforeToolCallback => match value {
                "None" | "[]" | "()" => 0,
                _ => 1,
            },
            // Ordered by what it lets through, not by one value.
            GateKind::ToolFilter => return None,
        })
    }

    /// How the call goes once this gate is loosened or removed, for the
    /// review question (`without approval`).
    pub fn without(self) -> &'static str {
        match self {
            GateKind::NeedsApproval | GateKind::RequireApproval => "without approval",
            GateKind::RequireConfirmation => "without confirmation",
            GateKind::IsEnabled => "now that it is enabled more often",
            GateKind::ToolInputGuardrails => "without its input guardrails",
            GateKind::BeforeToolCallback => "without its before_tool_callback check",
            GateKind::ToolFilter => "now that its tool filter lets more tools through",
        }
    }
}

/// One gate on a binding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Gate {
    pub kind: GateKind,
    /// The value as compared (`True`, `'never'`, `def 1a2b…`); `None` when
    /// the read cannot name it.
    pub value: Option<String>,
    /// The source spelling: what the text shows, and what a gate not read
    /// is compared by.
    pub spelled: String,
}

impl Gate {
    /// What is compared: the value, or the spelling of one not read.
    fn meaning(&self) -> (&GateKind, Option<&str>, &str) {
        match &self.value {
            Some(value) => (&self.kind, Some(value), ""),
            None => (&self.kind, None, &self.spelled),
        }
    }
}

/// Whether two sides' gates mean the same.
pub fn same_gates(before: &[Gate], after: &[Gate]) -> bool {
    before.len() == after.len()
        && before
            .iter()
            .zip(after)
            .all(|(b, a)| b.meaning() == a.meaning())
}

/// How a gate moved between two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateMove {
    Added,
    Removed,
    Loosened,
    Tightened,
    Changed,
}

impl GateMove {
    pub fn as_str(self) -> &'static str {
        match self {
            GateMove::Added => "added",
            GateMove::Removed => "removed",
            GateMove::Loosened => "loosened",
            GateMove::Tightened => "tightened",
            GateMove::Changed => "changed",
        }
    }

    /// Whether the model is held back less after it.
    pub fn lets_more_through(self) -> bool {
        matches!(self, GateMove::Removed | GateMove::Loosened)
    }
}

/// One gate's change: its kind, how it moved, and its two spellings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateChange {
    pub kind: GateKind,
    pub moved: GateMove,
    pub before: Option<String>,
    pub after: Option<String>,
}

impl GateChange {
    /// `needs_approval True → False (loosened)`, `before_tool_callback
    /// removed (was audit)`, `require_confirmation added (True)`.
    pub fn text(&self) -> String {
        let kind = self.kind.as_str();
        match (&self.before, &self.after) {
            (Some(before), Some(after)) => {
                format!("{kind} {before} → {after} ({})", self.moved.as_str())
            }
            (None, Some(after)) => format!("{kind} added ({after})"),
            (Some(before), None) => format!("{kind} removed (was {before})"),
            (None, None) => format!("{kind} {}", self.moved.as_str()),
        }
    }
}

/// The gates that differ between two sides, in kind order.
pub fn gate_changes(before: &[Gate], after: &[Gate]) -> Vec<GateChange> {
    let mut kinds: Vec<GateKind> = before.iter().chain(after).map(|g| g.kind).collect();
    kinds.sort();
    kinds.dedup();
    let mut out = Vec::new();
    for kind in kinds {
        let b = before.iter().find(|g| g.kind == kind);
        let a = after.iter().find(|g| g.kind == kind);
        if b.map(Gate::meaning) == a.map(Gate::meaning) {
            continue;
        }
        let strength = |g: Option<&Gate>| kind.strength(g.and_then(|g| g.value.as_deref()));
        let known = |g: Option<&Gate>| g.is_none_or(|g| g.value.is_some());
        let moved = match (b, a) {
            (None, Some(_)) => GateMove::Added,
            (Some(_), None) => GateMove::Removed,
            _ if !(known(b) && known(a)) => GateMove::Changed,
            _ => match (strength(b), strength(a)) {
                (Some(x), Some(y)) if y < x => GateMove::Loosened,
                (Some(x), Some(y)) if y > x => GateMove::Tightened,
                _ => GateMove::Changed,
            },
        };
        // A gate given as its framework's default is no gate: adding
        // `needs_approval=False` holds nothing back.
        let moved = match (moved, strength(b), strength(a)) {
            (GateMove::Added, _, Some(0)) | (GateMove::Removed, Some(0), _) => GateMove::Changed,
            (other, _, _) => other,
        };
        let shown = |g: Option<&Gate>| {
            g.map(|g| match &g.value {
                Some(value) if !value.starts_with("def ") => value.clone(),
                _ => g.spelled.clone(),
            })
        };
        out.push(GateChange {
            kind,
            moved,
            before: shown(b),
            after: shown(a),
        });
    }
    out
}

/// An MCP server's `tool_filter`: the tool names it allows (`None`: every
/// tool) and blocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolFilter {
    pub allowed: Option<Vec<String>>,
    pub blocked: Option<Vec<String>>,
}

/// How an MCP server's `tool_filter` moved: `loosened` when every tool it
/// let through still passes and another does too (an allowed list grown,
/// a blocked list shrunk), `tightened` the other way, `added`/`removed`
/// with the filter, else `changed`. `None` when both sides are the same.
pub fn filter_change(
    before: Option<&ToolFilter>,
    after: Option<&ToolFilter>,
) -> Option<GateChange> {
    if before == after {
        return None;
    }
    let moved = match (before, after) {
        (None, Some(_)) => GateMove::Added,
        (Some(_), None) => GateMove::Removed,
        (Some(b), Some(a)) => {
            let wider = lets_through_all(a, b);
            let narrower = lets_through_all(b, a);
            match (wider, narrower) {
                (true, false) => GateMove::Loosened,
                (false, true) => GateMove::Tightened,
                _ => GateMove::Changed,
            }
        }
        (None, None) => return None,
    };
    Some(GateChange {
        kind: GateKind::ToolFilter,
        moved,
        before: before.map(filter_text),
        after: after.map(filter_text),
    })
}

/// Whether `wide` lets through every tool `narrow` does: its allowed list
/// (none = every tool) holds `narrow`'s, and it blocks nothing `narrow`
/// lets through.
fn lets_through_all(wide: &ToolFilter, narrow: &ToolFilter) -> bool {
    let allowed = match (&wide.allowed, &narrow.allowed) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(w), Some(n)) => n.iter().all(|tool| w.contains(tool)),
    };
    let blocked = wide.blocked.iter().flatten().all(|tool| {
        narrow.blocked.iter().flatten().any(|b| b == tool)
            || narrow.allowed.as_ref().is_some_and(|n| !n.contains(tool))
    });
    allowed && blocked
}

/// `allowed ["read_file"], blocked ["delete"]`.
fn filter_text(filter: &ToolFilter) -> String {
    let list = |names: &[String]| {
        let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
        format!("[{}]", quoted.join(", "))
    };
    let mut parts = Vec::new();
    if let Some(allowed) = &filter.allowed {
        parts.push(format!("allowed {}", list(allowed)));
    }
    if let Some(blocked) = &filter.blocked {
        parts.push(format!("blocked {}", list(blocked)));
    }
    if parts.is_empty() {
        "no names".to_string()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(kind: GateKind, value: &str) -> Gate {
        Gate {
            kind,
            value: Some(value.to_string()),
            spelled: value.to_string(),
        }
    }

    #[test]
    fn every_gate_keyword_the_readers_take_is_a_kind() {
        for keyword in crate::frameworks::TOOL_GATE_KEYWORDS {
            assert_eq!(
                GateKind::of_tool_keyword(keyword).map(GateKind::as_str),
                Some(*keyword)
            );
        }
    }

    #[test]
    fn a_gate_set_to_false_is_loosened_and_one_dropped_is_removed() {
        let before = [gate(GateKind::NeedsApproval, "True")];
        let changes = gate_changes(&before, &[gate(GateKind::NeedsApproval, "False")]);
        assert_eq!(changes[0].moved, GateMove::Loosened);
        assert_eq!(changes[0].text(), "needs_approval True → False (loosened)");
        let changes = gate_changes(&before, &[]);
        assert_eq!(changes[0].moved, GateMove::Removed);
        assert_eq!(changes[0].text(), "needs_approval removed (was True)");
    }

    #[test]
    fn a_hosted_mcp_tools_approval_moves_by_its_literal() {
        let before = [gate(GateKind::RequireApproval, "'always'")];
        let after = [gate(GateKind::RequireApproval, "'never'")];
        assert_eq!(gate_changes(&before, &after)[0].moved, GateMove::Loosened);
        assert_eq!(gate_changes(&after, &before)[0].moved, GateMove::Tightened);
    }

    #[test]
    fn a_default_written_out_holds_nothing_back() {
        let changes = gate_changes(&[], &[gate(GateKind::NeedsApproval, "False")]);
        assert_eq!(changes[0].moved, GateMove::Changed);
        assert!(!changes[0].moved.lets_more_through());
    }

    #[test]
    fn a_tool_filter_moves_by_what_it_lets_through() {
        let allowed = |names: &[&str]| ToolFilter {
            allowed: Some(names.iter().map(|n| n.to_string()).collect()),
            blocked: None,
        };
        let read = allowed(&["read_file"]);
        let both = allowed(&["read_file", "write_file"]);
        let widened = filter_change(Some(&read), Some(&both)).map(|c| (c.moved, c.text()));
        assert_eq!(
            widened,
            Some((
                GateMove::Loosened,
                "tool_filter allowed [\"read_file\"] → allowed [\"read_file\", \"write_file\"] (loosened)".to_string()
            ))
        );
        assert_eq!(
            filter_change(Some(&both), Some(&read)).map(|c| c.moved),
            Some(GateMove::Tightened)
        );
        assert_eq!(
            filter_change(Some(&read), None).map(|c| c.moved),
            Some(GateMove::Removed)
        );
        let other = allowed(&["write_file"]);
        assert_eq!(
            filter_change(Some(&read), Some(&other)).map(|c| c.moved),
            Some(GateMove::Changed)
        );
        let blocking = ToolFilter {
            allowed: None,
            blocked: Some(vec!["delete_file".to_string()]),
        };
        let unblocked = ToolFilter {
            allowed: None,
            blocked: Some(Vec::new()),
        };
        assert_eq!(
            filter_change(Some(&blocking), Some(&unblocked)).map(|c| c.moved),
            Some(GateMove::Loosened)
        );
        assert_eq!(filter_change(Some(&read), Some(&read.clone())), None);
    }

    #[test]
    fn gates_not_read_compare_by_spelling() {
        let unread = |spelled: &str| Gate {
            kind: GateKind::NeedsApproval,
            value: None,
            spelled: spelled.to_string(),
        };
        assert!(same_gates(&[unread("policy()")], &[unread("policy()")]));
        assert!(!same_gates(&[unread("policy()")], &[unread("other()")]));
        assert_eq!(
            gate_changes(&[unread("policy()")], &[unread("other()")])[0].moved,
            GateMove::Changed
        );
    }
}
