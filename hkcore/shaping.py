"""Deprecated: the old name of :mod:`hkcore.questions` (kept for imports of it)."""
from __future__ import annotations

import warnings

from hkcore.questions import is_complete, readings, shape_set, tiles_away, waits

warnings.warn("hkcore.shaping is now hkcore.questions", DeprecationWarning, stacklevel=2)

__all__ = ["shape_set", "is_complete", "readings", "tiles_away", "waits"]
