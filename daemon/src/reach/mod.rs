//! What a bound tool reaches (issue 8): the outbound HTTP calls its own
//! code and its repository helpers make, up to three helper calls deep, the
//! effects it has through a recognised library (database, process,
//! filesystem, cloud, messaging), and every other call as a named limit.
//!
//! Read from cached facts only (`FunctionFact::body_calls`, bindings,
//! imports): nothing is parsed here and nothing is run. Libraries are
//! recognised by import identity (`frameworks::imports::imported_name`),
//! never by a name alone; a repository module spelled like a library is
//! the repository's. Reach is evidence: it never makes a row changed.

mod callers;
mod census;
mod libraries;
mod memo_key;
pub mod model;
mod names;
mod values;
mod walk;

pub use census::Census;
pub use model::{Claim, Reach};

use crate::python::call_binding::Passed;
use crate::python::{BindingKind, FunctionFact, ModuleFacts, Text, Value};
use crate::resolve::{ModuleSet, Resolver};
use std::collections::BTreeMap;
use std::rc::Rc;
use values::Sources;

/// Helper calls followed from the tool, at most.
pub const MAX_HELPER_DEPTH: usize = 3;
/// Calls listed; more still count for the effect.
pub const MAX_CALLS: usize = 24;
/// Limits listed; the rest are counted.
pub const MAX_LIMITS: usize = 12;
/// Steps one side's reach read may take, across all its tools: a step is
/// one function body entered, one call in it read, or one helper's
/// remembered reach taken again. What is left when they are spent is a
/// named limit ([`walk::budget_spent`]), never a crash and never silence.
pub const WORK_BUDGET: usize = 200_000;

/// Reads what one side's function tools reach. Its tools share what their
/// helpers reach (read once per helper and binding of its parameters), the
/// scope's census (patches, namespace changes) and one work budget; each
/// definition is read once.
pub struct ToolReader<'s, 'm> {
    modules: &'s ModuleSet<'m>,
    census: Census,
    side: walk::Side,
    memo: BTreeMap<(String, u32), Option<Reach>>,
}

impl<'s, 'm> ToolReader<'s, 'm> {
    pub fn new(modules: &'s ModuleSet<'m>) -> Self {
        ToolReader {
            modules,
            census: Census::of(modules),
            side: walk::Side::new(WORK_BUDGET),
            memo: BTreeMap::new(),
        }
    }

    /// The reach of the function defined at `source:line`; `None` when it
    /// cannot be located for reading.
    pub fn read(&mut self, source: &str, line: u32) -> Option<Reach> {
        let key = (source.to_string(), line);
        if let Some(known) = self.memo.get(&key) {
            return known.clone();
        }
        let reach =
            read_tool(self.modules, &self.census, &mut self.side, source, line).map(|mut reach| {
                // A patched HTTP library is a limit on every tool that sends.
                if !reach.calls.is_empty() {
                    reach.limits.extend(self.census.patches.iter().cloned());
                }
                reach
            });
        self.memo.insert(key, reach.clone());
        reach
    }
}

/// The reach of the function defined at `path:line`, read on its own (with
/// a work budget of its own); `None` when it cannot be located for reading.
pub fn tool_reach(
    modules: &ModuleSet<'_>,
    census: &Census,
    path: &str,
    line: u32,
) -> Option<Reach> {
    tool_reach_within(modules, census, WORK_BUDGET, path, line)
}

/// [`tool_reach`] with a work budget of `budget` steps.
pub fn tool_reach_within(
    modules: &ModuleSet<'_>,
    census: &Census,
    budget: usize,
    path: &str,
    line: u32,
) -> Option<Reach> {
    read_tool(modules, census, &mut walk::Side::new(budget), path, line)
}

/// One tool's reach, read with what the side's helpers already reach.
fn read_tool(
    modules: &ModuleSet<'_>,
    census: &Census,
    side: &mut walk::Side,
    path: &str,
    line: u32,
) -> Option<Reach> {
    let key = modules.key(path)?;
    let facts = modules.facts(path)?;
    let function = facts.functions.iter().find(|f| f.line == line)?;
    let frame = Frame::tool(modules, census, key, facts, function);
    let mut walker = walk::Walker::new(modules, side);
    walker.tool(&frame);
    let mut reach = walker.finish();
    reach.defined_at = model::Place {
        path: key.to_string(),
        line,
    };
    Some(reach)
}

/// One function being read: its module, its body, what its parameters
/// hold, and how the read got there.
#[derive(Clone)]
pub struct Frame<'a> {
    modules: &'a ModuleSet<'a>,
    census: &'a Census,
    path: &'a str,
    facts: &'a ModuleFacts,
    /// `None` for module-level code (a constant's value).
    function: Option<&'a FunctionFact>,
    /// What each parameter holds: the tool's own model-supplied
    /// parameters, or a helper's arguments as its caller passed them.
    params: BTreeMap<String, Sources>,
    /// A helper's parameters: the value its caller passed, read in the
    /// caller's frame (so a URL or a body dict reads as written there).
    /// Shared, since frames are cloned for every value they read.
    args: Rc<BTreeMap<String, (Value, Rc<Frame<'a>>)>>,
    via: Vec<model::Hop>,
    depth: usize,
    /// How many calls of its own function led straight to this frame (a
    /// recursive function's generation): read as called up to 2, unnamed
    /// at 3, not read past that.
    recursion: usize,
    /// Parameters read as passed while reading the assignment that
    /// rebinds them from themselves (`headers = headers or {}`).
    prior: Vec<String>,
}

/// Whether the function rebinds parameter `name` other than from itself:
/// the parameter is then read as what rebinds it. One rebound from itself
/// (`limit = min(limit, 100)`) is read as passed inside that assignment.
fn overwritten(function: &FunctionFact, name: &str) -> bool {
    let rebound = function.may_assign(name)
        && function
            .body()
            .locals
            .iter()
            .any(|b| b.name == name && b.kind != BindingKind::Parameter);
    rebound && !rebinds_from_itself(function, name)
}

/// Whether parameter `name` is rebound once, unconditionally, by an
/// assignment that reads it (`headers = headers or {}`).
fn rebinds_from_itself(function: &FunctionFact, name: &str) -> bool {
    let mut rebinds = function
        .body()
        .locals
        .iter()
        .filter(|b| b.name == name && b.kind != BindingKind::Parameter);
    let (Some(one), None) = (rebinds.next(), rebinds.next()) else {
        return false;
    };
    let is_param = function.params.iter().any(|p| p.name == name);
    is_param
        && one.kind == BindingKind::Assignment
        && !one.conditional
        && one
            .value
            .as_ref()
            .is_some_and(|v| values::mentions(v, name))
}

/// Parameters a framework injects (a run or tool context): not model input.
fn injected(param: &crate::python::ParamFact) -> bool {
    let annotated = param.annotation.as_ref().and_then(|a| match a {
        Value::Subscript { base, .. } => base.dotted(),
        other => other.dotted(),
    });
    let class = annotated
        .as_deref()
        .map(|a| a.rsplit('.').next().unwrap_or(a).to_string());
    matches!(
        class.as_deref(),
        Some(
            "RunContextWrapper"
                | "ToolContext"
                | "Context"
                | "InvocationContext"
                | "CallbackContext"
                | "ReadonlyContext"
        )
    ) || matches!(param.name.as_str(), "tool_context" | "self" | "cls")
}

impl<'a> Frame<'a> {
    fn tool(
        modules: &'a ModuleSet<'a>,
        census: &'a Census,
        path: &'a str,
        facts: &'a ModuleFacts,
        function: &'a FunctionFact,
    ) -> Self {
        let mut params = BTreeMap::new();
        for param in &function.params {
            // A parameter the function overwrites before reading it is not
            // what the model sent.
            if overwritten(function, &param.name) {
                continue;
            }
            let sources = if injected(param) {
                Sources::computed()
            } else {
                Sources {
                    params: vec![param.name.to_string()],
                    ..Sources::default()
                }
            };
            params.insert(param.name.to_string(), sources);
        }
        Frame {
            modules,
            census,
            path,
            facts,
            function: Some(function),
            params,
            args: Rc::default(),
            via: Vec::new(),
            depth: 0,
            recursion: 0,
            prior: Vec::new(),
        }
    }

    /// The module-level frame of `path` (for a constant's value).
    fn at_module(&self, path: &'a str) -> Frame<'a> {
        let facts = self.modules.facts(path).unwrap_or(self.facts);
        Frame {
            modules: self.modules,
            census: self.census,
            path,
            facts,
            function: None,
            params: BTreeMap::new(),
            args: Rc::default(),
            via: self.via.clone(),
            depth: self.depth,
            recursion: 0,
            prior: Vec::new(),
        }
    }

    /// The frame of `function` called from this one: its parameters hold
    /// what the call passes (read in this frame, so a URL or a body dict
    /// reads as written here), or their defaults; a parameter given
    /// nothing (or a `*` spread) holds what the read does not name.
    fn callee(
        &self,
        path: &'a str,
        facts: &'a ModuleFacts,
        function: &'a FunctionFact,
        args: &[Value],
        keywords: &[(Option<Text>, Value)],
    ) -> Frame<'a> {
        let mut params = BTreeMap::new();
        let mut passed_args = BTreeMap::new();
        // As Python binds them (`python::call_binding`, the rule the value
        // reader shares): what a `*`/`**` spread could fill, or nothing
        // gives, is a parameter the read does not name.
        for (param, held) in crate::python::call_binding::passed(function, args, keywords) {
            if overwritten(function, param) {
                continue;
            }
            match held {
                Passed::Value(value) => {
                    passed_args.insert(param.to_string(), self.passed_on(value));
                }
                Passed::Default(default) => {
                    passed_args.insert(
                        param.to_string(),
                        (default.clone(), Rc::new(self.at_module(path))),
                    );
                }
                Passed::Unknown => {
                    params.insert(param.to_string(), Sources::computed());
                }
            }
        }
        Frame {
            modules: self.modules,
            census: self.census,
            path,
            facts,
            function: Some(function),
            params,
            args: Rc::new(passed_args),
            via: self.via.clone(),
            depth: self.depth,
            recursion: 0,
            prior: Vec::new(),
        }
    }

    /// What a call's argument binds a parameter to: the value as written
    /// here, read in this frame; or, when it is this frame's own argument
    /// passed on unchanged (`helper(x)` where `x` is a parameter the caller
    /// was given and does not rebind), what that argument is bound to. Every
    /// reader looks a name up in one order ([`Frame::named`]: a rebinding
    /// from itself, then a helper's argument), so a name passed on reads as
    /// what it was passed; binding it straight to that keeps a chain of
    /// helpers from nesting frames, and lets the walker's memo see one
    /// binding however many helpers passed it on.
    fn passed_on(&self, value: &Value) -> (Value, Rc<Frame<'a>>) {
        if let Value::Name(name) = value {
            if self.self_rebinding(name).is_none() {
                if let Some((passed, caller)) = self.args.get(name.as_str()) {
                    return (passed.clone(), Rc::clone(caller));
                }
            }
        }
        (value.clone(), Rc::new(self.clone()))
    }

    /// This frame with every parameter unnamed: the last read of a
    /// recursive function, whatever the recursion passes.
    fn unnamed(&self) -> Frame<'a> {
        let mut frame = self.clone();
        frame.args = Rc::default();
        frame.params = self
            .function
            .map(|f| {
                f.params
                    .iter()
                    .map(|p| (p.name.to_string(), Sources::computed()))
                    .collect()
            })
            .unwrap_or_default();
        frame
    }

    /// What a call of a repository function returns, when the function
    /// has one unconditional return, its last statement (not decorated,
    /// async, a generator or rebound elsewhere): that value, in the
    /// function's frame with its parameters bound to the call's
    /// arguments (`_items_url(item_id)` returning an f-string).
    fn returned(
        &self,
        callee: &Value,
        args: &[Value],
        keywords: &[(Option<Text>, Value)],
    ) -> Option<(Value, Frame<'a>)> {
        let mut resolver = Resolver::new(self.modules);
        let found = resolver.resolve(self.path, self.scope(), callee).ok()?;
        let crate::resolve::Target::Function { path, function } = found.target else {
            return None;
        };
        if self.census.rebound.contains(function.name.as_str())
            || !function.decorators.is_empty()
            || function.is_async
            || function.is_generator
            || !function.ends_with_return
        {
            return None;
        }
        let [only] = function.body().returns_found.as_slice() else {
            return None;
        };
        if only.conditional {
            return None;
        }
        let value = only.value.clone()?;
        let facts = self.modules.facts(path)?;
        Some((value, self.callee(path, facts, function, args, keywords)))
    }
}
