//! Walks a tool's calls, and its repository helpers' to the depth bound:
//! each call is an HTTP call, a library effect, a call with no effect
//! outside the process, a helper to follow, or a named limit.

use super::libraries as lib;
use super::model::{
    Credential, Field, FieldFact, Hop, HttpCall, LibraryEffect, Place, Printable, Reach, ReachLimit,
};
use super::values::{Literal, Sources};
use super::{Frame, MAX_HELPER_DEPTH, MAX_LIMITS};
use crate::graph::resolve::{ModuleSet, Resolver, Target};
use crate::python::{BindingKind, BodyCall, Value};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// What a local name holds, when the function builds it.
#[derive(Debug, Clone)]
enum Role {
    /// A client of an HTTP library: `(library, base_url)`.
    HttpClient(&'static str, Option<Value>),
    /// A database connection or cursor: `(library, service, role)`.
    Database(&'static str, &'static str, &'static str),
    /// A cloud, messaging or key-value client: `(family, library, service,
    /// host)`.
    Service(&'static str, &'static str, String, Option<String>),
    /// A `pathlib.Path`.
    Path(Value),
    /// Plain data: a literal, a response a recognised library returned, a
    /// file this function opened.
    Plain,
}

pub struct Walker<'a> {
    modules: &'a ModuleSet<'a>,
    reach: Reach,
    more_limits: usize,
    /// Functions on the current path, so recursion is read once.
    stack: BTreeSet<(String, u32)>,
}

impl<'a> Walker<'a> {
    pub fn new(modules: &'a ModuleSet<'a>) -> Self {
        Walker {
            modules,
            reach: Reach::default(),
            more_limits: 0,
            stack: BTreeSet::new(),
        }
    }

    /// The reach read. Every call stays in it (they count for the effect);
    /// the document lists the first `MAX_CALLS`.
    pub fn finish(mut self) -> Reach {
        self.reach.more_limits = self.more_limits;
        self.reach
    }

    fn limit(&mut self, frame: &Frame<'_>, line: u32, why: String) {
        let at = Place {
            path: frame.path.to_string(),
            line,
        };
        if self.reach.limits.iter().any(|l| l.at == at && l.why == why) {
            return;
        }
        if self.reach.limits.len() >= MAX_LIMITS {
            self.more_limits += 1;
            return;
        }
        self.reach.limits.push(ReachLimit { at, why });
    }

    /// Reads one function's calls.
    pub fn function(&mut self, frame: &Frame<'_>) {
        let Some(function) = frame.function else {
            return;
        };
        let key = (frame.path.to_string(), function.line);
        if !self.stack.insert(key.clone()) {
            return;
        }
        let roles = roles(frame);
        for call in &function.body_calls {
            self.call(frame, &roles, call);
        }
        self.stack.remove(&key);
    }

    fn call(&mut self, frame: &Frame<'_>, roles: &BTreeMap<String, Role>, call: &BodyCall) {
        // `expression.method(...)`: on a call's result.
        if let Some((receiver, method)) = &call.receiver {
            return self.method_on_result(frame, roles, receiver, method, call);
        }
        let spelled = call.callee.dotted().unwrap_or_else(|| "…".to_string());
        // `name.method(...)` on something the function built.
        if let Value::Attribute(parts) = &call.callee {
            if let [base, method] = parts.as_slice() {
                if let Some(role) = roles.get(base) {
                    return self.role_method(frame, role, base, method, call);
                }
                if !frame.locals().iter().any(|b| b.name == *base) {
                    if let Some(role) = module_role(frame, base) {
                        self.limit(
                            frame,
                            call.line,
                            format!("sends through {base}, built outside this function; its configuration is not read"),
                        );
                        return self.role_method(frame, &role, base, method, call);
                    }
                }
                if frame.params.contains_key(base) && lib::is_plain_data_method(method) {
                    return;
                }
            }
        }
        if let Some(name) = frame.library_name(&call.callee) {
            return self.library_call(frame, &name, call);
        }
        if let Value::Name(name) = &call.callee {
            if !frame.shadows(name) {
                if name == "open" {
                    return self.open(frame, "builtins", "open", call);
                }
                if lib::is_pure_builtin(name) {
                    return;
                }
            }
        }
        if self.helper(frame, call) {
            return;
        }
        self.limit(
            frame,
            call.line,
            format!("calls {spelled}, which is not read"),
        );
    }

    /// A call of a library function, by its absolute name.
    fn library_call(&mut self, frame: &Frame<'_>, name: &str, call: &BodyCall) {
        if let Some((library, method)) = lib::http_function(name) {
            let (method, url) = match method {
                Some(method) => (Some(method.to_string()), argument(call, 0, "url")),
                None => {
                    let method = argument(call, 0, "method").and_then(|m| match m {
                        Value::Str(s) => Some(s.to_ascii_uppercase()),
                        _ => None,
                    });
                    (method, argument(call, 1, "url"))
                }
            };
            return self.http(frame, library, method, url, None, call);
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
            || lib::is_pure_function(name)
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
            Role::HttpClient(library, base_url) => match lib::http_verb(method) {
                Some(verb) => {
                    let url = argument(call, 0, "url");
                    self.http(
                        frame,
                        library,
                        Some(verb.to_string()),
                        url,
                        base_url.as_ref(),
                        call,
                    )
                }
                None if method == "request" => {
                    let verb = argument(call, 0, "method").and_then(|m| match m {
                        Value::Str(s) => Some(s.to_ascii_uppercase()),
                        _ => None,
                    });
                    let url = argument(call, 1, "url");
                    self.http(frame, library, verb, url, base_url.as_ref(), call)
                }
                None if matches!(method, "close" | "aclose" | "mount") => {}
                None => self.limit(
                    frame,
                    call.line,
                    format!("calls {base}.{method}, which is not read"),
                ),
            },
            Role::Database(library, service, object) => {
                self.database(frame, library, service, object, method, call)
            }
            Role::Service(family, library, service, host) => {
                let operation = lib::service_method(library, method);
                let effect = LibraryEffect {
                    family: family.to_string(),
                    operation: operation.unwrap_or("unknown").to_string(),
                    library: library.to_string(),
                    call: format!("{}.{method}", role_name(library)),
                    at: place(frame, call.line),
                    via: frame.via.clone(),
                    target: service_target(library, call),
                    statement: None,
                    value_sha256: None,
                    service: (!service.is_empty()).then(|| service.clone()),
                    host: host.clone(),
                    credentials: Vec::new(),
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
                    )
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
            // A response from a client's request is plain data.
            if let Value::Attribute(parts) = callee.as_ref() {
                if let [base, verb] = parts.as_slice() {
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
                    || lib::is_pure_function(&name)
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
                if lib::is_pure_builtin(n) && !frame.shadows(n) && lib::is_plain_data_method(method)
                {
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
        if frame.depth >= MAX_HELPER_DEPTH {
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
        // The helper's parameters hold what this call passes.
        let mut params = BTreeMap::new();
        let mut args = BTreeMap::new();
        let positional: Vec<_> = function
            .params
            .iter()
            .filter(|p| {
                matches!(
                    p.kind,
                    crate::python::ParamKind::PositionalOnly | crate::python::ParamKind::Normal
                )
            })
            .collect();
        for param in &function.params {
            let passed = positional
                .iter()
                .position(|p| p.name == param.name)
                .and_then(|i| call.args.get(i))
                .filter(|a| !matches!(a, Value::Starred(_)))
                .or_else(|| {
                    call.keywords
                        .iter()
                        .find(|(k, _)| k.as_deref() == Some(param.name.as_str()))
                        .map(|(_, v)| v)
                });
            match passed {
                Some(value) => {
                    args.insert(param.name.clone(), (value.clone(), Box::new(frame.clone())));
                }
                None => match &param.default {
                    Some(default) => {
                        args.insert(
                            param.name.clone(),
                            (default.clone(), Box::new(frame.at_module(path))),
                        );
                    }
                    None => {
                        params.insert(param.name.clone(), Sources::computed());
                    }
                },
            }
        }
        let mut via = frame.via.clone();
        via.push(Hop {
            at: place(frame, call.line),
            name: function.name.clone(),
        });
        let helper = Frame {
            modules: self.modules,
            path,
            facts,
            function: Some(function),
            params,
            args,
            via,
            depth: frame.depth + 1,
        };
        self.function(&helper);
        true
    }

    #[allow(clippy::too_many_arguments)]
    fn http(
        &mut self,
        frame: &Frame<'_>,
        library: &str,
        method: Option<String>,
        url: Option<&Value>,
        base_url: Option<&Value>,
        call: &BodyCall,
    ) {
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
        if method.is_none() {
            if let Some(m) = argument(call, 0, "method") {
                push_model(&frame.sources(m).params, "method".into());
            }
        }
        let mut fields = Vec::new();
        let mut credentials = Vec::new();
        for keyword in ["json", "data"] {
            let Some(body) = keyword_value(call, keyword) else {
                continue;
            };
            let (body, frame) = frame.resolved(body, 0);
            let frame = &frame;
            match &body {
                Value::Dict(entries) => {
                    for (key, value) in entries {
                        let key = match key {
                            Some(Value::Str(k)) => Some(k.clone()),
                            _ => None,
                        };
                        let sources = frame.sources(value);
                        if let Some(k) = &key {
                            push_model(&sources.params, format!("field {k}"));
                            if lib::is_credential_name(k) {
                                credentials.push(credential("field", Some(k.clone()), &sources));
                            }
                        } else {
                            push_model(&sources.params, "body".into());
                        }
                        fields.push(field(key, &sources));
                    }
                }
                other => {
                    let sources = frame.sources(other);
                    push_model(&sources.params, "body".into());
                    fields.push(field(None, &sources));
                }
            }
        }
        if let Some(headers) = keyword_value(call, "headers") {
            let (headers, frame) = frame.resolved(headers, 0);
            let frame = &frame;
            match &headers {
                Value::Dict(entries) => {
                    for (key, value) in entries {
                        let sources = frame.sources(value);
                        match key {
                            Some(Value::Str(k)) if lib::is_credential_name(k) => {
                                credentials.push(credential("header", Some(k.clone()), &sources))
                            }
                            _ => push_model(&sources.params, "headers".into()),
                        }
                    }
                }
                other => push_model(&frame.sources(other).params, "headers".into()),
            }
        }
        if let Some(auth) = keyword_value(call, "auth") {
            credentials.push(credential("auth", None, &frame.sources(auth)));
        }
        if let Some(query) = keyword_value(call, "params") {
            let (query, frame) = frame.resolved(query, 0);
            let frame = &frame;
            match &query {
                Value::Dict(entries) => {
                    for (key, value) in entries {
                        let sources = frame.sources(value);
                        match key {
                            Some(Value::Str(k)) if lib::is_credential_name(k) => {
                                credentials.push(credential("query", Some(k.clone()), &sources))
                            }
                            Some(Value::Str(k)) => {
                                push_model(&sources.params, format!("query {k}"))
                            }
                            _ => push_model(&sources.params, "query".into()),
                        }
                    }
                }
                other => push_model(&frame.sources(other).params, "query".into()),
            }
        }
        let graphql = url_text.to_ascii_lowercase().contains("graphql").then(|| {
            let document = keyword_value(call, "json").and_then(|body| match body {
                Value::Dict(entries) => entries.iter().find_map(|(k, v)| match (k, v) {
                    (Some(Value::Str(k)), Value::Str(doc)) if k == "query" => Some(doc.clone()),
                    _ => None,
                }),
                _ => None,
            });
            match document {
                Some(doc) if doc.trim_start().starts_with("mutation") => "mutation".to_string(),
                Some(_) => "query".to_string(),
                None => "unknown".to_string(),
            }
        });
        if method.is_none() {
            self.limit(
                frame,
                call.line,
                "the request method is not a literal, so the call supports no effect".to_string(),
            );
        }
        if graphql.as_deref() == Some("unknown") {
            self.limit(
                frame,
                call.line,
                "the GraphQL document is not a literal, so the call supports no effect".to_string(),
            );
        }
        model.sort_by(|a, b| a.0.cmp(&b.0));
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

    /// `urllib.request.urlopen(url or Request, data=…)`.
    fn urlopen(&mut self, frame: &Frame<'_>, call: &BodyCall) {
        let target = argument(call, 0, "url");
        let request = target.and_then(|t| match t {
            Value::Call { callee, .. }
                if frame.library_name(callee).as_deref() == Some("urllib.request.Request") =>
            {
                Some(t.clone())
            }
            _ => None,
        });
        match request {
            Some(Value::Call { args, keywords, .. }) => {
                let inner = BodyCall {
                    callee: Value::Other("Request".into()),
                    receiver: None,
                    args,
                    keywords,
                    line: call.line,
                };
                let method = match keyword_value(&inner, "method") {
                    Some(Value::Str(m)) => Some(m.to_ascii_uppercase()),
                    Some(_) => None,
                    None if keyword_value(&inner, "data").is_some() => Some("POST".into()),
                    None => Some("GET".into()),
                };
                let url = argument(&inner, 0, "url").cloned();
                self.http(frame, "urllib.request", method, url.as_ref(), None, &inner);
            }
            _ => {
                let method = if keyword_value(call, "data").is_some() || call.args.len() > 1 {
                    "POST"
                } else {
                    "GET"
                };
                let url = target.cloned();
                self.http(
                    frame,
                    "urllib.request",
                    Some(method.into()),
                    url.as_ref(),
                    None,
                    call,
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
        let mut model = Vec::new();
        for value in call.args.iter().chain(call.keywords.iter().map(|(_, v)| v)) {
            for p in frame.sources(value).params {
                let entry = (p, "command".to_string());
                if !model.contains(&entry) {
                    model.push(entry);
                }
            }
        }
        model.sort();
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
            "execute" | "executemany" | "executescript" | "fetch" | "fetchrow" | "fetchval" => {
                let statement = argument(call, 0, "query").or_else(|| argument(call, 0, "sql"));
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
                let mut model: Vec<(String, String)> = Vec::new();
                for value in call.args.iter() {
                    for p in frame.sources(value).params {
                        let entry = (p, "statement".to_string());
                        if !model.contains(&entry) {
                            model.push(entry);
                        }
                    }
                }
                model.sort();
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
                    service: Some(service.into()),
                    host: None,
                    credentials: Vec::new(),
                    model_supplied: model,
                });
            }
            "cursor" | "fetchone" | "fetchall" | "fetchmany" | "commit" | "rollback" | "close" => {}
            other => self.limit(
                frame,
                call.line,
                format!("calls {object}.{other}, a {library} method whose direction is not read"),
            ),
        }
    }
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
        let role = role_of_call(frame, callee, args, keywords, &roles);
        if let Some(role) = role {
            roles.insert(binding.name.clone(), role);
        }
    }
    roles
}

/// What a call builds, when it is a client, connection, path or plain
/// data this reader knows.
fn role_of_call(
    frame: &Frame<'_>,
    callee: &Value,
    args: &[Value],
    keywords: &[(Option<String>, Value)],
    roles: &BTreeMap<String, Role>,
) -> Option<Role> {
    if let Some(name) = frame.library_name(callee) {
        if let Some(library) = lib::http_client(&name) {
            let base = keywords
                .iter()
                .find(|(k, _)| k.as_deref() == Some("base_url"))
                .map(|(_, v)| v.clone());
            Some(Role::HttpClient(library, base))
        } else if let Some((library, service)) = lib::database_connect(&name) {
            Some(Role::Database(library, service, "connection"))
        } else if let Some((family, library, service)) = lib::service_client(&name) {
            let service = match (library, args.first()) {
                ("boto3", Some(Value::Str(s))) => s.clone(),
                _ => service.to_string(),
            };
            // The host a client connects to, when its construction names it.
            let host = match (library, args.first()) {
                ("smtplib", Some(first)) => Some(frame.template(first)),
                _ => keywords
                    .iter()
                    .find(|(k, _)| k.as_deref() == Some("host"))
                    .map(|(_, v)| frame.template(v)),
            };
            Some(Role::Service(family, library, service, host))
        } else if name == "pathlib.Path" {
            Some(Role::Path(
                args.first().cloned().unwrap_or(Value::Other("path".into())),
            ))
        } else if lib::http_function(&name).is_some()
            || lib::is_pure_function(&name)
            || name == "urllib.request.urlopen"
        {
            Some(Role::Plain)
        } else {
            None
        }
    } else {
        match callee {
            // `cur = conn.cursor()` on a connection the function built.
            Value::Attribute(parts) => match parts.as_slice() {
                [base, method] => match roles.get(base) {
                    Some(Role::Database(library, service, _)) if method == "cursor" => {
                        Some(Role::Database(library, service, "cursor"))
                    }
                    _ => None,
                },
                _ => None,
            },
            Value::Name(n) if n == "open" && !frame.shadows(n) => Some(Role::Plain),
            Value::Name(n) if lib::is_pure_builtin(n) && !frame.shadows(n) => Some(Role::Plain),
            _ => None,
        }
    }
}

/// A client or connection the module builds at top level: a call through
/// it is read, and named as a limit, since anything may configure it.
fn module_role(frame: &Frame<'_>, name: &str) -> Option<Role> {
    let bindings: Vec<_> = frame
        .facts
        .module_bindings
        .iter()
        .filter(|b| b.name == name)
        .collect();
    let [binding] = bindings.as_slice() else {
        return None;
    };
    let Some(Value::Call {
        callee,
        args,
        keywords,
    }) = &binding.value
    else {
        return None;
    };
    if binding.kind != BindingKind::Assignment {
        return None;
    }
    let module = frame.at_module(frame.path);
    match role_of_call(&module, callee, args, keywords, &BTreeMap::new()) {
        Some(Role::Plain | Role::Path(_)) | None => None,
        role => role,
    }
}

fn role_name(library: &str) -> &'static str {
    match library {
        "boto3" => "client",
        "smtplib" => "smtp",
        "slack_sdk" => "client",
        "redis" => "redis",
        "pymongo" => "collection",
        _ => "client",
    }
}

/// A bucket or key a cloud or key-value call names by a literal.
fn service_target(library: &str, call: &BodyCall) -> Option<String> {
    let literal = |key: &str| match keyword_value(call, key) {
        Some(Value::Str(s)) if printable_name(s) => Some(s.clone()),
        _ => None,
    };
    match library {
        "boto3" => literal("Bucket")
            .or_else(|| literal("TableName"))
            .or_else(|| literal("QueueUrl")),
        "redis" => match call.args.first() {
            Some(Value::Str(s)) if printable_name(s) => Some(s.clone()),
            _ => None,
        },
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
    let mut model: Vec<(String, String)> = Vec::new();
    for value in call.args.iter().chain(call.keywords.iter().map(|(_, v)| v)) {
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
    Credential {
        kind: kind.into(),
        name,
        env: sources.env.clone(),
        from: sources.params.clone(),
        literal: sources.literal || sources.exact.is_some(),
    }
}

/// A word without digits: printed as a field's value.
fn printable_word(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.chars()
            .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-' || c == ' ')
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
    let webhook = pieces
        .first()
        .is_some_and(|host| host.starts_with("hooks.") || host.contains("webhook"));
    for (index, piece) in pieces.iter_mut().enumerate().skip(1) {
        if token_shaped(piece) || (webhook && index > 1) {
            *piece = "[REDACTED:sensitive_field]".to_string();
        }
    }
    let mut out = format!("{scheme}://{}", pieces.join("/"));
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
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
