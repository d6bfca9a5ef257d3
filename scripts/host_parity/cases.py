"""A case: its sources (one host file each, base and head), what happens to each file as a whole
(its lifecycle), how the head is committed, and the base / head files it makes.

Case N of seed S is always the same case: one `random.Random` per case, drawn in a fixed order."""

import json
import os
import random

from .claude import CLAUDE_EDITS, attach_hook_script, draw_claude
from .codex import CODEX_EDITS, draw_codex
from .mcp import MCP_EDITS, draw_mcp_json
from .render import render_codex, render_json, render_workflow
from .secrets import Secrets
from .vocabulary import weighted
from .workflows import WORKFLOW_EDITS, draw_workflow


BROKEN_JSON = ('{"permissions": {"allow": ["Bash(ls:*)",', "{not json", '{"mcpServers": {"x": }}')
# Files that parse but whose shape a host does not have (the reference: `unsupported`).
ODD_SHAPES = {
    "claude": ('{"permissions": ["Bash"]}\n', '{"permissions": {"allow": "Bash"}}\n', "[]\n",
               '{"permissions": {"allow": [""]}}\n'),
    "mcp": ('{"mcpServers": []}\n', "[]\n"),
    "vscode": ('{"mcpServers": {"x": {"command": "npx", "args": ["-y", "pkg@1.0.0"]}}}\n',),
    "codex": ("mcp_servers = 3\n",),
    "workflow": ("- on: push\n", ""),
}
BROKEN_TOML = ('approval_policy = \n', '[mcp_servers.x\ncommand = "npx"\n', 'sandbox_mode = "read-only\n')
BROKEN_YAML = ("on: [push\njobs:\n", "on: push\njobs:\n\tbuild: {}\n", "name: ci\non: push\n  jobs: [\n")


class Source:
    """One host configuration file of a case, on both sides.

    `base` / `head` are models (plain data) or None when the file is absent;
    `base_text` / `head_text` override the rendering (a broken file);
    `extra_base` / `extra_head` hold companion files (a hook's script).
    """

    def __init__(self, kind, path, base, style):
        self.kind = kind
        self.path = path
        self.head_path = path
        self.base = base
        self.head = json.loads(json.dumps(base)) if base is not None else None
        self.style = style
        self.head_style = style
        self.base_text = None
        self.head_text = None
        self.extra_base = {}
        self.extra_head = {}
        self.edits = []
        self.container = None  # the JSON key holding MCP servers

    def render(self, model, style):
        if model is None:
            return None
        if self.kind == "codex":
            return render_codex(model, style)
        if self.kind == "workflow":
            return render_workflow(model, style)
        return render_json(model, style)

    def base_files(self):
        files = dict(self.extra_base)
        text = self.base_text if self.base_text is not None else self.render(self.base, self.style)
        if text is not None:
            files[self.path] = text
        return files

    def head_files(self):
        """Every path this source touches on the head side; None = absent."""
        files = {path: None for path in self.extra_base}
        files.update(self.extra_head)
        files[self.path] = None
        text = self.head_text if self.head_text is not None else self.render(self.head, self.head_style)
        files[self.head_path] = text
        return files

    def note(self, text):
        self.edits.append(f"{self.head_path if self.head_path != self.path else self.path}: {text}")


class Case:
    def __init__(self, seed, index):
        self.seed = seed
        self.index = index
        self.rng = random.Random(f"host-parity/{seed}/{index}")
        self.secrets = Secrets(self.rng)
        self.sources = []
        self.commit = "committed"
        self.committed_paths = set()

    @property
    def name(self):
        return f"case {self.index} (seed {self.seed})"

    def edits(self):
        return [e for s in self.sources for e in s.edits]

    def base_files(self):
        files = {"README.md": "fixture\n"}
        for s in self.sources:
            files.update(s.base_files())
        return files

    def head_files(self):
        files = {}
        for s in self.sources:
            for path, text in s.head_files().items():
                if text is not None or path not in files:
                    files[path] = text
        return files

    def size(self):
        texts = list(self.base_files().values()) + list(self.head_files().values())
        return sum(len(t) for t in texts if t)

    def kinds(self):
        return sorted({s.kind for s in self.sources})


def draw_source(rng, secrets, kind, taken):
    if kind == "claude":
        path = weighted(rng, [(6, ".claude/settings.json"), (2, ".claude/settings.local.json"),
                              (1, "packages/app/.claude/settings.json")])
        model, container, style = draw_claude(rng, secrets), None, weighted(rng, [(8, "normal"), (1, "wide"), (1, "compact")])
    elif kind == "mcp":
        path = weighted(rng, [(5, ".mcp.json"), (2, ".cursor/mcp.json"), (2, ".vscode/mcp.json"),
                              (1, "services/api/.mcp.json")])
        container = "servers" if path.startswith(".vscode/") else "mcpServers"
        model, style = {container: draw_mcp_json(rng, secrets, path)}, weighted(rng, [(8, "normal"), (1, "compact")])
    elif kind == "codex":
        path = weighted(rng, [(9, ".codex/config.toml"), (1, "tools/.codex/config.toml")])
        model, container, style = draw_codex(rng, secrets), None, rng.choice(("inline", "tables"))
    else:
        name = rng.choice(("ci", "release", "triage", "deploy", "nightly"))
        path = f".github/workflows/{name}.{weighted(rng, [(4, 'yml'), (1, 'yaml')])}"
        model, container, style = draw_workflow(rng, secrets, path), None, weighted(rng, [(6, "normal"), (1, "map-on"), (1, "quoted-on")])
    if path in taken:
        return None
    src = Source(kind, path, model, style)
    src.container = container
    if kind == "claude":
        attach_hook_script(rng, src)
    return src


EDIT_TABLES = {"claude": CLAUDE_EDITS, "mcp": MCP_EDITS, "codex": CODEX_EDITS, "workflow": WORKFLOW_EDITS}
BROKEN_TEXT = {"claude": BROKEN_JSON, "mcp": BROKEN_JSON, "codex": BROKEN_TOML, "workflow": BROKEN_YAML}


def apply_edits(rng, secrets, src, count):
    done = 0
    for _ in range(count * 8):
        if done == count:
            break
        edit = weighted(rng, EDIT_TABLES[src.kind])
        try:
            if edit(rng, src, secrets):
                done += 1
        except (IndexError, ValueError):
            continue  # an edit that does not fit this model: draw another
    if not done:
        src.note("no applicable edit (unchanged)")


def rename_target(rng, src):
    if src.kind == "workflow":
        return os.path.join(os.path.dirname(src.path), "renamed-" + os.path.basename(src.path))
    if src.kind == "claude":
        return ".claude/settings.local.json" if src.path.endswith("settings.json") else ".claude/settings.json"
    if src.path == ".mcp.json":
        return "packages/web/.mcp.json"
    return None


def apply_lifecycle(rng, secrets, src, taken):
    """What happens to the file as a whole: edited, added, deleted, broken, renamed..."""
    fate = weighted(rng, [(60, "edit"), (10, "added"), (6, "deleted"), (6, "broken-head"),
                          (3, "broken-base"), (2, "broken-both"), (3, "odd-shape"), (5, "unchanged"),
                          (5, "renamed")])
    if fate == "edit":
        apply_edits(rng, secrets, src, weighted(rng, [(5, 1), (3, 2), (1, 3)]))
    elif fate == "added":
        src.base = None
        src.extra_base, src.extra_head = {}, dict(src.extra_base)
        if rng.random() < 0.4:
            apply_edits(rng, secrets, src, 1)
        src.edits.insert(0, f"{src.path}: new file")
    elif fate == "deleted":
        src.head = None
        src.note("delete the file")
    elif fate == "broken-head":
        src.head_text = rng.choice(BROKEN_TEXT[src.kind])
        src.note("head does not parse")
    elif fate == "odd-shape":
        shapes = ODD_SHAPES["vscode" if src.path.startswith(".vscode/") else src.kind]
        src.head_text = rng.choice(shapes)
        src.note("head parses but has a shape the host does not")
    elif fate == "broken-base":
        src.base_text = rng.choice(BROKEN_TEXT[src.kind])
        src.note("base does not parse; head repairs it")
    elif fate == "broken-both":
        src.base_text = src.head_text = rng.choice(BROKEN_TEXT[src.kind])
        src.note("does not parse on either side (unchanged)")
    elif fate == "renamed":
        target = rename_target(rng, src)
        if target is None or target in taken:
            apply_edits(rng, secrets, src, 1)
            return
        src.head_path = target
        taken.add(target)
        src.edits.append(f"{src.path}: rename to {target}")
        if rng.random() < 0.4:
            apply_edits(rng, secrets, src, 1)
    else:
        src.note("unchanged")


def draw_case(seed, index):
    case = Case(seed, index)
    rng = case.rng
    taken = set()
    for _ in range(weighted(rng, [(50, 1), (35, 2), (15, 3)])):
        kind = weighted(rng, [(35, "claude"), (25, "mcp"), (15, "codex"), (25, "workflow")])
        src = draw_source(rng, case.secrets, kind, taken)
        if src is None:
            continue
        taken.add(src.path)
        apply_lifecycle(rng, case.secrets, src, taken)
        case.sources.append(src)
    case.commit = weighted(rng, [(45, "committed"), (35, "uncommitted"), (20, "mixed")])
    head_paths = sorted(case.head_files())
    if case.commit == "committed":
        case.committed_paths = set(head_paths)
    elif case.commit == "mixed":
        case.committed_paths = {p for p in head_paths if rng.random() < 0.5}
    return case
