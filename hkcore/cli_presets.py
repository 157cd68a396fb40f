"""Deprecated: the old home of ``hkcore.cli.presets``, kept for one release so that imports of it still work."""
from __future__ import annotations

import sys
import warnings

import hkcore.cli.presets as _new

warnings.warn("hkcore.cli_presets is now hkcore.cli.presets", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
