"""The summary of a simulation (docs/simulation.md): whole-number counts and
sums that add (``+``) exactly, in any order and grouping."""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from hkcore.errors import HkcoreError, shown
from hkcore.preset.lint import Lint
from hkcore.tiles import SEATS
from hkcore.values import Value, check_addable

#: rotations of the bots through the seats per wall: each bot sits at each seat once
ROTATIONS = 4
#: the normal quantile of a two-sided 95 % interval
Z95 = 1.959964
#: how the simulation plays, as the summary says it
DUPLICATE = ("duplicate play: wall k is dealt from a seed derived from (seed, k) only; presets with the same tile "
             "set play the same walls (presets of 136 and of 144 tiles cannot share one; presets that replace "
             "bonus tiles or kongs from other ends of the wall share the deal only: see each pair's pairing); "
             "each wall is played under every preset and once per rotation of the bots through the seats "
             "(seat i plays bot (i + r) mod 4 in rotation r); bots are seeded from (seed, k, rotation, seat); "
             "one hand per wall, dealt by East")


def normal_interval(n: int, total: float, squares: float) -> tuple[float, float] | None:
    """A normal 95 % interval of the mean of ``n`` independent values from their sum and the sum of their
    squares (None below two values)."""
    if n < 2:
        return None
    mean = total / n
    half = Z95 * math.sqrt(max((squares - n * mean * mean) / (n - 1), 0.0) / n)
    return mean - half, mean + half


def ratio_interval(n: int, x: float, y: float, xx: float, xy: float, yy: float) -> tuple[float, float] | None:
    """A normal 95 % interval of the ratio ``x / y`` of two sums over ``n`` independent walls, by the delta
    method, from the sums over walls of each wall's ``x`` squared, ``x`` times ``y`` and ``y`` squared (None
    below two walls or without a denominator)."""
    if n < 2 or not y:
        return None
    r, ybar = x / y, y / n
    ss = _var((1 / ybar, -r / ybar), {"x*x": xx, "x*y": xy, "y*y": yy}, ("x", "y"))
    half = Z95 * math.sqrt(max(ss, 0.0) / (n * (n - 1)))
    return r - half, r + half


class Stat(Value):
    """A quantity summed wall by wall: each wall adds ``per`` hands (the same
    number every wall) and their total. The mean per hand is ``total / hands``;
    its 95 % interval treats the walls, which are independent, as the sample
    (the hands of one wall are not independent of each other)."""

    walls: int = Field(0, description="walls counted")
    hands: int = Field(0, description="hands counted (the same number on every wall)")
    total: int = Field(0, description="the sum over every hand")
    squares: int = Field(0, description="the sum over walls of the square of each wall's total")

    def mean(self) -> float | None:
        """The mean per hand (None without hands)."""
        return self.total / self.hands if self.hands else None

    def interval(self) -> tuple[float, float] | None:
        """A normal 95 % interval of the mean per hand over the walls (None below two walls)."""
        if self.walls < 2:
            return None
        per = self.hands / self.walls  # each wall's mean per hand is its total / per
        return normal_interval(self.walls, self.total / per, self.squares / per ** 2)

    def __add__(self, other: Stat) -> Stat:
        return Stat(walls=self.walls + other.walls, hands=self.hands + other.hands, total=self.total + other.total,
                    squares=self.squares + other.squares)


def _stat() -> Stat:
    return Stat(walls=0, hands=0, total=0, squares=0)


def _var(c: tuple[float, ...], m: Mapping[str, float], names: tuple[str, ...]) -> float:
    """The sum over walls of (c . v)² for the vector v of the sums ``names``, from their products ``m``."""
    out = 0.0
    for i, x in enumerate(names):
        for j, y in enumerate(names):
            out += c[i] * c[j] * m["*".join(sorted((x, y)))]
    return out


def _seat_stats() -> dict[str, Stat]:
    return {s: _stat() for s in SEATS}


def _count(a: dict[str, int], b: dict[str, int], numeric: bool) -> dict[str, int]:
    """Two count tables added: seats in turn order, numbers in order, other keys sorted."""
    total = Counter(a)
    total.update(b)
    if set(total) <= set(SEATS):
        return {s: total[s] for s in SEATS if s in total}
    return dict(sorted(total.items(), key=(lambda kv: (int(kv[0]), "")) if numeric else (lambda kv: (0, kv[0]))))


def _seats() -> dict[str, int]:
    return {s: 0 for s in SEATS}


class _Counts(Value):
    """Counts that add field by field (the fields named in ``KEYS`` must be equal)."""

    KEYS: ClassVar[tuple[str, ...]] = ()

    def __add__(self, other: Any) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        data: dict[str, Any] = {}
        for name in type(self).model_fields:
            a, b = getattr(self, name), getattr(other, name)
            if name in self.KEYS:
                if a != b:
                    raise HkcoreError(f"summaries: {name} differs ({shown(a)} and {shown(b)}): they cannot be added")
                data[name] = a
            elif isinstance(a, (Stat, _Counts)) and b is not None:
                data[name] = a + b
            elif isinstance(a, dict) and any(isinstance(v, Stat) for v in (*a.values(), *b.values())):
                if list(a) != list(b):
                    raise HkcoreError(f"summaries: {name} differs in its keys ({shown(list(a))} and "
                                      f"{shown(list(b))}): they cannot be added")
                data[name] = {k: v + b[k] for k, v in a.items()}
            elif isinstance(a, dict):
                data[name] = _count(a, b, name.endswith("histogram"))
            elif isinstance(a, int):
                data[name] = a + b
            elif a != b:
                raise HkcoreError(f"summaries: {name} differs ({shown(a)} and {shown(b)}): they cannot be added")
            else:
                data[name] = a
        return type(self)(**data)


class Ratio(_Counts):
    """A ratio of two sums taken wall by wall (faan over win records, what discarders paid over what winners
    won): ``x`` over ``y``, with the sums over walls of the squares and product of each wall's two sums for an
    interval over walls (the delta method)."""

    walls: int = Field(0, ge=0, description="walls counted")
    x: int = Field(0, description="the numerator's sum over every wall")
    y: int = Field(0, description="the denominator's sum over every wall")
    xx: int = Field(0, description="the sum over walls of the square of the wall's numerator")
    xy: int = Field(0, description="the sum over walls of the wall's numerator times its denominator")
    yy: int = Field(0, description="the sum over walls of the square of the wall's denominator")

    def value(self) -> float | None:
        """``x / y`` (None when ``y`` is 0)."""
        return self.x / self.y if self.y else None

    def interval(self) -> tuple[float, float] | None:
        """A normal 95 % interval of the ratio over the walls (None below two walls or without a denominator)."""
        return ratio_interval(self.walls, self.x, self.y, self.xx, self.xy, self.yy)


def _ratio() -> Ratio:
    return Ratio()


#: the products of a ratio difference's four wall sums across its two presets (``RatioDifference.cross``)
CROSS = ("xa*xb", "xa*yb", "xb*ya", "ya*yb")


class RatioDifference(_Counts):
    """A ratio under A less the same ratio under B on the same walls (``Ratio``), with the products of each
    wall's sums across A and B for a paired interval."""

    a: Ratio = Field(default_factory=_ratio, description="the ratio under A")
    b: Ratio = Field(default_factory=_ratio, description="the ratio under B")
    cross: dict[str, int] = Field(default_factory=lambda: {k: 0 for k in CROSS},
                                  description="the sums over walls of the products of A's and B's wall sums: "
                                              "xa*xb, xa*yb, xb*ya, ya*yb")

    @model_validator(mode="after")
    def _paired(self) -> RatioDifference:
        if sorted(self.cross) != sorted(CROSS):
            raise ValueError(f"cross: the sums {', '.join(CROSS)}, not {', '.join(self.cross) or 'none'}")
        if self.a.walls != self.b.walls:
            raise ValueError(f"b.walls = {self.b.walls}: a paired difference is over a's walls ({self.a.walls})")
        return self

    def difference(self) -> float | None:
        """A's ratio less B's (None when either has no denominator)."""
        a, b = self.a.value(), self.b.value()
        return None if a is None or b is None else a - b

    def interval(self) -> tuple[float, float] | None:
        """A normal 95 % interval of the paired difference over the walls (None below two walls or without a
        denominator on either side)."""
        d, n = self.difference(), self.a.walls
        if d is None or n < 2:
            return None
        ra, rb = self.a.x / self.a.y, self.b.x / self.b.y
        ya, yb = self.a.y / n, self.b.y / n
        m = {"xa*xa": self.a.xx, "xa*ya": self.a.xy, "ya*ya": self.a.yy, "xb*xb": self.b.xx, "xb*yb": self.b.xy,
             "yb*yb": self.b.yy, **self.cross}
        ss = _var((1 / ya, -ra / ya, -1 / yb, rb / yb), m, ("xa", "ya", "xb", "yb"))
        half = Z95 * math.sqrt(max(ss, 0.0) / (n * (n - 1)))
        return d - half, d + half


def _difference() -> RatioDifference:
    return RatioDifference()


class BotSimulation(_Counts):
    """One bot name over its seats in every hand (two seats of a hand count twice when the name sits twice)."""

    hands: int = Field(0, description="seat-hands played by this bot")
    hands_by_seat: dict[str, int] = Field(default_factory=_seats, description="seat -> seat-hands played there")
    wins: int = Field(0, description="win records of this bot's seats")
    wins_by_seat: dict[str, int] = Field(default_factory=_seats, description="seat -> wins there (E: as dealer)")
    self_draw: int = Field(0, description="wins on its own draw (instant bonus wins included)")
    discard: int = Field(0, description="wins on a discard")
    robbing: int = Field(0, description="wins robbing a kong")
    exhausted: int = Field(0, description="seat-hands ended by an exhaustive draw")
    deal_ins: int = Field(0, description="wins by another seat on this bot's discard or kong")
    faults: int = Field(0, description="seat-hands in which a program's bot (cmd:...) faulted and the fallback bot "
                                       "played on (docs/bots.md, 'Bots from any program')")
    declined: int = Field(0, description="times a complete hand on offer could not be won (below the minimum)")
    win_turns_histogram: dict[str, int] = Field(default_factory=dict,
                                                description="discards in the hand when this bot won -> wins")
    faan_histogram: dict[str, int] = Field(default_factory=dict, description="faan (points) of a win -> wins")
    patterns: dict[str, int] = Field(default_factory=dict, description="pattern id -> wins it was counted in")
    payments: Stat = Field(default_factory=_stat, description="net payments per seat-hand (faan won under a ledger)")

    def rate(self, count: int) -> float | None:
        """``count`` per seat-hand played."""
        return count / self.hands if self.hands else None


class PresetSimulation(_Counts):
    """One preset over every hand played under it."""

    KEYS: ClassVar[tuple[str, ...]] = ("unit", "pays", "tiles", "name", "toml")

    unit: Literal["faan", "points"]
    pays: bool = Field(description="the preset settles payments (else a faan ledger: payments are faan won)")
    tiles: int = Field(description="the tile set (136, or 144 with bonus tiles): presets pair within one")
    name: str = Field("", description="the preset's name, to show beside its id (empty in older summaries)")
    toml: str | None = Field(None, description="a preset not built in: its whole TOML, as its start records "
                                               "carry it (the report shows its rules from it); None for a "
                                               "built-in one")
    hands: int = Field(0, description="hands played (walls x 4 rotations)")
    distinct_hands: int | None = Field(None, description="hands that differ in their play: the four rotations of a "
                                                         "wall played alike count once (None in older summaries)")
    wins: int = Field(0, description="hands won")
    exhausted: int = Field(0, description="hands ended by an exhaustive draw")
    self_draw: int = Field(0, description="hands won on the winner's own draw (instant bonus wins included)")
    discard: int = Field(0, description="hands won on a discard")
    robbing: int = Field(0, description="hands won robbing a kong")
    instant: int = Field(0, description="hands won by an instant bonus win (among self_draw)")
    win_records: int = Field(0, description="win records (more than wins only with multiple winners)")
    wins_by_seat: dict[str, int] = Field(default_factory=_seats,
                                         description="seat of the (nearest) winner -> hands won (E: the dealer)")
    dealer_retained: int = Field(0, description="hands after which the dealer keeps the deal by the preset's rule")
    declined: int = Field(0, description="times a seat had a complete hand on offer that could not be won")
    hands_declined: int = Field(0, description="hands in which that happened at least once")
    turns_histogram: dict[str, int] = Field(default_factory=dict, description="discards in the hand -> hands")
    faan_histogram: dict[str, int] = Field(default_factory=dict, description="faan (points) of a win -> win records")
    patterns: dict[str, int] = Field(default_factory=dict, description="pattern id -> win records it is in")
    won: Stat = Field(default_factory=_stat, description="the winners' net gain per hand (0 on a draw; faan "
                                                        "under a ledger)")
    paid_by_discarder: int = Field(0, description="what the discarders lost, summed over hands won on a discard "
                                                  "or a robbed kong (0 under a ledger: nobody pays)")
    per_hand: dict[str, Stat] = Field(default_factory=dict, description="each quantity of ``PAIRED`` (wins, "
                                      "exhausted, self_draw, deal_in, turns, won, dealer_retained, declined, swing) "
                                      "-> its sum per hand over walls, for an interval of this preset alone "
                                      "(empty in older summaries)")
    faan_per_win: Ratio = Field(default_factory=_ratio, description="faan (points) of the win records over the "
                                                                   "win records, wall by wall")
    discarder_paid: Ratio = Field(default_factory=_ratio, description="what the discarders paid (paid_by_discarder) "
                                                                     "over what the winners won (won), wall by wall")
    payments_by_seat: dict[str, Stat] = Field(default_factory=_seat_stats,
                                              description="seat -> its net payment per hand (E: the dealer)")
    bots: dict[str, BotSimulation] = Field(default_factory=dict, description="bot name -> its seats' counts")
    warnings: list[Lint] = Field(default_factory=list, description="the preset's warnings (Preset.warnings: "
                                 "docs/house-rules.md, 'Warnings'), each its code, TOML path and message")

    def rate(self, count: int) -> float | None:
        """``count`` per hand played."""
        return count / self.hands if self.hands else None

    def measure(self) -> str:
        """What its payments count: ``points``, or ``faan (ledger)`` (``points (ledger)``): payments of two
        presets compare only when they count the same."""
        return "points" if self.pays else f"{self.unit} (ledger)"

    def mean_turns(self) -> float | None:
        """The mean number of discards in a hand."""
        n = sum(self.turns_histogram.values())
        return sum(int(k) * v for k, v in self.turns_histogram.items()) / n if n else None

    def mean_faan(self) -> float | None:
        """The mean faan (points) of a win record."""
        n = sum(self.faan_histogram.values())
        return sum(int(k) * v for k, v in self.faan_histogram.items()) / n if n else None

    def win_worth(self) -> float | None:
        """The winners' mean net gain per hand won (faan under a ledger)."""
        return self.won.total / self.wins if self.wins else None

    def discarder_share(self) -> float | None:
        """The share of the winners' gains that the discarders paid (None under a ledger: nobody pays)."""
        return self.paid_by_discarder / self.won.total if self.pays and self.won.total > 0 else None

    def spread(self) -> float | None:
        """How far a seat's net payment of a hand strays from nothing: the root mean square over seat-hands
        (faan under a ledger; None without the count)."""
        s = self.per_hand.get("swing")
        return math.sqrt(s.total / (4 * s.hands)) if s is not None and s.hands else None

    def __add__(self, other: Any) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        if list(self.bots) != list(other.bots):
            raise HkcoreError(f"summaries of different bots cannot be added: {list(self.bots)} and {list(other.bots)}")
        bots = {k: v + other.bots[k] for k, v in self.bots.items()}
        merged = _Counts.__add__(self.model_copy(update={"bots": {}}), other.model_copy(update={"bots": {}}))
        return merged.model_copy(update={"bots": bots})


class Pairing(_Counts):
    """How well two presets share their walls: whether the wall gave the same tiles in the same order, and how
    alike each seat's result on a wall is under the one and the other."""

    walls: int = Field(0, description="walls played under both")
    in_step: int = Field(0, description="walls on which, in each of the four rotations, the tiles taken from the "
                                        "wall came in the same order under both presets, live draws and "
                                        "replacement draws (of bonus tiles and kongs) apart, as far as both hands "
                                        "went")
    a: dict[str, int] = Field(default_factory=_seats, description="seat -> the sum over walls of the seat's net "
                                                                   "on the wall (its four hands) under A")
    b: dict[str, int] = Field(default_factory=_seats, description="the same under B")
    aa: dict[str, int] = Field(default_factory=_seats, description="seat -> the sum over walls of the square of "
                                                                    "that net under A")
    bb: dict[str, int] = Field(default_factory=_seats, description="the same under B")
    ab: dict[str, int] = Field(default_factory=_seats, description="seat -> the sum over walls of the product of "
                                                                    "the two nets")

    def in_step_share(self) -> float | None:
        """The share of walls whose draws stayed identical (None without walls)."""
        return self.in_step / self.walls if self.walls else None

    def correlation(self) -> float | None:
        """The correlation of a seat's net on a wall under A and under B, over walls and seats, each seat
        apart from its own mean (None below two walls or when either side never varies): near 1 the walls
        are paired, near 0 in name only."""
        n = self.walls
        if n < 2:
            return None
        sab = sum(n * self.ab[s] - self.a[s] * self.b[s] for s in self.a)   # n x the co-moments, exact
        saa = sum(n * self.aa[s] - self.a[s] ** 2 for s in self.a)
        sbb = sum(n * self.bb[s] - self.b[s] ** 2 for s in self.a)
        if saa <= 0 or sbb <= 0:
            return None
        return sab / math.sqrt(saa * sbb)


def _pairing() -> Pairing:
    return Pairing()


class PairSimulation(_Counts):
    """Two presets on the same walls and seats: per hand, the quantity under A less under B. Payments (``won``,
    ``payments_by_seat``) are None when the two count different things (points and a faan ledger)."""

    wins: Stat = Field(default_factory=_stat, description="hand won (1) or not (0): the win rate's difference")
    exhausted: Stat = Field(default_factory=_stat, description="hand drawn (1) or not (0)")
    self_draw: Stat = Field(default_factory=_stat, description="hand won on the winner's own draw (1) or not (0)")
    deal_in: Stat = Field(default_factory=_stat, description="hand won on a discard or a robbed kong (1) or not (0)")
    turns: Stat = Field(default_factory=_stat, description="discards in the hand")
    won: Stat | None = Field(default_factory=_stat, description="the winners' net gain (0 on a draw); None when "
                                                                 "A and B pay in different units")
    dealer_retained: Stat = Field(default_factory=_stat, description="the dealer keeps the deal (1) or not (0)")
    declined: Stat = Field(default_factory=_stat, description="complete hands that could not be won")
    swing: Stat | None = Field(default_factory=_stat, description="the sum over the four seats of the square of "
                                                                   "each seat's net payment: how much changes "
                                                                   "hands (its mean / 4, square-rooted, is the "
                                                                   "spread of a seat's payment); None when A and B "
                                                                   "pay in different units")
    faan_per_win: RatioDifference = Field(default_factory=_difference, description="faan (points) per win record")
    discarder_share: RatioDifference | None = Field(
        default_factory=_difference, description="the share of the winners' gains the discarders paid; None when A "
                                                 "and B pay in different units")
    payments_by_seat: dict[str, Stat] | None = Field(
        default_factory=_seat_stats, description="seat -> its net payment (E: the dealer); None when A and B pay "
                                                 "in different units")
    pairing: Pairing = Field(default_factory=_pairing, description="how well A and B share their walls")


def _ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Wall ranges sorted and joined; overlapping ones are an error (a wall counted twice)."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a < out[-1][1]:
            raise HkcoreError(f"summaries: walls {a}..{b - 1} are counted twice; add summaries of different walls")
        if out and a == out[-1][1]:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _add_pairs(a: dict[str, dict[str, dict[str, Stat]]],
               b: dict[str, dict[str, dict[str, Stat]]]) -> dict[str, dict[str, dict[str, Stat]]]:
    return {x: {y: {n: s + b[x][y][n] for n, s in row.items()} for y, row in rows.items()} for x, rows in a.items()}


def _add_differences(a: dict[str, dict[str, PairSimulation]],
                     b: dict[str, dict[str, PairSimulation]]) -> dict[str, dict[str, PairSimulation]]:
    return {x: {y: d + b[x][y] for y, d in rows.items()} for x, rows in a.items()}


class MixSimulation(Value):
    """One more mix of bots on the same walls as the summary's first (``SimulationSummary.mixes``): the fields
    of a summary that depend on the bots."""

    bots: list[str] = Field(description="the bot at each seat in rotation 0 (E, S, W, N)")
    presets: dict[str, PresetSimulation]
    pairs: dict[str, dict[str, dict[str, Stat]]]
    differences: dict[str, dict[str, PairSimulation]] = Field(default_factory=dict)

    def __add__(self, other: MixSimulation) -> MixSimulation:
        if not isinstance(other, MixSimulation):
            return NotImplemented
        if self.bots != other.bots:
            raise HkcoreError(f"summaries with different bots cannot be added: {shown(self.bots)} and "
                              f"{shown(other.bots)}")
        return MixSimulation(bots=self.bots, presets={k: v + other.presets[k] for k, v in self.presets.items()},
                             pairs=_add_pairs(self.pairs, other.pairs),
                             differences=_add_differences(self.differences, other.differences))


class SimulationSummary(Value):
    """Bots playing the same walls under several presets (docs/simulation.md).

    ``presets``: each preset's ``PresetSimulation``, in the order asked.
    ``groups``: the presets by tile set; only presets of one group share walls.
    ``base``: the preset the others are compared with (in a group without it,
    the group's first); None in older summaries, which compared every pair.
    ``pairs[A][B][bot]``: for A compared with B (the base of its group), the paired difference
    of the bot's net payment per seat-hand, A less B (no bot when A and B pay in different units);
    ``differences[A][B]`` the same pairs' paired differences per hand of the table's counts (win,
    draw, length, the winners' gain, each seat's payment) and how well they share their walls.
    ``mixes``: the same for each further mix of bots, on the same walls and seeds (``by_mix()``).
    ``a + b`` is the summary of the walls of both (walls counted twice are refused)."""

    duplicate: str = Field(DUPLICATE, description="how the walls are shared between presets and seats")
    seed: int = Field(description="the seed the walls and bots are derived from")
    bots: list[str] = Field(description="the bot at each seat in rotation 0 (E, S, W, N)")
    walls: list[tuple[int, int]] = Field(description="the walls played, as ranges [first, last + 1)")
    hands: int = Field(description="walls played")
    presets: dict[str, PresetSimulation]
    groups: list[list[str]] = Field(description="the presets by tile set: each group shares its walls")
    base: str | None = Field(None, description="the preset each other is compared with (in a group without it, "
                                               "the group's first); None in older summaries: every pair")
    pairs: dict[str, dict[str, dict[str, Stat]]] = Field(
        description="A -> B -> bot -> A's net payment per seat-hand less B's, on the same walls and seats (no bot "
                    "when A and B pay in different units)")
    differences: dict[str, dict[str, PairSimulation]] = Field(
        default_factory=dict, description="A -> B -> per hand, A's counts less B's, on the same walls and seats")
    mixes: list[MixSimulation] = Field(
        default_factory=list, description="each further mix of bots on the same walls: its bots, presets, pairs "
                                          "and differences (empty with one mix)")

    @model_validator(mode="after")
    def _consistent(self) -> SimulationSummary:
        if self.hands != sum(b - a for a, b in self.walls):
            raise ValueError("hands: the number of walls in walls")
        mixes: list[SimulationSummary | MixSimulation] = [self, *self.mixes]
        for mix in mixes:
            if any(p.hands != ROTATIONS * self.hands for p in mix.presets.values()):
                raise ValueError("every preset plays every wall in 4 rotations: each preset's hands must be "
                                 "4 x hands")
            if [(a, list(r)) for a, r in mix.differences.items()] != [(a, list(r)) for a, r in self.pairs.items()]:
                raise ValueError("differences: the same pairs of presets as pairs, in every mix")
            if list(mix.presets) != list(self.presets):
                raise ValueError("mixes: the same presets as the summary's")
        return self

    def by_mix(self) -> list[SimulationSummary]:
        """A summary for each mix of bots, the first this one's (each with no ``mixes``)."""
        first = self.model_copy(update={"mixes": []})
        return [first, *(first.model_copy(update={"bots": m.bots, "presets": m.presets, "pairs": m.pairs,
                                                  "differences": m.differences}) for m in self.mixes)]

    def __add__(self, other: SimulationSummary) -> SimulationSummary:
        if not isinstance(other, SimulationSummary):
            return NotImplemented
        check_addable(self, other, ("seed", "bots", "groups", "base"))
        if [m.bots for m in self.mixes] != [m.bots for m in other.mixes]:
            raise HkcoreError(f"summaries with different mixes of bots cannot be added: "
                              f"{shown([m.bots for m in self.mixes])} and {shown([m.bots for m in other.mixes])}")
        return SimulationSummary(
            duplicate=self.duplicate, seed=self.seed, bots=self.bots, walls=_ranges([*self.walls, *other.walls]),
            hands=self.hands + other.hands, presets={k: v + other.presets[k] for k, v in self.presets.items()},
            groups=self.groups, base=self.base, pairs=_add_pairs(self.pairs, other.pairs),
            differences=_add_differences(self.differences, other.differences),
            mixes=[m + n for m, n in zip(self.mixes, other.mixes)])



# --------------------------------------------------------------------------
# rounds of a match (``simulate_matches``)

#: the hands a round plays at most, unless asked otherwise: a bound, so that a dealer who keeps the deal on and
#: on cannot make a round endless
MAX_ROUND_HANDS = 16
#: how the match measure plays, as its summary says it
ROUNDS = ("duplicate rounds: round m is a match (hkcore.table.match.Match) seeded from (seed, m) only, so hand h "
          "of round m is dealt from the same wall under every preset with the same tile set, whoever deals it; "
          "players p1, p2, p3, p4 sit E, S, W, N at hand 1 and each keeps its bot as the deal moves; a round is "
          "played until the deal has passed four times (the East round ends), the match ends, or max_hands hands "
          "are played (a bound: such a round is counted as cut); the intervals are over rounds")


class PresetRounds(_Counts):
    """One preset over every round played under it: each quantity summed round by round (a ``Stat`` whose
    walls are rounds, one value a round), and the ratios of two such sums."""

    KEYS: ClassVar[tuple[str, ...]] = ("unit", "pays", "tiles", "name")

    unit: Literal["faan", "points"]
    pays: bool = Field(description="the preset settles payments (else a faan ledger: payments are faan won)")
    tiles: int = Field(description="the tile set (136, or 144 with bonus tiles): presets pair within one")
    name: str = Field("", description="the preset's name")
    rounds: int = Field(0, description="rounds played")
    hands: int = Field(0, description="hands played, over every round")
    cut: int = Field(0, description="rounds stopped before the deal had passed four times (at the bound of hands, "
                                    "or because the match ended)")
    hands_histogram: dict[str, int] = Field(default_factory=dict, description="hands in a round -> rounds")
    longest_histogram: dict[str, int] = Field(default_factory=dict,
                                              description="the most hands one dealer dealt in a row in the round "
                                                          "-> rounds")
    hands_a_round: Stat = Field(default_factory=_stat, description="hands in a round")
    longest: Stat = Field(default_factory=_stat, description="the most hands one dealer dealt in a row")
    repeated: Ratio = Field(default_factory=_ratio, description="hands dealt by a dealer who kept the deal (the "
                                                                "dealer of the hand before) over hands, round by "
                                                                "round")
    moved: Stat = Field(default_factory=_stat, description="what the winners won in the round, hand by hand "
                                                           "(points; faan under a ledger)")
    swing: Stat = Field(default_factory=_stat, description="the sum over the four players of the square of each "
                                                           "one's net over the round (its mean / 4, square-rooted, "
                                                           "is the spread of a player's round)")
    dealer_net: Ratio = Field(default_factory=_ratio, description="the dealers' net over hands, round by round: "
                                                                  "the dealer's mean net a hand")

    def measure(self) -> str:
        """What its payments count: ``points``, or ``faan (ledger)`` (``points (ledger)``)."""
        return "points" if self.pays else f"{self.unit} (ledger)"

    def spread(self) -> float | None:
        """The root mean square of a player's net over a round (None without rounds)."""
        s = self.swing
        return math.sqrt(s.total / (4 * s.hands)) if s.hands else None

    def share_cut(self) -> float | None:
        """The share of rounds stopped before the East round ended."""
        return self.cut / self.rounds if self.rounds else None


class PairRounds(_Counts):
    """Two presets on the same rounds: per round, the quantity under A less under B (payments None when A and
    B count different things)."""

    hands_a_round: Stat = Field(default_factory=_stat, description="hands in a round")
    longest: Stat = Field(default_factory=_stat, description="the most hands one dealer dealt in a row")
    repeated: RatioDifference = Field(default_factory=_difference,
                                      description="the share of hands dealt by a dealer who kept the deal")
    moved: Stat | None = Field(default_factory=_stat, description="what the winners won in the round")
    swing: Stat | None = Field(default_factory=_stat, description="the sum over the players of the square of "
                                                                   "each one's net over the round")
    dealer_net: RatioDifference | None = Field(default_factory=_difference,
                                               description="the dealer's mean net a hand")
    hands: int = Field(0, description="hands of the rounds played under both (the fewer of the two, round by round)")
    alike: int = Field(0, description="of those, hands dealt alike: the same hand number and the same dealer "
                                      "under both, and so the same wall and seats")

    def alike_share(self) -> float | None:
        """The share of the hands played under both that were dealt alike."""
        return self.alike / self.hands if self.hands else None


class MatchSummary(Value):
    """Rounds of matches played by bots under several presets (``simulate_matches``): what the rules that act
    only between hands (who keeps the deal, and how often) do to a round. ``presets``: each preset's
    ``PresetRounds``; ``differences[A][B]``: A compared with the base B of its group, round by round.
    ``a + b`` is the summary of the rounds of both (rounds counted twice are refused)."""

    duplicate: str = Field(ROUNDS, description="how the rounds are shared between presets")
    seed: int = Field(description="the seed the rounds are derived from")
    bots: list[str] = Field(description="the bot of each player, p1 (E at hand 1), p2, p3, p4")
    max_hands: int = Field(description="the most hands a round plays")
    played: list[tuple[int, int]] = Field(description="the rounds played, as ranges [first, last + 1)")
    rounds: int = Field(description="rounds played")
    presets: dict[str, PresetRounds]
    groups: list[list[str]] = Field(description="the presets by tile set: each group shares its walls")
    base: str = Field(description="the preset each other is compared with (in a group without it, the group's "
                                  "first)")
    differences: dict[str, dict[str, PairRounds]] = Field(
        default_factory=dict, description="A -> B -> per round, A's counts less B's, on the same rounds")

    @model_validator(mode="after")
    def _consistent(self) -> MatchSummary:
        if self.rounds != sum(b - a for a, b in self.played):
            raise ValueError("rounds: the number of rounds in played")
        if any(p.rounds != self.rounds for p in self.presets.values()):
            raise ValueError("every preset plays every round: each preset's rounds must be rounds")
        return self

    def __add__(self, other: MatchSummary) -> MatchSummary:
        if not isinstance(other, MatchSummary):
            return NotImplemented
        check_addable(self, other, ("seed", "bots", "groups", "base", "max_hands"))
        return MatchSummary(
            duplicate=self.duplicate, seed=self.seed, bots=self.bots, max_hands=self.max_hands,
            played=_ranges([*self.played, *other.played]), rounds=self.rounds + other.rounds,
            presets={k: v + other.presets[k] for k, v in self.presets.items()}, groups=self.groups, base=self.base,
            differences={x: {y: d + other.differences[x][y] for y, d in rows.items()}
                         for x, rows in self.differences.items()})

__all__ = ["CROSS", "DUPLICATE", "MAX_ROUND_HANDS", "ROTATIONS", "ROUNDS", "Z95", "BotSimulation", "MatchSummary",
           "MixSimulation", "PairRounds", "PairSimulation", "Pairing", "PresetRounds", "PresetSimulation", "Ratio",
           "RatioDifference", "SimulationSummary", "Stat", "normal_interval", "ratio_interval"]
