"""The three properties, held against the engine's JSON document (see the package's docstring)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Optional

from .model import App
from .truth import adk_renames, expected_bound_when, true_changes

ESTABLISHED = ("added", "removed", "changed")


@dataclass
class Violation:
    prop: str  # "a", "b" or "c"
    key: tuple[str, str, str]  # (agent_source, agent, tool)
    message: str
    row: Optional[dict] = None

    @property
    def signature(self) -> tuple:
        return (self.prop, self.key[1], self.key[2])

    def render(self) -> str:
        out = f"property ({self.prop}): {self.message}"
        if self.row is not None:
            out += "\n  row: " + json.dumps(compact_row(self.row), sort_keys=True)
        return out


def compact_row(row: dict) -> dict:
    out = {k: row.get(k) for k in ("agent", "agent_source", "tool", "change", "candidate_change", "uncertainty")}
    for side in ("before", "after"):
        if (row.get(side) or {}).get("bound_when"):
            out[f"{side}.bound_when"] = row[side]["bound_when"]
    return out


def row_key(row: dict) -> tuple[str, str, str]:
    return (row.get("agent_source") or "", row.get("agent") or "", row.get("tool") or "")


def binding_gaps(doc: dict) -> list[tuple[str, dict]]:
    return [(side, gap) for side in ("base", "head") for gap in doc.get(side, {}).get("coverage_gaps", [])
            if gap.get("affects") == "binding_presence"]


def gap_covers_file(gap: dict, source: str) -> bool:
    where = gap.get("source")
    return where is None or where in (".", "") or source == where or source.startswith(where.rstrip("/") + "/")


def gap_covers(gap: dict, key: tuple[str, str, str]) -> bool:
    source, agent, tool = key
    return (gap.get("agent") in (None, agent) and gap.get("tool") in (None, tool)
            and gap_covers_file(gap, source))


def covering_gap(doc: dict, key: tuple[str, str, str], sides=("base", "head")) -> Optional[dict]:
    """A named limit that covers the binding (contract §6.5), on one of `sides`."""
    for side, gap in binding_gaps(doc):
        if side in sides and gap_covers(gap, key):
            return gap
    return None


def when_mismatch(row: dict, before: dict, after: dict) -> Optional[str]:
    """Where an established row's bound_when is not the one the model says (`truth.bound_when`)."""
    key = row_key(row)
    change = row.get("change")
    for side, expected, present in (("before", before, change in ("removed", "changed")),
                                    ("after", after, change in ("added", "changed"))):
        if not present or key not in expected:
            continue
        actual = (row.get(side) or {}).get("bound_when") or []
        if actual != expected[key]:
            return f"{side}.bound_when is {actual}, the model says {expected[key] or 'none'}"
    return None


def tally(base: App, head: App, doc: dict) -> dict[str, int]:
    """How the true changes were answered: established, not_established, a limit alone; extra rows."""
    truth = true_changes(base, head)
    rows = {row_key(r): r.get("change") for r in doc.get("rows", [])}
    counts = {"true changes": len(truth), "established": 0, "not_established": 0, "limit only": 0,
              "not_established rows on unchanged bindings": 0}
    for key in truth:
        if rows.get(key) in ESTABLISHED:
            counts["established"] += 1
        elif key in rows:
            counts["not_established"] += 1
        else:
            counts["limit only"] += 1
    counts["not_established rows on unchanged bindings"] = sum(
        1 for key, change in rows.items() if key not in truth and change == "not_established")
    return counts


def check(base: App, head: App, doc: dict, unreadable: dict[str, dict]) -> list[Violation]:
    """The violations of properties (a), (b) and (c); `unreadable` maps each side to
    {(agent_source, agent): binding names it spells in a shape the readers cannot read}."""
    truth = true_changes(base, head)
    before, after = expected_bound_when(base, adk_renames(base, head)), expected_bound_when(head)
    violations: list[Violation] = []
    rows = doc.get("rows", [])
    for row in rows:
        key = row_key(row)
        change = row.get("change")
        if change not in ESTABLISHED:
            continue
        actual = truth.get(key)
        if actual is None:
            violations.append(Violation("c", key, f"established `{change}` row on a binding with no true change", row))
        elif actual != change:
            violations.append(Violation("a", key, f"established `{change}` row, but the true change is `{actual}`", row))
        elif any(key[2] in unreadable[side].get(key[:2], set()) for side in ("base", "head")):
            violations.append(Violation("a", key, f"established `{change}` row on a binding spelled in a shape the readers cannot read", row))
        elif when_mismatch(row, before, after):
            violations.append(Violation("a", key, f"established `{change}` row: {when_mismatch(row, before, after)}", row))
    with_rows = {row_key(r) for r in rows}
    for key, change in sorted(truth.items()):
        if key not in with_rows and covering_gap(doc, key) is None:
            violations.append(Violation("b", key, f"true change `{change}` of {key[1]} -> {key[2]} has no row and no limit covers it"))
    for side in ("base", "head"):
        for ident, names in sorted(unreadable[side].items()):
            probe = (ident[0], ident[1], sorted(names)[0])
            if covering_gap(doc, probe, sides=(side,)) is None:
                violations.append(Violation("b", probe, f"{side} spells {ident[1]}'s {sorted(names)} in a shape the readers cannot read, but names no limit on it"))
    return violations
