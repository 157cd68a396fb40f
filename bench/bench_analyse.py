#!/usr/bin/env python
"""Benchmark hkcore.analyse on waiting hands under the five presets against mahjong.

    python bench/bench_analyse.py                # full run, writes bench/RESULTS.md
    python bench/bench_analyse.py --quick --no-write

Per-call µs of ``hkcore.analyse(position, preset)`` on random waiting 13-tile
positions (a complete hand from bench_score's generator less its winning
tile, with its melds, winds and bonus tiles), under each built-in preset,
from a validated ``Position``. The answer is every wait with its unseen
copies and its value on a discard and on a self-draw. Beside it the same
answer composed from the ``mahjong`` package (riichi rules) on its own
prepared inputs: the waits by 34 × ``Agari.is_agari``, then
``HandCalculator.estimate_hand_value`` per wait on a discard and on a
self-draw. Each repetition uses fresh positions (distinct across every
batch) and functools caches are cleared before every timed pass. See
bench/README.md for the method.

Writes the ``analyse`` section of bench/RESULTS.md and
bench/results_analyse.json. If the active core is not the compiled one it
writes nothing and exits with status 2, unless ``--allow-python`` is given.
"""
from __future__ import annotations

import argparse
import dataclasses
import gc
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
import bench_score as bs

SECTION = "analyse"
DEFAULT_N = 20_000
DEFAULT_REPS = 7
DEFAULT_CHECK_N = 2_000
DEFAULT_VALUE_CHECK_N = 300
DEFAULT_SEED = 20240613
TARGET_US = 20.0
ORPHANS_SHARE = bs.ORPHANS_SHARE
PACKAGES = ("hkcore", "mahjong", "pydantic", "pydantic_core", "pluggy", "Cython")
POSITION_FIELDS = ("tiles", "melds", "seat_wind", "round_wind", "flowers", "seasons")

log = bl.log


# --------------------------------------------------------------------------
# Waiting positions: bench_score's won hands less their winning tile


def waiting_counts(s: bs.Situation) -> list[int]:
    """34 counts of the concealed tiles of ``s`` without its winning tile."""
    c = list(s.concealed)
    c[s.win] -= 1
    return c


def waiting_and_used(s: bs.Situation) -> tuple[list[int], list[int]]:
    """34 counts of the waiting concealed tiles, and of those plus the declared sets' tiles."""
    concealed = waiting_counts(s)
    used = list(concealed)
    for code, _hidden, _frm in s.melds:
        for t in bs.set_tiles(code):
            used[t] += 1
    return concealed, used


class PositionSource:
    """Situations whose waiting positions are distinct across every batch.

    Built on ``bench_score.HandSource`` (the complete hands are distinct);
    a position is its concealed tiles without the winning tile and its melds
    (kind, tile, concealed), whatever the context. Two complete hands can
    leave the same position: the later one is redrawn. Thirteen-orphans
    positions are the exception (about 160 exist) and are counted as repeats.
    """

    def __init__(self, rng: Random, orphans_share: float) -> None:
        self.rng = rng
        self.hands = bs.HandSource(rng, orphans_share)
        self.seen: set[bytes] = set()
        self.repeats = 0
        self.redrawn = 0
        self.drawn = 0

    def draw(self) -> bs.Situation:
        while True:
            s = self.hands.draw()
            key = bytes(waiting_counts(s)) + bytes(sorted(2 * code + hidden for code, hidden, _ in s.melds))
            if key in self.seen:
                if not s.is_orphans:
                    self.redrawn += 1
                    continue
                self.repeats += 1
            self.seen.add(key)
            self.drawn += 1
            return s


def position_dict(s: bs.Situation, bonus: bool) -> dict[str, Any]:
    """The Position dict of a situation: ``hk_dict`` without the win, 13 − 3k tiles."""
    d = bs.hk_dict(s, bonus)
    out = {k: d[k] for k in POSITION_FIELDS}
    out["tiles"] = bl.canonical(waiting_counts(s))
    return out


# --------------------------------------------------------------------------
# mahjong: native inputs and the composed answer


@dataclass
class MahjongPosition:
    """A waiting position as mahjong (riichi) data; ``mahjong_args`` builds fresh objects from it."""

    concealed: list[int]          # 34 counts of the concealed tiles
    used: list[int]               # 34 counts of concealed and declared tiles
    spec: bs.MahjongSpec          # the won hand's spec: melds (136 ids); tiles/win/dora replaced below
    reserve: list[int]            # per tile a free 136 id to win on (-1: all four copies held)
    contexts: tuple[tuple, tuple]  # HandConfig values on a discard, on a self-draw


def mahjong_position(s: bs.Situation, rng: Random) -> MahjongPosition:
    """136-tile ids of the 13 tiles, melds, one free copy of every tile to win on, dora, contexts.

    ``bench_score.mahjong_spec`` draws the ids and melds of the won hand; its
    winning tile is taken out. One free copy of each tile is kept aside as
    the tile to win on; the dora indicators (one, plus one per kong) are drawn
    from the other free copies. Closed hands (no claimed set) get riichi on
    both contexts so they always have a yaku; open hands have no riichi and
    may have no yaku on some waits (mahjong then answers ``no_yaku``).
    """
    spec = bs.mahjong_spec(s, rng)
    tiles = list(spec.tiles)
    tiles.remove(spec.win)
    held = set(tiles)
    reserve, free = [], []
    for t in range(34):
        ids = [4 * t + c for c in range(4) if 4 * t + c not in held]
        if ids:
            w = ids.pop(rng.randrange(len(ids)))
            reserve.append(w)
            free.extend(ids)
        else:
            reserve.append(-1)
    dora = rng.sample(free, len(spec.dora))
    spec = dataclasses.replace(spec, tiles=tiles, win=-1, dora=dora, riichi=not spec.opened)
    concealed, used = waiting_and_used(s)
    riichi = not spec.opened
    contexts = tuple((tsumo, riichi, False, False, False, False, False, 27 + s.seat, 27 + s.round)
                     for tsumo in (False, True))
    return MahjongPosition(concealed, used, spec, reserve, contexts)  # type: ignore[arg-type]


def _config(configs: dict[tuple, Any], context: tuple, mj: dict[str, Any]) -> Any:
    config = configs.get(context)
    if config is None:
        config = configs[context] = mj["HandConfig"](**dict(zip(bs.MAHJONG_CONTEXT, context)),
                                                     options=mj["options"]())
    return config


def mahjong_args(mp: MahjongPosition, configs: dict[tuple, Any], mj: dict[str, Any]) -> tuple:
    """Fresh arguments of ``mahjong_analyse``: (concealed_34, used_34, tiles_136, reserve,
    melds, dora_indicators, config_on_discard, config_on_self_draw).

    Melds come from ``bench_score.mahjong_args`` (new ``Meld`` objects);
    ``configs`` holds one HandConfig per context and batch, as there.
    """
    tiles, _win, melds, dora, on_discard = bs.mahjong_args(
        dataclasses.replace(mp.spec, context=mp.contexts[0]), configs, mj)
    on_self_draw = _config(configs, mp.contexts[1], mj)
    return (list(mp.concealed), list(mp.used), tiles, list(mp.reserve), melds, dora, on_discard, on_self_draw)


def make_mahjong_analyse(mj: dict[str, Any]) -> tuple[Callable[..., list], Callable[..., list]]:
    """The answer of ``analyse`` composed from mahjong, and its first half (the waits only)."""
    is_agari = mj["Agari"]().is_agari
    estimate = mj["estimate"]

    def mahjong_waits(concealed: list[int], used: list[int], *_rest: Any) -> list[int]:
        counts = list(concealed)
        waits = []
        for t in range(34):
            if used[t] >= 4:
                continue
            counts[t] += 1
            if is_agari(counts):
                waits.append(t)
            counts[t] -= 1
        return waits

    def mahjong_analyse(concealed: list[int], used: list[int], tiles: list[int], reserve: list[int],
                        melds: list[Any], dora: list[int], on_discard: Any, on_self_draw: Any) -> list:
        """[(tile_34, unseen, result on a discard, result on a self-draw)] for every wait."""
        out = []
        for t in mahjong_waits(concealed, used):
            w = reserve[t]
            hand = tiles + [w]
            out.append((t, 4 - used[t], estimate(hand, w, melds, dora, on_discard),
                        estimate(hand, w, melds, dora, on_self_draw)))
        return out

    return mahjong_analyse, mahjong_waits


# --------------------------------------------------------------------------
# Batches


class Workload:
    """Counts describing the positions that were timed."""

    def __init__(self) -> None:
        self.c: Counter[str] = Counter()
        self.bonus_tiles = 0
        self.bonus_positions = 0

    def add(self, s: bs.Situation, bonus: bool | None) -> None:
        c = self.c
        c["positions"] += 1
        c[f"melds_{len(s.melds)}"] += 1
        kongs = [h for code, h, _ in s.melds if code >= bs.KONG]
        c["with_kong"] += bool(kongs)
        c["with_concealed_kong"] += any(kongs)
        c["open"] += any(not h for _, h, _ in s.melds)
        c["thirteen_orphans"] += s.is_orphans
        if bonus:
            self.bonus_positions += 1
            self.bonus_tiles += len(s.flowers) + len(s.seasons)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.c)
        out["mean_bonus_tiles_144"] = self.bonus_tiles / self.bonus_positions if self.bonus_positions else None
        return out


def hk_batch(src: PositionSource, n: int, preset: dict[str, Any], Position: Any,
             workload: Workload | None) -> list[Any]:
    """``n`` fresh validated Positions for a preset (bonus tiles only on the 144-tile presets)."""
    out = []
    for _ in range(n):
        s = src.draw()
        out.append(Position.parse(position_dict(s, preset["bonus"])))  # raises on a generator bug
        if workload is not None:
            workload.add(s, preset["bonus"])
    return out


def mahjong_waits_batch(src: PositionSource, n: int) -> list[tuple]:
    """``n`` fresh (concealed_34, used_34) pairs: all ``mahjong_waits`` reads."""
    out = []
    for _ in range(n):
        out.append(waiting_and_used(src.draw()))
    return out


def mahjong_batch(src: PositionSource, n: int, mj: dict[str, Any], workload: Workload | None) -> list[tuple]:
    """``n`` fresh mahjong argument tuples (no redraw: every position is kept)."""
    configs: dict[tuple, Any] = {}
    out = []
    for _ in range(n):
        s = src.draw()
        out.append(mahjong_args(mahjong_position(s, src.rng), configs, mj))
        if workload is not None:
            workload.add(s, None)
    return out


# --------------------------------------------------------------------------
# What the answers hold (untimed)


def hk_tally(analyses: Sequence[Any], tally: Counter[str]) -> None:
    for a in analyses:
        tally["positions"] += 1
        tally["not_waiting"] += not a.waiting
        tally["waits"] += len(a.waits)
        tally["unseen"] += sum(w.unseen for w in a.waits)
        for w in a.waits:
            tally["winnable_on_discard"] += w.on_discard.winnable
            tally["winnable_on_self_draw"] += w.on_self_draw.winnable
            tally["faan_on_discard"] += w.on_discard.faan
            tally["faan_on_self_draw"] += w.on_self_draw.faan


def mj_tally(answers: Sequence[list], tally: Counter[str]) -> None:
    for ans in answers:
        tally["positions"] += 1
        tally["not_waiting"] += not ans
        tally["waits"] += len(ans)
        for _t, unseen, on_discard, on_self in ans:
            tally["unseen"] += unseen
            for name, r in (("on_discard", on_discard), ("on_self_draw", on_self)):
                if r.error:
                    tally[f"error_{name}_{r.error}"] += 1
                else:
                    tally[f"scored_{name}"] += 1
                    tally[f"han_{name}"] += r.han


def _is_seven_pairs(counts: Sequence[int]) -> bool:
    return sum(counts) == 14 and all(c in (0, 2) for c in counts)


# --------------------------------------------------------------------------
# Checks (an untimed batch; also the warm-up)


def run_checks(hk: dict[str, Any], mj: dict[str, Any], presets: list[dict[str, Any]], src: PositionSource,
               check_n: int, value_n: int) -> dict[str, Any]:
    """The same positions under every preset and composed from mahjong: waits compared,
    ``analyse(Position)`` vs ``analyse(dict)``, values vs ``score(position.with_tile(...))``."""
    analyse, score, Position = hk["analyse"], hk["score"], hk["Position"]
    mahjong_analyse, _ = make_mahjong_analyse(mj)
    sits = [src.draw() for _ in range(check_n)]
    configs: dict[tuple, Any] = {}
    mj_answers = [mahjong_analyse(*mahjong_args(mahjong_position(s, src.rng), configs, mj)) for s in sits]
    mj_waits = [[t for t, *_ in ans] for ans in mj_answers]
    mtally: Counter[str] = Counter()
    mj_tally(mj_answers, mtally)
    out: dict[str, Any] = {"check_n": check_n, "value_check_n": min(value_n, check_n), "presets": {},
                           "mahjong": dict(mtally)}
    for p in presets:
        pid = p["id"]
        c: Counter[str] = Counter()
        tally: Counter[str] = Counter()
        analyses = []
        for i, s in enumerate(sits):
            d = position_dict(s, p["bonus"])
            pos = Position.parse(d)
            a = analyse(pos, pid)
            analyses.append(a)
            c["position_vs_dict_differ"] += a != analyse(d, pid)
            hw = sorted(hk["tile_index"][w.tile] for w in a.waits)
            mw = mj_waits[i]
            if hw == mw:
                c["waits_equal"] += 1
            else:
                counts = waiting_counts(s)
                extra_mj = set(mw) - set(hw)
                extra_hk = set(hw) - set(mw)
                seven = all(_is_seven_pairs([x + (j == t) for j, x in enumerate(counts)]) for t in extra_mj)
                if not extra_hk and seven:
                    c["waits_differ_seven_pairs"] += 1
                elif not extra_hk and s.is_orphans and "thirteen_orphans" not in p["shapes"]:
                    c["waits_differ_thirteen_orphans_not_a_shape"] += 1
                else:
                    c["waits_differ_other"] += 1
                    if len(out.setdefault("examples", {}).setdefault(pid, [])) < 5:
                        out["examples"][pid].append({"position": d, "hkcore": sorted(hw), "mahjong": mw})
            mu = {t: u for t, u, *_ in mj_answers[i]}
            c["unseen_differ"] += any(mu.get(hk["tile_index"][w.tile], w.unseen) != w.unseen for w in a.waits)
            if i < value_n:
                for w in a.waits:
                    for self_draw, v in ((False, w.on_discard), (True, w.on_self_draw)):
                        c["values_checked"] += 1
                        try:
                            r = score(pos.with_tile(w.tile, self_draw=self_draw), pid)
                        except Exception as exc:  # noqa: BLE001 - reported, never fatal
                            c[f"value_check_error_{type(exc).__name__}"] += 1
                            continue
                        c["value_differs_from_score"] += (r.faan, r.winnable) != (v.faan, v.winnable)
        hk_tally(analyses, tally)
        out["presets"][pid] = {**dict(c), "tally": dict(tally)}
    return out


# --------------------------------------------------------------------------
# Timing


def prepare_rep(src: PositionSource, n: int, hk: dict[str, Any], mj: dict[str, Any], presets: list[dict[str, Any]],
                workload: Workload) -> dict[str, list]:
    """One repetition's inputs, all fresh: a batch of Positions per preset, two mahjong batches."""
    inputs: dict[str, list] = {}
    for p in presets:
        inputs[f"pos.{p['id']}"] = hk_batch(src, n, p, hk["Position"], workload)
    inputs["mahjong"] = mahjong_batch(src, n, mj, workload)
    inputs["mahjong.waits"] = mahjong_waits_batch(src, n)
    return inputs


def plan(hk: dict[str, Any], mj: dict[str, Any], presets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    mahjong_analyse, mahjong_waits = make_mahjong_analyse(mj)
    steps = [{"key": "harness", "label": "harness: builtin id() via map (overhead reference)",
              "fn": id, "inputs": f"pos.{presets[0]['id']}", "consts": (), "star": False, "tally": None}]
    for p in presets:
        pid = p["id"]
        steps.append({"key": f"hk.{pid}", "label": f"hkcore.analyse(Position, {pid!r})",
                      "fn": hk["analyse"], "inputs": f"pos.{pid}", "consts": (pid,), "star": False,
                      "tally": "hk"})
    steps.append({"key": "mahjong", "label": "mahjong composed: 34 × Agari().is_agari(concealed_34 + tile), then "
                  "HandCalculator().estimate_hand_value(tiles_136, win_tile_136, melds, dora_indicators, config) "
                  "per wait on a discard and on a self-draw",
                  "fn": mahjong_analyse, "inputs": "mahjong", "consts": (), "star": True, "tally": "mj"})
    steps.append({"key": "mahjong.waits",
                  "label": "mahjong, the waits only: 34 × Agari().is_agari(concealed_34 + tile)",
                  "fn": mahjong_waits, "inputs": "mahjong.waits", "consts": (), "star": True, "tally": "mjw"})
    return steps


def _calls(step: dict[str, Any], batch: list) -> Any:
    """The lazy calls of one step over its inputs (starred, or with its constants repeated)."""
    if step["star"]:
        return starmap(step["fn"], batch)
    return map(step["fn"], batch, *(repeat(c) for c in step["consts"]))


def run_timing(steps: list[dict[str, Any]], make_inputs: Callable[[int], dict[str, list]], reps: int,
               clear: Callable[[], None], tallies: dict[str, Counter[str]]
               ) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """As ``bench_score.run_timing`` (fresh inputs per repetition, rotating order), and after
    each pass, untimed, the same calls again to tally what the answers hold."""
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

            wall_ns, cpu_ns = bl.time_pass(_calls(s, batch), len(batch))
            results[s["key"]].append(wall_ns / 1000.0)
            cpu[s["key"]].append(cpu_ns / 1000.0)
            if s["tally"] is not None:  # untimed: what the timed calls answered
                answers = list(_calls(s, batch))
                t = tallies.setdefault(s["key"], Counter())
                if s["tally"] == "hk":
                    hk_tally(answers, t)
                elif s["tally"] == "mj":
                    mj_tally(answers, t)
                else:
                    t["positions"] += len(answers)
                    t["waits"] += sum(len(a) for a in answers)
                del answers
        del inputs
        gc.collect()
        log(f"  repetition {r + 1}/{reps} done")
    return results, cpu


# --------------------------------------------------------------------------
# Report


_pct = bs._pct


def _mean(t: dict[str, int], key: str, per: str = "positions") -> float:
    return t.get(key, 0) / t[per] if t.get(per) else float("nan")


def render(meta: dict[str, Any], stats: dict[str, dict[str, float]], cpu_stats: dict[str, dict[str, float]],
           tallies: dict[str, dict[str, int]], checks: dict[str, Any]) -> str:
    med = {k: v["median"] for k, v in stats.items()}
    cpu = {k: v["median"] for k, v in cpu_stats.items()}
    m = meta["machine"]
    pk = m["packages"]
    p = meta["params"]
    presets = meta["presets"]
    lines: list[str] = []
    add = lines.append
    add("## Analysing a hand in play: `hkcore.analyse` under the five presets vs mahjong composed")
    add("")
    if meta["implementation"] != "cython":
        add(f"> **WARNING: measured with the `{meta['implementation']}` core, not the compiled one. "
            "These numbers do not represent hkcore; re-run `python bench/bench_analyse.py` "
            "with the compiled core built.**")
        add("")
    add(f"- Date: {m['date']}; hkcore revision: {m['git']}")
    add(f"- Machine: {m['platform']} ({m['machine']}); CPU: {m['cpu']}; nproc: {m['nproc']}; "
        f"load average at start: {m['loadavg_at_start']}")
    add(f"- Python {m['python']} ({m['python_implementation']})")
    add(f"- Packages: hkcore {pk['hkcore']}, mahjong {pk['mahjong']}, pydantic {pk['pydantic']} "
        f"(pydantic-core {pk['pydantic_core']}), pluggy {pk['pluggy']}, Cython {pk['Cython']}")
    add(f"- Core implementation: `{meta['implementation']}` (`hkcore.core.IMPLEMENTATION`)")
    add(f"- Method: {p['reps']} repetitions × {p['n']:,} waiting positions per measurement, seed {p['seed']}; "
        "every measurement of every repetition on its own fresh batch (all positions distinct across every "
        "batch, thirteen orphans excepted), built before its pass; functools caches cleared before every pass "
        "(hkcore's configuration caches excepted, as in the score section); median per-call µs quoted, min–max "
        "over the repetitions; raw numbers in `bench/results_analyse.json`. Harness overhead "
        f"(`deque(map(id, positions))`): {bl.fmt_us(med['harness'])} µs per call, not subtracted.")
    add("")
    add(f"Target: ≤ {TARGET_US:g} µs per `analyse` call on a waiting position.")
    add("")
    mjt = tallies.get("mahjong", {})
    mj_waits = _mean(mjt, "waits")
    add("| preset | tiles | `analyse(Position)` µs (median) | min–max | CPU µs | "
        f"≤ {TARGET_US:g} µs? | waits per position | winnable on a discard / self-draw (share of waits) "
        "| vs mahjong composed |")
    add("|---|---:|---:|---:|---:|:---:|---:|---:|---|")
    for pr in presets:
        pid = pr["id"]
        key = f"hk.{pid}"
        h = stats[key]
        t = tallies.get(key, {})
        met = "yes" if h["median"] <= TARGET_US else "no"
        add(f"| `{pid}` | {pr['tiles']} | {bl.fmt_us(h['median'])} | {bl.fmt_us(h['min'])}–{bl.fmt_us(h['max'])} "
            f"| {bl.fmt_us(cpu[key])} | {met} | {_mean(t, 'waits'):.3f} "
            f"| {_pct(_mean(t, 'winnable_on_discard', 'waits'))} / {_pct(_mean(t, 'winnable_on_self_draw', 'waits'))} "
            f"| {bl.fmt_ratio(h['median'], med['mahjong'])} |")
    add("")
    add("| mahjong (riichi) | µs per position (median) | min–max | CPU µs | waits per position |")
    add("|---|---:|---:|---:|---:|")
    mw = stats["mahjong.waits"]
    add(f"| mahjong {pk['mahjong']} composed: waits by 34 × `Agari().is_agari(concealed_34 + tile)` (tiles with four "
        "copies out skipped), then `HandCalculator().estimate_hand_value(tiles_136, win_tile_136, melds, "
        f"dora_indicators, config)` per wait on a discard and on a self-draw | {bl.fmt_us(med['mahjong'])} "
        f"| {bl.fmt_us(stats['mahjong']['min'])}–{bl.fmt_us(stats['mahjong']['max'])} | {bl.fmt_us(cpu['mahjong'])} "
        f"| {mj_waits:.3f} |")
    add(f"| of which the waits alone (34 × `is_agari`, on its own fresh batch) | {bl.fmt_us(mw['median'])} "
        f"| {bl.fmt_us(mw['min'])}–{bl.fmt_us(mw['max'])} | {bl.fmt_us(cpu['mahjong.waits'])} "
        f"| {_mean(tallies.get('mahjong.waits', {}), 'waits'):.3f} |")
    add("")
    ratio = meta["wall_over_cpu"]
    add(f"Timing columns are wall-clock time per call; \"CPU µs\" is the median process CPU time per call in the same "
        f"passes. Load average at the start {m['loadavg_at_start']}, at the end of the timing "
        f"{meta['loadavg_at_end_of_timing']} (nproc {m['nproc']}); median wall/CPU over all passes {ratio:.2f}"
        + (" — the machine was busy (the process waited for a CPU), so the wall times are inflated and the CPU "
           "columns are the better estimate of the work." if ratio > 1.05 else
           ": the process was not kept waiting for a CPU"
           + ("; but other processes were running (load average ≥ 1), and work on the sibling CPU slows a pass "
              "without showing in this ratio: the min–max spread shows how much." if bs._busy(meta) else ".")))
    start, end = meta.get("other_bench_at_start"), meta.get("other_bench_at_end")
    if meta.get("other_bench_waited_s", 0) >= 1:
        add(f"Before timing, the run waited {meta['other_bench_waited_s']:.0f} s for other `bench_*.py` "
            "processes to end.")
    if start or end:
        add(f"Other `bench_*.py` processes were running at the start of the timing ({start or 'none'}) or at "
            f"its end ({end or 'none'}): the figures are disturbed.")
    else:
        add("No other `bench_*.py` process was running at the start or at the end of the timing.")
    add("")
    meds = [med[f"hk.{pr['id']}"] for pr in presets]
    lo, hi = min(meds), max(meds)
    add(f"Summary: `analyse` on a waiting position takes {bl.fmt_us(lo)}–{bl.fmt_us(hi)} µs across the presets. "
        f"The ≤ {TARGET_US:g} µs target is "
        + ("met under every preset" if hi <= TARGET_US else
           ("met under " + ", ".join(f"`{pr['id']}`" for pr, x in zip(presets, meds) if x <= TARGET_US)
            if lo <= TARGET_US else f"not met (fastest preset {lo / TARGET_US:.3g}× the target)"))
        + f". The same answer composed from mahjong takes {bl.fmt_us(med['mahjong'])} µs per position "
        f"({bl.fmt_ratio(hi, med['mahjong'])} for hkcore's slowest preset, {bl.fmt_ratio(lo, med['mahjong'])} "
        f"for its fastest). Mean waits per position: hkcore "
        + ", ".join(format(_mean(tallies.get("hk." + pr["id"], {}), "waits"), ".3f") for pr in presets)
        + f" (presets in table order), mahjong {mj_waits:.3f}.")
    add("")

    # inputs
    w = meta["workload"]
    n = w["positions"]
    add("Inputs:")
    add("")
    add(f"- Waiting positions: a complete hand from `bench_score.py`'s generator (`HandSource`, `random_situation`: "
        f"4 random sets — chow or pung, half each — and a pair; {p['orphans_share']:.0%} thirteen orphans; 0–4 "
        "sets declared, weights 40/20/20/12/8 %, pungs made kongs as there) less its winning tile (a random "
        "concealed tile), so 13 − 3k concealed tiles. A `Position` keeps the hand's melds, seat and round "
        "winds, and its flowers and seasons (each tile 25 %) on the 144-tile presets only; `just-cards` and "
        "`hk-classic` get positions without bonus tiles. Every `Position` was built with `Position.parse(dict)` "
        "before its pass; `analyse` is called with the preset id and no `visible` tiles, so unseen = 4 − copies "
        "in the hand and its melds.")
    add(f"- Over the {n:,} timed positions (hkcore and mahjong): declared sets 0/1/2/3/4 = "
        + "/".join(_pct(w.get(f"melds_{k}", 0) / n) for k in range(5))
        + f"; open (a claimed set) {_pct(w.get('open', 0) / n)}; with a kong {_pct(w.get('with_kong', 0) / n)} "
        f"(concealed {_pct(w.get('with_concealed_kong', 0) / n)}); thirteen orphans "
        f"{_pct(w.get('thirteen_orphans', 0) / n)}; mean bonus tiles (144-tile presets) "
        f"{w['mean_bonus_tiles_144']:.2f}.")
    add(f"- Positions drawn in the run {meta['positions_drawn']:,}; repeated (thirteen orphans only) "
        f"{meta['repeated_positions']:,}; complete hands redrawn because they left a position already drawn "
        f"{meta['redrawn_positions']:,}.")
    errs = Counter({k[len('error_'):]: v for k, v in mjt.items() if k.startswith("error_")})
    nw = mjt.get("waits", 0)
    add("- mahjong: the same kind of positions as 136-tile ids (random copies; `bench_score.mahjong_spec`, its "
        "winning tile taken out), `Meld` objects (concealed kongs `opened=False`), one free copy of every tile "
        "kept aside as the tile to win on, one dora indicator plus one per kong drawn from the other free "
        "copies, and per position two `HandConfig`s (discard, self-draw; seat and round wind; open tanyao and "
        "red fives on). Closed positions (no claimed set; concealed kongs allowed) have riichi on both, so every "
        "wait has a yaku; open positions have none and mahjong answers `no_yaku` on the waits without one: "
        "these errors are kept as results, nothing is redrawn. Over the timed batches: "
        f"{nw:,} waits, each scored twice; errors "
        + (", ".join(f"`{k}` {v:,} ({_pct(v / nw)} of the waits)" for k, v in sorted(errs.items())) or "none")
        + f"; mean han where scored {_mean(mjt, 'han_on_discard', 'scored_on_discard'):.2f} on a discard, "
        f"{_mean(mjt, 'han_on_self_draw', 'scored_on_self_draw'):.2f} on a self-draw. `is_agari` also accepts "
        "seven pairs (riichi's chiitoitsu, not a Hong Kong shape): such waits count on mahjong's side (see the "
        "checks for how often they occur). One `HandConfig` per distinct context and batch; "
        "the timed `Meld` and `HandConfig` objects were never used before their pass. Within a call, the two "
        "scorings of a wait share the position's `Meld` objects and hit the divider's lru_cache for the second "
        "one, as a user's loop would.")
    add("")

    # checks
    cn = checks["check_n"]
    add(f"Checks on an untimed batch of {cn:,} positions, the same under every preset and for mahjong "
        f"(also the warm-up); values compared with `score(position.with_tile(tile, self_draw=...))` on the "
        f"first {checks['value_check_n']:,}:")
    add("")
    add("| preset | waits = mahjong's | differ: seven pairs | differ: thirteen orphans not a shape | differ: other "
        "| unseen differ | `analyse(Position)` ≠ `analyse(dict)` | values checked | value ≠ `score` "
        "| waits per position |")
    add("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for pr in presets:
        c = checks["presets"][pr["id"]]
        errs_v = sum(v for k, v in c.items() if k.startswith("value_check_error_"))
        add(f"| `{pr['id']}` | {c.get('waits_equal', 0):,} | {c.get('waits_differ_seven_pairs', 0)} "
            f"| {c.get('waits_differ_thirteen_orphans_not_a_shape', 0)} | {c.get('waits_differ_other', 0)} "
            f"| {c.get('unseen_differ', 0)} | {c.get('position_vs_dict_differ', 0)} | {c.get('values_checked', 0):,} "
            f"| {c.get('value_differs_from_score', 0)}{f' (+{errs_v} errors)' if errs_v else ''} "
            f"| {_mean(c['tally'], 'waits'):.3f} |")
    add("")
    cm = checks["mahjong"]
    add(f"- mahjong on the same positions: {_mean(cm, 'waits'):.3f} waits per position; "
        + (", ".join(f"`{k[len('error_'):]}` {v:,}" for k, v in sorted(cm.items()) if k.startswith("error_"))
           or "no errors") + f" over {cm.get('waits', 0):,} waits × 2.")
    add(f"- hkcore caches: cleared before every pass: {', '.join(meta['hkcore_caches_cleared']) or 'none found'}; "
        f"kept warm (configuration, keyed by preset or process-wide): "
        f"{', '.join(meta['hkcore_caches_warm']) or 'none'}; the plugin registry, the preset store and the "
        "compiled built-in presets are built once and kept for the process's life, as a server has them. mahjong "
        "`HandDivider._divide_hand_impl` (lru_cache) cleared before every pass. Every "
        "timed `Position` comes fresh from `Position.parse` and is analysed for the first time in its pass; "
        "after each pass the same calls are made again, untimed, to count the waits and values above.")
    add("- Not comparable as rule sets: riichi's yaku, fu and dora against a Hong Kong preset's faan; the work "
        "is the same kind — find the waits, decompose each completed hand, value it on a discard and on a "
        "self-draw.")
    add("")
    add("Reproduce: build the compiled core (`pip install -e .` or `python setup.py build_ext --inplace`), install "
        "the peers (`pip install -e \".[bench]\"`), then `python bench/bench_analyse.py` (`--help` for options). "
        "Raw numbers: `bench/results_analyse.json`.")
    return "\n".join(lines)


# --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=None, help=f"positions per batch (default {DEFAULT_N:,})")
    ap.add_argument("--reps", type=int, default=None, help=f"repetitions (default {DEFAULT_REPS})")
    ap.add_argument("--check-n", type=int, default=None,
                    help=f"positions in the untimed check batch (default {DEFAULT_CHECK_N:,})")
    ap.add_argument("--value-check-n", type=int, default=DEFAULT_VALUE_CHECK_N,
                    help="of those, positions whose values are compared with score() "
                         f"(default {DEFAULT_VALUE_CHECK_N})")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--orphans-share", type=float, default=ORPHANS_SHARE, help="share of thirteen-orphans hands")
    ap.add_argument("--quick", action="store_true", help="2,000 positions × 3 repetitions (a smoke test)")
    ap.add_argument("--wait-for-others", type=float, default=None, metavar="SECONDS",
                    help="before timing, wait up to SECONDS for other bench_*.py processes to end "
                         "(default: 3600 for a full run, 0 with --quick)")
    ap.add_argument("--allow-python", action="store_true",
                    help="run and write results even if the pure-Python core is active")
    ap.add_argument("--output-dir", type=Path, default=bl.BENCH_DIR,
                    help="where RESULTS.md and results_analyse.json go (default: bench/)")
    ap.add_argument("--no-write", action="store_true", help="print the section, write nothing")
    args = ap.parse_args(argv)

    n = args.n or (2_000 if args.quick else DEFAULT_N)
    reps = args.reps or (3 if args.quick else DEFAULT_REPS)
    check_n = args.check_n or (500 if args.quick else DEFAULT_CHECK_N)
    wait_for = args.wait_for_others if args.wait_for_others is not None else (0 if args.quick else 3600)

    loaded = bs.load_hkcore(args.allow_python)
    if loaded["implementation"] != "cython" and not args.allow_python:
        log(f"bench_analyse: the active core is {loaded['implementation']!r}, not 'cython' "
            f"(hkcore from {loaded['hkcore_path']}). Build it (pip install -e . or "
            "python setup.py build_ext --inplace) or pass --allow-python; no results written.")
        return 2
    import hkcore
    from hkcore.tiles import TILES

    hk = {**loaded, "analyse": hkcore.analyse, "Position": hkcore.Position,
          "tile_index": {t.code: t.index for t in TILES if not t.is_bonus}}
    mj = bs.load_mahjong()
    presets = []
    for pid in hk["presets"]:
        pr = hk["load_preset"](pid)
        presets.append({"id": pid, "tiles": pr.tiles, "bonus": pr.tiles == 144, "shapes": list(pr.shapes)})
    log(f"hkcore core: {hk['implementation']} ({hk['impl_file']}); presets {hk['presets']}; "
        f"n={n:,} reps={reps} check_n={check_n:,} seed={args.seed}")

    src = PositionSource(Random(args.seed), args.orphans_share)
    log("checking on the untimed batch (also the warm-up) ...")
    checks = run_checks(hk, mj, presets, src, check_n, args.value_check_n)

    waited = bl.wait_for_other_bench(wait_for, log) if wait_for > 0 else 0.0
    others_start = bl.other_bench_processes()
    machine = bl.machine_info(PACKAGES)  # load average just before the timing
    caches = bl.hkcore_caches(exclude=bs.CONFIG_CACHES) + mj["caches"]
    cleared = [name for name, _ in bl.hkcore_caches(exclude=bs.CONFIG_CACHES)]
    warm = [name for name, _ in bl.hkcore_caches() if name in bs.CONFIG_CACHES]

    def clear() -> None:
        for _name, fn in caches:
            fn.cache_clear()

    log("timing ...")
    workload = Workload()
    steps = plan(hk, mj, presets)
    tallies: dict[str, Counter[str]] = {}
    per_call, per_call_cpu = run_timing(
        steps, lambda r: prepare_rep(src, n, hk, mj, presets, workload), reps, clear, tallies)
    stats = {k: bl.summary(v) for k, v in per_call.items()}
    cpu_stats = {k: bl.summary(v) for k, v in per_call_cpu.items()}
    load_end = bs._loadavg()
    others_end = bl.other_bench_processes()

    if machine["packages"]["hkcore"] == "not installed":
        machine["packages"]["hkcore"] = f"{hk['version']} (source tree, not installed)"
    meta = {
        "implementation": hk["implementation"],
        "hkcore_path": hk["hkcore_path"],
        "impl_file": hk["impl_file"],
        "machine": machine,
        "params": {"n": n, "reps": reps, "check_n": check_n, "value_check_n": args.value_check_n,
                   "seed": args.seed, "orphans_share": args.orphans_share},
        "presets": presets,
        "workload": workload.as_dict(),
        "positions_drawn": src.drawn,
        "repeated_positions": src.repeats,
        "redrawn_positions": src.redrawn,
        "hkcore_caches_cleared": cleared,
        "hkcore_caches_warm": warm,
        "target_us": TARGET_US,
        "loadavg_at_end_of_timing": load_end,
        "wall_over_cpu": bs._wall_over_cpu(per_call, per_call_cpu),
        "other_bench_waited_s": waited,
        "other_bench_at_start": "; ".join(others_start),
        "other_bench_at_end": "; ".join(others_end),
    }
    plain_tallies = {k: dict(v) for k, v in tallies.items()}
    section = render(meta, stats, cpu_stats, plain_tallies, checks)
    raw = {
        "meta": meta,
        "measurements": {
            s["key"]: {"label": s["label"], "per_call_us": per_call[s["key"]], **stats[s["key"]],
                       "cpu_per_call_us": per_call_cpu[s["key"]], "cpu": cpu_stats[s["key"]],
                       "answers": plain_tallies.get(s["key"])}
            for s in steps
        },
        "checks": checks,
    }
    bl.publish(None if args.no_write else args.output_dir, SECTION, section, raw, "results_analyse.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
