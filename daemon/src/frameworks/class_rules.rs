//! The conditions the class readers share (`agent_classes.rs`,
//! `wrapper_classes.rs`, `tool_classes.rs`): what proves, from a class's
//! facts alone, that its code cannot reach an attribute the reader does
//! not see it reach.

use super::imports::imported_name;
use crate::pyrepr::str_repr;
use crate::python::{BodyCall, ClassFact, FunctionFact, ModuleFacts, Value};
use sha2::{Digest, Sha256};

/// Method decorators that do not change what an instance holds.
const PLAIN_DECORATORS: &[&str] = &["property", "staticmethod", "classmethod"];

/// Decorators, by import, that return the function they are given
/// unchanged (`@override` only sets `__override__` on it).
const MARKER_DECORATORS: &[&str] = &["typing.override", "typing_extensions.override"];

/// A class statement at module level with one base and no keywords
/// (`metaclass=`): what makes the framework class its only parent and
/// the module's one definition the class. Else why not, as a clause.
pub fn module_level_on_one_base(class: &ClassFact) -> Result<(), String> {
    if class.qualname != class.name {
        return Err("it is defined inside a function or class".into());
    }
    if class.bases.len() != 1 {
        return Err("it has more than one base class".into());
    }
    match class.keywords.first() {
        Some(keyword) => Err(format!("its class statement passes {keyword}")),
        None => Ok(()),
    }
}

/// The first of `names` the class binds in its body or spells as an
/// attribute anywhere in its code.
pub fn spells_any<'c>(class: &'c ClassFact, names: &[&str]) -> Option<&'c str> {
    class
        .attributes
        .iter()
        .map(|b| b.name.as_str())
        .chain(class.attribute_names.keys())
        .find(|name| names.contains(name))
}

/// The class's methods, nested definitions included.
pub fn methods<'f>(facts: &'f ModuleFacts, class: &ClassFact) -> Vec<&'f FunctionFact> {
    let prefix = format!("{}.", class.qualname);
    facts
        .functions
        .iter()
        .filter(|f| f.qualname.starts_with(&prefix))
        .collect()
}

/// No method is decorated but by `property`/`staticmethod`/`classmethod`
/// or a marker (`typing.override`) (a validator can rewrite a field
/// without a store), and none reaches an
/// attribute by a name the reader cannot check: `setattr`, `delattr`,
/// `vars`, or `getattr` of a computed name or of one of `guarded`.
pub fn plain_methods(
    facts: &ModuleFacts,
    class: &ClassFact,
    guarded: &[&str],
) -> Result<(), String> {
    let prefix = format!("{}.", class.qualname);
    for method in methods(facts, class) {
        let direct = !method.qualname[prefix.len()..].contains('.');
        let plain = |d: &Value| {
            matches!(d, Value::Name(n) if PLAIN_DECORATORS.contains(&n.as_str()))
                || imported_name(facts, d, "")
                    .is_some_and(|name| MARKER_DECORATORS.contains(&name.as_str()))
        };
        if direct && !method.decorators.iter().all(plain) {
            return Err(format!(
                "its method {} is decorated",
                str_repr(&method.name)
            ));
        }
        let reflects = |call: &&crate::python::BodyCall| match &call.callee {
            Value::Name(name) => match name.as_str() {
                "setattr" | "delattr" | "vars" => true,
                "getattr" => !matches!(call.args.get(1), Some(Value::Str(attribute))
                    if !guarded.contains(&attribute.as_str())),
                _ => false,
            },
            _ => false,
        };
        if let Some(call) = method.body().body_calls.iter().find(reflects) {
            let callee = call.callee.dotted().unwrap_or_default();
            return Err(format!(
                "its method {} calls {callee} at line {}",
                str_repr(&method.name),
                call.line
            ));
        }
    }
    Ok(())
}

/// The method a call makes on a bare `super()` (`super().__init__(…)`
/// gives `__init__`); `None` for any other call, `super(C, self)` too.
pub fn super_method(call: &BodyCall) -> Option<&str> {
    match call.receiver.as_deref() {
        Some((
            Value::Call {
                callee,
                args,
                keywords,
            },
            method,
        )) if **callee == Value::Name("super".into()) && args.is_empty() && keywords.is_empty() => {
            Some(method.as_str())
        }
        _ => None,
    }
}

/// `@dataclass` or `@dataclass(...)`, the standard library's.
pub fn is_dataclass_decorator(facts: &ModuleFacts, decorator: &Value) -> bool {
    let callee = match decorator {
        Value::Call { callee, .. } => callee.as_ref(),
        other => other,
    };
    imported_name(facts, callee, "").as_deref() == Some("dataclasses.dataclass")
}

/// Lowercase hex SHA-256 over a class as written: its name and bases as
/// spelled (decorators and keywords too), every binding of its body with its value, and every method
/// (nested definitions included) by its qualified name, decorators and
/// implementation digest. A class by its own code, as a function is by
/// its own (contract §3.1): what its methods call is not digested.
pub fn class_digest(facts: &ModuleFacts, class: &ClassFact) -> String {
    let mut methods = methods(facts, class);
    methods.sort_by(|a, b| a.qualname.cmp(&b.qualname));
    let mut hasher = Sha256::new();
    let mut line = |text: String| {
        hasher.update(text.as_bytes());
        hasher.update(b"\n");
    };
    line(format!("class {} {:?}", class.name, class.bases));
    if !class.decorators.is_empty() || !class.keywords.is_empty() {
        line(format!("with {:?} {:?}", class.decorators, class.keywords));
    }
    for binding in &class.attributes {
        line(format!(
            "binds {} {:?} {:?}",
            binding.name, binding.kind, binding.value
        ));
    }
    for method in &methods {
        line(format!(
            "def {} {:?} {}",
            method.qualname, method.decorators, method.implementation_sha256
        ));
    }
    format!("{:x}", hasher.finalize())
}
