# cython: language_level=3
"""The efficiency bot's arithmetic over 34 counts, compiled: it mirrors
hkcore/table/players/_pybots.py (the reference) step for step on C arrays, with the
core's C tiles away; tests hold the two equal."""
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from hkcore.core._ccore cimport SuitMemo, away_counts_memo, away_each_memo, away_swaps_shapes, away_swaps_under
from hkcore.table.flow._codes cimport ADDED, CHOW, CONCEALED, DISCARD, EXPOSED, PASS, PUNG, WIN

from hkcore.table.players import _pybots

IMPLEMENTATION = "cython"

cdef class AwayMemo:
    """Where a run of hands keeps the exact tiles-away costs of suits that
    declared sets draw on (each worked out once): owned by its caller
    (``hkcore.table.players.fastplay``), it changes no answer, only its speed."""

    def __cinit__(self):
        self.memo = <SuitMemo *>calloc(1, sizeof(SuitMemo))
        if self.memo == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.memo)

    def away(self, counts, tuple melds):
        """Tiles away of ``counts`` beside ``melds`` (as ``away``), the suits' costs kept here."""
        cdef Hand h
        _load(&h, counts, melds, None)
        h.memo = self.memo
        return away_counts_memo(h.c, h.k, h.used, h.memo)


cdef int _load(Hand *h, object counts, tuple melds, object unseen) except -1:
    cdef int i, kind, t, code
    if len(counts) != 34:
        raise ValueError(f"34 counts, not {len(counts)}")
    for i in range(34):
        h.c[i] = counts[i]
    memset(h.used, 0, sizeof(h.used))
    memset(h.unseen, 0, sizeof(h.unseen))
    if unseen is not None:
        for i in range(34):
            h.unseen[i] = unseen[i]
    h.k = len(melds)
    h.memo = NULL
    for m in melds:
        code = m
        kind = code // 34
        t = code % 34
        if kind == 0:
            h.used[t] += 1; h.used[t + 1] += 1; h.used[t + 2] += 1
        else:
            h.used[t] += 3 if kind == 1 else 4
    return 0


cdef int hand_gain(Hand *h, int now) except -3:
    cdef int i, total = 0
    cdef bint which[34]
    cdef int after[34]
    for i in range(34):
        which[i] = near_tile(h.c, i, True) and h.unseen[i] and h.c[i] < 4
    away_each_memo(h.c, h.k, h.used, 1, which, after, h.memo)
    for i in range(34):
        if which[i] and after[i] < now:
            total += h.unseen[i]
    return total


def add_counts(str text, list counts):
    """Add the tiles written in ``text`` (the notation) to the 34 ``counts``."""
    cdef Py_ssize_t n = len(text), start = 0, j
    cdef Py_UCS4 ch
    cdef int base, top
    cdef Py_ssize_t pos
    for pos in range(n):
        ch = text[pos]
        if ch >= u'0' and ch <= u'9':
            continue
        if ch == u'm':
            base, top = 0, 9
        elif ch == u'p':
            base, top = 9, 9
        elif ch == u's':
            base, top = 18, 9
        elif ch == u'z':
            base, top = 27, 7
        else:
            return _pybots.add_counts(text, counts)
        if pos == start:
            return _pybots.add_counts(text, counts)
        for j in range(start, pos):
            ch = text[j]
            if ch < u'1' or ch > <Py_UCS4>(48 + top):
                return _pybots.add_counts(text, counts)
        start = pos + 1
    if start != n:
        return _pybots.add_counts(text, counts)
    start = 0
    for pos in range(n):
        ch = text[pos]
        if ch >= u'0' and ch <= u'9':
            continue
        base = 0 if ch == u'm' else 9 if ch == u'p' else 18 if ch == u's' else 27
        for j in range(start, pos):
            counts[base + <int>(text[j]) - 49] += 1
        start = pos + 1


def away(counts, tuple melds):
    """Tiles away of concealed ``counts`` beside the declared sets ``melds``."""
    cdef Hand h
    _load(&h, counts, melds, None)
    return away_counts_memo(h.c, h.k, h.used, NULL)


def near(counts):
    """The tiles that can bring ``counts`` nearer to a hand (see _pybots.near)."""
    cdef Hand h
    _load(&h, counts, (), None)
    return [i for i in range(34) if near_tile(h.c, i, True)]


def gain(counts, tuple melds, unseen, int now):
    """Unseen tiles that would bring ``counts`` (``now`` tiles away) nearer."""
    cdef Hand h
    _load(&h, counts, melds, unseen)
    return hand_gain(&h, now)


def best_discard(counts, tuple melds, unseen, choices):
    """(tiles away, -gain, tile) of the best of ``choices`` to discard from
    ``counts``: fewest tiles away, then most unseen tiles that bring the
    hand nearer, then the lowest tile."""
    cdef Hand h
    cdef int i, low, g = 0, t = -1
    cdef bint chosen[34]
    _load(&h, counts, melds, unseen)
    memset(chosen, 0, sizeof(chosen))
    for x in choices:
        i = x
        if i < 0 or i >= 34:
            raise ValueError(f"tile index {i}")
        chosen[i] = True
    for i in range(34):
        if chosen[i] and h.c[i] < 1:
            raise ValueError(f"tile index {i}: none held to discard")
    low = hand_best_discard(&h, chosen, &g, &t)
    if t < 0:
        raise ValueError("no choice to discard")
    return (low, -g, t)


cdef int hand_best_discard(Hand *h, const bint *chosen, int *gain, int *tile) except -3:
    """Tiles away after the best discard among ``chosen`` (each held), its
    gain in ``gain`` and its tile in ``tile`` (-1: no choice). With ``gain``
    NULL, the gain is worked out only to choose between discards; with both
    NULL, not at all."""
    cdef int i, j, g, low = 99, best_g = 0, best_i = -1, ties = 0
    cdef int scored[34]
    cdef bint minus[34]
    cdef bint plus[34]
    cdef int swaps[34 * 34]
    away_each_memo(h.c, h.k, h.used, -1, chosen, scored, h.memo)
    for i in range(34):
        if chosen[i] and scored[i] < low:
            low = scored[i]
            ties = 0
            best_i = i
        if chosen[i] and scored[i] == low:
            ties += 1
    if gain == NULL and (ties == 1 or tile == NULL):
        if tile != NULL:
            tile[0] = best_i
        return low
    # the gain of every discard tied at the lowest, the hands after each discard and each draw costed at once
    for i in range(34):
        minus[i] = chosen[i] and scored[i] == low
        plus[i] = h.unseen[i] > 0 and near_tile(h.c, i, True)  # near the hand less any one tile: near the hand
    away_swaps_under(h.c, h.k, h.used, minus, plus, swaps, h.memo, low, True, 0)  # only those below low count
    best_i = -1
    for i in range(34):
        if not minus[i]:
            continue
        h.c[i] -= 1
        g = 0
        for j in range(34):
            if plus[j] and h.c[j] < 4 and swaps[i * 34 + j] < low and near_tile(h.c, j, True):
                g += h.unseen[j]
        h.c[i] += 1
        if best_i < 0 or g > best_g:
            best_g, best_i = g, i
    if gain != NULL:
        gain[0] = best_g
    if tile != NULL:
        tile[0] = best_i
    return low


cdef int _after_claim(Hand *h, int code, int i, int offered, bint want_gain) except -999:
    """Tiles away after claiming ``offered`` into the set (``code``, lowest
    tile ``i``) and, but for a kong, the best discard; with ``want_gain``,
    minus the unseen tiles that would then bring the hand nearer instead.
    ``h`` is left as it was."""
    cdef int j, a, g = 0, t = -1, n = 4 if code == EXPOSED else 3
    cdef bint which[34]
    h.c[offered] += 1
    if code == CHOW:
        for j in range(i, i + 3):
            h.c[j] -= 1
            h.used[j] += 1
    else:
        h.c[i] -= n
        h.used[i] += n
    h.k += 1
    if code == EXPOSED:
        a = away_counts_memo(h.c, h.k, h.used, h.memo)
        if want_gain:
            a = -hand_gain(h, a)
    else:
        for j in range(34):
            which[j] = h.c[j] > 0
        a = hand_best_discard(h, which, &g if want_gain else NULL, &t if want_gain else NULL)
        if want_gain:
            a = -g
    h.k -= 1
    if code == CHOW:
        for j in range(i, i + 3):
            h.c[j] += 1
            h.used[j] -= 1
    else:
        h.c[i] += n
        h.used[i] -= n
    h.c[offered] -= 1
    return a


cdef int efficiency_choice(Hand *h, int n, const int *code, const int *tile, int offered) except -3:
    """The efficiency bot's choice among the ``n`` actions of a prompt (the
    engine's codes and tiles; ``offered``: the tile on offer in a claim
    window): what ``hkcore.table.players.bots.EfficiencyBot`` decides (its twin:
    ``_pybots.choice``). ``h`` is left as it was."""
    cdef int k, i, low, g = 0, t = -1, after, now, b, best_a = 99, best_b = 0, chosen_k = 0, ties = 0
    cdef bint any_discard = False, ok
    cdef bint which[34]
    cdef int away_of[64]
    if n > 64:
        raise ValueError(f"{n} actions")
    for k in range(n):
        if code[k] == WIN:
            return k
    if n == 1:
        return 0
    memset(which, 0, sizeof(which))
    for k in range(n):
        if code[k] == DISCARD:
            which[tile[k]] = True
            any_discard = True
    if any_discard:
        ok = False  # the gain is needed only beside a kong of one's own
        for k in range(n):
            if code[k] == CONCEALED or code[k] == ADDED:
                ok = True
        low = hand_best_discard(h, which, &g if ok else NULL, &t)
        for k in range(n):  # a kong of one's own: taken when the hand, after its replacement, is no further
            i = tile[k]
            if code[k] == CONCEALED:
                h.c[i] -= 4
                h.used[i] += 4
                h.k += 1
            elif code[k] == ADDED:
                h.c[i] -= 1
                h.used[i] += 1
            else:
                continue
            after = away_counts_memo(h.c, h.k, h.used, h.memo)
            ok = after < low or (after == low and hand_gain(h, after) >= g)
            if code[k] == CONCEALED:
                h.c[i] += 4
                h.used[i] -= 4
                h.k -= 1
            else:
                h.c[i] += 1
                h.used[i] -= 1
            if ok:
                return k
        for k in range(n):
            if code[k] == DISCARD and tile[k] == t:
                return k
        raise ValueError("no discard chosen")
    now = away_counts_memo(h.c, h.k, h.used, h.memo)
    if offered >= 0:
        # a set claimed with the offered tile is no nearer than the tile taken in with every set left free (the
        # claim's completions are the free hand's): when that is not nearer than now, no claim is, so pass
        h.c[offered] += 1
        after = away_counts_memo(h.c, h.k, h.used, h.memo)
        h.c[offered] -= 1
        if after >= now:
            return 0
    # tiles away after each claim (and its best discard); the gain only to choose between the nearest
    for k in range(n):
        away_of[k] = 99
        if code[k] == EXPOSED or code[k] == PUNG or code[k] == CHOW:
            away_of[k] = _after_claim(h, code[k], tile[k], offered, False)
            if away_of[k] < best_a:
                best_a = away_of[k]
                ties = 0
            if away_of[k] == best_a:
                ties += 1
    if best_a >= now:
        return 0
    for k in range(n):
        if away_of[k] != best_a:
            continue
        if ties == 1:
            return k
        b = _after_claim(h, code[k], tile[k], offered, True)
        if chosen_k == 0 or b < best_b:
            best_b, chosen_k = b, k
    return chosen_k


def choice(counts, tuple melds, unseen, codes, tiles, int offered, AwayMemo memo=None):
    """The efficiency bot's choice among a prompt's actions (the engine's
    codes and tiles) for concealed ``counts`` beside ``melds`` (set codes)
    with ``unseen`` copies (see _pybots.choice)."""
    cdef Hand h
    cdef int n = len(codes), k
    cdef int code[32]
    cdef int tile[32]
    if n < 1 or n > 32 or len(tiles) != n:
        raise ValueError(f"{n} actions")
    _load(&h, counts, melds, unseen)
    h.memo = NULL if memo is None else memo.memo
    for k in range(n):
        code[k] = codes[k]
        tile[k] = tiles[k]
        if code[k] != WIN and code[k] != PASS and not 0 <= tile[k] < 34:
            raise ValueError(f"tile index {tile[k]}")
    return efficiency_choice(&h, n, code, tile, offered)


def away_after_swaps(counts, tuple melds, minus, plus, AwayMemo memo=None, int pairs=0):
    """``{(i, j): tiles away}`` of ``counts`` (beside ``melds``) with one
    tile i less and one j more, for i in ``minus`` (each held) and j in
    ``plus``; a pair that would hold a fifth j is left out. By the standard
    shape and thirteen orphans, and seven pairs with ``pairs`` (1; 2: a four
    of a kind counting as two pairs)."""
    cdef Hand h
    cdef bint mi[34]
    cdef bint pl[34]
    cdef int out[34 * 34]
    cdef int i, j
    _load(&h, counts, melds, None)
    h.memo = NULL if memo is None else memo.memo
    memset(mi, 0, sizeof(mi))
    memset(pl, 0, sizeof(pl))
    for x in minus:
        i = x
        if not 0 <= i < 34 or h.c[i] < 1:
            raise ValueError(f"tile index {i}: none held")
        mi[i] = True
    for x in plus:
        j = x
        if not 0 <= j < 34:
            raise ValueError(f"tile index {j}")
        pl[j] = True
    if pairs not in (0, 1, 2):
        raise ValueError(f"pairs = {pairs}: 0, 1 or 2")
    away_swaps_shapes(h.c, h.k, h.used, mi, pl, out, h.memo, True, pairs)
    return {(i, j): out[i * 34 + j] for i in range(34) if mi[i] for j in range(34)
            if pl[j] and h.c[j] + (i != j) <= 4}
