//! Walks a tool's calls, and its repository helpers' to the depth bound:
//! each call is an HTTP call, a library effect, a call with no effect
//! outside the process, a helper to follow, or a named limit.
//!
//! This module walks one frame and sends each call where it is read: what
//! a call of each kind is read as lives in the submodules.

mod call_args;
mod client_settings;
mod collector;
mod connection;
mod effects;
mod http;
mod plain;
mod printed;
mod role_methods;
mod roles;
mod side;

pub use side::{budget_spent, Side};

use super::libraries as lib;
use super::model::{Hop, Place, Reach, ReachLimit};
use super::{Frame, MAX_HELPER_DEPTH, MAX_LIMITS};
use crate::python::{BindingKind, BodyCall, Text, ThinVec, Value};
use crate::resolve::{ModuleSet, Resolver, Target};
use call_args::{argument, keyword_value, model_supplied};
use collector::Collector;
use http::Method;
use plain::{is_log_method, is_module_logger, plain_chain, plain_root};
use roles::{module_role, role_of_call, roles, service_chain, Role};
use side::TAKEN_PER_STEP;
use std::collections::BTreeMap;
use std::rc::Rc;

pub struct Walker<'a, 's> {
    modules: &'a ModuleSet<'a>,
    /// What the frame being read has found so far.
    reach: Collector,
    side: &'s mut Side,
}

impl<'a, 's> Walker<'a, 's> {
    pub fn new(modules: &'a ModuleSet<'a>, side: &'s mut Side) -> Self {
        Walker {
            modules,
            reach: Collector::default(),
            side,
        }
    }

    /// The reach read. Every call stays in it (they count for the effect);
    /// the document lists the first `MAX_CALLS`, and the first
    /// `MAX_LIMITS` limits (the rest are counted).
    pub fn finish(self) -> Reach {
        let mut limits = self.reach.limits;
        // Where reading stopped for the budget is always listed, first.
        let spent = budget_spent(self.side.budget);
        if let Some(i) = limits.iter().position(|l| l.why == spent) {
            let stopped = limits.remove(i);
            limits.insert(0, stopped);
        }
        let more_limits = limits.len().saturating_sub(MAX_LIMITS);
        limits.truncate(MAX_LIMITS);
        Reach {
            calls: self.reach.calls.into_once(),
            effects: self.reach.effects.into_once(),
            limits,
            more_limits,
            defined_at: Place::default(),
        }
    }

    fn limit(&mut self, frame: &Frame<'_>, line: u32, why: String) {
        let at = Place {
            path: frame.path.to_string(),
            line,
        };
        self.reach.limit(ReachLimit { at, why });
    }

    /// One step of the side's budget (and `more`); once it is spent, the
    /// limit that says so, where reading stops.
    fn step(&mut self, frame: &Frame<'_>, line: u32, more: usize) -> bool {
        if self.side.step(more) {
            return true;
        }
        let why = budget_spent(self.side.budget);
        self.limit(frame, line, why);
        false
    }

    /// Reads a tool's own function.
    pub fn tool(&mut self, frame: &Frame<'_>) {
        self.function(frame);
    }

    /// Reads a helper frame, or takes what it reaches from the memo: a
    /// recursive one is read twice as called, then once with every
    /// parameter unnamed, then no more.
    fn read_helper(&mut self, frame: &Frame<'_>, helper: Frame<'_>, line: u32) {
        let helper = match helper.recursion {
            0..=2 => helper,
            3 => helper.unnamed(),
            _ => return,
        };
        let mut key = String::new();
        helper.memo_key(&mut key);
        {
            use std::fmt::Write as _;
            let _ = write!(
                key,
                "|depth {}|generation {}",
                helper.depth.min(MAX_HELPER_DEPTH),
                helper.recursion
            );
        }
        if let Some(recorded) = self.side.memo.get(&key).map(Rc::clone) {
            // Taking in a large reach is work of its own.
            let more = if self.reach.has_taken(&recorded) {
                0
            } else {
                recorded.size() / TAKEN_PER_STEP
            };
            if self.step(frame, line, more) {
                self.reach.merge(&recorded, &helper.via);
            }
            return;
        }
        if self.side.reading.contains(&key) {
            // Not reached (see `Side`); were it, the read under way finds
            // all this one would, but it is still named.
            let name = helper.function.map_or("…", |f| f.name.as_str());
            return self.limit(
                frame,
                line,
                format!("calls {name} again as it is being read, with the same arguments; not read again"),
            );
        }
        self.side.reading.push(key);
        let outer = std::mem::take(&mut self.reach);
        self.function(&helper);
        let found = std::mem::replace(&mut self.reach, outer);
        let recorded = Rc::new(found.relative(helper.via.len()));
        self.reach.merge(&recorded, &helper.via);
        // The key pushed above (the reads below popped their own).
        if let Some(key) = self.side.reading.pop() {
            self.side.memo.insert(key, recorded);
        }
    }

    /// Reads one function's calls.
    fn function(&mut self, frame: &Frame<'_>) {
        let Some(function) = frame.function else {
            return;
        };
        if !self.step(frame, function.line, 0) {
            return;
        }
        let roles = roles(frame);
        self.client_changes(frame, &roles);
        for call in &function.body().body_calls {
            if !self.step(frame, call.line, 0) {
                return;
            }
            self.call(frame, &roles, call);
        }
    }

    /// Attributes set on a client the function builds: its transport
    /// settings are read as settings; anything else (`session.auth = sign`,
    /// `session.hooks[…]`, `session.request = send`) may run on every
    /// request and is not read, so it is a limit.
    fn client_changes(&mut self, frame: &Frame<'_>, roles: &BTreeMap<String, Role>) {
        let scope = frame.scope();
        for store in &frame.facts.attribute_stores {
            if store.scope != scope {
                continue;
            }
            let [base, attribute, ..] = store.target.as_slice() else {
                continue;
            };
            if !matches!(roles.get(base.as_str()), Some(Role::HttpClient(..))) {
                continue;
            }
            let setting = matches!(
                attribute.as_str(),
                "headers"
                    | "auth"
                    | "timeout"
                    | "proxies"
                    | "verify"
                    | "cert"
                    | "params"
                    | "cookies"
                    | "max_redirects"
                    | "trust_env"
                    | "stream"
            );
            if !setting {
                self.limit(
                    frame,
                    store.line,
                    format!("sets {base}.{attribute} on a client, which is not read"),
                );
            }
        }
    }

    /// Reads one call, then any repository function it is handed.
    fn call(&mut self, frame: &Frame<'_>, roles: &BTreeMap<String, Role>, call: &BodyCall) {
        self.dispatch(frame, roles, call);
        self.functions_handed_over(frame, call);
    }

    fn dispatch(&mut self, frame: &Frame<'_>, roles: &BTreeMap<String, Role>, call: &BodyCall) {
        // `expression.method(...)`: on a call's result.
        if let Some((receiver, method)) = call.receiver.as_deref() {
            if lib::is_plain_data_method(method)
                && (plain_chain(frame, roles, call.chain.as_deref())
                    || plain_root(frame, roles, receiver, 0))
            {
                return;
            }
            // `client.bucket("b").blob("k").upload_from_string(…)`: handles
            // of one service, then a method of its table.
            if let Some(role) = service_chain(roles, call.chain.as_deref()) {
                return self.role_method(frame, &role, "…", method, call);
            }
            // `conn.cursor().execute(...)`: what the inner call builds.
            if let Some((
                Value::Call {
                    callee,
                    args,
                    keywords,
                },
                methods,
            )) = call.chain.as_deref()
            {
                if methods.is_empty() {
                    match role_of_call(frame, callee, args, keywords, roles, call.line) {
                        Some(Role::Plain | Role::Path(_)) | None => {}
                        Some(role) => return self.role_method(frame, &role, "…", method, call),
                    }
                }
            }
            return self.method_on_result(frame, roles, receiver, method, call);
        }
        let spelled = call.callee.dotted().unwrap_or_else(|| "…".to_string());
        // `r.text.strip()`: a method on an attribute of plain data.
        if let Value::Attribute(parts) = &call.callee {
            if parts.len() > 2
                && lib::is_plain_data_method(parts.last().map_or("", Text::as_str))
                && plain_root(frame, roles, &Value::Name(parts[0].clone()), 0)
            {
                return;
            }
            // `tool_context.state.get("units")`: reading the session state
            // the framework hands the tool has no effect outside it.
            if let [context, state, method] = parts.as_slice() {
                if state == "state"
                    && lib::is_plain_data_method(method)
                    && frame.is_injected(context)
                {
                    return;
                }
            }
            // `session.headers.update(...)`: a client's transport settings.
            if let [base, setting, method] = parts.as_slice() {
                if matches!(roles.get(base.as_str()), Some(Role::HttpClient(..)))
                    && matches!(
                        setting.as_str(),
                        "headers" | "cookies" | "params" | "proxies"
                    )
                    && matches!(method.as_str(), "update" | "setdefault" | "clear")
                {
                    return;
                }
            }
        }
        // `client.messages.create(...)`: a method reached through a service.
        if let Value::Attribute(parts) = &call.callee {
            if parts.len() > 2 {
                if let (Some(role @ Role::Service(..)), Some(method)) =
                    (roles.get((parts[0]).as_str()), parts.last())
                {
                    let role = role.clone();
                    let spelled = parts[..parts.len() - 1].join(".");
                    return self.role_method(frame, &role, &spelled, method, call);
                }
            }
        }
        // `name.method(...)` on something the function built.
        if let Value::Attribute(parts) = &call.callee {
            if let [base, method] = parts.as_slice() {
                if let Some(Role::Elsewhere(role, helper, named)) = roles.get(base.as_str()) {
                    // Named where the read goes through it.
                    if self.effect_of(|w| w.role_method(frame, role, base, method, call)) && !named
                    {
                        self.limit(
                            frame,
                            call.line,
                            format!("sends through {base}, built by {helper} outside this function; its configuration is not read"),
                        );
                    }
                    return;
                }
                if let Some(role) = roles.get(base.as_str()) {
                    return self.role_method(frame, role, base, method, call);
                }
                if !frame.locals().iter().any(|b| b.name == *base) {
                    if is_module_logger(frame, base) && is_log_method(method) {
                        return;
                    }
                    if let Some(role) = module_role(frame, base) {
                        let effect =
                            self.effect_of(|w| w.role_method(frame, &role, base, method, call));
                        if effect && !matches!(role, Role::File(_)) {
                            self.limit(
                                frame,
                                call.line,
                                format!("sends through {base}, built outside this function; its configuration is not read"),
                            );
                        }
                        return;
                    }
                }
                if lib::is_plain_data_method(method)
                    && plain_root(frame, roles, &Value::Name(base.clone()), 0)
                {
                    return;
                }
            }
        }
        if let Some(name) = frame.library_name(&call.callee) {
            return self.library_call(frame, &name, call);
        }
        // `SessionLocal()`: a session factory hands out a session, read
        // where it is used.
        if let Value::Name(name) = &call.callee {
            let local = frame.locals().iter().any(|b| b.name == *name);
            let object = frame
                .module_binding(name)
                .is_some_and(|b| matches!(b.kind, BindingKind::Import | BindingKind::Assignment));
            if !local
                && object
                && matches!(
                    module_role(frame, name),
                    Some(Role::Service(_, "sqlalchemy", ..))
                )
            {
                return;
            }
        }
        if let Value::Name(name) = &call.callee {
            if !frame.shadows(name) {
                if name == "open" {
                    return self.open(frame, "builtins", "open", call);
                }
                if matches!(name.as_str(), "map" | "filter") {
                    return self.handed_on(frame, call);
                }
                if name == "print" && frame.pure_builtin(name) {
                    if let Some(file) = keyword_value(call, "file") {
                        return self.print_to(frame, roles, file, call);
                    }
                }
                if frame.pure_builtin(name) {
                    return;
                }
            }
        }
        if self.helper(frame, call) {
            return;
        }
        // A class or value the name resolves to says why it is not read.
        let mut resolver = Resolver::new(self.modules);
        let detail = match resolver.resolve(frame.path, frame.scope(), &call.callee) {
            Err(why) if why.contains(" is a class") => format!(" ({why})"),
            _ => String::new(),
        };
        self.limit(
            frame,
            call.line,
            format!("calls {spelled}{detail}, which is not read"),
        );
    }

    /// `print(..., file=f)` writes to its file: standard output and error
    /// and a file the function opened (whose `open` is its effect) are
    /// read; a file the module opened is a write named here; any other is
    /// a limit.
    fn print_to(
        &mut self,
        frame: &Frame<'_>,
        roles: &BTreeMap<String, Role>,
        file: &Value,
        call: &BodyCall,
    ) {
        if matches!(file, Value::None)
            || frame
                .library_name(file)
                .is_some_and(|n| matches!(n.as_str(), "sys.stdout" | "sys.stderr"))
        {
            return;
        }
        if let Value::Name(name) = file {
            if matches!(roles.get(name.as_str()), Some(Role::Plain)) {
                return;
            }
            if !frame.locals().iter().any(|b| b.name == *name) {
                if let Some(Role::File(path)) = module_role(frame, name) {
                    let module = frame.at_module(frame.path);
                    self.file_effect(&module, "builtins", "print", "write", Some(&path), call);
                    return self.arguments_supplied(frame, call);
                }
            }
        }
        let spelled = file.dotted().unwrap_or_else(|| "…".into());
        self.limit(
            frame,
            call.line,
            format!("prints to {spelled}, which is not read"),
        );
    }

    /// The tool parameters a call's arguments carry, added to the effect
    /// just recorded for it (what a tool writes to a module's file).
    fn arguments_supplied(&mut self, frame: &Frame<'_>, call: &BodyCall) {
        let supplied = model_supplied(frame, call, "arguments");
        if let Some(effect) = self.reach.effects.last_mut() {
            for entry in supplied {
                if !effect.model_supplied.contains(&entry) {
                    effect.model_supplied.push(entry);
                }
            }
        }
    }

    /// A repository function handed to another call (`sorted(xs,
    /// key=rank)`, `asyncio.to_thread(get_services)`, `Thread(target=run)`)
    /// is read as called, with its parameters unnamed; the call that
    /// receives it is read on its own. `map`/`filter` and a request's or
    /// client's hooks and auth are read where they run.
    fn functions_handed_over(&mut self, frame: &Frame<'_>, call: &BodyCall) {
        if matches!(&call.callee, Value::Name(n) if matches!(n.as_str(), "map" | "filter") && !frame.shadows(n))
        {
            return;
        }
        let handed = call.args.iter().chain(
            call.keywords
                .iter()
                .filter(|(k, _)| !matches!(k.as_deref(), Some("auth" | "hooks" | "event_hooks")))
                .map(|(_, v)| v),
        );
        // Only a name the module binds by `def` or import can be a
        // repository function (resolving is the costly part).
        let may_be_function = |name: &str| {
            if frame.params.contains_key(name) || frame.args.contains_key(name) {
                return false;
            }
            let local: Vec<_> = frame.locals().iter().filter(|b| b.name == name).collect();
            if !local.is_empty() {
                return local.iter().all(|b| b.kind == BindingKind::Import);
            }
            frame.facts.module_bindings.iter().any(|b| {
                b.name == name && matches!(b.kind, BindingKind::Function | BindingKind::Import)
            })
        };
        let mut functions = Vec::new();
        for value in handed {
            let named = match value {
                Value::Name(name) => may_be_function(name),
                Value::Attribute(parts) => parts.first().is_some_and(|root| may_be_function(root)),
                _ => false,
            };
            if !named {
                continue;
            }
            let mut resolver = Resolver::new(self.modules);
            if let Ok(found) = resolver.resolve(frame.path, frame.scope(), value) {
                if matches!(found.target, Target::Function { .. }) {
                    functions.push(value.clone());
                }
            }
        }
        for function in functions {
            let synthetic = BodyCall {
                callee: function,
                receiver: None,
                chain: None,
                args: ThinVec::new(),
                keywords: ThinVec::new(),
                line: call.line,
            };
            self.helper(frame, &synthetic);
        }
    }

    /// Whether reading a call through `read` records an outbound call or
    /// an effect.
    fn effect_of(&mut self, read: impl FnOnce(&mut Self)) -> bool {
        let before = self.reach.found();
        read(self);
        self.reach.found() != before
    }

    /// `map(f, xs)`, `filter(f, xs)`: the function handed on runs; a
    /// repository function is read as called, any other is a limit.
    fn handed_on(&mut self, frame: &Frame<'_>, call: &BodyCall) {
        let Some(function) = call.args.first() else {
            return;
        };
        if !matches!(function, Value::Name(_) | Value::Attribute(_)) {
            return;
        }
        if let Value::Name(name) = function {
            if frame.pure_builtin(name) {
                return;
            }
        }
        if frame
            .library_name(function)
            .is_some_and(|n| frame.pure_function(&n))
        {
            return;
        }
        let synthetic = BodyCall {
            callee: function.clone(),
            receiver: None,
            chain: None,
            args: ThinVec::new(),
            keywords: ThinVec::new(),
            line: call.line,
        };
        if !self.helper(frame, &synthetic) {
            let spelled = function.dotted().unwrap_or_default();
            self.limit(
                frame,
                call.line,
                format!("hands on {spelled}, which is not read"),
            );
        }
    }

    /// A call of a library function, by its absolute name.
    fn library_call(&mut self, frame: &Frame<'_>, name: &str, call: &BodyCall) {
        if frame.census.replaced.contains(name) {
            let spelled = call.callee.dotted().unwrap_or_else(|| name.to_string());
            return self.limit(
                frame,
                call.line,
                format!("calls {spelled}, which the scope replaces; not read"),
            );
        }
        if let Some((library, method)) = lib::http_function(name) {
            let (method, url) = match method {
                Some(method) => (Method::Fixed(method), argument(call, 0, "url")),
                None => (
                    Method::Spelled(argument(call, 0, "method")),
                    argument(call, 1, "url"),
                ),
            };
            self.http(frame, library, method, url, None, call);
            return self.request_hooks(frame, call);
        }
        if name == "urllib.request.urlopen" {
            return self.urlopen(frame, call);
        }
        if let Some(library) = lib::process_function(name) {
            return self.process(frame, library, name, call);
        }
        if let Some((library, writes)) = lib::filesystem_function(name) {
            return match writes {
                None => self.open(frame, library, name, call),
                Some(writes) => {
                    let path = argument(call, 0, "path");
                    let operation = if writes { "write" } else { "read" };
                    self.file_effect(frame, library, name, operation, path, call)
                }
            };
        }
        if lib::http_client(name).is_some()
            || lib::database_connect(name).is_some()
            || lib::service_client(name).is_some()
            || name == "urllib.request.Request"
            || frame.pure_function(name)
        {
            return;
        }
        let spelled = call.callee.dotted().unwrap_or_else(|| name.to_string());
        self.limit(
            frame,
            call.line,
            format!("calls {spelled}, which is not read"),
        );
    }

    /// Follows a call of a repository function; `false` when it is none.
    fn helper(&mut self, frame: &Frame<'_>, call: &BodyCall) -> bool {
        let mut resolver = Resolver::new(self.modules);
        let Ok(found) = resolver.resolve(frame.path, frame.scope(), &call.callee) else {
            return false;
        };
        let Target::Function { path, function } = found.target else {
            return false;
        };
        let spelled = call.callee.dotted().unwrap_or_default();
        // A function the scope rebinds elsewhere is not taken as written.
        if frame.census.rebound.contains(function.name.as_str()) {
            self.limit(
                frame,
                call.line,
                format!("calls {spelled}, which the scope rebinds as a module attribute; not read"),
            );
            return true;
        }
        // A recursive call (of the function to itself) has its own bound
        // (twice as called, then once unnamed), so it does not count
        // against the helper bound.
        let recursive = frame.path == path
            && frame
                .function
                .is_some_and(|f| f.line == function.line && f.qualname == function.qualname);
        if frame.depth >= MAX_HELPER_DEPTH && !recursive {
            self.limit(
                frame,
                call.line,
                format!(
                    "calls {spelled}, more than {MAX_HELPER_DEPTH} helper calls from the tool; not read"
                ),
            );
            return true;
        }
        if !function.decorators.is_empty() {
            self.limit(
                frame,
                call.line,
                format!("calls {spelled}, whose decorator is not read"),
            );
            return true;
        }
        let Some(facts) = self.modules.facts(path) else {
            return false;
        };
        let mut via = frame.via.clone();
        via.push(Hop {
            at: place(frame, call.line),
            name: function.name.to_string(),
        });
        let mut helper = frame.callee(path, facts, function, &call.args, &call.keywords);
        helper.via = via;
        helper.depth = frame.depth + 1;
        helper.recursion = if recursive { frame.recursion + 1 } else { 0 };
        self.read_helper(frame, helper, call.line);
        true
    }
}

fn place(frame: &Frame<'_>, line: u32) -> Place {
    Place {
        path: frame.path.to_string(),
        line,
    }
}
