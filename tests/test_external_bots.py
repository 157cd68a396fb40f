"""Bots from any program (hkcore.table.players.external; docs/bots.md "Bots from any program"): a program
speaking JSON lines plays a seat; each way it can misbehave is recorded, the fallback bot plays on, the hand
finishes and replays, and no process is left behind (closed, collected, or at the interpreter's exit). A
server never runs a program a request names (tests/test_served_programs.py: the ones its operator names)."""
from __future__ import annotations

import gc
import json
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from helpers.command import environment, hkscore
from helpers.programs import DOC, MISBEHAVIOURS, PROGRAM, children, doc_bot, program, running
from hkcore.errors import TableError
from hkcore.preset import load_preset
from hkcore.simulation import arena, simulate
from hkcore.table import Table, replay
from hkcore.table.players import make_bot
from hkcore.table.players.external import CommandBot, ProgramFactory, bot_or_program

#: a program that answers its first prompt, writes its pid to the file its argument names, then sleeps
#: without reading (its stdin's end does not stop it): only a kill ends it
SLEEPER = """
import json, os, sys, time
sys.stdin.readline()
acts = json.loads(sys.stdin.readline())["actions"]
print(json.dumps(next((a for a in acts if a["act"] == "discard"), acts[0])), flush=True)
with open(sys.argv[1], "w") as f:
    f.write(str(os.getpid()))
time.sleep(60)
"""


def _play(t: Table, bot: Any, seat: str = "S") -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play ``t`` to its end, ``bot`` at ``seat`` and efficiency elsewhere: the log, and the prompts ``bot``
    was asked (each with the decision it gave)."""
    others = make_bot("efficiency", t.preset)
    asked = []
    while not t.over:
        p = t.prompts()[0]
        d = (bot if p["seat"] == seat else others).decide(p)
        if p["seat"] == seat:
            asked.append({**p, "decision": d})
        t.submit(d)
    return t.log, asked


def _sleeper(tmp_path: Path) -> tuple[str, Path]:
    path, pid_file = tmp_path / "sleeper.py", tmp_path / "pid"
    path.write_text(SLEEPER, encoding="utf-8")
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))} {shlex.quote(str(pid_file))}", pid_file


def _first_prompt(t: Table, seat: str = "E") -> dict[str, Any]:
    return next(p for p in t.prompts() if p["seat"] == seat)


@pytest.mark.parametrize("name", list(MISBEHAVIOURS))
def test_a_program_that_misbehaves_is_recorded_and_the_fallback_plays_on(tmp_path: Path, name: str) -> None:
    misbehave, kind = MISBEHAVIOURS[name]
    before = children()
    t = Table({"event": "start", "preset": "mistboard", "seed": 4})
    bot = CommandBot(program(tmp_path, misbehave), t.preset, 0, time_limit=0.4)
    log, asked = _play(t, bot)
    assert any(r["event"] == "end_hand" for r in log) and replay(log) == log
    assert len(asked) > 3  # (the program misbehaves at its third prompt: the hand went on past it)
    if kind is None:
        assert bot.faults == []
    else:
        assert [f["kind"] for f in bot.faults] == [kind], bot.faults
        third = asked[2]
        assert bot.faults[0]["prompt"] == third["prompt"] and bot.faults[0]["detail"]
        # from the fault on, the fallback (guard, deterministic) decides: the same decisions as a guard of its own
        guard = make_bot("guard", t.preset, 0)
        assert all(a["decision"] == guard.decide(a) for a in asked[2:])
    bot.close()
    assert children() <= before  # no program left running


def test_the_program_is_sent_the_hello_and_each_prompt_as_prompts_gives_it(tmp_path: Path) -> None:
    heard = tmp_path / "heard.jsonl"
    command = program(tmp_path, f"    open({str(heard)!r}, 'a').write(line)")
    t = Table({"event": "start", "preset": "hk-classic", "seed": 9})
    bot = CommandBot(command + " --a 'two words'", t.preset, 17)
    _, asked = _play(t, bot, "W")
    bot.close()
    assert bot.faults == [] and bot.argv[-2:] == ["--a", "two words"]  # split as a shell splits, no shell run
    got = [json.loads(x) for x in heard.read_text(encoding="utf-8").splitlines()]
    assert got == [{k: v for k, v in a.items() if k != "decision"} for a in asked]
    discards = [a for a in asked if a["decision"]["act"] == "discard"]
    # the program's answers, without prompt and seat, made whole: its first discard on every turn
    assert discards and all(a["decision"] == {"prompt": a["prompt"], "seat": "W",
                                              **next(x for x in a["actions"] if x["act"] == "discard")}
                            for a in discards)


def test_the_hello_line(tmp_path: Path) -> None:
    said = tmp_path / "hello.json"
    path = tmp_path / "hello.py"
    path.write_text(f"import sys\nopen({str(said)!r}, 'w').write(sys.stdin.readline())\n", encoding="utf-8")
    t = Table({"event": "start", "preset": "mistboard", "seed": 1})
    bot = CommandBot(f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}", t.preset, 42, time_limit=0.4)
    bot.decide(_first_prompt(t))
    bot.close()
    assert json.loads(said.read_text(encoding="utf-8")) == {"hkcore": 1, "preset": "mistboard", "seed": 42}
    assert [f["kind"] for f in bot.faults] == ["crash"]  # it ended without an answer


def test_the_first_answer_may_take_the_start_limit_more(tmp_path: Path) -> None:
    path = tmp_path / "slow.py"
    path.write_text("import time\ntime.sleep(1.0)\n" + PROGRAM.format(misbehave=""), encoding="utf-8")  # a slow start
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"
    t = Table({"event": "start", "preset": "mistboard", "seed": 1})
    patient = CommandBot(command, t.preset, 0, time_limit=0.3, start_limit=30)
    hasty = CommandBot(command, t.preset, 0, time_limit=0.3, start_limit=0)
    p = _first_prompt(t)
    patient.decide(p)
    hasty.decide(p)
    patient.close()
    hasty.close()
    assert patient.faults == []
    assert [f["kind"] for f in hasty.faults] == ["timeout"]


def test_close_from_another_thread_ends_a_decision_under_way(tmp_path: Path) -> None:
    command, pid_file = _sleeper(tmp_path)
    before = children()  # (other tests' processes may still run beside this one)
    t = Table({"event": "start", "preset": "mistboard", "seed": 4})
    bot = CommandBot(command, t.preset, 0, time_limit=300)
    p = _first_prompt(t)
    first = bot.decide(p)
    assert first["act"] == "discard" and bot.faults == []
    done: list[dict[str, Any]] = []
    thread = threading.Thread(target=lambda: done.append(bot.decide(p)))  # the program never answers it
    thread.start()
    while not pid_file.exists() or not pid_file.read_text():
        time.sleep(0.01)
    pid = int(pid_file.read_text())
    bot.close()
    thread.join(60)  # well inside its time limit of 300 s: only close() can end it
    assert not thread.is_alive()
    assert done == [make_bot("guard", t.preset, 0).decide(p)]  # the fallback's answer
    assert bot.faults == []  # a program stopped by close() is no fault of its own
    assert not running(pid)
    assert bot.decide(p) == done[0]  # closed: the fallback answers, nothing started again
    assert children() <= before


def test_the_program_is_killed_when_the_bot_is_collected(tmp_path: Path) -> None:
    command, pid_file = _sleeper(tmp_path)
    t = Table({"event": "start", "preset": "mistboard", "seed": 4})
    bot = CommandBot(command, t.preset, 0, time_limit=30)
    bot.decide(_first_prompt(t))
    while not pid_file.exists() or not pid_file.read_text():
        time.sleep(0.01)
    pid = int(pid_file.read_text())
    assert running(pid)
    del bot
    gc.collect()
    assert not running(pid)


def test_the_program_is_killed_at_the_interpreters_exit(tmp_path: Path) -> None:
    command, pid_file = _sleeper(tmp_path)
    script = ("import sys\nfrom hkcore.table import Table\nfrom hkcore.table.players.external import CommandBot\n"
              "t = Table({'event': 'start', 'preset': 'mistboard', 'seed': 4})\n"
              "bot = CommandBot(sys.argv[1], t.preset, 0, time_limit=30)\n"
              "bot.decide(next(p for p in t.prompts() if p['seat'] == 'E'))\n"
              "import time\nwhile not open(sys.argv[2]).read(): time.sleep(0.01)\n")  # left running, never closed
    pid_file.write_text("")
    proc = subprocess.run([sys.executable, "-c", script, command, str(pid_file)], env=environment(),
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert not running(int(pid_file.read_text()))


def test_the_twenty_line_bot_plays_an_arena_and_a_simulation(tmp_path: Path) -> None:
    if not DOC.is_file():
        pytest.skip("docs/bots.md is not beside tests/ (it ships in the sdist and the repository)")
    bot = doc_bot(tmp_path)
    command = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(bot))}"
    before = children()
    r = arena("mistboard", command, "efficiency", walls=3, seed=2)
    assert r.hands == 12 and r.faults == {"challenger": 0, "champion": 0}
    assert r.net_per_hand.mean == 0.0  # under a 3-faan minimum its first discards never make a hand to win
    s = simulate(["mistboard"], [command, "efficiency", "efficiency", "efficiency"], hands=2, seed=2)
    assert s.presets["mistboard"].bots[command].faults == 0
    assert children() <= before
    assert len(bot.read_text(encoding="utf-8").splitlines()) <= 20  # docs/bots.md: a bot in 20 lines


def test_a_fault_marks_the_arena_and_the_simulation(tmp_path: Path) -> None:
    command = "cmd:" + program(tmp_path, MISBEHAVIOURS["bad-json"][0])
    r = arena("mistboard", command, "efficiency", walls=2, seed=1)
    # the program is asked more than 3 times in every one of its 2 x 4 seat-hands: each faults once
    assert r.faults == {"challenger": 8, "champion": 0}
    proc = hkscore("arena", "-p", "mistboard", "--bots", f"{command},efficiency", "--walls", "2", "--seed", "1")
    assert proc.returncode == 0 and "FAULTS: a program's bot faulted in 8 of the challenger's" in proc.stdout
    out = tmp_path / "sim"
    proc = hkscore("simulate", "-p", "mistboard", "--bots", f"{command},guard,guard,guard", "--hands", "1",
                   "--out", str(out), "--json", "--bot-time-limit", "2")
    assert proc.returncode == 0, proc.stderr
    bots = json.loads(proc.stdout)["presets"]["mistboard"]["bots"]
    assert bots[command]["faults"] == 4 and bots["guard"]["faults"] == 0
    assert f"hkscore: faults: {command} under mistboard: the program faulted in 4 seat-hands" in proc.stderr
    assert f"mistboard {command}: 4." in (out / "summary.md").read_text(encoding="utf-8")


def test_hkscore_play_seats_a_program(tmp_path: Path) -> None:
    if not DOC.is_file():
        pytest.skip("docs/bots.md is not beside tests/")
    command = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(doc_bot(tmp_path)))}"
    log = tmp_path / "log.jsonl"
    proc = hkscore("play", "-p", "mistboard", "--bots", f"{command},efficiency,guard,value", "--seed", "3",
                   "--out", str(log), "--bot-time-limit", "5")
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert records[-1]["event"] in ("end_hand", "end_match") and replay(records) == records
    proc = hkscore("play", "-p", "mistboard", "--bots", "efficiency", "--bot-time-limit", "0")
    assert proc.returncode == 2 and proc.stderr.strip().splitlines() == [
        "hkscore: error: --bot-time-limit: expected seconds, 0.001 to 600, got 0"]


def test_a_program_name_is_a_bot_only_where_the_caller_allows_it(tmp_path: Path) -> None:
    preset = load_preset("mistboard")
    command = "cmd:" + program(tmp_path, "")
    with pytest.raises(TableError) as e:
        make_bot(command, preset)  # a server's tables make bots so: a name sent in a request runs nothing
    assert e.value.field == "bot"
    assert isinstance(bot_or_program(command, preset), CommandBot)
    assert bot_or_program("value", preset).name == "value"  # type: ignore[attr-defined]
    for bad in ("cmd:", "cmd:no-such-program-anywhere --x", "cmd:'unclosed"):
        with pytest.raises(TableError) as e:
            bot_or_program(bad, preset)
        assert e.value.field == "bot"
    for field, kwargs in (("time_limit", {"time_limit": 0}), ("time_limit", {"time_limit": True}),
                          ("time_limit", {"time_limit": float("nan")}), ("time_limit", {"time_limit": 601}),
                          ("start_limit", {"start_limit": -1}), ("fallback", {"fallback": "cmd:x"}),
                          ("fallback", {"fallback": "no-such-bot"})):
        with pytest.raises(TableError) as e:
            CommandBot(program(tmp_path, ""), preset, 0, **kwargs)
        assert e.value.field == field, kwargs
        with pytest.raises(TableError):
            ProgramFactory(program(tmp_path, ""), **kwargs)
    with pytest.raises(TableError) as e:
        simulate(["mistboard"], "efficiency", hands=1, bot_time_limit=-1)
    assert e.value.field == "bot_time_limit"
    with pytest.raises(TableError) as e:
        arena("mistboard", "efficiency", "simple", walls=1, bot_time_limit=0)
    assert e.value.field == "bot_time_limit"


def test_a_factory_makes_the_bot_of_its_program(tmp_path: Path) -> None:
    factory = ProgramFactory(program(tmp_path, ""), time_limit=1.5, fallback="value")
    bot = factory(load_preset("mistboard"), 3)
    assert isinstance(bot, CommandBot) and (bot.time_limit, bot.fallback) == (1.5, "value")
    assert "1.5 s" in (factory.__doc__ or "") and str(tmp_path) not in (factory.__doc__ or "")
