"""Comparing the two answers of a case, after the known differences: status, rows, coverage,
JSON keys, and the failures and secret leaks of each tool."""

import collections

from .known import DASH, expand_rule_row, is_rule_row, normalise
from .rules import parse_rule

ROW_FIELDS = ("direction", "severity", "subject", "before", "after", "disposition", "expands", "why")
STRICT_WHEN_COLLAPSED = ("direction", "subject", "before", "after", "disposition")
COVERAGE_FIELDS = ("source", "status", "side")


SETTING_NAMES = ("defaultMode", "approval_policy", "sandbox_mode", "sandbox_workspace_write",
                 "enableAllProjectMcpServers", "enabledMcpjsonServers", "disableBypassPermissionsMode",
                 "disableAllHooks", "sandbox")


def grant_kind(row):
    """A short name for what a row is about, for grouping mismatches."""
    if row is None:
        return "?"
    if is_rule_row(row):
        value = row.get("after") if row.get("after") not in (None, DASH) else row.get("before")
        tool = parse_rule(value or "")[0]
        return f"rule:{row['disposition']}:{'mcp__' if tool.startswith('mcp__') else tool}"
    subject = row.get("subject") or ""
    value = row.get("after") if row.get("after") not in (None, DASH) else row.get("before") or ""
    host, _, path = subject.partition(" ")
    if host == "github":
        return "workflow"
    name, sep, _ = value.partition(": ")
    if sep and name.split(".")[0] in SETTING_NAMES:
        return f"setting:{name}"
    if value == "additional_path":
        return "setting:additionalDirectories"
    if path.endswith("settings.json") or path.endswith("settings.local.json"):
        return "hook"
    return f"mcp:{host}"


class Finding:
    """One disagreement (or loose difference) of one case."""

    def __init__(self, signature, case, ref_row=None, ours_row=None, detail=""):
        self.signature, self.case = signature, case
        self.ref_row, self.ours_row, self.detail = ref_row, ours_row, detail


def fields_equal(expected, actual, fields):
    return all(expected.get(f) == actual.get(f) for f in fields)


def take(rows, predicate):
    for i, row in enumerate(rows):
        if predicate(row):
            return rows.pop(i)
    return None


def compare_rows(case, expected, actual):
    """Match expected (reference, normalised) rows against ours; return findings, soft findings."""
    expected, actual = list(expected), list(actual)
    hard, soft = [], []
    # 1. Exact agreement, loose fields included.
    for e in list(expected):
        if take(actual, lambda a: fields_equal(e, a, ROW_FIELDS)) is not None:
            expected.remove(e)
    # 2. Known-difference rows agreeing on their strict fields: loose differences only.
    for e in [e for e in expected if "_known" in e]:
        a = take(actual, lambda a: fields_equal(e, a, STRICT_WHEN_COLLAPSED))
        if a is not None:
            expected.remove(e)
            differ = [f for f in ROW_FIELDS if e.get(f) != a.get(f)]
            soft.append(Finding(f"{e['_known']} {grant_kind(e)}: loose {'+'.join(differ)}", case, e, a))
    # 3. Pair what is left for diagnosis: same identity, then one side's value.
    keys = [lambda r: (r.get("subject"), r.get("disposition"), r.get("before"), r.get("after")),
            lambda r: (r.get("subject"), r.get("disposition"), r.get("before") if r.get("before") != DASH else None),
            lambda r: (r.get("subject"), r.get("disposition"), r.get("after") if r.get("after") != DASH else None),
            lambda r: (r.get("subject"), grant_kind(r))]
    for key in keys:
        for e in list(expected):
            k = key(e)
            if None in k[2:]:
                continue
            a = take(actual, lambda a: key(a) == k)
            if a is None:
                continue
            expected.remove(e)
            strict = ROW_FIELDS if "_known" not in e else STRICT_WHEN_COLLAPSED
            differ = [f for f in strict if e.get(f) != a.get(f)]
            label = f"{e['_known']} " if "_known" in e else ""
            hard.append(Finding(f"{label}{grant_kind(e)}: {'+'.join(differ)} differ", case, e, a))
    for e in expected:
        label = f"{e['_known']} " if "_known" in e else ""
        hard.append(Finding(f"{label}{grant_kind(e)}: row missing in ours", case, e, None))
    for a in actual:
        hard.append(Finding(f"{grant_kind(a)}: extra row in ours", case, None, a))
    return hard, soft


def compare_guidance(case, ref_doc, ours_doc):
    """The `guidance` of each review change both answers hold (same subject, direction, before and
    after): a change only one side has is the rows' finding already."""
    key = lambda c: (c.get("subject"), c.get("direction"), c.get("before"), c.get("after"))
    changes = lambda doc: (doc.get("review") or {}).get("changes") or []
    ours = {key(c): c.get("guidance") for c in changes(ours_doc)}
    findings = []
    for change in changes(ref_doc):
        if key(change) not in ours or ours[key(change)] == change.get("guidance"):
            continue
        expected, actual = change.get("guidance"), ours[key(change)]
        case_of = lambda g: g.get("case") if isinstance(g, dict) else "null"
        findings.append(Finding(f"guidance: reference {case_of(expected)} vs ours {case_of(actual)}", case,
                                detail=f"{key(change)}: reference {expected}; ours {actual}"))
    return findings


def rule_set(rows, groups):
    """Rows of ambiguous rule groups, as a set of (side, rule); removed from `rows`."""
    found, kept = set(), []
    for row in rows:
        if is_rule_row(row) and (row.get("subject"), row.get("disposition")) in groups:
            for r in expand_rule_row(row):
                side = r["direction"]
                found.add((r["subject"], r["disposition"], side, r["before"] if side == "removed" else r["after"]))
        else:
            kept.append(row)
    rows[:] = kept
    return found


def compare_coverage(case, ref_items, ours_items):
    key = lambda item: tuple(item.get(f) for f in COVERAGE_FIELDS)
    ref, ours = collections.Counter(map(key, ref_items)), collections.Counter(map(key, ours_items))
    findings = []
    for item in (ref - ours).elements():
        other = [k for k in ours if k[0] == item[0]]
        detail = f"reference {item}; ours {other or 'none for this source'}"
        findings.append(Finding(f"coverage: {item[1]} ({item[2]}) missing in ours", case, detail=detail))
    for item in (ours - ref).elements():
        if any(k[0] == item[0] for k in (ref - ours)):
            continue  # already reported from the reference's side
        findings.append(Finding(f"coverage: {item[1]} ({item[2]}) extra in ours", case, detail=f"ours {item}"))
    return findings


def compare_keys(case, ref_doc, ours_doc):
    findings = []
    pairs = [("top-level", ref_doc, ours_doc),
             ("coverage", ref_doc.get("coverage", {}), ours_doc.get("coverage", {}))]
    if ref_doc.get("rows") and ours_doc.get("rows"):
        pairs.append(("row", ref_doc["rows"][0], ours_doc["rows"][0]))
    for where, a, b in pairs:
        if isinstance(a, dict) and isinstance(b, dict) and set(a) != set(b):
            missing, extra = sorted(set(a) - set(b)), sorted(set(b) - set(a))
            findings.append(Finding(f"schema: {where} keys differ", case,
                                    detail=f"missing in ours {missing}; extra in ours {extra}"))
    if ours_doc.get("capability_diff_schema_version") != ref_doc.get("capability_diff_schema_version"):
        findings.append(Finding("schema: capability_diff_schema_version differs", case,
                                detail=f"{ref_doc.get('capability_diff_schema_version')!r} vs "
                                       f"{ours_doc.get('capability_diff_schema_version')!r}"))
    return findings


class Result:
    def __init__(self, case, ref, ours):
        self.case, self.ref, self.ours = case, ref, ours
        self.hard, self.soft = [], []
        self.known_notes = collections.Counter()

    @property
    def agrees(self):
        return not self.hard


def judge(case, ref, ours, known):
    """Every finding of one case: tool failures, leaks, then the answers themselves."""
    result = Result(case, ref, ours)
    for answer_ in (a for a in (ref, ours) if a is not None):
        for mode, run in answer_.failures():
            result.hard.append(Finding(f"failure: {answer_.tool} {mode} run: {run.failure.split(' (')[0]}", case,
                                       detail=f"{run.failure}; stderr: {run.stderr.strip()[-400:]}"))
        leaked = answer_.leaks(case.secrets.planted)
        if leaked:
            result.hard.append(Finding(f"leak: {answer_.tool} printed a planted secret", case,
                                       detail=", ".join(s[:10] + "…" for s in leaked)))
    if ours is None or ref.json.doc is None or ours.json.doc is None:
        return result
    ref_doc, ours_doc = ref.json.doc, ours.json.doc
    ref_rows, ours_rows, ref_cov, ours_cov, ambiguous, statuses_explained = normalise(
        ref_doc, ours_doc, known, result.known_notes)
    if ref_doc.get("comparison_status") != ours_doc.get("comparison_status") and not statuses_explained:
        result.hard.append(Finding(
            f"comparison_status: reference {ref_doc.get('comparison_status')} vs ours {ours_doc.get('comparison_status')}",
            case, detail=f"incomparable_reasons {ref_doc.get('incomparable_reasons')} vs {ours_doc.get('incomparable_reasons')}"))
    if ref.json.rc != ours.json.rc:
        result.hard.append(Finding(f"exit code: reference {ref.json.rc} vs ours {ours.json.rc}", case))
    result.hard += compare_keys(case, ref_doc, ours_doc)
    if ambiguous:
        ref_set, ours_set = rule_set(ref_rows, ambiguous), rule_set(ours_rows, ambiguous)
        if ref_set != ours_set:
            result.hard.append(Finding("rule pairing (ambiguous group): added/removed rules differ", case,
                                       detail=f"reference only {sorted(ref_set - ours_set)}; "
                                              f"ours only {sorted(ours_set - ref_set)}"))
    hard, soft = compare_rows(case, ref_rows, ours_rows)
    result.hard += hard + compare_coverage(case, ref_cov, ours_cov) + compare_guidance(case, ref_doc, ours_doc)
    result.soft += soft
    return result
