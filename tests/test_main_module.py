"""``python -m hkcore`` is the ``hkscore`` command line."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import OUTSIDE


def test_python_m_hkcore_runs_hkscore() -> None:
    example = subprocess.run([sys.executable, "-m", "hkcore", "example"], capture_output=True, text=True,
                             timeout=60, cwd=OUTSIDE)
    assert example.returncode == 0, example.stderr
    scored = subprocess.run([sys.executable, "-m", "hkcore", "score", "--preset", "bga-old-style", "--json",
                             "-"], input=example.stdout, capture_output=True, text=True, timeout=60, cwd=OUTSIDE)
    assert scored.returncode == 0, scored.stderr
    # the example hand (docs/rules.md): 9 faan under bga-old-style, South paid 384 (README)
    data = json.loads(scored.stdout)
    data = data[0] if isinstance(data, list) else data
    assert data["faan"] == 9 and data["payments"]["S"] == 384, data


def test_python_m_hkcore_errors_like_hkscore() -> None:
    proc = subprocess.run([sys.executable, "-m", "hkcore", "score", "--preset", "mistbord", "-"], input="{}",
                          capture_output=True, text=True, timeout=60, cwd=OUTSIDE)
    assert proc.returncode == 2 and proc.stderr.startswith("hkscore: error: "), proc.stderr
