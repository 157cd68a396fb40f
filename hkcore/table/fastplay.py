"""A whole hand played by efficiency bots in one call, without prompts:
each decision made from the engine's own counts, declared sets and ponds
(the decisions ``EfficiencyBot`` makes through ``prompts()``/``submit()``,
tests hold them equal). The compiled engine plays it in C
(``Engine.play_efficiency``, with the bots' compiled arithmetic); this
module holds its pure-Python twin, the reference.

>>> from hkcore.table import Table
>>> t = Table({"event": "start", "preset": "hk-classic", "seed": 7})
>>> declined = [0, 0, 0, 0]
>>> total = play_efficiency(t, declined, memo=new_memo())
>>> t.over, total == sum(declined), t.log[-1]["event"]
(True, True, 'end_hand')
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hkcore.errors import TableError, shown
from hkcore.table import _pybots, engine as _engine
from hkcore.table.bots import IMPLEMENTATION as _BOTS
from hkcore.table.table import Table

#: which hand loop ``play_efficiency`` runs: "cython" (the compiled engine's) or "python" (the twin here)
IMPLEMENTATION = "cython" if _engine.IMPLEMENTATION == "cython" and _BOTS == "cython" else "python"

if TYPE_CHECKING:  # the memo is the compiled bots' own type (hkcore/table/_cbots.pyx)
    _AwayMemo: Any = None
elif IMPLEMENTATION == "cython":
    from hkcore.table._cbots import AwayMemo as _AwayMemo


def new_memo() -> Any:
    """Where a run of hands keeps the tiles-away costs its decisions work
    out (passed to each ``play_efficiency``; None on the pure engine, which
    keeps none). A value of the caller's: it changes no decision."""
    return _AwayMemo() if IMPLEMENTATION == "cython" else None


#: the bots whose decisions this loop makes (by their names in ``hkcore.table.bots.builtin_bots()``)
FAST_BOTS = frozenset({"efficiency"})

_CLAIM, _ROB, _TURN = 2, 3, 0
_M_CHOW, _M_KONG = 0, 2


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
        return int(t.play_efficiency(hide, detect and not t.compiled.extra_shapes, declined,  # type: ignore[attr-defined]
                                     memo if memo is not None else new_memo()))
    return play_pure(t, declined, detect=detect and not t.compiled.extra_shapes)


def play_pure(t: Any, declined: list[int], *, detect: bool = True) -> int:
    """``play_efficiency`` on the pure-Python engine's values (the reference)."""
    hide = not t.preset.table.show_concealed_kongs
    total = 0
    while not t.over:
        s = next(x for x in t.asked if t.answer[x] < 0)
        codes, tiles = t.codes[s], t.tiles[s]
        if detect and t.phase == _TURN and codes[0] != _pybots.WIN and t.winning_shape(s, t.counts[s]):
            declined[s] += 1
            total += 1
        k = _choose(t, s, hide)
        if not (detect and codes[k] == _pybots.DISCARD):
            t.step(s, k)
            continue
        tile = tiles[k]
        cand = [False] * 4
        for o in range(4):
            if o != s:
                counts = list(t.counts[o])
                counts[tile] += 1
                cand[o] = t.winning_shape(o, counts)
        t.step(s, k)
        if t.phase == _CLAIM:
            for o in t.asked:
                if _pybots.WIN in t.codes[o]:
                    cand[o] = False
        for o in range(4):
            if cand[o]:
                declined[o] += 1
                total += 1
    return total


def _choose(t: Any, s: int, hide: bool) -> int:
    """The efficiency bot's choice for seat ``s`` from what its view shows."""
    counts = t.counts[s]
    seen = list(counts)
    melds = []
    for o in range(4):
        for kind, low, _source, concealed in t.melds[o]:
            if kind == _M_CHOW:
                for i in (low, low + 1, low + 2):
                    seen[i] += 1
            elif o == s or not (hide and concealed):
                seen[low] += 4 if kind == _M_KONG else 3
            if o == s:
                melds.append(kind * 34 + low)
        for i in t.ponds[o]:
            seen[i] += 1
    offered = t.w_tile if t.phase in (_CLAIM, _ROB) else -1
    if offered >= 0:
        seen[offered] += 1
    unseen = [max(0, 4 - n) for n in seen]
    return _pybots.choice(list(counts), tuple(melds), unseen, t.codes[s], t.tiles[s],
                          t.w_tile if t.phase == _CLAIM else -1)
