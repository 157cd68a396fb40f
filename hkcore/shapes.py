"""Winning shapes: the standard four sets and a pair, thirteen orphans, and
the shapes plugins add through the ``hkcore_shapes`` hook.

A shape answers two questions on 34 counts of concealed tiles with k
declared sets: its readings of the concealed tiles
(``readings(counts, k, options)``, empty when they do not form it) and how
far the tiles are from it (``tiles_away(counts, k, codes, options)``: -1
complete, 0 waiting, never drawing more copies than are left beside the
declared sets ``codes``; ``used_copies(codes)`` counts those). ``is_complete``,
``waits`` and ``tiles_away`` with ``shapes=`` and the scorer use both. A
shape's reading is a tuple of ints of its own design; the scorer gives it to
detectors as ``Situation.reading`` with ``Situation.shape`` = the shape's id.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hkcore.tiles import copies_used

Readings = Callable[[list[int], int, Mapping[str, Any]], list[tuple[int, ...]]]
Distance = Callable[[list[int], int, tuple[int, ...], Mapping[str, Any]], int]


@dataclass(frozen=True)
class Shape:
    """A winning shape; ``options`` maps each option to its default (or a
    tuple of allowed values, the first the default), as for patterns."""

    id: str
    name_en: str
    name_zh: str
    readings: Readings
    tiles_away: Distance
    options: Mapping[str, Any] = field(default_factory=dict)
    doc: str = ""
    #: how a result shows a reading: [(kind, tile indices), ...] with kind one
    #: of "pair", "chow", "pung", "kong"; None shows no parts
    parts: Callable[[tuple[int, ...]], list[tuple[str, list[int]]]] | None = None


def used_copies(codes: tuple[int, ...]) -> list[int]:
    """Copies of each tile held in the declared sets ``codes`` (as
    :func:`hkcore.tiles.copies_used`)."""
    return copies_used(codes)
