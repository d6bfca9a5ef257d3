//! The reference's `guidance` of a row (issue 42): for a Claude Code Bash
//! permission rule added, removed, widened or narrowed, the question a
//! reviewer should ask the rule's owner, the choices they have and what
//! the answer cannot establish; or, where the rule's effect depends on
//! more than the rule (an `ask` rule, a permission mode or hooks switch
//! on that side, a rule of another disposition that may match the same
//! commands), why no such question is offered.
//!
//! Read off the reference on fixtures (never its source). A row the
//! reference has no shape for is given no guidance (`null`): a deny
//! rule's widening or narrowing (the reference prints those as a rule
//! removed and one added; ours is one row, a documented difference).

use super::diff::{Direction, HostRow};
use super::grant::{Disposition, Grant, PermissionRule};
use super::inventory::HostInventory;
use super::rules::may_overlap;
use super::sources::Host;
use serde_json::{json, Value};

/// The settings whose presence on a side makes a rule's effect depend on
/// more than the rule.
const CONTEXT_SETTINGS: &[&str] = &[
    "defaultMode",
    "disableBypassPermissionsMode",
    "disableAllHooks",
];

const REPOSITORY_ONLY: &str = "These are repository declarations. Runtime access, credentials, other permission layers and task intent are not established.";
const ASK_UNSUPPORTED: &str = "This choice supports allow and deny declarations only.";
const INCOMPLETE: &str = "Relevant comparison context is incomplete; consult the named coverage limits. A resolver is not established by this guidance.";
const NEXT_ACTOR: &str = "declaration owner to be assigned";
const VERIFICATION: &str = "Compare the resulting declarations against the original base; a rerun establishes a declaration delta, not intent or runtime access.";
const RECORD: &str = "If intentional, record the rationale in the existing PR discussion; the declaration delta remains visible.";
const DISPUTE: &str = "If disputed, preserve the compared refs and evidence for triage; do not suppress the finding or rewrite policy to clear it.";
const RESCOPE_PREVIOUS: &str = "If another scope is intended, the declaration owner chooses it at the named source. The previous value is a reference, not an automatically safe fix.";
const RESCOPE_NEW: &str = "If another scope is intended, the declaration owner chooses it at the named source. This addition has no previous declaration to restore.";

/// The rules a row compares, when its grant is a permission rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RulePair {
    pub before: Option<PermissionRule>,
    pub after: Option<PermissionRule>,
}

impl RulePair {
    pub fn of(before: Option<&Grant>, after: Option<&Grant>) -> Option<RulePair> {
        let rule = |grant: Option<&Grant>| match grant {
            Some(Grant::Rule(rule)) => Some(rule.clone()),
            _ => None,
        };
        let pair = RulePair {
            before: rule(before),
            after: rule(after),
        };
        (pair.before.is_some() || pair.after.is_some()).then_some(pair)
    }
}

/// What a guidance is for: a row's change, or a rule moved between
/// dispositions (one review change over a removed and an added row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Row(Direction),
    Moved,
}

/// A row's guidance, or `Value::Null` for a row the reference gives none;
/// `context_incomplete` when the comparison names a limit anywhere (a
/// source not read, a hook script missing, a nested settings file).
pub fn guidance(
    row: &HostRow,
    base: &HostInventory,
    head: &HostInventory,
    context_incomplete: bool,
) -> Value {
    match row.rules.as_ref().filter(|_| row.host == Host::ClaudeCode) {
        Some(rules) => guidance_of(
            Change::Row(row.direction),
            rules,
            &row.source,
            [base, head],
            context_incomplete,
        ),
        None => Value::Null,
    }
}

/// The guidance of a Claude Code rule change in `source`.
pub fn guidance_of(
    change: Change,
    rules: &RulePair,
    source: &str,
    [base, head]: [&HostInventory; 2],
    context_incomplete: bool,
) -> Value {
    let is_bash = |rule: &Option<PermissionRule>| rule.as_ref().is_none_or(|r| is_bash(&r.rule));
    if !is_bash(&rules.before) || !is_bash(&rules.after) {
        return Value::Null;
    }
    let dispositions = [&rules.before, &rules.after].map(|r| r.as_ref().map(|r| r.disposition));
    if dispositions.contains(&Some(Disposition::Ask)) {
        // The reference names no rule here: the choice is not offered for
        // ask rules at all.
        return unavailable(source, &RulePair::default(), ASK_UNSUPPORTED);
    }
    let Some(available) = available(change, rules) else {
        return Value::Null;
    };
    if context_incomplete {
        return unavailable(source, rules, INCOMPLETE);
    }
    // The base side is asked first, then the head, each about the rule
    // the change has there.
    for (side, inventory, rule) in [("base", base, &rules.before), ("head", head, &rules.after)] {
        if let Some(rule) = rule {
            if has_context(inventory, rule) {
                let said = format!("The {side} inventory contains a host permission setting or a potentially overlapping rule with another disposition. Resolve that context before choosing scope; effective access is not established here.");
                return unavailable(source, rules, &said);
            }
        }
    }
    let mut guidance = named_rules(rules);
    guidance.extend(json_object(json!({
        "case": available.case,
        "choices": [RECORD, if available.new { RESCOPE_NEW } else { RESCOPE_PREVIOUS }, DISPUTE],
        "limitations": [REPOSITORY_ONLY],
        "next_actor": NEXT_ACTOR,
        "question": available.question,
        "source": source,
        "verification": VERIFICATION,
    })));
    Value::Object(guidance)
}

/// The rules' fields of a guidance object.
fn named_rules(rules: &RulePair) -> serde_json::Map<String, Value> {
    let name = |rule: &Option<PermissionRule>| rule.as_ref().map(|r| r.rule.clone());
    let disposition = |rule: &Option<PermissionRule>| rule.as_ref().map(|r| r.disposition.name());
    json_object(json!({
        "after_disposition": disposition(&rules.after),
        "after_rule": name(&rules.after),
        "before_disposition": disposition(&rules.before),
        "before_rule": name(&rules.before),
    }))
}

fn json_object(value: Value) -> serde_json::Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    }
}

fn is_bash(rule: &str) -> bool {
    super::rules::Rule::parse(rule).tool == "Bash"
}

struct Available {
    case: &'static str,
    question: String,
    /// An addition: there is no previous declaration to go back to.
    new: bool,
}

fn available(change: Change, rules: &RulePair) -> Option<Available> {
    let (before, after) = (rules.before.as_ref(), rules.after.as_ref());
    let direction = match (change, before, after) {
        (Change::Moved, Some(before), Some(after)) => {
            return Some(Available {
                case: "disposition_moved",
                question: format!(
                    "Is moving {} from {} to {} intended for this task?",
                    after.rule,
                    before.disposition.name(),
                    after.disposition.name()
                ),
                new: false,
            })
        }
        (Change::Moved, _, _) => return None,
        (Change::Row(direction), _, _) => direction,
    };
    match (direction, before, after) {
        (Direction::Added, None, Some(after)) => Some(Available {
            case: "declaration_added",
            question: format!(
                "Should this source add the {} declaration {} for this task?",
                after.disposition.name(),
                after.rule
            ),
            new: true,
        }),
        (Direction::Removed, Some(before), None) => Some(Available {
            case: "declaration_removed",
            question: format!(
                "Should this source remove the {} declaration {} for this task?",
                before.disposition.name(),
                before.rule
            ),
            new: false,
        }),
        (Direction::Widened, Some(before), Some(after))
            if before.disposition == Disposition::Allow =>
        {
            Some(Available {
                case: "allow_widened",
                question: format!(
                    "Does this task need the command matches of {} beyond {}?",
                    after.rule, before.rule
                ),
                new: false,
            })
        }
        (Direction::Narrowed, Some(before), Some(after))
            if before.disposition == Disposition::Allow =>
        {
            Some(Available {
                case: "allow_narrowed",
                question: format!(
                    "Is restricting this allow declaration from {} to {} intended?",
                    before.rule, after.rule
                ),
                new: false,
            })
        }
        _ => None,
    }
}

/// Whether a side holds what makes `rule`'s effect depend on more than
/// itself: a permission mode or hooks switch of Claude Code, or a Bash
/// rule of another disposition that may match a command `rule` matches.
fn has_context(inventory: &HostInventory, rule: &PermissionRule) -> bool {
    inventory
        .sources
        .iter()
        .filter(|source| source.host == Host::ClaudeCode)
        .flat_map(|source| source.grants())
        .any(|grant| match &grant {
            Grant::Setting(setting) => CONTEXT_SETTINGS.contains(&setting.setting.as_str()),
            Grant::Rule(other) => {
                other.disposition != rule.disposition
                    && is_bash(&other.rule)
                    && may_overlap(&other.rule, &rule.rule)
            }
            _ => false,
        })
}

/// No question offered, and why; `rules` the rules it names (none for an
/// ask rule's row).
fn unavailable(source: &str, rules: &RulePair, limitation: &str) -> Value {
    let mut guidance = named_rules(rules);
    guidance.extend(json_object(json!({
        "case": "unavailable",
        "choices": [],
        "limitations": [limitation, REPOSITORY_ONLY],
        "next_actor": NEXT_ACTOR,
        "question": Value::Null,
        "source": source,
        "verification": Value::Null,
    })));
    Value::Object(guidance)
}
