"""One program checked: rendered, run through the engine, held to the three properties."""

from __future__ import annotations

import copy
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


def moved_base(base: App, renames: dict[str, str]) -> App:
    """The base model with each agent module git pairs as renamed at its head path: a renamed file is
    the same file, so its agents are the head's agents of that name (issue 41, item 5). Unpaired, the
    base keeps its own paths, and the agents are removed from one file and added in another."""
    stems = {old.removesuffix(".py"): new.removesuffix(".py") for old, new in renames.items()}
    moved = copy.deepcopy(base)
    for agent in moved.agents.values():
        agent.file = stems.get(agent.file, agent.file)
    return moved


def doc_in_head_paths(doc: dict, renames: dict[str, str]) -> dict:
    """The document with the base side's limits on renamed files at their head paths, as the truth
    (`moved_base`) names those files (and the agents named by where they are built): the engine's
    limits name the base's own paths."""
    if not renames:
        return doc
    checked = copy.deepcopy(doc)
    for gap in checked.get("base", {}).get("coverage_gaps", []):
        gap["source"] = renames.get(gap.get("source"), gap.get("source"))
        if gap.get("agent"):
            gap["agent"] = moved_agent_name(gap["agent"], renames)
    return checked


def moved_agent_name(agent: str, renames: dict[str, str]) -> str:
    """An agent named by its builder carries its file in its name (`build_x@adk_a.py`): at the
    file's head path when it moved."""
    function, at, file = agent.rpartition("@")
    return f"{function}@{renames[file]}" if at and file in renames else agent


def evaluate(program: Program, daemon: str, data_dir: str) -> Outcome:
    """Render both versions, run the engine on them and hold its answer to the properties."""
    head = program.head()
    base_render, head_render = render(program.base), render(head)
    try:
        doc, renames = run_engine(daemon, data_dir, base_render.files, head_render.files)
    except EngineError as error:
        return Outcome(program, base_render.files, head_render.files, None, [], str(error))
    base = moved_base(program.base, renames)
    base_unreadable = {(renames.get(source, source), moved_agent_name(agent, renames)): names
                       for (source, agent), names in base_render.unreadable.items()}
    unreadable = {"base": renamed_unreadable(base, head, base_unreadable),
                  "head": head_render.unreadable}
    checked = doc_in_head_paths(doc, renames)
    violations = check(base, head, checked, unreadable)
    counts = tally(base, head, checked)
    return Outcome(program, base_render.files, head_render.files, doc, violations, counts=counts)
