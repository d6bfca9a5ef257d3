//! End to end: a capability field replaced after construction (issue 40;
//! the shape of farmwise's `agent/__init__.py`). One unconditional
//! module-level `desk.handoffs = routes` in the agent's own module, or in
//! the `__init__.py` of a package above it, is the field's whole value:
//! the construction's own list is discarded, as at run time
//! (`graph/build/rewires.rs`, `replacement_of`). Its members are read
//! where it is written: a comprehension over a tuple written in place, a
//! name bound to `handoff(...)`, a `functools.partial` filter and an
//! `input_type` class included.
//!
//! Where the rule does not hold the change stays a named limit, and a
//! change that can take members away (a replacement, `remove`, `del`)
//! makes the members read on that side not established, never an
//! established row of a list the agent may no longer hold.
//!
//! The reference (1.2.0) names every change after construction as a limit
//! and still prints the construction's rows as established; this follows
//! the spec ("No false row"): those rows are not established.

mod support;

use serde_json::Value;
use support::{compare_branches, limits, row, rows};

const DESK: &str = r#"from agents import Agent, function_tool


@function_tool
def lookup(q: str) -> str:
    return q


desk = Agent(name="desk", tools=[lookup])
"#;

const BILLING: &str = "from agents import Agent\n\nbilling = Agent(name=\"billing\")\n";
const SHIPPING: &str = "from agents import Agent\n\nshipping = Agent(name=\"shipping\")\n";

/// The package `app/crew` wiring its agents to each other; `{routed}` is
/// the tuple the comprehension maps, `{extra}` lines after it.
fn crew_init(routed: &str, extra: &str) -> String {
    format!(
        r#"import functools

from agents import handoff
from pydantic import BaseModel

from . import filters
from .billing import billing
from .desk import desk
from .shipping import shipping


class Reason(BaseModel):
    why: str


def on_handoff(ctx, data):
    return None


back = handoff(
    agent=desk,
    on_handoff=on_handoff,
    input_type=Reason,
    input_filter=functools.partial(filters.chain, [filters.strip]),
)

routes = [back] + [handoff(agent=a, on_handoff=on_handoff) for a in ({routed})]

desk.handoffs = routes
desk.tools = []
billing.handoffs = [back]
{extra}"#
    )
}

const FILTERS: &str = "def strip(data):\n    return data\n\n\ndef chain(steps, data):\n    for step in steps:\n        data = step(data)\n    return data\n";

fn crew(init: &str, desk: &str) -> Vec<(&'static str, String)> {
    vec![
        ("app/__init__.py", String::new()),
        ("app/crew/__init__.py", init.to_string()),
        ("app/crew/filters.py", FILTERS.to_string()),
        ("app/crew/desk.py", desk.to_string()),
        ("app/crew/billing.py", BILLING.to_string()),
        ("app/crew/shipping.py", SHIPPING.to_string()),
    ]
}

fn compare(base: &[(&str, String)], head: &[(&str, String)]) -> Value {
    let base: Vec<(&str, &str)> = base.iter().map(|(p, c)| (*p, c.as_str())).collect();
    let head: Vec<(&str, &str)> = head.iter().map(|(p, c)| (*p, c.as_str())).collect();
    compare_branches(&base, &head, "app").0
}

#[test]
fn a_replacement_in_the_package_above_is_the_whole_field() {
    let base = crew(&crew_init("billing,", ""), DESK);
    // Shipping joins the routes and gets the way back; the construction's
    // own tools change too, but the package discards them.
    let head = crew(
        &crew_init("billing, shipping", "shipping.handoffs = [back]\n"),
        &DESK.replace("tools=[lookup]", "tools=[lookup, lookup]"),
    );
    let doc = compare(&base, &head);
    assert_eq!(
        doc["comparison_status"],
        "compared",
        "{:#?}",
        limits(&doc, "head")
    );
    assert_eq!(
        rows(&doc),
        vec![
            row("desk", "handoff:crew/shipping.py:shipping", "added"),
            row("shipping", "handoff:crew/desk.py:desk", "added"),
        ]
    );
    let after = &doc["rows"][1]["after"];
    assert_eq!(
        after["rewired_at"],
        serde_json::json!(["app/crew/__init__.py:32"])
    );
    assert_eq!(after.get("bound_when"), None);
    // The handoff a name holds is read with its options: the schema class
    // and the partial filter by their code.
    let options = after["handoff_options"].as_object().expect("options");
    assert!(
        options["input_type"]
            .as_str()
            .is_some_and(|v| v.starts_with("Reason ")),
        "{options:?}"
    );
    assert!(
        options["input_filter"]
            .as_str()
            .is_some_and(|v| v.starts_with("functools.partial(…) ")),
        "{options:?}"
    );

    // A filter's code is part of the handoff: changing it changes the row.
    let mut edited_filters = base.clone();
    edited_filters[2].1 = FILTERS.replace(
        "return data\n\n\ndef chain",
        "return data.strip()\n\n\ndef chain",
    );
    let doc = compare(&base, &edited_filters);
    assert_eq!(
        rows(&doc),
        vec![
            row("billing", "handoff:crew/desk.py:desk", "changed"),
            row("desk", "handoff:crew/desk.py:desk", "changed"),
        ]
    );
}

#[test]
fn a_replacement_in_the_agents_own_module_replaces_its_list() {
    let base = vec![
        ("app/__init__.py", String::new()),
        ("app/agent.py", DESK.to_string()),
    ];
    let head = vec![
        ("app/__init__.py", String::new()),
        (
            "app/agent.py",
            format!("{DESK}\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n\n\ndesk.tools = [refund]\n"),
        ),
    ];
    let doc = compare(&base, &head);
    assert_eq!(doc["comparison_status"], "compared");
    assert_eq!(
        rows(&doc),
        vec![
            row("desk", "lookup", "removed"),
            row("desk", "refund", "added")
        ]
    );
}

/// Where the rule does not hold, a limit, and no row of that agent's
/// field is established: a module that is not a package above the agent,
/// a condition, two replacements, a replacement and an addition, a handoff
/// a name holds that code changes, a comprehension whose element the
/// model cannot spell.
#[test]
fn a_replacement_the_rule_does_not_read_stays_a_limit() {
    let plain = crew_init("billing,", "");
    let cases: Vec<(&str, Vec<(&str, String)>)> = vec![
        (
            "not a package above",
            vec![(
                "app/wiring.py",
                "from .crew.desk import desk\nfrom .crew.billing import billing\n\ndesk.handoffs = [billing]\n".to_string(),
            )],
        ),
        (
            "under a condition",
            vec![(
                "app/crew/__init__.py",
                plain.replace("desk.handoffs = routes", "import os\nif os.getenv(\"ROUTES\"):\n    desk.handoffs = routes"),
            )],
        ),
        (
            "twice",
            vec![("app/crew/__init__.py", format!("{plain}desk.handoffs = [billing]\n"))],
        ),
        (
            "and added to",
            vec![("app/crew/__init__.py", format!("{plain}desk.handoffs.append(shipping)\n"))],
        ),
        (
            "a handoff changed after it is built",
            vec![("app/crew/__init__.py", format!("{plain}back.tool_name = \"go_back\"\n"))],
        ),
        (
            "an element the model cannot spell",
            vec![(
                "app/crew/__init__.py",
                plain.replace("on_handoff=on_handoff) for a", "on_handoff=lambda ctx, data: a) for a"),
            )],
        ),
    ];
    let base = crew(&plain, DESK);
    for (case, changed) in cases {
        let mut head = base.clone();
        for (path, content) in changed {
            match head.iter_mut().find(|(p, _)| *p == path) {
                Some(entry) => entry.1 = content,
                None => head.push((path, content)),
            }
        }
        // Shipping's construction gains a tool, so a row exists to judge.
        let shipping = head
            .iter_mut()
            .find(|(p, _)| *p == "app/crew/shipping.py")
            .expect("shipping");
        shipping.1 = "from agents import Agent, function_tool\n\n\n@function_tool\ndef track(n: str) -> str:\n    return n\n\n\nshipping = Agent(name=\"shipping\", tools=[track])\n".to_string();
        let doc = compare(&base, &head);
        assert_eq!(doc["comparison_status"], "partial", "{case}");
        assert!(!limits(&doc, "head").is_empty(), "{case}");
        let found = rows(&doc);
        assert!(
            found.iter().any(|(agent, _, _)| agent == "desk"),
            "{case}: {found:?}"
        );
        assert!(
            found.contains(&row("shipping", "track", "added")),
            "{case}: {found:?}"
        );
        for (agent, tool, change) in found {
            if agent == "desk"
                || (agent == "billing" && case == "a handoff changed after it is built")
            {
                assert_eq!(change, "not_established", "{case}: {agent} {tool}");
            }
        }
    }
}

/// The false row this closes: an agent whose tools a module the reader
/// does not read for it replaces used to keep the construction's list as
/// established rows (a `changed` row for a tool the agent no longer held).
#[test]
fn a_change_that_can_take_members_away_withdraws_the_members_read() {
    let agent = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\ndesk = Agent(name=\"desk\", tools=[lookup])\n";
    let wiring = "from .agent import desk\n\ndesk.tools = []\n";
    let removal = "from .agent import desk, lookup\n\ndesk.tools.remove(lookup)\n";
    for other in [wiring, removal] {
        let base = vec![
            ("app/__init__.py", String::new()),
            ("app/agent.py", agent.to_string()),
            ("app/wiring.py", other.to_string()),
        ];
        let mut head = base.clone();
        head[1].1 = agent.replace("return q", "return q.strip()");
        let doc = compare(&base, &head);
        assert_eq!(doc["comparison_status"], "partial", "{other}");
        assert_eq!(
            rows(&doc),
            vec![row("desk", "lookup", "not_established")],
            "{other}"
        );
    }
}

/// A list two agents share (`tools=CAPS`), changed in place through one
/// of them: the other holds the change too, so the limit is the scope's,
/// never only the agent the statement names (that left `a` `compared`
/// while its list gained `refund`).
#[test]
fn a_shared_list_changed_through_one_agent_is_a_limit_on_every_agent() {
    let base = "from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n    return q\n\n\n@function_tool\ndef refund(order: str) -> str:\n    return order\n\n\nCAPS = [lookup]\na = Agent(name=\"a\", tools=CAPS)\nb = Agent(name=\"b\", tools=CAPS)\n";
    let head = format!("{base}b.tools.append(refund)\n");
    let files = |agent: &str| {
        vec![
            ("app/__init__.py", String::new()),
            ("app/agent.py", agent.to_string()),
        ]
    };
    let doc = compare(&files(base), &files(&head));
    assert_eq!(doc["comparison_status"], "partial");
    let gaps = doc["head"]["coverage_gaps"]
        .as_array()
        .expect("gaps")
        .clone();
    assert_eq!(gaps.len(), 1, "{gaps:#?}");
    assert_eq!(gaps[0]["agent"], Value::Null, "{gaps:#?}");
    assert!(gaps[0]["reason"].as_str().is_some_and(|r| r
        .contains("'b' at agent.py:16 has its tools changed after construction at agent.py:17")));
}

/// ADK: the documentation's shape, `main_agent.sub_agents = [support]`
/// below both constructions. The replacement is the field's whole value
/// (the new members are not given their parent, but the parent's transfer
/// targets and a workflow agent's run read the field as it is). An
/// addition (`.append`) stays the limit it was.
#[test]
fn an_adk_sub_agents_replacement_is_the_whole_field() {
    let agent = |wiring: &str| {
        format!(
            "from google.adk.agents import Agent\n\n\ndef escalate(q: str) -> str:\n    return q\n\n\nmain_agent = Agent(model=\"m\", name=\"main_agent\", instruction=\"i\", tools=[escalate])\nsupport = Agent(model=\"m\", name=\"support_agent\", instruction=\"i\")\nbilling = Agent(model=\"m\", name=\"billing_agent\", instruction=\"i\")\n\n{wiring}\n"
        )
    };
    let files = |wiring: &str| {
        vec![
            ("app/__init__.py", String::new()),
            ("app/agent.py", agent(wiring)),
        ]
    };
    let doc = compare(
        &files("main_agent.sub_agents = [support]"),
        &files("main_agent.sub_agents = [support, billing]"),
    );
    assert_eq!(
        doc["comparison_status"],
        "compared",
        "{:?}",
        limits(&doc, "head")
    );
    assert_eq!(
        rows(&doc),
        vec![row("main_agent", "handoff:agent.py:billing_agent", "added")],
        "{doc:#}"
    );
    let doc = compare(
        &files("main_agent.sub_agents = [support]"),
        &files("main_agent.sub_agents = [support]\nmain_agent.sub_agents.append(billing)"),
    );
    assert_eq!(doc["comparison_status"], "partial", "{doc:#}");
    assert!(
        rows(&doc)
            .iter()
            .all(|(_, _, change)| change == "not_established"),
        "{doc:#}"
    );
}
