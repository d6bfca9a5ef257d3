//! SDK handoffs: `handoffs=[billing, handoff(refunds, …)]`. A member is an
//! agent the scope builds, referenced by name, or the SDK's `handoff(...)`
//! of one (`agent=` too). A `handoff()`'s options are part of what the
//! handoff is: the name the model sees (`tool_name_override`),
//! `is_enabled`, and the functions run on the handoff (`on_handoff`,
//! `input_filter`) by their code's digest; a change to one is a `changed`
//! row naming it. Its description (`tool_description_override`), which
//! only tells the model about it, is not part of it (the spec: "A tool's
//! description, which tells the model about it, is not part of it", as
//! for `as_tool(tool_description=…)`). An option this reader cannot name
//! keeps the handoff and its addition or removal established; a change to
//! it is not established.

use super::{eval::list_exprs, ModuleReader, Ways};
use crate::frameworks::openai::{self, AgentConstruction, ListMember};
use crate::graph::{Affects, Edge, Field, Gap};
use crate::pyrepr::str_repr;
use crate::python::Value;
use crate::resolve::{Resolver, Target};

/// Options a `handoff()` may pass that this reader names.
const READ_OPTIONS: &[&str] = &[
    "tool_name_override",
    "is_enabled",
    "on_handoff",
    "input_filter",
    "input_type",
    "nest_handoff_history",
];

/// Options that only describe the handoff to the model: not part of what
/// it is, so neither compared nor a limit when unread.
const DESCRIPTIVE_OPTIONS: &[&str] = &["tool_description_override"];

/// The attributes of the SDK's `Handoff`: a store under one of these
/// names anywhere could change a handoff held by a name.
const HANDOFF_FIELDS: &[&str] = &[
    "tool_name",
    "tool_description",
    "input_json_schema",
    "on_invoke_handoff",
    "agent_name",
    "input_filter",
    "nest_handoff_history",
    "strict_json_schema",
    "is_enabled",
];

/// A `handoff(...)` a listed name holds, and the module it is read in.
struct BoundHandoff<'m> {
    path: &'m str,
    call: &'m Value,
}

/// What a `handoff()`'s options read as.
struct Options {
    /// `(option, value as compared)`, in option order.
    read: Vec<(String, String)>,
    /// `(option, as spelled)` of each option not read.
    unread: Vec<(String, String)>,
}

impl<'m> ModuleReader<'m, '_> {
    /// Handoffs to agents the scope constructs, in this module or another
    /// one, followed like a tool reference to the agent's own assignment.
    pub(super) fn read_handoffs(&mut self, agent: &str, construction: &AgentConstruction<'_>) {
        let Some(members) = self.list_of(agent, construction, "handoffs") else {
            return;
        };
        let mut ways = Ways::new();
        let read_some = list_exprs::any_read(&members);
        for list_exprs::Member {
            member,
            scope,
            when,
            from,
            caller,
            rewired_at,
            frame: _,
            namespace: _,
        } in members
        {
            let start = from
                .as_deref()
                .and_then(|f| self.modules.key(f))
                .unwrap_or(self.path);
            // A name bound to a `handoff(...)` is read as that call, in
            // the module that binds it.
            let mut start = start;
            let mut scope = scope;
            let bound = match &member {
                ListMember::Reference(reference) => self.bound_handoff(start, &scope, reference),
                _ => None,
            };
            let member = match bound {
                Some(BoundHandoff { path, call }) => {
                    start = path;
                    scope = String::new();
                    ListMember::Call(call.clone())
                }
                None => member,
            };
            let (reference, options) = match &member {
                ListMember::Reference(reference) => (reference.clone(), Vec::new()),
                ListMember::Unread(why) => {
                    let reason = self.list_limit(agent, construction, "handoffs", why, read_some);
                    self.agent_gap(agent, reason);
                    continue;
                }
                ListMember::Call(value) => {
                    let facts = self.modules.facts(start).unwrap_or(self.facts);
                    match openai::handoff_call(facts, value, &scope) {
                        Some(call)
                            if matches!(call.target, Value::Name(_) | Value::Attribute(_)) =>
                        {
                            (
                                call.target.clone(),
                                call.options
                                    .iter()
                                    .map(|(k, v)| (k.to_string(), (*v).clone()))
                                    .collect(),
                            )
                        }
                        // A builder's call: the agent it returns.
                        _ if self.sdk_built_reference(start, &scope, value).is_some() => {
                            (value.clone(), Vec::new())
                        }
                        _ => {
                            self.agent_gap(
                                agent,
                                self.dynamic(agent, construction.line, "handoffs"),
                            );
                            continue;
                        }
                    }
                }
            };
            let spelled = super::messages::spelled_member(&reference);
            let mut resolver = Resolver::new(self.modules);
            // A local agent of the function or a builder's call first
            // (`helper = Agent(...)` in `main()`, `eval::built_agents`),
            // else the name as the resolver follows it.
            let target = match self.sdk_built_reference(start, &scope, &reference) {
                Some(Ok((path, name))) => match self.modules.key(&path) {
                    Some(path) => Ok((path, name)),
                    None => Err(format!("{path} is not read")),
                },
                Some(Err(why)) => Err(why),
                None => match resolver.resolve(start, &scope, &reference) {
                    Ok(found) => match found.target {
                        Target::Value { path, name, .. } if self.is_single_agent(path, &name) => {
                            Ok((path, name))
                        }
                        // An agent a factory builds at this name's call.
                        Target::Value { path, name, line } => {
                            self.factory_agent_bound(path, &name, line).ok_or_else(|| {
                                format!(
                                    "{} in {path}:{line} is not an agent this reader identifies",
                                    str_repr(&name)
                                )
                            })
                        }
                        _ => Err(format!("{} is not an agent", str_repr(&spelled))),
                    },
                    Err(why) => Err(why),
                },
            };
            match target {
                Ok((path, name)) => {
                    let Options { read, unread } = self.handoff_options(start, &scope, &options);
                    let edge = Edge::Handoff {
                        target_source: path.to_string(),
                        options: read,
                    };
                    let target = name.clone();
                    let key = self.bind_agent_edge(agent, construction.line, path, name, edge);
                    for (option, spelled) in unread {
                        self.gaps.insert(Gap {
                            tool: Some(key.clone()),
                            affects: Affects::Implementation,
                            field: self.field.get(),
                            ..Gap::agent(
                                self.path,
                                agent,
                                format!(
                                    "{} hands off to {} through handoff(), whose {option} is not read ({spelled}); a change to it is not established.",
                                    self.who(agent, construction.line),
                                    str_repr(&target)
                                ),
                            )
                        });
                    }
                    ways.add(key, &when, caller.as_deref(), rewired_at.as_deref());
                }
                Err(why) => {
                    let reason = format!(
                        "{} hands off to unresolved agent {}. Not resolved because {why}.",
                        self.who(agent, construction.line),
                        str_repr(&spelled)
                    );
                    self.unresolved_member(agent, Field::Handoffs, &spelled, reason);
                }
            }
        }
        self.apply_ways(agent, &ways);
    }

    /// The `handoff(...)` a listed name holds: a module-level name bound
    /// once to that call, which nothing could change after it is built —
    /// no code of the scope stores an attribute of a handoff's, or one of
    /// the name (`reach::Census`). Then listing the name is listing the
    /// call: the same object, built once on import. The name is followed
    /// as an agent's or an MCP server's variable is, by its one binding
    /// (the census of namespace changes guards constants a tool's reach
    /// reads as values, not the objects an agent lists).
    fn bound_handoff(
        &self,
        start: &'m str,
        scope: &str,
        reference: &Value,
    ) -> Option<BoundHandoff<'m>> {
        if !matches!(reference, Value::Name(_)) {
            return None;
        }
        let mut resolver = Resolver::new(self.modules);
        let Target::Value { path, name, line } =
            resolver.resolve(start, scope, reference).ok()?.target
        else {
            return None;
        };
        let facts = self.modules.facts(path)?;
        let binding = facts.module_bindings_named(&name).find(|b| {
            b.name == name
                && b.line == line
                && b.kind == crate::python::BindingKind::Assignment
                && !b.conditional
        })?;
        let call = binding.value.as_ref()?;
        openai::handoff_call(facts, call, "")?;
        let census = self.contexts.census(self.modules);
        let stable = !census.may_rebind_attribute(&name)
            && !HANDOFF_FIELDS
                .iter()
                .any(|field| census.may_rebind_attribute(field));
        stable.then_some(BoundHandoff { path, call })
    }

    /// A `handoff()`'s options: those compared, and those not read.
    fn handoff_options(&self, module: &str, scope: &str, options: &[(String, Value)]) -> Options {
        let mut read = Vec::new();
        let mut unread = Vec::new();
        for (option, value) in options {
            if DESCRIPTIVE_OPTIONS.contains(&option.as_str()) {
                continue;
            }
            let named = READ_OPTIONS
                .contains(&option.as_str())
                .then(|| self.option_value(module, scope, option, value))
                .flatten();
            match named {
                Some(text) => read.push((option.clone(), text)),
                None => unread.push((option.clone(), crate::graph::schema::unparse(value))),
            }
        }
        read.sort();
        Options { read, unread }
    }

    /// One option's compared value: a literal as written, a function of
    /// the scope by its code's digest, one the SDK ships by its import.
    fn option_value(
        &self,
        module: &str,
        scope: &str,
        option: &str,
        value: &Value,
    ) -> Option<String> {
        match (option, value) {
            ("tool_name_override", Value::Str(text)) => Some(str_repr(text)),
            (_, Value::None) => Some("None".into()),
            ("is_enabled" | "nest_handoff_history", Value::Bool(b)) => {
                Some(if *b { "True" } else { "False" }.into())
            }
            // The input's schema class by its code and bases
            // (`objects/callables.rs`), as the model's arguments are.
            ("input_type", Value::Name(_) | Value::Attribute(_)) => {
                self.digested(module, scope, value, crate::graph::schema::unparse(value))
            }
            (
                "is_enabled" | "on_handoff" | "input_filter",
                Value::Name(_) | Value::Attribute(_),
            ) => self.function_identity(module, scope, value),
            // A call (`functools.partial(apply_filters, [...])`) by what
            // its callee is and its arguments' values, as an object's
            // argument is digested (`objects/callables.rs`).
            ("is_enabled" | "on_handoff" | "input_filter", Value::Call { callee, .. }) => self
                .digested(
                    module,
                    scope,
                    value,
                    format!("{}(…)", crate::graph::schema::unparse(callee)),
                ),
            _ => None,
        }
    }

    /// `value` as the object reader's canonical text digests it, shown as
    /// `shown` and the digest's first twelve hex digits.
    fn digested(&self, module: &str, scope: &str, value: &Value, shown: String) -> Option<String> {
        let text = self
            .object_site(module, self.modules.facts(module)?, scope)
            .canonical(value, 0)?;
        Some(format!("{shown} {}", short_digest(&text)))
    }

    /// A function reference by what runs: a function of the scope by its
    /// file, name and code digest; one the SDK exports by its import.
    fn function_identity(&self, module: &str, scope: &str, reference: &Value) -> Option<String> {
        let mut resolver = Resolver::new(self.modules);
        if let Ok(found) = resolver.resolve(module, scope, reference) {
            return match found.target {
                Target::Function { path, function } => Some(format!(
                    "{path}:{} {}",
                    function.name,
                    function.implementation_sha256.get(..12).unwrap_or_default()
                )),
                _ => None,
            };
        }
        let facts = self.modules.facts(module)?;
        let absolute = crate::frameworks::imports::imported_name(facts, reference, scope)?;
        openai::is_sdk_path(&absolute).then_some(absolute)
    }
}

/// The first twelve hex digits of a text's SHA-256: a compared value that
/// prints short.
fn short_digest(text: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(text.as_bytes());
    digest.iter().take(6).map(|b| format!("{b:02x}")).collect()
}
