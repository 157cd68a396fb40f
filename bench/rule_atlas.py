#!/usr/bin/env python
"""The rule atlas: what every house rule a preset file can change does to play, measured (issue 37, item 4).

    python bench/rule_atlas.py                    # the full run: 20,000 walls, 2 jobs; writes docs/rule-atlas.md
    python bench/rule_atlas.py --walls 500        # a small run (minutes)
    python bench/rule_atlas.py --walls 500 --dask # the same walls on Dask (hkcore.dask.simulate): the same summaries

Each rule is a variant preset in bench/atlas/ that extends a built-in one and changes that one rule (and what the
preset lint, ``hkscore presets check``, asks to change with it). Each base is simulated with its variants on the
same walls (``hkcore.simulate(presets, bots=[MIX1, MIX2], hands=N, seed=S, base=BASE)``), so every difference
is a paired one, wall by wall, with a 95 % interval over walls; a variant of another tile set (flowers on or
off) cannot share the walls and is compared unpaired (the two presets' intervals combined). A rule with a shape
the compiled bots do not know (none now: they count seven pairs) would be played in Python, about a hundred
times slower, on ``--walls / 20`` walls (``--slow-walls``).

The rules of who deals next act between hands, which one hand a wall dealt by East cannot show: they are
measured again over rounds of a match (``hkcore.simulation.simulate_matches``: each round a match's East round,
hand h of round m dealt from the same wall under base and variant), ``--rounds`` rounds a mix (default
``--walls / 4``).

Writes ``--md`` (docs/rule-atlas.md), ``--html`` (docs/rule-atlas.html: a plot per rule) and each run's
summary.json in ``--summaries`` (default: a folder beside --md, ``rule-atlas/``; the rounds' summaries, one a
mix, in ``BASE-rounds.json``).
"""
from __future__ import annotations

import argparse
import datetime
import html
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hkcore
from hkcore.reports.page import CSS, code_html, figure, head, md_table
from hkcore.reports.plots import colours, plain_text, svg
from hkcore.simulation import (
    MAX_ROUND_HANDS,
    MatchSummary,
    RatioDifference,
    SimulationSummary,
    Stat,
    in_name_only,
    mix_label,
    same_measure,
    simulate_matches,
    title,
)

HERE = Path(__file__).resolve().parent
ATLAS = HERE / "atlas"
ROOT = HERE.parent
#: the strongest bot in every seat, and a second mix on the same walls
MIX1 = ("guard", "guard", "guard", "guard")
MIX2 = ("value", "value", "value", "value")
SEED = 37
#: the fraction of ``--walls`` the slow rules play (the bots play them in Python)
SLOW_SHARE = 20


@dataclass(frozen=True)
class Rule:
    """A rule of the atlas: the variant preset ``id`` (bench/atlas/ID.toml) against its built-in ``base``."""

    id: str
    base: str
    topic: str
    change: str          # what the variant does, as a verdict begins ("raising the minimum from 3 to 5")
    slow: bool = False   # the bots play it in Python: fewer walls
    note: str = ""       # what the reader should know beside the numbers
    rounds: bool = False  # it acts between hands: measured over rounds of a match too (simulate_matches)


#: what a rule of who deals next does to one hand
BETWEEN = ("A rule of who deals next: it changes no hand's play, only whether East keeps the deal after it, so "
           "the hands below (one a wall, dealt by East) are played alike.")
#: the fraction of ``--walls`` the rounds of a match play (a round is about five to seven hands)
ROUND_SHARE = 4

#: what a rule of payments alone does to play
PAYS = ("A rule of payments alone: value plays as before, but guard weighs a deal-in by what the preset's own "
        "payments make it cost (docs/bots.md), so its play may change too.")

RULES = (
    Rule("jc-minimum-0", "just-cards", "The minimum", "lowering the minimum from 3 to 0"),
    Rule("jc-minimum-1", "just-cards", "The minimum", "lowering the minimum from 3 to 1"),
    Rule("jc-minimum-5", "just-cards", "The minimum", "raising the minimum from 3 to 5"),
    Rule("hkc-cap-10", "hk-classic", "The cap and limits", "lowering the cap and the 13-faan limits to 10"),
    Rule("jc-dead-wall-14", "just-cards", "The dead wall", "keeping a 14-tile dead wall"),
    Rule("jc-flowers-on", "just-cards", "Flowers", "playing with flowers and seasons (144 tiles, BGA's flower "
         "patterns)", note="144 tiles against 136: the walls cannot be shared, so the comparison is unpaired."),
    Rule("bga-flowers-off", "bga-old-style", "Flowers", "playing without flowers and seasons (136 tiles, the "
         "flower patterns off, as the lint asks)",
         note="136 tiles against 144: unpaired. `tiles = 136` alone would keep no_bonus (無花), which then scores "
              "in every win: hkscore presets check warns (always-holds) and names six never-holding patterns "
              "(flower and season patterns, seven and eight bonus tiles); the variant turns all seven off."),
    Rule("jc-half-flush-2", "just-cards", "Pattern values", "valuing half flush at 2 faan instead of 3"),
    Rule("jc-all-pungs-2", "just-cards", "Pattern values", "valuing all pungs at 2 faan instead of 3"),
    Rule("hkc-no-concealed-kong", "hk-classic", "Kongs", "forbidding concealed kongs"),
    Rule("hkc-no-added-kong", "hk-classic", "Kongs", "forbidding added kongs (and so robbing)",
         note="No added kong leaves nothing to rob: the preset refuses robbing_kong = \"added\" without added kongs, "
              "and the lint asks for the robbing pattern off."),
    Rule("hkc-no-robbing", "hk-classic", "Robbing a kong", "forbidding robbing a kong"),
    Rule("jc-no-swap-rule", "just-cards", "The swap rule", "dropping the swap rule"),
    Rule("jc-last-discard-any", "just-cards", "The last discard", "allowing any claim on the last discard"),
    Rule("jc-multiple-winners", "just-cards", "Several winners", "letting several players win on one discard"),
    Rule("jc-face-up-pung", "just-cards", "The face-up pung", "allowing the face-up pung of a drawn tile"),
    Rule("jc-dealer-stays-on-draw", "just-cards", "Dealer rotation", "keeping the dealer after a draw too",
         note=BETWEEN, rounds=True),
    Rule("jc-dealer-rotates", "just-cards", "Dealer rotation", "passing the deal after every hand",
         note=BETWEEN, rounds=True),
    Rule("jc-dealer-repeats-1", "just-cards", "Dealer repeats", "letting the dealer repeat at most once",
         note=f"{BETWEEN} A repeat limit acts only after a dealer has kept the deal, so one hand a wall never "
              "reaches it: only rounds of a match can show it.", rounds=True),
    Rule("jc-no-liability", "just-cards", "Liability", "dropping liability (包)", note=PAYS),
    Rule("jc-seven-pairs", "just-cards", "Seven pairs", "adding seven pairs at 4 faan"),
    Rule("jc-half-spicy", "just-cards", "Payment schemes", "paying half spicy (base 1, to 10 faan) instead of "
         "Just Cards' table", note=PAYS),
    Rule("jc-full-spicy", "just-cards", "Payment schemes", "paying full spicy (base 1, to 10 faan) instead of "
         "Just Cards' table", note=PAYS),
    Rule("jc-base-points", "just-cards", "Payment schemes", "paying base points of 1 a faan (1 .. 11) instead "
         "of Just Cards' table", note=PAYS),
    Rule("jc-points", "just-cards", "Payment schemes", "paying 8 plus the faan instead of Just Cards' table",
         note=PAYS),
)


def runs(rules: Sequence[Rule] = RULES) -> list[tuple[str, bool, list[Rule]]]:
    """``(base, slow, rules)`` of each simulation: the rules of one base (and speed) share its walls."""
    out: dict[tuple[str, bool], list[Rule]] = {}
    for r in rules:
        out.setdefault((r.base, r.slow), []).append(r)
    return [(b, s, rs) for (b, s), rs in out.items()]


def run_name(base: str, slow: bool) -> str:
    """The name of a run's summary file."""
    return f"{base}{'-slow' if slow else ''}"


# --------------------------------------------------------------------------
# measures


@dataclass(frozen=True)
class Measure:
    """One quantity under the base and the variant, and the variant's less the base's with its interval."""

    key: str
    label: str          # as a table row names it
    words: str          # as a verdict names it ("draws")
    scale: float        # 100 for rates (percentage points)
    suffix: str         # " pp", ""
    base: float | None
    variant: float | None
    diff: float | None
    low: float | None
    high: float | None
    paired: bool

    def alike(self) -> bool:
        """Whether the two were the same on every wall (a difference of 0 with an interval of nothing)."""
        return (self.paired and self.diff is not None and self.low is not None and self.high is not None
                and max(abs(self.diff), abs(self.low), abs(self.high)) < 1e-12)

    def sure(self) -> bool:
        """Whether the interval excludes nothing (no difference)."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    def decimals(self) -> int:
        """Two decimals, more where the interval is narrower than a tenth (at most four), or where an end of an
        interval that excludes 0 would show as 0 (-0.00 for -0.004)."""
        if self.low is None or self.high is None or self.high == self.low:
            return 2
        half = self.scale * (self.high - self.low) / 2
        d = 2 if half >= 0.05 else min(4, 1 - math.floor(math.log10(half)))
        near = min(abs(self.low), abs(self.high)) * self.scale
        while self.sure() and d < 4 and round(near, d) == 0:
            d += 1
        return d

    def text(self, x: float | None, signed: bool = False) -> str:
        """``x`` in the measure's scale, with ``decimals()`` decimals (a sign with ``signed``)."""
        if x is None:
            return "-"
        v, d = self.scale * x, self.decimals()
        return f"{v:+,.{d}f}" if signed else f"{v:,.{d}f}"

    def interval_text(self) -> str:
        if self.low is None or self.high is None:
            return "-"
        return f"{self.text(self.low, True)} .. {self.text(self.high, True)}"


#: the rates and means of each hand: (key of per_hand and of the pair's differences, label, words, scale, suffix)
PER_HAND = (("wins", "win rate", "wins", 100.0, " pp"), ("self_draw", "self-draw rate", "self-draws", 100.0, " pp"),
            ("deal_in", "deal-in rate", "deal-ins", 100.0, " pp"), ("exhausted", "draw rate", "draws", 100.0, " pp"),
            ("turns", "hand length (discards)", "discards a hand", 1.0, ""),
            ("dealer_retained", "dealer keeps the deal", "hands the dealer keeps", 100.0, " pp"))


def _half(iv: tuple[float, float] | None) -> float | None:
    return None if iv is None else (iv[1] - iv[0]) / 2


def _unpaired(a: float | None, b: float | None, ha: float | None, hb: float | None
              ) -> tuple[float | None, float | None, float | None]:
    """A less B of two independent estimates, with the interval of their halves combined."""
    if a is None or b is None:
        return None, None, None
    d = a - b
    if ha is None or hb is None:
        return d, None, None
    h = math.hypot(ha, hb)
    return d, d - h, d + h


def _from_stat(s: Stat | None) -> tuple[float | None, float | None, float | None]:
    if s is None:
        return None, None, None
    iv = s.interval()
    return s.mean(), None if iv is None else iv[0], None if iv is None else iv[1]


def measures(summary: SimulationSummary, variant: str, base: str) -> list[Measure]:
    """Every measure of ``variant`` against ``base`` in one mix's summary: paired where the two shared their
    walls, else unpaired; payments only where the two count them alike."""
    pv, pb = summary.presets[variant], summary.presets[base]
    d = summary.differences.get(variant, {}).get(base)
    paired = d is not None
    out: list[Measure] = []

    def add(key: str, label: str, words: str, scale: float, suffix: str, b: float | None, v: float | None,
            diff: tuple[float | None, float | None, float | None]) -> None:
        out.append(Measure(key, label, words, scale, suffix, b, v, *diff, paired))

    for key, label, words, scale, suffix in PER_HAND:
        sb, sv = pb.per_hand[key], pv.per_hand[key]
        diff = _from_stat(getattr(d, key)) if d is not None else _unpaired(
            sv.mean(), sb.mean(), _half(sv.interval()), _half(sb.interval()))
        add(key, label, words, scale, suffix, sb.mean(), sv.mean(), diff)
    if d is not None:
        rd = d.faan_per_win
        iv = rd.interval()
        fd: tuple[float | None, float | None, float | None] = (rd.difference(), *(iv or (None, None)))
    else:
        fd = _unpaired(pv.faan_per_win.value(), pb.faan_per_win.value(), _half(pv.faan_per_win.interval()),
                       _half(pb.faan_per_win.interval()))
    add("faan", f"{pb.unit} per win", f"{pb.unit} a win", 1.0, "", pb.faan_per_win.value(), pv.faan_per_win.value(),
        fd)
    if not same_measure(summary, variant, base):
        return out
    measure = pb.measure()
    eb, ev = pb.payments_by_seat["E"], pv.payments_by_seat["E"]
    if d is not None and d.payments_by_seat is not None:
        ed = _from_stat(d.payments_by_seat["E"])
    else:
        ed = _unpaired(ev.mean(), eb.mean(), _half(ev.interval()), _half(eb.interval()))
    add("edge", f"dealer's edge ({measure} a hand)", "the dealer's net a hand", 1.0, "", eb.mean(), ev.mean(), ed)
    if pb.pays:
        if d is not None and d.discarder_share is not None:
            iv = d.discarder_share.interval()
            sd: tuple[float | None, float | None, float | None] = (d.discarder_share.difference(),
                                                                   *(iv or (None, None)))
        else:
            sd = _unpaired(pv.discarder_paid.value(), pb.discarder_paid.value(), _half(pv.discarder_paid.interval()),
                           _half(pb.discarder_paid.interval()))
        add("share", "discarder's share of payments", "the discarders' share of payments", 100.0, " pp",
            pb.discarder_paid.value(), pv.discarder_paid.value(), sd)
    sb_, sv_ = pb.spread(), pv.spread()
    if sb_ is not None and sv_ is not None and sb_ + sv_ > 0:
        # sv - sb = (mean square v - mean square b) / (sv + sb): the interval of the mean squares' difference
        # (a seat-hand's, a quarter of a hand's swing), scaled by the same 1 / (sv + sb)
        if d is not None and d.swing is not None:
            m = _from_stat(d.swing)
            k = 1 / (4 * (sb_ + sv_))
            diff = (sv_ - sb_, None if m[1] is None else m[1] * k, None if m[2] is None else m[2] * k)
        else:
            hb, hv = _half(pb.per_hand["swing"].interval()), _half(pv.per_hand["swing"].interval())
            diff = _unpaired(sv_, sb_, None if hv is None else hv / (8 * sv_) if sv_ else None,
                             None if hb is None else hb / (8 * sb_) if sb_ else None)
        add("spread", f"spread of payments ({measure})", "the spread of payments",
            1.0, "", sb_, sv_, diff)
    return out


def _from_ratio(rd: RatioDifference) -> tuple[float | None, float | None, float | None]:
    iv = rd.interval()
    return rd.difference(), *(iv or (None, None))


def round_measures(summary: MatchSummary, variant: str, base: str) -> list[Measure]:
    """Every measure of ``variant`` against ``base`` over the rounds of a match, paired round by round;
    payments only where the two count them alike."""
    pv, pb = summary.presets[variant], summary.presets[base]
    d = summary.differences.get(variant, {}).get(base)
    if d is None:
        raise ValueError(f"{variant} and {base}: another tile set; the rounds of a match compare only paired")
    out = [Measure("round_hands", "hands a round", "hands a round", 1.0, "", pb.hands_a_round.mean(),
                   pv.hands_a_round.mean(), *_from_stat(d.hands_a_round), True),
           Measure("round_repeated", "hands dealt by a repeating dealer", "hands dealt by a repeating dealer",
                   100.0, " pp", pb.repeated.value(), pv.repeated.value(), *_from_ratio(d.repeated), True),
           Measure("round_longest", "longest run of one dealer (hands)", "the longest run of one dealer", 1.0, "",
                   pb.longest.mean(), pv.longest.mean(), *_from_stat(d.longest), True)]
    if d.moved is None or d.swing is None or d.dealer_net is None:
        return out
    measure = pb.measure()
    out.append(Measure("round_moved", f"won in a round ({measure})", f"{measure} won in a round", 1.0, "",
                       pb.moved.mean(), pv.moved.mean(), *_from_stat(d.moved), True))
    sb, sv = pb.spread(), pv.spread()
    if sb is not None and sv is not None and sb + sv > 0:
        # sv - sb = (mean square v - mean square b) / (sv + sb): the interval of the mean swings' difference (a
        # round's, the sum over four players), scaled by the same 1 / (4 (sv + sb))
        m = _from_stat(d.swing)
        k = 1 / (4 * (sb + sv))
        out.append(Measure("round_spread", f"spread of a player's round ({measure})",
                           "the spread of a player's round", 1.0, "", sb, sv, sv - sb,
                           None if m[1] is None else m[1] * k, None if m[2] is None else m[2] * k, True))
    out.append(Measure("round_edge", f"dealer's net ({measure} a hand)", "the dealer's net a hand", 1.0, "",
                       pb.dealer_net.value(), pv.dealer_net.value(), *_from_ratio(d.dealer_net), True))
    return out


def _said(m: Measure, where: str = "wall") -> str:
    same = "the same on every wall" if where == "wall" else f"the same in every {where}"
    return same if m.alike() else f"{m.text(m.diff, True)}{m.suffix} ({m.interval_text()})"


def _surest(ms: Sequence[Measure]) -> list[Measure]:
    """The measures whose interval excludes no change, the farthest from it (in half-widths) first, at most 4."""
    return sorted((m for m in ms if m.sure()), key=lambda m: -abs(m.diff or 0.0) / max(
        (m.high or 0.0) - (m.low or 0.0), 1e-12))[:4]


def _depends(by_mix: list[tuple[str, list[Measure]]], where: str = "wall") -> str:
    """The measures whose sign or significance changes between the first two mixes, as the verdict says them
    ("" when none or one mix)."""
    if len(by_mix) < 2:
        return ""
    first = {m.key: m for m in by_mix[0][1]}
    (l1, _), (l2, _) = by_mix[0], by_mix[1]
    differ = [f"{m.words} ({l1}: {_said(first[m.key], where)}; {l2}: {_said(m, where)})" for m in by_mix[1][1]
              if m.key in first and (m.sure() != first[m.key].sure()
                                     or (m.sure() and (m.diff or 0) * (first[m.key].diff or 0) < 0))]
    return f" Depends on the bots (sign or significance changes between the mixes): {'; '.join(differ)}." \
        if differ else ""


#: the measures of how a hand is played (not of who keeps the deal or what is paid)
PLAY = ("wins", "self_draw", "deal_in", "exhausted", "turns", "faan")


def verdict(rule: Rule, by_mix: list[tuple[str, list[Measure]]], walls: int) -> str:
    """The rule's verdict in plain words: the measures whose interval excludes no change, under each mix, and
    those whose sign or significance changes with the bots."""
    parts = []
    for label, ms in by_mix:
        sure = _surest(ms)
        same = all(m.alike() for m in ms if m.key in PLAY)
        if sure:
            said = ("every hand played alike; " if same else "") + "; ".join(f"{m.words} {_said(m)}" for m in sure)
        elif same and all(m.alike() for m in ms):
            said = "every hand played alike, with the same results: " + (
                "one hand a wall, dealt by East, never reaches the rule" if rule.rounds
                else "the rule never came into play")
        else:
            said = f"no change measurable at {walls:,} walls"
        parts.append(f"with {label}: {said}")
    return f"{rule.change[0].upper()}{rule.change[1:]}: " + "; ".join(parts) + "." + _depends(by_mix)


def round_verdict(by_mix: list[tuple[str, list[Measure]]], rounds: int) -> str:
    """What the rule does to the rounds of a match, in plain words: the measures whose interval excludes no
    change, under each mix, and those whose sign or significance changes with the bots."""
    parts = []
    for label, ms in by_mix:
        sure = _surest(ms)
        if sure:
            said = "; ".join(f"{m.words} {_said(m, 'round')}" for m in sure)
        elif all(m.alike() for m in ms):
            said = "every round played alike, with the same results: the rule never came into play"
        else:
            said = f"no change measurable at {rounds:,} rounds"
        parts.append(f"with {label}: {said}")
    return f"Over {rounds:,} rounds of a match: " + "; ".join(parts) + "." + _depends(by_mix, "round")


def in_step(summary: SimulationSummary, variant: str, base: str) -> tuple[float | None, float | None, bool] | None:
    """The pair's share of walls drawn in step, its correlation, and whether it is paired in name only (None:
    not paired, another tile set)."""
    d = summary.differences.get(variant, {}).get(base)
    if d is None:
        return None
    return d.pairing.in_step_share(), d.pairing.correlation(), in_name_only(d.pairing)


# --------------------------------------------------------------------------
# running


def simulate_run(base: str, rules: Sequence[Rule], walls: int, seed: int, jobs: int, dask: bool = False,
                 mixes: Sequence[Sequence[str]] = (MIX1, MIX2)) -> SimulationSummary:
    """A base and its variants on the same walls, under each mix (``hkcore.simulate``, or ``hkcore.dask.simulate``
    with ``dask``: the same summary)."""
    presets = [base, *(str(ATLAS / f"{r.id}.toml") for r in rules)]
    bots = [list(m) for m in mixes]
    if dask:
        from hkcore.dask import simulate as on_dask

        return on_dask(presets, bots, hands=walls, seed=seed, base=base)
    return hkcore.simulate(presets, bots, hands=walls, seed=seed, jobs=jobs, base=base)


@dataclass(frozen=True)
class Run:
    """A run's summary, the walls it played and its seconds."""

    base: str
    slow: bool
    rules: tuple[Rule, ...]
    summary: SimulationSummary
    seconds: float


def play(walls: int, seed: int, jobs: int, slow_walls: int, dask: bool = False,
         rules: Sequence[Rule] = RULES, log: Any = None) -> list[Run]:
    """Every run of the atlas."""
    out = []
    for base, slow, rs in runs(rules):
        n = slow_walls if slow else walls
        t = time.perf_counter()
        s = simulate_run(base, rs, n, seed, jobs, dask)
        dt = time.perf_counter() - t
        hands = n * 4 * len(s.presets) * (1 + len(s.mixes))
        if log is not None:
            print(f"{run_name(base, slow)}: {n:,} walls x {len(s.presets)} presets x {1 + len(s.mixes)} mixes "
                  f"x 4 rotations = {hands:,} hands in {dt:,.0f} s ({hands / max(dt, 1e-9):,.0f} hands/s)", file=log)
        out.append(Run(base, slow, tuple(rs), s, dt))
    return out


@dataclass(frozen=True)
class RoundRun:
    """A base and its rules that act between hands over rounds of a match: a summary a mix, and its seconds."""

    base: str
    rules: tuple[Rule, ...]
    summaries: tuple[MatchSummary, ...]
    seconds: float


def round_name(base: str) -> str:
    """The name of a round run's summaries file (a JSON list: one summary a mix)."""
    return f"{base}-rounds"


def play_rounds(rounds: int, seed: int, jobs: int, rules: Sequence[Rule] = RULES, log: Any = None,
                mixes: Sequence[Sequence[str]] = (MIX1, MIX2)) -> list[RoundRun]:
    """The rules that act between hands, each base with its variants over the same rounds of a match
    (``simulate_matches``), under each mix."""
    by: dict[str, list[Rule]] = {}
    for r in rules:
        if r.rounds:
            by.setdefault(r.base, []).append(r)
    out = []
    for base, rs in by.items():
        presets = [base, *(str(ATLAS / f"{r.id}.toml") for r in rs)]
        t = time.perf_counter()
        found = tuple(simulate_matches(presets, list(m), rounds=rounds, seed=seed, jobs=jobs, base=base)
                      for m in mixes)
        dt = time.perf_counter() - t
        hands = sum(p.hands for s in found for p in s.presets.values())
        if log is not None:
            print(f"{round_name(base)}: {rounds:,} rounds x {len(presets)} presets x {len(mixes)} mixes = "
                  f"{hands:,} hands in {dt:,.0f} s ({hands / max(dt, 1e-9):,.0f} hands/s)", file=log)
        out.append(RoundRun(base, tuple(rs), found, dt))
    return out


# --------------------------------------------------------------------------
# the pages


@dataclass(frozen=True)
class Entry:
    """A rule's numbers: its run, each mix's measures, the pairing, the verdict."""

    rule: Rule
    run: Run
    by_mix: list[tuple[str, list[Measure]]]
    pairing: tuple[float | None, float | None, bool] | None
    verdict: str
    walls: int
    #: over rounds of a match (a rule that acts between hands): each mix's measures, the rounds, and by mix the
    #: hands of both dealt alike (the same hand number and dealer), the hands both played, and the rounds the
    #: base and the variant stopped at the bound of hands
    rounds: list[tuple[str, list[Measure]]] | None = None
    round_count: int = 0
    round_counts: tuple[tuple[int, int, int, int], ...] = ()


def entries(done: Sequence[Run], round_runs: Sequence[RoundRun] = ()) -> list[Entry]:
    """Each rule's entry, in the order of ``RULES``."""
    by_rounds = {(r.id, run.base): run for run in round_runs for r in run.rules}
    found = {}
    for run in done:
        mixes = run.summary.by_mix()
        for r in run.rules:
            vid = r.id
            by_mix = [(mix_label(m.bots), measures(m, vid, r.base)) for m in mixes]
            text = verdict(r, by_mix, run.summary.hands)
            rr = by_rounds.get((vid, r.base))
            rounds: list[tuple[str, list[Measure]]] | None = None
            n = 0
            counts: tuple[tuple[int, int, int, int], ...] = ()
            if rr is not None:
                rounds = [(mix_label(s.bots), round_measures(s, vid, r.base)) for s in rr.summaries]
                n = rr.summaries[0].rounds
                counts = tuple((s.differences[vid][r.base].alike, s.differences[vid][r.base].hands,
                                s.presets[r.base].cut, s.presets[vid].cut) for s in rr.summaries)
                text = f"{text} {round_verdict(rounds, n)}"
            found[r.id] = Entry(r, run, by_mix, in_step(run.summary, vid, r.base), text, run.summary.hands,
                                rounds, n, counts)
    return [found[r.id] for r in RULES if r.id in found]


def _distinct(e: Entry) -> str:
    """The distinct hands under each mix, base and variant."""
    vid = e.rule.id
    parts = []
    for m in e.run.summary.by_mix():
        b, v = m.presets[e.rule.base].distinct_hands, m.presets[vid].distinct_hands
        parts.append(f"{mix_label(m.bots)} {b if b is None else f'{b:,}'} and {v if v is None else f'{v:,}'}")
    return "distinct hands (base and variant): " + "; ".join(parts)


def _pairing_words(p: tuple[float | None, float | None, bool] | None) -> str:
    if p is None:
        return "unpaired (another tile set)"
    share, r, weak = p
    text = (f"{'-' if share is None else f'{100 * share:.1f} %'} of walls drawn in step, "
            f"r = {'-' if r is None else f'{r:.2f}'}")
    return text + (" (paired in name only)" if weak else "")


def breaks_pairing(e: Entry) -> bool:
    """Whether the rule broke the pairing of walls: another tile set, or draws out of step on some walls."""
    return e.pairing is None or (e.pairing[0] is not None and e.pairing[0] < 1.0)


def _table(e: Entry, mix: int, rounds: bool = False) -> list[list[str]]:
    """The rule's measures under one mix (of its hands, or with ``rounds`` of its rounds of a match): base,
    variant, and the difference with its interval."""
    rows = [["measure", e.rule.base, e.rule.id, "difference (95 %)"]]
    for m in (e.rounds or [])[mix][1] if rounds else e.by_mix[mix][1]:
        rows.append([m.label + (" (pp)" if m.suffix else ""), m.text(m.base), m.text(m.variant),
                     f"{m.text(m.diff, True)} ({m.interval_text()})"])
    return rows


def _rounds_words(e: Entry) -> str:
    """How a rule's rounds of a match were played, and how many of their hands were dealt alike."""
    mixes = list(zip([label for label, _ in e.rounds or []], e.round_counts))
    alike = "; ".join(f"{label} {a:,} of {n:,}" for label, (a, n, _, _) in mixes)
    cut = "; ".join(f"{label} {cb:,} and {cv:,}" for label, (_, _, cb, cv) in mixes if cb or cv)
    return (f"Over rounds of a match, where whoever keeps the deal deals again: {e.round_count:,} rounds a mix, "
            "each a match's East round (until the deal "
            f"has passed four times, at most {MAX_ROUND_HANDS} hands), hand h of round m dealt from the same wall "
            "under both presets; the differences are paired round by round. Hands dealt alike (the same hand "
            f"number and dealer, so the same wall and seats) of those both played: {alike}. Rounds stopped at "
            f"{MAX_ROUND_HANDS} hands before the deal had passed four times (base and variant): {cut or 'none'}.")


def round_header(round_runs: Sequence[RoundRun], args: argparse.Namespace) -> list[str]:
    """What the page says of its rounds of a match (nothing without them)."""
    if not round_runs:
        return []
    hands = sum(p.hands for r in round_runs for s in r.summaries for p in s.presets.values())
    seconds = sum(r.seconds for r in round_runs)
    rules = ", ".join(x.id for r in round_runs for x in r.rules)
    return [f"The rules of who deals next ({rules}) act between hands: one hand a wall, dealt by East, shows "
            "only whether East keeps the deal. They are measured again over rounds of a match "
            "(`hkcore.simulation.simulate_matches`): round m is a match seeded from (seed, m), so hand h of round "
            "m is dealt from the same wall under the base and the variant, whoever deals it; each round is "
            f"played until the deal has passed four times (the East round) or {MAX_ROUND_HANDS} hands (a bound: "
            f"each rule says how many rounds reached it), by the same bots. {args.rounds:,} rounds a mix "
            f"({hands:,} hands in {seconds:,.0f} s, {args.jobs} jobs): hands a round, the share of hands dealt by "
            "a dealer who kept the deal, the longest run of one dealer, what the winners won in a round and the "
            "spread of a player's round (the root mean square of a player's net over the round), the dealer's "
            "net a hand; each difference paired round by round, with a 95 % interval over rounds."]


def header(done: Sequence[Run], args: argparse.Namespace, command: str, when: str,
           round_runs: Sequence[RoundRun] = ()) -> list[str]:
    """What the page says first: how it was made."""
    total = sum(r.seconds for r in done) + sum(r.seconds for r in round_runs)
    where = "on Dask" if args.dask else f"{args.jobs} jobs"
    slow_ids = [x.id for r in done if r.slow for x in r.rules]
    slow = f" ({args.slow_walls:,} for {', '.join(slow_ids)}, which the bots play in Python)" if slow_ids else ""
    hands = sum(r.summary.hands * 4 * len(r.summary.presets) * (1 + len(r.summary.mixes)) for r in done)
    hands += sum(p.hands for r in round_runs for s in r.summaries for p in s.presets.values())
    return [
        f"Made {when} by `{command}` (hkcore {hkcore.__version__}), seed {args.seed}, in {total:,.0f} s "
        f"({hands:,} hands, {hands / max(total, 1e-9):,.0f} hands/s, {where}).",
        f"Bots: {mix_label(MIX1)} (the strongest bot), then {mix_label(MIX2)} on the same walls. Walls: "
        f"{args.walls:,} a rule{slow}, each played "
        "under the base and under the variant, 4 times (the bots rotated through the seats): with one bot in "
        "every seat the 4 are one hand (the engine's bots take no seed), so a wall is one distinct hand a preset "
        "and mix, and the intervals are over walls.",
        "Each rule is a variant preset in `bench/atlas/` that extends a built-in preset and changes that one rule "
        "(and what `hkscore presets check` asks to change with it; every variant checks clean). A difference is "
        "the variant's less the base's, per hand, paired wall by wall, with a 95 % interval over walls (a ratio, "
        "faan per win or the discarders' share, by the delta method). Rates in percentage points (pp). "
        "Payments (the dealer's edge, the discarders' share, the spread) are compared only between presets that "
        "count them alike: hk-classic is a faan ledger (a winner's faan), Just Cards and BGA pay points. "
        "The dealer's edge is East's mean net a hand (East deals every hand here). The spread of payments is the "
        "root mean square of a seat's net payment a hand: how swingy the game is.",
        *round_header(round_runs, args),
        "Rerun it: `" + command + "`; each run's summary.json is in `" + str(args.summaries_shown) + "/`.",
    ]


def markdown(done: Sequence[Run], found: Sequence[Entry], lines: list[str]) -> str:
    """docs/rule-atlas.md."""
    out = ["# The rule atlas: what each Hong Kong house rule does to play", "", *(x + "\n" for x in lines)]
    out += ["## Verdicts", ""]
    for e in found:
        out.append(f"- **{e.rule.topic}** ({e.rule.id} against {e.rule.base}, {e.walls:,} walls): {e.verdict}")
    broken = [e for e in found if breaks_pairing(e)]
    out += ["", "## Rules that break the pairing of walls", "",
            "A pair of presets is paired when each wall gives both the same tiles in the same order "
            "(docs/simulation.md, 'Duplicate play'). Every other rule here kept every wall in step.", ""]
    out += [f"- {e.rule.id}: {_pairing_words(e.pairing)}" for e in broken] or ["- none"]
    for e in found:
        out += ["", f"## {e.rule.topic}: {e.rule.id}", "",
                f"Against {title(e.rule.base, e.run.summary.presets[e.rule.base])}; {e.walls:,} walls; "
                f"{_distinct(e)}; pairing: {_pairing_words(e.pairing)}.", ""]
        if e.rule.note:
            out += [e.rule.note, ""]
        for j, (label, _) in enumerate(e.by_mix):
            out += [f"With {label}:", "", md_table(_table(e, j)), ""]
        out += [f"Faan of a win ({e.by_mix[0][0]}), share of wins: " + _hist_text(e), ""]
        if e.rounds:
            out += [_rounds_words(e), ""]
            for j, (label, _) in enumerate(e.rounds):
                out += [f"Over rounds, with {label}:", "", md_table(_table(e, j, rounds=True)), ""]
    return "\n".join(out).rstrip() + "\n"


def _hist_text(e: Entry) -> str:
    s = e.run.summary
    vid = e.rule.id
    parts = []
    for pid in (e.rule.base, vid):
        p = s.presets[pid]
        n = sum(p.faan_histogram.values()) or 1
        parts.append(f"{pid} " + ", ".join(f"{k}: {100 * v / n:.1f} %" for k, v in p.faan_histogram.items()))
    return "; ".join(parts)


_CSS = CSS + """
.scroll { overflow-x: auto; max-width: 100%; }
section.rule { border-left: 3px solid #c8d3e0; padding-left: 0.8em; margin-bottom: 1.5em; }
td.sure { font-weight: 600; } td.diff { white-space: nowrap; } caption { text-align: left; font-weight: 600; }
.tables { display: flex; flex-wrap: wrap; gap: 0 1.5em; } .tables > div { min-width: 0; }
.tables table { font-size: 0.85em; } p.verdict { max-width: 60em; }
.plots { display: flex; flex-wrap: wrap; gap: 0 1em; } .plots .figure { flex: 1 1 360px; min-width: 0; }
@media (max-width: 600px) {
  body { margin: 0.5em auto; padding: 0 0.5em; } h1 { font-size: 1.25em; }
  table { font-size: 0.8em; } th, td { padding: 0.15em 0.3em; } .iv { display: block; } td.diff { white-space: normal; }
}
"""


def _plots(e: Entry) -> str:
    """The rule's two plots: the faan of a win under both, and each difference with its interval."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    s = e.run.summary
    vid = e.rule.id
    palette = colours([e.rule.base, vid])
    fig = Figure(figsize=(4.6, 2.8))
    ax = fig.subplots()
    width = 0.4
    for i, pid in enumerate((e.rule.base, vid)):
        p = s.presets[pid]
        n = sum(p.faan_histogram.values()) or 1
        ks = [int(k) for k in p.faan_histogram]
        ax.bar([k + (i - 0.5) * width for k in ks], [v / n for v in p.faan_histogram.values()], width=width,
               color=palette[pid], label=plain_text(pid))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(f"{s.presets[e.rule.base].unit} of a win ({mix_label(s.bots)})")
    ax.set_ylabel("wins")
    ax.legend(fontsize=8)
    fig.tight_layout()
    hist_svg = svg(fig)

    rows = [m for m in e.by_mix[0][1] if m.scale == 100.0]
    fig = Figure(figsize=(4.6, 0.35 * len(rows) + 0.9))
    ax = fig.subplots()
    markers = "os"
    for j, (label, ms) in enumerate(e.by_mix):
        by = {m.key: m for m in ms}
        for y, m0 in enumerate(rows):
            m = by.get(m0.key)
            if m is None or m.diff is None:
                continue
            at = y + (j - 0.5) * 0.3
            v = m.scale * m.diff
            err = None if m.low is None or m.high is None else [[v - m.scale * m.low], [m.scale * m.high - v]]
            ax.errorbar(v, at, xerr=err, fmt=markers[j % 2], color=f"C{j}", capsize=3,
                        label=plain_text(label) if y == 0 else None)
    ax.axvline(0, color="#444", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [m.label.split(" (")[0] + (" (pp)" if m.suffix else "") for m in rows],
                  fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("variant less base, percentage points (95 % interval)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return figure(f"{e.rule.id}-faan", hist_svg) + figure(f"{e.rule.id}-changes", svg(fig))


def _html_tables(e: Entry, rounds: bool) -> list[str]:
    """The rule's tables, a mix each: of its hands, or with ``rounds`` of its rounds of a match."""
    esc = html.escape
    table = []
    for j, (label, ms) in enumerate(e.rounds or [] if rounds else e.by_mix):
        rows = _table(e, j, rounds)
        caption = f"over rounds, {label}" if rounds else label
        table += [f'<div class="scroll"><table class="atlas"><caption>{esc(caption)}</caption>',
                  "<tr>" + "".join(f'<th{" class=id" if k == 0 else ""}>{esc(c)}</th>'
                                   for k, c in enumerate(rows[0])) + "</tr>"]
        for m, row in zip(ms, rows[1:]):
            attrs = (f' data-rule="{esc(e.rule.id)}" data-key="{esc(m.key)}" data-mix="{j}"'
                     f' data-value="{m.diff if m.diff is not None else ""}"'
                     f' class="diff{" sure" if m.sure() else ""}"')
            shown = (f"{esc(m.text(m.diff, True))} <span class=iv>({esc(m.interval_text())})</span>"
                     if m.low is not None else esc(m.text(m.diff, True)))
            table.append(f'<tr><td class="id">{esc(row[0])}</td><td>{esc(row[1])}</td><td>{esc(row[2])}</td>'
                         f"<td{attrs}>{shown}</td></tr>")
        table.append("</table></div>")
    return table


def page(found: Sequence[Entry], lines: list[str]) -> str:
    """docs/rule-atlas.html: the same numbers, with a plot per rule."""
    esc = html.escape
    out = [head("The rule atlas", _CSS), "<body>", "<h1>The rule atlas: what each Hong Kong house rule does to "
           "play</h1>", *(f'<p class="note">{code_html(x)}</p>' for x in lines)]
    out.append('<nav id="contents"><ol>' + "".join(
        f'<li><a href="#{esc(e.rule.id)}">{esc(e.rule.topic)}: {esc(e.rule.id)}</a></li>' for e in found)
        + "</ol></nav>")
    broken = [e for e in found if breaks_pairing(e)]
    out.append("<h2>Rules that break the pairing of walls</h2><ul>" + "".join(
        f"<li>{esc(e.rule.id)}: {esc(_pairing_words(e.pairing))}</li>" for e in broken) + "</ul>"
        if broken else "<h2>Rules that break the pairing of walls</h2><p>none</p>")
    for e in found:
        table = _html_tables(e, False)
        rounds = [f'<p class="note">{code_html(_rounds_words(e))}</p>', '<div class="tables">',
                  *_html_tables(e, True), "</div>"] if e.rounds else []
        out += [f'<section class="rule" id="{esc(e.rule.id)}">',
                f"<h2>{esc(e.rule.topic)}: {esc(e.rule.id)}</h2>",
                f'<p class="verdict">{esc(e.verdict)}</p>',
                f'<p class="note">Against {esc(title(e.rule.base, e.run.summary.presets[e.rule.base]))}; '
                f"{e.walls:,} walls; {esc(_distinct(e))}; pairing: {esc(_pairing_words(e.pairing))}. "
                f"{code_html(e.rule.note)}</p>",
                '<div class="tables">', *table, "</div>", f'<div class="plots">{_plots(e)}</div>', *rounds,
                "</section>"]
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--walls", type=int, default=20_000, help="walls a rule (default 20,000)")
    ap.add_argument("--slow-walls", type=int, default=None,
                    help=f"walls for a rule the bots play in Python (none now; default --walls / {SLOW_SHARE}, "
                         "at least 2)")
    ap.add_argument("--rounds", type=int, default=None,
                    help=f"rounds of a match a mix for the rules of who deals next (default --walls / {ROUND_SHARE}, "
                         "at least 2; 0: none)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dask", action="store_true", help="play on Dask (hkcore.dask.simulate: the active client, "
                                                         "else Dask's default scheduler)")
    ap.add_argument("--md", type=Path, default=ROOT / "docs" / "rule-atlas.md")
    ap.add_argument("--html", type=Path, default=ROOT / "docs" / "rule-atlas.html")
    ap.add_argument("--summaries", type=Path, default=None, help="where each run's summary.json goes (default: "
                                                                  "rule-atlas/ beside --md)")
    ap.add_argument("--rules", nargs="*", default=None, help="only these rules (variant ids)")
    ap.add_argument("--pages-from", type=Path, default=None,
                    help="play nothing: write the pages again from a run's summaries folder (its runs.json)")
    args = ap.parse_args(argv)
    if args.pages_from is not None:
        return pages_from(args)
    if args.slow_walls is None:
        args.slow_walls = max(2, args.walls // SLOW_SHARE)
    if args.rounds is None:
        args.rounds = max(2, args.walls // ROUND_SHARE)
    summaries: Path = args.summaries or args.md.parent / "rule-atlas"
    try:
        args.summaries_shown = summaries.resolve().relative_to(ROOT)
    except ValueError:
        args.summaries_shown = summaries
    chosen = RULES if args.rules is None else tuple(r for r in RULES if r.id in args.rules)
    unknown = [x for x in args.rules or () if x not in {r.id for r in RULES}]
    if unknown:
        ap.error(f"--rules: unknown rule {', '.join(unknown)}; the rules: {', '.join(r.id for r in RULES)}")
    given = list(argv) if argv is not None else sys.argv[1:]
    command = "python bench/rule_atlas.py" + "".join(f" {a}" for a in given)
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    done = play(args.walls, args.seed, args.jobs, args.slow_walls, args.dask, chosen, log=sys.stderr)
    round_runs = play_rounds(args.rounds, args.seed, args.jobs, chosen, log=sys.stderr) if args.rounds else []
    summaries.mkdir(parents=True, exist_ok=True)
    for r in done:
        (summaries / f"{run_name(r.base, r.slow)}.json").write_text(r.summary.to_json() + "\n", encoding="utf-8")
    for rr in round_runs:
        (summaries / f"{round_name(rr.base)}.json").write_text(
            "[" + ",\n".join(s.to_json() for s in rr.summaries) + "]\n", encoding="utf-8")
    meta = {"command": command, "when": when, "seed": args.seed, "walls": args.walls, "slow_walls": args.slow_walls,
            "jobs": args.jobs, "dask": args.dask, "summaries": str(args.summaries_shown),
            "runs": [{"base": r.base, "slow": r.slow, "rules": [x.id for x in r.rules], "seconds": r.seconds}
                     for r in done]}
    meta["rounds"] = args.rounds
    meta["round_runs"] = [{"base": r.base, "rules": [x.id for x in r.rules], "seconds": r.seconds}
                          for r in round_runs]
    (summaries / "runs.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return _write(done, args, command, when, summaries, round_runs)


def pages_from(args: argparse.Namespace) -> int:
    """The pages written again from a run's summaries and runs.json, as that run wrote them."""
    folder: Path = args.pages_from
    meta = json.loads((folder / "runs.json").read_text(encoding="utf-8"))
    by_id = {r.id: r for r in RULES}
    done = [Run(m["base"], m["slow"], tuple(by_id[x] for x in m["rules"]),
                SimulationSummary.model_validate_json(
                    (folder / f"{run_name(m['base'], m['slow'])}.json").read_text(encoding="utf-8")), m["seconds"])
            for m in meta["runs"]]
    for key in ("seed", "walls", "slow_walls", "jobs", "dask"):
        setattr(args, key, meta[key])
    args.summaries_shown = meta["summaries"]
    # a run made before the rounds of a match has none
    args.rounds = meta.get("rounds", 0)
    round_runs = [RoundRun(m["base"], tuple(by_id[x] for x in m["rules"]), tuple(
        MatchSummary.model_validate(x) for x in json.loads(
            (folder / f"{round_name(m['base'])}.json").read_text(encoding="utf-8"))), m["seconds"])
        for m in meta.get("round_runs", [])]
    return _write(done, args, meta["command"], meta["when"], folder, round_runs)


def _write(done: list[Run], args: argparse.Namespace, command: str, when: str, summaries: Path,
           round_runs: Sequence[RoundRun] = ()) -> int:
    found = entries(done, round_runs)
    lines = header(done, args, command, when, round_runs)
    args.md.write_text(markdown(done, found, lines), encoding="utf-8")
    args.html.write_text(page(found, lines), encoding="utf-8")
    print(json.dumps({"md": str(args.md), "html": str(args.html), "summaries": str(summaries),
                      "seconds": round(sum(r.seconds for r in done) + sum(r.seconds for r in round_runs), 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
