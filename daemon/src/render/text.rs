//! The default text output (output contract §4, the 1.2.0 grammar).
//!
//! Everything printed here is read from the document as it stands; nothing
//! is recomputed, so the text can never disagree with `--json`. The caller
//! passes the already sanitised document. Missing or oddly typed keys print
//! the way Python's `str()` would print a missing value (`None`) or are
//! skipped, never panic.
//!
//! Values marked ⟦1⟧ in the contract pass [`one_line`], so a control or
//! bidi character in a name cannot break a line or reorder what CI reads.

use serde_json::Value;

use super::pyjson;

/// The advisory sentence that always closes the output (`limits[2]`).
const ADVISORY: &str =
    "This comparison is advisory evidence and supplies no release verdict or merge permission.";

/// How many excluded test files are named before `, and K more`.
const TEST_FILES_SHOWN: usize = 5;

/// How many reach limits are printed before `reach limit: and K more`.
const REACH_LIMITS_SHOWN: usize = 3;

/// Renders the whole document as the text CI reads.
pub fn render_text(doc: &Value) -> String {
    let mut out = Out::default();
    out.line(0, &header(doc));
    scope_lines(&mut out, doc);
    // Schema 0.4: the findings open the answer, the rows follow as detail
    // (a 1.2.0 document has no summary and prints as 1.2.0 did).
    let mut print_rows = true;
    if let Some(summary) = get(doc, "summary").filter(|s| s.is_object()) {
        for (indent, line) in super::findings::lines(summary) {
            out.line(indent, &one_line(&line));
        }
        let rows = items(doc, "rows").len();
        print_rows = rows <= super::findings::DETAIL_ROWS;
        if print_rows {
            out.line(0, "Detail:");
        } else {
            out.line(0, &format!("Detail: {rows} rows are not printed here. `--json` carries every row, gap and reach limit, and the findings above name the rows they summarize."));
            if let Some(line) = excluded_tests_line(doc) {
                out.line(0, &line);
            }
        }
    }
    if print_rows {
        match doc.get("comparisons").and_then(Value::as_array) {
            // Combined document: each comparison under its own `Scope` line.
            Some(comparisons) => {
                if comparisons.is_empty() {
                    out.line(
                        0,
                        "The change touches no supported application agent; nothing was compared.",
                    );
                }
                for comparison in comparisons {
                    out.line(0, &comparison_heading(comparison));
                    comparison_body(&mut out, comparison);
                }
            }
            None => comparison_body(&mut out, doc),
        }
    }
    if let Some(stability) = get(doc, "tool_list_stability").filter(|s| s.is_object()) {
        stability_lines(&mut out, stability);
    }
    out.line(0, advisory(doc));
    out.text
}

/// `Tool-list stability:` lines (issue 10): reordered lists and lists that
/// may change between calls. Information, never a row.
fn stability_lines(out: &mut Out, stability: &Value) {
    out.line(0, "Tool-list stability (not a binding change):");
    for change in items(stability, "order_changed") {
        out.line(
            2,
            &one_line(&format!(
                "{} ({}): order changed: {} → {}",
                field(change, "agent"),
                field(change, "agent_source"),
                strings(change, "before").join(", "),
                strings(change, "after").join(", ")
            )),
        );
    }
    for caveat in items(stability, "caveats") {
        out.line(
            2,
            &one_line(&format!(
                "{} ({}): may differ between calls: {}",
                field(caveat, "agent"),
                field(caveat, "agent_source"),
                field(caveat, "why")
            )),
        );
    }
}

/// Accumulates lines; every line ends in `\n`, indentation is spaces.
#[derive(Default)]
struct Out {
    text: String,
}

impl Out {
    fn line(&mut self, indent: usize, content: &str) {
        for _ in 0..indent {
            self.text.push(' ');
        }
        self.text.push_str(content);
        self.text.push('\n');
    }
}

// ---------------------------------------------------------------------------
// Value access. Absent and null both print as Python's `str(None)`.

fn get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.get(key)
}

/// Python's `str()` of a JSON value (containers, which never occur where
/// text is expected, print as compact JSON).
fn py_str(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "None".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(true)) => "True".to_string(),
        Some(Value::Bool(false)) => "False".to_string(),
        Some(other) => pyjson::to_python_default(other),
    }
}

/// `str()` of `v[key]`.
fn field(v: &Value, key: &str) -> String {
    py_str(get(v, key))
}

/// The elements of `v[key]` when it is an array, else nothing.
fn items<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    get(v, key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The strings of `v[key]`, each as `str()` would print it.
fn strings(v: &Value, key: &str) -> Vec<String> {
    items(v, key).iter().map(|x| py_str(Some(x))).collect()
}

fn non_null<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    get(v, key).filter(|x| !x.is_null())
}

/// The first `n` characters (Python's `s[:n]`).
fn prefix(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Pushes `s` unless an equal string is already there (first-seen order).
fn push_unique(list: &mut Vec<String>, s: String) {
    if !list.contains(&s) {
        list.push(s);
    }
}

// ---------------------------------------------------------------------------
// The one-line filter (§4.2).

/// Makes control and bidi characters visible as `\xNN` / `\uNNNN`.
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let cp = c as u32;
        if !is_unsafe_in_line(cp) {
            out.push(c);
        } else if cp <= 0xff {
            out.push_str(&format!("\\x{cp:02x}"));
        } else {
            out.push_str(&format!("\\u{cp:04x}"));
        }
    }
    out
}

/// C0, DEL and C1 controls, and the bidi marks, embeddings, overrides,
/// isolates and the line/paragraph separators.
fn is_unsafe_in_line(cp: u32) -> bool {
    matches!(
        cp,
        0x00..=0x1f
            | 0x7f..=0x9f
            | 0x061c
            | 0x200e
            | 0x200f
            | 0x2028
            | 0x2029
            | 0x202a..=0x202e
            | 0x2066..=0x2069
    )
}

// ---------------------------------------------------------------------------
// Document-level lines.

/// `Application comparison: <status> (<base c12> → <head c12>)`.
fn header(doc: &Value) -> String {
    let commit = |side: &str| {
        let sha =
            get(doc, side).map_or_else(|| "None".to_string(), |s| field(s, "compared_commit"));
        prefix(&sha, 12)
    };
    format!(
        "Application comparison: {} ({} → {})",
        field(doc, "comparison_status"),
        commit("base"),
        commit("head")
    )
}

/// The `scope:` line and its `scope limit:` lines, for derived scopes only.
fn scope_lines(out: &mut Out, doc: &Value) {
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
        out.line(2, &format!("scope limit: {}", one_line(&limit)));
    }
}

/// `Scope <head scope>: <status>` above each comparison of a combined
/// document. 1.2.0 prints the scope here unfiltered (a bidi mark in a
/// directory name comes out raw), unlike on the `scope:` line; kept as is.
fn comparison_heading(comparison: &Value) -> String {
    let scope = get(comparison, "head").map_or_else(|| "None".to_string(), |h| field(h, "scope"));
    format!(
        "Scope {}: {}",
        scope,
        field(comparison, "comparison_status")
    )
}

/// Last line: the document's third advisory limit, or the fixed sentence.
fn advisory(doc: &Value) -> &str {
    items(doc, "limits")
        .get(2)
        .and_then(Value::as_str)
        .unwrap_or(ADVISORY)
}

// ---------------------------------------------------------------------------
// One comparison: its rows, or the sentence saying why there are none, then
// side limits and excluded tests.

fn comparison_body(out: &mut Out, comparison: &Value) {
    let rows = items(comparison, "rows");
    for row in rows {
        row_block(out, row);
    }
    if rows.is_empty() {
        out.line(0, no_rows_sentence(comparison));
    }
    for side in ["base", "head"] {
        if let Some(side_doc) = get(comparison, side) {
            for limit in strings(side_doc, "limits") {
                out.line(2, &format!("{side} limit: {}", one_line(&limit)));
            }
        }
    }
    if let Some(line) = excluded_tests_line(comparison) {
        out.line(0, &line);
    }
}

/// Zero rows mean different things depending on the status; never let an
/// incomplete read look like "no change".
fn no_rows_sentence(comparison: &Value) -> &'static str {
    match get(comparison, "comparison_status").and_then(Value::as_str) {
        Some("not_established") => "No supported application agents were established.",
        Some("partial") => "Incomplete comparison; this is not a no-change result.",
        _ => "No established binding/interface/implementation changes in the observed surface.",
    }
}

/// `Test files not read as the application (<n>): a, b[, and K more]` over
/// the sorted union of both sides' `excluded_tests`.
fn excluded_tests_line(comparison: &Value) -> Option<String> {
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

fn row_block(out: &mut Out, row: &Value) {
    let change = field(row, "change");
    let uncertain = change == "not_established";
    out.line(
        0,
        &format!(
            "{}  {} → {}",
            change.to_uppercase(),
            one_line(&field(row, "agent")),
            one_line(&field(row, "tool"))
        ),
    );
    for side in ["before", "after"] {
        match get(row, side).filter(|s| s.is_object()) {
            Some(binding) => binding_lines(out, side, binding),
            None if uncertain => out.line(2, &format!("{side}: binding presence not established")),
            None => out.line(2, &format!("{side}: no observed binding")),
        }
    }
    out.line(2, &one_line(&field(row, "why")));
    if let Some(uncertainty) = get(row, "uncertainty").and_then(Value::as_object) {
        for (side, reasons) in uncertainty {
            for reason in reasons.as_array().map_or(&[][..], Vec::as_slice) {
                let reason = one_line(&py_str(Some(reason)));
                out.line(2, &format!("{side} uncertainty: {reason}"));
            }
        }
    }
    out.line(
        2,
        &format!("Review: {}", one_line(&field(row, "review_question"))),
    );
}

/// The lines of one observed binding (tool or handoff side).
fn binding_lines(out: &mut Out, side: &str, binding: &Value) {
    out.line(2, &binding_headline(side, binding));
    if let Some(definition) = get(binding, "definition").filter(|d| d.is_object()) {
        out.line(4, &implementation_line(definition));
    }
    for chain in items(binding, "import_path") {
        if let Some(line) = imported_line(chain) {
            out.line(4, &line);
        }
    }
    for condition in strings(binding, "bound_when") {
        out.line(4, &one_line(&format!("bound only when {condition}")));
    }
    let callers = strings(binding, "builder_callers");
    if !callers.is_empty() {
        out.line(
            4,
            &one_line(&format!(
                "read through every call of its builder: {}",
                callers.join(", ")
            )),
        );
    }
    if let Some(options) = get(binding, "handoff_options").and_then(Value::as_object) {
        let spelled: Vec<String> = options
            .iter()
            .map(|(name, value)| format!("{name} {}", py_str(Some(value))))
            .collect();
        out.line(
            4,
            &one_line(&format!("handoff options: {}", spelled.join(", "))),
        );
    }
    let rewired = strings(binding, "rewired_at");
    if !rewired.is_empty() {
        out.line(
            4,
            &one_line(&format!(
                "added after construction at {}",
                rewired.join(", ")
            )),
        );
    }
    if let Some(object) = get(binding, "object").filter(|o| o.is_object()) {
        object_lines(out, binding, object);
    }
    if let Some(settings) = get(binding, "agent_settings").filter(|s| s.is_object()) {
        out.line(4, &one_line(&settings_line(settings)));
    }
    if let Some(reach) = get(binding, "reach").filter(|r| r.is_object()) {
        reach_lines(out, binding, reach);
    }
}

/// What a bound object is (spec: "Tools bound as objects"), where it is
/// built, its credentials by name and the parts not read.
fn object_lines(out: &mut Out, binding: &Value, object: &Value) {
    let evidence = get(binding, "object_evidence").filter(|e| e.is_object());
    let built_at = evidence.map(|e| field(e, "built_at")).unwrap_or_default();
    let class = field(object, "class");
    let what = match field(object, "kind").as_str() {
        "mcp_server" => {
            let mut parts = vec![format!(
                "MCP server ({class}, {})",
                field(object, "transport")
            )];
            if let Some(host) = non_null(object, "host") {
                parts.push(format!("host {}", py_str(Some(host))));
            }
            if let Some(command) = non_null(object, "command") {
                parts.push(format!("command {}", py_str(Some(command))));
            }
            if let Some(filter) = non_null(object, "tool_filter") {
                if let Some(allowed) = non_null(filter, "allowed") {
                    parts.push(format!("tool filter {}", json_list(allowed)));
                }
                if let Some(blocked) = non_null(filter, "blocked") {
                    parts.push(format!("blocked tools {}", json_list(blocked)));
                }
            }
            if let Some(digest) = non_null(object, "endpoint_sha256") {
                parts.push(format!(
                    "endpoint digest {}",
                    prefix(&py_str(Some(digest)), 12)
                ));
            }
            parts.join("; ")
        }
        "agent_tool" => format!(
            "agent as a tool ({} at {}, tool name {})",
            field(object, "agent"),
            field(object, "agent_source"),
            field(object, "tool_name")
        ),
        _ => {
            let arguments = strings(object, "arguments");
            if arguments.is_empty() {
                format!("hosted tool ({class})")
            } else {
                let digest = non_null(object, "arguments_sha256")
                    .map(|d| prefix(&py_str(Some(d)), 12))
                    .unwrap_or_else(|| "None".to_string());
                format!(
                    "hosted tool ({class}; arguments {}; digest {digest})",
                    arguments.join(", ")
                )
            }
        }
    };
    out.line(4, &one_line(&format!("{what} at {built_at}")));
    for credential in items(object, "credential_sources") {
        out.line(
            6,
            &one_line(&format!("credential: {}", credential_text(credential))),
        );
    }
    if let Some(evidence) = evidence {
        for unread in items(evidence, "not_read") {
            out.line(
                6,
                &one_line(&format!(
                    "not read: {} ({})",
                    field(unread, "part"),
                    field(unread, "spelled")
                )),
            );
        }
    }
}

/// `settings: tool_choice none (disallows tool use); tool_use_behavior …`.
fn settings_line(settings: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(choice) = non_null(settings, "tool_choice") {
        let note = if get(settings, "tools_disallowed").and_then(Value::as_bool) == Some(true) {
            " (tools stay declared; this setting disallows their use)"
        } else {
            ""
        };
        parts.push(format!("tool_choice {}{note}", py_str(Some(choice))));
    }
    if let Some(behavior) = non_null(settings, "tool_use_behavior") {
        parts.push(format!("tool_use_behavior {}", py_str(Some(behavior))));
    }
    for uncertain in items(settings, "uncertain") {
        parts.push(format!(
            "{} not established ({})",
            field(uncertain, "setting"),
            field(uncertain, "why")
        ));
    }
    format!("settings: {}", parts.join("; "))
}

/// `["a", "b"]`, as the spec prints a tool filter.
fn json_list(list: &Value) -> String {
    let names: Vec<String> = list
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|name| format!("\"{}\"", name.as_str().unwrap_or_default()))
        .collect();
    format!("[{}]", names.join(", "))
}

/// `<side>: <signature or tool> at <location>[ (also listed at …)]`.
fn binding_headline(side: &str, binding: &Value) -> String {
    let name = match non_null(binding, "signature") {
        Some(signature) => py_str(Some(signature)),
        None => field(binding, "tool"),
    };
    let location = field(binding, "binding_location");
    let others: Vec<String> = strings(binding, "construction_sites")
        .into_iter()
        .filter(|site| *site != location)
        .collect();
    let also = if others.is_empty() {
        String::new()
    } else {
        one_line(&format!(" (also listed at {})", others.join(", ")))
    };
    format!(
        "{side}: {} at {}{also}",
        one_line(&name),
        one_line(&location)
    )
}

/// `implementation: <source>:<line> (<digest[:12]>)`; a null line or digest
/// prints as Python's `None`, as 1.2.0 does.
fn implementation_line(definition: &Value) -> String {
    let digest = match non_null(definition, "implementation_sha256") {
        Some(d) => prefix(&py_str(Some(d)), 12),
        None => "None".to_string(),
    };
    format!(
        "implementation: {}:{} ({digest})",
        one_line(&field(definition, "source")),
        field(definition, "line")
    )
}

/// `imported: path:line → path:line …` over the chain's steps that carry a
/// line; a chain with no such step prints nothing.
fn imported_line(chain: &Value) -> Option<String> {
    let hops: Vec<String> = items(chain, "steps")
        .iter()
        .filter(|step| non_null(step, "line").is_some())
        .map(|step| format!("{}:{}", field(step, "path"), field(step, "line")))
        .collect();
    (!hops.is_empty()).then(|| format!("imported: {}", one_line(&hops.join(" → "))))
}

// ---------------------------------------------------------------------------
// Reach lines (§4.3).

fn reach_lines(out: &mut Out, binding: &Value, reach: &Value) {
    let calls = items(reach, "calls");
    for group in group_calls(calls) {
        call_group_lines(out, &group);
    }
    let effects = items(reach, "effects");
    for effect in effects {
        effect_lines(out, effect);
    }
    let limits = items(reach, "limits");
    // An effect claim is only worth a line when something was reached.
    let evidence = get(binding, "effect_evidence").filter(|e| e.is_object());
    if let Some(evidence) =
        evidence.filter(|_| !calls.is_empty() || !effects.is_empty() || !limits.is_empty())
    {
        out.line(4, &one_line(&effect_line(evidence)));
    }
    for limit in limits.iter().take(REACH_LIMITS_SHOWN) {
        let line = format!(
            "reach limit: {} {}",
            field(limit, "at"),
            field(limit, "why")
        );
        out.line(4, &one_line(&line));
    }
    let more_listed = limits.len().saturating_sub(REACH_LIMITS_SHOWN) as u64;
    let more_dropped = get(reach, "more_limits")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let more = more_listed + more_dropped;
    if more > 0 {
        out.line(4, &format!("reach limit: and {more} more"));
    }
}

/// One effect beyond HTTP (schema 0.4, `reach.effects`):
/// `reaches: database read SELECT (postgresql, psycopg2 cursor.execute) at … via …`,
/// then its host, credentials and model-supplied parameters.
fn effect_lines(out: &mut Out, effect: &Value) {
    let mut what = format!("{} {}", field(effect, "family"), field(effect, "operation"));
    for key in ["statement", "target"] {
        if let Some(value) = non_null(effect, key) {
            what.push(' ');
            what.push_str(&py_str(Some(value)));
        }
    }
    let detail: Vec<String> = ["service", "library"]
        .iter()
        .filter_map(|k| non_null(effect, k).map(|v| py_str(Some(v))))
        .collect();
    let via = strings(effect, "via");
    let via = if via.is_empty() {
        String::new()
    } else {
        format!(" via {}", via.join(" → "))
    };
    out.line(
        4,
        &one_line(&format!(
            "reaches: {what} ({} {}) at {}{via}",
            detail.join(", "),
            field(effect, "call"),
            field(effect, "at")
        )),
    );
    if let Some(host) = non_null(effect, "host") {
        out.line(6, &one_line(&format!("host: {}", py_str(Some(host)))));
    }
    for credential in items(effect, "credential_sources") {
        out.line(
            6,
            &one_line(&format!("credential: {}", credential_text(credential))),
        );
    }
    let model: Vec<String> = items(effect, "model_supplied")
        .iter()
        .map(|m| format!("{} → {}", field(m, "param"), field(m, "into")))
        .collect();
    if !model.is_empty() {
        out.line(
            6,
            &one_line(&format!("model-supplied: {}", model.join("; "))),
        );
    }
}

/// Calls grouped by (method, url, graphql), groups in first-seen order.
fn group_calls(calls: &[Value]) -> Vec<Vec<&Value>> {
    let key = |call: &Value| {
        let part = |k: &str| get(call, k).cloned().unwrap_or(Value::Null);
        (part("method"), part("url"), part("graphql"))
    };
    let mut keys = Vec::new();
    let mut groups: Vec<Vec<&Value>> = Vec::new();
    for call in calls {
        let k = key(call);
        match keys.iter().position(|seen| *seen == k) {
            Some(i) => groups[i].push(call),
            None => {
                keys.push(k);
                groups.push(vec![call]);
            }
        }
    }
    groups
}

/// The `reaches:` line of one group and its field, model-supplied and
/// credential lines.
fn call_group_lines(out: &mut Out, group: &[&Value]) {
    let Some(first) = group.first() else {
        return;
    };
    out.line(4, &one_line(&reaches_line(first, group.len())));
    let mut details = Vec::new();
    for call in group {
        for f in items(call, "fields") {
            if let Some(line) = field_line(f) {
                push_unique(&mut details, line);
            }
        }
    }
    if let Some(line) = model_supplied_line(group) {
        details.push(line);
    }
    details.extend(credential_lines(group));
    for line in details {
        out.line(6, &one_line(&line));
    }
}

/// `reaches: <METHOD> <url>[ (GraphQL <op>)] at <at>[ via …][, and N more call site(s)]`.
fn reaches_line(first: &Value, group_len: usize) -> String {
    let method = match non_null(first, "method") {
        Some(m) => py_str(Some(m)),
        None => "an unread method".to_string(),
    };
    let graphql = match non_null(first, "graphql") {
        Some(op) => format!(" (GraphQL {})", py_str(Some(op))),
        None => String::new(),
    };
    let via = strings(first, "via");
    let via = if via.is_empty() {
        String::new()
    } else {
        format!(" via {}", via.join(" → "))
    };
    let more = match group_len.saturating_sub(1) {
        0 => String::new(),
        1 => ", and 1 more call site".to_string(),
        n => format!(", and {n} more call sites"),
    };
    format!(
        "reaches: {method} {}{graphql} at {}{via}{more}",
        field(first, "url"),
        field(first, "at")
    )
}

/// `field <name> ∈ {a, b}[, decided by p]` or `field <name> = <JSON>`;
/// fields without a name or without a printable value print nothing.
fn field_line(f: &Value) -> Option<String> {
    let name = non_null(f, "field").map(|n| py_str(Some(n)))?;
    if let Some(values) = get(f, "values").and_then(Value::as_array) {
        let values: Vec<String> = values.iter().map(|v| py_str(Some(v))).collect();
        let decided = strings(f, "decided_by");
        let decided = if decided.is_empty() {
            String::new()
        } else {
            format!(", decided by {}", decided.join(", "))
        };
        return Some(format!("field {name} ∈ {{{}}}{decided}", values.join(", ")));
    }
    get(f, "value").map(|value| format!("field {name} = {}", pyjson::to_python_default(value)))
}

/// `model-supplied: p → into; …`, de-duplicated over the group.
fn model_supplied_line(group: &[&Value]) -> Option<String> {
    let mut pairs = Vec::new();
    for call in group {
        for m in items(call, "model_supplied") {
            push_unique(
                &mut pairs,
                format!("{} → {}", field(m, "param"), field(m, "into")),
            );
        }
    }
    (!pairs.is_empty()).then(|| format!("model-supplied: {}", pairs.join("; ")))
}

/// One `credential:` line per distinct credential, marked when not every
/// call of the group sends it.
fn credential_lines(group: &[&Value]) -> Vec<String> {
    let mut lines: Vec<(String, usize)> = Vec::new();
    for call in group {
        for credential in items(call, "credential_sources") {
            let text = credential_text(credential);
            match lines.iter_mut().find(|(seen, _)| *seen == text) {
                Some((_, count)) => *count += 1,
                None => lines.push((text, 1)),
            }
        }
    }
    lines
        .into_iter()
        .map(|(text, count)| {
            let some = if count < group.len() {
                " (at some call sites)"
            } else {
                ""
            };
            format!("credential: {text}{some}")
        })
        .collect()
}

/// `<sources> → <target>` for one credential source.
fn credential_text(credential: &Value) -> String {
    let mut sources: Vec<String> = strings(credential, "env")
        .into_iter()
        .map(|var| format!("env {var}"))
        .collect();
    let params = strings(credential, "from");
    if !params.is_empty() {
        sources.push(format!(
            "a value made from model-supplied {}",
            params.join(", ")
        ));
    }
    if get(credential, "literal").and_then(Value::as_bool) == Some(true) {
        sources.push("a literal (not printed)".to_string());
    }
    if sources.is_empty() {
        sources.push("a computed value".to_string());
    }
    format!("{} → {}", sources.join(", "), credential_target(credential))
}

/// The first target key present, as `<kind> <name>` or `<kind>`.
fn credential_target(credential: &Value) -> String {
    let Some(map) = credential.as_object() else {
        return "an unnamed target".to_string();
    };
    [
        "header",
        "auth",
        "query",
        "field",
        "userinfo",
        "keyword",
        "env_entry",
    ]
    .iter()
    .find_map(|kind| {
        let label = kind.replace('_', " ");
        map.get(*kind).map(|name| match name {
            Value::Null => label,
            other => format!("{label} {}", py_str(Some(other))),
        })
    })
    .unwrap_or_else(|| "an unnamed target".to_string())
}

/// `effect: <conservative> (<status label>[<basis>])`.
fn effect_line(evidence: &Value) -> String {
    let effect = field(evidence, "conservative_effect");
    let status = field(evidence, "status");
    format!(
        "effect: {effect} ({}{})",
        super::findings::status_label(&status),
        effect_basis(evidence, &effect, &status)
    )
}

/// The basis suffix, only for structural evidence from an HTTP call: the
/// claim matching the conservative effect (else the first claim) says
/// either that every call reads or where the outbound call is.
fn effect_basis(evidence: &Value, effect: &str, status: &str) -> String {
    if status != "structural" {
        return String::new();
    }
    let claims = items(evidence, "claims");
    let chosen = claims
        .iter()
        .find(|c| field(c, "value") == effect)
        .or_else(|| claims.first());
    let Some(claim) = chosen else {
        return String::new();
    };
    if field(claim, "source") != "source_http_call" {
        return String::new();
    }
    if field(claim, "value") == "read" {
        ": every call was followed, and every outbound call reads".to_string()
    } else {
        format!(": outbound call at {}", field(claim, "at"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Each fixture pair: the oracle's `--json` output and its text output.
    const FIXTURES: &[(&str, &str, &str)] = &[
        (
            "sdk_tools",
            include_str!("testdata/sdk_tools.json"),
            include_str!("testdata/sdk_tools.txt"),
        ),
        (
            "partial_reach",
            include_str!("testdata/partial_reach.json"),
            include_str!("testdata/partial_reach.txt"),
        ),
        (
            "combined",
            include_str!("testdata/combined.json"),
            include_str!("testdata/combined.txt"),
        ),
        (
            "bidi_paths",
            include_str!("testdata/bidi_paths.json"),
            include_str!("testdata/bidi_paths.txt"),
        ),
        (
            "contract_2_10",
            include_str!("testdata/contract_2_10.json"),
            include_str!("testdata/contract_2_10.txt"),
        ),
    ];

    #[test]
    fn matches_oracle_text_byte_for_byte() {
        for (name, json_text, want) in FIXTURES {
            let doc: Value = serde_json::from_str(json_text).unwrap_or(Value::Null);
            assert_eq!(render_text(&doc), *want, "fixture {name}");
        }
    }

    #[test]
    fn one_line_filter_escapes_controls_and_bidi() {
        assert_eq!(
            one_line("a\u{1b}b\u{202e}c\u{85}d\u{7f}e\u{2028}f\ng\u{61c}h\u{2066}i→é"),
            "a\\x1bb\\u202ec\\x85d\\x7fe\\u2028f\\x0ag\\u061ch\\u2066i→é"
        );
        assert_eq!(one_line("\u{a0}\u{200d}\u{2065}"), "\u{a0}\u{200d}\u{2065}");
    }

    #[test]
    fn null_digest_and_line_print_as_none() {
        let definition = json!({"source": "app/a.py", "line": null, "implementation_sha256": null});
        assert_eq!(
            implementation_line(&definition),
            "implementation: app/a.py:None (None)"
        );
    }

    #[test]
    fn empty_document_renders_without_panicking() {
        assert_eq!(
            render_text(&json!({})),
            "Application comparison: None (None → None)\n\
             No established binding/interface/implementation changes in the observed surface.\n\
             This comparison is advisory evidence and supplies no release verdict or merge permission.\n"
        );
        // Oddly typed values: still lines, never a panic.
        let odd = json!({"comparison_status": 3, "base": [], "rows": [{"before": 1, "uncertainty": []}],
                         "comparisons": "x", "scope_selection": {"mode": "derived", "scopes": "a"}});
        let text = render_text(&odd);
        assert!(text
            .starts_with("Application comparison: 3 (None → None)\nscope: none (derived: None)\n"));
    }

    #[test]
    fn combined_with_no_comparisons() {
        let doc = json!({
            "comparison_status": "not_established",
            "base": {"compared_commit": "35a71d747c00aaaa"},
            "head": {"compared_commit": "4a975bfc9177bbbb"},
            "rows": [], "comparisons": [],
            "scope_selection": {"mode": "derived", "scopes": [], "reason": "The change touches no OpenAI Agents SDK or Google ADK agent: tools/lint.py is not an agent file, and is not imported by one or importing one within 6 hops.", "limits": []}
        });
        assert_eq!(
            render_text(&doc),
            "Application comparison: not_established (35a71d747c00 → 4a975bfc9177)\n\
             scope: none (derived: The change touches no OpenAI Agents SDK or Google ADK agent: tools/lint.py is not an agent file, and is not imported by one or importing one within 6 hops.)\n\
             The change touches no supported application agent; nothing was compared.\n\
             This comparison is advisory evidence and supplies no release verdict or merge permission.\n"
        );
    }

    #[test]
    fn no_row_sentences_and_limits() {
        let doc = |status: &str| {
            json!({"comparison_status": status,
                   "base": {"compared_commit": "aaaaaaaaaaaaaaaa", "limits": ["Python discovery truncated at 1 files."],
                            "excluded_tests": ["t/test_a.py", "test_b.py", "c_test.py", "conftest.py", "tests.py", "test.py"]},
                   "head": {"compared_commit": "bbbbbbbbbbbbbbbb", "limits": ["x\ny"], "excluded_tests": ["test_b.py"]},
                   "rows": [], "scope_selection": {"mode": "explicit", "scopes": ["app"]}})
        };
        let tail = "  base limit: Python discovery truncated at 1 files.\n  head limit: x\\x0ay\n\
                    Test files not read as the application (6): c_test.py, conftest.py, t/test_a.py, test.py, test_b.py, and 1 more\n\
                    This comparison is advisory evidence and supplies no release verdict or merge permission.\n";
        let head = "Application comparison: ";
        assert_eq!(
            render_text(&doc("partial")),
            format!("{head}partial (aaaaaaaaaaaa → bbbbbbbbbbbb)\nIncomplete comparison; this is not a no-change result.\n{tail}")
        );
        assert_eq!(
            render_text(&doc("not_established")),
            format!("{head}not_established (aaaaaaaaaaaa → bbbbbbbbbbbb)\nNo supported application agents were established.\n{tail}")
        );
    }

    #[test]
    fn handoff_and_uncertain_sides() {
        let row = json!({
            "agent": "triage", "tool": "handoff:agent.py:billing", "change": "not_established",
            "candidate_change": "removed",
            "uncertainty": {"head": ["OpenAI Agents SDK agent 'triage' at agent.py:23 uses a dynamic tools expression; its binding graph is incomplete."]},
            "before": {"agent": "triage", "agent_source": "bot/agent.py", "tool": "billing", "edge_type": "handoff",
                       "target_source": "bot/agent.py", "binding_location": "bot/agent.py:17", "evidence_basis": "ast_extraction"},
            "after": null,
            "why": "This candidate change cannot be established from the affected inputs; it is not a no-change result.",
            "review_question": "Resolve the named uncertainty before treating triage.handoff:agent.py:billing as removed."
        });
        let mut out = Out::default();
        row_block(&mut out, &row);
        assert_eq!(
            out.text,
            "NOT_ESTABLISHED  triage → handoff:agent.py:billing\n\
             \x20 before: billing at bot/agent.py:17\n\
             \x20 after: binding presence not established\n\
             \x20 This candidate change cannot be established from the affected inputs; it is not a no-change result.\n\
             \x20 head uncertainty: OpenAI Agents SDK agent 'triage' at agent.py:23 uses a dynamic tools expression; its binding graph is incomplete.\n\
             \x20 Review: Resolve the named uncertainty before treating triage.handoff:agent.py:billing as removed.\n"
        );
    }

    #[test]
    fn also_listed_and_imported_lines() {
        let side = json!({
            "tool": "escalate", "signature": "escalate(ticket) -> str",
            "binding_location": "app/agent.py:17",
            "construction_sites": ["app/agent.py:17", "app/agent.py:19"],
            "definition": {"source": "svc/app/tools/weather.py", "line": 6, "implementation_sha256": "842e1fd437ca0000"},
            "import_path": [{"reference": "x", "steps": [
                {"path": "svc/app/agent.py", "line": 3, "binding": "import"},
                {"path": "svc/app/x.py", "line": null, "binding": "alias"},
                {"path": "svc/app/tools/weather.py", "line": 6, "binding": "definition"}]},
                {"reference": "y", "steps": [{"path": "svc/app/agent.py"}]}]
        });
        let mut out = Out::default();
        binding_lines(&mut out, "after", &side);
        assert_eq!(
            out.text,
            "  after: escalate(ticket) -> str at app/agent.py:17 (also listed at app/agent.py:19)\n\
             \x20   implementation: svc/app/tools/weather.py:6 (842e1fd437ca)\n\
             \x20   imported: svc/app/agent.py:3 → svc/app/tools/weather.py:6\n"
        );
    }

    #[test]
    fn reach_group_credentials_and_limits() {
        let side = json!({
            "tool": "t", "binding_location": "a.py:1",
            "reach": {
                "calls": [
                    {"method": null, "url": "{env HOOK_URL}", "at": "a.py:26", "via": [],
                     "fields": [{"field": "mode", "value": "fast"}, {"field": null, "computed": true},
                                {"field": "password", "from": ["password"]}],
                     "credential_sources": [{"auth": null, "env": ["PW", "USER"]},
                                            {"field": "password", "from": ["password"]},
                                            {"query": "key", "computed": true}],
                     "model_supplied": [{"param": "note", "into": "field note"}]},
                    {"method": null, "url": "{env HOOK_URL}", "at": "a.py:30", "via": [],
                     "credential_sources": [{"auth": null, "env": ["PW", "USER"]}]},
                    {"method": "POST", "url": "https://x/graphql", "graphql": "mutation", "at": "a.py:40",
                     "via": ["a.py:10 _post", "b.py:3 send"]}
                ],
                "limits": [{"at": "a.py:1", "why": "w1"}, {"at": "a.py:2", "why": "w2"},
                           {"at": "a.py:3", "why": "w3"}, {"at": "a.py:4", "why": "w4"}],
                "effect": "write", "effect_claims": [], "more_limits": 7
            },
            "effect_evidence": {"conservative_effect": "write", "status": "unknown", "claims": []}
        });
        let mut out = Out::default();
        binding_lines(&mut out, "after", &side);
        assert_eq!(
            out.text,
            "  after: t at a.py:1\n\
             \x20   reaches: an unread method {env HOOK_URL} at a.py:26, and 1 more call site\n\
             \x20     field mode = \"fast\"\n\
             \x20     model-supplied: note → field note\n\
             \x20     credential: env PW, env USER → auth\n\
             \x20     credential: a value made from model-supplied password → field password (at some call sites)\n\
             \x20     credential: a computed value → query key (at some call sites)\n\
             \x20   reaches: POST https://x/graphql (GraphQL mutation) at a.py:40 via a.py:10 _post → b.py:3 send\n\
             \x20   effect: write (provisional: unknown effect)\n\
             \x20   reach limit: a.py:1 w1\n\
             \x20   reach limit: a.py:2 w2\n\
             \x20   reach limit: a.py:3 w3\n\
             \x20   reach limit: and 8 more\n"
        );
    }

    #[test]
    fn effect_line_is_omitted_without_calls_or_limits() {
        let side = json!({
            "tool": "t", "binding_location": "a.py:1",
            "reach": {"calls": [], "limits": [], "effect": null, "effect_claims": []},
            "effect_evidence": {"conservative_effect": "write", "status": "unknown", "claims": []}
        });
        let mut out = Out::default();
        binding_lines(&mut out, "before", &side);
        assert_eq!(out.text, "  before: t at a.py:1\n");
    }

    #[test]
    fn effect_basis_variants() {
        let read = json!({"conservative_effect": "read", "status": "structural",
            "claims": [{"value": "read", "source": "source_http_call", "basis": "protocol_structure", "at": "a.py:5"}]});
        assert_eq!(
            effect_line(&read),
            "effect: read (structural evidence: every call was followed, and every outbound call reads)"
        );
        let destructive = json!({"conservative_effect": "destructive", "status": "structural",
            "claims": [{"value": "write", "source": "source_http_call", "at": "a.py:9"},
                       {"value": "destructive", "source": "source_http_call", "at": "a.py:23"}]});
        assert_eq!(
            effect_line(&destructive),
            "effect: destructive (structural evidence: outbound call at a.py:23)"
        );
        let declared = json!({"conservative_effect": "read", "status": "declared", "claims": []});
        assert_eq!(
            effect_line(&declared),
            "effect: read (reviewed declaration)"
        );
    }

    #[test]
    fn field_values_print_like_python() {
        assert_eq!(
            field_line(
                &json!({"field": "mode", "values": ["active", "archive"], "decided_by": ["status"]})
            ),
            Some("field mode ∈ {active, archive}, decided by status".to_string())
        );
        assert_eq!(
            field_line(&json!({"field": "ratio", "value": 0.25})),
            Some("field ratio = 0.25".to_string())
        );
        assert_eq!(
            field_line(&json!({"field": "tiny", "value": 1e-7})),
            Some("field tiny = 1e-07".to_string())
        );
        assert_eq!(
            field_line(&json!({"field": "flag", "value": true})),
            Some("field flag = true".to_string())
        );
        assert_eq!(field_line(&json!({"field": "x", "literal": true})), None);
        assert_eq!(field_line(&json!({"field": null, "value": 1})), None);
    }
}
