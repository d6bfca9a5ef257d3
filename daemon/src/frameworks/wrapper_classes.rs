//! Agents a repository class builds from what its `__init__` stores
//! (issue 20's "wrapper classes"): `class CustomAgent: def __init__(self,
//! name, tools=None): self.name = name; self.tools = tools or []` … `def
//! respond(self): return Agent(name=self.name, tools=self.tools)`. Here,
//! the module's half of the rule: the construction rewritten as the
//! class's `__init__` would spell it (`Agent(name=name, tools=tools or
//! [])`, read in `CustomAgent.__init__`), so each instantiation's frame
//! (the graph layer's half, `graph/build/wrapper_agents.rs`) reads it as
//! one agent.
//!
//! Sound, for the module, when:
//! - the class is a plain module-level class: no base, metaclass or
//!   decorator, no hook that could answer for an attribute (`__getattr__`,
//!   `__setattr__`, `__new__`…), nothing spelling `__dict__`, no method
//!   decorated but by `property`/`staticmethod`/`classmethod`, and no
//!   `setattr`/`delattr`/`vars` or computed `getattr` in its code;
//! - the construction is in one of its methods, or its `__init__`;
//! - each `self.X` it reads is stored by `__init__` exactly once,
//!   unconditionally (before the construction when that is in `__init__`),
//!   from the parameters, module names and literals only, the class body
//!   binds no `X`, and the class's code spells `X` twice (that store and
//!   that read) besides uses that only read its value (issue 41, item 1:
//!   `read_only_reads`, logged, formatted, compared, iterated): no other
//!   method stores, changes or hands out the attribute;
//! - every other name the construction reads is one neither its method nor
//!   `__init__` binds locally, so it means the same read from `__init__`;
//! - a keyword that carries no binding (`DESCRIPTIVE_KEYWORDS`: the model,
//!   its instructions, descriptions, output) is not read at all: what it
//!   reads of `self` never blocks the rule, and nothing compares it.

use super::class_rules::{plain_methods, spells_any};
use crate::pyrepr::str_repr;
use crate::python::READ_ONLY_BUILTINS;
use crate::python::{BindingKind, CallFact, ClassFact, FunctionFact, KeywordFact, ModuleFacts};
use crate::python::{Comprehension, StoredUnder, Value};

/// Hooks that could answer for or change any attribute.
const ATTRIBUTE_HOOKS: &[&str] = &[
    "__getattr__",
    "__getattribute__",
    "__setattr__",
    "__delattr__",
    "__new__",
    "__init_subclass__",
    "__dict__",
    "__class__",
];

/// Keywords of an agent construction that carry no binding, setting or
/// gate: what the model is told or which model runs (issue 41, item 1).
/// A wrapper class's construction is read without them, so what they read
/// of `self` never blocks it; their values are not part of any row.
pub const DESCRIPTIVE_KEYWORDS: &[&str] = &[
    "model",
    "instructions",
    "instruction",
    "global_instruction",
    "description",
    "handoff_description",
    "output_type",
    "output_schema",
    "output_key",
    "generate_content_config",
];

/// What a descriptive keyword's value is rewritten as: present, not read.
const NOT_READ: &str = "a descriptive keyword, not read";

/// How deep a construction's argument is walked for `self.X` and names.
const MAX_DEPTH: usize = 16;

/// A construction a wrapper class makes, as its `__init__` spells it.
#[derive(Debug, Clone, PartialEq)]
pub struct WrapperConstruction {
    /// The class (module level, so its name is its qualified name).
    pub class: String,
    /// The construction with each `self.X` replaced by what `__init__`
    /// stores there, its scope `Class.__init__`.
    pub call: CallFact,
    /// `__init__` without its `self`: the function each instantiation
    /// binds its arguments to.
    pub init: FunctionFact,
    /// The attributes the construction reads (`tools`, `name`).
    pub attributes: Vec<String>,
    /// The method the construction is written in (`CustomAgent.build`;
    /// `__init__`'s own name when it is written there).
    pub method: String,
}

/// Whether `call` (of `facts`) is a construction in a method of a plain
/// module-level class that reads what its `__init__` stores: `None` when
/// it is not written in such a class or reads neither an attribute of
/// `self` nor a parameter of `__init__`; else the construction as
/// `__init__` spells it, or why it cannot be read that way.
pub fn wrapper_construction(
    facts: &ModuleFacts,
    call: &CallFact,
) -> Option<Result<WrapperConstruction, String>> {
    let (class_name, method_name) = call.scope.split_once('.')?;
    if method_name.contains('.') {
        return None;
    }
    let class = facts.classes.iter().find(|c| c.qualname == class_name)?;
    let init_name = format!("{class_name}.__init__");
    let init = facts.functions.iter().find(|f| f.qualname == init_name)?;
    let method = facts.functions.iter().find(|f| f.qualname == call.scope)?;
    let mut reads = Reads::default();
    for value in call.args.iter().chain(
        call.keywords
            .iter()
            .filter(|k| !is_descriptive(k))
            .map(|k| &k.value),
    ) {
        reads.collect(value, 0);
    }
    let params: Vec<&str> = init
        .params
        .iter()
        .skip(1)
        .map(|p| p.name.as_str())
        .collect();
    let in_init = method.qualname == init.qualname;
    let uses_init = !reads.attributes.is_empty()
        || (in_init && reads.names.iter().any(|n| params.contains(&n.as_str())));
    if !uses_init {
        return None;
    }
    Some(rewrite(facts, class, init, method, call, &reads))
}

fn rewrite(
    facts: &ModuleFacts,
    class: &ClassFact,
    init: &FunctionFact,
    method: &FunctionFact,
    call: &CallFact,
    reads: &Reads,
) -> Result<WrapperConstruction, String> {
    plain_class(facts, class)?;
    if reads.too_deep {
        return Err("its arguments are nested too deep to read".into());
    }
    if let Some(why) = &reads.unread {
        return Err(why.clone());
    }
    if !init.decorators.is_empty() || init.is_async || init.is_generator {
        return Err("its __init__ is decorated, async or a generator".into());
    }
    let in_init = method.qualname == init.qualname;
    // Another name the construction reads must mean what it means in
    // `__init__`: no local of the method or of `__init__` shadows it.
    for name in &reads.names {
        let local_of = |f: &FunctionFact| f.binds_local(name);
        if name == "self" {
            return Err("it passes self itself".into());
        }
        if !in_init && (local_of(method) || local_of(init)) {
            return Err(format!(
                "it reads {}, a local name of its method",
                str_repr(name)
            ));
        }
    }
    let mut stored = Vec::new();
    for attribute in &reads.attributes {
        stored.push((
            attribute.clone(),
            stored_value(
                class,
                init,
                call,
                attribute,
                descriptive_reads(call, attribute) + read_only_reads(facts, class, attribute),
            )?,
        ));
    }
    let substitute = |value: &Value| substitute(value, &stored, 0);
    let keywords = call
        .keywords
        .iter()
        .map(|k| KeywordFact {
            name: k.name.clone(),
            value: match is_descriptive(k) {
                true => Value::Other(NOT_READ.into()),
                false => substitute(&k.value),
            },
            line: k.line,
        })
        .collect();
    let mut init_without_self = init.clone();
    if !init_without_self.params.is_empty() {
        init_without_self.params.remove(0);
    }
    Ok(WrapperConstruction {
        class: class.name.to_string(),
        call: CallFact {
            args: call.args.iter().map(substitute).collect(),
            keywords,
            scope: init.qualname.clone(),
            ..call.clone()
        },
        init: init_without_self,
        attributes: reads.attributes.clone(),
        method: method.qualname.to_string(),
    })
}

/// How many times the construction's descriptive keywords spell
/// `self.<attribute>` (as the start of a chain).
fn descriptive_reads(call: &CallFact, attribute: &str) -> usize {
    fn spelled(value: &Value, attribute: &str, depth: usize) -> usize {
        if depth > MAX_DEPTH {
            return 0;
        }
        match value {
            Value::Attribute(parts) => {
                usize::from(parts.len() >= 2 && parts[0] == "self" && parts[1] == attribute)
            }
            other => children(other)
                .into_iter()
                .map(|child| spelled(child, attribute, depth + 1))
                .sum(),
        }
    }
    call.keywords
        .iter()
        .filter(|k| is_descriptive(k))
        .map(|k| spelled(&k.value, attribute, 0))
        .sum()
}

fn is_descriptive(keyword: &KeywordFact) -> bool {
    keyword
        .name
        .as_deref()
        .is_some_and(|name| DESCRIPTIVE_KEYWORDS.contains(&name))
}

/// The class conditions of the rule.
fn plain_class(facts: &ModuleFacts, class: &ClassFact) -> Result<(), String> {
    if class.qualname != class.name {
        return Err("the class is defined inside a function or class".into());
    }
    let object_only = class
        .bases
        .iter()
        .all(|b| *b == Value::Name("object".into()));
    if !object_only || !class.keywords.is_empty() {
        return Err("the class has a base class or metaclass".into());
    }
    if !class.decorators.is_empty() {
        return Err("the class is decorated".into());
    }
    if let Some(hook) = spells_any(class, ATTRIBUTE_HOOKS) {
        return Err(format!("the class's code spells {}", str_repr(hook)));
    }
    plain_methods(facts, class, &[]).map_err(|why| format!("in the class, {why}"))
}

/// The `self.attribute` uses of the class that only read its value: an
/// f-string field, a comparison's or a truth test's operand, an iterable,
/// a `%`/`str.format` operand, or an argument of a builtin that only reads
/// (`len`, `print`, `str`…, where neither the module nor a method binds
/// such a name) or of a method of the module's `logging.getLogger(...)`
/// logger. Every other use
/// (an alias, a call that could keep or change it, a method called on it)
/// stays outside the count, so the rule does not hold.
fn read_only_reads(facts: &ModuleFacts, class: &ClassFact, attribute: &str) -> usize {
    // A name a method binds (a parameter `print`, a local `logger`) is not
    // the module's.
    let methods = super::class_rules::methods(facts, class);
    let local = |name: &str| methods.iter().any(|m| m.binds_local(name));
    let read_only = |via: &str| {
        !local(via.split('.').next().unwrap_or(via))
            && match via.split_once('.') {
                None => {
                    (READ_ONLY_BUILTINS.contains(&via)
                        || super::custom_agents::INERT_BUILTINS.contains(&via))
                        && !facts.module_bindings_named(via).any(|b| b.name == via)
                }
                Some(("str", "format")) => true,
                Some((logger, method)) => {
                    super::custom_agents::LOGGER_METHODS.contains(&method)
                        && super::custom_agents::is_module_logger(facts, logger)
                }
            }
    };
    class
        .self_reads
        .iter()
        .filter(|r| r.attribute == attribute && r.via.as_deref().is_none_or(read_only))
        .count()
}

/// What `__init__` stores in `self.attribute`, read from `__init__`.
fn stored_value(
    class: &ClassFact,
    init: &FunctionFact,
    call: &CallFact,
    attribute: &str,
    descriptive: usize,
) -> Result<Value, String> {
    let spelled = format!("self.{attribute}");
    if class.attributes.iter().any(|b| b.name == attribute) {
        return Err(format!("the class body binds {}", str_repr(attribute)));
    }
    let stores: Vec<_> = init
        .body()
        .stores
        .iter()
        .filter(|s| {
            s.object == ["self"] && matches!(&s.under, StoredUnder::Attribute(a) if a == attribute)
        })
        .collect();
    let [store] = stores.as_slice() else {
        return Err(format!(
            "its __init__ stores {spelled} {} times",
            stores.len()
        ));
    };
    if store.conditional {
        return Err(format!("its __init__ stores {spelled} conditionally"));
    }
    if call.scope == init.qualname && store.line >= call.line {
        return Err(format!("{spelled} is stored after the construction"));
    }
    // Its store, its read, reads in this construction's descriptive
    // keywords (each counted where the value model shows it; one it hides
    // leaves the count short, and the rule does not hold), and reads that
    // only read it elsewhere in the class (`read_only_reads`).
    let expected = u32::try_from(descriptive)
        .ok()
        .and_then(|d| d.checked_add(2));
    if class.attribute_names.get(attribute).copied() != expected {
        return Err(format!(
            "the class's code uses .{attribute} other than storing it once and reading what it holds"
        ));
    }
    let mut reads = Reads::default();
    reads.collect(&store.value, 0);
    if !reads.attributes.is_empty() || reads.unread.is_some() || reads.too_deep {
        return Err(format!(
            "{spelled} is stored from something other than parameters and names"
        ));
    }
    let params: Vec<&str> = init.params.iter().map(|p| p.name.as_str()).collect();
    if let Some(local) = reads.names.iter().find(|name| {
        !params.contains(&name.as_str())
            && init
                .body()
                .locals
                .iter()
                .any(|b| b.name == **name && b.kind != BindingKind::Parameter)
    }) {
        return Err(format!(
            "{spelled} is stored from {}, a local name of __init__",
            str_repr(local)
        ));
    }
    Ok(store.value.clone())
}

/// The `self.X` attributes and the other names a value reads.
#[derive(Default)]
struct Reads {
    attributes: Vec<String>,
    names: Vec<String>,
    /// A use of `self` the rule does not read (`self.a.b`, `self[0]`).
    unread: Option<String>,
    too_deep: bool,
}

impl Reads {
    fn collect(&mut self, value: &Value, depth: usize) {
        if depth > MAX_DEPTH {
            self.too_deep = true;
            return;
        }
        match value {
            Value::Attribute(parts) if parts.first().is_some_and(|p| p == "self") => {
                match parts.as_slice() {
                    [_, attribute] => {
                        if !self.attributes.iter().any(|known| known == attribute) {
                            self.attributes.push(attribute.to_string());
                        }
                    }
                    _ => {
                        self.unread = Some(format!("it reads {}", parts.join(".")));
                    }
                }
            }
            Value::Attribute(parts) => {
                if let Some(head) = parts.first() {
                    self.name(head);
                }
            }
            Value::Name(name) => self.name(name),
            other => {
                for child in children(other) {
                    self.collect(child, depth + 1);
                }
            }
        }
    }

    fn name(&mut self, name: &str) {
        if !self.names.iter().any(|n| n == name) {
            self.names.push(name.to_string());
        }
    }
}

/// The values directly inside a value.
fn children(value: &Value) -> Vec<&Value> {
    match value {
        Value::List(items) | Value::Tuple(items) | Value::Set(items) | Value::Union(items) => {
            items.iter().collect()
        }
        Value::Or(items) | Value::FString(items) => items.iter().collect(),
        Value::Starred(inner) => vec![inner.as_ref()],
        Value::Call {
            callee,
            args,
            keywords,
        } => std::iter::once(callee.as_ref())
            .chain(args)
            .chain(keywords.iter().map(|(_, v)| v))
            .collect(),
        Value::Subscript { base, index } => std::iter::once(base.as_ref()).chain(index).collect(),
        Value::Dict(entries) => entries
            .iter()
            .flat_map(|(k, v)| k.iter().chain(std::iter::once(v)))
            .collect(),
        Value::ListComprehension(comprehension) => {
            let Comprehension {
                element,
                target,
                iter,
                conditions,
            } = comprehension.as_ref();
            [element, target, iter]
                .into_iter()
                .chain(conditions)
                .collect()
        }
        Value::IfElse { test, body, orelse } => vec![test.as_ref(), body.as_ref(), orelse.as_ref()],
        Value::Add { left, right } => vec![left.as_ref(), right.as_ref()],
        Value::BinOp { left, right, .. } | Value::Compare { left, right, .. } => {
            vec![left.as_ref(), right.as_ref()]
        }
        _ => Vec::new(),
    }
}

/// `value` with each `self.X` replaced by what `__init__` stores there.
fn substitute(value: &Value, stored: &[(String, Value)], depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return Value::Other("nested too deep".into());
    }
    let again = |v: &Value| substitute(v, stored, depth + 1);
    let boxed = |v: &Value| Box::new(substitute(v, stored, depth + 1));
    match value {
        Value::Attribute(parts) => match parts.as_slice() {
            [head, attribute] if head == "self" => stored
                .iter()
                .find(|(a, _)| a == attribute)
                .map_or_else(|| value.clone(), |(_, v)| v.clone()),
            _ => value.clone(),
        },
        Value::List(items) => Value::List(items.iter().map(again).collect()),
        Value::Tuple(items) => Value::Tuple(items.iter().map(again).collect()),
        Value::Set(items) => Value::Set(items.iter().map(again).collect()),
        Value::Union(items) => Value::Union(items.iter().map(again).collect()),
        Value::Or(items) => Value::Or(items.iter().map(again).collect()),
        Value::FString(items) => Value::FString(items.iter().map(again).collect()),
        Value::Starred(inner) => Value::Starred(boxed(inner)),
        Value::Call {
            callee,
            args,
            keywords,
        } => Value::Call {
            callee: boxed(callee),
            args: args.iter().map(again).collect(),
            keywords: keywords
                .iter()
                .map(|(k, v)| (k.clone(), again(v)))
                .collect(),
        },
        Value::Subscript { base, index } => Value::Subscript {
            base: boxed(base),
            index: index.iter().map(again).collect(),
        },
        Value::Dict(entries) => Value::Dict(
            entries
                .iter()
                .map(|(k, v)| (k.as_ref().map(&again), again(v)))
                .collect(),
        ),
        Value::ListComprehension(comprehension) => {
            let Comprehension {
                element,
                target,
                iter,
                conditions,
            } = comprehension.as_ref();
            Value::ListComprehension(Box::new(Comprehension {
                element: again(element),
                target: again(target),
                iter: again(iter),
                conditions: conditions.iter().map(again).collect(),
            }))
        }
        Value::IfElse { test, body, orelse } => Value::IfElse {
            test: boxed(test),
            body: boxed(body),
            orelse: boxed(orelse),
        },
        Value::Add { left, right } => Value::Add {
            left: boxed(left),
            right: boxed(right),
        },
        Value::BinOp { left, op, right } => Value::BinOp {
            left: boxed(left),
            op: *op,
            right: boxed(right),
        },
        Value::Compare { left, op, right } => Value::Compare {
            left: boxed(left),
            op: *op,
            right: boxed(right),
        },
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests;
