//! `history --host` (issue 42, item 3): which commits of a branch's
//! first-parent history changed a coding-agent host grant, each commit's
//! inventory compared with its first parent's — the same inventories
//! (kept per tree) and the same comparison a host diff makes. A commit
//! whose host sources did not change costs a lookup: equal inventories
//! are not compared.

use super::{resolve, walked_chain, HistoryOutcome, HistoryRequest};
use crate::engine::Engine;
use crate::error::{field, DiffError, Reason};
use crate::git::Repository;
use crate::hosts::compare::compare;
use crate::hosts::diff::HostRow;
use crate::hosts::document::{rows as row_documents, status};
use crate::hosts::inventory::HostInventory;
use crate::hosts::sources::Host;
use crate::render::pyjson::to_pretty;
use crate::render::text::one_line;
use serde_json::{json, Value};
use std::fmt::Write;

pub const HOST_HISTORY_SCHEMA_VERSION: &str = "0.1";

/// Which host rows a `history --host` keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostFilter {
    /// Only this host's rows (`claude-code`, `github`…).
    pub host: Option<String>,
    /// Only rows whose grant names this text (a rule, a server, a setting).
    pub grant: Option<String>,
}

impl HostFilter {
    fn keeps(&self, row: &HostRow) -> bool {
        let host = self.host.as_deref().is_none_or(|h| h == row.host.name());
        let grant = self.grant.as_deref().is_none_or(|g| {
            [&row.before, &row.after]
                .into_iter()
                .flatten()
                .any(|shown| shown.short.contains(g) || shown.long.contains(g))
        });
        host && grant
    }
}

impl Engine {
    /// Answers `history --host`; `progress(done, total)` as commits are read.
    pub fn host_history(
        &self,
        request: &HistoryRequest,
        filter: &HostFilter,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<HistoryOutcome, DiffError> {
        if let Some(host) = filter.host.as_deref() {
            if !Host::ALL.iter().any(|h| h.name() == host) {
                let known: Vec<&str> = Host::ALL.iter().map(|h| h.name()).collect();
                return Err(DiffError::usage(
                    Reason::UnknownHost,
                    format!(
                        "No host is named {host}; the hosts read are {}.",
                        known.join(", ")
                    ),
                ));
            }
        }
        let repo = Repository::discover(&request.workspace)?;
        let until_ref = request.until.clone().unwrap_or_else(|| "HEAD".to_string());
        let until = resolve(&repo, &until_ref, field::UNTIL)?;
        let (_, chain, truncated) = walked_chain(&repo, request, until)?;
        let total = chain.len();
        progress(0, total);
        // The oldest commit's parent (none at the root) is where the walk
        // starts from.
        let mut previous = match chain.last().and_then(|c| c.parents.first()) {
            Some(parent) => self.host_inventory(&repo, *parent)?,
            None => HostInventory::default(),
        };
        let mut commits = Vec::new();
        for (done, commit) in chain.iter().rev().enumerate() {
            crate::work::checkpoint()?;
            let current = self.host_inventory(&repo, commit.id)?;
            if current != previous {
                let mut comparison = compare(&previous, &current);
                comparison.rows.retain(|row| filter.keeps(row));
                if !comparison.rows.is_empty() || !comparison.incomparable.is_empty() {
                    commits.push(json!({
                        "author": commit.author,
                        "comparison_status": status(&comparison),
                        "commit": commit.id.to_string(),
                        "date": commit.date(),
                        "incomparable_reasons": comparison.incomparable,
                        "rows": row_documents(&comparison),
                        "subject": commit.subject,
                    }));
                }
            }
            previous = current;
            progress(done + 1, total);
        }
        commits.reverse();
        let document = json!({
            "commits": commits,
            "commits_read": total,
            "filters": {"grant": filter.grant, "host": filter.host},
            "host_history_schema_version": HOST_HISTORY_SCHEMA_VERSION,
            "since": request.since,
            "truncated": truncated,
            "until": {"commit": until.to_string(), "ref": until_ref},
        });
        Ok(HistoryOutcome {
            json: to_pretty(&document),
            text: request.want_text.then(|| text(&document)),
            document,
        })
    }
}

/// The answer as text: one block per commit, newest first.
fn text(doc: &Value) -> String {
    let mut out = String::new();
    let commits = doc["commits"].as_array().map_or(&[][..], Vec::as_slice);
    let until = &doc["until"];
    let _ = writeln!(
        out,
        "Host-grant history of {} ({}): {} commit(s) read, {} changed a host grant{}.",
        until["ref"].as_str().unwrap_or(""),
        until["commit"]
            .as_str()
            .unwrap_or("")
            .get(..8)
            .unwrap_or(""),
        doc["commits_read"],
        commits.len(),
        if doc["truncated"] == json!(true) {
            " (the walk stopped at --max-commits)"
        } else {
            ""
        }
    );
    for commit in commits {
        let _ = writeln!(
            out,
            "\n{} {} {}",
            commit["commit"]
                .as_str()
                .unwrap_or("")
                .get(..8)
                .unwrap_or(""),
            commit["date"].as_str().unwrap_or(""),
            one_line(commit["subject"].as_str().unwrap_or(""))
        );
        if commit["comparison_status"] != json!("comparable") {
            let _ = writeln!(
                out,
                "  not every host source read: {}",
                commit["incomparable_reasons"]
                    .as_array()
                    .map(|r| r
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(", "))
                    .unwrap_or_default()
            );
        }
        for row in commit["rows"].as_array().into_iter().flatten() {
            let s = |k: &str| one_line(row[k].as_str().unwrap_or(""));
            let marker = if row["expands"] == json!(true) {
                "⚠"
            } else {
                " "
            };
            let what = match s("direction").as_str() {
                "added" => s("after"),
                "removed" => format!("{} → gone", s("before")),
                _ => format!("{} → {}", s("before"), s("after")),
            };
            let _ = writeln!(
                out,
                "  {marker} {} {} {}: {what}\n      {}",
                s("severity"),
                s("direction"),
                s("subject"),
                s("why")
            );
        }
    }
    out
}
