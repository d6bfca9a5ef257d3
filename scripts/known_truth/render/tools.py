"""Function tools and MCP servers as source: definitions, and how another module refers to a tool."""

from __future__ import annotations

from typing import Optional

from ..catalogue import DECORATOR_KINDS, LABELLED_WRAPPERS, LAZY_EDGES, SDK_DECORATORS
from ..model import App, SDK, Server, Tool
from ..naming import DECORATORS_MODULE, dotted, module_alias_name, relative_module
from ..rules import has_twin
from ..truth import param_type
from .registries import registration_decorator
from .writer import Writer, stable_hash

DOCSTRINGS = ["", "Do the work.", "Do the work for the caller.", "Return a short note.", "A tool."]
INLINE_WRAPPERS = {"adk_function_tool_inline": "FunctionTool", "adk_long_running_inline": "LongRunningFunctionTool"}


def tool_bound_name(tool: Tool) -> str:
    """The module-level name an agent lists for the tool."""
    if tool.definition in ("sdk_function_tool_call", "adk_function_tool_module"):
        return f"{tool.name}_tool"
    return tool.name


def render_signature(tool: Tool) -> str:
    params = [f"{p}: {param_type(tool, p)}" for p in tool.params]
    if params and tool.default is not None:
        params[-1] += f" = {tool.default}"
    prefix = "async def" if tool.is_async else "def"
    return f"{prefix} {tool.name}({', '.join(params)}) -> {tool.returns}:"


def override_argument(w: Writer, tool: Tool) -> str:
    return f"name_override={w.q(tool.override)}" if tool.override else ""


def wrapper_decorator(w: Writer, tool: Tool) -> list[str]:
    """The repository decorator under the framework's (`tool_wrapper`), imported from app/decorators.py."""
    if tool.wrapper not in DECORATOR_KINDS:
        return []
    kind = DECORATOR_KINDS[tool.wrapper]
    w.imports.name(dotted(DECORATORS_MODULE), kind)
    if tool.wrapper in LABELLED_WRAPPERS:
        return [f"@{kind}({w.q(tool.label)})"]
    if tool.wrapper == "dual_decorator_call":
        return [f"@{kind}(quiet=True)"]
    return [f"@{kind}"]


def render_tool_definition(w: Writer, tool: Tool) -> list[str]:
    lines = []
    registration = registration_decorator(w, tool)  # outermost, when a registry registers it
    if tool.definition in SDK_DECORATORS:
        w.imports.name("agents", "function_tool")
        bare = tool.definition == "sdk_decorator" and not tool.override
        if tool.override and tool.override_constant:
            constant = f"{tool.name.upper()}_TOOL_NAME"
            lines.append(f"{constant} = {w.q(tool.override)}")
            lines += registration
            lines.append(f"@function_tool(name_override={constant})")
        else:
            lines += registration
            lines.append("@function_tool" if bare else f"@function_tool({override_argument(w, tool)})")
    else:
        lines += registration
    lines += wrapper_decorator(w, tool)
    lines.append(render_signature(tool))
    if tool.doc:
        lines += render_docstring(tool)
    if tool.comment:
        lines.append(f"    # step {tool.comment}")
    pieces = "|".join("{" + p + "}" for p in tool.params)
    lines.append(f"    {tool.local} = f{w.q(tool.name + ':' + pieces + ':v' + str(tool.body))}")
    value = f"_fmt({tool.local})" if tool.helper else tool.local
    lines.append(f"    return {{{w.q('text')}: {value}}}" if tool.returns == "dict" else f"    return {value}")
    if tool.definition == "sdk_function_tool_call":
        w.imports.name("agents", "function_tool")
        arguments = ", ".join(a for a in (tool.name, override_argument(w, tool)) if a)
        lines += ["", "", f"{tool.name}_tool = function_tool({arguments})"]
    elif tool.definition == "adk_function_tool_module":
        w.imports.name("google.adk.tools", "FunctionTool")
        lines += ["", "", f"{tool.name}_tool = FunctionTool(func={tool.name})"]
    return lines


def render_docstring(tool: Tool) -> list[str]:
    """A one-line docstring, or (odd variants past the list) one with an Args: section."""
    summary = DOCSTRINGS[tool.doc % len(DOCSTRINGS)] or "Run."
    if tool.doc < len(DOCSTRINGS) or not tool.params:
        return [f'    """{summary}"""']
    args = [f"        {p}: the {p.replace('_', ' ')} (variant {tool.doc})." for p in tool.params]
    return [f'    """{summary}', "", "    Args:"] + args + ['    """']


def render_helper(w: Writer, app: App) -> list[list[str]]:
    """The module's `_fmt`, when one of its tools calls it; its body is a neutral variant."""
    if not any(t.helper for t in tools_defined_in(app, w.stem)):
        return []
    variant = app.helpers.get(w.stem, 0)
    return [["def _fmt(text):", f"    return text + {w.q('#' + str(variant))}"]]


def tools_defined_in(app: App, stem: str) -> list[Tool]:
    """The tools module `stem` defines, in their (neutral) definition order."""
    return sorted((t for t in app.tools.values() if t.module == stem), key=lambda t: (t.order, t.name))


def tool_blocks(w: Writer) -> list[list[str]]:
    """The definitions of the tools module `w.stem` holds, after the helper they call."""
    return render_helper(w, w.app) + [render_tool_definition(w, t) for t in tools_defined_in(w.app, w.stem)]


def render_tool_module(app: App, stem: str) -> Writer:
    w = Writer(app, stem)
    w.blocks = tool_blocks(w)
    return w


def import_style(app: App, stem: str, module: str, tool: Optional[Tool] = None) -> str:
    """How module `stem` imports from tool module `module` (a re-export needs a package; a tool
    with a same-named twin, and any tool of a module holding one under a wildcard, is qualified)."""
    style = app.style(stem).import_style.get(module, "import_relative")
    if tool is not None and has_twin(app, tool):
        return "module_alias"
    if style == "wildcard_import" and any(has_twin(app, t) for t in app.tools.values()
                                          if t.module in (module, stem)):
        return "module_alias"
    if style == "package_reexport" and ("/" not in module or module.endswith("/__init__")):
        return "import_relative"
    return style


def lazy_special_name(app: App, package: str) -> Optional[str]:
    """The name the lazy registry's edges (`package_lazy_mutated`, `package_lazy_hook_first`) make
    open: the first of the package's re-exported names."""
    names = sorted(tool_bound_name(t) for t in app.tools.values() if t.module.startswith(package + "/"))
    return names[0] if names else None


def reference_opaque(app: App, stem: str, tool: Tool) -> bool:
    """Whether module `stem` reaches the tool through a name the package's lazy registry does not decide."""
    if tool.module == stem or app.package_init not in LAZY_EDGES:
        return False
    if import_style(app, stem, tool.module, tool) != "package_reexport":
        return False
    return tool_bound_name(tool) == lazy_special_name(app, tool.module.rsplit("/", 1)[0])


def tool_reference(w: Writer, tool: Tool) -> str:
    """An expression for the tool in module `w.stem`, importing what it needs."""
    name = tool_bound_name(tool)
    if tool.module != w.stem:
        style = import_style(w.app, w.stem, tool.module, tool)
        if style == "package_reexport":  # `from .lib import a` or `from app.lib import a` (neutral)
            package = tool.module.rsplit("/", 1)[0]
            absolute = stable_hash(w.stem, package) % 2
            w.imports.name(dotted(package) if absolute else relative_module(package), name)
        elif style == "import_module_dotted":
            w.imports.module(dotted(tool.module))
            name = f"{dotted(tool.module)}.{name}"
        elif style == "wildcard_import":
            w.imports.name(relative_module(tool.module), "*")
        elif style == "alias_assignment":
            w.imports.name(relative_module(tool.module), name)
            w.aliases[f"{name}_ref"] = name
            name = f"{name}_ref"
        elif style == "import_absolute":
            w.imports.name(dotted(tool.module), name)
        elif style == "module_alias":
            name = f"{module_alias(w, tool.module)}.{name}"
        else:
            w.imports.name(relative_module(tool.module), name)
    wrapper = INLINE_WRAPPERS.get(tool.definition)
    if wrapper:
        w.imports.name("google.adk.tools", wrapper)
        return f"{wrapper}(func={name})"
    return name


def module_alias(w: Writer, stem: str) -> str:
    """`from <package> import <module> as <module>_mod`: the alias that qualifies its tools."""
    package, _, module = relative_module(stem).rpartition(".")
    w.imports.alias(package or ".", module, module_alias_name(stem))
    return module_alias_name(stem)


def render_server(w: Writer, server: Server) -> list[str]:
    """The module-level statement that builds an MCP server (SDK MCPServerStdio, ADK McpToolset)."""
    args = w.seq([w.q(a) for a in server.args], "")
    allowed = None if server.filter is None else w.seq([w.q(n) for n in server.filter], "    ")
    if server.framework == SDK:
        cls = "MCPServerStdio"
        w.imports.name("agents.mcp", cls)
        params = "{" + f"{w.q('command')}: {w.q(server.command)}, {w.q('args')}: {args}" + "}"
        arguments = ([f"name={w.q(server.key)}"] if server.named else []) + [f"params={params}"]
        if allowed is not None:
            w.imports.name("agents.mcp", "create_static_tool_filter")
            arguments.append(f"tool_filter=create_static_tool_filter(allowed_tool_names={allowed})")
    else:
        cls = "McpToolset"
        w.imports.name("google.adk.tools.mcp_tool", cls)
        w.imports.name("google.adk.tools.mcp_tool.mcp_session_manager", "StdioConnectionParams")
        w.imports.name("mcp", "StdioServerParameters")
        params = f"StdioServerParameters(command={w.q(server.command)}, args={args})"
        arguments = [f"connection_params=StdioConnectionParams(server_params={params})"]
        if allowed is not None:
            arguments.append(f"tool_filter={allowed}")
    return [f"{server.var} = {w.call(cls, arguments, '')}"]


def render_decorators_module(app: App) -> Optional[Writer]:
    """app/decorators.py: the repository decorators the tools use (`tool_wrapper`), each in its code variant."""
    kinds = sorted({DECORATOR_KINDS[t.wrapper] for t in app.tools.values() if t.wrapper in DECORATOR_KINDS})
    if not kinds:
        return None
    w = Writer(app, DECORATORS_MODULE)
    w.imports.module("functools")
    w.imports.module("inspect")
    w.blocks.append(["_TRACE = []"])
    for kind in kinds:
        w.blocks += DECORATOR_CODE[kind](w, app.decorators.get(kind, 0))
    return w


def wrapper_lines(w: Writer, name: str, trace: str, indent: str = "    ", is_async: bool = False) -> list[str]:
    """`@functools.wraps(func) def name(*args, **kwargs): _TRACE.append(trace); return func(...)`."""
    call = "await func(*args, **kwargs)" if is_async else "func(*args, **kwargs)"
    return [f"{indent}@functools.wraps(func)",
            f"{indent}{'async def' if is_async else 'def'} {name}(*args, **kwargs):",
            f"{indent}    _TRACE.append({trace})",
            f"{indent}    return {call}"]


def logged_code(w: Writer, variant: int, optional: bool = False) -> list[list[str]]:
    name = "logged_optional" if optional else "logged"
    lines = [f"def {name}(label):", "    def decorator(func):"]
    lines += wrapper_lines(w, "wrapper", f"(label, {variant})", "        ")
    lines += ["", "        return wrapper", ""]
    lines += ["    if label:", "        return decorator", "    return None"] if optional else ["    return decorator"]
    return [lines]


def dual_code(w: Writer, variant: int) -> list[list[str]]:
    tool = ["def tool(func=None, *, quiet=False):", "    def _decorator(fn):", "        return _build(fn, quiet=quiet)", "",
            "    if func is not None:", "        return _build(func, quiet=False)", "    return _decorator"]
    build = ["def _build(func, *, quiet=False):", "    if inspect.iscoroutinefunction(func):"]
    build += wrapper_lines(w, "_async_wrapper", f"({w.q('async')}, quiet, {variant})", "        ", is_async=True)
    build += ["", "        return _async_wrapper", "    else:"]
    build += wrapper_lines(w, "_sync_wrapper", f"({w.q('sync')}, quiet, {variant})", "        ")
    build += ["", "        return _sync_wrapper"]
    return [tool, build]


def checked_code(w: Writer, variant: int) -> list[list[str]]:
    lines = ["def checked(func):"]
    lines += wrapper_lines(w, "wrapper", f"({w.q('checked')}, {variant})")
    lines += ["", f"    if not func.__name__.startswith({w.q('_')}):", "        return wrapper"]
    return [lines]


DECORATOR_CODE = {
    "logged": logged_code,
    "logged_optional": lambda w, v: logged_code(w, v, optional=True),
    "tool": dual_code,
    "checked": checked_code,
}
