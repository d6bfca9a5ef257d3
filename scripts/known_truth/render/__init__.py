"""Rendering: a model to the files of one commit.

`render` writes every agent module (render_agent_module) and the side modules the agents' shapes
need (tool modules, imported lists, wiring, servers, package re-exports), and says which bindings
it spelled in a shape the readers cannot read."""

from __future__ import annotations

from ..catalogue import IDENTITY_BY_VARIABLE
from ..model import ADK, AgentSpec, App
from ..naming import DECORATORS_MODULE, SCOPE, module_path
from ..rules import dependencies, nested_host
from ..truth import agent_ident, shadow_ident
from .agents import render_agent
from .members import render_common_tools
from .tools import (
    lazy_special_name, render_decorators_module, render_server, render_tool_module, tool_blocks, tool_bound_name,
    tools_defined_in
)
from .writer import RenderState, Rendered, Writer, assemble


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


def render_agent_module(state: RenderState, app: App, stem: str, unreadable: dict) -> str:
    """An agent module: its own tools and servers, then its agents in dependency order."""
    w = Writer(app, stem)
    blocks = tool_blocks(w)
    used_servers = sorted({k for a in app.agents_in(stem) for k in a.servers if not app.servers[k].module})
    blocks += [render_server(w, app.servers[k]) for k in used_servers]
    blocks += render_common_tools(w, app, stem)
    for agent in definition_order(app, stem):
        if nested_host(app, agent) is not None:
            continue  # built in its host's function
        agent_blocks, names = render_agent(state, w, app, agent, unreadable)
        blocks += agent_blocks
        if names:
            unreadable[agent_ident(agent)] = names
            shadow = shadow_ident(agent)
            if shadow is not None:
                unreadable[shadow] = names
    blocks += rebound_after(app, w, stem)
    # Module-level statements the members need before any agent (a hosted tool's branches).
    return assemble(w, w.blocks + blocks)


def rebound_after(app: App, w: Writer, stem: str) -> list[list[str]]:
    """`x = _instrument(x)` after every construction of the module, for each sub-agent it imports by
    variable (`rebound_after_construction`): the same object, rebound once the constructions read it."""
    if not w.style.rebind_imported_agents:
        return []
    names = set()
    for agent in app.agents_in(stem):
        for key in agent.handoffs:
            target = app.agents[key]
            if target.framework == ADK and target.file != stem and target.construction in IDENTITY_BY_VARIABLE:
                names.add(f"{target.var}_agent" if w.style.alias_agents else target.var)
    if not names:
        return []
    return [["def _instrument(agent):", "    return agent"], [f"{n} = _instrument({n})" for n in sorted(names)]]


def render(app: App) -> Rendered:
    """Every file of one version of the application, and the bindings it leaves unreadable."""
    files = {f"{SCOPE}/__init__.py": ""}
    unreadable: dict[tuple[str, str], set[str]] = {}
    state = RenderState(app)
    for stem in sorted({t.module for t in app.tools.values()}):
        if not is_agent_file(app, stem):
            state.modules[stem] = render_tool_module(app, stem)
    decorators = render_decorators_module(app)
    if decorators is not None:
        state.modules[DECORATORS_MODULE] = decorators
    for server in sorted(app.servers.values(), key=lambda s: s.key):
        if server.module:
            module = state.side_module(server.module)
            module.blocks.append(render_server(module, server))
    for stems in app.agent_files.values():
        for stem in stems:
            if app.agents_in(stem):
                files[f"{SCOPE}/{module_path(stem)}"] = render_agent_module(state, app, stem, unreadable)
    if any(app.style(stem).class_spelling == "class_reexported" for stems in app.agent_files.values() for stem in stems):
        # The modules the `class_reexported` spelling imports the agent classes through.
        files[f"{SCOPE}/sdk_framework.py"] = "from agents import Agent\n"
        files[f"{SCOPE}/adk_framework.py"] = "from google.adk.agents import Agent, LlmAgent\n"
    for stem, writer in sorted(state.modules.items()):
        files[f"{SCOPE}/{module_path(stem)}"] = assemble(writer, writer.blocks)
        if "/" in stem and not stem.endswith("/__init__"):
            package = stem.rsplit("/", 1)[0]
            files[f"{SCOPE}/{package}/__init__.py"] = render_package_init(app, package)
    return Rendered(files, unreadable)


def render_package_init(app: App, package: str) -> str:
    """A package that re-exports every tool its modules define (the `package_reexport` spelling):
    eagerly (`package_eager`) or through a lazy `__getattr__` registry (`package_lazy` and its edges)."""
    entries = []
    for stem in sorted({t.module for t in app.tools.values() if t.module.startswith(package + "/")}):
        entries += [(stem.rsplit("/", 1)[1], name) for name in sorted(tool_bound_name(t) for t in tools_defined_in(app, stem))]
    if not entries:
        return ""
    if app.package_init == "package_eager":
        modules = sorted({m for m, _ in entries})
        lines = [f"from .{m} import {', '.join(n for mm, n in entries if mm == m)}" for m in modules]
        return "\n".join(lines) + "\n"
    q = app.style(f"{package}/__init__").quote
    special = lazy_special_name(app, package)
    lines = ["import importlib", "", "_LAZY = {"]
    lines += [f"    {q}{name}{q}: ({q}.{module}{q}, {q}{name}{q})," for module, name in sorted(entries, key=lambda e: e[1])]
    lines.append("}")
    if app.package_init == "package_lazy_mutated":
        module = next(m for m, n in entries if n == special)
        lines.append(f"_LAZY[{q}{special}{q}] = ({q}.{module}{q}, {q}{special}{q})")
    if app.package_init == "package_lazy_hook_first":
        lines += ["", "", "def _resolve_override(name):", f"    module_path, attr_name = _LAZY[name]",
                  "    return getattr(importlib.import_module(module_path, __package__), attr_name)"]
    lines += ["", "", "def __getattr__(name):"]
    if app.package_init == "package_lazy_hook_first":
        lines += [f"    if name == {q}{special}{q}:", "        return _resolve_override(name)"]
    lines += ["    if name in _LAZY:", "        module_path, attr_name = _LAZY[name]",
              "        module = importlib.import_module(module_path, __package__)",
              "        value = getattr(module, attr_name)", "        globals()[name] = value", "        return value",
              "    raise AttributeError(name)"]
    return "\n".join(lines) + "\n"


def is_agent_file(app: App, stem: str) -> bool:
    return any(stem in stems for stems in app.agent_files.values())
