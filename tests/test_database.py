"""The tables' database (docs/server.md, "The database"): the store on a file of its own (what it keeps, a
file that is not its own refused, naming it, the retention), and a real ``hkscore serve --db FILE`` killed
with SIGKILL mid-hand and mid-claim-window, then started again on the same file: every table resumes where
it was, nothing acknowledged lost, the tokens still working."""
from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from helpers.serving import call, in_process, missing_server_deps, server_process
from hkcore.errors import HkcoreError
from hkcore.table import replay

pytestmark = [pytest.mark.io, pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))]

if missing_server_deps() is None:
    from hkcore.server.database import SCHEMA, Change, TableStore, token_hash

SPEC = {"id": "t1", "preset": "hk-classic", "seats": {"E": "human", "S": "efficiency", "W": "efficiency",
                                                      "N": "efficiency"}}
TOKEN = "a-token-of-E"
DAY = 86400.0


class Clock:
    """A wall clock moved by hand (``TableStore(clock=...)``)."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


# --------------------------------------------------------------------- the store


def test_the_store_keeps_a_table_and_gives_it_back(tmp_path: Path) -> None:
    """Spec, token hashes, decisions in order (across transactions), the records (a cut replacing those after
    it), the last versions; a table over leaves the unfinished ones and its log goes to its seats' tokens."""
    store = TableStore(tmp_path / "t.sqlite3")
    hashes = {"E": token_hash(TOKEN)}
    store.save([Change("t1", ['{"prompt":1}'], 0, ["r0", "r1"], '{"E":1}', SPEC, hashes)])
    store.save([Change("t1", ['{"prompt":2}', '{"next":true}'], 2, ["r2", "r3"], '{"E":3}')])
    store.save([Change("t1", [], 3, ["r3'", "r4"])])  # a match stopped: r3 dropped, the end added
    [kept] = store.unfinished()
    assert (kept.id, kept.spec, kept.tokens) == ("t1", SPEC, hashes)
    assert kept.decisions == [{"prompt": 1}, {"prompt": 2}, {"next": True}]
    assert kept.records == ["r0", "r1", "r2", "r3'", "r4"]
    assert kept.versions == {"E": 3}
    assert store.finished_log("t1", TOKEN) is None  # not over yet
    store.save([Change("t1", ['{"prompt":3}'], 5, ["r5"], ended="over")])
    assert store.unfinished() == []
    assert store.finished_log("t1", TOKEN) == ["r0", "r1", "r2", "r3'", "r4", "r5"]
    assert store.finished_log("t1", TOKEN + "x") is None
    assert store.finished_log("t2", TOKEN) is None
    assert store.finished_log("t1", None) is None
    store.close()
    again = TableStore(tmp_path / "t.sqlite3")  # the same file opened again
    assert again.finished_log("t1", TOKEN) == ["r0", "r1", "r2", "r3'", "r4", "r5"]
    again.close()


def test_a_failed_transaction_leaves_nothing(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.sqlite3")
    store.save([Change("t1", ['{"prompt":1}'], 0, ["r0"], None, SPEC, {})])
    with pytest.raises(sqlite3.IntegrityError):  # the second table's row exists already: all or nothing
        store.save([Change("t1", ['{"prompt":2}'], 1, ["r1"]), Change("t1", [], 0, [], None, SPEC, {})])
    [kept] = store.unfinished()
    assert kept.decisions == [{"prompt": 1}] and kept.records == ["r0"]
    store.close()


def test_the_file_holds_no_token(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    store = TableStore(path)
    store.save([Change("t1", [], 0, ["r0"], None, SPEC, {"E": token_hash(TOKEN)})])
    store.close()
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert TOKEN.encode() not in data
    assert hashlib.sha256(TOKEN.encode()).hexdigest().encode() in data


def test_what_is_not_a_database_of_tables_is_refused_naming_it(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"these are not the tables you are looking for\n" * 200)
    with pytest.raises(HkcoreError) as caught:
        TableStore(junk)
    assert str(junk) in str(caught.value) and "not a database of hkcore's tables" in str(caught.value)

    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    db.close()
    with pytest.raises(HkcoreError) as caught:
        TableStore(other)
    assert str(other) in str(caught.value) and "not hkcore's tables" in str(caught.value)

    later = tmp_path / "later.sqlite3"
    TableStore(later).close()
    with sqlite3.connect(later) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA + 1}")
    db.close()
    with pytest.raises(HkcoreError) as caught:
        TableStore(later)
    assert str(later) in str(caught.value) and f"schema version {SCHEMA + 1}" in str(caught.value)

    nowhere = tmp_path / "no-such-folder" / "t.sqlite3"
    with pytest.raises(HkcoreError) as caught:
        TableStore(nowhere)
    assert str(nowhere) in str(caught.value) and "does not exist" in str(caught.value)
    assert not nowhere.parent.exists()


def test_finished_tables_are_kept_as_long_as_said(tmp_path: Path) -> None:
    """A table over with a person at it stays ``keep_days`` days after it ended; one dropped unfinished, and
    one of bots alone once ended, go at once; an unfinished one is never deleted by age."""
    clock = Clock()
    store = TableStore(tmp_path / "t.sqlite3", keep_days=2, clock=clock)
    person = {"E": token_hash(TOKEN)}
    store.save([Change("over", [], 0, ["r"], None, SPEC, person), Change("left", [], 0, ["r"], None, SPEC, person),
                Change("old", [], 0, ["r"], None, SPEC, person),
                Change("bots", [], 0, ["r"], None, SPEC, {}, people=False)])
    store.save([Change("over", [], 1, [], ended="over"), Change("bots", [], 1, [], ended="over", people=False)])
    assert [t.id for t in store.unfinished()] == ["left", "old"]
    store.forget(["left", "over"])  # dropped from memory: the unfinished one goes, the one over stays
    assert [t.id for t in store.unfinished()] == ["old"]
    clock.t += 2 * DAY - 1
    assert store.expire() == 0 and store.finished_log("over", TOKEN) == ["r"]
    clock.t += 2
    assert store.expire() == 1 and store.finished_log("over", TOKEN) is None
    clock.t += 1000 * DAY
    assert store.expire() == 0 and [t.id for t in store.unfinished()] == ["old"]
    store.close()


def test_a_table_that_does_not_rebuild_is_set_aside_with_a_warning(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A stored table whose decisions no longer make its log (here: a record changed in the file) is not
    held, and never tried again; the others are; the server starts."""
    path = tmp_path / "t.sqlite3"
    seats = {"E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"}
    with in_process(db=path) as url:
        ids = [json.loads(call(f"{url}/tables", "POST", {"seed": s, "seats": seats})[2])["id"] for s in (1, 2)]
    with sqlite3.connect(path) as db:
        db.execute("UPDATE records SET record = '{\"event\":\"start\"}' WHERE tbl = ? AND n = 0", (ids[0],))
    db.close()
    with in_process(db=path) as url:
        assert call(f"{url}/tables/{ids[0]}/log")[0] == 404
        assert call(f"{url}/tables/{ids[1]}/log")[0] == 409  # held: its hand is being played
    assert f"table {ids[0]} could not be made again" in capsys.readouterr().err
    assert [t.id for t in TableStore(path).unfinished()] == [ids[1]]


# --------------------------------------------------------------------- a real process killed


def ask(url: str, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    status, _, raw = call(url + path, method, body, headers=headers)
    return status, json.loads(raw) if raw.startswith((b"{", b"[")) and b"\n{" not in raw else raw.decode()


def state(url: str, table: str, seat: str, token: str) -> dict[str, Any]:
    status, got = ask(url, "GET", f"/tables/{table}?seat={seat}", token)
    assert status == 200, got
    return got  # type: ignore[no-any-return]


def answer(prompt: dict[str, Any]) -> dict[str, Any]:
    """A win when offered, else pass in a window, else the first discard."""
    actions = prompt["actions"]
    pick = next((a for a in actions if a["act"] == "win"), None) or next(
        (a for a in actions if a["act"] == "pass"), None) or next(a for a in actions if a["act"] == "discard")
    return {"prompt": prompt["prompt"], "seat": prompt["seat"], **pick}


#: the player of each person's home seat: its wind, a person's name when none is given (docs/server.md,
#: "Seats held"; a token belongs to the player of its home)
PLAYERS = {"E": "East", "S": "South", "W": "West", "N": "North"}


def decide(url: str, table: str, token: str, prompt: dict[str, Any], sent: list[tuple[str, dict[str, Any]]],
           home: str = "E") -> None:
    """Send ``answer(prompt)`` with ``home``'s token; noted in ``sent`` once accepted."""
    d = answer(prompt)
    status, got = ask(url, "POST", f"/tables/{table}/decisions", token, d)
    assert status == 200, got
    sent.append((home, d))


def discards(log: str) -> dict[str, list[str]]:
    """Each player's discards in a log, in order (a player's seat read from each hand's start record)."""
    out: dict[str, list[str]] = {}
    seats: dict[str, str] = {}
    for line in log.splitlines():
        r = json.loads(line)
        if r["event"] == "start":
            seats = r.get("seats") or PLAYERS
        elif r["event"] == "discard":
            out.setdefault(seats[r["seat"]], []).append(r["tile"])
    return out


def play_to_end(url: str, table: str, tokens: dict[str, str], sent: list[tuple[str, dict[str, Any]]],
                most: int = 2000) -> str:
    """Answer every person's prompt (and ask for every next hand) until the table is over; its log."""
    for _ in range(most):
        states = {s: state(url, table, s, tok) for s, tok in tokens.items()}
        if all(st["status"] == "over" for st in states.values()):
            status, log = ask(url, "GET", f"/tables/{table}/log")
            assert status == 200, log
            return str(log)
        home, st = next(iter(states.items()))
        if st["status"] == "hand_over":
            assert ask(url, "POST", f"/tables/{table}/next", tokens[home])[0] == 200
            continue
        asked = [(h, s["prompt"]) for h, s in states.items() if s["prompt"] is not None]
        assert asked, states  # the bots answer at once: a person is asked while the hand is played
        h, prompt = asked[0]
        decide(url, table, tokens[h], prompt, sent, h)
    raise AssertionError(f"table {table} not over after {most} decisions")


def unsalted(log: str) -> list[dict[str, Any]]:
    """A log's records without each deal's salt and commitment (drawn afresh by every server)."""
    records = [json.loads(line) for line in log.splitlines()]
    return [{k: v for k, v in r.items() if k not in ("salt", "commitment")} for r in records]


def without_clock(st: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in st.items() if k not in ("deadline_ms", "version")}


def test_a_killed_server_loses_nothing(tmp_path: Path) -> None:
    """Three tables on ``hkscore serve --db FILE --open-claims``: two people with two bots (one hand), one
    person's match and a match of bots alone (``--most-hands 2``). The first table is left in a claim window
    in which one person has answered and the other not, the match mid-way through its second hand (its first
    hand's log read), the bots' match mid-way. SIGKILL; started again on the file: every seat's state is what
    it was (but for its clock, and its version never lower), the answer held kept, the tokens working; played
    on to the end, each log holds every decision sent before the kill, the match's log goes on from the one
    read before, and the bots' match ends exactly as the same match played without a crash."""
    path = tmp_path / "tables.sqlite3"
    args = ("--db", str(path), "--open-claims", "--most-hands", "2", "--claim-seconds", "60", "--bot-share", "0.001")
    two = {"preset": "hk-classic", "seed": 11, "seats": {"E": "human", "S": "human", "W": "random",
                                                         "N": "efficiency"}}
    one = {"preset": "hk-classic", "seed": 12, "match": True, "seats": {"E": "human", "S": "efficiency",
                                                                        "W": "simple", "N": "random"}}
    bots = {"preset": "hk-classic", "seed": 13, "match": True, "seats": {"E": "random", "S": "random",
                                                                         "W": "efficiency", "N": "simple"}}
    sent: dict[str, list[tuple[str, dict[str, Any]]]] = {"two": [], "one": []}
    output: list[str] = []
    with server_process(*args, output=output) as (url, proc):
        made = {name: ask(url, "POST", "/tables", body=body) for name, body in
                (("bots", bots), ("two", two), ("one", one))}
        assert all(status == 201 for status, _ in made.values()), made
        ids = {name: got["id"] for name, (_, got) in made.items()}
        tokens = {name: got["tokens"] for name, (_, got) in made.items()}
        # the two people: play until West (a bot) discards, East passes, South is still asked
        for _ in range(400):
            east, south = (state(url, ids["two"], s, tokens["two"][s]) for s in "ES")
            pe, ps = east["prompt"], south["prompt"]
            if pe and ps and pe["phase"] == ps["phase"] == "claim" and pe["from"] == "W" and len(sent["two"]) > 6:
                decide(url, ids["two"], tokens["two"]["E"], pe, sent["two"])
                break
            asked = [(s, p) for s, p in (("E", pe), ("S", ps)) if p is not None]
            assert asked and east["status"] == "playing", (east, south)
            decide(url, ids["two"], tokens["two"][asked[0][0]], asked[0][1], sent["two"], asked[0][0])
        else:
            raise AssertionError("no window of West's with both people asked")
        # the person's match: its first hand to the end (its log read), then into the second
        token = tokens["one"]["E"]
        while (st := state(url, ids["one"], "E", token))["status"] == "playing":
            decide(url, ids["one"], token, st["prompt"], sent["one"])
        status, first_hand = ask(url, "GET", f"/tables/{ids['one']}/log")
        assert status == 200 and st["status"] == "hand_over"
        assert ask(url, "POST", f"/tables/{ids['one']}/next", token)[0] == 200
        for _ in range(5):
            decide(url, ids["one"], token, state(url, ids["one"], "E", token)["prompt"], sent["one"])
        before = {(name, s): state(url, ids[name], s, tok) for name in ("two", "one")
                  for s, tok in tokens[name].items()}
        assert ask(url, "GET", f"/tables/{ids['bots']}/log")[0] == 409  # the bots' match is being played
        proc.kill()  # SIGKILL: no shutdown of any kind
        proc.wait()
    assert before[("two", "E")]["prompt"] is None and before[("two", "S")]["prompt"]["phase"] == "claim"
    assert before[("two", "S")]["waiting_for"] == ["S"] and before[("one", "E")]["status"] == "playing"

    with server_process(*args, output=output) as (url, proc):
        for (name, s), was in before.items():
            now = state(url, ids[name], s, tokens[name][s])
            assert without_clock(now) == without_clock(was), (name, s)
            assert now["version"] >= was["version"]
            assert now["prompt"] is None or now["deadline_ms"] is None or now["deadline_ms"] > 50_000
        assert ask(url, "GET", f"/tables/{ids['two']}?seat=E", tokens["two"]["S"])[0] == 403
        assert ask(url, "GET", f"/tables/{ids['two']}?seat=E", "not-a-token")[0] == 403
        logs = {name: play_to_end(url, ids[name], tokens[name], sent[name]) for name in ("two", "one")}
        for _ in range(600):
            status, bots_log = ask(url, "GET", f"/tables/{ids['bots']}/log")
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200, bots_log
    assert "could not" not in "".join(output)

    # every decision sent is in the logs: a person's discards are exactly those sent, before the kill and after
    for name in ("two", "one"):
        records = [json.loads(line) for line in logs[name].splitlines()]
        assert replay(records) == records
        found = discards(logs[name])
        for home in tokens[name]:
            ours = [d["tile"] for h, d in sent[name] if h == home and d["act"] == "discard"]
            assert ours and found[PLAYERS[home]] == ours, (name, home)
    assert logs["one"].startswith(str(first_hand))
    assert sum(json.loads(line)["event"] == "end_hand" for line in logs["one"].splitlines()) == 2
    # the bots' match: the same as the same match played without a crash (the bots asked again where they were)
    with in_process(most_hands=2, bot_share=1.0) as local:
        status, again = ask(local, "POST", "/tables", body=bots)
        for _ in range(600):
            status, uncrashed = ask(local, "GET", f"/tables/{again['id']}/log")
            if status == 200:
                break
            time.sleep(0.05)
    bots_records = [json.loads(line) for line in bots_log.splitlines()]
    assert replay(bots_records) == bots_records  # each deal's commitment holds, across the crash too
    assert unsalted(bots_log) == unsalted(uncrashed)

    # finished and gone from memory (a third start): the logs from the file, for a seat's token only
    with server_process(*args) as (url, _proc):
        assert ask(url, "GET", f"/tables/{ids['two']}/log", tokens["two"]["S"]) == (200, logs["two"])
        assert ask(url, "GET", f"/tables/{ids['one']}/log", tokens["one"]["E"]) == (200, logs["one"])
        assert ask(url, "GET", f"/tables/{ids['two']}/log")[0] == 404
        assert ask(url, "GET", f"/tables/{ids['two']}/log", tokens["one"]["E"])[0] == 404
        assert ask(url, "GET", f"/tables/{ids['bots']}/log")[0] == 404  # bots alone: nobody's to read


def test_serve_refuses_a_file_that_is_not_its_database(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("shopping: bamboo, dots, characters\n" * 100)
    with pytest.raises(RuntimeError) as caught, server_process("--db", str(junk), timeout=20):
        pass
    said = str(caught.value)
    assert "stopped (2)" in said and f"--db {junk}: not a database of hkcore's tables" in said
    with pytest.raises(RuntimeError) as caught, server_process("--db", str(tmp_path / "t.sqlite3"), "--workers", "2",
                                                               timeout=20):
        pass
    assert "stopped (2)" in str(caught.value) and "give --db none with --workers" in str(caught.value)


def test_serve_keeps_its_tables_in_the_working_folder_by_default(tmp_path: Path) -> None:
    with server_process(cwd=tmp_path) as (url, _proc):
        assert ask(url, "POST", "/tables", body={})[0] == 201
    assert (tmp_path / "hkcore-tables.sqlite3").is_file()
    assert len(TableStore(tmp_path / "hkcore-tables.sqlite3").unfinished()) == 1
    other = tmp_path / "other"
    other.mkdir()
    with server_process("--db", "none", cwd=other) as (url, _proc):
        assert ask(url, "POST", "/tables", body={})[0] == 201
    assert list(other.iterdir()) == []


def test_serve_options_reach_the_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """--db (a file, by default the working folder's; none: memory; none by default with workers),
    --db-keep-days and --db-sync reach ``serve``; days that are not a positive number are a usage error."""
    import hkcore.server
    from hkcore.cli import main

    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(hkcore.server, "serve", lambda *args, **kwargs: seen.append(kwargs))
    monkeypatch.chdir(tmp_path)
    assert main(["serve"]) == 0
    assert (seen[-1]["db"], seen[-1]["db_keep_days"], seen[-1]["db_sync"]) == (
        tmp_path.resolve() / "hkcore-tables.sqlite3", 30.0, "NORMAL")
    assert main(["serve", "--db", "t.db", "--db-keep-days", "7.5", "--db-sync", "full"]) == 0
    assert (seen[-1]["db"], seen[-1]["db_keep_days"], seen[-1]["db_sync"]) == (
        tmp_path.resolve() / "t.db", 7.5, "FULL")
    assert main(["serve", "--db", "none"]) == 0 and "db" not in seen[-1]
    assert main(["serve", "--workers", "2"]) == 0 and "db" not in seen[-1]
    assert main(["serve", "--db", "t.db", "--workers", "2"]) == 0 and seen[-1]["db"] == tmp_path.resolve() / "t.db"
    for days in ("0", "-1", "nan", "40000"):
        assert main(["serve", "--db-keep-days", days]) == 2
        assert "--db-keep-days: expected days" in capsys.readouterr().err
    assert len(seen) == 5
    assert list(tmp_path.iterdir()) == []  # nothing made before the server runs
