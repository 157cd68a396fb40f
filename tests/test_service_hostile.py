"""The service under hostile clients (issue 22), against a real ``hkscore serve`` on loopback:
what a custom preset's ``requires`` tells, slow request heads, work stopped at its deadline.
Every test is bounded in clients and seconds."""
from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from helpers.serving import call, in_process, missing_server_deps, server_process

pytestmark = [pytest.mark.io, pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))]

README_HAND = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """The application in this process (what needs sockets or a process starts its own server below)."""
    with in_process() as base:
        yield base


def post(url: str, path: str, body: Any) -> tuple[int, Any]:
    status, kind, raw = call(url + path, "POST", body)
    if status >= 400:
        assert kind == "application/problem+json", (status, kind, raw[:200])
    return status, json.loads(raw)


def _requiring(package: str) -> str:
    return f'extends = "mistboard"\nid = "needs"\nrequires = [{json.dumps(package)}]\n'


def test_requires_names_only_the_plugins_the_server_offers(url: str) -> None:
    # hkcore's own entry points (liability, seven_pairs) are the plugins this server offers
    status, data = post(url, "/score", {"hand": README_HAND, "preset": _requiring("hkcore")})
    assert status == 200 and data["preset"] == "needs"
    answers = set()
    # installed (pytest, pip: the test runs in the server's environment), absent, not a package name at all
    for package in ("pytest", "pip", "PyTest", "no-such-package-hk22", "not a name", ""):
        for path, body in (("/score", {"hand": README_HAND, "preset": _requiring(package)}),
                           ("/presets/check", None)):
            if body is None:
                status, _, raw = call(url + path, "POST", raw=_requiring(package).encode(),
                                         headers={"Content-Type": "application/toml"})
                p = json.loads(raw)
            else:
                status, p = post(url, path, body)
            assert status == 422, (package, p)
            assert p["field"] == "toml.requires[0]" and p["value"] == package
            assert "installed" not in p["detail"]
            answers.add((path, p["detail"].replace(repr(package), "P", 1)))
    # one answer whatever the package: the same text but for the name the request gave
    assert len({detail for _, detail in answers}) == 1, answers
    assert "is not the package of a plugin this server offers" in next(iter(answers))[1]


def _drip(port: int, n: int, first: bytes) -> list[socket.socket]:
    out = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if first:
            s.sendall(first)
        s.setblocking(False)
        out.append(s)
    return out


def _closed(s: socket.socket) -> tuple[bool, bytes]:
    """(whether the server closed the connection, what it sent)."""
    got = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                return True, got
            got += chunk
    except BlockingIOError:
        return False, got
    except OSError:
        return True, got


def test_slow_heads_are_cut_and_real_clients_answered() -> None:
    with server_process("--head-time-limit", "1", "--most-connections", "40") as (base, _proc):
        port = int(base.rsplit(":", 1)[1])
        started = time.monotonic()
        drips = _drip(port, 20, b"GET /health HTTP/1.1\r\nHost: x\r\n")  # a head never finished
        silent = _drip(port, 5, b"")  # connected, nothing sent
        closed_at: dict[int, float] = {}
        answers: dict[int, bytes] = {}
        real = []
        while time.monotonic() - started < 4 and len(closed_at) < len(drips) + len(silent):
            for i, s in enumerate(drips + silent):
                if i in closed_at:
                    continue
                done, got = _closed(s)
                answers[i] = answers.get(i, b"") + got
                if done:
                    closed_at[i] = time.monotonic() - started
                elif i < len(drips):
                    with contextlib.suppress(OSError):
                        s.send(b"X")  # one more byte of a header that never ends
            if len(real) < 3:  # a real client is answered while the drips hold their connections
                status, _, _ = call(base + "/health", timeout=5)
                real.append((status, time.monotonic() - started))
            time.sleep(0.1)
        for s in drips + silent:
            s.close()
    assert [status for status, _ in real] == [200] * 3 and all(at < 1.0 for _, at in real), real
    assert len(closed_at) == 25, closed_at  # every slow connection closed by the server
    assert all(0.9 <= at <= 2.5 for at in closed_at.values()), closed_at  # after the 1 s bound, not long after
    for i in range(len(drips)):
        assert answers[i].startswith(b"HTTP/1.1 408 "), answers[i][:100]


def test_a_head_past_its_size_is_431_and_a_big_body_is_not() -> None:
    with server_process() as (base, _proc):
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            got = b""
            for _ in range(40):  # up to 160 KiB of headers, a piece at a time, until the server answers
                s.sendall(b"X-Pad: " + b"a" * 4000 + b"\r\n")
                if select.select([s], [], [], 0.05)[0]:
                    break
            with contextlib.suppress(OSError):
                while chunk := s.recv(4096):
                    got += chunk
        assert got.startswith(b"HTTP/1.1 431 "), got[:100]
        body = b'{"hand": "' + README_HAND.encode() + b'",' + b" " * (1 << 20) + b'"preset": "mistboard"}'
        status, _, raw = call(base + "/score", "POST", raw=body, headers={"Content-Type": "application/json"})
        assert status == 200 and json.loads(raw)["preset"] == "mistboard"


def test_beyond_most_connections_a_request_is_503_until_the_slow_ones_are_cut() -> None:
    with server_process("--head-time-limit", "1", "--most-connections", "10") as (base, _proc):
        port = int(base.rsplit(":", 1)[1])
        drips = _drip(port, 12, b"GET / HTTP/1.1\r\n")
        time.sleep(0.2)
        status, _, _ = call(base + "/health", timeout=5)
        assert status == 503  # the worker holds no more connections
        time.sleep(1.5)  # the slow heads are cut at 1 s
        status, _, _ = call(base + "/health", timeout=5)
        assert status == 200
        for s in drips:
            s.close()


def test_the_h11_protocol_keeps_the_same_bounds(tmp_path: Any) -> None:
    # uvicorn runs h11 where httptools is not installed: the same bounds, on that protocol
    from helpers.serving import HKCORE_HOME, free_port

    port = free_port()
    code = ("import functools, uvicorn\nfrom hkcore.server import create_app\n"
            "from hkcore.server.heads import H11Heads\n"
            f"uvicorn.run(create_app(), host='127.0.0.1', port={port}, log_level='warning', "
            "http=functools.partial(H11Heads, head_time_limit=1.0, max_head=65536))\n")
    env = dict(os.environ, PYTHONPATH=HKCORE_HOME)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=str(tmp_path), env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if call(f"http://127.0.0.1:{port}/health", timeout=2)[0] == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
        drips = _drip(port, 3, b"GET /health HTTP/1.1\r\nHost: x\r\n")
        assert call(f"http://127.0.0.1:{port}/health", timeout=5)[0] == 200
        time.sleep(1.6)
        for s in drips:
            s.setblocking(True)
            s.settimeout(2)
            got = b""
            with contextlib.suppress(OSError):
                while chunk := s.recv(4096):
                    got += chunk
            assert got.startswith(b"HTTP/1.1 408 "), got[:100]
            s.close()
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_batch_chunk_stops_between_two_lines() -> None:
    from hkcore.engine import compiled_for
    from hkcore.server.stream import scored

    lines = [(n, b"123m456p234789s55z win:5z self-draw") for n in range(1, 11)]
    asked = []

    def stop() -> bool:  # the time runs out after 4 lines
        asked.append(1)
        return len(asked) > 4

    body, done = scored(compiled_for("hk-classic"), lines, stop)
    assert done == 4 and len(body.splitlines()) == 4 and len(asked) == 5
    assert scored(compiled_for("hk-classic"), lines)[1] == 10


def test_a_flood_of_deadline_bound_requests_stops_and_a_normal_client_is_answered() -> None:
    from helpers.serving import idle_after

    waiting = "123m456p23s55z 789s:E seat:S"
    with server_process("--time-limit", "1", "--batch-time-limit", "1") as (base, proc):
        stop_at = time.monotonic() + 3.0
        flood_status: list[int] = []
        normal: list[tuple[int, float]] = []

        def flooder(k: int) -> None:
            n = 0
            while time.monotonic() < stop_at:
                n += 1  # 64 presets never seen before: each is read and compiled, then the position analysed
                presets = [f'extends = "mistboard"\nid = "f{k}-{n}-{i}"\nminimum = {i % 3}\n' for i in range(64)]
                path = "/analyse" if n % 2 else "/compare"
                body = {"hand": "11123455678999m", "preset": presets} if path == "/analyse" else \
                    {"hand": "11123455678999m win:9m self-draw", "presets": presets}
                status, _, _ = call(base + path, "POST", body, timeout=10)
                flood_status.append(status)

        def client() -> None:
            while time.monotonic() < stop_at:
                t = time.monotonic()
                status, _, _ = call(base + "/analyse", "POST", {"hand": waiting, "preset": "mistboard"}, timeout=10)
                normal.append((status, time.monotonic() - t))
                time.sleep(0.1)

        threads = [threading.Thread(target=flooder, args=(k,)) for k in range(12)] + [threading.Thread(target=client)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        quiet = idle_after(proc.pid, within=3.0)
    assert flood_status and set(flood_status) <= {200, 503}, set(flood_status)
    assert flood_status.count(503) >= len(flood_status) // 2  # the flood's work is past its deadline
    assert normal and all(status == 200 for status, _ in normal), normal
    latencies = sorted(t for _, t in normal)
    assert latencies[len(latencies) // 2] < 0.5 and latencies[-1] < 2.0, latencies  # a shared, noisy machine
    assert quiet is not None and quiet < 1.5, quiet  # the flood's threads stopped with their deadlines


def test_thousands_of_melds_are_refused_before_they_are_read() -> None:
    import hkcore
    from hkcore.errors import HandError

    melds = [{"kind": "pung", "tiles": "111m"}] * 3000  # a 64 KiB line of them took 22 ms of errors to refuse
    with pytest.raises(HandError, match=r"3,000 melds; a hand has at most 4$") as info:
        hkcore.Hand.parse({"tiles": "55z", "win_tile": "5z", "melds": melds})
    assert info.value.field == "melds"
    with pytest.raises(HandError, match=r"17 melds; a hand has at most 4$"):
        hkcore.Position.parse({"tiles": "55z", "melds": melds[:17]})
    # five melds are read, and refused by their tiles as before (5 pungs of 1m: 15 copies)
    with pytest.raises(HandError, match=r"15 copies of 1m counting the melds \(at most 4\)"):
        hkcore.Hand.parse({"tiles": "55z", "win_tile": "5z", "melds": melds[:5]})
