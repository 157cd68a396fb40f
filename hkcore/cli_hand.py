"""Deprecated: the old home of ``hkcore.cli.hand``, kept for one release so that imports of it still work."""
from __future__ import annotations

import sys
import warnings

import hkcore.cli.hand as _new

warnings.warn("hkcore.cli_hand is now hkcore.cli.hand", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
