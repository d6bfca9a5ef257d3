"""Recording stubs of the frameworks: OpenAI Agents SDK (`agents`) and Google ADK (`google.adk`).

Every agent and tool-ish object built during the import is remembered in REC with where it was
built (sites.call_site) and the name it is assigned to; the agents' lists are read after the
import (collect), so later changes such as `agent.tools.append(x)` count.
"""

import importlib
import re
import types

from .names import ADK_AGENT_CLASSES, ADK_BUILT_INS, ADK_TOOL_CLASSES, ADK_TOOLSET_CLASSES, SDK_HOSTED, SDK_MCP
from .sites import assigned_to, call_site
from .stubs import _SelfContext, _Stub, is_decoratee, new_stub_class, set_attributes

REC = {"agents": [], "objects": []}


def _remember(obj, kind, site, stack, extra=None):
    entry = {"obj": obj, "kind": kind, "site": site, "stack": stack,
             "assigned_to": assigned_to(site)}
    if extra:
        entry.update(extra)
    return entry


def sdk_transform(name):
    n = re.sub(r"\s", "_", str(name))
    return re.sub(r"[^a-zA-Z0-9_]", "_", n).lower()


class _RecMeta(type):
    """Class-level attributes a framework class has that the recorder
    does not model (`LlmAgent.model_fields`) are permissive stubs."""

    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        # the recorder's own classes say `__main__`, as when the recorder was one script
        module = "__main__" if cls.__module__ == __name__ else cls.__module__
        return new_stub_class(name, module)


class _Recorded(metaclass=_RecMeta):
    """A recorded framework object (an agent or a tool-ish object): subclassable, subscriptable,
    and what it does not model is a permissive stub."""
    _sg_stub_module = "recorder"  # the module those stubs say they come from

    def __init_subclass__(cls, **kw):
        pass

    def __class_getitem__(cls, item):
        return cls

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return new_stub_class(name, self._sg_stub_module)()


class _RecordingObject(_SelfContext, _Recorded):
    """A tool-ish framework object: hosted tool, MCP server, toolset,
    FunctionTool, AgentTool, as_tool, handoff()."""
    _sg_kind = "object"

    def __init__(self, *a, **k):
        self._sg_args = a
        self._sg_kwargs = dict(k)
        set_attributes(self, k)
        site, stack = call_site(skip_self=self)
        self._sg_site = site
        self._sg_entry = _remember(self, self._sg_kind, site, stack)
        REC["objects"].append(self._sg_entry)


# -- SDK ---------------------------------------------------------------
class SdkFunctionTool(_RecordingObject):
    _sg_kind = "function_tool"

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.name = k.get("name", a[0] if a else None)

    def __call__(self, *a, **k):
        return new_stub_class("result", "agents")()


def sdk_function_tool(func=None, *, name_override=None, **kw):
    def make(f):
        t = SdkFunctionTool.__new__(SdkFunctionTool)
        _RecordingObject.__init__(t, **kw)
        t.name = name_override or getattr(f, "__name__", None)
        t.func = f
        t._sg_name_override = name_override
        return t

    if func is not None and callable(func):
        return make(func)
    return make


class SdkHostedTool(_RecordingObject):
    _sg_kind = "hosted_tool"


class SdkMCPServer(_RecordingObject):
    _sg_kind = "mcp_server"

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.name = k.get("name")


class SdkHandoff(_RecordingObject):
    _sg_kind = "handoff"


def sdk_handoff(agent=None, *a, **k):
    h = SdkHandoff(*a, **k)
    h.agent = agent
    h.agent_name = getattr(agent, "name", None)
    h.tool_name = k.get("tool_name_override")
    return h


class SdkAgentAsTool(_RecordingObject):
    _sg_kind = "agent_as_tool"


class _RecordedAgent(_Recorded):
    """What the SDK's and the ADK's agent classes share: each agent built is remembered in REC."""
    _sg_framework = None

    def _sg_record(self, k):
        """The keywords the class does not model kept as attributes; the agent remembered."""
        set_attributes(self, k)
        self._sg_kwargs = k
        site, stack = call_site(skip_self=self)
        self._sg_entry = _remember(self, "agent", site, stack,
                                   {"class": type(self).__name__, "framework": self._sg_framework})
        REC["agents"].append(self._sg_entry)

    def _sg_cloned_from(self, source, overrides):
        self._sg_entry["clone_of"] = source._sg_entry
        self._sg_entry["clone_overrides"] = sorted(overrides)


SDK_FIELDS = ["name", "handoff_description", "tools", "mcp_servers", "mcp_config",
              "instructions", "prompt", "handoffs", "model", "model_settings"]


class SdkAgent(_RecordedAgent):
    _sg_framework = "openai_agents_sdk"
    _sg_stub_module = "agents"

    def __init__(self, *a, **k):
        for i, value in enumerate(a[: len(SDK_FIELDS)]):
            k.setdefault(SDK_FIELDS[i], value)
        self.name = k.pop("name", None)
        self.tools = k.pop("tools", None)
        if self.tools is None:
            self.tools = []
        self.handoffs = k.pop("handoffs", None)
        if self.handoffs is None:
            self.handoffs = []
        self.mcp_servers = k.pop("mcp_servers", None)
        if self.mcp_servers is None:
            self.mcp_servers = []
        self._sg_record(k)

    def clone(self, **k):
        new = type(self).__new__(type(self))
        fields = dict(self.__dict__)
        fields.pop("_sg_entry", None)
        fields.pop("_sg_kwargs", None)
        fields.update(k)
        SdkAgent.__init__(new, **fields)
        new._sg_cloned_from(self, k)
        return new

    def as_tool(self, tool_name=None, tool_description=None, *a, **k):
        t = SdkAgentAsTool(tool_name=tool_name, **k)
        t.agent = self
        t.name = tool_name if tool_name else sdk_transform(self.name)
        return t


SdkAgent.__name__ = SdkAgent.__qualname__ = "Agent"


def sdk_tool_namespace(*a, name=None, description=None, tools=(), **k):
    # the SDK returns copies of the function tools, names unchanged
    return list(tools or [])


SDK_NAMES = {
    "Agent": SdkAgent,
    "tool_namespace": sdk_tool_namespace,
    "function_tool": sdk_function_tool,
    "FunctionTool": SdkFunctionTool,
    "handoff": sdk_handoff,
    "Handoff": SdkHandoff,
}
for _n in SDK_HOSTED:
    SDK_NAMES[_n] = type(_n, (SdkHostedTool,), {})
for _n in SDK_MCP:
    SDK_NAMES[_n] = type(_n, (SdkMCPServer,), {})


def sdk_attr(modname, name):
    if name == "tool" and modname == "agents.decorators":
        return sdk_function_tool
    if name in SDK_NAMES:
        return SDK_NAMES[name]
    return None


# -- ADK ---------------------------------------------------------------
class AdkTool(_RecordingObject):
    _sg_kind = "adk_tool"

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        func = k.get("func", a[0] if a else None)
        agent = k.get("agent", a[0] if a and isinstance(a[0], AdkAgent) else None)
        self.func = func
        self.agent = agent
        name = k.get("name")
        if name is None and isinstance(agent, AdkAgent):
            name = agent.name
        if name is None and func is not None:
            name = getattr(func, "__name__", None)
        self.name = name


class AdkToolset(_RecordingObject):
    _sg_kind = "adk_toolset"


class AdkBaseTool(_RecordingObject):
    _sg_kind = "adk_tool"

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.name = k.get("name", a[0] if a else getattr(self, "name", None))


class AdkAgent(_RecordedAgent):
    _sg_framework = "google_adk"
    _sg_stub_module = "google.adk"

    def __init__(self, *a, **k):
        if a and "name" not in k:
            k["name"] = a[0]
        # declared class defaults (pydantic fields) first
        self.name = k.pop("name", None)
        tools = k.pop("tools", None)
        subs = k.pop("sub_agents", None)
        # pydantic validates a list field into a new list: a later change
        # to the list passed in is not the agent's
        self.tools = list(tools) if tools is not None else []
        self.sub_agents = list(subs) if subs is not None else []
        self._sg_record(k)
        post = getattr(type(self), "model_post_init", None)
        if callable(post) and not isinstance(post, _Stub):
            try:
                post(self, None)
            except Exception:
                pass

    def clone(self, update=None, **k):
        new = type(self).__new__(type(self))
        fields = {key: value for key, value in self.__dict__.items() if not key.startswith("_sg_")}
        fields.update(update or {})
        AdkAgent.__init__(new, **fields)
        new._sg_cloned_from(self, update or {})
        return new

    model_copy = clone


ADK_NAMES = {}
for _n in ADK_AGENT_CLASSES:
    ADK_NAMES[_n] = AdkAgent if _n == "BaseAgent" else type(_n, (AdkAgent,), {})
ADK_NAMES["Agent"] = ADK_NAMES["LlmAgent"]
for _n in ADK_TOOL_CLASSES:
    ADK_NAMES[_n] = type(_n, (AdkTool,), {})
ADK_NAMES["BaseTool"] = AdkBaseTool
for _n in ADK_TOOLSET_CLASSES:
    ADK_NAMES[_n] = type(_n, (AdkToolset,), {})
ADK_NAMES["BaseToolset"] = AdkToolset
ADK_NAMES["MCPToolset"] = ADK_NAMES["McpToolset"]

adk_builtins = {}


def _adk_builtin(export):
    clsname, runtime = ADK_BUILT_INS[export]
    if clsname is None:
        def f(*a, **k):
            return None
        f.__name__ = f.__qualname__ = runtime
        return f
    key = (clsname, runtime)
    if key not in adk_builtins:
        t = ADK_NAMES[clsname].__new__(ADK_NAMES[clsname])
        t._sg_args, t._sg_kwargs = (), {}
        t.name = runtime
        t.func = None
        t.agent = None
        t._sg_site = None
        t._sg_builtin = sorted({runtime} | {e for e, v in ADK_BUILT_INS.items() if v == (clsname, runtime)})
        t._sg_entry = {"obj": t, "kind": "adk_builtin", "site": None, "stack": [], "assigned_to": None}
        adk_builtins[key] = t
    return adk_builtins[key]


def adk_attr(modname, name):
    if name in ADK_BUILT_INS and modname.startswith("google.adk.tools"):
        return _adk_builtin(name)
    return ADK_NAMES.get(name)


class _FrameworkModule(_SelfContext, types.ModuleType):
    """A module of a stubbed framework (or `google`): the recorded names
    by name at any depth, a lowercase name is a submodule (callable,
    usable as a decorator or context manager, like a stub), anything
    else a permissive stub class."""

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        if name.startswith("_sg_"):
            raise AttributeError(name)
        v = None
        if self._sg_framework == "sdk":
            v = sdk_attr(self.__name__, name)
        elif self._sg_framework == "adk":
            v = adk_attr(self.__name__, name)
        if v is None and name[:1].islower():
            try:
                v = importlib.import_module(self.__name__ + "." + name)
            except Exception:
                v = None
        if v is None:
            v = new_stub_class(name, self.__name__)
        setattr(self, name, v)
        return v

    def __call__(self, *a, **k):
        if is_decoratee(a, k):
            return a[0]
        return new_stub_class("result", self.__name__)()

    def __iter__(self):
        return iter(())

    def __getitem__(self, item):
        return self
