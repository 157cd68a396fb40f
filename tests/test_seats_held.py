"""Seats held and games that go on (docs/server.md, "Seats held"), against a real ``hkscore serve`` on
loopback: a person's turn is timed; one who lets it run out is away and the table's fallback bot plays the
seat until the person is back; the names given at creation are the log's players, the page's and the
standings'; the standings give one rank each, ties shared, "you" marked. The page's part runs in Debian's
chromium (screenshots in ``$HKCORE_ARTIFACTS``)."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from helpers.browser import ARTIFACTS, colours, launched, why_not
from helpers.serving import call, missing_server_deps, running

pytestmark = [pytest.mark.io, pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))]

#: a match of two hands: quick to play out
TWO_HANDS = 'extends = "hk-classic"\nid = "two-hands"\n[table]\nrounds = false\nhands = 2\n'


def _until(what: Callable[[], Any], seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = what()
        if found:
            return found
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


class Seat:
    """One person's seat, played over HTTP."""

    def __init__(self, base: str, created: dict[str, Any], home: str) -> None:
        self.url = f"{base}/tables/{created['id']}"
        self.home = home
        self.auth = {"Authorization": f"Bearer {created['tokens'][home]}"}

    def state(self) -> dict[str, Any]:
        status, _, raw = call(f"{self.url}?seat={self.home}", headers=self.auth)
        assert status == 200, raw[:300]
        return dict(json.loads(raw))

    def asked_or_over(self) -> dict[str, Any] | None:
        """The state, once the seat is asked something or the hand is over; None before."""
        s = self.state()
        return s if s["prompt"] is not None or s["status"] != "playing" else None

    def post(self, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
        status, _, raw = call(self.url + path, "POST", {} if body is None else body, headers=self.auth)
        return status, json.loads(raw)

    def move(self, state: dict[str, Any]) -> None:
        """Answer the open prompt at once: a win when offered, else a pass, else the first discard."""
        p = state["prompt"]
        acts = p["actions"]
        act = next((a for a in acts if a["act"] == "win"), None) or next(
            (a for a in acts if a["act"] == "pass"), None) or next(a for a in acts if a["act"] == "discard")
        status, body = self.post("/decisions", {"prompt": p["prompt"], "seat": p["seat"], **act})
        assert status == 200, body


def test_a_person_who_walks_away_is_played_by_the_fallback_bot_until_back() -> None:
    """Two people (E and S) and two bots, turns of one second: East never moves, so East's turn runs out;
    East is then away (in every seat's state), the table goes on with East's seat played for it while South
    plays; East's ``back`` gives the seat back at once, and East then moves on its own prompt."""
    with running("--turn-seconds", "1") as base:
        status, _, raw = call(base + "/tables", "POST", {"preset": "hk-classic", "seats": {
            "E": "human", "S": "human", "W": "efficiency", "N": "efficiency"}})
        assert status == 201
        created = json.loads(raw)
        east, south = Seat(base, created, "E"), Seat(base, created, "S")
        first = east.state()
        assert first["prompt"]["phase"] == "turn" and first["away"] == [] and first["turn_seconds"] == 1.0
        assert 0 < first["deadline_ms"] <= 1000  # East's own turn, timed
        assert south.state()["deadline_ms"] is None  # nothing asked of South: no clock
        away = _until(lambda: (s := south.state())["away"] and s)  # East lets its turn run out
        assert away["away"] == ["E"] and away["seat"] == "S"
        mine = east.state()
        assert mine["away"] == ["E"] and mine["prompt"] is None  # East's turn was played for it
        assert any(e["event"] == "discard" and e["seat"] == "E" for e in mine["events"])
        discards = 0
        while discards < 3 and south.state()["status"] == "playing":  # South plays; East's seat never waits
            s = _until(south.asked_or_over)
            if s["status"] != "playing":
                break
            assert east.state()["prompt"] is None and east.state()["away"] == ["E"]
            discards += s["prompt"]["phase"] == "turn"
            south.move(s)
        if east.state()["status"] != "playing":
            pytest.skip("the hand ended before East came back (a quick win)")  # not for this deal: it is fair
        status, back = east.post("/back")
        assert status == 200 and back["away"] == [] and back["home"] == "E"
        assert south.state()["away"] == []
        # East's seat is its own: its next turn waits for it (South plays on meanwhile)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            e = east.state()
            if e["status"] != "playing":
                break
            if e["prompt"] is not None:
                assert "E" not in e["away"] and e["deadline_ms"] is not None
                east.move(e)
                if e["prompt"]["phase"] == "turn":
                    break
            sp = south.state()
            if sp["prompt"] is not None:
                south.move(sp)
            time.sleep(0.02)
        else:
            pytest.fail("East was never asked again")
        status, _, raw = call(f"{base}/tables/{created['id']}/log")
        log = [json.loads(line) for line in raw.decode().splitlines()] if status == 200 else []
        assert not log or log[0]["seats"]["E"] == "East"


def test_names_reach_the_log_the_state_and_the_standings() -> None:
    """Names given at creation are the players of the log's start records, the state's names and the
    standings' players, each standing row with its player's home; a name two seats would share is refused
    naming the field; two bots of one kind are told apart by their seats."""
    with running("--turn-seconds", "1") as base:
        status, _, raw = call(base + "/tables", "POST", {"preset": "hk-classic", "names": {"E": "Ann", "S": "Ann"},
                                                         "seats": {"E": "human", "S": "human", "W": "simple",
                                                                   "N": "simple"}})
        assert status == 422 and json.loads(raw)["field"] == "names.S", raw
        status, _, raw = call(base + "/tables", "POST", {
            "preset": TWO_HANDS, "match": True, "names": {"E": "Ann 安", "W": "Wu"},
            "seats": {"E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"}})
        assert status == 201, raw
        created = json.loads(raw)
        ann = Seat(base, created, "E")
        # W, named, is no twin of the two unnamed efficiency bots, which are told apart by their seats
        names = {"E": "Ann 安", "S": "efficiency (S)", "W": "Wu", "N": "efficiency (N)"}
        assert ann.state()["names"] == names
        while True:  # Ann walks away at once; the fallback bot plays her seat; she asks for each next hand
            s = _until(lambda: (x := ann.state())["status"] != "playing" and x, 30)
            if s["status"] == "over":
                break
            status, body = ann.post("/next")
            assert status == 200, body
        status, _, raw = call(f"{base}/tables/{created['id']}/log")
        assert status == 200
        log = [json.loads(line) for line in raw.decode().splitlines()]
        starts = [r for r in log if r["event"] == "start"]
        assert len(starts) == 2 and all(sorted(r["seats"].values()) == sorted(names.values()) for r in starts)
        assert starts[0]["seats"] == names  # hand 1: the seats as given
        # the standings, worked from the log: by points (the faan ledger of hk-classic: faan won), then hands
        # won; a tie shares its place (docs/table.md, end_match)
        faan = {n: 0 for n in names.values()}
        won = {n: 0 for n in names.values()}
        for r in log:
            if r["event"] == "end_hand":
                seats = next(x for x in reversed(starts) if log.index(x) < log.index(r))["seats"]
                for seat, f in r["faan"].items():
                    faan[seats[seat]] += f
                if r["winner"]:
                    won[seats[r["winner"]]] += 1
        key = {n: (faan[n], won[n]) for n in faan}
        place = {n: 1 + sum(key[m] > key[n] for m in key) for n in key}
        standings = s["standings"]
        assert {row["player"]: row["place"] for row in standings} == place
        homes = {v: k for k, v in names.items()}
        assert all(row["home"] == homes[row["player"]] for row in standings)
        assert log[-1]["event"] == "end_match"
        assert [{k: v for k, v in row.items() if k != "home"} for row in standings] == log[-1]["standings"]


@pytest.mark.skipif(why_not() is not None, reason=str(why_not()))
def test_the_page_shows_who_is_away_and_the_standings() -> None:
    """Two people's pages (East and South), turns of one second: East's page is left alone: its turn runs
    out, East's page says a bot is playing its seat (with "I'm back"), South's page marks East "away"; East
    clicks "I'm back" and the note goes. Then a two-hand match played out by an away person: the page shows
    the standings, one rank each, "you" marked. Screenshots of both."""
    with running("--turn-seconds", "1") as base, launched() as browser:
        status, _, raw = call(base + "/tables", "POST", {"preset": "hk-classic", "names": {"E": "Ann", "S": "Bo"},
                                                         "seats": {"E": "human", "S": "human", "W": "efficiency",
                                                                   "N": "efficiency"}})
        assert status == 201
        created = json.loads(raw)
        pages = {}
        for s, width in (("E", 1280), ("S", 390)):
            context = browser.new_context(viewport={"width": width, "height": 900})
            pages[s] = context.new_page()
            pages[s].problems = []
            pages[s].on("pageerror", lambda e, s=s: pages[s].problems.append(str(e)))
            pages[s].goto(base + created["links"][s])
        try:
            east, south = pages["E"], pages["S"]
            east.wait_for_selector("#away:not([hidden])", timeout=15000)
            assert "a bot is playing your seat" in east.inner_text("#away")
            south.wait_for_selector('#others [data-seat="E"] .badge.away', timeout=15000)
            assert "Ann" in south.inner_text('#others [data-seat="E"] .seat-head')
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            for s, page in pages.items():
                png = page.screenshot(path=str(ARTIFACTS / f"play-away-{s}.png"), full_page=True)
                assert colours(page, png) > 200
            east.click("#back")
            east.wait_for_selector("#away", state="hidden", timeout=5000)
            assert east.problems == [] and south.problems == []
        finally:
            for page in pages.values():
                page.context.close()

        status, _, raw = call(base + "/tables", "POST", {"preset": TWO_HANDS, "match": True, "names": {"E": "Ann"},
                                                         "seats": {"E": "human", "S": "efficiency",
                                                                   "W": "efficiency", "N": "efficiency"}})
        created = json.loads(raw)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        try:
            page.goto(base + created["links"]["E"])
            while True:
                page.wait_for_function("() => { const t = document.querySelector('#table');"
                                       " return t && t.dataset.status && t.dataset.status !== 'playing'; }",
                                       timeout=30000)
                if page.get_attribute("#table", "data-status") == "over":
                    break
                page.click("#next")
                page.wait_for_function("() => document.querySelector('#table').dataset.status === 'playing'")
            rows = page.eval_on_selector_all("table.standings tbody tr", "rs => rs.map((r) => ({home: r.dataset.home,"
                                             " place: r.querySelector('.place').textContent,"
                                             " you: r.classList.contains('you'), text: r.innerText}))")
            state = Seat(base, created, "E").state()
            want = state["standings"]
            assert [r["home"] for r in rows] == [w["home"] for w in want]
            for r, w in zip(rows, want, strict=True):
                tied = sum(x["place"] == w["place"] for x in want) > 1
                assert r["place"] == f"{w['place']}{'=' if tied else ''}"  # one rank each, never "1. 1."
                assert r["you"] == (w["home"] == "E") and ("(you)" in r["text"]) == (w["home"] == "E")
            assert "Ann (you)" in page.inner_text("table.standings")
            png = page.screenshot(path=str(ARTIFACTS / "play-standings.png"), full_page=True)
            assert colours(page, png) > 200
        finally:
            context.close()


def test_serve_prints_the_scoring_page_and_the_tables_page() -> None:
    """``hkscore serve`` prints its address and both pages'; the scoring page links to /play and back."""
    import subprocess
    import sys

    from helpers.serving import HKCORE_HOME, free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "hkcore.cli", "serve", "--port", str(port), "--log-level",
                             "warning"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={"PYTHONPATH": HKCORE_HOME, "PATH": "/usr/bin:/bin"})
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline().strip() for _ in range(3)]
        root = f"http://127.0.0.1:{port}"
        assert lines == [f"hkscore: serving on {root}", f"hkscore: the scoring page: {root}/",
                         f"hkscore: tables to play at: {root}/play"]
        _until(lambda: _answers(root))
        assert 'href="/play"' in call(root + "/")[2].decode()
        assert 'href="/"' in call(root + "/play")[2].decode()
    finally:
        proc.terminate()
        proc.wait(10)


def _answers(root: str) -> bool:
    try:
        return call(root + "/health", timeout=2)[0] == 200
    except OSError:
        return False


@pytest.mark.parametrize("args,said", [(("--turn-seconds", "-1"), "--turn-seconds"),
                                       (("--turn-seconds", "nan"), "--turn-seconds"),
                                       (("--fallback-bot", "nobody"), "--fallback-bot")])
def test_a_bad_clock_or_fallback_bot_is_one_line_exit_2(args: tuple[str, ...], said: str) -> None:
    from helpers.command import hkscore

    proc = hkscore("serve", "--port", "0", *args, timeout=60)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"hkscore: error: {said}"), proc.stderr
