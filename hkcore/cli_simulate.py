"""Deprecated: the old home of ``hkcore.cli.simulate``, kept for one release so that imports of it still work."""
from __future__ import annotations

import sys
import warnings

import hkcore.cli.simulate as _new

warnings.warn("hkcore.cli_simulate is now hkcore.cli.simulate", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
