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

use super::module_contexts::class_definition;
use super::object_members::{Built, ReadObject};
use super::{chains, ModuleReader};
use crate::frameworks::module_context::AgentBase;
use crate::frameworks::tool_classes::{self, tool_class, ToolClass};
use crate::python::Value;
use crate::resolve::{Resolver, Target};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

impl ModuleReader<'_, '_> {
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
        let mut read = match tool_class(facts, class)? {
            Ok(read) => read,
            Err(why) => return Some(Err(tool_classes::unread_clause(&name, &why))),
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
        read.implementation_sha256 = self.with_named_functions(path, &class.qualname, &read);
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

    /// The class digest extended by the implementation digest of each
    /// function its methods name, in name order.
    fn with_named_functions(&self, path: &str, qualname: &str, read: &ToolClass) -> String {
        let Some((key, facts)) = self.modules.key(path).zip(self.modules.facts(path)) else {
            return read.implementation_sha256.clone();
        };
        let prefix = format!("{qualname}.");
        let names: BTreeSet<&str> = facts
            .functions
            .iter()
            .filter(|f| f.qualname.starts_with(&prefix))
            .flat_map(|f| f.body().name_uses.keys())
            .collect();
        let mut hasher = Sha256::new();
        hasher.update(read.implementation_sha256.as_bytes());
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
