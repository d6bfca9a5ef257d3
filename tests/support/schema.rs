//! A small JSON Schema validator for the subset the published document
//! schemas use (`docs/*.schema.json`, draft 2020-12) and the official
//! SARIF 2.1.0 schema uses (`tests/fixtures/sarif/`, draft 04), so the
//! tests need no validator crate.
//!
//! Applied keywords: `type` (a name or an array of names), `properties`,
//! `required`, `additionalProperties` (a boolean or a schema), `items` (one
//! schema for every element), `minItems`, `uniqueItems`, `enum`, `const`,
//! `minimum`, `maximum`, `pattern` (`schema/pattern.rs`: literals, `.`,
//! `\d`, bracket classes, groups without alternation, quantifiers, the
//! anchors `^`/`$`), `format` (`schema/formats.rs`: `uri`, `uri-reference`,
//! `date-time`, checked as assertions), `$ref` (a local `#/...` JSON
//! pointer, also beside other keywords), `anyOf` and `oneOf`. Annotations
//! (`$schema`, `$id`, `id`, `$comment`, `$defs`, `definitions`, `title`,
//! `description`, `default`, `examples`) are accepted and ignored, but the
//! schemas under `$defs` and `definitions` are checked too.
//!
//! Any other keyword, or a pattern outside that subset, is an error rather
//! than silently skipped: a schema this validator cannot fully apply never
//! passes a document.

use serde_json::{Map, Value};

mod formats;
mod pattern;

use pattern::Pattern;

/// Keywords that constrain an instance.
const APPLIED: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "uniqueItems",
    "enum",
    "const",
    "minimum",
    "maximum",
    "pattern",
    "format",
    "$ref",
    "anyOf",
    "oneOf",
];

/// Keywords that say something about a schema without constraining.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "id",
    "$comment",
    "$defs",
    "definitions",
    "title",
    "description",
    "default",
    "examples",
];

const TYPES: &[&str] = &[
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// Bound on `$ref` chains that consume no instance, and on nesting.
const MAX_DEPTH: usize = 256;

/// What in `schema` this validator cannot apply: unknown keywords,
/// malformed keyword values, unresolved `$ref`s and unsupported patterns,
/// each as `<schema location>: <problem>`.
pub fn check_schema(schema: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    check(schema, schema, "#", &mut errors);
    errors
}

/// Every way `instance` fails `schema`, each as `<JSON pointer>: <message>
/// (schema <location>)`; the document root is spelled `(root)`. Empty when
/// the instance is valid. A schema `check_schema` rejects yields its
/// problems instead, prefixed `schema `.
pub fn validate(schema: &Value, instance: &Value) -> Vec<String> {
    let problems = check_schema(schema);
    if !problems.is_empty() {
        return problems
            .into_iter()
            .map(|p| format!("schema {p}"))
            .collect();
    }
    let mut errors = Vec::new();
    Walk { root: schema }.apply(schema, "#", instance, "", 0, &mut errors);
    errors
}

fn check(root: &Value, schema: &Value, at: &str, errors: &mut Vec<String>) {
    let map = match schema {
        Value::Bool(_) => return,
        Value::Object(map) => map,
        _ => {
            errors.push(format!("{at}: a schema must be an object or a boolean"));
            return;
        }
    };
    for (key, value) in map {
        let here = format!("{at}/{}", escape(key));
        match key.as_str() {
            "type" => {
                let names: Vec<&Value> = match value {
                    Value::Array(names) if !names.is_empty() => names.iter().collect(),
                    Value::Array(_) => Vec::new(),
                    other => vec![other],
                };
                if names.is_empty()
                    || names
                        .iter()
                        .any(|n| !n.as_str().is_some_and(|n| TYPES.contains(&n)))
                {
                    errors.push(format!("{here}: not a type name or array of them"));
                }
            }
            "properties" => match value {
                Value::Object(properties) => {
                    for (name, sub) in properties {
                        check(root, sub, &format!("{here}/{}", escape(name)), errors);
                    }
                }
                _ => errors.push(format!("{here}: must be an object of schemas")),
            },
            "$defs" | "definitions" => match value {
                Value::Object(defs) => {
                    for (name, sub) in defs {
                        check(root, sub, &format!("{here}/{}", escape(name)), errors);
                    }
                }
                _ => errors.push(format!("{here}: must be an object of schemas")),
            },
            "required" => {
                if !value
                    .as_array()
                    .is_some_and(|names| names.iter().all(Value::is_string))
                {
                    errors.push(format!("{here}: must be an array of strings"));
                }
            }
            "additionalProperties" | "items" => check(root, value, &here, errors),
            "enum" => {
                if !value.is_array() {
                    errors.push(format!("{here}: must be an array"));
                }
            }
            "const" => {}
            "minimum" | "maximum" => {
                if !value.is_number() {
                    errors.push(format!("{here}: must be a number"));
                }
            }
            "minItems" => {
                if !value.is_u64() {
                    errors.push(format!("{here}: must be a non-negative integer"));
                }
            }
            "uniqueItems" => {
                if !value.is_boolean() {
                    errors.push(format!("{here}: must be a boolean"));
                }
            }
            "format" => match value.as_str() {
                Some(name) if formats::KNOWN.contains(&name) => {}
                Some(name) => errors.push(format!(
                    "{here}: format `{name}` is not implemented by this validator (it checks {})",
                    formats::KNOWN.join(", ")
                )),
                None => errors.push(format!("{here}: must be a string")),
            },
            "pattern" => match value.as_str() {
                Some(pattern) => {
                    if let Err(why) = Pattern::parse(pattern) {
                        errors.push(format!("{here}: {why}"));
                    }
                }
                None => errors.push(format!("{here}: must be a string")),
            },
            "$ref" => match value.as_str() {
                Some(reference) => {
                    if resolve(root, reference).is_none() {
                        errors.push(format!(
                            "{here}: `{reference}` does not resolve in this document"
                        ));
                    }
                }
                None => errors.push(format!("{here}: must be a string")),
            },
            "anyOf" | "oneOf" => match value.as_array() {
                Some(subs) if !subs.is_empty() => {
                    for (i, sub) in subs.iter().enumerate() {
                        check(root, sub, &format!("{here}/{i}"), errors);
                    }
                }
                _ => errors.push(format!("{here}: must be a non-empty array of schemas")),
            },
            other if ANNOTATIONS.contains(&other) => {}
            other => errors.push(format!(
                "{here}: keyword `{other}` is not implemented by this validator (it applies {})",
                APPLIED.join(", ")
            )),
        }
    }
}

/// A local reference: `#` or `#/<JSON pointer>`.
fn resolve<'s>(root: &'s Value, reference: &str) -> Option<&'s Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    root.pointer(pointer)
}

/// One JSON pointer token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn shown(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// A value, shortened for a message.
fn brief(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 {
        let cut: String = text.chars().take(77).collect();
        format!("{cut}...")
    } else {
        text
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn has_type(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => match value {
            Value::Number(n) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            _ => false,
        },
        _ => false,
    }
}

/// JSON equality: numbers by value (`1` equals `1.0`), objects by key set.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

struct Walk<'s> {
    root: &'s Value,
}

impl Walk<'_> {
    /// Applies `schema` (found at schema location `at`) to the instance
    /// at `pointer`, appending errors.
    fn apply(
        &self,
        schema: &Value,
        at: &str,
        instance: &Value,
        pointer: &str,
        depth: usize,
        errors: &mut Vec<String>,
    ) {
        if depth > MAX_DEPTH {
            errors.push(format!(
                "{}: schema nesting exceeds {MAX_DEPTH} levels (schema {at})",
                shown(pointer)
            ));
            return;
        }
        let map: &Map<String, Value> = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                errors.push(format!(
                    "{}: no value is allowed here (schema {at})",
                    shown(pointer)
                ));
                return;
            }
            Value::Object(map) => map,
            _ => return,
        };
        let mut fail = |message: String, keyword: &str| {
            errors.push(format!(
                "{}: {message} (schema {at}/{keyword})",
                shown(pointer)
            ));
        };

        if let Some(expected) = map.get("type") {
            let names: Vec<&str> = match expected {
                Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
                other => other.as_str().into_iter().collect(),
            };
            if !names.iter().any(|name| has_type(instance, name)) {
                fail(
                    format!(
                        "expected {}, found {} {}",
                        names.join(" or "),
                        type_name(instance),
                        brief(instance)
                    ),
                    "type",
                );
            }
        }
        if let Some(expected) = map.get("const") {
            if !json_eq(expected, instance) {
                fail(
                    format!("expected {}, found {}", brief(expected), brief(instance)),
                    "const",
                );
            }
        }
        if let Some(Value::Array(allowed)) = map.get("enum") {
            if !allowed.iter().any(|a| json_eq(a, instance)) {
                let names: Vec<String> = allowed.iter().map(Value::to_string).collect();
                fail(
                    format!("{} is not one of [{}]", brief(instance), names.join(", ")),
                    "enum",
                );
            }
        }
        if let (Some(Value::String(pattern)), Some(text)) = (map.get("pattern"), instance.as_str())
        {
            match Pattern::parse(pattern) {
                Ok(compiled) if compiled.matches(text) => {}
                Ok(_) => fail(
                    format!("{} does not match the pattern {pattern}", brief(instance)),
                    "pattern",
                ),
                Err(why) => fail(why, "pattern"),
            }
        }
        if let (Some(Value::String(format)), Some(text)) = (map.get("format"), instance.as_str()) {
            if let Some(why) = formats::check(format, text) {
                fail(format!("{} {why}", brief(instance)), "format");
            }
        }
        if let Some(number) = instance.as_f64().filter(|_| instance.is_number()) {
            if let Some(minimum) = map.get("minimum").and_then(Value::as_f64) {
                if number < minimum {
                    fail(
                        format!("{number} is less than the minimum {minimum}"),
                        "minimum",
                    );
                }
            }
            if let Some(maximum) = map.get("maximum").and_then(Value::as_f64) {
                if number > maximum {
                    fail(
                        format!("{number} is more than the maximum {maximum}"),
                        "maximum",
                    );
                }
            }
        }
        if let Value::Array(elements) = instance {
            if let Some(min) = map.get("minItems").and_then(Value::as_u64) {
                if (elements.len() as u64) < min {
                    fail(
                        format!("{} items, fewer than {min}", elements.len()),
                        "minItems",
                    );
                }
            }
            if map.get("uniqueItems") == Some(&Value::Bool(true)) {
                let repeated = elements.iter().enumerate().find_map(|(i, a)| {
                    elements[i + 1..]
                        .iter()
                        .position(|b| json_eq(a, b))
                        .map(|j| (i, i + 1 + j))
                });
                if let Some((first, again)) = repeated {
                    fail(
                        format!("items {first} and {again} are equal, and must be unique"),
                        "uniqueItems",
                    );
                }
            }
        }
        if let Value::Object(object) = instance {
            if let Some(Value::Array(required)) = map.get("required") {
                for name in required.iter().filter_map(Value::as_str) {
                    if !object.contains_key(name) {
                        errors.push(format!(
                            "{pointer}/{}: required property is missing (schema {at}/required)",
                            escape(name)
                        ));
                    }
                }
            }
            let properties = map.get("properties").and_then(Value::as_object);
            for (name, value) in object {
                let child = format!("{pointer}/{}", escape(name));
                match properties.and_then(|p| p.get(name)) {
                    Some(sub) => self.apply(
                        sub,
                        &format!("{at}/properties/{}", escape(name)),
                        value,
                        &child,
                        depth + 1,
                        errors,
                    ),
                    None => match map.get("additionalProperties") {
                        Some(Value::Bool(false)) => errors.push(format!(
                            "{child}: property is not allowed here (schema {at}/additionalProperties)"
                        )),
                        Some(sub) => self.apply(
                            sub,
                            &format!("{at}/additionalProperties"),
                            value,
                            &child,
                            depth + 1,
                            errors,
                        ),
                        None => {}
                    },
                }
            }
        }
        if let (Some(items), Value::Array(elements)) = (map.get("items"), instance) {
            for (i, element) in elements.iter().enumerate() {
                self.apply(
                    items,
                    &format!("{at}/items"),
                    element,
                    &format!("{pointer}/{i}"),
                    depth + 1,
                    errors,
                );
            }
        }
        if let Some(Value::String(reference)) = map.get("$ref") {
            match resolve(self.root, reference) {
                Some(target) => self.apply(target, reference, instance, pointer, depth + 1, errors),
                None => errors.push(format!(
                    "{}: `{reference}` does not resolve (schema {at}/$ref)",
                    shown(pointer)
                )),
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            let Some(Value::Array(alternatives)) = map.get(keyword) else {
                continue;
            };
            let outcomes: Vec<Vec<String>> = alternatives
                .iter()
                .enumerate()
                .map(|(i, alternative)| {
                    let mut found = Vec::new();
                    self.apply(
                        alternative,
                        &format!("{at}/{keyword}/{i}"),
                        instance,
                        pointer,
                        depth + 1,
                        &mut found,
                    );
                    found
                })
                .collect();
            let matched: Vec<usize> = (0..outcomes.len())
                .filter(|&i| outcomes[i].is_empty())
                .collect();
            if matched.is_empty() {
                let mut message = format!(
                    "{}: matches none of the {} {keyword} alternatives (schema {at}/{keyword})",
                    shown(pointer),
                    alternatives.len()
                );
                for (i, found) in outcomes.iter().enumerate() {
                    let shown_errors: Vec<&str> =
                        found.iter().take(3).map(String::as_str).collect();
                    let more = found.len().saturating_sub(3);
                    message.push_str(&format!(
                        "\n    alternative {i}: {}{}",
                        shown_errors.join("; "),
                        if more > 0 {
                            format!("; and {more} more")
                        } else {
                            String::new()
                        }
                    ));
                }
                errors.push(message);
            } else if keyword == "oneOf" && matched.len() > 1 {
                errors.push(format!(
                    "{}: matches more than one oneOf alternative ({:?}) (schema {at}/oneOf)",
                    shown(pointer),
                    matched
                ));
            }
        }
    }
}

/// Asserts `doc` validates against the committed schema
/// (`docs/application-comparison-0.4.schema.json`).
pub fn assert_valid(doc: &Value) {
    let schema: Value = serde_json::from_str(include_str!(
        "../../docs/application-comparison-0.4.schema.json"
    ))
    .expect("schema JSON");
    let errors = validate(&schema, doc);
    assert!(errors.is_empty(), "{errors:?}");
}

/// The official SARIF 2.1.0 schema, vendored (`tests/fixtures/sarif/`).
pub fn sarif_schema() -> Value {
    serde_json::from_str(include_str!("../fixtures/sarif/sarif-schema-2.1.0.json"))
        .expect("SARIF schema JSON")
}

/// Asserts `log` validates against the official SARIF 2.1.0 schema.
pub fn assert_valid_sarif(log: &Value) {
    let errors = validate(&sarif_schema(), log);
    assert!(errors.is_empty(), "{errors:#?}");
}
