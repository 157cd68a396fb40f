#!/usr/bin/env python
"""Benchmark hkcore.score under the five presets against two peer scorers.

    python bench/bench_score.py                # full run, writes bench/RESULTS.md
    python bench/bench_score.py --quick --no-write

Per-call µs of ``hkcore.score(hand, preset)`` on random complete hands with
varied contexts, under each built-in preset, from a validated ``Hand`` and
(on its own line) from a RULES.md dict; beside it ``mahjong``'s
``HandCalculator.estimate_hand_value`` (riichi rules) and PyMahjongGB's
``MahjongFanCalculator`` (Chinese official rules), each on its own prepared
native input. Each repetition uses fresh hands (distinct across every batch)
and functools caches are cleared before every timed pass. See
bench/README.md for the method.

Writes the ``score`` section of bench/RESULTS.md and bench/results_score.json.
If the active core is not the compiled one it writes nothing and exits with
status 2, unless ``--allow-python`` is given.
"""
from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat, starmap
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _benchlib as bl

SECTION = "score"
DEFAULT_N = 20_000
DEFAULT_REPS = 7
DEFAULT_CHECK_N = 5_000
DEFAULT_SEED = 20240612
TARGET_US = 4.0
PACKAGES = ("hkcore", "mahjong", "PyMahjongGB", "pydantic", "pydantic_core", "pluggy", "Cython")

#: functools caches that hold configuration, keyed by preset or process-wide,
#: never by hand, kept warm as a user scoring many hands has them. hkcore has
#: none: its plugin registry, preset store and compiled rulesets are values it
#: builds once (the built-in presets for the process's life), not functools
#: caches. Every functools cache found is cleared before every pass.
CONFIG_CACHES: tuple[str, ...] = ()

# --------------------------------------------------------------------------
# A random won hand: hkcore.sample's generator (its docstring gives the shares)

# re-exported: bench_analyse and bench_ingest use them as bs.*
from hkcore.sample import (  # noqa: E402
    KONG,
    ORPHANS_SHARE,
    HandSource,
    SampledWin as Situation,
    hk_dict,
    random_situation,
    set_tiles,
)

# mahjong (riichi) only
RIICHI_SHARE = 0.6                  # of closed hands won by self-draw (closed discard wins: always)
IPPATSU_SHARE = 0.1                 # of riichi hands
# PyMahjongGB only
FOURTH_TILE_SHARE = 0.1             # of wins whose winning tile is held once (not robbing)

# PyMahjongGB: W characters, B dots, T bamboo, F1..F4 winds, J1 red J2 green J3 white
MCR_CODES = (tuple(f"{s}{n}" for s in "WBT" for n in range(1, 10))
             + ("F1", "F2", "F3", "F4", "J3", "J2", "J1"))
__all__ = ["HandSource", "Situation", "hk_dict", "random_situation", "set_tiles", "KONG", "ORPHANS_SHARE"]


log = bl.log


@dataclass
class MahjongSpec:
    """mahjong (riichi) input as plain data; ``args`` builds fresh objects from it."""

    tiles: list[int]
    win: int
    melds: list[tuple[str, list[int], bool, int | None]]  # meld type, 136 ids, opened, called tile
    dora: list[int]
    context: tuple  # HandConfig keyword values, see MAHJONG_CONTEXT
    opened: bool
    riichi: bool


MAHJONG_CONTEXT = ("is_tsumo", "is_riichi", "is_ippatsu", "is_rinshan", "is_chankan", "is_haitei",
                   "is_houtei", "player_wind", "round_wind")


def mahjong_spec(s: Situation, rng: Random) -> MahjongSpec:
    """136-tile ids (random copies), melds, dora indicators and the win context.

    Closed hands (no claimed set; concealed kongs allowed) get riichi — always
    when won on a discard, else with probability ``RIICHI_SHARE`` — so they
    always have a yaku (riichi or menzen tsumo); open hands need one of their
    own, which the caller checks. Kong replacement is rinshan, robbing a kong
    chankan, last tile haitei (self-draw) or houtei (discard).
    """
    pools = [[4 * t + c for c in rng.sample(range(4), 4)] for t in range(34)]
    taken = [0] * 34

    def take(t: int) -> int:
        i = pools[t][taken[t]]
        taken[t] += 1
        return i

    melds = []
    for code, hidden, _frm in s.melds:
        ids = [take(t) for t in set_tiles(code)]
        kind = code // 34
        mtype = ("chi", "pon", "kan")[kind]
        melds.append((mtype, ids, not hidden, None if hidden else rng.choice(ids)))
    concealed = [take(t) for t in range(34) for _ in range(s.concealed[t])]
    win = rng.choice([i for i in concealed if i >> 2 == s.win])
    tiles = concealed + [i for _, ids, _, _ in melds for i in ids]
    rng.shuffle(tiles)
    unused = [pools[t][j] for t in range(34) for j in range(taken[t], 4)]
    n_kongs = sum(1 for m in melds if m[0] == "kan")
    dora = rng.sample(unused, 1 + n_kongs)
    opened = any(op for _, _, op, _ in melds)
    riichi = not opened and (not s.self_draw or rng.random() < RIICHI_SHARE)
    ippatsu = riichi and rng.random() < IPPATSU_SHARE
    context = (s.self_draw, riichi, ippatsu, s.kong_replacement > 0, s.robbing_kong,
               s.last_tile and s.self_draw, s.last_tile and not s.self_draw, 27 + s.seat, 27 + s.round)
    return MahjongSpec(tiles, win, melds, dora, context, opened, riichi)


def mahjong_args(spec: MahjongSpec, configs: dict[tuple, Any], mj: dict[str, Any]) -> tuple:
    """Fresh native arguments: (tiles_136, win_tile_136, melds, dora_indicators, config).

    ``configs`` holds one HandConfig per win context (a HandConfig weighs
    ~35 kB: one per hand would not fit in memory); the caller passes a fresh
    dict per batch, so no config object is shared between batches.
    """
    Meld = mj["Meld"]
    melds = [Meld(meld_type=t, tiles=list(ids), opened=op, called_tile=called)
             for t, ids, op, called in spec.melds]
    config = configs.get(spec.context)
    if config is None:
        config = configs[spec.context] = mj["HandConfig"](
            **dict(zip(MAHJONG_CONTEXT, spec.context)), options=mj["options"]())
    return (list(spec.tiles), spec.win, melds, list(spec.dora), config)


def mcr_args(s: Situation, rng: Random) -> tuple:
    """PyMahjongGB arguments: (pack, hand, winTile, flowerCount, isSelfDrawn,
    is4thTile, isAboutKong, isWallLast, seatWind, prevalentWind).

    ``hand`` holds the standing tiles without the winning tile. A chow's
    offer is which of its tiles was claimed (1..3); a pung's or kong's is
    the giver relative to the winner (1 left = the seat before, 2 opposite,
    3 right); a concealed kong's is 0.
    """
    pack = []
    for code, hidden, frm in s.melds:
        kind, t = divmod(code, 34)
        if kind == 0:
            pack.append(("CHI", MCR_CODES[t + 1], rng.randint(1, 3)))
        else:
            offer = 0 if hidden else (s.seat - frm) % 4  # type: ignore[operator]
            pack.append(("PENG" if kind == 1 else "GANG", MCR_CODES[t], offer))
    hand = tuple(MCR_CODES[t] for t in range(34) for _ in range(s.concealed[t] - (t == s.win)))
    fourth = (not s.robbing_kong and s.base.counts[s.win] == 1 and rng.random() < FOURTH_TILE_SHARE)
    return (tuple(pack), hand, MCR_CODES[s.win], len(s.flowers) + len(s.seasons), s.self_draw, fourth,
            s.kong_replacement > 0 or s.robbing_kong, s.last_tile, s.seat, s.round)


# --------------------------------------------------------------------------
# Loading


def load_hkcore(allow_python: bool) -> dict[str, Any]:
    try:
        import hkcore
    except ImportError:
        sys.path.insert(0, str(bl.REPO_ROOT))
    import hkcore
    import hkcore.core as core

    return {
        "score": hkcore.score,
        "Hand": hkcore.Hand,
        "presets": list(hkcore.presets()),
        "load_preset": hkcore.load_preset,
        "readings": core.readings,
        **bl.hkcore_meta(hkcore, core),
    }


def load_mahjong() -> dict[str, Any]:
    """mahjong's scorer and what its inputs are built from (also used by bench_analyse)."""
    from mahjong.agari import Agari
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld

    def options() -> Any:
        # common online rules: open tanyao (kuitan) and red fives
        return OptionalRules(has_open_tanyao=True, has_aka_dora=True)

    return {
        "Agari": Agari,
        "estimate": HandCalculator().estimate_hand_value,
        "HandConfig": HandConfig,
        "options": options,
        "Meld": Meld,
        "caches": [("mahjong HandDivider._divide_hand_impl", HandDivider._divide_hand_impl)],
    }


def load_peers() -> dict[str, Any]:
    from MahjongGB import MahjongFanCalculator

    return {**load_mahjong(), "mcr": MahjongFanCalculator}


# --------------------------------------------------------------------------
# Batches


class Workload:
    """Counts describing the hkcore hands that were timed."""

    def __init__(self) -> None:
        self.c: Counter[str] = Counter()
        self.bonus_tiles = 0
        self.bonus_hands = 0

    def add(self, s: Situation, bonus: bool) -> None:
        c = self.c
        c["hands"] += 1
        c[f"melds_{len(s.melds)}"] += 1
        kongs = [h for code, h, _ in s.melds if code >= KONG]
        c["with_kong"] += bool(kongs)
        c["with_concealed_kong"] += any(kongs)
        c["with_chow_meld"] += any(code < 34 for code, _, _ in s.melds)
        c["self_draw"] += s.self_draw
        c["last_tile"] += s.last_tile
        c["kong_replacement_1"] += s.kong_replacement == 1
        c["kong_replacement_2"] += s.kong_replacement == 2
        c["robbing_kong"] += s.robbing_kong
        c["thirteen_orphans"] += s.is_orphans
        if bonus:
            self.bonus_hands += 1
            self.bonus_tiles += len(s.flowers) + len(s.seasons)
            c["seven_plus_bonus"] += len(s.flowers) + len(s.seasons) >= 7

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.c)
        out["mean_bonus_tiles_144"] = self.bonus_tiles / self.bonus_hands if self.bonus_hands else None
        return out


def hk_batch(src: HandSource, n: int, preset: dict[str, Any], Hand: Any,
             workload: Workload | None) -> tuple[list[dict[str, Any]], list[Any], list[Situation]]:
    """``n`` RULES.md dicts for a preset, each validated: the dicts, their Hands, their situations."""
    bonus = preset["bonus"]
    dicts, hands, sits = [], [], []
    for _ in range(n):
        s = src.draw()
        d = hk_dict(s, bonus)
        hands.append(Hand.parse(d))  # raises on an invalid context: a bug in the generator
        dicts.append(d)
        sits.append(s)
        if workload is not None:
            workload.add(s, bonus)
    return dicts, hands, sits


def mahjong_batch(src: HandSource, n: int, mj: dict[str, Any], stats: Counter[str],
                  results: list[Any] | None = None) -> list[tuple]:
    """``n`` mahjong inputs that score (a yaku, no error).

    Each candidate is first scored on a twin input (its own Meld and
    HandConfig objects) and redrawn if mahjong reports an error; the input
    kept is built afresh, so nothing it holds has been used yet.
    """
    out = []
    check_configs: dict[tuple, Any] = {}
    configs: dict[tuple, Any] = {}
    estimate = mj["estimate"]
    while len(out) < n:
        s = src.draw()
        spec = mahjong_spec(s, src.rng)
        res = estimate(*mahjong_args(spec, check_configs, mj))
        stats["drawn"] += 1
        stats["drawn_open" if spec.opened else "drawn_closed"] += 1
        if res.error:
            stats[f"redrawn_{res.error}"] += 1
            stats["redrawn_open" if spec.opened else "redrawn_closed"] += 1
            continue
        stats["kept_open" if spec.opened else "kept_closed"] += 1
        stats["kept_riichi"] += spec.riichi
        if results is not None:
            results.append(res)
        out.append(mahjong_args(spec, configs, mj))
    stats["configs_per_batch_max"] = max(stats["configs_per_batch_max"], len(configs))
    return out


def mcr_batch(src: HandSource, n: int) -> list[tuple]:
    return [mcr_args(src.draw(), src.rng) for _ in range(n)]


# --------------------------------------------------------------------------
# Checks (an untimed batch; also the warm-up)


def run_checks(hk: dict[str, Any], peers: dict[str, Any], presets: list[dict[str, Any]],
               src: HandSource, check_n: int) -> dict[str, Any]:
    score, Hand, readings = hk["score"], hk["Hand"], hk["readings"]
    try:
        from hkcore.engine import placements as _placements
    except ImportError:  # the engine changed: skip the evaluation count
        _placements = None
    out: dict[str, Any] = {"check_n": check_n, "presets": {}}
    for p in presets:
        pid = p["id"]
        dicts, hands, sits = hk_batch(src, check_n, p, Hand, None)
        c: Counter[str] = Counter()
        faan: list[int] = []
        n_readings = n_evals = 0
        patterns: Counter[str] = Counter()
        for d, h, s in zip(dicts, hands, sits):
            r1 = score(h, pid)
            r2 = score(d, pid)
            c["hand_vs_dict_differ"] += r1 != r2
            c["complete"] += r1.complete
            c["winnable"] += r1.winnable
            c["limit"] += r1.limit
            c["payments"] += r1.payments is not None
            c["incomplete_orphans"] += (not r1.complete) and s.is_orphans
            c["incomplete_other"] += (not r1.complete) and not s.is_orphans
            faan.append(r1.faan)
            patterns.update(x.id for x in r1.patterns)
            rs = readings(h.counts)
            n_readings += len(rs)
            if _placements is not None:
                n_evals += sum(1 if len(r) == 2 and r[1] == 3 * 34 else len(_placements(r, h.win_index))
                               for r in rs)
        out["presets"][pid] = {
            **dict(c),
            "faan_mean": statistics.fmean(faan),
            "faan_median": statistics.median(faan),
            "faan_max": max(faan),
            "readings_per_hand": n_readings / check_n,
            "evaluations_per_hand": (n_evals / check_n) if _placements is not None else None,
            "top_patterns": dict(patterns.most_common(8)),
        }
    # mahjong
    mstats: Counter[str] = Counter()
    res: list[Any] = []
    mahjong_batch(src, check_n, peers, mstats, res)
    han = [r.han for r in res]
    out["mahjong"] = {
        **dict(mstats),
        "han_mean": statistics.fmean(han),
        "yakuman": sum(1 for r in res if any(y.is_yakuman for y in r.yaku or ())),
    }
    # PyMahjongGB
    mcr = peers["mcr"]
    fans, errors = [], Counter()
    for args in mcr_batch(src, check_n):
        try:
            fans.append(sum(f[0] for f in mcr(*args)))
        except Exception as exc:  # noqa: BLE001 - reported, never fatal
            errors[str(exc)] += 1
    out["mcr"] = {
        "hands": check_n,
        "errors": dict(errors),
        "fan_mean": statistics.fmean(fans) if fans else None,
        "eight_or_more": sum(1 for f in fans if f >= 8),
    }
    return out


# --------------------------------------------------------------------------
# Timing


def prepare_rep(src: HandSource, n: int, hk: dict[str, Any], peers: dict[str, Any],
                presets: list[dict[str, Any]], workload: Workload, mstats: Counter[str]) -> dict[str, list]:
    """One repetition's inputs: for every preset a batch of Hands and a batch of dicts
    (different hands), a mahjong batch and a PyMahjongGB batch, all fresh."""
    Hand = hk["Hand"]
    inputs: dict[str, list] = {}
    for p in presets:
        _, inputs[f"hand.{p['id']}"], _ = hk_batch(src, n, p, Hand, workload)
        inputs[f"dict.{p['id']}"], _, _ = hk_batch(src, n, p, Hand, workload)  # their Hands are dropped
    inputs["mahjong"] = mahjong_batch(src, n, peers, mstats)
    inputs["mcr"] = mcr_batch(src, n)
    return inputs


def plan(hk: dict[str, Any], peers: dict[str, Any], presets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    steps = [{"key": "harness", "label": "harness: builtin id() via map (overhead reference)",
              "fn": id, "inputs": f"hand.{presets[0]['id']}", "consts": (), "star": False}]
    for p in presets:
        pid = p["id"]
        steps.append({"key": f"hk.hand.{pid}", "label": f"hkcore.score(Hand, {pid!r})",
                      "fn": hk["score"], "inputs": f"hand.{pid}", "consts": (pid,), "star": False})
        steps.append({"key": f"hk.dict.{pid}", "label": f"hkcore.score(dict, {pid!r}) (validation included)",
                      "fn": hk["score"], "inputs": f"dict.{pid}", "consts": (pid,), "star": False})
    steps.append({"key": "mahjong", "label": "mahjong HandCalculator().estimate_hand_value("
                  "tiles_136, win_tile_136, melds, dora_indicators, config)",
                  "fn": peers["estimate"], "inputs": "mahjong", "consts": (), "star": True})
    steps.append({"key": "mcr", "label": "MahjongGB.MahjongFanCalculator(pack, hand, winTile, flowerCount, "
                  "isSelfDrawn, is4thTile, isAboutKong, isWallLast, seatWind, prevalentWind)",
                  "fn": peers["mcr"], "inputs": "mcr", "consts": (), "star": True})
    return steps


def run_timing(steps: list[dict[str, Any]], make_inputs: Callable[[int], dict[str, list]], reps: int,
               clear: Callable[[], None]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Per-call µs (wall clock, and process CPU time) of every step on each
    repetition's fresh inputs; the order rotates between repetitions."""
    results: dict[str, list[float]] = {s["key"]: [] for s in steps}
    cpu: dict[str, list[float]] = {s["key"]: [] for s in steps}
    for r in range(reps):
        t0 = time.perf_counter()
        inputs = make_inputs(r)
        log(f"  repetition {r + 1}/{reps}: inputs ready in {time.perf_counter() - t0:.1f} s; timing ...")
        k = r % len(steps)
        for s in steps[k:] + steps[:k]:
            clear()
            batch = inputs[s["inputs"]]
            if s["star"]:
                it = starmap(s["fn"], batch)
            else:
                it = map(s["fn"], batch, *(repeat(c) for c in s["consts"]))
            wall_ns, cpu_ns = bl.time_pass(it, len(batch))
            results[s["key"]].append(wall_ns / 1000.0)
            cpu[s["key"]].append(cpu_ns / 1000.0)
        del inputs
        gc.collect()
        log(f"  repetition {r + 1}/{reps} done")
    return results, cpu


# --------------------------------------------------------------------------
# Report


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %" if x >= 0.001 or x == 0 else f"{100 * x:.2f} %"


def _loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _busy(meta: dict[str, Any]) -> bool:
    loads = [meta["machine"].get("loadavg_at_start"), meta.get("loadavg_at_end_of_timing")]
    return any(load and load[0] >= 1 for load in loads)


def _wall_over_cpu(wall: dict[str, list[float]], cpu: dict[str, list[float]]) -> float:
    """Median over all timed passes (harness excepted) of wall time / process CPU time."""
    ratios = [w / c for k in wall if k != "harness" for w, c in zip(wall[k], cpu[k]) if c > 0]
    return statistics.median(ratios) if ratios else float("nan")


def render(meta: dict[str, Any], stats: dict[str, dict[str, float]], cpu_stats: dict[str, dict[str, float]],
           checks: dict[str, Any]) -> str:
    med = {k: v["median"] for k, v in stats.items()}
    m = meta["machine"]
    pk = m["packages"]
    p = meta["params"]
    presets = meta["presets"]
    lines: list[str] = []
    add = lines.append
    add("## Scoring: `hkcore.score` under the five presets vs mahjong and PyMahjongGB")
    add("")
    if meta["implementation"] != "cython":
        add(f"> **WARNING: measured with the `{meta['implementation']}` core, not the compiled one. "
            "These numbers do not represent hkcore; re-run `python bench/bench_score.py` "
            "with the compiled core built.**")
        add("")
    add(f"- Date: {m['date']}; hkcore revision: {m['git']}")
    add(f"- Machine: {m['platform']} ({m['machine']}); CPU: {m['cpu']}; nproc: {m['nproc']}; "
        f"load average at start: {m['loadavg_at_start']}")
    add(f"- Python {m['python']} ({m['python_implementation']})")
    add(f"- Packages: hkcore {pk['hkcore']}, mahjong {pk['mahjong']}, PyMahjongGB {pk['PyMahjongGB']}, "
        f"pydantic {pk['pydantic']} (pydantic-core {pk['pydantic_core']}), pluggy {pk['pluggy']}, "
        f"Cython {pk['Cython']}")
    add(f"- Core implementation: `{meta['implementation']}` (`hkcore.core.IMPLEMENTATION`)")
    add(f"- Method: {p['reps']} repetitions × {p['n']:,} hands per measurement, seed {p['seed']}; every "
        "measurement of every repetition on its own fresh batch (all hands distinct across every batch, "
        "thirteen orphans excepted), built before its pass; functools caches cleared before every pass "
        "(hkcore's configuration caches excepted, see below); median per-call µs quoted, min–max over the "
        "repetitions; raw numbers in `bench/results_score.json`. Harness overhead "
        f"(`deque(map(id, hands))`): {bl.fmt_us(med['harness'])} µs per call, not subtracted.")
    add("")
    add(f"Target (from the issue): ≤ {TARGET_US:g} µs per `score` from a `Hand`, ahead of every peer.")
    add("")
    cpu = {k: v["median"] for k, v in cpu_stats.items()}
    add("| preset | tiles | `score(Hand)` µs (median) | min–max | CPU µs | `score(dict)` µs (median) | min–max "
        "| CPU µs | dict − Hand (validation) | ≤ 4 µs? | vs mahjong | vs PyMahjongGB |")
    add("|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|---|---|")
    for pr in presets:
        pid = pr["id"]
        kh, kd = f"hk.hand.{pid}", f"hk.dict.{pid}"
        h, d = stats[kh], stats[kd]
        met = "yes" if h["median"] <= TARGET_US else "no"
        add(f"| `{pid}` | {pr['tiles']} | {bl.fmt_us(h['median'])} | {bl.fmt_us(h['min'])}–{bl.fmt_us(h['max'])} "
            f"| {bl.fmt_us(cpu[kh])} | {bl.fmt_us(d['median'])} | {bl.fmt_us(d['min'])}–{bl.fmt_us(d['max'])} "
            f"| {bl.fmt_us(cpu[kd])} | {bl.fmt_us(d['median'] - h['median'])} | {met} "
            f"| {bl.fmt_ratio(h['median'], med['mahjong'])} | {bl.fmt_ratio(h['median'], med['mcr'])} |")
    add("")
    add("| peer (rules) | call | µs (median) | min–max | CPU µs |")
    add("|---|---|---:|---:|---:|")
    mj, mc = stats["mahjong"], stats["mcr"]
    add(f"| mahjong {pk['mahjong']} (riichi) | `HandCalculator().estimate_hand_value(tiles_136, win_tile_136, "
        f"melds, dora_indicators, config)` | {bl.fmt_us(mj['median'])} | {bl.fmt_us(mj['min'])}–{bl.fmt_us(mj['max'])} "
        f"| {bl.fmt_us(cpu['mahjong'])} |")
    add(f"| PyMahjongGB {pk['PyMahjongGB']} (Chinese official, MCR) | `MahjongGB.MahjongFanCalculator(pack, hand, "
        f"winTile, flowerCount, isSelfDrawn, is4thTile, isAboutKong, isWallLast, seatWind, prevalentWind)` "
        f"| {bl.fmt_us(mc['median'])} | {bl.fmt_us(mc['min'])}–{bl.fmt_us(mc['max'])} | {bl.fmt_us(cpu['mcr'])} |")
    add("")
    ratio = meta["wall_over_cpu"]
    add(f"Timing columns are wall-clock time per call; \"CPU µs\" is the median process CPU time per call in the same "
        f"passes. Load average at the start {m['loadavg_at_start']}, at the end of the timing "
        f"{meta['loadavg_at_end_of_timing']} (nproc {m['nproc']}); median wall/CPU over all passes {ratio:.2f}"
        + (" — the machine was busy (the process waited for a CPU), so the wall times are inflated and the CPU "
           "columns are the better estimate of the work; ratios between libraries hold either way, as the "
           "order of the passes rotates." if ratio > 1.05 else
           ": the process was not kept waiting for a CPU"
           + ("; but other processes were running (load average ≥ 1), and work on the sibling CPU slows a pass "
              "without showing in this ratio: the min–max spread shows how much." if _busy(meta) else ".")))
    add("")
    hand_meds = [med[f"hk.hand.{pr['id']}"] for pr in presets]
    best_peer = min(med["mahjong"], med["mcr"])
    lo, hi = min(hand_meds), max(hand_meds)
    target_met = hi <= TARGET_US
    ahead = hi < best_peer
    add(f"Summary: `score(Hand)` takes {bl.fmt_us(lo)}–{bl.fmt_us(hi)} µs across the presets. The "
        f"≤ {TARGET_US:g} µs target is " + ("met under every preset" if target_met else
                                             f"not met (fastest preset {lo / TARGET_US:.3g}× the target)")
        + "; hkcore is " + ("ahead of both peers" if ahead else "not ahead of every peer")
        + f" (mahjong {bl.fmt_us(med['mahjong'])} µs, PyMahjongGB {bl.fmt_us(med['mcr'])} µs per hand).")
    start, end = meta.get("other_bench_at_start"), meta.get("other_bench_at_end")
    if meta.get("other_bench_waited_s", 0) >= 1 or start or end:
        add(f"Other benchmarks: waited {meta.get('other_bench_waited_s', 0):.0f} s before timing for other "
            f"`bench_*.py` runs to end; running at the start of the timing: {start or 'none'}; at its end: "
            f"{end or 'none'}.")
        add("")

    # workload
    w = meta["workload"]
    n_hk = w["hands"]
    add("Inputs:")
    add("")
    add(f"- hkcore: random complete hands (4 random sets — chow or pung, half each — and a pair, ≤ 4 copies "
        f"of a tile; {p['orphans_share']:.0%} thirteen orphans), as RULES.md dicts with every context field. "
        "0–4 of the sets are declared (weights 40/20/20/12/8 %), in random order: chows claimed from the seat "
        "before the winner, pungs from another seat, a pung whose fourth copy is free made a kong 30 % of the "
        "time (40 % of those concealed, no `from`). Winning tile: a random concealed tile. Random seat and "
        "round winds; self-draw 50 %, else a discard with a random other seat as `discarder`; kong "
        "replacement in 30 % of self-draws with a kong (2 in 30 % of those with two kongs); last tile 3 %; "
        "robbing a kong in 5 % of discard wins whose winning tile is held once (the discarder is then the "
        "kong-maker). Flowers and seasons (each tile 25 %) for the 144-tile presets only; `just-cards` and "
        "`hk-classic` get hands without bonus tiles. Every dict was validated (`Hand.parse`) before timing; "
        "the `Hand` batches were parsed before timing.")
    add(f"- Over the {n_hk:,} timed hkcore hands: declared sets 0/1/2/3/4 = "
        + "/".join(_pct(w.get(f"melds_{k}", 0) / n_hk) for k in range(5))
        + f"; with a kong {_pct(w.get('with_kong', 0) / n_hk)} "
        f"(concealed {_pct(w.get('with_concealed_kong', 0) / n_hk)}); "
        f"with a claimed chow {_pct(w.get('with_chow_meld', 0) / n_hk)}; "
        f"self-draw {_pct(w.get('self_draw', 0) / n_hk)}; "
        f"last tile {_pct(w.get('last_tile', 0) / n_hk)}; kong replacement 1/2: "
        f"{_pct(w.get('kong_replacement_1', 0) / n_hk)}/{_pct(w.get('kong_replacement_2', 0) / n_hk)}; "
        f"robbing a kong {_pct(w.get('robbing_kong', 0) / n_hk)}; thirteen orphans "
        f"{_pct(w.get('thirteen_orphans', 0) / n_hk)}; mean bonus tiles (144-tile presets) "
        f"{w['mean_bonus_tiles_144']:.2f}, 7 or more {w.get('seven_plus_bonus', 0):,} hands.")
    ms = meta["mahjong_prep"]
    add(f"- mahjong: the same kind of hands and contexts as 136-tile ids (random copies) with `Meld` objects "
        "(chi/pon/kan; concealed kongs `opened=False`), one dora indicator plus one per kong, and a `HandConfig` "
        "(tsumo, riichi, ippatsu, rinshan = kong replacement, chankan = robbing, haitei/houtei = last tile, "
        "seat and round wind; open tanyao and red fives on). Closed hands get riichi (always on a discard win, "
        f"else {RIICHI_SHARE:.0%}), so they have a yaku; each candidate was scored once on a twin input and "
        f"redrawn when mahjong reported an error ({ms.get('redrawn_open', 0):,} of {ms.get('drawn_open', 0):,} "
        f"open and {ms.get('redrawn_closed', 0):,} of {ms.get('drawn_closed', 0):,} closed candidates over the timed "
        f"batches, all `no_yaku`: {ms.get('redrawn_no_yaku', 0):,}). One `HandConfig` per distinct win context "
        f"and batch (at most {ms.get('configs_per_batch_max', 0)}); the timed `Meld` and `HandConfig` objects "
        "were never used before their pass.")
    add("- PyMahjongGB: the same kind of hands as packs (`(\"CHI\", middle tile, which tile was claimed 1..3)`, "
        "`(\"PENG\"/\"GANG\", tile, giver 1 left/2 opposite/3 right)`, concealed kong offer 0), the standing "
        "tiles without the winning tile, the flower count (the same 25 % per bonus tile), self-drawn, "
        f"is4thTile ({FOURTH_TILE_SHARE:.0%} of wins on a tile held once, robbing excepted), isAboutKong "
        "(kong replacement or robbing), isWallLast (last tile), seat and prevalent wind.")
    add(f"- Repeated hands (thirteen orphans only): {meta['repeated_hands']:,} over "
        f"{meta['hands_drawn']:,} drawn in the run.")
    add("")

    # checks
    add(f"Checks on an untimed batch of {checks['check_n']:,} hands per preset and per peer (also the warm-up):")
    add("")
    add("| preset | complete | winnable | limit | faan mean / median / max | readings per hand | "
        "evaluations per hand | Hand vs dict results differ | most met patterns |")
    add("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    cn = checks["check_n"]
    for pr in presets:
        c = checks["presets"][pr["id"]]
        ev = c["evaluations_per_hand"]
        inc = ""
        if c.get("incomplete_orphans") or c.get("incomplete_other"):
            inc = f" ({c.get('incomplete_orphans', 0)} thirteen orphans, {c.get('incomplete_other', 0)} other not)"
        tops = ", ".join(f"{k} {v / cn:.0%}" for k, v in list(c["top_patterns"].items())[:5])
        add(f"| `{pr['id']}` | {_pct(c.get('complete', 0) / cn)}{inc} | {_pct(c.get('winnable', 0) / cn)} "
            f"| {_pct(c.get('limit', 0) / cn)} | {c['faan_mean']:.2f} / {c['faan_median']:g} / {c['faan_max']} "
            f"| {c['readings_per_hand']:.2f} | {'—' if ev is None else format(ev, '.2f')} "
            f"| {c.get('hand_vs_dict_differ', 0)} | {tops} |")
    add("")
    cm, cg = checks["mahjong"], checks["mcr"]
    add(f"- mahjong: {cn:,} scoring inputs kept (redrawn for an error: {cm.get('redrawn_open', 0)} open, "
        f"{cm.get('redrawn_closed', 0)} closed of {cm.get('drawn', 0)} candidates); mean han {cm['han_mean']:.2f}, "
        f"yakuman {cm['yakuman']}.")
    errs = cg["errors"]
    add(f"- PyMahjongGB: errors {sum(errs.values())}{' ' + str(errs) if errs else ''}; mean fan "
        f"{cg['fan_mean']:.1f}; {_pct(cg['eight_or_more'] / cn)} reach the 8-fan minimum (the calculator scores "
        "any complete hand and does not apply the minimum, so the rest are valid inputs too).")
    counts = [pr["patterns"] for pr in presets if pr.get("patterns")]
    span = f"{min(counts)}–{max(counts)}" if counts else "their"
    add(f"- Not comparable as rule sets: the peers score other games. The work is the same kind — decompose, "
        "detect patterns, choose the best reading — but the catalogues differ (mahjong: the yaku of its "
        "`YakuConfig` plus fu, dora and payments; PyMahjongGB: the 81 MCR fan; hkcore's presets: "
        f"{span} patterns plus payments).")
    add(f"- hkcore caches: cleared before every pass: {', '.join(meta['hkcore_caches_cleared']) or 'none found'}; "
        f"kept warm (configuration, keyed by preset or process-wide, not by hand): "
        f"{', '.join(meta['hkcore_caches_warm']) or 'none'}; the plugin registry, the preset store and the "
        "compiled built-in presets are built once and kept for the process's life, as a server has them. mahjong "
        "`HandDivider._divide_hand_impl` (lru_cache) cleared before every pass; `Meld.tiles_34` "
        "(cached_property) is fresh on every timed `Meld`. Every timed `Hand` comes fresh from `Hand.parse` "
        "and is scored for the first time in its pass: whatever the engine works out and keeps on a `Hand` at "
        "its first score is timed; what `Hand.parse` works out (validation, and anything the engine builds "
        "then) is timed only on the dict lines.")
    add("")

    add("Reproduce: build the compiled core (`pip install -e .` or `python setup.py build_ext --inplace`), "
        "install the peers (`pip install -e \".[bench]\"`), then `python bench/bench_score.py` "
        "(`--help` for options). Raw numbers: `bench/results_score.json`.")
    return "\n".join(lines)


# --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=None, help=f"hands per batch (default {DEFAULT_N:,})")
    ap.add_argument("--reps", type=int, default=None, help=f"repetitions (default {DEFAULT_REPS})")
    ap.add_argument("--check-n", type=int, default=None,
                    help=f"hands in each untimed check batch (default {DEFAULT_CHECK_N:,})")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--orphans-share", type=float, default=ORPHANS_SHARE, help="share of thirteen-orphans hands")
    ap.add_argument("--quick", action="store_true", help="2,000 hands × 3 repetitions (a smoke test)")
    ap.add_argument("--allow-python", action="store_true",
                    help="run and write results even if the pure-Python core is active")
    ap.add_argument("--output-dir", type=Path, default=bl.BENCH_DIR,
                    help="where RESULTS.md and results_score.json go (default: bench/)")
    ap.add_argument("--no-write", action="store_true", help="print the section, write nothing")
    ap.add_argument("--wait-for-other-bench", type=float, default=None, metavar="SECONDS",
                    help="before timing, wait up to SECONDS for other bench_*.py runs to end "
                         "(default 900, 0 with --quick)")
    args = ap.parse_args(argv)

    n = args.n or (2_000 if args.quick else DEFAULT_N)
    reps = args.reps or (3 if args.quick else DEFAULT_REPS)
    check_n = args.check_n or (1_000 if args.quick else DEFAULT_CHECK_N)

    hk = load_hkcore(args.allow_python)
    if hk["implementation"] != "cython" and not args.allow_python:
        log(f"bench_score: the active core is {hk['implementation']!r}, not 'cython' "
            f"(hkcore from {hk['hkcore_path']}). Build it (pip install -e . or "
            "python setup.py build_ext --inplace) or pass --allow-python; no results written.")
        return 2
    peers = load_peers()
    presets = []
    for pid in hk["presets"]:
        pr = hk["load_preset"](pid)
        presets.append({"id": pid, "tiles": pr.tiles, "bonus": pr.tiles == 144, "patterns": len(pr.patterns)})
    log(f"hkcore core: {hk['implementation']} ({hk['impl_file']}); presets {hk['presets']}; "
        f"n={n:,} reps={reps} check_n={check_n:,} seed={args.seed}")

    machine = bl.machine_info(PACKAGES)  # load average before the run
    src = HandSource(Random(args.seed), args.orphans_share)

    caches = bl.hkcore_caches(exclude=CONFIG_CACHES) + peers["caches"]
    cleared = [name for name, _ in bl.hkcore_caches(exclude=CONFIG_CACHES)]
    warm = [name for name, _ in bl.hkcore_caches() if name in CONFIG_CACHES]

    def clear() -> None:
        for _name, fn in caches:
            fn.cache_clear()

    log("checking on the untimed batches (also the warm-up) ...")
    checks = run_checks(hk, peers, presets, src, check_n)

    # Other bench scripts on a 2-CPU machine disturb the timing (and are disturbed):
    # wait for them where _benchlib offers it.
    wait_for = args.wait_for_other_bench
    if wait_for is None:
        wait_for = 0.0 if args.quick else 900.0
    waited = 0.0
    if wait_for > 0 and hasattr(bl, "wait_for_other_bench"):
        waited = bl.wait_for_other_bench(wait_for, log)
    others = getattr(bl, "other_bench_processes", lambda: [])
    others_start = others()

    log("timing ...")
    workload = Workload()
    mstats: Counter[str] = Counter()
    steps = plan(hk, peers, presets)
    per_call, per_call_cpu = run_timing(
        steps, lambda r: prepare_rep(src, n, hk, peers, presets, workload, mstats), reps, clear)
    stats = {k: bl.summary(v) for k, v in per_call.items()}
    cpu_stats = {k: bl.summary(v) for k, v in per_call_cpu.items()}
    load_end = _loadavg()
    others_end = others()

    if machine["packages"]["hkcore"] == "not installed":
        machine["packages"]["hkcore"] = f"{hk['version']} (source tree, not installed)"
    meta = {
        "implementation": hk["implementation"],
        "hkcore_path": hk["hkcore_path"],
        "impl_file": hk["impl_file"],
        "machine": machine,
        "params": {"n": n, "reps": reps, "check_n": check_n, "seed": args.seed,
                   "orphans_share": args.orphans_share},
        "presets": presets,
        "workload": workload.as_dict(),
        "mahjong_prep": dict(mstats),
        "repeated_hands": src.repeats,
        "hands_drawn": src.drawn,
        "hkcore_caches_cleared": cleared,
        "hkcore_caches_warm": warm,
        "target_us": TARGET_US,
        "loadavg_at_end_of_timing": load_end,
        "other_bench_waited_s": waited,
        "other_bench_at_start": "; ".join(others_start),
        "other_bench_at_end": "; ".join(others_end),
        "wall_over_cpu": _wall_over_cpu(per_call, per_call_cpu),
    }
    section = render(meta, stats, cpu_stats, checks)
    raw = {
        "meta": meta,
        "measurements": {
            s["key"]: {"label": s["label"], "per_call_us": per_call[s["key"]], **stats[s["key"]],
                       "cpu_per_call_us": per_call_cpu[s["key"]],
                       "cpu": cpu_stats[s["key"]]}
            for s in steps
        },
        "checks": checks,
    }
    bl.publish(None if args.no_write else args.output_dir, SECTION, section, raw, "results_score.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
