//! The inventory as a CycloneDX 1.6 BOM, the format AI-BOM tools exchange.
//!
//! - each agent is a component of type `application`;
//! - each function tool (or tool object) it binds is a component of type
//!   `library` (code of the repository), each MCP server and hosted tool a
//!   `service` (run elsewhere; an MCP server's URL is its endpoint);
//! - what an agent binds is its `dependencies` entry: its tools and
//!   services, and the agents it hands off to, has as sub-agents or calls
//!   as tools, by their `bom-ref`;
//! - what each tool reaches, its gates, its effect and what was not read
//!   are `properties` named `shipgate:…`.
//!
//! Deterministic: the serial number is derived from the commit, its tree
//! and the engine version, and no timestamp is written, so the same commit
//! gives the same BOM byte for byte.

use super::read::{array, text};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

pub fn render(document: &Value) -> String {
    let commit = document.get("commit").unwrap_or(&Value::Null);
    let mut refs = Refs::default();
    let agents = array(document, "agents");
    // Every agent's reference first: an edge may name one listed later.
    let agent_refs: Vec<String> = agents
        .iter()
        .map(|a| {
            refs.unique(&format!(
                "agent:{}:{}",
                text(a, "agent_source"),
                text(a, "agent")
            ))
        })
        .collect();
    let find_agent = |source: &str, name: &str| {
        agents
            .iter()
            .zip(&agent_refs)
            .find(|(a, _)| text(a, "agent_source") == source && text(a, "agent") == name)
            .map(|(_, r)| r.clone())
    };
    let (mut components, mut services, mut dependencies) = (Vec::new(), Vec::new(), Vec::new());
    for (agent, agent_ref) in agents.iter().zip(&agent_refs) {
        let mut depends: Vec<String> = Vec::new();
        let mut agent_props = vec![
            prop("shipgate:kind", "agent"),
            prop("shipgate:agent_source", text(agent, "agent_source")),
            prop("shipgate:location", text(agent, "location")),
        ];
        if let Some(framework) = agent.get("framework").and_then(Value::as_str) {
            agent_props.push(prop("shipgate:framework", framework));
        }
        for binding in array(agent, "tools") {
            let tool_ref = refs.unique(&format!(
                "tool:{agent_ref}:{}:{}",
                text(binding, "tool"),
                text(binding, "binding_location")
            ));
            components.push(json!({
                "type": "library",
                "bom-ref": tool_ref,
                "name": text(binding, "tool"),
                "description": description(binding),
                "properties": binding_properties("tool", binding),
            }));
            dependencies.push(json!({"ref": tool_ref, "dependsOn": []}));
            depends.push(tool_ref);
        }
        for kind in ["mcp_servers", "hosted_tools"] {
            for binding in array(agent, kind) {
                let service_ref = refs.unique(&format!(
                    "{kind}:{agent_ref}:{}:{}",
                    text(binding, "tool"),
                    text(binding, "binding_location")
                ));
                let mut service = Map::new();
                service.insert("bom-ref".into(), json!(service_ref));
                service.insert("name".into(), json!(text(binding, "tool")));
                let object = binding.get("object").unwrap_or(&Value::Null);
                if let Some(host) = object.get("host").and_then(Value::as_str) {
                    service.insert("endpoints".into(), json!([host]));
                }
                service.insert(
                    "properties".into(),
                    Value::Array(binding_properties(kind.trim_end_matches('s'), binding)),
                );
                services.push(Value::Object(service));
                dependencies.push(json!({"ref": service_ref, "dependsOn": []}));
                depends.push(service_ref);
            }
        }
        for kind in ["handoffs", "sub_agents", "agent_tools"] {
            for binding in array(agent, kind) {
                let (source, name) = match kind {
                    "agent_tools" => {
                        let object = binding.get("object").unwrap_or(&Value::Null);
                        (text(object, "agent_source"), text(object, "agent"))
                    }
                    _ => (text(binding, "target_source"), text(binding, "tool")),
                };
                match find_agent(source, name) {
                    Some(target) => depends.push(target),
                    // An edge to an agent the inventory does not list (an
                    // agent tool whose agent was not read) stays a fact.
                    None => agent_props.push(prop(
                        &format!("shipgate:{}", kind.trim_end_matches('s')),
                        &format!(
                            "{} ({})",
                            text(binding, "tool"),
                            text(binding, "binding_location")
                        ),
                    )),
                }
            }
        }
        for member in array(agent, "not_read") {
            agent_props.push(prop("shipgate:not_read", text(member, "member")));
        }
        for limit in array(agent, "limits").iter().filter_map(Value::as_str) {
            agent_props.push(prop("shipgate:limit", limit));
        }
        components.push(json!({
            "type": "application",
            "bom-ref": agent_ref,
            "name": text(agent, "agent"),
            "description": "AI agent",
            "properties": agent_props,
        }));
        dedup_keep_order(&mut depends);
        dependencies.push(json!({"ref": agent_ref, "dependsOn": depends}));
    }
    let mut metadata_props = vec![
        prop("shipgate:commit", text(commit, "commit")),
        prop("shipgate:tree", text(commit, "tree")),
        prop("shipgate:requested_ref", text(commit, "requested_ref")),
        prop("shipgate:status", text(document, "status")),
    ];
    for limit in array(document, "limits").iter().filter_map(Value::as_str) {
        metadata_props.push(prop("shipgate:limit", limit));
    }
    let version = crate::VERSION;
    let mut bom = Map::new();
    bom.insert(
        "$schema".into(),
        json!("http://cyclonedx.org/schema/bom-1.6.schema.json"),
    );
    bom.insert("bomFormat".into(), json!("CycloneDX"));
    bom.insert("specVersion".into(), json!("1.6"));
    bom.insert("serialNumber".into(), json!(serial_number(commit)));
    bom.insert("version".into(), json!(1));
    bom.insert(
        "metadata".into(),
        json!({
            "tools": {"components": [{"type": "application", "name": "shipgate", "version": version}]},
            "component": {"type": "application", "bom-ref": "repository", "name": "repository", "version": text(commit, "commit")},
            "properties": metadata_props,
        }),
    );
    bom.insert("components".into(), Value::Array(components));
    if !services.is_empty() {
        bom.insert("services".into(), Value::Array(services));
    }
    bom.insert("dependencies".into(), Value::Array(dependencies));
    let mut out = serde_json::to_string_pretty(&Value::Object(bom)).unwrap_or_default();
    out.push('\n');
    out
}

/// `bom-ref`s made unique: a second binding of the same name at the same
/// place (two constructions) gets a suffix, never a duplicate reference.
#[derive(Default)]
struct Refs(BTreeSet<String>);

impl Refs {
    fn unique(&mut self, wanted: &str) -> String {
        let mut candidate = wanted.to_string();
        let mut n = 2;
        while !self.0.insert(candidate.clone()) {
            candidate = format!("{wanted}#{n}");
            n += 1;
        }
        candidate
    }
}

fn prop(name: &str, value: &str) -> Value {
    json!({"name": name, "value": value})
}

/// `lookup_order(order_id) -> str`, or the tool's name.
fn description(binding: &Value) -> String {
    match text(binding, "signature") {
        "" => format!("agent tool {}", text(binding, "tool")),
        signature => format!("agent tool {signature}"),
    }
}

/// What the inventory says of one binding, as properties.
fn binding_properties(kind: &str, binding: &Value) -> Vec<Value> {
    let mut props = vec![
        prop("shipgate:kind", kind),
        prop(
            "shipgate:binding_location",
            text(binding, "binding_location"),
        ),
    ];
    if let Some(definition) = binding.get("definition").filter(|d| d.is_object()) {
        let line = definition.get("line").and_then(Value::as_u64);
        let at = match line {
            Some(line) => format!("{}:{line}", text(definition, "source")),
            None => text(definition, "source").to_string(),
        };
        props.push(prop("shipgate:definition", &at));
        if let Some(digest) = definition
            .get("implementation_sha256")
            .and_then(Value::as_str)
        {
            props.push(prop("shipgate:implementation_sha256", digest));
        }
    }
    if let Some(object) = binding.get("object").filter(|o| o.is_object()) {
        for key in ["class", "transport", "host", "command"] {
            if let Some(value) = object.get(key).and_then(Value::as_str) {
                props.push(prop(&format!("shipgate:{key}"), value));
            }
        }
    }
    for gate in array(binding, "gates") {
        props.push(prop(
            "shipgate:gate",
            &format!("{} {}", text(gate, "gate"), text(gate, "spelled")),
        ));
    }
    for condition in array(binding, "bound_when")
        .iter()
        .filter_map(Value::as_str)
    {
        props.push(prop("shipgate:bound_when", condition));
    }
    if let Some(effect) = binding
        .get("effect_evidence")
        .and_then(|e| e.get("conservative_effect"))
        .and_then(Value::as_str)
    {
        props.push(prop("shipgate:effect", effect));
    }
    let reach = binding.get("reach").unwrap_or(&Value::Null);
    for call in array(reach, "calls") {
        let method = text(call, "method");
        let target = match text(call, "url") {
            "" => text(call, "library").to_string(),
            url => url.to_string(),
        };
        let reaches = if method.is_empty() {
            target
        } else {
            format!("{method} {target}")
        };
        props.push(prop("shipgate:reaches", &reaches));
        for credential in array(call, "credential_sources") {
            for env in array(credential, "env").iter().filter_map(Value::as_str) {
                props.push(prop("shipgate:credential_env", env));
            }
        }
    }
    for limit in array(reach, "limits") {
        props.push(prop(
            "shipgate:reach_limit",
            &format!("{}: {}", text(limit, "at"), text(limit, "why")),
        ));
    }
    props
}

fn dedup_keep_order(items: &mut Vec<String>) {
    let mut seen = BTreeSet::new();
    items.retain(|item| seen.insert(item.clone()));
}

/// `urn:uuid:…` from the commit, its tree and the engine version (a
/// version-4-shaped UUID over a BLAKE3 digest: stable, never random).
fn serial_number(commit: &Value) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"shipgate-inventory-bom");
    hasher.update(crate::VERSION.as_bytes());
    hasher.update(&crate::ENGINE_FACTS_VERSION.to_be_bytes());
    hasher.update(text(commit, "commit").as_bytes());
    hasher.update(text(commit, "tree").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&hasher.finalize().as_bytes()[..16]);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "urn:uuid:{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}
