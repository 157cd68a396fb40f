"""How strong a bot is: the arena (docs/bots.md, "The arena"): one challenger bot against three
copies of a champion on duplicate walls, every wall played four times with
the challenger in each seat in turn, its figures with 95 % intervals
clustered by wall.

>>> r = arena("bga-old-style", "value", "efficiency", walls=8, seed=3)
>>> r.walls, r.hands, r.zero_sum_per_hand is None
(8, 32, True)
>>> arena("bga-old-style", "value", "value", walls=8, seed=3).distinct_hands
8
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from hkcore.batch import check_jobs, specs_for, worker_context
from hkcore.errors import HkcoreError, shown
from hkcore.preset import Preset
from hkcore.simulation.play import Plan, check_walls, play_of, played_hands, shards
from hkcore.simulation.summary import ROTATIONS, normal_interval, ratio_interval
from hkcore.summary import resolve
from hkcore.table.flow.wall import SEATS
from hkcore.table.players.external import TIME_LIMIT, bot_or_program, check_time_limit
from hkcore.table.rotation import zero_sum
from hkcore.table.start import record_preset

#: the walls an arena plays unless told
WALLS = 1000
#: the most walls one arena plays
MOST_WALLS = 10_000_000

#: one wall's tally: for the challenger's 4 seat-hands and the champions' 12, the sums of net payment, the
#: zero-sum measure, wins, deal-ins and faan won; then the draws among its 4 hands, its distinct hands, and the
#: seat-hands in which a program's bot faulted, the challenger's and the champions'
Wall = tuple[float, float, int, int, int, float, float, int, int, int, int, int, int, int]


@dataclass(frozen=True)
class Interval:
    """A mean and its 95 % interval (None below two walls)."""

    mean: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True)
class Side:
    """The figures of one side of the arena (the challenger, or the three champions together), per seat-hand."""

    net_per_hand: Interval
    zero_sum_per_hand: Interval | None
    win_rate: Interval
    deal_in_rate: Interval
    faan_per_win: Interval


@dataclass(frozen=True)
class ArenaResult:
    """What ``arena`` measured. The top-level figures are the challenger's; ``champions`` the three
    champions' per seat-hand; ``difference`` the challenger's less the champions', paired by wall."""

    preset: str
    challenger: str
    champion: str
    walls: int
    seed: int
    hands: int
    distinct_hands: int
    pays: bool
    net_per_hand: Interval
    zero_sum_per_hand: Interval | None
    win_rate: Interval
    deal_in_rate: Interval
    draw_rate: Interval
    faan_per_win: Interval
    champions: Side
    difference: dict[str, Interval | None]
    #: seat-hands in which a program's bot (``cmd:...``) faulted and the fallback bot played on
    faults: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        """The result as JSON values."""
        return asdict(self)

    def text(self) -> str:
        """The result as a small table, each figure with its interval."""
        def cell(x: Interval | None, pct: bool = False) -> str:
            if x is None or x.mean is None:
                return "-"
            def f(v: float) -> str:
                return f"{100 * v:.1f}%" if pct else f"{v:+.3f}"

            if x.low is None or x.high is None:
                return f(x.mean)
            return f"{f(x.mean)} [{f(x.low)}, {f(x.high)}]"

        c, ch, d = self, self.champions, self.difference
        unit = "points" if self.pays else "faan"
        rows = [("", f"challenger {self.challenger}", f"champions {self.champion}", "difference"),
                (f"net {unit} / hand", cell(c.net_per_hand), cell(ch.net_per_hand), cell(d["net_per_hand"]))]
        if c.zero_sum_per_hand is not None:
            rows.append(("zero-sum faan / hand", cell(c.zero_sum_per_hand), cell(ch.zero_sum_per_hand),
                         cell(d["zero_sum_per_hand"])))
        rows += [("win rate", cell(c.win_rate, True), cell(ch.win_rate, True), ""),
                 ("deal-in rate", cell(c.deal_in_rate, True), cell(ch.deal_in_rate, True), ""),
                 ("faan / win", cell(c.faan_per_win).replace("+", ""), cell(ch.faan_per_win).replace("+", ""), "")]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        lines = [f"arena: {self.preset}, {self.walls:,} walls x 4 rotations (seed {self.seed}): "
                 f"{self.hands:,} hands, {self.distinct_hands:,} distinct; draws {cell(c.draw_rate, True)}"]
        lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
        if any(self.faults.values()):
            lines.append(f"FAULTS: a program's bot faulted in {self.faults['challenger']:,} of the challenger's "
                         f"and {self.faults['champion']:,} of the champions' seat-hands (the fallback bot played "
                         "on): the figures are not the program's alone")
        lines.append("95 % intervals clustered by wall" + (
            "; zero-sum: a self-draw F from each loser, a discard F from the discarder alone" if not self.pays
            else ""))
        return "\n".join(lines)


def _interval(xs: Sequence[float]) -> Interval:
    n = len(xs)
    if n == 0:
        return Interval(None, None, None)
    found = normal_interval(n, math.fsum(xs), math.fsum(x * x for x in xs))
    return Interval(sum(xs) / n, *(found or (None, None)))


def _ratio(num: Sequence[float], den: Sequence[float]) -> Interval:
    """The ratio of sums with its interval by the linearisation over walls (a ratio estimator)."""
    total = sum(den)
    if total == 0:
        return Interval(None, None, None)
    found = ratio_interval(len(num), math.fsum(num), math.fsum(den), math.fsum(a * a for a in num),
                           math.fsum(a * b for a, b in zip(num, den)), math.fsum(b * b for b in den))
    return Interval(sum(num) / total, *(found or (None, None)))


def tally_wall(hands: Sequence[tuple[int, list[dict[str, Any]], Sequence[int]]]) -> Wall:
    """One wall's tally from its four hands: (rotation, log, faults by seat); in rotation r the challenger sits at seat
    (4 - r) % 4, where ``seating`` puts bot 0. A hand's payments are its ``delta``, or under a faan ledger
    (no delta) the faan credited to each seat."""
    ch = [0.0, 0.0, 0, 0, 0]
    cp = [0.0, 0.0, 0, 0, 0]
    draws = 0
    faults = [0, 0]
    seen = set()
    for r, log, by_seat in hands:
        seen.add(play_of(log))
        challenger = SEATS[(4 - r) % 4]
        end = next(x for x in reversed(log) if x["event"] == "end_hand")
        pays = end["delta"] is not None
        wins = [x for x in log if x["event"] == "win"]
        draws += not wins
        measure = zero_sum(wins)
        for j, s in enumerate(SEATS):
            faults[s != challenger] += by_seat[j] > 0
            side = ch if s == challenger else cp
            side[0] += end["delta"][s] if pays else end["faan"][s]
            side[1] += measure[j]
            for w in wins:
                if w["seat"] == s:
                    side[2] += 1
                    side[4] += w["faan"]
            side[3] += sum(1 for w in wins if w["from"] == s) > 0
    return (ch[0], ch[1], int(ch[2]), int(ch[3]), int(ch[4]), cp[0], cp[1], int(cp[2]), int(cp[3]), int(cp[4]),
            draws, len(seen), faults[0], faults[1])


def arena_walls(plan: Plan, first: int, walls: int) -> list[Wall]:
    """The tallies of walls ``first`` .. ``first + walls - 1`` of ``plan``'s arena (a worker's task)."""
    out: list[Wall] = []
    hands: list[tuple[int, list[dict[str, Any]], list[int]]] = []
    for _k, _i, r, _who, t, _total, _declined, faults in played_hands(plan, first, walls):
        hands.append((r, t.log, faults))
        if r == ROTATIONS - 1:
            out.append(tally_wall(hands))
            hands = []
    return out


def _check(preset: str | Path | Preset, challenger: Any, champion: Any, walls: Any, seed: Any,
           jobs: Any) -> None:
    if type(walls) is not int or not 1 <= walls <= MOST_WALLS:
        raise HkcoreError(f"walls = {shown(walls)}: a whole number of walls from 1 to {MOST_WALLS:,}")
    check_walls(0, seed, 0)
    check_jobs(jobs)
    for field, name in (("challenger", challenger), ("champion", champion)):
        if not isinstance(name, str) or not name:
            raise HkcoreError(f"{field} = {shown(name)}: a bot name (hkscore bots lists them)")
    if isinstance(preset, str) and preset == "all":
        raise HkcoreError(f"preset = {shown(preset)}: one preset (an id, a TOML path or a Preset)")


def arena(preset: str | Path | Preset, challenger: str, champion: str, *, walls: int = WALLS, seed: int = 0,
          jobs: int = 1, bot_time_limit: float = TIME_LIMIT) -> ArenaResult:
    """``challenger`` against three ``champion`` bots under ``preset`` on ``walls`` duplicate walls (each
    played in four rotations, the challenger in each seat in turn, seeded as ``simulate`` seeds them), in
    ``jobs`` processes (the result does not depend on them). ``bot_time_limit``: seconds a program's bot
    (``cmd:...``) has for each decision. Bad arguments are an HkcoreError naming the field."""
    _check(preset, challenger, champion, walls, seed, jobs)
    limit = check_time_limit(bot_time_limit, "bot_time_limit")
    refs, compiled = resolve([preset])
    c = compiled[0]
    for field, name in (("challenger", challenger), ("champion", champion)):
        try:
            bot_or_program(name, c.preset, 0)
        except HkcoreError as exc:
            raise HkcoreError(f"{field}: {exc}") from None
    bots = (challenger, champion, champion, champion)
    plan = Plan(specs_for(zip(refs, compiled)), (record_preset(c.preset),), bots, seed, bot_time_limit=limit)
    parts = shards(walls, jobs)
    if jobs == 1 or len(parts) == 1:
        tallies = arena_walls(plan, 0, walls)
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=worker_context()) as pool:
            futures = [pool.submit(arena_walls, plan, a, n) for a, n in parts]
            tallies = [x for f in futures for x in f.result()]
    return _result(c.preset, bots, walls, seed, tallies)


def _result(preset: Preset, bots: tuple[str, ...], walls: int, seed: int, tallies: list[Wall]) -> ArenaResult:
    pays = preset.payments is not None
    col = list(zip(*tallies))

    def per(i: int, n: int) -> list[float]:
        return [x / n for x in col[i]]

    ch_hands, cp_hands = ROTATIONS, 3 * ROTATIONS
    ch = Side(_interval(per(0, ch_hands)), None if pays else _interval(per(1, ch_hands)),
              _interval(per(2, ch_hands)), _interval(per(3, ch_hands)),
              _ratio([float(x) for x in col[4]], [float(x) for x in col[2]]))
    cp = Side(_interval(per(5, cp_hands)), None if pays else _interval(per(6, cp_hands)),
              _interval(per(7, cp_hands)), _interval(per(8, cp_hands)),
              _ratio([float(x) for x in col[9]], [float(x) for x in col[7]]))
    diff = {"net_per_hand": _interval([a / ch_hands - b / cp_hands for a, b in zip(col[0], col[5])]),
            "zero_sum_per_hand": None if pays else _interval([a / ch_hands - b / cp_hands
                                                              for a, b in zip(col[1], col[6])])}
    return ArenaResult(preset.id, bots[0], bots[1], walls, seed, walls * ROTATIONS, sum(col[11]), pays,
                       ch.net_per_hand, ch.zero_sum_per_hand, ch.win_rate, ch.deal_in_rate,
                       _interval(per(10, ROTATIONS)), ch.faan_per_win, cp, diff,
                       {"challenger": sum(col[12]), "champion": sum(col[13])})


__all__ = ["MOST_WALLS", "WALLS", "ArenaResult", "Interval", "Side", "arena", "arena_walls", "tally_wall"]
