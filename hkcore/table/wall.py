"""Deprecated: the old home of ``hkcore.table.flow.wall`` (the wall: shuffling and dealing),
kept for one release so that imports of it, and objects pickled under this name, still load."""
from __future__ import annotations

import sys
import warnings

import hkcore.table.flow.wall as _new

warnings.warn("hkcore.table.wall is now hkcore.table.flow.wall", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
