//! The contract's JSON document (output-contract §2) for one comparison,
//! sanitised, with its `comparison_id`. Key order is the contract's.

use super::{comparison_status, side_status, Change, Row};
use crate::graph::objects::{Credential, ObjectKind, ObjectTool};
use crate::graph::{
    AgentSettings, Binding, Edge, Gap, ImportPath, Setting, SideGraph, ToolDefinition,
};
use crate::paths::rooted;
use crate::render::{id::comparison_id, pyjson::to_canonical_ascii, sanitize::sanitize};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::sync::OnceLock;

pub const SCHEMA_VERSION: &str = "0.4";
pub const MAX_PYTHON_BYTES: u64 = 2_000_000;

/// The three advisory sentences every document carries (contract §2.5).
pub const ADVISORY_LIMITS: [&str; 3] = [
    "Covers supported OpenAI Agents SDK and Google ADK source wiring only.",
    "Deployment-root reachability, runtime behavior, effects other than the outbound HTTP calls a row names, and business authority are not established.",
    "This comparison is advisory evidence and supplies no release verdict or merge permission.",
];

/// What the document says about one side besides its graph.
#[derive(Debug, Clone)]
pub struct SideMeta {
    pub requested_ref: String,
    /// Base side only: the requested ref's own commit.
    pub requested_commit: Option<String>,
    pub compared_commit: String,
    pub tree: String,
    pub scope: String,
}

pub struct Comparison<'a> {
    pub base_meta: &'a SideMeta,
    pub head_meta: &'a SideMeta,
    pub base: &'a SideGraph,
    pub head: &'a SideGraph,
    pub rows: &'a [Row],
    pub max_python_files: u32,
    pub scope_selection: Value,
    /// `scope_selection.limits`, which turn `compared` into `partial`.
    pub scope_limits: &'a [String],
    /// File renames between the scopes, scope-relative.
    pub renames: &'a [super::FileRename],
    /// Agents renamed in place (`compare::agent_renames`).
    pub agent_renames: &'a [super::AgentRename],
}

/// One `source_correspondence` entry: an identical blob as the reference
/// writes it; a pair git's rename detection makes of an edited file adds
/// its similarity (issue 41, item 5).
fn correspondence_entry(rename: &super::FileRename, base: &str, head: &str) -> Value {
    match rename.similarity {
        None => {
            json!({"base_source": base, "head_source": head, "basis": "git_rename_identical_blob"})
        }
        Some(similarity) => json!({
            "base_source": base,
            "head_source": head,
            "basis": "git_rename_similar_blob",
            "similarity_percent": similarity,
        }),
    }
}

/// `tool_list_stability` (issue 10): beside the rows, never a row; only
/// present when there is something to say, so other documents are
/// unchanged.
pub fn stability_object(stability: &super::stability::Stability, scope: &str) -> Option<Value> {
    if stability.is_empty() {
        return None;
    }
    let order: Vec<Value> = stability
        .order_changed
        .iter()
        .map(|o| json!({"agent": o.agent, "agent_source": rooted(scope, &o.agent_source), "before": o.before, "after": o.after}))
        .collect();
    let caveats: Vec<Value> = stability
        .caveats
        .iter()
        .map(|c| json!({"agent": c.agent, "agent_source": rooted(scope, &c.agent_source), "why": c.why}))
        .collect();
    Some(json!({"order_changed": order, "caveats": caveats}))
}

/// Builds the whole single-comparison document, sanitised, id last.
pub fn single_document(c: &Comparison<'_>) -> Value {
    let mut doc = comparison_object(c);
    doc.insert("scope_selection".into(), c.scope_selection.clone());
    let stability = super::stability::stability(c.base, c.head);
    if let Some(object) = stability_object(&stability, &c.head_meta.scope) {
        doc.insert("tool_list_stability".into(), object);
    }
    finish(Value::Object(doc))
}

/// One comparison as a document without `scope_selection` and id: the
/// single document's body, and a combined document's `comparisons[]` entry.
fn comparison_object(c: &Comparison<'_>) -> Map<String, Value> {
    let mut doc = Map::new();
    doc.insert(
        "application_comparison_schema_version".into(),
        json!(SCHEMA_VERSION),
    );
    doc.insert(
        "comparison_status".into(),
        json!(comparison_status(c.base, c.head, c.scope_limits)),
    );
    doc.insert("static_analysis_only".into(), json!(true));
    doc.insert(
        "comparison_basis".into(),
        json!("source_observed_per_agent_wiring"),
    );
    doc.insert("input_origin".into(), json!("independent_tree_discovery"));
    doc.insert("engine".into(), engine_object().clone());
    doc.insert("base".into(), side_object(c.base_meta, c.base));
    doc.insert("head".into(), side_object(c.head_meta, c.head));
    doc.insert(
        "options".into(),
        json!({"max_python_files": c.max_python_files, "max_python_bytes": MAX_PYTHON_BYTES}),
    );
    let correspondence: Vec<Value> = c
        .renames
        .iter()
        .map(|rename| correspondence_entry(rename, &rename.base, &rename.head))
        .collect();
    doc.insert("source_correspondence".into(), Value::Array(correspondence));
    if let Some(agents) = super::agent_renames::correspondence(c.agent_renames, &c.head_meta.scope)
    {
        doc.insert("agent_correspondence".into(), agents);
    }
    let rows: Vec<Value> = c
        .rows
        .iter()
        .map(|row| row_object(row, &c.base_meta.scope, &c.head_meta.scope))
        .collect();
    doc.insert("rows".into(), Value::Array(rows));
    let declared = super::declared::declared_changes(c.base, c.head);
    if !declared.is_empty() {
        doc.insert(
            "declared_effects".into(),
            super::declared::declared_effects_json(
                &declared,
                &c.base_meta.scope,
                &c.head_meta.scope,
            ),
        );
    }
    doc.insert("limits".into(), json!(ADVISORY_LIMITS));
    doc
}

/// The combined document of a derived run that found no comparison or
/// several (contract §2.2, §2.4 combined shape, §6.2 combined status).
pub fn combined_document(
    base_meta: &SideMeta,
    head_meta: &SideMeta,
    comparisons: &[Comparison<'_>],
    max_python_files: u32,
    scope_selection: Value,
    scope_limits: &[String],
) -> Value {
    let parts: Vec<Map<String, Value>> = comparisons.iter().map(comparison_object).collect();
    let statuses: Vec<&str> = parts
        .iter()
        .map(|p| {
            p.get("comparison_status")
                .and_then(Value::as_str)
                .unwrap_or("partial")
        })
        .collect();
    let status = if !scope_limits.is_empty() {
        "partial"
    } else if statuses.iter().all(|s| *s == "not_established") {
        "not_established"
    } else if statuses.iter().all(|s| *s == "compared") {
        "compared"
    } else {
        "partial"
    };
    let mut doc = Map::new();
    doc.insert(
        "application_comparison_schema_version".into(),
        json!(SCHEMA_VERSION),
    );
    doc.insert("comparison_status".into(), json!(status));
    doc.insert("static_analysis_only".into(), json!(true));
    doc.insert(
        "comparison_basis".into(),
        json!("source_observed_per_agent_wiring"),
    );
    doc.insert("input_origin".into(), json!("independent_tree_discovery"));
    doc.insert("engine".into(), engine_object().clone());
    for (key, meta) in [("base", base_meta), ("head", head_meta)] {
        doc.insert(key.into(), combined_side(key, meta, &parts, scope_limits));
    }
    doc.insert(
        "options".into(),
        json!({"max_python_files": max_python_files, "max_python_bytes": MAX_PYTHON_BYTES}),
    );
    let mut correspondence = Vec::new();
    for c in comparisons {
        for rename in c.renames {
            correspondence.push(correspondence_entry(
                rename,
                &rooted(&c.base_meta.scope, &rename.base),
                &rooted(&c.head_meta.scope, &rename.head),
            ));
        }
    }
    doc.insert("source_correspondence".into(), Value::Array(correspondence));
    let renamed: Vec<Value> = comparisons
        .iter()
        .filter_map(|c| super::agent_renames::correspondence(c.agent_renames, &c.head_meta.scope))
        .filter_map(|v| v.as_array().cloned())
        .flatten()
        .collect();
    if !renamed.is_empty() {
        doc.insert("agent_correspondence".into(), Value::Array(renamed));
    }
    let mut rows = Vec::new();
    for (part, c) in parts.iter().zip(comparisons) {
        for row in part
            .get("rows")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let mut row = row.clone();
            if let Some(source) = row.get("agent_source").and_then(Value::as_str) {
                row["agent_source"] = json!(rooted(&c.head_meta.scope, source));
            }
            rows.push(row);
        }
    }
    doc.insert("rows".into(), Value::Array(rows));
    let declared: Vec<Value> = parts
        .iter()
        .filter_map(|p| p.get("declared_effects").and_then(Value::as_array))
        .flatten()
        .cloned()
        .collect();
    if !declared.is_empty() {
        doc.insert("declared_effects".into(), Value::Array(declared));
    }
    doc.insert(
        "comparisons".into(),
        Value::Array(parts.into_iter().map(Value::Object).collect()),
    );
    doc.insert("scope_selection".into(), scope_selection);
    doc.insert("limits".into(), json!(ADVISORY_LIMITS));
    finish(Value::Object(doc))
}

/// A combined document's side: each comparison's side joined, every path
/// spelled from the repository root.
fn combined_side(
    key: &str,
    meta: &SideMeta,
    parts: &[Map<String, Value>],
    scope_limits: &[String],
) -> Value {
    let sides: Vec<&Value> = parts.iter().filter_map(|p| p.get(key)).collect();
    let scope_of = |side: &Value| side["scope"].as_str().unwrap_or(".").to_string();
    let mut out = Map::new();
    out.insert("requested_ref".into(), json!(meta.requested_ref));
    if let Some(commit) = &meta.requested_commit {
        out.insert("requested_commit".into(), json!(commit));
    }
    out.insert("compared_commit".into(), json!(meta.compared_commit));
    out.insert("tree".into(), json!(meta.tree));
    out.insert("scope".into(), Value::Null);
    out.insert(
        "scopes".into(),
        json!(sides.iter().map(|s| scope_of(s)).collect::<Vec<_>>()),
    );
    let status = if sides.is_empty() {
        "not_selected"
    } else if sides.iter().any(|s| s["status"] == "partial") {
        "partial"
    } else {
        "complete"
    };
    out.insert("status".into(), json!(status));
    let mut sources = Vec::new();
    let mut agents = Vec::new();
    let mut gaps = Vec::new();
    let mut tests = Vec::new();
    let mut limits: BTreeSet<String> = scope_limits.iter().cloned().collect();
    let mut bindings = 0u64;
    for side in &sides {
        let scope = scope_of(side);
        let root = |v: &Value| json!(rooted(&scope, v.as_str().unwrap_or_default()));
        for source in side["sources"].as_array().into_iter().flatten() {
            sources.push(json!({"type": source["type"], "path": root(&source["path"])}));
        }
        for agent in side["agents"].as_array().into_iter().flatten() {
            agents.push(json!({"name": agent["name"], "source": root(&agent["source"]), "location": root(&agent["location"])}));
        }
        for gap in side["coverage_gaps"].as_array().into_iter().flatten() {
            let mut gap = gap.clone();
            if let Some(source) = gap["source"].as_str() {
                gap["source"] = json!(rooted(&scope, source));
            }
            gaps.push(gap);
        }
        tests.extend(
            side["excluded_tests"]
                .as_array()
                .into_iter()
                .flatten()
                .cloned(),
        );
        bindings += side["binding_count"].as_u64().unwrap_or(0);
        for limit in side["limits"].as_array().into_iter().flatten() {
            limits.insert(format!("{scope}: {}", limit.as_str().unwrap_or_default()));
        }
    }
    out.insert("sources".into(), Value::Array(sources));
    out.insert("agents".into(), Value::Array(agents));
    out.insert("binding_count".into(), json!(bindings));
    out.insert(
        "limits".into(),
        json!(limits.into_iter().collect::<Vec<_>>()),
    );
    out.insert("coverage_gaps".into(), Value::Array(gaps));
    out.insert("excluded_tests".into(), Value::Array(tests));
    Value::Object(out)
}

/// Sanitises the document and appends its `comparison_id` (contract §3.2).
fn finish(mut doc: Value) -> Value {
    sanitize(&mut doc);
    // The summary is read from the sanitised rows, placed third, and
    // digested into the id like any other key (contract §5.1).
    let summary = super::summary::summary(&doc);
    if let Value::Object(map) = &mut doc {
        let at = map.len().min(2);
        map.shift_insert(at, "summary".into(), summary);
    }
    let id = comparison_id(&doc);
    if let Value::Object(map) = &mut doc {
        map.insert("comparison_id".into(), json!(id));
    }
    doc
}

fn side_object(meta: &SideMeta, side: &SideGraph) -> Value {
    let mut out = Map::new();
    out.insert("requested_ref".into(), json!(meta.requested_ref));
    if let Some(commit) = &meta.requested_commit {
        out.insert("requested_commit".into(), json!(commit));
    }
    out.insert("compared_commit".into(), json!(meta.compared_commit));
    out.insert("tree".into(), json!(meta.tree));
    out.insert("scope".into(), json!(meta.scope));
    out.insert("status".into(), json!(side_status(side)));
    let sources: Vec<Value> = side
        .sources
        .iter()
        .map(|(kind, path)| json!({"type": kind, "path": path}))
        .collect();
    out.insert("sources".into(), Value::Array(sources));
    let agents: Vec<Value> = side
        .agents
        .iter()
        .map(|a| json!({"name": a.name, "source": a.source, "location": a.location}))
        .collect();
    out.insert("agents".into(), Value::Array(agents));
    out.insert("binding_count".into(), json!(side.bindings.len()));
    out.insert("limits".into(), json!(side.all_limits()));
    let mut gaps: Vec<&Gap> = side.gaps.iter().collect();
    gaps.sort_by_cached_key(|gap| gap_sort_key(gap));
    gaps.dedup();
    out.insert(
        "coverage_gaps".into(),
        Value::Array(gaps.into_iter().map(gap_object).collect()),
    );
    out.insert("excluded_tests".into(), json!(side.excluded_tests));
    Value::Object(out)
}

fn gap_object(gap: &Gap) -> Value {
    let mut object = json!({
        "source": gap.source,
        "agent": gap.agent,
        "tool": gap.tool,
        "affects": gap.affects.as_str(),
        "reason": gap.reason,
    });
    // Present only when the gap is confined to one capability field, so a
    // reference consumer's objects keep their shape.
    if let (Some(field), Some(map)) = (gap.field, object.as_object_mut()) {
        map.insert("field".into(), json!(field.as_str()));
    }
    object
}

/// Gaps sort by their JSON text with sorted keys (affects, agent, field,
/// reason, source, tool): comparing each value's ASCII JSON token in that order is
/// the same order, without printing whole objects.
fn gap_sort_key(gap: &Gap) -> Vec<String> {
    let token = |v: &Option<String>| match v {
        Some(s) => to_canonical_ascii(&json!(s)),
        None => "null".to_string(),
    };
    // With sorted keys, `"field": …` comes between `agent` and `reason`
    // when present; its key text sorts before `"reason"`.
    let field = match gap.field {
        Some(field) => format!("\"field\": {}", to_canonical_ascii(&json!(field.as_str()))),
        None => "\"reason\"".to_string(),
    };
    vec![
        to_canonical_ascii(&json!(gap.affects.as_str())),
        token(&gap.agent),
        field,
        to_canonical_ascii(&json!(gap.reason)),
        token(&gap.source),
        token(&gap.tool),
    ]
}

/// One row in the document's shape (before sanitising): what history lists
/// per commit.
pub fn row_json(row: &Row, base_scope: &str, head_scope: &str) -> Value {
    row_object(row, base_scope, head_scope)
}

fn row_object(row: &Row, base_scope: &str, head_scope: &str) -> Value {
    let mut out = Map::new();
    out.insert("agent".into(), json!(row.agent));
    out.insert("agent_source".into(), json!(row.agent_source));
    out.insert("tool".into(), json!(row.tool));
    out.insert("change".into(), json!(row.change.as_str()));
    out.insert(
        "candidate_change".into(),
        json!(row.candidate.map(Change::as_str)),
    );
    let mut uncertainty = Map::new();
    for (side, reasons) in &row.uncertainty {
        uncertainty.insert((*side).into(), json!(reasons));
    }
    out.insert("uncertainty".into(), Value::Object(uncertainty));
    out.insert(
        "before".into(),
        row.before
            .as_ref()
            .map_or(Value::Null, |b| binding_object(b, base_scope)),
    );
    out.insert(
        "after".into(),
        row.after
            .as_ref()
            .map_or(Value::Null, |b| binding_object(b, head_scope)),
    );
    out.insert(
        "why".into(),
        json!(row.why.as_deref().unwrap_or(why(row.change))),
    );
    out.insert("review_question".into(), json!(review_question(row)));
    if !row.gate_changes.is_empty() {
        let changes: Vec<Value> = row
            .gate_changes
            .iter()
            .map(|c| {
                json!({
                    "gate": c.kind.as_str(),
                    "change": c.moved.as_str(),
                    "before": c.before,
                    "after": c.after,
                    "text": c.text(),
                })
            })
            .collect();
        out.insert("gate_changes".into(), Value::Array(changes));
    }
    Value::Object(out)
}

fn why(change: Change) -> &'static str {
    match change {
        Change::Added => "The source now binds this callable to this agent.",
        Change::Removed => {
            "The selected source path no longer binds this callable to this agent; check scope limits for relocation."
        }
        Change::Changed => {
            "The bound callable's interface or implementation changed; authority direction is not established."
        }
        Change::NotEstablished => {
            "This candidate change cannot be established from the affected inputs; it is not a no-change result."
        }
    }
}

fn review_question(row: &Row) -> String {
    // A gate loosened or removed asks its own question first.
    if row.change == Change::Changed {
        if let Some(gate) = row
            .gate_changes
            .iter()
            .find(|c| c.moved.lets_more_through())
        {
            return format!(
                "Should {} call {} {}?",
                row.agent,
                row.tool,
                gate.kind.without()
            );
        }
    }
    match row.candidate {
        Some(candidate) if row.change == Change::NotEstablished => format!(
            "Resolve the named uncertainty before treating {}.{} as {}.",
            row.agent,
            row.tool,
            candidate.as_str()
        ),
        _ => format!(
            "Should {} have this {} binding to {}? Review the before/after signature and implementation locations.",
            row.agent,
            row.change.as_str(),
            row.tool
        ),
    }
}

/// One side of a row; every path rooted (contract §2.7).
fn binding_object(binding: &Binding, scope: &str) -> Value {
    let mut out = Map::new();
    out.insert("agent".into(), json!(binding.agent));
    out.insert(
        "agent_source".into(),
        json!(rooted(scope, &binding.agent_source)),
    );
    out.insert("tool".into(), json!(binding.tool));
    match &binding.edge {
        Edge::Tool(def) => {
            let (file, line) = &binding.binding_location;
            out.insert(
                "binding_location".into(),
                json!(format!("{}:{line}", rooted(scope, file))),
            );
            out.insert("edge_type".into(), json!("direct_tool"));
            out.insert(
                "definition".into(),
                json!({
                    "source": rooted(scope, &def.source),
                    "line": def.line,
                    "implementation_sha256": def.implementation_sha256,
                }),
            );
            let mut properties = Map::new();
            for (name, kind) in &def.interface.properties {
                properties.insert(name.clone(), json!({"type": kind}));
            }
            out.insert(
                "input_schema".into(),
                json!({"type": "object", "properties": properties, "required": def.interface.required}),
            );
            out.insert(
                "output_schema".into(),
                match &def.interface.output {
                    Some(kind) => json!({"type": kind}),
                    None => json!({}),
                },
            );
            out.insert("signature".into(), json!(def.interface.signature));
            out.insert("evidence_basis".into(), json!("ast_extraction"));
            if let Some(path) = &def.import_path {
                out.insert(
                    "import_path".into(),
                    json!([import_path_object(path, def, scope)]),
                );
            }
            if binding.construction_sites.len() > 1 {
                let sites: Vec<String> = binding
                    .construction_sites
                    .iter()
                    .map(|line| format!("{}:{line}", rooted(scope, &binding.agent_source)))
                    .collect();
                out.insert("construction_sites".into(), json!(sites));
            }
            if let Some(reach) = &def.reach {
                out.insert("reach".into(), super::reach_json::reach(reach, scope));
            }
            out.insert(
                "effect_evidence".into(),
                super::reach_json::effect_evidence(def.reach.as_ref(), scope),
            );
        }
        Edge::Handoff { target_source, .. } | Edge::SubAgent { target_source } => {
            let edge_type = match &binding.edge {
                Edge::SubAgent { .. } => "subagent",
                _ => "handoff",
            };
            out.insert("edge_type".into(), json!(edge_type));
            out.insert("target_source".into(), json!(rooted(scope, target_source)));
            // Read beyond the reference: an SDK `handoff()`'s options.
            if let Edge::Handoff { options, .. } = &binding.edge {
                if !options.is_empty() {
                    let options: serde_json::Map<String, Value> = options
                        .iter()
                        .map(|(name, value)| (name.clone(), json!(value)))
                        .collect();
                    out.insert("handoff_options".into(), Value::Object(options));
                }
            }
            let (file, line) = &binding.binding_location;
            out.insert(
                "binding_location".into(),
                json!(format!("{}:{line}", rooted(scope, file))),
            );
            out.insert("evidence_basis".into(), json!("ast_extraction"));
        }
        Edge::Object(object) => {
            let (file, line) = &binding.binding_location;
            out.insert(
                "binding_location".into(),
                json!(format!("{}:{line}", rooted(scope, file))),
            );
            let edge_type = match object.identity.kind {
                Some(ObjectKind::McpServer) => "toolset",
                _ => "direct_tool",
            };
            out.insert("edge_type".into(), json!(edge_type));
            out.insert("object".into(), object_identity(object, scope));
            out.insert("object_evidence".into(), object_evidence(object, scope));
            out.insert("evidence_basis".into(), json!("ast_extraction"));
            out.insert(
                "effect_evidence".into(),
                json!({"conservative_effect": "write", "status": "unknown", "claims": []}),
            );
        }
    }
    if !binding.bound_when.is_empty() {
        out.insert("bound_when".into(), json!(binding.bound_when));
    }
    if !binding.gates.is_empty() {
        let gates: Vec<Value> = binding
            .gates
            .iter()
            .map(|g| json!({"gate": g.kind.as_str(), "spelled": g.spelled, "value": g.value}))
            .collect();
        out.insert("gates".into(), Value::Array(gates));
    }
    // Read beyond the reference: the list came through a builder's
    // parameter, from every call of that builder in the scope.
    let places = |places: &[String]| -> Vec<String> {
        places
            .iter()
            .map(|at| match at.rsplit_once(':') {
                Some((file, line)) => format!("{}:{line}", rooted(scope, file)),
                None => at.clone(),
            })
            .collect()
    };
    if !binding.callers.is_empty() {
        out.insert("builder_callers".into(), json!(places(&binding.callers)));
    }
    // Read beyond the reference: a rewire after construction added it.
    if !binding.rewired_at.is_empty() {
        out.insert("rewired_at".into(), json!(places(&binding.rewired_at)));
    }
    if let Some(settings) = settings_object(&binding.settings) {
        out.insert("agent_settings".into(), settings);
    }
    Value::Object(out)
}

/// `agent_settings` (schema 0.4 extension): the settings the source states,
/// and those it gives in a way this reader does not recognise. Omitted when
/// the agent states none.
fn settings_object(settings: &AgentSettings) -> Option<Value> {
    let mut out = Map::new();
    let mut uncertain = Vec::new();
    for (field, setting) in [
        ("tool_use_behavior", &settings.tool_use_behavior),
        ("tool_choice", &settings.tool_choice),
    ] {
        match setting {
            Setting::Unset => {}
            Setting::Value(value) => {
                out.insert(field.into(), json!(value));
            }
            Setting::Uncertain(why) => uncertain.push(json!({"setting": field, "why": why})),
        }
    }
    if settings.tool_choice == Setting::Value("none".into()) {
        out.insert("tools_disallowed".into(), json!(true));
    }
    if !uncertain.is_empty() {
        out.insert("uncertain".into(), Value::Array(uncertain));
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

/// `object`: the compared identity (schema 0.4), only the keys its kind has.
fn object_identity(object: &ObjectTool, scope: &str) -> Value {
    let id = &object.identity;
    let mut out = Map::new();
    out.insert("kind".into(), json!(id.kind.map(ObjectKind::as_str)));
    out.insert("class".into(), json!(id.class));
    let mut put = |key: &str, value: Option<Value>| {
        if let Some(value) = value {
            out.insert(key.into(), value);
        }
    };
    put("transport", id.transport.as_ref().map(|t| json!(t)));
    put("host", id.host.as_ref().map(|h| json!(h)));
    put("command", id.command.as_ref().map(|c| json!(c)));
    put(
        "tool_filter",
        id.tool_filter
            .as_ref()
            .map(|f| json!({"allowed": f.allowed, "blocked": f.blocked})),
    );
    put(
        "credential_sources",
        (id.kind == Some(ObjectKind::McpServer))
            .then(|| Value::Array(id.credentials.iter().map(credential_object).collect())),
    );
    put(
        "endpoint_sha256",
        id.endpoint_sha256.as_ref().map(|d| json!(d)),
    );
    put("agent", id.agent.as_ref().map(|a| json!(a)));
    put(
        "agent_source",
        id.agent_source.as_ref().map(|s| json!(rooted(scope, s))),
    );
    put("tool_name", id.tool_name.as_ref().map(|n| json!(n)));
    put(
        "arguments",
        matches!(
            id.kind,
            Some(ObjectKind::HostedTool | ObjectKind::ToolClass)
        )
        .then(|| json!(id.arguments)),
    );
    put(
        "arguments_sha256",
        id.arguments_sha256.as_ref().map(|d| json!(d)),
    );
    put(
        "implementation_sha256",
        id.implementation_sha256.as_ref().map(|d| json!(d)),
    );
    Value::Object(out)
}

/// One credential source: its one target key, then the variables its
/// value is made from, or `literal: true` (never the value).
fn credential_object(credential: &Credential) -> Value {
    let mut out = Map::new();
    out.insert(credential.target.clone(), json!(credential.name));
    if !credential.env.is_empty() {
        out.insert("env".into(), json!(credential.env));
    }
    if credential.literal {
        out.insert("literal".into(), json!(true));
    }
    Value::Object(out)
}

/// `object_evidence`: where the object is built, what the model is told
/// about it, and what of its identity was not read. Never compared.
fn object_evidence(object: &ObjectTool, scope: &str) -> Value {
    let (file, line) = &object.built_at;
    let mut out = Map::new();
    out.insert(
        "built_at".into(),
        json!(format!("{}:{line}", rooted(scope, file))),
    );
    if let Some(description) = &object.description {
        out.insert("description".into(), json!(description));
    }
    if let Some(reaches) = &object.reaches {
        let targets: Vec<Value> = reaches
            .targets
            .iter()
            .map(|t| json!({"argument": t.argument, "value": t.value}))
            .collect();
        out.insert(
            "reaches".into(),
            json!({"module": reaches.module, "targets": targets}),
        );
    }
    if !object.unread.is_empty() {
        let unread: Vec<Value> = object
            .unread
            .iter()
            .map(|p| json!({"part": p.part, "spelled": p.spelled}))
            .collect();
        out.insert("not_read".into(), Value::Array(unread));
    }
    Value::Object(out)
}

/// One `import_path[]` entry: each module read, the line followed, and
/// that module's SHA-256 (contract §2.7). Paths rooted.
fn import_path_object(path: &ImportPath, def: &ToolDefinition, scope: &str) -> Value {
    let steps: Vec<Value> = path
        .steps
        .iter()
        .map(|step| {
            let mut out = json!({
                "path": rooted(scope, &step.path),
                "line": step.line,
                "name": step.name,
                "sha256": step.sha256,
                "binding": step.binding,
            });
            if step.lazy_submodule {
                out["module_getattr"] = json!(true);
                out["lazy_submodule"] = json!(true);
            }
            out
        })
        .collect();
    let inputs: std::collections::BTreeMap<String, &str> = path
        .steps
        .iter()
        .map(|step| (rooted(scope, &step.path), step.sha256.as_str()))
        .collect();
    let inputs: Vec<Value> = inputs
        .into_iter()
        .map(|(path, sha)| json!({"path": path, "sha256": sha}))
        .collect();
    let definition = match def.line {
        Some(line) => format!("{}:{line}", rooted(scope, &def.source)),
        None => rooted(scope, &def.source),
    };
    let mut out = json!({"reference": path.reference, "steps": steps, "inputs": inputs, "definition": definition});
    if !path.caveats.is_empty() {
        out["caveats"] = json!(path.caveats);
    }
    out
}

/// The `engine` object (contract §2.3, §9.1): this engine's identity,
/// computed once per process.
/// `sha256:<hex>` of a file, read in pieces: the binary is tens of
/// megabytes, never held whole.
fn file_sha256(path: &std::path::Path) -> Option<String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => hasher.update(buffer.get(..read)?),
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        }
    }
    Some(format!("sha256:{:x}", hasher.finalize()))
}

/// Computes the engine identity on a thread of its own, so that the first
/// document does not wait for the executable's digest (a cold one-shot
/// diff spent 6 % of its time there, issue 23). A document that needs it
/// sooner waits for that computation, never starts a second one.
pub fn prepare_engine_identity() {
    let _ = std::thread::Builder::new()
        .name("shipgate-identity".into())
        .spawn(|| {
            engine_object();
        });
}

pub fn engine_object() -> &'static Value {
    static ENGINE: OnceLock<Value> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let sha = |bytes: &[u8]| format!("sha256:{:x}", Sha256::digest(bytes));
        let distribution = std::env::current_exe()
            .ok()
            .and_then(|path| file_sha256(&path))
            .unwrap_or_else(|| sha(crate::VERSION.as_bytes()));
        let mut fields = Map::new();
        fields.insert("package".into(), json!("shipgate"));
        fields.insert("version".into(), json!(crate::VERSION));
        // Digests emulate CPython 3.12's `ast.dump` (contract §3.1).
        fields.insert("python_implementation".into(), json!("CPython"));
        fields.insert("python_version".into(), json!("3.12"));
        fields.insert("platform".into(), json!(std::env::consts::OS));
        fields.insert("engine_distribution_sha256".into(), json!(distribution));
        fields.insert(
            "dependency_set_sha256".into(),
            json!(sha(include_bytes!("../../../Cargo.lock"))),
        );
        fields.insert(
            "adapter_set_sha256".into(),
            json!(sha(format!(
                "openai_agents_sdk facts-v{}",
                crate::ENGINE_FACTS_VERSION
            )
            .as_bytes())),
        );
        fields.insert("plugin_set_sha256".into(), json!(sha(b"")));
        fields.insert(
            "policy_catalog_sha256".into(),
            json!(sha(ADVISORY_LIMITS.join("\n").as_bytes())),
        );
        let requirement = sha(to_canonical_ascii(&Value::Object(fields.clone())).as_bytes());
        let mut engine = Map::new();
        engine.insert("engine_requirement_id".into(), json!(requirement));
        engine.extend(fields);
        Value::Object(engine)
    })
}
