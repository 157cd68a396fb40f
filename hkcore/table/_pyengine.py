"""The flow of one hand as plain data: the pure-Python engine.

The wall, the hands, the turn, the claim windows and their resolution,
kongs and bonus replacements: everything a decision touches, on tile
indices and small integer codes. It is the reference for the compiled
engine (``hkcore.table._cengine``), which mirrors it line for line; tests
hold the two equal. What a win is worth, the settlement and a seat's view
are asked of the subclass (``hkcore.table.table.Table``) through the
hooks ``_self_win``, ``_discard_win``, ``_rob_win``, ``_instant_win``,
``_win`` and ``_exhausted``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hkcore import core
from hkcore.claims import leaves_a_discard, set_claims
from hkcore.errors import TableError, shown
from hkcore.table.wall import BONUS, CODES, SEATS, canonical, legal_text

IMPLEMENTATION = "python"

# action codes, in the order a prompt lists them where it matters
PASS, WIN, CONCEALED, ADDED, EXPOSED, PUNG, CHOW, DISCARD, SELF_PUNG = range(9)
#: phases
TURN, DISCARD_ONLY, CLAIM, ROB, INSTANT, OVER, DEAL = range(7)
PHASES = ("turn", "discard", "claim", "rob", "instant", "over", "deal")
#: what an instant window follows
AFTER_DEAL, AFTER_G4 = 1, 2
ACTS = ("pass", "win", "kong", "kong", "kong", "pung", "chow", "discard", "pung")
KINDS = (None, None, "concealed", "added", "exposed", None, None, None, None)
_NEXT = (1, 2, 3, 0)
#: kind codes of declared sets
M_CHOW, M_PUNG, M_KONG = 0, 1, 2
_MELD_KIND = ("chow", "pung", "kong")
#: claim ranks (priority): a win, then a pung or kong, then a chow
_RANK = {WIN: 0, EXPOSED: 1, PUNG: 1, CHOW: 2}


def _set_text(code: int, low: int) -> str:
    if code == CHOW:
        return canonical((low, low + 1, low + 2))
    n = 4 if code in (CONCEALED, ADDED, EXPOSED) else 3
    return CODES[low][0] * n + CODES[low][1]


class Engine:
    """The state of a hand in play and every step of its flow."""

    #: the records of the hand so far (the subclass begins it with the start record)
    log: list[dict[str, Any]]

    def _setup(self, hands: list[list[int]], wall: list[int], reserve: int, rules: tuple[int, ...]) -> None:
        """``rules``: concealed_kong, added_kong, kong_tile drawn, self_pung,
        last_discard any, swap_rule, robbing (0 none, 1 added, 2 and
        concealed orphans), multiple_winners, has_instant, thirteen orphans,
        extra shapes."""
        (self._r_concealed, self._r_added, self._r_drawn_only, self._r_self_pung, self._r_last_any, self._r_swap,
         self._r_rob, self._r_many, self._r_instant, self._r_orphans, self._r_extra, self._r_front) = rules
        #: beside each record of the log, its JSON line where the engine made one (here: none of its own)
        if getattr(self, "texts", None) is None or len(self.texts) != len(self.log):
            self.texts: list[str | None] = [None] * len(self.log)
        self.counts = [[0] * 34 for _ in range(4)]
        self.melds: list[list[list[int]]] = [[], [], [], []]  # [kind, low, source (-1), concealed]
        self.bonus: list[list[int]] = [[], [], [], []]
        self.ponds: list[list[int]] = [[], [], [], []]
        self.wall = list(wall)
        self.front = 0
        self.back = len(self.wall)
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
        self.draws = [0, 0, 0, 0]
        self.discards = 0
        self.instant_due = [False] * 4
        self.last_dealt = -1
        self.over = False
        # the open prompt: per seat asked, its actions as (code, tile) and, for a win, its payload
        self.asked: list[int] = []
        self.codes: list[list[int]] = [[], [], [], []]
        self.tiles: list[list[int]] = [[], [], [], []]
        self.payload: list[list[Any]] = [[], [], [], []]
        self.forbid: list[list[tuple[int, ...]]] = [[], [], [], []]
        self.answer = [-1, -1, -1, -1]
        self.w_tile = -1
        self.w_from = -1
        self.w_after = 0
        self.w_concealed = False
        for s in range(4):
            for i in hands[s]:
                if i >= BONUS:
                    self.bonus[s].append(i)
                else:
                    self.counts[s][i] += 1

    # ------------------------------------------------------------ accessors

    def live_left(self) -> int:
        """Tiles live draws may still take."""
        return max(0, self.back - self.front - max(0, self.reserve - self.from_back))

    def wall_left(self) -> int:
        """Tiles left in the wall, the dead wall's included."""
        return self.back - self.front

    def melds_json(self, s: int, hide: bool = False) -> list[dict[str, Any]]:
        """``s``'s declared sets as hand JSON (a concealed kong's tiles null with ``hide``)."""
        out = []
        for kind, low, source, concealed in self.melds[s]:
            tiles = (low, low + 1, low + 2) if kind == M_CHOW else (low,) * (4 if kind == M_KONG else 3)
            m: dict[str, Any] = {"kind": _MELD_KIND[kind], "tiles": None if hide and concealed else canonical(tiles)}
            if concealed:
                m["concealed"] = True
            elif source >= 0:
                m["from"] = SEATS[source]
            out.append(m)
        return out

    def seen(self, s: int, hide: bool) -> tuple[Any, ...]:
        """What seat ``s`` sees of the hand: its concealed tiles less the tile
        just drawn, that tile (or None), then by seat the declared sets (a
        concealed kong's tiles null with ``hide``, but for ``s``'s own), the
        bonus tiles, the ponds and how many tiles each holds."""
        counts = list(self.counts[s])
        drawn = self.drawn if (s == self.turn and self.phase == TURN and self.drawn >= 0
                               and not (s == 0 and self.e_first)) else -1
        if drawn >= 0:
            counts[drawn] -= 1
        return (canonical([i for i in range(34) for _ in range(counts[i])]), None if drawn < 0 else CODES[drawn],
                {SEATS[o]: self.melds_json(o, hide and o != s) for o in range(4)},
                {SEATS[o]: canonical(self.bonus[o]) for o in range(4)},
                {SEATS[o]: "".join(CODES[i] for i in self.ponds[o]) for o in range(4)},
                {SEATS[o]: sum(self.counts[o]) for o in range(4)})

    def counts_of(self, s: int) -> list[int]:
        """A copy of ``s``'s 34 counts of concealed tiles."""
        return list(self.counts[s])

    def bonus_of(self, s: int) -> list[int]:
        """The bonus tiles ``s`` has set aside, in order."""
        return list(self.bonus[s])

    def pond_of(self, s: int) -> list[int]:
        """``s``'s discards not claimed, in order."""
        return list(self.ponds[s])

    def draws_of(self, s: int) -> int:
        """How many live draws ``s`` has made."""
        return self.draws[s]

    def instant_is_due(self, s: int) -> bool:
        """Whether an instant bonus win is to be offered at ``s``'s next decision."""
        return self.instant_due[s]

    def winning_shape(self, s: int, counts: list[int]) -> bool:
        """Whether ``counts`` (with ``s``'s sets) is a winning shape; always
        True under a preset with shapes the core does not know (the scorer decides)."""
        return True if self._r_extra else self._complete(s, counts)

    def give(self, s: int, tile: int, pond: int) -> None:
        """The winning tile goes to ``s``: out of ``pond``'s pond (-1: not from a pond)."""
        self.counts[s][tile] += 1
        if pond >= 0:
            self.ponds[pond].pop()

    def finish(self) -> None:
        """The hand is over: nothing more is asked."""
        self._clear()
        self.over = True
        self.phase = OVER

    def engine_state(self) -> tuple[Any, ...]:
        """Every value of the engine, for a copy or a pickle."""
        return tuple(getattr(self, name) for name in _STATE)

    def load_engine_state(self, state: tuple[Any, ...]) -> None:
        import copy
        for name, value in zip(_STATE, copy.deepcopy(state)):
            setattr(self, name, value)

    # -------------------------------------------------------------- the wall

    def _take_replacement(self) -> int:
        if self.back <= self.front:
            return -1
        if self._r_front:
            t = self.wall[self.front]
            self.front += 1
        else:
            self.back -= 1
            self.from_back += 1
            t = self.wall[self.back]
        return t

    def _bonus_out(self, s: int, b: int) -> int:
        """``s`` sets the bonus tile ``b`` aside and draws its replacement (-1: none, G4)."""
        self.bonus[s].append(b)
        r = self._take_replacement()
        self._emit({"event": "bonus", "seat": SEATS[s], "tile": CODES[b],
                    "replacement": None if r < 0 else CODES[r]})
        n = len(self.bonus[s])
        if self._r_instant and (n == 7 or n == 8):
            self.instant_due[s] = True
        return r

    def _set_aside(self, s: int, t: int) -> int:
        """Bonus tiles set aside and replaced while the tile drawn is one: the
        hand tile finally drawn, or -1 when the wall is empty (G4)."""
        while t >= BONUS:
            t = self._bonus_out(s, t)
        return t

    def _deal_bonus(self) -> bool:
        """G7: bonus tiles dealt are replaced seat by seat, E first; a seat sets
        aside its lowest and draws a replacement until it holds none. False
        when the wall ran out (the hand is then over)."""
        for s in range(4):
            held = self.bonus[s]
            self.bonus[s] = []
            while held:
                b = min(held)
                held.remove(b)
                r = self._bonus_out(s, b)
                if r < 0:
                    self.bonus[s].extend(held)  # G4: no tile can restore the hand
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

    def _open(self, phase: int) -> None:
        self.prompt_no += 1
        self.phase = phase
        self.answer = [-1, -1, -1, -1]

    def _clear(self) -> None:
        for s in self.asked:
            self.codes[s] = []
            self.tiles[s] = []
            self.payload[s] = []
            self.forbid[s] = []
        self.asked = []

    def _add(self, s: int, code: int, tile: int, payload: Any = None, forbid: tuple[int, ...] = ()) -> None:
        self.codes[s].append(code)
        self.tiles[s].append(tile)
        self.payload[s].append(payload)
        self.forbid[s].append(forbid)

    def action(self, s: int, k: int) -> dict[str, Any]:
        """Action ``k`` of seat ``s``'s open prompt, as JSON."""
        code = self.codes[s][k]
        if code == WIN:
            return dict(self.payload[s][k][0])
        if code == PASS:
            return {"act": "pass"}
        if code == DISCARD:
            return {"act": "discard", "tile": CODES[self.tiles[s][k]]}
        out: dict[str, Any] = {"act": ACTS[code]}
        if KINDS[code] is not None:
            out["kind"] = KINDS[code]
        out["tiles"] = _set_text(code, self.tiles[s][k])
        return out

    def prompts(self, views: bool = True) -> list[dict[str, Any]]:
        """The prompts open now, one per seat still to answer (``[]`` once the
        hand is over): GAME.md §8.4's JSON, each with the seat's ``view``
        (left out with ``views=False``, for a player that needs none)."""
        out = []
        phase = PHASES[self.phase]
        for s in self.asked:
            if self.answer[s] >= 0:
                continue
            p: dict[str, Any] = {"prompt": self.prompt_no, "seat": SEATS[s], "phase": phase}
            if self.w_tile >= 0 and self.phase in (CLAIM, ROB):
                p["tile"] = CODES[self.w_tile]
                p["from"] = SEATS[self.w_from]
            p["actions"] = [self.action(s, k) for k in range(len(self.codes[s]))]
            if views:
                p["view"] = self.view(SEATS[s])
            out.append(p)
        return out

    def view(self, seat: str) -> dict[str, Any]:  # pragma: no cover - the subclass says what a seat sees
        raise NotImplementedError

    # ------------------------------------------------------------- decisions

    def submit(self, decision: Any) -> list[dict[str, Any]]:
        """One seat's answer to its open prompt; returns the records it added.

        ``decision`` is ``{"prompt": N, "seat": X, ...one listed action...}``,
        matched on ``act``, ``kind`` and ``tiles``/``tile``. A stale prompt, a
        seat not asked or an action not listed raises a TableError naming the
        field, and the table stays as it was."""
        s, k = self._match(decision)
        before = len(self.log)
        self.step(s, k)
        return self.log[before:]

    def play_random(self, rng: Any) -> int:
        """Play the hand to its end, every decision a uniformly random legal
        action drawn as ``actions[int(rng.random() * len(actions))]`` for the
        first seat still to answer (what the ``random`` policy does through
        ``prompts()``); returns the number of decisions."""
        n = 0
        while not self.over:
            for s in self.asked:
                if self.answer[s] < 0:
                    break
            self.step(s, int(rng.random() * len(self.codes[s])))
            n += 1
        return n

    def step(self, s: int, k: int) -> None:
        """Seat ``s`` takes action ``k`` of its open prompt (unchecked: ``submit`` checks)."""
        if self.phase in (CLAIM, ROB, INSTANT):
            self.answer[s] = k
            self._try_resolve()
            return
        code = self.codes[s][k]
        tile = self.tiles[s][k]
        payload = self.payload[s][k]
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
            self.melds[s].append([M_PUNG, tile, -1, False])
            self.declared = True
            self._emit({"event": "pung", "seat": SEATS[s], "tiles": _set_text(PUNG, tile)})
            self._discard_prompt(s, ())

    def _match(self, decision: Any) -> tuple[int, int]:
        if not isinstance(decision, Mapping):
            raise TableError(f"decision: a JSON object, not {shown(decision)}", "decision", decision)
        if self.over:
            raise TableError("prompt: the hand is over; nothing is asked", "prompt", decision.get("prompt"))
        n = decision.get("prompt")
        if type(n) is not int or n != self.prompt_no:
            raise TableError(f"prompt = {shown(n)}: not the open prompt ({self.prompt_no})", "prompt", n)
        seat = decision.get("seat")
        s = SEATS.index(seat) if isinstance(seat, str) and seat in SEATS else -1
        if s not in self.asked or self.answer[s] >= 0:
            asked = ", ".join(SEATS[x] for x in self.asked if self.answer[x] < 0)
            raise TableError(f"seat = {shown(seat)}: not asked in prompt {n} (asked: {asked})", "seat", seat)
        act = decision.get("act")
        actions = [self.action(s, k) for k in range(len(self.codes[s]))]
        same = [k for k, a in enumerate(actions) if a["act"] == act]
        if not same:
            raise TableError(f"act = {shown(act)}: not legal for {seat} (legal: {legal_text(actions)})", "act", act)
        for name in ("kind", "tiles", "tile"):
            wanted = [k for k in same if actions[k].get(name) == decision.get(name)]
            if not wanted:
                value = decision.get(name)
                raise TableError(f"{name} = {shown(value)}: {act} not legal for {seat} with it (legal: "
                                 f"{legal_text(actions)})", name, value)
            same = wanted
        return s, same[0]

    # ------------------------------------------------------------------ turns

    def _after_deal(self) -> None:
        """After the deal: the instant-win prompt of non-dealers holding seven
        or eight bonus tiles (G13), then E's first turn."""
        asked = []
        for s in (1, 2, 3):
            if self.instant_due[s]:
                self.instant_due[s] = False
                found = self._instant_win(s)
                if found is not None:
                    asked.append(s)
                    self._add(s, PASS, -1)
                    self._add(s, WIN, -1, found)
        if asked:
            self.asked = asked
            self.w_tile = -1
            self.w_after = AFTER_DEAL
            self._open(INSTANT)
            return
        self._e_turn()

    def _e_turn(self) -> None:
        self.turn = 0
        self.drawn = self.last_dealt if self.last_dealt >= 0 else self._g15_tile()
        self.by_kong = False
        self.kongs = 0
        self._turn_prompt()

    def _g15_tile(self) -> int:  # pragma: no cover - the subclass knows the record
        raise NotImplementedError

    def _draw(self, s: int) -> None:
        """A live draw by ``s``, then its turn; the exhaustive draw when the live wall is empty."""
        if self.live_left() <= 0:
            self._exhausted()
            return
        t = self.wall[self.front]
        self.front += 1
        self.draws[s] += 1
        self._emit({"event": "draw", "seat": SEATS[s], "tile": CODES[t], "source": "live"})
        self.kongs = 0
        self.by_kong = False
        self._take_in(s, t)

    def _replace_kong(self, s: int) -> None:
        """The replacement draw after a kong, then the same seat's turn."""
        t = self._take_replacement()
        if t < 0:
            self._g4(s)
            return
        self._emit({"event": "draw", "seat": SEATS[s], "tile": CODES[t], "source": "replacement"})
        self.by_kong = True
        self._take_in(s, t)

    def _take_in(self, s: int, t: int) -> None:
        """The tile ``s`` drew (bonus tiles set aside and replaced) goes into its hand; then its turn."""
        self.turn = s
        t = self._set_aside(s, t)
        if t < 0:
            self._g4(s)
            return
        self.counts[s][t] += 1
        self.drawn = t
        self._turn_prompt()

    def _g4(self, s: int) -> None:
        """No replacement can be drawn: an instant-win prompt if due, then the exhaustive draw."""
        if self.instant_due[s]:
            self.instant_due[s] = False
            found = self._instant_win(s)
            if found is not None:
                self.asked = [s]
                self._add(s, PASS, -1)
                self._add(s, WIN, -1, found)
                self.w_tile = -1
                self.w_after = AFTER_G4
                self._open(INSTANT)
                return
        self._exhausted()

    def _turn_prompt(self) -> None:
        s = self.turn
        counts = self.counts[s]
        self.asked = [s]
        drawn = self.drawn
        if drawn >= 0 and (self._r_extra or self.instant_due[s] or self._complete(s, counts)):
            win = self._self_win(s)
            if win is not None:
                self._add(s, WIN, -1, win)
        if self.live_left() > 0 and (self._r_concealed or self._r_added):
            for i in range(34):
                c = counts[i]
                if not c or (self._r_drawn_only and i != drawn):
                    continue
                if c == 4 and self._r_concealed:
                    self._add(s, CONCEALED, i)
                elif self._r_added and self._has_pung(s, i):
                    self._add(s, ADDED, i)
        if (self._r_self_pung and drawn >= 0 and counts[drawn] >= 3 and not (s == 0 and self.e_first)
                and len(self.melds[s]) < 4):
            self._add(s, SELF_PUNG, drawn)
        for i in range(34):
            if counts[i]:
                self._add(s, DISCARD, i)
        self.instant_due[s] = False
        self._open(TURN)

    def _has_pung(self, s: int, i: int) -> bool:
        for m in self.melds[s]:
            if m[0] == M_PUNG and m[1] == i:
                return True
        return False

    def _discard_prompt(self, s: int, forbidden: tuple[int, ...]) -> None:
        counts = self.counts[s]
        self.asked = [s]
        for i in range(34):
            if counts[i] and i not in forbidden:
                self._add(s, DISCARD, i)
        self.turn = s
        self.drawn = -1
        self._open(DISCARD_ONLY)

    def _discard(self, s: int, i: int) -> None:
        self.counts[s][i] -= 1
        self.ponds[s].append(i)
        if s == 0:
            self.e_first = False
        self.discards += 1
        self.drawn = -1
        self._emit({"event": "discard", "seat": SEATS[s], "tile": CODES[i]})
        last = self.live_left() <= 0
        sets_ok = not last or self._r_last_any
        first = self.discards == 1 and s == 0 and not self.declared
        asked = []
        o = s
        for _ in range(3):
            o = _NEXT[o]
            counts = self.counts[o]
            win = self._discard_win(o, i, s, last, first) if self._could_win(o, i) else None
            if win is not None:
                self._add(o, WIN, i, win)
            if sets_ok and len(self.melds[o]) < 4 and counts[i] + (i < 27 and _NEXT[s] == o) > 0:
                for kind, run, forbidden in set_claims(counts, i, SEATS[o], SEATS[s], swap=bool(self._r_swap)):
                    if kind == "kong":
                        if self.back > self.front:  # a kong needs a replacement
                            self._add(o, EXPOSED, i)
                    elif not forbidden or leaves_a_discard(counts, run, i, forbidden):  # G10
                        self._add(o, PUNG if kind == "pung" else CHOW, run[0], None, forbidden)
            if self.codes[o]:
                self.codes[o].insert(0, PASS)
                self.tiles[o].insert(0, -1)
                self.payload[o].insert(0, None)
                self.forbid[o].insert(0, ())
                asked.append(o)
        if asked:
            self.asked = asked
            self.w_tile = i
            self.w_from = s
            self._open(CLAIM)
            return
        self._draw(_NEXT[s])

    def _could_win(self, o: int, i: int) -> bool:
        """Whether ``o``'s hand with ``i`` is a winning shape the core knows
        (other shapes: the scorer decides)."""
        if self._r_extra:
            return True
        counts = self.counts[o]
        counts[i] += 1
        found = self._complete(o, counts)
        counts[i] -= 1
        return found

    def _complete(self, s: int, counts: list[int]) -> bool:
        """The standard shape, or thirteen orphans where the preset has it (the core's question)."""
        return core.complete_of_counts(counts, (), len(self.melds[s]),
                                       core.STANDARD_AND_ORPHANS if self._r_orphans else core.STANDARD_ONLY)

    def _self_kong(self, s: int, i: int, concealed: bool) -> None:
        self.declared = True
        self.e_first = False
        self.kongs += 1
        if concealed:
            self.counts[s][i] -= 4
            self.melds[s].append([M_KONG, i, -1, True])
            self._emit({"event": "kong", "seat": SEATS[s], "kind": "concealed", "tiles": _set_text(CONCEALED, i)})
        else:
            self.counts[s][i] -= 1
            for m in self.melds[s]:
                if m[0] == M_PUNG and m[1] == i:
                    m[0] = M_KONG
            self._emit({"event": "kong", "seat": SEATS[s], "kind": "added", "tiles": _set_text(ADDED, i)})
        if self._r_rob == 0 or (concealed and self._r_rob != 2):
            self._replace_kong(s)
            return
        asked = []
        o = s
        for _ in range(3):
            o = _NEXT[o]
            win = self._rob_win(o, i, s, concealed) if self._could_win(o, i) else None
            if win is not None:
                asked.append(o)
                self._add(o, PASS, -1)
                self._add(o, WIN, i, win)
        if asked:
            self.asked = asked
            self.w_tile = i
            self.w_from = s
            self.w_concealed = concealed
            self._open(ROB)
            return
        self._replace_kong(s)

    # -------------------------------------------------------------- windows

    def _try_resolve(self) -> None:
        frm = self.w_from if self.phase != INSTANT else 0
        best_rank, best_dist, best = 9, 9, -1
        for s in self.asked:
            k = self.answer[s]
            if k <= 0:
                continue
            rank = _RANK.get(self.codes[s][k], 0)
            dist = (s - frm) % 4
            if rank < best_rank or (rank == best_rank and dist < best_dist):
                best_rank, best_dist, best = rank, dist, s
        for s in self.asked:
            if self.answer[s] >= 0:
                continue
            if best < 0:
                return
            dist = (s - frm) % 4
            for code in self.codes[s]:
                if code == PASS:
                    continue
                rank = _RANK.get(code, 0)
                if rank < best_rank or (rank == best_rank and dist < best_dist):
                    return
                if self._r_many and rank == 0 and best_rank == 0:
                    return
        phase = self.phase
        if best < 0:  # everyone passed
            self._clear()
            if phase == CLAIM:
                self._draw(_NEXT[frm])
            elif phase == ROB:
                self._replace_kong(frm)
            elif self.w_after == AFTER_DEAL:
                self._e_turn()
            else:
                self._exhausted()
            return
        k = self.answer[best]
        code = self.codes[best][k]
        tile = self.w_tile
        if code == WIN:
            winners = [(best, self.payload[best][k][1])]
            if self._r_many:
                order = sorted((s for s in self.asked if self.answer[s] > 0
                                and self.codes[s][self.answer[s]] == WIN), key=lambda s: (s - frm) % 4)
                winners = [(s, self.payload[s][self.answer[s]][1]) for s in order]
            self._clear()
            if phase == ROB:
                self._unmake_kong(frm, tile, self.w_concealed)
            self._win(winners)
            return
        low = self.tiles[best][k]
        forbidden = self.forbid[best][k]
        self._clear()
        self.ponds[frm].pop()
        self.declared = True
        self.e_first = False
        counts = self.counts[best]
        if code == EXPOSED:
            counts[tile] -= 3
            self.melds[best].append([M_KONG, tile, frm, False])
            self._emit({"event": "kong", "seat": SEATS[best], "kind": "exposed", "tiles": _set_text(EXPOSED, tile),
                        "from": SEATS[frm]})
            self.kongs = 1
            self._replace_kong(best)
            return
        if code == PUNG:
            counts[tile] -= 2
            self.melds[best].append([M_PUNG, tile, frm, False])
        else:
            for j in (low, low + 1, low + 2):
                if j != tile:
                    counts[j] -= 1
            self.melds[best].append([M_CHOW, low, frm, False])
        self._emit({"event": ACTS[code], "seat": SEATS[best], "tiles": _set_text(code, low), "from": SEATS[frm]})
        self.kongs = 0
        self._discard_prompt(best, forbidden)

    def _unmake_kong(self, s: int, i: int, concealed: bool) -> None:
        """A robbed kong is not made: the set stays as it was, its tile goes to the robber."""
        if concealed:
            self.melds[s].pop()
            self.counts[s][i] += 3
        else:
            for m in self.melds[s]:
                if m[0] == M_KONG and m[1] == i and not m[3]:
                    m[0] = M_PUNG
                    break

    # --------------------------------------------------------------- hooks

    def _emit(self, record: dict[str, Any]) -> None:
        self.log.append(record)
        self.texts.append(None)

    def emit(self, record: dict[str, Any], text: str | None = None) -> None:
        """Append a record the engine does not write itself, with its JSON
        line if the caller has made it (else it is made when written)."""
        self.log.append(record)
        self.texts.append(text)

    def _self_win(self, s: int) -> Any:  # pragma: no cover - the subclass scores wins
        raise NotImplementedError

    def _discard_win(self, o: int, i: int, frm: int, last: bool, first: bool) -> Any:  # pragma: no cover
        raise NotImplementedError

    def _rob_win(self, o: int, i: int, frm: int, concealed: bool) -> Any:  # pragma: no cover
        raise NotImplementedError

    def _instant_win(self, s: int) -> Any:  # pragma: no cover
        raise NotImplementedError

    def _win(self, winners: list[tuple[int, Any]]) -> None:  # pragma: no cover
        raise NotImplementedError

    def _exhausted(self) -> None:  # pragma: no cover
        raise NotImplementedError


_STATE = ("_r_concealed", "_r_added", "_r_drawn_only", "_r_self_pung", "_r_last_any", "_r_swap", "_r_rob", "_r_many",
          "_r_instant", "_r_orphans", "_r_extra", "_r_front", "counts", "melds", "bonus", "ponds", "wall", "front",
          "back", "from_back", "reserve", "prompt_no", "phase", "turn", "drawn", "by_kong", "kongs", "declared",
          "e_first", "draws", "discards", "instant_due", "last_dealt", "over", "asked", "codes", "tiles", "payload",
          "forbid", "answer", "w_tile", "w_from", "w_after", "w_concealed")


#: the JSON lines of the commonest records, by their values
_LINES: dict[tuple[str | None, ...], str] = {
    **{("draw", s, t, src): f'{{"event":"draw","seat":"{s}","tile":"{t}","source":"{src}"}}'
       for s in SEATS for t in CODES for src in ("live", "replacement")},
    **{("discard", s, t): f'{{"event":"discard","seat":"{s}","tile":"{t}"}}' for s in SEATS for t in CODES},
}
for _s in SEATS:
    for _t in CODES[34:]:
        for _r in (*CODES, None):
            _LINES[("bonus", _s, _t, _r)] = (
                f'{{"event":"bonus","seat":"{_s}","tile":"{_t}","replacement":'
                + ("null" if _r is None else f'"{_r}"') + "}")
_DRAW_KEYS = ("event", "seat", "tile", "source")
_BONUS_KEYS = ("event", "seat", "tile", "replacement")
_DISCARD_KEYS = ("event", "seat", "tile")


def common_line(record: Any) -> str | None:
    """The JSON line of a draw, bonus or discard record as the engine writes it, or
    None for any other record (``hkcore.table.records.line`` writes those)."""
    if type(record) is not dict:
        return None
    n = len(record)
    event = record.get("event")
    if (n == 4 and event in ("draw", "bonus")) or (n == 3 and event == "discard"):
        try:
            found = _LINES.get(tuple(record.values()))
        except TypeError:  # a value that is no tile or seat
            return None
        keys = _DISCARD_KEYS if n == 3 else _DRAW_KEYS if event == "draw" else _BONUS_KEYS
        if found is not None and tuple(record) == keys:
            return str(found)
    return None


def lines(records: list[Any], dumps: Any, texts: list[str | None] | None = None) -> str:
    """The records as JSON lines, each ended by a newline: the commonest
    looked up (or taken from ``texts``, the lines the engine made beside its
    log, None where it made none), the rest by ``dumps``."""
    out = []
    for i, r in enumerate(records):
        text = texts[i] if texts is not None else None
        if text is None:
            text = common_line(r)
            if text is None:
                text = dumps(r)
        out.append(text)
        out.append("\n")
    return "".join(out)
