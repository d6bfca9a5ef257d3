//! An agent's `name=` as the module states it: a literal, or a string
//! constant the module binds (`AGENT_NAME = "support"` … `Agent(name=
//! AGENT_NAME)`), which both frameworks take as the agent's name.
//!
//! A constant is read only for a construction at module level, and only
//! when the module binds the name once, unconditionally, before the
//! construction, and no function of the module declares it `global`: the
//! construction runs on import, when no other code can have rebound it
//! yet. The binding is an assignment of a string literal (or an f-string
//! of literal pieces), or an import of a string constant another module
//! binds (`NameConstants`, which the graph layer fills through the
//! resolver).
//!
//! A module's constant spelled through the module (`name=names.BILLING`)
//! is read when the statement runs, wherever it is, so it is taken on the
//! census's word as a constant inside a function is.
//!
//! Inside a function (a builder, a factory, a method) the construction
//! runs later, when other code could have rebound the constant, so more
//! must hold (`NameConstants::in_functions`, which the graph layer fills,
//! issue 40): no function on the way from the construction out to the
//! module binds the name (a parameter, a local, `global`, `nonlocal`; a
//! class body between is not a scope its methods see), and nothing in the
//! scope can rebind it — no store of that attribute name anywhere, no
//! change of the constant's module namespace the read cannot see
//! (`globals()`, `vars(m)`, a computed `setattr`, `sys.modules`).

use crate::python::{BindingKind, CallFact, ModuleFacts, Value};
use std::collections::BTreeMap;

/// The strings a module's imported names hold, for names its agents use
/// as `name=` (`from .config import AGENT_NAME`): what the graph layer
/// established through the resolver. Empty where names do not matter.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NameConstants {
    strings: BTreeMap<String, String>,
    /// The module's own and imported string constants nothing in the
    /// scope can rebind, for constructions inside functions.
    in_functions: BTreeMap<String, String>,
    /// `module.NAME` spellings (`names.BILLING`) of constants nothing in
    /// the scope can rebind, by the dotted spelling.
    attributes: BTreeMap<String, String>,
}

impl NameConstants {
    pub fn new(strings: BTreeMap<String, String>) -> Self {
        NameConstants {
            strings,
            in_functions: BTreeMap::new(),
            attributes: BTreeMap::new(),
        }
    }

    /// With the `module.NAME` constants constructions may read.
    pub fn with_attribute_constants(mut self, attributes: BTreeMap<String, String>) -> Self {
        self.attributes = attributes;
        self
    }

    /// With the constants constructions inside functions may read.
    pub fn with_function_constants(mut self, in_functions: BTreeMap<String, String>) -> Self {
        self.in_functions = in_functions;
        self
    }
}

/// The names a module's agent constructions inside functions use as
/// `name=` that no function on the way out binds: what
/// `NameConstants::in_functions` is asked for.
pub fn function_name_candidates(facts: &ModuleFacts) -> Vec<&str> {
    let mut names: Vec<&str> = facts
        .calls
        .iter()
        .filter(|call| !call.scope.is_empty())
        .filter_map(|call| match name_value(call)? {
            Value::Name(name) if !bound_on_the_way_out(facts, &call.scope, name) => {
                Some(name.as_str())
            }
            _ => None,
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The `name=` values spelled `module.NAME` (`names.BILLING`), with the
/// scope each is read in: what `NameConstants`' attribute constants are
/// asked for.
pub fn attribute_name_candidates(facts: &ModuleFacts) -> Vec<(&str, &Value)> {
    facts
        .calls
        .iter()
        .filter_map(|call| match name_value(call)? {
            value @ Value::Attribute(parts) if parts.len() == 2 => {
                Some((call.scope.as_str(), value))
            }
            _ => None,
        })
        .collect()
}

/// Whether `name`, read in `scope`, may be bound by a scope between it
/// and the module: a function binding it (parameter, local, `global`,
/// `nonlocal`), a class body binding it where the read is in that body,
/// or a scope the facts do not know (then it may). A class body around a
/// function is not one of that function's scopes.
pub fn bound_on_the_way_out(facts: &ModuleFacts, scope: &str, name: &str) -> bool {
    let mut here = scope;
    let mut innermost = true;
    loop {
        if let Some(function) = facts.functions.iter().find(|f| f.qualname == here) {
            if function.params.iter().any(|p| p.name == name)
                || function.globals.iter().any(|g| g == name)
                || function.nonlocals.iter().any(|n| n == name)
                || function.binds_local(name)
            {
                return true;
            }
        } else if let Some(class) = facts.classes.iter().find(|c| c.qualname == here) {
            if innermost && class.attributes.iter().any(|a| a.name == name) {
                return true;
            }
        } else {
            return true;
        }
        innermost = false;
        match here.rsplit_once('.') {
            Some((parent, _)) => here = parent,
            None => return false,
        }
    }
}

/// The names a module's agent constructions use as `name=` that the
/// module binds once by a module-level import: what `NameConstants` is
/// asked for.
pub fn imported_name_candidates(facts: &ModuleFacts) -> Vec<&str> {
    let mut names: Vec<&str> = facts
        .calls
        .iter()
        .filter(|call| call.scope.is_empty())
        .filter_map(|call| match name_value(call)? {
            Value::Name(name) => Some(name.as_str()),
            _ => None,
        })
        .filter(|name| {
            matches!(
                once_before(facts, name, u32::MAX).map(|b| b.kind),
                Some(BindingKind::Import)
            )
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

fn name_value(call: &CallFact) -> Option<&Value> {
    match (call.keyword("name").map(|k| &k.value), call.args.first()) {
        (Some(value), _) => Some(value),
        (None, Some(value @ Value::Str(_))) => Some(value),
        _ => None,
    }
}

/// The `name=` keyword (or first positional string) of `call`, as a
/// literal or a constant the module binds or imports.
pub fn agent_name(
    facts: &ModuleFacts,
    call: &CallFact,
    imported: &NameConstants,
) -> Option<String> {
    match name_value(call)? {
        Value::Str(name) => Some(name.to_string()),
        Value::Name(constant) if call.scope.is_empty() => {
            let binding = once_before(facts, constant, call.line)?;
            match binding.kind {
                BindingKind::Assignment => string_constant(binding.value.as_ref()?),
                BindingKind::Import => imported.strings.get(constant.as_str()).cloned(),
                _ => None,
            }
        }
        Value::Name(constant) if !bound_on_the_way_out(facts, &call.scope, constant) => {
            imported.in_functions.get(constant.as_str()).cloned()
        }
        value @ Value::Attribute(_) => imported.attributes.get(&value.dotted()?).cloned(),
        _ => None,
    }
}

/// The module's one binding of `name`, when it is unconditional, runs
/// before `line` and no function of the module rebinds it (`global`).
pub fn once_before<'f>(
    facts: &'f ModuleFacts,
    name: &str,
    line: u32,
) -> Option<&'f crate::python::BindingFact> {
    let bindings: Vec<_> = facts
        .module_bindings_named(name)
        .filter(|b| b.name == name)
        .collect();
    let [binding] = bindings.as_slice() else {
        return None;
    };
    let rebound = facts
        .functions
        .iter()
        .any(|f| f.globals.iter().any(|g| g == name));
    (!binding.conditional && !binding.type_checking && binding.line < line && !rebound)
        .then_some(*binding)
}

/// The string a constant's value spells: a literal, or an f-string of
/// literal pieces.
pub fn string_constant(value: &Value) -> Option<String> {
    match value {
        Value::Str(text) => Some(text.to_string()),
        Value::FString(pieces) => pieces
            .iter()
            .map(|piece| match piece {
                Value::Str(text) => Some(text.as_str()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(|pieces| pieces.concat()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;

    fn name_of(source: &str) -> Option<String> {
        let facts = extract_facts(source.as_bytes());
        let call = facts
            .calls
            .iter()
            .find(|c| matches!(&c.callee, Value::Name(n) if n == "Agent"))?;
        agent_name(&facts, call, &NameConstants::default())
    }

    #[test]
    fn a_constant_bound_once_before_a_module_level_construction_is_the_name() {
        assert_eq!(
            name_of("NAME = 'support'\nagent = Agent(name=NAME)\n").as_deref(),
            Some("support")
        );
        assert_eq!(
            name_of("NAME = f'shop-{\"x\"}'\nAgent(name='lit')\n").as_deref(),
            Some("lit")
        );
        assert_eq!(
            name_of("NAME = f'shop-sales'\nagent = Agent(name=NAME)\n").as_deref(),
            Some("shop-sales")
        );
    }

    #[test]
    fn a_constant_that_could_be_rebound_is_not_read() {
        // Bound twice, after the construction, in a function, or global.
        for source in [
            "NAME = 'a'\nNAME = 'b'\nagent = Agent(name=NAME)\n",
            "agent = Agent(name=NAME)\nNAME = 'a'\n",
            "NAME = 'a'\ndef build():\n    return Agent(name=NAME)\n",
            "NAME = 'a'\ndef rename():\n    global NAME\n    NAME = 'b'\nagent = Agent(name=NAME)\n",
            "import os\nNAME = os.environ['N']\nagent = Agent(name=NAME)\n",
        ] {
            assert_eq!(name_of(source), None, "{source}");
        }
    }
}
