"""Reporting: what a program used and how it failed, and the tally of a run of many programs."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

from .catalogue import IDENTITY_BY_VARIABLE, REWIRES, SHAPES
from .check import binding_gaps, compact_row
from .model import ADK, SDK, negated
from .outcome import Outcome
from .program import Program
from .render.tools import import_style
from .rules import has_twin
from .truth import condition_of, true_changes


def shapes_used(program: Program) -> set[str]:
    """The catalogue shapes either version of the program spells (what a failure is blamed on)."""
    used = set()
    for app in (program.base, program.head()):
        for agent in app.agents.values():
            used |= {agent.construction, agent.tools_list}
            if agent.framework == SDK and agent.handoffs:
                used.add(agent.handoff_ref)
            if agent.hosted:
                used.add("hosted_tool")
            if agent.servers:
                used.add("mcp_server")
                if any(app.servers[k].module for k in agent.servers):
                    used.add("server_imported")
            used.add(app.style(agent.file).class_spelling)
            for tid in agent.tools:
                tool = app.tools[tid]
                if tool.override and tool.override_constant:
                    used.add("override_constant")
            if any(app.agents[k].file != agent.file for k in agent.handoffs + agent.agent_tools):
                used.add("cross_module_agents")
            if any(app.servers[k].filter is not None for k in agent.servers):
                used.add("mcp_tool_filter")
            if agent.framework == ADK and agent.tools_list in REWIRES and agent.rewire_handoffs and agent.handoffs:
                used.add("rewire_sub_agents")
            if agent.tool_choice or agent.tool_use_behavior:
                used.add("agent_settings")
            if agent.spell_default and not agent.tool_use_behavior and agent.construction != "clone":
                used.add("explicit_default_setting")
            if any(condition_of(agent, t) for t in agent.tools):
                used.add("conditional_member")
            if any(negated(condition_of(agent, t) or "") for t in agent.tools):
                used.add("conditional_else")
            if any(app.agents[k].construction not in IDENTITY_BY_VARIABLE
                   for k in agent.handoffs + (agent.agent_tools if agent.framework == ADK else [])):
                used.add(agent.target_ref)
            if agent.agent_tools:
                used.add("agent_as_tool")
            if agent.handoffs:
                used.add("handoffs")
            for name in agent.tools:
                tool = app.tools[name]
                used.add(tool.definition)
                used.add(tool.wrapper)
                if tool.helper:
                    used.add("tool_helper")
                if tool.module.endswith("/__init__"):
                    used.add("package_init_module")
                if tool.module == agent.file:
                    used.add("local_definition")
                else:
                    style = import_style(app, agent.file, tool.module, tool)
                    used.add(style)
                    if style == "package_reexport":
                        used.add(app.package_init)
                if has_twin(app, tool):
                    used.add("same_name_tools")
    return used


def blame(program: Program) -> list[str]:
    """The shapes a failure is counted against: the non-base shapes the shrunk program uses."""
    used = shapes_used(program)
    special = sorted(s for s in used if not SHAPES[s].base)
    return special or sorted(used)


def print_program(outcome: Outcome, out=sys.stdout):
    program = outcome.program
    binding = [e.describe() for e in program.edits if not e.neutral]
    neutral = [e.describe() for e in program.edits if e.neutral]
    print(f"--- seed {program.seed}: binding edits: {', '.join(binding) or 'none'}; "
          f"neutral edits: {', '.join(neutral) or 'none'}", file=out)
    for label, files in (("base (main)", outcome.base_files), ("head (head)", outcome.head_files)):
        print(f"=== {label}", file=out)
        for path in sorted(files):
            if files[path].strip():
                print(f"--- {path}", file=out)
                print(files[path].rstrip("\n"), file=out)
    if outcome.doc is not None:
        print("=== engine rows", file=out)
        for row in outcome.doc.get("rows", []):
            print("  " + json.dumps(compact_row(row), sort_keys=True), file=out)
        for side, gap in binding_gaps(outcome.doc):
            print(f"  {side} gap: source={gap.get('source')} agent={gap.get('agent')} tool={gap.get('tool')}: {gap.get('reason')}", file=out)
    truth = true_changes(program.base, program.head())
    print("=== true changes", file=out)
    for key, change in sorted(truth.items()):
        print(f"  {change}: {key[0]} {key[1]} -> {key[2]}", file=out)


@dataclass
class Campaign:
    """What a run of many programs found."""

    first_seed: int
    tried: int = 0
    failures: list[Outcome] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    by_shape: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)

    def record(self, seed: int, outcome: Outcome):
        self.tried += 1
        for name, value in outcome.counts.items():
            self.totals[name] = self.totals.get(name, 0) + value
        if outcome.error:
            self.errors.append((seed, outcome.error))
            print(f"seed {seed}: engine error: {outcome.error}", flush=True)

    def fail(self, seed: int, shrunk: Outcome):
        self.failures.append(shrunk)
        shapes = blame(shrunk.program)
        for shape in shapes:
            self.by_shape[shape] = self.by_shape.get(shape, 0) + 1
        print(f"\n##### FAILURE seed {seed} (shapes: {', '.join(shapes)})")
        print(shrunk.violations[0].render())
        for extra in shrunk.violations[1:]:
            print("also " + extra.render())
        print_program(shrunk)
        print(flush=True)

    def summary(self, last_seed: int, elapsed: float):
        print(f"summary: {self.tried} programs tried (seeds {self.first_seed}..{last_seed}) in {elapsed:.0f} s; "
              f"{len(self.failures)} failures; {len(self.errors)} engine errors")
        print("  answers: " + ", ".join(f"{name} {value}" for name, value in self.totals.items()))
        for shape, count in sorted(self.by_shape.items(), key=lambda item: (-item[1], item[0])):
            print(f"  failures involving {shape}: {count}")
