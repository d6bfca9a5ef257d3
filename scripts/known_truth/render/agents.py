"""One agent's construction in its `construction` shape: literal, builder, class-held, clone, **kwargs."""

from __future__ import annotations

from typing import Optional

from ..catalogue import READABLE_LISTS, REWIRES
from ..model import AgentSpec, App, SDK
from ..truth import binding_names, condition_of
from .lists import constant_stem, rendered_lists
from .writer import RenderState, Writer

INSTRUCTIONS = ["Help the user.", "Be brief.", "Answer politely.", "Route carefully."]
SDK_MODELS = ["", "gpt-4.1", "gpt-4o-mini"]
ADK_MODELS = ["gemini-2.0-flash", "gemini-2.5-pro", "gemini-2.5-flash"]


def clone_overrides(app: App, agent: AgentSpec, values: dict[str, Optional[str]]) -> dict[str, str]:
    """A clone passes a field only when it differs from its source's (else it inherits it)."""
    source = app.agents[agent.clone_of]
    same_handoffs = sorted(agent.handoffs) == sorted(source.handoffs) and agent.tools_list not in REWIRES
    same = {
        "tools": sorted(agent.tools) == sorted(source.tools) and agent.hosted == source.hosted
        and all(condition_of(agent, t) == condition_of(source, t) for t in agent.tools)
        and sorted(agent.agent_tools) == sorted(source.agent_tools)
        and (agent.framework == SDK or sorted(agent.servers) == sorted(source.servers))
        and agent.tools_list in READABLE_LISTS,
        "sub_agents": same_handoffs,
        "handoffs": same_handoffs,
        "mcp_servers": sorted(agent.servers) == sorted(source.servers),
    }
    out = {}
    for name, value in values.items():
        if same.get(name):
            continue
        out[name] = value if value is not None else "[]"
    return out


def builder_name(agent: AgentSpec) -> str:
    return f"build_{agent.list_name or agent.var}"


def name_argument(w: Writer, agent: AgentSpec, before: list[list[str]]) -> str:
    """The name= value: a literal, or (`name_constant`) a module constant that holds it."""
    if agent.construction == "name_constant":
        before.append([f"{constant_stem(agent)}_NAME = {w.q(agent.name)}"])
        return f"{constant_stem(agent)}_NAME"
    return w.q(agent.name)


def agent_class(w: Writer, agent: AgentSpec) -> str:
    """The agent class as the file's `class_spelling` spells it."""
    cls = "Agent" if agent.framework == SDK else agent.adk_class
    package = "agents" if agent.framework == SDK else "google.adk.agents"
    spelling = w.style.class_spelling
    if spelling == "class_alias":
        alias = ("Sdk" if agent.framework == SDK else "Adk") + cls
        w.imports.name(package, cls, alias)
        return alias
    if spelling == "class_generic" and agent.framework == SDK:
        w.imports.name("agents", "Agent")
        return "Agent[dict]"
    if spelling == "class_module_qualified":
        if agent.framework == SDK:
            w.imports.module("agents")
            return f"agents.{cls}"
        w.imports.alias("google.adk", "agents", "adk_agents")
        return f"adk_agents.{cls}"
    w.imports.name(package, cls)
    return cls


def render_agent(state: RenderState, w: Writer, app: App, agent: AgentSpec) -> tuple[list[list[str]], set[str]]:
    """The top-level blocks that build one agent, and the binding names it leaves unreadable."""
    before: list[list[str]] = []
    after: list[str] = []
    values, unreadable = rendered_lists(state, w, app, agent, before, after)
    name = name_argument(w, agent, before)
    instruction = w.q(INSTRUCTIONS[agent.instruction % len(INSTRUCTIONS)])
    if agent.framework == SDK:
        first = name if agent.construction == "positional_name" else f"name={name}"
        head = [first, f"instructions={instruction}"] + sdk_settings_arguments(w, agent)
    else:
        model = ADK_MODELS[agent.model % len(ADK_MODELS)]
        head = [f"name={name}", f"model={w.q(model)}", f"instruction={instruction}"]
    indent = {"builder": "    ", "class_held": "        "}.get(agent.construction, "")
    if agent.construction == "clone":
        source = app.agents[agent.clone_of]
        passed = clone_overrides(app, agent, values)
        arguments = [f"name={name}"] + [f"{k}={v}" for k, v in passed.items()]
        construction = [f"{agent.var} = {w.call(source.var + '.clone', arguments, '')}"]
    elif agent.construction == "kwargs_unpack":
        options = f"{constant_stem(agent)}_OPTIONS"
        entries = [f"{w.q(k)}: {v}" for k, v in values.items() if v is not None]
        before.append([f"{options} = " + ("{" + ", ".join(entries) + "}")])
        construction = [f"{agent.var} = {w.call(agent_class(w, agent), head + ['**' + options], '')}"]
        unreadable |= set(binding_names(app, agent))
    else:
        arguments = head + [f"{k}={v}" for k, v in values.items() if v is not None]
        call = w.call(agent_class(w, agent), arguments, indent) if agent.construction != "builder_local_list" else ""
        if agent.construction == "builder":
            before.append([f"def {builder_name(agent)}():", f"    return {call}"])
            construction = [f"{agent.var} = {builder_name(agent)}()"]
        elif agent.construction == "class_held":
            holder = f"{(agent.list_name or agent.var).title().replace('_', '')}Holder"
            before.append([f"class {holder}:", "    def __init__(self):", f"        self.agent = {call}"])
            construction = []
        elif agent.construction == "builder_local_list":
            before.append(local_list_builder(agent, agent_class(w, agent), head, values))
            construction = [f"{agent.var} = {builder_name(agent)}()"]
        else:
            construction = [f"{agent.var} = {call}"]
    blocks = before + ([construction + after] if construction + after else [])
    return blocks, unreadable


def local_list_builder(agent: AgentSpec, cls: str, head: list[str], values: dict[str, Optional[str]]) -> list[str]:
    """def build_x(): tools = [first]; tools.append(second); ...; return Agent(..., tools=tools)."""
    lines = [f"def {builder_name(agent)}():"]
    arguments = list(head)
    for field_name, value in values.items():
        if value is None:
            continue
        local = f"{field_name}_list" if agent.list_name else field_name
        items = split_display(value)
        if items is None:
            lines.append(f"    {local} = {value}")
        else:
            lines.append(f"    {local} = [{', '.join(items[:1])}]")
            lines += [f"    {local}.append({item})" for item in items[1:]]
        arguments.append(f"{field_name}={local}")
    lines.append(f"    return {cls}({', '.join(arguments)})")
    return lines


def split_display(value: str) -> Optional[list[str]]:
    """The members of a one-line list display `[a, b(c, d), ...]` (None when it is not one)."""
    if not (value.startswith("[") and value.endswith("]")) or "\n" in value:
        return None
    items, depth, current = [], 0, ""
    for ch in value[1:-1]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        items.append(current.strip())
    if any(i.startswith("*") for i in items):
        return None
    return items


def sdk_settings_arguments(w: Writer, agent: AgentSpec) -> list[str]:
    """model=, model_settings= and tool_use_behavior= of an SDK construction (not a clone's)."""
    out = []
    model = SDK_MODELS[agent.model % len(SDK_MODELS)]
    if model:
        out.append(f"model={w.q(model)}")
    if agent.tool_choice:
        w.imports.name("agents", "ModelSettings")
        out.append(f"model_settings=ModelSettings(tool_choice={w.q(agent.tool_choice)})")
    if agent.tool_use_behavior:
        out.append(f"tool_use_behavior={w.q(agent.tool_use_behavior)}")
    elif agent.spell_default:
        out.append(f"tool_use_behavior={w.q('run_llm_again')}")
    return out
