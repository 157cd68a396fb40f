#!/usr/bin/env python
"""Benchmark hkscore report: many sampled hands under the five built-in presets.

    python bench/bench_report.py               # full run (100,000 hands), writes bench/RESULTS.md
    python bench/bench_report.py -n 200 --no-write

Times ``hkscore report FILE --preset all --out DIR`` as a command (a fresh
process: start-up, reading, scoring, summary, plots and the three files),
with one process and with ``--jobs 2``, on ``n`` hands from ``hkscore sample``
(seed 1, bonus tiles included, so the 136-tile presets refuse most of them:
their errors cost a parse). Beside it, in this process: ``compare_many`` (the
summary alone) and ``score_many`` under each preset in turn (the per-hand cost
of scoring the same lines one preset at a time, summed over the presets).
The summary is also timed on two worker processes both ways: ``compare_many
(jobs=2)`` (a process pool) and ``hkcore.dask.compare_files`` on a Dask
``LocalCluster`` of two one-thread worker processes (started before the
clock and kept; left out when the ``hkcore[dask]`` extra is not installed).
Throughput is hands x presets per second. Writes the ``report`` section of
bench/RESULTS.md and bench/results_report.json.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _benchlib as bl
import bench_score as bs

SECTION = "report"
DEFAULT_N = 1_000_000  # the size the issue states its targets at: fixed costs (start-up, the plots) shared out
SEED = 1
PACKAGES = ("hkcore", "pydantic", "matplotlib", "Cython", "dask", "distributed")


def _runs(fn, reps: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Seconds of each of ``reps`` calls of ``fn``."""
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def run(n: int, reps: int) -> dict[str, object]:
    import hkcore
    from hkcore.batch import score_many
    from hkcore.sample import sample
    from hkcore.summary import compare_many

    presets = list(hkcore.presets())
    work = Path(tempfile.mkdtemp(prefix="bench_report_"))
    src = work / "hands.jsonl"
    src.write_text("".join(json.dumps(h) + "\n" for h in sample(n, SEED)), encoding="utf-8")
    lines = src.read_bytes().splitlines()
    env = {**os.environ, "PYTHONPATH": str(Path(hkcore.__file__).resolve().parent.parent)}
    out: dict[str, object] = {"n": n, "presets": presets}
    for jobs in (1, 2):
        cmd = [sys.executable, "-m", "hkcore.cli", "report", str(src), "--preset", "all", "--out",
               str(work / f"out{jobs}"), "--jobs", str(jobs)]
        bl.log(f"hkscore report --jobs {jobs} ...")
        out[f"report_jobs{jobs}_s"] = _runs(partial(subprocess.run, cmd, env=env, cwd=tempfile.gettempdir(),
                                                          stdout=subprocess.DEVNULL), reps)
    bl.log("compare_many ...")
    out["compare_many_s"] = _runs(lambda: compare_many(lines, presets), reps)
    bl.log("compare_many --jobs 2 ...")
    out["compare_many_jobs2_s"] = _runs(lambda: compare_many(lines, presets, jobs=2), reps)
    out["dask_local_cluster_s"] = _dask(src, presets, env, reps)
    per_preset = {}
    for p in presets:
        bl.log(f"score_many {p} ...")
        per_preset[p] = _runs(lambda p=p: sum(1 for _ in score_many(lines, p)), reps)
    out["score_many_s"] = per_preset
    return out


def _dask(src: Path, presets: list[str], env: dict[str, str], reps: int) -> list[float] | None:
    """hkcore.dask.compare_files on a LocalCluster of two worker processes (None without the extra)."""
    try:
        from distributed import Client, LocalCluster

        from hkcore.dask import compare_files
    except ImportError:
        bl.log("hkcore.dask: dask or distributed not installed, left out")
        return None
    os.environ["PYTHONPATH"] = env["PYTHONPATH"]  # the worker processes import this hkcore
    blocksize = max(1 << 16, src.stat().st_size // 32)  # many partitions for each worker: the last ones are short
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster):
        bl.log("hkcore.dask on a LocalCluster of 2 workers ...")
        return _runs(lambda: compare_files([src], presets, blocksize=blocksize), reps)


def _med(runs: list[float]) -> float:
    return statistics.median(runs)


def render(meta: dict[str, object], r: dict[str, object]) -> str:
    n = int(r["n"])  # type: ignore[arg-type]
    k = len(r["presets"])  # type: ignore[arg-type]
    rows = ["| what | seconds (median) | hands x presets / s | µs per hand (all presets) | every run (s) |",
            "|---|---|---|---|---|"]
    sm: dict[str, list[float]] = r["score_many_s"]  # type: ignore[assignment]
    # score_many under each preset in turn: run i is the sum of every preset's run i
    r = {**r, "score_many_total_s": [sum(t) for t in zip(*sm.values())]}
    for label, key in (("`hkscore report` (one process)", "report_jobs1_s"),
                       ("`hkscore report --jobs 2`", "report_jobs2_s"),
                       ("`compare_many` (summary only, in process)", "compare_many_s"),
                       ("`compare_many(jobs=2)` (summary only, a pool of 2 processes)", "compare_many_jobs2_s"),
                       ("`hkcore.dask.compare_files` (summary only, a LocalCluster of 2 worker processes, "
                        "started before the clock)", "dask_local_cluster_s"),
                       ("`score_many`, each preset in turn (in process)", "score_many_total_s")):
        if r.get(key) is None:
            rows.append(f"| {label} | not run (`hkcore[dask]` not installed) | | | |")
            continue
        runs = r[key]  # type: ignore[assignment]
        s = _med(runs)  # type: ignore[arg-type]
        every = ", ".join(f"{t:.2f}" for t in runs)  # type: ignore[union-attr]
        rows.append(f"| {label} | {s:.2f} | {n * k / s:,.0f} | {s / n * 1e6:.1f} | {every} |")
    total = _med(r["score_many_total_s"]) / n * 1e6  # type: ignore[arg-type]
    per = ", ".join(f"{p} {_med(t) / n * 1e6:.1f}" for p, t in sm.items())
    report_us = _med(r["report_jobs1_s"]) / n * 1e6  # type: ignore[arg-type]
    targets = [f"Targets: the report's per-hand cost {report_us:.1f} µs is {report_us / total:.2f}× `score_many`'s "
               f"({total:.1f} µs; ≤ 1.5×: {'met' if report_us <= 1.5 * total else 'not met'})"]
    if r.get("dask_local_cluster_s") is not None:
        dask_s, pool_s = _med(r["dask_local_cluster_s"]), _med(r["compare_many_jobs2_s"])  # type: ignore[arg-type]
        targets.append(f"the Dask path {dask_s:.2f} s against the process pool's {pool_s:.2f} s on the same two "
                       f"cores ({dask_s / pool_s:.2f}×; "
                       f"within 25 %: {'met' if dask_s <= 1.25 * pool_s else 'not met'})")
    return "\n".join([
        "## hkscore report", "",
        f"{n:,} hands from `hkscore sample --seed {SEED}` under the {k} built-in presets; median of "
        f"{meta['reps']} runs, every run beside it (the machine is shared: runs differ). Machine: "
        f"{meta.get('cpu', '?')}, Python {meta.get('python', '?')}.", "",
        *rows, "",
        f"`score_many` µs per hand by preset (medians): {per}.", "", "; ".join(targets) + ".", ""])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--n", type=int, default=DEFAULT_N)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--allow-python", action="store_true", help="time the pure-Python core too")
    args = parser.parse_args()
    hk = bs.load_hkcore(args.allow_python)
    if hk["implementation"] != "cython" and not args.allow_python:
        print("the compiled core is not in use (--allow-python to time it anyway)", file=sys.stderr)
        return 2
    meta = {**bl.machine_info(PACKAGES), "reps": args.reps, "n": args.n}
    if not args.no_write:  # a run that publishes waits for other benchmarks (a check with --no-write does not)
        bl.wait_for_other_bench(600, bl.log)
    results = run(args.n, args.reps)
    out = None if args.no_write else Path(__file__).resolve().parent
    bl.publish(out, SECTION, render(meta, results), {"meta": meta, "results": results}, "results_report.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
