"""Bots: players for a seat, each a small value with one method from a
seat's prompt (GAME.md §8.4) to its decision (docs/bots.md).

A bot is made for one preset and one seed by a *factory*
``(preset, seed) -> Bot``; the same factory, preset and seed give the same
decisions for the same prompts. The built-in bots are listed by
``builtin_bots()``; third-party ones are entry points in the group
``hkcore.bots`` whose object is such a factory.

>>> from hkcore.table import Table
>>> t = Table({"event": "start", "preset": "mistboard", "seed": 5})
>>> bot = make_bot("random", t.preset, seed=1)
>>> p = t.prompts()[0]
>>> d = bot.decide(p)
>>> d["prompt"] == p["prompt"] and d["seat"] == p["seat"]
True
"""
from __future__ import annotations

import importlib.metadata
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from hkcore import core
from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.players.policy import decision, simple_policy
from hkcore.table.players.value import ValueBot
from hkcore.tiles import parse_tiles

#: the entry-point group third-party bots are found in
ENTRY_POINT_GROUP = "hkcore.bots"


@runtime_checkable
class Bot(Protocol):
    """A player for one seat: ``decide`` answers a prompt with one of its
    actions, as a decision ``Table.submit`` takes."""

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        """The decision for ``prompt`` (GAME.md §8.4, with its ``view``)."""
        ...


BotFactory = Callable[[Preset, int], Bot]


class RandomBot:
    """A uniformly random legal action, from a generator seeded with ``seed``."""

    name = "random"

    def __init__(self, preset: Preset, seed: int) -> None:
        self._rng = random.Random(seed)

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        actions = prompt["actions"]
        return decision(prompt, actions[int(self._rng.random() * len(actions))])


class SimpleBot:
    """The first legal win; else, on a turn, the discard leaving the fewest
    tiles away; else pass (the ``simple`` policy of ``hkscore play``)."""

    name = "simple"

    def __init__(self, preset: Preset, seed: int) -> None:
        self._choose = simple_policy()

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        return self._choose(prompt)


if TYPE_CHECKING:  # the compiled bots have the pure ones' surface
    from hkcore.table.players import _pybots as _arith
elif core.IMPLEMENTATION == "cython":
    try:
        from hkcore.table.players import _cbots as _arith
    except ImportError:  # pragma: no cover - a build without the compiled bots
        from hkcore.table.players import _pybots as _arith
else:
    from hkcore.table.players import _pybots as _arith

#: which arithmetic the efficiency bot runs on: "cython" (compiled) or "python" (its pure twin)
IMPLEMENTATION = "cython" if _arith.__name__.endswith("_cbots") else "python"

#: the tile index of each tile code (``"1m"`` -> 0)
_INDEX = {t.code: t.index for t in parse_tiles("123456789m123456789p123456789s1234567z")}


def _counts(tiles: str) -> list[int]:
    counts = [0] * 34
    _arith.add_counts(tiles, counts)
    return counts


def _away(counts: list[int], melds: tuple[int, ...]) -> int:
    """Tiles away of concealed ``counts`` beside the declared sets ``melds`` (set codes)."""
    return _arith.away(counts, melds)


def _code(tiles: str) -> int:
    return core.meld_code(tiles)


class Position:
    """What the efficiency bot reads off a prompt's view: the seat's
    concealed counts (the drawn tile among them), its declared sets, and
    the copies of each tile it has not seen (4 less those in its hand, in
    every declared set and pond, and the tile on offer)."""

    def __init__(self, prompt: Mapping[str, Any]) -> None:
        view = prompt["view"]
        seat = prompt["seat"]
        self.counts = _counts(view["tiles"] + (view["drawn"] or ""))
        self.melds = tuple(_code(m["tiles"]) for m in view["melds"][seat])
        seen = list(self.counts)
        add = _arith.add_counts
        for s in view["melds"].values():
            for m in s:
                if m.get("tiles"):
                    add(m["tiles"], seen)
        for pond in view["ponds"].values():
            add(pond, seen)
        if prompt.get("tile"):
            seen[_INDEX[prompt["tile"]]] += 1
        self.unseen = [max(0, 4 - n) for n in seen]

    def gain(self, counts: list[int], melds: tuple[int, ...], away: int) -> int:
        """Unseen tiles that would bring ``counts`` (13 - 3k tiles) nearer:
        for a waiting hand, the unseen copies of its waits."""
        return _arith.gain(counts, melds, self.unseen, away)

    def best_discard(self, counts: list[int], melds: tuple[int, ...], choices: list[int]) -> tuple[int, int, int]:
        """(tiles away, -gain, tile) of the best of ``choices`` to discard from
        ``counts``: fewest tiles away, then most unseen tiles that bring the
        hand nearer, then the lowest tile."""
        return _arith.best_discard(counts, melds, self.unseen, choices)


class EfficiencyBot:
    """Plays for the fewest tiles away: always wins when it may; discards
    the tile that leaves the fewest tiles away, then the most unseen tiles
    that bring the hand nearer, then the lowest tile; claims a chow, pung or
    kong, and declares a kong of its own, only when that brings the hand
    nearer (after its best discard); otherwise passes. Needs no generator:
    the same prompt, the same decision."""

    name = "efficiency"

    def __init__(self, preset: Preset, seed: int) -> None:
        pass

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        actions = prompt["actions"]
        for a in actions:
            if a["act"] == "win":
                return decision(prompt, a)
        if len(actions) == 1:
            return decision(prompt, actions[0])
        pos = Position(prompt)
        discards = [a for a in actions if a["act"] == "discard"]
        if discards:
            return decision(prompt, self._turn(pos, discards, [a for a in actions if a["act"] != "discard"]))
        return decision(prompt, self._claim(pos, prompt, actions))

    def _turn(self, pos: Position, discards: list[dict[str, Any]], others: list[dict[str, Any]]) -> dict[str, Any]:
        index = {_INDEX[a["tile"]]: a for a in discards}
        away, gain, tile = pos.best_discard(pos.counts, pos.melds, list(index))
        for a in others:  # a kong of one's own: taken when the hand, after its replacement, is no further
            if a["act"] != "kong":
                continue
            counts = list(pos.counts)
            i = parse_tiles(a["tiles"])[0].index
            code = _code(a["tiles"])
            if a.get("kind") == "added":  # the pung declared becomes the kong: one tile leaves the hand
                counts[i] -= 1
                melds = tuple(code if m == _code(a["tiles"][1:]) else m for m in pos.melds)
            else:
                counts[i] -= 4
                melds = (*pos.melds, code)
            after = _away(counts, melds)  # 13 - 3k tiles before the replacement is drawn
            if after < away or (after == away and pos.gain(counts, melds, after) >= -gain):
                return a
        return index[tile]

    def _claim(self, pos: Position, prompt: Mapping[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        now = _away(pos.counts, pos.melds)
        offered = _INDEX[prompt["tile"]]
        best: tuple[int, int] | None = None
        chosen = actions[0]  # pass comes first
        for a in actions:
            if a["act"] not in ("chow", "pung", "kong"):
                continue
            counts = list(pos.counts)
            counts[offered] += 1
            for t in parse_tiles(a["tiles"]):
                counts[t.index] -= 1
            melds = (*pos.melds, _code(a["tiles"]))
            if a["act"] == "kong":
                away = _away(counts, melds)
                key = (away, -pos.gain(counts, melds, away))
            else:
                away, gain, _ = pos.best_discard(counts, melds, [i for i in range(34) if counts[i]])
                key = (away, gain)
            if away < now and (best is None or key < best):
                best, chosen = key, a
        return chosen


def builtin_bots() -> dict[str, BotFactory]:
    """The bots shipped with hkcore, by name."""
    return {"random": RandomBot, "simple": SimpleBot, "efficiency": EfficiencyBot, "value": ValueBot}


def available_bots() -> dict[str, BotFactory]:
    """Built-in bots and those of installed packages (entry points in
    ``hkcore.bots``); a third-party bot may not take a built-in's name."""
    out: dict[str, BotFactory] = builtin_bots()
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in out:
            continue
        try:
            factory = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken third-party package must not take the built-ins down
            raise TableError(f"bot {ep.name!r} ({ep.value}): could not be loaded: {shown(str(exc))}",
                             "bots", ep.name) from None
        if not callable(factory):
            raise TableError(f"bot {ep.name!r} ({ep.value}): not a factory (preset, seed) -> Bot",
                             "bots", ep.name)
        out[ep.name] = factory
    return out


def make_bot(name: str, preset: Preset, seed: int = 0, bots: Mapping[str, BotFactory] | None = None) -> Bot:
    """The bot ``name`` for ``preset``, seeded with ``seed``, from ``bots``
    (default: ``available_bots()``, which reads the installed entry points:
    a caller making many bots passes the mapping it read once)."""
    factories = available_bots() if bots is None else bots
    if not isinstance(name, str) or name not in factories:
        raise TableError(f"bot = {shown(name)}: one of {', '.join(sorted(factories))}", "bot", name)
    bot = factories[name](preset, seed)
    if not callable(getattr(bot, "decide", None)):
        raise TableError(f"bot {name!r}: its factory made {shown(bot)}, which has no decide(prompt)", "bot", name)
    return bot
