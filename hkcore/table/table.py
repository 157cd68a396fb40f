"""One hand at the table: the deal, turns, claims, kongs, robbing, bonus
tiles, the win and its settlement (docs/table.md).

A ``Table`` is a state machine over plain values: ``prompts()`` says who
must decide now and what they may do, ``submit(decision)`` takes one seat's
answer, and ``log`` holds the records of the hand (JSON lines when
written). Wins are scored by the preset's compiled ruleset; the table
computes no payment itself. It keeps no clock: a server that times a claim
window submits ``pass`` for a seat that runs out.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from hkcore import core
from hkcore.claims import priority, set_claims
from hkcore.engine import CompiledPreset, compiled_for
from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.rotation import Progress, Tally, after_hand, progress_for, standings
from hkcore.table.start import read_start, resolve_preset
from hkcore.table.wall import BONUS, CODES, SEATS, canonical
from hkcore.tiles import parse_tiles

#: the tiles of thirteen orphans
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_NEXT = (1, 2, 3, 0)


class _Meld:
    """A declared set: its kind, tiles, who fed it and whether it is hidden."""

    __slots__ = ("kind", "tiles", "source", "concealed", "low")

    def __init__(self, kind: str, tiles: tuple[int, ...], source: int | None, concealed: bool = False) -> None:
        self.kind = kind
        self.tiles = tiles
        self.source = source
        self.concealed = concealed
        self.low = tiles[0]

    def __getstate__(self) -> tuple[Any, ...]:
        return self.kind, self.tiles, self.source, self.concealed, self.low

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.kind, self.tiles, self.source, self.concealed, self.low = state

    def json(self, hidden: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "tiles": None if hidden else canonical(self.tiles)}
        if self.concealed:
            out["concealed"] = True
        elif self.source is not None:
            out["from"] = SEATS[self.source]
        return out


class Table:
    """One hand under a preset, from a ``start`` record (GAME.md §8.1: an
    explicit wall or a seed).

    >>> t = Table({"event": "start", "preset": "hk-classic", "seed": 7})
    >>> [p["seat"] for p in t.prompts()], t.prompts()[0]["phase"]
    (['E'], 'turn')
    """

    def __init__(self, start: Mapping[str, Any], preset: Preset | None = None, *,
                 progress: Progress | None = None) -> None:
        d = read_start(start, preset)
        p = d.preset
        self.preset = p
        #: how a pickled table finds its preset again: the record's, unless one was given
        self._preset_ref = d.record["preset"] if preset is None else None
        rules = p.table
        self._rules = rules
        rec = d.record
        self.hand_no: int = rec["hand"]
        self.wind: str = rec["round"]
        self.seats: dict[str, str] = rec["seats"]
        self.points: dict[str, int] | None = rec["points"]
        self.progress = progress if progress is not None else progress_for(
            self.seats, self.wind, self.hand_no, self.points)
        self.log: list[dict[str, Any]] = [rec]
        self._given_e = rec["hands"]["E"]
        # the hand
        self._counts = [[0] * 34 for _ in range(4)]
        self._melds: list[list[_Meld]] = [[], [], [], []]
        self._bonus: list[list[int]] = [[], [], [], []]
        self._ponds: list[list[int]] = [[], [], [], []]
        self._wall = list(d.wall)
        self._front = 0
        self._back = len(self._wall)
        self._from_back = 0  # replacements taken from the back
        self._reserve = rules.dead_wall
        self._repl_front = rules.replacement == "front"
        # the flow
        self._prompt = 0
        self._phase = "deal"
        self._turn = 0
        self._drawn: int | None = None  # the tile the seat on turn just drew (E's first turn: G15's tile)
        self._by_kong = False  # the drawn tile replaces a kong
        self._kongs = 0  # kongs the seat on turn declared since its turn began (G17)
        self._declared = False  # any chow, pung or kong declared so far (G18)
        self._e_first = True  # E has not yet acted on its first turn
        self._draws = [0, 0, 0, 0]  # live draws by seat
        self._discards = 0
        self._instant_due = [False] * 4
        self._asked: dict[int, list[dict[str, Any]]] = {}
        self._extra: dict[int, list[Any]] = {}
        self._answers: dict[int, int] = {}
        self._window: dict[str, Any] = {}
        self._forbidden: tuple[int, ...] = ()
        self._over = False
        self._compiled: CompiledPreset | None = None
        hands = d.hands
        for s in range(4):
            for i in hands[s]:
                if i >= BONUS:
                    self._bonus[s].append(i)
                else:
                    self._counts[s][i] += 1
        self._last_dealt: int | None = None
        e_hand = [i for i in hands[0] if i < BONUS]
        self._deal_bonus()
        if self._over:
            return
        self._deal_prompts(e_hand)

    # ------------------------------------------------------------------ state

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_compiled"] = None  # rebuilt from the preset: a compiled ruleset is not a value to copy
        if self._preset_ref is not None:
            state["preset"] = None  # read again from the record's reference
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.preset is None:
            self.preset = resolve_preset(self._preset_ref)

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        new = Table.__new__(Table)
        state = self.__getstate__()
        del state["preset"]
        new.__dict__.update(copy.deepcopy(state, memo))
        new.preset = self.preset  # immutable: shared
        return new

    def copy(self) -> Table:
        """An independent copy of the table: it plays on from here alone."""
        return copy.deepcopy(self)

    @property
    def compiled(self) -> CompiledPreset:
        if self._compiled is None:
            self._compiled = compiled_for(self.preset)
        return self._compiled

    @property
    def over(self) -> bool:
        """True once the hand has ended (``prompts()`` is then empty)."""
        return self._over

    def wall_left(self) -> int:
        """Tiles left in the wall, the dead wall's included."""
        return self._back - self._front

    def live_left(self) -> int:
        """Tiles live draws may still take."""
        return self._back - self._front - max(0, self._reserve - self._from_back)

    # --------------------------------------------------------------- the wall

    def _emit(self, record: dict[str, Any]) -> None:
        self.log.append(record)

    def _take_replacement(self) -> int | None:
        if self._back <= self._front:
            return None
        if self._repl_front:
            t = self._wall[self._front]
            self._front += 1
        else:
            self._back -= 1
            self._from_back += 1
            t = self._wall[self._back]
        return t

    def _set_aside(self, seat: int, t: int) -> int | None:
        """A bonus tile set aside and replaced (again while the replacement is
        one): the hand tile finally drawn, or None when the wall is empty (G4)."""
        while True:
            self._bonus[seat].append(t)
            r = self._take_replacement()
            self._emit({"event": "bonus", "seat": SEATS[seat], "tile": CODES[t],
                        "replacement": None if r is None else CODES[r]})
            n = len(self._bonus[seat])
            if n in (7, 8) and self.compiled.has_instant:
                self._instant_due[seat] = True
            if r is None or r < BONUS:
                return r
            t = r

    def _deal_bonus(self) -> None:
        """G7: bonus tiles dealt are replaced seat by seat, E first; a seat
        sets aside its lowest bonus tile and draws a replacement until it
        holds none."""
        instant = self.compiled.has_instant
        for s in range(4):
            held = self._bonus[s]
            self._bonus[s] = []
            while held:
                b = min(held)
                held.remove(b)
                self._bonus[s].append(b)
                r = self._take_replacement()
                self._emit({"event": "bonus", "seat": SEATS[s], "tile": CODES[b],
                            "replacement": None if r is None else CODES[r]})
                if instant and len(self._bonus[s]) in (7, 8):
                    self._instant_due[s] = True
                if r is None:
                    self._bonus[s].extend(held)  # G4: no tile can restore the hand
                    self._g4(s) if self._instant_due[s] else self._exhausted()
                    return
                if r >= BONUS:
                    held.append(r)
                else:
                    self._counts[s][r] += 1
                    if s == 0:
                        self._last_dealt = r

    # ------------------------------------------------------------- prompts

    def _open(self, phase: str, asked: dict[int, list[dict[str, Any]]], extra: dict[int, list[Any]],
              **window: Any) -> None:
        self._prompt += 1
        self._phase = phase
        self._asked = asked
        self._extra = extra
        self._answers = {}
        self._window = window

    def prompts(self, views: bool = True) -> list[dict[str, Any]]:
        """The prompts open now, one per seat still to answer (``[]`` once the
        hand is over): GAME.md §8.4's JSON, each with the seat's ``view``
        (left out with ``views=False``, for a player that needs none)."""
        out = []
        for s, actions in self._asked.items():
            if s in self._answers:
                continue
            p: dict[str, Any] = {"prompt": self._prompt, "seat": SEATS[s], "phase": self._phase}
            if "tile" in self._window:
                p["tile"] = CODES[self._window["tile"]]
                p["from"] = SEATS[self._window["from"]]
            p["actions"] = [dict(a) for a in actions]
            if views:
                p["view"] = self.view(SEATS[s])
            out.append(p)
        return out

    def view(self, seat: str) -> dict[str, Any]:
        """What ``seat`` may see now (GAME.md §8.4 ``view``)."""
        if seat not in SEATS:
            raise TableError(f"seat = {shown(seat)}: not a seat (E, S, W or N)", "seat", seat)
        s = SEATS.index(seat)
        own = [i for i in range(34) for _ in range(self._counts[s][i])]
        drawn = self._drawn if s == self._turn and self._phase == "turn" and self._drawn is not None \
            and not (s == 0 and self._e_first) else None
        if drawn is not None:
            own.remove(drawn)
        hide = not self._rules.show_concealed_kongs
        return {
            "seat": seat, "hand": self.hand_no, "round": self.wind, "live_left": self.live_left(),
            "tiles": canonical(own), "drawn": None if drawn is None else CODES[drawn],
            "melds": {SEATS[o]: [m.json(hide and m.concealed and o != s) for m in self._melds[o]] for o in range(4)},
            "bonus": {SEATS[o]: canonical(self._bonus[o]) for o in range(4)},
            "ponds": {SEATS[o]: "".join(CODES[i] for i in self._ponds[o]) for o in range(4)},
            "held": {SEATS[o]: sum(self._counts[o]) for o in range(4)},
            "points": None if self.points is None else dict(self.points),
        }

    # ------------------------------------------------------------- decisions

    def submit(self, decision: Any) -> list[dict[str, Any]]:
        """One seat's answer to its open prompt; returns the records it added.

        ``decision`` is ``{"prompt": N, "seat": X, ...one listed action...}``,
        matched on ``act``, ``kind`` and ``tiles``/``tile``. A stale prompt, a
        seat not asked or an action not listed raises a TableError naming the
        field, and the table stays as it was."""
        s, index = self._match(decision)
        before = len(self.log)
        if self._phase in ("claim", "rob", "instant"):
            self._answers[s] = index
            self._try_resolve()
        else:
            self._asked = {}
            self._act(s, self._extra[s][index])
        return self.log[before:]

    def _match(self, decision: Any) -> tuple[int, int]:
        if not isinstance(decision, Mapping):
            raise TableError(f"decision: a JSON object, not {shown(decision)}", "decision", decision)
        if self._over:
            raise TableError("prompt: the hand is over; nothing is asked", "prompt", decision.get("prompt"))
        n = decision.get("prompt")
        if type(n) is not int or n != self._prompt:
            raise TableError(f"prompt = {shown(n)}: not the open prompt ({self._prompt})", "prompt", n)
        seat = decision.get("seat")
        s = SEATS.index(seat) if isinstance(seat, str) and seat in SEATS else -1
        if s not in self._asked or s in self._answers:
            asked = ", ".join(SEATS[x] for x in self._asked if x not in self._answers)
            raise TableError(f"seat = {shown(seat)}: not asked in prompt {n} (asked: {asked})", "seat", seat)
        act = decision.get("act")
        actions = self._asked[s]
        same_act = [i for i, a in enumerate(actions) if a["act"] == act]
        if not same_act:
            raise TableError(f"act = {shown(act)}: not legal for {seat} (legal: {legal_text(actions)})", "act", act)
        for name in ("kind", "tiles", "tile"):
            wanted = [i for i in same_act if actions[i].get(name) == decision.get(name)]
            if not wanted:
                value = decision.get(name)
                raise TableError(f"{name} = {shown(value)}: {act} not legal for {seat} with it (legal: "
                                 f"{legal_text(actions)})", name, value)
            same_act = wanted
        return s, same_act[0]

    # ------------------------------------------------------------------ turns

    def _deal_prompts(self, e_hand: list[int]) -> None:
        """After the deal: the instant-win prompt of non-dealers holding seven
        or eight bonus tiles (G13), then E's first turn."""
        due = {s: self._instant_actions(s) for s in (1, 2, 3) if self._instant_due[s]}
        due = {s: a for s, a in due.items() if a is not None}
        for s in (1, 2, 3):
            self._instant_due[s] = False
        if due:
            self._open("instant", {s: [{"act": "pass"}, a[0]] for s, a in due.items()},
                       {s: [None, a[1]] for s, a in due.items()}, after="deal")
            return
        self._e_turn()

    def _e_turn(self) -> None:
        self._turn = 0
        self._drawn = self._last_dealt if self._last_dealt is not None else self._g15_tile()
        self._by_kong = False
        self._kongs = 0
        self._turn_prompt()

    def _g15_tile(self) -> int:
        """G15: the last tile of hands.E as written (a hand tile)."""
        found = [t.index for t in parse_tiles(self._given_e) if not t.is_bonus]
        return found[-1]

    def _draw(self, s: int) -> None:
        """A live draw by ``s``, then its turn; the exhaustive draw when the live wall is empty."""
        if self.live_left() <= 0:
            self._exhausted()
            return
        t = self._wall[self._front]
        self._front += 1
        self._draws[s] += 1
        self._emit({"event": "draw", "seat": SEATS[s], "tile": CODES[t], "source": "live"})
        self._turn = s
        self._kongs = 0
        self._by_kong = False
        if t >= BONUS:
            r = self._set_aside(s, t)
            if r is None:
                self._g4(s)
                return
            t = r
        self._counts[s][t] += 1
        self._drawn = t
        self._turn_prompt()

    def _replace_kong(self, s: int) -> None:
        """The replacement draw after a kong, then the same seat's turn."""
        t = self._take_replacement()
        if t is None:
            self._g4(s)
            return
        self._emit({"event": "draw", "seat": SEATS[s], "tile": CODES[t], "source": "replacement"})
        self._turn = s
        self._by_kong = True
        if t >= BONUS:
            r = self._set_aside(s, t)
            if r is None:
                self._g4(s)
                return
            t = r
        self._counts[s][t] += 1
        self._drawn = t
        self._turn_prompt()

    def _g4(self, s: int) -> None:
        """No replacement can be drawn: an instant-win prompt if due, then the exhaustive draw."""
        if self._instant_due[s]:
            self._instant_due[s] = False
            found = self._instant_actions(s)
            if found is not None:
                self._open("instant", {s: [{"act": "pass"}, found[0]]}, {s: [None, found[1]]}, after="g4")
                return
        self._exhausted()

    def _turn_prompt(self) -> None:
        s = self._turn
        counts = self._counts[s]
        actions: list[dict[str, Any]] = []
        extra: list[Any] = []
        win = self._self_win(s)
        if win is not None:
            actions.append(win[0])
            extra.append(win[1])
        rules = self._rules
        live = self.live_left() > 0
        drawn = self._drawn
        if live and self._back > self._front:
            only = drawn if rules.kong_tile == "drawn" else None
            pungs = {m.low: m for m in self._melds[s] if m.kind == "pung"}
            for i in range(34):
                c = counts[i]
                if not c or (only is not None and i != only):
                    continue
                if c == 4 and rules.concealed_kong:
                    actions.append({"act": "kong", "kind": "concealed", "tiles": CODES[i][0] * 4 + CODES[i][1]})
                    extra.append(("concealed", i))
                elif i in pungs and rules.added_kong:
                    actions.append({"act": "kong", "kind": "added", "tiles": CODES[i][0] * 4 + CODES[i][1]})
                    extra.append(("added", i))
        if rules.self_pung and drawn is not None and counts[drawn] >= 3 and not (s == 0 and self._e_first) \
                and len(self._melds[s]) < 4:
            actions.append({"act": "pung", "tiles": CODES[drawn][0] * 3 + CODES[drawn][1]})
            extra.append(("self_pung", drawn))
        for i in range(34):
            if counts[i]:
                actions.append({"act": "discard", "tile": CODES[i]})
                extra.append(("discard", i))
        self._instant_due[s] = False
        self._open("turn", {s: actions}, {s: extra})

    def _act(self, s: int, what: Any) -> None:
        kind = what[0]
        if kind == "win":
            self._win([(s, what[1])])
            return
        i = what[1]
        if kind == "discard":
            self._discard(s, i)
        elif kind == "concealed":
            self._self_kong(s, i, concealed=True)
        elif kind == "added":
            self._self_kong(s, i, concealed=False)
        elif kind == "self_pung":
            self._counts[s][i] -= 3
            self._melds[s].append(_Meld("pung", (i, i, i), None))
            self._declared = True
            self._emit({"event": "pung", "seat": SEATS[s], "tiles": canonical((i, i, i))})
            self._discard_prompt(s, ())
        else:  # pragma: no cover - every action kind is handled above
            raise AssertionError(kind)

    def _discard_prompt(self, s: int, forbidden: tuple[int, ...]) -> None:
        counts = self._counts[s]
        actions = []
        extra = []
        for i in range(34):
            if counts[i] and i not in forbidden:
                actions.append({"act": "discard", "tile": CODES[i]})
                extra.append(("discard", i))
        self._turn = s
        self._drawn = None
        self._open("discard", {s: actions}, {s: extra})

    def _discard(self, s: int, i: int) -> None:
        self._counts[s][i] -= 1
        self._ponds[s].append(i)
        if s == 0:
            self._e_first = False
        self._discards += 1
        self._drawn = None
        self._emit({"event": "discard", "seat": SEATS[s], "tile": CODES[i]})
        last = self.live_left() <= 0
        asked: dict[int, list[dict[str, Any]]] = {}
        extra: dict[int, list[Any]] = {}
        swap = bool(self.preset.claims.get("swap_rule"))
        sets_ok = not last or self._rules.last_discard == "any"
        first = self._discards == 1 and s == 0 and not self._declared
        o = s
        for _ in range(3):
            o = _NEXT[o]
            acts: list[dict[str, Any]] = [{"act": "pass"}]
            ext: list[Any] = [None]
            win = self._discard_win(o, i, s, last, first)
            if win is not None:
                acts.append(win[0])
                ext.append(win[1])
            if sets_ok and len(self._melds[o]) < 4:
                counts = self._counts[o]
                for kind, run, forbidden in set_claims(counts, i, SEATS[o], SEATS[s], swap=swap):
                    if kind == "kong":
                        if self._back <= self._front:
                            continue  # a kong needs a replacement
                        acts.append({"act": "kong", "kind": "exposed", "tiles": canonical(run)})
                    else:
                        if forbidden and not self._can_discard_after(counts, run, i, forbidden):
                            continue  # G10
                        acts.append({"act": kind, "tiles": canonical(run)})
                    ext.append((kind, run, forbidden))
            if len(acts) > 1:
                asked[o] = acts
                extra[o] = ext
        if asked:
            self._open("claim", asked, extra, tile=i, **{"from": s})
            return
        self._draw(_NEXT[s])

    @staticmethod
    def _can_discard_after(counts: list[int], run: tuple[int, ...], tile: int, forbidden: tuple[int, ...]) -> bool:
        left = list(counts)
        for j in _held_part(run, tile):
            left[j] -= 1
        return any(left[j] for j in range(34) if j not in forbidden)

    def _self_kong(self, s: int, i: int, concealed: bool) -> None:
        self._declared = True
        self._e_first = False
        self._kongs += 1
        code = CODES[i][0] * 4 + CODES[i][1]
        if concealed:
            self._counts[s][i] -= 4
            self._melds[s].append(_Meld("kong", (i,) * 4, None, concealed=True))
            self._emit({"event": "kong", "seat": SEATS[s], "kind": "concealed", "tiles": code})
        else:
            self._counts[s][i] -= 1
            for m in self._melds[s]:
                if m.kind == "pung" and m.low == i:
                    m.kind, m.tiles = "kong", (i,) * 4
            self._emit({"event": "kong", "seat": SEATS[s], "kind": "added", "tiles": code})
        rob = self.preset.claims.get("robbing_kong", "added")
        if rob == "none" or (concealed and rob != "added_and_concealed_orphans"):
            self._replace_kong(s)
            return
        asked: dict[int, list[dict[str, Any]]] = {}
        extra: dict[int, list[Any]] = {}
        o = s
        for _ in range(3):
            o = _NEXT[o]
            win = self._rob_win(o, i, s, concealed)
            if win is not None:
                asked[o] = [{"act": "pass"}, win[0]]
                extra[o] = [None, win[1]]
        if asked:
            self._open("rob", asked, extra, tile=i, concealed=concealed, **{"from": s})
            return
        self._replace_kong(s)

    # -------------------------------------------------------------- windows

    def _try_resolve(self) -> None:
        asked, answers, extra = self._asked, self._answers, self._extra
        frm = self._window.get("from", 0)
        best: tuple[tuple[int, int], int] | None = None
        for s, idx in answers.items():
            act = asked[s][idx]["act"]
            if act == "pass":
                continue
            key = priority(act, SEATS[s], SEATS[frm])
            if best is None or key < best[0]:
                best = (key, s)
        many = bool(self.preset.claims.get("multiple_winners"))
        for s, acts in asked.items():
            if s in answers:
                continue
            if best is None:
                return
            could = min(priority(a["act"], SEATS[s], SEATS[frm]) for a in acts if a["act"] != "pass")
            if could < best[0] or (many and best[0][0] == 0 and could[0] == 0):
                return
        phase = self._phase
        after = self._window.get("after")
        tile = self._window.get("tile")
        if best is None:  # everyone passed
            self._asked = {}
            if phase == "claim":
                self._draw(_NEXT[frm])
            elif phase == "rob":
                self._replace_kong(frm)
            elif after == "deal":
                self._e_turn()
            else:
                self._exhausted()
            return
        s = best[1]
        what = extra[s][answers[s]]
        self._asked = {}
        if what[0] == "win":
            winners = [(s, what[1])]
            if many:
                winners = [(o, extra[o][answers[o]][1]) for o in sorted(
                    answers, key=lambda o: priority("win", SEATS[o], SEATS[frm]))
                    if extra[o][answers[o]] is not None and extra[o][answers[o]][0] == "win"]
            if phase == "rob":
                self._unmake_kong(frm, tile, self._window["concealed"])
            self._win(winners)
            return
        kind, run, forbidden = what
        self._ponds[frm].pop()
        self._declared = True
        self._e_first = False
        counts = self._counts[s]
        for j in _held_part(run, tile):
            counts[j] -= 1
        if kind == "kong":
            self._melds[s].append(_Meld("kong", run, frm))
            self._emit({"event": "kong", "seat": SEATS[s], "kind": "exposed", "tiles": canonical(run),
                        "from": SEATS[frm]})
            self._kongs = 1
            self._replace_kong(s)
            return
        self._melds[s].append(_Meld(kind, run, frm))
        self._emit({"event": kind, "seat": SEATS[s], "tiles": canonical(run), "from": SEATS[frm]})
        self._kongs = 0
        self._discard_prompt(s, forbidden)

    def _unmake_kong(self, s: int, i: int, concealed: bool) -> None:
        """A robbed kong is not made: the set stays as it was, its tile goes to the robber."""
        if concealed:
            self._melds[s].pop()
            self._counts[s][i] += 3
        else:
            for m in self._melds[s]:
                if m.kind == "kong" and m.low == i and not m.concealed and len(m.tiles) == 4:
                    m.kind, m.tiles = "pung", (i,) * 3
                    break

    # ------------------------------------------------------------------ wins

    def _complete(self, s: int, counts: list[int]) -> bool:
        """The standard shape or thirteen orphans, as the core reads them (the
        scorer decides the rest: extra shapes are left to it)."""
        if self.compiled.extra_shapes:
            return True
        if core.is_complete(bytes(counts), (), None):
            return True
        return (not self._melds[s] and "thirteen_orphans" in self.preset.shapes
                and all(counts[j] for j in _ORPHANS) and sum(counts) == 14)

    def _hand_json(self, s: int, tiles: list[int], win_tile: int | None, *, self_draw: bool,
                   discarder: int | None, last_tile: bool, kong_replacement: int, robbing: bool,
                   first_turn: str | None) -> dict[str, Any]:
        out: dict[str, Any] = {"tiles": canonical([j for j in range(34) for _ in range(tiles[j])]),
                               "melds": [m.json() for m in self._melds[s]]}
        if win_tile is not None:
            out["win_tile"] = CODES[win_tile]
        out.update({
            "self_draw": self_draw, "seat_wind": SEATS[s], "round_wind": self.wind,
            "flowers": sorted(b - BONUS + 1 for b in self._bonus[s] if b < BONUS + 4),
            "seasons": sorted(b - BONUS - 3 for b in self._bonus[s] if b >= BONUS + 4),
            "discarder": None if discarder is None else SEATS[discarder], "last_tile": last_tile,
            "kong_replacement": kong_replacement, "robbing_kong": robbing, "first_turn": first_turn,
        })
        return out

    def _scored(self, hand: dict[str, Any]) -> Any:
        result = self.compiled.score(hand)
        return result if result.winnable else None

    def _self_win(self, s: int) -> tuple[dict[str, Any], Any] | None:
        counts = self._counts[s]
        drawn = self._drawn
        if drawn is None:
            return None
        complete = self._complete(s, counts)
        if not complete and not self._instant_due[s]:
            return None
        first = None
        if complete and not self._declared:
            if s == 0 and self._e_first:
                first = "deal"
            elif s != 0 and self._draws[s] == 1 and not self._by_kong:
                first = "first_draw"
        last = self.live_left() <= 0 and not self._by_kong
        kr = min(self._kongs, 2) if self._by_kong else 0
        hand = self._hand_json(s, counts, drawn if complete else None, self_draw=True, discarder=None,
                               last_tile=last, kong_replacement=kr, robbing=False, first_turn=first)
        result = self._scored(hand)
        if result is None:
            return None
        action: dict[str, Any] = {"act": "win", "faan": result.faan}
        if not complete:
            action["instant"] = True
        return action, ("win", (hand, result, None, drawn if complete else None, None))

    def _instant_actions(self, s: int) -> tuple[dict[str, Any], Any] | None:
        hand = self._hand_json(s, self._counts[s], None, self_draw=True, discarder=None, last_tile=False,
                               kong_replacement=0, robbing=False, first_turn=None)
        result = self._scored(hand)
        if result is None:
            return None
        return {"act": "win", "faan": result.faan, "instant": True}, ("win", (hand, result, None, None, None))

    def _discard_win(self, o: int, i: int, frm: int, last: bool, first: bool) -> tuple[dict[str, Any], Any] | None:
        counts = self._counts[o]
        counts[i] += 1
        try:
            if not self._complete(o, counts):
                return None
            hand = self._hand_json(o, counts, i, self_draw=False, discarder=frm, last_tile=last,
                                   kong_replacement=0, robbing=False, first_turn="first_discard" if first else None)
        finally:
            counts[i] -= 1
        result = self._scored(hand)
        if result is None:
            return None
        return {"act": "win", "faan": result.faan}, ("win", (hand, result, frm, i, None))

    def _rob_win(self, o: int, i: int, frm: int, concealed: bool) -> tuple[dict[str, Any], Any] | None:
        counts = self._counts[o]
        counts[i] += 1
        try:
            if not self._complete(o, counts):
                return None
            hand = self._hand_json(o, counts, i, self_draw=False, discarder=frm, last_tile=False,
                                   kong_replacement=0, robbing=True, first_turn=None)
        finally:
            counts[i] -= 1
        result = self._scored(hand)
        if result is None or (concealed and result.shape != "thirteen_orphans"):
            return None
        robbing = "concealed" if concealed else "added"
        return ({"act": "win", "faan": result.faan, "robbing": robbing},
                ("win", (hand, result, frm, i, robbing)))

    # ------------------------------------------------------------ settlement

    def _win(self, winners: list[tuple[int, Any]]) -> None:
        delta = None if self.points is None else {x: 0 for x in SEATS}
        faan = {x: 0 for x in SEATS}
        for n, (s, (hand, result, frm, tile, robbing)) in enumerate(winners):
            if tile is not None and frm is not None and n == 0:
                self._counts[s][tile] += 1  # the tile goes to the nearest winner
                if robbing is None:
                    self._ponds[frm].pop()
            payments = None if result.payments is None else dict(result.payments)
            self._emit({"event": "win", "seat": SEATS[s], "from": None if frm is None else SEATS[frm],
                        "tile": None if tile is None else CODES[tile], "robbing": robbing, "hand": hand,
                        "faan": result.faan, "patterns": [{"id": q.id, "faan": q.faan} for q in result.patterns],
                        "payments": payments})
            faan[SEATS[s]] += result.faan
            if delta is not None and payments is not None:
                for x in SEATS:
                    delta[x] += payments[x]
        self._end("win", SEATS[winners[0][0]], delta, faan)

    def _exhausted(self) -> None:
        self._emit({"event": "exhausted"})
        self._end("exhausted", None, None if self.points is None else {x: 0 for x in SEATS},
                  {x: 0 for x in SEATS})

    def _end(self, result: str, winner: str | None, delta: dict[str, int] | None, faan: dict[str, int]) -> None:
        self._over = True
        self._asked = {}
        self._phase = "over"
        points = None
        if delta is not None and self.points is not None:
            points = {x: self.points[x] + delta[x] for x in SEATS}
        pr = self.progress
        tally = None
        if pr.tally is not None:
            tally = {k: Tally(v.points, v.hands_won, v.faan) for k, v in pr.tally.items()}
            for x in SEATS:
                t = tally[self.seats[x]]
                if points is not None:
                    t.points = points[x]
                t.faan += faan[x]
            if winner is not None:
                tally[self.seats[winner]].hands_won += 1
        done = Progress(pr.players, pr.repeats, pr.rounds_done, tally)
        nxt, reason, self.progress = after_hand(self._rules, self.hand_no, self.wind, self.seats, winner, done)
        self._emit({"event": "end_hand", "result": result, "winner": winner, "delta": delta, "points": points,
                    "faan": faan, "next": nxt})
        if nxt is None and tally is not None:
            self._emit({"event": "end_match", "reason": reason, "standings": standings(pr.players, tally)})
        self.points = points


def _held_part(run: tuple[int, ...], tile: int) -> list[int]:
    """The tiles of a claimed set that come from the claimant's hand."""
    rest = list(run)
    rest.remove(tile)
    return rest


def legal_text(actions: list[dict[str, Any]]) -> str:
    """The kinds of action a prompt lists, in its order: ``pass, win``."""
    return ", ".join(dict.fromkeys(a["act"] for a in actions))
