# Fast ingestion, included by _ccore.pyx: a hand given as a dict (the hand
# JSON of docs/rules.md) read straight into a validated Hand.
#
# "Fast accept, slow reject": the reader accepts only plain, valid input
# (exact types, plain ASCII tile notation, every count and context check
# passed) and builds exactly the Hand that pydantic validation builds; for
# anything else it returns None and the caller validates the slow way, whose
# errors the user sees. tests/test_ingest.py holds the two equal.

cdef extern from "Python.h":
    bint PyUnicode_IS_COMPACT_ASCII(object o)
    void *PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    int PyDict_Next(object p, Py_ssize_t *ppos, PyObject **pkey, PyObject **pvalue)


# the hand JSON's keys, by bit number
cdef tuple _KEY_NAMES = ("tiles", "melds", "win_tile", "self_draw", "seat_wind", "round_wind", "flowers", "seasons",
                         "discarder", "last_tile", "kong_replacement", "robbing_kong", "first_turn")
cdef dict _KEY_NO = {name: i for i, name in enumerate(_KEY_NAMES)}
cdef enum:
    K_TILES = 0
    K_MELDS = 1
    K_WIN = 2
    K_SELF_DRAW = 3
    K_SEAT = 4
    K_ROUND = 5
    K_FLOWERS = 6
    K_SEASONS = 7
    K_DISCARDER = 8
    K_LAST = 9
    K_KONGS = 10
    K_ROB = 11
    K_FIRST = 12
    # keys a hand not yet won (a Position) does not have
    WIN_KEYS = (1 << K_WIN) | (1 << K_SELF_DRAW) | (1 << K_DISCARDER) | (1 << K_LAST) | (1 << K_KONGS) \
        | (1 << K_ROB) | (1 << K_FIRST)
cdef tuple _CODE_TEXT = tuple(f"{i % 9 + 1}{'mpsz'[i // 9]}" for i in range(34))
cdef tuple _EMPTY_TUPLE = ()
#: the sorted tuple of bonus numbers of a mask (bit n: number n)
cdef tuple _BONUS_TUPLES = tuple(tuple(n for n in range(1, 5) if (mask >> n) & 1) for mask in range(32))


ctypedef struct Raw:
    Ctx c                 # the kernel's view (seat and round as seat numbers until _finish)
    int n                 # concealed tiles
    int used[34]          # copies in hand and declared sets
    int round_no
    int disc              # the discarder's seat number, 0 for none
    int keys              # bit k: key k of _KEY_NAMES given
    int meld_kind[4]
    int meld_from[4]
    int meld_given[4]     # bit 1: "concealed" given, bit 0: "from" given


cdef inline void _raw_init(Raw *r) noexcept:
    memset(r, 0, sizeof(Raw))
    r.c.seat_number = 1
    r.round_no = 1
    r.c.win = -1


cdef inline const char *_ascii(object s, Py_ssize_t *n) noexcept:
    """The characters of a plain ASCII str, NULL for anything else."""
    if type(s) is not str or not PyUnicode_IS_COMPACT_ASCII(s):
        return NULL
    n[0] = PyUnicode_GET_LENGTH(s)
    return <const char *>PyUnicode_DATA(s)


cdef inline int _seat_char(const char *s, Py_ssize_t n) noexcept:
    """1..4 for "E", "S", "W", "N"; 0 for anything else."""
    if n != 1:
        return 0
    if s[0] == 69:
        return 1
    if s[0] == 83:
        return 2
    if s[0] == 87:
        return 3
    if s[0] == 78:
        return 4
    return 0


cdef inline bint _same(const char *s, Py_ssize_t n, const char *word) noexcept:
    """``s[:n]`` is the NUL-terminated ``word``."""
    cdef Py_ssize_t i
    for i in range(n):
        if word[i] == 0 or word[i] != s[i]:
            return False
    return word[n] == 0


cdef inline int _kind_no(const char *s, Py_ssize_t n) noexcept:
    """0, 1, 2 for "chow", "pung", "kong"; -1 for anything else."""
    if _same(s, n, "chow"):
        return 0
    if _same(s, n, "pung"):
        return 1
    if _same(s, n, "kong"):
        return 2
    return -1


cdef inline int _first_no(const char *s, Py_ssize_t n) noexcept:
    """1, 2, 3 for "deal", "first_draw", "first_discard"; 0 for anything else."""
    if _same(s, n, "deal"):
        return 1
    if _same(s, n, "first_draw"):
        return 2
    if _same(s, n, "first_discard"):
        return 3
    return 0


cdef int _tiles_field(Raw *r, const char *s, Py_ssize_t n) noexcept:
    r.n = _chars_counts(s, n, r.c.counts)
    return r.n >= 0


cdef int _add_meld(Raw *r, int kind, const char *s, Py_ssize_t n, int hidden, int frm, int given) noexcept:
    """A declared set (``kind`` 0..2 as named, ``hidden`` 1 for concealed,
    ``frm`` a seat number or 0); 0 if it is not a plain valid set."""
    cdef int c[34]
    cdef int k, t, first = -1, code, i = r.c.nmelds
    if i >= 4:
        return 0
    k = _chars_counts(s, n, c)
    if k < 3 or k > 4:
        return 0
    for t in range(34):
        if c[t]:
            first = t
            break
    if c[first] == k:
        code = (34 if k == 3 else 68) + first
    elif k == 3 and first < 27 and first % 9 <= 6 and c[first + 1] == 1 and c[first + 2] == 1:
        code = first
    else:
        return 0
    if kind != code // 34 or (hidden and (kind != 2 or frm)):
        return 0
    if kind == 0:
        r.used[first] += 1
        r.used[first + 1] += 1
        r.used[first + 2] += 1
    else:
        r.used[first] += k
    r.c.meld_code[i] = code
    r.c.meld_concealed[i] = hidden
    r.meld_kind[i] = kind
    r.meld_from[i] = frm
    r.meld_given[i] = given
    r.c.nmelds = i + 1
    return 1


cdef inline int _add_bonus(Raw *r, bint season, int v) noexcept:
    """Bonus tile number ``v`` held; 0 if out of range or given twice."""
    if v < 1 or v > 4:
        return 0
    if season:
        if (r.c.seasons >> v) & 1:
            return 0
        r.c.seasons |= 1 << v
        r.c.nseasons += 1
    else:
        if (r.c.flowers >> v) & 1:
            return 0
        r.c.flowers |= 1 << v
        r.c.nflowers += 1
    return 1


cdef int _finish(Raw *r, bint won) noexcept:
    """The checks across fields (those of Hand / Position validation); 1 if
    all pass. Sets the seat and round as the kernel reads them."""
    cdef int i, t, code, nm = r.c.nmelds, win = r.c.win
    if not (r.keys & 1):
        return 0
    for i in range(34):
        if r.used[i] + r.c.counts[i] > 4:
            return 0
    if won:
        if not (r.keys & (1 << K_WIN)) or win < 0 or r.n + 3 * nm != 14 or r.c.counts[win] == 0:
            return 0
        if r.c.robbing:
            # the robbed tile's other copies: in hand and in declared sets
            t = r.c.counts[win]
            for i in range(nm):
                code = r.c.meld_code[i]
                if code < 34:
                    t += (code <= win <= code + 2)
                elif code % 34 == win:
                    t += 3 if code < 68 else 4
            if t > 1:
                return 0
    elif (r.keys & WIN_KEYS) or (r.n + 3 * nm != 13 and r.n + 3 * nm != 14):
        return 0
    if not _context_ok(r.c.self_draw, r.c.last_tile, r.c.kong_repl, r.c.robbing, r.c.first_turn, r.c.seat_number,
                       r.disc, nm, r.meld_kind, r.meld_from, r.c.meld_concealed):
        return 0
    r.c.seat = 26 + r.c.seat_number
    r.c.round_ = 26 + r.round_no
    return 1


cdef int _key_given(Raw *r, int key) noexcept:
    """Mark ``key`` given; 0 if it was already."""
    if (r.keys >> key) & 1:
        return 0
    r.keys |= 1 << key
    return 1


# ---- dicts ----------------------------------------------------------------

cdef inline int _flag_of(object v) noexcept:
    """0 or 1 for False or True; -1 for anything else."""
    if v is True:
        return 1
    if v is False:
        return 0
    return -1


cdef int _dict_meld(Raw *r, object given) except -1:
    cdef Py_ssize_t pos = 0, n, nt = -1
    cdef PyObject *key
    cdef PyObject *value
    cdef const char *k
    cdef const char *tiles = NULL
    cdef int kind = -1, hidden = 0, frm = 0, gbits = 0
    if type(given) is not dict:
        return 0
    while PyDict_Next(given, &pos, &key, &value):
        k = _ascii(<object>key, &n)
        if k == NULL:
            return 0
        if _same(k, n, "kind"):
            k = _ascii(<object>value, &n)
            if k == NULL:
                return 0
            kind = _kind_no(k, n)
            if kind < 0:
                return 0
        elif _same(k, n, "tiles"):
            tiles = _ascii(<object>value, &nt)
            if tiles == NULL:
                return 0
        elif _same(k, n, "concealed"):
            hidden = _flag_of(<object>value)
            if hidden < 0:
                return 0
            gbits |= 2
        elif _same(k, n, "from"):
            gbits |= 1
            if <object>value is not None:
                k = _ascii(<object>value, &n)
                frm = _seat_char(k, n) if k != NULL else 0
                if frm == 0:
                    return 0
        else:
            return 0
    if kind < 0 or tiles == NULL:
        return 0
    return _add_meld(r, kind, tiles, nt, hidden, frm, gbits)


cdef int _dict_bonus(Raw *r, bint season, object value) except -1:
    cdef Py_ssize_t i, n
    if type(value) is not list and type(value) is not tuple:
        return 0
    n = len(value)
    if n > 4:
        return 0
    for i in range(n):
        x = value[i]
        if type(x) is not int or not 1 <= x <= 4:
            return 0
        if not _add_bonus(r, season, x):
            return 0
    return 1


cdef int _scan_dict(Raw *r, dict d) except -1:
    """Fill ``r`` from a hand dict; 0 if it is not plain and valid field by field."""
    cdef Py_ssize_t pos = 0, n, i
    cdef PyObject *key
    cdef PyObject *value
    cdef PyObject *found
    cdef const char *s
    cdef int k, f
    while PyDict_Next(d, &pos, &key, &value):
        if type(<object>key) is not str:
            return 0
        found = PyDict_GetItem(_KEY_NO, <object>key)
        if found == NULL:
            return 0
        k = <int><object>found
        r.keys |= 1 << k
        v = <object>value
        if k == K_TILES:
            s = _ascii(v, &n)
            if s == NULL or not _tiles_field(r, s, n):
                return 0
        elif k == K_MELDS:
            if type(v) is not list and type(v) is not tuple:
                return 0
            v = tuple(v)
            if len(v) > 4:
                return 0
            for i in range(len(v)):
                if not _dict_meld(r, v[i]):
                    return 0
        elif k == K_WIN:
            s = _ascii(v, &n)
            if s == NULL or n != 2:
                return 0
            r.c.win = _chars_tile(s)
            if r.c.win < 0:
                return 0
        elif k == K_SEAT or k == K_ROUND or k == K_DISCARDER:
            if k == K_DISCARDER and v is None:
                continue
            s = _ascii(v, &n)
            f = _seat_char(s, n) if s != NULL else 0
            if f == 0:
                return 0
            if k == K_SEAT:
                r.c.seat_number = f
            elif k == K_ROUND:
                r.round_no = f
            else:
                r.disc = f
        elif k == K_FLOWERS or k == K_SEASONS:
            if not _dict_bonus(r, k == K_SEASONS, v):
                return 0
        elif k == K_KONGS:
            if type(v) is not int or not 0 <= v <= 2:
                return 0
            r.c.kong_repl = v
        elif k == K_FIRST:
            if v is None:
                continue
            s = _ascii(v, &n)
            f = _first_no(s, n) if s != NULL else 0
            if f == 0:
                return 0
            r.c.first_turn = f
        else:
            f = _flag_of(v)
            if f < 0:
                return 0
            if k == K_SELF_DRAW:
                r.c.self_draw = f
            elif k == K_LAST:
                r.c.last_tile = f
            else:
                r.c.robbing = f
    return 1


# ---- JSON text --------------------------------------------------------------

cdef inline Py_ssize_t _ws(const char *s, Py_ssize_t i, Py_ssize_t n) noexcept:
    while i < n and (s[i] == 32 or s[i] == 10 or s[i] == 13 or s[i] == 9):
        i += 1
    return i


cdef inline Py_ssize_t _jstring(const char *s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *start) noexcept:
    """A string without escapes at ``s[i]`` (``"``): the index after it and
    its first character in ``start``; -1 if it is anything else."""
    cdef unsigned char ch
    if i >= n or s[i] != 34:
        return -1
    i += 1
    start[0] = i
    while i < n:
        ch = <unsigned char>s[i]
        if ch == 34:
            return i + 1
        if ch == 92 or ch < 32 or ch >= 127:
            return -1
        i += 1
    return -1


cdef inline Py_ssize_t _jliteral(const char *s, Py_ssize_t i, Py_ssize_t n, int *value) noexcept:
    """true (1), false (0) or null (2) at ``s[i]``: the index after it; -1 if none."""
    if n - i >= 4 and s[i] == 116 and s[i + 1] == 114 and s[i + 2] == 117 and s[i + 3] == 101:
        value[0] = 1
        return i + 4
    if n - i >= 5 and s[i] == 102 and s[i + 1] == 97 and s[i + 2] == 108 and s[i + 3] == 115 and s[i + 4] == 101:
        value[0] = 0
        return i + 5
    if n - i >= 4 and s[i] == 110 and s[i + 1] == 117 and s[i + 2] == 108 and s[i + 3] == 108:
        value[0] = 2
        return i + 4
    return -1


cdef inline Py_ssize_t _jdigit(const char *s, Py_ssize_t i, Py_ssize_t n, int *value) noexcept:
    """A one-digit number at ``s[i]`` (not followed by another digit, a
    fraction or an exponent): the index after it; -1 if none."""
    if i >= n or not 48 <= s[i] <= 57:
        return -1
    if i + 1 < n and (48 <= s[i + 1] <= 57 or s[i + 1] == 46 or s[i + 1] == 101 or s[i + 1] == 69):
        return -1
    value[0] = s[i] - 48
    return i + 1


cdef Py_ssize_t _jmeld(Raw *r, const char *s, Py_ssize_t i, Py_ssize_t n) noexcept:
    cdef Py_ssize_t a = 0, tiles = -1, nt = 0, e
    cdef int kind = -1, hidden = 0, frm = 0, gbits = 0, seen = 0, v
    if i >= n or s[i] != 123:
        return -1
    i = _ws(s, i + 1, n)
    if i < n and s[i] == 125:
        return -1
    while True:
        e = _jstring(s, i, n, &a)
        if e < 0:
            return -1
        i = _ws(s, e, n)
        if i >= n or s[i] != 58:
            return -1
        i = _ws(s, i + 1, n)
        if _same(s + a, e - 1 - a, "kind"):
            if seen & 1:
                return -1
            seen |= 1
            e = _jstring(s, i, n, &a)
            if e < 0:
                return -1
            kind = _kind_no(s + a, e - 1 - a)
            if kind < 0:
                return -1
        elif _same(s + a, e - 1 - a, "tiles"):
            if seen & 2:
                return -1
            seen |= 2
            e = _jstring(s, i, n, &tiles)
            if e < 0:
                return -1
            nt = e - 1 - tiles
        elif _same(s + a, e - 1 - a, "concealed"):
            if seen & 4:
                return -1
            seen |= 4
            e = _jliteral(s, i, n, &hidden)
            if e < 0 or hidden == 2:
                return -1
            gbits |= 2
        elif _same(s + a, e - 1 - a, "from"):
            if seen & 8:
                return -1
            seen |= 8
            gbits |= 1
            e = _jliteral(s, i, n, &v)
            if e >= 0:
                if v != 2:
                    return -1
            else:
                e = _jstring(s, i, n, &a)
                if e < 0:
                    return -1
                frm = _seat_char(s + a, e - 1 - a)
                if frm == 0:
                    return -1
        else:
            return -1
        i = _ws(s, e, n)
        if i < n and s[i] == 44:
            i = _ws(s, i + 1, n)
            continue
        if i < n and s[i] == 125:
            break
        return -1
    if kind < 0 or tiles < 0 or not _add_meld(r, kind, s + tiles, nt, hidden, frm, gbits):
        return -1
    return i + 1


cdef Py_ssize_t _jarray(Raw *r, const char *s, Py_ssize_t i, Py_ssize_t n, int key) noexcept:
    """The melds, flowers or seasons array at ``s[i]``: the index after it; -1 if unusual."""
    cdef int v
    if i >= n or s[i] != 91:
        return -1
    i = _ws(s, i + 1, n)
    if i < n and s[i] == 93:
        return i + 1
    while True:
        if key == K_MELDS:
            i = _jmeld(r, s, i, n)
        else:
            i = _jdigit(s, i, n, &v)
            if i >= 0 and not _add_bonus(r, key == K_SEASONS, v):
                return -1
        if i < 0:
            return -1
        i = _ws(s, i, n)
        if i < n and s[i] == 44:
            i = _ws(s, i + 1, n)
            continue
        if i < n and s[i] == 93:
            return i + 1
        return -1


cdef int _scan_json(Raw *r, const char *s, Py_ssize_t n) noexcept:
    """Fill ``r`` from a JSON object with no escapes, fractions or repeated
    keys; 0 if the text is anything else or a field is not plain and valid."""
    cdef Py_ssize_t i = _ws(s, 0, n), a = 0, e
    cdef int k, v, f
    if i >= n or s[i] != 123:
        return 0
    i = _ws(s, i + 1, n)
    if i < n and s[i] == 125:
        i += 1
    else:
        while True:
            e = _jstring(s, i, n, &a)
            if e < 0:
                return 0
            k = _json_key(s + a, e - 1 - a)
            if k < 0 or not _key_given(r, k):
                return 0
            i = _ws(s, e, n)
            if i >= n or s[i] != 58:
                return 0
            i = _ws(s, i + 1, n)
            if k == K_MELDS or k == K_FLOWERS or k == K_SEASONS:
                e = _jarray(r, s, i, n, k)
            elif k == K_KONGS:
                e = _jdigit(s, i, n, &v)
                if e < 0 or v > 2:
                    return 0
                r.c.kong_repl = v
            elif k == K_SELF_DRAW or k == K_LAST or k == K_ROB:
                e = _jliteral(s, i, n, &v)
                if e < 0 or v == 2:
                    return 0
                if k == K_SELF_DRAW:
                    r.c.self_draw = v
                elif k == K_LAST:
                    r.c.last_tile = v
                else:
                    r.c.robbing = v
            else:
                e = _jliteral(s, i, n, &v) if k == K_DISCARDER or k == K_FIRST else -1
                if e >= 0:
                    if v != 2:
                        return 0
                else:
                    e = _jstring(s, i, n, &a)
                    if e < 0:
                        return 0
                    if k == K_TILES:
                        if not _tiles_field(r, s + a, e - 1 - a):
                            return 0
                    elif k == K_WIN:
                        if e - 1 - a != 2:
                            return 0
                        r.c.win = _chars_tile(s + a)
                        if r.c.win < 0:
                            return 0
                    elif k == K_FIRST:
                        r.c.first_turn = _first_no(s + a, e - 1 - a)
                        if r.c.first_turn == 0:
                            return 0
                    else:
                        f = _seat_char(s + a, e - 1 - a)
                        if f == 0:
                            return 0
                        if k == K_SEAT:
                            r.c.seat_number = f
                        elif k == K_ROUND:
                            r.round_no = f
                        else:
                            r.disc = f
            if e < 0:
                return 0
            i = _ws(s, e, n)
            if i < n and s[i] == 44:
                i = _ws(s, i + 1, n)
                continue
            if i < n and s[i] == 125:
                i += 1
                break
            return 0
    return _ws(s, i, n) == n


cdef int _json_key(const char *s, Py_ssize_t n) noexcept:
    cdef int k
    for k in range(13):
        if _same(s, n, _KEY_C[k]):
            return k
    return -1


cdef const char *_KEY_C[13]
_KEY_C[:] = [b"tiles", b"melds", b"win_tile", b"self_draw", b"seat_wind", b"round_wind", b"flowers", b"seasons",
             b"discarder", b"last_tile", b"kong_replacement", b"robbing_kong", b"first_turn"]


# ---- notation ---------------------------------------------------------------

cdef inline char _lower(char ch) noexcept:
    return ch + 32 if 65 <= ch <= 90 else ch


cdef inline char _upper(char ch) noexcept:
    return ch - 32 if 97 <= ch <= 122 else ch


cdef bint _word_is(const char *s, Py_ssize_t n, const char *word) noexcept:
    """``s[:n]`` lowercased, "_" read as "-", is ``word``."""
    cdef Py_ssize_t i
    cdef char ch
    for i in range(n):
        ch = _lower(s[i])
        if ch == 95:
            ch = 45
        if word[i] == 0 or word[i] != ch:
            return False
    return word[n] == 0


cdef int _plain_set(const char *s, Py_ssize_t n) noexcept:
    """The kind (0..2) of a set written plainly (``666z``, ``1111m``, ``243p``),
    as notation reads it without its full tile reader; -1 otherwise."""
    cdef Py_ssize_t i
    cdef int lo = 9, hi = 0, seen = 0, d
    cdef char suit
    if n != 4 and n != 5:
        return -1
    suit = s[n - 1]
    if suit != 109 and suit != 112 and suit != 115 and suit != 122:
        return -1
    for i in range(n - 1):
        d = s[i] - 48
        if d < 1 or d > 9 or (suit == 122 and d > 7):
            return -1
        lo = min(lo, d)
        hi = max(hi, d)
        seen |= 1 << d
    if lo == hi:
        return 1 if n == 4 else 2
    if n == 4 and suit != 122 and hi - lo == 2 and seen == (7 << lo):
        return 0
    return -1


cdef int _scan_notation(Raw *r, const char *s, Py_ssize_t n) noexcept:
    """Fill ``r`` from a notation line of plain ASCII tokens; 0 for anything
    the Python reader would read differently or refuse."""
    cdef Py_ssize_t i = 0, a, e, colon, vlen
    cdef const char *v
    cdef int kind, frm, k, num, d
    cdef char ch
    for i in range(n):
        if s[i] < 32 or s[i] > 126:
            return 0
    i = 0
    while i < n and s[i] == 32:
        i += 1
    if i == n:
        return 0
    a = i
    while i < n and s[i] != 32:
        i += 1
    if not _tiles_field(r, s + a, i - a):
        return 0
    r.keys = (1 << K_TILES) | (1 << K_MELDS)
    while True:
        while i < n and s[i] == 32:
            i += 1
        if i == n:
            return 1
        a = i
        colon = -1
        while i < n and s[i] != 32:
            if s[i] == 58 and colon < 0:
                colon = i
            i += 1
        e = i
        # flags, then key:value tokens (the word read lowercased, "_" as "-")
        if _word_is(s + a, e - a, "self-draw"):
            if not _key_given(r, K_SELF_DRAW):
                return 0
            r.c.self_draw = 1
            continue
        if _word_is(s + a, e - a, "last-tile"):
            if not _key_given(r, K_LAST):
                return 0
            r.c.last_tile = 1
            continue
        if _word_is(s + a, e - a, "robbing-kong"):
            if not _key_given(r, K_ROB):
                return 0
            r.c.robbing = 1
            continue
        k = -1
        if colon >= 0:
            if _word_is(s + a, colon - a, "win"):
                k = K_WIN
            elif _word_is(s + a, colon - a, "from"):
                k = K_DISCARDER
            elif _word_is(s + a, colon - a, "seat"):
                k = K_SEAT
            elif _word_is(s + a, colon - a, "round"):
                k = K_ROUND
            elif _word_is(s + a, colon - a, "flowers"):
                k = K_FLOWERS
            elif _word_is(s + a, colon - a, "seasons"):
                k = K_SEASONS
            elif _word_is(s + a, colon - a, "kong-replacement"):
                k = K_KONGS
            elif _word_is(s + a, colon - a, "first-turn"):
                k = K_FIRST
        elif _word_is(s + a, e - a, "kong-replacement"):
            if not _key_given(r, K_KONGS):
                return 0
            r.c.kong_repl = 1
            continue
        if k >= 0:
            if not _key_given(r, k):
                return 0
            v = s + colon + 1
            vlen = e - colon - 1
            if vlen == 0:
                return 0
            if k == K_KONGS:
                if vlen > 3:
                    return 0
                num = 0
                for d in range(vlen):
                    if not 48 <= v[d] <= 57:
                        return 0
                    num = num * 10 + v[d] - 48
                if num > 2:
                    return 0
                r.c.kong_repl = num
            elif k == K_FLOWERS or k == K_SEASONS:
                for d in range(vlen):
                    if v[d] == 44:
                        continue
                    if not _add_bonus(r, k == K_SEASONS, v[d] - 48):
                        return 0
            elif k == K_WIN:
                if vlen != 2:
                    return 0
                ch = _lower(v[1])
                r.c.win = _tile_index(v[0], ch)
                if r.c.win < 0:
                    return 0
            elif k == K_FIRST:
                if _word_is(v, vlen, "deal"):
                    r.c.first_turn = 1
                elif _word_is(v, vlen, "first-draw"):
                    r.c.first_turn = 2
                elif _word_is(v, vlen, "first-discard"):
                    r.c.first_turn = 3
                else:
                    return 0
            else:
                if vlen != 1:
                    return 0
                ch = _upper(v[0])
                frm = _seat_char(&ch, 1)
                if frm == 0:
                    return 0
                if k == K_SEAT:
                    r.c.seat_number = frm
                elif k == K_ROUND:
                    r.round_no = frm
                else:
                    r.disc = frm
            continue
        if s[a] == 91 and s[e - 1] == 93 and e - a >= 2:
            # a concealed kong: [1111m]
            if _plain_set(s + a + 1, e - a - 2) != 2 or not _add_meld(r, 2, s + a + 1, e - a - 2, 1, 0, 2):
                return 0
            continue
        if 48 <= s[a] <= 57:
            # a declared set: 666z, 666z:W, or a concealed kong 1111m:concealed
            if colon < 0:
                colon = e
            kind = _plain_set(s + a, colon - a)
            if kind < 0:
                return 0
            frm = 0
            if colon < e and _word_is(s + colon + 1, e - colon - 1, "concealed"):
                if kind != 2 or not _add_meld(r, 2, s + a, colon - a, 1, 0, 2):
                    return 0
                continue
            if colon < e:
                if e - colon != 2:
                    return 0
                ch = _upper(s[colon + 1])
                frm = _seat_char(&ch, 1)
                if frm == 0:
                    return 0
            if not _add_meld(r, kind, s + a, colon - a, 0, frm, 1 if frm else 0):
                return 0
            continue
        return 0


cdef inline int _tile_index(char a, char b) noexcept:
    """The index of digit ``a`` and suit letter ``b``; -1 for anything else."""
    if not 49 <= a <= 57:
        return -1
    if b == 109:
        return a - 49
    if b == 112:
        return 9 + a - 49
    if b == 115:
        return 18 + a - 49
    if b == 122 and a <= 55:
        return 27 + a - 49
    return -1


cdef inline int _chars_tile(const char *s) noexcept:
    return _tile_index(s[0], s[1])


# ---- the reader ---------------------------------------------------------------

cdef str _canonical(const int *c):
    """The canonical notation of 34 counts: digits ascending, suits m p s z."""
    cdef char buf[80]
    cdef int n = 0, s, i, k, any_
    for s in range(4):
        any_ = 0
        for i in range(9 if s < 3 else 7):
            for k in range(c[9 * s + i]):
                buf[n] = 49 + i
                n += 1
                any_ = 1
        if any_:
            buf[n] = (109, 112, 115, 122)[s]
            n += 1
    return buf[:n].decode("ascii")


cdef bint _context_ok(int sd, int last, int kr, int rob, int ft, int seat, int disc, int nm, const int *kind,
                      const int *frm, const int *concealed) noexcept:
    """The context checks of Hand._check_context and _check_from, all passed
    (seats 1..4, 0 for none; first turn 0 none, 1 deal, 2 first_draw, 3
    first_discard)."""
    cdef int i, kongs = 0, claimed = 0, before = 4 if seat == 1 else seat - 1
    for i in range(nm):
        kongs += kind[i] == 2
        claimed += not concealed[i]
        if frm[i] == seat or (kind[i] == 0 and frm[i] != 0 and frm[i] != before):
            return False
    if kr > kongs or (ft and (last or kr)) or (kr and last):
        return False
    if not sd and (kr or ft == 1 or ft == 2):
        return False
    if sd and (rob or disc or ft == 3):
        return False
    if (rob and last) or (disc and disc == seat) or (ft == 1 and seat != 1):
        return False
    if (ft == 3 and disc not in (0, 1)) or ((ft == 2 or ft == 3) and seat == 1) or (ft and claimed):
        return False
    return True


cdef tuple _SEAT_TEXT = (None, "E", "S", "W", "N")
#: the canonical tiles of each set code (chows 0..33, pungs 34..67, kongs 68..101)
cdef tuple _MELD_TEXT = tuple(
    ("" if k == 0 and (t >= 27 or t % 9 > 6) else
     "".join(str((t if k else t + j) % 9 + 1) for j in range(3 if k < 2 else 4)) + "mpsz"[t // 9])
    for k in range(3) for t in range(34))
#: the fields a meld dict set: kind and tiles, with concealed and from as given
cdef tuple _MELD_FIELDS_SET = (frozenset(("kind", "tiles")), frozenset(("kind", "tiles", "from_")),
                               frozenset(("kind", "tiles", "concealed")),
                               frozenset(("kind", "tiles", "concealed", "from_")))
cdef tuple _FIRST_TEXT = (None, "deal", "first_draw", "first_discard")


cdef class HandReader:
    """Reads a plain, valid hand (a dict, JSON text or bytes, or a notation
    line) into a Hand (or, with ``won`` false, a Position) without pydantic
    validation, kernel context included; None for anything else.
    ``meld_part(kind, tiles, concealed)`` gives the reading part of a
    declared set (made once per set here); ``max_json`` and ``max_notation``
    are the longest texts the Python readers read."""

    cdef object model
    cdef list meld_parts
    cdef bint won
    cdef Py_ssize_t max_json, max_notation
    cdef Py_ssize_t off_fields_set, off_extra, off_private
    cdef list melds

    def __init__(self, model, meld_class, meld_part, bint won, Py_ssize_t max_json, Py_ssize_t max_notation):
        cdef int code
        self.model = model
        self.won = won
        self.max_json = max_json
        self.max_notation = max_notation
        self.meld_parts = []
        for code in range(102):
            kind, t = divmod(code, 34)
            if kind == 0 and (t >= 27 or t % 9 > 6):
                self.meld_parts.append(None)
                continue
            kind_name = ("chow", "pung", "kong")[kind]
            self.meld_parts.append((meld_part(kind_name, _MELD_TEXT[code], False),
                                    meld_part(kind_name, _MELD_TEXT[code], True)))
        names = set(_KEY_NAMES) if won else {"tiles", "melds", "seat_wind", "round_wind", "flowers", "seasons"}
        if set(model.model_fields) != names or set(meld_class.model_fields) != {"kind", "tiles", "concealed",
                                                                                  "from_"}:
            raise TypeError("HandReader: the models' fields are not the ones it reads")
        self.off_fields_set = _slot_offset(model, "__pydantic_fields_set__")
        self.off_extra = _slot_offset(model, "__pydantic_extra__")
        self.off_private = _slot_offset(model, "__pydantic_private__")
        m_fields_set = _slot_offset(meld_class, "__pydantic_fields_set__")
        m_extra = _slot_offset(meld_class, "__pydantic_extra__")
        m_private = _slot_offset(meld_class, "__pydantic_private__")
        # every Meld a plain hand can describe, made here (Melds are immutable: hands share them), by
        # ((code * 2 + concealed) * 5 + from seat (0: none)) * 4 + which of concealed and from were given
        self.melds = [None] * (102 * 2 * 5 * 4)
        for code in range(102):
            if not _MELD_TEXT[code]:
                continue
            kind_name = ("chow", "pung", "kong")[code // 34]
            for hidden in range(2 if code >= 68 else 1):
                for frm in range(1 if hidden else 5):
                    for given in range(4):
                        values = {"kind": kind_name, "tiles": _MELD_TEXT[code], "concealed": hidden == 1,
                                  "from_": _SEAT_TEXT[frm]}
                        self.melds[(((code * 2 + hidden) * 5 + frm) * 4) + given] = _new_model(
                            meld_class, values, set(_MELD_FIELDS_SET[given]), {"_code": code}, m_fields_set,
                            m_extra, m_private)

    def __call__(self, data):
        """The model for ``data``, or None (validate it the slow way)."""
        cdef Raw r
        try:
            if not self._scan(data, &r):
                return None
            return self._build(&r)
        except Exception:  # anything unusual: validation says what is wrong
            return None

    cdef int _scan(self, object data, Raw *r) except -1:
        """Fill ``r`` from a dict, JSON text or bytes or a notation line, all
        checks passed; 0 if the input is not plain and valid."""
        cdef const char *s
        cdef Py_ssize_t n, i
        cdef int ok
        _raw_init(r)
        if type(data) is dict:
            ok = _scan_dict(r, <dict>data)
        else:
            if type(data) is bytes:
                s = PyBytes_AS_STRING(data)
                n = PyBytes_GET_SIZE(data)
            else:
                s = _ascii(data, &n)
                if s == NULL:
                    return 0
            i = _ws(s, 0, n)
            if i < n and s[i] == 123:
                ok = n <= self.max_json and _scan_json(r, s, n)
            elif type(data) is str:
                ok = n <= self.max_notation and _scan_notation(r, s, n)
            else:
                return 0
        return ok and _finish(r, self.won)

    cdef tuple _parts(self, Raw *r):
        """The reading parts of the declared sets."""
        cdef int i, nm = r.c.nmelds
        if nm == 0:
            return _EMPTY_TUPLE
        return tuple([self.meld_parts[r.c.meld_code[i]][r.c.meld_concealed[i]] for i in range(nm)])

    cdef object _build(self, Raw *r):
        """The model of a scanned hand, as validation builds it."""
        cdef int i, nm = r.c.nmelds, code
        melds = PyTuple_New(nm)
        for i in range(nm):
            code = r.c.meld_code[i]
            m = self.melds[(((code * 2 + r.c.meld_concealed[i]) * 5 + r.meld_from[i]) * 4) + r.meld_given[i]]
            Py_INCREF(m)
            PyTuple_SET_ITEM(melds, i, m)
        codes = tuple([r.c.meld_code[i] for i in range(nm)])
        counts = tuple([r.c.counts[i] for i in range(34)])
        concealed = tuple([r.c.meld_concealed[i] == 1 for i in range(nm)])
        fl = _BONUS_TUPLES[r.c.flowers]
        se = _BONUS_TUPLES[r.c.seasons]
        seat = r.c.seat_number
        if self.won:
            ctx = (bytes(counts), codes, concealed, r.c.self_draw == 1, 26 + seat, 26 + r.round_no, seat,
                   r.c.flowers, r.c.seasons, r.c.nflowers, r.c.nseasons, r.c.last_tile == 1, r.c.kong_repl,
                   r.c.robbing == 1, r.c.first_turn, r.c.win, self._parts(r), r.disc)
            private = {"_counts": counts, "_win": r.c.win, "_kernel_ctx": ctx}
            values = {"tiles": _canonical(r.c.counts), "melds": melds, "win_tile": _CODE_TEXT[r.c.win],
                      "self_draw": r.c.self_draw == 1, "seat_wind": _SEAT_TEXT[seat],
                      "round_wind": _SEAT_TEXT[r.round_no], "flowers": fl, "seasons": se,
                      "discarder": _SEAT_TEXT[r.disc], "last_tile": r.c.last_tile == 1,
                      "kong_replacement": r.c.kong_repl, "robbing_kong": r.c.robbing == 1,
                      "first_turn": _FIRST_TEXT[r.c.first_turn]}
        else:
            ctx = (bytes(counts), codes, concealed, False, 26 + seat, 26 + r.round_no, seat, r.c.flowers,
                   r.c.seasons, r.c.nflowers, r.c.nseasons, False, 0, False, 0, -1, (), 0)
            private = {"_counts": counts, "_kernel_ctx": ctx}
            values = {"tiles": _canonical(r.c.counts), "melds": melds, "seat_wind": _SEAT_TEXT[seat],
                      "round_wind": _SEAT_TEXT[r.round_no], "flowers": fl, "seasons": se}
        given = set()
        for i in range(13):
            if (r.keys >> i) & 1:
                given.add(_KEY_NAMES[i])
        return _new_model(self.model, values, given, private, self.off_fields_set, self.off_extra,
                          self.off_private)

    def score(self, Kernel k, data):
        """The ScoreResult of plain valid ``data`` under the assembled kernel
        ``k``; None for anything else (the slow way answers, with its errors)."""
        return self._score(k, data)

    cdef object _score(self, Kernel k, object data):
        """The ScoreResult of ``data`` under ``k``, or None (the slow way answers)."""
        cdef Raw r
        cdef Summary base
        try:
            if not self._scan(data, &r):
                return None
        except Exception:
            return None
        _summarize(&r.c, &base)
        found = k._result(&r.c, &base, r.disc, self._parts(&r), None)
        if found is NEED_HAND:
            return k._result(&r.c, &base, r.disc, self._parts(&r), self._build(&r))
        return found


cdef object _new_model(object cls, dict values, object fields_set, object private, Py_ssize_t off_fields_set,
                       Py_ssize_t off_extra, Py_ssize_t off_private):
    """A pydantic model instance from values known to be valid, as
    model_construct leaves it (the instance dict and pydantic's three slots)."""
    cdef PyTypeObject *tp = <PyTypeObject *>cls
    obj = <object>PyType_GenericAlloc(tp, 0)
    Py_DECREF(obj)
    cdef PyObject **dictptr = _PyObject_GetDictPtr(obj)
    Py_INCREF(values)
    dictptr[0] = <PyObject *>values
    _set_slot(obj, off_fields_set, fields_set)
    _set_slot(obj, off_extra, None)
    _set_slot(obj, off_private, private)
    return obj


def bind_score(list cell, list registry_cell, hand_class, HandReader reader, slow):
    """``slow`` (hkcore.engine's score) with its most common cases answered
    here: a ``hand_class`` instance, or a plain valid hand that ``reader``
    reads, under a built-in preset id. ``cell[0]`` is (registry, {id:
    Kernel}) as the engine last published it; it is used while that registry
    is still the one ``registry_cell[0]`` holds, else ``slow`` answers (and
    publishes anew). The result carries ``slow``'s name, docstring and
    signature."""
    def score(hand, preset="bga-old-style"):
        if type(preset) is str:
            current = <tuple>cell[0]
            if current[0] is registry_cell[0]:
                k = (<dict>current[1]).get(preset)
                if k is not None:
                    if type(hand) is hand_class:
                        r = (<Kernel>k)._score_result(hand)
                    else:
                        r = reader._score(<Kernel>k, hand)
                    if r is not None:
                        return r
        return slow(hand, preset)
    functools.update_wrapper(score, slow)
    return score


# ---- results out -------------------------------------------------------------

cdef class ResultWriter:
    """The JSON of a ScoreResult, byte for byte as pydantic writes it, from
    its instance dict and its parts' prebuilt JSON; None for anything
    unusual (pydantic then writes it). ``part_class`` is the class of
    patterns and reading parts, whose private ``_json`` holds their JSON."""

    cdef Py_ssize_t off_part_private
    cdef object encode

    def __init__(self, part_classes, encode):
        offsets = {_slot_offset(cls, "__pydantic_private__") for cls in part_classes}
        if len(offsets) != 1:
            raise TypeError("ResultWriter: the part classes keep their private values apart")
        self.off_part_private = offsets.pop()
        self.encode = encode

    cdef int _put_text(self, list out, object value) except -1:
        """Append the JSON of a str or None."""
        cdef Py_ssize_t n, i
        cdef const char *s
        cdef char ch
        if value is None:
            out.append("null")
            return 0
        s = _ascii(value, &n)
        if s != NULL:
            for i in range(n):
                ch = s[i]
                if ch < 32 or ch == 34 or ch == 92 or ch == 127:
                    break
            else:
                out.append('"')
                out.append(value)
                out.append('"')
                return 0
        if type(value) is not str:
            raise TypeError
        out.append(self.encode(value))
        return 0

    cdef int _put_parts(self, list out, object parts) except -1:
        """Append the JSON of a list of patterns or reading parts, each prebuilt."""
        cdef PyObject *priv
        cdef PyObject *found
        cdef bint first = True
        if type(parts) is not list:
            raise TypeError
        for p in <list>parts:
            priv = (<PyObject **>((<char *><PyObject *>p) + self.off_part_private))[0]
            if priv == NULL or type(<object>priv) is not dict:
                raise TypeError
            found = PyDict_GetItem(<object>priv, "_json")
            if found == NULL or type(<object>found) is not str:
                raise TypeError
            if not first:
                out.append(",")
            first = False
            out.append(<object>found)
        return 0

    def __call__(self, dict d):
        try:
            return self._write(d)
        except Exception:
            return None

    cdef str _write(self, dict d):
        cdef list out = []
        cdef bint first = True
        if len(d) != 13:
            return None
        unit = d["unit"]
        if unit != "faan" and unit != "points":
            return None
        out.append('{"preset":')
        self._put_text(out, d["preset"])
        out.append(',"unit":"faan","faan":' if unit == "faan" else ',"unit":"points","faan":')
        out.append(_json_int(d["faan"]))
        out.append(',"uncapped":')
        out.append(_json_int(d["uncapped"]))
        out.append(',"winnable":')
        out.append(_json_bool(d["winnable"]))
        out.append(',"complete":')
        out.append(_json_bool(d["complete"]))
        out.append(',"limit":')
        out.append(_json_bool(d["limit"]))
        out.append(',"shape":')
        self._put_text(out, d["shape"])
        out.append(',"patterns":[')
        self._put_parts(out, d["patterns"])
        out.append('],"reading":[')
        self._put_parts(out, d["reading"])
        out.append('],"payments":')
        pays = d["payments"]
        if pays is None:
            out.append("null")
        elif type(pays) is dict:
            out.append("{")
            for k, v in (<dict>pays).items():
                if not first:
                    out.append(",")
                first = False
                self._put_text(out, k)
                out.append(":")
                out.append(_json_int(v))
            out.append("}")
        else:
            return None
        out.append(',"payments_note":')
        self._put_text(out, d["payments_note"])
        out.append(',"reason":')
        self._put_text(out, d["reason"])
        out.append("}")
        return "".join(out)


#: the JSON of small ints, made at import
cdef tuple _INT_TEXT = tuple(str(i) for i in range(-2000, 2001))


cdef inline str _json_int(object v):
    if type(v) is not int:
        raise TypeError
    if -2000 <= v <= 2000:
        return <str>_INT_TEXT[<long>v + 2000]
    return str(v)


cdef inline str _json_bool(object v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    raise TypeError
