//! Rendering of a finished comparison document.
//!
//! Render only renders: these modules serialise, sanitise, hash and print a
//! document that the comparison layer already built. None of them reads
//! git, parses Python or decides what changed, so the JSON, the text, the
//! CI renderings (markdown, SARIF, GitHub annotations) and the
//! `comparison_id` can never disagree with one another.

pub mod findings;
pub mod format;
pub mod github;
pub mod id;
pub mod limits;
pub mod markdown;
pub mod pyjson;
pub mod row_facts;
pub mod sanitize;
pub mod sarif;
pub mod text;

pub use format::{render, OutputFormat};

/// What a document's `head.requested_ref` names the head by when it is the
/// working tree (`diff --worktree`), and what the text prints for it: no
/// git ref can be spelled with a space, so it is never a user's ref.
pub const WORKTREE_REF: &str = "working tree";

/// What a document's `head.requested_ref` names the head by when it is the
/// index (`diff --staged`); with a space, as [`WORKTREE_REF`].
pub const STAGED_REF: &str = "staged changes";
