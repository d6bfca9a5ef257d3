//! Golden answers: the whole text and JSON of a comparison, committed
//! under `tests/goldens/`, with the run-specific parts (commit ids, the
//! engine's build digests, the id over them) spelled as placeholders.
//! Regenerate after an intended change with `SHIPGATE_BLESS=1`, and read
//! the diff before committing it.

use serde_json::Value;
use std::path::Path;

/// The run-specific parts spelled as placeholders.
pub fn normalise(text: &str, base: &str, head: &str) -> String {
    text.replace(base, "<base>")
        .replace(head, "<head>")
        .replace(&base[..12], "<base>")
        .replace(&head[..12], "<head>")
}

pub fn normalise_json(doc: &Value, base: &str, head: &str) -> String {
    let mut doc = doc.clone();
    doc["engine"] = Value::String("<engine>".into());
    doc["comparison_id"] = Value::String("<comparison_id>".into());
    let pretty = serde_json::to_string_pretty(&doc).expect("json");
    normalise(&pretty, base, head) + "\n"
}

/// Any JSON value pretty-printed, commit ids spelled as placeholders.
pub fn normalise_json_text(doc: &Value, base: &str, head: &str) -> String {
    let pretty = serde_json::to_string_pretty(doc).expect("json");
    normalise(&pretty, base, head) + "\n"
}

pub fn check_file(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/goldens")
        .join(name);
    if std::env::var_os("SHIPGATE_BLESS").is_some() {
        std::fs::write(&path, actual).expect("write golden");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        want == actual,
        "{name} differs from its golden; run with SHIPGATE_BLESS=1 and read the diff.\n--- actual ---\n{actual}"
    );
}

/// Checks `<name>.txt` and `<name>.json` against the answer of a run
/// whose sides are the commits `base` and `head`.
pub fn check(name: &str, doc: &Value, text: &str, base: &str, head: &str) {
    summary_states_only_rows(doc);
    check_file(&format!("{name}.txt"), &normalise(text, base, head));
    check_file(&format!("{name}.json"), &normalise_json(doc, base, head));
}

/// Runs the comparison `args` asks for on `repo` (base `main`, head
/// `head`) through `place`'s daemon, and checks both answers.
pub fn check_run(name: &str, place: &super::Place, repo: &super::Repo, args: &[&str]) {
    let doc = place.diff_json(repo, args);
    let (_, text, stderr) = place.diff(repo, args);
    assert!(!text.is_empty(), "{stderr}");
    let base = repo.git(&["rev-parse", "main"]);
    let head = repo.git(&["rev-parse", "head"]);
    check(name, &doc, &text, &base, &head);
}

/// Every index the summary names is a row, with the tool and change it
/// claims; its counts are the rows' counts.
pub fn summary_states_only_rows(doc: &Value) {
    let rows = doc["rows"].as_array().expect("rows");
    let summary = &doc["summary"];
    assert_eq!(summary["counts"]["total"], rows.len());
    for change in ["added", "removed", "changed", "not_established"] {
        let n = rows.iter().filter(|r| r["change"] == change).count();
        assert_eq!(summary["counts"][change], n, "{change}");
    }
    let mut covered = Vec::new();
    for finding in summary["findings"].as_array().expect("findings") {
        for index in finding["rows"].as_array().expect("finding rows") {
            let row = &rows[index.as_u64().expect("index") as usize];
            assert_eq!(row["agent"], finding["agent"]);
            covered.push(index.as_u64());
        }
        for tool in finding["tools"].as_array().expect("tools") {
            let row = &rows[tool["row"].as_u64().expect("row") as usize];
            assert_eq!(row["tool"], tool["tool"]);
            assert_eq!(row["change"], tool["change"]);
            assert_eq!(row["candidate_change"], tool["candidate_change"]);
            if let Some(unresolved) = tool.get("unresolved") {
                // An uncertainty reason, or a reach limit of a side.
                let stated = ["base", "head"].iter().any(|side| {
                    row["uncertainty"][side]
                        .as_array()
                        .is_some_and(|r| r.contains(&unresolved["why"]))
                }) || ["before", "after"].iter().any(|side| {
                    row[side]["reach"]["limits"]
                        .as_array()
                        .is_some_and(|l| l.iter().any(|x| x["why"] == unresolved["why"]))
                });
                assert!(stated, "{unresolved}");
            }
        }
        for question in finding["questions"].as_array().expect("questions") {
            for index in question["rows"].as_array().expect("question rows") {
                assert!(finding["rows"].as_array().expect("rows").contains(index));
            }
        }
    }
    assert_eq!(covered.len(), rows.len(), "every row is in one finding");
    for cause in summary["causes"].as_array().expect("causes") {
        for index in cause["rows"].as_array().expect("cause rows") {
            let row = &rows[index.as_u64().expect("index") as usize];
            assert_eq!(row["change"], "not_established");
        }
    }
}
