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
import time
from collections.abc import Iterator
from typing import Any

import pytest
from serving import call, missing_server_deps, server_process

pytestmark = pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))

README_HAND = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with server_process() as (base, _proc):
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
    from serving import HKCORE_HOME, free_port

    port = free_port()
    code = ("import functools, uvicorn\nfrom hkcore.server import create_app\nfrom hkcore.server.heads import H11Heads\n"
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
