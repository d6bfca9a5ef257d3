//! The composite GitHub Action (`action.yml`, its steps in
//! `scripts/action/shipgate_action.py`) run as a pull request's job would
//! run it, by the runner emulator `tests/python/action_runner.py`: the
//! runner's environment and file commands, `${{ }}` expressions and `if:`
//! conditions, `run:` steps with bash, and a stub of GitHub's issue-comment
//! API on 127.0.0.1. The comparisons are real: the real client (first on
//! PATH, so the install step finds it and installs nothing, unless given a
//! wheel) and its daemon, on a private store (`SHIPGATE_DATA_DIR`), over a
//! shallow clone of a fixture repository whose `origin` is a local bare
//! repository.
//!
//! The runs check: the base fetched and deepened to a merge base; the
//! outputs; the markdown in the job summary; one comment posted, then
//! edited in place (found again past a page of others); the SARIF upload's
//! `if:`; a tripped `fail-on` or policy file failing the job with one
//! `::error::` per finding; the `wheel` input's install.
//!
//! Needs a Python with PyYAML: `SHIPGATE_TEST_PYTHON` names it
//! (`scripts/test.sh` makes a venv and sets it). Unset, or without PyYAML,
//! the tests say why they are skipped and pass, so `cargo test` runs anywhere.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use support::Repo;

/// The variable naming the Python to run the emulator with.
const PYTHON_ENV: &str = "SHIPGATE_TEST_PYTHON";

/// The hidden first line of the action's one pull-request comment.
const MARKER: &str = "<!-- shipgate-comment -->";

/// The repository and pull request the emulated event names.
const REPOSITORY: &str = "octo-org/octo-repo";
const PR_NUMBER: &str = "7";

/// Comments already on the pull request, by someone else: more than a
/// page of 100, so finding the action's comment again takes the `Link`.
const SEEDED_COMMENTS: &str = "105";

/// The Python to run the emulator with, or why the test is skipped.
fn python() -> Result<PathBuf, String> {
    let python = std::env::var_os(PYTHON_ENV)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| {
            format!("{PYTHON_ENV} is not set (a Python with PyYAML; scripts/test.sh sets it)")
        })?;
    let has_yaml = Command::new(&python)
        .args(["-c", "import yaml"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_yaml {
        return Err(format!(
            "{PYTHON_ENV}={} has no PyYAML (scripts/test.sh installs it)",
            Path::new(&python).display()
        ));
    }
    Ok(PathBuf::from(python))
}

/// The fixture: `origin` (a bare repository) whose main holds a one-tool
/// agent and then an unrelated commit, and whose `feature` branch (from
/// the first commit) adds a `refund` tool; the workspace is a clone of
/// `feature` at depth 1, as actions/checkout leaves it.
struct Fixture {
    _origin: tempfile::TempDir,
    workspace: tempfile::TempDir,
    /// The store, the stub API's state, the reports and the runner's scratch.
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let origin = tempfile::tempdir().expect("temp dir");
        git(origin.path(), &["init", "-q", "--bare", "-b", "main"]);
        let source = Repo::new();
        source.commit(
            &[
                ("app/__init__.py", Some("")),
                ("app/agent.py", Some(support::SUPPORT_WITH_LOOKUP)),
            ],
            "a support agent with a lookup tool",
        );
        source.git(&["checkout", "-q", "-b", "feature"]);
        source.commit(
            &[("app/agent.py", Some(support::SUPPORT_WITH_REFUND))],
            "a refund tool",
        );
        source.git(&["checkout", "-q", "main"]);
        source.commit(&[("README.md", Some("The shop.\n"))], "a readme");
        let origin_path = origin.path().to_string_lossy().into_owned();
        source.git(&["remote", "add", "origin", &origin_path]);
        source.git(&["push", "-q", "origin", "main", "feature"]);

        let workspace = tempfile::tempdir().expect("temp dir");
        let url = format!("file://{origin_path}");
        let clone = workspace.path().to_string_lossy().into_owned();
        let parent = workspace.path().parent().expect("parent");
        git(
            parent,
            &[
                "clone",
                "-q",
                "--depth",
                "1",
                "--branch",
                "feature",
                "--single-branch",
                &url,
                &clone,
            ],
        );
        Fixture {
            _origin: origin,
            workspace,
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn api_state(&self) -> PathBuf {
        self.dir.path().join("api-state.json")
    }

    /// The stub API's comments on the pull request, after the runs so far.
    fn comments(&self) -> Vec<Value> {
        let state: Value =
            serde_json::from_slice(&std::fs::read(self.api_state()).expect("the API state"))
                .expect("the API state parses");
        state["comments"][PR_NUMBER]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// Runs the action once through the emulator with these inputs.
    fn run(&self, python: &Path, name: &str, inputs: &[(&str, &str)]) -> Run {
        let (_, client) = support::binaries();
        let client_dir = client.parent().expect("the client's directory");
        let path = std::env::join_paths(std::iter::once(client_dir.to_path_buf()).chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ))
        .expect("PATH");
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let report = self.dir.path().join(format!("{name}.json"));
        let mut command = Command::new(python);
        command
            .arg(root.join("tests/python/action_runner.py"))
            .arg("--action-dir")
            .arg(root)
            .arg("--workspace")
            .arg(self.workspace.path())
            .args(["--repository", REPOSITORY, "--pr-number", PR_NUMBER])
            .args(["--base-ref", "main", "--head-ref", "feature"])
            .args(["--token", "ghs_test_token"])
            .arg("--api-state")
            .arg(self.api_state())
            .args(["--api-seed-comments", SEEDED_COMMENTS])
            .arg("--temp")
            .arg(self.dir.path().join(format!("{name}-runner")))
            .arg("--report")
            .arg(&report);
        for (input, value) in inputs {
            command.arg("--input").arg(format!("{input}={value}"));
        }
        let output = command
            .env("PATH", path)
            .env("SHIPGATE_DATA_DIR", self.data_dir())
            .env_remove("SHIPGATE_SOCKET")
            .env_remove("SHIPGATE_ADDR")
            .env_remove("SHIPGATE_DAEMON")
            .env_remove("AGENTS_SHIPGATE_AGENT_MODE")
            .env_remove("CLAUDECODE")
            .env_remove("CURSOR_TRACE_ID")
            .output()
            .expect("the emulator runs");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let code = output.status.code().unwrap_or(-1);
        assert_ne!(
            code, 2,
            "the emulator refused the action:\n{stdout}\n{stderr}"
        );
        let report = serde_json::from_slice(&std::fs::read(&report).unwrap_or_else(|err| {
            panic!("no report ({err}):\n{stdout}\n{stderr}");
        }))
        .expect("the report parses");
        Run {
            code,
            log: format!("{stdout}\n{stderr}"),
            report,
        }
    }
}

fn git(dir: &Path, args: &[&str]) {
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
}

/// One emulated run: the emulator's exit code, its log, its report.
struct Run {
    code: i32,
    log: String,
    report: Value,
}

impl Run {
    fn step(&self, id: &str) -> &Value {
        self.report["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .find(|s| s["id"] == id)
            .unwrap_or_else(|| panic!("no step {id}:\n{}", self.log))
    }

    fn output(&self, name: &str) -> &str {
        self.report["outputs"][name].as_str().unwrap_or_else(|| {
            panic!("no action output {name}: {}", self.report["outputs"]);
        })
    }

    /// The API requests of this run with this method.
    fn requests(&self, method: &str) -> Vec<&Value> {
        self.report["api_requests"]
            .as_array()
            .expect("api_requests")
            .iter()
            .filter(|r| r["method"] == method)
            .collect()
    }

    fn assert_green(&self) {
        assert_eq!(self.code, 0, "the job failed:\n{}", self.log);
        assert_eq!(self.report["status"], "success", "{}", self.log);
    }
}

#[test]
fn the_action_compares_summarises_comments_once_and_fails_on_a_tripped_policy() {
    let python = match python() {
        Ok(python) => python,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let fixture = Fixture::new();
    let _stop = support::StopDaemon(fixture.data_dir());
    let (_, client) = support::binaries();
    let issue_comments = format!("/repos/{REPOSITORY}/issues/{PR_NUMBER}/comments");

    // 1. Default inputs: the base is the pull request's base branch.
    let first = fixture.run(&python, "first", &[]);
    first.assert_green();
    // The client on PATH is used; nothing is installed.
    let install = first.step("install");
    assert_eq!(install["outcome"], "success", "{}", first.log);
    assert_eq!(install["outputs"]["installed"], "false", "{}", first.log);
    assert_eq!(
        install["outputs"]["client"],
        client.to_string_lossy().as_ref()
    );
    // The base was fetched, and the shallow clone deepened to a merge base.
    let fetch = first.step("fetch");
    assert_eq!(fetch["outputs"]["base"], "origin/main", "{}", first.log);
    assert!(
        fetch["output"]
            .as_str()
            .is_some_and(|o| o.contains("deepening")),
        "{}",
        first.log
    );
    // The outputs: the status, the exit code, the markdown; no SARIF.
    assert_eq!(first.output("status"), "compared", "{}", first.log);
    assert_eq!(first.output("exit-code"), "0");
    assert_eq!(first.output("sarif-file"), "");
    let markdown = std::fs::read_to_string(first.output("markdown-file")).expect("the markdown");
    assert!(markdown.contains("refund"), "{markdown}");
    // The job summary holds the markdown.
    let summary = first.report["summary"].as_str().expect("summary");
    assert!(summary.contains(markdown.trim_end()), "{summary}");
    // The SARIF upload's `if:` is false unless asked.
    let upload = first.step("upload-sarif");
    assert_eq!(upload["if_result"], false, "{upload}");
    // One comment posted, after reading both pages of the thread.
    let requests = first.report["api_requests"].as_array().expect("requests");
    assert!(
        requests.iter().all(|r| r["authorized"] == true),
        "{requests:#?}"
    );
    assert_eq!(first.requests("GET").len(), 2, "{requests:#?}");
    assert!(first.requests("PATCH").is_empty(), "{requests:#?}");
    let posts = first.requests("POST");
    assert_eq!(posts.len(), 1, "{requests:#?}");
    assert_eq!(posts[0]["path"], issue_comments.as_str());
    let body = posts[0]["body"]["body"].as_str().expect("a comment body");
    assert!(body.starts_with(MARKER), "{body}");
    assert!(body.contains(markdown.trim_end()), "{body}");
    let marked = |comments: &[Value]| -> Vec<Value> {
        comments
            .iter()
            .filter(|c| c["body"].as_str().is_some_and(|b| b.contains(MARKER)))
            .cloned()
            .collect()
    };
    let comments = fixture.comments();
    let ours = marked(&comments);
    assert_eq!(ours.len(), 1, "{ours:#?}");
    let comment_id = ours[0]["id"].as_u64().expect("the comment's id");

    // 2. Again, with SARIF: the same comment is edited, not duplicated.
    let second = fixture.run(&python, "second", &[("sarif", "true")]);
    second.assert_green();
    assert!(second.requests("POST").is_empty(), "{}", second.report);
    let patches = second.requests("PATCH");
    assert_eq!(patches.len(), 1, "{}", second.report["api_requests"]);
    assert_eq!(
        patches[0]["path"],
        format!("/repos/{REPOSITORY}/issues/comments/{comment_id}")
    );
    let body = patches[0]["body"]["body"].as_str().expect("a comment body");
    assert!(
        body.starts_with(MARKER) && body.contains("refund"),
        "{body}"
    );
    let comments = fixture.comments();
    assert_eq!(marked(&comments).len(), 1, "{comments:#?}");
    assert_eq!(comments.len(), 106, "the seeded 105 and ours");
    // The SARIF log was written, and the upload step would run with it.
    let sarif_file = second.output("sarif-file");
    assert!(!sarif_file.is_empty(), "{}", second.log);
    let log: Value = serde_json::from_str(&std::fs::read_to_string(sarif_file).expect("the log"))
        .expect("the SARIF log parses");
    assert_eq!(log["version"], "2.1.0");
    assert!(log.to_string().contains("refund"), "{log}");
    let upload = second.step("upload-sarif");
    assert_eq!(upload["if_result"], true, "{upload}");
    assert_eq!(upload["with_"]["sarif_file"], sarif_file);

    // 3. A policy that trips: the job is red, one `::error::` per row.
    let third = fixture.run(
        &python,
        "third",
        &[("fail-on", "added"), ("comment", "false")],
    );
    assert_eq!(third.code, 1, "the job passed:\n{}", third.log);
    assert_eq!(third.report["status"], "failure");
    assert_eq!(third.output("exit-code"), "3", "{}", third.log);
    assert_eq!(third.output("status"), "compared");
    let verdict = third.step("verdict");
    assert_eq!(verdict["outcome"], "failure");
    assert_eq!(verdict["exit_code"], 3);
    // One error, for the one finding (the headline and the hint are notices).
    let errors: Vec<&str> = third
        .log
        .lines()
        .filter(|l| l.starts_with("::error::"))
        .collect();
    assert_eq!(errors.len(), 1, "{}", third.log);
    assert!(
        errors[0].starts_with("::error::shipgate: policy: added:") && errors[0].contains("refund"),
        "{}",
        third.log
    );
    let annotations = third.report["annotations"].as_array().expect("annotations");
    assert!(
        annotations.iter().any(|a| a["level"] == "error"
            && a["step"] == "verdict"
            && a["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("shipgate: policy:") && m.contains("refund"))),
        "{annotations:#?}"
    );
    // comment: false asks nothing of the API; the summary names the trip.
    assert_eq!(third.step("comment")["ran"], false);
    assert!(third.report["api_requests"]
        .as_array()
        .is_some_and(Vec::is_empty));
    let summary = third.report["summary"].as_str().expect("summary");
    assert!(
        summary.contains("policy tripped") && summary.contains("refund"),
        "{summary}"
    );

    // 4. A policy this change does not trip: green.
    let fourth = fixture.run(
        &python,
        "fourth",
        &[("fail-on", "gate-loosened"), ("comment", "false")],
    );
    fourth.assert_green();
    assert_eq!(fourth.output("exit-code"), "0", "{}", fourth.log);

    // 5. A policy file (relative to working-directory), then the same with
    // the refund reviewed: red, then green.
    let policy = "[policy]\nfail-on = [\"added\"]\n";
    let policy_file = fixture.workspace.path().join("ci-policy.toml");
    std::fs::write(&policy_file, policy).expect("write the policy");
    let inputs = [("policy", "ci-policy.toml"), ("comment", "false")];
    let fifth = fixture.run(&python, "fifth", &inputs);
    assert_eq!(fifth.code, 1, "the job passed:\n{}", fifth.log);
    assert_eq!(fifth.output("exit-code"), "3", "{}", fifth.log);
    assert!(
        fifth
            .log
            .lines()
            .any(|l| l.starts_with("::error::shipgate: policy:") && l.contains("refund")),
        "{}",
        fifth.log
    );
    let reviewed = format!(
        "{policy}[[policy.allow]]\nagent = \"support\"\ntool = \"refund\"\n\
         conditions = [\"added\"]\nreason = \"reviewed in #7\"\n"
    );
    std::fs::write(&policy_file, reviewed).expect("write the policy");
    let sixth = fixture.run(&python, "sixth", &inputs);
    sixth.assert_green();
    assert_eq!(sixth.output("exit-code"), "0", "{}", sixth.log);
    assert!(!sixth.log.contains("::error::"), "{}", sixth.log);
}

/// The `wheel` input installs even with a client on PATH: into a venv in
/// the runner's scratch, whose bin joins the job's PATH, and the diff runs
/// the installed client (the real wheel, `scripts/build-wheel.sh --check`,
/// whose client starts the daemon installed beside it).
#[test]
fn the_wheel_input_installs_the_client_into_a_venv_on_the_jobs_path() {
    let python = match python() {
        Ok(python) => python,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let fixture = Fixture::new();
    let _stop = support::StopDaemon(fixture.data_dir());

    let wheel_dir = fixture.dir.path().join("wheel");
    let built = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/build-wheel.sh"))
        .arg("--check")
        .arg("--out")
        .arg(&wheel_dir)
        .output()
        .expect("the wheel builder runs");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let wheel = String::from_utf8_lossy(&built.stdout).trim().to_string();
    let run = fixture.run(&python, "run", &[("wheel", &wheel), ("comment", "false")]);
    run.assert_green();
    let install = run.step("install");
    assert_eq!(install["outputs"]["installed"], "true", "{}", run.log);
    let installed = install["outputs"]["client"].as_str().expect("client");
    let runner_temp = run.report["runner_temp"].as_str().expect("runner_temp");
    assert!(
        installed.starts_with(runner_temp) && installed.ends_with("/bin/shipgate-client"),
        "{installed}"
    );
    let bin = Path::new(installed).parent().expect("bin");
    assert_eq!(install["path_added"][0], bin.to_string_lossy().as_ref());
    assert_eq!(run.step("diff")["env"]["SHIPGATE_CLIENT"], installed);
    assert_eq!(run.output("status"), "compared", "{}", run.log);
}
