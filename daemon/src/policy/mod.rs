//! The CI policy (issue 45): which changes fail an answer, so a pipeline
//! can stop a pull request that widens an agent.
//!
//! Off unless asked for, so the default exit codes stay the reference's
//! (0 for any comparison). It is asked for by the request's conditions
//! (`--fail-on`), by a policy file the caller sends (`--policy`), or by a
//! `shipgate.toml` with a `[policy]` table at the root of the **base**
//! commit. The base, never the head: a change must not be able to loosen
//! the gate it is judged by, as a branch's protection rules are the base
//! branch's. A team accepts a reviewed change with an allow entry, which
//! takes effect once it is on the base (or with `--policy`).
//!
//! The policy reads the answer's document only, after it is made: it adds
//! nothing to the document, the cache keys or the renderings, and the same
//! answer always meets the same conditions (`verdict.rs`).

mod file;
mod verdict;

use crate::error::{field, DiffError, Reason};
use crate::git::{PathEntry, Repository};
pub use shipgate_proto::policy::Condition;
use std::path::Path;
pub use verdict::{evaluate, Finding, Verdict};

/// The file a base commit's policy is read from, at its root.
pub const POLICY_FILE: &str = "shipgate.toml";

/// The most of a base's policy file that is read; a larger one is refused
/// (as a caller's `--policy` file is).
const MAX_POLICY_BYTES: u64 = shipgate_proto::cli::MAX_POLICY_BYTES;

/// A policy to apply to an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// Where it came from, for the report.
    pub source: String,
    /// The conditions that fail an answer, in canonical order.
    pub fail_on: Vec<Condition>,
    /// What a team accepted after review.
    pub allow: Vec<Allow>,
}

/// An allow entry: the rows it names meet their conditions without failing
/// the answer. It names an agent, a tool or both (one naming neither would
/// switch the policy off, so it is refused).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allow {
    pub agent: Option<String>,
    /// A row's tool; for a handoff or sub-agent row, its target agent's
    /// name matches too (the row's tool is `handoff:<file>:<agent>`).
    pub tool: Option<String>,
    /// The conditions it covers; empty = every condition of a row.
    pub conditions: Vec<Condition>,
    /// Why it was accepted (`reviewed in #412`), shown when it applies.
    pub reason: String,
}

/// A policy file's text and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyText {
    pub text: String,
    pub source: String,
}

/// What a request asks of the policy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolicyRequest {
    /// Conditions named by the caller; they replace the file's `fail-on`.
    pub fail_on: Vec<String>,
    /// A policy file the caller read; none = the base's `shipgate.toml`.
    pub file: Option<PolicyText>,
    /// No policy at all.
    pub off: bool,
}

/// The policy a request applies to an answer whose base is `base_commit`,
/// or none (nothing asked, or no condition named anywhere).
pub fn chosen(
    request: &PolicyRequest,
    workspace: &Path,
    base_commit: Option<&str>,
) -> Result<Option<Policy>, DiffError> {
    if request.off {
        return Ok(None);
    }
    let text = match &request.file {
        Some(text) => Some(text.clone()),
        None => match base_commit {
            Some(commit) => at_base(workspace, commit)?,
            None => None,
        },
    };
    let table = match &text {
        Some(text) => file::parse(&text.text).map_err(|why| bad_policy(&text.source, &why))?,
        None => None,
    };
    let flags = shipgate_proto::policy::parse_conditions(&request.fail_on)
        .map_err(|why| DiffError::usage(Reason::BadPolicy, why).about_field(field::FAIL_ON))?;
    let (fail_on, allow) = match table {
        Some(table) if flags.is_empty() => (table.fail_on, table.allow),
        Some(table) => (flags, table.allow),
        None => (flags, Vec::new()),
    };
    if fail_on.is_empty() {
        return Ok(None);
    }
    let file_source = text.map(|t| t.source);
    let source = match (request.fail_on.is_empty(), file_source) {
        (true, Some(file)) => file,
        (false, Some(file)) if !allow.is_empty() => {
            format!("--fail-on, with the allow entries of {file}")
        }
        _ => "--fail-on".to_string(),
    };
    Ok(Some(Policy {
        source,
        fail_on,
        allow,
    }))
}

/// The verdict of the chosen policy on an answer's document; none when no
/// policy applies.
pub fn verdict(
    request: &PolicyRequest,
    workspace: &Path,
    document: &serde_json::Value,
) -> Result<Option<Verdict>, DiffError> {
    if request.off {
        return Ok(None);
    }
    let base_commit = document
        .get("base")
        .and_then(|base| base.get("compared_commit"))
        .and_then(serde_json::Value::as_str);
    Ok(chosen(request, workspace, base_commit)?.map(|policy| evaluate(&policy, document)))
}

/// `shipgate.toml` at the root of a base commit, when it is a file there.
fn at_base(workspace: &Path, commit: &str) -> Result<Option<PolicyText>, DiffError> {
    let Ok(id) = gix::ObjectId::from_hex(commit.as_bytes()) else {
        return Ok(None);
    };
    let repo = Repository::discover(workspace)?;
    let tree = repo.commit_tree(id)?;
    let short = &commit[..commit.len().min(12)];
    let source = format!("{POLICY_FILE} at base {short}");
    let blob = match repo.entry_at(tree, POLICY_FILE)? {
        Some(PathEntry::Blob(blob)) => blob,
        // A directory, link or submodule of that name holds no policy
        // this reads: said, rather than silently no gate.
        Some(_) => {
            return Err(bad_policy(
                &source,
                "it is not a regular file (a directory, link or submodule)",
            ))
        }
        None => return Ok(None),
    };
    if repo.blob_size(blob)? > MAX_POLICY_BYTES {
        return Err(bad_policy(
            &source,
            &format!("it is larger than {MAX_POLICY_BYTES} bytes"),
        ));
    }
    let bytes = repo.read_blob(blob)?;
    let text = String::from_utf8(bytes).map_err(|_| bad_policy(&source, "it is not UTF-8"))?;
    Ok(Some(PolicyText { text, source }))
}

fn bad_policy(source: &str, why: &str) -> DiffError {
    DiffError::config(
        Reason::BadPolicy,
        format!("The policy in {source} cannot be applied: {why}"),
    )
    .about_field(field::POLICY)
}
