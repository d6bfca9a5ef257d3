//! The OpenAI Agents SDK reader: which calls construct an `Agent`, which
//! functions are `@function_tool`s, and what each agent lists. Identity is by
//! import: `Agent` is the SDK's only when imported from the absolute
//! `agents` (or `openai_agents`) package.

use super::imports::imported_name;
use crate::python::{CallFact, FunctionFact, ModuleFacts, Value};
use std::collections::{BTreeMap, BTreeSet};

const SDK_PACKAGES: &[&str] = &["agents", "openai_agents"];

/// Whether an absolute dotted name is `<sdk package>.<member>`.
fn is_sdk_member(absolute: &str, member: &str) -> bool {
    SDK_PACKAGES.iter().any(|package| {
        absolute
            .strip_prefix(package)
            .and_then(|r| r.strip_prefix('.'))
            == Some(member)
    })
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
pub fn agent_constructions<'f>(facts: &'f ModuleFacts, file: &str) -> Vec<AgentConstruction<'f>> {
    let calls: Vec<&CallFact> = facts
        .calls
        .iter()
        .filter(|call| {
            imported_name(facts, &call.callee, &call.scope)
                .is_some_and(|name| is_sdk_member(&name, "Agent"))
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
                .or_else(|| literal_name(call))
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

/// The literal `name=` (or first positional string).
fn literal_name(call: &CallFact) -> Option<String> {
    match (call.keyword("name").map(|k| &k.value), call.args.first()) {
        (Some(Value::Str(name)), _) | (None, Some(Value::Str(name))) => Some(name.clone()),
        _ => None,
    }
}

/// A construction's source identity when it has no literal name: its
/// enclosing functions and classes, its single assignment target, and the
/// file; never a line number (spec: `build@agent.py`,
/// `first.agent@agent.py`, `Helper.self.agent@agent.py`, `Agent@agent.py`).
fn source_label(facts: &ModuleFacts, call: &CallFact, file: &str) -> String {
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

/// `X.clone(...)` calls whose receiver `X` is an agent this module builds
/// at one site and binds to the plain variable `X`, in source order, with
/// the clone's identity: a literal `name=` override, else the variable it
/// is assigned to, else its source label. Clones of such clones count, up
/// to eight hops from a direct construction.
pub fn clone_constructions<'f>(
    facts: &'f ModuleFacts,
    file: &str,
    agents: &[AgentConstruction<'f>],
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
        let Value::Attribute(parts) = &call.callee else {
            continue;
        };
        let [receiver, method] = parts.as_slice() else {
            continue;
        };
        if method != "clone" {
            continue;
        }
        let Some((source_identity, hops)) = sources.get(receiver).cloned() else {
            continue;
        };
        if hops >= MAX_HOPS {
            continue;
        }
        let identity = literal_name(call)
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

/// The SDK's hosted tools, by absolute name (`agents.WebSearchTool`).
pub fn is_hosted_tool(absolute: &str) -> bool {
    [
        "WebSearchTool",
        "FileSearchTool",
        "CodeInterpreterTool",
        "ComputerTool",
        "ImageGenerationTool",
        "HostedMCPTool",
        "LocalShellTool",
    ]
    .iter()
    .any(|tool| is_sdk_member(absolute, tool))
}

/// Classes the module defines on top of the SDK's `Agent`.
pub fn agent_subclasses(facts: &ModuleFacts) -> Vec<&crate::python::ClassFact> {
    facts
        .classes
        .iter()
        .filter(|class| {
            let enclosing = class
                .qualname
                .rsplit_once('.')
                .map(|(parent, _)| parent)
                .unwrap_or("");
            class.bases.iter().any(|base| {
                imported_name(facts, base, enclosing)
                    .is_some_and(|name| is_sdk_member(&name, "Agent"))
            })
        })
        .collect()
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
        Value::Name(name) => ListArgument::Named(name.clone()),
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

/// `function_tool(f, name_override=…, …)` used as a value: the wrapped
/// reference, the overriding name, and the other arguments (which are part
/// of what the tool is, e.g. `needs_approval=`).
pub struct FunctionToolCall<'v> {
    pub wrapped: &'v Value,
    pub name_override: Option<String>,
    pub other_arguments: Vec<String>,
}

/// Reads a value as the SDK's `function_tool(f)` called in `scope`.
pub fn function_tool_call<'v>(
    facts: &ModuleFacts,
    value: &'v Value,
    scope: &str,
) -> Option<FunctionToolCall<'v>> {
    let Value::Call {
        callee,
        args,
        keywords,
    } = value
    else {
        return None;
    };
    if !imported_name(facts, callee, scope)
        .is_some_and(|name| is_sdk_member(&name, "function_tool"))
    {
        return None;
    }
    let (wrapped, rest) = args.split_first()?;
    if !matches!(wrapped, Value::Name(_) | Value::Attribute(_)) {
        return None;
    }
    let mut name_override = None;
    let mut other_arguments: Vec<String> = rest.iter().map(|a| format!("{a:?}")).collect();
    for (name, value) in keywords {
        match (name.as_deref(), value) {
            (Some("name_override"), Value::Str(name)) => name_override = Some(name.clone()),
            (name, value) => other_arguments.push(format!("{}={value:?}", name.unwrap_or("**"))),
        }
    }
    Some(FunctionToolCall {
        wrapped,
        name_override,
        other_arguments,
    })
}

/// The tool name a `@function_tool` function exposes (`name_override=`
/// wins), or `None` when the function is not decorated with the SDK's
/// `function_tool`.
pub fn function_tool_name(facts: &ModuleFacts, function: &FunctionFact) -> Option<String> {
    let enclosing = function
        .qualname
        .rsplit_once('.')
        .map(|(parent, _)| parent)
        .unwrap_or("");
    for decorator in &function.decorators {
        let (callee, keywords) = match decorator {
            Value::Call {
                callee, keywords, ..
            } => (callee.as_ref(), keywords.as_slice()),
            other => (other, &[][..]),
        };
        let is_tool = imported_name(facts, callee, enclosing)
            .is_some_and(|name| is_sdk_member(&name, "function_tool"));
        if !is_tool {
            continue;
        }
        let overridden = keywords
            .iter()
            .find_map(|(name, value)| match (name.as_deref(), value) {
                (Some("name_override"), Value::Str(name)) => Some(name.clone()),
                _ => None,
            });
        return Some(overridden.unwrap_or_else(|| function.name.clone()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;

    #[test]
    fn agents_are_recognised_by_import_identity() {
        let facts = extract_facts(
            br#"from agents import Agent, function_tool
import agents as sdk
from livekit.agents import Agent as LkAgent

@function_tool
def lookup(q: str) -> str:
    return q

@function_tool(name_override="renamed")
def other():
    pass

def plain():
    pass

support = Agent(name="Support", tools=[lookup, other])
helper = sdk.Agent(name="Helper", tools=make())
voice = LkAgent(name="voice", tools=[lookup])
"#,
        );
        let agents = agent_constructions(&facts, "agent.py");
        assert_eq!(agents.len(), 2, "LiveKit's Agent is not the SDK's");
        assert_eq!(agents[0].identity, "support");
        assert_eq!(agents[0].line, 16);
        assert_eq!(
            list_argument(agents[0].call, "tools"),
            ListArgument::Members(vec![
                ListMember::Reference(Value::Name("lookup".into())),
                ListMember::Reference(Value::Name("other".into()))
            ])
        );
        assert_eq!(agents[1].identity, "helper");
        assert_eq!(
            list_argument(agents[1].call, "tools"),
            ListArgument::Dynamic
        );
        assert_eq!(
            list_argument(agents[1].call, "handoffs"),
            ListArgument::Absent
        );

        let names: Vec<_> = facts
            .functions
            .iter()
            .map(|f| function_tool_name(&facts, f))
            .collect();
        assert_eq!(
            names,
            vec![
                Some("lookup".to_string()),
                Some("renamed".to_string()),
                None
            ]
        );
        assert!(is_sdk_source(&facts));
    }

    #[test]
    fn constructions_without_a_literal_name_get_source_labels() {
        let facts = extract_facts(
            b"from agents import Agent\n\ndef build():\n    return Agent(instructions='x')\n\ndef first():\n    agent = Agent(instructions='a')\n    return agent\n\ndef second():\n    agent = Agent(instructions='b')\n    return agent\n\nclass Helper:\n    def __init__(self):\n        self.agent = Agent(instructions='h')\n\nAgent(instructions='m')\n",
        );
        let labels: Vec<String> = agent_constructions(&facts, "agent.py")
            .into_iter()
            .map(|c| c.identity)
            .collect();
        assert_eq!(
            labels,
            vec![
                "build@agent.py",
                "first.agent@agent.py",
                "second.agent@agent.py",
                "Helper.self.agent@agent.py",
                "Agent@agent.py"
            ]
        );
    }

    #[test]
    fn unassigned_constructions_use_their_literal_name() {
        let facts = extract_facts(b"from agents import Agent\ndef build():\n    return Agent(name='Quote')\nx = [Agent('Positional')]\n");
        let agents = agent_constructions(&facts, "agent.py");
        assert_eq!(agents[0].identity, "Quote");
        assert_eq!(agents[1].identity, "Positional");
    }
}
