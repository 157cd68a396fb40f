"""The flow of one hand as plain data: the pure-Python engine.

The wall, the hands, the turn, the claim windows and their resolution,
kongs and bonus replacements: everything a decision touches, on tile
indices and small integer codes. It is the reference for the compiled
engine (``hkcore.table.flow._cengine``), which mirrors it line for line; tests
hold the two equal. What a win is worth, the settlement and a seat's view
are asked of the subclass (``hkcore.table.table.Table``) through the hooks
of ``hkcore.table.flow.hooks.TableHooks``, whose docstring is the whole
contract.

Its modules, each built on the one before: ``codes`` (action, phase and
set codes), ``state`` (the values, their accessors, the hooks), ``prompts``
(the open prompt and a decision matched against it), ``turns`` (draws,
turns, discards, kongs), ``windows`` (claim, robbing and instant windows
resolved by priority), and here ``Engine``, which carries out a decision;
``log_lines`` writes the records as JSON lines.
"""
from __future__ import annotations

from typing import Any

from hkcore.table.flow._pyengine.log_lines import common_line, lines
from hkcore.table.flow._pyengine.windows import Windows
from hkcore.table.flow.codes import (
    ADDED,
    CLAIM,
    CONCEALED,
    DISCARD,
    INSTANT,
    M_PUNG,
    PUNG,
    ROB,
    WIN,
    set_text,
)
from hkcore.table.flow.wall import SEATS

IMPLEMENTATION = "python"

__all__ = ["IMPLEMENTATION", "Engine", "common_line", "lines"]


class Engine(Windows):
    """The state of a hand in play and every step of its flow."""

    def submit(self, decision: Any) -> list[dict[str, Any]]:
        """One seat's answer to its open prompt; returns the records it added.

        ``decision`` is ``{"prompt": N, "seat": X, ...one listed action...}``,
        matched on ``act``, ``kind`` and ``tiles``/``tile``. A stale prompt, a
        seat not asked or an action not listed raises a TableError naming the
        field, and the table stays as it was."""
        s, k = self._match(decision)
        before = len(self.log)
        self._take(s, k)
        return self.log[before:]

    def play_random(self, rng: Any) -> int:
        """Play the hand to its end, every decision a uniformly random legal
        action drawn as ``actions[int(rng.random() * len(actions))]`` for the
        first seat still to answer (what the ``random`` policy does through
        ``prompts()``); returns the number of decisions."""
        n = 0
        while not self.over:
            for s in self._asked:
                if self._answer[s] < 0:
                    break
            self._take(s, int(rng.random() * len(self._codes[s])))
            n += 1
        return n

    def _take(self, s: int, k: int) -> None:
        """Seat ``s`` takes action ``k`` of its open prompt (unchecked: ``submit`` checks)."""
        if self._phase in (CLAIM, ROB, INSTANT):
            self._answer[s] = k
            self._try_resolve()
            return
        code = self._codes[s][k]
        tile = self._tiles[s][k]
        payload = self._payload[s][k]
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
            self._counts[s][tile] -= 3
            self._melds[s].append([M_PUNG, tile, -1, False])
            self._declared = True
            self._emit({"event": "pung", "seat": SEATS[s], "tiles": set_text(PUNG, tile)})
            self._discard_prompt(s, ())

