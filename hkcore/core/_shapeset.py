"""The four core questions over a set of shapes given as plain data.

Both core implementations answer for the standard shape and thirteen
orphans; other shapes (seven pairs, say) answer through their own
``readings`` and ``tiles_away`` functions. A ``ShapeSet`` says which are in
play; the core knows no preset and no plugin registry, so turning shape ids
or a preset into a ``ShapeSet`` is done above it (``hkcore.shape_lookup``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, NamedTuple

from hkcore.core._normalize import normalize
from hkcore.errors import HandError
from hkcore.tiles import TILES, Tile, copies_used

CORE_SHAPES = ("standard", "thirteen_orphans")


class ShapeSet(NamedTuple):
    """The winning shapes in play, as plain data: thirteen orphans on or off,
    and each further shape (an object with ``readings(counts, k, options)``
    and ``tiles_away(counts, k, codes, options)``) with its options."""

    orphans: bool
    extra: tuple[tuple[Any, Mapping[str, Any]], ...] = ()


def plain(shapes: Any) -> ShapeSet:
    """``shapes`` checked to be a ShapeSet."""
    if type(shapes) is not ShapeSet:
        raise HandError(f"shapes: the core takes a ShapeSet, not {type(shapes).__name__} "
                        "(hkcore.is_complete and friends take shape ids or a preset)", "shapes", shapes)
    return shapes


def bind(impl: ModuleType, resolve: Callable[[Any], ShapeSet]) -> tuple[Callable[..., Any], ...]:
    """``impl``'s is_complete, readings, tiles_away and waits with their
    ``shapes=`` argument turned into a ShapeSet by ``resolve``."""
    def is_complete(tiles: Any, melds: Any = (), shapes: Any = None) -> bool:
        found: bool = impl.is_complete(tiles, melds, None if shapes is None else resolve(shapes))
        return found

    def readings(tiles: Any, melds: Any = (), shapes: Any = None) -> list[tuple[int, ...]]:
        found: list[tuple[int, ...]] = impl.readings(tiles, melds, None if shapes is None else resolve(shapes))
        return found

    def tiles_away(tiles: Any, melds: Any = (), shapes: Any = None) -> int:
        found: int = impl.tiles_away(tiles, melds, None if shapes is None else resolve(shapes))
        return found

    def waits(tiles: Any, melds: Any = (), shapes: Any = None) -> list[Tile]:
        found: list[Tile] = impl.waits(tiles, melds, None if shapes is None else resolve(shapes))
        return found

    out = (is_complete, readings, tiles_away, waits)
    for f in out:
        f.__doc__ = getattr(impl, f.__name__).__doc__
    return out


def complete_of_counts(impl: ModuleType, counts: list[int], codes: tuple[int, ...], k: int,
                       shapes: ShapeSet) -> bool:
    orphans, extra = shapes
    if impl._complete_parts(counts, codes, k, orphans):
        return True
    return any(shape.readings(counts, k, opts) for shape, opts in extra)


def readings_of_counts(impl: ModuleType, counts: list[int], codes: tuple[int, ...], k: int,
                       shapes: ShapeSet) -> list[tuple[int, ...]]:
    orphans, extra = shapes
    found = list(impl._readings_parts(counts, codes, k, orphans))
    if not extra:
        return found
    for shape, opts in extra:
        found += [r + codes for r in shape.readings(counts, k, opts)]
    return sorted(set(found))


def tiles_away_of_counts(impl: ModuleType, counts: list[int], codes: tuple[int, ...], k: int,
                         shapes: ShapeSet) -> int:
    orphans, extra = shapes
    best: int = impl._away_parts(counts, codes, k, orphans)
    for shape, opts in extra:
        best = min(best, shape.tiles_away(counts, k, codes, opts))
    return best


def waits_of_counts(impl: ModuleType, counts: list[int], codes: tuple[int, ...], k: int,
                    shapes: ShapeSet) -> list[int]:
    orphans, extra = shapes
    found = set(impl._waits_parts(counts, codes, k, orphans))
    if extra:
        used = copies_used(codes, counts)
        trial = list(counts)
        for t in range(34):
            if t in found or used[t] >= 4:
                continue
            trial[t] += 1
            if any(shape.readings(trial, k, opts) for shape, opts in extra):
                found.add(t)
            trial[t] -= 1
    return sorted(found)


def is_complete(impl: ModuleType, tiles: Any, melds: Any, shapes: Any) -> bool:
    counts, codes, k = normalize(tiles, melds, "full")
    return complete_of_counts(impl, counts, codes, k, plain(shapes))


def readings(impl: ModuleType, tiles: Any, melds: Any, shapes: Any) -> list[tuple[int, ...]]:
    counts, codes, k = normalize(tiles, melds, "full")
    return sorted(set(readings_of_counts(impl, counts, codes, k, plain(shapes))))


def tiles_away(impl: ModuleType, tiles: Any, melds: Any, shapes: Any) -> int:
    counts, codes, k = normalize(tiles, melds, "any")
    return tiles_away_of_counts(impl, counts, codes, k, plain(shapes))


def waits(impl: ModuleType, tiles: Any, melds: Any, shapes: Any) -> list[Tile]:
    counts, codes, k = normalize(tiles, melds, "wait")
    return [TILES[t] for t in waits_of_counts(impl, counts, codes, k, plain(shapes))]
