"""`python3 -m known_truth` (from scripts/): the same as scripts/known_truth.py."""

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
