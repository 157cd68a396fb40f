"""Built-in policies that play a seat: ``simple`` and ``random``
(docs/table.md, "Playing from the command line")."""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from hkcore import core
from hkcore.tiles import parse_tiles

Policy = Callable[[Mapping[str, Any]], dict[str, Any]]


def decision(prompt: Mapping[str, Any], action: Mapping[str, Any]) -> dict[str, Any]:
    """The decision that answers ``prompt`` with one of its actions."""
    out = {"prompt": prompt["prompt"], "seat": prompt["seat"]}
    out.update(action)
    return out


def random_policy(rng: random.Random) -> Policy:
    """A seeded, uniformly random legal action."""
    def choose(prompt: Mapping[str, Any]) -> dict[str, Any]:
        actions = prompt["actions"]
        return decision(prompt, actions[int(rng.random() * len(actions))])
    return choose


def simple_policy() -> Policy:
    """The first legal win; else, on a turn, the discard that leaves the
    fewest tiles away (the first such in the list); else pass."""
    def choose(prompt: Mapping[str, Any]) -> dict[str, Any]:
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
    return choose


POLICIES = ("simple", "random")


def policy(name: str, rng: random.Random) -> Policy:
    """The built-in policy named ``name`` (``simple`` or ``random``)."""
    return random_policy(rng) if name == "random" else simple_policy()
