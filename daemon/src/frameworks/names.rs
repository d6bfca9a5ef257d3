//! An agent's `name=` as the module states it: a literal, or a string
//! constant the module binds (`AGENT_NAME = "support"` … `Agent(name=
//! AGENT_NAME)`), which both frameworks take as the agent's name.
//!
//! A constant is read only for a construction at module level, and only
//! when the module binds the name once, unconditionally, by an assignment
//! of a string literal (or an f-string of literal pieces) written before
//! the construction, and no function of the module declares it `global`:
//! the construction runs on import, when no other code can have rebound
//! it yet. Imported constants are not read here (another module's value
//! needs the resolver), nor constants read inside a function (code run
//! later could have rebound them).

use crate::python::{BindingKind, CallFact, ModuleFacts, Value};

/// The `name=` keyword (or first positional string) of `call`, as a
/// literal or a constant the module binds.
pub fn agent_name(facts: &ModuleFacts, call: &CallFact) -> Option<String> {
    let value = match (call.keyword("name").map(|k| &k.value), call.args.first()) {
        (Some(value), _) => value,
        (None, Some(value @ Value::Str(_))) => value,
        _ => return None,
    };
    match value {
        Value::Str(name) => Some(name.clone()),
        Value::Name(constant) if call.scope.is_empty() => {
            module_constant(facts, constant, call.line)
        }
        _ => None,
    }
}

/// The string a module-level constant holds at `line`, when the rules
/// above make it known.
fn module_constant(facts: &ModuleFacts, name: &str, line: u32) -> Option<String> {
    let bindings: Vec<_> = facts
        .module_bindings
        .iter()
        .filter(|b| b.name == name)
        .collect();
    let [binding] = bindings.as_slice() else {
        return None;
    };
    if binding.kind != BindingKind::Assignment
        || binding.conditional
        || binding.type_checking
        || binding.line >= line
        || facts
            .functions
            .iter()
            .any(|f| f.globals.iter().any(|g| g == name))
    {
        return None;
    }
    match binding.value.as_ref()? {
        Value::Str(text) => Some(text.clone()),
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
        agent_name(&facts, call)
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
