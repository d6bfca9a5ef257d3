#!/usr/bin/env python3
"""Import-time recorder of OpenAI Agents SDK / Google ADK agents (a test tool).

The entry point of the package `record_agents/` beside this file, whose `__init__.py` says how
the recorder confines the code it runs; `--help` lists the flags. The parent side (`--repo`,
`--commit`, ...) is `record_agents/cli.py`; the child side (`--child`, run in the sandbox by the
parent, from a copy of this file and the package) is `record_agents/child/`.

Usage:
    record_agents.py --repo PATH --commit REV [--out FILE.jsonl]
                     [--timeout 20] [--jobs 2] [--cache DIR] [--include-tests]
                     [--only PATH ...]
"""

import os
import sys

# The package beside this file (the child runs with -I, which leaves this directory off sys.path).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if __name__ == "__main__":
    if "--child" in sys.argv[1:]:
        from record_agents.child.main import child_main
        child_main(sys.argv[1:])
    else:
        from record_agents.cli import main
        sys.exit(main(sys.argv[1:]))
