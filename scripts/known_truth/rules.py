"""What a model may hold: which agent may reference, clone or bind what, and where a tool may live.

Drawing, edits and the renderer share these rules, so that every model renders as Python that
imports without cycles and whose bindings the truth can name."""

from __future__ import annotations

from .catalogue import IDENTITY_BY_VARIABLE, READABLE_LISTS
from .model import AgentSpec, App, SDK, Tool
from .naming import TOOL_MODULES


def dependencies(app: App, agent: AgentSpec) -> list[str]:
    """The agents this one references (handoffs, agents as tools, its clone source): built before it."""
    deps = list(agent.handoffs) + list(agent.agent_tools)
    if agent.clone_of:
        deps.append(agent.clone_of)
    return [d for d in deps if d in app.agents]


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
    """Construction shapes that keep the agent's identity and its eligibility as a target."""
    return IDENTITY_BY_VARIABLE if agent.framework == SDK else ("module_literal", "name_constant")
