//! How a grant is named in a row: `short` in the JSON rows (the rule, the
//! server, the setting), `long` in the review and the text (with the
//! disposition, the server's command and credential names). Nothing
//! secret is ever part of either.

use super::grant::{Grant, Hook, McpServer, Transport, Workflow};
use super::workflow_authority::Authority;

/// A grant as a row names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub short: String,
    pub long: String,
}

pub fn shown(grant: &Grant) -> Shown {
    match grant {
        Grant::Rule(rule) => Shown {
            short: rule.rule.clone(),
            long: format!("{}: {}", rule.disposition.name(), rule.rule),
        },
        Grant::Setting(setting) => {
            let text = format!("{}: {}", setting.setting, setting.value);
            Shown {
                short: text.clone(),
                long: text,
            }
        }
        Grant::Mcp(server) => Shown {
            short: server.server.clone(),
            long: mcp_long(server),
        },
        Grant::Hook(hook) => Shown {
            short: hook.event.clone(),
            long: format!("{} ({})", hook.event, handlers(hook)),
        },
        Grant::Workflow(workflow) => workflow_shown(workflow, &[]),
    }
}

/// A workflow's summary, with the actions of `steps` named.
pub fn workflow_shown(workflow: &Workflow, steps: &[String]) -> Shown {
    let shown: Vec<(&str, &str)> = steps
        .iter()
        .filter_map(|step| {
            workflow
                .unpinned_actions
                .get_key_value(step)
                .map(|(s, u)| (s.as_str(), u.as_str()))
        })
        .collect();
    let text = Authority::of(workflow).summary(&shown);
    Shown {
        short: text.clone(),
        long: text,
    }
}

/// The steps whose remote action differs between two versions of a
/// workflow.
pub fn changed_steps(old: &Workflow, new: &Workflow) -> Vec<String> {
    let mut steps: Vec<String> = old
        .unpinned_actions
        .keys()
        .chain(new.unpinned_actions.keys())
        .filter(|step| old.unpinned_actions.get(*step) != new.unpinned_actions.get(*step))
        .cloned()
        .collect();
    steps.sort();
    steps.dedup();
    steps
}

fn mcp_long(server: &McpServer) -> String {
    let mut parts = Vec::new();
    match server.transport {
        Transport::Stdio => {
            if let Some(command) = &server.command {
                parts.push(format!("command name {command}"));
            }
            if let Some(package) = &server.package {
                parts.push(format!("package {package}"));
            }
        }
        Transport::Url => {
            if let Some(url) = &server.url {
                parts.push(format!("url {url}"));
            }
        }
    }
    if !server.env_keys.is_empty() {
        parts.push(format!("env keys {}", server.env_keys.join(", ")));
    }
    if !server.header_keys.is_empty() {
        parts.push(format!("header keys {}", server.header_keys.join(", ")));
    }
    if parts.is_empty() {
        server.server.clone()
    } else {
        format!("{} ({})", server.server, parts.join("; "))
    }
}

fn handlers(hook: &Hook) -> String {
    let listed: Vec<String> = hook
        .handlers
        .iter()
        .map(|h| {
            let runs = h.executable.clone().unwrap_or_else(|| h.kind.clone());
            match &h.matcher {
                Some(matcher) if !matcher.is_empty() => format!("{matcher}: {runs}"),
                _ => runs,
            }
        })
        .collect();
    if listed.is_empty() {
        "no handler".to_string()
    } else {
        listed.join(", ")
    }
}

/// What changed in a hook's handlers: the handlers, or the scripts
/// they run.
pub fn hook_change(old: &Hook, new: &Hook) -> String {
    let (before, after) = (handlers(old), handlers(new));
    let scripts: Vec<&str> = new
        .handlers
        .iter()
        .filter_map(|h| {
            let script = h.script.as_deref()?;
            let was = old
                .handlers
                .iter()
                .find(|o| o.script.as_deref() == Some(script))?;
            (was.script_blob != h.script_blob).then_some(script)
        })
        .collect();
    if before == after && !scripts.is_empty() {
        format!("{}: script {} changed", new.event, scripts.join(", "))
    } else {
        format!("{}: {before} → {after}", new.event)
    }
}

/// The long label of an optional side, `—` when absent.
pub fn long(side: &Option<Shown>) -> String {
    side.as_ref()
        .map_or_else(|| "—".to_string(), |s| s.long.clone())
}
