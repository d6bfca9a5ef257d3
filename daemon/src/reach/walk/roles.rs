//! What a name holds when the function, its module or a helper builds
//! it: an HTTP client, a database connection, a cloud, messaging or
//! key-value client, a path, a file the module opens, or plain data; and
//! which of those are built outside the function that uses them (a
//! module's object, a lazily built global, what a helper returns).

use super::client_settings::ClientSettings;
use super::connection::{host_text, Connection};
use super::printed::credential;
use crate::python::{BindingKind, Text, Value};
use crate::reach::libraries as lib;
use crate::reach::model::Credential;
use crate::reach::{Frame, MAX_HELPER_DEPTH};
use crate::resolve::{Resolver, Target};
use std::collections::BTreeMap;

/// What a local name holds, when the function builds it.
#[derive(Debug, Clone)]
pub(super) enum Role {
    /// A client of an HTTP library: `(library, base_url, (line, hooks))`;
    /// its hooks (set where it is built, on that line) run on every request
    /// it sends.
    HttpClient(&'static str, Option<Value>, ClientSettings),
    /// A database connection or cursor: `(library, service, role, where
    /// it connects)`.
    Database(&'static str, &'static str, &'static str, Connection),
    /// A cloud, messaging or key-value client: `(family, library, service,
    /// host)`.
    Service(
        &'static str,
        &'static str,
        String,
        Option<String>,
        Vec<Credential>,
    ),
    /// A `pathlib.Path`.
    Path(Value),
    /// A file the module opens at import (`LOG = open("app.log", "a")`):
    /// its path, read in the module's frame. A tool's writes to it are
    /// named where the tool makes them.
    File(Value),
    /// Plain data: a literal, a response a recognised library returned, a
    /// file this function opened.
    Plain,
    /// A client or connection a repository helper builds and returns
    /// (`conn = get_pool()`): read, one call past the helper bound, and
    /// named, since it is built outside the function that uses it; the
    /// flag says the call that builds it is already a limit (past the
    /// helper bound), which then names it.
    Elsewhere(Box<Role>, String, bool),
}

/// What the function's own single assignments and `with` targets hold.
pub(super) fn roles(frame: &Frame<'_>) -> BTreeMap<String, Role> {
    let mut roles = BTreeMap::new();
    let Some(function) = frame.function else {
        return roles;
    };
    for binding in &function.body().locals {
        let same: usize = function
            .body()
            .locals
            .iter()
            .filter(|b| b.name == binding.name)
            .count();
        if same != 1 || !matches!(binding.kind, BindingKind::Assignment | BindingKind::With) {
            continue;
        }
        // `client["shop"]["orders"]`, `client.shop.orders`: a handle of
        // the same service.
        // `WORKDIR / f"{name}.md"`: a path joined onto a path.
        if let Some(Value::BinOp { left, op, right }) = &binding.value {
            if op == "/" {
                if let Some(base) = path_of(frame, &roles, left) {
                    let joined =
                        Value::FString(vec![base, Value::Str("/".into()), (**right).clone()]);
                    roles.insert(binding.name.to_string(), Role::Path(joined));
                }
                continue;
            }
        }
        if let Some(root) = binding.value.as_ref().and_then(handle_root) {
            if let Some(role @ Role::Service(..)) = roles.get(&root) {
                roles.insert(binding.name.to_string(), role.clone());
                continue;
            }
        }
        let Some(Value::Call {
            callee,
            args,
            keywords,
        }) = &binding.value
        else {
            if matches!(
                binding.value,
                Some(
                    Value::Str(_)
                        | Value::FString(_)
                        | Value::Dict(_)
                        | Value::List(_)
                        | Value::Number(_)
                )
            ) {
                roles.insert(binding.name.to_string(), Role::Plain);
            }
            continue;
        };
        let role = role_of_call(frame, callee, args, keywords, &roles, binding.line)
            .or_else(|| returned_role(frame, callee));
        if let Some(mut role) = role {
            if let Role::HttpClient(_, _, settings) = &mut role {
                settings.read_changes(
                    &function.body().stores,
                    &function.body().body_calls,
                    &binding.name,
                );
            }
            roles.insert(binding.name.to_string(), role);
        }
    }
    roles
}

/// The path a value names when it is a `pathlib.Path`: one the function
/// built, one the module builds once (`WORKDIR = Path(...)`), or a call of
/// `Path(...)` itself.
fn path_of(frame: &Frame<'_>, roles: &BTreeMap<String, Role>, value: &Value) -> Option<Value> {
    path_at(frame, roles, value, 0)
}

fn path_at(
    frame: &Frame<'_>,
    roles: &BTreeMap<String, Role>,
    value: &Value,
    depth: usize,
) -> Option<Value> {
    if depth > 8 {
        return None;
    }
    match value {
        Value::Name(name) => match roles.get(name.as_str()) {
            Some(Role::Path(path)) => Some(path.clone()),
            Some(_) => None,
            None if frame.locals().iter().any(|b| b.name == *name) => None,
            None => {
                let binding = frame.module_binding(name)?;
                if binding.kind != BindingKind::Assignment
                    || binding.conditional
                    || frame.census.rebound.contains(name.as_str())
                {
                    return None;
                }
                let module = frame.at_module(frame.path);
                path_at(
                    &module,
                    &BTreeMap::new(),
                    binding.value.as_ref()?,
                    depth + 1,
                )
            }
        },
        Value::Call { callee, args, .. }
            if frame.library_name(callee).as_deref() == Some("pathlib.Path") =>
        {
            Some(args.first().cloned().unwrap_or(Value::Str(".".into())))
        }
        _ => None,
    }
}

/// What a repository helper builds and returns from its one return: a
/// client, connection or service object (a pool a helper builds).
fn returned_role(frame: &Frame<'_>, callee: &Value) -> Option<Role> {
    let mut resolver = Resolver::new(frame.modules);
    let found = resolver.resolve(frame.path, frame.scope(), callee).ok()?;
    let Target::Function { path, function } = found.target else {
        return None;
    };
    // Past the helper bound, the call itself is named as a limit.
    let past_bound = frame.depth >= MAX_HELPER_DEPTH;
    let module = frame.at_module(path);
    // `return _pool`: a lazily built module global, returned by every
    // return, the last unconditional (double-checked locking returns it
    // early too: `if _pool is not None: return _pool`). Whichever return
    // runs, the value is that global's.
    if let Some(global) = returned_global(function) {
        return lazy_global(&module, global).map(|role| {
            Role::Elsewhere(
                Box::new(role),
                callee.dotted().unwrap_or_default(),
                past_bound,
            )
        });
    }
    let [only] = function.body().returns_found.as_slice() else {
        return None;
    };
    if only.conditional {
        return None;
    }
    let Some(Value::Call {
        callee: inner,
        args,
        keywords,
    }) = &only.value
    else {
        return None;
    };
    let role = role_of_call(&module, inner, args, keywords, &BTreeMap::new(), only.line)?;
    match role {
        Role::Plain | Role::Path(_) => None,
        role => Some(Role::Elsewhere(
            Box::new(role),
            callee.dotted().unwrap_or_default(),
            past_bound,
        )),
    }
}

/// The module global every return of `function` returns, when the last
/// return is unconditional and the function does not bind that name as a
/// local of its own (or declares it `global`).
fn returned_global(function: &crate::python::FunctionFact) -> Option<&str> {
    let returns = &function.body().returns_found;
    if returns.last().is_none_or(|last| last.conditional) {
        return None;
    }
    let mut global = None;
    for found in returns {
        let Some(Value::Name(name)) = &found.value else {
            return None;
        };
        if global.is_some_and(|g: &str| g != name.as_str()) {
            return None;
        }
        global = Some(name.as_str());
    }
    let global = global?;
    (!function.binds_local(global) || function.globals.iter().any(|g| g == global))
        .then_some(global)
}

/// The name a subscript or attribute chain starts from (`client` in
/// `client["shop"]["orders"]` or `client.shop.orders`).
fn handle_root(value: &Value) -> Option<String> {
    match value {
        Value::Subscript { base, .. } => handle_root(base),
        Value::Attribute(parts) if parts.len() > 1 => parts.first().map(ToString::to_string),
        Value::Name(name) => Some(name.to_string()),
        _ => None,
    }
}

/// What a call builds, when it is a client, connection, path or plain
/// data this reader knows.
pub(super) fn role_of_call(
    frame: &Frame<'_>,
    callee: &Value,
    args: &[Value],
    keywords: &[(Option<Text>, Value)],
    roles: &BTreeMap<String, Role>,
    line: u32,
) -> Option<Role> {
    if let Some(name) = frame.library_name(callee) {
        if let Some(library) = lib::http_client(&name) {
            let base = keywords
                .iter()
                .find(|(k, _)| k.as_deref() == Some("base_url"))
                .map(|(_, v)| v.clone());
            let hooks = keywords
                .iter()
                .filter(|(k, _)| matches!(k.as_deref(), Some("hooks" | "event_hooks" | "auth")))
                .map(|(_, v)| v.clone())
                .collect();
            let defaults = keywords
                .iter()
                .filter(|(k, _)| matches!(k.as_deref(), Some("headers" | "auth" | "params")))
                .cloned()
                .collect();
            Some(Role::HttpClient(
                library,
                base,
                ClientSettings {
                    line,
                    hooks,
                    defaults,
                    later_hooks: Vec::new(),
                },
            ))
        } else if let Some((library, service)) = lib::database_connect(&name) {
            Some(Role::Database(
                library,
                service,
                "connection",
                Connection::of(frame, args, keywords),
            ))
        } else if let Some((family, library, service)) = lib::service_client(&name) {
            let service = match (library, args.first()) {
                ("boto3", Some(Value::Str(s))) => s.clone(),
                // `create_engine("postgresql+psycopg2://…")`: the dialect.
                ("sqlalchemy", Some(Value::Str(url))) => url
                    .split("://")
                    .next()
                    .and_then(|scheme| scheme.split('+').next())
                    .unwrap_or("")
                    .to_string()
                    .into(),
                _ => service.to_string().into(),
            };
            // The host a client connects to, when its construction names it.
            let host = match (library, args.first()) {
                ("smtplib", Some(first)) => Some(host_text(frame, first)),
                _ => keywords
                    .iter()
                    .find(|(k, _)| k.as_deref() == Some("host"))
                    .map(|(_, v)| host_text(frame, v)),
            };
            // Credentials the client is built with, by name only.
            let credentials = keywords
                .iter()
                .filter_map(|(k, v)| {
                    let k = k.as_deref()?;
                    lib::is_credential_name(k)
                        .then(|| credential("keyword", Some(k.to_string()), &frame.sources(v)))
                })
                .collect();
            Some(Role::Service(
                family,
                library,
                service.to_string(),
                host,
                credentials,
            ))
        } else if name == "pathlib.Path" {
            Some(Role::Path(
                args.first().cloned().unwrap_or(Value::Other("path".into())),
            ))
        } else if lib::http_function(&name).is_some()
            || frame.pure_function(&name)
            || name == "urllib.request.urlopen"
        {
            Some(Role::Plain)
        } else {
            None
        }
    } else {
        // `cur = _pool.cursor()` on a module's object: what it hands back
        // is built outside the function too.
        if let Value::Attribute(parts) = callee {
            if let [base, _] = parts.as_slice() {
                // `conn = db.getconn()` on what a helper built: built
                // elsewhere too.
                if let Some(Role::Elsewhere(inner, helper, named)) = roles.get(base.as_str()) {
                    let held = BTreeMap::from([(base.to_string(), (**inner).clone())]);
                    return match role_of_call(frame, callee, args, keywords, &held, line)? {
                        Role::Plain => Some(Role::Plain),
                        role => Some(Role::Elsewhere(Box::new(role), helper.clone(), *named)),
                    };
                }
                let outside = !roles.contains_key(base.as_str())
                    && !frame.locals().iter().any(|b| b.name == *base);
                if let Some(held) = outside.then(|| module_role(frame, base)).flatten() {
                    let held = BTreeMap::from([(base.to_string(), held)]);
                    // Built by the helper this function calls to build it
                    // (`if _pool is None: init_db_pool()`), it is that
                    // helper's, named as a client a helper returns is.
                    let (builder, named) = match lazy_builder_called(frame, base) {
                        Some(builder) => (builder, frame.depth >= MAX_HELPER_DEPTH),
                        None => (base.to_string(), false),
                    };
                    return match role_of_call(frame, callee, args, keywords, &held, line)? {
                        Role::Plain => Some(Role::Plain),
                        role => Some(Role::Elsewhere(Box::new(role), builder, named)),
                    };
                }
            }
        }
        match callee {
            // `cur = conn.cursor()` on a connection the function built.
            Value::Attribute(parts) => match parts.as_slice() {
                [base, method] => match roles.get(base.as_str()) {
                    Some(Role::Database(library, service, _, connection)) if method == "cursor" => {
                        Some(Role::Database(
                            library,
                            service,
                            "cursor",
                            connection.clone(),
                        ))
                    }
                    // A connection a pool hands out.
                    Some(Role::Database(library, service, _, connection))
                        if matches!(method.as_str(), "getconn" | "acquire" | "connection") =>
                    {
                        Some(Role::Database(
                            library,
                            service,
                            "connection",
                            connection.clone(),
                        ))
                    }
                    // A handle the service hands back (`client.bucket("b")`).
                    Some(Role::Service(family, library, service, host, credentials))
                        if lib::service_handle(library, method) =>
                    {
                        Some(Role::Service(
                            family,
                            library,
                            service.clone(),
                            host.clone(),
                            credentials.clone(),
                        ))
                    }
                    // What a plain value's read-only method returns.
                    Some(Role::Plain) if lib::is_plain_data_method(method) => Some(Role::Plain),
                    // A client's response (`async with session.get(u) as r`).
                    Some(Role::HttpClient(..))
                        if lib::http_verb(method).is_some() || method == "request" =>
                    {
                        Some(Role::Plain)
                    }
                    _ => None,
                },
                _ => None,
            },
            Value::Name(n) if n == "open" && !frame.shadows(n) => Some(Role::Plain),
            // `SessionLocal()`: a session from a module's session factory,
            // built outside the function.
            Value::Name(n)
                if !roles.contains_key(n.as_str())
                    && !frame.locals().iter().any(|b| b.name == *n) =>
            {
                match module_role(frame, n)? {
                    role @ Role::Service(_, "sqlalchemy", ..) => {
                        Some(Role::Elsewhere(Box::new(role), n.to_string(), false))
                    }
                    _ => None,
                }
            }
            Value::Name(n) if frame.pure_builtin(n) => Some(Role::Plain),
            _ => None,
        }
    }
}

/// The service a chain of handle methods starts from
/// (`client.bucket("b").blob("k")`).
pub(super) fn service_chain(
    roles: &BTreeMap<String, Role>,
    chain: Option<&(Value, Vec<Text>)>,
) -> Option<Role> {
    let (root, methods) = chain?;
    let (base, first) = match root {
        Value::Call { callee, .. } => match callee.as_ref() {
            Value::Attribute(parts) => match parts.as_slice() {
                [base, first] => (base, first),
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    let role = roles.get(base.as_str())?;
    let library = service_library(role);
    (!library.is_empty()
        && lib::service_handle(library, first)
        && methods.iter().all(|m| lib::service_handle(library, m)))
    .then(|| role.clone())
}

/// A client or connection the module builds at top level: a call through
/// it is read, and named as a limit, since anything may configure it.
pub(super) fn module_role(frame: &Frame<'_>, name: &str) -> Option<Role> {
    // Module objects are built from one another (`a = b.f()`, `b =
    // a.g()`, imports both ways): a bounded number of steps, so hostile
    // code cannot recurse without end.
    thread_local! {
        static STEPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }
    const MAX_STEPS: usize = 8;
    let steps = STEPS.with(std::cell::Cell::get);
    if steps >= MAX_STEPS {
        return None;
    }
    STEPS.with(|s| s.set(steps + 1));
    let role = module_role_once(frame, name);
    STEPS.with(|s| s.set(steps));
    role
}

fn module_role_once(frame: &Frame<'_>, name: &str) -> Option<Role> {
    // A name an enclosing function binds is not the module's.
    if frame.closure_value(name).is_some() {
        return None;
    }
    if let Some(role) = lazy_global(&frame.at_module(frame.path), name) {
        return Some(role);
    }
    let binding = frame.module_binding(name)?;
    // An object another module of the scope builds (`from .db import
    // engine`): read where that module binds it.
    if binding.kind == BindingKind::Import && !binding.conditional {
        // Only `from m import name` binds an object; `import m` a module.
        let from_import = frame
            .facts
            .imports
            .iter()
            .any(|i| i.bound_name() == name && i.name.is_some());
        if !from_import {
            return None;
        }
        let mut resolver = Resolver::new(frame.modules);
        let found = resolver
            .resolve(frame.path, "", &Value::Name(name.to_string().into()))
            .ok()?;
        let Target::Value { path, name, .. } = found.target else {
            return None;
        };
        let module = frame.at_module(path);
        return module_role(&module, &name);
    }
    let Some(Value::Call {
        callee,
        args,
        keywords,
    }) = &binding.value
    else {
        return None;
    };
    if binding.kind != BindingKind::Assignment || frame.census.rebound.contains(name) {
        return None;
    }
    let module = frame.at_module(frame.path);
    // A file the module opens at import.
    let opens = match callee.as_ref() {
        Value::Name(n) => n == "open" && !module.shadows(n),
        other => module
            .library_name(other)
            .is_some_and(|n| matches!(n.as_str(), "io.open" | "codecs.open")),
    };
    if opens {
        let path = args.first().or_else(|| {
            keywords
                .iter()
                .find(|(k, _)| k.as_deref() == Some("file"))
                .map(|(_, v)| v)
        });
        return Some(Role::File(
            path.cloned().unwrap_or(Value::Other("file".into())),
        ));
    }
    match role_of_call(
        &module,
        callee,
        args,
        keywords,
        &BTreeMap::new(),
        binding.line,
    ) {
        Some(Role::Plain | Role::Path(_)) | None => None,
        // What the module sets on its client when it builds it
        // (`SESSION.headers.update(...)` at module level).
        Some(Role::HttpClient(library, base, mut settings)) => {
            settings.read_changes(
                &module.facts.module_stores,
                &module.facts.module_calls,
                name,
            );
            Some(Role::HttpClient(library, base, settings))
        }
        role => role,
    }
}

/// The lazy pool pattern: a module global set, at module level and by the
/// module's own functions (`global _pool`), only to `None` or to one kind
/// of recognised object, and stored into by nothing else in the scope,
/// holds that object.
fn lazy_global(module: &Frame<'_>, name: &str) -> Option<Role> {
    // Bound at module level (`_pool = None`): the cheap test first.
    if module.census.rebound.contains(name)
        || !module
            .facts
            .module_bindings_named(name)
            .any(|b| b.name == name)
    {
        return None;
    }
    let at_module = module
        .facts
        .module_bindings_named(name)
        .filter(|b| b.name == name);
    let in_functions = module
        .facts
        .functions
        .iter()
        .filter(|f| f.globals.iter().any(|g| g == name))
        .flat_map(|f| f.locals_named(name));
    let mut kind: Option<Role> = None;
    let mut sets = 0;
    for binding in at_module.chain(in_functions) {
        sets += 1;
        if binding.kind != BindingKind::Assignment {
            return None;
        }
        match &binding.value {
            Some(Value::None) => {}
            Some(Value::Call {
                callee,
                args,
                keywords,
            }) => {
                let role = role_of_call(
                    module,
                    callee,
                    args,
                    keywords,
                    &BTreeMap::new(),
                    binding.line,
                )?;
                let same = match (&kind, &role) {
                    (_, Role::Plain | Role::Path(_) | Role::File(_) | Role::Elsewhere(..)) => false,
                    (None, _) => true,
                    (Some(known), role) => {
                        std::mem::discriminant(known) == std::mem::discriminant(role)
                            && service_library(known) == service_library(role)
                    }
                };
                if !same {
                    return None;
                }
                kind.get_or_insert(role);
            }
            _ => return None,
        }
    }
    // Set by at least one function besides its module-level `None`.
    (sets > 1).then_some(kind).flatten()
}

/// The helper of its own module that the function calls to build the
/// lazily built global `global` (one that sets it under `global`), when
/// it calls one: `if _pool is None: init_db_pool()`.
fn lazy_builder_called(frame: &Frame<'_>, global: &str) -> Option<String> {
    let function = frame.function?;
    lazy_global(&frame.at_module(frame.path), global)?;
    let builds = |name: &str| {
        frame.facts.functions.iter().any(|f| {
            f.module_level
                && f.name == name
                && f.globals.iter().any(|g| g == global)
                && f.binds_local(global)
        })
    };
    (function
        .body()
        .body_calls
        .iter()
        .find_map(|call| match &call.callee {
            Value::Name(name) if !function.binds_local(name) && builds(name) => Some(name.clone()),
            _ => None,
        }))
    .map(Into::into)
}

pub(super) fn service_library(role: &Role) -> &'static str {
    match role {
        Role::Service(_, library, ..) => library,
        _ => "",
    }
}
