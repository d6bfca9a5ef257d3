"""Shrinking a failing program: drop parts and make shapes plain while the same property fails."""

from __future__ import annotations

import copy
import dataclasses
import time

from .edits import remove_agent
from .model import App, FileStyle
from .outcome import Outcome, evaluate
from .program import Program
from .render import render


def drop_agent(app: App, key: str) -> App:
    app = copy.deepcopy(app)
    remove_agent(app, key)
    return app


def drop(app: App, field_name: str, key: str) -> App:
    """A copy without one tool (`field_name` "tools") or server ("servers"), unbound from every agent."""
    app = copy.deepcopy(app)
    getattr(app, field_name).pop(key, None)
    for agent in app.agents.values():
        setattr(agent, field_name, [k for k in getattr(agent, field_name) if k != key])
    return app


def plainer_agents(app: App) -> list[App]:
    """Variants with one agent's shape, settings or style, or one tool's signature, made plain."""
    out = []
    for key, agent in app.agents.items():
        for field_name, plain in (("tools_list", "literal"), ("construction", "module_literal"),
                                  ("handoff_ref", "handoff_plain"), ("list_order", 0), ("list_name", ""),
                                  ("hosted", {}), ("agent_tools", []), ("servers", []), ("handoffs", []),
                                  ("model", 0), ("instruction", 0), ("conditions", {}), ("tool_choice", None),
                                  ("tool_use_behavior", None), ("spell_default", False),
                                  ("target_ref", "target_builder_call")):
            if getattr(agent, field_name) != plain and not (field_name == "construction" and agent.clone_of):
                variant = copy.deepcopy(app)
                setattr(variant.agents[key], field_name, plain)
                out.append(variant)
    for tid, tool in app.tools.items():
        plain = dataclasses.replace(tool, params=[], types={}, default=None, is_async=False, returns="str",
                                    helper=False, doc=0, comment=0, wrapper="undecorated")
        if plain != tool:
            variant = copy.deepcopy(app)
            variant.tools[tid] = plain
            out.append(variant)
    if app.package_init != "package_eager":
        out.append(dataclasses.replace(copy.deepcopy(app), package_init="package_eager"))
    for stem, style in app.styles.items():
        if style != FileStyle(import_style=style.import_style):
            variant = copy.deepcopy(app)
            variant.styles[stem] = FileStyle(import_style=style.import_style)
            out.append(variant)
    return out


def shrink_candidates(program: Program):
    """Smaller programs: one edit fewer; one agent, tool or server fewer; one part made plain."""
    for index in range(len(program.edits)):
        yield Program(program.seed, program.base, program.edits[:index] + program.edits[index + 1:])
    for key in list(program.base.agents):
        yield Program(program.seed, drop_agent(program.base, key), program.edits)
    for field_name in ("tools", "servers"):
        for key in list(getattr(program.base, field_name)):
            yield Program(program.seed, drop(program.base, field_name, key), program.edits)
    for variant in plainer_agents(program.base):
        yield Program(program.seed, variant, program.edits)


def valid(program: Program) -> bool:
    """Whether both versions of a shrunk program still render (what is left may not fit together)."""
    try:
        render(program.base)
        render(program.head())
        return True
    except (ValueError, KeyError):
        return False


def shrink(outcome: Outcome, daemon: str, data_dir: str, budget_seconds: float = 180) -> Outcome:
    """Greedily drop parts of the program while a violation with the same signature persists."""
    target = outcome.violations[0].signature
    best = outcome
    deadline = time.monotonic() + budget_seconds
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for candidate in shrink_candidates(best.program):
            if time.monotonic() >= deadline:
                break
            if not valid(candidate):
                continue
            result = evaluate(candidate, daemon, data_dir)
            same = [v for v in result.violations if v.signature == target]
            if same:
                result.violations = same + [v for v in result.violations if v.signature != target]
                best = result
                improved = True
                break
    return best
