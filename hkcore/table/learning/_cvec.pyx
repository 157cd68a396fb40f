# cython: language_level=3, auto_pickle=False, boundscheck=False, wraparound=False
"""``VecEnv``'s compiled core: the tables stepped, their bots played and
their observations written in C, from the engine's own values (declared in
hkcore/table/flow/_cengine.pxd) and the bots' compiled choices (declared in
hkcore/table/players/_cloop.pxd). Its pure twin, the reference, is
``_pyvec.PureCore``: the same arrays to the bit (tests/test_vecenv.py).
Deals, the ends of hands and what a hand pays stay Python (once a hand)."""
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from hkcore.table.flow._cengine cimport Engine
from hkcore.table.flow._codes cimport CLAIM, DISCARD, PASS, ROB, TURN, WIN
from hkcore.table.players._cbots cimport AwayMemo
from hkcore.table.players._cloop cimport efficiency_index, value_index
from hkcore.table.players._cvalue cimport Guard, Params

import random

from hkcore.errors import TableError, shown
from hkcore.table.env import PASS as _PASS_ID, action_name
from hkcore.table.flow.wall import SEATS as _SEATS
from hkcore.table.learning.encoding import ACTION_OF as _ACTION_OF, MAX_DISCARDS as _MAX_DISCARDS
from hkcore.table.learning.encoding import OBS_SIZE as _OBS_SIZE, OFFSET as _OFFSET, PHASE_SLOT as _PHASE_SLOT
from hkcore.table.learning.encoding import hand_rewards
from hkcore.table.match import Match
from hkcore.table.players.bots import make_bot
from hkcore.table.players.fastplay import new_memo, value_params
from hkcore.table.start import bot_seed, first_deal, record_preset, wall_seed
from hkcore.table.table import Table

IMPLEMENTATION = "cython"

DEF MAXH = 40    # discards a seat's history keeps: encoding.MAX_DISCARDS (checked at import)

# the bots a seat may have: a learner, the random policy, the compiled ones, any other through its prompts
DEF LEARNED = 0
DEF RANDOM = 1
DEF EFFICIENCY = 2
DEF VALUE = 3
DEF GUARD = 4
DEF PROMPTED = 5

cdef int ACTION_OF[9 * 34]
for _i in range(9 * 34):
    ACTION_OF[_i] = _ACTION_OF[_i]
cdef int PHASE_SLOT[8]
for _i in range(8):
    PHASE_SLOT[_i] = _PHASE_SLOT.get(_i, -1)
if _MAX_DISCARDS != MAXH:
    raise ImportError(f"_cvec keeps {MAXH} discards a seat, the encoding {_MAX_DISCARDS}: rebuild it")
cdef int OBS_SIZE = _OBS_SIZE
cdef int O_HAND = _OFFSET["hand"], O_DRAWN = _OFFSET["drawn"], O_SHOWN = _OFFSET["shown"]
cdef int O_MELDS = _OFFSET["melds"], O_DISCARDS = _OFFSET["discards"], O_BONUS = _OFFSET["bonus"]
cdef int O_UNSEEN = _OFFSET["unseen"], O_LIVE = _OFFSET["live_left"], O_SEAT = _OFFSET["seat_wind"]
cdef int O_ROUND = _OFFSET["round_wind"], O_DEALER = _OFFSET["dealer"], O_PHASE = _OFFSET["phase"]
cdef int O_OFFERED = _OFFSET["offered"], O_FROM = _OFFSET["offered_from"], O_POINTS = _OFFSET["points"]
cdef int O_PRESET = _OFFSET["preset"]


cdef inline int action_of(Engine e, int s, int k) noexcept:
    cdef int code = e.code[s][k]
    if code == WIN or code == PASS:
        return ACTION_OF[code * 34]
    return ACTION_OF[code * 34 + e.atile[s][k]]


cdef class CompiledCore:
    """N tables, their episodes and the arrays they write (``VecEnv``'s docstring says what each holds)."""

    cdef int n
    cdef object preset, ref, like, progress, args
    cdef bint match, hide, quiet
    cdef int kind[4]
    cdef list bots, games, engines, rngs, prompted
    cdef readonly list finished
    cdef long long seed, first
    cdef readonly list index
    cdef list count
    cdef float *hist      # [n][4][MAXH][3], as the observation holds them: tile + 1, claimed, drawn then discarded
    cdef int *nhist       # [n][4]: discards made (the first MAXH kept)
    cdef int *npond       # [n][4]: each pond's length after the last step
    cdef int *pondc       # [n][34]: copies of each tile in the four ponds
    cdef int *player_at   # [n][4]: the player at each seat
    cdef int *cur         # [n]: the seat asked
    cdef int *chosen      # [n]: the action index each table takes in a step
    cdef bint any_random, any_prompted
    cdef double *points   # [n][4]: by player
    cdef float features[64]
    cdef int nfeatures
    cdef float[:, ::1] obs
    cdef unsigned char[:, ::1] mask
    cdef signed char[::1] player
    cdef float[:, ::1] reward
    cdef unsigned char[::1] done
    cdef AwayMemo memo
    cdef Params params
    cdef Guard guard

    def __cinit__(self):
        self.hist = NULL
        self.nhist = NULL
        self.npond = NULL
        self.pondc = NULL
        self.player_at = NULL
        self.cur = NULL
        self.chosen = NULL
        self.points = NULL

    def __init__(self, int n, preset, learned, bots, long long seed, bint match, features, arrays, params,
                 bint logs=True, long long first=0):
        cdef int p
        self.args = (n, preset, list(learned), list(bots), seed, match, list(features), arrays, logs, first)
        self.n = n
        self.preset = preset
        self.ref = record_preset(preset)
        self.like = None
        self.progress = None
        self.match = match
        self.hide = not preset.table.show_concealed_kongs
        self.quiet = not logs
        self.bots = list(bots)
        self.seed = seed
        self.first = first
        if len(features) > 64:
            raise TableError(f"features = {shown(features)}: at most 64", "features", features)
        self.nfeatures = len(features)
        for p in range(self.nfeatures):
            self.features[p] = features[p]
        self.obs = arrays["obs"]
        self.mask = arrays["mask"]
        self.player = arrays["player"]
        self.reward = arrays["reward"]
        self.done = arrays["done"].view("uint8")
        self.memo = new_memo()
        self.params = params.compiled if params is not None else None
        self.guard = params.guard_compiled if params is not None else None
        for p in range(4):
            b = self.bots[p]
            if learned[p]:
                self.kind[p] = LEARNED
            elif b == "random":
                self.kind[p] = RANDOM
            elif b == "efficiency":
                self.kind[p] = EFFICIENCY
            elif b == "value" and self.params is not None:
                self.kind[p] = VALUE
            elif b == "guard" and self.guard is not None:
                self.kind[p] = GUARD
            else:
                self.kind[p] = PROMPTED
            self.any_random |= self.kind[p] == RANDOM
            self.any_prompted |= self.kind[p] == PROMPTED
        self.games = [None] * n
        self.engines = [None] * n
        self.finished = [None] * n
        self.rngs = [None] * n
        self.prompted = [None] * n
        self.index = [0] * n
        self.count = [0] * n
        self.hist = <float *> calloc(n * 4 * MAXH * 3, sizeof(float))
        self.nhist = <int *> calloc(n * 4, sizeof(int))
        self.npond = <int *> calloc(n * 4, sizeof(int))
        self.pondc = <int *> calloc(n * 34, sizeof(int))
        self.player_at = <int *> calloc(n * 4, sizeof(int))
        self.cur = <int *> calloc(n, sizeof(int))
        self.chosen = <int *> calloc(n, sizeof(int))
        self.points = <double *> calloc(n * 4, sizeof(double))
        if (self.hist == NULL or self.nhist == NULL or self.npond == NULL or self.pondc == NULL or self.player_at == NULL
                or self.cur == NULL or self.chosen == NULL or self.points == NULL):
            raise MemoryError()

    def __dealloc__(self):
        free(self.hist)
        free(self.nhist)
        free(self.npond)
        free(self.pondc)
        free(self.player_at)
        free(self.cur)
        free(self.chosen)
        free(self.points)

    cdef list _buffers(self):
        """The tables' C buffers a pickle keeps: (name, address, size in bytes) of each."""
        cdef size_t n = self.n
        return [("hist", <size_t> self.hist, n * 4 * MAXH * 3 * sizeof(float)),
                ("nhist", <size_t> self.nhist, n * 4 * sizeof(int)),
                ("npond", <size_t> self.npond, n * 4 * sizeof(int)),
                ("pondc", <size_t> self.pondc, n * 34 * sizeof(int)),
                ("player_at", <size_t> self.player_at, n * 4 * sizeof(int)),
                ("cur", <size_t> self.cur, n * sizeof(int)),
                ("points", <size_t> self.points, n * 4 * sizeof(double))]

    def __reduce__(self):
        """Pickled as its arguments and every table's state (the arrays are the ``VecEnv``'s, pickled with it)."""
        cdef size_t addr, size
        arrays = {}
        for name, addr, size in self._buffers():
            arrays[name] = (<char *> addr)[:size]
        state = {"games": self.games, "finished": self.finished, "rngs": self.rngs, "prompted": self.prompted,
                 "index": self.index, "count": self.count, "params": self.params is not None, "c": arrays}
        return _restored, (self.args, state)

    def _restore(self, state):
        cdef bytes b
        games = state["games"]
        self.games = list(games)
        self.engines = [None if g is None else (g.table if self.match else g) for g in games]
        for e in self.engines:
            if e is not None:
                (<Engine> e).quiet = self.quiet
        self.finished = list(state["finished"])
        self.rngs = list(state["rngs"])
        self.prompted = list(state["prompted"])
        self.index = list(state["index"])
        self.count = list(state["count"])
        if state["params"]:
            self.use_params(value_params(self.preset))
        cdef size_t addr, size
        for name, addr, size in self._buffers():
            b = state["c"][name]
            if len(b) != size:
                raise TableError(f"state.c.{name}: {len(b)} bytes, not the {size} of {self.n} tables",
                                 f"state.c.{name}", len(b))
            memcpy(<void *> addr, <char *> b, size)

    # ------------------------------------------------------------ episodes

    def reset(self):
        cdef int i, p
        for i in range(self.n):
            self.count[i] = 0
            self.finished[i] = None
            for p in range(4):
                self.reward[i, p] = 0
            self.done[i] = 0
            self._begin(i)
            self._advance(i)

    cdef _begin(self, int i):
        cdef int s, p
        k = self.first + self.count[i] * self.n + i
        self.count[i] += 1
        self.index[i] = k
        ws = wall_seed(self.seed, k)
        if self.match:
            g = Match(self.preset, seed=ws)
            self.games[i] = g
        else:
            deal = first_deal(self.preset, ws, self.ref)
            g = Table.dealt(deal, self.progress, like=self.like)
            self.like = g
            if self.progress is None:  # (a hand's progress before it is never changed: the next hands share it)
                self.progress = g.progress
            self.games[i] = g
        for p in range(4):
            self.points[i * 4 + p] = 0.0
        if self.any_random:
            self.rngs[i] = [random.Random(bot_seed(self.seed, k, 0, _SEATS[p])) if self.kind[p] == RANDOM else None
                            for p in range(4)]
        if self.any_prompted:
            self.prompted[i] = [make_bot(str(self.bots[p]), self.preset, bot_seed(self.seed, k, 0, _SEATS[p]))
                                if self.kind[p] == PROMPTED else None for p in range(4)]
        self._new_hand(i)

    cdef _new_hand(self, int i):
        """Table ``i``'s hand in play begins: its engine, who sits where, no discards."""
        cdef int s
        g = self.games[i]
        t = g.table if self.match else g
        self.engines[i] = t
        (<Engine> t).quiet = self.quiet
        memset(self.pondc + i * 34, 0, 34 * sizeof(int))
        for s in range(4):
            self.nhist[i * 4 + s] = 0
            self.npond[i * 4 + s] = 0
            self.player_at[i * 4 + s] = g.players.index(t.seats[_SEATS[s]]) if self.match else s

    cdef void _advance(self, int i) except *:
        """Bots play table ``i`` until a learned player is asked (a finished episode is begun again)."""
        cdef Engine e
        cdef int s, p, k
        while True:
            e = <Engine> self.engines[i]
            if e.over:
                if self._hand_over(i):
                    continue
            s = e._to_answer()
            if s < 0:
                raise RuntimeError("no seat to answer in an open hand")
            p = self.player_at[i * 4 + s]
            if self.kind[p] == LEARNED:
                self.cur[i] = s
                self._write(i, e, s, p)
                return
            if self.kind[p] == EFFICIENCY:
                k = efficiency_index(e, s, self.hide, self.memo)
            elif self.kind[p] == VALUE:
                k = value_index(e, s, self.hide, self.memo, self.params, e.win_tag, None)
            elif self.kind[p] == GUARD:
                k = value_index(e, s, self.hide, self.memo, self.params, e.win_tag, self.guard)
            elif self.kind[p] == RANDOM:
                k = <int> (self.rngs[i][p].random() * e.ncodes[s])
            else:
                k = self._prompted(i, e, s, p)
            self._play(i, e, s, k)

    cdef int _prompted(self, int i, Engine e, int s, int p) except -1:
        """A bot played through its prompt: the index of the action it chose."""
        q = next(x for x in e.prompts() if x["seat"] == _SEATS[s])
        d = self.prompted[i][p].decide(q)
        action = {key: v for key, v in d.items() if key not in ("prompt", "seat")}
        return q["actions"].index(action)

    cdef bint _hand_over(self, int i) except -1:
        """Table ``i``'s hand has ended: its payments credited; the next hand of a match, or the episode's end
        and the next episode begun. True when play goes on."""
        cdef int s
        g = self.games[i]
        e = self.engines[i]
        pay = hand_rewards(e.log)
        for s in range(4):
            self.reward[i, self.player_at[i * 4 + s]] += pay[s]
            self.points[i * 4 + self.player_at[i * 4 + s]] += pay[s]
        if self.match:
            g.sync()
            if not g.over:
                self._new_hand(i)
                return True
        self.finished[i] = list(g.log)
        self.done[i] = 1
        self._begin(i)
        return True

    cdef void _play(self, int i, Engine e, int s, int k) except *:
        """Seat ``s`` takes action ``k``: its discard kept in order, the claims of discards marked."""
        cdef int o, h, tile, drawn
        cdef int last[4]
        cdef float *row
        if e.code[s][k] == DISCARD:
            tile = e.atile[s][k]
            drawn = e._drawn_seen(s)
            h = self.nhist[i * 4 + s]
            if h < MAXH:
                row = self.hist + ((i * 4 + s) * MAXH + h) * 3
                row[0] = tile + 1
                row[1] = 0
                row[2] = tile == drawn
            self.nhist[i * 4 + s] = h + 1
        for o in range(4):
            last[o] = e.pond[o][e.npond[o] - 1] if e.npond[o] > 0 else -1
        e._step(s, k)
        for o in range(4):
            if e.npond[o] < self.npond[i * 4 + o]:
                h = self.nhist[i * 4 + o]
                if 0 < h <= MAXH:
                    self.hist[((i * 4 + o) * MAXH + h - 1) * 3 + 1] = 1
                self.pondc[i * 34 + last[o]] -= 1
            elif e.npond[o] > self.npond[i * 4 + o]:
                self.pondc[i * 34 + e.pond[o][e.npond[o] - 1]] += 1
            self.npond[i * 4 + o] = e.npond[o]

    # ------------------------------------------------------------ steps

    def step(self, actions, bint fallback, double penalty):
        """One decision for every table (``actions[i]`` for table ``i``'s player asked); all checked first."""
        cdef int i, k, s, a, n = self.n, p
        cdef Engine e
        cdef long long[::1] acts = actions
        cdef int *chosen = self.chosen
        for i in range(n):
            e = <Engine> self.engines[i]
            s = self.cur[i]
            a = -1 if acts[i] < 0 or acts[i] > 1 << 30 else <int> acts[i]
            chosen[i] = -1
            for k in range(e.ncodes[s]):
                if action_of(e, s, k) == a:
                    chosen[i] = k
                    break
            if chosen[i] < 0:
                if not fallback:
                    self._illegal(i, e, s, acts[i])
                chosen[i] = self._fallback(e, s)
        for i in range(n):
            for p in range(4):
                self.reward[i, p] = 0
            self.done[i] = 0
            self.finished[i] = None
        for i in range(n):
            e = <Engine> self.engines[i]
            s = self.cur[i]
            if action_of(e, s, chosen[i]) != acts[i]:
                self.reward[i, self.player_at[i * 4 + s]] -= penalty
            self._play(i, e, s, chosen[i])
            self._advance(i)

    cdef _illegal(self, int i, Engine e, int s, long long a):
        cdef int k
        legal = ", ".join(f"{action_of(e, s, k)} {action_name(action_of(e, s, k))}" for k in range(e.ncodes[s]))
        what = f" ({action_name(int(a))})" if 0 <= a < self.mask.shape[1] else ""
        raise TableError(f"actions[{i}] = {shown(int(a))}{what}: not legal for table {i}'s player "
                         f"{self.player_at[i * 4 + s]} (legal: {legal})", f"actions[{i}]", int(a))

    cdef int _fallback(self, Engine e, int s) noexcept:
        """What an illegal action becomes: the pass, else the discard of the tile just drawn, else the first discard
        offered (a turn offers discards; every other prompt the pass)."""
        cdef int k, drawn
        for k in range(e.ncodes[s]):
            if e.code[s][k] == PASS:
                return k
        drawn = e._drawn_seen(s)
        for k in range(e.ncodes[s]):
            if e.code[s][k] == DISCARD and e.atile[s][k] == drawn:
                return k
        for k in range(e.ncodes[s]):
            if e.code[s][k] == DISCARD:
                return k
        return 0

    def use_params(self, params):
        """The value and guard bots' parameters (``fastplay.value_params``) for ``expert``, if not given."""
        if self.params is None and params is not None:
            self.params = params.compiled
            self.guard = params.guard_compiled

    def expert(self, name, long long[::1] out):
        """Into ``out``, by table: the action the bot ``name`` would take for the player asked."""
        cdef int i, s, k, kind
        cdef Engine e
        kind = {"efficiency": EFFICIENCY, "value": VALUE, "guard": GUARD}.get(name, PROMPTED)
        if (kind == VALUE and self.params is None) or (kind == GUARD and self.guard is None):
            kind = PROMPTED
        for i in range(self.n):
            e = <Engine> self.engines[i]
            s = self.cur[i]
            if kind == EFFICIENCY:
                k = efficiency_index(e, s, self.hide, self.memo)
            elif kind == VALUE:
                k = value_index(e, s, self.hide, self.memo, self.params, e.win_tag, None)
            elif kind == GUARD:
                k = value_index(e, s, self.hide, self.memo, self.params, e.win_tag, self.guard)
            else:
                q = next(x for x in e.prompts() if x["seat"] == _SEATS[s])
                d = make_bot(name, self.preset, bot_seed(self.seed, self.index[i], 1, _SEATS[s])).decide(q)
                k = q["actions"].index({key: v for key, v in d.items() if key not in ("prompt", "seat")})
            out[i] = action_of(e, s, k)

    def log(self, int i):
        g = self.games[i]
        if self.match:
            g.sync()
        return list(g.log)

    def finished_log(self, int i):
        return self.finished[i]

    def episode(self, int i):
        return self.index[i]

    # ------------------------------------------------------------ observations

    cdef void _write(self, int i, Engine e, int s, int p) noexcept:
        cdef float *o = &self.obs[i, 0]
        cdef unsigned char *m = &self.mask[i, 0]
        cdef int seen[34]
        cdef int j, seat, t, mm, low, kind, n, d, at, nd
        cdef int drawn
        memset(o, 0, OBS_SIZE * sizeof(float))
        memset(m, 0, self.mask.shape[1])
        for t in range(34):
            seen[t] = e.counts[s][t] + self.pondc[i * 34 + t]
            o[O_HAND + t] = e.counts[s][t]
        drawn = e._drawn_seen(s)
        if drawn >= 0:
            o[O_DRAWN + drawn] = 1
        for j in range(4):
            seat = (s + j) % 4
            for mm in range(e.nmeld[seat] if e.nmeld[seat] < 4 else 4):
                at = O_MELDS + (j * 4 + mm) * 4
                kind = e.mkind[seat][mm]
                low = e.mlow[seat][mm]
                o[at] = kind + 1
                if not (self.hide and seat != s and e.mconc[seat][mm]):
                    o[at + 1] = low + 1
                    if kind == 0:
                        for t in range(low, low + 3):
                            o[O_SHOWN + j * 34 + t] += 1
                            seen[t] += 1
                    else:
                        n = 4 if kind == 2 else 3
                        o[O_SHOWN + j * 34 + low] += n
                        seen[low] += n
                o[at + 2] = e.mconc[seat][mm] != 0
                if not e.mconc[seat][mm] and e.msrc[seat][mm] >= 0:
                    o[at + 3] = (e.msrc[seat][mm] - s + 4) % 4 + 1
            nd = self.nhist[i * 4 + seat]
            if nd > MAXH:
                nd = MAXH
            memcpy(o + O_DISCARDS + j * MAXH * 3, self.hist + (i * 4 + seat) * MAXH * 3, nd * 3 * sizeof(float))
            for d in range(e.nbonus[seat]):
                o[O_BONUS + j * 8 + e.bonus[seat][d] - 34] = 1
            o[O_POINTS + j] = <float> self.points[i * 4 + self.player_at[i * 4 + seat]]
        if PHASE_SLOT[e.phase] >= 0:
            o[O_PHASE + PHASE_SLOT[e.phase]] = 1
        if (e.phase == CLAIM or e.phase == ROB) and e.w_tile >= 0:
            seen[e.w_tile] += 1
            o[O_OFFERED + e.w_tile] = 1
            o[O_FROM + (e.w_from - s + 4) % 4] = 1
        for t in range(34):
            o[O_UNSEEN + t] = 4 - seen[t] if seen[t] < 4 else 0
        o[O_LIVE] = e._live()
        o[O_SEAT + s] = 1
        o[O_ROUND + e.win_tag] = 1
        o[O_DEALER + (4 - s) % 4] = 1
        memcpy(o + O_PRESET, self.features, self.nfeatures * sizeof(float))
        for t in range(e.ncodes[s]):
            m[action_of(e, s, t)] = 1
        self.player[i] = p


def _restored(args, state):
    """A pickled ``CompiledCore`` made again (``CompiledCore.__reduce__``)."""
    n, preset, learned, bots, seed, match, features, arrays, logs, first = args
    core = CompiledCore(n, preset, learned, bots, seed, match, features, arrays,
                        value_params(preset) if any(b in ("value", "guard") for b in bots) else None, logs, first)
    core._restore(state)
    return core
