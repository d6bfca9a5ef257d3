//! What a workflow's jobs' tokens may do, summarised: each job's
//! effective permissions (its own, else the workflow's, else the
//! repository's default, which the repository does not hold), the
//! highest access among them, and the write scopes. The summary line is
//! the reference's (`access: write, test: pull-requests: write, on:
//! pull_request, push`).

use super::grant::{Permissions, Workflow};
use std::collections::BTreeSet;

/// A token's access, least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Access {
    None,
    Read,
    Write,
    Admin,
}

impl Access {
    fn name(self) -> &'static str {
        match self {
            Access::None => "none",
            Access::Read => "read",
            Access::Write => "write",
            Access::Admin => "admin",
        }
    }
}

/// A workflow's authority as its jobs hold it.
pub struct Authority<'w> {
    workflow: &'w Workflow,
    /// Each job's effective permissions (the workflow's own when it has
    /// no job), in job order.
    effective: Vec<(Option<&'w str>, &'w Permissions)>,
}

impl<'w> Authority<'w> {
    pub fn of(workflow: &'w Workflow) -> Self {
        let effective = if workflow.jobs.is_empty() {
            vec![(None, &workflow.permissions)]
        } else {
            workflow
                .jobs
                .iter()
                .map(|(job, own)| {
                    let permissions = match own {
                        Permissions::Unset => &workflow.permissions,
                        own => own,
                    };
                    (Some(job.as_str()), permissions)
                })
                .collect()
        };
        Authority {
            workflow,
            effective,
        }
    }

    /// Whether some job's token may write.
    pub fn writes(&self) -> bool {
        !self.write_scopes().is_empty()
    }

    pub fn write_all(&self) -> bool {
        self.effective
            .iter()
            .any(|(_, p)| matches!(p, Permissions::WriteAll))
    }

    /// Whether some job's token is the repository default (or unreadable).
    pub fn unknown(&self) -> bool {
        self.effective.iter().any(|(_, p)| access(p).is_none())
    }

    /// `job: scope` for each scope a job's token may write (`job: *` for
    /// `write-all`).
    pub fn write_scopes(&self) -> BTreeSet<String> {
        let mut scopes = BTreeSet::new();
        for (job, permissions) in &self.effective {
            let job = job.unwrap_or("workflow");
            match permissions {
                Permissions::WriteAll => {
                    scopes.insert(format!("{job}: *"));
                }
                Permissions::Scopes(map) => {
                    for (scope, _) in map.iter().filter(|(_, l)| l.as_str() == "write") {
                        scopes.insert(format!("{job}: {scope}"));
                    }
                }
                _ => {}
            }
        }
        scopes
    }

    /// The highest access of any token; `None` when one is unknown and
    /// no other may write already (the unknown one could be the highest).
    fn highest(&self) -> Option<Access> {
        let known = self.effective.iter().filter_map(|(_, p)| access(p));
        let highest = known.fold(Access::None, Access::max);
        let unknown = self.effective.iter().any(|(_, p)| access(p).is_none());
        (!unknown || highest >= Access::Write).then_some(highest)
    }

    /// The highest access as the inventory names it (`unknown` when a
    /// token is the repository's default).
    pub fn access_name(&self) -> &'static str {
        self.highest().map_or("unknown", Access::name)
    }

    /// Whether two workflows give their jobs the same authority and run
    /// the same code: the same triggers, effective permissions and steps'
    /// code, however the file spells them.
    pub fn same_as(&self, other: &Authority<'_>) -> bool {
        let granted = |authority: &Authority<'_>| -> Vec<(Option<String>, Permissions)> {
            authority
                .effective
                .iter()
                .map(|(job, p)| (job.map(str::to_string), granted(p)))
                .collect()
        };
        self.workflow.triggers == other.workflow.triggers
            && self.workflow.runs == other.workflow.runs
            && granted(self) == granted(other)
    }

    /// Where this authority stands against `before`: more, less, or
    /// neither (`None`: equal or not comparable).
    pub fn compared_to(&self, before: &Authority<'_>) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering::*;
        let (writes_after, writes_before) = (self.write_scopes(), before.write_scopes());
        let privileged = |w: &Workflow| w.triggers.iter().any(|t| t == "pull_request_target");
        // A write token a job did not have, or the privileged trigger,
        // widens whatever else was dropped; a job whose token becomes the
        // repository's unknown default is neither.
        // A write scope of a job whose token was the repository's default
        // before may have been there already: not a widening.
        let was_unknown = |pair: &String| {
            let job = pair.split_once(": ").map_or(pair.as_str(), |(job, _)| job);
            before
                .effective
                .iter()
                .any(|(j, p)| j.unwrap_or("workflow") == job && access(p).is_none())
        };
        // `job: *` (write-all) already held every scope of that job.
        let held = |pair: &String| {
            writes_before.contains(pair)
                || pair
                    .split_once(": ")
                    .is_some_and(|(job, _)| writes_before.contains(&format!("{job}: *")))
        };
        let more = writes_after
            .iter()
            .any(|pair| !held(pair) && !was_unknown(pair))
            || (privileged(self.workflow) && !privileged(before.workflow));
        let less = !writes_before.is_subset(&writes_after)
            || (privileged(before.workflow) && !privileged(self.workflow));
        match (more, less) {
            (true, _) => Some(Greater),
            (false, true) => Some(Less),
            _ => None,
        }
    }

    /// The summary line, with the actions of `shown` steps appended.
    pub fn summary(&self, shown: &[(&str, &str)]) -> String {
        let mut parts = vec![format!("access: {}", self.access_name())];
        if self.write_all() {
            parts.push("write-all".to_string());
        }
        for (job, permissions) in &self.effective {
            if let Some(job) = job {
                parts.extend(
                    described(permissions)
                        .into_iter()
                        .map(|p| format!("{job}: {p}")),
                );
            }
        }
        let triggers = &self.workflow.triggers;
        if triggers.iter().any(|t| t == "pull_request_target") {
            parts.push("pull_request_target".to_string());
        }
        let others: Vec<&str> = triggers
            .iter()
            .map(String::as_str)
            .filter(|t| *t != "pull_request_target")
            .collect();
        if !others.is_empty() {
            parts.push(format!("on: {}", others.join(", ")));
        }
        // A reusable workflow a job calls is always named; a step's code
        // only where it changed (`shown`), actions before checkouts.
        for (job, runs) in &self.workflow.runs {
            if !job.contains("/steps[") {
                parts.extend(runs.iter().map(|r| format!("{job}: {r}")));
            }
        }
        let steps = shown.iter().filter(|(step, _)| step.contains("/steps["));
        let (uses, checkouts): (Vec<_>, Vec<_>) = steps.partition(|(_, r)| r.starts_with("uses"));
        for (step, runs) in uses.into_iter().chain(checkouts) {
            parts.push(format!("{step}: {runs}"));
        }
        parts.join(", ")
    }
}

/// A declaration as what it grants: a scope set to `none` is no scope
/// (`contents: none` and `{}` give the same token).
fn granted(permissions: &Permissions) -> Permissions {
    match permissions {
        Permissions::Scopes(map) => Permissions::Scopes(
            map.iter()
                .filter(|(_, level)| level.as_str() != "none")
                .map(|(scope, level)| (scope.clone(), level.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn access(permissions: &Permissions) -> Option<Access> {
    match permissions {
        Permissions::Unset | Permissions::Unreadable => None,
        Permissions::ReadAll => Some(Access::Read),
        Permissions::WriteAll => Some(Access::Admin),
        Permissions::Scopes(map) => Some(map.values().fold(Access::None, |top, level| {
            top.max(match level.as_str() {
                "write" => Access::Write,
                "read" => Access::Read,
                _ => Access::None,
            })
        })),
    }
}

/// What a job's token may do, one part per scope granted.
fn described(permissions: &Permissions) -> Vec<String> {
    let whole = |text: &str| vec![text.to_string()];
    match permissions {
        Permissions::Unset => whole("repository defaults (unknown)"),
        Permissions::Unreadable => whole("unresolved permissions (unknown)"),
        Permissions::ReadAll => whole("read-all"),
        Permissions::WriteAll => whole("write-all"),
        Permissions::Scopes(map) => {
            let granted: Vec<String> = map
                .iter()
                .filter(|(_, level)| level.as_str() != "none")
                .map(|(scope, level)| format!("{scope}: {level}"))
                .collect();
            if granted.is_empty() {
                whole("no token permissions")
            } else {
                granted
            }
        }
    }
}
