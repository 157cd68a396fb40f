"""Bots from any program (hkcore.table.players.external; docs/bots.md "Bots from any program"): a program
speaking JSON lines plays a seat; each way it can misbehave is recorded, the fallback bot plays on, the hand
finishes and replays, and no process is left behind. A server never runs a program a request names."""
from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers.command import hkscore
from hkcore.errors import TableError
from hkcore.preset import load_preset
from hkcore.simulation import arena, simulate
from hkcore.table import Table, replay
from hkcore.table.players import make_bot
from hkcore.table.players.external import CommandBot, bot_or_program

ROOT = Path(__file__).resolve().parent.parent
FIRST_WIN = ROOT / "examples" / "bots" / "first_win.py"
DOC = ROOT / "docs" / "bots.md"


def _doc_bot(tmp_path: Path) -> Path:
    """The 20-line bot docs/bots.md shows, as a file (the same code as examples/bots/first_win.py, where the
    examples are beside the tests)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("```python\nimport json\nimport sys\n") + len("```python\n")
    code = text[start:text.index("```", start)]
    if FIRST_WIN.is_file():
        assert code.strip() in FIRST_WIN.read_text(encoding="utf-8")
    path = tmp_path / "first_win.py"
    path.write_text(code, encoding="utf-8")
    return path

#: the body of a program: reads the hello, then answers prompts; {misbehave} is put in before each answer
PROGRAM = """
import json, sys, time
sys.stdin.readline()
n = 0
for line in sys.stdin:
    prompt = json.loads(line)
    n += 1
    acts = prompt["actions"]
    choice = next((a for a in acts if a["act"] == "discard"), acts[0])
{misbehave}
    print(json.dumps(choice), flush=True)
"""

MISBEHAVIOURS = {
    "illegal": ("    if n == 3:\n        choice = {'act': 'discard', 'tile': '9z'}", "illegal"),
    "bad-json": ("    if n == 3:\n        print('this is not json', flush=True); continue", "bad-json"),
    "too-long": ("    if n == 3:\n        print('[' + '1,' * 40000 + '1]', flush=True); continue", "too-long"),
    "crash": ("    if n == 3:\n        sys.exit(3)", "crash"),
    "hang": ("    if n == 3:\n        time.sleep(30)", "timeout"),
    "stderr": ("    sys.stderr.write('x' * 200000); sys.stderr.flush()", None),
}


def _program(tmp_path: Path, misbehave: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(PROGRAM.format(misbehave=misbehave), encoding="utf-8")
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def _children() -> set[int]:
    """The pids of this process's children still alive (not zombies)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            out.add(int(entry.name))
    return out


def _play(t: Table, bot: Any, seat: str = "S") -> list[dict[str, Any]]:
    others = make_bot("efficiency", t.preset)
    while not t.over:
        p = t.prompts()[0]
        t.submit((bot if p["seat"] == seat else others).decide(p))
    return t.log


@pytest.mark.parametrize("name", list(MISBEHAVIOURS))
def test_a_program_that_misbehaves_is_recorded_and_the_fallback_plays_on(tmp_path: Path, name: str) -> None:
    misbehave, kind = MISBEHAVIOURS[name]
    before = _children()
    t = Table({"event": "start", "preset": "mistboard", "seed": 4})
    bot = CommandBot(_program(tmp_path, misbehave), t.preset, 0, time_limit=0.5)
    log = _play(t, bot)
    assert any(r["event"] == "end_hand" for r in log) and replay(log) == log
    if kind is None:
        assert bot.faults == []
    else:
        assert [f["kind"] for f in bot.faults] == [kind], bot.faults
        assert bot.faults[0]["prompt"] is not None and bot.faults[0]["detail"]
    bot.close()
    assert _children() <= before  # no program left running


def test_the_twenty_line_bot_plays_an_arena_and_a_simulation(tmp_path: Path) -> None:
    if not DOC.is_file():
        pytest.skip("docs/bots.md is not beside tests/ (it ships in the sdist and the repository)")
    bot = _doc_bot(tmp_path)
    command = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(bot))}"
    before = _children()
    r = arena("mistboard", command, "efficiency", walls=3, seed=2)
    assert r.hands == 12 and r.faults == {"challenger": 0, "champion": 0}
    assert r.net_per_hand.mean == 0.0  # under a 3-faan minimum its first discards never make a hand to win
    s = simulate(["mistboard"], [command, "efficiency", "efficiency", "efficiency"], hands=2, seed=2)
    assert s.presets["mistboard"].bots[command].faults == 0
    assert _children() <= before
    assert len(bot.read_text(encoding="utf-8").splitlines()) <= 20  # docs/bots.md: a bot in 20 lines


def test_a_fault_marks_the_arena(tmp_path: Path) -> None:
    command = "cmd:" + _program(tmp_path, MISBEHAVIOURS["bad-json"][0])
    r = arena("mistboard", command, "efficiency", walls=2, seed=1)
    assert r.faults["challenger"] >= 1 and r.faults["champion"] == 0
    proc = hkscore("arena", "-p", "mistboard", "--bots", f"{command},efficiency", "--walls", "2", "--seed", "1")
    assert proc.returncode == 0 and "FAULTS" in proc.stdout


def test_a_program_name_is_a_bot_only_where_the_caller_allows_it(tmp_path: Path) -> None:
    preset = load_preset("mistboard")
    command = "cmd:" + _program(tmp_path, "")
    with pytest.raises(TableError) as e:
        make_bot(command, preset)  # a server's tables make bots so: a name sent in a request runs nothing
    assert e.value.field == "bot"
    assert isinstance(bot_or_program(command, preset), CommandBot)
    assert bot_or_program("value", preset).name == "value"  # type: ignore[attr-defined]
    for bad in ("cmd:", "cmd:no-such-program-anywhere --x", "cmd:'unclosed"):
        with pytest.raises(TableError) as e:
            bot_or_program(bad, preset)
        assert e.value.field == "bot"
    with pytest.raises(TableError) as e:
        CommandBot(_program(tmp_path, ""), preset, 0, time_limit=0)
    assert e.value.field == "time_limit"
    with pytest.raises(TableError) as e:
        CommandBot(_program(tmp_path, ""), preset, 0, fallback="cmd:x")
    assert e.value.field == "fallback"


def test_a_served_table_refuses_a_program_named_in_a_request() -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from hkcore.server import create_app

    with TestClient(create_app()) as c:
        r = c.post("/tables", json={"seats": {"E": "human", "S": "cmd:touch /tmp/hkcore-pwned", "W": "guard",
                                              "N": "guard"}})
    assert r.status_code == 422
    body = r.json()
    assert "seats" in json.dumps(body) and not Path("/tmp/hkcore-pwned").exists()
