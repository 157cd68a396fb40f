# cython: language_level=3
"""The efficiency bot's arithmetic over 34 counts, compiled: it mirrors
hkcore/table/_pybots.py (the reference) step for step on C arrays, with the
core's C tiles away; tests hold the two equal."""
from libc.string cimport memset

from hkcore.core._ccore cimport away_counts, away_each

from hkcore.table import _pybots

IMPLEMENTATION = "cython"

cdef bint IS_ORPH[34]
for _i in range(34):
    IS_ORPH[_i] = _i in (0, 8, 9, 17, 18, 26) or _i >= 27


cdef struct Hand:
    int c[34]
    int used[34]
    int unseen[34]
    int k


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
    for m in melds:
        code = m
        kind = code // 34
        t = code % 34
        if kind == 0:
            h.used[t] += 1; h.used[t + 1] += 1; h.used[t + 2] += 1
        else:
            h.used[t] += 3 if kind == 1 else 4
    return 0


cdef inline bint _near(const int *c, int i) noexcept nogil:
    cdef int low, high, j
    if c[i] or IS_ORPH[i]:
        return True
    if i < 27:
        low = i - i % 9
        high = low + 8
        for j in range(i - 2 if i - 2 > low else low, (i + 2 if i + 2 < high else high) + 1):
            if c[j]:
                return True
    return False


cdef int _gain(Hand *h, int now) except -3:
    cdef int i, total = 0
    cdef bint which[34]
    cdef int after[34]
    for i in range(34):
        which[i] = _near(h.c, i) and h.unseen[i] and h.c[i] < 4
    away_each(h.c, h.k, h.used, 1, which, after)
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
    return away_counts(h.c, h.k, h.used)


def near(counts):
    """The tiles that can bring ``counts`` nearer to a hand (see _pybots.near)."""
    cdef Hand h
    _load(&h, counts, (), None)
    return [i for i in range(34) if _near(h.c, i)]


def gain(counts, tuple melds, unseen, int now):
    """Unseen tiles that would bring ``counts`` (``now`` tiles away) nearer."""
    cdef Hand h
    _load(&h, counts, melds, unseen)
    return _gain(&h, now)


def best_discard(counts, tuple melds, unseen, choices):
    """(tiles away, -gain, tile) of the best of ``choices`` to discard from
    ``counts``: fewest tiles away, then most unseen tiles that bring the
    hand nearer, then the lowest tile."""
    cdef Hand h
    cdef int i, a, g, low = 99, best_g = 0, best_i = -1
    cdef int scored[34]
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
    away_each(h.c, h.k, h.used, -1, chosen, scored)
    for i in range(34):
        if chosen[i] and scored[i] < low:
            low = scored[i]
    if low == 99:
        raise ValueError("no choice to discard")
    for i in range(34):
        if chosen[i] and scored[i] == low:
            h.c[i] -= 1
            g = _gain(&h, low)
            h.c[i] += 1
            if best_i < 0 or g > best_g:
                best_g, best_i = g, i
    return (low, -best_g, best_i)
