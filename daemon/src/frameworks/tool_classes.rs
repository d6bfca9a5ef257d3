//! Repository tool classes (issue 20): a class deriving directly from
//! Google ADK's `BaseTool` or `BaseToolset` (`class LookupTool(BaseTool):
//! def __init__(self): super().__init__(name="lookup_records", …)`), or
//! from the OpenAI Agents SDK's `FunctionTool`, bound as an object tool
//! where an agent of that framework lists an instance of it.
//!
//! Its name is the literal `name=` its `__init__` passes to
//! `super().__init__` (what ADK calls the tool), else the class name. Its
//! identity is a digest of the whole class as written: its bases, its
//! decorators, every binding of its body with its value, and every method
//! (nested definitions included) by its qualified name, decorators and
//! implementation digest. So a change to any method, attribute or base is
//! a change of the tool, and nothing else is: where it is built is
//! evidence. A method's digest covers its own body, as a function tool's
//! does (contract §3.1): a helper it calls is followed by reach, not
//! digested.
//!
//! Read only when the class is defined at module level on that one base,
//! with no metaclass or decorator (either could make another class of
//! it), and its `__init__` (if any) calls `super().__init__` at most once;
//! a name that is not a literal leaves the tool a named limit.

use super::adk::{adk_name, AdkName};
use super::imports::imported_name;
use super::module_context::AgentBase;
use crate::pyrepr::str_repr;
use crate::python::call_binding::bind_collecting;
use crate::python::{ClassFact, ModuleFacts, ParamKind, Text, Value};

/// A repository tool class, read.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolClass {
    /// What the framework calls the tool.
    pub name: String,
    /// The framework base class (`BaseTool`, `BaseToolset`,
    /// `FunctionTool`) and its framework.
    pub base: &'static str,
    pub framework: AgentBase,
    /// Lowercase hex SHA-256 over the class as written.
    pub implementation_sha256: String,
}

/// Whether `class` (of `facts`) derives from a framework's tool base
/// class: `None` when it does not; else the class read, or why it cannot
/// be.
pub fn tool_class(facts: &ModuleFacts, class: &ClassFact) -> Option<Result<ToolClass, String>> {
    tool_class_as(facts, class, false)
}

/// `tool_class` for the class a chain of repository tool classes ends at
/// (`in_chain`): its name is what the chain hands its framework base
/// (`super_init_arguments`, read by the caller), so a `name=` parameter
/// is no obstacle here.
pub fn tool_class_as(
    facts: &ModuleFacts,
    class: &ClassFact,
    in_chain: bool,
) -> Option<Result<ToolClass, String>> {
    let enclosing = class
        .qualname
        .rsplit_once('.')
        .map_or("", |(parent, _)| parent);
    let (base, framework) = class.bases.iter().find_map(|base| {
        let absolute = imported_name(facts, base, enclosing)?;
        if super::openai::is_sdk_member(&absolute, "FunctionTool") {
            return Some(("FunctionTool", AgentBase::Sdk));
        }
        match adk_name(&absolute)? {
            AdkName::ToolBase(base) => Some((base, AgentBase::Adk)),
            _ => None,
        }
    })?;
    Some(read(facts, class, base, framework, in_chain))
}

fn read(
    facts: &ModuleFacts,
    class: &ClassFact,
    base: &'static str,
    framework: AgentBase,
    in_chain: bool,
) -> Result<ToolClass, String> {
    super::class_rules::module_level_on_one_base(class)?;
    if !class.decorators.is_empty() {
        return Err("it is decorated".into());
    }
    let init_name = format!("{}.__init__", class.qualname);
    let init = super::class_rules::methods(facts, class)
        .into_iter()
        .find(|f| f.qualname == init_name);
    let super_inits: Vec<_> = init
        .into_iter()
        .flat_map(|f| f.body().body_calls.iter())
        .filter(|call| {
            matches!(call.receiver.as_deref(), Some((Value::Call { callee, .. }, method))
                if method == "__init__" && **callee == Value::Name("super".into()))
        })
        .collect();
    let name = match super_inits.as_slice() {
        [] => None,
        [call] => call
            .keywords
            .iter()
            .find(|(k, _)| k.as_deref() == Some("name"))
            .map(|(_, v)| v),
        _ => return Err("its __init__ calls super().__init__ more than once".into()),
    };
    let name = match name {
        None => class.name.clone(),
        Some(Value::Str(name)) => name.clone(),
        Some(_) if in_chain => class.name.clone(),
        Some(_) => {
            return Err(format!(
                "the name its __init__ passes to {base} is not a literal"
            ))
        }
    };
    Ok(ToolClass {
        name: name.into(),
        base,
        framework,
        implementation_sha256: super::class_rules::class_digest(facts, class),
    })
}

/// What the base class receives when `class`'s `__init__` receives
/// `args`/`keywords` (`None` when the class has no `__init__`: its parent's
/// runs with them): the arguments of its one `super().__init__(...)`, each
/// parameter it passes replaced by what the call binds to it (a default
/// only when constant), each other value kept when constant and else
/// `Value::Other(Text::from("not read"))`. What a chain of tool classes hands its framework base
/// (`name=` above all) is read this way, class by class; else why not.
pub fn super_init_arguments(
    facts: &ModuleFacts,
    class: &ClassFact,
    given: &Arguments,
) -> Result<Option<Arguments>, String> {
    let (args, keywords) = (&given.args, &given.keywords);
    let init_name = format!("{}.__init__", class.qualname);
    let Some(init) = facts.functions.iter().find(|f| f.qualname == init_name) else {
        return Ok(None);
    };
    let Some((_, params)) = init.params.split_first() else {
        return Err("its __init__ takes no self".into());
    };
    let binding = bind_collecting(params, args, keywords)?;
    let calls: Vec<_> = init
        .body()
        .body_calls
        .iter()
        .filter(|call| super::class_rules::super_method(call) == Some("__init__"))
        .collect();
    let [call] = calls.as_slice() else {
        return Err(format!(
            "its __init__ calls super().__init__ {} times",
            calls.len()
        ));
    };
    let rebound = |param: &str| {
        init.body()
            .locals
            .iter()
            .any(|b| b.name == param && b.kind != crate::python::BindingKind::Parameter)
    };
    let substitute = |value: &Value| -> Value {
        match value {
            Value::Name(param) if !rebound(param) => binding
                .bound
                .iter()
                .find(|b| b.param == param.as_str())
                .filter(|b| !b.from_default || is_constant(&b.value))
                .map_or(Value::Other(Text::from("not read")), |b| b.value.clone()),
            constant if is_constant(constant) => constant.clone(),
            _ => Value::Other(Text::from("not read")),
        }
    };
    let mut passed_keywords = Vec::new();
    for (keyword, value) in call.keywords.iter() {
        match keyword {
            Some(keyword) => passed_keywords.push((Some(keyword.clone()), substitute(value))),
            // `**kwargs`: what the `**` parameter collected.
            None if matches!(value, Value::Name(p) if params.iter().any(|q| q.name == p.as_str() && q.kind == ParamKind::VarKeyword)) =>
            {
                passed_keywords.extend(
                    binding
                        .collected_keywords
                        .iter()
                        .map(|(k, v)| (Some(Text::from(k.as_str())), v.clone())),
                );
            }
            None => return Err("its __init__ passes the base class a computed ** mapping".into()),
        }
    }
    Ok(Some(Arguments {
        args: call.args.iter().map(substitute).collect(),
        keywords: passed_keywords,
    }))
}

/// The arguments a class's `__init__` is given, or hands its base.
#[derive(Debug, Clone, PartialEq)]
pub struct Arguments {
    pub args: Vec<Value>,
    pub keywords: Vec<(Option<Text>, Value)>,
}

fn is_constant(value: &Value) -> bool {
    matches!(
        value,
        Value::Str(_) | Value::Number(_) | Value::Bool(_) | Value::None
    )
}

/// The clause a limit uses for a tool class left unread.
pub fn unread_clause(class: &str, why: &str) -> String {
    format!(
        "binds an instance of the repository tool class {}, which is not read: {why}",
        str_repr(class)
    )
}

#[cfg(test)]
mod tests;
