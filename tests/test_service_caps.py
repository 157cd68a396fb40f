"""No client takes the service down (issue 34, item 3), against a real ``hkscore serve`` on loopback:
a WebSocket message capped as it is inflated, sockets counted in ``--most-connections``, what one client
may hold (sockets, tables made a minute, tables held), a table kept only by its seats' use, a served match
bounded in hands and its log sent from a thread, a binary message closed 1003. Every test is bounded in
clients (a few dozen sockets) and seconds; the server's memory is read from /proc where the issue measured
memory. Another client is the same loopback connection naming another address in ``X-Forwarded-For``, which
uvicorn takes from a proxy on this machine (127.0.0.1), as it would from a club's reverse proxy."""
from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.serving import call, missing_server_deps, server_process
from hkcore.table import replay

pytestmark = [pytest.mark.io, pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))]

HUMAN_TABLE = {"preset": "hk-classic", "seats": {"E": "human", "S": "efficiency", "W": "efficiency",
                                                 "N": "efficiency"}}


def memory_kib(pid: int, key: str = "VmHWM") -> int:
    """A process's resident memory (``VmRSS``) or its peak so far (``VmHWM``), KiB, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {key} in /proc/{pid}/status")


def ws_url(url: str, table_id: str) -> str:
    return url.replace("http://", "ws://") + f"/tables/{table_id}/ws"


def made(url: str, body: dict[str, Any] | None = None, client: str | None = None) -> tuple[int, dict[str, Any],
                                                                                          dict[str, str]]:
    headers = {"X-Forwarded-For": client} if client else {}
    answer: dict[str, str] = {}
    status, kind, raw = call(url + "/tables", "POST", body or HUMAN_TABLE, headers=headers, answer_headers=answer)
    if status >= 400:
        assert kind == "application/problem+json", (status, kind, raw[:200])
    return status, json.loads(raw), answer


def hello(ws: Any, created: dict[str, Any]) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "seat": "E", "token": created["tokens"]["E"]}))
    state: dict[str, Any] = json.loads(ws.recv(timeout=10))
    assert state["type"] == "state"
    return state


def test_a_deflate_bomb_is_closed_1009_before_it_is_inflated() -> None:
    """16 MiB of spaces deflate to about 16 KB: ten sockets send one each, together. The protocol closes each
    1009 as it inflates past 64 KiB; the server's peak memory grows by a few MiB, not by 10 x 16 MiB."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    bomb = " " * ((16 << 20) - 1024)  # under uvicorn's own default cap (16 MiB): only ours refuses it
    with server_process() as (url, proc):
        status, created, _ = made(url)
        assert status == 201
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(connect(ws_url(url, created["id"]), compression="deflate"))
                       for _ in range(10)]
            for ws in sockets:
                hello(ws, created)
            before = memory_kib(proc.pid)
            for ws in sockets:
                with contextlib.suppress(ConnectionClosed):
                    ws.send(bomb)
            codes = []
            for ws in sockets:
                with pytest.raises(ConnectionClosed) as exc:
                    for _ in range(100):
                        ws.recv(timeout=10)
                assert exc.value.rcvd is not None
                codes.append(exc.value.rcvd.code)
            grown = memory_kib(proc.pid) - before
        assert codes == [1009] * 10
        assert grown < 24 << 10, f"the server's peak memory grew {grown} KiB"
        assert call(url + "/health")[0] == 200
        with connect(ws_url(url, created["id"])) as ws:  # a message under the cap is read as before
            hello(ws, created)
            ws.send(" " * 1000)
            error = json.loads(ws.recv(timeout=10))
            assert error["type"] == "error" and error["status"] == 400


def test_sockets_count_in_most_connections() -> None:
    """With ``--most-connections 20``, 30 sockets opened and held: those beyond the limit are answered 503
    (problem+json naming the limit, Retry-After) before the upgrade; once they close, the server answers."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with server_process("--most-connections", "20", "--most-client-sockets", "100") as (url, _proc):
        status, created, _ = made(url)
        assert status == 201
        refused = []
        with contextlib.ExitStack() as stack:
            opened = 0
            for _ in range(30):
                try:
                    stack.enter_context(connect(ws_url(url, created["id"]), open_timeout=10))
                    opened += 1
                except InvalidStatus as exc:
                    refused.append(exc.response)
            assert 15 <= opened < 20, opened  # (uvicorn counts the connection asking among them, as for a request)
            assert len(refused) == 30 - opened
            for answer in refused:
                assert answer.status_code == 503
                assert answer.headers["Content-Type"] == "application/problem+json"
                assert int(answer.headers["Retry-After"]) > 0
                problem = json.loads(answer.body)
                assert problem["status"] == 503 and problem["error_type"] == "TooManyConnections"
                assert "--most-connections" in problem["detail"] and "20" in problem["detail"]
        deadline = time.monotonic() + 10
        while call(url + "/health")[0] != 200:  # the sockets closed: room again
            assert time.monotonic() < deadline
            time.sleep(0.1)


def test_one_client_holds_a_bounded_number_of_sockets() -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with server_process("--most-client-sockets", "5") as (url, _proc):
        status, created, _ = made(url)
        assert status == 201
        target = ws_url(url, created["id"])
        with contextlib.ExitStack() as stack:
            mine = [stack.enter_context(connect(target)) for _ in range(5)]
            with pytest.raises(InvalidStatus) as exc:
                connect(target, open_timeout=10)
            answer = exc.value.response
            assert answer.status_code == 429 and answer.headers["Content-Type"] == "application/problem+json"
            problem = json.loads(answer.body)
            assert problem["error_type"] == "TooManySockets" and "--most-client-sockets" in problem["detail"]
            with connect(target, additional_headers={"X-Forwarded-For": "10.9.8.7"}) as other:
                hello(other, created)  # another client is served
            mine.pop().close()
            time.sleep(0.2)
            with connect(target) as again:  # a closed socket is counted no more
                hello(again, created)


def test_one_client_cannot_fill_the_tables() -> None:
    """``--most-tables 14 --most-client-tables 5``: one client gets 5 tables of 20 asked, each refusal a 429
    naming the limit with a Retry-After; another client still gets its tables."""
    with server_process("--most-tables", "14", "--most-client-tables", "5") as (url, _proc):
        answers = [made(url) for _ in range(20)]
        assert [s for s, _, _ in answers] == [201] * 5 + [429] * 15
        _, problem, headers = answers[5]
        assert problem["error_type"] == "TooManyTables" and "--most-client-tables" in problem["detail"]
        assert 1 <= int(headers["retry-after"]) <= 1800
        assert [made(url, client="10.1.2.3")[0] for _ in range(6)] == [201] * 5 + [429]
        assert made(url, client="2001:db8::1")[0] == 201
        assert made(url, client="2001:db8::2:3")[0] == 201  # the same /64: one client
        assert made(url, client="2001:db8:0:1::1")[0] == 201  # another /64


def test_one_client_makes_a_bounded_number_of_tables_a_minute() -> None:
    with server_process("--client-tables-per-minute", "4", "--table-idle", "0.2") as (url, _proc):
        assert [made(url)[0] for _ in range(4)] == [201] * 4
        time.sleep(0.5)  # the four tables dropped: not the minute's count
        status, problem, headers = made(url)
        assert status == 429 and "--client-tables-per-minute" in problem["detail"]
        assert 50 <= int(headers["retry-after"]) <= 60
        assert made(url, client="10.1.2.4")[0] == 201


def test_reading_a_log_keeps_no_table() -> None:
    """A finished table's log is read every 0.1 s by anyone: the table is dropped all the same, its seat's
    last use (here: its bots' last decision) ``--table-idle`` seconds ago."""
    with server_process("--table-idle", "1", "--bot-share", "1") as (url, _proc):
        status, created, _ = made(url, {"seats": {s: "random" for s in "ESWN"}})
        assert status == 201
        path = f"{url}/tables/{created['id']}/log"
        started = time.monotonic()
        seen = []
        while time.monotonic() - started < 5:
            seen.append(call(path)[0])
            if seen[-1] == 404:
                break
            time.sleep(0.1)
        assert 200 in seen and seen[-1] == 404, seen


def test_a_served_match_is_bounded_in_hands() -> None:
    """A match may ask for at most ``--most-hands`` hands (422 naming ``table.hands``, however the preset is
    given); a match whose rounds run longer ends there, its log replaying."""
    long = 'extends = "hk-classic"\nid = "long"\n[table]\nhands = 10000\n'
    with server_process("--most-hands", "3", "--bot-share", "1") as (url, proc):
        status, problem, _ = made(url, {"preset": long, "match": True, "seats": {s: "random" for s in "ESWN"}})
        assert status == 422
        assert problem["field"] == "toml.table.hands" and problem["value"] == 10000
        assert "--most-hands" in problem["detail"] and "3" in problem["detail"]
        status, _, _ = made(url, {"preset": long, "match": False, "seats": {s: "random" for s in "ESWN"}})
        assert status == 201  # one hand: nothing to bound
        status, created, _ = made(url, {"preset": "hk-classic", "match": True, "seats": {s: "random" for s in "ESWN"}})
        assert status == 201  # four rounds, no hands given: stopped after 3
        for _ in range(300):
            status, _, body = call(f"{url}/tables/{created['id']}/log")
            if status == 200:
                break
            time.sleep(0.1)
        log = [json.loads(line) for line in body.decode().splitlines()]
        assert sum(r["event"] == "end_hand" for r in log) == 3
        assert log[-1]["event"] == "end_match" and log[-1]["reason"] == "stopped"
        assert replay(log) == log
        assert memory_kib(proc.pid, "VmRSS") < 200 << 10


@contextlib.contextmanager
def polled(url: str) -> Iterator[list[float]]:
    """``GET /health`` asked again and again on a thread while the block runs; yields the answers' times."""
    times: list[float] = []
    stop = threading.Event()

    def ask() -> None:
        while not stop.is_set():
            started = time.monotonic()
            assert call(url + "/health", timeout=10)[0] == 200
            times.append(time.monotonic() - started)
            time.sleep(0.005)

    thread = threading.Thread(target=ask)
    thread.start()
    try:
        yield times
    finally:
        stop.set()
        thread.join(20)


def test_a_long_log_is_sent_as_a_stream_from_a_thread() -> None:
    """A match of 2,000 hands (a log of about 19 MB) read three times while ``/health`` is asked: the log
    comes as a stream (chunked) and ``/health`` is never kept waiting behind it."""
    long = 'extends = "hk-classic"\nid = "long"\n[table]\nhands = 2000\nrounds = false\n'
    with server_process("--most-hands", "2000", "--bot-share", "1") as (url, proc):
        status, created, _ = made(url, {"preset": long, "match": True, "seats": {s: "random" for s in "ESWN"}})
        assert status == 201
        for _ in range(600):
            status, _, _ = call(f"{url}/tables/{created['id']}/log")
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200
        with polled(url) as times:
            time.sleep(0.2)
            for _ in range(3):
                headers: dict[str, str] = {}
                status, _, body = call(f"{url}/tables/{created['id']}/log", answer_headers=headers)
                assert status == 200 and headers.get("transfer-encoding") == "chunked"
                assert len(body) > 10 << 20
        log = [json.loads(line) for line in body.decode().splitlines()]
        assert sum(r["event"] == "end_hand" for r in log) == 2000
        assert len(times) > 10
        assert max(times) < 0.1, sorted(times)[-5:]
        assert memory_kib(proc.pid, "VmRSS") < 400 << 10


def test_a_binary_message_after_the_hello_is_closed_1003() -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with server_process() as (url, _proc):
        status, created, _ = made(url)
        assert status == 201
        with connect(ws_url(url, created["id"])) as ws:
            hello(ws, created)
            ws.send(b'{"type": "next"}')
            with pytest.raises(ConnectionClosed) as exc:
                for _ in range(100):
                    ws.recv(timeout=10)
            assert exc.value.rcvd is not None
            assert exc.value.rcvd.code == 1003
            assert exc.value.rcvd.reason == "binary messages are not read: send JSON text"
