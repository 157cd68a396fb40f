"""Many hands under several presets, summarised by counts (``compare_many``).

A ``ComparisonSummary`` holds only counts (and a few example hands), so
summaries of parts of a corpus add up exactly to the summary of the whole:
``summary(a + b) == summary(a) + summary(b)``, where ``a + b`` is the hands
of ``a`` followed by those of ``b``. docs/comparison.md explains each field.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, permutations
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from hkcore.batch import check_jobs, decode, in_workers, specs_for
from hkcore.comparison import preset_refs
from hkcore.engine import CompiledPreset, compiled_for
from hkcore.errors import HkcoreError, shown
from hkcore.models import Hand
from hkcore.notation import format_hand
from hkcore.preset import Preset, PresetError
from hkcore.results import ScoreResult
from hkcore.values import Value, check_addable

#: the most example hands kept for each flip
EXAMPLES = 10


def _whole_keys(histogram: dict[str, int], what: str) -> dict[str, int]:
    """A histogram whose keys are whole numbers written as ``str(int)`` writes them (ValueError otherwise)."""
    for key in histogram:
        try:
            ok = str(int(key)) == key
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(f"{what}: key {key[:40]!r} is not a whole number (as text, e.g. '3' or '-2')")
    return histogram


def _add(a: dict[str, int], b: dict[str, int], numeric: bool) -> dict[str, int]:
    """Two histograms added; keys sorted (as numbers when ``numeric``)."""
    total = Counter(a)
    total.update(b)
    return dict(sorted(total.items(), key=(lambda kv: int(kv[0])) if numeric else (lambda kv: kv[0])))


class PresetSummary(Value):
    """One preset over the hands read. ``faan`` means points where ``unit`` is "points"."""

    unit: Literal["faan", "points"]
    pays: bool = Field(description="the preset has a payment table")
    hands: int = Field(0, description="hands read")
    errors: int = Field(0, description="hands the preset refuses (bad input, bonus tiles at a 136-tile table)")
    refused: dict[str, int] = Field(
        default_factory=dict, description="the field its error names -> hands that read as a hand but "
                                          "this preset refuses (e.g. flowers at a 136-tile table)")
    complete: int = Field(0, description="hands complete under the preset")
    winnable: int = Field(0, description="complete hands allowed to win")
    limit: int = Field(0, description="complete hands scored as a limit hand")
    faan_histogram: dict[str, int] = Field(
        default_factory=dict, description="capped faan (points) -> complete hands")
    pattern_counts: dict[str, int] = Field(
        default_factory=dict, description="pattern id -> complete hands in whose counted reading it appears")
    paid: int = Field(0, description="winnable hands with payments (the discarder known on a discard win)")
    payout_histogram: dict[str, int] = Field(
        default_factory=dict, description="the winner's net gain -> paid hands")
    winner_gain: int = Field(0, description="the winners' net gains, summed over paid hands")
    discarder_paid: int = Field(0, description="what discarders paid, summed over paid hands (0 on a self-draw)")
    discard_wins_paid: int = Field(0, description="paid hands won on a discard")
    discard_wins_gain: int = Field(0, description="the winners' net gains, summed over paid discard wins")
    apart: PresetSummary | None = Field(
        None, description="the same counts over the hands that some other preset compared cannot read (these "
                          "are in the counts above too; the report shows them apart, out of its shares); null "
                          "when every preset reads every hand it can read at all")

    @field_validator("faan_histogram", "payout_histogram")
    @classmethod
    def _numbers(cls, histogram: dict[str, int], info: Any) -> dict[str, int]:
        return _whole_keys(histogram, info.field_name)

    def discarder_share(self) -> float | None:
        """The share of the winners' gains paid by discarders (over every paid hand)."""
        return self.discarder_paid / self.winner_gain if self.winner_gain else None

    def discarder_share_on_discard(self) -> float | None:
        """The share of the winners' gains paid by the discarder, on discard wins only."""
        return self.discarder_paid / self.discard_wins_gain if self.discard_wins_gain else None

    def __add__(self, other: PresetSummary) -> PresetSummary:
        if (self.unit, self.pays) != (other.unit, other.pays):
            raise HkcoreError("summaries: the same preset id with a different unit or payment table")
        data = self.model_dump(exclude={"apart"})
        for name, value in other.model_dump(exclude={"apart"}).items():
            if name in ("unit", "pays"):
                continue
            if isinstance(value, dict):
                data[name] = _add(data[name], value, name not in ("pattern_counts", "refused"))
            else:
                data[name] += value
        a, b = self.apart, other.apart
        data["apart"] = a if b is None else b if a is None else a + b
        return PresetSummary.model_validate(data)

    def common(self) -> PresetSummary:
        """The counts over the hands every preset compared reads: these less ``apart``
        (the hands no preset reads stay among ``hands`` and ``errors``)."""
        if self.apart is None:
            return self
        data = self.model_dump(exclude={"apart"})
        for name, value in self.apart.model_dump(exclude={"apart"}).items():
            if name in ("unit", "pays"):
                continue
            if isinstance(value, dict):
                data[name] = {k: n for k, n in ((k, n - value.get(k, 0)) for k, n in data[name].items()) if n}
            else:
                data[name] -= value
        return PresetSummary.model_validate(data)


class Example(Value):
    """An example hand: its index in the input (from 0) and its notation."""

    index: int
    hand: str


class Flip(Value):
    """Hands valid under both presets, winnable under the first and not the second:
    how many, and the first ``EXAMPLES`` of them in input order."""

    count: int = 0
    examples: list[Example] = Field(default_factory=list)

    def shifted(self, by: int) -> Flip:
        return Flip(count=self.count, examples=[Example(index=e.index + by, hand=e.hand) for e in self.examples])

    def __add__(self, other: Flip) -> Flip:
        examples = sorted([*self.examples, *other.examples], key=lambda e: e.index)[:EXAMPLES]
        return Flip(count=self.count + other.count, examples=examples)


class ComparisonSummary(Value):
    """Hands under several presets, as counts (docs/comparison.md).

    ``presets``: each preset's ``PresetSummary``, in the order asked.
    ``flips[A][B]``: hands valid under A and B, winnable under A, not under B.
    ``faan_differences[A][B]``: for A before B in ``presets``, faan under A
    less faan under B -> hands complete under both. ``a + b`` is the summary
    of a's hands followed by b's (example indices of b move up by a's hands).
    """

    hands: int = Field(0, description="hands read")
    unreadable: int = Field(0, description="hands no preset could read (counted among every preset's errors)")
    presets: dict[str, PresetSummary]
    flips: dict[str, dict[str, Flip]]
    faan_differences: dict[str, dict[str, dict[str, int]]]

    @model_validator(mode="after")
    def _pairs(self) -> ComparisonSummary:
        ids = list(self.presets)
        if any(p.hands != self.hands for p in self.presets.values()):
            raise ValueError("every preset reads every hand: each preset's hands must equal hands")
        if len({p.apart.hands if p.apart is not None else 0 for p in self.presets.values()}) > 1:
            raise ValueError("apart: the same hands for every preset (those some preset cannot read)")
        if {a: sorted(b) for a, b in self.flips.items()} != {a: sorted(b for b in ids if b != a) for a in ids}:
            raise ValueError("flips: one entry for every ordered pair of different presets")
        if {a: list(b) for a, b in self.faan_differences.items()} != {
                a: ids[i + 1:] for i, a in enumerate(ids[:-1])}:
            raise ValueError("faan_differences: one entry for every pair of presets, in the order of presets")
        for a, row in self.faan_differences.items():
            for b, histogram in row.items():
                _whole_keys(histogram, f"faan_differences.{a[:40]}.{b[:40]}")
        return self

    def partly_read(self) -> int:
        """Hands that some presets read and others cannot (each preset's ``apart``)."""
        return next((p.apart.hands for p in self.presets.values() if p.apart is not None), 0)

    def compared(self) -> int:
        """Hands every preset reads: the hands the report's shares are of."""
        return self.hands - self.unreadable - self.partly_read()

    @classmethod
    def empty(cls, presets: dict[str, tuple[Literal["faan", "points"], bool]]) -> ComparisonSummary:
        """The summary of no hands, for preset id -> (unit, pays)."""
        ids = list(presets)
        return cls(hands=0, presets={i: PresetSummary(unit=u, pays=p) for i, (u, p) in presets.items()},
                   flips={a: {b: Flip() for b in ids if b != a} for a in ids},
                   faan_differences={a: {b: {} for b in ids[i + 1:]} for i, a in enumerate(ids[:-1])})

    def __add__(self, other: ComparisonSummary) -> ComparisonSummary:
        if not isinstance(other, ComparisonSummary):
            return NotImplemented
        check_addable(self, other)
        return ComparisonSummary(
            hands=self.hands + other.hands, unreadable=self.unreadable + other.unreadable,
            presets={k: v + other.presets[k] for k, v in self.presets.items()},
            flips={a: {b: f + other.flips[a][b].shifted(self.hands) for b, f in row.items()}
                   for a, row in self.flips.items()},
            faan_differences={a: {b: _add(h, other.faan_differences[a][b], True) for b, h in row.items()}
                              for a, row in self.faan_differences.items()})


# --------------------------------------------------------------------------
# counting


class Counts:
    """One preset's plain counters over a run of hands (a ``PresetSummary`` at the end)."""

    def __init__(self) -> None:
        self.counts = [0] * 9  # errors complete winnable limit paid gain dpaid dwins dgain
        self.faan: Counter[int] = Counter()
        self.patterns: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.payout: Counter[int] = Counter()

    def add(self, r: ScoreResult | str, discarder: str | None) -> None:
        """Count one hand's result, or the field its refusal names."""
        c = self.counts
        if type(r) is str:
            c[0] += 1
            self.refused[r] += 1
            return
        assert isinstance(r, ScoreResult)
        if not r.complete:
            return
        c[1] += 1
        self.faan[r.faan] += 1
        for pid in {p.id for p in r.patterns}:
            self.patterns[pid] += 1
        if r.limit:
            c[3] += 1
        if not r.winnable:
            return
        c[2] += 1
        pays = r.payments
        if pays is not None:
            gain = max(pays.values())
            c[4] += 1
            c[5] += gain
            self.payout[gain] += 1
            if discarder is not None:
                c[6] += -pays[discarder]
                c[7] += 1
                c[8] += gain

    def summary(self, preset: Preset, hands: int, apart: PresetSummary | None = None) -> PresetSummary:
        """These counts over ``hands`` hands as a summary."""
        k = self.counts
        return PresetSummary(
            unit=preset.unit, pays=preset.payments is not None, hands=hands, errors=k[0],
            complete=k[1], winnable=k[2], limit=k[3],
            faan_histogram={str(f): n for f, n in sorted(self.faan.items())},
            pattern_counts=dict(sorted(self.patterns.items())),
            refused=dict(sorted(self.refused.items())),
            paid=k[4], payout_histogram={str(g): n for g, n in sorted(self.payout.items())},
            winner_gain=k[5], discarder_paid=k[6], discard_wins_paid=k[7], discard_wins_gain=k[8], apart=apart)


class Tally:
    """Plain counters for a run of hands, turned into a summary at the end."""

    def __init__(self, compiled: Sequence[CompiledPreset], start: int = 0) -> None:
        self.compiled = compiled
        self.ids = [c.preset.id for c in compiled]
        n = len(compiled)
        self.start = start
        self.hands = 0
        self.unreadable = 0
        #: hands some presets read and others refuse, and each preset's counts over them
        self.partly = 0
        self.counts = [Counts() for _ in range(n)]
        self.apart = [Counts() for _ in range(n)]
        self.flips: dict[tuple[int, int], list[Any]] = {p: [0, []] for p in permutations(range(n), 2)}
        self.diffs: dict[tuple[int, int], Counter[int]] = {p: Counter() for p in combinations(range(n), 2)}

    def add(self, item: Any) -> None:
        index = self.start + self.hands
        try:
            hand = _read(item)
        except HkcoreError:
            self.error()
            return
        self.hands += 1
        discarder = hand.discarder if not hand.self_draw else None
        results: list[ScoreResult | str] = []
        refused = 0
        for compiled in self.compiled:
            try:
                results.append(compiled.score(hand))
            except HkcoreError as exc:
                results.append(getattr(exc, "field", None) or "hand")
                refused += 1
        for counts, r in zip(self.counts, results):
            counts.add(r, discarder)
        if refused == len(results):
            self.unreadable += 1
            return
        if refused:
            self.partly += 1
            for counts, r in zip(self.apart, results):
                counts.add(r, discarder)
        wins: list[int] = []  # presets under which the hand wins
        others: list[int] = []  # presets that read it and under which it does not win
        done: list[tuple[int, int]] = []  # (preset, faan) for the presets under which it is complete
        for i, r in enumerate(results):
            if type(r) is str:
                continue
            assert isinstance(r, ScoreResult)
            if r.complete:
                done.append((i, r.faan))
            (wins if r.winnable else others).append(i)
        for a in wins:
            for b in others:
                flip = self.flips[(a, b)]
                flip[0] += 1
                if len(flip[1]) < EXAMPLES:
                    flip[1].append(Example(index=index, hand=format_hand(hand)))
        for k, (a, fa) in enumerate(done):
            for b, fb in done[k + 1:]:
                self.diffs[(a, b)][fa - fb] += 1

    def error(self) -> None:
        """A hand no preset can read."""
        self.hands += 1
        self.unreadable += 1
        for c in self.counts:
            c.counts[0] += 1

    def summary(self) -> ComparisonSummary:
        presets = {}
        for i, c in enumerate(self.compiled):
            apart = self.apart[i].summary(c.preset, self.partly) if self.partly else None
            presets[self.ids[i]] = self.counts[i].summary(c.preset, self.hands, apart)
        ids = self.ids
        return ComparisonSummary(
            hands=self.hands, unreadable=self.unreadable, presets=presets,
            flips={ids[a]: {ids[b]: Flip(count=self.flips[(a, b)][0], examples=self.flips[(a, b)][1])
                            for b in range(len(ids)) if b != a} for a in range(len(ids))},
            faan_differences={ids[a]: {ids[b]: {str(d): n for d, n in sorted(self.diffs[(a, b)].items())}
                                       for b in range(a + 1, len(ids))} for a in range(len(ids) - 1)})


def _read(item: Any) -> Hand:
    """The hand of an item (HandError if it has none), read once for every preset."""
    if isinstance(item, (bytes, bytearray)):
        item = decode(item)
    return item if type(item) is Hand else Hand.parse(item)


def resolve(presets: Iterable[str | Path | Preset] | str | Path | Preset | None,
            ) -> tuple[list[str | Path | Preset], list[CompiledPreset]]:
    """The presets to compare under (as ``compare_many`` reads them) and each compiled; no
    preset, or two with the same id, is a ``PresetError``."""
    refs = preset_refs(presets, "summary")
    if not refs:
        raise PresetError("no preset to compare under", None, "presets")
    compiled = [compiled_for(r) for r in refs]
    ids = [c.preset.id for c in compiled]
    if len(set(ids)) != len(ids):
        raise PresetError(f"two presets with the same id: {sorted(i for i in set(ids) if ids.count(i) > 1)}",
                          None, "presets")
    return refs, compiled


def empty_for(compiled: Sequence[CompiledPreset]) -> ComparisonSummary:
    """The summary of no hands under these presets."""
    return ComparisonSummary.empty({c.preset.id: (c.preset.unit, c.preset.payments is not None)
                                    for c in compiled})


def compare_many(hands: Iterable[Any], presets: Iterable[str | Path | Preset] | str | Path | Preset | None = None,
                 *, jobs: int = 1) -> ComparisonSummary:
    """Score every hand under every preset (default, or ``"all"``: the built-in
    ones) and count what happened (``ComparisonSummary``). Hands are anything
    ``score_many`` reads (dicts, JSON text or bytes, notation, ``Hand``s); a
    hand a preset refuses counts among its ``errors``. ``jobs``: worker
    processes, each given chunks of raw lines and returning a partial summary
    (memory stays flat). Two presets with the same id are an error."""
    check_jobs(jobs)
    refs, compiled = resolve(presets)
    try:
        items = iter(hands)
    except TypeError:
        raise HkcoreError(f"hands: expected an iterable of hands, got {shown(hands)}") from None
    if jobs == 1:
        tally = Tally(compiled)
        for item in items:
            tally.add(item)
        return tally.summary()
    total = empty_for(compiled)
    for part, _ in in_workers(items, specs_for(zip(refs, compiled)), jobs, _summarise):
        total = total + part
    return total


def _summarise(lines: list[str | None], start: int) -> ComparisonSummary:
    """A worker's partial summary of one chunk (its hands' indices from 0: the caller adds in
    order; None: a hand the caller could not read)."""
    from hkcore.batch import worker_presets

    tally = Tally(worker_presets())
    for text in lines:
        if text is None:
            tally.error()
        else:
            tally.add(text)
    return tally.summary()


def summary_json(summary: ComparisonSummary) -> str:
    """The summary as indented JSON (as summary.json)."""
    return json.dumps(summary.model_dump(), ensure_ascii=False, indent=2) + "\n"
