//! Two sides' grants of one source paired into rows. A grant with one
//! identity on both sides is one row when it changed (`widened`,
//! `narrowed` or `changed`); otherwise a grant is `added` or `removed`.
//! Permission rules pair by what they match (`rules::covers`): a rule
//! replaced by one matching everything it did and more is one `widened`
//! row. The direction is always the agent's authority: a deny rule that
//! matches more narrows it.

use super::assess::{self, setting_rank, Severity, Weight};
use super::grant::{Disposition, Grant, McpServer, PermissionRule, Setting};
use super::guidance::RulePair;
use super::label::{self, Shown};
use super::rules::covers;
use super::sources::Host;
use super::workflow_authority::Authority;
use std::cmp::Ordering;

/// Which way a row moves the agent's authority.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Direction {
    Added,
    Removed,
    Widened,
    Narrowed,
    Changed,
}

impl Direction {
    pub fn name(self) -> &'static str {
        match self {
            Direction::Added => "added",
            Direction::Removed => "removed",
            Direction::Widened => "widened",
            Direction::Narrowed => "narrowed",
            Direction::Changed => "changed",
        }
    }
}

/// One row of a host comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostRow {
    pub host: Host,
    pub source: String,
    /// The grant's kind (`Grant::kind`).
    pub kind: &'static str,
    pub direction: Direction,
    pub severity: Severity,
    pub expands: bool,
    pub disposition: Option<Disposition>,
    pub before: Option<Shown>,
    pub after: Option<Shown>,
    /// What changed, for a `changed` row of a structured grant.
    pub change: Option<String>,
    pub why: String,
    /// The rules compared, for a permission rule's row.
    pub rules: Option<RulePair>,
    /// The reference's `guidance` (`guidance.rs`), once both sides'
    /// inventories are known; `null` until then and for rows without one.
    pub guidance: serde_json::Value,
}

impl HostRow {
    pub fn subject(&self) -> String {
        format!("{} {}", self.host.name(), self.source)
    }
}

/// The rows of one source, `base` and `head` its grants on each side.
pub fn rows(host: Host, source: &str, base: &[Grant], head: &[Grant]) -> Vec<HostRow> {
    let mut out = Vec::new();
    let row = |direction, weight: Weight, before: Option<&Grant>, after: Option<&Grant>| HostRow {
        host,
        source: source.to_string(),
        kind: after.or(before).map_or("unknown", Grant::kind),
        direction,
        severity: weight.severity,
        expands: weight.expands,
        disposition: after.or(before).and_then(disposition),
        before: before.map(label::shown),
        after: after.map(label::shown),
        change: None,
        why: weight.why,
        rules: RulePair::of(before, after),
        guidance: serde_json::Value::Null,
    };
    for disposition in [Disposition::Allow, Disposition::Deny, Disposition::Ask] {
        let of = |grants: &[Grant]| -> Vec<PermissionRule> {
            grants
                .iter()
                .filter_map(|g| match g {
                    Grant::Rule(r) if r.disposition == disposition => Some(r.clone()),
                    _ => None,
                })
                .collect()
        };
        out.extend(
            rule_rows(disposition, &of(base), &of(head))
                .into_iter()
                .map(|(direction, weight, before, after)| {
                    row(
                        direction,
                        weight,
                        before.map(Grant::Rule).as_ref(),
                        after.map(Grant::Rule).as_ref(),
                    )
                }),
        );
    }
    let others = |grants: &[Grant]| -> Vec<Grant> {
        grants
            .iter()
            .filter(|g| !matches!(g, Grant::Rule(_)))
            .cloned()
            .collect()
    };
    let (base, head) = (others(base), others(head));
    for before in &base {
        let identity = before.identity();
        match head.iter().find(|g| g.identity() == identity) {
            None => out.push(row(
                Direction::Removed,
                assess::removed(before),
                Some(before),
                None,
            )),
            Some(after) if after == before || same_effect(before, after) => {}
            Some(after) => {
                let (direction, weight, change) = changed(before, after);
                let mut made = row(direction, weight, Some(before), Some(after));
                made.change = change;
                if let (Grant::Workflow(old), Grant::Workflow(new)) = (before, after) {
                    made.before = Some(label::workflow_shown(old, Some(new)));
                    made.after = Some(label::workflow_shown(new, Some(old)));
                }
                out.push(made);
            }
        }
    }
    for after in &head {
        let identity = after.identity();
        if !base.iter().any(|g| g.identity() == identity) {
            out.push(row(
                Direction::Added,
                assess::added(after),
                None,
                Some(after),
            ));
        }
    }
    out
}

/// Two spellings of one grant: a workflow whose declarations moved
/// (workflow level to job level) but whose jobs' tokens, triggers and
/// steps are the same.
fn same_effect(before: &Grant, after: &Grant) -> bool {
    match (before, after) {
        (Grant::Workflow(old), Grant::Workflow(new)) => {
            Authority::of(old).same_as(&Authority::of(new))
        }
        _ => false,
    }
}

fn disposition(grant: &Grant) -> Option<Disposition> {
    match grant {
        Grant::Rule(rule) => Some(rule.disposition),
        _ => None,
    }
}

type RuleRow = (
    Direction,
    Weight,
    Option<PermissionRule>,
    Option<PermissionRule>,
);

/// The rows of one disposition's rules: each added rule that matches
/// everything a removed rule did is one row with it, and so is each added
/// rule a removed one matched entirely; the rest are added or removed.
fn rule_rows(
    disposition: Disposition,
    base: &[PermissionRule],
    head: &[PermissionRule],
) -> Vec<RuleRow> {
    let removed: Vec<&PermissionRule> = base.iter().filter(|r| !head.contains(r)).collect();
    let added: Vec<&PermissionRule> = head.iter().filter(|r| !base.contains(r)).collect();
    let mut paired_removed = vec![false; removed.len()];
    let mut paired_added = vec![false; added.len()];
    let mut out = Vec::new();
    // A broader rule first: it takes the first rule it covers.
    for (a, new) in added.iter().enumerate() {
        if let Some(r) =
            (0..removed.len()).find(|&r| !paired_removed[r] && covers(&new.rule, &removed[r].rule))
        {
            paired_removed[r] = true;
            paired_added[a] = true;
            out.push(broader(disposition, removed[r], new));
        }
    }
    for (a, new) in added.iter().enumerate() {
        if paired_added[a] {
            continue;
        }
        if let Some(r) =
            (0..removed.len()).find(|&r| !paired_removed[r] && covers(&removed[r].rule, &new.rule))
        {
            paired_removed[r] = true;
            paired_added[a] = true;
            out.push(narrower(disposition, removed[r], new));
        }
    }
    let unpaired = |paired: &[bool], i: usize| !paired[i];
    for old in removed
        .iter()
        .enumerate()
        .filter(|(r, _)| unpaired(&paired_removed, *r))
        .map(|(_, old)| old)
    {
        let grant = Grant::Rule((*old).clone());
        let mut weight = assess::removed(&grant);
        let still_covered = head.iter().any(|h| h != *old && covers(&h.rule, &old.rule));
        if still_covered {
            weight.why = format!(
                "removes this {} rule; another {} rule still covers its matches",
                disposition.name(),
                disposition.name()
            );
            weight.expands = false;
        }
        out.push((Direction::Removed, weight, Some((*old).clone()), None));
    }
    for new in added
        .iter()
        .enumerate()
        .filter(|(a, _)| unpaired(&paired_added, *a))
        .map(|(_, new)| new)
    {
        let grant = Grant::Rule((*new).clone());
        let mut weight = assess::added(&grant);
        if base.iter().any(|b| covers(&b.rule, &new.rule))
            && head.iter().any(|h| h != *new && covers(&h.rule, &new.rule))
        {
            weight.expands = false;
        }
        out.push((Direction::Added, weight, None, Some((*new).clone())));
    }
    out
}

/// `new` matches everything `old` did, and more.
fn broader(disposition: Disposition, old: &PermissionRule, new: &PermissionRule) -> RuleRow {
    let new_weight = assess::added(&Grant::Rule(new.clone()));
    let row = |direction, severity, why: String, expands| {
        (
            direction,
            Weight {
                severity,
                why,
                expands,
            },
            Some(old.clone()),
            Some(new.clone()),
        )
    };
    match disposition {
        Disposition::Allow => row(
            Direction::Widened,
            new_weight.severity,
            format!(
                "{}; it matches everything the rule it replaces did, and more",
                new_weight.why
            ),
            true,
        ),
        Disposition::Deny => row(
            Direction::Narrowed,
            Severity::Low,
            "denies everything the rule it replaces did, and more".to_string(),
            false,
        ),
        Disposition::Ask => row(
            Direction::Narrowed,
            Severity::Low,
            "asks before everything the rule it replaces did, and more".to_string(),
            false,
        ),
    }
}

/// `old` matched everything `new` does, and more.
fn narrower(disposition: Disposition, old: &PermissionRule, new: &PermissionRule) -> RuleRow {
    let old_weight = assess::added(&Grant::Rule(old.clone()));
    let row = |direction, severity, why: &str, expands| {
        (
            direction,
            Weight {
                severity,
                why: why.to_string(),
                expands,
            },
            Some(old.clone()),
            Some(new.clone()),
        )
    };
    match disposition {
        Disposition::Allow => row(
            Direction::Narrowed,
            old_weight.severity,
            "replaces a rule with one that matches less; everything it allows was allowed before",
            false,
        ),
        Disposition::Deny => row(
            Direction::Widened,
            Severity::Low,
            "denies less than the rule it replaces: calls only that rule matched are no longer denied",
            true,
        ),
        Disposition::Ask => row(
            Direction::Widened,
            Severity::Low,
            "asks before less than the rule it replaces: calls only that rule matched no longer ask for confirmation",
            true,
        ),
    }
}

/// One grant (not a rule) changed in place.
fn changed(before: &Grant, after: &Grant) -> (Direction, Weight, Option<String>) {
    match (before, after) {
        (Grant::Setting(old), Grant::Setting(new)) => setting_changed(old, new),
        (Grant::Mcp(old), Grant::Mcp(new)) => (
            Direction::Changed,
            Weight {
                severity: Severity::High,
                why: assess::mcp_edit(old, new),
                expands: false,
            },
            Some(mcp_change(old, new)),
        ),
        (Grant::Hook(old), Grant::Hook(new)) => {
            // Every handler kept and more added: more runs around the
            // agent's actions than before.
            let kept = old.handlers.iter().all(|h| new.handlers.contains(h));
            let (direction, why, expands) = if kept && new.handlers.len() > old.handlers.len() {
                (Direction::Widened, assess::HOOK_WHY, true)
            } else {
                (
                    Direction::Changed,
                    "hook edit; authority direction is unknown",
                    false,
                )
            };
            (
                direction,
                Weight {
                    severity: Severity::High,
                    why: why.to_string(),
                    expands,
                },
                Some(label::hook_change(old, new)),
            )
        }
        (Grant::Workflow(old), Grant::Workflow(new)) => {
            let weight = assess::workflow_weight(new);
            let (a, b) = (Authority::of(new), Authority::of(old));
            let clauses = label::runs_change(old, new);
            // What the steps run is said after the authority's reasons; in
            // place of the generic one when that is all there is to say.
            let why = match clauses.is_empty() {
                true => weight.why.clone(),
                false if weight.why == assess::WORKFLOW_OWN_AUTHORITY => clauses.join("; "),
                false => format!("{}; {}", weight.why, clauses.join("; ")),
            };
            let severity = weight.severity;
            let direction = match a.compared_to(&b) {
                Some(Ordering::Greater) => Direction::Widened,
                Some(Ordering::Less) => Direction::Narrowed,
                _ => Direction::Changed,
            };
            (
                direction,
                Weight {
                    severity,
                    why,
                    expands: direction == Direction::Widened,
                },
                None,
            )
        }
        // One identity is one kind of grant.
        _ => (Direction::Changed, assess::added(after), None),
    }
}

fn setting_changed(old: &Setting, new: &Setting) -> (Direction, Weight, Option<String>) {
    let (was, now) = (
        assess::added(&Grant::Setting(old.clone())),
        assess::added(&Grant::Setting(new.clone())),
    );
    let ranks = (
        setting_rank(&old.setting, &old.value),
        setting_rank(&new.setting, &new.value),
    );
    let direction = match ranks {
        (Some(a), Some(b)) if b > a => Direction::Widened,
        (Some(a), Some(b)) if b < a => Direction::Narrowed,
        _ => Direction::Changed,
    };
    let weight = match direction {
        Direction::Widened => Weight {
            expands: true,
            ..now
        },
        Direction::Narrowed => Weight {
            severity: was.severity,
            why: format!("{}, in place of a setting that {}", now.why, was.why),
            expands: false,
        },
        _ => Weight {
            severity: was.severity.min(now.severity),
            why: format!("{}, in place of a setting that {}", now.why, was.why),
            expands: false,
        },
    };
    (direction, weight, None)
}

/// What changed in an MCP server's entry, values never named.
fn mcp_change(old: &McpServer, new: &McpServer) -> String {
    let mut parts = Vec::new();
    let pair = |name: &str, a: &Option<String>, b: &Option<String>, parts: &mut Vec<String>| {
        if a != b {
            let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".to_string());
            parts.push(format!("{name} {} → {}", show(a), show(b)));
        }
    };
    pair("command", &old.command, &new.command, &mut parts);
    pair("package", &old.package, &new.package, &mut parts);
    pair("url", &old.url, &new.url, &mut parts);
    if old.url == new.url && old.url_sha256 != new.url_sha256 {
        parts.push("url changed in its path or query (withheld)".to_string());
    }
    for (name, a, b) in [
        ("env keys", &old.env_keys, &new.env_keys),
        ("header keys", &old.header_keys, &new.header_keys),
    ] {
        let mut delta: Vec<String> = b
            .iter()
            .filter(|k| !a.contains(k))
            .map(|k| format!("+{k}"))
            .collect();
        delta.extend(a.iter().filter(|k| !b.contains(k)).map(|k| format!("-{k}")));
        if !delta.is_empty() {
            parts.push(format!("{name} {}", delta.join(" ")));
        }
    }
    if old.package == new.package && old.args_sha256 != new.args_sha256 {
        parts.push("arguments changed".to_string());
    }
    if old.env_keys == new.env_keys
        && old.header_keys == new.header_keys
        && old.values_sha256 != new.values_sha256
    {
        parts.push("environment or header values changed".to_string());
    }
    if parts.is_empty() {
        parts.push("other settings changed".to_string());
    }
    format!("{}: {}", new.server, parts.join("; "))
}

/// Rows in the order they are printed: most severe first, then by source,
/// direction and text.
pub fn sort(rows: &mut [HostRow]) {
    rows.sort_by(|a, b| {
        a.severity
            .cmp(&b.severity)
            .then_with(|| a.subject().cmp(&b.subject()))
            .then_with(|| a.direction.cmp(&b.direction))
            .then_with(|| a.why.cmp(&b.why))
            .then_with(|| label::long(&a.before).cmp(&label::long(&b.before)))
            .then_with(|| label::long(&a.after).cmp(&label::long(&b.after)))
    });
}
