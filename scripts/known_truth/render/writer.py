"""One module being written: its imports, its formatting style, and how its blocks are assembled."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import App


def stable_hash(*parts) -> int:
    """A hash that, unlike hash(), does not change between runs (PYTHONHASHSEED)."""
    text = "|".join(str(p) for p in parts)
    value = 0
    for ch in text:
        value = (value * 131 + ord(ch)) % 1_000_000_007
    return value


@dataclass
class Rendered:
    files: dict[str, str]  # path under the repository -> text
    unreadable: dict[tuple[str, str], set[str]]  # (agent_source, agent) -> binding names not readable


@dataclass
class AgentContext:
    """What one agent's rendering collects besides its construction's arguments."""

    in_function: bool  # the construction runs in a function: its targets may be bound to locals there
    prelude: list[str] = field(default_factory=list)  # statements before the construction, in its scope
    locals: dict[str, str] = field(default_factory=dict)  # target key -> the local bound to it
    unreadable: set[str] = field(default_factory=set)  # binding names spelled where the readers cannot read


class Imports:
    """The import lines one module needs, collected while its body is rendered."""

    def __init__(self):
        self.from_names: dict[str, set[str]] = {}
        self.plain: set[str] = set()
        self.aliases: dict[str, tuple[str, str]] = {}  # alias -> (package, module)

    def name(self, module: str, name: str, alias: str = ""):
        self.from_names.setdefault(module, set()).add(f"{name} as {alias}" if alias else name)

    def module(self, module: str):
        self.plain.add(module)

    def alias(self, package: str, module: str, alias: str):
        self.aliases[alias] = (package, module)

    def lines(self, body: str) -> list[str]:
        """The import statements, without names `body` never uses (a wildcard always stays)."""
        def used(name: str) -> bool:
            return re.search(rf"(?<![\w.]){re.escape(name)}\b", body) is not None

        out = [f"import {m}" for m in sorted(self.plain) if used(m.split(".")[0])]
        for module in sorted(self.from_names):
            names = [n for n in sorted(self.from_names[module]) if n == "*" or used(n.split(" as ")[-1])]
            if names:
                out.append(f"from {module} import {', '.join(names)}")
        for alias, (package, module) in sorted(self.aliases.items()):
            if used(alias):
                out.append(f"from {package} import {module} as {alias}")
        return out


class Writer:
    """Formatting helpers for one module, following its FileStyle."""

    def __init__(self, app: App, stem: str):
        self.app = app
        self.stem = stem
        self.style = app.style(stem)
        self.imports = Imports()
        self.blocks: list[list[str]] = []  # for modules assembled from several agents' parts
        self.aliases: dict[str, str] = {}  # module-level `alias = name` after the imports
        self.once: set[str] = set()  # module-level helpers already written (describe_tools, ...)

    def q(self, text: str) -> str:
        return f"{self.style.quote}{text}{self.style.quote}"

    def seq(self, items: list[str], indent: str, brackets: str = "[]") -> str:
        """A display of `items` (one a line when the style is multiline), closing at `indent`."""
        if not self.style.multiline or not items:
            return brackets[0] + ", ".join(items) + brackets[1]
        inner = "".join(f"{indent}    {item},\n" for item in items)
        return f"{brackets[0]}\n{inner}{indent}{brackets[1]}"

    def call(self, func: str, arguments: list[str], indent: str) -> str:
        return func + self.seq(arguments, indent, "()")

    def comment(self, where: str) -> list[str]:
        if not self.style.comments:
            return []
        if stable_hash(self.style.comments, self.stem, where) % 3:
            return []
        return [f"# {where}: note {self.style.comments}"]


HEADERS = ["", "Agents of the application.", "The application's agents and tools.", "Module."]


def assemble(w: Writer, blocks: list[list[str]]) -> str:
    """The module's text: header, the imports its body uses, aliases, then the blocks."""
    out: list[str] = []
    if w.style.header:
        out += [f'"""{HEADERS[w.style.header % len(HEADERS)]}"""', ""]
    body: list[str] = []
    if w.aliases:
        body += [""] + [f"{alias} = {name}" for alias, name in sorted(w.aliases.items())]
    for index, block in enumerate(blocks):
        body += ["", ""] + w.comment(f"block {index}") + block
    out += w.imports.lines("\n".join(body))
    return "\n".join(out + body).lstrip("\n") + "\n"


class RenderState:
    """Modules other than agent modules, filled while the agents are rendered."""

    def __init__(self, app: App):
        self.app = app
        self.modules: dict[str, Writer] = {}

    def side_module(self, stem: str) -> Writer:
        if stem not in self.modules:
            self.modules[stem] = Writer(self.app, stem)
        return self.modules[stem]
