"""``hkscore`` run for real: ``python -m hkcore`` in a folder outside the
source tree, with this environment (PYTHONPATH made absolute)."""
from __future__ import annotations

import os
import subprocess
import sys

from helpers import OUTSIDE


def environment() -> dict[str, str]:
    """This environment, with PYTHONPATH made absolute (the command runs in another folder)."""
    out = dict(os.environ)
    if out.get("PYTHONPATH"):
        out["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in out["PYTHONPATH"].split(os.pathsep))
    return out


def hkscore(*argv: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``hkscore ARGV`` in a process of its own: its exit code, stdout and stderr."""
    return subprocess.run([sys.executable, "-m", "hkcore", *argv], check=False, input=stdin, capture_output=True,
                          text=True, timeout=timeout, cwd=OUTSIDE, env=environment())
