"""The command line: `scripts/known_truth.py` (or `python3 -m known_truth` from scripts/)."""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time

from . import __doc__ as OVERVIEW
from .catalogue import enabled_shapes, list_shapes
from .outcome import evaluate
from .program import draw_program
from .report import Campaign, print_program
from .selfcheck import self_check
from .shrink import shrink


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=OVERVIEW.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--count", type=int, default=10, help="programs to try (ignored with --minutes)")
    parser.add_argument("--minutes", type=float, help="loop over seeds until this much time has passed")
    parser.add_argument("--daemon", help="path of shipgate-daemon")
    parser.add_argument("--shapes", help="comma-separated catalogue names to draw (base shapes always)")
    parser.add_argument("--include-known-wrong", action="store_true", help="also draw shapes marked known_wrong")
    parser.add_argument("--list-shapes", action="store_true", help="print the catalogue and exit")
    parser.add_argument("--no-shrink", action="store_true", help="print failing programs unshrunk")
    parser.add_argument("--show", action="store_true", help="print every program and its rows")
    parser.add_argument("--self-check", action="store_true",
                        help="no engine: run each rendered version over stub frameworks and hold what its agents "
                             "hold at run time to the model (checks the renderer and the truth model)")
    return parser.parse_args(argv)


def run_self_check(args: argparse.Namespace, enabled: set[str]) -> int:
    """`--self-check`: the --count programs from --seed on, run over the stub frameworks."""
    bad = 0
    for seed in range(args.seed, args.seed + args.count):
        problems = self_check(draw_program(seed, enabled))
        if problems:
            bad += 1
            print(f"seed {seed}:")
            for problem in problems:
                print("  " + problem)
    print(f"self-check: {args.count} programs, {bad} with differences")
    return 1 if bad else 0


def run_campaign(args: argparse.Namespace, enabled: set[str]) -> int:
    """Programs from --seed on, --count of them or until --minutes have passed; each checked,
    each failure shrunk and printed."""
    data_dir = tempfile.mkdtemp(prefix="known-truth-store-")
    started = last_progress = time.monotonic()
    deadline = started + args.minutes * 60 if args.minutes else None
    campaign = Campaign(args.seed)
    seed = args.seed
    try:
        while (time.monotonic() < deadline) if deadline else (campaign.tried < args.count):
            outcome = evaluate(draw_program(seed, enabled), args.daemon, data_dir)
            campaign.record(seed, outcome)
            if args.show:
                print_program(outcome)
            if outcome.violations:
                campaign.fail(seed, outcome if args.no_shrink else shrink(outcome, args.daemon, data_dir))
            if deadline and time.monotonic() - last_progress >= 60:
                last_progress = time.monotonic()
                print(f"progress: {campaign.tried} programs, {len(campaign.failures)} failures, "
                      f"{(last_progress - started) / 60:.1f} min", flush=True)
            seed += 1
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    campaign.summary(seed - 1, time.monotonic() - started)
    return 1 if campaign.failures or campaign.errors else 0


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.list_shapes:
        list_shapes()
        return 0
    enabled = enabled_shapes(args.shapes.split(",") if args.shapes else None, args.include_known_wrong)
    if args.self_check:
        return run_self_check(args, enabled)
    if not args.daemon:
        raise SystemExit("--daemon PATH is required")
    return run_campaign(args, enabled)
