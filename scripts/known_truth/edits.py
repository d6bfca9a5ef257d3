"""Edits: the changes that turn the base model into the head model, and how each is applied.

Binding edits change what an agent binds; neutral edits (NEUTRAL_EDITS) change only how the
program is spelled. An edit that no longer fits the model (its agent or tool is gone) does nothing,
so a shrunk program can drop parts and keep the rest of its edits."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Callable, Optional

from .catalogue import (
    ADK_WRAPPERS, DECORATOR_KINDS, DYNAMIC_LISTS, LAZY_INITS, READABLE_LISTS, SDK_DECORATORS, SHAPES, TARGET_REFS
)
from .model import AgentSpec, App, HOSTED_BY_FRAMEWORK, SDK
from .naming import servers_module
from .rules import can_bind, dependencies, identity_preserving, module_allowed, target_allowed


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


# Edits of one pattern, made for a field (the EDITS table names them).

def set_field(collection: str, field_name: str, convert: Callable[[object], object] = lambda v: v):
    """An edit that sets one field of a tool (collection "tools") or a server ("servers")."""
    def apply(app: App, e: Edit):
        item = getattr(app, collection).get(e.target)
        if item:
            setattr(item, field_name, convert(e.value))
    return apply


def remove_from(collection: str, field_name: str):
    """An edit that takes its value out of a list of a tool ("tools") or an agent ("agents")."""
    def apply(app: App, e: Edit):
        item = getattr(app, collection).get(e.target)
        if item and e.value in getattr(item, field_name):
            getattr(item, field_name).remove(e.value)
    return apply


def add_target(field_name: str):
    """An edit that adds an agent to another's handoffs or agents as tools, where the rules allow it."""
    def apply(app: App, e: Edit):
        agent, target = agent_of(app, e.target), agent_of(app, e.value)
        if (agent and target and target.key not in getattr(agent, field_name)
                and target_allowed(app, agent, target, field_name)):
            getattr(agent, field_name).append(target.key)
    return apply


def redefine(shapes: tuple[str, ...]):
    """An edit that switches a tool's definition between two shapes of one group."""
    def apply(app: App, e: Edit):
        tool = app.tools.get(e.target)
        if tool and tool.definition in shapes and e.value in shapes:
            tool.definition = e.value
    return apply


def copied(value):
    return None if value is None else list(value)


def edit_bind_tool(app: App, e: Edit):
    agent, tool = agent_of(app, e.target), app.tools.get(e.value)
    if agent and tool and can_bind(app, agent, tool):
        agent.tools.append(tool.tid)


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


def edit_rewrap_decorator(app: App, e: Edit):
    """Put another repository decorator (value: (tool_wrapper shape, label)) under the framework's."""
    tool = app.tools.get(e.target)
    shape, label = e.value
    if tool and (shape == "undecorated" or shape in DECORATOR_KINDS):
        tool.wrapper, tool.label = shape, label


def edit_change_decorator(app: App, e: Edit):
    """A new variant of a decorator function's code: every tool it decorates changes."""
    if e.target in DECORATOR_KINDS.values():
        app.decorators[e.target] = e.value


def edit_package_init(app: App, e: Edit):
    """Re-export app/lib's tools eagerly or through a lazy `__getattr__` registry (neutral)."""
    if e.value in ("package_eager",) + LAZY_INITS:
        app.package_init = e.value


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


def edit_rename_tool_local(app: App, e: Edit):
    tool = app.tools.get(e.target)
    if tool and e.value not in tool.params:
        tool.local = e.value


def edit_bind_server(app: App, e: Edit):
    agent, server = agent_of(app, e.target), app.servers.get(e.value)
    if agent and server and server.file == agent.file and server.key not in agent.servers:
        agent.servers.append(server.key)


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


def edit_new_agent(app: App, e: Edit):
    """Add an agent (value: an AgentSpec) with what it binds, where that still exists."""
    agent = copy.deepcopy(e.value)
    if agent.key in app.agents or agent.file not in app.agent_files.get(agent.framework, []):
        return
    if agent.clone_of and agent.clone_of not in app.agents:
        agent.clone_of, agent.construction = None, "module_literal"
    agent.tools = [t for t in agent.tools if t in app.tools]
    agent.servers = [k for k in agent.servers if k in app.servers]
    for field_name in ("handoffs", "agent_tools"):
        setattr(agent, field_name, [k for k in getattr(agent, field_name)
                                    if k in app.agents and target_allowed(app, agent, app.agents[k], field_name)])
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
    if all(target_allowed(app, moved, app.agents[k], "agent_tools" if k in agent.agent_tools else "handoffs")
           for k in dependencies(app, agent)):
        agent.file = e.value


def edit_rename_module(app: App, e: Edit):
    """Rename an agent module (value: its new stem), everything it defines with it. Whether its agents
    keep their identity is git's to say (a rename it pairs, similarity 50% or more, is the same file):
    the check maps the base through the renames `git diff -M` finds (outcome.moved_base)."""
    old, new = e.target, e.value
    stems = [s for stems in app.agent_files.values() for s in stems]
    if old not in stems or new in stems or new in app.styles:
        return
    for framework, listed in app.agent_files.items():
        app.agent_files[framework] = [new if s == old else s for s in listed]
    for agent in app.agents.values():
        agent.file = new if agent.file == old else agent.file
    for tool in app.tools.values():
        tool.module = new if tool.module == old else tool.module
    for server in app.servers.values():
        server.file = new if server.file == old else server.file
        server.module = new if server.module == old else server.module
    for mapping in [app.styles, app.helpers] + [style.import_style for style in app.styles.values()]:
        if old in mapping:
            mapping[new] = mapping.pop(old)


def edit_drop_agent(app: App, e: Edit):
    """Remove an agent, and every handoff or agent tool that names it."""
    if e.target in app.agents and not any(a.clone_of == e.target for a in app.agents.values()):
        remove_agent(app, e.target)


def remove_agent(app: App, key: str):
    """Drop an agent and every reference to it (a clone of it becomes a plain construction)."""
    app.agents.pop(key, None)
    for agent in app.agents.values():
        agent.handoffs = [k for k in agent.handoffs if k != key]
        agent.agent_tools = [k for k in agent.agent_tools if k != key]
        if agent.clone_of == key:
            agent.clone_of = None
            agent.construction = "module_literal"


def edit_move_tool(app: App, e: Edit):
    tool = app.tools.get(e.target)
    if tool and module_allowed(app, tool, e.value):
        tool.module = e.value


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
        elif {agent.tools_list, shape} & set(DYNAMIC_LISTS) and dynamic_swappable(app, agent, shape):
            # A list the readers cannot read becomes one they can, or back: the side not read must
            # never yield an established row (issue 39), across a rename too (issue 41, item 5).
            agent.tools_list = shape
    elif axis == "handoff_ref" and agent.framework == SDK:
        agent.handoff_ref = shape
    elif axis == "target_ref" and shape in TARGET_REFS and agent.framework in SHAPES[shape].frameworks:
        agent.target_ref = shape


# The readable list shapes a dynamic list may be rewritten as (and back).
DYNAMIC_SWAPS = ("literal", "module_constant", "spread")


def dynamic_swappable(app: App, agent: AgentSpec, shape: str) -> bool:
    """Whether the agent's tools list may switch between a dynamic shape and a plain readable one: a
    module-level agent with no conditional members, no clone, and nothing rewired after construction."""
    pair = {agent.tools_list, shape}
    return (len(pair & set(DYNAMIC_LISTS)) == 1 and len(pair & set(DYNAMIC_SWAPS)) == 1
            and agent.construction in ("module_literal", "name_constant") and not agent.conditions
            and not agent.clone_of and not any(a.clone_of == agent.key for a in app.agents.values()))


EDITS: dict[str, Callable[[App, Edit], None]] = {
    "bind_tool": edit_bind_tool,
    "unbind_tool": remove_from("agents", "tools"),
    "new_tool": edit_new_tool,
    "retarget": edit_retarget,
    "add_param": edit_add_param,
    "drop_param": remove_from("tools", "params"),
    "change_body": set_field("tools", "body"),
    "tool_field": edit_tool_field,
    "settings": edit_settings,
    "set_condition": edit_set_condition,
    "rename_tool_local": edit_rename_tool_local,
    "add_handoff": add_target("handoffs"),
    "remove_handoff": remove_from("agents", "handoffs"),
    "add_agent_tool": add_target("agent_tools"),
    "remove_agent_tool": remove_from("agents", "agent_tools"),
    "bind_server": edit_bind_server,
    "unbind_server": remove_from("agents", "servers"),
    "change_server_args": set_field("servers", "args", copied),
    "change_server_filter": set_field("servers", "filter", copied),
    "add_hosted": edit_add_hosted,
    "remove_hosted": edit_remove_hosted,
    "change_hosted": edit_change_hosted,
    # SDK `@function_tool` <-> `@function_tool()`: the decorator is part of the digest.
    "redecorate": redefine(SDK_DECORATORS),
    "change_server_command": set_field("servers", "command"),
    "new_agent": edit_new_agent,
    "drop_agent": edit_drop_agent,
    "rename_agent": edit_rename_agent,
    "move_agent": edit_move_agent,
    "rename_module": edit_rename_module,
    # ADK plain function <-> FunctionTool(func=f) inline or beside it: the row is the function's.
    "rewrap": redefine(ADK_WRAPPERS),
    "move_tool": edit_move_tool,
    "move_server": edit_move_server,
    "change_helper": edit_change_helper,
    # A tool's repository decorator, its factory's argument, a decorator's code: part of the digest.
    "rewrap_decorator": edit_rewrap_decorator,
    "change_decorator": edit_change_decorator,
    "package_init": edit_package_init,
    "tool_doc": set_field("tools", "doc"),
    "tool_comment": set_field("tools", "comment"),
    "tool_order": set_field("tools", "order"),
    "restyle": edit_restyle,
    "agent_field": edit_agent_field,
    "reshape": edit_reshape,
}
NEUTRAL_EDITS = {"rewrap", "move_tool", "move_server", "change_helper", "tool_doc", "tool_comment", "tool_order",
                 "restyle", "agent_field", "reshape", "rename_agent", "package_init"}


def apply_edits(base: App, edits: list[Edit]) -> App:
    """The head model: the edits applied, in order, to a copy of the base."""
    head = copy.deepcopy(base)
    for e in edits:
        EDITS[e.kind](head, e)
    return head
