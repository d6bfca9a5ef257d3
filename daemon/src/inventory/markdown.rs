//! The inventory as markdown: one table of agents (what each binds, by
//! name), then each agent's bindings in a collapsed block, as the text
//! shows them. Every repository-derived string is escaped
//! (`render::markdown::escape`): a name cannot add markup or mention
//! anyone, and a block cannot be closed from inside.

use super::read::{array, text, BINDING_KINDS};
use super::text::counts_line;
use crate::render::markdown::escape::{code, text as escaped};
use crate::render::text::binding_block;
use serde_json::Value;

pub fn render(document: &Value) -> String {
    let commit = document.get("commit").unwrap_or(&Value::Null);
    let short: String = text(commit, "commit").chars().take(12).collect();
    let mut out = format!(
        "## Agent inventory: {} ({}, {})\n\n",
        escaped(text(document, "status")),
        code(&short),
        code(text(commit, "requested_ref"))
    );
    let applications: Vec<String> = array(document, "applications")
        .iter()
        .filter_map(Value::as_str)
        .map(code)
        .collect();
    if !applications.is_empty() {
        out.push_str(&format!("Applications: {}\n\n", applications.join(", ")));
    }
    // Our own words and numbers: nothing to escape.
    out.push_str(&format!("{}\n\n", counts_line(document)));
    let agents = array(document, "agents");
    if !agents.is_empty() {
        out.push_str("| agent | built at | framework |");
        for (_, _, several) in BINDING_KINDS {
            out.push_str(&format!(" {several} |"));
        }
        out.push_str(" not read |\n|");
        for _ in 0..BINDING_KINDS.len() + 4 {
            out.push_str(" --- |");
        }
        out.push('\n');
        for agent in agents {
            out.push_str(&format!(
                "| {} | {} | {} |",
                code(text(agent, "agent")),
                code(text(agent, "location")),
                escaped(text(agent, "framework"))
            ));
            for (kind, _, _) in BINDING_KINDS {
                let names: Vec<String> = array(agent, kind)
                    .iter()
                    .map(|binding| code(text(binding, "tool")))
                    .collect();
                out.push_str(&format!(" {} |", names.join(", ")));
            }
            let not_read: Vec<String> = array(agent, "not_read")
                .iter()
                .map(|member| code(text(member, "member")))
                .collect();
            out.push_str(&format!(" {} |\n", not_read.join(", ")));
        }
        out.push('\n');
    }
    for agent in agents {
        let mut block = String::new();
        for (kind, label, _) in BINDING_KINDS {
            for binding in array(agent, kind) {
                block.push_str(&binding_block(label, binding, 0));
            }
        }
        for member in array(agent, "not_read") {
            let why: Vec<&str> = array(member, "why")
                .iter()
                .filter_map(Value::as_str)
                .collect();
            block.push_str(&format!(
                "not read: {}: {}\n",
                text(member, "member"),
                why.join(" ")
            ));
        }
        for limit in array(agent, "limits").iter().filter_map(Value::as_str) {
            block.push_str(&format!("limit: {limit}\n"));
        }
        if block.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "<details><summary>{} ({})</summary>\n\n{}\n</details>\n\n",
            html(text(agent, "agent")),
            html(text(agent, "location")),
            fenced(&block)
        ));
    }
    let limits: Vec<String> = array(document, "limits")
        .iter()
        .filter_map(Value::as_str)
        .map(|limit| format!("- {}\n", escaped(limit)))
        .collect();
    if !limits.is_empty() {
        out.push_str("**Not read, and not tied to one agent**\n\n");
        out.push_str(&limits.concat());
    }
    out
}

/// Text inside an HTML block (`<summary>`), where markdown's escapes are
/// not read: HTML's own, and `@` as an entity so nothing mentions anyone.
fn html(s: &str) -> String {
    let mut out = String::new();
    for c in crate::render::text::one_line(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '@' => out.push_str("&#64;"),
            c => out.push(c),
        }
    }
    out
}

/// `block` in a code fence longer than any run of backticks inside it, so
/// nothing inside can close it. The block's lines have passed the
/// one-line filter already (`binding_block`), or are built here from
/// strings that pass it below.
fn fenced(block: &str) -> String {
    let visible: String = block
        .lines()
        .map(|line| format!("{}\n", crate::render::text::one_line(line)))
        .collect();
    let longest = visible.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}text\n{visible}{fence}\n")
}
