//! Pairing bindings by `(agent_source, agent, tool)` and deciding each row
//! (contract §6.5): a change only where meaning differs, and
//! `not_established` wherever a gap could hide or explain it.

use crate::graph::gates::{gate_changes, same_gates, GateChange};
use crate::graph::{Affects, Binding, Edge, Gap, SideGraph};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Added,
    Removed,
    Changed,
    NotEstablished,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
            Change::NotEstablished => "not_established",
        }
    }
}

/// One changed or uncertain binding.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub agent: String,
    /// Scope-relative, as the head side spells it.
    pub agent_source: String,
    pub tool: String,
    pub change: Change,
    /// What the row would be without uncertainty; set only when `change`
    /// is `NotEstablished`.
    pub candidate: Option<Change>,
    /// `("base" | "head", reasons)`, in the contract's key order.
    pub uncertainty: Vec<(&'static str, Vec<String>)>,
    pub before: Option<Binding>,
    pub after: Option<Binding>,
    /// A why more specific than the change's standard sentence (a bound
    /// object's identity changed).
    pub why: Option<String>,
    /// The gates that differ between the two sides (`graph::gates`), in
    /// kind order; empty unless both sides bind it.
    pub gate_changes: Vec<GateChange>,
}

const UNREADABLE_IMPLEMENTATION: &str = "The bound callable's implementation could not be read.";

type Key = (String, String, String);

fn key(binding: &Binding) -> Key {
    (
        binding.agent_source.clone(),
        binding.agent.clone(),
        binding.tool_key.clone(),
    )
}

/// Rows between two sides, sorted by key.
pub fn compare_sides(base: &SideGraph, head: &SideGraph) -> Vec<Row> {
    compare_renamed(base, head, &BTreeMap::new())
}

/// Rows between two sides, a base binding's file first mapped through the
/// exact renames between them (`renames`: base path → head path), so a
/// moved agent file is the same agent's file.
pub fn compare_renamed(
    original: &SideGraph,
    head: &SideGraph,
    renames: &BTreeMap<String, String>,
) -> Vec<Row> {
    // The base as the head spells its paths: a renamed file is the same
    // file, for its agents, their gaps and the edges naming them. Each
    // row's `before` is the original binding (same index), evidence as
    // the base wrote it.
    let view = renamed_view(original, renames);
    let base: &SideGraph = &view;
    // Each key's base binding (by index) and head binding.
    let mut pairs: BTreeMap<Key, (Option<usize>, Option<&Binding>)> = BTreeMap::new();
    for (index, binding) in base.bindings.iter().enumerate() {
        pairs.entry(key(binding)).or_default().0 = Some(index);
    }
    for binding in &head.bindings {
        pairs.entry(key(binding)).or_default().1 = Some(binding);
    }
    // Listed members neither side could resolve: their presence is known.
    let base_members = unresolved_members(base);
    let head_members = unresolved_members(head);
    for member in base_members.keys().chain(head_members.keys()) {
        pairs.entry(member.clone()).or_default();
    }
    pairs
        .into_iter()
        .filter_map(|((source, agent, tool), (before_index, after))| {
            let before = before_index.and_then(|i| base.bindings.get(i));
            let member_key = (source.clone(), agent.clone(), tool.clone());
            let (candidate, uncertainty) = match (before, after) {
                (None, Some(_)) => (
                    Change::Added,
                    vec![
                        ("base", absence_reasons(base, &source, &agent, &tool)),
                        (
                            "head",
                            reasons(head, &source, &agent, &tool, GapMatch::Tool),
                        ),
                    ],
                ),
                (Some(_), None) => (
                    Change::Removed,
                    vec![
                        ("head", absence_reasons(head, &source, &agent, &tool)),
                        (
                            "base",
                            reasons(base, &source, &agent, &tool, GapMatch::Tool),
                        ),
                    ],
                ),
                (Some(b), Some(a)) => (
                    Change::Changed,
                    vec![
                        (
                            "base",
                            both_present_reasons(base, b, a, &source, &agent, &tool),
                        ),
                        (
                            "head",
                            both_present_reasons(head, a, b, &source, &agent, &tool),
                        ),
                    ],
                ),
                // A member listed unresolved on one side alone: added or
                // removed, with what it is not established.
                (None, None) => {
                    match (base_members.get(&member_key), head_members.get(&member_key)) {
                        (None, Some(listed)) => (
                            Change::Added,
                            vec![
                                ("base", absence_reasons(base, &source, &agent, &tool)),
                                ("head", listed.clone()),
                            ],
                        ),
                        (Some(listed), None) => (
                            Change::Removed,
                            vec![
                                ("head", absence_reasons(head, &source, &agent, &tool)),
                                ("base", listed.clone()),
                            ],
                        ),
                        _ => return None,
                    }
                }
            };
            // A change after construction that can take members away: a
            // binding read on a side may not be held there, so its
            // presence is not established (an equal binding on both sides
            // is no row: nothing read differs).
            let differs = !matches!((before, after), (Some(b), Some(a)) if same_meaning(b, a));
            let mut uncertainty = uncertainty;
            if differs {
                for (side_name, side, present) in [
                    ("base", base, before.is_some()),
                    ("head", head, after.is_some()),
                ] {
                    let withdrawn = withdrawn_reasons(side, &source, &agent, &tool);
                    if !present || withdrawn.is_empty() {
                        continue;
                    }
                    if let Some((_, reasons)) =
                        uncertainty.iter_mut().find(|(name, _)| *name == side_name)
                    {
                        for reason in withdrawn {
                            if !reasons.contains(&reason) {
                                reasons.push(reason);
                            }
                        }
                    }
                }
            }
            let mut uncertainty: Vec<_> = uncertainty
                .into_iter()
                .filter(|(_, r)| !r.is_empty())
                .collect();
            // The condition alone changed: read, never evaluated, so the
            // change is a candidate, never established.
            if let (Some(b), Some(a)) = (before, after) {
                if let Some(reason) = condition_only_change(b, a) {
                    match uncertainty.iter_mut().find(|(side, _)| *side == "head") {
                        Some((_, reasons)) => reasons.push(reason),
                        None => uncertainty.push(("head", vec![reason])),
                    }
                }
            }
            let same_meaning = matches!((before, after), (Some(b), Some(a)) if same_meaning(b, a));
            if same_meaning && uncertainty.is_empty() {
                return None;
            }
            let (change, candidate) = if uncertainty.is_empty() {
                (candidate, None)
            } else {
                (Change::NotEstablished, Some(candidate))
            };
            Some(Row {
                agent,
                agent_source: source,
                tool,
                change,
                candidate,
                uncertainty,
                why: match (before, after) {
                    (Some(b), Some(a)) if change == Change::Changed => changed_why(b, a),
                    _ => None,
                },
                gate_changes: match (before, after) {
                    (Some(b), Some(a)) => binding_gate_changes(b, a),
                    _ => Vec::new(),
                },
                before: before_index.and_then(|i| original.bindings.get(i)).cloned(),
                after: after.cloned(),
            })
        })
        .collect()
}

/// `(agent source, agent, member key)` → the reasons of every gap that
/// stands for a listed member the side could not resolve (`Gap::member`),
/// a base side's sources first mapped through the renames.
fn unresolved_members(side: &SideGraph) -> BTreeMap<Key, Vec<String>> {
    let mut members: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    for gap in &side.gaps {
        let (Some(member), Some(agent), Some(source)) = (&gap.member, &gap.agent, &gap.source)
        else {
            continue;
        };
        let reasons = members
            .entry((source.clone(), agent.clone(), member.clone()))
            .or_default();
        if !reasons.contains(&gap.reason) {
            reasons.push(gap.reason.clone());
        }
    }
    members
}

/// A side as the other side spells its renamed files (`renames`: path →
/// new path): its agents' sources, its bindings' agent sources and the
/// target file of each agent edge (a handoff's or sub-agent's tool key
/// `handoff:<file>:<name>` and target, an agent tool's agent), and its
/// gaps' files and members. The side itself when nothing was renamed.
fn renamed_view<'s>(side: &'s SideGraph, renames: &BTreeMap<String, String>) -> Cow<'s, SideGraph> {
    if renames.is_empty() {
        return Cow::Borrowed(side);
    }
    let path = |p: &mut String| {
        if let Some(new) = renames.get(p.as_str()) {
            *p = new.clone();
        }
    };
    // An agent named by where it is built (`build@agent.py`: no literal
    // name) carries its file in its name: the same agent after the move.
    let name = |n: &mut String| rename_agent_name(n, renames);
    let mut view = side.clone();
    for agent in &mut view.agents {
        path(&mut agent.source);
        name(&mut agent.name);
    }
    for binding in &mut view.bindings {
        path(&mut binding.agent_source);
        name(&mut binding.agent);
        rename_edge_key(&mut binding.tool_key, renames);
        match &mut binding.edge {
            Edge::Handoff { target_source, .. } | Edge::SubAgent { target_source } => {
                path(target_source);
                name(&mut binding.tool);
            }
            Edge::Object(object) => {
                if let Some(source) = &mut object.identity.agent_source {
                    path(source);
                }
                if let Some(agent) = &mut object.identity.agent {
                    name(agent);
                }
            }
            Edge::Tool(_) => {}
        }
    }
    for order in &mut view.tool_orders {
        path(&mut order.agent_source);
        name(&mut order.agent);
    }
    for gap in &mut view.gaps {
        if let Some(source) = &mut gap.source {
            path(source);
        }
        if let Some(agent) = &mut gap.agent {
            name(agent);
        }
        if let Some(member) = &mut gap.member {
            rename_edge_key(member, renames);
        }
    }
    Cow::Owned(view)
}

/// An agent name `<function>@<file>` with its file renamed.
fn rename_agent_name(name: &mut String, renames: &BTreeMap<String, String>) {
    let renamed = name
        .rsplit_once('@')
        .and_then(|(function, file)| Some(format!("{function}@{}", renames.get(file)?)));
    if let Some(renamed) = renamed {
        *name = renamed;
    }
}

/// An agent edge's key (`handoff:<file>:<name>`) with its file renamed.
fn rename_edge_key(key: &mut String, renames: &BTreeMap<String, String>) {
    let Some((file, name)) = key
        .strip_prefix("handoff:")
        .and_then(|rest| rest.rsplit_once(':'))
    else {
        return;
    };
    let mut name = name.to_string();
    rename_agent_name(&mut name, renames);
    let file = renames.get(file).map_or(file, String::as_str);
    *key = format!("handoff:{file}:{name}");
}

/// When two sides bind a member alike but under conditions spelled
/// differently, the reason the change is not established: a condition is
/// read as written, never evaluated, so a new spelling may keep the same
/// members (`{"a", "b"}` → `("b", "a")`) or not.
fn condition_only_change(before: &Binding, after: &Binding) -> Option<String> {
    let alike = same_edge(before, after)
        && same_gates(&before.gates, &after.gates)
        && before.settings.changes(&after.settings).is_empty();
    if !alike || before.bound_when == after.bound_when {
        return None;
    }
    Some(format!(
        "{} → {}: the condition under which {} binds {} is read as written, not evaluated; whether it now holds it more or less often is not established.",
        held_when(&before.bound_when),
        held_when(&after.bound_when),
        crate::pyrepr::str_repr(&after.agent),
        crate::pyrepr::str_repr(&after.tool)
    ))
}

/// A binding's conditions as a sentence says them: `always`, or `only
/// when …; or when …`.
fn held_when(when: &[String]) -> String {
    if when.is_empty() {
        "always".to_string()
    } else {
        format!("only when {}", when.join("; or when "))
    }
}

/// What a binding means for the model: everything but where it is written,
/// and the agent's settings as far as both sides state them.
fn same_meaning(before: &Binding, after: &Binding) -> bool {
    same_edge(before, after)
        && same_gates(&before.gates, &after.gates)
        && before.settings.changes(&after.settings).is_empty()
        && before.bound_when == after.bound_when
}

fn same_edge(before: &Binding, after: &Binding) -> bool {
    match (&before.edge, &after.edge) {
        (Edge::Tool(b), Edge::Tool(a)) => {
            b.interface == a.interface && b.implementation_sha256 == a.implementation_sha256
        }
        (
            Edge::Handoff {
                target_source: b,
                options: bo,
            },
            Edge::Handoff {
                target_source: a,
                options: ao,
            },
        ) => b == a && bo == ao,
        (Edge::SubAgent { target_source: b }, Edge::SubAgent { target_source: a }) => b == a,
        (Edge::Object(b), Edge::Object(a)) => b.same_object(a),
        _ => false,
    }
}

/// The options of a `handoff()` that differ, in name order: each with its
/// two values (`tool_name_override 'a' → 'b'`, `on_handoff added`).
fn changed_options(before: &[(String, String)], after: &[(String, String)]) -> Vec<String> {
    let names: BTreeSet<&str> = before
        .iter()
        .chain(after)
        .map(|(name, _)| name.as_str())
        .collect();
    let value = |options: &[(String, String)], name: &str| {
        options
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    names
        .into_iter()
        .filter_map(|name| match (value(before, name), value(after, name)) {
            (Some(b), Some(a)) if b != a => Some(format!("{name} {b} → {a}")),
            (Some(_), None) => Some(format!("{name} removed")),
            (None, Some(_)) => Some(format!("{name} added")),
            _ => None,
        })
        .collect()
}

/// Every gate that moved between two sides of a binding: its own gates,
/// and an MCP server's `tool_filter` (part of the object's identity, so
/// already a change; named here by what it lets through).
fn binding_gate_changes(before: &Binding, after: &Binding) -> Vec<GateChange> {
    let mut changes = gate_changes(&before.gates, &after.gates);
    if let (Edge::Object(b), Edge::Object(a)) = (&before.edge, &after.edge) {
        changes.extend(crate::graph::gates::filter_change(
            b.identity.tool_filter.as_ref(),
            a.identity.tool_filter.as_ref(),
        ));
    }
    changes
}

/// A why naming what changed, where the standard sentence would not: an
/// object's identity keys, the agent's settings.
fn changed_why(before: &Binding, after: &Binding) -> Option<String> {
    // What guards the call comes first: it is the change a reviewer must
    // not miss, and a function tool's digest moves with it.
    let gates = binding_gate_changes(before, after);
    if !gates.is_empty() {
        let listed: Vec<String> = gates.iter().map(GateChange::text).collect();
        let mut sentence = format!("What guards the call changed ({})", listed.join("; "));
        if let Some(rest) = edge_why(before, after) {
            let rest = rest
                .trim_end_matches("; authority direction is not established.")
                .to_string();
            sentence.push_str(&format!("; {}", lower_first(&rest)));
        }
        return Some(format!(
            "{sentence}; authority direction is not established."
        ));
    }
    edge_why(before, after)
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The why for what the binding's edge and the agent's settings changed.
fn edge_why(before: &Binding, after: &Binding) -> Option<String> {
    let settings: Vec<String> = before
        .settings
        .changes(&after.settings)
        .into_iter()
        .map(|(field, b, a)| format!("{field} {b} → {a}"))
        .collect();
    let edge = match (&before.edge, &after.edge) {
        (Edge::Object(b), Edge::Object(a)) if !b.same_object(a) => Some(format!(
            "The bound object's identity changed ({})",
            crate::graph::objects::changed_keys(&b.identity, &a.identity).join(", ")
        )),
        (
            Edge::Handoff {
                target_source: bt,
                options: b,
            },
            Edge::Handoff {
                target_source: at,
                options: a,
            },
        ) if bt == at && b != a => Some(format!(
            "The handoff's options changed ({})",
            changed_options(b, a).join(", ")
        )),
        _ if !same_edge(before, after) => {
            Some("The bound callable's interface or implementation changed".to_string())
        }
        _ => None,
    };
    // Only the condition changed: read, never evaluated, so whether the
    // agent now holds the tool more or less often is not established.
    if edge.is_none() && settings.is_empty() && before.bound_when != after.bound_when {
        return Some(format!(
            "The condition under which the agent binds it changed (bound {} → bound {}); whether it now holds it more or less often is not established.",
            held_when(&before.bound_when),
            held_when(&after.bound_when)
        ));
    }
    let sentence = match (edge, settings.is_empty()) {
        (Some(edge), true) if matches!(before.edge, Edge::Object(_) | Edge::Handoff { .. }) => edge,
        (Some(_), true) => return None,
        (Some(edge), false) => format!(
            "{edge}, and the agent's settings changed ({})",
            settings.join("; ")
        ),
        (None, false) => format!(
            "The agent's settings changed ({}); what it binds did not",
            settings.join("; ")
        ),
        (None, true) => return None,
    };
    Some(format!(
        "{sentence}; authority direction is not established."
    ))
}

#[derive(Clone, Copy)]
enum GapMatch {
    /// Gaps that could hide this binding on the side where it is missing.
    Absence,
    /// Gaps naming exactly this tool.
    Tool,
}

fn source_covers(gap_source: &Option<String>, file: &str) -> bool {
    match gap_source {
        None => true,
        Some(source) => file == source || file.starts_with(&format!("{source}/")),
    }
}

fn gap_matches(gap: &Gap, file: &str, agent: &str, tool: &str, how: GapMatch) -> bool {
    let agent_ok = gap.agent.as_deref().is_none_or(|a| a == agent);
    match how {
        GapMatch::Absence => {
            gap.affects == Affects::BindingPresence
                && source_covers(&gap.source, file)
                && agent_ok
                && gap.tool.as_deref().is_none_or(|t| t == tool)
                && gap.may_hold(tool)
        }
        GapMatch::Tool => {
            gap.affects == Affects::BindingPresence
                && gap.tool.as_deref() == Some(tool)
                && agent_ok
                && gap.source.as_deref().is_none_or(|s| s == file)
        }
    }
}

fn reasons(side: &SideGraph, file: &str, agent: &str, tool: &str, how: GapMatch) -> Vec<String> {
    let set: BTreeSet<String> = side
        .gaps
        .iter()
        .filter(|gap| gap_matches(gap, file, agent, tool, how))
        .map(|gap| gap.reason.clone())
        .collect();
    set.into_iter().collect()
}

/// What could hide a binding on the side that lacks it: the gaps that
/// may hold it (contract §6.5), and, when the side does not observe the
/// agent at all, the gaps on an agent of the same file that the side
/// identifies only by a source label (`CustomAgent.build@agent.py`: the
/// reader could not name it, as when a class builds it in a method it
/// does not read per instance). The agent may be that one, read on the
/// other side and not here, so its bindings' absence is not established.
fn absence_reasons(side: &SideGraph, file: &str, agent: &str, tool: &str) -> Vec<String> {
    let mut found = reasons(side, file, agent, tool, GapMatch::Absence);
    let observed = side
        .agents
        .iter()
        .any(|entry| entry.name == agent && entry.source == file);
    if observed {
        return found;
    }
    let unread_here: BTreeSet<&String> = side
        .gaps
        .iter()
        .filter(|gap| {
            gap.affects == Affects::BindingPresence
                && gap
                    .agent
                    .as_deref()
                    .is_some_and(|other| other != agent && other.contains('@'))
                && gap.source.as_deref() == Some(file)
                && gap.may_hold(tool)
        })
        .map(|gap| &gap.reason)
        .collect();
    for reason in unread_here {
        if !found.contains(reason) {
            found.push(reason.clone());
        }
    }
    found
}

/// The gaps on a side that may take away a binding read there
/// (`Gap::withdraws`): a change after construction the reader does not
/// read, on this agent's field or on an object that may be it.
fn withdrawn_reasons(side: &SideGraph, file: &str, agent: &str, tool: &str) -> Vec<String> {
    let set: BTreeSet<String> = side
        .gaps
        .iter()
        .filter(|gap| {
            gap.withdraws
                && gap.affects == Affects::BindingPresence
                && source_covers(&gap.source, file)
                && gap.agent.as_deref().is_none_or(|a| a == agent)
                && gap.tool.as_deref().is_none_or(|t| t == tool)
                && gap.may_hold(tool)
        })
        .map(|gap| gap.reason.clone())
        .collect();
    set.into_iter().collect()
}

fn both_present_reasons(
    side: &SideGraph,
    binding: &Binding,
    other: &Binding,
    file: &str,
    agent: &str,
    tool: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    if let Edge::Tool(def) = &binding.edge {
        if def.implementation_sha256.is_none() {
            out.push(UNREADABLE_IMPLEMENTATION.to_string());
        }
    }
    // A part of a binding's identity not read (an object's host, a factory
    // argument) only matters when the two sides differ: spelled the same
    // and otherwise equal, there is no change to doubt.
    let objects_differ = !same_edge(binding, other) || !same_gates(&binding.gates, &other.gates);
    // A part read whole on both sides differs: the object changed, and
    // its unread parts (implementation gaps) stay limits, not doubts.
    let read_part_differs = matches!(
        (&binding.edge, &other.edge),
        (Edge::Object(a), Edge::Object(b)) if crate::graph::objects::established_change(a, b)
    );
    // A condition change where part of the agent's list was not read: the
    // unread part may hold the tool another way.
    if binding.bound_when != other.bound_when {
        out.extend(
            side.gaps
                .iter()
                .filter(|gap| {
                    gap.affects == Affects::BindingPresence
                        && gap.tool.is_none()
                        && gap.may_hold(tool)
                        && gap.agent.as_deref() == Some(agent)
                        && gap.source.as_deref().is_none_or(|s| s == file)
                })
                .map(|gap| gap.reason.clone()),
        );
    }
    let tool_gaps: BTreeSet<String> = side
        .gaps
        .iter()
        .filter(|gap| {
            gap.tool.as_deref() == Some(tool)
                && gap.agent.as_deref().is_none_or(|a| a == agent)
                && gap.source.as_deref().is_none_or(|s| s == file)
                && (gap.affects == Affects::BindingPresence
                    || (objects_differ && !read_part_differs))
        })
        .map(|gap| gap.reason.clone())
        .collect();
    out.extend(tool_gaps);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::schema::Interface;
    use crate::graph::ToolDefinition;

    fn tool(agent: &str, name: &str, digest: &str, line: u32) -> Binding {
        Binding {
            agent: agent.into(),
            agent_source: "agent.py".into(),
            tool_key: name.into(),
            tool: name.into(),
            binding_location: ("agent.py".into(), line),
            edge: Edge::Tool(ToolDefinition {
                source: "agent.py".into(),
                line: Some(line),
                implementation_sha256: Some(digest.into()),
                import_path: None,
                reach: None,
                interface: Interface {
                    properties: vec![],
                    required: vec![],
                    output: None,
                    signature: format!("{name}()"),
                },
            }),
            settings: crate::graph::AgentSettings::UNSET,
            construction_sites: Vec::new(),
            bound_when: Vec::new(),
            callers: Vec::new(),
            rewired_at: Vec::new(),
            gates: Vec::new(),
        }
    }

    fn side(bindings: Vec<Binding>, gaps: Vec<Gap>) -> SideGraph {
        SideGraph {
            bindings,
            gaps,
            ..SideGraph::default()
        }
    }

    #[test]
    fn added_removed_changed_and_moved() {
        let base = side(
            vec![
                tool("a", "keep", "1", 3),
                tool("a", "moved", "2", 5),
                tool("a", "gone", "3", 7),
            ],
            vec![],
        );
        let head = side(
            vec![
                tool("a", "keep", "9", 3),
                tool("a", "moved", "2", 50),
                tool("a", "new", "4", 9),
            ],
            vec![],
        );
        let rows = compare_sides(&base, &head);
        let got: Vec<_> = rows.iter().map(|r| (r.tool.as_str(), r.change)).collect();
        assert_eq!(
            got,
            vec![
                ("gone", Change::Removed),
                ("keep", Change::Changed),
                ("new", Change::Added)
            ]
        );
    }

    #[test]
    fn a_gap_on_the_missing_side_makes_a_candidate() {
        let base = side(vec![tool("a", "t", "1", 3)], vec![]);
        let gap = Gap::agent("agent.py", "a", "dynamic".into());
        let head = side(vec![], vec![gap]);
        let rows = compare_sides(&base, &head);
        assert_eq!(rows[0].change, Change::NotEstablished);
        assert_eq!(rows[0].candidate, Some(Change::Removed));
        assert_eq!(
            rows[0].uncertainty,
            vec![("head", vec!["dynamic".to_string()])]
        );
        // A gap confined to another agent does not touch this row.
        let head = side(vec![], vec![Gap::agent("agent.py", "b", "other".into())]);
        assert_eq!(compare_sides(&base, &head)[0].change, Change::Removed);
    }

    /// Issue 39, item 1: an agent the head does not observe, in a file
    /// where the head left an agent it could name only by a label unread,
    /// may be that agent: its bindings' absence is not established.
    #[test]
    fn an_agent_unread_under_a_label_may_be_the_missing_one() {
        let base = side(vec![tool("a", "t", "1", 3)], vec![]);
        let unread = Gap::agent(
            "agent.py",
            "Helper.build@agent.py",
            "built by a class".into(),
        );
        let head = side(vec![], vec![unread.clone()]);
        let rows = compare_sides(&base, &head);
        assert_eq!(rows[0].change, Change::NotEstablished);
        assert_eq!(rows[0].candidate, Some(Change::Removed));
        // The same gap in another file, or on an agent the head names,
        // is no reason.
        let elsewhere = Gap::agent("other.py", "Helper.build@other.py", "x".into());
        let named = Gap::agent("agent.py", "b", "y".into());
        let head = side(vec![], vec![elsewhere, named]);
        assert_eq!(compare_sides(&base, &head)[0].change, Change::Removed);
        // Observed on the head (read, binding nothing): a removal.
        let mut head = side(vec![], vec![unread]);
        head.agents.push(crate::graph::AgentEntry {
            source: "agent.py".into(),
            name: "a".into(),
            location: "agent.py:3".into(),
            variable: None,
        });
        assert_eq!(compare_sides(&base, &head)[0].change, Change::Removed);
    }

    /// Issue 39, item 8: a member listed unresolved on one side only.
    #[test]
    fn an_unresolved_member_on_one_side_is_a_candidate() {
        let member = Gap {
            member: Some("b".into()),
            ..Gap::agent("agent.py", "a", "unresolved b".into())
        };
        let base = side(vec![], vec![member.clone()]);
        let head = side(vec![], vec![]);
        let rows = compare_sides(&base, &head);
        assert_eq!(rows.len(), 1);
        assert_eq!(
            (rows[0].tool.as_str(), rows[0].change),
            ("b", Change::NotEstablished)
        );
        assert_eq!(rows[0].candidate, Some(Change::Removed));
        assert_eq!(
            rows[0].uncertainty,
            vec![("base", vec!["unresolved b".to_string()])]
        );
        // On both sides: no row.
        let head = side(vec![], vec![member]);
        assert!(compare_sides(&base, &head).is_empty());
    }
}
