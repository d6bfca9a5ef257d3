"""The output: one line a distinct agent, one a module imported, and a summary of the run."""

import json


def ref_key(ref):
    return [ref.get("kind"), ref.get("name"), ref.get("file"), ref.get("line")]


def tool_key(t):
    return [t.get("kind"), t.get("name"), t.get("class"), t.get("function"),
            ref_key(t["agent"]) if isinstance(t.get("agent"), dict) else None]


def agent_key(a):
    """One construction site with the same lists is one agent, whichever module's import built it."""
    return json.dumps([a.get("framework"), a.get("class"), a.get("name"), a.get("file"),
                       a.get("line"), a.get("function"),
                       [tool_key(t) for t in a.get("tools", [])],
                       [tool_key(t) for t in a.get("mcp_servers", [])],
                       [ref_key(h) for h in a.get("handoffs", [])],
                       [ref_key(h) for h in a.get("sub_agents", [])],
                       ref_key(a["clone_of"]) if a.get("clone_of") else None], default=str)


def agent_records(results, label, commit):
    """The distinct agents of all the imports; one seen again adds where from, its variables and
    its tools' aliases."""
    lines = []
    distinct = {}
    for r in results:
        for a in r.get("agents", []):
            if "collect_error" in a:
                continue
            key = agent_key(a)
            if key in distinct:
                known = distinct[key]
                known["seen_from"].append(r["module"])
                for v in a.get("variables", []):
                    if v not in known["variables"]:
                        known["variables"].append(v)
                for t, u in zip(known["tools"], a.get("tools", [])):
                    for alias in u.get("aliases", []):
                        if alias not in t["aliases"]:
                            t["aliases"].append(alias)
                continue
            rec = {"type": "agent", "repo": label, "commit": commit, "module": r["module"]}
            rec.update(a)
            rec["seen_from"] = [r["module"]]
            distinct[key] = rec
            lines.append(rec)
    for rec in lines:
        rec["variable"] = sorted({v["name"] for v in rec.get("variables", [])
                                  if v["file"] == rec.get("file")}) or None
    return lines


def module_records(results, label, commit):
    return [{"type": "module", "repo": label, "commit": commit, "module": r["module"],
             "status": r.get("status"), "error": r.get("error"), "error_at": r.get("error_at"),
             "note": r.get("note"),
             "agents": len(r.get("agents", [])), "cached": bool(r.get("cached")),
             "stubbed_modules": r.get("stubbed_modules", []), "seconds": r.get("seconds")}
            for r in results]


def status_counts(results):
    counts = {}
    for r in results:
        counts[r.get("status")] = counts.get(r.get("status"), 0) + 1
    return counts
