#!/usr/bin/env python
"""Benchmark the hkcore decomposition core against its peers.

    python bench/bench_core.py                 # full run, writes bench/RESULTS.md
    python bench/bench_core.py --quick --allow-python --output-dir /tmp/b

Per-call µs of hkcore's ``is_complete``, ``readings``, ``tiles_away`` and
``waits`` (plus notation parsing) against the ``mahjong`` package
(``Agari.is_agari``, ``HandDivider.divide_hand``, ``Shanten.calculate_shanten``
and waits composed from ``is_agari``) and ``xiangting``
(``calculate_replacement_number``, ``calculate_necessary_tiles``). Every
input is prepared before timing; each repetition uses its own fresh,
disjoint batch of hands and functools caches are cleared before every timed
pass. See bench/README.md for the method.

Writes the ``core`` section of bench/RESULTS.md and bench/results_core.json.
If the active core is not the compiled one it writes nothing and exits with
status 2, unless ``--allow-python`` is given.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _benchlib as bl

SECTION = "core"
DEFAULT_N = 20_000
DEFAULT_REPS = 7
DEFAULT_SEED = 20240611
TARGETS_US = {"is_complete": 0.3, "readings": 0.5, "tiles_away": 1.0, "waits": 1.0}
PACKAGES = ("hkcore", "mahjong", "xiangting", "Cython")


log = bl.log


# --------------------------------------------------------------------------
# Loading the API under test


def load_hkcore(allow_python: bool) -> dict[str, Any]:
    """The four functions, counts_of, parse_tiles and a description.

    Uses ``hkcore.is_complete`` etc. Without ``hkcore/__init__.py`` yet, and
    only with ``--allow-python``, falls back to ``hkcore.core``.
    """
    try:
        import hkcore
    except ImportError:
        sys.path.insert(0, str(bl.REPO_ROOT))
    import hkcore
    import hkcore.core as core
    from hkcore.core._normalize import counts_of
    from hkcore.tiles import parse_tiles

    names = ("is_complete", "readings", "tiles_away", "waits")
    if all(hasattr(hkcore, n) for n in names):
        api, source = {n: getattr(hkcore, n) for n in names}, "hkcore"
    elif allow_python:
        log("warning: hkcore.is_complete etc. not found; using hkcore.core (development fallback)")
        api, source = {n: getattr(core, n) for n in names}, "hkcore.core (fallback)"
    else:
        raise SystemExit("bench_core: hkcore does not expose is_complete/readings/tiles_away/waits yet")
    return {
        **api,
        "counts_of": counts_of,
        "parse_tiles": parse_tiles,
        "api": source,
        **bl.hkcore_meta(hkcore, core),
    }


def hkcore_caches() -> list[tuple[str, Any]]:
    """functools caches (anything with cache_clear) found in loaded hkcore modules."""
    return bl.hkcore_caches()


# --------------------------------------------------------------------------
# Peers


def load_peers() -> dict[str, Any]:
    import xiangting
    from mahjong.agari import Agari
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.shanten import Shanten
    from mahjong.tile import TilesConverter

    is_agari = Agari.is_agari
    orphan_set = frozenset(bl.ORPHAN_TILES)

    def mahjong_waits(tiles_34: Sequence[int]) -> list[int]:
        """Waits from Agari.is_agari: try each tile that could complete the hand.

        A winning tile is held already (pair, pung, tanki, seven pairs) or
        lies within two of a held tile of its suit (chow), or is a missing
        orphan of a thirteen-orphans wait; other tiles, and tiles held four
        times, are skipped without calling is_agari.
        """
        hand = list(tiles_34)
        orphans = sum([hand[t] for t in bl.ORPHAN_TILES]) == 13
        found = []
        for i in range(34):
            c = hand[i]
            if c == 4:
                continue
            if c == 0 and not (orphans and i in orphan_set):
                if i >= 27:
                    continue
                n = i % 9
                if not (
                    (n > 0 and hand[i - 1]) or (n < 8 and hand[i + 1])
                    or (n > 1 and hand[i - 2]) or (n < 7 and hand[i + 2])
                ):
                    continue
            hand[i] = c + 1
            if is_agari(hand):
                found.append(i)
            hand[i] = c
        return found

    def mahjong_waits_all34(tiles_34: Sequence[int]) -> list[int]:
        """The plain composition: is_agari for every tile with a free copy."""
        hand = list(tiles_34)
        found = []
        for i in range(34):
            c = hand[i]
            if c < 4:
                hand[i] = c + 1
                if is_agari(hand):
                    found.append(i)
                hand[i] = c
        return found

    divide_cache = HandDivider._divide_hand_impl
    return {
        "is_agari": is_agari,
        "divide_hand": HandDivider.divide_hand,
        "shanten": Shanten.calculate_shanten,
        "chiitoitsu_shanten": Shanten.calculate_shanten_for_chiitoitsu_hand,
        "mahjong_waits": mahjong_waits,
        "mahjong_waits_all34": mahjong_waits_all34,
        "mahjong_parse": TilesConverter.one_line_string_to_34_array,
        "xt_replacement": xiangting.calculate_replacement_number,
        "xt_necessary": xiangting.calculate_necessary_tiles,
        "xt_to_array": xiangting.to_array,
        "xt_four": xiangting.PlayerCount.FOUR,
        "caches": [("mahjong HandDivider._divide_hand_impl", divide_cache)],
    }


# --------------------------------------------------------------------------
# Correctness checks (on an extra batch that is never timed)

SEVEN_PAIRS_NOTE = "seven pairs (not a Hong Kong hand; the peer counts it)"


def seven_pairs_complete(counts: Sequence[int]) -> bool:
    return sum(1 for c in counts if c == 2) == 7 and sum(counts) == 14


def norm_ours_reading(r: tuple) -> tuple:
    return (r[0], tuple(sorted(r[1:])))


def norm_mahjong_reading(blocks: list[list[int]]) -> tuple | None:
    """mahjong blocks as (pair, sorted set codes); None for seven pairs."""
    if len(blocks) == 7:
        return None
    pair, sets = None, []
    for b in blocks:
        if len(b) == 2:
            pair = b[0]
        elif len(b) == 4:
            sets.append(2 * 34 + b[0])
        elif b[0] == b[1]:
            sets.append(1 * 34 + b[0])
        else:
            sets.append(b[0])
    return (pair, tuple(sorted(sets)))


def run_checks(hk: dict[str, Any], peers: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    orphans_code = 3 * 34

    # is_complete / readings on complete hands, and on random 14-tile deals
    complete = data["check"]["complete"]
    deals14 = data["check"]["deals14"]
    near14 = data["check"]["near14"]
    c = {"hands": len(complete), "ours_false": 0, "mahjong_false": 0, "bytes_differs": 0,
         "random14_hands": len(deals14), "random14_disagree": 0, "random14_disagree_seven_pairs": 0,
         "random14_complete": 0, "near14_hands": len(near14), "near14_complete": 0,
         "near14_disagree": 0, "near14_disagree_seven_pairs": 0}
    for h in complete:
        ours = hk["is_complete"](h)
        c["ours_false"] += not ours
        c["mahjong_false"] += not peers["is_agari"](h)
        c["bytes_differs"] += hk["is_complete"](bytes(h)) != ours
    for h in deals14:
        ours, theirs = hk["is_complete"](h), peers["is_agari"](h)
        c["random14_complete"] += ours
        if ours != theirs:
            if theirs and seven_pairs_complete(h):
                c["random14_disagree_seven_pairs"] += 1
            else:
                c["random14_disagree"] += 1
    for h in near14:
        ours, theirs = hk["is_complete"](h), peers["is_agari"](h)
        c["near14_complete"] += ours
        if ours != theirs:
            if theirs and seven_pairs_complete(h):
                c["near14_disagree_seven_pairs"] += 1
            else:
                c["near14_disagree"] += 1
    out["is_complete"] = c

    r = {"hands": len(complete), "mismatch": 0, "orphans_hands": 0, "orphans_reading_missing": 0,
         "seven_pairs_readings_by_mahjong": 0, "bytes_differs": 0, "readings_total": 0, "max_readings": 0}
    for h in complete:
        ours = hk["readings"](h)
        r["readings_total"] += len(ours)
        r["max_readings"] = max(r["max_readings"], len(ours))
        r["bytes_differs"] += hk["readings"](bytes(h)) != ours
        if bl.is_thirteen_orphans_shape(h):
            r["orphans_hands"] += 1
            r["orphans_reading_missing"] += not any(len(x) == 2 and x[1] == orphans_code for x in ours)
        ours_std = {norm_ours_reading(x) for x in ours if not (len(x) == 2 and x[1] == orphans_code)}
        theirs = set()
        for blocks in peers["divide_hand"](h):
            n = norm_mahjong_reading(blocks)
            if n is None:
                r["seven_pairs_readings_by_mahjong"] += 1
            else:
                theirs.add(n)
        r["mismatch"] += ours_std != theirs
    out["readings"] = r

    # tiles_away on 13-tile deals
    deals = data["check"]["deals"]
    four = peers["xt_four"]
    a = {"hands": len(deals), "vs_mahjong_mismatch": 0, "vs_xiangting_mismatch": 0,
         "vs_xiangting_mismatch_seven_pairs": 0, "bytes_differs": 0, "histogram": {}}
    for h in deals:
        ours = hk["tiles_away"](h)
        a["histogram"][ours] = a["histogram"].get(ours, 0) + 1
        a["bytes_differs"] += hk["tiles_away"](bytes(h)) != ours
        a["vs_mahjong_mismatch"] += peers["shanten"](h, False) != ours
        xt = peers["xt_replacement"](h, four) - 1
        if xt != ours:
            if xt < ours and peers["chiitoitsu_shanten"](h) == xt:
                a["vs_xiangting_mismatch_seven_pairs"] += 1
            else:
                a["vs_xiangting_mismatch"] += 1
    a["histogram"] = {str(k): v for k, v in sorted(a["histogram"].items())}
    out["tiles_away"] = a

    # waits on waiting hands
    waiting = data["check"]["waiting"]
    to_array = peers["xt_to_array"]
    w = {"hands": len(waiting), "empty": 0, "bytes_differs": 0,
         "vs_mahjong_mismatch": 0, "vs_mahjong_mismatch_seven_pairs": 0,
         "vs_xiangting_mismatch": 0, "vs_xiangting_mismatch_seven_pairs": 0,
         "pruned_vs_all34_differs": 0, "waits_total": 0}

    def classify(ours: list[int], theirs: list[int], h: list[int], key: str) -> None:
        if ours == theirs:
            return
        extra = set(theirs) - set(ours)
        explained = set(ours) <= set(theirs) and all(
            seven_pairs_complete([x + (i == t) for i, x in enumerate(h)]) for t in extra
        )
        w[key + ("_seven_pairs" if explained else "")] += 1

    for h in waiting:
        ours_tiles = hk["waits"](h)
        ours = sorted(t.index for t in ours_tiles)
        w["waits_total"] += len(ours)
        w["empty"] += not ours
        w["bytes_differs"] += [t.index for t in hk["waits"](bytes(h))] != [t.index for t in ours_tiles]
        mj = peers["mahjong_waits"](h)
        w["pruned_vs_all34_differs"] += mj != peers["mahjong_waits_all34"](h)
        classify(ours, mj, h, "vs_mahjong_mismatch")
        _rn, nt = peers["xt_necessary"](h, four)
        classify(ours, [i for i, f in enumerate(to_array(nt)) if f], h, "vs_xiangting_mismatch")
    out["waits"] = w

    # parsing
    p = {"strings": len(data["check"]["strings"]), "counts_of_mismatch": 0, "mahjong_mismatch": 0}
    for s, h in zip(data["check"]["strings"], complete):
        p["counts_of_mismatch"] += list(hk["counts_of"](s)) != h
        p["mahjong_mismatch"] += peers["mahjong_parse"](s) != h
    out["parse"] = p
    return out


# --------------------------------------------------------------------------
# Inputs


def prepare(n: int, reps: int, check_n: int, seed: int, orphans_share: float) -> dict[str, Any]:
    """All inputs, generated once before any timing.

    Each workload gets ``reps`` timed batches of ``n`` hands plus one check
    batch of ``check_n`` hands; hands are distinct across all of them
    (thirteen-orphans hands excepted: only 13 complete ones exist).
    """
    rng = Random(seed)
    sizes = [n] * reps + [check_n]
    orph = bl.is_thirteen_orphans_shape

    complete, rep_c = bl.distinct_batches(lambda g: bl.random_complete(g, orphans_share), rng, sizes, orph)
    waiting, rep_w = bl.distinct_batches(lambda g: bl.random_waiting(g, orphans_share), rng, sizes, orph)
    deals, rep_d = bl.distinct_batches(bl.random_deal, rng, sizes)
    deals14, _ = bl.distinct_batches(lambda g: bl.random_deal(g, 14), rng, [check_n])
    near14 = [bl.add_random_tile(rng, h) for h in waiting[reps]]

    def copies(batches: list[list[list[int]]]) -> list[list[list[int]]]:
        return [[list(h) for h in b] for b in batches[:reps]]

    timed = {
        # ours: lists of 34 counts, and bytes of 34 counts
        "complete.list": copies(complete),
        "complete.bytes": [[bytes(h) for h in b] for b in complete[:reps]],
        "deals.list": copies(deals),
        "deals.bytes": [[bytes(h) for h in b] for b in deals[:reps]],
        "waiting.list": copies(waiting),
        "waiting.bytes": [[bytes(h) for h in b] for b in waiting[:reps]],
        "strings": [[bl.canonical(h) for h in b] for b in complete[:reps]],
        # peers: mahjong tiles_34 and xiangting bingpai are lists of 34 ints too,
        # but each function gets its own copies
        "complete.tiles_34": copies(complete),
        "deals.tiles_34": copies(deals),
        "deals.bingpai": copies(deals),
        "waiting.tiles_34": copies(waiting),
        "waiting.bingpai": copies(waiting),
        "strings.mahjong": [[bl.canonical(h) for h in b] for b in complete[:reps]],
    }
    check = {
        "complete": complete[reps],
        "waiting": waiting[reps],
        "deals": deals[reps],
        "deals14": deals14[0],
        "near14": near14,
        "strings": [bl.canonical(h) for h in complete[reps]],
    }
    orphan_counts = {
        "complete": sum(orph(h) for b in complete[:reps] for h in b),
        "waiting": sum(orph(h) for b in waiting[:reps] for h in b),
    }
    return {
        "timed": timed,
        "check": check,
        # repeats within and between the timed batches (the check batch excluded)
        "repeated_hands": {"complete": sum(rep_c[:reps]), "waiting": sum(rep_w[:reps]),
                           "deals": sum(rep_d[:reps])},
        "orphans_hands_timed": orphan_counts,
    }


# --------------------------------------------------------------------------
# Timing plan


def plan(hk: dict[str, Any], peers: dict[str, Any]) -> list[dict[str, Any]]:
    """Every timed measurement: key, label, function, input key, extra args."""
    four = peers["xt_four"]
    return [
        {"key": "harness", "label": "harness: builtin id() via map (overhead reference)",
         "fn": id, "inputs": "complete.list", "consts": ()},
        {"key": "is_complete.hk", "label": "hkcore is_complete(list)", "fn": hk["is_complete"],
         "inputs": "complete.list", "consts": ()},
        {"key": "is_complete.hk_bytes", "label": "hkcore is_complete(bytes)", "fn": hk["is_complete"],
         "inputs": "complete.bytes", "consts": ()},
        {"key": "is_complete.mahjong", "label": "mahjong Agari.is_agari(tiles_34)", "fn": peers["is_agari"],
         "inputs": "complete.tiles_34", "consts": ()},
        {"key": "readings.hk", "label": "hkcore readings(list)", "fn": hk["readings"],
         "inputs": "complete.list", "consts": ()},
        {"key": "readings.hk_bytes", "label": "hkcore readings(bytes)", "fn": hk["readings"],
         "inputs": "complete.bytes", "consts": ()},
        {"key": "readings.mahjong", "label": "mahjong HandDivider.divide_hand(tiles_34)",
         "fn": peers["divide_hand"], "inputs": "complete.tiles_34", "consts": ()},
        {"key": "tiles_away.hk", "label": "hkcore tiles_away(list)", "fn": hk["tiles_away"],
         "inputs": "deals.list", "consts": ()},
        {"key": "tiles_away.hk_bytes", "label": "hkcore tiles_away(bytes)", "fn": hk["tiles_away"],
         "inputs": "deals.bytes", "consts": ()},
        {"key": "tiles_away.mahjong",
         "label": "mahjong Shanten.calculate_shanten(tiles_34, use_chiitoitsu=False)",
         "fn": peers["shanten"], "inputs": "deals.tiles_34", "consts": (False,)},
        {"key": "tiles_away.xiangting",
         "label": "xiangting calculate_replacement_number(bingpai, PlayerCount.FOUR)",
         "fn": peers["xt_replacement"], "inputs": "deals.bingpai", "consts": (four,)},
        {"key": "waits.hk", "label": "hkcore waits(list)", "fn": hk["waits"],
         "inputs": "waiting.list", "consts": ()},
        {"key": "waits.hk_bytes", "label": "hkcore waits(bytes)", "fn": hk["waits"],
         "inputs": "waiting.bytes", "consts": ()},
        {"key": "waits.mahjong", "label": "mahjong Agari.is_agari per candidate tile (pruned)",
         "fn": peers["mahjong_waits"], "inputs": "waiting.tiles_34", "consts": ()},
        {"key": "waits.mahjong_all34", "label": "mahjong Agari.is_agari per free tile (all 34)",
         "fn": peers["mahjong_waits_all34"], "inputs": "waiting.tiles_34", "consts": ()},
        {"key": "waits.xiangting",
         "label": "xiangting calculate_necessary_tiles(bingpai, PlayerCount.FOUR)",
         "fn": peers["xt_necessary"], "inputs": "waiting.bingpai", "consts": (four,)},
        {"key": "parse.counts_of", "label": "hkcore.core._normalize.counts_of(str)", "fn": hk["counts_of"],
         "inputs": "strings", "consts": ()},
        {"key": "parse.parse_tiles", "label": "hkcore.tiles.parse_tiles(str)", "fn": hk["parse_tiles"],
         "inputs": "strings", "consts": ()},
        {"key": "parse.mahjong", "label": "mahjong TilesConverter.one_line_string_to_34_array(str)",
         "fn": peers["mahjong_parse"], "inputs": "strings.mahjong", "consts": ()},
    ]


def run_timing(steps: list[dict[str, Any]], timed: dict[str, Any], reps: int,
               clear: Callable[[], None]) -> dict[str, list[float]]:
    """Per-call µs of every step, once per repetition on that repetition's batch.

    The step order rotates between repetitions; caches are cleared before
    every pass. (Warm-up: the correctness checks have already run every
    function on the untimed check batch.)
    """
    results: dict[str, list[float]] = {s["key"]: [] for s in steps}
    for r in range(reps):
        k = r % len(steps)
        order = steps[k:] + steps[:k]
        for s in order:
            clear()
            ns = bl.time_calls(s["fn"], timed[s["inputs"]][r], *s["consts"])
            results[s["key"]].append(ns / 1000.0)
        log(f"  repetition {r + 1}/{reps} done")
    return results


# --------------------------------------------------------------------------
# Report

ROWS = [
    # operation, hkcore key, peer label, peer key, target name
    ("is_complete — complete 14-tile hands", "is_complete.hk",
     "mahjong `Agari.is_agari`", "is_complete.mahjong", "is_complete"),
    ("is_complete, bytes input", "is_complete.hk_bytes", None, None, "is_complete"),
    ("readings — complete 14-tile hands", "readings.hk",
     "mahjong `HandDivider.divide_hand`", "readings.mahjong", "readings"),
    ("readings, bytes input", "readings.hk_bytes", None, None, "readings"),
    ("tiles_away — random 13-tile deals", "tiles_away.hk",
     "mahjong `Shanten.calculate_shanten` (use_chiitoitsu=False)", "tiles_away.mahjong", "tiles_away"),
    ("tiles_away — random 13-tile deals", "tiles_away.hk",
     "xiangting `calculate_replacement_number`", "tiles_away.xiangting", "tiles_away"),
    ("tiles_away, bytes input", "tiles_away.hk_bytes", None, None, "tiles_away"),
    ("waits — waiting 13-tile hands", "waits.hk",
     "mahjong `Agari.is_agari` per candidate tile", "waits.mahjong", "waits"),
    ("waits — waiting 13-tile hands", "waits.hk",
     "xiangting `calculate_necessary_tiles`", "waits.xiangting", "waits"),
    ("waits, bytes input", "waits.hk_bytes", None, None, "waits"),
]


def render(meta: dict[str, Any], stats: dict[str, dict[str, float]], checks: dict[str, Any]) -> str:
    med = {k: v["median"] for k, v in stats.items()}
    m = meta["machine"]
    pk = m["packages"]
    lines = []
    lines.append("## Core: decomposition functions vs mahjong and xiangting")
    lines.append("")
    if meta["implementation"] != "cython":
        lines.append(f"> **WARNING: measured with the `{meta['implementation']}` core, not the compiled one. "
                     "These numbers do not represent hkcore; re-run `python bench/bench_core.py` "
                     "with the compiled core built.**")
        lines.append("")
    lines.append(f"- Date: {m['date']}; hkcore revision: {m['git']}")
    lines.append(f"- Machine: {m['platform']} ({m['machine']}); CPU: {m['cpu']}; nproc: {m['nproc']}; "
                 f"load average at start: {m['loadavg_at_start']}")
    lines.append(f"- Python {m['python']} ({m['python_implementation']})")
    lines.append(f"- Packages: hkcore {pk['hkcore']}, mahjong {pk['mahjong']}, xiangting {pk['xiangting']}, "
                 f"Cython {pk['Cython']}")
    lines.append(f"- Core implementation: `{meta['implementation']}` (`hkcore.core.IMPLEMENTATION`), "
                 f"API `{meta['api']}.*`")
    p = meta["params"]
    lines.append(f"- Method: {p['reps']} repetitions × {p['n']:,} hands per operation, seed {p['seed']}; "
                 "each repetition on its own fresh batch of distinct hands, caches cleared before every "
                 "pass; median per-call µs quoted (min–max in `bench/results_core.json`). "
                 "Harness overhead (`deque(map(id, hands))`): "
                 f"{bl.fmt_us(med['harness'])} µs per call, not subtracted.")
    lines.append("")
    lines.append("| operation | hkcore µs (median) | peer | peer µs (median) | ratio (peer/hkcore) "
                 "| target | met? |")
    lines.append("|---|---:|---|---:|---|---:|:---:|")
    for op, hk_key, peer_label, peer_key, target_name in ROWS:
        hk_us = med[hk_key]
        target = TARGETS_US[target_name]
        if peer_key:
            peer_cells = f"{peer_label} | {bl.fmt_us(med[peer_key])} | {bl.fmt_ratio(hk_us, med[peer_key])}"
        else:
            peer_cells = "— | — | —"
        met = "yes" if hk_us <= target else "no"
        lines.append(f"| {op} | {bl.fmt_us(hk_us)} | {peer_cells} | ≤ {target:g} µs | {met} |")
    lines.append("")
    lines.append(
        f"Parse a canonical 14-tile notation string to 34 counts: hkcore `counts_of` "
        f"{bl.fmt_us(med['parse.counts_of'])} µs; hkcore `parse_tiles` (to Tile objects) "
        f"{bl.fmt_us(med['parse.parse_tiles'])} µs; mahjong `TilesConverter.one_line_string_to_34_array` "
        f"{bl.fmt_us(med['parse.mahjong'])} µs ({bl.fmt_ratio(med['parse.counts_of'], med['parse.mahjong'])} "
        "for `counts_of`)."
    )
    lines.append("")
    lines.append("Notes:")
    lines.append(
        f"- The mahjong waits composition adds each candidate tile and calls `is_agari` (tiles held 4 times "
        f"and tiles that cannot complete a set, pair or thirteen orphans are skipped); trying every free "
        f"tile instead costs {bl.fmt_us(med['waits.mahjong_all34'])} µs. xiangting returns a bit set, "
        "hkcore a list of Tile objects, mahjong a list of indices."
    )
    lines.append(
        "- mahjong and xiangting also count seven pairs (mahjong's `is_agari`, `divide_hand` and the "
        "waits composition always; xiangting always; `calculate_shanten` here with "
        "`use_chiitoitsu=False`); Hong Kong rules have no seven pairs, so such differences are expected "
        "and counted apart below. mahjong's `divide_hand` gives no reading for thirteen orphans."
    )
    rh = meta["repeated_hands"]
    oh = meta["orphans_hands_timed"]
    lines.append(
        f"- About {p['orphans_share']:.0%} of complete and waiting hands are thirteen-orphans shapes "
        f"({oh['complete']:,} and {oh['waiting']:,} over all timed batches); only 13 such complete hands and 157 such "
        f"waiting hands exist, so they are the only repeated hands ({rh['complete']:,} complete and {rh['waiting']:,} "
        f"waiting repeats over the timed batches; {rh['deals']} among the deals). mahjong's "
        "`divide_hand` lru_cache may hit on them within a pass."
    )
    lines.append("")
    lines.append(f"Correctness on an untimed batch of {p['check_n']:,} hands per workload:")
    lines.append("")
    c, r, a, w, pa = (checks[k] for k in ("is_complete", "readings", "tiles_away", "waits", "parse"))
    lines.append(
        f"- is_complete: complete hands judged incomplete — hkcore {c['ours_false']}, mahjong "
        f"{c['mahjong_false']}; on {c['random14_hands']:,} random 14-tile deals "
        f"({c['random14_complete']} complete) hkcore and mahjong disagree on {c['random14_disagree']} "
        f"(+{c['random14_disagree_seven_pairs']} seven pairs); on {c['near14_hands']:,} near misses "
        f"(a waiting hand plus a random tile; {c['near14_complete']:,} complete) they disagree on "
        f"{c['near14_disagree']} (+{c['near14_disagree_seven_pairs']} seven pairs); "
        f"list vs bytes input differ: {c['bytes_differs']}."
    )
    lines.append(
        f"- readings: sets of readings differ from mahjong's on {r['mismatch']} hands (seven-pairs readings "
        f"dropped: {r['seven_pairs_readings_by_mahjong']}); thirteen-orphans hands {r['orphans_hands']}, "
        f"missing their reading {r['orphans_reading_missing']}; {r['readings_total']:,} readings, "
        f"at most {r['max_readings']} per hand; list vs bytes differ: {r['bytes_differs']}."
    )
    lines.append(
        f"- tiles_away: differs from mahjong (no seven pairs) on {a['vs_mahjong_mismatch']} deals; from "
        f"xiangting's replacement number − 1 on {a['vs_xiangting_mismatch']} "
        f"(+{a['vs_xiangting_mismatch_seven_pairs']} where xiangting's lower number is the seven-pairs "
        f"one); distribution {a['histogram']}; list vs bytes differ: {a['bytes_differs']}."
    )
    lines.append(
        f"- waits: differ from the mahjong composition on {w['vs_mahjong_mismatch']} hands "
        f"(+{w['vs_mahjong_mismatch_seven_pairs']} seven-pairs waits only), from xiangting on "
        f"{w['vs_xiangting_mismatch']} (+{w['vs_xiangting_mismatch_seven_pairs']}); hands with no wait "
        f"{w['empty']}; pruned vs all-34 composition differ: {w['pruned_vs_all34_differs']}; "
        f"list vs bytes differ: {w['bytes_differs']}."
    )
    lines.append(
        f"- parse: `counts_of` wrong on {pa['counts_of_mismatch']}, mahjong on {pa['mahjong_mismatch']} "
        f"of {pa['strings']:,} strings."
    )
    if meta["hkcore_caches"]:
        lines.append(f"- hkcore functools caches cleared before every pass: {', '.join(meta['hkcore_caches'])}.")
    lines.append("")
    lines.append("Reproduce: build the compiled core (`pip install -e .` or "
                 "`python setup.py build_ext --inplace`), then `python bench/bench_core.py` "
                 "(`--help` for options). Raw numbers: `bench/results_core.json`.")
    return "\n".join(lines)


# --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=None, help=f"hands per batch (default {DEFAULT_N:,})")
    ap.add_argument("--reps", type=int, default=None, help=f"repetitions (default {DEFAULT_REPS})")
    ap.add_argument("--check-n", type=int, default=None, help="hands in the untimed check batch (default n)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--orphans-share", type=float, default=0.01,
                    help="share of thirteen-orphans shapes among complete and waiting hands")
    ap.add_argument("--quick", action="store_true", help="2,000 hands × 3 repetitions (a smoke test)")
    ap.add_argument("--allow-python", action="store_true",
                    help="run and write results even if the pure-Python core is active")
    ap.add_argument("--output-dir", type=Path, default=bl.BENCH_DIR,
                    help="where RESULTS.md and results_core.json go (default: bench/)")
    ap.add_argument("--no-write", action="store_true", help="print the section, write nothing")
    args = ap.parse_args(argv)

    n = args.n or (2_000 if args.quick else DEFAULT_N)
    reps = args.reps or (3 if args.quick else DEFAULT_REPS)
    check_n = args.check_n or n

    hk = load_hkcore(args.allow_python)
    if hk["implementation"] != "cython" and not args.allow_python:
        log(f"bench_core: the active core is {hk['implementation']!r}, not 'cython' "
            f"(hkcore from {hk['hkcore_path']}). Build it (pip install -e . or "
            "python setup.py build_ext --inplace) or pass --allow-python; no results written.")
        return 2
    peers = load_peers()
    log(f"hkcore core: {hk['implementation']} ({hk['impl_file']}); n={n:,} reps={reps} seed={args.seed}")

    log("preparing inputs ...")
    data = prepare(n, reps, check_n, args.seed, args.orphans_share)

    caches = hkcore_caches() + peers["caches"]
    hk_cache_names = [name for name, _ in hkcore_caches()]

    def clear() -> None:
        for _name, fn in caches:
            fn.cache_clear()

    log("checking correctness on the untimed batch (also the warm-up) ...")
    checks = run_checks(hk, peers, data)

    log("timing ...")
    steps = plan(hk, peers)
    per_call = run_timing(steps, data["timed"], reps, clear)
    stats = {k: bl.summary(v) for k, v in per_call.items()}

    machine = bl.machine_info(PACKAGES)
    if machine["packages"]["hkcore"] == "not installed":
        machine["packages"]["hkcore"] = f"{hk['version']} (source tree, not installed)"
    meta = {
        "implementation": hk["implementation"],
        "api": hk["api"],
        "hkcore_path": hk["hkcore_path"],
        "impl_file": hk["impl_file"],
        "machine": machine,
        "params": {"n": n, "reps": reps, "check_n": check_n, "seed": args.seed,
                   "orphans_share": args.orphans_share},
        "repeated_hands": data["repeated_hands"],
        "orphans_hands_timed": data["orphans_hands_timed"],
        "hkcore_caches": hk_cache_names,
        "targets_us": TARGETS_US,
    }
    section = render(meta, stats, checks)
    raw = {
        "meta": meta,
        "measurements": {
            s["key"]: {"label": s["label"], "per_call_us": per_call[s["key"]], **stats[s["key"]]}
            for s in steps
        },
        "checks": checks,
    }
    bl.publish(None if args.no_write else args.output_dir, SECTION, section, raw, "results_core.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
