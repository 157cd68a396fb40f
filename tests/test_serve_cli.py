"""``hkscore serve`` on an address it cannot listen on says so in one line (exit 2); ``--port 0`` picks a
free port and prints it."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from helpers import OUTSIDE

pytestmark = pytest.mark.io

pytest.importorskip("fastapi", reason="hkscore serve needs the server extra (pip install 'hkcore[server]')")
pytest.importorskip("uvicorn", reason="hkscore serve needs the server extra (pip install 'hkcore[server]')")

#: run the command from outside the source tree: the installed hkcore, not the checkout's


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hkcore.cli", "serve", *args], capture_output=True, text=True,
                          timeout=60, cwd=OUTSIDE)


def test_a_port_in_use_is_one_line_exit_2() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = serve("--host", "127.0.0.1", "--port", str(port))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == f"hkscore: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


@pytest.mark.parametrize("host", ["256.1.1.1", "192.0.2.1"])
def test_an_address_not_of_this_machine_is_one_line_exit_2(host: str) -> None:
    # 192.0.2.1 is TEST-NET-1: a valid address that is no interface here (bind only, never a packet sent)
    proc = serve("--host", host, "--port", "8000")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"hkscore: error: cannot listen on {host}:8000: "), proc.stderr


def test_port_0_picks_a_free_port_and_prints_it() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "hkcore.cli", "serve", "--host", "127.0.0.1", "--port", "0",
                             "--log-level", "warning", "--db", "none"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=OUTSIDE)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("hkscore: serving on http://127.0.0.1:"), line
        url = line.split("serving on ", 1)[1].strip()
        assert int(url.rsplit(":", 1)[1]) > 0
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/health", timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("option", ["--most-hands", "--most-client-sockets", "--most-client-tables",
                                    "--client-tables-per-minute"])
@pytest.mark.parametrize("value", ["0", "100001"])
def test_a_cap_out_of_range_is_one_line_exit_2(option: str, value: str) -> None:
    proc = serve("--host", "127.0.0.1", "--port", "0", option, value)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == f"hkscore: error: {option}: expected 1..100000, got {value}\n"
