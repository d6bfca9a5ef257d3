//! The census of constructions no reader follows, each a named limit so
//! that silence never hides one: an agent's capability fields changed
//! after construction (unless `rewires.rs` reads the change as a binding),
//! subclasses of an agent class, copies of an agent, and a tool defined
//! twice in one module. Also whether a construction keeps its capability
//! fields apart (`fields_kept_apart`), so a gap can be confined to one.

use super::{rewires, Framework, SourceFile};
use crate::frameworks::{adk, openai};
use crate::graph::{Field, Gap};
use crate::pyrepr::str_repr;
use crate::python::{BindingKind, ModuleFacts, StoreKind, Value};
use crate::resolve::{ModuleSet, Resolver};
use std::collections::{BTreeMap, BTreeSet};

/// The capability fields of an SDK agent: a write to one after
/// construction changes what the agent binds.
const CAPABILITY_FIELDS: &[&str] = &["tools", "handoffs", "mcp_servers", "sub_agents"];

/// An agent a module binds to a plain variable, as `capability_limits`
/// names it.
#[derive(Clone)]
struct KnownAgent<'f> {
    line: u32,
    identity: String,
    /// How messages name it ("OpenAI Agents SDK agent").
    label: &'static str,
    /// Its construction keeps its capability fields apart.
    fields_apart: bool,
    /// The construction and its module, for the rewires read as
    /// bindings.
    call: &'f crate::python::CallFact,
    facts: &'f ModuleFacts,
}

/// Constructions this reader does not follow, each a named limit so that
/// silence never hides them: capabilities changed after construction,
/// subclasses of `Agent`, and copies of an agent.
pub(super) fn capability_limits<'m>(
    modules: &ModuleSet<'m>,
    contexts: &super::module_contexts::ModuleContexts,
    rewire_index: &rewires::RewireIndex<'m>,
    files: &[SourceFile],
    gaps: &mut BTreeSet<Gap>,
) {
    // Agents assigned to a plain variable, by (module, variable): the
    // construction's line, the agent's identity and how messages name it.
    let mut agents: BTreeMap<(String, String), KnownAgent> = BTreeMap::new();
    // Every agent class of the side, chains through the scope's own
    // classes included (`agent_subclasses.rs`).
    let subclasses = &contexts.agent_classes;
    // Clones the SDK reader reads as agents of their own (their lines).
    let mut readable_clones: BTreeSet<(&str, u32)> = BTreeSet::new();
    for file in files.iter().filter(|f| f.facts.syntax_error.is_none()) {
        let context = contexts.of(&file.path);
        let names = &context.names;
        let constructions = openai::agent_constructions(&file.facts, &file.path, context);
        for construction in &constructions {
            if construction.call.assigned_to.as_deref() == Some(construction.identity.as_str()) {
                agents.insert(
                    (file.path.clone(), construction.identity.clone()),
                    KnownAgent {
                        line: construction.line,
                        identity: construction.identity.clone(),
                        label: "OpenAI Agents SDK agent",
                        fields_apart: fields_kept_apart(construction.call),
                        call: construction.call,
                        facts: &file.facts,
                    },
                );
            }
        }
        for construction in adk::agent_constructions(&file.facts, context) {
            let variable = construction
                .call
                .assigned_to
                .as_deref()
                .filter(|v| !v.contains('.'));
            if let (Some(variable), Some(name)) = (variable, &construction.name) {
                agents.insert(
                    (file.path.clone(), variable.to_string()),
                    KnownAgent {
                        line: construction.line,
                        identity: name.clone(),
                        label: "Google ADK agent",
                        fields_apart: fields_kept_apart(construction.call),
                        call: construction.call,
                        facts: &file.facts,
                    },
                );
            }
        }
        // Clones the SDK reader reads as agents of their own.
        if openai::is_sdk_source(&file.facts) {
            for (_, clone) in
                openai::clone_constructions(&file.facts, &file.path, &constructions, names)
            {
                readable_clones.insert((file.path.as_str(), clone.line));
                // A clone is an agent too: a copy of it must be read or named.
                if let Some(variable) = clone.call.assigned_to.as_deref() {
                    agents.insert(
                        (file.path.clone(), variable.to_string()),
                        KnownAgent {
                            line: clone.line,
                            identity: clone.identity.clone(),
                            label: "OpenAI Agents SDK agent",
                            fields_apart: fields_kept_apart(clone.call),
                            call: clone.call,
                            facts: &file.facts,
                        },
                    );
                }
            }
        }
    }
    for file in files.iter().filter(|f| f.facts.syntax_error.is_none()) {
        let Some(key) = modules.key(&file.path) else {
            continue;
        };
        let mut resolver = Resolver::new(modules);
        // A module that imports nothing from the scope has another
        // library's `.tools`, never an agent's; an SDK or ADK source can
        // hold its own agents (the spec: "or is a Google ADK source, whose
        // reader does not follow a change after construction").
        let reads_scope = openai::is_sdk_source(&file.facts)
            || adk::is_adk_source(&file.facts)
            || file
                .facts
                .imports
                .iter()
                .any(|i| resolver.locate(key, i.level, &i.module).is_ok());
        // Where a name used in this module was defined: here, or the
        // module a from-import names.
        let mut origin = |name: &str, scope: &str| -> (String, String) {
            resolver
                .import_origin(key, scope, name)
                .unwrap_or_else(|| (file.path.clone(), name.to_string()))
        };
        // Writes into an agent's capability field: directly
        // (`support.tools.append(x)`), or through a handle taken on it
        // (`t = support.tools` then `t.append(x)`); a handle only read is
        // nothing.
        let mut writes: Vec<(Vec<String>, String, &crate::python::AttributeStore)> = Vec::new();
        for store in &file.facts.attribute_stores {
            if let Some(index) = store
                .target
                .iter()
                .skip(1)
                .position(|p| CAPABILITY_FIELDS.contains(&p.as_str()))
            {
                writes.push((
                    store.target[..index + 1]
                        .iter()
                        .map(ToString::to_string)
                        .collect(),
                    store.target[index + 1].to_string(),
                    store,
                ));
            }
        }
        for (handle, object, field) in capability_handles(&file.facts) {
            for store in file
                .facts
                .attribute_stores
                .iter()
                .filter(|s| s.target.first().is_some_and(|first| *first == handle))
            {
                writes.push((object.clone(), field.clone(), store));
            }
        }
        for (object, field, store) in writes {
            // An instance's own `self.tools` is proven not to be an agent's.
            if !reads_scope || object == ["self"] {
                continue;
            }
            let target = match object.as_slice() {
                [name] => Some(origin(name, &store.scope)),
                _ => None,
            };
            // Another module's object (`from .agents import x`): what it
            // holds is built there, so a limit on this file alone misses it.
            let imported = target.as_ref().is_some_and(|(path, _)| *path != file.path);
            match target.and_then(|t| agents.get(&t).map(|known| (t.0, known.clone()))) {
                Some((agent_path, known)) => {
                    let KnownAgent {
                        line,
                        identity: agent,
                        label,
                        fields_apart,
                        call,
                        facts,
                    } = known;
                    // A rewire the list reader reads is a binding, not a
                    // limit.
                    let agent_site = rewires::AgentSite {
                        facts,
                        call,
                        path: &agent_path,
                    };
                    let change = rewires::FieldStore {
                        path: &file.path,
                        store,
                        field: &field,
                    };
                    if rewires::is_read_rewire(rewire_index, modules, agent_site, change) {
                        continue;
                    }
                    // A change to the list's contents changes only that
                    // field; rebinding or deleting the attribute can make
                    // it another field's list (`a.tools = a.handoffs`).
                    let in_place = !store.how.rebinds() && store.how != StoreKind::Deletion;
                    let scoped = (fields_apart && in_place)
                        .then(|| Field::from_keyword(&field))
                        .flatten();
                    let reason = format!(
                        "{label} {} at {agent_path}:{line} has its {field} changed after construction at {}:{} ({}); its binding graph is incomplete.",
                        str_repr(&agent),
                        file.path,
                        store.line,
                        store.how.describe()
                    );
                    // A list changed in place that the construction did
                    // not build itself (`tools=TOOLS`) may be every
                    // other agent's list that names it too: the change
                    // is theirs as well, so the gap covers the scope.
                    let gap = match in_place && !rewires::owns_list(call, &field) {
                        true => Gap::scope_wide(reason),
                        false => Gap::agent(&agent_path, &agent, reason),
                    };
                    gaps.insert(Gap {
                        field: scoped,
                        withdraws: withdraws(&store.how),
                        ..gap
                    });
                }
                None => {
                    let reason = format!(
                        "An object's tools, handoffs, MCP servers or sub-agents are changed at {}:{}, in a module the comparison does not read for that; agents it reaches are not established.",
                        file.path, store.line
                    );
                    // Through a function's parameter, the object is any
                    // agent a caller passes, built in any module, and an
                    // imported one is another module's: the limit is on
                    // every agent of the scope (the callers, or what that
                    // module's builders return, are not a closed set this
                    // read knows).
                    let through_parameter = object
                        .first()
                        .is_some_and(|name| is_parameter(&file.facts, &store.scope, name));
                    let gap = match through_parameter || imported {
                        true => Gap::scope_wide(reason),
                        false => Gap::file(&file.path, reason),
                    };
                    gaps.insert(Gap {
                        withdraws: withdraws(&store.how),
                        ..gap
                    });
                }
            }
        }
        let context = contexts.of(&file.path);
        for (index, call) in file.facts.calls.iter().enumerate() {
            let callee = match &call.callee {
                Value::Subscript { base, .. } => base.as_ref(),
                other => other,
            };
            // A pass-through subclass's construction is read as its base
            // class's (`module_contexts.rs`); any other is named, with why
            // the class is not read as its base when that is known.
            let why = context
                .unread_subclass_calls
                .get(&index)
                .map(|why| format!(" It is not read as its base class: {why}."))
                .unwrap_or_default();
            if let (Value::Name(name), false) =
                (callee, context.subclass_calls.contains_key(&index))
            {
                let (class_path, class) = origin(name, &call.scope);
                match subclasses.get(&(class_path.clone(), class.clone())) {
                    Some((line, Framework::OpenAi)) => {
                        gaps.insert(Gap::file(
                            &file.path,
                            format!(
                                "{} uses {class}, an OpenAI Agents SDK agent subclass defined at {class_path}:{line}; agents built from it are not read.{why}",
                                file.path
                            ),
                        ));
                    }
                    Some((line, Framework::Adk)) => {
                        let reason = format!(
                            "Google ADK agent class {} at {class_path}:{line} derives from an agent class; agents built from it are not read.{why}",
                            str_repr(&class)
                        );
                        // ADK names an agent by its literal `name=`: the
                        // limit is that agent's, and the file's other
                        // agents stay read (a change the class's code makes
                        // to another agent's fields is a store the census
                        // names). Without one, the whole file's.
                        let name = call.keyword("name").and_then(|_| {
                            crate::frameworks::names::agent_name(&file.facts, call, &context.names)
                        });
                        gaps.insert(match name {
                            Some(name) => Gap::agent(&file.path, &name, reason),
                            None => Gap::file(&file.path, reason),
                        });
                    }
                    None => {}
                }
            }
            // Another copy that passes none of the capability fields keeps
            // the original's, which the original's rows already compare.
            let passes_capabilities = call.keywords.iter().any(|k| {
                k.name
                    .as_deref()
                    .is_none_or(|name| CAPABILITY_FIELDS.contains(&name))
            });
            let read_as_agent = readable_clones.contains(&(file.path.as_str(), call.line));
            let copied = match (&call.callee, call.args.first()) {
                _ if read_as_agent => None,
                // A clone the reader does not read (an imported receiver,
                // past the hop bound) is an agent of its own left unread.
                (Value::Attribute(parts), _) if parts.len() == 2 && parts[1] == "clone" => {
                    Some(parts[0].clone())
                }
                // `load_agent().clone(tools=[…])`: a copy of what a call
                // returns, which no reader names.
                (Value::Other(spelled), _)
                    if spelled == crate::python::EXPRESSION_CLONE && passes_capabilities =>
                {
                    Some(CALL_RESULT.into())
                }
                _ if !passes_capabilities => None,
                (Value::Attribute(parts), Some(Value::Name(object)))
                    if parts.len() == 2
                        && matches!(parts[1].as_str(), "replace" | "copy" | "deepcopy") =>
                {
                    Some(object.clone())
                }
                _ => None,
            };
            if let Some(object) = copied {
                // A copy that passes its own capabilities is a limit
                // wherever its original came from (a call's result, a
                // parameter), unless the original is proven not an agent.
                let known = agents.contains_key(&origin(&object, &call.scope));
                let unproven = reads_scope
                    && passes_capabilities
                    && !proven_not_an_agent(&file.facts, &call.scope, &object);
                if known || unproven {
                    gaps.insert(Gap::file(
                        &file.path,
                        format!(
                            "An agent copy at {}:{} ({}) is not read; the agent it makes and its tools, handoffs or MCP servers are not established.",
                            file.path,
                            call.line,
                            match object.as_str() {
                                CALL_RESULT => CALL_RESULT.to_string(),
                                named => str_repr(named),
                            }
                        ),
                    ));
                }
            }
        }
    }
}

/// How a copy's original is named when it is what a call returns.
const CALL_RESULT: &str = "of what a call returns";

/// Whether every binding of `name` a copy at `scope` can see is a literal
/// (a string, number, list, dict…): then it is proven not an agent. A name
/// bound by a call, a parameter, an import, or not bound at all is not.
fn proven_not_an_agent(facts: &ModuleFacts, scope: &str, name: &str) -> bool {
    let local: Vec<&crate::python::BindingFact> = facts
        .functions
        .iter()
        .filter(|f| !scope.is_empty() && f.qualname == scope)
        .flat_map(|f| f.body().locals.iter())
        .filter(|b| b.name == name)
        .collect();
    if is_parameter(facts, scope, name) {
        return false;
    }
    let bindings: Vec<&crate::python::BindingFact> = if local.is_empty() {
        facts
            .module_bindings_named(name)
            .filter(|b| b.name == name)
            .collect()
    } else {
        local
    };
    !bindings.is_empty()
        && bindings.iter().all(|b| {
            matches!(
                b.value,
                Some(
                    Value::Str(_)
                        | Value::Number(_)
                        | Value::Bool(_)
                        | Value::None
                        | Value::List(_)
                        | Value::Tuple(_)
                        | Value::Dict(_)
                        | Value::FString(_)
                )
            )
        })
}

/// Names bound to an object's capability field (`t = support.tools`):
/// `(handle, object path, field)`. Only names an attribute store starts
/// from are handles worth finding, so only the bodies that may bind one to
/// a capability field are read.
fn capability_handles(facts: &ModuleFacts) -> Vec<(String, Vec<String>, String)> {
    let stored_from: BTreeSet<&str> = facts
        .attribute_stores
        .iter()
        .filter_map(|store| store.target.first())
        .map(|first| first.as_str())
        .collect();
    let locals = facts
        .functions
        .iter()
        .filter(|f| CAPABILITY_FIELDS.iter().any(|field| f.may_alias(field)))
        .flat_map(|f| f.body().locals.iter());
    facts
        .module_bindings
        .iter()
        .chain(locals)
        .filter(|binding| stored_from.contains(binding.name.as_str()))
        .filter_map(|binding| match &binding.value {
            Some(Value::Attribute(parts)) if parts.len() >= 2 => {
                let (field, object) = parts.split_last()?;
                CAPABILITY_FIELDS.contains(&field.as_str()).then(|| {
                    (
                        binding.name.to_string(),
                        object.iter().map(ToString::to_string).collect(),
                        field.to_string(),
                    )
                })
            }
            _ => None,
        })
        .collect()
}

/// A file that defines one `@function_tool` name twice at module level: no
/// agent's binding of that name is established.
pub(super) fn duplicate_tool_definitions(
    path: &str,
    facts: &ModuleFacts,
    gaps: &mut BTreeSet<Gap>,
) {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for function in facts.functions.iter().filter(|f| f.module_level) {
        if openai::function_tool_name(facts, function).is_some() {
            *seen.entry(function.name.as_str()).or_default() += 1;
        }
    }
    // Function bindings counted by name once (a scan per tool was
    // quadratic in a file of many tools).
    let mut defined_by_name: BTreeMap<&str, usize> = BTreeMap::new();
    for binding in &facts.module_bindings {
        if binding.kind == BindingKind::Function {
            *defined_by_name.entry(binding.name.as_str()).or_default() += 1;
        }
    }
    for (name, count) in seen {
        let defined = defined_by_name.get(name).copied().unwrap_or(0);
        if count > 1 || (count == 1 && defined > 1) {
            gaps.insert(Gap {
                tool: Some(name.to_string()),
                ..Gap::file(
                    path,
                    format!(
                        "{path} defines the tool {} more than once; which definition an agent binds is not established.",
                        str_repr(name)
                    ),
                )
            });
        }
    }
}

/// Whether no two capability fields of a construction can hold one list
/// object, so a gap in reading one field cannot hide what another lists:
/// no `**` spread or extra positional argument (which may carry any
/// field), and no value given to two fields unless both are displays
/// (`[…]` builds a new list each time; a name, attribute or call given
/// twice is one object).
pub(super) fn fields_kept_apart(call: &crate::python::CallFact) -> bool {
    if super::passes_unnamed(call).is_some() {
        return false;
    }
    let values: Vec<&Value> = call
        .keywords
        .iter()
        .filter(|k| {
            k.name
                .as_deref()
                .is_some_and(|n| CAPABILITY_FIELDS.contains(&n))
        })
        .map(|k| &k.value)
        .collect();
    let fresh = |v: &Value| matches!(v, Value::List(_) | Value::Tuple(_));
    values.iter().enumerate().all(|(i, a)| {
        values[i + 1..]
            .iter()
            .all(|b| fresh(a) && fresh(b) || a != b)
    })
}

/// Whether `name` is a parameter of the function `scope` (qualified) names.
fn is_parameter(facts: &crate::python::ModuleFacts, scope: &str, name: &str) -> bool {
    !scope.is_empty()
        && facts
            .functions
            .iter()
            .filter(|f| f.qualname == scope)
            .any(|f| f.params.iter().any(|p| p.name == name))
}

/// Whether a change to a capability field can take a member away (a
/// rebinding, a deletion, an item store, `remove`, `pop`, `clear`): then
/// the members read are not known to be held (`Gap::withdraws`). An
/// addition (`append`, `extend`, `insert`, `+=`) or a reordering only adds
/// to what is held.
fn withdraws(how: &StoreKind) -> bool {
    match how {
        StoreKind::AugmentedAssignment => false,
        StoreKind::MethodCall(method) => !matches!(
            method.as_str(),
            "append" | "extend" | "insert" | "sort" | "reverse"
        ),
        _ => true,
    }
}
