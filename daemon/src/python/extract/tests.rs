use super::*;

const AGENT: &str = r#"from agents import Agent, function_tool
import agents.extensions as ext


@function_tool
def lookup(order_id: str, *, limit: int = 3) -> dict:
    """Doc."""
    return {}


support = Agent(name="Support", tools=[lookup, ext.helper])

if True:
    maybe = 1
"#;

#[test]
fn imports_functions_and_constructions_are_facts() {
    let facts = extract_facts(AGENT.as_bytes());
    assert_eq!(facts.syntax_error, None);
    assert_eq!(facts.imports.len(), 3);
    assert_eq!(facts.imports[0].module, "agents");
    assert_eq!(facts.imports[0].name.as_deref(), Some("Agent"));
    assert_eq!(facts.imports[2].bound_name(), "ext");
    assert_eq!(facts.imports[2].line, 2);

    let lookup = &facts.functions[0];
    assert_eq!(lookup.name, "lookup");
    assert_eq!(lookup.line, 6, "the def line, not the decorator's");
    assert!(lookup.module_level);
    assert_eq!(lookup.decorators, vec![Value::Name("function_tool".into())]);
    assert_eq!(lookup.params.len(), 2);
    assert_eq!(lookup.params[1].kind, ParamKind::KeywordOnly);
    assert!(lookup.params[1].has_default);
    assert_eq!(lookup.returns, Some(Value::Name("dict".into())));

    let call = &facts.calls[0];
    assert_eq!(call.callee, Value::Name("Agent".into()));
    assert_eq!(call.assigned_to.as_deref(), Some("support"));
    assert_eq!(call.line, 11);
    assert_eq!(call.scope, "");
    assert_eq!(
        call.keyword("tools").map(|k| &k.value),
        Some(&Value::List(vec![
            Value::Name("lookup".into()),
            Value::Attribute(vec!["ext".into(), "helper".into()]),
        ]))
    );

    let maybe = facts.module_bindings.iter().find(|b| b.name == "maybe");
    assert_eq!(maybe.map(|b| b.conditional), Some(true));
    let support = facts.module_bindings.iter().find(|b| b.name == "support");
    assert_eq!(support.map(|b| b.conditional), Some(false));
}

#[test]
fn syntax_errors_are_facts_not_failures() {
    let facts = extract_facts(b"def (:\n");
    assert!(facts.syntax_error.is_some());
    assert!(facts.functions.is_empty());
    let facts = extract_facts(&[0xff, 0xfe, 0x00]);
    assert!(facts.syntax_error.is_some());
}

#[test]
fn nested_functions_carry_qualified_names() {
    let facts = extract_facts(b"def build():\n    def inner():\n        pass\n    return Agent(name='x', tools=[inner])\n");
    assert_eq!(facts.functions[1].qualname, "build.inner");
    assert!(!facts.functions[1].module_level);
    assert_eq!(facts.calls[0].scope, "build");
    assert_eq!(facts.calls[0].assigned_to, None);
}

#[test]
fn with_targets_and_handler_names_are_bindings() {
    let facts = extract_facts(
            b"async def main():\n    async with Server(url='u') as s, open('f') as (a, b):\n        pass\n    try:\n        pass\n    except ValueError as err:\n        pass\n",
        );
    let locals: Vec<(&str, BindingKind, bool)> = facts.functions[0]
        .body()
        .locals
        .iter()
        .map(|b| (b.name.as_str(), b.kind, b.conditional))
        .collect();
    assert_eq!(
        locals,
        vec![
            ("s", BindingKind::With, false),
            ("a", BindingKind::Other, false),
            ("b", BindingKind::Other, false),
            ("err", BindingKind::Other, true),
        ]
    );
    assert!(matches!(
        &facts.functions[0].body().locals[0].value,
        Some(Value::Call { callee, .. }) if **callee == Value::Name("Server".into())
    ));
}

#[test]
fn dicts_and_fstrings_keep_their_structure() {
    let facts = extract_facts(b"x = {'url': f'https://{host}/v1', **extra}\n");
    let value = facts.module_bindings[0].value.clone();
    assert_eq!(
        value,
        Some(Value::Dict(vec![
            (
                Some(Value::Str("url".into())),
                Value::FString(vec![
                    Value::Str("https://".into()),
                    Value::Name("host".into()),
                    Value::Str("/v1".into()),
                ])
            ),
            (None, Value::Name("extra".into())),
        ]))
    );
}

/// What a class body binds is kept on the class (issue 20 reads it: a
/// subclass that redefines `tools` or `get_all_tools` is no pass-through),
/// and never leaks into the module's or a function's names.
#[test]
fn a_class_body_binds_its_attributes_and_methods() {
    let facts = extract_facts(
        b"from agents import Agent\n\nclass Traced(Agent):\n    tools = []\n    level: int = 1\n\n    def get_all_tools(self):\n        found = 1\n        return []\n\n    class Meta:\n        kind = 'x'\n\ndef build():\n    class Local:\n        handoffs = []\n    return Local\n",
    );
    let attributes = |qualname: &str| -> Vec<(String, BindingKind)> {
        facts
            .classes
            .iter()
            .find(|c| c.qualname == qualname)
            .map(|c| {
                c.attributes
                    .iter()
                    .map(|b| (b.name.to_string(), b.kind))
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        attributes("Traced"),
        vec![
            ("tools".to_string(), BindingKind::Assignment),
            ("level".to_string(), BindingKind::Assignment),
            ("get_all_tools".to_string(), BindingKind::Function),
            ("Meta".to_string(), BindingKind::Class),
        ]
    );
    assert_eq!(
        attributes("Traced.Meta"),
        vec![("kind".to_string(), BindingKind::Assignment)]
    );
    assert_eq!(
        attributes("build.Local"),
        vec![("handoffs".to_string(), BindingKind::Assignment)]
    );
    // A method's locals stay the method's; the module binds the class.
    let method = facts
        .functions
        .iter()
        .find(|f| f.qualname == "Traced.get_all_tools")
        .map(|f| {
            f.body()
                .locals
                .iter()
                .map(|b| b.name.to_string())
                .collect::<Vec<_>>()
        });
    assert_eq!(method, Some(vec!["self".to_string(), "found".to_string()]));
    assert!(!facts.module_bindings.iter().any(|b| b.name == "tools"));
    let build = facts.functions.iter().find(|f| f.qualname == "build");
    assert!(build.is_some_and(|f| !f.body().locals.iter().any(|b| b.name == "handoffs")));
}

/// A class keeps its decorators, its statement's keywords and every
/// attribute name its code spells, methods and nested definitions
/// included, stores and reads alike: what proves a subclass never touches
/// an agent's `tools`.
#[test]
fn a_class_keeps_decorators_keywords_and_the_attributes_its_code_spells() {
    let facts = extract_facts(
        b"from dataclasses import dataclass\n\n@dataclass\nclass Traced(Base, metaclass=Meta):\n    def __init__(self, tracer, **kwargs):\n        super().__init__(**kwargs)\n        self.tracer = tracer\n\n    def run(self):\n        def inner():\n            return self.tools.copy()\n        return inner\n\nclass Plain:\n    pass\n\nx = other.handoffs\n",
    );
    let traced = facts.classes.iter().find(|c| c.name == "Traced");
    assert_eq!(
        traced.map(|c| c.decorators.clone()),
        Some(vec![Value::Name("dataclass".into())])
    );
    assert_eq!(
        traced.map(|c| c.keywords.clone()),
        Some(vec![Text::from("metaclass")])
    );
    assert_eq!(
        traced.map(|c| {
            c.attribute_names
                .iter()
                .map(|(name, count)| (name.to_string(), count))
                .collect::<Vec<_>>()
        }),
        Some(vec![
            ("__init__".to_string(), 1),
            ("copy".to_string(), 1),
            ("tools".to_string(), 1),
            ("tracer".to_string(), 1),
        ])
    );
    // Code outside a class is no class's.
    let plain = facts.classes.iter().find(|c| c.name == "Plain");
    assert_eq!(plain.map(|c| c.attribute_names.len()), Some(0));
}

/// The `self.X` uses that only read (`SelfRead`): with the callee an
/// argument goes to, none for other places; nothing inside a recorded
/// call (a construction's arguments are the value model's), nothing that
/// aliases or calls a method on the attribute.
#[test]
fn self_reads_are_the_uses_that_only_read_an_attribute() {
    let facts = extract_facts(
        b"class C:\n    def f(self):\n        log.info(\"%s\", self.a)\n        if self.b and not self.c:\n            return f\"{self.d}\" + \"%s\" % (self.e,)\n        for t in self.g:\n            print([x for x in self.h], self.i == 1, 2 in self.j)\n        Agent(tools=self.k, name=len(self.l))\n        alias = self.m\n        self.n.append(1)\n        return \"{}\".format(self.o)\n",
    );
    let reads: Vec<(String, Option<String>)> = facts.classes[0]
        .self_reads
        .iter()
        .map(|r| {
            (
                r.attribute.to_string(),
                r.via.as_ref().map(|v| v.to_string()),
            )
        })
        .collect();
    let mut reads = reads;
    reads.sort();
    let read = |a: &str, via: Option<&str>| (a.to_string(), via.map(str::to_string));
    assert_eq!(
        reads,
        vec![
            read("a", Some("log.info")),
            read("b", None),
            read("c", None),
            read("d", None),
            read("e", None),
            read("g", None),
            read("h", None),
            read("i", None),
            read("j", None),
            read("o", Some("str.format")),
        ]
    );
}

#[test]
fn a_loop_appending_each_item_of_a_display_is_recorded_as_its_extend() {
    let source = "def get_tools():\n    tools = [a]\n    for tool in (b, c):\n        log(tool)\n        tools.append(tool)\n    return tools\n";
    let facts = extract_facts(source.as_bytes());
    let [addition] = facts.list_additions.as_slice() else {
        panic!("one addition: {:?}", facts.list_additions);
    };
    assert_eq!(addition.how, "extend");
    assert_eq!(addition.line, 5);
    assert!(!addition.conditional, "{addition:?}");
    assert_eq!(addition.guard, Some(Vec::new()));
}
