"""The truth: the one mapping from a model to the rows the engine should give.

`expected_bindings` is the one place that says how a model object is named in a row, and
`true_changes` compares two models' maps; neither looks at rendered text or at the engine."""

from __future__ import annotations

from typing import Optional

from .catalogue import DECORATOR_KINDS, FACTORY_CALLS, IN_OTHER_MODULE, LABELLED_WRAPPERS, NAMED_BY_LOCAL, NOT_AT_MODULE_LEVEL, READABLE_LISTS, RENAMEABLE, SDK_DECORATORS
from .model import ADK, AgentSpec, App, SDK, Server, Tool, flag_name, negated
from .naming import builder_name, module_path, wiring_module
from .rules import plain_decorator, registry_agents


def agent_source(agent: AgentSpec) -> str:
    """The row's `agent_source`: the agent's file, scope-relative."""
    return module_path(agent.file)


def agent_identity(agent: AgentSpec) -> str:
    """The row's `agent`: ADK name=; SDK the plain variable, but a builder's return or a clone by its
    literal name=, and a function's local (`builder_returns_local`, `nested_local`: named as the
    variable) by the local."""
    if agent.framework == SDK and agent.construction in NAMED_BY_LOCAL:
        return agent.var
    if agent.construction in ("builder_name_rebound", "builder_name_attribute_stored"):
        return f"{builder_name(agent)}@{agent_source(agent)}"
    if agent.framework == ADK or agent.construction in NOT_AT_MODULE_LEVEL + ("clone",):
        return agent.name
    return agent.var


def shadow_ident(agent: AgentSpec) -> Optional[tuple[str, str]]:
    """The second agent a `factory_two_calls` agent's factory makes (its call's name is not read):
    named by the spec's source label of that call, binding what the agent binds."""
    if agent.construction not in FACTORY_CALLS:
        return None
    return agent_source(agent), f"{agent.var}_preview@{agent_source(agent)}"


def agent_ident(agent: AgentSpec) -> tuple[str, str]:
    """(agent_source, agent): the agent as its rows (and the limits on it) name it."""
    return agent_source(agent), agent_identity(agent)


def as_tool_name(target: AgentSpec) -> str:
    return f"ask_{target.var}"


def agent_tool_row_name(target: AgentSpec) -> str:
    """The row name of an agent used as a tool: SDK tool_name=, ADK the wrapped agent's name."""
    if target.framework == SDK:
        return as_tool_name(target)
    return target.name


def server_row_name(server: Server) -> str:
    """An MCP server's row name: SDK its name= (else its variable); ADK its variable."""
    if server.framework == SDK and server.named:
        return server.key
    return server.var


def expected_bindings(app: App, renamed: Optional[dict[str, str]] = None) -> dict[tuple[str, str, str], tuple]:
    """{(agent_source, agent, tool): meaning}: what each agent binds, as rows name it.
    `renamed` gives ADK agents renamed in place their other side's name (see `adk_renames`)."""
    renamed = renamed or {}

    def identity(agent: AgentSpec) -> str:
        return renamed.get(agent.key, agent_identity(agent))

    out: dict[tuple[str, str, str], tuple] = {}
    for agent in app.agents.values():
        ident = (agent_source(agent), identity(agent))
        for tid in agent.tools:
            tool = app.tools[tid]
            out[ident + (tool_row_name(tool),)] = (tool_meaning(tool) + (wrapper_of(app, tool),)
                                                   + (("when", condition_of(agent, tid)),))
        for cls, argument in agent.hosted.items():
            out[ident + (cls,)] = ("hosted", argument)
        for key in agent.servers:
            server = app.servers[key]
            allowed = None if server.filter is None else tuple(sorted(server.filter))
            out[ident + (server_row_name(server),)] = ("mcp", server.command, tuple(server.args), allowed)
        for key in agent.agent_tools:
            target = app.agents[key]
            out[ident + (agent_tool_row_name(target),)] = ("agent_tool", agent_source(target), identity(target))
        for key in agent.handoffs:
            target = app.agents[key]
            out[ident + (f"handoff:{agent_source(target)}:{identity(target)}",)] = ("handoff",)
        shadow = shadow_ident(agent)
        if shadow is not None:
            out.update({shadow + key[2:]: meaning for key, meaning in list(out.items()) if key[:2] == ident})
    settings = agent_settings(app)
    return {key: meaning + settings.get(key[:2], ()) for key, meaning in out.items()}


def agent_settings(app: App) -> dict[tuple[str, str], tuple]:
    """SDK settings every row of the agent carries: (tool_choice, tool_use_behavior), the
    default behaviour spelled `run_llm_again`; a clone has its source's."""
    out = {}
    for agent in app.agents.values():
        if agent.framework == SDK:
            source = agent
            while source.construction == "clone" and source.clone_of in app.agents:
                source = app.agents[source.clone_of]
            for ident in (agent_ident(agent), shadow_ident(agent)):
                if ident is not None:
                    out[ident] = (("settings", source.tool_choice, source.tool_use_behavior or "run_llm_again"),)
    return out


def condition_of(agent: AgentSpec, tid: str) -> Optional[str]:
    """The env flag a tool is bound under, `!F` when F must not be "1" (only list shapes that spell
    members carry one). The engine spells it as the test's source in backticks (`not` before it for
    the else branch) in the row's bound_when; a different flag is a different meaning."""
    return agent.conditions.get(tid) if agent.tools_list in READABLE_LISTS else None


def bound_when(agent: AgentSpec, tid: str) -> list[str]:
    """The `bound_when` a row of the agent's function tool carries: its condition's test as source in
    backticks (`not` before it for the else branch), and `when `<module>` is imported` for a tool a
    rewire in another module adds (`IN_OTHER_MODULE`: the last function tool)."""
    out = []
    flag = condition_of(agent, tid)
    if flag:
        test = f"`os.getenv('{flag_name(flag)}') == '1'`"
        out.append(f"not {test}" if negated(flag) else test)
    if agent.tools_list in IN_OTHER_MODULE and agent.tools and tid == agent.tools[-1]:
        out.append(f"when `{module_path(wiring_module(agent.framework))}` is imported")
    return out


def expected_bound_when(app: App, renamed: Optional[dict[str, str]] = None) -> dict[tuple[str, str, str], list[str]]:
    """{(agent_source, agent, tool): bound_when} for every function tool binding (keys as
    `expected_bindings` names them)."""
    renamed = renamed or {}
    out = {}
    for agent in app.agents.values():
        ident = (agent_source(agent), renamed.get(agent.key, agent_identity(agent)))
        for tid in agent.tools:
            out[ident + (tool_row_name(app.tools[tid]),)] = bound_when(agent, tid)
            shadow = shadow_ident(agent)
            if shadow is not None:
                out[shadow + (tool_row_name(app.tools[tid]),)] = bound_when(agent, tid)
    return out


def adk_renames(base: App, head: App) -> dict[str, str]:
    """ADK agents renamed in place: the same module-level variable of the same file, built once
    by a module-level construction on both sides, whose name= changed. The engine pairs them as
    one agent (the base side takes the head's name, and so do handoffs to it)."""
    out = {}
    for key, before in base.agents.items():
        after = head.agents.get(key)
        if (after and before.framework == ADK and before.name != after.name and before.var == after.var
                and before.file == after.file and before.construction in RENAMEABLE
                and after.construction in RENAMEABLE):
            out[key] = after.name
    return out


def tool_row_name(tool: Tool) -> str:
    """A function tool's row name: its SDK name_override=, else the function's name."""
    return tool.override or tool.name


def tool_meaning(tool: Tool) -> tuple:
    """What a changed row compares: the signature (names, annotations, default, async, return)
    and the implementation digest (the AST: body, locals, decorators; not the docstring)."""
    signature = (tuple(tool.params), tuple(param_type(tool, p) for p in tool.params), tool.default,
                 tool.is_async, tool.returns)
    return ("function", signature, tool.body, tool.local, tool.helper, decorator_of(tool))


def param_type(tool: Tool, param: str) -> str:
    return tool.types.get(param, "str")


def decorator_of(tool: Tool) -> tuple:
    """What decorates the def (or the SDK wrapper's arguments): part of the implementation digest.
    `@function_tool` and `@function_tool()` differ; with a name_override= both are one call."""
    if tool.definition == "sdk_decorator" and not tool.override:
        return ("@function_tool",)
    if tool.definition in SDK_DECORATORS:
        return ("@function_tool(...)", tool.override)
    return ("", tool.override)


def wrapper_of(app: App, tool: Tool) -> tuple:
    """The repository decorators around the framework's: part of the implementation digest (its
    code's variant, and the factory's argument; a registry's registration as spelled, its code
    not: it only stores the function); the tool is still the function."""
    owner = registry_agents(app).get(tool.tid)
    registration = (() if owner is None else
                    ("registered", owner.key) + (() if plain_decorator(app, owner) else (tool.tid,)))
    return wrapper_spelled(app, tool) + registration


def wrapper_spelled(app: App, tool: Tool) -> tuple:
    if tool.wrapper not in DECORATOR_KINDS:
        return ("wrapper",)
    kind = DECORATOR_KINDS[tool.wrapper]
    spelled = tool.wrapper + (f"({tool.label})" if tool.wrapper in LABELLED_WRAPPERS else "")
    return ("wrapper", spelled, kind, app.decorators.get(kind, 0))


def true_changes(base: App, head: App) -> dict[tuple[str, str, str], str]:
    """Every binding key whose meaning differs between the two models, with its change."""
    before, after = expected_bindings(base, adk_renames(base, head)), expected_bindings(head)
    changes = {}
    for key in sorted(before.keys() | after.keys()):
        if key not in before:
            changes[key] = "added"
        elif key not in after:
            changes[key] = "removed"
        elif before[key] != after[key]:
            changes[key] = "changed"
    return changes


def binding_names(app: App, agent: AgentSpec) -> list[str]:
    """The row names of everything the agent binds (as `expected_bindings` spells them)."""
    ident = agent_ident(agent)
    return [tool for (s, a, tool) in expected_bindings(app) if (s, a) == ident]
