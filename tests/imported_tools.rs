//! End to end: a listed name imported from a package no file of the
//! repository provides (issue 21, part 3: `from helpers import
//! find_hotels` with no `helpers` in the tree, as a sibling checkout or a
//! library gives it) keeps its binding's presence. Adding or removing it
//! is established; the same import on both sides is no row, the side's
//! limit naming the unread definition; a changed import is
//! `not_established`. A package the repository holds outside the scope
//! could change in the diff, so it stays the agent's limit.

mod support;

use serde_json::Value;
use support::{compare_branches, limits, row, rows};

fn adk(imports: &str, tools: &str) -> String {
    format!(
        "from google.adk.agents import Agent\n{imports}\n\ndef lookup(q: str) -> str:\n    return q\n\n\nroot_agent = Agent(name=\"support\", model=\"m\", instruction=\"Help.\", tools=[{tools}])\n"
    )
}

fn compare(base: &str, head: &str) -> Value {
    support::compare_app(base, head).0
}

const HELPERS: &str = "from helpers import find_hotels, book_hotel";

#[test]
fn an_added_imported_name_is_an_added_row() {
    let base = adk(HELPERS, "lookup, find_hotels");
    let head = adk(HELPERS, "lookup, find_hotels, book_hotel");
    let doc = compare(&base, &head);
    assert_eq!(rows(&doc), vec![row("support", "book_hotel", "added")]);
    let object = &doc["rows"][0]["after"]["object"];
    assert_eq!(object["kind"], "imported");
    assert_eq!(object["class"], "helpers.book_hotel");
    // The definition is not read: the answer says so.
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        limits(&doc, "head").contains(&"Google ADK agent 'support' binds the imported tool 'book_hotel', whose definition is not read (helpers.book_hotel: no file inside the read scope provides module 'helpers'); a change to it is not established.".to_string()),
        "{:?}",
        limits(&doc, "head")
    );
}

#[test]
fn a_removed_imported_name_is_a_removed_row() {
    let base = adk(
        "import helpers",
        "lookup, helpers.find_hotels, helpers.book_hotel",
    );
    let head = adk("import helpers", "lookup, helpers.find_hotels");
    let doc = compare(&base, &head);
    assert_eq!(rows(&doc), vec![row("support", "book_hotel", "removed")]);
}

/// Nothing the diff holds can change a definition the tree does not
/// hold: no row, and the limit keeps the answer partial.
#[test]
fn the_same_import_on_both_sides_is_no_row() {
    let base = adk(HELPERS, "lookup, find_hotels");
    let head = adk(HELPERS, "find_hotels, lookup");
    let doc = compare(&base, &head);
    assert_eq!(rows(&doc), vec![]);
    assert_eq!(doc["comparison_status"], "partial");
}

/// Another module's `find_hotels` may or may not be the same function:
/// not established, never a made-up digest.
#[test]
fn a_changed_import_is_not_established() {
    let base = adk(HELPERS, "lookup, find_hotels");
    let head = adk(
        "from hotel_helpers import find_hotels",
        "lookup, find_hotels",
    );
    let doc = compare(&base, &head);
    assert_eq!(
        rows(&doc),
        vec![row("support", "find_hotels", "not_established")]
    );
}

#[test]
fn an_sdk_agent_keeps_an_imported_tools_presence() {
    let base = "from agents import Agent\nfrom helpers import find_hotels, book_hotel\n\nsupport = Agent(name=\"support\", tools=[find_hotels])\n";
    let head = base.replace("tools=[find_hotels]", "tools=[find_hotels, book_hotel]");
    let doc = compare(base, &head);
    assert_eq!(rows(&doc), vec![row("support", "book_hotel", "added")]);
}

/// `services/` is the repository's own code outside the scope `app`: the
/// diff could change it, so its definition stays the agent's limit.
#[test]
fn a_package_the_repository_holds_outside_the_scope_stays_a_limit() {
    let base = adk("from services.helpers import find_hotels", "lookup");
    let head = adk(
        "from services.helpers import find_hotels",
        "lookup, find_hotels",
    );
    let (doc, _) = compare_branches(
        &[
            ("app/__init__.py", ""),
            ("app/agent.py", &base),
            ("services/__init__.py", ""),
            (
                "services/helpers.py",
                "def find_hotels(city: str) -> str:\n    return city\n",
            ),
        ],
        &[("app/agent.py", &head)],
        "app",
    );
    assert_eq!(doc["comparison_status"], "partial");
    assert!(
        rows(&doc).iter().all(|(_, _, change)| change != "added"),
        "{:?}",
        rows(&doc)
    );
}
