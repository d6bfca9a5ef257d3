"""After the import: what each recorded agent holds, described for the parent."""

import functools
import inspect
import sys

from .frameworks import (
    REC, AdkAgent, AdkBaseTool, AdkTool, AdkToolset, SdkAgent, SdkAgentAsTool, SdkFunctionTool, SdkHandoff,
    SdkHostedTool, SdkMCPServer, _RecordingObject,
)
from .guards import opened
from .importer import _Timeout
from .sites import call_at, last_name, rel
from .stubs import _Stub, _StubMeta


def _text(value):
    return value if isinstance(value, str) else None


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


class Collector:
    """The repository's modules as the import left them, and the variables holding recorded objects."""

    def __init__(self):
        sys.setrecursionlimit(10000)
        self.repo_modules = []
        for name, mod in list(sys.modules.items()):
            f = getattr(mod, "__file__", None)
            if isinstance(f, str):
                r = rel(f)
                if r is not None:
                    self.repo_modules.append((r, mod))
        self.variables = {}
        for r, mod in self.repo_modules:
            try:
                items = list(vars(mod).items())
            except Exception:
                continue
            for key, value in items:
                if isinstance(value, (SdkAgent, AdkAgent, _RecordingObject)):
                    self.variables.setdefault(id(value), []).append({"file": r, "name": key})
        self.agent_index = {id(e["obj"]): i for i, e in enumerate(REC["agents"])}

    def loaded_files(self, relpath):
        """The repository files the import read: the cache's dependencies of the module."""
        return sorted({r for r, _ in self.repo_modules} | opened | {relpath})

    def agent_ref(self, a):
        e = a._sg_entry
        return {
            "name": _text(a.name),
            "file": (e["site"] or {}).get("file"),
            "line": (e["site"] or {}).get("line"),
            "assigned_to": e["assigned_to"],
            "variables": self.variables.get(id(a), []),
            "index": self.agent_index.get(id(a)),
        }

    def member_ref(self, member):
        """A handoff or sub-agent: the agent it is, or (not an agent) its repr."""
        if isinstance(member, (SdkAgent, AdkAgent)):
            return {"kind": "agent", **self.agent_ref(member)}
        return {"kind": "other", "name": None, "repr": repr(member)[:80]}

    def names_of(self, obj):
        out = []
        v = self.variables.get(id(obj), [])
        out.extend(x["name"] for x in v)
        e = getattr(obj, "_sg_entry", None)
        if e and e.get("assigned_to"):
            out.append(e["assigned_to"].split(".")[-1])
        return out

    def describe_tool(self, t, position=None):
        d = None
        if isinstance(t, SdkAgentAsTool):
            d = {"kind": "agent_as_tool", "name": t.name, "agent": self.agent_ref(t.agent)}
        elif isinstance(t, SdkFunctionTool):
            d = {"kind": "function_tool", "name": _text(t.name),
                 "function": getattr(getattr(t, "func", None), "__name__", None)}
        elif isinstance(t, SdkHostedTool):
            d = {"kind": "hosted_tool", "name": type(t).__name__, "class": type(t).__name__}
        elif isinstance(t, SdkMCPServer):
            d = {"kind": "mcp_server", "name": _text(t.name), "class": type(t).__name__}
        elif isinstance(t, AdkTool):
            d = {"kind": "adk_tool", "class": type(t).__name__, "name": _text(t.name)}
            if isinstance(t.agent, AdkAgent):
                d["kind"] = "agent_tool"
                d["agent"] = self.agent_ref(t.agent)
            if t.func is not None:
                d["function"] = getattr(t.func, "__name__", None)
        elif isinstance(t, AdkBaseTool):
            d = {"kind": "adk_tool_subclass", "class": type(t).__name__, "name": _text(getattr(t, "name", None))}
        elif isinstance(t, AdkToolset):
            d = {"kind": "toolset", "class": type(t).__name__, "name": None}
        elif isinstance(t, (SdkAgent, AdkAgent)):
            d = {"kind": "agent", "name": _text(t.name), "agent": self.agent_ref(t)}
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
        for a in [d.get("name"), d.get("class"), d.get("function")] + self.names_of(t):
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

    def agent_record(self, i, e):
        """One recorded agent: where it was built and what its lists hold now."""
        a = e["obj"]
        framework = e["framework"]
        rec = {
            "index": i,
            "framework": framework,
            "class": e["class"],
            "name": _text(a.name),
            "name_repr": None if isinstance(a.name, str) else repr(a.name)[:80],
            "file": (e["site"] or {}).get("file"),
            "line": (e["site"] or {}).get("line"),
            "function": (e["site"] or {}).get("function"),
            "stack": e["stack"],
            "assigned_to": e["assigned_to"],
            "variables": self.variables.get(id(a), []),
            "clone_of": self.agent_ref(e["clone_of"]["obj"]) if e.get("clone_of") else None,
            "tools": [],
            "handoffs": [],
            "sub_agents": [],
            "mcp_servers": [],
        }
        tools = as_list(a.__dict__.get("tools"))
        rec["tools"] = [self.describe_tool(t, i) for i, t in enumerate(tools)]
        if framework == "openai_agents_sdk":
            for h in as_list(a.__dict__.get("handoffs")):
                if isinstance(h, SdkHandoff):
                    tgt = h.agent
                    d = {"kind": "handoff()", "tool_name": getattr(h, "tool_name", None)}
                    d.update(self.agent_ref(tgt) if isinstance(tgt, (SdkAgent, AdkAgent))
                             else {"name": None, "unresolved": repr(tgt)[:80]})
                else:
                    d = self.member_ref(h)
                rec["handoffs"].append(d)
            rec["mcp_servers"] = [self.describe_tool(m, i) for i, m in enumerate(as_list(a.__dict__.get("mcp_servers")))]
        else:
            rec["sub_agents"] = [self.member_ref(s) for s in as_list(a.__dict__.get("sub_agents"))]
        return rec

    def agents(self):
        """Every recorded agent; one that cannot be described says why; the timer ends the list."""
        agents_out = []
        for i, e in enumerate(REC["agents"]):
            try:
                agents_out.append(self.agent_record(i, e))
            except _Timeout:
                break
            except Exception as ex:  # noqa: BLE001
                agents_out.append({"index": i, "collect_error": "%s: %s" % (type(ex).__name__, ex)})
        return agents_out
