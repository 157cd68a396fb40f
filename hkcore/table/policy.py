"""Deprecated: the old home of ``hkcore.table.players.policy`` (the simple and random players),
kept for one release so that imports of it, and objects pickled under this name, still load."""
from __future__ import annotations

import sys
import warnings

import hkcore.table.players.policy as _new

warnings.warn("hkcore.table.policy is now hkcore.table.players.policy", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
