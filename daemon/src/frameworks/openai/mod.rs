//! The OpenAI Agents SDK reader: which calls construct an `Agent`, which
//! functions are `@function_tool`s, and what each agent lists. Identity is by
//! import: `Agent` is the SDK's only when imported from the absolute
//! `agents` (or `openai_agents`) package, at a module path the SDK exports
//! it at (`agents.Agent`, `agents.agent.Agent`; `agents.decorators.tool` is
//! `function_tool`).

use super::imports::{exported_name, imported_name};
use super::module_context::{AgentBase, ModuleContext};
use super::names::NameConstants;

mod handoff;
use crate::python::{CallFact, Comprehension, FunctionFact, ModuleFacts, Text, Value};
pub use handoff::{handoff_call, HandoffCall};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

const SDK_PACKAGES: &[&str] = &["agents", "openai_agents"];

/// Whether an absolute dotted name is what the SDK exports as `member`
/// (at any module path a release exports it at, or by its alias).
pub fn is_sdk_member(absolute: &str, member: &str) -> bool {
    SDK_PACKAGES
        .iter()
        .find_map(|package| absolute.strip_prefix(package)?.strip_prefix('.'))
        .and_then(|rest| exported_name(&format!("agents.{rest}")))
        == Some(member)
}

/// Whether an absolute dotted name is inside the SDK's package.
/// Whether a dotted module name is the SDK's package or one of its
/// submodules.
pub fn is_sdk_module(dotted: &str) -> bool {
    SDK_PACKAGES.contains(&dotted) || is_sdk_path(dotted)
}

pub fn is_sdk_path(absolute: &str) -> bool {
    SDK_PACKAGES.iter().any(|package| {
        absolute
            .strip_prefix(package)
            .is_some_and(|rest| rest.starts_with('.'))
    })
}

/// Whether a callee spelled in `scope` is the SDK's `Agent` class.
pub fn is_agent_class(facts: &ModuleFacts, callee: &Value, scope: &str) -> bool {
    imported_name(facts, callee, scope).is_some_and(|name| is_sdk_member(&name, "Agent"))
}

/// Whether the module imports the SDK at all (a `sources[]` entry).
pub fn is_sdk_source(facts: &ModuleFacts) -> bool {
    facts.imports.iter().any(|import| {
        import.level == 0
            && SDK_PACKAGES
                .iter()
                .any(|p| import.module == *p || import.module.starts_with(&format!("{p}.")))
    })
}

/// One `Agent(...)` construction as the module spells it.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentConstruction<'f> {
    /// The plain variable it is assigned to, else its literal `name=`, else
    /// its source label (`build@agent.py`).
    pub identity: String,
    pub line: u32,
    pub call: &'f CallFact,
}

/// A member of a `tools=` or `handoffs=` list literal.
#[derive(Debug, Clone, PartialEq)]
pub enum ListMember {
    /// A name or `module.name` reference, to be followed to its definition.
    Reference(Value),
    /// A call (`function_tool(f)`, `WebSearchTool()`), read when it is the
    /// SDK's `function_tool` wrapping a reference.
    Call(Value),
    /// Anything else, by its kind.
    Unread(String),
}

/// How an agent's `tools=` (or `handoffs=`) argument reads.
#[derive(Debug, Clone, PartialEq)]
pub enum ListArgument {
    Absent,
    Members(Vec<ListMember>),
    /// A plain name (`tools=TOOLS`), read through the scope that binds it.
    Named(String),
    /// Not a list literal: the whole list is unread.
    Dynamic,
}

/// The SDK agent constructions of `file` (scope-relative), in source order.
/// A construction of a pass-through subclass of `Agent` (`context`) is
/// the `Agent(...)` construction it makes.
pub fn agent_constructions<'f>(
    facts: &'f ModuleFacts,
    file: &str,
    context: &'f ModuleContext,
) -> Vec<AgentConstruction<'f>> {
    let names = &context.names;
    let calls: Vec<&CallFact> = facts
        .calls
        .iter()
        .enumerate()
        .filter_map(|(index, call)| {
            if imported_name(facts, &call.callee, &call.scope)
                .is_some_and(|name| is_sdk_member(&name, "Agent"))
            {
                // A wrapper class's construction, as its `__init__`
                // spells it, when it is read one agent per instance.
                return Some(context.wrapper_call(index).unwrap_or(call));
            }
            context.subclass_call(index, AgentBase::Sdk)
        })
        .collect();
    // A variable assigned an agent in more than one function or class body
    // (two builders' local `agent`) gives way to a literal name or label.
    let mut bodies: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for call in &calls {
        if let Some(variable) = plain_variable(call) {
            bodies
                .entry(variable)
                .or_default()
                .insert(call.scope.as_str());
        }
    }
    calls
        .into_iter()
        .map(|call| {
            let variable =
                plain_variable(call).filter(|v| bodies.get(v).is_some_and(|b| b.len() == 1));
            let identity = variable
                .map(str::to_string)
                .or_else(|| literal_name(facts, call, names))
                .unwrap_or_else(|| source_label(facts, call, file));
            AgentConstruction {
                identity,
                line: call.line,
                call,
            }
        })
        .collect()
}

fn plain_variable(call: &CallFact) -> Option<&str> {
    call.assigned_to
        .as_deref()
        .filter(|target| !target.contains('.'))
}

/// The `name=` (or first positional string), a literal or a module's
/// string constant (`frameworks::names`).
pub fn literal_name(facts: &ModuleFacts, call: &CallFact, names: &NameConstants) -> Option<String> {
    super::names::agent_name(facts, call, names)
}

/// A construction's source identity when it has no literal name: its
/// enclosing functions and classes, its single assignment target, and the
/// file; never a line number (spec: `build@agent.py`,
/// `first.agent@agent.py`, `Helper.self.agent@agent.py`, `Agent@agent.py`).
pub fn source_label(facts: &ModuleFacts, call: &CallFact, file: &str) -> String {
    // A class-held attribute is labelled by its class, not the method, so
    // moving the construction between methods keeps its identity.
    let class = facts
        .classes
        .iter()
        .map(|c| c.qualname.as_str())
        .filter(|q| call.scope == *q || call.scope.starts_with(&format!("{q}.")))
        .max_by_key(|q| q.len());
    let base = match (call.assigned_to.as_deref(), call.scope.as_str()) {
        (Some(target), _) if target.starts_with("self.") && class.is_some() => {
            format!("{}.{target}", class.unwrap_or_default())
        }
        (Some(target), "") => target.to_string(),
        (Some(target), scope) => format!("{scope}.{target}"),
        (None, "") => match &call.callee {
            Value::Subscript { base, .. } => base.dotted().unwrap_or_else(|| "Agent".into()),
            other => other.dotted().unwrap_or_else(|| "Agent".into()),
        },
        (None, scope) => scope.to_string(),
    };
    format!("{base}@{file}")
}

/// The source `clone_constructions` gives a copy of what a call returns:
/// an original no reader names, so nothing is inherited from it.
pub const UNKNOWN_ORIGINAL: &str = "";

/// The capability fields an SDK agent's copy may pass.
const CAPABILITY_KEYWORDS: &[&str] = &["tools", "handoffs", "mcp_servers"];

/// `X.clone(...)` calls whose receiver `X` is an agent this module builds
/// at one site and binds to the plain variable `X`, in source order, with
/// the clone's identity: a literal `name=` override, else the variable it
/// is assigned to, else its source label. Clones of such clones count, up
/// to eight hops from a direct construction.
pub fn clone_constructions<'f>(
    facts: &'f ModuleFacts,
    file: &str,
    agents: &[AgentConstruction<'f>],
    names: &NameConstants,
) -> Vec<(String, AgentConstruction<'f>)> {
    const MAX_HOPS: usize = 8;
    let mut sources: BTreeMap<String, (String, usize)> = BTreeMap::new();
    let mut sites: BTreeMap<&str, usize> = BTreeMap::new();
    for agent in agents {
        *sites.entry(agent.identity.as_str()).or_default() += 1;
    }
    for agent in agents {
        if plain_variable(agent.call) == Some(agent.identity.as_str())
            && sites.get(agent.identity.as_str()) == Some(&1)
        {
            sources.insert(agent.identity.clone(), (agent.identity.clone(), 0));
        }
    }
    let mut clones = Vec::new();
    for call in &facts.calls {
        // A copy of what a call returns that passes its own capabilities
        // (`load_agent().clone(tools=[…])`): those fields are exactly what
        // it passes, whatever the original holds; it inherits the others
        // from an original no reader names (`UNKNOWN_ORIGINAL`).
        if matches!(&call.callee, Value::Other(spelled) if spelled == crate::python::EXPRESSION_CLONE)
            && CAPABILITY_KEYWORDS
                .iter()
                .any(|field| call.keyword(field).is_some())
        {
            let identity = literal_name(facts, call, names)
                .or_else(|| plain_variable(call).map(str::to_string))
                .unwrap_or_else(|| source_label(facts, call, file));
            clones.push((
                UNKNOWN_ORIGINAL.to_string(),
                AgentConstruction {
                    identity,
                    line: call.line,
                    call,
                },
            ));
            continue;
        }
        let Value::Attribute(parts) = &call.callee else {
            continue;
        };
        let [receiver, method] = parts.as_slice() else {
            continue;
        };
        if method != "clone" {
            continue;
        }
        let Some((source_identity, hops)) = sources.get(receiver.as_str()).cloned() else {
            continue;
        };
        if hops >= MAX_HOPS {
            continue;
        }
        let identity = literal_name(facts, call, names)
            .or_else(|| plain_variable(call).map(str::to_string))
            .unwrap_or_else(|| source_label(facts, call, file));
        if let Some(variable) = plain_variable(call) {
            sources.insert(variable.to_string(), (identity.clone(), hops + 1));
        }
        clones.push((
            source_identity,
            AgentConstruction {
                identity,
                line: call.line,
                call,
            },
        ));
    }
    clones
}

/// The one filter a clone may apply to its source's tools and still be
/// read: `[t for t in source.tools if t.name == "read"]`, where `source` is
/// the clone's own receiver. Returns the kept name.
pub fn clone_name_filter(clone: &CallFact, tools: &Value) -> Option<String> {
    let Value::Attribute(callee) = &clone.callee else {
        return None;
    };
    let [receiver, _clone] = callee.as_slice() else {
        return None;
    };
    let Value::ListComprehension(comprehension) = tools else {
        return None;
    };
    let Comprehension {
        element,
        target,
        iter,
        conditions,
    } = comprehension.as_ref();
    let Value::Name(variable) = target else {
        return None;
    };
    if element != target || *iter != Value::Attribute(vec![receiver.clone(), "tools".into()]) {
        return None;
    }
    let [Value::Compare { left, op, right }] = conditions.as_slice() else {
        return None;
    };
    let field = Value::Attribute(vec![variable.clone(), "name".into()]);
    match (left.as_ref(), op.as_str(), right.as_ref()) {
        (l, "==", Value::Str(name)) | (Value::Str(name), "==", l) if *l == field => {
            Some(name.to_string())
        }
        _ => None,
    }
}

/// The hosted tool (or extension tool factory, `codex_tool`) an absolute
/// name is, by the name the SDK exports it under: every member of the
/// SDK's `Tool` type but the function tool, read from the wheels
/// (`exports::SHIPPED_TOOLS`).
fn hosted_tool(absolute: &str) -> Option<&'static str> {
    let rest = SDK_PACKAGES
        .iter()
        .find_map(|package| absolute.strip_prefix(package)?.strip_prefix('.'))?;
    let known = exported_name(&format!("agents.{rest}"))?;
    matches!(super::imports::shipped_kind(known)?, "hosted" | "factory").then_some(known)
}

/// An SDK class whose instances an agent binds as objects (spec: "Tools
/// bound as objects").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectClass {
    /// A tool the model provider hosts (`WebSearchTool`).
    Hosted(&'static str),
    /// An MCP server class and the transport it speaks.
    McpServer {
        class: &'static str,
        transport: &'static str,
    },
}

const MCP_SERVERS: &[(&str, &str)] = &[
    ("MCPServerStdio", "stdio"),
    ("MCPServerSse", "sse"),
    ("MCPServerStreamableHttp", "streamable_http"),
];

/// The SDK object class a callee names in `scope`, by import identity.
pub fn object_class(facts: &ModuleFacts, callee: &Value, scope: &str) -> Option<ObjectClass> {
    let absolute = imported_name(facts, callee, scope)?;
    if let Some(tool) = hosted_tool(&absolute) {
        return Some(ObjectClass::Hosted(tool));
    }
    MCP_SERVERS
        .iter()
        .find(|(class, _)| is_sdk_member(&absolute, class))
        .map(|(class, transport)| ObjectClass::McpServer { class, transport })
}

/// Whether a callee is the SDK's `create_static_tool_filter`.
pub fn is_static_tool_filter(facts: &ModuleFacts, callee: &Value, scope: &str) -> bool {
    imported_name(facts, callee, scope)
        .is_some_and(|name| is_sdk_member(&name, "create_static_tool_filter"))
}

/// The receiver of `receiver.as_tool(...)`, when it is a plain reference.
pub fn as_tool_receiver(callee: &Value) -> Option<Value> {
    let Value::Attribute(parts) = callee else {
        return None;
    };
    let (last, receiver) = parts.split_last()?;
    if last != "as_tool" {
        return None;
    }
    match receiver {
        [] => None,
        [name] => Some(Value::Name(name.clone())),
        parts => Some(Value::Attribute(parts.to_vec())),
    }
}

/// The tool name the SDK gives `agent.as_tool()` without `tool_name=`:
/// the agent's name in function style (`Billing agent` → `billing_agent`).
pub fn default_as_tool_name(agent_name: &str) -> String {
    agent_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// Classes the module defines on top of the SDK's `Agent`.
pub fn agent_subclasses(facts: &ModuleFacts) -> Vec<&crate::python::ClassFact> {
    super::imports::classes_deriving(facts, |name| is_sdk_member(name, "Agent"))
}

/// Reads a list-valued keyword argument member by member.
pub fn list_argument(call: &CallFact, keyword: &str) -> ListArgument {
    let Some(argument) = call.keyword(keyword) else {
        return ListArgument::Absent;
    };
    match &argument.value {
        Value::List(members) | Value::Tuple(members) => {
            ListArgument::Members(list_members(members))
        }
        Value::Name(name) => ListArgument::Named(name.to_string()),
        _ => ListArgument::Dynamic,
    }
}

/// The members of a list or tuple literal.
pub fn list_members(members: &[Value]) -> Vec<ListMember> {
    members
        .iter()
        .map(|member| match member {
            Value::Name(_) | Value::Attribute(_) => ListMember::Reference(member.clone()),
            Value::Starred(_) => ListMember::Unread("starred expression".to_string()),
            Value::Call { .. } => ListMember::Call(member.clone()),
            other => ListMember::Unread(format!("{other:?}")),
        })
        .collect()
}

/// A call's positional and keyword arguments.
type Arguments<'v> = (&'v [Value], &'v [(Option<Text>, Value)]);

/// The arguments of a call of the SDK's `member` (by import, in `scope`).
fn sdk_call<'v>(
    facts: &ModuleFacts,
    value: &'v Value,
    scope: &str,
    member: &str,
) -> Option<Arguments<'v>> {
    let Value::Call {
        callee,
        args,
        keywords,
    } = value
    else {
        return None;
    };
    imported_name(facts, callee, scope)
        .is_some_and(|name| is_sdk_member(&name, member))
        .then_some((args.as_slice(), keywords.as_slice()))
}

/// `tool_namespace(name="crm", description="…", tools=[…])`, the SDK's
/// helper that returns copies of the listed function tools carrying the
/// namespace (their names unchanged): the namespace's name and
/// description when literal, and the tools list.
pub struct ToolNamespace<'v> {
    pub name: Option<&'v str>,
    pub description: Option<&'v str>,
    pub tools: &'v Value,
}

/// Reads a value as the SDK's `tool_namespace(...)` called in `scope`.
pub fn tool_namespace_call<'v>(
    facts: &ModuleFacts,
    value: &'v Value,
    scope: &str,
) -> Option<ToolNamespace<'v>> {
    let (args, keywords) = sdk_call(facts, value, scope, "tool_namespace")?;
    if !args.is_empty() {
        return None;
    }
    let keyword = |name: &str| {
        keywords
            .iter()
            .find(|(k, _)| k.as_deref() == Some(name))
            .map(|(_, v)| v)
    };
    let literal = |value: Option<&'v Value>| match value {
        Some(Value::Str(text)) => Some(text.as_str()),
        _ => None,
    };
    Some(ToolNamespace {
        name: literal(keyword("name")),
        description: literal(keyword("description")),
        tools: keyword("tools")?,
    })
}

/// `function_tool(f, name_override=…, …)` used as a value: the wrapped
/// reference, the overriding name, and the other arguments (which are part
/// of what the tool is, e.g. `needs_approval=`).
pub struct FunctionToolCall<'v> {
    pub wrapped: &'v Value,
    pub name_override: Option<String>,
    /// A `name_override=` given but not a literal: the name the model sees
    /// is not established.
    pub unread_override: Option<&'v Value>,
    pub other_arguments: Vec<String>,
    /// The keywords that gate the call (`needs_approval=`,
    /// `require_confirmation=`…, `graph::gates`), with their values.
    pub gate_keywords: Vec<(&'v str, &'v Value)>,
}

/// The keywords of a call that name a function tool's gates.
pub fn gate_keywords(keywords: &[(Option<Text>, Value)]) -> Vec<(&str, &Value)> {
    keywords
        .iter()
        .filter_map(|(name, value)| {
            let name = name.as_deref()?;
            super::TOOL_GATE_KEYWORDS
                .contains(&name)
                .then_some((name, value))
        })
        .collect()
}

/// The keywords of a function's `@function_tool` decorator (none for a
/// bare `@function_tool`): `None` when it is not decorated with the SDK's
/// `function_tool`.
pub fn function_tool_decorator<'f>(
    facts: &ModuleFacts,
    function: &'f FunctionFact,
) -> Option<&'f [(Option<Text>, Value)]> {
    let enclosing = crate::python::parent_scope(&function.qualname);
    function.decorators.iter().find_map(|decorator| {
        let (callee, keywords) = match decorator {
            Value::Call {
                callee, keywords, ..
            } => (callee.as_ref(), keywords.as_slice()),
            other => (other, &[][..]),
        };
        imported_name(facts, callee, enclosing)
            .is_some_and(|name| is_sdk_member(&name, "function_tool"))
            .then_some(keywords)
    })
}

/// Reads a value as the SDK's `function_tool(f)` called in `scope`.
pub fn function_tool_call<'v>(
    facts: &ModuleFacts,
    value: &'v Value,
    scope: &str,
) -> Option<FunctionToolCall<'v>> {
    let (args, keywords) = sdk_call(facts, value, scope, "function_tool")?;
    let (wrapped, rest) = args.split_first()?;
    // A reference, or a decorator applied to one (`function_tool(safe(f))`).
    let applied = |value: &Value| {
        matches!(value, Value::Call { callee, args, keywords }
            if keywords.is_empty()
                && args.len() == 1
                && matches!(callee.as_ref(), Value::Name(_) | Value::Attribute(_)))
    };
    if !matches!(wrapped, Value::Name(_) | Value::Attribute(_)) && !applied(wrapped) {
        return None;
    }
    let mut name_override = None;
    let mut unread_override = None;
    let mut other_arguments: Vec<String> = rest.iter().map(|a| format!("{a:?}")).collect();
    for (name, value) in keywords {
        match (name.as_deref(), value) {
            (Some("name_override"), Value::Str(name)) => name_override = Some(name.clone()),
            (Some("name_override"), Value::None) => {}
            (Some("name_override"), value) => unread_override = Some(value),
            (name, value) => other_arguments.push(format!("{}={value:?}", name.unwrap_or("**"))),
        }
    }
    Some(FunctionToolCall {
        wrapped,
        name_override: name_override.map(Into::into),
        unread_override,
        other_arguments,
        gate_keywords: gate_keywords(keywords),
    })
}

/// The tool name a `@function_tool` function exposes (`name_override=`
/// wins where it is read: `unread_name_override`), or `None` when the
/// function is not decorated with the SDK's `function_tool`.
pub fn function_tool_name(facts: &ModuleFacts, function: &FunctionFact) -> Option<String> {
    let keywords = function_tool_decorator(facts, function)?;
    let overridden =
        override_value(keywords).and_then(|value| override_text(facts, function, value));
    Some(overridden.unwrap_or_else(|| function.name.to_string()))
}

/// A `@function_tool` function's `name_override=` that is given but not
/// read, as written: the name the model sees is then not established.
pub fn unread_name_override<'f>(
    facts: &ModuleFacts,
    function: &'f FunctionFact,
) -> Option<&'f Value> {
    let keywords = function_tool_decorator(facts, function)?;
    let value = override_value(keywords)?;
    override_text(facts, function, value)
        .is_none()
        .then_some(value)
}

/// The `name_override=` a decorator passes (`None` passes none).
fn override_value(keywords: &[(Option<Text>, Value)]) -> Option<&Value> {
    keywords
        .iter()
        .find(|(name, _)| name.as_deref() == Some("name_override"))
        .map(|(_, value)| value)
        .filter(|value| **value != Value::None)
}

/// What a decorator's `name_override=` spells: a literal, or a string
/// constant the module binds once, unconditionally, before a module-level
/// definition (the decorator runs on import, as a module-level
/// construction does: `names::agent_name`'s rule).
fn override_text(facts: &ModuleFacts, function: &FunctionFact, value: &Value) -> Option<String> {
    match value {
        Value::Str(text) => Some(text.to_string()),
        Value::Name(constant) if function.module_level => {
            let binding = super::names::once_before(facts, constant, function.line)?;
            (binding.kind == crate::python::BindingKind::Assignment)
                .then(|| {
                    binding
                        .value
                        .as_ref()
                        .and_then(super::names::string_constant)
                })
                .flatten()
        }
        _ => None,
    }
}

/// One agent setting as the source states it (spec: `agent_settings`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Setting {
    /// Not given: the SDK's default applies.
    Unset,
    /// A recognised literal.
    Value(String),
    /// Given, but not as anything this reader recognises: no value is
    /// inferred, and no change is claimed from it.
    Uncertain(String),
}

/// The facts about how an agent may use its tools: read from the source,
/// never verified at run time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentSettings {
    pub tool_use_behavior: Setting,
    pub tool_choice: Setting,
}

impl AgentSettings {
    pub const UNSET: AgentSettings = AgentSettings {
        tool_use_behavior: Setting::Unset,
        tool_choice: Setting::Unset,
    };

    /// `(field, before, after)` for each setting both sides state and that
    /// differs; an uncertain side claims nothing.
    pub fn changes(&self, after: &AgentSettings) -> Vec<(&'static str, String, String)> {
        let mut out = Vec::new();
        for (field, b, a) in [
            (
                "tool_use_behavior",
                &self.tool_use_behavior,
                &after.tool_use_behavior,
            ),
            ("tool_choice", &self.tool_choice, &after.tool_choice),
        ] {
            let show = |s: &Setting| match s {
                Setting::Value(v) => Some(v.clone()),
                Setting::Unset => Some("unset".to_string()),
                Setting::Uncertain(_) => None,
            };
            // The SDK's default spelled out is the default: an unset
            // `tool_use_behavior` is `run_llm_again` in every release.
            let effective = |s: &Setting| match (field, s) {
                ("tool_use_behavior", Setting::Unset) => {
                    Some(DEFAULT_TOOL_USE_BEHAVIOR.to_string())
                }
                _ => show(s),
            };
            if let (Some(before), Some(now)) = (show(b), show(a)) {
                if effective(b) != effective(a) {
                    out.push((field, before, now));
                }
            }
        }
        out
    }
}

/// What the SDK's `Agent` runs with when `tool_use_behavior=` is not given.
const DEFAULT_TOOL_USE_BEHAVIOR: &str = "run_llm_again";

/// Reads `tool_use_behavior=` and `model_settings=ModelSettings(tool_choice=…)`
/// of a construction (or a clone, over what it inherits).
pub fn agent_settings(
    facts: &ModuleFacts,
    call: &CallFact,
    inherited: &AgentSettings,
) -> AgentSettings {
    let tool_use_behavior = match call.keyword("tool_use_behavior").map(|k| &k.value) {
        None => inherited.tool_use_behavior.clone(),
        Some(Value::Str(v)) if v == "run_llm_again" || v == "stop_on_first_tool" => {
            Setting::Value(v.to_string())
        }
        Some(value) => match stop_at_tools(facts, value, &call.scope) {
            Some(names) => Setting::Value(format!("stop_at_tools [{}]", names.join(", "))),
            None => Setting::Uncertain(
                "tool_use_behavior is not a literal this reader recognises".into(),
            ),
        },
    };
    let tool_choice = match call.keyword("model_settings").map(|k| &k.value) {
        // A clone that overrides the model without settings: the SDK's model
        // defaults decide, and they can change.
        None if call.keyword("model").is_some() && inherited.tool_choice != Setting::Unset => {
            Setting::Uncertain("the model is overridden without model_settings".into())
        }
        None => inherited.tool_choice.clone(),
        Some(Value::Call {
            callee, keywords, ..
        }) if imported_name(facts, callee, &call.scope)
            .is_some_and(|name| is_sdk_member(&name, "ModelSettings")) =>
        {
            match keywords
                .iter()
                .find(|(k, _)| k.as_deref() == Some("tool_choice"))
            {
                None if keywords.iter().any(|(k, _)| k.is_none()) => {
                    Setting::Uncertain("model_settings unpacks a mapping".into())
                }
                None => Setting::Unset,
                Some((_, Value::Str(v))) if ["auto", "required", "none"].contains(&v.as_str()) => {
                    Setting::Value(v.to_string())
                }
                Some(_) => Setting::Uncertain(
                    "tool_choice is not \"auto\", \"required\" or \"none\"".into(),
                ),
            }
        }
        Some(_) => Setting::Uncertain("model_settings is not an inline ModelSettings(...)".into()),
    };
    AgentSettings {
        tool_use_behavior,
        tool_choice,
    }
}

/// `StopAtTools(stop_at_tool_names=[…])` or `{"stop_at_tool_names": […]}`.
fn stop_at_tools(facts: &ModuleFacts, value: &Value, scope: &str) -> Option<Vec<String>> {
    let list = match value {
        Value::Call {
            callee, keywords, ..
        } if imported_name(facts, callee, scope)
            .is_some_and(|name| is_sdk_member(&name, "StopAtTools")) =>
        {
            keywords
                .iter()
                .find(|(k, _)| k.as_deref() == Some("stop_at_tool_names"))
                .map(|(_, v)| v)?
        }
        Value::Dict(items) => items
            .iter()
            .find(|(k, _)| matches!(k, Some(Value::Str(k)) if k == "stop_at_tool_names"))
            .map(|(_, v)| v)?,
        _ => return None,
    };
    let (Value::List(items) | Value::Tuple(items)) = list else {
        return None;
    };
    items
        .iter()
        .map(|item| match item {
            Value::Str(name) => Some(name.to_string()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests;
