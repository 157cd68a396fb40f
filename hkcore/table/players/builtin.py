"""The bots shipped with hkcore, registered through the ``hkcore_bots`` hook
exactly as a third-party plugin's are (docs/bots.md)."""
from __future__ import annotations

from hkcore.hookspecs import hookimpl
from hkcore.table.players.bots import BotFactory, EfficiencyBot, RandomBot, SimpleBot
from hkcore.table.players.value import GuardBot, ValueBot


@hookimpl
def hkcore_bots() -> dict[str, BotFactory]:
    """The built-in bots, by name."""
    return {"random": RandomBot, "simple": SimpleBot, "efficiency": EfficiencyBot, "value": ValueBot, "guard": GuardBot}
