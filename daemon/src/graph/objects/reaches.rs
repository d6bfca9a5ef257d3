//! What a tool a framework ships reaches, as its arguments name it (issue
//! 21: `BigQueryToolset`, `VertexAiSearchTool(data_store_id=…)`, an
//! `OpenAPIToolset`'s spec): the module its class is imported from, which
//! names the service, and each resource an argument spells as literal text
//! (constants followed, a library call's or a dict's entries included, a
//! URL by its host only). Evidence, never compared: a changed argument
//! already changes the object's digest.
//!
//! Nothing credential-shaped is kept, as for any object: a secret-named
//! argument, a key-shaped value and a URL's path or query are left out.

use super::pieces::{host_of, is_key_shaped, is_secret_name, Piece};
use super::ObjectSite;
use crate::frameworks::imports::imported_name;
use crate::python::Text;
use crate::python::Value;
use serde::{Deserialize, Serialize};

/// How deep an argument's structure is walked for resources.
const MAX_DEPTH: usize = 4;
/// How many resources one object names.
const MAX_TARGETS: usize = 16;
/// A longer literal is a document, not a resource name.
const MAX_VALUE_LEN: usize = 200;

/// What a shipped tool reaches: evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShippedReach {
    /// The module the class is imported from (`google.adk.tools.bigquery`).
    pub module: String,
    /// The resources its arguments name, in argument order.
    pub targets: Vec<ReachTarget>,
}

/// One resource an argument names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReachTarget {
    /// The keyword it is passed under (`data_store_id`, `rag_corpus`).
    pub argument: String,
    /// The literal (`projects/p/…/dataStores/d`), or a URL's host.
    pub value: String,
}

impl ObjectSite<'_, '_> {
    /// What the call of a shipped tool class `callee` reaches, by its
    /// import and literal arguments; `None` when the import is not read.
    pub fn shipped_reach(
        &self,
        callee: &Value,
        keywords: &[(Option<Text>, Value)],
    ) -> Option<ShippedReach> {
        let dotted = imported_name(self.facts, callee, &self.scope)?;
        let module = dotted.rsplit_once('.').map_or(dotted.as_str(), |(m, _)| m);
        let mut targets = Vec::new();
        for (name, value) in keywords {
            if let Some(name) = name {
                self.targets(name, value, 0, &mut targets);
            }
        }
        targets.truncate(MAX_TARGETS);
        Some(ShippedReach {
            module: module.to_string(),
            targets,
        })
    }

    fn targets(&self, argument: &str, value: &Value, depth: usize, out: &mut Vec<ReachTarget>) {
        if depth > MAX_DEPTH || out.len() >= MAX_TARGETS || is_secret_name(argument) {
            return;
        }
        if let Some(pieces) = self.text(value, 0) {
            if let Some(value) = resource(argument, &pieces) {
                out.push(ReachTarget {
                    argument: argument.to_string(),
                    value,
                });
            }
            return;
        }
        match self.follow(value, 0) {
            Some(Value::List(items) | Value::Tuple(items)) => {
                for item in items {
                    self.targets(argument, item, depth + 1, out);
                }
            }
            Some(Value::Dict(entries)) => {
                for (key, value) in entries {
                    if let Some(Value::Str(key)) = key {
                        self.targets(key, value, depth + 1, out);
                    }
                }
            }
            Some(Value::Call { keywords, .. }) => {
                for (key, value) in keywords {
                    if let Some(key) = key {
                        self.targets(key, value, depth + 1, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Argument names that name a resource whatever their value's shape.
const RESOURCE_ARGUMENTS: &[&str] = &[
    "project",
    "location",
    "dataset",
    "database",
    "instance",
    "bucket",
    "integration",
    "connection",
];

/// A literal text as the resource it names: a URL's host, an OpenAPI
/// spec's first server's host, or a short single-line name that is not
/// key-shaped and is shaped or passed as a resource (a path such as
/// `projects/p/…`, an `…_id`, a `project=`); any other setting
/// (`search_context_size="high"`) is not one. Environment variables are
/// not resources.
fn resource(argument: &str, pieces: &[Piece]) -> Option<String> {
    let [Piece::Literal(text)] = pieces else {
        return host_of(pieces).filter(|host| !host.starts_with("env "));
    };
    if let Some(host) = host_of(pieces) {
        return Some(host);
    }
    if argument.starts_with("spec") {
        return spec_server_host(text);
    }
    let plain = text.len() <= MAX_VALUE_LEN
        && !text.is_empty()
        && !text.contains(char::is_whitespace)
        && !is_key_shaped(text);
    let named =
        text.contains('/') || argument.ends_with("_id") || RESOURCE_ARGUMENTS.contains(&argument);
    (plain && named).then(|| text.clone())
}

/// The host of the first URL after `servers` in an OpenAPI document,
/// JSON or YAML alike.
fn spec_server_host(spec: &str) -> Option<String> {
    let (_, after) = spec.split_once("servers")?;
    let start = after.find("://")?;
    let scheme_start = after[..start]
        .rfind(|c: char| !c.is_ascii_alphabetic())
        .map_or(0, |i| i + 1);
    let url: String = after[scheme_start..]
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | ',' | '}'))
        .collect();
    host_of(&[Piece::Literal(url)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_names_its_first_servers_host() {
        let json = r#"{"openapi": "3.0.0", "servers": [{"url": "https://api.example.com/v1"}]}"#;
        assert_eq!(spec_server_host(json).as_deref(), Some("api.example.com"));
        let yaml = "openapi: 3.0.0\nservers:\n  - url: http://petstore.io:8080/api\npaths: {}\n";
        assert_eq!(spec_server_host(yaml).as_deref(), Some("petstore.io"));
        assert_eq!(spec_server_host("openapi: 3.0.0\npaths: {}"), None);
    }

    #[test]
    fn a_resource_is_short_plain_text_never_a_key() {
        let literal = |t: &str| vec![Piece::Literal(t.to_string())];
        assert_eq!(
            resource(
                "data_store_id",
                &literal("projects/p/locations/global/dataStores/d")
            )
            .as_deref(),
            Some("projects/p/locations/global/dataStores/d")
        );
        assert_eq!(
            resource("url", &literal("https://api.example.com/v1?x=1")).as_deref(),
            Some("api.example.com")
        );
        assert_eq!(
            resource("project", &literal("a1b2c3d4e5f6a1b2c3d4e5f6a1")),
            None
        );
        assert_eq!(resource("instruction", &literal("Answer politely.")), None);
        assert_eq!(resource("search_context_size", &literal("high")), None);
        assert_eq!(
            resource("project", &literal("acme-prod")).as_deref(),
            Some("acme-prod")
        );
    }
}
