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
        Grant::Workflow(workflow) => workflow_shown(workflow, None),
    }
}

/// A workflow's summary, with what its steps run named where that
/// differs from `other` (the workflow on the other side).
pub fn workflow_shown(workflow: &Workflow, other: Option<&Workflow>) -> Shown {
    let empty = Vec::new();
    let shown: Vec<(&str, &str)> = match other {
        None => Vec::new(),
        Some(other) => workflow
            .runs
            .iter()
            .flat_map(|(step, runs)| {
                let there = other.runs.get(step).unwrap_or(&empty);
                runs.iter()
                    .filter(move |r| !there.contains(r))
                    .map(move |r| (step.as_str(), r.as_str()))
            })
            .collect(),
    };
    let text = Authority::of(workflow).summary(&shown);
    Shown {
        short: text.clone(),
        long: text,
    }
}

/// The steps (and reusable jobs) whose code differs between two
/// versions of a workflow.
pub fn changed_steps(old: &Workflow, new: &Workflow) -> Vec<String> {
    let mut steps: Vec<String> = old
        .runs
        .keys()
        .chain(new.runs.keys())
        .filter(|step| old.runs.get(*step) != new.runs.get(*step))
        .cloned()
        .collect();
    steps.sort();
    steps.dedup();
    steps
}

/// What a change to the code steps run says, one clause per kind: an
/// action reference changed, a checkout declared or dropped.
pub fn runs_change(old: &Workflow, new: &Workflow) -> Vec<String> {
    // A reusable workflow a job calls is named in the summary itself.
    let steps: Vec<String> = changed_steps(old, new)
        .into_iter()
        .filter(|s| s.contains("/steps["))
        .collect();
    let checkout = |w: &Workflow, step: &str| {
        w.runs
            .get(step)
            .is_some_and(|runs| runs.iter().any(|r| r.starts_with("checkout of")))
    };
    let uses = |w: &Workflow, step: &str| {
        w.runs
            .get(step)
            .and_then(|runs| runs.iter().find(|r| r.starts_with("uses")).cloned())
    };
    let listed = |pick: &dyn Fn(&str) -> bool| -> String {
        steps
            .iter()
            .filter(|s| pick(s))
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    };
    // A step whose job was renamed: the same action at the same place of
    // a job the other side does not have.
    let index_of = |step: &str| step.rsplit_once('/').map(|(_, i)| i.to_string());
    let mut moved: Vec<(String, String)> = Vec::new();
    for from in steps
        .iter()
        .filter(|s| uses(old, s).is_some() && uses(new, s).is_none())
    {
        let to = steps.iter().find(|to| {
            uses(old, to).is_none()
                && uses(new, to) == uses(old, from)
                && index_of(to) == index_of(from)
                && !moved.iter().any(|(_, taken)| taken == *to)
        });
        if let Some(to) = to {
            moved.push((from.clone(), to.clone()));
        }
    }
    let in_move = |s: &str| moved.iter().any(|(a, b)| a == s || b == s);
    let mut clauses = Vec::new();
    if !moved.is_empty() {
        let pairs: Vec<String> = moved.iter().map(|(a, b)| format!("{a} → {b}")).collect();
        clauses.push(format!("a step's action reference moved between jobs ({}); the same reference now runs with the receiving job's token permissions and adds no scope", pairs.join(", ")));
    }
    let changed_uses = listed(&|s| !in_move(s) && uses(old, s) != uses(new, s));
    if !changed_uses.is_empty() {
        clauses.push(format!("a step's action reference changed ({changed_uses}); it names different code to run with that job's existing token permissions and adds no scope"));
    }
    let declared = listed(&|s| checkout(new, s) && !checkout(old, s));
    let dropped = listed(&|s| checkout(old, s) && !checkout(new, s));
    let checkout_clause = match (declared.is_empty(), dropped.is_empty()) {
        (false, false) => Some(format!("a step now declares a checkout ({declared}) and a step no longer declares a checkout ({dropped})")),
        (false, true) => Some(format!("a step now declares a checkout ({declared})")),
        (true, false) => Some(format!("a step no longer declares a checkout ({dropped})")),
        (true, true) => None,
    };
    if let Some(clause) = checkout_clause {
        clauses.push(format!(
            "{clause}; a ref names which commit's code the job runs and adds no scope"
        ));
    }
    let moved_ref = listed(&|s| {
        checkout(old, s)
            && checkout(new, s)
            && old.runs.get(s) != new.runs.get(s)
            && uses(old, s) == uses(new, s)
    });
    if !moved_ref.is_empty() {
        clauses.push(format!("a step's checkout ref changed ({moved_ref}); a ref names which commit's code the job runs and adds no scope"));
    }
    clauses
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
