//! Issue 41, item 5: an application moved and edited in one pull request
//! keeps each agent's identity. Git's rename detection (similarity 50 % or
//! more, the default) pairs the moved files; the rows are the real binding
//! changes, and `source_correspondence` records each pair with its
//! similarity, the figure `git diff -M` prints.

mod support;

use serde_json::Value;
use support::{rows, Place, Repo};

const TOOLS: &str = "from agents import function_tool\n\n\n@function_tool\ndef lookup(order_id: str) -> str:\n    \"\"\"Look an order up.\"\"\"\n    return order_id\n\n\n@function_tool\ndef refund(order_id: str) -> str:\n    \"\"\"Refund an order.\"\"\"\n    return order_id\n\n\n@function_tool\ndef cancel(order_id: str) -> str:\n    \"\"\"Cancel an order.\"\"\"\n    return order_id\n";

fn agent(package: &str, tools: &str) -> String {
    format!("from agents import Agent\n\nfrom {package}.tools import {tools}\n\nsupport = Agent(\n    name=\"support\",\n    instructions=\"Help customers with their orders, politely and briefly.\",\n    tools=[{tools}],\n)\n")
}

/// Commits `base`, then on branch `head` deletes `gone` and writes `head`;
/// returns the repository and the JSON document (`extra` arguments given).
fn change(
    base: &[(&str, &str)],
    gone: &[&str],
    head: &[(&str, &str)],
    extra: &[&str],
) -> (Repo, Value) {
    let repo = Repo::new();
    let files: Vec<(&str, Option<&str>)> = base.iter().map(|(p, c)| (*p, Some(*c))).collect();
    repo.commit(&files, "base");
    repo.git(&["checkout", "-q", "-b", "head"]);
    let files: Vec<(&str, Option<&str>)> = gone
        .iter()
        .map(|p| (*p, None))
        .chain(head.iter().map(|(p, c)| (*p, Some(*c))))
        .collect();
    repo.commit(&files, "head");
    let place = Place::new();
    let _daemon = place.start_daemon();
    let mut args = vec!["--base", "main", "--head", "head"];
    args.extend_from_slice(extra);
    let doc = place.diff_json(&repo, &args);
    (repo, doc)
}

/// `git diff -M --name-status`'s renames: `(similarity, from, to)`.
fn git_renames(repo: &Repo) -> Vec<(u8, String, String)> {
    repo.git(&["diff", "-M", "--name-status", "main", "head"])
        .lines()
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let status = fields.next()?.strip_prefix('R')?;
            Some((
                status.parse().ok()?,
                fields.next()?.to_string(),
                fields.next()?.to_string(),
            ))
        })
        .collect()
}

fn correspondence(doc: &Value) -> Vec<(String, String, String, Option<u64>)> {
    doc["source_correspondence"]
        .as_array()
        .expect("source_correspondence")
        .iter()
        .map(|entry| {
            (
                entry["base_source"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                entry["head_source"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                entry["basis"].as_str().unwrap_or_default().to_string(),
                entry["similarity_percent"].as_u64(),
            )
        })
        .collect()
}

/// The package moves from `app/` to `orders/` and every file is edited
/// (the package docstring beyond recognition, a tool's docstring, the
/// agent gains `cancel`): no file is an identical blob, yet the derived
/// comparison is one relocation, and the only row is the real change.
#[test]
fn a_package_moved_and_edited_keeps_its_agents() {
    let (repo, doc) = change(
        &[
            ("app/__init__.py", "\"\"\"Orders app.\"\"\"\n"),
            ("app/agent.py", &agent("app", "lookup, refund")),
            ("app/tools.py", TOOLS),
        ],
        &["app/__init__.py", "app/agent.py", "app/tools.py"],
        &[
            ("orders/__init__.py", "\"\"\"Orders app, moved.\"\"\"\n"),
            (
                "orders/agent.py",
                &agent("orders", "cancel, lookup, refund"),
            ),
            (
                "orders/tools.py",
                &TOOLS.replace("Refund an order.", "Refund an order in full."),
            ),
        ],
        &[],
    );
    assert_eq!(doc["comparison_status"], "compared");
    support::schema::assert_valid(&doc);
    assert_eq!(
        doc["scope_selection"]["relations"][0]["base_scope"], "app",
        "{:#}",
        doc["scope_selection"]
    );
    assert_eq!(
        rows(&doc),
        vec![(
            "support".to_string(),
            "cancel".to_string(),
            "added".to_string()
        )]
    );
    // The pairs and their figures are git's own.
    assert_eq!(
        git_renames(&repo),
        vec![
            (62, "app/agent.py".into(), "orders/agent.py".into()),
            (89, "app/tools.py".into(), "orders/tools.py".into()),
        ]
    );
    // Scope-relative, as the reference spells every path of one comparison.
    assert_eq!(
        correspondence(&doc),
        vec![
            (
                "agent.py".into(),
                "agent.py".into(),
                "git_rename_similar_blob".into(),
                Some(62)
            ),
            (
                "tools.py".into(),
                "tools.py".into(),
                "git_rename_similar_blob".into(),
                Some(89)
            ),
        ]
    );
}

/// Within one package: the agent's module renamed and edited keeps its
/// agent when git pairs the two files, and is two files — the agent
/// removed from one, added to the other — when it does not (below 50 %).
#[test]
fn a_module_renamed_and_edited_pairs_only_above_the_threshold() {
    let original = agent("app", "lookup, refund");
    let base = [
        ("app/__init__.py", ""),
        ("app/agent.py", original.as_str()),
        ("app/tools.py", TOOLS),
    ];
    let edited = agent("app", "cancel, lookup, refund");
    let (repo, doc) = change(
        &base,
        &["app/agent.py"],
        &[("app/support_agent.py", &edited)],
        &["--scope", "app"],
    );
    assert_eq!(git_renames(&repo).len(), 1);
    assert_eq!(
        rows(&doc),
        vec![(
            "support".to_string(),
            "cancel".to_string(),
            "added".to_string()
        )]
    );
    assert_eq!(
        correspondence(&doc),
        vec![(
            "agent.py".into(),
            "support_agent.py".into(),
            "git_rename_similar_blob".into(),
            Some(git_renames(&repo)[0].0.into())
        )]
    );

    // Rewritten beyond git's threshold: not a rename, so not one agent's
    // file. Every row is the real difference between the two files.
    let rewritten = "from agents import Agent\nfrom app import tools as t\n\n# Support, rewritten.\nsupport = Agent(name=\"support\", instructions=\"Help.\", tools=[t.cancel, t.lookup, t.refund])\n";
    let (repo, doc) = change(
        &base,
        &["app/agent.py"],
        &[("app/support_agent.py", rewritten)],
        &["--scope", "app"],
    );
    assert!(git_renames(&repo).is_empty());
    assert!(correspondence(&doc).is_empty());
    let mut found = rows(&doc);
    found.sort();
    assert_eq!(
        found,
        vec![
            ("support".into(), "cancel".into(), "added".into()),
            ("support".into(), "lookup".into(), "added".into()),
            ("support".into(), "lookup".into(), "removed".into()),
            ("support".into(), "refund".into(), "added".into()),
            ("support".into(), "refund".into(), "removed".into()),
        ]
    );
}

/// An unchanged move stays the reference's exact rename, spelled as it
/// spells it (no similarity figure).
#[test]
fn an_unchanged_move_is_an_identical_blob() {
    let (_, doc) = change(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", &agent("app", "lookup")),
            ("app/tools.py", TOOLS),
        ],
        &["app/tools.py"],
        &[
            ("app/order_tools.py", TOOLS),
            (
                "app/agent.py",
                &agent("app.order_tools", "lookup")
                    .replace("app.order_tools.tools", "app.order_tools"),
            ),
        ],
        &["--scope", "app"],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert!(rows(&doc).is_empty(), "{:?}", rows(&doc));
    assert_eq!(
        correspondence(&doc),
        vec![(
            "tools.py".into(),
            "order_tools.py".into(),
            "git_rename_identical_blob".into(),
            None
        )]
    );
}

/// An edge names its target agent's file (`handoff:billing.py:billing`),
/// and a renamed file is the same file: a handoff, an agent tool or a
/// sub-agent whose target's module was renamed (identically, or edited
/// above git's threshold) is no change. The reference agrees for the
/// handoff (no row); the agent tool was a false `changed` and the handoff
/// a false `removed`/`added` pair before this rule.
#[test]
fn an_edge_to_an_agent_whose_file_moved_is_no_change() {
    let billing = "from agents import Agent\n\nbilling = Agent(name=\"billing\", instructions=\"Handle invoices.\")\n";
    let triage = |module: &str| {
        format!("from agents import Agent\n\nfrom app.{module} import billing\n\ntriage = Agent(\n    name=\"triage\",\n    instructions=\"Route.\",\n    handoffs=[billing],\n    tools=[billing.as_tool(tool_name=\"ask_billing\", tool_description=\"Ask.\")],\n)\n")
    };
    let (_, doc) = change(
        &[
            ("app/__init__.py", ""),
            ("app/billing.py", billing),
            ("app/agent.py", &triage("billing")),
        ],
        &["app/billing.py"],
        &[
            ("app/billing_agent.py", billing),
            ("app/agent.py", &triage("billing_agent")),
        ],
        &["--scope", "app"],
    );
    assert_eq!(doc["comparison_status"], "compared");
    assert!(rows(&doc).is_empty(), "{:?}", rows(&doc));

    let writer = |instruction: &str| {
        format!("from google.adk.agents import Agent\n\n\ndef word_count(text: str) -> int:\n    return len(text.split())\n\n\nwriter = Agent(\n    name=\"writer\",\n    model=\"gemini-2.0-flash\",\n    instruction=\"{instruction}\",\n    tools=[word_count],\n)\n")
    };
    let root = |module: &str| {
        format!("from google.adk.agents import Agent\nfrom google.adk.tools.agent_tool import AgentTool\n\nfrom app.{module} import writer\n\nroot_agent = Agent(\n    name=\"root\",\n    model=\"gemini-2.0-flash\",\n    instruction=\"Delegate.\",\n    sub_agents=[writer],\n    tools=[AgentTool(agent=writer)],\n)\n")
    };
    let (repo, doc) = change(
        &[
            ("app/__init__.py", ""),
            ("app/writer.py", &writer("Write.")),
            ("app/agent.py", &root("writer")),
        ],
        &["app/writer.py"],
        &[
            ("app/writer_agent.py", &writer("Write clearly.")),
            ("app/agent.py", &root("writer_agent")),
        ],
        &["--scope", "app"],
    );
    assert_eq!(git_renames(&repo).len(), 1, "git pairs the edited module");
    assert_eq!(doc["comparison_status"], "compared");
    assert!(rows(&doc).is_empty(), "{:?}", rows(&doc));
}

/// A limit the base names on the moved file is still the agent's: the
/// base's `**OPTIONS` may have bound `refund`, so the head binding it
/// outright is `not_established`, never `added` (it was a false `added`
/// for any rename, identical ones too, before the base's limits were
/// read at the head's paths).
#[test]
fn a_limit_on_a_moved_file_still_covers_its_agent() {
    let base_agent = "import os\n\nfrom agents import Agent\n\nfrom app.tools import lookup, refund\n\nOPTIONS = {\"tools\": [refund]} if os.getenv(\"REFUND\") else {}\n\nsupport = Agent(\n    name=\"support\",\n    instructions=\"Help customers with their orders, politely and briefly, and route refunds.\",\n    **OPTIONS,\n)\n";
    let head_agent = "import os\n\nfrom agents import Agent\n\nfrom app.tools import lookup, refund\n\nsupport = Agent(\n    name=\"support\",\n    instructions=\"Help customers with their orders, politely and briefly, and route refunds.\",\n    tools=[refund],\n)\n";
    let (repo, doc) = change(
        &[
            ("app/__init__.py", ""),
            ("app/tools.py", TOOLS),
            ("app/agent.py", base_agent),
        ],
        &["app/agent.py"],
        &[("app/support_agent.py", head_agent)],
        &["--scope", "app"],
    );
    assert_eq!(git_renames(&repo).len(), 1, "git pairs the edited module");
    assert_eq!(doc["comparison_status"], "partial");
    assert_eq!(
        rows(&doc),
        vec![(
            "support".to_string(),
            "refund".to_string(),
            "not_established".to_string()
        )]
    );
    assert_eq!(doc["rows"][0]["candidate_change"], "added");
}

/// An agent named by the builder that makes it (`build_triage@triage.py`:
/// its `name=` is not read) carries its file in its name; after the file
/// moves it is the same agent, as one named by a literal is: no
/// `removed` and `added` pair for its tools, its handoffs or the handoff
/// to it (found by the known-truth generator's `builder_name_rebound`).
#[test]
fn an_agent_named_by_its_builder_keeps_its_identity_when_its_file_moves() {
    let triage = "from agents import Agent, function_tool\n\nTRIAGE_NAME = \"triage\"\n\n\ndef _rename(suffix):\n    global TRIAGE_NAME\n    TRIAGE_NAME = TRIAGE_NAME + suffix\n\n\n@function_tool\ndef close_case(case: str) -> str:\n    return case\n\n\ndef build_triage():\n    return Agent(name=TRIAGE_NAME, instructions=\"Route.\", tools=[close_case])\n\n\ntriage = build_triage()\n";
    let front = |module: &str| {
        format!("from agents import Agent\n\nfrom app.{module} import triage\n\nfront = Agent(name=\"front\", instructions=\"Greet.\", handoffs=[triage])\n")
    };
    let (_, doc) = change(
        &[
            ("app/__init__.py", ""),
            ("app/triage.py", triage),
            ("app/agent.py", &front("triage")),
        ],
        &["app/triage.py"],
        &[
            ("app/triage_moved.py", triage),
            ("app/agent.py", &front("triage_moved")),
        ],
        &["--scope", "app"],
    );
    assert!(rows(&doc).is_empty(), "{:#}", doc["rows"]);
    let agents: Vec<&str> = doc["head"]["agents"]
        .as_array()
        .map(|a| a.iter().filter_map(|x| x["name"].as_str()).collect())
        .unwrap_or_default();
    assert!(
        agents.contains(&"build_triage@triage_moved.py"),
        "{agents:?}"
    );
}
