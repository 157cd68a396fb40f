"""The ``hkscore`` command's entry point (and ``python -m hkcore``'s): a Ctrl-C from the moment this module
runs, while the command line is still being loaded included, prints one line and exits 130."""
from __future__ import annotations

import sys


def main() -> int:
    """Load and run the ``hkscore`` command line (``hkcore.cli.main``)."""
    try:
        from hkcore.cli import main as run

        return run()
    except KeyboardInterrupt:  # before or after the command line's own handling of it
        print("hkscore: interrupted", file=sys.stderr)
        return 130
