"""Players for a seat (docs/bots.md): the bots, their compiled twins, and
the hand loop that plays them inside the engine.

Every player is a *bot*: it answers a seat's prompt (GAME.md §8.4) with a
decision and sees only what the prompt shows. ``bots`` holds the protocol,
the ``random``, ``simple`` and ``efficiency`` bots and the one registry of
bots (``bot_catalogue``: every bot given through the ``hkcore_bots`` hook,
the built-in ones by ``builtin`` exactly as a plugin; a broken one recorded
and skipped); ``value`` the value and guard bots; ``fastplay`` plays whole hands inside
the engine with the bots whose class says ``in_engine``. ``policy`` keeps
the old names of the simple and random bots for one release.
"""
from __future__ import annotations

from hkcore.table.players.bots import (
    ENTRY_POINT_GROUP,
    Bot,
    BotCatalogue,
    BotFactory,
    EfficiencyBot,
    RandomBot,
    SimpleBot,
    available_bots,
    bot_catalogue,
    builtin_bots,
    decision,
    make_bot,
)
from hkcore.table.players.value import GuardBot, ValueBot

__all__ = ["ENTRY_POINT_GROUP", "Bot", "BotCatalogue", "BotFactory", "EfficiencyBot", "GuardBot", "RandomBot",
           "SimpleBot", "ValueBot", "available_bots", "bot_catalogue", "builtin_bots", "decision", "make_bot"]
