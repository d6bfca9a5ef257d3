"""An agent's list arguments in its `tools_list` shape: literal, spread, constants, dynamic, rewired,
imported, passed on, added to under tests (and the edges of each)."""

from __future__ import annotations

from typing import Optional

from ..catalogue import (
    APPEND_EDGES, APPEND_LISTS, LOOP_APPENDS, DYNAMIC_LISTS, IMPORTED_LISTS, IN_OTHER_MODULE, MODULE_LEVEL_LISTS, PASSED_LISTS, REPLACEMENTS,
    REWIRES
)
from ..model import AgentSpec, App, SDK, Tool
from ..naming import dotted, lists_module, relative_module, wiring_module
from ..truth import binding_names, tool_row_name
from ..rules import REGISTRY_LISTS
from .registries import registry_list
from .members import Members, agent_members, common_tools, condition_test, handoff_expression
from .tools import module_alias, tool_bound_name, tool_reference
from .writer import AgentContext, RenderState, Writer, stable_hash


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
                  handoffs: list[str], after: list[str], ctx: AgentContext) -> tuple[Optional[str], list[str]]:
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
        handoffs = [e for e in handoffs if e != handoff_expression(w, agent, target, ctx)]
        moved.append((handoff_field, target))
    where = w
    if agent.tools_list in IN_OTHER_MODULE:
        where = state.side_module(wiring_module(agent.framework))
        where.imports.name(relative_module(agent.file), agent.var)
    for field_name, item in moved:
        expr = tool_reference(where, item) if field_name == "tools" else handoff_expression(where, agent, item, ctx)
        statement = rewire_statement(agent, field_name, expr)
        if where is w:
            after.append(statement)
        else:
            where.blocks.append([statement])
    return (w.seq(tools, "    ") if tools else None), handoffs


def replaced_lists(state: RenderState, w: Writer, app: App, agent: AgentSpec, tools: list[str],
                   handoffs: list[str], ctx: AgentContext) -> tuple[Optional[str], list[str]]:
    """`x.tools = [<all>]` (and `x.handoffs = [<all>]`, ADK `x.sub_agents` with `rewire_sub_agents`) in the package's `__init__.py`
    (`rewire_replace_package`) or in app/<fw>_wiring.py (`rewire_replace_other_module`), the members
    spelled there; the construction keeps all but the last tool and handoff and lists a decoy tool
    the agent does not bind, which the replacement discards. The construction's tools value and
    handoffs."""
    package = agent.tools_list == "rewire_replace_package"
    where = state.side_module("__init__" if package else wiring_module(agent.framework))
    where.imports.name(relative_module(agent.file), agent.var)
    spelled = agent_members(where, app, agent, None, ctx, spell_conditions=True)
    handoff_field, _ = list_fields(agent)
    replaced = [f"{agent.var}.tools = {where.seq(spelled.movable + spelled.fixed, '', '[]')}"]
    if agent.handoffs and (agent.framework == SDK or agent.rewire_handoffs):  # ADK: `rewire_sub_agents`
        replaced.append(f"{agent.var}.{handoff_field} = {where.seq(spelled.handoffs, '', '[]')}")
        handoffs = handoffs[:-1]
    where.blocks.append(replaced)
    kept = tools[:-1]
    decoy = decoy_tool(app, agent)
    if decoy is not None:
        kept.append(tool_reference(w, decoy))
    if not package:
        ctx.unreadable |= set(binding_names(app, agent))
    return (w.seq(kept, "    ") if kept else None), handoffs


def decoy_tool(app: App, agent: AgentSpec) -> Optional[Tool]:
    """A function tool of the agent's framework that the agent does not bind, defined in its own
    module or a module no agent is built in (so importing it makes no cycle)."""
    agent_files = {f for files in app.agent_files.values() for f in files}
    for tool in sorted(app.tools.values(), key=lambda t: t.tid):
        if (tool.framework == agent.framework and tool.tid not in agent.tools
                and (tool.module == agent.file or tool.module not in agent_files)):
            return tool
    return None


def rewire_statement(agent: AgentSpec, field_name: str, expr: str) -> str:
    """`x.tools.append(t)` as the agent's rewire shape spells it."""
    target = f"{agent.var}.{field_name}"
    return {
        "rewire_extend": f"{target}.extend([{expr}])",
        "rewire_iadd": f"{target} += [{expr}]",
        "rewire_insert": f"{target}.insert(0, {expr})",
    }.get(agent.tools_list, f"{target}.append({expr})")


def addition(agent: AgentSpec, name: str, expr: str, rebinds: bool = True) -> str:
    """`name.append(e)`, `name.extend([e])` or `name += [e]`: a (neutral) spelling per member
    (`+=` only where it may rebind the name: not a module's list in a function)."""
    spellings = [f"{name}.append({expr})", f"{name}.extend([{expr}])"] + ([f"{name} += [{expr}]"] if rebinds else [])
    return spellings[stable_hash(agent.key, expr) % len(spellings)]


def imported_list(w: Writer, app: App, agent: AgentSpec, members: Members, lists: Writer,
                  state: RenderState, ctx: AgentContext) -> str:
    """The movable members in a module constant of app/<fw>_lists.py (`imported_spread_list`: built
    by spreading a shared constant; `imported_shared_appended`: which another module adds to)."""
    stem = constant_stem(agent)
    constant = f"{stem}_TOOLS"
    movable = members.movable
    if agent.tools_list == "imported_constant":
        lists.blocks.append([f"{constant} = {lists.seq(movable, '')}"])
        w.imports.name(relative_module(lists_module(agent)), constant)
        return w.seq([f"*{constant}"] + members.fixed, "    ") if members.fixed else constant
    cut = max(1, len(movable) // 2)
    shared = f"{stem}_SHARED"
    lists.blocks.append([f"{shared} = {lists.seq(movable[:cut], '')}",
                         f"{constant} = {lists.seq([f'*{shared}'] + movable[cut:], '')}"])
    absolute = stable_hash(agent.key, "absolute") % 2
    w.imports.name(dotted(lists_module(agent)) if absolute else relative_module(lists_module(agent)), constant)
    if agent.tools_list == "imported_shared_appended" and movable:
        wiring = state.side_module(wiring_module(agent.framework))
        wiring.imports.name(relative_module(lists_module(agent)), shared)
        wiring.blocks.append([f"{shared}.append({shared}[0])"])
        ctx.unreadable |= set(members.movable_names[:cut])
    if members.fixed:
        return w.seq([f"*{constant}"] + members.fixed, "    ")
    return f"list({constant})" if stable_hash(agent.key, "copy") % 2 else constant


def passed_list(w: Writer, agent: AgentSpec, items: list[str], names: list[str], before: list[list[str]],
                ctx: AgentContext) -> Optional[str]:
    """X_TOOLS passed to a repository function: a copy of it (`passed_copy`), or itself to one that only
    reads it (`passed_itself`) or sorts it (`passed_and_sorted`, an edge)."""
    if not items:
        return None
    constant = f"{constant_stem(agent)}_TOOLS"
    helper = "describe_tools"
    if agent.tools_list == "passed_and_sorted":
        helper = "sort_tools"
        if helper not in w.once:
            w.once.add(helper)
            before.append(["def sort_tools(items):", "    items.sort(key=str)", "    return len(items)"])
    elif "describe_tools" not in w.once:
        w.once.add("describe_tools")
        w.imports.module("logging")
        before.append(["def describe_tools(items):",
                       "    for item in items:",
                       "        logging.debug(\"tool %s\", item)",
                       "    logging.info(\"tools: %s\", items)",
                       "    return len(items)"])
    if agent.tools_list == "passed_and_sorted":
        argument = constant
        ctx.unreadable |= set(names)
    elif agent.tools_list == "passed_itself":
        argument = constant
    else:  # sorted() of tools compares them: only a list of one member is sorted
        copies = ["list", "tuple"] + (["sorted"] if len(items) == 1 else [])
        argument = f"{copies[stable_hash(agent.key, 'copy') % len(copies)]}({constant})"
    before.append([f"{constant} = {w.seq(items, '')}", f"{helper}({argument})"])
    return constant


def appended_list(w: Writer, app: App, agent: AgentSpec, members: Members, items: list[str], names: list[str],
                  before: list[list[str]], after: list[str], ctx: AgentContext) -> Optional[str]:
    """A list built by additions: conditional members added under their tests (`conditional_append`,
    in the agent's scope; `conditional_append_function`, in a function returning the list), or the
    last function tool added where no test decides it (the `APPEND_EDGES`)."""
    shape = agent.tools_list
    if not items:
        return None
    added: list[tuple[str, Optional[str]]] = []  # (expression, condition)
    if shape in APPEND_LISTS:
        added = [(e, members.conditions[e]) for e in items if e in members.conditions]
    elif shape in LOOP_APPENDS:
        added = [(e, None) for _, e in members.function_refs[-2:]]
    elif members.function_refs:
        added = [(members.function_refs[-1][1], None)]
        ctx.unreadable.add(tool_row_name(members.function_refs[-1][0]))
    kept = [e for e in items if e not in {a for a, _ in added}]
    # A builder's `conditional_append` list is its function's, or (a third of the agents) the module's,
    # added to before the builder is called (the readers may name a limit on it; nothing is less true).
    module_level = (shape in MODULE_LEVEL_LISTS or not ctx.in_function
                    or (shape == "conditional_append" and not ctx.locals and stable_hash(agent.key, "module") % 3 == 0))
    if shape == "conditional_append_function":
        name, module_level = "tools", False
    else:
        name = f"{constant_stem(agent)}_TOOLS" if module_level else "tools"
    lines = [f"{name} = {w.seq(kept, '')}"]
    if shape in APPEND_LISTS:
        lines += tested_additions(w, agent, name, added)
    elif not added:
        pass  # no function tool to add
    elif shape == "loop_append":
        w.imports.module("logging")
        lines += [f"for _item in ({''.join(e + ', ' for e, _ in added).rstrip()}):",
                  '    logging.debug("adding %s", _item)', f"    {name}.append(_item)"]
    elif shape == "append_in_loop":
        lines += [f"for _item in [{added[0][0]}]:", "    if _item is None:", "        continue",
                  f"    {name}.append(_item)"]
    elif shape == "append_in_try":
        lines += ["try:", f"    {addition(agent, name, added[0][0])}", "except Exception:", "    pass"]
    elif shape == "append_after_construction":
        after.append(addition(agent, name, added[0][0]))
    elif shape == "append_in_function":
        register = f"_register_{agent.var}"
        lines += ["", "", f"def {register}():", f"    {addition(agent, name, added[0][0], rebinds=False)}", "", "",
                  f"{register}()"]
    if shape == "conditional_append_function":
        helper = f"{agent.var}_tools"
        before.append([f"def {helper}():"] + [f"    {line}" if line else "" for line in lines] + ["    return tools"])
        return f"{helper}()"
    if module_level:
        before.append(lines)
    else:
        ctx.prelude += lines
    return name


def tested_additions(w: Writer, agent: AgentSpec, name: str, added: list[tuple[str, str]]) -> list[str]:
    """`if test: name.append(e)` for members bound when the test holds, `else:` for those bound when
    it fails (one if-statement per flag)."""
    lines = []
    flags = []
    for _, flag in added:
        if flag.removeprefix("!") not in flags:
            flags.append(flag.removeprefix("!"))
    for flag in flags:
        holds = [e for e, f in added if f == flag]
        fails = [e for e, f in added if f == "!" + flag]
        lines.append(f"if {condition_test(w, flag)}:")
        lines += [f"    {addition(agent, name, e)}" for e in holds] or ["    pass"]
        if fails:
            lines.append("else:")
            lines += [f"    {addition(agent, name, e)}" for e in fails]
    return lines


def rendered_lists(state: RenderState, w: Writer, app: App, agent: AgentSpec, before: list[list[str]],
                   after: list[str], ctx: AgentContext) -> dict[str, Optional[str]]:
    """The list arguments of the construction (the binding names it leaves unreadable go to `ctx`)."""
    imported = agent.tools_list in IMPORTED_LISTS
    lists = state.side_module(lists_module(agent)) if imported else None
    appended = agent.tools_list in APPEND_LISTS + APPEND_EDGES + LOOP_APPENDS
    members = agent_members(w, app, agent, lists, ctx, spell_conditions=not appended)
    handoff_field, server_field = list_fields(agent)
    tools = members.movable + members.fixed
    names = members.movable_names + members.fixed_names
    if imported:
        tools_value = imported_list(w, app, agent, members, lists, state, ctx)
    elif agent.tools_list in DYNAMIC_LISTS and members.function_refs:
        rest = [e for e in tools if e]
        call = dynamic_tools(w, agent, members.function_refs, before)
        tools_value = w.seq([f"*{call}"] + rest, "    ") if rest else call
        ctx.unreadable |= {tool_row_name(t) for t, _ in members.function_refs}
    elif agent.tools_list in REPLACEMENTS:
        tools_value, handoffs = replaced_lists(state, w, app, agent, tools, members.handoffs, ctx)
        members.handoffs = handoffs
    elif agent.tools_list in REWIRES and (agent.tools or (agent.handoffs and agent.rewire_handoffs)):
        tools_value, handoffs = rewired_lists(state, w, app, agent, tools, members.handoffs, after, ctx)
        members.handoffs = handoffs
    elif agent.tools_list == "shared_spread":
        shared = {e for t, e in members.function_refs if t.tid in common_tools(app, agent.file)}
        tools_value = w.seq(["*COMMON_TOOLS"] + [e for e in tools if e not in shared], "    ")
    elif agent.tools_list in PASSED_LISTS:
        tools_value = passed_list(w, agent, tools, names, before, ctx)
    elif appended:
        tools_value = appended_list(w, app, agent, members, tools, names, before, after, ctx)
    elif (agent.tools_list in REGISTRY_LISTS
          and (registered := registry_list(state, w, agent, tools, members.function_refs, before, ctx)) is not None):
        tools_value = registered
    else:
        tools_value = spelled_list(w, agent, "tools", tools, before)
    values = {"tools": tools_value}
    values[handoff_field] = spelled_list(w, agent, handoff_field, members.handoffs, before)
    if server_field:
        values[server_field] = spelled_list(w, agent, server_field, members.servers, before)
    return values
