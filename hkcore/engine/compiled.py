"""``CompiledPreset``: a preset resolved through a plugin catalogue into
everything scoring and analysis need (the compiled kernel's tables, the
pure-Python evaluator, the settlement), and a hand's ``ScoreResult`` from
the best outcome either evaluator finds."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from types import MappingProxyType
from typing import Any

from hkcore import core, registry
from hkcore.core import CORE_SHAPES, WHEN, ShapeSet
from hkcore.engine.entries import SCOPE_BITS, Entry, Outcome, check_provided, kernel_class, native_code
from hkcore.engine.evaluator import Evaluator
from hkcore.engine.parts import SET_PARTS, orphan_part, reading_parts
from hkcore.engine.settlement import Settlement
from hkcore.errors import HandError
from hkcore.models import FAST_READERS, Hand
from hkcore.patterns import Situation
from hkcore.plugins.seven_pairs import kernel_pairs
from hkcore.preset import Preset
from hkcore.registry import Catalogue, CheckedShape
from hkcore.results import PatternScore, ScoreResult
from hkcore.values import trusted

#: the most values a compiled preset's ``interned`` table keeps
INTERNED = 4096
#: patterns commonly met more than once in a hand, and how many times at most
_MOST_COUNTED = {"bonus_tile": 8, "dragon_pung": 3}


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
        check_provided(preset, cat)
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
        keys = [("pattern", e.id) for e in self.entries]
        keys += [("payment adjustment", name) for name in preset.plugins]
        if preset.payments is not None:
            keys.append(("payment scheme", preset.payments["scheme"]))
        #: (kind, id) -> the plugin that provides it, for errors
        owner = MappingProxyType({key: cat.owner.get(key, "?") for key in keys})
        self.settlement = Settlement(preset, cat, owner)
        self.scheme = self.settlement.scheme
        self.payment_params = self.settlement.params
        self.adjustments = self.settlement.adjustments
        self.extra_shapes = tuple((CheckedShape(cat.shapes[sid], cat.owner.get(("shape", sid), "?")),
                                   preset.shape_options.get(sid, MappingProxyType({})))
                                  for sid in preset.shapes if sid not in CORE_SHAPES)
        #: seven pairs as the compiled kernels and the table engine count it (``hkcore.plugins.seven_pairs``):
        #: 0 not in play, 1 in play, 2 with four of a kind as two pairs; None where the preset has another
        #: plugin's shape (its own functions answer for it, in Python)
        self.kernel_pairs: int | None = kernel_pairs(self.extra_shapes)
        #: the pure-Python evaluator of these entries (the kernel's reference; plugin shapes)
        self.evaluator = Evaluator(self.entries, preset.shapes, preset.cap, owner, self.extra_shapes)
        self.conditional = self.evaluator.conditional
        self.has_instant = self.evaluator.has_instant
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
        #: what a result says of its payments under a preset without a payment table
        #: (docs/rules.md: "the result says so")
        self.no_table_note = (None if preset.payments is not None
                              else f"no payment table: {preset.id} scores {preset.unit} only")
        #: the compiled kernel of this preset (None: no compiled core, or more than it takes)
        self.kernel: Any = self._build_kernel() if use_kernel else None
        self.fast = False
        if self.kernel is not None and not self.extra_shapes and not self.python_entries:
            # the kernel builds the whole result: no Python between the hand and the result
            settle = self.settlement
            self.kernel.assemble(
                preset.id, preset.unit, preset.minimum, self._make_pattern, SET_PARTS,
                orphan_part, settle.settle_total if preset.payments is not None else None,
                self.not_winnable, ScoreResult, Hand,
                settle.role_amounts if self.scheme is not None and self.scheme.symmetric else None,
                preset.bonus_tiles, settle.adjust if self.adjustments else None, settle.adjust_min_melds,
                self.no_table_note,
            )
            self.fast = True
        fast_read = FAST_READERS.get(Hand)
        #: the compiled reader's scoring of plain input (a dict, JSON, notation) under this preset's kernel,
        #: giving None where the Hand must be read and validated first
        self.score_plain: Callable[[Any], ScoreResult | None] = (
            partial(fast_read.score, self.kernel) if self.fast and fast_read is not None else _no_answer)

    def not_winnable(self, capped: int) -> str:
        """Why a complete hand counted at ``capped`` cannot win."""
        p = self.preset
        return f"complete but {capped} {p.unit}; {p.id} needs {p.minimum}"

    def _build_kernel(self) -> Any:
        kernel = kernel_class()
        if kernel is None:
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
            spec.append((native, opt, SCOPE_BITS[e.pattern.scope], e.value or 0, e.by_count,
                         -1 if e.limit is None else e.limit, e.pattern.fallback, e.wins_below_minimum,
                         e.adds_to_limit, includes, e.when))
        if len(spec) > 64:
            return None
        cap = -1 if self.preset.cap is None else self.preset.cap
        return kernel(spec, cap, "thirteen_orphans" in self.preset.shapes, Outcome)

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
        evaluator = self.evaluator
        if self.kernel is not None:
            best = self.kernel.score(hand.kernel_context,
                                     evaluator.python_detector(hand) if self.python_entries else None)
        else:
            best = evaluator.best_outcome(hand)
        if self.extra_shapes:
            best = evaluator.plugin_shapes(hand, best)
        return self._result(hand, best)

    def best_outcome(self, hand: Hand) -> Outcome | None:
        """The best outcome over the standard shape, thirteen orphans and the
        bonus instant win, by the pure-Python evaluator (the kernel's reference)."""
        return self.evaluator.best_outcome(hand)

    def entries_for(self, shape: str) -> tuple[Entry, ...]:
        """The entries that apply to a shape, in preset order."""
        return self.evaluator.entries_for(shape)

    def evaluate(self, s: Situation) -> Outcome:
        """Detect and add up one situation (ruling 1); a pattern whose ``when``
        does not hold is not detected."""
        return self.evaluator.evaluate(s)

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
                payments, note = self.settlement.settle_total(hand, capped, best.shape == "bonus")
            else:
                note = "no payment: the hand cannot win"
        scores = self._scores
        patterns = []
        for item in best.listed:
            ps = scores.get(item)
            patterns.append(ps if ps is not None else self._make_pattern(*item))
        result: ScoreResult = trusted(ScoreResult, {
            "preset": p.id, "unit": p.unit, "faan": capped, "uncapped": best.uncapped,
            "winnable": winnable, "complete": True, "limit": best.limit, "shape": best.shape,
            "patterns": patterns, "reading": reading_parts(hand, best, self.catalogue), "payments": payments,
            "payments_note": note,
            "reason": None if winnable else self.not_winnable(capped),
        })
        return result

    def _make_pattern(self, entry: int, count: int, value: int) -> PatternScore:
        pat = self.entries[entry].pattern
        return PatternScore(id=pat.id, faan=value, count=count, name_en=pat.name_en, name_zh=pat.name_zh)


def _no_answer(data: Any) -> None:
    return None
