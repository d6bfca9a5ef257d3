"""`record_agents.py --child`: import one module of the extracted tree and write what its agents hold."""

import argparse
import json
import os
import signal
import sys
import time

from . import guards, sites, stubs
from .collect import Collector
from .importer import import_module, prepare
from .stubs import stubbed


def recorder_files():
    """The recorder's own files (this package and its entry script): no call site is in them."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    out = {os.path.realpath(sys.argv[0])}
    for dirpath, _, filenames in os.walk(package):
        out |= {os.path.realpath(os.path.join(dirpath, f)) for f in filenames if f.endswith(".py")}
    return out


def child_main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--root", required=True)
    ap.add_argument("--module-path", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=float, default=20.0)
    args = ap.parse_args(argv)

    root = os.path.realpath(args.root)
    relpath = args.module_path
    started = time.time()
    sites.configure(root, recorder_files())
    guards.install(root, args.timeout)
    stubs.install()

    abspath, modname = prepare(root, relpath)
    status, error, where, note = import_module(modname, abspath, args.timeout)

    collector = Collector()
    agents_out = collector.agents()
    signal.setitimer(signal.ITIMER_REAL, 0)
    result = {
        "module": relpath,
        "module_name": modname,
        "status": status,
        "error": error,
        "error_at": where,
        "note": note,
        "seconds": round(time.time() - started, 3),
        "stubbed_modules": sorted(k for k in stubbed if "." not in k),
        "loaded_files": collector.loaded_files(relpath),
        "agents": agents_out,
    }
    with guards.ORIG_OPEN(args.out, "w") as fh:
        json.dump(result, fh, default=lambda o: repr(o)[:80])
    sys.stdout.flush()
    os._exit(0)
