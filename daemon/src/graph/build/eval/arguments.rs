//! One argument's value as a digest spells it: what a call passes a
//! parameter, for a tool factory's implementation digest, a nested tool's
//! closure, or a condition a builder states about its parameters.

use super::call_frames::CallFrame;
use crate::graph::build::ModuleReader;
use crate::graph::objects::ObjectSite;
use crate::graph::schema::unparse;
use crate::python::Value;
use crate::resolve::{Resolver, Target};

impl ModuleReader<'_, '_> {
    /// One argument's value for the digest: a literal (or a name bound once
    /// to one), a function by its own code, or a parameter of the call
    /// `frame` whose body `scope` is, as that call spells it. `Err` with
    /// its spelling otherwise (for a parameter, the call's spelling).
    pub(in crate::graph::build) fn argument_value(
        &self,
        path: &str,
        scope: &str,
        value: &Value,
        frame: Option<&CallFrame>,
    ) -> Result<String, String> {
        if let (Value::Name(name), Some(frame)) = (value, frame) {
            let facts = self.modules.facts(&frame.path);
            if frame.path == path && frame.function == scope {
                match facts.and_then(|facts| frame.spelled_param(facts, name)) {
                    Some(Ok(text)) => return Ok(text.clone()),
                    Some(Err(text)) => return Err(text.clone()),
                    None => {}
                }
            }
        }
        let facts = self.modules.facts(path).ok_or_else(|| unparse(value))?;
        let site = ObjectSite {
            modules: self.modules,
            path,
            facts,
            scope: scope.to_string(),
            params: Default::default(),
            line: None,
        };
        if let Some(text) = site.canonical(value, 0) {
            return Ok(text);
        }
        if matches!(value, Value::Name(_) | Value::Attribute(_)) {
            let mut resolver = Resolver::new(self.modules);
            if let Ok(found) = resolver.resolve(path, scope, value) {
                if let Target::Function { function, .. } = found.target {
                    return Ok(format!("def {}", function.implementation_sha256));
                }
            }
        }
        Err(unparse(value))
    }
}
