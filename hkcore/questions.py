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
from itertools import islice
from typing import Any

from hkcore import core
from hkcore.core import CORE_SHAPES, ShapeSet
from hkcore.errors import HandError, shown
from hkcore.preset import Preset, PresetError, shape_options
from hkcore.registry import Catalogue, CheckedShape, catalogue

#: the most shapes one call may name
_MOST = 16


def shape_set(shapes: Any, cat: Catalogue | None = None) -> ShapeSet:
    """The ShapeSet of a Preset, a mapping of shape ids to options, or an
    iterable of shape ids ("standard" must be among them)."""
    if type(shapes) is ShapeSet:
        return shapes
    if isinstance(shapes, Preset):
        items: list[tuple[Any, Any]] = [(sid, shapes.shape_options.get(sid, {})) for sid in shapes.shapes]
    elif isinstance(shapes, Mapping):
        items = list(islice(shapes.items(), _MOST + 1))
    elif isinstance(shapes, str) or not isinstance(shapes, Iterable):
        raise HandError(f"shapes: expected shape ids, a mapping of ids to options or a Preset, got {shown(shapes)}",
                        "shapes", shapes)
    else:
        items = [(sid, {}) for sid in islice(shapes, _MOST + 1)]
    if len(items) > _MOST:
        raise HandError(f"shapes: more than {_MOST} shapes", "shapes", shapes)
    for sid, opts in items:
        if not isinstance(sid, str):
            raise HandError(f"shapes: a shape id is a string, not {shown(sid)}", "shapes", sid)
        if opts is not None and not isinstance(opts, Mapping):
            raise HandError(f"shapes.{shown(sid)}: options are a mapping, not {shown(opts)}", "shapes", opts)
    items = [(sid, opts or {}) for sid, opts in items]
    ids = [sid for sid, _ in items]
    if "standard" not in ids:
        raise HandError(f"shapes: {shown(ids)} lacks 'standard'", "shapes", ids)
    found = cat if cat is not None else catalogue()
    extra = []
    for sid, opts in items:
        if sid in CORE_SHAPES:
            continue
        if sid not in found.shapes:
            known = ", ".join([*CORE_SHAPES, *(s for s in found.shapes if s not in CORE_SHAPES)])
            raise HandError(f"shapes: unknown shape {shown(sid)}; known: {known}", "shapes", sid)
        shape = found.shapes[sid]
        try:
            options = shape_options(shape, opts, found)
        except PresetError as exc:
            raise HandError(f"shapes: {exc}", "shapes", opts) from None
        extra.append((CheckedShape(shape, found.owner.get(("shape", sid), "?")), options))
    return ShapeSet("thirteen_orphans" in ids, tuple(extra))


is_complete, readings, tiles_away, waits = core.bind_shapes(shape_set)

__all__ = ["is_complete", "readings", "shape_set", "tiles_away", "waits"]
