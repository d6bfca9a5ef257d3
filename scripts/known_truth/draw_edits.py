"""Drawing the edits of a program: random binding and neutral edits that fit the base model."""

from __future__ import annotations

import copy
import random
from typing import Callable, Optional

from .catalogue import (
    ADK_WRAPPERS, APPEND_LISTS, DECORATOR_KINDS, LABELLED_WRAPPERS, READABLE_LISTS, RENAMEABLE, SDK_DECORATORS,
    TARGET_REFS, shapes_for
)
from .draw import (
    COMMANDS, LABELS, Generation, LOCAL_WORDS, PARAM_TYPES, PARAM_WORDS, TOOL_CHOICES, draw_agent, draw_bindings,
    draw_filter, draw_tool, tool_modules
)
from .edits import EDITS, Edit
from .model import AgentSpec, App, HOSTED_ARGUMENTS, HOSTED_BY_FRAMEWORK, SDK, Server, Tool
from .naming import TOOL_MODULES, servers_module
from .render.tools import DOCSTRINGS
from .render.writer import HEADERS
from .rules import can_bind, eligible_targets, module_allowed
from .truth import param_type

BINDING_EDIT_WEIGHTS = {
    "bind_tool": 3, "unbind_tool": 3, "new_tool": 2, "retarget": 2, "add_param": 2, "drop_param": 2,
    "change_body": 2, "tool_field": 2, "rename_tool_local": 1, "redecorate": 1,
    "add_handoff": 3, "remove_handoff": 3, "add_agent_tool": 2, "remove_agent_tool": 2,
    "bind_server": 2, "unbind_server": 2, "change_server_args": 1, "change_server_command": 1,
    "change_server_filter": 1, "add_hosted": 1, "remove_hosted": 1, "change_hosted": 1,
    "new_agent": 1, "drop_agent": 1, "rename_agent": 1, "move_agent": 1, "settings": 1, "set_condition": 2,
    "rewrap_decorator": 1, "change_decorator": 1,
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
# Edits that take one member out of an agent's list, and the members they choose from.
REMOVALS: dict[str, Callable[[AgentSpec], list]] = {
    "unbind_tool": lambda a: a.tools,
    "remove_handoff": lambda a: a.handoffs,
    "remove_agent_tool": lambda a: a.agent_tools,
    "unbind_server": lambda a: a.servers,
    "remove_hosted": lambda a: sorted(a.hosted),
}
# Edits that add an agent to another's list: the field, and the shape that must be enabled.
ADDITIONS = {"add_handoff": ("handoffs", "handoffs"), "add_agent_tool": ("agent_tools", "agent_as_tool")}


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
    servers = [s for s in app.servers.values() if s.file == agent.file]
    if kind in REMOVALS:
        return choose(rng, kind, agent.key, REMOVALS[kind](agent))
    if kind in ADDITIONS:
        field_name, shape = ADDITIONS[kind]
        targets = [t for t in eligible_targets(app, agent, gen.on("cross_module_agents"), field_name,
                                               any(gen.on(r) for r in TARGET_REFS))
                   if t.key not in getattr(agent, field_name)]
        return choose(rng, kind, agent.key, [t.key for t in targets] if gen.on(shape) else [])
    if kind in ("add_param", "drop_param", "change_body", "rename_tool_local", "tool_field"):
        return draw_tool_edit(gen, kind, fw_tools)
    if kind in ("change_server_command", "change_server_filter", "change_server_args"):
        return draw_server_edit(gen, kind, servers)
    if kind == "bind_tool":
        return choose(rng, kind, agent.key, [t.tid for t in fw_tools if can_bind(app, agent, t)])
    if kind == "new_tool":
        return Edit(kind, agent.key, draw_tool(gen, app, agent.framework))
    if kind == "redecorate":
        tool, others = redefinable(gen, fw_tools, SDK_DECORATORS)
        return Edit(kind, tool.tid, others[0]) if tool else None
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
        if not gen.on("conditional_member") and agent.tools_list not in APPEND_LISTS:
            return None
        tid = rng.choice(agent.tools)
        flags = [None, f"ENABLE_{tid.split('@')[0].upper()}", "EXTRA_TOOLS"]
        if gen.on("conditional_else"):
            flags += [f"!ENABLE_{tid.split('@')[0].upper()}", "!EXTRA_TOOLS"]
        options = [f for f in flags if f != agent.conditions.get(tid)]
        return Edit(kind, agent.key, (tid, rng.choice(options)))
    if kind == "rewrap_decorator":
        tool = rng.choice(fw_tools) if fw_tools else None
        shapes = ["undecorated"] + [s for s in shapes_for(gen.enabled, "tool_wrapper", agent.framework)
                                    if s != "undecorated"]
        if not tool or len(shapes) < 2:
            return None
        options = [(s, tool.label) for s in shapes if s != tool.wrapper]
        if tool.wrapper in LABELLED_WRAPPERS:
            options.append((tool.wrapper, rng.choice([w for w in LABELS if w != tool.label])))
        return choose(rng, kind, tool.tid, options)
    if kind == "change_decorator":
        kinds = sorted({DECORATOR_KINDS[t.wrapper] for t in app.tools.values() if t.wrapper in DECORATOR_KINDS})
        if not kinds:
            return None
        which = rng.choice(kinds)
        return Edit(kind, which, app.decorators.get(which, 0) + rng.randint(1, 3))
    if kind == "retarget":
        pairs = [(tid, t.tid) for tid in agent.tools for t in fw_tools
                 if t.name == app.tools[tid].name and t.tid != tid]
        return choose(rng, kind, agent.key, pairs)
    if kind == "move_agent":
        return choose(rng, kind, agent.key, [f for f in app.agent_files[agent.framework] if f != agent.file])
    if kind == "rename_agent":
        wrapped = [a for app_ in (app, gen.base) for a in app_.agents.values() if agent.key in a.agent_tools]
        if agent.construction not in RENAMEABLE or wrapped:
            return None
        return Edit(kind, agent.key, f"{agent.name}_{rng.choice(['team', 'desk', 'unit'])}")
    if kind == "drop_agent":
        return Edit(kind, agent.key) if not any(a.clone_of == agent.key for a in agents) else None
    if kind == "bind_server":
        return choose(rng, kind, agent.key, [s.key for s in servers if s.key not in agent.servers])
    if kind == "add_hosted":
        free = [c for c in HOSTED_BY_FRAMEWORK[agent.framework] if c not in agent.hosted]
        if not free or not gen.on("hosted_tool"):
            return None
        cls = rng.choice(free)
        return Edit(kind, agent.key, (cls, rng.choice(HOSTED_ARGUMENTS[cls])))
    if kind == "change_hosted":
        options = [(c, a) for c in agent.hosted for a in HOSTED_ARGUMENTS[c] if a != agent.hosted[c]]
        return choose(rng, kind, agent.key, options)
    return None


def choose(rng: random.Random, kind: str, target: str, options: list) -> Optional[Edit]:
    """An edit whose value is one of `options` (None when there are none)."""
    return Edit(kind, target, rng.choice(options)) if options else None


def redefinable(gen: Generation, tools: list[Tool], group: tuple[str, ...]) -> tuple[Optional[Tool], list[str]]:
    """A tool defined in a shape of `group` and the group's other enabled shapes it may switch to
    (no tool when fewer than two of the group's shapes are enabled)."""
    tools = [t for t in tools if t.definition in group]
    options = [d for d in group if gen.on(d)]
    if not tools or len(options) < 2:
        return None, []
    tool = gen.rng.choice(tools)
    return tool, [d for d in options if d != tool.definition]


def draw_tool_edit(gen: Generation, kind: str, tools: list[Tool]) -> Optional[Edit]:
    """A change to a tool's parameters, body or local variable, or (tool_field) its signature."""
    rng = gen.rng
    if not tools:
        return None
    tool = rng.choice(tools)
    if kind == "add_param":
        free = [p for p in PARAM_WORDS if p not in tool.params and p != tool.local]
        return Edit(kind, tool.tid, rng.choice(free))
    if kind == "drop_param":
        return choose(rng, kind, tool.tid, tool.params)
    if kind == "change_body":
        return Edit(kind, tool.tid, tool.body + rng.randint(1, 3))
    if kind == "tool_field":
        return draw_tool_field_edit(gen, tool)
    free = [w for w in LOCAL_WORDS if w != tool.local and w not in tool.params]
    return Edit(kind, tool.tid, rng.choice(free))


def draw_tool_field_edit(gen: Generation, tool: Tool) -> Optional[Edit]:
    """A change to one part of a tool's signature (or its SDK name_override=)."""
    rng = gen.rng

    def setting(field_name: str, value) -> Edit:
        return Edit("tool_field", tool.tid, (field_name, value))

    choice = rng.choice(["types", "default", "is_async", "returns", "override", "helper"])
    if choice == "helper":
        return setting("helper", not tool.helper) if gen.on("tool_helper") else None
    if choice == "types":
        if not tool.params:
            return None
        param = rng.choice(tool.params)
        options = [t for t in PARAM_TYPES if t != param_type(tool, param)]
        return setting("types", (param, rng.choice(options)))
    if choice == "default":
        options = [d for d in (None, '"x"', '"y"', "3", "4") if d != tool.default]
        return setting("default", rng.choice(options)) if tool.params else None
    if choice == "is_async":
        return setting("is_async", not tool.is_async)
    if choice == "returns":
        return setting("returns", "dict" if tool.returns == "str" else "str")
    if tool.framework != SDK:
        return None
    return setting("override", rng.choice([o for o in ("", f"do_{tool.name}", f"run_{tool.name}") if o != tool.override]))


def draw_server_edit(gen: Generation, kind: str, servers: list[Server]) -> Optional[Edit]:
    """A change to one of the agent's file's servers: its command, its arguments or its tool filter."""
    rng = gen.rng
    if not servers or (kind == "change_server_filter" and not gen.on("mcp_tool_filter")):
        return None
    server = rng.choice(servers)
    if kind == "change_server_command":
        return Edit(kind, server.key, rng.choice([c for c in COMMANDS if c != server.command]))
    if kind == "change_server_args":
        return Edit(kind, server.key, [server.args[0], f"--v{rng.randint(4, 9)}"])
    options = [None, draw_filter(gen, server.key), draw_filter(gen, server.key)]
    options = [o for o in options if (o and sorted(o)) != (server.filter and sorted(server.filter))]
    return choose(rng, kind, server.key, options)


def draw_neutral_edit(gen: Generation, app: App) -> Optional[Edit]:
    """One random edit that changes no binding."""
    rng = gen.rng
    kind = rng.choice(["move_tool", "tool_doc", "tool_comment", "tool_order", "restyle", "restyle",
                       "agent_field", "agent_field", "reshape", "rewrap", "move_server", "change_helper",
                       "package_init", "rename_module"])
    tools = list(app.tools.values())
    agents = list(app.agents.values())
    if kind == "move_tool":
        tool = rng.choice(tools)
        options = [m for m in tool_modules(gen, tool.framework) + app.agent_files.get(tool.framework, [])
                   if m != tool.module and module_allowed(app, tool, m)
                   and (m in TOOL_MODULES[tool.framework] or gen.on("local_definition"))]
        return choose(rng, kind, tool.tid, options)
    if kind == "rename_module":
        stems = sorted(s for stems in app.agent_files.values() for s in stems if not s.endswith("_moved"))
        stem = rng.choice(stems) if stems else None
        return Edit(kind, stem, f"{stem}_moved") if stem else None
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
        tool, others = redefinable(gen, tools, ADK_WRAPPERS)
        return Edit(kind, tool.tid, rng.choice(others)) if tool else None
    if kind == "tool_doc":
        tool = rng.choice(tools)
        return Edit(kind, tool.tid, rng.choice([d for d in range(2 * len(DOCSTRINGS)) if d != tool.doc]))
    if kind == "tool_comment":
        return Edit(kind, rng.choice(tools).tid, rng.randint(1, 9))
    if kind == "tool_order":
        return Edit(kind, rng.choice(tools).tid, rng.randint(0, 99))
    if kind == "package_init":
        options = [s for s in shapes_for(gen.enabled, "package_init", SDK) if s != app.package_init]
        return choose(rng, kind, "lib", options)
    if kind == "restyle":
        stem = rng.choice(sorted(app.styles))
        choices = ["quote", "multiline", "comments", "header", "import_style", "class_spelling", "alias_agents"]
        choice = rng.choice(choices + (["tool_name_constants"] if gen.on("tool_name_constant") else []))
        if choice in ("alias_agents", "tool_name_constants"):
            return Edit(kind, stem, (choice, not getattr(app.style(stem), choice)))
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
    axis = rng.choice(["construction", "tools_list", "handoff_ref", "target_ref"])
    return choose(rng, kind, agent.key, [(axis, shape) for shape in shapes_for(gen.enabled, axis, agent.framework)])


def draw_edits(gen: Generation, base: App) -> list[Edit]:
    """One to four binding edits and up to four neutral ones, in random order, each drawn (up to ten
    tries) to fit the model the edits before it made."""
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
