//! End to end: rewires after construction read as bindings (issue 18,
//! item 2). An unconditional module-level `triage.handoffs.append(x)`,
//! `.extend([...])` or `triage.tools += [...]` on an agent bound once at
//! module level, whose field started as a list display, adds its members
//! to that agent, with `rewired_at`. In another module of the scope it
//! holds only once that module runs: its members carry `bound_when`.
//! Anything else changed after construction stays the named limit.
//!
//! The reference (1.2.0) names every such change as a limit and reads no
//! member of it; the spec's rule for rewires is the limit, and this reads
//! further where the rule in `graph/build/rewires.rs` makes it sound.

mod support;

use serde_json::{json, Value};
use support::{compare_branches, row, rows};

const AGENTS: &str = r#"from agents import Agent, function_tool


@function_tool
def lookup(q: str) -> str:
    return q


@function_tool
def refund(order: str) -> str:
    return order


billing = Agent(name="billing")
refunds = Agent(name="refunds")
triage = Agent(name="triage", tools=[lookup], handoffs=[billing])
"#;

fn compare(base: &[(&str, &str)], head: &[(&str, &str)]) -> Value {
    let mut base = base.to_vec();
    base.insert(0, ("app/__init__.py", ""));
    compare_branches(&base, head, "app").0
}

fn head_limits(doc: &Value) -> Vec<String> {
    support::limits(doc, "head")
}

#[test]
fn a_rewire_in_the_agents_module_is_a_binding() {
    for (rewire, added) in [
        (
            "triage.handoffs.append(refunds)\n",
            "handoff:agent.py:refunds",
        ),
        (
            "triage.handoffs.extend([refunds])\n",
            "handoff:agent.py:refunds",
        ),
        ("triage.handoffs += [refunds]\n", "handoff:agent.py:refunds"),
        ("triage.tools.insert(0, refund)\n", "refund"),
    ] {
        let head = format!("{AGENTS}{rewire}");
        let doc = compare(&[("app/agent.py", AGENTS)], &[("app/agent.py", &head)]);
        assert_eq!(doc["comparison_status"], "compared", "{rewire}");
        assert_eq!(rows(&doc), vec![row("triage", added, "added")], "{rewire}");
        let after = &doc["rows"][0]["after"];
        assert_eq!(after["rewired_at"], json!(["app/agent.py:17"]), "{rewire}");
        assert_eq!(after.get("bound_when"), None, "{rewire}");
    }
}

#[test]
fn a_rewire_in_another_module_holds_when_that_module_is_imported() {
    let router = "from .agent import refunds, triage\n\ntriage.handoffs.append(refunds)\n";
    let doc = compare(&[("app/agent.py", AGENTS)], &[("app/router.py", router)]);
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:refunds", "added")]
    );
    let after = &doc["rows"][0]["after"];
    assert_eq!(after["rewired_at"], json!(["app/router.py:3"]));
    assert_eq!(after["bound_when"], json!(["when `router.py` is imported"]));
    // A module nothing imports is no different: the member holds only
    // when it runs, never unconditionally.
    let doc = compare(
        &[("app/agent.py", AGENTS)],
        &[
            (
                "app/scripts/wire.py",
                router.replace(".agent", "app.agent").as_str(),
            ),
            ("app/scripts/__init__.py", ""),
        ],
    );
    assert_eq!(
        rows(&doc),
        vec![row("triage", "handoff:agent.py:refunds", "added")]
    );
    assert_eq!(
        doc["rows"][0]["after"]["bound_when"],
        json!(["when `scripts/wire.py` is imported"])
    );
}

/// Every other change after construction stays the named limit: under a
/// condition, in a function, a removal, an alias handed away, a field not
/// given as a display, a module that rebinds the name it changes.
#[test]
fn other_changes_after_construction_stay_limits() {
    let cases = [
        ("app/agent.py", format!("{AGENTS}import os\nif os.environ.get(\"X\"):\n    triage.handoffs.append(refunds)\n"), 19),
        ("app/agent.py", format!("{AGENTS}\ndef wire():\n    triage.handoffs.append(refunds)\n"), 19),
        ("app/agent.py", format!("{AGENTS}triage.handoffs.remove(billing)\n"), 17),
        ("app/agent.py", format!("{AGENTS}h = triage.handoffs\nh.append(refunds)\n"), 18),
        (
            "app/agent.py",
            format!("{}triage.handoffs.append(refunds)\n", AGENTS.replace("handoffs=[billing]", "handoffs=HANDOFFS").replace("triage = ", "HANDOFFS = [billing]\ntriage = ")),
            18,
        ),
    ];
    for (path, head, line) in cases {
        let doc = compare(&[("app/agent.py", AGENTS)], &[(path, &head)]);
        assert_eq!(doc["comparison_status"], "partial", "{head}");
        let limits = head_limits(&doc);
        assert!(
            limits.iter().any(|l| l
                .contains("has its handoffs changed after construction at agent.py:")
                && l.contains(&format!("agent.py:{line} "))),
            "{head}\n{limits:#?}"
        );
        assert!(
            rows(&doc).iter().all(|r| r.2 == "not_established"),
            "{head}\n{:?}",
            rows(&doc)
        );
    }
    // Another module's name rebound after the import is not the agent.
    let router = "from .agent import refunds, triage\nfrom .other import triage\n\ntriage.handoffs.append(refunds)\n";
    let doc = compare(
        &[
            ("app/agent.py", AGENTS),
            ("app/other.py", "triage = None\n"),
        ],
        &[("app/router.py", router)],
    );
    assert_eq!(rows(&doc), Vec::<(String, String, String)>::new());
}

/// The cycle applications write: agents built without `handoffs=`, then
/// each given a way back after the triage agent exists. An absent field
/// is a new list of the agent's own, so the rewire is its binding. A copy
/// shares the fields it does not pass, so rewiring one of those stays a
/// limit.
#[test]
fn a_field_not_given_is_rewired_as_a_list_of_its_own() {
    let base = r#"from agents import Agent, handoff

faq = Agent(name="faq")
seats = Agent(name="seats")
triage = Agent(
    name="triage",
    handoffs=[handoff(agent=faq, tool_name_override="to_faq"), seats],
)
"#;
    let head = format!(
        "{base}\nfaq.handoffs.append(handoff(agent=triage, tool_name_override=\"to_triage\"))\nseats.handoffs.append(triage)\n"
    );
    let doc = compare(&[("app/agent.py", base)], &[("app/agent.py", &head)]);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            row("faq", "handoff:agent.py:triage", "added"),
            row("seats", "handoff:agent.py:triage", "added"),
        ]
    );
    assert_eq!(
        doc["rows"][0]["after"]["handoff_options"],
        json!({"tool_name_override": "'to_triage'"})
    );

    let copied = format!(
        "{base}\nfaq_copy = faq.clone(name=\"faq_copy\")\nfaq_copy.handoffs.append(triage)\n"
    );
    let doc = compare(&[("app/agent.py", base)], &[("app/agent.py", &copied)]);
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        head_limits(&doc)
            .iter()
            .any(|l| l.contains("has its handoffs changed after construction")),
        "{:#?}",
        head_limits(&doc)
    );
}
