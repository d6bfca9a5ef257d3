"""The known differences (`scripts/host_parity_known.json`): loading them, and the
normalisations they name, applied to both answers before comparing."""

import collections
import json
import os
import re

from .rules import covers
from .vocabulary import DISPOSITIONS

DASH = "\u2014"  # the reference's "no value" in before / after


class Loose:
    """A field a known difference compares loosely: any of `options` agrees."""

    def __init__(self, options):
        self.options = tuple(dict.fromkeys(options))

    def __eq__(self, other):
        return other in self.options

    def __hash__(self):
        return 0

    def __repr__(self):
        return "|".join(str(o) for o in self.options)


def is_rule_row(row):
    return row.get("disposition") in DISPOSITIONS


def expand_rule_row(row):
    """A widened / narrowed rule row as the removed + added pair the reference prints."""
    if is_rule_row(row) and row.get("direction") in ("widened", "narrowed", "changed"):
        return [dict(row, direction="removed", after=DASH), dict(row, direction="added", before=DASH)]
    return [row]


# A rule's direction is the agent's authority, not the rule's reach: an allow rule that matches
# more lets the agent do more, a deny or ask rule that matches more lets it do less (unasked).
GROWN_REACH = {"allow": "widened", "deny": "narrowed", "ask": "narrowed"}
SHRUNK_REACH = {"allow": "narrowed", "deny": "widened", "ask": "widened"}


def rule_direction(disposition, wider):
    """The direction of a rule replaced by one that matches more (`wider`) or less."""
    return (GROWN_REACH if wider else SHRUNK_REACH)[disposition]


def collapse_rule_pairs(rows, entry, notes):
    """Known difference `rule-coverage`: the reference's added + removed pair for a
    rule replaced by a wider / narrower one in the same file and disposition becomes
    one row whose direction is the agent's authority (`rule_direction`): an allow rule
    replaced by a wider one is widened, a deny or ask rule replaced by a wider one is
    narrowed, and the other way round. Returns (rows, ambiguous groups)."""
    dispositions = entry["match"].get("dispositions", list(DISPOSITIONS))
    groups = collections.defaultdict(lambda: {"added": [], "removed": []})
    for i, row in enumerate(rows):
        if row.get("disposition") in dispositions and row.get("direction") in ("added", "removed"):
            groups[(row.get("subject"), row.get("disposition"))][row["direction"]].append(i)
    drop, new_rows, ambiguous = set(), [], set()
    for key, group in groups.items():
        edges = []
        for r in group["removed"]:
            for a in group["added"]:
                old, new = rows[r]["before"], rows[a]["after"]
                wider, narrower = covers(new, old), covers(old, new)
                if wider or narrower:
                    edges.append((r, a, wider, narrower))
        if not edges:
            continue
        ends = collections.Counter([e[0] for e in edges] + [("a", e[1]) for e in edges])
        if any(n > 1 for n in ends.values()) or any(w and n for _, _, w, n in edges):
            ambiguous.add(key)
            continue
        for r, a, wider, _ in edges:
            removed, added = rows[r], rows[a]
            new_rows.append({
                "direction": rule_direction(removed["disposition"], wider),
                "subject": removed["subject"], "before": removed["before"], "after": added["after"],
                "disposition": removed["disposition"],
                "severity": Loose((added["severity"], removed["severity"])),
                "expands": Loose((added["expands"], removed["expands"])),
                "why": Loose((added["why"], removed["why"])),
                "_known": entry["id"],
            })
            drop.update((r, a))
            notes[entry["id"]] += 1
    return [row for i, row in enumerate(rows) if i not in drop] + new_rows, ambiguous


def setting_rank(ranks, value):
    for rank, members in enumerate(ranks):
        if value in members.split("|"):
            return rank
    return None


def collapse_setting_pairs(rows, entry, notes):
    """Known difference `setting-change`: removed `X: old` + added `X: new` of a one-value
    setting in the same file becomes one widened / narrowed / changed row."""
    settings = entry["match"]["settings"]
    groups = collections.defaultdict(lambda: {"added": [], "removed": []})
    for i, row in enumerate(rows):
        if row.get("disposition") is not None or row.get("direction") not in ("added", "removed"):
            continue
        value = row["after"] if row["direction"] == "added" else row["before"]
        name, sep, _ = (value or "").partition(": ")
        if sep and name in settings:
            groups[(row.get("subject"), name)][row["direction"]].append(i)
    drop, new_rows = set(), []
    for (subject, name), group in groups.items():
        if len(group["added"]) != 1 or len(group["removed"]) != 1:
            continue
        removed, added = rows[group["removed"][0]], rows[group["added"][0]]
        old, new = removed["before"].partition(": ")[2], added["after"].partition(": ")[2]
        rank_old, rank_new = setting_rank(settings[name], old), setting_rank(settings[name], new)
        if rank_old is None or rank_new is None or rank_old == rank_new:
            direction = "changed"
        else:
            direction = "widened" if rank_new > rank_old else "narrowed"
        new_rows.append({
            "direction": direction, "subject": subject, "before": removed["before"], "after": added["after"],
            "disposition": None,
            "severity": Loose((added["severity"], removed["severity"])),
            "expands": Loose((added["expands"], removed["expands"])),
            "why": Loose((added["why"], removed["why"])),
            "_known": entry["id"],
        })
        drop.update((group["removed"][0], group["added"][0]))
        notes[entry["id"]] += 1
    return [row for i, row in enumerate(rows) if i not in drop] + new_rows


def where_matches(item, where):
    return all(re.search(pattern, str(item.get(field))) for field, pattern in where.items())


def drop_items(items, entry, tool, notes):
    """Generic known difference `drop-rows` / `drop-coverage`: forget matching items."""
    if entry["match"].get("tool", "both") not in ("both", tool):
        return items
    kept = [i for i in items if not where_matches(i, entry["match"].get("where", {}))]
    notes[entry["id"]] += len(items) - len(kept)
    return kept


def load_known(path):
    if not path or not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        entries = json.load(handle)
    for entry in entries:
        kind = entry.get("match", {}).get("normalise")
        if kind not in NORMALISERS:
            raise SystemExit(f"{path}: entry {entry.get('id')!r}: unknown normalise {kind!r} "
                             f"(known: {', '.join(sorted(NORMALISERS))})")
    return entries


NORMALISERS = {"collapse-rule-pairs", "collapse-setting-pairs", "drop-rows", "drop-coverage"}


def normalise(ref_doc, ours_doc, known, notes):
    """Both answers' rows and coverage after the known differences; plus the rule
    groups whose pairing is ambiguous (compared as sets of added / removed rules)."""
    ref_rows = [dict(r) for r in ref_doc.get("rows", [])]
    ours_rows = [dict(r) for r in ours_doc.get("rows", [])]
    ref_cov = list(ref_doc.get("coverage", {}).get("items", []))
    ours_cov = list(ours_doc.get("coverage", {}).get("items", []))
    ambiguous = set()
    for entry in known:
        kind = entry["match"]["normalise"]
        if kind == "collapse-rule-pairs":
            ref_rows, groups = collapse_rule_pairs(ref_rows, entry, notes)
            ambiguous |= groups
        elif kind == "collapse-setting-pairs":
            ref_rows = collapse_setting_pairs(ref_rows, entry, notes)
        elif kind == "drop-rows":
            ref_rows = drop_items(ref_rows, entry, "reference", notes)
            ours_rows = drop_items(ours_rows, entry, "ours", notes)
        elif kind == "drop-coverage":
            ref_cov = drop_items(ref_cov, entry, "reference", notes)
            ours_cov = drop_items(ours_cov, entry, "ours", notes)
    return ref_rows, ours_rows, ref_cov, ours_cov, ambiguous
