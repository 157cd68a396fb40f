"""hkcore over HTTP, called as a client would: JSON over HTTP to the
application in this process (``url``, ``club``: Starlette's TestClient),
and to a real ``hkscore serve`` on loopback (``served``, ``hurried``:
started and stopped by a fixture) where only a real process shows it: a
body sent by its Content-Length alone or in pieces, a client that resets
its socket, work abandoned at the time limit (the process's CPU), requests
held meanwhile, a start-up refused. One test drives the application as
ASGI, for a client that goes away at a moment a socket cannot choose.
Skipped, with the reason shown, when the server extra (fastapi, uvicorn) is
missing."""
from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import math
import re
import socket
import struct
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import hkcore
from helpers.serving import call, idle_after, in_process, missing_server_deps, running, server_process
from hkcore.batch import score_many

pytestmark = [pytest.mark.io, pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))]

README_HAND = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"
WAITING = "123m456p23s55z 789s:E seat:S"
ENDPOINTS = ["/score", "/compare", "/analyse", "/position", "/claims/legal", "/claims/resolve", "/presets/check",
             "/score/batch"]


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, int]]:
    """A real server, for what needs its sockets or its process: its base URL and its process id."""
    with server_process() as (base, proc):
        yield base, proc.pid


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """The application of most tests, in this process."""
    with in_process() as base:
        yield base


@pytest.fixture(scope="module")
def hurried() -> Iterator[tuple[str, int]]:
    """A server with a time limit of 0.1 s (batch: 1 s): its base URL and its process id."""
    with server_process("--time-limit", "0.1", "--batch-time-limit", "1") as (base, proc):
        yield base, proc.pid


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with a presets folder holding our-club (mistboard, minimum 1)."""
    folder = tmp_path_factory.mktemp("presets")
    (folder / "our-club.toml").write_text('extends = "mistboard"\nid = "our-club"\nname = "Our club"\nminimum = 1\n')
    (tmp_path_factory.mktemp("elsewhere") / "secret.toml").write_text('extends = "mistboard"\n')
    with in_process(folder) as base:
        yield base


def post(url: str, path: str, body: Any) -> tuple[int, Any]:
    status, kind, raw = call(url + path, "POST", body)
    if status >= 400:
        assert kind == "application/problem+json", (status, kind, raw[:200])
    return status, json.loads(raw)


def test_score_one_preset_and_several(url: str) -> None:
    status, data = post(url, "/score", {"hand": README_HAND, "preset": "bga-old-style"})
    assert status == 200 and data == hkcore.score(README_HAND, "bga-old-style").model_dump(mode="json")
    as_json = hkcore.Hand.parse(README_HAND).model_dump(mode="json")
    status, data = post(url, "/score", {"hand": as_json, "preset": ["mistboard", "hk-classic"]})
    assert status == 200
    assert [(e["preset"], e["result"]["faan"]) for e in data] == [
        (p, hkcore.score(README_HAND, p).faan) for p in ("mistboard", "hk-classic")]


def test_compare_analyse_claims(url: str) -> None:
    status, data = post(url, "/compare", {"hand": README_HAND})
    assert status == 200 and data == hkcore.compare(README_HAND).model_dump(mode="json")
    status, data = post(url, "/analyse", {"hand": WAITING, "preset": "mistboard"})
    assert status == 200 and data == hkcore.analyse(WAITING, "mistboard").model_dump(mode="json")
    status, data = post(url, "/position", {"hand": WAITING})
    assert status == 200 and data == hkcore.Position.parse(WAITING).model_dump(mode="json")
    assert data["melds"][0] == {"kind": "chow", "tiles": "789s", "concealed": False, "from": "E"}
    status, p = post(url, "/position", {"hand": "123m456p23s55z 789s:E seat:Q"})
    assert status == 422 and (p["field"], p["value"]) == ("hand.seat_wind", "Q") and "seat:Q" in p["detail"]
    status, data = post(url, "/claims/legal", {"hand": WAITING, "discard": "1s", "discarder": "E"})
    assert status == 200 and data == [c.model_dump(mode="json") for c in hkcore.legal_claims(WAITING, "1s", "E")]
    claims = [{"seat": "S", "kind": "chow", "tiles": "123s", "discard": "1s"},
              {"seat": "N", "kind": "pung", "tiles": "111s", "discard": "1s"}]
    status, data = post(url, "/claims/resolve", {"claims": claims, "discarder": "E"})
    assert status == 200 and [c["seat"] for c in data] == ["N"]


def test_bad_input_is_problem_json_naming_field_and_value(url: str) -> None:
    status, p = post(url, "/score", {"hand": {"tiles": "234m5x5z", "win_tile": "5z", "seat_wind": "Q"}})
    assert status == 422 and p["field"] == "hand.tiles" and p["value"] == "234m5x5z"
    with pytest.raises(hkcore.HandError) as exc:
        hkcore.Hand.parse({"tiles": "234m5x5z", "win_tile": "5z", "seat_wind": "Q"})
    assert p["detail"] == str(exc.value)  # the words of the Python error
    assert [e["loc"] for e in p["errors"]] == [["hand", "tiles"], ["hand", "seat_wind"]]
    status, p = post(url, "/score", {"hand": README_HAND, "preset": "mistbord"})
    assert status == 422 and p["field"] == "preset" and "did you mean 'mistboard'" in p["detail"]
    status, p = post(url, "/score", {"hand": README_HAND, "colour": "red"})
    assert status == 422 and p["field"] == "colour" and p["value"] == "red"
    status, kind, _raw = call(url + "/score", "POST", raw=b"{not json", headers={"Content-Type": "application/json"})
    assert status == 400 and kind == "application/problem+json"
    status, kind, _raw = call(url + "/nowhere")
    assert status == 404 and kind == "application/problem+json"


def test_every_problem_names_the_request_field_and_its_value(url: str) -> None:
    """The field is the request's own dotted path (no pydantic union tags, no doubled prefix, a TOML path
    under ``toml``), and the value is the one found there."""
    status, p = post(url, "/score", {"hand": README_HAND, "preset": "mistbord"})
    assert (status, p["field"], p["value"]) == (422, "preset", "mistbord")
    status, p = post(url, "/score", {"hand": README_HAND, "preset": ["mistboard", "nosuch"]})
    assert (status, p["field"], p["value"]) == (422, "preset.1", "nosuch")
    status, p = post(url, "/score", {"hand": README_HAND, "preset": 5})
    assert (status, p["field"], p["value"]) == (422, "preset", 5)
    status, p = post(url, "/score", {"hand": 5})
    assert (status, p["field"], p["value"]) == (422, "hand", 5)
    status, p = post(url, "/score", {"hand": README_HAND, "preset": 'extends = "bga-old-style"\nhalf_flsh = 4\n'})
    assert (status, p["field"], p["value"]) == (422, "toml.half_flsh", "half_flsh")  # an unknown key: the key
    status, p = post(url, "/score", {"hand": README_HAND,
                                     "preset": 'extends = "bga-old-style"\n[patterns]\nhalf_flush = "lots"\n'})
    assert (status, p["field"], p["value"]) == (422, "toml.patterns.half_flush", "lots")
    status, p = post(url, "/score", {"hand": README_HAND, "preset": "extends = \n"})
    assert (status, p["field"]) == (422, "toml") and "not valid TOML" in p["detail"]
    status, _kind, raw = call(url + "/presets/nosuch")
    assert (status, json.loads(raw)["field"], json.loads(raw)["value"]) == (404, "preset_id", "nosuch")
    # a 14-tile hand cannot claim: the field is the request's hand.tiles, as under /score
    status, p = post(url, "/claims/legal", {"hand": "123m456p789s11z22z3z", "discard": "3z", "discarder": "W"})
    assert (status, p["field"]) == (422, "hand.tiles") and "13" in p["detail"]
    # no Content-Type: the answer says so, not that the body is no JSON object
    status, _kind, raw = call(url + "/score", "POST", raw=json.dumps({"hand": README_HAND}).encode(),
                              headers={"Content-Type": "text/plain"})
    assert status == 400 and "Content-Type: application/json" in json.loads(raw)["detail"]
    status, p = post(url, "/score", [README_HAND])
    assert (status, p["field"]) == (400, "body") and "expected a JSON object" in p["detail"]
    status, _kind, raw = call(url + "/score", "POST", raw=b'{"hand": "\xff"}',
                              headers={"Content-Type": "application/json"})
    assert (status, json.loads(raw)["field"]) == (400, "body") and "UTF-8" in json.loads(raw)["detail"]
    headers: dict[str, str] = {}
    status, _, raw = call(url + "/score", answer_headers=headers)
    assert (status, headers.get("allow")) == (405, "POST") and "takes POST" in json.loads(raw)["detail"]
    for key in ("str", "list", "a[0]"):  # a key sent is named, whatever it is called
        status, p = post(url, "/score", {"hand": README_HAND, key: 1})
        assert (status, p["field"], p["value"]) == (422, key, 1) and "not a field of this request" in p["detail"]
    # a custom preset among several: its TOML path under its place in the list
    bad = 'extends = "mistboard"\nminimum = "x"\n'
    status, p = post(url, "/score", {"hand": README_HAND, "preset": ["mistboard", bad]})
    assert (status, p["field"], p["value"]) == (422, "preset.1.toml.minimum", "x")
    status, p = post(url, "/compare", {"hand": README_HAND, "presets": ["mistboard", bad]})
    assert (status, p["field"], p["value"]) == (422, "presets.1.toml.minimum", "x")
    status, p = post(url, "/score", {"hand": README_HAND, "preset": ["hk-classic", 5]})
    assert (status, p["field"], p["value"]) == (422, "preset.1", 5)  # the item, not the whole list
    status, p = post(url, "/claims/resolve", {"claims": [5], "discarder": "E"})
    assert (status, p["field"]) == (422, "claims.0")
    status, p = post(url, "/score", {"hand": 5})
    assert [e["loc"] for e in p["errors"]] == [["hand"]]
    status, p = post(url, "/analyse", {"hand": WAITING, "visible": "1x"})
    assert (status, p["field"], p["value"]) == (422, "visible", "1x")  # the request's own field, not hand.visible
    status, p = post(url, "/score", {"hand": README_HAND, "preset": 'extends = "mistboard"\nminimum = 1' + "0" * 400})
    assert status == 422 and "digits" in p["value"]  # a 400-digit number is told by its size, as the message tells it


def test_a_folder_preset_gone_is_named_as_the_request_named_it(tmp_path: Path) -> None:
    """A presets folder's file that disappears after start: the request that extends it by id hears of the id,
    never of the server's folder."""
    (tmp_path / "club.toml").write_text('extends = "mistboard"\nid = "club"\n', encoding="utf-8")
    with in_process(tmp_path) as base:
        (tmp_path / "club.toml").unlink()
        status, p = post(base, "/score", {"hand": README_HAND, "preset": 'extends = "club"\nminimum = 1\n'})
    assert status == 422 and p["field"] == "toml.extends" and p["value"] == "club"
    assert str(tmp_path) not in json.dumps(p) and "club" in p["detail"]


def test_custom_preset_in_a_request(url: str) -> None:
    toml = 'extends = "mistboard"\nid = "beginners"\nminimum = 0\n'
    status, data = post(url, "/score", {"hand": README_HAND, "preset": toml})
    assert status == 200 and data["preset"] == "beginners"
    for parent in ("/etc/hostname", "../presets/x.toml"):
        status, p = post(url, "/score", {"hand": README_HAND, "preset": f'extends = "{parent}"\n'})
        assert status == 422 and p["field"] == "toml.extends" and "presets may extend only" in p["detail"]
        assert p["value"] == parent


def test_presets_folder(club: str, tmp_path: Path) -> None:
    status, _kind, raw = call(club + "/presets")
    listed = {p["id"]: p["origin"] for p in json.loads(raw)}
    assert listed["our-club"] == "presets folder" and listed["mistboard"] == "built-in"
    status, data = post(club, "/score", {"hand": README_HAND, "preset": 'extends = "our-club"\nid = "x"\ncap = 8\n'})
    assert status == 200 and (data["preset"], data["faan"]) == ("x", 8)
    outside = tmp_path / "other.toml"
    outside.write_text('extends = "mistboard"\n')
    for parent in (str(outside), "../elsewhere/secret.toml", "/etc/passwd"):
        status, p = post(club, "/score", {"hand": README_HAND, "preset": f'extends = "{parent}"\n'})
        assert status == 422 and "presets may extend only a built-in preset or a file inside" in p["detail"]
        status, _, p = batch(club, [json.dumps({"preset": f'extends = "{parent}"\n'}), README_HAND])
        assert status == 422 and "presets may extend only a built-in preset or a file inside" in p["detail"]
    status, _, out = batch(club, [json.dumps({"preset": 'extends = "our-club"\nid = "x"\ncap = 8\n'}), README_HAND])
    assert status == 200 and [(r["preset"], r["faan"]) for r in out] == [("x", 8)]


def test_presets_json_toml_and_check(url: str) -> None:
    status, kind, raw = call(url + "/presets/mistboard")
    assert status == 200 and json.loads(raw) == hkcore.load_preset("mistboard").model_dump()
    status, kind, raw = call(url + "/presets/mistboard", headers={"Accept": "application/toml"})
    assert status == 200 and kind.startswith("application/toml")
    assert hkcore.load_preset(raw.decode()) == hkcore.load_preset("mistboard")
    status, kind, raw = call(url + "/presets/mistbord")
    assert status == 404 and "did you mean 'mistboard'" in json.loads(raw)["detail"]
    status, kind, raw = call(url + "/presets/check", "POST", raw=b'extends = "mistboard"\nminimum = 1\n',
                             headers={"Content-Type": "application/toml"})
    assert status == 200 and json.loads(raw)["minimum"] == 1
    status, kind, raw = call(url + "/presets/check", "POST", raw=b'extends = "mistboard"\nminimum = "x"\n',
                             headers={"Content-Type": "application/toml"})
    p = json.loads(raw)
    assert status == 422 and p["field"] == "toml.minimum" and "expected a whole number" in p["detail"]


def test_batch_streams_json_lines(url: str) -> None:
    lines = [README_HAND, "", "234m55z 667z:W win:5z", json.dumps(hkcore.Hand.parse(README_HAND).model_dump())]
    status, kind, raw = call(url + "/score/batch?preset=mistboard", "POST", raw="\n".join(lines).encode(),
                             headers={"Content-Type": "application/x-ndjson"})
    assert status == 200 and kind.startswith("application/x-ndjson")
    out = [json.loads(line) for line in raw.decode().splitlines()]
    expected = hkcore.score(README_HAND, "mistboard").model_dump(mode="json")
    assert out[0] == expected and out[2] == expected
    assert out[1]["line"] == 3 and out[1]["field"] == "notation" and "667z" in out[1]["error"]
    status, kind, raw = call(url + "/score/batch?preset=nope", "POST", raw=b"x")
    assert status == 422 and kind == "application/problem+json"


def test_batch_reads_lines_as_hkscore_does(url: str, served: tuple[str, int], tmp_path: Path) -> None:
    """Blank lines (white space alone, however long), an over-long line and a bad one: answered line for line
    as `hkscore score --jsonl` answers the same file."""
    from hkcore.batch import MAX_JSON
    from hkcore.cli import main

    lines = [README_HAND, " " * (MAX_JSON + 500), "x" * (MAX_JSON + 500), "", "234m55z 667z:W win:5z", README_HAND]
    status, _, out = batch(url, lines, "?preset=mistboard")
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out_file = tmp_path / "out.jsonl"
    with open(out_file, "w", encoding="utf-8") as f, contextlib.redirect_stdout(f):
        main(["score", "--jsonl", str(path), "-p", "mistboard"])
    want = [json.loads(line) for line in out_file.read_text(encoding="utf-8").splitlines()]
    assert status == 200 and out == want
    assert [o.get("line") for o in out] == [None, 3, 5, None]  # the blank ones answered by nothing
    # the same body arriving in pieces of 8 KiB over a socket (the long lines span many): the same answer
    body = ("\n".join(lines) + "\n").encode()
    conn = http.client.HTTPConnection(served[0].removeprefix("http://"), timeout=30)
    try:
        conn.request("POST", "/score/batch?preset=mistboard", encode_chunked=True,
                     body=(body[i:i + 8192] for i in range(0, len(body), 8192)),
                     headers={"Content-Type": "application/x-ndjson", "Transfer-Encoding": "chunked"})
        r = conn.getresponse()
        assert r.status == 200 and [json.loads(line) for line in r.read().decode().splitlines()] == want
    finally:
        conn.close()


# README_HAND under bga-old-style: no_bonus 1 + dragon_pung 1 x 2 + half_flush 3 + little_three_dragons 3 = 9;
# CLUB_TOML makes half_flush 4, so 10 (worked by hand; below its cap of 13).
CLUB_TOML = 'extends = "bga-old-style"\nid = "club"\n[patterns]\nhalf_flush = 4\n'


def batch(url: str, lines: list[str], query: str = "") -> tuple[int, str, Any]:
    """(status, content type, the answer's JSON lines, or its problem) of a POST /score/batch."""
    status, kind, raw = call(url + "/score/batch" + query, "POST", raw="\n".join(lines).encode(),
                             headers={"Content-Type": "application/x-ndjson"})
    if status >= 400:
        assert kind == "application/problem+json", (status, kind, raw[:200])
        return status, kind, json.loads(raw)
    return status, kind, [json.loads(line) for line in raw.decode().splitlines()]


def test_batch_takes_a_custom_preset_on_its_first_line(url: str) -> None:
    club = hkcore.load_preset(CLUB_TOML)
    expected = hkcore.score(README_HAND, club).model_dump(mode="json")
    assert (expected["preset"], expected["faan"], hkcore.score(README_HAND, "bga-old-style").faan) == ("club", 10, 9)
    as_json = json.dumps(hkcore.Hand.parse(README_HAND).model_dump(mode="json"))
    status, kind, out = batch(url, [json.dumps({"preset": CLUB_TOML}), README_HAND, "", "234m55z 667z:W win:5z",
                                    as_json])
    assert status == 200 and kind.startswith("application/x-ndjson")
    assert out[0] == expected and out[2] == expected
    assert out[1]["line"] == 4 and out[1]["field"] == "notation"  # the preset's line is line 1
    status, kind, out = batch(url, [json.dumps({"preset": "hk-classic"}), README_HAND])
    assert status == 200 and out == [hkcore.score(README_HAND, "hk-classic").model_dump(mode="json")]


def test_batch_custom_preset_errors(url: str) -> None:
    bad = 'extends = "bga-old-style"\n[patterns]\nhalf_flush = "lots"\n'
    status, _, p = batch(url, [json.dumps({"preset": bad}), README_HAND])
    assert status == 422 and p["field"] == "toml.patterns.half_flush" and "'lots'" in p["detail"]
    for parent in ("/etc/hostname", "../presets/x.toml"):
        status, _, p = batch(url, [json.dumps({"preset": f'extends = "{parent}"\n'}), README_HAND])
        assert status == 422 and p["field"] == "toml.extends" and "presets may extend only" in p["detail"]
        assert p["value"] == parent
        assert parent in p["detail"]
    status, _, p = batch(url, [json.dumps({"preset": "mistboard"}), README_HAND], "?preset=hk-classic")
    assert status == 422 and p["field"] == "preset" and "given twice" in p["detail"]
    status, _, p = batch(url, [json.dumps({"preset": "mistboard", "cap": 5}), README_HAND])
    assert status == 422 and (p["field"], p["value"]) == ("cap", 5)
    status, _, p = batch(url, [json.dumps({"preset": ["mistboard"]}), README_HAND])
    assert status == 422 and (p["field"], p["value"]) == ("preset", ["mistboard"])
    status, _, p = batch(url, ['{"preset": "mistboard", "preset": "hk-classic"}', README_HAND])
    assert status == 422 and (p["field"], p["value"]) == ("preset", ["mistboard", "hk-classic"])
    assert "given 2 times" in p["detail"]
    status, _, p = batch(url, ['{"preset": "mistboard", "x": {"a": 1, "a": 2}}', README_HAND])
    assert status == 422 and (p["field"], p["value"]) == ("x", {"a": 2})  # x is not a key of the line
    status, _, p = batch(url, ['{"preset": "mistboard"', README_HAND])
    assert status == 400 and p["field"] == "body" and "line 1" in p["detail"]


def test_limits(served: tuple[str, int]) -> None:
    """A body over the limit is refused by its Content-Length, before it is sent (so the client's
    write cannot race the server's answer)."""
    url = served[0]
    conn = http.client.HTTPConnection(url.removeprefix("http://"), timeout=30)
    try:
        conn.putrequest("POST", "/score")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(3 << 20))
        conn.endheaders()
        r = conn.getresponse()
        assert r.status == 413 and r.getheader("content-type") == "application/problem+json"
        p = json.loads(r.read())
        assert (p["field"], p["error_type"]) == ("body", "RequestTooLarge")
    finally:
        conn.close()
    # sent in chunks (no Content-Length): found while it arrives, the same answer
    conn = http.client.HTTPConnection(url.removeprefix("http://"), timeout=30)
    try:
        conn.request("POST", "/score", body=(b" " * 100_000 for _ in range(22)), encode_chunked=True,
                     headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
        r = conn.getresponse()
        p = json.loads(r.read())
        assert (r.status, p["field"], p["error_type"]) == (413, "body", "RequestTooLarge")
    finally:
        conn.close()


# -- the time limit: work past it is abandoned

# 14 tiles in play: analyse weighs every discard; under 64 custom presets (each read and compiled for the
# request) that is several times 0.1 s of work
IN_PLAY = "123m456p23s55z789s1z"


def _many_presets(tag: str) -> list[str]:
    return [f'extends = "bga-old-style"\nid = "{tag}-{i}"\nminimum = {i % 4}\n' for i in range(64)]


def test_work_past_the_time_limit_is_abandoned(hurried: tuple[str, int]) -> None:
    """Requests whose work lasts seconds in all, on a server with a time limit of 0.1 s: each is
    answered 503, and the server's CPU is idle right after (the work stopped with the answers)."""
    url, pid = hurried
    started = time.perf_counter()
    for text in _many_presets("probe"):
        hkcore.analyse(IN_PLAY, hkcore.load_preset(text))
    one = time.perf_counter() - started  # one request's work, measured here
    n = min(32, max(2, math.ceil(3.0 / one)))  # seconds of work in all, so each request takes far over 0.1 s
    assert n * one > 1.5, f"{n} requests of {one:.2f} s of work: too little to show anything"
    body = [{"hand": IN_PLAY, "preset": _many_presets(f"r{j}")} for j in range(n)]
    with ThreadPoolExecutor(n) as pool:
        answers = list(pool.map(lambda b: call(url + "/analyse", "POST", b), body))
    for status, kind, raw in answers:
        assert (status, kind) == (503, "application/problem+json"), raw[:200]
        p = json.loads(raw)
        assert p["error_type"] == "Timeout" and "longer than 0.1 s" in p["detail"]
    assert idle_after(pid, within=1.0) is not None, (
        f"the server was still busy 1 s after answering 503 to {n} requests of {one:.2f} s of work each")


def test_a_slow_custom_preset_is_a_503_and_holds_no_other_request(hurried: tuple[str, int]) -> None:
    """A custom preset that takes about a second to read (TOML of 1 MB), sent to POST /score or
    /presets/check on a server with a time limit of 0.1 s: a 503 on time (it was read on the event loop:
    a 422 after the whole second), and GET /health answered at once meanwhile."""
    url, _ = hurried
    import tomllib

    toml = 'extends = "mistboard"\nsource = [' + ",".join(["{a=1,b=[1,2,3]}"] * 65_000) + "]\n"
    started = time.perf_counter()
    tomllib.loads(toml)
    read = time.perf_counter() - started
    assert read > 0.4, f"the preset is read in {read:.2f} s here: too little to show anything"
    asks = [("/score", {"hand": README_HAND, "preset": toml}), ("/score", {"hand": README_HAND, "preset": [toml]}),
            ("/presets/check", toml.encode())]
    for path, body in asks:
        raw_body = body if isinstance(body, bytes) else None
        with ThreadPoolExecutor(1) as pool:
            slow = pool.submit(call, url + path, "POST", None if raw_body else body, raw=raw_body,
                               headers={"Content-Type": "application/toml"} if raw_body else None)
            time.sleep(0.05)
            started = time.perf_counter()
            status, _, _ = call(url + "/health")
            health = time.perf_counter() - started
            status_, kind, raw = slow.result()
        # answered well before the preset is read (the reading thread still shares the GIL with the event loop,
        # so on a busy machine /health itself may pass this server's 0.1 s limit: then it is its own 503)
        assert status in (200, 503) and health < read / 2, \
            f"GET /health took {health:.2f} s (reading the preset: {read:.2f} s)"
        assert (status_, kind) == (503, "application/problem+json"), (status_, raw[:200])
        assert "longer than 0.1 s" in json.loads(raw)["detail"]


def _raw_batch(url: str, head: dict[str, str], pieces: Iterator[bytes], length: int) -> tuple[socket.socket, Any]:
    """A POST /score/batch on a socket, its body written by a thread from ``pieces``; the open response."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    lines = ["POST /score/batch HTTP/1.1", f"Host: {host}", "Content-Type: application/x-ndjson",
             f"Content-Length: {length}", *(f"{k}: {v}" for k, v in head.items())]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())

    def write() -> None:
        try:
            for piece in pieces:
                sock.sendall(piece)
        except OSError:  # the server ended the answer, or the test closed the socket
            pass

    threading.Thread(target=write, daemon=True).start()
    answer = http.client.HTTPResponse(sock)
    answer.begin()
    return sock, answer


def test_batch_stops_when_its_time_is_up(hurried: tuple[str, int]) -> None:
    """A batch sent slowly (600 lines over 3 s) to a server whose batch time limit is 1 s: some lines
    are scored, then a last line says the time is up, and the answer ends before the upload would."""
    url, _ = hurried
    piece = ((README_HAND + "\n") * 20).encode()

    def slowly() -> Iterator[bytes]:
        for _ in range(30):
            yield piece
            time.sleep(0.1)

    started = time.monotonic()
    sock, answer = _raw_batch(url, {}, slowly(), 30 * len(piece))
    try:
        assert answer.status == 200
        out = [json.loads(line) for line in answer.read().decode().splitlines()]
    finally:
        answer.close()
        sock.close()
    took = time.monotonic() - started
    *scored, last = out
    assert 0 < len(scored) < 600 and last.get("type") == "Timeout", (len(scored), last)
    assert last["line"] == len(scored) + 1 and "longer than 1 s" in last["error"]
    assert scored == [hkcore.score(README_HAND, "bga-old-style").model_dump(mode="json")] * len(scored)
    assert took < 2.5, f"the answer ended after {took:.2f} s"


def test_batch_stops_when_the_client_goes_away(served: tuple[str, int]) -> None:
    """A large batch whose client reads 1,000 answer lines and hangs up: the server is idle soon
    after, though scoring the whole batch takes far longer (measured here)."""
    url, pid = served
    from hkcore.server import MAX_BATCH_BODY

    piece = ((README_HAND + "\n") * 1000).encode()
    started = time.perf_counter()
    for _ in score_many([README_HAND] * 5_000, "bga-old-style", as_json=True):
        pass
    per_piece = (time.perf_counter() - started) * 1000 / 5_000
    pieces = min(max(1500, int(10 / per_piece) + 1), MAX_BATCH_BODY // len(piece))  # about 10 s of scoring
    whole = per_piece * pieces
    assert whole > 6, f"the whole batch scores in {whole:.1f} s here: too little to show anything"
    sock, answer = _raw_batch(url, {}, (piece for _ in range(pieces)), len(piece) * pieces)
    try:
        assert answer.status == 200
        assert [json.loads(answer.readline())["faan"] for _ in range(1000)] == [9] * 1000
    finally:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset: gone at once
        answer.close()  # the socket's file, else close() leaves the connection open
        sock.close()
    took = idle_after(pid, within=3.0)
    assert took is not None, f"the server was still busy 3 s after its client went away (whole batch: {whole:.0f} s)"


def test_batch_stops_scoring_when_the_client_goes_away_after_sending_it_all() -> None:
    """The application alone, driven as ASGI by a client that sends 20,000 lines in one message and
    goes away once the first answer lines come (over a socket, uvicorn hands the body over in small
    pieces, so this moment cannot be chosen there): far fewer lines than sent are answered."""
    from hkcore.server import create_app

    body = ((README_HAND + "\n") * 20_000).encode()
    answered = []

    async def run() -> None:
        gone = asyncio.Event()
        given = False

        async def receive() -> dict[str, Any]:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body":
                answered.extend(message.get("body", b"").splitlines())
                gone.set()

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": "/score/batch", "raw_path": b"/score/batch", "root_path": "",
                 "query_string": b"", "headers": [(b"content-type", b"application/x-ndjson")],
                 "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
        await create_app()(scope, receive, send)

    asyncio.run(run())
    assert answered and json.loads(answered[0]) == hkcore.score(README_HAND, "bga-old-style").model_dump(mode="json")
    assert len(answered) < 2_000, f"{len(answered):,} of 20,000 lines answered after the client went away"


def test_health_openapi_docs(url: str) -> None:
    status, _kind, raw = call(url + "/health")
    assert status == 200 and json.loads(raw)["status"] == "ok"
    api = json.loads(call(url + "/openapi.json")[2])
    assert {"/score", "/compare", "/analyse", "/position", "/claims/legal", "/claims/resolve", "/presets",
            "/presets/{preset_id}", "/presets/check", "/score/batch", "/health"} <= set(api["paths"])
    # a model whose answer's schema differs from the request's (every field required in a dump) is written twice
    names = {n.removesuffix("-Output").removesuffix("-Input") for n in api["components"]["schemas"]}
    assert {"ScoreResult", "Analysis", "Comparison", "Claim", "Hand", "Position", "Problem"} <= names
    for page in ("/docs", "/", "/web/app.js", "/web/style.css"):
        status, _kind, raw = call(url + page)
        assert status == 200
        assert not re.search(rb"(src|href)=[\"']?(https?:)?//", raw), f"{page} loads something from another site"


def test_openapi_is_whole_for_client_generators(url: str) -> None:
    """Every $ref of /openapi.json resolves inside it (a code generator reads it as it is); every error
    answer is application/problem+json with the Problem schema; the batch answers JSON lines of a
    ScoreResult or a BatchError; a preset is the Preset schema (the preset file's data)."""
    api = json.loads(call(url + "/openapi.json")[2])
    schemas = api["components"]["schemas"]
    refs = set(re.findall(r'"\$ref": "([^"]+)"', json.dumps(api)))
    assert refs and {r for r in refs if r.removeprefix("#/components/schemas/") not in schemas} == set()
    for path, item in api["paths"].items():
        for method, op in item.items():
            for status, answer in op["responses"].items():
                if int(status) >= 400:
                    assert answer["content"] == {"application/problem+json": {
                        "schema": {"$ref": "#/components/schemas/Problem"}}}, (method, path, status)
            if method == "post":
                assert "400" in op["responses"], path
    ok = api["paths"]["/score/batch"]["post"]["responses"]["200"]["content"]
    assert list(ok) == ["application/x-ndjson"]
    line = schemas[ok["application/x-ndjson"]["schema"]["$ref"].split("/")[-1]]
    assert {r["$ref"].split("/")[-1] for r in line["anyOf"]} == {"ScoreResult-Output", "BatchError"}
    # an answer's every field is always there, and its schema says so (a generated client need not check)
    assert {"shape", "payments", "payments_note", "reason"} <= set(schemas["ScoreResult-Output"]["required"])
    assert schemas["Column"]["required"] == ["preset"]  # what a column does not hold is left out
    for path, method in (("/presets/{preset_id}", "get"), ("/presets/check", "post")):
        got = api["paths"][path][method]["responses"]["200"]["content"]["application/json"]["schema"]
        assert got == {"$ref": "#/components/schemas/Preset"}
    assert set(schemas["Preset"]["properties"]) >= {"id", "extends", "minimum", "cap", "patterns", "payments"}
    assert "HTTPValidationError" not in schemas  # FastAPI's own 422 body: never sent
    claims = schemas["ResolveClaimsRequest"]["properties"]["claims"]["items"]
    assert claims == {"$ref": "#/components/schemas/Claim-Input"}  # a named type, not a copy of it
    column = schemas["Column"]["properties"]
    assert set(column) == {"preset", "result", "error", "type", "field"}


# -- never a 500: random JSON and bytes to every endpoint, through the real server

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)
FIELDS = ["hand", "preset", "presets", "visible", "discard", "discarder", "kong", "last_tile", "claims"]
HANDISH = st.sampled_from([README_HAND, WAITING, "234m55z", "1111m:concealed", "win:5z", "seat:Q", "[1111m]",
                           'extends = "mistboard"\n', 'extends = "/etc/passwd"\n', "mistboard", "E", "1s"])
BODIES = st.one_of(
    JSON_VALUES.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES | HANDISH, max_size=5).map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(ENDPOINTS), body=BODIES,
       kind=st.sampled_from(["application/json", "application/toml", "text/plain", "application/x-ndjson"]))
def test_never_a_500(url: str, path: str, body: bytes, kind: str) -> None:
    status, answered, raw = call(url + path, "POST", raw=body, headers={"Content-Type": kind})
    assert status < 500, (path, body, raw[:300])
    if status >= 400:
        assert answered == "application/problem+json"


# -- hostile clients

def test_every_answer_sends_csp_and_nosniff(url: str) -> None:
    """Pages, JSON, problems and the page's files all say what may load and that types are not guessed."""
    for path, body in (("/", None), ("/docs", None), ("/web/app.js", None), ("/health", None),
                       ("/score", {"hand": README_HAND}), ("/score", {"hand": "234m5"}), ("/nowhere", None)):
        headers: dict[str, str] = {}
        call(url + path, "GET" if body is None else "POST", body, answer_headers=headers)
        csp = headers.get("content-security-policy", "")
        assert "script-src 'self'" in csp and "default-src 'none'" in csp and "unsafe-inline" not in csp, path
        assert headers.get("x-content-type-options") == "nosniff", path


def test_a_preset_id_that_reads_as_toml_is_refused_at_start(tmp_path: Path) -> None:
    """An id holding '=' would be taken for TOML text by every request naming it: the server does not start,
    and says which file."""
    folder = tmp_path / "presets"
    folder.mkdir()
    (folder / "odd.toml").write_text('extends = "mistboard"\nid = "a=b"\n')
    with pytest.raises(RuntimeError) as caught, running("--presets", str(folder), timeout=20):
        pass
    assert "odd.toml" in str(caught.value) and "a=b" in str(caught.value)
