//! End to end: hostile repositories never crash, hang or fool the daemon
//! (issue 16). Every hostile input is generated here, never committed.
//! Nesting past the bound is named with its line; capability lists past
//! the modelled bound are named as limits, never cut silently; a daemon
//! that served a hostile repository keeps serving.

mod support;

use serde_json::Value;
use support::{limits, row, rows, Place, Repo};

const AGENT: &str = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\nsupport = Agent(name=\"support\", tools=[lookup])\n";

/// The shapes of nesting that overflowed the stack, `levels` deep.
fn deep_shapes(levels: usize) -> Vec<(&'static str, String)> {
    vec![
        (
            "parens",
            format!("x = {}1{}\n", "(".repeat(levels), ")".repeat(levels)),
        ),
        (
            "lists",
            format!("x = {}{}\n", "[".repeat(levels), "]".repeat(levels)),
        ),
        ("sum", format!("x = a{}\n", "+a".repeat(levels))),
        (
            "calls",
            format!("x = {}1{}\n", "f(".repeat(levels), ")".repeat(levels)),
        ),
        ("attributes", format!("x = a{}\n", ".b".repeat(levels))),
        ("negations", format!("x = {}a\n", "-".repeat(levels))),
    ]
}

fn two_commits(head_files: &[(String, String)]) -> Repo {
    let repo = Repo::new();
    repo.commit(
        &[("app/__init__.py", Some("")), ("app/agent.py", Some(AGENT))],
        "base",
    );
    let files: Vec<(&str, Option<&str>)> = head_files
        .iter()
        .map(|(p, c)| (p.as_str(), Some(c.as_str())))
        .collect();
    repo.commit(&files, "head");
    repo
}

const RANGE: [&str; 6] = ["--base", "HEAD~1", "--head", "HEAD", "--scope", "app"];

#[test]
fn deeply_nested_files_are_named_limits_and_the_daemon_keeps_serving() {
    // 5,000 levels of each shape, in one module each; before the bound
    // any one of them aborted the daemon (exit 134).
    let mut files: Vec<(String, String)> = deep_shapes(5_000)
        .into_iter()
        .map(|(name, source)| {
            (
                format!("app/deep_{name}.py"),
                format!("import os\n\n{source}"),
            )
        })
        .collect();
    files.push((
        "app/deep_sum_long.py".into(),
        format!("x = a{}\n", "+a".repeat(20_000)),
    ));
    let repo = two_commits(&files);
    let place = Place::new();
    let daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &RANGE);
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(rows(&doc), vec![]);
    let mut expected: Vec<String> = [
        "attributes",
        "calls",
        "lists",
        "negations",
        "parens",
        "sum",
    ]
    .iter()
    .map(|name| {
        format!("Python input is nested deeper than 1,000 levels at deep_{name}.py:3; it is not read")
    })
    .collect();
    expected.push(
        "Python input is nested deeper than 1,000 levels at deep_sum_long.py:1; it is not read"
            .into(),
    );
    assert_eq!(limits(&doc, "head"), expected);
    // The same daemon answers the next request.
    let status = place.client(&["status", "--json"]);
    assert!(status.status.success());
    daemon.stop();
}

#[test]
fn nesting_below_the_bound_is_read_as_usual() {
    // 900 levels of every shape inside a tool's body: parsed, digested and
    // read on the engine's fixed stack; the tool is an ordinary row.
    let shapes = deep_shapes(900);
    let mut agent = String::from("from agents import Agent, function_tool\n\n\n");
    for (name, source) in &shapes {
        agent.push_str(&format!(
            "@function_tool\ndef t_{name}() -> int:\n    {source}    return 1\n\n\n"
        ));
    }
    let names: Vec<String> = shapes.iter().map(|(n, _)| format!("t_{n}")).collect();
    agent.push_str(&format!(
        "support = Agent(name=\"support\", tools=[lookup, {}])\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n",
        names.join(", ")
    ));
    let repo = two_commits(&[("app/agent.py".into(), agent)]);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let doc = place.diff_json(&repo, &RANGE);
    let mut expected: Vec<_> = names.iter().map(|n| row("support", n, "added")).collect();
    expected.sort();
    let mut got = rows(&doc);
    got.retain(|(_, tool, _)| tool != "lookup");
    got.sort();
    assert_eq!(got, expected);
    assert!(
        !limits(&doc, "head")
            .iter()
            .any(|l| l.contains("nested deeper")),
        "{:?}",
        limits(&doc, "head")
    );
}

#[test]
fn a_watched_repository_with_deep_files_is_indexed_without_a_crash() {
    let files: Vec<(String, String)> = deep_shapes(5_000)
        .into_iter()
        .map(|(name, source)| (format!("app/deep_{name}.py"), source))
        .collect();
    let repo = two_commits(&files);
    let place = Place::new();
    let daemon = place.start_daemon();
    let workspace = repo.path().to_string_lossy().into_owned();
    let watched = place.client(&["watch", &workspace]);
    assert!(watched.status.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let output = place.client(&["status", "--json"]);
        assert!(output.status.success(), "the daemon died while indexing");
        let status: Value = serde_json::from_slice(&output.stdout).expect("status JSON");
        let repository = &status["repositories"][0];
        if repository["indexed"]
            .as_object()
            .is_some_and(|i| !i.is_empty())
            || repository["indexed"]
                .as_array()
                .is_some_and(|i| !i.is_empty())
        {
            assert_eq!(repository["last_error"], Value::Null, "{repository}");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not indexed: {status}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    daemon.stop();
}

/// `count` plain tools, `def t0` … , and their names.
fn many_tools(count: usize) -> (String, Vec<String>) {
    let names: Vec<String> = (0..count).map(|i| format!("t{i}")).collect();
    let defs: String = names
        .iter()
        .map(|n| format!("@function_tool\ndef {n}() -> str:\n    return \"{n}\"\n\n\n"))
        .collect();
    (defs, names)
}

const SHELL: &str = "@function_tool\ndef run_shell(cmd: str) -> str:\n    import subprocess\n    return subprocess.run(cmd, shell=True).stdout\n\n\n";

#[test]
fn a_tools_list_past_the_bound_is_a_named_limit_never_cut() {
    // The shell tool is the 1,001st member: before, the answer was
    // `compared` with no row.
    let (defs, names) = many_tools(1_000);
    let head_list = format!("[{}, run_shell]", names.join(", "));
    let base_list = format!("[{}]", names.join(", "));
    let module = |list: &str, shell: bool| {
        format!(
            "from agents import Agent, function_tool\n\n\n{defs}{}support = Agent(name=\"support\", tools={list})\n",
            if shell { SHELL } else { "" }
        )
    };
    let bound = |list: &str, shell: bool| {
        format!(
            "from agents import Agent, function_tool\n\n\n{defs}{}TOOLS = {list}\nsupport = Agent(name=\"support\", tools=TOOLS)\n",
            if shell { SHELL } else { "" }
        )
    };
    for (name, base, head, line) in [
        (
            "literal",
            module(&base_list, false),
            module(&head_list, true),
            5010,
        ),
        (
            "name",
            bound(&base_list, false),
            bound(&head_list, true),
            5011,
        ),
    ] {
        let repo = Repo::new();
        repo.commit(
            &[("app/__init__.py", Some("")), ("app/agent.py", Some(&base))],
            "base",
        );
        repo.commit(&[("app/agent.py", Some(&head))], "head");
        let place = Place::new();
        let _daemon = place.start_daemon();
        let doc = place.diff_json(&repo, &RANGE);
        assert_eq!(doc["comparison_status"], "partial", "{name}");
        assert_eq!(
            limits(&doc, "head"),
            vec![format!("OpenAI Agents SDK agent 'support' at agent.py:{line} has a tools list it reads only in part; its binding graph is incomplete. Not read: more than 1,000 members (agent.py:{line}).")],
            "{name}"
        );
    }
}

#[test]
fn handoffs_mcp_servers_and_sub_agents_past_the_bound_are_named_limits() {
    let agents: String = (0..1_001)
        .map(|i| format!("a{i} = Agent(name=\"a{i}\")\n"))
        .collect();
    let names: Vec<String> = (0..1_001).map(|i| format!("a{i}")).collect();
    let sdk = format!(
        "from agents import Agent\n\n{agents}\nsupport = Agent(name=\"support\", handoffs=[{}])\n",
        names.join(", ")
    );
    let servers: String = (0..1_001)
        .map(|i| format!("s{i} = MCPServerStdio(params={{\"command\": \"s{i}\"}})\n"))
        .collect();
    let server_names: Vec<String> = (0..1_001).map(|i| format!("s{i}")).collect();
    let mcp = format!(
        "from agents import Agent\nfrom agents.mcp import MCPServerStdio\n\n{servers}\nsupport = Agent(name=\"support\", mcp_servers=[{}])\n",
        server_names.join(", ")
    );
    let adk_agents: String = (0..1_001)
        .map(|i| format!("a{i} = Agent(name=\"a{i}\", model=\"m\")\n"))
        .collect();
    let adk = format!(
        "from google.adk.agents import Agent\n\n{adk_agents}\nroot_agent = Agent(name=\"support\", model=\"m\", sub_agents=[{}])\n",
        names.join(", ")
    );
    let sdk_limit = |field: &str, line: u32| {
        format!("OpenAI Agents SDK agent 'support' at agent.py:{line} has a {field} list it reads only in part; its binding graph is incomplete. Not read: more than 1,000 members (agent.py:{line}).")
    };
    for (name, head, expected) in [
        ("handoffs", sdk, sdk_limit("handoffs", 1005)),
        ("mcp_servers", mcp, sdk_limit("mcp_servers", 1006)),
        (
            "sub_agents",
            adk,
            "Google ADK agent 'support' has a sub_agents list it reads only in part. Not read: more than 1,000 members (agent.py:1005).".to_string(),
        ),
    ] {
        let repo = Repo::new();
        repo.commit(
            &[("app/__init__.py", Some("")), ("app/agent.py", Some(AGENT))],
            "base",
        );
        repo.commit(&[("app/agent.py", Some(&head))], "head");
        let place = Place::new();
        let _daemon = place.start_daemon();
        let doc = place.diff_json(&repo, &RANGE);
        assert_eq!(doc["comparison_status"], "partial", "{name}");
        assert_eq!(limits(&doc, "head"), vec![expected], "{name}");
    }
}
