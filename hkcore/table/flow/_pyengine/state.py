"""The values of a hand in play (the pure engine's state), what may be read
of them, their copy for a pickle, the log, and the hooks the table answers."""
from __future__ import annotations

from typing import Any

from hkcore import core
from hkcore.errors import TableError, shown
from hkcore.table.flow.codes import (
    DEAL,
    M_CHOW,
    M_KONG,
    M_PUNG,
    MELD_KIND,
    TURN,
)
from hkcore.table.flow.rules import EngineRules
from hkcore.table.flow.wall import BONUS, CODES, SEATS, canonical


class EngineState:
    """The state of a hand in play, its accessors and the subclass's hooks."""

    #: while true, the engine keeps none of the records of play it writes itself (bonus tiles, draws, discards,
    #: declared sets): the log holds what was there, and what the class built on it adds (wins, the end); a
    #: copy or a pickle keeps every record again
    quiet = False
    #: the records of the hand so far (the subclass begins it with the start record)
    log: list[dict[str, Any]]
    _no_wins: set[bytes] | None = None
    _win_tag: int

    @property
    def no_wins(self) -> set[bytes] | None:
        """The compiled engine's memo of complete hands not winnable (a set a run of hands gives its tables);
        this engine checks what it is given but scores every hand and keeps none."""
        return self._no_wins

    @no_wins.setter
    def no_wins(self, value: set[bytes] | None) -> None:
        if value is not None and type(value) is not set:
            raise TableError(f"no_wins = {shown(value)}: a set, or None", "no_wins", value)
        self._no_wins = value

    def _setup(self, hands: list[list[int]], wall: list[int], reserve: int, rules: EngineRules,
               round_wind: int) -> None:
        """A hand dealt: ``hands`` and ``wall`` (tile indices), ``reserve`` tiles of dead wall, ``rules``, the
        round wind's index ``round_wind`` (0..3, E S W N)."""
        (self._r_concealed, self._r_added, self._r_drawn_only, self._r_self_pung, self._r_last_any, self._r_swap,
         self._r_rob, self._r_many, self._r_instant, self._r_orphans, self._r_extra, self._r_front) = rules.flags()
        # seven pairs alone beyond the core's shapes: the engine counts it, the shapes left to the scorer are none
        self._r_pairs = rules.seven_pairs
        if self._r_pairs:
            self._r_extra = 0
        #: the round wind's index (the compiled engine keys its memo of hands not winnable by it)
        self._win_tag = round_wind
        #: beside each record of the log, its JSON line where the engine made one (here: none of its own)
        if getattr(self, "_texts", None) is None or len(self._texts) != len(self.log):
            self._texts: list[str | None] = [None] * len(self.log)
        self._counts = [[0] * 34 for _ in range(4)]
        self._melds: list[list[list[int]]] = [[], [], [], []]  # [kind, low, source (-1), concealed]
        self._bonus: list[list[int]] = [[], [], [], []]
        self._ponds: list[list[int]] = [[], [], [], []]
        self._wall = list(wall)
        self._front = 0
        self._back = len(self._wall)
        self._from_back = 0
        self._reserve = reserve
        self._prompt_no = 0
        self._phase = DEAL
        self._turn = 0
        self._drawn = -1
        self._by_kong = False
        self._kongs = 0
        self._declared = False
        self._e_first = True
        self._draws = [0, 0, 0, 0]
        self._discards = 0
        self._instant_due = [False] * 4
        self._last_dealt = -1
        self.over = False
        # the open prompt: per seat asked, its actions as (code, tile) and, for a win, its payload
        self._asked: list[int] = []
        self._codes: list[list[int]] = [[], [], [], []]
        self._tiles: list[list[int]] = [[], [], [], []]
        self._payload: list[list[Any]] = [[], [], [], []]
        self._forbid: list[list[tuple[int, ...]]] = [[], [], [], []]
        self._answer = [-1, -1, -1, -1]
        self._w_tile = -1
        self._w_from = -1
        self._w_after = 0
        self._w_concealed = False
        for s in range(4):
            for i in hands[s]:
                if i >= BONUS:
                    self._bonus[s].append(i)
                else:
                    self._counts[s][i] += 1

    # ------------------------------------------------------------ accessors

    def live_left(self) -> int:
        """Tiles live draws may still take."""
        return max(0, self._back - self._front - max(0, self._reserve - self._from_back))

    def _wall_left(self) -> int:
        """Tiles left in the wall, the dead wall's included."""
        return self._back - self._front

    def _melds_json(self, s: int, hide: bool = False) -> list[dict[str, Any]]:
        """``s``'s declared sets as hand JSON (a concealed kong's tiles null with ``hide``)."""
        out = []
        for kind, low, source, concealed in self._melds[s]:
            tiles = (low, low + 1, low + 2) if kind == M_CHOW else (low,) * (4 if kind == M_KONG else 3)
            m: dict[str, Any] = {"kind": MELD_KIND[kind], "tiles": None if hide and concealed else canonical(tiles)}
            if concealed:
                m["concealed"] = True
            elif source >= 0:
                m["from"] = SEATS[source]
            out.append(m)
        return out

    def _seen(self, s: int, hide: bool) -> tuple[Any, ...]:
        """What seat ``s`` sees of the hand: its concealed tiles less the tile
        just drawn, that tile (or None), then by seat the declared sets (a
        concealed kong's tiles null with ``hide``, but for ``s``'s own), the
        bonus tiles, the ponds and how many tiles each holds."""
        counts = list(self._counts[s])
        drawn = self._drawn if (s == self._turn and self._phase == TURN and self._drawn >= 0
                               and not (s == 0 and self._e_first)) else -1
        if drawn >= 0:
            counts[drawn] -= 1
        return (canonical([i for i in range(34) for _ in range(counts[i])]), None if drawn < 0 else CODES[drawn],
                {SEATS[o]: self._melds_json(o, hide and o != s) for o in range(4)},
                {SEATS[o]: canonical(self._bonus[o]) for o in range(4)},
                {SEATS[o]: "".join(CODES[i] for i in self._ponds[o]) for o in range(4)},
                {SEATS[o]: sum(self._counts[o]) for o in range(4)})

    def _counts_of(self, s: int) -> list[int]:
        """A copy of ``s``'s 34 counts of concealed tiles."""
        return list(self._counts[s])

    def _bonus_of(self, s: int) -> list[int]:
        """The bonus tiles ``s`` has set aside, in order."""
        return list(self._bonus[s])

    def _pond_of(self, s: int) -> list[int]:
        """``s``'s discards not claimed, in order."""
        return list(self._ponds[s])

    def _draws_of(self, s: int) -> int:
        """How many live draws ``s`` has made."""
        return self._draws[s]

    def _instant_is_due(self, s: int) -> bool:
        """Whether an instant bonus win is to be offered at ``s``'s next decision."""
        return self._instant_due[s]

    def _winning_shape(self, s: int, counts: list[int]) -> bool:
        """Whether ``counts`` (with ``s``'s sets) is a winning shape; always
        True under a preset with shapes the core does not know (the scorer decides)."""
        return True if self._r_extra else self._complete(s, counts)

    def _give(self, s: int, tile: int, pond: int) -> None:
        """The winning tile goes to ``s``: out of ``pond``'s pond (-1: not from a pond)."""
        self._counts[s][tile] += 1
        if pond >= 0:
            self._ponds[pond].pop()

    def _engine_state(self) -> tuple[Any, ...]:
        """Every value of the engine, for a copy or a pickle."""
        return tuple(getattr(self, name) for name in STATE)

    def _load_engine_state(self, state: tuple[Any, ...]) -> None:
        import copy
        if len(state) == len(STATE) - 2:  # pickled by hkcore 0.1.0, before the round wind was the engine's
            state = (*state, SEATS.index(self.log[0]["round"]))
        if len(state) == len(STATE) - 1:  # pickled before seven pairs was the engine's: not in play then
            state = (*state, 0)
        for name, value in zip(STATE, copy.deepcopy(state), strict=True):
            setattr(self, name, value)

    def _has_pung(self, s: int, i: int) -> bool:
        return any(m[0] == M_PUNG and m[1] == i for m in self._melds[s])

    def _complete(self, s: int, counts: list[int]) -> bool:
        """The standard shape, or thirteen orphans or seven pairs where the preset has them (the core's
        question)."""
        return core.complete_of_kernel(counts, len(self._melds[s]), bool(self._r_orphans), self._r_pairs)

    # --------------------------------------------------------------- hooks

    def _emit(self, record: dict[str, Any]) -> None:
        if self.quiet:
            return
        self.log.append(record)
        self._texts.append(None)

    def _add_record(self, record: dict[str, Any], text: str | None = None) -> None:
        """Append a record the engine does not write itself, with its JSON
        line if the caller has made it (else it is made when written)."""
        self.log.append(record)
        self._texts.append(text)

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

    def view(self, seat: str) -> dict[str, Any]:  # pragma: no cover - the subclass says what a seat sees
        raise NotImplementedError

    def _g15_tile(self) -> int:  # pragma: no cover - the subclass knows the record
        raise NotImplementedError


#: the names of every value of the engine, in the order ``engine_state`` gives them
STATE = ("_r_concealed", "_r_added", "_r_drawn_only", "_r_self_pung", "_r_last_any", "_r_swap", "_r_rob", "_r_many",
         "_r_instant", "_r_orphans", "_r_extra", "_r_front", "_counts", "_melds", "_bonus", "_ponds", "_wall",
         "_front", "_back", "_from_back", "_reserve", "_prompt_no", "_phase", "_turn", "_drawn", "_by_kong", "_kongs",
         "_declared", "_e_first", "_draws", "_discards", "_instant_due", "_last_dealt", "over", "_asked", "_codes",
         "_tiles", "_payload", "_forbid", "_answer", "_w_tile", "_w_from", "_w_after", "_w_concealed", "_win_tag",
         "_r_pairs")
