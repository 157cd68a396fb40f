"""Scoring: every reading of a hand, its patterns, the best total, payments.

For each reading the core gives (and each place the winning tile can sit in
it), every pattern in play is detected; the preset's values are added up
(RULES.md ruling 1): what an ``includes`` names is not added; a limit hand
scores its highest limit alone (equal limits: the one listed first), plus
the preset's ``limit_adds``; a limit never lowers a hand (the ordinary count
stands when it is worth strictly more after the cap); then the cap.

Best reading (ruling 2): the highest capped total, then the highest uncapped
total, then the first in this fixed order: readings in the core's sorted
order, within a reading the winning tile in the pair first, then in each set
in ascending set code; a bonus-tile instant win comes last.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hkcore import core
from hkcore.core._codes import ORPHANS
from hkcore.errors import HandError, HkcoreError
from hkcore.models import Hand, PatternScore, ReadingPart, ScoreResult
from hkcore.patterns import Pattern, Situation
from hkcore.payments import Win
from hkcore.preset import Preset, PresetError, load_preset
from hkcore.registry import catalogue
from hkcore.tiles import TILES, format_tiles

_SCOPES = {
    "standard": ("sets", "hand", "bonus"),
    "bonus": ("bonus", "instant"),
}
_OTHER_SHAPE_SCOPES = ("hand", "bonus")
_KIND = {0: "chow", 1: "pung", 2: "kong"}


@dataclass(frozen=True)
class Entry:
    """A pattern in play under a compiled preset."""

    pattern: Pattern
    id: str
    options: Mapping[str, Any]
    value: int | None
    by_count: tuple[int, ...] | None
    limit: int | None
    includes: frozenset[str]
    wins_below_minimum: bool

    def worth(self, count: int) -> int:
        if self.by_count is not None:
            return self.by_count[min(count, len(self.by_count) - 1)]
        return (self.value or 0) * count


@dataclass
class Outcome:
    capped: int
    uncapped: int
    listed: list[tuple[Entry, int, int]]  # entry, count, contribution
    limit: bool
    below_minimum: bool
    situation: Situation


class CompiledPreset:
    """A preset with its patterns resolved through the plugin registry, ready to score."""

    def __init__(self, preset: Preset) -> None:
        cat = catalogue()
        self.preset = preset
        self.entries: list[Entry] = []
        for rule in preset.patterns:
            pattern = cat.patterns[rule.id]
            self.entries.append(Entry(
                pattern, rule.id, dict(rule.options), rule.value, rule.by_count, rule.limit,
                frozenset(rule.includes), rule.wins_below_minimum,
            ))
        self._by_shape: dict[str, list[Entry]] = {}
        self.limit_adds = frozenset(preset.limit_adds)
        self.has_instant = any(e.pattern.scope == "instant" for e in self.entries)
        scheme = None
        if preset.payments is not None:
            scheme = cat.schemes[preset.payments["scheme"]]
            self.payment_params = scheme.params.model_validate(
                {k: v for k, v in preset.payments.items() if k != "scheme"})
        self.scheme = scheme
        self.adjustments = [(cat.adjustments[name], opts) for name, opts in preset.plugins.items()]

    # ------------------------------------------------------------ scoring

    def score(self, hand: Hand) -> ScoreResult:
        """Score a validated hand under this preset."""
        p = self.preset
        if not p.bonus_tiles:
            for name in ("flowers", "seasons"):
                value = getattr(hand, name)
                if value:
                    raise HandError(
                        f"{name} = {list(value)}: preset {p.id!r} plays {p.tiles} tiles without bonus tiles",
                        name, list(value))
        best: Outcome | None = None
        if hand.win_index >= 0:
            melds = tuple(m.code for m in hand.melds)
            for r in core.readings(hand.counts):
                if len(r) == 2 and r[1] == ORPHANS:
                    if "thirteen_orphans" not in p.shapes:
                        continue
                    best = self._better(best, self._evaluate(Situation(hand, r, "thirteen_orphans")))
                    continue
                full = r + melds
                for win_set in _placements(r, hand.win_index):
                    best = self._better(best, self._evaluate(Situation(hand, full, "standard", win_set)))
        if self.has_instant and hand.bonus_count >= 7:
            out = self._evaluate(Situation(hand, (), "bonus"))
            if any(e.pattern.scope == "instant" for e, _, _ in out.listed):
                best = self._better(best, out)
        return self._result(hand, best)

    @staticmethod
    def _better(best: Outcome | None, new: Outcome) -> Outcome:
        if best is None or (new.capped, new.uncapped) > (best.capped, best.uncapped):
            return new
        return best

    def _cap(self, total: int) -> int:
        cap = self.preset.cap
        return total if cap is None or total <= cap else cap

    def entries_for(self, shape: str) -> list[Entry]:
        """The entries that apply to a shape, in preset order."""
        found = self._by_shape.get(shape)
        if found is None:
            scopes = _SCOPES.get(shape, _OTHER_SHAPE_SCOPES)
            found = self._by_shape[shape] = [e for e in self.entries if e.pattern.scope in scopes]
        return found

    def _evaluate(self, s: Situation) -> Outcome:
        met: list[tuple[Entry, int]] = []
        for e in self.entries_for(s.shape):
            n = e.pattern.detect(s, e.options)
            if n:
                met.append((e, n))
        excluded: set[str] = set()
        for e, _ in met:
            excluded |= e.includes
        ordinary = [(e, n, e.worth(n)) for e, n in met
                    if e.limit is None and e.id not in excluded and not e.pattern.fallback]
        listed = ordinary
        total = sum(c for _, _, c in ordinary)
        is_limit = False
        limits = [(e, n) for e, n in met if e.limit is not None]
        if limits:
            top_entry, top_n = limits[0]
            for e, n in limits[1:]:
                if e.limit > top_entry.limit:  # type: ignore[operator]
                    top_entry, top_n = e, n
            adds = [(e, n, c) for e, n, c in ordinary if e.id in self.limit_adds]
            limit_total = top_entry.limit + sum(c for _, _, c in adds)  # type: ignore[operator]
            if not self._cap(total) > self._cap(limit_total):
                listed = [(top_entry, top_n, top_entry.limit), *adds]  # type: ignore[list-item]
                total = limit_total
                is_limit = True
        if not listed:
            listed = [(e, n, 0) for e, n in met if e.pattern.fallback]
        below = any(e.wins_below_minimum for e, _, _ in listed)
        return Outcome(self._cap(total), total, listed, is_limit, below, s)

    def _result(self, hand: Hand, best: Outcome | None) -> ScoreResult:
        p = self.preset
        if best is None:
            return ScoreResult(preset=p.id, unit=p.unit, faan=0, uncapped=0, winnable=False, complete=False,
                               reason="not a complete hand" + ("" if hand.win_index >= 0 else
                                                               " (and not a bonus-tile instant win)"))
        s = best.situation
        winnable = best.capped >= p.minimum or best.below_minimum
        reason = None
        if not winnable:
            reason = f"{best.capped} {p.unit}; this table needs {p.minimum}"
        payments, note = None, None
        if p.payments is None:
            note = None
        elif not winnable:
            note = "no payment: the hand cannot win"
        else:
            payments, note = self._settle(hand, best)
        return ScoreResult(
            preset=p.id, unit=p.unit, faan=best.capped, uncapped=best.uncapped, winnable=winnable,
            complete=True, limit=best.limit, shape=s.shape,
            patterns=[PatternScore(id=e.id, faan=c, count=n, name_en=e.pattern.name_en, name_zh=e.pattern.name_zh)
                      for e, n, c in best.listed],
            reading=_reading_parts(hand, s), payments=payments, payments_note=note, reason=reason,
        )

    def _settle(self, hand: Hand, best: Outcome) -> tuple[dict[str, int] | None, str | None]:
        instant = best.situation.shape == "bonus"
        self_draw = hand.self_draw or instant
        if not self_draw and hand.discarder is None:
            who = "the kong-maker" if hand.robbing_kong else "the discarder"
            return None, f"payments need {who}: give 'discarder'"
        win = Win(hand.seat_wind, best.capped, self_draw, None if self_draw else hand.discarder,
                  hand.robbing_kong and not self_draw)
        assert self.scheme is not None
        payments = self.scheme.settle(win, self.payment_params)
        for adjustment, options in self.adjustments:
            payments = adjustment.adjust(hand, win, payments, options)
        return payments, ("paid as a self-draw" if instant else None)


def _placements(reading: tuple[int, ...], win: int) -> list[int]:
    """Where the winning tile can sit: -1 for the pair, else a concealed set code."""
    out = [-1] if reading[0] == win else []
    for code in sorted(set(reading[1:])):
        kind, t = divmod(code, 34)
        if (kind == 0 and t <= win <= t + 2) or (kind != 0 and t == win):
            out.append(code)
    return out


def _reading_parts(hand: Hand, s: Situation) -> list[ReadingPart]:
    if s.shape == "bonus":
        return []
    if s.shape == "thirteen_orphans":
        return [ReadingPart(kind="orphans", tiles=hand.tiles, concealed=True, declared=False, winning=True)]
    parts = [ReadingPart(kind="pair", tiles=format_tiles([TILES[s.pair]] * 2), concealed=True, declared=False,
                         winning=s.win_set == -1)]
    n_hand = len(s.reading) - 1 - len(hand.melds)
    for code in s.reading[1:1 + n_hand]:
        parts.append(ReadingPart(kind=_KIND[code // 34], tiles=format_tiles([TILES[t] for t in core.set_tiles(code)]),
                                 concealed=True, declared=False, winning=code == s.win_set))
    for m in hand.melds:
        parts.append(ReadingPart(kind=m.kind, tiles=m.tiles, concealed=m.concealed, declared=True, winning=False))
    return parts


_COMPILED: dict[int, tuple[Preset, CompiledPreset]] = {}


def compile_preset(preset: Preset) -> CompiledPreset:
    """The compiled form of a preset, built once per Preset object."""
    hit = _COMPILED.get(id(preset))
    if hit is not None and hit[0] is preset:
        return hit[1]
    compiled = CompiledPreset(preset)
    _COMPILED[id(preset)] = (preset, compiled)
    return compiled


def score(hand: Any, preset: str | Preset = "bga-old-style") -> ScoreResult:
    """Score a hand (RULES.md dict, ``Hand``, JSON or compact notation) under a preset.

    ``preset`` is a built-in id, a TOML path or a loaded ``Preset``.
    """
    h = Hand.parse(hand)
    compiled = compile_preset(load_preset(preset))
    return compiled.score(h)


__all__ = ["score", "compile_preset", "CompiledPreset", "HkcoreError", "PresetError"]
