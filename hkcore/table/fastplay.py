"""Deprecated: the old home of ``hkcore.table.players.fastplay`` (the bots' hand loop inside the engine),
kept for one release so that imports of it, and objects pickled under this name, still load."""
from __future__ import annotations

import sys
import warnings

import hkcore.table.players.fastplay as _new

warnings.warn("hkcore.table.fastplay is now hkcore.table.players.fastplay", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
