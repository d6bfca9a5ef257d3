//! Google ADK agents of a repository class deriving from `BaseAgent`
//! that run nothing (issue 41, item 2, its first shape): `class
//! SpikeAgent(BaseAgent)` whose `_run_async_impl` only yields an `Event`
//! is read, at each construction, as a workflow agent binding the
//! `sub_agents=` it is given — what the spec reads of any ADK agent.
//!
//! A `BaseAgent` subclass runs code of its own (`_run_async_impl`), which
//! may run any agent or tool it can reach; that is why its constructions
//! are a named limit. The rule that makes this one readable: besides the
//! pass-through rule (`agent_classes.rs`: one base, no decorator but
//! `dataclass`, no capability field, accessor or hook spelled, no
//! reflection, an `__init__` that only forwards), every call its methods
//! make is one that runs no agent and no tool: the framework's event and
//! content constructors (`google.adk.events.Event`, `EventActions`,
//! `google.genai.types.Content`/`Part`), `print`/`len`/`str`/`repr`/
//! `isinstance` where the module binds no such name, and a method of a
//! logger the module binds once to `logging.getLogger(...)`. A call of
//! anything else (another agent's `run_async`, a helper, `ctx.…`) leaves
//! the class a limit, with the call named. Without a call it can reach,
//! the class can only yield what its code spells.

use super::class_rules::{methods, super_method};
use super::imports::imported_name;
use crate::pyrepr::str_repr;
use crate::python::{
    BindingKind, BodyCall, CallFact, ClassFact, FunctionFact, ModuleFacts, Value,
    CAPABILITY_KEYWORDS,
};

/// Framework callables that build a value and run nothing.
const INERT_FRAMEWORK_CALLS: &[&str] = &[
    "google.adk.events.Event",
    "google.adk.events.event.Event",
    "google.adk.events.EventActions",
    "google.adk.events.event_actions.EventActions",
    "google.genai.types.Content",
    "google.genai.types.Part",
];

/// Builtins that run no repository code on the values these methods
/// handle (strings, events).
pub(super) const INERT_BUILTINS: &[&str] = &["print", "len", "str", "repr", "isinstance"];

/// The logger methods a run may call.
pub(super) const LOGGER_METHODS: &[&str] = &["debug", "info", "warning", "error", "exception"];

/// Whether every call of the class's methods is inert; else why not.
pub fn runs_nothing(facts: &ModuleFacts, class: &ClassFact) -> Result<(), String> {
    for method in methods(facts, class) {
        // `__init__` only forwards (the pass-through rule checks it).
        if method.qualname == format!("{}.__init__", class.qualname) {
            continue;
        }
        if let Some(call) = method
            .body()
            .body_calls
            .iter()
            .find(|call| !inert(facts, method, call))
        {
            return Err(may_run(method, call, ""));
        }
    }
    Ok(())
}

/// The methods through which Google ADK runs an agent (and the flow its
/// model loop runs): an `LlmAgent` subclass overriding one runs its own
/// code in place of the model's loop, which can run any agent or tool.
const RUN_METHODS: &[&str] = &[
    "_run_async_impl",
    "_run_live_impl",
    "run_async",
    "run_live",
    "_llm_flow",
];

/// Whether every run method an `LlmAgent` subclass overrides only
/// delegates (issue 41, item 2): each call it makes, nested definitions
/// included, is `super()` or a run method of `super()`
/// (`async for e in super()._run_async_impl(ctx): yield e`), or one that
/// runs nothing (`inert`). Then the agent runs the base class's loop over
/// the fields the reader reads. Else why not, with the call named.
pub fn run_methods_delegate(facts: &ModuleFacts, class: &ClassFact) -> Result<(), String> {
    let prefix = format!("{}.", class.qualname);
    for method in methods(facts, class) {
        let own = method.qualname.strip_prefix(&prefix).unwrap_or_default();
        let run_method = own.split('.').next().unwrap_or(own);
        if !RUN_METHODS.contains(&run_method) {
            continue;
        }
        let delegates = |call: &BodyCall| match (call.receiver.is_some(), super_method(call)) {
            (true, called) => called.is_some_and(|called| RUN_METHODS.contains(&called)),
            (false, _) => {
                matches!(&call.callee, Value::Name(n) if n == "super" && call.args.is_empty())
                    || inert(facts, method, call)
            }
        };
        if let Some(call) = method.body().body_calls.iter().find(|c| !delegates(c)) {
            return Err(may_run(method, call, " in place of the model's loop"));
        }
    }
    Ok(())
}

/// Why a method's call keeps the class unread: `…calls X at line N, which
/// may run an agent or a tool`, and what it runs in place of (`place`).
fn may_run(method: &FunctionFact, call: &BodyCall, place: &str) -> String {
    format!(
        "its method {} calls {} at line {}, which may run an agent or a tool{place}",
        str_repr(&method.name),
        call.callee
            .dotted()
            .unwrap_or_else(|| "a computed callee".into()),
        call.line
    )
}

fn inert(facts: &ModuleFacts, method: &FunctionFact, call: &BodyCall) -> bool {
    if imported_name(facts, &call.callee, &method.qualname)
        .is_some_and(|name| INERT_FRAMEWORK_CALLS.contains(&name.as_str()))
    {
        return true;
    }
    match &call.callee {
        Value::Name(name) => {
            INERT_BUILTINS.contains(&name.as_str())
                && !facts.module_bindings_named(name).any(|b| b.name == *name)
                && method.locals_named(name).next().is_none()
        }
        Value::Attribute(parts) => match parts.as_slice() {
            [logger, method] => {
                LOGGER_METHODS.contains(&method.as_str()) && is_module_logger(facts, logger)
            }
            _ => false,
        },
        _ => false,
    }
}

/// `logger = logging.getLogger(...)`, the module's one binding of the name.
pub(super) fn is_module_logger(facts: &ModuleFacts, name: &str) -> bool {
    let mut bindings = facts.module_bindings_named(name).filter(|b| b.name == name);
    let (Some(only), None) = (bindings.next(), bindings.next()) else {
        return false;
    };
    only.kind == BindingKind::Assignment
        && matches!(&only.value, Some(Value::Call { callee, .. })
            if imported_name(facts, callee, "").as_deref() == Some("logging.getLogger"))
}

/// `BaseAgent` takes `sub_agents=` and no other capability field: a
/// construction passing one (which the framework refuses) is not read.
pub fn takes_only_sub_agents(call: &CallFact) -> Result<(), String> {
    match call.keywords.iter().find_map(|k| {
        k.name
            .as_deref()
            .filter(|name| *name != "sub_agents" && CAPABILITY_KEYWORDS.contains(name))
    }) {
        Some(field) => Err(format!("it passes {field}=, which BaseAgent does not take")),
        None => Ok(()),
    }
}
