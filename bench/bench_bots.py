#!/usr/bin/env python
"""Bot strength, measured: each bot against three copies of ``efficiency``, in duplicate.

    python bench/bench_bots.py                      # 5,000 walls x 4 seats = 20,000 hands per bot and preset
    python bench/bench_bots.py --walls 200 --no-write   # a quick look, printed only
    python bench/bench_bots.py --preset hk-classic --bots value --walls 500 --jobs 2

For each built-in preset and each bot X (random, simple, value, and
efficiency itself as the reference), wall k is dealt from
``hkcore.simulation.wall_seed(seed, k)`` and played four times, X sitting
once in each seat and ``efficiency`` in the other three (seat i plays
``[X, efficiency, efficiency, efficiency][(i + r) % 4]`` in rotation r, as
``hkcore.simulate`` seats its bots; each bot seeded by
``hkcore.simulation.bot_seed``). Every X therefore plays the very same
walls from the very same seats. Reported per preset and bot:

- mean net payment per hand of X's seat (faan won under a faan ledger), with a
  95 % interval over the walls (the four hands of a wall are not independent;
  the walls are);
- the same of the three efficiency seats at the same hands, and the paired
  difference X less efficiency per hand with its 95 % interval: X beats
  efficiency when that interval lies above 0;
- X's win rate, deal-in rate (wins by another seat on X's discard or kong)
  and mean faan (points) per win;
- illegal decisions: a decision not among its prompt's actions (checked
  before it is submitted; ``Table.submit`` would refuse it).

Then the speed of four copies of a bot (hands/s, one process, a fresh
``Table`` per hand from a seeded start, every decision through ``prompts()``
and ``submit()``), value beside efficiency in the same run, 3 repetitions,
medians. Writes the ``bots`` section of bench/RESULTS.md and
bench/results_bots.json.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _benchlib as bl

from hkcore.preset import builtin_ids, load_preset
from hkcore.simulation import bot_seed, seating, wall_seed
from hkcore.table import Table
from hkcore.table.players.bots import available_bots
from hkcore.table.start import read_start

SECTION = "bots"
JSON_NAME = "results_bots.json"
SEED = 1
BOTS = ("random", "simple", "value", "efficiency")
OPPONENT = "efficiency"
Z95 = 1.959964
SEATS = ("E", "S", "W", "N")


def _legal(d: dict[str, Any], prompt: dict[str, Any]) -> bool:
    keys = ("act", "kind", "tiles", "tile")
    return any(all(d.get(k) == a.get(k) for k in keys) for a in prompt["actions"])


def play_walls(preset: str, bot: str, seed: int, first: int, walls: int) -> dict[str, Any]:
    """Walls ``first`` .. ``first + walls - 1`` under ``preset``, ``bot`` against three ``OPPONENT``s;
    per wall the sums of its four hands, and counts."""
    p = load_preset(preset)
    factories = available_bots()
    names = [bot, OPPONENT, OPPONENT, OPPONENT]
    like = None
    out: dict[str, Any] = {"x": [], "opp": [], "hands": 0, "wins": 0, "deal_ins": 0, "faan": 0, "illegal": 0,
                           "opp_wins": 0, "opp_faan": 0, "exhausted": 0}
    for k in range(first, first + walls):
        deal = read_start({"event": "start", "preset": preset, "hand": 1, "round": "E",
                           "seed": wall_seed(seed, k)}, p)
        x_total = opp_total = 0
        for r in range(4):
            who = seating(names, r)
            x_seat = SEATS[(4 - r) % 4]  # where names[0], the bot measured, sits in rotation r
            seated = {s: factories[who[s]](p, bot_seed(seed, k, r, s)) for s in SEATS}
            t = Table.dealt(deal, like=like)
            like = t
            while not t.over:
                prompt = t.prompts()[0]
                d = seated[prompt["seat"]].decide(prompt)
                if not _legal(d, prompt):
                    out["illegal"] += 1
                t.submit(d)
            end = next(x for x in reversed(t.log) if x["event"] == "end_hand")
            pays = end["delta"] if end["delta"] is not None else end["faan"]
            x_total += pays[x_seat]
            opp_total += sum(pays[s] for s in SEATS if s != x_seat)
            out["hands"] += 1
            out["exhausted"] += end["winner"] is None
            for w in (x for x in t.log if x["event"] == "win"):
                if w["seat"] == x_seat:
                    out["wins"] += 1
                    out["faan"] += w["faan"]
                else:
                    out["opp_wins"] += 1
                    out["opp_faan"] += w["faan"]
                    out["deal_ins"] += w["from"] == x_seat
        out["x"].append(x_total)
        out["opp"].append(opp_total)
    return out


def _mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal 95 % interval."""
    n = len(values)
    mean = sum(values) / n
    sd = statistics.stdev(values) if n > 1 else 0.0
    return mean, Z95 * sd / math.sqrt(n)


def measure(preset: str, bot: str, seed: int, walls: int, jobs: int) -> dict[str, Any]:
    parts = [(preset, bot, seed, a, b) for a, b in _split(walls, jobs)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            done = list(pool.map(_play_part, parts))
    else:
        done = [_play_part(a) for a in parts]
    total: dict[str, Any] = {"x": [], "opp": []}
    for d in done:
        for key, v in d.items():
            total[key] = total.get(key, 0) + v if not isinstance(v, list) else total[key] + v
    x = [v / 4 for v in total["x"]]  # per hand: a wall is 4 hands of the bot's seat
    opp = [v / 12 for v in total["opp"]]  # and 12 of the opponents' seats
    diff = [a - b for a, b in zip(x, opp)]
    m, h = _mean_ci(x)
    om, oh = _mean_ci(opp)
    dm, dh = _mean_ci(diff)
    hands = total["hands"]
    return {"preset": preset, "bot": bot, "walls": walls, "hands": hands, "mean": m, "half": h, "opp_mean": om,
            "opp_half": oh, "diff": dm, "diff_half": dh, "win_rate": total["wins"] / hands,
            "deal_in_rate": total["deal_ins"] / hands, "faan_per_win": total["faan"] / total["wins"] if total["wins"]
            else None, "illegal": total["illegal"], "exhausted": total["exhausted"] / hands}


def _play_part(args: tuple[str, str, int, int, int]) -> dict[str, Any]:
    return play_walls(*args)


def _split(walls: int, jobs: int) -> list[tuple[int, int]]:
    n = max(1, min(walls, jobs * 4 if jobs > 1 else 1))
    size, extra = divmod(walls, n)
    out, at = [], 0
    for i in range(n):
        m = size + (i < extra)
        out.append((at, m))
        at += m
    return out


def speed(bot: str, preset: str, hands: int) -> float:
    """Hands/s of four copies of ``bot``: a fresh Table per hand from a seed, prompts() and submit()."""
    p = load_preset(preset)
    factory = available_bots()[bot]
    t0 = time.perf_counter()
    for s in range(hands):
        t = Table({"event": "start", "preset": preset, "seed": s}, p)
        seated = {x: factory(p, s * 4 + i) for i, x in enumerate(SEATS)}
        while not t.over:
            prompt = t.prompts()[0]
            t.submit(seated[prompt["seat"]].decide(prompt))
    return hands / (time.perf_counter() - t0)


def _fmt(mean: float, half: float) -> str:
    return f"{mean:+.3f} ± {half:.3f}"


def section(rows: list[dict[str, Any]], speeds: dict[str, list[float]], meta: dict[str, Any],
            args: argparse.Namespace) -> str:
    minimum = {pid: load_preset(pid).minimum for pid in {r["preset"] for r in rows}}
    unit = {pid: load_preset(pid).unit for pid in minimum}
    pays = {pid: load_preset(pid).payments is not None for pid in minimum}
    lines = [
        "## Bot strength: each bot against three copies of `efficiency`, in duplicate",
        "",
        f"- Date: {meta['date']}; hkcore revision: {meta['git']}; core `{meta['core']}`; Python {meta['python']}",
        (f"- Machine: {meta['platform']}; CPU: {meta['cpu']}; nproc: {meta['nproc']} (**2 cores shared** with other "
         f"agents' work while this ran: the speeds are noisy); load average at start {meta['loadavg_at_start']}"),
        (f"- Method: `python bench/bench_bots.py --seed {args.seed}` ({args.note or 'one run'}): per preset "
        "and bot, the walls shown (hands / 4), "
        "each played 4 times with the bot in each seat in turn and `efficiency` in the other three (the "
        "same walls and seats for every bot; bots seeded as `hkcore.simulate` seeds them). Net payment per hand: "
        "the seat's `delta` (its faan won under a faan ledger: `mistboard`, `hk-classic`; a ledger has no losers, "
        "so there the bot and its opponents are compared on faan won). ± is a 95 % interval over the walls. "
        "*vs efficiency*: the bot's payment per hand less that of the efficiency seats at the same hands, paired by "
        "wall: the bot beats `efficiency` when the whole interval is above 0. Deal-in: another seat wins on the "
        "bot's discard or kong. Illegal: decisions not among the prompt's actions (each checked before submit)."),
        "",
        ("| preset (minimum) | bot | hands | net payment / hand | efficiency seats / hand | vs efficiency | "
         "win rate | deal-in rate | mean faan / win | illegal | beats efficiency? |"),
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for r in rows:
        pid = r["preset"]
        beats = r["diff"] - r["diff_half"] > 0
        fpw = "—" if r.get("faan_per_win") is None else f"{r['faan_per_win']:.2f}"
        opp = "—" if r.get("opp_mean") is None else (f"{r['opp_mean']:+.3f}" if r.get("opp_half") is None
                                                     else _fmt(r["opp_mean"], r["opp_half"]))
        lines.append(
            f"| `{pid}` ({minimum[pid]} {unit[pid]}{'' if pays[pid] else ', ledger'}) | `{r['bot']}`"
            f"{' †' if r.get('from_log') else ''} | "
            f"{r['hands']:,} | {_fmt(r['mean'], r['half'])} | {opp} | "
            f"{_fmt(r['diff'], r['diff_half'])} | {r['win_rate']:.1%} | {r['deal_in_rate']:.1%} | {fpw} | "
            f"{r['illegal']} | {'yes' if beats else '**no**' if r['bot'] == 'value' and minimum[pid] >= 3 else 'no'} |")
    if any(r.get("from_log") for r in rows):
        lines += ["", ("Rows marked † come from a run whose log kept the figures shown but not the ± of the efficiency "
                  "seats (their mean is the bot's less the paired difference) nor the mean faan per win.")]
    if speeds:
        lines += ["", (f"Speed, four copies of one bot (`{args.speed_preset}`, {args.speed_hands:,} hands a run, "
                       "one process, a `Table` from a seed per hand, every decision through `prompts()` and "
                       f"`submit()`; {len(next(iter(speeds.values())))} runs, order rotating, median and min–max):"),
                  "",
                  "| bots | hands/s (median) | min–max | target |", "|---|---:|---:|---|"]
        for name, runs in speeds.items():
            target = "≥ 1,000" if name == "value" else "≥ 2,000 (issue 25)" if name == "efficiency" else "—"
            lines.append(f"| 4 × `{name}` | {statistics.median(runs):,.0f} | {min(runs):,.0f}–{max(runs):,.0f} | "
                         f"{target} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--walls", type=int, default=5000, help="walls per preset and bot (x 4 hands; default 5,000)")
    ap.add_argument("--walls-others", type=int, help="walls for the bots other than value (default --walls)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--preset", action="append", help="a built-in preset (repeatable; default all)")
    ap.add_argument("--bots", default=",".join(BOTS), help="the bots to measure, comma separated")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--speed-hands", type=int, default=300, help="hands per speed run (0: no speed runs)")
    ap.add_argument("--speed-preset", default="bga-old-style")
    ap.add_argument("--no-write", action="store_true", help="print the section only")
    ap.add_argument("--note", help="how the rows were run, for the section's Method line")
    ap.add_argument("--save", metavar="FILE", help="append each row measured to FILE (JSON lines) as it is done")
    ap.add_argument("--rows", metavar="FILE", action="append", default=[],
                    help="rows measured before (JSON lines, as --save writes them), shown beside this run's")
    args = ap.parse_args()
    presets = args.preset if args.preset else [] if args.rows else list(builtin_ids())
    rows = [json.loads(line) for f in args.rows for line in Path(f).read_text(encoding="utf-8").splitlines()
            if line.strip()]
    for pid in presets:
        for bot in args.bots.split(","):
            t0 = time.perf_counter()
            walls = args.walls if bot == "value" or args.walls_others is None else args.walls_others
            r = measure(pid, bot, args.seed, walls, args.jobs)
            r["seconds"] = time.perf_counter() - t0
            rows.append(r)
            if args.save:
                with open(args.save, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(r) + "\n")
            bl.log(f"{pid} {bot}: {_fmt(r['mean'], r['half'])} per hand, vs efficiency "
                   f"{_fmt(r['diff'], r['diff_half'])}, win {r['win_rate']:.1%}, deal-in {r['deal_in_rate']:.1%}, "
                   f"illegal {r['illegal']} ({r['seconds']:.0f} s)")
    order = list(builtin_ids())
    rows.sort(key=lambda r: (order.index(r["preset"]), BOTS.index(r["bot"])))
    speeds: dict[str, list[float]] = {}
    if args.speed_hands:
        order = ["value", "efficiency"]
        for rep in range(3):
            for name in order[rep % 2:] + order[:rep % 2]:
                speeds.setdefault(name, []).append(speed(name, args.speed_preset, args.speed_hands))
        speeds = {n: speeds[n] for n in order}
        bl.log("speed: " + ", ".join(f"{n} {statistics.median(v):,.0f} hands/s" for n, v in speeds.items()))
    from hkcore import core
    meta = bl.machine_info(("hkcore",))
    meta["core"] = core.IMPLEMENTATION
    text = section(rows, speeds, meta, args)
    bl.publish(None if args.no_write else Path(__file__).resolve().parent, "bots", text,
               {"meta": meta, "rows": rows, "speeds": speeds}, JSON_NAME)
    return 0 if all(r["illegal"] == 0 for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
