"""Deprecated: the old home of ``hkcore.table.players.value`` (the value bot),
kept for one release so that imports of it, and objects pickled under this name, still load."""
from __future__ import annotations

import sys
import warnings

import hkcore.table.players.value as _new

warnings.warn("hkcore.table.value is now hkcore.table.players.value", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
