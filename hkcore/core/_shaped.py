"""The four core questions over the shapes a ruleset allows.

Both core implementations answer for the standard shape and thirteen
orphans; the shapes plugins add (seven pairs, say) answer through their
``Shape`` object. This module combines the two, for the ``shapes=``
argument of ``is_complete``, ``readings``, ``tiles_away`` and ``waits``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from hkcore.core._codes import CHOW, PUNG
from hkcore.core._normalize import normalize
from hkcore.errors import HandError
from hkcore.tiles import TILES, Tile

CORE_SHAPES = ("standard", "thirteen_orphans")


def resolve(shapes: Any) -> tuple[bool, list[tuple[Any, Mapping[str, Any]]]]:
    """(thirteen orphans in play, [(plugin Shape, options), ...]) for a shapes argument.

    ``shapes`` is a Preset, a mapping of shape ids to options, or an
    iterable of shape ids; "standard" must be among them.
    """
    from hkcore.preset import Preset, shape_options
    from hkcore.registry import catalogue

    if isinstance(shapes, Preset):
        items: list[tuple[str, Mapping[str, Any]]] = [(sid, shapes.shape_options.get(sid, {}))
                                                       for sid in shapes.shapes]
    elif isinstance(shapes, Mapping):
        items = [(sid, opts or {}) for sid, opts in shapes.items()]
    elif isinstance(shapes, str) or not isinstance(shapes, Iterable):
        raise HandError(f"shapes: expected shape ids, a mapping of ids to options or a Preset, got {shapes!r}",
                        "shapes", shapes)
    else:
        items = [(sid, {}) for sid in shapes]
    ids = [sid for sid, _ in items]
    if "standard" not in ids:
        raise HandError(f"shapes: {ids} lacks 'standard'", "shapes", ids)
    cat = catalogue()
    extra = []
    for sid, opts in items:
        if sid in CORE_SHAPES:
            continue
        if sid not in cat.shapes:
            known = ", ".join([*CORE_SHAPES, *(s for s in cat.shapes if s not in CORE_SHAPES)])
            raise HandError(f"shapes: unknown shape {sid!r}; known: {known}", "shapes", sid)
        shape = cat.shapes[sid]
        extra.append((shape, shape_options(shape, dict(opts))))
    return "thirteen_orphans" in ids, extra


def _used(codes: tuple[int, ...]) -> list[int]:
    used = [0] * 34
    for code in codes:
        kind, t = divmod(code, 34)
        if kind == CHOW:
            for j in (t, t + 1, t + 2):
                used[j] += 1
        else:
            used[t] += 3 if kind == PUNG else 4
    return used


def is_complete(impl: ModuleType, tiles: Any, melds: Any, shapes: Any) -> bool:
    orphans, extra = resolve(shapes)
    counts, codes, k = normalize(tiles, melds, "full")
    if impl._complete_parts(counts, codes, k, orphans):
        return True
    return any(shape.readings(counts, k, opts) for shape, opts in extra)


def readings(impl: ModuleType, tiles: Any, melds: Any, shapes: Any) -> list[tuple[int, ...]]:
    orphans, extra = resolve(shapes)
    counts, codes, k = normalize(tiles, melds, "full")
    found = list(impl._readings_parts(counts, codes, k, orphans))
    for shape, opts in extra:
        found += [r + codes for r in shape.readings(counts, k, opts)]
    return sorted(set(found))


def tiles_away(impl: ModuleType, tiles: Any, melds: Any, shapes: Any) -> int:
    orphans, extra = resolve(shapes)
    counts, codes, k = normalize(tiles, melds, "any")
    best = impl._away_parts(counts, codes, k, orphans)
    for shape, opts in extra:
        best = min(best, shape.tiles_away(counts, k, codes, opts))
    return best


def waits(impl: ModuleType, tiles: Any, melds: Any, shapes: Any) -> list[Tile]:
    orphans, extra = resolve(shapes)
    counts, codes, k = normalize(tiles, melds, "wait")
    found = set(impl._waits_parts(counts, codes, k, orphans))
    if extra:
        used = _used(codes)
        trial = list(counts)
        for t in range(34):
            if t in found or counts[t] + used[t] >= 4:
                continue
            trial[t] += 1
            if any(shape.readings(trial, k, opts) for shape, opts in extra):
                found.add(t)
            trial[t] -= 1
    return [TILES[t] for t in sorted(found)]
