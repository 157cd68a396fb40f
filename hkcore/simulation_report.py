"""Deprecated: the old home of ``hkcore.reports.simulation`` (the rule economics report), kept for one release
so that imports of it still work."""
from __future__ import annotations

import sys
import warnings

import hkcore.reports.simulation as _new

warnings.warn("hkcore.simulation_report is now hkcore.reports.simulation", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
