"""Bots: players for a seat, each a small value with one method from a
seat's prompt (GAME.md §8.4) to its decision (docs/bots.md).

A bot is made for one preset and one seed by a *factory*
``(preset, seed) -> Bot``; the same factory, preset and seed give the same
decisions for the same prompts. Every bot is registered through the
``hkcore_bots`` hook (``hkcore.hookspecs``): the built-in ones by
``hkcore.table.players.builtin``, exactly as a plugin; third-party ones by
a plugin of the group ``hkcore`` implementing that hook, or as an entry
point in the group ``hkcore.bots`` whose object is a factory.
``bot_catalogue()`` reads them all; one that cannot be loaded is recorded
and skipped, like a broken pattern plugin.

>>> from hkcore.table import Table
>>> t = Table({"event": "start", "preset": "mistboard", "seed": 5})
>>> bot = make_bot("random", t.preset, seed=1)
>>> p = t.prompts()[0]
>>> d = bot.decide(p)
>>> d["prompt"] == p["prompt"] and d["seat"] == p["seat"]
True
"""
from __future__ import annotations

import importlib
import importlib.metadata
import random
import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import islice
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import pluggy

from hkcore import core, hookspecs, registry
from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.registry import PluginWarning
from hkcore.tiles import SEATS, parse_tiles

#: the entry-point group third-party bots are found in, each a factory (preset, seed) -> Bot
ENTRY_POINT_GROUP = "hkcore.bots"
#: the plugin that registers the built-in bots, exactly as a third-party plugin does
BUILTIN_PLUGIN = "hkcore.table.players.builtin"
#: the most bots one plugin's hook may give
_MOST_BOTS = 1_000


@runtime_checkable
class Bot(Protocol):
    """A player for one seat: ``decide`` answers a prompt with one of its
    actions, as a decision ``Table.submit`` takes."""

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        """The decision for ``prompt`` (GAME.md §8.4, with its ``view``)."""
        ...


BotFactory = Callable[[Preset, int], Bot]


#: a prompt's phases and acts (GAME.md §8.4), and the kinds of a kong
_PHASES = ("turn", "discard", "claim", "rob", "instant")
_ACTS = ("win", "pass", "discard", "chow", "pung", "kong")
_KONG_KINDS = ("concealed", "added", "exposed")
_MELD_KINDS = ("chow", "pung", "kong")
#: the most actions a prompt lists (a turn: a win, a kong per kind of tile, a pung, 14 discards)
_MOST_ACTIONS = 40
#: the table's own compact notation (123m55z, 1f2g): parse_tiles reads more (spaces, Unicode tiles), a bot less
_NOTATION = re.compile(r"(?:[1-9]+[mps]|[1-7]+z|[1-4]+[fg])*")
#: where each suit letter's tiles begin among the 34 (bonus tiles: 34 for flowers, 38 for seasons)
_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34, "g": 38}


def tile_indices(text: str | None) -> list[int]:
    """Tile indices of the table's own compact notation (``123m55z``, ``6z7z8s``: what a prompt holds); bonus
    tiles are 34..41 (``1f``..``4f``, ``1g``..``4g``)."""
    out: list[int] = []
    if not text:
        return out
    start = 0
    for j, ch in enumerate(text):
        if ch > "9":
            base = _BASE[ch]
            out.extend(base + int(d) - 1 for d in text[start:j])
            start = j + 1
    return out


def check_prompt(prompt: Any) -> None:
    """A ``TableError`` naming the field (``actions[2].tile``, ``view.ponds``, ...) where ``prompt`` is not
    shaped as a table's prompt (GAME.md §8.4): the fields a built-in bot reads, of the types and tile
    notation a table writes. Whether its tiles add up is the bot's own check (``check_position``)."""
    def bad(field: str, value: Any, want: str) -> TableError:
        return TableError(f"{field} = {shown(value)}: {want}, in a prompt as a table makes it", field, value)

    def tiles(field: str, text: Any, none: bool = False, sizes: tuple[int, ...] = ()) -> list[int]:
        if text is None and none:
            return []
        if not isinstance(text, str) or len(text) > 200 or not _NOTATION.fullmatch(text):
            raise bad(field, text, "tiles in the table's notation (123m55z: 1z..7z, 1f..4f, 1g..4g)")
        out = tile_indices(text)
        if sizes and (len(out) not in sizes or max(out) >= 34):
            raise bad(field, text, f"{' or '.join(map(str, sizes))} tile(s), no bonus tile")
        return out

    def by_seat(field: str, value: Any) -> Mapping[str, Any]:
        if not isinstance(value, Mapping) or set(value) != set(SEATS):
            raise bad(field, value, "an object by seat (E, S, W and N)")
        return value

    if not isinstance(prompt, Mapping):
        raise TableError(f"prompt = {shown(prompt)}: an object as a table's prompts() gives", "prompt", prompt)
    number = prompt.get("prompt")
    if type(number) is not int or number < 0:
        raise bad("prompt", number, "the prompt's number, a whole number 0 or more")
    if prompt.get("seat") not in SEATS:
        raise bad("seat", prompt.get("seat"), "a seat (E, S, W or N)")
    if prompt.get("phase") not in _PHASES:
        raise bad("phase", prompt.get("phase"), f"one of {', '.join(_PHASES)}")
    offered = (tiles("tile", prompt.get("tile"), none=prompt["phase"] != "claim", sizes=(1,))
               if "tile" in prompt or prompt["phase"] == "claim" else [])
    actions = prompt.get("actions")
    if not isinstance(actions, (list, tuple)) or not 0 < len(actions) <= _MOST_ACTIONS:
        raise bad("actions", actions, f"a list of 1 to {_MOST_ACTIONS} actions")
    discards: list[tuple[str, Any, int]] = []
    sets: list[tuple[str, Any, list[int], Any]] = []
    for j, a in enumerate(actions):
        field = f"actions[{j}]"
        if not isinstance(a, Mapping):
            raise bad(field, a, "an action object")
        if a.get("act") not in _ACTS:
            raise bad(f"{field}.act", a.get("act"), f"one of {', '.join(_ACTS)}")
        if a["act"] == "kong" and a.get("kind") not in _KONG_KINDS:
            raise bad(f"{field}.kind", a.get("kind"), "concealed, added or exposed")
        if a["act"] == "discard" or "tile" in a:
            discards.append((f"{field}.tile", a.get("tile"), tiles(f"{field}.tile", a.get("tile"), sizes=(1,))[0]))
        if a["act"] in ("chow", "pung", "kong") or "tiles" in a:
            sets.append((f"{field}.tiles", a.get("tiles"), tiles(f"{field}.tiles", a.get("tiles"), sizes=(3, 4)),
                         a.get("kind")))
    view = prompt.get("view")
    if not isinstance(view, Mapping) or "tiles" not in view or "drawn" not in view:
        raise bad("view", view, "the seat's view, an object with its tiles and drawn")
    held = tiles("view.tiles", view["tiles"]) + tiles("view.drawn", view["drawn"], none=True, sizes=(1,))
    if len(held) > 14 or any(held.count(i) > 4 for i in set(held)) or max(held, default=0) >= 34:
        raise bad("view.tiles", view["tiles"], "at most 14 concealed tiles with the one drawn, at most four of "
                                              "a kind, no bonus tile")
    for field, text, i in discards:
        if i not in held:
            raise bad(field, text, "a tile the seat holds")
    for field, text, ts, kind in sets:
        # a claim: the offered tile and held ones; a kong or pung of one's own: held (an added kong: its fourth)
        rest = list(ts)
        if offered and offered[0] in rest:
            rest.remove(offered[0])
        elif prompt["phase"] == "claim":
            raise bad(field, text, f"a set with the tile offered ({prompt['tile']})")
        if kind == "added" and not offered:
            rest = rest[:1]
        if any(rest.count(i) > held.count(i) for i in rest):
            raise bad(field, text, "a set of tiles the seat holds")
    live = view.get("live_left", 0)
    if type(live) is not int or not 0 <= live <= 144:
        raise bad("view.live_left", live, "a whole number 0..144")
    if view.get("round", "E") not in SEATS:
        raise bad("view.round", view.get("round"), "a wind (E, S, W or N)")
    for who, text in by_seat("view.ponds", view.get("ponds")).items():
        if max(tiles(f"view.ponds.{who}", text), default=0) >= 34:
            raise bad(f"view.ponds.{who}", text, "discards, no bonus tile")
    if "bonus" in view:  # (a hand-made prompt may leave the bonus tiles out)
        for who, text in by_seat("view.bonus", view["bonus"]).items():
            if min(tiles(f"view.bonus.{who}", text), default=34) < 34:
                raise bad(f"view.bonus.{who}", text, "bonus tiles (flowers 1f..4f, seasons 1g..4g)")
    for who, sets in by_seat("view.melds", view.get("melds")).items():  # (a hidden kong's tiles are null)
        if not isinstance(sets, (list, tuple)) or len(sets) > 4:
            raise bad(f"view.melds.{who}", sets, "a list of at most 4 sets")
        for j, m in enumerate(sets):
            field = f"view.melds.{who}[{j}]"
            if not isinstance(m, Mapping) or m.get("kind") not in _MELD_KINDS or "tiles" not in m:
                raise bad(field, m, "a set object with a kind (chow, pung or kong) and its tiles")
            tiles(f"{field}.tiles", m.get("tiles"), none=m["kind"] == "kong", sizes=(3, 4))


def decision(prompt: Mapping[str, Any], action: Mapping[str, Any]) -> dict[str, Any]:
    """The decision that answers ``prompt`` with one of its actions."""
    out = {"prompt": prompt["prompt"], "seat": prompt["seat"]}
    out.update(action)
    return out


class RandomBot:
    """A uniformly random legal action, from a generator seeded with ``seed``.

    ``rng``: a generator to draw from instead, as it is (what the deprecated
    ``random_policy(rng)`` plays)."""

    name = "random"
    #: whether the engine's hand loop (``hkcore.table.players.fastplay``) plays this bot without prompts
    in_engine = False

    def __init__(self, preset: Preset | None, seed: int, *, rng: random.Random | None = None) -> None:
        self._rng = random.Random(seed) if rng is None else rng

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        check_prompt(prompt)
        actions = prompt["actions"]
        return decision(prompt, actions[int(self._rng.random() * len(actions))])


class SimpleBot:
    """The first legal win; else, on a turn, the discard leaving the fewest
    tiles away; else pass (the first such in the list). Needs no generator."""

    name = "simple"
    in_engine = False

    def __init__(self, preset: Preset | None, seed: int) -> None:
        pass

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        check_prompt(prompt)
        actions = prompt["actions"]
        for a in actions:
            if a["act"] == "win":
                return decision(prompt, a)
        discards = [a for a in actions if a["act"] == "discard"]
        if not discards:
            return decision(prompt, actions[0])  # a window: pass comes first
        view = prompt["view"]
        counts = [0] * 34
        for t in parse_tiles(view["tiles"] + (view["drawn"] or "")):
            counts[t.index] += 1
        best, best_away = discards[0], 99
        for a in discards:
            i = parse_tiles(a["tile"])[0].index
            counts[i] -= 1
            away = core.tiles_away(bytes(counts))
            counts[i] += 1
            if away < best_away:
                best, best_away = a, away
        return decision(prompt, best)


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
    in_engine = True

    def __init__(self, preset: Preset, seed: int) -> None:
        pass

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        check_prompt(prompt)
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


@dataclass(frozen=True)
class BotCatalogue:
    """Every registered bot by name, where it came from, and the entries that could not be used."""

    #: name -> factory (preset, seed) -> Bot; the built-in ones first
    factories: Mapping[str, BotFactory]
    #: name -> "built in", "plugin NAME" or "entry point MODULE:ATTR"
    sources: Mapping[str, str]
    #: the plugin or entry point (by name) -> why it was skipped
    broken: Mapping[str, str]
    #: the built-in bots the engine's hand loop plays without prompts (those whose class says ``in_engine``)
    in_engine: frozenset[str]


class _EntryPointBots:
    """An entry point of ``hkcore.bots`` as a plugin: it gives its one factory under its name."""

    def __init__(self, name: str, value: str, factory: BotFactory) -> None:
        self.name, self.value, self.factory = name, value, factory

    @hookspecs.hookimpl
    def hkcore_bots(self) -> dict[str, BotFactory]:
        return {self.name: self.factory}


def bot_plugin_manager() -> tuple[pluggy.PluginManager, dict[str, str]]:
    """A plugin manager with every plugin that may give bots registered (the built-in one first, then the
    plugins of ``hkcore.registry`` that implement ``hkcore_bots``, then the entry points of ``hkcore.bots``,
    each under ``hkcore.bots:NAME``), and the plugins and entry points that could not be (name -> why)."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(importlib.import_module(BUILTIN_PLUGIN), name=BUILTIN_PLUGIN)
    broken: dict[str, str] = {}
    plugins = registry.plugin_manager()
    for impl in plugins.hook.hkcore_bots.get_hookimpls():
        name = plugins.get_name(impl.plugin) or repr(impl.plugin)
        if pm.get_plugin(name) is not None:
            continue
        try:
            pm.register(impl.plugin, name=name)
        except Exception as exc:  # noqa: BLE001 - pluggy's ValueError (one object under two names): that plugin is skipped
            broken[name] = f"plugin {name!r}: cannot give bots: {type(exc).__name__}: {shown(str(exc))}"
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        key = f"{ENTRY_POINT_GROUP}:{ep.name}"
        if pm.get_plugin(key) is not None:
            continue
        try:
            factory = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken third-party package must not take the other bots down
            broken[key] = f"bot {ep.name!r} ({ep.value}) failed to load: {type(exc).__name__}: {shown(str(exc))}"
            continue
        pm.register(_EntryPointBots(ep.name, ep.value, factory), name=key)
    return pm, broken


def bot_catalogue() -> BotCatalogue:
    """Every bot the registered plugins give (``bot_plugin_manager``), read again at each call (a caller making
    many bots keeps the catalogue it read). A plugin or entry point that fails to load, whose hook raises or
    gives something that is not a factory, or a name already taken (the first one is kept), is recorded in
    ``broken``, warned about (a ``PluginWarning``) and skipped."""
    pm, broken = bot_plugin_manager()
    factories: dict[str, BotFactory] = {}
    sources: dict[str, str] = {}
    for impl in pm.hook.hkcore_bots.get_hookimpls():  # registration order: the built-in ones first
        plugin = pm.get_name(impl.plugin) or repr(impl.plugin)
        source = ("built in" if plugin == BUILTIN_PLUGIN else f"entry point {impl.plugin.value}"
                  if isinstance(impl.plugin, _EntryPointBots) else f"plugin {plugin}")
        try:
            given = impl.function()
            items = list(islice(given.items(), _MOST_BOTS + 1)) if isinstance(given, Mapping) else None
        except Exception as exc:  # noqa: BLE001 - a plugin's hook may raise anything: that plugin is reported broken
            broken[plugin] = f"plugin {plugin!r}: hkcore_bots() raised {type(exc).__name__}: {shown(str(exc))}"
            continue
        if items is None or len(items) > _MOST_BOTS:
            broken[plugin] = (f"plugin {plugin!r}: hkcore_bots() returned {shown(given)}, not a mapping name -> "
                              f"factory of at most {_MOST_BOTS} bots")
            continue
        for name, factory in items:
            if not isinstance(name, str) or not name:
                broken[plugin] = f"plugin {plugin!r}: hkcore_bots() gave a bot named {shown(name)}"
            elif not callable(factory):
                broken[plugin] = f"bot {name!r} ({source}): {shown(factory)} is not a factory (preset, seed) -> Bot"
            elif name in factories:
                broken[plugin] = f"bot {name!r} ({source}): the name is taken by the {sources[name]} one (kept)"
            else:
                factories[name], sources[name] = factory, source
    for problem in broken.values():
        warnings.warn(problem, PluginWarning, stacklevel=2)
    return BotCatalogue(MappingProxyType(factories), MappingProxyType(sources), MappingProxyType(broken),
                        engine_bots())


def builtin_bots() -> dict[str, BotFactory]:
    """The bots shipped with hkcore, by name (those the built-in plugin gives)."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(importlib.import_module(BUILTIN_PLUGIN), name=BUILTIN_PLUGIN)
    out: dict[str, BotFactory] = {}
    for given in reversed(pm.hook.hkcore_bots()):
        out.update(given)
    return out


def engine_bots() -> frozenset[str]:
    """The built-in bots the engine's hand loop (``hkcore.table.players.fastplay``) plays without prompts:
    those whose class says ``in_engine`` (a third-party bot never is: the loop makes the built-ins' decisions)."""
    return frozenset(n for n, f in builtin_bots().items() if getattr(f, "in_engine", False) is True)


def available_bots() -> dict[str, BotFactory]:
    """Every usable bot, built-in and third-party, by name (``bot_catalogue().factories``)."""
    return dict(bot_catalogue().factories)


def make_bot(name: str, preset: Preset, seed: int = 0, bots: Mapping[str, BotFactory] | None = None) -> Bot:
    """The bot ``name`` for ``preset``, seeded with ``seed``, from ``bots``
    (default: ``available_bots()``, which reads the installed entry points:
    a caller making many bots passes the mapping it read once). A program
    (``cmd:...``) is not a name here: ``hkcore.table.players.external.bot_or_program``
    makes those, where a caller allows them."""
    factories = available_bots() if bots is None else bots
    if not isinstance(name, str) or name not in factories:
        raise TableError(f"bot = {shown(name)}: one of {', '.join(sorted(factories))}", "bot", name)
    bot = factories[name](preset, seed)
    if not callable(getattr(bot, "decide", None)):
        raise TableError(f"bot {name!r}: its factory made {shown(bot)}, which has no decide(prompt)", "bot", name)
    return bot
