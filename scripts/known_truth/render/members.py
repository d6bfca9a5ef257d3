"""The members of an agent's lists as expressions: tools, hosted tools, agents as tools, handoffs, servers."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

from ..catalogue import DYNAMIC_LISTS
from ..model import ADK, AgentSpec, App, SDK, Server, Tool
from ..naming import relative_module
from ..truth import as_tool_name, condition_of
from .tools import tool_reference
from .writer import Writer


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
    alias = f"{target.var}_agent" if w.style.alias_agents else ""
    w.imports.name(relative_module(target.file), target.var, alias)
    return alias or target.var


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
    """The members in the agent's (neutral) list order: 0 keeps the model's order."""
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
    dynamic = agent.tools_list in DYNAMIC_LISTS
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


def sharing_agents(app: App, stem: str) -> list[AgentSpec]:
    """The file's agents in the `shared_spread` shape."""
    return [a for a in app.agents_in(stem) if a.tools_list == "shared_spread"]


def common_tools(app: App, stem: str) -> list[str]:
    """The function tools every `shared_spread` agent of the file binds: its COMMON_TOOLS."""
    sharing = sharing_agents(app, stem)
    if not sharing:
        return []
    return sorted(set.intersection(*({t for t in a.tools if not condition_of(a, t)} for a in sharing)))


def render_common_tools(w: Writer, app: App, stem: str) -> list[list[str]]:
    if not sharing_agents(app, stem):
        return []
    items = [tool_reference(w, app.tools[name]) for name in common_tools(app, stem)]
    return [[f"COMMON_TOOLS = {w.seq(items, '')}"]]
