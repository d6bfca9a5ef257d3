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


def drop_items(items, entry, tool, notes, ref_doc=None):
    """Generic known difference `drop-rows` / `drop-coverage`: forget matching items
    (with `when_reference_status`, only when the reference's status is that)."""
    if entry["match"].get("tool", "both") not in ("both", tool):
        return items
    status = entry["match"].get("when_reference_status")
    if status and (ref_doc or {}).get("comparison_status") != status:
        return items
    kept = [i for i in items if not where_matches(i, entry["match"].get("where", {}))]
    notes[entry["id"]] += len(items) - len(kept)
    return kept


def ignore_fields(rows, entry, notes):
    """Known difference `ignore-fields`: in rows matching `where` (either side), the
    named fields are not compared (a wording both tools phrase their own way)."""
    out = []
    for row in rows:
        if where_matches(row, entry["match"].get("where", {})):
            row = dict(row, **{field: "<not compared>" for field in entry["match"]["fields"]})
            notes[entry["id"]] += 1
        out.append(row)
    return out


def rewrite(rows, entry, tool, notes):
    """Known difference `rewrite`: on one tool's side, rows matching `where` take the
    values of `set` (ours says `narrowed` where the reference says `changed`)."""
    if entry["match"].get("tool", "both") not in ("both", tool):
        return rows
    out = []
    for row in rows:
        if where_matches(row, entry["match"].get("where", {})):
            row = dict(row, **entry["match"]["set"])
            notes[entry["id"]] += 1
        out.append(row)
    return out


def drop_unmatched_ours(ref_rows, ours_rows, ref_doc, entry, notes):
    """Known difference `drop-unmatched-ours`: rows ours prints that the reference does
    not (same subject, before, after), of a kind matching `where`, are dropped; rows the
    reference prints are never dropped. With `when_reference_status`, only when the
    reference's comparison_status is that."""
    status = entry["match"].get("when_reference_status")
    if status and ref_doc.get("comparison_status") != status:
        return ours_rows
    keys = {(r.get("subject"), r.get("before"), r.get("after")) for r in ref_rows}
    kept = []
    for row in ours_rows:
        unmatched = (row.get("subject"), row.get("before"), row.get("after")) not in keys
        if unmatched and where_matches(row, entry["match"].get("where", {})):
            notes[entry["id"]] += 1
            continue
        kept.append(row)
    return kept


def unread_shape(ref_rows, ref_cov, ours_cov, entry, notes):
    """Known difference `unread-shape`: a source that parses in a shape the host does
    not take (a workflow that is a list, `mcpServers: []`) is a blocking limit in ours,
    never compared; the reference reads it as holding no grant. The reference's rows
    and coverage of such a source are dropped, and the statuses are not compared.
    Returns (ref_rows, ref_cov, whether any source was such)."""
    limits = entry["match"].get("limits", ["unsupported"])
    sources = {i.get("source") for i in ours_cov
               if i.get("status") == "blocking_limit" and i.get("limit") in limits}
    if not sources:
        return ref_rows, ref_cov, False
    notes[entry["id"]] += len(sources)
    rows = [r for r in ref_rows if not any(str(r.get("subject", "")).endswith(" " + s) for s in sources)]
    cov = [i for i in ref_cov if i.get("source") not in sources]
    ours_cov[:] = [i for i in ours_cov if i.get("source") not in sources]
    return rows, cov, True


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


NORMALISERS = {
    "collapse-rule-pairs",
    "collapse-setting-pairs",
    "drop-rows",
    "drop-coverage",
    "ignore-fields",
    "rewrite",
    "drop-unmatched-ours",
    "unread-shape",
    "documented",
}


def normalise(ref_doc, ours_doc, known, notes):
    """Both answers' rows and coverage after the known differences; plus the rule
    groups whose pairing is ambiguous (compared as sets of added / removed rules)."""
    ref_rows = [dict(r) for r in ref_doc.get("rows", [])]
    ours_rows = [dict(r) for r in ours_doc.get("rows", [])]
    ref_cov = list(ref_doc.get("coverage", {}).get("items", []))
    ours_cov = list(ours_doc.get("coverage", {}).get("items", []))
    ambiguous = set()
    statuses_explained = False
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
            ref_cov = drop_items(ref_cov, entry, "reference", notes, ref_doc)
            ours_cov = drop_items(ours_cov, entry, "ours", notes, ref_doc)
        elif kind == "ignore-fields":
            ref_rows = ignore_fields(ref_rows, entry, notes)
            ours_rows = ignore_fields(ours_rows, entry, notes)
        elif kind == "rewrite":
            ref_rows = rewrite(ref_rows, entry, "reference", notes)
            ours_rows = rewrite(ours_rows, entry, "ours", notes)
        elif kind == "drop-unmatched-ours":
            ours_rows = drop_unmatched_ours(ref_rows, ours_rows, ref_doc, entry, notes)
        elif kind == "unread-shape":
            ref_rows, ref_cov, explained = unread_shape(ref_rows, ref_cov, ours_cov, entry, notes)
            statuses_explained |= explained
    # A source whose every row of ours was a known difference is, to the
    # reference, a file that changed without a grant changing.
    subjects = {str(r.get("subject", "")) for r in ours_rows}
    ours_cov = [
        dict(item, status="changed_without_grant_change")
        if item.get("status") == "compared" and item.get("rows")
        and not any(s.endswith(" " + str(item.get("source"))) for s in subjects)
        else item
        for item in ours_cov
    ]
    return ref_rows, ours_rows, ref_cov, ours_cov, ambiguous, statuses_explained
