"""The catalogue of shapes: the ways the renderer may spell one binding, by axis.

A shape the current engine reads wrongly (confirmed by hand against the spec) carries
`known_wrong="..."` and is not drawn unless `--include-known-wrong` is given; a shape the readers
cannot read at all is `unreadable` (a named limit is expected instead of rows)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .model import ADK, SDK


@dataclass(frozen=True)
class Shape:
    name: str
    axis: str
    frameworks: tuple[str, ...]
    doc: str
    base: bool = False  # the plain shape of its axis: always enabled
    weight: int = 3  # relative chance of being drawn within its axis
    unreadable: bool = False  # readers are known not to read it: expect a named limit
    known_wrong: Optional[str] = None  # the engine reads it wrongly (one line)


CATALOGUE: list[Shape] = [
    # How an agent is constructed.
    Shape("module_literal", "construction", (SDK, ADK), "x = Agent(name='x', ...)", base=True),
    Shape("name_constant", "construction", (SDK, ADK), "X_NAME = 'x'; x = Agent(name=X_NAME, ...)"),
    Shape("positional_name", "construction", (SDK,), "x = Agent('x', ...)"),
    Shape("builder", "construction", (SDK, ADK), "def build_x(): return Agent(...); x = build_x()"),
    Shape("builder_local_list", "construction", (SDK, ADK), "def build_x(): tools = [a]; tools.append(b); return Agent(tools=tools)"),
    Shape("class_held", "construction", (SDK, ADK), "class XHolder: def __init__(self): self.agent = Agent(name='x', ...)"),
    # An instance's agent (issue 41, item 4): instantiated once at module level, referenced through it.
    Shape("class_instance", "construction", (SDK, ADK),
          "class XHolder: def __init__(self): self.agent = Agent(name='x', ...); x_holder = XHolder(); "
          "others hand off to (or wrap) x_holder.agent"),
    # Issue 41, item 1: the instance's agent a method returns, referenced as x_holder.create_agent().
    Shape("class_method_instance", "construction", (SDK, ADK),
          "class XHolder: def create_agent(self): return Agent(name='x', ...); x_holder = XHolder(); "
          "others hand off to (or wrap) x_holder.create_agent()", weight=2),
    Shape("clone", "construction", (SDK,), "x = other.clone(name='x', tools=[...]) (fields equal to the source's are inherited)"),
    Shape("kwargs_unpack", "construction", (SDK, ADK), "X_OPTIONS = {'tools': [...]}; Agent(name='x', **X_OPTIONS)", unreadable=True, weight=1),
    # Edge: a repository class deriving from ADK's BaseAgent runs code of its own; what a construction
    # of it binds is not read (issue 39's last silent hide: it was neither read nor named).
    Shape("adk_base_agent_subclass", "construction", (ADK,),
          "class XFlowAgent(BaseAgent): its _run_async_impl runs self.sub_agents; x = XFlowAgent(name='x', ...) (edge)",
          unreadable=True, weight=1),
    # Issue 41, item 2: a BaseAgent subclass whose code runs nothing (its run yields an Event) is read
    # as a workflow agent binding its sub_agents; passed tools= (which BaseAgent refuses), a limit.
    Shape("adk_inert_custom_agent", "construction", (ADK,),
          "class XSpikeAgent(BaseAgent): async def _run_async_impl(self, ctx): yield Event(author=self.name); "
          "x = XSpikeAgent(name='x', sub_agents=[...]) (with tools=: a limit)", weight=2),
    # Issue 41, items 2 and 3: a chain of repository agent classes, each adding behaviour but never
    # touching a capability field (app/<fw>_bases.py: `XBase(Agent)` with a helper, ADK an
    # `@override` run method that logs and delegates to super(); the agent's module:
    # `XAgent(XBase)` handing its base a constant), read as the framework class.
    Shape("subclass_chain", "construction", (SDK, ADK),
          "app/<fw>_bases.py: class XBase(Agent) (helper; ADK: @override _run_async_impl delegating); "
          "class XAgent(XBase): def __init__(self, **kwargs): super().__init__(<constant>, **kwargs); x = XAgent(...)",
          weight=2),
    # Edges: the derived class's __init__ changes what its ** parameter holds (SDK), or the run method calls a
    # helper before it delegates (ADK): an agent class no reader reads, a named limit, never silent.
    Shape("subclass_chain_unread", "construction", (SDK, ADK),
          "... XAgent's __init__ sets a default in kwargs (SDK), or XBase's _run_async_impl calls "
          "a helper before delegating (ADK) (edge: expects a limit)", unreadable=True, weight=1),
    # Builders as issue 40 reads them (a module-level undecorated sync function whose one
    # unconditional last statement returns the construction, a local bound once to it, or another
    # builder's call): the agent they build may be referenced by a call of the builder (`target_ref`).
    Shape("builder_returns_local", "construction", (SDK, ADK),
          "def build_x(): x = Agent(...); return x; x = build_x() (SDK: the agent is named by the local)"),
    Shape("builder_chain", "construction", (SDK, ADK),
          "def _make_x(): return Agent(...); def build_x(): return _make_x(); x = build_x()"),
    Shape("nested_local", "construction", (SDK, ADK),
          "def build_y(): x = Agent(...); return Agent(..., sub_agents=[x]): a local bound once to a construction in "
          "the function of the one agent that references it (else built as `builder_returns_local`)"),
    # Edge: which construction a call of it gives is decided at run time, so an agent that refers to
    # it through a call (`target_ref`) must be covered by a limit; its own rows are read.
    Shape("builder_two_returns", "construction", (SDK, ADK),
          "def build_x(): if os.getenv('FAST_X') == '1': return Agent(name='x_fast'); return Agent(...) "
          "(edge: a handoff, sub-agent or AgentTool written as build_x() expects a limit)", unreadable=True, weight=1),
    # Issue 40, item 2: a builder named by a string constant nothing can rebind is named by its
    # value; where a function may rebind it (`global`), the agent is named by its builder.
    # Issue 40, item 5: a factory called twice, one call's name not read (it comes from the
    # environment): the readable call is the agent its name spells, the other the agent the spec's
    # source label of that call names (`x_preview@<file>`), binding what its call's frame gives.
    Shape("factory_two_calls", "construction", (SDK, ADK),
          "def build_x(agent_name): return Agent(name=agent_name, ...); x = build_x('x'); "
          "x_preview = build_x(os.environ.get('X_PREVIEW_NAME', 'x_preview'))", weight=2),
    Shape("builder_name_constant", "construction", (SDK, ADK),
          "X_NAME = 'x'; def build_x(): return Agent(name=X_NAME, ...); x = build_x()", weight=2),
    Shape("builder_name_rebound", "construction", (SDK, ADK),
          "X_NAME = 'x'; def _rename_x(): global X_NAME; ...; def build_x(): return Agent(name=X_NAME, ...) "
          "(edge: the agent is named by its builder, `build_x@<file>`)", weight=1),
    # Issue 40, item 2: a module's constant read through the module (`name=names.X_NAME`) in a
    # builder; where some function stores into that attribute, the agent is named by its builder.
    Shape("builder_name_attribute", "construction", (SDK, ADK),
          "app/<fw>_names.py: X_NAME = 'x'; from . import <fw>_names; def build_x(): "
          "return Agent(name=<fw>_names.X_NAME, ...); x = build_x()", weight=1),
    Shape("builder_name_attribute_stored", "construction", (SDK, ADK),
          "... and def _rename_x(): <fw>_names.X_NAME = 'y' (edge: the agent is named by its builder)", weight=1),
    # ... and an SDK agent tool's name spelled by a module constant (a neutral spelling).
    Shape("tool_name_constant", "spelling", (SDK,), "ASK_X_TOOL = 'ask_x'; x.as_tool(tool_name=ASK_X_TOOL, ...)",
          weight=1),
    # Issue 40: a hosted tool's argument bound on module-level if/else branches before the agents.
    Shape("hosted_argument_branches", "spelling", (SDK,),
          "if os.getenv('WIDE_SEARCH') == '1': SEARCH_SIZE_X = 'high' else: SEARCH_SIZE_X = 'x'; "
          "WebSearchTool(search_context_size=SEARCH_SIZE_X) (fixed per file)", weight=1),
    # Edge: a decorated builder is not a builder (the decorator may return anything).
    Shape("builder_decorated", "construction", (SDK, ADK),
          "@functools.lru_cache(maxsize=None) def build_x(): return Agent(...) (edge: a reference by build_x() expects a limit)",
          unreadable=True, weight=1),
    # How its lists are spelled.
    Shape("literal", "tools_list", (SDK, ADK), "tools=[a, b]", base=True),
    Shape("spread", "tools_list", (SDK, ADK), "X_COMMON = [a]; tools=[*X_COMMON, b]"),
    Shape("shared_spread", "tools_list", (SDK, ADK), "COMMON_TOOLS = [what every such agent of the file binds]; tools=[*COMMON_TOOLS, c]"),
    Shape("module_constant", "tools_list", (SDK, ADK), "X_TOOLS = [a, b]; tools=X_TOOLS"),
    Shape("list_call", "tools_list", (SDK, ADK), "X_TOOLS = (a, b); tools=list(X_TOOLS)"),
    Shape("concatenated", "tools_list", (SDK, ADK), "X_BASE = [a]; tools=X_BASE + [b]"),
    Shape("imported_constant", "tools_list", (SDK, ADK), "app/<fw>_lists.py: X_TOOLS = [a, b]; from .<fw>_lists import X_TOOLS; tools=[*X_TOOLS, ...]"),
    Shape("dynamic_getattr", "tools_list", (SDK, ADK), "tools=x_tools() with getattr over a names table", unreadable=True, weight=1),
    Shape("dynamic_importlib", "tools_list", (SDK, ADK), "tools=x_tools() with importlib.import_module", unreadable=True, weight=1),
    Shape("rewire_append", "tools_list", (SDK, ADK), "the last tool (and handoff) bound by a module-level x.tools.append(t) after construction", weight=2),
    Shape("rewire_extend", "tools_list", (SDK, ADK), "... by x.tools.extend([t])", weight=1),
    Shape("rewire_iadd", "tools_list", (SDK, ADK), "... by x.tools += [t]", weight=1),
    Shape("rewire_insert", "tools_list", (SDK, ADK), "... by x.tools.insert(0, t)", weight=1),
    Shape("rewire_other_module", "tools_list", (SDK, ADK), "... by x.tools.append(t) in app/<fw>_wiring.py, which imports x (x built at module level)", weight=1),
    # A replacement after construction is the field's whole value where it runs before any request
    # (issue 40, farmwise): in the `__init__.py` of the package above the agent's module.
    Shape("rewire_replace_package", "tools_list", (SDK, ADK),
          "x = Agent(tools=[<all but the last>, <a decoy tool>]); app/__init__.py: from .m import x; "
          "x.tools = [<all>] (and, SDK, x.handoffs = [<all>]): the decoy is not bound", weight=1),
    # Edge: the same replacement where it runs only when that module is imported.
    Shape("rewire_replace_other_module", "tools_list", (SDK, ADK),
          "... the same replacement in app/<fw>_wiring.py (edge: expects a limit)", unreadable=True, weight=1),
    # A copy of the list passed to a function only reads it (issue 40).
    Shape("passed_copy", "tools_list", (SDK, ADK),
          "X_TOOLS = [a, b]; describe_tools(list(X_TOOLS)) (or tuple(...); sorted(...) of a one-member list); tools=X_TOOLS"),
    # The list itself passed to a function that only reads it (issue 40, item 6).
    Shape("passed_itself", "tools_list", (SDK, ADK),
          "X_TOOLS = [a, b]; describe_tools(X_TOOLS) where describe_tools takes len(), iterates and logs it; tools=X_TOOLS"),
    # Edge: the function may change the list itself.
    Shape("passed_and_sorted", "tools_list", (SDK, ADK),
          "X_TOOLS = [a, b]; sort_tools(X_TOOLS) where sort_tools calls items.sort(key=str); tools=X_TOOLS (edge)",
          unreadable=True, weight=1),
    # An imported list is read by its own module's reader, its spreads included (issue 40).
    Shape("imported_spread_list", "tools_list", (SDK, ADK),
          "app/<fw>_lists.py: X_SHARED = [a]; X_TOOLS = [*X_SHARED, b]; from app.<fw>_lists import X_TOOLS; "
          "tools=X_TOOLS (or list(X_TOOLS), [*X_TOOLS, fixed])"),
    # Edge: another module imports the spread list and adds to it.
    Shape("imported_shared_appended", "tools_list", (SDK, ADK),
          "... and app/<fw>_wiring.py: from .<fw>_lists import X_SHARED; X_SHARED.append(X_SHARED[0]) "
          "(edge: X_SHARED's members expect a limit)", unreadable=True, weight=1),
    # Additions under `if` tests are bound when the tests hold (issue 40, item 11): the conditional
    # members (`conditional_member`, `conditional_else`) are added by if-statements, not displays.
    Shape("conditional_append", "tools_list", (SDK, ADK),
          "X_TOOLS = [a]; if os.getenv('ENABLE_B') == '1': X_TOOLS.append(b); tools=X_TOOLS at module level "
          "(for an agent built in a function, in that function: tools = [a]; if ...: tools.append(b); or, for some, "
          "at module level before the builder's call)"),
    Shape("conditional_append_function", "tools_list", (SDK, ADK),
          "def x_tools(): tools = [a]; if os.getenv('ENABLE_B') == '1': tools.extend([b]); return tools; tools=x_tools()"),
    # Edges: the last function tool added where no test decides it.
    # A loop over a display that appends each item is that display's `extend` (issue 40, item 11);
    # its edge, a loop whose iteration may end before its append.
    Shape("loop_append", "tools_list", (SDK, ADK),
          "tools = [a]; for _item in (b, c): logging.debug(...); tools.append(_item) (the last two function tools)"),
    Shape("append_in_loop", "tools_list", (SDK, ADK),
          "tools = [a]; for _item in [b]: if _item is None: continue; tools.append(_item) (edge)",
          unreadable=True, weight=1),
    Shape("append_in_try", "tools_list", (SDK, ADK), "tools = [a]; try: tools.append(b) except Exception: pass (edge)",
          unreadable=True, weight=1),
    Shape("append_after_construction", "tools_list", (SDK, ADK),
          "X_TOOLS = [a]; x = Agent(tools=X_TOOLS); X_TOOLS.append(b) (edge)",
          unreadable=True, weight=1),
    Shape("append_in_function", "tools_list", (SDK, ADK),
          "X_TOOLS = [a]; def _register_x(): X_TOOLS.append(b); _register_x(); x = Agent(tools=X_TOOLS) (edge)",
          unreadable=True, weight=1),
    # Registries filled at import (issue 40, item 12; render/registries.py).
    Shape("registry_values", "tools_list", (SDK, ADK),
          "app/registry_<key>.py: _TOOLS = {}; def register_<key>(key) (or (fn)); def <key>_tools(): return "
          "list(_TOOLS.values()); import <each tool module>; @register_<key>('t') on each function tool; "
          "tools=[*<key>_tools(), ...]"),
    Shape("registry_unimported", "tools_list", (SDK, ADK),
          "... the registry does not import the last tool's module, the agent's module does (edge: every "
          "registered tool expects a limit)", unreadable=True, weight=1),
    # The next two were known_wrong until 73f8024 (the rewire was silent; the limit landed on the
    # wiring module only, so the agent's rows were established: a false `added`).
    Shape("adk_rewire_factory_result", "tools_list", (ADK,),
          "x = build_x(); x.tools.append(t) in the same module (drawn for ADK builder constructions with a rewire shape)",
          weight=1),
    Shape("rewire_factory_result_other_module", "tools_list", (SDK, ADK),
          "x = build_x() rewired by x.tools.append(t) in app/<fw>_wiring.py (drawn with builder constructions)", weight=1),
    # How a function tool is defined.
    Shape("sdk_decorator", "tool_def", (SDK,), "@function_tool", base=True),
    Shape("sdk_decorator_call", "tool_def", (SDK,), "@function_tool()"),
    Shape("sdk_function_tool_call", "tool_def", (SDK,), "def f ...; f_tool = function_tool(f)"),
    Shape("adk_plain", "tool_def", (ADK,), "def f ...; tools=[f]", base=True),
    Shape("adk_function_tool_inline", "tool_def", (ADK,), "tools=[FunctionTool(func=f)]"),
    Shape("adk_function_tool_module", "tool_def", (ADK,), "f_tool = FunctionTool(func=f) beside f; tools=[f_tool]"),
    Shape("adk_long_running_inline", "tool_def", (ADK,), "tools=[LongRunningFunctionTool(func=f)]"),
    # A repository decorator between the framework's and the def (app/decorators.py): the tool is the
    # function (issue 40); the decorator's code and the factory's arguments are part of its digest.
    Shape("undecorated", "tool_wrapper", (SDK, ADK), "no repository decorator", base=True, weight=9),
    Shape("decorator_factory", "tool_wrapper", (SDK, ADK),
          "@logged('label'): def logged(label): def decorator(func): @functools.wraps(func) def wrapper ...; return decorator"),
    Shape("dual_decorator", "tool_wrapper", (SDK, ADK),
          "@tool: def tool(func=None, *, quiet=False) ... _build(func) returns one of two wraps wrappers under "
          "if inspect.iscoroutinefunction(func): ... else: ..."),
    Shape("dual_decorator_call", "tool_wrapper", (SDK, ADK), "@tool(quiet=True), the same decorator called"),
    # Edges: what the decorator returns is decided at run time.
    Shape("factory_may_return_none", "tool_wrapper", (SDK, ADK),
          "@logged_optional('label'): the factory ends `if label: return decorator` / `return None` (edge)",
          unreadable=True, weight=1),
    Shape("decorator_falls_off", "tool_wrapper", (SDK, ADK),
          "@checked: `if not func.__name__.startswith('_'): return wrapper`, else it falls off its end (edge)",
          unreadable=True, weight=1),
    # How an agent file reaches a tool defined elsewhere.
    Shape("import_relative", "tool_ref", (SDK, ADK), "from .tools import a", base=True),
    Shape("import_absolute", "tool_ref", (SDK, ADK), "from app.tools import a"),
    Shape("module_alias", "tool_ref", (SDK, ADK), "from . import tools as tools_mod; tools_mod.a"),
    Shape("import_module_dotted", "tool_ref", (SDK, ADK), "import app.tools; app.tools.a"),
    Shape("alias_assignment", "tool_ref", (SDK, ADK), "from .tools import a; a_ref = a; tools=[a_ref]"),
    Shape("package_reexport", "tool_ref", (SDK, ADK), "app/lib/__init__.py re-exports a; from .lib import a"),
    Shape("wildcard_import", "tool_ref", (SDK, ADK), "from .tools import *; tools=[a]"),
    # How the package app/lib/__init__.py (whose modules the `package_reexport` spelling imports
    # through) re-exports its modules' tools.
    Shape("package_eager", "package_init", (SDK, ADK), "from .sdk_more import a, b", base=True),
    Shape("package_lazy", "package_init", (SDK, ADK),
          "_LAZY = {'a': ('.sdk_more', 'a')}; def __getattr__(name): ... importlib.import_module(module_path, "
          "__package__) ... globals()[name] = value; return value; raise AttributeError(name) (issue 40)"),
    # Edges: the first name of the registry (by sorted order) is not decided by the registry alone.
    Shape("package_lazy_mutated", "package_init", (SDK, ADK),
          "... and _LAZY['a'] = ('.sdk_more', 'a') at module level (edge: 'a' expects a limit)", unreadable=True, weight=1),
    Shape("package_lazy_hook_first", "package_init", (SDK, ADK),
          "... the hook first returns _resolve_override(name) for 'a' (edge: 'a' expects a limit)", unreadable=True, weight=1),
    # Where a function tool is defined.
    Shape("tools_module", "tool_home", (SDK, ADK), "app/<fw>_tools.py or app/lib/<fw>_more.py", base=True),
    Shape("local_definition", "tool_home", (SDK, ADK), "the tool is defined in the agent's own file"),
    Shape("package_init_module", "tool_home", (SDK, ADK), "the tool is defined in app/<fw>_pkg/__init__.py"),
    Shape("same_name_tools", "tool_home", (SDK, ADK), "a same-named tool in another module (the same text, or not), bound by other agents or retargeted to; referenced module-qualified"),
    Shape("tool_helper", "tool_body", (SDK, ADK), "the body calls a module helper _fmt(...), whose own body is no part of the tool"),
    # How an agent file spells the agent class.
    # How an SDK tool's name_override= is spelled (issue 40, item 2: a module constant is read).
    Shape("override_literal", "override_spelling", (SDK,), "@function_tool(name_override='do_x')", base=True),
    Shape("override_constant", "override_spelling", (SDK,),
          "X_TOOL_NAME = 'do_x'; @function_tool(name_override=X_TOOL_NAME) (the wrapper-call form stays literal)"),
    Shape("class_import", "class_spelling", (SDK, ADK), "from agents import Agent; Agent(...)", base=True),
    Shape("class_alias", "class_spelling", (SDK, ADK), "from agents import Agent as SdkAgent; SdkAgent(...)"),
    Shape("class_module_qualified", "class_spelling", (SDK, ADK), "import agents; agents.Agent(...)"),
    Shape("class_generic", "class_spelling", (SDK,), "Agent[dict](...) (ADK files spell the plain class)"),
    # Issue 40, item 9: the framework's class re-exported by a module of the repository.
    Shape("class_reexported", "class_spelling", (SDK, ADK),
          "app/<fw>_framework.py: from agents import Agent; from .<fw>_framework import Agent; Agent(...)"),
    # Where an MCP server is built.
    Shape("server_in_agent_module", "server_home", (SDK, ADK), "the server is built beside its agents", base=True),
    Shape("server_imported", "server_home", (SDK, ADK), "the server is built in app/<fw>_servers.py and imported"),
    # How an agent spells a handoff, sub-agent or (ADK) AgentTool target that a builder builds
    # (`builder`, `builder_local_list`, ...): issue 40 reads a builder's call as the agent it builds.
    # With none of these enabled, no builder-made agent is a target.
    Shape("target_builder_call", "target_ref", (SDK, ADK), "handoffs=[build_x()] / sub_agents=[build_x()] / AgentTool(agent=build_x())"),
    Shape("target_builder_local", "target_ref", (SDK, ADK),
          "def build_y(): x_built = build_x(); return Agent(..., sub_agents=[x_built]) (a call where y is not built in a function)"),
    # Not one of issue 40's rules: the module variable a builder's call is bound to (the readers may
    # name a limit; a row must name the builder's agent).
    Shape("target_module_variable", "target_ref", (SDK, ADK),
          "x = build_x() at module level; handoffs=[x] / sub_agents=[x] / AgentTool(agent=x)", weight=2),
    # Edge: a local bound on both branches of an if/else.
    Shape("target_branch_local", "target_ref", (SDK, ADK),
          "def build_y(): if os.getenv('ALT_X') == '1': x_built = build_x() else: x_built = build_x(); ... (edge)",
          unreadable=True, weight=1),
    # How an SDK handoff is spelled.
    Shape("handoff_plain", "handoff_ref", (SDK,), "handoffs=[x]", base=True),
    Shape("handoff_call", "handoff_ref", (SDK,), "handoffs=[handoff(x)]"),
    # Which kinds of bindings the model draws.
    Shape("function_tool", "binding", (SDK, ADK), "function tools", base=True),
    Shape("handoffs", "binding", (SDK, ADK), "SDK handoffs= and ADK sub_agents=", base=True),
    Shape("cross_module_agents", "binding", (SDK, ADK), "handoffs, sub-agents and agents as tools imported from another agent module"),
    # A name rebound only after the constructions that read it is, where they read it, what it was.
    Shape("rebound_after_construction", "binding", (ADK,),
          "def _instrument(agent): return agent; x = _instrument(x) at the end of an agent module, for each sub-agent "
          "it imports"),
    Shape("hosted_tool", "binding", (SDK, ADK), "SDK WebSearchTool(...); ADK google_search / load_memory"),
    Shape("mcp_server", "binding", (SDK, ADK), "SDK MCPServerStdio in mcp_servers=; ADK McpToolset in tools="),
    Shape("agent_settings", "binding", (SDK,), "model_settings=ModelSettings(tool_choice=...), tool_use_behavior='stop_on_first_tool' (part of every row's meaning)"),
    # known_wrong until 73f8024: every row of the agent was a false `changed` (unset -> run_llm_again).
    Shape("explicit_default_setting", "binding", (SDK,), "tool_use_behavior='run_llm_again' spelled out (the SDK's default)"),
    Shape("conditional_member", "binding", (SDK, ADK), "tools=[a, *([b] if os.getenv('ENABLE_B') == '1' else [])] (bound_when)"),
    Shape("conditional_else", "binding", (SDK, ADK),
          "a member bound when the test fails: *([] if c else [b]), or `else: tools.append(b)` (bound_when `not c`)"),
    Shape("mcp_tool_filter", "binding", (SDK, ADK), "an MCP server's tool_filter (SDK create_static_tool_filter, ADK a list)"),
    Shape("agent_as_tool", "binding", (SDK, ADK), "SDK x.as_tool(tool_name=...); ADK AgentTool(agent=x)"),
    # known_wrong until 73f8024: the change was neither read nor named (silent, `compared`).
    Shape("rewire_sub_agents", "binding", (ADK,), "an ADK rewire shape also moves the last sub-agent: x.sub_agents.append(y) "
          "(a replacement shape replaces x.sub_agents too, read since issue 40)"),
]

SHAPES = {s.name: s for s in CATALOGUE}


def enabled_shapes(requested: Optional[list[str]], include_known_wrong: bool) -> set[str]:
    """The catalogue names a run may draw: base shapes always, known_wrong ones only when asked."""
    names = set(requested) if requested else {s.name for s in CATALOGUE}
    unknown = names - set(SHAPES)
    if unknown:
        raise SystemExit(f"unknown shapes: {', '.join(sorted(unknown))} (see --list-shapes)")
    names |= {s.name for s in CATALOGUE if s.base}
    if not include_known_wrong:
        names = {n for n in names if SHAPES[n].known_wrong is None or SHAPES[n].base}
    return names


def shapes_for(enabled: set[str], axis: str, framework: str) -> list[str]:
    """The enabled shapes of one axis a framework can spell, in catalogue order (the draw depends on it)."""
    return [s.name for s in CATALOGUE if s.axis == axis and framework in s.frameworks and s.name in enabled]


# Groups of shapes the rules, the truth and the renderer ask about.
RENAMEABLE = ("module_literal", "name_constant")
IDENTITY_BY_VARIABLE = ("module_literal", "name_constant", "positional_name")
SUBCLASS_CHAINS = ("subclass_chain", "subclass_chain_unread")  # built at module level by a repository class
SDK_DECORATORS = ("sdk_decorator", "sdk_decorator_call")
ADK_WRAPPERS = ("adk_plain", "adk_function_tool_inline", "adk_function_tool_module")
# List shapes that spell their members (and their conditions) where the readers read them; a clone
# may inherit such a list.
APPEND_LISTS = ("conditional_append", "conditional_append_function")
READABLE_LISTS = ("literal", "spread", "shared_spread", "module_constant", "imported_constant", "list_call",
                  "concatenated", "passed_copy", "imported_spread_list") + APPEND_LISTS
IMPORTED_LISTS = ("imported_constant", "imported_spread_list", "imported_shared_appended")
PASSED_LISTS = ("passed_copy", "passed_itself", "passed_and_sorted")
APPEND_EDGES = ("append_in_loop", "append_in_try", "append_after_construction", "append_in_function")
LOOP_APPENDS = ("loop_append",)  # read: each item of a display appended in a loop
MODULE_LEVEL_LISTS = ("append_after_construction", "append_in_function")  # the list is a module's, whoever builds
# List shapes that spell the members of the agent's lists in the construction's own scope (a builder's
# function, where `target_builder_local` may bind its targets to locals).
IN_SCOPE_LISTS = ("literal", "shared_spread", "conditional_append", "loop_append", "append_in_loop", "append_in_try") + IMPORTED_LISTS
# What a `nested_local` agent's own lists may be when it is built inside another agent's function:
# nothing written in that function's scope but the construction.
DYNAMIC_LISTS = ("dynamic_getattr", "dynamic_importlib")
SAME_MODULE_REWIRES = ("rewire_append", "rewire_extend", "rewire_iadd", "rewire_insert")
REPLACEMENTS = ("rewire_replace_package", "rewire_replace_other_module")
REWIRES = SAME_MODULE_REWIRES + ("rewire_other_module", "rewire_factory_result_other_module",
                                 "adk_rewire_factory_result") + REPLACEMENTS
IN_OTHER_MODULE = ("rewire_other_module", "rewire_factory_result_other_module")
# Functions whose one unconditional last statement returns the construction (issue 40's builders).
BUILDERS = ("builder", "builder_local_list", "builder_returns_local", "builder_chain", "nested_local",
            "builder_name_constant", "builder_name_rebound", "builder_name_attribute", "builder_name_attribute_stored")
NAME_CONSTANTS = ("name_constant", "builder_name_constant", "builder_name_rebound", "builder_name_attribute",
                  "builder_name_attribute_stored")  # name= is a module constant
NAMED_BY_LOCAL = ("builder_returns_local", "nested_local")  # an SDK agent a function's local holds: named by it
BUILT_IN_FUNCTIONS = BUILDERS + ("builder_two_returns", "builder_decorated")
OPEN_BUILDERS = ("builder_two_returns", "builder_decorated")  # a call of them is not known to be the agent
FACTORY_CALLS = ("factory_two_calls",)  # a factory called twice: two agents, neither a target
INSTANCE_AGENTS = ("class_instance", "class_method_instance")  # an instance's agent, referenced through it
NOT_AT_MODULE_LEVEL = BUILT_IN_FUNCTIONS + ("class_held",) + INSTANCE_AGENTS + FACTORY_CALLS  # no module-level variable holds the agent
IN_FUNCTION = NOT_AT_MODULE_LEVEL  # the construction's statements run in a function
TARGET_REFS = ("target_builder_call", "target_builder_local", "target_module_variable", "target_branch_local")
DECORATOR_KINDS = {  # tool_wrapper shape -> the decorator function it applies (its code is one variant)
    "decorator_factory": "logged", "dual_decorator": "tool", "dual_decorator_call": "tool",
    "factory_may_return_none": "logged_optional", "decorator_falls_off": "checked",
}
LABELLED_WRAPPERS = ("decorator_factory", "factory_may_return_none")
WRAPPER_EDGES = ("factory_may_return_none", "decorator_falls_off")
LAZY_INITS = ("package_lazy", "package_lazy_mutated", "package_lazy_hook_first")
LAZY_EDGES = ("package_lazy_mutated", "package_lazy_hook_first")


def list_shapes():
    """`--list-shapes`: one line a shape, with its flags."""
    for shape in CATALOGUE:
        flags = []
        if shape.base:
            flags.append("base")
        if shape.unreadable:
            flags.append("expects a limit")
        if shape.known_wrong:
            flags.append(f"known_wrong: {shape.known_wrong}")
        print(f"{shape.name:35} {shape.axis:15} {'/'.join(shape.frameworks):8} {shape.doc}" + (f"  [{'; '.join(flags)}]" if flags else ""))
