# cython: language_level=3
"""The value bot's decision over plain values, compiled: it mirrors
hkcore/table/players/_pyvalue.py (the reference) step for step on C arrays, with the
core's C tiles away; the same float operations in the same order (C
doubles, ``pow`` as Python's ``**``), so the same decisions. Tests hold the
two equal."""
from libc.math cimport pow
from libc.string cimport memcpy, memset

from hkcore.core._ccore cimport away_each_shapes, away_shapes_memo, away_swaps_shapes
from hkcore.table.players._cbots cimport AwayMemo, near_tile
from hkcore.table.flow._codes cimport ADDED, CHOW, CONCEALED, DISCARD, EXPOSED, PUNG, WIN
from hkcore.table.flow._codes cimport PASS as PASS_CODE

from hkcore.plugins.seven_pairs import kernel_pairs
from hkcore.table.players._pyvalue import check_position, check_win_faan

IMPLEMENTATION = "cython"

DEF PER_TILE = 0.45
DEF FLUSH_OFF = 5
DEF PER_FAAN_SHORT = 0.25
DEF PAIR_SHARE = 0.35
DEF CLAIM_MARGIN = 1.1
DEF TIE = 0.999
DEF EQUAL = 0.9

#: 0.45 ** n for the tiles needed (pow's own answers, worked out once)
cdef double PER_TILE_POW[24]
for _i in range(24):
    PER_TILE_POW[_i] = pow(PER_TILE, <double>_i)

cdef class Params:
    """The value bot's parameters for one preset (``_pyvalue.ValueParams``) as a C struct."""

    def __init__(self, v):
        cdef int i
        pairs = kernel_pairs(v.shapes.extra)
        if pairs is None:
            raise ValueError("the compiled value bot knows the standard shape, thirteen orphans and seven pairs only")
        self.p.minimum = v.minimum
        self.p.orphans = v.shapes.orphans
        self.p.pairs = pairs
        self.p.concealed = v.concealed
        self.p.kong_keeps = v.kong_keeps_concealed
        self.p.self_draw = v.self_draw
        self.p.no_bonus = v.no_bonus
        self.p.seat_flower = v.seat_flower
        self.p.seat_season = v.seat_season
        self.p.bonus_tile = v.bonus_tile
        for i in range(4):
            self.p.dragons[i] = v.dragons[i]
        self.p.seat_wind = v.seat_wind
        self.p.round_wind = v.round_wind
        self.p.half_flush = v.half_flush
        self.p.full_flush = v.full_flush
        self.p.floor = v.floor
        self.p.self_draw_share = v.self_draw_share
        self.plain = v

    def __reduce__(self):
        return Params, (self.plain,)


def params_of(v):
    """``v`` (a ``_pyvalue.ValueParams``) as ``choice`` takes it."""
    return Params(v)


cdef void vpos_winds(const VParams *v, VPos *p, int round_wind) noexcept nogil:
    """The faan of an honour pung of each tile for ``p.seat`` in the round of ``round_wind``."""
    memset(p.wind, 0, sizeof(p.wind))
    p.wind[27 + p.seat] += v.seat_wind
    p.wind[27 + round_wind] += v.round_wind


cdef int value_fixed(const VParams *v, int seat, const int *bonus, int nbonus) noexcept nogil:
    """The faan ``seat``'s ``nbonus`` bonus tiles (indices 34..41) fix (``_pyvalue.fixed_faan``)."""
    cdef int fixed = 0, j
    cdef bint flower = False, season = False
    if nbonus == 0:
        fixed += v.no_bonus
    else:
        for j in range(nbonus):
            if bonus[j] == 34 + seat:
                flower = True
            elif bonus[j] == 38 + seat:
                season = True
        fixed += v.seat_flower * flower + v.seat_season * season
        fixed += v.bonus_tile * nbonus
    return fixed


cdef inline void _used_of(const int *melds, int k, int *used) noexcept nogil:
    cdef int j, t, kind
    memset(used, 0, 34 * sizeof(int))
    for j in range(k):
        kind = melds[j] // 34
        t = melds[j] % 34
        if kind == 0:
            used[t] += 1
            used[t + 1] += 1
            used[t + 2] += 1
        else:
            used[t] += 3 if kind == 1 else 4


# ------------------------------------------------------------ worth

cdef double _plan_worth(const VParams *v, const VPos *p, const int *counts, int k, const int *melds,
                        bint claimed, int suit, int needed) noexcept nogil:
    """``_pyvalue._plan_worth`` with the tiles needed given (tiles away + 1)."""
    cdef int sure = p.fixed + (0 if claimed else v.concealed)
    cdef double maybe = v.self_draw * v.self_draw_share
    cdef int dragons = 0, suits = 0, t, j, c, pung, b, short, left
    cdef bint honours = False
    cdef double worth
    for j in range(k):
        t = melds[j] % 34
        if t >= 27:
            honours = True
            if t >= 31:
                dragons += 1
            else:
                sure += p.wind[t]
        else:
            suits |= 1 << (t // 9)
    for t in range(27, 34):
        c = counts[t]
        if not c:
            continue
        honours = True
        pung = v.dragons[1] if t >= 31 else p.wind[t]
        if c >= 3:
            if t >= 31:
                dragons += 1
            else:
                sure += pung
        elif c == 2 and p.unseen[t]:
            maybe += pung * PAIR_SHARE
    sure += v.dragons[dragons]
    for b in range(0, 27, 9):
        for j in range(b, b + 9):
            if counts[j]:
                suits |= 1 << (b // 9)
                break
    if suits == 1 or suits == 2 or suits == 4:
        sure += v.half_flush if honours else v.full_flush
    elif suit >= 0:
        return 0.0
    short = v.minimum - sure
    worth = sure + maybe + v.floor
    if short > 0 and maybe < short:  # (Python: short - min(short, maybe); 0.25 ** 0 is 1.0)
        worth *= pow(PER_FAAN_SHORT, short - maybe)
    left = (p.live_left // 4 if p.live_left >= 0 else -((3 - p.live_left) // 4)) + 1  # Python's floor division
    if needed - 1 > left:
        return worth * 0.01
    if 0 <= needed - 1 < 24:
        return worth * PER_TILE_POW[needed - 1]
    return worth * pow(PER_TILE, <double>(needed - 1))


cdef inline bint _flush_kept(const int *counts, int b, int *kept) noexcept nogil:
    """The tiles a flush plan in suit ``b`` keeps, and whether it is reckoned with (1 to 5 tiles off)."""
    cdef int j, off = 0
    for j in range(27):
        if not b <= j < b + 9:
            off += counts[j]
    if off == 0 or off > FLUSH_OFF:
        return False
    memset(kept, 0, 34 * sizeof(int))
    memcpy(kept + b, counts + b, 9 * sizeof(int))
    memcpy(kept + 27, counts + 27, 7 * sizeof(int))
    return True


cdef double _worth(const VParams *v, VPos *p, const int *counts, int k, const int *used, const int *melds,
                   bint claimed) except -1.0:
    """``_pyvalue._worth``: the best plan's worth for concealed ``counts`` beside ``melds``."""
    cdef double best, w
    cdef int b
    cdef int kept[34]
    best = _plan_worth(v, p, counts, k, melds, claimed, -1,
                       away_shapes_memo(counts, k, used, v.orphans, p.memo, v.pairs) + 1)
    for b in range(0, 27, 9):
        if not _flush_kept(counts, b, kept):
            continue
        w = _plan_worth(v, p, kept, k, melds, claimed, b, away_shapes_memo(kept, k, used, False, p.memo, 0) + 1)
        if w > best:
            best = w
    return best


cdef int _discards(const VParams *v, VPos *p, int *counts, int k, const int *used, const int *melds,
                   bint claimed, const bint *which, double *out, int *plain) except -1:
    """``out[i]``: the worth after discarding i, for each i with ``which[i]`` (each held), and in ``plain[i]``
    the tiles away after it (the preset's shapes). The plain plan of every discard is costed at once; a
    flush plan's kept tiles change only for discards of its suit or the honours (costed at once), the others
    share one worth."""
    cdef int i, j, b, s, off
    cdef int kept[34]
    cdef int flush_away[34]
    cdef double flush[3][34]
    cdef double shared
    cdef bint any_off
    cdef bint mine[34]
    cdef double best
    away_each_shapes(counts, k, used, -1, which, plain, p.memo, v.orphans, v.pairs)
    for s in range(3):
        b = 9 * s
        off = 0
        for j in range(27):
            if not b <= j < b + 9:
                off += counts[j]
        # discards of the suit or the honours leave ``off`` tiles off it; the others one less
        memset(kept, 0, sizeof(kept))
        memcpy(kept + b, counts + b, 9 * sizeof(int))
        memcpy(kept + 27, counts + 27, 7 * sizeof(int))
        if 0 < off <= FLUSH_OFF:
            for i in range(34):
                mine[i] = which[i] and (i >= 27 or b <= i < b + 9)
            away_each_shapes(kept, k, used, -1, mine, flush_away, p.memo, False, 0)
            for i in range(34):
                if mine[i]:
                    kept[i] -= 1
                    flush[s][i] = _plan_worth(v, p, kept, k, melds, claimed, b, flush_away[i] + 1)
                    kept[i] += 1
        any_off = False
        for i in range(27):
            if which[i] and not b <= i < b + 9:
                any_off = True
        if any_off and 0 < off - 1 <= FLUSH_OFF:
            shared = _plan_worth(v, p, kept, k, melds, claimed, b,
                                 away_shapes_memo(kept, k, used, False, p.memo, 0) + 1)
            for i in range(27):
                if which[i] and not b <= i < b + 9:
                    flush[s][i] = shared
        for i in range(34):
            if which[i] and not ((i >= 27 or b <= i < b + 9) and 0 < off <= FLUSH_OFF) and not (
                    i < 27 and not b <= i < b + 9 and 0 < off - 1 <= FLUSH_OFF):
                flush[s][i] = -1.0  # no flush plan in suit b after this discard
    for i in range(34):
        if not which[i]:
            continue
        counts[i] -= 1
        best = _plan_worth(v, p, counts, k, melds, claimed, -1, plain[i] + 1)
        counts[i] += 1
        for s in range(3):
            if flush[s][i] > best:
                best = flush[s][i]
        out[i] = best
    return 0


cdef int _gains(const VParams *v, VPos *p, const bint *minus, const int *plain, int *gain) except -1:
    """``gain[i]`` (``_pyvalue._gain``) for each i with ``minus[i]``: the unseen tiles that would bring the
    hand nearer after discarding i (``plain[i]`` tiles away then), all costed at once."""
    cdef int *c = p.c
    cdef int i, j
    cdef bint orph = v.orphans and p.k == 0
    cdef bint plus[34]
    cdef int swaps[34 * 34]
    for j in range(34):
        plus[j] = p.unseen[j] > 0 and near_tile(c, j, orph)  # near the hand less any one tile: near the hand
    away_swaps_shapes(c, p.k, p.used, minus, plus, swaps, p.memo, v.orphans, v.pairs)
    for i in range(34):
        if not minus[i]:
            continue
        c[i] -= 1
        gain[i] = 0
        for j in range(34):
            if plus[j] and c[j] < 4 and swaps[i * 34 + j] < plain[i] and near_tile(c, j, orph):
                gain[i] += p.unseen[j]
        c[i] += 1
    return 0


# ------------------------------------------------------------ decisions

cdef int _turn(const VParams *v, VPos *p, int n, const int *code, const int *tile) except -3:
    cdef int i, j, o, kk, t, g, low = 99, best_g = -1, chosen = -1, ntop = 0
    cdef bint which[34]
    cdef bint pool[34]
    cdef int danger[34]
    cdef int threat[4]
    cdef double scored[34]
    cdef int plain[34]
    cdef int gains[34]
    cdef double best = 0.0
    cdef bint any_threat = False, first = True
    cdef int counts[34]
    cdef int used[34]
    cdef int melds[4]
    cdef int k2
    cdef bint claimed2
    memset(which, 0, sizeof(which))
    for kk in range(n):
        if code[kk] == DISCARD:
            which[tile[kk]] = True
    _discards(v, p, p.c, p.k, p.used, p.melds, p.claimed, which, scored, plain)
    for i in range(34):
        if which[i] and (first or scored[i] > best):
            best = scored[i]
            first = False
    for o in range(4):
        threat[o] = -2
        if o == p.seat:
            continue
        if p.shown_n[o] >= 3 or (p.live_left < 40 and p.shown_n[o] >= 2):
            threat[o] = (0 if p.shown_suits[o] == 1 else 9 if p.shown_suits[o] == 2
                         else 18 if p.shown_suits[o] == 4 else -1)
            any_threat = True
    memcpy(pool, which, sizeof(pool))
    if any_threat:
        for i in range(34):
            if not pool[i]:
                continue
            if not scored[i] >= best * EQUAL:
                pool[i] = False
                continue
            danger[i] = 0
            for o in range(4):
                if threat[o] == -2 or p.pond[o][i]:
                    continue
                if i >= 27 and p.unseen[i] == 0:
                    continue
                if threat[o] >= 0 and i < 27 and not threat[o] <= i < threat[o] + 9:
                    continue
                danger[i] += 1
            if danger[i] < low:
                low = danger[i]
        first = True
        for i in range(34):
            if pool[i] and danger[i] != low:
                pool[i] = False
            if pool[i] and (first or scored[i] > best):
                best = scored[i]
                first = False
    for i in range(34):
        if pool[i] and scored[i] >= best * TIE:
            ntop += 1
            chosen = i
        else:
            pool[i] = False
    if ntop > 1:
        chosen = -1
        _gains(v, p, pool, plain, gains)
        for i in range(34):  # the most gain; of equal gains the lowest tile
            if pool[i] and gains[i] > best_g:
                best_g, chosen = gains[i], i
    for kk in range(n):  # a kong of one's own: taken when the hand, after its replacement, is worth no less
        if code[kk] != CONCEALED and code[kk] != ADDED:
            continue
        t = tile[kk]
        memcpy(counts, p.c, sizeof(counts))
        memcpy(melds, p.melds, sizeof(melds))
        k2 = p.k
        if code[kk] == ADDED:
            counts[t] -= 1
            for j in range(k2):
                if melds[j] == 34 + t:
                    melds[j] = 2 * 34 + t
            claimed2 = p.claimed
        else:
            counts[t] -= 4
            melds[k2] = 2 * 34 + t
            k2 += 1
            claimed2 = p.claimed or not v.kong_keeps
        _used_of(melds, k2, used)
        if _worth(v, p, counts, k2, used, melds, claimed2) >= best:
            return kk
    for kk in range(n - 1, -1, -1):
        if code[kk] == DISCARD and tile[kk] == chosen:
            return kk
    raise ValueError("no discard chosen")


cdef bint _reaches_minimum(const VParams *v, const VPos *p, const int *counts, int k,
                           const int *melds) noexcept nogil:
    cdef int best, dragons = 0, t, j, suits = 0, nsuits = 0
    cdef bint held
    if v.minimum <= 0:
        return True
    best = p.fixed + v.self_draw
    for t in range(27, 34):
        held = counts[t] >= 2
        for j in range(k):
            if melds[j] % 34 == t and melds[j] >= 34:
                held = True
        if held:
            if t >= 31:
                dragons += 1
            else:
                best += p.wind[t]
    best += v.dragons[dragons]
    for j in range(k):
        t = melds[j] % 34
        if t < 27:
            suits |= 1 << (t // 9)
    if suits == 0 or suits == 1 or suits == 2 or suits == 4:
        best += v.half_flush
    return best >= v.minimum


cdef int _claim(const VParams *v, VPos *p, int n, const int *code, const int *tile, int offered) except -3:
    cdef double now, best, w
    cdef int kk, i, j, chosen = 0, k2
    cdef int counts[34]
    cdef int used[34]
    cdef int melds[5]
    cdef bint which[34]
    cdef double after[34]
    cdef int plain[34]
    cdef bint first
    now = _worth(v, p, p.c, p.k, p.used, p.melds, p.claimed)
    best = now * CLAIM_MARGIN
    for kk in range(n):
        i = tile[kk]
        if code[kk] != CHOW and code[kk] != PUNG and code[kk] != EXPOSED:
            continue
        memcpy(counts, p.c, sizeof(counts))
        memcpy(used, p.used, sizeof(used))
        memcpy(melds, p.melds, 4 * sizeof(int))
        counts[offered] += 1
        if code[kk] == CHOW:
            for j in range(i, i + 3):
                counts[j] -= 1
                used[j] += 1
            melds[p.k] = i
        elif code[kk] == PUNG:
            counts[i] -= 3
            used[i] += 3
            melds[p.k] = 34 + i
        else:
            counts[i] -= 4
            used[i] += 4
            melds[p.k] = 2 * 34 + i
        k2 = p.k + 1
        if code[kk] == EXPOSED:
            w = _worth(v, p, counts, k2, used, melds, True)
        else:
            for j in range(34):
                which[j] = counts[j] > 0
            _discards(v, p, counts, k2, used, melds, True, which, after, plain)
            first = True
            for j in range(34):
                if which[j] and (first or after[j] > w):
                    w = after[j]
                    first = False
        if w > best and _reaches_minimum(v, p, counts, k2, melds):
            best, chosen = w, kk
    return chosen


cdef int value_choice(const VParams *v, VPos *p, int n, const int *code, const int *tile, int offered) except -3:
    """The value bot's choice among the ``n`` actions of a prompt (the
    engine's codes and tiles; ``offered``: the tile on offer in a claim
    window): what ``_pyvalue.choice`` decides. ``p`` is left as it was."""
    cdef int kk
    for kk in range(n):
        if code[kk] == WIN:
            return kk
    if n == 1:
        return 0
    for kk in range(n):
        if code[kk] == DISCARD:
            return _turn(v, p, n, code, tile)
    return _claim(v, p, n, code, tile, offered)


cdef int _load(VPos *p, Params params, counts, tuple melds, bint claimed, unseen, int live_left, int seat,
               int round_wind, int fixed) except -1:
    """``p`` set from values ``check_position`` has passed (no ponds or shown sets yet, no memo)."""
    cdef int i
    for i in range(34):
        p.c[i] = counts[i]
        p.unseen[i] = unseen[i]
    p.k = len(melds)
    for i in range(p.k):
        p.melds[i] = melds[i]
    _used_of(p.melds, p.k, p.used)
    p.claimed = claimed
    p.live_left = live_left
    p.seat = seat
    p.fixed = fixed
    memset(p.pond, 0, sizeof(p.pond))
    memset(p.npond, 0, sizeof(p.npond))
    memset(p.shown_dragons, 0, sizeof(p.shown_dragons))
    p.win_faan = -1
    p.memo = NULL
    vpos_winds(&params.p, p, round_wind)
    return 0


def choice(Params params, counts, tuple melds, bint claimed, unseen, codes, tiles, int offered, int live_left,
           int seat, int round_wind, int fixed, shown, ponds, AwayMemo memo=None):
    """``_pyvalue.choice`` (which see), compiled."""
    cdef VPos p
    cdef int n = len(codes), kk, i, o
    cdef int code[64]
    cdef int tile[64]
    check_position(counts, melds, unseen, codes, tiles, offered, live_left, seat, round_wind, shown, ponds)
    _load(&p, params, counts, melds, claimed, unseen, live_left, seat, round_wind, fixed)
    for o in range(4):
        p.shown_n[o], p.shown_suits[o] = shown[o]
        for i in ponds[o]:
            p.pond[o][i] = True
    p.memo = NULL if memo is None else memo.memo
    for kk in range(n):
        code[kk] = codes[kk]
        tile[kk] = tiles[kk]
    return value_choice(&params.p, &p, n, code, tile, offered)


def discard_worths(Params params, counts, tuple melds, bint claimed, unseen, int live_left, int seat,
                   int round_wind, int fixed):
    """``_pyvalue.discard_worths`` (which see), compiled."""
    cdef VPos p
    cdef int i
    cdef bint which[34]
    cdef double out[34]
    cdef int plain[34]
    check_position(counts, melds, unseen, [PASS_CODE], [-1], -1, live_left, seat, round_wind, [(0, 0)] * 4,
                   [[], [], [], []])
    _load(&p, params, counts, melds, claimed, unseen, live_left, seat, round_wind, fixed)
    for i in range(34):
        which[i] = p.c[i] > 0
    _discards(&params.p, &p, p.c, p.k, p.used, p.melds, claimed, which, out, plain)
    return [(out[i], i) for i in range(34) if which[i]]


# ------------------------------------------------------------ the guard bot (``_pyvalue.guard_choice``)

cdef double TENPAI[5][7]
cdef double WAIT_SUITED[9]
cdef double WAIT_HONOUR[9]
cdef double WAYS[8]
cdef double WIN_BY_AWAY[5][6]

def _tables():
    from hkcore.table.players import _pyvalue as pv
    cdef int i, j
    for i in range(5):
        for j in range(7):
            TENPAI[i][j] = pv._TENPAI[i][j]
    for i in range(9):
        WAIT_SUITED[i] = pv._WAIT_SUITED[i]
        WAIT_HONOUR[i] = pv._WAIT_HONOUR[i]
    for i in range(8):
        WAYS[i] = pv._WAYS[i]
    for i in range(5):
        for j in range(6):
            WIN_BY_AWAY[i][j] = pv._WIN_BY_AWAY[i][j]
_tables()


cdef class Guard:
    """The guard bot's parameters for one preset (``_pyvalue.GuardParams``) as a C struct."""

    def __init__(self, g):
        cdef int f
        if any(len(t) != 41 for t in (g.cost, g.gain, g.discard_win, g.self_draw_win)):
            raise ValueError("cost, gain, discard_win and self_draw_win: 41 values, by faan")
        for f in range(41):
            self.g.cost[f] = g.cost[f]
            self.g.gain[f] = g.gain[f]
            self.g.discard_win[f] = g.discard_win[f]
            self.g.self_draw_win[f] = g.self_draw_win[f]
        self.g.decline = g.decline
        self.g.base_faan = g.base_faan
        self.g.threat = g.threat
        self.g.fold_weight = g.fold_weight
        self.g.fold_away = g.fold_away
        self.g.pond = g.pond
        self.g.flush_suit = g.flush_suit
        self.g.flush_honour = g.flush_honour
        self.g.flush_off = g.flush_off
        self.g.suji = g.suji
        self.g.honour = g.honour
        self.g.pond_honour = g.pond_honour
        self.g.push = g.push
        self.g.keep = g.keep
        self.g.self_draw_share = g.self_draw_share
        self.plain = g

    def __reduce__(self):
        return Guard, (self.plain,)


def guard_params_of(g):
    """``g`` (a ``_pyvalue.GuardParams``) as ``guard_choice`` takes it."""
    return Guard(g)


cdef int _ways(const int *u, int i, double below, double above) noexcept nogil:
    cdef double w
    cdef int r, b
    if i >= 27:
        w = <double>(u[i] * (u[i] - 1)) / 2.0 + u[i] * 0.5
    else:
        r = i % 9
        w = 0.0
        if r >= 2:
            w += (u[i - 2] * u[i - 1]) * below
        if r <= 6:
            w += (u[i + 1] * u[i + 2]) * above
        if 1 <= r <= 7:
            w += u[i - 1] * u[i + 1] * 0.5
        w += <double>(u[i] * (u[i] - 1)) / 2.0 + u[i] * 0.3
    for b in range(8):
        if w <= WAYS[b]:
            return b
    return 8


cdef int _threats(const VParams *v, const GParams *g, const VPos *p, int *who, double *pt, int *flush,
                  double *cost) noexcept nogil:
    """``_pyvalue.guard_threats`` into arrays; their number."""
    cdef int o, n, suits, f, d, m = 0
    cdef double t
    for o in range(4):
        if o == p.seat:
            continue
        n = p.shown_n[o]
        suits = p.shown_suits[o]
        d = p.npond[o] // 3
        t = TENPAI[n if n < 4 else 4][d if d < 6 else 6]
        if t < g.threat:
            continue
        flush[m] = -1
        if n >= 2 and (suits == 1 or suits == 2 or suits == 4):
            flush[m] = 0 if suits == 1 else 9 if suits == 2 else 18
        f = g.base_faan + (v.half_flush if flush[m] >= 0 else 0) + v.dragons[1] * p.shown_dragons[o]
        if f < 0:
            f = 0
        if f > 40:
            f = 40
        who[m] = o
        pt[m] = t
        cost[m] = g.cost[f]
        m += 1
    return m


cdef double _danger(const GParams *g, int m, const int *who, const double *pt, const int *flush,
                    const double *cost, const VPos *p, int i) noexcept nogil:
    """``_pyvalue.guard_danger``."""
    cdef int b, j
    cdef double total = 0.0, q, below, above
    for j in range(m):
        below = 1.0
        above = 1.0
        if i < 27:
            if i % 9 >= 3 and p.pond[who[j]][i - 3]:
                below = g.suji
            if i % 9 <= 5 and p.pond[who[j]][i + 3]:
                above = g.suji
        b = _ways(p.unseen, i, below, above)
        q = WAIT_HONOUR[b] * g.honour if i >= 27 else WAIT_SUITED[b]
        if p.pond[who[j]][i]:
            q *= g.pond_honour if i >= 27 else g.pond
        if flush[j] >= 0:
            if i >= 27:
                q *= g.flush_honour
            elif flush[j] <= i < flush[j] + 9:
                q *= g.flush_suit
            else:
                q *= g.flush_off
        total += pt[j] * q * cost[j]
    return total


cdef int guard_decide(const VParams *vp, const GParams *g, VPos *p, int n, const int *code, const int *tile,
                      int offered) except -3:
    """The guard bot's choice (``_pyvalue.guard_choice``); ``p`` is left as it was."""
    cdef VParams own = vp[0]
    own.self_draw_share = g.self_draw_share
    cdef const VParams *v = &own
    cdef int k = value_choice(v, p, n, code, tile, offered)
    cdef int who[3]
    cdef int flush[3]
    cdef double pt[3]
    cdef double cost[3]
    cdef int m, left, j, i, low, safest, now, after, c, chosen
    cdef double gain, pressure = 0.0, worth, top, e, kept, base
    cdef bint safer[34]
    cdef bint any_safer
    cdef int helps[34]
    cdef bint which[34]
    cdef double scored[34]
    cdef int plain[34]
    cdef double risk[34]
    if code[k] == WIN:
        if offered >= 0 and p.win_faan >= 0 and _declines(v, g, p):
            return 0  # pass comes first
        return k
    if n == 1:
        return k
    m = _threats(v, g, p, who, pt, flush, cost)
    if m == 0:
        return k
    left = p.live_left // 16
    if left > 5:
        left = 5
    gain = g.gain[g.base_faan if g.base_faan < 40 else 40]
    for j in range(m):
        pressure += pt[j] * cost[j]
    pressure *= g.fold_weight
    if code[k] == DISCARD:
        memset(which, 0, sizeof(which))
        for j in range(n):
            if code[j] == DISCARD:
                which[tile[j]] = True
        _discards(v, p, p.c, p.k, p.used, p.melds, p.claimed, which, scored, plain)
        low = 99
        for i in range(34):
            if which[i]:
                risk[i] = _danger(g, m, who, pt, flush, cost, p, i)
                if plain[i] < low:
                    low = plain[i]
        if low >= g.fold_away and pressure > WIN_BY_AWAY[low if low < 4 else 4][left] * gain:
            safest = -1
            for i in range(34):
                if which[i] and (safest < 0 or risk[i] < risk[safest]
                                 or (risk[i] == risk[safest] and scored[i] > scored[safest])):
                    safest = i
            return _discard_of(n, code, tile, safest)
        c = tile[k]
        if g.push <= 0 or scored[c] <= 0 or risk[c] <= 0:
            return k
        any_safer = False
        for i in range(34):
            safer[i] = (which[i] and plain[i] == plain[c] and risk[i] < risk[c]
                        and scored[i] >= g.keep * scored[c])
            if safer[i]:
                any_safer = True
        if not any_safer:
            return k
        safer[c] = True
        _gains(v, p, safer, plain, helps)
        base = helps[c] + 1
        worth = g.push * WIN_BY_AWAY[plain[c] if plain[c] < 4 else 4][left] * gain
        chosen = c
        top = worth - risk[c]
        for i in range(34):
            if safer[i] and i != c:
                kept = scored[i] / scored[c] * ((helps[i] + 1) / base)
                e = worth * (kept if kept <= 1.0 else 1.0) - risk[i]
                if e > top:
                    top = e
                    chosen = i
        if chosen == c:
            return k
        return _discard_of(n, code, tile, chosen)
    if code[k] == CHOW or code[k] == PUNG or code[k] == EXPOSED:
        now = away_shapes_memo(p.c, p.k, p.used, v.orphans, p.memo, v.pairs)
        after = now - 1
        if after < 0:
            after = 0
        if after > 4:
            after = 4
        if now >= g.fold_away and pressure > WIN_BY_AWAY[after][left] * gain:
            return 0
    return k


cdef bint _declines(const VParams *v, const GParams *g, VPos *p) except -1:
    """``_pyvalue._declines`` for the discard win of ``p.win_faan``; ``p`` is left as it was."""
    cdef int i, outs = 0, total = 0, f, d
    cdef double chance
    if g.decline <= 0:
        return False
    for i in range(34):
        total += p.unseen[i]
        if p.unseen[i] > 0:
            p.c[i] += 1
            if away_shapes_memo(p.c, p.k, p.used, v.orphans, p.memo, v.pairs) < 0:
                outs += p.unseen[i]
            p.c[i] -= 1
    if outs == 0 or total == 0:
        return False
    chance = 1.0 - pow(1.0 - <double>outs / total, p.live_left // 4)
    d = p.win_faan if p.win_faan < 40 else 40
    f = d + v.self_draw
    if f < 0:
        f = 0
    elif f > 40:
        f = 40
    return chance * g.self_draw_win[f] > g.decline * g.discard_win[d]


cdef int _discard_of(int n, const int *code, const int *tile, int i) except -3:
    cdef int kk
    for kk in range(n):
        if code[kk] == DISCARD and tile[kk] == i:
            return kk
    raise ValueError("no such discard")


def guard_choice(Params params, Guard guard, counts, tuple melds, bint claimed, unseen, codes, tiles, int offered,
                 int live_left, int seat, int round_wind, int fixed, shown, ponds, dragons, win_faan=-1,
                 AwayMemo memo=None):
    """``_pyvalue.guard_choice`` (which see), compiled."""
    cdef VPos p
    cdef int n = len(codes), kk, i, o
    cdef int code[64]
    cdef int tile[64]
    check_position(counts, melds, unseen, codes, tiles, offered, live_left, seat, round_wind, shown, ponds)
    if len(dragons) != 4 or any(type(x) is not int or not 0 <= x <= 4 for x in dragons):
        raise ValueError("dragons: four counts 0..4")
    _load(&p, params, counts, melds, claimed, unseen, live_left, seat, round_wind, fixed)
    for o in range(4):
        p.shown_n[o], p.shown_suits[o] = shown[o]
        p.npond[o] = len(ponds[o])
        p.shown_dragons[o] = dragons[o]
        for i in ponds[o]:
            p.pond[o][i] = True
    p.win_faan = check_win_faan(win_faan)
    p.memo = NULL if memo is None else memo.memo
    for kk in range(n):
        code[kk] = codes[kk]
        tile[kk] = tiles[kk]
    return guard_decide(&params.p, &guard.g, &p, n, code, tile, offered)
