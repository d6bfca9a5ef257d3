"""One case end to end: build its repository, run both tools, judge the answers, keep a
failing fixture when asked; a harness error is a finding, never a crash."""

import json
import os
import shutil
import tempfile

from .compare import Finding, Result, judge
from .repos import build_repo
from .tools import Answer, Run, answer

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "host_parity.py")


def run_case(case, args, known):
    """One case end to end; a harness error (git, disk) is a finding, never a crash."""
    try:
        return run_case_unguarded(case, args, known)
    except Exception as exc:  # noqa: BLE001 (reported, then the run goes on)
        result = Result(case, Answer("reference", Run([], failure="not run"), None), None)
        result.hard.append(Finding(f"harness error: {type(exc).__name__}", case, detail=str(exc)[:400]))
        return result


def run_case_unguarded(case, args, known):
    repo_root = tempfile.mkdtemp(prefix="host-parity-")
    repo = os.path.join(repo_root, "repo")
    os.mkdir(repo)
    try:
        build_repo(case, repo)
        ref = answer("reference", args.reference, repo, not args.no_text)
        ours = answer("ours", args.daemon, repo, not args.no_text) if args.daemon else None
        result = judge(case, ref, ours, known)
        if args.keep and (result.hard or (ours is None and ref.failures())):
            keep_fixture(case, result, repo, args.keep)
        return result
    finally:
        shutil.rmtree(repo_root, ignore_errors=True)


def keep_fixture(case, result, repo, keep_dir):
    target = os.path.join(keep_dir, f"seed{case.seed}-case{case.index}")
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(repo, target, symlinks=True)
    record = {"case": case.name, "edits": case.edits(), "commit": case.commit,
              "reproduce": f"{SCRIPT} --seed {case.seed} --case {case.index} --show",
              "findings": [f"{f.signature}: {f.detail}" for f in result.hard]}
    for answer_ in (result.ref, result.ours):
        if answer_ is not None:
            record[answer_.tool] = answer_.json.doc if answer_.json.doc is not None else answer_.json.stdout
    with open(os.path.join(keep_dir, f"seed{case.seed}-case{case.index}.json"), "w") as handle:
        json.dump(record, handle, indent=2, ensure_ascii=False)
