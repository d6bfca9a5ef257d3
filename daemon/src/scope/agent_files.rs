//! What makes a module an agent file: it builds an agent, builds one on
//! request, rewires one, or builds one through an agent file's factory.

use super::*;

/// Capability keywords of an agent construction.
pub(super) const CAPABILITY_KEYWORDS: &[&str] = &["tools", "handoffs", "mcp_servers", "sub_agents"];

/// Whether a module builds an agent whose capabilities are not a fixed list
/// of its own names (`tools=tools` from a parameter, `self.tools`, a call,
/// `**config`), or derives a class from an agent class.
pub(super) fn builds_on_request(facts: &ModuleFacts) -> bool {
    use crate::python::Value;
    if facts.syntax_error.is_some() {
        return false;
    }
    if !openai::agent_subclasses(facts).is_empty() || !adk::agent_subclasses(facts).is_empty() {
        return true;
    }
    let empty = Default::default();
    let calls = openai::agent_constructions(facts, "", &empty)
        .into_iter()
        .map(|c| c.call)
        .chain(
            adk::agent_constructions(facts, &empty)
                .into_iter()
                .map(|c| c.call),
        );
    let parameter = |scope: &str, name: &str| {
        facts
            .functions
            .iter()
            .find(|f| f.qualname == scope)
            .is_some_and(|f| f.params.iter().any(|p| p.name == name))
    };
    for call in calls {
        if call.keywords.iter().any(|k| k.name.is_none()) {
            return true;
        }
        for keyword in &call.keywords {
            let Some(name) = keyword.name.as_deref() else {
                continue;
            };
            if !CAPABILITY_KEYWORDS.contains(&name) {
                continue;
            }
            let on_request = match &keyword.value {
                Value::List(_) | Value::Tuple(_) => false,
                Value::Name(n) => parameter(&call.scope, n),
                Value::Attribute(parts) => parts.first().is_some_and(|p| p == "self"),
                _ => true,
            };
            if on_request {
                return true;
            }
        }
    }
    false
}

/// Whether a module wires agents from other modules' code: builds, copies
/// or rewires an agent itself, or sets another module's state
/// (`factory.TOOLS = [...]`, `setattr(factory, ...)`).
pub(super) fn wires(facts: &ModuleFacts) -> bool {
    if builds_agent(facts) || rewires_capabilities(facts) {
        return true;
    }
    let imported_modules: BTreeSet<&str> = facts.imports.iter().map(|i| i.bound_name()).collect();
    facts.attribute_stores.iter().any(|store| {
        store.target.len() >= 2
            && store
                .target
                .first()
                .is_some_and(|head| imported_modules.contains(head.as_str()))
    })
}

/// Whether a module writes into an object's capability field after it is
/// built (`support.tools.append(x)`, `agent.sub_agents = [...]`).
pub(super) fn rewires_capabilities(facts: &ModuleFacts) -> bool {
    const FIELDS: &[&str] = &["tools", "handoffs", "mcp_servers", "sub_agents"];
    facts.attribute_stores.iter().any(|store| {
        store
            .target
            .iter()
            .skip(1)
            .any(|part| FIELDS.contains(&part.as_str()))
    })
}

/// Whether `module` builds its agent through a function of `builder` that
/// returns an agent construction (`root_agent = make("bot", [tool])`).
pub(super) fn calls_agent_factory(module: &ModuleFacts, builder: &ModuleFacts) -> bool {
    use crate::python::Value;
    let factories: BTreeSet<&str> = builder
        .functions
        .iter()
        .filter(|f| f.module_level)
        .filter(|f| {
            f.body().returns_found.iter().any(|r| match &r.value {
                Some(Value::Call { callee, .. }) => {
                    openai::is_agent_class(builder, callee, &f.qualname)
                        || matches!(
                            adk::adk_value(builder, callee, &f.qualname),
                            Some(adk::AdkName::LlmAgent | adk::AdkName::WorkflowAgent(_))
                        )
                }
                _ => false,
            })
        })
        .map(|f| f.name.as_str())
        .collect();
    if factories.is_empty() {
        return false;
    }
    let is_factory = |callee: &Value| match callee {
        Value::Name(name) => module.imports.iter().any(|i| {
            i.bound_name() == name && i.name.as_deref().is_some_and(|n| factories.contains(n))
        }),
        Value::Attribute(parts) => parts
            .last()
            .is_some_and(|last| factories.contains(last.as_str())),
        _ => false,
    };
    // At module level or inside one of the module's own functions
    // (`def main(): agent = make_agent(...)`): either builds an agent.
    let locals = module.functions.iter().flat_map(|f| f.body().locals.iter());
    module.module_bindings.iter().chain(locals).any(
        |binding| matches!(&binding.value, Some(Value::Call { callee, .. }) if is_factory(callee)),
    ) || module.calls.iter().any(|call| is_factory(&call.callee))
}

/// Whether `module` instantiates, imported by name, a class of `builder`
/// that derives from an agent class (`from .base import TracedAgent` …
/// `TracedAgent(...)`) or builds an agent in one of its methods (`search
/// = CustomAgent(name="Search Agent", tools=[lookup])`): the graph layer
/// reads a pass-through subclass's constructions, and a wrapper class's
/// instantiations, as agents (`frameworks::agent_classes`,
/// `frameworks::wrapper_classes`).
pub(super) fn constructs_agent_class(module: &ModuleFacts, builder: &ModuleFacts) -> bool {
    use crate::python::Value;
    let empty = Default::default();
    let wrappers = openai::agent_constructions(builder, "", &empty)
        .into_iter()
        .map(|c| c.call.scope.as_str())
        .chain(
            adk::agent_constructions(builder, &empty)
                .into_iter()
                .map(|c| c.call.scope.as_str()),
        )
        .filter_map(|scope| scope.split_once('.').map(|(class, _)| class))
        .filter(|class| builder.classes.iter().any(|c| c.qualname == *class))
        .collect::<Vec<_>>();
    let classes: BTreeSet<&str> = openai::agent_subclasses(builder)
        .into_iter()
        .chain(adk::llm_agent_subclasses(builder))
        .map(|c| c.name.as_str())
        .chain(wrappers)
        .collect();
    if classes.is_empty() {
        return false;
    }
    module.calls.iter().any(|call| {
        let Value::Name(name) = &call.callee else {
            return false;
        };
        module.imports.iter().any(|i| {
            i.bound_name() == name && i.name.as_deref().is_some_and(|n| classes.contains(n))
        })
    })
}

/// A module that builds an agent: constructs one of either framework's
/// agent classes, or derives a class from one.
pub(super) fn builds_agent(facts: &ModuleFacts) -> bool {
    facts.syntax_error.is_none()
        && (!openai::agent_constructions(facts, "", &Default::default()).is_empty()
            || !adk::agent_constructions(facts, &Default::default()).is_empty()
            || !openai::agent_subclasses(facts).is_empty()
            || !adk::agent_subclasses(facts).is_empty())
}
