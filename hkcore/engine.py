"""Scoring: every reading of a hand, its patterns, the best total, payments.

For each reading the core gives (and each place the winning tile can sit in
it), every pattern in play is detected; the preset's values are added up
(docs/rules.md ruling 1): what an ``includes`` names is not added; a limit hand
scores its highest limit alone (equal limits: the one listed first), plus
the preset's ``limit_adds``; a limit never lowers a hand (the ordinary count
stands when it is worth strictly more after the cap; on a tie the limit is
shown); then the cap.

Best reading (ruling 2): the highest capped total, then the highest uncapped
total, then the first in this fixed order: readings in the core's sorted
order, within a reading the winning tile in the pair first, then in each set
in ascending set code; thirteen orphans after the standard readings; then a
bonus-tile instant win; last the shapes plugins add, in the preset's order.

A pattern whose preset entry has a ``when`` counts only where its
conditions hold (``hkcore.core._codes.WHEN``): elsewhere it is not detected
at all, so it excludes nothing through its ``includes``.

Two evaluators give identical outcomes: the compiled kernel
(``hkcore.core._ccore.Kernel``), used when the compiled core is active, and
the pure-Python one below, the reference (tests hold them equal).

A ``CompiledPreset`` is immutable once built and owns everything scoring
and analysis need; ``Rulesets`` keeps the compiled built-in presets of the
current plugin registry for the process's life and others in a bounded LRU,
keyed by the ``Preset`` object, never by an id.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any, NamedTuple

from pydantic import ValidationError

from hkcore import core, registry
from hkcore.cells import BoundedLRU, Published
from hkcore.core import CORE_SHAPES, ORPHANS, WHEN, ShapeSet, when_facts
from hkcore.errors import HandError, shown
from hkcore.models import FAST_READERS, Hand
from hkcore.results import PatternScore, ReadingPart, ScoreResult, reading_part
from hkcore.values import trusted
from hkcore.patterns import Pattern, Situation
from hkcore.payments import Win, role_amounts
from hkcore.preset import CACHE_SIZE, Preset, PresetError, PresetStore, load_preset, pattern_worth, store
from hkcore.registry import (
    MAX_COUNT, Catalogue, CheckedShape, checked_count, checked_payments, plugin_error, raised,
)
from hkcore.tiles import TILES, format_tiles

_SCOPES = {
    "standard": ("sets", "hand", "bonus"),
    "bonus": ("bonus", "instant"),
}
_OTHER_SHAPE_SCOPES = ("hand", "bonus")
_SCOPE_BITS = {"sets": 1, "hand": 2, "bonus": 4, "instant": 8}
_SHAPE_NAMES = ("standard", "thirteen_orphans", "bonus")
_KIND = {0: "chow", 1: "pung", 2: "kong"}


@dataclass(frozen=True)
class Entry:
    """A pattern in play under a compiled preset."""

    index: int
    pattern: Pattern
    id: str
    options: Mapping[str, Any]
    value: int | None
    by_count: tuple[int, ...] | None
    limit: int | None
    includes: frozenset[str]
    wins_below_minimum: bool
    adds_to_limit: bool
    #: bits of the ``WHEN`` conditions that must hold (0: none)
    when: int = 0

    def worth(self, count: int) -> int:
        """Faan for meeting the pattern ``count`` times (not for limits)."""
        return pattern_worth(self.value, self.by_count, count)

    def contribution(self, count: int) -> int:
        """What the pattern adds when listed in a result: its limit, 0 for a
        fallback, else its worth."""
        if self.limit is not None:
            return self.limit
        if self.pattern.fallback:
            return 0
        return self.worth(count)


#: the most values a compiled preset's ``interned`` table keeps
INTERNED = 4096
#: patterns commonly met more than once in a hand, and how many times at most
_MOST_COUNTED = {"bonus_tile": 8, "dragon_pung": 3}


class Outcome(NamedTuple):
    """The counted result of one placement: what both evaluators return."""

    capped: int
    uncapped: int
    limit: bool
    shape: str
    reading: tuple[int, ...]
    win_set: int
    below_minimum: bool
    listed: tuple[tuple[int, int, int], ...]  # (entry index, count, contribution), preset order


def native_code(pattern: Pattern) -> int:
    """The compiled kernel's code of ``pattern``'s native detector; 0 when it
    has none (``native`` unset or unknown to the kernel, or no compiled core):
    then the pattern's own ``detect`` scores it."""
    if pattern.native is None or core.compiled is None:
        return 0
    return int(core.compiled.NATIVE_CODES.get(pattern.native, 0))


def _kernel_class() -> Any:
    if core.compiled is None:
        return None
    return getattr(core.compiled, "Kernel", None)


def _check_provided(preset: Preset, cat: Catalogue) -> None:
    """Every pattern, shape, scheme and adjustment the preset names is in the catalogue
    (a preset loaded before a plugin was unregistered may name one that is gone)."""
    wanted = [("pattern", r.id, cat.patterns) for r in preset.patterns]
    wanted += [("shape", sid, cat.shapes) for sid in preset.shapes]
    wanted += [("payment adjustment", name, cat.adjustments) for name in preset.plugins]
    if preset.payments is not None:
        wanted.append(("payment scheme", preset.payments.get("scheme"), cat.schemes))
    for kind, item, found in wanted:
        if item not in found:
            raise PresetError(f"{kind} {shown(item)} is not provided by any registered plugin (was its plugin "
                              "removed or reloaded since the preset was loaded?)", preset.file or preset.id, kind)


class CompiledPreset:
    """A preset with its patterns resolved through a plugin catalogue, ready
    to score and analyse. Its rules and tables never change once built;
    the one table that grows is ``interned``, where analysis keeps each
    distinct (immutable) wait value it has made, so that a thousand
    analyses share a few dozen objects: a dict (each step atomic, also
    without the GIL) of values that are pure functions of their keys, that
    stops growing at ``INTERNED`` entries."""

    def __init__(self, preset: Preset, cat: Catalogue | None = None, use_kernel: bool = True) -> None:
        cat = cat if cat is not None else registry.catalogue()
        _check_provided(preset, cat)
        self.preset = preset
        self.catalogue = cat
        self.minimum = preset.minimum
        self.no_bonus = not preset.bonus_tiles
        self.has_payments = preset.payments is not None
        limit_adds = frozenset(preset.limit_adds)
        self.entries: tuple[Entry, ...] = tuple(
            Entry(i, cat.patterns[rule.id], rule.id, rule.options, rule.value, rule.by_count, rule.limit,
                  frozenset(rule.includes), rule.wins_below_minimum, rule.id in limit_adds,
                  sum(WHEN[w] for w in rule.when))
            for i, rule in enumerate(preset.patterns))
        self.conditional = any(e.when for e in self.entries)
        self._by_shape: Mapping[str, tuple[Entry, ...]] = MappingProxyType({
            shape: self._entries_in(shape) for shape in (*preset.shapes, "bonus")})
        self.has_instant = any(e.pattern.scope == "instant" for e in self.entries)
        self.scheme = None
        self.payment_params: Any = None
        if preset.payments is not None:
            self.scheme = cat.schemes[preset.payments["scheme"]]
            try:
                self.payment_params = self.scheme.params.model_validate(
                    {k: v for k, v in preset.payments.items() if k != "scheme"})
            except ValidationError as exc:
                raise PresetError(f"payments: {shown(str(exc))}", preset.file or preset.id, "payments") from None
        self.adjustments = tuple((cat.adjustments[name], opts) for name, opts in preset.plugins.items())
        keys = [("pattern", e.id) for e in self.entries] + [("payment adjustment", a.id) for a, _ in self.adjustments]
        if self.scheme is not None:
            keys.append(("payment scheme", self.scheme.id))
        #: (kind, id) -> the plugin that provides it, for errors
        self._owner = {key: cat.owner.get(key, "?") for key in keys}
        self._adjust_min_melds = min((a.min_declared_sets for a, _ in self.adjustments), default=0)
        self.extra_shapes = tuple((CheckedShape(cat.shapes[sid], cat.owner.get(("shape", sid), "?")),
                                   preset.shape_options.get(sid, MappingProxyType({})))
                                  for sid in preset.shapes if sid not in CORE_SHAPES)
        #: the preset's shapes as the core takes them
        self.shape_set = ShapeSet("thirteen_orphans" in preset.shapes, self.extra_shapes)
        #: the entries the compiled kernel has no detector for (a pattern
        #: without ``native``, or naming one the kernel lacks): their own
        #: ``detect`` scores them
        self.python_entries = tuple(e for e in self.entries if native_code(e.pattern) == 0)
        #: pattern id -> the shape it needs that this preset leaves off (warned about: never met)
        self.shapes_missing = registry.shapes_missing([e.id for e in self.entries], preset.shapes, cat)
        self.interned: dict[Any, Any] = {}
        self._scores: Mapping[tuple[int, int, int], PatternScore] = MappingProxyType({
            (e.index, n, e.contribution(n)): self._make_pattern(e.index, n, e.contribution(n))
            for e in self.entries for n in range(1, _MOST_COUNTED.get(e.id, 1) + 1)})
        #: what a result says of its payments under a preset without a payment table (docs/rules.md: "the result says so")
        self.no_table_note = (None if preset.payments is not None
                              else f"no payment table: {preset.id} scores {preset.unit} only")
        self.kernel = self._build_kernel() if use_kernel else None
        self.fast = False
        if self.kernel is not None and not self.extra_shapes and not self.python_entries:
            # the kernel builds the whole result: no Python between the hand and the result
            self.kernel.assemble(
                preset.id, preset.unit, preset.minimum, self._make_pattern, _SET_PARTS,
                _ORPHAN_PART, self._settle_total if preset.payments is not None else None,
                self.not_winnable, ScoreResult, Hand,
                self._role_amounts if self.scheme is not None and self.scheme.symmetric else None,
                preset.bonus_tiles, self._adjust if self.adjustments else None, self._adjust_min_melds,
                self.no_table_note,
            )
            self.fast = True
        fast_read = FAST_READERS.get(Hand)
        #: the compiled reader's scoring of plain input (a dict, JSON, notation) under this preset's kernel,
        #: giving None where the Hand must be read and validated first
        self.score_plain: Callable[[Any], ScoreResult | None] = (
            partial(fast_read.score, self.kernel) if self.fast and fast_read is not None else _no_answer)

    def _entries_in(self, shape: str) -> tuple[Entry, ...]:
        scopes = _SCOPES.get(shape, _OTHER_SHAPE_SCOPES)
        return tuple(e for e in self.entries if e.pattern.scope in scopes)

    def not_winnable(self, capped: int) -> str:
        """Why a complete hand counted at ``capped`` cannot win."""
        p = self.preset
        return f"complete but {capped} {p.unit}; {p.id} needs {p.minimum}"

    def _build_kernel(self) -> Any:
        kernel_class = _kernel_class()
        if kernel_class is None:
            return None
        OPTION_CODES = core.compiled.OPTION_CODES  # type: ignore[union-attr]

        index = {e.id: e.index for e in self.entries}
        spec = []
        for e in self.entries:
            native = native_code(e.pattern)
            opt = OPTION_CODES[next(iter(e.options.values()))] if native and e.options else 0
            includes = 0
            for inc in e.includes:
                if inc in index:
                    includes |= 1 << index[inc]
            if e.by_count is not None and len(e.by_count) > 8:
                return None
            spec.append((native, opt, _SCOPE_BITS[e.pattern.scope], e.value or 0, e.by_count,
                         -1 if e.limit is None else e.limit, e.pattern.fallback, e.wins_below_minimum,
                         e.adds_to_limit, includes, e.when))
        if len(spec) > 64:
            return None
        cap = -1 if self.preset.cap is None else self.preset.cap
        return kernel_class(spec, cap, "thirteen_orphans" in self.preset.shapes, Outcome)

    # ------------------------------------------------------------ scoring

    def check(self, hand: Hand) -> None:
        """Raise HandError where the hand cannot be played under this preset."""
        p = self.preset
        if not p.bonus_tiles and (hand.flowers or hand.seasons):
            for name in ("flowers", "seasons"):
                value = getattr(hand, name)
                if value:
                    raise HandError(
                        f"{name} = {list(value)}: preset {p.id!r} plays {p.tiles} tiles without bonus tiles",
                        name, list(value))

    def score(self, hand: Any) -> ScoreResult:
        """Score a hand (a ``Hand`` or anything ``Hand.parse`` reads) under this preset."""
        if type(hand) is not Hand:
            found = self.score_plain(hand)
            if found is not None:
                return found
            hand = Hand.parse(hand)
        if self.no_bonus and (hand.flowers or hand.seasons):
            self.check(hand)
        if self.fast:
            result = self.kernel.score_result(hand)
            return result if result is not None else self._result(hand, None)
        if self.kernel is not None:
            best = self.kernel.score(hand.kernel_context,
                                     self._python_detector(hand) if self.python_entries else None)
        else:
            best = self.best_outcome(hand)
        if self.extra_shapes:
            best = self._plugin_shapes(hand, best)
        return self._result(hand, best)

    def _off_shape(self, hand: Hand) -> str:
        """For a hand that is not complete: which shape a pattern of this preset
        needs, that the preset leaves off, the hand would be complete as ("" if none)."""
        if not self.shapes_missing or hand.win_index < 0:
            return ""
        k = len(hand.melds)
        for pid, sid in self.shapes_missing.items():
            shape = self.catalogue.shapes.get(sid)
            if shape is None:
                continue
            defaults = {name: v[0] if isinstance(v, tuple) else v for name, v in shape.options.items()}
            checked = CheckedShape(shape, self.catalogue.owner.get(("shape", sid), "?"))
            if checked.readings(hand.counts, k, defaults):
                return (f"; it is complete as {sid}, a shape {self.preset.id} leaves off "
                        f"(pattern {pid} needs it: add {sid!r} to shapes)")
        return ""

    def _plugin_shapes(self, hand: Hand, best: Outcome | None) -> Outcome | None:
        """Readings of the shapes plugins add, after the core's (see the top of this module)."""
        if hand.win_index < 0:
            return best
        melds = tuple(m.code for m in hand.melds)
        k = len(melds)
        for shape, options in self.extra_shapes:
            for r in shape.readings(hand.counts, k, options):
                best = _better(best, self.evaluate(Situation(hand, tuple(r) + melds, shape.id)))
        return best

    def _python_detector(self, hand: Hand) -> Callable[[int, int, tuple[int, ...], int], int]:
        entries = self.entries

        def detect(i: int, shape: int, reading: tuple[int, ...], win_set: int) -> int:
            return self._detect(entries[i], Situation(hand, reading, _SHAPE_NAMES[shape], win_set))

        return detect

    def _detect(self, e: Entry, s: Situation) -> int:
        """How many times ``e``'s pattern is met; a PluginError names the
        plugin when its detector raises or answers out of contract."""
        try:
            n = e.pattern.detect(s, e.options)
        except Exception as exc:
            raise raised(self._owner[("pattern", e.id)], "hkcore_patterns", f"pattern {e.id!r}", exc) from None
        if type(n) is int and 0 <= n <= MAX_COUNT:
            return n
        return checked_count(n, self._owner[("pattern", e.id)], e.id)

    def best_outcome(self, hand: Hand) -> Outcome | None:
        """The best outcome over the standard shape, thirteen orphans and the
        bonus instant win, by the pure-Python evaluator (the kernel's reference)."""
        p = self.preset
        best: Outcome | None = None
        if hand.win_index >= 0:
            melds = tuple(m.code for m in hand.melds)
            orphans = None
            for r in core.readings(hand.counts):
                if len(r) == 2 and r[1] == ORPHANS:
                    orphans = r
                    continue
                full = r + melds
                for win_set in _placements(r, hand.win_index):
                    best = _better(best, self.evaluate(Situation(hand, full, "standard", win_set)))
            if orphans is not None and "thirteen_orphans" in p.shapes:
                best = _better(best, self.evaluate(Situation(hand, orphans, "thirteen_orphans")))
        if self.has_instant and hand.bonus_count >= 7:
            out = self.evaluate(Situation(hand, (), "bonus"))
            if any(self.entries[i].pattern.scope == "instant" for i, _, _ in out.listed):
                best = _better(best, out)
        return best

    def entries_for(self, shape: str) -> tuple[Entry, ...]:
        """The entries that apply to a shape, in preset order."""
        found = self._by_shape.get(shape)
        return found if found is not None else self._entries_in(shape)

    def _cap(self, total: int) -> int:
        cap = self.preset.cap
        return total if cap is None or total <= cap else cap

    def evaluate(self, s: Situation) -> Outcome:
        """Detect and add up one situation (ruling 1); a pattern whose ``when``
        does not hold is not detected."""
        met: list[tuple[Entry, int]] = []
        facts = _facts(s.hand) if self.conditional else 0
        for e in self.entries_for(s.shape):
            if e.when & ~facts:
                continue
            n = self._detect(e, s)
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
            if not self._cap(total) > self._cap(limit_total):
                listed = sorted([(top_entry, top_n, top_entry.limit), *adds],  # type: ignore[list-item]
                                key=lambda x: x[0].index)
                total = limit_total
                is_limit = True
        if not listed:
            listed = [(e, n, 0) for e, n in met if e.pattern.fallback]
        below = any(e.wins_below_minimum for e, _, _ in listed)
        return Outcome(self._cap(total), total, is_limit, s.shape, s.reading, s.win_set, below,
                       tuple((e.index, n, c) for e, n, c in listed))

    def _result(self, hand: Hand, best: Outcome | None) -> ScoreResult:
        p = self.preset
        if best is None:
            return ScoreResult(preset=p.id, unit=p.unit, faan=0, uncapped=0, winnable=False, complete=False,
                               reason="not a complete hand" + ("" if hand.win_index >= 0 else
                                                               " (and not a bonus-tile instant win)")
                               + self._off_shape(hand))
        capped = best.capped
        winnable = capped >= self.minimum or best.below_minimum
        payments = None
        note = self.no_table_note
        if self.has_payments:
            if winnable:
                payments, note = self._settle(hand, best)
            else:
                note = "no payment: the hand cannot win"
        scores = self._scores
        patterns = []
        for item in best.listed:
            ps = scores.get(item)
            patterns.append(ps if ps is not None else self._make_pattern(*item))
        return trusted(ScoreResult, {
            "preset": p.id, "unit": p.unit, "faan": capped, "uncapped": best.uncapped,
            "winnable": winnable, "complete": True, "limit": best.limit, "shape": best.shape,
            "patterns": patterns, "reading": _reading_parts(hand, best, self.catalogue), "payments": payments,
            "payments_note": note,
            "reason": None if winnable else self.not_winnable(capped),
        })

    def _role_amounts(self, total: int) -> tuple[int, int, int, int, int]:
        return role_amounts(self._scheme_settle, total)

    def _scheme_settle(self, win: Win) -> dict[str, int]:
        """The scheme's payments for ``win``, checked (a PluginError names the plugin)."""
        assert self.scheme is not None
        plugin, what = self._owner[("payment scheme", self.scheme.id)], f"scheme {self.scheme.id!r}"
        try:
            pays = self.scheme.settle(win, self.payment_params)
        except Exception as exc:
            raise raised(plugin, "hkcore_payment_schemes", what, exc) from None
        return checked_payments(pays, plugin, "hkcore_payment_schemes", what)

    def _adjust(self, hand: Hand, capped: int, instant: bool, payments: dict[str, int]) -> dict[str, int]:
        """The preset's payment adjustments on payments already settled."""
        self_draw = hand.self_draw or instant
        win = Win(hand.seat_wind, capped, self_draw, None if self_draw else hand.discarder,
                  hand.robbing_kong and not self_draw)
        return self._apply_adjustments(hand, win, payments)

    def _apply_adjustments(self, hand: Hand, win: Win, payments: dict[str, int]) -> dict[str, int]:
        for adjustment, options in self.adjustments:
            if len(hand.melds) >= adjustment.min_declared_sets:
                plugin, what = self._owner[("payment adjustment", adjustment.id)], f"adjustment {adjustment.id!r}"
                try:
                    found = adjustment.adjust(hand, win, dict(payments), options)
                except Exception as exc:
                    raise raised(plugin, "hkcore_payment_adjustments", what, exc) from None
                payments = checked_payments(found, plugin, "hkcore_payment_adjustments", what)
        return payments

    def _make_pattern(self, entry: int, count: int, value: int) -> PatternScore:
        pat = self.entries[entry].pattern
        return PatternScore(id=pat.id, faan=value, count=count, name_en=pat.name_en, name_zh=pat.name_zh)

    def _settle(self, hand: Hand, best: Outcome) -> tuple[dict[str, int] | None, str | None]:
        return self._settle_total(hand, best.capped, best.shape == "bonus")

    def _settle_total(self, hand: Hand, capped: int, instant: bool) -> tuple[dict[str, int] | None, str | None]:
        """Payments for a winnable hand counted at ``capped``; ``instant``: a
        bonus-tile instant win (paid as a self-draw)."""
        self_draw = hand.self_draw or instant
        if not self_draw and hand.discarder is None:
            who = "the kong-maker" if hand.robbing_kong else "the discarder"
            return None, f"payments need {who}: give 'discarder'"
        win = Win(hand.seat_wind, capped, self_draw, None if self_draw else hand.discarder,
                  hand.robbing_kong and not self_draw)
        # a scheme's answer depends on the win alone: settle each distinct win once
        payments = self._apply_adjustments(hand, win, self._scheme_settle(win))
        return payments, ("paid as a self-draw" if instant else None)


def _facts(hand: Hand) -> int:
    """The ``WHEN`` conditions that hold for a hand's win (a concealed kong keeps it concealed)."""
    return when_facts(hand.self_draw, not any(m.claimed for m in hand.melds), hand.seat_wind == "E")


def _better(best: Outcome | None, new: Outcome) -> Outcome:
    if best is None or (new.capped, new.uncapped) > (best.capped, best.uncapped):
        return new
    return best


def _placements(reading: tuple[int, ...], win: int) -> list[int]:
    """Where the winning tile can sit: -1 for the pair, else a concealed set code."""
    out = [-1] if reading[0] == win else []
    for code in sorted(set(reading[1:])):
        kind, t = divmod(code, 34)
        if (kind == 0 and t <= win <= t + 2) or (kind != 0 and t == win):
            out.append(code)
    return out


def _set_text(code: int) -> str:
    return format_tiles([TILES[t] for t in core.set_tiles(code)])


def _set_parts() -> tuple[tuple[ReadingPart | None, ReadingPart | None], ...]:
    rows = []
    for code in range(136):
        kind, t = divmod(code, 34)
        if code >= 102:
            text = format_tiles([TILES[code - 102]] * 2)
            rows.append((reading_part("pair", text, True, False, False), reading_part("pair", text, True, False, True)))
        elif (kind == 0 and t < 27 and t % 9 <= 6) or 0 < kind < 3:
            text = _set_text(code)
            rows.append((reading_part(_KIND[kind], text, True, False, False),
                         reading_part(_KIND[kind], text, True, False, True)))
        else:
            rows.append((None, None))
    return tuple(rows)


#: reading parts by set code (0..101) or 102 + pair tile, then winning (0/1); built at import
_SET_PARTS = _set_parts()


def _ORPHAN_PART(tiles: str) -> ReadingPart:
    return reading_part("orphans", tiles, True, False, True)


def _reading_parts(hand: Hand, best: Outcome, cat: Catalogue) -> list[ReadingPart]:
    shape = best.shape
    if shape != "standard":
        if shape == "bonus":
            return []
        if shape == "thirteen_orphans":
            return [_ORPHAN_PART(hand.tiles)]
        return _plugin_parts(hand, best, cat)
    table = _SET_PARTS
    r = best.reading
    win_set = best.win_set
    parts = [table[102 + r[0]][win_set == -1]]
    for code in r[1:len(r) - len(hand.melds)]:
        won = code == win_set
        if won:
            win_set = -2  # one set holds the winning tile, even with two alike
        parts.append(table[code][won])
    parts.extend(hand.meld_parts)
    return parts  # type: ignore[return-value]


def _plugin_parts(hand: Hand, best: Outcome, cat: Catalogue) -> list[ReadingPart]:
    shape = cat.shapes.get(best.shape)
    if shape is None or shape.parts is None:
        return []
    concealed = best.reading[:len(best.reading) - len(hand.melds)]
    parts, won = [], False
    plugin = cat.owner.get(("shape", shape.id), "?")
    try:
        given = [(kind, list(tiles)) for kind, tiles in shape.parts(concealed)]
    except Exception as exc:
        raise raised(plugin, "hkcore_shapes", f"shape {shape.id!r}", exc) from None
    for kind, tiles in given:
        if kind not in _KIND.values() and kind != "pair" or not all(type(t) is int and 0 <= t < 34 for t in tiles):
            raise plugin_error(plugin, "hkcore_shapes", f"shape {shape.id!r}",
                               f"parts gave {shown((kind, tiles))}; a part is (pair|chow|pung|kong, tile indices)")
        winning = not won and hand.win_index in tiles
        won = won or winning
        parts.append(reading_part(kind, format_tiles([TILES[t] for t in tiles]), True, False, winning))
    parts.extend(hand.meld_parts)
    return parts


class Rulesets:
    """The compiled presets of one preset store: every built-in one, compiled
    together and kept for the store's life, and others by ``Preset`` object,
    the ``CACHE_SIZE`` most recently used kept."""

    def __init__(self, presets: PresetStore) -> None:
        self.presets = presets
        cat = presets.registry.catalogue
        self.builtins: Mapping[str, CompiledPreset] = MappingProxyType({
            pid: CompiledPreset(p, cat) for pid, p in presets.builtins.items() if isinstance(p, Preset)})
        #: built-in id -> the kernel that builds its results alone (read by the C score)
        self.kernels = {pid: c.kernel for pid, c in self.builtins.items() if c.fast}
        self._others: BoundedLRU[int, tuple[Preset, CompiledPreset]] = BoundedLRU(CACHE_SIZE)

    def compiled(self, preset: Preset) -> CompiledPreset:
        """The compiled form of ``preset``, built once while it is kept."""
        found = self.builtins.get(preset.id)
        if found is not None and found.preset is preset:
            return found
        key = id(preset)
        hit = self._others.get(key)
        if hit is not None and hit[0] is preset:
            return hit[1]
        compiled = CompiledPreset(preset, self.presets.registry.catalogue)
        self._others.put(key, (preset, compiled))
        return compiled


_RULESETS: Published[Rulesets] = Published()
#: (registry, {built-in id: Kernel}) as last published, for the C score
_CELL: Published[tuple[Any, dict[str, Any]]] = Published((None, {}))


def rulesets() -> Rulesets:
    """The compiled presets of the current preset store (and so of the
    current plugin registry: new ones after ``reload_plugins``)."""
    presets = store()

    def build() -> Rulesets:
        found = Rulesets(presets)
        _CELL.slot[0] = (presets.registry, found.kernels)
        return found

    return _RULESETS.get_or_build(lambda found: found.presets is presets, build)


def _no_answer(data: Any) -> None:
    return None


def compile_preset(preset: Preset) -> CompiledPreset:
    """The compiled form of a preset (built once while it is kept)."""
    return rulesets().compiled(preset)


def compiled_for(preset: str | Preset) -> CompiledPreset:
    """The compiled form of a preset id, path or Preset."""
    sets = rulesets()
    if type(preset) is str:
        found = sets.builtins.get(preset)  # type: ignore[arg-type]
        if found is not None:
            return found
    return sets.compiled(load_preset(preset))


def score(hand: Any, preset: str | Preset = "bga-old-style") -> ScoreResult:
    """Score a hand (docs/rules.md dict, ``Hand``, JSON or compact notation) under a preset.

    ``preset`` is a built-in id, a TOML path or a loaded ``Preset``.
    """
    h = hand if type(hand) is Hand else Hand.parse(hand)
    return compiled_for(preset).score(h)


if _kernel_class() is not None:
    # the same function with its common cases (a Hand or a plain hand under a built-in id) answered in C
    score = core.compiled.bind_score(  # type: ignore[union-attr]
        _CELL.slot, registry.CURRENT, Hand, FAST_READERS[Hand], score)
