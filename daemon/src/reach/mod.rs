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

mod libraries;
pub mod model;
mod values;
mod walk;

pub use model::{Claim, Reach};

use crate::graph::resolve::{ModuleSet, Resolver};
use crate::graph::{Binding, Edge};
use crate::python::{BindingFact, BindingKind, FunctionFact, ModuleFacts, Value};
use std::collections::BTreeMap;
use values::Sources;

/// Helper calls followed from the tool, at most.
pub const MAX_HELPER_DEPTH: usize = 3;
/// Calls listed; more still count for the effect.
pub const MAX_CALLS: usize = 24;
/// Limits listed; the rest are counted.
pub const MAX_LIMITS: usize = 12;

/// Sets the reach of every function tool the side binds.
pub fn attach(modules: &ModuleSet<'_>, bindings: &mut [Binding]) {
    let census = Census::of(modules);
    let patches = &census.patches;
    let mut memo: BTreeMap<(String, u32), Option<Reach>> = BTreeMap::new();
    for binding in bindings {
        let Edge::Tool(definition) = &mut binding.edge else {
            continue;
        };
        let Some(line) = definition.line else {
            continue;
        };
        let key = (definition.source.clone(), line);
        let reach = memo
            .entry(key)
            .or_insert_with(|| {
                let mut reach = tool_reach(modules, &census, &definition.source, line)?;
                // A patched HTTP library is a limit on every tool that sends.
                if !reach.calls.is_empty() {
                    reach.limits.extend(patches.iter().cloned());
                }
                Some(reach)
            })
            .clone();
        definition.reach = reach;
    }
}

/// The HTTP libraries an HTTP call goes through, and the modules below
/// them a patch can change.
const HTTP_STACK: &[&str] = &[
    "requests", "httpx", "urllib3", "urllib", "http", "socket", "aiohttp",
];

/// Whether any module changes a namespace under names the read cannot see:
/// a computed `setattr` on an imported module, a store into
/// `sys.modules`, or `globals()`/`vars()` used at all (read conservatively:
/// even a reader withholds every module-scope value).
fn namespace_changes(modules: &ModuleSet<'_>) -> bool {
    modules.paths().any(|path| {
        let Some(facts) = modules.facts(path) else {
            return false;
        };
        let uses = |name: &str| facts.name_uses.get(name).copied().unwrap_or(0) > 0;
        let bound = |name: &str| facts.module_bindings.iter().any(|b| b.name == name);
        (uses("globals") && !bound("globals"))
            || (uses("vars") && !bound("vars"))
            || facts.attribute_stores.iter().any(|store| {
                let computed = store.target.last().is_some_and(|a| a == "*")
                    && facts
                        .imports
                        .iter()
                        .any(|i| Some(i.bound_name()) == store.target.first().map(String::as_str));
                let sys_modules = store.target.len() >= 2
                    && store.target[0] == "sys"
                    && store.target[1] == "modules";
                computed || sys_modules
            })
    })
}

/// Calls that install or instrument an HTTP stack anywhere in the scope
/// (`install_opener(...)`, `monkey.patch_all()`, `ddtrace.patch(...)`,
/// `RequestsInstrumentor().instrument()`): a limit on every tool that sends.
fn stack_installs(modules: &ModuleSet<'_>) -> Vec<model::ReachLimit> {
    let mut limits = Vec::new();
    for path in modules.paths() {
        let Some(facts) = modules.facts(path) else {
            continue;
        };
        let in_functions = facts
            .functions
            .iter()
            .flat_map(|f| f.body_calls.iter().map(move |c| (f.qualname.as_str(), c)));
        let at_module = facts.module_calls.iter().map(|c| ("", c));
        for (scope, call) in at_module.chain(in_functions) {
            let name = crate::frameworks::imports::imported_name(facts, &call.callee, scope)
                .unwrap_or_else(|| call.callee.dotted().unwrap_or_default());
            let last = name.rsplit('.').next().unwrap_or(&name);
            let installs = matches!(last, "install_opener" | "patch_all" | "monkey_patch" | "install_cache")
                || name == "ddtrace.patch"
                || last.starts_with("instrument_")
                || call.receiver.as_ref().is_some_and(|(receiver, method)| {
                    method == "instrument"
                        && matches!(receiver, Value::Call { callee, .. } if callee.dotted().is_some_and(|c| c.ends_with("Instrumentor")))
                });
            if installs {
                let spelled = if name.is_empty() {
                    "…".to_string()
                } else {
                    name.clone()
                };
                limits.push(model::ReachLimit {
                    at: model::Place {
                        path: path.to_string(),
                        line: call.line,
                    },
                    why: format!(
                        "calls {spelled}, which installs or instruments the HTTP stack, so what a request sends is not established"
                    ),
                });
            }
        }
    }
    limits
}

/// Stores into an HTTP library anywhere in the scope (`requests.get =
/// logged_get`, `setattr(requests, …)`, `urllib.request.Request.method =
/// …`): what any request sends is then not established.
fn http_patches(modules: &ModuleSet<'_>) -> Vec<model::ReachLimit> {
    let mut limits = Vec::new();
    for path in modules.paths() {
        let Some(facts) = modules.facts(path) else {
            continue;
        };
        for store in &facts.attribute_stores {
            if !store.how.rebinds() || store.target.len() < 2 {
                continue;
            }
            let Some(name) = crate::frameworks::imports::imported_name(
                facts,
                &Value::Attribute(store.target.clone()),
                &store.scope,
            ) else {
                continue;
            };
            let library = name.split('.').next().unwrap_or(&name);
            if !HTTP_STACK.contains(&library) {
                continue;
            }
            // A plain tuning value (`requests.adapters.DEFAULT_RETRIES = 3`)
            // is not a patch.
            let attribute = store.target.last().map_or("", String::as_str);
            if attribute
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_')
            {
                continue;
            }
            limits.push(model::ReachLimit {
                at: model::Place {
                    path: path.to_string(),
                    line: store.line,
                },
                why: format!("patches {name}, so what the HTTP library sends is not established"),
            });
        }
    }
    limits
}

/// What the whole scope does to the names a tool's reach rests on, read
/// once per side.
#[derive(Debug, Default)]
pub struct Census {
    /// Attribute names stored into a module (`agent_config.METHOD = …`,
    /// `helpers.fetch = purge`): a constant or function of that name is
    /// not taken as written.
    rebound: std::collections::BTreeSet<String>,
    /// A namespace change the read cannot tie to one name (a computed
    /// `setattr` on a module, a store into `sys.modules`, `globals()` or
    /// `vars()` used anywhere): no module-scope value is taken as written.
    namespace_changed: bool,
    /// Stores into an HTTP library.
    patches: Vec<model::ReachLimit>,
}

impl Census {
    pub fn of(modules: &ModuleSet<'_>) -> Self {
        let mut rebound = std::collections::BTreeSet::new();
        for path in modules.paths() {
            let Some(facts) = modules.facts(path) else {
                continue;
            };
            for store in &facts.attribute_stores {
                let [root, .., attribute] = store.target.as_slice() else {
                    continue;
                };
                // A store through a method's own `self` changes an instance.
                if !store.how.rebinds() || root == "self" || root == "cls" {
                    continue;
                }
                let module_like = facts
                    .imports
                    .iter()
                    .any(|i| i.bound_name() == root.as_str());
                if module_like {
                    rebound.insert(attribute.clone());
                }
            }
        }
        let mut patches = http_patches(modules);
        patches.extend(stack_installs(modules));
        Census {
            rebound,
            namespace_changed: namespace_changes(modules),
            patches,
        }
    }
}

/// The reach of the function defined at `path:line`; `None` when it cannot
/// be located for reading.
pub fn tool_reach(
    modules: &ModuleSet<'_>,
    census: &Census,
    path: &str,
    line: u32,
) -> Option<Reach> {
    let key = modules.key(path)?;
    let facts = modules.facts(path)?;
    let function = facts.functions.iter().find(|f| f.line == line)?;
    let frame = Frame::tool(modules, census, key, facts, function);
    let mut walker = walk::Walker::new(modules);
    walker.function(&frame);
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
    args: BTreeMap<String, (Value, Box<Frame<'a>>)>,
    via: Vec<model::Hop>,
    depth: usize,
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
            let overwritten = function
                .locals
                .iter()
                .any(|b| b.name == param.name && b.kind != BindingKind::Parameter);
            // An overwritten parameter is read as what overwrites it.
            if overwritten {
                continue;
            }
            let sources = if injected(param) {
                Sources::computed()
            } else {
                Sources {
                    params: vec![param.name.clone()],
                    ..Sources::default()
                }
            };
            params.insert(param.name.clone(), sources);
        }
        Frame {
            modules,
            census,
            path,
            facts,
            function: Some(function),
            params,
            args: BTreeMap::new(),
            via: Vec::new(),
            depth: 0,
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
            args: BTreeMap::new(),
            via: self.via.clone(),
            depth: self.depth,
        }
    }

    /// Follows a name to the value it holds where that is written: a
    /// helper's argument (in its caller's frame) or the function's own
    /// single assignment; anything else stays as it is.
    fn resolved(&self, value: &Value, depth: usize) -> (Value, Frame<'a>) {
        if depth < 8 {
            if let Value::Name(name) = value {
                if let Some((passed, caller)) = self.args.get(name) {
                    return caller.resolved(passed, depth + 1);
                }
                if !self.params.contains_key(name) {
                    let locals: Vec<_> = self.locals().iter().filter(|b| b.name == *name).collect();
                    if let [one] = locals.as_slice() {
                        if one.kind == BindingKind::Assignment && !one.conditional {
                            if let Some(bound) = &one.value {
                                return self.resolved(bound, depth + 1);
                            }
                        }
                    }
                }
            }
        }
        (value.clone(), self.clone())
    }

    fn scope(&self) -> &str {
        self.function.map_or("", |f| f.qualname.as_str())
    }

    pub(super) fn locals(&self) -> &'a [BindingFact] {
        match self.function {
            Some(function) => &function.locals,
            None => &[],
        }
    }

    /// Whether the module or the function binds `name` (so a builtin of
    /// that name is not the builtin).
    fn shadows(&self, name: &str) -> bool {
        self.locals().iter().any(|b| b.name == name)
            || self.facts.module_bindings.iter().any(|b| b.name == name)
    }

    /// The module's one top-level binding of `name`, if it binds it once.
    pub(super) fn module_binding(&self, name: &str) -> Option<&'a BindingFact> {
        let mut bindings = self.facts.module_bindings.iter().filter(|b| b.name == name);
        let first = bindings.next()?;
        bindings.next().is_none().then_some(first)
    }

    /// The function's own bindings of `name`: a parameter the function
    /// overwrites (once, unconditionally) is that assignment.
    fn bindings_of(&self, name: &str) -> Vec<&'a BindingFact> {
        let all: Vec<&'a BindingFact> = self.locals().iter().filter(|b| b.name == name).collect();
        let assigned: Vec<&'a BindingFact> = all
            .iter()
            .copied()
            .filter(|b| b.kind != BindingKind::Parameter)
            .collect();
        match assigned.as_slice() {
            [one] if one.kind == BindingKind::Assignment && !one.conditional => vec![one],
            _ => all,
        }
    }

    /// `config.API_BASE`: a constant another module of the scope binds.
    fn module_attribute_constant(&self, value: &Value) -> Option<(Value, &'a str)> {
        if self.census.namespace_changed {
            return None;
        }
        if let Value::Attribute(parts) = value {
            if parts
                .last()
                .is_some_and(|a| self.census.rebound.contains(a))
            {
                return None;
            }
        }
        let mut resolver = Resolver::new(self.modules);
        let found = resolver.resolve(self.path, self.scope(), value).ok()?;
        let crate::graph::resolve::Target::Value { path, name, line } = found.target else {
            return None;
        };
        let facts = self.modules.facts(path)?;
        let bound = facts.module_bindings.iter().find(|b| {
            b.name == name && b.line == line && b.kind == BindingKind::Assignment && !b.conditional
        })?;
        let value = bound.value.clone()?;
        matches!(
            value,
            Value::Str(_) | Value::Number(_) | Value::FString(_) | Value::Add { .. }
        )
        .then_some((value, path))
    }

    /// The absolute library name a callee or value spells, when an import
    /// of a library (not the repository's own code) binds it.
    fn library_name(&self, value: &Value) -> Option<String> {
        let name = crate::frameworks::imports::imported_name(self.facts, value, self.scope())?;
        let first = name.split('.').next().unwrap_or(&name);
        let mut resolver = Resolver::new(self.modules);
        if resolver.module_file(self.path, 0, first).is_some()
            || self.modules.is_outside_repository_module(first)
        {
            return None;
        }
        Some(name)
    }

    /// A module-level constant `name` holds, followed through an import to
    /// the module that binds it: only a string, number or string
    /// expression bound once, unconditionally (a module-level dict's
    /// values are never taken as written).
    fn module_constant(&self, name: &str) -> Option<(Value, &'a str)> {
        if self.census.namespace_changed || self.census.rebound.contains(name) {
            return None;
        }
        let binding = self.module_binding(name)?;
        if binding.conditional {
            return None;
        }
        let (value, path) = match binding.kind {
            BindingKind::Assignment => (binding.value.clone()?, self.path),
            BindingKind::Import => {
                let mut resolver = Resolver::new(self.modules);
                let found = resolver
                    .resolve(self.path, "", &Value::Name(name.to_string()))
                    .ok()?;
                let crate::graph::resolve::Target::Value { path, name, line } = found.target else {
                    return None;
                };
                let facts = self.modules.facts(path)?;
                let bound = facts.module_bindings.iter().find(|b| {
                    b.name == name
                        && b.line == line
                        && b.kind == BindingKind::Assignment
                        && !b.conditional
                })?;
                (bound.value.clone()?, path)
            }
            _ => return None,
        };
        matches!(
            value,
            Value::Str(_)
                | Value::Number(_)
                | Value::Bool(_)
                | Value::FString(_)
                | Value::Add { .. }
        )
        .then_some((value, path))
    }
}
