//! End to end (issue 43, item 2): a watched repository's history is
//! indexed in the background and stays out of the way. While another
//! request is served, `status` says the indexing is paused and its count
//! of commits read does not move on (but for the step under way when the
//! request came); once the request is answered it resumes and finishes;
//! and a `history` of the indexed branch is answered from the store,
//! every step a hit.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{Place, Repo};

const MODULES: usize = 40;

/// A module holding one function tool, its body a function of `version`.
fn tool_module(index: usize, version: usize) -> String {
    format!(
        "from agents import function_tool\n\n\n@function_tool\ndef tool_{index}(q: str) -> str:\n    return q + \"{version}\"\n"
    )
}

/// An agent binding every module's tool.
fn agent_module() -> String {
    let mut source = String::from("from agents import Agent\n");
    for index in 0..MODULES {
        source.push_str(&format!("from .m{index} import tool_{index}\n"));
    }
    let tools: Vec<String> = (0..MODULES).map(|i| format!("tool_{i}")).collect();
    source.push_str(&format!(
        "\nsupport = Agent(name=\"support\", tools=[{}])\n",
        tools.join(", ")
    ));
    source
}

/// A repository of `commits` commits on `main`, each editing one tool
/// module, written with `git fast-import` (thousands of `git commit`s
/// would take longer than the test).
fn long_history(commits: usize) -> Repo {
    let repo = Repo::new();
    let mut script = String::new();
    let data =
        |path: &str, text: &str| format!("M 100644 inline {path}\ndata {}\n{text}\n", text.len());
    for commit in 0..commits {
        script.push_str("commit refs/heads/main\n");
        script.push_str(&format!(
            "committer T <t@example.com> {} +0000\n",
            1_700_000_000 + commit
        ));
        let message = format!("edit {commit}");
        script.push_str(&format!("data {}\n{message}\n", message.len()));
        if commit == 0 {
            script.push_str(&data("app/__init__.py", ""));
            script.push_str(&data("app/agent.py", &agent_module()));
            for index in 0..MODULES {
                script.push_str(&data(&format!("app/m{index}.py"), &tool_module(index, 0)));
            }
        } else {
            let index = commit % MODULES;
            script.push_str(&data(
                &format!("app/m{index}.py"),
                &tool_module(index, commit),
            ));
        }
        script.push('\n');
    }
    let mut import = Command::new("git")
        .args(["fast-import", "--quiet"])
        .current_dir(repo.path())
        .stdin(Stdio::piped())
        .spawn()
        .expect("git fast-import");
    import
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("the import script");
    assert!(import.wait().expect("fast-import").success());
    repo.git(&["reset", "-q", "--hard", "main"]);
    repo
}

fn status(place: &Place) -> serde_json::Value {
    let output = place.client(&["status", "--json"]);
    serde_json::from_slice(&output.stdout).unwrap_or_default()
}

#[test]
fn background_history_pauses_while_a_request_is_served_then_answers_from_the_store() {
    const COMMITS: usize = 600;
    let watched = long_history(COMMITS);
    let asked = long_history(COMMITS);
    let place = Place::new();
    let _daemon = place.start_daemon();
    let output = place.client(&["watch", &watched.path().to_string_lossy()]);
    assert!(output.status.success());
    // The watched branch's history is being indexed.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let now = status(&place);
        if now["repositories"][0]["progress"]["commits_done"].as_u64() > Some(0) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the history is never indexed: {now}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // A long request meanwhile: a cold history of another repository.
    let workspace = asked.path().to_string_lossy().into_owned();
    let mut request = place.client_command();
    request.args(["history", "--workspace", &workspace, "--json", "--quiet"]);
    let request = request
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the history request");
    let mut paused_counts = Vec::new();
    let mut request = request;
    loop {
        if request.try_wait().expect("the request").is_some() {
            break;
        }
        let now = status(&place);
        let progress = &now["repositories"][0]["progress"];
        if progress["paused"] == true {
            paused_counts.push(progress["commits_done"].as_u64().unwrap_or(0));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        paused_counts.len() >= 3,
        "the indexing was seen paused {} times while the request ran",
        paused_counts.len()
    );
    let first = paused_counts[0];
    let last = paused_counts[paused_counts.len() - 1];
    assert!(
        last <= first + 1,
        "the indexing read commits while paused: {paused_counts:?}"
    );
    // It resumes and finishes.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let now = status(&place);
        if now["repositories"][0]["history_commits"] == COMMITS as u64 {
            break;
        }
        assert!(Instant::now() < deadline, "the indexing never ends: {now}");
        std::thread::sleep(Duration::from_millis(100));
    }
    // The indexed branch's history is answered from the store.
    let (hits_before, misses_before) = place.counters("history");
    let doc = place.history_json(&watched, &[]);
    assert_eq!(doc["commits_read"], COMMITS as u64);
    let (hits_after, misses_after) = place.counters("history");
    assert_eq!(hits_after - hits_before, COMMITS as u64);
    assert_eq!(misses_after, misses_before);
}
