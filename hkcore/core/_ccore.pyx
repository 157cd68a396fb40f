# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled decomposition core.

Each numbered suit is looked up by its count vector read as a base-5 number
(5**9 keys).  Two tables are built from the sets themselves, not from hands:

* the decomposition table, at import: every way to lay 0..4 chows/pungs and
  at most one pair into one suit, grouped by the count vector they make;
* the distance table, on the first ``tiles_away`` call: for every count
  vector and every (sets m, pair p), the fewest tiles to add so that the
  suit holds m sets and p pairs with no tile used more than four times.

Suits whose tiles are also used by declared sets (fewer than four copies
left) are costed by a small exact dynamic programme instead of the table.
See hkcore.core._codes for the meaning of readings and set codes.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE, PyList_New, PyList_SET_ITEM
from cpython.sequence cimport PySequence_Fast_GET_SIZE, PySequence_Fast_ITEMS
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_New, PyTuple_SET_ITEM
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

import functools

from hkcore.core import _shapeset
from hkcore.core._normalize import normalize as _normalize
from hkcore.tiles import TILES as _TILES

IMPLEMENTATION = "cython"

cdef enum:
    NKEYS = 1953125        # 5 ** 9
    MAXDEC = 65536
    NB = 10                # (m, p) slots: m * 2 + p
    INF = 99
    NEED_FULL = 0
    NEED_WAIT = 1
    NEED_ANY = 2
    ORPHANS_CODE = 102

cdef int POW5[10]
cdef int K_FULL[15]        # k for n = 14 - 3k concealed tiles, else -1
cdef int K_WAIT[15]        # k for n = 13 - 3k
cdef int ORPH[13]
cdef bint IS_ORPH[34]
# the honours' (sets, pairs) costs when no honour is declared in part: by how many kinds hold 0, 1, 2 and
# 3 or more copies, n0 + 8 * n1 + 64 * n2 + 512 * n3 (kinds declared whole cost nothing and give nothing)
cdef unsigned char HON[4096][10]
cdef int HON_STEP[4]

# decomposition table: for a key, DEC_N[key] decompositions starting at DEC_FIRST[key]
cdef int *DEC_FIRST = NULL
cdef unsigned char *DEC_N = NULL
ctypedef struct Dec:
    signed char pair       # 0..8 within the suit, or -1
    unsigned char nsets
    unsigned char sets[4]  # local codes kind * 34 + i, ascending
cdef Dec *DECS = NULL
cdef int NDECS = 0

# distance table, built on first use under a lock and published complete:
# DIST[key * NB + m * 2 + p]
cdef unsigned char *DIST = NULL

cdef extern from *:
    """
    static inline void *hk_load_acquire(void **p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void hk_store_release(void **p, void *v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    """
    void *hk_load_acquire(void **p) noexcept nogil
    void hk_store_release(void **p, void *v) noexcept nogil

import threading as _threading
_DIST_LOCK = _threading.Lock()

cdef object TILE_OBJ = tuple(_TILES[:34])
cdef object _SMALL_INTS = (0, 1, 2, 3, 4)
cdef PyObject *SMALL[5]
for _i in range(5):
    SMALL[_i] = <PyObject *>_SMALL_INTS[_i]
# CPython keeps its small ints in one static array; when 0..4 sit at an even
# stride, a count is read from a list item by pointer difference alone.
# (Elsewhere only the object for 0 matches: limit 0, shift 0.)
cdef size_t SMALL_STRIDE = <size_t>((<char *>SMALL[1]) - (<char *>SMALL[0]))
cdef int SMALL_SHIFT = -1
cdef size_t SMALL_LIMIT = 0
for _i in range(1, 12):
    if SMALL_STRIDE == (<size_t>1) << _i:
        SMALL_SHIFT = _i
for _i in range(5):
    if <size_t>((<char *>SMALL[_i]) - (<char *>SMALL[0])) != _i * SMALL_STRIDE:
        SMALL_SHIFT = -1
if SMALL_SHIFT > 0:
    SMALL_LIMIT = 4 * SMALL_STRIDE
else:
    SMALL_SHIFT = 0
    SMALL_STRIDE = 1

# the int objects readings are made of: tile indices and set codes 0..135
cdef object _CODE_INTS = tuple(range(136))
cdef PyObject *CODE_INT[136]
for _i in range(136):
    CODE_INT[_i] = <PyObject *>_CODE_INTS[_i]


# ---------------------------------------------------------------- table build

cdef int _enum_sets(int first_type, int nsets, int *cnt, unsigned char *sets,
                    int mode, unsigned short *zbits) except -1:
    """Walk every multiset of up to four sets (set types ascending) in a suit.

    Set type 0..6 = chow starting at i, 7..15 = pung of i - 7.  At each node
    every pair choice is emitted.  mode 0 counts decompositions per key,
    mode 1 fills them in, mode 2 marks (m, p) target bits in zbits.
    """
    cdef int key = 0, i, t, p
    cdef Dec *d
    for i in range(9):
        key += cnt[i] * POW5[i]
    for p in range(-1, 9):
        if p >= 0:
            if cnt[p] + 2 > 4:
                continue
            cnt[p] += 2
        t = key + (2 * POW5[p] if p >= 0 else 0)
        if mode == 0:
            DEC_N[t] += 1
        elif mode == 1:
            d = &DECS[DEC_FIRST[t] + DEC_N[t]]
            DEC_N[t] += 1
            d.pair = p
            d.nsets = nsets
            for i in range(nsets):
                d.sets[i] = sets[i]
        else:
            zbits[t] |= <unsigned short>(1 << (nsets * 2 + (1 if p >= 0 else 0)))
        if p >= 0:
            cnt[p] -= 2
    if nsets == 4:
        return 0
    for t in range(first_type, 16):
        if t < 7:
            if cnt[t] == 4 or cnt[t + 1] == 4 or cnt[t + 2] == 4:
                continue
            cnt[t] += 1; cnt[t + 1] += 1; cnt[t + 2] += 1
            sets[nsets] = t
        else:
            if cnt[t - 7] > 1:
                continue
            cnt[t - 7] += 3
            sets[nsets] = 34 + (t - 7)
        _enum_sets(t, nsets + 1, cnt, sets, mode, zbits)
        if t < 7:
            cnt[t] -= 1; cnt[t + 1] -= 1; cnt[t + 2] -= 1
        else:
            cnt[t - 7] -= 3
    return 0


cdef int _build_decompositions() except -1:
    global DEC_FIRST, DEC_N, DECS, NDECS
    cdef int cnt[9]
    cdef unsigned char sets[4]
    cdef int key, total = 0
    DEC_FIRST = <int *>malloc(NKEYS * sizeof(int))
    DEC_N = <unsigned char *>calloc(NKEYS, sizeof(unsigned char))
    if DEC_FIRST == NULL or DEC_N == NULL:
        raise MemoryError()
    memset(cnt, 0, sizeof(cnt))
    _enum_sets(0, 0, cnt, sets, 0, NULL)
    for key in range(NKEYS):
        DEC_FIRST[key] = total
        total += DEC_N[key]
    NDECS = total
    DECS = <Dec *>malloc(total * sizeof(Dec))
    if DECS == NULL:
        raise MemoryError()
    memset(DEC_N, 0, NKEYS)
    _enum_sets(0, 0, cnt, sets, 1, NULL)
    return 0


cdef int _build_distances() except -1:
    """DIST[key][m, p]: 0 where the suit already holds m sets and p pairs,
    else 1 + the best over adding one more tile (keys above it first)."""
    global DIST
    cdef unsigned short *z = <unsigned short *>calloc(NKEYS, sizeof(unsigned short))
    cdef unsigned char *dist = <unsigned char *>malloc(NKEYS * NB)
    cdef int cnt[9]
    cdef unsigned char sets[4]
    cdef int key, i, b, k2
    cdef int dig[9]
    cdef unsigned char best[NB]
    cdef unsigned char *row
    cdef unsigned short bits
    if z == NULL or dist == NULL:
        free(z); free(dist)
        raise MemoryError()
    memset(cnt, 0, sizeof(cnt))
    _enum_sets(0, 0, cnt, sets, 2, z)
    # a vector holds a target when it or a vector one tile smaller does
    memset(dig, 0, sizeof(dig))
    for key in range(NKEYS):
        bits = z[key]
        for i in range(9):
            if dig[i] > 0:
                bits |= z[key - POW5[i]]
        z[key] = bits
        i = 0
        while i < 9:
            dig[i] += 1
            if dig[i] < 5:
                break
            dig[i] = 0
            i += 1
    for i in range(9):
        dig[i] = 4
    key = NKEYS - 1
    while key >= 0:
        memset(best, INF, NB)
        for i in range(9):
            if dig[i] < 4:
                row = dist + (key + POW5[i]) * NB
                for b in range(NB):
                    if row[b] < best[b]:
                        best[b] = row[b]
        bits = z[key]
        row = dist + key * NB
        for b in range(NB):
            row[b] = 0 if (bits >> b) & 1 else best[b] + 1
        i = 0
        while i < 9:
            dig[i] -= 1
            if dig[i] >= 0:
                break
            dig[i] = 4
            i += 1
        key -= 1
    free(z)
    hk_store_release(<void **>&DIST, dist)
    return 0


cdef const unsigned char *_distances() except NULL:
    """The distance table, built by the first caller while the others wait."""
    cdef const unsigned char *dist = <const unsigned char *>hk_load_acquire(<void **>&DIST)
    if dist == NULL:
        with _DIST_LOCK:
            if hk_load_acquire(<void **>&DIST) == NULL:
                _build_distances()
        dist = <const unsigned char *>hk_load_acquire(<void **>&DIST)
    return dist


cdef int _init() except -1:
    cdef int i, k
    POW5[0] = 1
    for i in range(1, 10):
        POW5[i] = POW5[i - 1] * 5
    for i in range(15):
        K_FULL[i] = -1
        K_WAIT[i] = -1
    for k in range(5):
        K_FULL[14 - 3 * k] = k
        K_WAIT[13 - 3 * k] = k
    for i, t in enumerate((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)):
        ORPH[i] = t
    for i in range(34):
        IS_ORPH[i] = False
    for i in range(13):
        IS_ORPH[ORPH[i]] = True
    _build_decompositions()
    _build_honours()
    return 0


cdef int _build_honours() except -1:
    cdef int c[34]
    cdef int used[34]
    cdef int h[NB]
    cdef int n[4]
    cdef int key, i, j, x, at
    HON_STEP[0], HON_STEP[1], HON_STEP[2], HON_STEP[3] = 1, 8, 64, 512
    for key in range(4096):
        n[0], n[1], n[2], n[3] = key % 8, key // 8 % 8, key // 64 % 8, key // 512
        if n[0] + n[1] + n[2] + n[3] > 7:
            continue
        memset(c, 0, sizeof(c))
        memset(used, 0, sizeof(used))
        at = 27
        for x in range(4):
            for j in range(n[x]):
                c[at] = x
                at += 1
        while at < 34:
            used[at] = 4
            at += 1
        _honour_dp(c, used, h)
        for i in range(NB):
            HON[key][i] = <unsigned char>h[i]
    return 0

_init()


# ---------------------------------------------------------------- input

cdef inline int _key(const int *c) noexcept nogil:
    return (c[0] + 5 * c[1] + 25 * c[2] + 125 * c[3] + 625 * c[4] + 3125 * c[5]
            + 15625 * c[6] + 78125 * c[7] + 390625 * c[8])


cdef int _read_items(PyObject **items, int *c) noexcept:
    """Counts from 34 items that are CPython's shared small ints 0..4; their
    total, or -1 for any other item (the full reader then takes the input)."""
    cdef const char *zero = <const char *>SMALL[0]
    cdef size_t limit = SMALL_LIMIT, mask = SMALL_STRIDE - 1, off, bad = 0
    cdef int shift = SMALL_SHIFT, n = 0, i, v
    # branch-free first pass; items that miss are looked at one by one
    for i in range(34):
        off = <size_t>((<const char *>items[i]) - zero)
        bad |= (off > limit) | (off & mask)
        v = <int>(off >> shift)
        c[i] = v
        n += v
    if bad == 0:
        return n
    n = 0
    for i in range(34):
        v = 0
        while v < 5 and items[i] != SMALL[v]:
            v += 1
        if v == 5:
            return -1
        c[i] = v
        n += v
    return n


cdef int _str_counts(str text, int *c) noexcept:
    """Counts from plain ASCII notation (``"123m456p11z"``: digits, then a
    suit letter m, p, s or z) and their total; -1 for anything else (spaces,
    Unicode tiles, bonus tiles, a fifth copy, a digit out of range...), which
    the Python reader then reads or refuses with its own error."""
    cdef Py_ssize_t n
    cdef const char *s = _ascii(text, &n)
    return -1 if s == NULL else _chars_counts(s, n, c)


cdef int _chars_counts(const char *s, Py_ssize_t n, int *c) noexcept:
    """``_str_counts`` of ``s[:n]``."""
    cdef Py_ssize_t i
    cdef char ch
    cdef int pending[18]
    cdef int npend = 0, total = 0, base, j, t
    if n > 64:
        return -1
    memset(c, 0, 34 * sizeof(int))
    for i in range(n):
        ch = s[i]
        if 49 <= ch <= 57:          # '1'..'9'
            if npend == 18:
                return -1
            pending[npend] = <int>ch - 49
            npend += 1
            continue
        if ch == 109:               # 'm'
            base = 0
        elif ch == 112:             # 'p'
            base = 9
        elif ch == 115:             # 's'
            base = 18
        elif ch == 122:             # 'z'
            base = 27
        else:
            return -1
        if npend == 0:
            return -1
        for j in range(npend):
            if base == 27 and pending[j] > 6:
                return -1
            t = base + pending[j]
            c[t] += 1
            if c[t] > 4:
                return -1
        total += npend
        npend = 0
    if npend or total > 18:
        return -1
    return total


cdef int _fast_counts(object tiles, int *c) noexcept:
    """Read 34 counts 0..4 straight from a list, tuple or bytes and return
    their total; -1 if the input is anything else (it then goes through
    the full reader)."""
    cdef int i, n = 0
    cdef const unsigned char *raw
    if type(tiles) is list or type(tiles) is tuple:
        if PySequence_Fast_GET_SIZE(tiles) != 34:
            return -1
        return _read_items(PySequence_Fast_ITEMS(tiles), c)
    if type(tiles) is str:
        return _str_counts(tiles, c)
    if type(tiles) is bytes:
        if PyBytes_GET_SIZE(tiles) != 34:
            return -1
        raw = <const unsigned char *>PyBytes_AS_STRING(tiles)
        for i in range(34):
            if raw[i] > 4:
                return -1
            c[i] = raw[i]
            n += raw[i]
        return n
    return -1


cdef inline bint _no_melds(object melds):
    return melds is () or melds is None or ((type(melds) is list or type(melds) is tuple) and len(melds) == 0)


cdef int _prepare(object tiles, object melds, int need, int *c, int *used) except -2:
    """Fill the 34 counts and the copies used by declared sets; return k."""
    cdef int n = 0, i, k = -1, kind, t
    cdef list counts
    memset(used, 0, 34 * sizeof(int))
    if _no_melds(melds):
        n = _fast_counts(tiles, c)
        if 0 <= n <= 14:
            if need == NEED_FULL:
                k = K_FULL[n]
            elif need == NEED_WAIT:
                k = K_WAIT[n]
            else:
                k = K_FULL[n] if K_FULL[n] >= 0 else K_WAIT[n]
        if k >= 0:
            return k
    # anything unusual (melds, strings, tiles, bad values) goes through the
    # Python reader, which raises the user-facing errors
    counts, codes, k = _normalize(tiles, melds, ("full", "wait", "any")[need])
    _load_parts(counts, codes, c, used)
    return k


cdef int _load_parts(object counts, object codes, int *c, int *used) except -1:
    """Counts and copies used by declared sets from already normalized input."""
    cdef int i, kind, t
    memset(used, 0, 34 * sizeof(int))
    for i in range(34):
        c[i] = counts[i]
    for code in codes:
        kind = code // 34
        t = code % 34
        if kind == 0:
            used[t] += 1; used[t + 1] += 1; used[t + 2] += 1
        else:
            used[t] += 3 if kind == 1 else 4
    return 0


# ---------------------------------------------------------------- complete

cdef inline int _suit_status(int key, int total) noexcept nogil:
    """0: no split; 1: sets only; 2: sets and the pair."""
    if DEC_N[key] == 0:
        return 0
    return 2 if total % 3 == 2 else 1


cdef bint _orphans(const int *c) noexcept nogil:
    cdef int i, n = 0, v
    for i in range(34):
        v = c[i]
        if IS_ORPH[i]:
            if v < 1 or v > 2:
                return False
        elif v:
            return False
        n += v
    return n == 14


cdef bint _pairs(const int *c, int pairs) noexcept nogil:
    """Seven pairs: seven pairs of distinct tiles (``pairs`` 2: a four of a kind counts as two), nothing else."""
    cdef int i, n = 0
    for i in range(34):
        if c[i] == 2 or (c[i] == 4 and pairs == 2):
            n += c[i] >> 1
        elif c[i]:
            return False
    return n == 7


cdef inline void _pair_slots(int c, int left, int pairs, int *hist, int sign) noexcept nogil:
    """Count into ``hist`` (by cost 0..2, ``sign`` 1) or out of it (-1) the pair slots of a kind held ``c``
    times with ``left`` copies beside the declared sets: a first at max(0, 2 - c) where two copies are left,
    with ``pairs`` 2 a second at 4 - max(c, 2) where four are (the seven_pairs plugin's count)."""
    if left >= 2:
        hist[2 - c if c < 2 else 0] += sign
        if pairs == 2 and left >= 4:
            hist[2 if c < 2 else 4 - c] += sign


cdef inline int _cheapest_seven(const int *hist) noexcept nogil:
    """Tiles to draw for seven pairs: the seven cheapest slots of ``hist`` (INF + 1: fewer than seven)."""
    cdef int n0 = hist[0], n1 = hist[1]
    if n0 + n1 + hist[2] < 7:
        return INF + 1
    if n0 >= 7:
        return 0
    if n0 + n1 >= 7:
        return 7 - n0
    return n1 + 2 * (7 - n0 - n1)


cdef inline void _pair_hist(const int *c, const int *used, int pairs, int *hist) noexcept nogil:
    """The pair slots of the 34 counts ``c``, by cost."""
    cdef int i
    hist[0] = 0
    hist[1] = 0
    hist[2] = 0
    for i in range(34):
        _pair_slots(c[i], 4 - used[i], pairs, hist, 1)


cdef inline int _pairs_moved(const int *hist, int before, int after, int left, int pairs) noexcept nogil:
    """``_cheapest_seven`` of ``hist`` with one kind's count moved from ``before`` to ``after``."""
    cdef int h[3]
    h[0] = hist[0]
    h[1] = hist[1]
    h[2] = hist[2]
    _pair_slots(before, left, pairs, h, -1)
    _pair_slots(after, left, pairs, h, 1)
    return _cheapest_seven(h)


cdef bint _standard(const int *c) noexcept nogil:
    cdef int s, i, st, pairs = 0, tot
    for s in range(3):
        tot = 0
        for i in range(9):
            tot += c[9 * s + i]
        st = _suit_status(_key(c + 9 * s), tot)
        if st == 0:
            return False
        if st == 2:
            pairs += 1
    for i in range(27, 34):
        if c[i] == 2:
            pairs += 1
        elif c[i] != 0 and c[i] != 3:
            return False
    return pairs == 1


def is_complete(tiles, melds=(), shapes=None):
    """True when the tiles (14 - 3k) form 4 - k sets and a pair, or thirteen orphans.

    ``shapes``: None for these two shapes, else a ShapeSet (see
    hkcore.core._shapeset; ``hkcore.is_complete`` also takes shape ids or a preset).
    """
    if shapes is not None:
        return _shapeset.is_complete(_THIS, tiles, melds, shapes)
    return _is_complete(tiles, melds)


cdef object _is_complete(object tiles, object melds):
    cdef int c[34]
    cdef int used[34]
    cdef int k = _prepare(tiles, melds, NEED_FULL, c, used)
    if _standard(c):
        return True
    return k == 0 and _orphans(c)


def _complete_parts(counts, codes, int k, bint orphans=True, int pairs=0):
    cdef int c[34]
    cdef int used[34]
    _load_parts(counts, codes, c, used)
    return _standard(c) or (k == 0 and ((orphans and _orphans(c)) or (pairs > 0 and _pairs(c, pairs))))


# ---------------------------------------------------------------- readings

def readings(tiles, melds=(), shapes=None):
    """Every distinct reading of a complete hand, sorted; [] if not complete.

    A reading is ``(pair, concealed sets ascending..., declared sets as given)``.
    """
    if shapes is not None:
        return _shapeset.readings(_THIS, tiles, melds, shapes)
    return _readings(tiles, melds)


cdef object _readings(object tiles, object melds):
    cdef int c[34]
    cdef int used[34]
    cdef int k
    if _no_melds(melds):
        k = _prepare(tiles, melds, NEED_FULL, c, used)
        return _readings_c(c, k, (), True)
    counts, codes, k = _normalize(tiles, melds, "full")  # read once: melds may be a one-shot iterator
    _load_parts(counts, codes, c, used)
    return _readings_c(c, k, tuple(codes), True)


def _readings_parts(counts, codes, int k, bint orphans=True):
    cdef int c[34]
    cdef int used[34]
    _load_parts(counts, codes, c, used)
    return _readings_c(c, k, tuple(codes), orphans)


cdef list _readings_c(int *c, int k, tuple codes, bint orphans):
    cdef int s, i, j, x, tot, pairs = 0, hpair = -1, nh = 0, nsets, idx
    cdef int first[3]
    cdef int num[3]
    cdef int hsets[4]
    cdef int pick[3]
    cdef int allsets[8]
    cdef int pair
    cdef Py_ssize_t nout, ncodes = PyTuple_GET_SIZE(codes)
    cdef Dec *d
    cdef list out
    cdef tuple r
    for s in range(3):
        tot = 0
        for i in range(9):
            tot += c[9 * s + i]
        j = _key(c + 9 * s)
        if DEC_N[j] == 0:
            break
        if tot % 3 == 2:
            pairs += 1
        first[s] = DEC_FIRST[j]
        num[s] = DEC_N[j]
    else:
        for i in range(27, 34):
            if c[i] == 2:
                pairs += 1
                hpair = i
            elif c[i] == 3:
                hsets[nh] = 34 + i
                nh += 1
            elif c[i] != 0:
                pairs = -9
        if pairs == 1:
            # every combination of the suits' splits is a distinct reading
            out = PyList_New(num[0] * num[1] * num[2])
            nout = 0
            pick[0] = 0
            while pick[0] < num[0]:
                pick[1] = 0
                while pick[1] < num[1]:
                    pick[2] = 0
                    while pick[2] < num[2]:
                        pair = hpair
                        nsets = 0
                        for s in range(3):
                            d = &DECS[first[s] + pick[s]]
                            if d.pair >= 0:
                                pair = 9 * s + d.pair
                            for i in range(d.nsets):
                                allsets[nsets] = d.sets[i] + 9 * s
                                nsets += 1
                        for i in range(nh):
                            allsets[nsets] = hsets[i]
                            nsets += 1
                        # insertion sort of at most four codes
                        for i in range(1, nsets):
                            x = allsets[i]
                            j = i - 1
                            while j >= 0 and allsets[j] > x:
                                allsets[j + 1] = allsets[j]
                                j -= 1
                            allsets[j + 1] = x
                        r = PyTuple_New(1 + nsets + ncodes)
                        Py_INCREF(<object>CODE_INT[pair])
                        PyTuple_SET_ITEM(r, 0, <object>CODE_INT[pair])
                        for i in range(nsets):
                            Py_INCREF(<object>CODE_INT[allsets[i]])
                            PyTuple_SET_ITEM(r, 1 + i, <object>CODE_INT[allsets[i]])
                        for i in range(ncodes):
                            o = <object>PyTuple_GET_ITEM(codes, i)
                            Py_INCREF(o)
                            PyTuple_SET_ITEM(r, 1 + nsets + i, o)
                        Py_INCREF(r)
                        PyList_SET_ITEM(out, nout, r)
                        nout += 1
                        pick[2] += 1
                    pick[1] += 1
                pick[0] += 1
            if nout > 1:
                out.sort()
            return out
    if orphans and k == 0 and _orphans(c):
        for i in range(13):
            if c[ORPH[i]] == 2:
                return [(ORPH[i], ORPHANS_CODE)]
    return []


# ---------------------------------------------------------------- tiles away

cdef void _suit_dp(const int *c, const int *cap, unsigned char *res, int max_m) noexcept nogil:
    """Exact fewest tiles to add for every (m <= max_m, p) in one suit with per-tile caps.

    State after position i: a = chows begun at i - 1, b = chows begun at i
    (each still needs the next tiles), m sets begun so far, p pairs.
    """
    cdef unsigned char cur[5][5][5][2]
    cdef unsigned char nxt[5][5][5][2]
    cdef int i, a, b, m, p, n, g, q, d, cost, v, m2
    memset(cur, INF, sizeof(cur))
    cur[0][0][0][0] = 0
    for i in range(9):
        memset(nxt, INF, sizeof(nxt))
        # chows still open are sets begun: a + b <= m <= max_m
        for a in range(max_m + 1):
            for b in range(max_m + 1 - a):
                for m in range(a + b, max_m + 1):
                    for p in range(2):
                        v = cur[a][b][m][p]
                        if v >= INF or a + b > cap[i]:
                            continue
                        for n in range(1 if i > 6 else min(max_m - m, cap[i] - a - b) + 1):
                            for g in range(2 if m + n < max_m and a + b + n + 3 <= cap[i] else 1):
                                for q in range(2 - p):
                                    d = a + b + n + 3 * g + 2 * q
                                    if d > cap[i]:
                                        break
                                    cost = v + (d - c[i] if d > c[i] else 0)
                                    m2 = m + n + g
                                    if cost < nxt[b][n][m2][p + q]:
                                        nxt[b][n][m2][p + q] = cost
        memcpy(cur, nxt, sizeof(cur))
    for m in range(5):
        for p in range(2):
            res[m * 2 + p] = cur[0][0][m][p]


cdef void _suit_dp_memo(const int *c, const int *cap, unsigned char *res, int max_m,
                        SuitMemo *memo) noexcept nogil:
    """``_suit_dp``, its answer looked up in ``memo`` first (NULL: none) and kept there."""
    cdef unsigned long long key = 0
    cdef int i, slot
    if memo == NULL:
        _suit_dp(c, cap, res, max_m)
        return
    for i in range(9):
        if c[i] < 0 or c[i] > 4 or cap[i] < 0 or cap[i] > 4:  # no key of its own: not remembered
            _suit_dp(c, cap, res, max_m)
            return
        key = key * 25 + <unsigned long long>(c[i] * 5 + cap[i])
    key = (key * 5 + <unsigned long long>max_m) + 1
    slot = <int>((key * 0x9E3779B97F4A7C15ULL) >> (64 - MEMO_BITS)) & (MEMO_SIZE - 1)
    if memo.slot[slot].key == key:
        memcpy(res, memo.slot[slot].cost, NB)
        return
    _suit_dp(c, cap, res, max_m)
    memo.slot[slot].key = key
    memcpy(memo.slot[slot].cost, res, NB)


cdef int _away(const int *c, int k, const int *used, bint orphans) except -3:
    return _away_m(c, k, used, orphans, NULL, 0)


cdef int _away_m(const int *c, int k, const int *used, bint orphans, SuitMemo *memo, int pairs) except -3:
    cdef unsigned char part[3][NB]
    cdef int honours[NB]
    cdef int s, i, v, best, want, t, trusted = 99, capped = 0
    cdef int cap[9]
    cdef int hist[3]
    cdef const unsigned char *row
    cdef const unsigned char *dist = _distances()
    # each suit from the table (every tile may be used four times)
    for s in range(3):
        row = dist + _key(c + 9 * s) * NB
        for i in range(NB):
            part[s][i] = row[i]
        for i in range(9):
            if used[9 * s + i]:
                capped |= 1 << s
                # a reading that uses more of tile i than the declared sets leave adds at least t tiles
                t = 4 - used[9 * s + i] + 1 - c[9 * s + i]
                if t < trusted:
                    trusted = t
    _honour_costs(c, used, honours)
    best = _combine(honours, part, k)
    if capped and best >= trusted:
        # the best might use a tile the declared sets hold: cost those suits exactly
        for s in range(3):
            if (capped >> s) & 1:
                for i in range(9):
                    cap[i] = 4 - used[9 * s + i]
                _suit_dp_memo(c + 9 * s, cap, part[s], 4 - k, memo)
        best = _combine(honours, part, k)
    if orphans and k == 0:
        # thirteen orphans: one of each, plus a duplicate
        v = 0
        want = 0
        for i in range(13):
            if c[ORPH[i]] == 0:
                v += 1
            elif c[ORPH[i]] >= 2:
                want = 1
        v += 1 - want
        if v < best:
            best = v
    if pairs and k == 0:
        _pair_hist(c, used, pairs, hist)
        v = _cheapest_seven(hist)
        if v < best:
            best = v
    return best - 1


cdef int _combine(const int *honours, unsigned char part[3][NB], int k) noexcept nogil:
    """The fewest tiles for 4 - k sets and a pair from the honours' and the
    three suits' costs, by (min, +) over (sets, pairs)."""
    cdef int acc[NB]
    cdef int nxt[NB]
    cdef int s, i, m, p, m1, p1, v
    for i in range(NB):
        acc[i] = honours[i]
    for s in range(3):
        for i in range(NB):
            nxt[i] = INF
        for m in range(5):
            for p in range(2):
                v = acc[m * 2 + p]
                if v >= INF:
                    continue
                for m1 in range(5 - m):
                    for p1 in range(2 - p):
                        if v + part[s][m1 * 2 + p1] < nxt[(m + m1) * 2 + p + p1]:
                            nxt[(m + m1) * 2 + p + p1] = v + part[s][m1 * 2 + p1]
        for i in range(NB):
            acc[i] = nxt[i]
    return acc[(4 - k) * 2 + 1]


def tiles_away(tiles, melds=(), shapes=None):
    """Tiles away from complete: -1 complete, 0 waiting (for 14 - 3k tiles:
    waiting after the best discard). Copies held or declared are not drawn."""
    if shapes is not None:
        return _shapeset.tiles_away(_THIS, tiles, melds, shapes)
    return _tiles_away(tiles, melds)


cdef object _tiles_away(object tiles, object melds):
    cdef int c[34]
    cdef int used[34]
    cdef int k = _prepare(tiles, melds, NEED_ANY, c, used)
    return _away(c, k, used, True)


def _away_parts(counts, codes, int k, bint orphans=True, int pairs=0):
    """Tiles away by the standard shape, thirteen orphans with ``orphans`` and seven pairs with ``pairs``
    (0: off; 1: on; 2: a four of a kind counting as two pairs)."""
    cdef int c[34]
    cdef int used[34]
    _load_parts(counts, codes, c, used)
    return _away_m(c, k, used, orphans, NULL, pairs)


# ---------------------------------------------------------------- waits

def waits(tiles, melds=(), shapes=None):
    """The tiles that complete a waiting hand (13 - 3k tiles), ascending.
    A tile whose four copies are all held or declared is not a wait."""
    if shapes is not None:
        return _shapeset.waits(_THIS, tiles, melds, shapes)
    return _waits(tiles, melds)


cdef object _waits(object tiles, object melds):
    cdef int c[34]
    cdef int used[34]
    cdef int k = _prepare(tiles, melds, NEED_WAIT, c, used)
    return _waits_c(c, k, used, True, True)


def _waits_parts(counts, codes, int k, bint orphans=True):
    cdef int c[34]
    cdef int used[34]
    _load_parts(counts, codes, c, used)
    return _waits_c(c, k, used, orphans, False)


cdef list _waits_c(int *c, int k, int *used, bint orphans, bint as_tiles):
    cdef int s, i, t, key, tot, st, bad = 0, pairs = 0, nst, npairs, nbad
    cdef int stat[4]
    cdef int keys[3]
    cdef int tots[3]
    cdef int hbad = 0, hpairs = 0, v, extra
    cdef list out = []
    for s in range(3):
        tot = 0
        for i in range(9):
            tot += c[9 * s + i]
        keys[s] = _key(c + 9 * s)
        tots[s] = tot
        stat[s] = _suit_status(keys[s], tot)
        if stat[s] == 0:
            bad += 1
        elif stat[s] == 2:
            pairs += 1
    for i in range(27, 34):
        if c[i] == 2:
            hpairs += 1
        elif c[i] != 0 and c[i] != 3:
            hbad += 1
    for t in range(34):
        if c[t] + used[t] >= 4:
            continue
        if t < 27:
            s = t // 9
            nbad = bad + hbad - (stat[s] == 0)
            if nbad:
                continue
            st = _suit_status(keys[s] + POW5[t - 9 * s], tots[s] + 1)
            if st == 0:
                continue
            npairs = pairs + hpairs - (stat[s] == 2) + (st == 2)
        else:
            if bad:
                continue
            nbad = hbad - (c[t] != 0 and c[t] != 3 and c[t] != 2)
            npairs = pairs + hpairs - (c[t] == 2)
            v = c[t] + 1
            if v == 2:
                npairs += 1
            elif v != 3:
                nbad += 1
            if nbad:
                continue
        if npairs == 1:
            out.append(TILE_OBJ[t] if as_tiles else t)
    if orphans and k == 0 and not out:
        # thirteen orphans: the standard shape and this one never share a wait
        extra = 0
        for t in range(34):
            if c[t] and not IS_ORPH[t]:
                extra = 1
        if not extra:
            for i in range(13):
                t = ORPH[i]
                c[t] += 1
                if _orphans(c) and used[t] == 0:
                    out.append(TILE_OBJ[t] if as_tiles else t)
                c[t] -= 1
    return out


def bind_shapes(resolve):
    """is_complete, readings, tiles_away and waits with ``shapes=`` turned
    into a ShapeSet by ``resolve`` (shape ids or a preset, say); without
    ``shapes`` each answers here, as fast as the core's own."""
    def is_complete(tiles, melds=(), shapes=None):
        if shapes is None:
            return _is_complete(tiles, melds)
        return _shapeset.is_complete(_THIS, tiles, melds, resolve(shapes))

    def readings(tiles, melds=(), shapes=None):
        if shapes is None:
            return _readings(tiles, melds)
        return _shapeset.readings(_THIS, tiles, melds, resolve(shapes))

    def tiles_away(tiles, melds=(), shapes=None):
        if shapes is None:
            return _tiles_away(tiles, melds)
        return _shapeset.tiles_away(_THIS, tiles, melds, resolve(shapes))

    def waits(tiles, melds=(), shapes=None):
        if shapes is None:
            return _waits(tiles, melds)
        return _shapeset.waits(_THIS, tiles, melds, resolve(shapes))

    out = (is_complete, readings, tiles_away, waits)
    for f in out:
        f.__doc__ = globals()[f.__name__].__doc__
    return out


import sys as _sys
_THIS = _sys.modules[__name__]

include "_kernel.pxi"
include "_ingest.pxi"


cdef bint standard_shape(const int *c) noexcept nogil:
    """The 34 counts ``c`` (14 - 3k tiles) form 4 - k sets and a pair (the table engine's win check)."""
    return _standard(c)


cdef bint orphans_shape(const int *c) noexcept nogil:
    """The 34 counts ``c`` are thirteen orphans."""
    return _orphans(c)


cdef bint pairs_shape(const int *c, int pairs) noexcept nogil:
    """The 34 counts ``c`` are seven pairs (``pairs`` 2: a four of a kind counting as two)."""
    return _pairs(c, pairs)


cdef int away_counts(const int *c, int k, const int *used) except -3:
    """Tiles away of the 34 counts ``c`` beside k declared sets that use
    ``used`` copies of each tile, by the standard shape and thirteen orphans
    (the efficiency bot's measure, hkcore/table/players/_cbots.pyx)."""
    return _away_m(c, k, used, True, NULL, 0)


cdef int away_counts_memo(const int *c, int k, const int *used, SuitMemo *memo) except -3:
    """``away_counts``, the exact costs of suits the declared sets draw on kept in ``memo``."""
    return _away_m(c, k, used, True, memo, 0)


cdef int away_shapes_memo(const int *c, int k, const int *used, bint orphans, SuitMemo *memo,
                          int pairs) except -3:
    """``away_counts_memo`` by the standard shape, thirteen orphans only with ``orphans`` and seven pairs
    only with ``pairs`` (1; 2: four of a kind as two pairs) (the value bot's measure,
    hkcore/table/players/_cvalue.pyx: the preset's shapes, or the standard shape alone)."""
    return _away_m(c, k, used, orphans, memo, pairs)


cdef void _conv(const int *a, const int *b, int *out, int max_m) noexcept nogil:
    """(min, +) of two (sets, pairs) cost vectors, at most ``max_m`` sets
    (the rest left INF) and 1 pair (costs are never negative: a sum past INF
    is INF)."""
    cdef int m, n, x0, x1, t
    for n in range(5):
        x0 = INF
        x1 = INF
        if n <= max_m:
            for m in range(n + 1):
                t = a[m * 2] + b[(n - m) * 2]
                x0 = t if t < x0 else x0
                t = a[m * 2] + b[(n - m) * 2 + 1]
                x1 = t if t < x1 else x1
                t = a[m * 2 + 1] + b[(n - m) * 2]
                x1 = t if t < x1 else x1
        out[n * 2] = x0
        out[n * 2 + 1] = x1


cdef void _honour_costs(const int *c, const int *used, int *honours) noexcept nogil:
    """The honours' (sets, pairs) costs: each kind gives at most one pung or the pair."""
    cdef int i, key = 0
    for i in range(27, 34):
        if used[i] == 0:
            key += HON_STEP[c[i] if c[i] < 3 else 3]
        elif used[i] < 3:  # a kind declared in part (no set declares so): worked out
            _honour_dp(c, used, honours)
            return
    for i in range(NB):
        honours[i] = HON[key][i]


cdef void _honour_dp(const int *c, const int *used, int *honours) noexcept nogil:
    cdef int i, m, p, v, best, pung, pr
    for i in range(NB):
        honours[i] = INF
    honours[0] = 0
    for i in range(27, 34):
        v = 4 - used[i]
        pung = (3 - c[i] if c[i] < 3 else 0) if v >= 3 else INF
        pr = (2 - c[i] if c[i] < 2 else 0) if v >= 2 else INF
        for m in range(4, -1, -1):
            for p in range(1, -1, -1):
                best = honours[m * 2 + p]
                if m > 0 and honours[(m - 1) * 2 + p] + pung < best:
                    best = honours[(m - 1) * 2 + p] + pung
                if p > 0 and honours[m * 2] + pr < best:
                    best = honours[m * 2] + pr
                honours[m * 2 + p] = best


cdef inline int _final(const int *rest, const int *part, int k) noexcept nogil:
    cdef int m, best = INF, v
    for m in range(5 - k):
        v = rest[m * 2] + part[(4 - k - m) * 2 + 1]
        best = v if v < best else best
        v = rest[m * 2 + 1] + part[(4 - k - m) * 2]
        best = v if v < best else best
    return best


cdef void _suit_part(const int *c, const int *used, int s, int k, const unsigned char *dist,
                     int *out, SuitMemo *memo) noexcept nogil:
    """One suit's (sets, pairs) costs: from the table, or exactly when a
    declared set uses some of its tiles (as ``_away`` ends up costing it)."""
    cdef int i
    cdef int cap[9]
    cdef unsigned char res[NB]
    cdef const unsigned char *row
    cdef bint capped = False
    for i in range(9):
        if used[9 * s + i]:
            capped = True
            break
    if capped:
        for i in range(9):
            cap[i] = 4 - used[9 * s + i]
        _suit_dp_memo(c + 9 * s, cap, res, 4 - k, memo)
        for i in range(NB):
            out[i] = res[i]
    else:
        row = dist + _key(c + 9 * s) * NB
        for i in range(NB):
            out[i] = row[i]


cdef int away_each(int *c, int k, const int *used, int delta, const bint *which, int *out) except -3:
    """For every tile i with ``which[i]``: ``out[i]`` = tiles away (as
    ``away_counts``) of ``c`` with ``delta`` more copies of i (the counts
    must stay within 0..4). The suits left unchanged are combined once."""
    return away_each_memo(c, k, used, delta, which, out, NULL)


cdef int away_each_memo(int *c, int k, const int *used, int delta, const bint *which, int *out,
                        SuitMemo *memo) except -3:
    """``away_each``, the exact costs of suits the declared sets draw on kept in ``memo`` (NULL: none)."""
    return away_each_shapes(c, k, used, delta, which, out, memo, True, 0)


cdef int away_each_shapes(int *c, int k, const int *used, int delta, const bint *which, int *out,
                          SuitMemo *memo, bint orphans, int pairs) except -3:
    """``away_each_memo`` by the standard shape, thirteen orphans only with ``orphans`` and seven pairs only
    with ``pairs``."""
    cdef const unsigned char *dist = _distances()
    cdef int parts[3][NB]
    cdef int rest[4][NB]
    cdef int tmp[NB]
    cdef int part[NB]
    cdef int honours[NB]
    cdef int s, i, j, best, v, any_suit = 0, any_honour = 0, miss = 0, dup = 0, before
    cdef int hist[3]
    cdef const unsigned char *row
    for i in range(34):
        if which[i] and (c[i] + delta < 0 or c[i] + delta > 4):
            raise ValueError(f"tile {i}: {c[i]} + {delta} copies")
    if k == 0:  # thirteen orphans: the kinds missing and those held twice, each tile's change then counted alone
        for j in range(13):
            miss += c[ORPH[j]] == 0
            dup += c[ORPH[j]] >= 2
        if pairs:  # seven pairs: the pair slots by cost, each tile's change then counted alone
            _pair_hist(c, used, pairs, hist)
    for s in range(3):
        _suit_part(c, used, s, k, dist, parts[s], memo)
    _honour_costs(c, used, honours)
    for i in range(34):
        if which[i]:
            if i < 27:
                any_suit |= 1 << (i // 9)
            else:
                any_honour = 1
    # rest[s]: the honours and the two other suits; rest[3]: the three suits (up to the 4 - k sets
    # wanted), from two shared partial products
    if any_suit & 6:
        _conv(honours, parts[0], tmp, 4 - k)
        if any_suit & 2:
            _conv(tmp, parts[2], rest[1], 4 - k)
        if any_suit & 4:
            _conv(tmp, parts[1], rest[2], 4 - k)
    if (any_suit & 1) or any_honour:
        _conv(parts[1], parts[2], tmp, 4 - k)
        if any_suit & 1:
            _conv(honours, tmp, rest[0], 4 - k)
        if any_honour:
            _conv(parts[0], tmp, rest[3], 4 - k)
    for i in range(34):
        if not which[i]:
            continue
        c[i] += delta
        if i < 27:
            s = i // 9
            _suit_part(c, used, s, k, dist, part, memo)
            best = _final(rest[s], part, k)
        else:
            _honour_costs(c, used, part)
            best = _final(rest[3], part, k)
        if best > INF:
            best = INF
        if orphans and k == 0:
            v = miss + 1 - (dup > 0)
            if IS_ORPH[i]:
                before = c[i] - delta
                v = (miss - (before == 0) + (c[i] == 0)) + 1 - (dup - (before >= 2) + (c[i] >= 2) > 0)
            if v < best:
                best = v
        if pairs and k == 0:
            v = _pairs_moved(hist, c[i] - delta, c[i], 4 - used[i], pairs)
            if v < best:
                best = v
        c[i] -= delta
        out[i] = best - 1
    return 0


cdef inline void _part_of(int *c, const int *used, int comp, int k, const unsigned char *dist, int *out,
                          SuitMemo *memo) noexcept nogil:
    """The (sets, pairs) costs of one component of the hand: suit ``comp`` (0..2) or the honours (3)."""
    if comp < 3:
        _suit_part(c, used, comp, k, dist, out, memo)
    else:
        _honour_costs(c, used, out)


cdef int away_swaps(int *c, int k, const int *used, const bint *minus, const bint *plus, int *out,
                    SuitMemo *memo) except -3:
    """``away_swaps_shapes`` with thirteen orphans."""
    return away_swaps_shapes(c, k, used, minus, plus, out, memo, True, 0)


cdef int away_swaps_shapes(int *c, int k, const int *used, const bint *minus, const bint *plus, int *out,
                           SuitMemo *memo, bint orphans, int pairs) except -3:
    """For every i with ``minus[i]`` and j with ``plus[j]``: ``out[i * 34 + j]``
    = tiles away (as ``away_counts``) of ``c`` with one i less and one j
    more (99 where that would hold a fifth j). The components (three suits,
    the honours) that neither tile touches are combined once for all pairs,
    each component with one j more is costed once for every i. Seven pairs counts only with ``pairs``."""
    return away_swaps_under(c, k, used, minus, plus, out, memo, 99, orphans, pairs)


cdef int away_swaps_under(int *c, int k, const int *used, const bint *minus, const bint *plus, int *out,
                          SuitMemo *memo, int under, bint orphans, int pairs) except -3:
    """``away_swaps`` where only the answers below ``under`` are wanted
    exactly: a pair whose j leaves ``c`` with one j more ``under`` or more
    tiles away gets 99 (one tile less only adds to that)."""
    cdef const unsigned char *dist = _distances()
    cdef int base[4][NB]
    cdef int plus_part[34][NB]
    cdef int minus_part[NB]
    cdef int pair_rest[4][4][NB]
    cdef int rest[4][NB]
    cdef int with_i[4][NB]
    cdef int part[NB]
    cdef int tmp[NB]
    cdef int i, j, a, b, x, y, best, mm = 4 - k, miss, dup
    cdef int hist[3]
    cdef int comp[34]
    cdef bint wanted[4]   # some j of the component is asked for
    cdef bint no_use[34]  # with one j more the hand is still ``under`` or more tiles away
    for i in range(34):
        comp[i] = i // 9 if i < 27 else 3
        if minus[i] and c[i] < 1:
            raise ValueError(f"tile {i}: none to take away")
    for a in range(4):
        _part_of(c, used, a, k, dist, base[a], memo)
        wanted[a] = False
    for j in range(34):
        wanted[comp[j]] |= plus[j]
        if plus[j] and c[j] < 4:
            c[j] += 1
            _part_of(c, used, comp[j], k, dist, plus_part[j], memo)
            c[j] -= 1
    # pair_rest[a][b] (a < b): the two components other than a and b; rest[a]: the three other than a
    for a in range(4):
        for b in range(a + 1, 4):
            x = -1
            for y in range(4):
                if y != a and y != b:
                    if x < 0:
                        x = y
                    else:
                        _conv(base[x], base[y], pair_rest[a][b], mm)
                        for j in range(NB):
                            pair_rest[b][a][j] = pair_rest[a][b][j]
    for a in range(4):
        b = 1 if a == 0 else 0
        _conv(pair_rest[a][b], base[b], rest[a], mm)
    if k == 0:
        miss = 0
        dup = 0
        for j in range(13):
            miss += c[ORPH[j]] == 0
            dup += c[ORPH[j]] >= 2
        if pairs:
            _pair_hist(c, used, pairs, hist)
    for j in range(34):
        no_use[j] = False
        if plus[j] and c[j] < 4 and under < 99:
            best = _final(rest[comp[j]], plus_part[j], k)
            if orphans and k == 0:
                x = miss + 1 - (dup > 0)
                if IS_ORPH[j]:
                    x = miss - (c[j] == 0) + 1 - (dup + (c[j] == 1) > 0)
                if x < best:
                    best = x
            if pairs and k == 0:
                x = _pairs_moved(hist, c[j], c[j] + 1, 4 - used[j], pairs)
                if x < best:
                    best = x
            no_use[j] = best - 1 >= under
    for i in range(34):
        if not minus[i]:
            continue
        a = comp[i]
        c[i] -= 1
        if k == 0:  # thirteen orphans less i: the kinds missing and those held twice (each j then counted alone)
            miss = 0
            dup = 0
            for j in range(13):
                miss += c[ORPH[j]] == 0
                dup += c[ORPH[j]] >= 2
            if pairs:
                _pair_hist(c, used, pairs, hist)
        _part_of(c, used, a, k, dist, minus_part, memo)
        for b in range(4):
            if b != a and wanted[b]:
                _conv(pair_rest[a][b], minus_part, with_i[b], mm)
        for j in range(34):
            if not plus[j]:
                continue
            out[i * 34 + j] = 99
            if c[j] >= 4 or no_use[j]:
                continue
            b = comp[j]
            if b == a:
                c[j] += 1
                _part_of(c, used, a, k, dist, part, memo)
                best = _final(rest[a], part, k)
            else:
                c[j] += 1
                best = _final(with_i[b], plus_part[j], k)
            if best > INF:
                best = INF
            if orphans and k == 0:
                x = miss + 1 - (dup > 0)
                if IS_ORPH[j]:
                    x = miss - (c[j] == 1) + 1 - (dup + (c[j] == 2) > 0)
                if x < best:
                    best = x
            if pairs and k == 0:
                x = _pairs_moved(hist, c[j] - 1, c[j], 4 - used[j], pairs)
                if x < best:
                    best = x
            c[j] -= 1
            out[i * 34 + j] = best - 1
        c[i] += 1
    return 0
