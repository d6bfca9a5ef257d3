#!/usr/bin/env python3
"""Generates daemon/src/frameworks/signatures.rs: the parameters of the
framework callables whose arguments the readers read (`as_tool`, `handoff`,
`function_tool`, `FunctionTool`, `AgentTool`, MCP servers and toolsets), so a
positional argument is read as the parameter it binds and an argument the
table cannot place is unread, never absent.

The wheels are read as zip files and their sources parsed with `ast`; nothing
is imported or run. A parameter is positional in the table only where every
release that defines the callable puts the same parameter at that position
(the common prefix), so a positional argument is placed only where no release
reads it as something else. Usage (the wheels of gen-framework-exports.py):

    pip download --no-deps -d /tmp/pkgs openai-agents==<v> google-adk==<v> ...
    python3 scripts/gen-framework-signatures.py /tmp/pkgs > daemon/src/frameworks/signatures.rs
"""

import ast
import os
import re
import sys
import zipfile

# (the readers' name, distribution, class or None, function or "__init__")
CALLABLES = [
    ("agents.Agent.as_tool", "openai_agents", "Agent", "as_tool"),
    ("agents.Agent.clone", "openai_agents", "Agent", "clone"),
    ("agents.handoff", "openai_agents", None, "handoff"),
    ("agents.function_tool", "openai_agents", None, "function_tool"),
    ("agents.FunctionTool", "openai_agents", "FunctionTool", "__init__"),
    ("agents.MCPServerStdio", "openai_agents", "MCPServerStdio", "__init__"),
    ("agents.MCPServerSse", "openai_agents", "MCPServerSse", "__init__"),
    ("agents.MCPServerStreamableHttp", "openai_agents", "MCPServerStreamableHttp", "__init__"),
    ("google.adk.AgentTool", "google_adk", "AgentTool", "__init__"),
    ("google.adk.FunctionTool", "google_adk", "FunctionTool", "__init__"),
    ("google.adk.LongRunningFunctionTool", "google_adk", "LongRunningFunctionTool", "__init__"),
    ("google.adk.McpToolset", "google_adk", "McpToolset", "__init__"),
    ("google.adk.MCPToolset", "google_adk", "MCPToolset", "__init__"),
    ("google.adk.LangchainTool", "google_adk", "LangchainTool", "__init__"),
    ("google.adk.CrewaiTool", "google_adk", "CrewaiTool", "__init__"),
]


def is_overload(fn):
    return any(
        (isinstance(d, ast.Name) and d.id == "overload")
        or (isinstance(d, ast.Attribute) and d.attr == "overload")
        for d in fn.decorator_list
    )


def is_dataclass(cls):
    for d in cls.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if (isinstance(target, ast.Name) and target.id == "dataclass") or (
            isinstance(target, ast.Attribute) and target.attr == "dataclass"
        ):
            kw_only = isinstance(d, ast.Call) and any(
                k.arg == "kw_only" and isinstance(k.value, ast.Constant) and k.value.value
                for k in d.keywords
            )
            return "kw_only" if kw_only else "positional"
    return None


def function_params(fn, method):
    a = fn.args
    positional = [x.arg for x in a.posonlyargs + a.args]
    if method and positional:
        positional = positional[1:]
    return positional, bool(a.vararg)


def dataclass_params(cls, mode):
    if mode == "kw_only":
        return [], False
    fields = []
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            value = stmt.value
            if isinstance(value, ast.Call) and any(
                k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in value.keywords
            ):
                continue
            if isinstance(stmt.annotation, ast.Name) and stmt.annotation.id == "KW_ONLY":
                break
            fields.append(stmt.target.id)
    return fields, False


def signatures_in(whl):
    """{(class, function): [(positional, varargs)]} of one wheel."""
    found = {}
    with zipfile.ZipFile(whl) as z:
        for name in z.namelist():
            if not name.endswith(".py"):
                continue
            try:
                tree = ast.parse(z.read(name))
            except (SyntaxError, ValueError):
                continue
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not is_overload(node):
                    found.setdefault((None, node.name), []).append(function_params(node, False))
                if isinstance(node, ast.ClassDef):
                    methods = [
                        f
                        for f in node.body
                        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and not is_overload(f)
                    ]
                    for f in methods:
                        found.setdefault((node.name, f.name), []).append(function_params(f, True))
                    mode = is_dataclass(node)
                    if mode and not any(f.name == "__init__" for f in methods):
                        found.setdefault((node.name, "__init__"), []).append(dataclass_params(node, mode))
    return found


def common_prefix(lists):
    prefix = []
    for column in zip(*lists):
        if len(set(column)) != 1:
            break
        prefix.append(column[0])
    return prefix


def main():
    folder = sys.argv[1]
    wheels = sorted(f for f in os.listdir(folder) if f.endswith(".whl"))
    by_dist = {}
    for whl in wheels:
        dist = re.sub(r"-.*", "", whl).lower().replace("-", "_")
        by_dist.setdefault(dist, []).append((whl, signatures_in(os.path.join(folder, whl))))
    out = [
        "// @generated by scripts/gen-framework-signatures.py; do not edit.",
        "// Read (never imported) from the wheels of:",
    ]
    for dist in ("google_adk", "openai_agents"):
        for whl, _ in by_dist.get(dist, []):
            out.append(f"//   {whl}")
    out += [
        "// Regenerate:",
        "//   python3 scripts/gen-framework-signatures.py /tmp/pkgs > daemon/src/frameworks/signatures.rs",
        "",
        "/// `(the readers' name, its positional parameters)`: each parameter at",
        "/// the position every listed release gives it (the common prefix of",
        "/// their signatures), so a positional argument past them is unplaced.",
        "#[rustfmt::skip]",
        "pub const POSITIONAL: &[(&str, &[&str])] = &[",
    ]
    for readers_name, dist, cls, function in sorted(CALLABLES):
        lists = []
        for whl, found in by_dist.get(dist, []):
            defs = found.get((cls, function), [])
            for positional, varargs in defs:
                # `*args` accepts anything after: nothing there is placed.
                lists.append(positional)
        if not lists:
            sys.exit(f"{readers_name}: not found in any wheel of {dist}")
        params = common_prefix(lists)
        names = ", ".join(f'"{p}"' for p in params)
        out.append(f'    ("{readers_name}", &[{names}]),')
    out.append("];")
    print("\n".join(out))


if __name__ == "__main__":
    main()
