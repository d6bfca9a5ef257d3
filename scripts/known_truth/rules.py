"""What a model may hold: which agent may reference, clone or bind what, and where a tool may live.

Drawing, edits and the renderer share these rules, so that every model renders as Python that
imports without cycles and whose bindings the truth can name."""

from __future__ import annotations

from typing import Optional

from .catalogue import (
    APPEND_EDGES, APPEND_LISTS, LOOP_APPENDS, BUILDERS, FACTORY_CALLS, BUILT_IN_FUNCTIONS, IDENTITY_BY_VARIABLE, IN_FUNCTION, IN_SCOPE_LISTS,
    INSTANCE_AGENTS, NAMED_BY_LOCAL, READABLE_LISTS, REWIRES
)
from .model import AgentSpec, App, SDK, Tool
from .naming import TOOL_MODULES


def dependencies(app: App, agent: AgentSpec) -> list[str]:
    """The agents this one references (handoffs, agents as tools, its clone source): built before it."""
    deps = list(agent.handoffs) + list(agent.agent_tools)
    if agent.clone_of:
        deps.append(agent.clone_of)
    return [d for d in deps if d in app.agents]


def builder_made(agent: AgentSpec) -> bool:
    """An agent a builder builds, which others reference by a call of the builder (`target_ref`):
    not one a rewire adds to after the call (a fresh call's agent would not have it)."""
    return agent.construction in BUILT_IN_FUNCTIONS and agent.tools_list not in REWIRES


def can_be_target(agent: AgentSpec, field_name: str = "handoffs") -> bool:
    """An agent another one may hand off to or wrap as a tool: one its variable names, or one a
    builder builds (SDK as_tool is called on a variable only)."""
    if agent.construction in IDENTITY_BY_VARIABLE + INSTANCE_AGENTS:
        return True
    return builder_made(agent) and not (agent.framework == SDK and field_name == "agent_tools")


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


def target_allowed(app: App, agent: AgentSpec, target: AgentSpec, field_name: str = "handoffs") -> bool:
    """Whether `agent` may reference `target` (in `field_name`): same framework, an earlier or the
    same agent module (so modules never import each other in a cycle), and no dependency cycle."""
    return (target.key != agent.key and target.framework == agent.framework and can_be_target(target, field_name)
            and file_rank(app, target) <= file_rank(app, agent) and not reaches(app, target.key, agent.key))


def eligible_targets(app: App, agent: AgentSpec, cross_module: bool, field_name: str = "handoffs",
                     builder_targets: bool = False) -> list[AgentSpec]:
    """Agents `agent` may reference: its own module's, and earlier modules' when `cross_module`;
    builder-made ones only when a `target_ref` shape is enabled."""
    return [t for t in app.agents.values() if target_allowed(app, agent, t, field_name)
            and (cross_module or t.file == agent.file)
            and (builder_targets or t.construction in IDENTITY_BY_VARIABLE + INSTANCE_AGENTS)]


def module_allowed(app: App, tool: Tool, stem: str) -> bool:
    """A module may hold the tool: a shared tools module, or the framework's only agent module;
    never beside a same-named tool."""
    if any(t.module == stem for t in twins(app, tool)):
        return False
    if stem in TOOL_MODULES[tool.framework]:
        return True
    return app.agent_files.get(tool.framework) == [stem]


def can_bind(app: App, agent: AgentSpec, tool: Tool) -> bool:
    """An agent binds a tool of its framework, at most one tool of a name."""
    return (tool.framework == agent.framework and tool.tid not in agent.tools
            and not any(app.tools[k].name == tool.name for k in agent.tools if k in app.tools))


def twins(app: App, tool: Tool) -> list[Tool]:
    """The tools of the same name defined in other modules (the `same_name_tools` shape)."""
    return [t for t in app.tools.values() if t.name == tool.name and t.tid != tool.tid]


def has_twin(app: App, tool: Tool) -> bool:
    return bool(twins(app, tool))


def identity_preserving(agent: AgentSpec) -> tuple[str, ...]:
    """Construction shapes that keep the agent's identity and its eligibility as a target: the ones
    named by the variable, or builders (named by name=; an SDK builder's local is named by itself)."""
    if agent.construction in INSTANCE_AGENTS:
        return (agent.construction,)
    if agent.construction in BUILDERS:
        if agent.framework == SDK:
            local = agent.construction in NAMED_BY_LOCAL
            return tuple(b for b in BUILDERS if (b in NAMED_BY_LOCAL) == local)
        return BUILDERS
    return IDENTITY_BY_VARIABLE if agent.framework == SDK else ("module_literal", "name_constant")


def nested_host(app: App, agent: AgentSpec) -> Optional[AgentSpec]:
    """The agent in whose function a `nested_local` agent is built: the one agent that references
    it, when that one is built in a function of the same module and spells its lists there; None
    (the agent is built by its own builder, as `builder_returns_local`) otherwise."""
    if agent.construction != "nested_local" or agent.tools_list in APPEND_LISTS + APPEND_EDGES + LOOP_APPENDS + REWIRES:
        return None
    referrers = [a for a in app.agents.values() if agent.key in a.handoffs + a.agent_tools or a.clone_of == agent.key]
    if len(referrers) != 1:
        return None
    host = referrers[0]
    if (host.file != agent.file or host.construction not in IN_FUNCTION or host.construction in FACTORY_CALLS or host.tools_list not in IN_SCOPE_LISTS
            or host.construction == "nested_local"):
        return None
    return host


REGISTRY_LISTS = ("registry_values", "registry_unimported")
REGISTERED_DEFINITIONS = ("sdk_decorator", "sdk_decorator_call", "adk_plain")


def registry_agents(app: App) -> dict[str, AgentSpec]:
    """Which registry agent registers each tool (by tid): agents in key order claim their tools
    when every one of them can be registered (a decorated definition in a tool module, no
    condition) and none is claimed yet; the others' lists are spelled literally."""
    agent_files = {stem for stems in app.agent_files.values() for stem in stems}
    owners: dict[str, AgentSpec] = {}
    for agent in sorted(app.agents.values(), key=lambda a: a.key):
        if agent.tools_list not in REGISTRY_LISTS or not agent.tools:
            continue
        tools = [app.tools[tid] for tid in agent.tools]
        if all(t.definition in REGISTERED_DEFINITIONS and t.module not in agent_files
               and t.tid not in owners and t.tid not in agent.conditions for t in tools):
            owners.update({t.tid: agent for t in tools})
    return owners


def plain_decorator(app: App, agent: AgentSpec) -> bool:
    """An ADK agent whose tools have no same-named twin may register by the definition's name
    (`@register_<key>`); the others pass a literal key (`@register_<key>("tid")`)."""
    return (agent.framework != SDK and sum(map(ord, agent.key)) % 2 == 0
            and not any(has_twin(app, app.tools[tid]) for tid in agent.tools))
