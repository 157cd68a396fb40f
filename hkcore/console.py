"""The ``hkscore`` command's entry point (and ``python -m hkcore``'s): a Ctrl-C from the moment this module
runs, while the command line or a library is still being loaded included, prints one line and exits 130."""
from __future__ import annotations

import os
import signal
import sys
from types import FrameType

#: the message and the status a shell shows for a command ended by SIGINT
INTERRUPTED = "hkscore: interrupted"
STATUS = 130


def on_interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C: ``KeyboardInterrupt`` as Python raises it, for the command to end its work cleanly, except
    while a module is being imported. There nothing of the command's is half done, and the exception may
    not reach the command as itself (a compiled library's import turns it into its own error): the process
    ends at once with the command's line and status."""
    f = frame
    while f is not None:
        if f.f_code.co_filename.startswith("<frozen importlib"):
            os.write(2, f"{INTERRUPTED}\n".encode())
            os._exit(STATUS)
        f = f.f_back
    raise KeyboardInterrupt


def main() -> int:
    """Load and run the ``hkscore`` command line (``hkcore.cli.main``)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when the caller ignores SIGINT
        signal.signal(signal.SIGINT, on_interrupt)
    try:
        from hkcore.cli import main as run

        return run()
    except KeyboardInterrupt:  # before or after the command line's own handling of it
        print(INTERRUPTED, file=sys.stderr)
        return STATUS
