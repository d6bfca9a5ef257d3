//! End to end: declared effects (issue 22, part 2). A tool the repository's
//! own MCP server registers with `annotations=` declaring it read-only (or
//! not destructive) is held against what its function reaches; the change
//! that brings the two into or out of agreement is a `declared_effects`
//! entry, in the JSON, the text, the findings opening and history. A
//! declaration never changes a row, and only the repository's own words
//! are read.

mod support;

use serde_json::{json, Value};
use support::{assert_compared, compare_branches, rows};

const AGENT: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\nsupport = Agent(name=\"support\", tools=[lookup])\n";

/// `app/server.py`: a FastMCP server whose `list_notes` declares `hints`
/// and runs `body`.
fn server(annotations: &str, body: &str) -> String {
    format!(
        "import httpx\nimport subprocess\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.types import ToolAnnotations\n\nmcp = FastMCP(\"notes\")\n\n\n@mcp.tool(annotations={annotations})\ndef list_notes(user: str) -> str:\n{body}    return httpx.get(f\"https://notes.example.com/users/{{user}}/notes\").text\n"
    )
}

const READ_ONLY: &str = "ToolAnnotations(readOnlyHint=True)";
const POSTS: &str = "    httpx.post(f\"https://notes.example.com/users/{user}/seen\")\n";

fn compare(base: &str, head: &str) -> (Value, String) {
    compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", AGENT),
            ("app/server.py", base),
        ],
        &[("app/server.py", head)],
        "app",
    )
}

#[test]
fn a_read_only_tool_that_comes_to_write_is_a_finding_of_its_own() {
    let (doc, text) = compare(&server(READ_ONLY, ""), &server(READ_ONLY, POSTS));
    assert_compared(&doc);
    // A declaration is no binding: the agent's rows are untouched.
    assert_eq!(rows(&doc), vec![]);
    let contradiction = "declared read-only, but writes: POST https://notes.example.com/users/{user}/seen at app/server.py:11";
    assert_eq!(
        doc["declared_effects"],
        json!([{
            "source": "app/server.py",
            "server": "notes",
            "server_variable": "mcp",
            "tool": "list_notes",
            "declared_at": "app/server.py:10",
            "declared": {"readOnlyHint": true},
            "change": "new",
            "before": {"verdict": "consistent", "contradictions": [], "not_read": []},
            "after": {
                "verdict": "contradicted",
                "contradictions": [{
                    "hint": "readOnlyHint",
                    "observed": "writes",
                    "call": "POST https://notes.example.com/users/{user}/seen",
                    "at": "app/server.py:11",
                    "text": contradiction,
                }],
                "not_read": [],
            },
            "text": contradiction,
        }])
    );
    assert_eq!(
        doc["summary"]["declared_effects"],
        json!([{"index": 0, "tool": "list_notes", "server": "notes", "source": "app/server.py", "change": "new", "text": contradiction}])
    );
    support::schema::assert_valid(&doc);
    assert!(
        text.contains(&format!(
            "Findings: 0 changed agents, 0 rows.\nDeclared: list_notes (MCP server 'notes', app/server.py): {contradiction} [new]\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Declared effects (the application's own MCP tool annotations, held against reach):\n  list_notes (MCP server 'notes', declared at app/server.py:10): new\n    declares: readOnlyHint=True\n    base: consistent\n    head: contradicted\n      {contradiction}\n"
        )),
        "{text}"
    );
}

#[test]
fn a_fixed_contradiction_is_resolved_and_an_unchanged_one_is_silent() {
    let (doc, _) = compare(&server(READ_ONLY, POSTS), &server(READ_ONLY, ""));
    assert_eq!(doc["declared_effects"][0]["change"], "resolved");
    assert_eq!(
        doc["declared_effects"][0]["text"],
        "no longer: declared read-only, but writes: POST https://notes.example.com/users/{user}/seen at app/server.py:11"
    );
    // The same contradiction a few lines lower is no change.
    let moved = server(READ_ONLY, POSTS).replace("mcp = FastMCP", "\n\nmcp = FastMCP");
    let (doc, _) = compare(&server(READ_ONLY, POSTS), &moved);
    assert_compared(&doc);
    assert_eq!(doc.get("declared_effects"), None);
    // Dropping the declaration takes the promise back: nothing to hold.
    let (doc, _) = compare(&server(READ_ONLY, POSTS), &server("None", POSTS));
    assert_eq!(doc["declared_effects"][0]["change"], "resolved");
    assert_eq!(doc["declared_effects"][0]["after"], Value::Null);
}

#[test]
fn a_process_or_a_delete_refutes_what_was_declared() {
    let runs = "    subprocess.run([\"git\", \"pull\"])\n";
    let (doc, _) = compare(&server(READ_ONLY, ""), &server(READ_ONLY, runs));
    let after = &doc["declared_effects"][0]["after"];
    assert_eq!(after["verdict"], "contradicted");
    assert_eq!(after["contradictions"][0]["observed"], "runs a process");
    let not_destructive = "{\"readOnlyHint\": False, \"destructiveHint\": False}";
    let deletes = "    httpx.delete(f\"https://notes.example.com/users/{user}/notes\")\n";
    let (doc, _) = compare(
        &server(not_destructive, POSTS),
        &server(not_destructive, deletes),
    );
    let entry = &doc["declared_effects"][0];
    assert_eq!(
        entry["declared"],
        json!({"readOnlyHint": false, "destructiveHint": false})
    );
    assert_eq!(
        entry["text"],
        "declared not destructive, but deletes: DELETE https://notes.example.com/users/{user}/notes at app/server.py:11"
    );
    // A write is no delete: `destructiveHint=False` allows it.
    assert_eq!(entry["before"]["verdict"], "consistent");
}

#[test]
fn what_the_read_cannot_confirm_is_named_never_passed() {
    let unread = "    notes_store.mark_seen(user)\n";
    let base = server(READ_ONLY, "");
    let head =
        server(READ_ONLY, unread).replace("import httpx\n", "import httpx\nimport notes_store\n");
    let (doc, _) = compare(&base, &head);
    let entry = &doc["declared_effects"][0];
    assert_eq!(entry["change"], "not_established");
    assert_eq!(entry["after"]["verdict"], "not_established");
    let reason = entry["after"]["not_read"][0].as_str().unwrap_or_default();
    assert!(
        reason.starts_with("a call not read at app/server.py:12: "),
        "{reason}"
    );
    // An annotation the reader cannot read is named too.
    let (doc, _) = compare(&base, &server("config.ANNOTATIONS", ""));
    assert_eq!(
        doc["declared_effects"][0]["after"]["not_read"],
        json!(["annotations= is not a ToolAnnotations(...) or a dict display"])
    );
    support::schema::assert_valid(&doc);
}

#[test]
fn a_server_change_alone_selects_its_scope_and_a_shadowing_package_is_a_limit() {
    let repo = support::Repo::new();
    repo.commit(
        &[
            ("svc/__init__.py", Some("")),
            ("svc/server.py", Some(&server(READ_ONLY, ""))),
        ],
        "server",
    );
    repo.commit(
        &[("svc/server.py", Some(&server(READ_ONLY, POSTS)))],
        "posts",
    );
    let place = support::Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &["--base", "HEAD~1", "--head", "HEAD"]);
    assert_eq!(
        doc["scope_selection"]["reason"],
        "svc: svc/server.py is an agent file"
    );
    assert_eq!(doc["declared_effects"][0]["change"], "new");
    // No agent is built: the agents are not established, the declaration is.
    assert_eq!(doc["comparison_status"], "not_established");

    let shadowed = support::Repo::new();
    shadowed.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/agent.py", Some(AGENT)),
            ("app/server.py", Some(&server(READ_ONLY, ""))),
            ("app/mcp/__init__.py", Some("")),
        ],
        "vendored",
    );
    shadowed.commit(
        &[("app/server.py", Some(&server(READ_ONLY, POSTS)))],
        "posts",
    );
    let doc = place.diff_json(
        &shadowed,
        &["--base", "HEAD~1", "--head", "HEAD", "--scope", "app"],
    );
    assert_eq!(doc.get("declared_effects"), None);
    assert!(
        support::limits(&doc, "head").contains(&"The repository holds its own mcp or fastmcp package where server.py imports it, so its MCP servers are not read as that library's, nor their tools' declarations.".to_string()),
        "{:?}",
        support::limits(&doc, "head")
    );
}

#[test]
fn fastmcp_names_and_dict_annotations_are_read() {
    let fast = |body: &str| {
        format!(
            "import httpx\nfrom fastmcp import FastMCP\n\nRO = {{\"readOnlyHint\": True}}\nserver = FastMCP(name=\"files\")\n\n\n@server.tool(\"fetch_file\", annotations=RO)\ndef fetch(path: str) -> str:\n{body}    return path\n"
        )
    };
    let (doc, _) = compare(
        &fast(""),
        &fast("    httpx.put(\"https://files.example.com/cache\", json={\"p\": path})\n"),
    );
    let entry = &doc["declared_effects"][0];
    assert_eq!(entry["tool"], "fetch_file");
    assert_eq!(entry["server"], "files");
    assert_eq!(entry["server_variable"], "server");
    assert_eq!(
        entry["text"],
        "declared read-only, but writes: PUT https://files.example.com/cache at app/server.py:10"
    );
}

/// `history --tool` shows the commit whose change contradicted the
/// declaration.
#[test]
fn history_shows_when_a_declaration_was_contradicted() {
    let repo = support::Repo::new();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/agent.py", Some(AGENT)),
            ("app/server.py", Some(&server(READ_ONLY, ""))),
        ],
        "notes server",
    );
    repo.commit(&[("README.md", Some("docs\n"))], "docs");
    repo.commit(
        &[("app/server.py", Some(&server(READ_ONLY, POSTS)))],
        "mark notes seen",
    );
    let place = support::Place::new();
    let _daemon = place.start_daemon();
    let workspace = repo.path().to_string_lossy().into_owned();
    let output = place.client(&["history", "--workspace", &workspace, "--tool", "list_notes"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains(": mark notes seen\n  DECLARED  list_notes (MCP server 'notes', app/server.py): declared read-only, but writes: POST https://notes.example.com/users/{user}/seen at app/server.py:11 [new]\n"),
        "{text}"
    );
    // The commit that added the server declared nothing contradicted.
    assert!(!text.contains(": notes server\n"), "{text}");
}

/// The whole answer for a read-only tool that came to write, beside an
/// agent whose tool changed too, text and JSON
/// (`tests/goldens/declared_read_only_writes.*`).
#[test]
fn the_answer_for_a_contradicted_declaration_is_its_golden() {
    let (doc, _) = support::compare_branches_golden(
        "declared_read_only_writes",
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", AGENT),
            ("app/server.py", &server(READ_ONLY, "")),
        ],
        &[
            (
                "app/agent.py",
                &AGENT.replace("return q", "return q.strip()"),
            ),
            ("app/server.py", &server(READ_ONLY, POSTS)),
        ],
        "app",
    );
    support::schema::assert_valid(&doc);
}
