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
