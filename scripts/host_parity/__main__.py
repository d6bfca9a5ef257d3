"""`python3 -m host_parity` (from scripts/): the same as scripts/host_parity.py."""

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
