//! Building one side's graph from the facts of the scope's modules.
//!
//! Here: the side builder's entry (`build_side`), the per-module reader
//! both framework passes share (`ModuleReader`) and its common queries.
//! The OpenAI Agents SDK pass is `sdk_agents.rs`, the Google ADK pass
//! `adk_members.rs`; each capability list is read in its own module
//! (`tools.rs`, `handoffs.rs`, `mcp.rs`), and what no reader follows is
//! named by `capability_limits.rs`.

use super::{
    AgentSettings, Binding, Edge, Field, Gap, ModuleNames, NameAt, SideGraph, ToolDefinition,
};
use crate::frameworks::module_context::AgentBase;
use crate::frameworks::openai::{self, AgentConstruction};
use crate::frameworks::{adk, GOOGLE_ADK, OPENAI_AGENTS_SDK};
use crate::python::{BindingKind, ModuleFacts, Value};
use crate::resolve::{ModuleSet, Resolver, ScopeContext};
use std::collections::BTreeSet;
use std::sync::Arc;

mod adk_factories;
mod adk_members;
mod agent_bindings;
mod agent_subclasses;
mod capability_limits;
mod chains;
mod decorator_returns;
mod decorators;
mod eval;
mod follow;
mod gates;
mod handoffs;
mod imported_tools;
mod instance_agents;
mod list_args;
mod mcp;
mod messages;
mod module_contexts;
mod name_filters;
mod object_members;
mod reexports;
mod rewires;
mod sdk_agents;
mod sites;
mod tool_classes;
mod tools;
mod ways;
mod work_budget;
mod wrapper_agents;
use capability_limits::{capability_limits, duplicate_tool_definitions, fields_kept_apart};
use ways::Ways;

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
    /// Test-like modules listed but not read: the resolver sees their
    /// paths, and a build that asks for one's facts names it
    /// (`try_build_side`) to be read and built again.
    pub unread_tests: Vec<String>,
    /// Symbolic links named `*.py` (scope-relative): never read.
    pub linked: Vec<String>,
    /// Gaps found before reading (bounds, links, submodules).
    pub gaps: Vec<Gap>,
    pub limits: Vec<String>,
    pub excluded_tests: Vec<String>,
    /// `(path, blob id)` of every Python file listed.
    pub files_listed: Vec<(String, String)>,
    pub gitlinks: Vec<(String, String)>,
    /// Inputs the listing does not list (`SideGraph::unlisted`).
    pub unlisted: Vec<super::UnlistedInput>,
    /// Links (scope-relative) that resolve to nothing in the tree.
    pub dangling_links: Vec<String>,
}

/// The test-like modules a build asked for but was given by path only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadWanted {
    pub paths: Vec<String>,
}

/// Builds the side's agent graph, or names the unread test-like modules
/// (`SideInput::unread_tests`) it asked for: read them and build again.
///
/// Rule (why a build that asked for none is exact): a build reaches a
/// module's facts only through `ModuleSet::facts` and `ModuleSet::key`,
/// which record every unread module asked for; everything else a build
/// learns of a module is its path (a file, an `__init__.py`, a package
/// directory), which an unread module shows as a read one does. A build
/// that asked for no unread module's facts therefore computed what it
/// would have with all of them read.
pub fn try_build_side(input: SideInput) -> Result<SideGraph, UnreadWanted> {
    let (graph, wanted) = build(input, work_budget::GRAPH_WORK_BUDGET);
    if wanted.is_empty() {
        Ok(graph)
    } else {
        Err(UnreadWanted { paths: wanted })
    }
}

/// Builds the side's agent graph from an input whose test-like modules
/// are all read (`unread_tests` empty; any listed there are taken as
/// absent).
pub fn build_side(mut input: SideInput) -> SideGraph {
    input.unread_tests.clear();
    build(input, work_budget::GRAPH_WORK_BUDGET).0
}

/// The side's modules as the resolver reads them: its files and links.
fn side_modules<'a>(
    files: &'a [SourceFile],
    linked: &'a [String],
    context: &'a ScopeContext,
) -> ModuleSet<'a> {
    ModuleSet::new(
        files.iter().map(|f| (f.path.as_str(), f.facts.as_ref())),
        linked.iter().map(String::as_str),
        context,
    )
}

/// The graph, and the unread modules it asked for; its agents cost at
/// most `budget_steps` (`work_budget.rs`).
fn build(mut input: SideInput, budget_steps: u64) -> (SideGraph, Vec<String>) {
    let mut graph = SideGraph {
        absent: input.absent,
        limits: input.limits,
        excluded_tests: input.excluded_tests,
        files: input.files_listed,
        gitlinks: input.gitlinks,
        unlisted: input.unlisted,
        dangling_links: input.dangling_links,
        ..SideGraph::default()
    };
    let mut gaps: BTreeSet<Gap> = input.gaps.into_iter().collect();
    // Framework names a module of the scope re-exports are read as the
    // framework imports they forward (`reexports.rs`): the files that
    // import them are read with those imports in their place.
    let forwarded = reexports::read_through(
        &side_modules(&input.files, &input.linked, &input.context),
        &input.files,
    );
    for file in forwarded {
        if let Some(slot) = input.files.iter_mut().find(|f| f.path == file.path) {
            *slot = file;
        }
    }
    let modules = side_modules(&input.files, &input.linked, &input.context)
        .with_imported_only(
            input
                .test_files
                .iter()
                .map(|f| (f.path.as_str(), f.facts.as_ref())),
        )
        .with_unread(input.unread_tests.iter().map(String::as_str));
    // A repository that holds its own `google` package shadows the
    // framework: its `google.adk` is not Google ADK.
    let vendored_adk = input.context.outside_modules.contains("google")
        || input.files.iter().any(|f| f.path.starts_with("google/"));
    if vendored_adk && input.files.iter().any(|f| adk::is_adk_source(&f.facts)) {
        graph.limits.push(
            "The repository holds its own google package, so google.adk imports there are not read as Google ADK.".to_string(),
        );
    }
    let rewire_index = rewires::RewireIndex::of(&modules);
    let budget = work_budget::WorkBudget::new(budget_steps);
    let contexts = module_contexts::ModuleContexts::of_side(&modules, &input.files);
    let side = SideReading {
        modules: &modules,
        contexts: &contexts,
        rewires: &rewire_index,
        budget: &budget,
    };
    for file in &input.files {
        // A cancelled read stops here; the engine drops what was built.
        if crate::work::cancelled() {
            break;
        }
        let bound = file
            .facts
            .module_bindings
            .iter()
            .filter(|binding| matches!(binding.kind, BindingKind::Assignment | BindingKind::Import))
            .map(|binding| NameAt {
                name: binding.name.clone(),
                line: binding.line,
            });
        // A construction passing `name="x"` names agent `x` too, whether or
        // not the reader reads it (a subclass, a vendored class).
        let passed = file.facts.calls.iter().filter_map(|call| {
            match call.keyword("name").map(|k| &k.value) {
                Some(Value::Str(name)) => Some(NameAt {
                    name: name.clone(),
                    line: call.line,
                }),
                _ => None,
            }
        });
        let names: Vec<NameAt> = bound.chain(passed).collect();
        if !names.is_empty() {
            graph.module_names.push(ModuleNames {
                path: file.path.clone(),
                names,
            });
        }
        if let Some(unread) = &file.facts.syntax_error {
            gaps.insert(Gap::file(
                &file.path,
                unread_source_reason(&file.path, unread),
            ));
            continue;
        }
        // A module that only builds a repository subclass of an agent
        // class is read by that framework's reader, not listed as its
        // source (it imports no framework).
        let context = contexts.of(&file.path);
        let adk_source = adk::is_adk_source(&file.facts);
        if (adk_source || context.builds(AgentBase::Adk) || context.builds(AgentBase::AdkCustom))
            && !vendored_adk
        {
            if adk_source {
                graph
                    .sources
                    .push((GOOGLE_ADK.to_string(), file.path.clone()));
            }
            ModuleReader::new(Framework::Adk, file, side, &mut graph, &mut gaps).read_adk();
        }
        let sdk_source = openai::is_sdk_source(&file.facts);
        if sdk_source || context.builds(AgentBase::Sdk) {
            if sdk_source {
                graph
                    .sources
                    .push((OPENAI_AGENTS_SDK.to_string(), file.path.clone()));
                duplicate_tool_definitions(&file.path, &file.facts, &mut gaps);
            }
            ModuleReader::new(Framework::OpenAi, file, side, &mut graph, &mut gaps).read();
        }
    }
    // The census of changes, copies and subclasses runs only where the side
    // has an OpenAI Agents SDK or Google ADK source: without one no agent
    // is read, and a report builder's own `.tools` is not an agent's.
    // A cancelled read stops before the side-wide passes; the engine drops
    // what was built (`engine::side_graphs`, `cached_after_build`).
    if crate::work::cancelled() {
        return (graph, modules.wanted());
    }
    if !graph.sources.is_empty() {
        capability_limits(&modules, &contexts, &rewire_index, &input.files, &mut gaps);
    }
    graph.declared_tools = declared_tools(&modules, &input.files, &mut graph.limits);
    // What each bound function tool reaches: evidence on its sides; and
    // what each declared MCP server tool reaches, to hold against its
    // declaration. Its span is shown by `SHIPGATE_LOG` only: it runs on
    // both sides' threads at once, inside the request's `graph` phase.
    tracing::info_span!("reach")
        .in_scope(|| attach_reach(&modules, &mut graph.bindings, &mut graph.declared_tools));
    graph.sources.sort();
    graph.agents.sort();
    graph.bindings.sort_by(|a, b| {
        (&a.agent_source, &a.agent, &a.tool_key).cmp(&(&b.agent_source, &b.agent, &b.tool_key))
    });
    graph.gaps = gaps.into_iter().collect();
    (graph, modules.wanted())
}

/// What a construction passes that is not a named argument and so could
/// carry any capability field: `**` keyword unpacking, or positional
/// arguments after its name (the SDK's `Agent` takes its name first).
fn passes_unnamed(call: &crate::python::CallFact) -> Option<&'static str> {
    if call.keywords.iter().any(|k| k.name.is_none()) {
        return Some("** keyword unpacking");
    }
    let named_by_keyword = call.keyword("name").is_some();
    let extra_positional = if named_by_keyword {
        !call.args.is_empty()
    } else {
        call.args.len() > 1
    };
    extra_positional.then_some("positional arguments after its name")
}

/// Sets the reach of every function tool the side binds and of every tool
/// its own MCP servers declare (`reach/`): one reader, so a helper both
/// call is read once.
fn attach_reach(
    modules: &ModuleSet<'_>,
    bindings: &mut [Binding],
    declared: &mut [super::DeclaredTool],
) {
    let mut reader = crate::reach::ToolReader::new(modules);
    for binding in bindings {
        if crate::work::cancelled() {
            return;
        }
        if let Edge::Tool(definition) = &mut binding.edge {
            if let Some(line) = definition.line {
                definition.reach = reader.read(&definition.source, line);
            }
        }
    }
    for tool in declared {
        tool.reach = reader.read(&tool.source, tool.declaration.function_line);
    }
}

/// The tools the scope's MCP servers register with a declaration about
/// their effects (`frameworks::mcp_servers`). A module for which an
/// absolute `import mcp` (or `fastmcp`) would find the repository's own
/// code is not read as the library's (the rule `callable_identity` keeps),
/// and the side says so.
fn declared_tools(
    modules: &ModuleSet<'_>,
    files: &[SourceFile],
    limits: &mut Vec<String>,
) -> Vec<super::DeclaredTool> {
    use crate::frameworks::mcp_servers::{server_tools, SERVER_PACKAGES};
    let mut found = Vec::new();
    for file in files {
        let tools: Vec<_> = server_tools(&file.facts)
            .into_iter()
            .filter(|tool| tool.annotated)
            .collect();
        if tools.is_empty() {
            continue;
        }
        let mut resolver = Resolver::new(modules);
        let shadowed = SERVER_PACKAGES.iter().any(|package| {
            resolver.locate(&file.path, 0, package).is_ok()
                || modules.is_outside_repository_module(package)
        });
        if shadowed {
            let limit = format!("The repository holds its own mcp or fastmcp package where {} imports it, so its MCP servers are not read as that library's, nor their tools' declarations.", file.path);
            if !limits.contains(&limit) {
                limits.push(limit);
            }
            continue;
        }
        for declaration in tools {
            found.push(super::DeclaredTool {
                source: file.path.clone(),
                declaration,
                reach: None,
            });
        }
    }
    found
}

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
    /// Every module's framework context (`module_contexts.rs`).
    contexts: &'a module_contexts::ModuleContexts,
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
    /// The side's additions that could be rewires (`rewires.rs`).
    rewires: &'a rewires::RewireIndex<'m>,
    /// The call of a repository function whose body is being read, with
    /// what it binds the parameters to (`call_frames.rs`; `None`: none).
    frame: std::cell::RefCell<Option<std::rc::Rc<eval::call_frames::CallFrame>>>,
    /// Set while a called function's return value is read: the name it
    /// returns is read once by that return (taken by the list reader).
    returning: std::cell::Cell<bool>,
    /// Whether the list expression read next is an argument a followed
    /// call passes to a parameter it only reads (one read of a name the
    /// caller lists there).
    passing: std::cell::Cell<bool>,
    /// The side's bindings by this module's agents (`agent_bindings.rs`).
    agent_bindings: agent_bindings::AgentBindings,
    /// What is left of the side's graph work budget (`work_budget.rs`).
    budget: &'a work_budget::WorkBudget,
}

/// What a `function_tool(f, …)` call adds to the function it wraps.
struct Wrap {
    name_override: Option<String>,
    /// A `name_override=` given but not read, as written.
    unread_override: Option<String>,
    other_arguments: Vec<String>,
    /// The gates its keywords set (`needs_approval=`), read where it is.
    gates: Vec<crate::graph::gates::Gate>,
}

/// A tool an agent lists, followed to its definition.
struct FollowedTool {
    tool: String,
    definition: ToolDefinition,
    /// The gates its wrapper and decorator set.
    gates: Vec<crate::graph::gates::Gate>,
}

/// What every module reader of a side shares.
#[derive(Clone, Copy)]
struct SideReading<'a, 'm> {
    modules: &'a ModuleSet<'m>,
    contexts: &'a module_contexts::ModuleContexts,
    rewires: &'a rewires::RewireIndex<'m>,
    budget: &'a work_budget::WorkBudget,
}

impl<'a, 'm> ModuleReader<'a, 'm> {
    fn new(
        framework: Framework,
        file: &'a SourceFile,
        side: SideReading<'a, 'm>,
        graph: &'a mut SideGraph,
        gaps: &'a mut BTreeSet<Gap>,
    ) -> Self {
        let SideReading {
            modules,
            contexts,
            rewires,
            budget,
        } = side;
        ModuleReader {
            budget,
            agent_bindings: agent_bindings::AgentBindings::starting(&graph.bindings),
            rewires,
            contexts,
            framework,
            path: &file.path,
            facts: &file.facts,
            modules,
            graph,
            gaps,
            reading_line: std::cell::Cell::new(0),
            resolve_from: std::cell::Cell::new(None),
            field: std::cell::Cell::new(None),
            frame: std::cell::RefCell::new(None),
            returning: std::cell::Cell::new(false),
            passing: std::cell::Cell::new(false),
        }
    }
}

impl ModuleReader<'_, '_> {
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
            gates: Vec::new(),
        });
        key
    }

    /// Whether `path` builds exactly one SDK agent assigned to `name`.
    fn is_single_agent(&self, path: &str, name: &str) -> bool {
        // A module-level name is that agent only when the construction is
        // bound to it at module level (not a function's same-named local).
        self.contexts
            .sdk_identity(path, name)
            .is_some_and(|identity| identity.sites == 1 && identity.module_level)
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
}

#[cfg(test)]
mod tests;
