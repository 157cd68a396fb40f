# cython: language_level=3, auto_pickle=False
"""The flow of one hand as plain data: the compiled engine.

It mirrors hkcore/table/flow/_pyengine/ (the reference) step for step, on C
arrays; tests hold the two equal. What a win is worth, the settlement and a
seat's view are asked of the subclass (``hkcore.table.table.Table``) through
the hooks of ``hkcore.table.flow.hooks.TableHooks``, whose docstring is the
whole contract; its C values are declared in _cengine.pxd.
"""
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.string cimport memcpy, memset

import random as _random
from collections.abc import Mapping

from hkcore.core._ccore cimport orphans_shape, pairs_shape, standard_shape
from hkcore.table.flow._codes cimport (ADDED, AFTER_DEAL, AFTER_G4, CHOW, CLAIM, CONCEALED, DEAL, DISCARD, DISCARD_ONLY,
                                      EXPOSED, INSTANT, M_CHOW, M_KONG, M_PUNG, OVER, PASS, PUNG, ROB, SELF_PUNG,
                                      TURN, WIN)

from hkcore.errors import TableError, shown
from hkcore.table.flow import codes as _codes
from hkcore.table.flow.wall import BONUS as _BONUS, CODES as _CODES, SEATS as _SEATS, discard_refused, legal_text
from hkcore.table.flow.wall import canonical as _wall_canonical

IMPLEMENTATION = "cython"

DEF NO_WINS = 65536  # the most keys a no_wins set keeps (then it starts again empty)

cdef int BONUS = 34
cdef tuple SEATS = _SEATS
cdef tuple CODES = _CODES
cdef tuple PHASES = _codes.PHASES
cdef tuple ACTS = _codes.ACTS
cdef tuple KINDS = _codes.KINDS
cdef tuple MELD_KIND = _codes.MELD_KIND
cdef int RANK[9]  # a claim's rank by action code (the pure engine's RANK.get(code, 0))
for _c in range(9):
    RANK[_c] = _codes.RANK.get(_c, 0)
cdef int NEXT[4]
NEXT[:] = _codes.NEXT
cdef dict PASS_ACTION = {"act": "pass"}


cdef list _texts(int n, int code):
    cdef list out = []
    cdef int i
    for i in range(34):
        if code == CHOW:
            out.append(_wall_canonical((i, i + 1, i + 2)) if i < 27 and i % 9 <= 6 else None)
        else:
            out.append(CODES[i][0] * n + CODES[i][1])
    return out


cdef list KONG_TEXT = _texts(4, CONCEALED)
cdef list PUNG_TEXT = _texts(3, PUNG)
cdef list CHOW_TEXT = _texts(3, CHOW)
cdef list DISCARD_ACTIONS = [{"act": "discard", "tile": CODES[i]} for i in range(34)]
# the JSON lines of the commonest records, by seat and tile index
cdef tuple DRAW_TEXT = tuple(f'{{"event":"draw","seat":"{SEATS[s]}","tile":"{CODES[t]}","source":"{src}"}}'
                             for s in range(4) for t in range(42) for src in ("live", "replacement"))
# the records themselves, copied for each use (a copy of a small dict is cheaper than building it)
cdef tuple DRAW_RECORD = tuple({"event": "draw", "seat": SEATS[s], "tile": CODES[t], "source": src}
                               for s in range(4) for t in range(42) for src in ("live", "replacement"))
cdef tuple DISCARD_RECORD = tuple({"event": "discard", "seat": SEATS[s], "tile": CODES[t]}
                                  for s in range(4) for t in range(42))
cdef tuple DISCARD_TEXT = tuple(f'{{"event":"discard","seat":"{SEATS[s]}","tile":"{CODES[t]}"}}'
                                for s in range(4) for t in range(42))
cdef tuple SET_TEXT = tuple(  # pung and chow records: by seat, kind (0 pung, 1 chow), lowest tile, discarder
    f'{{"event":"{("pung", "chow")[k]}","seat":"{SEATS[s]}","tiles":"{CODES[t][0] * 3 + CODES[t][1] if k == 0 else _wall_canonical((t, t + 1, t + 2)) if t < 27 and t % 9 <= 6 else ""}","from":"{SEATS[f]}"}}'
    for s in range(4) for k in range(2) for t in range(34) for f in range(4))
cdef tuple KONG_LINE = tuple(  # self kongs: by seat, kind (0 concealed, 1 added), tile
    f'{{"event":"kong","seat":"{SEATS[s]}","kind":"{("concealed", "added")[k]}","tiles":"{CODES[t][0] * 4 + CODES[t][1]}"}}'
    for s in range(4) for k in range(2) for t in range(34))
cdef tuple EXPOSED_LINE = tuple(
    f'{{"event":"kong","seat":"{SEATS[s]}","kind":"exposed","tiles":"{CODES[t][0] * 4 + CODES[t][1]}","from":"{SEATS[f]}"}}'
    for s in range(4) for t in range(34) for f in range(4))
cdef tuple BONUS_TEXT = tuple(f'{{"event":"bonus","seat":"{SEATS[s]}","tile":"{CODES[b]}","replacement":'
                              + ("null" if r == 42 else f'"{CODES[r]}"') + "}"
                              for s in range(4) for b in range(34, 42) for r in range(43))




cdef char _SUIT_CH[42]
cdef char _DIGIT_CH[42]
for _i in range(42):
    _SUIT_CH[_i] = ord(CODES[_i][1])
    _DIGIT_CH[_i] = ord(CODES[_i][0])


cdef str _counts_text(const int *c, int upto):
    """Tiles counted by index (``c[0..upto-1]``, each 0..4) in canonical
    notation, written into a C buffer."""
    cdef char buf[200]
    cdef int i, k, n = 0
    cdef char suit = 0
    for i in range(upto):
        if c[i] < 0 or c[i] > 4:
            return None
        if c[i]:
            if _SUIT_CH[i] != suit:
                if suit:
                    buf[n] = suit
                    n += 1
                suit = _SUIT_CH[i]
            for k in range(c[i]):
                buf[n] = _DIGIT_CH[i]
                n += 1
    if suit:
        buf[n] = suit
        n += 1
    return buf[:n].decode("ascii")


cdef str _canon(const int *c):
    """The 34 counts ``c`` in canonical notation."""
    text = _counts_text(c, 34)
    return text if text is not None else _wall_canonical([i for i in range(34) for _ in range(c[i])])


cdef str _canon_list(const int *tiles, int n):
    """Tile indices 0..41 in canonical notation."""
    cdef int cnt[42]
    cdef int i
    memset(cnt, 0, sizeof(cnt))
    for i in range(n):
        if tiles[i] < 0 or tiles[i] >= 42:
            return _wall_canonical([tiles[k] for k in range(n)])
        cnt[tiles[i]] += 1
    text = _counts_text(cnt, 42)
    return text if text is not None else _wall_canonical([tiles[k] for k in range(n)])


cdef inline bint _filled(list x) noexcept:
    """Whether a prompt's payloads hold any (a list's size read in C)."""
    return x is not None and len(x) > 0


cdef inline str _set_text(int code, int low):
    if code == CHOW:
        return CHOW_TEXT[low]
    if code == CONCEALED or code == ADDED or code == EXPOSED:
        return KONG_TEXT[low]
    return PUNG_TEXT[low]


cdef class Engine:
    """The state of a hand in play and every step of its flow."""

    # the values the subclass and the table's own modules read (Python names; the C ones are the .pxd's)
    @property
    def _texts(self):
        return self.texts

    @_texts.setter
    def _texts(self, value):
        self.texts = value

    @property
    def _drawn(self):
        return self.drawn

    @property
    def _declared(self):
        return self.declared

    @property
    def _e_first(self):
        return self.e_first

    @property
    def _kongs(self):
        return self.kongs

    @property
    def _by_kong(self):
        return self.by_kong

    @property
    def _discards(self):
        return self.discards

    @property
    def _prompt_no(self):
        return self.prompt_no

    @property
    def _phase(self):
        return self.phase

    @property
    def _w_tile(self):
        return self.w_tile

    @property
    def _win_tag(self):
        return self.win_tag

    def _setup(self, hands, wall, int reserve, rules, int round_wind):
        """A hand dealt: ``hands`` and ``wall`` (tile indices), ``reserve`` tiles of dead wall, ``rules`` (an
        ``EngineRules``), the round wind's index ``round_wind`` (0..3, E S W N)."""
        cdef int s, i, n
        (self.r_concealed, self.r_added, self.r_drawn_only, self.r_self_pung, self.r_last_any, self.r_swap,
         self.r_rob, self.r_many, self.r_instant, self.r_orphans, self.r_extra, self.r_front) = rules.flags()
        # seven pairs alone beyond the core's shapes: the engine counts it, the shapes left to the scorer are none
        self.r_pairs = rules.seven_pairs
        if self.r_pairs:
            self.r_extra = 0
        self.win_tag = round_wind
        if self.texts is None or len(self.texts) != len(self.log):
            self.texts = [None] * len(self.log)
        memset(self.counts, 0, sizeof(self.counts))
        memset(self.nmeld, 0, sizeof(self.nmeld))
        memset(self.nbonus, 0, sizeof(self.nbonus))
        memset(self.npond, 0, sizeof(self.npond))
        memset(self.draws, 0, sizeof(self.draws))
        memset(self.instant_due, 0, sizeof(self.instant_due))
        memset(self.ncodes, 0, sizeof(self.ncodes))
        n = len(wall)
        if n > MAXW:
            raise TableError("start: more tiles than a wall holds", "start", n)
        for i in range(n):
            self.wall[i] = wall[i]
        self.front = 0
        self.back = n
        self.from_back = 0
        self.reserve = reserve
        self.prompt_no = 0
        self.phase = DEAL
        self.turn = 0
        self.drawn = -1
        self.by_kong = False
        self.kongs = 0
        self.declared = False
        self.e_first = True
        self.discards = 0
        self.last_dealt = -1
        self.over = False
        self.nasked = 0
        self.payload = [[], [], [], []]
        self.answer[:] = [-1, -1, -1, -1]
        self.w_tile = -1
        self.w_from = -1
        self.w_after = 0
        self.w_concealed = False
        for s in range(4):
            for i in hands[s]:
                if i >= BONUS:
                    self.bonus[s][self.nbonus[s]] = i
                    self.nbonus[s] += 1
                else:
                    self.counts[s][i] += 1

    cdef void _rec(self, dict record, object text) except *:
        if self.quiet:
            return
        self.log.append(record)
        self.texts.append(text)

    def _add_record(self, dict record, text=None):
        """Append a record the engine does not write itself, with its JSON
        line if the caller has made it (else it is made when written)."""
        self.log.append(record)
        self.texts.append(text)

    cdef void _emit(self, dict record) except *:
        if self.quiet:
            return
        self.log.append(record)
        self.texts.append(None)

    # ------------------------------------------------------------ accessors

    def live_left(self):
        """Tiles live draws may still take."""
        return self._live()

    cdef int _live(self) noexcept:
        cdef int d = self.reserve - self.from_back
        cdef int n = self.back - self.front - (d if d > 0 else 0)
        return n if n > 0 else 0

    def _wall_left(self):
        """Tiles left in the wall, the dead wall's included."""
        return self.back - self.front

    def _melds_json(self, int s, bint hide=False):
        """``s``'s declared sets as hand JSON (a concealed kong's tiles null with ``hide``)."""
        cdef list out = []
        cdef int j, kind, low
        cdef dict m
        for j in range(self.nmeld[s]):
            kind = self.mkind[s][j]
            low = self.mlow[s][j]
            if kind == M_CHOW:
                text = CHOW_TEXT[low]
            elif kind == M_KONG:
                text = KONG_TEXT[low]
            else:
                text = PUNG_TEXT[low]
            m = {"kind": MELD_KIND[kind], "tiles": None if hide and self.mconc[s][j] else text}
            if self.mconc[s][j]:
                m["concealed"] = True
            elif self.msrc[s][j] >= 0:
                m["from"] = SEATS[self.msrc[s][j]]
            out.append(m)
        return out

    def _seen(self, int s, bint hide):
        """What seat ``s`` sees of the hand: its concealed tiles less the tile
        just drawn, that tile (or None), then by seat the declared sets (a
        concealed kong's tiles null with ``hide``, but for ``s``'s own), the
        bonus tiles, the ponds and how many tiles each holds."""
        cdef int c[34]
        cdef int o, i, n
        cdef int drawn = self._drawn_seen(s)
        for i in range(34):
            c[i] = self.counts[s][i]
        if drawn >= 0:
            c[drawn] -= 1
        melds = {}
        bonus = {}
        ponds = {}
        held = {}
        for o in range(4):
            seat = SEATS[o]
            melds[seat] = self._melds_json(o, hide and o != s) if self.nmeld[o] else []
            bonus[seat] = _canon_list(self.bonus[o], self.nbonus[o]) if self.nbonus[o] else ""
            ponds[seat] = "".join([CODES[self.pond[o][i]] for i in range(self.npond[o])])
            n = 0
            for i in range(34):
                n += self.counts[o][i]
            held[seat] = n
        return _canon(c), None if drawn < 0 else CODES[drawn], melds, bonus, ponds, held

    def _counts_of(self, int s):
        """A copy of ``s``'s 34 counts of concealed tiles."""
        return [self.counts[s][i] for i in range(34)]

    def _bonus_of(self, int s):
        """The bonus tiles ``s`` has set aside, in order."""
        return [self.bonus[s][i] for i in range(self.nbonus[s])]

    def _pond_of(self, int s):
        """``s``'s discards not claimed, in order."""
        return [self.pond[s][i] for i in range(self.npond[s])]

    def _draws_of(self, int s):
        """How many live draws ``s`` has made."""
        return self.draws[s]

    def _instant_is_due(self, int s):
        """Whether an instant bonus win is to be offered at ``s``'s next decision."""
        return self.instant_due[s]

    def _winning_shape(self, int s, counts):
        """Whether ``counts`` (with ``s``'s sets) is a winning shape; always
        True under a preset with shapes the core does not know."""
        cdef int c[34]
        cdef int i
        if self.r_extra:
            return True
        for i in range(34):
            c[i] = counts[i]
        return self._complete(s, c)

    def _give(self, int s, int tile, int pond):
        """The winning tile goes to ``s``: out of ``pond``'s pond (-1: not from a pond)."""
        self.counts[s][tile] += 1
        if pond >= 0:
            self.npond[pond] -= 1

    def _finish(self):
        """The hand is over: nothing more is asked."""
        self._clear()
        self.over = True
        self.phase = OVER

    @property
    def no_wins(self):
        """Where a run of hands keeps the complete hands found not winnable
        (a set the caller owns and gives each table that may share it), or
        None: none kept."""
        return self._no_wins

    @no_wins.setter
    def no_wins(self, value):
        if value is not None and type(value) is not set:
            raise TableError(f"no_wins = {shown(value)}: a set, or None", "no_wins", value)
        self._no_wins = value

    def _engine_state(self):
        """Every value of the engine, for a copy or a pickle."""
        cdef int s, j, k
        return (
            (self.r_concealed, self.r_added, self.r_drawn_only, self.r_self_pung, self.r_last_any, self.r_swap,
             self.r_rob, self.r_many, self.r_instant, self.r_orphans, self.r_extra, self.r_front, self.r_pairs),
            [[self.counts[s][i] for i in range(34)] for s in range(4)],
            [[(self.mkind[s][j], self.mlow[s][j], self.msrc[s][j], self.mconc[s][j]) for j in range(self.nmeld[s])]
             for s in range(4)],
            [self._bonus_of(s) for s in range(4)], [self._pond_of(s) for s in range(4)],
            [self.wall[i] for i in range(self.back)],
            (self.front, self.back, self.from_back, self.reserve, self.prompt_no, self.phase, self.turn, self.drawn,
             self.kongs, self.discards, self.last_dealt, self.by_kong, self.declared, self.e_first, self.over,
             self.w_tile, self.w_from, self.w_after, self.w_concealed, self.nasked),
            [self.draws[s] for s in range(4)], [self.instant_due[s] for s in range(4)],
            [self.asked[j] for j in range(self.nasked)],
            [[(self.code[s][k], self.atile[s][k], self.forbid[s][k][0], self.forbid[s][k][1])
              for k in range(self.ncodes[s])] for s in range(4)],
            [list(p) for p in self.payload], [self.answer[s] for s in range(4)], self.win_tag,
        )

    def _load_engine_state(self, state):
        import copy
        cdef int s, j, k
        if len(state) == 13:  # pickled by hkcore 0.1.0, before the round wind was the engine's: the log has it
            state = (*state, SEATS.index(self.log[0]["round"]))
        (rules, counts, melds, bonus, ponds, wall, flat, draws, due, asked, codes, payload, answer,
         self.win_tag) = state
        if len(rules) == 12:  # pickled before seven pairs was the engine's: not in play then
            rules = (*rules, 0)
        (self.r_concealed, self.r_added, self.r_drawn_only, self.r_self_pung, self.r_last_any, self.r_swap,
         self.r_rob, self.r_many, self.r_instant, self.r_orphans, self.r_extra, self.r_front,
         self.r_pairs) = rules
        for s in range(4):
            for j in range(34):
                self.counts[s][j] = counts[s][j]
            self.nmeld[s] = len(melds[s])
            for j, (a, b, c, d) in enumerate(melds[s]):
                self.mkind[s][j], self.mlow[s][j], self.msrc[s][j], self.mconc[s][j] = a, b, c, d
            self.nbonus[s] = len(bonus[s])
            for j, v in enumerate(bonus[s]):
                self.bonus[s][j] = v
            self.npond[s] = len(ponds[s])
            for j, v in enumerate(ponds[s]):
                self.pond[s][j] = v
            self.draws[s] = draws[s]
            self.instant_due[s] = due[s]
            self.ncodes[s] = len(codes[s])
            for k, (a, b, c, d) in enumerate(codes[s]):
                self.code[s][k], self.atile[s][k], self.forbid[s][k][0], self.forbid[s][k][1] = a, b, c, d
            self.answer[s] = answer[s]
        for j, v in enumerate(wall):
            self.wall[j] = v
        (self.front, self.back, self.from_back, self.reserve, self.prompt_no, self.phase, self.turn, self.drawn,
         self.kongs, self.discards, self.last_dealt, self.by_kong, self.declared, self.e_first, self.over,
         self.w_tile, self.w_from, self.w_after, self.w_concealed, self.nasked) = flat
        for j, v in enumerate(asked):
            self.asked[j] = v
        self.payload = copy.deepcopy([list(p) for p in payload])

    # -------------------------------------------------------------- the wall

    cdef int _to_answer(self) noexcept:
        """The first seat asked that has not answered (the one a loop of bots asks next), else -1."""
        cdef int j
        for j in range(self.nasked):
            if self.answer[self.asked[j]] < 0:
                return self.asked[j]
        return -1

    cdef int _drawn_seen(self, int s) noexcept:
        """The tile seat ``s`` has just drawn, as it sees it: -1 if it is not ``s``'s turn after a draw (E's first
        turn has no drawn tile: its fourteenth was dealt)."""
        return self.drawn if (s == self.turn and self.phase == TURN and self.drawn >= 0
                              and not (s == 0 and self.e_first)) else -1

    cdef int _take_replacement(self):
        cdef int t
        if self.back <= self.front:
            return -1
        if self.r_front:
            t = self.wall[self.front]
            self.front += 1
        else:
            self.back -= 1
            self.from_back += 1
            t = self.wall[self.back]
        return t

    cdef int _bonus_out(self, int s, int b) except -2:
        """``s`` sets the bonus tile ``b`` aside and draws its replacement (-1: none, G4)."""
        cdef int r, n
        self.bonus[s][self.nbonus[s]] = b
        self.nbonus[s] += 1
        r = self._take_replacement()
        self._rec({"event": "bonus", "seat": SEATS[s], "tile": CODES[b],
                   "replacement": None if r < 0 else CODES[r]}, BONUS_TEXT[(s * 8 + b - 34) * 43 + (42 if r < 0 else r)])
        n = self.nbonus[s]
        if self.r_instant and (n == 7 or n == 8):
            self.instant_due[s] = True
        return r

    cdef int _set_aside(self, int s, int t) except -2:
        while t >= BONUS:
            t = self._bonus_out(s, t)
        return t

    def _deal_bonus(self):
        cdef int s, b, r
        cdef list held
        for s in range(4):
            held = self._bonus_of(s)
            self.nbonus[s] = 0
            while held:
                b = min(held)
                held.remove(b)
                r = self._bonus_out(s, b)
                if r < 0:
                    for b in held:  # G4: no tile can restore the hand
                        self.bonus[s][self.nbonus[s]] = b
                        self.nbonus[s] += 1
                    self._g4(s)
                    return False
                if r >= BONUS:
                    held.append(r)
                else:
                    self.counts[s][r] += 1
                    if s == 0:
                        self.last_dealt = r
        return True

    # ------------------------------------------------------------- prompts

    cdef void _open(self, int phase) noexcept:
        self.prompt_no += 1
        self.phase = phase
        self.answer[0] = self.answer[1] = self.answer[2] = self.answer[3] = -1

    cdef void _clear(self) noexcept:
        cdef int j
        for j in range(self.nasked):
            self.ncodes[self.asked[j]] = 0
            if _filled(<list> self.payload[self.asked[j]]):
                self.payload[self.asked[j]] = []
        self.nasked = 0

    cdef void _add(self, int s, int code, int tile, object payload=None, int f0=-1, int f1=-1) noexcept:
        cdef int k = self.ncodes[s]
        self.code[s][k] = code
        self.atile[s][k] = tile
        self.forbid[s][k][0] = f0
        self.forbid[s][k][1] = f1
        self.ncodes[s] = k + 1
        if code == WIN:
            lst = self.payload[s]
            while len(lst) < k:
                lst.append(None)
            lst.append(payload)

    cdef void _put(self, int s, int code, int tile) noexcept:
        """``_add`` of an action that is not a win and forbids no discard after it (no payload to pass)."""
        cdef int k = self.ncodes[s]
        self.code[s][k] = code
        self.atile[s][k] = tile
        self.forbid[s][k][0] = -1
        self.forbid[s][k][1] = -1
        self.ncodes[s] = k + 1

    cdef void _ask(self, int s) noexcept:
        self.asked[self.nasked] = s
        self.nasked += 1

    cpdef dict _action(self, int s, int k):
        """Action ``k`` of seat ``s``'s open prompt, as JSON."""
        cdef int code = self.code[s][k]
        cdef dict out
        if code == WIN:
            return dict(self.payload[s][k][0])
        if code == PASS:
            return {"act": "pass"}
        if code == DISCARD:
            return {"act": "discard", "tile": CODES[self.atile[s][k]]}
        out = {"act": ACTS[code]}
        if KINDS[code] is not None:
            out["kind"] = KINDS[code]
        out["tiles"] = _set_text(code, self.atile[s][k])
        return out

    def prompts(self, bint views=True):
        """The prompts open now, one per seat still to answer (``[]`` once the
        hand is over): GAME.md §8.4's JSON, each with the seat's ``view``
        (left out with ``views=False``, for a player that needs none)."""
        cdef list out = []
        cdef int j, s, k
        cdef dict p
        phase = PHASES[self.phase]
        for j in range(self.nasked):
            s = self.asked[j]
            if self.answer[s] >= 0:
                continue
            p = {"prompt": self.prompt_no, "seat": SEATS[s], "phase": phase}
            if self.w_tile >= 0 and (self.phase == CLAIM or self.phase == ROB):
                p["tile"] = CODES[self.w_tile]
                p["from"] = SEATS[self.w_from]
            p["actions"] = [self._action(s, k) for k in range(self.ncodes[s])]
            if views:
                p["view"] = self.view(SEATS[s])
            out.append(p)
        return out

    def _asked_seats(self):
        """The seats still to answer the open prompt, and how many actions each has."""
        cdef int j, s
        return [(self.asked[j], self.ncodes[self.asked[j]]) for j in range(self.nasked)
                if self.answer[self.asked[j]] < 0]

    # ------------------------------------------------------------- decisions

    def submit(self, decision):
        """One seat's answer to its open prompt; returns the records it added.

        ``decision`` is ``{"prompt": N, "seat": X, ...one listed action...}``,
        matched on ``act``, ``kind`` and ``tiles``/``tile``. A stale prompt, a
        seat not asked or an action not listed raises a TableError naming the
        field, and the table stays as it was."""
        s, k = self._match(decision)
        cdef Py_ssize_t before = len(self.log)
        self._step(s, k)
        return self.log[before:]

    def play_random(self, rng):
        """Play the hand to its end, every decision a uniformly random legal
        action drawn as ``actions[int(rng.random() * len(actions))]`` for the
        first seat still to answer (what the ``random`` policy does through
        ``prompts()``); returns the number of decisions."""
        cdef int n = 0, j, s = 0
        rand = rng.random
        while not self.over:
            for j in range(self.nasked):
                s = self.asked[j]
                if self.answer[s] < 0:
                    break
            self._step(s, <int>(<double>rand() * self.ncodes[s]))
            n += 1
        return n

    def _take(self, int s, int k):
        """Seat ``s`` takes action ``k`` of its open prompt (unchecked: ``submit`` checks)."""
        self._step(s, k)

    cdef _step(self, int s, int k):
        cdef int code, tile
        if self.phase == CLAIM or self.phase == ROB or self.phase == INSTANT:
            self.answer[s] = k
            self._try_resolve()
            return
        code = self.code[s][k]
        tile = self.atile[s][k]
        payload = self.payload[s][k] if code == WIN else None
        self._clear()
        if code == WIN:
            self._win([(s, payload[1])])
        elif code == DISCARD:
            self._discard(s, tile)
        elif code == CONCEALED:
            self._self_kong(s, tile, True)
        elif code == ADDED:
            self._self_kong(s, tile, False)
        else:  # SELF_PUNG (G9)
            self.counts[s][tile] -= 3
            self._meld(s, M_PUNG, tile, -1, False)
            self.declared = True
            self._emit({"event": "pung", "seat": SEATS[s], "tiles": PUNG_TEXT[tile]})
            self._discard_prompt(s, -1, -1)

    def _match(self, decision):
        if type(decision) is not dict and not isinstance(decision, Mapping):
            raise TableError(f"decision: a JSON object, not {shown(decision)}", "decision", decision)
        if self.over:
            raise TableError("prompt: the hand is over; nothing is asked", "prompt", decision.get("prompt"))
        n = decision.get("prompt")
        if type(n) is not int or n != self.prompt_no:
            raise TableError(f"prompt = {shown(n)}: not the open prompt ({self.prompt_no})", "prompt", n)
        seat = decision.get("seat")
        cdef int s = SEATS.index(seat) if isinstance(seat, str) and seat in SEATS else -1
        cdef int j
        cdef bint found = False
        for j in range(self.nasked):
            if self.asked[j] == s:
                found = True
        if not found or self.answer[s] >= 0:
            asked = ", ".join(SEATS[self.asked[j]] for j in range(self.nasked) if self.answer[self.asked[j]] < 0)
            raise TableError(f"seat = {shown(seat)}: not asked in prompt {n} (asked: {asked})", "seat", seat)
        act = decision.get("act")
        # the common answers first, without building the actions
        cdef int k, code
        if act == "discard" and self.phase <= DISCARD_ONLY:
            tile = decision.get("tile")
            if decision.get("kind") is None and decision.get("tiles") is None:
                for k in range(self.ncodes[s]):
                    if self.code[s][k] == DISCARD and CODES[self.atile[s][k]] == tile:
                        return s, k
        elif act == "pass" and self.phase >= CLAIM and self.code[s][0] == PASS:
            if decision.get("kind") is None and decision.get("tiles") is None and decision.get("tile") is None:
                return s, 0
        actions = [self._action(s, k) for k in range(self.ncodes[s])]
        same = [k for k, a in enumerate(actions) if a["act"] == act]
        if not same:
            raise TableError(f"act = {shown(act)}: not legal for {seat} (legal: {legal_text(actions)})", "act", act)
        for name in ("kind", "tiles", "tile"):
            wanted = [k for k in same if actions[k].get(name) == decision.get(name)]
            if not wanted:
                value = decision.get(name)
                if name == "tile" and act == "discard":
                    held = value in _CODES[:_BONUS] and self.counts[s][_CODES.index(value)] > 0
                    raise TableError(discard_refused(_SEATS[s], value, held, actions), name, value)
                raise TableError(f"{name} = {shown(value)}: {act} not legal for {seat} with it (legal: "
                                 f"{legal_text(actions)})", name, value)
            same = wanted
        return s, same[0]

    # ------------------------------------------------------------------ turns

    def _after_deal(self):
        cdef int s
        cdef bint any_ = False
        for s in range(1, 4):
            if self.instant_due[s]:
                self.instant_due[s] = False
                found = self._instant_win(s)
                if found is not None:
                    self._ask(s)
                    self._put(s, PASS, -1)
                    self._add(s, WIN, -1, found)
                    any_ = True
        if any_:
            self.w_tile = -1
            self.w_after = AFTER_DEAL
            self._open(INSTANT)
            return
        self._e_turn()

    cdef _e_turn(self):
        self.turn = 0
        self.drawn = self.last_dealt if self.last_dealt >= 0 else self._g15_tile()
        self.by_kong = False
        self.kongs = 0
        self._turn_prompt()

    cdef _draw(self, int s):
        cdef int t
        if self._live() <= 0:
            self._exhausted()
            return
        t = self.wall[self.front]
        self.front += 1
        self.draws[s] += 1
        if not self.quiet:  # (the record is not even copied)
            self._rec((<dict>DRAW_RECORD[(s * 42 + t) * 2]).copy(), DRAW_TEXT[(s * 42 + t) * 2])
        self.kongs = 0
        self.by_kong = False
        self._take_in(s, t)

    cdef _replace_kong(self, int s):
        cdef int t = self._take_replacement()
        if t < 0:
            self._g4(s)
            return
        if not self.quiet:
            self._rec((<dict>DRAW_RECORD[(s * 42 + t) * 2 + 1]).copy(), DRAW_TEXT[(s * 42 + t) * 2 + 1])
        self.by_kong = True
        self._take_in(s, t)

    cdef _take_in(self, int s, int t):
        """The tile ``s`` drew (bonus tiles set aside and replaced) goes into its hand; then its turn."""
        self.turn = s
        t = self._set_aside(s, t)
        if t < 0:
            self._g4(s)
            return
        self.counts[s][t] += 1
        self.drawn = t
        self._turn_prompt()

    cdef _g4(self, int s):
        if self.instant_due[s]:
            self.instant_due[s] = False
            found = self._instant_win(s)
            if found is not None:
                self._ask(s)
                self._put(s, PASS, -1)
                self._add(s, WIN, -1, found)
                self.w_tile = -1
                self.w_after = AFTER_G4
                self._open(INSTANT)
                return
        self._exhausted()

    cdef _turn_prompt(self):
        cdef int s = self.turn
        cdef int i, c
        cdef int drawn = self.drawn
        self._ask(s)
        if drawn >= 0 and (self.r_extra or self.instant_due[s] or self._complete(s, self.counts[s])):
            key = None
            if self._no_wins is not None and not self.r_extra and not self.instant_due[s]:
                # what _self_win reads beside the hand: first turn, last tile, kong replacement
                key = self._win_key(s, drawn, 1, self.declared, self.e_first, self.draws[s] == 1,
                                    self.by_kong, (self._live() <= 0) + 2 * (self.kongs if self.kongs < 2 else 2))
                win = None if key in self._no_wins else self._self_win(s)
            else:
                win = self._self_win(s)
            if win is not None:
                self._add(s, WIN, -1, win)
            elif key is not None:
                self._no_win(key)
        if self._live() > 0 and (self.r_concealed or self.r_added):
            for i in range(34):
                c = self.counts[s][i]
                if not c or (self.r_drawn_only and i != drawn):
                    continue
                if c == 4 and self.r_concealed:
                    self._put(s, CONCEALED, i)
                elif self.r_added and self._has_pung(s, i):
                    self._put(s, ADDED, i)
        if (self.r_self_pung and drawn >= 0 and self.counts[s][drawn] >= 3 and not (s == 0 and self.e_first)
                and self.nmeld[s] < 4):
            self._put(s, SELF_PUNG, drawn)
        for i in range(34):
            if self.counts[s][i]:
                self._put(s, DISCARD, i)
        self.instant_due[s] = False
        self._open(TURN)

    cdef bytes _win_key(self, int s, int tile, int a, int b, int c, int d, int e, int f):
        """A key of everything a win of ``s``'s hand with ``tile`` scores on
        (its tiles, sets and bonus tiles, the round) and the flags ``a``..``f``
        the caller's hook reads (for ``no_wins``)."""
        cdef char buf[96]
        cdef int i, j, n = 0
        buf[0] = <char>self.win_tag; buf[1] = <char>s; buf[2] = <char>tile
        buf[3] = <char>a; buf[4] = <char>b; buf[5] = <char>c; buf[6] = <char>d; buf[7] = <char>e; buf[8] = <char>f
        n = 9
        for i in range(34):
            buf[n + i] = <char>self.counts[s][i]
        n += 34
        buf[n] = <char>self.nmeld[s]
        n += 1
        for j in range(self.nmeld[s]):
            buf[n] = <char>self.mkind[s][j]
            buf[n + 1] = <char>self.mlow[s][j]
            buf[n + 2] = <char>self.msrc[s][j]
            buf[n + 3] = <char>self.mconc[s][j]
            n += 4
        buf[n] = <char>self.nbonus[s]
        n += 1
        for j in range(self.nbonus[s]):
            buf[n] = <char>self.bonus[s][j]
            n += 1
        return PyBytes_FromStringAndSize(buf, n)

    cdef void _no_win(self, bytes key) except *:
        cdef set known = self._no_wins
        if len(known) >= NO_WINS:
            known.clear()
        known.add(key)

    cdef bint _has_pung(self, int s, int i) noexcept:
        cdef int j
        for j in range(self.nmeld[s]):
            if self.mkind[s][j] == M_PUNG and self.mlow[s][j] == i:
                return True
        return False

    cdef void _meld(self, int s, int kind, int low, int src, bint concealed) noexcept:
        cdef int j = self.nmeld[s]
        self.mkind[s][j] = kind
        self.mlow[s][j] = low
        self.msrc[s][j] = src
        self.mconc[s][j] = concealed
        self.nmeld[s] = j + 1

    cdef _discard_prompt(self, int s, int f0, int f1):
        cdef int i
        self._ask(s)
        for i in range(34):
            if self.counts[s][i] and i != f0 and i != f1:
                self._put(s, DISCARD, i)
        self.turn = s
        self.drawn = -1
        self._open(DISCARD_ONLY)

    cdef _discard(self, int s, int i):
        cdef int o, n, held, low, number, base, beyond, f1, j, start
        cdef bint last, sets_ok, first, asked_any = False
        self.counts[s][i] -= 1
        self.pond[s][self.npond[s]] = i
        self.npond[s] += 1
        if s == 0:
            self.e_first = False
        self.discards += 1
        self.drawn = -1
        if not self.quiet:
            self._rec((<dict>DISCARD_RECORD[s * 42 + i]).copy(), DISCARD_TEXT[s * 42 + i])
        last = self._live() <= 0
        sets_ok = not last or self.r_last_any
        first = self.discards == 1 and s == 0 and not self.declared
        o = s
        for _ in range(3):
            o = NEXT[o]
            self._put(o, PASS, -1)
            if self._could_win(o, i):
                if self._no_wins is not None:
                    key = self._win_key(o, i, 0, s, last, first, 0, 0)
                    win = None if key in self._no_wins else self._discard_win(o, i, s, last, first)
                    if win is None:
                        self._no_win(key)
                else:
                    win = self._discard_win(o, i, s, last, first)
                if win is not None:
                    self._add(o, WIN, i, win)
            if sets_ok and self.nmeld[o] < 4:
                held = self.counts[o][i]
                if held >= 3 and self.back > self.front:  # a kong needs a replacement
                    self._put(o, EXPOSED, i)
                if held >= 2:
                    if not self.r_swap or self._can_discard_after(o, i, i, i, -1):  # G10
                        self._add(o, PUNG, i, None, i if self.r_swap else -1, -1)
                if i < 27 and o == NEXT[s]:
                    number = i % 9
                    base = i - number
                    start = number - 2 if number >= 2 else 0
                    for low in range(start, (number if number < 6 else 6) + 1):
                        if not self._run_held(o, base + low, i):
                            continue
                        f1 = -1
                        if self.r_swap:
                            beyond = low + 3 if number == low else (low - 1 if number == low + 2 else -1)
                            if 0 <= beyond <= 8:
                                f1 = base + beyond
                            if not self._held_ok(o, base + low, i, f1):
                                continue  # G10
                        self._add(o, CHOW, base + low, None, i if self.r_swap else -1, f1)
            if self.ncodes[o] > 1:
                self._ask(o)
                asked_any = True
            else:
                self.ncodes[o] = 0
                if _filled(<list> self.payload[o]):
                    self.payload[o] = []
        if asked_any:
            self.w_tile = i
            self.w_from = s
            self._open(CLAIM)
            return
        self._draw(NEXT[s])

    cdef bint _held_ok(self, int o, int low, int tile, int f1) noexcept:
        """G10 for a chow from ``low`` on ``tile``."""
        cdef int a = -1, b = -1, j
        for j in range(low, low + 3):
            if j != tile:
                if a < 0:
                    a = j
                else:
                    b = j
        return self._can_discard_after(o, a, b, tile, f1)

    cdef bint _run_held(self, int o, int low, int tile) noexcept:
        cdef int j
        for j in range(low, low + 3):
            if j != tile and self.counts[o][j] < 1:
                return False
        return True

    cdef bint _can_discard_after(self, int o, int a, int b, int f0, int f1) noexcept:
        """G10: after a claim that takes ``a`` and ``b`` from ``o``'s hand,
        some concealed tile is neither ``f0`` nor ``f1``."""
        cdef int j, n
        for j in range(34):
            n = self.counts[o][j] - (j == a) - (j == b)
            if n > 0 and j != f0 and j != f1:
                return True
        return False

    cdef bint _could_win(self, int o, int i) noexcept:
        cdef bint found
        if self.r_extra:
            return True
        self.counts[o][i] += 1
        found = self._complete(o, self.counts[o])
        self.counts[o][i] -= 1
        return found

    cdef bint _complete(self, int s, const int *c) noexcept:
        if standard_shape(c):
            return True
        if self.nmeld[s]:
            return False
        return (self.r_orphans and orphans_shape(c)) or (self.r_pairs and pairs_shape(c, self.r_pairs))

    cdef _self_kong(self, int s, int i, bint concealed):
        cdef int o, j
        cdef bint any_ = False
        self.declared = True
        self.e_first = False
        self.kongs += 1
        if concealed:
            self.counts[s][i] -= 4
            self._meld(s, M_KONG, i, -1, True)
            self._rec({"event": "kong", "seat": SEATS[s], "kind": "concealed", "tiles": KONG_TEXT[i]},
                      KONG_LINE[s * 68 + i])
        else:
            self.counts[s][i] -= 1
            for j in range(self.nmeld[s]):
                if self.mkind[s][j] == M_PUNG and self.mlow[s][j] == i:
                    self.mkind[s][j] = M_KONG
            self._rec({"event": "kong", "seat": SEATS[s], "kind": "added", "tiles": KONG_TEXT[i]},
                      KONG_LINE[s * 68 + 34 + i])
        if self.r_rob == 0 or (concealed and self.r_rob != 2):
            self._replace_kong(s)
            return
        o = s
        for _ in range(3):
            o = NEXT[o]
            if self._could_win(o, i):
                win = self._rob_win(o, i, s, concealed)
                if win is not None:
                    self._ask(o)
                    self._put(o, PASS, -1)
                    self._add(o, WIN, i, win)
                    any_ = True
        if any_:
            self.w_tile = i
            self.w_from = s
            self.w_concealed = concealed
            self._open(ROB)
            return
        self._replace_kong(s)

    # -------------------------------------------------------------- windows

    cdef _try_resolve(self):
        cdef int frm = self.w_from if self.phase != INSTANT else 0
        cdef int best_rank = 9, best_dist = 9, best = -1
        cdef int j, s, k, rank, dist, code, tile, low, f0, f1, phase
        for j in range(self.nasked):
            s = self.asked[j]
            k = self.answer[s]
            if k <= 0:
                continue
            rank = RANK[self.code[s][k]]
            dist = (s - frm + 4) % 4
            if rank < best_rank or (rank == best_rank and dist < best_dist):
                best_rank, best_dist, best = rank, dist, s
        for j in range(self.nasked):
            s = self.asked[j]
            if self.answer[s] >= 0:
                continue
            if best < 0:
                return
            dist = (s - frm + 4) % 4
            for k in range(self.ncodes[s]):
                code = self.code[s][k]
                if code == PASS:
                    continue
                rank = RANK[code]
                if rank < best_rank or (rank == best_rank and dist < best_dist):
                    return
                if self.r_many and rank == 0 and best_rank == 0:
                    return
        phase = self.phase
        if best < 0:  # everyone passed
            self._clear()
            if phase == CLAIM:
                self._draw(NEXT[frm])
            elif phase == ROB:
                self._replace_kong(frm)
            elif self.w_after == AFTER_DEAL:
                self._e_turn()
            else:
                self._exhausted()
            return
        k = self.answer[best]
        code = self.code[best][k]
        tile = self.w_tile
        if code == WIN:
            winners = [(best, self.payload[best][k][1])]
            if self.r_many:
                order = []
                for j in range(self.nasked):
                    s = self.asked[j]
                    if self.answer[s] > 0 and self.code[s][self.answer[s]] == WIN:
                        order.append(((s - frm + 4) % 4, s))
                order.sort()
                winners = [(x, self.payload[x][self.answer[x]][1]) for _, x in order]
            self._clear()
            if phase == ROB:
                self._unmake_kong(frm, tile, self.w_concealed)
            self._win(winners)
            return
        low = self.atile[best][k]
        f0 = self.forbid[best][k][0]
        f1 = self.forbid[best][k][1]
        self._clear()
        self.npond[frm] -= 1
        self.declared = True
        self.e_first = False
        if code == EXPOSED:
            self.counts[best][tile] -= 3
            self._meld(best, M_KONG, tile, frm, False)
            self._rec({"event": "kong", "seat": SEATS[best], "kind": "exposed", "tiles": KONG_TEXT[tile],
                       "from": SEATS[frm]}, EXPOSED_LINE[(best * 34 + tile) * 4 + frm])
            self.kongs = 1
            self._replace_kong(best)
            return
        if code == PUNG:
            self.counts[best][tile] -= 2
            self._meld(best, M_PUNG, tile, frm, False)
        else:
            for j in range(low, low + 3):
                if j != tile:
                    self.counts[best][j] -= 1
            self._meld(best, M_CHOW, low, frm, False)
        self._rec({"event": ACTS[code], "seat": SEATS[best], "tiles": _set_text(code, low), "from": SEATS[frm]},
                  SET_TEXT[((best * 2 + (code == CHOW)) * 34 + low) * 4 + frm])
        self.kongs = 0
        self._discard_prompt(best, f0, f1)

    cdef void _unmake_kong(self, int s, int i, bint concealed) noexcept:
        cdef int j
        if concealed:
            self.nmeld[s] -= 1
            self.counts[s][i] += 3
        else:
            for j in range(self.nmeld[s]):
                if self.mkind[s][j] == M_KONG and self.mlow[s][j] == i and not self.mconc[s][j]:
                    self.mkind[s][j] = M_PUNG
                    break


def shuffle(list tiles, rng):
    """``tiles`` shuffled in place by Fisher-Yates on ``rng.random()``, as
    ``hkcore.table.flow.wall.shuffle`` does; returns ``tiles``."""
    cdef Py_ssize_t i, j
    rand = rng.random
    for i in range(len(tiles) - 1, 0, -1):
        j = <Py_ssize_t>(<double>rand() * (i + 1))
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


cdef struct MT:  # Python's random.Random generator (MT19937), for seeded deals
    unsigned int mt[624]
    int i


cdef unsigned int MT_START[624]  # init_genrand(19650218), where every init_by_array begins (set once, at import)


cdef void _mt_start() noexcept:
    cdef int k
    MT_START[0] = 19650218u
    for k in range(1, 624):
        MT_START[k] = 1812433253u * (MT_START[k - 1] ^ (MT_START[k - 1] >> 30)) + <unsigned int> k


_mt_start()


cdef void _mt_seed(MT *g, unsigned long long seed) noexcept:
    """``random.Random(seed)``'s state for ``0 <= seed < 2**64`` (CPython's ``init_by_array`` over the seed's
    32-bit words, low first)."""
    cdef unsigned int key[2]
    cdef int n = 2 if seed >> 32 else 1, i = 1, j = 0, k
    cdef unsigned int *mt = g.mt
    key[0] = <unsigned int> (seed & 0xffffffffu)
    key[1] = <unsigned int> (seed >> 32)
    memcpy(mt, MT_START, sizeof(MT_START))
    for k in range(624, 0, -1):
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + <unsigned int> j
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= n:
            j = 0
    for k in range(623, 0, -1):
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - <unsigned int> i
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
    mt[0] = 0x80000000u
    g.i = 624


cdef unsigned int _mt_next(MT *g) noexcept:
    cdef unsigned int y
    cdef unsigned int *mt = g.mt
    cdef int k
    if g.i >= 624:
        for k in range(227):
            y = (mt[k] & 0x80000000u) | (mt[k + 1] & 0x7fffffffu)
            mt[k] = mt[k + 397] ^ (y >> 1) ^ ((y & 1u) * 0x9908b0dfu)
        for k in range(227, 623):
            y = (mt[k] & 0x80000000u) | (mt[k + 1] & 0x7fffffffu)
            mt[k] = mt[k - 227] ^ (y >> 1) ^ ((y & 1u) * 0x9908b0dfu)
        y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu)
        mt[623] = mt[396] ^ (y >> 1) ^ ((y & 1u) * 0x9908b0dfu)
        g.i = 0
    y = mt[g.i]
    g.i += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680u
    y ^= (y << 15) & 0xefc60000u
    y ^= y >> 18
    return y


cdef inline double _mt_random(MT *g) noexcept:
    """``random.random()``: 53 bits from two draws."""
    cdef unsigned int a = _mt_next(g) >> 5, b = _mt_next(g) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


def seeded_shuffle(list tiles, seed):
    """``shuffle(tiles, random.Random(seed))``, the shuffle of a seeded deal, without Python's generator for a
    seed below 2**64 (``hkcore.table.flow.wall.seeded_shuffle``); returns ``tiles``."""
    cdef MT g
    cdef Py_ssize_t i, j, n = len(tiles)
    cdef int c[160]
    cdef int t
    if type(seed) is not int or seed < 0:
        raise TableError(f"seed = {shown(seed)}: a whole number, 0 or more", "seed", seed)
    if seed >= 2 ** 64 or n > 160:
        return shuffle(tiles, _random.Random(seed))
    _mt_seed(&g, <unsigned long long> seed)
    for i in range(n):
        c[i] = tiles[i]
    for i in range(n - 1, 0, -1):
        j = <Py_ssize_t> (_mt_random(&g) * (i + 1))
        t = c[i]
        c[i] = c[j]
        c[j] = t
    for i in range(n):
        tiles[i] = c[i]
    return tiles


cdef dict _DRAW_LINES = {s: {t: {src: f'{{"event":"draw","seat":"{s}","tile":"{t}","source":"{src}"}}'
                                 for src in ("live", "replacement")} for t in CODES} for s in SEATS}
cdef dict _DISCARD_LINES = {s: {t: f'{{"event":"discard","seat":"{s}","tile":"{t}"}}' for t in CODES}
                            for s in SEATS}
cdef dict _BONUS_LINES = {s: {t: {r: f'{{"event":"bonus","seat":"{s}","tile":"{t}","replacement":'
                                     + ("null" if r is None else f'"{r}"') + "}"
                                  for r in (*CODES, None)} for t in CODES[34:]} for s in SEATS}
cdef tuple _BONUS_KEYS = ("event", "seat", "tile", "replacement")
cdef tuple _DRAW_KEYS = ("event", "seat", "tile", "source")
cdef tuple _DISCARD_KEYS = ("event", "seat", "tile")


def common_line(record):
    """The JSON line of a draw or discard record as the engine writes it, or
    None for any other record (``hkcore.table.records.line`` writes those)."""
    return _common_line(record)


def canonical(tiles):
    """Tile indices 0..41 in canonical notation (as ``hkcore.table.flow.wall.canonical``)."""
    cdef int buf[42]
    cdef int n = 0
    for i in tiles:
        buf[n] = i
        n += 1
        if n == 42:
            return _canon_py(tiles)
    return _canon_list(buf, n)


cdef str _canon_py(tiles):
    return _wall_canonical(tiles)


def lines(list records, dumps, list texts=None):
    """The records as JSON lines, each ended by a newline: the commonest
    looked up (or taken from ``texts``, the lines the engine made beside its
    log, None where it made none), the rest by ``dumps``."""
    cdef list out = []
    cdef Py_ssize_t i
    for i in range(len(records)):
        text = texts[i] if texts is not None else None
        if text is None:
            text = _common_line(records[i])
            if text is None:
                text = dumps(records[i])
        out.append(text)
        out.append("\n")
    return "".join(out)


cdef object _common_line(object record):
    cdef Py_ssize_t n
    cdef dict by_seat
    if type(record) is not dict:
        return None
    n = len(<dict>record)
    ev = (<dict>record).get("event")
    seat = (<dict>record).get("seat")
    tile = (<dict>record).get("tile")
    if type(seat) is not str or type(tile) is not str:
        return None
    if n == 4 and ev == "bonus":
        by_seat = _BONUS_LINES.get(seat)
        if by_seat is None:
            return None
        by_tile = by_seat.get(tile)
        if by_tile is None:
            return None
        r = (<dict>record).get("replacement")
        if r is not None and type(r) is not str:
            return None
        text = by_tile.get(r)
        if text is not None and tuple(record) == _BONUS_KEYS:
            return text
        return None
    if n == 4 and ev == "draw":
        source = (<dict>record).get("source")
        if type(source) is not str:
            return None
        by_seat = _DRAW_LINES.get(seat)
        if by_seat is None:
            return None
        by_tile = by_seat.get(tile)
        if by_tile is None:
            return None
        text = by_tile.get(source)
        if text is not None and tuple(record) == _DRAW_KEYS:
            return text
    elif n == 3 and ev == "discard":
        by_seat = _DISCARD_LINES.get(seat)
        if by_seat is None:
            return None
        text = by_seat.get(tile)
        if text is not None and tuple(record) == _DISCARD_KEYS:
            return text
    return None


def deal(shuffled):
    """The four hands dealt from the front of ``shuffled`` and the wall, as
    ``hkcore.table.flow.wall.deal`` deals them."""
    cdef list src = list(shuffled)
    cdef list hands = [src[0:4] + src[16:20] + src[32:36] + [src[48], src[52]],
                       src[4:8] + src[20:24] + src[36:40] + [src[49]],
                       src[8:12] + src[24:28] + src[40:44] + [src[50]],
                       src[12:16] + src[28:32] + src[44:48] + [src[51]]]
    return hands, src[53:]


def codes(tiles):
    """Tiles written one code each, in the order given (as ``hkcore.table.flow.wall.codes``)."""
    cdef char buf[320]
    cdef Py_ssize_t n = 0
    cdef long t
    for i in tiles:
        if type(i) is not int or n > 316:
            return "".join([CODES[j] for j in tiles])
        t = i
        if t < 0 or t >= 42:
            return "".join([CODES[j] for j in tiles])
        buf[n] = _DIGIT_CH[t]
        buf[n + 1] = _SUIT_CH[t]
        n += 2
    return buf[:n].decode("ascii")
