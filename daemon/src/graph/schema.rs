//! A tool's interface as the model sees it: input schema, output schema and
//! signature, from the definition's parameters and annotations.

use crate::pyrepr::str_repr;
use crate::python::{Comprehension, FunctionFact, ParamKind, Value};
use serde::{Deserialize, Serialize};

/// Parameters the framework fills in (the run or tool context, the bound
/// instance): never model input, so neither in the schema nor the signature.
const INJECTED_PARAMETERS: &[&str] = &["self", "cls", "ctx", "context", "tool_context"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interface {
    /// `(name, JSON type)` in declaration order.
    pub properties: Vec<(String, String)>,
    pub required: Vec<String>,
    /// JSON type of the return annotation; `None` when there is none.
    pub output: Option<String>,
    pub signature: String,
}

/// Reads the interface of a tool named `tool` defined by `function`.
pub fn interface(tool: &str, function: &FunctionFact) -> Interface {
    let mut properties = Vec::new();
    let mut required = Vec::new();
    for param in &function.params {
        let model_input = matches!(
            param.kind,
            ParamKind::PositionalOnly | ParamKind::Normal | ParamKind::KeywordOnly
        ) && !INJECTED_PARAMETERS.contains(&param.name.as_str());
        if !model_input {
            continue;
        }
        properties.push((param.name.to_string(), json_type(param.annotation.as_ref())));
        if !param.has_default {
            required.push(param.name.to_string());
        }
    }
    let names: Vec<&str> = properties.iter().map(|(name, _)| name.as_str()).collect();
    let mut signature = format!("{tool}({})", names.join(", "));
    if let Some(returns) = &function.returns {
        signature.push_str(" -> ");
        signature.push_str(&unparse(returns));
    }
    Interface {
        properties,
        required,
        output: function.returns.as_ref().map(|r| json_type(Some(r))),
        signature,
    }
}

/// The JSON type an annotation maps to: by its base name only (`Optional[int]`
/// is not unwrapped); anything unrecognised is a string, as the reference does.
fn json_type(annotation: Option<&Value>) -> String {
    let base = match annotation {
        Some(Value::Subscript { base, .. }) => base.dotted(),
        Some(other) => other.dotted(),
        None => None,
    };
    let last = base.as_deref().map(|b| b.rsplit('.').next().unwrap_or(b));
    match last {
        Some("int" | "float") => "number",
        Some("bool") => "boolean",
        Some(
            "list" | "List" | "tuple" | "Tuple" | "set" | "Set" | "frozenset" | "FrozenSet"
            | "Sequence",
        ) => "array",
        Some("dict" | "Dict" | "Mapping") => "object",
        _ => "string",
    }
    .to_string()
}

/// Source text of an annotation, as Python's `ast.unparse` spells it.
pub fn unparse(value: &Value) -> String {
    match value {
        Value::Name(name) => name.to_string(),
        Value::Attribute(parts) => parts.join("."),
        Value::Str(text) => str_repr(text),
        Value::Number(number) => number.to_string(),
        Value::Bool(true) => "True".to_string(),
        Value::Bool(false) => "False".to_string(),
        Value::None => "None".to_string(),
        Value::List(items) => format!("[{}]", join(items)),
        Value::Tuple(items) if items.len() == 1 => format!("({},)", unparse(&items[0])),
        Value::Tuple(items) => format!("({})", join(items)),
        Value::Set(items) => format!("{{{}}}", join(items)),
        Value::Starred(inner) => format!("*{}", unparse(inner)),
        Value::Subscript { base, index } => format!("{}[{}]", unparse(base), join(index)),
        Value::Union(parts) => parts.iter().map(unparse).collect::<Vec<_>>().join(" | "),
        Value::Call {
            callee,
            args,
            keywords,
        } => {
            let mut parts: Vec<String> = args.iter().map(unparse).collect();
            for (name, value) in keywords {
                parts.push(match name {
                    Some(name) => format!("{name}={}", unparse(value)),
                    None => format!("**{}", unparse(value)),
                });
            }
            format!("{}({})", unparse(callee), parts.join(", "))
        }
        Value::Dict(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|(key, value)| match key {
                    Some(key) => format!("{}: {}", unparse(key), unparse(value)),
                    None => format!("**{}", unparse(value)),
                })
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::FString(parts) => {
            let body: String = parts
                .iter()
                .map(|part| match part {
                    Value::Str(text) => text.replace('{', "{{").replace('}', "}}"),
                    other => format!("{{{}}}", unparse(other)),
                })
                .collect();
            format!("f{}", str_repr(&body))
        }
        Value::ListComprehension(comprehension) => {
            let Comprehension {
                element,
                target,
                iter,
                conditions,
            } = comprehension.as_ref();
            let mut text = format!(
                "[{} for {} in {}",
                unparse(element),
                unparse(target),
                unparse(iter)
            );
            for condition in conditions {
                text.push_str(&format!(" if {}", unparse(condition)));
            }
            text.push(']');
            text
        }
        Value::Add { left, right } => format!("{} + {}", unparse(left), unparse(right)),
        Value::IfElse { test, body, orelse } => format!(
            "{} if {} else {}",
            unparse(body),
            unparse(test),
            unparse(orelse)
        ),
        Value::Or(parts) => parts.iter().map(unparse).collect::<Vec<_>>().join(" or "),
        Value::Compare { left, op, right } => {
            format!("{} {op} {}", unparse(left), unparse(right))
        }
        // As the model spelled it before arithmetic was kept.
        Value::BinOp { .. } => "<binary operation>".to_string(),
        Value::Other(kind) => format!("<{kind}>"),
    }
}

fn join(items: &[Value]) -> String {
    items.iter().map(unparse).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;

    fn interface_of(source: &str) -> Interface {
        let facts = extract_facts(source.as_bytes());
        let function = &facts.functions[0];
        interface(&function.name, function)
    }

    #[test]
    fn schema_and_signature_follow_the_reference() {
        let i = interface_of(
            "def refund(ctx, order_id: str, amount: float, n: int, tags: list[str], opt: Optional[str] = None, x=3, *args, y: Dict[str, int], **kw) -> dict[str, int]:\n    pass\n",
        );
        let types: Vec<(&str, &str)> = i
            .properties
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        assert_eq!(
            types,
            vec![
                ("order_id", "string"),
                ("amount", "number"),
                ("n", "number"),
                ("tags", "array"),
                ("opt", "string"),
                ("x", "string"),
                ("y", "object"),
            ]
        );
        assert_eq!(i.required, vec!["order_id", "amount", "n", "tags", "y"]);
        assert_eq!(i.output.as_deref(), Some("object"));
        assert_eq!(
            i.signature,
            "refund(order_id, amount, n, tags, opt, x, y) -> dict[str, int]"
        );
    }

    #[test]
    fn return_annotations_are_unparsed() {
        assert_eq!(
            interface_of("def f() -> 'a' 'b':\n    pass\n").signature,
            "f() -> 'ab'"
        );
        assert_eq!(
            interface_of("def f() -> int | None:\n    pass\n").signature,
            "f() -> int | None"
        );
        let none = interface_of("def f():\n    pass\n");
        assert_eq!(none.signature, "f()");
        assert_eq!(none.output, None);
    }
}
