"""One program checked: rendered, run through the engine, held to the three properties."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .check import Violation, check, tally
from .engine import EngineError, run_engine
from .model import App
from .program import Program
from .render import render
from .truth import adk_renames, agent_ident


@dataclass
class Outcome:
    """One program's files, the engine's document (None on an engine error) and what it violated."""

    program: Program
    base_files: dict[str, str]
    head_files: dict[str, str]
    doc: Optional[dict]
    violations: list[Violation]
    error: Optional[str] = None
    counts: dict[str, int] = field(default_factory=dict)


def renamed_unreadable(base: App, head: App, unreadable: dict) -> dict:
    """The base side's unreadable agents under the head's name when renamed in place (the engine
    renames the base side's agent and its gaps before pairing)."""
    names = {agent_ident(base.agents[k]): name for k, name in adk_renames(base, head).items()}
    return {(source, names.get((source, agent), agent)): bindings
            for (source, agent), bindings in unreadable.items()}


def evaluate(program: Program, daemon: str, data_dir: str) -> Outcome:
    """Render both versions, run the engine on them and hold its answer to the properties."""
    head = program.head()
    base_render, head_render = render(program.base), render(head)
    try:
        doc = run_engine(daemon, data_dir, base_render.files, head_render.files)
    except EngineError as error:
        return Outcome(program, base_render.files, head_render.files, None, [], str(error))
    unreadable = {"base": renamed_unreadable(program.base, head, base_render.unreadable),
                  "head": head_render.unreadable}
    violations = check(program.base, head, doc, unreadable)
    counts = tally(program.base, head, doc)
    return Outcome(program, base_render.files, head_render.files, doc, violations, counts=counts)
