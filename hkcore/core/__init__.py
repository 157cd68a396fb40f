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
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from hkcore.core import _shapeset
from hkcore.core._codes import (
    CHOW,
    FULL_SIZES,
    KONG,
    ORPHAN_TILES,
    ORPHANS,
    PUNG,
    WAIT_SIZES,
    WHEN,
    copies_used,
    set_kind,
    set_tile,
    set_tiles,
    when_facts,
)
from hkcore.core._normalize import meld_code, normalize
from hkcore.core._shapeset import CORE_SHAPES, ShapeSet

# for a type checker, the compiled core has the pure one's surface
if TYPE_CHECKING or os.environ.get("HKCORE_PURE_PYTHON", "") not in ("", "0"):
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

#: the compiled core module when it is the active implementation (its
#: ``Kernel``, ``HandReader``, ``ResultWriter``, ``bind_score``,
#: ``NATIVE_CODES`` and ``OPTION_CODES`` are used by the engine and the
#: models), else None
compiled: ModuleType | None = _impl if IMPLEMENTATION == "cython" else None

#: the standard shape alone, and the standard shape with thirteen orphans
STANDARD_ONLY = ShapeSet(False)
STANDARD_AND_ORPHANS = ShapeSet(True)


def complete_of_counts(counts: list[int], codes: tuple[int, ...], k: int,
                       shapes: ShapeSet = STANDARD_AND_ORPHANS) -> bool:
    """True when 34 concealed counts (already checked) with k declared sets
    ``codes`` form one of ``shapes``."""
    return _shapeset.complete_of_counts(_impl, counts, codes, k, shapes)


def complete_of_kernel(counts: list[int], k: int, orphans: bool, pairs: int) -> bool:
    """True when 34 concealed counts (already checked) beside k declared sets
    form the standard shape, thirteen orphans (with ``orphans``) or seven
    pairs (``pairs`` 1; 2: a four of a kind counting as two pairs), the
    shapes the core counts itself (the table engine's win check)."""
    found: bool = _impl._complete_parts(counts, (), k, orphans, pairs)
    return found


def readings_of_counts(counts: list[int], codes: tuple[int, ...], k: int,
                       shapes: ShapeSet = STANDARD_AND_ORPHANS) -> list[tuple[int, ...]]:
    """The readings of 34 concealed counts (already checked) with k declared
    sets ``codes`` in ``shapes`` (see :mod:`hkcore.core._codes`)."""
    return _shapeset.readings_of_counts(_impl, counts, codes, k, shapes)


def tiles_away_of_counts(counts: list[int], codes: tuple[int, ...], k: int,
                         shapes: ShapeSet = STANDARD_AND_ORPHANS) -> int:
    """How far 34 concealed counts (already checked) with k declared sets
    ``codes`` are from the nearest of ``shapes``: -1 complete, 0 waiting."""
    return _shapeset.tiles_away_of_counts(_impl, counts, codes, k, shapes)


def waits_of_counts(counts: list[int], codes: tuple[int, ...], k: int,
                    shapes: ShapeSet = STANDARD_AND_ORPHANS) -> list[int]:
    """The tile indices that complete 34 waiting counts (already checked)
    with k declared sets ``codes`` in one of ``shapes``, ascending; a tile
    whose four copies are held or declared is none."""
    return _shapeset.waits_of_counts(_impl, counts, codes, k, shapes)


def bind_shapes(resolve: Callable[[Any], ShapeSet]) -> tuple[Callable[..., Any], ...]:
    """is_complete, readings, tiles_away and waits with ``shapes=`` turned
    into a ShapeSet by ``resolve`` (shape ids or a preset, say)."""
    return _impl.bind_shapes(resolve)


__all__ = [
    "CHOW",
    "CORE_SHAPES",
    "FULL_SIZES",
    "IMPLEMENTATION",
    "KONG",
    "ORPHANS",
    "ORPHAN_TILES",
    "PUNG",
    "STANDARD_AND_ORPHANS",
    "STANDARD_ONLY",
    "WAIT_SIZES",
    "WHEN",
    "ShapeSet",
    "bind_shapes",
    "compiled",
    "complete_of_counts",
    "complete_of_kernel",
    "copies_used",
    "is_complete",
    "meld_code",
    "normalize",
    "readings",
    "readings_of_counts",
    "set_kind",
    "set_tile",
    "set_tiles",
    "tiles_away",
    "tiles_away_of_counts",
    "waits",
    "waits_of_counts",
    "when_facts",
]
