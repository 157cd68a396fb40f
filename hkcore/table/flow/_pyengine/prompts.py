"""The open prompt of the pure engine: opening and clearing it, its actions
as JSON (GAME.md §8.4), and a decision matched against them."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hkcore.errors import TableError, shown
from hkcore.table.flow._pyengine.state import EngineState
from hkcore.table.flow.codes import (
    ACTS,
    CLAIM,
    DISCARD,
    KINDS,
    OVER,
    PASS,
    PHASES,
    ROB,
    WIN,
    set_text,
)
from hkcore.table.flow.wall import BONUS, CODES, SEATS, discard_refused, legal_text


class Prompts(EngineState):
    """Who is asked now and what they may do."""

    def _open(self, phase: int) -> None:
        self._prompt_no += 1
        self._phase = phase
        self._answer = [-1, -1, -1, -1]

    def _clear(self) -> None:
        for s in self._asked:
            self._codes[s] = []
            self._tiles[s] = []
            self._payload[s] = []
            self._forbid[s] = []
        self._asked = []

    def _finish(self) -> None:
        """The hand is over: nothing more is asked."""
        self._clear()
        self.over = True
        self._phase = OVER

    def _add(self, s: int, code: int, tile: int, payload: Any = None, forbid: tuple[int, ...] = ()) -> None:
        self._codes[s].append(code)
        self._tiles[s].append(tile)
        self._payload[s].append(payload)
        self._forbid[s].append(forbid)

    def _action(self, s: int, k: int) -> dict[str, Any]:
        """Action ``k`` of seat ``s``'s open prompt, as JSON."""
        code = self._codes[s][k]
        if code == WIN:
            return dict(self._payload[s][k][0])
        if code == PASS:
            return {"act": "pass"}
        if code == DISCARD:
            return {"act": "discard", "tile": CODES[self._tiles[s][k]]}
        out: dict[str, Any] = {"act": ACTS[code]}
        if KINDS[code] is not None:
            out["kind"] = KINDS[code]
        out["tiles"] = set_text(code, self._tiles[s][k])
        return out

    def prompts(self, views: bool = True) -> list[dict[str, Any]]:
        """The prompts open now, one per seat still to answer (``[]`` once the
        hand is over): GAME.md §8.4's JSON, each with the seat's ``view``
        (left out with ``views=False``, for a player that needs none)."""
        out = []
        phase = PHASES[self._phase]
        for s in self._asked:
            if self._answer[s] >= 0:
                continue
            p: dict[str, Any] = {"prompt": self._prompt_no, "seat": SEATS[s], "phase": phase}
            if self._w_tile >= 0 and self._phase in (CLAIM, ROB):
                p["tile"] = CODES[self._w_tile]
                p["from"] = SEATS[self._w_from]
            p["actions"] = [self._action(s, k) for k in range(len(self._codes[s]))]
            if views:
                p["view"] = self.view(SEATS[s])
            out.append(p)
        return out


    def _match(self, decision: Any) -> tuple[int, int]:
        if not isinstance(decision, Mapping):
            raise TableError(f"decision: a JSON object, not {shown(decision)}", "decision", decision)
        if self.over:
            raise TableError("prompt: the hand is over; nothing is asked", "prompt", decision.get("prompt"))
        n = decision.get("prompt")
        if type(n) is not int or n != self._prompt_no:
            raise TableError(f"prompt = {shown(n)}: not the open prompt ({self._prompt_no})", "prompt", n)
        seat = decision.get("seat")
        s = SEATS.index(seat) if isinstance(seat, str) and seat in SEATS else -1
        if s not in self._asked or self._answer[s] >= 0:
            asked = ", ".join(SEATS[x] for x in self._asked if self._answer[x] < 0)
            raise TableError(f"seat = {shown(seat)}: not asked in prompt {n} (asked: {asked})", "seat", seat)
        act = decision.get("act")
        actions = [self._action(s, k) for k in range(len(self._codes[s]))]
        same = [k for k, a in enumerate(actions) if a["act"] == act]
        if not same:
            raise TableError(f"act = {shown(act)}: not legal for {seat} (legal: {legal_text(actions)})", "act", act)
        for name in ("kind", "tiles", "tile"):
            wanted = [k for k in same if actions[k].get(name) == decision.get(name)]
            if not wanted:
                value = decision.get(name)
                if name == "tile" and act == "discard":
                    held = value in CODES[:BONUS] and self._counts[s][CODES.index(value)] > 0
                    raise TableError(discard_refused(SEATS[s], value, held, actions), name, value)
                raise TableError(f"{name} = {shown(value)}: {act} not legal for {seat} with it (legal: "
                                 f"{legal_text(actions)})", name, value)
            same = wanted
        return s, same[0]

