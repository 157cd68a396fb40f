# Fast ingestion, included by _ccore.pyx: a hand given as a dict (the hand
# JSON of RULES.md) read straight into a validated Hand.
#
# "Fast accept, slow reject": the reader accepts only plain, valid input
# (exact types, plain ASCII tile notation, every count and context check
# passed) and builds exactly the Hand that pydantic validation builds; for
# anything else it returns None and the caller validates the slow way, whose
# errors the user sees. tests/test_ingest.py holds the two equal.

cdef frozenset _HAND_KEYS = frozenset((
    "tiles", "melds", "win_tile", "self_draw", "seat_wind", "round_wind", "flowers", "seasons", "discarder",
    "last_tile", "kong_replacement", "robbing_kong", "first_turn"))
cdef frozenset _POSITION_KEYS = frozenset(("tiles", "melds", "seat_wind", "round_wind", "flowers", "seasons"))
cdef frozenset _MELD_KEYS = frozenset(("kind", "tiles", "concealed", "from"))
cdef frozenset _SEATS = frozenset(("E", "S", "W", "N"))
cdef frozenset _FIRST_TURNS = frozenset(("deal", "first_draw", "first_discard"))
cdef tuple _CODE_TEXT = tuple(f"{i % 9 + 1}{'mpsz'[i // 9]}" for i in range(34))
cdef tuple _EMPTY_TUPLE = ()


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


cdef object _bonus_numbers(object value):
    """A list or tuple of 0..4 distinct ints 1..4, sorted as a tuple; None otherwise."""
    cdef int seen = 0, v
    if type(value) is not list and type(value) is not tuple:
        return None
    if len(value) > 4:
        return None
    for x in value:
        if type(x) is not int:
            return None
        v = x
        if v < 1 or v > 4 or (seen >> v) & 1:
            return None
        seen |= 1 << v
    return tuple([v for v in range(1, 5) if (seen >> v) & 1])


cdef dict _SEAT_NO = {"E": 1, "S": 2, "W": 3, "N": 4}
cdef dict _FIRST_NO = {None: 0, "deal": 1, "first_draw": 2, "first_discard": 3}


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


cdef class HandReader:
    """Reads a plain, valid hand dict into a Hand (or, with ``won`` false, a
    Position) without pydantic validation, kernel context included; None for
    anything else. ``meld_part(kind, tiles, concealed)`` gives the reading
    part of a declared set (made once per set here)."""

    cdef object model
    cdef object meld_class
    cdef list meld_parts
    cdef bint won
    cdef frozenset keys
    cdef tuple field_names
    cdef Py_ssize_t off_fields_set, off_extra, off_private
    cdef Py_ssize_t m_fields_set, m_extra, m_private
    cdef list melds

    def __init__(self, model, meld_class, meld_part, bint won=True):
        cdef int code
        self.model = model
        self.meld_class = meld_class
        self.won = won
        self.meld_parts = []
        for code in range(102):
            kind, t = divmod(code, 34)
            if kind == 0 and (t >= 27 or t % 9 > 6):
                self.meld_parts.append(None)
                continue
            tiles = "".join(_CODE_TEXT[i][0] for i in ((t, t + 1, t + 2) if kind == 0 else (t,) * (kind + 2))) \
                + _CODE_TEXT[t][1]
            kind_name = ("chow", "pung", "kong")[kind]
            self.meld_parts.append((meld_part(kind_name, tiles, False), meld_part(kind_name, tiles, True)))
        self.keys = _HAND_KEYS if won else _POSITION_KEYS
        self.field_names = tuple(model.model_fields)
        if set(self.field_names) != set(self.keys) or set(meld_class.model_fields) != {"kind", "tiles", "concealed",
                                                                                        "from_"}:
            raise TypeError("HandReader: the models' fields are not the ones it reads")
        self.off_fields_set = _slot_offset(model, "__pydantic_fields_set__")
        self.off_extra = _slot_offset(model, "__pydantic_extra__")
        self.off_private = _slot_offset(model, "__pydantic_private__")
        self.m_fields_set = _slot_offset(meld_class, "__pydantic_fields_set__")
        self.m_extra = _slot_offset(meld_class, "__pydantic_extra__")
        self.m_private = _slot_offset(meld_class, "__pydantic_private__")
        # every Meld a plain dict can describe, made here (Melds are immutable: hands share them), by
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
                        self.melds[(((code * 2 + hidden) * 5 + frm) * 4) + given] = self._new(
                            meld_class, values, set(_MELD_FIELDS_SET[given]), {"_code": code}, self.m_fields_set,
                            self.m_extra, self.m_private)

    def __call__(self, data):
        """The model for ``data``, or None (validate it the slow way)."""
        try:
            return self._read(data)
        except Exception:  # anything unusual: validation says what is wrong
            return None

    cdef object _new(self, object cls, dict values, object fields_set, object private, Py_ssize_t off_fields_set,
                     Py_ssize_t off_extra, Py_ssize_t off_private):
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

    cdef object _meld(self, object given, int *used, list codes, int *kinds, int *froms, int *conc):
        """A Meld from a plain dict, its tiles added to ``used``; None if unusual."""
        cdef int c[34]
        cdef int n, t, first = -1, code, kind, i, frm = 0, hidden = 0
        cdef dict g
        cdef PyObject *p
        if type(given) is not dict or len(codes) >= 4:
            return None
        g = <dict>given
        for k in g:
            if k not in _MELD_KEYS:
                return None
        p = PyDict_GetItem(g, "kind")
        if p == NULL or type(<object>p) is not str:
            return None
        kind_name = <object>p
        p = PyDict_GetItem(g, "tiles")
        if p == NULL or type(<object>p) is not str:
            return None
        n = _str_counts(<str>p, c)
        if n < 3 or n > 4:
            return None
        for t in range(34):
            if c[t]:
                first = t
                break
        if c[first] == n:
            code = (34 if n == 3 else 68) + first
        elif n == 3 and first < 27 and first % 9 <= 6 and c[first + 1] == 1 and c[first + 2] == 1:
            code = first
        else:
            return None
        kind = code // 34
        if kind_name != ("chow", "pung", "kong")[kind]:
            return None
        hidden = _flag(g, "concealed")
        if hidden < 0:
            return None
        p = PyDict_GetItem(g, "from")
        if p != NULL and <object>p is not None:
            frm = _seat_no(<object>p)
            if frm <= 0:
                return None
        if hidden and (kind != 2 or frm):
            return None
        if kind == 0:
            used[first] += 1
            used[first + 1] += 1
            used[first + 2] += 1
        else:
            used[first] += n
        i = len(codes)
        kinds[i] = kind
        froms[i] = frm
        conc[i] = hidden
        codes.append(code)
        return self.melds[(((code * 2 + hidden) * 5 + frm) * 4) + ("concealed" in g) * 2 + ("from" in g)]

    cdef object _read(self, object data):
        cdef int c[34]
        cdef int used[34]
        cdef int kinds[4]
        cdef int froms[4]
        cdef int conc[4]
        cdef int n, i, t, win = -1, nm, seat = 1, rnd = 1, disc = 0, sd = 0, last = 0, kr = 0, rob = 0, ft = 0
        cdef int flowers = 0, seasons = 0, nfl = 0, nse = 0
        cdef list codes = []
        cdef dict d
        cdef PyObject *p
        if type(data) is not dict:
            return None
        d = <dict>data
        for k in d:
            if k not in self.keys:
                return None
        p = PyDict_GetItem(d, "tiles")
        if p == NULL or type(<object>p) is not str:
            return None
        n = _str_counts(<str>p, c)
        if n < 0:
            return None
        for i in range(34):
            used[i] = c[i]
        p = PyDict_GetItem(d, "melds")
        melds = []
        if p != NULL:
            raw_melds = <object>p
            if type(raw_melds) is not list and type(raw_melds) is not tuple:
                return None
            if len(raw_melds) > 4:
                return None
            for given in tuple(raw_melds):
                m = self._meld(given, used, codes, kinds, froms, conc)
                if m is None:
                    return None
                melds.append(m)
        for i in range(34):
            if used[i] > 4:
                return None
        nm = len(melds)
        p = PyDict_GetItem(d, "seat_wind")
        if p != NULL:
            seat = _seat_no(<object>p)
            if seat <= 0:
                return None
        p = PyDict_GetItem(d, "round_wind")
        if p != NULL:
            rnd = _seat_no(<object>p)
            if rnd <= 0:
                return None
        fl = se = _EMPTY_TUPLE
        p = PyDict_GetItem(d, "flowers")
        if p != NULL:
            fl = _bonus_numbers(<object>p)
            if fl is None:
                return None
        p = PyDict_GetItem(d, "seasons")
        if p != NULL:
            se = _bonus_numbers(<object>p)
            if se is None:
                return None
        for x in fl:
            flowers |= 1 << <int>x
        for x in se:
            seasons |= 1 << <int>x
        nfl = len(fl)
        nse = len(se)
        if self.won:
            p = PyDict_GetItem(d, "win_tile")
            if p == NULL or type(<object>p) is not str:
                return None
            win = _tile_code(<str>p)
            if win < 0 or n + 3 * nm != 14 or c[win] == 0:
                return None
            sd = _flag(d, "self_draw")
            last = _flag(d, "last_tile")
            rob = _flag(d, "robbing_kong")
            if sd < 0 or last < 0 or rob < 0:
                return None
            p = PyDict_GetItem(d, "kong_replacement")
            if p != NULL:
                if type(<object>p) is not int or not 0 <= <object>p <= 2:
                    return None
                kr = <object>p
            p = PyDict_GetItem(d, "discarder")
            if p != NULL and <object>p is not None:
                disc = _seat_no(<object>p)
                if disc <= 0:
                    return None
            p = PyDict_GetItem(d, "first_turn")
            if p != NULL and <object>p is not None:
                if type(<object>p) is not str or <object>p not in _FIRST_TURNS:
                    return None
                ft = _FIRST_NO[<object>p]
            if rob:
                # the robbed tile's other copies: in hand and in declared sets
                t = c[win]
                for code in codes:
                    if code < 34:
                        t += (code <= win <= code + 2)
                    elif code % 34 == win:
                        t += 3 if code < 68 else 4
                if t > 1:
                    return None
        elif n + 3 * nm != 13 and n + 3 * nm != 14:
            return None
        if not _context_ok(sd, last, kr, rob, ft, seat, disc, nm, kinds, froms, conc):
            return None
        code_tuple = tuple(codes)
        counts = tuple([c[i] for i in range(34)])
        melds_t = tuple(melds)
        concealed = tuple([conc[i] == 1 for i in range(nm)])
        if self.won:
            parts = tuple([self.meld_parts[codes[i]][conc[i]] for i in range(nm)])
            ctx = (bytes(counts), code_tuple, concealed, sd == 1, 26 + seat, 26 + rnd, seat, flowers, seasons,
                   nfl, nse, last == 1, kr, rob == 1, ft, win, parts, disc)
            private = {"_counts": counts, "_win": win, "_kernel_ctx": ctx}
            values = {"tiles": _canonical(c), "melds": melds_t, "win_tile": _CODE_TEXT[win], "self_draw": sd == 1,
                      "seat_wind": _SEAT_TEXT[seat], "round_wind": _SEAT_TEXT[rnd], "flowers": fl, "seasons": se,
                      "discarder": _SEAT_TEXT[disc], "last_tile": last == 1, "kong_replacement": kr,
                      "robbing_kong": rob == 1, "first_turn": _FIRST_TEXT[ft]}
        else:
            ctx = (bytes(counts), code_tuple, concealed, False, 26 + seat, 26 + rnd, seat, flowers, seasons,
                   nfl, nse, False, 0, False, 0, -1, (), 0)
            private = {"_counts": counts, "_kernel_ctx": ctx}
            values = {"tiles": _canonical(c), "melds": melds_t, "seat_wind": _SEAT_TEXT[seat],
                      "round_wind": _SEAT_TEXT[rnd], "flowers": fl, "seasons": se}
        return self._new(self.model, values, set(d), private, self.off_fields_set, self.off_extra,
                         self.off_private)


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


cdef inline int _seat_no(object v):
    """1..4 for "E".."N", 0 for anything else."""
    if type(v) is not str or len(<str>v) != 1:
        return 0
    cdef PyObject *found = PyDict_GetItem(_SEAT_NO, v)
    return 0 if found == NULL else <int><object>found


cdef inline int _flag(dict d, str key):
    """A bool field: 0 or 1 (False when absent), -1 when not exactly a bool."""
    cdef PyObject *p = PyDict_GetItem(d, key)
    if p == NULL:
        return 0
    if <object>p is True:
        return 1
    if <object>p is False:
        return 0
    return -1


cdef inline int _tile_code(str w):
    """The index of a plain two-character code ("5z"), -1 for anything else."""
    cdef int a, b
    if len(w) != 2:
        return -1
    a = <int>(<Py_UCS4>w[0])
    b = <int>(<Py_UCS4>w[1])
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
