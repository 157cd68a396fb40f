#!/usr/bin/env python3
"""Tables under load: one ``hkscore serve`` worker on 127.0.0.1 holding 200 tables of four bots and 50
tables with a scripted person over WebSockets at once (issue 26).

A bounded run: ``--rounds`` rounds (default 3) of ``--seconds`` each (default 20: 60 s of load in
all), each followed by a wait until every table of the round has expired (the server runs with
``--table-idle``, default 15 s); ``--runs`` such runs (default 1), each on a fresh server. In a round:

- 200 *bot slots* each make a table of four bots (one hand, a built-in preset in turn), wait for its
  log (asking ``GET /tables/{id}/log`` every ``--poll`` seconds, default 5), and make the next, until
  the round's time is up;
  the server plays these tables with at most ``--bot-share`` of its time (docs/server.md, "Tables"), so
  a table still being played when the round ends is played to its end before it can expire;
- 50 *people*, each a table with East a person and three ``efficiency`` bots, played over the table's
  WebSocket: after a think time (``--think``, default 0.3 s) the person answers its prompt (a win when
  offered, else a random action), and the time from sending the decision to the state that follows it
  (the bots' answers included) is one *decision-to-update* latency; a finished hand starts another table.

The bot slots and the people are two client processes of their own (so that a person's latency is not
measured behind 200 pollers in the same event loop); each reports the CPU time it used and the people's
process how late its event loop ran (a 10 ms ticker's lateness): the client's own share of a latency.
The server's CPU time comes from ``/proc/PID/stat``.

Errors (must be 0): an answer other than the one expected, a socket error message or an unexpected
close, a state that does not follow within 30 s. Memory: the server's RSS (``/proc/PID/status``)
after start, at the end of each round, and after that round's tables expired (a table is then gone:
its log 404). The clients run on the same machine: on a 2-core shared machine they take part of the
server's CPU; every round of every run is shown.

The server's tables are kept in memory (``--db none``) or in a database file of its own (``--db full``
or ``normal``: ``hkscore serve --db FILE --db-sync full|normal``, a fresh file in a temporary folder each
run); ``--db none,full`` alternates the two run by run (run 1 of each, then run 2 of each...), so that both
meet the same moments of a shared machine.

    python bench/bench_tables.py --runs 3             # 3 runs of 3 rounds of 20 s
    python bench/bench_tables.py --runs 3 --rounds 1 --seconds 60 --db none,full   # the issue's test, both ways
    python bench/bench_tables.py --seconds 5 --rounds 1 --bots 40 --people 10 --no-write   # a smoke run
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _benchlib as bl

PRESETS = ("mistboard", "bga-old-style", "just-cards", "hk-classic", "playingcards-io")
#: the per-client caps lifted: the bench's clients stand for many people, all from 127.0.0.1
CLIENTS = ("--most-client-tables", "1000", "--client-tables-per-minute", "100000", "--most-client-sockets", "1000")
PACKAGES = ("fastapi", "starlette", "uvicorn", "uvloop", "httptools", "websockets", "httpx", "pydantic")
TARGET_P99_MS = 50.0
STATE_TIMEOUT = 30.0


@dataclass
class Round:
    """What one round measured."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    bot_hands: int = 0
    bot_tables: int = 0
    human_hands: int = 0
    human_tables: int = 0
    ids: list[str] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)

    def error(self, what: str) -> None:
        if len(self.errors) < 20:
            bl.log(f"  error: {what}")
        self.errors.append(what)


def start_server(idle: float, bot_share: float | None, db: str | None = None,
                 sync: str = "full") -> tuple[subprocess.Popen[bytes], int]:
    """``hkscore serve`` (one worker) with tables dropped after ``idle`` seconds without use (and the
    tables of bots alone given ``bot_share`` of its time, when given), kept in the database file ``db``
    (its commits made durable as ``sync`` says) or in memory only (None)."""
    extra = [] if bot_share is None else ["--bot-share", str(bot_share)]
    extra += ["--db", "none"] if db is None else ["--db", db, "--db-sync", sync]
    return bl.start_serving(lambda port: [sys.executable, "-m", "hkcore.cli", "serve", "--host", "127.0.0.1",
                                          "--port", str(port), "--log-level", "warning", "--table-idle", str(idle),
                                          "--most-tables", "1000", *CLIENTS, *extra], "hkscore serve")


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used so far (user and system), from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    """The resident memory of a process, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def ask(http: Any, method: str, path: str, **kwargs: Any) -> Any:
    """One request; sent again once when the server had just closed the kept-alive connection it went on
    (uvicorn closes one idle for 5 s: a request can cross the close; an HTTP client retries it)."""
    import httpx

    try:
        return await http.request(method, path, **kwargs)
    except (httpx.RemoteProtocolError, httpx.ConnectError, httpx.ReadError, httpx.WriteError):
        return await http.request(method, path, **kwargs)


async def bot_slot(http: Any, until: float, out: Round, first: int, poll: float) -> None:
    """Tables of four bots one after another until ``until``, each one's log asked for every ``poll`` s."""
    try:
        await _bot_slot(http, until, out, first, poll)
    except Exception as exc:  # noqa: BLE001 - every failure is an error of the run
        out.error(f"bot slot: {type(exc).__name__}: {exc}")


async def _bot_slot(http: Any, until: float, out: Round, first: int, poll: float) -> None:
    n = first
    while time.monotonic() < until:
        preset = PRESETS[n % len(PRESETS)]
        n += 1
        seats = {s: "efficiency" if (n + i) % 3 else "simple" for i, s in enumerate("ESWN")}
        r = await ask(http, "POST", "/tables", json={"preset": preset, "seats": seats})
        if r.status_code != 201:
            out.error(f"POST /tables (bots): {r.status_code} {r.text[:200]}")
            await asyncio.sleep(1)
            continue
        tid = r.json()["id"]
        out.bot_tables += 1
        out.ids.append(tid)
        made = answered = time.monotonic()
        while True:
            await asyncio.sleep(poll)
            asked = time.monotonic()
            r = await ask(http, "GET", f"/tables/{tid}/log")
            if r.status_code == 200:
                out.bot_hands += 1
                break
            if r.status_code != 409:
                out.error(f"GET /tables/{tid}/log: {r.status_code} {r.text[:120]} (made {asked - made:.1f} s "
                          f"before; the previous answer {asked - answered:.1f} s before)")
                break
            answered = time.monotonic()
            if time.monotonic() >= until:
                return  # the round is over: the table is left to expire


def decision(rng: random.Random, prompt: dict[str, Any]) -> dict[str, Any]:
    actions = prompt["actions"]
    wins = [a for a in actions if a["act"] == "win"]
    return {"prompt": prompt["prompt"], "seat": prompt["seat"], **(wins[0] if wins else rng.choice(actions))}


async def person(http: Any, port: int, until: float, out: Round, rng: random.Random, think: float) -> None:
    """A person at tables one after another until ``until``, over each table's socket."""
    from websockets.asyncio.client import connect

    while time.monotonic() < until:
        r = await ask(http, "POST", "/tables", json={"preset": rng.choice(PRESETS), "seats": {
            "E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"}})
        if r.status_code != 201:
            out.error(f"POST /tables (person): {r.status_code} {r.text[:200]}")
            await asyncio.sleep(1)
            continue
        created = r.json()
        out.human_tables += 1
        out.ids.append(created["id"])
        try:
            async with connect(f"ws://127.0.0.1:{port}/tables/{created['id']}/ws", max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "seat": "E", "token": created["tokens"]["E"]}))
                state = json.loads(await asyncio.wait_for(ws.recv(), STATE_TIMEOUT))
                if state.get("type") != "state":
                    out.error(f"hello answered {str(state)[:200]}")
                    continue
                while time.monotonic() < until:
                    if state["status"] != "playing":
                        out.human_hands += 1
                        break
                    prompt = state["prompt"]
                    if prompt is None:  # nothing asked of this seat (cannot last: bots answer at once)
                        state = json.loads(await asyncio.wait_for(ws.recv(), STATE_TIMEOUT))
                        continue
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    sent = state["version"]
                    t0 = time.perf_counter()
                    await ws.send(json.dumps({"type": "decision", "decision": decision(rng, prompt)}))
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), STATE_TIMEOUT))
                        if msg["type"] == "error":
                            out.error(f"socket error: {msg}")
                            break
                        if msg["version"] > sent:
                            out.latencies.append(time.perf_counter() - t0)
                            state = msg
                            break
                    else:  # pragma: no cover
                        pass
                    if msg["type"] == "error":
                        break
        except Exception as exc:  # noqa: BLE001 - every failure is an error of the run
            out.error(f"person: {type(exc).__name__}: {exc}")


async def ticker(until: float, out: Round, every: float = 0.01) -> None:
    """How late this process's event loop wakes a task asleep for ``every`` seconds, until ``until``."""
    while time.monotonic() < until:
        t0 = time.perf_counter()
        await asyncio.sleep(every)
        out.lags.append(time.perf_counter() - t0 - every)


async def client_round(role: str, port: int, seconds: float, count: int, think: float, seed: int,
                       poll: float) -> Round:
    """One round of one client process: ``count`` bot slots, or ``count`` people (and the ticker)."""
    import httpx

    out = Round()
    until = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=count + 10, max_keepalive_connections=count + 10)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=30) as http:
        if role == "bots":
            tasks = [bot_slot(http, until, out, seed * 1000 + i, poll) for i in range(count)]
        else:
            tasks = [person(http, port, until, out, random.Random(seed * 1000 + i), think) for i in range(count)]
        tasks.append(ticker(until, out))
        await asyncio.gather(*tasks)
    return out


def client_main(args: argparse.Namespace) -> int:
    """A client process (``--role``): one round, its figures as one JSON line on stdout."""
    cpu0 = time.process_time()
    count = args.bots if args.role == "bots" else args.people
    r = asyncio.run(client_round(args.role, args.port, args.seconds, count, args.think, args.seed, args.poll))
    print(json.dumps({"latencies": r.latencies, "errors": r.errors, "bot_hands": r.bot_hands,
                      "bot_tables": r.bot_tables, "human_hands": r.human_hands, "human_tables": r.human_tables,
                      "ids": r.ids, "lags": r.lags, "cpu": time.process_time() - cpu0}))
    return 0


def one_round(port: int, args: argparse.Namespace, seed: int) -> tuple[Round, dict[str, float]]:
    """A round: the two client processes at once; what they measured, and each one's CPU seconds."""
    common = [sys.executable, str(Path(__file__).resolve()), "--port", str(port), "--seconds", str(args.seconds),
              "--bots", str(args.bots), "--people", str(args.people), "--think", str(args.think),
              "--poll", str(args.poll),
              "--seed", str(seed)]
    procs = {role: subprocess.Popen([*common, "--role", role], stdout=subprocess.PIPE) for role in ("bots", "people")}
    out = Round()
    cpu: dict[str, float] = {}
    lags: dict[str, list[float]] = {}
    for role, proc in procs.items():
        text, _ = proc.communicate(timeout=args.seconds + 120)
        if proc.returncode != 0:
            out.error(f"the {role} client stopped with status {proc.returncode}")
            continue
        got = json.loads(text)
        out.latencies += got["latencies"]
        lags[role] = got["lags"]
        for e in got["errors"]:
            out.error(e)
        for k in ("bot_hands", "bot_tables", "human_hands", "human_tables"):
            setattr(out, k, getattr(out, k) + got[k])
        out.ids += got["ids"]
        cpu[role] = got["cpu"]
    out.lags = lags.get("people", [])
    cpu["lag_bots_p99_ms"] = percentile([x * 1000 for x in lags.get("bots", [])], 0.99)
    return out, cpu


async def expired(port: int, ids: list[str], idle: float) -> float:
    """Wait until the round's tables have expired; the seconds waited. Each wait is ``idle`` seconds, one
    sweep of the server's (a quarter of that) and a margin; then each table not yet found gone is asked for
    its log once (a request is a use: it starts that table's idle time again), until all are 404. A bot
    table still being played when the round ends is in play until it is over (the server then plays the
    round's left-over bot tables one after another with its bot share)."""
    import httpx

    t0 = time.monotonic()
    left = list(ids)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
        for _ in range(16):
            await asyncio.sleep(idle * 1.25 + 3)
            left = [tid for tid in left if (await ask(http, "GET", f"/tables/{tid}/log")).status_code != 404]
            if not left:
                return time.monotonic() - t0
    raise RuntimeError(f"{len(left)} of {len(ids)} tables still there {time.monotonic() - t0:.0f} s after the round")


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * q))] if s else float("nan")


def render(meta: dict[str, Any], rounds: list[dict[str, Any]], runs: list[dict[str, Any]]) -> str:
    rows = []
    for r in rounds:
        rows.append(f"| {r['run']} | {r.get('db', 'none')} | {r['round']} | {r['seconds']:.0f} | {r['bot_tables']:,} | "
                    f"{r['bot_hands']:,} | "
                    f"{r['human_tables']:,} | {r['human_hands']:,} | {r['decisions']:,} | {r['p50_ms']:.1f} | "
                    f"{r['p99_ms']:.1f} | {r['max_ms']:.1f} | {r['errors']} | {r['cpu_server']:.1f} | "
                    f"{r['cpu_bots_client']:.1f} | {r['cpu_people_client']:.1f} | {r['lag_p99_ms']:.1f} | "
                    f"{r['lag_bots_p99_ms']:.0f} | "
                    f"{r['rss_end']:.0f} | {r['rss_expired']:.0f} |")
    run_rows = [f"| {r.get('run', k)} | {r.get('db', 'none')} | {r['decisions']:,} | {r['p50_ms']:.1f} | "
                f"{r['p99_ms']:.1f} | {r['errors']} | "
                f"{r['rss_start']:.0f} | {', '.join(format(x, '.0f') for x in r['rss_expired'])} | "
                f"{r['loadavg_at_start']} | {r.get('db_mib', 0):.1f} |" for k, r in enumerate(runs, 1)]
    modes = list(dict.fromkeys(r.get("db", "none") for r in runs))
    medians = {m: statistics.median(r["p99_ms"] for r in runs if r.get("db", "none") == m) for m in modes}
    errors = sum(r["errors"] for r in runs)
    said = {"none": "tables in memory (`--db none`)",
            "full": "tables in a database (`--db FILE`, `--db-sync full`)",
            "normal": "tables in a database (`--db FILE --db-sync normal`)"}
    verdicts = "; ".join(f"{said[m]}: **{p:.1f} ms** ({'met' if p <= TARGET_P99_MS else 'not met'})"
                         for m, p in medians.items())
    share = "the server's default" if meta["bot_share"] is None else f"`--bot-share {meta['bot_share']:g}`"
    return "\n".join([
        "## Tables service",
        "",
        f"One `hkscore serve` worker on 127.0.0.1 (`--table-idle {meta['idle']:g}`, bot share {share}), "
        f"{meta['runs']} run(s), each on a fresh server, of {meta['rounds']} rounds of {meta['seconds']:g} s: "
        f"{meta['bots']} slots each keeping a table of four bots going (one hand, the built-in presets in turn; "
        f"a new table once its log is there, asked for every {meta['poll']:g} s) and {meta['people']} people, "
        "each at a table "
        f"with three `efficiency` bots, playing over the table's WebSocket with a think time of "
        f"{meta['think']:g} s (0.5 to 1.5 times) before each decision. Latency: from a person's decision sent "
        "to the state that follows it (the bots' answers included). The bot slots and the people are two "
        "client processes of their own, on the same 2 cores as the server; CPU columns are seconds used in "
        "the round by the server, the bots' client and the people's client; *lag* is how late the people's "
        "client's own event loop ran (p99, ms), a part of every latency that is not the server's, and the same "
        "of the bots' client. **The "
        "machine is shared** with other agents' programs: runs differ, every round of every run is shown.",
        "",
        "| run | db | round | s | bot tables | bot hands done | people's tables | people's hands done | decisions | "
        "p50 ms | p99 ms | max ms | errors | CPU server s | CPU bots' client s | CPU people's client s | "
        "lag p99 ms | bots' lag p99 ms | RSS at end MiB | RSS after expiry MiB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "| run | db | decisions | p50 ms | p99 ms | errors | RSS after start MiB | RSS after each round's expiry MiB "
        "| load average at start | database files at the end MiB |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *run_rows,
        "",
        f"Median over the runs of the p99 decision-to-update (target ≤ {TARGET_P99_MS:g} ms), {verdicts}; "
        f"errors: {errors}.",
        "",
        f"Machine: {meta['cpu']}, {meta['nproc']} CPUs, Python {meta['python']}, "
        + ", ".join(f"{k} {v}" for k, v in meta["packages"].items())
        + f"; {meta['date']}, git {meta['git']}.",
    ])


def one_run(args: argparse.Namespace, run: int, rounds: list[dict[str, Any]], db: str = "none") -> dict[str, Any]:
    """One run on a fresh server (its tables kept as ``db`` says: none, full or normal): its rounds added to
    ``rounds``; the run's summary."""
    import tempfile

    load = [round(x, 2) for x in os.getloadavg()]
    folder = tempfile.TemporaryDirectory()
    path = None if db == "none" else str(Path(folder.name) / "tables.sqlite3")
    proc, port = start_server(args.idle, args.bot_share, path, db)
    mine: list[dict[str, Any]] = []
    every: list[float] = []
    try:
        first = json.dumps({"seats": {s: "efficiency" for s in "ESWN"}}).encode()
        with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/tables", data=first, headers={
                "Content-Type": "application/json"}), timeout=30):
            pass  # a first table: the bots and the engine loaded before the first figure
        time.sleep(1)
        rss_start = rss_mib(proc.pid)
        for i in range(args.rounds):
            bl.log(f"run {run}, round {i + 1}/{args.rounds}: {args.seconds:g} s, {args.bots} bot tables, "
                   f"{args.people} people")
            t0 = time.monotonic()
            cpu0 = cpu_seconds(proc.pid)
            r, cpu = one_round(port, args, run * 100 + i)
            seconds = time.monotonic() - t0
            cpu_server = cpu_seconds(proc.pid) - cpu0
            rss_end = rss_mib(proc.pid)
            ms = [x * 1000 for x in r.latencies]
            every += ms
            bl.log(f"  {len(ms):,} decisions, p99 {percentile(ms, 0.99):.1f} ms, {r.bot_hands} bot hands, "
                   f"{len(r.errors)} errors; waiting for the tables to expire ...")
            waited = asyncio.run(expired(port, r.ids, args.idle))
            rss_expired = rss_mib(proc.pid)
            lags = [x * 1000 for x in r.lags]
            figures = {"run": run, "db": db, "round": i + 1, "seconds": seconds, "bot_tables": r.bot_tables,
                       "bot_hands": r.bot_hands, "human_tables": r.human_tables, "human_hands": r.human_hands,
                       "decisions": len(ms), "p50_ms": percentile(ms, 0.5), "p99_ms": percentile(ms, 0.99),
                       "max_ms": max(ms, default=0), "errors": len(r.errors), "error_samples": r.errors[:20],
                       "cpu_server": cpu_server, "cpu_bots_client": cpu.get("bots", float("nan")),
                       "cpu_people_client": cpu.get("people", float("nan")), "lag_p99_ms": percentile(lags, 0.99),
                       "lag_max_ms": max(lags, default=0), "lag_bots_p99_ms": cpu.get("lag_bots_p99_ms", float("nan")),
                       "rss_end": rss_end, "rss_expired": rss_expired,
                       "expiry_wait_s": waited}
            bl.log(f"  p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, CPU server {cpu_server:.1f} s, "
                   f"clients {figures['cpu_bots_client']:.1f} + {figures['cpu_people_client']:.1f} s, lag p99 "
                   f"{figures['lag_p99_ms']:.1f} ms (bots' {figures['lag_bots_p99_ms']:.0f} ms), "
                   f"RSS {rss_end:.0f} -> {rss_expired:.0f} MiB "
                   f"(expired after {waited:.0f} s)")
            mine.append(figures)
    finally:
        proc.terminate()
        proc.wait(30)
        db_mib = sum(f.stat().st_size for f in Path(folder.name).iterdir()) / (1 << 20)
        folder.cleanup()
    if path is not None:
        bl.log(f"  the database's files at the end: {db_mib:.1f} MiB")
    rounds += mine
    return {"run": run, "db": db, "db_mib": db_mib, "decisions": len(every), "p50_ms": percentile(every, 0.5),
            "p99_ms": percentile(every, 0.99),
            "errors": sum(r["errors"] for r in mine), "rss_start": rss_start,
            "rss_expired": [r["rss_expired"] for r in mine], "loadavg_at_start": load}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of load a round (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds a run (default 3)")
    parser.add_argument("--runs", type=int, default=1, help="runs, each on a fresh server (default 1)")
    parser.add_argument("--bots", type=int, default=200, help="tables of four bots at once (default 200)")
    parser.add_argument("--people", type=int, default=50, help="tables with a scripted person (default 50)")
    parser.add_argument("--think", type=float, default=0.3, help="a person's think time, s (default 0.3)")
    parser.add_argument("--poll", type=float, default=5.0,
                        help="seconds between two asks for a bot table's log (default 5)")
    parser.add_argument("--idle", type=float, default=15.0, help="the server's --table-idle (default 15)")
    parser.add_argument("--bot-share", type=float, default=None,
                        help="the server's --bot-share (default: the server's own)")
    parser.add_argument("--db", default="none",
                        help="how the server keeps its tables, a comma-separated list alternated run by run: none "
                             "(memory), full or normal (a database file, --db-sync full or normal); default none")
    parser.add_argument("--no-write", action="store_true", help="print the section only")
    parser.add_argument("--no-wait", action="store_true", help="do not wait for other benchmarks to end (a smoke run)")
    parser.add_argument("--role", choices=["bots", "people"], help=argparse.SUPPRESS)  # a client process
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role is not None:
        return client_main(args)
    if args.seconds * args.rounds > 60:
        parser.error("at most 60 s of load a run (--seconds x --rounds)")
    modes = [m.strip() for m in args.db.split(",")]
    if not modes or any(m not in ("none", "full", "normal") for m in modes):
        parser.error(f"--db: none, full or normal, comma-separated; got {args.db!r}")
    if not args.no_wait:
        bl.wait_for_other_bench(600, bl.log)
    meta = {**bl.machine_info(PACKAGES), "seconds": args.seconds, "rounds": args.rounds, "runs": args.runs,
            "bots": args.bots, "people": args.people, "think": args.think, "idle": args.idle, "poll": args.poll,
            "bot_share": args.bot_share, "db": modes}
    rounds: list[dict[str, Any]] = []
    runs = [one_run(args, k + 1, rounds, m) for k in range(args.runs) for m in modes]
    section = render(meta, rounds, runs)
    out = None if args.no_write else Path(__file__).resolve().parent
    bl.publish(out, "tables", section, {"meta": meta, "runs": runs, "rounds": rounds}, "results_tables.json")
    return 0 if all(r["errors"] == 0 for r in rounds) else 1


if __name__ == "__main__":
    sys.exit(main())
