"""The pure-Python evaluator: a hand's placements detected and added up
(docs/rules.md rulings 1 and 2), the reference the compiled kernel is held
equal to; also the one that scores the shapes plugins add, and the
detector the kernel calls back for patterns it has no native detector for.

The order of placements is the engine's (see ``hkcore.engine``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from hkcore import core
from hkcore.core import ORPHANS, when_facts
from hkcore.engine.entries import SHAPE_NAMES, Entry, Outcome, better, entries_in
from hkcore.models import Hand
from hkcore.patterns import Situation
from hkcore.registry import MAX_COUNT, CheckedShape, checked_count, raised


class Evaluator:
    """The pure-Python evaluation of a compiled preset's entries. Immutable
    once built.

    ``owner`` maps ("pattern", id) to the plugin that provides it, for
    errors; ``extra_shapes`` are the shapes plugins add, with their options.
    """

    def __init__(self, entries: tuple[Entry, ...], shapes: tuple[str, ...], cap: int | None,
                 owner: Mapping[tuple[str, str], str],
                 extra_shapes: tuple[tuple[CheckedShape, Mapping[str, Any]], ...]) -> None:
        self.entries = entries
        self.cap = cap
        self.owner = owner
        self.extra_shapes = extra_shapes
        self.thirteen_orphans = "thirteen_orphans" in shapes
        self.conditional = any(e.when for e in entries)
        self.has_instant = any(e.pattern.scope == "instant" for e in entries)
        self.by_shape: Mapping[str, tuple[Entry, ...]] = MappingProxyType({
            shape: entries_in(entries, shape) for shape in (*shapes, "bonus")})

    def entries_for(self, shape: str) -> tuple[Entry, ...]:
        """The entries that apply to a shape, in preset order."""
        found = self.by_shape.get(shape)
        return found if found is not None else entries_in(self.entries, shape)

    def capped(self, total: int) -> int:
        """``total`` after the preset's cap."""
        cap = self.cap
        return total if cap is None or total <= cap else cap

    def detect(self, e: Entry, s: Situation) -> int:
        """How many times ``e``'s pattern is met; a PluginError names the
        plugin when its detector raises or answers out of contract."""
        try:
            n = e.pattern.detect(s, e.options)
        except Exception as exc:  # noqa: BLE001 - a plugin's detector may raise anything: named as a PluginError
            raise raised(self.owner[("pattern", e.id)], "hkcore_patterns", f"pattern {e.id!r}", exc) from None
        if type(n) is int and 0 <= n <= MAX_COUNT:
            return n
        return checked_count(n, self.owner[("pattern", e.id)], e.id)

    def python_detector(self, hand: Hand) -> Callable[[int, int, tuple[int, ...], int], int]:
        """The detector the kernel calls back for entries it has no native detector for."""
        entries = self.entries

        def detect(i: int, shape: int, reading: tuple[int, ...], win_set: int) -> int:
            return self.detect(entries[i], Situation(hand, reading, SHAPE_NAMES[shape], win_set))

        return detect

    def best_outcome(self, hand: Hand) -> Outcome | None:
        """The best outcome over the standard shape, thirteen orphans and the
        bonus instant win (the kernel's reference)."""
        best: Outcome | None = None
        if hand.win_index >= 0:
            melds = tuple(m.code for m in hand.melds)
            orphans = None
            for r in core.readings(hand.counts):
                if len(r) == 2 and r[1] == ORPHANS:
                    orphans = r
                    continue
                full = r + melds
                for win_set in placements(r, hand.win_index):
                    best = better(best, self.evaluate(Situation(hand, full, "standard", win_set)))
            if orphans is not None and self.thirteen_orphans:
                best = better(best, self.evaluate(Situation(hand, orphans, "thirteen_orphans")))
        if self.has_instant and hand.bonus_count >= 7:
            out = self.evaluate(Situation(hand, (), "bonus"))
            if any(self.entries[i].pattern.scope == "instant" for i, _, _ in out.listed):
                best = better(best, out)
        return best

    def plugin_shapes(self, hand: Hand, best: Outcome | None) -> Outcome | None:
        """``best`` against the readings of the shapes plugins add, after the core's."""
        if hand.win_index < 0:
            return best
        melds = tuple(m.code for m in hand.melds)
        k = len(melds)
        for shape, options in self.extra_shapes:
            for r in shape.readings(hand.counts, k, options):
                best = better(best, self.evaluate(Situation(hand, tuple(r) + melds, shape.id)))
        return best

    def evaluate(self, s: Situation) -> Outcome:
        """Detect and add up one situation (ruling 1); a pattern whose ``when``
        does not hold is not detected."""
        met: list[tuple[Entry, int]] = []
        facts = hand_facts(s.hand) if self.conditional else 0
        for e in self.entries_for(s.shape):
            if e.when & ~facts:
                continue
            n = self.detect(e, s)
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
            adds = [(e, n, c) for e, n, c in ordinary if e.adds_to_limit]
            limit_total = top_entry.limit + sum(c for _, _, c in adds)  # type: ignore[operator]
            if not self.capped(total) > self.capped(limit_total):
                listed = sorted([(top_entry, top_n, top_entry.limit), *adds],  # type: ignore[list-item]
                                key=lambda x: x[0].index)
                total = limit_total
                is_limit = True
        if not listed:
            listed = [(e, n, 0) for e, n in met if e.pattern.fallback]
        below = any(e.wins_below_minimum for e, _, _ in listed)
        return Outcome(self.capped(total), total, is_limit, s.shape, s.reading, s.win_set, below,
                       tuple((e.index, n, c) for e, n, c in listed))


def hand_facts(hand: Hand) -> int:
    """The ``WHEN`` conditions that hold for a hand's win (a concealed kong keeps it concealed)."""
    return when_facts(hand.self_draw, not any(m.claimed for m in hand.melds), hand.seat_wind == "E")


def placements(reading: tuple[int, ...], win: int) -> list[int]:
    """Where the winning tile can sit: -1 for the pair, else a concealed set code."""
    out = [-1] if reading[0] == win else []
    for code in sorted(set(reading[1:])):
        kind, t = divmod(code, 34)
        if (kind == 0 and t <= win <= t + 2) or (kind != 0 and t == win):
            out.append(code)
    return out
