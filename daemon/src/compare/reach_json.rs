//! `reach` and `effect_evidence` on a tool's side (contract §2.8, §2.9;
//! `reach.effects` is schema 0.4). Paths are rooted here.

use crate::paths::rooted;
use crate::reach::model::{Credential, Field, FieldFact, Hop, Place, Printable, Reach};
use crate::reach::MAX_CALLS;
use serde_json::{json, Map, Value};

fn at(place: &Place, scope: &str) -> String {
    format!("{}:{}", rooted(scope, &place.path), place.line)
}

fn via(hops: &[Hop], scope: &str) -> Value {
    Value::Array(
        hops.iter()
            .map(|hop| json!(format!("{} {}", at(&hop.at, scope), hop.name)))
            .collect(),
    )
}

fn field(field: &Field) -> Value {
    let mut out = Map::new();
    out.insert("field".into(), json!(field.name));
    match &field.fact {
        FieldFact::Value(Printable::Str(s)) => {
            out.insert("value".into(), json!(s));
        }
        FieldFact::Value(Printable::Number(n)) => {
            let number: Value = serde_json::from_str(n).unwrap_or_else(|_| json!(n));
            out.insert("value".into(), number);
        }
        FieldFact::Value(Printable::Bool(b)) => {
            out.insert("value".into(), json!(b));
        }
        FieldFact::Values { values, decided_by } => {
            out.insert("values".into(), json!(values));
            if !decided_by.is_empty() {
                out.insert("decided_by".into(), json!(decided_by));
            }
        }
        FieldFact::Literal => {
            out.insert("literal".into(), json!(true));
        }
        FieldFact::Made { from, env } => {
            if !from.is_empty() {
                out.insert("from".into(), json!(from));
            }
            if !env.is_empty() {
                out.insert("env".into(), json!(env));
            }
        }
        FieldFact::Computed => {
            out.insert("computed".into(), json!(true));
        }
    }
    Value::Object(out)
}

fn credential(credential: &Credential) -> Value {
    let mut out = Map::new();
    out.insert(credential.kind.clone(), json!(credential.name));
    if !credential.env.is_empty() {
        out.insert("env".into(), json!(credential.env));
    }
    if !credential.from.is_empty() {
        out.insert("from".into(), json!(credential.from));
    }
    if credential.literal {
        out.insert("literal".into(), json!(true));
    }
    if credential.env.is_empty() && credential.from.is_empty() && !credential.literal {
        out.insert("computed".into(), json!(true));
    }
    Value::Object(out)
}

fn model_supplied(model: &[(String, String)]) -> Value {
    Value::Array(
        model
            .iter()
            .map(|(param, into)| json!({"param": param, "into": into}))
            .collect(),
    )
}

/// The `reach` object.
pub fn reach(reach: &Reach, scope: &str) -> Value {
    let calls: Vec<Value> = reach
        .calls
        .iter()
        .take(MAX_CALLS)
        .map(|call| {
            let mut out = Map::new();
            out.insert("library".into(), json!(call.library));
            out.insert("method".into(), json!(call.method));
            out.insert("url".into(), json!(call.url));
            if let Some(graphql) = &call.graphql {
                out.insert("graphql".into(), json!(graphql));
            }
            out.insert("effect".into(), json!(call.effect()));
            out.insert("at".into(), json!(at(&call.at, scope)));
            out.insert("via".into(), via(&call.via, scope));
            if !call.fields.is_empty() {
                out.insert(
                    "fields".into(),
                    Value::Array(call.fields.iter().map(field).collect()),
                );
            }
            if !call.credentials.is_empty() {
                out.insert(
                    "credential_sources".into(),
                    Value::Array(call.credentials.iter().map(credential).collect()),
                );
            }
            if !call.model_supplied.is_empty() {
                out.insert(
                    "model_supplied".into(),
                    model_supplied(&call.model_supplied),
                );
            }
            Value::Object(out)
        })
        .collect();
    let effects: Vec<Value> = reach
        .effects
        .iter()
        .map(|effect| {
            let mut out = Map::new();
            out.insert("family".into(), json!(effect.family));
            out.insert("operation".into(), json!(effect.operation));
            out.insert("library".into(), json!(effect.library));
            out.insert("call".into(), json!(effect.call));
            out.insert("at".into(), json!(at(&effect.at, scope)));
            out.insert("via".into(), via(&effect.via, scope));
            for (key, value) in [
                ("target", &effect.target),
                ("statement", &effect.statement),
                ("value_sha256", &effect.value_sha256),
                ("service", &effect.service),
                ("host", &effect.host),
            ] {
                if let Some(value) = value {
                    out.insert(key.into(), json!(value));
                }
            }
            if !effect.credentials.is_empty() {
                out.insert(
                    "credential_sources".into(),
                    Value::Array(effect.credentials.iter().map(credential).collect()),
                );
            }
            if !effect.model_supplied.is_empty() {
                out.insert(
                    "model_supplied".into(),
                    model_supplied(&effect.model_supplied),
                );
            }
            Value::Object(out)
        })
        .collect();
    let limits: Vec<Value> = reach
        .limits
        .iter()
        .map(|l| json!({"at": at(&l.at, scope), "why": l.why}))
        .collect();
    let claims: Vec<Value> = reach
        .claims()
        .iter()
        .map(|claim| {
            if claim.value == "read" {
                return json!({"effect": "read", "at": at(&claim.at, scope), "calls": claim.calls});
            }
            let mut out = Map::new();
            out.insert("effect".into(), json!(claim.value));
            out.insert("at".into(), json!(at(&claim.at, scope)));
            if let Some(method) = &claim.method {
                out.insert("method".into(), json!(method));
            }
            if let Some(url) = &claim.url {
                out.insert("url".into(), json!(url));
            }
            if let Some(graphql) = &claim.graphql {
                out.insert("graphql".into(), json!(graphql));
            }
            Value::Object(out)
        })
        .collect();
    let mut out = Map::new();
    out.insert("calls".into(), Value::Array(calls));
    if !effects.is_empty() {
        out.insert("effects".into(), Value::Array(effects));
    }
    out.insert("limits".into(), Value::Array(limits));
    out.insert("effect".into(), json!(reach.effect()));
    out.insert("effect_claims".into(), Value::Array(claims));
    if reach.more_limits > 0 {
        out.insert("more_limits".into(), json!(reach.more_limits));
    }
    Value::Object(out)
}

/// `effect_evidence`: structural when the reach supplies claims, else the
/// conservative unknown write.
pub fn effect_evidence(reach: Option<&Reach>, scope: &str) -> Value {
    let claims = reach.map(Reach::claims).unwrap_or_default();
    if claims.is_empty() {
        return json!({"conservative_effect": "write", "status": "unknown", "claims": []});
    }
    let conservative = crate::reach::model::strongest(claims.iter().map(|c| c.value));
    let listed: Vec<Value> = claims
        .iter()
        .map(|claim| {
            json!({
                "value": claim.value,
                "source": claim.source,
                "basis": if claim.source == "source_http_call" { "protocol_structure" } else { "library_identity" },
                "at": at(&claim.at, scope),
            })
        })
        .collect();
    json!({"conservative_effect": conservative, "status": "structural", "claims": listed})
}
