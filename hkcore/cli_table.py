"""Deprecated: the old home of ``hkcore.cli.table``, kept for one release so that imports of it still work."""
from __future__ import annotations

import sys
import warnings

import hkcore.cli.table as _new

warnings.warn("hkcore.cli_table is now hkcore.cli.table", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
