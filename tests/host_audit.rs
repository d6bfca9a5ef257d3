//! End to end: `audit --host` (issue 42) — the host grants of the
//! working tree as an inventory, a baseline recorded by the client, and
//! the drift of later grants from it, with the reference's exit codes.

mod support;

use serde_json::Value;
use support::{Place, Repo};

fn audit(place: &Place, repo: &Repo, extra: &[&str]) -> (i32, String, String) {
    let workspace = repo.path().to_string_lossy().into_owned();
    let mut args = vec!["audit", "--host", "--workspace", workspace.as_str()];
    args.extend_from_slice(extra);
    let output = place.client(&args);
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

const SETTINGS: &str = r#"{"permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"], "defaultMode": "plan"}}"#;
const MCP: &str = r#"{"mcpServers": {"docs": {"command": "npx", "args": ["docs-mcp@1.0.0"], "env": {"DOCS_TOKEN": "secret-value-1"}}}}"#;

fn repository() -> Repo {
    let repo = Repo::new();
    repo.commit(
        &[
            (".claude/settings.json", Some(SETTINGS)),
            (".mcp.json", Some(MCP)),
        ],
        "base",
    );
    repo
}

#[test]
fn the_inventory_lists_each_grant_with_its_kind_risk_and_access() {
    let place = Place::new();
    let repo = repository();
    let (code, stdout, stderr) = audit(&place, &repo, &["--json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains("secret-value-1"));
    let doc: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(doc["host_grants_inventory_schema_version"], "0.7");
    let mut grants: Vec<(String, String, String, String)> = doc["grants"]
        .as_array()
        .expect("grants")
        .iter()
        .map(|g| {
            let s = |k: &str| g[k].as_str().unwrap_or("").to_string();
            (s("kind"), s("risk"), s("access"), s("source"))
        })
        .collect();
    grants.sort();
    let grant = |k: &str, r: &str, a: &str, s: &str| {
        (k.to_string(), r.to_string(), a.to_string(), s.to_string())
    };
    assert_eq!(
        grants,
        vec![
            grant("mcp_server", "high", "external", ".mcp.json"),
            grant("permission_mode", "medium", "none", ".claude/settings.json"),
            grant("permission_rule", "low", "none", ".claude/settings.json"),
            grant(
                "permission_rule",
                "medium",
                "execute",
                ".claude/settings.json"
            ),
        ]
    );
    let covered: Vec<(&str, &str)> = doc["host_coverage"]
        .as_array()
        .expect("coverage")
        .iter()
        .map(|h| {
            (
                h["host"].as_str().unwrap_or(""),
                h["status"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        covered,
        vec![
            ("codex", "complete"),
            ("claude-code", "complete"),
            ("cursor", "complete"),
            ("vscode", "complete"),
            ("github", "complete")
        ]
    );
    let (_, markdown, _) = audit(&place, &repo, &[]);
    assert!(
        markdown.starts_with("# Host Capability Audit\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| claude-code | complete | 2 |"),
        "{markdown}"
    );
    assert!(markdown.contains("## Grants (4)"), "{markdown}");
}

#[test]
fn a_recorded_baseline_measures_drift_and_gates_on_it() {
    let place = Place::new();
    let repo = repository();
    let (code, stdout, stderr) = audit(&place, &repo, &["--save-baseline"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with(
            "Host-grants baseline created: .agents-shipgate/host-grants.json (sha256 "
        ),
        "{stdout}"
    );
    let saved = std::fs::read_to_string(repo.path().join(".agents-shipgate/host-grants.json"))
        .expect("baseline written");
    assert!(!saved.contains("secret-value-1"));
    repo.commit(&[], "record the baseline");
    // Nothing changed: no drift, and the gate passes.
    let (code, stdout, _) = audit(&place, &repo, &["--drift", "--fail-on-drift"]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "# Host Grant Drift\n\nNo drift — current host grants match the acknowledged baseline.\n"
    );
    // The working tree widens a rule and adds a server.
    std::fs::write(
        repo.path().join(".claude/settings.json"),
        SETTINGS.replace("Bash(npm run test:*)", "Bash(npm run:*)"),
    )
    .expect("write");
    std::fs::write(
        repo.path().join(".mcp.json"),
        r#"{"mcpServers": {"docs": {"command": "npx", "args": ["docs-mcp@1.0.0"], "env": {"DOCS_TOKEN": "secret-value-1"}}, "db": {"command": "uvx", "args": ["pg-mcp"]}}}"#,
    )
    .expect("write");
    let (code, stdout, _) = audit(&place, &repo, &["--drift", "--fail-on-drift", "--json"]);
    assert_eq!(code, 20);
    let doc: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(doc["has_drift"], true);
    assert_eq!(
        doc["expansion_signals"],
        serde_json::json!([
            "allow_rule_widened: claude-code:Bash(npm run:*)",
            "mcp_server_added: claude-code:db"
        ])
    );
    let (code, markdown, _) = audit(&place, &repo, &["--drift"]);
    assert_eq!(
        code, 0,
        "without --fail-on-drift drift is reported, not failed"
    );
    assert!(
        markdown.contains("- ⚠ `mcp_server_added: claude-code:db`"),
        "{markdown}"
    );
}

#[test]
fn a_missing_or_foreign_baseline_and_bad_flags_are_refused() {
    let place = Place::new();
    let repo = repository();
    let (code, _, stderr) = audit(&place, &repo, &["--drift"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("No readable host-grants baseline at"),
        "{stderr}"
    );
    std::fs::create_dir_all(repo.path().join(".agents-shipgate")).expect("mkdir");
    std::fs::write(
        repo.path().join(".agents-shipgate/host-grants.json"),
        r#"{"host_grants_schema_version": "0.7", "inventory": {}}"#,
    )
    .expect("write");
    let (code, _, stderr) = audit(&place, &repo, &["--drift"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("it was not recorded by shipgate"),
        "{stderr}"
    );
    for (flags, message) in [
        (vec!["--fail-on-drift"], "--fail-on-drift requires --drift."),
        (
            vec!["--scope", "local-static"],
            "--scope repository is the only scope",
        ),
    ] {
        let (code, _, stderr) = audit(&place, &repo, &flags);
        assert_eq!(code, 2, "{flags:?}");
        assert!(stderr.contains(message), "{flags:?}: {stderr}");
    }
}
