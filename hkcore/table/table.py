"""One hand at the table: the deal, turns, claims, kongs, robbing, bonus
tiles, the win and its settlement (docs/table.md).

A ``Table`` is a state machine over plain values: ``prompts()`` says who
must decide now and what they may do, ``submit(decision)`` takes one seat's
answer, and ``log`` holds the records of the hand (JSON lines when
written). Wins are scored by the preset's compiled ruleset; the table
computes no payment itself. It keeps no clock: a server that times a claim
window submits ``pass`` for a seat that runs out.

The flow itself runs in an engine (``hkcore.table.flow.engine.Engine``: the
compiled one, or its pure-Python twin); this class adds what a win is
worth, the settlement and what each seat may see.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hkcore.engine import CompiledPreset, compiled_for
from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.flow.engine import Engine, canonical
from hkcore.table.flow.rules import ROB_ADDED, ROB_NONE, ROB_ORPHANS, EngineRules
from hkcore.table.flow.wall import BONUS, CODES, SEATS
from hkcore.table.records import lines
from hkcore.table.rotation import Progress, Tally, after_hand, progress_for, standings
from hkcore.table.start import Deal, given_preset, read_start, resolve_preset
from hkcore.tiles import parse_tiles

_ROB = {"none": ROB_NONE, "added": ROB_ADDED, "added_and_concealed_orphans": ROB_ORPHANS}


def engine_rules(preset: Preset, compiled: CompiledPreset | None = None) -> EngineRules:
    """The rules the engine plays ``preset`` by (its ``[table]`` and ``[claims]`` sections, and what its
    compiled ruleset, ``compiled`` or ``compiled_for(preset)``, says of instant wins and shapes)."""
    c = compiled if compiled is not None else compiled_for(preset)
    r = preset.table
    return EngineRules(
        concealed_kong=r.concealed_kong, added_kong=r.added_kong, kong_tile_drawn_only=r.kong_tile == "drawn",
        self_pung=r.self_pung, last_discard_any=r.last_discard == "any",
        swap_rule=bool(preset.claims.get("swap_rule")), robbing=_ROB[preset.claims.get("robbing_kong", "added")],
        multiple_winners=bool(preset.claims.get("multiple_winners")), instant_wins=bool(c.has_instant),
        thirteen_orphans="thirteen_orphans" in preset.shapes, extra_shapes=bool(c.extra_shapes),
        replacement_from_front=r.replacement == "front", seven_pairs=c.kernel_pairs or 0)


class Table(Engine):
    """One hand under a preset, from a ``start`` record (GAME.md §8.1: an
    explicit wall or a seed).

    >>> t = Table({"event": "start", "preset": "hk-classic", "seed": 7})
    >>> [p["seat"] for p in t.prompts()], t.prompts()[0]["phase"]
    (['E'], 'turn')
    """

    def __init__(self, start: Mapping[str, Any], preset: Preset | str | None = None, *,
                 progress: Progress | None = None) -> None:
        """``preset``, when given (a preset id, a path to a preset file, TOML
        text or a Preset), is played instead of the one ``start`` names."""
        given = None if preset is None else given_preset(preset, "preset")
        self._begin(read_start(start, given), given is None, progress)

    @classmethod
    def dealt(cls, deal: Deal, progress: Progress | None = None, like: Table | None = None) -> Table:
        """A table from a deal already made and checked (``hkcore.table.start``);
        ``like``, a table of the same preset, lends it the compiled ruleset."""
        t = cls.__new__(cls)
        t._begin(deal, False, progress, like)
        return t

    def _begin(self, d: Deal, by_reference: bool, progress: Progress | None, like: Table | None = None) -> None:
        p = d.preset
        self.preset = p
        #: how a pickled table finds its preset again: the record's, unless one was given
        self._preset_ref = d.record["preset"] if by_reference else None
        rec = d.record
        self.hand_no: int = rec["hand"]
        self.wind: str = rec["round"]
        self.seats: dict[str, str] = rec["seats"]
        self.points: dict[str, int] | None = rec["points"]
        self.progress = progress if progress is not None else progress_for(
            self.seats, self.wind, self.hand_no, self.points)
        self.log: list[dict[str, Any]] = [rec]
        self._given_e = rec["hands"]["E"]
        self._e_last = d.e_last
        same = like is not None and like.preset is p
        self._compiled: CompiledPreset | None = like._compiled if same else None  # type: ignore[union-attr]
        self._rules: EngineRules = like._rules if same else engine_rules(p, self.compiled)  # type: ignore[union-attr]
        self.no_wins = None  # a run that keeps the complete hands found not winnable gives the table its set
        self._setup([list(h) for h in d.hands], list(d.wall), p.table.dead_wall, self._rules, SEATS.index(self.wind))
        if self._deal_bonus():
            self._after_deal()

    # ------------------------------------------------------------------ state

    def _values(self) -> dict[str, Any]:
        """The table's own values (the log included), without the preset and its compiled ruleset."""
        out = {k: v for k, v in self.__dict__.items() if k not in ("_compiled", "preset", "_no_wins", "quiet")}
        out["log"] = self.log
        out["_texts"] = self._texts
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (self.preset if self._preset_ref is None else None, self._values(), self._engine_state(),
                          self.quiet)

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        import copy
        new = Table.__new__(Table)
        for k, v in copy.deepcopy(self._values(), memo).items():
            setattr(new, k, v)
        new.preset = self.preset  # immutable: shared
        new._compiled = self._compiled
        new._load_engine_state(self._engine_state())
        new.quiet = self.quiet
        return new

    def log_lines(self) -> str:
        """The log as JSON lines, each ended by a newline (as ``hkscore play`` writes it)."""
        return lines(self.log, self._texts)

    def copy(self) -> Table:
        """An independent copy of the table: it plays on from here alone."""
        import copy
        return copy.deepcopy(self)

    @property
    def compiled(self) -> CompiledPreset:
        """The preset's compiled ruleset, which scores every win."""
        if self._compiled is None:
            self._compiled = compiled_for(self.preset)
        return self._compiled

    # ------------------------------------------------------------------ views

    def view(self, seat: str) -> dict[str, Any]:
        """What ``seat`` may see now (GAME.md §8.4 ``view``)."""
        if seat not in SEATS:
            raise TableError(f"seat = {shown(seat)}: not a seat (E, S, W or N)", "seat", seat)
        tiles, drawn, melds, bonus, ponds, held = self._seen(SEATS.index(seat),
                                                            not self.preset.table.show_concealed_kongs)
        return {"seat": seat, "hand": self.hand_no, "round": self.wind, "live_left": self.live_left(),
                "tiles": tiles, "drawn": drawn, "melds": melds, "bonus": bonus, "ponds": ponds, "held": held,
                "points": None if self.points is None else dict(self.points)}

    def _g15_tile(self) -> int:
        """G15: the last tile of hands.E as written (a hand tile)."""
        if self._e_last >= 0:
            return self._e_last
        return [t.index for t in parse_tiles(self._given_e) if not t.is_bonus][-1]

    # ------------------------------------------------------------------ wins

    def _hand_json(self, s: int, counts: list[int], win_tile: int, *, self_draw: bool, discarder: int,
                   last_tile: bool, kong_replacement: int, robbing: bool, first_turn: str | None) -> dict[str, Any]:
        tiles: list[int] = []
        for j, c in enumerate(counts):
            if c:
                tiles += (j,) * c
        out: dict[str, Any] = {"tiles": canonical(tiles), "melds": self._melds_json(s)}
        if win_tile >= 0:
            out["win_tile"] = CODES[win_tile]
        bonus = self._bonus_of(s)
        out.update({
            "self_draw": self_draw, "seat_wind": SEATS[s], "round_wind": self.wind,
            "flowers": sorted(b - BONUS + 1 for b in bonus if b < BONUS + 4),
            "seasons": sorted(b - BONUS - 3 for b in bonus if b >= BONUS + 4),
            "discarder": None if discarder < 0 else SEATS[discarder], "last_tile": last_tile,
            "kong_replacement": kong_replacement, "robbing_kong": robbing, "first_turn": first_turn,
        })
        return out

    def _scored(self, hand: dict[str, Any]) -> Any:
        result = self.compiled.score(hand)
        return result if result.winnable else None

    def _self_win(self, s: int) -> tuple[dict[str, Any], Any] | None:
        drawn = self._drawn
        if drawn < 0:
            return None
        counts = self._counts_of(s)
        complete = self._winning_shape(s, counts)
        if not complete and not self._instant_is_due(s):
            return None
        first = None
        if complete and not self._declared:
            if s == 0 and self._e_first:
                first = "deal"
            elif s != 0 and self._draws_of(s) == 1 and not self._by_kong:
                first = "first_draw"
        last = self.live_left() <= 0 and not self._by_kong
        kr = min(self._kongs, 2) if self._by_kong else 0
        hand = self._hand_json(s, counts, drawn if complete else -1, self_draw=True, discarder=-1,
                               last_tile=last, kong_replacement=kr, robbing=False, first_turn=first)
        result = self._scored(hand)
        if result is None:
            return None
        action: dict[str, Any] = {"act": "win", "faan": result.faan}
        if not complete:
            action["instant"] = True
        return action, (hand, result, -1, drawn if complete else -1, None)

    def _instant_win(self, s: int) -> tuple[dict[str, Any], Any] | None:
        hand = self._hand_json(s, self._counts_of(s), -1, self_draw=True, discarder=-1, last_tile=False,
                               kong_replacement=0, robbing=False, first_turn=None)
        result = self._scored(hand)
        if result is None:
            return None
        return {"act": "win", "faan": result.faan, "instant": True}, (hand, result, -1, -1, None)

    def _discard_win(self, o: int, i: int, frm: int, last: bool, first: bool) -> tuple[dict[str, Any], Any] | None:
        counts = self._counts_of(o)
        counts[i] += 1
        hand = self._hand_json(o, counts, i, self_draw=False, discarder=frm, last_tile=last,
                               kong_replacement=0, robbing=False, first_turn="first_discard" if first else None)
        result = self._scored(hand)
        if result is None:
            return None
        return {"act": "win", "faan": result.faan}, (hand, result, frm, i, None)

    def _rob_win(self, o: int, i: int, frm: int, concealed: bool) -> tuple[dict[str, Any], Any] | None:
        counts = self._counts_of(o)
        counts[i] += 1
        hand = self._hand_json(o, counts, i, self_draw=False, discarder=frm, last_tile=False,
                               kong_replacement=0, robbing=True, first_turn=None)
        result = self._scored(hand)
        if result is None or (concealed and result.shape != "thirteen_orphans"):
            return None
        robbing = "concealed" if concealed else "added"
        return {"act": "win", "faan": result.faan, "robbing": robbing}, (hand, result, frm, i, robbing)

    # ------------------------------------------------------------ settlement

    def _win(self, winners: list[tuple[int, Any]]) -> None:
        delta = None if self.points is None else {x: 0 for x in SEATS}
        faan = {x: 0 for x in SEATS}
        for n, (s, (hand, result, frm, tile, robbing)) in enumerate(winners):
            if tile >= 0 and frm >= 0 and n == 0:
                self._give(s, tile, frm if robbing is None else -1)  # the tile goes to the nearest winner
            payments = None if result.payments is None else dict(result.payments)
            self._add_record({"event": "win", "seat": SEATS[s], "from": None if frm < 0 else SEATS[frm],
                             "tile": None if tile < 0 else CODES[tile], "robbing": robbing, "hand": hand,
                             "faan": result.faan, "patterns": [{"id": q.id, "faan": q.faan} for q in result.patterns],
                             "payments": payments})
            faan[SEATS[s]] += result.faan
            if delta is not None and payments is not None:
                for x in SEATS:
                    delta[x] += payments[x]
        self._end("win", SEATS[winners[0][0]], delta, faan)

    def _exhausted(self) -> None:
        self._add_record({"event": "exhausted"}, '{"event":"exhausted"}')
        self._end("exhausted", None, None if self.points is None else {x: 0 for x in SEATS},
                  {x: 0 for x in SEATS})

    def _end(self, result: str, winner: str | None, delta: dict[str, int] | None, faan: dict[str, int]) -> None:
        self._finish()
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
        nxt, reason, self.progress = after_hand(self.preset.table, self.hand_no, self.wind, self.seats, winner,
                                                done)
        self._add_record({"event": "end_hand", "result": result, "winner": winner, "delta": delta, "points": points,
                   "faan": faan, "next": nxt})
        if nxt is None and tally is not None:
            self._add_record({"event": "end_match", "reason": reason, "standings": standings(pr.players, tally)})
        self.points = points


def _rebuild(preset: Preset | None, extra: dict[str, Any], state: tuple[Any, ...], quiet: bool = False) -> Table:
    t = Table.__new__(Table)
    if "texts" in extra:  # pickled by hkcore 0.1.0, when the engine's names were public
        extra = {("_texts" if k == "texts" else k): v for k, v in extra.items() if k != "_codes"}
    for k, v in extra.items():
        setattr(t, k, v)
    t.preset = preset if preset is not None else resolve_preset(t._preset_ref)
    t._compiled = None
    t._load_engine_state(state)
    t.quiet = quiet
    return t
