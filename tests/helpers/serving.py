"""A real ``hkscore serve`` on loopback for the tests: started on a free
port, waited for (GET /health), stopped at the end.

The process imports the same hkcore the tests import (its folder on an
absolute PYTHONPATH) and runs from the temporary directory, so neither the
working directory nor a relative path decides what it loads.
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
def server_process(*args: str, timeout: float = 30.0) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``hkscore serve ARGS`` on a free loopback port; yields its base URL and its process."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=HKCORE_HOME + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "hkcore.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--log-level", "warning", *args], cwd=tempfile.gettempdir(), env=env,
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
        log.close()


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
         headers: dict[str, str] | None = None, timeout: float = 30.0) -> tuple[int, str, bytes]:
    """(status, content type, body) of one HTTP request; ``body`` is sent as JSON."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    sent = dict(headers or {})
    if body is not None and raw is None:
        sent.setdefault("Content-Type", "application/json")
    req = urllib.request.Request(url, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers.get("content-type", ""), r.read()
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, exc.headers.get("content-type", ""), exc.read()
