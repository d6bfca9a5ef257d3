"""Self-check: run the rendered programs against stub frameworks.

The renderer is held to the model without the engine: each version is imported (never the real
frameworks: small stubs of `agents`, `google.adk` and `mcp` that record every agent built), and
what each agent holds at run time must be what the model says it binds."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile

from .catalogue import FACTORY_CALLS
from .draw import TOOL_WORDS
from .engine import write_files
from .model import App, SDK, negated
from .naming import dotted
from .program import Program
from .render import render
from .truth import agent_ident, agent_settings, agent_tool_row_name, condition_of, tool_row_name

STUBS = {
    "agents/__init__.py": """
import copy
REGISTRY = []
class FunctionTool:
    def __init__(self, func, name):
        self.func, self.name = func, name
def function_tool(func=None, *, name_override=None):
    if func is None:
        return lambda f: FunctionTool(f, name_override or f.__name__)
    return FunctionTool(func, name_override or func.__name__)
class WebSearchTool:
    def __init__(self, search_context_size=None):
        self.size = search_context_size
class Handoff:
    def __init__(self, agent):
        self.agent = agent
def handoff(agent):
    return Handoff(agent)
class ModelSettings:
    def __init__(self, tool_choice=None):
        self.tool_choice = tool_choice
class AsTool:
    def __init__(self, agent, tool_name):
        self.agent, self.tool_name = agent, tool_name
class Agent:
    def __class_getitem__(cls, item):
        return cls
    def __init__(self, name, instructions=None, tools=None, handoffs=None, mcp_servers=None, model=None,
                 model_settings=None, tool_use_behavior="run_llm_again", handoff_description=None):
        self.name, self.tools, self.handoffs, self.mcp_servers = name, tools if tools is not None else [], handoffs if handoffs is not None else [], mcp_servers if mcp_servers is not None else []
        self.model_settings, self.tool_use_behavior = model_settings, tool_use_behavior
        REGISTRY.append(("sdk", self))
    def clone(self, **kwargs):
        other = copy.copy(self)
        for key, value in kwargs.items():
            setattr(other, key, value)
        REGISTRY.append(("sdk", other))
        return other
    def as_tool(self, tool_name=None, tool_description=None):
        return AsTool(self, tool_name)
""",
    "agents/mcp.py": """
class MCPServerStdio:
    def __init__(self, name=None, params=None, tool_filter=None):
        self.name, self.params, self.tool_filter = name, params, tool_filter
def create_static_tool_filter(allowed_tool_names=None):
    return sorted(allowed_tool_names)
""",
    "google/__init__.py": "",
    "google/adk/__init__.py": "",
    "google/adk/agents/__init__.py": """
import agents
class LlmAgent:
    def __init__(self, name, model=None, instruction=None, tools=None, sub_agents=None, output_key=None):
        self.name, self.tools, self.sub_agents = name, tools if tools is not None else [], sub_agents if sub_agents is not None else []
        agents.REGISTRY.append(("adk", self))
Agent = LlmAgent
BaseAgent = LlmAgent
""",
    "google/adk/events/__init__.py": """
class Event:
    def __init__(self, author=None, content=None):
        self.author, self.content = author, content
""",
    "google/adk/tools/__init__.py": """
class FunctionTool:
    def __init__(self, func):
        self.func = func
class LongRunningFunctionTool(FunctionTool):
    pass
class BuiltIn:
    def __init__(self, name):
        self.name = name
google_search = BuiltIn("google_search")
load_memory = BuiltIn("load_memory")
""",
    "google/adk/tools/agent_tool.py": """
class AgentTool:
    def __init__(self, agent):
        self.agent = agent
""",
    "google/adk/tools/mcp_tool/__init__.py": """
class McpToolset:
    def __init__(self, connection_params, tool_filter=None):
        self.params, self.tool_filter = connection_params.server_params, tool_filter
""",
    "google/adk/tools/mcp_tool/mcp_session_manager.py": """
class StdioConnectionParams:
    def __init__(self, server_params):
        self.server_params = server_params
""",
    "typing_extensions.py": """
def override(method):
    return method
""",
    "mcp/__init__.py": """
class StdioServerParameters:
    def __init__(self, command, args):
        self.command, self.args = command, args
""",
}


RUNTIME_PROBE = """
import importlib, json, os, sys
import agents
modules = sys.argv[1:]
for name in modules:
    module = importlib.import_module(name)
    for attr in list(vars(module)):
        if attr.endswith("Holder") and isinstance(getattr(module, attr), type):
            init = getattr(getattr(module, attr).__init__, "__code__", None)
            if init is None or init.co_argcount == 1:  # else an instantiation of the module passes its list
                getattr(module, attr)()
        if attr.endswith("_holder") and hasattr(getattr(module, attr), "create_agent"):
            getattr(module, attr).create_agent()
def describe(framework, item):
    kind = type(item).__name__
    if framework == "sdk" and kind == "FunctionTool":
        return ["function", item.name, item.func.__module__]
    if kind in ("FunctionTool", "LongRunningFunctionTool"):
        return ["function", item.func.__name__, item.func.__module__]
    if kind == "function":
        return ["function", item.__name__, item.__module__]
    if kind == "WebSearchTool":
        return ["hosted", "WebSearchTool", item.size or ""]
    if kind == "BuiltIn":
        return ["hosted", item.name, ""]
    if kind == "AsTool":
        return ["agent_tool", item.tool_name, item.agent.name]
    if kind == "AgentTool":
        return ["agent_tool", item.agent.name, item.agent.name]
    if kind == "MCPServerStdio":
        return ["mcp", item.params["command"], list(item.params["args"]), item.tool_filter]
    if kind == "McpToolset":
        return ["mcp", item.params.command, list(item.params.args), sorted(item.tool_filter) if item.tool_filter is not None else None]
    if kind == "Handoff":
        return ["handoff", item.agent.name]
    if kind in ("Agent", "LlmAgent"):
        return ["handoff", item.name]
    return ["unknown", kind]
out = {}
for framework, agent in agents.REGISTRY:
    members = list(agent.tools) + (list(agent.handoffs) + list(agent.mcp_servers) if framework == "sdk" else list(agent.sub_agents))
    settings = None
    if framework == "sdk":
        choice = agent.model_settings.tool_choice if agent.model_settings else None
        settings = [choice, agent.tool_use_behavior]
    out[agent.name] = {"members": sorted(json.dumps(describe(framework, m)) for m in members), "settings": settings}
print(json.dumps(out))
"""


def expected_runtime(app: App) -> dict[str, dict]:
    """What each agent (by name=) holds at run time, as RUNTIME_PROBE describes it (every ENABLE_*
    flag and EXTRA_TOOLS set: a member of an else branch is not held)."""
    out = {}
    settings = agent_settings(app)
    for agent in app.agents.values():
        members = []
        for tid in agent.tools:
            tool = app.tools[tid]
            if negated(condition_of(agent, tid) or ""):
                continue
            members.append(["function", tool_row_name(tool) if agent.framework == SDK else tool.name, dotted(tool.module)])
        members += [["hosted", cls, argument] for cls, argument in agent.hosted.items()]
        for key in agent.agent_tools:
            target = app.agents[key]
            members.append(["agent_tool", agent_tool_row_name(target), target.name])
        for key in agent.servers:
            server = app.servers[key]
            allowed = sorted(server.filter) if server.filter is not None else None
            members.append(["mcp", server.command, list(server.args), allowed])
        members += [["handoff", app.agents[k].name] for k in agent.handoffs]
        entry = {"members": sorted(json.dumps(m) for m in members), "settings": None}
        if agent.framework == SDK:
            entry["settings"] = list(settings[agent_ident(agent)][0][1:])
        out[agent.name] = entry
        if agent.construction in FACTORY_CALLS:  # the second call, named (unset env) by its default
            out[f"{agent.var}_preview"] = entry
    return out


def runtime_bindings(files: dict[str, str]) -> dict[str, dict]:
    """Import one rendered version over the stub frameworks; what each agent holds."""
    root = tempfile.mkdtemp(prefix="known-truth-run-")
    try:
        write_files(root, {f"stubs/{p}": t for p, t in STUBS.items()})
        write_files(root, {f"src/{p}": t for p, t in files.items()})
        modules = sorted(path[:-3].replace("/", ".").removesuffix(".__init__") for path in files)
        env = dict(os.environ, PYTHONPATH=f"{root}/src:{root}/stubs", EXTRA_TOOLS="1", PYTHONDONTWRITEBYTECODE="1")
        env.update({f"ENABLE_{w.upper()}": "1" for w in TOOL_WORDS})
        done = subprocess.run([sys.executable, "-c", RUNTIME_PROBE, *modules], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "probe failed")
        return json.loads(done.stdout.strip().splitlines()[-1])  # the program may print too
    finally:
        shutil.rmtree(root, ignore_errors=True)


def self_check(program: Program) -> list[str]:
    """Differences between what the rendered versions hold at run time and what the models say."""
    problems = []
    for label, app in (("base", program.base), ("head", program.head())):
        files = render(app).files
        try:
            actual = runtime_bindings(files)
        except RuntimeError as error:
            problems.append(f"{label}: the program does not run: {error}")
            continue
        expected = expected_runtime(app)
        for name in sorted(expected.keys() | actual.keys()):
            if expected.get(name) != actual.get(name):
                problems.append(f"{label}: agent {name!r} holds {actual.get(name)}, the model says {expected.get(name)}")
    return problems
