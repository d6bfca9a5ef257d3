"""Registries filled at import (issue 40, item 12): an agent's function tools registered by a
decorator on their definitions, read back as `tools=[*<key>_tools(), ...]`.

`registry_values`: app/registry_<key>.py binds `_TOOLS = {}`, a registration function
(`register_<key>`, a decorator factory taking a literal key, or for some ADK agents a plain
decorator keyed by the definition's name), `<key>_tools()` returning `list(_TOOLS.values())`, and,
last, imports every module holding one of the agent's tools; each of those definitions is
decorated `@register_<key>(...)` outermost. `registry_unimported` (edge): the registry does not
import the last tool's module, the agent's module does: the registrations still run, but nothing
the reader can prove says so, so every tool of the registry expects a limit.

A registry spells only what it can hold as the model says: plain decorated definitions in tool
modules (not agent files), unconditional, each registered by one registry. Where an agent's tools
are not all such, its list is spelled literally (`rules.registry_agents`)."""

from __future__ import annotations

from typing import Optional

from ..model import AgentSpec, Tool
from ..naming import dotted
from ..rules import REGISTRY_LISTS, plain_decorator, registry_agents
from ..truth import tool_row_name
from .writer import AgentContext, RenderState, Writer

def registry_module(agent: AgentSpec) -> str:
    return f"registry_{agent.key}"


def registration_decorator(w: Writer, tool: Tool) -> list[str]:
    """`@register_<key>("tid")` (or `@register_<key>`) over a registered tool's definition."""
    owner = registry_agents(w.app).get(tool.tid)
    if owner is None:
        return []
    function = f"register_{owner.key}"
    w.imports.name(dotted(registry_module(owner)), function)
    return [f"@{function}" if plain_decorator(w.app, owner) else f"@{function}({w.q(tool.tid)})"]


def registry_list(state: RenderState, w: Writer, agent: AgentSpec, items: list[str],
                  function_refs: list[tuple[Tool, str]], before: list[list[str]], ctx: AgentContext) -> Optional[str]:
    """The tools value of a registry agent: `[*<key>_tools(), <the rest>]`; the registry module
    rendered. `None` when the agent's tools are not all registered (spelled literally instead)."""
    owners = registry_agents(w.app)
    if not agent.tools or any(owners.get(tid) is not agent for tid in agent.tools):
        return None
    registry = state.side_module(registry_module(agent))
    written = bool(registry.blocks)  # a construction rendered twice writes its registry once
    function = f"register_{agent.key}"
    if plain_decorator(w.app, agent):
        registration = [f"def {function}(fn):", "    _TOOLS[fn.__name__] = fn", "    return fn"]
    else:
        registration = [f"def {function}(key):", "    def decorator(fn):", "        _TOOLS[key] = fn",
                        "        return fn", "    return decorator"]
    reader = f"{agent.key}_tools"
    modules = sorted({w.app.tools[tid].module for tid in agent.tools})
    unimported = modules[-1] if agent.tools_list == "registry_unimported" else None
    if not written:
        registry.blocks += [["_TOOLS = {}"], registration, [f"def {reader}():", "    return list(_TOOLS.values())"]]
        imported = [f"import {dotted(m)}  # noqa: E402  (registers on import)" for m in modules if m != unimported]
        if imported:
            registry.blocks.append(imported)
    if unimported is not None:
        before.append([f"import {dotted(unimported)}  # noqa: F401  (registers its tools)"])
        ctx.unreadable |= {tool_row_name(t) for t, _ in function_refs}
    w.imports.name(dotted(registry_module(agent)), reader)
    registered = {e for _, e in function_refs}
    rest = [e for e in items if e not in registered]
    return w.seq([f"*{reader}()"] + rest, "    ") if rest else f"{reader}()"
