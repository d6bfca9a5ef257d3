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
mod libraries;
pub mod model;
mod values;
mod walk;

pub use model::{Claim, Reach};

use crate::python::{BindingFact, BindingKind, FunctionFact, ModuleFacts, ParamKind, Value};
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

/// The HTTP libraries an HTTP call goes through, and the modules below
/// them a patch can change.
const HTTP_STACK: &[&str] = &[
    "requests", "httpx", "urllib3", "urllib", "http", "socket", "aiohttp",
];

/// Modules whose namespace the scope changes under names the read cannot
/// see: module-scope values read there are not taken as written.
#[derive(Debug, Default)]
struct NamespaceChanges {
    /// A change the read cannot tie to one module (a store into
    /// `sys.modules`, `vars` handed on as a value, `vars(x)` or a computed
    /// `setattr` on something that may be any module): every module.
    every_module: bool,
    /// Module files changed: one using `globals()`, `exec`/`eval` or
    /// `vars()` on itself, and one another module changes through
    /// `vars(m)`, `m.__dict__[…]` or a computed `setattr(m, name, …)`.
    modules: std::collections::BTreeSet<String>,
}

impl NamespaceChanges {
    fn of(modules: &ModuleSet<'_>) -> Self {
        let mut changes = NamespaceChanges::default();
        for path in modules.paths() {
            let Some(facts) = modules.facts(path) else {
                continue;
            };
            let builtin = |name: &str| {
                facts.name_uses.get(name).copied().unwrap_or(0) > 0
                    && !facts.module_bindings.iter().any(|b| b.name == name)
            };
            // The module's own namespace, whatever is done with it.
            if ["globals", "exec", "eval"].into_iter().any(builtin) {
                changes.modules.insert(path.to_string());
            }
            // `globals` or `vars` handed on as a value is called elsewhere,
            // where it is that module's namespace.
            for name in ["globals", "vars"] {
                if builtin(name)
                    && builtin_calls(facts, name) < facts.name_uses.get(name).copied().unwrap_or(0)
                {
                    changes.every_module = true;
                }
            }
            if builtin("vars") {
                changes.vars_calls(modules, path, facts);
            }
            for store in &facts.attribute_stores {
                match store.target.as_slice() {
                    // `del sys.modules[name]` only makes the next import
                    // read the module again.
                    [sys, modules_attr, ..]
                        if sys == "sys"
                            && modules_attr == "modules"
                            && store.how != crate::python::StoreKind::Deletion =>
                    {
                        changes.sys_modules_store(modules, path, facts, store.line);
                    }
                    [sys, modules_attr, ..] if sys == "sys" && modules_attr == "modules" => {}
                    [root, attribute, ..] if attribute == "*" || attribute == "__dict__" => {
                        changes.object(modules, path, &store.scope, root);
                    }
                    _ => {}
                }
            }
        }
        changes
    }

    /// `sys.modules["app.config"] = …` replaces that module; a key that
    /// is the module's own `__name__` is the storing module; any other
    /// store (a computed key, `update`, `setdefault`) may be any module.
    fn sys_modules_store(
        &mut self,
        modules: &ModuleSet<'_>,
        path: &str,
        facts: &ModuleFacts,
        line: u32,
    ) {
        let stores = facts
            .module_stores
            .iter()
            .chain(facts.functions.iter().flat_map(|f| f.stores.iter()));
        let key = stores
            .filter(|s| {
                s.line == line
                    && s.object.len() == 2
                    && s.object[0] == "sys"
                    && s.object[1] == "modules"
            })
            .find_map(|s| match &s.under {
                crate::python::StoredUnder::Key(key) => Some(key.clone()),
                crate::python::StoredUnder::Attribute(_) => None,
            });
        match key {
            Some(Value::Name(name)) if name == "__name__" => {
                self.modules.insert(path.to_string());
            }
            Some(Value::Str(dotted)) => {
                let mut resolver = Resolver::new(modules);
                match resolver.module_file(path, 0, &dotted) {
                    Some(file) => {
                        self.modules.insert(file);
                    }
                    // A module the scope does not hold holds none of its
                    // values.
                    None if modules.is_outside_repository_module(&dotted) => {}
                    None => self.every_module = true,
                }
            }
            _ => self.every_module = true,
        }
    }

    /// `vars()` is the calling module's namespace, `vars(m)` the one `m`
    /// names; `vars` used other than as a call may be handed any module.
    fn vars_calls(&mut self, modules: &ModuleSet<'_>, path: &str, facts: &ModuleFacts) {
        let at_module = facts.module_calls.iter().map(|c| ("", c));
        let in_functions = facts
            .functions
            .iter()
            .flat_map(|f| f.body_calls.iter().map(move |c| (f.qualname.as_str(), c)));
        for (scope, call) in at_module.chain(in_functions) {
            if !matches!(&call.callee, Value::Name(n) if n == "vars") {
                continue;
            }
            match call.args.as_slice() {
                [] => {
                    self.modules.insert(path.to_string());
                }
                [Value::Name(object)] => self.object(modules, path, scope, object),
                _ => self.every_module = true,
            }
        }
    }

    /// A namespace changed through the object `name` names in `path`: an
    /// imported module of the scope is that module; a library is none of
    /// the scope's; a parameter is what every call of its function passes
    /// (when every call is known); anything else may be any module, so
    /// every module.
    fn object(&mut self, modules: &ModuleSet<'_>, path: &str, scope: &str, name: &str) {
        self.object_at(modules, path, scope, name, 0);
    }

    fn object_at(
        &mut self,
        modules: &ModuleSet<'_>,
        path: &str,
        scope: &str,
        name: &str,
        depth: usize,
    ) {
        let Some(facts) = modules.facts(path) else {
            self.every_module = true;
            return;
        };
        // A method's own instance changes an instance, not a module.
        if name == "self" || name == "cls" {
            return;
        }
        let function = facts.functions.iter().find(|f| f.qualname == scope);
        if let Some(function) = function.filter(|f| f.params.iter().any(|p| p.name == name)) {
            let rebound = function
                .locals
                .iter()
                .any(|b| b.name == name && b.kind != BindingKind::Parameter);
            match callers::passed(modules, path, function, name) {
                Some(passed) if !rebound && depth < 4 => {
                    for (at, scope, value) in passed {
                        match value {
                            Value::Name(object) => {
                                self.object_at(modules, at, &scope, &object, depth + 1)
                            }
                            // A call's result is taken as not a module.
                            Value::Call { callee, .. } if !is_module_loader(&callee) => {}
                            Value::Str(_) | Value::Number(_) | Value::Bool(_) | Value::None => {}
                            _ => self.every_module = true,
                        }
                    }
                }
                _ => self.every_module = true,
            }
            return;
        }
        let locals = function.map_or(&[][..], |f| f.locals.as_slice());
        let bindings: Vec<_> = if locals.iter().any(|b| b.name == name) {
            locals.iter().filter(|b| b.name == name).collect()
        } else {
            facts
                .module_bindings
                .iter()
                .filter(|b| b.name == name)
                .collect()
        };
        // A name bound once to a call's result (an ORM row, a settings
        // object) is taken as not a module; a parameter is not followed
        // to its callers, so it may be any module.
        if let [one] = bindings.as_slice() {
            if one.kind == BindingKind::Assignment
                && matches!(&one.value, Some(Value::Call { callee, .. }) if !is_module_loader(callee))
            {
                return;
            }
        }
        let Some(import) = facts.imports.iter().find(|i| i.bound_name() == name) else {
            self.every_module = true;
            return;
        };
        let mut resolver = Resolver::new(modules);
        match resolver.resolve(path, scope, &Value::Name(name.to_string())) {
            Ok(found) => match found.target {
                crate::resolve::Target::Module(loc) => match loc.file {
                    Some(file) => {
                        self.modules.insert(file);
                    }
                    None => self.every_module = true,
                },
                _ => self.every_module = true,
            },
            Err(_) if import.level == 0 && modules.is_outside_repository_module(&import.module) => {
            }
            Err(_) => self.every_module = true,
        }
    }

    fn withholds(&self, path: &str) -> bool {
        self.every_module || self.modules.contains(path)
    }
}

/// A call that hands back a module (`importlib.import_module(...)`,
/// `__import__(...)`), spelled however it is imported.
fn is_module_loader(callee: &Value) -> bool {
    callee.dotted().is_some_and(|name| {
        let last = name.rsplit('.').next().unwrap_or(&name);
        matches!(
            last,
            "import_module" | "__import__" | "reload" | "module_from_spec"
        )
    })
}

/// How many calls of the builtin `name` the module makes where calls are
/// kept (at module level and in function bodies).
fn builtin_calls(facts: &ModuleFacts, name: &str) -> u32 {
    let at_module = facts.module_calls.iter();
    let in_functions = facts.functions.iter().flat_map(|f| f.body_calls.iter());
    let calls = at_module
        .chain(in_functions)
        .filter(|c| matches!(&c.callee, Value::Name(n) if n == name))
        .count();
    u32::try_from(calls).unwrap_or(u32::MAX)
}

/// Every store into an attribute of an imported name, anywhere in the
/// scope, with the absolute name it writes (`requests.get`,
/// `json.dumps`, `builtins.print`).
fn stores_into_imports<'m>(
    modules: &'m ModuleSet<'_>,
) -> impl Iterator<Item = (&'m str, &'m crate::python::AttributeStore, String)> + 'm {
    modules.paths().flat_map(move |path| {
        let facts = modules.facts(path);
        facts
            .into_iter()
            .flat_map(|facts| {
                facts
                    .attribute_stores
                    .iter()
                    .map(move |store| (facts, store))
            })
            .filter(|(_, store)| store.target.len() >= 2)
            .filter_map(move |(facts, store)| {
                let name = crate::frameworks::imports::imported_name(
                    facts,
                    &Value::Attribute(store.target.clone()),
                    &store.scope,
                )?;
                Some((path, store, name))
            })
    })
}

/// Library functions the read takes as pure that the scope replaces
/// (`json.dumps = audited`, `setattr(re, "sub", …)`), and builtins it
/// rebinds through `builtins` (`builtins.print = send_log`).
#[allow(clippy::type_complexity)]
fn replaced_functions(
    modules: &ModuleSet<'_>,
) -> (
    std::collections::BTreeSet<String>,
    Option<std::collections::BTreeSet<String>>,
) {
    let mut replaced = std::collections::BTreeSet::new();
    let mut rebuilt = Some(std::collections::BTreeSet::new());
    for (_, store, name) in stores_into_imports(modules) {
        if let Some(builtin) = name.strip_prefix("builtins.") {
            let unseen = builtin.starts_with("__dict__") || builtin.contains('*');
            let plain = store.how.rebinds() && !unseen && !builtin.contains('.');
            match &mut rebuilt {
                Some(set) if plain => {
                    set.insert(builtin.to_string());
                }
                _ if unseen => rebuilt = None,
                _ => {}
            }
            continue;
        }
        if store.how.rebinds() && libraries::is_pure_function(&name) {
            replaced.insert(name);
        }
    }
    (replaced, rebuilt)
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
    for (path, store, name) in stores_into_imports(modules) {
        if !store.how.rebinds() {
            continue;
        }
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
    limits
}

/// What the whole scope does to the names a tool's reach rests on, read
/// once per side.
#[derive(Debug, Default)]
pub struct Census {
    /// Attribute names the scope stores under (`agent_config.METHOD = …`,
    /// `helpers.fetch = purge`, `mod.API = …` through a parameter): a
    /// constant or function of that name is not taken as written.
    rebound: std::collections::BTreeSet<String>,
    /// Modules whose namespace changes under names the read cannot see
    /// (`globals()`, `vars(m)`, a computed `setattr(m, …)`, a store into
    /// `sys.modules`): their module-scope values are not taken as written.
    namespaces: NamespaceChanges,
    /// Stores into an HTTP library.
    patches: Vec<model::ReachLimit>,
    /// Library functions the read takes as pure, replaced somewhere in the
    /// scope (`json.dumps = audited`): a limit where a tool calls one.
    replaced: std::collections::BTreeSet<String>,
    /// Builtins rebound through `builtins` (`builtins.print = send_log`):
    /// not read as the builtin. `None` in the set's place when one is
    /// rebound under a name the read cannot see (`builtins.__dict__[…]`).
    rebuilt: Option<std::collections::BTreeSet<String>>,
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
                // A store through a method's own `self` changes an
                // instance. Any other is collected by name, whatever it
                // goes through (an import, an alias, a parameter): two
                // unrelated uses of one name only ever withhold a value.
                if !store.how.rebinds() || root == "self" || root == "cls" || attribute == "*" {
                    continue;
                }
                rebound.insert(attribute.clone());
            }
        }
        let mut patches = http_patches(modules);
        patches.extend(stack_installs(modules));
        let (replaced, rebuilt) = replaced_functions(modules);
        Census {
            replaced,
            rebuilt,
            rebound,
            namespaces: NamespaceChanges::of(modules),
            patches,
        }
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
    let rebound = function
        .locals
        .iter()
        .any(|b| b.name == name && b.kind != BindingKind::Parameter);
    rebound && !rebinds_from_itself(function, name)
}

/// Whether parameter `name` is rebound once, unconditionally, by an
/// assignment that reads it (`headers = headers or {}`).
fn rebinds_from_itself(function: &FunctionFact, name: &str) -> bool {
    let mut rebinds = function
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
        keywords: &[(Option<String>, Value)],
    ) -> Frame<'a> {
        let mut params = BTreeMap::new();
        let mut passed_args = BTreeMap::new();
        let positional: Vec<_> = function
            .params
            .iter()
            .filter(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal))
            .collect();
        for param in &function.params {
            if overwritten(function, &param.name) {
                continue;
            }
            let passed = positional
                .iter()
                .position(|p| p.name == param.name)
                .and_then(|i| args.get(i))
                .filter(|a| !matches!(a, Value::Starred(_)))
                .or_else(|| {
                    keywords
                        .iter()
                        .find(|(k, _)| k.as_deref() == Some(param.name.as_str()))
                        .map(|(_, v)| v)
                });
            match (passed, &param.default) {
                (Some(value), _) => {
                    passed_args.insert(param.name.clone(), self.passed_on(value));
                }
                (None, Some(default)) => {
                    passed_args.insert(
                        param.name.clone(),
                        (default.clone(), Rc::new(self.at_module(path))),
                    );
                }
                (None, None) => {
                    params.insert(param.name.clone(), Sources::computed());
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
                if let Some((passed, caller)) = self.args.get(name) {
                    return (passed.clone(), Rc::clone(caller));
                }
            }
        }
        (value.clone(), Rc::new(self.clone()))
    }

    /// Writes what this frame's reading depends on into `out`, for the
    /// walker's memo: the function (or module) read, what each parameter
    /// holds, the names read inside their own rebinding, and each helper
    /// argument as written with the frame it is read in. That frame is
    /// written the same way, except for a value that names nothing (a
    /// literal, a display of literals): that reads the same in any frame,
    /// so only which function wrote it is kept (a reader compares it with
    /// its own). Nothing a value reader consults is left out: the helper
    /// depth and the recursion generation matter only to the frame being
    /// walked, and the walker adds them; `via` is only recorded.
    pub(super) fn memo_key(&self, out: &mut String) {
        self.write_function(out);
        for (name, sources) in &self.params {
            out.push_str("|p ");
            out.push_str(name);
            out.push('=');
            sources.write_key(out);
        }
        for name in &self.prior {
            out.push_str("|r ");
            out.push_str(name);
        }
        for (name, (value, caller)) in self.args.iter() {
            out.push_str("|a ");
            out.push_str(name);
            out.push('=');
            values::write_key(out, value);
            out.push('@');
            if values::names_nothing(value) {
                caller.write_function(out);
            } else {
                out.push('[');
                caller.memo_key(out);
                out.push(']');
            }
        }
    }

    fn write_function(&self, out: &mut String) {
        values::write_len(out, self.path.len());
        out.push(':');
        out.push_str(self.path);
        match self.function {
            Some(f) => {
                out.push(':');
                values::write_len(out, f.line as usize);
                out.push(':');
                out.push_str(&f.qualname);
            }
            None => out.push_str(":module"),
        }
    }

    /// What a name the function does not bind holds in an enclosing
    /// function: `None` when no enclosing function binds it (it is the
    /// module's); `Some(None)` when one does but the read cannot take it
    /// as written (a parameter of the factory, a dict or list the closures
    /// share, a name bound more than once, or one a nested function
    /// rebinds with `nonlocal`); `Some(Some(..))` a constant it binds once.
    fn closure_value(&self, name: &str) -> Option<Option<(Value, Frame<'a>)>> {
        let function = self.function?;
        let (outer, _) = function.qualname.rsplit_once('.')?;
        let parent = self.facts.functions.iter().find(|f| f.qualname == outer)?;
        let frame = Frame {
            modules: self.modules,
            census: self.census,
            path: self.path,
            facts: self.facts,
            function: Some(parent),
            params: parent
                .params
                .iter()
                .map(|p| (p.name.clone(), Sources::computed()))
                .collect(),
            args: Rc::default(),
            via: self.via.clone(),
            depth: self.depth,
            recursion: 0,
            prior: Vec::new(),
        };
        let bindings: Vec<_> = parent.locals.iter().filter(|b| b.name == name).collect();
        if bindings.is_empty() {
            return frame.closure_value(name);
        }
        let nested = format!("{outer}.");
        let rebound = self
            .facts
            .functions
            .iter()
            .any(|f| f.qualname.starts_with(&nested) && f.nonlocals.iter().any(|n| n == name));
        let readable = match bindings.as_slice() {
            [one] if !rebound && one.kind == BindingKind::Assignment && !one.conditional => {
                one.value.clone().filter(|v| {
                    matches!(
                        v,
                        Value::Str(_)
                            | Value::Number(_)
                            | Value::Bool(_)
                            | Value::FString(_)
                            | Value::Add { .. }
                    )
                })
            }
            _ => None,
        };
        Some(readable.map(|value| (value, frame)))
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
                    .map(|p| (p.name.clone(), Sources::computed()))
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
        keywords: &[(Option<String>, Value)],
    ) -> Option<(Value, Frame<'a>)> {
        let mut resolver = Resolver::new(self.modules);
        let found = resolver.resolve(self.path, self.scope(), callee).ok()?;
        let crate::resolve::Target::Function { path, function } = found.target else {
            return None;
        };
        if self.census.rebound.contains(&function.name)
            || !function.decorators.is_empty()
            || function.is_async
            || function.is_generator
            || !function.ends_with_return
        {
            return None;
        }
        let [only] = function.returns_found.as_slice() else {
            return None;
        };
        if only.conditional {
            return None;
        }
        let value = only.value.clone()?;
        let facts = self.modules.facts(path)?;
        Some((value, self.callee(path, facts, function, args, keywords)))
    }

    /// Follows a name to the value it holds where that is written: a
    /// helper's argument (in its caller's frame) or the function's own
    /// single assignment; anything else stays as it is.
    fn resolved(&self, value: &Value, depth: usize) -> (Value, Frame<'a>) {
        if depth < 8 {
            if let Value::Name(name) = value {
                if let Some((rebinding, inner)) = self.self_rebinding(name) {
                    return inner.resolved(rebinding, depth + 1);
                }
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

    /// The one unconditional assignment that rebinds parameter `name`
    /// from its own value (`headers = headers or {}`), with the frame
    /// that reads it (where `name` is the parameter as passed); `None`
    /// inside it already, or when there is none.
    fn self_rebinding(&self, name: &str) -> Option<(&'a Value, Frame<'a>)> {
        if self.prior.iter().any(|p| p == name) {
            return None;
        }
        let function = self.function?;
        if !rebinds_from_itself(function, name) {
            return None;
        }
        let value = function
            .locals
            .iter()
            .find(|b| b.name == name && b.kind != BindingKind::Parameter)?
            .value
            .as_ref()?;
        let mut inner = self.clone();
        inner.prior.push(name.to_string());
        Some((value, inner))
    }

    /// Whether `name` is a parameter the framework injects (a run or tool
    /// context), not one the model supplies.
    pub(super) fn is_injected(&self, name: &str) -> bool {
        self.function
            .is_some_and(|f| f.params.iter().any(|p| p.name == name && injected(p)))
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
        let crate::resolve::Target::Value { path, name, line } = found.target else {
            return None;
        };
        let facts = self.modules.facts(path)?;
        let bound = facts.module_bindings.iter().find(|b| {
            b.name == name && b.line == line && b.kind == BindingKind::Assignment && !b.conditional
        })?;
        let value = bound.value.clone()?;
        self.is_constant(&value, path).then_some((value, path))
    }

    /// Whether a module-level value bound once is read as a constant: a
    /// string, number or string expression, or an environment variable
    /// read there (`os.environ.get("API_URL", "https://…")`).
    fn is_constant(&self, value: &Value, path: &'a str) -> bool {
        // A namespace changed under names the read cannot see.
        if self.census.namespaces.withholds(path) || self.census.namespaces.withholds(self.path) {
            return false;
        }
        match value {
            Value::Str(_)
            | Value::Number(_)
            | Value::Bool(_)
            | Value::FString(_)
            | Value::Add { .. } => true,
            Value::Call { .. } | Value::Subscript { .. } => {
                self.at_module(path).env_name(value).is_some()
            }
            _ => false,
        }
    }

    /// A library function the read takes as pure, not replaced anywhere in
    /// the scope.
    pub(super) fn pure_function(&self, name: &str) -> bool {
        libraries::is_pure_function(name) && !self.census.replaced.contains(name)
    }

    /// A builtin with no effect outside the process, that neither this
    /// module nor the scope (through `builtins`) rebinds.
    pub(super) fn pure_builtin(&self, name: &str) -> bool {
        libraries::is_pure_builtin(name)
            && !self.shadows(name)
            && self
                .census
                .rebuilt
                .as_ref()
                .is_some_and(|set| !set.contains(name))
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
        if self.census.rebound.contains(name) {
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
                let crate::resolve::Target::Value { path, name, line } = found.target else {
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
        self.is_constant(&value, path).then_some((value, path))
    }
}
