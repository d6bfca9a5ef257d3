"""Reporting: each case's line (and with --show its files and both answers), then the summary:
mismatches grouped by signature with one smallest example each, or the reference-only tally."""

import collections
import sys

from .compare import ROW_FIELDS, grant_kind
from .known import Loose

SCRIPT_NAME = "host_parity.py"


def row_text(row):
    if row is None:
        return "(none)"
    fields = []
    for f in ROW_FIELDS:
        value = row.get(f)
        fields.append(f"{f}={value!r}" if not isinstance(value, Loose) else f"{f}~{value!r}")
    return ", ".join(fields)


def show_files(case, pad=2):
    base, head = case.base_files(), case.head_files()
    lead = " " * pad
    print(f"{lead}commit mode: {case.commit}"
          + (f" (committed: {sorted(case.committed_paths)})" if case.commit == "mixed" else ""))
    for path in sorted(set(base) | set(head)):
        if path == "README.md":
            continue
        before, after = base.get(path), head.get(path, base.get(path))
        print(f"{lead}--- {path}: " + ("unchanged" if before == after else "absent on base" if before is None
                                      else "deleted on head" if after is None else "changed"))
        if before is not None and before != after:
            print(f"{lead}  base:\n" + indent_text(before, pad + 4))
        if after is not None:
            print((f"{lead}  head:\n" if before != after else "") + indent_text(after, pad + 4))


def indent_text(text, n):
    return "\n".join(" " * n + line for line in text.rstrip("\n").split("\n"))


def show_answer(answer_):
    if answer_ is None:
        return
    doc = answer_.json.doc
    if doc is None:
        print(f"  {answer_.tool}: FAILED ({answer_.json.failure}); stderr: {answer_.json.stderr.strip()[-300:]}")
        return
    print(f"  {answer_.tool}: {doc.get('comparison_status')} {doc.get('incomparable_reasons') or ''}"
          f" ({answer_.json.seconds:.1f}s)")
    for row in doc.get("rows", []):
        disposition = f" [{row.get('disposition')}]" if row.get("disposition") else ""
        print(f"    {row.get('direction'):8} {row.get('severity'):8} exp={str(row.get('expands')):5}"
              f" {row.get('subject')}{disposition} | {row.get('before')} -> {row.get('after')} | {row.get('why')}")
    for item in doc.get("coverage", {}).get("items", []):
        if item.get("status") != "compared" or item.get("detail"):
            print(f"    coverage {item.get('status')} {item.get('source')} side={item.get('side')}"
                  f" limit={item.get('limit')} detail={item.get('detail')}")
    for limit in doc.get("unchanged_limits", []):
        print(f"    unchanged limit {limit}")


def print_case(result, show):
    case = result.case
    verdict = "agree" if result.agrees else "DISAGREE"
    if result.ours is None:
        verdict = "reference FAILED" if result.hard else "reference answered"
    print(f"#{case.index} [{', '.join(case.kinds())}; {case.commit}] {verdict}: {'; '.join(case.edits())}")
    if show or result.ours is None:
        if show:
            show_files(case)
        show_answer(result.ref)
        show_answer(result.ours)
    if result.hard and result.ours is not None:
        for f in result.hard:
            print(f"    ! {f.signature}" + (f" — {f.detail}" if f.detail else ""))
    sys.stdout.flush()


def print_example(finding):
    case = finding.case
    print(f"      example: {case.name}; edits: {'; '.join(case.edits())}")
    print(f"      reproduce: {SCRIPT_NAME} --seed {case.seed} --case {case.index} --show --daemon ...")
    show_files(case, pad=6)
    if finding.ref_row is not None or finding.ours_row is not None:
        print(f"      reference: {row_text(finding.ref_row)}")
        print(f"      ours:      {row_text(finding.ours_row)}")
    if finding.detail:
        print(f"      detail: {finding.detail}")


def group_findings(findings):
    groups = collections.OrderedDict()
    for f in findings:
        groups.setdefault(f.signature, []).append(f)
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def summarise(results, args, elapsed):
    cases = len(results)
    print()
    print(f"host_parity: seed {args.seed}, {cases} cases in {elapsed:.0f}s; reference {args.reference}"
          + (f"; ours {args.daemon}" if args.daemon else " (reference only)"))
    if not args.daemon:
        return summarise_reference(results)
    agree = sum(r.agrees for r in results)
    print(f"  agree: {agree}   disagree: {cases - agree}")
    known = collections.Counter()
    for r in results:
        known.update(r.known_notes)
    if known:
        print("  known differences applied: " + ", ".join(f"{k} ×{n}" for k, n in sorted(known.items())))
    hard = [f for r in results for f in r.hard]
    if hard:
        print(f"\nMismatches by signature ({len(hard)} in all; one smallest example each):")
        for signature, group in group_findings(hard):
            cases_hit = sorted({f.case.index for f in group})
            print(f"\n  [{len(group)}] {signature}   (cases {', '.join(map(str, cases_hit[:12]))}"
                  + (" …" if len(cases_hit) > 12 else "") + ")")
            print_example(min(group, key=lambda f: f.case.size()))
    soft = [f for r in results for f in r.soft]
    if soft:
        print(f"\nLoose differences on known-difference rows ({len(soft)}; reported, never failing):")
        for signature, group in group_findings(soft):
            example = min(group, key=lambda f: f.case.size())
            print(f"  [{len(group)}] {signature}  e.g. {example.case.name}")
            print(f"      reference: {row_text(example.ref_row)}")
            print(f"      ours:      {row_text(example.ours_row)}")
    return 1 if hard else 0


def summarise_reference(results):
    failures = [f for r in results for f in r.hard]
    kinds, directions, statuses, coverage = (collections.Counter() for _ in range(4))
    for r in results:
        doc = r.ref.json.doc or {}
        statuses[doc.get("comparison_status")] += 1
        for row in doc.get("rows", []):
            kinds[grant_kind(row)] += 1
            directions[row.get("direction")] += 1
        for item in doc.get("coverage", {}).get("items", []):
            coverage[f"{item.get('status')}/{item.get('limit')}"] += 1
    sources = collections.Counter(k for r in results for k in r.case.kinds())
    modes = collections.Counter(r.case.commit for r in results)
    print(f"  sources per kind: {dict(sources)}; commit modes: {dict(modes)}")
    print(f"  comparison_status: {dict(statuses)}")
    print(f"  row directions: {dict(directions)}")
    print("  row kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print("  coverage status/limit: " + ", ".join(f"{k} {n}" for k, n in sorted(coverage.items())))
    print(f"  rows in all: {sum(kinds.values())}; cases without rows: "
          f"{sum(1 for r in results if not (r.ref.json.doc or {}).get('rows'))}")
    if failures:
        print(f"\nReference failures or leaks ({len(failures)}):")
        for signature, group in group_findings(failures):
            print(f"  [{len(group)}] {signature}")
            print_example(group[0])
        return 1
    print("  the reference answered every case; it leaked no planted secret")
    return 0
