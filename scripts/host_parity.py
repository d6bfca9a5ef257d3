#!/usr/bin/env python3
"""Host-grant parity: random coding-agent host configuration changes, answered
by the reference (`agents-shipgate diff`) and by ours (`shipgate-daemon diff`).

The entry point of the package `host_parity/` beside this file, whose `__init__.py`
explains the truth model and what each case compares; `--help` lists the flags, and
`host_parity_known.json` the decided, intended differences.

Usage:
    host_parity.py --daemon PATH [--seed N] [--count K | --minutes M] [--start I] [--jobs J]
                   [--known FILE] [--reference PATH] [--keep DIR] [--no-text] [--show]
    host_parity.py --reference-only [--seed N] [--count K] [--show]      check the generator
    host_parity.py --daemon PATH --seed N --case I --show                 reproduce one case

Python 3 standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from host_parity.cli import main  # noqa: E402 (the package is found through the line above)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
