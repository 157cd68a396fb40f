"""Deprecated: the old home of ``hkcore.reports.plots``, kept for one release so that imports of it still work."""
from __future__ import annotations

import sys
import warnings

import hkcore.reports.plots as _new

warnings.warn("hkcore.report_plots is now hkcore.reports.plots", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _new
