"""An agent's list arguments in its `tools_list` shape: literal, spread, constants, dynamic, rewired."""

from __future__ import annotations

from typing import Optional

from ..catalogue import DYNAMIC_LISTS, IN_OTHER_MODULE, REWIRES
from ..model import AgentSpec, App, SDK, Tool
from ..naming import dotted, lists_module, relative_module, wiring_module
from ..truth import tool_row_name
from .members import agent_members, common_tools, handoff_expression
from .tools import module_alias, tool_bound_name, tool_reference
from .writer import RenderState, Writer


def list_fields(agent: AgentSpec) -> tuple[str, str]:
    """The names of the handoff-like and server fields for the agent's framework."""
    if agent.framework == SDK:
        return "handoffs", "mcp_servers"
    return "sub_agents", ""


def constant_stem(agent: AgentSpec) -> str:
    """The stem of the agent's module constants (X_TOOLS, X_NAME, ...): its list_name, else its variable."""
    return (agent.list_name or agent.var).upper()


def spelled_list(w: Writer, agent: AgentSpec, field_name: str, items: list[str], before: list[list[str]]) -> Optional[str]:
    """The value of one list argument in the agent's list shape (module constants go to `before`)."""
    if not items:
        return None
    stem = f"{constant_stem(agent)}_{field_name.upper()}"
    shape = agent.tools_list
    cut = max(1, len(items) // 2)  # spread and concatenated: a constant holds the first half
    if shape == "spread":
        before.append([f"{stem}_COMMON = {w.seq(items[:cut], '')}"])
        return w.seq([f"*{stem}_COMMON"] + items[cut:], "    ")
    if shape == "module_constant":
        before.append([f"{stem} = {w.seq(items, '')}"])
        return stem
    if shape == "list_call":
        before.append([f"{stem} = {w.seq(items, '', '()')}" if len(items) > 1 else f"{stem} = ({items[0]},)"])
        return f"list({stem})"
    if shape == "concatenated":
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
            holder = "None" if tool.module == w.stem else module_alias(w, tool.module)
            entries.append(f"({holder}, {w.q(tool_bound_name(tool))})")
        body = "\n".join([
            "    here = sys.modules[__name__]",
            f"    return [getattr(module or here, attr) for module, attr in {table}]",
        ])
    before.append([f"{table} = {w.seq(entries, '', '[]')}"])
    before.append([f"def {helper}():", body])
    return f"{helper}()"


def rewired_lists(state: RenderState, w: Writer, app: App, agent: AgentSpec, tools: list[str],
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
        where = state.side_module(wiring_module(agent.framework))
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
    """`x.tools.append(t)` as the agent's rewire shape spells it."""
    target = f"{agent.var}.{field_name}"
    return {
        "rewire_extend": f"{target}.extend([{expr}])",
        "rewire_iadd": f"{target} += [{expr}]",
        "rewire_insert": f"{target}.insert(0, {expr})",
    }.get(agent.tools_list, f"{target}.append({expr})")


def rendered_lists(state: RenderState, w: Writer, app: App, agent: AgentSpec, before: list[list[str]],
                   after: list[str]) -> tuple[dict[str, Optional[str]], set[str]]:
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
    elif agent.tools_list in DYNAMIC_LISTS and members.function_refs:
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
