//! Resolving a name used in a module to the absolute name it was imported as.

use crate::python::{ImportFact, ModuleFacts, Value};

/// The absolute dotted name (`agents.Agent`) a name or attribute chain
/// refers to through the module's absolute imports, seen from `scope` (a
/// function's qualified name; imports of enclosing scopes count, the
/// innermost first). `None` for a name no import binds.
pub fn imported_name(facts: &ModuleFacts, value: &Value, scope: &str) -> Option<String> {
    let (head, rest): (&str, &[String]) = match value {
        Value::Name(name) => (name.as_str(), &[]),
        Value::Attribute(parts) => {
            let (head, rest) = parts.split_first()?;
            (head.as_str(), rest)
        }
        Value::Subscript { base, .. } => return imported_name(facts, base, scope),
        _ => return None,
    };
    let import = binding_import(facts, head, scope)?;
    if import.level != 0 {
        return None;
    }
    let mut absolute = match (&import.name, &import.asname) {
        (Some(name), _) => format!("{}.{name}", import.module),
        (None, Some(_)) => import.module.clone(),
        // `import a.b` binds `a`: the name is the first component.
        (None, None) => head.to_string(),
    };
    for part in rest {
        absolute.push('.');
        absolute.push_str(part);
    }
    Some(absolute)
}

/// Classes of the module with a base whose absolute imported name
/// satisfies `is_base` (read where the class statement is).
pub fn classes_deriving(
    facts: &ModuleFacts,
    is_base: impl Fn(&str) -> bool,
) -> Vec<&crate::python::ClassFact> {
    facts
        .classes
        .iter()
        .filter(|class| {
            let enclosing = class
                .qualname
                .rsplit_once('.')
                .map(|(parent, _)| parent)
                .unwrap_or("");
            class.bases.iter().any(|base| {
                imported_name(facts, base, enclosing).is_some_and(|name| is_base(&name))
            })
        })
        .collect()
}

/// The import that binds `name` as seen from `scope`, innermost scope first.
/// A name also bound at that level by something else is not an import's.
fn binding_import<'f>(facts: &'f ModuleFacts, name: &str, scope: &str) -> Option<&'f ImportFact> {
    let mut current = Some(scope);
    while let Some(level) = current {
        let found = facts
            .imports
            .iter()
            .rev()
            .find(|import| import.scope == level && import.bound_name() == name);
        if found.is_some() {
            return found;
        }
        current = if level.is_empty() {
            None
        } else {
            Some(
                level
                    .rsplit_once('.')
                    .map(|(parent, _)| parent)
                    .unwrap_or(""),
            )
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;

    #[test]
    fn names_resolve_through_imports() {
        let facts = extract_facts(
            b"from agents import Agent as A\nimport agents\nimport openai.types\nfrom .agents import Local\ndef build():\n    from google.adk import Agent\n",
        );
        let name = |n: &str| Value::Name(n.to_string());
        let attr = |p: &[&str]| Value::Attribute(p.iter().map(|s| s.to_string()).collect());
        assert_eq!(
            imported_name(&facts, &name("A"), "").as_deref(),
            Some("agents.Agent")
        );
        assert_eq!(
            imported_name(&facts, &attr(&["agents", "Agent"]), "").as_deref(),
            Some("agents.Agent")
        );
        assert_eq!(
            imported_name(&facts, &attr(&["openai", "types", "X"]), "").as_deref(),
            Some("openai.types.X")
        );
        assert_eq!(
            imported_name(&facts, &name("Local"), ""),
            None,
            "relative imports are not absolute names"
        );
        assert_eq!(imported_name(&facts, &name("Agent"), ""), None);
        assert_eq!(
            imported_name(&facts, &name("Agent"), "build").as_deref(),
            Some("google.adk.Agent")
        );
    }
}
