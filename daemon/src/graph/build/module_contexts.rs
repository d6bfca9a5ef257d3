//! Each module's `ModuleContext`, computed once per side graph: the
//! strings its imported `name=` constants hold (`eval::name_constants`),
//! and its constructions of pass-through subclasses of an agent class
//! (`frameworks::agent_classes`), found through the resolver.
//!
//! A call is a subclass construction when its callee is a plain name the
//! resolver follows, with no import step rebound on the way
//! (`chains::reassignment`), to the one module-level binding of a class
//! that derives from the SDK's `Agent` or ADK's `LlmAgent`/`BaseAgent`,
//! directly or through the scope's own classes (`agent_subclasses.rs`).
//! Only sides that define such a class pay for the lookups.

use super::agent_subclasses::{AgentClasses, ClassSite};
use super::{chains, eval, Framework, SourceFile};
use crate::frameworks::module_context::{ModuleContext, SubclassConstruction};
use crate::frameworks::openai;
use crate::pyrepr::str_repr;
use crate::python::{BindingKind, ClassFact, ModuleFacts, Value};
use crate::resolve::{ImportStep, ModuleSet, Resolver, Target};
use std::collections::BTreeMap;

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
    /// The side's agent classes (`agent_subclasses.rs`, chains included):
    /// where each is defined and its framework, for the limits that name
    /// a construction no reader reads.
    pub(super) agent_classes: BTreeMap<ClassSite, (u32, Framework)>,
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
        let classes = AgentClasses::of(modules, files);
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
        let agent_classes = classes
            .by_site
            .iter()
            .map(|(site, class)| (site.clone(), (class.line, class.framework)))
            .collect();
        ModuleContexts {
            by_path,
            agent_classes,
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
            class,
            steps,
            ..
        }) = class_definition(modules, &file.path, &call.scope, &call.callee)
        else {
            continue;
        };
        let site = (path.to_string(), name);
        let Some(agent_class) = classes.by_site.get(&site) else {
            continue;
        };
        // A workflow or remote agent class is never read: its
        // constructions keep the spec's limit, as spelled.
        if agent_class.base.is_none() {
            continue;
        }
        let class_line = agent_class.line;
        let read = match class.filter(|_| line == class_line) {
            Some(_) => match chains::reassignment(modules, &steps) {
                Some(why) => Err(why),
                None => classes.base_call(modules, &site, call),
            },
            None => Err("its one definition is not established".to_string()),
        };
        match read {
            Ok((base, base_call)) => {
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
                    format!("{} ({}:{class_line}): {why}", str_repr(&site.1), site.0),
                );
            }
        }
    }
}
