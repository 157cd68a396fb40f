#!/usr/bin/env python
"""Bot strength from the arena: every built-in bot against three copies of every other, under every built-in
preset; the bots' self-play rates; the speed of four copies of each in-engine bot.

    python bench/bench_arena.py                          # the whole table (about an hour on 2 cores)
    python bench/bench_arena.py --walls 20000 --prompt-walls 250 --jobs 2
    python bench/bench_arena.py --walls 500 --prompt-walls 20 --no-write   # a quick look, printed only

Each cell is ``hkcore.arena(preset, challenger, champion, walls=N, seed=S)``: wall k dealt from
``wall_seed(S, k)``, played four times with the challenger in each seat and the champion in the other three,
95 % intervals clustered by wall (docs/bots.md, "The arena"). Bots played inside the engine (efficiency,
value, guard) get ``--walls`` walls; a pair with a bot asked through its prompts (random, simple) gets
``--prompt-walls``. The self-play rates are the arena of each bot against itself (four copies: every rotation
plays the same hand). The speed: ``hkcore.simulate`` of four copies of a bot under bga-old-style in one process
(each wall played in four rotations), 3 repetitions in rotating order, medians. Writes the ``strength``
section of bench/RESULTS.md and bench/results_strength.json.
"""
from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _benchlib import hkcore_meta, log, machine_info, others_cores, publish

import hkcore
from hkcore import core
from hkcore.preset import builtin_ids
from hkcore.simulation import arena, simulate
from hkcore.table.players.bots import builtin_bots, engine_bots

#: the reference rates beside the bots' self-play (issue 35): Tenhou's top lobby and Mortal's arena
REFERENCE = [("Tenhou top lobby (riichi, 53 million hands)", "—", "12.86 %", "—"),
             ("Mortal, in its duplicate arena (riichi)", "—", "11.5 %", "—")]
#: issue 35's targets for four guard bots
SELF_TARGETS = {"bga-old-style", "mistboard"}


def _cell(x: dict[str, Any] | None, pct: bool = False) -> str:
    if x is None or x["mean"] is None:
        return "—"
    f = (lambda v: f"{100 * v:.1f} %") if pct else (lambda v: f"{v:+.3f}")
    if x["low"] is None:
        return f(x["mean"])
    half = (x["high"] - x["low"]) / 2
    return f"{f(x['mean'])} ± {100 * half:.1f}" if pct else f"{f(x['mean'])} ± {half:.3f}"


def run(walls: int, prompt_walls: int, seed: int, jobs: int, presets: list[str], bots: list[str]) -> dict[str, Any]:
    fast = engine_bots()
    cells: list[dict[str, Any]] = []
    for p in presets:
        for ch, cp in itertools.product(bots, bots):
            n = walls if ch in fast and cp in fast else prompt_walls
            if n == 0:
                continue
            t0 = time.perf_counter()
            r = arena(p, ch, cp, walls=n, seed=seed, jobs=jobs).as_dict()
            r["seconds"] = round(time.perf_counter() - t0, 1)
            log(f"{p} {ch} vs {cp}: {n} walls in {r['seconds']} s: net {_cell(r['difference']['net_per_hand'])}")
            cells.append(r)
    speed: dict[str, list[float]] = {b: [] for b in sorted(fast)}
    for rep in range(3):
        order = sorted(fast)[rep % len(fast):] + sorted(fast)[:rep % len(fast)]
        for b in order:
            t0 = time.perf_counter()
            s = simulate(["bga-old-style"], b, hands=500, seed=rep)
            speed[b].append(s.presets["bga-old-style"].hands / (time.perf_counter() - t0))
    return {"cells": cells, "speed": {b: {"median": statistics.median(v), "runs": v} for b, v in speed.items()}}


def section(raw: dict[str, Any], args: argparse.Namespace) -> str:
    m = raw["machine"]
    out = ["## Bot strength: the arena (every built-in bot against three of every other)", "",
           f"- Date: {m['date']}; hkcore revision: {m['git']}; core `{raw['hkcore']['implementation']}`; "
           f"Python {m['python']}; {m['cpu']}, {m['nproc']} cores (shared: other work used "
           f"{raw['others_cores']:.2f} of them on average while this ran); load average at start "
           f"{m['loadavg_at_start']}",
           f"- Method: `python bench/bench_arena.py --walls {args.walls} --prompt-walls {args.prompt_walls} "
           f"--seed {args.seed} --jobs {args.jobs}`: each cell `hkcore.arena(preset, challenger, champion)`; "
           "the figures are the challenger's per seat-hand with 95 % intervals clustered by wall (±: half the "
           "interval); *vs champions*: the challenger's net less the champions', paired by wall (under a faan "
           "ledger, `mistboard` and `hk-classic`, on the zero-sum measure: a self-draw F from each loser, a "
           "discard F from the discarder, as docs/bots.md says); the challenger is stronger where the whole "
           "interval is above 0. Pairs with `random` or `simple` are played through prompts, on fewer walls.",
           ""]
    by_preset: dict[str, list[dict[str, Any]]] = {}
    for c in raw["cells"]:
        by_preset.setdefault(c["preset"], []).append(c)
    for p, cells in by_preset.items():
        ledger = not cells[0]["pays"]
        out += [f"### `{p}`" + (" (faan ledger: vs champions on the zero-sum measure)" if ledger else ""), "",
                "| challenger | champion | walls | distinct hands | net / hand | vs champions | win | deal-in | "
                "draw | faan / win |",
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for c in cells:
            if c["challenger"] == c["champion"]:
                continue
            vs = c["difference"]["zero_sum_per_hand" if ledger else "net_per_hand"]
            out.append(f"| `{c['challenger']}` | `{c['champion']}` | {c['walls']:,} | {c['distinct_hands']:,} | "
                       f"{_cell(c['net_per_hand'])} | {_cell(vs)} | {_cell(c['win_rate'], True)} | "
                       f"{_cell(c['deal_in_rate'], True)} | {_cell(c['draw_rate'], True)} | "
                       f"{_cell(c['faan_per_win'])} |")
        out.append("")
    out += ["### Self-play: four copies of one bot (win and deal-in per seat-hand, draws per hand)", "",
            "| preset | bot | walls | win | deal-in | draw | target (issue 35, four `guard`) |",
            "|---|---|---:|---:|---:|---:|---|"]
    for c in raw["cells"]:
        if c["challenger"] != c["champion"]:
            continue
        target = ""
        if c["challenger"] == "guard" and c["preset"] in SELF_TARGETS:
            ok = (c["deal_in_rate"]["mean"] <= 0.11, c["win_rate"]["mean"] >= 0.20, c["draw_rate"]["mean"] <= 0.20)
            target = ("deal-in ≤ 11 %: " + ("met" if ok[0] else "**not met**") + "; win ≥ 20 %: "
                      + ("met" if ok[1] else "**not met**") + "; draws ≤ 20 %: " + ("met" if ok[2] else "**not met**"))
        out.append(f"| `{c['preset']}` | `{c['challenger']}` | {c['walls']:,} | {_cell(c['win_rate'], True)} | "
                   f"{_cell(c['deal_in_rate'], True)} | {_cell(c['draw_rate'], True)} | {target} |")
    for name, win, deal_in, draw in REFERENCE:
        out.append(f"| (reference) | {name} | | {win} | {deal_in} | {draw} | |")
    out += ["", "### Speed: four copies of a bot inside the engine (`hkcore.simulate`, bga-old-style, one process)",
            "", "| bots | hands/s (median of 3) | runs | target |", "|---|---:|---|---|"]
    targets = {"guard": "≥ 500 (issue 35)", "value": "≥ 1,000 (held)", "efficiency": "≥ 2,000 (held)"}
    for b, v in raw["speed"].items():
        out.append(f"| 4 × `{b}` | {v['median']:,.0f} | {', '.join(f'{x:,.0f}' for x in v['runs'])} | "
                   f"{targets.get(b, '')} |")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--walls", type=int, default=20_000, help="walls of a pair of in-engine bots (default 20,000)")
    ap.add_argument("--prompt-walls", type=int, default=250,
                    help="walls of a pair with a bot asked through its prompts (default 250)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--preset", action="append", help="a built-in preset (default: all)")
    ap.add_argument("--bots", help="bots, comma-separated (default: every built-in one)")
    ap.add_argument("--no-write", action="store_true", help="print only")
    args = ap.parse_args()
    presets = args.preset or builtin_ids()
    bots = args.bots.split(",") if args.bots else list(builtin_bots())
    raw: dict[str, Any] = {"machine": machine_info(), "hkcore": hkcore_meta(hkcore, core)}
    raw.update(others_cores(lambda: run(args.walls, args.prompt_walls, args.seed, args.jobs, presets, bots)))
    publish(None if args.no_write else Path(__file__).resolve().parent, "strength", section(raw, args), raw,
            "results_strength.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
