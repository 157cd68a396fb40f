#!/usr/bin/env python3
"""Benchmark hkcore over HTTP: ``POST /score`` with the README hand on loopback.

A bounded load test: ``hkscore serve`` started with one uvicorn worker, then
with two, each sent a fixed number of requests (``--requests``) over
``--connections`` keep-alive connections by a small asyncio client in this
process; it stops by itself. Reports requests per second and the p50/p99
latency beside the same hands scored in-process (``score`` alone, and with
the JSON read and written as the service does), and writes the "server"
section of bench/RESULTS.md, with a bare FastAPI endpoint (bench/_bare_app.py)
measured by the same client in the same run. Targets: at least 3,000
requests/s and a p99 of at most 20 ms with one worker, and at least 0.8 times
the bare endpoint's requests/s. The client shares the machine with the
server: on 2 cores it takes one of them. See bench/README.md.

    python bench/bench_server.py                    # full size, writes RESULTS.md
    python bench/bench_server.py --requests 300 --no-write   # a smoke run
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import _benchlib as bl

REQUESTS = 50_000
CONNECTIONS = 32
WARMUP = 1_000
TARGET_RPS = 3_000
TARGET_P99_MS = 20.0
TARGET_BARE_RATIO = 0.8
README_HAND = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"
HAND_JSON = {"tiles": "234m55z",
             "melds": [{"kind": "pung", "tiles": "666z", "from": "W"},
                       {"kind": "pung", "tiles": "777z", "from": "E"},
                       {"kind": "kong", "tiles": "1111m", "concealed": True}],
             "win_tile": "5z", "seat_wind": "S", "discarder": "N"}
BODY = json.dumps({"hand": HAND_JSON, "preset": "bga-old-style"}).encode()
PACKAGES = ("fastapi", "starlette", "uvicorn", "uvloop", "httptools", "pydantic")


def start_server(workers: int, bare_answer: Path | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """``hkscore serve`` with ``workers`` workers; with ``bare_answer``, the
    bare FastAPI peer (bench/_bare_app.py) answering that body, one worker."""
    if bare_answer is not None:
        return bl.start_serving(lambda port: [sys.executable, "-m", "uvicorn", "_bare_app:app", "--port", str(port),
                                              "--workers", "1", "--log-level", "warning", "--no-access-log"],
                                "the bare FastAPI peer", paths=[str(Path(__file__).resolve().parent)],
                                env={"HKCORE_BARE_ANSWER": str(bare_answer)})
    return bl.start_serving(lambda port: [sys.executable, "-m", "hkcore.cli", "serve", "--port", str(port),
                                          "--workers", str(workers), "--log-level", "warning"], "hkscore serve")


async def _connection(port: int, count: int, latencies: list[float], errors: list[str]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = (b"POST /score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Content-Length: " + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)
    try:
        for _ in range(count):
            t0 = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - t0)
            if not head.startswith(b"HTTP/1.1 200") or b'"faan":9' not in body:
                errors.append(head.split(b"\r\n", 1)[0].decode(errors="replace"))
    finally:
        writer.close()


async def _load(port: int, total: int, connections: int) -> dict[str, Any]:
    latencies: list[float] = []
    errors: list[str] = []
    share = [total // connections + (i < total % connections) for i in range(connections)]
    t0 = time.perf_counter()
    await asyncio.gather(*(_connection(port, n, latencies, errors) for n in share if n))
    seconds = time.perf_counter() - t0
    ms = sorted(x * 1000 for x in latencies)
    return {"requests": len(ms), "seconds": seconds, "rps": len(ms) / seconds,
            "p50_ms": ms[len(ms) // 2], "p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))],
            "mean_ms": statistics.fmean(ms), "errors": len(errors), "first_error": errors[0] if errors else None}


def load(port: int, total: int, connections: int) -> dict[str, Any]:
    try:
        import uvloop
        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    return runner(_load(port, total, connections))


def in_process(n: int) -> dict[str, float]:
    import hkcore
    from hkcore.models import Hand

    compiled = hkcore.engine.compiled_for("bga-old-style")
    hand = Hand.parse(HAND_JSON)
    for _ in range(200):
        compiled.score(hand)
    t0 = time.perf_counter()
    for _ in range(n):
        compiled.score(hand)
    score_us = (time.perf_counter() - t0) / n * 1e6
    t0 = time.perf_counter()
    for _ in range(n):
        compiled.score(Hand.parse(json.loads(BODY)["hand"])).to_json()
    json_us = (time.perf_counter() - t0) / n * 1e6
    return {"score_us": score_us, "json_us": json_us, "score_per_s": 1e6 / score_us, "json_per_s": 1e6 / json_us}


def render(meta: dict[str, Any], runs: dict[int, dict[str, Any]], local: dict[str, float]) -> str:
    lines = ["## Server", "",
             f"`POST /score` of the README hand under bga-old-style over loopback: `hkscore serve` (uvicorn) with "
             f"{meta['connections']} keep-alive connections from an asyncio client on the same machine, "
             f"{meta['requests']:,} requests per run after {WARMUP:,} to warm up, {meta['reps']} runs per worker "
             "count: the median run by requests/s is shown (its own latencies), every run beside it. Targets with "
             f"one worker: ≥ {TARGET_RPS:,} requests/s, p99 ≤ {TARGET_P99_MS:g} ms.", "",
             "| workers | requests | requests/s | p50 ms | p99 ms | errors (all runs) | target "
             "| every run (req/s, p99 ms) |",
             "|---|---|---|---|---|---|---|---|"]
    for workers, r in runs.items():
        met = r["rps"] >= TARGET_RPS and r["p99_ms"] <= TARGET_P99_MS and not r["errors"]
        every = "; ".join(f"{x['rps']:,.0f}, {x['p99_ms']:.1f}" for x in r.get("runs", [r]))
        lines.append(f"| {workers} | {r['requests']:,} | {r['rps']:,.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | "
                     f"{r['errors']} | {'met' if met else 'not met'} | {every} |")
    bare = meta.get("bare")
    if bare is not None and 1 in runs:
        ratio = runs[1]["rps"] / bare["rps"]
        every = "; ".join(f"{x['rps']:,.0f}, {x['p99_ms']:.1f}" for x in bare.get("runs", [bare]))
        lines.append(f"| bare FastAPI, 1 | {bare['requests']:,} | {bare['rps']:,.0f} | {bare['p50_ms']:.2f} | "
                     f"{bare['p99_ms']:.2f} | {bare['errors']} | peer | {every} |")
        lines += ["", f"The peer (bench/_bare_app.py): a bare FastAPI endpoint that reads the same body into a "
                      f"pydantic model and answers hkcore's own answer as a fixed body, one uvicorn worker, the same "
                      f"client in the same run. hkcore with one worker / the peer: **{ratio:.2f}×** (target ≥ "
                      f"{TARGET_BARE_RATIO:g}×: {'met' if ratio >= TARGET_BARE_RATIO else 'not met'}); each run "
                      f"in turn, hkcore's then the peer's."]
    lines += ["", f"In-process, the same hand: `score` {local['score_us']:.1f} µs ({local['score_per_s']:,.0f}/s); "
                  f"read from the request's JSON, scored and written as JSON {local['json_us']:.1f} µs "
                  f"({local['json_per_s']:,.0f}/s).", "",
              f"Machine: {meta['cpu']}, {meta['nproc']} CPUs, Python {meta['python']}, "
              + ", ".join(f"{k} {v}" for k, v in meta["packages"].items()) + f"; {meta['date']}, git {meta['git']}."]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=REQUESTS, help=f"requests per run (default {REQUESTS:,})")
    parser.add_argument("--connections", type=int, default=CONNECTIONS)
    parser.add_argument("--workers", default="1,2", help="worker counts to run, comma-separated (default 1,2)")
    parser.add_argument("--reps", type=int, default=3, help="runs per worker count; the median run is shown")
    parser.add_argument("--no-write", action="store_true", help="print the section only")
    args = parser.parse_args()
    import hkcore

    if hkcore.core.IMPLEMENTATION != "cython":
        print("the compiled core is not in use", file=sys.stderr)
        return 1
    bl.wait_for_other_bench(600, bl.log)
    meta = {**bl.machine_info(PACKAGES), "requests": args.requests, "connections": args.connections,
            "reps": args.reps}
    def measured(port: int, label: str) -> dict[str, Any]:
        """``--reps`` runs against the server at ``port``: the median run by requests/s (its own
        latencies), every run's figures kept in the JSON."""
        load(port, min(WARMUP, args.requests), args.connections)
        reps = []
        for rep in range(args.reps):
            bl.log(f"{label}, run {rep + 1}/{args.reps}: {args.requests:,} requests ...")
            r = load(port, args.requests, args.connections)
            bl.log(f"  {r['rps']:,.0f} requests/s, p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms, "
                   f"{r['errors']} errors")
            reps.append(r)
        return {**sorted(reps, key=lambda r: r["rps"])[len(reps) // 2], "runs": reps,
                "errors": sum(r["errors"] for r in reps)}

    runs: dict[int, dict[str, Any]] = {}
    answer = Path(tempfile.mkdtemp()) / "answer.json"
    for workers in (int(w) for w in args.workers.split(",")):
        proc, port = start_server(workers)
        try:
            if not answer.exists():  # hkcore's own answer: the peer answers it as its fixed body
                request = urllib.request.Request(f"http://127.0.0.1:{port}/score", data=BODY,
                                                 headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=10) as reply:
                    answer.write_bytes(reply.read())
            runs[workers] = measured(port, f"{workers} worker(s)")
        finally:
            proc.terminate()
            proc.wait(30)
    proc, port = start_server(1, answer)
    try:
        meta["bare"] = measured(port, "bare FastAPI")
    finally:
        proc.terminate()
        proc.wait(30)
    local = in_process(min(args.requests, 20_000))
    section = render(meta, runs, local)
    out = None if args.no_write else Path(__file__).resolve().parent
    bl.publish(out, "server", section, {"meta": meta, "runs": runs, "in_process": local}, "results_server.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
