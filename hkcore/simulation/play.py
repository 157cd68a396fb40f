"""Hands played by bots under several presets, in duplicate, summarised by
counts (docs/simulation.md).

``simulate(presets, bots, hands=N, seed=S)`` plays N walls. Wall k is dealt
from a seed derived from ``(S, k)`` alone, so every preset with the same tile
set (136 tiles, or 144 with bonus tiles) plays the very same wall; each wall
is played under every preset, once for each of four rotations of the bots
through the seats, so that every bot sits at every seat. A bot is seeded
from ``(S, k, rotation, seat)``. A preset-to-preset difference is then a
paired one: the same walls, the same bots in the same seats. One hand per
wall, dealt by East: no matches.

A ``SimulationSummary`` holds only whole-number counts and sums, so
summaries of parts of a run add up (``+``) exactly to the summary of the
whole, in any order and however the walls were split.
"""
from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from hkcore.batch import Specs, check_jobs, compile_specs, specs_for
from hkcore.engine import CompiledPreset
from hkcore.errors import HkcoreError, shown
from hkcore.models import Value
from hkcore.preset import Preset, builtin_ids, export_toml
from hkcore.summary import resolve
from hkcore.table.bots import Bot, available_bots, make_bot
from hkcore.table.rotation import Progress, after_hand
from hkcore.table.start import MAX_SEED, read_start
from hkcore.table.table import Table
from hkcore.table.wall import CODES, SEATS

#: rotations of the bots through the seats per wall: each bot sits at each seat once
ROTATIONS = 4
#: the most walls one simulation plays
MAX_HANDS = 100_000_000
#: the normal quantile of a two-sided 95 % interval
Z95 = 1.959964
#: how the simulation plays, as the summary says it
DUPLICATE = ("duplicate play: wall k is dealt from a seed derived from (seed, k) only; presets with the same tile "
             "set play the same walls (presets of 136 and of 144 tiles cannot share one); each wall is played "
             "under every preset and once per rotation of the bots through the seats (seat i plays bot "
             "(i + r) mod 4 in rotation r); bots are seeded from (seed, k, rotation, seat); one hand per wall, "
             "dealt by East")

Presets = Iterable[str | Path | Preset] | str | Path | Preset | None


def _seeded(*parts: Any) -> int:
    """A seed from ``parts`` (a stable hash, the same on every machine and Python)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % MAX_SEED


def wall_seed(seed: int, k: int) -> int:
    """The seed of wall ``k`` of a simulation seeded ``seed``: the ``seed`` of its start records."""
    return _seeded("wall", seed, k)


def bot_seed(seed: int, k: int, rotation: int, seat: str) -> int:
    """The seed of the bot at ``seat`` on wall ``k`` in ``rotation``."""
    return _seeded("bot", seed, k, rotation, seat)


def seating(bots: Sequence[str], rotation: int) -> dict[str, str]:
    """Seat -> bot name in ``rotation``: seat i plays ``bots[(i + rotation) % 4]``."""
    return {s: bots[(i + rotation) % 4] for i, s in enumerate(SEATS)}


# --------------------------------------------------------------------------
# the summary


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
        per = self.hands / self.walls
        mean = self.total / self.hands
        var = (self.squares / per ** 2 - self.walls * mean ** 2) / (self.walls - 1)
        half = Z95 * math.sqrt(max(var, 0.0) / self.walls)
        return mean - half, mean + half

    def __add__(self, other: Stat) -> Stat:
        return Stat(walls=self.walls + other.walls, hands=self.hands + other.hands, total=self.total + other.total,
                    squares=self.squares + other.squares)


def _stat() -> Stat:
    return Stat(walls=0, hands=0, total=0, squares=0)


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
            elif isinstance(a, Stat):
                data[name] = a + b
            elif isinstance(a, dict):
                data[name] = _count(a, b, name.endswith("histogram"))
            elif isinstance(a, int):
                data[name] = a + b
            elif a != b:
                raise HkcoreError(f"summaries: {name} differs ({shown(a)} and {shown(b)}): they cannot be added")
            else:
                data[name] = a
        return type(self)(**data)


class BotSimulation(_Counts):
    """One bot name over its seats in every hand (two seats of a hand count twice when the name sits twice)."""

    hands: int = Field(0, description="seat-hands played by this bot")
    hands_by_seat: dict[str, int] = Field(default_factory=_seats, description="seat -> seat-hands played there")
    wins: int = Field(0, description="win records of this bot's seats")
    wins_by_seat: dict[str, int] = Field(default_factory=_seats, description="seat -> wins there (E: as dealer)")
    self_draw: int = Field(0, description="wins on its own draw (instant bonus wins included)")
    discard: int = Field(0, description="wins on a discard")
    robbing: int = Field(0, description="wins robbing a kong")
    deal_ins: int = Field(0, description="wins by another seat on this bot's discard or kong")
    declined: int = Field(0, description="times a complete hand on offer could not be won (below the minimum)")
    faan_histogram: dict[str, int] = Field(default_factory=dict, description="faan (points) of a win -> wins")
    patterns: dict[str, int] = Field(default_factory=dict, description="pattern id -> wins it was counted in")
    payments: Stat = Field(default_factory=_stat, description="net payments per seat-hand (faan won under a ledger)")


class PresetSimulation(_Counts):
    """One preset over every hand played under it."""

    KEYS: ClassVar[tuple[str, ...]] = ("unit", "pays", "tiles")

    unit: Literal["faan", "points"]
    pays: bool = Field(description="the preset settles payments (else a faan ledger: payments are faan won)")
    tiles: int = Field(description="the tile set (136, or 144 with bonus tiles): presets pair within one")
    hands: int = Field(0, description="hands played (walls x 4 rotations)")
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
    bots: dict[str, BotSimulation] = Field(default_factory=dict, description="bot name -> its seats' counts")

    def rate(self, count: int) -> float | None:
        """``count`` per hand played."""
        return count / self.hands if self.hands else None

    def mean_turns(self) -> float | None:
        """The mean number of discards in a hand."""
        n = sum(self.turns_histogram.values())
        return sum(int(k) * v for k, v in self.turns_histogram.items()) / n if n else None

    def __add__(self, other: Any) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        if list(self.bots) != list(other.bots):
            raise HkcoreError(f"summaries of different bots cannot be added: {list(self.bots)} and {list(other.bots)}")
        bots = {k: v + other.bots[k] for k, v in self.bots.items()}
        merged = _Counts.__add__(self.model_copy(update={"bots": {}}), other.model_copy(update={"bots": {}}))
        return merged.model_copy(update={"bots": bots})


def _ranges(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
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


class SimulationSummary(Value):
    """Bots playing the same walls under several presets (docs/simulation.md).

    ``presets``: each preset's ``PresetSimulation``, in the order asked.
    ``groups``: the presets by tile set; only presets of one group share walls.
    ``pairs[A][B][bot]``: for A before B in one group, the paired difference
    of the bot's net payment per seat-hand, A less B. ``a + b`` is the
    summary of the walls of both (walls counted twice are refused)."""

    duplicate: str = Field(DUPLICATE, description="how the walls are shared between presets and seats")
    seed: int = Field(description="the seed the walls and bots are derived from")
    bots: list[str] = Field(description="the bot at each seat in rotation 0 (E, S, W, N)")
    walls: list[tuple[int, int]] = Field(description="the walls played, as ranges [first, last + 1)")
    hands: int = Field(description="walls played")
    presets: dict[str, PresetSimulation]
    groups: list[list[str]] = Field(description="the presets by tile set: each group shares its walls")
    pairs: dict[str, dict[str, dict[str, Stat]]] = Field(
        description="A -> B -> bot -> A's net payment per seat-hand less B's, on the same walls and seats")

    @model_validator(mode="after")
    def _consistent(self) -> SimulationSummary:
        if self.hands != sum(b - a for a, b in self.walls):
            raise ValueError("hands: the number of walls in walls")
        if any(p.hands != ROTATIONS * self.hands for p in self.presets.values()):
            raise ValueError("every preset plays every wall in 4 rotations: each preset's hands must be 4 x hands")
        return self

    def __add__(self, other: SimulationSummary) -> SimulationSummary:
        if not isinstance(other, SimulationSummary):
            return NotImplemented
        if list(self.presets) != list(other.presets):
            raise HkcoreError(f"summaries of different presets cannot be added: {list(self.presets)} and "
                              f"{list(other.presets)}")
        for name in ("seed", "bots", "groups"):
            if getattr(self, name) != getattr(other, name):
                raise HkcoreError(f"summaries with different {name} cannot be added: {shown(getattr(self, name))} "
                                  f"and {shown(getattr(other, name))}")
        return SimulationSummary(
            duplicate=self.duplicate, seed=self.seed, bots=self.bots, walls=_ranges([*self.walls, *other.walls]),
            hands=self.hands + other.hands, presets={k: v + other.presets[k] for k, v in self.presets.items()},
            groups=self.groups,
            pairs={a: {b: {n: s + other.pairs[a][b][n] for n, s in row.items()} for b, row in rows.items()}
                   for a, rows in self.pairs.items()})


# --------------------------------------------------------------------------
# playing


def _groups(compiled: Sequence[CompiledPreset]) -> list[list[int]]:
    """Preset indices grouped by tile set, in the order asked."""
    by: dict[int, list[int]] = {}
    for i, c in enumerate(compiled):
        by.setdefault(c.preset.tiles, []).append(i)
    return list(by.values())


def _reference(ref: Any, preset: Preset) -> str:
    """A preset as a start record names it: a built-in id, else its TOML text."""
    if isinstance(ref, str) and ref in builtin_ids() and preset.id == ref:
        return ref
    return export_toml(preset)


def _check_bots(bots: Any, preset: Preset) -> list[str]:
    names = [bots] * 4 if isinstance(bots, str) else list(bots) if isinstance(bots, (list, tuple)) else None
    if names is None or len(names) == 1:
        names = names * 4 if names else None
    if names is None or len(names) != 4 or not all(isinstance(n, str) for n in names):
        raise HkcoreError(f"bots = {shown(bots)}: one bot name for every seat, or four names (E, S, W, N)")
    for n in set(names):
        make_bot(n, preset, 0)  # an unknown name: a TableError naming it
    return names


def _check(hands: Any, seed: Any, first: Any) -> None:
    if type(hands) is not int or not 0 <= hands <= MAX_HANDS:
        raise HkcoreError(f"hands = {shown(hands)}: a whole number of walls from 0 to {MAX_HANDS:,}")
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise HkcoreError(f"seed = {shown(seed)}: a whole number from 0 to {MAX_SEED}")
    if type(first) is not int or not 0 <= first <= MAX_HANDS:
        raise HkcoreError(f"first = {shown(first)}: a wall number from 0 to {MAX_HANDS:,}")


def _start(ref: str, seed: int, k: int) -> dict[str, Any]:
    return {"event": "start", "preset": ref, "hand": 1, "round": "E", "seed": wall_seed(seed, k)}


def simulation_starts(presets: Presets, hands: int, seed: int, first: int = 0) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """``(wall, preset id, start record)`` of every hand a simulation of
    ``hands`` walls from wall ``first`` deals, as the engine writes the record
    (with ``hands``, ``live`` and ``dead``); the same record serves the four
    rotations of a wall."""
    _check(hands, seed, first)
    refs, compiled = resolve(presets)
    names = [_reference(r, c.preset) for r, c in zip(refs, compiled)]
    for k in range(first, first + hands):
        for c, name in zip(compiled, names):
            yield k, c.preset.id, read_start(_start(name, seed, k), c.preset).record


class _Tally:
    """Plain counters for a run of walls, turned into a summary at the end."""

    def __init__(self, compiled: Sequence[CompiledPreset], bots: Sequence[str]) -> None:
        self.names = sorted(set(bots), key=list(bots).index)
        self.copies = {n: list(bots).count(n) for n in self.names}
        n = len(compiled)
        self.p: list[dict[str, Any]] = [{"hands": 0, "wins": 0, "exhausted": 0, "self_draw": 0, "discard": 0, "robbing": 0, "instant": 0,
                   "win_records": 0, "wins_by_seat": Counter(), "dealer_retained": 0, "declined": 0,
                   "hands_declined": 0, "turns_histogram": Counter(), "faan_histogram": Counter(),
                   "patterns": Counter(), "won": [0, 0]} for _ in range(n)]
        self.b: list[dict[str, dict[str, Any]]] = [{name: {"hands": 0, "hands_by_seat": Counter(), "wins": 0, "wins_by_seat": Counter(),
                          "self_draw": 0, "discard": 0, "robbing": 0, "deal_ins": 0, "declined": 0,
                          "faan_histogram": Counter(), "patterns": Counter(), "payments": [0, 0]}
                   for name in self.names} for _ in range(n)]
        self.walls = 0

    def summary(self, compiled: Sequence[CompiledPreset], groups: list[list[int]], pairs: dict[tuple[int, int],
                dict[str, list[int]]], seed: int, bots: Sequence[str], first: int, hands: int) -> SimulationSummary:
        def stat(v: list[int], per: int) -> Stat:
            return Stat(walls=self.walls, hands=self.walls * per, total=v[0], squares=v[1])

        def hist(c: Counter[Any]) -> dict[str, int]:
            return dict(sorted((str(k), v) for k, v in c.items()))

        presets: dict[str, PresetSimulation] = {}
        for i, c in enumerate(compiled):
            d = dict(self.p[i])
            d["wins_by_seat"] = {s: d["wins_by_seat"][s] for s in SEATS}
            for h in ("turns_histogram", "faan_histogram"):
                d[h] = dict(sorted(((str(k), v) for k, v in d[h].items()), key=lambda kv: int(kv[0])))
            d["patterns"] = hist(d["patterns"])
            d["won"] = stat(d["won"], ROTATIONS)
            bots_out = {}
            for name, bd in self.b[i].items():
                e = dict(bd)
                e["hands_by_seat"] = {s: e["hands_by_seat"][s] for s in SEATS}
                e["wins_by_seat"] = {s: e["wins_by_seat"][s] for s in SEATS}
                e["faan_histogram"] = dict(sorted(((str(k), v) for k, v in e["faan_histogram"].items()),
                                                  key=lambda kv: int(kv[0])))
                e["patterns"] = hist(e["patterns"])
                e["payments"] = stat(e["payments"], ROTATIONS * self.copies[name])
                bots_out[name] = BotSimulation(**e)
            presets[c.preset.id] = PresetSimulation(unit=c.preset.unit, pays=c.preset.table.start_points is not None,
                                                    tiles=c.preset.tiles, bots=bots_out, **d)
        ids = [c.preset.id for c in compiled]
        out_pairs: dict[str, dict[str, dict[str, Stat]]] = {}
        for (a, b), per_bot in pairs.items():
            out_pairs.setdefault(ids[a], {})[ids[b]] = {
                n: stat(v, ROTATIONS * self.copies[n]) for n, v in per_bot.items()}
        return SimulationSummary(duplicate=DUPLICATE, seed=seed, bots=list(bots), walls=[(first, first + hands)] if hands else [],
                                 hands=hands, presets=presets, groups=[[ids[i] for i in g] for g in groups],
                                 pairs=out_pairs)


def _play(t: Table, seated: list[Bot], detect: bool) -> tuple[int, list[int]]:
    """Play ``t`` to its end with ``seated`` (by seat index); returns the
    complete hands declined, by seat."""
    declined = [0, 0, 0, 0]
    index = {s: i for i, s in enumerate(SEATS)}
    checked = -1
    pending: tuple[int, int, list[list[int]]] | None = None
    total = 0
    while not t.over:
        ps = t.prompts()
        if pending is not None:
            d, tile, before = pending
            pending = None
            offered = {index[p["seat"]] for p in ps if p["phase"] == "claim"
                       and any(a["act"] == "win" for a in p["actions"])}
            for o in range(4):
                if o == d or o in offered:
                    continue
                counts = before[o]
                counts[tile] += 1
                if t.winning_shape(o, counts):
                    declined[o] += 1
                    total += 1
        if not ps:
            break
        p = ps[0]
        s = index[p["seat"]]
        if detect and p["phase"] == "turn" and p["prompt"] != checked:
            checked = p["prompt"]
            if p["actions"][0]["act"] != "win" and t.winning_shape(s, t.counts_of(s)):
                declined[s] += 1
                total += 1
        decision = seated[s].decide(p)
        if detect and decision.get("act") == "discard":
            before = [t.counts_of(o) for o in range(4)]
            tile = CODES.index(decision["tile"])
            t.submit(decision)
            pending = (s, tile, before)
        else:
            t.submit(decision)
    if pending is not None:  # the last discard: the hand ended with no win
        d, tile, before = pending
        for o in range(4):
            if o != d:
                counts = before[o]
                counts[tile] += 1
                if t.winning_shape(o, counts):
                    declined[o] += 1
                    total += 1
    return total, declined


def _shard(specs: Specs, refs: Sequence[str], bots: Sequence[str], seed: int, first: int,
           hands: int) -> SimulationSummary:
    """The summary of walls ``first`` .. ``first + hands - 1`` (a worker's task: module level, spawn-safe)."""
    compiled = compile_specs(specs)
    return _run(compiled, refs, bots, seed, first, hands)


Played = tuple[int, int, int, dict[str, str], Table, int, list[int]]


def _played(compiled: Sequence[CompiledPreset], refs: Sequence[str], bots: Sequence[str], seed: int, first: int,
            hands: int) -> Iterator[Played]:
    """Every hand of the walls, in order (wall, then preset, then rotation):
    ``(wall, preset index, rotation, seat -> bot, the finished table, complete
    hands declined, the same by seat)``."""
    like: list[Table | None] = [None] * len(compiled)
    detect = [not c.extra_shapes for c in compiled]
    factories = available_bots()
    for k in range(first, first + hands):
        for i, c in enumerate(compiled):
            p = c.preset
            deal = read_start(_start(refs[i], seed, k), p)  # one wall for the four rotations
            for r in range(ROTATIONS):
                who = seating(bots, r)
                seated = [factories[who[s]](p, bot_seed(seed, k, r, s)) for s in SEATS]
                t = Table.dealt(deal, like=like[i])
                like[i] = t
                total, declined = _play(t, seated, detect[i])
                yield k, i, r, who, t, total, declined


def simulation_logs(presets: Presets, bots: str | Sequence[str], hands: int, seed: int,
                    first: int = 0) -> Iterator[tuple[int, str, int, dict[str, str], list[dict[str, Any]]]]:
    """``(wall, preset id, rotation, seat -> bot, log)`` of every hand
    ``simulate`` plays with the same arguments, in order."""
    _check(hands, seed, first)
    refs, compiled = resolve(presets)
    names = _check_bots(bots, compiled[0].preset)
    texts = [_reference(r, c.preset) for r, c in zip(refs, compiled)]
    for k, i, r, who, t, _, _ in _played(compiled, texts, names, seed, first, hands):
        yield k, compiled[i].preset.id, r, who, t.log


def _run(compiled: Sequence[CompiledPreset], refs: Sequence[str], bots: Sequence[str], seed: int, first: int,
         hands: int) -> SimulationSummary:
    groups = _groups(compiled)
    pair_keys = [(g[x], g[y]) for g in groups for x in range(len(g)) for y in range(x + 1, len(g))]
    names = sorted(set(bots), key=list(bots).index)
    pairs: dict[tuple[int, int], dict[str, list[int]]] = {k: {n: [0, 0] for n in names} for k in pair_keys}
    tally = _Tally(compiled, bots)
    players = ("p1", "p2", "p3", "p4")
    n = len(compiled)
    wall_pay: list[dict[str, int]] = []
    by_seat_pay: list[list[list[int]]] = []
    won = [0] * n
    for k, i, r, who, t, total, declined in _played(compiled, refs, bots, seed, first, hands):
        if i == 0 and r == 0:  # a new wall: per preset, per bot name, its sum of payments; by rotation and seat
            wall_pay = [{m: 0 for m in names} for _ in compiled]
            by_seat_pay = [[[0] * 4 for _ in range(ROTATIONS)] for _ in compiled]
            won = [0] * n
        p = compiled[i].preset
        pt, bt = tally.p[i], tally.b[i]
        log = t.log
        end = next(x for x in reversed(log) if x["event"] == "end_hand")
        wins = [x for x in log if x["event"] == "win"]
        turns = sum(1 for x in log if x["event"] == "discard")
        pt["hands"] += 1
        pt["turns_histogram"][turns] += 1
        pt["declined"] += total
        pt["hands_declined"] += total > 0
        winner = end["winner"]
        after = after_hand(p.table, 0, "E", t.seats, winner, Progress(players))[0]
        pt["dealer_retained"] += after is not None and after["dealer"] == t.seats["E"]
        if winner is None:
            pt["exhausted"] += 1
        else:
            pt["wins"] += 1
            pt["wins_by_seat"][winner] += 1
            w0 = wins[0]
            pt["robbing" if w0["robbing"] else "self_draw" if w0["from"] is None else "discard"] += 1
            pt["instant"] += w0["tile"] is None
        pays = end["delta"] if end["delta"] is not None else end["faan"]
        for j, s in enumerate(SEATS):
            b = bt[who[s]]
            b["hands"] += 1
            b["hands_by_seat"][s] += 1
            b["declined"] += declined[j]
            wall_pay[i][who[s]] += pays[s]
            by_seat_pay[i][r][j] = pays[s]
        for w in wins:
            pt["win_records"] += 1
            pt["faan_histogram"][w["faan"]] += 1
            pt["patterns"].update(q["id"] for q in w["patterns"])
            b = bt[who[w["seat"]]]
            b["wins"] += 1
            b["wins_by_seat"][w["seat"]] += 1
            b["robbing" if w["robbing"] else "self_draw" if w["from"] is None else "discard"] += 1
            b["faan_histogram"][w["faan"]] += 1
            b["patterns"].update(q["id"] for q in w["patterns"])
            if w["from"] is not None:
                bt[who[w["from"]]]["deal_ins"] += 1
            won[i] += pays[w["seat"]]
        if r == ROTATIONS - 1:
            pt["won"][0] += won[i]
            pt["won"][1] += won[i] * won[i]
            for m in names:
                v = wall_pay[i][m]
                bt[m]["payments"][0] += v
                bt[m]["payments"][1] += v * v
            if i == n - 1:  # the wall's last hand: its paired differences
                for (a, b2), per_bot in pairs.items():
                    diff = {m: 0 for m in names}
                    for rr in range(ROTATIONS):
                        seats = seating(bots, rr)
                        for j, s in enumerate(SEATS):
                            diff[seats[s]] += by_seat_pay[a][rr][j] - by_seat_pay[b2][rr][j]
                    for m in names:
                        per_bot[m][0] += diff[m]
                        per_bot[m][1] += diff[m] * diff[m]
                tally.walls += 1
    return tally.summary(compiled, groups, pairs, seed, bots, first, hands)


def shards(hands: int, jobs: int, first: int = 0) -> list[tuple[int, int]]:
    """``(first wall, walls)`` of each shard: about four a job, in order."""
    if hands == 0:
        return [(first, 0)]
    n = min(hands, jobs * 4) if jobs > 1 else 1
    size, extra = divmod(hands, n)
    out, at = [], first
    for i in range(n):
        m = size + (i < extra)
        out.append((at, m))
        at += m
    return out


def simulate(presets: Presets = None, bots: str | Sequence[str] = "simple", *, hands: int = 100, seed: int = 0,
             jobs: int = 1, first: int = 0) -> SimulationSummary:
    """Play ``hands`` walls (from wall ``first``) in duplicate under each of
    ``presets`` (default, or ``"all"``: the built-in ones) with ``bots`` (one
    bot name for every seat, or four: E, S, W, N in the first rotation),
    and summarise them. ``jobs``: worker processes, each playing ranges of
    walls; the summary does not depend on ``jobs``.

    >>> s = simulate(["hk-classic", "just-cards"], "simple", hands=2, seed=1)
    >>> s.presets["hk-classic"].hands, s.groups
    (8, [['hk-classic', 'just-cards']])
    """
    _check(hands, seed, first)
    check_jobs(jobs)
    refs, compiled = resolve(presets)
    names = _check_bots(bots, compiled[0].preset)
    texts = [_reference(r, c.preset) for r, c in zip(refs, compiled)]
    parts = shards(hands, jobs, first)
    if jobs == 1 or len(parts) == 1:
        return _run(compiled, texts, names, seed, first, hands)
    specs = specs_for(zip(refs, compiled))
    import multiprocessing

    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_shard, specs, texts, names, seed, a, n) for a, n in parts]
        results = [f.result() for f in futures]
    total = results[0]
    for part in results[1:]:
        total = total + part
    return total


# --------------------------------------------------------------------------
# a readable page


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f} %"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:,.2f}"


def _ci(s: Stat) -> str:
    iv = s.interval()
    return "-" if iv is None else f"{iv[0]:,.2f} .. {iv[1]:,.2f}"


def summary_markdown(summary: SimulationSummary) -> str:
    """The summary as a Markdown page: a table of the presets, one of each
    preset's bots, and the paired differences."""
    out = [f"# Simulation: {summary.hands:,} walls, seed {summary.seed}", "",
           f"Bots (E, S, W, N in the first rotation): {', '.join(summary.bots)}.", "",
           summary.duplicate[0].upper() + summary.duplicate[1:] + ".", "",
           "Walls shared by: " + "; ".join(", ".join(g) for g in summary.groups) + ".", "",
           "## Presets", "",
           ("| preset | tiles | hands | win rate | self-draw | discard | robbing | draws | deal-in | dealer wins "
            "| dealer kept | mean turns | won per hand (95 % interval) | declined |"),
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for pid, p in summary.presets.items():
        unit = "points" if p.pays else f"{p.unit} (ledger)"
        out.append(f"| {pid} | {p.tiles} | {p.hands:,} | {_pct(p.rate(p.wins))} | {_pct(p.rate(p.self_draw))} "
                   f"| {_pct(p.rate(p.discard))} | {_pct(p.rate(p.robbing))} | {_pct(p.rate(p.exhausted))} "
                   f"| {_pct(p.rate(p.discard + p.robbing))} | {_pct(p.rate(p.wins_by_seat['E']))} "
                   f"| {_pct(p.rate(p.dealer_retained))} | {_num(p.mean_turns())} "
                   f"| {_num(p.won.mean())} {unit} ({_ci(p.won)}) | {p.declined:,} |")
    out += ["", "## Bots", "",
            "| preset | bot | seat-hands | win rate | as dealer | deal-in | payments per hand (95 % interval) |",
            "|---|---|---|---|---|---|---|"]
    for pid, p in summary.presets.items():
        for name, bot in p.bots.items():
            dealer = bot.wins_by_seat["E"] / bot.hands_by_seat["E"] if bot.hands_by_seat["E"] else None
            out.append(f"| {pid} | {name} | {bot.hands:,} | {_pct(bot.wins / bot.hands if bot.hands else None)} "
                       f"| {_pct(dealer)} | {_pct(bot.deal_ins / bot.hands if bot.hands else None)} "
                       f"| {_num(bot.payments.mean())} ({_ci(bot.payments)}) |")
    out += ["", "## Paired differences", "",
            "A's payments per seat-hand less B's, on the same walls with the same bots in the same seats.", "",
            "| A | B | bot | difference per hand | 95 % interval |", "|---|---|---|---|---|"]
    for a, rows in summary.pairs.items():
        for other, per_bot in rows.items():
            for name, st in per_bot.items():
                out.append(f"| {a} | {other} | {name} | {_num(st.mean())} | {_ci(st)} |")
    return "\n".join(out) + "\n"


__all__ = ["BotSimulation", "PresetSimulation", "SimulationSummary", "Stat", "bot_seed", "seating", "shards",
           "simulate", "simulation_logs", "simulation_starts",
           "summary_markdown", "wall_seed"]
