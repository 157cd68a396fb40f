"""Deprecated: the old home of ``hkcore.table.players.bots`` (the bots and their registry),
kept for one release so that imports of it, and objects pickled under this name, still load."""
from __future__ import annotations

import sys
import warnings

import hkcore.table.players.bots as _new

warnings.warn("hkcore.table.bots is now hkcore.table.players.bots", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
