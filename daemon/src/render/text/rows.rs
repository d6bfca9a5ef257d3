//! One row: its headline, each side's binding, and what the binding is
//! (object, settings, implementation, import chain).

use serde_json::Value;

use super::*;

pub(super) fn row_block(out: &mut Out, row: &Value) {
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
                out.prose(2, &format!("{side} uncertainty: {reason}"));
            }
        }
    }
    out.line(
        2,
        &format!("Review: {}", one_line(&field(row, "review_question"))),
    );
}

/// The lines of one observed binding (tool or handoff side).
pub(super) fn binding_lines(out: &mut Out, side: &str, binding: &Value) {
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
    let gates: Vec<String> = items(binding, "gates")
        .iter()
        .map(|g| {
            let unread = if g["value"].is_null() {
                " (not read)"
            } else {
                ""
            };
            format!("{} {}{unread}", field(g, "gate"), field(g, "spelled"))
        })
        .collect();
    if !gates.is_empty() {
        out.line(4, &one_line(&format!("gates: {}", gates.join("; "))));
    }
    let callers = strings(binding, "builder_callers");
    if !callers.is_empty() {
        out.line(
            4,
            &one_line(&format!(
                "read through the calls at: {}",
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
pub(super) fn object_lines(out: &mut Out, binding: &Value, object: &Value) {
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
        "tool_class" => {
            let digest = non_null(object, "implementation_sha256")
                .map(|d| prefix(&py_str(Some(d)), 12))
                .unwrap_or_else(|| "None".to_string());
            let arguments = strings(object, "arguments");
            let arguments = if arguments.is_empty() {
                String::new()
            } else {
                format!("; arguments {}", arguments.join(", "))
            };
            format!(
                "repository tool class ({class}, tool name {}{arguments}; implementation digest {digest})",
                field(object, "tool_name")
            )
        }
        "imported" => format!("imported tool ({class}; definition not read)"),
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
        if let Some(reaches) = get(evidence, "reaches").filter(|r| r.is_object()) {
            let targets: Vec<String> = items(reaches, "targets")
                .iter()
                .map(|t| {
                    let value = t["value"].as_str().unwrap_or_default();
                    format!(
                        "{} {}",
                        field(t, "argument"),
                        crate::pyrepr::str_repr(value)
                    )
                })
                .collect();
            let targets = if targets.is_empty() {
                String::new()
            } else {
                format!(" ({})", targets.join(", "))
            };
            out.line(
                6,
                &one_line(&format!("reaches: {}{targets}", field(reaches, "module"))),
            );
        }
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
pub(super) fn settings_line(settings: &Value) -> String {
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
pub(super) fn json_list(list: &Value) -> String {
    let names: Vec<String> = list
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|name| format!("\"{}\"", name.as_str().unwrap_or_default()))
        .collect();
    format!("[{}]", names.join(", "))
}

/// `<side>: <signature or tool> at <location>[ (also listed at …)]`.
pub(super) fn binding_headline(side: &str, binding: &Value) -> String {
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
pub(super) fn implementation_line(definition: &Value) -> String {
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
pub(super) fn imported_line(chain: &Value) -> Option<String> {
    let hops: Vec<String> = items(chain, "steps")
        .iter()
        .filter(|step| non_null(step, "line").is_some())
        .map(|step| format!("{}:{}", field(step, "path"), field(step, "line")))
        .collect();
    (!hops.is_empty()).then(|| format!("imported: {}", one_line(&hops.join(" → "))))
}

// ---------------------------------------------------------------------------
// Reach lines (§4.3).
