"""The parent side: `record_agents.py --repo PATH --commit REV [...]`."""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from . import __doc__ as OVERVIEW
from .cache import Cache
from .records import agent_records, module_records, status_counts
from .runner import ModuleRunner
from .sandbox import choose_python, confinement, install_child, lib_env, make_venv
from .tree import blob_ids, extract, make_readable, modules_to_import


def parse_args(argv):
    ap = argparse.ArgumentParser(description=OVERVIEW.split("\n\n")[0])
    ap.add_argument("--repo", required=True, help="git repository (bare or not)")
    ap.add_argument("--commit", required=True)
    ap.add_argument("--out", help="JSON-lines output file (default: stdout)")
    ap.add_argument("--timeout", type=float, default=20.0, help="per-module timeout, seconds")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", help="directory caching per-module results by the blobs they loaded")
    ap.add_argument("--include-tests", action="store_true")
    ap.add_argument("--only", nargs="*", help="only these module paths")
    ap.add_argument("--label", help="repository label written in the output (default: --repo)")
    ap.add_argument("--python", default="auto",
                    help="interpreter the throwaway venv is made from (default: the newest of "
                         "python3.13, python3.12 and this one, so newer syntax imports)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="an environment variable for the imports (default: only non-secret "
                         "placeholders for GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION)")
    return ap.parse_args(argv)


def main(argv):
    args = parse_args(argv)

    def log(msg):
        if not args.quiet:
            print("record_agents: " + msg, file=sys.stderr, flush=True)

    fixed_env = {"GOOGLE_CLOUD_PROJECT": "shipgate-recorder-project", "GOOGLE_CLOUD_LOCATION": "us-central1"}
    for item in args.env:
        name, _, value = item.partition("=")
        fixed_env[name] = value
    git = ["git", "-C", args.repo]
    commit = subprocess.run(git + ["rev-parse", "--verify", args.commit + "^{commit}"],
                            capture_output=True, text=True)
    if commit.returncode != 0:
        print("record_agents: unknown commit %s" % args.commit, file=sys.stderr)
        return 2
    commit = commit.stdout.strip()
    blobs = blob_ids(git, commit)

    run_root = tempfile.mkdtemp(prefix="sg-recorder-")
    os.chmod(run_root, 0o755)
    try:
        src = os.path.join(run_root, "src")
        os.mkdir(src)
        extraction = extract(git, commit, src, blobs, run_root)
        if extraction is None:
            print("record_agents: extraction failed for %s" % commit, file=sys.stderr)
            return 3
        if extraction["missing"]:
            log("%s: git archive failed (%s); extracted blob by blob, %d objects missing"
                % (commit[:12], extraction["why"], len(extraction["missing"])))
        make_readable(src)
        modules = modules_to_import(src, blobs, args.only, args.include_tests)
        log("%s: %d modules to import" % (commit[:12], len(modules)))

        prefix, drop = confinement()
        base_python = choose_python(args.python, prefix + drop, log)
        if base_python is None:
            print("record_agents: no interpreter runs in the sandbox", file=sys.stderr)
            return 4
        py = make_venv(base_python, run_root)
        child_script = install_child(run_root)
        if not prefix:
            log("warning: no network namespace (unshare unavailable); relying on the socket stubs")
        runner = ModuleRunner(run_root, src, py, child_script, prefix + drop, bool(drop),
                              {**fixed_env, **lib_env(base_python)}, args.timeout, Cache(args.cache, blobs))

        results = []
        t_start = time.time()
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {pool.submit(runner.run, i, p): p for i, p in enumerate(modules)}
            done = 0
            for fut in concurrent.futures.as_completed(futures):
                results.append(fut.result())
                done += 1
                if done % 50 == 0:
                    log("%d/%d modules (%.0fs)" % (done, len(modules), time.time() - t_start))
        results.sort(key=lambda r: r["module"])

        label = args.label or args.repo
        agents = agent_records(results, label, commit)
        counts = status_counts(results)
        version = subprocess.run([py, "-c", "import sys; print(sys.version.split()[0])"],
                                 capture_output=True, text=True).stdout.strip()
        lines = agents + module_records(results, label, commit) + [
            {"type": "run", "repo": label, "commit": commit, "modules": len(results),
             "status_counts": counts, "agents": len(agents),
             "extraction_missing": extraction["missing"][:50],
             "sandbox": {"netns": " ".join(prefix) or None, "user": "nobody" if drop else None, "python": version},
             "seconds": round(time.time() - t_start, 1)}]
        text = "".join(json.dumps(line, sort_keys=False, default=str) + "\n" for line in lines)
        if args.out:
            with open(args.out, "w") as fh:
                fh.write(text)
        else:
            sys.stdout.write(text)
        log("%s: %d modules %s, %d distinct agents" % (commit[:12], len(results), counts, len(agents)))
        return 0
    finally:
        shutil.rmtree(run_root, ignore_errors=True)
