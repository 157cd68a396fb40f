"""Deprecated: the old home of ``hkcore.table.players._cvalue`` (the value
bot's compiled twin), kept for one release so that value bots pickled under
this name still load."""
from __future__ import annotations

import sys
import warnings

import hkcore.table.players._cvalue as _new  # type: ignore[import-not-found]

warnings.warn("hkcore.table._cvalue is now hkcore.table.players._cvalue", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
