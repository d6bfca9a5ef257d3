//! Rendering of a finished comparison document.
//!
//! Render only renders: these modules serialise, sanitise, hash and print a
//! document that the comparison layer already built. None of them reads
//! git, parses Python or decides what changed, so the JSON, the text and
//! the `comparison_id` can never disagree with one another.

pub mod findings;
pub mod id;
pub mod pyjson;
pub mod sanitize;
pub mod text;
