"""Where things live: the scope directory the application is rendered under and its module names."""

from __future__ import annotations

from .model import ADK, AgentSpec, SDK

SCOPE = "app"  # the directory the application is rendered under, and the engine's --scope
TOOL_MODULES = {SDK: ["sdk_tools", "lib/sdk_more", "sdk_pkg/__init__"],
                ADK: ["adk_tools", "lib/adk_more", "adk_pkg/__init__"]}


DECORATORS_MODULE = "decorators"  # the repository decorators of the `tool_wrapper` shapes


def builder_name(agent: AgentSpec) -> str:
    """The builder function of an agent built in one: `build_x`."""
    return f"build_{agent.list_name or agent.var}"


def module_path(stem: str) -> str:
    return f"{stem}.py"


def module_name(stem: str) -> str:
    """The module's dotted name below the scope: a package's __init__ is the package."""
    return stem.removesuffix("/__init__").replace("/", ".")


def dotted(stem: str) -> str:
    return f"{SCOPE}.{module_name(stem)}"


def relative_module(stem: str) -> str:
    return "." + module_name(stem)


def module_alias_name(stem: str) -> str:
    return module_name(stem).split(".")[-1] + "_mod"


def lists_module(agent: AgentSpec) -> str:
    """Where `imported_constant` lists live."""
    return f"{agent.framework}_lists"


def servers_module(framework: str) -> str:
    return f"{framework}_servers"


def wiring_module(framework: str) -> str:
    """Where the rewires from another module (`rewire_other_module`, ...) add to agents."""
    return f"{framework}_wiring"
