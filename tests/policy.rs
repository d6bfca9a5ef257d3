//! End to end: the CI policy (issue 45). `--fail-on` (or a policy file:
//! `--policy FILE`, else `shipgate.toml` at the base commit) exits 3 when
//! the answer holds a change of a named kind, names each on stderr, and
//! leaves stdout as it was; allow entries accept reviewed changes; the
//! policy is read from the base, so a change cannot loosen its own gate.
//! Without a policy nothing differs from the reference (exit 0, nothing on
//! stderr). The reference has no policy: these are shipgate's own.

mod support;

use support::{Daemon, Place, Repo};

const BASE_AGENT: &str = "from agents import Agent, function_tool
import requests


@function_tool
def lookup(order_id: str) -> str:
    return requests.get(f\"https://api.example.com/orders/{order_id}\").text


@function_tool(needs_approval=True)
def delete_account(user_id: str) -> str:
    return user_id


support = Agent(name=\"support\", tools=[lookup, delete_account])
";

/// The head: `lookup` now also posts (new reach), `delete_account` loses
/// its approval (a gate loosened), `refund` is added (and reaches a new
/// endpoint), and a dynamic member is a row not established (so the
/// answer is partial).
const HEAD_AGENT: &str = "from agents import Agent, function_tool
import requests
from app import plugins


@function_tool
def lookup(order_id: str) -> str:
    requests.post(\"https://api.example.com/audit\", json={\"order\": order_id})
    return requests.get(f\"https://api.example.com/orders/{order_id}\").text


@function_tool(needs_approval=False)
def delete_account(user_id: str) -> str:
    return user_id


@function_tool
def refund(order_id: str) -> str:
    return requests.post(f\"https://api.example.com/refunds/{order_id}\").text


support = Agent(name=\"support\", tools=[lookup, delete_account, refund, plugins.extra()])
";

const PLUGINS: &str = "import os\n\n\ndef extra():\n    return getattr(os, \"x\")\n";

/// Each condition's findings on the fixture, as the report's lines name
/// them (after `shipgate: policy: `).
const ADDED: &str = "added: support → refund at app/agent.py:22";
const CHANGED_DELETE: &str = "changed: support → delete_account at app/agent.py:22: gate needs_approval True → False (loosened); implementation changed";
const CHANGED_LOOKUP: &str = "changed: support → lookup at app/agent.py:22: implementation changed";
const NOT_ESTABLISHED: &str = "not_established: support → plugins.extra(): OpenAI Agents SDK agent 'support' at agent.py:22 uses a dynamic tools expression; its binding graph is incomplete.";
const GATE: &str = "gate-loosened: support → delete_account at app/agent.py:22: gate needs_approval True → False (loosened)";
const REACH_LOOKUP: &str = "new-reach: support → lookup at app/agent.py:22: reaches new POST https://api.example.com/audit";
const REACH_REFUND: &str = "new-reach: support → refund at app/agent.py:22: reaches POST https://api.example.com/refunds/{order_id}";
const PARTIAL: &str =
    "partial: the answer is partial: something it needed was not read (its limits say what)";

/// A repository whose `main~1` is the base and `main` the head; `base_files`
/// and `head_files` are committed beside the agent.
fn repository(base_files: &[(&str, Option<&str>)], head_files: &[(&str, Option<&str>)]) -> Repo {
    let repo = Repo::new();
    let mut base = vec![("app/agent.py", Some(BASE_AGENT))];
    base.extend_from_slice(base_files);
    repo.commit(&base, "base");
    let mut head = vec![
        ("app/agent.py", Some(HEAD_AGENT)),
        ("app/plugins.py", Some(PLUGINS)),
    ];
    head.extend_from_slice(head_files);
    repo.commit(&head, "head");
    repo
}

/// The report's lines without their `shipgate: policy: ` prefix.
fn report(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter_map(|line| line.strip_prefix("shipgate: policy: "))
        .collect()
}

/// The findings a failed report names, without its head and advice lines.
fn findings(stderr: &str) -> Vec<&str> {
    let lines = report(stderr);
    lines
        .iter()
        .copied()
        .skip(1)
        .filter(|line| !line.starts_with("to accept a reviewed change"))
        .collect()
}

#[test]
fn each_condition_fails_the_answer_with_exit_3_naming_what_met_it() {
    let repo = repository(&[], &[]);
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let (code, plain, stderr) = place.diff(&repo, &["--base", "HEAD~1"]);
    assert_eq!(
        (code, stderr.as_str()),
        (0, ""),
        "no policy: as the reference"
    );
    let cases: [(&str, Vec<&str>); 6] = [
        ("added", vec![ADDED]),
        ("changed", vec![CHANGED_DELETE, CHANGED_LOOKUP]),
        ("not_established", vec![NOT_ESTABLISHED]),
        ("gate-loosened", vec![GATE]),
        ("new-reach", vec![REACH_LOOKUP, REACH_REFUND]),
        ("partial", vec![PARTIAL]),
    ];
    for (condition, expected) in cases {
        let (code, stdout, stderr) =
            place.diff(&repo, &["--base", "HEAD~1", "--fail-on", condition]);
        assert_eq!(code, 3, "{condition}: {stderr}");
        assert_eq!(
            stdout, plain,
            "{condition}: stdout is the answer, unchanged"
        );
        assert_eq!(findings(&stderr), expected, "{condition}:\n{stderr}");
        assert_eq!(
            report(&stderr)[0],
            format!(
                "failed, exit 3: {} finding{} (from --fail-on; fail-on {condition})",
                expected.len(),
                if expected.len() == 1 { "" } else { "s" }
            )
        );
    }
    // Several at once, each finding in row order, the advice last.
    let (code, _, stderr) = place.diff(
        &repo,
        &[
            "--base",
            "HEAD~1",
            "--fail-on",
            "added,gate-loosened",
            "--json",
        ],
    );
    assert_eq!(code, 3);
    assert_eq!(
        report(&stderr),
        vec![
            "failed, exit 3: 2 findings (from --fail-on; fail-on added, gate-loosened)",
            GATE,
            ADDED,
            "to accept a reviewed change, add a [[policy.allow]] entry to the policy file on the base, e.g. agent = \"support\", tool = \"delete_account\", conditions = [\"gate-loosened\"], reason = \"...\"",
        ]
    );
    // A condition the answer does not meet: passed, exit 0, said.
    let (code, _, stderr) = place.diff(&repo, &["--base", "HEAD", "--fail-on", "added"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        report(&stderr),
        vec!["passed (from --fail-on; fail-on added)"]
    );
}

#[test]
fn the_base_policy_file_applies_and_the_head_cannot_loosen_it() {
    let policy = "[policy]\nfail-on = [\"added\", \"gate-loosened\"]\n\n\
                  [[policy.allow]]\nagent = \"support\"\ntool = \"delete_account\"\n\
                  conditions = [\"gate-loosened\"]\nreason = \"reviewed in #412\"\n";
    // The head adds an allow entry for refund: not read, the base's is.
    let loosened =
        format!("{policy}\n[[policy.allow]]\ntool = \"refund\"\nreason = \"self-approved\"\n");
    let repo = repository(
        &[("shipgate.toml", Some(policy))],
        &[("shipgate.toml", Some(&loosened))],
    );
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let (code, _, stderr) = place.diff(&repo, &["--base", "HEAD~1"]);
    assert_eq!(code, 3, "{stderr}");
    let base = repo.git(&["rev-parse", "HEAD~1"]);
    assert_eq!(
        report(&stderr)[..3],
        [
            format!(
                "failed, exit 3: 1 finding (from shipgate.toml at base {}; fail-on added, gate-loosened)",
                &base[..12]
            )
            .as_str(),
            ADDED,
            &format!("allowed (reviewed in #412): {GATE}"),
        ]
    );
    // --fail-on replaces the file's conditions; its allow entries hold.
    let (code, _, stderr) = place.diff(&repo, &["--base", "HEAD~1", "--fail-on", "gate-loosened"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        report(&stderr),
        vec![
            format!(
                "passed (from --fail-on, with the allow entries of shipgate.toml at base {}; fail-on gate-loosened)",
                &base[..12]
            )
            .as_str(),
            &format!("allowed (reviewed in #412): {GATE}"),
        ]
    );
    // --no-policy: as the reference, whatever the base holds.
    let (code, _, stderr) = place.diff(&repo, &["--base", "HEAD~1", "--no-policy"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn allow_entries_accept_what_they_name_and_only_that() {
    let repo = repository(&[], &[]);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("policy.toml");
    std::fs::write(
        &file,
        "[policy]\nfail-on = [\"added\", \"new-reach\", \"gate-loosened\"]\n\n\
         [[policy.allow]]\nagent = \"support\"\ntool = \"refund\"\nreason = \"refunds reviewed\"\n\n\
         [[policy.allow]]\ntool = \"lookup\"\nconditions = [\"gate-loosened\"]\n\n\
         [[policy.allow]]\nagent = \"billing\"\n",
    )
    .expect("write");
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let path = file.to_string_lossy().into_owned();
    let (code, _, stderr) = place.diff(&repo, &["--base", "HEAD~1", "--policy", &path]);
    assert_eq!(code, 3, "{stderr}");
    // refund's two findings are allowed (every condition, its reason);
    // lookup's entry covers another condition and billing is no agent
    // here, so they allow nothing.
    assert_eq!(
        findings(&stderr),
        vec![
            GATE.to_string(),
            REACH_LOOKUP.to_string(),
            format!("allowed (refunds reviewed): {ADDED}"),
            format!("allowed (refunds reviewed): {REACH_REFUND}"),
        ]
    );
    assert!(
        report(&stderr)[0].contains(&format!("(from {path}; ")),
        "{stderr}"
    );

    // Everything met allowed: passed.
    std::fs::write(
        &file,
        "[policy]\nfail-on = [\"added\"]\n[[policy.allow]]\ntool = \"refund\"\n",
    )
    .expect("write");
    let (code, _, stderr) = place.diff(&repo, &["--base", "HEAD~1", "--policy", &path]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(report(&stderr)[1], format!("allowed: {ADDED}"));
}

#[test]
fn a_policy_that_cannot_be_applied_is_refused_with_what_is_wrong() {
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("policy.toml");
    let path = file.to_string_lossy().into_owned();
    let repo = repository(&[], &[]);
    let refused = |text: &str| {
        std::fs::write(&file, text).expect("write");
        let (code, stdout, stderr) = place.diff(&repo, &["--base", "HEAD~1", "--policy", &path]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
        stderr
    };
    assert!(
        refused("[policy]\nfail-onn = [\"added\"]\n").contains(&format!(
            "The policy in {path} cannot be applied: TOML parse error"
        ))
    );
    assert!(
        refused("[policy]\nfail-on = [\"added\"]\n[[policy.allow]]\nreason = \"x\"\n")
            .contains("allow entry 1 names neither an agent nor a tool")
    );
    let (code, _, stderr) = place.diff(&repo, &["--base", "HEAD~1", "--fail-on", "widened"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("\"widened\" is not a policy condition; the conditions are added, changed, not_established, gate-loosened, new-reach, partial."),
        "{stderr}"
    );
    let (code, _, stderr) = place.diff(
        &repo,
        &["--base", "HEAD~1", "--policy", "/nonexistent/p.toml"],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the policy file /nonexistent/p.toml cannot be read"),
        "{stderr}"
    );
    // A malformed policy on the base is the gate broken: refused, named.
    let broken = repository(
        &[("shipgate.toml", Some("[policy]\nfail-on = \"added\"\n"))],
        &[],
    );
    let (code, _, stderr) = place.diff(&broken, &["--base", "HEAD~1"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("The policy in shipgate.toml at base "),
        "{stderr}"
    );
}

#[test]
fn staged_compares_what_is_staged_only() {
    let repo = Repo::new();
    repo.commit(&[("app/agent.py", Some(BASE_AGENT))], "base");
    let path = repo.path().join("app/agent.py");
    let refund = BASE_AGENT.replace(
        "support = Agent(name=\"support\", tools=[lookup, delete_account])",
        "@function_tool\ndef refund(order_id: str) -> str:\n    return order_id\n\n\nsupport = Agent(name=\"support\", tools=[lookup, delete_account, refund])",
    );
    std::fs::write(&path, &refund).expect("write");
    repo.git(&["add", "app/agent.py"]);
    // Unstaged on top: the approval dropped; not part of the staged change.
    std::fs::write(
        &path,
        refund.replace("needs_approval=True", "needs_approval=False"),
    )
    .expect("write");
    let untracked = repo.path().join("app/other.py");
    std::fs::write(
        &untracked,
        "from agents import Agent\nother = Agent(name=\"other\")\n",
    )
    .expect("write");
    let place = Place::new();
    let _daemon: Daemon = place.start_daemon();
    let (code, stdout, stderr) = place.diff(
        &repo,
        &["--staged", "--fail-on", "added,gate-loosened", "--json"],
    );
    assert_eq!(code, 3, "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(doc["head"]["requested_ref"], "staged changes");
    assert_eq!(
        support::rows(&doc),
        vec![support::row("support", "refund", "added")]
    );
    assert_eq!(
        findings(&stderr),
        vec!["added: support → refund at app/agent.py:20"]
    );
    let (_, text, _) = place.diff(&repo, &["--staged"]);
    assert!(
        text.starts_with("Application comparison: compared ("),
        "{text}"
    );
    assert!(
        text.lines()
            .next()
            .unwrap_or_default()
            .ends_with("→ staged changes)"),
        "{text}"
    );
    // Nothing staged: said so.
    repo.git(&["reset", "-q"]);
    let (code, text, _) = place.diff(&repo, &["--staged"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("nothing is staged against the base, so nothing can differ."),
        "{text}"
    );
    // With the working tree: two heads, refused.
    let (code, _, stderr) = place.diff(&repo, &["--staged", "--worktree"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn the_daemons_own_diff_applies_the_same_policy() {
    let repo = repository(&[], &[]);
    let place = Place::new();
    let (daemon, _) = support::binaries();
    let output = std::process::Command::new(daemon)
        .args([
            "diff",
            "--application",
            "--base",
            "HEAD~1",
            "--fail-on",
            "added",
            "--data-dir",
        ])
        .arg(place.data_dir())
        .arg("--workspace")
        .arg(repo.path())
        .output()
        .expect("daemon runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert_eq!(findings(&stderr), vec![ADDED]);
}
