#!/usr/bin/env python3
"""Checks shipgate's established bindings against the import-time recorder.

For each repository of the development corpus (bare mirrors at
/work/.mirror/OWNER+NAME/repo) and each of its last N first-parent commits
that touch Python:

  * the recorder (record_agents.py, in its sandbox) imports the commit's
    modules and records every agent object it saw and what it binds;
  * the engine reports every binding it establishes at that commit: one
    comparison of the commit with itself whose base side is absent
    (`--base-scope <a path that does not exist> --scope .`), so every head
    binding is a row: `added` = established, `not_established` = not;
  * for every engine agent the recorder also saw (same source file, and the
    engine's identity is the agent's `name=`, the variable it is assigned to
    or a module-level variable holding it), every established binding must
    be one the recorder saw on that agent; and each binding the recorder saw
    that the engine neither established, marked not_established, nor covered
    by a head coverage gap is reported as a possible silent hide.

Usage:
    check_engine.py [--daemon /tmp/sg-bin/shipgate-daemon] [--commits 40]
                    [--repo OWNER/NAME ...] [--report report.json]
                    [--engine-timeout 600] [--module-timeout 20] [--jobs 1]

Progress goes to stderr, the per-repository table and disagreements to
stdout, everything to the JSON report. A test tool: never part of the
product.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDER = os.path.join(HERE, "record_agents.py")
ABSENT_SCOPE = "shipgate-recorder-absent-base-scope"


def log(msg):
    print("check_engine: " + msg, file=sys.stderr, flush=True)


def corpus_repos(path):
    repos = []
    with open(path) as fh:
        for line in fh:
            for m in re.finditer(r"`([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)`", line):
                if m.group(1) not in repos and line.lstrip().startswith("|"):
                    repos.append(m.group(1))
    return repos


def git(args, cwd, **kw):
    return subprocess.run(["git"] + args, cwd=cwd, capture_output=True, text=True, **kw)


def python_commits(clone, n):
    revs = git(["rev-list", "--first-parent", "-n", str(n), "HEAD"], clone).stdout.split()
    out = []
    for c in revs:
        parents = git(["rev-list", "--parents", "-n", "1", c], clone).stdout.split()[1:]
        if parents:
            names = git(["diff-tree", "-r", "--no-commit-id", "--name-only", parents[0], c], clone).stdout
        else:
            names = git(["diff-tree", "-r", "--no-commit-id", "--name-only", "--root", c], clone).stdout
        if any(p.endswith(".py") for p in names.splitlines()):
            out.append(c)
    return revs, out


# --------------------------------------------------------------------------
# engine side
# --------------------------------------------------------------------------

def run_engine(daemon, clone, commit, store, timeout):
    cmd = [daemon, "diff", "--application", "--workspace", clone, "--base", commit, "--head", commit,
           "--base-scope", ABSENT_SCOPE, "--scope", ".", "--json", "--data-dir", store]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "engine timed out after %ds" % timeout, time.time() - t0
    if p.returncode != 0:
        return None, "engine exit %d: %s" % (p.returncode, p.stderr.strip()[-400:]), time.time() - t0
    try:
        return json.loads(p.stdout), None, time.time() - t0
    except ValueError as e:
        return None, "engine output is not JSON: %s" % e, time.time() - t0


def engine_view(doc):
    """rows by (source, agent), the head agents and head gaps."""
    rows = doc.get("rows", [])
    head = doc.get("head", {})
    agents = {(a.get("source"), a.get("name")) for a in head.get("agents", [])}
    by_agent = {}
    for r in rows:
        key = (r.get("agent_source"), r.get("agent"))
        by_agent.setdefault(key, []).append(r)
        agents.add(key)
    gaps = [g for g in head.get("coverage_gaps", []) if g.get("affects") == "binding_presence"]
    return by_agent, agents, gaps


def scope_wide(gap):
    return gap.get("source") is None and gap.get("agent") is None and gap.get("tool") is None


def gap_covers(gap, source, agent, tool_aliases):
    gs = gap.get("source")
    if gs is not None and not (source == gs or source.startswith(gs.rstrip("/") + "/")):
        return False
    if gap.get("agent") is not None and gap["agent"] != agent:
        return False
    if gap.get("tool") is not None and gap["tool"] not in tool_aliases:
        return False
    return True


# --------------------------------------------------------------------------
# recorder side
# --------------------------------------------------------------------------

def run_recorder(repo_dir, commit, cache, timeout, jobs, out, total_timeout, label, python="auto"):
    cmd = [sys.executable, RECORDER, "--repo", repo_dir, "--commit", commit, "--out", out,
           "--timeout", str(timeout), "--jobs", str(jobs), "--cache", cache, "--quiet", "--label", label,
           "--python", python]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=total_timeout)
    except subprocess.TimeoutExpired:
        return None, "recorder timed out after %ds" % total_timeout, time.time() - t0
    if p.returncode != 0:
        return None, "recorder exit %d: %s" % (p.returncode, p.stderr.strip()[-400:]), time.time() - t0
    agents, modules, run = [], [], None
    with open(out) as fh:
        for line in fh:
            d = json.loads(line)
            if d["type"] == "agent":
                agents.append(d)
            elif d["type"] == "module":
                modules.append(d)
            else:
                run = d
    return (agents, modules, run), None, time.time() - t0


def plain(name):
    return name if isinstance(name, str) and name.isidentifier() else None


def identities(a):
    """Names the engine may give this recorded agent (or handoff target)."""
    out = set()
    if isinstance(a.get("name"), str):
        out.add(a["name"])
    if plain(a.get("assigned_to")):
        out.add(a["assigned_to"])
    for v in a.get("variables") or []:
        if v.get("file") == a.get("file"):
            out.add(v["name"])
    return out


def tool_aliases(t):
    out = set(a for a in t.get("aliases", []) if isinstance(a, str))
    if isinstance(t.get("name"), str):
        out.add(t["name"])
    return out


def handoff_keys(ref):
    if not ref.get("file"):
        return set()
    return {"handoff:%s:%s" % (ref["file"], ident) for ident in identities(ref)}


def recorder_bindings(agent):
    """[(kind, keys, description)] for every binding the recorder saw."""
    out = []
    for t in agent.get("tools", []):
        out.append(("tool", tool_aliases(t), t))
    for t in agent.get("mcp_servers", []):
        keys = tool_aliases(t)
        # the engine names an unnamed server after its class and position
        out.append(("mcp_server", keys, t))
    for h in agent.get("handoffs", []) + agent.get("sub_agents", []):
        out.append(("handoff", handoff_keys(h), h))
    return out


def describe_binding(kind, t):
    if kind == "handoff":
        return "handoff to %r at %s:%s" % (t.get("name"), t.get("file"), t.get("line"))
    bits = [t.get("kind") or "?"]
    if t.get("name"):
        bits.append(repr(t["name"]))
    if t.get("class") and t.get("class") != t.get("name"):
        bits.append("class " + t["class"])
    if t.get("module"):
        bits.append("from " + t["module"])
    return " ".join(bits)


# --------------------------------------------------------------------------
# comparison of one commit
# --------------------------------------------------------------------------

def compare(doc, rec_agents):
    by_agent, engine_agents, gaps = engine_view(doc)
    rows_all = doc.get("rows", [])
    result = {"established_total": sum(1 for r in rows_all if r.get("change") == "added"),
              "not_established_total": sum(1 for r in rows_all if r.get("change") == "not_established"),
              "agents_matched": 0, "established_checked": 0, "established_agreed": 0,
              "recorder_bindings": 0, "recorder_in_rows": 0, "recorder_covered_by_gap": 0,
              "recorder_unnamed": 0, "covered_by_gap": [], "covered_only_scope_wide": [],
              "scope_wide_gaps": [g.get("reason") for g in doc.get("head", {}).get("coverage_gaps", [])
                                  if g.get("source") is None and g.get("agent") is None],
              "disagreements": [], "possible_hides": [], "recorder_agents_unmatched": [],
              "conditional_absent": [],
              "engine_agents": len(engine_agents), "recorder_agents": len(rec_agents)}
    # recorded agents by file
    rec_by_file = {}
    for a in rec_agents:
        rec_by_file.setdefault(a.get("file"), []).append(a)
    matched_rec = set()
    for (source, agent) in sorted(engine_agents, key=lambda k: (str(k[0]), str(k[1]))):
        group = [a for a in rec_by_file.get(source, []) if agent in identities(a)]
        if not group:
            continue
        result["agents_matched"] += 1
        for a in group:
            matched_rec.add(id(a))
        bindings = [b for a in group for b in recorder_bindings(a)]
        seen_keys = set()
        for _, keys, _ in bindings:
            seen_keys |= keys
        stubs = [t for a in group for t in a.get("tools", []) + a.get("mcp_servers", [])
                 if t.get("kind") in ("stub", "object", "class")]
        rows = by_agent.get((source, agent), [])
        for r in rows:
            if r.get("change") != "added":
                continue
            result["established_checked"] += 1
            tool = r.get("tool")
            if tool in seen_keys:
                result["established_agreed"] += 1
                continue
            after = r.get("after") or {}
            if after.get("bound_when"):
                # Bound only when its `if` tests hold (`bound_when`, read, never evaluated): the import
                # ran one way; a binding absent from it is the other way, not a disagreement.
                result["conditional_absent"].append({"file": source, "agent": agent, "binding": tool,
                                                     "bound_when": after.get("bound_when")})
                continue
            result["disagreements"].append({
                "file": source, "agent": agent, "binding": tool,
                "edge_type": after.get("edge_type"),
                "binding_location": after.get("binding_location"),
                "engine": "established (added)",
                "recorder": ("not on the agent; the agent's lists: %s" % sorted(seen_keys))
                if len(seen_keys) < 40 else "not on the agent (%d bindings)" % len(seen_keys),
                "recorder_unresolved_objects": [describe_binding("tool", t) for t in stubs],
                "recorder_sites": sorted({"%s:%s" % (a.get("file"), a.get("line")) for a in group}),
            })
        # reverse: what the recorder saw that the engine says nothing about
        row_tools = {r.get("tool") for r in rows}
        for kind, keys, t in bindings:
            result["recorder_bindings"] += 1
            if not keys:
                result["recorder_unnamed"] += 1
                continue
            if keys & row_tools:
                result["recorder_in_rows"] += 1
                continue
            if t.get("kind") in ("stub",):
                result["recorder_unnamed"] += 1
                continue  # an unresolved permissive stub: nothing to name
            covering = [g for g in gaps if gap_covers(g, source, agent, keys)]
            specific = [g for g in covering if not scope_wide(g)]
            if covering:
                result["recorder_covered_by_gap"] += 1
                entry = {"file": source, "agent": agent, "binding": describe_binding(kind, t),
                         "gap": (specific or covering)[0].get("reason", "")[:300]}
                result["covered_by_gap"].append(entry)
                if not specific:
                    # only a gap on the whole scope (an object changed in a
                    # module the comparison does not read) covers it
                    result["covered_only_scope_wide"].append(entry)
                continue
            result["possible_hides"].append({
                "file": source, "agent": agent, "binding": describe_binding(kind, t),
                "keys": sorted(keys),
                "engine": "no row, no covering gap",
                "recorder": "bound at import",
                "recorder_sites": sorted({"%s:%s" % (a.get("file"), a.get("line")) for a in group}),
            })
    # recorded agents with bindings the engine does not name at all
    for a in rec_agents:
        if id(a) in matched_rec:
            continue
        n = len(recorder_bindings(a))
        if not n:
            continue
        ids = identities(a)
        covered = [g for g in gaps if g.get("agent") is None and gap_covers(g, a.get("file") or "", None, set())]
        covered += [g for g in gaps if g.get("agent") in ids and gap_covers(g, a.get("file") or "", g.get("agent"), set())]
        only_scope_wide = bool(covered) and all(scope_wide(g) for g in covered)
        result["recorder_agents_unmatched"].append({
            "file": a.get("file"), "line": a.get("line"), "name": a.get("name"),
            "identities": sorted(ids), "function": a.get("function"), "bindings": n,
            "covered_by_gap": bool(covered),
            "covered_only_scope_wide": only_scope_wide,
            "engine_agents_in_file": sorted(str(ag) for (src, ag) in engine_agents if src == a.get("file")),
        })
    result["agents_unobserved"] = [u for u in result["recorder_agents_unmatched"] if not u["covered_by_gap"]]
    return result


# --------------------------------------------------------------------------

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--daemon", default="/tmp/sg-bin/shipgate-daemon")
    ap.add_argument("--corpus", default="/work/shared/corpus/dev-repos.md")
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--repo", action="append", help="OWNER/NAME (repeatable; default: the whole corpus)")
    ap.add_argument("--commits", type=int, default=40)
    ap.add_argument("--engine-timeout", type=int, default=600)
    ap.add_argument("--module-timeout", type=float, default=20.0)
    ap.add_argument("--recorder-timeout", type=int, default=3600)
    ap.add_argument("--jobs", type=int, default=1, help="recorder processes at once")
    ap.add_argument("--python", default="auto", help="the recorder's interpreter (see record_agents.py --python)")
    ap.add_argument("--work", help="work directory (default: a temporary one, deleted)")
    ap.add_argument("--report", default="check_engine_report.json")
    ap.add_argument("--keep-raw", action="store_true",
                    help="keep each commit's engine JSON and recorder JSON lines (gzip) in the work directory")
    args = ap.parse_args(argv)

    if not os.access(args.daemon, os.X_OK):
        log("no engine binary at %s" % args.daemon)
        return 2
    repos = args.repo or corpus_repos(args.corpus)
    work = args.work or tempfile.mkdtemp(prefix="sg-check-")
    os.makedirs(work, exist_ok=True)
    store = os.path.join(work, "store")
    report = {"daemon": args.daemon, "commits_per_repo": args.commits, "repositories": [],
              "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    totals = {"commits_checked": 0, "agents_matched": 0, "established_checked": 0,
              "disagreements": 0, "possible_hides": 0, "agents_unobserved": 0}

    def save():
        report["totals"] = totals
        tmp = args.report + ".tmp"
        with open(tmp, "w") as fh:
            json.dump(report, fh, indent=1)
        os.replace(tmp, args.report)

    try:
        for repo in repos:
            mirror = os.path.join(args.mirrors, repo.replace("/", "+"), "repo")
            entry = {"repo": repo, "commits_listed": 0, "commits_python": 0, "commits": [],
                     "commits_checked": 0, "agents_matched": 0, "established_checked": 0,
                     "disagreements": 0, "possible_hides": 0, "agents_unobserved": 0, "skipped": []}
            report["repositories"].append(entry)
            if not os.path.isdir(mirror):
                entry["skipped"].append({"commit": None, "why": "no mirror at %s" % mirror})
                log("%s: no mirror" % repo)
                continue
            clone = os.path.join(work, "clones", repo.replace("/", "+"))
            if not os.path.isdir(clone):
                os.makedirs(os.path.dirname(clone), exist_ok=True)
                p = subprocess.run(["git", "clone", "-q", "--no-checkout", mirror, clone],
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    entry["skipped"].append({"commit": None, "why": "clone failed: " + p.stderr.strip()})
                    continue
            listed, commits = python_commits(clone, args.commits)
            entry["commits_listed"], entry["commits_python"] = len(listed), len(commits)
            log("%s: %d of the last %d first-parent commits touch Python" % (repo, len(commits), len(listed)))
            cache = os.path.join(work, "recorder-cache", repo.replace("/", "+"))
            for i, commit in enumerate(commits):
                t0 = time.time()
                out = os.path.join(work, "rec-%s.jsonl" % commit[:12])
                with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
                    fe = pool.submit(run_engine, args.daemon, clone, commit, store, args.engine_timeout)
                    fr = pool.submit(run_recorder, clone, commit, cache, args.module_timeout, args.jobs,
                                     out, args.recorder_timeout, repo, args.python)
                    doc, eerr, esec = fe.result()
                    rec, rerr, rsec = fr.result()
                if eerr or rerr:
                    entry["skipped"].append({"commit": commit, "why": eerr or rerr})
                    log("%s %s (%d/%d): skipped: %s" % (repo, commit[:12], i + 1, len(commits), eerr or rerr))
                    continue
                agents, modules, run = rec
                if args.keep_raw:
                    import gzip
                    raw = os.path.join(work, "raw", repo.replace("/", "+"))
                    os.makedirs(raw, exist_ok=True)
                    with gzip.open(os.path.join(raw, commit[:12] + ".engine.json.gz"), "wt") as fh:
                        json.dump(doc, fh)
                    with open(out, "rb") as src_fh, gzip.open(os.path.join(raw, commit[:12] + ".recorder.jsonl.gz"), "wb") as fh:
                        fh.write(src_fh.read())
                try:
                    os.remove(out)
                except OSError:
                    pass
                res = compare(doc, agents)
                statuses = {}
                for m in modules:
                    statuses[m["status"]] = statuses.get(m["status"], 0) + 1
                module_errors = [{"module": m["module"], "status": m["status"], "error": m["error"],
                                  "at": m.get("error_at")} for m in modules if m["status"] != "ok"]
                for d in res["disagreements"] + res["possible_hides"]:
                    d["commit"] = commit
                entry["commits"].append({
                    "commit": commit,
                    "engine_status": doc.get("comparison_status"),
                    "engine_head_status": doc.get("head", {}).get("status"),
                    "engine_seconds": round(esec, 1), "recorder_seconds": round(rsec, 1),
                    "modules": statuses, "module_errors": module_errors,
                    **res,
                })
                entry["commits_checked"] += 1
                for k in ("agents_matched", "established_checked", "established_total",
                          "not_established_total", "recorder_bindings", "recorder_in_rows",
                          "recorder_covered_by_gap", "recorder_unnamed"):
                    entry[k] = entry.get(k, 0) + res[k]
                entry["covered_only_scope_wide"] = entry.get("covered_only_scope_wide", 0) + len(res["covered_only_scope_wide"])
                entry["disagreements"] += len(res["disagreements"])
                entry["possible_hides"] += len(res["possible_hides"])
                entry["agents_unobserved"] += len(res["agents_unobserved"])
                log("%s %s (%d/%d): engine %s %.0fs, recorder %.0fs %s; %d agents matched, "
                    "%d established checked, %d disagreements, %d possible hides, "
                    "%d conditional (bound_when) not held at import"
                    % (repo, commit[:12], i + 1, len(commits), doc.get("comparison_status"), esec, rsec,
                       statuses, res["agents_matched"], res["established_checked"],
                       len(res["disagreements"]), len(res["possible_hides"]), len(res["conditional_absent"])))
                save()
            for k in ("commits_checked", "agents_matched", "established_checked", "disagreements",
                      "possible_hides", "agents_unobserved", "established_total", "not_established_total",
                      "recorder_bindings", "recorder_in_rows", "recorder_covered_by_gap", "recorder_unnamed",
                      "covered_only_scope_wide"):
                totals[k] = totals.get(k, 0) + entry.get(k, 0)
            save()
    finally:
        report["finished"] = time.strftime("%Y-%m-%d %H:%M:%S")
        save()
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)

    # ---- the table and the disagreements, grouped across commits ------------
    print("columns: commits checked; agents matched (engine agent = recorded agent, summed over commits);"
          " established bindings checked; disagreements (established by the engine, not on the recorded"
          " agent); possible hides (bound at import, no engine row, no covering gap); recorded agents with"
          " bindings the engine does not observe and no gap covers")
    print("(of N: the engine's established bindings at those commits; gap: recorded bindings with no"
          " engine row that a head coverage gap covers, (wide): of which only a scope-wide gap covers)")
    fmt = "%-34s %7s %7s %15s %8s %6s %6s %11s"
    print(fmt % ("repository", "commits", "agents", "checked (of N)", "disagree", "hides", "unobs",
                 "gap (wide)"))
    for e in report["repositories"] + [dict(totals, repo="total")]:
        print(fmt % (e["repo"], e["commits_checked"], e["agents_matched"],
                     "%d (%d)" % (e["established_checked"], e.get("established_total", 0)),
                     e["disagreements"], e["possible_hides"], e["agents_unobserved"],
                     "%d (%d)" % (e.get("recorder_covered_by_gap", 0), e.get("covered_only_scope_wide", 0))))
    for e in report["repositories"]:
        groups = {}
        for c in e["commits"]:
            for d in c["disagreements"]:
                groups.setdefault(("disagreement", d["file"], d["agent"], d["binding"]), []).append(d)
            for d in c["possible_hides"]:
                groups.setdefault(("possible hide", d["file"], d["agent"], d["binding"]), []).append(d)
            for d in c.get("covered_only_scope_wide", []):
                d = dict(d, commit=c["commit"], engine="no row; only a scope-wide gap: " + d["gap"][:160],
                         recorder="bound at import")
                groups.setdefault(("hidden behind a scope-wide gap", d["file"], d["agent"], d["binding"]), []).append(d)
            for u in c.get("recorder_agents_unmatched", []):
                if u.get("covered_only_scope_wide"):
                    d = {"commit": c["commit"], "engine": "agent not observed (engine agents in the file: %s); only a "
                         "scope-wide gap covers it" % (u["engine_agents_in_file"] or "none"),
                         "recorder": "%d bindings, built at %s:%s in %s" % (u["bindings"], u["file"], u["line"], u["function"])}
                    groups.setdefault(("agent hidden behind a scope-wide gap", u["file"], "/".join(u["identities"]), "*"),
                                      []).append(d)
            for u in c.get("agents_unobserved", []):
                d = {"commit": c["commit"], "engine": "agent not observed (engine agents in the file: %s), no covering gap"
                     % (u["engine_agents_in_file"] or "none"),
                     "recorder": "%d bindings, built at %s:%s in %s" % (u["bindings"], u["file"], u["line"], u["function"])}
                groups.setdefault(("agent unobserved", u["file"], "/".join(u["identities"]), "*"), []).append(d)
        if not groups:
            continue
        print("\n%s:" % e["repo"])
        for (kind, f, a, b), ds in sorted(groups.items()):
            d = ds[0]
            print("  %s: %s agent %s binding %s (%d commits, first %s)" % (kind, f, a, b, len(ds), d["commit"][:12]))
            print("    engine: %s%s" % (d["engine"], (" at " + d["binding_location"]) if d.get("binding_location") else ""))
            print("    recorder: %s" % d["recorder"])
            if d.get("recorder_unresolved_objects"):
                print("    recorder unresolved objects: %s" % d["recorder_unresolved_objects"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
