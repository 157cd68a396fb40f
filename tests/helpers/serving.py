"""``hkscore serve`` for the tests, two ways.

``server_process``/``running``: a real ``hkscore serve`` on loopback,
started on a free port, waited for (GET /health), stopped at the end; for
what needs a real process (sockets, slow heads, connection limits, a body
arriving in pieces, the process's CPU or memory, signals, ports). The
process imports the same hkcore the tests import (its folder on an absolute
PYTHONPATH) and runs from a fresh temporary folder of its own (``cwd``:
another one), so neither the working directory nor a relative path decides
what it loads, and the tables' database it keeps there by default
(docs/server.md, "The database") is its own and removed with it.

``in_process``: the same application (``create_app``) in this process
through Starlette's ``TestClient``, for everything else; its base URL is
answered by ``call`` like a real one, so a test reads the same either way.
"""
from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hkcore

#: the folder holding the hkcore package the tests use
HKCORE_HOME = str(Path(hkcore.__file__).resolve().parent.parent)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def missing_server_deps() -> str | None:
    """Why the service cannot run here (None when it can)."""
    for name in ("fastapi", "uvicorn"):
        try:
            __import__(name)
        except ImportError:
            return f"{name} is not installed (pip install 'hkcore[server]')"
    return None


@contextlib.contextmanager
def running(*args: str, timeout: float = 30.0) -> Iterator[str]:
    """``hkscore serve ARGS`` on a free loopback port; yields its base URL."""
    with server_process(*args, timeout=timeout) as (url, _proc):
        yield url


@contextlib.contextmanager
def server_process(*args: str, timeout: float = 30.0, cwd: str | Path | None = None,
                   output: list[str] | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``hkscore serve ARGS`` on a free loopback port, run from ``cwd`` (default: a fresh temporary folder);
    yields its base URL and its process. ``output``, when given, gets what the process wrote (stdout and
    stderr) once it has stopped."""
    with contextlib.ExitStack() as stack:
        where = cwd if cwd is not None else stack.enter_context(tempfile.TemporaryDirectory())
        yield stack.enter_context(_server_process(args, timeout, where, output))


@contextlib.contextmanager
def _server_process(args: tuple[str, ...], timeout: float, cwd: str | Path,
                    output: list[str] | None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=HKCORE_HOME + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = tempfile.TemporaryFile()  # noqa: SIM115 - the server writes to it until it stops (closed below)
    proc = subprocess.Popen([sys.executable, "-m", "hkcore.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--log-level", "warning", *args], cwd=cwd, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"hkscore serve stopped ({proc.returncode}): {log.read().decode(errors='replace')}")
            try:
                with urllib.request.urlopen(url + "/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"hkscore serve did not answer on {url} within {timeout:g} s")
            time.sleep(0.1)
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if output is not None:
            log.seek(0)
            output.append(log.read().decode(errors="replace"))
        log.close()


#: base URL -> the TestClient answering it (while its ``in_process`` lasts)
_IN_PROCESS: dict[str, Any] = {}


@contextlib.contextmanager
def in_process(presets_dir: str | Path | None = None, **limits: Any) -> Iterator[str]:
    """The service's application in this process (``create_app(presets_dir, **limits)``); yields a
    base URL that ``call`` answers from it."""
    import warnings

    with warnings.catch_warnings():  # starlette's notice that its TestClient may move off httpx
        warnings.filterwarnings("ignore", message="Using `httpx`")
        from fastapi.testclient import TestClient

    from hkcore.server import create_app

    with TestClient(create_app(presets_dir, **limits), raise_server_exceptions=False) as client:  # type: ignore[arg-type]
        base = f"http://in-process-{id(client)}"
        _IN_PROCESS[base] = client
        try:
            yield base
        finally:
            del _IN_PROCESS[base]


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used so far (user and system), from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_after(pid: int, within: float, window: float = 0.25) -> float | None:
    """Seconds until a process first spends less than a fifth of a ``window`` on the CPU (None if
    that does not happen within ``within`` seconds)."""
    start = time.monotonic()
    while time.monotonic() - start < within:
        before = cpu_seconds(pid)
        time.sleep(window)
        if cpu_seconds(pid) - before < window / 5:
            return time.monotonic() - start
    return None


def call(url: str, method: str = "GET", body: Any = None, *, raw: bytes | None = None,
         headers: dict[str, str] | None = None, timeout: float = 30.0,
         answer_headers: dict[str, str] | None = None) -> tuple[int, str, bytes]:
    """(status, content type, body) of one HTTP request; ``body`` is sent as JSON; the answer's
    headers are put into ``answer_headers`` when given."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    sent = dict(headers or {})
    if body is not None and raw is None:
        sent.setdefault("Content-Type", "application/json")
    for base, client in _IN_PROCESS.items():
        if url.startswith(base + "/"):
            answer = client.request(method, url[len(base):], content=data, headers=sent)
            if answer_headers is not None:
                answer_headers.update({k.lower(): v for k, v in answer.headers.items()})
            return answer.status_code, answer.headers.get("content-type", ""), answer.content
    req = urllib.request.Request(url, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            if answer_headers is not None:
                answer_headers.update({k.lower(): v for k, v in r.headers.items()})
            return r.status, r.headers.get("content-type", ""), r.read()
    except urllib.error.HTTPError as exc:
        with exc:
            if answer_headers is not None:
                answer_headers.update({k.lower(): v for k, v in exc.headers.items()})
            return exc.code, exc.headers.get("content-type", ""), exc.read()
