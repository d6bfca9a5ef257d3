//! The document's frame: its header, the scopes compared, each
//! comparison's heading and body, the advisory close.

use serde_json::Value;

use super::*;

/// `Application comparison: <status> (<base c12> → <head c12>)`.
pub(super) fn header(doc: &Value) -> String {
    let commit = |side: &str| {
        let sha =
            get(doc, side).map_or_else(|| "None".to_string(), |s| field(s, "compared_commit"));
        prefix(&sha, 12)
    };
    // A working tree (or the index) has no commit of the user's: it is
    // named as such.
    let head = match snapshot_ref(doc) {
        Some(named) => named.to_string(),
        None => commit("head"),
    };
    format!(
        "Application comparison: {} ({} → {head})",
        field(doc, "comparison_status"),
        commit("base"),
    )
}

/// The name of the head when it is the working tree (`diff --worktree`)
/// or the index (`diff --staged`), not a commit.
fn snapshot_ref(doc: &Value) -> Option<&'static str> {
    let named = get(doc, "head")
        .and_then(|head| get(head, "requested_ref"))
        .and_then(Value::as_str)?;
    [crate::render::WORKTREE_REF, crate::render::STAGED_REF]
        .into_iter()
        .find(|snapshot| *snapshot == named)
}

/// Said under the header when both sides are one commit: the answer is
/// empty by construction, and the usual cause is a local edit the
/// comparison of commits never reads.
pub(super) fn same_commit_line(doc: &Value) -> Option<String> {
    let side_field = |side: &str, key: &str| {
        get(doc, side)
            .and_then(|s| get(s, key))
            .and_then(Value::as_str)
            .filter(|value| !value.is_empty())
    };
    if let Some(named) = snapshot_ref(doc) {
        return (side_field("base", "tree")? == side_field("head", "tree")?).then(|| {
            if named == crate::render::STAGED_REF {
                "nothing is staged against the base, so nothing can differ.".to_string()
            } else {
                "the working tree holds no change to a .py file against the base, so nothing can differ."
                    .to_string()
            }
        });
    }
    let commit = |side: &str| side_field(side, "compared_commit");
    (commit("base")? == commit("head")?).then(|| {
        "base and head are the same commit, so nothing can differ: uncommitted edits are not read (commit them, or compare another base)."
            .to_string()
    })
}

/// The `scope:` line and its `scope limit:` lines, for derived scopes only.
pub(super) fn scope_lines(out: &mut Out, doc: &Value) {
    let Some(selection) = get(doc, "scope_selection") else {
        return;
    };
    if get(selection, "mode").and_then(Value::as_str) != Some("derived") {
        return;
    }
    let scopes = strings(selection, "scopes");
    let scopes = if scopes.is_empty() {
        "none".to_string()
    } else {
        scopes.join(", ")
    };
    out.line(
        0,
        &format!(
            "scope: {} (derived: {})",
            one_line(&scopes),
            one_line(&field(selection, "reason"))
        ),
    );
    for limit in strings(selection, "limits") {
        out.prose(2, &format!("scope limit: {}", one_line(&limit)));
        out.scope_limits.push(limit);
    }
}

/// `Scope <head scope>: <status>` above each comparison of a combined
/// document. 1.2.0 prints the scope here unfiltered (a bidi mark in a
/// directory name comes out raw), unlike on the `scope:` line; kept as is.
pub(super) fn comparison_heading(comparison: &Value) -> String {
    let scope = get(comparison, "head").map_or_else(|| "None".to_string(), |h| field(h, "scope"));
    format!(
        "Scope {}: {}",
        scope,
        field(comparison, "comparison_status")
    )
}

/// Last line: the document's third advisory limit, or the fixed sentence.
pub(super) fn advisory(doc: &Value) -> &str {
    items(doc, "limits")
        .get(2)
        .and_then(Value::as_str)
        .unwrap_or(ADVISORY)
}

// ---------------------------------------------------------------------------
// One comparison: its rows, or the sentence saying why there are none, then
// side limits and excluded tests.

pub(super) fn comparison_body(out: &mut Out, comparison: &Value) {
    let rows = items(comparison, "rows");
    for row in rows {
        row_block(out, row);
    }
    if rows.is_empty() {
        out.line(0, no_rows_sentence(comparison));
    }
    if out.findings_first {
        side_limit_lines(out, comparison);
    } else {
        // 1.2.0: every base limit, then every head limit, repeats and all.
        for side in ["base", "head"] {
            if let Some(side_doc) = get(comparison, side) {
                for limit in strings(side_doc, "limits") {
                    out.line(2, &format!("{side} limit: {}", one_line(&limit)));
                }
            }
        }
    }
    if let Some(line) = excluded_tests_line(comparison) {
        out.line(0, &line);
    }
}

/// The findings-first layout's limit lines: each sentence once, labelled
/// with the sides that hold it (`base limit:`, `head limit:`, `base and
/// head limit:`), none that a `scope limit:` line already stated. The
/// labels keep the 1.2.0 words: a line matched on `head limit:` still
/// finds a limit both sides hold.
fn side_limit_lines(out: &mut Out, comparison: &Value) {
    for limit in crate::render::limits::side_limits(comparison) {
        if out.scope_limits.contains(&limit.text) {
            continue;
        }
        out.prose(
            2,
            &format!("{} limit: {}", limit.sides.label(), one_line(&limit.text)),
        );
    }
}

/// Zero rows mean different things depending on the status; never let an
/// incomplete read look like "no change".
pub(crate) fn no_rows_sentence(comparison: &Value) -> &'static str {
    match get(comparison, "comparison_status").and_then(Value::as_str) {
        Some("not_established") => "No supported application agents were established.",
        Some("partial") => "Incomplete comparison; this is not a no-change result.",
        _ => "No established binding/interface/implementation changes in the observed surface.",
    }
}

/// `Test files not read as the application (<n>): a, b[, and K more]` over
/// the sorted union of both sides' `excluded_tests`.
pub(super) fn excluded_tests_line(comparison: &Value) -> Option<String> {
    let mut files: Vec<String> = ["base", "head"]
        .iter()
        .filter_map(|side| get(comparison, side))
        .flat_map(|side| strings(side, "excluded_tests"))
        .collect();
    files.sort();
    files.dedup();
    if files.is_empty() {
        return None;
    }
    let shown = files[..files.len().min(TEST_FILES_SHOWN)].join(", ");
    let more = files.len().saturating_sub(TEST_FILES_SHOWN);
    let tail = if more > 0 {
        format!(", and {more} more")
    } else {
        String::new()
    };
    // File names pass the one-line filter (observed in 1.2.0, although the
    // contract's grammar does not mark this line).
    Some(format!(
        "Test files not read as the application ({}): {}{tail}",
        files.len(),
        one_line(&shown)
    ))
}

// ---------------------------------------------------------------------------
// Row blocks.
