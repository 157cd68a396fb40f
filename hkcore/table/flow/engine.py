"""The engine a table runs on: the compiled one (``_cengine``, built from
Cython) or its pure-Python twin (``_pyengine``), which answer identically.
The choice follows the core's (``hkcore.core.IMPLEMENTATION``):
``HKCORE_PURE_PYTHON=1`` selects the twin for both."""
from __future__ import annotations

from typing import TYPE_CHECKING

from hkcore import core
from hkcore.table.flow.wall import legal_text

if TYPE_CHECKING:  # the compiled engine has the pure one's surface
    from hkcore.table.flow._pyengine import IMPLEMENTATION, Engine, common_line, lines
    from hkcore.table.flow.wall import canonical, codes, deal, seeded_shuffle, shuffle
elif core.IMPLEMENTATION == "cython":
    try:
        from hkcore.table.flow._cengine import (
            IMPLEMENTATION,
            Engine,
            canonical,
            codes,
            common_line,
            deal,
            lines,
            seeded_shuffle,
            shuffle,
        )
    except ImportError:  # pragma: no cover - a build without the compiled engine
        from hkcore.table.flow._pyengine import IMPLEMENTATION, Engine, common_line, lines
        from hkcore.table.flow.wall import canonical, codes, deal, seeded_shuffle, shuffle
else:
    from hkcore.table.flow._pyengine import IMPLEMENTATION, Engine, common_line, lines
    from hkcore.table.flow.wall import canonical, codes, deal, seeded_shuffle, shuffle

__all__ = ["IMPLEMENTATION", "Engine", "canonical", "codes", "common_line", "deal", "legal_text", "lines",
           "seeded_shuffle", "shuffle"]
