#!/usr/bin/env python3
"""Latency of one ``hkscore serve`` worker under many clients: ``POST /score`` of the README hand on loopback.

A bounded run (it stops by itself), in three parts, each repeated ``--reps`` times:

1. closed loop: C clients (``--clients``, default 32,64,100,150,200), each on its own keep-alive
   connection sending its next request when the last is answered, ``--requests`` in all per run;
   p50/p99 and requests/s;
2. open loop: requests sent at a fixed rate (``--rates`` per second) whatever the answers, over a pool of
   connections, each latency counted from when the request was due (so a stalled server is not hidden by
   clients that wait for it); the highest rate whose p99 stays at most 50 ms is what one worker holds;
3. where the time goes: the server run by bench/_serve_probe.py (the same application and protocol, with
   the garbage collector's pauses and the event loop's lag recorded), at 200 clients, with the collector
   on and off.

The client runs in this process (uvloop, its own collector off during a run) on the same machine as the
server: on 2 shared cores it takes much of one, and other programs run too: runs differ, every run is
shown. Writes the "server-latency" section of bench/RESULTS.md.

    python bench/bench_server_latency.py                       # full size (about 4 minutes)
    python bench/bench_server_latency.py --requests 2000 --reps 1 --rates 500 --no-write   # a smoke run
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _benchlib as bl
from bench_server import BODY, PACKAGES, start_server

CLIENTS = (32, 64, 100, 150, 200)
RATES = (500, 1000, 2000, 3000)
REQUESTS = 15_000
SECONDS = 4.0
TARGET_P99_MS = 50.0
POOL = 256
REQUEST = (b"POST /score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           b"Content-Length: " + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)


async def _ask(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
    writer.write(REQUEST)
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    body = await reader.readexactly(length)
    return head.startswith(b"HTTP/1.1 200") and b'"faan":9' in body


def _figures(latencies: list[float], seconds: float, errors: int) -> dict[str, Any]:
    ms = sorted(x * 1000 for x in latencies)
    return {"requests": len(ms), "seconds": seconds, "rps": len(ms) / seconds, "p50_ms": ms[len(ms) // 2],
            "p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))], "max_ms": ms[-1], "mean_ms": statistics.fmean(ms),
            "errors": errors, "start": time.time() - seconds, "end": time.time()}


async def _closed(port: int, clients: int, total: int) -> dict[str, Any]:
    latencies: list[float] = []
    errors = [0]
    conns = [await asyncio.open_connection("127.0.0.1", port) for _ in range(clients)]
    share = [total // clients + (i < total % clients) for i in range(clients)]

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int) -> None:
        for _ in range(n):
            t0 = time.perf_counter()
            ok = await _ask(reader, writer)
            latencies.append(time.perf_counter() - t0)
            errors[0] += not ok

    t0 = time.perf_counter()
    await asyncio.gather(*(client(r, w, n) for (r, w), n in zip(conns, share)))
    seconds = time.perf_counter() - t0
    for _, w in conns:
        w.close()
    return {**_figures(latencies, seconds, errors[0]), "clients": clients}


async def _open(port: int, rate: float, seconds: float) -> dict[str, Any]:
    latencies: list[float] = []
    errors = [0]
    idle: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = asyncio.Queue()
    for _ in range(POOL):
        idle.put_nowait(await asyncio.open_connection("127.0.0.1", port))
    tasks = []

    async def one(due: float) -> None:
        conn = await idle.get()  # no connection free: the wait counts, from when the request was due
        try:
            ok = await _ask(*conn)
        except (OSError, asyncio.IncompleteReadError):
            ok = False
        latencies.append(time.perf_counter() - due)
        errors[0] += not ok
        idle.put_nowait(conn)

    t0 = time.perf_counter()
    n = int(rate * seconds)
    for i in range(n):
        due = t0 + i / rate
        wait = due - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        tasks.append(asyncio.ensure_future(one(due)))
    await asyncio.gather(*tasks)
    took = time.perf_counter() - t0
    while not idle.empty():
        idle.get_nowait()[1].close()
    return {**_figures(latencies, took, errors[0]), "rate": rate}


def _run(coro: Any) -> Any:
    gc.collect()
    gc.disable()  # the client's own collections are not the server's latency
    try:
        import uvloop
        return uvloop.run(coro)
    except ImportError:
        return asyncio.run(coro)
    finally:
        gc.enable()


def start_probe(mode: str) -> tuple[subprocess.Popen[bytes], int, str]:
    out = tempfile.mktemp(suffix=".json", prefix="hk-probe-")
    proc, port = bl.start_serving(lambda port: [sys.executable, str(Path(__file__).with_name("_serve_probe.py")),
                                                out, str(port), mode], "the probe server")
    return proc, port, out


def _probe_figures(path: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The collector's pauses and the loop's lag inside the runs' windows."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    os.unlink(path)
    inside = [(r["start"], r["end"]) for r in runs]
    seconds = sum(b - a for a, b in inside)

    def within(t: float) -> bool:
        return any(a <= t <= b for a, b in inside)

    pauses = [(g, s * 1000) for t, g, s in data["pauses"] if within(t)]
    lags = sorted(s * 1000 for t, s in data["lags"] if within(t))
    by_gen = {g: [ms for gen, ms in pauses if gen == g] for g in (0, 1, 2)}
    return {"gc_per_s": {g: len(v) / seconds for g, v in by_gen.items()},
            "gc_ms_per_s": sum(ms for _, ms in pauses) / seconds,
            "gc_max_ms": max((ms for _, ms in pauses), default=0.0),
            "gc_max_ms_by_gen": {g: max(v, default=0.0) for g, v in by_gen.items()},
            "lag_p50_ms": lags[len(lags) // 2] if lags else None,
            "lag_p99_ms": lags[min(len(lags) - 1, int(len(lags) * 0.99))] if lags else None,
            "lag_max_ms": lags[-1] if lags else None}


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def render(meta: dict[str, Any], closed: dict[int, list[dict[str, Any]]], opened: dict[float, list[dict[str, Any]]],
           probes: dict[str, dict[str, Any]]) -> str:
    def med(runs: list[dict[str, Any]], key: str) -> float:
        return statistics.median(r[key] for r in runs)

    lines = ["## Server under many clients", "",
             f"One `hkscore serve` worker, `POST /score` of the README hand under bga-old-style over loopback, "
             f"{meta['reps']} runs of each; medians shown, every run's p99 beside them. The client (asyncio on "
             "uvloop, in one process, its collector off during a run) shares the 2 cores with the server, and the "
             "machine is shared with other programs: it is noisy, runs differ by tens of percent.", "",
             f"Closed loop ({meta['requests']:,} requests a run, each client on its own keep-alive connection):", "",
             "| clients | requests/s | p50 ms | p99 ms | max ms | errors | every run's p99 ms |",
             "|---|---|---|---|---|---|---|"]
    for clients, runs in closed.items():
        lines.append(f"| {clients} | {med(runs, 'rps'):,.0f} | {med(runs, 'p50_ms'):.1f} | {med(runs, 'p99_ms'):.1f} | "
                     f"{med(runs, 'max_ms'):.1f} | {sum(r['errors'] for r in runs)} | "
                     + ", ".join(f"{r['p99_ms']:.1f}" for r in runs) + " |")
    lines += ["", f"Open loop ({meta['seconds']:g} s a run, requests due at a fixed rate over {POOL} connections, "
              "latency from when each was due):", "",
              "| requests/s sent | answered/s | p50 ms | p99 ms | max ms | errors | every run's p99 ms | p99 ≤ 50 ms |",
              "|---|---|---|---|---|---|---|---|"]
    held = None
    for rate, runs in opened.items():
        ok = med(runs, "p99_ms") <= TARGET_P99_MS and not any(r["errors"] for r in runs)
        held = rate if ok else held
        lines.append(f"| {rate:,.0f} | {med(runs, 'rps'):,.0f} | {med(runs, 'p50_ms'):.1f} | "
                     f"{med(runs, 'p99_ms'):.1f} | "
                     f"{med(runs, 'max_ms'):.1f} | {sum(r['errors'] for r in runs)} | "
                     + ", ".join(f"{r['p99_ms']:.1f}" for r in runs) + f" | {'yes' if ok else 'no'} |")
    under = [c for c, runs in closed.items() if med(runs, "p99_ms") <= TARGET_P99_MS]
    lines += ["", f"**What one worker holds at a p99 ≤ 50 ms** (medians of {meta['reps']} runs, this machine): "
              + (f"{held:,.0f} requests/s arriving at a steady rate" if held else "none of the rates tried")
              + (f"; up to {max(under)} clients that each wait for their answer (closed loop)" if under else "")
              + ".", "",
              "Where the time goes, at 200 clients (closed loop; the server run by bench/_serve_probe.py, which "
              "records the collector's pauses and how late a 5 ms sleep on the event loop wakes):", "",
              "| collector | requests/s | p50 ms | p99 ms | collections/s (gen 0, 1, 2) | ms of collection per s | "
              "longest pause ms | loop lag p50 / p99 / max ms |",
              "|---|---|---|---|---|---|---|---|"]
    for mode, p in probes.items():
        runs = p["runs"]
        f = p["figures"]
        gens = ", ".join(f"{f['gc_per_s'][g]:.1f}" for g in (0, 1, 2))
        lag = "—" if f["lag_p50_ms"] is None else \
            f"{f['lag_p50_ms']:.1f} / {f['lag_p99_ms']:.1f} / {f['lag_max_ms']:.1f}"
        lines.append(f"| {'on (as served)' if mode == 'gc' else 'off'} | {med(runs, 'rps'):,.0f} | "
                     f"{med(runs, 'p50_ms'):.1f} | {med(runs, 'p99_ms'):.1f} | {gens} | {f['gc_ms_per_s']:.1f} | "
                     f"{f['gc_max_ms']:.1f} | {lag} |")
    lines += ["", f"Machine: {meta['cpu']}, {meta['nproc']} CPUs, Python {meta['python']}, "
              + ", ".join(f"{k} {v}" for k, v in meta["packages"].items()) + f"; {meta['date']}, git {meta['git']}."]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=REQUESTS, help=f"requests per closed-loop run ({REQUESTS:,})")
    parser.add_argument("--clients", default=",".join(map(str, CLIENTS)), help="closed-loop client counts")
    parser.add_argument("--rates", default=",".join(map(str, RATES)), help="open-loop rates, requests/s")
    parser.add_argument("--seconds", type=float, default=SECONDS, help="seconds per open-loop run")
    parser.add_argument("--reps", type=int, default=3, help="runs of each")
    parser.add_argument("--no-write", action="store_true", help="print the section only")
    args = parser.parse_args()
    import hkcore

    if hkcore.core.IMPLEMENTATION != "cython":
        print("the compiled core is not in use", file=sys.stderr)
        return 1
    bl.wait_for_other_bench(600, bl.log)
    meta = {**bl.machine_info(PACKAGES), "requests": args.requests, "seconds": args.seconds, "reps": args.reps}
    clients = [int(c) for c in args.clients.split(",")]
    rates = [float(r) for r in args.rates.split(",")]
    closed: dict[int, list[dict[str, Any]]] = {c: [] for c in clients}
    opened: dict[float, list[dict[str, Any]]] = {r: [] for r in rates}
    proc, port = start_server(1)
    try:
        _run(_closed(port, 32, min(2000, args.requests)))  # warm up
        for rep in range(args.reps):  # the reps interleaved: a noisy minute touches every row, not one
            for c in clients:
                r = _run(_closed(port, c, args.requests))
                bl.log(f"run {rep + 1}: {c} clients: {r['rps']:,.0f}/s p50 {r['p50_ms']:.1f} p99 {r['p99_ms']:.1f} ms")
                closed[c].append(r)
            for rate in rates:
                r = _run(_open(port, rate, args.seconds))
                bl.log(f"run {rep + 1}: {rate:,.0f}/s sent: p50 {r['p50_ms']:.1f} p99 {r['p99_ms']:.1f} ms, "
                       f"{r['errors']} errors")
                opened[rate].append(r)
    finally:
        _stop(proc)
    probes: dict[str, dict[str, Any]] = {}
    for mode in ("gc", "nogc"):
        proc, port, out = start_probe(mode)
        runs = []
        try:
            _run(_closed(port, 32, min(2000, args.requests)))
            for rep in range(args.reps):
                runs.append(_run(_closed(port, 200, args.requests)))
                bl.log(f"probe ({mode}) run {rep + 1}: p99 {runs[-1]['p99_ms']:.1f} ms")
        finally:
            _stop(proc)
        probes[mode] = {"runs": runs, "figures": _probe_figures(out, runs)}
    section = render(meta, closed, opened, probes)
    out_dir = None if args.no_write else Path(__file__).resolve().parent
    bl.publish(out_dir, "server-latency", section,
               {"meta": meta, "closed": closed, "open": opened, "probes": probes}, "results_server_latency.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
