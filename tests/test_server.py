"""hkcore over HTTP, called as a client would: a real ``hkscore serve`` on
loopback (started and stopped by a fixture), JSON over HTTP. Skipped, with
the reason shown, when the server extra (fastapi, uvicorn) is missing."""
from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hkcore
from serving import call, missing_server_deps, running

pytestmark = pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))

README_HAND = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"
WAITING = "123m456p23s55z 789s:E seat:S"
ENDPOINTS = ["/score", "/compare", "/analyse", "/claims/legal", "/claims/resolve", "/presets/check", "/score/batch"]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with running() as base:
        yield base


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with a presets folder holding our-club (mistboard, minimum 1)."""
    folder = tmp_path_factory.mktemp("presets")
    (folder / "our-club.toml").write_text('extends = "mistboard"\nid = "our-club"\nname = "Our club"\nminimum = 1\n')
    (tmp_path_factory.mktemp("elsewhere") / "secret.toml").write_text('extends = "mistboard"\n')
    with running("--presets", str(folder)) as base:
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
    status, kind, raw = call(url + "/score", "POST", raw=b"{not json", headers={"Content-Type": "application/json"})
    assert status == 400 and kind == "application/problem+json"
    status, kind, raw = call(url + "/nowhere")
    assert status == 404 and kind == "application/problem+json"


def test_custom_preset_in_a_request(url: str) -> None:
    toml = 'extends = "mistboard"\nid = "beginners"\nminimum = 0\n'
    status, data = post(url, "/score", {"hand": README_HAND, "preset": toml})
    assert status == 200 and data["preset"] == "beginners"
    for parent in ("/etc/hostname", "../presets/x.toml"):
        status, p = post(url, "/score", {"hand": README_HAND, "preset": f'extends = "{parent}"\n'})
        assert status == 422 and p["field"] == "extends" and "presets may extend only" in p["detail"]


def test_presets_folder(club: str, tmp_path: Path) -> None:
    status, kind, raw = call(club + "/presets")
    listed = {p["id"]: p["origin"] for p in json.loads(raw)}
    assert listed["our-club"] == "presets folder" and listed["mistboard"] == "built-in"
    status, data = post(club, "/score", {"hand": README_HAND, "preset": 'extends = "our-club"\nid = "x"\ncap = 8\n'})
    assert status == 200 and (data["preset"], data["faan"]) == ("x", 8)
    outside = tmp_path / "other.toml"
    outside.write_text('extends = "mistboard"\n')
    for parent in (str(outside), "../elsewhere/secret.toml", "/etc/passwd"):
        status, p = post(club, "/score", {"hand": README_HAND, "preset": f'extends = "{parent}"\n'})
        assert status == 422 and "presets may extend only a built-in preset or a file inside" in p["detail"]


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


def test_limits(url: str) -> None:
    """A body over the limit is refused by its Content-Length, before it is sent (so the client's
    write cannot race the server's answer)."""
    conn = http.client.HTTPConnection(url.removeprefix("http://"), timeout=30)
    try:
        conn.putrequest("POST", "/score")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(3 << 20))
        conn.endheaders()
        r = conn.getresponse()
        assert r.status == 413 and r.getheader("content-type") == "application/problem+json"
        assert json.loads(r.read())["field"] == "body"
    finally:
        conn.close()


def test_health_openapi_docs(url: str) -> None:
    status, kind, raw = call(url + "/health")
    assert status == 200 and json.loads(raw)["status"] == "ok"
    api = json.loads(call(url + "/openapi.json")[2])
    assert {"/score", "/compare", "/analyse", "/claims/legal", "/claims/resolve", "/presets", "/presets/{preset_id}",
            "/presets/check", "/score/batch", "/health"} <= set(api["paths"])
    assert {"ScoreResult", "Analysis", "Comparison", "Claim", "Hand", "Position", "Problem"} <= set(
        api["components"]["schemas"])
    for page in ("/docs", "/", "/web/app.js", "/web/style.css"):
        status, kind, raw = call(url + page)
        assert status == 200
        assert not re.search(rb"(src|href)=[\"']?(https?:)?//", raw), f"{page} loads something from another site"


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
