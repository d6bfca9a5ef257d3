"""The members of an agent's lists as expressions: tools, hosted tools, agents as tools, handoffs, servers."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

from ..catalogue import DYNAMIC_LISTS, IDENTITY_BY_VARIABLE, IN_SCOPE_LISTS, OPEN_BUILDERS
from ..model import ADK, AgentSpec, App, SDK, Server, Tool, flag_name, negated
from ..naming import builder_name, relative_module
from ..rules import builder_made
from ..truth import (
    agent_identity, agent_source, agent_tool_row_name, as_tool_name, condition_of, server_row_name, tool_row_name
)
from .tools import tool_reference
from .writer import AgentContext, Writer


@dataclass
class Members:
    """An agent's list members as expressions, by field, and which are function tools; each list
    has a parallel list of the row names its members bind (`*_names`)."""

    movable: list[str]  # function and hosted tools: what an imported list module can hold
    fixed: list[str]  # agents as tools and ADK toolsets: spelled in the agent's module
    function_refs: list[tuple[Tool, str]]  # (tool, expression) of function tools, in order
    handoffs: list[str]
    servers: list[str]  # SDK mcp_servers
    movable_names: list[str]
    fixed_names: list[str]
    conditions: dict[str, str]  # expression -> condition, when conditions are not spelled in it


def hosted_expression(w: Writer, cls: str, argument: str) -> str:
    if cls == "WebSearchTool":
        w.imports.name("agents", "WebSearchTool")
        if argument and w.style.hosted_branches:
            # The argument bound on module-level branches before any agent (issue 40).
            name = "SEARCH_SIZE_" + "".join(c if c.isalnum() else "_" for c in argument).upper()
            if name not in w.once:
                w.once.add(name)
                w.imports.module("os")
                w.blocks.append([f"if os.getenv({w.q('WIDE_SEARCH')}) == {w.q('1')}:", f"    {name} = {w.q('high')}",
                                 "else:", f"    {name} = {w.q(argument)}"])
            return f"WebSearchTool(search_context_size={name})"
        return f"WebSearchTool(search_context_size={w.q(argument)})" if argument else "WebSearchTool()"
    w.imports.name("google.adk.tools", cls)
    return cls


def agent_reference(w: Writer, target: AgentSpec) -> str:
    """The target agent's variable, imported when it is built in another agent module (under an
    alias when the importing module's style says so)."""
    if target.construction in ("class_instance", "class_method_instance"):  # the agent its module's instance holds
        holder = f"{target.var}_holder"
        if target.file != w.stem:
            w.imports.name(relative_module(target.file), holder)
        return f"{holder}.agent" if target.construction == "class_instance" else f"{holder}.create_agent()"
    if target.file == w.stem:
        return target.var
    alias = f"{target.var}_agent" if w.style.alias_agents else ""
    w.imports.name(relative_module(target.file), target.var, alias)
    return alias or target.var


def builder_call(w: Writer, target: AgentSpec) -> str:
    """`build_x()`: a call of the builder that builds the target, imported from its module."""
    name = builder_name(target)
    if target.file != w.stem:
        w.imports.name(relative_module(target.file), name)
    return f"{name}()"


def target_expression(w: Writer, agent: AgentSpec, target: AgentSpec, ctx: Optional[AgentContext],
                      row_name: str) -> str:
    """How `agent` names a target: its variable, or (a builder-made target) a call of its builder,
    or, in the agent's own function (`target_builder_local`, `target_branch_local`), a local bound
    to that call. A reference the readers cannot decide adds `row_name` to the unreadable names."""
    if ctx is not None and target.construction == "nested_local" and target.key in ctx.locals:
        return ctx.locals[target.key]  # built in this agent's function (`nested_local`)
    if target.construction in IDENTITY_BY_VARIABLE or not builder_made(target):
        return agent_reference(w, target)
    opaque = target.construction in OPEN_BUILDERS
    if agent.target_ref == "target_module_variable":
        if opaque and ctx is not None:
            ctx.unreadable.add(row_name)
        return agent_reference(w, target)
    call = builder_call(w, target)
    expr = call
    if (ctx is not None and ctx.in_function and agent.target_ref in ("target_builder_local", "target_branch_local")
            and agent.tools_list in IN_SCOPE_LISTS):  # not one a module constant holds
        expr = f"{target.var}_built"
        if target.key not in ctx.locals:
            ctx.locals[target.key] = expr
            if agent.target_ref == "target_branch_local":
                w.imports.module("os")
                flag = f"ALT_{target.var.upper()}"
                ctx.prelude += [f"if os.getenv({w.q(flag)}) == {w.q('1')}:", f"    {expr} = {call}",
                                "else:", f"    {expr} = {call}"]
            else:
                ctx.prelude.append(f"{expr} = {call}")
        opaque = opaque or agent.target_ref == "target_branch_local"
    if opaque and ctx is not None:
        ctx.unreadable.add(row_name)
    return expr


def handoff_row_name(target: AgentSpec) -> str:
    return f"handoff:{agent_source(target)}:{agent_identity(target)}"


def agent_tool_expression(w: Writer, agent: AgentSpec, target: AgentSpec, ctx: Optional[AgentContext]) -> str:
    if target.framework == SDK:
        var = agent_reference(w, target)
        description = ["Ask ", "Delegate to ", "Hand the question to "][target.description % 3] + target.var
        tool_name = w.q(as_tool_name(target))
        if w.style.tool_name_constants:  # a module constant the reader takes as the literal
            constant = f"{as_tool_name(target).upper()}_TOOL"
            w.aliases[constant] = tool_name
            tool_name = constant
        return f"{var}.as_tool(tool_name={tool_name}, tool_description={w.q(description)})"
    var = target_expression(w, agent, target, ctx, agent_tool_row_name(target))
    w.imports.name("google.adk.tools.agent_tool", "AgentTool")
    return f"AgentTool(agent={var})"


def handoff_expression(w: Writer, agent: AgentSpec, target: AgentSpec, ctx: Optional[AgentContext] = None) -> str:
    var = target_expression(w, agent, target, ctx, handoff_row_name(target))
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


def condition_test(w: Writer, flag: str) -> str:
    """The test a condition is spelled with (the else branch's member uses the same test)."""
    w.imports.module("os")
    return f"os.getenv({w.q(flag_name(flag))}) == {w.q('1')}"


def conditional(w: Writer, agent: AgentSpec, tid: str, expr: str) -> str:
    """The member as the list spells it: `*([t] if os.getenv(FLAG) == "1" else [])` when conditional,
    `*([] if ... else [t])` when bound in the else branch."""
    flag = condition_of(agent, tid)
    if not flag:
        return expr
    test = condition_test(w, flag)
    if negated(flag):
        return f"*([] if {test} else [{expr}])"
    return f"*([{expr}] if {test} else [])"


def server_reference(w: Writer, server: Server) -> str:
    if server.module:
        w.imports.name(relative_module(server.module), server.var)
    return server.var


def agent_members(w: Writer, app: App, agent: AgentSpec, lists: Optional[Writer] = None,
                  ctx: Optional[AgentContext] = None, spell_conditions: bool = True) -> Members:
    """The members of the agent's lists; function and hosted tools spelled in `lists` when given
    (the module that holds an imported list), the rest in `w`. Without `spell_conditions` a
    conditional member is spelled plain and its condition is in `Members.conditions`."""
    lists = lists or w
    dynamic = agent.tools_list in DYNAMIC_LISTS
    functions = []
    movable, fixed = [], []
    conditions = {}
    for tid in agent.tools:
        tool = app.tools[tid]
        local = tool.module == w.stem  # a list module importing it back would be an import cycle
        where = w if local else lists
        expr = "" if dynamic else tool_reference(where, tool)
        if expr and condition_of(agent, tid):
            if spell_conditions:
                expr = conditional(where, agent, tid, expr)
            else:
                conditions[expr] = condition_of(agent, tid)
        functions.append((tool, expr))
        (fixed if local else movable).append((expr, tool_row_name(tool)))
    movable += [(hosted_expression(lists, c, a), c) for c, a in sorted(agent.hosted.items())]
    fixed += [(agent_tool_expression(w, agent, app.agents[k], ctx), agent_tool_row_name(app.agents[k]))
              for k in agent.agent_tools]
    servers = [(server_reference(w, app.servers[k]), server_row_name(app.servers[k])) for k in agent.servers]
    if agent.framework == ADK:
        fixed += servers
        servers = []
    handoffs = [handoff_expression(w, agent, app.agents[k], ctx) for k in agent.handoffs]
    movable, fixed = shuffled(movable, agent.list_order), shuffled(fixed, agent.list_order)
    return Members([e for e, _ in movable], [e for e, _ in fixed], functions, shuffled(handoffs, agent.list_order),
                   [e for e, _ in shuffled(servers, agent.list_order)], [n for _, n in movable],
                   [n for _, n in fixed], conditions)


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
