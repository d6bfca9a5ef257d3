//! Each module's `ModuleContext`, computed once per side graph: the
//! strings its imported `name=` constants hold (`eval::name_constants`),
//! and its constructions of pass-through subclasses of an agent class
//! (`frameworks::agent_classes`), found through the resolver.
//!
//! A call is a subclass construction when its callee is a plain name the
//! resolver follows, with no import step rebound on the way
//! (`chains::reassignment`), to the one module-level binding of a class
//! that derives from the SDK's `Agent` or ADK's `LlmAgent`. Only sides
//! that define such a class pay for the lookups.

use super::{chains, eval, SourceFile};
use crate::frameworks::module_context::{AgentBase, ModuleContext, SubclassConstruction};
use crate::frameworks::{adk, openai};
use crate::frameworks::{agent_classes, custom_agents};
use crate::pyrepr::str_repr;
use crate::python::{BindingKind, ClassFact, ModuleFacts, Value};
use crate::resolve::{ImportStep, ModuleSet, Resolver, Target};
use std::collections::{BTreeMap, BTreeSet};

/// Every module's context on one side.
pub(super) struct ModuleContexts {
    by_path: BTreeMap<String, ModuleContext>,
    /// What a module outside the side's files is given.
    empty: ModuleContext,
    /// Each SDK module's agent identities (`SdkIdentity`), read once per
    /// side: a reference to an agent asks them per handoff, which read the
    /// module's constructions again each time (quadratic in a module of
    /// agents handing off, issue 46 item 2).
    sdk_identities: BTreeMap<String, BTreeMap<String, SdkIdentity>>,
    /// The side's census of stores and namespace changes (`reach::Census`),
    /// taken once when a reader first asks what could change a value.
    census: std::cell::OnceCell<crate::reach::Census>,
}

/// What a module's SDK constructions of one identity are.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct SdkIdentity {
    /// How many constructions carry it.
    pub sites: usize,
    /// Whether every one bound to a variable of that name is bound at
    /// module level (not a function's same-named local).
    pub module_level: bool,
    /// The first one's literal `name=`, if it has one.
    pub literal_name: Option<String>,
}

impl ModuleContexts {
    pub(super) fn of_side(modules: &ModuleSet<'_>, files: &[SourceFile]) -> Self {
        let classes = AgentClasses::of(files);
        let census = std::cell::OnceCell::new();
        let by_path = files
            .iter()
            .filter(|f| f.facts.syntax_error.is_none())
            .map(|file| {
                let mut context = ModuleContext {
                    names: eval::name_constants::name_constants(modules, &file.path, &census),
                    ..ModuleContext::default()
                };
                if !classes.names.is_empty() {
                    subclass_calls(modules, &classes, file, &mut context);
                }
                super::wrapper_agents::fill_wrappers(modules, file, &mut context);
                (file.path.clone(), context)
            })
            .collect();
        let sdk_identities = sdk_identities(files, &by_path);
        ModuleContexts {
            by_path,
            empty: ModuleContext::default(),
            sdk_identities,
            census,
        }
    }

    /// The SDK agent identities `path` builds (empty for a module that is
    /// no SDK source or not read).
    pub(super) fn sdk_identity(&self, path: &str, identity: &str) -> Option<&SdkIdentity> {
        self.sdk_identities.get(path)?.get(identity)
    }

    /// The side's census (`reach::Census`), taken on first use.
    pub(super) fn census(&self, modules: &ModuleSet<'_>) -> &crate::reach::Census {
        self.census
            .get_or_init(|| crate::reach::Census::of(modules))
    }

    /// The cell the side's census is taken into, for readers that take it
    /// only when they need it.
    pub(super) fn census_cell(&self) -> &std::cell::OnceCell<crate::reach::Census> {
        &self.census
    }

    /// The context of `path` (empty for a module the side does not read).
    pub(super) fn of(&self, path: &str) -> &ModuleContext {
        self.by_path.get(path).unwrap_or(&self.empty)
    }
}

impl<'a> super::ModuleReader<'a, '_> {
    /// This module's framework context.
    pub(super) fn context(&self) -> &'a ModuleContext {
        self.contexts.of(self.path)
    }
}

/// Each SDK source's agent identities, from its constructions read once.
fn sdk_identities(
    files: &[SourceFile],
    contexts: &BTreeMap<String, ModuleContext>,
) -> BTreeMap<String, BTreeMap<String, SdkIdentity>> {
    files
        .iter()
        .filter(|f| f.facts.syntax_error.is_none() && openai::is_sdk_source(&f.facts))
        .filter_map(|file| {
            let context = contexts.get(&file.path)?;
            let mut identities: BTreeMap<String, SdkIdentity> = BTreeMap::new();
            for construction in openai::agent_constructions(&file.facts, &file.path, context) {
                let entry = identities
                    .entry(construction.identity.clone())
                    .or_insert_with(|| SdkIdentity {
                        sites: 0,
                        module_level: true,
                        literal_name: openai::literal_name(
                            &file.facts,
                            construction.call,
                            &context.names,
                        ),
                    });
                entry.sites += 1;
                let call = construction.call;
                if call.assigned_to.as_deref() == Some(construction.identity.as_str())
                    && !call.scope.is_empty()
                {
                    entry.module_level = false;
                }
            }
            Some((file.path.clone(), identities))
        })
        .collect()
}

/// Where a callee's class is defined: the module-level name the resolver
/// follows it to (with the class's fact when that binding is its one
/// `class` statement), and the import steps on the way.
pub(super) struct ClassDefinition<'m> {
    pub path: &'m str,
    pub name: String,
    pub line: u32,
    pub facts: &'m ModuleFacts,
    pub class: Option<&'m ClassFact>,
    pub steps: Vec<ImportStep>,
}

/// The class definition `callee`, written in `scope` of `path`, names:
/// `None` when the resolver does not follow it to a module-level name.
pub(super) fn class_definition<'m>(
    modules: &ModuleSet<'m>,
    path: &str,
    scope: &str,
    callee: &Value,
) -> Option<ClassDefinition<'m>> {
    let key = modules.key(path)?;
    let found = Resolver::new(modules)
        .with_classes()
        .resolve(key, scope, callee)
        .ok()?;
    let Target::Value { path, name, line } = found.target else {
        return None;
    };
    let facts = modules.facts(path)?;
    let is_class = facts
        .module_bindings_named(&name)
        .any(|b| b.name == name && b.line == line && b.kind == BindingKind::Class);
    let class = facts
        .classes
        .iter()
        .find(|c| c.qualname == name && c.line == line)
        .filter(|_| is_class);
    Some(ClassDefinition {
        path,
        name,
        line,
        facts,
        class,
        steps: found.steps,
    })
}

/// The classes of the side that derive from an agent class, by
/// (module, class name), and their names (what a callee must spell to be
/// looked up).
struct AgentClasses {
    by_site: BTreeMap<(String, String), (u32, AgentBase)>,
    names: BTreeSet<String>,
}

impl AgentClasses {
    fn of(files: &[SourceFile]) -> Self {
        let mut by_site = BTreeMap::new();
        for file in files.iter().filter(|f| f.facts.syntax_error.is_none()) {
            let sdk = openai::agent_subclasses(&file.facts)
                .into_iter()
                .map(|c| (c, AgentBase::Sdk));
            let adk = adk::llm_agent_subclasses(&file.facts)
                .into_iter()
                .map(|c| (c, AgentBase::Adk));
            let custom = adk::base_agent_subclasses(&file.facts)
                .into_iter()
                .map(|c| (c, AgentBase::AdkCustom));
            for (class, base) in sdk.chain(adk).chain(custom) {
                by_site.insert(
                    (file.path.clone(), class.name.to_string()),
                    (class.line, base),
                );
            }
        }
        let names = by_site.keys().map(|(_, name)| name.clone()).collect();
        AgentClasses { by_site, names }
    }
}

/// Fills `context` with the module's constructions of agent subclasses:
/// read ones as the base-class call they make, the rest with why not.
fn subclass_calls(
    modules: &ModuleSet<'_>,
    classes: &AgentClasses,
    file: &SourceFile,
    context: &mut ModuleContext,
) {
    for (index, call) in file.facts.calls.iter().enumerate() {
        let Value::Name(callee) = &call.callee else {
            continue;
        };
        if !classes.names.contains(callee.as_str()) {
            continue;
        }
        let Some(ClassDefinition {
            path,
            name,
            line,
            facts,
            class,
            steps,
        }) = class_definition(modules, &file.path, &call.scope, &call.callee)
        else {
            continue;
        };
        let Some(&(class_line, base)) = classes.by_site.get(&(path.to_string(), name.clone()))
        else {
            continue;
        };
        let read = match class.filter(|_| line == class_line) {
            Some(class) => match chains::reassignment(modules, &steps) {
                Some(why) => Err(why),
                None => agent_classes::pass_through(facts, class).and_then(|pass| {
                    // A `BaseAgent` subclass runs code of its own: read
                    // only when that code runs nothing, and when the call
                    // passes only what `BaseAgent` takes.
                    let custom = base == AgentBase::AdkCustom;
                    if custom {
                        custom_agents::runs_nothing(facts, class)?;
                    }
                    let made = pass.base_call(call);
                    let made = match made {
                        Ok(made) if custom => {
                            custom_agents::takes_only_sub_agents(&made).map(|()| made)
                        }
                        other => other,
                    };
                    made.map_err(|why| format!("at this call, {why}"))
                }),
            },
            None => Err("its one definition is not established".to_string()),
        };
        match read {
            Ok(base_call) => {
                context.subclass_calls.insert(
                    index,
                    SubclassConstruction {
                        base,
                        call: base_call,
                    },
                );
            }
            Err(why) => {
                context.unread_subclass_calls.insert(
                    index,
                    format!("{} ({path}:{class_line}): {why}", str_repr(&name)),
                );
            }
        }
    }
}
