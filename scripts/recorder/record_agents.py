#!/usr/bin/env python3
"""Import-time recorder of OpenAI Agents SDK / Google ADK agents (a test tool).

It is never imported by shipgate. It RUNS the code of the repository it is
given, so it only ever does so in throwaway child processes:

  * the commit's tree is extracted (`git archive`) into a temporary directory,
    which is deleted afterwards;
  * a throwaway virtual environment (`python3 -m venv --without-pip`) is made
    once per run; nothing is installed into it, and the child runs it with
    `-I -S` (no site-packages, no PYTHON* variables, no user site);
  * each module that mentions `agents` or `google.adk` is imported in its own
    child process, with a timeout, under `unshare --net` (no network
    namespace interfaces but loopback) when available, as user `nobody`
    (`setpriv`) when run as root, with a minimal environment (no API keys),
    HOME and TMPDIR in the temporary directory, resource limits, and
    `socket.socket` / `socket.create_connection` replaced by functions that
    raise;
  * the frameworks are replaced by recording stubs (`agents`, `google.adk`),
    and every other third-party import by permissive stub modules.

Each agent object constructed during the import is recorded with its
framework, name, construction site, and (read when the import ends, so later
mutations such as `agent.tools.append(x)` count) its tools, handoffs,
sub-agents and MCP servers.

Usage:
    record_agents.py --repo PATH --commit REV [--out FILE.jsonl]
                     [--timeout 20] [--jobs 2] [--cache DIR] [--include-tests]
                     [--only PATH ...]

Output: JSON lines; `{"type": "agent", ...}` per distinct agent seen and
`{"type": "module", ...}` per module imported (status ok / timeout / error),
and a final `{"type": "run", ...}` summary line.

The same file is also the child program (`--child`), run by the venv's
interpreter; that mode uses the standard library only.
"""

import os
import sys

def _recorder_version():
    """Cached results are valid only for this very recorder."""
    import hashlib
    with open(os.path.abspath(__file__), "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:16]

# --------------------------------------------------------------------------
# Child side: runs inside the sandboxed subprocess.
# --------------------------------------------------------------------------

SDK_HOSTED = {
    "ApplyPatchTool", "CodeInterpreterTool", "ComputerTool", "CustomTool",
    "FileSearchTool", "HostedMCPTool", "ImageGenerationTool", "LocalShellTool",
    "ProgrammaticToolCallingTool", "ShellTool", "ToolSearchTool", "WebSearchTool",
}
SDK_MCP = {"MCPServerStdio", "MCPServerSse", "MCPServerStreamableHttp", "MCPServer"}

ADK_AGENT_CLASSES = {
    "Agent", "LlmAgent", "SequentialAgent", "ParallelAgent", "LoopAgent",
    "BaseAgent", "RemoteA2aAgent", "LangGraphAgent",
}
ADK_TOOL_CLASSES = {
    "AgentTool", "AuthenticatedFunctionTool", "BaseAuthenticatedTool",
    "BaseRetrievalTool", "BigQueryTool", "BigtableParameterizedViewTool",
    "BuiltInCodeExecutionTool", "ComputerUseTool", "CrewaiTool",
    "DiscoveryEngineSearchTool", "EnterpriseWebSearchTool", "ExampleTool",
    "ExecuteBashTool", "FilesRetrieval", "FunctionTool", "GoogleApiTool",
    "GoogleMapsGroundingTool", "GoogleSearchAgentTool", "GoogleSearchTool",
    "GoogleTool", "IntegrationConnectorTool", "LangchainTool", "ListSkillsTool",
    "LlamaIndexRetrieval", "LoadArtifactsTool", "LoadMcpResourceTool",
    "LoadMemoryTool", "LoadSkillResourceTool", "LoadSkillTool",
    "LongRunningFunctionTool", "MCPTool", "McpTool", "ModelConsultTool",
    "PreloadMemoryTool", "RestApiTool", "RunSkillScriptTool", "SearchSkillsTool",
    "SetModelResponseTool", "TransferToAgentTool", "UnloadSkillTool",
    "UrlContextTool", "VertexAiLoadProfilesTool", "VertexAiRagRetrieval",
    "VertexAiSearchTool",
}
ADK_TOOLSET_CLASSES = {
    "APIHubToolset", "AgentRegistrySingleMcpToolset", "ApplicationIntegrationToolset",
    "BigQueryToolset", "BigtableToolset", "CalendarToolset", "ComputerUseToolset",
    "DataAgentToolset", "DocsToolset", "EnvironmentToolset", "EventarcToolset",
    "GCSAdminToolset", "GCSToolset", "GmailToolset", "GoogleApiToolset",
    "LiveKitToolset", "MCPToolset", "McpToolset", "MongoDbToolset",
    "OpenAPIToolset", "PubSubToolset", "SheetsToolset", "SkillToolset",
    "SlidesToolset", "SpannerAdminToolset", "SpannerToolset", "ToolboxToolset",
    "YoutubeToolset",
}
# module-level tool instances the ADK ships: export name -> (class, the
# instance's own name); one instance per class, as in the ADK
ADK_BUILT_INS = {
    "google_search": ("GoogleSearchTool", "google_search"),
    "built_in_code_execution": ("BuiltInCodeExecutionTool", "code_execution"),
    "enterprise_web_search_tool": ("EnterpriseWebSearchTool", "enterprise_web_search"),
    "enterprise_web_search": ("EnterpriseWebSearchTool", "enterprise_web_search"),
    "get_user_choice_tool": ("LongRunningFunctionTool", "get_user_choice"),
    "get_user_choice": ("LongRunningFunctionTool", "get_user_choice"),
    "google_maps_grounding": ("GoogleMapsGroundingTool", "google_maps_grounding"),
    "load_artifacts_tool": ("LoadArtifactsTool", "load_artifacts"),
    "load_artifacts": ("LoadArtifactsTool", "load_artifacts"),
    "load_memory": ("LoadMemoryTool", "load_memory"),
    "load_memory_tool": ("LoadMemoryTool", "load_memory"),
    "preload_memory_tool": ("PreloadMemoryTool", "preload_memory"),
    "preload_memory": ("PreloadMemoryTool", "preload_memory"),
    "request_input": ("FunctionTool", "request_input"),
    "url_context": ("UrlContextTool", "url_context"),
    "exit_loop": (None, "exit_loop"),  # plain functions in google.adk.tools
    "transfer_to_agent": (None, "transfer_to_agent"),
}


def child_main(argv):
    import argparse
    import ast
    import builtins
    import importlib
    import importlib.abc
    import importlib.machinery
    import importlib.util
    import io
    import json
    import re
    import signal
    import socket
    import time
    import traceback
    import types
    import inspect

    ap = argparse.ArgumentParser()
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--root", required=True)
    ap.add_argument("--module-path", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=float, default=20.0)
    args = ap.parse_args(argv)

    root = os.path.realpath(args.root)
    relpath = args.module_path
    started = time.time()
    this_file = os.path.realpath(__file__)

    # ---- resource limits ----------------------------------------------
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        gib = 2 * 1024 ** 3
        resource.setrlimit(resource.RLIMIT_AS, (gib, gib))
        cpu = int(args.timeout) + 5
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
    except Exception:
        pass

    # ---- no network (in addition to the network namespace) ------------
    def _no_network(*a, **k):
        raise OSError("network disabled by the shipgate recorder")

    class _NoSocket(socket.socket):
        def __init__(self, family=-1, *a, **k):
            if family == getattr(socket, "AF_UNIX", object()):
                return super().__init__(family, *a, **k)
            raise OSError("network disabled by the shipgate recorder")

    socket.socket = _NoSocket
    socket.create_connection = _no_network
    socket.getaddrinfo = _no_network
    socket.gethostbyname = _no_network
    # socket.socketpair stays: an asyncio event loop needs it, and it is local

    # ---- environment: a missing os.environ[...] is a placeholder ----------
    _orig_getitem = type(os.environ).__getitem__

    def _env_getitem(self, key):
        try:
            return _orig_getitem(self, key)
        except KeyError:
            return "0"  # a placeholder that int(), float() and str use alike

    def _env_has(self, key):
        try:
            _orig_getitem(self, key)
            return True
        except KeyError:
            return False

    def _env_get(self, key, default=None):
        return _orig_getitem(self, key) if _env_has(self, key) else default

    def _env_setdefault(self, key, default=None):
        if not _env_has(self, key):
            self[key] = default
        return _orig_getitem(self, key)

    _missing = object()

    def _env_pop(self, key, default=_missing):
        if _env_has(self, key):
            value = _orig_getitem(self, key)
            del self[key]
            return value
        if default is _missing:
            raise KeyError(key)
        return default

    # only `os.environ[NAME]` of a missing NAME changes: get/getenv/in/
    # setdefault/pop keep their meaning (the variable is unset)
    _orig_setitem = type(os.environ).__setitem__

    def _env_setitem(self, key, value):
        # a stub's value (a project id from a stubbed google.auth) is a string
        _orig_setitem(self, key, value if isinstance(value, str) else str(value))

    os.environ.__class__ = type("_RecEnviron", (type(os.environ),), {
        "__getitem__": _env_getitem, "__setitem__": _env_setitem, "__contains__": _env_has, "get": _env_get,
        "setdefault": _env_setdefault, "pop": _env_pop})

    # ---- which repo files were read (for the caller's cache) ------------
    opened = set()
    _orig_open = builtins.open

    def _rec_open(file, *a, **k):
        try:
            p = os.path.realpath(os.fspath(file)) if not isinstance(file, int) else None
            if p and p.startswith(root + os.sep):
                opened.add(os.path.relpath(p, root))
        except Exception:
            pass
        return _orig_open(file, *a, **k)

    builtins.open = _rec_open
    io.open = _rec_open

    # ---- helpers: where a call is written --------------------------------
    ast_cache = {}

    def rel(path):
        try:
            p = os.path.realpath(path)
        except Exception:
            return None
        if p.startswith(root + os.sep):
            return os.path.relpath(p, root)
        return None

    def position(frame):
        try:
            return list(frame.f_code.co_positions())[frame.f_lasti // 2]
        except Exception:
            return (frame.f_lineno, frame.f_lineno, None, None)

    def call_site(skip_self=None):
        """First frame of a repository file that is not the recorder and not
        a method of the object being built."""
        f = sys._getframe(1)
        site = None
        stack = []
        while f is not None:
            fn = f.f_code.co_filename
            if os.path.realpath(fn) == this_file or fn.startswith("<"):
                f = f.f_back
                continue
            if skip_self is not None and f.f_locals.get("self") is skip_self:
                f = f.f_back
                continue
            r = rel(fn)
            if r is not None:
                qual = getattr(f.f_code, "co_qualname", f.f_code.co_name)
                if site is None:
                    pos = position(f)
                    site = {"file": r, "line": f.f_lineno, "col": pos[2],
                            "function": qual}
                if len(stack) < 8:
                    stack.append("%s:%d:%s" % (r, f.f_lineno, qual))
            f = f.f_back
        return site, stack

    def parse(relfile):
        if relfile not in ast_cache:
            try:
                with _orig_open(os.path.join(root, relfile), "rb") as fh:
                    ast_cache[relfile] = ast.parse(fh.read())
            except Exception:
                ast_cache[relfile] = None
        return ast_cache[relfile]

    def target_text(t):
        if isinstance(t, ast.Name):
            return t.id
        if isinstance(t, ast.Attribute):
            base = target_text(t.value)
            return base + "." + t.attr if base else None
        return None

    def assigned_to(site):
        """The plain name (or dotted attribute) a call at `site` is assigned
        to, when it is the whole right-hand side of an assignment or a
        `with ... as name` item."""
        if not site:
            return None
        tree = parse(site["file"])
        if tree is None:
            return None
        line, col = site["line"], site["col"]

        def is_it(value):
            while isinstance(value, ast.Await):
                value = value.value
            return (isinstance(value, ast.Call) and value.lineno == line
                    and (col is None or value.col_offset == col))

        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and is_it(node.value):
                return target_text(node.targets[0])
            if isinstance(node, ast.AnnAssign) and node.value is not None and is_it(node.value):
                return target_text(node.target)
            if isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if is_it(item.context_expr) and item.optional_vars is not None:
                        return target_text(item.optional_vars)
        return None

    call_index = {}

    def call_at(site):
        """The ast.Call written at `site` (line and column of the call)."""
        if not site or site.get("col") is None:
            return None
        f = site["file"]
        if f not in call_index:
            idx = {}
            tree = parse(f)
            for node in ast.walk(tree) if tree is not None else []:
                if isinstance(node, ast.Call):
                    idx[(node.lineno, node.col_offset)] = node
            call_index[f] = idx
        return call_index[f].get((site["line"], site["col"]))

    def last_name(node):
        if isinstance(node, ast.Call):
            node = node.func
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            return node.attr
        return None

    # ---- permissive stubs --------------------------------------------
    import abc

    def _is_decoratee(a, k):
        return (len(a) == 1 and not k and (
            inspect.isfunction(a[0]) or inspect.isclass(a[0]) or inspect.ismethod(a[0])
            or isinstance(a[0], (staticmethod, classmethod, property, functools_partial))))

    import functools
    import dis
    functools_partial = functools.partial
    UNPACK_SEQUENCE = dis.opmap.get("UNPACK_SEQUENCE")
    UNPACK_EX = dis.opmap.get("UNPACK_EX")

    def _stub_iter(module):
        """Iterating a stub yields nothing, except where the caller unpacks
        it (`creds, project = google.auth.default()`): then as many stubs as
        the unpacking takes."""
        n = 0
        try:
            f = sys._getframe(2)
            code = f.f_code.co_code
            op, arg = code[f.f_lasti], code[f.f_lasti + 1]
            if op == UNPACK_SEQUENCE:
                n = arg
            elif op == UNPACK_EX:
                n = arg & 0xFF
        except Exception:
            n = 0
        return iter([_new_stub_class("item", module)() for _ in range(n)])

    class _StubMeta(abc.ABCMeta):
        def __new__(mcs, name, bases, ns, **kw):
            return super().__new__(mcs, name, bases, ns)

        def __init__(cls, name, bases, ns, **kw):
            super().__init__(name, bases, ns)

        def __getattr__(cls, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            v = _new_stub_class(name, cls.__module__)
            try:
                type.__setattr__(cls, name, v)
            except Exception:
                pass
            return v

        def __call__(cls, *a, **k):
            if cls.__dict__.get("_sg_synth") and _is_decoratee(a, k):
                return a[0]
            return super().__call__(*a, **k)

        def __getitem__(cls, item):
            return cls

        def __iter__(cls):
            return _stub_iter(cls.__module__)

        def __or__(cls, other):
            return cls

        def __ror__(cls, other):
            return cls

    class _Stub(metaclass=_StubMeta):
        def __init_subclass__(cls, **kw):
            pass

        def __init__(self, *a, **k):
            for key, value in k.items():
                try:
                    object.__setattr__(self, key, value)
                except Exception:
                    pass

        def __getattr__(self, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            return _new_stub_class(name, type(self).__module__)()

        def __call__(self, *a, **k):
            if _is_decoratee(a, k):
                return a[0]
            return _new_stub_class("result", type(self).__module__)()

        def __iter__(self):
            return _stub_iter(type(self).__module__)

        def __len__(self):
            return 0

        def __bool__(self):
            return True

        def __contains__(self, item):
            return False

        def __getitem__(self, item):
            return _new_stub_class("item", type(self).__module__)()

        def __setitem__(self, key, value):
            pass

        def __delitem__(self, key):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        async def __aenter__(self):
            return self

        async def __aexit__(self, *a):
            return False

        def __await__(self):
            if False:
                yield
            return _new_stub_class("awaited", type(self).__module__)()

        def __aiter__(self):
            return self

        async def __anext__(self):
            raise StopAsyncIteration

        def __mro_entries__(self, bases):
            return (_new_stub_class(type(self).__name__, type(self).__module__),)

        def __int__(self):
            return 0

        def __index__(self):
            return 0

        def __float__(self):
            return 0.0

        def __str__(self):
            return "<stub>"

        def __repr__(self):
            return "<stub %s.%s>" % (type(self).__module__, type(self).__name__)

        def __fspath__(self):
            return "/nonexistent-shipgate-stub"

        def __del__(self):
            pass

        def _sg_same(self, *a, **k):
            return self

        __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _sg_same
        __truediv__ = __rtruediv__ = __floordiv__ = __mod__ = __rmod__ = _sg_same
        __or__ = __ror__ = __and__ = __rand__ = __neg__ = __pos__ = _sg_same
        __lt__ = __le__ = __gt__ = __ge__ = lambda self, other: False

        __hash__ = object.__hash__

    def _new_stub_class(name, module):
        if not isinstance(name, str) or not name.isidentifier():
            name = "Stub"
        cls = _StubMeta(name, (_Stub,), {"_sg_synth": True, "__module__": module or "stub"})
        return cls

    stubbed = {}  # third-party module name -> True

    import json as _json
    _orig_default = _json.JSONEncoder.default

    def _json_default(self, o):
        if isinstance(o, (_Stub, _StubMeta)):
            return str(o)
        return _orig_default(self, o)

    _json.JSONEncoder.default = _json_default

    class _StubModule(types.ModuleType):
        def __getattr__(self, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            if self.__name__ == "typing_extensions":
                import typing
                if hasattr(typing, name):
                    return getattr(typing, name)
            v = _new_stub_class(name, self.__name__)
            setattr(self, name, v)
            return v

    # ---- recording stubs --------------------------------------------------
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
            return _new_stub_class(name, cls.__module__)

    class _RecordingObject(metaclass=_RecMeta):
        """A tool-ish framework object: hosted tool, MCP server, toolset,
        FunctionTool, AgentTool, as_tool, handoff()."""
        _sg_kind = "object"

        def __init__(self, *a, **k):
            self._sg_args = a
            self._sg_kwargs = dict(k)
            for key, value in k.items():
                try:
                    object.__setattr__(self, key, value)
                except Exception:
                    pass
            site, stack = call_site(skip_self=self)
            self._sg_site = site
            self._sg_entry = _remember(self, self._sg_kind, site, stack)
            REC["objects"].append(self._sg_entry)

        def __init_subclass__(cls, **kw):
            pass

        def __class_getitem__(cls, item):
            return cls

        def __getattr__(self, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            return _new_stub_class(name, "recorder")()

        async def __aenter__(self):
            return self

        async def __aexit__(self, *a):
            return False

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

    def _obj_class_name(obj):
        return type(obj).__name__

    # -- SDK ---------------------------------------------------------------
    class SdkFunctionTool(_RecordingObject):
        _sg_kind = "function_tool"

        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            self.name = k.get("name", a[0] if a else None)

        def __call__(self, *a, **k):
            return _new_stub_class("result", "agents")()

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

    SDK_FIELDS = ["name", "handoff_description", "tools", "mcp_servers", "mcp_config",
                  "instructions", "prompt", "handoffs", "model", "model_settings"]

    class SdkAgent(metaclass=_RecMeta):
        _sg_framework = "openai_agents_sdk"

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
            for key, value in k.items():
                try:
                    object.__setattr__(self, key, value)
                except Exception:
                    pass
            self._sg_kwargs = k
            site, stack = call_site(skip_self=self)
            self._sg_entry = _remember(self, "agent", site, stack,
                                       {"class": type(self).__name__, "framework": self._sg_framework})
            REC["agents"].append(self._sg_entry)

        def __init_subclass__(cls, **kw):
            pass

        def __class_getitem__(cls, item):
            return cls

        def clone(self, **k):
            new = type(self).__new__(type(self))
            fields = dict(self.__dict__)
            fields.pop("_sg_entry", None)
            fields.pop("_sg_kwargs", None)
            fields.update(k)
            SdkAgent.__init__(new, **fields)
            new._sg_entry["clone_of"] = self._sg_entry
            new._sg_entry["clone_overrides"] = sorted(k)
            return new

        def as_tool(self, tool_name=None, tool_description=None, *a, **k):
            t = SdkAgentAsTool(tool_name=tool_name, **k)
            t.agent = self
            t.name = tool_name if tool_name else sdk_transform(self.name)
            return t

        def __getattr__(self, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            return _new_stub_class(name, "agents")()

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

    class AdkAgent(metaclass=_RecMeta):
        _sg_framework = "google_adk"

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
            for key, value in k.items():
                try:
                    object.__setattr__(self, key, value)
                except Exception:
                    pass
            self._sg_kwargs = k
            site, stack = call_site(skip_self=self)
            self._sg_entry = _remember(self, "agent", site, stack,
                                       {"class": type(self).__name__, "framework": self._sg_framework})
            REC["agents"].append(self._sg_entry)
            post = getattr(type(self), "model_post_init", None)
            if callable(post) and not isinstance(post, _Stub):
                try:
                    post(self, None)
                except Exception:
                    pass

        def __init_subclass__(cls, **kw):
            pass

        def __class_getitem__(cls, item):
            return cls

        def clone(self, update=None, **k):
            new = type(self).__new__(type(self))
            fields = {key: value for key, value in self.__dict__.items() if not key.startswith("_sg_")}
            fields.update(update or {})
            AdkAgent.__init__(new, **fields)
            new._sg_entry["clone_of"] = self._sg_entry
            new._sg_entry["clone_overrides"] = sorted(update or {})
            return new

        model_copy = clone

        def __getattr__(self, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            if name.startswith("model_"):
                return _new_stub_class(name, "google.adk")()
            return _new_stub_class(name, "google.adk")()

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

    class _FrameworkModule(types.ModuleType):
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
                v = _new_stub_class(name, self.__name__)
            setattr(self, name, v)
            return v

        def __call__(self, *a, **k):
            if _is_decoratee(a, k):
                return a[0]
            return _new_stub_class("result", self.__name__)()

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        async def __aenter__(self):
            return self

        async def __aexit__(self, *a):
            return False

        def __iter__(self):
            return iter(())

        def __getitem__(self, item):
            return self

    # ---- import machinery -------------------------------------------------
    stdlib = set(sys.stdlib_module_names) | set(sys.builtin_module_names)

    def sdk_like(directory):
        return all(os.path.exists(os.path.join(directory, f)) for f in ("agent.py", "run.py", "__init__.py"))

    class _Loader(importlib.abc.Loader):
        def __init__(self, kind):
            self.kind = kind

        def create_module(self, spec):
            if self.kind in ("sdk", "adk", "google"):
                m = _FrameworkModule(spec.name)
                m._sg_framework = self.kind
            else:
                m = _StubModule(spec.name)
                stubbed[spec.name] = True
            m.__path__ = []
            m.__all__ = []
            m.__file__ = None
            return m

        def exec_module(self, module):
            pass

    repo_agents_pkg = {"decided": None}

    class _Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            top = fullname.split(".")[0]
            kind = None
            if top == "agents":
                if repo_agents_pkg["decided"] is None:
                    # the module's own directory is on the path only for a
                    # script's sibling imports; a package `agents` there
                    # (an example's own `agents/`) does not shadow the SDK
                    # for a module run with `-m`
                    spec = importlib.machinery.PathFinder.find_spec("agents", path_entries_for_agents)
                    # a regular package or module `agents` of the
                    # repository shadows the SDK, unless it is the SDK's own
                    # source; a namespace directory does not (an installed
                    # SDK, a regular package, wins over it)
                    own = None
                    if spec is not None and spec.origin and spec.loader is not None:
                        locs = list(spec.submodule_search_locations or [])
                        if not any(sdk_like(loc) for loc in locs):
                            own = spec
                    repo_agents_pkg["decided"] = own is not None
                if repo_agents_pkg["decided"]:
                    return None
                kind = "sdk"
            elif fullname == "google.adk" or fullname.startswith("google.adk."):
                kind = "adk"
            elif fullname == "google":
                kind = "google"
            if kind is not None:
                return importlib.util.spec_from_loader(fullname, _Loader(kind), is_package=True)
            if top in stdlib:
                return None
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is not None:
                return spec
            return importlib.util.spec_from_loader(fullname, _Loader("stub"), is_package=True)

    # ---- the module's name and sys.path ---------------------------------
    # The package chain (directories with __init__.py) gives the usual
    # name; a directory above it may be the path entry instead (a namespace
    # package imported from the repository root, `python -m app.main`):
    # the entry whose directory holds most of the module's absolute imports
    # wins, the deepest on a tie, and never one that names the module
    # `agents...`/`google...` (the frameworks) when another entry does not.
    abspath = os.path.join(root, relpath)
    is_init = os.path.basename(relpath) == "__init__.py"
    d = os.path.dirname(abspath)
    parts = [] if is_init else [os.path.splitext(os.path.basename(relpath))[0]]
    if is_init:
        parts.insert(0, os.path.basename(d))
        d = os.path.dirname(d)
    while d != root and d.startswith(root) and os.path.exists(os.path.join(d, "__init__.py")):
        parts.insert(0, os.path.basename(d))
        d = os.path.dirname(d)
    chain_root = d
    max_level = 0
    abs_tops = set()
    tree = parse(relpath)
    for node in ast.walk(tree) if tree is not None else []:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                max_level = max(max_level, node.level)
            elif node.module:
                abs_tops.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                abs_tops.add(alias.name.split(".")[0])
    abs_tops -= stdlib | {"agents", "google", "__future__"}
    candidates = []
    c = chain_root
    while c.startswith(root):
        candidates.append(c)
        if c == root:
            break
        c = os.path.dirname(c)
    if os.path.isdir(os.path.join(root, "src")) and chain_root.startswith(os.path.join(root, "src") + os.sep):
        pass  # src is already an ancestor candidate
    best = None
    for rank, cand in enumerate(candidates):
        prefix = [] if cand == chain_root else os.path.relpath(chain_root, cand).split(os.sep)
        names = prefix + parts
        if not names or any(not n or "." in n for n in names):
            continue
        depth = len(names) if is_init else len(names) - 1
        if max_level > depth:
            continue
        score = sum(1 for t in abs_tops
                    if os.path.isdir(os.path.join(cand, t)) or os.path.isfile(os.path.join(cand, t + ".py")))
        clash = names[0] in ("agents", "google") or names[0] in stdlib
        key = (not clash, score, -rank)
        if best is None or key > best[0]:
            best = (key, cand, names)
    if best is None:
        path_root, names = chain_root, parts or [os.path.basename(chain_root)]
    else:
        _, path_root, names = best
    modname = ".".join(names)
    entries = [path_root, root]
    if os.path.isdir(os.path.join(root, "src")):
        entries.append(os.path.join(root, "src"))
    seen_entries = []
    for e in entries:
        if e not in seen_entries:
            seen_entries.append(e)
    sys.path[:0] = seen_entries
    path_entries_for_agents = list(seen_entries)
    sys.meta_path.insert(0, _Finder())
    sys.argv = [abspath]
    sys.stdin = _orig_open(os.devnull)
    os.chdir(os.environ.get("TMPDIR", "/tmp"))

    class _Timeout(BaseException):
        pass

    def _alarm(signum, frame):
        raise _Timeout()

    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, args.timeout)
    status, error, where, note = "ok", None, None, None

    def run_with_top_level_await():
        """A notebook-style snippet (`await runner.run(...)` at module
        level) does not import; it is run as the REPL would run it."""
        import asyncio
        spec = importlib.util.find_spec(modname)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[modname] = mod
        with _orig_open(abspath, "rb") as fh:
            code = compile(fh.read(), abspath, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                           dont_inherit=True)
        result = eval(code, mod.__dict__)
        if inspect.iscoroutine(result):
            loop = asyncio.new_event_loop()
            try:
                loop.run_until_complete(result)
            finally:
                loop.close()

    try:
        try:
            importlib.import_module(modname)
        except SyntaxError as e:
            if not ("await" in str(e) and "outside" in str(e)
                    and os.path.realpath(e.filename or "") == os.path.realpath(abspath)):
                raise
            note = "run with top-level await"
            run_with_top_level_await()
    except _Timeout:
        status = "timeout"
    except BaseException as e:  # noqa: BLE001 - anything the module raised
        status = "error"
        error = "%s: %s" % (type(e).__name__, str(e)[:300])
        tb = traceback.extract_tb(e.__traceback__)
        for fr in reversed(tb):
            r = rel(fr.filename)
            if r is not None:
                where = "%s:%s" % (r, fr.lineno)
                break
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_REAL, 10)  # bound the collection too

    # ---- collect ------------------------------------------------------------
    sys.setrecursionlimit(10000)
    repo_modules = []
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None)
        if isinstance(f, str):
            r = rel(f)
            if r is not None:
                repo_modules.append((r, mod))
    variables = {}
    for r, mod in repo_modules:
        try:
            items = list(vars(mod).items())
        except Exception:
            continue
        for key, value in items:
            if isinstance(value, (SdkAgent, AdkAgent, _RecordingObject)):
                variables.setdefault(id(value), []).append({"file": r, "name": key})

    agent_index = {id(e["obj"]): i for i, e in enumerate(REC["agents"])}

    def agent_ref(a):
        e = a._sg_entry
        return {
            "name": a.name if isinstance(a.name, str) else None,
            "file": (e["site"] or {}).get("file"),
            "line": (e["site"] or {}).get("line"),
            "assigned_to": e["assigned_to"],
            "variables": variables.get(id(a), []),
            "index": agent_index.get(id(a)),
        }

    def names_of(obj):
        out = []
        v = variables.get(id(obj), [])
        out.extend(x["name"] for x in v)
        e = getattr(obj, "_sg_entry", None)
        if e and e.get("assigned_to"):
            out.append(e["assigned_to"].split(".")[-1])
        return out

    def describe_tool(t, position=None):
        d = None
        if isinstance(t, SdkAgentAsTool):
            d = {"kind": "agent_as_tool", "name": t.name, "agent": agent_ref(t.agent)}
        elif isinstance(t, SdkFunctionTool):
            d = {"kind": "function_tool", "name": t.name if isinstance(t.name, str) else None,
                 "function": getattr(getattr(t, "func", None), "__name__", None)}
        elif isinstance(t, SdkHostedTool):
            d = {"kind": "hosted_tool", "name": type(t).__name__, "class": type(t).__name__}
        elif isinstance(t, SdkMCPServer):
            d = {"kind": "mcp_server", "name": t.name if isinstance(t.name, str) else None,
                 "class": type(t).__name__}
        elif isinstance(t, AdkTool):
            d = {"kind": "adk_tool", "class": type(t).__name__,
                 "name": t.name if isinstance(t.name, str) else None}
            if isinstance(t.agent, AdkAgent):
                d["kind"] = "agent_tool"
                d["agent"] = agent_ref(t.agent)
            if t.func is not None:
                d["function"] = getattr(t.func, "__name__", None)
        elif isinstance(t, AdkBaseTool):
            d = {"kind": "adk_tool_subclass", "class": type(t).__name__,
                 "name": getattr(t, "name", None) if isinstance(getattr(t, "name", None), str) else None}
        elif isinstance(t, AdkToolset):
            d = {"kind": "toolset", "class": type(t).__name__, "name": None}
        elif isinstance(t, (SdkAgent, AdkAgent)):
            d = {"kind": "agent", "name": t.name if isinstance(t.name, str) else None,
                 "agent": agent_ref(t)}
        elif inspect.isfunction(t) or inspect.ismethod(t) or inspect.isbuiltin(t):
            d = {"kind": "function", "name": getattr(t, "__name__", None)}
        elif isinstance(t, functools.partial):
            d = {"kind": "partial", "name": getattr(t.func, "__name__", None)}
        elif isinstance(t, (_Stub, _StubMeta)):
            d = {"kind": "stub", "name": None, "class": getattr(t, "__name__", None) or type(t).__name__,
                 "module": getattr(t, "__module__", None)}
        elif isinstance(t, type):
            d = {"kind": "class", "name": t.__name__}
        else:
            n = getattr(t, "name", None)
            d = {"kind": "object", "class": type(t).__name__,
                 "name": n if isinstance(n, str) else getattr(t, "__name__", None)}
        if d.get("name") is not None and not isinstance(d["name"], str):
            d["name"] = None
        aliases = []
        for a in [d.get("name"), d.get("class"), d.get("function")] + names_of(t):
            if isinstance(a, str) and a not in aliases:
                aliases.append(a)
        for a in getattr(t, "_sg_builtin", None) or []:
            if a not in aliases:
                aliases.append(a)
        e = getattr(t, "_sg_entry", None)
        if e and e.get("site"):
            d["built_at"] = "%s:%s" % (e["site"]["file"], e["site"]["line"])
            # the names a reader may give an object built here: as spelled,
            # by its position in the list, by what it wraps
            call = call_at(e["site"]) if d.get("kind") not in ("function_tool", "agent_as_tool") else None
            if call is not None:
                spelled = last_name(call.func)
                d["spelled"] = spelled
                wrapped = None
                values = list(call.args) + [k.value for k in call.keywords if k.arg]
                if values:
                    wrapped = last_name(values[0])
                for c in {spelled, d.get("class")} - {None}:
                    extra = [c]
                    if position is not None:
                        extra += ["%s#%d" % (c, position + 1), "%s#%d" % (c, position)]
                    if wrapped:
                        extra.append("%s(%s)" % (c, wrapped))
                    for a in extra:
                        if a not in aliases:
                            aliases.append(a)
        d["aliases"] = aliases
        return d

    def as_list(v):
        if v is None:
            return []
        if isinstance(v, (list, tuple, set, frozenset)):
            return list(v)
        if isinstance(v, (_Stub, _StubMeta)):
            return [v]
        try:
            return list(v)
        except Exception:
            return [v]

    agents_out = []
    for i, e in enumerate(REC["agents"]):
        a = e["obj"]
        try:
            framework = e["framework"]
            rec = {
                "index": i,
                "framework": framework,
                "class": e["class"],
                "name": a.name if isinstance(a.name, str) else None,
                "name_repr": None if isinstance(a.name, str) else repr(a.name)[:80],
                "file": (e["site"] or {}).get("file"),
                "line": (e["site"] or {}).get("line"),
                "function": (e["site"] or {}).get("function"),
                "stack": e["stack"],
                "assigned_to": e["assigned_to"],
                "variables": variables.get(id(a), []),
                "clone_of": agent_ref(e["clone_of"]["obj"]) if e.get("clone_of") else None,
                "tools": [],
                "handoffs": [],
                "sub_agents": [],
                "mcp_servers": [],
            }
            tools = as_list(a.__dict__.get("tools"))
            rec["tools"] = [describe_tool(t, i) for i, t in enumerate(tools)]
            if framework == "openai_agents_sdk":
                for h in as_list(a.__dict__.get("handoffs")):
                    if isinstance(h, SdkHandoff):
                        tgt = h.agent
                        d = {"kind": "handoff()", "tool_name": getattr(h, "tool_name", None)}
                        d.update(agent_ref(tgt) if isinstance(tgt, (SdkAgent, AdkAgent)) else {"name": None, "unresolved": repr(tgt)[:80]})
                    elif isinstance(h, (SdkAgent, AdkAgent)):
                        d = {"kind": "agent"}
                        d.update(agent_ref(h))
                    else:
                        d = {"kind": "other", "name": None, "repr": repr(h)[:80]}
                    rec["handoffs"].append(d)
                rec["mcp_servers"] = [describe_tool(m, i) for i, m in enumerate(as_list(a.__dict__.get("mcp_servers")))]
            else:
                for s in as_list(a.__dict__.get("sub_agents")):
                    if isinstance(s, (SdkAgent, AdkAgent)):
                        d = {"kind": "agent"}
                        d.update(agent_ref(s))
                    else:
                        d = {"kind": "other", "name": None, "repr": repr(s)[:80]}
                    rec["sub_agents"].append(d)
            agents_out.append(rec)
        except _Timeout:
            break
        except Exception as ex:  # noqa: BLE001
            agents_out.append({"index": i, "collect_error": "%s: %s" % (type(ex).__name__, ex)})

    signal.setitimer(signal.ITIMER_REAL, 0)
    loaded = sorted({r for r, _ in repo_modules} | opened | {relpath})
    result = {
        "module": relpath,
        "module_name": modname,
        "status": status,
        "error": error,
        "error_at": where,
        "note": note,
        "seconds": round(time.time() - started, 3),
        "stubbed_modules": sorted(k for k in stubbed if "." not in k),
        "loaded_files": loaded,
        "agents": agents_out,
    }
    with _orig_open(args.out, "w") as fh:
        json.dump(result, fh, default=lambda o: repr(o)[:80])
    sys.stdout.flush()
    os._exit(0)


# --------------------------------------------------------------------------
# Parent side.
# --------------------------------------------------------------------------

def extract(git, commit, dest, blobs, scratch):
    """The commit's tree under `dest`: `git archive` first; when the
    repository lacks some objects (a copy that left large files out), blob
    by blob with `git cat-file --batch`, skipping what is missing. Links are
    left out then. Returns {"missing": [...], "why": ...} or None."""
    import subprocess
    import tarfile

    tar_path = os.path.join(scratch, "tree.tar")
    with open(tar_path, "wb") as fh:
        p = subprocess.run(git + ["archive", "--format=tar", commit], stdout=fh, stderr=subprocess.PIPE)
    if p.returncode == 0:
        try:
            with tarfile.open(tar_path, mode="r:") as tar:
                for member in tar:
                    try:
                        tar.extract(member, dest, filter="data")
                    except Exception:
                        pass  # links out of the tree, odd names: skipped
            return {"missing": [], "why": None}
        except (tarfile.TarError, OSError):
            pass
        finally:
            os.remove(tar_path)
    why = p.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
    missing = []
    ls = subprocess.run(git + ["ls-tree", "-r", "-z", "--full-tree", commit], capture_output=True)
    if ls.returncode != 0:
        return None
    wanted = []
    for item in ls.stdout.split(b"\0"):
        if not item:
            continue
        meta, path = item.split(b"\t", 1)
        mode, typ, sha = meta.split()
        if typ != b"blob" or mode == b"120000":
            continue
        rel = path.decode("utf-8", "surrogateescape")
        parts = rel.split("/")
        if rel.startswith("/") or ".." in parts or "" in parts:
            continue
        wanted.append((rel, sha.decode()))
    proc = subprocess.Popen(git + ["cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    import threading

    def feed():
        try:
            for _, sha in wanted:
                proc.stdin.write(sha.encode() + b"\n")
        finally:
            proc.stdin.close()

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    out = proc.stdout
    for rel, sha in wanted:
        header = out.readline().split()
        if len(header) < 2 or header[1] == b"missing":
            missing.append(rel)
            continue
        size = int(header[2])
        data = out.read(size)
        out.read(1)
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as fh:
            fh.write(data)
    t.join()
    proc.wait()
    return {"missing": missing, "why": why[0] if why else "git archive failed"}


def _parent_main(argv):
    import argparse
    import concurrent.futures
    import hashlib
    import json
    import re
    import shutil
    import signal
    import subprocess
    import tarfile
    import tempfile
    import time

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", required=True, help="git repository (bare or not)")
    ap.add_argument("--commit", required=True)
    ap.add_argument("--out", help="JSON-lines output file (default: stdout)")
    ap.add_argument("--timeout", type=float, default=20.0, help="per-module timeout, seconds")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", help="directory caching per-module results by the blobs they loaded")
    ap.add_argument("--include-tests", action="store_true")
    ap.add_argument("--only", nargs="*", help="only these module paths")
    ap.add_argument("--label", help="repository label written in the output (default: --repo)")
    ap.add_argument("--python", default="auto",
                    help="interpreter the throwaway venv is made from (default: the newest of "
                         "python3.13, python3.12 and this one, so newer syntax imports)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="an environment variable for the imports (default: only non-secret "
                         "placeholders for GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION)")
    args = ap.parse_args(argv)

    def log(msg):
        if not args.quiet:
            print("record_agents: " + msg, file=sys.stderr, flush=True)

    fixed_env = {"GOOGLE_CLOUD_PROJECT": "shipgate-recorder-project", "GOOGLE_CLOUD_LOCATION": "us-central1"}
    for item in args.env:
        name, _, value = item.partition("=")
        fixed_env[name] = value
    git = ["git", "-C", args.repo]
    commit = subprocess.run(git + ["rev-parse", "--verify", args.commit + "^{commit}"],
                            capture_output=True, text=True)
    if commit.returncode != 0:
        print("record_agents: unknown commit %s" % args.commit, file=sys.stderr)
        return 2
    commit = commit.stdout.strip()

    # blob ids of every file at the commit (cache keys)
    ls = subprocess.run(git + ["ls-tree", "-r", "-z", commit], capture_output=True)
    blobs = {}
    for item in ls.stdout.split(b"\0"):
        if not item:
            continue
        meta, path = item.split(b"\t", 1)
        mode, typ, sha = meta.split()
        if typ == b"blob":
            blobs[path.decode("utf-8", "surrogateescape")] = sha.decode()

    run_root = tempfile.mkdtemp(prefix="sg-recorder-")
    os.chmod(run_root, 0o755)
    try:
        src = os.path.join(run_root, "src")
        os.mkdir(src)
        extraction = extract(git, commit, src, blobs, run_root)
        if extraction is None:
            print("record_agents: extraction failed for %s" % commit, file=sys.stderr)
            return 3
        if extraction["missing"]:
            log("%s: git archive failed (%s); extracted blob by blob, %d objects missing"
                % (commit[:12], extraction["why"], len(extraction["missing"])))
        for dirpath, dirnames, filenames in os.walk(src):
            for n in dirnames:
                try:
                    os.chmod(os.path.join(dirpath, n), 0o755)
                except OSError:
                    pass
            for n in filenames:
                try:
                    os.chmod(os.path.join(dirpath, n), 0o644)
                except OSError:
                    pass
        os.chmod(src, 0o755)

        # modules to import
        mention = re.compile(rb"agents|google\.adk")
        testlike = re.compile(r"(^|/)(tests?|testing)/|(^|/)test_[^/]*\.py$|_test\.py$|(^|/)conftest\.py$")
        framework_dirs = []
        for cand in ("src/agents", "agents", "src/google/adk", "google/adk"):
            p = os.path.join(src, cand)
            if os.path.isdir(p) and (os.path.exists(os.path.join(p, "agent.py")) or
                                     os.path.isdir(os.path.join(p, "agents"))):
                if cand.endswith("agents") and not os.path.exists(os.path.join(p, "run.py")):
                    continue
                framework_dirs.append(cand + "/")
        modules = []
        for path in sorted(blobs):
            if not path.endswith(".py"):
                continue
            if args.only is not None and path not in args.only:
                continue
            if not args.include_tests and testlike.search(path):
                continue
            if any(path.startswith(fd) for fd in framework_dirs):
                continue
            full = os.path.join(src, path)
            if not os.path.isfile(full) or os.path.islink(full):
                continue
            try:
                with open(full, "rb") as fh:
                    data = fh.read(2_000_000)
            except OSError:
                continue
            if mention.search(data):
                modules.append(path)
        log("%s: %d modules to import" % (commit[:12], len(modules)))

        # sandbox tools
        prefix = []
        if shutil.which("unshare"):
            for cand in (["unshare", "--net"], ["unshare", "-rn"]):
                if subprocess.run(cand + ["true"], capture_output=True).returncode == 0:
                    prefix = cand
                    break
        drop = []
        if os.geteuid() == 0 and shutil.which("setpriv"):
            cand = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--no-new-privs"]
            if subprocess.run(prefix + cand + ["true"], capture_output=True).returncode == 0:
                drop = cand

        # The interpreter: the newest that runs in the sandbox as itself (an
        # interpreter under a directory `nobody` cannot read is not one).
        def lib_env(base):
            lib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(base))), "lib")
            return {"LD_LIBRARY_PATH": lib} if os.path.isdir(lib) else {}

        def works(base):
            if not base or not os.path.exists(base):
                return False
            code = "import sys, venv; print(sys.version)"
            own = subprocess.run([base, "-I", "-S", "-c", code], capture_output=True, text=True)
            if own.returncode != 0:
                return False
            env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}
            env.update(lib_env(base))
            boxed = subprocess.run(prefix + drop + [base, "-I", "-S", "-c", code], capture_output=True,
                                   text=True, env=env, cwd="/")
            return boxed.returncode == 0 and boxed.stdout == own.stdout

        base_python = None
        if args.python != "auto":
            base_python = args.python if works(args.python) else None
            if base_python is None:
                log("warning: %s does not run in the sandbox; choosing one" % args.python)
        if base_python is None:
            import glob
            cands = []
            for minor in ("3.14", "3.13", "3.12", "3.11", "3.10"):
                cands.append(shutil.which("python" + minor))
                for d in ("/usr/local/bin", "/usr/bin", os.path.expanduser("~/.pyenv/versions/%s*/bin" % minor)):
                    cands += sorted(glob.glob(os.path.join(d, "python" + minor)))
            cands += [sys.executable, "/usr/bin/python3"]
            for cand in cands:
                if works(cand):
                    base_python = cand
                    break
        if base_python is None:
            print("record_agents: no interpreter runs in the sandbox", file=sys.stderr)
            return 4
        venv = os.path.join(run_root, "venv")
        subprocess.run([base_python, "-m", "venv", "--without-pip", venv], check=True,
                       capture_output=True)
        py = os.path.join(venv, "bin", "python")
        child_script = os.path.join(run_root, "record_agents_child.py")
        shutil.copyfile(os.path.abspath(__file__), child_script)
        os.chmod(child_script, 0o644)
        python_env = lib_env(base_python)
        if not prefix:
            log("warning: no network namespace (unshare unavailable); relying on the socket stubs")
        out_dir = os.path.join(run_root, "out")
        os.mkdir(out_dir)
        sandbox_home = os.path.join(run_root, "home")
        os.mkdir(sandbox_home)
        if drop:
            for p in (out_dir, sandbox_home):
                os.chown(p, 65534, 65534)

        cache_dir = args.cache
        RECORDER_VERSION = _recorder_version()
        if cache_dir:
            os.makedirs(cache_dir, exist_ok=True)

        def cache_file(path):
            return os.path.join(cache_dir, hashlib.sha256(path.encode()).hexdigest()[:32] + ".json")

        def cached(path):
            if not cache_dir:
                return None
            try:
                with open(cache_file(path)) as fh:
                    entries = json.load(fh)
            except (OSError, ValueError):
                return None
            for entry in entries:
                if entry.get("version") != RECORDER_VERSION:
                    continue
                if all(blobs.get(p) == sha for p, sha in entry["deps"].items()):
                    return entry["result"]
            return None

        def store(path, result):
            if not cache_dir or result.get("status") == "timeout":
                return
            deps = {p: blobs.get(p) for p in result.get("loaded_files", [])}
            try:
                with open(cache_file(path)) as fh:
                    entries = json.load(fh)
            except (OSError, ValueError):
                entries = []
            entries = [{"version": RECORDER_VERSION, "deps": deps, "result": result}] + [
                e for e in entries if e.get("version") == RECORDER_VERSION][:63]
            tmp = cache_file(path) + ".tmp%d" % os.getpid()
            with open(tmp, "w") as fh:
                json.dump(entries, fh)
            os.replace(tmp, cache_file(path))

        def run_one(i, path):
            hit = cached(path)
            if hit is not None:
                hit = dict(hit)
                hit["cached"] = True
                return hit
            out = os.path.join(out_dir, "%d.json" % i)
            tmpdir = os.path.join(run_root, "t%d" % i)
            os.mkdir(tmpdir)
            if drop:
                os.chown(tmpdir, 65534, 65534)
            env = {
                "PATH": "/usr/bin:/bin",
                "HOME": sandbox_home,
                "TMPDIR": tmpdir,
                "LANG": "C.UTF-8",
                "LC_ALL": "C.UTF-8",
                "PYTHONDONTWRITEBYTECODE": "1",
                "PYTHONHASHSEED": "0",
                "NO_PROXY": "*",
            }
            env.update(fixed_env)
            env.update(python_env)
            cmd = prefix + drop + [py, "-I", "-S", child_script, "--child", "--root", src,
                                   "--module-path", path, "--out", out,
                                   "--timeout", str(args.timeout)]
            t0 = time.time()
            proc = subprocess.Popen(cmd, env=env, cwd=tmpdir, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    start_new_session=True)
            try:
                _, err = proc.communicate(timeout=args.timeout + 15)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:
                    pass
                proc.communicate()
                err = b""
                result = {"module": path, "status": "timeout", "error": "killed after %.0fs" % (time.time() - t0),
                          "agents": [], "loaded_files": [path]}
                return result
            # whatever the module started is ended with it
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
            shutil.rmtree(tmpdir, ignore_errors=True)
            try:
                with open(out) as fh:
                    result = json.load(fh)
            except (OSError, ValueError):
                tail = err.decode("utf-8", "replace").strip().splitlines()[-3:]
                result = {"module": path, "status": "error",
                          "error": "child ended (rc %s) without a result: %s" % (proc.returncode, " | ".join(tail)),
                          "agents": [], "loaded_files": [path]}
                return result
            store(path, result)
            return result

        results = []
        t_start = time.time()
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {pool.submit(run_one, i, p): p for i, p in enumerate(modules)}
            done = 0
            for fut in concurrent.futures.as_completed(futures):
                results.append(fut.result())
                done += 1
                if done % 50 == 0:
                    log("%d/%d modules (%.0fs)" % (done, len(modules), time.time() - t_start))
        results.sort(key=lambda r: r["module"])

        # distinct agents: one construction site with the same lists is one agent
        label = args.label or args.repo
        lines = []
        distinct = {}
        def ref_key(ref):
            return [ref.get("kind"), ref.get("name"), ref.get("file"), ref.get("line")]

        def tool_key(t):
            return [t.get("kind"), t.get("name"), t.get("class"), t.get("function"),
                    ref_key(t["agent"]) if isinstance(t.get("agent"), dict) else None]

        for r in results:
            for a in r.get("agents", []):
                if "collect_error" in a:
                    continue
                # one construction site with the same lists is one agent,
                # whichever module's import built it
                key = json.dumps([a.get("framework"), a.get("class"), a.get("name"), a.get("file"),
                                  a.get("line"), a.get("function"),
                                  [tool_key(t) for t in a.get("tools", [])],
                                  [tool_key(t) for t in a.get("mcp_servers", [])],
                                  [ref_key(h) for h in a.get("handoffs", [])],
                                  [ref_key(h) for h in a.get("sub_agents", [])],
                                  ref_key(a["clone_of"]) if a.get("clone_of") else None], default=str)
                if key in distinct:
                    known = distinct[key]
                    known["seen_from"].append(r["module"])
                    for v in a.get("variables", []):
                        if v not in known["variables"]:
                            known["variables"].append(v)
                    for t, u in zip(known["tools"], a.get("tools", [])):
                        for alias in u.get("aliases", []):
                            if alias not in t["aliases"]:
                                t["aliases"].append(alias)
                    continue
                rec = {"type": "agent", "repo": label, "commit": commit, "module": r["module"]}
                rec.update(a)
                rec["seen_from"] = [r["module"]]
                distinct[key] = rec
                lines.append(rec)
        for rec in lines:
            rec["variable"] = sorted({v["name"] for v in rec.get("variables", [])
                                      if v["file"] == rec.get("file")}) or None
        for r in results:
            lines.append({"type": "module", "repo": label, "commit": commit, "module": r["module"],
                          "status": r.get("status"), "error": r.get("error"), "error_at": r.get("error_at"),
                          "note": r.get("note"),
                          "agents": len(r.get("agents", [])), "cached": bool(r.get("cached")),
                          "stubbed_modules": r.get("stubbed_modules", []), "seconds": r.get("seconds")})
        counts = {}
        for r in results:
            counts[r.get("status")] = counts.get(r.get("status"), 0) + 1
        lines.append({"type": "run", "repo": label, "commit": commit, "modules": len(results),
                      "status_counts": counts, "agents": len(distinct),
                      "extraction_missing": extraction["missing"][:50],
                      "sandbox": {"netns": " ".join(prefix) or None, "user": "nobody" if drop else None,
                                  "python": subprocess.run([py, "-c", "import sys; print(sys.version.split()[0])"],
                                                           capture_output=True, text=True).stdout.strip()},
                      "seconds": round(time.time() - t_start, 1)})
        text = "".join(json.dumps(l, sort_keys=False, default=str) + "\n" for l in lines)
        if args.out:
            with open(args.out, "w") as fh:
                fh.write(text)
        else:
            sys.stdout.write(text)
        log("%s: %d modules %s, %d distinct agents" % (commit[:12], len(results), counts, len(distinct)))
        return 0
    finally:
        shutil.rmtree(run_root, ignore_errors=True)


if __name__ == "__main__":
    if "--child" in sys.argv[1:]:
        child_main(sys.argv[1:])
    else:
        sys.exit(_parent_main(sys.argv[1:]))
