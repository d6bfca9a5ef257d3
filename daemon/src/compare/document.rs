//! The contract's JSON document (output-contract §2) for one comparison,
//! sanitised, with its `comparison_id`. Key order is the contract's.

pub use super::row_json::row_json;
use super::row_json::row_object;
use super::{comparison_status, side_status, Row};
use crate::graph::{Gap, SideGraph};
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
