//! Golden answers (issue 9): for each fixture, the whole text and JSON a
//! reviewer and a CI job read, committed under `tests/goldens/`, plus the
//! properties every answer keeps:
//! - the same inputs give byte-identical JSON and text, cold, warm and
//!   across a daemon restart;
//! - `comparison_id` is recomputable by anyone (here: Python's `json` and
//!   `hashlib`, as the contract states it: SHA-256 over the document
//!   without the id, sorted keys, compact separators, ASCII);
//! - the summary states nothing the rows do not: every index it names is
//!   a row, and every tool it names is that row's tool and change (checked
//!   for every golden, `support::golden::summary_states_only_rows`).
//!
//! Commit ids and the engine's build digests differ from run to run, so
//! the goldens spell them `<base>`, `<head>` and `<engine>`. Regenerate
//! after an intended change with `SHIPGATE_BLESS=1 cargo test --test
//! goldens`, and read the diff before committing it.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{golden, Place, Repo};

/// Commits `fixtures/<name>/base` on `main` and `head` on top of it on
/// `head`, as a real repository would hold them.
fn fixture_repo(base: &Path, head: &Path, under: &str) -> (Repo, String, String) {
    let repo = Repo::new();
    let copy = |from: &Path| -> Vec<(String, String)> {
        let mut files = Vec::new();
        walk(from, from, &mut files);
        files
            .into_iter()
            .map(|(path, content)| (format!("{under}{path}"), content))
            .collect()
    };
    let base_files = copy(base);
    let files: Vec<(&str, Option<&str>)> = base_files
        .iter()
        .map(|(p, c)| (p.as_str(), Some(c.as_str())))
        .collect();
    let base_commit = repo.commit(&files, "base");
    repo.git(&["checkout", "-q", "-b", "head"]);
    let head_files = copy(head);
    let files: Vec<(&str, Option<&str>)> = head_files
        .iter()
        .map(|(p, c)| (p.as_str(), Some(c.as_str())))
        .collect();
    let head_commit = repo.commit(&files, "head");
    (repo, base_commit, head_commit)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixture dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(root, &path, out);
        } else {
            let relative = path
                .strip_prefix(root)
                .expect("under root")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((relative, std::fs::read_to_string(&path).expect("fixture")));
        }
    }
}

/// SHA-256 of the document without its id, as Python computes it.
fn python_comparison_id(doc: &Value) -> String {
    let mut doc = doc.clone();
    if let Value::Object(map) = &mut doc {
        map.shift_remove("comparison_id");
    }
    let script = "import hashlib, json, sys\n\
        doc = json.loads(sys.stdin.read())\n\
        text = json.dumps(doc, sort_keys=True, separators=(',', ':'), ensure_ascii=True)\n\
        print(hashlib.sha256(text.encode('ascii')).hexdigest())\n";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs (the contract's reference recipe)");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(serde_json::to_string(&doc).expect("json").as_bytes())
        .expect("write");
    let output = child.wait_with_output().expect("python3 finishes");
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// Runs one fixture: goldens, determinism across restarts, the id and the
/// summary's faithfulness.
fn golden(name: &str, base: &Path, head: &Path, under: &str, args: &[&str]) {
    let (repo, base_commit, head_commit) = fixture_repo(base, head, under);
    let mut full = vec!["--base", "main", "--head", "head"];
    full.extend_from_slice(args);
    let place = Place::new();
    let daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &full);
    let (code, text, stderr) = place.diff(&repo, &full);
    assert!(code == 0 || code == 1, "{stderr}");
    let raw_json = serde_json::to_string(&doc).expect("json");
    // Warm, then from a restarted daemon over the same store.
    let warm = serde_json::to_string(&place.diff_json(&repo, &full)).expect("json");
    daemon.stop();
    let _restarted = place.start_daemon();
    let restarted = serde_json::to_string(&place.diff_json(&repo, &full)).expect("json");
    let (_, restarted_text, _) = place.diff(&repo, &full);
    assert_eq!(raw_json, warm, "warm JSON differs");
    assert_eq!(raw_json, restarted, "JSON differs after a restart");
    assert_eq!(text, restarted_text, "text differs after a restart");
    // A fresh store (cold) gives the same answer too.
    let cold_place = Place::new();
    let _cold = cold_place.start_daemon();
    let cold = serde_json::to_string(&cold_place.diff_json(&repo, &full)).expect("json");
    assert_eq!(raw_json, cold, "cold JSON differs");

    assert_eq!(doc["application_comparison_schema_version"], "0.4");
    assert_eq!(
        doc["comparison_id"].as_str().unwrap_or_default(),
        python_comparison_id(&doc)
    );
    golden::check(name, &doc, &text, &base_commit, &head_commit);
    ci_renderings(
        name,
        &place,
        &repo,
        &full,
        &doc,
        &text,
        &base_commit,
        &head_commit,
    );
}

/// The CI renderings of the same answer through the real client
/// (`--format markdown|sarif|github`), each against its golden: the SARIF
/// log valid against the official schema with a result per row, the
/// comment within GitHub's limit, and `GITHUB_ACTIONS=true` changing
/// nothing of the text.
#[allow(clippy::too_many_arguments)]
fn ci_renderings(
    name: &str,
    place: &Place,
    repo: &Repo,
    args: &[&str],
    doc: &Value,
    text: &str,
    base: &str,
    head: &str,
) {
    let run = |format: &str| {
        let mut with_format = args.to_vec();
        with_format.extend_from_slice(&["--format", format]);
        let (code, out, stderr) = place.diff(repo, &with_format);
        assert_eq!(code, 0, "--format {format}: {stderr}");
        out
    };
    let markdown = run("markdown");
    assert!(markdown.chars().count() <= 65_536);
    assert_eq!(markdown.matches("</details>").count(), 1, "{markdown}");
    golden::check_file(
        &format!("{name}.md"),
        &golden::normalise(&markdown, base, head),
    );

    let sarif: Value = serde_json::from_str(&run("sarif")).expect("the SARIF log parses");
    support::schema::assert_valid_sarif(&sarif);
    let results = sarif["runs"][0]["results"].as_array().map(Vec::len);
    assert_eq!(results, doc["rows"].as_array().map(Vec::len));
    let mut stable = sarif.clone();
    let run0 = &mut stable["runs"][0];
    run0["tool"]["driver"]["version"] = Value::String("<version>".into());
    run0["tool"]["driver"]["semanticVersion"] = Value::String("<version>".into());
    run0["properties"]["comparison_id"] = Value::String("<comparison_id>".into());
    golden::check_file(
        &format!("{name}.sarif"),
        &golden::normalise_json_text(&stable, base, head),
    );

    let annotations = run("github");
    assert!(
        annotations.lines().all(|l| l.starts_with("::")),
        "{annotations}"
    );
    golden::check_file(
        &format!("{name}.annotations.txt"),
        &golden::normalise(&annotations, base, head),
    );

    let workspace = repo.path().to_string_lossy().into_owned();
    let mut text_args = vec!["diff", "--application", "--workspace", workspace.as_str()];
    text_args.extend_from_slice(args);
    let output = place.client_with_env(&text_args, &[("GITHUB_ACTIONS", "true")]);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        text,
        "GITHUB_ACTIONS changed the text"
    );
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README's demo: the support bot gains `refund_order` and
/// `lookup_order` takes `include_items`; scope derived from the change.
#[test]
fn support_bot_golden() {
    let examples = root().join("examples/support-bot");
    golden(
        "support_bot",
        &examples.join("base"),
        &examples.join("head"),
        "support_bot/",
        &[],
    );
}

/// A desk where `refund` takes a new argument and `triage` starts taking
/// its tools from a call the reader does not follow: one changed row, one
/// candidate not established, the cause named once.
#[test]
fn desk_partial_golden() {
    let fixture = root().join("tests/fixtures/desk_partial");
    golden(
        "desk_partial",
        &fixture.join("base"),
        &fixture.join("head"),
        "",
        &["--scope", "desk"],
    );
}
