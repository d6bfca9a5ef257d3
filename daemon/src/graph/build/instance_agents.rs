//! Agents held on an instance (issue 41, item 4): `billing.agent` where
//! `billing = Specialist("billing", [lookup])` and `Specialist.__init__`
//! stores `self.agent = LlmAgent(name=name, tools=tools, ...)`, a wrapper
//! construction read one agent per instantiation (`wrapper_agents.rs`):
//! the reference is the agent that instantiation names.
//!
//! Sound when, besides the wrapper rule itself (every instantiation known,
//! nothing else writing the attributes the construction reads):
//! - the reference's object is a module-level name bound once,
//!   unconditionally, to the instantiation (the wrapper rule knows the
//!   call: same module, same line, assigned to that name);
//! - the class's code stores the attribute once, `self.agent = …` in
//!   `__init__` with the construction as its value, unconditionally, and no
//!   code of the scope writes it, or anything through it
//!   (`billing.agent = …`, `self.agent.tools.append(…)`,
//!   `billing.agent.sub_agents = …`), nor reaches attributes without
//!   naming them (`vars()`, `__dict__`: the wrapper rule's own check).
//!
//! A method's agent (issue 41, item 1): `gatherer.create_agent()`, where
//! `Specialist.create_agent(self)` returns the wrapper construction, is
//! that instantiation's agent too. Sound on the same conditions, and when
//! the call passes nothing and the method is a plain synchronous one
//! taking only `self` whose one unconditional last statement returns the
//! construction: each call builds an agent of the same name and lists, so
//! every call is the agent the instantiation names.
//!
//! Anything else is not a reference this rule names: the caller keeps its
//! limit.

use super::eval::call_frames::returns_once;
use super::wrapper_agents::stored_elsewhere;
use super::ModuleReader;
use crate::frameworks::module_context::WrapperInstance;
use crate::python::{BindingKind, CallFact, ModuleFacts, ParamKind, StoreKind, Value};
use crate::resolve::{Resolver, Target};

/// The agent an instance attribute holds: the module its construction is
/// written in, the construction, and the name its instantiation gives it.
pub(super) struct InstanceAgent<'m> {
    pub path: &'m str,
    pub construction: &'m CallFact,
    pub name: String,
}

impl<'m> ModuleReader<'_, 'm> {
    /// The agent `reference` (`object.attribute`, written in `scope` of
    /// `path`) holds, when it is an instance's agent; `None` when the
    /// reference is not of that shape (the caller resolves it as before).
    pub(super) fn instance_agent(
        &self,
        path: &str,
        scope: &str,
        reference: &Value,
    ) -> Option<Result<InstanceAgent<'m>, String>> {
        // `object.attribute`, or `object.method()`.
        let (parts, method_call) = match reference {
            Value::Attribute(parts) => (parts, false),
            Value::Call {
                callee,
                args,
                keywords,
            } if args.is_empty() && keywords.is_empty() => match callee.as_ref() {
                Value::Attribute(parts) => (parts, true),
                _ => return None,
            },
            _ => return None,
        };
        let [object, attribute] = parts.as_slice() else {
            return None;
        };
        let key = self.modules.key(path)?;
        let found = Resolver::new(self.modules)
            .resolve(key, scope, &Value::Name(object.clone()))
            .ok()?;
        let Target::Value {
            path: bound_in,
            name: bound,
            line,
        } = found.target
        else {
            return None;
        };
        let facts = self.modules.facts(bound_in)?;
        let bindings: Vec<_> = facts
            .module_bindings_named(&bound)
            .filter(|b| b.name == bound)
            .collect();
        let [binding] = bindings.as_slice() else {
            return None;
        };
        if binding.line != line
            || binding.kind != BindingKind::Assignment
            || binding.conditional
            || !matches!(binding.value, Some(Value::Call { .. }))
        {
            return None;
        }
        // The wrapper construction whose instance this is, stored on `self`.
        let Some(Value::Call { callee, .. }) = &binding.value else {
            return None;
        };
        let class = Resolver::new(self.modules)
            .with_classes()
            .resolve(bound_in, "", callee)
            .ok()?;
        let Target::Value {
            path: class_path,
            name: class_name,
            ..
        } = class.target
        else {
            return None;
        };
        let class_facts = self.modules.facts(class_path)?;
        let context = self.contexts.of(class_path);
        let stored_as = format!("self.{attribute}");
        let init = format!("{class_name}.__init__");
        let method = format!("{class_name}.{attribute}");
        let (index, wrapper) = context.wrappers.iter().find(|(index, w)| {
            w.construction.class == class_name
                && class_facts
                    .calls
                    .get(**index)
                    .is_some_and(|c| match method_call {
                        false => {
                            c.scope == init && c.assigned_to.as_deref() == Some(stored_as.as_str())
                        }
                        true => c.scope == method,
                    })
        })?;
        let construction = class_facts.calls.get(*index)?;
        let instance: Option<&WrapperInstance> = wrapper.instances.iter().find(|i| {
            i.path == bound_in
                && i.call.scope.is_empty()
                && i.call.assigned_to.as_deref() == Some(bound.as_str())
        });
        let Some(instance) = instance else {
            return Some(Err(format!(
                "`{object}`, which is not an instantiation of `{class_name}` this reader reads"
            )));
        };
        let spelled = match method_call {
            false => format!("`{object}.{attribute}`"),
            true => format!("`{object}.{attribute}()`"),
        };
        if method_call {
            if let Err(why) = returns_construction(class_facts, &method, construction) {
                return Some(Err(format!("{spelled}, whose method {why}")));
            }
        } else if !construction.guard.as_ref().is_some_and(|g| g.is_empty()) {
            return Some(Err(format!(
                "{spelled}, which `{init}` stores under a condition"
            )));
        }
        // The class's one store of the attribute is that construction's.
        let own_stores = class_facts
            .attribute_stores
            .iter()
            .filter(|s| {
                s.target.len() == 2
                    && s.target[0] == "self"
                    && s.target[1] == *attribute
                    && (s.scope == class_name || s.scope.starts_with(&format!("{class_name}.")))
            })
            .count();
        if own_stores != usize::from(!method_call) {
            return Some(Err(match method_call {
                false => format!("{spelled}, which `{class_name}` stores more than once"),
                true => format!("{spelled}, whose method `{class_name}` also stores on `self`"),
            }));
        }
        // Nothing writes it, or anything through it, anywhere else.
        for module in self.modules.paths() {
            let Some(other) = self.modules.facts(module) else {
                continue;
            };
            let through = other.attribute_stores.iter().find(|s| {
                let own = module == class_path
                    && s.scope == init
                    && s.target.len() == 2
                    && s.target[0] == "self"
                    && matches!(s.how, StoreKind::Assignment);
                !own && s.target.iter().skip(1).any(|p| p == attribute)
            });
            if let Some(store) = through {
                return Some(Err(format!(
                    "{spelled}, which {module}:{} writes, or writes through",
                    store.line
                )));
            }
            let added = other
                .list_additions
                .iter()
                .find(|a| a.target.split('.').skip(1).any(|p| p == attribute.as_str()));
            if let Some(addition) = added {
                return Some(Err(format!(
                    "{spelled}, which {module}:{} adds to",
                    addition.line
                )));
            }
        }
        if let Err(why) = stored_elsewhere(self.modules, std::slice::from_ref(attribute)) {
            return Some(Err(format!("{spelled}: {why}")));
        }
        Some(Ok(InstanceAgent {
            path: class_path,
            construction,
            name: instance.name.clone(),
        }))
    }
}

/// Whether the method `qualname` of `facts` is a plain synchronous one
/// taking only `self` whose one unconditional last statement returns
/// `construction`; else why not, as a clause.
fn returns_construction(
    facts: &ModuleFacts,
    qualname: &str,
    construction: &CallFact,
) -> Result<(), String> {
    let Some(method) = facts.functions.iter().find(|f| f.qualname == qualname) else {
        return Err("is not a method the class defines".into());
    };
    // The class body binds the name once: by its `def`.
    let (class_name, _) = qualname.rsplit_once('.').unwrap_or(("", qualname));
    let bound = facts
        .classes
        .iter()
        .filter(|c| c.qualname == class_name)
        .flat_map(|c| c.attributes.iter())
        .filter(|b| b.name == method.name)
        .count();
    if bound != 1 {
        return Err("is bound more than once in its class".into());
    }
    if method.is_async {
        return Err("is async".into());
    }
    if !matches!(method.params.as_slice(), [only] if matches!(only.kind, ParamKind::Normal | ParamKind::PositionalOnly))
    {
        return Err("takes more than `self`".into());
    }
    returns_once(facts, method, "")?;
    let returned = method.body().returns_found.first().and_then(|r| {
        matches!(&r.value, Some(Value::Call { callee, .. })
            if **callee == construction.callee && r.line == construction.line)
        .then_some(())
    });
    returned.ok_or_else(|| "does not return the construction it makes".to_string())
}
