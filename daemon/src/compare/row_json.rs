//! A row of the contract's document (output-contract §2.6) as JSON: its
//! change, uncertainty and review question, and each side's binding — the
//! tool's interface and implementation, an object's identity and evidence,
//! the import path, the agent's settings. `document.rs` places rows in the
//! document; history lists them per commit (`row_json`).

use super::{Change, Row};
use crate::graph::objects::{Credential, ObjectKind, ObjectTool};
use crate::graph::{AgentSettings, Binding, Edge, ImportPath, Setting, ToolDefinition};
use crate::paths::rooted;
use serde_json::{json, Map, Value};

/// One row in the document's shape (before sanitising): what history lists
/// per commit.
pub fn row_json(row: &Row, base_scope: &str, head_scope: &str) -> Value {
    row_object(row, base_scope, head_scope)
}

pub(super) fn row_object(row: &Row, base_scope: &str, head_scope: &str) -> Value {
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
