"""Deprecated: the old home of ``hkcore.table.flow.engine`` (the engine a table runs on),
kept for one release so that imports of it, and objects pickled under this name, still load."""
from __future__ import annotations

import sys
import warnings

import hkcore.table.flow.engine as _new

warnings.warn("hkcore.table.engine is now hkcore.table.flow.engine", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
