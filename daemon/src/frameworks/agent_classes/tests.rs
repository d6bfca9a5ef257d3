//! Which subclasses pass through, and the base-class call each makes.

use super::*;
use crate::python::extract_facts;

const HEADER: &str = "from dataclasses import dataclass\nfrom agents import Agent\n\n";

/// The class `name` of `source` (after `HEADER`), read as a pass-through.
fn read(source: &str, name: &str) -> (ModuleFacts, Result<PassThrough, String>) {
    let facts = extract_facts(format!("{HEADER}{source}").as_bytes());
    let class = facts.classes.iter().find(|c| c.name == name).cloned();
    let read = match &class {
        Some(class) => pass_through(&facts, class),
        None => Err("no class".into()),
    };
    (facts, read)
}

/// The keywords, as `name=value` spellings, of the base call the module's
/// last call makes.
fn base_keywords(facts: &ModuleFacts, pass: &PassThrough) -> Result<Vec<String>, String> {
    let call = facts.calls.last().ok_or("no call")?;
    let base = pass.base_call(call)?;
    assert!(base.args.is_empty() || pass.init.is_none());
    Ok(base
        .keywords
        .iter()
        .map(|k| {
            format!(
                "{}={}",
                k.name.as_deref().unwrap_or("**"),
                crate::graph::schema::unparse(&k.value)
            )
        })
        .collect())
}

#[test]
fn a_kwargs_forwarding_init_hands_the_base_what_it_does_not_take() {
    let (facts, pass) = read(
        "class Traced(Agent):\n    def __init__(self, tracer, level=1, **kwargs):\n        super().__init__(**kwargs)\n        self.tracer = tracer\n        self.level = level\n\nx = Traced(t, 2, name='n', tools=[a, b])\n",
        "Traced",
    );
    let pass = pass.expect("pass-through");
    assert_eq!(
        base_keywords(&facts, &pass),
        Ok(vec!["name='n'".to_string(), "tools=[a, b]".to_string()])
    );
}

#[test]
fn named_parameters_passed_through_take_the_call_or_a_constant_default() {
    let (facts, pass) = read(
        "class Named(Agent):\n    def __init__(self, name, tools, model='m', **rest):\n        super().__init__(name=name, tools=tools, model=model, **rest)\n\nx = Named('n', [a], handoffs=[h])\n",
        "Named",
    );
    let pass = pass.expect("pass-through");
    assert_eq!(
        base_keywords(&facts, &pass),
        Ok(vec![
            "name='n'".to_string(),
            "tools=[a]".to_string(),
            "model='m'".to_string(),
            "handoffs=[h]".to_string(),
        ])
    );
}

#[test]
fn without_an_init_the_call_is_the_base_call() {
    let (facts, pass) = read(
        "@dataclass\nclass Plain(Agent):\n    level: int = 1\n\nx = Plain(name='n', tools=[a])\n",
        "Plain",
    );
    let pass = pass.expect("pass-through");
    assert_eq!(
        base_keywords(&facts, &pass),
        Ok(vec!["name='n'".to_string(), "tools=[a]".to_string()])
    );
}

#[test]
fn a_call_the_init_cannot_bind_exactly_is_not_read() {
    let (facts, pass) = read(
        "class Traced(Agent):\n    def __init__(self, tracer, **kwargs):\n        super().__init__(**kwargs)\n\nx = Traced(**opts)\n",
        "Traced",
    );
    let pass = pass.expect("pass-through");
    assert_eq!(
        base_keywords(&facts, &pass),
        Err("the call unpacks its arguments".to_string())
    );
    let (facts, pass) = read(
        "class Named(Agent):\n    def __init__(self, tools=DEFAULT, **kwargs):\n        super().__init__(tools=tools, **kwargs)\n\nx = Named(name='n')\n",
        "Named",
    );
    let pass = pass.expect("pass-through");
    assert_eq!(
        base_keywords(&facts, &pass),
        Err("the default of 'tools' is not a constant".to_string())
    );
}

/// Each condition of the rule, failed once: the reason names it.
#[test]
fn a_subclass_that_could_change_its_capabilities_is_not_a_pass_through() {
    let cases = [
        ("class C(Agent):\n    tools = [extra]\n", "its code spells 'tools'"),
        (
            "class C(Agent):\n    def get_all_tools(self, ctx):\n        return []\n",
            "its code spells 'get_all_tools'",
        ),
        (
            "class C(Agent):\n    def __init__(self, **kwargs):\n        super().__init__(**kwargs)\n        self.tools.append(extra)\n",
            "its code spells 'tools'",
        ),
        (
            "class C(Agent):\n    def __init__(self, **kwargs):\n        kwargs.setdefault('model', 'm')\n        super().__init__(**kwargs)\n",
            "its __init__ uses 'kwargs' besides passing it on",
        ),
        (
            "class C(Agent):\n    def __init__(self, tools, **kwargs):\n        tools = tools + [extra]\n        super().__init__(tools=tools, **kwargs)\n",
            "its __init__ uses 'tools' besides passing it on",
        ),
        (
            "class C(Agent):\n    def __init__(self, tools, **kwargs):\n        super().__init__(tools=list(tools), **kwargs)\n",
            "its __init__ passes the base class 'tools' computed",
        ),
        (
            "class C(Agent):\n    def __init__(self, name, **kwargs):\n        super().__init__(name, **kwargs)\n",
            "its __init__ passes positional arguments to the base class",
        ),
        (
            "class C(Agent):\n    def __init__(self, **kwargs):\n        pass\n",
            "its __init__ calls super().__init__ 0 times",
        ),
        (
            "class C(Agent):\n    @model_validator\n    def check(self):\n        return self\n",
            "its method 'check' is decorated",
        ),
        (
            "class C(Agent):\n    def set(self, field, value):\n        setattr(self, field, value)\n",
            "its method 'set' calls setattr at line 6",
        ),
        ("@register\nclass C(Agent):\n    pass\n", "it is decorated"),
        (
            "class C(Agent, Mixin):\n    pass\n",
            "it has more than one base class",
        ),
        (
            "class C(Agent, metaclass=Meta):\n    pass\n",
            "its class statement passes metaclass",
        ),
        (
            "def make():\n    class C(Agent):\n        pass\n    return C\n",
            "it is defined inside a function or class",
        ),
    ];
    for (source, why) in cases {
        let (_, pass) = read(source, "C");
        assert_eq!(pass, Err(why.to_string()), "{source}");
    }
}
