//! Where an agent lists an instance of a repository tool class
//! (`frameworks::tool_classes`): the class is found through the resolver
//! (its one module-level definition, no import step rebound on the way),
//! and the instance is an object tool named as the framework names it,
//! identified by the class's digest and its constructor's arguments.
//!
//! The digest also covers the functions the class's code names that the
//! resolver follows to a definition (`add_numbers` in `FunctionTool(func=
//! add_numbers)` inside a toolset's `__init__`), by their implementation
//! digests: a toolset hands the model those functions as its tools, so a
//! change to one is a change to the toolset. One level: what those
//! functions call is reach's to follow.
//!
//! A tool class on top of another repository tool class (issue 41, item
//! 3: `class LookupTool(RecordsTool)`, `RecordsTool(BaseTool)`) is read
//! through the chain, at most `MAX_CHAIN` classes, each its one
//! module-level definition on one base, undecorated, reached through no
//! rebound import: its name is what the chain hands the framework base as
//! `name=`, read class by class from the instantiation's arguments
//! (`super_init_arguments`: each `__init__`'s one `super().__init__`, its
//! parameters replaced by what it was given), a literal or the tool is a
//! named limit; its identity digests every class of the chain. A chain
//! that does not reach a tool base (or is longer) is not a tool class
//! this reader knows: the listed call stays the reader's named limit.

use super::module_contexts::class_definition;
use super::object_members::{Built, ReadObject};
use super::{chains, ModuleReader};
use crate::frameworks::module_context::AgentBase;
use crate::frameworks::tool_classes::{self, tool_class, ToolClass};
use crate::python::Value;
use crate::resolve::{Resolver, Target};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

/// The classes of a tool class chain read, at most.
const MAX_CHAIN: usize = 8;

/// One class of a chain: where it is defined and how it was reached.
struct ChainClass<'m> {
    path: &'m str,
    facts: &'m crate::python::ModuleFacts,
    class: &'m crate::python::ClassFact,
    steps: Vec<crate::resolve::ImportStep>,
}

impl<'m> ModuleReader<'_, 'm> {
    /// The object a listed constructor call builds when its callee is a
    /// repository tool class: `None` when it is not one, else the object
    /// or why it is not read (a clause for the agent's limit).
    pub(super) fn repository_tool_class(
        &self,
        built: &Built<'_>,
    ) -> Option<Result<ReadObject, String>> {
        let Value::Call {
            callee,
            args,
            keywords,
        } = built.call()
        else {
            return None;
        };
        if !matches!(callee.as_ref(), Value::Name(_) | Value::Attribute(_)) {
            return None;
        }
        let definition = class_definition(self.modules, built.path(), built.scope(), callee)?;
        let (path, name, facts) = (definition.path, definition.name, definition.facts);
        let class = definition.class?;
        let (mut read, chain) = match tool_class(facts, class) {
            Some(Ok(read)) => (read, Vec::new()),
            Some(Err(why)) => return Some(Err(tool_classes::unread_clause(&name, &why))),
            None => {
                let chain = self.tool_chain(path, facts, class)?;
                match self.read_chain(&chain, args, keywords) {
                    Ok(read) => (read, chain),
                    Err(why) => return Some(Err(tool_classes::unread_clause(&name, &why))),
                }
            }
        };
        let framework = match self.framework {
            super::Framework::OpenAi => AgentBase::Sdk,
            super::Framework::Adk => AgentBase::Adk,
        };
        if read.framework != framework {
            return Some(Err(tool_classes::unread_clause(
                &name,
                &format!(
                    "it derives from {}, another framework's tool class",
                    read.base
                ),
            )));
        }
        if let Some(why) = chains::reassignment(self.modules, &definition.steps) {
            return Some(Err(tool_classes::unread_clause(&name, &why)));
        }
        read.implementation_sha256 = match chain.as_slice() {
            [] => self.with_named_functions(path, &class.qualname, &read.implementation_sha256),
            chain => {
                // Every class of the chain, leaf first, each with the
                // functions its methods name.
                let mut hasher = Sha256::new();
                for link in chain {
                    let own = crate::frameworks::class_rules::class_digest(link.facts, link.class);
                    hasher.update(
                        self.with_named_functions(link.path, &link.class.qualname, &own)
                            .as_bytes(),
                    );
                    hasher.update(b"\n");
                }
                format!("{:x}", hasher.finalize())
            }
        };
        let site = self.object_site(built.path(), built.facts(), built.scope());
        let mut object = site.tool_class(&name, &read, args, keywords);
        object.built_at = (built.path().to_string(), built.line());
        if let Some(variable) = built.variable() {
            object
                .unread
                .extend(super::object_members::changed_after(built, variable));
        }
        Some(Ok(ReadObject {
            name: read.name,
            object,
        }))
    }

    /// The classes from `class` (a repository class deriving from no tool
    /// base directly) up to the first that does, leaf first; `None` when
    /// the chain leaves the scope's one-base classes, or is longer than
    /// `MAX_CHAIN`.
    fn tool_chain(
        &self,
        path: &'m str,
        facts: &'m crate::python::ModuleFacts,
        class: &'m crate::python::ClassFact,
    ) -> Option<Vec<ChainClass<'m>>> {
        let mut chain = vec![ChainClass {
            path,
            facts,
            class,
            steps: Vec::new(),
        }];
        while chain.len() <= MAX_CHAIN {
            let last = chain.last()?;
            if tool_class(last.facts, last.class).is_some() {
                return Some(chain);
            }
            let [base] = last.class.bases.as_slice() else {
                return None;
            };
            let found = class_definition(self.modules, last.path, "", base)?;
            let class = found.class?;
            chain.push(ChainClass {
                path: found.path,
                facts: found.facts,
                class,
                steps: found.steps,
            });
        }
        None
    }

    /// The tool a chain's instantiation (`args`, `keywords`) makes: the
    /// class the chain ends at, named by what the chain hands its base.
    fn read_chain(
        &self,
        chain: &[ChainClass<'_>],
        args: &[Value],
        keywords: &[(Option<crate::python::Text>, Value)],
    ) -> Result<ToolClass, String> {
        let Some((root, derived)) = chain.split_last() else {
            return Err("it derives from no tool class".into());
        };
        let mut read = tool_classes::tool_class_as(root.facts, root.class, true)
            .unwrap_or_else(|| Err("it derives from no tool class".into()))?;
        for link in derived {
            let name = crate::pyrepr::str_repr(&link.class.name);
            crate::frameworks::class_rules::module_level_on_one_base(link.class)
                .map_err(|why| format!("{name} in its chain: {why}"))?;
            if !link.class.decorators.is_empty() {
                return Err(format!("{name} in its chain is decorated"));
            }
        }
        for link in &chain[1..] {
            if let Some(why) = chains::reassignment(self.modules, &link.steps) {
                return Err(why);
            }
        }
        let mut received = tool_classes::Arguments {
            args: args.to_vec(),
            keywords: keywords.to_vec(),
        };
        for link in chain {
            let name = crate::pyrepr::str_repr(&link.class.name);
            if let Some(next) =
                tool_classes::super_init_arguments(link.facts, link.class, &received)
                    .map_err(|why| format!("{name} in its chain: {why}"))?
            {
                received = next;
            }
        }
        match received
            .keywords
            .iter()
            .find(|(k, _)| k.as_deref() == Some("name"))
        {
            Some((_, Value::Str(name))) => read.name = name.to_string(),
            _ => {
                return Err(format!(
                    "the name its chain passes to {} is not a literal",
                    read.base
                ))
            }
        }
        Ok(read)
    }

    /// The class digest extended by the implementation digest of each
    /// function its methods name, in name order.
    fn with_named_functions(&self, path: &str, qualname: &str, digest: &str) -> String {
        let Some((key, facts)) = self.modules.key(path).zip(self.modules.facts(path)) else {
            return digest.to_string();
        };
        let prefix = format!("{qualname}.");
        let names: BTreeSet<&str> = facts
            .functions
            .iter()
            .filter(|f| f.qualname.starts_with(&prefix))
            .flat_map(|f| f.body().name_uses.keys())
            .collect();
        let mut hasher = Sha256::new();
        hasher.update(digest.as_bytes());
        for name in names {
            let mut resolver = Resolver::new(self.modules);
            let Ok(found) = resolver.resolve(key, "", &Value::Name(name.to_string().into())) else {
                continue;
            };
            if let Target::Function { function, .. } = found.target {
                hasher.update(format!("\n{name} {}", function.implementation_sha256).as_bytes());
            }
        }
        format!("{:x}", hasher.finalize())
    }
}
