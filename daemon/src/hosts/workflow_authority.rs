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
                    for (scope, level) in map.iter().filter(|(_, l)| l.as_str() == "write") {
                        let _ = level;
                        scopes.insert(format!("{job}: {scope}"));
                    }
                }
                _ => {}
            }
        }
        scopes
    }

    /// The highest access of any token; `None` when one is unknown.
    fn highest(&self) -> Option<Access> {
        let mut highest = Access::None;
        for (_, permissions) in &self.effective {
            highest = highest.max(access(permissions)?);
        }
        Some(highest)
    }

    /// The highest access as the inventory names it (`unknown` when a
    /// token is the repository's default).
    pub fn access_name(&self) -> &'static str {
        self.highest().map_or("unknown", Access::name)
    }

    /// Where this authority stands against `before`: more, less, or
    /// neither (`None`: equal or not comparable).
    pub fn compared_to(&self, before: &Authority<'_>) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering::*;
        let (writes_after, writes_before) = (self.write_scopes(), before.write_scopes());
        let privileged = |w: &Workflow| w.triggers.iter().any(|t| t == "pull_request_target");
        let more = !writes_after.is_subset(&writes_before)
            || (privileged(self.workflow) && !privileged(before.workflow))
            || (self.unknown() && !before.unknown())
            || matches!((self.highest(), before.highest()), (Some(a), Some(b)) if a > b);
        let less = !writes_before.is_subset(&writes_after)
            || (privileged(before.workflow) && !privileged(self.workflow))
            || (before.unknown() && !self.unknown())
            || matches!((self.highest(), before.highest()), (Some(a), Some(b)) if a < b);
        match (more, less) {
            (true, false) => Some(Greater),
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
                parts.push(format!("{job}: {}", described(permissions)));
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
        for (step, runs) in shown {
            parts.push(format!("{step}: {runs}"));
        }
        parts.join(", ")
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

fn described(permissions: &Permissions) -> String {
    match permissions {
        Permissions::Unset => "repository defaults (unknown)".to_string(),
        Permissions::Unreadable => "unresolved permissions (unknown)".to_string(),
        Permissions::ReadAll => "read-all".to_string(),
        Permissions::WriteAll => "write-all".to_string(),
        Permissions::Scopes(map) => {
            let granted: Vec<String> = map
                .iter()
                .filter(|(_, level)| level.as_str() != "none")
                .map(|(scope, level)| format!("{scope}: {level}"))
                .collect();
            if granted.is_empty() {
                "no token permissions".to_string()
            } else {
                granted.join(", ")
            }
        }
    }
}
