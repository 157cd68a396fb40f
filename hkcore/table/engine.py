"""The engine a table runs on: the compiled one (``_cengine``, built from
Cython) or its pure-Python twin (``_pyengine``), which answer identically.
The choice follows the core's (``hkcore.core.IMPLEMENTATION``):
``HKCORE_PURE_PYTHON=1`` selects the twin for both."""
from __future__ import annotations

from hkcore import core
from hkcore.table._pyengine import legal_text

if core.IMPLEMENTATION == "cython":
    try:
        from hkcore.table._cengine import IMPLEMENTATION, Engine, shuffle
    except ImportError:  # pragma: no cover - a build without the compiled engine
        from hkcore.table._pyengine import IMPLEMENTATION, Engine
        from hkcore.table.wall import shuffle
else:
    from hkcore.table._pyengine import IMPLEMENTATION, Engine
    from hkcore.table.wall import shuffle

__all__ = ["Engine", "IMPLEMENTATION", "legal_text", "shuffle"]
