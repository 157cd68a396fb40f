"""Ctrl-C during ``hkscore report`` prints one line, exits 130 and leaves no report behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import OUTSIDE

HAND = {"tiles": "234m55z", "melds": [{"kind": "pung", "tiles": "666z", "from": "W"},
                                      {"kind": "pung", "tiles": "777z", "from": "E"},
                                      {"kind": "kong", "tiles": "1111m", "concealed": True}],
        "win_tile": "5z", "seat_wind": "S", "discarder": "N"}

#: run the command from outside the source tree: the installed hkcore, not the checkout's


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_sigint_during_report_is_one_line_and_130(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="hkscore report needs matplotlib (pip install 'hkcore[report]')")
    out = tmp_path / "report"
    proc = subprocess.Popen([sys.executable, "-m", "hkcore.cli", "report", "-", "--preset", "all", "--out", str(out),
                             "--jobs", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=OUTSIDE)
    assert proc.stdin is not None
    line = (json.dumps(HAND) + "\n").encode()
    proc.stdin.write(line * 2000)
    proc.stdin.flush()           # the pipe stays open: report is reading when the signal comes
    time.sleep(3)
    assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    os.kill(proc.pid, signal.SIGINT)
    _stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert stderr.decode() == "hkscore: interrupted\n"
    assert not (out / "summary.json").exists() and not (out / "report.html").exists()


def test_report_into_a_file_is_refused_before_any_hand_is_read(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="hkscore report needs matplotlib (pip install 'hkcore[report]')")
    afile = tmp_path / "afile"
    afile.write_text("keep me", encoding="utf-8")
    # (before the check this read every hand, then failed writing: exit 3, internal error)
    proc = subprocess.Popen([sys.executable, "-m", "hkcore.cli", "report", "-", "--out", str(afile)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=OUTSIDE)
    try:
        _, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 2, stderr
    assert stderr.startswith("hkscore: error: out: ") and "is a file, not a folder" in stderr
    assert len(stderr.splitlines()) == 1
    assert afile.read_text(encoding="utf-8") == "keep me"
