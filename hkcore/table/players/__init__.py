"""Players for a seat (docs/bots.md): the bots, their compiled twins, and
the hand loop that plays them inside the engine.

A bot answers a seat's prompt (GAME.md §8.4) with a decision; it sees only
what the prompt shows. ``bots`` holds the protocol and the registry of
bots (built-in and third-party, found through one entry-point group);
``policy`` the two simplest players; ``value`` the value bot; ``fastplay``
plays whole hands with the compiled bots inside the engine.
"""
from __future__ import annotations

from hkcore.table.players.bots import (
    ENTRY_POINT_GROUP,
    Bot,
    BotFactory,
    EfficiencyBot,
    RandomBot,
    SimpleBot,
    available_bots,
    builtin_bots,
    make_bot,
)
from hkcore.table.players.value import ValueBot

__all__ = ["ENTRY_POINT_GROUP", "Bot", "BotFactory", "EfficiencyBot", "RandomBot", "SimpleBot", "ValueBot",
           "available_bots", "builtin_bots", "make_bot"]
