"""Deprecated: the ``simple`` and ``random`` players are the ``simple`` and
``random`` bots (``hkcore.table.players.bots``, docs/bots.md). The names here
answer for one release, each with a ``DeprecationWarning``."""
from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from hkcore.table.players.bots import RandomBot, SimpleBot, decision as _decision

#: what a bot's ``decide`` is (the type of the deprecated functions here)
Policy = Callable[[Mapping[str, Any]], dict[str, Any]]

_OLD = {"POLICIES": ('the bots "simple" and "random" (hkcore.table.players.bots.available_bots())',
                     ("simple", "random"))}


def __getattr__(name: str) -> Any:
    if name in _OLD:
        new, value = _OLD[name]
        _deprecated(name, new)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _deprecated(old: str, new: str) -> None:
    warnings.warn(f"hkcore.table.players.policy.{old} is deprecated: use {new}", DeprecationWarning, stacklevel=3)


def decision(prompt: Mapping[str, Any], action: Mapping[str, Any]) -> dict[str, Any]:
    """Deprecated: ``hkcore.table.players.bots.decision``."""
    _deprecated("decision", "hkcore.table.players.bots.decision")
    return _decision(prompt, action)


def random_policy(rng: random.Random) -> Policy:
    """Deprecated: the ``random`` bot drawing from ``rng`` (``RandomBot(preset, seed, rng=rng).decide``)."""
    _deprecated("random_policy", 'make_bot("random", preset, seed)')
    return RandomBot(None, 0, rng=rng).decide


def simple_policy() -> Policy:
    """Deprecated: the ``simple`` bot's ``decide`` (``make_bot("simple", preset)``)."""
    _deprecated("simple_policy", 'make_bot("simple", preset)')
    return SimpleBot(None, 0).decide


def policy(name: str, rng: random.Random) -> Policy:
    """Deprecated: the ``random`` bot drawing from ``rng`` if ``name`` is ``random``, else the ``simple`` bot."""
    _deprecated("policy", "make_bot(name, preset, seed)")
    return RandomBot(None, 0, rng=rng).decide if name == "random" else SimpleBot(None, 0).decide
