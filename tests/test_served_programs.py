"""Programs' bots at served tables (docs/bots.md, "Bots from any program"; docs/server.md): only the
operator names programs (``hkscore serve --bot NAME=cmd:PROGRAM ARGS``), which clients choose by name; a
request naming a program is refused. A program decides off the event loop, its faults are said and its
fallback plays on, the table plays to its end and its log replays, and no program is left running."""
from __future__ import annotations

import json
import shlex
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from helpers.programs import DOC, MISBEHAVIOURS, PROGRAM, children, doc_bot, program
from helpers.serving import call, in_process, missing_server_deps, server_process
from hkcore.table import replay

pytestmark = [pytest.mark.io, pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))]

#: a program that, at its third prompt, writes the file its first argument names and waits (up to a minute)
#: for the file its second names before it answers: the test decides when it answers
GATE = """
import os, sys, time
waiting, go = sys.argv[1], sys.argv[2]
""" + PROGRAM.format(misbehave="""    if n == 3:
        open(waiting, "w").close()
        for _ in range(6000):
            if os.path.exists(go):
                break
            time.sleep(0.01)""")


def ask(url: str, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    status, _, raw = call(url + path, method, body, headers=headers, timeout=20)
    text = raw.decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def wait_log(url: str, table: str, most: float = 180) -> list[dict[str, Any]]:
    """The table's log once its hand (or match) is over, asked for until then."""
    deadline = time.monotonic() + most
    while True:
        status, _, raw = call(f"{url}/tables/{table}/log", timeout=20)
        if status == 200:
            return [json.loads(x) for x in raw.decode().splitlines()]
        assert status == 409, raw
        assert time.monotonic() < deadline, f"table {table} not over within {most:g} s"
        time.sleep(0.05)


def play_person(url: str, table: str, token: str, most: float = 180) -> int:
    """Play E's seat (a win when offered, else pass in a window, else the first discard) until the table is
    over; the decisions sent."""
    deadline = time.monotonic() + most
    sent = 0
    while True:
        status, st = ask(url, "GET", f"/tables/{table}?seat=E", token)
        assert status == 200, st
        if st["status"] == "over":
            return sent
        q = st["prompt"]
        if q is None:  # another seat decides (a program on its thread, perhaps)
            assert time.monotonic() < deadline, f"table {table} not over within {most:g} s"
            time.sleep(0.02)
            continue
        acts = q["actions"]
        pick = next((a for a in acts if a["act"] == "win"), None) or next(
            (a for a in acts if a["act"] == "pass"), None) or next(a for a in acts if a["act"] == "discard")
        status, got = ask(url, "POST", f"/tables/{table}/decisions", token, {"prompt": q["prompt"], "seat": "E",
                                                                               **pick})
        assert status == 200, got
        sent += 1


def test_a_served_table_plays_the_operators_programs(tmp_path: Path) -> None:
    if not DOC.is_file():
        pytest.skip("docs/bots.md is not beside tests/")
    waiting, go = tmp_path / "waiting", tmp_path / "go"
    (tmp_path / "gate.py").write_text(GATE, encoding="utf-8")
    gate = f"{shlex.quote(sys.executable)} {shlex.quote(str(tmp_path / 'gate.py'))} {waiting} {go}"
    mine = f"{shlex.quote(sys.executable)} {shlex.quote(str(doc_bot(tmp_path)))}"
    mad = program(tmp_path, MISBEHAVIOURS["bad-json"][0], "mad.py")
    output: list[str] = []
    with server_process("--db", "none", "--bot", f"mine=cmd:{mine}", "--bot", f"gate=cmd:{gate}",
                        "--bot", f"mad=cmd:{mad}", "--bot-time-limit", "120", output=output) as (url, proc):
        status, bots = ask(url, "GET", "/bots")
        assert status == 200
        listed = {b["name"]: b["description"] for b in bots}
        assert {"mine", "gate", "mad", "guard"} <= set(listed)
        assert "120 s" in listed["mine"] and str(tmp_path) not in json.dumps(bots)  # the command is not shown
        before = children(proc.pid)

        # a table of bots alone: while the gate's program holds its decision, the server answers everything else
        status, made = ask(url, "POST", "/tables", body={"preset": "mistboard", "seed": 5, "seats": {
            "E": "gate", "S": "guard", "W": "mad", "N": "mine"}})
        assert status == 201, made
        alone = made["id"]
        deadline = time.monotonic() + 120
        while not waiting.exists():
            assert time.monotonic() < deadline, "the gate's program was never asked a third time"
            time.sleep(0.02)
        assert ask(url, "GET", "/health")[0] == 200
        assert ask(url, "GET", f"/tables/{alone}/log")[0] == 409  # the hand waits on the program
        # a person's table plays meanwhile, a program at S
        status, made = ask(url, "POST", "/tables", body={"preset": "mistboard", "seats": {
            "E": "human", "S": "mine", "W": "mad", "N": "guard"}})
        assert status == 201, made
        person, token = made["id"], made["tokens"]["E"]
        assert play_person(url, person, token) > 0
        log = wait_log(url, person)
        assert log[-1]["event"] in ("end_hand", "end_match") and replay(log) == log
        assert ask(url, "GET", f"/tables/{alone}/log")[0] == 409  # still waiting on the gate's program
        go.touch()
        log = wait_log(url, alone)
        assert log[-1]["event"] in ("end_hand", "end_match") and replay(log) == log
        assert any(r["event"] == "discard" and r["seat"] == "E" for r in log)

        # a request naming a program is refused, naming the seat; nothing is run
        pwned = tmp_path / "pwned"
        status, got = ask(url, "POST", "/tables", body={"seats": {
            "E": "human", "S": f"cmd:touch {pwned}", "W": "guard", "N": "guard"}})
        assert status == 422 and got["field"] == "seats.S" and not pwned.exists()
        assert "never names a program" in got["detail"]
        # the tables are over: their programs stopped (waited for: no zombie either)
        assert children(proc.pid) <= before
    said = output[0]
    # the misbehaving program faulted at each table, the fallback playing on; the others never did
    assert said.count("'s program bad-json at prompt") == 2, said
    assert "program timeout" not in said and "program crash" not in said


def test_serve_takes_programs_by_name_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``--bot NAME=cmd:PROGRAM ARGS`` (repeatable), ``--bot-time-limit`` and ``--most-programs`` reach
    ``serve``; a bad one is a usage error naming it, before anything runs."""
    import hkcore.server
    from hkcore.cli import main

    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(hkcore.server, "serve", lambda *args, **kwargs: seen.append(kwargs))
    monkeypatch.chdir(tmp_path)
    python = shlex.quote(sys.executable)
    assert main(["serve", "--db", "none", "--bot", f"mine=cmd:{python} bot.py --x 'a b'", "--bot",
                 f"other=cmd:{python}", "--bot-time-limit", "0.5", "--most-programs", "3"]) == 0
    assert seen[-1]["programs"] == {"mine": f"{python} bot.py --x 'a b'", "other": python}
    assert (seen[-1]["program_time_limit"], seen[-1]["most_programs"]) == (0.5, 3)
    assert main(["serve", "--db", "none"]) == 0 and "programs" not in seen[-1]
    for args, said in (
            (["--bot", f"mine={python}"], "--bot 'mine=" + python + "': expected NAME=cmd:PROGRAM ARGS"),
            (["--bot", f"guard=cmd:{python}"], "a bot of the server's already"),
            (["--bot", f"human=cmd:{python}"], "not human"),
            (["--bot", f"two words=cmd:{python}"], "a letter or digit"),
            (["--bot", f"a=cmd:{python}", "--bot", f"a=cmd:{python}"], "the name 'a' is given twice"),
            (["--bot", "a=cmd:no-such-program-anywhere"], "no program 'no-such-program-anywhere' to run"),
            (["--bot", "a=cmd:'unclosed"], "--bot \"a=cmd:'unclosed\""),
            (["--bot-time-limit", "0"], "--bot-time-limit: expected seconds"),
            (["--most-programs", "0"], "--most-programs: expected 1..10000")):
        assert main(["serve", "--db", "none", *args]) == 2, args
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1, (args, err)
    assert len(seen) == 2


def test_programs_seated_at_once_are_bounded(tmp_path: Path) -> None:
    """At most ``most_programs`` programs' bots are seated at the unfinished tables: a table that would seat
    more is refused 503 (each is a process of its own), one of other bots is made; a finished table's
    programs count no more."""
    command = program(tmp_path)
    before = children()
    seats = {"E": "human", "S": "mine", "W": "mine", "N": "guard"}
    with in_process(programs={"mine": command}, most_programs=3, turn_seconds=None) as url:
        assert ask(url, "POST", "/tables", body={"seats": {**seats, "N": "mine", "E": "mine"}})[0] == 503
        status, made = ask(url, "POST", "/tables", body={"seats": seats})  # E, a person, plays first
        assert status == 201, made
        status, got = ask(url, "POST", "/tables", body={"seats": seats})
        assert status == 503 and got["error_type"] == "ProgramsBusy"
        assert ask(url, "POST", "/tables", body={"seats": {**seats, "W": "guard"}})[0] == 201  # 2 + 1
        assert ask(url, "POST", "/tables", body={"seats": {**seats, "S": "guard", "W": "guard"}})[0] == 201
        assert play_person(url, made["id"], made["tokens"]["E"]) > 0  # over: its two programs are freed
        assert ask(url, "POST", "/tables", body={"seats": seats})[0] == 201
    assert children() <= before  # the application's end stopped every program


def test_a_table_with_a_program_comes_back_from_the_database(tmp_path: Path) -> None:
    """A served table with a program's bot, rebuilt from the database after a restart: the program starts
    afresh (its past prompts are not asked again) and the table plays to its end, its log replaying."""
    command = program(tmp_path)
    before = children()
    path = tmp_path / "t.sqlite3"
    seats = {"E": "human", "S": "mine", "W": "guard", "N": "mine"}
    with in_process(db=path, programs={"mine": command}, turn_seconds=None) as url:
        status, made = ask(url, "POST", "/tables", body={"preset": "mistboard", "seats": seats, "seed": 8})
        assert status == 201, made
        table, token = made["id"], made["tokens"]["E"]
        sent = 0
        while sent < 4:  # four of E's decisions, the programs answering between them
            st = ask(url, "GET", f"/tables/{table}?seat=E", token)[1]
            q = st["prompt"]
            if q is None:
                time.sleep(0.02)
                continue
            pick = next((a for a in q["actions"] if a["act"] == "pass"), None) or next(
                a for a in q["actions"] if a["act"] == "discard")
            assert ask(url, "POST", f"/tables/{table}/decisions", token, {"prompt": q["prompt"], "seat": "E",
                                                                          **pick})[0] == 200
            sent += 1
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM tables WHERE id = ?", (table,)).fetchone()[0] == 1
    db.close()
    with in_process(db=path, programs={"mine": command}, turn_seconds=None) as url:
        assert play_person(url, table, token) > 0  # (made again mid-hand: E still had decisions to make)
        log = wait_log(url, table)
        assert log[-1]["event"] in ("end_hand", "end_match") and replay(log) == log
    assert children() <= before
