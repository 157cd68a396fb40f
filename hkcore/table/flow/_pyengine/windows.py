"""The windows of the pure engine (claim, robbing, instant win) resolved
from every asked seat's answer: the priority of GAME.md §3.4 (a win, then
a pung or kong, then a chow; nearer the discarder first), never the order
the answers came in; then the winning claim carried out."""
from __future__ import annotations

from hkcore.table.flow._pyengine.turns import Turns
from hkcore.table.flow.codes import (
    ACTS,
    AFTER_DEAL,
    CLAIM,
    EXPOSED,
    INSTANT,
    M_CHOW,
    M_KONG,
    M_PUNG,
    NEXT,
    PASS,
    PUNG,
    RANK,
    ROB,
    WIN,
    set_text,
)
from hkcore.table.flow.wall import SEATS


class Windows(Turns):
    """A window resolved once the answers asked for decide it."""

    # -------------------------------------------------------------- windows

    def _try_resolve(self) -> None:
        frm = self._w_from if self._phase != INSTANT else 0
        best_rank, best_dist, best = 9, 9, -1
        for s in self._asked:
            k = self._answer[s]
            if k <= 0:
                continue
            rank = RANK.get(self._codes[s][k], 0)
            dist = (s - frm) % 4
            if rank < best_rank or (rank == best_rank and dist < best_dist):
                best_rank, best_dist, best = rank, dist, s
        for s in self._asked:
            if self._answer[s] >= 0:
                continue
            if best < 0:
                return
            dist = (s - frm) % 4
            for code in self._codes[s]:
                if code == PASS:
                    continue
                rank = RANK.get(code, 0)
                if rank < best_rank or (rank == best_rank and dist < best_dist):
                    return
                if self._r_many and rank == 0 and best_rank == 0:
                    return
        phase = self._phase
        if best < 0:  # everyone passed
            self._clear()
            if phase == CLAIM:
                self._draw(NEXT[frm])
            elif phase == ROB:
                self._replace_kong(frm)
            elif self._w_after == AFTER_DEAL:
                self._e_turn()
            else:
                self._exhausted()
            return
        k = self._answer[best]
        code = self._codes[best][k]
        tile = self._w_tile
        if code == WIN:
            winners = [(best, self._payload[best][k][1])]
            if self._r_many:
                order = sorted((s for s in self._asked if self._answer[s] > 0
                                and self._codes[s][self._answer[s]] == WIN), key=lambda s: (s - frm) % 4)
                winners = [(s, self._payload[s][self._answer[s]][1]) for s in order]
            self._clear()
            if phase == ROB:
                self._unmake_kong(frm, tile, self._w_concealed)
            self._win(winners)
            return
        low = self._tiles[best][k]
        forbidden = self._forbid[best][k]
        self._clear()
        self._ponds[frm].pop()
        self._declared = True
        self._e_first = False
        counts = self._counts[best]
        if code == EXPOSED:
            counts[tile] -= 3
            self._melds[best].append([M_KONG, tile, frm, False])
            self._emit({"event": "kong", "seat": SEATS[best], "kind": "exposed", "tiles": set_text(EXPOSED, tile),
                        "from": SEATS[frm]})
            self._kongs = 1
            self._replace_kong(best)
            return
        if code == PUNG:
            counts[tile] -= 2
            self._melds[best].append([M_PUNG, tile, frm, False])
        else:
            for j in (low, low + 1, low + 2):
                if j != tile:
                    counts[j] -= 1
            self._melds[best].append([M_CHOW, low, frm, False])
        self._emit({"event": ACTS[code], "seat": SEATS[best], "tiles": set_text(code, low), "from": SEATS[frm]})
        self._kongs = 0
        self._discard_prompt(best, forbidden)

    def _unmake_kong(self, s: int, i: int, concealed: bool) -> None:
        """A robbed kong is not made: the set stays as it was, its tile goes to the robber."""
        if concealed:
            self._melds[s].pop()
            self._counts[s][i] += 3
        else:
            for m in self._melds[s]:
                if m[0] == M_KONG and m[1] == i and not m[3]:
                    m[0] = M_PUNG
                    break

