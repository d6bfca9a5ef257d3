"""One agent's construction in its `construction` shape: literal, builder, class-held, clone, **kwargs."""

from __future__ import annotations

from typing import Optional

from ..catalogue import (
    IMPORTED_LISTS, IN_FUNCTION, IN_OTHER_MODULE, INSTANCE_AGENTS, NAME_CONSTANTS, READABLE_LISTS, REPLACEMENTS, REWIRES, SUBCLASS_CHAINS,
    WRAPPER_EDGES
)
from ..model import AgentSpec, App, SDK
from ..naming import relative_module
from ..rules import nested_host, registry_agents
from ..truth import agent_ident, binding_names, condition_of, tool_row_name
from .lists import constant_stem, rendered_lists
from ..naming import builder_name, wiring_module
from .tools import reference_opaque
from .writer import AgentContext, RenderState, Writer

INSTRUCTIONS = ["Help the user.", "Be brief.", "Answer politely.", "Route carefully."]
SDK_MODELS = ["", "gpt-4.1", "gpt-4o-mini"]
ADK_MODELS = ["gemini-2.0-flash", "gemini-2.5-pro", "gemini-2.5-flash"]


def same_fields(app: App, agent: AgentSpec) -> dict[str, bool]:
    """The list fields a clone inherits from its source (they equal the source's)."""
    source = app.agents[agent.clone_of]
    same_handoffs = sorted(agent.handoffs) == sorted(source.handoffs) and agent.tools_list not in REWIRES
    return {
        "tools": sorted(agent.tools) == sorted(source.tools) and agent.hosted == source.hosted
        and all(condition_of(agent, t) == condition_of(source, t) for t in agent.tools)
        and sorted(agent.agent_tools) == sorted(source.agent_tools)
        and (agent.framework == SDK or sorted(agent.servers) == sorted(source.servers))
        and agent.tools_list in READABLE_LISTS,
        "sub_agents": same_handoffs,
        "handoffs": same_handoffs,
        "mcp_servers": sorted(agent.servers) == sorted(source.servers),
    }


def clone_overrides(app: App, agent: AgentSpec, values: dict[str, Optional[str]]) -> dict[str, str]:
    """A clone passes a field only when it differs from its source's (else it inherits it)."""
    same = same_fields(app, agent)
    out = {}
    for name, value in values.items():
        if same.get(name):
            continue
        out[name] = value if value is not None else "[]"
    return out


def name_argument(w: Writer, agent: AgentSpec, before: list[list[str]], state: RenderState = None) -> str:
    """The name= value: a literal, or (`NAME_CONSTANTS`) a module constant that holds it, which
    a function may rebind (`builder_name_rebound`), or one of app/<fw>_names.py read through that
    module, which a function may store into (`builder_name_attribute_stored`)."""
    if agent.construction in ("builder_name_attribute", "builder_name_attribute_stored") and state is not None:
        module = f"{agent.framework}_names"
        constant = f"{constant_stem(agent)}_NAME"
        holder = state.side_module(module)
        holder.blocks.append([f"{constant} = {holder.q(agent.name)}"])
        # Imported in the body, after any wildcard import of the module (which the readers take
        # as possibly rebinding every name bound before it).
        if f"import {module}" not in w.once:  # bound once, as the readers take a constant's module
            w.once.add(f"import {module}")
            before.append([f"from . import {module}"])
        if agent.construction == "builder_name_attribute_stored":
            before.append([f"def _rename_{agent.list_name or agent.var}(suffix):",
                           f"    {module}.{constant} = {module}.{constant} + suffix"])
        return f"{module}.{constant}"
    if agent.construction in NAME_CONSTANTS:
        constant = f"{constant_stem(agent)}_NAME"
        before.append([f"{constant} = {w.q(agent.name)}"])
        if agent.construction == "builder_name_rebound":
            before.append([f"def _rename_{agent.list_name or agent.var}(suffix):", f"    global {constant}",
                           f"    {constant} = {constant} + suffix"])
        return constant
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
    if spelling == "class_reexported":  # app/<fw>_framework.py forwards the framework's classes
        w.imports.name(f".{agent.framework}_framework", cls)
        return cls
    if spelling == "class_module_qualified":
        if agent.framework == SDK:
            w.imports.module("agents")
            return f"agents.{cls}"
        w.imports.alias("google.adk", "agents", "adk_agents")
        return f"adk_agents.{cls}"
    w.imports.name(package, cls)
    return cls


def indented(lines: list[str], indent: str) -> list[str]:
    return [indent + line if line else "" for line in lines]


def head_arguments(w: Writer, agent: AgentSpec, name: str) -> list[str]:
    """The construction's arguments before its lists: name=, instructions, model, settings."""
    instruction = w.q(INSTRUCTIONS[agent.instruction % len(INSTRUCTIONS)])
    if agent.framework == SDK:
        first = name if agent.construction == "positional_name" else f"name={name}"
        return [first, f"instructions={instruction}"] + sdk_settings_arguments(w, agent)
    model = ADK_MODELS[agent.model % len(ADK_MODELS)]
    return [f"name={name}", f"model={w.q(model)}", f"instruction={instruction}"]


def render_nested(state: RenderState, w: Writer, app: App, agent: AgentSpec,
                  before: list[list[str]]) -> tuple[list[str], set[str]]:
    """A `nested_local` agent built in its host's function: `x = Agent(...)`, as lines of that
    function (its module constants go to `before`), and the binding names it leaves unreadable."""
    ctx = AgentContext(in_function=False)
    values = rendered_lists(state, w, app, agent, before, [], ctx)
    arguments = head_arguments(w, agent, name_argument(w, agent, before, state))
    arguments += [f"{k}={v}" for k, v in values.items() if v is not None]
    lines = f"{agent.var} = {w.call(agent_class(w, agent), arguments, '')}".split("\n")
    return lines, ctx.unreadable | tool_opacity(app, agent)


def tool_opacity(app: App, agent: AgentSpec) -> set[str]:
    """The agent's function tools the readers cannot decide: under a decorator edge, or reached
    through a name the package's lazy registry leaves open."""
    out = set()
    # A replaced list is the one its replacement spells, in the replacement's module.
    spelled_in = agent.file
    if agent.tools_list in REPLACEMENTS:
        package = agent.tools_list == "rewire_replace_package"
        spelled_in = "__init__" if package else wiring_module(agent.framework)
    for tid in agent.tools:
        tool = app.tools[tid]
        if tool.wrapper in WRAPPER_EDGES or (references_in_own_file(app, agent, tid)
                                             and reference_opaque(app, spelled_in, tool)):
            out.add(tool_row_name(tool))
    return out


def render_agent(state: RenderState, w: Writer, app: App, agent: AgentSpec,
                 nested: dict[tuple[str, str], set[str]]) -> tuple[list[list[str]], set[str]]:
    """The top-level blocks that build one agent, and the binding names it leaves unreadable (those
    of the `nested_local` agents built in its function go to `nested`)."""
    before: list[list[str]] = []
    after: list[str] = []
    ctx = AgentContext(in_function=agent.construction in IN_FUNCTION)
    for other in sorted(app.agents.values(), key=lambda a: a.key):
        host = nested_host(app, other)
        if host is not None and host.key == agent.key:
            lines, names = render_nested(state, w, app, other, before)
            ctx.prelude += lines
            ctx.locals[other.key] = other.var
            if names:
                nested[agent_ident(other)] = names
    values = rendered_lists(state, w, app, agent, before, after, ctx)
    name = name_argument(w, agent, before, state)
    instruction = w.q(INSTRUCTIONS[agent.instruction % len(INSTRUCTIONS)])
    head = head_arguments(w, agent, name)
    indent = "        " if agent.construction in ("class_held",) + INSTANCE_AGENTS else "    " if ctx.in_function else ""
    body = indented(ctx.prelude, indent)
    if ctx.prelude and not ctx.in_function:
        before.append(list(ctx.prelude))
    construction: list[str] = []
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
        ctx.unreadable |= set(binding_names(app, agent))
    elif agent.construction == "adk_base_agent_subclass":
        w.imports.name("google.adk.agents", "BaseAgent")
        flow = f"{(agent.list_name or agent.var).title().replace('_', '')}FlowAgent"
        before.append([f"class {flow}(BaseAgent):", '    """Runs its sub-agents in an order of its own."""',
                       "    async def _run_async_impl(self, ctx):", "        for agent in self.sub_agents:",
                       "            async for event in agent.run_async(ctx):", "                yield event"])
        construction = [f"{agent.var} = {w.call(flow, head[:1] + [f'{k}={v}' for k, v in values.items() if v is not None], '')}"]
        ctx.unreadable |= set(binding_names(app, agent))
    elif agent.construction == "adk_inert_custom_agent":
        w.imports.name("google.adk.agents", "BaseAgent")
        w.imports.name("google.adk.events", "Event")
        spike = f"{(agent.list_name or agent.var).title().replace('_', '')}SpikeAgent"
        before.append([f"class {spike}(BaseAgent):", '    """Yields one event and exits."""',
                       "    async def _run_async_impl(self, ctx):", "        yield Event(author=self.name)"])
        construction = [f"{agent.var} = {w.call(spike, head[:1] + [f'{k}={v}' for k, v in values.items() if v is not None], '')}"]
        if any(k != "sub_agents" and v is not None for k, v in values.items()):
            ctx.unreadable |= set(binding_names(app, agent))  # BaseAgent takes no tools=: the call is a limit
    elif agent.construction in SUBCLASS_CHAINS:
        derived = subclass_chain(state, w, agent, before)
        arguments = head + [f"{k}={v}" for k, v in values.items() if v is not None]
        construction = [f"{agent.var} = {w.call(derived, arguments, '')}"]
        if agent.construction == "subclass_chain_unread":
            ctx.unreadable |= set(binding_names(app, agent))
    else:
        arguments = head + [f"{k}={v}" for k, v in values.items() if v is not None]
        cls = agent_class(w, agent)
        call = w.call(cls, arguments, indent)
        builder = builder_name(agent)
        if agent.construction in ("builder", "builder_name_constant", "builder_name_rebound", "builder_name_attribute",
                                  "builder_name_attribute_stored"):
            before.append([f"def {builder}():"] + body + [f"    return {call}"])
        elif agent.construction == "builder_decorated":
            w.imports.module("functools")
            before.append(["@functools.lru_cache(maxsize=None)", f"def {builder}():"] + body + [f"    return {call}"])
        elif agent.construction in ("builder_returns_local", "nested_local"):  # nested_local: not nested
            before.append([f"def {builder}():"] + body + [f"    {agent.var} = {call}", f"    return {agent.var}"])
        elif agent.construction == "builder_chain":
            make = f"_make_{agent.list_name or agent.var}"
            before.append([f"def {make}():"] + body + [f"    return {call}"])
            before.append([f"def {builder}():", f"    return {make}()"])
        elif agent.construction == "builder_two_returns":
            w.imports.module("os")
            fast_name = w.q(agent.name + "_fast")
            fast = f"{cls}(name={fast_name}, " + (f"instructions={instruction})" if agent.framework == SDK else
                                                 f"model={w.q(ADK_MODELS[0])})")
            flag = f"FAST_{agent.var.upper()}"
            before.append([f"def {builder}():"] + body + [f"    if os.getenv({w.q(flag)}) == {w.q('1')}:",
                                                          f"        return {fast}", f"    return {call}"])
        elif agent.construction == "factory_two_calls":
            w.imports.module("os")
            arguments = head_arguments(w, agent, "agent_name") + [f"{k}={v}" for k, v in values.items() if v is not None]
            before.append([f"def {builder}(agent_name):"] + body + [f"    return {w.call(cls, arguments, indent)}"])
            flag = f"{agent.var.upper()}_PREVIEW_NAME"
            construction = [f"{agent.var} = {builder}({name})",
                            f"{agent.var}_preview = {builder}(os.environ.get({w.q(flag)}, {w.q(agent.var + '_preview')}))"]
        elif agent.construction == "builder_local_list":
            before.append(local_list_builder(agent, cls, head, values, body))
        elif agent.construction in ("class_held",) + INSTANCE_AGENTS:
            holder = f"{(agent.list_name or agent.var).title().replace('_', '')}Holder"
            stored = values.get("tools") if agent.tools_list == "literal" and not body else None
            if agent.construction == "class_method_instance" and stored is not None:
                # The list stored by __init__ from its parameter and only read elsewhere (issue 41,
                # item 1): logged by print, measured, formatted, iterated.
                passed = dict(values, tools="self.tools")
                call = w.call(cls, head + [f"{k}={v}" for k, v in passed.items() if v is not None], indent)
                before.append([f"class {holder}:", "    def __init__(self, tools):", "        self.tools = tools",
                               '        print("tools:", len(self.tools))', "", "    def describe(self):",
                               '        return f"{len(self.tools)} tools: " + ", ".join(str(t) for t in self.tools)',
                               "", "    def create_agent(self):", f"        return {call}"])
            elif agent.construction == "class_method_instance":
                before.append([f"class {holder}:", "    def create_agent(self):"] + body + [f"        return {call}"])
            else:
                before.append([f"class {holder}:", "    def __init__(self):"] + body + [f"        self.agent = {call}"])
            if agent.construction in INSTANCE_AGENTS:
                given = stored.strip() if agent.construction == "class_method_instance" and stored is not None else ""
                construction = [f"{agent.var}_holder = {holder}({given})"]
        else:
            construction = [f"{agent.var} = {call}"]
        if agent.construction in IN_FUNCTION and agent.construction not in ("class_held", "factory_two_calls") + INSTANCE_AGENTS:
            construction = [f"{agent.var} = {builder}()"]
    ctx.unreadable |= tool_opacity(app, agent)
    blocks = before + ([construction + after] if construction + after else [])
    return blocks, ctx.unreadable


def subclass_chain(state: RenderState, w: Writer, agent: AgentSpec, before: list[list[str]]) -> str:
    """`XBase(<framework class>)` in app/<fw>_bases.py, adding behaviour that touches no capability
    field (a helper; ADK an `@override` run method that prints and delegates to super()), and
    `XAgent(XBase)` before the construction, handing its base a constant: the class to construct.
    `subclass_chain_unread` breaks one link: XAgent's `__init__` uses its `**` parameter besides
    passing it on (SDK), or the run method calls a helper before delegating (ADK)."""
    stem = (agent.list_name or agent.var).title().replace("_", "")
    base, derived = f"{stem}Base", f"{stem}Agent"
    unread = agent.construction == "subclass_chain_unread"
    bases = state.side_module(f"{agent.framework}_bases")
    if agent.framework == SDK:
        bases.imports.name("agents", "Agent")
        bases.blocks.append([f"class {base}(Agent):", "    def describe(self):", '        return f"{self.name}"'])
        passed = 'handoff_description="A specialist.", **kwargs'
    else:
        bases.imports.name("google.adk.agents", "LlmAgent")
        bases.imports.name("typing_extensions", "override")
        run = ["    @override", "    async def _run_async_impl(self, ctx):", '        print("running", self.name)']
        if unread:
            bases.blocks.append([f"def audit_{stem.lower()}(ctx):", "    return ctx"])
            run.append(f"        audit_{stem.lower()}(ctx)")
        run += ["        async for event in super()._run_async_impl(ctx):", "            yield event"]
        bases.blocks.append([f"class {base}(LlmAgent):"] + run)
        passed = 'output_key="answer", **kwargs'
    w.imports.name(relative_module(f"{agent.framework}_bases"), base)
    init = [f"class {derived}({base}):", "    def __init__(self, **kwargs):"]
    if unread and agent.framework == SDK:  # uses its ** parameter besides passing it on
        init += ['        kwargs.setdefault("handoff_description", "A specialist.")', "        super().__init__(**kwargs)"]
    else:
        init.append(f"        super().__init__({passed})")
    before.append(init)
    return derived


def references_in_own_file(app: App, agent: AgentSpec, tid: str) -> bool:
    """Whether the agent's module spells its reference to the tool (not an imported list's module,
    nor the module a rewire adds it from); a clone that inherits its tools, as its source does."""
    if agent.construction == "clone" and agent.clone_of in app.agents and same_fields(app, agent)["tools"]:
        return references_in_own_file(app, app.agents[agent.clone_of], tid)
    if agent.tools_list in IMPORTED_LISTS and app.tools[tid].module != agent.file:
        return False
    if agent.tools_list in IN_OTHER_MODULE and agent.tools and tid == agent.tools[-1]:
        return False
    # A registered tool is reached through its registry, which imports the
    # tool's own module (never the package's re-export, lazy or not).
    owner = registry_agents(app).get(tid)
    if owner is not None and owner.key == agent.key:
        return False
    return True


def local_list_builder(agent: AgentSpec, cls: str, head: list[str], values: dict[str, Optional[str]],
                       body: list[str]) -> list[str]:
    """def build_x(): tools = [first]; tools.append(second); ...; return Agent(..., tools=tools)."""
    lines = [f"def {builder_name(agent)}():"] + body
    arguments = list(head)
    for field_name, value in values.items():
        if value is None:
            continue
        local = f"{field_name}_list" if agent.list_name else field_name
        items = split_display(value)
        if items is None:
            if value != local:
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
