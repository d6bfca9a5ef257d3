//! End to end: helpers that fan out (issue 16, item 5). Reading what a
//! tool reaches is near-linear in the code read: a helper is read once per
//! binding of its parameters, and a side's read has a work budget whose
//! exhaustion is a named limit on the tools concerned.
//!
//! Before the memo, the twenty-helper file below did not answer: the
//! release daemon ran out of a 12 GB address space after about six
//! minutes (ten helpers: out of it after about two).

mod support;

use serde_json::Value;
use support::{compare_branches, row, rows};

const EMPTY: &str = "from agents import Agent\n\nagent = Agent(name=\"a\", tools=[])\n";

const ENDPOINT: &str = "https://api.example.com/";

/// `n` helpers `h_i(x)`, each calling every helper — with a literal where
/// `(i + j) % 4 == 0`, else passing its own parameter on — and then
/// sending a GET to an endpoint built from its parameter; one
/// `@function_tool` calls them all, and an SDK agent binds it.
fn fanout(n: usize) -> String {
    let mut source = String::from("import requests\nfrom agents import Agent, function_tool\n\n");
    for i in 0..n {
        source.push_str(&format!("\ndef h_{i}(x):\n"));
        for j in 0..n {
            if (i + j) % 4 == 0 {
                source.push_str(&format!("    h_{j}(\"v{j}\")\n"));
            } else {
                source.push_str(&format!("    h_{j}(x)\n"));
            }
        }
        source.push_str(&format!(
            "    return requests.get(f\"{ENDPOINT}{{x}}\")\n\n"
        ));
    }
    source.push_str("\n@function_tool\ndef tool(q: str) -> str:\n");
    for j in 0..n {
        source.push_str(&format!("    h_{j}(q)\n"));
    }
    source.push_str("    return \"ok\"\n\n\nagent = Agent(name=\"a\", tools=[tool])\n");
    source
}

fn compare(head: &str) -> Value {
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[("app/agent.py", head)],
        "app",
    );
    assert_eq!(rows(&doc), vec![row("agent", "tool", "added")]);
    doc
}

fn reach(doc: &Value) -> &Value {
    &doc["rows"][0]["after"]["reach"]
}

fn whys(reach: &Value) -> Vec<&str> {
    reach["limits"]
        .as_array()
        .expect("limits")
        .iter()
        .map(|l| l["why"].as_str().expect("why"))
        .collect()
}

/// Every call listed is the helpers' GET of the endpoint, reached through
/// them.
fn assert_endpoint_calls(reach: &Value) {
    let calls = reach["calls"].as_array().expect("calls");
    assert!(!calls.is_empty(), "{reach}");
    for call in calls {
        assert_eq!(call["library"], "requests", "{call}");
        assert_eq!(call["method"], "GET", "{call}");
        let url = call["url"].as_str().expect("url");
        assert!(url.starts_with(ENDPOINT), "{url}");
        assert!(!call["via"].as_array().expect("via").is_empty(), "{call}");
    }
}

/// Twenty helpers that each call all twenty (about 6 KB): the tool's reach
/// names the endpoint, and the helper bound, within the budget.
#[test]
fn twenty_helpers_calling_each_other_are_read() {
    let source = fanout(20);
    assert!(source.len() > 6_000, "{}", source.len());
    let doc = compare(&source);
    let reach = reach(&doc);
    assert_endpoint_calls(reach);
    let whys = whys(reach);
    assert!(
        whys.iter()
            .any(|w| w.ends_with("more than 3 helper calls from the tool; not read")),
        "{whys:?}"
    );
    assert!(!whys.iter().any(|w| w.contains("work budget")), "{whys:?}");
    // Each call once: the same call reached by another way is one call.
    let calls = reach["calls"].as_array().expect("calls");
    let mut seen: Vec<(&Value, &Value)> = Vec::new();
    for call in calls {
        let key = (&call["at"], &call["url"]);
        assert!(!seen.contains(&key), "{call} twice");
        seen.push(key);
    }
}

/// Forty helpers that each call all forty spend the side's budget: reading
/// stops, the limit says so first, and what was read before is kept.
#[test]
fn a_fan_out_past_the_work_budget_is_a_named_limit() {
    let doc = compare(&fanout(40));
    let reach = reach(&doc);
    assert_eq!(
        whys(reach).first().copied(),
        Some(
            "reading stopped: the work budget of 200,000 steps for this side was spent (helpers fan out too widely); what follows is not read"
        ),
        "{reach}"
    );
    assert_endpoint_calls(reach);
    // Not read in full, so no read claim.
    assert_eq!(reach["effect_claims"], serde_json::json!([]));
    assert_eq!(
        doc["rows"][0]["after"]["effect_evidence"]["status"],
        "unknown"
    );
}

/// A file of 50,000 `@function_tool` definitions, all listed, answers.
#[test]
fn fifty_thousand_tools_in_one_file_answer() {
    let mut source = String::from("from agents import Agent, function_tool\n\n");
    let count = 50_000;
    for i in 0..count {
        source.push_str(&format!("@function_tool\ndef t{i}(q):q\n"));
    }
    let names: Vec<String> = (0..count).map(|i| format!("t{i}")).collect();
    source.push_str(&format!(
        "\n\nagent = Agent(name=\"a\", tools=[{}])\n",
        names.join(",")
    ));
    assert!(source.len() < 2_000_000, "{}", source.len());
    let (doc, _) = compare_branches(
        &[("app/__init__.py", ""), ("app/agent.py", EMPTY)],
        &[("app/agent.py", &source)],
        "app",
    );
    let rows = rows(&doc);
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|(agent, tool, change)| agent == "agent"
        && tool.starts_with('t')
        && change == "added"));
}
