//! Coding-agent host grants (issue 42): what a change does to the
//! configuration of the coding agents that work on the repository — the
//! MCP servers a project declares, permission rules and modes, hooks, and
//! the token permissions and triggers of CI workflows — one ranked row per
//! grant, as the reference's `diff` (without `--application`) prints it.
//!
//! Data flow, each step a module:
//! - `sources`: which paths are host sources, and which host reads each;
//! - `read` (with `claude`, `mcp`, `codex`, `workflow`): one blob's bytes to
//!   its grants (`grant`), or why it is malformed — a pure function of the
//!   bytes, so the engine keeps it by blob id;
//! - `inventory`: one commit's sources and their readings, kept per tree;
//! - `compare` (with `diff`, `rules`, `assess`, `label`,
//!   `workflow_authority`): two inventories to rows, coverage and status;
//! - `document`, `text`: the reference's JSON (schema 0.4) and text.
//!
//! Invariants: nothing secret is kept or printed (environment and header
//! values, arguments and URL paths are digests or withheld); a source that
//! does not read on a side is never compared (a blocking limit, the
//! comparison `incomparable`); a rule is claimed to cover another only
//! when it matches everything the other does under every reading of the
//! rule syntax (`rules`).

pub mod assess;
pub mod audit;
mod claude;
mod codex;
pub mod compare;
pub mod diff;
mod digest;
pub mod document;
pub mod drift;
pub mod formats;
pub mod grant;
mod guidance;
pub mod inventory;
mod jsonc;
pub mod label;
mod mcp;
pub mod read;
pub mod review;
pub mod rules;
pub mod sources;
pub mod text;
mod workflow;
mod workflow_authority;

/// The version of what `read` makes of a blob and `inventory` of a tree:
/// bumped whenever either changes, so a stored reading is never taken
/// for a newer reader's.
pub const HOST_READER_VERSION: u32 = 6;
