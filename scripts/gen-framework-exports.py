#!/usr/bin/env python3
"""Generates daemon/src/frameworks/exports.rs: every module path at which the
OpenAI Agents SDK (`agents`), Google ADK (`google.adk`) or an MCP server
package (`mcp`, `mcp_types`, `fastmcp`) defines or re-exports a name the
readers recognise, with the readers' name for it.

The wheels are read as zip files and their sources parsed with `ast`; nothing
is imported or run. Usage:

    pip download --no-deps -d /tmp/pkgs openai-agents==<v> google-adk==<v> mcp==<v> fastmcp==<v> ...
    python3 scripts/gen-framework-exports.py /tmp/pkgs > daemon/src/frameworks/exports.rs

A spelling counts when a public module of the package exports the name (see
`read_wheel`): a class, function or assignment defined there, a plain-name
alias (`tool = function_tool`, `Agent: TypeAlias = LlmAgent`), a run-time
import, or an entry of a lazy-loading table (`{'Agent': '.llm_agent'}`,
`{'X': ('.mod', 'attr')}`). Private modules (`_x`) and imports only type
checkers see are not spellings.
"""

import ast
import os
import re
import sys
import zipfile

PACKAGES = {
    # distribution -> (top-level package, names the readers recognise)
    "openai_agents": (
        "agents",
        [
            "Agent",
            "function_tool",
            "ModelSettings",
            "StopAtTools",
            "WebSearchTool",
            "FileSearchTool",
            "CodeInterpreterTool",
            "ComputerTool",
            "ImageGenerationTool",
            "HostedMCPTool",
            "LocalShellTool",
            "MCPServerStdio",
            "MCPServerSse",
            "MCPServerStreamableHttp",
            "create_static_tool_filter",
            "handoff",
            "tool_namespace",
            "FunctionTool",
        ],
    ),
    "google_adk": (
        "google.adk",
        [
            "Agent",
            "LlmAgent",
            "SequentialAgent",
            "ParallelAgent",
            "LoopAgent",
            "RemoteA2aAgent",
            "BaseAgent",
            "FunctionTool",
            "LongRunningFunctionTool",
            "AgentTool",
            "McpToolset",
            "MCPToolset",
            "StdioConnectionParams",
            "SseConnectionParams",
            "SseServerParams",
            "StreamableHTTPConnectionParams",
            "StdioServerParameters",
            "google_search",
            "built_in_code_execution",
            "load_memory",
            "BaseTool",
            "BaseToolset",
        ],
    ),
    # MCP servers an application defines itself, and the annotations it
    # declares on their tools (`readOnlyHint`): the declared-effects reader.
    "mcp": ("mcp", ["FastMCP", "MCPServer", "ToolAnnotations"]),
    "mcp_types": ("mcp_types", ["ToolAnnotations"]),
    "fastmcp": ("fastmcp", ["FastMCP", "ToolAnnotations"]),
    "fastmcp_slim": ("fastmcp", ["FastMCP", "ToolAnnotations"]),
}

# Packages whose names are identities only where the class so named is the
# one defined under that name: mcp 1.x binds `MCPServer` to its low-level
# `Server` (no `.tool` decorator), a different class from mcp 2.x's
# high-level `MCPServer`, so an alias never lends its name.
DEFINING_NAMES_ONLY = {"mcp", "mcp_types", "fastmcp", "fastmcp_slim"}


def module_name(path):
    """`google/adk/agents/__init__.py` -> (`google.adk.agents`, is_package)."""
    parts = path[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def absolute(module, is_package, target, level):
    """The absolute module a `from <level dots><target> import` names."""
    if level == 0:
        return target
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def top_level(body):
    """Module-level statements, descending into if/try blocks."""
    for node in body:
        if isinstance(node, ast.If):
            yield from top_level(node.body)
            yield from top_level(node.orelse)
        elif isinstance(node, ast.Try):
            yield from top_level(node.body)
            for handler in node.handlers:
                yield from top_level(handler.body)
            yield from top_level(node.orelse)
            yield from top_level(node.finalbody)
        else:
            yield node


def lazy_entries(module, is_package, value):
    """Entries of a lazy-loading table: name -> (module, attribute)."""
    if not isinstance(value, ast.Dict):
        return {}
    found = {}
    for key, item in zip(value.keys, value.values):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return {}
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            target, attr = item.value, key.value
        elif (
            isinstance(item, ast.Tuple)
            and len(item.elts) == 2
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in item.elts)
        ):
            target, attr = item.elts[0].value, item.elts[1].value
        else:
            return {}
        if not target.startswith("."):
            return {}
        level = len(target) - len(target.lstrip("."))
        found[key.value] = (absolute(module, is_package, target.lstrip("."), level), attr)
    return found


def string_list(value):
    """The strings of a list or tuple literal, else None."""
    if isinstance(value, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
    ):
        return [e.value for e in value.elts]
    return None


def is_type_checking(test):
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def read_wheel(path, package):
    """module -> {exported name: ('defined',) | ('from', module, name)}.

    A module exports a public name it defines (class, function, assignment,
    plain-name alias), a name it imports at run time (`from m import X`
    then gives the very object), and the entries of its lazy-loading table.
    An import under `if TYPE_CHECKING:` binds nothing at run time: it counts
    only through `__all__` with a lazy table (then `__getattr__` serves it).
    """
    modules = {}
    shapes = {}
    prefix = package.replace(".", "/") + "/"
    with zipfile.ZipFile(path) as wheel:
        for entry in sorted(wheel.namelist()):
            if not (entry.startswith(prefix) and entry.endswith(".py")):
                continue
            module, is_package = module_name(entry)
            try:
                tree = ast.parse(wheel.read(entry))
            except SyntaxError:
                continue
            defined = {}
            imported = {}
            lazy = {}
            exported = set()
            checking_only = set()
            classes = {}
            instances = {}
            unions = {}
            factories = []
            for node in top_level(tree.body):
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                ):
                    members = union_members(node.value)
                    if members:
                        unions[node.targets[0].id] = members
                if (
                    isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and not node.name.startswith("_")
                    and isinstance(node.returns, ast.Name)
                    and node.returns.id == "FunctionTool"
                ):
                    factories.append(node.name)
                if isinstance(node, ast.ClassDef):
                    classes[node.name] = [b.id for b in node.bases if isinstance(b, ast.Name)]
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                    and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Name)
                ):
                    instances[node.targets[0].id] = node.value.func.id
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    defined[node.name] = ("defined",)
                elif isinstance(node, ast.ImportFrom):
                    source = absolute(module, is_package, node.module or "", node.level)
                    for alias in node.names:
                        if alias.name != "*":
                            imported[alias.asname or alias.name] = ("from", source, alias.name)
                elif (
                    isinstance(node, ast.Expr)
                    and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Attribute)
                    and node.value.func.attr in ("extend", "append")
                    and isinstance(node.value.func.value, ast.Name)
                    and node.value.func.value.id == "__all__"
                    and len(node.value.args) == 1
                ):
                    # `__all__.extend([...])`, `__all__.append('X')`
                    arg = node.value.args[0]
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        exported.add(arg.value)
                    exported.update(string_list(arg) or [])
                elif (
                    isinstance(node, ast.AugAssign)
                    and isinstance(node.target, ast.Name)
                    and node.target.id == "__all__"
                ):
                    exported.update(string_list(node.value) or [])
                elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    value = node.value
                    for target in targets:
                        if not isinstance(target, ast.Name) or value is None:
                            continue
                        if target.id == "__all__":
                            exported.update(string_list(value) or [])
                        elif isinstance(value, ast.Name):
                            defined[target.id] = ("from", module, value.id)
                        else:
                            defined[target.id] = ("defined",)
                        lazy.update(lazy_entries(module, is_package, value))
            # Imports only type checkers see.
            for node in tree.body:
                if isinstance(node, ast.If) and is_type_checking(node.test):
                    for inner in top_level(node.body):
                        if isinstance(inner, ast.ImportFrom):
                            checking_only.update(a.asname or a.name for a in inner.names)
            bindings = {}
            for name, binding in defined.items():
                if not name.startswith("_"):
                    bindings[name] = binding
            for name, binding in imported.items():
                if name not in checking_only or (name in exported and name in lazy):
                    bindings.setdefault(name, binding)
            for name, (source, attr) in lazy.items():
                bindings.setdefault(name, ("from", source, attr))
            modules[module] = bindings
            shapes[module] = (classes, instances, imported, unions, factories)
    return modules, shapes


def union_members(value):
    """The class names of `A | B[X] | C` or `Union[A, B]`, else None."""
    names = []

    def walk(node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return walk(node.left) and walk(node.right)
        if isinstance(node, ast.Subscript):
            return walk(node.value) if not names_union(node) else all(walk(e) for e in subscript_items(node))
        if isinstance(node, ast.Name):
            names.append(node.id)
            return True
        return False

    def names_union(node):
        return isinstance(node.value, ast.Name) and node.value.id == "Union"

    def subscript_items(node):
        index = node.slice
        return index.elts if isinstance(index, ast.Tuple) else [index]

    if isinstance(value, ast.BinOp) or (isinstance(value, ast.Subscript) and names_union(value)):
        if walk(value) and len(names) > 1:
            return names
    return None


# The tool base classes a package ships its tools on: `(module, class)`,
# and the kind a class deriving from each is.
TOOL_ROOTS = {
    ("google.adk.tools.base_tool", "BaseTool"): "tool",
    ("google.adk.tools.base_toolset", "BaseToolset"): "toolset",
}


# The OpenAI Agents SDK's tool type: every member but the function tool is
# a tool the SDK (or the model provider) runs, read as a hosted tool.
SDK_TOOL_UNION = ("agents.tool", "Tool")


def shipped_tools(modules, shapes):
    """The package's tool classes (deriving, at any depth, from a tool
    root), its built-in instances (a module-level `x = ToolClass(...)`),
    the members of the SDK's `Tool` type and the SDK extensions' tool
    factories (a function returning a `FunctionTool`): `(module, name) ->
    kind` ("tool", "toolset", "built_in", "hosted", "factory")."""

    def resolve(module, name):
        classes, _, imported, _, _ = shapes.get(module, ({}, {}, {}, {}, []))
        if name in classes:
            return module, name
        binding = imported.get(name)
        if binding is None:
            return None
        return origin(modules, binding[1], binding[2])

    kinds = dict(TOOL_ROOTS)
    changed = True
    while changed:
        changed = False
        for module, (classes, _, _, _, _) in shapes.items():
            for name, bases in classes.items():
                if (module, name) in kinds:
                    continue
                for base in bases:
                    found = resolve(module, base)
                    if found in kinds:
                        kinds[(module, name)] = kinds[found]
                        changed = True
                        break
    found = {key: kind for key, kind in kinds.items() if key not in TOOL_ROOTS}
    for module, (_, instances, _, _, _) in shapes.items():
        for name, callee in instances.items():
            target = resolve(module, callee)
            if target in found and not name.startswith("_"):
                found[(module, name)] = "built_in"
    union_module, union_name = SDK_TOOL_UNION
    members = shapes.get(union_module, ({}, {}, {}, {}, []))[3].get(union_name, [])
    for member in members:
        target = resolve(union_module, member)
        if target is not None and target[1] != "FunctionTool":
            found[target] = "hosted"
    for module, (_, _, _, _, factories) in shapes.items():
        if module.startswith("agents.extensions."):
            for name in factories:
                found[(module, name)] = "factory"
    return found


def origin(modules, module, name, seen=()):
    """The (module, name) that defines what `module.name` binds, if any."""
    if (module, name) in seen or module not in modules:
        return None
    binding = modules[module].get(name)
    if binding is None:
        # `from .pkg import submodule` binds a module: not a recognised name.
        return None
    if binding[0] == "defined":
        return module, name
    _, source, attr = binding
    if source == module and attr == name:
        return None
    return origin(modules, source, attr, seen + ((module, name),))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-framework-exports.py <directory of wheels>")
    directory = sys.argv[1]
    rows = set()
    versions = []
    shipped = {}
    for wheel in sorted(os.listdir(directory)):
        match = re.match(r"([A-Za-z0-9_]+)-([^-]+)-.*\.whl$", wheel)
        if not match or match.group(1) not in PACKAGES:
            continue
        distribution, version = match.groups()
        package, wanted = PACKAGES[distribution]
        versions.append(f"{distribution.replace('_', '-')} {version}")
        modules, shapes = read_wheel(os.path.join(directory, wheel), package)
        tools = shipped_tools(modules, shapes)
        # A shipped tool a known name also binds (`load_memory`) is that
        # name, whichever spelling reaches it: one object, one identity.
        known = {}
        for module, bindings in modules.items():
            for name in bindings:
                if name in wanted:
                    found = origin(modules, module, name)
                    if found is not None:
                        known.setdefault(found, name)
        for module, bindings in modules.items():
            for name in bindings:
                found = origin(modules, module, name)
                if found is None:
                    continue
                if any(part.startswith("_") for part in module.split(".")):
                    continue
                # The reader's name for it: the bound name when the reader
                # knows it (`SseServerParams`), else the defining name
                # (`tool` is `function_tool`); a tool the package ships
                # is its defining name.
                if distribution in DEFINING_NAMES_ONLY:
                    if found[1] not in wanted:
                        continue
                    identity = found[1]
                elif name in wanted:
                    identity = name
                elif found[1] in wanted:
                    identity = found[1]
                elif found in known:
                    identity = known[found]
                elif found in tools and not found[1].startswith("_"):
                    identity = found[1]
                else:
                    continue
                if found in tools:
                    shipped.setdefault(identity, tools[found])
                if name in wanted and found[1] not in wanted and found[1] != name:
                    print(f"check: {module}.{name} is {found[0]}.{found[1]}", file=sys.stderr)
                rows.add((f"{module}.{name}", identity))
    rows = sorted(rows)
    # One identity per spelling: a spelling two releases bind differently
    # keeps the first in sort order (reported on stderr).
    table = {}
    for spelling, identity in rows:
        if spelling in table and table[spelling] != identity:
            print(f"{spelling}: {table[spelling]} and {identity}", file=sys.stderr)
            continue
        table[spelling] = identity
    out = sys.stdout
    out.write("// @generated by scripts/gen-framework-exports.py; do not edit.\n")
    out.write("// Read (never imported) from the wheels of:\n")
    for version in sorted(versions):
        out.write(f"//   {version}\n")
    out.write("// Regenerate:\n")
    out.write("//   pip download --no-deps -d /tmp/pkgs openai-agents==<v> google-adk==<v> mcp==<v> fastmcp==<v> ...\n")
    out.write(
        "//   python3 scripts/gen-framework-exports.py /tmp/pkgs > daemon/src/frameworks/exports.rs\n"
    )
    out.write("\n")
    out.write("/// `(module path . exported name, the readers' name for it)`, sorted by the\n")
    out.write("/// first: every spelling at which a package exports a name the readers know.\n")
    out.write("#[rustfmt::skip]\n")
    out.write("pub const EXPORTS: &[(&str, &str)] = &[\n")
    for spelling, source in table.items():
        out.write(f'    ("{spelling}", "{source}"),\n')
    out.write("];\n")
    out.write("\n")
    out.write("/// `(name, kind)`, sorted: the tools a package ships on its tool base\n")
    out.write("/// classes (`tool`, `toolset`) and its module-level instances of them\n")
    out.write("/// (`built_in`), by the name `EXPORTS` gives them.\n")
    out.write("#[rustfmt::skip]\n")
    out.write("pub const SHIPPED_TOOLS: &[(&str, &str)] = &[\n")
    for name, kind in sorted(shipped.items()):
        out.write(f'    ("{name}", "{kind}"),\n')
    out.write("];\n")


if __name__ == "__main__":
    main()
