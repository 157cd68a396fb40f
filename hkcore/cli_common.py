"""Deprecated: the old home of ``hkcore.cli.common``, kept for one release so that imports of it still work."""
from __future__ import annotations

import sys
import warnings

import hkcore.cli.common as _new

warnings.warn("hkcore.cli_common is now hkcore.cli.common", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
