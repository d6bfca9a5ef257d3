//! History (issue 10): which commits of a branch's first-parent history
//! changed an agent's bindings, each compared with its first parent from
//! the same cached graphs a diff uses. Each step (what one commit changed)
//! is indexed in the store by its two trees, so a repeated or extended
//! query reads only commits it has not seen.
//!
//! `step.rs` is what one commit changed and its key, `walk.rs` the walk
//! over a chain (each commit's graph its child's base, two built at once),
//! `document.rs` the answer's JSON and text.

mod document;
mod hosts;
mod step;
mod walk;

use document::{history_document, history_text};
pub use hosts::HostFilter;
pub use step::Step;

use crate::engine::Engine;
use crate::error::{field, DiffError, Reason};
use crate::git::{CommitInfo, Repository};
use crate::paths::normalize_scope;
use crate::pyrepr::str_repr;
use crate::render::{pyjson::to_pretty, text::one_line};
use gix::ObjectId;
use serde_json::{json, Value};
use std::path::PathBuf;

/// Commits one query walks at most.
pub const MAX_HISTORY_COMMITS: usize = 10_000;

pub const HISTORY_SCHEMA_VERSION: &str = "0.1";

/// A history query as asked (the client's flags).
#[derive(Debug, Clone, Default)]
pub struct HistoryRequest {
    pub workspace: PathBuf,
    /// Exclusive lower end; `None` = the root commit.
    pub since: Option<String>,
    /// Inclusive upper end; `None` = `HEAD`.
    pub until: Option<String>,
    pub agent: Option<String>,
    pub tool: Option<String>,
    pub scope: Option<String>,
    pub max_python_files: Option<u32>,
    pub max_commits: Option<u32>,
    pub want_text: bool,
    /// `history --host`: host-grant rows, kept by this filter, instead of
    /// agents' bindings.
    pub hosts: Option<HostFilter>,
}

/// A history query as answered.
#[derive(Debug, Clone)]
pub struct HistoryOutcome {
    pub document: Value,
    pub json: String,
    pub text: Option<String>,
}

/// Agent names an unknown `--agent` answer lists, at most.
const AGENTS_NAMED: usize = 10;

impl Engine {
    /// Answers a history query; `progress(done, total)` is called as steps
    /// are read (most from the index once a branch has been seen).
    pub fn history(
        &self,
        request: &HistoryRequest,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<HistoryOutcome, DiffError> {
        let scope = match &request.scope {
            Some(raw) => normalize_scope(raw).ok_or_else(|| {
                DiffError::usage(Reason::BadScope, crate::paths::scope_refusal(raw))
                    .about(field::SCOPE, raw.as_str())
            })?,
            None => ".".to_string(),
        };
        let max_files = request
            .max_python_files
            .unwrap_or(crate::engine::DEFAULT_MAX_PYTHON_FILES);
        let repo = Repository::discover(&request.workspace)?;
        let until_ref = request.until.clone().unwrap_or_else(|| "HEAD".to_string());
        let until = resolve(&repo, &until_ref, field::UNTIL)?;
        let until_tree = repo.commit_tree(until)?;
        let at = format!("{} ({})", one_line(&until_ref), until.to_hex_with_len(12));
        let missing = match repo.lookup_scope(until_tree, &scope)? {
            crate::git::ScopeLookup::Directory(_) => None,
            crate::git::ScopeLookup::Absent => Some("does not exist"),
            crate::git::ScopeLookup::NotADirectory => Some("is not a directory"),
        };
        if let Some(missing) = missing {
            // The command line adds what to pass instead (`--until`).
            return Err(DiffError::usage(
                Reason::ScopeNotAtRevision,
                format!(
                    "{} {missing} at {at}, so it has no history to read.",
                    str_repr(&scope)
                ),
            )
            .about(field::SCOPE, scope));
        }
        let (since, chain, truncated) = walked_chain(&repo, request, until)?;
        let total = chain.len();
        progress(0, total);
        let mut commits = Vec::new();
        let mut step_limits: std::collections::BTreeSet<String> = Default::default();
        let mut newest_caveats = Value::Array(Vec::new());
        let mut agents_seen: std::collections::BTreeSet<String> = Default::default();
        // The names the asked agent had, newest first: a commit that
        // renamed it in place adds its older name for the commits before.
        let mut followed: std::collections::BTreeSet<String> =
            request.agent.iter().cloned().collect();
        self.walk_steps(
            &repo,
            &chain,
            &scope,
            max_files,
            &mut |done, commit, step| {
                progress(done + 1, total);
                if done == 0 {
                    newest_caveats = caveats_of(step, request.agent.as_deref());
                }
                // Most steps name the agents and limits the step before named:
                // only a name not seen yet is copied.
                let renamed_from = step.renames.iter().map(|(_, from, _)| from);
                insert_new(&mut agents_seen, step.agents.iter().chain(renamed_from));
                insert_new(&mut step_limits, step.limits.iter());
                if let Some(entry) = commit_entry(commit, step, request, &followed) {
                    commits.push(entry);
                }
                for (_, from, to) in &step.renames {
                    if followed.contains(to) {
                        followed.insert(from.clone());
                    }
                }
            },
        )?;
        if let Some(agent) = request.agent.as_deref() {
            if !agents_seen.contains(agent) {
                return Err(unknown_agent(agent, &scope, total, &agents_seen));
            }
        }
        let mut document = history_document(
            request, &until_ref, until, since, &scope, total, truncated, commits,
        );
        // Lists that may change between calls, as of the newest commit.
        document["tool_list_stability"] = json!({"caveats": newest_caveats});
        // A bound some commit reached: its bindings were not all read.
        if let Some(limits) = document["limits"].as_array_mut() {
            for limit in step_limits {
                limits.push(json!(format!(
                    "Some commits were not read in full ({limit}); raise --max-python-files to read them."
                )));
            }
        }
        Ok(HistoryOutcome {
            json: to_pretty(&document),
            text: request.want_text.then(|| history_text(&document)),
            document,
        })
    }

    /// Indexes the steps of a branch's new commits (background indexing):
    /// from `head` back to `since` (exclusive), at most `max`. Returns how
    /// many steps were read.
    pub fn index_history(
        &self,
        repo: &Repository,
        head: ObjectId,
        since: Option<ObjectId>,
        max: usize,
        on_step: &mut dyn FnMut(StepsRead),
    ) -> Result<usize, DiffError> {
        let (chain, _) = repo.first_parent_chain(head, since, max)?;
        let total = chain.len();
        on_step(StepsRead { done: 0, total });
        self.walk_steps(
            repo,
            &chain,
            ".",
            crate::engine::DEFAULT_MAX_PYTHON_FILES,
            &mut |index, _, _| {
                on_step(StepsRead {
                    done: index + 1,
                    total,
                })
            },
        )?;
        Ok(total)
    }
}

/// How far an indexing pass has read a branch's history: `done` of the
/// `total` commits of its chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepsRead {
    pub done: usize,
    pub total: usize,
}

/// Adds to `seen` the names it does not hold yet, copying only those.
fn insert_new<'a>(
    seen: &mut std::collections::BTreeSet<String>,
    names: impl Iterator<Item = &'a String>,
) {
    for name in names {
        if !seen.contains(name) {
            seen.insert(name.clone());
        }
    }
}

/// The first-parent chain a query walks, newest first: from `until` back
/// to the request's `since` (exclusive, resolved and returned), at most
/// its `max_commits`; whether the bound cut it short.
pub(crate) fn walked_chain(
    repo: &Repository,
    request: &HistoryRequest,
    until: ObjectId,
) -> Result<(Option<ObjectId>, Vec<CommitInfo>, bool), DiffError> {
    let since = match &request.since {
        Some(rev) => Some(resolve(repo, rev, field::SINCE)?),
        None => None,
    };
    let max = request.max_commits.map_or(MAX_HISTORY_COMMITS, |m| {
        (m as usize).clamp(1, MAX_HISTORY_COMMITS)
    });
    let (chain, truncated) = crate::timings::phase!("history_chain")
        .in_scope(|| repo.first_parent_chain(until, since, max))?;
    Ok((since, chain, truncated))
}

/// `rev`, the value of the request field `field`, as a commit.
pub(crate) fn resolve(
    repo: &Repository,
    rev: &str,
    field: &'static str,
) -> Result<ObjectId, DiffError> {
    repo.resolve_commit(rev).ok_or_else(|| {
        DiffError::usage(
            Reason::BadRevision,
            format!("{rev} does not name a commit in this repository."),
        )
        .about(field, rev)
    })
}

/// An `--agent` no commit of the walked history builds: a usage error
/// naming the agents it does build, so a typo is not an empty answer.
fn unknown_agent(
    agent: &str,
    scope: &str,
    read: usize,
    seen: &std::collections::BTreeSet<String>,
) -> DiffError {
    let commits = if read == 1 { "commit" } else { "commits" };
    let seen_text = if seen.is_empty() {
        "no commit read builds an agent".to_string()
    } else {
        let mut names: Vec<String> = seen
            .iter()
            .take(AGENTS_NAMED)
            .map(|n| one_line(n))
            .collect();
        if seen.len() > AGENTS_NAMED {
            names.push(format!("and {} more", seen.len() - AGENTS_NAMED));
        }
        format!("agents seen: {}", names.join(", "))
    };
    DiffError::usage(
        Reason::UnknownAgent,
        format!(
            "no agent named {} in the history of scope {} ({read} {commits} read); {seen_text}.",
            str_repr(agent),
            one_line(scope)
        ),
    )
    .about(field::AGENT, agent)
}

/// The stability caveats a step records for its commit (its head side).
fn caveats_of(step: &Step, agent: Option<&str>) -> Value {
    let caveats = step
        .stability
        .as_deref()
        .and_then(|text| serde_json::from_str::<Value>(text).ok())
        .and_then(|value| value.get("caveats").cloned())
        .and_then(|value| value.as_array().cloned())
        .unwrap_or_default();
    Value::Array(
        caveats
            .into_iter()
            .filter(|c| agent.is_none_or(|a| c["agent"] == a))
            .collect(),
    )
}

/// One commit of the answer, its rows filtered by agent (any name it had
/// by then, `followed`) and tool; `None` when nothing it changed is asked
/// for.
fn commit_entry(
    commit: &CommitInfo,
    step: &Step,
    request: &HistoryRequest,
    followed: &std::collections::BTreeSet<String>,
) -> Option<Value> {
    let asked = |agent: &str| request.agent.is_none() || followed.contains(agent);
    let rows: Vec<Value> = step
        .rows
        .iter()
        .filter_map(|text| serde_json::from_str::<Value>(text).ok())
        .filter(|row| row["agent"].as_str().is_some_and(asked))
        .filter(|row| {
            request.tool.as_deref().is_none_or(|tool| {
                let bound = |side: &str| row[side]["tool"].as_str() == Some(tool);
                row["tool"] == tool || bound("before") || bound("after")
            })
        })
        .collect();
    let stability = step
        .stability
        .as_deref()
        .and_then(|text| serde_json::from_str::<Value>(text).ok())
        .filter(|_| request.tool.is_none())
        .map(|mut value| {
            if request.agent.is_some() {
                for key in ["order_changed", "caveats"] {
                    if let Some(list) = value[key].as_array_mut() {
                        list.retain(|entry| entry["agent"].as_str().is_some_and(asked));
                    }
                }
            }
            value
        })
        .filter(|value| {
            value["order_changed"]
                .as_array()
                .is_some_and(|l| !l.is_empty())
        });
    let renamed: Vec<Value> = step
        .renames
        .iter()
        .filter(|_| request.tool.is_none())
        .filter(|(_, _, to)| asked(to))
        .map(|(source, from, to)| json!({"agent_source": source, "from": from, "to": to}))
        .collect();
    // Declarations belong to a server's tool, not to an agent: an
    // `--agent` question is not about them.
    let declared: Vec<Value> = step
        .declared
        .iter()
        .filter(|_| request.agent.is_none())
        .filter_map(|text| serde_json::from_str::<Value>(text).ok())
        .filter(|entry| {
            request
                .tool
                .as_deref()
                .is_none_or(|tool| entry["tool"] == tool)
        })
        .collect();
    // What the commit changed but nothing reads could hold any agent's
    // change: listed under any filter, never skipped.
    let unread = &step.unread;
    if rows.is_empty()
        && stability.is_none()
        && renamed.is_empty()
        && declared.is_empty()
        && unread.is_empty()
    {
        return None;
    }
    let mut entry = json!({
        "commit": commit.id.to_string(),
        "parent": commit.parents.first().map(|p| p.to_string()),
        "author": commit.author,
        "date": commit.date(),
        "subject": commit.subject,
        "rows": rows,
    });
    if let Some(stability) = stability {
        entry["tool_list_stability"] = stability;
    }
    if !renamed.is_empty() {
        entry["renamed"] = Value::Array(renamed);
    }
    if !declared.is_empty() {
        entry["declared_effects"] = Value::Array(declared);
    }
    if !unread.is_empty() {
        entry["not_read"] = json!(unread);
    }
    Some(entry)
}
