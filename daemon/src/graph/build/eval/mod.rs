//! The value reader: what a capability list, a member of one, an agent's
//! name or a call's argument is, evaluated over cached facts and never
//! run. Every reader of the graph (the SDK pass, the ADK pass, tool
//! factories) asks it; nothing here looks at syntax.
//!
//! What it evaluates, in a *frame* (a module body, or a function body
//! with its parameters bound to one call's arguments, inside the frame
//! that call is read in):
//! - displays (`[a, *b]`, tuples, sets) member by member, `+`, `or`,
//!   conditionals and comprehension filters, each member carrying the
//!   conditions it is bound under (`bound_when`) as source text
//!   (`list_exprs.rs`);
//! - names to their nearest binding, when it is bound once and every use
//!   of the name in its scope is a read (`list_uses.rs`: listing it,
//!   iterating it, passing it to a function that only reads it);
//! - dict entries by literal key, `d["k"]` and `d.get("k", default)`
//!   (`dict_entries.rs`);
//! - calls of the repository's own functions to their one return
//!   (`call_frames.rs`), a builder's parameter as the union of every
//!   call of the builder (`builder_callers.rs`), a factory's construction
//!   as one agent per call (`factory_agents.rs`);
//! - one argument's value as a digest spells it (`arguments.rs`);
//! - agent names through string constants a module binds or imports
//!   (`name_constants.rs`, with `frameworks::names`).
//!
//! What makes a value unknown (a named limit, with the file and line of
//! the place reading stopped, never silence): a name bound more than
//! once, conditionally, from a loop, or rebound by `global`/`nonlocal`; a
//! list some use could change (a method call, an alias, an import by
//! another module, a function that adds to what it is handed); a callee
//! that returns more than once, conditionally or not as its last
//! statement, is decorated, a generator, or rebound in a chain module; a
//! call passing `*`/`**` or leaving a parameter unbound; a caller set not
//! closed (the function used as a value, its module imported whole); a
//! value a repository function computes standing as an object's argument
//! (its spelling is not its value).
//!
//! Its bounds: calls nest at most `call_frames::MAX_CALL_DEPTH` (4) deep
//! and never re-enter a function being read; list expressions at most 16
//! levels and 1,000 members; names are followed at most 8 hops. Each
//! bound is a named limit when reached.

pub(super) mod arguments;
pub(super) mod branch_lists;
pub(super) mod builder_callers;
pub(super) mod built_agents;
pub(super) mod call_frames;
pub(super) mod comprehensions;
pub(super) mod dict_entries;
pub(super) mod factory_agents;
pub(super) mod list_additions;
pub(super) mod list_exprs;
pub(super) mod list_uses;
pub(super) mod name_constants;
pub(super) mod read_only_calls;
pub(super) mod registries;
