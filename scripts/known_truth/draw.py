"""Drawing a model from a seed: tools, servers, agents, what they bind, and each module's style."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Optional

from .catalogue import (
    APPEND_LISTS, BUILDERS, IDENTITY_BY_VARIABLE, IN_FUNCTION, INSTANCE_AGENTS, IN_SCOPE_LISTS, OPEN_BUILDERS, REPLACEMENTS, REWIRES, SAME_MODULE_REWIRES, SHAPES, SUBCLASS_CHAINS,
    TARGET_REFS, shapes_for
)
from .model import ADK, AgentSpec, App, HOSTED_ARGUMENTS, HOSTED_BY_FRAMEWORK, SDK, Server, Tool
from .naming import TOOL_MODULES, servers_module
from .render.tools import DOCSTRINGS
from .render.writer import HEADERS
from .rules import can_be_clone_source, can_bind, eligible_targets, module_allowed

TOOL_CHOICES = [None, "required", "none"]  # not "auto": unset is the model's default, which may change
AGENT_WORDS = ["support", "billing", "refunds", "triage", "shipping", "research", "writer", "planner",
               "reviewer", "sales", "intake", "escalation", "returns", "catalog", "concierge", "audit"]
TOOL_WORDS = ["lookup_order", "refund_payment", "track_parcel", "send_email", "search_docs", "create_ticket",
              "get_weather", "convert_currency", "schedule_call", "summarize_text", "fetch_invoice",
              "check_stock", "reset_password", "book_room", "rate_answer", "list_files", "translate_text",
              "open_case", "close_case", "quote_price"]
PARAM_TYPES = ["str", "int", "float", "bool"]
PARAM_WORDS = ["order_id", "amount", "email", "query", "city", "currency", "note", "limit", "user_id", "lang"]
LOCAL_WORDS = ["result", "note", "text", "out", "reply", "value"]
SERVER_WORDS = ["files", "github", "calendar", "notes", "search"]
COMMANDS = ["npx", "uvx", "node", "python3"]
LABELS = ["audit", "trace", "metrics", "billing", "support"]


class Names:
    """Unique names drawn from word lists."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()

    def take(self, words: list[str], suffix: str = "") -> str:
        free = [w for w in words if w + suffix not in self.used]
        base = self.rng.choice(free) if free else f"{self.rng.choice(words)}{len(self.used)}"
        name = base + suffix
        while name in self.used:
            name += "_x"
        self.used.add(name)
        return name


@dataclass
class Generation:
    """The state of one seed's draw: every random choice comes from `rng`, in a fixed order."""

    rng: random.Random
    enabled: set[str]
    names: Names
    counter: int = 0
    base: Optional[App] = None  # the base model, while edits are drawn

    def pick(self, axis: str, framework: str, default: Optional[str] = None) -> str:
        """A shape of `axis` by weight (`default` when the axis has no enabled shape, which only
        axes without a base shape may have)."""
        names = shapes_for(self.enabled, axis, framework)
        if not names and default is not None:
            return default
        return self.rng.choices(names, weights=[SHAPES[n].weight for n in names])[0]

    def on(self, shape: str) -> bool:
        return shape in self.enabled


def tool_modules(gen: Generation, framework: str) -> list[str]:
    """The shared modules a tool may be defined in (a package's __init__ only when enabled)."""
    return [m for m in TOOL_MODULES[framework] if not m.endswith("__init__") or gen.on("package_init_module")]


def draw_tool(gen: Generation, app: App, framework: str) -> Tool:
    rng = gen.rng
    name = gen.names.take(TOOL_WORDS)
    return Tool(
        name=name,
        framework=framework,
        params=rng.sample(PARAM_WORDS, rng.randint(0, 3)),
        body=rng.randint(1, 5),
        local=rng.choice(LOCAL_WORDS),
        module=draw_tool_module(gen, app, framework),
        definition=gen.pick("tool_def", framework),
        doc=rng.randint(0, 2 * len(DOCSTRINGS) - 1),
        order=rng.randint(0, 99),
        types={p: rng.choice(PARAM_TYPES) for p in PARAM_WORDS if rng.random() < 0.2},
        default=rng.choice([None, None, '"x"', "3"]),
        is_async=rng.random() < 0.15,
        returns=rng.choice(["str", "str", "dict"]),
        override=f"do_{name}" if framework == SDK and rng.random() < 0.15 else "",
        override_constant=gen.pick("override_spelling", SDK) == "override_constant",
        helper=gen.on("tool_helper") and rng.random() < 0.3,
        wrapper=gen.pick("tool_wrapper", framework),
        label=rng.choice(LABELS),
    )


def draw_module_options(gen: Generation, app: App, framework: str) -> list[str]:
    """Where a new tool may be defined: a shared tools module, or the framework's only agent module."""
    options = tool_modules(gen, framework)
    stems = app.agent_files.get(framework, [])
    if gen.on("local_definition") and len(stems) == 1:
        options.append(stems[0])
    return options


def draw_tool_module(gen: Generation, app: App, framework: str) -> str:
    return gen.rng.choice(draw_module_options(gen, app, framework))


def draw_server(gen: Generation, framework: str, stem: str) -> Server:
    rng = gen.rng
    word = gen.names.take(SERVER_WORDS)
    return Server(
        key=word,
        framework=framework,
        file=stem,
        var=f"{word}_server" if framework == SDK else f"{word}_toolset",
        command=rng.choice(COMMANDS),
        args=[f"{word}-mcp", f"--v{rng.randint(1, 3)}"],
        named=rng.random() < 0.7,
        module=servers_module(framework) if gen.on("server_imported") and rng.random() < 0.5 else "",
        filter=draw_filter(gen, word) if gen.on("mcp_tool_filter") and rng.random() < 0.4 else None,
    )


def draw_filter(gen: Generation, word: str) -> list[str]:
    names = [f"{word}_read", f"{word}_list", f"{word}_write"]
    return gen.rng.sample(names, gen.rng.randint(1, 2))


def draw_agent(gen: Generation, app: App, framework: str, stem: str, index: int) -> AgentSpec:
    rng = gen.rng
    word = gen.names.take(AGENT_WORDS)
    name = f"{word}_agent" if framework == ADK else word.capitalize()
    agent = AgentSpec(
        key=f"{framework}{index}",
        framework=framework,
        file=stem,
        var=word,
        name=name,
        construction=gen.pick("construction", framework),
        tools_list=gen.pick("tools_list", framework),
        handoff_ref=gen.pick("handoff_ref", framework) if framework == SDK else "handoff_plain",
        order=rng.randint(0, 99),
        instruction=rng.randint(0, 3),
        adk_class=rng.choice(["Agent", "LlmAgent"]),
        model=rng.randint(0, 2),
        rewire_handoffs=framework == SDK or gen.on("rewire_sub_agents"),
        target_ref=gen.pick("target_ref", framework, default=TARGET_REFS[0]),
    )
    fit_rewire_to_construction(gen, agent)
    if agent.construction == "clone":
        sources = [a for a in app.agents.values() if a.file == stem and can_be_clone_source(a)]
        if sources:
            agent.clone_of = rng.choice(sources).key
        else:
            agent.construction = "module_literal"
    return agent


def fit_rewire_to_construction(gen: Generation, agent: AgentSpec):
    """A rewire of an agent a builder makes is `rewire_factory_result_other_module` (from another
    module) or, for ADK, `adk_rewire_factory_result` (in its own module), and those two shapes only
    go with builders; a pair the enabled shapes cannot spell falls back to a literal list."""
    if agent.construction in ("class_held", "factory_two_calls", "adk_inert_custom_agent") + INSTANCE_AGENTS + SUBCLASS_CHAINS and agent.tools_list in REWIRES:
        agent.tools_list = "literal"  # no module-level name to rewire through
    if agent.construction in OPEN_BUILDERS and agent.tools_list in REWIRES:
        agent.tools_list = "literal"  # which construction the module variable holds is open
    if agent.tools_list in REPLACEMENTS and agent.construction not in IDENTITY_BY_VARIABLE:
        agent.tools_list = "literal"  # a replacement is read of a module-level construction only
    if agent.tools_list == "rewire_other_module" and agent.construction in BUILDERS:
        agent.tools_list = "rewire_factory_result_other_module"
    elif agent.tools_list in SAME_MODULE_REWIRES and agent.construction in BUILDERS and agent.framework == ADK:
        agent.tools_list = "adk_rewire_factory_result"
    elif (agent.tools_list in ("adk_rewire_factory_result", "rewire_factory_result_other_module")
          and agent.construction not in BUILDERS):
        agent.construction = gen.rng.choice([c for c in BUILDERS if gen.on(c)] or ["builder"])
    if not gen.on(agent.tools_list) or not gen.on(agent.construction):
        agent.tools_list, agent.construction = "literal", agent.construction if gen.on(agent.construction) else "module_literal"


def draw_bindings(gen: Generation, app: App, agent: AgentSpec):
    """What a new agent binds: tools, hosted tools, servers of its file, settings, handoffs, agents as tools."""
    rng = gen.rng
    pool = [t.tid for t in app.tools.values() if t.framework == agent.framework]
    for tid in rng.sample(pool, rng.randint(0, min(3, len(pool)))):
        if can_bind(app, agent, app.tools[tid]):
            agent.tools.append(tid)
    if gen.on("hosted_tool") and rng.random() < 0.3:
        cls = rng.choice(HOSTED_BY_FRAMEWORK[agent.framework])
        agent.hosted[cls] = rng.choice(HOSTED_ARGUMENTS[cls])
    servers = [s.key for s in app.servers.values() if s.file == agent.file]
    if servers and rng.random() < 0.5:
        agent.servers = rng.sample(servers, rng.randint(1, len(servers)))
    if agent.framework == SDK and agent.construction != "clone" and gen.on("agent_settings") and rng.random() < 0.25:
        agent.tool_choice = rng.choice(TOOL_CHOICES)
        agent.tool_use_behavior = rng.choice([None, "stop_on_first_tool"])
    if agent.framework == SDK and gen.on("explicit_default_setting") and rng.random() < 0.3:
        agent.spell_default = True
    chance = 0.7 if agent.tools_list in APPEND_LISTS else 0.25
    if agent.tools and (gen.on("conditional_member") or agent.tools_list in APPEND_LISTS) and rng.random() < chance:
        agent.conditions[agent.tools[-1]] = draw_condition(gen, agent.tools[-1])
    if len(agent.tools) > 2 and agent.tools_list in APPEND_LISTS and rng.random() < 0.3:
        agent.conditions[agent.tools[0]] = draw_condition(gen, agent.tools[0])
    if agent.tools_list == "loop_append":
        agent.conditions.clear()  # a loop's display holds plain items (a starred one is not read)
    builder_targets = any(gen.on(s) for s in TARGET_REFS)
    targets = eligible_targets(app, agent, gen.on("cross_module_agents"), "handoffs", builder_targets)
    if gen.on("handoffs") and targets and rng.random() < 0.5:
        agent.handoffs = [t.key for t in rng.sample(targets, rng.randint(1, min(2, len(targets))))]
    # A `nested_local` agent no one references yet is built in this agent's function when it hands off to it.
    unreferenced = [t for t in targets if t.construction == "nested_local" and t.file == agent.file
                    and t.key not in agent.handoffs
                    and not any(t.key in a.handoffs + a.agent_tools for a in app.agents.values())]
    if (gen.on("handoffs") and unreferenced and agent.construction in IN_FUNCTION
            and agent.tools_list in IN_SCOPE_LISTS and rng.random() < 0.7):
        agent.handoffs.append(rng.choice(unreferenced).key)
    # the handoffs may close a cycle
    targets = eligible_targets(app, agent, gen.on("cross_module_agents"), "agent_tools", builder_targets)
    if gen.on("agent_as_tool") and targets and rng.random() < 0.3:
        agent.agent_tools = [rng.choice(targets).key]
    if agent.construction == "adk_inert_custom_agent" and rng.random() < 0.6:
        # Mostly what BaseAgent takes: sub-agents only (the readable case).
        agent.tools, agent.hosted, agent.servers, agent.agent_tools = [], {}, [], []
        agent.conditions = {}


def draw_condition(gen: Generation, tid: str) -> str:
    """The env flag a tool is bound under: `ENABLE_<TOOL>`, `!ENABLE_<TOOL>` (the else branch)."""
    flag = f"ENABLE_{tid.split('@')[0].upper()}"
    return "!" + flag if gen.on("conditional_else") and gen.rng.random() < 0.35 else flag


def draw_app(gen: Generation) -> App:
    rng = gen.rng
    app = App()
    frameworks = rng.choice([[SDK], [ADK], [SDK, ADK]])
    for framework in frameworks:
        count = rng.choice([1, 1, 2])
        app.agent_files[framework] = [f"{framework}_{'ab'[i]}" for i in range(count)]
    for framework in frameworks:
        for _ in range(rng.randint(2, 5)):
            tool = draw_tool(gen, app, framework)
            app.tools[tool.tid] = tool
        if gen.on("same_name_tools") and rng.random() < 0.5:
            twin = draw_twin(gen, app, rng.choice([t for t in app.tools.values() if t.framework == framework]))
            if twin:
                app.tools[twin.tid] = twin
        if gen.on("mcp_server"):
            for stem in app.agent_files[framework]:
                for _ in range(rng.randint(0, 2)):
                    server = draw_server(gen, framework, stem)
                    app.servers[server.key] = server
    index = 0
    for framework in frameworks:
        for stem in app.agent_files[framework]:
            for _ in range(rng.randint(1, 3)):
                agent = draw_agent(gen, app, framework, stem, index)
                index += 1
                app.agents[agent.key] = agent
                draw_bindings(gen, app, agent)
    for stems in app.agent_files.values():
        for stem in stems:
            draw_style(gen, app, stem)
    for stem in sorted({t.module for t in app.tools.values()}):
        draw_style(gen, app, stem)
    if any(t.wrapper != "undecorated" for t in app.tools.values()):
        draw_style(gen, app, "decorators")
    app.package_init = gen.pick("package_init", SDK)
    return app


def draw_style(gen: Generation, app: App, stem: str):
    """How module `stem` is spelled (nothing of it is a binding)."""
    rng = gen.rng
    style = app.style(stem)
    style.quote = rng.choice(['"', "'"])
    style.multiline = rng.random() < 0.3
    style.comments = rng.choice([0, 0, rng.randint(1, 9)])
    style.header = rng.randint(0, len(HEADERS) - 1)
    style.class_spelling = gen.pick("class_spelling", SDK)
    style.alias_agents = rng.random() < 0.3
    style.tool_name_constants = gen.on("tool_name_constant") and rng.random() < 0.3
    style.hosted_branches = gen.on("hosted_argument_branches") and rng.random() < 0.4
    style.rebind_imported_agents = gen.on("rebound_after_construction") and rng.random() < 0.5
    refs = shapes_for(gen.enabled, "tool_ref", SDK)
    for module in sum(TOOL_MODULES.values(), []) + sum(app.agent_files.values(), []):
        style.import_style[module] = rng.choice(refs)


def draw_twin(gen: Generation, app: App, original: Tool) -> Optional[Tool]:
    """A tool of the same name in another module: the same text, or a different body."""
    twin = copy.deepcopy(original)
    twin.key = f"{original.name}@{len(app.tools)}"
    twin.order = gen.rng.randint(0, 99)
    if gen.rng.random() < 0.5:
        twin.body += gen.rng.randint(1, 3)
    modules = [m for m in draw_module_options(gen, app, original.framework) if module_allowed(app, twin, m)]
    if not modules:
        return None
    twin.module = gen.rng.choice(modules)
    return twin
