# cython: language_level=3, auto_pickle=False
"""The bots' hand loop inside the compiled engine: a hand played to its end
by efficiency and value bots, each decision made in C from the engine's own
values (declared in hkcore/table/flow/_cengine.pxd) by the bots' compiled
choices (``_cbots``, ``_cvalue``). Its pure twin is
``hkcore.table.players.fastplay.play_pure``; tests/test_fastplay.py holds
both to the decisions ``EfficiencyBot`` and ``ValueBot`` make through
``prompts()``. The engine knows nothing of it.
"""
from libc.string cimport memset

from hkcore.table.flow._cengine cimport Engine
from hkcore.table.flow._codes cimport CLAIM, DISCARD, M_CHOW, M_KONG, ROB, TURN, WIN
from hkcore.table.players._cbots cimport AwayMemo, Hand, efficiency_choice
from hkcore.table.players._cvalue cimport Guard, Params, VPos, guard_decide, value_choice, value_fixed, vpos_winds

from hkcore.errors import TableError, shown

IMPLEMENTATION = "cython"


def play(Engine e, hide, detect, declined, memo, value=None, params=None, round_wind=0, guard=None,
         guard_params=None):
    """Play the hand of ``e`` (a table on the compiled engine) to its end with the efficiency bot in every seat
    (or, where ``value[s]`` is true, the value bot with ``params`` in a
    round of ``round_wind``), each decision made here from the engine's
    own counts (what ``EfficiencyBot`` or ``ValueBot`` decides through
    ``prompts()``, for the first seat still to answer); ``hide``: other
    seats' concealed kongs are not seen. With ``detect``, count in
    ``declined`` (by seat) the complete hands not won: a turn's, and
    another seat's with a discard it was not offered as a win (as
    hkcore.simulation.play does). Where ``guard[s]`` is true the guard bot plays seat s, with ``params`` and
    ``guard_params``. Returns their total (the pure twin: ``hkcore.table.players.fastplay``)."""
    if type(declined) is not list or len(declined) != 4 or any(type(n) is not int for n in declined):
        raise TableError(f"declined = {shown(declined)}: a list of 4 whole numbers, by seat", "declined",
                         declined)
    if value is not None and (not isinstance(value, (list, tuple)) or len(value) != 4):
        raise TableError(f"value = {shown(value)}: 4 flags, by seat", "value", value)
    if type(round_wind) is not int or not 0 <= round_wind < 4:
        raise TableError(f"round_wind = {shown(round_wind)}: 0..3", "round_wind", round_wind)
    if not isinstance(memo, AwayMemo):
        raise TableError(f"memo = {shown(memo)}: from hkcore.table.players.fastplay.new_memo()", "memo", memo)
    if params is not None and not isinstance(params, Params):
        raise TableError(f"params = {shown(params)}: from hkcore.table.players.fastplay.value_params()", "params", params)
    if guard is not None and (not isinstance(guard, (list, tuple)) or len(guard) != 4):
        raise TableError(f"guard = {shown(guard)}: 4 flags, by seat", "guard", guard)
    if guard_params is not None and not isinstance(guard_params, Guard):
        raise TableError(f"guard_params = {shown(guard_params)}: from hkcore.table.players.fastplay.value_params()",
                         "guard_params", guard_params)
    return _play_bots(e, bool(hide), bool(detect), declined, memo, value, params, round_wind, guard, guard_params)

cdef int _play_bots(Engine e, bint hide, bint detect, list declined, AwayMemo memo, value, Params params,
                    int round_wind, guard, Guard guard_params) except -1:
    cdef int j, k, o, s, t, total = 0
    cdef bint cand[4]
    cdef bint by_value[4]
    cdef bint by_guard[4]
    for s in range(4):
        by_value[s] = value is not None and bool(value[s])
        by_guard[s] = guard is not None and bool(guard[s])
        if (by_value[s] or by_guard[s]) and params is None:
            raise TableError("params = None: the value bot's params are needed", "params", params)
        if by_guard[s] and guard_params is None:
            raise TableError("guard_params = None: the guard bot's params are needed", "guard_params", guard_params)
    while not e.over:
        s = e._to_answer()
        if s < 0:
            raise RuntimeError("no seat to answer in an open hand")
        if detect and e.phase == TURN and e.code[s][0] != WIN and e._complete(s, e.counts[s]):
            declined[s] += 1
            total += 1
        if by_guard[s]:
            k = _value(e, s, hide, memo, params, round_wind, guard_params)
        elif by_value[s]:
            k = _value(e, s, hide, memo, params, round_wind, None)
        else:
            k = _efficiency(e, s, hide, memo)
        if not (detect and e.code[s][k] == DISCARD):
            e._step(s, k)
            continue
        t = e.atile[s][k]
        for o in range(4):
            cand[o] = False
            if o != s:
                e.counts[o][t] += 1
                cand[o] = e._complete(o, e.counts[o])
                e.counts[o][t] -= 1
        e._step(s, k)
        if e.phase == CLAIM:
            for j in range(e.nasked):
                o = e.asked[j]
                for k in range(e.ncodes[o]):
                    if e.code[o][k] == WIN:
                        cand[o] = False
        for o in range(4):
            if cand[o]:
                declined[o] += 1
                total += 1
    return total

cdef int _efficiency(Engine e, int s, bint hide, AwayMemo memo) except -3:
    """The efficiency bot's choice for ``s`` from what its view shows."""
    cdef Hand h
    cdef int i, j, o, low, n
    cdef int seen[34]
    for i in range(34):
        h.c[i] = e.counts[s][i]
        h.used[i] = 0
        seen[i] = e.counts[s][i]
    h.k = e.nmeld[s]
    h.memo = memo.memo
    for o in range(4):
        for j in range(e.nmeld[o]):
            low = e.mlow[o][j]
            if e.mkind[o][j] == M_CHOW:
                for i in range(low, low + 3):
                    seen[i] += 1
                    if o == s:
                        h.used[i] += 1
                continue
            n = 4 if e.mkind[o][j] == M_KONG else 3
            if o == s:
                h.used[low] += n
                seen[low] += n
            elif not (hide and e.mconc[o][j]):
                seen[low] += n
        for j in range(e.npond[o]):
            seen[e.pond[o][j]] += 1
    if e.w_tile >= 0 and (e.phase == CLAIM or e.phase == ROB):
        seen[e.w_tile] += 1
    for i in range(34):
        h.unseen[i] = 4 - seen[i] if seen[i] < 4 else 0
    return efficiency_choice(&h, e.ncodes[s], e.code[s], e.atile[s],
                             e.w_tile if e.phase == CLAIM else -1)

cdef int _value(Engine e, int s, bint hide, AwayMemo memo, Params params, int round_wind, Guard guard) except -3:
    """The value bot's choice for ``s`` from what its view shows (the values
    ``hkcore.table.players.value.values`` reads off a prompt); the guard bot's with ``guard``."""
    cdef VPos p
    cdef int i, j, o, low, n, kind
    cdef int seen[34]
    for i in range(34):
        p.c[i] = e.counts[s][i]
        p.used[i] = 0
        seen[i] = e.counts[s][i]
    p.k = e.nmeld[s]
    p.claimed = False
    p.memo = memo.memo
    memset(p.pond, 0, sizeof(p.pond))
    for o in range(4):
        p.shown_n[o] = 0
        p.shown_suits[o] = 0
        p.shown_dragons[o] = 0
        p.npond[o] = e.npond[o]
        for j in range(e.nmeld[o]):
            low = e.mlow[o][j]
            kind = e.mkind[o][j]
            if not e.mconc[o][j]:
                p.shown_n[o] += 1
                if low < 27:
                    p.shown_suits[o] |= 1 << (low // 9)
                elif low >= 31:
                    p.shown_dragons[o] += 1
            if o == s:
                p.melds[j] = kind * 34 + low
                if not (e.mconc[o][j] and params.p.kong_keeps):
                    p.claimed = True
            if kind == M_CHOW:
                for i in range(low, low + 3):
                    seen[i] += 1
                    if o == s:
                        p.used[i] += 1
                continue
            n = 4 if kind == M_KONG else 3
            if o == s:
                p.used[low] += n
                seen[low] += n
            elif not (hide and e.mconc[o][j]):
                seen[low] += n
        for j in range(e.npond[o]):
            seen[e.pond[o][j]] += 1
            p.pond[o][e.pond[o][j]] = True
    if e.w_tile >= 0 and (e.phase == CLAIM or e.phase == ROB):
        seen[e.w_tile] += 1
    for i in range(34):
        p.unseen[i] = 4 - seen[i] if seen[i] < 4 else 0
    p.live_left = e._live()
    p.seat = s
    p.fixed = value_fixed(&params.p, s, e.bonus[s], e.nbonus[s])
    vpos_winds(&params.p, &p, round_wind)
    if guard is not None:
        p.win_faan = -1
        if e.phase == CLAIM:
            for j in range(e.ncodes[s]):
                if e.code[s][j] == WIN:
                    p.win_faan = e.payload[s][j][0]["faan"]
        return guard_decide(&params.p, &guard.g, &p, e.ncodes[s], e.code[s], e.atile[s],
                            e.w_tile if e.phase == CLAIM else -1)
    return value_choice(&params.p, &p, e.ncodes[s], e.code[s], e.atile[s],
                        e.w_tile if e.phase == CLAIM else -1)


cdef int efficiency_index(Engine e, int s, bint hide, AwayMemo memo) except -3:
    """The efficiency bot's choice (an index into ``s``'s open prompt's actions)."""
    return _efficiency(e, s, hide, memo)


cdef int value_index(Engine e, int s, bint hide, AwayMemo memo, Params params, int round_wind, Guard guard) except -3:
    """The value bot's choice (an index into ``s``'s open prompt's actions); the guard bot's with ``guard``."""
    return _value(e, s, hide, memo, params, round_wind, guard)
