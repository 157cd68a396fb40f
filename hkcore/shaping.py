"""The four core questions over the shapes a ruleset allows.

``hkcore.is_complete``, ``readings``, ``tiles_away`` and ``waits`` are the
core's own functions with one addition: ``shapes=`` may name the shapes in
play as shape ids, a mapping of shape ids to their options, or a
``Preset``; they are looked up in the plugin registry and handed to the core
as a plain ``ShapeSet``. Without ``shapes`` the core answers directly, at
its own speed.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hkcore import core
from hkcore.core._shaped import CORE_SHAPES, ShapeSet
from hkcore.errors import HandError
from hkcore.preset import Preset, shape_options
from hkcore.registry import Catalogue, CheckedShape, catalogue


def shape_set(shapes: Any, cat: Catalogue | None = None) -> ShapeSet:
    """The ShapeSet of a Preset, a mapping of shape ids to options, or an
    iterable of shape ids ("standard" must be among them)."""
    if type(shapes) is ShapeSet:
        return shapes
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
    found = cat if cat is not None else catalogue()
    extra = []
    for sid, opts in items:
        if sid in CORE_SHAPES:
            continue
        if sid not in found.shapes:
            known = ", ".join([*CORE_SHAPES, *(s for s in found.shapes if s not in CORE_SHAPES)])
            raise HandError(f"shapes: unknown shape {sid!r}; known: {known}", "shapes", sid)
        shape = found.shapes[sid]
        extra.append((CheckedShape(shape, found.owner.get(("shape", sid), "?")), shape_options(shape, opts)))
    return ShapeSet("thirteen_orphans" in ids, tuple(extra))


is_complete, readings, tiles_away, waits = core._impl.bind_shapes(shape_set)

__all__ = ["shape_set", "is_complete", "readings", "tiles_away", "waits"]
