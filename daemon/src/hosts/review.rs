//! The review's changes as the reference groups its rows: one change per
//! row, except a permission rule moved between dispositions in one source
//! (`allow: X` removed, `deny: X` added), which is one `moved` change over
//! both rows — one decision for the reviewer, not two.

use super::assess::Severity;
use super::diff::{Direction, HostRow};
use super::grant::PermissionRule;
use super::guidance::{guidance_of, Change, RulePair};
use super::inventory::HostInventory;
use super::sources::Host;
use serde_json::Value;

/// A rule moved between dispositions: its removed and added rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Move {
    pub removed: usize,
    pub added: usize,
    pub guidance: Value,
}

impl Move {
    /// The move's rows, in row order.
    pub fn indexes(&self) -> [usize; 2] {
        [self.removed.min(self.added), self.removed.max(self.added)]
    }

    /// Most severe of its rows.
    pub fn severity(&self, rows: &[HostRow]) -> Severity {
        self.indexes()
            .iter()
            .filter_map(|&i| rows.get(i).map(|row| row.severity))
            .min()
            .unwrap_or(Severity::Unknown)
    }
}

/// Each removed Claude Code rule row paired with an added row of the same
/// source and rule text under another disposition (each row in one move
/// at most).
pub fn moves(
    rows: &[HostRow],
    base: &HostInventory,
    head: &HostInventory,
    context_incomplete: bool,
) -> Vec<Move> {
    let mut taken = vec![false; rows.len()];
    let mut out = Vec::new();
    for (removed, row) in rows.iter().enumerate() {
        let Some(before) = rule_of(row, Direction::Removed) else {
            continue;
        };
        let partner = rows.iter().enumerate().find(|(added, other)| {
            !taken[*added]
                && other.source == row.source
                && rule_of(other, Direction::Added).is_some_and(|after| {
                    after.rule == before.rule && after.disposition != before.disposition
                })
        });
        let Some((added, other)) = partner else {
            continue;
        };
        taken[added] = true;
        let rules = RulePair {
            before: Some(before.clone()),
            after: other.rules.as_ref().and_then(|r| r.after.clone()),
        };
        out.push(Move {
            removed,
            added,
            guidance: guidance_of(
                Change::Moved,
                &rules,
                &row.source,
                [base, head],
                context_incomplete,
            ),
        });
    }
    out
}

/// The rule a Claude Code row removed (or added), when it is such a row.
fn rule_of(row: &HostRow, direction: Direction) -> Option<&PermissionRule> {
    let rules = row.rules.as_ref()?;
    let rule = match direction {
        Direction::Removed => rules.before.as_ref()?,
        _ => rules.after.as_ref()?,
    };
    (row.host == Host::ClaudeCode && row.direction == direction).then_some(rule)
}

/// How many review changes the rows make.
pub fn change_count(rows: usize, moves: &[Move]) -> usize {
    rows.saturating_sub(moves.len())
}
