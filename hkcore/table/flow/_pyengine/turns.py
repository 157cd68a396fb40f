"""The turns of the pure engine: the deal's bonus tiles, draws and
replacements, a seat's turn and its actions, discards opening the claim
window, kongs opening the robbing window, and the wall running out (G4)."""
from __future__ import annotations

from hkcore.claims import leaves_a_discard, set_claims
from hkcore.table.flow._pyengine.prompts import Prompts
from hkcore.table.flow.codes import (
    ADDED,
    AFTER_DEAL,
    AFTER_G4,
    CHOW,
    CLAIM,
    CONCEALED,
    DISCARD,
    DISCARD_ONLY,
    EXPOSED,
    INSTANT,
    M_KONG,
    M_PUNG,
    NEXT,
    PASS,
    PUNG,
    ROB,
    SELF_PUNG,
    TURN,
    WIN,
    set_text,
)
from hkcore.table.flow.wall import BONUS, CODES, SEATS


class Turns(Prompts):
    """The flow from the deal through draws, turns, discards and kongs."""

    # -------------------------------------------------------------- the wall

    def _take_replacement(self) -> int:
        if self._back <= self._front:
            return -1
        if self._r_front:
            t = self._wall[self._front]
            self._front += 1
        else:
            self._back -= 1
            self._from_back += 1
            t = self._wall[self._back]
        return t

    def _bonus_out(self, s: int, b: int) -> int:
        """``s`` sets the bonus tile ``b`` aside and draws its replacement (-1: none, G4)."""
        self._bonus[s].append(b)
        r = self._take_replacement()
        self._emit({"event": "bonus", "seat": SEATS[s], "tile": CODES[b],
                    "replacement": None if r < 0 else CODES[r]})
        n = len(self._bonus[s])
        if self._r_instant and (n == 7 or n == 8):
            self._instant_due[s] = True
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
            held = self._bonus[s]
            self._bonus[s] = []
            while held:
                b = min(held)
                held.remove(b)
                r = self._bonus_out(s, b)
                if r < 0:
                    self._bonus[s].extend(held)  # G4: no tile can restore the hand
                    self._g4(s)
                    return False
                if r >= BONUS:
                    held.append(r)
                else:
                    self._counts[s][r] += 1
                    if s == 0:
                        self._last_dealt = r
        return True

    # ------------------------------------------------------------------ turns

    def _after_deal(self) -> None:
        """After the deal: the instant-win prompt of non-dealers holding seven
        or eight bonus tiles (G13), then E's first turn."""
        asked = []
        for s in (1, 2, 3):
            if self._instant_due[s]:
                self._instant_due[s] = False
                found = self._instant_win(s)
                if found is not None:
                    asked.append(s)
                    self._add(s, PASS, -1)
                    self._add(s, WIN, -1, found)
        if asked:
            self._asked = asked
            self._w_tile = -1
            self._w_after = AFTER_DEAL
            self._open(INSTANT)
            return
        self._e_turn()

    def _e_turn(self) -> None:
        self._turn = 0
        self._drawn = self._last_dealt if self._last_dealt >= 0 else self._g15_tile()
        self._by_kong = False
        self._kongs = 0
        self._turn_prompt()

    def _draw(self, s: int) -> None:
        """A live draw by ``s``, then its turn; the exhaustive draw when the live wall is empty."""
        if self.live_left() <= 0:
            self._exhausted()
            return
        t = self._wall[self._front]
        self._front += 1
        self._draws[s] += 1
        self._emit({"event": "draw", "seat": SEATS[s], "tile": CODES[t], "source": "live"})
        self._kongs = 0
        self._by_kong = False
        self._take_in(s, t)

    def _replace_kong(self, s: int) -> None:
        """The replacement draw after a kong, then the same seat's turn."""
        t = self._take_replacement()
        if t < 0:
            self._g4(s)
            return
        self._emit({"event": "draw", "seat": SEATS[s], "tile": CODES[t], "source": "replacement"})
        self._by_kong = True
        self._take_in(s, t)

    def _take_in(self, s: int, t: int) -> None:
        """The tile ``s`` drew (bonus tiles set aside and replaced) goes into its hand; then its turn."""
        self._turn = s
        t = self._set_aside(s, t)
        if t < 0:
            self._g4(s)
            return
        self._counts[s][t] += 1
        self._drawn = t
        self._turn_prompt()

    def _g4(self, s: int) -> None:
        """No replacement can be drawn: an instant-win prompt if due, then the exhaustive draw."""
        if self._instant_due[s]:
            self._instant_due[s] = False
            found = self._instant_win(s)
            if found is not None:
                self._asked = [s]
                self._add(s, PASS, -1)
                self._add(s, WIN, -1, found)
                self._w_tile = -1
                self._w_after = AFTER_G4
                self._open(INSTANT)
                return
        self._exhausted()

    def _turn_prompt(self) -> None:
        s = self._turn
        counts = self._counts[s]
        self._asked = [s]
        drawn = self._drawn
        if drawn >= 0 and (self._r_extra or self._instant_due[s] or self._complete(s, counts)):
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
        if (self._r_self_pung and drawn >= 0 and counts[drawn] >= 3 and not (s == 0 and self._e_first)
                and len(self._melds[s]) < 4):
            self._add(s, SELF_PUNG, drawn)
        for i in range(34):
            if counts[i]:
                self._add(s, DISCARD, i)
        self._instant_due[s] = False
        self._open(TURN)

    def _discard_prompt(self, s: int, forbidden: tuple[int, ...]) -> None:
        counts = self._counts[s]
        self._asked = [s]
        for i in range(34):
            if counts[i] and i not in forbidden:
                self._add(s, DISCARD, i)
        self._turn = s
        self._drawn = -1
        self._open(DISCARD_ONLY)

    def _discard(self, s: int, i: int) -> None:
        self._counts[s][i] -= 1
        self._ponds[s].append(i)
        if s == 0:
            self._e_first = False
        self._discards += 1
        self._drawn = -1
        self._emit({"event": "discard", "seat": SEATS[s], "tile": CODES[i]})
        last = self.live_left() <= 0
        sets_ok = not last or self._r_last_any
        first = self._discards == 1 and s == 0 and not self._declared
        asked = []
        o = s
        for _ in range(3):
            o = NEXT[o]
            counts = self._counts[o]
            win = self._discard_win(o, i, s, last, first) if self._could_win(o, i) else None
            if win is not None:
                self._add(o, WIN, i, win)
            if sets_ok and len(self._melds[o]) < 4 and counts[i] + (i < 27 and NEXT[s] == o) > 0:
                for kind, run, forbidden in set_claims(counts, i, SEATS[o], SEATS[s], swap=bool(self._r_swap)):
                    if kind == "kong":
                        if self._back > self._front:  # a kong needs a replacement
                            self._add(o, EXPOSED, i)
                    elif not forbidden or leaves_a_discard(counts, run, i, forbidden):  # G10
                        self._add(o, PUNG if kind == "pung" else CHOW, run[0], None, forbidden)
            if self._codes[o]:
                self._codes[o].insert(0, PASS)
                self._tiles[o].insert(0, -1)
                self._payload[o].insert(0, None)
                self._forbid[o].insert(0, ())
                asked.append(o)
        if asked:
            self._asked = asked
            self._w_tile = i
            self._w_from = s
            self._open(CLAIM)
            return
        self._draw(NEXT[s])

    def _could_win(self, o: int, i: int) -> bool:
        """Whether ``o``'s hand with ``i`` is a winning shape the core knows
        (other shapes: the scorer decides)."""
        if self._r_extra:
            return True
        counts = self._counts[o]
        counts[i] += 1
        found = self._complete(o, counts)
        counts[i] -= 1
        return found

    def _self_kong(self, s: int, i: int, concealed: bool) -> None:
        self._declared = True
        self._e_first = False
        self._kongs += 1
        if concealed:
            self._counts[s][i] -= 4
            self._melds[s].append([M_KONG, i, -1, True])
            self._emit({"event": "kong", "seat": SEATS[s], "kind": "concealed", "tiles": set_text(CONCEALED, i)})
        else:
            self._counts[s][i] -= 1
            for m in self._melds[s]:
                if m[0] == M_PUNG and m[1] == i:
                    m[0] = M_KONG
            self._emit({"event": "kong", "seat": SEATS[s], "kind": "added", "tiles": set_text(ADDED, i)})
        if self._r_rob == 0 or (concealed and self._r_rob != 2):
            self._replace_kong(s)
            return
        asked = []
        o = s
        for _ in range(3):
            o = NEXT[o]
            win = self._rob_win(o, i, s, concealed) if self._could_win(o, i) else None
            if win is not None:
                asked.append(o)
                self._add(o, PASS, -1)
                self._add(o, WIN, i, win)
        if asked:
            self._asked = asked
            self._w_tile = i
            self._w_from = s
            self._w_concealed = concealed
            self._open(ROB)
            return
        self._replace_kong(s)

