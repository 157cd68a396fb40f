# The compiled engine's C surface (hkcore/table/flow/_cengine.pyx): its values and C methods, declared here so
# that the players' hand loop (hkcore/table/players/_cloop.pyx) reads a hand in play without a Python call. The
# flow declares; it cimports nothing of the players.

cdef enum:
    MAXA = 24      # actions in one seat's prompt
    MAXP = 160     # discards in one pond
    MAXW = 144     # tiles in the wall


cdef class Engine:
    cdef public list log
    cdef list texts
    cdef int r_concealed, r_added, r_drawn_only, r_self_pung, r_last_any, r_swap, r_rob, r_many, r_instant
    cdef int r_orphans, r_extra, r_front, r_pairs
    cdef int counts[4][34]
    cdef int nmeld[4]
    cdef int mkind[4][4]
    cdef int mlow[4][4]
    cdef int msrc[4][4]
    cdef int mconc[4][4]
    cdef int bonus[4][8]
    cdef int nbonus[4]
    cdef int pond[4][MAXP]
    cdef int npond[4]
    cdef int wall[MAXW]
    cdef int front, back, from_back, reserve
    cdef int prompt_no, phase, turn, drawn, kongs, discards, last_dealt
    cdef bint by_kong, declared, e_first
    cdef readonly bint over
    #: records of play not kept (EngineState.quiet, the pure engine's)
    cdef public bint quiet
    cdef int draws[4]
    cdef bint instant_due[4]
    cdef int nasked
    cdef int asked[4]
    cdef int ncodes[4]
    cdef int code[4][MAXA]
    cdef int atile[4][MAXA]
    cdef int forbid[4][MAXA][2]
    cdef list payload
    cdef int answer[4]
    cdef int w_tile, w_from, w_after
    cdef bint w_concealed
    #: where a run of hands keeps the complete hands found not winnable (a set of keys that hold all the scored
    #: hand depends on, the preset's own), so that each is scored once; None: none kept
    cdef set _no_wins
    #: the round wind's index (part of those keys), given to _setup
    cdef int win_tag

    cdef void _rec(self, dict record, object text) except *
    cdef void _emit(self, dict record) except *
    cdef int _live(self) noexcept
    cdef int _drawn_seen(self, int s) noexcept
    cdef int _to_answer(self) noexcept
    cdef int _take_replacement(self)
    cdef int _bonus_out(self, int s, int b) except -2
    cdef int _set_aside(self, int s, int t) except -2
    cdef void _open(self, int phase) noexcept
    cdef void _clear(self) noexcept
    cdef void _add(self, int s, int code, int tile, object payload=*, int f0=*, int f1=*) noexcept
    cdef void _put(self, int s, int code, int tile) noexcept
    cdef void _ask(self, int s) noexcept
    cpdef dict _action(self, int s, int k)
    cdef _step(self, int s, int k)
    cdef _e_turn(self)
    cdef _draw(self, int s)
    cdef _replace_kong(self, int s)
    cdef _take_in(self, int s, int t)
    cdef _g4(self, int s)
    cdef _turn_prompt(self)
    cdef bytes _win_key(self, int s, int tile, int a, int b, int c, int d, int e, int f)
    cdef void _no_win(self, bytes key) except *
    cdef bint _has_pung(self, int s, int i) noexcept
    cdef void _meld(self, int s, int kind, int low, int src, bint concealed) noexcept
    cdef _discard_prompt(self, int s, int f0, int f1)
    cdef _discard(self, int s, int i)
    cdef bint _held_ok(self, int o, int low, int tile, int f1) noexcept
    cdef bint _run_held(self, int o, int low, int tile) noexcept
    cdef bint _can_discard_after(self, int o, int a, int b, int f0, int f1) noexcept
    cdef bint _could_win(self, int o, int i) noexcept
    cdef bint _complete(self, int s, const int *c) noexcept
    cdef _self_kong(self, int s, int i, bint concealed)
    cdef _try_resolve(self)
    cdef void _unmake_kong(self, int s, int i, bint concealed) noexcept
