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
from helpers.interrupts import sigint_as_at_a_terminal

pytestmark = pytest.mark.io

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
                            cwd=OUTSIDE, preexec_fn=sigint_as_at_a_terminal)
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


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to one's own process")
@pytest.mark.parametrize("where", ["import", "run"])
def test_ctrl_c_while_a_module_loads_ends_at_once(tmp_path: Path, where: str) -> None:
    # a module whose loading is interrupted (as a library's import can be, while a command starts) must
    # end the process with the command's line and status, not run on nor show a traceback; outside an
    # import the handler raises KeyboardInterrupt as Python does (the program handles it)
    (tmp_path / "slow_module.py").write_text(
        "import os, signal, time\n"
        "def interrupt():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(0.5)\n"
        "    print('ran on', flush=True)\n"
        + ("interrupt()\n" if where == "import" else ""))
    program = ("import signal, sys\n"
               "from hkcore.console import on_interrupt\n"
               "signal.signal(signal.SIGINT, on_interrupt)\n"
               "try:\n"
               "    import slow_module\n"
               "    slow_module.interrupt()\n"
               "except KeyboardInterrupt:\n"
               "    print('handled', flush=True)\n"
               "    sys.exit(7)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, timeout=60, env=env, cwd=OUTSIDE)
    if where == "import":
        assert (proc.returncode, proc.stdout, proc.stderr) == (130, b"", b"hkscore: interrupted\n")
    else:
        assert (proc.returncode, proc.stdout, proc.stderr) == (7, b"handled\n", b"")


_SITE = '''Fatal Python error: init_import_site: Failed to import the site module
Python runtime state: initialized
Traceback (most recent call last):
  File "<frozen importlib._bootstrap>", line 1176, in _find_and_load
  File "<frozen site>", line 186, in addpackage
  File "<string>", line 1, in <module>
  File "/v/.venv/lib/python3.11/site-packages/__editable___hkcore_0_1_0_finder.py", line 7, in <module>
    from pathlib import Path
  File "/usr/lib/python3.11/pathlib.py", line 14, in <module>
KeyboardInterrupt
'''
_PACKAGE = '''Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "/src/hkcore/__main__.py", line 5, in <module>
    from hkcore.console import main
  File "/src/hkcore/console.py", line 6, in <module>
    import signal
  File "<frozen importlib._bootstrap>", line 1176, in _find_and_load
KeyboardInterrupt
'''
_COMMAND = '''Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "/src/hkcore/__main__.py", line 7, in <module>
    sys.exit(main())
  File "/src/hkcore/console.py", line 40, in main
    from hkcore.cli import main as run
  File "/usr/lib/python3.11/typing.py", line 412, in __init_subclass__
KeyboardInterrupt
'''


def test_the_fuzz_rounds_tell_the_interpreters_start_up_from_hkcore() -> None:
    from helpers.interrupts import before_hkcore

    assert before_hkcore(_SITE)
    assert before_hkcore(_PACKAGE)
    assert not before_hkcore(_COMMAND)                     # the entry point had run: hkcore's to handle
    assert not before_hkcore(_PACKAGE.replace("KeyboardInterrupt", "ValueError: x"))
    assert not before_hkcore("")
    installed = _COMMAND.replace("/src/hkcore/console.py", "/v/lib/python3.11/site-packages/hkcore/cli.py")
    assert not before_hkcore(installed)                    # hkcore installed among the site-packages
