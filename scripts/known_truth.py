#!/usr/bin/env python3
"""Applications with known bindings: an oracle for `shipgate-daemon diff --application`.

The entry point of the package `known_truth/` beside this file, whose `__init__.py`
explains the truth model and the three properties it checks; `--help` lists the flags.

Usage:
    known_truth.py --seed N --count K --daemon PATH [--shapes a,b] [--minutes M]
                   [--include-known-wrong] [--no-shrink] [--show]
    known_truth.py --self-check --seed N --count K [--shapes a,b] [--include-known-wrong]
    known_truth.py --list-shapes

Python 3 standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from known_truth.cli import main  # noqa: E402 (the package is found through the line above)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
