"""The value bot's decision over plain values: the pure-Python reference
(its compiled twin is ``hkcore/table/players/_cvalue.pyx``; tests hold the two
equal). ``hkcore.table.players.value.ValueBot`` reads these values off a prompt;
the engine's hand loop (``hkcore.table.players.fastplay``) reads them off its own
state.

The values: the seat's concealed ``counts`` (34, the drawn tile among
them), its declared sets as set codes (``hkcore.core.meld_code``) and
whether one of them was claimed (or is a kong that does not keep the hand
concealed), the ``unseen`` copies of each tile, the prompt's actions as
the engine's codes and tiles (``hkcore/table/flow/codes.py``), the
tile on offer in a claim window (else -1), the live tiles left, the seat
and round wind (0..3), the faan the seat's bonus tiles fix (``fixed``),
and by seat the sets it shows (count, and a bit per suit their suited
tiles are of) and its pond.
"""
from __future__ import annotations

from collections.abc import Sequence
from math import inf
from typing import Any, NamedTuple

from hkcore import core
from hkcore.core import ShapeSet
from hkcore.engine import compiled_for
from hkcore.errors import TableError, shown as _shown
from hkcore.preset import Preset
from hkcore.table.flow.codes import ADDED, CHOW, CONCEALED, DISCARD, EXPOSED, PASS, PUNG, SELF_PUNG, WIN

IMPLEMENTATION = "python"

#: per tile needed, how much less a plan is worth (one more draw to make)
_PER_TILE = 0.45
#: a flush is reckoned with while at most this many concealed tiles are of other suits
_FLUSH_OFF = 5
#: per faan short of the minimum, how much less a plan is worth
_PER_FAAN_SHORT = 0.25
#: what a pair of a scoring honour is reckoned to add (the chance it becomes a pung)
_PAIR_SHARE = 0.35
#: what a self-draw is reckoned to add (the share of wins that are self-drawn)
_SELF_DRAW_SHARE = 0.35
#: a claim is taken only when it makes the position this much better
_CLAIM_MARGIN = 1.1
#: discards whose worth is within this share of the best are tied (broken by the unseen tiles that help)
_TIE = 0.999
#: discards whose worth is within this share of the best count as "of equal value" for defence
_EQUAL = 0.9
_DRAGONS = (31, 32, 33)

#: by tile: the tiles that may join it in a set or a pair (itself, and within two in its suit)
_NEAR = tuple(tuple(range(max(i - 2, i - i % 9), min(i + 2, i - i % 9 + 8) + 1)) if i < 27 else (i,)
              for i in range(34))

_CHOW_SET, _PUNG_SET, _KONG_SET = core.CHOW, core.PUNG, core.KONG


class ValueParams(NamedTuple):
    """What the patterns a plan can count are worth under one preset, read
    from its compiled ruleset by pattern id (0 where the preset lacks one),
    with its minimum and its winning shapes."""

    minimum: int
    shapes: ShapeSet
    concealed: int
    kong_keeps_concealed: bool
    self_draw: int
    no_bonus: int
    seat_flower: int
    seat_season: int
    bonus_tile: int
    dragons: tuple[int, int, int, int]
    seat_wind: int
    round_wind: int
    half_flush: int
    full_flush: int
    #: a win worth nothing still wins where there is no minimum: reckon it worth this much
    floor: float
    #: what share of the self-draw's faan a plan is reckoned to have (the guard bot reckons more)
    self_draw_share: float = _SELF_DRAW_SHARE


def value_params(preset: Preset) -> ValueParams:
    """The value bot's parameters for ``preset``."""
    if not isinstance(preset, Preset):
        raise TableError(f"preset = {_shown(preset)}: a Preset", "preset", preset)
    compiled = compiled_for(preset)
    entries = {e.id: e for e in compiled.entries}

    def worth(pid: str, count: int = 1) -> int:
        e = entries.get(pid)
        if e is None or count == 0:
            return 0
        return e.limit if e.limit is not None else e.worth(count)

    e = entries.get("concealed_hand")
    return ValueParams(
        minimum=preset.minimum, shapes=compiled.shape_set, concealed=worth("concealed_hand"),
        kong_keeps_concealed=e is None or bool(e.options.get("concealed_kong", True)),
        self_draw=worth("self_draw"), no_bonus=worth("no_bonus") if preset.bonus_tiles else 0,
        seat_flower=worth("seat_flower"), seat_season=worth("seat_season"), bonus_tile=worth("bonus_tile"),
        dragons=(worth("dragon_pung", 0), worth("dragon_pung", 1), worth("dragon_pung", 2), worth("dragon_pung", 3)),
        seat_wind=worth("seat_wind"), round_wind=worth("round_wind"), half_flush=worth("half_flush"),
        full_flush=worth("full_flush"), floor=4.0 if preset.minimum == 0 else 0.0)


def fixed_faan(v: ValueParams, seat: int, bonus: Sequence[int]) -> int:
    """The faan ``seat``'s bonus tiles (indices 34..41: 1f..4f, 1g..4g) fix: no bonus tiles, its own flower and
    season, each bonus tile."""
    fixed = 0
    if not bonus:
        fixed += v.no_bonus
    else:
        fixed += v.seat_flower * (34 + seat in bonus) + v.seat_season * (38 + seat in bonus)
        fixed += v.bonus_tile * len(bonus)
    return fixed


class _Pos:
    __slots__ = ("counts", "fixed", "live_left", "melds", "ponds", "seat", "shown", "unseen", "wind_values")

    def __init__(self, v: ValueParams, counts: list[int], melds: tuple[int, ...], unseen: Sequence[int],
                 live_left: int, seat: int, round_wind: int, fixed: int, shown: Sequence[tuple[int, int]],
                 ponds: Sequence[Sequence[int]]) -> None:
        self.counts = counts
        self.melds = melds
        self.unseen = unseen
        self.live_left = live_left
        self.seat = seat
        self.fixed = fixed
        self.shown = shown
        self.ponds = ponds
        wind = [0] * 34
        wind[27 + seat] += v.seat_wind
        wind[27 + round_wind] += v.round_wind
        self.wind_values = wind


def check_position(counts: Sequence[int], melds: Sequence[int], unseen: Sequence[int], codes: Sequence[int],
                   tiles: Sequence[int], offered: int, live_left: int, seat: int, round_wind: int,
                   shown: Sequence[tuple[int, int]], ponds: Sequence[Sequence[int]]) -> None:
    """A ``TableError`` naming the first value that no prompt of the engine's
    could give (the compiled twin reads them into fixed arrays): counts and
    unseen copies 0..4 with at most 14 tiles held, at most four sets of
    valid codes, no tile held, declared and unseen more than four times,
    ponds of tiles 0..33, each action's tile one the hand or the offer can
    make, seat and round 0..3, a live wall 0..144."""
    def bad(field: str, value: object, want: str) -> TableError:
        return TableError(f"{field} = {_shown(value)}: {want}", field, value)

    if len(counts) != 34 or any(type(n) is not int or not 0 <= n <= 4 for n in counts) or sum(counts) > 14:
        raise bad("counts", counts, "34 counts of 0..4, at most 14 tiles")
    if len(unseen) != 34 or any(type(n) is not int or not 0 <= n <= 4 for n in unseen):
        raise bad("unseen", unseen, "34 counts of 0..4")
    if len(melds) > 4 or any(type(m) is not int or not 0 <= m < 3 * 34 or (m < 34 and (m >= 27 or m % 9 > 6))
                             for m in melds):
        raise bad("melds", melds, "at most four set codes (kind * 34 + lowest tile)")
    left = [4 - n for n in counts]
    for m in melds:
        kind, t = divmod(m, 34)
        for x in ((t, t + 1, t + 2) if kind == 0 else (t,) * (3 + (kind == 2))):
            left[x] -= 1
    if min(left) < 0:
        raise bad("melds", melds, "sets that with the hand hold at most four copies of a tile")
    if any(n > left[i] for i, n in enumerate(unseen)):
        raise bad("unseen", unseen, "at most the copies of each tile neither held nor declared")
    if not (type(seat) is int and 0 <= seat < 4 and type(round_wind) is int and 0 <= round_wind < 4):
        raise bad("seat", (seat, round_wind), "seat and round wind 0..3")
    if type(live_left) is not int or not 0 <= live_left <= 144:
        raise bad("live_left", live_left, "0..144 tiles")
    if len(ponds) != 4 or any(type(i) is not int or not 0 <= i < 34 for pond in ponds for i in pond):
        raise bad("ponds", ponds, "four ponds of tiles 0..33")
    if len(shown) != 4 or any(not (isinstance(x, tuple) and len(x) == 2 and all(type(y) is int for y in x))
                              for x in shown):
        raise bad("shown", shown, "four (sets, suits) pairs")
    if type(offered) is not int or not -1 <= offered < 34:
        raise bad("offered", offered, "a tile 0..33, or -1")
    if not 1 <= len(codes) <= 64 or len(tiles) != len(codes):
        raise bad("actions", codes, "1..64 actions, a tile each")
    for code, t in zip(codes, tiles):
        if code in (PASS, WIN):
            continue
        ok = type(t) is int and 0 <= t < 34
        if ok and code == DISCARD:
            ok = counts[t] >= 1
        elif ok and code == CONCEALED:
            ok = counts[t] >= 4
        elif ok and code == ADDED:
            ok = counts[t] >= 1 and _PUNG_SET * 34 + t in melds
        elif ok and code in (PUNG, EXPOSED):
            ok = offered == t and counts[t] >= (2 if code == PUNG else 3)
        elif ok and code == CHOW:
            ok = (t < 27 and t % 9 <= 6 and t <= offered <= t + 2
                  and all(counts[j] >= 1 for j in range(t, t + 3) if j != offered))
        elif ok and code != SELF_PUNG:
            ok = False
        if not ok:
            raise bad("actions", (code, t), "an action the hand (and the tile on offer) can make")


def choice(v: ValueParams, counts: list[int], melds: tuple[int, ...], claimed: bool, unseen: Sequence[int],
           codes: Sequence[int], tiles: Sequence[int], offered: int, live_left: int, seat: int, round_wind: int,
           fixed: int, shown: Sequence[tuple[int, int]], ponds: Sequence[Sequence[int]]) -> int:
    """The value bot's choice among a prompt's actions (the engine's
    ``codes`` and ``tiles``: a set by its lowest tile): always a win when
    one is offered; on a turn the discard of the best worth (or a kong of
    one's own worth no less), on a claim the claim worth most (when it
    beats passing by the margin and may reach the minimum), else pass.
    ``shown[o]``: (sets seat o shows, a bit per suit of their suited
    tiles); ``ponds[o]``: its pond's tiles."""
    for k, code in enumerate(codes):
        if code == WIN:
            return k
    if len(codes) == 1:
        return 0
    pos = _Pos(v, list(counts), melds, unseen, live_left, seat, round_wind, fixed, shown, ponds)
    index = {tiles[k]: k for k, code in enumerate(codes) if code == DISCARD}
    if index:
        return _turn(v, pos, claimed, index, [k for k, code in enumerate(codes) if code in (CONCEALED, ADDED)],
                     codes, tiles)
    return _claim(v, pos, claimed, codes, tiles, offered)


# ------------------------------------------------------------ worth

def _plan_worth(v: ValueParams, pos: _Pos, counts: list[int], melds: tuple[int, ...], claimed: bool,
                suit: int) -> float:
    """The worth of one plan for concealed ``counts`` (13 - 3k tiles, or
    fewer: the tiles the plan keeps) beside ``melds``: the faan it is
    sure of and may gain, less for each faan short of the minimum and
    each tile still needed. ``suit`` is the flush's suit (0, 9, 18) or -1."""
    k = len(melds)
    shapes = v.shapes if suit < 0 else core.STANDARD_ONLY
    needed = core.tiles_away_of_counts(counts, melds, k, shapes) + 1
    sure = pos.fixed + (0 if claimed else v.concealed)
    maybe = v.self_draw * v.self_draw_share
    dragons = 0
    honours = False
    suits = 0
    for code in melds:
        t = code % 34
        if t >= 27:
            honours = True
            if t >= 31:
                dragons += 1
            else:
                sure += pos.wind_values[t]
        else:
            suits |= 1 << (t // 9)
    unseen = pos.unseen
    for t in range(27, 34):
        c = counts[t]
        if not c:
            continue
        honours = True
        pung = v.dragons[1] if t >= 31 else pos.wind_values[t]
        if c >= 3:
            if t >= 31:
                dragons += 1
            else:
                sure += pung
        elif c == 2 and unseen[t]:
            maybe += pung * _PAIR_SHARE
    sure += v.dragons[dragons]
    for b in (0, 9, 18):
        if any(counts[b:b + 9]):
            suits |= 1 << (b // 9)
    if suits in (1, 2, 4):
        sure += v.half_flush if honours else v.full_flush
    elif suit >= 0:
        return 0.0  # a flush plan with a declared set of another suit
    short = v.minimum - sure
    worth = sure + maybe + v.floor
    if short > 0:
        worth *= _PER_FAAN_SHORT ** (short - min(short, maybe))
    left = pos.live_left // 4 + 1
    if needed - 1 > left:
        return worth * 0.01
    return worth * _PER_TILE ** (needed - 1)


def _worth(v: ValueParams, pos: _Pos, counts: list[int], melds: tuple[int, ...], claimed: bool) -> float:
    """The best plan's worth for concealed ``counts`` (13 - 3k tiles) beside ``melds``."""
    best = _plan_worth(v, pos, counts, melds, claimed, -1)
    for b in (0, 9, 18):
        off = sum(counts) - sum(counts[b:b + 9]) - sum(counts[27:])
        if off == 0 or off > _FLUSH_OFF:
            continue  # the hand is one already (the plan above), or too far from one
        kept = [0] * 34
        kept[b:b + 9] = counts[b:b + 9]
        kept[27:] = counts[27:]
        best = max(best, _plan_worth(v, pos, kept, melds, claimed, b))
    return best


def _discards(v: ValueParams, pos: _Pos, counts: list[int], melds: tuple[int, ...], claimed: bool,
              choices: list[int]) -> list[tuple[float, int]]:
    """(worth after discarding, tile) for each of ``choices``."""
    out = []
    for i in choices:
        counts[i] -= 1
        out.append((_worth(v, pos, counts, melds, claimed), i))
        counts[i] += 1
    return out


def _gain(v: ValueParams, pos: _Pos, discard: int) -> int:
    """Unseen tiles that would bring the hand nearer after ``discard`` (the tie-break between discards of
    the same worth)."""
    counts = pos.counts
    melds, k, shapes = pos.melds, len(pos.melds), v.shapes
    counts[discard] -= 1
    away = core.tiles_away_of_counts(counts, melds, k, shapes)
    near = {j for i in range(34) if counts[i] for j in _NEAR[i]}
    if shapes.orphans and k == 0:
        near.update(core.ORPHAN_TILES)
    total = 0
    for j in near:
        if pos.unseen[j] and counts[j] < 4:
            counts[j] += 1
            if core.tiles_away_of_counts(counts, melds, k, shapes) < away:
                total += pos.unseen[j]
            counts[j] -= 1
    counts[discard] += 1
    return total


# ------------------------------------------------------------ defence

def _threats(pos: _Pos) -> list[int]:
    """The opponents whose declared sets show them close to a win: three
    sets or more, or two once the live wall is half gone; for each, the
    suit its sets keep to (a flush in the making: 0, 9 or 18) or -1, by seat
    (-2: no threat)."""
    half = pos.live_left < 40
    out = [-2] * 4
    for o in range(4):
        if o == pos.seat:
            continue
        n, suits = pos.shown[o]
        if n >= 3 or (half and n >= 2):
            out[o] = {1: 0, 2: 9, 4: 18}.get(suits, -1)
    return out


def _danger(pos: _Pos, threats: list[int], i: int) -> int:
    """How many close opponents may win on tile ``i``, as the seat sees: not one that has discarded it
    itself, nor on an honour whose other copies are all in sight, nor, for an opponent keeping to one suit,
    on a tile of another suit."""
    n = 0
    for o, suit in enumerate(threats):
        if suit == -2:
            continue
        if i in pos.ponds[o]:
            continue
        if i >= 27 and pos.unseen[i] == 0:
            continue
        if suit >= 0 and i < 27 and not suit <= i < suit + 9:
            continue
        n += 1
    return n


# ------------------------------------------------------------ decisions

def _turn(v: ValueParams, pos: _Pos, claimed: bool, index: dict[int, int], kongs: list[int],
          codes: Sequence[int], tiles: Sequence[int]) -> int:
    scored = _discards(v, pos, pos.counts, pos.melds, claimed, sorted(index))
    best = max(w for w, _ in scored)
    threats = _threats(pos)
    if any(x != -2 for x in threats):
        pool = [(w, i) for w, i in scored if w >= best * _EQUAL]
        danger = {i: _danger(pos, threats, i) for _, i in pool}
        low = min(danger.values())
        scored = [(w, i) for w, i in pool if danger[i] == low]
        best = max(w for w, _ in scored)
    top = [i for w, i in scored if w >= best * _TIE]
    tile = top[0] if len(top) == 1 else -max((_gain(v, pos, i), -i) for i in top)[1]
    for k in kongs:  # a kong of one's own: taken when the hand, after its replacement, is worth no less
        i = tiles[k]
        counts = list(pos.counts)
        code = _KONG_SET * 34 + i
        if codes[k] == ADDED:
            counts[i] -= 1
            melds = tuple(code if m == _PUNG_SET * 34 + i else m for m in pos.melds)
            after_claimed = claimed
        else:
            counts[i] -= 4
            melds = (*pos.melds, code)
            after_claimed = claimed or not v.kong_keeps_concealed
        if _worth(v, pos, counts, melds, after_claimed) >= best:
            return k
    return index[tile]


def _claim(v: ValueParams, pos: _Pos, claimed: bool, codes: Sequence[int], tiles: Sequence[int],
           offered: int) -> int:
    now = _worth(v, pos, pos.counts, pos.melds, claimed)
    best, chosen = now * _CLAIM_MARGIN, 0  # pass comes first
    for k, code in enumerate(codes):
        i = tiles[k]
        counts = list(pos.counts)
        counts[offered] += 1
        if code == CHOW:
            for j in (i, i + 1, i + 2):
                counts[j] -= 1
            meld = _CHOW_SET * 34 + i
        elif code == PUNG:
            counts[i] -= 3
            meld = _PUNG_SET * 34 + i
        elif code == EXPOSED:
            counts[i] -= 4
            meld = _KONG_SET * 34 + i
        else:
            continue
        melds = (*pos.melds, meld)
        if code == EXPOSED:
            worth = _worth(v, pos, counts, melds, True)
        else:
            worth = max(w for w, _ in _discards(v, pos, counts, melds, True, [j for j in range(34) if counts[j]]))
        if worth > best and _reaches_minimum(v, pos, counts, melds):
            best, chosen = worth, k
    return chosen


def _reaches_minimum(v: ValueParams, pos: _Pos, counts: list[int], melds: tuple[int, ...]) -> bool:
    """Whether a claimed hand of ``counts`` beside ``melds`` may still reach the minimum: with every
    pair of a scoring honour made a pung, a self-draw, and a flush where its sets allow one."""
    if v.minimum <= 0:
        return True
    best = pos.fixed + v.self_draw
    dragons = sum(1 for t in _DRAGONS if counts[t] >= 2 or any(m % 34 == t and m >= 34 for m in melds))
    best += v.dragons[dragons]
    best += sum(pos.wind_values[t] for t in range(27, 31)
                if counts[t] >= 2 or any(m % 34 == t and m >= 34 for m in melds))
    suits = {m % 34 // 9 for m in melds if m % 34 < 27}
    if len(suits) <= 1:
        best += v.half_flush
    return best >= v.minimum


def params_of(v: ValueParams) -> ValueParams:
    """``v`` as ``choice`` takes it (the compiled twin's own form there)."""
    return v


def discard_worths(v: ValueParams, counts: list[int], melds: tuple[int, ...], claimed: bool, unseen: Sequence[int],
                   live_left: int, seat: int, round_wind: int, fixed: int) -> list[tuple[float, int]]:
    """(worth after discarding, tile) for each tile held in ``counts`` (14 - 3k tiles), lowest tile first:
    what a turn's choice weighs (the twins' arithmetic, to the bit)."""
    pos = _Pos(v, list(counts), melds, unseen, live_left, seat, round_wind, fixed, [(0, 0)] * 4, [[], [], [], []])
    return _discards(v, pos, pos.counts, melds, claimed, [i for i in range(34) if counts[i]])


# ------------------------------------------------------------ the guard bot: value's attack with defence

#: P(an opponent is waiting), by the sets it shows (0..4) and its discards // 3 (0..6): measured over
#: 300 hands of four value bots under bga-old-style (docs/bots.md, "How guard defends")
_TENPAI = ((0.001, 0.027, 0.098, 0.202, 0.345, 0.437, 0.468),
           (0.0, 0.011, 0.033, 0.05, 0.102, 0.163, 0.187),
           (0.0, 0.015, 0.069, 0.131, 0.222, 0.271, 0.31),
           (0.0, 0.12, 0.26, 0.312, 0.4, 0.42, 0.541),
           (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0))
#: P(a tile is among a waiting opponent's waits), by the ways it can be waited on (bins of ``_WAYS``), for a
#: suited tile and an honour (measured likewise, 600 hands)
_WAIT_SUITED = (0.0, 0.0, 0.047, 0.067, 0.063, 0.081, 0.091, 0.096, 0.117)
_WAIT_HONOUR = (0.0, 0.002, 0.01, 0.018, 0.032, 0.032, 0.032, 0.032, 0.032)
_WAYS = (0.0, 0.5, 1.5, 3.0, 5.0, 8.0, 12.0, 18.0)
#: P(the seat wins this hand) by its tiles away after its discard (0..4) and the live wall // 16 (0..5)
_WIN_BY_AWAY = ((0.26, 0.40, 0.49, 0.55, 0.62, 0.62), (0.065, 0.16, 0.25, 0.345, 0.385, 0.41),
                (0.01, 0.067, 0.15, 0.23, 0.30, 0.36), (0.0, 0.005, 0.077, 0.16, 0.23, 0.26),
                (0.0, 0.0, 0.03, 0.085, 0.148, 0.17))
#: the faan scale the payment tables run to
_MOST_FAAN = 40
#: the share of the self-draw's faan guard's plans reckon they have under a faan ledger (value's elsewhere), as
#: measured (docs/bots.md, "How guard defends")
_LEDGER_SELF_DRAW_SHARE = 0.6
#: guard declines a discard win when a self-draw's chance times its pay beats this times the discard's; off (0):
#: declining lost to value or changed nothing (docs/bots.md, "How guard defends")
_DECLINE = 0.0
#: GuardParams' tables by faan (made from the preset, not knobs), and its whole-number knobs with their most
_TABLES = ("cost", "gain", "discard_win", "self_draw_win")
_WHOLE = {"base_faan": 1000, "fold_away": 14}


class GuardParams(NamedTuple):
    """The guard bot's defence for one preset: what dealing in and winning are worth (by the winner's faan,
    in the preset's own payments; a faan ledger reckoned as if the discarder paid for all three), and how
    readily it folds."""

    #: by faan 0.._MOST_FAAN: what the discarder pays beyond what another seat pays on a discard win
    cost: tuple[float, ...]
    #: by faan: what the seat is paid for a win (a blend of discard and self-draw wins)
    gain: tuple[float, ...]
    #: the faan an opponent's hand is reckoned at before what it shows, and the seat's own
    base_faan: int
    #: an opponent counts as a threat from this P(waiting) on
    threat: float
    #: weight of the threats against the seat's own chance when deciding to fold
    fold_weight: float
    #: folding is considered from this many tiles away on
    fold_away: int
    #: P(wait) multipliers: a tile in the opponent's own pond; against a one-suit hand, a tile of its
    #: suit, an honour, another suit
    pond: float
    flush_suit: float
    flush_honour: float
    flush_off: float
    #: a suited tile's two-sided waits count this much where the opponent has discarded that wait's other
    #: tile (three up or down: "suji")
    suji: float
    #: P(wait) multipliers of an honour: against the measured table, and in the opponent's own pond
    honour: float
    pond_honour: float
    #: the weighed defence (0: none): not folding, it discards instead of value's choice the discard that keeps
    #: the hand as near, is worth at least ``keep`` times as much and is safer, where push x its chance of
    #: winning x what a win pays x what the discard keeps (its worth and the tiles that help it against
    #: value's, at most 1) less its danger is the most
    push: float
    keep: float
    #: what share of the self-draw's faan guard's plans reckon they have (value's: 0.35; under a faan ledger 0.6):
    #: more, and it keeps to hands short of the minimum by the self-draw's faan, which only a self-draw wins and no
    #: discard deals into
    self_draw_share: float
    #: by faan: what the winner is paid on a discard win, and on a self-draw (the ledger reckoned as ``cost``)
    discard_win: tuple[float, ...]
    self_draw_win: tuple[float, ...]
    #: declining a discard win (0: never): it passes when its chance of drawing a winning tile itself before the
    #: wall ends times what that self-draw pays is more than ``decline`` times what the discard pays (GAME.md G19:
    #: a win passed by does not bar the next)
    decline: float


def guard_params(preset: Preset, **changes: Any) -> GuardParams:
    """The guard bot's parameters for ``preset`` (``changes``: numeric fields set otherwise, for tuning)."""
    if not isinstance(preset, Preset):
        raise TableError(f"preset = {_shown(preset)}: a Preset", "preset", preset)
    compiled = compiled_for(preset)
    symmetric = compiled.scheme is not None and compiled.scheme.symmetric and preset.payments is not None
    cost, gain, by_discard, by_self = [], [], [], []
    for f in range(_MOST_FAAN + 1):
        if symmetric:
            sd, d, o, _, _ = compiled.settlement.role_amounts(f)
        else:  # a ledger: the zero-sum reckoning (a self-draw F from each, a discard 3F from the discarder)
            sd, d, o = f, 3 * f, 0
        cost.append(float(d - o))
        gain.append(0.6 * (d + 2 * o) + 0.4 * 3 * sd)
        by_discard.append(float(d + 2 * o))
        by_self.append(float(3 * sd))
    g = GuardParams(cost=tuple(cost), gain=tuple(gain), base_faan=max(preset.minimum, 1) + 1, threat=0.2,
                    fold_weight=0.15, fold_away=2, pond=0.12, flush_suit=2.0,
                    flush_honour=5.0, flush_off=0.15, suji=1.0, honour=1.0, pond_honour=0.12, push=0.0, keep=0.5,
                    self_draw_share=_LEDGER_SELF_DRAW_SHARE if preset.payments is None else _SELF_DRAW_SHARE,
                    discard_win=tuple(by_discard), self_draw_win=tuple(by_self), decline=_DECLINE)
    for name, value in changes.items():
        if name not in GuardParams._fields or name in _TABLES:
            raise TableError(f"{name} = {_shown(value)}: a number field of GuardParams, 0 or more", name, value)
    return check_guard_params(g._replace(**changes))


def check_guard_params(g: Any) -> GuardParams:
    """``g`` where it is a ``GuardParams`` as ``guard_params`` makes them (every knob a finite number 0 or more;
    the tables by faan ``_MOST_FAAN + 1`` finite numbers each); else a ``TableError`` naming the field."""
    if not isinstance(g, GuardParams):
        raise TableError(f"guard = {_shown(g)}: a GuardParams (guard_params(preset))", "guard", g)
    value: Any
    for name, value in zip(GuardParams._fields, g):
        if name in _TABLES:
            if (not isinstance(value, tuple) or len(value) != _MOST_FAAN + 1
                    or any(type(x) not in (int, float) or not -inf < x < inf for x in value)):
                raise TableError(f"{name} = {_shown(value)}: {_MOST_FAAN + 1} finite numbers, by faan", name,
                                 value)
        elif name in _WHOLE:
            if type(value) is not int or not 0 <= value <= _WHOLE[name]:
                raise TableError(f"{name} = {_shown(value)}: a whole number 0..{_WHOLE[name]}", name, value)
        elif type(value) not in (int, float) or not 0 <= value < inf:
            raise TableError(f"{name} = {_shown(value)}: a number field of GuardParams, 0 or more", name, value)
    return g


def _ways(unseen: Sequence[int], i: int, below: float = 1.0, above: float = 1.0) -> int:
    """The bin (0..8) of the ways a waiting hand may wait on tile ``i``, from the copies unseen of it and
    its neighbours: the sides (the one below counted ``below`` times, the one above ``above`` times), middle,
    pairs and a single tile."""
    u = unseen
    if i >= 27:
        w = u[i] * (u[i] - 1) / 2 + u[i] * 0.5
    else:
        r = i % 9
        w = 0.0
        if r >= 2:
            w += u[i - 2] * u[i - 1] * below
        if r <= 6:
            w += u[i + 1] * u[i + 2] * above
        if 1 <= r <= 7:
            w += u[i - 1] * u[i + 1] * 0.5
        w += u[i] * (u[i] - 1) / 2 + u[i] * 0.3
    for b, top in enumerate(_WAYS):
        if w <= top:
            return b
    return len(_WAYS)


def guard_threats(v: ValueParams, g: GuardParams, seat: int, shown: Sequence[tuple[int, int]],
                  ponds: Sequence[Sequence[int]], dragons: Sequence[int]) -> list[tuple[int, float, int, float]]:
    """The opponents reckoned a threat: (seat, P(waiting), the suit its sets keep to (0, 9, 18) or -1, what
    dealing into it costs), from the sets it shows, its discards and the dragon sets it shows."""
    out = []
    for o in range(4):
        if o == seat:
            continue
        n, suits = shown[o]
        pt = _TENPAI[min(n, 4)][min(len(ponds[o]) // 3, 6)]
        if pt < g.threat:
            continue
        flush = -1
        if n >= 2 and suits in (1, 2, 4):
            flush = {1: 0, 2: 9, 4: 18}[suits]
        f = g.base_faan + (v.half_flush if flush >= 0 else 0) + v.dragons[1] * dragons[o]
        out.append((o, pt, flush, g.cost[min(max(f, 0), _MOST_FAAN)]))
    return out


def guard_danger(g: GuardParams, threats: Sequence[tuple[int, float, int, float]], unseen: Sequence[int],
                 ponds: Sequence[Sequence[int]], i: int) -> float:
    """What discarding tile ``i`` is expected to cost: over the threats, P(waiting) x P(waiting on ``i``) x
    the cost of dealing in."""
    total = 0.0
    for o, pt, flush, cost in threats:
        below = above = 1.0
        if i < 27:
            if i % 9 >= 3 and i - 3 in ponds[o]:
                below = g.suji
            if i % 9 <= 5 and i + 3 in ponds[o]:
                above = g.suji
        b = _ways(unseen, i, below, above)
        p = _WAIT_HONOUR[b] * g.honour if i >= 27 else _WAIT_SUITED[b]
        if i in ponds[o]:
            p *= g.pond_honour if i >= 27 else g.pond
        if flush >= 0:
            if i >= 27:
                p *= g.flush_honour
            elif flush <= i < flush + 9:
                p *= g.flush_suit
            else:
                p *= g.flush_off
        total += pt * p * cost
    return total


def guard_choice(v: ValueParams, g: GuardParams, counts: list[int], melds: tuple[int, ...], claimed: bool,
                 unseen: Sequence[int], codes: Sequence[int], tiles: Sequence[int], offered: int, live_left: int,
                 seat: int, round_wind: int, fixed: int, shown: Sequence[tuple[int, int]],
                 ponds: Sequence[Sequence[int]], dragons: Sequence[int], win_faan: int = -1) -> int:
    """The guard bot's choice: value's (``choice``), but for declining and folding. Offered a discard win
    (``win_faan``: its faan) it may pass it by for a likelier, dearer self-draw (``GuardParams.decline``).
    Facing a threat, with its hand at least
    ``fold_away`` tiles away and its chance of winning (by tiles away and the wall left) worth less than the
    threats' pressure, it discards the safest tile and declines claims; with ``push`` above 0, not folding,
    it may discard a safer tile than value's that costs its hand little (``GuardParams.push``).
    ``dragons[o]``: the dragon sets seat o shows; its plans reckon with ``g.self_draw_share`` of the self-draw's
    faan."""
    win_faan = check_win_faan(win_faan)
    v = v._replace(self_draw_share=g.self_draw_share)
    k = choice(v, counts, melds, claimed, unseen, codes, tiles, offered, live_left, seat, round_wind, fixed,
               shown, ponds)
    if codes[k] == WIN:
        if offered >= 0 and win_faan >= 0 and _declines(v, g, counts, melds, unseen, live_left, win_faan):
            return 0  # pass comes first
        return k
    if len(codes) == 1:
        return k
    threats = guard_threats(v, g, seat, shown, ponds, dragons)
    if not threats:
        return k
    left = min(live_left // 16, 5)
    gain = g.gain[min(g.base_faan, _MOST_FAAN)]
    pressure = 0.0
    for _, pt, _, cost in threats:
        pressure += pt * cost
    pressure *= g.fold_weight
    melds_k = len(melds)
    if codes[k] == DISCARD:
        pos = _Pos(v, list(counts), melds, unseen, live_left, seat, round_wind, fixed, shown, ponds)
        index = {tiles[j]: j for j, code in enumerate(codes) if code == DISCARD}
        scored = dict((i, w) for w, i in _discards(v, pos, pos.counts, melds, claimed, sorted(index)))
        away = {}
        for i in sorted(index):
            pos.counts[i] -= 1
            away[i] = core.tiles_away_of_counts(pos.counts, melds, melds_k, v.shapes)
            pos.counts[i] += 1
        risk = {i: guard_danger(g, threats, unseen, ponds, i) for i in sorted(index)}
        low = min(away.values())
        if low >= g.fold_away and pressure > _WIN_BY_AWAY[min(low, 4)][left] * gain:
            safest = min(sorted(index), key=lambda i: (risk[i], -scored[i]))
            return index[safest]
        c = tiles[k]
        if g.push <= 0 or scored[c] <= 0 or risk[c] <= 0:
            return k
        safer = [i for i in sorted(index)
                 if away[i] == away[c] and risk[i] < risk[c] and scored[i] >= g.keep * scored[c]]
        if not safer:
            return k
        base = _gain(v, pos, c) + 1
        worth = g.push * _WIN_BY_AWAY[min(away[c], 4)][left] * gain
        chosen, top = c, worth - risk[c]
        for i in safer:
            kept = scored[i] / scored[c] * ((_gain(v, pos, i) + 1) / base)
            e = worth * min(kept, 1.0) - risk[i]
            if e > top:
                top, chosen = e, i
        return k if chosen == c else index[chosen]
    if codes[k] in (CHOW, PUNG, EXPOSED):
        now = core.tiles_away_of_counts(list(counts), melds, melds_k, v.shapes)
        after = min(max(now - 1, 0), 4)
        if now >= g.fold_away and pressure > _WIN_BY_AWAY[after][left] * gain:
            return 0  # pass comes first
    return k


def check_win_faan(win_faan: Any) -> int:
    """``win_faan`` as guard weighs it: -1 (no discard win offered), or the win's faan, more than the payment
    tables' ``_MOST_FAAN`` counted as that; a ``TableError`` naming it where it is no whole number -1 or more."""
    if type(win_faan) is not int or win_faan < -1:
        raise TableError(f"win_faan = {_shown(win_faan)}: a whole number of faan, or -1 (no win offered)",
                         "win_faan", win_faan)
    return min(win_faan, _MOST_FAAN)


def _declines(v: ValueParams, g: GuardParams, counts: list[int], melds: tuple[int, ...], unseen: Sequence[int],
              live_left: int, faan: int) -> bool:
    """Whether to pass by a discard win worth ``faan`` (0.._MOST_FAAN): the chance of drawing one of the unseen
    winning tiles in the seat's share of the live wall, times what that self-draw pays, against ``g.decline``
    times the discard's pay."""
    if g.decline <= 0:
        return False
    outs = sum(unseen[i] for i in core.waits_of_counts(list(counts), melds, len(melds), v.shapes))
    total = sum(unseen)
    if outs == 0 or total == 0:
        return False
    chance = 1.0 - (1.0 - outs / total) ** (live_left // 4)
    return chance * g.self_draw_win[min(max(faan + v.self_draw, 0), _MOST_FAAN)] > g.decline * g.discard_win[faan]


def guard_params_of(g: GuardParams) -> GuardParams:
    """``g`` as ``guard_choice`` takes it (the compiled twin's own form there)."""
    return g
