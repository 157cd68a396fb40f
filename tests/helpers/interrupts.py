"""Ctrl-C at a random moment of a long ``hkscore`` command (the interrupt area of tests/test_fuzz.py and
tests/fuzz_long.py): the command prints one line, ``hkscore: interrupted``, exits 130 and leaves no output
file that looks complete; a command that finished before the signal exits 0."""
from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from helpers import OUTSIDE

HAND = ('{"tiles": "234m55z", "melds": [{"kind": "pung", "tiles": "666z", "from": "W"}, {"kind": "pung", '
        '"tiles": "777z", "from": "E"}, {"kind": "kong", "tiles": "1111m", "concealed": true}], "win_tile": "5z", '
        '"seat_wind": "S", "discarder": "N"}\n')


class Interrupted(AssertionError):
    """A command that did not end as an interrupted ``hkscore`` should."""


def _commands(folder: Path, have_report: bool) -> list[tuple[str, list[str], list[Path]]]:
    """(name, arguments, files that must not be left behind by an interrupted run)."""
    out = folder / "out"
    commands = [
        ("score --jsonl", ["score", "--jsonl", "-", "-p", "hk-classic"], []),
        ("compare --jsonl", ["compare", "--jsonl", "-", "-p", "all"], []),
        ("play", ["play", "-p", "bga-old-style", "--hands", "1000000", "--policy", "random"], []),
        ("simulate", ["simulate", "-p", "hk-classic", "--hands", "1000000", "--out", str(out)],
         [out / "summary.json", out / "summary.md"]),
        ("sample", ["sample", "--n", "100000000", "--seed", "3"], []),
    ]
    if have_report:
        commands.append(("report", ["report", "-", "-p", "all", "--out", str(out), "--jobs", "1"],
                         [out / "summary.json", out / "summary.md", out / "report.html"]))
    return commands


#: where a frame may stand in a traceback of a Ctrl-C that came before any hkcore code ran: Python's start-up
#: (site, a .pth file's line, an editable install's finder), runpy, the imports at the top of the package and of
#: the entry point
_START_UP = re.compile(r'File "(<frozen [^>]+>|<string>|(?![^"]*/hkcore/)[^"]*/python3[^"]*/[^"]+\.py|'
                       r'[^"]*__editable__[^"]*|'
                       r'[^"]*hkcore/(__init__|__main__)\.py)", line \d+, in '
                       r'|File "[^"]*hkcore/console\.py", line \d+, in <module>')


def before_hkcore(err: str) -> bool:
    """``err`` is the traceback of an interrupt that came before any hkcore code ran (the interpreter was
    still starting, or the package's first imports were loading): every frame in it is of that start-up."""
    if not err.rstrip().endswith("KeyboardInterrupt"):
        return False
    frames = re.findall(r'^\s*File "[^"]*", line \d+, in \S+', err, re.MULTILINE)
    return bool(frames) and all(_START_UP.search(f) for f in frames)


def sigint_as_at_a_terminal() -> None:
    """For ``Popen(preexec_fn=...)``: the child starts with SIGINT at its default, as a terminal starts a
    command, even where the tests run with it ignored (a job put in the background by a shell without job
    control), so that Python in the child installs its own handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_round(rnd: random.Random, folder: Path, tally: Counter[str], have_report: bool,
                    earliest: float = 0.0) -> None:
    """One command, chosen by ``rnd``, interrupted after a random delay (from its first moments, imports
    included, to a few seconds in; never before ``earliest`` seconds); raises ``Interrupted`` if it ends
    otherwise than as the module says."""
    name, args, outputs = rnd.choice(_commands(folder, have_report))
    for path in outputs:
        path.unlink(missing_ok=True)
    delay = max(earliest, rnd.choice([rnd.uniform(0.0, 0.4), rnd.uniform(0.4, 3.0)]))
    proc = subprocess.Popen([sys.executable, "-m", "hkcore", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=OUTSIDE,
                            preexec_fn=sigint_as_at_a_terminal)
    assert proc.stdin is not None and proc.stderr is not None
    try:
        if name in ("score --jsonl", "compare --jsonl", "report"):
            proc.stdin.write(HAND.encode() * 500)   # the pipe stays open: the command is reading when it comes
            proc.stdin.flush()
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGINT)
        try:
            _, raw = proc.communicate(timeout=60)   # closes stdin: a command reading it sees its end
            err, code = raw.decode("utf-8", "replace"), proc.returncode
        except subprocess.TimeoutExpired:
            raise Interrupted(f"{name} interrupted after {delay:.2f} s: still running 60 s on") from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    what = f"{name} interrupted after {delay:.2f} s"
    if code == 0:  # it finished first (the signal came after its end)
        tally[f"interrupt {name}: finished first"] += 1
        return
    if (code == -signal.SIGINT and not err) or (code in (1, -signal.SIGINT) and before_hkcore(err)):
        tally[f"interrupt {name}: in the interpreter's start-up"] += 1
        return
    # ended by the signal itself (-SIGINT) is what a shell shows as 130 too
    if code not in (130, -signal.SIGINT) or err != "hkscore: interrupted\n":
        raise Interrupted(f"{what}: exit {code}, stderr {err[-600:]!r}")
    left = [str(p) for p in outputs if p.exists()]
    if left:
        raise Interrupted(f"{what}: left {left} behind")
    if name == "simulate" and (folder / "out").is_dir():
        stray = [p.name for p in (folder / "out").iterdir() if not p.name.startswith(".")]
        if stray:
            raise Interrupted(f"{what}: left {stray} behind")
    tally[f"interrupt {name}: 130"] += 1

