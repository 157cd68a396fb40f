"""The service area of the fuzz runs (tests/test_fuzz.py, bounded; tests/fuzz_long.py, long): hostile
clients against a real ``hkscore serve`` on loopback.

``service_round(base, rnd, tally)`` sends one hostile input, chosen at random: a random or mutated JSON
body to a random endpoint, random bytes, malformed HTTP on a raw socket, a big-but-legal body, a TOML
bomb in a custom preset, a preset whose ``requires`` names any package, a hand listing thousands of
melds, a slow client (a head dripped, a body stalled). Every answer must come within its bound, with a
status the service may give (never a 500), a problem+json body for the service's own 4xx, and the same
``requires`` answer whatever the package. ``slow_round`` runs a few slow clients at once and checks they
are cut at the server's head bound (the server must run with ``--head-time-limit 1``).
``Failure`` is raised with the input on the first thing that does not hold.
"""
from __future__ import annotations

import contextlib
import json
import random
import select
import socket
import time
from collections import Counter
from typing import Any

from helpers.serving import call

ENDPOINTS = ["/score", "/compare", "/analyse", "/position", "/claims/legal", "/claims/resolve", "/presets/check",
             "/score/batch", "/presets", "/presets/mistboard", "/health", "/", "/openapi.json", "/nowhere"]
HAND = {"tiles": "234m55z", "melds": [{"kind": "pung", "tiles": "666z", "from": "W"},
                                      {"kind": "pung", "tiles": "777z", "from": "E"},
                                      {"kind": "kong", "tiles": "1111m", "concealed": True}],
        "win_tile": "5z", "seat_wind": "S", "discarder": "N"}
NOTATION = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"
WAITING = "123m456p23s55z 789s:E seat:S"
#: seconds any one request may take (generous: the machine is shared)
SLOW = 2.0
#: answers the service may give; 408/431 come from the head bounds, 503 from the time and connection limits
STATUSES = {200, 400, 404, 405, 408, 413, 415, 422, 431, 503}
JUNK = [None, True, 0, -1, 1.5, 10**40, "", "x" * 300, "\x00", "🀄", [], {}, [[[]]], {"a": {"b": {}}},
        "extends = \"mistboard\"\n", "=", "\n"]


class Failure(Exception):
    """What did not hold, with the input that showed it."""


def _junk(rnd: random.Random, depth: int = 0) -> Any:
    kind = rnd.randrange(6 if depth < 3 else 3)
    if kind < 3:
        return rnd.choice(JUNK)
    if kind == 3:
        return [_junk(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    if kind == 4:
        keys = ["hand", "preset", "presets", "visible", "claims", "discard", "x", ""]
        return {rnd.choice(keys): _junk(rnd, depth + 1) for _ in range(rnd.randrange(4))}
    return rnd.choice([NOTATION, WAITING, HAND, "mistboard", "hk-classic"])


def _mutated(rnd: random.Random) -> dict[str, Any]:
    body: dict[str, Any] = {"hand": json.loads(json.dumps(HAND)) if rnd.random() < 0.5 else NOTATION,
                            "preset": rnd.choice(["mistboard", "bga-old-style", ["hk-classic", "mistboard"]])}
    for _ in range(rnd.randrange(1, 4)):
        target = body["hand"] if isinstance(body.get("hand"), dict) and rnd.random() < 0.7 else body
        key = rnd.choice(sorted(target) + ["unknown", "melds", "tiles", "win_tile"])
        if rnd.random() < 0.2:
            target.pop(key, None)
        else:
            target[key] = _junk(rnd)
    return body


def toml_bomb(rnd: random.Random) -> str:
    """TOML text that once cost the parser the square of its size, or deep nesting, or many entries."""
    n = rnd.choice([2_000, 16_000, 60_000])
    kind = rnd.randrange(5)
    if kind == 0:
        return 'extends = "mistboard"\n' + ".".join(["a"] * n) + " = 1\n"
    if kind == 1:
        return 'extends = "mistboard"\nx = ' + "[" * n + "]" * n + "\n"
    if kind == 2:
        return 'extends = "mistboard"\nx = ' + "{a = " * (n // 10) + "1" + "}" * (n // 10) + "\n"
    if kind == 3:
        return 'extends = "mistboard"\n' + "".join(f"k{i} = {i}\n" for i in range(n // 4))
    return 'extends = "mistboard"\n' + "".join(f"[t{i}]\n" for i in range(n // 8))


def _expect(what: str, given: Any, status: int, kind: str, took: float, bound: float = SLOW) -> None:
    if status not in STATUSES:
        raise Failure(f"{what}: status {status} for {given!r:.300}")
    if took > bound:
        raise Failure(f"{what}: {took:.2f} s for {given!r:.300}")
    if 400 <= status < 500 and status not in (405, 408, 431) and kind != "application/problem+json" \
            and status != 404:
        raise Failure(f"{what}: {status} as {kind!r}, not problem+json, for {given!r:.300}")


def _timed(base: str, path: str, method: str = "POST", body: Any = None, *, raw: bytes | None = None,
           headers: dict[str, str] | None = None) -> tuple[int, str, bytes, float]:
    t = time.monotonic()
    try:
        status, kind, out = call(base + path, method, body, raw=raw, headers=headers, timeout=10)
    except OSError as exc:
        sent = body if raw is None else raw
        raise Failure(f"{method} {path}: {type(exc).__name__}: {exc} for {sent!r:.300}") from exc
    return status, kind, out, time.monotonic() - t


def _raw(base: str, data: bytes, wait: float = SLOW) -> bytes:
    """Bytes sent on a socket of their own; what came back before the server closed or ``wait`` passed."""
    host, port = base.rsplit("//", 1)[1].split(":")
    got = b""
    with socket.create_connection((host, int(port)), timeout=5) as s:
        with contextlib.suppress(OSError):
            s.sendall(data)
        end = time.monotonic() + wait
        while time.monotonic() < end:
            ready = select.select([s], [], [], max(0.0, end - time.monotonic()))[0]
            if not ready:
                break
            try:
                chunk = s.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
            if b"\r\n\r\n" in got and b"connection: close" not in got.lower():
                break
    return got


MALFORMED = [b"\x00\xff" * 40 + b"\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
             b"POST /score HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
             b"POST /score HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
             b"POST /score HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello",
             b"POST /score HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
             b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
             b"GET / HTTP/1.1\r\nHost: x\r\nX: a\x00b\r\n\r\n", b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 2000 + b"\r\n"]


def service_round(base: str, rnd: random.Random, tally: Counter[str]) -> None:
    """One hostile input to the service at ``base`` (see the module)."""
    kind = rnd.randrange(100)
    path = rnd.choice(ENDPOINTS)
    if kind < 30:
        body = _junk(rnd) if rnd.random() < 0.5 else _mutated(rnd)
        try:
            json.dumps(body)
        except (ValueError, TypeError, RecursionError):  # a mutation that made no JSON (a circular value): not sent
            tally["service JSON: not JSON, not sent"] += 1
            return
        status, ctype, _, took = _timed(base, path, rnd.choice(["POST", "POST", "GET", "PUT"]), body)
        _expect(f"JSON to {path}", body, status, ctype, took)
        tally[f"service JSON: {status}"] += 1
    elif kind < 40:
        raw = rnd.randbytes(rnd.randrange(200))
        ctype = rnd.choice(["application/json", "application/toml", "application/x-ndjson", "text/plain", ""])
        status, got, _, took = _timed(base, path, raw=raw, headers={"Content-Type": ctype} if ctype else None)
        _expect(f"bytes to {path}", raw, status, got, took)
        tally[f"service bytes: {status}"] += 1
    elif kind < 50:
        data = rnd.choice(MALFORMED)
        got = _raw(base, data)
        if got and not (got.startswith(b"HTTP/1.1 ") and got[9:12].isdigit() and int(got[9:12]) in STATUSES):
            raise Failure(f"malformed HTTP answered {got[:80]!r} for {data[:80]!r}")
        tally["service malformed HTTP"] += 1
    elif kind < 60:  # big but legal: under the 2 MiB limit, a hand padded with white space; a batch of many lines
        bound = 2 * SLOW
        if rnd.random() < 0.5:
            pad = b" " * rnd.randrange(1 << 20, (2 << 20) - 4096)
            raw = b'{"hand": "' + NOTATION.encode() + b'",' + pad + b'"preset": "mistboard"}'
            status, ctype, out, took = _timed(base, "/score", raw=raw, headers={"Content-Type": "application/json"})
            if status != 200 or b'"faan"' not in out:
                raise Failure(f"a padded legal body: {status} {out[:200]!r}")
        else:
            raw = (json.dumps(HAND).encode() + b"\n") * rnd.randrange(500, 5000)
            status, ctype, out, took = _timed(base, "/score/batch?preset=mistboard", raw=raw,
                                              headers={"Content-Type": "application/x-ndjson"})
            sent, answered = raw.count(b"\n"), out.count(b"\n")
            if status != 200 or answered != sent:
                raise Failure(f"a batch of {sent} lines: {status}, {answered} answers")
            bound += sent * 0.0005  # the pure-Python core scores a hand in a few hundred microseconds
        _expect("a big legal body", len(raw), status, ctype, took, bound)
        tally["service big legal body: 200"] += 1
    elif kind < 70:
        text = toml_bomb(rnd)
        where = rnd.choice(["/score", "/presets/check"])
        if where == "/score":
            status, ctype, _, took = _timed(base, where, body={"hand": NOTATION, "preset": text})
        else:
            status, ctype, _, took = _timed(base, where, raw=text.encode(),
                                            headers={"Content-Type": "application/toml"})
        if not 400 <= status < 500:
            raise Failure(f"a TOML bomb of {len(text):,} characters to {where}: {status}")
        _expect(f"a TOML bomb to {where}", text[:200], status, ctype, took, 1.0 + SLOW / 2)
        tally[f"service TOML bomb: {status}"] += 1
    elif kind < 78:
        package = rnd.choice(["numpy", "pip", "pytest", "hypothesis", "no-such-package-hk", "", "a b", "../x",
                              "NumPy", "hkcore-plugin-nope", "\x00"])
        text = f'extends = "mistboard"\nid = "r"\nrequires = [{json.dumps(package)}]\n'
        status, ctype, out, took = _timed(base, "/score", body={"hand": NOTATION, "preset": text})
        _expect("requires", package, status, ctype, took)
        detail = json.loads(out).get("detail", "") if status == 422 else ""
        if status != 422 or "installed" in detail or "is not the package of a plugin this server offers" not in detail:
            raise Failure(f"requires = [{package!r}]: {status} {detail!r}")
        tally["service requires: 422"] += 1
    elif kind < 85:
        melds = [{"kind": "pung", "tiles": "111m"}] * rnd.randrange(17, 1800)
        line = json.dumps({"tiles": "55z", "win_tile": "5z", "melds": melds}).encode()
        raw = (line + b"\n") * rnd.randrange(1, 40)
        status, ctype, out, took = _timed(base, "/score/batch", raw=raw,
                                          headers={"Content-Type": "application/x-ndjson"})
        _expect("a batch of meld bombs", len(raw), status, ctype, took)
        if status == 200 and b"melds; a hand has at most 4" not in out:
            raise Failure(f"a meld bomb line answered {out[:200]!r}")
        tally[f"service meld bomb: {status}"] += 1
    else:
        body = json.dumps({"hand": NOTATION, "preset": "mistboard"}).encode()
        head = (b"POST /score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + str(len(body)).encode() + b"\r\n\r\n")
        cut = rnd.randrange(1, len(head) + len(body))
        got = _raw(base, (head + body)[:cut], wait=0.3)  # a client that stops half-way and goes
        if got and not got.startswith(b"HTTP/1.1 "):
            raise Failure(f"a request cut at byte {cut} answered {got[:80]!r}")
        tally["service client gone half-way"] += 1


def slow_round(base: str, clients: int, bound: float) -> None:
    """``clients`` that drip their heads a byte at a time and some that send nothing: all are answered 408 or
    closed within ``bound`` seconds and a little, while a real client is answered at once."""
    host, port = base.rsplit("//", 1)[1].split(":")
    socks = []
    for i in range(clients):
        s = socket.create_connection((host, int(port)), timeout=5)
        if i % 3:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        s.setblocking(False)
        socks.append(s)
    start = time.monotonic()
    open_ = set(range(clients))
    status, _, _ = call(base + "/health", timeout=5)
    if status != 200:
        raise Failure(f"a real client beside {clients} slow ones: {status}")
    while open_ and time.monotonic() - start < bound + 1.5:
        for i in list(open_):
            try:
                chunk = socks[i].recv(4096)
                if not chunk:
                    open_.discard(i)
                    continue
            except BlockingIOError:
                if i % 3:
                    with contextlib.suppress(OSError):
                        socks[i].send(b"X")
            except OSError:
                open_.discard(i)
        time.sleep(0.1)
    for s in socks:
        s.close()
    if open_:
        raise Failure(f"{len(open_)} of {clients} slow clients still connected {bound + 1.5:g} s on")
