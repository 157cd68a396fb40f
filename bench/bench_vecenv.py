#!/usr/bin/env python
"""Benchmark ``hkcore.table.learning.VecEnv`` (issue 36): steps per second
with random legal actions drawn from the masks in numpy, beside RiichiEnv's
``step()`` in the same run; one learner seat against three compiled bots;
memory over a long run.

    python bench/bench_vecenv.py             # ≥ 3 s per measurement × 3 repetitions, writes bench/RESULTS.md
    python bench/bench_vecenv.py --quick     # ≥ 0.5 s per measurement (smoke test)
    python bench/bench_vecenv.py --no-write  # print the section only

What is timed (the order of the measurements rotates between repetitions):

- ``VecEnv(n, logs=False)`` (as RiichiEnv runs, its log off; and n = 64 with
  the logs kept) with every seat learned (``learners=[0, 1, 2, 3]``): each
  step draws a uniformly random legal action for every table from the masks
  in numpy (random bytes, masked, argmax: the draw is inside the time) and
  calls ``step``, which writes every table's next observation, mask,
  player, rewards and done. A step is one seat's decision at each table:
  ``n`` steps a call. The compiled core, n = 16, 64, 256 and 512.
- RiichiEnv (the peer, a Rust riichi env): ``reset()`` then
  ``step({pid: RandomAgent.act(obs)})`` until ``done()``; a step is one call
  (bench_env.py's measurement, the same function).
- One learner (player 0) against three compiled ``efficiency``, ``value``
  or ``guard`` bots, n = 64: learner steps per second (the bots' decisions
  inside the engine are not counted).
- Memory: the process's peak RSS after 10⁶ and after 10⁷ steps of the
  first measurement (``--memory-steps``).

Medians of the repetitions, min–max beside; bench/RESULTS.md's ``vecenv``
section and bench/results_vecenv.json.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # (numpy's BLAS threads would spin on the other core)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _benchlib import BENCH_DIR, hkcore_meta, log, machine_info, others_cores, publish
from bench_env import peer_once

PRESET = "bga-old-style"
SIZES = (16, 64, 256, 512)


def _picker(seed: int) -> Any:
    """A random legal action of each table from its mask row: a random byte for each action (PCG64's raw
    output) times the mask, argmax (ties, 1 in 256 a pair, go to the lower id); a row whose legal bytes all
    drew 0 takes its first legal action."""
    import numpy as np

    raw = np.random.default_rng(seed).bit_generator.random_raw

    def pick(mask: Any) -> Any:
        r = raw((mask.size + 7) // 8).view(np.uint8)[:mask.size].reshape(mask.shape)
        np.multiply(r, mask, out=r)
        a = r.argmax(axis=1)
        rows = np.flatnonzero(mask[np.arange(len(a)), a] == 0)
        if len(rows):
            a[rows] = mask[rows].argmax(axis=1)
        return a

    return pick


def vec_once(seconds: float, seed: int, n: int, bots: str = "random", logs: bool = False) -> dict[str, float]:
    """Steps of VecEnv(n) for about ``seconds`` (learners: all four with random bots, else player 0)."""
    from hkcore.table.learning import VecEnv

    env = VecEnv(n, PRESET, learners=[0, 1, 2, 3] if bots == "random" else [0], bots=bots, seed=seed, logs=logs)
    pick = _picker(seed)
    _obs, mask, _player = env.reset()
    for _ in range(10):
        env.step(pick(mask))
    steps = episodes = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        for _ in range(50):
            _o, _m, _p, _r, done = env.step(pick(mask))
            episodes += int(done.sum())
        steps += 50 * n
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"steps_s": steps / wall, "steps_cpu_s": steps / cpu, "steps_per_episode": steps / max(1, episodes)}


def adapter_once(seconds: float, seed: int, kind: str) -> dict[str, float]:
    """Steps of an adapter (or the raw VecEnv it wraps) for about ``seconds``, the first legal action of each
    mask; one learner against three efficiency bots, logs off."""

    from hkcore.table.learning import VecEnv
    from hkcore.table.rl import GymEnv, GymVectorEnv, parallel_env

    steps = 0
    t0, c0 = time.perf_counter(), time.process_time()
    if kind in ("raw1", "raw64"):
        n = 1 if kind == "raw1" else 64
        env = VecEnv(n, PRESET, learners=[0], bots="efficiency", seed=seed, logs=False)
        _o, mask, _p = env.reset()
        while time.perf_counter() - t0 < seconds:
            for _ in range(100):
                env.step(mask.argmax(axis=1))
            steps += 100 * n
    elif kind == "gym":
        g = GymEnv(PRESET, "E", "efficiency", seed=seed, logs=False)
        obs, _ = g.reset(seed=seed)
        while time.perf_counter() - t0 < seconds:
            for _ in range(100):
                obs, _r, done, _t, _i = g.step(int(obs["action_mask"].argmax()))
                if done:
                    obs, _ = g.reset()
            steps += 100
    elif kind == "vector64":
        v = GymVectorEnv(64, PRESET, "E", "efficiency", seed=seed, logs=False)
        obs, _ = v.reset(seed=seed)
        while time.perf_counter() - t0 < seconds:
            for _ in range(100):
                obs, *_rest = v.step(obs["action_mask"].argmax(axis=1))
            steps += 100 * 64
    else:  # the PettingZoo parallel env, all four players learned, against the raw VecEnv(1) of four
        if kind == "raw4":
            env = VecEnv(1, PRESET, seed=seed, logs=False)
            _o, mask, _p = env.reset()
            while time.perf_counter() - t0 < seconds:
                for _ in range(100):
                    env.step(mask.argmax(axis=1))
                steps += 100
        elif kind == "aec":
            from hkcore.table.rl import aec_env

            env_ = aec_env(PRESET, seed, logs=False)
            while time.perf_counter() - t0 < seconds:
                env_.reset()
                for _agent in env_.agent_iter():
                    obs_, _r, term, trunc, _i = env_.last()
                    env_.step(None if term or trunc else int(obs_["action_mask"].argmax()))
                    steps += not (term or trunc)
        else:
            par = parallel_env(PRESET, seed, logs=False)
            obs, _ = par.reset()
            while time.perf_counter() - t0 < seconds:
                for _ in range(100):
                    a = par.asked
                    obs, _r, terms, _t, _i = par.step({a: int(obs[a]["action_mask"].argmax())})
                    if terms[a]:
                        obs, _ = par.reset()
                steps += 100
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"steps_s": steps / wall, "steps_cpu_s": steps / cpu}


def dataset_once(seconds: float, seed: int, bot: str, jobs: int) -> dict[str, float]:
    """``write_dataset`` of ``bot`` with ``jobs`` into a fresh folder, sized for about ``seconds`` (a value bot
    decides about 60 times a hand); decisions written per second, the files' bytes per decision."""
    import tempfile

    from hkcore.table.learning.dataset import write_dataset

    hands = max(20, int(seconds * 300 * jobs))
    with tempfile.TemporaryDirectory() as folder:
        t0, c0 = time.perf_counter(), time.process_time()
        m = write_dataset(folder, PRESET, bot, hands, seed=seed, jobs=jobs)
        wall = time.perf_counter() - t0
        size = sum(f.stat().st_size for f in Path(folder).iterdir())
    return {"steps_s": m["decisions"] / wall, "steps_cpu_s": m["decisions"] / max(1e-9, time.process_time() - c0),
            "bytes_per_decision": size / m["decisions"], "decisions": m["decisions"]}


def memory(steps: int, n: int = 64) -> dict[str, float]:
    """Peak RSS (MiB) after a tenth of ``steps`` and after all of them, all four seats random."""
    from hkcore.table.learning import VecEnv

    env = VecEnv(n, PRESET, seed=5)
    pick = _picker(5)
    _o, mask, _p = env.reset()
    out = {}
    done_steps = 0
    t0 = time.perf_counter()
    for mark in (steps // 10, steps):
        while done_steps < mark:
            env.step(pick(mask))
            done_steps += n
        out[f"rss_mib_at_{mark}"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["seconds"] = time.perf_counter() - t0
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--memory-steps", type=int, default=10_000_000)
    args = ap.parse_args()
    import hkcore
    from hkcore import core
    from hkcore.table.learning import IMPLEMENTATION

    if core.IMPLEMENTATION != "cython" or IMPLEMENTATION != "cython":
        raise SystemExit("bench_vecenv: the compiled core is not in use (build it: setup.py build_ext --inplace)")
    seconds = 0.5 if args.quick else 3.0
    runs: dict[str, Any] = {f"vec{n}": (lambda s, n=n: vec_once(seconds, s, n)) for n in SIZES}
    runs["vec64_logs"] = lambda s: vec_once(seconds, s, 64, logs=True)
    for bot in ("efficiency", "value", "guard"):
        runs[f"learner_{bot}"] = lambda s, bot=bot: vec_once(seconds, s, 64, bot)
    for kind in ("raw1", "gym", "raw64", "vector64", "raw4", "parallel", "aec"):
        runs[f"adapter_{kind}"] = lambda s, kind=kind: adapter_once(seconds, s, kind)
    for bot in ("efficiency", "value"):
        runs[f"dataset_{bot}"] = lambda s, bot=bot: dataset_once(seconds, s, bot, 2)
    peer_hands = 0
    try:
        import riichienv  # noqa: F401

        peer_once(2, 1)
        t0 = time.perf_counter()
        peer_once(20, 1)
        peer_hands = max(20, int(seconds / ((time.perf_counter() - t0) / 20)))
        runs["riichienv"] = lambda s: peer_once(peer_hands, s)
    except ImportError:
        log("bench_vecenv: riichienv is not installed (pip install -e \".[bench]\"): the peer is left out")
    results: dict[str, list[dict[str, float]]] = {name: [] for name in runs}
    names = list(runs)
    for r in range(args.repeats):
        for name in names[r % len(names):] + names[:r % len(names)]:
            results[name].append(others_cores(lambda name=name, r=r: runs[name](1 + r * 1000)))
            log(f"{name} run {r + 1}: {results[name][-1]}")
    total = args.memory_steps // (10 if args.quick else 1)
    tenth = total // 10
    mem = memory(total)
    log(f"memory: {mem}")

    def med(name: str, key: str = "steps_s") -> tuple[float, float, float]:
        xs = [x[key] for x in results[name]]
        return statistics.median(xs), min(xs), max(xs)

    m = machine_info(["hkcore", "riichienv", "numpy"])
    others = statistics.median(x["others_cores"] for rs in results.values() for x in rs)
    best = max(SIZES, key=lambda n: med(f"vec{n}")[0])
    lines = [
        "## VecEnv: `hkcore.table.learning.VecEnv`, batched tables for learning agents",
        "",
        f"- Date: {m['date']}; hkcore revision: {m['git']}; core `{core.IMPLEMENTATION}`, VecEnv core "
        f"`{IMPLEMENTATION}`; Python {m['python']}; numpy {m['packages'].get('numpy')}",
        f"- Machine: {m['platform']}; CPU: {m['cpu']}; nproc: {m['nproc']} (2 cores shared with other agents' work: "
        f"other work took a median {others:.2f} cores while the measurements ran); load average at start "
        f"{m['loadavg_at_start']}",
        f"- Method: preset `{PRESET}`; {args.repeats} repetitions of each measurement, ≥ {seconds:g} s each, their "
        "order rotating; medians quoted, min–max beside (raw runs in `bench/results_vecenv.json`). VecEnv: random "
        "legal actions drawn from the masks in numpy inside the time (random bytes times the mask, argmax); "
        "a step is one seat's decision at one table. RiichiEnv: its `step()` with `RandomAgent`, log off (a step "
        f"is one call; {peer_hands:,} hands a run).",
        "",
        "| measurement | steps/s (median) | min–max | per CPU-s | steps an episode |",
        "|---|---:|---:|---:|---:|",
    ]
    for n in SIZES:
        v, vc = med(f"vec{n}"), med(f"vec{n}", "steps_cpu_s")
        lines.append(f"| VecEnv({n}, logs=False), four random seats, steps | {v[0]:,.0f} | {v[1]:,.0f}–{v[2]:,.0f} | "
                     f"{vc[0]:,.0f} | {med(f'vec{n}', 'steps_per_episode')[0]:.1f} |")
    v, vc = med("vec64_logs"), med("vec64_logs", "steps_cpu_s")
    lines.append(f"| VecEnv(64), logs kept (they replay), four random seats, steps | {v[0]:,.0f} | "
                 f"{v[1]:,.0f}–{v[2]:,.0f} | {vc[0]:,.0f} | {med('vec64_logs', 'steps_per_episode')[0]:.1f} |")
    for bot in ("efficiency", "value", "guard"):
        v, vc = med(f"learner_{bot}"), med(f"learner_{bot}", "steps_cpu_s")
        lines.append(f"| VecEnv(64, logs=False), one learner against three `{bot}`, learner steps | {v[0]:,.0f} | "
                     f"{v[1]:,.0f}–{v[2]:,.0f} | {vc[0]:,.0f} | {med(f'learner_{bot}', 'steps_per_episode')[0]:.1f} |")
    ratio = ""
    if "riichienv" in results:
        p, pc = med("riichienv"), med("riichienv", "steps_cpu_s")
        lines.append(f"| RiichiEnv {m['packages'].get('riichienv')} `step()` with `RandomAgent`, log off | "
                     f"{p[0]:,.0f} | {p[1]:,.0f}–{p[2]:,.0f} | {pc[0]:,.0f} | "
                     f"{med('riichienv', 'steps_per_hand')[0]:.1f} |")
        r = med(f"vec{best}")[0] / p[0]
        ratio = (f"- VecEnv({best}, logs=False) / RiichiEnv (its log off): **{r:.2f}×** (target ≥ 10×: "
                 f"{'met' if r >= 10 else '**not met**'}); per CPU-second "
                 f"{med(f'vec{best}', 'steps_cpu_s')[0] / pc[0]:.1f}×; with logs kept "
                 f"{med('vec64_logs')[0] / p[0]:.1f}×.")
    lines += ["", "| adapter (one learner against three `efficiency`, logs off; the first legal action) | steps/s "
              "(median) | the raw `VecEnv` it wraps | ratio |", "|---|---:|---:|---:|"]
    for label, kind, raw in (("`GymEnv`", "gym", "raw1"), ("`GymVectorEnv(64)`", "vector64", "raw64"),
                             ("PettingZoo `parallel_env` (four players learned)", "parallel", "raw4"),
                             ("PettingZoo `aec_env` (four players learned)", "aec", "raw4")):
        a, b = med(f"adapter_{kind}")[0], med(f"adapter_{raw}")[0]
        lines.append(f"| {label} | {a:,.0f} | {b:,.0f} | {b / a:.2f}× slower (target ≤ 3×: "
                     f"{'met' if b / a <= 3 else '**not met**'}) |")
    lines += ["", "| `hkscore dataset` (`write_dataset`, `--jobs 2`) | decisions written/s (median) | min–max | "
              "bytes a decision on disk | a million decisions in |", "|---|---:|---:|---:|---:|"]
    for bot in ("efficiency", "value"):
        d = med(f"dataset_{bot}")
        size = statistics.median(x["bytes_per_decision"] for x in results[f"dataset_{bot}"])
        lines.append(f"| `--bots {bot}` | {d[0]:,.0f} | {d[1]:,.0f}–{d[2]:,.0f} | {size:,.0f} | "
                     f"{1e6 / d[0]:.0f} s (target ≤ 60 s: {'met' if 1e6 / d[0] <= 60 else '**not met**'}) |")
    eff, val = med("learner_efficiency")[0], med("learner_value")[0]
    lines += [
        "",
        ratio,
        f"- One learner against three `efficiency`: **{eff:,.0f}** learner steps/s (target ≥ 30,000: "
        f"{'met' if eff >= 30_000 else '**not met**'}); against three `value`: **{val:,.0f}** (target ≥ 10,000: "
        f"{'met' if val >= 10_000 else '**not met**'}).",
        f"- Memory, VecEnv(64) with four random seats, logs kept: peak RSS {mem[f'rss_mib_at_{tenth}']:.0f} MiB "
        f"after {tenth:,} steps, {mem[f'rss_mib_at_{total}']:.0f} MiB after {total:,} ({mem['seconds']:.0f} s).",
        "",
        "Reproduce: `pip install -e \".[bench,rl]\"`, build the compiled core, then `python bench/bench_vecenv.py`.",
    ]
    raw = {"machine": m, "hkcore": hkcore_meta(hkcore, core), "runs": results, "memory": mem}
    publish(None if args.no_write else BENCH_DIR, "vecenv", "\n".join(lines), raw, "results_vecenv.json")


if __name__ == "__main__":
    main()
