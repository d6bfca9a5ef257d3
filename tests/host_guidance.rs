//! End to end: the reference's `guidance` of a host row (issue 42) — for
//! a Claude Code Bash rule added, removed, widened or narrowed, the
//! question for the rule's owner; where the rule's effect depends on more
//! than the rule (an `ask` rule, a permission mode on that side, a rule of
//! another disposition that may match the same commands), why none is
//! offered. Each expected object is what the reference (1.2.0) printed for
//! the same fixture.

mod support;

use serde_json::{json, Value};
use support::{branch, host_json, Place};

const SETTINGS: &str = ".claude/settings.json";

fn settings(permissions: &str) -> String {
    format!("{{\"permissions\": {{{permissions}}}}}\n")
}

/// `(direction, guidance)` of each review change.
fn guidance(base: &str, head: &str) -> Vec<(String, Value)> {
    let repo = branch(&[(SETTINGS, Some(base))], &[(SETTINGS, Some(head))]);
    let place = Place::new();
    let doc = host_json(&place, &repo, &[]);
    doc["review"]["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|change| {
            (
                change["direction"].as_str().unwrap_or("").to_string(),
                change["guidance"].clone(),
            )
        })
        .collect()
}

const REPOSITORY_ONLY: &str = "These are repository declarations. Runtime access, credentials, other permission layers and task intent are not established.";
const RECORD: &str = "If intentional, record the rationale in the existing PR discussion; the declaration delta remains visible.";
const DISPUTE: &str = "If disputed, preserve the compared refs and evidence for triage; do not suppress the finding or rewrite policy to clear it.";
const PREVIOUS: &str = "If another scope is intended, the declaration owner chooses it at the named source. The previous value is a reference, not an automatically safe fix.";
const NEW: &str = "If another scope is intended, the declaration owner chooses it at the named source. This addition has no previous declaration to restore.";
const VERIFICATION: &str = "Compare the resulting declarations against the original base; a rerun establishes a declaration delta, not intent or runtime access.";
const HEAD_CONTEXT: &str = "The head inventory contains a host permission setting or a potentially overlapping rule with another disposition. Resolve that context before choosing scope; effective access is not established here.";
const BASE_CONTEXT: &str = "The base inventory contains a host permission setting or a potentially overlapping rule with another disposition. Resolve that context before choosing scope; effective access is not established here.";

fn offered(rules: [Option<&str>; 4], case: &str, question: &str, rescope: &str) -> Value {
    json!({
        "after_disposition": rules[0], "after_rule": rules[1],
        "before_disposition": rules[2], "before_rule": rules[3],
        "case": case,
        "choices": [RECORD, rescope, DISPUTE],
        "limitations": [REPOSITORY_ONLY],
        "next_actor": "declaration owner to be assigned",
        "question": question,
        "source": SETTINGS,
        "verification": VERIFICATION,
    })
}

fn not_offered(rules: [Option<&str>; 4], why: &str) -> Value {
    json!({
        "after_disposition": rules[0], "after_rule": rules[1],
        "before_disposition": rules[2], "before_rule": rules[3],
        "case": "unavailable",
        "choices": [],
        "limitations": [why, REPOSITORY_ONLY],
        "next_actor": "declaration owner to be assigned",
        "question": null,
        "source": SETTINGS,
        "verification": null,
    })
}

#[test]
fn an_allow_rule_widened_or_narrowed_asks_whether_the_task_needs_it() {
    assert_eq!(
        guidance(
            &settings(r#""allow": ["Bash(ls:*)"]"#),
            &settings(r#""allow": ["Bash(*)"]"#)
        ),
        vec![(
            "widened".to_string(),
            offered(
                [
                    Some("allow"),
                    Some("Bash(*)"),
                    Some("allow"),
                    Some("Bash(ls:*)")
                ],
                "allow_widened",
                "Does this task need the command matches of Bash(*) beyond Bash(ls:*)?",
                PREVIOUS
            )
        )]
    );
    assert_eq!(
        guidance(
            &settings(r#""allow": ["Bash(*)"]"#),
            &settings(r#""allow": ["Bash(ls:*)"]"#)
        ),
        vec![(
            "narrowed".to_string(),
            offered(
                [
                    Some("allow"),
                    Some("Bash(ls:*)"),
                    Some("allow"),
                    Some("Bash(*)")
                ],
                "allow_narrowed",
                "Is restricting this allow declaration from Bash(*) to Bash(ls:*) intended?",
                PREVIOUS
            )
        )]
    );
}

#[test]
fn a_rule_added_or_removed_asks_whether_this_source_should_hold_it() {
    assert_eq!(
        guidance(
            &settings(r#""allow": ["Bash(ls:*)"]"#),
            &settings(r#""deny": ["Bash(git push:*)"]"#)
        ),
        vec![
            (
                "removed".to_string(),
                offered(
                    [None, None, Some("allow"), Some("Bash(ls:*)")],
                    "declaration_removed",
                    "Should this source remove the allow declaration Bash(ls:*) for this task?",
                    PREVIOUS
                )
            ),
            (
                "added".to_string(),
                offered(
                    [Some("deny"), Some("Bash(git push:*)"), None, None],
                    "declaration_added",
                    "Should this source add the deny declaration Bash(git push:*) for this task?",
                    NEW
                )
            ),
        ]
    );
}

/// The context makes the question unanswerable from the rule alone: the
/// base side is asked about the old rule, the head about the new one; an
/// ask rule is no such choice at all. `ls:*` and `lsof` cannot match one
/// command (a prefix matches at a word boundary), so that deny is no
/// context; a `*` inside a rule may match anything.
#[test]
fn a_mode_an_overlapping_rule_or_an_ask_rule_offers_no_question_and_says_why() {
    let rules = [
        Some("allow"),
        Some("Bash(*)"),
        Some("allow"),
        Some("Bash(ls:*)"),
    ];
    assert_eq!(
        guidance(
            &settings(r#""allow": ["Bash(ls:*)"], "defaultMode": "plan""#),
            &settings(r#""allow": ["Bash(*)"]"#)
        ),
        vec![
            ("widened".to_string(), not_offered(rules, BASE_CONTEXT)),
            ("removed".to_string(), Value::Null),
        ]
    );
    assert_eq!(
        guidance(
            &settings(r#""allow": ["Bash(ls:*)"], "deny": ["Bash(rm:*)"]"#),
            &settings(r#""allow": ["Bash(*)"], "deny": ["Bash(rm:*)"]"#)
        ),
        vec![("widened".to_string(), not_offered(rules, HEAD_CONTEXT))]
    );
    let added = |deny: &str, allow: &str| {
        guidance(
            &settings(&format!(r#""deny": ["{deny}"]"#)),
            &settings(&format!(r#""deny": ["{deny}"], "allow": ["{allow}"]"#)),
        )
        .into_iter()
        .map(|(_, guidance)| guidance["case"].as_str().unwrap_or("").to_string())
        .collect::<Vec<_>>()
    };
    assert_eq!(added("Bash(ls:*)", "Bash(lsof)"), vec!["declaration_added"]);
    assert_eq!(added("Bash(ls:*)", "Bash(ls -la)"), vec!["unavailable"]);
    assert_eq!(
        added("Bash(git * --force)", "Bash(npm:*)"),
        vec!["unavailable"]
    );
    assert_eq!(added("Read(**)", "Bash(ls)"), vec!["declaration_added"]);
    assert_eq!(
        guidance(
            &settings(r#""allow": []"#),
            &settings(r#""ask": ["Bash(ls:*)"]"#)
        ),
        vec![(
            "added".to_string(),
            not_offered(
                [None; 4],
                "This choice supports allow and deny declarations only."
            )
        )]
    );
}

/// Only Bash rules have guidance; other grants' rows have none.
#[test]
fn rules_of_other_tools_and_other_grants_have_no_guidance() {
    assert_eq!(
        guidance(
            &settings(r#""allow": []"#),
            &settings(r#""allow": ["Read(./src/**)", "WebFetch"], "defaultMode": "acceptEdits""#)
        ),
        vec![
            ("added".to_string(), Value::Null),
            ("added".to_string(), Value::Null),
            ("added".to_string(), Value::Null),
        ]
    );
}

/// A limit anywhere in the comparison (here a `.mcp.json` that does not
/// parse, the same on both sides) leaves every rule's context incomplete;
/// an ask rule is still said to be no such choice first.
#[test]
fn a_limit_anywhere_leaves_the_context_incomplete() {
    let broken = "{not json\n";
    let guidance_of = |rules: &str| {
        let repo = branch(
            &[(".mcp.json", Some(broken))],
            &[
                (".mcp.json", Some(broken)),
                (SETTINGS, Some(&settings(rules))),
            ],
        );
        let doc = host_json(&Place::new(), &repo, &[]);
        doc["review"]["changes"][0]["guidance"]["limitations"][0].clone()
    };
    assert_eq!(
        guidance_of(r#""allow": ["Bash(ls:*)"]"#),
        "Relevant comparison context is incomplete; consult the named coverage limits. A resolver is not established by this guidance."
    );
    assert_eq!(
        guidance_of(r#""ask": ["Bash(ls:*)"]"#),
        "This choice supports allow and deny declarations only."
    );
}

/// A rule moved between dispositions is two rows (removed, added) and one
/// review change, `moved`, over both: the reference's grouping, its
/// question counting the rows, and its `disposition_moved` guidance.
#[test]
fn a_rule_moved_between_dispositions_is_one_review_change_over_two_rows() {
    let repo = branch(
        &[(
            SETTINGS,
            Some(&settings(r#""allow": ["Bash(ls:*)", "Read(**)"]"#)),
        )],
        &[(
            SETTINGS,
            Some(&settings(
                r#""deny": ["Bash(ls:*)"], "allow": ["Read(**)", "Edit(**)"]"#,
            )),
        )],
    );
    let doc = host_json(&Place::new(), &repo, &[]);
    assert_eq!(doc["rows"].as_array().map(Vec::len), Some(3));
    let review = &doc["review"];
    assert_eq!(
        review["question"],
        "Review question: Does the team intend these 2 declared capability changes (from 3 rows)?"
    );
    assert_eq!(
        review["summary"],
        json!({"changes": 2, "rows": 3, "widenings": 1})
    );
    let moved = review["changes"]
        .as_array()
        .and_then(|changes| changes.iter().find(|c| c["direction"] == "moved"))
        .expect("a moved change");
    assert_eq!(moved["before"], "allow: Bash(ls:*)");
    assert_eq!(moved["after"], "deny: Bash(ls:*)");
    assert_eq!(moved["severity"], "medium");
    assert_eq!(moved["expands"], false);
    assert_eq!(
        moved["why"],
        "the same rule moved from allow to deny; a denial the agent is subject to"
    );
    assert_eq!(moved["guidance"]["case"], "disposition_moved");
    assert_eq!(
        moved["guidance"]["question"],
        "Is moving Bash(ls:*) from allow to deny intended for this task?"
    );
    let indexes: Vec<u64> = moved["row_indexes"]
        .as_array()
        .expect("row indexes")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let directions: Vec<&str> = indexes
        .iter()
        .filter_map(|&i| doc["rows"][i as usize]["direction"].as_str())
        .collect();
    assert_eq!(directions.len(), 2);
    assert!(directions.contains(&"removed") && directions.contains(&"added"));
}
