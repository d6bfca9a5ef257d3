//! `--format sarif` against the official SARIF 2.1.0 schema (vendored
//! under `tests/fixtures/sarif/`, checked by its digest): the validator
//! applies every keyword that schema uses, every committed golden
//! document renders to a valid log with a result per row, and a mutated
//! log fails where it was mutated (the check bites). The logs of real
//! runs through the daemon and client are checked in `goldens.rs`.

mod support;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use shipgate_daemon::render::sarif::{render_sarif, ROW_FINGERPRINT};
use support::schema::{check_schema, sarif_schema, validate};

/// The committed golden documents (`tests/goldens/*.json`).
fn golden_documents() -> Vec<(String, Value)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens");
    let mut docs: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .expect("goldens dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let doc = serde_json::from_str(&std::fs::read_to_string(&p).expect("read"))
                .expect("golden JSON");
            (p.display().to_string(), doc)
        })
        .collect();
    docs.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(docs.len() >= 5, "{docs:?}");
    docs
}

fn log_of(doc: &Value) -> Value {
    serde_json::from_str(&render_sarif(doc)).expect("the SARIF log parses")
}

#[test]
fn the_vendored_schema_is_the_official_one() {
    let bytes = include_bytes!("fixtures/sarif/sarif-schema-2.1.0.json");
    let digest: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(
        digest,
        "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
    );
    assert_eq!(
        sarif_schema()["id"],
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    );
}

#[test]
fn the_validator_applies_everything_the_sarif_schema_uses() {
    assert_eq!(check_schema(&sarif_schema()), Vec::<String>::new());
}

#[test]
fn every_golden_document_renders_a_valid_log_with_a_result_per_row() {
    let schema = sarif_schema();
    for (name, doc) in golden_documents() {
        let log = log_of(&doc);
        let errors = validate(&schema, &log);
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        let run = &log["runs"][0];
        let rows = doc["rows"].as_array().expect("rows");
        let results = run["results"].as_array().expect("results");
        assert_eq!(results.len(), rows.len(), "{name}");
        let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
        for (row, result) in rows.iter().zip(results) {
            let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
            assert_eq!(rules[index]["id"], result["ruleId"], "{name}");
            let change = row["change"].as_str().unwrap_or_default();
            assert!(
                result["ruleId"]
                    .as_str()
                    .is_some_and(|id| id.ends_with(&format!("/{change}"))),
                "{name}: {result}"
            );
            let want = if matches!(change, "added" | "changed") {
                "warning"
            } else {
                "note"
            };
            assert_eq!(result["level"], want, "{name}");
            assert_eq!(result["properties"]["tool"], row["tool"], "{name}");
            let fingerprint = &result["partialFingerprints"][ROW_FINGERPRINT];
            assert_eq!(fingerprint.as_str().map(str::len), Some(64), "{name}");
            // A line only where it is one of the head commit.
            let region = &result["locations"][0]["physicalLocation"]["region"];
            if row["after"].is_null() {
                assert!(region.is_null(), "{name}: {result}");
            }
        }
        // Every rule is used, once listed.
        let mut ids: Vec<&str> = rules.iter().filter_map(|r| r["id"].as_str()).collect();
        let listed = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), listed, "{name}");
    }
}

#[test]
fn a_tool_added_at_a_line_is_a_warning_there() {
    let (_, doc) = golden_documents()
        .into_iter()
        .find(|(name, _)| name.ends_with("support_bot.json"))
        .expect("the support bot golden");
    let log = log_of(&doc);
    let result = log["runs"][0]["results"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["properties"]["tool"] == "refund_order"))
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(result["ruleId"], "tool/added");
    assert_eq!(result["level"], "warning");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "support_bot/agent.py"
    );
    assert!(result["locations"][0]["physicalLocation"]["region"]["startLine"].is_u64());
    assert_eq!(log["runs"][0]["tool"]["driver"]["name"], "shipgate");
}

type Mutation = Box<dyn Fn(&mut Value)>;

#[test]
fn a_mutated_log_fails_where_it_was_mutated() {
    let (_, doc) = golden_documents()
        .into_iter()
        .find(|(name, _)| name.ends_with("desk_partial.json"))
        .expect("the desk golden");
    let log = log_of(&doc);
    let schema = sarif_schema();
    let before = validate(&schema, &log);
    assert_eq!(before, Vec::<String>::new());
    let result = "/runs/0/results/0";
    let mutations: Vec<(String, Mutation)> = vec![
        (
            "/version".into(),
            Box::new(|l| l["version"] = json!("2.0.0")),
        ),
        (
            "/$schema".into(),
            Box::new(|l| l["$schema"] = json!("not a uri")),
        ),
        (
            "/runs/0/tool".into(),
            Box::new(|l| {
                l["runs"][0].as_object_mut().expect("run").remove("tool");
            }),
        ),
        (
            format!("{result}/level"),
            Box::new(|l| l["runs"][0]["results"][0]["level"] = json!("fatal")),
        ),
        (
            format!("{result}/message"),
            Box::new(|l| l["runs"][0]["results"][0]["message"] = json!({"markdown": "x"})),
        ),
        (
            format!("{result}/locations/0/physicalLocation/region/startLine"),
            Box::new(|l| {
                l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"] =
                    json!({"startLine": 0})
            }),
        ),
        (
            format!("{result}/locations/0/physicalLocation/artifactLocation/uri"),
            Box::new(|l| {
                l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
                    ["uri"] = json!("desk/my agents.py")
            }),
        ),
        (
            format!("{result}/ruleIndex"),
            Box::new(|l| l["runs"][0]["results"][0]["ruleIndex"] = json!(-2)),
        ),
        (
            "/runs/0/tool/driver/rules".into(),
            Box::new(|l| {
                let rules = &mut l["runs"][0]["tool"]["driver"]["rules"];
                let first = rules[0].clone();
                rules.as_array_mut().expect("rules").push(first);
            }),
        ),
        (
            "/runs/0/invocations/0".into(),
            Box::new(|l| {
                l["runs"][0]["invocations"][0]
                    .as_object_mut()
                    .expect("invocation")
                    .remove("executionSuccessful");
            }),
        ),
        (
            "/runs/0/results/0/verdict".into(),
            Box::new(|l| l["runs"][0]["results"][0]["verdict"] = json!("ship it")),
        ),
    ];
    for (pointer, mutate) in &mutations {
        let mut mutated = log.clone();
        mutate(&mut mutated);
        let errors = validate(&schema, &mutated);
        assert!(
            errors
                .iter()
                .any(|e| e.starts_with(&format!("{pointer}:"))
                    || e.starts_with(&format!("{pointer}/"))),
            "mutating {pointer} was not reported; errors: {errors:#?}"
        );
    }
}

/// The pattern and format additions the SARIF schema needed, on small
/// cases.
#[test]
fn groups_formats_and_bounds_are_applied() {
    let schema = json!({
        "type": "object",
        "properties": {
            "version": {"type": "string", "pattern": "[0-9]+(\\.[0-9]+){3}"},
            "lang": {"type": "string", "pattern": "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$"},
            "mime": {"type": "string", "pattern": "[^/]+/.+"},
            "uri": {"type": "string", "format": "uri"},
            "ref": {"type": "string", "format": "uri-reference"},
            "when": {"type": "string", "format": "date-time"},
            "n": {"type": "integer", "minimum": 1, "maximum": 3},
            "list": {"type": "array", "minItems": 1, "uniqueItems": true}
        }
    });
    let valid = json!({"version": "1.2.3.4", "lang": "en-US", "mime": "text/plain",
        "uri": "https://example.com/a%20b", "ref": "app/agent.py", "when": "2024-05-01T10:00:00.5Z",
        "n": 3, "list": [1, 2]});
    assert_eq!(validate(&schema, &valid), Vec::<String>::new());
    for (key, bad) in [
        ("version", json!("1.2.3")),
        ("lang", json!("en-")),
        ("lang", json!("en-USA")),
        ("mime", json!("textplain")),
        ("uri", json!("app/agent.py")),
        ("uri", json!("https://example.com/a b")),
        ("ref", json!(":x/agent.py")),
        ("ref", json!("1c:x/agent.py")),
        ("ref", json!("a%2")),
        ("when", json!("2024-05-01 10:00:00Z")),
        ("n", json!(0)),
        ("n", json!(4)),
        ("list", json!([])),
        ("list", json!([1, 1.0])),
    ] {
        let mut instance = valid.clone();
        instance[key] = bad.clone();
        let errors = validate(&schema, &instance);
        assert!(
            errors.iter().any(|e| e.starts_with(&format!("/{key}:"))),
            "{key} = {bad}: {errors:#?}"
        );
    }
    for unsupported in [
        json!({"format": "email"}),
        json!({"pattern": "^(a|b)$"}),
        json!({"pattern": "(a"}),
        json!({"pattern": "a)"}),
    ] {
        assert!(!check_schema(&unsupported).is_empty(), "{unsupported}");
    }
}
