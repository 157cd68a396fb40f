#!/usr/bin/env python
"""How well guard reads its opponents, against a model learned from what a seat may see.

    python bench/guard_reading.py                       # bga-old-style and mistboard, 1,000 hands each
    python bench/guard_reading.py --hands 300 --no-write

Four ``guard`` bots play hands from ``--seed``. At every turn where a seat discards, for each opponent and
each tile it may discard, a harness that looks at the other hands records whether that discard would deal in
(the table, copied, is asked) and whether the opponent is waiting; beside them, what guard reckons
(``guard_threats`` x ``guard_danger``: P(waiting) x P(waiting on the tile), every opponent a threat, costs
left out) and 31 numbers the seat's view gives (the opponent's sets, pond and its order, the tiles unseen
around the tile, its suit against a one-suit hand: ``_features``). A gradient-boosted model (scikit-learn's
HistGradientBoostingClassifier, the ``bench`` extra) learns the deal-in from those numbers on the even hands;
both are scored on the odd hands: the area under the ROC curve, and how often the tile each reckons safest
deals in where the seat had a choice. Writes the ``guard-reading`` section of bench/RESULTS.md and
bench/results_guard_reading.json.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import numpy as np
from _benchlib import hkcore_meta, log, machine_info, publish
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import roc_auc_score

import hkcore
from hkcore import core
from hkcore.table import Table
from hkcore.table.players import _pyvalue
from hkcore.table.players.bots import make_bot
from hkcore.table.players.value import dragons_shown, values

SEATS = "ESWN"


def _features(n: int, suits: int, pond: list[int], dragons: int, live: int, unseen: list[int],
              i: int) -> list[float]:
    """What the seat's view says of an opponent (sets shown, the suits they keep to, its pond in order, its
    dragon sets, the live wall) and of tile ``i`` against it (the unseen copies it could be waited with, its
    place in that pond, its neighbours and suit there, a one-suit hand's suit)."""
    def mid(t: int) -> bool:
        return t < 27 and 2 <= t % 9 <= 6

    def end(t: int) -> bool:
        return t >= 27 or t % 9 in (0, 8)
    flush = {1: 0, 2: 9, 4: 18}.get(suits, -1) if n >= 2 else -1
    size = max(len(pond), 1)
    u, r, honour = unseen, i % 9, i >= 27
    out = [n, len(pond), live, dragons, flush >= 0, sum(map(mid, pond[-3:])), sum(map(mid, pond[-6:])),
           sum(map(end, pond[-3:])), sum(map(mid, pond)) / size, sum(map(end, pond)) / size,
           sum(map(end, pond[:6])), honour, not honour and r in (0, 8), not honour and r in (1, 7), u[i],
           i in pond, i in pond[-6:], u[i] * (u[i] - 1) / 2]
    if honour:
        return [*out, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, flush >= 0, 0]
    same = [t for t in pond if t < 27 and t // 9 == i // 9]
    return [*out, u[i - 2] * u[i - 1] if r >= 2 else 0, u[i + 1] * u[i + 2] if r <= 6 else 0,
            u[i - 1] * u[i + 1] if 1 <= r <= 7 else 0, r >= 3 and i - 3 in pond, r <= 5 and i + 3 in pond,
            sum(1 for t in pond[-6:] if t in same and t != i and abs(t - i) <= 2),
            sum(1 for t in same if t != i and abs(t - i) <= 2), len(same) / size,
            sum(1 for t in pond[-6:] if t in same), flush >= 0 and flush <= i < flush + 9,
            flush >= 0 and not flush <= i < flush + 9, 0, mid(i)]


def collect(preset: str, hands: int, seed: int) -> dict[str, Any]:
    """Every (turn, opponent, tile) of ``hands`` hands of four guard bots: the features, guard's reading,
    whether the discard deals in; per (turn, opponent): guard's P(waiting), whether it waits."""
    chunks: list[np.ndarray] = []
    rows, deal, guard, hand, turn_of, tile_of = [], [], [], [], [], []
    waiting, p_wait, opp_rows, opp_hand = [], [], [], []
    turns = 0
    for h in range(hands):
        t = Table({"event": "start", "preset": preset, "seed": seed * 1_000_003 + h})
        v = _pyvalue.value_params(t.preset)
        g = _pyvalue.guard_params(t.preset, threat=0.0)
        bots = {s: make_bot("guard", t.preset, k) for k, s in enumerate(SEATS)}
        while not t.over:
            p = t.prompts()[0]
            if p["phase"] == "turn" and sum(a["act"] == "discard" for a in p["actions"]) > 1:
                turns += 1
                (_, _, _, unseen, _, tiles, _, live, s, _, _, shown, ponds) = values(p, v)
                dragons = dragons_shown(p)
                threats = {o: (o, pt, flush, 1.0)
                           for o, pt, flush, _ in _pyvalue.guard_threats(v, g, s, shown, ponds, dragons)}
                choices = {tiles[j]: a for j, a in enumerate(p["actions"]) if a["act"] == "discard"}
                for o in range(4):
                    if o == s:
                        continue
                    ov = t.view(SEATS[o])
                    counts = [0] * 34
                    for x in hkcore.parse_tiles(ov["tiles"]):
                        counts[x.index] += 1
                    k = len(ov["melds"][SEATS[o]])
                    waits = set(core.waits_of_counts(counts, (), k)) if core.tiles_away_of_counts(
                        counts, (), k) == 0 else set()
                    waiting.append(bool(waits))
                    p_wait.append(threats[o][1])
                    n, suits = shown[o]
                    opp_rows.append(_features(n, suits, ponds[o], dragons[o], live, unseen, 27)[:11])
                    opp_hand.append(h)
                    for i, a in choices.items():
                        dealt = False
                        if i in waits:  # asked of the table: a wait short of the minimum deals nothing
                            c = t.copy()
                            c.submit({"prompt": p["prompt"], "seat": p["seat"], **a})
                            dealt = any(q["seat"] == SEATS[o] and any(x["act"] == "win" for x in q["actions"])
                                        for q in c.prompts())
                        rows.append(_features(n, suits, ponds[o], dragons[o], live, unseen, i))
                        deal.append(dealt)
                        guard.append(_pyvalue.guard_danger(g, [threats[o]], unseen, ponds, i))
                        hand.append(h)
                        turn_of.append(turns)
                        tile_of.append(i)
            t.submit(bots[p["seat"]].decide(p))
        chunks.append(np.array(rows, dtype=np.float32))
        rows = []
    return {"X": np.concatenate(chunks), "deal": np.array(deal), "guard": np.array(guard),
            "hand": np.array(hand), "turn": np.array(turn_of), "tile": np.array(tile_of), "waiting": np.array(waiting),
            "p_wait": np.array(p_wait), "opp_X": np.array(opp_rows, dtype=float), "opp_hand": np.array(opp_hand),
            "turns": turns}


def _safest_deals(score: np.ndarray, deal: np.ndarray, turn: np.ndarray, tile: np.ndarray) -> float:
    """Over the turns where some discard deals in and some does not: the share where the tile reckoned
    safest (the least danger summed over the opponents; of tiles tied for it, the share of them) deals in."""
    danger: dict[tuple[int, int], float] = {}
    dealt: dict[tuple[int, int], bool] = {}
    for key, sc, d in zip(zip(turn.tolist(), tile.tolist()), score.tolist(), deal.tolist()):
        danger[key] = danger.get(key, 0.0) + sc
        dealt[key] = dealt.get(key, False) or d
    by_turn: dict[int, list[tuple[float, bool]]] = {}
    for (t, i), sc in danger.items():
        by_turn.setdefault(t, []).append((sc, dealt[t, i]))
    mixed = [c for c in by_turn.values() if any(d for _, d in c) and not all(d for _, d in c)]
    total = 0.0
    for c in mixed:  # tiles tied for safest count alike: the share of them that deal in
        low = min(sc for sc, _ in c)
        tied = [d for sc, d in c if sc == low]
        total += sum(tied) / len(tied)
    return total / max(len(mixed), 1)


def measure(preset: str, hands: int, seed: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    d = collect(preset, hands, seed)
    train, test = d["hand"] % 2 == 0, d["hand"] % 2 == 1
    model = HistGradientBoostingClassifier(max_iter=300, random_state=seed).fit(d["X"][train], d["deal"][train])
    learned = model.predict_proba(d["X"])[:, 1]
    o_train, o_test = d["opp_hand"] % 2 == 0, d["opp_hand"] % 2 == 1
    o_model = HistGradientBoostingClassifier(max_iter=300, random_state=seed).fit(
        d["opp_X"][o_train], d["waiting"][o_train])
    o_learned = o_model.predict_proba(d["opp_X"])[:, 1]
    out = {
        "preset": preset, "hands": hands, "seed": seed, "turns": d["turns"], "rows": len(d["deal"]),
        "deal_ins": int(d["deal"].sum()),
        "auc_guard": float(roc_auc_score(d["deal"][test], d["guard"][test])),
        "auc_learned": float(roc_auc_score(d["deal"][test], learned[test])),
        "waiting_auc_guard": float(roc_auc_score(d["waiting"][o_test], d["p_wait"][o_test])),
        "waiting_auc_learned": float(roc_auc_score(d["waiting"][o_test], o_learned[o_test])),
        "safest_deals_guard": _safest_deals(d["guard"][test], d["deal"][test], d["turn"][test], d["tile"][test]),
        "safest_deals_learned": _safest_deals(learned[test], d["deal"][test], d["turn"][test], d["tile"][test]),
        "seconds": time.perf_counter() - t0,
    }
    log(f"{preset}: {out}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", action="append", help="a built-in preset (default: bga-old-style, mistboard)")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    if core.IMPLEMENTATION != "cython":
        sys.exit("bench/guard_reading.py measures the compiled build (hkcore.core.IMPLEMENTATION is python)")
    m = machine_info(["scikit-learn"])
    results = [measure(p, a.hands, a.seed) for p in a.preset or ["bga-old-style", "mistboard"]]
    lines = [
        "## How well guard reads its opponents",
        "",
        f"- Date: {m['date']}; hkcore revision: {m['git']}; core `{core.IMPLEMENTATION}`; Python {m['python']}; "
        f"scikit-learn {m['packages']['scikit-learn']}; {m['nproc']} cores (load average at start "
        f"{m['loadavg_at_start']})",
        "",
        f"`python bench/guard_reading.py` (four `guard` bots, {a.hands:,} hands a preset from seed {a.seed}; "
        "the learned model fitted on the even hands, scored on the odd ones). Area under the ROC curve of "
        "\"this discard deals into this opponent\" (guard: P(waiting) x P(waiting on the tile), costs left "
        "out) and of \"this opponent is waiting\"; *safest deals in*: of the turns where some discard deals in "
        "and some does not, the share where the tile reckoned safest deals in (tiles tied for it counted by "
        "their share):",
        "",
        "| preset | turns | discards x opponents | deal-ins among them | deal-in AUC, guard | deal-in AUC, "
        "learned | waiting AUC, guard | waiting AUC, learned | safest deals in, guard | safest deals in, "
        "learned |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(f"| {r['preset']} | {r['turns']:,} | {r['rows']:,} | {r['deal_ins']:,} | "
                     f"{r['auc_guard']:.3f} | {r['auc_learned']:.3f} | {r['waiting_auc_guard']:.3f} | "
                     f"{r['waiting_auc_learned']:.3f} | {100 * r['safest_deals_guard']:.1f} % | "
                     f"{100 * r['safest_deals_learned']:.1f} % |")
    raw = {"machine": m, "hkcore": hkcore_meta(hkcore, core), "results": results}
    publish(None if a.no_write else Path(__file__).resolve().parent, "guard-reading", "\n".join(lines) + "\n",
            raw, "results_guard_reading.json")


if __name__ == "__main__":
    main()
