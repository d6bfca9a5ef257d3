//! End to end: a history walk answers exactly what each of its steps
//! answers alone (issue 43, item 1). The walk keeps each commit's graph
//! for the next step, builds two commits' graphs at once, and keeps what
//! a module's imports resolve to across commits (`resolve/layout.rs`);
//! a step read alone, by a daemon that never saw another commit of the
//! repository, has none of that. The fixture's history is made of what
//! the kept answers depend on: files added and removed (the module
//! layout changes), imports whose targets move (a package re-export
//! added), a builder whose callers change, a namespace changed through a
//! function's parameter (the census's caller search), a framework name a
//! module of the repository re-exports (facts the graph layer rewrites),
//! a module's content changed and changed back, a tree seen again and an
//! empty commit (one graph several steps ask for).

mod support;

use serde_json::Value;
use support::{Place, Repo};

const TOOLS: &str = "from agents import function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n@function_tool\ndef refund(q: str) -> str:\n    return q\n";

const TOOLS_EDITED: &str = "from agents import function_tool\nimport requests\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return requests.get('https://api.example.com/' + q).text\n\n\n@function_tool\ndef refund(q: str) -> str:\n    return q\n";

const AGENT: &str =
    "from agents import Agent\nfrom .tools import lookup\n\nsupport = Agent(name=\"support\", tools=[lookup])\n";

const BUILDER: &str = "from agents import Agent\n\n\ndef make(name, tools):\n    return Agent(name=name, tools=tools)\n";

const USE_BUILDER: &str =
    "from .build import make\nfrom .tools import refund\n\nbilling = make(\"billing\", [refund])\n";

const MORE_CALLERS: &str =
    "from .build import make\nfrom .tools import lookup\n\ntriage = make(\"triage\", [lookup])\n";

/// The fixture: each commit changes what a kept answer depends on.
fn repository() -> Repo {
    let repo = Repo::new();
    repo.commit(
        &[
            ("app/__init__.py", Some("")),
            ("app/tools.py", Some(TOOLS)),
            ("app/agent.py", Some(AGENT)),
        ],
        "start",
    );
    repo.commit(
        &[
            ("app/build.py", Some(BUILDER)),
            ("app/use.py", Some(USE_BUILDER)),
        ],
        "a builder and its caller",
    );
    repo.commit(
        &[("app/more.py", Some(MORE_CALLERS))],
        "another caller, in a new file",
    );
    repo.commit(
        &[
            ("app/__init__.py", Some("from .tools import refund as refund_tool\n")),
            (
                "app/agent.py",
                Some("from agents import Agent\nfrom .tools import lookup\nfrom . import refund_tool\n\nsupport = Agent(name=\"support\", tools=[lookup, refund_tool])\n"),
            ),
        ],
        "a tool through the package",
    );
    repo.commit(
        &[
            (
                "app/plugins.py",
                Some("def install(module):\n    vars(module).update(extra=1)\n"),
            ),
            (
                "app/setup.py",
                Some("from . import tools\nfrom .plugins import install\n\ninstall(tools)\n"),
            ),
        ],
        "a namespace changed through a parameter",
    );
    repo.commit(
        &[
            ("app/lib.py", Some("from agents import Agent, function_tool\n")),
            (
                "app/second.py",
                Some("from .lib import Agent\nfrom .tools import refund\n\nsecond = Agent(name=\"second\", tools=[refund])\n"),
            ),
        ],
        "a framework name re-exported",
    );
    repo.commit(&[("app/tools.py", Some(TOOLS_EDITED))], "lookup calls out");
    repo.commit(&[("app/more.py", None)], "drop a caller's file");
    repo.commit(&[("app/tools.py", Some(TOOLS))], "lookup back as it was");
    repo.commit(&[("README.md", Some("docs\n"))], "docs");
    // A tree seen again two commits later, and a commit with its parent's
    // tree: one graph asked for by several steps.
    repo.commit(&[("README.md", Some("more docs\n"))], "more docs");
    repo.commit(&[("README.md", Some("docs\n"))], "docs as they were");
    repo.git(&["commit", "-q", "--allow-empty", "-m", "empty"]);
    repo.commit(
        &[
            ("app/more.py", Some(MORE_CALLERS)),
            ("app/plugins.py", None),
            ("app/setup.py", None),
        ],
        "the caller back, the plugin gone",
    );
    repo.commit(
        &[("app/use.py", Some("from .build import make\nfrom .tools import refund, lookup\n\nbilling = make(\"billing\", [refund, lookup])\n"))],
        "billing gains lookup",
    );
    repo
}

fn history(place: &Place, repo: &Repo, extra: &[&str]) -> Value {
    place.history_json(repo, extra)
}

/// The entry the answer lists for `commit`, if any.
fn entry_of(doc: &Value, commit: &str) -> Option<Value> {
    doc["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .find(|entry| entry["commit"] == commit)
        .cloned()
}

#[test]
fn a_walk_answers_what_each_step_answers_alone() {
    let repo = repository();
    let chain: Vec<String> = repo
        .git(&["rev-list", "--first-parent", "HEAD"])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(chain.len(), 15);
    let walked = {
        let place = Place::new();
        let _daemon = place.start_daemon();
        history(&place, &repo, &[])
    };
    assert_eq!(walked["commits_read"], 15);
    let mut listed = 0;
    for (index, commit) in chain.iter().enumerate() {
        // A daemon that never read another commit of the repository.
        let place = Place::new();
        let _daemon = place.start_daemon();
        let mut range = vec!["--until", commit.as_str()];
        if let Some(parent) = chain.get(index + 1) {
            range.extend(["--since", parent.as_str()]);
        }
        let alone = history(&place, &repo, &range);
        assert_eq!(alone["commits_read"], 1);
        let step = entry_of(&alone, commit);
        assert_eq!(
            entry_of(&walked, commit),
            step,
            "commit {index} (newest first) answers alike walked and alone"
        );
        listed += usize::from(step.is_some());
    }
    // Most commits change a binding or a reach: the comparison is not of
    // empty answers.
    assert!(listed >= 6, "only {listed} commits listed");
}
