"""The decomposition core: complete or not, readings, tiles away, waits.

Two implementations answer identically: the compiled one (``_ccore``, built
from Cython) and a pure-Python twin (``_pycore``) kept as the reference.
The compiled core is used when it can be imported; setting the environment
variable ``HKCORE_PURE_PYTHON=1`` forces the twin. ``IMPLEMENTATION`` says
which one is active: ``"cython"`` or ``"python"``.

Every function takes the concealed tiles as a notation string
(``"123m456p789s11z"``), an iterable of tiles or tile codes, or 34 counts
(a list, tuple or bytes in tile-index order), plus the declared sets
(``melds``: strings like ``"555z"``, ``Meld`` objects or set codes). With
melds, their number is k; without, k is read from the tile count
(13 - 3k or 14 - 3k). ``shapes`` is None (the standard shape and thirteen
orphans) or a ``ShapeSet``: the core knows no preset or plugin registry
(``hkcore.is_complete`` and friends also take shape ids or a preset).
Readings and set codes are described in :mod:`hkcore.core._codes`.
"""
from __future__ import annotations

import os
import warnings

from hkcore.core._codes import CHOW, KONG, ORPHANS, PUNG, set_kind, set_tile, set_tiles
from hkcore.core._shaped import ShapeSet

if os.environ.get("HKCORE_PURE_PYTHON", "") not in ("", "0"):
    from hkcore.core import _pycore as _impl
else:
    try:
        from hkcore.core import _ccore as _impl
    except ImportError as exc:  # pragma: no cover - only without a build
        warnings.warn(
            f"hkcore: the compiled core is not built here ({type(exc).__name__}); using the pure-Python core "
            "(same answers, slower). In a source checkout, build it with `python setup.py build_ext --inplace`, "
            "or run from outside the checkout to use the installed package.",
            RuntimeWarning,
            stacklevel=2,
        )
        from hkcore.core import _pycore as _impl

IMPLEMENTATION: str = _impl.IMPLEMENTATION
is_complete = _impl.is_complete
readings = _impl.readings
tiles_away = _impl.tiles_away
waits = _impl.waits

__all__ = [
    "IMPLEMENTATION",
    "ShapeSet",
    "is_complete",
    "readings",
    "tiles_away",
    "waits",
    "CHOW",
    "PUNG",
    "KONG",
    "ORPHANS",
    "set_kind",
    "set_tile",
    "set_tiles",
]
