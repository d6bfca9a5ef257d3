#!/usr/bin/env python3
"""Applications with known bindings: an oracle for `shipgate-daemon diff --application`.

The truth model
---------------
A seed draws a *model* of a Python application: OpenAI Agents SDK agents
(`Agent` from `agents`) and Google ADK agents (`Agent`/`LlmAgent` from
`google.adk.agents`), the function tools they bind, SDK handoffs and ADK
sub-agents, MCP servers (SDK `MCPServerStdio` in `mcp_servers=`, ADK
`McpToolset` in `tools=`), hosted/built-in tools and agents used as tools.
The model is rendered as Python source in *shapes* drawn from a catalogue
(`CATALOGUE`: literal lists, spreads, module constants, builders, imports
across modules, decorators, wrappers, clones, rewires, dynamic lists, ...),
committed on `main`; a list of random edits turns it into the head model,
rendered and committed on the branch `head`.

Edits are of two kinds. *Binding edits* change what an agent binds: add or
remove a tool, handoff, sub-agent, server, hosted tool, agent-as-tool or
whole agent; move an agent to another module; bind a same-named tool of
another module instead; change a tool's signature (parameters, annotations,
default, async, return, SDK name_override=), its decorator or its body (a
literal, a local's name, a helper call: the implementation digest is the
function's AST without its docstring), an MCP server's command, arguments or
tool filter, a hosted tool's argument, an SDK agent's tool_choice or
tool_use_behavior (part of every row of the agent), or the condition a tool
is bound under. *Neutral edits* change nothing an agent binds: move a tool or
a server to another module and import it from there, wrap an ADK function in
FunctionTool or not, edit docstrings (Args: sections included), comments and
a helper the tool calls, reformat, rename module constants and builders,
reorder definitions and list members, rename an ADK agent in place (the
engine pairs it), change an agent's model, instructions or an as_tool
description, switch between shapes that spell the same binding.

The truth is computed from the two models alone, never from the rendered
text or the engine: `expected_bindings` maps a model to
`{(agent_source, agent, tool): meaning}` (the one place that says how a
model object is named in a row: SDK agents by variable, builders and
clones by name=, ADK agents by name=; tools by name or name_override=,
hosted tools by class, MCP servers by name= or variable, agents as tools by
tool_name= or the wrapped agent's name, handoffs and sub-agents as
`handoff:<file>:<agent>`), and `true_changes` compares the two maps: a key
on one side only is `added`/`removed`, a key on both sides whose meaning
differs is `changed`. `--self-check` holds the renderer to the model without
the engine: it imports each rendered version over stub frameworks and
compares what every agent holds at run time with what the model says.

The three properties
--------------------
For the engine's JSON document (`diff --application --scope app --json`):

(a) every established row (`change` added/removed/changed) is a true change
    of that kind, for that agent and that binding; a row on a binding the
    model renders in a shape the readers cannot read (a list a call builds
    dynamically, `**kwargs`) claims a certainty it cannot have and fails too;
(b) every true change is a row (any `change`, `not_established` included)
    or is covered by a named limit on its agent: a coverage gap on either
    side with `affects: binding_presence` whose `agent` is null or that
    agent, whose `tool` is null or that binding, and whose `source` is null
    or covers the agent's file (contract §6.5); otherwise it is a silent
    hide. A side that renders an agent in a shape the readers cannot read
    must name a limit on that agent;
(c) a binding with no true change has no established row.

A failing program is shrunk (agents, tools, servers and edits are dropped,
shapes made plain, while the same property fails on the same binding) and
printed: both versions' files, the edits and the violated property with
the offending row.

A shape the current engine reads wrongly (confirmed by hand against the
spec) carries `known_wrong="..."` in the catalogue and is not drawn unless
`--include-known-wrong` is given; `--list-shapes` prints the catalogue.

Usage:
    known_truth.py --seed N --count K --daemon PATH [--shapes a,b] [--minutes M]
                   [--include-known-wrong] [--no-shrink] [--show]
    known_truth.py --self-check --seed N --count K [--shapes a,b] [--include-known-wrong]
    known_truth.py --list-shapes

Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

SCOPE = "app"
SDK = "sdk"
ADK = "adk"
ESTABLISHED = ("added", "removed", "changed")

# --------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------


@dataclass
class Tool:
    """A function tool: its meaning is its signature, its decorator and its body's AST."""

    name: str
    framework: str
    params: list[str]
    body: int  # implementation variant: a literal in the body
    local: str  # the body's local variable (renaming it changes the AST)
    module: str  # module stem under app/ where it is defined (neutral)
    definition: str  # catalogue shape of the definition (fixed per tool)
    doc: int = 1  # docstring variant, 0 = none (neutral)
    comment: int = 0  # comment variant inside the body (neutral)
    order: int = 0  # position among its module's definitions (neutral)
    types: dict[str, str] = field(default_factory=dict)  # parameter -> annotation (default str)
    default: Optional[str] = None  # the last parameter's default, as source
    is_async: bool = False
    returns: str = "str"
    override: str = ""  # SDK name_override=: the tool's name when given
    helper: bool = False  # the body returns through the module's _fmt(...)
    key: str = ""  # the model's identity, when a same-named tool is defined in another module

    @property
    def tid(self) -> str:
        """How agents and edits refer to this tool: its name, unless it has a same-named twin."""
        return self.key or self.name


@dataclass
class Server:
    """An MCP server defined at module level of an agent file."""

    key: str
    framework: str
    file: str
    var: str
    command: str
    args: list[str]
    named: bool = True  # SDK: passes name= (its row name)
    module: str = ""  # module stem where it is built, "" = its agent file (neutral)
    filter: Optional[list[str]] = None  # tool_filter: the allowed tool names


@dataclass
class AgentSpec:
    """One agent construction and everything it binds."""

    key: str
    framework: str
    file: str  # agent module stem under app/
    var: str
    name: str
    construction: str  # catalogue shape
    tools_list: str  # catalogue shape
    handoff_ref: str = "handoff_plain"  # SDK: plain or handoff(x)
    tools: list[str] = field(default_factory=list)  # function tools (Tool.tid)
    hosted: dict[str, str] = field(default_factory=dict)  # hosted tool -> argument
    servers: list[str] = field(default_factory=list)  # server keys
    agent_tools: list[str] = field(default_factory=list)  # agent keys (as_tool / AgentTool)
    handoffs: list[str] = field(default_factory=list)  # agent keys (handoffs / sub_agents)
    clone_of: Optional[str] = None
    order: int = 0  # definition order hint (neutral)
    list_name: str = ""  # stem of module constants (neutral)
    instruction: int = 0  # neutral
    adk_class: str = "Agent"  # Agent or LlmAgent (neutral)
    tool_choice: Optional[str] = None  # SDK ModelSettings(tool_choice=...)
    tool_use_behavior: Optional[str] = None  # SDK; None is the default, run_llm_again
    spell_default: bool = False  # SDK: write tool_use_behavior="run_llm_again" when it is the default
    conditions: dict[str, str] = field(default_factory=dict)  # tool -> env flag it is bound under
    rewire_handoffs: bool = True  # a rewire shape also moves the last handoff (ADK: `rewire_sub_agents`)
    model: int = 0  # neutral
    description: int = 0  # an as_tool description variant (neutral)
    list_order: int = 0  # member order of its lists, 0 = natural (neutral)


@dataclass
class FileStyle:
    """How one module is spelled: nothing here is a binding."""

    quote: str = '"'
    multiline: bool = False
    comments: int = 0
    header: int = 0
    class_spelling: str = "class_import"
    alias_agents: bool = False  # import other modules' agents `as x_agent`
    import_style: dict[str, str] = field(default_factory=dict)  # tool module -> shape


@dataclass
class App:
    tools: dict[str, Tool] = field(default_factory=dict)
    servers: dict[str, Server] = field(default_factory=dict)
    agents: dict[str, AgentSpec] = field(default_factory=dict)
    styles: dict[str, FileStyle] = field(default_factory=dict)
    agent_files: dict[str, list[str]] = field(default_factory=dict)  # framework -> stems
    helpers: dict[str, int] = field(default_factory=dict)  # module -> _fmt body variant (neutral)

    def style(self, stem: str) -> FileStyle:
        return self.styles.setdefault(stem, FileStyle())

    def agents_in(self, stem: str) -> list[AgentSpec]:
        return [a for a in self.agents.values() if a.file == stem]


# --------------------------------------------------------------------------
# The catalogue of shapes
# --------------------------------------------------------------------------


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
    Shape("clone", "construction", (SDK,), "x = other.clone(name='x', tools=[...]) (fields equal to the source's are inherited)"),
    Shape("kwargs_unpack", "construction", (SDK, ADK), "X_OPTIONS = {'tools': [...]}; Agent(name='x', **X_OPTIONS)", unreadable=True, weight=1),
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
    # How an agent file reaches a tool defined elsewhere.
    Shape("import_relative", "tool_ref", (SDK, ADK), "from .tools import a", base=True),
    Shape("import_absolute", "tool_ref", (SDK, ADK), "from app.tools import a"),
    Shape("module_alias", "tool_ref", (SDK, ADK), "from . import tools as tools_mod; tools_mod.a"),
    Shape("import_module_dotted", "tool_ref", (SDK, ADK), "import app.tools; app.tools.a"),
    Shape("alias_assignment", "tool_ref", (SDK, ADK), "from .tools import a; a_ref = a; tools=[a_ref]"),
    Shape("package_reexport", "tool_ref", (SDK, ADK), "app/lib/__init__.py re-exports a; from .lib import a"),
    Shape("wildcard_import", "tool_ref", (SDK, ADK), "from .tools import *; tools=[a]"),
    # Where a function tool is defined.
    Shape("tools_module", "tool_home", (SDK, ADK), "app/<fw>_tools.py or app/lib/<fw>_more.py", base=True),
    Shape("local_definition", "tool_home", (SDK, ADK), "the tool is defined in the agent's own file"),
    Shape("package_init_module", "tool_home", (SDK, ADK), "the tool is defined in app/<fw>_pkg/__init__.py"),
    Shape("same_name_tools", "tool_home", (SDK, ADK), "a same-named tool in another module (the same text, or not), bound by other agents or retargeted to; referenced module-qualified"),
    Shape("tool_helper", "tool_body", (SDK, ADK), "the body calls a module helper _fmt(...), whose own body is no part of the tool"),
    # How an agent file spells the agent class.
    Shape("class_import", "class_spelling", (SDK, ADK), "from agents import Agent; Agent(...)", base=True),
    Shape("class_alias", "class_spelling", (SDK, ADK), "from agents import Agent as SdkAgent; SdkAgent(...)"),
    Shape("class_module_qualified", "class_spelling", (SDK, ADK), "import agents; agents.Agent(...)"),
    Shape("class_generic", "class_spelling", (SDK,), "Agent[dict](...) (ADK files spell the plain class)"),
    # Where an MCP server is built.
    Shape("server_in_agent_module", "server_home", (SDK, ADK), "the server is built beside its agents", base=True),
    Shape("server_imported", "server_home", (SDK, ADK), "the server is built in app/<fw>_servers.py and imported"),
    # How an SDK handoff is spelled.
    Shape("handoff_plain", "handoff_ref", (SDK,), "handoffs=[x]", base=True),
    Shape("handoff_call", "handoff_ref", (SDK,), "handoffs=[handoff(x)]"),
    # Which kinds of bindings the model draws.
    Shape("function_tool", "binding", (SDK, ADK), "function tools", base=True),
    Shape("handoffs", "binding", (SDK, ADK), "SDK handoffs= and ADK sub_agents=", base=True),
    Shape("cross_module_agents", "binding", (SDK, ADK), "handoffs, sub-agents and agents as tools imported from another agent module"),
    Shape("hosted_tool", "binding", (SDK, ADK), "SDK WebSearchTool(...); ADK google_search / load_memory"),
    Shape("mcp_server", "binding", (SDK, ADK), "SDK MCPServerStdio in mcp_servers=; ADK McpToolset in tools="),
    Shape("agent_settings", "binding", (SDK,), "model_settings=ModelSettings(tool_choice=...), tool_use_behavior='stop_on_first_tool' (part of every row's meaning)"),
    # known_wrong until 73f8024: every row of the agent was a false `changed` (unset -> run_llm_again).
    Shape("explicit_default_setting", "binding", (SDK,), "tool_use_behavior='run_llm_again' spelled out (the SDK's default)"),
    Shape("conditional_member", "binding", (SDK, ADK), "tools=[a, *([b] if os.getenv('ENABLE_B') == '1' else [])] (bound_when)"),
    Shape("mcp_tool_filter", "binding", (SDK, ADK), "an MCP server's tool_filter (SDK create_static_tool_filter, ADK a list)"),
    Shape("agent_as_tool", "binding", (SDK, ADK), "SDK x.as_tool(tool_name=...); ADK AgentTool(agent=x)"),
    # known_wrong until 73f8024: the change was neither read nor named (silent, `compared`).
    Shape("rewire_sub_agents", "binding", (ADK,), "an ADK rewire shape also moves the last sub-agent: x.sub_agents.append(y)"),
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
    return [s.name for s in CATALOGUE if s.axis == axis and framework in s.frameworks and s.name in enabled]


# --------------------------------------------------------------------------
# The truth: the one mapping from model to expected rows
# --------------------------------------------------------------------------

HOSTED_BY_FRAMEWORK = {SDK: ["WebSearchTool"], ADK: ["google_search", "load_memory"]}
HOSTED_ARGUMENTS = {"WebSearchTool": ["", "low", "high"], "google_search": [""], "load_memory": [""]}


def agent_source(agent: AgentSpec) -> str:
    """The row's `agent_source`: the agent's file, scope-relative."""
    return f"{module_path(agent.file)}"


def agent_identity(agent: AgentSpec) -> str:
    """The row's `agent`: ADK name=; SDK the plain variable, but a builder's return or a clone by its literal name=."""
    if agent.framework == ADK or agent.construction in ("builder", "builder_local_list", "clone", "class_held"):
        return agent.name
    return agent.var


def as_tool_name(target: AgentSpec) -> str:
    return f"ask_{target.var}"


def agent_tool_row_name(target: AgentSpec) -> str:
    """The row name of an agent used as a tool: SDK tool_name=, ADK the wrapped agent's name."""
    if target.framework == SDK:
        return as_tool_name(target)
    return target.name


def server_row_name(server: Server) -> str:
    """An MCP server's row name: SDK its name= (else its variable); ADK its variable."""
    if server.framework == SDK and server.named:
        return server.key
    return server.var


def expected_bindings(app: App, renamed: Optional[dict[str, str]] = None) -> dict[tuple[str, str, str], tuple]:
    """{(agent_source, agent, tool): meaning}: what each agent binds, as rows name it.
    `renamed` gives ADK agents renamed in place their other side's name (see `adk_renames`)."""
    renamed = renamed or {}

    def identity(agent: AgentSpec) -> str:
        return renamed.get(agent.key, agent_identity(agent))

    out: dict[tuple[str, str, str], tuple] = {}
    for agent in app.agents.values():
        ident = (agent_source(agent), identity(agent))
        for tid in agent.tools:
            tool = app.tools[tid]
            out[ident + (tool_row_name(tool),)] = tool_meaning(tool) + (("when", condition_of(agent, tid)),)
        for cls, argument in agent.hosted.items():
            out[ident + (cls,)] = ("hosted", argument)
        for key in agent.servers:
            server = app.servers[key]
            allowed = None if server.filter is None else tuple(sorted(server.filter))
            out[ident + (server_row_name(server),)] = ("mcp", server.command, tuple(server.args), allowed)
        for key in agent.agent_tools:
            target = app.agents[key]
            out[ident + (agent_tool_row_name(target),)] = ("agent_tool", agent_source(target), identity(target))
        for key in agent.handoffs:
            target = app.agents[key]
            out[ident + (f"handoff:{agent_source(target)}:{identity(target)}",)] = ("handoff",)
    settings = agent_settings(app)
    return {key: meaning + settings.get(key[:2], ()) for key, meaning in out.items()}


def agent_settings(app: App) -> dict[tuple[str, str], tuple]:
    """SDK settings every row of the agent carries: (tool_choice, tool_use_behavior), the
    default behaviour spelled `run_llm_again`; a clone has its source's."""
    out = {}
    for agent in app.agents.values():
        if agent.framework == SDK:
            source = agent
            while source.construction == "clone" and source.clone_of in app.agents:
                source = app.agents[source.clone_of]
            out[(agent_source(agent), agent_identity(agent))] = (
                ("settings", source.tool_choice, source.tool_use_behavior or "run_llm_again"),)
    return out


def condition_of(agent: AgentSpec, tid: str) -> Optional[str]:
    """The env flag a tool is bound under (only list shapes that spell members carry one)."""
    return agent.conditions.get(tid) if agent.tools_list in READABLE_LISTS else None


def adk_renames(base: App, head: App) -> dict[str, str]:
    """ADK agents renamed in place: the same module-level variable of the same file, built once
    by a module-level construction on both sides, whose name= changed. The engine pairs them as
    one agent (the base side takes the head's name, and so do handoffs to it)."""
    out = {}
    for key, before in base.agents.items():
        after = head.agents.get(key)
        if (after and before.framework == ADK and before.name != after.name and before.var == after.var
                and before.file == after.file and before.construction in RENAMEABLE
                and after.construction in RENAMEABLE):
            out[key] = after.name
    return out


def tool_row_name(tool: Tool) -> str:
    """A function tool's row name: its SDK name_override=, else the function's name."""
    return tool.override or tool.name


def tool_meaning(tool: Tool) -> tuple:
    """What a changed row compares: the signature (names, annotations, default, async, return)
    and the implementation digest (the AST: body, locals, decorators; not the docstring)."""
    signature = (tuple(tool.params), tuple(param_type(tool, p) for p in tool.params), tool.default,
                 tool.is_async, tool.returns)
    return ("function", signature, tool.body, tool.local, tool.helper, decorator_of(tool))


def param_type(tool: Tool, param: str) -> str:
    return tool.types.get(param, "str")


def decorator_of(tool: Tool) -> tuple:
    """What decorates the def (or the SDK wrapper's arguments): part of the implementation digest.
    `@function_tool` and `@function_tool()` differ; with a name_override= both are one call."""
    if tool.definition == "sdk_decorator" and not tool.override:
        return ("@function_tool",)
    if tool.definition in ("sdk_decorator", "sdk_decorator_call"):
        return ("@function_tool(...)", tool.override)
    return ("", tool.override)


def true_changes(base: App, head: App) -> dict[tuple[str, str, str], str]:
    """Every binding key whose meaning differs between the two models, with its change."""
    before, after = expected_bindings(base, adk_renames(base, head)), expected_bindings(head)
    changes = {}
    for key in before.keys() | after.keys():
        if key not in before:
            changes[key] = "added"
        elif key not in after:
            changes[key] = "removed"
        elif before[key] != after[key]:
            changes[key] = "changed"
    return changes


# --------------------------------------------------------------------------
# Rendering: a model to files
# --------------------------------------------------------------------------

RENAMEABLE = ("module_literal", "name_constant")
IDENTITY_BY_VARIABLE = ("module_literal", "name_constant", "positional_name")
SDK_DECORATORS = ("sdk_decorator", "sdk_decorator_call")
ADK_WRAPPERS = ("adk_plain", "adk_function_tool_inline", "adk_function_tool_module")
READABLE_LISTS = ("literal", "spread", "shared_spread", "module_constant", "imported_constant", "list_call",
                  "concatenated")
TOOL_MODULES = {SDK: ["sdk_tools", "lib/sdk_more", "sdk_pkg/__init__"],
                ADK: ["adk_tools", "lib/adk_more", "adk_pkg/__init__"]}
SAME_MODULE_REWIRES = ("rewire_append", "rewire_extend", "rewire_iadd", "rewire_insert")
REWIRES = SAME_MODULE_REWIRES + ("rewire_other_module", "rewire_factory_result_other_module", "adk_rewire_factory_result")
IN_OTHER_MODULE = ("rewire_other_module", "rewire_factory_result_other_module")
BUILDERS = ("builder", "builder_local_list")
NOT_AT_MODULE_LEVEL = BUILDERS + ("class_held",)  # no module-level variable holds the agent


def tool_modules(gen: "Generation", framework: str) -> list[str]:
    """The shared modules a tool may be defined in (a package's __init__ only when enabled)."""
    return [m for m in TOOL_MODULES[framework] if not m.endswith("__init__") or gen.on("package_init_module")]


def module_path(stem: str) -> str:
    return f"{stem}.py"


def module_name(stem: str) -> str:
    """The module's dotted name below the scope: a package's __init__ is the package."""
    return stem.removesuffix("/__init__").replace("/", ".")


def dotted(stem: str) -> str:
    return f"{SCOPE}.{module_name(stem)}"


def relative_module(stem: str) -> str:
    return "." + module_name(stem)


def module_alias_name(stem: str) -> str:
    return module_name(stem).split(".")[-1] + "_mod"


def stable_hash(*parts) -> int:
    text = "|".join(str(p) for p in parts)
    value = 0
    for ch in text:
        value = (value * 131 + ord(ch)) % 1_000_000_007
    return value


@dataclass
class Rendered:
    files: dict[str, str]  # path under the repository -> text
    unreadable: dict[tuple[str, str], set[str]]  # (agent_source, agent) -> binding names not readable


class Imports:
    """The import lines one module needs, collected while its body is rendered."""

    def __init__(self):
        self.from_names: dict[str, set[str]] = {}
        self.plain: set[str] = set()
        self.aliases: dict[str, tuple[str, str]] = {}  # alias -> (package, module)

    def name(self, module: str, name: str, alias: str = ""):
        self.from_names.setdefault(module, set()).add(f"{name} as {alias}" if alias else name)

    def module(self, module: str):
        self.plain.add(module)

    def alias(self, package: str, module: str, alias: str):
        self.aliases[alias] = (package, module)

    def lines(self, body: str) -> list[str]:
        """The import statements, without names `body` never uses (a wildcard always stays)."""
        def used(name: str) -> bool:
            return re.search(rf"(?<![\w.]){re.escape(name)}\b", body) is not None

        out = [f"import {m}" for m in sorted(self.plain) if used(m.split(".")[0])]
        for module in sorted(self.from_names):
            names = [n for n in sorted(self.from_names[module]) if n == "*" or used(n.split(" as ")[-1])]
            if names:
                out.append(f"from {module} import {', '.join(names)}")
        for alias, (package, module) in sorted(self.aliases.items()):
            if used(alias):
                out.append(f"from {package} import {module} as {alias}")
        return out


class Writer:
    """Formatting helpers for one module, following its FileStyle."""

    def __init__(self, app: App, stem: str):
        self.app = app
        self.stem = stem
        self.style = app.style(stem)
        self.imports = Imports()
        self.blocks: list[list[str]] = []  # for modules assembled from several agents' parts
        self.aliases: dict[str, str] = {}  # module-level `alias = name` after the imports

    def q(self, text: str) -> str:
        return f"{self.style.quote}{text}{self.style.quote}"

    def seq(self, items: list[str], indent: str, brackets: str = "[]") -> str:
        if not self.style.multiline or not items:
            return brackets[0] + ", ".join(items) + brackets[1]
        inner = "".join(f"{indent}    {item},\n" for item in items)
        return f"{brackets[0]}\n{inner}{indent}{brackets[1]}"

    def call(self, func: str, arguments: list[str], indent: str) -> str:
        if not self.style.multiline:
            return f"{func}({', '.join(arguments)})"
        inner = "".join(f"{indent}    {a},\n" for a in arguments)
        return f"{func}(\n{inner}{indent})"

    def comment(self, where: str) -> list[str]:
        if not self.style.comments:
            return []
        if stable_hash(self.style.comments, self.stem, where) % 3:
            return []
        return [f"# {where}: note {self.style.comments}"]


# ---- tools -----------------------------------------------------------------

DOCSTRINGS = ["", "Do the work.", "Do the work for the caller.", "Return a short note.", "A tool."]
INSTRUCTIONS = ["Help the user.", "Be brief.", "Answer politely.", "Route carefully."]


def tool_bound_name(tool: Tool) -> str:
    """The module-level name an agent lists for the tool."""
    if tool.definition in ("sdk_function_tool_call", "adk_function_tool_module"):
        return f"{tool.name}_tool"
    return tool.name


def render_signature(w: Writer, tool: Tool) -> str:
    params = [f"{p}: {param_type(tool, p)}" for p in tool.params]
    if params and tool.default is not None:
        params[-1] += f" = {tool.default}"
    prefix = "async def" if tool.is_async else "def"
    return f"{prefix} {tool.name}({', '.join(params)}) -> {tool.returns}:"


def override_argument(w: Writer, tool: Tool) -> str:
    return f"name_override={w.q(tool.override)}" if tool.override else ""


def render_tool_definition(w: Writer, tool: Tool) -> list[str]:
    lines = []
    if tool.definition == "sdk_decorator":
        w.imports.name("agents", "function_tool")
        lines.append(f"@function_tool({override_argument(w, tool)})" if tool.override else "@function_tool")
    elif tool.definition == "sdk_decorator_call":
        w.imports.name("agents", "function_tool")
        lines.append(f"@function_tool({override_argument(w, tool)})")
    lines.append(render_signature(w, tool))
    if tool.doc:
        lines += render_docstring(tool)
    if tool.comment:
        lines.append(f"    # step {tool.comment}")
    pieces = "|".join("{" + p + "}" for p in tool.params)
    lines.append(f"    {tool.local} = f{w.q(tool.name + ':' + pieces + ':v' + str(tool.body))}")
    value = f"_fmt({tool.local})" if tool.helper else tool.local
    lines.append(f"    return {{{w.q('text')}: {value}}}" if tool.returns == "dict" else f"    return {value}")
    if tool.definition == "sdk_function_tool_call":
        w.imports.name("agents", "function_tool")
        arguments = ", ".join(a for a in (tool.name, override_argument(w, tool)) if a)
        lines += ["", "", f"{tool.name}_tool = function_tool({arguments})"]
    elif tool.definition == "adk_function_tool_module":
        w.imports.name("google.adk.tools", "FunctionTool")
        lines += ["", "", f"{tool.name}_tool = FunctionTool(func={tool.name})"]
    return lines


def render_docstring(tool: Tool) -> list[str]:
    """A one-line docstring, or (odd variants past the list) one with an Args: section."""
    summary = DOCSTRINGS[tool.doc % len(DOCSTRINGS)] or "Run."
    if tool.doc < len(DOCSTRINGS) or not tool.params:
        return [f'    """{summary}"""']
    args = [f"        {p}: the {p.replace('_', ' ')} (variant {tool.doc})." for p in tool.params]
    return [f'    """{summary}', "", "    Args:"] + args + ['    """']


def render_helper(w: Writer, app: App) -> list[list[str]]:
    """The module's `_fmt`, when one of its tools calls it; its body is a neutral variant."""
    if not any(t.helper for t in tools_defined_in(app, w.stem)):
        return []
    variant = app.helpers.get(w.stem, 0)
    return [["def _fmt(text):", f"    return text + {w.q('#' + str(variant))}"]]


def tools_defined_in(app: App, stem: str) -> list[Tool]:
    return sorted((t for t in app.tools.values() if t.module == stem), key=lambda t: (t.order, t.name))


def render_tool_module(app: App, stem: str) -> Writer:
    w = Writer(app, stem)
    w.blocks = render_helper(w, app) + [render_tool_definition(w, t) for t in tools_defined_in(app, stem)]
    return w


def import_style(app: App, stem: str, module: str, tool: Optional[Tool] = None) -> str:
    """How module `stem` imports from tool module `module` (a re-export needs a package; a tool
    with a same-named twin, and any tool of a module holding one under a wildcard, is qualified)."""
    style = app.style(stem).import_style.get(module, "import_relative")
    if tool is not None and has_twin(app, tool):
        return "module_alias"
    if style == "wildcard_import" and any(has_twin(app, t) for t in app.tools.values()
                                          if t.module in (module, stem)):
        return "module_alias"
    if style == "package_reexport" and ("/" not in module or module.endswith("/__init__")):
        return "import_relative"
    return style


def tool_reference(w: Writer, tool: Tool) -> str:
    """An expression for the tool in module `w.stem`, importing what it needs."""
    name = tool_bound_name(tool)
    if tool.module != w.stem:
        style = import_style(w.app, w.stem, tool.module, tool)
        if style == "package_reexport":
            w.imports.name(relative_module(tool.module.rsplit("/", 1)[0]), name)
        elif style == "import_module_dotted":
            w.imports.module(dotted(tool.module))
            name = f"{dotted(tool.module)}.{name}"
        elif style == "wildcard_import":
            w.imports.name(relative_module(tool.module), "*")
        elif style == "alias_assignment":
            w.imports.name(relative_module(tool.module), name)
            w.aliases[f"{name}_ref"] = name
            name = f"{name}_ref"
        elif style == "import_absolute":
            w.imports.name(dotted(tool.module), name)
        elif style == "module_alias":
            package, _, module = relative_module(tool.module).rpartition(".")
            w.imports.alias(package or ".", module, module_alias_name(tool.module))
            name = f"{module_alias_name(tool.module)}.{name}"
        else:
            w.imports.name(relative_module(tool.module), name)
    if tool.definition == "adk_function_tool_inline":
        w.imports.name("google.adk.tools", "FunctionTool")
        return f"FunctionTool(func={name})"
    if tool.definition == "adk_long_running_inline":
        w.imports.name("google.adk.tools", "LongRunningFunctionTool")
        return f"LongRunningFunctionTool(func={name})"
    return name


# ---- servers ----------------------------------------------------------------


def render_server(w: Writer, server: Server) -> list[str]:
    args = w.seq([w.q(a) for a in server.args], "")
    if server.framework == SDK:
        w.imports.name("agents.mcp", "MCPServerStdio")
        params = "{" + f"{w.q('command')}: {w.q(server.command)}, {w.q('args')}: {args}" + "}"
        arguments = ([f"name={w.q(server.key)}"] if server.named else []) + [f"params={params}"]
        if server.filter is not None:
            w.imports.name("agents.mcp", "create_static_tool_filter")
            allowed = w.seq([w.q(n) for n in server.filter], "    ")
            arguments.append(f"tool_filter=create_static_tool_filter(allowed_tool_names={allowed})")
        return [f"{server.var} = {w.call('MCPServerStdio', arguments, '')}"]
    w.imports.name("google.adk.tools.mcp_tool", "McpToolset")
    w.imports.name("google.adk.tools.mcp_tool.mcp_session_manager", "StdioConnectionParams")
    w.imports.name("mcp", "StdioServerParameters")
    params = f"StdioServerParameters(command={w.q(server.command)}, args={args})"
    arguments = [f"connection_params=StdioConnectionParams(server_params={params})"]
    if server.filter is not None:
        arguments.append(f"tool_filter={w.seq([w.q(n) for n in server.filter], '    ')}")
    return [f"{server.var} = {w.call('McpToolset', arguments, '')}"]


# ---- agents -----------------------------------------------------------------


@dataclass
class Members:
    """An agent's list members as expressions, by field, and which are function tools."""

    movable: list[str]  # function and hosted tools: what an imported list module can hold
    fixed: list[str]  # agents as tools and ADK toolsets: spelled in the agent's module
    function_refs: list[tuple[Tool, str]]  # (tool, expression) of function tools, in order
    handoffs: list[str]
    servers: list[str]  # SDK mcp_servers


def hosted_expression(w: Writer, cls: str, argument: str) -> str:
    if cls == "WebSearchTool":
        w.imports.name("agents", "WebSearchTool")
        return f"WebSearchTool(search_context_size={w.q(argument)})" if argument else "WebSearchTool()"
    w.imports.name("google.adk.tools", cls)
    return cls


def agent_reference(w: Writer, target: AgentSpec) -> str:
    """The target agent's variable, imported when it is built in another agent module (under an
    alias when the importing module's style says so)."""
    if target.file == w.stem:
        return target.var
    if w.style.alias_agents:
        w.imports.name(relative_module(target.file), target.var, f"{target.var}_agent")
        return f"{target.var}_agent"
    w.imports.name(relative_module(target.file), target.var)
    return target.var


def agent_tool_expression(w: Writer, target: AgentSpec) -> str:
    var = agent_reference(w, target)
    if target.framework == SDK:
        description = ["Ask ", "Delegate to ", "Hand the question to "][target.description % 3] + target.var
        return f"{var}.as_tool(tool_name={w.q(as_tool_name(target))}, tool_description={w.q(description)})"
    w.imports.name("google.adk.tools.agent_tool", "AgentTool")
    return f"AgentTool(agent={var})"


def handoff_expression(w: Writer, agent: AgentSpec, target: AgentSpec) -> str:
    var = agent_reference(w, target)
    if agent.framework == SDK and agent.handoff_ref == "handoff_call":
        w.imports.name("agents", "handoff")
        return f"handoff({var})"
    return var


def shuffled(items: list, seed: int) -> list:
    items = list(items)
    if seed:
        random.Random(seed).shuffle(items)
    return items


def conditional(w: Writer, agent: AgentSpec, tid: str, expr: str) -> str:
    """The member as the list spells it: `*([t] if os.getenv(FLAG) == "1" else [])` when conditional."""
    flag = condition_of(agent, tid)
    if not flag:
        return expr
    w.imports.module("os")
    return f"*([{expr}] if os.getenv({w.q(flag)}) == {w.q('1')} else [])"


def server_reference(w: Writer, server: Server) -> str:
    if server.module:
        w.imports.name(relative_module(server.module), server.var)
    return server.var


def agent_members(w: Writer, app: App, agent: AgentSpec, lists: Optional[Writer] = None) -> Members:
    """The members of the agent's lists; function and hosted tools spelled in `lists` when given
    (the module that holds an imported list), the rest in `w`."""
    lists = lists or w
    dynamic = agent.tools_list in ("dynamic_getattr", "dynamic_importlib")
    functions = []
    movable, fixed = [], []
    for tid in agent.tools:
        tool = app.tools[tid]
        local = tool.module == w.stem  # a list module importing it back would be an import cycle
        where = w if local else lists
        expr = "" if dynamic else conditional(where, agent, tid, tool_reference(where, tool))
        functions.append((tool, expr))
        (fixed if local else movable).append(expr)
    movable += [hosted_expression(lists, c, a) for c, a in sorted(agent.hosted.items())]
    fixed += [agent_tool_expression(w, app.agents[k]) for k in agent.agent_tools]
    servers = [server_reference(w, app.servers[k]) for k in agent.servers]
    if agent.framework == ADK:
        fixed += servers
        servers = []
    handoffs = [handoff_expression(w, agent, app.agents[k]) for k in agent.handoffs]
    return Members(shuffled(movable, agent.list_order), shuffled(fixed, agent.list_order), functions,
                   shuffled(handoffs, agent.list_order), shuffled(servers, agent.list_order))


def list_fields(agent: AgentSpec) -> tuple[str, str]:
    """The names of the handoff-like and server fields for the agent's framework."""
    if agent.framework == SDK:
        return "handoffs", "mcp_servers"
    return "sub_agents", ""


def constant_stem(agent: AgentSpec) -> str:
    return (agent.list_name or agent.var).upper()


def spelled_list(w: Writer, agent: AgentSpec, field_name: str, items: list[str], before: list[list[str]]) -> Optional[str]:
    """The value of one list argument in the agent's list shape (module constants go to `before`)."""
    if not items:
        return None
    stem = f"{constant_stem(agent)}_{field_name.upper()}"
    shape = agent.tools_list
    if shape == "spread" and len(items) >= 1:
        cut = max(1, len(items) // 2)
        before.append([f"{stem}_COMMON = {w.seq(items[:cut], '')}"])
        return w.seq([f"*{stem}_COMMON"] + items[cut:], "    ")
    if shape == "module_constant":
        before.append([f"{stem} = {w.seq(items, '')}"])
        return stem
    if shape == "list_call":
        before.append([f"{stem} = {w.seq(items, '', '()')}" if len(items) > 1 else f"{stem} = ({items[0]},)"])
        return f"list({stem})"
    if shape == "concatenated":
        cut = max(1, len(items) // 2)
        before.append([f"{stem}_BASE = {w.seq(items[:cut], '')}"])
        return f"{stem}_BASE + {w.seq(items[cut:], '    ')}" if items[cut:] else f"{stem}_BASE + []"
    return w.seq(items, "    ")


def dynamic_tools(w: Writer, agent: AgentSpec, functions: list[tuple[Tool, str]], before: list[list[str]]) -> str:
    """A call whose result holds the function tools, built so no static read can name them."""
    table = f"{constant_stem(agent)}_DYNAMIC"
    helper = f"{agent.var}_tools"
    if agent.tools_list == "dynamic_importlib":
        w.imports.module("importlib")
        entries = [f"({w.q(dotted(t.module))}, {w.q(tool_bound_name(t))})" for t, _ in functions]
        body = f"    return [getattr(importlib.import_module(module), attr) for module, attr in {table}]"
    else:
        w.imports.module("sys")
        entries = []
        for tool, _ in functions:
            holder = "None" if tool.module == w.stem else module_alias_for_dynamic(w, tool)
            entries.append(f"({holder}, {w.q(tool_bound_name(tool))})")
        body = "\n".join([
            "    here = sys.modules[__name__]",
            f"    return [getattr(module or here, attr) for module, attr in {table}]",
        ])
    before.append([f"{table} = {w.seq(entries, '', '[]')}"])
    before.append([f"def {helper}():", body])
    return f"{helper}()"


def module_alias_for_dynamic(w: Writer, tool: Tool) -> str:
    package, _, module = relative_module(tool.module).rpartition(".")
    w.imports.alias(package or ".", module, module_alias_name(tool.module))
    return module_alias_name(tool.module)


def rewired_lists(state: "RenderState", w: Writer, app: App, agent: AgentSpec, tools: list[str],
                  handoffs: list[str], after: list[str]) -> tuple[Optional[str], list[str]]:
    """Leave the last function tool and the last handoff out of the construction and add them
    after it, in the agent's rewire shape; the construction's tools value and handoffs."""
    handoff_field, _ = list_fields(agent)
    moved: list[tuple[str, object]] = []
    if agent.tools:
        tool = app.tools[agent.tools[-1]]
        tools = [e for e in tools if e != tool_reference(w, tool)]
        moved.append(("tools", tool))
    if agent.handoffs and agent.rewire_handoffs:
        target = app.agents[agent.handoffs[-1]]
        handoffs = [e for e in handoffs if e != handoff_expression(w, agent, target)]
        moved.append((handoff_field, target))
    where = w
    if agent.tools_list in IN_OTHER_MODULE:
        where = state.side_module(f"{agent.framework}_wiring")
        where.imports.name(relative_module(agent.file), agent.var)
    for field_name, item in moved:
        expr = tool_reference(where, item) if field_name == "tools" else handoff_expression(where, agent, item)
        statement = rewire_statement(agent, field_name, expr)
        if where is w:
            after.append(statement)
        else:
            where.blocks.append([statement])
    return (w.seq(tools, "    ") if tools else None), handoffs


def rewire_statement(agent: AgentSpec, field_name: str, expr: str) -> str:
    target = f"{agent.var}.{field_name}"
    return {
        "rewire_extend": f"{target}.extend([{expr}])",
        "rewire_iadd": f"{target} += [{expr}]",
        "rewire_insert": f"{target}.insert(0, {expr})",
    }.get(agent.tools_list, f"{target}.append({expr})")


def lists_module(agent: AgentSpec) -> str:
    return f"{agent.framework}_lists"


def rendered_lists(state: "RenderState", w: Writer, app: App, agent: AgentSpec, before: list[list[str]], after: list[str]) -> tuple[dict[str, str], set[str]]:
    """The list arguments of the construction, and the binding names it leaves unreadable."""
    imported = agent.tools_list == "imported_constant"
    lists = state.side_module(lists_module(agent)) if imported else None
    members = agent_members(w, app, agent, lists)
    handoff_field, server_field = list_fields(agent)
    unreadable: set[str] = set()
    tools = members.movable + members.fixed
    if imported:
        constant = f"{constant_stem(agent)}_TOOLS"
        lists.blocks.append([f"{constant} = {lists.seq(members.movable, '')}"])
        w.imports.name(relative_module(lists_module(agent)), constant)
        tools_value = w.seq([f"*{constant}"] + members.fixed, "    ") if members.fixed else constant
    elif agent.tools_list in ("dynamic_getattr", "dynamic_importlib") and members.function_refs:
        rest = [e for e in tools if e]
        call = dynamic_tools(w, agent, members.function_refs, before)
        tools_value = w.seq([f"*{call}"] + rest, "    ") if rest else call
        unreadable |= {tool_row_name(t) for t, _ in members.function_refs}
    elif agent.tools_list in REWIRES and (agent.tools or (agent.handoffs and agent.rewire_handoffs)):
        tools_value, handoffs = rewired_lists(state, w, app, agent, tools, members.handoffs, after)
        members.handoffs = handoffs
    elif agent.tools_list == "shared_spread":
        shared = {e for t, e in members.function_refs if t.tid in common_tools(app, agent.file)}
        tools_value = w.seq(["*COMMON_TOOLS"] + [e for e in tools if e not in shared], "    ")
    else:
        tools_value = spelled_list(w, agent, "tools", tools, before)
    values = {"tools": tools_value}
    values[handoff_field] = spelled_list(w, agent, handoff_field, members.handoffs, before)
    if server_field:
        values[server_field] = spelled_list(w, agent, server_field, members.servers, before)
    return values, unreadable


def clone_overrides(app: App, agent: AgentSpec, values: dict[str, Optional[str]]) -> dict[str, str]:
    """A clone passes a field only when it differs from its source's (else it inherits it)."""
    source = app.agents[agent.clone_of]
    same = {
        "tools": sorted(agent.tools) == sorted(source.tools) and agent.hosted == source.hosted
        and all(condition_of(agent, t) == condition_of(source, t) for t in agent.tools)
        and sorted(agent.agent_tools) == sorted(source.agent_tools)
        and (agent.framework == SDK or sorted(agent.servers) == sorted(source.servers))
        and agent.tools_list in READABLE_LISTS,
        "sub_agents": sorted(agent.handoffs) == sorted(source.handoffs) and agent.tools_list not in REWIRES,
        "handoffs": sorted(agent.handoffs) == sorted(source.handoffs) and agent.tools_list not in REWIRES,
        "mcp_servers": sorted(agent.servers) == sorted(source.servers),
    }
    out = {}
    for name, value in values.items():
        if same.get(name):
            continue
        out[name] = value if value is not None else "[]"
    return out


def name_argument(w: Writer, agent: AgentSpec, before: list[list[str]]) -> str:
    if agent.construction == "name_constant":
        before.append([f"{constant_stem(agent)}_NAME = {w.q(agent.name)}"])
        return f"{constant_stem(agent)}_NAME"
    return w.q(agent.name)


def agent_class(w: Writer, agent: AgentSpec) -> str:
    """The agent class as the file's `class_spelling` spells it."""
    cls = "Agent" if agent.framework == SDK else agent.adk_class
    spelling = w.style.class_spelling
    if spelling == "class_alias":
        alias = ("Sdk" if agent.framework == SDK else "Adk") + cls
        w.imports.name("agents" if agent.framework == SDK else "google.adk.agents", cls, alias)
        return alias
    if spelling == "class_generic" and agent.framework == SDK:
        w.imports.name("agents", "Agent")
        return "Agent[dict]"
    if spelling == "class_module_qualified":
        if agent.framework == SDK:
            w.imports.module("agents")
            return f"agents.{cls}"
        w.imports.alias("google.adk", "agents", "adk_agents")
        return f"adk_agents.{cls}"
    w.imports.name("agents" if agent.framework == SDK else "google.adk.agents", cls)
    return cls


def render_agent(state: "RenderState", w: Writer, app: App, agent: AgentSpec) -> tuple[list[list[str]], set[str]]:
    """The top-level blocks that build one agent, and the binding names it leaves unreadable."""
    before: list[list[str]] = []
    after: list[str] = []
    values, unreadable = rendered_lists(state, w, app, agent, before, after)
    name = name_argument(w, agent, before)
    instruction = w.q(INSTRUCTIONS[agent.instruction % len(INSTRUCTIONS)])
    if agent.framework == SDK and agent.construction == "positional_name":
        head = [name, f"instructions={instruction}"] + sdk_settings_arguments(w, agent)
    elif agent.framework == SDK:
        head = [f"name={name}", f"instructions={instruction}"] + sdk_settings_arguments(w, agent)
    else:
        model = ADK_MODELS[agent.model % len(ADK_MODELS)]
        head = [f"name={name}", f"model={w.q(model)}", f"instruction={instruction}"]
    indent = "    " if agent.construction.startswith("builder") else ""
    if agent.construction == "clone":
        source = app.agents[agent.clone_of]
        passed = clone_overrides(app, agent, values)
        arguments = [f"name={name}"] + [f"{k}={v}" for k, v in passed.items()]
        construction = [f"{agent.var} = {w.call(source.var + '.clone', arguments, '')}"]
    elif agent.construction == "kwargs_unpack":
        options = f"{constant_stem(agent)}_OPTIONS"
        entries = [f"{w.q(k)}: {v}" for k, v in values.items() if v is not None]
        before.append([f"{options} = " + ("{" + ", ".join(entries) + "}")])
        construction = [f"{agent.var} = {w.call(agent_class(w, agent), head + ['**' + options], '')}"]
        unreadable |= set(binding_names(app, agent))
    else:
        arguments = head + [f"{k}={v}" for k, v in values.items() if v is not None]
        call = w.call(agent_class(w, agent), arguments, indent) if agent.construction != "builder_local_list" else ""
        if agent.construction == "builder":
            builder = f"build_{agent.list_name or agent.var}"
            before.append([f"def {builder}():", f"    return {call}"])
            construction = [f"{agent.var} = {builder}()"]
        elif agent.construction == "class_held":
            holder = f"{(agent.list_name or agent.var).title().replace('_', '')}Holder"
            call = w.call(agent_class(w, agent), arguments, "        ")
            before.append([f"class {holder}:", "    def __init__(self):", f"        self.agent = {call}"])
            construction = []
        elif agent.construction == "builder_local_list":
            before.append(local_list_builder(agent, agent_class(w, agent), head, values))
            construction = [f"{agent.var} = build_{agent.list_name or agent.var}()"]
        else:
            construction = [f"{agent.var} = {call}"]
    blocks = before + ([construction + after] if construction + after else [])
    return blocks, unreadable


def local_list_builder(agent: AgentSpec, cls: str, head: list[str], values: dict[str, Optional[str]]) -> list[str]:
    """def build_x(): tools = [first]; tools.append(second); ...; return Agent(..., tools=tools)."""
    lines = [f"def build_{agent.list_name or agent.var}():"]
    arguments = list(head)
    for field_name, value in values.items():
        if value is None:
            continue
        local = f"{field_name}_list" if agent.list_name else field_name
        items = split_display(value)
        if items is None:
            lines.append(f"    {local} = {value}")
        else:
            lines.append(f"    {local} = [{', '.join(items[:1])}]")
            lines += [f"    {local}.append({item})" for item in items[1:]]
        arguments.append(f"{field_name}={local}")
    lines.append(f"    return {cls}({', '.join(arguments)})")
    return lines


def split_display(value: str) -> Optional[list[str]]:
    """The members of a one-line list display `[a, b(c, d), ...]` (None when it is not one)."""
    if not (value.startswith("[") and value.endswith("]")) or "\n" in value:
        return None
    items, depth, current = [], 0, ""
    for ch in value[1:-1]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        items.append(current.strip())
    if any(i.startswith("*") for i in items):
        return None
    return items


TOOL_CHOICES = [None, "required", "none"]  # not "auto": unset is the model's default, which may change
SDK_MODELS = ["", "gpt-4.1", "gpt-4o-mini"]
ADK_MODELS = ["gemini-2.0-flash", "gemini-2.5-pro", "gemini-2.5-flash"]


def sdk_settings_arguments(w: Writer, agent: AgentSpec) -> list[str]:
    """model=, model_settings= and tool_use_behavior= of an SDK construction (not a clone's)."""
    out = []
    model = SDK_MODELS[agent.model % len(SDK_MODELS)]
    if model:
        out.append(f"model={w.q(model)}")
    if agent.tool_choice:
        w.imports.name("agents", "ModelSettings")
        out.append(f"model_settings=ModelSettings(tool_choice={w.q(agent.tool_choice)})")
    if agent.tool_use_behavior:
        out.append(f"tool_use_behavior={w.q(agent.tool_use_behavior)}")
    elif agent.spell_default:
        out.append(f"tool_use_behavior={w.q('run_llm_again')}")
    return out


def binding_names(app: App, agent: AgentSpec) -> list[str]:
    """The row names of everything the agent binds (as `expected_bindings` spells them)."""
    src = agent_source(agent)
    ident = agent_identity(agent)
    return [tool for (s, a, tool) in expected_bindings(app) if (s, a) == (src, ident)]


def common_tools(app: App, stem: str) -> list[str]:
    """The function tools every `shared_spread` agent of the file binds: its COMMON_TOOLS."""
    sharing = [a for a in app.agents_in(stem) if a.tools_list == "shared_spread"]
    if not sharing:
        return []
    return sorted(set.intersection(*({t for t in a.tools if not condition_of(a, t)} for a in sharing)))


def render_common_tools(w: Writer, app: App, stem: str) -> list[list[str]]:
    if not any(a.tools_list == "shared_spread" for a in app.agents_in(stem)):
        return []
    items = [tool_reference(w, app.tools[name]) for name in common_tools(app, stem)]
    return [[f"COMMON_TOOLS = {w.seq(items, '')}"]]


def dependencies(app: App, agent: AgentSpec) -> list[str]:
    deps = list(agent.handoffs) + list(agent.agent_tools)
    if agent.clone_of:
        deps.append(agent.clone_of)
    return [d for d in deps if d in app.agents]


def definition_order(app: App, stem: str) -> list[AgentSpec]:
    """The file's agents in a definition order that puts every dependency first."""
    pending = sorted(app.agents_in(stem), key=lambda a: (a.order, a.key))
    done: list[AgentSpec] = []
    placed: set[str] = set()
    while pending:
        for agent in pending:
            if all(d in placed or app.agents[d].file != stem for d in dependencies(app, agent)):
                done.append(agent)
                placed.add(agent.key)
                pending.remove(agent)
                break
        else:
            raise ValueError(f"dependency cycle among {[a.key for a in pending]}")
    return done


def render_agent_module(state: "RenderState", app: App, stem: str, unreadable: dict) -> str:
    w = Writer(app, stem)
    blocks = render_helper(w, app) + [render_tool_definition(w, t) for t in tools_defined_in(app, stem)]
    used_servers = sorted({k for a in app.agents_in(stem) for k in a.servers if not app.servers[k].module})
    blocks += [render_server(w, app.servers[k]) for k in used_servers]
    blocks += render_common_tools(w, app, stem)
    for agent in definition_order(app, stem):
        agent_blocks, names = render_agent(state, w, app, agent)
        blocks += agent_blocks
        if names:
            unreadable[(agent_source(agent), agent_identity(agent))] = names
    return assemble(w, blocks)


HEADERS = ["", "Agents of the application.", "The application's agents and tools.", "Module."]


def assemble(w: Writer, blocks: list[list[str]]) -> str:
    out: list[str] = []
    if w.style.header:
        out += [f'"""{HEADERS[w.style.header % len(HEADERS)]}"""', ""]
    body: list[str] = []
    if w.aliases:
        body += [""] + [f"{alias} = {name}" for alias, name in sorted(w.aliases.items())]
    for index, block in enumerate(blocks):
        body += ["", ""] + w.comment(f"block {index}") + block
    out += w.imports.lines("\n".join(body))
    return "\n".join(out + body).lstrip("\n") + "\n"


class RenderState:
    """Modules other than agent modules, filled while the agents are rendered."""

    def __init__(self, app: App):
        self.app = app
        self.modules: dict[str, Writer] = {}

    def side_module(self, stem: str) -> Writer:
        if stem not in self.modules:
            self.modules[stem] = Writer(self.app, stem)
        return self.modules[stem]


def render(app: App) -> Rendered:
    files = {f"{SCOPE}/__init__.py": ""}
    unreadable: dict[tuple[str, str], set[str]] = {}
    state = RenderState(app)
    for stem in sorted({t.module for t in app.tools.values()}):
        if not is_agent_file(app, stem):
            state.modules[stem] = render_tool_module(app, stem)
    for server in sorted(app.servers.values(), key=lambda s: s.key):
        if server.module:
            module = state.side_module(server.module)
            module.blocks.append(render_server(module, server))
    for framework, stems in app.agent_files.items():
        for stem in stems:
            if app.agents_in(stem):
                files[f"{SCOPE}/{module_path(stem)}"] = render_agent_module(state, app, stem, unreadable)
    for stem, writer in sorted(state.modules.items()):
        files[f"{SCOPE}/{module_path(stem)}"] = assemble(writer, writer.blocks)
        if "/" in stem and not stem.endswith("/__init__"):
            package = stem.rsplit("/", 1)[0]
            files[f"{SCOPE}/{package}/__init__.py"] = render_package_init(app, package)
    return Rendered(files, unreadable)


def render_package_init(app: App, package: str) -> str:
    """A package that re-exports every tool its modules define (the `package_reexport` shape)."""
    lines = []
    for stem in sorted({t.module for t in app.tools.values() if t.module.startswith(package + "/")}):
        names = sorted(tool_bound_name(t) for t in tools_defined_in(app, stem))
        lines.append(f"from .{stem.rsplit('/', 1)[1]} import {', '.join(names)}")
    return "\n".join(lines) + ("\n" if lines else "")


def is_agent_file(app: App, stem: str) -> bool:
    return any(stem in stems for stems in app.agent_files.values())


# --------------------------------------------------------------------------
# Drawing a model
# --------------------------------------------------------------------------

AGENT_WORDS = ["support", "billing", "refunds", "triage", "shipping", "research", "writer", "planner",
               "reviewer", "sales", "intake", "escalation", "returns", "catalog", "concierge", "audit"]
TOOL_WORDS = ["lookup_order", "refund_payment", "track_parcel", "send_email", "search_docs", "create_ticket",
              "get_weather", "convert_currency", "schedule_call", "summarize_text", "fetch_invoice",
              "check_stock", "reset_password", "book_room", "rate_answer", "list_files", "translate_text",
              "open_case", "close_case", "quote_price"]
PARAM_TYPES = ["str", "int", "float", "bool"]
PARAM_WORDS = ["order_id", "amount", "email", "query", "city", "currency", "note", "limit", "user_id", "lang"]
LOCAL_WORDS = ["result", "note", "text", "out", "reply", "value"]
SERVER_WORDS = ["files", "github", "calendar", "notes", "search"]
COMMANDS = ["npx", "uvx", "node", "python3"]


class Names:
    """Unique names drawn from word lists."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()

    def take(self, words: list[str], suffix: str = "") -> str:
        free = [w for w in words if w + suffix not in self.used]
        base = self.rng.choice(free) if free else f"{self.rng.choice(words)}{len(self.used)}"
        name = base + suffix
        while name in self.used:
            name += "_x"
        self.used.add(name)
        return name


@dataclass
class Generation:
    rng: random.Random
    enabled: set[str]
    names: Names
    counter: int = 0
    base: Optional[App] = None  # the base model, while edits are drawn

    def pick(self, axis: str, framework: str) -> str:
        names = shapes_for(self.enabled, axis, framework)
        return self.rng.choices(names, weights=[SHAPES[n].weight for n in names])[0]

    def on(self, shape: str) -> bool:
        return shape in self.enabled


def draw_tool(gen: Generation, app: App, framework: str) -> Tool:
    rng = gen.rng
    name = gen.names.take(TOOL_WORDS)
    return Tool(
        name=name,
        framework=framework,
        params=rng.sample(PARAM_WORDS, rng.randint(0, 3)),
        body=rng.randint(1, 5),
        local=rng.choice(LOCAL_WORDS),
        module=draw_tool_module(gen, app, framework),
        definition=gen.pick("tool_def", framework),
        doc=rng.randint(0, 2 * len(DOCSTRINGS) - 1),
        order=rng.randint(0, 99),
        types={p: rng.choice(PARAM_TYPES) for p in PARAM_WORDS if rng.random() < 0.2},
        default=rng.choice([None, None, '"x"', "3"]),
        is_async=rng.random() < 0.15,
        returns=rng.choice(["str", "str", "dict"]),
        override=f"do_{name}" if framework == SDK and rng.random() < 0.15 else "",
        helper=gen.on("tool_helper") and rng.random() < 0.3,
    )


def draw_module_options(gen: Generation, app: App, framework: str) -> list[str]:
    options = tool_modules(gen, framework)
    stems = app.agent_files.get(framework, [])
    if gen.on("local_definition") and len(stems) == 1:
        options.append(stems[0])
    return options


def draw_tool_module(gen: Generation, app: App, framework: str) -> str:
    return gen.rng.choice(draw_module_options(gen, app, framework))


def draw_server(gen: Generation, framework: str, stem: str) -> Server:
    rng = gen.rng
    word = gen.names.take(SERVER_WORDS)
    return Server(
        key=word,
        framework=framework,
        file=stem,
        var=f"{word}_server" if framework == SDK else f"{word}_toolset",
        command=rng.choice(COMMANDS),
        args=[f"{word}-mcp", f"--v{rng.randint(1, 3)}"],
        named=rng.random() < 0.7,
        module=servers_module(framework) if gen.on("server_imported") and rng.random() < 0.5 else "",
        filter=draw_filter(gen, word) if gen.on("mcp_tool_filter") and rng.random() < 0.4 else None,
    )


def draw_filter(gen: Generation, word: str) -> list[str]:
    names = [f"{word}_read", f"{word}_list", f"{word}_write"]
    return gen.rng.sample(names, gen.rng.randint(1, 2))


def servers_module(framework: str) -> str:
    return f"{framework}_servers"


def can_be_target(agent: AgentSpec) -> bool:
    """An agent another one may hand off to, wrap as a tool or clone (its identity is its variable's)."""
    return agent.construction in IDENTITY_BY_VARIABLE


def can_be_clone_source(agent: AgentSpec) -> bool:
    return (agent.framework == SDK and agent.construction in IDENTITY_BY_VARIABLE + ("clone",)
            and agent.tools_list in READABLE_LISTS)


def reaches(app: App, start: str, goal: str) -> bool:
    """Whether `start` depends (transitively) on `goal`."""
    seen, stack = set(), [start]
    while stack:
        key = stack.pop()
        if key == goal:
            return True
        if key in seen or key not in app.agents:
            continue
        seen.add(key)
        stack += dependencies(app, app.agents[key])
    return False


def file_rank(app: App, agent: AgentSpec) -> int:
    return app.agent_files[agent.framework].index(agent.file)


def target_allowed(app: App, agent: AgentSpec, target: AgentSpec) -> bool:
    """Whether `agent` may reference `target`: same framework, an earlier or the same agent
    module (so modules never import each other in a cycle), and no dependency cycle."""
    return (target.key != agent.key and target.framework == agent.framework and can_be_target(target)
            and file_rank(app, target) <= file_rank(app, agent) and not reaches(app, target.key, agent.key))


def eligible_targets(app: App, agent: AgentSpec, cross_module: bool) -> list[AgentSpec]:
    """Agents `agent` may reference: its own module's, and earlier modules' when `cross_module`."""
    return [t for t in app.agents.values() if target_allowed(app, agent, t)
            and (cross_module or t.file == agent.file)]


def draw_agent(gen: Generation, app: App, framework: str, stem: str, index: int) -> AgentSpec:
    rng = gen.rng
    word = gen.names.take(AGENT_WORDS)
    name = word if framework == ADK else word.capitalize()
    if framework == ADK:
        name = f"{word}_agent"
    agent = AgentSpec(
        key=f"{framework}{index}",
        framework=framework,
        file=stem,
        var=word,
        name=name,
        construction=gen.pick("construction", framework),
        tools_list=gen.pick("tools_list", framework),
        handoff_ref=gen.pick("handoff_ref", framework) if framework == SDK else "handoff_plain",
        order=rng.randint(0, 99),
        instruction=rng.randint(0, 3),
        adk_class=rng.choice(["Agent", "LlmAgent"]),
        model=rng.randint(0, 2),
        rewire_handoffs=framework == SDK or gen.on("rewire_sub_agents"),
    )
    fit_rewire_to_construction(gen, agent)
    if agent.construction == "clone":
        sources = [a for a in app.agents.values() if a.file == stem and can_be_clone_source(a)]
        if sources:
            agent.clone_of = rng.choice(sources).key
        else:
            agent.construction = "module_literal"
    return agent


def fit_rewire_to_construction(gen: Generation, agent: AgentSpec):
    """A rewire of an agent a builder makes is `rewire_factory_result_other_module` (from another
    module) or, for ADK, `adk_rewire_factory_result` (in its own module), and those two shapes only
    go with builders; a pair the enabled shapes cannot spell falls back to a literal list."""
    if agent.construction == "class_held" and agent.tools_list in REWIRES:
        agent.tools_list = "literal"  # no module-level name to rewire through
    if agent.tools_list == "rewire_other_module" and agent.construction in BUILDERS:
        agent.tools_list = "rewire_factory_result_other_module"
    elif agent.tools_list in SAME_MODULE_REWIRES and agent.construction in BUILDERS and agent.framework == ADK:
        agent.tools_list = "adk_rewire_factory_result"
    elif agent.tools_list == "adk_rewire_factory_result" and agent.construction not in BUILDERS:
        agent.construction = gen.rng.choice([c for c in BUILDERS if gen.on(c)] or ["builder"])
    elif agent.tools_list == "rewire_factory_result_other_module" and agent.construction not in BUILDERS:
        agent.construction = gen.rng.choice([c for c in BUILDERS if gen.on(c)] or ["builder"])
    if not gen.on(agent.tools_list) or not gen.on(agent.construction):
        agent.tools_list, agent.construction = "literal", agent.construction if gen.on(agent.construction) else "module_literal"


def draw_bindings(gen: Generation, app: App, agent: AgentSpec):
    rng = gen.rng
    pool = [t.tid for t in app.tools.values() if t.framework == agent.framework]
    for tid in rng.sample(pool, rng.randint(0, min(3, len(pool)))):
        if can_bind(app, agent, app.tools[tid]):
            agent.tools.append(tid)
    if gen.on("hosted_tool") and rng.random() < 0.3:
        cls = rng.choice(HOSTED_BY_FRAMEWORK[agent.framework])
        agent.hosted[cls] = rng.choice(HOSTED_ARGUMENTS[cls])
    servers = [s.key for s in app.servers.values() if s.file == agent.file]
    if servers and rng.random() < 0.5:
        agent.servers = rng.sample(servers, rng.randint(1, len(servers)))
    if agent.framework == SDK and agent.construction != "clone" and gen.on("agent_settings") and rng.random() < 0.25:
        agent.tool_choice = rng.choice(TOOL_CHOICES)
        agent.tool_use_behavior = rng.choice([None, "stop_on_first_tool"])
    if agent.framework == SDK and gen.on("explicit_default_setting") and rng.random() < 0.3:
        agent.spell_default = True
    if agent.tools and gen.on("conditional_member") and rng.random() < 0.25:
        agent.conditions[agent.tools[-1]] = f"ENABLE_{agent.tools[-1].split('@')[0].upper()}"
    targets = eligible_targets(app, agent, gen.on("cross_module_agents"))
    if gen.on("handoffs") and targets and rng.random() < 0.5:
        agent.handoffs = [t.key for t in rng.sample(targets, rng.randint(1, min(2, len(targets))))]
    targets = eligible_targets(app, agent, gen.on("cross_module_agents"))
    if gen.on("agent_as_tool") and targets and rng.random() < 0.3:
        agent.agent_tools = [rng.choice(targets).key]


def draw_app(gen: Generation) -> App:
    rng = gen.rng
    app = App()
    frameworks = rng.choice([[SDK], [ADK], [SDK, ADK]])
    for framework in frameworks:
        count = rng.choice([1, 1, 2])
        app.agent_files[framework] = [f"{framework}_{'ab'[i]}" for i in range(count)]
    for framework in frameworks:
        for _ in range(rng.randint(2, 5)):
            tool = draw_tool(gen, app, framework)
            app.tools[tool.tid] = tool
        if gen.on("same_name_tools") and rng.random() < 0.5:
            twin = draw_twin(gen, app, rng.choice([t for t in app.tools.values() if t.framework == framework]))
            if twin:
                app.tools[twin.tid] = twin
        if gen.on("mcp_server"):
            for stem in app.agent_files[framework]:
                for _ in range(rng.randint(0, 2)):
                    server = draw_server(gen, framework, stem)
                    app.servers[server.key] = server
    index = 0
    for framework in frameworks:
        for stem in app.agent_files[framework]:
            for _ in range(rng.randint(1, 3)):
                agent = draw_agent(gen, app, framework, stem, index)
                index += 1
                app.agents[agent.key] = agent
                draw_bindings(gen, app, agent)
    for stems in app.agent_files.values():
        for stem in stems:
            draw_style(gen, app, stem)
    for stem in {t.module for t in app.tools.values()}:
        draw_style(gen, app, stem)
    return app


def draw_style(gen: Generation, app: App, stem: str):
    rng = gen.rng
    style = app.style(stem)
    style.quote = rng.choice(['"', "'"])
    style.multiline = rng.random() < 0.3
    style.comments = rng.choice([0, 0, rng.randint(1, 9)])
    style.header = rng.randint(0, len(HEADERS) - 1)
    style.class_spelling = gen.pick("class_spelling", SDK)
    style.alias_agents = rng.random() < 0.3
    refs = shapes_for(gen.enabled, "tool_ref", SDK)
    for module in sum(TOOL_MODULES.values(), []) + sum(app.agent_files.values(), []):
        style.import_style[module] = rng.choice(refs)


# --------------------------------------------------------------------------
# Edits
# --------------------------------------------------------------------------


@dataclass
class Edit:
    """One change from base to head: `kind` names the function in EDITS that applies it."""

    kind: str
    target: str
    value: object = None

    def describe(self) -> str:
        return f"{self.kind}({self.target}{'' if self.value is None else ', ' + repr(self.value)})"

    @property
    def neutral(self) -> bool:
        return self.kind in NEUTRAL_EDITS


def agent_of(app: App, key: str) -> Optional[AgentSpec]:
    return app.agents.get(key)


def edit_bind_tool(app: App, e: Edit):
    agent, tool = agent_of(app, e.target), app.tools.get(e.value)
    if agent and tool and can_bind(app, agent, tool):
        agent.tools.append(tool.tid)


def edit_unbind_tool(app: App, e: Edit):
    agent = agent_of(app, e.target)
    if agent and e.value in agent.tools:
        agent.tools.remove(e.value)


def edit_new_tool(app: App, e: Edit):
    """Define a new tool (value: a Tool) and bind it to the agent."""
    agent, tool = agent_of(app, e.target), copy.deepcopy(e.value)
    if tool.tid in app.tools or not module_allowed(app, tool, tool.module):
        return
    app.tools[tool.tid] = tool
    if agent and can_bind(app, agent, tool):
        agent.tools.append(tool.tid)


def edit_add_param(app: App, e: Edit):
    tool = app.tools.get(e.target)
    if tool and e.value not in tool.params:
        tool.params.append(e.value)


def edit_drop_param(app: App, e: Edit):
    tool = app.tools.get(e.target)
    if tool and e.value in tool.params:
        tool.params.remove(e.value)


def edit_settings(app: App, e: Edit):
    """SDK tool_choice / tool_use_behavior of a non-clone agent: every row of it (and of its
    clones) changes."""
    agent = agent_of(app, e.target)
    field_name, value = e.value
    if agent and agent.framework == SDK and agent.construction != "clone":
        setattr(agent, field_name, value)


def edit_set_condition(app: App, e: Edit):
    """Bind a tool only under an env flag (None: unconditionally)."""
    agent = agent_of(app, e.target)
    tid, flag = e.value
    if agent and tid in agent.tools:
        if flag:
            agent.conditions[tid] = flag
        else:
            agent.conditions.pop(tid, None)


def edit_tool_field(app: App, e: Edit):
    """Set a field of a tool's signature or name (types, default, is_async, returns, override)."""
    tool = app.tools.get(e.target)
    field_name, value = e.value
    if not tool or (field_name == "override" and tool.framework != SDK):
        return
    if field_name == "types":
        param, annotation = value
        tool.types = {**tool.types, param: annotation}
    else:
        setattr(tool, field_name, value)


def edit_change_body(app: App, e: Edit):
    tool = app.tools.get(e.target)
    if tool:
        tool.body = e.value


def edit_rename_tool_local(app: App, e: Edit):
    tool = app.tools.get(e.target)
    if tool and e.value not in tool.params:
        tool.local = e.value


def edit_add_handoff(app: App, e: Edit):
    agent, target = agent_of(app, e.target), agent_of(app, e.value)
    if agent and target and target.key not in agent.handoffs and target_allowed(app, agent, target):
        agent.handoffs.append(target.key)


def edit_remove_handoff(app: App, e: Edit):
    agent = agent_of(app, e.target)
    if agent and e.value in agent.handoffs:
        agent.handoffs.remove(e.value)


def edit_add_agent_tool(app: App, e: Edit):
    agent, target = agent_of(app, e.target), agent_of(app, e.value)
    if agent and target and target.key not in agent.agent_tools and target_allowed(app, agent, target):
        agent.agent_tools.append(target.key)


def edit_remove_agent_tool(app: App, e: Edit):
    agent = agent_of(app, e.target)
    if agent and e.value in agent.agent_tools:
        agent.agent_tools.remove(e.value)


def edit_bind_server(app: App, e: Edit):
    agent, server = agent_of(app, e.target), app.servers.get(e.value)
    if agent and server and server.file == agent.file and server.key not in agent.servers:
        agent.servers.append(server.key)


def edit_unbind_server(app: App, e: Edit):
    agent = agent_of(app, e.target)
    if agent and e.value in agent.servers:
        agent.servers.remove(e.value)


def edit_change_server_filter(app: App, e: Edit):
    server = app.servers.get(e.target)
    if server:
        server.filter = None if e.value is None else list(e.value)


def edit_change_server_args(app: App, e: Edit):
    server = app.servers.get(e.target)
    if server:
        server.args = list(e.value)


def edit_add_hosted(app: App, e: Edit):
    agent = agent_of(app, e.target)
    cls, argument = e.value
    if agent and cls in HOSTED_BY_FRAMEWORK[agent.framework] and cls not in agent.hosted:
        agent.hosted[cls] = argument


def edit_remove_hosted(app: App, e: Edit):
    agent = agent_of(app, e.target)
    if agent:
        agent.hosted.pop(e.value, None)


def edit_change_hosted(app: App, e: Edit):
    agent = agent_of(app, e.target)
    cls, argument = e.value
    if agent and cls in agent.hosted:
        agent.hosted[cls] = argument


def edit_redecorate(app: App, e: Edit):
    """SDK `@function_tool` <-> `@function_tool()`: the decorator is part of the digest."""
    tool = app.tools.get(e.target)
    if tool and tool.definition in SDK_DECORATORS and e.value in SDK_DECORATORS:
        tool.definition = e.value


def edit_change_server_command(app: App, e: Edit):
    server = app.servers.get(e.target)
    if server:
        server.command = e.value


def edit_new_agent(app: App, e: Edit):
    """Add an agent (value: an AgentSpec) with what it binds, where that still exists."""
    agent = copy.deepcopy(e.value)
    if agent.key in app.agents or agent.file not in app.agent_files.get(agent.framework, []):
        return
    if agent.clone_of and agent.clone_of not in app.agents:
        agent.clone_of, agent.construction = None, "module_literal"
    agent.tools = [t for t in agent.tools if t in app.tools]
    agent.servers = [k for k in agent.servers if k in app.servers]
    agent.handoffs = [k for k in agent.handoffs if k in app.agents and target_allowed(app, agent, app.agents[k])]
    agent.agent_tools = [k for k in agent.agent_tools if k in app.agents and target_allowed(app, agent, app.agents[k])]
    app.agents[agent.key] = agent


def edit_rename_agent(app: App, e: Edit):
    """Change an agent's name= (an ADK agent renamed in place keeps its rows; an SDK agent
    named by its variable is unchanged). Not for agents wrapped as tools: their tool name changes."""
    agent = agent_of(app, e.target)
    if agent and not any(agent.key in a.agent_tools for a in app.agents.values()) \
            and e.value not in {a.name for a in app.agents.values()}:
        agent.name = e.value


def edit_move_agent(app: App, e: Edit):
    """Move an agent's construction to another agent module of its framework: its rows are
    keyed by file, so what it binds is removed from one file and added in the other."""
    agent = agent_of(app, e.target)
    if not agent or e.value not in app.agent_files.get(agent.framework, []) or e.value == agent.file:
        return
    if agent.servers or agent.clone_of or any(
            agent.key in dependencies(app, other) for other in app.agents.values()):
        return
    if any(t.module == agent.file for t in app.tools.values() if t.tid in agent.tools):
        return
    moved = copy.deepcopy(agent)
    moved.file = e.value
    if all(target_allowed(app, moved, app.agents[k]) for k in dependencies(app, agent)):
        agent.file = e.value


def edit_drop_agent(app: App, e: Edit):
    """Remove an agent, and every handoff or agent tool that names it."""
    if e.target in app.agents and not any(a.clone_of == e.target for a in app.agents.values()):
        remove_agent(app, e.target)


def remove_agent(app: App, key: str):
    app.agents.pop(key, None)
    for agent in app.agents.values():
        agent.handoffs = [k for k in agent.handoffs if k != key]
        agent.agent_tools = [k for k in agent.agent_tools if k != key]
        if agent.clone_of == key:
            agent.clone_of = None
            agent.construction = "module_literal"


# ---- neutral edits ----

def edit_rewrap(app: App, e: Edit):
    """ADK plain function <-> FunctionTool(func=f) inline or beside it: the row is the function's."""
    tool = app.tools.get(e.target)
    if tool and tool.definition in ADK_WRAPPERS and e.value in ADK_WRAPPERS:
        tool.definition = e.value

def edit_move_tool(app: App, e: Edit):
    tool = app.tools.get(e.target)
    if tool and module_allowed(app, tool, e.value):
        tool.module = e.value


def module_allowed(app: App, tool: Tool, stem: str) -> bool:
    """A module may hold the tool: a shared tools module, or the framework's only agent module;
    never beside a same-named tool."""
    if any(t.name == tool.name and t.tid != tool.tid and t.module == stem for t in app.tools.values()):
        return False
    if stem in TOOL_MODULES[tool.framework]:
        return True
    return app.agent_files.get(tool.framework) == [stem]


def can_bind(app: App, agent: AgentSpec, tool: Tool) -> bool:
    """An agent binds a tool of its framework, at most one tool of a name."""
    return (tool.framework == agent.framework and tool.tid not in agent.tools
            and not any(app.tools[k].name == tool.name for k in agent.tools if k in app.tools))


def has_twin(app: App, tool: Tool) -> bool:
    return any(t.name == tool.name and t.tid != tool.tid for t in app.tools.values())


def draw_twin(gen: Generation, app: App, original: Tool) -> Optional[Tool]:
    """A tool of the same name in another module: the same text, or a different body."""
    twin = copy.deepcopy(original)
    twin.key = f"{original.name}@{len(app.tools)}"
    twin.order = gen.rng.randint(0, 99)
    if gen.rng.random() < 0.5:
        twin.body += gen.rng.randint(1, 3)
    modules = [m for m in draw_module_options(gen, app, original.framework) if module_allowed(app, twin, m)]
    if not modules:
        return None
    twin.module = gen.rng.choice(modules)
    return twin


def edit_retarget(app: App, e: Edit):
    """Bind the same-named tool of another module instead: a row only when the two differ."""
    agent, old, new = agent_of(app, e.target), app.tools.get(e.value[0]), app.tools.get(e.value[1])
    if agent and old and new and old.tid in agent.tools and old.name == new.name and old.tid != new.tid:
        agent.tools[agent.tools.index(old.tid)] = new.tid


def edit_move_server(app: App, e: Edit):
    server = app.servers.get(e.target)
    if server and e.value in ("", servers_module(server.framework)):
        server.module = e.value


def edit_change_helper(app: App, e: Edit):
    """A new body for a module's _fmt: the tools calling it keep their digests."""
    app.helpers[e.target] = e.value


def edit_tool_doc(app: App, e: Edit):
    tool = app.tools.get(e.target)
    if tool:
        tool.doc = e.value


def edit_tool_comment(app: App, e: Edit):
    tool = app.tools.get(e.target)
    if tool:
        tool.comment = e.value


def edit_tool_order(app: App, e: Edit):
    tool = app.tools.get(e.target)
    if tool:
        tool.order = e.value


def edit_restyle(app: App, e: Edit):
    field_name, value = e.value
    style = app.style(e.target)
    if field_name == "import_style":
        module, shape = value
        style.import_style[module] = shape
    else:
        setattr(style, field_name, value)


def edit_agent_field(app: App, e: Edit):
    """Set a rendering field of an agent (order, list_name, instruction, adk_class, list_order)."""
    agent = agent_of(app, e.target)
    field_name, value = e.value
    if agent:
        setattr(agent, field_name, value)


def edit_reshape(app: App, e: Edit):
    """Switch an agent to another shape of an axis that spells the same bindings."""
    agent = agent_of(app, e.target)
    axis, shape = e.value
    if not agent:
        return
    if axis == "construction":
        if agent.construction in identity_preserving(agent) and shape in identity_preserving(agent):
            if not any(a.clone_of == agent.key for a in app.agents.values()) or shape != "builder":
                agent.construction = shape
    elif axis == "tools_list":
        if agent.tools_list in READABLE_LISTS and shape in READABLE_LISTS:
            agent.tools_list = shape
    elif axis == "handoff_ref" and agent.framework == SDK:
        agent.handoff_ref = shape


def identity_preserving(agent: AgentSpec) -> tuple[str, ...]:
    """Construction shapes that keep the agent's identity and its eligibility as a target."""
    return IDENTITY_BY_VARIABLE if agent.framework == SDK else ("module_literal", "name_constant")


EDITS: dict[str, Callable[[App, Edit], None]] = {
    "bind_tool": edit_bind_tool,
    "unbind_tool": edit_unbind_tool,
    "new_tool": edit_new_tool,
    "retarget": edit_retarget,
    "add_param": edit_add_param,
    "drop_param": edit_drop_param,
    "change_body": edit_change_body,
    "tool_field": edit_tool_field,
    "settings": edit_settings,
    "set_condition": edit_set_condition,
    "rename_tool_local": edit_rename_tool_local,
    "add_handoff": edit_add_handoff,
    "remove_handoff": edit_remove_handoff,
    "add_agent_tool": edit_add_agent_tool,
    "remove_agent_tool": edit_remove_agent_tool,
    "bind_server": edit_bind_server,
    "unbind_server": edit_unbind_server,
    "change_server_args": edit_change_server_args,
    "change_server_filter": edit_change_server_filter,
    "add_hosted": edit_add_hosted,
    "remove_hosted": edit_remove_hosted,
    "change_hosted": edit_change_hosted,
    "redecorate": edit_redecorate,
    "change_server_command": edit_change_server_command,
    "new_agent": edit_new_agent,
    "drop_agent": edit_drop_agent,
    "rename_agent": edit_rename_agent,
    "move_agent": edit_move_agent,
    "rewrap": edit_rewrap,
    "move_tool": edit_move_tool,
    "move_server": edit_move_server,
    "change_helper": edit_change_helper,
    "tool_doc": edit_tool_doc,
    "tool_comment": edit_tool_comment,
    "tool_order": edit_tool_order,
    "restyle": edit_restyle,
    "agent_field": edit_agent_field,
    "reshape": edit_reshape,
}
NEUTRAL_EDITS = {"rewrap", "move_tool", "move_server", "change_helper", "tool_doc", "tool_comment", "tool_order",
                 "restyle", "agent_field", "reshape", "rename_agent"}


def apply_edits(base: App, edits: list[Edit]) -> App:
    head = copy.deepcopy(base)
    for e in edits:
        EDITS[e.kind](head, e)
    return head


BINDING_EDIT_WEIGHTS = {
    "bind_tool": 3, "unbind_tool": 3, "new_tool": 2, "retarget": 2, "add_param": 2, "drop_param": 2,
    "change_body": 2, "tool_field": 2, "rename_tool_local": 1, "redecorate": 1,
    "add_handoff": 3, "remove_handoff": 3, "add_agent_tool": 2, "remove_agent_tool": 2,
    "bind_server": 2, "unbind_server": 2, "change_server_args": 1, "change_server_command": 1,
    "change_server_filter": 1, "add_hosted": 1, "remove_hosted": 1, "change_hosted": 1,
    "new_agent": 1, "drop_agent": 1, "rename_agent": 1, "move_agent": 1, "settings": 1, "set_condition": 2,
}
AGENT_FITS: dict[str, Callable[[AgentSpec], bool]] = {
    "unbind_tool": lambda a: bool(a.tools),
    "retarget": lambda a: bool(a.tools),
    "remove_handoff": lambda a: bool(a.handoffs),
    "remove_agent_tool": lambda a: bool(a.agent_tools),
    "unbind_server": lambda a: bool(a.servers),
    "remove_hosted": lambda a: bool(a.hosted),
    "settings": lambda a: a.framework == SDK and a.construction != "clone",
    "set_condition": lambda a: bool(a.tools) and a.tools_list in READABLE_LISTS,
    "change_hosted": lambda a: bool(a.hosted),
}


def draw_binding_edit(gen: Generation, app: App) -> Optional[Edit]:
    """One random edit that changes what an agent binds (None when the draw does not fit)."""
    rng = gen.rng
    agents = list(app.agents.values())
    if not agents:
        return None
    kinds = list(BINDING_EDIT_WEIGHTS)
    kind = rng.choices(kinds, weights=[BINDING_EDIT_WEIGHTS[k] for k in kinds])[0]
    holders = [a for a in agents if AGENT_FITS.get(kind, lambda a: True)(a)]
    if not holders:
        return None
    agent = rng.choice(holders)
    fw_tools = [t for t in app.tools.values() if t.framework == agent.framework]
    if kind == "bind_tool":
        free = [t.tid for t in fw_tools if can_bind(app, agent, t)]
        return Edit(kind, agent.key, rng.choice(free)) if free else None
    if kind == "unbind_tool":
        return Edit(kind, agent.key, rng.choice(agent.tools)) if agent.tools else None
    if kind == "new_tool":
        return Edit(kind, agent.key, draw_tool(gen, app, agent.framework))
    if kind in ("add_param", "drop_param", "change_body", "rename_tool_local", "tool_field"):
        return draw_tool_edit(gen, kind, fw_tools)
    if kind == "redecorate":
        tools = [t for t in fw_tools if t.definition in SDK_DECORATORS]
        options = [d for d in SDK_DECORATORS if gen.on(d)]
        if not tools or len(options) < 2:
            return None
        tool = rng.choice(tools)
        return Edit(kind, tool.tid, next(d for d in options if d != tool.definition))
    if kind == "new_agent":
        stem = rng.choice(app.agent_files[agent.framework])
        gen.counter += 1
        fresh = draw_agent(gen, app, agent.framework, stem, 100 + gen.counter)
        draw_bindings(gen, app, fresh)
        return Edit(kind, fresh.key, fresh)
    if kind == "settings":
        if not gen.on("agent_settings"):
            return None
        if rng.random() < 0.5:
            return Edit(kind, agent.key, ("tool_choice", rng.choice([c for c in TOOL_CHOICES if c != agent.tool_choice])))
        return Edit(kind, agent.key, ("tool_use_behavior", None if agent.tool_use_behavior else "stop_on_first_tool"))
    if kind == "set_condition":
        if not gen.on("conditional_member"):
            return None
        tid = rng.choice(agent.tools)
        options = [f for f in (None, f"ENABLE_{tid.split('@')[0].upper()}", "EXTRA_TOOLS") if f != agent.conditions.get(tid)]
        return Edit(kind, agent.key, (tid, rng.choice(options)))
    if kind == "retarget":
        pairs = [(tid, t.tid) for tid in agent.tools for t in fw_tools
                 if t.name == app.tools[tid].name and t.tid != tid]
        return Edit(kind, agent.key, rng.choice(pairs)) if pairs else None
    if kind == "move_agent":
        others = [f for f in app.agent_files[agent.framework] if f != agent.file]
        return Edit(kind, agent.key, rng.choice(others)) if others else None
    if kind == "rename_agent":
        wrapped = [a for app_ in (app, gen.base) for a in app_.agents.values() if agent.key in a.agent_tools]
        if agent.construction not in RENAMEABLE or wrapped:
            return None
        return Edit(kind, agent.key, f"{agent.name}_{rng.choice(['team', 'desk', 'unit'])}")
    if kind == "drop_agent":
        return Edit(kind, agent.key) if not any(a.clone_of == agent.key for a in agents) else None
    if kind == "add_handoff":
        targets = [t for t in eligible_targets(app, agent, gen.on("cross_module_agents")) if t.key not in agent.handoffs]
        return Edit(kind, agent.key, rng.choice(targets).key) if targets and gen.on("handoffs") else None
    if kind == "remove_handoff":
        return Edit(kind, agent.key, rng.choice(agent.handoffs)) if agent.handoffs else None
    if kind == "add_agent_tool":
        targets = [t for t in eligible_targets(app, agent, gen.on("cross_module_agents")) if t.key not in agent.agent_tools]
        return Edit(kind, agent.key, rng.choice(targets).key) if targets and gen.on("agent_as_tool") else None
    if kind == "remove_agent_tool":
        return Edit(kind, agent.key, rng.choice(agent.agent_tools)) if agent.agent_tools else None
    servers = [s for s in app.servers.values() if s.file == agent.file]
    if kind == "bind_server":
        free = [s.key for s in servers if s.key not in agent.servers]
        return Edit(kind, agent.key, rng.choice(free)) if free else None
    if kind == "unbind_server":
        return Edit(kind, agent.key, rng.choice(agent.servers)) if agent.servers else None
    if kind == "change_server_command":
        if not servers:
            return None
        server = rng.choice(servers)
        return Edit(kind, server.key, rng.choice([c for c in COMMANDS if c != server.command]))
    if kind == "change_server_filter":
        if not servers or not gen.on("mcp_tool_filter"):
            return None
        server = rng.choice(servers)
        options = [None, draw_filter(gen, server.key), draw_filter(gen, server.key)]
        options = [o for o in options if (o and sorted(o)) != (server.filter and sorted(server.filter))]
        return Edit(kind, server.key, rng.choice(options)) if options else None
    if kind == "change_server_args":
        if not servers:
            return None
        server = rng.choice(servers)
        return Edit(kind, server.key, [server.args[0], f"--v{rng.randint(4, 9)}"])
    hosted = HOSTED_BY_FRAMEWORK[agent.framework]
    if kind == "add_hosted":
        free = [c for c in hosted if c not in agent.hosted]
        if not free or not gen.on("hosted_tool"):
            return None
        cls = rng.choice(free)
        return Edit(kind, agent.key, (cls, rng.choice(HOSTED_ARGUMENTS[cls])))
    if kind == "remove_hosted":
        return Edit(kind, agent.key, rng.choice(sorted(agent.hosted))) if agent.hosted else None
    if kind == "change_hosted":
        options = [(c, a) for c in agent.hosted for a in HOSTED_ARGUMENTS[c] if a != agent.hosted[c]]
        return Edit(kind, agent.key, rng.choice(options)) if options else None
    return None


def draw_tool_edit(gen: Generation, kind: str, tools: list[Tool]) -> Optional[Edit]:
    rng = gen.rng
    if not tools:
        return None
    tool = rng.choice(tools)
    if kind == "add_param":
        free = [p for p in PARAM_WORDS if p not in tool.params and p != tool.local]
        return Edit(kind, tool.tid, rng.choice(free))
    if kind == "drop_param":
        return Edit(kind, tool.tid, rng.choice(tool.params)) if tool.params else None
    if kind == "change_body":
        return Edit(kind, tool.tid, tool.body + rng.randint(1, 3))
    if kind == "tool_field":
        return draw_tool_field_edit(gen, tool)
    free = [w for w in LOCAL_WORDS if w != tool.local and w not in tool.params]
    return Edit(kind, tool.tid, rng.choice(free))


def draw_tool_field_edit(gen: Generation, tool: Tool) -> Optional[Edit]:
    """A change to one part of a tool's signature (or its SDK name_override=)."""
    rng = gen.rng
    choice = rng.choice(["types", "default", "is_async", "returns", "override", "helper"])
    if choice == "helper":
        return Edit("tool_field", tool.tid, ("helper", not tool.helper)) if gen.on("tool_helper") else None
    if choice == "types":
        if not tool.params:
            return None
        param = rng.choice(tool.params)
        options = [t for t in PARAM_TYPES if t != param_type(tool, param)]
        return Edit("tool_field", tool.tid, ("types", (param, rng.choice(options))))
    if choice == "default":
        options = [d for d in (None, '"x"', '"y"', "3", "4") if d != tool.default]
        return Edit("tool_field", tool.tid, ("default", rng.choice(options))) if tool.params else None
    if choice == "is_async":
        return Edit("tool_field", tool.tid, ("is_async", not tool.is_async))
    if choice == "returns":
        return Edit("tool_field", tool.tid, ("returns", "dict" if tool.returns == "str" else "str"))
    if tool.framework != SDK:
        return None
    return Edit("tool_field", tool.tid, ("override", rng.choice([o for o in ("", f"do_{tool.name}", f"run_{tool.name}") if o != tool.override])))


def draw_neutral_edit(gen: Generation, app: App) -> Optional[Edit]:
    """One random edit that changes no binding."""
    rng = gen.rng
    kind = rng.choice(["move_tool", "tool_doc", "tool_comment", "tool_order", "restyle", "restyle",
                       "agent_field", "agent_field", "reshape", "rewrap", "move_server", "change_helper"])
    tools = list(app.tools.values())
    agents = list(app.agents.values())
    if kind == "move_tool":
        tool = rng.choice(tools)
        options = [m for m in tool_modules(gen, tool.framework) + app.agent_files.get(tool.framework, [])
                   if m != tool.module and module_allowed(app, tool, m)
                   and (m in TOOL_MODULES[tool.framework] or gen.on("local_definition"))]
        return Edit(kind, tool.tid, rng.choice(options)) if options else None
    if kind == "change_helper":
        modules = sorted({t.module for t in tools if t.helper})
        if not modules:
            return None
        module = rng.choice(modules)
        return Edit(kind, module, app.helpers.get(module, 0) + 1)
    if kind == "move_server":
        if not app.servers or not gen.on("server_imported"):
            return None
        server = rng.choice(sorted(app.servers.values(), key=lambda s: s.key))
        return Edit(kind, server.key, "" if server.module else servers_module(server.framework))
    if kind == "rewrap":
        tools = [t for t in tools if t.definition in ADK_WRAPPERS]
        options = [d for d in ADK_WRAPPERS if gen.on(d)]
        if not tools or len(options) < 2:
            return None
        tool = rng.choice(tools)
        return Edit(kind, tool.tid, rng.choice([d for d in options if d != tool.definition]))
    if kind == "tool_doc":
        tool = rng.choice(tools)
        return Edit(kind, tool.tid, rng.choice([d for d in range(2 * len(DOCSTRINGS)) if d != tool.doc]))
    if kind == "tool_comment":
        return Edit(kind, rng.choice(tools).name, rng.randint(1, 9))
    if kind == "tool_order":
        return Edit(kind, rng.choice(tools).name, rng.randint(0, 99))
    if kind == "restyle":
        stem = rng.choice(sorted(app.styles))
        choice = rng.choice(["quote", "multiline", "comments", "header", "import_style", "class_spelling", "alias_agents"])
        if choice == "alias_agents":
            return Edit(kind, stem, ("alias_agents", not app.style(stem).alias_agents))
        if choice == "class_spelling":
            return Edit(kind, stem, ("class_spelling", gen.pick("class_spelling", SDK)))
        if choice == "quote":
            return Edit(kind, stem, ("quote", rng.choice(['"', "'"])))
        if choice == "multiline":
            return Edit(kind, stem, ("multiline", rng.random() < 0.5))
        if choice == "comments":
            return Edit(kind, stem, ("comments", rng.randint(0, 9)))
        if choice == "header":
            return Edit(kind, stem, ("header", rng.randint(0, len(HEADERS) - 1)))
        refs = shapes_for(gen.enabled, "tool_ref", SDK)
        module = rng.choice(sum(TOOL_MODULES.values(), []))
        return Edit(kind, stem, ("import_style", (module, rng.choice(refs))))
    if not agents:
        return None
    agent = rng.choice(agents)
    if kind == "agent_field" and gen.on("explicit_default_setting") and rng.random() < 0.5:
        sdk_agents = [a for a in agents if a.framework == SDK and a.construction != "clone"]
        if sdk_agents:
            agent = rng.choice(sdk_agents)
            return Edit(kind, agent.key, ("spell_default", not agent.spell_default))
    if kind == "agent_field":
        choice = rng.choice(["order", "list_name", "instruction", "adk_class", "list_order", "model", "description"]
                            + (["spell_default"] if gen.on("explicit_default_setting") else []))
        value = {
            "model": rng.randint(0, 2),
            "description": rng.randint(0, 2),
            "spell_default": not agent.spell_default,
            "order": rng.randint(0, 99),
            "list_name": rng.choice(["", f"{agent.var}_cfg", f"my_{agent.var}"]),
            "instruction": rng.randint(0, 3),
            "adk_class": rng.choice(["Agent", "LlmAgent"]),
            "list_order": rng.randint(0, 5),
        }[choice]
        return Edit(kind, agent.key, (choice, value))
    axis = rng.choice(["construction", "tools_list", "handoff_ref"])
    options = shapes_for(gen.enabled, axis, agent.framework)
    return Edit(kind, agent.key, (axis, rng.choice(options))) if options else None


def draw_edits(gen: Generation, base: App) -> list[Edit]:
    rng = gen.rng
    head = copy.deepcopy(base)
    gen.base = base
    edits: list[Edit] = []
    plan = ["binding"] * rng.randint(1, 4) + ["neutral"] * rng.randint(0, 4)
    rng.shuffle(plan)
    for what in plan:
        for _ in range(10):
            e = draw_binding_edit(gen, head) if what == "binding" else draw_neutral_edit(gen, head)
            if e is not None:
                EDITS[e.kind](head, e)
                edits.append(e)
                break
    return edits


@dataclass
class Program:
    seed: int
    base: App
    edits: list[Edit]

    def head(self) -> App:
        return apply_edits(self.base, self.edits)


def draw_program(seed: int, enabled: set[str]) -> Program:
    rng = random.Random(seed)
    gen = Generation(rng, enabled, Names(rng))
    base = draw_app(gen)
    return Program(seed, base, draw_edits(gen, base))


# --------------------------------------------------------------------------
# Running the engine
# --------------------------------------------------------------------------


def git(repo: str, *args: str):
    subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=repo, check=True,
                   capture_output=True, env=GIT_ENV)


GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="kt", GIT_AUTHOR_EMAIL="kt@example.com",
               GIT_COMMITTER_NAME="kt", GIT_COMMITTER_EMAIL="kt@example.com",
               GIT_CONFIG_NOSYSTEM="1", HOME=tempfile.gettempdir())


def write_files(repo: str, files: dict[str, str]):
    for path, text in files.items():
        full = os.path.join(repo, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as handle:
            handle.write(text)


def make_repo(base: dict[str, str], head: dict[str, str]) -> str:
    repo = tempfile.mkdtemp(prefix="known-truth-")
    git(repo, "init", "-q", "-b", "main")
    write_files(repo, base)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", "base")
    git(repo, "checkout", "-q", "-b", "head")
    for path in base:
        if path not in head:
            os.remove(os.path.join(repo, path))
    write_files(repo, head)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", "head")
    return repo


class EngineError(Exception):
    pass


def run_engine(daemon: str, data_dir: str, base: dict[str, str], head: dict[str, str]) -> dict:
    repo = make_repo(base, head)
    try:
        command = [daemon, "diff", "--application", "--workspace", repo, "--base", "main", "--head", "head",
                   "--scope", SCOPE, "--json", "--data-dir", data_dir]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise EngineError(f"exit {done.returncode}: {done.stderr.strip()}")
        return json.loads(done.stdout)
    finally:
        shutil.rmtree(repo, ignore_errors=True)


# --------------------------------------------------------------------------
# The three properties
# --------------------------------------------------------------------------


@dataclass
class Violation:
    prop: str  # "a", "b" or "c"
    key: tuple[str, str, str]  # (agent_source, agent, tool)
    message: str
    row: Optional[dict] = None

    @property
    def signature(self) -> tuple:
        return (self.prop, self.key[1], self.key[2])

    def render(self) -> str:
        out = f"property ({self.prop}): {self.message}"
        if self.row is not None:
            out += "\n  row: " + json.dumps(compact_row(self.row), sort_keys=True)
        return out


def compact_row(row: dict) -> dict:
    return {k: row.get(k) for k in ("agent", "agent_source", "tool", "change", "candidate_change", "uncertainty")}


def row_key(row: dict) -> tuple[str, str, str]:
    return (row.get("agent_source") or "", row.get("agent") or "", row.get("tool") or "")


def binding_gaps(doc: dict) -> list[tuple[str, dict]]:
    return [(side, gap) for side in ("base", "head") for gap in doc.get(side, {}).get("coverage_gaps", [])
            if gap.get("affects") == "binding_presence"]


def gap_covers_file(gap: dict, source: str) -> bool:
    where = gap.get("source")
    return where is None or where in (".", "") or source == where or source.startswith(where.rstrip("/") + "/")


def gap_covers(gap: dict, key: tuple[str, str, str]) -> bool:
    source, agent, tool = key
    return (gap.get("agent") in (None, agent) and gap.get("tool") in (None, tool)
            and gap_covers_file(gap, source))


def covering_gap(doc: dict, key: tuple[str, str, str], sides=("base", "head")) -> Optional[dict]:
    for side, gap in binding_gaps(doc):
        if side in sides and gap_covers(gap, key):
            return gap
    return None


def tally(base: App, head: App, doc: dict) -> dict[str, int]:
    """How the true changes were answered: established, not_established, a limit alone; extra rows."""
    truth = true_changes(base, head)
    rows = {row_key(r): r.get("change") for r in doc.get("rows", [])}
    counts = {"true changes": len(truth), "established": 0, "not_established": 0, "limit only": 0,
              "not_established rows on unchanged bindings": 0}
    for key in truth:
        if rows.get(key) in ESTABLISHED:
            counts["established"] += 1
        elif key in rows:
            counts["not_established"] += 1
        else:
            counts["limit only"] += 1
    counts["not_established rows on unchanged bindings"] = sum(
        1 for key, change in rows.items() if key not in truth and change == "not_established")
    return counts


def check(base: App, head: App, doc: dict, unreadable: dict[str, dict]) -> list[Violation]:
    truth = true_changes(base, head)
    violations: list[Violation] = []
    rows = doc.get("rows", [])
    for row in rows:
        key = row_key(row)
        change = row.get("change")
        if change not in ESTABLISHED:
            continue
        actual = truth.get(key)
        if actual is None:
            violations.append(Violation("c", key, f"established `{change}` row on a binding with no true change", row))
        elif actual != change:
            violations.append(Violation("a", key, f"established `{change}` row, but the true change is `{actual}`", row))
        elif any(key[2] in unreadable[side].get(key[:2], set()) for side in ("base", "head")):
            violations.append(Violation("a", key, f"established `{change}` row on a binding spelled in a shape the readers cannot read", row))
    with_rows = {row_key(r) for r in rows}
    for key, change in sorted(truth.items()):
        if key not in with_rows and covering_gap(doc, key) is None:
            violations.append(Violation("b", key, f"true change `{change}` of {key[1]} -> {key[2]} has no row and no limit covers it"))
    for side in ("base", "head"):
        for ident, names in sorted(unreadable[side].items()):
            probe = (ident[0], ident[1], sorted(names)[0])
            if covering_gap(doc, probe, sides=(side,)) is None:
                violations.append(Violation("b", probe, f"{side} spells {ident[1]}'s {sorted(names)} in a shape the readers cannot read, but names no limit on it"))
    return violations


# --------------------------------------------------------------------------
# One program: render, run, check; shrinking
# --------------------------------------------------------------------------


@dataclass
class Outcome:
    program: Program
    base_files: dict[str, str]
    head_files: dict[str, str]
    doc: Optional[dict]
    violations: list[Violation]
    error: Optional[str] = None
    counts: dict[str, int] = field(default_factory=dict)


def renamed_unreadable(base: App, head: App, unreadable: dict) -> dict:
    """The base side's unreadable agents under the head's name when renamed in place (the engine
    renames the base side's agent and its gaps before pairing)."""
    names = {(agent_source(base.agents[k]), agent_identity(base.agents[k])): name
             for k, name in adk_renames(base, head).items()}
    return {(source, names.get((source, agent), agent)): bindings
            for (source, agent), bindings in unreadable.items()}


def evaluate(program: Program, daemon: str, data_dir: str) -> Outcome:
    head = program.head()
    base_render, head_render = render(program.base), render(head)
    try:
        doc = run_engine(daemon, data_dir, base_render.files, head_render.files)
    except EngineError as error:
        return Outcome(program, base_render.files, head_render.files, None, [], str(error))
    unreadable = {"base": renamed_unreadable(program.base, head, base_render.unreadable),
                  "head": head_render.unreadable}
    violations = check(program.base, head, doc, unreadable)
    counts = tally(program.base, head, doc)
    return Outcome(program, base_render.files, head_render.files, doc, violations, counts=counts)


def drop_agent(app: App, key: str) -> App:
    app = copy.deepcopy(app)
    remove_agent(app, key)
    return app


def drop_tool(app: App, name: str) -> App:
    app = copy.deepcopy(app)
    app.tools.pop(name, None)
    for agent in app.agents.values():
        agent.tools = [t for t in agent.tools if t != name]
    return app


def drop_server(app: App, key: str) -> App:
    app = copy.deepcopy(app)
    app.servers.pop(key, None)
    for agent in app.agents.values():
        agent.servers = [s for s in agent.servers if s != key]
    return app


def plainer_agents(app: App) -> list[App]:
    """Variants with one agent's shape, settings or style, or one tool's signature, made plain."""
    out = []
    for key, agent in app.agents.items():
        for field_name, plain in (("tools_list", "literal"), ("construction", "module_literal"),
                                  ("handoff_ref", "handoff_plain"), ("list_order", 0), ("list_name", ""),
                                  ("hosted", {}), ("agent_tools", []), ("servers", []), ("handoffs", []),
                                  ("model", 0), ("instruction", 0), ("conditions", {}), ("tool_choice", None),
                                  ("tool_use_behavior", None), ("spell_default", False)):
            if getattr(agent, field_name) != plain and not (field_name == "construction" and agent.clone_of):
                variant = copy.deepcopy(app)
                setattr(variant.agents[key], field_name, plain)
                out.append(variant)
    for tid, tool in app.tools.items():
        plain = dataclasses.replace(tool, params=[], types={}, default=None, is_async=False, returns="str",
                                    helper=False, doc=0, comment=0)
        if plain != tool:
            variant = copy.deepcopy(app)
            variant.tools[tid] = plain
            out.append(variant)
    for stem, style in app.styles.items():
        if style != FileStyle(import_style=style.import_style):
            variant = copy.deepcopy(app)
            variant.styles[stem] = FileStyle(import_style=style.import_style)
            out.append(variant)
    return out


def shrink_candidates(program: Program):
    for index in range(len(program.edits)):
        yield Program(program.seed, program.base, program.edits[:index] + program.edits[index + 1:])
    for key in list(program.base.agents):
        yield Program(program.seed, drop_agent(program.base, key), program.edits)
    for name in list(program.base.tools):
        yield Program(program.seed, drop_tool(program.base, name), program.edits)
    for key in list(program.base.servers):
        yield Program(program.seed, drop_server(program.base, key), program.edits)
    for variant in plainer_agents(program.base):
        yield Program(program.seed, variant, program.edits)


def valid(program: Program) -> bool:
    try:
        render(program.base)
        render(program.head())
        return True
    except (ValueError, KeyError):
        return False


def shrink(outcome: Outcome, daemon: str, data_dir: str, budget_seconds: float = 180) -> Outcome:
    """Greedily drop parts of the program while a violation with the same signature persists."""
    target = outcome.violations[0].signature
    best = outcome
    deadline = time.monotonic() + budget_seconds
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for candidate in shrink_candidates(best.program):
            if time.monotonic() >= deadline:
                break
            if not valid(candidate):
                continue
            result = evaluate(candidate, daemon, data_dir)
            same = [v for v in result.violations if v.signature == target]
            if same:
                result.violations = same + [v for v in result.violations if v.signature != target]
                best = result
                improved = True
                break
    return best


# --------------------------------------------------------------------------
# Self-check: run the rendered programs against stub frameworks
# --------------------------------------------------------------------------
#
# The renderer is held to the model without the engine: each version is
# imported (never the real frameworks: small stubs of `agents`,
# `google.adk` and `mcp` that record every agent built), and what each
# agent holds at run time must be what the model says it binds.

STUBS = {
    "agents/__init__.py": """
import copy
REGISTRY = []
class FunctionTool:
    def __init__(self, func, name):
        self.func, self.name = func, name
def function_tool(func=None, *, name_override=None):
    if func is None:
        return lambda f: FunctionTool(f, name_override or f.__name__)
    return FunctionTool(func, name_override or func.__name__)
class WebSearchTool:
    def __init__(self, search_context_size=None):
        self.size = search_context_size
class Handoff:
    def __init__(self, agent):
        self.agent = agent
def handoff(agent):
    return Handoff(agent)
class ModelSettings:
    def __init__(self, tool_choice=None):
        self.tool_choice = tool_choice
class AsTool:
    def __init__(self, agent, tool_name):
        self.agent, self.tool_name = agent, tool_name
class Agent:
    def __class_getitem__(cls, item):
        return cls
    def __init__(self, name, instructions=None, tools=None, handoffs=None, mcp_servers=None, model=None,
                 model_settings=None, tool_use_behavior="run_llm_again"):
        self.name, self.tools, self.handoffs, self.mcp_servers = name, tools if tools is not None else [], handoffs if handoffs is not None else [], mcp_servers if mcp_servers is not None else []
        self.model_settings, self.tool_use_behavior = model_settings, tool_use_behavior
        REGISTRY.append(("sdk", self))
    def clone(self, **kwargs):
        other = copy.copy(self)
        for key, value in kwargs.items():
            setattr(other, key, value)
        REGISTRY.append(("sdk", other))
        return other
    def as_tool(self, tool_name=None, tool_description=None):
        return AsTool(self, tool_name)
""",
    "agents/mcp.py": """
class MCPServerStdio:
    def __init__(self, name=None, params=None, tool_filter=None):
        self.name, self.params, self.tool_filter = name, params, tool_filter
def create_static_tool_filter(allowed_tool_names=None):
    return sorted(allowed_tool_names)
""",
    "google/__init__.py": "",
    "google/adk/__init__.py": "",
    "google/adk/agents/__init__.py": """
import agents
class LlmAgent:
    def __init__(self, name, model=None, instruction=None, tools=None, sub_agents=None):
        self.name, self.tools, self.sub_agents = name, tools if tools is not None else [], sub_agents if sub_agents is not None else []
        agents.REGISTRY.append(("adk", self))
Agent = LlmAgent
""",
    "google/adk/tools/__init__.py": """
class FunctionTool:
    def __init__(self, func):
        self.func = func
class LongRunningFunctionTool(FunctionTool):
    pass
class BuiltIn:
    def __init__(self, name):
        self.name = name
google_search = BuiltIn("google_search")
load_memory = BuiltIn("load_memory")
""",
    "google/adk/tools/agent_tool.py": """
class AgentTool:
    def __init__(self, agent):
        self.agent = agent
""",
    "google/adk/tools/mcp_tool/__init__.py": """
class McpToolset:
    def __init__(self, connection_params, tool_filter=None):
        self.params, self.tool_filter = connection_params.server_params, tool_filter
""",
    "google/adk/tools/mcp_tool/mcp_session_manager.py": """
class StdioConnectionParams:
    def __init__(self, server_params):
        self.server_params = server_params
""",
    "mcp/__init__.py": """
class StdioServerParameters:
    def __init__(self, command, args):
        self.command, self.args = command, args
""",
}

RUNTIME_PROBE = """
import importlib, json, os, sys
import agents
modules = sys.argv[1:]
for name in modules:
    module = importlib.import_module(name)
    for attr in list(vars(module)):
        if attr.endswith("Holder") and isinstance(getattr(module, attr), type):
            getattr(module, attr)()
def describe(framework, item):
    kind = type(item).__name__
    if framework == "sdk" and kind == "FunctionTool":
        return ["function", item.name, item.func.__module__]
    if kind in ("FunctionTool", "LongRunningFunctionTool"):
        return ["function", item.func.__name__, item.func.__module__]
    if kind == "function":
        return ["function", item.__name__, item.__module__]
    if kind == "WebSearchTool":
        return ["hosted", "WebSearchTool", item.size or ""]
    if kind == "BuiltIn":
        return ["hosted", item.name, ""]
    if kind == "AsTool":
        return ["agent_tool", item.tool_name, item.agent.name]
    if kind == "AgentTool":
        return ["agent_tool", item.agent.name, item.agent.name]
    if kind == "MCPServerStdio":
        return ["mcp", item.params["command"], list(item.params["args"]), item.tool_filter]
    if kind == "McpToolset":
        return ["mcp", item.params.command, list(item.params.args), sorted(item.tool_filter) if item.tool_filter is not None else None]
    if kind == "Handoff":
        return ["handoff", item.agent.name]
    if kind in ("Agent", "LlmAgent"):
        return ["handoff", item.name]
    return ["unknown", kind]
out = {}
for framework, agent in agents.REGISTRY:
    members = list(agent.tools) + (list(agent.handoffs) + list(agent.mcp_servers) if framework == "sdk" else list(agent.sub_agents))
    settings = None
    if framework == "sdk":
        choice = agent.model_settings.tool_choice if agent.model_settings else None
        settings = [choice, agent.tool_use_behavior]
    out[agent.name] = {"members": sorted(json.dumps(describe(framework, m)) for m in members), "settings": settings}
print(json.dumps(out))
"""


def expected_runtime(app: App) -> dict[str, dict]:
    """What each agent (by name=) holds at run time, as RUNTIME_PROBE describes it."""
    out = {}
    settings = agent_settings(app)
    for agent in app.agents.values():
        members = []
        for tid in agent.tools:
            tool = app.tools[tid]
            members.append(["function", tool_row_name(tool) if agent.framework == SDK else tool.name, dotted(tool.module)])
        members += [["hosted", cls, argument] for cls, argument in agent.hosted.items()]
        for key in agent.agent_tools:
            target = app.agents[key]
            members.append(["agent_tool", agent_tool_row_name(target) if target.framework == SDK else target.name, target.name])
        for key in agent.servers:
            server = app.servers[key]
            allowed = sorted(server.filter) if server.filter is not None else None
            members.append(["mcp", server.command, list(server.args), allowed])
        members += [["handoff", app.agents[k].name] for k in agent.handoffs]
        entry = {"members": sorted(json.dumps(m) for m in members), "settings": None}
        if agent.framework == SDK:
            entry["settings"] = list(settings[(agent_source(agent), agent_identity(agent))][0][1:])
        out[agent.name] = entry
    return out


def runtime_bindings(files: dict[str, str]) -> dict[str, dict]:
    """Import one rendered version over the stub frameworks; what each agent holds."""
    root = tempfile.mkdtemp(prefix="known-truth-run-")
    try:
        write_files(root, {f"stubs/{p}": t for p, t in STUBS.items()})
        write_files(root, {f"src/{p}": t for p, t in files.items()})
        modules = sorted(path[:-3].replace("/", ".").removesuffix(".__init__") for path in files)
        env = dict(os.environ, PYTHONPATH=f"{root}/src:{root}/stubs", EXTRA_TOOLS="1", PYTHONDONTWRITEBYTECODE="1")
        env.update({f"ENABLE_{w.upper()}": "1" for w in TOOL_WORDS})
        done = subprocess.run([sys.executable, "-c", RUNTIME_PROBE, *modules], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "probe failed")
        return json.loads(done.stdout)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def self_check(program: Program) -> list[str]:
    """Differences between what the rendered versions hold at run time and what the models say."""
    problems = []
    for label, app in (("base", program.base), ("head", program.head())):
        files = render(app).files
        try:
            actual = runtime_bindings(files)
        except RuntimeError as error:
            problems.append(f"{label}: the program does not run: {error}")
            continue
        expected = expected_runtime(app)
        for name in sorted(expected.keys() | actual.keys()):
            if expected.get(name) != actual.get(name):
                problems.append(f"{label}: agent {name!r} holds {actual.get(name)}, the model says {expected.get(name)}")
    return problems


# --------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------


def shapes_used(program: Program) -> set[str]:
    used = set()
    for app in (program.base, program.head()):
        for agent in app.agents.values():
            used |= {agent.construction, agent.tools_list}
            if agent.framework == SDK and agent.handoffs:
                used.add(agent.handoff_ref)
            if agent.hosted:
                used.add("hosted_tool")
            if agent.servers:
                used.add("mcp_server")
                if any(app.servers[k].module for k in agent.servers):
                    used.add("server_imported")
            used.add(app.style(agent.file).class_spelling)
            if any(app.agents[k].file != agent.file for k in agent.handoffs + agent.agent_tools):
                used.add("cross_module_agents")
            if any(app.servers[k].filter is not None for k in agent.servers):
                used.add("mcp_tool_filter")
            if agent.framework == ADK and agent.tools_list in REWIRES and agent.rewire_handoffs and agent.handoffs:
                used.add("rewire_sub_agents")
            if agent.tool_choice or agent.tool_use_behavior:
                used.add("agent_settings")
            if agent.spell_default and not agent.tool_use_behavior and agent.construction != "clone":
                used.add("explicit_default_setting")
            if any(condition_of(agent, t) for t in agent.tools):
                used.add("conditional_member")
            if agent.agent_tools:
                used.add("agent_as_tool")
            if agent.handoffs:
                used.add("handoffs")
            for name in agent.tools:
                tool = app.tools[name]
                used.add(tool.definition)
                if tool.helper:
                    used.add("tool_helper")
                if tool.module.endswith("/__init__"):
                    used.add("package_init_module")
                if tool.module == agent.file:
                    used.add("local_definition")
                else:
                    used.add(import_style(app, agent.file, tool.module, tool))
                if has_twin(app, tool):
                    used.add("same_name_tools")
    return used


def blame(program: Program) -> list[str]:
    """The shapes a failure is counted against: the non-base shapes the shrunk program uses."""
    used = shapes_used(program)
    special = sorted(s for s in used if not SHAPES[s].base)
    return special or sorted(used)


def print_program(outcome: Outcome, out=sys.stdout):
    program = outcome.program
    binding = [e.describe() for e in program.edits if not e.neutral]
    neutral = [e.describe() for e in program.edits if e.neutral]
    print(f"--- seed {program.seed}: binding edits: {', '.join(binding) or 'none'}; "
          f"neutral edits: {', '.join(neutral) or 'none'}", file=out)
    for label, files in (("base (main)", outcome.base_files), ("head (head)", outcome.head_files)):
        print(f"=== {label}", file=out)
        for path in sorted(files):
            if files[path].strip():
                print(f"--- {path}", file=out)
                print(files[path].rstrip("\n"), file=out)
    if outcome.doc is not None:
        print("=== engine rows", file=out)
        for row in outcome.doc.get("rows", []):
            print("  " + json.dumps(compact_row(row), sort_keys=True), file=out)
        for side, gap in binding_gaps(outcome.doc):
            print(f"  {side} gap: source={gap.get('source')} agent={gap.get('agent')} tool={gap.get('tool')}: {gap.get('reason')}", file=out)
    truth = true_changes(program.base, program.head())
    print("=== true changes", file=out)
    for key, change in sorted(truth.items()):
        print(f"  {change}: {key[0]} {key[1]} -> {key[2]}", file=out)


def list_shapes():
    for shape in CATALOGUE:
        flags = []
        if shape.base:
            flags.append("base")
        if shape.unreadable:
            flags.append("expects a limit")
        if shape.known_wrong:
            flags.append(f"known_wrong: {shape.known_wrong}")
        print(f"{shape.name:35} {shape.axis:15} {'/'.join(shape.frameworks):8} {shape.doc}" + (f"  [{'; '.join(flags)}]" if flags else ""))


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--count", type=int, default=10, help="programs to try (ignored with --minutes)")
    parser.add_argument("--minutes", type=float, help="loop over seeds until this much time has passed")
    parser.add_argument("--daemon", help="path of shipgate-daemon")
    parser.add_argument("--shapes", help="comma-separated catalogue names to draw (base shapes always)")
    parser.add_argument("--include-known-wrong", action="store_true", help="also draw shapes marked known_wrong")
    parser.add_argument("--list-shapes", action="store_true", help="print the catalogue and exit")
    parser.add_argument("--no-shrink", action="store_true", help="print failing programs unshrunk")
    parser.add_argument("--show", action="store_true", help="print every program and its rows")
    parser.add_argument("--self-check", action="store_true",
                        help="no engine: run each rendered version over stub frameworks and hold what its agents "
                             "hold at run time to the model (checks the renderer and the truth model)")
    return parser.parse_args(argv)


def run_self_check(args: argparse.Namespace, enabled: set[str]) -> int:
    bad = 0
    for seed in range(args.seed, args.seed + args.count):
        problems = self_check(draw_program(seed, enabled))
        if problems:
            bad += 1
            print(f"seed {seed}:")
            for problem in problems:
                print("  " + problem)
    print(f"self-check: {args.count} programs, {bad} with differences")
    return 1 if bad else 0


@dataclass
class Campaign:
    """What a run of many programs found."""

    first_seed: int
    tried: int = 0
    failures: list[Outcome] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    by_shape: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)

    def record(self, seed: int, outcome: Outcome):
        self.tried += 1
        for name, value in outcome.counts.items():
            self.totals[name] = self.totals.get(name, 0) + value
        if outcome.error:
            self.errors.append((seed, outcome.error))
            print(f"seed {seed}: engine error: {outcome.error}", flush=True)

    def fail(self, seed: int, shrunk: Outcome):
        self.failures.append(shrunk)
        shapes = blame(shrunk.program)
        for shape in shapes:
            self.by_shape[shape] = self.by_shape.get(shape, 0) + 1
        print(f"\n##### FAILURE seed {seed} (shapes: {', '.join(shapes)})")
        print(shrunk.violations[0].render())
        for extra in shrunk.violations[1:]:
            print("also " + extra.render())
        print_program(shrunk)
        print(flush=True)

    def summary(self, last_seed: int, elapsed: float):
        print(f"summary: {self.tried} programs tried (seeds {self.first_seed}..{last_seed}) in {elapsed:.0f} s; "
              f"{len(self.failures)} failures; {len(self.errors)} engine errors")
        print("  answers: " + ", ".join(f"{name} {value}" for name, value in self.totals.items()))
        for shape, count in sorted(self.by_shape.items(), key=lambda item: (-item[1], item[0])):
            print(f"  failures involving {shape}: {count}")


def run_campaign(args: argparse.Namespace, enabled: set[str]) -> int:
    """Programs from --seed on, --count of them or until --minutes have passed; each checked,
    each failure shrunk and printed."""
    data_dir = tempfile.mkdtemp(prefix="known-truth-store-")
    started = last_progress = time.monotonic()
    deadline = started + args.minutes * 60 if args.minutes else None
    campaign = Campaign(args.seed)
    seed = args.seed
    try:
        while (time.monotonic() < deadline) if deadline else (campaign.tried < args.count):
            outcome = evaluate(draw_program(seed, enabled), args.daemon, data_dir)
            campaign.record(seed, outcome)
            if args.show:
                print_program(outcome)
            if outcome.violations:
                campaign.fail(seed, outcome if args.no_shrink else shrink(outcome, args.daemon, data_dir))
            if deadline and time.monotonic() - last_progress >= 60:
                last_progress = time.monotonic()
                print(f"progress: {campaign.tried} programs, {len(campaign.failures)} failures, "
                      f"{(last_progress - started) / 60:.1f} min", flush=True)
            seed += 1
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    campaign.summary(seed - 1, time.monotonic() - started)
    return 1 if campaign.failures or campaign.errors else 0


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.list_shapes:
        list_shapes()
        return 0
    enabled = enabled_shapes(args.shapes.split(",") if args.shapes else None, args.include_known_wrong)
    if args.self_check:
        return run_self_check(args, enabled)
    if not args.daemon:
        raise SystemExit("--daemon PATH is required")
    return run_campaign(args, enabled)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
