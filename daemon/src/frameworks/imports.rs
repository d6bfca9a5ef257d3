//! Resolving a name used in a module to the absolute name it was imported as.

use super::exports::EXPORTS;
use crate::python::{ImportFact, ModuleFacts, Text, Value};

/// What a framework package exports at an absolute dotted name, by the
/// readers' name for it: every module path a release defines or re-exports
/// it at, and the package's own aliases, are one identity
/// (`agents.agent.Agent` and `agents.Agent` are `Agent`;
/// `agents.decorators.tool` is `function_tool`;
/// `google.adk.agents.llm_agent.LlmAgent` is `LlmAgent`). Read from the
/// packages' releases (`exports.rs`); `None` for a spelling none of them
/// exports.
pub fn exported_name(absolute: &str) -> Option<&'static str> {
    let index = EXPORTS
        .binary_search_by(|(spelling, _)| (*spelling).cmp(absolute))
        .ok()?;
    EXPORTS.get(index).map(|(_, name)| *name)
}

/// What a tool a package ships is (`tool`, `toolset`, `built_in`,
/// `hosted`, `factory`), by the name `exported_name` gives it
/// (`exports::SHIPPED_TOOLS`).
pub fn shipped_kind(name: &str) -> Option<&'static str> {
    let tools = super::exports::SHIPPED_TOOLS;
    let index = tools
        .binary_search_by(|(known, _)| (*known).cmp(name))
        .ok()?;
    tools.get(index).map(|(_, kind)| *kind)
}

/// The absolute dotted name (`agents.Agent`) a name or attribute chain
/// refers to through the module's absolute imports, seen from `scope` (a
/// function's qualified name; imports of enclosing scopes count, the
/// innermost first). `None` for a name no import binds.
pub fn imported_name(facts: &ModuleFacts, value: &Value, scope: &str) -> Option<String> {
    let (head, rest): (&str, &[Text]) = match value {
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
        (None, Some(_)) => import.module.to_string(),
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
        let found = facts.import_binding(level, name);
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
    fn the_export_table_is_sorted_and_unique() {
        assert!(EXPORTS.windows(2).all(|pair| pair[0].0 < pair[1].0));
    }

    #[test]
    fn exported_names_follow_the_package() {
        for (spelling, name) in [
            ("agents.Agent", Some("Agent")),
            ("agents.agent.Agent", Some("Agent")),
            ("agents.function_tool", Some("function_tool")),
            ("agents.tool.function_tool", Some("function_tool")),
            ("agents.decorators.tool", Some("function_tool")),
            ("agents.mcp.server.MCPServerStdio", Some("MCPServerStdio")),
            ("google.adk.agents.llm_agent.LlmAgent", Some("LlmAgent")),
            ("google.adk.agents.llm_agent.Agent", Some("Agent")),
            (
                "google.adk.tools.function_tool.FunctionTool",
                Some("FunctionTool"),
            ),
            // Not exported there: the package has no such spelling.
            ("agents.tool", None),
            ("agents.tool.tool", None),
            ("agents.agent.Agents", None),
            ("agents.decorators", None),
            ("google.adk.agents.llm_agent.McpToolset", None),
            ("google.adk.foo.Agent", None),
        ] {
            assert_eq!(exported_name(spelling), name, "{spelling}");
        }
    }

    #[test]
    fn names_resolve_through_imports() {
        let facts = extract_facts(
            b"from agents import Agent as A\nimport agents\nimport openai.types\nfrom .agents import Local\ndef build():\n    from google.adk import Agent\n",
        );
        let name = |n: &str| Value::Name(n.into());
        let attr = |p: &[&str]| Value::Attribute(p.iter().map(|s| (*s).into()).collect());
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
