//! History (issue 10): which commits of a branch's first-parent history
//! changed an agent's bindings, each compared with its first parent from
//! the same cached graphs a diff uses. Each step (what one commit changed)
//! is indexed in the store by its two trees, so a repeated or extended
//! query reads only commits it has not seen.

use crate::compare::document::{row_json, stability_object};
use crate::compare::stability::stability;
use crate::compare::{Change, Row};
use crate::engine::Engine;
use crate::error::{field, DiffError, Reason};
use crate::git::{CommitInfo, Repository};
use crate::graph::SideGraph;
use crate::paths::{normalize_scope, rooted};
use crate::pyrepr::str_repr;
use crate::render::{pyjson::to_pretty, sanitize::sanitize, text::one_line};
use crate::store::Namespace;
use gix::ObjectId;
use serde::{Deserialize, Serialize};
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
}

/// A history query as answered.
#[derive(Debug, Clone)]
pub struct HistoryOutcome {
    pub document: Value,
    pub json: String,
    pub text: Option<String>,
}

/// What one commit changed against its first parent, as stored.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Step {
    /// Each binding-changing row as its JSON text (the diff's row shape).
    pub rows: Vec<String>,
    /// `tool_list_stability` as JSON text, when there is any.
    pub stability: Option<String>,
    /// Limits over the whole scope of the commit (a bound reached): its
    /// rows may be incomplete, and the answer says so.
    pub limits: Vec<String>,
    /// Every agent either side of the step builds, sorted: whether an
    /// `--agent` filter names an agent the history ever had.
    pub agents: Vec<String>,
    /// Agents the commit renamed in place, `(file, base name, head name)`:
    /// an `--agent` filter follows its agent through them.
    #[serde(default)]
    pub renames: Vec<(String, String, String)>,
    /// Each `declared_effects` entry of the step as its JSON text (the
    /// diff's shape): a declaration its tool's reach came to contradict,
    /// or no longer does (`compare::declared`).
    #[serde(default)]
    pub declared: Vec<String>,
    /// Inputs the commit changed that are never read (a submodule, a
    /// directory past the depth bound), as their limits say them: the
    /// commit is listed with them, since what they hold is not known.
    #[serde(default)]
    pub unread: Vec<String>,
}

/// The version of a stored step's shape and content, part of its key.
const STEP_VERSION: u32 = 6;

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
        let since = match &request.since {
            Some(rev) => Some(resolve(&repo, rev, field::SINCE)?),
            None => None,
        };
        let max = request.max_commits.map_or(MAX_HISTORY_COMMITS, |m| {
            (m as usize).clamp(1, MAX_HISTORY_COMMITS)
        });
        let (chain, truncated) = crate::timings::phase!("history_chain")
            .in_scope(|| repo.first_parent_chain(until, since, max))?;
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
        for (done, commit) in chain.iter().enumerate() {
            crate::work::checkpoint()?;
            let step = crate::timings::phase!("history_step").in_scope(|| {
                let parent_tree = parent_tree(&repo, commit, chain.get(done + 1))?;
                self.history_step(&repo, commit, parent_tree, &scope, max_files)
            })?;
            progress(done + 1, total);
            if done == 0 {
                newest_caveats = caveats_of(&step, request.agent.as_deref());
            }
            // Most steps name the agents and limits the step before named:
            // only a name not seen yet is copied.
            let renamed_from = step.renames.iter().map(|(_, from, _)| from);
            insert_new(&mut agents_seen, step.agents.iter().chain(renamed_from));
            insert_new(&mut step_limits, step.limits.iter());
            if let Some(entry) = commit_entry(commit, &step, request, &followed) {
                commits.push(entry);
            }
            for (_, from, to) in &step.renames {
                if followed.contains(to) {
                    followed.insert(from.clone());
                }
            }
        }
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

    /// What one commit changed against its first parent (whose tree is
    /// `parent_tree`, `None` for a root commit), from the index when it
    /// was read before.
    pub fn history_step(
        &self,
        repo: &Repository,
        commit: &CommitInfo,
        parent_tree: Option<ObjectId>,
        scope: &str,
        max_files: u32,
    ) -> Result<Step, DiffError> {
        let key = step_key(parent_tree, commit.tree, scope, max_files);
        let cache = self.cache();
        if let Some(step) =
            cache.get::<Step>(Namespace::History, key.as_bytes(), Some(&cache.history))
        {
            return Ok(step);
        }
        let base = match parent_tree {
            Some(tree) => self.side_graph(repo, tree, scope, max_files)?,
            // A root commit: nothing was bound before it.
            None => SideGraph::default(),
        };
        let head = self.side_graph(repo, commit.tree, scope, max_files)?;
        let pair = self.finish_pair(repo, base, head, scope, scope);
        let rows = pair
            .rows
            .iter()
            .filter(|row| changes_binding(row))
            .map(|row| row_json(row, scope, scope).to_string())
            .collect();
        let stability =
            stability_object(&stability(&pair.base, &pair.head), scope).map(|v| v.to_string());
        let limits = pair
            .head
            .gaps
            .iter()
            .filter(|gap| gap.source.is_none())
            .map(|gap| gap.reason.clone())
            .collect();
        let mut agents: Vec<String> = pair
            .base
            .agents
            .iter()
            .chain(pair.head.agents.iter())
            .map(|agent| agent.name.clone())
            .collect();
        agents.sort();
        agents.dedup();
        let renames = pair
            .agent_renames
            .iter()
            .map(|r| (rooted(scope, &r.agent_source), r.from.clone(), r.to.clone()))
            .collect();
        let declared = match crate::compare::declared::declared_effects_json(
            &crate::compare::declared::declared_changes(&pair.base, &pair.head),
            scope,
            scope,
        ) {
            Value::Array(entries) => entries.iter().map(Value::to_string).collect(),
            _ => Vec::new(),
        };
        let step = Step {
            rows,
            stability,
            limits,
            agents,
            renames,
            declared,
            unread: pair.unread_changes.clone(),
        };
        if let Err(err) = cache.put(Namespace::History, key.as_bytes(), &step) {
            eprintln!("shipgate: could not index a history step: {err}");
        }
        Ok(step)
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
        for (index, commit) in chain.iter().enumerate() {
            crate::work::checkpoint()?;
            let parent_tree = parent_tree(repo, commit, chain.get(index + 1))?;
            self.history_step(
                repo,
                commit,
                parent_tree,
                ".",
                crate::engine::DEFAULT_MAX_PYTHON_FILES,
            )?;
            on_step(StepsRead {
                done: index + 1,
                total,
            });
        }
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

/// The tree of `commit`'s first parent; `None` for a root commit. A
/// first-parent chain lists each commit's first parent right after it
/// (`next`), its tree already read: only the chain's last commit has its
/// parent read again.
fn parent_tree(
    repo: &Repository,
    commit: &CommitInfo,
    next: Option<&CommitInfo>,
) -> Result<Option<ObjectId>, DiffError> {
    let Some(parent) = commit.parents.first() else {
        return Ok(None);
    };
    match next {
        Some(next) if next.id == *parent => Ok(Some(next.tree)),
        _ => Ok(Some(repo.commit_tree(*parent)?)),
    }
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

/// A step is indexed by both trees, the scope and the bound.
fn step_key(
    parent_tree: Option<ObjectId>,
    tree: ObjectId,
    scope: &str,
    max_files: u32,
) -> blake3::Hash {
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"history-step");
    hasher.update(&crate::ENGINE_FACTS_VERSION.to_be_bytes());
    hasher.update(&STEP_VERSION.to_be_bytes());
    if let Some(tree) = &parent_tree {
        hasher.update(tree.as_bytes());
    }
    hasher.update(&[0]);
    hasher.update(tree.as_bytes());
    hasher.update(scope.as_bytes());
    hasher.update(&[0]);
    hasher.update(&max_files.to_be_bytes());
    hasher.finalize()
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

/// A row that says a binding changed: added, removed, changed, or not
/// established where the two sides differ (an uncertainty that only
/// persists is not a change of this commit).
fn changes_binding(row: &Row) -> bool {
    match row.change {
        Change::Added | Change::Removed | Change::Changed => true,
        Change::NotEstablished => {
            row.before.as_ref().map(|b| (&b.edge, &b.settings))
                != row.after.as_ref().map(|b| (&b.edge, &b.settings))
        }
    }
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

#[allow(clippy::too_many_arguments)]
fn history_document(
    request: &HistoryRequest,
    until_ref: &str,
    until: ObjectId,
    since: Option<ObjectId>,
    scope: &str,
    read: usize,
    truncated: bool,
    commits: Vec<Value>,
) -> Value {
    let mut limits: Vec<String> = Vec::new();
    if truncated {
        limits.push(format!(
            "History was read for the newest {read} commits only; older commits are not compared."
        ));
    }
    let mut doc = json!({
        "history_schema_version": HISTORY_SCHEMA_VERSION,
        "until": {"requested_ref": until_ref, "commit": until.to_string()},
        "since": since.map(|s| json!({"requested_ref": request.since, "commit": s.to_string()})),
        "scope": scope,
        "filters": {"agent": request.agent, "tool": request.tool},
        "commits_read": read,
        "commits": commits,
        "limits": limits,
        "advisory": crate::compare::document::ADVISORY_LIMITS[2],
    });
    sanitize(&mut doc);
    doc
}

/// How a commit's text names the agent of a row (or a reordered list):
/// by name, and with its file when another agent of the commit shares the
/// name (`agent (examples/b.py)`).
fn agent_names(commit: &Value) -> impl Fn(&Value) -> String {
    let entries: Vec<(String, String)> = commit["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(
            commit["tool_list_stability"]["order_changed"]
                .as_array()
                .into_iter()
                .flatten(),
        )
        .map(|entry| {
            (
                entry_agent(entry).to_string(),
                entry_source(entry).to_string(),
            )
        })
        .collect();
    move |entry: &Value| {
        let agent = entry_agent(entry);
        let source = entry_source(entry);
        let shared = entries.iter().any(|(a, s)| a == agent && s != source);
        if shared && !source.is_empty() {
            format!("{agent} ({source})")
        } else {
            agent.to_string()
        }
    }
}

fn entry_agent(entry: &Value) -> &str {
    entry["agent"].as_str().unwrap_or_default()
}

/// A row's agent source (its after side's, else its before side's, else
/// its own), or a reordered list's.
fn entry_source(entry: &Value) -> &str {
    ["after", "before"]
        .iter()
        .filter_map(|side| entry[*side]["agent_source"].as_str())
        .chain(entry["agent_source"].as_str())
        .find(|s| !s.is_empty())
        .unwrap_or_default()
}

/// The text of a history answer: a line per commit that changed a
/// binding, its rows under it.
fn history_text(doc: &Value) -> String {
    let commits = doc["commits"].as_array().map_or(&[][..], Vec::as_slice);
    let mut out = format!(
        "Agent history: {} commit{} changed agent bindings ({} read, scope {})\n",
        commits.len(),
        if commits.len() == 1 { "" } else { "s" },
        doc["commits_read"],
        one_line(doc["scope"].as_str().unwrap_or("."))
    );
    for commit in commits {
        let id: String = commit["commit"]
            .as_str()
            .unwrap_or_default()
            .chars()
            .take(12)
            .collect();
        out.push_str(&one_line(&format!(
            "{id} {} {}: {}",
            commit["date"].as_str().unwrap_or_default(),
            commit["author"].as_str().unwrap_or_default(),
            commit["subject"].as_str().unwrap_or_default()
        )));
        out.push('\n');
        let named = agent_names(commit);
        for row in commit["rows"].as_array().into_iter().flatten() {
            out.push_str(&one_line(&format!(
                "  {}  {} → {}",
                row["change"].as_str().unwrap_or_default().to_uppercase(),
                named(row),
                row["tool"].as_str().unwrap_or_default()
            )));
            out.push('\n');
            // A gate that moved is what the step did to the tool.
            for gate in row["gate_changes"].as_array().into_iter().flatten() {
                out.push_str(&one_line(&format!(
                    "    gate {}",
                    gate["text"].as_str().unwrap_or_default()
                )));
                out.push('\n');
            }
        }
        for declared in commit["declared_effects"].as_array().into_iter().flatten() {
            let server = match declared["server"].as_str() {
                Some(name) => format!("MCP server '{name}'"),
                None => "MCP server".to_string(),
            };
            out.push_str(&one_line(&format!(
                "  DECLARED  {} ({server}, {}): {} [{}]",
                declared["tool"].as_str().unwrap_or_default(),
                declared["source"].as_str().unwrap_or_default(),
                declared["text"].as_str().unwrap_or_default(),
                declared["change"]
                    .as_str()
                    .unwrap_or_default()
                    .replace('_', " ")
            )));
            out.push('\n');
        }
        for reason in commit["not_read"].as_array().into_iter().flatten() {
            out.push_str(&one_line(&format!(
                "  NOT READ  {}",
                reason.as_str().unwrap_or_default()
            )));
            out.push('\n');
        }
        for renamed in commit["renamed"].as_array().into_iter().flatten() {
            out.push_str(&one_line(&format!(
                "  RENAMED  {} → {} ({})",
                renamed["from"].as_str().unwrap_or_default(),
                renamed["to"].as_str().unwrap_or_default(),
                renamed["agent_source"].as_str().unwrap_or_default()
            )));
            out.push('\n');
        }
        if let Some(changes) = commit["tool_list_stability"]["order_changed"].as_array() {
            for change in changes {
                let list = |key: &str| {
                    change[key]
                        .as_array()
                        .map(|l| {
                            l.iter()
                                .filter_map(Value::as_str)
                                .collect::<Vec<_>>()
                                .join(", ")
                        })
                        .unwrap_or_default()
                };
                out.push_str(&one_line(&format!(
                    "  order changed (not a binding change): {}: {} → {}",
                    named(change),
                    list("before"),
                    list("after")
                )));
                out.push('\n');
            }
        }
    }
    for caveat in doc["tool_list_stability"]["caveats"]
        .as_array()
        .into_iter()
        .flatten()
    {
        out.push_str(&one_line(&format!(
            "tool list may differ between calls: {} ({}): {}",
            caveat["agent"].as_str().unwrap_or_default(),
            caveat["agent_source"].as_str().unwrap_or_default(),
            caveat["why"].as_str().unwrap_or_default()
        )));
        out.push('\n');
    }
    for limit in doc["limits"].as_array().into_iter().flatten() {
        out.push_str(&one_line(&format!(
            "limit: {}",
            limit.as_str().unwrap_or_default()
        )));
        out.push('\n');
    }
    out.push_str(doc["advisory"].as_str().unwrap_or_default());
    out.push('\n');
    out
}
