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
from typing import Any, Protocol, runtime_checkable

from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.policy import decision, simple_policy

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


def builtin_bots() -> dict[str, BotFactory]:
    """The bots shipped with hkcore, by name."""
    return {"random": RandomBot, "simple": SimpleBot}


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


def make_bot(name: str, preset: Preset, seed: int = 0) -> Bot:
    """The bot ``name`` for ``preset``, seeded with ``seed``."""
    factories = available_bots()
    if not isinstance(name, str) or name not in factories:
        raise TableError(f"bot = {shown(name)}: one of {', '.join(sorted(factories))}", "bot", name)
    bot = factories[name](preset, seed)
    if not callable(getattr(bot, "decide", None)):
        raise TableError(f"bot {name!r}: its factory made {shown(bot)}, which has no decide(prompt)", "bot", name)
    return bot
