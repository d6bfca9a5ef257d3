//! End to end: reasons and messages that name what is really wrong (issue
//! 16, item 8). A changed input that is never read (a file over the size
//! limit, a bumped submodule) is named with why, not called "not an agent
//! file"; a repository gix cannot open says why; `history` on a shallow
//! clone asks to unshallow; a `--scope` or `--agent` that names nothing is
//! a usage error; `watch` records a shallow clone's cut history in status.
//! Every hostile input is generated here, never committed.

mod support;

use serde_json::Value;
use std::process::Command;
use std::time::{Duration, Instant};
use support::{Place, Repo};

const AGENT: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\nsupport = Agent(name=\"support\", tools=[lookup])\n";

/// An agent module padded past the 2,000,000-byte limit.
fn oversized_agent() -> String {
    format!("{AGENT}\nPADDING = \"{}\"\n", "x".repeat(2_100_000))
}

/// Commits `base` on main, then `head` on a branch `head`.
fn branches(base: &[(&str, Option<&str>)], head: &[(&str, Option<&str>)]) -> Repo {
    let repo = Repo::new();
    repo.commit(base, "base");
    repo.git(&["checkout", "-q", "-b", "head"]);
    repo.commit(head, "head");
    repo
}

/// `diff --json` between main and head without `--scope`: exit 0.
fn derived(place: &Place, repo: &Repo) -> Value {
    place.diff_json(repo, &["--base", "main", "--head", "head"])
}

/// Runs the client; returns (exit, stdout, stderr).
fn client(place: &Place, args: &[&str]) -> (i32, String, String) {
    let output = place.client(args);
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

#[test]
fn a_changed_agent_file_over_the_size_limit_names_the_limit() {
    let big = oversized_agent();
    // Added over the bound: no side reads it, so nothing is compared and
    // the reason names the bound.
    let added = branches(
        &[("app/__init__.py", Some(""))],
        &[("app/agent.py", Some(&big))],
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = derived(&place, &added);
    assert_eq!(doc["comparison_status"], "not_established");
    assert_eq!(
        doc["scope_selection"]["reason"],
        "The change could not be related to an OpenAI Agents SDK or Google ADK agent: app/agent.py (it exceeds 2000000 bytes and is not read)."
    );
    // Grown past the bound: judged on each side (issue 17, item 7), as
    // the reference does: the base's agent file selects `app`, and the
    // scope limit names the bound.
    let repo = branches(
        &[("app/__init__.py", Some("")), ("app/agent.py", Some(AGENT))],
        &[("app/agent.py", Some(&big))],
    );
    let doc = derived(&place, &repo);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(doc["scope_selection"]["scopes"], serde_json::json!(["app"]));
    assert_eq!(
        doc["scope_selection"]["limits"],
        serde_json::json!(["Changed files are not related to a compared agent, so their effect is not compared: app/agent.py (it exceeds 2000000 bytes and is not read)."])
    );
    let doc = derived(&place, &added);
    assert_eq!(
        doc["scope_selection"]["reason"],
        "The change could not be related to an OpenAI Agents SDK or Google ADK agent: app/agent.py (it exceeds 2000000 bytes and is not read)."
    );
    assert_eq!(
        doc["scope_selection"]["changed_files"],
        serde_json::json!(["app/agent.py"])
    );
    // `--scope` names the same limit on the side that holds the file.
    let doc = place.diff_json(
        &repo,
        &["--base", "main", "--head", "head", "--scope", "app"],
    );
    assert!(
        support::limits(&doc, "head")
            .contains(&"Python input exceeds 2000000 bytes: agent.py".to_string()),
        "{}",
        doc["head"]
    );
    // The text says it too.
    let (code, text, stderr) = place.diff(&repo, &["--base", "main", "--head", "head"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.contains("app/agent.py (it exceeds 2000000 bytes and is not read)"),
        "{text}"
    );
}

#[test]
fn a_bumped_submodule_an_agent_imports_from_is_named_as_a_submodule() {
    // The library the agent imports, a repository of its own.
    let library = Repo::new();
    library.commit(
        &[
            ("tools/__init__.py", Some("")),
            ("tools/fetch.py", Some("def fetch(q):\n    return q\n")),
        ],
        "one",
    );
    let repo = Repo::new();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            (
                "app/agent.py",
                Some("from agents import Agent, function_tool\nfrom vendor.tools.tools.fetch import fetch\n\nsupport = Agent(name=\"support\", tools=[function_tool(fetch)])\n"),
            ),
        ],
        "app",
    );
    let url = format!("file://{}", library.path().display());
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        &url,
        "vendor/tools",
    ]);
    repo.commit(&[], "vendor the tools");
    repo.git(&["checkout", "-q", "-b", "head"]);
    let bumped = library.commit(
        &[(
            "tools/fetch.py",
            Some("def fetch(q):\n    return q.upper()\n"),
        )],
        "two",
    );
    let vendored = repo.path().join("vendor/tools");
    git(
        &vendored,
        &["-c", "protocol.file.allow=always", "fetch", "-q", "origin"],
    );
    git(&vendored, &["checkout", "-q", &bumped]);
    repo.commit(&[], "bump the tools");
    assert_ne!(
        repo.git(&["rev-parse", "main:vendor/tools"]),
        repo.git(&["rev-parse", "head:vendor/tools"]),
        "the gitlink moved"
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = derived(&place, &repo);
    assert_eq!(doc["comparison_status"], "not_established");
    assert_eq!(
        doc["scope_selection"]["reason"],
        "The change could not be related to an OpenAI Agents SDK or Google ADK agent: vendor/tools (it is a submodule, whose content is not read)."
    );
    // A bumped submodule beside a compared change is a limit, as before.
    repo.commit(&[("app/agent.py", Some(AGENT))], "rewrite the agent");
    let doc = derived(&place, &repo);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        doc["scope_selection"]["limits"],
        serde_json::json!(["Changed files are not related to a compared agent, so their effect is not compared: vendor/tools (it is a submodule, whose content is not read)."])
    );
}

#[test]
fn a_sha256_repository_says_so_not_that_there_is_no_checkout() {
    let dir = tempfile::tempdir().expect("temp dir");
    git(
        dir.path(),
        &["init", "-q", "--object-format=sha256", "-b", "main"],
    );
    let place = Place::new();
    let _daemon = place.start_daemon();
    let workspace = dir.path().to_string_lossy().into_owned();
    let (code, _, stderr) = client(
        &place,
        &[
            "diff",
            "--application",
            "--workspace",
            &workspace,
            "--base",
            "main",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    let root = dir.path().display();
    assert_eq!(
        stderr.trim_end(),
        format!("Application comparison could not read its inputs: The repository at {root} uses SHA-256 object ids (extensions.objectFormat = sha256), which shipgate does not read yet; it compares SHA-1 repositories only.")
    );
    // `history` and `watch` open repositories the same way.
    let (code, _, stderr) = client(&place, &["history", "--workspace", &workspace]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("uses SHA-256 object ids"), "{stderr}");
}

#[test]
fn an_unreadable_included_configuration_says_so() {
    let repo = Repo::new();
    repo.commit(&[("README.md", Some("x\n"))], "one");
    let broken = repo.path().join("broken.gitconfig");
    std::fs::write(&broken, "[unclosed\n").expect("write");
    let config = repo.path().join(".git/config");
    let mut text = std::fs::read_to_string(&config).expect("config");
    text.push_str(&format!("[include]\n\tpath = {}\n", broken.display()));
    std::fs::write(&config, text).expect("write config");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let (code, _, stderr) = place.diff(&repo, &["--base", "main", "--head", "main"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "Application comparison could not read its inputs: The git configuration could not be read: Could not parse included configuration file: Could not parse configuration: Got an unexpected token on line 1 while trying to parse a section header: '[unclosed\\n'. Fix the repository's configuration or the file it includes (git config --list --show-origin names each), then rerun."
    );
    // A directory that is no checkout still says so.
    let plain = tempfile::tempdir().expect("temp dir");
    let workspace = plain.path().to_string_lossy().into_owned();
    let (code, _, stderr) = client(
        &place,
        &[
            "diff",
            "--application",
            "--workspace",
            &workspace,
            "--base",
            "main",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!(
            "Application comparison could not read its inputs: Workspace is not inside a git checkout: {workspace}"
        )
    );
}

/// A repository of three commits, each changing the agent, and a clone of
/// it one commit deep.
fn shallow_clone() -> (Repo, tempfile::TempDir) {
    let origin = Repo::new();
    for tools in ["[]", "[lookup]", "[]"] {
        origin.commit(
            &[
                ("app/__init__.py", Some("")),
                ("app/agent.py", Some(&AGENT.replace("[lookup]", tools))),
            ],
            &format!("tools {tools}"),
        );
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("file://{}", origin.path().display());
    git(dir.path(), &["clone", "-q", "--depth", "1", &url, "clone"]);
    (origin, dir)
}

#[test]
fn history_on_a_shallow_clone_asks_to_unshallow() {
    let (_origin, dir) = shallow_clone();
    let clone = dir.path().join("clone");
    let oldest = git(&clone, &["rev-parse", "HEAD"]);
    let parent = git(&clone, &["cat-file", "-p", "HEAD"])
        .lines()
        .find_map(|l| l.strip_prefix("parent ").map(str::to_string))
        .expect("the boundary commit names its parent");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let workspace = clone.to_string_lossy().into_owned();
    let (code, _, stderr) = client(&place, &["history", "--workspace", &workspace]);
    assert_eq!(code, 2, "{stderr}");
    let root = clone.canonicalize().expect("canonical");
    assert_eq!(
        stderr.trim_end(),
        format!(
            "This checkout is shallow: commit {} is older than the history it fetched. Run git -C {} fetch --unshallow (or use fetch-depth: 0 in CI), then rerun.",
            &parent[..8],
            root.display()
        )
    );
    assert!(!stderr.contains("--refetch"), "{stderr}");
    // History inside what was fetched reads.
    let (code, stdout, stderr) = client(
        &place,
        &[
            "history",
            "--workspace",
            &workspace,
            "--since",
            &oldest,
            "--json",
            "--quiet",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).expect("history JSON");
    assert_eq!(doc["commits_read"], 0);
}

#[test]
fn watch_on_a_shallow_clone_records_the_error_in_status() {
    let (_origin, dir) = shallow_clone();
    let clone = dir.path().join("clone");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let (code, _, stderr) = client(&place, &["watch", &clone.to_string_lossy()]);
    assert_eq!(code, 0, "{stderr}");
    let root = clone.canonicalize().expect("canonical");
    let expected = format!(
        "This checkout is shallow, so its history before the commits it fetched is not read. Run git -C {} fetch --unshallow (or use fetch-depth: 0 in CI) to read it.",
        root.display()
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, stdout, _) = client(&place, &["status", "--json"]);
        let status: Value = serde_json::from_str(&stdout).expect("status JSON");
        let repository = &status["repositories"][0];
        let indexed = repository["indexed"]
            .as_array()
            .is_some_and(|heads| !heads.is_empty());
        if indexed && repository["last_error"] == expected.as_str() {
            break;
        }
        assert!(Instant::now() < deadline, "status never said so: {status}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A repository whose one agent is renamed halfway: `support` then
/// `helpdesk`, twelve helper agents beside it.
fn renamed_agent_repo() -> Repo {
    let repo = Repo::new();
    let helpers: String = (1..=12)
        .map(|i| format!("helper{i:02} = Agent(name=\"helper{i:02}\")\n"))
        .collect();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/agent.py", Some(AGENT)),
            (
                "app/helpers.py",
                Some(&format!("from agents import Agent\n\n{helpers}")),
            ),
        ],
        "support",
    );
    repo.commit(
        &[("app/agent.py", Some(&AGENT.replace("support", "helpdesk")))],
        "rename the agent",
    );
    repo
}

fn history(place: &Place, repo: &Repo, extra: &[&str]) -> (i32, String, String) {
    let workspace = repo.path().to_string_lossy().into_owned();
    let mut args = vec!["history", "--workspace", workspace.as_str(), "--quiet"];
    args.extend_from_slice(extra);
    client(place, &args)
}

#[test]
fn history_of_a_scope_absent_at_until_is_a_usage_error() {
    let repo = renamed_agent_repo();
    let head = repo.git(&["rev-parse", "HEAD"]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let (code, stdout, stderr) = history(&place, &repo, &["--scope", "services"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stdout, "");
    assert_eq!(
        stderr.trim_end(),
        format!("Error: Invalid value for --scope: 'services' does not exist at HEAD ({}), so it has no history to read. Pass a directory that exists there, or an --until commit that has it.", &head[..12])
    );
    let (code, _, stderr) = history(&place, &repo, &["--scope", "app/agent.py"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--scope: 'app/agent.py' is not a directory at HEAD"),
        "{stderr}"
    );
    // The scope that exists reads.
    let (code, _, stderr) = history(&place, &repo, &["--scope", "app", "--json"]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn history_for_an_agent_no_commit_had_is_a_usage_error() {
    let repo = renamed_agent_repo();
    let place = Place::new();
    let _daemon = place.start_daemon();
    let (code, stdout, stderr) = history(&place, &repo, &["--agent", "suport"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stdout, "");
    assert_eq!(
        stderr.trim_end(),
        "Error: Invalid value for --agent: no agent named 'suport' in the history of scope . (2 commits read); agents seen: helpdesk, helper01, helper02, helper03, helper04, helper05, helper06, helper07, helper08, helper09, and 4 more."
    );
    // An agent some commit had, though the newest no longer does, reads.
    let (code, stdout, stderr) = history(&place, &repo, &["--agent", "support", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).expect("history JSON");
    let subjects: Vec<&str> = doc["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .filter_map(|c| c["subject"].as_str())
        .collect();
    assert_eq!(subjects, vec!["rename the agent", "support"]);
    // With no agent at all in the history, the answer says so.
    let empty = Repo::new();
    empty.commit(&[("app/util.py", Some("x = 1\n"))], "no agents");
    let (code, _, stderr) = history(&place, &empty, &["--agent", "support"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "Error: Invalid value for --agent: no agent named 'support' in the history of scope . (1 commit read); no commit read builds an agent."
    );
}
