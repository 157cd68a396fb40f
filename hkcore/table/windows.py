"""Who is asked in a window: the engine's way, or every seat (docs/server.md, "What a seat sees").

The engine asks only the seats that have a legal claim on a discard (GAME.md G11), and a kong only of the
seats that could rob it, so a server that shows a window only to the seats asked tells everyone, by the
window itself or by the time it takes, that some seat could claim. ``Windows`` plays a game (a ``Table`` or
a ``Match``) behind one surface, ``prompts()``, ``submit()``, ``view(seat)`` and ``hand_log()``, and with
``open_claims`` asks every other seat on every discard, and on every kong of a kind the preset lets be
robbed (the Board Game Arena way): a seat with no claim is asked with just ``pass``. Such a window is held
here, outside the engine: the discard (or kong) is shown at once, the answers kept, and only once every
seat asked has answered are the discard and the answers of the seats the engine asks given to the engine,
which settles the window as it always does (the order of the answers never decides, GAME.md §3.4). So the
window closes at the same moment whoever could claim, and the engine never runs ahead of what is shown.
The engine keeps no clock: a server times the window and passes for a seat that runs out, as for any other.

While a window is held the engine has not yet seen the discard: what each seat sees then (``view``) is the
engine's own view of a copy that was given the discard, when the engine opens a window on it too, and
otherwise the view just before it with the discard (or kong) laid down (``after_discard``, ``after_kong``);
tests/test_windows.py holds the two ways equal.

Prompts are numbered here, one number per prompt shown (a held window is one), rising through a whole
match; ``submit`` takes that number.

>>> from hkcore.table import Table
>>> w = Windows(Table({"event": "start", "preset": "hk-classic", "seed": 3}), open_claims=True)
>>> [turn] = w.prompts(views=False)
>>> discard = next(a for a in turn["actions"] if a["act"] == "discard")
>>> w.submit({"prompt": turn["prompt"], "seat": "E", **discard}) == [{"event": "discard", "seat": "E", **{
...     "tile": discard["tile"]}}]
True
>>> sorted(p["seat"] for p in w.prompts(views=False)), w.hand_log()[-1]["event"]
(['N', 'S', 'W'], 'discard')
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hkcore.errors import TableError, shown
from hkcore.table.flow.engine import legal_text
from hkcore.table.match import Match
from hkcore.table.table import Table
from hkcore.tiles import SEATS, format_tiles, parse_tiles

#: the one action of a seat asked in an open window that has no claim
PASS = {"act": "pass"}
#: the kongs each ``[claims] robbing_kong`` lets be robbed (an open window is held on them)
ROBBED = {"none": frozenset(), "added": frozenset({"added"}),
          "added_and_concealed_orphans": frozenset({"added", "concealed"})}


@dataclass
class Held:
    """A window held outside the engine: the discard or kong shown, the decision that made it (given to
    the engine once the window closes), and each seat asked with its actions and its answer so far."""

    record: dict[str, Any]
    decision: dict[str, Any]
    phase: str
    frm: str
    tile: str
    #: every other seat, in turn order after ``frm``: its actions (the engine's, or just ``pass``)
    actions: dict[str, list[dict[str, Any]]]
    #: the seats the engine itself asks (their answers go to the engine)
    engine: frozenset[str]
    #: what each seat sees while the window is open
    views: dict[str, dict[str, Any]]
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)


def _less(tiles: str, drawn: str | None, gone: str, times: int) -> str:
    """``tiles`` and ``drawn`` less ``times`` of ``gone``, canonical."""
    held = [t.code for t in parse_tiles(tiles + (drawn or ""))]
    for _ in range(times):
        held.remove(gone)
    return format_tiles("".join(held)) if held else ""


def after_discard(view: Mapping[str, Any], seat: str, tile: str) -> dict[str, Any]:
    """``view`` (a seat's, GAME.md §8.4) once ``seat`` has discarded ``tile``, before anyone claims it or
    draws: the tile on its pond, one tile fewer held; for ``seat``'s own view, gone from its hand and
    nothing drawn."""
    out = dict(view)
    out["ponds"] = {**view["ponds"], seat: view["ponds"][seat] + tile}
    out["held"] = {**view["held"], seat: view["held"][seat] - 1}
    if view["seat"] == seat:
        out["tiles"] = _less(view["tiles"], view["drawn"], tile, 1)
        out["drawn"] = None
    return out


def after_kong(view: Mapping[str, Any], record: Mapping[str, Any], hide: bool) -> dict[str, Any]:
    """``view`` once the self kong ``record`` (concealed or added) is declared, before its replacement is
    drawn: an added kong in its pung's place, a concealed one after the other sets (its tiles null to
    the other seats with ``hide``); the tiles it took gone from the hand, nothing drawn."""
    seat, tiles, kind = record["seat"], record["tiles"], record["kind"]
    tile = parse_tiles(tiles)[0].code
    out = dict(view)
    melds = [dict(m) for m in view["melds"][seat]]
    if kind == "added":
        three = format_tiles(tile * 3)
        pung = next(i for i, m in enumerate(melds) if m["kind"] == "pung" and m["tiles"] == three)
        melds[pung] = {**melds[pung], "kind": "kong", "tiles": tiles}
        took = 1
    else:
        melds.append({"kind": "kong", "tiles": None if hide and view["seat"] != seat else tiles, "concealed": True})
        took = 4
    out["melds"] = {**view["melds"], seat: melds}
    out["held"] = {**view["held"], seat: view["held"][seat] - took}
    if view["seat"] == seat:
        out["tiles"] = _less(view["tiles"], view["drawn"], tile, took)
        out["drawn"] = None
    return out


def _matched(actions: Sequence[dict[str, Any]], decision: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """The action of ``actions`` that ``decision`` names (matched on act, kind and tiles or tile, as the
    engine matches them); a TableError naming the field otherwise."""
    act = decision.get("act")
    same = [a for a in actions if a["act"] == act]
    if not same:
        raise TableError(f"act = {shown(act)}: not legal for {seat} (legal: {legal_text(list(actions))})", "act", act)
    for name in ("kind", "tiles", "tile"):
        wanted = [a for a in same if a.get(name) == decision.get(name)]
        if not wanted:
            value = decision.get(name)
            raise TableError(f"{name} = {shown(value)}: {act} not legal for {seat} with it (legal: "
                             f"{legal_text(list(actions))})", name, value)
        same = wanted
    return dict(same[0])


class Windows:
    """``game`` (a ``Table`` or a ``Match``) with its windows asked the engine's way, or, with
    ``open_claims``, of every other seat on every discard and robbable kong (see the module)."""

    def __init__(self, game: Table | Match, open_claims: bool = False) -> None:
        self.game = game
        self.open_claims = open_claims
        self.held: Held | None = None
        #: the number of the prompts shown now, and what it stands for (the hand and the engine's number, or
        #: the held window)
        self.number = 0
        self._key: tuple[object, int | None] | None = None
        self._renumber()

    @property
    def hand(self) -> Table:
        """The hand in play (a match's current one)."""
        return self.game.table if isinstance(self.game, Match) else self.game

    def _renumber(self) -> None:
        key: tuple[object, int | None]
        if self.held is not None:
            key = (self.held, None)
        else:
            open_ = self.game.prompts(views=False)
            key = (self.hand, open_[0]["prompt"] if open_ else None)
        if self._key is None or key[0] is not self._key[0] or key[1] != self._key[1]:
            self.number += 1
            self._key = key

    # ----------------------------------------------------------------- reading

    def hand_log(self) -> list[dict[str, Any]]:
        """The records of the hand in play as they may be seen now: the engine's, and the discard or kong
        of a window held."""
        log = self.hand.log
        return log if self.held is None else [*log, self.held.record]

    def view(self, seat: str) -> dict[str, Any]:
        """What ``seat`` sees of the hand in play now (``Table.view``; while a window is held, with its
        discard or kong laid down)."""
        if self.held is not None:
            return self.held.views[seat]
        return self.hand.view(seat)

    def prompts(self, views: bool = True) -> list[dict[str, Any]]:
        """The prompts open now, one per seat still to answer, numbered here (``[]`` once the game is over)."""
        h = self.held
        if h is None:
            return [{**p, "prompt": self.number} for p in self.game.prompts(views)]
        out = []
        for s, actions in h.actions.items():
            if s in h.answers:
                continue
            p: dict[str, Any] = {"prompt": self.number, "seat": s, "phase": h.phase, "tile": h.tile,
                                 "from": h.frm, "actions": [dict(a) for a in actions]}
            if views:
                p["view"] = h.views[s]
            out.append(p)
        return out

    # ----------------------------------------------------------------- changes

    def submit(self, decision: Any) -> list[dict[str, Any]]:
        """One seat's answer to its prompt (numbered as ``prompts`` numbers it); the records it lets be
        seen: the game's records, less the held window's discard or kong once shown. A decision not on
        offer raises a TableError naming the field, and nothing changes."""
        if not isinstance(decision, Mapping):
            raise TableError(f"decision: a JSON object, not {shown(decision)}", "decision", decision)
        n = decision.get("prompt")
        if type(n) is not int or n != self.number:
            raise TableError(f"prompt = {shown(n)}: not the open prompt ({self.number})", "prompt", n)
        if self.held is not None:
            out = self._answer(decision)
        else:
            assert self._key is not None
            engine = self._key[1]  # the engine's number of the prompt open now (None: nothing is asked)
            d = {**decision, "prompt": -1 if engine is None else engine}
            out = self._hold(d) if self.open_claims and self._opens(d) else self.game.submit(d)
        self._renumber()
        return out

    def _opens(self, d: Mapping[str, Any]) -> bool:
        """Whether decision ``d`` opens a window held for every seat: a discard, or a kong of a kind the
        preset lets be robbed."""
        act = d.get("act")
        if act == "discard":
            return True
        robbed = ROBBED.get(self.hand.preset.claims.get("robbing_kong", "added"), frozenset())
        return act == "kong" and d.get("kind") in robbed

    def _hold(self, d: dict[str, Any]) -> list[dict[str, Any]]:
        """Hold the window decision ``d`` opens (tried first on a copy of the hand, which refuses it as the
        hand would, and says whom the engine asks); the discard or kong it shows."""
        hand = self.hand
        trial = hand.copy()
        made = trial.submit(d)
        record = made[0]  # the discard or kong comes first
        phase = "claim" if record["event"] == "discard" else "rob"
        frm = record["seat"]
        tile = record["tile"] if phase == "claim" else parse_tiles(record["tiles"])[0].code
        asked = trial.prompts(views=False) if len(made) == 1 else []
        asked = [p for p in asked if p["phase"] == phase]
        theirs = {p["seat"]: p["actions"] for p in asked}
        i = SEATS.index(frm)
        order = [SEATS[(i + k) % 4] for k in (1, 2, 3)]
        if asked:
            views = {s: trial.view(s) for s in SEATS}
        elif phase == "claim":
            views = {s: after_discard(hand.view(s), frm, tile) for s in SEATS}
        else:
            hide = not hand.preset.table.show_concealed_kongs
            views = {s: after_kong(hand.view(s), record, hide) for s in SEATS}
        self.held = Held(record=record, decision=d, phase=phase, frm=frm, tile=tile,
                         actions={s: theirs.get(s, [PASS]) for s in order}, engine=frozenset(theirs), views=views)
        return [record]

    def _answer(self, decision: Mapping[str, Any]) -> list[dict[str, Any]]:
        h = self.held
        assert h is not None
        seat = decision.get("seat")
        if seat not in h.actions or seat in h.answers:
            still = ", ".join(s for s in h.actions if s not in h.answers)
            raise TableError(f"seat = {shown(seat)}: not asked in prompt {self.number} (asked: {still})", "seat", seat)
        h.answers[seat] = _matched(h.actions[seat], decision, seat)
        if len(h.answers) < len(h.actions):
            return []
        # every seat has answered: the engine gets the discard (or kong), then the answers of the seats it asks
        self.held = None
        made = list(self.game.submit(h.decision))
        hand = self.hand
        window = [p["prompt"] for p in self.game.prompts(views=False) if p["phase"] == h.phase]
        for s in h.actions:
            if s not in h.engine or self.hand is not hand:
                continue
            # the seat, if the engine's window on it is still open (settled already: a win by a nearer seat,
            # which may have ended the hand, asks no more)
            q = next((p for p in self.game.prompts(views=False) if p["seat"] == s and p["prompt"] in window), None)
            if q is not None:
                made += self.game.submit({"prompt": q["prompt"], "seat": s, **h.answers[s]})
        return made[1:]
