# Scoring kernel, included by _ccore.pyx.
#
# A compiled preset becomes a Kernel: per pattern in play, its native
# detector code (the built-in patterns carry one; 0 = call the pattern's
# Python detector), scope, options and value rules as C arrays. ``score``
# walks the readings in the same order as hkcore.engine (sorted readings,
# the winning tile in the pair first, then in each set by ascending code,
# the bonus instant win last), detects, adds up, and returns the best
# outcome (an entry whose ``when`` does not hold for the win is skipped, as
# if not detected); hkcore.engine turns it into a ScoreResult. hkcore.engine's
# pure Python evaluation is the reference this must equal (tests/test_kernel.py).

from libc.stdint cimport uint64_t
from cpython.object cimport PyObject_GenericSetAttr, PyTypeObject
from cpython.ref cimport Py_DECREF, Py_XDECREF

from hkcore.core._codes import when_facts as _when_facts

cdef extern from "Python.h":
    PyObject **_PyObject_GetDictPtr(object)
    object PyDict_Copy(object)
    PyObject *PyDict_GetItem(object, object)
    PyObject *PyType_GenericAlloc(PyTypeObject *tp, Py_ssize_t nitems) except NULL
    ctypedef struct PyMemberDef:
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member

cdef object _OBJECT_NEW = object.__new__
#: what Kernel._result gives when it needs the Hand itself (a payment scheme written in Python)
cdef object NEED_HAND = object()


cdef Py_ssize_t _slot_offset(object cls, str name) except -1:
    """Byte offset of a __slots__ member of ``cls`` (e.g. pydantic's
    __pydantic_fields_set__), for filling a new instance directly."""
    desc = None
    for klass in cls.__mro__:
        desc = klass.__dict__.get(name)
        if desc is not None:
            break
    if type(desc).__name__ != "member_descriptor":
        raise TypeError(f"{cls.__name__}.{name} is not a slot")
    return (<PyMemberDescrObject *>desc).d_member.offset


cdef inline void _set_slot(object obj, Py_ssize_t offset, object value):
    cdef PyObject **slot = <PyObject **>((<char *><PyObject *>obj) + offset)
    cdef PyObject *old = slot[0]
    Py_INCREF(value)
    slot[0] = <PyObject *>value
    Py_XDECREF(old)
cdef tuple _SEAT_NAMES = ("E", "S", "W", "N")

cdef enum:
    NOTE_NONE = 0
    NOTE_CANNOT_WIN = 1
    NOTE_SELF_DRAW_INSTANT = 2
    NOTE_NEED_KONG_MAKER = 3
    NOTE_NEED_DISCARDER = 4
    NNOTES = 5
    NPS = 16                   # PatternScores made in advance for counts 1..NPS - 1
    NROLE = 64                 # role amounts known in advance for totals 0..NROLE - 1
    NPAY = 16                  # payment dicts made in advance for totals 0..NPAY - 1 (up to the cap)
cdef tuple _NOTES = (None, "no payment: the hand cannot win", "paid as a self-draw",
                     "payments need the kong-maker: give 'discarder'",
                     "payments need the discarder: give 'discarder'")

cdef enum:
    MAXE = 64
    SC_SETS = 1
    SC_HAND = 2
    SC_BONUS = 4
    SC_INSTANT = 8
    SH_STANDARD = 0
    SH_ORPHANS = 1
    SH_BONUS = 2

# native detector codes (hkcore.builtin_patterns gives each built-in one)
cdef enum:
    N_CHICKEN = 1
    N_ALL_CHOWS
    N_CONCEALED
    N_SELF_DRAW
    N_NO_BONUS
    N_SEAT_FLOWER
    N_SEAT_SEASON
    N_FLOWER_SET
    N_SEASON_SET
    N_BONUS_TILE
    N_DRAGON_PUNG
    N_SEAT_WIND
    N_ROUND_WIND
    N_LAST_TILE
    N_LAST_DISCARD
    N_KONG_REPL
    N_KONG_ON_KONG
    N_ROBBING
    N_ALL_PUNGS
    N_HALF_FLUSH
    N_MIXED_TERM
    N_LITTLE_DRAGONS
    N_LITTLE_WINDS
    N_FULL_FLUSH
    N_BIG_DRAGONS
    N_FOUR_CONCEALED
    N_SEVEN_BONUS
    N_EIGHT_BONUS
    N_ALL_HONOURS
    N_ALL_TERMINALS
    N_NINE_GATES
    N_BIG_WINDS
    N_ORPHANS
    N_FOUR_KONGS
    N_FIRST_TURN

NATIVE_CODES = {
    "chicken_hand": N_CHICKEN, "all_chows": N_ALL_CHOWS, "concealed_hand": N_CONCEALED,
    "self_draw": N_SELF_DRAW, "no_bonus": N_NO_BONUS, "seat_flower": N_SEAT_FLOWER,
    "seat_season": N_SEAT_SEASON, "flower_set": N_FLOWER_SET, "season_set": N_SEASON_SET,
    "bonus_tile": N_BONUS_TILE, "dragon_pung": N_DRAGON_PUNG, "seat_wind": N_SEAT_WIND,
    "round_wind": N_ROUND_WIND, "last_tile": N_LAST_TILE, "last_discard": N_LAST_DISCARD,
    "kong_replacement": N_KONG_REPL, "kong_on_kong": N_KONG_ON_KONG, "robbing_kong": N_ROBBING,
    "all_pungs": N_ALL_PUNGS, "half_flush": N_HALF_FLUSH, "mixed_terminals": N_MIXED_TERM,
    "little_three_dragons": N_LITTLE_DRAGONS, "little_four_winds": N_LITTLE_WINDS,
    "full_flush": N_FULL_FLUSH, "big_three_dragons": N_BIG_DRAGONS,
    "four_concealed_pungs": N_FOUR_CONCEALED, "seven_bonus": N_SEVEN_BONUS, "eight_bonus": N_EIGHT_BONUS,
    "all_honours": N_ALL_HONOURS, "all_terminals": N_ALL_TERMINALS, "nine_gates": N_NINE_GATES,
    "big_four_winds": N_BIG_WINDS, "thirteen_orphans": N_ORPHANS, "four_kongs": N_FOUR_KONGS,
    "first_turn": N_FIRST_TURN,
}
SHAPE_NAMES = ("standard", "thirteen_orphans", "bonus")
OPTION_CODES = {False: 0, True: 1, "pure": 0, "any": 1, "pure_on_discard": 2,
                "deal": 1, "first_draw": 2, "first_discard": 3}

cdef uint64_t M_WINDS = (<uint64_t>0xF) << 27
cdef uint64_t M_DRAGONS = (<uint64_t>0x7) << 31
cdef uint64_t M_HONOURS = (<uint64_t>0x7F) << 27
cdef uint64_t M_SUITED = ((<uint64_t>1) << 27) - 1
cdef uint64_t M_TERMINALS = ((<uint64_t>1) | (<uint64_t>1) << 8 | (<uint64_t>1) << 9 | (<uint64_t>1) << 17
                             | (<uint64_t>1) << 18 | (<uint64_t>1) << 26)
cdef uint64_t M_ORPHANS = M_TERMINALS | M_HONOURS
cdef uint64_t M_SUIT0 = (<uint64_t>0x1FF)
cdef uint64_t M_SUIT1 = (<uint64_t>0x1FF) << 9
cdef uint64_t M_SUIT2 = (<uint64_t>0x1FF) << 18

ctypedef struct Ctx:
    int counts[34]
    int nmelds
    int meld_code[4]
    int meld_concealed[4]
    int self_draw
    int seat            # tile index of the seat wind
    int round_
    int seat_number     # 1..4
    int flowers         # bit n set for flower n
    int seasons
    int nflowers
    int nseasons
    int last_tile
    int kong_repl
    int robbing
    int first_turn      # 0 none, 1 deal, 2 first_draw, 3 first_discard
    int win
    uint64_t kinds      # tile kinds in hand and melds
    uint64_t when_ok    # the entries whose ``when`` holds for this win (set by Kernel._best)

ctypedef struct Summary:
    uint64_t pungs
    uint64_t kongs
    int n_chows
    int n_pungs
    int n_kongs
    int concealed_pungs
    int concealed_kongs
    int claimed
    int pair
    int shape
    int win_set


cdef inline int _popcount(uint64_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef extern from *:
    int _ctz "__builtin_ctzll"(uint64_t) nogil


cdef inline bint _one_suit(uint64_t kinds) noexcept nogil:
    cdef uint64_t s = kinds & M_SUITED
    if s == 0:
        return False
    return (s & ~M_SUIT0) == 0 or (s & ~M_SUIT1) == 0 or (s & ~M_SUIT2) == 0


cdef int _native(int code, int opt, const Summary *s, const Ctx *c) noexcept nogil:
    cdef int i, base, wait
    cdef int own[9]
    if code == N_CHICKEN:
        return 1
    elif code == N_ALL_CHOWS:
        return s.n_chows == 4
    elif code == N_CONCEALED:
        if s.claimed:
            return 0
        return opt or s.concealed_kongs == 0
    elif code == N_SELF_DRAW:
        return c.self_draw
    elif code == N_NO_BONUS:
        return c.nflowers == 0 and c.nseasons == 0
    elif code == N_SEAT_FLOWER:
        return (c.flowers >> c.seat_number) & 1
    elif code == N_SEAT_SEASON:
        return (c.seasons >> c.seat_number) & 1
    elif code == N_FLOWER_SET:
        return c.nflowers == 4
    elif code == N_SEASON_SET:
        return c.nseasons == 4
    elif code == N_BONUS_TILE:
        return c.nflowers + c.nseasons
    elif code == N_DRAGON_PUNG:
        return _popcount(s.pungs & M_DRAGONS)
    elif code == N_SEAT_WIND:
        return (s.pungs >> c.seat) & 1
    elif code == N_ROUND_WIND:
        return (s.pungs >> c.round_) & 1
    elif code == N_LAST_TILE:
        return c.last_tile and c.self_draw
    elif code == N_LAST_DISCARD:
        return c.last_tile and not c.self_draw
    elif code == N_KONG_REPL:
        return c.kong_repl >= 1
    elif code == N_KONG_ON_KONG:
        return c.kong_repl == 2
    elif code == N_ROBBING:
        return c.robbing
    elif code == N_ALL_PUNGS:
        return s.n_pungs == 4
    elif code == N_HALF_FLUSH:
        return (c.kinds & M_HONOURS) != 0 and _one_suit(c.kinds)
    elif code == N_MIXED_TERM:
        return (c.kinds & ~(M_TERMINALS | M_HONOURS)) == 0 and (c.kinds & M_TERMINALS) != 0 \
            and (c.kinds & M_HONOURS) != 0
    elif code == N_LITTLE_DRAGONS:
        return _popcount(s.pungs & M_DRAGONS) == 2 and s.pair >= 31
    elif code == N_LITTLE_WINDS:
        return _popcount(s.pungs & M_WINDS) == 3 and 27 <= s.pair <= 30
    elif code == N_FULL_FLUSH:
        return (c.kinds & M_HONOURS) == 0 and _one_suit(c.kinds)
    elif code == N_BIG_DRAGONS:
        return _popcount(s.pungs & M_DRAGONS) == 3
    elif code == N_FOUR_CONCEALED:
        if s.concealed_pungs != 4:
            return 0
        return opt or s.n_kongs == 0
    elif code == N_SEVEN_BONUS:
        return c.nflowers + c.nseasons == 7
    elif code == N_EIGHT_BONUS:
        return c.nflowers + c.nseasons == 8
    elif code == N_ALL_HONOURS:
        return (c.kinds & ~M_HONOURS) == 0
    elif code == N_ALL_TERMINALS:
        return (c.kinds & ~M_TERMINALS) == 0
    elif code == N_NINE_GATES:
        if c.nmelds or c.win >= 27:
            return 0
        base = (c.win // 9) * 9
        wait = 0
        for i in range(9):
            own[i] = c.counts[base + i]
            wait += own[i]
        if wait != 14:
            return 0
        wait = opt
        if wait == 2:
            wait = 1 if c.self_draw else 0
        if wait == 0:
            own[c.win - base] -= 1
            return (own[0] == 3 and own[1] == 1 and own[2] == 1 and own[3] == 1 and own[4] == 1
                    and own[5] == 1 and own[6] == 1 and own[7] == 1 and own[8] == 3)
        return (own[0] >= 3 and own[1] >= 1 and own[2] >= 1 and own[3] >= 1 and own[4] >= 1
                and own[5] >= 1 and own[6] >= 1 and own[7] >= 1 and own[8] >= 3)
    elif code == N_BIG_WINDS:
        return _popcount(s.pungs & M_WINDS) == 4
    elif code == N_ORPHANS:
        return s.shape == SH_ORPHANS
    elif code == N_FOUR_KONGS:
        return s.n_kongs == 4
    elif code == N_FIRST_TURN:
        return c.first_turn != 0 and c.first_turn == opt
    return 0


cdef inline int _native_max(int code) noexcept nogil:
    """The most times a native detector can count its pattern in one hand."""
    if code == N_BONUS_TILE:
        return 8
    if code == N_DRAGON_PUNG:
        return 3
    return 1


ctypedef struct Best:
    int found
    int capped
    int uncapped
    int limit
    int below
    int shape
    int win_set
    int nread
    int reading[5]
    int nlisted
    int listed_entry[MAXE]
    int listed_count[MAXE]
    int listed_value[MAXE]


cdef void _summarize(Ctx *c, Summary *base) noexcept:
    """Fill ``c.kinds`` and what the declared sets give every reading, from
    the loaded counts and sets."""
    cdef int i, kind, t
    c.kinds = 0
    for i in range(34):
        if c.counts[i]:
            c.kinds |= (<uint64_t>1) << i
    base.pungs = 0
    base.kongs = 0
    base.n_chows = 0
    base.n_pungs = 0
    base.n_kongs = 0
    base.concealed_pungs = 0
    base.concealed_kongs = 0
    base.claimed = 0
    base.pair = -1
    base.win_set = -1
    base.shape = SH_BONUS
    for i in range(c.nmelds):
        kind = c.meld_code[i] // 34
        t = c.meld_code[i] % 34
        if kind == 0:
            base.n_chows += 1
            c.kinds |= (<uint64_t>7) << t
        else:
            base.n_pungs += 1
            base.pungs |= (<uint64_t>1) << t
            c.kinds |= (<uint64_t>1) << t
            if kind == 2:
                base.n_kongs += 1
                base.kongs |= (<uint64_t>1) << t
        if c.meld_concealed[i]:
            base.concealed_pungs += 1
            base.concealed_kongs += 1
        else:
            base.claimed += 1


cdef class Kernel:
    """A compiled preset's patterns as C arrays; see the top of _kernel.pxi."""

    cdef int n
    cdef int native[MAXE]
    cdef int opt[MAXE]
    cdef int scope[MAXE]
    cdef int value[MAXE]
    cdef int limit[MAXE]
    cdef int fallback[MAXE]
    cdef int below[MAXE]
    cdef int adds[MAXE]
    cdef uint64_t includes[MAXE]
    cdef int nbycount[MAXE]
    cdef uint64_t in_scope[16]     # per scopes bitset: the entries that apply
    cdef uint64_t when_ok[8]       # per self_draw | concealed << 1 | dealer << 2: the entries whose when holds
    cdef uint64_t limit_mask, fallback_mask, adds_mask
    cdef int bycount[MAXE][8]
    cdef int cap
    cdef int orphans_shape
    cdef int has_instant
    cdef int has_python
    cdef object outcome        # the class results are returned as
    # Everything below is filled by ``assemble``, once, before the kernel is
    # shared; scoring only reads it (no caches are filled while scoring).
    cdef bint assembled
    cdef object assembly       # see assemble
    cdef int minimum
    cdef object refs           # keeps alive every object the C tables point to
    cdef PyObject *parts[136][2]
    cdef PyObject *ps_obj[MAXE][NPS]          # PatternScore per (entry, count)
    cdef PyObject *tmpl[3][2][2][NNOTES]      # result templates: shape, limit, winnable, note
    cdef PyObject *reason_obj[NPS]            # why a hand of this capped total cannot win
    cdef bint has_roles
    cdef long long role_amt[NROLE][5]         # see hkcore.payments.role_amounts
    cdef PyObject *pay_obj[NPAY][4][4][3]     # payments: total, winner, discarder, mode
    cdef object roles          # total -> role amounts (symmetric schemes), or None
    cdef object adjust         # adjust(hand, total, instant, payments) -> payments, or None
    cdef int adjust_min_melds  # adjust is not called for hands with fewer declared sets
    cdef Py_ssize_t off_fields_set, off_extra, off_private
    cdef bint bonus_tiles
    cdef object fields_set     # every field is set in a result the kernel builds
    cdef object hand_type      # the Hand class, and the offset of its private-dict slot
    cdef Py_ssize_t off_hand_private

    def __init__(self, entries, int cap, bint orphans_shape, outcome=tuple):
        """``entries``: per pattern in play, a tuple (native code, option code,
        scope bits, value, by_count tuple or None, limit or -1, fallback,
        wins_below_minimum, adds to a limit, includes as a bitmask of entry
        indices, ``when`` as a mask of hkcore.core._codes.WHEN bits). ``cap``
        is -1 for none."""
        cdef int i, j
        if len(entries) > MAXE:
            raise ValueError(f"a compiled preset holds at most {MAXE} patterns")
        self.n = len(entries)
        memset(self.in_scope, 0, sizeof(self.in_scope))
        memset(self.when_ok, 0, sizeof(self.when_ok))
        self.limit_mask = self.fallback_mask = self.adds_mask = 0
        self.cap = cap
        self.orphans_shape = orphans_shape
        self.outcome = outcome
        self.assembled = False
        self.assembly = None
        self.roles = None
        self.has_python = 0
        self.has_instant = 0
        for i, e in enumerate(entries):
            native, opt, scope, value, by_count, limit, fallback, below, adds, includes, when = e
            for j in range(8):
                if not when & ~_when_facts(j & 1, j & 2, j & 4):
                    self.when_ok[j] |= (<uint64_t>1) << i
            self.native[i] = native
            self.opt[i] = opt
            self.scope[i] = scope
            self.value[i] = value
            self.limit[i] = limit
            self.fallback[i] = fallback
            self.below[i] = below
            self.adds[i] = adds
            self.includes[i] = includes
            for j in range(16):
                if scope & j:
                    self.in_scope[j] |= (<uint64_t>1) << i
            if limit >= 0:
                self.limit_mask |= (<uint64_t>1) << i
            if fallback:
                self.fallback_mask |= (<uint64_t>1) << i
            if adds:
                self.adds_mask |= (<uint64_t>1) << i
            if native == 0:
                self.has_python = 1
            if scope & SC_INSTANT:
                self.has_instant = 1
            if by_count is None:
                self.nbycount[i] = 0
            else:
                if len(by_count) > 8:
                    raise ValueError("by_count tables hold at most 8 entries in the compiled kernel")
                self.nbycount[i] = len(by_count)
                for j in range(len(by_count)):
                    self.bycount[i][j] = by_count[j]

    cdef inline int _worth(self, int i, int count) noexcept:
        if self.nbycount[i]:
            return self.bycount[i][count if count < self.nbycount[i] else self.nbycount[i] - 1]
        return self.value[i] * count

    cdef inline int _capped(self, int total) noexcept:
        if self.cap >= 0 and total > self.cap:
            return self.cap
        return total

    cdef int _evaluate(self, Summary *s, Ctx *c, int scopes, int *reading, int nread, Best *best,
                       object py_detect) except -1:
        cdef int i, j, cnt, top = -1, total = 0, ltotal, nl = 0, capped, uncapped, is_limit = 0, below = 0
        cdef int counts[MAXE]
        cdef uint64_t todo = self.in_scope[scopes & 15] & c.when_ok, met = 0, excluded = 0, listed, bits
        cdef tuple rtuple
        while todo:
            i = _ctz(todo)
            todo &= todo - 1
            if self.native[i]:
                cnt = _native(self.native[i], self.opt[i], s, c)
            else:
                rtuple = tuple([reading[j] for j in range(nread)])
                cnt = py_detect(i, s.shape, rtuple, s.win_set)
            if cnt:
                counts[i] = cnt
                met |= (<uint64_t>1) << i
                excluded |= self.includes[i]
        bits = met & self.limit_mask
        while bits:
            i = _ctz(bits)
            bits &= bits - 1
            if top < 0 or self.limit[i] > self.limit[top]:
                top = i
        listed = met & ~(self.limit_mask | self.fallback_mask | excluded)
        bits = listed
        while bits:
            i = _ctz(bits)
            bits &= bits - 1
            total += self._worth(i, counts[i])
        uncapped = total
        if top >= 0:
            ltotal = self.limit[top]
            bits = listed & self.adds_mask
            while bits:
                i = _ctz(bits)
                bits &= bits - 1
                ltotal += self._worth(i, counts[i])
            if not self._capped(total) > self._capped(ltotal):
                is_limit = 1
                uncapped = ltotal
                listed = (listed & self.adds_mask) | ((<uint64_t>1) << top)
        if listed == 0:
            listed = met & self.fallback_mask
        capped = self._capped(uncapped)
        if best.found and not (capped > best.capped or (capped == best.capped and uncapped > best.uncapped)):
            return 0
        best.found = 1
        best.capped = capped
        best.uncapped = uncapped
        best.limit = is_limit
        best.shape = s.shape
        best.win_set = s.win_set
        best.nread = nread
        for i in range(nread):
            best.reading[i] = reading[i]
        bits = listed
        while bits:
            i = _ctz(bits)
            bits &= bits - 1
            best.listed_entry[nl] = i
            best.listed_count[nl] = counts[i]
            if self.limit[i] >= 0:
                best.listed_value[nl] = self.limit[i]
            elif self.fallback[i]:
                best.listed_value[nl] = 0
            else:
                best.listed_value[nl] = self._worth(i, counts[i])
            below |= self.below[i]
            nl += 1
        best.nlisted = nl
        best.below = below
        return 0

    def score(self, ctx, py_detect=None):
        """The best outcome for a hand context (see hkcore.engine), or None.

        ``py_detect(entry, shape, reading, win_set)`` detects the patterns
        that have no native detector. Returns ``outcome(capped, uncapped,
        limit, shape name, reading, win_set, below_minimum, ((entry, count,
        contribution), ...))``.
        """
        cdef Ctx c
        cdef Summary base
        cdef Best best
        cdef int i
        if self.has_python and py_detect is None:
            raise TypeError("this kernel has patterns without a native detector: give py_detect")
        self._load(ctx, &c, &base)
        self._best(&c, &base, &best, py_detect)
        if not best.found:
            return None
        return self.outcome(best.capped, best.uncapped, best.limit == 1, SHAPE_NAMES[best.shape],
                            tuple([best.reading[i] for i in range(best.nread)]), best.win_set, best.below == 1,
                            tuple([(best.listed_entry[i], best.listed_count[i], best.listed_value[i])
                                   for i in range(best.nlisted)]))

    def assemble(self, preset_id, unit, int minimum, make_pattern, set_parts, orphans_part, settle,
                 not_winnable, make_result, hand_class, roles=None, bint bonus_tiles=True, adjust=None,
                 int adjust_min_melds=0, no_table_note=None):
        """Make ``score_result`` build whole ScoreResults; called once, before
        the kernel is shared. ``make_pattern(entry, count, value)`` ->
        PatternScore, ``set_parts[code][winning]`` -> ReadingPart (code
        102 + t: the pair of t), ``orphans_part(tiles)``, ``settle(hand,
        capped, instant)`` -> (payments, note) or None when the preset has no
        payments, ``not_winnable(capped)`` -> reason, ``make_result``: the
        result class (a pydantic model, filled like ``model_construct``
        does), ``hand_class``: the Hand class whose instances it scores;
        ``roles(total)`` -> what each role pays under a symmetric scheme
        (then ``settle`` is not called), ``adjust(hand, total, instant,
        payments)`` then applies the preset's payment adjustments to hands
        with at least ``adjust_min_melds`` declared sets; without
        ``bonus_tiles`` a hand holding some gets None (the caller raises the
        error). Every PatternScore, template, reason and role payment the
        kernel hands out is made here."""
        cdef int code, w, e, cnt, v, shape, lim, win, note, t, d, mode, i
        cdef list refs = []
        if self.assembled:
            raise RuntimeError("a Kernel is assembled once")
        self.assembly = (preset_id, unit, minimum, make_pattern, set_parts, orphans_part, settle,
                         not_winnable, make_result)
        self.minimum = minimum
        self.roles = roles
        self.adjust = adjust
        self.adjust_min_melds = adjust_min_melds
        self.bonus_tiles = bonus_tiles
        for code in range(136):
            for w in range(2):
                part = set_parts[code][w]
                refs.append(part)
                self.parts[code][w] = <PyObject *>part
        for e in range(self.n):
            self.ps_obj[e][0] = NULL
            for cnt in range(1, NPS):
                self.ps_obj[e][cnt] = NULL
                if cnt > _native_max(self.native[e]):
                    continue
                if self.limit[e] >= 0:
                    v = self.limit[e]
                elif self.fallback[e]:
                    v = 0
                else:
                    v = self._worth(e, cnt)
                ps = make_pattern(e, cnt, v)
                refs.append(ps)
                self.ps_obj[e][cnt] = <PyObject *>ps
        self.off_fields_set = _slot_offset(make_result, "__pydantic_fields_set__")
        self.off_extra = _slot_offset(make_result, "__pydantic_extra__")
        self.off_private = _slot_offset(make_result, "__pydantic_private__")
        self.hand_type = hand_class
        self.off_hand_private = _slot_offset(hand_class, "__pydantic_private__")
        self.fields_set = frozenset(make_result.model_fields)
        base = {name: None for name in make_result.model_fields}
        base.update({"preset": preset_id, "unit": unit, "complete": True})
        for shape in range(3):
            for lim in range(2):
                for win in range(2):
                    for note in range(NNOTES):
                        tmpl = dict(base)
                        tmpl["winnable"] = bool(win)
                        tmpl["limit"] = bool(lim)
                        tmpl["shape"] = SHAPE_NAMES[shape]
                        tmpl["payments_note"] = _NOTES[note] if settle is not None else no_table_note
                        refs.append(tmpl)
                        self.tmpl[shape][lim][win][note] = <PyObject *>tmpl
        for t in range(NPS):
            reason = not_winnable(t)
            refs.append(reason)
            self.reason_obj[t] = <PyObject *>reason
        self.has_roles = roles is not None
        memset(self.pay_obj, 0, sizeof(self.pay_obj))
        if self.has_roles:
            for t in range(NROLE if self.cap < 0 or self.cap >= NROLE else self.cap + 1):
                amounts = tuple(roles(t))
                for i in range(5):
                    self.role_amt[t][i] = amounts[i]
            for t in range(NPAY if self.cap < 0 or self.cap >= NPAY else self.cap + 1):
                for w in range(4):
                    for d in range(4):
                        for mode in range(3):
                            if (mode == 0 and d != 0) or (mode != 0 and d == w):
                                continue
                            pay = self._role_payments(t, w, d, mode)
                            refs.append(pay)
                            self.pay_obj[t][w][d][mode] = <PyObject *>pay
        self.refs = tuple(refs)
        self.assembled = True

    cdef dict _role_payments(self, int total, int w, int d, int mode):
        """A new payments dict from the role amounts at ``total`` (winner w,
        discarder or kong-maker d; mode 0 self-draw, 1 robbed kong, 2 discard)."""
        cdef long long pays[4]
        cdef long long amounts[5]
        cdef int i
        if total < NROLE and (self.cap < 0 or total <= self.cap):
            for i in range(5):
                amounts[i] = self.role_amt[total][i]
        else:
            found = tuple(self.roles(total))
            for i in range(5):
                amounts[i] = found[i]
        for i in range(4):
            if mode == 0:
                pays[i] = amounts[0]
            elif mode == 1:
                pays[i] = amounts[3] if i == d else amounts[4]
            else:
                pays[i] = amounts[1] if i == d else amounts[2]
        pays[w] = 0
        pays[w] = -(pays[0] + pays[1] + pays[2] + pays[3])
        return {"E": -pays[0], "S": -pays[1], "W": -pays[2], "N": -pays[3]}

    def score_result(self, hand):
        """The ScoreResult of a validated Hand whose patterns all have native
        detectors, or None when the hand is not complete (or holds bonus tiles
        the preset does not play with)."""
        return self._score_result(hand)

    cdef object _score_result(self, object hand):
        cdef Ctx c
        cdef Summary base
        cdef PyObject *priv
        cdef PyObject *item
        if not self.assembled:
            raise TypeError("score_result needs an assembled Kernel")
        if type(hand) is not self.hand_type:
            raise TypeError("score_result needs a validated Hand")
        priv = (<PyObject **>((<char *><PyObject *>hand) + self.off_hand_private))[0]
        item = PyDict_GetItem(<object>priv, "_kernel_ctx") if priv != NULL and type(<object>priv) is dict else NULL
        if item == NULL or type(<object>item) is not tuple:
            raise TypeError("score_result needs a validated Hand")
        ctx = <object>item
        self._load(ctx, &c, &base)
        return self._result(&c, &base, ctx[17], <tuple>ctx[16], hand)

    cdef object _result(self, Ctx *c, Summary *base, int disc, tuple parts, object hand):
        """The ScoreResult of a loaded hand (``parts``: its declared sets'
        reading parts; ``disc``: the discarder's seat number, 0 for none);
        None when it is not complete or holds bonus tiles the preset does not
        play with; NEED_HAND when ``hand`` is None and a payment scheme or
        adjustment written in Python needs the Hand itself."""
        cdef Best best
        cdef int i, code, nm, nc, winset, capped, e, cnt, v, note_id = 0
        cdef bint winnable
        cdef list patterns, reading
        cdef PyObject *item
        cdef dict values
        preset_id, unit, minimum, make_pattern, set_parts, orphans_part, settle, not_winnable, make_result = \
            self.assembly
        if not self.bonus_tiles and (c.nflowers or c.nseasons):
            return None
        self._best(c, base, &best, None)
        if not best.found:
            return None
        patterns = PyList_New(best.nlisted)
        for i in range(best.nlisted):
            e = best.listed_entry[i]
            cnt = best.listed_count[i]
            v = best.listed_value[i]
            if 0 < cnt < NPS and self.ps_obj[e][cnt] != NULL:
                ps = <object>self.ps_obj[e][cnt]
            else:
                ps = make_pattern(e, cnt, v)
            Py_INCREF(ps)
            PyList_SET_ITEM(patterns, i, ps)
        capped = best.capped
        if best.shape == SH_STANDARD:
            winset = best.win_set
            nc = best.nread - c.nmelds
            reading = PyList_New(nc + PyTuple_GET_SIZE(parts))
            item = self.parts[102 + best.reading[0]][winset == -1]
            Py_INCREF(<object>item)
            PyList_SET_ITEM(reading, 0, <object>item)
            for i in range(1, nc):
                code = best.reading[i]
                item = self.parts[code][code == winset]
                if code == winset:
                    winset = -2  # one set holds the winning tile, even with two alike
                Py_INCREF(<object>item)
                PyList_SET_ITEM(reading, i, <object>item)
            for i in range(PyTuple_GET_SIZE(parts)):
                item = PyTuple_GET_ITEM(parts, i)
                Py_INCREF(<object>item)
                PyList_SET_ITEM(reading, nc + i, <object>item)
        elif best.shape == SH_ORPHANS:
            reading = [orphans_part(hand.tiles if hand is not None else _canonical(c.counts))]
        else:
            reading = []
        winnable = capped >= minimum or best.below == 1
        payments = note = None
        if settle is not None:
            if hand is None and winnable and (not self.has_roles or (
                    self.adjust is not None and c.nmelds >= self.adjust_min_melds)):
                return NEED_HAND
            if not winnable:
                note_id = NOTE_CANNOT_WIN
            elif self.has_roles:
                payments = self._pay(c, disc, capped, best.shape == SH_BONUS, &note_id)
                if self.adjust is not None and payments is not None and c.nmelds >= self.adjust_min_melds:
                    payments = self.adjust(hand, capped, best.shape == SH_BONUS, payments)
            else:
                payments, note = settle(hand, capped, best.shape == SH_BONUS)
                note_id = -1
        if note_id >= 0:
            values = PyDict_Copy(<object>self.tmpl[best.shape][best.limit == 1][winnable][note_id])
        else:
            values = PyDict_Copy(<object>self.tmpl[best.shape][best.limit == 1][winnable][0])
            values["payments_note"] = note
        values["faan"] = capped
        values["uncapped"] = best.uncapped
        if not winnable:
            if 0 <= capped < NPS:
                values["reason"] = <object>self.reason_obj[capped]
            else:
                values["reason"] = not_winnable(capped)
        values["patterns"] = patterns
        values["reading"] = reading
        if payments is not None:
            values["payments"] = payments
        # a pydantic model from values known to be valid: what model_construct
        # leaves behind (the instance dict and pydantic's three slots); pydantic
        # models are heap types allocated by PyType_GenericAlloc
        cdef PyTypeObject *tp = <PyTypeObject *>make_result
        obj = <object>PyType_GenericAlloc(tp, 0)
        Py_DECREF(obj)  # tp_alloc's reference is now held by ``obj``
        cdef PyObject **dictptr = _PyObject_GetDictPtr(obj)
        Py_INCREF(values)
        dictptr[0] = <PyObject *>values
        _set_slot(obj, self.off_fields_set, set(self.fields_set))
        _set_slot(obj, self.off_extra, None)
        _set_slot(obj, self.off_private, None)
        return obj

    cdef object _pay(self, Ctx *c, int disc, int total, bint instant, int *note_id):
        """Payments from the role table (a new dict), or None; sets the note."""
        cdef int w = c.seat_number - 1, d = disc - 1, mode
        if c.self_draw or instant:
            mode = 0
            d = 0
        elif d < 0:
            note_id[0] = NOTE_NEED_KONG_MAKER if c.robbing else NOTE_NEED_DISCARDER
            return None
        else:
            mode = 1 if c.robbing else 2
        note_id[0] = NOTE_SELF_DRAW_INSTANT if instant else NOTE_NONE
        if 0 <= total < NPAY and self.pay_obj[total][w][d][mode] != NULL:
            return PyDict_Copy(<object>self.pay_obj[total][w][d][mode])
        return self._role_payments(total, w, d, mode)

    def analyse_waiting(self, ctx, bint orphans):
        """A waiting-size hand (13 - 3k tiles): (tiles away, rows), a row per
        wait: (tile, copies not in the hand or its melds, capped total and
        below-minimum win on a discard, the same on a self-draw); tiles away
        and waits count the standard shape and, with ``orphans``, thirteen
        orphans."""
        cdef Ctx c
        cdef Summary base
        cdef int used[34]
        cdef int i, t, kind, k, away
        self._load(ctx, &c, &base)
        memset(used, 0, sizeof(used))
        for i in range(c.nmelds):
            kind = c.meld_code[i] // 34
            t = c.meld_code[i] % 34
            if kind == 0:
                used[t] += 1; used[t + 1] += 1; used[t + 2] += 1
            else:
                used[t] += 3 if kind == 1 else 4
        k = c.nmelds
        away = _away(c.counts, k, used, orphans)
        if away != 0:
            return away, []
        out = []
        for row in self.score_waits(ctx, _waits_c(c.counts, k, used, orphans, False)):
            t = row[0]
            d = row[1]
            sd = row[2]
            out.append((t, 4 - c.counts[t] - used[t], d[0], d[2], sd[0], sd[2]))
        return 0, out

    def score_waits(self, ctx, waits, py_detect=None):
        """Each wait of a waiting hand scored on a discard and on a self-draw.

        ``ctx`` is the hand context without its winning tile (13 - 3k
        concealed tiles; its self-draw and win fields are ignored); the
        decomposition of the suits the wait does not touch is shared. Returns
        [(tile, (capped, uncapped, below_minimum) on a discard, the same on a
        self-draw), ...]; None where the tile does not complete the hand.
        """
        cdef Ctx c
        cdef Summary base
        cdef Best best
        cdef int t, sd
        cdef uint64_t kinds
        cdef list out = []
        if self.has_python and py_detect is None:
            raise TypeError("this kernel has patterns without a native detector: give py_detect")
        self._load(ctx, &c, &base)
        kinds = c.kinds
        for w in waits:
            t = w
            c.counts[t] += 1
            c.kinds = kinds | ((<uint64_t>1) << t)
            c.win = t
            row = [t]
            for sd in range(2):
                c.self_draw = sd
                self._best(&c, &base, &best, py_detect)
                row.append((best.capped, best.uncapped, best.below) if best.found else None)
            c.counts[t] -= 1
            out.append(tuple(row))
        return out

    cdef int _load(self, object ctx, Ctx *c, Summary *base) except -1:
        """The hand context and what its declared sets give every reading.
        Counts come as bytes (a validated Hand) or a list."""
        cdef int i, kind, t
        cdef const unsigned char *raw
        cdef tuple t_ctx = <tuple>ctx
        counts = t_ctx[0]
        melds = t_ctx[1]
        concealed = t_ctx[2]
        c.self_draw = t_ctx[3]
        c.seat = t_ctx[4]
        c.round_ = t_ctx[5]
        c.seat_number = t_ctx[6]
        c.flowers = t_ctx[7]
        c.seasons = t_ctx[8]
        c.nflowers = t_ctx[9]
        c.nseasons = t_ctx[10]
        c.last_tile = t_ctx[11]
        c.kong_repl = t_ctx[12]
        c.robbing = t_ctx[13]
        c.first_turn = t_ctx[14]
        c.win = t_ctx[15]
        if type(counts) is bytes:
            raw = <const unsigned char *><const char *>counts
            for i in range(34):
                c.counts[i] = raw[i]
        else:
            for i in range(34):
                c.counts[i] = counts[i]
        c.nmelds = len(melds)
        for i in range(c.nmelds):
            c.meld_code[i] = melds[i]
            c.meld_concealed[i] = concealed[i]
        _summarize(c, base)
        return 0


    cdef int _best(self, Ctx *c, const Summary *base, Best *best, object py_detect) except -1:
        """The best outcome of a loaded hand: its complete readings, then the
        bonus-tile instant win."""
        best.found = 0
        c.when_ok = self.when_ok[(c.self_draw != 0) | (base.claimed == 0) << 1 | (c.seat_number == 1) << 2]
        if c.win >= 0:
            self._best_complete(c, base, best, py_detect)
        if self.has_instant and c.nflowers + c.nseasons >= 7:
            self._instant(base, c, best, py_detect)
        return 0

    cdef int _best_complete(self, Ctx *c, const Summary *base, Best *best, object py_detect) except -1:
        """Every standard reading (sorted) and thirteen orphans, into ``best``."""
        cdef Summary s
        cdef int i, j, k, key, tot, pairs = 0, hpair = -1, nh = 0, nsets, x, nr = 0, s0, s1, s2, kind, t, p
        cdef int first[3]
        cdef int num[3]
        cdef int hsets[4]
        cdef int pick[3]
        cdef int rd[64][5]          # readings: pair then concealed sets ascending
        cdef int rlen = 5 - c.nmelds
        cdef int tmp[5]
        cdef int full[9]
        cdef int placed[5]
        cdef int nplace
        cdef Dec *d
        for i in range(3):
            tot = 0
            for j in range(9):
                tot += c.counts[9 * i + j]
            key = _key(c.counts + 9 * i)
            if DEC_N[key] == 0:
                pairs = -9
                break
            if tot % 3 == 2:
                pairs += 1
            first[i] = DEC_FIRST[key]
            num[i] = DEC_N[key]
        if pairs >= 0:
            for i in range(27, 34):
                if c.counts[i] == 2:
                    pairs += 1
                    hpair = i
                elif c.counts[i] == 3:
                    hsets[nh] = 34 + i
                    nh += 1
                elif c.counts[i] != 0:
                    pairs = -9
        if pairs == 1:
            for s0 in range(num[0]):
                for s1 in range(num[1]):
                    for s2 in range(num[2]):
                        if nr == 64:
                            break
                        pick[0] = s0
                        pick[1] = s1
                        pick[2] = s2
                        tmp[0] = hpair
                        nsets = 0
                        for i in range(3):
                            d = &DECS[first[i] + pick[i]]
                            if d.pair >= 0:
                                tmp[0] = 9 * i + d.pair
                            for j in range(d.nsets):
                                tmp[1 + nsets] = d.sets[j] + 9 * i
                                nsets += 1
                        for i in range(nh):
                            tmp[1 + nsets] = hsets[i]
                            nsets += 1
                        for i in range(2, 1 + nsets):
                            x = tmp[i]
                            j = i - 1
                            while j >= 1 and tmp[j] > x:
                                tmp[j + 1] = tmp[j]
                                j -= 1
                            tmp[j + 1] = x
                        # insert into the sorted list of readings
                        j = nr
                        while j > 0 and _rless(tmp, rd[j - 1], rlen):
                            for k in range(rlen):
                                rd[j][k] = rd[j - 1][k]
                            j -= 1
                        for k in range(rlen):
                            rd[j][k] = tmp[k]
                        nr += 1
        for i in range(nr):
            for k in range(rlen):
                full[k] = rd[i][k]
            for k in range(c.nmelds):
                full[rlen + k] = c.meld_code[k]
            # placements: the pair, then each distinct concealed set holding the winning tile
            nplace = 0
            if rd[i][0] == c.win:
                placed[nplace] = -1
                nplace += 1
            for k in range(1, rlen):
                x = rd[i][k]
                if k > 1 and x == rd[i][k - 1]:
                    continue
                kind = x // 34
                t = x % 34
                if (kind == 0 and t <= c.win <= t + 2) or (kind != 0 and t == c.win):
                    placed[nplace] = x
                    nplace += 1
            for p in range(nplace):
                s = base[0]
                s.shape = SH_STANDARD
                s.pair = rd[i][0]
                s.win_set = placed[p]
                for k in range(1, rlen):
                    x = rd[i][k]
                    if x < 34:
                        s.n_chows += 1
                    else:
                        s.n_pungs += 1
                        s.pungs |= (<uint64_t>1) << (x - 34)
                        if not (x == placed[p] and not c.self_draw):
                            s.concealed_pungs += 1
                self._evaluate(&s, c, SC_SETS | SC_HAND | SC_BONUS, full, rlen + c.nmelds, best, py_detect)
        if self.orphans_shape and c.nmelds == 0 and (c.kinds & ~M_ORPHANS) == 0 and _orphans(c.counts):
            for k in range(13):
                if c.counts[ORPH[k]] == 2:
                    full[0] = ORPH[k]
            full[1] = ORPHANS_CODE
            s = base[0]
            s.shape = SH_ORPHANS
            s.pair = full[0]
            s.win_set = -1
            self._evaluate(&s, c, SC_HAND | SC_BONUS, full, 2, best, py_detect)
        return 0

    cdef int _instant(self, const Summary *base, Ctx *c, Best *best, object py_detect) except -1:
        """The bonus-tile instant win counts only when an instant pattern is met."""
        cdef Best trial
        cdef Summary s = base[0]
        cdef int i, hit = 0
        s.shape = SH_BONUS
        s.pair = -1
        s.win_set = -1
        trial.found = 0
        self._evaluate(&s, c, SC_BONUS | SC_INSTANT, NULL, 0, &trial, py_detect)
        for i in range(trial.nlisted):
            if self.scope[trial.listed_entry[i]] & SC_INSTANT:
                hit = 1
        if not hit:
            return 0
        if best.found and not (trial.capped > best.capped
                               or (trial.capped == best.capped and trial.uncapped > best.uncapped)):
            return 0
        best[0] = trial
        return 0


cdef inline bint _rless(const int *a, const int *b, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if a[i] != b[i]:
            return a[i] < b[i]
    return False
