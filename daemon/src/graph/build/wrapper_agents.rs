//! Wrapper classes, the scope's half of the rule
//! (`frameworks::wrapper_classes` has the module's): a construction a
//! plain class makes from what its `__init__` stores is one agent per
//! instantiation, `CustomAgent(cfg, name="Search Agent",
//! tools=SEARCH_TOOLS)` being the agent `Search Agent` with the tools that
//! call passes, read in the frame of that call.
//!
//! Sound, across the scope, when:
//! - nothing outside the class's own `__init__` store writes an attribute
//!   of that name anywhere in the scope (`search.tools = …`,
//!   `search.tools.append(…)`, `setattr(search, "tools", …)`), and no
//!   code reaches attributes without naming them (`obj.__dict__[k] = …`,
//!   `vars(obj)`);
//! - every instantiation is known: the class's closed caller set
//!   (`builder_calls`: every use of its name is a call, so no subclass,
//!   no value handed on, no module importing its module whole or with
//!   `*`), none of them under an `if`, in a loop or handler, or unpacking
//!   `*`/`**`, each binding `__init__`'s parameters exactly;
//! - each instantiation gives a name the agent takes from its literal
//!   arguments (an f-string of literals and parameters, or a parameter),
//!   else is identified by its own source label (`search@main.py`), the
//!   identities distinct, none another agent's of the module.
//!
//! Anything else leaves the construction read as it is written, with the
//! condition that failed named on the agent when the construction's
//! capabilities come from the instance.

use super::eval::builder_callers::builder_calls;
use super::eval::call_frames::CallSite;
use super::eval::factory_agents::{spelled_name, FactoryAgent};
use super::{ModuleReader, SourceFile};
use crate::frameworks::module_context::{ModuleContext, WrapperAgents, WrapperInstance};
use crate::frameworks::wrapper_classes::{wrapper_construction, WrapperConstruction};
use crate::frameworks::{adk, openai};
use crate::pyrepr::str_repr;
use crate::python::call_binding::bind_exactly;
use crate::python::{BindingKind, Value};
use crate::resolve::ModuleSet;
use std::collections::BTreeSet;

/// The capability keywords whose source decides whether an unread wrapper
/// is named.
const CAPABILITY_KEYWORDS: &[&str] = &["tools", "handoffs", "mcp_servers", "sub_agents"];

/// Fills `context` with the module's wrapper-class constructions: read
/// ones with their instantiations, the rest (when their capabilities come
/// from the instance) with why not.
pub(super) fn fill_wrappers(
    modules: &ModuleSet<'_>,
    file: &SourceFile,
    context: &mut ModuleContext,
) {
    let facts = &file.facts;
    if facts.classes.is_empty() {
        return;
    }
    for (index, call) in facts.calls.iter().enumerate() {
        if !call.scope.contains('.') {
            continue;
        }
        let is_agent = openai::is_agent_class(facts, &call.callee, &call.scope)
            || matches!(
                adk::adk_value(facts, &call.callee, &call.scope),
                Some(adk::AdkName::LlmAgent | adk::AdkName::WorkflowAgent(_))
            );
        if !is_agent {
            continue;
        }
        let read = match wrapper_construction(facts, call) {
            None => continue,
            Some(read) => read,
        };
        let class = call.scope.split('.').next().unwrap_or_default().to_string();
        match read.and_then(|c| {
            instances(modules, &file.path, &c).map(|instances| WrapperAgents {
                construction: c,
                instances,
            })
        }) {
            Ok(wrapper) => {
                context.wrappers.insert(index, wrapper);
            }
            Err(why) => {
                let from_instance = call.keywords.iter().any(|k| {
                    k.name
                        .as_deref()
                        .is_some_and(|n| CAPABILITY_KEYWORDS.contains(&n))
                        && !matches!(k.value, Value::List(_) | Value::Tuple(_))
                });
                if from_instance {
                    context
                        .unread_wrappers
                        .insert(index, format!("{}: {why}", str_repr(&class)));
                }
            }
        }
    }
}

/// The instantiations of the construction's class, each with the name it
/// gives the agent, or why they are not all read.
fn instances(
    modules: &ModuleSet<'_>,
    path: &str,
    construction: &WrapperConstruction,
) -> Result<Vec<WrapperInstance>, String> {
    stored_elsewhere(modules, &construction.attributes)?;
    let sites = builder_calls(modules, path, &construction.class)?;
    if sites.is_empty() {
        return Err("the scope never instantiates it".into());
    }
    let name = construction
        .call
        .keyword("name")
        .map(|k| &k.value)
        .or(construction.call.args.first())
        .ok_or("the agent it builds has no name")?;
    let unchanged = |param: &str| {
        construction
            .init
            .locals_named(param)
            .all(|b| b.kind == BindingKind::Parameter)
    };
    let mut instances = Vec::new();
    let mut names = BTreeSet::new();
    for site in sites {
        let at = format!("{}:{}", site.path, site.call.line);
        if !site.call.guard.as_ref().is_some_and(|g| g.is_empty()) {
            return Err(format!(
                "it is instantiated at {at} under a condition, in a loop or in a handler"
            ));
        }
        let keywords = site.call.keyword_pairs();
        let bound = bind_exactly(&construction.init, &site.call.args, &keywords)
            .map_err(|why| format!("its instantiation at {at} is not read: {why}"))?;
        let lookup = |param: &str| bound.iter().find(|b| b.param == param).map(|b| &b.value);
        // The name the call's literals spell, else the spec's source label
        // of the instantiation (`search@main.py`).
        let agent = match spelled_name(name, &lookup, &unchanged) {
            Some(agent) => agent,
            None => match modules.facts(site.path) {
                Some(facts) => openai::source_label(facts, site.call, site.path),
                None => return Err(format!("{} is not read", site.path)),
            },
        };
        if !names.insert(agent.clone()) {
            return Err(format!(
                "two instantiations name the agent {}",
                str_repr(&agent)
            ));
        }
        instances.push(WrapperInstance {
            path: site.path.to_string(),
            call: site.call.clone(),
            name: agent,
        });
    }
    Ok(instances)
}

/// Whether anything other than the class's own `__init__` writes an
/// attribute the construction reads, anywhere in the scope.
pub(super) fn stored_elsewhere(
    modules: &ModuleSet<'_>,
    attributes: &[impl AsRef<str>],
) -> Result<(), String> {
    for module in modules.paths() {
        let Some(facts) = modules.facts(module) else {
            continue;
        };
        // An attribute reached without its name (`obj.__dict__[k] = v`,
        // `vars(obj)`) could be any of them.
        let reflective = facts
            .functions
            .iter()
            .flat_map(|f| f.body().body_calls.iter())
            .chain(&facts.module_calls)
            .find(|c| matches!(&c.callee, Value::Name(n) if n == "vars") && !c.args.is_empty());
        if let Some(call) = reflective {
            return Err(format!(
                "{module}:{} reaches an object's attributes through vars()",
                call.line
            ));
        }
        if let Some(store) = facts
            .attribute_stores
            .iter()
            .find(|s| s.target.iter().any(|p| p == "__dict__"))
        {
            return Err(format!(
                "{module}:{} writes an object's __dict__",
                store.line
            ));
        }
        for store in &facts.attribute_stores {
            let Some((attribute, object)) = store.target.split_last() else {
                continue;
            };
            // Another class's `self` is another object (a subclass of
            // this one would be a use of its name, refused by the caller
            // set); this class's own stores are counted by the module's
            // half of the rule.
            if object.is_empty()
                || object == ["self"]
                || !attributes.iter().any(|known| known.as_ref() == attribute)
            {
                continue;
            }
            return Err(format!("{module}:{} also writes .{attribute}", store.line));
        }
        for addition in &facts.list_additions {
            if let Some((object, attribute)) = addition.target.rsplit_once('.') {
                if object != "self" && attributes.iter().any(|a| a.as_ref() == attribute) {
                    return Err(format!("{module}:{} adds to .{attribute}", addition.line));
                }
            }
        }
    }
    Ok(())
}

impl ModuleReader<'_, '_> {
    /// The agents a wrapper construction of this module builds, one per
    /// instantiation, each read in the frame of its call; `None` when a
    /// frame cannot be made or a name is another agent's (`taken`).
    pub(super) fn wrapper_factory_agents(
        &self,
        wrapper: &WrapperAgents,
        taken: &dyn Fn(&str) -> bool,
    ) -> Option<Vec<FactoryAgent>> {
        let mut agents = Vec::new();
        for instance in &wrapper.instances {
            if taken(&instance.name) {
                return None;
            }
            let keywords = instance.call.keyword_pairs();
            let site = CallSite {
                path: &instance.path,
                scope: &instance.call.scope,
                line: instance.call.line,
                outer: None,
            };
            let frame = self
                .call_frame(
                    site,
                    self.path,
                    &wrapper.construction.init,
                    &instance.call.args,
                    &keywords,
                )
                .ok()?;
            agents.push(FactoryAgent {
                name: instance.name.clone(),
                at: frame.at.clone(),
                call_path: instance.path.clone(),
                call_line: instance.call.line,
                bound_to: (instance
                    .call
                    .assigned_to
                    .clone()
                    .filter(|_| instance.call.scope.is_empty()))
                .map(Into::into),
                frame,
            });
        }
        Some(agents)
    }

    /// Names, on each agent of this module built by a wrapper class that
    /// is not read one agent per instance, the condition that failed.
    pub(super) fn name_unread_wrappers<'c>(
        &mut self,
        constructions: impl Iterator<Item = (&'c crate::python::CallFact, String)>,
    ) {
        let context = self.context();
        let mut named = Vec::new();
        for (call, identity) in constructions {
            if let Some(why) = context.unread_wrapper(self.facts, call) {
                named.push((identity, call.line, why.clone()));
            }
        }
        for (identity, line, why) in named {
            let who = self.who(&identity, line);
            self.agent_gap(
                &identity,
                format!(
                    "{who} is built by the class {why}; it is not read as one agent per instance."
                ),
            );
        }
    }
}
