//! Building one side's graph from the facts of the scope's modules.

use super::schema::interface;
use super::{
    AgentEntry, AgentSettings, Binding, Edge, Field, Gap, Setting, SideGraph, ToolDefinition,
};
use crate::frameworks::openai::{self, AgentConstruction, ListMember};
use crate::frameworks::{adk, GOOGLE_ADK, OPENAI_AGENTS_SDK};
use crate::pyrepr::{str_repr, tuple_repr};
use crate::python::{BindingKind, ModuleFacts, StoreKind, Value};
use crate::resolve::{ImportStep, ModuleSet, Resolver, ScopeContext, Target};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

mod adk_factories;
mod adk_members;
mod builder_callers;
mod handoffs;
mod list_exprs;
mod object_members;
mod rewires;
mod sites;
use object_members::{Built, ObjectList, ReadObject};

/// The gap of a module that was not read: the reference's wording for a
/// syntax error; the depth and line for a module nested past the bound.
fn unread_source_reason(path: &str, unread: &crate::python::SyntaxErrorFact) -> String {
    match unread.kind {
        crate::python::UnreadKind::Syntax => format!("Python input could not be parsed: {path}"),
        crate::python::UnreadKind::TooDeep => format!(
            "Python input is {} at {path}:{}; it is not read",
            unread.message, unread.line
        ),
    }
}

/// One module of the scope with its (cached) facts.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Scope-relative path.
    pub path: String,
    pub facts: Arc<ModuleFacts>,
}

/// Everything one side's graph is built from.
#[derive(Debug, Clone, Default)]
pub struct SideInput {
    /// The scope as the repository spells it (`.` = the root).
    pub scope: String,
    /// What the repository holds around the scope.
    pub context: ScopeContext,
    pub absent: bool,
    pub files: Vec<SourceFile>,
    /// Test-like modules: never read as the application, but followed by
    /// the import resolver when the application imports from one.
    pub test_files: Vec<SourceFile>,
    /// Symbolic links named `*.py` (scope-relative): never read.
    pub linked: Vec<String>,
    /// Gaps found before reading (bounds, links, submodules).
    pub gaps: Vec<Gap>,
    pub limits: Vec<String>,
    pub excluded_tests: Vec<String>,
    /// `(path, blob id)` of every Python file listed.
    pub files_listed: Vec<(String, String)>,
    pub gitlinks: Vec<(String, String)>,
    /// Links (scope-relative) that resolve to nothing in the tree.
    pub dangling_links: Vec<String>,
}

/// Builds the side's agent graph.
pub fn build_side(input: SideInput) -> SideGraph {
    let mut graph = SideGraph {
        absent: input.absent,
        limits: input.limits,
        excluded_tests: input.excluded_tests,
        files: input.files_listed,
        gitlinks: input.gitlinks,
        dangling_links: input.dangling_links,
        ..SideGraph::default()
    };
    let mut gaps: BTreeSet<Gap> = input.gaps.into_iter().collect();
    let modules = ModuleSet::new(
        input
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.facts.as_ref())),
        input.linked.iter().map(String::as_str),
        &input.context,
    )
    .with_imported_only(
        input
            .test_files
            .iter()
            .map(|f| (f.path.as_str(), f.facts.as_ref())),
    );
    // A repository that holds its own `google` package shadows the
    // framework: its `google.adk` is not Google ADK.
    let vendored_adk = input.context.outside_modules.contains("google")
        || input.files.iter().any(|f| f.path.starts_with("google/"));
    if vendored_adk && input.files.iter().any(|f| adk::is_adk_source(&f.facts)) {
        graph.limits.push(
            "The repository holds its own google package, so google.adk imports there are not read as Google ADK.".to_string(),
        );
    }
    for file in &input.files {
        // A cancelled read stops here; the engine drops what was built.
        if crate::work::cancelled() {
            break;
        }
        for binding in &file.facts.module_bindings {
            if matches!(binding.kind, BindingKind::Assignment | BindingKind::Import) {
                graph
                    .module_names
                    .push((file.path.clone(), binding.name.clone(), binding.line));
            }
        }
        // A construction passing `name="x"` names agent `x` too, whether or
        // not the reader reads it (a subclass, a vendored class).
        for call in &file.facts.calls {
            if let Some(Value::Str(name)) = call.keyword("name").map(|k| &k.value) {
                graph
                    .module_names
                    .push((file.path.clone(), name.clone(), call.line));
            }
        }
        if let Some(unread) = &file.facts.syntax_error {
            gaps.insert(Gap::file(
                &file.path,
                unread_source_reason(&file.path, unread),
            ));
            continue;
        }
        if adk::is_adk_source(&file.facts) && !vendored_adk {
            graph
                .sources
                .push((GOOGLE_ADK.to_string(), file.path.clone()));
            ModuleReader::new(Framework::Adk, file, &modules, &mut graph, &mut gaps).read_adk();
        }
        if openai::is_sdk_source(&file.facts) {
            graph
                .sources
                .push((OPENAI_AGENTS_SDK.to_string(), file.path.clone()));
            duplicate_tool_definitions(&file.path, &file.facts, &mut gaps);
            ModuleReader::new(Framework::OpenAi, file, &modules, &mut graph, &mut gaps).read();
        }
    }
    // The census of changes, copies and subclasses runs only where the side
    // has an OpenAI Agents SDK or Google ADK source: without one no agent
    // is read, and a report builder's own `.tools` is not an agent's.
    if !graph.sources.is_empty() {
        capability_limits(&modules, &input.files, &mut gaps);
    }
    // What each bound function tool reaches: evidence on its sides.
    attach_reach(&modules, &mut graph.bindings);
    graph.sources.sort();
    graph.agents.sort();
    graph.bindings.sort_by(|a, b| {
        (&a.agent_source, &a.agent, &a.tool_key).cmp(&(&b.agent_source, &b.agent, &b.tool_key))
    });
    graph.gaps = gaps.into_iter().collect();
    graph
}

/// Two constructions' settings: what they agree on, the rest uncertain.
/// Sets the reach of every function tool the side binds (`reach/`).
fn attach_reach(modules: &ModuleSet<'_>, bindings: &mut [Binding]) {
    let mut reader = crate::reach::ToolReader::new(modules);
    for binding in bindings {
        if let Edge::Tool(definition) = &mut binding.edge {
            if let Some(line) = definition.line {
                definition.reach = reader.read(&definition.source, line);
            }
        }
    }
}

fn agree(a: &AgentSettings, b: &AgentSettings) -> AgentSettings {
    let one = |x: &Setting, y: &Setting| {
        if x == y {
            x.clone()
        } else {
            Setting::Uncertain(
                "the agent is constructed more than once with different settings".into(),
            )
        }
    };
    AgentSettings {
        tool_use_behavior: one(&a.tool_use_behavior, &b.tool_use_behavior),
        tool_choice: one(&a.tool_choice, &b.tool_choice),
    }
}

/// How a list holds each of its members, by tool key.
#[derive(Default)]
struct Ways {
    /// The ways it gets in, each the conditions it is listed under (empty:
    /// always).
    conditions: BTreeMap<String, BTreeSet<Vec<String>>>,
    /// Where the builder that received it was called.
    callers: BTreeMap<String, BTreeSet<String>>,
    /// The rewires that added it after construction.
    rewired: BTreeMap<String, BTreeSet<String>>,
}

impl Ways {
    fn new() -> Self {
        Self::default()
    }

    fn add(
        &mut self,
        key: String,
        when: &[String],
        caller: Option<&str>,
        rewired_at: Option<&str>,
    ) {
        if let Some(caller) = caller {
            self.callers
                .entry(key.clone())
                .or_default()
                .insert(caller.to_string());
        }
        if let Some(at) = rewired_at {
            self.rewired
                .entry(key.clone())
                .or_default()
                .insert(at.to_string());
        }
        self.conditions
            .entry(key)
            .or_default()
            .insert(when.to_vec());
    }

    /// `bound_when` for one key: none when it is always held.
    fn bound_when(&self, key: &str) -> Option<Vec<String>> {
        let ways = merge_complements(self.conditions.get(key)?.clone());
        if ways.contains(&Vec::new()) {
            return Some(Vec::new());
        }
        Some(ways.iter().map(|way| way.join(" and ")).collect())
    }
}

/// Folds two ways that differ only in one condition and its negation
/// (`c` … and `not c` …) into one without it, until none do: a member both
/// branches of an `if` hold is held either way. Source text only; nothing
/// is evaluated.
fn merge_complements(mut ways: BTreeSet<Vec<String>>) -> BTreeSet<Vec<String>> {
    loop {
        let mut merged = None;
        'search: for a in &ways {
            for b in &ways {
                if a.len() != b.len() {
                    continue;
                }
                let differing: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
                if let [i] = differing.as_slice() {
                    if b[*i] == format!("not {}", a[*i]) {
                        let mut kept = a.clone();
                        kept.remove(*i);
                        merged = Some((a.clone(), b.clone(), kept));
                        break 'search;
                    }
                }
            }
        }
        let Some((a, b, kept)) = merged else {
            return ways;
        };
        ways.remove(&a);
        ways.remove(&b);
        ways.insert(kept);
    }
}

/// The line a list argument is written on (the construction's otherwise).
fn list_line(construction: &AgentConstruction<'_>, field: &str) -> u32 {
    construction
        .call
        .keyword(field)
        .map_or(construction.line, |k| k.line)
}

/// The capability fields of an SDK agent: a write to one after
/// construction changes what the agent binds.
const CAPABILITY_FIELDS: &[&str] = &["tools", "handoffs", "mcp_servers", "sub_agents"];

/// Constructions this reader does not follow, each a named limit so that
/// silence never hides them: capabilities changed after construction,
/// subclasses of `Agent`, and copies of an agent.
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

fn capability_limits(modules: &ModuleSet<'_>, files: &[SourceFile], gaps: &mut BTreeSet<Gap>) {
    // Agents assigned to a plain variable, by (module, variable): the
    // construction's line, the agent's identity and how messages name it.
    let mut agents: BTreeMap<(String, String), KnownAgent> = BTreeMap::new();
    let mut subclasses: BTreeMap<(String, String), (u32, Framework)> = BTreeMap::new();
    for file in files.iter().filter(|f| f.facts.syntax_error.is_none()) {
        for construction in openai::agent_constructions(&file.facts, &file.path) {
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
        for construction in adk::agent_constructions(&file.facts) {
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
        for class in openai::agent_subclasses(&file.facts) {
            subclasses.insert(
                (file.path.clone(), class.name.clone()),
                (class.line, Framework::OpenAi),
            );
        }
        for class in adk::agent_subclasses(&file.facts) {
            subclasses.insert(
                (file.path.clone(), class.name.clone()),
                (class.line, Framework::Adk),
            );
        }
    }
    // Clones the SDK reader reads as agents of their own.
    let mut readable_clones: BTreeSet<(&str, u32)> = BTreeSet::new();
    for file in files
        .iter()
        .filter(|f| f.facts.syntax_error.is_none() && openai::is_sdk_source(&f.facts))
    {
        let constructions = openai::agent_constructions(&file.facts, &file.path);
        for (_, clone) in openai::clone_constructions(&file.facts, &file.path, &constructions) {
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
    for file in files.iter().filter(|f| f.facts.syntax_error.is_none()) {
        let Some(key) = modules.key(&file.path) else {
            continue;
        };
        let mut resolver = Resolver::new(modules);
        // A module that imports nothing from the scope has another
        // library's `.tools`, never an agent's.
        let reads_scope = openai::is_sdk_source(&file.facts)
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
                    store.target[..index + 1].to_vec(),
                    store.target[index + 1].clone(),
                    store,
                ));
            }
        }
        for (handle, object, field) in capability_handles(&file.facts) {
            for store in file
                .facts
                .attribute_stores
                .iter()
                .filter(|s| s.target.first() == Some(&handle))
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
                    if rewires::is_read_rewire(
                        modules,
                        facts,
                        Some(call),
                        &agent_path,
                        &file.path,
                        store,
                        &field,
                    ) {
                        continue;
                    }
                    // A change to the list's contents changes only that
                    // field; rebinding or deleting the attribute can make
                    // it another field's list (`a.tools = a.handoffs`).
                    let in_place = !store.how.rebinds() && store.how != StoreKind::Deletion;
                    let scoped = (fields_apart && in_place)
                        .then(|| Field::from_keyword(&field))
                        .flatten();
                    gaps.insert(Gap {
                        field: scoped,
                        ..Gap::agent(
                            &agent_path,
                            &agent,
                            format!(
                                "{label} {} at {agent_path}:{line} has its {field} changed after construction at {}:{} ({}); its binding graph is incomplete.",
                                str_repr(&agent),
                                file.path,
                                store.line,
                                store.how.describe()
                            ),
                        )
                    });
                }
                None => {
                    gaps.insert(Gap::file(
                        &file.path,
                        format!(
                            "An object's tools, handoffs, MCP servers or sub-agents are changed at {}:{}, in a module the comparison does not read for that; agents it reaches are not established.",
                            file.path, store.line
                        ),
                    ));
                }
            }
        }
        for call in &file.facts.calls {
            let callee = match &call.callee {
                Value::Subscript { base, .. } => base.as_ref(),
                other => other,
            };
            if let Value::Name(name) = callee {
                let (class_path, class) = origin(name, &call.scope);
                match subclasses.get(&(class_path.clone(), class.clone())) {
                    Some((line, Framework::OpenAi)) => {
                        gaps.insert(Gap::file(
                            &file.path,
                            format!(
                                "{} uses {class}, an OpenAI Agents SDK agent subclass defined at {class_path}:{line}; agents built from it are not read.",
                                file.path
                            ),
                        ));
                    }
                    Some((line, Framework::Adk)) => {
                        gaps.insert(Gap::file(
                            &file.path,
                            format!(
                                "Google ADK agent class {} at {class_path}:{line} derives from an agent class; agents built from it are not read.",
                                str_repr(&class)
                            ),
                        ));
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
                            str_repr(&object)
                        ),
                    ));
                }
            }
        }
    }
}

/// Whether every binding of `name` a copy at `scope` can see is a literal
/// (a string, number, list, dict…): then it is proven not an agent. A name
/// bound by a call, a parameter, an import, or not bound at all is not.
fn proven_not_an_agent(facts: &ModuleFacts, scope: &str, name: &str) -> bool {
    let local: Vec<&crate::python::BindingFact> = facts
        .functions
        .iter()
        .filter(|f| !scope.is_empty() && f.qualname == scope)
        .flat_map(|f| f.locals.iter())
        .filter(|b| b.name == name)
        .collect();
    let is_parameter = facts
        .functions
        .iter()
        .filter(|f| !scope.is_empty() && f.qualname == scope)
        .any(|f| f.params.iter().any(|p| p.name == name));
    if is_parameter {
        return false;
    }
    let bindings: Vec<&crate::python::BindingFact> = if local.is_empty() {
        facts
            .module_bindings
            .iter()
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
/// `(handle, object path, field)`.
fn capability_handles(facts: &ModuleFacts) -> Vec<(String, Vec<String>, String)> {
    let locals = facts.functions.iter().flat_map(|f| f.locals.iter());
    facts
        .module_bindings
        .iter()
        .chain(locals)
        .filter_map(|binding| match &binding.value {
            Some(Value::Attribute(parts)) if parts.len() >= 2 => {
                let (field, object) = parts.split_last()?;
                CAPABILITY_FIELDS
                    .contains(&field.as_str())
                    .then(|| (binding.name.clone(), object.to_vec(), field.clone()))
            }
            _ => None,
        })
        .collect()
}

/// A file that defines one `@function_tool` name twice at module level: no
/// agent's binding of that name is established.
fn duplicate_tool_definitions(path: &str, facts: &ModuleFacts, gaps: &mut BTreeSet<Gap>) {
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

/// Reads the SDK agents of one module into the graph.
/// Which framework's constructions a pass of the reader reads: its
/// messages name the framework, and only the SDK requires `@function_tool`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framework {
    OpenAi,
    Adk,
}

struct ModuleReader<'a, 'm> {
    framework: Framework,
    path: &'a str,
    facts: &'a ModuleFacts,
    modules: &'a ModuleSet<'m>,
    graph: &'a mut SideGraph,
    gaps: &'a mut BTreeSet<Gap>,
    /// The line of the construction whose list is being read: additions to
    /// a list count only before it.
    reading_line: std::cell::Cell<u32>,
    /// The module a listed reference is read in when the list came from
    /// another module (`None` = this one).
    resolve_from: std::cell::Cell<Option<&'a str>>,
    /// The capability field whose list is being read, when the
    /// construction keeps its fields apart: the agent's gaps are confined
    /// to it (`None` = agent-wide).
    field: std::cell::Cell<Option<Field>>,
}

/// What a `function_tool(f, …)` call adds to the function it wraps.
struct Wrap {
    name_override: Option<String>,
    other_arguments: Vec<String>,
}

/// A tool an agent lists, followed to its definition.
struct FollowedTool {
    tool: String,
    definition: ToolDefinition,
}

impl<'a, 'm> ModuleReader<'a, 'm> {
    fn new(
        framework: Framework,
        file: &'a SourceFile,
        modules: &'a ModuleSet<'m>,
        graph: &'a mut SideGraph,
        gaps: &'a mut BTreeSet<Gap>,
    ) -> Self {
        ModuleReader {
            framework,
            path: &file.path,
            facts: &file.facts,
            modules,
            graph,
            gaps,
            reading_line: std::cell::Cell::new(0),
            resolve_from: std::cell::Cell::new(None),
            field: std::cell::Cell::new(None),
        }
    }
}

impl ModuleReader<'_, '_> {
    fn read(&mut self) {
        let constructions = openai::agent_constructions(self.facts, self.path);
        let mut groups: BTreeMap<&str, Vec<&AgentConstruction<'_>>> = BTreeMap::new();
        for construction in &constructions {
            groups
                .entry(construction.identity.as_str())
                .or_default()
                .push(construction);
        }
        for (identity, sites) in groups {
            let Some(first) = sites.first() else { continue };
            self.graph.agents.push(AgentEntry {
                source: self.path.to_string(),
                name: identity.to_string(),
                location: format!("{}:{}", self.path, first.line),
            });
            if let [only] = sites.as_slice() {
                self.read_site(identity, only);
            } else {
                self.read_sites(identity, &sites);
            }
        }
        let mut settings: BTreeMap<String, AgentSettings> = BTreeMap::new();
        for construction in &constructions {
            let read = openai::agent_settings(self.facts, construction.call, &AgentSettings::UNSET);
            match settings.get_mut(&construction.identity) {
                // Conflicting constructions keep their settings uncertain.
                Some(known) => *known = agree(known, &read),
                None => {
                    settings.insert(construction.identity.clone(), read);
                }
            }
        }
        for (source, clone) in openai::clone_constructions(self.facts, self.path, &constructions) {
            self.read_clone(&source, &clone);
            let inherited = settings
                .get(&source)
                .cloned()
                .unwrap_or(AgentSettings::UNSET);
            settings.insert(
                clone.identity.clone(),
                openai::agent_settings(self.facts, clone.call, &inherited),
            );
        }
        for binding in &mut self.graph.bindings {
            if binding.agent_source != self.path {
                continue;
            }
            if let Some(read) = settings.get(&binding.agent) {
                binding.settings = read.clone();
            }
        }
    }

    /// A clone is an agent of its own: what it passes is read like a
    /// construction's, and what it omits it inherits from its source.
    fn read_clone(&mut self, source: &str, clone: &AgentConstruction<'_>) {
        let identity = clone.identity.as_str();
        if self
            .graph
            .agents
            .iter()
            .any(|a| a.source == self.path && a.name == identity)
        {
            return self.agent_gap(
                identity,
                format!(
                    "Ambiguous agent identity: {}",
                    tuple_repr(&[self.path, identity])
                ),
            );
        }
        self.graph.agents.push(AgentEntry {
            source: self.path.to_string(),
            name: identity.to_string(),
            location: format!("{}:{}", self.path, clone.line),
        });
        let inherited: Vec<Binding> = self
            .graph
            .bindings
            .iter()
            .filter(|b| b.agent_source == self.path && b.agent == source)
            .filter(|b| {
                let field = match &b.edge {
                    Edge::Handoff { .. } => "handoffs",
                    Edge::Object(object)
                        if object.identity.kind == Some(super::objects::ObjectKind::McpServer) =>
                    {
                        "mcp_servers"
                    }
                    _ => "tools",
                };
                clone.call.keyword(field).is_none()
            })
            .map(|b| Binding {
                agent: identity.to_string(),
                binding_location: (self.path.to_string(), clone.line),
                ..b.clone()
            })
            .collect();
        self.graph.bindings.extend(inherited);
        // The source's own limits travel with what the clone inherits.
        let inherited_gaps: Vec<Gap> = self
            .gaps
            .iter()
            .filter(|g| {
                g.source.as_deref() == Some(self.path) && g.agent.as_deref() == Some(source)
            })
            .map(|g| Gap {
                agent: Some(identity.to_string()),
                ..g.clone()
            })
            .collect();
        self.gaps.extend(inherited_gaps);
        if let Some(tools) = clone.call.keyword("tools") {
            self.read_field(Field::Tools, clone, |r| {
                match openai::clone_name_filter(clone.call, &tools.value) {
                    Some(name) => r.read_clone_filter(source, identity, clone, &name),
                    None => r.read_tools(identity, clone),
                }
            });
        }
        if clone.call.keyword("handoffs").is_some() {
            self.read_field(Field::Handoffs, clone, |r| r.read_handoffs(identity, clone));
        }
        self.read_field(Field::McpServers, clone, |r| {
            r.read_mcp_servers(identity, clone)
        });
        if clone.call.keywords.iter().any(|k| k.name.is_none()) {
            self.read_unpacking(identity, clone);
        }
    }

    /// `clone(tools=[t for t in source.tools if t.name == "read"])`: the
    /// source's function tool of that name, when the reader established
    /// one. An object tool's display name is not its runtime name, so a
    /// filter naming one (or naming nothing established) stays unread.
    fn read_clone_filter(
        &mut self,
        source: &str,
        identity: &str,
        clone: &AgentConstruction<'_>,
        name: &str,
    ) {
        let selected: Vec<Binding> = self
            .graph
            .bindings
            .iter()
            .filter(|b| b.agent_source == self.path && b.agent == source && b.tool == name)
            .cloned()
            .collect();
        match selected.as_slice() {
            [binding] if matches!(binding.edge, Edge::Tool(_)) => {
                self.graph.bindings.push(Binding {
                    agent: identity.to_string(),
                    binding_location: (self.path.to_string(), clone.line),
                    ..binding.clone()
                });
            }
            _ => {
                let reason = format!(
                    "{} keeps the tools of {} named {}, which is not a function tool this reader established; its binding graph is incomplete.",
                        self.who(identity, clone.line),
                    str_repr(source),
                    str_repr(name)
                );
                self.agent_gap(identity, reason);
            }
        }
    }

    /// Everything one construction binds, recorded into the graph.
    fn read_site(&mut self, identity: &str, construction: &AgentConstruction<'_>) {
        self.read_field(Field::Tools, construction, |r| {
            r.read_tools(identity, construction)
        });
        self.read_field(Field::Handoffs, construction, |r| {
            r.read_handoffs(identity, construction)
        });
        self.read_field(Field::McpServers, construction, |r| {
            r.read_mcp_servers(identity, construction)
        });
        self.read_unpacking(identity, construction);
    }

    /// One identity built at several sites (two `return Agent(name="Quote")`
    /// branches), read as one agent (`sites.rs`): every tool any site
    /// binds is a binding, and when the sites differ which one runs is a
    /// named limit beside the rows.
    fn read_sites(&mut self, identity: &str, sites: &[&AgentConstruction<'_>]) {
        let mut reads = Vec::new();
        for site in sites {
            let bindings_before = self.graph.bindings.len();
            let gaps_before = self.gaps.clone();
            self.read_site(identity, site);
            let bindings = self.graph.bindings.split_off(bindings_before);
            let gaps: BTreeSet<Gap> = self.gaps.difference(&gaps_before).cloned().collect();
            *self.gaps = gaps_before;
            reads.push(sites::SiteRead {
                line: site.line,
                bindings,
                gaps,
            });
        }
        let merged = sites::merge_sites(reads);
        self.gaps.extend(merged.gaps);
        self.graph.bindings.extend(merged.bindings);
        if !merged.identical {
            let lines: Vec<String> = sites.iter().map(|s| s.line.to_string()).collect();
            self.gaps.insert(Gap::agent(
                self.path,
                identity,
                format!(
                    "OpenAI Agents SDK agent {} is constructed more than once in {} (lines {}) with different tools or handoffs; which one runs is not established, and their tools are compared as one agent, each row naming the constructions that list its tool.",
                    str_repr(identity),
                    self.path,
                    lines.join(", ")
                ),
            ));
        }
    }

    /// A call that wraps a function as a tool, as this framework spells it
    /// (`function_tool(f)`, `FunctionTool(func=f)`).
    fn wrapper_call<'v>(
        &self,
        facts: &ModuleFacts,
        value: &'v Value,
        scope: &str,
    ) -> Option<openai::FunctionToolCall<'v>> {
        match self.framework {
            Framework::OpenAi => openai::function_tool_call(facts, value, scope),
            Framework::Adk => adk::function_wrapper_call(facts, value, scope),
        }
    }

    /// How a message names an agent: the SDK reader's form carries the
    /// construction's place; the ADK reader's is the reference's.
    fn who(&self, agent: &str, line: u32) -> String {
        match self.framework {
            Framework::OpenAi => format!(
                "OpenAI Agents SDK agent {} at {}:{line}",
                str_repr(agent),
                self.path
            ),
            Framework::Adk => format!("Google ADK agent {}", str_repr(agent)),
        }
    }

    fn agent_gap(&mut self, agent: &str, reason: String) {
        self.gaps.insert(Gap {
            field: self.field.get(),
            ..Gap::agent(self.path, agent, reason)
        });
    }

    /// Reads one capability field of a construction: the gaps the read
    /// makes are confined to that field when the construction keeps its
    /// fields apart (`fields_kept_apart`), agent-wide otherwise.
    fn read_field(
        &mut self,
        field: Field,
        construction: &AgentConstruction<'_>,
        read: impl FnOnce(&mut Self),
    ) {
        let scoped = fields_kept_apart(construction.call).then_some(field);
        let outer = self.field.replace(scoped);
        read(self);
        self.field.set(outer);
    }

    fn read_tools(&mut self, agent: &str, construction: &AgentConstruction<'_>) {
        let Some(members) = self.list_of(agent, construction, "tools") else {
            return;
        };
        let line = list_line(construction, "tools");
        let mut followed: BTreeMap<String, Vec<FollowedTool>> = BTreeMap::new();
        let mut objects: Vec<ReadObject> = Vec::new();
        let mut order: Vec<String> = Vec::new();
        let mut ways = Ways::new();
        let read_some = list_exprs::any_read(&members);
        for (
            index,
            list_exprs::Member {
                member,
                scope,
                when,
                from,
                caller,
                rewired_at,
            },
        ) in members.into_iter().enumerate()
        {
            if let ListMember::Unread(why) = &member {
                let reason = self.list_limit(agent, construction, "tools", why, read_some);
                self.agent_gap(agent, reason);
                continue;
            }
            let read = match from {
                Some(from) => self
                    .follow_foreign(agent, construction, &from, &scope, member)
                    .map(|tool| {
                        let name = tool.tool.clone();
                        followed.entry(name.clone()).or_default().push(tool);
                        name
                    }),
                None => self.read_tool_member(
                    agent,
                    construction,
                    &scope,
                    line,
                    index,
                    member,
                    &mut followed,
                    &mut objects,
                ),
            };
            if let Some(name) = &read {
                ways.add(
                    name.clone(),
                    &when,
                    caller.as_deref(),
                    rewired_at.as_deref(),
                );
            }
            order.extend(read);
        }
        self.record_order(agent, order);
        self.bind_functions(agent, construction, followed);
        self.bind_objects(agent, construction, line, objects);
        self.apply_ways(agent, &ways);
    }

    /// A tool made by a repository factory (`make_tool(...)`, inline or
    /// bound once): `None` when the call is no factory (the caller decides
    /// what it is), else the tool's name when it was bound.
    #[allow(clippy::too_many_arguments)]
    fn factory_tool(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        path: &str,
        scope: &str,
        call: &Value,
        spelled: &str,
        followed: &mut BTreeMap<String, Vec<FollowedTool>>,
    ) -> Option<Option<String>> {
        match self.read_factory(path, scope, call) {
            adk_factories::FactoryRead::Tool(tool, unnamed) => {
                self.name_unnamed(agent, &tool, &unnamed);
                let name = tool.tool.clone();
                followed.entry(name.clone()).or_default().push(*tool);
                Some(Some(name))
            }
            adk_factories::FactoryRead::Limit(why) => {
                let reason = self.unresolved(agent, construction.line, spelled, &why);
                self.agent_gap(agent, reason);
                Some(None)
            }
            adk_factories::FactoryRead::Object { .. } => {
                let reason = self.dynamic(agent, construction.line, "tools");
                self.agent_gap(agent, reason);
                Some(None)
            }
            adk_factories::FactoryRead::NotAFactory => None,
        }
    }

    /// A member of a list another module binds, read by that module's
    /// names: a function reference, followed from there; anything else is
    /// not read (the agent is incomplete).
    fn follow_foreign(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        from: &str,
        scope: &str,
        member: ListMember,
    ) -> Option<FollowedTool> {
        let (ListMember::Reference(reference), Some(key)) = (member, self.modules.key(from)) else {
            let reason = self.dynamic(agent, construction.line, "tools");
            self.agent_gap(agent, reason);
            return None;
        };
        self.resolve_from.set(Some(key));
        let tool = self.follow_tool(agent, construction, scope, &reference);
        self.resolve_from.set(None);
        tool
    }

    /// Binds a handoff or sub-agent edge to the agent `name` built in
    /// `path`; returns its tool key (`handoff:<file>:<name>`).
    fn bind_agent_edge(
        &mut self,
        agent: &str,
        line: u32,
        path: &str,
        name: String,
        edge: Edge,
    ) -> String {
        let key = format!("handoff:{path}:{name}");
        self.graph.bindings.push(Binding {
            agent: agent.to_string(),
            agent_source: self.path.to_string(),
            tool_key: key.clone(),
            tool: name,
            binding_location: (self.path.to_string(), line),
            edge,
            settings: AgentSettings::UNSET,
            construction_sites: Vec::new(),
            bound_when: Vec::new(),
            callers: Vec::new(),
            rewired_at: Vec::new(),
        });
        key
    }

    /// Sets each binding's `bound_when` from the ways the list holds it
    /// (keyed by tool key): none when any way is unconditional.
    fn apply_ways(&mut self, agent: &str, ways: &Ways) {
        for binding in &mut self.graph.bindings {
            if binding.agent_source != self.path || binding.agent != agent {
                continue;
            }
            if let Some(callers) = ways.callers.get(&binding.tool_key) {
                binding.callers = callers.iter().cloned().collect();
            }
            if let Some(rewired) = ways.rewired.get(&binding.tool_key) {
                binding.rewired_at = rewired.iter().cloned().collect();
            }
            if let Some(bound_when) = ways.bound_when(&binding.tool_key) {
                binding.bound_when = bound_when;
            }
        }
    }

    /// Reads one `tools=` member into the followed functions or the
    /// objects; the name it is bound under, if it was read.
    #[allow(clippy::too_many_arguments)]
    fn read_tool_member(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        scope: &str,
        line: u32,
        index: usize,
        member: ListMember,
        followed: &mut BTreeMap<String, Vec<FollowedTool>>,
        objects: &mut Vec<ReadObject>,
    ) -> Option<String> {
        match member {
            ListMember::Reference(reference) => {
                if let Some(built) = self.built_object(scope, &reference) {
                    match self.read_object(&built, ObjectList::Tools, index + 1) {
                        Ok(Some(object)) => {
                            let name = object.name.clone();
                            objects.push(object);
                            return Some(name);
                        }
                        Ok(None) => {
                            let spelled = reference.dotted().unwrap_or_default();
                            let path = built.path().to_string();
                            let factory_scope = built.scope().to_string();
                            let call = built.call().clone();
                            if let Some(read) = self.factory_tool(
                                agent,
                                construction,
                                &path,
                                &factory_scope,
                                &call,
                                &spelled,
                                followed,
                            ) {
                                return read;
                            }
                        }
                        Err(why) => {
                            let reason = self.object_limit(agent, construction.line, &why);
                            self.agent_gap(agent, reason);
                            return None;
                        }
                    }
                }
                let tool = self.follow_tool(agent, construction, scope, &reference)?;
                let name = tool.tool.clone();
                followed.entry(name.clone()).or_default().push(tool);
                Some(name)
            }
            ListMember::Call(call) => match openai::function_tool_call(self.facts, &call, scope) {
                Some(wrapper) => {
                    let wrapped = wrapper.wrapped.clone();
                    let wrap = Wrap {
                        name_override: wrapper.name_override,
                        other_arguments: wrapper.other_arguments,
                    };
                    let tool =
                        self.follow_wrapped(agent, construction, scope, &wrapped, Some(wrap))?;
                    let name = tool.tool.clone();
                    followed.entry(name.clone()).or_default().push(tool);
                    Some(name)
                }
                None => {
                    let built = Built::inline(self.path, self.facts, scope, &call, line);
                    match self.read_object(&built, ObjectList::Tools, index + 1) {
                        Ok(Some(object)) => {
                            let name = object.name.clone();
                            objects.push(object);
                            Some(name)
                        }
                        Ok(None) => {
                            let spelled = match &call {
                                Value::Call { callee, .. } => {
                                    format!("{}()", callee.dotted().unwrap_or_default())
                                }
                                _ => String::new(),
                            };
                            let path = self.path.to_string();
                            match self.factory_tool(
                                agent,
                                construction,
                                &path,
                                scope,
                                &call,
                                &spelled,
                                followed,
                            ) {
                                Some(read) => read,
                                None => {
                                    let reason = self.dynamic(agent, construction.line, "tools");
                                    self.agent_gap(agent, reason);
                                    None
                                }
                            }
                        }
                        Err(why) => {
                            let reason = self.object_limit(agent, construction.line, &why);
                            self.agent_gap(agent, reason);
                            None
                        }
                    }
                }
            },
            ListMember::Unread(_) => {
                let reason = self.dynamic(agent, construction.line, "tools");
                self.agent_gap(agent, reason);
                None
            }
        }
    }

    /// Keeps an agent's tool names in list order (its first construction).
    fn record_order(&mut self, agent: &str, mut tools: Vec<String>) {
        // A union over a builder's callers lists a shared tool once per
        // call (and a list may repeat one): its place is where it first
        // appears.
        let mut seen = BTreeSet::new();
        tools.retain(|tool| seen.insert(tool.clone()));
        let known = self
            .graph
            .tool_orders
            .iter()
            .any(|o| o.agent_source == self.path && o.agent == agent);
        if !known && !tools.is_empty() {
            self.graph.tool_orders.push(super::ToolOrder {
                agent_source: self.path.to_string(),
                agent: agent.to_string(),
                tools,
            });
        }
    }

    /// The functions an agent lists, one binding per tool name; two
    /// different functions under one name bind neither.
    fn bind_functions(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        followed: BTreeMap<String, Vec<FollowedTool>>,
    ) {
        for (tool, mut definitions) in followed {
            let distinct: BTreeSet<(&str, Option<u32>)> = definitions
                .iter()
                .map(|d| (d.definition.source.as_str(), d.definition.line))
                .collect();
            if distinct.len() > 1 {
                // One agent, two functions under one name: it binds neither.
                let places: Vec<String> = distinct
                    .iter()
                    .map(|(source, line)| {
                        format!(
                            "{source}:{}",
                            line.map_or("?".to_string(), |l| l.to_string())
                        )
                    })
                    .collect();
                // Confined to that name: the agent's other tools stay compared
                // (the reference, 1.2.0, confines it to the agent only).
                let gap = Gap::agent(
                    self.path,
                    agent,
                    format!(
                        "{} binds two different functions named {} ({}); the model sees one tool name for both, so neither is resolved.",
                        self.who(agent, construction.line),
                        str_repr(&tool),
                                                places.join(" and ")
                    ),
                );
                self.gaps.insert(Gap {
                    tool: Some(tool.clone()),
                    ..gap
                });
                continue;
            }
            let Some(first) = definitions.drain(..).next() else {
                continue;
            };
            self.graph.bindings.push(Binding {
                agent: agent.to_string(),
                agent_source: self.path.to_string(),
                tool_key: tool.clone(),
                tool,
                binding_location: (self.path.to_string(), construction.line),
                edge: Edge::Tool(first.definition),
                settings: AgentSettings::UNSET,
                construction_sites: Vec::new(),
                bound_when: Vec::new(),
                callers: Vec::new(),
                rewired_at: Vec::new(),
            });
        }
    }

    /// An object member that is recognised but cannot be bound.
    fn object_limit(&self, agent: &str, line: u32, why: &str) -> String {
        format!(
            "{} {why}; its binding graph is incomplete.",
            self.who(agent, line)
        )
    }

    /// The members of a list argument (`tools=`, `handoffs=`, …), each with
    /// the scope its names are read in; `None` (with the limit recorded)
    /// when the list is absent or cannot be read at all.
    fn list_of(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        field: &str,
    ) -> Option<list_exprs::Members> {
        let Some(keyword) = construction.call.keyword(field) else {
            // An absent field holds only what rewires add to it.
            let rewired = self.rewired_members(construction, field);
            return (!rewired.is_empty()).then_some(rewired);
        };
        self.reading_line.set(construction.line);
        match self.list_expression(&keyword.value, &construction.call.scope, 0, &[]) {
            Ok(mut members) => {
                members.extend(self.rewired_members(construction, field));
                Some(members)
            }
            Err(why) => {
                let reason = self.list_limit(agent, construction, field, &why, false);
                self.agent_gap(agent, reason);
                None
            }
        }
    }

    /// What rewires after construction add to the field (`rewires.rs`):
    /// read in the module that makes them, each carrying where; one in
    /// another module holds only once that module is imported.
    fn rewired_members(
        &self,
        construction: &AgentConstruction<'_>,
        field: &str,
    ) -> list_exprs::Members {
        let Some(variable) = rewires::rewirable(self.facts, construction.call, field) else {
            return Vec::new();
        };
        let mut members = list_exprs::Members::new();
        for rewire in rewires::rewires_of(self.modules, self.path, variable, field) {
            let addition = rewire.addition;
            let when: Vec<String> = if rewire.own_module {
                Vec::new()
            } else {
                vec![format!("when `{}` is imported", rewire.path)]
            };
            let at = format!("{}:{}", rewire.path, addition.line);
            let read = match (addition.how.as_str(), &addition.value) {
                ("append" | "insert", value) => {
                    Ok(openai::list_members(std::slice::from_ref(value)))
                }
                // Another module's names are read there, so only a
                // display's members are taken from it.
                (_, Value::List(items) | Value::Tuple(items))
                    if !items.iter().any(|i| matches!(i, Value::Starred(_))) =>
                {
                    Ok(openai::list_members(items))
                }
                (_, value) if rewire.own_module => self
                    .list_expression(value, "", 0, &when)
                    .map(|read| read.into_iter().map(|m| m.member).collect()),
                _ => Err(format!("what {at} adds is not a list display")),
            };
            let from = (!rewire.own_module).then(|| rewire.path.to_string());
            let listed = match read {
                Ok(listed) => listed,
                Err(why) => vec![ListMember::Unread(why)],
            };
            members.extend(listed.into_iter().map(|member| list_exprs::Member {
                member,
                scope: String::new(),
                when: when.clone(),
                from: from.clone(),
                caller: None,
                rewired_at: Some(at.clone()),
            }));
        }
        members
    }

    fn dynamic(&self, agent: &str, line: u32, list: &str) -> String {
        match self.framework {
            Framework::OpenAi => format!(
                "{} uses a dynamic {list} expression; its binding graph is incomplete.",
                self.who(agent, line)
            ),
            Framework::Adk => format!(
                "{} uses a dynamic {list} expression.",
                self.who(agent, line)
            ),
        }
    }

    /// The spec's form: the reader's warning, then "Not resolved because …"
    /// (the reference, 1.2.0, joins them with a colon instead).
    fn unresolved(&self, agent: &str, line: u32, reference: &str, why: &str) -> String {
        let verb = match self.framework {
            Framework::OpenAi => "binds",
            Framework::Adk => "references",
        };
        format!(
            "{} {verb} unresolved tool {}. Not resolved because {why}.",
            self.who(agent, line),
            str_repr(reference)
        )
    }

    /// Follows a listed reference to its `@function_tool` definition, or
    /// records why it cannot be followed.
    fn follow_tool(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        scope: &str,
        reference: &Value,
    ) -> Option<FollowedTool> {
        self.follow_wrapped(agent, construction, scope, reference, None)
    }

    /// Follows a reference, and through a `name = function_tool(f)` binding
    /// (or an inline `function_tool(f)`) to the wrapped function: the row is
    /// the function's, as for a decorated one.
    fn follow_wrapped(
        &mut self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        scope: &str,
        reference: &Value,
        mut wrap: Option<Wrap>,
    ) -> Option<FollowedTool> {
        let spelled = reference.dotted().unwrap_or_default();
        let mut resolver = Resolver::new(self.modules);
        let start = self.resolve_from.get().unwrap_or(self.path);
        let resolved = resolver.resolve(start, scope, reference);
        let mut found = match resolved {
            Ok(found) => found,
            Err(why) => {
                let reason = self.unresolved(agent, construction.line, &spelled, &why);
                self.agent_gap(agent, reason);
                return None;
            }
        };
        if let (Target::Value { path, name, line }, None) = (&found.target, &wrap) {
            let wrapper = self.modules.facts(path).and_then(|facts| {
                let value = facts
                    .module_bindings
                    .iter()
                    .find(|b| b.name == *name && b.line == *line)?
                    .value
                    .as_ref()?;
                self.wrapper_call(facts, value, "")
            });
            if let Some(wrapper) = wrapper {
                let (path, name, line) = (*path, name.clone(), *line);
                let mut inner = Resolver::new(self.modules);
                match inner.resolve(path, "", wrapper.wrapped) {
                    Ok(next) => {
                        let mut steps = std::mem::take(&mut found.steps);
                        steps.push(ImportStep {
                            path: path.to_string(),
                            line: Some(line),
                            name,
                            sha256: self
                                .modules
                                .facts(path)
                                .map(|f| f.source_sha256.clone())
                                .unwrap_or_default(),
                            binding: "value".to_string(),
                            lazy_submodule: false,
                        });
                        steps.extend(next.steps);
                        found = crate::resolve::Resolved {
                            target: next.target,
                            steps,
                        };
                        wrap = Some(Wrap {
                            name_override: wrapper.name_override,
                            other_arguments: wrapper.other_arguments,
                        });
                    }
                    Err(why) => {
                        let reason = self.unresolved(agent, construction.line, &spelled, &why);
                        self.agent_gap(agent, reason);
                        return None;
                    }
                }
            }
        }
        let (def_path, function) = match found.target {
            Target::Function { path, function } => (path, function),
            Target::Module(_) => {
                let why = format!("{} is a module, not a function", str_repr(&spelled));
                let reason = self.unresolved(agent, construction.line, &spelled, &why);
                self.agent_gap(agent, reason);
                return None;
            }
            Target::Value { path, name, line } => {
                let why = format!(
                    "{} in {path}:{line} is assigned a value, not a function definition",
                    str_repr(&name)
                );
                let reason = self.unresolved(agent, construction.line, &spelled, &why);
                self.agent_gap(agent, reason);
                return None;
            }
        };
        let def_facts = self.modules.facts(def_path)?;
        // An ADK tool is any function; the SDK's must carry @function_tool.
        let decorated = match self.framework {
            Framework::OpenAi => openai::function_tool_name(def_facts, function),
            Framework::Adk => Some(function.name.clone()),
        };
        let tool = match &wrap {
            Some(wrap) => Some(
                wrap.name_override
                    .clone()
                    .or(decorated)
                    .unwrap_or_else(|| function.name.clone()),
            ),
            None => decorated,
        };
        let Some(tool) = tool else {
            let why = format!(
                "it resolves to {} at {def_path}:{}, which is not decorated with the SDK's @function_tool",
                str_repr(&function.name),
                function.line
            );
            let reason = self.unresolved(agent, construction.line, &spelled, &why);
            self.agent_gap(agent, reason);
            return None;
        };
        if let Some(why) = reassignment(self.modules, &found.steps) {
            let reason = self.unresolved(agent, construction.line, &spelled, &why);
            self.agent_gap(agent, reason);
            return None;
        }
        // Only a chain through other modules can be rebound by code outside
        // the read (the reference reads a same-module definition as is).
        let through_modules = found.steps.iter().any(|step| step.path != self.path);
        let caveats = if through_modules {
            outside_code(self.modules, &found.steps)
        } else {
            Vec::new()
        };
        if let Some(first) = caveats.first() {
            // The definition is read, but code the read cannot see runs
            // first and could rebind it: the tool stays named on this agent.
            self.gaps.insert(Gap {
                tool: Some(tool.clone()),
                ..Gap::agent(
                    self.path,
                    agent,
                    format!(
                        "{} binds {} ({def_path}:{}), but {first}; the definition read for it is not established as the one bound.",
                        self.who(agent, construction.line),
                        str_repr(&tool),
                        function.line
                    ),
                )
            });
        }
        let crosses_modules = through_modules;
        Some(FollowedTool {
            definition: ToolDefinition {
                source: def_path.to_string(),
                line: Some(function.line),
                implementation_sha256: Some(
                    match wrap.as_ref().filter(|w| !w.other_arguments.is_empty()) {
                        // The wrapper's other arguments are part of the tool.
                        Some(wrap) => crate::python::ast_dump::sha256_of_json_string(&format!(
                            "{}|function_tool:{}",
                            function.implementation_sha256,
                            wrap.other_arguments.join(",")
                        )),
                        None => function.implementation_sha256.clone(),
                    },
                ),
                interface: interface(&tool, function),
                import_path: crosses_modules.then_some(super::ImportPath {
                    reference: spelled,
                    steps: found.steps,
                    caveats,
                }),
                reach: None,
            },
            tool,
        })
    }

    /// `mcp_servers=`, member by member: each an MCP server object, or a
    /// named limit on the agent.
    fn read_mcp_servers(&mut self, agent: &str, construction: &AgentConstruction<'_>) {
        let Some(members) = self.list_of(agent, construction, "mcp_servers") else {
            return;
        };
        let line = list_line(construction, "mcp_servers");
        let mut objects: Vec<ReadObject> = Vec::new();
        let mut ways = Ways::new();
        for (
            index,
            list_exprs::Member {
                member,
                scope,
                when,
                from,
                caller,
                rewired_at,
            },
        ) in members.into_iter().enumerate()
        {
            if from.is_some() {
                // A server list from another module is not read here.
                let reason = self.dynamic(agent, construction.line, "mcp_servers");
                self.agent_gap(agent, reason);
                continue;
            }
            if let ListMember::Unread(kind) = &member {
                if kind == crate::python::MEMBERS_PAST_BOUND {
                    let reason = self.list_limit(agent, construction, "mcp_servers", kind, true);
                    self.agent_gap(agent, reason);
                    continue;
                }
            }
            let built = match &member {
                ListMember::Reference(reference) => self.built_object(&scope, reference),
                ListMember::Call(call) => {
                    Some(Built::inline(self.path, self.facts, &scope, call, line))
                }
                ListMember::Unread(_) => None,
            };
            let read = match built {
                Some(built) => self.read_object(&built, ObjectList::McpServers, index + 1),
                None => Ok(None),
            };
            match read {
                Ok(Some(object)) => {
                    ways.add(
                        object.name.clone(),
                        &when,
                        caller.as_deref(),
                        rewired_at.as_deref(),
                    );
                    objects.push(object)
                }
                Ok(None) => {
                    let spelled = match &member {
                        ListMember::Reference(value) | ListMember::Call(value) => {
                            crate::graph::schema::unparse(value)
                        }
                        ListMember::Unread(kind) => format!("a {kind}"),
                    };
                    let why = format!(
                        "lists {} in mcp_servers=, which is not an MCP server this reader identifies",
                        str_repr(&spelled)
                    );
                    self.agent_gap(agent, self.object_limit(agent, construction.line, &why));
                }
                Err(why) => {
                    self.agent_gap(agent, self.object_limit(agent, construction.line, &why))
                }
            }
        }
        self.bind_objects(agent, construction, line, objects);
        self.apply_ways(agent, &ways);
    }

    /// Whether `path` builds exactly one SDK agent assigned to `name`.
    fn is_single_agent(&self, path: &str, name: &str) -> bool {
        let Some(facts) = self.modules.facts(path) else {
            return false;
        };
        let sites = openai::agent_constructions(facts, path)
            .into_iter()
            .filter(|c| c.identity == name)
            .count();
        sites == 1 && openai::is_sdk_source(facts)
    }

    /// Whether another module of the scope imports `name` (or `*`) from
    /// this one.
    fn imported_elsewhere(&self, name: &str) -> bool {
        let mut resolver = Resolver::new(self.modules);
        self.modules.paths().any(|other| {
            other != self.path
                && self.modules.facts(other).is_some_and(|facts| {
                    facts.imports.iter().any(|import| {
                        matches!(import.name.as_deref(), Some(n) if n == name || n == "*")
                            && resolver
                                .module_file(other, import.level, &import.module)
                                .as_deref()
                                == Some(self.path)
                    })
                })
        })
    }

    /// A capability list read only in part, or not at all, in the spec's
    /// words: the first place reading stopped, why, and where the list is.
    fn list_limit(
        &self,
        agent: &str,
        construction: &AgentConstruction<'_>,
        field: &str,
        why: &str,
        read_some: bool,
    ) -> String {
        let how = if read_some {
            "reads only in part"
        } else {
            "does not read"
        };
        let at = format!("{}:{}", self.path, list_line(construction, field));
        let incomplete = match self.framework {
            Framework::OpenAi => "; its binding graph is incomplete",
            Framework::Adk => "",
        };
        format!(
            "{} has a {field} list it {how}{incomplete}. Not read: {why} ({at}).",
            self.who(agent, construction.line)
        )
    }

    /// `**` unpacking, or positional arguments after the name, can carry
    /// tools or handoffs the reader does not see.
    fn read_unpacking(&mut self, agent: &str, construction: &AgentConstruction<'_>) {
        let call = construction.call;
        let unpacks = call.keywords.iter().any(|k| k.name.is_none());
        let named_by_keyword = call.keyword("name").is_some();
        let extra_positional = if named_by_keyword {
            !call.args.is_empty()
        } else {
            call.args.len() > 1
        };
        if unpacks || extra_positional {
            let what = if unpacks {
                "** keyword unpacking"
            } else {
                "positional arguments after its name"
            };
            self.agent_gap(
                agent,
                format!(
                    "{} passes {what}, which can carry tools or handoffs; its binding graph is incomplete.",
                        self.who(agent, construction.line),
                ),
            );
        }
    }
}

/// Whether no two capability fields of a construction can hold one list
/// object, so a gap in reading one field cannot hide what another lists:
/// no `**` spread or extra positional argument (which may carry any
/// field), and no value given to two fields unless both are displays
/// (`[…]` builds a new list each time; a name, attribute or call given
/// twice is one object).
fn fields_kept_apart(call: &crate::python::CallFact) -> bool {
    if call.keywords.iter().any(|k| k.name.is_none()) {
        return false;
    }
    let positional_name = call.keyword("name").is_none() && call.args.len() == 1;
    if !call.args.is_empty() && !positional_name {
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

/// Modules whose top-level code runs before the agent uses a reference:
/// every module on the chain and the `__init__.py` of every package above
/// one, inside the scope.
fn runs_first(steps: &[ImportStep]) -> BTreeSet<String> {
    let mut checked: BTreeSet<String> = steps.iter().map(|s| s.path.clone()).collect();
    for step in steps {
        let mut dir = step.path.rsplit_once('/').map(|(d, _)| d.to_string());
        while let Some(current) = dir {
            checked.insert(format!("{current}/__init__.py"));
            dir = current.rsplit_once('/').map(|(d, _)| d.to_string());
        }
    }
    checked.insert("__init__.py".to_string());
    checked
}

/// Code that runs first but is not read: an absolute import of a module the
/// repository holds outside the scope, or a relative import above it. Each
/// could rebind what the chain reads (spec: "keeps the tool named").
fn outside_code(modules: &ModuleSet<'_>, steps: &[ImportStep]) -> Vec<String> {
    let mut caveats = Vec::new();
    for path in runs_first(steps) {
        let (Some(facts), Some(key)) = (modules.facts(&path), modules.key(&path)) else {
            continue;
        };
        for import in facts
            .imports
            .iter()
            .filter(|i| i.scope.is_empty() && !i.type_checking && !i.conditional)
        {
            let mut resolver = Resolver::new(modules);
            if resolver.locate(key, import.level, &import.module).is_ok() {
                continue;
            }
            if import.level > 0 {
                let spelled = format!("{}{}", ".".repeat(import.level as usize), import.module);
                if resolver.above_scope(key, import.level) {
                    caveats.push(format!(
                        "{path}:{} imports {}, a relative import above the read scope, which is not read and could reassign it",
                        import.line,
                        str_repr(&spelled)
                    ));
                }
            } else if modules.is_outside_repository_module(&import.module) {
                caveats.push(format!(
                    "{path}:{} imports {}, which the repository holds outside the read scope, which is not read and could reassign it",
                    import.line,
                    str_repr(&import.module)
                ));
            }
        }
    }
    caveats
}

/// Code that runs before the agent uses a reference and rebinds a step of
/// its chain (`tools.lookup = other`, `setattr(tools, …)`), in every module
/// on the chain and every package `__init__.py` above one, makes the
/// reference a named stop.
fn reassignment(modules: &ModuleSet<'_>, steps: &[ImportStep]) -> Option<String> {
    // The name each chain module is read for.
    let chain: BTreeMap<&str, BTreeSet<&str>> =
        steps.iter().fold(BTreeMap::new(), |mut chain, step| {
            chain
                .entry(step.path.as_str())
                .or_default()
                .insert(step.name.as_str());
            chain
        });
    let checked = runs_first(steps);
    // Packages above the scope run before it; their modules are outside the
    // read, so any store into an attribute named like a chain step counts.
    let agent_file = steps.first().map_or("", |s| s.path.as_str());
    let names: BTreeSet<&str> = chain.values().flatten().copied().collect();
    for (path, facts) in modules.ancestor_inits() {
        for store in facts
            .attribute_stores
            .iter()
            .filter(|s| s.scope.is_empty() && s.how.rebinds())
        {
            let [_, attribute, ..] = store.target.as_slice() else {
                continue;
            };
            if attribute == "*" || names.contains(attribute.as_str()) {
                return Some(format!(
                    "an attribute named {} is reassigned in {path}:{}, which {agent_file} runs before the name is used",
                    str_repr(attribute),
                    store.line
                ));
            }
        }
    }
    for path in &checked {
        let Some(facts) = modules.facts(path) else {
            continue;
        };
        for store in facts
            .attribute_stores
            .iter()
            .filter(|s| s.scope.is_empty() && s.how.rebinds())
        {
            let [object, attribute, ..] = store.target.as_slice() else {
                continue;
            };
            let mut resolver = Resolver::new(modules);
            let Some(static_path) = modules_key(modules, path) else {
                continue;
            };
            let Ok(found) = resolver.resolve(static_path, "", &Value::Name(object.clone())) else {
                continue;
            };
            let Target::Module(loc) = found.target else {
                continue;
            };
            let Some(file) = loc.file.as_deref() else {
                continue;
            };
            let names = chain.get(file);
            let hits = attribute == "*" || names.is_some_and(|n| n.contains(attribute.as_str()));
            if names.is_some() && hits {
                return Some(reassignment_reason(
                    steps, object, attribute, path, store.line,
                ));
            }
        }
    }
    None
}

/// The reference spelled through the reassigned attribute (`tools.lookup`)
/// is "reassigned by attribute"; a name imported from that module is
/// reached through an attribute "named like" the reassigned one.
fn reassignment_reason(
    steps: &[ImportStep],
    object: &str,
    attribute: &str,
    path: &str,
    line: u32,
) -> String {
    let spelled_through = steps.first().is_some_and(|s| s.name == object);
    let agent_file = steps.first().map_or(path, |s| s.path.as_str());
    if spelled_through {
        format!(
            "{} is reassigned by attribute in {path}:{line}",
            str_repr(&format!("{object}.{attribute}"))
        )
    } else {
        format!(
            "an attribute named {} is reassigned in {path}:{line}, which {agent_file} runs before the name is used",
            str_repr(attribute)
        )
    }
}

fn modules_key<'m>(modules: &ModuleSet<'m>, path: &str) -> Option<&'m str> {
    modules.key(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Affects;
    use crate::python::extract_facts;

    fn side(files: &[(&str, &str)]) -> SideGraph {
        build_side(SideInput {
            scope: ".".into(),
            context: ScopeContext::default(),
            files: files
                .iter()
                .map(|(path, source)| SourceFile {
                    path: path.to_string(),
                    facts: Arc::new(extract_facts(source.as_bytes())),
                })
                .collect(),
            ..SideInput::default()
        })
    }

    const AGENT: &str = r#"from agents import Agent, function_tool

@function_tool
def lookup(order_id: str) -> dict:
    return {}

def plain():
    pass

support = Agent(name="Support", tools=[lookup, plain, missing])
triage = Agent(name="Triage", tools=[lookup], handoffs=[support])
other = Agent(name="Other", tools=make())
"#;

    #[test]
    fn tools_handoffs_and_gaps_are_read() {
        let graph = side(&[("agent.py", AGENT), ("broken.py", "def (:\n")]);
        assert_eq!(
            graph.sources,
            vec![("openai_agents_sdk".to_string(), "agent.py".to_string())]
        );
        let agents: Vec<_> = graph
            .agents
            .iter()
            .map(|a| (a.name.as_str(), a.location.as_str()))
            .collect();
        assert_eq!(
            agents,
            vec![
                ("other", "agent.py:12"),
                ("support", "agent.py:10"),
                ("triage", "agent.py:11")
            ]
        );
        let keys: Vec<_> = graph
            .bindings
            .iter()
            .map(|b| (b.agent.as_str(), b.tool_key.as_str()))
            .collect();
        assert_eq!(
            keys,
            vec![
                ("support", "lookup"),
                ("triage", "handoff:agent.py:support"),
                ("triage", "lookup")
            ]
        );
        let reasons: Vec<_> = graph.gaps.iter().map(|g| g.reason.as_str()).collect();
        assert_eq!(
            reasons,
            vec![
                "OpenAI Agents SDK agent 'other' at agent.py:12 has a tools list it does not read; its binding graph is incomplete. Not read: a call to `make`, whose result is not read (agent.py:12).",
                "OpenAI Agents SDK agent 'support' at agent.py:10 binds unresolved tool 'missing'. Not resolved because 'missing' is not bound at module level in agent.py.",
                "OpenAI Agents SDK agent 'support' at agent.py:10 binds unresolved tool 'plain'. Not resolved because it resolves to 'plain' at agent.py:7, which is not decorated with the SDK's @function_tool.",
                "Python input could not be parsed: broken.py",
            ]
        );
        assert!(graph
            .gaps
            .iter()
            .all(|g| g.affects == Affects::BindingPresence));
        match &graph.bindings[0].edge {
            Edge::Tool(def) => {
                assert_eq!(def.line, Some(4));
                assert_eq!(def.interface.signature, "lookup(order_id) -> dict");
            }
            other => panic!("expected a tool edge, got {other:?}"),
        }
    }

    #[test]
    fn one_identity_built_at_two_sites_is_one_agent_only_when_both_bind_the_same() {
        const TOOLS: &str = "from agents import Agent, function_tool\n\n@function_tool\ndef a() -> str:\n    return 'a'\n\n@function_tool\ndef b() -> str:\n    return 'b'\n\n";
        let same = format!("{TOOLS}def quote(x):\n    if x:\n        return Agent(name='Quote', tools=[a])\n    return Agent(name='Quote', tools=[a])\n");
        let graph = side(&[("q.py", &same)]);
        assert!(graph.gaps.is_empty(), "{:?}", graph.gaps);
        assert_eq!(graph.bindings[0].construction_sites, vec![13, 14]);
        assert_eq!(graph.agents.len(), 1);
        let keys: Vec<_> = graph.bindings.iter().map(|b| b.tool_key.as_str()).collect();
        assert_eq!(keys, vec!["a"]);

        let different = format!("{TOOLS}def quote(x):\n    if x:\n        return Agent(name='Quote', tools=[a, b])\n    return Agent(name='Quote', tools=[a])\n");
        let graph = side(&[("q.py", &different)]);
        assert_eq!(
            graph.gaps[0].reason,
            "OpenAI Agents SDK agent 'Quote' is constructed more than once in q.py (lines 13, 14) with different tools or handoffs; which one runs is not established, and their tools are compared as one agent, each row naming the constructions that list its tool."
        );
        let keys: Vec<_> = graph.bindings.iter().map(|b| b.tool_key.as_str()).collect();
        assert_eq!(
            keys,
            vec!["a", "b"],
            "every tool any site binds is a binding, beside the limit"
        );
        let sites: Vec<_> = graph
            .bindings
            .iter()
            .map(|b| b.construction_sites.clone())
            .collect();
        assert_eq!(sites, vec![vec![13, 14], vec![]]);
    }
}
