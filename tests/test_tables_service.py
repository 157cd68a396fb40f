"""Tables in the service (docs/server.md, "Tables"): hands played over HTTP and the WebSocket by a
scripted person and the bots, in process (FastAPI's TestClient) and against a real ``hkscore serve``.

What a seat is sent is checked in every answer and socket message: never another seat's concealed
tiles, the wall, or another seat's drawn tiles."""
from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from helpers.command import hkscore
from helpers.serving import call, missing_server_deps, server_process
from hkcore.errors import HkcoreError
from hkcore.preset import load_preset
from hkcore.table import replay

pytestmark = [pytest.mark.io, pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))]

if missing_server_deps() is None:
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from hkcore.server import create_app
    from hkcore.server.tables import LiveTable

BOTS = {"S": "efficiency", "W": "simple", "N": "random"}
#: a house preset whose claim windows last one second
ONE_SECOND = 'extends = "hk-classic"\nid = "quick"\n[table]\nclaim_seconds = 1\n'


class Clock:
    """A clock the registry reads (``create_app(now=...)``), moved by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(c: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("seats", {"E": "human", **BOTS})
    r = c.post("/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def live_of(c: TestClient, table_id: str) -> LiveTable:
    return c.app.state.tables.tables[table_id]  # type: ignore[attr-defined,no-any-return]


def hidden_from(live: LiveTable, text: str, seat: str) -> None:
    """``text``, sent to ``seat``, shows none of what the seat may not see (while the hand is played)."""
    state = json.loads(text)
    if state.get("type") == "error":
        return
    for key in ('"live":', '"dead":', '"hands":', '"seed":'):
        assert key not in text  # the start record's deal and wall
    events = state["events"]
    assert all(e["event"] != "start" for e in events)
    for e in events:
        if e.get("seat") != seat and e["event"] == "draw":
            assert "tile" not in e, e
        if e.get("seat") != seat and e["event"] == "bonus":
            assert "replacement" not in e, e
    if state["status"] != "playing":
        return
    t = live.hand
    for other in "ESWN":
        if other == seat:
            continue
        v = t.view(other)
        concealed = v["tiles"] + (v["drawn"] or "")
        if len(concealed) >= 8:  # five tiles or more: never by chance a part of another string here
            assert v["tiles"] not in text, (other, v["tiles"])
        assert state["view"]["tiles"] == t.view(seat)["tiles"]
    assert state["view"]["drawn"] == t.view(seat)["drawn"]


def choice(rng: random.Random, prompt: dict[str, Any]) -> dict[str, Any]:
    action = rng.choice(prompt["actions"])
    return {"prompt": prompt["prompt"], "seat": prompt["seat"], **action}


def play_http(c: TestClient, created: dict[str, Any], home: str, rng: random.Random) -> dict[str, Any]:
    """Play ``home``'s seat over HTTP with random legal actions until the hand is over; the last state."""
    tid, token = created["id"], created["tokens"][home]
    live = live_of(c, tid)
    r = c.get(f"/tables/{tid}", params={"seat": home}, headers=bearer(token))
    assert r.status_code == 200
    hidden_from(live, r.text, home)
    state = r.json()
    for _ in range(1000):
        if state["status"] != "playing":
            return state  # type: ignore[no-any-return]
        assert state["prompt"] is not None, state["waiting_for"]  # bots answer at once: only this seat is awaited
        assert state["waiting_for"] == [state["seat"]]
        r = c.post(f"/tables/{tid}/decisions", json=choice(rng, state["prompt"]), headers=bearer(token))
        assert r.status_code == 200, r.text
        hidden_from(live, r.text, home)
        assert r.json()["version"] > state["version"]
        state = r.json()
    raise AssertionError("the hand did not end")


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


# --------------------------------------------------------------------- a whole hand


@pytest.mark.parametrize("preset, seed", [("hk-classic", 1), ("mistboard", 2), ("bga-old-style", 3)])
def test_a_whole_hand_with_one_person(client: TestClient, preset: str, seed: int) -> None:
    created = new_table(client, preset=preset, seed=seed)
    assert sorted(created["tokens"]) == ["E"] and created["seats"] == {"E": "human", **BOTS}
    assert created["links"]["E"] == f"/play?table={created['id']}&seat=E#{created['tokens']['E']}"
    r = client.get(f"/tables/{created['id']}/log")
    assert r.status_code == 409 and r.headers["content-type"].startswith("application/problem+json")
    state = play_http(client, created, "E", random.Random(seed))
    assert state["status"] == "over" and state["prompt"] is None and state["advice"] is None
    r = client.get(f"/tables/{created['id']}/log")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    log = records(r.text)
    assert log[0]["event"] == "start" and log[0]["seed"] == seed and log[0]["preset"] == preset
    assert replay(log) == log  # the engine writes the log exactly
    end = next(x for x in log if x["event"] == "end_hand")
    result = state["result"]
    assert result["result"] == end["result"] and result["winner"] == end["winner"]
    assert result["delta"] == end["delta"] and result["points"] == end["points"]
    assert len(state["events"]) == len(log) - 1  # every record but the start
    wins = [x for x in log if x["event"] == "win"]
    if wins:
        assert result["value"] == wins[0]["faan"] and result["hand"] == wins[0]["hand"]
        assert [p["id"] for p in result["patterns"]] == [p["id"] for p in wins[0]["patterns"]]
        assert all(p["name"] and p["chinese"] for p in result["patterns"])


def test_the_pattern_names_in_english_and_chinese(client: TestClient) -> None:
    """A hand played until one ends in a win: the result names its patterns as docs/rules.md's values
    table does (half flush: 混一色)."""
    for seed in range(40):
        created = new_table(client, preset="bga-old-style", seed=seed, seats={"E": "human", "S": "efficiency",
                                                                             "W": "efficiency", "N": "efficiency"})
        state = play_http(client, created, "E", random.Random(seed))
        result = state["result"]
        if result["result"] == "win":
            break
    else:
        pytest.fail("no win in 40 hands")
    names = {"half_flush": ("Half Flush", "混一色"), "all_chows": ("All Chows", "平糊"),  # docs/rules.md
             "concealed_hand": ("Concealed Hand", "門前清"), "chicken_hand": ("Chicken Hand", "雞糊"),
             "self_draw": ("Self-drawn", "自摸"), "dragon_pung": ("Dragon Pung", "三元牌"),
             "seat_wind": ("Seat Wind", "門風"), "round_wind": ("Round Wind", "圈風"),
             "all_pungs": ("All Pungs", "對對糊")}
    assert any(p["id"] in names for p in result["patterns"])
    for p in result["patterns"]:
        if p["id"] in names:
            assert (p["name"], p["chinese"]) == names[p["id"]]
    assert result["unit"] == "faan" and result["value"] >= 3  # bga-old-style's minimum


def test_a_presets_folder_preset_and_a_house_toml(tmp_path: Any) -> None:
    """A preset is taken as POST /score takes it: a folder preset's id, or TOML text extending it; the log
    names it so that it replays without the folder (the preset's whole TOML)."""
    (tmp_path / "club.toml").write_text('extends = "mistboard"\nid = "our-club"\nminimum = 1\n', encoding="utf-8")
    with TestClient(create_app(tmp_path)) as c:
        for preset in ("our-club", 'extends = "our-club"\nid = "our-house"\n[table]\nclaim_seconds = 3\n'):
            created = new_table(c, preset=preset, seed=3)
            state = play_http(c, created, "E", random.Random(3))
            assert state["preset"]["minimum"] == 1 and state["status"] == "over"
            log = records(c.get(f"/tables/{created['id']}/log").text)
            assert "minimum = 1" in log[0]["preset"] and "extends" not in log[0]["preset"]
            assert replay(log) == log
        assert live_of(c, created["id"]).claim_seconds == 3.0
        r = c.post("/tables", json={"preset": 'extends = "../elsewhere.toml"\n'})
        assert r.status_code == 422 and r.json()["field"] == "toml.extends"


@pytest.mark.parametrize("match", [False, True])
def test_a_served_house_preset_log_replays_through_hkscore_replay(client: TestClient, match: bool) -> None:
    """A table of bots under a house preset sent as TOML text (an id no built-in has): its log names the
    preset's whole TOML, and the real ``hkscore replay`` takes it."""
    house = 'extends = "bga-old-style"\nid = "house"\n[table]\nrounds = false\nhands = 2\ndead_wall = 10\n'
    created = new_table(client, preset=house, seed=8, match=match, seats={s: "efficiency" for s in "ESWN"})
    log = wait_for_log(client, created["id"])
    starts = [r for r in log if r["event"] == "start"]
    assert len(starts) == (2 if match else 1)
    assert all(load_preset(r["preset"]) == load_preset(house) and "extends" not in r["preset"] for r in starts)
    done = hkscore("replay", "-", stdin="".join(json.dumps(r) + "\n" for r in log))
    assert done.returncode == 0 and "the log matches" in done.stderr, done.stderr


def test_every_seat_a_bot_plays_on_by_itself(client: TestClient) -> None:
    created = new_table(client, seed=5, seats={"E": "efficiency", "S": "simple", "W": "random", "N": "efficiency"})
    assert created["tokens"] == {} and created["links"] == {}
    for _ in range(300):
        r = client.get(f"/tables/{created['id']}/log")
        if r.status_code == 200:
            break
        time.sleep(0.02)
    assert r.status_code == 200
    log = records(r.text)
    assert log[-1]["event"] in ("end_hand", "end_match") and replay(log) == log


def test_the_bots_offered(client: TestClient) -> None:
    r = client.get("/bots")
    assert r.status_code == 200
    bots = r.json()
    assert {b["name"] for b in bots[:3]} == {"random", "simple", "efficiency"}  # docs/bots.md: built-ins first
    assert all(b["description"] for b in bots[:3])
    # the whole first paragraph (three lines of the docstring), its ``literals`` as plain text
    described = {b["name"]: b["description"] for b in bots}
    assert described["simple"] == ("The first legal win; else, on a turn, the discard leaving the fewest tiles "
                                   "away; else pass (the first such in the list). Needs no generator.")
    assert all(b["description"].endswith(".") and "`" not in b["description"] for b in bots[:4])


def test_a_bot_description_is_its_first_paragraph_as_plain_text() -> None:
    from hkcore.server.routes.tables import plain_paragraph
    doc = """Plays ``value`` as :func:`hkcore.score` scores, see :class:`the table <hkcore.Table>`,
        *rarely* **ever** `a link <https://example.org>`_ or `text`; 3 * 4 * 5 stays.

        A second paragraph, left out::

            code
        """
    assert plain_paragraph(doc) == ("Plays value as hkcore.score scores, see the table, rarely ever a link or "
                                    "text; 3 * 4 * 5 stays.")
    assert plain_paragraph(None) == "" and plain_paragraph("One line::") == "One line:"


# --------------------------------------------------------------------- refusals


def test_a_refused_decision_leaves_the_table_as_it_was(client: TestClient) -> None:
    created = new_table(client, seed=7)
    tid, token = created["id"], created["tokens"]["E"]
    before = client.get(f"/tables/{tid}", params={"seat": "E"}, headers=bearer(token)).json()
    p = before["prompt"]
    assert p["phase"] == "turn"  # East moves first
    held = [a["tile"] for a in p["actions"] if a["act"] == "discard"]
    absent = next(f"{n}{s}" for s in "mpsz" for n in "1234567" if f"{n}{s}" not in held)
    wrong = [({"prompt": p["prompt"] + 1, "seat": "E", "act": "discard", "tile": held[0]}, "prompt"),
             ({"prompt": p["prompt"], "seat": "E", "act": "discard", "tile": absent}, "tile"),
             ({"prompt": p["prompt"], "seat": "E", "act": "pung", "tiles": "555z"}, "act"),
             ({"prompt": p["prompt"], "seat": "S", "act": "discard", "tile": held[0]}, "seat")]
    for decision, field in wrong:
        r = client.post(f"/tables/{tid}/decisions", json=decision, headers=bearer(token))
        assert r.status_code == 422, (decision, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["field"] == field, (decision, r.json())
        after = client.get(f"/tables/{tid}", params={"seat": "E"}, headers=bearer(token)).json()
        # East's turn clock runs on (a refusal neither stops nor restarts it); all else is as it was
        assert 0 < after.pop("deadline_ms") <= before["deadline_ms"] <= 60_000
        assert after == {k: v for k, v in before.items() if k != "deadline_ms"}
    assert held
    r = client.post(f"/tables/{tid}/decisions", json={"prompt": "x", "seat": "E", "act": "discard"},
                    headers=bearer(token))
    assert r.status_code == 422 and r.json()["field"] == "prompt"
    r = client.post(f"/tables/{tid}/next", headers=bearer(token))
    assert r.status_code == 422 and r.json()["field"] == "next"
    after = client.get(f"/tables/{tid}", params={"seat": "E"}, headers=bearer(token)).json()
    assert 0 < after.pop("deadline_ms") <= before["deadline_ms"]
    assert after == {k: v for k, v in before.items() if k != "deadline_ms"}


def test_a_wrong_token_is_403_and_an_unknown_table_404(client: TestClient) -> None:
    created = new_table(client, seed=8, seats={"E": "human", "S": "human", "W": "simple", "N": "simple"})
    tid, east, south = created["id"], created["tokens"]["E"], created["tokens"]["S"]
    assert east != south
    decision = {"prompt": 1, "seat": "E", "act": "discard", "tile": "1m"}
    for headers, seat in (({}, "E"), (bearer("nope"), "E"), (bearer(south), "E"), (bearer(east), "S"),
                          ({"Authorization": east}, "E"), (bearer(east), "W")):
        r = client.get(f"/tables/{tid}", params={"seat": seat}, headers=headers)
        assert r.status_code == 403, (headers, seat)
        body = r.json()
        assert r.headers["content-type"].startswith("application/problem+json") and body["status"] == 403
        assert east not in r.text and south not in r.text
    for headers in ({}, bearer("nope"), bearer(east + "x")):
        assert client.post(f"/tables/{tid}/decisions", json=decision, headers=headers).status_code == 403
        assert client.post(f"/tables/{tid}/next", headers=headers).status_code == 403
    r = client.post(f"/tables/{tid}/decisions", json={**decision, "seat": "E"}, headers=bearer(south))
    assert r.status_code == 422 and r.json()["field"] == "seat"  # South's token, East's decision
    for path in ("/tables/nosuch?seat=E", "/tables/nosuch/log"):
        r = client.get(path, headers=bearer(east))
        assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json")
    assert client.post("/tables/nosuch/decisions", json=decision, headers=bearer(east)).status_code == 404


def test_bad_tables_are_refused_naming_the_field(client: TestClient) -> None:
    for body, field in (({"seats": {"E": "human", "S": "nobody", "W": "simple", "N": "simple"}}, "seats.S"),
                        ({"seats": {"E": "human", "S": "simple"}}, "seats"),
                        ({"preset": "no-such-preset"}, "preset"),
                        ({"preset": 'extends = "hk-classic"\nminimum = "x"\n'}, "toml.minimum"),  # as POST /score
                        ({"seed": -1}, "seed"), ({"names": {"E": "x" * 41}}, "names.E"),
                        ({"colour": "red"}, "colour"), ({"match": "yes"}, "match")):
        r = client.post("/tables", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["field"] == field, (body, r.json())


# --------------------------------------------------------------------- the socket


def receive_state(ws: Any, live: LiveTable, seat: str) -> dict[str, Any]:
    """The next state message (checked for what the seat may see)."""
    while True:
        text = ws.receive_text()
        hidden_from(live, text, seat)
        msg = json.loads(text)
        if msg["type"] == "state":
            return msg  # type: ignore[no-any-return]


def test_a_whole_hand_over_the_socket_and_a_reconnect(client: TestClient) -> None:
    created = new_table(client, preset="mistboard", seed=11, seats={"E": "simple", "S": "human", "W": "random",
                                                                   "N": "efficiency"})
    tid, token = created["id"], created["tokens"]["S"]
    live = live_of(client, tid)
    rng = random.Random(11)
    with client.websocket_connect(f"/tables/{tid}/ws") as ws:
        ws.send_json({"type": "hello", "seat": "S", "token": token})
        state = receive_state(ws, live, "S")
        assert state["seat"] == "S" and state["table"] == tid
        # a refused message: an error, the socket open, the table unchanged
        ws.send_json({"type": "decision", "decision": {"prompt": 999, "seat": "S", "act": "pass"}})
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 422 and err["field"] == "prompt"
        ws.send_text("not json")
        assert ws.receive_json()["status"] == 400
        ws.send_json({"type": "shout"})
        assert ws.receive_json()["field"] == "type"
        version = state["version"]
    # a reconnect with the token: the seat back, as it was
    with client.websocket_connect(f"/tables/{tid}/ws") as ws:
        ws.send_json({"type": "hello", "seat": "S", "token": token})
        state = receive_state(ws, live, "S")
        assert state["version"] == version
        for _ in range(1000):
            if state["status"] != "playing":
                break
            if state["prompt"] is None:
                state = receive_state(ws, live, "S")
                continue
            ws.send_json({"type": "decision", "decision": choice(rng, state["prompt"])})
            nxt = receive_state(ws, live, "S")
            assert nxt["version"] > state["version"]
            state = nxt
    assert state["status"] == "over"
    log = records(client.get(f"/tables/{tid}/log").text)
    assert replay(log) == log


@pytest.mark.parametrize("hello, code", [({"type": "hello", "seat": "S", "token": "nope"}, 4403),
                                         ({"type": "hello", "seat": "E", "token": None}, 4403),
                                         ({"type": "hi"}, 4400), ("[1, 2]", 4400)])
def test_a_socket_without_a_good_hello_is_closed(client: TestClient, hello: Any, code: int) -> None:
    created = new_table(client, seed=12, seats={"E": "simple", "S": "human", "W": "simple", "N": "simple"})
    with client.websocket_connect(f"/tables/{created['id']}/ws") as ws:
        ws.send_text(hello if isinstance(hello, str) else json.dumps(hello))
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_text()
    assert exc.value.code == code


def test_a_table_holds_a_bounded_number_of_sockets(client: TestClient) -> None:
    from contextlib import ExitStack

    from hkcore.server.tables import MOST_SOCKETS

    created = new_table(client, seed=13)
    hello = {"type": "hello", "seat": "E", "token": created["tokens"]["E"]}
    with ExitStack() as stack:
        for _ in range(MOST_SOCKETS):  # one seat in many tabs: each gets the state
            ws = stack.enter_context(client.websocket_connect(f"/tables/{created['id']}/ws"))
            ws.send_json(hello)
            assert ws.receive_json()["type"] == "state"
        with client.websocket_connect(f"/tables/{created['id']}/ws") as ws:
            ws.send_json(hello)
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_text()
        assert exc.value.code == 4429
    assert live_of(client, created["id"]).listeners == []  # the closed sockets are gone


def test_a_socket_to_no_table_is_closed_4404(client: TestClient) -> None:
    with client.websocket_connect("/tables/nosuch/ws") as ws:
        ws.send_json({"type": "hello", "seat": "E", "token": "x"})
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_text()
    assert exc.value.code == 4404


def test_a_claim_window_that_runs_out_passes(client: TestClient) -> None:
    """claim_seconds = 1 (a house preset): the person is asked to claim and does not answer; the server
    passes for them and play goes on."""
    for seed in range(30):
        created = new_table(client, preset=ONE_SECOND, seed=seed)
        tid, token = created["id"], created["tokens"]["E"]
        live = live_of(client, tid)
        assert live.claim_seconds == 1.0
        with client.websocket_connect(f"/tables/{tid}/ws") as ws:
            ws.send_json({"type": "hello", "seat": "E", "token": token})
            state = receive_state(ws, live, "E")
            assert state["claim_seconds"] == 1.0
            for _ in range(200):
                p = state["prompt"]
                if state["status"] != "playing" or (p and p["phase"] == "claim"):
                    break
                if p is None:
                    state = receive_state(ws, live, "E")
                    continue
                discard = [a for a in p["actions"] if a["act"] == "discard"][-1]
                ws.send_json({"type": "decision", "decision": {"prompt": p["prompt"], "seat": "E", **discard}})
                state = receive_state(ws, live, "E")
            p = state["prompt"]
            if not (p and p["phase"] == "claim"):
                continue
            assert 0 < state["deadline_ms"] <= 1000
            claimed_from, asked = p["from"], p["prompt"]
            before = len(state["events"])
            later = receive_state(ws, live, "E")  # nothing sent: the window runs out
            assert later["prompt"] is None or later["prompt"]["prompt"] != asked
            assert later["version"] > state["version"]
            after = later["events"][before:]
            # E passed: the discard was not E's to take; the next seat draws or another claimed it
            assert not any(e.get("seat") == "E" and e["event"] in ("chow", "pung", "kong", "win") for e in after)
            assert after and after[0]["event"] in ("draw", "chow", "pung", "kong", "win")
            assert claimed_from != "E"
            return
    pytest.fail("no claim window for East in 30 hands")


def test_a_match_waits_between_hands_and_the_seats_move(client: TestClient) -> None:
    """A match (playingcards-io: the deal moves every hand): after a hand, hand_over until the person asks
    for the next; the person's player then sits where the new dealer's seating puts them."""
    created = new_table(client, preset="playingcards-io", seed=4, match=True)
    tid, token = created["id"], created["tokens"]["E"]
    state = play_http(client, created, "E", random.Random(4))
    assert state["status"] == "hand_over" and state["result"] is not None and state["hand"] == 1
    log = records(client.get(f"/tables/{tid}/log").text)
    assert log[-1]["event"] == "end_hand" and replay(log) == log
    # the players of E, S, W, N in hand 1 (docs/server.md: a person's default name is its wind, a bot's its own)
    order = ["East", "efficiency", "simple", "random"]
    assert log[0]["seats"] == dict(zip("ESWN", order, strict=True))
    dealer = log[-1]["next"]["dealer"]
    r = client.post(f"/tables/{tid}/next", headers=bearer(token))
    assert r.status_code == 200
    state = r.json()
    assert state["status"] == "playing" and state["hand"] == 2 and state["home"] == "E"
    i = order.index(dealer)
    seating = dict(zip("ESWN", order[i:] + order[:i], strict=True))  # from the dealer: E, S, W, N
    assert state["seat"] == next(s for s, player in seating.items() if player == "East")
    assert state["names"] == seating
    assert state["seats"][state["seat"]] == "human" and state["homes"][state["seat"]] == "E"
    r = client.get(f"/tables/{tid}", params={"seat": "E"}, headers=bearer(token))
    assert r.json()["seat"] == state["seat"]


# --------------------------------------------------------------------- limits


def test_tables_expire_when_idle_and_a_finished_log_lasts_until_then() -> None:
    clock = Clock()
    # no turn clock: a table waiting on a person's timed turn is in play, never idle (the clock decides for it)
    with TestClient(create_app(now=clock, table_idle=100, most_tables=2, turn_seconds=None)) as c:
        finished = new_table(c, seed=21)
        play_http(c, finished, "E", random.Random(21))
        waiting = new_table(c, seed=22)
        r = c.post("/tables", json={"seed": 23})
        assert r.status_code == 503 and r.json()["status"] == 503 and "2" in r.json()["detail"]
        assert r.headers["retry-after"]
        clock.t += 99
        assert c.get(f"/tables/{finished['id']}/log").status_code == 200  # read by anyone: not a use
        r = c.get(f"/tables/{finished['id']}", params={"seat": "E"}, headers=bearer("x" + finished["tokens"]["E"]))
        assert r.status_code == 403  # a wrong token: not a use
        r = c.get(f"/tables/{finished['id']}", params={"seat": "E"}, headers=bearer(finished["tokens"]["E"]))
        assert r.status_code == 200  # its seat's: used, its 100 s start again
        clock.t += 99
        assert c.get(f"/tables/{finished['id']}/log").status_code == 200
        r = c.get(f"/tables/{waiting['id']}", params={"seat": "E"}, headers=bearer(waiting["tokens"]["E"]))
        assert r.status_code == 404  # 198 s unused
        clock.t += 1  # 100 s since its seat's use, however often its log was read
        assert c.get(f"/tables/{finished['id']}/log").status_code == 404
        assert len(c.app.state.tables) == 0  # type: ignore[attr-defined]
        assert new_table(c, seed=24)["id"]  # room again


def test_a_socket_is_closed_when_its_table_expires() -> None:
    clock = Clock()
    with TestClient(create_app(now=clock, table_idle=100, turn_seconds=None)) as c:  # (as above)
        created = new_table(c, seed=25)
        with c.websocket_connect(f"/tables/{created['id']}/ws") as ws:
            ws.send_json({"type": "hello", "seat": "E", "token": created["tokens"]["E"]})
            assert ws.receive_json()["type"] == "state"
            clock.t += 100
            assert c.app.state.tables.sweep() == 1  # type: ignore[attr-defined]
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_text()
            assert exc.value.code == 4404


def wait_for_log(c: TestClient, table_id: str) -> list[dict[str, Any]]:
    for _ in range(1500):
        r = c.get(f"/tables/{table_id}/log")
        if r.status_code == 200:
            return records(r.text)
        assert r.status_code == 409, r.text
        time.sleep(0.02)
    pytest.fail(f"table {table_id} did not finish")


def test_a_table_of_bots_in_play_is_never_dropped_as_idle() -> None:
    """A table of bots alone is in play until its hand is over, however long that takes (here: the
    bots get a hundredth of the worker): never dropped as idle before, dropped after."""
    clock = Clock()
    with TestClient(create_app(now=clock, table_idle=100, bot_share=0.01)) as c:
        registry = c.app.state.tables  # type: ignore[attr-defined]
        created = new_table(c, seed=31, seats={s: "efficiency" for s in "ESWN"})
        clock.t += 1000
        assert registry.sweep() == 0
        assert c.get(f"/tables/{created['id']}/log").status_code == 409  # still there, still playing
        registry.bot_share = 1.0  # the rest at full speed
        log = wait_for_log(c, created["id"])
        assert log[-1]["event"] == "end_hand" and replay(log) == log
        clock.t += 100
        assert registry.sweep() == 1 and len(registry) == 0


def test_a_claim_window_whose_clock_runs_is_never_dropped_as_idle() -> None:
    """A person asked in a window (to claim a discard, or rob a kong): the server passes for them when the
    window's time runs out, so the table is in play until then, whatever the idle time."""
    clock = Clock()
    with TestClient(create_app(now=clock, table_idle=100)) as c:
        registry = c.app.state.tables  # type: ignore[attr-defined]
        for seed in range(30):
            created = new_table(c, seed=seed)
            tid, token = created["id"], created["tokens"]["E"]
            state = c.get(f"/tables/{tid}", params={"seat": "E"}, headers=bearer(token)).json()
            while state["status"] == "playing" and state["prompt"]["phase"] == "turn":
                p = state["prompt"]
                discard = [a for a in p["actions"] if a["act"] == "discard"][-1]
                state = c.post(f"/tables/{tid}/decisions", json={"prompt": p["prompt"], "seat": "E", **discard},
                               headers=bearer(token)).json()
            if state["status"] != "playing":
                continue  # over without a window for East
            assert state["deadline_ms"] is not None
            clock.t += 1000
            others = len(registry) - 1  # the hands with no claim window for East, over and idle
            assert registry.sweep() == others
            again = c.get(f"/tables/{tid}", params={"seat": "E"}, headers=bearer(token))
            assert again.status_code == 200 and again.json()["prompt"]["prompt"] == state["prompt"]["prompt"]
            return
    pytest.fail("no claim window for East in 30 hands")


def test_a_person_is_answered_while_the_tables_of_bots_wait() -> None:
    """Ten tables of bots alone, given a hundredth of the worker, and a person's table made after them:
    the person plays the whole hand (the bots at their table answering at once) while the tables of bots
    are still being played; those are played one after another, in the order made (all but the first
    untouched: nothing but the deal)."""
    with TestClient(create_app(bot_share=0.01)) as c:
        registry = c.app.state.tables  # type: ignore[attr-defined]
        bots = [new_table(c, seed=40 + i, seats={s: "efficiency" for s in "ESWN"})["id"] for i in range(10)]
        created = new_table(c, seed=50)
        state = play_http(c, created, "E", random.Random(50))
        assert state["status"] == "over"
        log = records(c.get(f"/tables/{created['id']}/log").text)
        assert replay(log) == log
        playing = [t.id for t in registry.playing]
        assert playing and playing == bots[len(bots) - len(playing):]  # the first ones made first
        assert all(t.changes == 1 for t in list(registry.playing)[1:])
        registry.bot_share = 1.0
        for tid in bots:
            wait_for_log(c, tid)
        assert not registry.playing


class Broken:
    """An installed bot that fails on its third decision."""

    def __init__(self, preset: Any, seed: int) -> None:
        self.asked = 0

    def decide(self, prompt: dict[str, Any]) -> dict[str, Any]:
        self.asked += 1
        if self.asked == 3:
            raise RuntimeError("out of ideas")
        return {"prompt": prompt["prompt"], "seat": prompt["seat"], **prompt["actions"][0]}


def test_a_failing_bot_stops_its_own_table_only() -> None:
    """A table of bots alone whose bot fails stops (its log a 409 saying why) and expires as any idle
    table; the tables of bots made after it are played to their end."""
    clock = Clock()
    with TestClient(create_app(now=clock, table_idle=100)) as c:
        registry = c.app.state.tables  # type: ignore[attr-defined]
        registry.bots = {**registry.bots, "broken": Broken}
        broken = new_table(c, seed=61, seats={"E": "broken", "S": "simple", "W": "simple", "N": "simple"})["id"]
        after = new_table(c, seed=62, seats={s: "simple" for s in "ESWN"})["id"]
        log = wait_for_log(c, after)
        assert replay(log) == log
        r = c.get(f"/tables/{broken}/log")
        assert r.status_code == 409 and r.json()["error_type"] == "TableStopped"
        assert "out of ideas" in r.json()["detail"]
        clock.t += 100
        assert registry.sweep() == 2 and c.get(f"/tables/{broken}/log").status_code == 404  # with the finished one


def test_the_bot_share_is_more_than_0_and_at_most_1() -> None:
    for bad in (0, -0.5, 1.5, float("nan")):
        with pytest.raises(HkcoreError, match="bot_share"):
            create_app(bot_share=bad)


# --------------------------------------------------------------------- advice

def test_advice_in_the_state(client: TestClient) -> None:
    created = new_table(client, seed=31)
    state = client.get(f"/tables/{created['id']}", params={"seat": "E"},
                       headers=bearer(created["tokens"]["E"])).json()
    a = state["advice"]
    assert set(a) == {"tiles_away", "waits", "discards", "notes"} and a["tiles_away"] >= -1


# --------------------------------------------------------------------- the documents


def test_every_table_endpoint_is_in_the_openapi_document(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    paths = doc["paths"]
    for path, method, model in (("/tables", "post", "TableCreated"), ("/tables/{table_id}", "get", "TableState"),
                                ("/tables/{table_id}/decisions", "post", "TableState"),
                                ("/tables/{table_id}/next", "post", "TableState")):
        op = paths[path][method]
        answer = op["responses"]["201" if method == "post" and path == "/tables" else "200"]
        assert answer["content"]["application/json"]["schema"] == {"$ref": f"#/components/schemas/{model}"}
    assert "application/x-ndjson" in paths["/tables/{table_id}/log"]["get"]["responses"]["200"]["content"]
    assert "403" in paths["/tables/{table_id}"]["get"]["responses"]
    state = doc["components"]["schemas"]["TableState"]["properties"]
    assert {"view", "prompt", "advice", "result", "deadline_ms", "events", "version"} <= set(state)


# --------------------------------------------------------------------- a real server


def test_a_hand_over_a_real_socket() -> None:
    """``hkscore serve`` on loopback (with short head and request time limits, which a socket outlives):
    a table made over HTTP, played over a WebSocket by the ``websockets`` client to its end; the log
    replays; a bad token is closed 4403; a wrong token is a 403 over HTTP."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with server_process("--head-time-limit", "1", "--time-limit", "1") as (url, _proc):
        status, _, body = call(url + "/tables", "POST", {"preset": "hk-classic", "seed": 41,
                                                         "seats": {"E": "random", "S": "simple", "W": "human",
                                                                   "N": "efficiency"}})
        assert status == 201
        created = json.loads(body)
        tid, token = created["id"], created["tokens"]["W"]
        status, kind, _ = call(f"{url}/tables/{tid}?seat=W", headers={"Authorization": "Bearer x"})
        assert status == 403 and kind.startswith("application/problem+json")
        ws_url = url.replace("http://", "ws://") + f"/tables/{tid}/ws"
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "seat": "W", "token": "x" + token}))
            with pytest.raises(ConnectionClosed) as exc:
                ws.recv(timeout=10)
            assert exc.value.rcvd is not None and exc.value.rcvd.code == 4403
        rng = random.Random(41)
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "seat": "W", "token": token}))
            state = json.loads(ws.recv(timeout=10))
            assert state["type"] == "state" and state["seat"] == "W"
            time.sleep(1.5)  # past the head and request time limits: the socket stays open
            for _ in range(1000):
                if state["status"] != "playing":
                    break
                if state["prompt"] is not None:
                    ws.send(json.dumps({"type": "decision", "decision": choice(rng, state["prompt"])}))
                msg = json.loads(ws.recv(timeout=30))
                assert msg["type"] == "state", msg
                assert "tile" not in [k for e in msg["events"] if e["event"] == "draw" and e["seat"] != "W"
                                      for k in e]
                state = msg
        assert state["status"] == "over"
        status, kind, body = call(f"{url}/tables/{tid}/log")
        assert status == 200 and kind.startswith("application/x-ndjson")
        log = records(body.decode())
        assert replay(log) == log


def test_a_table_made_with_no_seats_given_seats_the_strongest_bot(client: TestClient) -> None:
    """docs/server.md: East a person and three guard bots by default (the strongest built-in bot, bench/RESULTS.md
    "Bot strength"), and guard stands in for a person who is away."""
    r = client.post("/tables", json={})
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["seats"] == {"E": "human", "S": "guard", "W": "guard", "N": "guard"}
    assert live_of(client, created["id"]).fallback == "guard"
