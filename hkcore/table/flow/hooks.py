"""The contract between the engine and the class built on it.

The engine (either twin, ``hkcore.table.flow.engine.Engine``) plays the
flow of a hand: the wall, turns, claim windows, kongs and bonus tiles. It
does not know what a hand is worth, how a win is settled or what a seat may
see: it asks the class built on it (``hkcore.table.table.Table``) through
the hooks of ``TableHooks`` below, and nothing else.

What the engine asks, and when:

- at a turn where the drawn tile completes a hand (or an instant win is
  due), ``_self_win(s)``; on a discard another seat could win on,
  ``_discard_win(o, tile, frm, last, first)``; on a kong that could be
  robbed, ``_rob_win(o, tile, frm, concealed)``; after the deal or a
  replacement that cannot be drawn, ``_instant_win(s)``. Each answers None
  (no win: the scorer found the hand not winnable under the preset) or
  ``(action, payload)``: the ``win`` action the prompt offers (``act``,
  ``faan``, and ``instant`` or ``robbing`` where they apply) and a payload
  the engine hands back unread when the win is taken;
- when a window resolves to wins (or a seat takes its own),
  ``_win([(seat, payload), ...])``, nearest the discarder first; when the
  live wall runs out, ``_exhausted()``. Either writes the hand's last
  records (``_add_record``) and must call ``_finish()``, which closes every
  prompt;
- on East's first turn after the deal, ``_g15_tile()``: the tile of its
  dealt hand taken as drawn (GAME.md G15);
- for each prompt with its view, ``view(seat)``.

What the engine offers the class built on it (and nothing else outside the
flow may use): the log (``log``, and ``_texts``, the JSON lines the engine
made beside it), ``_add_record(record, text)``, ``_finish()``,
``live_left()``, a seat's concealed counts, declared sets, bonus tiles,
draws and pond (``_counts_of``, ``_melds_json``, ``_bonus_of``,
``_draws_of``, ``_pond_of``), what a seat may see (``_seen``), whether a
hand is a winning shape or an instant win is due (``_winning_shape``,
``_instant_is_due``), ``_give(s, tile, pond)`` (the winning tile taken),
the hand's flags (``_drawn``, ``_declared``, ``_e_first``, ``_kongs``,
``_by_kong``), its state for copies and pickles (``_engine_state``,
``_load_engine_state``), and ``_setup(hands, wall, reserve, rules,
round_wind)``, which deals (``rules``: ``hkcore.table.flow.rules.EngineRules``).
"""
from __future__ import annotations

from typing import Any, Protocol

#: a win offered: the ``win`` action of the prompt, and the payload handed back to ``_win`` when it is taken
Win = tuple[dict[str, Any], Any]


class TableHooks(Protocol):
    """What the engine asks of the class built on it (see the module's docstring)."""

    def _self_win(self, s: int) -> Win | None:
        """Seat ``s``'s own win on its turn: with its drawn tile, or an instant win that is due."""

    def _discard_win(self, o: int, i: int, frm: int, last: bool, first: bool) -> Win | None:
        """Seat ``o``'s win on tile ``i`` discarded by ``frm``: ``last``, the wall's last discard;
        ``first``, the first discard of the hand (GAME.md's first-turn rulings)."""

    def _rob_win(self, o: int, i: int, frm: int, concealed: bool) -> Win | None:
        """Seat ``o``'s win robbing the kong of tile ``i`` that ``frm`` declares (``concealed``: a concealed
        kong, robbed only for thirteen orphans)."""

    def _instant_win(self, s: int) -> Win | None:
        """Seat ``s``'s instant (bonus) win, after the deal or a replacement that cannot be drawn."""

    def _win(self, winners: list[tuple[int, Any]]) -> None:
        """The hand won by these seats, each with the payload its win gave, nearest the discarder first: the
        win and end records written, then ``_finish()``."""

    def _exhausted(self) -> None:
        """The hand drawn (the live wall ran out): its end records written, then ``_finish()``."""

    def _g15_tile(self) -> int:
        """The tile East's dealt hand treats as drawn on its first turn (GAME.md G15)."""

    def view(self, seat: str) -> dict[str, Any]:
        """What ``seat`` may see now (GAME.md §8.4), put in each prompt."""
