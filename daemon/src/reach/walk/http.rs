//! Reads an outbound HTTP call: its method, URL template, body fields,
//! headers, query and credentials, options spread into it, the `urllib`
//! requests the function builds, and the hooks and auth functions that
//! run on every request it sends.

use super::call_args::{argument, dict_entries, keyword_value, keyword_values, Entry};
use super::client_settings::ClientSettings;
use super::printed::{credential, field, withhold_tokens, REDACTED};
use super::{place, Walker};
use crate::python::{BindingKind, BodyCall, StoredUnder, Text, ThinVec, Value};
use crate::reach::libraries as lib;
use crate::reach::model::HttpCall;
use crate::reach::values::{Literal, Sources};
use crate::reach::Frame;

impl Walker<'_, '_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn http(
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
                        credentials.push(credential("field", Some(k.to_string()), &sources));
                    }
                } else {
                    push_model(&sources.params, "body".into());
                }
                fields.push(field(key.map(Into::into), &sources));
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
                        credentials.push(credential("header", Some(k.to_string()), &sources))
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
                        credentials.push(credential("query", Some(k.to_string()), &sources));
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
    pub(super) fn request_hooks(&mut self, frame: &Frame<'_>, call: &BodyCall) {
        for key in ["hooks", "auth"] {
            if let Some(value) = keyword_value(call, key) {
                self.hooks(frame, std::slice::from_ref(value), call.line);
            }
        }
    }

    /// A function set as a client's auth after it is built
    /// (`session.auth = sign`), read where it is set.
    pub(super) fn later_hooks(&mut self, frame: &Frame<'_>, settings: &ClientSettings) {
        for (hook, line) in &settings.later_hooks {
            self.hooks(frame, std::slice::from_ref(hook), *line);
        }
    }

    /// `urllib.request.urlopen(url or Request, data=…)`: a request the
    /// same function builds is read (its URL, data and method); a method
    /// set on it afterwards leaves the method unread.
    pub(super) fn urlopen(&mut self, frame: &Frame<'_>, call: &BodyCall) {
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
            Value::Name(name) => {
                !at.params.contains_key(name.as_str()) && !at.args.contains_key(name.as_str())
            }
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
    pub(super) fn hooks(&mut self, frame: &Frame<'_>, hooks: &[Value], line: u32) {
        let mut functions = Vec::new();
        for hook in hooks {
            collect_functions(hook, &mut functions);
        }
        // Parameters and the function's own values are data, not hooks.
        functions.retain(|f| match f {
            Value::Name(name) => {
                !frame.params.contains_key(name.as_str())
                    && !frame.args.contains_key(name.as_str())
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
                args: ThinVec::new(),
                keywords: ThinVec::new(),
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
}

/// How a call spells its method.
pub(super) enum Method<'v> {
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
        Value::Str(s) => (Some(s.to_ascii_uppercase().to_string()), Vec::new()),
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

/// What the function sets on a `urllib.request.Request` it built, as the
/// keywords it amounts to: `req.data = …` (a body), `req.add_header(k, v)`
/// and `req.headers[k] = v` (headers).
fn request_changes(frame: &Frame<'_>, name: &str) -> Vec<(Option<Text>, Value)> {
    let Some(function) = frame.function else {
        return Vec::new();
    };
    let mut changes: Vec<(u32, (Option<Text>, Value))> = Vec::new();
    for store in &function.body().stores {
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
    for call in &function.body().body_calls {
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
                if !at.params.contains_key(name.as_str())
                    && !at.args.contains_key(name.as_str())
                    && !at.locals().iter().any(|b| b.name == *name)
                    && at
                        .module_binding(name)
                        .is_some_and(|b| b.kind != BindingKind::Function) =>
            {
                Some(name.to_string())
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
