#!/usr/bin/env python
"""Benchmark ``hkcore.table.Env``: steps/s with random legal actions, beside
the ``Table`` loop it is built on and RiichiEnv's own env, in one run.

    python bench/bench_env.py             # ≥ 3 s per measurement × 3 repetitions, writes bench/RESULTS.md
    python bench/bench_env.py --quick     # ≥ 0.5 s per measurement (smoke test)
    python bench/bench_env.py --no-write  # print the section only

What is timed (the order of the measurements rotates between repetitions):

- ``Env``: ``reset(seed=s)`` then ``step({seat: random.choice(obs.legal())})``
  for every seat that must act, until ``done``; each step builds the
  observations (prompt with view, mask, vector) of the seats asked next.
  Steps/s, the resets included in the time.
- The same hands through ``Table`` directly, the loop ``Env`` wraps:
  ``prompts()`` (with views) and a ``submit()`` of a random legal action per
  seat asked; prompts/s (a prompt answered is a step's share of one seat).
- RiichiEnv (the peer, a Rust riichi env, if installed): ``reset()`` and
  ``step({pid: RandomAgent.act(obs)})`` until ``done()``; steps/s.

Medians of the repetitions, min–max beside; bench/RESULTS.md's ``env``
section and bench/results_env.json.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _benchlib import BENCH_DIR, hkcore_meta, log, machine_info, publish

PRESET = "bga-old-style"


def env_once(hands: int, seed: int) -> dict[str, float]:
    from hkcore.table import Env
    env = Env(PRESET)
    rng = random.Random(seed)
    choice = rng.choice
    steps = decisions = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for h in range(hands):
        obs = env.reset(seed=seed + h)
        done = False
        while not done:
            decisions += len(obs)
            obs, _, done, _ = env.step({s: choice(o.legal()) for s, o in obs.items()})
            steps += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"steps_s": steps / wall, "steps_cpu_s": steps / cpu, "steps_per_hand": steps / hands,
            "decisions_per_step": decisions / steps}


def table_once(hands: int, seed: int) -> dict[str, float]:
    from hkcore.table import Table
    rng = random.Random(seed)
    choice = rng.choice
    answered = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for h in range(hands):
        t = Table({"event": "start", "preset": PRESET, "seed": seed + h})
        while not t.over:
            ps = t.prompts()
            n = ps[0]["prompt"]
            for p in ps:
                d = {"prompt": p["prompt"], "seat": p["seat"]}
                d.update(choice(p["actions"]))
                t.submit(d)
                answered += 1
                if t.over or t._prompt_no != n:
                    break
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"prompts_s": answered / wall, "prompts_cpu_s": answered / cpu}


def peer_once(hands: int, seed: int) -> dict[str, float]:
    from riichienv import RiichiEnv
    from riichienv.agents import RandomAgent
    env = RiichiEnv(skip_mjai_logging=True, seed=seed)
    act = RandomAgent(seed=seed).act
    steps = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(hands):
        obs = env.reset()
        while not env.done():
            obs = env.step({pid: act(o) for pid, o in obs.items()})
            steps += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"steps_s": steps / wall, "steps_cpu_s": steps / cpu, "steps_per_hand": steps / hands}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    import hkcore
    from hkcore import core
    if core.IMPLEMENTATION != "cython":
        raise SystemExit("bench_env: the compiled core is not in use (build it: setup.py build_ext --inplace)")
    try:
        import riichienv  # noqa: F401
        have_peer = True
    except ImportError:
        have_peer = False
        log("bench_env: riichienv is not installed (pip install -e \".[bench]\"): the peer is left out")
    target = 0.5 if args.quick else 3.0
    runs: dict[str, Any] = {"env": env_once, "table": table_once, **({"riichienv": peer_once} if have_peer else {})}
    sizes = {}
    for name, fn in runs.items():  # calibration: hands for ≥ target seconds (after a warm-up hand)
        fn(2, 1)
        t0 = time.perf_counter()
        fn(20, 1)
        per_hand = (time.perf_counter() - t0) / 20
        sizes[name] = max(20, int(target / per_hand))
    results: dict[str, list[dict[str, float]]] = {name: [] for name in runs}
    names = list(runs)
    for r in range(args.repeats):
        for name in names[r % len(names):] + names[:r % len(names)]:
            results[name].append(runs[name](sizes[name], 1 + r * 100_000))
            log(f"{name} run {r + 1}: {results[name][-1]}")

    def med(name: str, key: str) -> tuple[float, float, float]:
        xs = [x[key] for x in results[name]]
        return statistics.median(xs), min(xs), max(xs)

    m = machine_info(["hkcore", "riichienv", "gymnasium", "pettingzoo"])
    e, ec = med("env", "steps_s"), med("env", "steps_cpu_s")
    t, tc = med("table", "prompts_s"), med("table", "prompts_cpu_s")
    lines = [
        "## Env: `hkcore.table.Env` steps with random legal actions",
        "",
        f"- Date: {m['date']}; hkcore revision: {m['git']}; core `{core.IMPLEMENTATION}`; Python {m['python']}",
        f"- Machine: {m['platform']}; CPU: {m['cpu']}; nproc: {m['nproc']} (**2 cores shared** with other agents' "
        f"work while this ran: the figures are noisy); load average at start {m['loadavg_at_start']}",
        f"- Method: preset `{PRESET}`, a uniformly random legal action for every seat asked; {args.repeats} "
        f"repetitions of each measurement, their order rotating; medians quoted, min–max beside (raw runs in "
        f"`bench/results_env.json`). Hands per run: Env {sizes['env']:,}, Table {sizes['table']:,}"
        + (f", RiichiEnv {sizes['riichienv']:,}" if have_peer else "") + ".",
        "",
        "| measurement | per s (median) | min–max | per CPU-s |",
        "|---|---:|---:|---:|",
        f"| `Env.step` (observations: prompt and view, mask, vector of each seat asked next), steps | "
        f"{e[0]:,.0f} | {e[1]:,.0f}–{e[2]:,.0f} | {ec[0]:,.0f} |",
        f"| the loop it wraps: `Table.prompts()` + `submit()`, prompts answered | "
        f"{t[0]:,.0f} | {t[1]:,.0f}–{t[2]:,.0f} | {tc[0]:,.0f} |",
    ]
    if have_peer:
        p, pc = med("riichienv", "steps_s"), med("riichienv", "steps_cpu_s")
        lines.append(f"| RiichiEnv {m['packages'].get('riichienv')} `step()` with `RandomAgent`, log off, steps | "
                     f"{p[0]:,.0f} | {p[1]:,.0f}–{p[2]:,.0f} | {pc[0]:,.0f} |")
    lines += [
        "",
        f"Notes: an Env hand takes {statistics.median(x['steps_per_hand'] for x in results['env']):.1f} steps "
        f"({statistics.median(x['decisions_per_step'] for x in results['env']):.2f} seats answering per step: "
        "a claim window is one step)"
        + (f"; a RiichiEnv hand {statistics.median(x['steps_per_hand'] for x in results['riichienv']):.1f} steps "
           "(riichi, not comparable rule for rule)" if have_peer else "")
        + ". Random play rarely completes a hand: most end in an exhaustive draw.",
        "",
        "Reproduce: `pip install -e \".[bench]\"`, build the compiled core, then `python bench/bench_env.py`.",
    ]
    raw = {"machine": m, "hkcore": hkcore_meta(hkcore, core), "sizes": sizes, "runs": results}
    publish(None if args.no_write else BENCH_DIR, "env", "\n".join(lines), raw, "results_env.json")


if __name__ == "__main__":
    main()
