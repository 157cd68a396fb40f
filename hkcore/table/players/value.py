"""The ``value`` bot: plays for a hand it may declare under the preset
(docs/bots.md, "How value decides").

It reads what each pattern is worth from the preset's compiled ruleset
(``CompiledPreset.entries``, by pattern id: no table per preset), and weighs
every choice by a *plan*: the hand as it is, or the hand kept to one suit
and the honours (a flush). For each plan it counts the tiles still needed
(the core's tiles away over counts) and the faan the plan is sure of
(bonus tiles, concealment, honour pungs, the flush) or may yet gain (a
pair of scoring honours, a self-draw). A plan short of the minimum is worth
little; among plans that reach it, fewer tiles needed and more faan are
better. It always wins when it may, declines claims that leave no plan at
the minimum, and, when an opponent's declared sets show it close, never
discards a tile that opponent may win on while a safe tile of (nearly)
the same worth is there. It sees only its prompt's ``view``; it needs no generator.

The decision itself is a function of plain values read off the prompt
(``values``): ``hkcore/table/players/_pyvalue.py`` is the reference, its compiled
twin ``_cvalue.pyx`` decides where the core is compiled (the engine's hand
loop calls it too: ``hkcore.table.players.fastplay``).

>>> from hkcore.table import Table
>>> t = Table({"event": "start", "preset": "hk-classic", "seed": 3})
>>> bot = ValueBot(t.preset, 0)
>>> p = t.prompts()[0]
>>> bot.decide(p)["act"]
'discard'
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hkcore import core
from hkcore.errors import TableError, shown
from hkcore.plugins.seven_pairs import kernel_pairs
from hkcore.preset import Preset
from hkcore.table.flow.codes import ADDED, CHOW, CONCEALED, DISCARD, EXPOSED, PASS, PUNG, SELF_PUNG, WIN
from hkcore.table.players import _pyvalue
from hkcore.table.players.bots import check_prompt, decision, tile_indices
from hkcore.tiles import SEATS

if TYPE_CHECKING:  # the compiled twin has the pure one's surface
    from hkcore.table.players import _pyvalue as _twin
elif core.IMPLEMENTATION == "cython":
    try:
        from hkcore.table.players import _cvalue as _twin
    except ImportError:  # pragma: no cover - a build without the compiled bots
        from hkcore.table.players import _pyvalue as _twin
else:
    from hkcore.table.players import _pyvalue as _twin

#: which arithmetic the value bot runs on: "cython" (compiled) or "python" (its pure twin)
IMPLEMENTATION: str = _twin.IMPLEMENTATION

#: the engine's action codes of a prompt's actions, by act and kind (a pung on a turn: G9's own pung)
_CODES = {("win", None): WIN, ("pass", None): PASS, ("discard", None): DISCARD,
          ("chow", None): CHOW, ("pung", None): PUNG, ("kong", "concealed"): CONCEALED,
          ("kong", "added"): ADDED, ("kong", "exposed"): EXPOSED}


def _code(kind: str, tiles: list[int]) -> int:
    """A set code (kind * 34 + lowest tile) of a meld's kind and tiles."""
    low = min(tiles)
    if kind == "chow":
        return core.CHOW * 34 + low
    return (core.KONG if len(tiles) == 4 else core.PUNG) * 34 + low


def values(prompt: Mapping[str, Any], v: _pyvalue.ValueParams) -> tuple[Any, ...]:
    """The values the value bot decides on, read off ``prompt`` and its view: the arguments of
    ``_pyvalue.choice`` after the parameters. A prompt no table could have made is a ``TableError``."""
    try:
        out = _read(prompt, v)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise TableError(f"prompt = {shown(prompt)}: not a prompt as a table makes it ({type(exc).__name__}: "
                         f"{shown(str(exc))})", "prompt", prompt) from None
    counts, melds, _, unseen, codes, tiles, offered, live_left, seat, round_wind, _, seen_sets, ponds = out
    _pyvalue.check_position(counts, melds, unseen, codes, tiles, offered, live_left, seat, round_wind, seen_sets,
                            ponds)
    return out


def _read(prompt: Mapping[str, Any], v: _pyvalue.ValueParams) -> tuple[Any, ...]:
    view = prompt["view"]
    seat = prompt["seat"]
    s = SEATS.index(seat)
    counts = [0] * 34
    for i in tile_indices(view["tiles"]):
        counts[i] += 1
    for i in tile_indices(view["drawn"]):
        counts[i] += 1
    seen = list(counts)
    melds: list[int] = []
    claimed = False
    sets_shown = [(0, 0)] * 4
    for who, sets in view["melds"].items():
        o = SEATS.index(who)
        n, suits = 0, 0
        for m in sets:
            tiles = tile_indices(m.get("tiles"))
            for i in tiles:
                seen[i] += 1
            if who == seat:
                melds.append(_code(m["kind"], tiles))
                if not (m.get("concealed") and v.kong_keeps_concealed):
                    claimed = True
            if not m.get("concealed"):
                n += 1
                for i in tiles:
                    if i < 27:
                        suits |= 1 << (i // 9)
        sets_shown[o] = (n, suits)
    ponds: list[list[int]] = [[], [], [], []]
    for who, pond in view["ponds"].items():
        tiles = tile_indices(pond)
        ponds[SEATS.index(who)] = tiles
        for i in tiles:
            seen[i] += 1
    offered = -1
    if prompt.get("tile"):
        for i in tile_indices(prompt["tile"]):
            seen[i] += 1
            offered = i
    unseen = [max(0, 4 - n) for n in seen]
    codes: list[int] = []
    tiles_of: list[int] = []
    for a in prompt["actions"]:
        act = a["act"]
        code = _CODES[act, a.get("kind") if act == "kong" else None]
        if act == "pung" and prompt.get("phase") == "turn":
            code = SELF_PUNG
        codes.append(code)
        text = a.get("tile") or a.get("tiles")
        tiles_of.append(min(tile_indices(text)) if text else -1)
    bonus = tile_indices(view["bonus"].get(seat) or "")
    return (counts, tuple(melds), claimed, unseen, codes, tiles_of,
            offered if prompt.get("phase") == "claim" else -1, view.get("live_left", 60), s,
            SEATS.index(view.get("round", "E")), _pyvalue.fixed_faan(v, s, bonus), sets_shown, ponds)


class ValueBot:
    """Plays for a hand worth the preset's minimum: keeps a flush, concealment and honour pungs reachable,
    declines claims that leave no such hand, always wins when it may, and defends when an opponent is close.
    Needs no generator: the same prompt, the same decision."""

    name = "value"
    #: whether the engine's hand loop (``hkcore.table.players.fastplay``) plays this bot without prompts
    in_engine = True

    def __init__(self, preset: Preset, seed: int) -> None:
        self._v = _pyvalue.value_params(preset)
        #: whether the compiled twin decides: not where the preset has shapes the C kernels lack
        self._compiled = IMPLEMENTATION == "cython" and kernel_pairs(self._v.shapes.extra) is not None
        #: the parameters in the deciding twin's own form (a C struct's owner for the compiled one)
        self._p: Any = _twin.params_of(self._v) if self._compiled else self._v

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        check_prompt(prompt)
        return self._decided(prompt)

    def _decided(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        """The decision for a prompt ``check_prompt`` took."""
        actions = prompt["actions"]
        for a in actions:
            if a["act"] == "win":
                return decision(prompt, a)
        if len(actions) == 1:
            return decision(prompt, actions[0])
        return decision(prompt, actions[self._choose(prompt)])

    def _choose(self, prompt: Mapping[str, Any]) -> int:
        """The index of the chosen action (a prompt with a choice to make)."""
        choose = _twin.choice if self._compiled else _pyvalue.choice
        return choose(self._p, *values(prompt, self._v))


def dragons_shown(prompt: Mapping[str, Any]) -> list[int]:
    """By seat index, the dragon sets a seat shows (pungs and kongs not concealed), off a prompt's view."""
    out = [0] * 4
    for who, sets in prompt["view"]["melds"].items():
        for m in sets:
            if not m.get("concealed") and m.get("kind") != "chow" and tile_indices(m.get("tiles"))[:1] >= [31]:
                out[SEATS.index(who)] += 1
    return out


def win_faan(prompt: Mapping[str, Any]) -> int:
    """The faan of the discard win a claim window offers, off its ``win`` action; -1 where none is offered.
    A claim prompt no table could make is a ``TableError``."""
    if not isinstance(prompt, Mapping) or prompt.get("phase") != "claim":
        return -1
    actions = prompt.get("actions")
    if not isinstance(actions, (list, tuple)) or not all(isinstance(a, Mapping) for a in actions):
        raise TableError(f"prompt = {shown(prompt)}: its actions = {shown(actions)}, not a list of actions",
                         "prompt", prompt)
    for a in actions:
        if a.get("act") == "win":
            f = a.get("faan")
            if type(f) is not int or f < 0:
                raise TableError(f"prompt = {shown(prompt)}: its win's faan = {shown(f)}, not a whole number >= 0",
                                 "prompt", prompt)
            return f
    return -1


class GuardBot(ValueBot):
    """The value bot's attack with defence (docs/bots.md, "How guard defends"): it reckons, from what it sees,
    which opponents may be waiting and what dealing into each would cost under the preset's payments; facing
    such a threat, with its own hand far and worth less than the threats, it folds (discards the safest tile,
    and claims nothing); otherwise it plays as value. Needs no generator: the same prompt, the same decision."""

    name = "guard"

    def __init__(self, preset: Preset, seed: int, guard: _pyvalue.GuardParams | None = None) -> None:
        super().__init__(preset, seed)
        self._g = _pyvalue.guard_params(preset) if guard is None else _pyvalue.check_guard_params(guard)
        self._gp: Any = _twin.guard_params_of(self._g) if self._compiled else self._g

    def _decided(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        if self._g.decline > 0 and win_faan(prompt) >= 0:  # it may pass a discard win by
            return decision(prompt, prompt["actions"][self._choose(prompt)])
        return super()._decided(prompt)

    def _choose(self, prompt: Mapping[str, Any]) -> int:
        choose = _twin.guard_choice if self._compiled else _pyvalue.guard_choice
        args = (*values(prompt, self._v), dragons_shown(prompt), win_faan(prompt))
        return choose(self._p, self._gp, *args)
