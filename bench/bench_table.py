#!/usr/bin/env python
"""Benchmark the table engine: hands played with random policies, against RiichiEnv.

    python bench/bench_table.py            # ≥ 5 s per measurement × 3 repetitions, writes bench/RESULTS.md
    python bench/bench_table.py --quick    # ≥ 1 s per measurement × 3 repetitions (smoke test)
    python bench/bench_table.py --no-write # print the section only
    python -m cProfile -s tottime bench/bench_table.py --loop 2000   # profile the in-process loop alone

What is timed, all in one run (the order of the measurements rotates from
one repetition to the next):

- ``hkscore play --preset P --seed S --hands N --policy random --out FILE``
  as a whole process (start-up, play, the JSON-lines log written to a file);
  hands/s = N / wall seconds. N is chosen so that a run lasts ≥ 5 s (from
  the in-process rate measured first), or given with ``--hands``.
- The same hands in this process through the Python API
  (``hkcore.cli.table.random_play``, which ``hkscore play --policy random``
  runs: the engine plays every seat's random choices itself): the engine
  alone (the log's lines made, nothing written), and with the log written
  to a file.
- ``Table`` driven from Python: a fresh ``Table`` from a seeded ``start``
  record per hand, then ``prompts()`` + ``submit()`` of a random legal action
  of the first open prompt until the hand is over; µs per decision (one
  ``prompts()`` call and one ``submit()``), with the seats' views and with
  ``prompts(views=False)``. Building the ``Table`` (the deal) is timed apart.
  The caller's share (the random choice and the decision dict) is included
  and also shown on its own.
- Two ``hkscore play`` processes started together (seeds S and S + 1, N
  hands each) against one: total hands/s = 2N / the wall time until both
  end; the ratio against the one-process run of the same repetition.
- The peer, RiichiEnv (a Rust riichi engine), in this process with its own
  ``RandomAgent`` for every seat and its log off
  (``RiichiEnv(skip_mjai_logging=True)``): one ``reset()`` deals one hand
  (the default single-kyoku game), ``step()`` until ``done()``; hands/s.
  An untimed check run with its log on confirms one ``start_kyoku`` and one
  ``end_kyoku`` per reset and counts how the hands end.

A hand is counted from its deal to its end (a win or a draw) on both sides:
``end_hand`` records in hkcore's log (checked against the command's own
count), resets played to ``done()`` for RiichiEnv. Medians of the
repetitions are quoted, min–max beside. Writes the ``table`` section of
bench/RESULTS.md and bench/results_table.json.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _benchlib as bl

SECTION = "table"
JSON_NAME = "results_table.json"
SEED = 1
PRESET = "bga-old-style"
PACKAGES = ("hkcore", "riichienv")

TARGET_HANDS_S = 5_000
TARGET_PEER_RATIO = 10.0
TARGET_DECISION_US = 10.0
TARGET_TWO_PROCESSES = 1.8


# --------------------------------------------------------------------------
# hkcore


def hkscore_command() -> list[str]:
    """The ``hkscore`` console script of this interpreter's environment."""
    script = Path(sys.executable).parent / "hkscore"
    if script.exists():
        return [str(script)]
    found = shutil.which("hkscore")
    return [found] if found else [sys.executable, "-m", "hkcore.cli"]


def play_args(preset: str, seed: int, hands: int, out: Path) -> list[str]:
    return [*hkscore_command(), "play", "--preset", preset, "--seed", str(seed), "--hands", str(hands),
            "--policy", "random", "--out", str(out)]


def count_log(path: Path) -> dict[str, int]:
    """Hands, wins, records and bytes of a log written by ``hkscore play``."""
    hands = wins = records = 0
    with open(path, "rb") as fh:
        for line in fh:
            records += 1
            if b'"event":"end_hand"' in line:
                hands += 1
                wins += b'"result":"win"' in line
    return {"hands": hands, "wins": wins, "records": records, "bytes": path.stat().st_size}


def _spawn(args: list[str], stderr: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(args, cwd=tempfile.gettempdir(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=stderr)


def run_processes(jobs: list[tuple[list[str], Path]], workdir: Path) -> dict[str, Any]:
    """Start every command at once; wall seconds until the last ends, each one's
    CPU seconds and peak RSS (``wait4``), its stderr and exit status."""
    errs = [open(workdir / f"stderr{i}.txt", "w+b") for i in range(len(jobs))]  # noqa: SIM115
    try:
        t0 = time.perf_counter()
        procs = [_spawn(args, err) for (args, _), err in zip(jobs, errs)]
        usage = {}
        left = {p.pid for p in procs}
        while left:
            pid, status, ru = os.wait4(-1, 0)
            if pid in left:
                left.discard(pid)
                usage[pid] = (os.waitstatus_to_exitcode(status), ru)
        wall = time.perf_counter() - t0
        for p in procs:  # reaped by wait4 above; tell Popen so
            p.returncode = usage[p.pid][0]
        out = []
        for p, err in zip(procs, errs):
            err.seek(0)
            code, ru = usage[p.pid]
            out.append({"status": code, "cpu_s": ru.ru_utime + ru.ru_stime, "maxrss_mb": ru.ru_maxrss / 1024,
                        "stderr": err.read().decode("utf-8", "replace").strip()})
    finally:
        for err in errs:
            err.close()
    for o, (args, _) in zip(out, jobs):
        if o["status"] != 0:
            raise SystemExit(f"{' '.join(args)} failed ({o['status']}): {o['stderr']}")
    return {"wall_s": wall, "procs": out}


def cli_once(preset: str, seed: int, hands: int, workdir: Path) -> dict[str, Any]:
    out = workdir / "one.jsonl"
    r = run_processes([(play_args(preset, seed, hands, out), out)], workdir)
    counted = count_log(out)
    p = r["procs"][0]
    played = f"{hands} hand{'s' * (hands != 1)} played"
    if counted["hands"] != hands or played not in p["stderr"]:
        raise SystemExit(f"hkscore play --hands {hands}: log holds {counted['hands']} hands; said {p['stderr']!r}")
    return {"wall_s": r["wall_s"], "hands_s": hands / r["wall_s"], "cpu_s": p["cpu_s"],
            "hands_cpu_s": hands / p["cpu_s"], "maxrss_mb": p["maxrss_mb"], **counted}


def cli_pair(preset: str, seed: int, hands: int, workdir: Path) -> dict[str, Any]:
    outs = [workdir / "pair0.jsonl", workdir / "pair1.jsonl"]
    r = run_processes([(play_args(preset, seed + k, hands, o), o) for k, o in enumerate(outs)], workdir)
    for o in outs:
        n = count_log(o)["hands"]
        if n != hands:
            raise SystemExit(f"two processes: {o.name} holds {n} hands, not {hands}")
    cpu = sum(p["cpu_s"] for p in r["procs"])
    return {"wall_s": r["wall_s"], "hands_s": 2 * hands / r["wall_s"], "cpu_s": cpu, "hands_cpu_s": 2 * hands / cpu,
            "cores_used": cpu / r["wall_s"], "maxrss_mb": max(p["maxrss_mb"] for p in r["procs"])}


def random_chooser(seed: int) -> Callable[[str], Any]:
    """What ``hkscore play --policy random`` gives every seat: one ``random`` bot's decide, seeded with ``seed``."""
    from hkcore.table.players.bots import RandomBot

    bot = RandomBot(None, seed).decide
    return lambda _seat: bot


def inprocess_once(preset: str, seed: int, hands: int, write_to: Path | None = None) -> dict[str, Any]:
    """The command's loop in this process (``hkcore.cli.table.random_play``,
    what ``hkscore play --policy random`` runs): the engine alone (the log's
    lines made and dropped), or with the log written to ``write_to``."""
    from hkcore.cli.table import random_play

    count: Counter[str] = Counter()
    rng = random.Random(seed)
    c0 = time.process_time()
    t0 = time.perf_counter()
    if write_to is None:
        played, _ = random_play(preset, seed, hands, rng, _Drop())
        wall = time.perf_counter() - t0
        cpu = time.process_time() - c0
    else:
        with open(write_to, "w", encoding="utf-8") as fh:
            played, _ = random_play(preset, seed, hands, rng, fh)
        wall = time.perf_counter() - t0
        cpu = time.process_time() - c0
        count.update(hands=count_log(write_to)["hands"])
    assert played == hands, (played, hands)
    return {"wall_s": wall, "hands_s": hands / wall, "cpu_s": cpu, "hands_cpu_s": hands / cpu, **count}


class _Drop:
    """A text sink that keeps nothing."""

    def write(self, text: str) -> int:
        return len(text)


def count_hands_inprocess(preset: str, seed: int, hands: int) -> dict[str, Any]:
    """Untimed: what the in-process loop plays (hands, wins, records, decisions)."""
    import io

    from hkcore.cli.table import random_play

    out = io.StringIO()
    played, wins = random_play(preset, seed, hands, random.Random(seed), out)
    return {"records": out.getvalue().count("\n"), "hands": played, "wins": wins}


def decisions_once(preset: str, seed: int, hands: int, views: bool) -> dict[str, Any]:
    """``Table`` driven from Python, ``hands`` hands from seeds seed, seed+1, ...:
    µs per decision (``prompts()`` + ``submit()``), µs per deal (``Table(start)``)."""
    from hkcore.table import Table

    rng = random.Random(seed)
    rand = rng.random
    perf, cpu = time.perf_counter, time.process_time
    decisions = 0
    loop_s = deal_s = loop_cpu = 0.0
    for h in range(hands):
        t0 = perf()
        t = Table({"event": "start", "preset": preset, "seed": seed + h})
        c1 = cpu()
        t1 = perf()
        prompts, submit = t.prompts, t.submit
        n = 0
        while True:
            ps = prompts(views)
            if not ps:
                break
            p = ps[0]
            acts = p["actions"]
            d = {"prompt": p["prompt"], "seat": p["seat"]}
            d.update(acts[int(rand() * len(acts))])
            submit(d)
            n += 1
        t2 = perf()
        loop_cpu += cpu() - c1
        deal_s += t1 - t0
        loop_s += t2 - t1
        decisions += n
    return {"hands": hands, "decisions": decisions, "us_per_decision": loop_s / decisions * 1e6,
            "cpu_us_per_decision": loop_cpu / decisions * 1e6, "us_per_deal": deal_s / hands * 1e6,
            "loop_s": loop_s, "deal_s": deal_s,
            "decisions_per_hand": decisions / hands}


def caller_share_us(preset: str, seed: int, n_prompts: int = 20_000) -> float:
    """µs per decision of the caller's own work in ``decisions_once`` (the random
    choice and the decision dict), timed over prompts recorded beforehand."""
    from hkcore.table import Table

    rng = random.Random(seed)
    recorded: list[dict[str, Any]] = []
    h = 0
    while len(recorded) < n_prompts:
        t = Table({"event": "start", "preset": preset, "seed": seed + h})
        h += 1
        while ps := t.prompts(False):
            p = ps[0]
            recorded.append(p)
            a = p["actions"][int(rng.random() * len(p["actions"]))]
            t.submit({"prompt": p["prompt"], "seat": p["seat"], **a})
    rand = rng.random
    t0 = time.perf_counter()
    for p in recorded:
        acts = p["actions"]
        d = {"prompt": p["prompt"], "seat": p["seat"]}
        d.update(acts[int(rand() * len(acts))])
    return (time.perf_counter() - t0) / len(recorded) * 1e6


# --------------------------------------------------------------------------
# RiichiEnv


def play_reset(env: Any, act: Callable[[Any], Any]) -> int:
    """One RiichiEnv ``reset()`` played to ``done()`` with ``act`` at every seat; the decisions asked."""
    decisions = 0
    obs = env.reset()
    while not env.done():
        actions = {pid: act(o) for pid, o in obs.items()}
        decisions += len(actions)
        obs = env.step(actions)
    return decisions


def peer_once(seed: int, hands: int, log_on: bool = False) -> dict[str, Any]:
    """RiichiEnv with its own RandomAgent at every seat, ``hands`` resets each
    played to ``done()``."""
    from riichienv import RiichiEnv
    from riichienv.agents import RandomAgent

    env = RiichiEnv(skip_mjai_logging=not log_on, seed=seed)
    agent = RandomAgent(seed=seed)
    act = agent.act
    decisions = 0
    ends: Counter[str] = Counter()
    c0 = time.process_time()
    t0 = time.perf_counter()
    for _ in range(hands):
        decisions += play_reset(env, act)
        if log_on:
            kinds = [e.get("type") for e in env.mjai_log]
            if kinds.count("start_kyoku") != 1 or kinds.count("end_kyoku") != 1:
                raise SystemExit(f"RiichiEnv: a reset played {kinds.count('start_kyoku')} hands, not 1")
            for e in env.mjai_log:
                if e.get("type") == "hora":
                    ends["win"] += 1
                    break
                if e.get("type") == "ryukyoku":
                    ends[f"draw: {e.get('reason', '?')}"] += 1
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return {"wall_s": wall, "hands_s": hands / wall, "cpu_s": cpu, "hands_cpu_s": hands / cpu,
            "decisions": decisions,
            "decisions_per_hand": decisions / hands, "us_per_decision": wall / decisions * 1e6,
            "ends": dict(ends)}


# --------------------------------------------------------------------------
# The run


def nice(n: float) -> int:
    """``n`` rounded up to two significant digits."""
    k = max(math.ceil(n), 10)
    step: int = 10 ** max(len(str(k)) - 2, 0)
    return -(-k // step) * step


def med(xs: list[float]) -> float:
    return statistics.median(xs)


def spread(xs: list[float]) -> tuple[float, float, float]:
    return med(xs), min(xs), max(xs)


def compile_bytecode() -> str:
    """The package's modules compiled to bytecode beside them, as ``pip install`` leaves them: where the
    environment sets PYTHONDONTWRITEBYTECODE (this machine's does) an editable install would otherwise
    compile every module from source at each start of ``hkscore``. Returns what was done."""
    import compileall
    import importlib.util

    dirs = []
    for name in ("hkcore", "hkcore.plugins"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            dirs.extend(spec.submodule_search_locations)
    ok = all(compileall.compile_dir(d, quiet=1) for d in dirs)
    env = " (PYTHONDONTWRITEBYTECODE is set here)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else ""
    return f"compiled to bytecode before timing{env}" if ok else "bytecode compilation failed"


def run(args: argparse.Namespace) -> dict[str, Any]:
    import hkcore
    from hkcore import core

    preset, seed, reps = args.preset, args.seed, args.repeats
    secs = 1.0 if args.quick else args.seconds
    info = bl.machine_info(PACKAGES)
    out: dict[str, Any] = {"machine": info, "hkcore": bl.hkcore_meta(hkcore, core), "preset": preset,
                           "seed": seed, "repeats": reps, "seconds_per_measurement": secs,
                           "command": hkscore_command()}
    out["bytecode"] = compile_bytecode()
    workdir = Path(tempfile.mkdtemp(prefix="bench_table_"))
    try:
        # warm-up and calibration: the in-process rate per CPU-second sets N, so that a run lasts
        # ≥ secs however busy the machine is (the command is slower still: it writes the log)
        bl.log("warm-up and calibration ...")
        cal = inprocess_once(preset, seed, 300)
        hands = args.hands or nice(cal["hands_cpu_s"] * secs)
        dec_hands = args.decision_hands or nice(cal["hands_cpu_s"] * secs)
        pcal = peer_once(seed, 300)
        peer_hands = args.peer_hands or nice(pcal["hands_cpu_s"] * secs)
        out.update(hands=hands, decision_hands=dec_hands, peer_hands=peer_hands)
        bl.log(f"N = {hands} hands per run (in-process {cal['hands_cpu_s']:.0f} hands per CPU-s); {dec_hands} "
               f"hands of Table decisions; RiichiEnv {peer_hands} hands ({pcal['hands_cpu_s']:.0f} per CPU-s)")

        # untimed checks
        out["startup"] = cli_once(preset, seed, 1, workdir)
        out["inprocess_counts"] = count_hands_inprocess(preset, seed, min(hands, 2000))
        out["peer_check"] = peer_once(seed + 1000, min(peer_hands, 500), log_on=True)
        out["caller_share_us"] = caller_share_us(preset, seed)

        if not args.quick:
            out["waited_for_other_bench_s"] = bl.wait_for_other_bench(args.wait_for_others, bl.log)
            out["waited_for_quiet_s"], out["others_cores_before_timing"] = bl.wait_for_quiet(args.wait_for_quiet)
        out["other_bench_at_start"] = bl.other_bench_processes()
        out["loadavg_before_timing"] = [round(x, 2) for x in os.getloadavg()]

        measures: list[tuple[str, Callable[[], dict[str, Any]]]] = [
            ("cli_one", lambda: cli_once(preset, seed, hands, workdir)),
            ("cli_two", lambda: cli_pair(preset, seed, hands, workdir)),
            ("inprocess_engine", lambda: inprocess_once(preset, seed, hands)),
            ("inprocess_log", lambda: inprocess_once(preset, seed, hands, workdir / "inproc.jsonl")),
            ("decisions_views", lambda: decisions_once(preset, seed, dec_hands, True)),
            ("decisions_noviews", lambda: decisions_once(preset, seed, dec_hands, False)),
            ("peer", lambda: peer_once(seed, peer_hands)),
        ]
        res: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in measures}
        ru0 = resource.getrusage(resource.RUSAGE_SELF)
        t_start = time.perf_counter()
        for r in range(reps):
            k = r % len(measures)
            for name, fn in measures[k:] + measures[:k]:
                bl.log(f"repetition {r + 1}/{reps}: {name} ...")
                res[name].append(bl.others_cores(fn))
        out["timing_wall_s"] = time.perf_counter() - t_start
        ru1 = resource.getrusage(resource.RUSAGE_SELF)
        out["self_cpu_s_in_process_measures"] = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
        out["loadavg_after_timing"] = [round(x, 2) for x in os.getloadavg()]
        out["other_bench_at_end"] = bl.other_bench_processes()
        out["runs"] = res
        out["ratios_two_over_one"] = [b["hands_s"] / a["hands_s"] for a, b in zip(res["cli_one"], res["cli_two"])]

        if args.presets_too:
            per: dict[str, list[float]] = {}
            from hkcore.preset import builtin_ids

            for p in builtin_ids():
                n = nice(inprocess_once(p, seed, 100)["hands_cpu_s"] * min(secs, 2.0))
                per[p] = [inprocess_once(p, seed, n)["hands_s"] for _ in range(reps)]
                bl.log(f"in-process, {p}: {med(per[p]):.0f} hands/s")
            out["inprocess_by_preset"] = per
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return out


# --------------------------------------------------------------------------
# The section


def f0(x: float) -> str:
    return f"{x:,.0f}"


def fr(xs: list[float], fmt: Callable[[float], str] = f0) -> tuple[str, str]:
    m, lo, hi = spread(xs)
    return fmt(m), f"{fmt(lo)}–{fmt(hi)}"


def fus(x: float) -> str:
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def yes(ok: bool) -> str:
    return "yes" if ok else "**no**"


def section(d: dict[str, Any]) -> str:
    m = d["machine"]
    runs = d["runs"]
    preset, seed, n = d["preset"], d["seed"], d["hands"]
    hs = {k: [r["hands_s"] for r in v] for k, v in runs.items() if k in (
        "cli_one", "cli_two", "inprocess_engine", "inprocess_log", "peer")}
    hc = {k: f0(med([r["hands_cpu_s"] for r in runs[k]])) for k in hs}
    one, _two, _eng, _logw, peer = (med(hs[k]) for k in ("cli_one", "cli_two", "inprocess_engine",
                                                        "inprocess_log", "peer"))
    dv = [r["us_per_decision"] for r in runs["decisions_views"]]
    dn = [r["us_per_decision"] for r in runs["decisions_noviews"]]
    deal = [r["us_per_deal"] for r in runs["decisions_noviews"] + runs["decisions_views"]]
    ratios = d["ratios_two_over_one"]
    ratio_med = med(ratios)
    peer_ratio = one / peer
    c1 = runs["cli_one"][0]
    st = d["startup"]
    ic = d["inprocess_counts"]
    pc = d["peer_check"]
    dph = med([r["decisions_per_hand"] for r in runs["decisions_noviews"]])
    peer_dph = med([r["decisions_per_hand"] for r in runs["peer"]])
    cmd = f"hkscore play --preset {preset} --seed {seed} --hands {n} --policy random --out FILE"
    lines = [
        "## Table: hands played with random policies, against RiichiEnv",
        "",
        (f"- Date: {m['date']}; hkcore revision: {m['git']}; core `{d['hkcore']['implementation']}`; "
        f"Python {m['python']}"),
        (f"- Machine: {m['platform']}; CPU: {m['cpu']}; nproc: {m['nproc']} (**2 cores shared** with other "
        f"agents' work while this ran: the figures are noisy, and the two-process run gets whatever share of "
        f"the two cores is free); load average before timing {d['loadavg_before_timing']}, after "
        f"{d['loadavg_after_timing']}"),
        "- Packages: " + ", ".join(f"{k} {v}" for k, v in m["packages"].items()),
        (f"- Method: preset `{preset}`, seed {seed}; every seat plays the `random` policy (hkcore) or "
        f"`riichienv.agents.RandomAgent` (RiichiEnv); {d['repeats']} repetitions of each measurement, their "
        f"order rotating; medians quoted, min–max beside (raw runs in `bench/{JSON_NAME}`); beside the "
        f"wall-clock figures, "
        f"the same work per CPU-second of the processes timed (less disturbed by the other work on the "
        f"machine: an idle machine gives about the same figures both ways). A hand is counted "
        f"from its deal to its end (a win or a draw). Each measurement is sized for "
        f"{d['seconds_per_measurement']:g} CPU-s at the rate of a first, cold calibration run (the warm runs "
        f"take less): hkcore {n:,} hands per run ({d['decision_hands']:,} in the "
        f"`Table` loop), RiichiEnv {d['peer_hands']:,}."),
        "",
        "| measurement | hands/s (median) | min–max | hands per CPU-s | target | met? |",
        "|---|---:|---:|---:|---|:---:|",
        (f"| `{cmd}`: one process, start-up and log file included | {fr(hs['cli_one'])[0]} | "
        f"{fr(hs['cli_one'])[1]} | {hc['cli_one']} | ≥ {TARGET_HANDS_S:,} | {yes(one >= TARGET_HANDS_S)} |"),
        (f"| the same loop in-process (`hkcore.cli.table.random_play`), log "
        f"written | {fr(hs['inprocess_log'])[0]} | {fr(hs['inprocess_log'])[1]} | {hc['inprocess_log']} | — | — |"),
        (f"| the same loop in-process, engine alone (the lines made, nothing written) | "
        f"{fr(hs['inprocess_engine'])[0]} | {fr(hs['inprocess_engine'])[1]} | {hc['inprocess_engine']} | — | — |"),
        (f"| two `hkscore play` processes at once (seeds {seed} and {seed + 1}), total | {fr(hs['cli_two'])[0]} | "
        f"{fr(hs['cli_two'])[1]} | {hc['cli_two']} | ≥ {TARGET_TWO_PROCESSES}× one | "
        f"{yes(ratio_med >= TARGET_TWO_PROCESSES)} ({ratio_med:.2f}×) |"),
        (f"| RiichiEnv {m['packages'].get('riichienv')}, `RiichiEnv(skip_mjai_logging=True)` + `RandomAgent`, "
        f"log off | {fr(hs['peer'])[0]} | {fr(hs['peer'])[1]} | {hc['peer']} | — | — |"),
        (f"| ratio: `hkscore play` (log written) / RiichiEnv (log off) | {peer_ratio:.2f}× | "
        f"{min(a['hands_s'] / b['hands_s'] for a, b in zip(runs['cli_one'], runs['peer'])):.2f}–"
        f"{max(a['hands_s'] / b['hands_s'] for a, b in zip(runs['cli_one'], runs['peer'])):.2f}× | "
        f"{med([r['hands_cpu_s'] for r in runs['cli_one']]) / med([r['hands_cpu_s'] for r in runs['peer']]):.2f}× | "
        f"≥ {TARGET_PEER_RATIO:g}× | {yes(peer_ratio >= TARGET_PEER_RATIO)} |"),
        "",
        "| `Table` driven from Python | µs (median) | min–max | CPU µs | target | met? |",
        "|---|---:|---:|---:|---|:---:|",
        (f"| per decision, `prompts()` (with views) + `submit()` | {fr(dv, fus)[0]} | {fr(dv, fus)[1]} | "
        f"{fus(med([r['cpu_us_per_decision'] for r in runs['decisions_views']]))} | "
        f"≤ {TARGET_DECISION_US:g} | {yes(med(dv) <= TARGET_DECISION_US)} |"),
        (f"| per decision, `prompts(views=False)` + `submit()` | {fr(dn, fus)[0]} | {fr(dn, fus)[1]} | "
        f"{fus(med([r['cpu_us_per_decision'] for r in runs['decisions_noviews']]))} | "
        f"≤ {TARGET_DECISION_US:g} | {yes(med(dn) <= TARGET_DECISION_US)} |"),
        (f"| per hand, `Table(start)` from a seed (the deal; not in the figures above) | {fr(deal, fus)[0]} | "
        f"{fr(deal, fus)[1]} | — | — | — |"),
        (f"| RiichiEnv, per decision (a hand's wall time / its `RandomAgent.act` calls) | "
        f"{fr([r['us_per_decision'] for r in runs['peer']], fus)[0]} | "
        f"{fr([r['us_per_decision'] for r in runs['peer']], fus)[1]} | "
        f"{fus(med([r['cpu_s'] / r['decisions'] * 1e6 for r in runs['peer']]))} | — | — |"),
        "",
        "Notes:",
        (f"- The `Table` loop: a fresh `Table` per hand from `{{\"event\": \"start\", \"preset\": \"{preset}\", "
        f"\"seed\": s}}` ({d['decision_hands']:,} hands per run), then `prompts()` and a `submit()` of a random "
        f"action of the first open prompt until the hand is over (one `prompts()` per decision, as "
        f"`hkscore play` does); {dph:.1f} decisions per hand. The caller's share (the random choice and the "
        f"decision dict, timed alone on recorded prompts) is {d['caller_share_us']:.2f} µs of each decision. "
        f"RiichiEnv asks {peer_dph:.1f} decisions per hand."),
        (f"- Start-up: `hkscore play --hands 1` takes {st['wall_s']:.2f} s as a whole process (imports and the "
        f"preset; the package's modules {d.get('bytecode', 'as found')}, as `pip install` leaves them), part of "
        f"every command run above; a run of {n:,} hands uses {c1['cpu_s']:.2f} CPU-s in "
        f"{c1['wall_s']:.2f} s (peak RSS {c1['maxrss_mb']:.0f} MB) and writes {c1['records'] / c1['hands']:.1f} "
        f"records, {c1['bytes'] / c1['hands'] / 1024:.1f} KB per hand; {c1['wins']:,} of its {c1['hands']:,} "
        f"hands end in a win (random play rarely completes a hand), the rest in an exhaustive draw. The "
        f"in-process check played {ic['hands']:,} hands, {ic['wins']:,} won."),
        f"- Two processes: they used {med([r['cores_used'] for r in runs['cli_two']]):.2f} of the 2 cores "
        f"(CPU-s / wall s, median); ratio to the one-process run of the same repetition "
        f"{', '.join(f'{x:.2f}×' for x in ratios)}"
        + (". With less than 1.8 cores to share, this ratio measures the cores left free by the other work, "
           "not how the engine scales: to be repeated on a quiet machine."
           if med([r["cores_used"] for r in runs["cli_two"]]) < TARGET_TWO_PROCESSES else "."),
        (f"- RiichiEnv: the default game (one kyoku per `reset()`), seeded (`RiichiEnv(seed={seed})`, "
        f"`RandomAgent(seed={seed})`). A check run of {sum(pc['ends'].values()):,} hands with its log on "
        f"found one `start_kyoku` and one `end_kyoku` per reset; they ended: "
        f"{', '.join(f'{k} {v:,}' for k, v in sorted(pc['ends'].items()))}. Riichi and Hong Kong play differ "
        f"(136 tiles and a 14-tile dead wall there; `{preset}` has bonus tiles): the work per hand is "
        f"of the same kind — deal, draws, discards, claim checks for three seats, wins scored."),
    ]
    names = {"cli_one": "one process", "cli_two": "two processes", "inprocess_engine": "in-process engine",
             "inprocess_log": "in-process with log", "decisions_views": "`Table` with views",
             "decisions_noviews": "`Table` without views", "peer": "RiichiEnv"}
    lines.append("- Other work on the machine while each measurement ran (cores busy outside this run, from "
                 "`/proc/stat`; median over the repetitions, max in brackets): "
                 + ", ".join(f"{names[k]} {med([r['others_cores'] for r in v]):.2f} "
                             f"({max(r['others_cores'] for r in v):.2f})" for k, v in runs.items())
                 + (f"; before timing {d['others_cores_before_timing']:.2f} after waiting "
                    f"{d['waited_for_quiet_s']:.0f} s for ≤ 0.5" if "waited_for_quiet_s" in d else "") + ".")
    if d.get("other_bench_at_start") or d.get("other_bench_at_end"):
        lines.append(f"- Other bench scripts ran: at the start {d['other_bench_at_start']}, at the end "
                     f"{d['other_bench_at_end']}.")
    if "inprocess_by_preset" in d:
        per = d["inprocess_by_preset"]
        lines.append("- In-process, engine alone, by preset (hands/s, median): "
                     + ", ".join(f"`{p}` {f0(med(v))}" for p, v in per.items()) + ".")
    if "bots" in d:
        lines += bots_section(d["bots"])
    lines += [
        "",
        (f"Reproduce: build the compiled core (`pip install -e .`), install the peer (`pip install -e "
        f"\".[bench]\"`), then `python bench/bench_table.py` (`--quick` for a short run, `--help` for "
        f"options); the command line alone: `{cmd}`. Profile the in-process loop: "
        f"`python -m cProfile -s tottime bench/bench_table.py --loop 2000`."),
    ]
    return "\n".join(lines) + "\n"


#: one ``hkcore.simulate`` call timed in a fresh interpreter (after a warm-up of two walls: the core's tables)
_BOTS_ONCE = """
import json, resource, sys, time
from hkcore.simulation import simulate
preset, seed, walls, jobs, bots, fast = json.loads(sys.argv[1])
simulate([preset], bots, hands=2, seed=seed + 1, fast=fast)
def cpu():
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime
c0, t0 = cpu(), time.perf_counter()
s = simulate([preset], bots, hands=walls, seed=seed, jobs=jobs, fast=fast)
wall, used = time.perf_counter() - t0, cpu() - c0
print(json.dumps([wall, used, s.presets[preset].hands]))
"""


def bots_once(preset: str, seed: int, walls: int, jobs: int, bots: str = "efficiency",
              fast: bool = True) -> dict[str, Any]:
    """``hkcore.simulate`` with four ``bots`` (no log kept beyond the
    table's own): ``walls`` walls, each played in its four rotations
    (``fast=False``: every decision through ``prompts()``), timed in a fresh
    interpreter as a program using the library would run it (its imports and
    a two-wall warm-up before the clock; with ``jobs`` 2 the pool's start inside it)."""
    out = subprocess.run([sys.executable, "-c", _BOTS_ONCE, json.dumps([preset, seed, walls, jobs, bots, fast])],
                         capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(),
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                             [str(bl.REPO_ROOT), os.environ.get("PYTHONPATH", "")])))
    wall, cpu, hands = json.loads(out.stdout)
    return {"wall_s": wall, "hands": hands, "hands_s": hands / wall, "cpu_s": cpu, "hands_cpu_s": hands / cpu}


class ShantenGreedyAgent:
    """A shanten-greedy player for RiichiEnv (its package ships only
    ``RandomAgent``; this one is written on its ``calculate_shanten``): wins
    (tsumo, ron) whenever it may; otherwise discards the first legal tile
    that leaves the fewest shanten; passes every call, declares no riichi
    and no kan (as the efficiency bot, a hand played for the fewest tiles away)."""

    def __init__(self) -> None:
        from riichienv import ActionType, calculate_shanten

        self.shanten = calculate_shanten
        self.wins = (ActionType.TSUMO, ActionType.RON)
        self.discard = ActionType.DISCARD
        self.pass_ = ActionType.PASS

    def act(self, obs: Any) -> Any:
        legal = obs.legal_actions()
        discards = []
        for a in legal:
            if a.action_type in self.wins:
                return a
            if a.action_type == self.discard:
                discards.append(a)
        if not discards:
            return next((a for a in legal if a.action_type == self.pass_), legal[0])
        hand = list(obs.hand)
        best, chosen = 99, discards[0]
        for a in discards:
            rest = list(hand)
            rest.remove(a.tile)
            n = self.shanten(rest)
            if n < best:
                best, chosen = n, a
        return chosen


def greedy_peer_once(seed: int, hands: int) -> dict[str, Any]:
    """RiichiEnv, log off, with ``ShantenGreedyAgent`` at every seat: ``hands`` resets played to ``done()``."""
    from riichienv import RiichiEnv

    env = RiichiEnv(skip_mjai_logging=True, seed=seed)
    act = ShantenGreedyAgent().act
    decisions = 0
    c0, t0 = bl.own_cpu_s(), time.perf_counter()
    for _ in range(hands):
        decisions += play_reset(env, act)
    wall = time.perf_counter() - t0
    cpu = bl.own_cpu_s() - c0
    return {"wall_s": wall, "hands": hands, "hands_s": hands / wall, "cpu_s": cpu, "hands_cpu_s": hands / cpu,
            "decisions_per_hand": decisions / hands}


def bots_run(preset: str, seed: int, walls: int, repeats: int) -> dict[str, Any]:
    """Four ``efficiency`` bots (one process, two), four ``value`` bots and
    the RiichiEnv shanten-greedy peer, ``repeats`` times in rotating order."""
    from hkcore import core
    from hkcore.table.players import fastplay

    bots_once(preset, seed, 2, 1)  # warm-up: the core builds its tables on first use
    cal = greedy_peer_once(seed, 50)
    peer_hands = nice(cal["hands_cpu_s"] * 5)
    vwalls = max(5, walls // 8)
    measures: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("efficiency_one", lambda: bots_once(preset, seed, walls, 1)),
        # two processes play twice the walls: each as many as the one process, so the pool's start is as small a
        # share of the run as the one process's own
        ("efficiency_two", lambda: bots_once(preset, seed, 2 * walls, 2)),
        ("efficiency_prompts", lambda: bots_once(preset, seed, vwalls, 1, fast=False)),
        ("value_one", lambda: bots_once(preset, seed, vwalls, 1, "value")),
        ("peer_greedy", lambda: greedy_peer_once(seed, peer_hands)),
    ]
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k, _ in measures}
    for rep in range(repeats):
        for k, fn in measures[rep % len(measures):] + measures[:rep % len(measures)]:
            bl.log(f"bots: {k} (repetition {rep + 1}) ...")
            runs[k].append(bl.others_cores(fn))
    return {"date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "preset": preset, "seed": seed,
            "walls": walls, "value_walls": vwalls, "peer_hands": peer_hands, "repeats": repeats,
            "hand_loop": fastplay.IMPLEMENTATION, "core": core.IMPLEMENTATION,
            "revision": bl.git_revision(), "loadavg": list(os.getloadavg()),
            "runs": runs}


def bots_section(b: dict[str, Any]) -> list[str]:
    """The lines of the bots' table (issue 25's speed targets)."""
    r = b["runs"]

    def m(k: str, f: str) -> float:
        return med([x[f] for x in r[k]])

    def rng(k: str, f: str) -> str:
        xs = [x[f] for x in r[k]]
        return f"{min(xs):,.0f}–{max(xs):,.0f}"

    peer_cpu = m("peer_greedy", "hands_cpu_s")
    peer_wall = m("peer_greedy", "hands_s")
    e1, e2 = m("efficiency_one", "hands_cpu_s"), m("efficiency_two", "hands_s")
    target = max(2000.0, 8 * peer_cpu)

    def met(v: float, t: float) -> str:
        return "yes" if v >= t else "**no**"

    rows = [
        ("`hkcore.simulate([P], \"efficiency\", jobs=1)`: four efficiency bots, one process", "efficiency_one",
         f"≥ {target:,.0f} (2,000 and 8× the peer)", met(e1, target)),
        ("the same bots, every decision through `prompts()` (`fast=False`: the path before the hand loop)",
         "efficiency_prompts", "—", "—"),
        ("the same, `jobs=2` (two worker processes), total", "efficiency_two",
         f"≥ 1.8× one ({1.8 * m('efficiency_one', 'hands_s'):,.0f} wall)",
         met(e2, 1.8 * m("efficiency_one", "hands_s"))),
        ("`hkcore.simulate([P], \"value\", jobs=1)`: four value bots", "value_one", "≥ 1,000",
         met(m("value_one", "hands_cpu_s"), 1000)),
        ("RiichiEnv 0.4.11, log off, `ShantenGreedyAgent` (bench/bench_table.py) at every seat", "peer_greedy",
         "—", "—"),
    ]
    lines = [
        "",
        (f"Bots (issue 25), measured {b['date']} on the 2-core machine, which other work may share (load "
         f"average {', '.join(f'{x:.1f}' for x in b['loadavg'])} when done): preset `{b['preset']}`, seed "
         f"{b['seed']}, {b['walls']} walls × 4 rotations ({4 * b['walls']:,} hands) for efficiency in one process "
         f"and twice that for two processes (each plays as many walls as the one), "
         f"{b['value_walls']} walls for value, {b['peer_hands']:,} RiichiEnv hands; {b['repeats']} repetitions "
         f"in rotating order, each `simulate` call timed in a fresh interpreter after a two-wall warm-up; "
         f"medians (min–max of the wall-clock rate beside); per CPU-second counts the "
         f"workers' CPU too. The efficiency hands are played inside the engine (hand loop "
         f"`{b['hand_loop']}`, `hkcore.table.players.fastplay`: the same decisions as through `prompts()`, held equal "
         f"by tests/test_fastplay.py)."),
        "",
        "| measurement | hands per CPU-s (median) | hands/s wall (median) | min–max | target | met? |",
        "|---|---:|---:|---:|---|:---:|",
    ]
    for label, k, t, ok in rows:
        lines.append(f"| {label} | {m(k, 'hands_cpu_s'):,.0f} | {m(k, 'hands_s'):,.0f} | {rng(k, 'hands_s')} "
                     f"| {t} | {ok} |")
    lines.append(f"| ratio: efficiency (one process) / the RiichiEnv greedy peer | {e1 / peer_cpu:.2f}× | "
                 f"{m('efficiency_one', 'hands_s') / peer_wall:.2f}× | — | ≥ 8× | {met(e1 / peer_cpu, 8)} |")
    minutes = 2_000_000 / e2 / 60
    lines.append("")
    lines.append(f"At the two-process rate, `hkscore simulate` of 100,000 walls × 5 presets (2,000,000 hands) would "
                 f"take about {minutes:,.1f} minutes on this machine (`{b['preset']}`'s rate for every preset; "
                 f"target well under 10, read as at most 7: {'met' if minutes <= 7 else '**not met**'}; the "
                 "whole run is timed in the Simulation section).")
    lines.append(f"Reproduce the bots' table: `python bench/bench_table.py --efficiency {b['walls']}` (writes this "
                 "table into the section and `bots` into bench/results_table.json; `--no-write` prints it).")
    return lines


def loop_only(preset: str, seed: int, hands: int) -> None:
    """The in-process loop alone (for a profiler): ``hands`` hands, nothing written."""
    r = inprocess_once(preset, seed, hands)
    print(f"{hands} hands in {r['wall_s']:.2f} s: {r['hands_s']:.0f} hands/s", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="≥ 1 s per measurement (smoke test)")
    ap.add_argument("--seconds", type=float, default=5.0, help="least seconds per measurement (default 5)")
    ap.add_argument("--repeats", type=int, default=3, help="repetitions of each measurement (default 3)")
    ap.add_argument("--preset", default=PRESET, help=f"preset id (default {PRESET})")
    ap.add_argument("--seed", type=int, default=SEED, help=f"seed (default {SEED})")
    ap.add_argument("--hands", type=int, help="hands per hkscore run (default: enough for --seconds)")
    ap.add_argument("--decision-hands", type=int, help="hands per Table-decisions run (default: from --seconds)")
    ap.add_argument("--peer-hands", type=int, help="hands per RiichiEnv run (default: from --seconds)")
    ap.add_argument("--no-presets", dest="presets_too", action="store_false",
                    help="skip the in-process line for each built-in preset")
    ap.add_argument("--wait-for-others", type=float, default=300.0, metavar="SECONDS",
                    help="wait up to this long for other bench_*.py scripts to end (default 300; not with --quick)")
    ap.add_argument("--wait-for-quiet", type=float, default=300.0, metavar="SECONDS",
                    help="wait up to this long until other work takes ≤ 0.5 cores (default 300; not with --quick)")
    ap.add_argument("--allow-python", action="store_true", help="run on the pure-Python core (do not commit)")
    ap.add_argument("--output-dir", type=Path, default=bl.BENCH_DIR, help="where RESULTS.md and the JSON go")
    ap.add_argument("--no-write", action="store_true", help="print the section only")
    ap.add_argument("--from-json", type=Path, metavar="FILE",
                    help="rewrite the section from a results_table.json instead of measuring")
    ap.add_argument("--loop", type=int, metavar="N", help="only play N hands in-process (for a profiler)")
    ap.add_argument("--efficiency", type=int, metavar="WALLS",
                    help="only time the bots (issue 25): four efficiency bots over WALLS walls (x4 rotations), "
                         "jobs 1 and 2, four value bots, the RiichiEnv shanten-greedy peer; the section is "
                         "rewritten from the JSON with the new bots' table")
    args = ap.parse_args(argv)

    from hkcore import core

    if args.loop is not None:
        loop_only(args.preset, args.seed, args.loop)
        return 0
    if args.efficiency is not None:
        old = json.loads((args.output_dir / JSON_NAME).read_text(encoding="utf-8"))
        old["bots"] = bots_run(args.preset, args.seed, args.efficiency, args.repeats)
        bl.publish(None if args.no_write else args.output_dir, SECTION, section(old), old, JSON_NAME)
        return 0
    if core.IMPLEMENTATION != "cython" and not args.allow_python:
        print(f"bench_table: the compiled core is not active ({core.IMPLEMENTATION}); build it "
              "(pip install -e .) or pass --allow-python", file=sys.stderr)
        return 2
    try:
        import riichienv  # noqa: F401
    except ImportError:
        print("bench_table: the peer is missing: pip install -e \".[bench]\" (riichienv)", file=sys.stderr)
        return 2
    d = json.loads(args.from_json.read_text(encoding="utf-8")) if args.from_json else run(args)
    text = section(d)
    if core.IMPLEMENTATION != "cython":
        text = text.replace("\n\n", f"\n\n> **Warning**: measured on the `{core.IMPLEMENTATION}` core.\n\n", 1)
    bl.publish(None if args.no_write else args.output_dir, SECTION, text, d, JSON_NAME)
    return 0


if __name__ == "__main__":
    sys.exit(main())
