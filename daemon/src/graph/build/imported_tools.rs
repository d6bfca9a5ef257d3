//! A listed name imported from a package no file of the repository
//! provides (`from helpers import find_hotels`, a sibling checkout, a
//! library's function) keeps its binding's presence (issue 21): it is an
//! object row named by the imported name, identified by its absolute
//! import (`helpers.find_hotels`), with its definition a named unread
//! part.
//!
//! So adding or removing the name is an established row; the same import
//! on both sides is no row (nothing the diff holds can change a definition
//! the tree does not hold), while the side's limit keeps the answer
//! `partial`; an import that differs is `not_established`, never a
//! made-up digest. A package the repository holds outside the scope is
//! not this: the diff could change it, so it stays the agent's limit.

use super::object_members::ReadObject;
use super::ModuleReader;
use crate::frameworks::imports::imported_name;
use crate::graph::objects::{ObjectIdentity, ObjectKind, ObjectTool, UnreadPart};
use crate::python::Value;
use crate::resolve::{Resolver, Target};

impl ModuleReader<'_, '_> {
    /// The object a listed reference is when it names, through absolute
    /// imports only, something no file of the repository defines; `None`
    /// otherwise (it is followed as any reference is).
    pub(super) fn imported_tool(&self, scope: &str, reference: &Value) -> Option<ReadObject> {
        let start = self.resolve_from.get().unwrap_or(self.path);
        // Only a name an import binds can be one: a cheap test first.
        imported_name(self.modules.facts(start)?, reference, scope)?;
        let mut resolver = Resolver::new(self.modules).with_external();
        let found = resolver.resolve(start, scope, reference).ok()?;
        let Target::External { dotted } = found.target else {
            return None;
        };
        let name = dotted.rsplit('.').next()?.to_string();
        let built_at = found
            .steps
            .last()
            .map(|step| (step.path.clone(), step.line.unwrap_or(0)))
            .unwrap_or_else(|| (start.to_string(), 0));
        let top = dotted.split('.').next().unwrap_or(&dotted).to_string();
        Some(ReadObject {
            name,
            object: ObjectTool {
                identity: ObjectIdentity {
                    kind: Some(ObjectKind::Imported),
                    class: dotted.clone(),
                    ..ObjectIdentity::default()
                },
                unread: vec![UnreadPart {
                    part: "definition".into(),
                    spelled: format!(
                        "{dotted}: no file inside the read scope provides module {}",
                        crate::pyrepr::str_repr(&top)
                    ),
                }],
                built_at,
                description: None,
                reaches: None,
                gates: Vec::new(),
            },
        })
    }
}
