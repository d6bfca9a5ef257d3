//! The shipgate engine: git objects in, per-agent capability changes out.
//!
//! Layers, in data-flow order (see `ARCHITECTURE.md` at the repository root):
//! `git` reads objects, `python` turns one blob into cached `ModuleFacts`,
//! `frameworks` recognises agents and tools in those facts, `scope` derives
//! what to compare from the change, `graph` builds one side's agent graph, `reach` reads what each bound
//! tool's code reaches, `compare` makes rows and the contract document,
//! `render` prints it. `store` caches facts and graphs in sled, `engine`
//! drives one comparison, `index` warms the cache in the background and
//! `service` speaks gRPC. Only `python` and `frameworks` look at syntax.

pub mod cli;
pub mod compare;
pub mod engine;
pub mod error;
pub mod frameworks;
pub mod git;
pub mod graph;
pub mod history;
pub mod hosts;
pub mod index;
pub mod inventory;
pub mod json_fields;
pub mod packing;
pub mod paths;
pub mod policy;
pub mod pyrepr;
pub mod python;
pub mod reach;
pub mod recent;
pub mod renames;
pub mod render;
pub mod resolve;
pub mod scope;
pub mod server;
pub mod service;
pub mod store;
pub mod timings;
pub mod trace;
pub mod work;

/// Version of everything extracted from source (facts and graphs). Bump it
/// whenever `python/`, `frameworks/` or `graph/` would produce a different
/// value for the same bytes: cached entries of another version are never
/// read as current.
pub const ENGINE_FACTS_VERSION: u32 = 59;

/// The stack of every thread that parses or reads facts. Nesting is bounded
/// before parsing (`python::nesting`) and every reader bounds its own
/// depth; this is the generous fixed margin under those bounds. Only the
/// pages a thread touches are committed.
pub const WORK_STACK_BYTES: usize = 64 << 20;

/// The daemon's release, as reported by `Status` and compared by the client.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
