//! Repository subclasses of a framework's agent class that only add
//! parameters of their own (issue 20's "pass-through subclasses"):
//! `class TracedAgent(Agent): def __init__(self, tracer, level=1,
//! **kwargs): super().__init__(**kwargs)`. A construction of one is read
//! as the base-class construction it makes, `base_call`.
//!
//! The rule that makes it sound: the class is defined once at module
//! level on one base, with no metaclass and no decorator but
//! `dataclass`; nothing in its code spells a capability field or a method
//! that returns or finds one (`tools`, `get_all_tools`, ADK
//! `canonical_tools`, `find_agent`…) or an object hook that reaches
//! attributes by a computed name (`__setattr__`, `__getattr__`,
//! `__dict__`…), so it never reads, stores or changes them; no method is
//! decorated but by `property`/`staticmethod`/`classmethod` or a marker
//! (`typing.override`) (pydantic validators rewrite fields without a
//! store) and none calls `setattr`/`delattr`/`vars` or a computed
//! `getattr`; and its `__init__`, if it has one, calls `super().__init__`
//! once, passing only `keyword=parameter` pairs, `keyword=constant` pairs
//! and its own `**` parameter, each parameter used nowhere else and never
//! rebound. Then the base class receives exactly the keywords the call
//! gives those parameters (or their constant defaults), the constants,
//! and the ones the `**` parameter collects. Other methods may run code
//! (`model_post_init`, helpers, callbacks): spelling no capability field
//! and reaching no attribute by a computed name, they cannot change one
//! (a change through another object is a store the census names). The
//! run methods of an ADK agent are the framework's own rule
//! (`custom_agents.rs`). Anything else leaves the class unread, and the
//! reason is named.

use super::class_rules::{
    is_dataclass_decorator, module_level_on_one_base, plain_methods, spells_any,
};
use crate::pyrepr::str_repr;
use crate::python::call_binding::bind_collecting;
use crate::python::{BindingKind, CallFact, ClassFact, FunctionFact, KeywordFact, ModuleFacts};
use crate::python::{ParamFact, ParamKind, Value};

/// Names a pass-through class's code may not spell: the capability fields,
/// the methods that return or copy them, and the hooks that could change
/// them without a store the reader sees.
const CAPABILITY_MEMBERS: &[&str] = &[
    "tools",
    "handoffs",
    "mcp_servers",
    "mcp_config",
    "sub_agents",
    "get_all_tools",
    "get_mcp_tools",
    "canonical_tools",
    "clone",
    "find_agent",
    "find_sub_agent",
    "__new__",
    "__setattr__",
    "__getattr__",
    "__getattribute__",
    "__init_subclass__",
    "__dict__",
    "__class__",
];

/// A subclass read as its base class at its constructions.
#[derive(Debug, Clone, PartialEq)]
pub struct PassThrough {
    /// How the class's own `__init__` hands its arguments on; `None` when
    /// it inherits the base class's.
    init: Option<Forwarding>,
}

#[derive(Debug, Clone, PartialEq)]
struct Forwarding {
    /// The parameters after `self`.
    params: Vec<ParamFact>,
    /// `keyword=parameter` pairs the base class receives.
    keywords: Vec<ForwardedKeyword>,
    /// Whether the base class receives what the `**` parameter collects.
    spreads: bool,
}

#[derive(Debug, Clone, PartialEq)]
struct ForwardedKeyword {
    keyword: String,
    given: Given,
}

/// What `__init__` passes the base class under a keyword.
#[derive(Debug, Clone, PartialEq)]
enum Given {
    /// One of its parameters, as the call binds it.
    Param(String),
    /// A constant it spells (`name="router"`).
    Constant(Value),
}

/// Whether `class` (of `facts`, deriving from an agent class) is a
/// pass-through subclass; else why not, as a clause ("it defines
/// `tools`").
pub fn pass_through(facts: &ModuleFacts, class: &ClassFact) -> Result<PassThrough, String> {
    module_level_on_one_base(class)?;
    if class
        .decorators
        .iter()
        .any(|d| !is_dataclass_decorator(facts, d))
    {
        return Err("it is decorated".into());
    }
    if let Some(member) = spells_any(class, CAPABILITY_MEMBERS) {
        return Err(format!("its code spells {}", str_repr(member)));
    }
    plain_methods(facts, class, CAPABILITY_MEMBERS)?;
    let inits = class
        .attributes
        .iter()
        .filter(|b| b.name == "__init__")
        .count();
    let init_name = format!("{}.__init__", class.qualname);
    let init = facts.functions.iter().find(|f| f.qualname == init_name);
    match (inits, init) {
        (0, _) => Ok(PassThrough { init: None }),
        (1, Some(init)) => forwarding(init).map(|f| PassThrough { init: Some(f) }),
        _ => Err("it binds __init__ more than once or not by a def".into()),
    }
}

/// How an `__init__` hands its arguments to the base class, when it only
/// passes its own parameters on.
fn forwarding(init: &FunctionFact) -> Result<Forwarding, String> {
    if !init.decorators.is_empty() {
        return Err("its __init__ is decorated".into());
    }
    let Some((receiver, params)) = init.params.split_first() else {
        return Err("its __init__ takes no self".into());
    };
    if !matches!(receiver.kind, ParamKind::Normal | ParamKind::PositionalOnly) {
        return Err("its __init__ takes no self".into());
    }
    let super_init = |call: &&crate::python::BodyCall| {
        super::class_rules::super_method(call) == Some("__init__")
    };
    let calls: Vec<_> = init.body().body_calls.iter().filter(super_init).collect();
    let [call] = calls.as_slice() else {
        return Err(format!(
            "its __init__ calls super().__init__ {} times",
            calls.len()
        ));
    };
    if init.body().body_calls.iter().any(|c| {
        !super_init(&c)
            && matches!(&c.callee, Value::Attribute(parts) if parts.last().is_some_and(|p| p == "__init__"))
    }) {
        return Err("its __init__ calls another __init__".into());
    }
    if !call.args.is_empty() {
        return Err("its __init__ passes positional arguments to the base class".into());
    }
    let mut keywords = Vec::new();
    let mut spreads = false;
    for (keyword, value) in &call.keywords {
        if let (Some(keyword), true) = (keyword, is_constant(value)) {
            keywords.push(ForwardedKeyword {
                keyword: keyword.to_string(),
                given: Given::Constant(value.clone()),
            });
            continue;
        }
        let Value::Name(param) = value else {
            return Err(format!(
                "its __init__ passes the base class {} computed",
                keyword
                    .as_deref()
                    .map_or("a ** mapping".to_string(), str_repr)
            ));
        };
        let kind = params
            .iter()
            .find(|p| p.name == *param)
            .map(|p| p.kind.clone());
        match (keyword, kind) {
            (Some(keyword), Some(ParamKind::Normal | ParamKind::KeywordOnly)) => {
                keywords.push(ForwardedKeyword {
                    keyword: keyword.to_string(),
                    given: Given::Param(param.to_string()),
                });
            }
            (None, Some(ParamKind::VarKeyword)) => spreads = true,
            _ => {
                return Err(format!(
                    "its __init__ passes the base class {}, not a parameter of its own",
                    str_repr(param)
                ))
            }
        }
        let uses = init.body().name_uses.get(param).copied().unwrap_or(0);
        let bindings = init
            .body()
            .locals
            .iter()
            .filter(|b| b.name == *param && b.kind != BindingKind::Parameter)
            .count();
        if uses != 1 || bindings != 0 {
            return Err(format!(
                "its __init__ uses {} besides passing it on",
                str_repr(param)
            ));
        }
    }
    Ok(Forwarding {
        params: params.to_vec(),
        keywords,
        spreads,
    })
}

impl PassThrough {
    /// The base-class construction `call` makes (callee, line, target,
    /// scope and guard kept; the arguments as the base class receives
    /// them), or why it cannot be read.
    pub fn base_call(&self, call: &CallFact) -> Result<CallFact, String> {
        let Some(init) = &self.init else {
            return Ok(call.clone());
        };
        let binding = bind_collecting(&init.params, &call.args, &call.keyword_pairs())?;
        // A keyword keeps the line the call spells it at.
        let line_of = |keyword: &str| {
            call.keyword(keyword)
                .map_or(call.line, |k: &KeywordFact| k.line)
        };
        let mut keywords = Vec::new();
        for forwarded in &init.keywords {
            let param = match &forwarded.given {
                Given::Param(param) => param,
                Given::Constant(value) => {
                    keywords.push(KeywordFact {
                        name: Some(forwarded.keyword.clone().into()),
                        value: value.clone(),
                        line: call.line,
                    });
                    continue;
                }
            };
            let Some(bound) = binding.bound.iter().find(|b| b.param == *param) else {
                return Err(format!("{} is not given", str_repr(param)));
            };
            if bound.from_default && !is_constant(&bound.value) {
                return Err(format!(
                    "the default of {} is not a constant",
                    str_repr(param)
                ));
            }
            keywords.push(KeywordFact {
                name: Some(forwarded.keyword.clone().into()),
                value: bound.value.clone(),
                line: line_of(param),
            });
        }
        if init.spreads {
            for (keyword, value) in &binding.collected_keywords {
                if init.keywords.iter().any(|f| f.keyword == *keyword) {
                    return Err(format!("{} is given twice", str_repr(keyword)));
                }
                keywords.push(KeywordFact {
                    name: Some(keyword.clone().into()),
                    value: value.clone(),
                    line: line_of(keyword),
                });
            }
        }
        Ok(CallFact {
            args: Vec::new(),
            keywords,
            ..call.clone()
        })
    }
}

fn is_constant(value: &Value) -> bool {
    matches!(
        value,
        Value::Str(_) | Value::Number(_) | Value::Bool(_) | Value::None
    )
}

#[cfg(test)]
mod tests;
