"""A whole hand played by efficiency and value bots in one call, without
prompts: each decision made from the engine's own counts, declared sets and
ponds (the decisions ``EfficiencyBot`` and ``ValueBot`` make through
``prompts()``/``submit()``, tests hold them equal). The compiled engine
plays it in C (``hkcore/table/players/_cloop.pyx``, on the engine's own
values, with the bots' compiled arithmetic); this module holds its pure-Python twin, the reference.

>>> from hkcore.table import Table
>>> t = Table({"event": "start", "preset": "hk-classic", "seed": 7})
>>> declined = [0, 0, 0, 0]
>>> total = play_efficiency(t, declined, memo=new_memo())
>>> t.over, total == sum(declined), t.log[-1]["event"]
(True, True, 'end_hand')
>>> t = Table({"event": "start", "preset": "hk-classic", "seed": 7})
>>> total = play_bots(t, ("value", "efficiency", "value", "efficiency"), declined, memo=new_memo(),
...                   params=value_params(t.preset))
>>> t.over, t.log[-1]["event"]
(True, 'end_hand')
"""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from hkcore.errors import TableError, shown
from hkcore.plugins.seven_pairs import kernel_pairs
from hkcore.preset import Preset
from hkcore.table.flow import engine as _engine
from hkcore.table.flow.codes import CLAIM, DISCARD, M_CHOW, M_KONG, ROB, TURN, WIN
from hkcore.table.players import _pybots, _pyvalue
from hkcore.table.players.bots import IMPLEMENTATION as _BOTS, engine_bots
from hkcore.table.players.value import IMPLEMENTATION as _VALUE
from hkcore.table.table import Table
from hkcore.tiles import SEATS

if TYPE_CHECKING:  # the memo and the parameters are the compiled bots' own types (hkcore/table/players/_cbots.pyx)
    _AwayMemo: Any = None
    _CParams: Any = None
    _CGuard: Any = None
    _cplay: Any = None
elif _engine.IMPLEMENTATION == _BOTS == _VALUE == "cython":
    try:
        from hkcore.table.players._cbots import AwayMemo as _AwayMemo
        from hkcore.table.players._cloop import play as _cplay
        from hkcore.table.players._cvalue import Guard as _CGuard, Params as _CParams
    except ImportError:  # pragma: no cover - a build without the compiled hand loop
        _cplay = None
else:
    _cplay = None

#: which hand loop ``play_efficiency`` and ``play_bots`` run: "cython" (the compiled one, in
#: hkcore/table/players/_cloop.pyx) or "python" (the twin here)
IMPLEMENTATION = "python" if _cplay is None else "cython"


def new_memo() -> Any:
    """Where a run of hands keeps the tiles-away costs its decisions work
    out (passed to each ``play_efficiency``; None on the pure engine, which
    keeps none). A value of the caller's: it changes no decision."""
    return _AwayMemo() if IMPLEMENTATION == "cython" else None


#: the bots whose decisions this loop makes (the built-in ones whose class says ``in_engine``)
_IN_ENGINE = engine_bots()


def __getattr__(name: str) -> Any:
    if name == "FAST_BOTS":
        warnings.warn("hkcore.table.players.fastplay.FAST_BOTS is deprecated: use "
                      "hkcore.table.players.bots.engine_bots()", DeprecationWarning, stacklevel=2)
        return _IN_ENGINE
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class ValueParams:
    """The value and guard bots' parameters for one preset, in the forms both loops take (made once per preset
    by ``value_params``, passed to each ``play_bots``)."""

    __slots__ = ("compiled", "guard", "guard_compiled", "plain", "preset")

    def __init__(self, preset: Preset, guard: _pyvalue.GuardParams | None = None) -> None:
        self.preset = preset
        self.plain = _pyvalue.value_params(preset)
        self.guard = _pyvalue.guard_params(preset) if guard is None else _pyvalue.check_guard_params(guard)
        fast = IMPLEMENTATION == "cython" and kernel_pairs(self.plain.shapes.extra) is not None
        self.compiled: Any = _CParams(self.plain) if fast else None
        self.guard_compiled: Any = _CGuard(self.guard) if fast else None


def value_params(preset: Preset, guard: _pyvalue.GuardParams | None = None) -> ValueParams:
    """The value and guard bots' parameters for ``preset``, for ``play_bots`` (``guard``: the guard bot's
    own, else ``_pyvalue.guard_params(preset)``)."""
    return ValueParams(preset, guard)


def plays(preset: Preset, bots: Any) -> bool:
    """Whether ``play_bots`` plays ``preset`` with these bots (names, by seat): each a fast one, and the value
    bot only where the preset has no shapes the compiled kernels lack (beyond the standard shape, thirteen
    orphans and seven pairs: on the compiled engine)."""
    if not isinstance(bots, (list, tuple)) or len(bots) != 4 or not all(isinstance(b, str) for b in bots):
        raise TableError(f"bots = {shown(bots)}: 4 bot names, by seat", "bots", bots)
    if any(b not in _IN_ENGINE for b in bots):
        return False
    return (not ({"value", "guard"} & set(bots)) or IMPLEMENTATION == "python"
            or kernel_pairs(_pyvalue.value_params(preset).shapes.extra) is not None)


def play_efficiency(t: Table, declined: list[int], *, detect: bool = True, memo: Any = None) -> int:
    """Play ``t`` to its end with the efficiency bot in every seat. With
    ``detect``, count in ``declined`` (4 counts, by seat index) the complete
    hands not won (a turn's; another seat's with a discard it was not
    offered as a win) and return their total. ``memo``: from ``new_memo()``,
    kept from hand to hand (a fresh one if None)."""
    if not isinstance(t, Table):
        raise TableError(f"table = {shown(t)}: a Table", "table", t)
    if type(declined) is not list or len(declined) != 4 or any(type(n) is not int for n in declined):
        raise TableError(f"declined = {shown(declined)}: a list of 4 whole numbers, by seat", "declined", declined)
    hide = not t.preset.table.show_concealed_kongs
    if IMPLEMENTATION == "cython":
        return int(_cplay(t, hide, detect and t.compiled.kernel_pairs is not None, declined,
                          memo if memo is not None else new_memo()))
    return play_pure(t, declined, detect=detect and t.compiled.kernel_pairs is not None)


def play_bots(t: Table, bots: Any, declined: list[int], *, detect: bool = True, memo: Any = None,
              params: ValueParams | None = None) -> int:
    """``play_efficiency`` with the bot of each seat (``bots``: 4 names, by seat index, each "efficiency",
    "value" or "guard"); ``params``: from ``value_params(t.preset)``, needed where a seat is "value" or "guard"."""
    if not isinstance(t, Table):
        raise TableError(f"table = {shown(t)}: a Table", "table", t)
    if (not isinstance(bots, (list, tuple)) or len(bots) != 4
            or any(not isinstance(b, str) or b not in _IN_ENGINE for b in bots)):
        raise TableError(f"bots = {shown(bots)}: 4 of {', '.join(sorted(_IN_ENGINE))}, by seat", "bots", bots)
    if type(declined) is not list or len(declined) != 4 or any(type(n) is not int for n in declined):
        raise TableError(f"declined = {shown(declined)}: a list of 4 whole numbers, by seat", "declined", declined)
    value = [b == "value" for b in bots]
    guard = [b == "guard" for b in bots]
    if (any(value) or any(guard)) and (not isinstance(params, ValueParams)
                       or (params.preset is not t.preset and params.preset != t.preset)):
        raise TableError(f"params = {shown(params)}: value_params(t.preset)", "params", params)
    hide = not t.preset.table.show_concealed_kongs
    detect = detect and t.compiled.kernel_pairs is not None
    round_wind = SEATS.index(t.wind)
    if IMPLEMENTATION == "cython":
        if (any(value) or any(guard)) and (params is None or params.compiled is None):
            raise TableError(f"preset {t.preset.id!r}: the value and guard bots are played inside the engine "
                             "only with the standard shape, thirteen orphans and seven pairs", "bots", bots)
        return int(_cplay(t, hide, detect, declined,
                          memo if memo is not None else new_memo(), value,
                          None if params is None else params.compiled, round_wind, guard,
                          None if params is None else params.guard_compiled))
    return play_pure(t, declined, detect=detect, value=value,
                     params=None if params is None else params.plain, round_wind=round_wind, guard=guard,
                     guard_params=None if params is None else params.guard)


def play_pure(t: Any, declined: list[int], *, detect: bool = True, value: list[bool] | None = None,
              params: _pyvalue.ValueParams | None = None, round_wind: int = 0, guard: list[bool] | None = None,
              guard_params: _pyvalue.GuardParams | None = None) -> int:
    """``play_bots`` on the pure-Python engine's values (the reference); ``value`` (``guard``): by seat,
    whether the value (guard) bot, with ``params`` (and ``guard_params``) in a round of ``round_wind``,
    plays it."""
    hide = not t.preset.table.show_concealed_kongs
    total = 0
    while not t.over:
        s = next(x for x in t._asked if t._answer[x] < 0)
        codes, tiles = t._codes[s], t._tiles[s]
        if detect and t._phase == TURN and codes[0] != WIN and t._winning_shape(s, t._counts[s]):
            declined[s] += 1
            total += 1
        if guard and guard[s]:
            k = _choose_value(t, s, hide, params, round_wind, guard_params)
        elif value and value[s]:
            k = _choose_value(t, s, hide, params, round_wind)
        else:
            k = _choose(t, s, hide)
        if not (detect and codes[k] == DISCARD):
            t._take(s, k)
            continue
        tile = tiles[k]
        cand = [False] * 4
        for o in range(4):
            if o != s:
                counts = list(t._counts[o])
                counts[tile] += 1
                cand[o] = t._winning_shape(o, counts)
        t._take(s, k)
        if t._phase == CLAIM:
            for o in t._asked:
                if WIN in t._codes[o]:
                    cand[o] = False
        for o in range(4):
            if cand[o]:
                declined[o] += 1
                total += 1
    return total


def _choose(t: Any, s: int, hide: bool) -> int:
    """The efficiency bot's choice for seat ``s`` from what its view shows."""
    counts = t._counts[s]
    seen = list(counts)
    melds = []
    for o in range(4):
        for kind, low, _source, concealed in t._melds[o]:
            if kind == M_CHOW:
                for i in (low, low + 1, low + 2):
                    seen[i] += 1
            elif o == s or not (hide and concealed):
                seen[low] += 4 if kind == M_KONG else 3
            if o == s:
                melds.append(kind * 34 + low)
        for i in t._ponds[o]:
            seen[i] += 1
    offered = t._w_tile if t._phase in (CLAIM, ROB) else -1
    if offered >= 0:
        seen[offered] += 1
    unseen = [max(0, 4 - n) for n in seen]
    return _pybots.choice(list(counts), tuple(melds), unseen, t._codes[s], t._tiles[s],
                          t._w_tile if t._phase == CLAIM else -1)


def _choose_value(t: Any, s: int, hide: bool, v: Any, round_wind: int, g: Any = None) -> int:
    """The value bot's choice for seat ``s`` from what its view shows (the values
    ``hkcore.table.players.value.values`` reads off a prompt); the guard bot's with ``g``."""
    counts = t._counts[s]
    seen = list(counts)
    melds = []
    claimed = False
    shown_sets = [(0, 0)] * 4
    dragons = [0] * 4
    ponds = []
    for o in range(4):
        n, suits = 0, 0
        for kind, low, _source, concealed in t._melds[o]:
            if not concealed:
                n += 1
                if low < 27:
                    suits |= 1 << (low // 9)
                elif low >= 31:
                    dragons[o] += 1
            if o == s:
                melds.append(kind * 34 + low)
                if not (concealed and v.kong_keeps_concealed):
                    claimed = True
            if kind == M_CHOW:
                for i in (low, low + 1, low + 2):
                    seen[i] += 1
            elif o == s or not (hide and concealed):
                seen[low] += 4 if kind == M_KONG else 3
        shown_sets[o] = (n, suits)
        for i in t._ponds[o]:
            seen[i] += 1
        ponds.append(list(t._ponds[o]))
    offered = t._w_tile if t._phase in (CLAIM, ROB) else -1
    if offered >= 0:
        seen[offered] += 1
    unseen = [max(0, 4 - n) for n in seen]
    args = (list(counts), tuple(melds), claimed, unseen, t._codes[s], t._tiles[s],
            t._w_tile if t._phase == CLAIM else -1, t.live_left(), s, round_wind,
            _pyvalue.fixed_faan(v, s, t._bonus_of(s)), shown_sets, ponds)
    if g is not None:
        codes = t._codes[s]
        faan = t._payload[s][codes.index(WIN)][0]["faan"] if t._phase == CLAIM and WIN in codes else -1
        return _pyvalue.guard_choice(v, g, *args, dragons, faan)
    return _pyvalue.choice(v, *args)
