//! The side's agent classes: every class that derives from a framework
//! agent class, directly (`class TracedAgent(Agent)`) or through the
//! scope's own classes (`class Special(TracedAgent)`, a chain), and how a
//! construction of one is read as the framework construction it makes.
//!
//! Recognition is what keeps a chain from being silent: a class whose
//! base the resolver follows to an agent class is an agent class itself,
//! so its constructions are read or named (`capability_limits.rs`), never
//! passed over as an unknown call. A base the resolver cannot follow but
//! whose name an agent class of the side has is taken to be that class,
//! unestablished: the derived class is an agent class never read. It walks parents, not rounds: each
//! class's bases are resolved once, and a class whose parent chain ends
//! at a framework class (in any number of steps, cycles cut) is one.
//!
//! Reading a construction goes up the chain from the constructed class:
//! each class must be a pass-through subclass (`frameworks::agent_classes`,
//! with the runtime rules of its framework: an ADK `BaseAgent` subclass
//! runs nothing, an `LlmAgent` subclass's run methods only delegate), and
//! each step turns the call into the construction its parent receives
//! (`PassThrough::base_call`). At most `MAX_CHAIN` classes are read; a
//! longer chain is a named limit.

use super::{chains, module_contexts::class_definition, Framework, SourceFile};
use crate::frameworks::module_context::AgentBase;
use crate::frameworks::{adk, agent_classes, custom_agents, openai};
use crate::pyrepr::str_repr;
use crate::python::{CallFact, ClassFact, ModuleFacts, Value};
use crate::resolve::{ImportStep, ModuleSet};
use std::collections::{BTreeMap, BTreeSet};

/// The classes of a chain a construction is read through, at most.
const MAX_CHAIN: usize = 8;

/// A class by the module that defines it and its name there.
pub(super) type ClassSite = (String, String);

/// One agent class of the side.
pub(super) struct AgentClass<'f> {
    pub line: u32,
    pub framework: Framework,
    /// The framework class it is read as, when it is one the readers
    /// read (`None`: an ADK workflow or remote agent class, never read).
    pub base: Option<AgentBase>,
    pub facts: &'f ModuleFacts,
    pub class: &'f ClassFact,
    /// The repository class it derives from, when it derives from one.
    pub parent: Option<Parent>,
}

/// A chain's next step: the parent class, and how the base expression
/// reaches it.
pub(super) struct Parent {
    pub site: ClassSite,
    /// The import steps the resolver took to the parent.
    steps: Vec<ImportStep>,
    /// Whether the base names the parent's one `class` statement.
    established: bool,
}

/// The side's agent classes, by site, and their names (what a callee
/// must spell to be looked up).
pub(super) struct AgentClasses<'f> {
    pub by_site: BTreeMap<ClassSite, AgentClass<'f>>,
    pub names: BTreeSet<String>,
}

impl<'f> AgentClasses<'f> {
    pub(super) fn of(modules: &ModuleSet<'_>, files: &'f [SourceFile]) -> Self {
        let mut by_site = BTreeMap::new();
        let readable = files.iter().filter(|f| f.facts.syntax_error.is_none());
        for file in readable.clone() {
            let sdk = openai::agent_subclasses(&file.facts)
                .into_iter()
                .map(|c| (c, Framework::OpenAi));
            let adk = adk::agent_subclasses(&file.facts)
                .into_iter()
                .map(|c| (c, Framework::Adk));
            for (class, framework) in sdk.chain(adk) {
                by_site.insert(
                    (file.path.clone(), class.name.to_string()),
                    AgentClass {
                        line: class.line,
                        framework,
                        base: framework_base(&file.facts, class, framework),
                        facts: &file.facts,
                        class,
                        parent: None,
                    },
                );
            }
        }
        let mut classes = AgentClasses {
            names: BTreeSet::new(),
            by_site,
        };
        if !classes.by_site.is_empty() {
            classes.add_chains(modules, files);
        }
        classes.names = classes.by_site.keys().map(|(_, n)| n.clone()).collect();
        classes
    }

    /// Adds every class whose parent chain ends at an agent class: each
    /// other class's bases resolved once (only those spelling a class
    /// name the side defines), then followed parent to parent.
    fn add_chains(&mut self, modules: &ModuleSet<'_>, files: &'f [SourceFile]) {
        // Every class of the side by name, agent classes first: where a
        // base the resolver cannot follow may lead.
        let mut defined: BTreeMap<&str, Vec<ClassSite>> = BTreeMap::new();
        for file in files {
            for class in &file.facts.classes {
                let site = (file.path.clone(), class.name.to_string());
                let sites = defined.entry(class.name.as_str()).or_default();
                match self.by_site.contains_key(&site) {
                    true => sites.insert(0, site),
                    false => sites.push(site),
                }
            }
        }
        let mut parents: BTreeMap<ClassSite, (&'f SourceFile, &'f ClassFact, Parent)> =
            BTreeMap::new();
        for file in files.iter().filter(|f| f.facts.syntax_error.is_none()) {
            for class in &file.facts.classes {
                let site = (file.path.clone(), class.name.to_string());
                if self.by_site.contains_key(&site) {
                    continue;
                }
                let enclosing = class
                    .qualname
                    .rsplit_once('.')
                    .map_or("", |(parent, _)| parent);
                // A base the resolver cannot follow (a wildcard import may
                // bind it, say) is taken to be a class of its name, its
                // definition not established: never read, always named.
                let parent = class.bases.iter().find_map(|base| {
                    let candidates = defined.get(last_name(base)?)?;
                    match class_definition(modules, &file.path, enclosing, base) {
                        Some(found) => Some(Parent {
                            established: found.class.is_some(),
                            site: (found.path.to_string(), found.name),
                            steps: found.steps,
                        }),
                        None => Some(Parent {
                            site: candidates.first()?.clone(),
                            steps: Vec::new(),
                            established: false,
                        }),
                    }
                });
                if let Some(parent) = parent {
                    parents.insert(site, (file, class, parent));
                }
            }
        }
        // Follow each class's parents to a known agent class; every class
        // on a path that ends at one is one (a cycle, or a path leaving the
        // side's classes, ends nowhere). Each class is walked over once: a
        // path's classes become agent classes or join `nowhere`, so a long
        // hostile chain costs its length, not its square.
        let sites: Vec<ClassSite> = parents.keys().cloned().collect();
        let mut nowhere: BTreeSet<ClassSite> = BTreeSet::new();
        for start in sites {
            let mut path = Vec::new();
            let mut on_path = BTreeSet::new();
            let mut at = start;
            let root = loop {
                if let Some(known) = self.by_site.get(&at) {
                    break Some((known.framework, known.base));
                }
                if nowhere.contains(&at) || on_path.contains(&at) {
                    break None;
                }
                let Some((_, _, parent)) = parents.get(&at) else {
                    break None;
                };
                let next = parent.site.clone();
                on_path.insert(at.clone());
                path.push(at);
                at = next;
            };
            let Some((framework, base)) = root else {
                nowhere.extend(path);
                continue;
            };
            for site in path {
                let Some((file, class, parent)) = parents.remove(&site) else {
                    continue;
                };
                self.by_site.insert(
                    site,
                    AgentClass {
                        line: class.line,
                        framework,
                        base,
                        facts: &file.facts,
                        class,
                        parent: Some(parent),
                    },
                );
            }
        }
    }

    /// The framework construction `call` of the class at `site` makes, read
    /// up the chain; else why not, as a clause naming the class that
    /// failed when it is not the constructed one.
    pub(super) fn base_call(
        &self,
        modules: &ModuleSet<'_>,
        site: &ClassSite,
        call: &CallFact,
    ) -> Result<(AgentBase, CallFact), String> {
        let mut made = call.clone();
        let mut at = site;
        for step in 0..MAX_CHAIN {
            let Some(class) = self.by_site.get(at) else {
                return Err("its base class is not established".into());
            };
            let Some(base) = class.base else {
                return Err("it derives from a workflow or remote agent class".into());
            };
            let named = |why: String| match step {
                0 => why,
                _ => format!(
                    "its base class {} ({}:{}): {why}",
                    str_repr(&at.1),
                    at.0,
                    class.line
                ),
            };
            let pass = agent_classes::pass_through(class.facts, class.class).map_err(named)?;
            match base {
                AgentBase::AdkCustom => {
                    custom_agents::runs_nothing(class.facts, class.class).map_err(named)?
                }
                AgentBase::Adk => {
                    custom_agents::run_methods_delegate(class.facts, class.class).map_err(named)?
                }
                AgentBase::Sdk => {}
            }
            made = pass
                .base_call(&made)
                .map_err(|why| format!("at this call, {why}"))?;
            let Some(parent) = &class.parent else {
                if base == AgentBase::AdkCustom {
                    custom_agents::takes_only_sub_agents(&made)
                        .map_err(|why| format!("at this call, {why}"))?;
                }
                return Ok((base, made));
            };
            if !parent.established {
                return Err(named(format!(
                    "the one definition of its base class {} is not established",
                    str_repr(&parent.site.1)
                )));
            }
            if let Some(why) = chains::reassignment(modules, &parent.steps) {
                return Err(named(why));
            }
            at = &parent.site;
        }
        Err(format!(
            "its chain of repository base classes is longer than {MAX_CHAIN}"
        ))
    }
}

/// The framework class a direct subclass is read as.
fn framework_base(
    facts: &ModuleFacts,
    class: &ClassFact,
    framework: Framework,
) -> Option<AgentBase> {
    match framework {
        Framework::OpenAi => Some(AgentBase::Sdk),
        Framework::Adk
            if adk::llm_agent_subclasses(facts)
                .iter()
                .any(|c| c.qualname == class.qualname) =>
        {
            Some(AgentBase::Adk)
        }
        Framework::Adk
            if adk::base_agent_subclasses(facts)
                .iter()
                .any(|c| c.qualname == class.qualname) =>
        {
            Some(AgentBase::AdkCustom)
        }
        Framework::Adk => None,
    }
}

/// The last name a base expression spells (`TracedAgent`,
/// `tracing.TracedAgent`).
fn last_name(base: &Value) -> Option<&str> {
    match base {
        Value::Name(name) => Some(name),
        Value::Attribute(parts) => parts.last().map(|p| p.as_str()),
        _ => None,
    }
}
