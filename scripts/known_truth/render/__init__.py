"""Rendering: a model to the files of one commit.

`render` writes every agent module (render_agent_module) and the side modules the agents' shapes
need (tool modules, imported lists, wiring, servers, package re-exports), and says which bindings
it spelled in a shape the readers cannot read."""

from __future__ import annotations

from ..model import AgentSpec, App
from ..naming import SCOPE, module_path
from ..rules import dependencies
from ..truth import agent_ident
from .agents import render_agent
from .members import render_common_tools
from .tools import render_server, render_tool_module, tool_blocks, tool_bound_name, tools_defined_in
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
        agent_blocks, names = render_agent(state, w, app, agent)
        blocks += agent_blocks
        if names:
            unreadable[agent_ident(agent)] = names
    return assemble(w, blocks)


def render(app: App) -> Rendered:
    """Every file of one version of the application, and the bindings it leaves unreadable."""
    files = {f"{SCOPE}/__init__.py": ""}
    unreadable: dict[tuple[str, str], set[str]] = {}
    state = RenderState(app)
    for stem in sorted({t.module for t in app.tools.values()}):
        if not is_agent_file(app, stem):
            state.modules[stem] = render_tool_module(app, stem)
    for server in sorted(app.servers.values(), key=lambda s: s.key):
        if server.module:
            module = state.side_module(server.module)
            module.blocks.append(render_server(module, server))
    for stems in app.agent_files.values():
        for stem in stems:
            if app.agents_in(stem):
                files[f"{SCOPE}/{module_path(stem)}"] = render_agent_module(state, app, stem, unreadable)
    for stem, writer in sorted(state.modules.items()):
        files[f"{SCOPE}/{module_path(stem)}"] = assemble(writer, writer.blocks)
        if "/" in stem and not stem.endswith("/__init__"):
            package = stem.rsplit("/", 1)[0]
            files[f"{SCOPE}/{package}/__init__.py"] = render_package_init(app, package)
    return Rendered(files, unreadable)


def render_package_init(app: App, package: str) -> str:
    """A package that re-exports every tool its modules define (the `package_reexport` shape)."""
    lines = []
    for stem in sorted({t.module for t in app.tools.values() if t.module.startswith(package + "/")}):
        names = sorted(tool_bound_name(t) for t in tools_defined_in(app, stem))
        lines.append(f"from .{stem.rsplit('/', 1)[1]} import {', '.join(names)}")
    return "\n".join(lines) + ("\n" if lines else "")


def is_agent_file(app: App, stem: str) -> bool:
    return any(stem in stems for stems in app.agent_files.values())
