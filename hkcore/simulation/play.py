"""Playing a simulation: the walls, the bots in their seats, the process
pool (docs/simulation.md).

``simulate(presets, bots, hands=N, seed=S)`` plays N walls. Wall k is dealt
from a seed derived from ``(S, k)`` alone, so every preset with the same tile
set (136 tiles, or 144 with bonus tiles) plays the very same wall; each wall
is played under every preset, once for each of four rotations of the bots
through the seats, so that every bot sits at every seat. A bot is seeded
from ``(S, k, rotation, seat)``. A preset-to-preset difference is then a
paired one: the same walls, the same bots in the same seats. One hand per
wall, dealt by East: no matches.

``plan`` checks a simulation's arguments once and ``play_walls`` plays a
range of its walls anywhere (a worker process, a Dask worker): the
summaries of ranges add up to the whole.
"""
from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import reduce
from operator import add
from pathlib import Path
from typing import Any

from hkcore.batch import Specs, check_jobs, compile_specs, specs_for, worker_context
from hkcore.engine import CompiledPreset
from hkcore.errors import HkcoreError, shown
from hkcore.preset import Preset
from hkcore.simulation.summary import (
    CROSS,
    DUPLICATE,
    MAX_ROUND_HANDS,
    ROTATIONS,
    BotSimulation,
    MatchSummary,
    MixSimulation,
    Pairing,
    PairRounds,
    PairSimulation,
    PresetRounds,
    PresetSimulation,
    Ratio,
    RatioDifference,
    SimulationSummary,
    Stat,
)
from hkcore.summary import resolve
from hkcore.table.flow.wall import CODES, SEATS
from hkcore.table.match import Match
from hkcore.table.players.bots import Bot, available_bots, builtin_bots, engine_bots
from hkcore.table.players.external import TIME_LIMIT, bot_or_program, check_time_limit
from hkcore.table.players.fastplay import new_memo, play_bots, plays, value_params
from hkcore.table.rotation import Progress, after_hand
from hkcore.table.start import bot_seed, check_seed, read_start, record_preset, wall_seed
from hkcore.table.table import Table

#: the most walls one simulation plays
MAX_HANDS = 100_000_000

Presets = Iterable[str | Path | Preset] | str | Path | Preset | None
#: one mix of bots (one name for every seat, or four: E, S, W, N), or a list of mixes, each played on the same walls
Bots = str | Sequence[str] | Sequence[str | Sequence[str]]


def seating(bots: Sequence[str], rotation: int) -> dict[str, str]:
    """Seat -> bot name in ``rotation``: seat i plays ``bots[(i + rotation) % 4]``."""
    return {s: bots[(i + rotation) % 4] for i, s in enumerate(SEATS)}


# --------------------------------------------------------------------------
# playing


def _groups(compiled: Sequence[CompiledPreset]) -> list[list[int]]:
    """Preset indices grouped by tile set, in the order asked."""
    by: dict[int, list[int]] = {}
    for i, c in enumerate(compiled):
        by.setdefault(c.preset.tiles, []).append(i)
    return list(by.values())


def _pair_keys(groups: list[list[int]], base: int) -> list[tuple[int, int]]:
    """``(A, B)`` of each pair compared: every preset of a group with the group's base (``base`` where it is in the
    group, else the group's first)."""
    out = []
    for g in groups:
        b = base if base in g else g[0]
        out += [(a, b) for a in g if a != b]
    return out


def _base_index(base: Any, refs: Sequence[str], compiled: Sequence[CompiledPreset]) -> int:
    """The index of the preset ``base`` names (its id, or the reference it was given by; None: the first)."""
    if base is None:
        return 0
    if isinstance(base, str):
        for i, (ref, c) in enumerate(zip(refs, compiled)):
            if base in (c.preset.id, ref):
                return i
    raise HkcoreError(f"base = {shown(base)}: one of the presets simulated, by id "
                      f"({', '.join(c.preset.id for c in compiled)})")


def _check_mixes(bots: Any, preset: Preset) -> list[list[str]]:
    """Each mix of bots, checked (``bots``: one mix, or a list of mixes each a name or a list of names)."""
    if isinstance(bots, (list, tuple)) and bots and any(isinstance(m, (list, tuple)) for m in bots):
        mixes = [_check_bots(m, preset) for m in bots]
        if len({tuple(m) for m in mixes}) != len(mixes):
            raise HkcoreError(f"bots = {shown(bots)}: a mix of bots given twice")
        return mixes
    return [_check_bots(bots, preset)]


def _check_bots(bots: Any, preset: Preset) -> list[str]:
    names = [bots] * 4 if isinstance(bots, str) else list(bots) if isinstance(bots, (list, tuple)) else None
    if names is None or len(names) == 1:
        names = names * 4 if names else None
    if names is None or len(names) != 4 or not all(isinstance(n, str) for n in names):
        raise HkcoreError(f"bots = {shown(bots)}: one bot name for every seat, or four names (E, S, W, N)")
    for n in set(names):
        bot_or_program(n, preset, 0)  # an unknown name: a TableError naming it
    return names


def check_walls(hands: Any, seed: Any, first: Any) -> None:
    """An ``HkcoreError`` naming ``hands``, ``seed`` or ``first`` when it is not a simulation's."""
    if type(hands) is not int or not 0 <= hands <= MAX_HANDS:
        raise HkcoreError(f"hands = {shown(hands)}: a whole number of walls from 0 to {MAX_HANDS:,}")
    check_seed(seed)
    if type(first) is not int or not 0 <= first <= MAX_HANDS:
        raise HkcoreError(f"first = {shown(first)}: a wall number from 0 to {MAX_HANDS:,}")


def _start(ref: str, seed: int, k: int) -> dict[str, Any]:
    return {"event": "start", "preset": ref, "hand": 1, "round": "E", "seed": wall_seed(seed, k)}


def simulation_starts(presets: Presets, hands: int, seed: int,
                      first: int = 0) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """``(wall, preset id, start record)`` of every hand a simulation of
    ``hands`` walls from wall ``first`` deals, as the engine writes the record
    (with ``hands``, ``live`` and ``dead``); the same record serves the four
    rotations of a wall."""
    check_walls(hands, seed, first)
    _, compiled = resolve(presets)
    names = [record_preset(c.preset) for c in compiled]
    for k in range(first, first + hands):
        for c, name in zip(compiled, names):
            yield k, c.preset.id, read_start(_start(name, seed, k), c.preset).record


def play_of(log: Sequence[dict[str, Any]]) -> tuple[tuple[Any, ...], ...]:
    """What was played in a hand: each record's event, seat, tiles, act, and a win's discarder and faan (two
    hands of one wall are the same hand when these are)."""
    return tuple((r.get("event"), r.get("seat"), r.get("tile"), r.get("tiles"), r.get("act"), r.get("from"),
                  r.get("faan") if r.get("event") == "win" else None) for r in log)


Drawn = tuple[tuple[str, ...], tuple[str, ...]]


def drawn(log: Sequence[dict[str, Any]]) -> Drawn:
    """The tiles a hand took from the wall, in order: by live draws, and by replacement draws (a kong's, and
    each bonus tile's replacement)."""
    live: list[str] = []
    spare: list[str] = []
    for r in log:
        event = r["event"]
        if event == "draw":
            (live if r.get("source") == "live" else spare).append(r["tile"])
        elif event == "bonus" and r.get("replacement") is not None:
            spare.append(r["replacement"])
    return tuple(live), tuple(spare)


def in_step(a: Drawn, b: Drawn) -> bool:
    """Whether two hands of one wall took the same tiles in the same order (``drawn``), live and replacement
    draws apart, as far as both went: the wall paired them."""
    return all(x[:min(len(x), len(y))] == y[:min(len(x), len(y))] for x, y in zip(a, b))


class _Wall:
    """One preset's sums over the four rotations of the wall being played."""

    __slots__ = ("bot", "by_seat", "draws", "faan", "paid", "plays", "q", "records", "seat")

    def __init__(self, names: Sequence[str]) -> None:
        self.bot = {m: 0 for m in names}                        # bot name -> its payments
        self.by_seat = [[0] * 4 for _ in range(ROTATIONS)]     # rotation -> seat index -> payment
        self.q = [0] * len(PAIRED)                              # the paired quantities, in PAIRED's order
        self.seat = [0, 0, 0, 0]                                # seat index -> payments
        self.draws: list[Drawn] = [((), ())] * ROTATIONS            # rotation -> the tiles taken from the wall
        self.plays: set[tuple[tuple[Any, ...], ...]] = set()           # the distinct hands played (play_of)
        self.faan = 0                                           # faan (points) of the win records
        self.records = 0                                        # win records
        self.paid = 0                                           # what the discarders paid


#: the quantities two presets are compared on hand by hand (``PairSimulation``'s fields, seats apart)
PAIRED = ("wins", "exhausted", "self_draw", "deal_in", "turns", "won", "dealer_retained", "declined", "swing")
_WON = PAIRED.index("won")
#: the paired quantities that are payments: compared only between presets that count the same
PAYMENTS = ("won", "swing")


def _sq(acc: list[int], v: int) -> None:
    acc[0] += v
    acc[1] += v * v


def _ratio_sums(acc: list[int], x: int, y: int) -> None:
    """A wall's numerator and denominator added to ``[x, y, xx, xy, yy]``."""
    acc[0] += x
    acc[1] += y
    acc[2] += x * x
    acc[3] += x * y
    acc[4] += y * y


def _cross(acc: list[int], xa: int, ya: int, xb: int, yb: int) -> None:
    """A wall's products across two presets added to ``[xa*xb, xa*yb, xb*ya, ya*yb]`` (``CROSS``)."""
    acc[0] += xa * xb
    acc[1] += xa * yb
    acc[2] += xb * ya
    acc[3] += ya * yb


class _Tally:
    """Plain counters for a run of walls, turned into a summary at the end."""

    def __init__(self, compiled: Sequence[CompiledPreset], bots: Sequence[str],
                 pair_keys: Sequence[tuple[int, int]]) -> None:
        # payments compare only between presets that count the same (points, or a ledger's faan)
        measure = ["points" if c.preset.table.start_points is not None else f"{c.preset.unit} (ledger)"
                   for c in compiled]
        self.comparable = {(a, b): measure[a] == measure[b] for a, b in pair_keys}
        self.names = sorted(set(bots), key=list(bots).index)
        self.copies = {n: list(bots).count(n) for n in self.names}
        n = len(compiled)
        self.p: list[dict[str, Any]] = [
            {"hands": 0, "wins": 0, "exhausted": 0, "self_draw": 0, "discard": 0, "robbing": 0, "instant": 0,
             "win_records": 0, "wins_by_seat": Counter(), "dealer_retained": 0, "declined": 0, "hands_declined": 0,
             "distinct_hands": 0,
             "turns_histogram": Counter(), "faan_histogram": Counter(), "patterns": Counter(), "won": [0, 0],
             "paid_by_discarder": 0, "payments_by_seat": [[0, 0] for _ in SEATS],
             "per_hand": [[0, 0] for _ in PAIRED], "faan_per_win": [0] * 5, "discarder_paid": [0] * 5}
            for _ in range(n)]
        self.b: list[dict[str, dict[str, Any]]] = [
            {name: {"hands": 0, "hands_by_seat": Counter(), "wins": 0, "wins_by_seat": Counter(), "self_draw": 0,
                    "discard": 0, "robbing": 0, "exhausted": 0, "deal_ins": 0, "declined": 0, "faults": 0,
                    "win_turns_histogram": Counter(), "faan_histogram": Counter(), "patterns": Counter(),
                    "payments": [0, 0]} for name in self.names} for _ in range(n)]
        self.pairs: dict[tuple[int, int], dict[str, Any]] = {
            k: {"bots": {m: [0, 0] for m in self.names}, "q": [[0, 0] for _ in PAIRED],
                "seats": [[0, 0] for _ in SEATS], "in_step": 0, "faan": [0] * 4, "share": [0] * 4,
                "pairing": [[0] * 5 for _ in SEATS]} for k in pair_keys}
        self.walls = 0

    def wall_done(self, i: int, w: _Wall) -> None:
        """Preset ``i``'s four rotations of a wall are played: its per-wall sums."""
        pt, bt = self.p[i], self.b[i]
        pt["distinct_hands"] += len(w.plays)
        _sq(pt["won"], w.q[PAIRED.index("won")])
        for x, acc in enumerate(pt["per_hand"]):
            _sq(acc, w.q[x])
        _ratio_sums(pt["faan_per_win"], w.faan, w.records)
        _ratio_sums(pt["discarder_paid"], w.paid, w.q[_WON])
        for j in range(4):
            _sq(pt["payments_by_seat"][j], w.seat[j])
        for m, v in w.bot.items():
            _sq(bt[m]["payments"], v)

    def pairs_done(self, wall: Sequence[_Wall], bots: Sequence[str]) -> None:
        """Every preset has played the wall: its paired differences."""
        for (a, b), acc in self.pairs.items():
            wa, wb = wall[a], wall[b]
            acc["in_step"] += all(in_step(wa.draws[r], wb.draws[r]) for r in range(ROTATIONS))
            for j, sums in enumerate(acc["pairing"]):   # each seat's sums of a, b, a², b², ab over walls
                x, y = wa.seat[j], wb.seat[j]
                sums[0] += x
                sums[1] += y
                sums[2] += x * x
                sums[3] += y * y
                sums[4] += x * y
            for x in range(len(PAIRED)):
                _sq(acc["q"][x], wa.q[x] - wb.q[x])
            _cross(acc["faan"], wa.faan, wa.records, wb.faan, wb.records)
            _cross(acc["share"], wa.paid, wa.q[_WON], wb.paid, wb.q[_WON])
            if not self.comparable[a, b]:
                continue
            diff = {m: 0 for m in self.names}
            for r in range(ROTATIONS):
                seats = seating(bots, r)
                for j, s in enumerate(SEATS):
                    diff[seats[s]] += wa.by_seat[r][j] - wb.by_seat[r][j]
            for m in self.names:
                _sq(acc["bots"][m], diff[m])
            for j in range(4):
                _sq(acc["seats"][j], wa.seat[j] - wb.seat[j])
        self.walls += 1

    def summary(self, compiled: Sequence[CompiledPreset], refs: Sequence[str], groups: list[list[int]], seed: int,
                bots: Sequence[str], first: int, hands: int, base: int = 0) -> SimulationSummary:
        def stat(v: list[int], per: int) -> Stat:
            return Stat(walls=self.walls, hands=self.walls * per, total=v[0], squares=v[1])

        def hist(c: Counter[Any]) -> dict[str, int]:
            return dict(sorted((str(k), v) for k, v in c.items()))

        def numeric(c: Counter[Any]) -> dict[str, int]:
            return dict(sorted(((str(k), v) for k, v in c.items()), key=lambda kv: int(kv[0])))

        def by_seat(c: Counter[str]) -> dict[str, int]:
            return {s: c[s] for s in SEATS}

        def ratio(v: list[int]) -> Ratio:
            return Ratio(walls=self.walls, x=v[0], y=v[1], xx=v[2], xy=v[3], yy=v[4])

        presets: dict[str, PresetSimulation] = {}
        for i, c in enumerate(compiled):
            d = dict(self.p[i])
            d["wins_by_seat"] = by_seat(d["wins_by_seat"])
            d["turns_histogram"] = numeric(d["turns_histogram"])
            d["faan_histogram"] = numeric(d["faan_histogram"])
            d["patterns"] = hist(d["patterns"])
            d["won"] = stat(d["won"], ROTATIONS)
            d["payments_by_seat"] = {s: stat(v, ROTATIONS) for s, v in zip(SEATS, d["payments_by_seat"])}
            d["per_hand"] = {q: stat(v, ROTATIONS) for q, v in zip(PAIRED, d["per_hand"])}
            d["faan_per_win"] = ratio(d["faan_per_win"])
            d["discarder_paid"] = ratio(d["discarder_paid"])
            bots_out = {}
            for name, bd in self.b[i].items():
                e = dict(bd)
                e["hands_by_seat"] = by_seat(e["hands_by_seat"])
                e["wins_by_seat"] = by_seat(e["wins_by_seat"])
                e["win_turns_histogram"] = numeric(e["win_turns_histogram"])
                e["faan_histogram"] = numeric(e["faan_histogram"])
                e["patterns"] = hist(e["patterns"])
                e["payments"] = stat(e["payments"], ROTATIONS * self.copies[name])
                bots_out[name] = BotSimulation(**e)
            presets[c.preset.id] = PresetSimulation(unit=c.preset.unit, pays=c.preset.table.start_points is not None,
                                                    tiles=c.preset.tiles, name=c.preset.name,
                                                    toml=None if refs[i] == c.preset.id else refs[i],
                                                    warnings=list(c.preset.warnings), bots=bots_out, **d)
        ids = [c.preset.id for c in compiled]
        pairs: dict[str, dict[str, dict[str, Stat]]] = {}
        differences: dict[str, dict[str, PairSimulation]] = {}
        for (a, b), acc in self.pairs.items():
            same = self.comparable[a, b]
            pairs.setdefault(ids[a], {})[ids[b]] = {
                m: stat(v, ROTATIONS * self.copies[m]) for m, v in acc["bots"].items()} if same else {}
            qs: dict[str, Any] = {q: stat(v, ROTATIONS) for q, v in zip(PAIRED, acc["q"])}
            pa, pb = self.p[a], self.p[b]
            qs["faan_per_win"] = RatioDifference(a=ratio(pa["faan_per_win"]), b=ratio(pb["faan_per_win"]),
                                                 cross=dict(zip(CROSS, acc["faan"])))
            qs["discarder_share"] = RatioDifference(a=ratio(pa["discarder_paid"]), b=ratio(pb["discarder_paid"]),
                                                    cross=dict(zip(CROSS, acc["share"])))
            if not same:
                qs.update({q: None for q in (*PAYMENTS, "discarder_share")})
            sums = {k: {seat: acc["pairing"][j][x] for j, seat in enumerate(SEATS)}
                    for x, k in enumerate(("a", "b", "aa", "bb", "ab"))}
            differences.setdefault(ids[a], {})[ids[b]] = PairSimulation(
                **qs, payments_by_seat={s: stat(v, ROTATIONS) for s, v in zip(SEATS, acc["seats"])} if same else None,
                pairing=Pairing(walls=self.walls, in_step=acc["in_step"], **sums))
        return SimulationSummary(duplicate=DUPLICATE, seed=seed, bots=list(bots),
                                 walls=[(first, first + hands)] if hands else [], hands=hands, presets=presets,
                                 groups=[[ids[i] for i in g] for g in groups], base=ids[base], pairs=pairs,
                                 differences=differences)


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
                if t._winning_shape(o, counts):
                    declined[o] += 1
                    total += 1
        if not ps:
            break
        p = ps[0]
        s = index[p["seat"]]
        if detect and p["phase"] == "turn" and p["prompt"] != checked:
            checked = p["prompt"]
            if p["actions"][0]["act"] != "win" and t._winning_shape(s, t._counts_of(s)):
                declined[s] += 1
                total += 1
        decision = seated[s].decide(p)
        if detect and decision.get("act") == "discard":
            before = [t._counts_of(o) for o in range(4)]
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
                if t._winning_shape(o, counts):
                    declined[o] += 1
                    total += 1
    return total, declined


Played = tuple[int, int, int, dict[str, str], Table, int, list[int], list[int]]


def fast_path(bots: Sequence[str], factories: Mapping[str, Any]) -> bool:
    """Whether every seat's bot is a built-in one ``hkcore.table.players.fastplay``
    plays inside the engine (the same decisions, no prompts)."""
    builtin, in_engine = builtin_bots(), engine_bots()
    return all(n in in_engine and factories.get(n) is builtin[n] for n in bots)


def _played(compiled: Sequence[CompiledPreset], refs: Sequence[str], bots: Sequence[str], seed: int, first: int,
            hands: int, fast: bool = True, time_limit: float = TIME_LIMIT) -> Iterator[Played]:
    """Every hand of the walls, in order (wall, then preset, then rotation):
    ``(wall, preset index, rotation, seat -> bot, the finished table, complete
    hands declined, the same by seat, the faults of a program's bot by seat)``. ``fast``: the engine plays the hand
    itself where every bot allows it (``fast_path``); ``time_limit``: seconds a program's bot has a decision."""
    like: list[Table | None] = [None] * len(compiled)
    detect = [c.kernel_pairs is not None for c in compiled]  # the engine knows every shape of the preset
    factories = available_bots()
    fast = fast and fast_path(bots, factories)
    by_preset = [fast and plays(c.preset, bots) for c in compiled]
    memo = new_memo() if fast else None
    params = [value_params(c.preset) if by_preset[i] and {"value", "guard"} & set(bots) else None
              for i, c in enumerate(compiled)]
    # one engine bot in every seat: the engine's bots take no seed, so the four rotations of a wall are one
    # hand, played once and given four times (in the engine, or through prompts where the kernels do not know
    # the preset's shapes)
    alike = fast and len(set(bots)) == 1
    for k in range(first, first + hands):
        for i, c in enumerate(compiled):
            p = c.preset
            deal = read_start(_start(refs[i], seed, k), p)  # one wall for the four rotations
            known: set[bytes] = set()  # the four rotations ask the same questions (a set a wall: memory stays flat)
            once: Played | None = None   # rotation 0's hand, where the rotations are one hand
            for r in range(ROTATIONS):
                who = seating(bots, r)
                if once is not None:
                    yield (k, i, r, *once[3:])
                    continue
                faults = [0, 0, 0, 0]
                t = Table.dealt(deal, like=like[i])
                t.no_wins = known
                like[i] = t
                if by_preset[i]:
                    declined = [0, 0, 0, 0]
                    total = play_bots(t, [who[s] for s in SEATS], declined, detect=detect[i], memo=memo,
                                      params=params[i])
                else:
                    seated = [bot_or_program(who[s], p, bot_seed(seed, k, r, s), factories, time_limit=time_limit)
                              for s in SEATS]
                    try:
                        total, declined = _play(t, seated, detect[i])
                    finally:
                        for b in seated:
                            close = getattr(b, "close", None)
                            if callable(close):
                                close()
                    for j, b in enumerate(seated):
                        faults[j] = len(getattr(b, "faults", ()))
                played: Played = (k, i, r, who, t, total, declined, faults)
                if alike:
                    once = played
                yield played


def played_hands(plan: Plan, first: int, hands: int) -> Iterator[Played]:
    """Every hand of walls ``first`` .. ``first + hands - 1`` of ``plan``'s simulation, in order (wall, then
    preset, then rotation): ``(wall, preset index, rotation, seat -> bot, the finished table, complete hands
    declined, the same by seat, the faults of a program's bot by seat)``. With one engine bot in every seat
    the four rotations of a wall are one hand: the four give the same table (read it, do not change it)."""
    check_walls(hands, plan.seed, first)
    return _played(compile_specs(plan.specs), plan.refs, plan.bots, plan.seed, first, hands, plan.fast,
                   plan.bot_time_limit)


def simulation_logs(presets: Presets, bots: str | Sequence[str], hands: int, seed: int, first: int = 0, *,
                    fast: bool = True) -> Iterator[tuple[int, str, int, dict[str, str], list[dict[str, Any]]]]:
    """``(wall, preset id, rotation, seat -> bot, log)`` of every hand
    ``simulate`` plays with the same arguments, in order."""
    check_walls(hands, seed, first)
    _, compiled = resolve(presets)
    names = _check_bots(bots, compiled[0].preset)
    texts = [record_preset(c.preset) for c in compiled]
    last = None
    for k, i, r, who, t, _, _, _ in _played(compiled, texts, names, seed, first, hands, fast):
        # the rotations of one engine bot in every seat are one table: each log given is the caller's own
        yield k, compiled[i].preset.id, r, who, copy.deepcopy(t.log) if t is last else t.log
        last = t


def _run(compiled: Sequence[CompiledPreset], refs: Sequence[str], mixes: Sequence[Sequence[str]], seed: int,
         first: int, hands: int, fast: bool = True, time_limit: float = TIME_LIMIT, base: int = 0
         ) -> SimulationSummary:
    """The summary of each mix of bots on the same walls, the first's at the top and the others' in ``mixes``."""
    runs = [_run_mix(compiled, refs, bots, seed, first, hands, fast, time_limit, base) for bots in mixes]
    return runs[0].model_copy(update={"mixes": [
        MixSimulation(bots=r.bots, presets=r.presets, pairs=r.pairs, differences=r.differences) for r in runs[1:]]})


def _run_mix(compiled: Sequence[CompiledPreset], refs: Sequence[str], bots: Sequence[str], seed: int, first: int,
             hands: int, fast: bool = True, time_limit: float = TIME_LIMIT, base: int = 0) -> SimulationSummary:
    groups = _groups(compiled)
    pair_keys = _pair_keys(groups, base)
    tally = _Tally(compiled, bots, pair_keys)
    players = ("p1", "p2", "p3", "p4")
    n = len(compiled)
    wall: list[_Wall] = []
    kept: dict[tuple[int, str | None, tuple[tuple[str, str], ...]], bool] = {}  # whether the dealer is retained
    last: tuple[Table | None, Drawn, tuple[tuple[Any, ...], ...]] = (None, ((), ()), ())  # a hand given again
    for _k, i, r, who, t, total, declined, faults in _played(compiled, refs, bots, seed, first, hands, fast,
                                                              time_limit):
        if i == 0 and r == 0:  # a new wall
            wall = [_Wall(tally.names) for _ in compiled]
        w = wall[i]
        pt, bt = tally.p[i], tally.b[i]
        log = t.log
        if last[0] is not t:
            last = (t, drawn(log), play_of(log))
        w.draws[r] = last[1]
        w.plays.add(last[2])
        e = len(log) - 1
        while log[e]["event"] != "end_hand":
            e -= 1
        end = log[e]
        a = e  # the win records come last, just before end_hand
        while a > 1 and log[a - 1]["event"] == "win":
            a -= 1
        wins = log[a:e]
        turns = t._discards  # one a discard record
        pt["hands"] += 1
        pt["turns_histogram"][turns] += 1
        pt["declined"] += total
        pt["hands_declined"] += total > 0
        winner = end["winner"]
        key = (i, winner, tuple(t.seats.items()))
        retained = kept.get(key)
        if retained is None:
            after = after_hand(compiled[i].preset.table, 0, "E", t.seats, winner, Progress(players))[0]
            retained = kept[key] = after is not None and after["dealer"] == t.seats["E"]
        pt["dealer_retained"] += retained
        kind = None
        if winner is None:
            pt["exhausted"] += 1
        else:
            pt["wins"] += 1
            pt["wins_by_seat"][winner] += 1
            w0 = wins[0]
            kind = "robbing" if w0["robbing"] else "self_draw" if w0["from"] is None else "discard"
            pt[kind] += 1
            pt["instant"] += w0["tile"] is None
        pays = end["delta"] if end["delta"] is not None else end["faan"]
        for j, s in enumerate(SEATS):
            b = bt[who[s]]
            b["hands"] += 1
            b["hands_by_seat"][s] += 1
            b["declined"] += declined[j]
            b["faults"] += faults[j]
            b["exhausted"] += winner is None
            w.bot[who[s]] += pays[s]
            w.seat[j] += pays[s]
            w.by_seat[r][j] = pays[s]
        gain = 0
        w.records += len(wins)
        for x in wins:
            pt["win_records"] += 1
            pt["faan_histogram"][x["faan"]] += 1
            pt["patterns"].update(q["id"] for q in x["patterns"])
            b = bt[who[x["seat"]]]
            b["wins"] += 1
            b["wins_by_seat"][x["seat"]] += 1
            b["robbing" if x["robbing"] else "self_draw" if x["from"] is None else "discard"] += 1
            b["win_turns_histogram"][turns] += 1
            b["faan_histogram"][x["faan"]] += 1
            b["patterns"].update(q["id"] for q in x["patterns"])
            if x["from"] is not None:
                bt[who[x["from"]]]["deal_ins"] += 1
            gain += pays[x["seat"]]
            w.faan += x["faan"]
        if wins and wins[0]["from"] is not None:  # once a hand, however many won on the discard
            pt["paid_by_discarder"] -= pays[wins[0]["from"]]
            w.paid -= pays[wins[0]["from"]]
        swing = sum(pays[s] * pays[s] for s in SEATS)
        for q, v in enumerate((winner is not None, winner is None, kind == "self_draw",
                               kind in ("discard", "robbing"), turns, gain, retained, total, swing)):
            w.q[q] += v
        if r == ROTATIONS - 1:
            tally.wall_done(i, w)
            if i == n - 1:
                tally.pairs_done(wall, bots)
    return tally.summary(compiled, refs, groups, seed, bots, first, hands, base)


@dataclass(frozen=True)
class Plan:
    """A simulation's arguments, checked: what any process needs to play a
    range of its walls (``play_walls``). Picklable."""

    specs: Specs                 # the presets as a worker compiles them
    refs: tuple[str, ...]        # each preset as its start records name it
    bots: tuple[str, ...]        # the bot at each seat in rotation 0
    seed: int
    fast: bool = True            # the engine plays the hands itself where the bots allow it
    bot_time_limit: float = TIME_LIMIT  # seconds a program's bot (cmd:...) has a decision
    mixes: tuple[tuple[str, ...], ...] = ()  # each further mix of bots, on the same walls
    base: int = 0                # the index of the preset the others are compared with

    def all_mixes(self) -> list[tuple[str, ...]]:
        """Every mix of bots, ``bots`` first."""
        return [self.bots, *self.mixes]


def plan(presets: Presets, bots: Bots, seed: int, base: str | None = None) -> Plan:
    """The ``Plan`` of a simulation (presets, bots and base as ``simulate``
    takes them); an ``HkcoreError`` naming a bad one."""
    check_walls(0, seed, 0)
    refs, compiled = resolve(presets)
    mixes = _check_mixes(bots, compiled[0].preset)
    texts = [record_preset(c.preset) for c in compiled]
    return Plan(specs_for(zip(refs, compiled)), tuple(texts), tuple(mixes[0]), seed,
                mixes=tuple(tuple(m) for m in mixes[1:]), base=_base_index(base, _given(refs), compiled))


def play_walls(plan: Plan, first: int, hands: int) -> SimulationSummary:
    """The summary of walls ``first`` .. ``first + hands - 1`` of ``plan``'s
    simulation (a worker's task: module level, spawn-safe)."""
    check_walls(hands, plan.seed, first)
    return _run(compile_specs(plan.specs), plan.refs, plan.all_mixes(), plan.seed, first, hands, plan.fast,
                plan.bot_time_limit, plan.base)


def shards(hands: int, jobs: int, first: int = 0) -> list[tuple[int, int]]:
    """``(first wall, walls)`` of each shard: about four a job, in order."""
    return wall_ranges(hands, min(hands, jobs * 4) if jobs > 1 else 1, first)


def wall_ranges(hands: int, n: int, first: int = 0) -> list[tuple[int, int]]:
    """``(first wall, walls)`` of ``n`` ranges of consecutive walls as even as
    can be, in order (fewer when there are fewer walls; one empty range for none)."""
    if hands == 0:
        return [(first, 0)]
    n = max(1, min(n, hands))
    size, extra = divmod(hands, n)
    out, at = [], first
    for i in range(n):
        m = size + (i < extra)
        out.append((at, m))
        at += m
    return out


def _given(refs: Sequence[str | Path | Preset]) -> list[str]:
    """The references the presets were given by, as text (a Preset by its id), in order."""
    return [r.id if isinstance(r, Preset) else str(r) for r in refs]


def simulate(presets: Presets = None, bots: Bots = "guard", *, hands: int = 100, seed: int = 0,
             jobs: int = 1, first: int = 0, fast: bool = True, bot_time_limit: float = TIME_LIMIT,
             base: str | None = None) -> SimulationSummary:
    """Play ``hands`` walls (from wall ``first``) in duplicate under each of
    ``presets`` (default, or ``"all"``: the built-in ones) with ``bots`` (one
    bot name for every seat, or four: E, S, W, N in the first rotation; or a
    list of such mixes, each played on the same walls: the summary's
    ``mixes``), and summarise them. ``base``: the preset each other is
    compared with (its id or the reference given; default the first; a
    group of another tile set compares with its own first). ``jobs``: worker processes, each playing ranges of
    walls; the summary does not depend on ``jobs``. ``fast``: where every
    seat's bot is one the engine can play itself (``fast_path``: built-in
    ``efficiency``, ``value`` or ``guard`` bots; ``value`` and ``guard`` under a preset whose shapes
    the compiled kernels know), it plays each hand in one call, making the same
    decisions; False asks every decision of the bots through ``prompts()``
    (the same summary, slower). ``bot_time_limit``: seconds a program's bot (``cmd:...``, docs/bots.md)
    has for each decision.

    >>> s = simulate(["hk-classic", "just-cards"], "simple", hands=2, seed=1)
    >>> s.presets["hk-classic"].hands, s.groups
    (8, [['hk-classic', 'just-cards']])
    """
    check_walls(hands, seed, first)
    check_jobs(jobs)
    limit = check_time_limit(bot_time_limit, "bot_time_limit")
    refs, compiled = resolve(presets)
    mixes = _check_mixes(bots, compiled[0].preset)
    at = _base_index(base, _given(refs), compiled)
    texts = [record_preset(c.preset) for c in compiled]
    parts = shards(hands, jobs, first)
    if jobs == 1 or len(parts) == 1:
        return _run(compiled, texts, mixes, seed, first, hands, fast, limit, at)
    the_plan = Plan(specs_for(zip(refs, compiled)), tuple(texts), tuple(mixes[0]), seed, fast, limit,
                    tuple(tuple(m) for m in mixes[1:]), at)
    # forked where this process runs no other thread: the workers begin with its imports, its compiled presets
    # and the core's tables (spawned, each paid about 2 CPU-s for them before its first hand)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=worker_context()) as pool:
        futures = [pool.submit(play_walls, the_plan, a, n) for a, n in parts]
        results = [f.result() for f in futures]
    return reduce(add, results)



# --------------------------------------------------------------------------
# rounds of a match: the rules that act between hands

#: the players of a round, E, S, W, N at its first hand; the bot of each is ``bots[i]``
PLAYERS = ("p1", "p2", "p3", "p4")


def check_rounds(rounds: Any, seed: Any, first: Any, max_hands: Any) -> None:
    """An ``HkcoreError`` naming ``rounds``, ``seed``, ``first`` or ``max_hands`` when it is not a match
    simulation's."""
    if type(rounds) is not int or not 0 <= rounds <= MAX_HANDS:
        raise HkcoreError(f"rounds = {shown(rounds)}: a whole number of rounds from 0 to {MAX_HANDS:,}")
    check_seed(seed)
    if type(first) is not int or not 0 <= first <= MAX_HANDS:
        raise HkcoreError(f"first = {shown(first)}: a round number from 0 to {MAX_HANDS:,}")
    if type(max_hands) is not int or not 1 <= max_hands <= 10_000:
        raise HkcoreError(f"max_hands = {shown(max_hands)}: a whole number of hands from 1 to 10,000")


def _engine_bots(bots: Sequence[str]) -> None:
    """An ``HkcoreError`` unless every bot is a built-in one the engine plays (no seed: a round is the same
    round whoever sits where)."""
    if not fast_path(bots, available_bots()):
        raise HkcoreError(f"bots = {shown(list(bots))}: built-in bots the engine plays "
                          f"({', '.join(sorted(engine_bots()))}) in a match simulation")


@dataclass(frozen=True)
class _Round:
    """One round under one preset, as the tally needs it."""

    dealers: tuple[str, ...]     # the dealer of each hand, in order
    moved: int                   # what the winners won, hand by hand
    nets: tuple[int, ...]        # each player's net over the round, p1 .. p4
    dealer_net: int              # the dealers' net, hand by hand
    cut: bool                    # stopped before the deal had passed four times

    @property
    def hands(self) -> int:
        return len(self.dealers)

    @property
    def repeated(self) -> int:
        """Hands dealt by the dealer of the hand before."""
        return sum(a == b for a, b in zip(self.dealers, self.dealers[1:]))

    @property
    def longest(self) -> int:
        """The most hands one dealer dealt in a row."""
        best = run = 0
        for j, d in enumerate(self.dealers):
            run = run + 1 if j and d == self.dealers[j - 1] else 1
            best = max(best, run)
        return best


def _play_round(c: CompiledPreset, bots: Sequence[str], seed: int, m: int, max_hands: int,
                factories: Mapping[str, Any] | None, memo: Any, params: Any) -> _Round:
    """Round ``m``: a ``Match`` under ``c``'s preset seeded from ``(seed, m)``, each player's bot playing its
    seat, until the deal has passed four times, the match ends or ``max_hands`` hands are played; the engine
    plays each hand, or with ``factories`` (``available_bots()``) the bots are asked through the prompts."""
    p = c.preset
    match = Match(p, PLAYERS, seed=wall_seed(seed, m))
    bot_of = dict(zip(PLAYERS, bots))
    dealers: list[str] = []
    nets = dict.fromkeys(PLAYERS, 0)
    moved = dealer_net = 0
    while True:
        t = match.table
        who = [bot_of[t.seats[s]] for s in SEATS]
        if factories is None:
            play_bots(t, who, [0, 0, 0, 0], detect=False, memo=memo, params=params)
        else:
            _play(t, [bot_or_program(n, p, 0, factories) for n in who], False)
        e = len(t.log) - 1
        while t.log[e]["event"] != "end_hand":
            e -= 1
        end = t.log[e]
        pays = end["delta"] if end["delta"] is not None else end["faan"]
        for s in SEATS:
            nets[t.seats[s]] += pays[s]
        moved += sum(v for v in pays.values() if v > 0)
        dealer_net += pays["E"]
        dealers.append(t.seats["E"])
        passed = t.progress.rounds_done >= 1
        if passed or end["next"] is None or len(dealers) >= max_hands:
            return _Round(tuple(dealers), moved, tuple(nets[n] for n in PLAYERS), dealer_net, not passed)
        match.sync()


class _RoundTally:
    """Plain counters for a run of rounds, turned into a ``MatchSummary`` at the end."""

    def __init__(self, compiled: Sequence[CompiledPreset], pair_keys: Sequence[tuple[int, int]]) -> None:
        measure = ["points" if c.preset.table.start_points is not None else f"{c.preset.unit} (ledger)"
                   for c in compiled]
        self.comparable = {(a, b): measure[a] == measure[b] for a, b in pair_keys}
        self.p: list[dict[str, Any]] = [
            {"rounds": 0, "hands": 0, "cut": 0, "hands_histogram": Counter(), "longest_histogram": Counter(),
             "hands_a_round": [0, 0], "longest": [0, 0], "repeated": [0] * 5, "moved": [0, 0], "swing": [0, 0],
             "dealer_net": [0] * 5} for _ in compiled]
        self.pairs: dict[tuple[int, int], dict[str, Any]] = {
            k: {"hands_a_round": [0, 0], "longest": [0, 0], "repeated": [0] * 4, "moved": [0, 0], "swing": [0, 0],
                "dealer_net": [0] * 4, "hands": 0, "alike": 0} for k in pair_keys}
        self.rounds = 0

    def add(self, played: Sequence[_Round]) -> None:
        """Every preset has played the round: its counts and the pairs' differences."""
        for r, pt in zip(played, self.p):
            pt["rounds"] += 1
            pt["hands"] += r.hands
            pt["cut"] += r.cut
            pt["hands_histogram"][r.hands] += 1
            pt["longest_histogram"][r.longest] += 1
            _sq(pt["hands_a_round"], r.hands)
            _sq(pt["longest"], r.longest)
            _ratio_sums(pt["repeated"], r.repeated, r.hands)
            _sq(pt["moved"], r.moved)
            _sq(pt["swing"], sum(v * v for v in r.nets))
            _ratio_sums(pt["dealer_net"], r.dealer_net, r.hands)
        for (a, b), acc in self.pairs.items():
            ra, rb = played[a], played[b]
            _sq(acc["hands_a_round"], ra.hands - rb.hands)
            _sq(acc["longest"], ra.longest - rb.longest)
            _cross(acc["repeated"], ra.repeated, ra.hands, rb.repeated, rb.hands)
            _sq(acc["moved"], ra.moved - rb.moved)
            _sq(acc["swing"], sum(v * v for v in ra.nets) - sum(v * v for v in rb.nets))
            _cross(acc["dealer_net"], ra.dealer_net, ra.hands, rb.dealer_net, rb.hands)
            acc["hands"] += min(ra.hands, rb.hands)
            acc["alike"] += sum(x == y for x, y in zip(ra.dealers, rb.dealers))
        self.rounds += 1

    def summary(self, compiled: Sequence[CompiledPreset], groups: list[list[int]], seed: int, bots: Sequence[str],
                first: int, rounds: int, max_hands: int, base: int) -> MatchSummary:
        n = self.rounds

        def stat(v: list[int]) -> Stat:
            return Stat(walls=n, hands=n, total=v[0], squares=v[1])

        def ratio(v: list[int]) -> Ratio:
            return Ratio(walls=n, x=v[0], y=v[1], xx=v[2], xy=v[3], yy=v[4])

        def numeric(c: Counter[int]) -> dict[str, int]:
            return {str(k): c[k] for k in sorted(c)}

        presets = {}
        for c, pt in zip(compiled, self.p):
            p = c.preset
            presets[p.id] = PresetRounds(
                unit=p.unit, pays=p.table.start_points is not None, tiles=p.tiles, name=p.name,
                rounds=pt["rounds"], hands=pt["hands"], cut=pt["cut"],
                hands_histogram=numeric(pt["hands_histogram"]), longest_histogram=numeric(pt["longest_histogram"]),
                hands_a_round=stat(pt["hands_a_round"]), longest=stat(pt["longest"]), repeated=ratio(pt["repeated"]),
                moved=stat(pt["moved"]), swing=stat(pt["swing"]), dealer_net=ratio(pt["dealer_net"]))
        ids = [c.preset.id for c in compiled]
        differences: dict[str, dict[str, PairRounds]] = {}
        for (a, b), acc in self.pairs.items():
            pa, pb = self.p[a], self.p[b]
            same = self.comparable[a, b]
            differences.setdefault(ids[a], {})[ids[b]] = PairRounds(
                hands_a_round=stat(acc["hands_a_round"]), longest=stat(acc["longest"]),
                repeated=RatioDifference(a=ratio(pa["repeated"]), b=ratio(pb["repeated"]),
                                         cross=dict(zip(CROSS, acc["repeated"]))),
                moved=stat(acc["moved"]) if same else None, swing=stat(acc["swing"]) if same else None,
                dealer_net=RatioDifference(a=ratio(pa["dealer_net"]), b=ratio(pb["dealer_net"]),
                                           cross=dict(zip(CROSS, acc["dealer_net"]))) if same else None,
                hands=acc["hands"], alike=acc["alike"])
        return MatchSummary(seed=seed, bots=list(bots), max_hands=max_hands,
                            played=[(first, first + rounds)] if rounds else [], rounds=rounds, presets=presets,
                            groups=[[ids[i] for i in g] for g in groups], base=ids[base], differences=differences)


def _run_rounds(compiled: Sequence[CompiledPreset], bots: Sequence[str], seed: int, first: int, rounds: int,
                max_hands: int, fast: bool, base: int) -> MatchSummary:
    groups = _groups(compiled)
    tally = _RoundTally(compiled, _pair_keys(groups, base))
    engine = [fast and plays(c.preset, list(bots)) for c in compiled]
    memo = new_memo() if any(engine) else None
    params = [value_params(c.preset) if engine[i] and {"value", "guard"} & set(bots) else None
              for i, c in enumerate(compiled)]
    factories = None if all(engine) else available_bots()  # looked up once: it reads the installed entry points
    for m in range(first, first + rounds):
        tally.add([_play_round(c, bots, seed, m, max_hands, None if engine[i] else factories, memo, params[i])
                   for i, c in enumerate(compiled)])
    return tally.summary(compiled, groups, seed, bots, first, rounds, max_hands, base)


def play_rounds(plan: Plan, first: int, rounds: int, max_hands: int = MAX_ROUND_HANDS) -> MatchSummary:
    """The summary of rounds ``first`` .. ``first + rounds - 1`` of ``plan``'s match simulation (a worker's
    task: module level, spawn-safe)."""
    check_rounds(rounds, plan.seed, first, max_hands)
    return _run_rounds(compile_specs(plan.specs), plan.bots, plan.seed, first, rounds, max_hands, plan.fast,
                       plan.base)


def simulate_matches(presets: Presets = None, bots: str | Sequence[str] = "guard", *, rounds: int = 100,
                     seed: int = 0, jobs: int = 1, first: int = 0, max_hands: int = MAX_ROUND_HANDS,
                     fast: bool = True, base: str | None = None) -> MatchSummary:
    """Play ``rounds`` rounds of a match (from round ``first``) in duplicate under each of ``presets``, with
    ``bots`` (one built-in engine bot for every player, or four: p1 .. p4, who sit E, S, W, N at hand 1 and keep
    their bots as the deal moves), and summarise them: what the rules that act only between hands (who keeps
    the deal, how many times in a row) do to a round. Round m is a ``Match`` seeded from ``(seed, m)`` alone,
    so hand h of round m is dealt from the same wall under every preset of one tile set; a round ends when
    the deal has passed four times (the East round), when the match ends, or after ``max_hands`` hands (a
    bound: such rounds are counted as ``cut``). ``base``, ``jobs`` and ``fast`` as for ``simulate``; the
    summary does not depend on ``jobs`` or ``fast``.

    >>> s = simulate_matches(["just-cards"], "efficiency", rounds=2, seed=1)
    >>> s.presets["just-cards"].rounds, s.presets["just-cards"].hands >= 8
    (2, True)
    """
    check_rounds(rounds, seed, first, max_hands)
    check_jobs(jobs)
    refs, compiled = resolve(presets)
    names = _check_bots(bots, compiled[0].preset)
    _engine_bots(names)
    at = _base_index(base, _given(refs), compiled)
    parts = shards(rounds, jobs, first)
    if jobs == 1 or len(parts) == 1:
        return _run_rounds(compiled, names, seed, first, rounds, max_hands, fast, at)
    texts = [record_preset(c.preset) for c in compiled]
    the_plan = Plan(specs_for(zip(refs, compiled)), tuple(texts), tuple(names), seed, fast, base=at)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=worker_context()) as pool:
        futures = [pool.submit(play_rounds, the_plan, a, n, max_hands) for a, n in parts]
        results = [f.result() for f in futures]
    return reduce(add, results)

__all__ = ["MAX_HANDS", "PLAYERS", "Bots", "Plan", "Played", "bot_seed", "check_rounds", "check_walls", "drawn",
           "fast_path", "in_step", "plan", "play_of", "play_rounds", "play_walls", "played_hands", "seating", "shards",
           "simulate", "simulate_matches", "simulation_logs", "simulation_starts", "wall_ranges", "wall_seed"]
