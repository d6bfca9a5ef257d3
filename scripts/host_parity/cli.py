"""The command line: `scripts/host_parity.py` (or `python3 -m host_parity` from scripts/):
the flags, the loop over cases, --jobs cases in flight, the summary."""

import argparse
import collections
import os
import time
from concurrent.futures import ThreadPoolExecutor

from . import __doc__ as OVERVIEW
from .cases import draw_case
from .known import load_known
from .report import print_case, summarise
from .run import run_case

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_REFERENCE = "/work/shared/oracle/agents-shipgate"
DEFAULT_KNOWN = os.path.join(SCRIPTS, "host_parity_known.json")


def case_indexes(args):
    if args.case is not None:
        yield args.case
        return
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else None
    index = args.start
    while True:
        if deadline is None and index >= args.start + args.count:
            return
        if deadline is not None and time.monotonic() >= deadline:
            return
        yield index
        index += 1


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="host_parity.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=OVERVIEW.split("\n\n", 1)[0] + "\n\n" + TRUTH_HELP,
        epilog=EPILOG)
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1); case N of a seed never changes")
    parser.add_argument("--count", type=int, default=50, help="number of cases (default 50)")
    parser.add_argument("--minutes", type=float, help="run cases until this many minutes have passed (overrides --count)")
    parser.add_argument("--start", type=int, default=0, help="first case index (default 0)")
    parser.add_argument("--case", type=int, help="run only this case index (to reproduce one)")
    parser.add_argument("--daemon", help="our binary (shipgate-daemon); without it, --reference-only")
    parser.add_argument("--reference-only", action="store_true",
                        help="run only the reference: print each generated case and its rows (checks the generator)")
    parser.add_argument("--reference", default=DEFAULT_REFERENCE, help=f"the reference binary (default {DEFAULT_REFERENCE})")
    parser.add_argument("--known", default=DEFAULT_KNOWN, help="known intended differences (default scripts/host_parity_known.json)")
    parser.add_argument("--show", action="store_true", help="print each case's files and both answers")
    parser.add_argument("--keep", metavar="DIR", help="keep each failing fixture repository (and both answers) under DIR")
    parser.add_argument("--jobs", type=int, default=1, help="cases run in parallel (default 1)")
    parser.add_argument("--no-text", action="store_true", help="skip the text-mode runs (used only for the secret-leak check)")
    args = parser.parse_args(argv)
    if args.reference_only:
        args.daemon = None
    if args.daemon and not os.path.exists(args.daemon):
        parser.error(f"--daemon {args.daemon}: no such file")
    if not os.path.exists(args.reference):
        parser.error(f"--reference {args.reference}: no such file")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    return args


TRUTH_HELP = """\
The reference (agents-shipgate 1.2.0) is the oracle, except for the decided
differences listed in the --known file. For each random case (a git repo with
host files on main and edits on branch feature, committed or not) both tools
run `diff --workspace REPO --base main --json`; the script compares
comparison_status, the rows (direction, severity, subject, before, after,
disposition, expands, why) as a multiset, the coverage items (source, status,
side), the JSON keys, and checks that no planted secret (env / header values)
appears in either tool's JSON or text output.

Generated shapes: Claude permission rules (allow / deny / ask; added, removed,
widened and narrowed along rule chains, moved between lists), defaultMode,
additionalDirectories, the MCP approval flags, hooks (and a hook's script),
MCP servers in .mcp.json (also nested), .cursor/mcp.json, .vscode/mcp.json
and Codex (stdio and URL; args, env, headers, url, rename, transport),
Codex approval_policy / sandbox_mode / network_access, workflows (triggers,
pull_request_target, top-level and job permissions, write-all, read-all, none
at all, action refs, jobs); files added, deleted, renamed, or not parsing."""

EPILOG = """\
known differences file (--known): a JSON list of
  {"id": ..., "reason": one sentence, "match": {"normalise": KIND, ...}}
KIND is one of
  collapse-rule-pairs    the reference's added + removed rows for a rule replaced in
                         the same file and disposition by one covering it (or covered
                         by it) become one row: widened (narrowed) for allow, narrowed
                         (widened) for deny and ask, the agent's authority being the
                         direction; "dispositions" limits it
  collapse-setting-pairs the same for the one-value settings in "settings": {name:
                         [ranks, least authority first; "a|b" ties]}: widened, narrowed
                         or changed (equal or unknown ranks)
  drop-rows / drop-coverage  forget rows / coverage items of "tool" (reference, ours,
                         both) whose fields match every regex of "where": {field: regex}
Collapsed rows compare strictly on direction, subject, before, after, disposition;
severity, why and expands loosely (a difference there is listed, never fails).

examples:
  host_parity.py --reference-only --count 50             check the generator
  host_parity.py --daemon target/release/shipgate-daemon --seed 7 --count 200 --keep /tmp/hp
  host_parity.py --daemon ... --minutes 30 --jobs 2
  host_parity.py --daemon ... --seed 7 --case 41 --show  reproduce one case

exit status: 0 no unexplained mismatch (reference-only: the reference answered every
case without leaking), 1 otherwise, 2 bad usage."""


def run_all(args, known):
    """Results in case order, at most --jobs cases in flight (so --minutes stops on time)."""
    jobs = max(1, args.jobs)
    with ThreadPoolExecutor(jobs) as pool:
        pending = collections.deque()
        for index in case_indexes(args):
            pending.append(pool.submit(run_case, draw_case(args.seed, index), args, known))
            if len(pending) >= jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def main(argv):
    args = parse_args(argv)
    known = load_known(args.known)
    started = time.monotonic()
    results = []
    try:
        for result in run_all(args, known):
            print_case(result, args.show)
            results.append(result)
    except KeyboardInterrupt:
        print("\ninterrupted: summarising the cases that finished")
    return summarise(results, args, time.monotonic() - started)
