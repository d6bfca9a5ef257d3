//! What the whole scope does to the names a tool's reach rests on, read
//! once per side: the attribute names it stores under, the modules whose
//! namespace changes under names the read cannot see, the pure library
//! functions it replaces and the builtins it rebinds, and the stores into
//! an HTTP library and calls that install or instrument one.

use super::{callers, libraries, model};
use crate::python::{BindingKind, ModuleFacts, Text, Value};
use crate::resolve::{ModuleSet, Resolver};

/// The HTTP libraries an HTTP call goes through, and the modules below
/// them a patch can change.
const HTTP_STACK: &[&str] = &[
    "requests", "httpx", "urllib3", "urllib", "http", "socket", "aiohttp",
];

/// Modules whose namespace the scope changes under names the read cannot
/// see: module-scope values read there are not taken as written.
#[derive(Debug, Default)]
pub(super) struct NamespaceChanges {
    /// A change the read cannot tie to one module (a store into
    /// `sys.modules`, `vars` handed on as a value, `vars(x)` or a computed
    /// `setattr` on something that may be any module): every module.
    every_module: bool,
    /// Module files changed: one using `globals()`, `exec`/`eval` or
    /// `vars()` on itself, and one another module changes through
    /// `vars(m)`, `m.__dict__[…]` or a computed `setattr(m, name, …)`.
    modules: std::collections::BTreeSet<String>,
    /// What the scope's imports resolve to, for the caller searches.
    imports: callers::ImportTargets,
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
                    && !facts.module_bindings_named(name).any(|b| b.name == name)
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
            .chain(facts.functions.iter().flat_map(|f| f.body().stores.iter()));
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
            .filter(|f| f.may_call("vars"))
            .flat_map(|f| {
                f.body()
                    .body_calls
                    .iter()
                    .map(move |c| (f.qualname.as_str(), c))
            });
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
                .body()
                .locals
                .iter()
                .any(|b| b.name == name && b.kind != BindingKind::Parameter);
            match callers::passed(modules, &mut self.imports, path, function, name) {
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
        let locals = function.map_or(&[][..], |f| f.body().locals.as_slice());
        let bindings: Vec<_> = if locals.iter().any(|b| b.name == name) {
            locals.iter().filter(|b| b.name == name).collect()
        } else {
            facts
                .module_bindings_named(name)
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
        match resolver.resolve(path, scope, &Value::Name(name.to_string().into())) {
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

    pub(super) fn withholds(&self, path: &str) -> bool {
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
    // A body whose calls are not spelled with `name` makes no call of it.
    let in_functions = facts
        .functions
        .iter()
        .filter(|f| f.may_call(name))
        .flat_map(|f| f.body().body_calls.iter());
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

/// The last names of calls that install or instrument the HTTP stack.
const INSTALLER_LAST_NAMES: [&str; 4] = [
    "install_opener",
    "patch_all",
    "monkey_patch",
    "install_cache",
];
/// An installer known by its whole name.
const INSTALLER_NAME: &str = "ddtrace.patch";
/// The beginning of the last name of an instrumenting call.
const INSTRUMENTING_PREFIX: &str = "instrument_";
/// The method an instrumentor's instance is called with.
const INSTRUMENT_METHOD: &str = "instrument";

/// Calls that install or instrument an HTTP stack anywhere in the scope
/// (`install_opener(...)`, `monkey.patch_all()`, `ddtrace.patch(...)`,
/// `RequestsInstrumentor().instrument()`): a limit on every tool that sends.
fn stack_installs(modules: &ModuleSet<'_>) -> Vec<model::ReachLimit> {
    let mut limits = Vec::new();
    for path in modules.paths() {
        let Some(facts) = modules.facts(path) else {
            continue;
        };
        // A body none of whose calls is spelled with an installer's word
        // installs nothing: its calls are not read.
        let in_functions = facts
            .functions
            .iter()
            .filter(|f| {
                INSTALLER_LAST_NAMES
                    .iter()
                    .chain(&[INSTALLER_NAME, INSTRUMENTING_PREFIX, INSTRUMENT_METHOD])
                    .any(|word| f.may_call(word))
            })
            .flat_map(|f| {
                f.body()
                    .body_calls
                    .iter()
                    .map(move |c| (f.qualname.as_str(), c))
            });
        let at_module = facts.module_calls.iter().map(|c| ("", c));
        for (scope, call) in at_module.chain(in_functions) {
            let name = crate::frameworks::imports::imported_name(facts, &call.callee, scope)
                .unwrap_or_else(|| call.callee.dotted().unwrap_or_default());
            let last = name.rsplit('.').next().unwrap_or(&name);
            let installs = INSTALLER_LAST_NAMES.contains(&last)
                || name == INSTALLER_NAME
                || last.starts_with(INSTRUMENTING_PREFIX)
                || call.receiver.as_deref().is_some_and(|(receiver, method)| {
                    method == INSTRUMENT_METHOD
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
        let attribute = store.target.last().map_or("", Text::as_str);
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
    pub(super) rebound: std::collections::BTreeSet<String>,
    /// Modules whose namespace changes under names the read cannot see
    /// (`globals()`, `vars(m)`, a computed `setattr(m, …)`, a store into
    /// `sys.modules`): their module-scope values are not taken as written.
    pub(super) namespaces: NamespaceChanges,
    /// Stores into an HTTP library.
    pub(super) patches: Vec<model::ReachLimit>,
    /// Library functions the read takes as pure, replaced somewhere in the
    /// scope (`json.dumps = audited`): a limit where a tool calls one.
    pub(super) replaced: std::collections::BTreeSet<String>,
    /// Builtins rebound through `builtins` (`builtins.print = send_log`):
    /// not read as the builtin. `None` in the set's place when one is
    /// rebound under a name the read cannot see (`builtins.__dict__[…]`).
    pub(super) rebuilt: Option<std::collections::BTreeSet<String>>,
}

impl Census {
    /// Whether code of the scope may store an attribute named `name` on
    /// some object other than `self` (a module's constant among them).
    pub fn may_rebind_attribute(&self, name: &str) -> bool {
        self.rebound.contains(name)
    }

    /// Whether the namespace of the module at `path` may change under
    /// names the read cannot see.
    pub fn withholds_module(&self, path: &str) -> bool {
        self.namespaces.withholds(path)
    }

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
                rebound.insert(attribute.to_string());
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
