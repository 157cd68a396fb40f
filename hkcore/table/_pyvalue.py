"""Deprecated: the old home of ``hkcore.table.players._pyvalue`` (the value
bot's pure twin), kept for one release so that value bots pickled under
this name still load."""
from __future__ import annotations

import sys
import warnings

import hkcore.table.players._pyvalue as _new

warnings.warn("hkcore.table._pyvalue is now hkcore.table.players._pyvalue", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
