//! Walks a tool's calls, and its repository helpers' to the depth bound:
//! each call is an HTTP call, a library effect, a call with no effect
//! outside the process, a helper to follow, or a named limit.

use super::libraries as lib;
use super::model::{
    Credential, Field, FieldFact, Hop, HttpCall, LibraryEffect, Place, Printable, Reach, ReachLimit,
};
use super::values::{Literal, Sources};
use super::{Frame, MAX_HELPER_DEPTH, MAX_LIMITS};
use crate::python::{BindingKind, BodyCall, StoredUnder, Value};
use crate::resolve::{ModuleSet, Resolver, Target};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;

/// What a local name holds, when the function builds it.
#[derive(Debug, Clone)]
enum Role {
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

/// What reading one frame found, in the order found: every call and
/// effect once (two found by different ways, the `via`, are one; the first
/// way is kept), every limit once.
#[derive(Debug, Default)]
struct Collector {
    calls: Found<HttpCall>,
    effects: Found<LibraryEffect>,
    limits: Vec<ReachLimit>,
    /// The limits already in `limits`.
    seen_limits: Seen<ReachLimit>,
    /// Helpers' remembered reaches already taken in (by address: the
    /// side's memo holds each while the side is read).
    taken: Seen<usize>,
    /// How many of those brought calls or effects, found again or not (so
    /// a reader can tell that a read reached something).
    reached: usize,
}

impl Collector {
    fn limit(&mut self, limit: ReachLimit) {
        if self.seen_limits.insert(&limit) {
            self.limits.push(limit);
        }
    }

    fn has_taken(&self, recorded: &Rc<Recorded>) -> bool {
        self.taken.contains(&(Rc::as_ptr(recorded) as usize))
    }

    /// How much has been found: grows with every call or effect a read
    /// reaches, found before or not.
    fn found(&self) -> (usize, usize, usize) {
        (self.calls.len(), self.effects.len(), self.reached)
    }

    /// What a helper's read found, with each `via` relative to the helper
    /// (its first `depth` hops, the way to the helper, dropped: everything
    /// recorded while a frame is read is recorded by the way to it, or to
    /// a helper below it).
    fn relative(self, depth: usize) -> Recorded {
        let mut calls = self.calls.into_once();
        for call in &mut calls {
            call.via.drain(..depth.min(call.via.len()));
        }
        let mut effects = self.effects.into_once();
        for effect in &mut effects {
            effect.via.drain(..depth.min(effect.via.len()));
        }
        Recorded {
            calls,
            effects,
            limits: self.limits,
        }
    }

    /// Takes in what a helper reached, by the way `via` to it; what was
    /// found before stays as it was found first.
    fn merge(&mut self, recorded: &Rc<Recorded>, via: &[Hop]) {
        if !recorded.calls.is_empty() || !recorded.effects.is_empty() {
            self.reached += 1;
        }
        // Taken in once already: all of it is here.
        if !self.taken.insert(&(Rc::as_ptr(recorded) as usize)) {
            return;
        }
        self.calls.take_in(&recorded.calls, via);
        self.effects.take_in(&recorded.effects, via);
        for limit in &recorded.limits {
            self.limit(limit.clone());
        }
    }
}

/// A set that is a list while it is small (most frames find a few things).
#[derive(Debug)]
struct Seen<T> {
    few: Vec<T>,
    many: HashSet<T>,
}

impl<T> Default for Seen<T> {
    fn default() -> Self {
        Seen {
            few: Vec::new(),
            many: HashSet::new(),
        }
    }
}

impl<T: Clone + Eq + std::hash::Hash> Seen<T> {
    const FEW: usize = 16;

    fn contains(&self, item: &T) -> bool {
        if self.many.is_empty() {
            self.few.contains(item)
        } else {
            self.many.contains(item)
        }
    }

    /// `false` when it is here already.
    fn insert(&mut self, item: &T) -> bool {
        if self.contains(item) {
            return false;
        }
        if self.many.is_empty() && self.few.len() < Self::FEW {
            self.few.push(item.clone());
            return true;
        }
        if self.many.is_empty() {
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(item.clone());
        true
    }
}

/// A call or an effect, compared without the way it was reached.
trait Reached: Clone {
    fn via_mut(&mut self) -> &mut Vec<Hop>;
    fn fingerprint(&self) -> u64;
    fn same(&self, other: &Self) -> bool;
}

/// Calls or effects in the order found, with an index of those found by
/// more than one way. A reader may still change the one it just recorded
/// (`last_mut`), so what a frame records itself is indexed only when a
/// helper's reach is taken in, and made unique when the frame is read.
#[derive(Debug)]
struct Found<T> {
    items: Vec<T>,
    /// Fingerprint to the indices of `items[..indexed]` with it.
    index: HashMap<u64, Vec<usize>>,
    indexed: usize,
}

impl<T> Default for Found<T> {
    fn default() -> Self {
        Found {
            items: Vec::new(),
            index: HashMap::new(),
            indexed: 0,
        }
    }
}

impl<T: Reached> Found<T> {
    fn push(&mut self, item: T) {
        self.items.push(item);
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn last_mut(&mut self) -> Option<&mut T> {
        self.items.last_mut()
    }

    fn catch_up(&mut self) {
        while self.indexed < self.items.len() {
            let i = self.indexed;
            let print = self.items[i].fingerprint();
            self.index.entry(print).or_default().push(i);
            self.indexed += 1;
        }
    }

    /// Adds `items` (each once already), reached by `via` and then each
    /// its own `via`, but those here already.
    fn take_in(&mut self, items: &[T], via: &[Hop]) {
        let rooted = |item: &T| {
            let mut rooted = item.clone();
            let rest = std::mem::take(rooted.via_mut());
            let hops = rooted.via_mut();
            hops.reserve(via.len() + rest.len());
            hops.extend_from_slice(via);
            hops.extend(rest);
            rooted
        };
        // Nothing here yet: nothing to find again.
        if self.items.is_empty() {
            self.items.extend(items.iter().map(rooted));
            return;
        }
        self.catch_up();
        for item in items {
            let print = item.fingerprint();
            let found = &self.items;
            if self
                .index
                .get(&print)
                .is_some_and(|at| at.iter().any(|&i| found[i].same(item)))
            {
                continue;
            }
            self.items.push(rooted(item));
            self.catch_up();
        }
    }

    /// The items, each once (the first found).
    fn into_once(self) -> Vec<T> {
        // A few are compared with each other.
        if self.items.len() <= 8 {
            let mut out: Vec<T> = Vec::with_capacity(self.items.len());
            for item in self.items {
                if !out.iter().any(|o| o.same(&item)) {
                    out.push(item);
                }
            }
            return out;
        }
        let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut out: Vec<T> = Vec::with_capacity(self.items.len());
        for item in self.items {
            let print = item.fingerprint();
            let found = seen.entry(print).or_default();
            if found.iter().any(|&i| out[i].same(&item)) {
                continue;
            }
            found.push(out.len());
            out.push(item);
        }
        out
    }
}

fn fingerprint(parts: impl std::hash::Hash) -> u64 {
    use std::hash::Hasher as _;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut hasher);
    hasher.finish()
}

/// A call's parts but the way it was reached; spelled out, so a new field
/// cannot be left out of the comparison.
#[allow(clippy::type_complexity)]
fn call_parts(
    call: &HttpCall,
) -> (
    (&str, &Option<String>, &str, &Option<String>, &Place),
    (&[Field], &[Credential], &[(String, String)]),
) {
    let HttpCall {
        library,
        method,
        url,
        graphql,
        at,
        via: _,
        fields,
        credentials,
        model_supplied,
    } = call;
    (
        (library, method, url, graphql, at),
        (fields, credentials, model_supplied),
    )
}

impl Reached for HttpCall {
    fn via_mut(&mut self) -> &mut Vec<Hop> {
        &mut self.via
    }

    fn fingerprint(&self) -> u64 {
        fingerprint(call_parts(self))
    }

    fn same(&self, other: &Self) -> bool {
        call_parts(self) == call_parts(other)
    }
}

/// An effect's parts but the way it was reached; spelled out, so a new
/// field cannot be left out of the comparison.
#[allow(clippy::type_complexity)]
fn effect_parts(
    effect: &LibraryEffect,
) -> (
    (&str, &str, &str, &str, &Place),
    (
        &Option<String>,
        &Option<String>,
        &Option<String>,
        &Option<String>,
        &Option<String>,
    ),
    (&[Credential], &[(String, String)]),
) {
    let LibraryEffect {
        family,
        operation,
        library,
        call,
        at,
        via: _,
        target,
        statement,
        value_sha256,
        service,
        host,
        credentials,
        model_supplied,
    } = effect;
    (
        (family, operation, library, call, at),
        (target, statement, value_sha256, service, host),
        (credentials, model_supplied),
    )
}

impl Reached for LibraryEffect {
    fn via_mut(&mut self) -> &mut Vec<Hop> {
        &mut self.via
    }

    fn fingerprint(&self) -> u64 {
        fingerprint(effect_parts(self))
    }

    fn same(&self, other: &Self) -> bool {
        effect_parts(self) == effect_parts(other)
    }
}

/// What one helper frame reaches, its `via`s relative to it.
#[derive(Debug)]
struct Recorded {
    calls: Vec<HttpCall>,
    effects: Vec<LibraryEffect>,
    limits: Vec<ReachLimit>,
}

impl Recorded {
    fn size(&self) -> usize {
        self.calls.len() + self.effects.len() + self.limits.len()
    }
}

/// Calls, effects and limits of a helper's remembered reach taken in per
/// step of the budget.
const TAKEN_PER_STEP: usize = 32;

/// What one side's reach read shares across its tools: what each helper
/// frame reaches, and the work budget.
///
/// The memo's rule: a helper frame's read is a function of what the key
/// writes, and of nothing else. The key is the frame's
/// [`Frame::memo_key`] (the function, what each parameter holds and each
/// argument is bound to, read where it was written), the helper depth
/// where it matters (at most [`MAX_HELPER_DEPTH`]: the only test of depth
/// is whether it has reached the bound) and the recursion generation
/// (`Frame::recursion`). Nothing else on the way there is consulted: a
/// recursive call is one of a function to itself, read from the frame's
/// own function and generation, not from the path; the `via` is only
/// recorded (relative to the frame, and rooted again where it is taken
/// in); a frame collects what it finds afresh, so what was found before it
/// is never consulted, only added to. So the same key reads the same
/// wherever it is called from, and is read once. The one exception is the
/// budget: a read it cuts short keeps the limit that says so, and is
/// remembered with it. No key can be reached again while it is read: a
/// call goes one helper deeper (the depth in the key grows until the
/// bound, past which only a function's calls of itself are followed, and
/// those raise the generation).
pub struct Side {
    memo: HashMap<String, Rc<Recorded>>,
    /// Keys being read, outermost first (guards the rule above).
    reading: Vec<String>,
    budget: usize,
    steps: usize,
}

impl Side {
    pub fn new(budget: usize) -> Self {
        Side {
            memo: HashMap::new(),
            reading: Vec::new(),
            budget,
            steps: 0,
        }
    }

    /// Takes one step and `more`; `false` once the budget is spent.
    fn step(&mut self, more: usize) -> bool {
        if self.steps >= self.budget {
            return false;
        }
        self.steps = self.steps.saturating_add(1).saturating_add(more);
        true
    }
}

/// The limit where reading stopped because the side's work budget was
/// spent.
pub fn budget_spent(budget: usize) -> String {
    format!(
        "reading stopped: the work budget of {} steps for this side was spent (helpers fan out too widely); what follows is not read",
        thousands(budget)
    )
}

/// `200000` as `200,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

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
        for call in &function.body_calls {
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
            if !matches!(roles.get(base), Some(Role::HttpClient(..))) {
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
        if let Some((receiver, method)) = &call.receiver {
            if lib::is_plain_data_method(method)
                && (plain_chain(frame, roles, call.chain.as_ref())
                    || plain_root(frame, roles, receiver, 0))
            {
                return;
            }
            // `client.bucket("b").blob("k").upload_from_string(…)`: handles
            // of one service, then a method of its table.
            if let Some(role) = service_chain(roles, call.chain.as_ref()) {
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
            )) = &call.chain
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
                && lib::is_plain_data_method(parts.last().map_or("", String::as_str))
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
                if matches!(roles.get(base), Some(Role::HttpClient(..)))
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
                    (roles.get(&parts[0]), parts.last())
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
                if let Some(Role::Elsewhere(role, helper, named)) = roles.get(base) {
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
                if let Some(role) = roles.get(base) {
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
            if matches!(roles.get(name), Some(Role::Plain)) {
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
                args: Vec::new(),
                keywords: Vec::new(),
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
            args: Vec::new(),
            keywords: Vec::new(),
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

    /// `x.method(...)` where the function built `x`.
    fn role_method(
        &mut self,
        frame: &Frame<'_>,
        role: &Role,
        base: &str,
        method: &str,
        call: &BodyCall,
    ) {
        match role {
            Role::Elsewhere(inner, ..) => self.role_method(frame, inner, base, method, call),
            Role::HttpClient(library, base_url, settings) => match lib::http_verb(method) {
                Some(verb) => {
                    self.hooks(frame, &settings.hooks, settings.line);
                    let sent = with_defaults(call, settings);
                    let url = argument(&sent, 0, "url");
                    self.http(
                        frame,
                        library,
                        Method::Fixed(verb),
                        url,
                        base_url.as_ref(),
                        &sent,
                    );
                    self.request_hooks(frame, call);
                    self.later_hooks(frame, settings);
                }
                None if method == "request" => {
                    self.hooks(frame, &settings.hooks, settings.line);
                    let sent = with_defaults(call, settings);
                    let verb = Method::Spelled(argument(&sent, 0, "method"));
                    let url = argument(&sent, 1, "url");
                    self.http(frame, library, verb, url, base_url.as_ref(), &sent);
                    self.request_hooks(frame, call);
                    self.later_hooks(frame, settings);
                }
                None if matches!(method, "close" | "aclose" | "mount") => {}
                None => self.limit(
                    frame,
                    call.line,
                    format!("calls {base}.{method}, which is not read"),
                ),
            },
            Role::Database(library, service, object, connection) => {
                self.database(frame, library, service, object, method, call);
                // Where the statement goes, read off the connection.
                if let Some(effect) = self.reach.effects.last_mut() {
                    if effect.at.line == call.line && effect.family == "database" {
                        effect.host = connection.host.clone();
                        effect.credentials = connection.credentials.clone();
                    }
                }
            }
            Role::Service(_, "sqlalchemy", service, ..)
                if matches!(method, "execute" | "exec_driver_sql") =>
            {
                self.database(frame, "sqlalchemy", service, "connection", "execute", call)
            }
            Role::Service(family, "pymongo", service, host, credentials)
                if method == "aggregate" =>
            {
                // An aggregation that ends in `$out` or `$merge` writes.
                let stages = match call.args.first() {
                    Some(Value::List(stages)) => Some(stages),
                    _ => None,
                };
                let writes = stages.is_some_and(|stages| {
                    stages.iter().any(|stage| {
                        matches!(stage, Value::Dict(entries) if entries.iter().any(|(k, _)| {
                            matches!(k, Some(Value::Str(k)) if k == "$out" || k == "$merge")
                        }))
                    })
                });
                let operation = match (stages.is_some(), writes) {
                    (true, true) => "write",
                    (true, false) => "read",
                    _ => "unknown",
                };
                if stages.is_none() {
                    self.limit(
                        frame,
                        call.line,
                        format!(
                            "calls {base}.aggregate with a pipeline that is not a literal list"
                        ),
                    );
                }
                self.reach.effects.push(LibraryEffect {
                    family: family.to_string(),
                    operation: operation.into(),
                    library: "pymongo".into(),
                    call: "collection.aggregate".into(),
                    at: place(frame, call.line),
                    via: frame.via.clone(),
                    target: None,
                    statement: None,
                    value_sha256: None,
                    service: Some(service.clone()),
                    host: host.clone(),
                    credentials: credentials.clone(),
                    model_supplied: model_supplied(frame, call, "arguments"),
                });
            }
            Role::Service(_, "google.cloud.bigquery", ..) if method == "query" => self.database(
                frame,
                "google.cloud.bigquery",
                "bigquery",
                "client",
                "query",
                call,
            ),
            Role::Service(_, _, _, _, _) if lib::service_handle(service_library(role), method) => {}
            Role::Service(family, library, service, host, credentials) => {
                let operation = lib::service_method(library, method);
                let effect = LibraryEffect {
                    family: family.to_string(),
                    operation: operation.unwrap_or("unknown").to_string(),
                    library: library.to_string(),
                    // `messages.create` through `client.messages`, else the
                    // object's role.
                    call: match base.rsplit_once('.') {
                        Some((_, last)) => format!("{last}.{method}"),
                        None => format!("{}.{method}", role_name(library)),
                    },
                    at: place(frame, call.line),
                    via: frame.via.clone(),
                    target: service_target(frame, library, call),
                    statement: None,
                    value_sha256: None,
                    service: (!service.is_empty()).then(|| service.clone()),
                    host: host.clone(),
                    credentials: credentials.clone(),
                    model_supplied: model_supplied(frame, call, "arguments"),
                };
                if operation.is_none() {
                    self.limit(
                        frame,
                        call.line,
                        format!(
                            "calls {base}.{method}, a {library} method whose direction is not read"
                        ),
                    );
                }
                self.reach.effects.push(effect);
            }
            Role::File(path) => {
                let operation = match method {
                    "write" | "writelines" | "truncate" => "write",
                    "read" | "readline" | "readlines" => "read",
                    "flush" | "close" | "seek" | "tell" | "fileno" | "isatty" => return,
                    _ => {
                        return self.limit(
                            frame,
                            call.line,
                            format!("calls {base}.{method}, which is not read"),
                        )
                    }
                };
                let module = frame.at_module(frame.path);
                let name = format!("file.{method}");
                self.file_effect(&module, "builtins", &name, operation, Some(path), call);
                self.arguments_supplied(frame, call);
            }
            Role::Path(path) => match lib::path_method(method) {
                Some(Some(writes)) => {
                    let operation = if writes { "write" } else { "read" };
                    let path = path.clone();
                    self.file_effect(
                        frame,
                        "pathlib",
                        &format!("Path.{method}"),
                        operation,
                        Some(&path),
                        call,
                    );
                    // What a write writes (`path.write_text(text)`).
                    if writes {
                        self.arguments_supplied(frame, call);
                    }
                }
                Some(None) => {
                    let mode = argument(call, 0, "mode");
                    let path = path.clone();
                    self.mode_effect(frame, "pathlib", "Path.open", Some(&path), mode, call)
                }
                None if lib::is_plain_data_method(method)
                    || matches!(
                        method,
                        "resolve" | "absolute" | "joinpath" | "with_suffix" | "with_name"
                    ) => {}
                None => self.limit(
                    frame,
                    call.line,
                    format!("calls {base}.{method}, which is not read"),
                ),
            },
            Role::Plain => {
                if !lib::is_plain_data_method(method)
                    && !matches!(
                        method,
                        "write"
                            | "writelines"
                            | "readline"
                            | "readlines"
                            | "close"
                            | "flush"
                            | "seek"
                    )
                {
                    self.limit(
                        frame,
                        call.line,
                        format!("calls {base}.{method}, which is not read"),
                    );
                }
            }
        }
    }

    /// A method called on another call's result (`requests.get(u).json()`).
    fn method_on_result(
        &mut self,
        frame: &Frame<'_>,
        roles: &BTreeMap<String, Role>,
        receiver: &Value,
        method: &str,
        call: &BodyCall,
    ) {
        if let Value::Call { callee, .. } = receiver {
            // A response from a client's request is plain data, and so
            // are the rows a database call returns.
            if let Value::Attribute(parts) = callee.as_ref() {
                if let [base, verb] = parts.as_slice() {
                    let is_database = |role: &Role| {
                        matches!(
                            role,
                            Role::Database(..) | Role::Service(_, "sqlalchemy", ..)
                        )
                    };
                    let database = match roles.get(base) {
                        Some(Role::Elsewhere(inner, ..)) => is_database(inner),
                        Some(role) => is_database(role),
                        None => false,
                    };
                    // The rows a statement returns.
                    if database
                        && matches!(verb.as_str(), "execute" | "executemany")
                        && matches!(
                            method,
                            "fetchone"
                                | "fetchall"
                                | "fetchmany"
                                | "scalar"
                                | "scalars"
                                | "scalar_one"
                                | "scalar_one_or_none"
                                | "first"
                                | "one"
                                | "one_or_none"
                                | "all"
                                | "mappings"
                        )
                    {
                        return;
                    }
                    let client = match roles.get(base) {
                        Some(role) => Some(role.clone()),
                        None => module_role(frame, base),
                    };
                    if matches!(client, Some(Role::HttpClient(..)))
                        && (lib::http_verb(verb).is_some() || verb == "request")
                        && lib::is_plain_data_method(method)
                    {
                        return;
                    }
                }
            }
            if let Some(name) = frame.library_name(callee) {
                let plain_result = lib::http_function(&name).is_some()
                    || frame.pure_function(&name)
                    || name == "urllib.request.urlopen";
                if name == "pathlib.Path" {
                    if let Value::Call { args, .. } = receiver {
                        let path = args.first().cloned().unwrap_or(Value::Other("path".into()));
                        return self.role_method(frame, &Role::Path(path), "Path(…)", method, call);
                    }
                }
                if plain_result && lib::is_plain_data_method(method) {
                    return;
                }
            }
            if let Value::Name(n) = callee.as_ref() {
                if frame.pure_builtin(n) && lib::is_plain_data_method(method) {
                    return;
                }
            }
        }
        if matches!(
            receiver,
            Value::Str(_) | Value::FString(_) | Value::Dict(_) | Value::List(_)
        ) && lib::is_plain_data_method(method)
        {
            return;
        }
        self.limit(
            frame,
            call.line,
            format!("calls ….{method}, which is not read"),
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
        if frame.census.rebound.contains(&function.name) {
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
            name: function.name.clone(),
        });
        let mut helper = frame.callee(path, facts, function, &call.args, &call.keywords);
        helper.via = via;
        helper.depth = frame.depth + 1;
        helper.recursion = if recursive { frame.recursion + 1 } else { 0 };
        self.read_helper(frame, helper, call.line);
        true
    }

    #[allow(clippy::too_many_arguments)]
    fn http(
        &mut self,
        frame: &Frame<'_>,
        library: &str,
        method: Method<'_>,
        url: Option<&Value>,
        base_url: Option<&Value>,
        call: &BodyCall,
    ) {
        let (method, deciding) = match method {
            Method::Fixed(verb) => (Some(verb.to_string()), Vec::new()),
            Method::Spelled(None) => (Some("GET".to_string()), Vec::new()),
            Method::Spelled(Some(value)) => method_of(frame, value),
        };
        // Options spread into the call are read one by one when the
        // function builds them as a dict of literal keys.
        let expanded;
        let call = if call.keywords.iter().any(|(k, _)| k.is_none()) {
            let mut spread = call.clone();
            spread.keywords.retain(|(k, _)| k.is_some());
            for (name, value) in &call.keywords {
                if name.is_some() {
                    continue;
                }
                let (options, at) = frame.resolved(value, 0);
                // Only a dict this function builds: its values read here.
                let here = at.path == frame.path
                    && at.function.map(|f| f.line) == frame.function.map(|f| f.line);
                match options {
                    Value::Dict(entries)
                        if here
                            && entries
                                .iter()
                                .all(|(k, _)| matches!(k, Some(Value::Str(_)))) =>
                    {
                        for (key, v) in entries {
                            if let Some(Value::Str(key)) = key {
                                spread.keywords.push((Some(key), v));
                            }
                        }
                    }
                    _ => {
                        let spelled = value.dotted().unwrap_or_else(|| "…".into());
                        self.limit(
                            frame,
                            call.line,
                            format!("passes **{spelled}, which is not read"),
                        );
                    }
                }
            }
            expanded = spread;
            &expanded
        } else {
            call
        };
        // A value read out of a module-level dict is never taken as written.
        for value in url.into_iter().chain(argument(call, 0, "method")) {
            if let Some(name) = module_dict_read(frame, value, 0) {
                self.limit(
                    frame,
                    call.line,
                    format!(
                        "reads {name}[…] out of a module-level dict, which is not taken as written"
                    ),
                );
            }
        }
        let mut url_text = url.map_or_else(|| "{…}".to_string(), |u| frame.template(u));
        if let Some(base) = base_url {
            if !url_text.starts_with("http") {
                url_text = format!("{}{url_text}", frame.template(base));
            }
        }
        let mut model: Vec<(String, String)> = Vec::new();
        let mut push_model = |params: &[String], into: String| {
            for p in params {
                let entry = (p.clone(), into.clone());
                if !model.contains(&entry) {
                    model.push(entry);
                }
            }
        };
        if let Some(url) = url {
            push_model(&frame.sources(url).params, "url".into());
        }
        push_model(&deciding, "method".into());
        let mut fields = Vec::new();
        let mut credentials = Vec::new();
        for keyword in ["json", "data"] {
            let Some(body) = keyword_value(call, keyword) else {
                continue;
            };
            let Some(entries) = dict_entries(frame, body, 0) else {
                let (other, frame) = frame.resolved(body, 0);
                let sources = frame.sources(&other);
                push_model(&sources.params, "body".into());
                fields.push(field(None, &sources));
                continue;
            };
            for Entry { key, value, frame } in entries {
                let key = match key {
                    Some(Value::Str(k)) => Some(k),
                    _ => None,
                };
                let sources = frame.sources(&value);
                if let Some(k) = &key {
                    push_model(&sources.params, format!("field {k}"));
                    if let Some((_, deciding)) = &sources.choices {
                        push_model(deciding, format!("field {k}"));
                    }
                    if lib::is_credential_name(k) {
                        credentials.push(credential("field", Some(k.clone()), &sources));
                    }
                } else {
                    push_model(&sources.params, "body".into());
                }
                fields.push(field(key, &sources));
            }
        }
        // Headers the call and its client's settings give: a client's are
        // sent with every request, beside the call's own.
        for headers in keyword_values(call, "headers") {
            let Some(entries) = dict_entries(frame, headers, 0) else {
                let (other, frame) = frame.resolved(headers, 0);
                push_model(&frame.sources(&other).params, "headers".into());
                continue;
            };
            for Entry { key, value, frame } in entries {
                let sources = frame.sources(&value);
                push_model(&sources.params, "headers".into());
                match key {
                    Some(Value::Str(k)) if lib::is_credential_name(&k) => {
                        credentials.push(credential("header", Some(k), &sources))
                    }
                    _ => {}
                }
            }
        }
        if let Some(auth) = keyword_value(call, "auth") {
            credentials.push(credential("auth", None, &frame.sources(auth)));
        }
        for query in keyword_values(call, "params") {
            let Some(entries) = dict_entries(frame, query, 0) else {
                let (other, frame) = frame.resolved(query, 0);
                push_model(&frame.sources(&other).params, "query".into());
                continue;
            };
            let mut pieces = Vec::new();
            for Entry { key, value, frame } in entries {
                let sources = frame.sources(&value);
                match key {
                    Some(Value::Str(k)) if lib::is_credential_name(&k) => {
                        credentials.push(credential("query", Some(k.clone()), &sources));
                        pieces.push(format!("{k}={REDACTED}"));
                    }
                    Some(Value::Str(k)) => {
                        push_model(&sources.params, format!("query {k}"));
                        pieces.push(format!("{k}={}", frame.template(&value)));
                    }
                    _ => push_model(&sources.params, "query".into()),
                }
            }
            if !pieces.is_empty() {
                let joiner = if url_text.contains('?') { '&' } else { '?' };
                url_text = format!("{url_text}{joiner}{}", pieces.join("&"));
            }
        }
        // A value spliced into the URL's userinfo is a credential.
        if let Some(url) = url {
            if let Some(userinfo) = userinfo_sources(frame, url) {
                credentials.push(credential("userinfo", None, &userinfo));
            }
        }
        // A GraphQL endpoint: the URL, or the variable it comes from, says
        // so; the literal document (written in the call, in a dict the
        // function builds, or as a constant) says query or mutation.
        let spelled_graphql = url
            .and_then(Value::dotted)
            .is_some_and(|name| name.to_ascii_lowercase().contains("graphql"));
        let graphql =
            (spelled_graphql || url_text.to_ascii_lowercase().contains("graphql")).then(|| {
                let document = keyword_value(call, "json")
                    .and_then(|body| dict_entries(frame, body, 0))
                    .and_then(|entries| {
                        entries.iter().rev().find_map(|e| match &e.key {
                            Some(Value::Str(k)) if k == "query" => {
                                Some(e.frame.sources(&e.value).exact)
                            }
                            _ => None,
                        })
                    });
                match document {
                    Some(Some(Literal::Str(doc))) if doc.trim_start().starts_with("mutation") => {
                        "mutation".to_string()
                    }
                    Some(Some(Literal::Str(_))) => "query".to_string(),
                    _ => "unknown".to_string(),
                }
            });
        if method.is_none() {
            self.limit(
                frame,
                call.line,
                "the request method is not a literal".to_string(),
            );
        }
        if graphql.as_deref() == Some("unknown") {
            self.limit(
                frame,
                call.line,
                "the GraphQL document is not a literal; its operation is not read".to_string(),
            );
        }
        model.sort_by(|a, b| a.0.cmp(&b.0));
        let rank = |kind: &str| {
            ["header", "auth", "query", "field", "userinfo"]
                .iter()
                .position(|k| *k == kind)
                .unwrap_or(5)
        };
        credentials.sort_by_key(|c| rank(&c.kind));
        self.reach.calls.push(HttpCall {
            library: library.to_string(),
            method,
            url: withhold_tokens(&url_text),
            graphql,
            at: place(frame, call.line),
            via: frame.via.clone(),
            fields,
            credentials,
            model_supplied: model,
        });
    }

    /// A function the call itself sets as its request's hook or auth runs
    /// on its response (a client's own are read where the client is).
    fn request_hooks(&mut self, frame: &Frame<'_>, call: &BodyCall) {
        for key in ["hooks", "auth"] {
            if let Some(value) = keyword_value(call, key) {
                self.hooks(frame, std::slice::from_ref(value), call.line);
            }
        }
    }

    /// A function set as a client's auth after it is built
    /// (`session.auth = sign`), read where it is set.
    fn later_hooks(&mut self, frame: &Frame<'_>, settings: &ClientSettings) {
        for (hook, line) in &settings.later_hooks {
            self.hooks(frame, std::slice::from_ref(hook), *line);
        }
    }

    /// `urllib.request.urlopen(url or Request, data=…)`: a request the
    /// same function builds is read (its URL, data and method); a method
    /// set on it afterwards leaves the method unread.
    fn urlopen(&mut self, frame: &Frame<'_>, call: &BodyCall) {
        let Some(target) = argument(call, 0, "url") else {
            return self.http(frame, "urllib", Method::Fixed("GET"), None, None, call);
        };
        let (resolved, mut at) = frame.resolved(target, 0);
        let built = match &resolved {
            Value::Call {
                callee,
                args,
                keywords,
            } if at.library_name(callee).as_deref() == Some("urllib.request.Request") => {
                Some((args.clone(), keywords.clone()))
            }
            _ => None,
        };
        let unread_name = match &resolved {
            Value::Name(name) => !at.params.contains_key(name) && !at.args.contains_key(name),
            _ => false,
        };
        match built {
            Some((args, keywords)) => {
                let mut inner = BodyCall {
                    callee: Value::Other("Request".into()),
                    receiver: None,
                    chain: None,
                    args,
                    keywords,
                    line: call.line,
                };
                // `Request(url, data)`: the body is the data.
                if let Some(data) = inner.args.get(1).cloned() {
                    inner.keywords.push((Some("data".into()), data));
                }
                // Data and headers set on the request afterwards are read as
                // sent; a method set on it leaves the method unread.
                if let Value::Name(name) = target {
                    inner.keywords.extend(request_changes(frame, name));
                }
                let changed_method = matches!(target, Value::Name(name) if frame.facts.attribute_stores.iter().any(|s| s.scope == frame.scope() && s.target.len() == 2 && s.target[0] == *name && s.target[1] == "method"));
                let unread_method = Value::Other("a method set on the request".into());
                let posts = keyword_value(&inner, "data").is_some() || inner.args.len() > 1;
                let method = if changed_method {
                    Method::Spelled(Some(&unread_method))
                } else {
                    match keyword_value(&inner, "method") {
                        Some(value) => Method::Spelled(Some(value)),
                        None if posts => Method::Fixed("POST"),
                        None => Method::Fixed("GET"),
                    }
                };
                let url = argument(&inner, 0, "url").cloned();
                // Sent here, by the way to this function, wherever the
                // request is built (what a helper reaches is recorded
                // relative to the way to it).
                at.via = frame.via.clone();
                self.http(&at, "urllib", method, url.as_ref(), None, &inner);
            }
            None if unread_name => {
                let spelled = target.dotted().unwrap_or_else(|| "…".into());
                self.limit(
                    frame,
                    call.line,
                    format!(
                        "sends {spelled}, a request built outside this function; it is not read"
                    ),
                );
            }
            None => {
                let method = if keyword_value(call, "data").is_some() || call.args.len() > 1 {
                    "POST"
                } else {
                    "GET"
                };
                self.http(
                    frame,
                    "urllib",
                    Method::Fixed(method),
                    Some(target),
                    None,
                    call,
                );
            }
        }
    }

    /// Functions set as a request's or client's hooks or auth: read as
    /// called, since they run on every request.
    fn hooks(&mut self, frame: &Frame<'_>, hooks: &[Value], line: u32) {
        let mut functions = Vec::new();
        for hook in hooks {
            collect_functions(hook, &mut functions);
        }
        // Parameters and the function's own values are data, not hooks.
        functions.retain(|f| match f {
            Value::Name(name) => {
                !frame.params.contains_key(name)
                    && !frame.args.contains_key(name)
                    && !frame.locals().iter().any(|b| b.name == *name)
            }
            _ => true,
        });
        for function in functions {
            let spelled = function.dotted().unwrap_or_default();
            let synthetic = BodyCall {
                callee: function,
                receiver: None,
                chain: None,
                args: Vec::new(),
                keywords: Vec::new(),
                line,
            };
            if !self.helper(frame, &synthetic) && frame.library_name(&synthetic.callee).is_none() {
                self.limit(
                    frame,
                    line,
                    format!("hands on {spelled}, which is not read"),
                );
            }
        }
    }

    fn process(&mut self, frame: &Frame<'_>, library: &str, name: &str, call: &BodyCall) {
        let command = call.args.first();
        let target = command.and_then(|c| match c {
            Value::List(items) | Value::Tuple(items) => match items.first() {
                Some(Value::Str(program)) => Some(program_name(program)),
                _ => None,
            },
            Value::Str(line)
                if name.starts_with("os.") || name.ends_with("shell") || shell(call) =>
            {
                line.split_whitespace().next().map(program_name)
            }
            Value::Str(program) => Some(program_name(program)),
            _ => None,
        });
        let model = model_supplied(frame, call, "command");
        self.reach.effects.push(LibraryEffect {
            family: "process".into(),
            operation: "execute".into(),
            library: library.into(),
            call: name.into(),
            at: place(frame, call.line),
            via: frame.via.clone(),
            target,
            statement: None,
            value_sha256: Some(digest(&format!("{:?}", call.args))),
            service: None,
            host: None,
            credentials: Vec::new(),
            model_supplied: model,
        });
    }

    /// `open(path, mode)`: the mode decides.
    fn open(&mut self, frame: &Frame<'_>, library: &str, name: &str, call: &BodyCall) {
        let path = argument(call, 0, "file").cloned();
        let mode = argument(call, 1, "mode");
        self.mode_effect(frame, library, name, path.as_ref(), mode, call)
    }

    fn mode_effect(
        &mut self,
        frame: &Frame<'_>,
        library: &str,
        name: &str,
        path: Option<&Value>,
        mode: Option<&Value>,
        call: &BodyCall,
    ) {
        let operation = match mode {
            None => "read",
            Some(Value::Str(mode)) if mode.contains(['w', 'a', 'x', '+']) => "write",
            Some(Value::Str(_)) => "read",
            Some(_) => {
                self.limit(
                    frame,
                    call.line,
                    format!("calls {name} with a mode that is not a literal"),
                );
                "unknown"
            }
        };
        self.file_effect(frame, library, name, operation, path, call)
    }

    fn file_effect(
        &mut self,
        frame: &Frame<'_>,
        library: &str,
        name: &str,
        operation: &str,
        path: Option<&Value>,
        call: &BodyCall,
    ) {
        let text = path.map(|p| frame.template(p));
        let (target, withheld) = match text {
            Some(t) if printable_path(&t) => (Some(t), None),
            Some(t) => (None, Some(digest(&t))),
            None => (None, None),
        };
        let model = path
            .map(|p| {
                frame
                    .sources(p)
                    .params
                    .into_iter()
                    .map(|p| (p, "path".to_string()))
                    .collect()
            })
            .unwrap_or_default();
        self.reach.effects.push(LibraryEffect {
            family: "filesystem".into(),
            operation: operation.into(),
            library: library.into(),
            call: name.into(),
            at: place(frame, call.line),
            via: frame.via.clone(),
            target,
            statement: None,
            value_sha256: withheld,
            service: None,
            host: None,
            credentials: Vec::new(),
            model_supplied: model,
        });
    }

    fn database(
        &mut self,
        frame: &Frame<'_>,
        library: &str,
        service: &str,
        object: &str,
        method: &str,
        call: &BodyCall,
    ) {
        match method {
            "execute" | "executemany" | "executescript" | "fetch" | "fetchrow" | "fetchval"
            | "query" => {
                // A statement a helper is handed (`query_db(f"SELECT …")`)
                // reads as its caller wrote it; a name bound once,
                // unconditionally, as what it is bound to.
                let resolved = argument(call, 0, "query")
                    .or_else(|| argument(call, 0, "sql"))
                    .map(|st| frame.resolved(st, 0));
                let statement = resolved.as_ref().map(|(value, _)| value);
                let written_in = resolved.as_ref().map_or(frame, |(_, at)| at);
                // SQLAlchemy's `select(...)`/`insert(...)`/… decide as
                // their statement.
                let constructed = statement.and_then(|st| match st {
                    Value::Call { callee, .. } => written_in
                        .library_name(callee)
                        .filter(|n| n.starts_with("sqlalchemy"))
                        .and_then(|n| {
                            let last = n.rsplit('.').next().unwrap_or(&n).to_ascii_uppercase();
                            matches!(last.as_str(), "SELECT" | "INSERT" | "UPDATE" | "DELETE")
                                .then_some(last)
                        }),
                    _ => None,
                });
                let constructed_sql;
                let statement = match constructed {
                    Some(keyword) => {
                        constructed_sql = Value::Str(keyword);
                        Some(&constructed_sql)
                    }
                    None => statement,
                };
                // `text("SELECT …")` (SQLAlchemy) is its statement.
                let statement = match statement {
                    Some(Value::Call { callee, args, .. })
                        if callee
                            .dotted()
                            .is_some_and(|c| c == "text" || c.ends_with(".text"))
                            && args.len() == 1 =>
                    {
                        args.first()
                    }
                    other => other,
                };
                let (keyword, operation, digest_of, spliced) = match statement {
                    Some(Value::Str(sql)) => {
                        let (keyword, operation) = lib::sql_operation(sql);
                        (Some(keyword), operation, Some(digest(sql)), false)
                    }
                    Some(Value::FString(parts)) => {
                        let text: String = parts
                            .iter()
                            .map(|p| match p {
                                Value::Str(s) => s.clone(),
                                _ => "?".into(),
                            })
                            .collect();
                        let (keyword, operation) = lib::sql_operation(&text);
                        (Some(keyword), operation, Some(digest(&text)), true)
                    }
                    _ => (None, "unknown", None, false),
                };
                if keyword.is_none() {
                    self.limit(
                        frame,
                        call.line,
                        "the SQL statement is not a literal, so its direction is not read".into(),
                    );
                } else if spliced {
                    self.limit(
                        frame,
                        call.line,
                        format!(
                            "the {} statement splices in a value the read does not name; a further statement in it is not read",
                            keyword.clone().unwrap_or_default()
                        ),
                    );
                }
                let model = params_into(frame, call.args.iter(), "statement");
                self.reach.effects.push(LibraryEffect {
                    family: "database".into(),
                    operation: operation.into(),
                    library: library.into(),
                    call: format!("{object}.{method}"),
                    at: place(frame, call.line),
                    via: frame.via.clone(),
                    target: None,
                    statement: keyword,
                    value_sha256: digest_of,
                    service: (!service.is_empty()).then(|| service.into()),
                    host: None,
                    credentials: Vec::new(),
                    model_supplied: model,
                });
            }
            "cursor" | "fetchone" | "fetchall" | "fetchmany" | "commit" | "rollback" | "close"
            | "getconn" | "putconn" | "closeall" | "acquire" | "release" | "connection" => {}
            // The family is established, the direction is not.
            other => {
                self.limit(
                    frame,
                    call.line,
                    format!(
                        "calls {object}.{other}, a {library} method whose direction is not read"
                    ),
                );
                self.reach.effects.push(LibraryEffect {
                    family: "database".into(),
                    operation: "unknown".into(),
                    library: library.into(),
                    call: format!("{object}.{other}"),
                    at: place(frame, call.line),
                    via: frame.via.clone(),
                    target: None,
                    statement: None,
                    value_sha256: None,
                    service: (!service.is_empty()).then(|| service.into()),
                    host: None,
                    credentials: Vec::new(),
                    model_supplied: model_supplied(frame, call, "arguments"),
                });
            }
        }
    }
}

const REDACTED: &str = "[REDACTED:sensitive_field]";

/// How a call spells its method.
enum Method<'v> {
    /// By the function or client method (`requests.post`).
    Fixed(&'static str),
    /// By a value (`requests.request(method, url)`); `None`: not given.
    Spelled(Option<&'v Value>),
}

/// A method value: a literal, a function's own literal, or literals chosen
/// by a condition (`"DELETE" if hard else "PATCH"` is `DELETE|PATCH`,
/// decided by `hard`); anything else is unread (`None`), with the
/// parameters it is made from.
fn method_of(frame: &Frame<'_>, value: &Value) -> (Option<String>, Vec<String>) {
    let (value, at) = frame.resolved(value, 0);
    match &value {
        Value::Str(s) => (Some(s.to_ascii_uppercase()), Vec::new()),
        Value::IfElse { test, body, orelse } => {
            let (a, _) = method_of(&at, body);
            let (b, _) = method_of(&at, orelse);
            let deciding = at.sources(test).params;
            match (a, b) {
                (Some(a), Some(b)) => {
                    let mut methods: Vec<String> = a
                        .split('|')
                        .chain(b.split('|'))
                        .map(str::to_string)
                        .collect();
                    methods.sort();
                    methods.dedup();
                    (Some(methods.join("|")), deciding)
                }
                _ => (None, at.sources(&value).params),
            }
        }
        other => (None, at.sources(other).params),
    }
}

/// What a URL's userinfo (`https://{user}:{password}@host`) is made from,
/// when the URL splices values into it.
fn userinfo_sources(frame: &Frame<'_>, url: &Value) -> Option<Sources> {
    let (url, at) = frame.resolved(url, 0);
    let Value::FString(parts) = &url else {
        return None;
    };
    let mut seen_scheme = false;
    let mut inside = Vec::new();
    for part in parts {
        match part {
            Value::Str(text) => {
                let text = if seen_scheme {
                    text.as_str()
                } else {
                    match text.split_once("://") {
                        Some((_, rest)) => {
                            seen_scheme = true;
                            rest
                        }
                        None => return None,
                    }
                };
                if text.contains('@') {
                    let mut sources = Sources::default();
                    for value in &inside {
                        sources.join(at.sources(value));
                    }
                    return (!inside.is_empty()).then_some(sources);
                }
                if text.contains('/') {
                    return None;
                }
            }
            other if seen_scheme => inside.push(other.clone()),
            _ => return None,
        }
    }
    None
}

/// The function references a hook value names: `f`, `[f, g]`,
/// `{"response": [f]}`.
fn collect_functions(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Name(_) | Value::Attribute(_) => out.push(value.clone()),
        // `auth=(user, password)` is a credential pair, not hooks.
        Value::Tuple(_) => {}
        Value::List(items) => {
            for item in items {
                collect_functions(item, out);
            }
        }
        Value::Dict(entries) => {
            for (_, v) in entries {
                collect_functions(v, out);
            }
        }
        _ => {}
    }
}

/// Where a database connection goes, read off its construction: the host,
/// and the credentials by name (a connection string's password is a
/// literal, never printed).
#[derive(Debug, Clone, Default)]
struct Connection {
    host: Option<String>,
    credentials: Vec<Credential>,
}

impl Connection {
    fn of(frame: &Frame<'_>, args: &[Value], keywords: &[(Option<String>, Value)]) -> Self {
        let mut connection = Connection::default();
        for (key, value) in keywords {
            match key.as_deref() {
                Some("host") => connection.host = Some(host_text(frame, value)),
                Some(name) if lib::is_credential_name(name) => connection.credentials.push(
                    credential("keyword", Some(name.to_string()), &frame.sources(value)),
                ),
                _ => {}
            }
        }
        let dsn = args.first().or_else(|| {
            keywords
                .iter()
                .find(|(k, _)| matches!(k.as_deref(), Some("dsn" | "database")))
                .map(|(_, v)| v)
        });
        if let Some(Value::Str(dsn)) = dsn {
            // `postgresql://user:pw@host:5432/db` or `host=db password=x`.
            if let Some((_, rest)) = dsn.split_once("://") {
                let authority = rest.split('/').next().unwrap_or(rest);
                if let Some((userinfo, host)) = authority.rsplit_once('@') {
                    connection.host = connection
                        .host
                        .or_else(|| Some(host.split(':').next().unwrap_or(host).to_string()));
                    if userinfo.contains(':') {
                        connection.credentials.push(literal_credential("dsn"));
                    }
                }
            } else {
                for pair in dsn.split_whitespace() {
                    match pair.split_once('=') {
                        Some(("host", host)) => {
                            connection.host = connection.host.or_else(|| Some(host.to_string()))
                        }
                        Some(("password", _)) => {
                            connection.credentials.push(literal_credential("dsn"))
                        }
                        _ => {}
                    }
                }
            }
        }
        connection
    }
}

/// Where a client connects, as the text prints it: a literal host, `env
/// NAME` for an environment variable, `default, env NAME` for one read
/// with a literal default, or the template of anything else.
fn host_text(frame: &Frame<'_>, value: &Value) -> String {
    let (value, at) = frame.resolved(value, 0);
    match (at.env_name(&value), &value) {
        (Some(name), Value::Call { args, .. }) => match args.get(1).map(|d| at.sources(d).exact) {
            Some(Some(Literal::Str(default)))
                if !default.is_empty()
                    && default
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')) =>
            {
                format!("{default}, env {name}")
            }
            _ => format!("env {name}"),
        },
        (Some(name), _) => format!("env {name}"),
        (None, _) => at.template(&value),
    }
}

fn literal_credential(name: &str) -> Credential {
    Credential {
        kind: "keyword".into(),
        name: Some(name.into()),
        env: Vec::new(),
        from: Vec::new(),
        literal: true,
    }
}

/// What the function sets on a `urllib.request.Request` it built, as the
/// keywords it amounts to: `req.data = …` (a body), `req.add_header(k, v)`
/// and `req.headers[k] = v` (headers).
fn request_changes(frame: &Frame<'_>, name: &str) -> Vec<(Option<String>, Value)> {
    let Some(function) = frame.function else {
        return Vec::new();
    };
    let mut changes: Vec<(u32, (Option<String>, Value))> = Vec::new();
    for store in &function.stores {
        match (store.object.as_slice(), &store.under) {
            ([o], StoredUnder::Attribute(a)) if o == name && a == "data" => {
                changes.push((store.line, (Some("data".into()), store.value.clone())));
            }
            ([o, headers], StoredUnder::Key(key)) if o == name && headers == "headers" => {
                let one = Value::Dict(vec![(Some(key.clone()), store.value.clone())]);
                changes.push((store.line, (Some("headers".into()), one)));
            }
            _ => {}
        }
    }
    for call in &function.body_calls {
        if let (Value::Attribute(parts), [key, value]) = (&call.callee, call.args.as_slice()) {
            if matches!(parts.as_slice(), [o, m] if o == name && m == "add_header") {
                let one = Value::Dict(vec![(Some(key.clone()), value.clone())]);
                changes.push((call.line, (Some("headers".into()), one)));
            }
        }
    }
    changes.sort_by_key(|(line, _)| *line);
    changes.into_iter().map(|(_, change)| change).collect()
}

/// What a client is built with that applies to every request it sends.
#[derive(Debug, Clone)]
struct ClientSettings {
    /// Where it is built.
    line: u32,
    /// Functions set as its hooks or auth.
    hooks: Vec<Value>,
    /// `headers=`, `auth=`, `params=`: sent with every request.
    defaults: Vec<(Option<String>, Value)>,
    /// A function set as its auth after it is built, and where.
    later_hooks: Vec<(Value, u32)>,
}

impl ClientSettings {
    /// Transport settings the function gives the client `name` after it
    /// is built: `s.headers.update({...})`, `s.headers["K"] = v`,
    /// `s.headers = {...}`, `s.params[...]`, and `s.auth = …`, a
    /// credential pair or a function run on every request.
    fn read_changes(
        &mut self,
        stores: &[crate::python::ValueStore],
        calls: &[BodyCall],
        name: &str,
    ) {
        // In statement order, so credentials list as the code sets them.
        let mut changes: Vec<(u32, (Option<String>, Value))> = Vec::new();
        for store in stores {
            match (store.object.as_slice(), &store.under) {
                ([o], StoredUnder::Attribute(setting)) if o == name => match setting.as_str() {
                    "headers" | "params" => {
                        changes.push((store.line, (Some(setting.clone()), store.value.clone())));
                    }
                    "auth" => {
                        changes.push((store.line, (Some("auth".into()), store.value.clone())));
                        self.later_hooks.push((store.value.clone(), store.line));
                    }
                    _ => {}
                },
                ([o, setting], StoredUnder::Key(key))
                    if o == name && matches!(setting.as_str(), "headers" | "params") =>
                {
                    let one = Value::Dict(vec![(Some(key.clone()), store.value.clone())]);
                    changes.push((store.line, (Some(setting.clone()), one)));
                }
                _ => {}
            }
        }
        for call in calls {
            let Value::Attribute(parts) = &call.callee else {
                continue;
            };
            let [o, setting, method] = parts.as_slice() else {
                continue;
            };
            if o != name || !matches!(setting.as_str(), "headers" | "params") {
                continue;
            }
            match (method.as_str(), call.args.as_slice()) {
                ("update", args) => {
                    for arg in args {
                        changes.push((call.line, (Some(setting.clone()), arg.clone())));
                    }
                    let named: Vec<_> = call
                        .keywords
                        .iter()
                        .map(|(k, v)| (k.clone().map(Value::Str), v.clone()))
                        .collect();
                    if !named.is_empty() {
                        changes.push((call.line, (Some(setting.clone()), Value::Dict(named))));
                    }
                }
                ("setdefault", [key, value]) => {
                    let one = Value::Dict(vec![(Some(key.clone()), value.clone())]);
                    changes.push((call.line, (Some(setting.clone()), one)));
                }
                _ => {}
            }
        }
        changes.sort_by_key(|(line, _)| *line);
        self.defaults
            .extend(changes.into_iter().map(|(_, change)| change));
    }
}

/// A call with the client's defaults added where the call gives none.
fn with_defaults(call: &BodyCall, settings: &ClientSettings) -> BodyCall {
    let mut call = call.clone();
    for (key, value) in &settings.defaults {
        // A client's headers and query are merged with the call's own.
        let merged = matches!(key.as_deref(), Some("headers" | "params"));
        if merged || !call.keywords.iter().any(|(k, _)| k == key) {
            call.keywords.push((key.clone(), value.clone()));
        }
    }
    call
}

/// What the function's own single assignments and `with` targets hold.
fn roles(frame: &Frame<'_>) -> BTreeMap<String, Role> {
    let mut roles = BTreeMap::new();
    let Some(function) = frame.function else {
        return roles;
    };
    for binding in &function.locals {
        let same: usize = function
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
                    roles.insert(binding.name.clone(), Role::Path(joined));
                }
                continue;
            }
        }
        if let Some(root) = binding.value.as_ref().and_then(handle_root) {
            if let Some(role @ Role::Service(..)) = roles.get(&root) {
                roles.insert(binding.name.clone(), role.clone());
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
                roles.insert(binding.name.clone(), Role::Plain);
            }
            continue;
        };
        let role = role_of_call(frame, callee, args, keywords, &roles, binding.line)
            .or_else(|| returned_role(frame, callee));
        if let Some(mut role) = role {
            if let Role::HttpClient(_, _, settings) = &mut role {
                settings.read_changes(&function.stores, &function.body_calls, &binding.name);
            }
            roles.insert(binding.name.clone(), role);
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
        Value::Name(name) => match roles.get(name) {
            Some(Role::Path(path)) => Some(path.clone()),
            Some(_) => None,
            None if frame.locals().iter().any(|b| b.name == *name) => None,
            None => {
                let binding = frame.module_binding(name)?;
                if binding.kind != BindingKind::Assignment
                    || binding.conditional
                    || frame.census.rebound.contains(name)
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
    let [only] = function.returns_found.as_slice() else {
        return None;
    };
    if only.conditional {
        return None;
    }
    let module = frame.at_module(path);
    // `return _pool`: a lazily built module global.
    if let Some(Value::Name(global)) = &only.value {
        if !function.locals.iter().any(|b| b.name == *global) || function.globals.contains(global) {
            return lazy_global(&module, global).map(|role| {
                Role::Elsewhere(
                    Box::new(role),
                    callee.dotted().unwrap_or_default(),
                    past_bound,
                )
            });
        }
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

/// The name a subscript or attribute chain starts from (`client` in
/// `client["shop"]["orders"]` or `client.shop.orders`).
fn handle_root(value: &Value) -> Option<String> {
    match value {
        Value::Subscript { base, .. } => handle_root(base),
        Value::Attribute(parts) if parts.len() > 1 => parts.first().cloned(),
        Value::Name(name) => Some(name.clone()),
        _ => None,
    }
}

/// What a call builds, when it is a client, connection, path or plain
/// data this reader knows.
fn role_of_call(
    frame: &Frame<'_>,
    callee: &Value,
    args: &[Value],
    keywords: &[(Option<String>, Value)],
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
                    .to_string(),
                _ => service.to_string(),
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
            Some(Role::Service(family, library, service, host, credentials))
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
                if let Some(Role::Elsewhere(inner, helper, named)) = roles.get(base) {
                    let held = BTreeMap::from([(base.clone(), (**inner).clone())]);
                    return match role_of_call(frame, callee, args, keywords, &held, line)? {
                        Role::Plain => Some(Role::Plain),
                        role => Some(Role::Elsewhere(Box::new(role), helper.clone(), *named)),
                    };
                }
                let outside =
                    !roles.contains_key(base) && !frame.locals().iter().any(|b| b.name == *base);
                if let Some(held) = outside.then(|| module_role(frame, base)).flatten() {
                    let held = BTreeMap::from([(base.clone(), held)]);
                    // Built by the helper this function calls to build it
                    // (`if _pool is None: init_db_pool()`), it is that
                    // helper's, named as a client a helper returns is.
                    let (builder, named) = match lazy_builder_called(frame, base) {
                        Some(builder) => (builder, frame.depth >= MAX_HELPER_DEPTH),
                        None => (base.clone(), false),
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
                [base, method] => match roles.get(base) {
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
                if !roles.contains_key(n) && !frame.locals().iter().any(|b| b.name == *n) =>
            {
                match module_role(frame, n)? {
                    role @ Role::Service(_, "sqlalchemy", ..) => {
                        Some(Role::Elsewhere(Box::new(role), n.clone(), false))
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
fn service_chain(
    roles: &BTreeMap<String, Role>,
    chain: Option<&(Value, Vec<String>)>,
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
    let role = roles.get(base)?;
    let library = service_library(role);
    (!library.is_empty()
        && lib::service_handle(library, first)
        && methods.iter().all(|m| lib::service_handle(library, m)))
    .then(|| role.clone())
}

/// Whether a chain of method calls yields plain data: it starts from plain
/// data (a model-supplied parameter, a literal, a local the function fills
/// with plain data, what a recognised library returns) and every method on
/// the way only reads it.
fn plain_chain(
    frame: &Frame<'_>,
    roles: &BTreeMap<String, Role>,
    chain: Option<&(Value, Vec<String>)>,
) -> bool {
    let Some((root, methods)) = chain else {
        return false;
    };
    if !methods.iter().all(|m| lib::is_plain_data_method(m)) {
        return false;
    }
    plain_root(frame, roles, root, 0)
}

/// Whether a value is plain data: a literal or display, a plain name, what
/// a pure or HTTP library function (or a plain method) returns, an item of
/// plain data, or arithmetic on those (`(datetime.now() -
/// timedelta(days=d)).isoformat()`).
fn plain_root(
    frame: &Frame<'_>,
    roles: &BTreeMap<String, Role>,
    root: &Value,
    depth: usize,
) -> bool {
    if depth > 8 {
        return false;
    }
    match root {
        Value::Name(name) => {
            is_plain(frame, name)
                || matches!(roles.get(name), Some(Role::Plain))
                || frame.loop_iterables(name).is_some_and(|iterables| {
                    iterables
                        .iter()
                        .all(|it| plain_root(frame, roles, it, depth + 1))
                })
        }
        Value::Str(_) | Value::FString(_) | Value::Dict(_) | Value::List(_) | Value::Number(_) => {
            true
        }
        Value::Add { left, right } | Value::BinOp { left, right, .. } => {
            plain_root(frame, roles, left, depth + 1) && plain_root(frame, roles, right, depth + 1)
        }
        Value::Subscript { base, .. } => plain_root(frame, roles, base, depth + 1),
        Value::Call { callee, .. } => match frame.library_name(callee) {
            Some(name) => {
                lib::http_function(&name).is_some()
                    || frame.pure_function(&name)
                    || name == "urllib.request.urlopen"
            }
            None => match callee.as_ref() {
                Value::Name(n) => frame.pure_builtin(n),
                // `q.strip()`, `r.json()` on plain data or a response.
                Value::Attribute(parts) => match parts.as_slice() {
                    [base, method] => {
                        lib::is_plain_data_method(method)
                            && (plain_root(frame, roles, &Value::Name(base.clone()), depth + 1)
                                || matches!(roles.get(base), Some(Role::Plain)))
                    }
                    _ => false,
                },
                _ => false,
            },
        },
        _ => false,
    }
}

/// Whether `name` holds plain data: a model-supplied parameter, or a
/// helper argument that is a literal, a display or such a parameter where
/// the caller wrote it. An object passed in is not (its methods may do
/// anything).
fn is_plain(frame: &Frame<'_>, name: &str) -> bool {
    if let Some(sources) = frame.params.get(name) {
        return !sources.computed && !sources.params.is_empty();
    }
    // An item of a loop over plain data (`for i in ids: i.strip()`, or a
    // comprehension's `[i.strip() for i in ids]`).
    if frame.loop_iterables(name).is_some() {
        return !frame.sources(&Value::Name(name.to_string())).computed;
    }
    if frame.args.contains_key(name) {
        let (value, caller) = frame.resolved(&Value::Name(name.to_string()), 0);
        return match &value {
            Value::Str(_)
            | Value::FString(_)
            | Value::Dict(_)
            | Value::List(_)
            | Value::Number(_) => true,
            Value::Name(inner) => caller
                .params
                .get(inner)
                .is_some_and(|s| !s.computed && !s.params.is_empty()),
            _ => false,
        };
    }
    false
}

/// The module-level name a value reads an item out of (`CONFIG["url"]`),
/// followed through the function's own names and a helper's arguments.
fn module_dict_read(frame: &Frame<'_>, value: &Value, depth: usize) -> Option<String> {
    if depth > 8 {
        return None;
    }
    // Only a name is followed (a helper's argument, a local); anything else
    // is read where it is, without copying the frame.
    if let Value::Name(_) = value {
        let (followed, at) = frame.resolved(value, 0);
        if followed != *value {
            return module_dict_read(&at, &followed, depth + 1);
        }
    }
    let at = frame;
    match value {
        Value::Subscript { base, .. } => match base.as_ref() {
            Value::Name(name)
                if !at.params.contains_key(name)
                    && !at.args.contains_key(name)
                    && !at.locals().iter().any(|b| b.name == *name)
                    && at
                        .module_binding(name)
                        .is_some_and(|b| b.kind != BindingKind::Function) =>
            {
                Some(name.clone())
            }
            _ => None,
        },
        Value::FString(parts) | Value::List(parts) | Value::Tuple(parts) => parts
            .iter()
            .find_map(|p| module_dict_read(at, p, depth + 1)),
        Value::Add { left, right } => {
            module_dict_read(at, left, depth + 1).or_else(|| module_dict_read(at, right, depth + 1))
        }
        Value::IfElse { body, orelse, .. } => module_dict_read(at, body, depth + 1)
            .or_else(|| module_dict_read(at, orelse, depth + 1)),
        Value::Call { args, .. } => args.iter().find_map(|a| module_dict_read(at, a, depth + 1)),
        _ => None,
    }
}

/// `log = logging.getLogger(...)` at module level.
fn is_module_logger(frame: &Frame<'_>, name: &str) -> bool {
    match frame.module_binding(name) {
        Some(one) if one.kind == BindingKind::Assignment => match &one.value {
            Some(Value::Call { callee, .. }) => {
                frame.at_module(frame.path).library_name(callee).as_deref()
                    == Some("logging.getLogger")
            }
            _ => false,
        },
        _ => false,
    }
}

fn is_log_method(method: &str) -> bool {
    matches!(
        method,
        "debug" | "info" | "warning" | "warn" | "error" | "exception" | "critical" | "log"
    )
}

/// A client or connection the module builds at top level: a call through
/// it is read, and named as a limit, since anything may configure it.
fn module_role(frame: &Frame<'_>, name: &str) -> Option<Role> {
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
            .resolve(frame.path, "", &Value::Name(name.to_string()))
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
        || !module.facts.module_bindings.iter().any(|b| b.name == name)
    {
        return None;
    }
    let at_module = module
        .facts
        .module_bindings
        .iter()
        .filter(|b| b.name == name);
    let in_functions = module
        .facts
        .functions
        .iter()
        .filter(|f| f.globals.iter().any(|g| g == name))
        .flat_map(|f| f.locals.iter().filter(|b| b.name == name));
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
                && f.locals.iter().any(|b| b.name == global)
        })
    };
    function
        .body_calls
        .iter()
        .find_map(|call| match &call.callee {
            Value::Name(name)
                if !function.locals.iter().any(|b| b.name == *name) && builds(name) =>
            {
                Some(name.clone())
            }
            _ => None,
        })
}

fn service_library(role: &Role) -> &'static str {
    match role {
        Role::Service(_, library, ..) => library,
        _ => "",
    }
}

fn role_name(library: &str) -> &'static str {
    match library {
        "boto3" => "client",
        "smtplib" => "smtp",
        "slack_sdk" => "client",
        "redis" => "redis",
        "pymongo" => "collection",
        "sqlalchemy" => "connection",
        "google.cloud.storage" => "storage",
        "google.cloud.firestore" => "firestore",
        "google.cloud.bigquery" => "bigquery",
        "twilio" => "client",
        "memory_bank" => "memories",
        _ => "client",
    }
}

/// A bucket or key a cloud or key-value call names by a literal.
fn service_target(frame: &Frame<'_>, library: &str, call: &BodyCall) -> Option<String> {
    let literal = |key: &str| match keyword_value(call, key) {
        Some(Value::Str(s)) if printable_name(s) => Some(s.clone()),
        _ => None,
    };
    match library {
        "boto3" => literal("Bucket")
            .or_else(|| literal("TableName"))
            .or_else(|| literal("QueueUrl")),
        // A key, as its template (`notes:{key}`) when its literal parts
        // are plainly a name.
        "redis" => {
            let key = frame.template(call.args.first()?);
            let literal: String = key.split(['{', '}']).step_by(2).collect();
            let plain = literal
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-' | '.'));
            (plain && !literal.is_empty() && !token_shaped(&literal)).then_some(key)
        }
        // A Memory Bank resource named by a literal `parent`/`name`, or an
        // update's inline `memory={"name": …}`.
        "memory_bank" => {
            let resource = |key: &str| match keyword_value(call, key) {
                Some(Value::Str(s)) if printable_path(s) => Some(s.clone()),
                _ => None,
            };
            resource("parent").or_else(|| resource("name")).or_else(|| {
                match keyword_value(call, "memory") {
                    Some(Value::Dict(entries)) => {
                        entries.iter().rev().find_map(|(k, v)| match (k, v) {
                            (Some(Value::Str(k)), Value::Str(name))
                                if k == "name" && printable_path(name) =>
                            {
                                Some(name.clone())
                            }
                            _ => None,
                        })
                    }
                    _ => None,
                }
            })
        }
        _ => None,
    }
}

fn shell(call: &BodyCall) -> bool {
    matches!(keyword_value(call, "shell"), Some(Value::Bool(true)))
}

fn program_name(program: &str) -> String {
    program.rsplit('/').next().unwrap_or(program).to_string()
}

/// The argument at `index`, or the keyword `name`.
fn argument<'c>(call: &'c BodyCall, index: usize, name: &str) -> Option<&'c Value> {
    call.args
        .get(index)
        .filter(|a| !matches!(a, Value::Starred(_)))
        .or_else(|| keyword_value(call, name))
}

/// Every value given under keyword `name` (a call's own, then its
/// client's defaults).
fn keyword_values<'c>(call: &'c BodyCall, name: &'c str) -> impl Iterator<Item = &'c Value> {
    call.keywords
        .iter()
        .filter(move |(k, _)| k.as_deref() == Some(name))
        .map(|(_, v)| v)
}

/// One entry of a dict a call sends (a body, its headers, its query),
/// with the frame its value is read in.
struct Entry<'f> {
    key: Option<Value>,
    value: Value,
    frame: Frame<'f>,
}

/// The entries of a dict a call is given, when the read can list them: a
/// dict display or `dict(k=v, …)` that the function (or, for a helper's
/// parameter, its caller) builds, with what that function stores into it
/// afterwards (`payload["k"] = v`, `payload.update(…)`,
/// `payload.setdefault(k, v)`). A module-level dict is not one: its
/// values are never taken as written.
fn dict_entries<'f>(frame: &Frame<'f>, value: &Value, depth: usize) -> Option<Vec<Entry<'f>>> {
    if depth > 8 {
        return None;
    }
    let entry = |key: Option<Value>, value: &Value| Entry {
        key,
        value: value.clone(),
        frame: frame.clone(),
    };
    match value {
        Value::Dict(entries) => Some(entries.iter().map(|(k, v)| entry(k.clone(), v)).collect()),
        // `json=None` sends no body.
        Value::None => Some(Vec::new()),
        // `headers=_headers()`: what a repository helper returns.
        Value::Call {
            callee,
            args,
            keywords,
        } if !matches!(callee.as_ref(), Value::Name(n) if n == "dict") => {
            let (returned, inner) = frame.returned(callee, args, keywords)?;
            dict_entries(&inner, &returned, depth + 1)
        }
        // `headers or {}`: what either side holds.
        Value::Or(parts) => {
            let mut all = Vec::new();
            for part in parts {
                all.extend(dict_entries(frame, part, depth + 1)?);
            }
            Some(all)
        }
        Value::Call {
            callee,
            args,
            keywords,
        } if args.is_empty()
            && matches!(callee.as_ref(), Value::Name(n) if n == "dict" && !frame.shadows(n)) =>
        {
            Some(
                keywords
                    .iter()
                    .map(|(k, v)| entry(k.clone().map(Value::Str), v))
                    .collect(),
            )
        }
        Value::Name(name) => {
            if let Some((rebinding, inner)) = frame.self_rebinding(name) {
                return dict_entries(&inner, rebinding, depth + 1);
            }
            if let Some((passed, caller)) = frame.args.get(name) {
                return dict_entries(caller, passed, depth + 1);
            }
            if frame.params.contains_key(name) {
                return None;
            }
            let locals: Vec<_> = frame.locals().iter().filter(|b| b.name == *name).collect();
            let [one] = locals.as_slice() else {
                return None;
            };
            if one.kind != BindingKind::Assignment || one.conditional {
                return None;
            }
            // Built some other way (`contact.model_dump()`): one unnamed
            // entry, and what the function stores into it.
            let initial = one.value.as_ref()?;
            let mut entries = dict_entries(frame, initial, depth + 1)
                .unwrap_or_else(|| vec![entry(None, initial)]);
            let function = frame.function?;
            let own = |object: &[String]| matches!(object, [o] if o == name);
            for store in &function.stores {
                if let (true, StoredUnder::Key(key)) = (own(&store.object), &store.under) {
                    entries.push(entry(Some(key.clone()), &store.value));
                }
            }
            for call in &function.body_calls {
                let Value::Attribute(parts) = &call.callee else {
                    continue;
                };
                let [object @ .., method] = parts.as_slice() else {
                    continue;
                };
                if !own(object) {
                    continue;
                }
                match (method.as_str(), call.args.as_slice()) {
                    ("update", args) => {
                        for arg in args {
                            match dict_entries(frame, arg, depth + 1) {
                                Some(more) => entries.extend(more),
                                None => entries.push(entry(None, arg)),
                            }
                        }
                        for (k, v) in &call.keywords {
                            entries.push(entry(k.clone().map(Value::Str), v));
                        }
                    }
                    ("setdefault", [key, value]) => entries.push(entry(Some(key.clone()), value)),
                    _ => {}
                }
            }
            Some(entries)
        }
        _ => None,
    }
}

fn keyword_value<'c>(call: &'c BodyCall, name: &str) -> Option<&'c Value> {
    call.keywords
        .iter()
        .find(|(k, _)| k.as_deref() == Some(name))
        .map(|(_, v)| v)
}

fn place(frame: &Frame<'_>, line: u32) -> Place {
    Place {
        path: frame.path.to_string(),
        line,
    }
}

fn digest(text: &str) -> String {
    format!("{:x}", Sha256::digest(text.as_bytes()))
}

/// Which parameters flow into a call's arguments.
fn model_supplied(frame: &Frame<'_>, call: &BodyCall, into: &str) -> Vec<(String, String)> {
    let values = call.args.iter().chain(call.keywords.iter().map(|(_, v)| v));
    params_into(frame, values, into)
}

/// Which parameters flow into `values`, each as `(param, into)`, sorted.
fn params_into<'v>(
    frame: &Frame<'_>,
    values: impl Iterator<Item = &'v Value>,
    into: &str,
) -> Vec<(String, String)> {
    let mut model: Vec<(String, String)> = Vec::new();
    for value in values {
        for p in frame.sources(value).params {
            let entry = (p, into.to_string());
            if !model.contains(&entry) {
                model.push(entry);
            }
        }
    }
    model.sort();
    model
}

/// One field fact from what its value is made from.
fn field(name: Option<String>, sources: &Sources) -> Field {
    let secret = name.as_deref().is_some_and(lib::is_credential_name);
    let fact = if let Some((values, decided_by)) = &sources.choices {
        FieldFact::Values {
            values: values.clone(),
            decided_by: decided_by.clone(),
        }
    } else if let (Some(exact), false) = (&sources.exact, secret) {
        match exact {
            Literal::Str(s) if printable_word(s) => FieldFact::Value(Printable::Str(s.clone())),
            Literal::Number(n) => FieldFact::Value(Printable::Number(n.clone())),
            Literal::Bool(b) => FieldFact::Value(Printable::Bool(*b)),
            _ => FieldFact::Literal,
        }
    } else if sources.exact.is_some() {
        FieldFact::Literal
    } else if !sources.params.is_empty() || !sources.env.is_empty() {
        FieldFact::Made {
            from: sources.params.clone(),
            env: sources.env.clone(),
        }
    } else if sources.literal && !sources.computed {
        FieldFact::Literal
    } else {
        FieldFact::Computed
    };
    Field { name, fact }
}

fn credential(kind: &str, name: Option<String>, sources: &Sources) -> Credential {
    let mut env = sources.env.clone();
    env.sort();
    Credential {
        kind: kind.into(),
        name,
        env,
        from: sources.params.clone(),
        literal: sources.literal || sources.exact.is_some(),
    }
}

/// A word without digits: printed as a field's value.
fn printable_word(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.chars()
            .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
}

/// A plain name (a table, bucket or key) is printed.
fn printable_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
        && !token_shaped(s)
}

/// A relative path that does not climb out, with no key-shaped piece.
fn printable_path(path: &str) -> bool {
    !path.starts_with('/')
        && !path.starts_with('~')
        && !path
            .split('/')
            .any(|piece| piece == ".." || token_shaped(piece))
}

/// A run of 20 characters, or of 7 with letters and at least two digits.
fn token_shaped(piece: &str) -> bool {
    let run = piece
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map(str::len)
        .max()
        .unwrap_or(0);
    let digits = piece.chars().filter(char::is_ascii_digit).count();
    let letters = piece.chars().any(|c| c.is_ascii_alphabetic());
    !piece.starts_with('{') && (run >= 20 || (run >= 7 && letters && digits >= 2))
}

/// Withholds token-shaped path pieces after the host, and a webhook's
/// whole path but its method name.
fn withhold_tokens(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (path_part, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    let mut pieces: Vec<String> = path_part.split('/').map(str::to_string).collect();
    // Credentials spliced into the userinfo are withheld.
    if let Some(host) = pieces.first_mut() {
        if let Some((_, after)) = host.rsplit_once('@') {
            *host = format!("{REDACTED}@{after}");
        }
    }
    let webhook = pieces
        .first()
        .is_some_and(|host| host.starts_with("hooks.") || host.contains("webhook"));
    // A bot URL's whole path but its method name (`/bot<token>/sendMessage`).
    let bot = pieces.len() > 2
        && pieces
            .get(1)
            .and_then(|piece| piece.strip_prefix("bot"))
            .is_some_and(|rest| {
                rest.starts_with('{')
                    || token_shaped(rest)
                    || rest.starts_with(|c: char| c.is_ascii_digit())
            });
    if bot {
        let last = pieces.len() - 1;
        pieces.splice(1..last, [REDACTED.to_string()]);
    }
    for (index, piece) in pieces.iter_mut().enumerate().skip(1) {
        if token_shaped(piece) || (webhook && index > 1) {
            *piece = REDACTED.to_string();
        }
    }
    let mut out = format!("{scheme}://{}", pieces.join("/"));
    if let Some(query) = query {
        out.push('?');
        let shown: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, value)) if !plain_query_value(value) => format!("{key}={REDACTED}"),
                _ => pair.to_string(),
            })
            .collect();
        out.push_str(&shown.join("&"));
    }
    out
}

/// A query value printed as written: a template piece, a short lowercase
/// word, a number, a date, or a list of words.
fn plain_query_value(value: &str) -> bool {
    let word = |w: &str| {
        !w.is_empty()
            && w.len() <= 24
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c == '-')
    };
    let number = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.');
    let date = |w: &str| {
        w.len() == 10
            && w.chars().enumerate().all(|(i, c)| {
                if i == 4 || i == 7 {
                    c == '-'
                } else {
                    c.is_ascii_digit()
                }
            })
    };
    value.is_empty()
        || (value.starts_with('{') && value.ends_with('}'))
        || word(value)
        || number(value)
        || date(value)
        || value.split(',').all(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_shaped_pieces_are_withheld_and_regions_are_not() {
        assert_eq!(
            withhold_tokens("https://api.x.com/v1/abcdefghij1234567890xyz/items"),
            "https://api.x.com/v1/[REDACTED:sensitive_field]/items"
        );
        assert_eq!(
            withhold_tokens("https://us-central1-aiplatform.googleapis.com/v1/{project}"),
            "https://us-central1-aiplatform.googleapis.com/v1/{project}"
        );
        assert!(printable_path("data/out.csv"));
        assert!(!printable_path("/etc/passwd"));
        assert!(!printable_path("../secrets"));
    }
}

#[cfg(test)]
mod memo_tests {
    use super::super::{tool_reach_within, Census};
    use super::*;
    use crate::python::extract_facts;
    use crate::resolve::ScopeContext;

    const SOURCE: &str = r#"import requests
from agents import function_tool


def fetch(x):
    return requests.get(f"https://api.example.com/{x}")


def both(x):
    fetch(x)
    fetch(x)


@function_tool
def tool(q: str) -> str:
    both(q)
    both(q)
    fetch("fixed")
    return "ok"
"#;

    fn read(budget: usize) -> Reach {
        let facts = extract_facts(SOURCE.as_bytes());
        let context = ScopeContext::default();
        let modules = ModuleSet::new(
            std::iter::once(("app/agent.py", &facts)),
            std::iter::empty(),
            &context,
        );
        let census = Census::of(&modules);
        let line = facts
            .functions
            .iter()
            .find(|f| f.name == "tool")
            .map(|f| f.line);
        line.and_then(|line| tool_reach_within(&modules, &census, budget, "app/agent.py", line))
            .unwrap_or_default()
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(200_000), "200,000");
        assert_eq!(thousands(12_345_678), "12,345,678");
    }

    /// A call reached by several ways is one call, by the first way; one
    /// with another binding is another call.
    #[test]
    fn a_helper_called_again_with_the_same_binding_adds_nothing() {
        let reach = read(1_000);
        let found: Vec<(&str, Vec<&str>)> = reach
            .calls
            .iter()
            .map(|c| {
                (
                    c.url.as_str(),
                    c.via.iter().map(|h| h.name.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                ("https://api.example.com/{q}", vec!["both", "fetch"]),
                ("https://api.example.com/fixed", vec!["fetch"]),
            ]
        );
        assert!(reach.limits.is_empty(), "{:?}", reach.limits);
    }

    /// Functions calling each other count against the helper bound (only
    /// a function's calls of itself are recursion, which is read from the
    /// frame, not the way there), so the read ends in a named limit.
    #[test]
    fn mutual_recursion_ends_at_the_helper_bound() {
        let source = r#"import requests
from agents import function_tool


def ping(x):
    pong(x)
    return requests.get(f"https://api.example.com/ping/{x}")


def pong(x):
    ping(x)
    return requests.get("https://api.example.com/pong")


@function_tool
def tool(q: str) -> str:
    ping(q)
    return "ok"
"#;
        let facts = extract_facts(source.as_bytes());
        let context = ScopeContext::default();
        let modules = ModuleSet::new(
            std::iter::once(("app/agent.py", &facts)),
            std::iter::empty(),
            &context,
        );
        let census = Census::of(&modules);
        let reach = facts
            .functions
            .iter()
            .find(|f| f.name == "tool")
            .and_then(|f| tool_reach_within(&modules, &census, 1_000, "app/agent.py", f.line))
            .unwrap_or_default();
        let urls: Vec<&str> = reach.calls.iter().map(|c| c.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://api.example.com/ping/{q}",
                "https://api.example.com/pong"
            ]
        );
        let whys: Vec<&str> = reach.limits.iter().map(|l| l.why.as_str()).collect();
        assert_eq!(
            whys,
            ["calls pong, more than 3 helper calls from the tool; not read"]
        );
    }

    /// Past the budget, reading stops where it is, and the limit says so
    /// first.
    #[test]
    fn a_spent_budget_is_the_first_limit() {
        let reach = read(3);
        assert_eq!(
            reach.limits.first().map(|l| l.why.as_str()),
            Some(budget_spent(3).as_str())
        );
        assert!(budget_spent(200_000).contains("200,000 steps"));
    }
}
