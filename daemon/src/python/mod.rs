//! Python source to cached facts. Pure: one blob's bytes in, `ModuleFacts`
//! out; never looks at another module (what an import resolves to belongs to
//! `graph/`). A file that does not parse yields facts that say so.

pub mod ast_dump;
pub mod call_binding;
mod extract;
mod facts;
mod function_body;
mod getattr_hook;
mod lines;
mod name_counts;
pub mod nesting;
pub mod operator;
mod rebinding;
mod registries;
pub mod stdlib;

pub use extract::extract_facts;
pub use facts::*;
pub use function_body::{FunctionBody, LazyBody, NameFilter, NameFilterBuilder};
pub use name_counts::NameCounts;
