"""Programs that play a seat (docs/bots.md, "Bots from any program") for the tests: the 20-line bot of
docs/bots.md, a program that misbehaves in a chosen way, and the processes a process has running."""
from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
FIRST_WIN = ROOT / "examples" / "bots" / "first_win.py"
DOC = ROOT / "docs" / "bots.md"

#: the body of a program: reads the hello, then answers each prompt with its first discard, else its first
#: action; {misbehave} is put in before each answer (``n``: the prompt's count, from 1; ``choice``: the answer)
PROGRAM = """
import json, os, sys, time
hello = json.loads(sys.stdin.readline())
n = 0
for line in sys.stdin:
    prompt = json.loads(line)
    n += 1
    acts = prompt["actions"]
    choice = next((a for a in acts if a["act"] == "discard"), acts[0])
{misbehave}
    print(json.dumps(choice), flush=True)
"""

#: each way a program can misbehave, at its third prompt: (the lines put in, the kind of fault recorded)
MISBEHAVIOURS = {
    "illegal": ("    if n == 3:\n        choice = {'act': 'discard', 'tile': '9z'}", "illegal"),
    "bad-json": ("    if n == 3:\n        print('this is not json', flush=True); continue", "bad-json"),
    "not-an-object": ("    if n == 3:\n        print('[1, 2]', flush=True); continue", "bad-json"),
    "too-long": ("    if n == 3:\n        print('[' + '1,' * 40000 + '1]', flush=True); continue", "too-long"),
    "another-seat": ("    if n == 3:\n        choice = {**choice, 'seat': 'E' if prompt['seat'] != 'E' else 'S'}",
                     "illegal"),
    "crash": ("    if n == 3:\n        sys.exit(3)", "crash"),
    "hang": ("    if n == 3:\n        time.sleep(60)", "timeout"),
    "stderr": ("    sys.stderr.write('x' * 200000); sys.stderr.flush()", None),
}


def doc_bot(folder: Path) -> Path:
    """The 20-line bot docs/bots.md shows, written to ``folder`` (checked to be the code of
    examples/bots/first_win.py, where the examples are beside the tests)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("```python\nimport json\nimport sys\n") + len("```python\n")
    code = text[start:text.index("```", start)]
    if FIRST_WIN.is_file():
        assert code.strip() in FIRST_WIN.read_text(encoding="utf-8")
    path = folder / "first_win.py"
    path.write_text(code, encoding="utf-8")
    return path


def program(folder: Path, misbehave: str = "", name: str = "bot.py") -> str:
    """A program (``PROGRAM`` with ``misbehave`` put in) written to ``folder``: the command that runs it
    (without ``cmd:``)."""
    path = folder / name
    path.write_text(PROGRAM.format(misbehave=misbehave), encoding="utf-8")
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def children(pid: int | None = None) -> set[int]:
    """The pids of the processes whose parent is ``pid`` (default: this process) and that still run (not
    zombies), from /proc (Linux)."""
    parent = os.getpid() if pid is None else pid
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == parent and fields[0] != "Z":
            out.add(int(entry.name))
    return out


def running(pid: int) -> bool:
    """Whether the process ``pid`` exists and is not a zombie (Linux)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
