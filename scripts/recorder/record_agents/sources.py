"""The recorder's own source files: what the child runs (a copy of them) and what versions the cache."""

import os

PACKAGE = os.path.dirname(os.path.abspath(__file__))
ENTRY = os.path.join(os.path.dirname(PACKAGE), "record_agents.py")


def recorder_sources():
    """[(path relative to scripts/recorder/, absolute path)]: the entry script and every module of
    the package, in a fixed order."""
    out = [("record_agents.py", ENTRY)]
    for dirpath, dirnames, filenames in os.walk(PACKAGE):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(".py"):
                full = os.path.join(dirpath, name)
                out.append((os.path.relpath(full, os.path.dirname(PACKAGE)), full))
    return out
